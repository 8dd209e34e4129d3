"""Declared game metrics (simcore.metrics) computed window by window
(analysis.metrics): the same figures as one pass over every row, every kind
in its documented shape, NaN and missing values left out of n."""
import dataclasses

import numpy as np
import polars as pl
import pytest

from balance.analysis.metrics import GameMetrics, needed_columns
from balance.analysis.chunk_frames import results_frames
from balance.analysis.stats import mean_ci, rate
from balance.simcore import metrics as M
from balance.simcore import registry
from balance.simcore.batch import Engine, resolve_policy


@pytest.fixture(scope="module")
def shed_frames():
    spec = registry.get("shed")
    data = spec.load_data({})
    res = Engine(spec, [resolve_policy(spec, "greedy")]).run(data.tables, 3, 4, np.arange(3000, dtype=np.int64),
                                                             len(data.card_names))
    games, seats, _ = results_frames(spec, res, "base", 0, ["greedy"] * 3, list(data.card_names))
    return spec, data, games, seats


def _windows(games, seats, width):
    for lo in range(0, games.height, width):
        keep = pl.col("game_index").is_between(lo, lo + width, closed="left")
        yield games.filter(keep), seats.filter(keep)


def test_windows_give_the_figures_of_one_pass(shed_frames):
    spec, data, games, seats = shed_frames
    whole = GameMetrics(spec, dict(data.params), 3)
    whole.add(games, seats)
    parts = GameMetrics(spec, dict(data.params), 3)
    for g, s in _windows(games, seats, 700):
        parts.add(g, s)
    a, b = whole.result(), parts.result()
    assert a.keys() == b.keys()
    assert a["reshuffled"] == b["reshuffled"] and a["cards_left_losing"]["distribution"] == \
        b["cards_left_losing"]["distribution"]
    for key in ("turns", "cards_left_losing"):
        assert a[key]["n"] == b[key]["n"]
        assert a[key]["value"] == pytest.approx(b[key]["value"], rel=1e-12)
        assert a[key]["ci"] == pytest.approx(b[key]["ci"], rel=1e-12)


def test_each_kind_has_its_documented_figures(shed_frames):
    spec, data, games, seats = shed_frames
    acc = GameMetrics(spec, dict(data.params), 3)
    acc.add(games, seats)
    out = acc.result()
    assert out["turns"] == {"label": "turns per game", **mean_ci(games["turns"].to_numpy())}
    assert out["reshuffled"] == {"label": "games in which the deck ran out",
                                 **rate(int((games["reshuffles"] > 0).sum()), games.height)}
    losers = seats.filter(pl.col("won") == 0)["cards_left"].to_numpy()
    assert out["cards_left_losing"]["n"] == losers.size
    assert sum(out["cards_left_losing"]["distribution"].values()) == losers.size
    drew, turns = int(games["cards_drawn"].sum()), int(games["turns"].sum())
    assert out["draws_per_turn"]["k"] == drew and out["draws_per_turn"]["n"] == turns
    # a seat metric that reads a game column (cards_drawn): joined by game
    joined = seats.join(games.select("variant", "game_index", "cards_drawn"), on=["variant", "game_index"])
    w = joined.filter((pl.col("won") == 1) & (pl.col("cards_drawn") > 0))
    assert out["winner"]["share_of_draws"]["n"] == w.height
    assert out["winner"]["share_of_draws"]["value"] == pytest.approx(float((w["drawn"] / w["cards_drawn"]).mean()))
    assert out["winner"]["chance"] == pytest.approx(1 / 3)
    assert out["winner"]["note"].startswith("a seat's fair share")


def test_nan_and_missing_values_are_left_out_of_n():
    spec = dataclasses.replace(registry.get("shed"), metrics=(
        M.Mean(key="x", value=pl.col("x")),
        M.Distribution(key="d", value=pl.col("x")),
        M.Counts(key="c", value=pl.col("x"), rates=True),
        M.Sums(key="s", parts=(("a", pl.col("x").fill_nan(0)), ("b", pl.col("game_index") >= 0))),
        M.Rate(key="r", hits=pl.col("x") > 1, only_if="flag"),
    ))
    games = pl.DataFrame({"variant": ["v"] * 5, "game_index": list(range(5)), "x": [1.0, float("nan"), 3.0, None, 3.0]})
    acc = GameMetrics(spec, {"flag": False}, 2)
    acc.add(games, pl.DataFrame())
    out = acc.result()
    assert out["x"]["n"] == 3 and out["x"]["value"] == pytest.approx(7 / 3)
    assert out["d"]["n"] == 3 and out["d"]["median"] == 3.0
    assert out["c"]["distribution"] == {"1": 1, "3": 2}
    assert out["s"]["distribution"] == {"a": 7, "b": 5}
    assert "r" not in out  # only_if names a parameter that is false


def test_needed_columns_are_what_the_metrics_name():
    spec = registry.get("shed")
    cols = needed_columns(spec)
    assert {"turns", "reshuffles", "cards_drawn"} <= cols["games"]
    assert {"cards_left", "won", "drawn"} <= cols["seats"]
