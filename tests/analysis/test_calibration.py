"""Null calibration and coverage, small but real (the heavy versions: python -m tests.calibration).

Every check repeats an experiment with a known truth, fixes its seed, and takes
its tolerance from the 95% Wilson interval of the observed rate: a test is
miscalibrated when even the interval's lower end is above the nominal 5% (or,
for coverage, when its upper end is below 95%)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.analysis.stats import (Moments, margin_verdict, mean_difference, paired_binary, seat_balance, two_proportions_ci,
                            wilson)
from calibration import (compare_null_engine, compare_synthetic, seat_null_race21, seat_null_synthetic,
                         seat_power_synthetic, seat_rotation_race21)


def at_or_below_nominal(r: dict) -> bool:
    return r["ci"][0] <= r["nominal"]


def test_seat_verdict_holds_its_level_under_equal_seats_where_the_old_chi_square_did_not():
    two = seat_null_synthetic(400, 300, 2)
    assert at_or_below_nominal(two["seat verdict"]) and at_or_below_nominal(two["gap interval excludes 0"])
    # the old chi-square over seat-games treated one seat's win and another's loss as independent: ~16%
    assert two["old chi-square"]["ci"][0] > 0.05
    for seats, shared in ((4, 0.15), (4, 0.0), (6, 0.0)):
        r = seat_null_synthetic(300, 300, seats, shared=shared)
        assert at_or_below_nominal(r["seat verdict"]) and at_or_below_nominal(r["gap interval excludes 0"])
        assert r["verdict and interval disagree"]["k"] == 0


def test_seat_test_sees_a_real_seat_advantage():
    r = seat_power_synthetic(40, 2000, 0.05)  # 55% against 45%: z about 4.5
    assert r["ci"][0] > 0.8


def test_seat_test_on_race21_and_with_rotated_seats():
    r = seat_null_race21(80, 400, 2)
    assert at_or_below_nominal(r["seat verdict"])
    rot = seat_rotation_race21(40, 400)
    assert at_or_below_nominal(rot["rotated (null)"])
    # unrotated, seat 1's greedy against seat 2's random looks like a seat advantage, every time
    assert rot["unrotated (policy confounded)"]["ci"][0] > 0.8


@pytest.mark.parametrize("paired", [True, False])
def test_compare_holds_its_level_under_no_change(paired):
    r = compare_synthetic(300, 400, 0.0, paired)
    assert at_or_below_nominal(r["primary"]) and at_or_below_nominal(r["family"])


@pytest.mark.parametrize("paired", [True, False])
def test_compare_intervals_cover_a_known_change(paired):
    r = compare_synthetic(300, 400, 0.4, paired)["coverage"]
    assert r["ci"][1] >= 0.95


def test_compare_on_an_engine_change_with_no_effect():
    # race to 21 played by random and by greedy with epsilon 1: the same movers, different draws, same deals
    r = compare_null_engine("race21", 60, 400, 2)
    assert at_or_below_nominal(r["family"])


# ---------------------------------------------------------------- the pieces
def test_exact_mcnemar_on_the_issue_example():
    # 1 game only A won, 6 only B won: the paired z-test said p=0.045, the exact McNemar test 0.125
    r = paired_binary(40, 1, 6, 53)
    assert r["p_mcnemar_exact"] == pytest.approx(0.125) and r["p"] >= 0.125
    assert r["ci"][0] <= 0 <= r["ci"][1]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 60), st.integers(0, 30), st.integers(0, 30), st.integers(0, 60),
       st.sampled_from([0.9, 0.95, 0.99, 0.999]))
def test_paired_verdict_and_interval_agree(a, b, c, d, level):
    if a + b + c + d == 0:
        return
    r = paired_binary(a, b, c, d, level)
    excludes = r["ci"][0] > 0 or r["ci"][1] < 0
    if abs(r["p"] - (1 - level)) > 1e-6:  # away from the boundary itself
        assert excludes == (r["p"] < 1 - level)
    assert r["ci"][0] <= r["diff"] <= r["ci"][1]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 80), st.integers(1, 80), st.integers(0, 80), st.integers(1, 80),
       st.sampled_from([0.95, 0.99]))
def test_unpaired_verdict_and_interval_agree(k1, n1, k2, n2, level):
    k1, k2 = min(k1, n1), min(k2, n2)
    r = two_proportions_ci(k1, n1, k2, n2, level)
    excludes = r["ci"][0] > 0 or r["ci"][1] < 0
    if abs(r["p"] - (1 - level)) > 1e-6:
        assert excludes == (r["p"] < 1 - level)


def test_mean_difference_is_a_t_interval():
    x = np.array([0.3, -0.1, 0.4, 0.2, 0.5, -0.2, 0.1])
    r = mean_difference(Moments.of(x))
    from scipy import stats as st_

    lo, hi = st_.t.interval(0.95, x.size - 1, loc=x.mean(), scale=st_.sem(x))
    assert r["ci"] == pytest.approx([lo, hi]) and r["p"] == pytest.approx(st_.ttest_1samp(x, 0).pvalue)


def test_margin_verdicts():
    m = 0.02
    assert margin_verdict(0.005, [-0.01, 0.015], m)["verdict"] == "within_margin"
    w = margin_verdict(0.01, [0.005, 0.015], m)
    assert w["verdict"] == "within_margin" and w["significant"] and "smaller than the margin is detectable" in w["words"]
    assert margin_verdict(0.05, [0.03, 0.07], m)["verdict"] == "beyond_margin"
    assert margin_verdict(-0.05, [-0.07, -0.03], m)["verdict"] == "beyond_margin"
    u = margin_verdict(0.025, [0.01, 0.04], m, n=1000)
    assert u["verdict"] == "differs_size_unclear" and u["games_to_decide"] > 1000
    i = margin_verdict(0.0, [-0.04, 0.04], m, n=1000)
    assert i["verdict"] == "inconclusive" and i["games_to_decide"] == 4000


def test_seat_balance_with_shared_wins_and_its_fair_share():
    from calibration import patterns_of, winner_vectors

    won = winner_vectors(np.random.default_rng(3), 5000, 4, shared=0.2, nobody=0.0)
    b = seat_balance(patterns_of(won))
    total = sum(s["value"] for s in b["seats"])
    assert total > 1.1  # shared wins: the seats' rates add to more than 100%
    assert b["fair_share"] == pytest.approx(total / 4)
    assert b["shared"]["games_with_shared_wins"] == int((won.sum(axis=1) >= 2).sum())
    lo, hi = wilson(b["seats"][0]["wins"], 5000)
    assert b["seats"][0]["ci"] == pytest.approx([lo, hi])


def test_difference_family_holds_together_and_ranks():
    from balance.analysis.stats import difference_family

    rng = np.random.default_rng(11)
    x = rng.random(4000) < 0.4
    fam = difference_family({"no effect": (x, x ^ (rng.random(4000) < 0.1)),  # flips both ways: mean change ~ +2 pts
                             "cut a card": (x, x | (rng.random(4000) < 0.2)),  # +12 points
                             "length": (rng.normal(10, 2, 4000), rng.normal(10, 2, 4000))})
    assert [r["name"] for r in fam][0] == "cut a card" and all(r["family_size"] == 3 for r in fam)
    assert all(r["ci_level"] == pytest.approx(1 - 0.05 / 3) for r in fam)
    for r in fam:
        assert r["significant"] == (r["ci"][0] > 0 or r["ci"][1] < 0)
        assert r["p_holm"] >= r["p"]
    assert fam[0]["margin_verdict"]["verdict"] == "beyond_margin" and fam[0]["rate"]


# ---------------------------------------------------------------- one seat verdict, read from one interval
def _seat_table(draw, k: int, reps: int):
    """A WinPatterns of a few distinct outcome vectors (values 0..reps per seat) with counts."""
    from balance.analysis.stats import WinPatterns

    rows = draw(st.lists(st.tuples(st.lists(st.integers(0, reps), min_size=k, max_size=k), st.integers(1, 400)),
                         min_size=1, max_size=8))
    wp = WinPatterns(k, reps=reps)
    wp.add(np.array([r for r, _ in rows], dtype=np.int64), np.array([c for _, c in rows], dtype=np.int64))
    return wp


@st.composite
def seat_tables(draw):
    """Small tables of any outcome vectors, plain and seat-rotated (k replays a deal), and synthetic winner
    vectors of n games near the edge of significance: seat 1 wins a little more than its share."""
    from calibration import patterns_of

    k = draw(st.integers(2, 5))
    margin = draw(st.sampled_from([0.01, 0.02, 0.05]))
    if draw(st.booleans()):
        return _seat_table(draw, k, draw(st.sampled_from([1, 1, k]))), margin
    n = draw(st.integers(200, 4000))
    edge = draw(st.floats(0.0, 0.06))
    shared = draw(st.sampled_from([0.0, 0.0, 0.15]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    probs = np.full(k, (1 - (1 / k + edge)) / (k - 1))
    probs[0] = 1 / k + edge
    won = np.zeros((n, k), np.int64)
    won[np.arange(n), rng.choice(k, n, p=probs)] = 1
    for i in np.flatnonzero(rng.random(n) < shared):
        won[i, rng.integers(0, k)] = 1
    won[rng.random(n) < 0.05] = 0  # nobody wins some games
    return patterns_of(won), margin


@settings(max_examples=400, deadline=None)
@given(seat_tables())
def test_the_seat_verdict_is_read_from_the_gap_interval_printed(table):
    """Whatever the games, the seat verdict and the gap interval printed beside it agree: 'differs' (or the
    'detectable' within-margin words) exactly when the interval excludes 0, 'balanced within the margin' only
    when the whole interval is inside it, 'differs by more than the margin' only when it is beyond, and p below
    alpha exactly when the interval excludes 0 (away from the boundary)."""
    from calibration import interval_excludes_0, says_differs

    wp, margin = table
    b = seat_balance(wp, 0.05, margin)
    v, (lo, hi) = b["verdict"], b["gap"]["ci"]
    if lo is None:  # no game set one seat against another (no verdict), or one deal only (too few to say)
        assert not b["significant"] and not says_differs(b)
        assert (v["verdict"] == "no_information") == (b["informative"]["count"] == 0)
        assert v["verdict"] == "no_information" or (v["verdict"] == "inconclusive" and b["n"] == 1)
        return
    assert hi - lo > 0  # never an interval of zero width
    assert says_differs(b) == interval_excludes_0(b) == b["significant"] == v["significant"]
    assert ("detectable" in v["words"]) == (v["verdict"] == "within_margin" and lo > 0)
    if v["verdict"] == "within_margin":
        assert hi < margin
    if v["verdict"] == "beyond_margin":
        assert lo > margin
    if abs(b["test"]["p"] - 0.05) > 1e-6:
        assert (b["test"]["p"] < 0.05) == b["significant"]
    assert lo <= b["gap"]["value"] <= hi


def test_no_verdict_when_no_game_set_one_seat_against_another():
    from balance.analysis.stats import WinPatterns

    # every game won by both seats or by neither: a tie in every game
    tied = WinPatterns(2)
    tied.add(np.array([[1, 1], [0, 0]]), np.array([3000, 2000]))
    b = seat_balance(tied)
    assert b["verdict"]["verdict"] == "no_information" and b["gap"]["ci"] == [None, None]
    assert b["verdict"]["words"].startswith("not enough information to say: in every one of the 5,000 games")
    # rotated: greedy beats random from either seat on every deal, so each seat wins one of its 2 replays:
    # the seats' 50% is the fair share by construction, not a measurement
    rot = WinPatterns(2, reps=2)
    rot.add(np.array([[1, 1]]), np.array([2000]))
    b = seat_balance(rot)
    assert b["verdict"]["verdict"] == "no_information" and "by construction" in b["verdict"]["words"]
    assert all(s["value"] == 0.5 and s["ci"] == [None, None] for s in b["seats"])
    # one deal where the seat mattered is information, and no interval has zero width
    rot.add(np.array([[2, 0]]), np.array([1]))
    b = seat_balance(rot)
    assert b["verdict"]["verdict"] != "no_information"
    assert all(s["ci"][1] - s["ci"][0] > 0 for s in b["seats"]) and b["gap"]["ci"][1] > 0


def test_a_seat_that_wins_every_deal_from_either_seat_is_seen():
    from balance.analysis.stats import WinPatterns

    rot = WinPatterns(2, reps=2)  # seat 1 wins both replays of every deal: no spread, but an answer
    rot.add(np.array([[2, 0]]), np.array([500]))
    b = seat_balance(rot)
    assert b["significant"] and b["verdict"]["verdict"] == "beyond_margin"
    assert b["gap"]["ci"][0] > 0.95 and b["gap"]["ci"][1] == 1.0


def test_no_interval_of_zero_width_and_no_verdict_from_one():
    from balance.analysis.stats import exact_bound, paired_difference, welch

    # the same result on both sides in every pair (both sides the same policy): no verdict
    x = np.array([1.0, 0.0] * 2500)
    r = paired_binary(2500, 0, 0, 2500)
    assert r["ci"][1] - r["ci"][0] > 0 and r["no_information"]
    assert margin_verdict(r["diff"], r["ci"], 0.02, no_information=r["no_information"])["verdict"] == "no_information"
    # paired means with every difference 0, or every difference the same, unbounded: the interval has zero
    # width, and it says so, so that no verdict is read from it
    r = paired_difference(x + 3, x + 3)
    assert r["no_information"] and r["p"] == 1.0
    r = mean_difference(Moments.of(np.full(50, 2.0)))
    assert r["ci"] == [2.0, 2.0] and r["no_information"] and r["p"] is None
    assert margin_verdict(r["diff"], r["ci"], 0.02)["verdict"] == "no_information"
    r = welch(Moments.of(np.full(30, 1.0)), Moments.of(np.full(30, 2.0)))
    assert r["no_information"] and r["p"] is None
    assert margin_verdict(r["diff"], r["ci"], 0.02)["verdict"] == "no_information"
    # an interval of zero width gives no verdict
    v = margin_verdict(0.0, [0.0, 0.0], 0.02)
    assert v["verdict"] == "no_information" and v["words"].startswith("not enough information to say: ")
    # with bounds, the exact interval: all 0 of n outcomes unlike the one seen
    ci, p = exact_bound(0.5, 2000, 0.0, 1.0)
    q = 1 - 0.025 ** (1 / 2000)
    assert ci == pytest.approx([0.5 - 0.5 * q, 0.5 + 0.5 * q]) and p == 0.0
    ci, p = exact_bound(-1.0, 10, -1.0, 1.0, 0.95)
    assert ci[0] == -1.0 and ci[1] < 0 and p == pytest.approx(2 * 0.5 ** 10)


def test_differences_alike_but_for_rounding_get_the_exact_bound_not_a_zero_width_interval():
    """0.1 * 3, 0.3 and 0.1 + 0.2 are one value to a player and three to a float: their sd of a few ulps
    is no spread, so the interval is the exact bound (positive width, around the mean), never a t
    interval of zero width that would read as certainty."""
    import numpy as np

    from balance.analysis.stats import Moments, mean_difference

    m = Moments.of_counts(np.array([0.1 * 3, 0.3, 0.1 + 0.2]), np.array([3, 5, 7]))
    assert 0 < m.sd < 1e-15
    r = mean_difference(m, bounds=(-1.0, 1.0))
    lo, hi = r["ci"]
    assert lo < r["diff"] < hi and hi - lo > 0.1
