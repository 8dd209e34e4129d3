"""The ladder fit, with the engine replaced by a known win-rate table."""

from analysis import tune
from analysis.stats import rate
from simcore import registry


def fake_measure(table):
    def measure(spec, engine, params, players, seed, n):
        w = table[(params["level"], params["ready_pizzas"])]
        k = round(w * n)
        return {"params": params, "n": n, "win_rate": rate(k, n), "seat_win_rates": [rate(k, n)],
                "seat_gap": {"value": 0.0, "ci": [0, 0], "n": n},
                "length_mean": {"value": 10.0, "ci": [10, 10], "n": n},
                "length_median": {"value": 10.0, "ci": [10, 10], "n": n}}
    return measure


def test_ladder_picks_the_point_nearest_each_target_and_stays_monotone(monkeypatch):
    spec = registry.get("sickdays-solo")
    # win rate rises with pizzas and falls with level
    table = {(lv, p): min(1.0, 0.95 - 0.2 * (lv - 1) + 0.05 * p) for lv in (1, 2, 3) for p in range(7)}
    monkeypatch.setattr(tune, "measure", fake_measure(table))
    monkeypatch.setattr(tune, "Engine", lambda spec, pols: None)
    points = [{"ready_pizzas": p} for p in range(7)]
    targets = [tune.parse_target("ladder=0.99,0.9,0.7")]
    result = tune.tune(spec, {}, points, targets, 1, [], 1, 1000, 10_000, keep=2, n_skill=100)
    chosen = [lv["recommended"]["ready_pizzas"] for lv in result["ladder"]]
    # level 1: 0.95 + 0.05p nearest 0.99 -> p=1 (1.0) ; level 2: 0.75+0.05p -> p=3 (0.90); level 3: 0.55+0.05p -> p=3 (0.70)
    assert chosen == [1, 3, 3]
    fitted = [lv["measured"]["win_rate"]["value"] for lv in result["ladder"]]
    assert fitted == sorted(fitted, reverse=True)
