"""Distributions of a sample from its value-count table: mean, median with a
bootstrap interval, p10, p90, min, max and a histogram. Used by the summary
(lengths, rounds) and by the declared `Distribution` metrics."""
from __future__ import annotations

import numpy as np

from .stats import Moments, bootstrap_quantile_ci_counts, quantile_counts

HIST_MAX_VALUES = 200  # distinct values kept as-is in a histogram; more are binned
HIST_BINS = 60


def histogram(x: np.ndarray) -> dict:
    """Counts per distinct value (binned when there are very many values)."""
    x = np.asarray(x, dtype=float)
    if x.size == 0:
        return {"values": [], "counts": [], "bin_width": None}
    return histogram_counts(*np.unique(x, return_counts=True))


def histogram_counts(values: np.ndarray, counts: np.ndarray) -> dict:
    """`histogram` of a sample given as sorted distinct values and their counts."""
    if len(values) == 0:
        return {"values": [], "counts": [], "bin_width": None}
    values, counts = np.asarray(values, dtype=float), np.asarray(counts, dtype=np.int64)
    if values.size <= HIST_MAX_VALUES:
        return {"values": values.tolist(), "counts": counts.tolist(), "bin_width": None}
    binned, edges = np.histogram(values, bins=HIST_BINS, weights=counts)
    return {"values": ((edges[:-1] + edges[1:]) / 2).tolist(), "counts": binned.astype(np.int64).tolist(),
            "bin_width": float(edges[1] - edges[0])}


def distribution(values, column: str = "", help: str = "") -> dict:
    """Mean (normal interval), median (bootstrap interval), p10, p90, n and histogram."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    return distribution_counts(*np.unique(x, return_counts=True), column=column, help=help)


def distribution_counts(values, counts, column: str = "", help: str = "") -> dict:
    """`distribution` of a sample given as its value-count table (sorted distinct
    values, counts): what the summary accumulates chunk by chunk. Quantiles,
    histogram and the bootstrap interval of the median are those of the rows;
    the mean is an exactly rounded sum over the table."""
    v = np.asarray(values, dtype=float)
    c = np.asarray(counts, dtype=np.int64)
    n = int(c.sum())
    m = Moments.of_counts(v, c).ci()
    lo, hi = bootstrap_quantile_ci_counts(v, c, 0.5) if n else (None, None)
    q = (lambda p: quantile_counts(v, c, p)) if n else (lambda p: None)
    return {
        "column": column, "help": help, "n": n,
        "mean": m["value"], "mean_ci": m["ci"],
        "median": q(0.5), "median_ci": [lo, hi],
        "p10": q(0.1), "p90": q(0.9),
        "min": float(v[0]) if n else None, "max": float(v[-1]) if n else None,
        "histogram": histogram_counts(v, c),
    }
