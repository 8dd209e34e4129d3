"""Tuning with the engine replaced by a known win-rate table (tests/analysis/faketune.py):
the pick is chosen on some games and reported on others, the ladder is monotone by
construction, and every level's steps and skill rows carry their intervals."""
import numpy as np
import pytest

from balance.analysis import tune
from balance.simcore import registry

from faketune import install


def ladder_table(params):
    # win rate rises with pizzas and falls with level
    return min(1.0, 0.95 - 0.2 * (params["level"] - 1) + 0.05 * params["ready_pizzas"])


@pytest.fixture
def sickdays():
    return registry.get("sickdays-solo")


def test_ladder_picks_the_point_nearest_each_target_and_stays_monotone(monkeypatch, sickdays):
    played = install(monkeypatch, ladder_table)
    points = [{"ready_pizzas": p} for p in range(7)]
    targets = [tune.parse_target("ladder=0.99,0.9,0.7")]
    greedy = [tune.resolve_policy(sickdays, "greedy", {})]
    r = tune.tune(sickdays, {}, points, targets, 1, greedy, 1, 1000, 10_000, keep=2, n_skill=2000, n_fresh=8000)
    chosen = [lv["recommended"]["ready_pizzas"] for lv in r["ladder"]]
    # level 1: 0.95 + 0.05p nearest 0.99 -> p=1 (1.0); level 2: 0.75+0.05p -> p=3 (0.90); level 3: 0.55+0.05p -> p=3 (0.70)
    assert chosen == [1, 3, 3]
    fitted = [lv["measured"]["win_rate"]["value"] for lv in r["ladder"]]
    assert fitted == sorted(fitted, reverse=True) and all(lv["monotone_kept"] for lv in r["ladder"])
    # reported on fresh games only: indices 10,000..17,999, never played while choosing
    assert r["games"]["fresh"] == [10_000, 17_999]
    for lv in r["ladder"]:
        assert lv["measured"]["n"] == 8000 and lv["measured"]["indices"] == [10_000, 17_999]
        assert lv["selection"]["n"] == 10_000
    chose = {(json_key(p), f) for p, f, c, s in played if f < 10_000}
    fresh = [(f, c) for p, f, c, s in played if f >= 10_000]
    assert all(f == 10_000 and c <= 8000 for f, c in fresh) and chose
    # the steps between levels are checked on the fresh games, paired: both fall by ~10-20 points
    assert [lv["step"]["status"] for lv in r["ladder"][1:]] == ["confirmed", "confirmed"]
    # each level's fresh rate against its target with the margin: the true rates are 1.0, 0.9, 0.7
    assert [lv["check"]["target_inside_ci"] for lv in r["ladder"]] == [False, True, True]
    assert [lv["check"]["verdict"] for lv in r["ladder"]] == ["within_margin"] * 3
    # skill rows are paired differences with intervals that carry their sign (weaker: -10 points)
    weaker = [lv["skill"]["weaker (25% random moves)"]["vs_assumed"] for lv in r["ladder"]]
    assert [w["sign"] for w in weaker[1:]] == ["lower", "lower"]
    assert r["verdicts"]["items"][0]["id"] == "level"


def json_key(p):
    import json
    return json.dumps(p, sort_keys=True)


def test_ladder_kept_monotone_by_construction_where_greedy_level_by_level_is_not(monkeypatch, sickdays):
    # level 2's nearest point (0.80) is above level 1's best (0.78): fitting level by level breaks the order
    table = {(1, 0): 0.78, (1, 1): 0.70, (2, 0): 0.80, (2, 1): 0.60}
    install(monkeypatch, lambda p: table[(p["level"], p["ready_pizzas"])])
    r = tune.tune(sickdays, {}, [{"ready_pizzas": 0}, {"ready_pizzas": 1}], [tune.parse_target("ladder=0.8,0.79")],
                  1, [], 1, 2000, 4000, keep=2, n_fresh=4000, skill=False)
    fitted = [lv["measured"]["win_rate"]["value"] for lv in r["ladder"]]
    assert fitted[1] <= fitted[0] and all(lv["monotone_kept"] for lv in r["ladder"])
    assert [lv["recommended"]["ready_pizzas"] for lv in r["ladder"]] in ([0, 1], [1, 1])


def test_plain_target_reports_fresh_games_and_how_sure(monkeypatch, sickdays):
    # three points inside the band are indistinguishable by the target; one outside is not
    install(monkeypatch, lambda p: {0: 0.30, 1: 0.48, 2: 0.50, 3: 0.52}[p["ready_pizzas"]])
    points = [{"ready_pizzas": p} for p in range(4)]
    r = tune.tune(sickdays, {"level": 1}, points, [tune.parse_target("win_rate=0.4..0.6")], 1, [], 3, 500, 4000,
                  keep=3, n_fresh=3000, skill=False)
    assert r["recommended"]["measured"]["n"] == 3000 and r["recommended"]["measured"]["indices"] == [4000, 6999]
    assert r["recommended"]["point"]["ready_pizzas"] in (1, 2, 3)
    c = r["certainty"]
    assert len(c["p_best"]) == 3 and all(d["indistinguishable"] for d in c["vs_pick"])
    assert sum(c["p_best"]) == pytest.approx(1.0)
    assert r["recommended"]["targets"][0]["verdict"] == "met"


def test_skill_rows_have_enough_games_for_a_sign(monkeypatch, sickdays):
    install(monkeypatch, lambda p: 0.5)
    r = tune.tune(sickdays, {"level": 1}, [{"ready_pizzas": 2}], [tune.parse_target("win_rate=0.4..0.6")], 1,
                  [tune.resolve_policy(sickdays, "greedy", {})], 3, 500, 2000, keep=1, n_fresh=2000)
    strong = r["skill"]["stronger (lookahead, 4 rollouts)"]
    weak = r["skill"]["weaker (25% random moves)"]
    # lookahead: the paired difference is +5 points; planned from the pilot's spread for a ~5-point half-width
    assert strong["vs_assumed"]["n"] >= 100 and strong["planned_from_pilot"]
    half = (strong["vs_assumed"]["ci"][1] - strong["vs_assumed"]["ci"][0]) / 2
    assert half < 0.06
    assert weak["vs_assumed"]["n"] == 2000 and weak["vs_assumed"]["sign"] == "lower"
    assert np.isclose(weak["vs_assumed"]["diff"], -0.1, atol=0.03)


def test_a_level_whose_games_all_end_alike_gets_words_not_a_crash():
    """Every fresh game won (a zero-width interval): margin_verdict says no_information; level_check words it
    (it used to raise KeyError)."""
    from balance.analysis.tune import level_check

    out = level_check(0.9, {"win_rate": {"value": 1.0, "ci": [1.0, 1.0], "n": 0}}, 0.02)
    assert out["verdict"] == "no_information" and out["words"].startswith("no information")
