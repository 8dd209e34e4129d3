"""balance.analysis.tune with the engine replaced by a known win-rate table: game i
of a seed is won when its uniform draw u_i (the same at every point, like the
same deals) is below the point's win rate, so points are paired as real runs
are and fresh games differ from the selection games."""
from __future__ import annotations

import numpy as np

from balance.analysis import tune

SKILL = {"random": -0.3, "greedy": 0.0, "lookahead": 0.05}


class FakeEngine:
    def __init__(self, spec, policies):
        p = policies[0] if policies else None
        self.shift = 0.0 if p is None else SKILL.get(p.name, 0.0) - (0.1 if p.params and p.params[0] > 0 else 0.0)
        self.calls = []


def install(monkeypatch, win_rate, players: int = 1):
    """win_rate(params) -> probability; returns the list of (params, first, count) played."""
    played = []

    def play(spec, engine, params, n_players, seed, first, count):
        played.append((dict(params), first, count, engine.shift))
        idx = np.arange(first, first + count)
        u = np.random.default_rng([seed, 7]).random(first + count)[idx]
        p = min(1.0, max(0.0, win_rate(params) + engine.shift))
        won = (u < p)[:, None]
        if players > 1:
            won = np.concatenate([won & (idx % 2 == 0)[:, None], won & (idx % 2 == 1)[:, None]], axis=1)
        return tune.Sample(first, won, 10 + np.floor(u * 6))

    monkeypatch.setattr(tune, "play", play)
    monkeypatch.setattr(tune, "Engine", FakeEngine)
    return played
