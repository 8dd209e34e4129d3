"""Build a synthetic run folder (docs/run-folder.md) for the race-to-21 toy game,
with known rates, without running the engine."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import polars as pl

TESTS = Path(__file__).resolve().parent.parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

from toygame import SPEC  # noqa: E402

CARDS = ["+1", "+2", "+3"]


def manifest(n_games: int, seed: int, variants: list[dict] | None = None, params: dict | None = None) -> dict:
    return {
        "kind": "sweep" if variants and len(variants) > 1 else "run",
        "config": {
            "game": "race21", "mode": "race", "players": 2, "params": params or {},
            "card_list_hash": "none", "policies": [{"name": "greedy", "kind": 1, "params": [0.0]},
                                                   {"name": "random", "kind": 0, "params": [0.0]}],
            "seed": seed, "chunk_size": 500, "rule_version": "1", "engine_hash": "abc123",
            "variants": variants or [{"name": "base", "params": {}}],
        },
        "n_games": n_games, "package_version": "0.1.0", "created": "2026-11-29T12:00:00Z",
        "command": f"balance simulate --game race21 -n {n_games} --seed {seed}",
    }


def make_run(root: Path, n_games: int = 4000, seed: int = 7, p_seat0: float = 0.6, n_cap: int = 5,
             chunk: int = 500, variants: dict[str, float] | None = None, n_requested: int | None = None,
             variant_params: dict[str, dict] | None = None, play3_boost: float = 0.25,
             reached: bool = False) -> Path:
    """A run folder with `n_games` games per variant.

    Seat 0 wins with probability `p_seat0` (per variant when `variants` maps name -> p),
    the first `n_cap` games of each variant hit the turn cap (nobody wins). Card "+3"
    is played more often by winners (positive lift), "+1" by losers, "+2" never
    (a dead card). With `reached`, the cards parts also hold the reached columns of
    docs/run-folder.md (a card reaches a hand when played, else with probability 0.4);
    without, they are the parts of a folder written before those columns.
    """
    rng = np.random.default_rng(seed)
    run = root / "run"
    (run / "parts").mkdir(parents=True)
    variants = variants or {"base": p_seat0}
    vlist = [{"name": v, "params": (variant_params or {}).get(v, {})} for v in variants]
    (run / "manifest.json").write_text(json.dumps(manifest(n_requested or n_games, seed, vlist)))
    part = 0
    for vname, p0 in variants.items():
        for start in range(0, n_games, chunk):
            idx = np.arange(start, min(n_games, start + chunk), dtype=np.int64)
            n = idx.size
            capped = idx < n_cap
            seat0_wins = rng.random(n) < p0
            won = np.zeros((n, 2), np.int8)
            won[~capped, 0] = seat0_wins[~capped]
            won[~capped, 1] = ~seat0_wins[~capped]
            decisions = np.where(capped, SPEC.max_decisions, rng.integers(6, 15, n)).astype(np.int32)
            games = pl.DataFrame({
                "variant": [vname] * n, "game_index": idx,
                "end_reason": np.where(capped, "cap", "reached"),
                "decisions": decisions,
                "total": np.where(capped, 15, rng.integers(21, 24, n)).astype(np.int32),
            })
            seats = pl.DataFrame({
                "variant": [vname] * (2 * n), "game_index": np.repeat(idx, 2),
                "seat": np.tile(np.array([0, 1], np.int8), n),
                "policy": ["greedy", "random"] * n,
                "won": won.reshape(-1),
                "score": (won.reshape(-1) * 21).astype(np.float32),
            })
            w = won.reshape(-1).astype(bool)
            played = {
                "+1": rng.random(w.size) < np.where(w, 0.5 - play3_boost, 0.5),
                "+2": np.zeros(w.size, bool),
                "+3": rng.random(w.size) < np.where(w, 0.5 + play3_boost, 0.5),
            }
            cards = pl.DataFrame({
                "variant": [vname] * 3, "chunk": np.full(3, part, np.int32),
                "card_id": np.arange(3, dtype=np.int32), "card": CARDS, "counter": ["played"] * 3,
                "games_with": [int(played[c].sum()) for c in CARDS],
                "wins_with": [int((played[c] & w).sum()) for c in CARDS],
                "total": [int(played[c].sum()) * 2 for c in CARDS],
                "seat_games": [int(w.size)] * 3, "seat_wins": [int(w.sum())] * 3,
            })
            if reached:
                held = {c: played[c] | (rng.random(w.size) < 0.4) for c in CARDS}
                cards = cards.with_columns(
                    pl.Series("reached_games", [int(held[c].sum()) for c in CARDS], pl.Int64),
                    pl.Series("reached_wins", [int((held[c] & w).sum()) for c in CARDS], pl.Int64),
                    pl.Series("reached_with", [int(played[c].sum()) for c in CARDS], pl.Int64),
                    pl.Series("reached_wins_with", [int((played[c] & w).sum()) for c in CARDS], pl.Int64))
            games.write_parquet(run / "parts" / f"games-{part:06d}.parquet")
            seats.write_parquet(run / "parts" / f"seats-{part:06d}.parquet")
            cards.write_parquet(run / "parts" / f"cards-{part:06d}.parquet")
            part += 1
    return run
