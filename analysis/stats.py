"""Intervals and tests. Every rate gets a Wilson interval, every mean or
quantile a bootstrap one, every comparison a p-value and a verdict.

P-values call `scipy.special` directly, doing the arithmetic `scipy.stats`
does before it calls the same functions: the same numbers to the bit, and
no `scipy.stats` import (1.5 s of every command that writes a summary).

Differences (the second half of the module) share one contract, so that a
verdict never disagrees with the interval printed beside it: each returns
`diff`, `ci` at the confidence `level` asked for, and a two-sided `p` that is
the inversion of that interval family (p <= 1 - level exactly when the
interval at `level` excludes 0). A family of differences is adjusted by
asking for the intervals at 1 - alpha/m (Bonferroni) and reading every
verdict from them (`family`); `margin_verdict` turns an interval and a
margin into "balanced within the margin" (the interval inside it: an
equivalence test, TOST at alpha/2 per side), "differs by more than the
margin", "differs, size unclear" or "not enough games to say".
No verdict is read from no information: where no pair of games set the two
sides against each other (every paired difference zero: both sides won or
lost together in every game, or played alike) a difference says so in
`no_information` (a reason), and `margin_verdict` answers "not enough
information to say" with that reason, as it does for any interval of zero
width. Where every difference is the same, a quantity with known bounds gets
the exact interval of its bounds (`exact_bound`) instead of one of zero width.
Seat balance is one multinomial outcome per game (`WinPatterns`), and its one
verdict is read from the one interval printed for the seat gap
(`seat_balance`)."""
from __future__ import annotations

import math

import numpy as np
from scipy.special import bdtr, betaincinv, chdtrc, ndtr, ndtri, stdtr, stdtrit

Z95 = 1.959963984540054
ALPHA = 0.05  # every verdict's level: 95% intervals, 5% tests (Bonferroni/Holm within a family)
DEFAULT_MARGIN = 0.02  # practical significance: 2 points of win rate (--margin)


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


def ratio_ci(sum_c: float, sum_d: float, sum_cc: float, sum_cd: float, sum_dd: float, n: int,
             z: float = Z95) -> tuple[float, float]:
    """Interval for a share sum(c) / sum(d) counted over n independent games (c_i of the d_i events of
    game i are of one kind): the ratio estimator's normal interval with the games as clusters (the
    events of one game are not independent: a seat that plays one way keeps playing it), from the
    sums of c, d, c*c, c*d and d*d. Joined with the Wilson interval of sum_c of sum_d events, so a
    share of exactly 0 or 1 (no spread between games) still has the width its count allows."""
    if n <= 0 or sum_d <= 0:
        return (0.0, 1.0)
    r = sum_c / sum_d
    lo, hi = wilson(sum_c, sum_d, z)
    if n > 1:
        resid = max(0.0, sum_cc - 2.0 * r * sum_cd + r * r * sum_dd)
        se = math.sqrt(n / (n - 1) * resid) / sum_d
        lo, hi = min(lo, r - z * se), max(hi, r + z * se)
    return (max(0.0, lo), min(1.0, hi))


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


EXACT_BELOW = 5.0  # smallest expected cell count under which two_proportions uses Fisher's exact test


def two_proportions(k1: float, n1: float, k2: float, n2: float) -> dict:
    """Difference p2 - p1 (Newcombe hybrid interval) and a two-sided p: the pooled
    z-test, or Fisher's exact test where a cell's expected count is below
    EXACT_BELOW (Cochran's rule: there the z-test rejects a true null more often
    than it says; by exact enumeration, 12.6% at 5% for 8 seat-games against 4,000
    at a 2% rate, and 5.8-9.3% in tests/analysis/test_stats_cards.py's cases, where
    this test stays at 0.8-3.4%). `test` says which ("z" or "exact")."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    pooled = (k1 + k2) / (n1 + n2)
    if min(n1, n2) * min(pooled, 1 - pooled) < EXACT_BELOW:
        return {"diff": d, "ci": [lo, hi], "p": fisher_p(k1, n1, k2, n2), "test": "exact"}
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    p = 1.0 if se == 0 else normal_p(d / se)
    return {"diff": d, "ci": [lo, hi], "p": p, "test": "z"}


def fisher_p(k1: float, n1: float, k2: float, n2: float) -> float:
    """Two-sided p of Fisher's exact test of k1/n1 against k2/n2 (scipy.stats)."""
    from scipy.stats import fisher_exact

    k1, n1, k2, n2 = int(round(k1)), int(round(n1)), int(round(k2)), int(round(n2))
    return float(fisher_exact([[k1, n1 - k1], [k2, n2 - k2]])[1])


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


# ---------------------------------------------------------------- differences, one contract (module docstring)
VERDICT_WORDS = {
    "within_margin": "balanced within the margin",
    "beyond_margin": "differs by more than the margin",
    "differs_size_unclear": "differs, but not enough games to say whether by more than the margin",
    "inconclusive": "not enough games to say",
    "no_information": "not enough information to say",  # more games of the same kind would not help: say why
}
ZERO_WIDTH_WORDS = "its interval has zero width (every game gave the same value), so the games measured no uncertainty"


def z_of(level: float) -> float:
    """The normal quantile of a two-sided interval at confidence `level`."""
    return float(ndtri(1 - (1 - level) / 2))


def level_of(z: float) -> float:
    return float(2 * ndtr(z) - 1)


def clopper_pearson(k: float, n: float, level: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper-Pearson) interval for k successes in n trials."""
    if n <= 0:
        return (0.0, 1.0)
    a = (1 - level) / 2
    lo = 0.0 if k <= 0 else float(betaincinv(k, n - k + 1, a))
    hi = 1.0 if k >= n else float(betaincinv(k + 1, n - k, 1 - a))
    return (lo, hi)


def exact_bound(value: float, n: int, low: float, high: float, level: float = 0.95) -> tuple[list[float], float]:
    """Interval and p for the mean of a quantity known to lie in [low, high]
    when all n observations equal `value` (a t interval would have zero width).
    The share q of outcomes unlike the ones seen is at most 1 - ((1 - level)/2)^(1/n)
    (Clopper-Pearson for 0 of n), so the mean is within [value - (value - low) q,
    value + (high - value) q]; p is the smallest 1 - level whose interval excludes 0."""
    q = 1 - ((1 - level) / 2) ** (1 / n)
    ci = [value - (value - low) * q, value + (high - value) * q]
    if value == 0:
        p = 1.0
    elif value > 0:  # the lower end reaches 0 only if low < 0
        p = min(1.0, 2 * (1 - value / (value - low)) ** n) if low < 0 else 0.0
    else:
        p = min(1.0, 2 * (1 - value / (value - high)) ** n) if high > 0 else 0.0
    return ci, float(p)


def binomial_half_p(k: int, m: int) -> float:
    """Exact two-sided binomial test of k successes in m trials against 1/2,
    doubling the smaller tail: the exact McNemar test when k and m - k are the
    two kinds of discordant pairs. p <= alpha exactly when 1/2 is outside the
    Clopper-Pearson interval at 1 - alpha."""
    if m <= 0:
        return 1.0
    return float(min(1.0, 2 * bdtr(min(k, m - k), m, 0.5)))


def p_from_interval(ci_at_z, null: float = 0.0) -> float:
    """Two-sided p-value of an interval family: 2 * Phi(-z*), z* the largest z
    whose interval still excludes `null` (bisection; the intervals widen with
    z). So p <= 1 - level exactly when the interval at `level` excludes `null`."""
    def excludes(z: float) -> bool:
        lo, hi = ci_at_z(z)
        return not (lo <= null <= hi)

    lo_z, hi_z = 1e-9, 40.0
    if not excludes(lo_z):
        return 1.0
    if excludes(hi_z):
        return 0.0
    for _ in range(60):
        mid = 0.5 * (lo_z + hi_z)
        if excludes(mid):
            lo_z = mid
        else:
            hi_z = mid
    return float(2 * ndtr(-lo_z))


def newcombe_interval(k1: float, n1: float, k2: float, n2: float, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval for p2 - p1 of two independent samples."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p2 - p1
    return (d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2))


def two_proportions_ci(k1: float, n1: float, k2: float, n2: float, level: float = 0.95) -> dict:
    """p2 - p1 of two independent samples: Newcombe's interval at `level`, and
    the p-value of that interval family (so interval and verdict agree)."""
    if n1 <= 0 or n2 <= 0:
        return {"diff": None, "ci": [None, None], "p": None, "n_a": int(n1), "n_b": int(n2)}
    lo, hi = newcombe_interval(k1, n1, k2, n2, z_of(level))
    p = p_from_interval(lambda z: newcombe_interval(k1, n1, k2, n2, z))
    return {"diff": k2 / n2 - k1 / n1, "ci": [lo, hi], "p": p, "n_a": int(n1), "n_b": int(n2),
            "method": "two proportions (Newcombe)"}


def newcombe_paired(a: float, b: float, c: float, d: float, z: float = Z95) -> tuple[float, float]:
    """Newcombe's (1998) method 10 interval for p_B - p_A of paired binary
    outcomes: a pairs where both are 1, b where only A is, c where only B is, d neither."""
    n = a + b + c + d
    if n <= 0:
        return (-1.0, 1.0)
    pa, pb = (a + b) / n, (a + c) / n
    la, ua = wilson(a + b, n, z)
    lb, ub = wilson(a + c, n, z)
    den = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(den) if den > 0 else 0.0
    x, y = pb - lb, ua - pa
    lo = (pb - pa) - math.sqrt(max(0.0, x * x - 2 * phi * x * y + y * y))
    x, y = ub - pb, pa - la
    hi = (pb - pa) + math.sqrt(max(0.0, x * x - 2 * phi * x * y + y * y))
    return (max(-1.0, lo), min(1.0, hi))


def phi_coefficient(a: float, b: float, c: float, d: float) -> float | None:
    """Correlation of two paired binary outcomes (a both 1, b first only, c second only, d neither)."""
    den = (a + b) * (c + d) * (a + c) * (b + d)
    return float((a * d - b * c) / math.sqrt(den)) if den > 0 else None


def paired_binary(a: int, b: int, c: int, d: int, level: float = 0.95) -> dict:
    """p_B - p_A of paired win/loss outcomes (a both won, b only A, c only B, d neither).

    The interval is the hull of Newcombe's paired interval (method 10, for
    coverage) and the exact conditional one (Clopper-Pearson on the c of the
    b + c discordant pairs, scaled by (b + c)/n), whose exclusion of 0 is the
    exact McNemar test; `p` is the larger of the two p-values, so p <= 1 - level
    exactly when the interval shown excludes 0. `p_mcnemar_exact` is the exact
    McNemar test alone.

    With no discordant pair (both sides won or lost together in every game)
    there is no information on the difference: `no_information` says so, and
    the interval is the exact bound of a difference no larger than the share
    of discordant pairs (`exact_bound`; Newcombe's would be of zero width)."""
    a, b, c, d = int(a), int(b), int(c), int(d)
    n = a + b + c + d
    if n == 0:
        return {"diff": None, "ci": [None, None], "p": None, "p_mcnemar_exact": None, "n": 0,
                "discordant": [0, 0], "correlation": None, "method": "paired by game (exact McNemar)"}
    m = b + c
    if m == 0:
        ci, _ = exact_bound(0.0, n, -1.0, 1.0, level)
        return {"diff": 0.0, "ci": ci, "p": 1.0, "p_mcnemar_exact": 1.0, "n": n, "discordant": [0, 0],
                "correlation": phi_coefficient(a, b, c, d), "method": "paired by game (exact McNemar; exact bound)",
                "no_information": f"both sides had the same result in every one of the {n:,} pairs (no discordant "
                                  f"pair), so no pair set one against the other"}

    def conditional(z: float) -> tuple[float, float]:
        if m == 0:
            return (0.0, 0.0)
        lo, hi = clopper_pearson(c, m, level_of(z))
        return (m / n * (2 * lo - 1), m / n * (2 * hi - 1))

    def hull(z: float) -> tuple[float, float]:
        l1, h1 = newcombe_paired(a, b, c, d, z)
        l2, h2 = conditional(z)
        return (min(l1, l2), max(h1, h2))

    lo, hi = hull(z_of(level))
    p_exact = binomial_half_p(c, m)
    p_newcombe = p_from_interval(lambda z: newcombe_paired(a, b, c, d, z))
    return {"diff": (c - b) / n, "ci": [lo, hi], "p": max(p_exact, p_newcombe), "p_mcnemar_exact": p_exact,
            "n": n, "discordant": [b, c], "correlation": phi_coefficient(a, b, c, d),
            "method": "paired by game (exact McNemar; Newcombe interval)"}


def mean_difference(m: Moments, level: float = 0.95, bounds: tuple[float, float] | None = None) -> dict:
    """Mean of paired differences (their Moments): t interval at `level`, two-sided t-test.

    Every difference the same (no spread, where a t interval has zero width):
    with `bounds` (the least and most a difference can be) the exact interval
    of `exact_bound`; without, the interval stays of zero width, with no p
    unless the differences are all 0, and `no_information` says why, so that
    no verdict is read from it (`margin_verdict`)."""
    n = m.n
    if n == 0:
        return {"diff": None, "ci": [None, None], "p": None, "n": 0}
    mean = m.mean
    if n == 1:
        return {"diff": mean, "ci": [None, None], "p": 1.0, "n": 1}
    se = m.sd / math.sqrt(n)
    if se <= 1e-12 * max(1.0, abs(mean)):  # no spread: an sd of a few ulps is rounding in the sums, not spread
        out = {"diff": mean, "ci": [mean, mean], "p": 1.0 if mean == 0 else None, "n": n}
        if bounds is not None:
            out["ci"], out["p"] = exact_bound(mean, n, bounds[0], bounds[1], level)
        if mean == 0:
            out["no_information"] = f"every one of the {n:,} paired differences is 0, so no pair set one side against the other"
        elif bounds is None:
            out["no_information"] = (f"every one of the {n:,} paired differences is {mean:+.4g}: with no spread the "
                                     f"interval has zero width, so the games measured no uncertainty")
        return out
    q = float(stdtrit(n - 1, 1 - (1 - level) / 2))
    return {"diff": mean, "ci": [mean - q * se, mean + q * se], "p": float(2 * stdtr(n - 1, -abs(mean / se))), "n": n}


def welch(mx: Moments, my: Moments, level: float = 0.95) -> dict:
    """Mean of y minus mean of x, independent samples: Welch's t interval and test."""
    if mx.n == 0 or my.n == 0:
        return {"diff": None, "ci": [None, None], "p": None, "n_a": mx.n, "n_b": my.n, "method": "Welch"}
    diff = my.mean - mx.mean
    vx = mx.sd ** 2 / mx.n if mx.n > 1 else 0.0
    vy = my.sd ** 2 / my.n if my.n > 1 else 0.0
    se = math.sqrt(vx + vy)
    out = {"diff": diff, "n_a": mx.n, "n_b": my.n, "method": "Welch"}
    if se == 0:  # each side the same in every game: an interval of zero width, no verdict read from it
        return {**out, "ci": [diff, diff], "p": 1.0 if diff == 0 else None,
                "no_information": f"each side has one value in every game ({mx.mean:.4g} and {my.mean:.4g}): with no "
                                  f"spread the interval has zero width, so the games measured no uncertainty"}
    den = (vx * vx / (mx.n - 1) if mx.n > 1 else 0.0) + (vy * vy / (my.n - 1) if my.n > 1 else 0.0)
    df = (vx + vy) ** 2 / den if den > 0 else float(mx.n + my.n - 2)
    q = float(stdtrit(df, 1 - (1 - level) / 2))
    return {**out, "ci": [diff - q * se, diff + q * se], "p": float(2 * stdtr(df, -abs(diff / se)))}


def family_level(alpha: float, m: int) -> float:
    """Confidence of each interval in a family of m so that all m hold together
    with probability >= 1 - alpha (Bonferroni); verdicts are read from them."""
    return 1 - alpha / max(1, int(m))


def holm_adjusted(pvalues: list[float]) -> list[float]:
    """Holm step-down adjusted p-values (reject i at family level alpha iff adjusted_i <= alpha)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


MAX_DECIDE_FACTOR = 1000  # games_to_decide is said only up to this many times the games played


def margin_verdict(estimate, ci, margin: float, n: int | None = None, no_information: str | None = None) -> dict:
    """One interval and a margin of practical significance -> a verdict, read
    from that interval alone.

    within_margin: the whole interval inside (-margin, margin) (an equivalence
    test: TOST at alpha/2 per side when the interval is at 1 - alpha);
    beyond_margin: the whole interval beyond the margin; differs_size_unclear:
    the interval excludes 0 but crosses the margin; inconclusive: none of
    these. no_information: `no_information` gives the reason no game set the
    two sides against each other, or the interval has zero width; the words
    say why ("not enough information to say: ..."), `reason` holds it.
    `games_to_decide`: about how many games (at the same spread) would make
    the interval settle it, if the estimate stayed where it is."""
    lo, hi = (ci or [None, None])[:2]
    out = {"margin": margin}
    if no_information is None and lo is not None and hi is not None and estimate is not None and hi - lo <= 0:
        no_information = ZERO_WIDTH_WORDS
    if no_information:
        return {**out, "verdict": "no_information", "significant": False,
                "words": f"{VERDICT_WORDS['no_information']}: {no_information}", "reason": no_information,
                "games_to_decide": None}
    if lo is None or hi is None or estimate is None:
        return {**out, "verdict": "inconclusive", "significant": False, "words": VERDICT_WORDS["inconclusive"],
                "games_to_decide": None}
    sig = bool(lo > 0 or hi < 0)
    if -margin < lo and hi < margin:
        code = "within_margin"
    elif lo > margin or hi < -margin:
        code = "beyond_margin"
    elif sig:
        code = "differs_size_unclear"
    else:
        code = "inconclusive"
    words = VERDICT_WORDS[code]
    if code == "within_margin" and sig:
        words += " (a difference smaller than the margin is detectable)"
    need = None
    if n and code in ("inconclusive", "differs_size_unclear"):
        half = (hi - lo) / 2
        room = abs(abs(estimate) - margin)
        if half > 0 and room > 0 and half / room < math.sqrt(MAX_DECIDE_FACTOR):
            need = int(math.ceil(n * (half / room) ** 2))
        # else: the estimate sits on the margin, and no practical number of games would settle it (None)
    return {**out, "verdict": code, "significant": sig, "words": words, "games_to_decide": need}


# ---------------------------------------------------------------- seats: one multinomial outcome per game
class WinPatterns:
    """How often each per-game outcome vector occurred, counted window by window.

    For a run: the winner vector of each game (1 for every seat that won), so
    a shared win stays one outcome of one game. For a seat-rotated run: each
    seat's wins summed over the k rotated replays of one deal (0..k), so a deal
    is one outcome. Counts merge by addition; everything the seat test needs
    is a function of this table."""

    def __init__(self, k: int, reps: int = 1):
        self.k, self.reps = int(k), int(reps)
        self.counts: dict[tuple, int] = {}

    def add(self, patterns, counts=None) -> None:
        p = np.asarray(patterns, dtype=np.int64).reshape(-1, self.k)
        if p.shape[0] == 0:
            return
        if counts is None:
            uniq, cnt = np.unique(p, axis=0, return_counts=True)
        else:
            uniq, cnt = p, np.asarray(counts, dtype=np.int64)
        for row, c in zip(uniq.tolist(), cnt.tolist()):
            key = tuple(row)
            self.counts[key] = self.counts.get(key, 0) + int(c)

    @property
    def n(self) -> int:
        return int(sum(self.counts.values()))

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        keys = sorted(self.counts)
        if not keys:
            return np.zeros((0, self.k)), np.zeros(0, np.int64)
        return np.array(keys, dtype=float), np.array([self.counts[k] for k in keys], dtype=np.int64)


def fair_share(winners, games, players: int):
    """A seat's fair share of wins: the win rate every seat would have if the seats were equal, the number
    of winners per game divided by the players (a shared win counts for every seat that shares it, so it
    is not 1/players); `winners` won over `games` games (arrays: each game's own share, games 1). The one
    definition: the summary's seats (seat_balance) and the ladder's rungs (analysis.ladder) use it, the
    reports read it."""
    return winners / (games * players)


def seat_balance(patterns: WinPatterns, alpha: float = 0.05, margin: float = 0.02, what: str = "seat") -> dict | None:
    """Are the seats balanced? From the table of per-game (per-deal) outcome vectors.

    One verdict, read from one interval, the one printed for the seat gap:
    every pair of seats' difference within the same games (paired: exact
    McNemar with its Newcombe interval, or a paired t interval over deals for
    rotated runs) at 1 - alpha/pairs (Bonferroni), so that all of them hold
    together with probability 1 - alpha; the gap (best minus worst seat) lies
    between the largest lower bound of a pair's |difference| and the largest
    upper bound. The seats differ (`significant`) exactly when that interval
    excludes 0, i.e. when some pair's interval does; `test.p` is the
    Bonferroni-adjusted smallest pairwise p (the inversion of the same
    intervals: p <= alpha exactly when the gap's interval excludes 0), and the
    margin verdict is read from the same interval.

    No information: only a game (deal) whose outcome vector is not the same
    for every seat sets one seat against another (`informative`). With none
    (every game won or lost by every seat alike; in a rotated run every deal
    giving each seat the same wins over its replays, as when one policy wins
    from every seat: the seats' rates are then the fair share by
    construction) the verdict is "not enough information to say", with the
    reason, and a rotated run's seat rates get no interval.

    `what` names the things compared in the words ("seat", or "policy" for a
    rotated run's policies)."""
    p, w = patterns.arrays()
    k, reps = patterns.k, patterns.reps
    n = int(w.sum())
    if k < 2 or n == 0:
        return None
    trials = n * reps
    totals = w @ p
    rates = totals / trials
    unit = "game" if reps == 1 else "deal"
    moving = ~np.all(p == p[:, :1], axis=1)  # outcome vectors that set one seat against another
    informative = int(w[moving].sum())
    no_info = None
    if informative == 0:
        if reps == 1:
            no_info = (f"in every one of the {n:,} games every {what} had the same result (all won or all lost), "
                       f"so no game set one {what} against another")
        else:
            how = "one policy wins from every seat" if what == "seat" else "the policies play alike"
            no_info = (f"every one of the {n:,} deals gave every {what} the same wins over its {reps} rotated "
                       f"replays (as when {how}), so no deal set one {what} against another: each {what}'s "
                       f"{_pct(rates[0])} is the fair share by construction, not a measurement")
    seats = []
    for s in range(k):
        if reps == 1:
            lo, hi = wilson(totals[s], n)
            ci, method = [lo, hi], "Wilson"
        elif no_info:
            ci, method = [None, None], "none: the fair share by construction (every deal alike for every seat)"
        else:
            ci = mean_difference(Moments.of_counts(p[:, s] / reps, w), bounds=(0.0, 1.0))["ci"]
            method = "t interval over deals (each deal's rotated replays are one outcome)"
        seats.append({"seat": s, "value": float(rates[s]), "ci": ci, "n": int(n), "seat_games": int(trials),
                      "wins": int(totals[s]), "ci_method": method})

    n_pairs = k * (k - 1) // 2
    level = family_level(alpha, n_pairs)
    pairs = []
    for i in range(k):
        for j in range(i + 1, k):
            if reps == 1:
                xi, xj = p[:, i] > 0.5, p[:, j] > 0.5
                r = paired_binary(int(w[xi & xj].sum()), int(w[xi & ~xj].sum()), int(w[~xi & xj].sum()),
                                  int(w[~xi & ~xj].sum()), level)
            else:
                r = mean_difference(Moments.of_counts((p[:, j] - p[:, i]) / reps, w), level, bounds=(-1.0, 1.0))
            pairs.append({"seats": [i, j], "diff": r["diff"], "ci": r["ci"], "p": r["p"], "ci_level": level})
    shown = [q for q in pairs if q["ci"][0] is not None]
    best, worst = int(np.argmax(rates)), int(np.argmin(rates))
    gap_value = float(rates[best] - rates[worst])
    if shown and not no_info:
        gap_ci = [max(0.0, max(max(q["ci"][0], -q["ci"][1]) for q in shown)),
                  max(max(q["ci"][1], -q["ci"][0]) for q in shown)]
        gap_p = min(1.0, n_pairs * min(q["p"] for q in shown))
    else:
        gap_ci, gap_p = [None, None], None
    significant = bool(gap_ci[0] is not None and gap_ci[0] > 0)
    plural = "policies" if what == "policy" else f"{what}s"
    out = {
        "n": n, "reps": reps, "trials_per_seat": int(trials), "seats": seats,
        "fair_share": float(fair_share(totals.sum(), trials, k)),
        "informative": {"count": informative, "share": informative / n,
                        "help": f"{unit}s whose outcome is not the same for every {what}: the only ones that set "
                                f"one {what} against another"},
        "test": {"name": f"largest paired difference between two {plural}, every pair's interval at "
                         f"1 - alpha/{n_pairs} (Bonferroni), one outcome vector per {unit}",
                 "p": gap_p, "family_size": n_pairs, "ci_level": level},
        "significant": significant,
        "gap": {"value": gap_value, "ci": gap_ci, "best_seat": best, "worst_seat": worst,
                "ci_method": f"bounded by the {n_pairs} pairwise paired interval{'s' if n_pairs > 1 else ''} at "
                             f"{level:.4g} (all hold together with {1 - alpha:.0%} probability); the verdict is "
                             f"read from this interval"},
        "pairs": pairs,
        "no_information": no_info,
    }
    if reps == 1:
        winners = p.sum(axis=1)
        out["shared"] = {"games_with_a_winner": int(w[winners >= 1].sum()),
                         "games_with_shared_wins": int(w[winners >= 2].sum()),
                         "shared_rate": rate(int(w[winners >= 2].sum()), n),
                         "seat_rates_sum": float(totals.sum() / n)}
    out["verdict"] = margin_verdict(gap_value, gap_ci, margin, n=n, no_information=no_info)
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


# ---------------------------------------------------------------- families of paired differences (compare, impact)
def is_binary_values(x: np.ndarray) -> bool:
    v = np.asarray(x, dtype=float)
    v = v[~np.isnan(v)]
    return bool(v.size) and bool(np.all((v == 0) | (v == 1)))


def paired_difference(x, y, level: float = 0.95, binary: bool | None = None) -> dict:
    """Mean of y minus mean of x over games paired by index (pairs with a
    missing value on either side left out, `missing` counts them): the exact
    McNemar test with its interval (`paired_binary`) for 0/1 values, a paired t
    interval otherwise. The contract of the module docstring."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = ~(np.isnan(x) | np.isnan(y))
    missing = int((~ok).sum())
    x, y = x[ok], y[ok]
    if binary is None:
        binary = is_binary_values(np.concatenate([x, y]))
    if binary:
        xa, yb = x > 0.5, y > 0.5
        r = paired_binary(int((xa & yb).sum()), int((xa & ~yb).sum()), int((~xa & yb).sum()),
                          int((~xa & ~yb).sum()), level)
    else:
        r = {**mean_difference(Moments.of(y - x), level), "method": "paired by game (t interval)"}
    return {**r, "a": float(x.mean()) if x.size else None, "b": float(y.mean()) if y.size else None,
            "n_a": int(x.size), "n_b": int(y.size), "missing": missing, "rate": bool(binary)}


def difference_family(pairs: dict, alpha: float = 0.05, margin: float = 0.02) -> list[dict]:
    """A family of paired differences from one baseline (e.g. every card
    removed, every rule stepped, each against the same games): `pairs` maps a
    name to its (x, y) per-game arrays (baseline, variant). Each interval is at
    1 - alpha/m (Bonferroni), so they hold together and every `significant`
    verdict is read from its interval; `p_holm` (Holm-adjusted) ranks them;
    each gets a margin verdict (rates: `margin` in points; other metrics: that
    share of the baseline's mean). Sorted by the size of the difference,
    largest first."""
    m = len(pairs)
    level = family_level(alpha, m)
    rows = []
    for name, (x, y) in pairs.items():
        r = paired_difference(x, y, level)
        mg = margin if r["rate"] or r["a"] is None else margin * abs(r["a"])
        lo, hi = r["ci"]
        rows.append({"name": name, **r, "ci_level": level, "family_size": m,
                     "significant": bool(lo is not None and (lo > 0 or hi < 0)),
                     "margin": mg, "margin_verdict": margin_verdict(r["diff"], r["ci"], mg, n=r["n_a"],
                                                                    no_information=r.get("no_information"))})
    for row, p in zip(rows, holm_adjusted([r["p"] if r["p"] is not None else 1.0 for r in rows])):
        row["p_holm"] = p
    return sorted(rows, key=lambda r: -abs(r["diff"] or 0.0))
