"""One writer per run folder (issue 17 item 2): a second `simulate` (or a
`report`) on a folder another process is writing is refused with one line
naming that process, however the two are timed; the first finishes with the
results of a run that was alone. The writer is held at a known point by the
BALANCE_TEST_FAULT hook (it waits for a file), so nothing here depends on timing."""
import os
import time

import pytest


from runkit import balance, child, one_line_error, played_at_once, same_run, simulate_args, summary

WAIT_LIMIT = 300  # seconds; only reached when the test fails


pytestmark = pytest.mark.usefixtures("race21")


def paused_env(go):
    """The writer stops after committing its second chunk until `go` exists."""
    return {**os.environ, "BALANCE_TEST_FAULT": f"committed@2:wait:{go}"}


def wait_for(predicate, what):
    deadline = time.monotonic() + WAIT_LIMIT
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_a_second_writer_and_a_report_are_refused_naming_the_first(tmp_path):
    out, go = tmp_path / "run", tmp_path / "go"
    first = child(*simulate_args(out, 6000, 1000), env=paused_env(go))
    try:
        wait_for(lambda: (tmp_path / "go.reached").exists() or first.poll() is not None, "the first writer")
        assert first.poll() is None, first.communicate()
        for args in (simulate_args(out, 9000, 1000), simulate_args(out, 6000, 1000), ["report", out]):
            line = one_line_error(balance(*args))
            assert "is being written by another balance process" in line and f"pid {first.pid} on " in line, line
            assert "wait for it to finish" in line
    finally:
        go.write_text("go")
        first.communicate(timeout=WAIT_LIMIT)
    assert first.returncode == 0
    assert summary(out)["n_games"] == 6000 and summary(out)["complete"] is True
    # now alone: the bigger run resumes from it and equals a clean run
    assert balance(*simulate_args(out, 9000, 1000)).exit_code == 0
    assert same_run(out, played_at_once(tmp_path / "clean", 9000))


@pytest.mark.parametrize("sizes", [(4000, 6000), (6000, 6000)])
def test_two_writers_started_together_one_runs_one_is_refused(tmp_path, sizes):
    """Issue 17 item 2: -n 40,000 and 60,000 on one --out gave `n_games 70000`,
    or a false "cannot write the run folder" from the shared .write-probe."""
    out, go = tmp_path / "run", tmp_path / "go"
    procs = [child(*simulate_args(out, n, 1000), env=paused_env(go)) for n in sizes]
    try:
        wait_for(lambda: any(p.poll() is not None for p in procs), "one writer to be refused")
        loser = next(p for p in procs if p.poll() is not None)
        _, err = loser.communicate()
        assert loser.returncode == 2, err
        assert "is being written by another balance process" in err and "Traceback" not in err
        assert len([x for x in err.splitlines() if x.strip()]) == 1
    finally:
        go.write_text("go")
        results = [p.communicate(timeout=WAIT_LIMIT) for p in procs]
    winner = next(p for p in procs if p is not loser)
    assert winner.returncode == 0, results
    n = sizes[procs.index(winner)]
    assert same_run(out, played_at_once(tmp_path / "clean", n, 1000))
