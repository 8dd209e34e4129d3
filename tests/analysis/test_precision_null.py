"""Null calibration of `--precision` (impact, compare --game): the run stops once every
variant's widest 95% Wilson interval is narrower than WIDTH (analysis.execution.execute asks its Tally,
used here as it is), and the paired differences are then read with analysis.stats.difference_family. A stopping
rule that looks at the data can bend the intervals read after it; this one looks only at each
side's own spread, so the difference's interval should still cover a true zero about 95% of
the time. The same harness with optional stopping (stop as soon as the difference looks
significant) must fail, or the check could not fail."""
import numpy as np

from balance.analysis.execution import Tally
from balance.analysis.stats import difference_family

CHUNK = 100
MAX_GAMES = 4_000
WIDTH = 0.05
REPS = 600


def _paired_null(rng, n: int, p: float, same: float):
    """n deals where both sides win at rate p (a true null), their outcomes equal on a share
    `same` of the deals (paired games are correlated) and independent on the rest."""
    x = rng.random(n) < p
    y = np.where(rng.random(n) < same, x, rng.random(n) < p)
    return x.astype(float), y.astype(float)


def _stopped(x, y, rule):
    """The first CHUNK-multiple of games at which `rule(tally, x, y)` says stop (each side a variant of a
    one-seat game in the run's Tally), or all of them."""
    tally = Tally(2, 1)
    n = 0
    while n < len(x):
        for v, side in enumerate((x, y)):
            tally.add(v, side[n:n + CHUNK, None, None])  # seat_out: games x seats x columns, `won` first
        n += CHUNK
        if rule(tally, x[:n], y[:n]):
            break
    return x[:n], y[:n]


def precision_rule(tally, x, y) -> bool:
    return all(tally.widest(v) < WIDTH for v in range(2))  # analysis.execution.execute's `precise`, every variant


def peeking_rule(tally, x, y) -> bool:
    return difference_family({"v": (x, y)})[0]["significant"]


def _coverage(rule, seed: int) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    covered, games = 0, 0
    for i in range(REPS):
        p = (0.2, 0.35, 0.5)[i % 3]
        x, y = _stopped(*_paired_null(rng, MAX_GAMES, p, 0.6), rule)
        lo, hi = difference_family({"v": (x, y)})[0]["ci"]
        covered += lo <= 0.0 <= hi
        games += len(x)
    return covered / REPS, games / REPS


def test_precision_stopping_keeps_the_difference_interval_honest_under_a_true_null():
    cov, mean_games = _coverage(precision_rule, 11)
    assert mean_games < MAX_GAMES  # the rule did stop runs early
    # 600 replicates: a 95% interval's coverage has a standard error of 0.9 points
    assert cov >= 0.925, cov


def test_the_coverage_check_catches_optional_stopping():
    cov, _ = _coverage(peeking_rule, 12)
    assert cov < 0.9, cov
