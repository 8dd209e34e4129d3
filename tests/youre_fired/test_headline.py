"""The game's own summary, declared as metrics: guess hit rate with an interval,
end reasons with rates, team win rates (team variant only)."""
import numpy as np
import polars as pl

from balance.analysis.metrics import GameMetrics
from balance.analysis.chunk_frames import results_frames
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.params import resolve
from balance.simcore.youre_fired import SPEC


def frames(players, user, n=60):
    data = SPEC.load_data(resolve(SPEC, user))
    r = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).run(data.tables, players, 3, np.arange(n, dtype=np.int64),
                                                           len(data.card_names))
    games, seats, _ = results_frames(SPEC, r, "base", 0, ["greedy"] * players, list(data.card_names))
    return data, games, seats


def metrics(data, games, seats, players):
    acc = GameMetrics(SPEC, dict(data.params), players)
    acc.add(games, seats)
    return acc.result()


def test_headline_duel():
    data, games, seats = frames(2, {})
    h = metrics(data, games, seats, 2)
    hit = h["guess_hit_rate"]
    assert 0 < hit["value"] < 1 and hit["ci"][0] <= hit["value"] <= hit["ci"][1]
    assert hit["k"] == int(seats["guesses_hit"].sum()) and hit["n"] == int(seats["guesses"].sum())
    assert sum(h["end_reasons"]["distribution"].values()) == games.height
    assert set(h["end_reasons"]["rates"]) == set(h["end_reasons"]["distribution"])
    assert h["turns"]["n"] == games.height and abs(h["turns"]["value"] - games["turns"].mean()) < 1e-9
    assert "team_win_rates" not in h


def test_headline_teams():
    data, games, seats = frames(4, {"teams": True})
    h = metrics(data, games, seats, 4)
    teams = h["team_win_rates"]["teams"]
    assert list(teams) == ["team 1 (players 1 and 3)", "team 2 (players 2 and 4)"]
    assert all(t["n"] == games.height for t in teams.values())
    dist = h["end_reasons"]["distribution"]
    decided = games.filter(pl.col("winning_team") >= 0).height
    assert sum(t["k"] for t in teams.values()) == decided
    undecided = sum(v for k, v in dist.items() if k not in ("teams_both_bosses",))
    assert abs(sum(v["value"] for v in teams.values()) - (1.0 - undecided / games.height)) < 1e-9
