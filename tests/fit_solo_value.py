"""Fit Sick Days solo's `value` (simcore/sickdays_solo/policies.py) from greedy play (run by hand):

    python -m tests.fit_solo_value [--seed 11] [-n 1500] [--test-seed 12] [--test-n 500]

Plays `n` solo greedy games at every level 1-11, samples 10% of the decisions and, at each, the
terms of `value` (`value_terms`, the policy's own, so the fit and `value` cannot drift apart); the
target is whether the game was won. A logistic regression on the terms plus one intercept per
level gives the chance of a win with greedy playing on, which is what the search's rollouts
would find if they played to the end. Paste the printed weights into VALUE_WEIGHTS and
LEVEL_BIAS. The held-out games (`--test-seed`) give the fit's cross-entropy and correlation, and
the correlation of the value it replaced, on the states that can still be won (the states a worker
no line can save dooms are graded as losses, not fitted).
"""
from __future__ import annotations

import numpy as np

from tests.fit_value import arguments, cross_entropy, fit, predict


def sample(seed: int, n_games: int, rate: float = 0.10) -> tuple[np.ndarray, np.ndarray, int, int]:
    """(terms, wins) of the sampled states that can still be won, and how many states a worker no
    line can save had doomed, with how many of those were won (none, or `value` is wrong to call
    them lost)."""
    from balance.simcore import registry
    from balance.simcore import rng as R
    from balance.simcore.batch import resolve_policy
    from balance.simcore.params import resolve
    from balance.simcore.sickdays_solo.rules import END, H_OVER
    from balance.simcore.sickdays_solo.policies import N_LEVELS, value_terms
    from tests.by_hand import play_by_hand

    spec = registry.get("sickdays-solo")
    k = spec.kernels
    gp = np.array(resolve_policy(spec, "greedy").params)
    xs, ys = [], []
    doomed = doomed_won = 0
    for level in range(1, N_LEVELS + 1):
        t = spec.load_data(resolve(spec, {"level": level})).tables
        onehot = tuple(1.0 if q == level else 0.0 for q in range(1, N_LEVELS + 1))
        for gi in range(n_games):
            seen = []
            dead = [0]

            def look(s, rng):
                if R.uniform(rng, R.POLICY) < rate:
                    x, d = value_terms(s)
                    if d:
                        dead[0] += 1
                    else:
                        seen.append(onehot + tuple(x))

            s = play_by_hand(spec, t, 1, seed, gi, lambda s, seat, o, n, rng: k.greedy(t, s, seat, o, n, gp, rng), look)
            won = s[H_OVER] == END.all_happy
            xs.extend(seen)
            ys.extend([1.0 if won else 0.0] * len(seen))
            doomed += dead[0]
            doomed_won += dead[0] if won else 0
    return np.array(xs, float), np.array(ys), doomed, doomed_won


def old_value(x: np.ndarray) -> np.ndarray:
    """The value before session 17 from the same terms: 0.04 + 0.4 x progress share + 0.01 x pizzas."""
    from balance.simcore.sickdays_solo.policies import N_LEVELS

    t = x[:, N_LEVELS:]
    return 0.04 + 0.4 * (t[:, 0] + (2 * t[:, 1] + t[:, 2]) / 3) + 0.01 * t[:, 6]


def main(argv=None) -> int:
    from balance.simcore.sickdays_solo.policies import N_LEVELS, VALUE_TERMS

    a = arguments(__doc__, 1500, 500, argv)
    x, y, doomed, doomed_won = sample(a.seed, a.n)
    xt, yt, _, _ = sample(a.test_seed, a.test_n)

    w = fit(x, y)
    p = predict(xt, w)
    print(f"{len(y)} states from {a.n} games a level (seed {a.seed}); held out {len(yt)} from {a.test_n} (seed {a.test_seed}); "
          f"left out {doomed} states a worker no line can save had doomed, {doomed_won} of them in games won")
    print("VALUE_WEIGHTS = (" + ", ".join(f"{c:.4f}" for c in w[N_LEVELS:]) + ")")
    print("LEVEL_BIAS = (" + ", ".join(f"{c:.4f}" for c in w[:N_LEVELS]) + ")")
    for term, c in zip(VALUE_TERMS, w[N_LEVELS:]):
        print(f"  {c:+.4f}  {term}")
    # the old value given the same chance: the per-level intercepts and one slope, fitted
    xo, xto = (np.column_stack([v[:, :N_LEVELS], old_value(v)]) for v in (x, xt))
    po = predict(xto, fit(xo, y))
    print(f"held out: cross-entropy {cross_entropy(p, yt):.4f}, correlation {np.corrcoef(p, yt)[0, 1]:.3f}; "
          f"the old value (per-level intercepts and a slope fitted) {cross_entropy(po, yt):.4f}, "
          f"{np.corrcoef(po, yt)[0, 1]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
