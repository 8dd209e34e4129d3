"""`balance bench`: games/s and decisions/s of a game's default run.

Compile (or cache load) is timed apart from the measured batch; the batch
runs on all numba threads unless `--threads` says otherwise."""
from __future__ import annotations

import time

import numba
import numpy as np

from simcore.batch import Engine, resolve_policy
from simcore.params import resolve
from simcore.spec import GameSpec


def bench_game(spec: GameSpec, n: int, policy: str = "random", players: int | None = None, seed: int = 1) -> dict:
    n_players = players or spec.default_players
    params = resolve(spec, {})
    tables = spec.compile_tables(params)
    n_cards = len(spec.card_names(params))
    engine = Engine(spec, [resolve_policy(spec, policy)])
    t0 = time.perf_counter()
    engine.run(tables, n_players, seed, np.arange(64, dtype=np.int64), n_cards)
    warm = time.perf_counter() - t0
    t0 = time.perf_counter()
    res = engine.run(tables, n_players, seed, np.arange(n, dtype=np.int64), n_cards)
    dt = time.perf_counter() - t0
    decisions = float(res.game_out[:, 1].sum())
    return {
        "game": spec.name,
        "players": n_players,
        "policy": policy,
        "threads": numba.get_num_threads(),
        "games": n,
        "seconds": dt,
        "warmup_seconds": warm,
        "games_per_second": n / dt,
        "decisions_per_second": decisions / dt,
        "decisions_per_game": decisions / n,
    }
