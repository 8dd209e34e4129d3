"""The game's own summary: guess hit rate with an interval, end reasons, team win rates."""
import numpy as np
import polars as pl

from simcore.batch import Engine, resolve_policy
from simcore.youre_fired import SPEC

N_CARDS = len(SPEC.card_names({}))


def frames(players, params, n=60):
    tables = SPEC.compile_tables(params)
    r = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).run(tables, players, 3, np.arange(n), N_CARDS)
    reasons = SPEC.all_end_reasons
    g = {name: r.game_out[:, i] for i, name in enumerate(SPEC.game_column_names)}
    g["end_reason"] = [reasons[int(x)] for x in r.game_out[:, 0]]
    games = pl.DataFrame(g)
    rows = []
    for gi in range(n):
        for s in range(players):
            row = {name: r.seat_out[gi, s, i] for i, name in enumerate(SPEC.seat_column_names)}
            row.update(seat=s, game_index=gi)
            rows.append(row)
    return games, pl.DataFrame(rows)


def test_headline_duel():
    games, seats = frames(2, {})
    h = SPEC.headline(games, seats, SPEC.resolve_params({}))
    hit = h["guess_hit_rate"]
    assert 0 < hit["value"] < 1 and hit["ci"][0] <= hit["value"] <= hit["ci"][1]
    assert sum(h["end_reasons"]["distribution"].values()) == games.height
    assert "team_win_rates" not in h


def test_headline_teams():
    params = SPEC.resolve_params({"teams": True})
    games, seats = frames(4, params)
    h = SPEC.headline(games, seats, params)
    teams = h["team_win_rates"]["teams"]
    assert len(teams) == 2
    dist = h["end_reasons"]["distribution"]
    undecided = (dist.get("cap", 0) + dist.get("stalled", 0)) / games.height
    assert abs(sum(v["value"] for v in teams.values()) - (1.0 - undecided)) < 1e-9
