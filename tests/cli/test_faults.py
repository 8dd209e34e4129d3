"""Faults a designer meets: an unwritable folder, a full disk (before and during a run)."""
import errno
import shutil
from collections import namedtuple

import polars as pl
import pytest
from typer.testing import CliRunner

from analysis.frames import load_games
from cli.app import app
from simcore import registry

runner = CliRunner()


@pytest.fixture(autouse=True)
def toy_game(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "race21", "toygame")


def balance(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_unwritable_run_folder_is_refused_before_any_game(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    r = balance("simulate", "--game", "race21", "-n", 100, "--out", blocker / "run", "--quiet")
    assert r.exit_code == 2 and "--out: cannot write the run folder" in r.output and "Traceback" not in r.output
    r = balance("simulate", "--game", "race21", "-n", 100, "--out", blocker, "--quiet")
    assert r.exit_code == 2 and "is a file, not a folder" in r.output


def test_full_disk_is_refused_before_any_game(tmp_path, monkeypatch):
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**9, 10**9 - 2**20, 2**20))
    out = tmp_path / "run"
    r = balance("simulate", "--game", "race21", "-n", 100_000, "--out", out, "--quiet")
    assert r.exit_code == 2 and "MB free; this run needs about" in r.output
    assert not list((out / "parts").glob("*.parquet"))


def test_disk_full_mid_run_keeps_finished_chunks_and_resumes(tmp_path, monkeypatch):
    out = tmp_path / "run"
    real = pl.DataFrame.write_parquet
    calls = {"n": 0}

    def failing(self, path, *a, **kw):
        calls["n"] += 1
        if calls["n"] > 6:  # two chunks (games, seats, cards each) fit, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, path, *a, **kw)

    monkeypatch.setattr(pl.DataFrame, "write_parquet", failing)
    r = balance("simulate", "--game", "race21", "-n", 5000, "--chunk-size", 1000, "--seed", 3, "--out", out, "--quiet")
    assert r.exit_code == 2 and "No space left on device" in r.output and "run the same command again" in r.output
    assert not list((out / "parts").glob("*.tmp"))
    assert len(list((out / "parts").glob("games-*.parquet"))) == 2
    monkeypatch.setattr(pl.DataFrame, "write_parquet", real)
    r = balance("simulate", "--game", "race21", "-n", 5000, "--chunk-size", 1000, "--seed", 3, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    resumed = load_games(out).sort("game_index")
    r = balance("simulate", "--game", "race21", "-n", 5000, "--seed", 3, "--out", tmp_path / "clean", "--quiet")
    clean = load_games(tmp_path / "clean").sort("game_index")
    assert resumed.height == 5000 and resumed.select("game_index", "decisions", "total").equals(
        clean.select("game_index", "decisions", "total"))
