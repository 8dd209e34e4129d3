"""Run folders: parts per finished range, resume without recomputing, refusal
of a different configuration on the same folder."""
import json

import polars as pl
import pytest

from balance.analysis import execution, runs
from balance.simcore.batch import BalanceError, resolve_policy
from toygame import SPEC


def config(n, policy="greedy", chunk=100, seed=3):
    return runs.make_config(SPEC, {}, 2, [resolve_policy(SPEC, policy)], seed, n, chunk)


def play(folder, cfg, n):
    runs.open_run(folder, SPEC, cfg, n, "test")
    return execution.execute(folder, SPEC, cfg, n)


def games(folder):
    return pl.read_parquet(folder / "parts" / "games").sort("game_index")


def test_parts_cover_every_game_once(tmp_path):
    play(tmp_path, config(350), 350)
    g = games(tmp_path)
    assert g["game_index"].to_list() == list(range(350))
    seats = pl.read_parquet(tmp_path / "parts" / "seats")
    assert seats.height == 700 and seats.group_by("game_index").agg(pl.col("won").sum())["won"].to_list() == [1] * 350
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["config"]["seed"] == 3 and manifest["n_games"] == 350


def test_resume_recomputes_nothing_and_matches_a_fresh_run(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    play(a, config(300), 300)
    # an interrupted run: drop the last range as if the process died before it
    last = sorted((a / "parts" / "games").glob("*.parquet"))[-1]
    last.unlink()
    stamps = {p.name: p.stat().st_mtime_ns for p in (a / "parts" / "games").glob("*.parquet")}
    again = play(a, config(300), 300)
    assert again["games_played_now"] == 100
    for p in (a / "parts" / "games").glob("*.parquet"):
        if p.name in stamps:
            assert p.stat().st_mtime_ns == stamps[p.name]
    assert play(a, config(300), 300)["games_played_now"] == 0
    # growing the run tops up the partial chunk and adds the rest
    assert play(a, config(300), 420)["games_played_now"] == 120
    play(b, config(420, chunk=64), 420)
    assert games(a).drop("variant").equals(games(b).drop("variant"))


def test_other_configuration_is_refused(tmp_path):
    play(tmp_path, config(100), 100)
    with pytest.raises(BalanceError, match="holds a different configuration.*policies"):
        runs.open_run(tmp_path, SPEC, config(100, "random"), 100, "test")
    with pytest.raises(BalanceError, match="seed"):
        runs.open_run(tmp_path, SPEC, config(100, seed=4), 100, "test")


def test_missing_tasks_split_around_finished_ranges():
    cfg = config(1000, chunk=400)
    assert runs.chunks(1000, 400) == [(0, 0, 400), (1, 400, 400), (2, 800, 200)]
    assert [t[2:] for t in runs.missing_tasks("/nonexistent", cfg, 1000)] == [(0, 400), (400, 400), (800, 200)]


def test_precision_stops_when_the_interval_is_narrow_enough(tmp_path):
    cfg = config(20_000, chunk=500)
    runs.open_run(tmp_path, SPEC, cfg, 20_000, "test")
    out = execution.execute(tmp_path, SPEC, cfg, 20_000, precision=0.08)
    st = out["stopping"]
    assert st["stopped_by"] == "precision"
    # two seats near 50%: a 95% Wilson width below 0.08 needs ~600 games, so 2 chunks
    assert st["variants"][0]["games"] == 1000 and st["variants"][0]["widest_ci"] < 0.08
    # asking for more precision than n allows stops at n and says so
    out = execution.execute(tmp_path, SPEC, cfg, 3000, precision=0.001)
    assert out["stopping"]["stopped_by"] == "n_games" and out["stopping"]["variants"][0]["games"] == 3000
