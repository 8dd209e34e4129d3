"""compare: what the pairing bought is measured, never assumed, and no verdict comes from games in which
B never differed from A (issue 40, items 6b and 8)."""
import numpy as np
import pytest

from balance.analysis.compare import compare_frames, pairing_of, pairing_sentence
from balance.analysis.stats import paired_binary, two_proportions_ci
from calibration import _side, synthetic_frames
from toygame import SPEC


def _frames(rng, n: int, paired_deals: bool, shift: float = 0.0):
    z = rng.normal(0, 2.5, n)  # a strong deal effect: the same deal, much the same result
    wa, la = _side(rng, z, 0.0)
    wb, lb = _side(rng, z if paired_deals else rng.normal(0, 2.5, n), shift)
    return (*synthetic_frames(wa, la, "A"), *synthetic_frames(wb, lb, "B"))


def test_the_pairing_sentence_is_the_measured_width_ratio():
    rng = np.random.default_rng(4)
    res = compare_frames(*_frames(rng, 4000, True), SPEC, True)
    p, head = res["pairing"], res["metrics"][0]
    # the ratio is the printed paired interval's width against the unpaired interval of the same games
    x = res["metrics"][0]
    unpaired = two_proportions_ci(x["a"] * x["n_a"], x["n_a"], x["b"] * x["n_b"], x["n_b"])
    assert p["width_ratio"] == pytest.approx((head["ci"][1] - head["ci"][0]) /
                                             (unpaired["ci"][1] - unpaired["ci"][0]), rel=1e-9)
    assert p["width_ratio"] < 0.9
    assert p["words"] == f"pairing game by game made this interval {1 / p['width_ratio']:.1f}x narrower than " \
                         f"independent games would"
    # the same seeds but unrelated deals (a card-list change): little or none of the luck removed, and said so
    res = compare_frames(*_frames(rng, 4000, False), SPEC, True)
    r = res["pairing"]["width_ratio"]
    assert r > 0.9 and "removed" in res["pairing"]["words"] and "narrower" not in res["pairing"]["words"]
    assert f"(interval {r:.2f}x the unpaired width)" in res["pairing"]["words"]


def test_pairing_sentences_say_what_was_measured():
    assert pairing_sentence({"width_ratio": 0.32}, "same deals") == \
        "pairing on the same deals made this interval 3.1x narrower than independent games would"
    assert pairing_sentence({"width_ratio": 0.97}, "same seeds") == \
        "pairing on the same seeds removed little of the luck here (interval 0.97x the unpaired width)"
    assert pairing_sentence({"width_ratio": 1.02}, "same seeds") == \
        "pairing on the same seeds removed none of the luck here (interval 1.02x the unpaired width)"
    assert pairing_sentence({"width_ratio": None}) is None


def test_no_verdict_when_b_played_exactly_as_a():
    """Both sides the same policy on the same deals: every paired difference is zero. Before, the win rate's
    interval was Newcombe's of (almost) zero width and the verdict 'balanced within the margin'."""
    rng = np.random.default_rng(8)
    ga, sa, _, _ = _frames(rng, 3000, True)
    gb, sb = ga.with_columns(variant=np.array(["B"] * ga.height)), sa.with_columns(variant=np.array(["B"] * sa.height))
    res = compare_frames(ga, sa, gb, sb, SPEC, True)
    head = res["metrics"][0]
    v = head["margin_verdict"]
    assert v["verdict"] == "no_information" and not head["significant"] and head["verdict"] == "no information"
    assert v["words"].startswith("not enough information to say: A and B had the same win rate result in every one "
                                 "of the 3,000 paired games")
    assert head["ci"][1] - head["ci"][0] > 0.001  # an exact bound, not an interval of zero width
    assert res["verdicts"]["items"][0]["verdict"] == "no_information"
    assert res["pairing"]["width_ratio"] is None and "cannot be judged" in res["pairing"]["words"]


def test_pairing_of_agrees_with_paired_binary():
    x = np.array([1, 1, 0, 0, 1, 0] * 500, float)
    y = np.array([1, 0, 0, 1, 1, 0] * 500, float)
    p = pairing_of(x, y, "same deals")
    pb = paired_binary(1000, 500, 500, 1000)
    un = two_proportions_ci(1500, 3000, 1500, 3000)
    assert p["width_ratio"] == pytest.approx((pb["ci"][1] - pb["ci"][0]) / (un["ci"][1] - un["ci"][0]))
