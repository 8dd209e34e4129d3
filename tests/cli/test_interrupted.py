"""Issue 40 item 10's silent interruptions: Ctrl-C (or SIGTERM) says how many games the folder kept and how
to go on, and a resumed folder says how many it already holds. Real signals to a real `balance simulate`
and `balance sweep` process; in this process, the same words from impact, ladder and tune."""
import os
import re
import signal
import time

import pytest

from balance.analysis import execution, runs
from balance.simcore import registry

from runkit import balance, child, summary

KEPT = re.compile(r"interrupted: ([\d,]+) of ([\d,]+) games kept; rerun the same command to resume")


pytestmark = pytest.mark.usefixtures("race21")


def committed_games(out) -> int:
    return sum(c for ranges in runs.covered(out).values() for _, c in ranges)


def stop_after_two_chunks(proc, out, sig):
    """Send `sig` once two chunks are committed (the run asks for far more than it can play meanwhile)."""
    log = out / "chunks.jsonl"
    while proc.poll() is None and not (log.exists() and log.read_text().count("\n") >= 2):
        time.sleep(0.02)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(sig)
    return proc.communicate(timeout=600)


@pytest.mark.parametrize("sig,status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_says_what_was_kept_and_a_rerun_says_it_resumes(tmp_path, sig, status):
    out = tmp_path / "run"
    args = ["simulate", "--game", "race21", "-n", 100_000_000, "--chunk-size", 2000, "--seed", 9, "--out", out]
    proc = child(*args, env={**os.environ})
    _, err = stop_after_two_chunks(proc, out, sig)
    assert proc.returncode == status, err
    m = KEPT.search(err)
    assert m, err
    kept = int(m.group(1).replace(",", ""))
    assert kept == committed_games(out) and kept >= 4000 and m.group(2) == "100,000,000"
    assert "Traceback" not in err and not (out / ".lock").exists()

    r = balance("simulate", "--game", "race21", "-n", 20_000, "--chunk-size", 2000, "--seed", 9, "--out", out)
    assert r.exit_code == 0, r.output
    assert f"resuming: {kept:,} of 20,000 games already played" in r.stderr
    assert summary(out)["n_games"] == 20_000


def test_a_sweep_stopped_by_sigint_says_so_too(tmp_path):
    out = tmp_path / "sweep"
    args = ["sweep", "--game", "race21", "--vary", "target=20..21", "-n", 100_000_000, "--chunk-size", 2000,
            "--out", out]
    proc = child(*args, env={**os.environ})
    _, err = stop_after_two_chunks(proc, out, signal.SIGINT)
    assert proc.returncode == 130, err
    m = KEPT.search(err)
    assert m and int(m.group(1).replace(",", "")) == committed_games(out) and m.group(2) == "200,000,000", err


def interrupt_on_chunk(monkeypatch, nth: int):
    """Ctrl-C while the nth chunk of this process plays (after the earlier ones were played)."""
    plain = execution.Prepared.run_task
    calls = []

    def run_task(self, variant, first, count):
        calls.append(first)
        if len(calls) == nth:
            raise KeyboardInterrupt
        return plain(self, variant, first, count)

    monkeypatch.setattr(execution.Prepared, "run_task", run_task)


@pytest.mark.parametrize("command", ["impact", "ladder", "simulate"])
def test_impact_ladder_and_simulate_say_what_was_kept(tmp_path, monkeypatch, command):
    out = tmp_path / command
    args = {"impact": ["impact", "--game", "race21", "--rules", "target", "-n", 3000, "--chunk-size", 1000],
            "ladder": ["ladder", "--game", "race21", "-n", 3000, "--search-share", 0.1, "--chunk-size", 1000],
            "simulate": ["simulate", "--game", "race21", "-n", 6000, "--chunk-size", 1000]}[command]
    interrupt_on_chunk(monkeypatch, 4)
    r = balance(*args, "--out", out, "--quiet")
    assert r.exit_code == 130, r.output
    m = KEPT.search(r.stderr)
    assert m and int(m.group(1).replace(",", "")) == committed_games(out) == 3000, r.stderr
    monkeypatch.undo()
    monkeypatch.setitem(registry.GAMES, "race21", "toygame")
    r = balance(*args, "--out", out)
    assert r.exit_code == 0, r.output
    assert re.search(r"resuming: 3,000 of [\d,]+ games already played", r.stderr), r.stderr


def test_tune_says_it_kept_nothing(tmp_path, monkeypatch):
    from balance.analysis import tune as tune_module
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(tune_module, "tune", interrupted)
    r = balance("tune", "--game", "race21", "--vary", "target=20..21", "--target", "win_rate=0.4..0.6", "-n", 20,
                "--out", tmp_path / "t", "--quiet")
    assert r.exit_code == 130
    assert "interrupted: tune writes its folder only when it ends, so nothing was kept" in r.stderr
    assert not (tmp_path / "t").exists()


def test_a_quiet_resume_says_nothing(tmp_path):
    out = tmp_path / "run"
    assert balance("simulate", "--game", "race21", "-n", 2000, "--out", out, "--quiet").exit_code == 0
    r = balance("simulate", "--game", "race21", "-n", 4000, "--out", out, "--quiet")
    assert r.exit_code == 0 and "resuming" not in r.stderr
