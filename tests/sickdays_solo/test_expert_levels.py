"""The rulebook's difficulty labels under `expert`, not only under greedy:
levels 1-5 get harder, and so do 6-11 (the automa levels).

Every level plays the same deals (game indices 0..N-1 of one seed), so two
levels are compared by the paired difference of their wins. A level counts as
"not harder" than the one before it only if it is significantly easier: its
paired win-rate difference is above 0 by more than Z_STEP standard errors
(one-sided, 1% each). The band's ends must differ significantly the right way
(95%). Expert plays 16 iterations a decision here. The heavy version (more games, intervals per level) is
`python -m tests.expert_reach solo --levels 1,...,11 --policies greedy,expert`."""
import numpy as np

from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.params import resolve
from balance.simcore.runner import EXPERT, LOOKAHEAD, ORACLE
from balance.simcore.sickdays_solo import SPEC

N = 120  # 60 deals left the band ends at z 1.93 (levels 1 vs 5, 16 iterations): too little power
ITERATIONS = 16  # a smaller budget than the default (48), to keep CI affordable
SEED = 17
Z_STEP = 2.326  # one-sided 1%
Z_ENDS = 1.96


def paired_z(a, b) -> float:
    """z of mean(b - a) over paired 0/1 outcomes (0 when they never differ)."""
    d = np.asarray(b, float) - np.asarray(a, float)
    sd = d.std(ddof=1)
    return 0.0 if sd == 0 else d.mean() / (sd / np.sqrt(len(d)))


def significantly_easier(a, b, z=Z_STEP) -> bool:
    """b (the next level) wins significantly more than a on the same deals."""
    return paired_z(a, b) > z


def test_significantly_easier_is_calibrated_under_a_true_null():
    # two levels of the same difficulty, correlated through the deal: flagged in at most 1% + 3 se
    g = np.random.default_rng(5)
    trials, flagged = 2000, 0
    for _ in range(trials):
        p = g.uniform(0.2, 0.95)
        deal = g.random(N)
        a = (deal + 0.15 * g.random(N) < p + 0.075).astype(float)
        b = (deal + 0.15 * g.random(N) < p + 0.075).astype(float)
        flagged += significantly_easier(a, b)
    assert flagged / trials <= 0.01 + 3 * np.sqrt(0.01 * 0.99 / trials)
    # and a real gap is seen
    a = (np.arange(N) < 50).astype(float)
    b = (np.arange(N) < 80).astype(float)
    assert significantly_easier(a, b)


def test_levels_get_harder_under_expert():
    # the contract's search loop (lookahead, expert, oracle): one compile for both tests
    e = Engine(SPEC, [resolve_policy(SPEC, "expert", {"iterations": ITERATIONS})], kinds={LOOKAHEAD, EXPERT, ORACLE})
    wins = {}
    for level in range(1, 12):
        data = SPEC.load_data(resolve(SPEC, {"level": level}))
        r = e.run(data.tables, 1, SEED, np.arange(N, dtype=np.int64), len(data.card_names))
        wins[level] = r.seat_out[:, 0, 0]
    rates = {k: round(float(v.mean()), 2) for k, v in wins.items()}
    for band in ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10, 11)):
        for lo, hi in zip(band, band[1:]):
            assert not significantly_easier(wins[lo], wins[hi]), (lo, hi, rates)
        assert paired_z(wins[band[-1]], wins[band[0]]) > Z_ENDS, (band, rates)
