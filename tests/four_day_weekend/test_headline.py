"""The game's own summary metrics (declared in the spec) from result frames."""
import numpy as np
import polars as pl

from balance.analysis.metrics import GameMetrics
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.four_day_weekend import SPEC

from .helpers import TABLES


def frames(n_players=3, n=60):
    r = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).run(TABLES, n_players, 9, np.arange(n), TABLES[0].shape[0])
    games = pl.DataFrame({"variant": ["base"] * n, "game_index": np.arange(n),
                          **{c: r.game_out[:, i] for i, c in enumerate(SPEC.game_column_names)}})
    rows = []
    for g in range(n):
        for s in range(n_players):
            rows.append({"variant": "base", "game_index": g, "seat": s,
                         **{c: r.seat_out[g, s, i] for i, c in enumerate(SPEC.seat_column_names)}})
    return games, pl.DataFrame(rows)


def metrics(games, seats, windows=1):
    m = GameMetrics(SPEC, {}, 3)
    for part in np.array_split(np.arange(games.height), windows):
        keep = pl.col("game_index").is_in(games["game_index"].to_numpy()[part])
        m.add(games.filter(keep), seats.filter(keep))
    return m.result()


def test_headline_metrics():
    games, seats = frames()
    h = metrics(games, seats)
    for key in ("points_per_game", "points_per_round", "sets_per_round", "turns_per_round", "refills_from_rows", "shared_wins"):
        assert h[key]["value"] is not None and h[key]["ci"][0] <= h[key]["value"] <= h[key]["ci"][1]
    ends = h["round_ends"]["distribution"]  # rounds by how they ended: every round of every game
    assert sum(ends.values()) == int(games["rounds_btw"].sum() + games["rounds_exhausted"].sum()
                                     + games["rounds_turn_limit"].sum()) > 0
    assert 0.0 < h["refills_from_rows"]["value"] < 1.0
    assert h["points_per_game"]["value"] > h["points_per_round"]["value"] > 0


def test_metrics_are_what_they_say_and_the_same_in_windows():
    """Each figure by hand from the frames; three windows give the same numbers."""
    games, seats = frames()
    h = metrics(games, seats)
    rounds = games.select(["game_index", "rounds"])
    per = seats.join(rounds, on="game_index")
    assert np.isclose(h["sets_per_round"]["value"], (per["sets_completed"] / per["rounds"].clip(lower_bound=1)).mean())
    assert np.isclose(h["turns_per_round"]["value"], (games["turns"] / games["rounds"].clip(lower_bound=1)).mean())
    assert np.isclose(h["points_per_game"]["value"], seats["score"].mean())
    total = sum(int(games[c].sum()) for c in ("rounds_btw", "rounds_exhausted", "rounds_turn_limit"))
    assert h["round_end_btw"]["k"] == int(games["rounds_btw"].sum()) and h["round_end_btw"]["n"] == total
    taken, drawn = int(seats["taken_from_rows"].sum()), int(seats["drawn_from_pile"].sum())
    assert (h["refills_from_rows"]["k"], h["refills_from_rows"]["n"]) == (taken, taken + drawn)
    assert h["shared_wins"]["n"] == games.height
    split = metrics(games, seats, windows=3)
    assert list(split) == list(h)
    for key in h:
        for field in ("value", "k", "n", "distribution"):
            if isinstance(h[key], dict) and field in h[key]:
                a, b = h[key][field], split[key][field]
                assert a == b or np.isclose(a, b, rtol=1e-12), (key, field)
