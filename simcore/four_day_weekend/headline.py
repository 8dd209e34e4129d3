"""The game's own summary metrics (frames from the run folder -> dict)."""
from __future__ import annotations

import polars as pl

from . import constants as K


def _frame(x) -> pl.DataFrame:
    return x if isinstance(x, pl.DataFrame) else pl.DataFrame(x)


def headline(games, seats, params) -> dict:
    from analysis.stats import mean_ci, rate

    g = _frame(games)
    s = _frame(seats)
    out: dict = {}
    if g.height == 0:
        return out
    rounds = g["rounds"].cast(pl.Float64).clip(lower_bound=1)
    out["points_per_game"] = {"label": "Points per player per game", **mean_ci(s["score"].to_numpy())}
    out["points_per_round"] = {"label": "Points per player per round", **mean_ci(s["points_per_round"].to_numpy())}
    if "game_index" in s.columns and "game_index" in g.columns:
        keys = [c for c in ("variant", "game_index") if c in s.columns and c in g.columns]
        sr = s.join(g.select(keys + ["rounds"]), on=keys, how="left")
        per = (sr["sets_completed"].cast(pl.Float64) / sr["rounds"].cast(pl.Float64).clip(lower_bound=1)).to_numpy()
    else:
        per = s["sets_completed"].to_numpy() / max(float(rounds.mean()), 1.0)
    out["sets_per_round"] = {"label": "Scoring sets per player per round", **mean_ci(per)}
    out["turns_per_round"] = {"label": "Turns per round (all players)", **mean_ci((g["turns"].cast(pl.Float64) / rounds).to_numpy())}
    cols = ("rounds_btw", "rounds_exhausted", "rounds_turn_limit")
    total = float(sum(g[c].sum() for c in cols))
    dist = {}
    for name, c in zip(K.ROUND_END_NAMES, cols):
        r = rate(float(g[c].sum()), total)
        out[f"round_end_{c[len('rounds_'):]}"] = {"label": f"Rounds ending by {name}", **r}
        dist[name] = int(g[c].sum())  # counts: they add up across windows of games (flat memory)
    out["round_ends"] = {"label": "How rounds end (rounds)", "distribution": dist}
    taken = float(s["taken_from_rows"].sum())
    drawn = float(s["drawn_from_pile"].sum())
    out["refills_from_rows"] = {"label": "Share of refills taken from other players' rows", **rate(taken, taken + drawn)}
    out["shared_wins"] = {"label": "Games with a shared win", **rate(float(g["tie"].sum()), float(g.height))}
    return out
