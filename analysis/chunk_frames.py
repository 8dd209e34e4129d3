"""A played chunk's results (the engine's struct of arrays) as the three long
frames of a run folder, games, seats and cards (docs/run-folder.md): what
analysis.execution commits for each chunk, and what tests read directly.
Split from analysis.runs.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from balance.simcore.batch import Results
from balance.simcore.runner import CS_GAMES, CS_TOTAL, CS_WINS, HS_GAMES, HS_WINS
from balance.simcore.spec import GameSpec


def results_frames(spec: GameSpec, res: Results, variant: str, chunk: int, policies: list[str], card_names: list[str]):
    """Struct-of-arrays results -> the three long frames of docs/run-folder.md.

    String columns are built by polars (repeat, gather) rather than from
    Python lists or NumPy string arrays: the same columns, at a tenth of the
    cost (80 ms of a 50,000-game chunk, taken from the engine's cores)."""
    n, n_seats = res.seat_out.shape[0], res.seat_out.shape[1]
    reasons = pl.Series(spec.all_end_reasons, dtype=pl.String)
    g = res.game_out
    G, S = spec.game_at, spec.seat_at  # columns by name, never by a counted position
    cols: dict[str, Any] = {
        "variant": pl.repeat(variant, n, dtype=pl.String, eager=True),
        "game_index": pl.Series(res.game_indices, dtype=pl.Int64),
        "end_reason": reasons.gather(g[:, G.end_reason].astype(np.int64)),
        "decisions": pl.Series(g[:, G.decisions].astype(np.int32)),
    }
    for col in spec.game_columns:
        cols[col.name] = pl.Series(g[:, getattr(G, col.name)].astype(col.dtype))
    games = pl.DataFrame(cols)

    s = res.seat_out.reshape(n * n_seats, -1)
    scols: dict[str, Any] = {
        "variant": pl.repeat(variant, n * n_seats, dtype=pl.String, eager=True),
        "game_index": pl.Series(np.repeat(res.game_indices, n_seats), dtype=pl.Int64),
        "seat": pl.Series(np.tile(np.arange(n_seats, dtype=np.int8), n)),
        "policy": pl.Series(policies, dtype=pl.String).gather(np.tile(np.arange(len(policies)), n)),
        "won": pl.Series(s[:, S.won].astype(np.int8)),
        "score": pl.Series(s[:, S.score].astype(np.float32)),
    }
    for col in spec.seat_columns:
        scols[col.name] = pl.Series(s[:, getattr(S, col.name)].astype(col.dtype))
    if res.action_out is not None:  # each seat's chosen actions by kind (the game's `action` kernel)
        acts = res.action_out.reshape(n * n_seats, -1)
        for k, name in enumerate(spec.action_column_names):
            scols[name] = pl.Series(acts[:, k].astype(np.int32))
    seats = pl.DataFrame(scols)

    cs = res.card_stats  # cards x kinds x 3
    n_cards, n_kinds = cs.shape[0], cs.shape[1]
    seat_games = n * n_seats
    seat_wins = int(s[:, S.won].sum())
    cards = pl.DataFrame({
        "variant": [variant] * (n_cards * n_kinds),
        "chunk": pl.Series([chunk] * (n_cards * n_kinds), dtype=pl.Int32),
        "card_id": pl.Series(np.repeat(np.arange(n_cards), n_kinds), dtype=pl.Int32),
        "card": np.repeat(np.array(card_names if card_names else [""] * n_cards, dtype=object), n_kinds).tolist(),
        "counter": np.tile(np.array(spec.card_counters, dtype=object), n_cards).tolist(),
        "games_with": pl.Series(cs[:, :, CS_GAMES].reshape(-1), dtype=pl.Int64),
        "wins_with": pl.Series(cs[:, :, CS_WINS].reshape(-1), dtype=pl.Int64),
        "total": pl.Series(cs[:, :, CS_TOTAL].reshape(-1), dtype=pl.Int64),
        "seat_games": pl.Series([seat_games] * (n_cards * n_kinds), dtype=pl.Int64),
        "seat_wins": pl.Series([seat_wins] * (n_cards * n_kinds), dtype=pl.Int64),
        **_reached_columns(spec, res.hand_stats, n_cards, n_kinds),
    })
    return games, seats, cards


def _reached_columns(spec: GameSpec, hs, n_cards: int, n_kinds: int) -> dict:
    """The cards part's reached columns (docs/run-folder.md) from the runner's
    hand_stats (cards x kinds + 1 x 2): per card, the seat-games where it reached
    the hand and their wins (the same on each of its counter rows), and per
    counter, those where the counter was also > 0 and their wins. Null when the
    game declares no hand counters (or the results carry no hand_stats)."""
    m = n_cards * n_kinds
    if hs is None or not spec.hand_counters:
        return {c: pl.Series([None] * m, dtype=pl.Int64)
                for c in ("reached_games", "reached_wins", "reached_with", "reached_wins_with")}
    return {
        "reached_games": pl.Series(np.repeat(hs[:, n_kinds, HS_GAMES], n_kinds), dtype=pl.Int64),
        "reached_wins": pl.Series(np.repeat(hs[:, n_kinds, HS_WINS], n_kinds), dtype=pl.Int64),
        "reached_with": pl.Series(hs[:, :n_kinds, HS_GAMES].reshape(-1), dtype=pl.Int64),
        "reached_wins_with": pl.Series(hs[:, :n_kinds, HS_WINS].reshape(-1), dtype=pl.Int64),
    }
