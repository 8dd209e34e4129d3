"""The skill check's verdicts (analysis.skill_check): how a verdict's status is read, and how often it
says "changes for expert players" when nothing changes (a true null), for the headline and the seats."""
from __future__ import annotations

import math

import numpy as np
import pytest

from balance.analysis.skill_check import compare_items, default_deals, status
from balance.analysis.stats import WinPatterns, margin_verdict, paired_difference, seat_balance


@pytest.mark.parametrize("main, check, same, want", [
    ("within_margin", "within_margin", True, "holds"),
    ("beyond_margin", "beyond_margin", True, "holds"),
    ("beyond_margin", "beyond_margin", False, "changes"),  # another seat ahead
    ("within_margin", "beyond_margin", True, "changes"),
    ("beyond_margin", "within_margin", True, "changes"),
    ("differs_size_unclear", "within_margin", True, "changes"),
    ("within_margin", "differs_size_unclear", True, "changes"),
    ("within_margin", "inconclusive", True, "unsettled"),
    ("beyond_margin", "differs_size_unclear", True, "unsettled"),
    ("inconclusive", "inconclusive", True, "unsettled"),
    ("within_margin", "no_information", True, "unsettled"),
])
def test_a_verdict_holds_changes_or_is_not_settled(main, check, same, want):
    assert status(main, check, same) == want


def test_each_verdict_is_set_beside_the_same_verdict_of_the_check():
    main = [{"id": "seats", "variant": None, "verdict": "beyond_margin", "best_seat": 1},
            {"id": "first_player", "variant": None, "verdict": "within_margin", "estimate": 0.001}]
    check = [{"id": "seats", "variant": None, "verdict": "beyond_margin", "best_seat": 2, "n": 1000},
             {"id": "first_player", "variant": None, "verdict": "within_margin", "estimate": -0.004}]
    got = {r["id"]: r["status"] for r in compare_items(main, check)}
    assert got == {"seats": "changes", "first_player": "holds"}


def test_the_default_size_is_about_three_points_and_a_budget_over_variants():
    assert default_deals(1_000_000, 1) == 1000
    assert 1.96 * 0.5 / math.sqrt(default_deals(1_000_000, 1)) < 0.032
    assert default_deals(100, 1) == 100  # never more deals than the run plays
    assert default_deals(100_000, 2) == 1000
    assert default_deals(100_000, 7) == 285
    assert default_deals(100_000, 40) == 200


ALPHA = 0.05
REPEATS = 400


def _tolerance(n: int, p: float = ALPHA) -> float:
    return p + 3 * math.sqrt(p * (1 - p) / n)  # a 3-sigma binomial allowance on the rate measured


def test_the_headline_says_changes_no_more_often_than_alpha_when_expert_plays_alike():
    """A true null: on each deal the main game and the check game are two correlated draws of the same
    win chance (the deal shared, the play not). 'changes' (a difference shown, beyond or size unclear)
    must come at most alpha of the time."""
    rng = np.random.default_rng(43)
    changes = 0
    for _ in range(REPEATS):
        deal = rng.random(1000)  # how winnable the deal is
        x = (rng.random(1000) < deal).astype(float)
        y = (rng.random(1000) < deal).astype(float)
        d = paired_difference(x, y, 0.95, True)
        v = margin_verdict(d["diff"], d["ci"], 0.02, n=1000, no_information=d.get("no_information"))["verdict"]
        changes += v in ("beyond_margin", "differs_size_unclear")
    assert changes / REPEATS <= _tolerance(REPEATS)


def _patterns(rng, n: int, k: int = 4, p_win: float = 0.57) -> WinPatterns:
    won = rng.random(n) < p_win
    seat = rng.integers(0, k, n)
    p = np.zeros((n, k), np.int64)
    p[np.arange(n)[won], seat[won]] = 1
    wp = WinPatterns(k)
    wp.add(p)
    return wp


def test_the_seats_say_changes_no_more_often_than_alpha_when_the_seats_are_equal_for_both():
    """A true null for the seat verdict: equal seats in the main run (decided within the margin on many
    games) and in the check (1,000 deals). 'changes' must come at most alpha of the time."""
    rng = np.random.default_rng(7)
    main = seat_balance(_patterns(rng, 200_000), ALPHA, 0.02)
    assert main["verdict"]["verdict"] == "within_margin"
    changes = 0
    for _ in range(REPEATS):
        check = seat_balance(_patterns(rng, 1000), ALPHA, 0.02)
        changes += status(main["verdict"]["verdict"], check["verdict"]["verdict"]) == "changes"
    assert changes / REPEATS <= _tolerance(REPEATS)
