"""Faults a designer meets: an unwritable folder, a full disk (before and
during a run, as an OSError or as the ComputeError polars raises), a full
disk when the summary is written."""
import errno
import json
import shutil
from collections import namedtuple
from pathlib import Path

import polars as pl
import pytest

from balance.analysis.frames import load_games

from runkit import balance, one_line_error, played_at_once, same_run, simulate_args


pytestmark = pytest.mark.usefixtures("race21")


def test_unwritable_run_folder_is_refused_before_any_game(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    r = balance("simulate", "--game", "race21", "-n", 100, "--out", blocker / "run", "--quiet")
    assert "--out: cannot write the run folder" in one_line_error(r)
    r = balance("simulate", "--game", "race21", "-n", 100, "--out", blocker, "--quiet")
    assert "is a file, not a folder" in one_line_error(r)


def test_full_disk_is_refused_before_any_game_and_leaves_no_folder(tmp_path, monkeypatch):
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**9, 10**9 - 2**20, 2**20))
    out = tmp_path / "run"
    r = balance("simulate", "--game", "race21", "-n", 100_000, "--out", out, "--quiet")
    assert "MB free; this run needs about" in one_line_error(r)
    assert not out.exists()


def no_space(exc_type):
    if exc_type is OSError:
        return OSError(errno.ENOSPC, "No space left on device")
    return pl.exceptions.ComputeError("failed to write parquet: No space left on device (os error 28)")


@pytest.mark.parametrize("exc_type", [OSError, pl.exceptions.ComputeError])
def test_disk_full_mid_run_keeps_committed_chunks_and_resumes(tmp_path, monkeypatch, exc_type):
    out = tmp_path / "run"
    real = pl.DataFrame.write_parquet
    calls = {"n": 0}

    def failing(self, path, *a, **kw):
        calls["n"] += 1
        if calls["n"] > 7:  # two chunks (games, seats, cards each) and one part of the third fit
            raise no_space(exc_type)
        return real(self, path, *a, **kw)

    monkeypatch.setattr(pl.DataFrame, "write_parquet", failing)
    r = balance(*simulate_args(out, 5000, 1000, seed=3))
    line = one_line_error(r)
    assert "No space left on device" in line and "run the same command again" in line
    assert not list((out / "parts" / "_staging").iterdir())
    assert len(list((out / "parts" / "games").glob("*.parquet"))) == 2
    assert load_games(out).height == 2000
    monkeypatch.setattr(pl.DataFrame, "write_parquet", real)
    r = balance(*simulate_args(out, 5000, 1000, seed=3))
    assert r.exit_code == 0, r.output
    assert same_run(out, played_at_once(tmp_path / "clean", 5000, seed=3))


def test_disk_full_while_appending_a_record_is_one_line_and_resumes(tmp_path, monkeypatch):
    import os

    from balance.analysis import chunk_log

    out = tmp_path / "run"
    real = os.write
    appended = {"n": 0}

    def write(fd, data):
        if b'"record"' in data:
            appended["n"] += 1
            if appended["n"] == 3:  # half of the third record lands: a torn last line
                real(fd, data[: len(data) // 2])
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(chunk_log.os, "write", write)
    line = one_line_error(balance(*simulate_args(out, 5000, 1000, seed=4)))
    assert "chunks.jsonl" in line and "No space left on device" in line
    monkeypatch.setattr(chunk_log.os, "write", real)
    assert not (out / "chunks.jsonl").read_bytes().endswith(b"\n")  # torn: not a record
    assert load_games(out).height == 2000
    assert balance(*simulate_args(out, 5000, 1000, seed=4)).exit_code == 0
    assert same_run(out, played_at_once(tmp_path / "clean", 5000, seed=4))


def test_disk_full_when_the_summary_is_written_is_one_line(tmp_path, monkeypatch):
    from balance.analysis import folder_entries

    out = tmp_path / "run"
    real = folder_entries.replace_entry

    def replace_entry(run_dir, rel, *a, **kw):  # how a result file is written (analysis.results)
        if rel.startswith("summary.json"):
            raise OSError(errno.ENOSPC, "No space left on device", str(Path(run_dir) / rel))
        return real(run_dir, rel, *a, **kw)

    monkeypatch.setattr(folder_entries, "replace_entry", replace_entry)
    line = one_line_error(balance(*simulate_args(out, 2000, 1000)))
    assert "summary.json" in line and "No space left on device" in line
    monkeypatch.setattr(folder_entries, "replace_entry", real)
    r = balance("report", out)  # the parts are all there: the report rebuilds the summary
    assert r.exit_code == 0, r.output
    assert json.loads((out / "summary.json").read_text())["n_games"] == 2000
