"""A run killed in every window of a chunk's commit, then resumed with another
chunk size and a bigger -n, ends with exactly the results of a clean run: the
same summary.json numbers and the same rows, read with plain polars from the
table folders (no stray part counted, no range counted twice).

The windows are the fault points of analysis.store.commit_chunk: before the
first part, after each part is staged, after each is moved into its table
folder, after the commit record. In this process the fault raises (nothing
after it runs, as in a killed process: the lock goes with the process
either way, flock being dropped by the kernel); in a child process it is a
real SIGKILL (BALANCE_TEST_FAULT), which also leaves the dead writer's lock
file behind for the next writer to take over.
"""
import json
import os
import signal
from collections import Counter

import polars as pl
import pytest

from balance.analysis import folder_entries, store
from balance.analysis.frames import load_games, load_seats

from runkit import balance, child, race21_registered, rows, same_run, simulate_args, summary

KILLED_N, KILLED_CHUNK = 6000, 1000  # the killed run: chunks of 1000, killed in its third chunk
RESUMES = {"other chunk size, bigger -n": (9000, 700), "default chunk size of a bigger -n": (30000, None)}


class Killed(BaseException):
    """Stands for the process dying: not an Exception, so nothing catches it."""


pytestmark = pytest.mark.usefixtures("race21")


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """Uninterrupted runs of each resume's size (their default chunk size)."""
    out = {}
    with race21_registered():
        for name, (n, _) in RESUMES.items():
            folder = tmp_path_factory.mktemp("clean") / "run"
            r = balance(*simulate_args(folder, n))
            assert r.exit_code == 0, r.output
            out[name] = folder
    return out


def kill_at(monkeypatch, point: str, nth: int = 3) -> None:
    hits = Counter()

    def fault(p):
        if p == point:
            hits[p] += 1
            if hits[p] == nth:
                raise Killed(p)

    monkeypatch.setattr(store, "fault", fault)


WINDOWS = [(point, "other chunk size, bigger -n") for point in store.FAULT_POINTS] + [
    (point, "default chunk size of a bigger -n") for point in ("staged:cards", "moved:games", "moved:cards", "committed")]


@pytest.mark.parametrize("point,resume", WINDOWS)
def test_a_kill_in_every_window_then_resume_equals_a_clean_run(tmp_path, monkeypatch, clean, point, resume):
    out = tmp_path / "killed"
    kill_at(monkeypatch, point)
    with pytest.raises(Killed):
        balance(*simulate_args(out, KILLED_N, KILLED_CHUNK))
    monkeypatch.setattr(store, "fault", lambda p: None)

    committed = 3 if point == "committed" else 2  # the third chunk's record landed or not
    assert load_games(out).height == committed * KILLED_CHUNK  # strays are not counted
    assert load_seats(out).height == 2 * committed * KILLED_CHUNK
    moved = {"moved:games": 1, "moved:seats": 2, "moved:cards": 3}.get(point, 0)
    for i, kind in enumerate(folder_entries.TABLES):  # what a kill leaves in the table folders (docs/run-folder.md)
        on_disk = len(list((out / "parts" / kind).glob("*.parquet")))
        assert on_disk == committed + (1 if i < moved else 0), (kind, on_disk)
    # a report of the killed folder counts the committed chunks only, and says it is incomplete
    r = balance("report", out)
    assert r.exit_code == 0, r.output
    s = summary(out)
    assert s["n_games"] == committed * KILLED_CHUNK and s["complete"] is False

    n, chunk = RESUMES[resume]
    r = balance(*simulate_args(out, n, chunk))
    assert r.exit_code == 0, r.output
    assert same_run(out, clean[resume])
    assert not list((out / "parts" / folder_entries.STAGING).iterdir())


@pytest.mark.parametrize("fault", ["staged:seats@3", "moved:seats@3", "moved:cards@2", "committed@2"])
def test_a_real_sigkill_in_a_window_then_resume_equals_a_clean_run(tmp_path, clean, fault):
    out = tmp_path / "killed"
    proc = child(*simulate_args(out, KILLED_N, KILLED_CHUNK), env={**os.environ, "BALANCE_TEST_FAULT": fault})
    proc.communicate(timeout=600)
    assert proc.returncode == -signal.SIGKILL
    lock = out / folder_entries.LOCK
    assert lock.exists() and str(proc.pid) in lock.read_text()  # a dead writer's lock, left behind
    n, chunk = RESUMES["other chunk size, bigger -n"]
    r = balance(*simulate_args(out, n, chunk))  # takes the stale lock over
    assert r.exit_code == 0, r.output
    assert not lock.exists()
    assert same_run(out, clean["other chunk size, bigger -n"])


def test_the_old_bug_stray_seats_of_a_killed_chunk_are_not_counted(tmp_path, clean):
    """Issue 17 item 1: seats (and cards) parts of a chunk whose games part
    never landed, resumed with another chunk size: 310,000 seat rows for
    300,000 games. Here the stray parts sit in their table folders unrecorded."""
    out = tmp_path / "killed"
    proc = child(*simulate_args(out, KILLED_N, KILLED_CHUNK),
                 env={**os.environ, "BALANCE_TEST_FAULT": "moved:cards@3"})
    proc.communicate(timeout=600)
    assert len(list((out / "parts" / "seats").glob("*.parquet"))) == 3  # two committed, one stray
    n, chunk = RESUMES["other chunk size, bigger -n"]
    assert balance(*simulate_args(out, n, chunk)).exit_code == 0
    seats = rows(out)["seats"]
    assert seats.height == 2 * n and seats.select("game_index", "seat").n_unique() == 2 * n
    cards = pl.read_parquet(out / "parts" / "cards")
    assert cards["seat_games"].sum() // cards.select("card_id", "counter").n_unique() == 2 * n


def test_a_killed_precision_run_resumes_to_the_same_stopping_point(tmp_path, monkeypatch):
    args = ["simulate", "--game", "race21", "-n", 40000, "--chunk-size", 1000, "--seed", 3, "--precision", 0.03,
            "--quiet"]
    clean = tmp_path / "clean"
    assert balance(*args, "--out", clean).exit_code == 0
    out = tmp_path / "killed"
    kill_at(monkeypatch, "moved:seats", nth=2)
    with pytest.raises(Killed):
        balance(*args, "--out", out)
    monkeypatch.setattr(store, "fault", lambda p: None)
    assert balance(*args, "--out", out).exit_code == 0
    stopping = lambda d: json.loads((d / "stopping.json").read_text())  # noqa: E731
    assert stopping(out) == stopping(clean) and stopping(clean)["stopped_by"] == "precision"
    assert same_run(out, clean)
