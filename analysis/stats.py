"""Intervals and tests. Every rate gets a Wilson interval, every mean or
quantile a bootstrap one, every comparison a p-value and a verdict.

P-values call `scipy.special` directly, doing the arithmetic `scipy.stats`
does before it calls the same functions: the same numbers to the bit, and
no `scipy.stats` import (1.5 s of every command that writes a summary)."""
from __future__ import annotations

import math

import numpy as np
from scipy.special import chdtrc, ndtr

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


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic: 2 * scipy.stats.norm.sf(|z|),
    which is ndtr(-|z|)."""
    return float(2 * ndtr(-abs(z)))


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
    p = 1.0 if se == 0 else normal_p(d / se)
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
    if uniq.size > MAX_DISTINCT_BOOT:
        return bootstrap_ci(x, stat=lambda v: np.quantile(v, q, method="inverted_cdf"), n_boot=min(n_boot, 400), seed=seed, level=level)
    return bootstrap_quantile_ci_counts(uniq, counts, q, n_boot, seed, level)


MAX_DISTINCT_BOOT = 5_000  # above this, bootstrap_quantile_ci resamples rows instead of counts


def bootstrap_quantile_ci_counts(values: np.ndarray, counts: np.ndarray, q: float = 0.5, n_boot: int = 1000,
                                 seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """`bootstrap_quantile_ci` of a sample given as sorted distinct values and
    their counts (a value-count table read chunk by chunk): the same numbers as
    from the rows, with no row in memory. With more than MAX_DISTINCT_BOOT
    distinct values the rows are rebuilt (sorted) for the row bootstrap; the
    summary never gets there for its integer length columns, whose values are
    bounded by the turn cap."""
    values = np.asarray(values, dtype=float)
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    if total == 0:
        return (float("nan"), float("nan"))
    if values.size > MAX_DISTINCT_BOOT:
        return bootstrap_quantile_ci(np.repeat(values, counts), q, n_boot, seed, level)
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(total, counts / total, size=n_boot)
    boots = np.array([quantile_counts(values, d, q) for d in draws])
    a = (1 - level) / 2
    return (float(np.quantile(boots, a)), float(np.quantile(boots, 1 - a)))


class Moments:
    """n, mean and sum of squared deviations (M2) of a column read chunk by
    chunk, merged with Chan et al.'s pairwise update: the mean and interval of
    `mean_ci` without holding the rows. One chunk gives exactly `mean_ci`'s
    numbers; several agree with one pass over all rows to float rounding."""

    __slots__ = ("m2", "mean", "n")

    def __init__(self, n: int = 0, mean: float = 0.0, m2: float = 0.0):
        self.n, self.mean, self.m2 = int(n), float(mean), float(m2)

    @classmethod
    def of(cls, values) -> Moments:
        x = np.asarray(values, dtype=float)
        if x.size == 0:
            return cls()
        m = x.mean()
        d = x - m
        return cls(x.size, float(m), float(np.sum(d * d)))

    @classmethod
    def of_counts(cls, values, counts) -> Moments:
        """From distinct values and their counts (exactly rounded sums)."""
        v = np.asarray(values, dtype=float)
        c = np.asarray(counts, dtype=float)
        n = int(c.sum())
        if n == 0:
            return cls()
        m = math.fsum(v * c) / n
        return cls(n, m, math.fsum(c * (v - m) ** 2))

    def add(self, values) -> Moments:
        return self.merge(Moments.of(values))

    def merge(self, o: Moments) -> Moments:
        if o.n == 0:
            return self
        if self.n == 0:
            self.n, self.mean, self.m2 = o.n, o.mean, o.m2
            return self
        n = self.n + o.n
        d = o.mean - self.mean
        self.mean += d * o.n / n
        self.m2 += o.m2 + d * d * self.n * o.n / n
        self.n = n
        return self

    @property
    def sd(self) -> float:
        return math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else 0.0

    def ci(self, z: float = Z95) -> dict:
        """The dict of `mean_ci`."""
        if self.n == 0:
            return {"value": None, "ci": [None, None], "n": 0}
        se = self.sd / math.sqrt(self.n) if self.n > 1 else 0.0
        return {"value": self.mean, "ci": [self.mean - z * se, self.mean + z * se], "n": self.n}


def chi2_equal_rates(wins: list[float], n: list[float]) -> dict:
    """Chi-square test that several groups (e.g. seats) win at the same rate.

    Seats of one game are not independent (one seat's win is another's loss), so
    this is a screen, not an exact test; with the sample sizes we run, a real
    seat gap is far beyond its threshold anyway.
    """
    table = np.array([[w, m - w] for w, m in zip(wins, n)], dtype=float)
    if table.shape[0] < 2 or (table.sum(axis=0) == 0).any() or (table.sum(axis=1) == 0).any():
        return {"chi2": 0.0, "df": max(0, table.shape[0] - 1), "p": 1.0}
    # scipy.stats.chi2_contingency(table, correction=False), step for step
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / table.sum()
    chi2 = np.sum((table - expected) ** 2 / expected)
    df = table.shape[0] - 1
    return {"chi2": float(chi2), "df": df, "p": float(chdtrc(float(df), chi2))}
