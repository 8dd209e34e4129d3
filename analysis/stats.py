"""Intervals and tests. Every rate gets a Wilson interval, every mean or
quantile a bootstrap one, every comparison a p-value and a verdict."""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as _st

Z95 = 1.959963984540054


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(k: float, n: float) -> dict:
    lo, hi = wilson(k, n)
    return {"value": (k / n) if n else None, "ci": [lo, hi], "n": int(n), "k": int(k)}


def mean_ci(values, z: float = Z95) -> dict:
    """Mean with a normal-approximation interval (fine for the n we run)."""
    x = np.asarray(values, dtype=float)
    n = x.size
    if n == 0:
        return {"value": None, "ci": [None, None], "n": 0}
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
    return {"value": m, "ci": [m - z * se, m + z * se], "n": int(n)}


def bootstrap_ci(values, stat=np.median, n_boot: int = 400, seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap of a statistic (subsampled to 200k for speed)."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return (float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    if x.size > 200_000:
        x = rng.choice(x, 200_000, replace=False)
    boots = np.array([stat(rng.choice(x, x.size, replace=True)) for _ in range(n_boot)])
    a = (1 - level) / 2
    return (float(np.quantile(boots, a)), float(np.quantile(boots, 1 - a)))


def two_proportions(k1: float, n1: float, k2: float, n2: float) -> dict:
    """Difference p2 - p1 (Newcombe hybrid interval) and a two-sided z-test p."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    p = 1.0 if se == 0 else float(2 * _st.norm.sf(abs(d) / se))
    return {"diff": d, "ci": [lo, hi], "p": p}


def holm(pvalues: list[float], alpha: float = 0.05) -> list[bool]:
    """Holm-Bonferroni: which of the hypotheses are rejected at family level alpha."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    reject = [False] * len(pvalues)
    m = len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] <= alpha / (m - rank):
            reject[i] = True
        else:
            break
    return reject


def quantile_counts(values: np.ndarray, counts: np.ndarray, q: float) -> float:
    """The q-quantile (lower, 'inverted CDF') of a sample given as sorted distinct values and counts."""
    cum = np.cumsum(counts)
    total = cum[-1]
    if total <= 0:
        return float("nan")
    target = max(1.0, math.ceil(q * total))
    return float(values[int(np.searchsorted(cum, target))])


def bootstrap_quantile_ci(values, q: float = 0.5, n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of a quantile.

    Game lengths are small integers, so the sample is resampled as multinomial
    counts over its distinct values: the exact same bootstrap as resampling rows,
    at a cost independent of the number of games. Falls back to `bootstrap_ci`
    when there are many distinct values.
    """
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return (float("nan"), float("nan"))
    uniq, counts = np.unique(x, return_counts=True)
    if uniq.size > 5_000:
        return bootstrap_ci(x, stat=lambda v: np.quantile(v, q, method="inverted_cdf"), n_boot=min(n_boot, 400), seed=seed, level=level)
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(x.size, counts / x.size, size=n_boot)
    boots = np.array([quantile_counts(uniq, d, q) for d in draws])
    a = (1 - level) / 2
    return (float(np.quantile(boots, a)), float(np.quantile(boots, 1 - a)))


def chi2_equal_rates(wins: list[float], n: list[float]) -> dict:
    """Chi-square test that several groups (e.g. seats) win at the same rate.

    Seats of one game are not independent (one seat's win is another's loss), so
    this is a screen, not an exact test; with the sample sizes we run, a real
    seat gap is far beyond its threshold anyway.
    """
    table = np.array([[w, m - w] for w, m in zip(wins, n)], dtype=float)
    if table.shape[0] < 2 or (table.sum(axis=0) == 0).any() or (table.sum(axis=1) == 0).any():
        return {"chi2": 0.0, "df": max(0, table.shape[0] - 1), "p": 1.0}
    chi2, p, df, _ = _st.chi2_contingency(table, correction=False)
    return {"chi2": float(chi2), "df": int(df), "p": float(p)}
