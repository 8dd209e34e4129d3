"""Four Day Weekend's own summary figures, declared (simcore.metrics): the
summary computes them window by window from the games and seats columns."""
from __future__ import annotations

import polars as pl

from .. import metrics as M
from . import constants as K

_ROUNDS = pl.col("rounds").clip(lower_bound=1)  # a game column (joined into the seats rows)
_ROUND_END_COLUMNS = ("rounds_btw", "rounds_exhausted", "rounds_turn_limit")
_ALL_ROUNDS = pl.sum_horizontal(*(pl.col(c) for c in _ROUND_END_COLUMNS))

METRICS = (
    M.Mean(key="points_per_game", label="Points per player per game", table="seats", value=pl.col("score")),
    M.Mean(key="points_per_round", label="Points per player per round", table="seats",
           value=pl.col("points_per_round")),
    M.Mean(key="sets_per_round", label="Scoring sets per player per round", table="seats",
           value=pl.col("sets_completed").cast(pl.Float64) / _ROUNDS.cast(pl.Float64)),
    M.Mean(key="turns_per_round", label="Turns per round (all players)",
           value=pl.col("turns").cast(pl.Float64) / _ROUNDS.cast(pl.Float64)),
    *(M.Rate(key=f"round_end_{c[len('rounds_'):]}", label=f"Rounds ending by {name}", hits=pl.col(c),
             trials=_ALL_ROUNDS)
      for name, c in zip(K.ROUND_END_NAMES, _ROUND_END_COLUMNS)),
    M.Sums(key="round_ends", label="How rounds end (rounds)",
           parts=tuple((name, pl.col(c)) for name, c in zip(K.ROUND_END_NAMES, _ROUND_END_COLUMNS))),
    M.Rate(key="refills_from_rows", label="Share of refills taken from other players' rows", table="seats",
           hits=pl.col("taken_from_rows"), trials=pl.col("taken_from_rows") + pl.col("drawn_from_pile")),
    M.Rate(key="shared_wins", label="Games with a shared win", hits=pl.col("tie")),
)
