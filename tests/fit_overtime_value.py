"""Fit Overtime's `value` (simcore/overtime/rules.py) from greedy self-play (run by hand):

    python -m tests.fit_overtime_value [--seed 11] [-n 6000] [--test-seed 12] [--test-n 3000]

Plays `n` 4-player greedy games, samples 8% of the decisions and, at each, every
seat's features (the terms of `value`); the target is how the game ended for that
seat (1 won, 0.1 no one won, 0 another seat won: `value`'s own end values). A
logistic regression with those fractional targets gives the chance-weighted end
value; the coefficients printed are the ones `value` uses. The held-out games
(`--test-seed`) give the cross-entropy and correlation of the fit and of the
value it replaced (session 16: 0.4234 / 0.369 against 0.4632 / 0.290). The terms are
`value_terms`, the engine's own, so the fit and `value` cannot drift apart; paste the printed
coefficients into VALUE_WEIGHTS.
"""
from __future__ import annotations

import numpy as np

from tests.fit_value import arguments, cross_entropy, fit, predict


def sample(seed: int, n_games: int, players: int = 4, rate: float = 0.08) -> tuple[np.ndarray, np.ndarray]:
    from balance.simcore import registry
    from balance.simcore import rng as R
    from balance.simcore.batch import resolve_policy
    from balance.simcore.overtime import constants
    from balance.simcore.overtime.rules import value_terms
    from balance.simcore.overtime.state import view
    from balance.simcore.params import resolve
    from tests.by_hand import play_by_hand

    spec = registry.get("overtime")
    t = spec.load_data(resolve(spec, {})).tables
    k = spec.kernels
    gp = np.array(resolve_policy(spec, "greedy").params)
    xs, ys = [], []
    for gi in range(n_games):
        seen = []

        def look(S, rng):
            if R.uniform(rng, R.POLICY) < rate:
                seen.extend((p, value_terms(t, S[0], p)) for p in range(players))

        S = play_by_hand(spec, t, players, seed, gi, lambda S, seat, o, n, rng: k.greedy(t, S, seat, o, n, gp, rng), look)
        s = view(S)
        for p, x in seen:
            xs.append(x)
            ys.append(1.0 if s.ps[p, constants.P_WON] else 0.1 if s.g[constants.G_END] == constants.END.rounds_out else 0.0)
    return np.array(xs, float), np.array(ys)


def main(argv=None) -> int:
    from balance.simcore.overtime.rules import VALUE_TERMS

    a = arguments(__doc__, 6000, 3000, argv)
    x, y = sample(a.seed, a.n)
    xt, yt = sample(a.test_seed, a.test_n)

    w = fit(x, y)
    p = predict(xt, w)
    old = np.clip(0.4 + 0.04 * (xt[:, 2] - xt[:, 1]) - 0.01 * xt[:, 3], 0.02, 0.9)  # the value before session 16
    print(f"{len(y)} seat-states from {a.n} games (seed {a.seed}); held out {len(yt)} from {a.test_n} (seed {a.test_seed})")
    for term, c in zip(VALUE_TERMS, w):
        print(f"  {c:+.4f}  {term}")
    print(f"held out: cross-entropy {cross_entropy(p, yt):.4f}, correlation {np.corrcoef(p, yt)[0, 1]:.3f}; "
          f"the old value {cross_entropy(old, yt):.4f}, {np.corrcoef(old, yt)[0, 1]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
