"""A first run that says what it is doing (issue 18 item 2): a status line
before the progress bar when the engine's numba cache is cold, nothing when warm.
The cold cache is faked by pointing the game's dispatchers at an empty cache
folder (no compile is timed or asserted on time)."""
from __future__ import annotations

import numpy as np
import pytest

from balance.cli import first_run
from balance.simcore import precompile, registry
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.params import resolve
from tests.cli.runkit import balance


pytestmark = pytest.mark.usefixtures("race21")


def warm_engine(name="race21", policy="greedy"):
    spec = registry.get(name)
    engine = Engine(spec, [resolve_policy(spec, policy)])
    data = spec.load_data(resolve(spec, {}))
    engine.run(data.tables, spec.default_players, 1, np.arange(2), len(data.card_names))
    return spec, engine


def point_at_empty_cache(engine, folder, monkeypatch, traced=False):
    """Make every dispatcher of the engine's loop read its index from an empty folder (a cold cache)."""
    for d in precompile._dispatchers(engine._runner(), traced):
        cache_file = d._cache._cache_file
        monkeypatch.setattr(cache_file, "_index_path", str(folder / "none.nbi"))
        monkeypatch.setattr(d, "overloads", {})


def test_warm_engine_says_nothing():
    spec, engine = warm_engine()
    fresh = Engine(spec, engine.seats)  # same loop, this process has it: warm
    st = first_run.status(spec, fresh)
    assert st.warm is True and st.line is None


def test_cold_cache_is_told_with_the_game_the_policies_and_an_estimate(tmp_path, monkeypatch):
    spec, engine = warm_engine()
    point_at_empty_cache(engine, tmp_path, monkeypatch)
    st = first_run.status(spec, engine)
    assert st.warm is False
    assert st.line.startswith(f"compiling the {spec.title} engine (greedy): first run on this machine, about ")
    assert first_run.about(first_run.estimate_seconds("race21")) in st.line


def test_estimates_are_each_games_own_declaration():
    for name in registry.names():
        if registry.GAMES[name].startswith("balance.simcore."):  # every shipped game measured its compile
            assert registry.get(name).budgets.compile_seconds
            assert first_run.estimate_seconds(name) == registry.get(name).budgets.compile_seconds
    assert first_run.estimate_seconds("race21") == first_run.DEFAULT_SECONDS  # a game that declares none
    assert first_run.estimate_seconds("sickdays-party", ["expert"]) == 22 * first_run.SEARCH_FACTOR
    assert first_run.estimate_seconds("overtime", ["lookahead"]) > first_run.estimate_seconds("overtime", ["greedy"])
    assert first_run.about(50) == "about 50 s" and first_run.about(128) == "about 2 minutes"


def test_no_jit_is_unknown_and_silent(monkeypatch):
    import numba

    spec, engine = warm_engine()
    monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
    assert first_run.status(spec, engine) == first_run.Status(None, None)


def test_simulate_prints_the_line_before_the_games_when_cold(tmp_path, monkeypatch):
    spec, engine = warm_engine()
    line = "compiling the Race to 21 engine (greedy): first run on this machine, about 2 minutes"
    monkeypatch.setattr(first_run, "status", lambda spec, engine, traced=False, checked=False, ahead=False: first_run.Status(False, line))
    r = balance("simulate", "--game", "race21", "-n", 30, "--out", tmp_path / "a")
    assert r.exit_code == 0, r.output
    assert line in r.stderr
    quiet = balance("simulate", "--game", "race21", "-n", 30, "--out", tmp_path / "b", "--quiet")
    assert quiet.exit_code == 0 and line not in quiet.stderr


def test_simulate_on_a_warm_cache_prints_no_compile_line(tmp_path):
    warm_engine()
    r = balance("simulate", "--game", "race21", "-n", 30, "--out", tmp_path / "a")
    assert r.exit_code == 0, r.output
    assert "compiling" not in r.stderr


def test_replay_checks_the_traced_loop_and_says_when_it_compiles(tmp_path, monkeypatch):
    spec, engine = warm_engine()
    found = precompile._dispatchers(engine._runner(), traced=True)
    assert found[0] is engine._runner().play_traced  # the replay loop, not run_games
    point_at_empty_cache(engine, tmp_path, monkeypatch, traced=True)
    st = first_run.status(spec, engine, traced=True)
    assert st.warm is False and st.line.startswith(f"compiling the {spec.title} engine (greedy)")
    seen = []
    monkeypatch.setattr(first_run, "status", lambda spec, engine, traced=False, checked=False, ahead=False: (
        seen.append(traced), first_run.Status(False, "compiling (test)"))[1])
    r = balance("replay", "--game", "race21", "--index", 3)
    assert r.exit_code == 0, r.output
    assert seen == [True] and "compiling (test)" in r.stderr


def cold_engine(tmp_path, monkeypatch):
    """The toy game's greedy engine on a real empty cache (tmp_path), and a check that it plays the same
    40 games as the engine compiled in this process."""
    import balance.simcore.batch as batch
    import balance.simcore.jit as jit

    spec, engine = warm_engine()
    data = spec.load_data(resolve(spec, {}))
    want = engine.run(data.tables, spec.default_players, 5, np.arange(40), len(data.card_names))
    monkeypatch.setenv("BALANCE_NUMBA_CACHE", str(tmp_path))
    monkeypatch.setattr(jit, "CACHE_ROOT", tmp_path)
    monkeypatch.setattr(batch, "_RUNNERS", {})
    cold = Engine(spec, engine.seats)

    def plays_the_same_games() -> bool:
        got = cold.run(data.tables, spec.default_players, 5, np.arange(40), len(data.card_names))
        return np.array_equal(got.game_out, want.game_out) and np.array_equal(got.seat_out, want.seat_out)

    return spec, cold, plays_the_same_games


def test_a_cold_loop_is_compiled_in_a_child_process_and_loaded_here(tmp_path, monkeypatch):
    # a real empty cache: the child compiles the loop into it; this process then finds it there and
    # loads it (it compiled nothing itself), and plays the same games
    spec, cold, plays_the_same_games = cold_engine(tmp_path, monkeypatch)
    assert precompile.is_warm(cold) is False
    assert precompile.in_child(spec, cold)
    found = precompile._dispatchers(cold._runner())
    assert found and all(not d.overloads for d in found)  # nothing compiled in this process
    assert precompile.is_warm(cold) is True
    assert plays_the_same_games()
    assert any(tmp_path.rglob("*.nbi"))


def test_a_cold_replay_loop_is_compiled_in_a_child_process_too(tmp_path, monkeypatch):
    # `balance replay` on a cold cache: the traced loop compiles in the children, this process loads it
    # and replays the same game as the loop compiled here
    spec, engine = warm_engine()
    data = spec.load_data(resolve(spec, {}))
    want = engine.replay(data.tables, spec.default_players, 5, 3)
    spec, cold, _ = cold_engine(tmp_path, monkeypatch)
    assert precompile.is_warm(cold, traced=True) is False
    assert precompile.in_child(spec, cold, traced=True)
    assert not cold._runner().play_traced.overloads  # nothing compiled in this process
    assert precompile.is_warm(cold, traced=True) is True
    got = cold.replay(data.tables, spec.default_players, 5, 3)
    assert all(np.array_equal(a, b) for a, b in zip(got, want))


def test_no_child_without_the_jit(monkeypatch):
    spec, engine = warm_engine()
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    assert precompile.in_child(spec, engine) is None


def test_a_failed_child_is_said_and_the_run_compiles_itself(tmp_path, monkeypatch):
    spec, engine = warm_engine()
    monkeypatch.setattr(precompile, "_run_child", lambda cmd: 1)
    assert precompile.in_child(spec, engine) is False
    monkeypatch.setattr(first_run, "status", lambda spec, engine, traced=False, checked=False, ahead=False: first_run.Status(False, "compiling (test)"))
    r = balance("simulate", "--game", "race21", "-n", 30, "--out", tmp_path / "a")
    assert r.exit_code == 0, r.output
    assert "compile in a child process failed" in r.stderr and (tmp_path / "a" / "report.html").exists()


def test_a_compile_on_a_small_budget_is_cut_across_children_that_each_make_progress(tmp_path, monkeypatch):
    # a budget of 0 MB, which no compile fits in: every child compiles one kernel, caches it and stops
    # (SPENT); the next loads it and goes on, until one builds the loop. The games are those of the loop
    # compiled in one go.
    spec, cold, plays_the_same_games = cold_engine(tmp_path, monkeypatch)
    codes = []
    plain = precompile._run_child

    def run(cmd):
        codes.append(plain(cmd))
        return codes[-1]

    monkeypatch.setattr(precompile, "_run_child", run)
    assert precompile.in_child(spec, cold, budget_mb=0)
    assert len(codes) > 2 and codes[-1] == 0 and set(codes[:-1]) == {precompile.SPENT}, codes
    assert precompile.is_warm(cold) is True
    assert plays_the_same_games()


def test_children_that_never_finish_are_given_up_and_the_run_compiles_itself(monkeypatch):
    spec, engine = warm_engine()
    calls = []
    monkeypatch.setattr(precompile, "_run_child", lambda cmd: calls.append(cmd) or precompile.SPENT)
    assert precompile.in_child(spec, engine) is False
    assert len(calls) == precompile.MAX_CHILDREN


def test_a_loop_compiled_ahead_is_waited_for_not_compiled_again(tmp_path, monkeypatch):
    # `ahead` starts the children in a thread and returns; `in_child` for the same loop waits for them
    # and starts none of its own; the loop is then in the cache, and plays the same games
    import threading

    spec, cold, plays_the_same_games = cold_engine(tmp_path, monkeypatch)
    started = []
    plain = precompile._run_child

    def run(cmd):
        started.append(threading.current_thread().name)
        return plain(cmd)

    monkeypatch.setattr(precompile, "_run_child", run)
    assert precompile.ahead(spec, cold) is True
    assert precompile.compiling_ahead(spec, cold) and precompile.ahead(spec, cold) is True  # one compile
    assert precompile.in_child(spec, cold) is True
    assert started and all(name.startswith("compile ahead") for name in started), started
    assert not precompile.compiling_ahead(spec, cold)
    assert precompile.is_warm(cold) is True
    assert plays_the_same_games()
    assert precompile.ahead(spec, cold) is False  # warm: nothing to start


def test_a_cold_run_starts_its_skill_checks_loop_ahead_and_says_so_when_it_waits(tmp_path, monkeypatch):
    # simulate with a skill check starts the expert loop's compile before its own games (a warm cache:
    # `ahead` is recorded, not run); the skill check's status line then says the compile is already
    # under way when it still is
    spec, engine = warm_engine()
    seen = []
    monkeypatch.setattr(precompile, "ahead", lambda spec, engine, check=False: seen.append(
        sorted(s.name for s in engine.seats)) or False)
    r = balance("simulate", "--game", "race21", "-n", 40, "--skill-check", 20, "--out", tmp_path / "a", "--quiet")
    assert r.exit_code == 0, r.output
    assert seen and all(set(x) == {"expert"} for x in seen), seen
    seen.clear()
    assert balance("simulate", "--game", "race21", "-n", 40, "--skill-check", 0, "--out", tmp_path / "b",
                   "--quiet").exit_code == 0
    assert seen == []  # no skill check, nothing ahead
    point_at_empty_cache(engine, tmp_path, monkeypatch)
    st = first_run.status(spec, engine, ahead=True)
    assert st.warm is False and "already under way" in st.line


def test_no_compile_child_starts_once_the_process_is_exiting(monkeypatch):
    # at exit, running children are stopped and a loop compiled ahead cannot start another
    import subprocess

    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a))
    monkeypatch.setattr(precompile, "_EXITING", [True])
    assert precompile._run_child(["true"]) is None and started == []
