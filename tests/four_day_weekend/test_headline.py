"""The game's own summary metrics from result frames."""
import numpy as np
import polars as pl
from helpers import TABLES

from simcore.batch import Engine, resolve_policy
from simcore.four_day_weekend import SPEC


def frames(n_players=3, n=60):
    r = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).run(TABLES, n_players, 9, np.arange(n), TABLES[0].shape[0])
    games = pl.DataFrame({"game_index": np.arange(n), **{c: r.game_out[:, i] for i, c in enumerate(SPEC.game_column_names)}})
    rows = []
    for g in range(n):
        for s in range(n_players):
            rows.append({"game_index": g, "seat": s, **{c: r.seat_out[g, s, i] for i, c in enumerate(SPEC.seat_column_names)}})
    return games, pl.DataFrame(rows)


def test_headline_metrics():
    games, seats = frames()
    h = SPEC.headline(games, seats, {})
    for key in ("points_per_game", "points_per_round", "sets_per_round", "turns_per_round", "refills_from_rows", "shared_wins"):
        assert h[key]["value"] is not None and h[key]["ci"][0] <= h[key]["value"] <= h[key]["ci"][1]
    ends = h["round_ends"]["distribution"]  # rounds by how they ended: every round of every game
    assert sum(ends.values()) == int(games["rounds_btw"].sum() + games["rounds_exhausted"].sum()
                                     + games["rounds_turn_limit"].sum()) > 0
    assert 0.0 < h["refills_from_rows"]["value"] < 1.0
    assert h["points_per_game"]["value"] > h["points_per_round"]["value"] > 0
