"""Null calibration and coverage, small but real (the heavy versions: python -m tests.calibration).

Every check repeats an experiment with a known truth, fixes its seed, and takes
its tolerance from the 95% Wilson interval of the observed rate: a test is
miscalibrated when even the interval's lower end is above the nominal 5% (or,
for coverage, when its upper end is below 95%)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.stats import (Moments, margin_verdict, mean_difference, paired_binary, seat_balance, two_proportions_ci,
                            wilson)
from calibration import (compare_null_engine, compare_synthetic, seat_null_race21, seat_null_synthetic,
                         seat_power_synthetic, seat_rotation_race21)


def at_or_below_nominal(r: dict) -> bool:
    return r["ci"][0] <= r["nominal"]


def test_seat_test_holds_its_level_under_equal_seats_where_the_old_one_did_not():
    two = seat_null_synthetic(400, 300, 2, n_perm=300)
    assert at_or_below_nominal(two["seat test (new)"]) and at_or_below_nominal(two["gap interval excludes 0"])
    # the old chi-square over seat-games treated one seat's win and another's loss as independent: ~16%
    assert two["old chi-square"]["ci"][0] > 0.05
    shared = seat_null_synthetic(300, 300, 4, shared=0.15, n_perm=300)
    assert at_or_below_nominal(shared["seat test (new)"]) and at_or_below_nominal(shared["gap interval excludes 0"])


def test_seat_test_sees_a_real_seat_advantage():
    r = seat_power_synthetic(40, 2000, 0.05)  # 55% against 45%: z about 4.5
    assert r["ci"][0] > 0.8


def test_seat_test_on_race21_and_with_rotated_seats():
    r = seat_null_race21(80, 400, 2)
    assert at_or_below_nominal(r["seat test (new)"])
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
    b = seat_balance(patterns_of(won), n_perm=500)
    total = sum(s["value"] for s in b["seats"])
    assert total > 1.1  # shared wins: the seats' rates add to more than 100%
    assert b["fair_share"] == pytest.approx(total / 4)
    assert b["shared"]["games_with_shared_wins"] == int((won.sum(axis=1) >= 2).sum())
    lo, hi = wilson(b["seats"][0]["wins"], 5000)
    assert b["seats"][0]["ci"] == pytest.approx([lo, hi])


def test_difference_family_holds_together_and_ranks():
    from analysis.stats import difference_family

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
