"""Intervals against published values, the added stats helpers, card impact."""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as st

from balance.analysis.cards import card_impact, card_totals, cards_to_dict, dead_cards, primary_counter, ranked
from balance.analysis.stats import EXACT_BELOW, bootstrap_ci, bootstrap_quantile_ci, chi2_equal_rates, normal_p, quantile_counts, two_proportions, wilson


# Newcombe (1998), Stat Med 17:857, table I, method 3 (Wilson score, no continuity correction)
@pytest.mark.parametrize("k,n,lo,hi", [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (29, 29, 0.8830, 1.0),
])
def test_wilson_known_values(k, n, lo, hi):
    got = wilson(k, n)
    assert got[0] == pytest.approx(lo, abs=5e-5) and got[1] == pytest.approx(hi, abs=5e-5)


def test_quantile_counts_matches_numpy():
    rng = np.random.default_rng(1)
    x = rng.integers(3, 30, 1001)
    uniq, counts = np.unique(x, return_counts=True)
    for q in (0.1, 0.5, 0.9):
        assert quantile_counts(uniq, counts, q) == np.quantile(x, q, method="inverted_cdf")


def test_bootstrap_quantile_ci_agrees_with_row_bootstrap():
    rng = np.random.default_rng(2)
    x = rng.poisson(12, 5000).astype(float)
    a = bootstrap_quantile_ci(x, 0.5, n_boot=400)
    b = bootstrap_ci(x, lambda v: np.quantile(v, 0.5, method="inverted_cdf"), n_boot=400)
    assert a[0] <= 12 <= a[1]
    assert abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def test_chi2_equal_rates_matches_scipy_and_handles_degenerate():
    got = chi2_equal_rates([30, 50, 45], [100, 100, 100])
    chi2, p, df, _ = st.chi2_contingency(np.array([[30, 70], [50, 50], [45, 55]]), correction=False)
    assert got["chi2"] == pytest.approx(chi2) and got["p"] == pytest.approx(p) and got["df"] == df
    assert chi2_equal_rates([0, 0], [10, 10])["p"] == 1.0


def test_p_values_are_scipy_stats_to_the_bit():
    """stats.py calls scipy.special itself to spare the scipy.stats import; the
    summary's numbers must not move by a bit."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        seats = int(rng.integers(2, 7))
        n = rng.integers(1, 2_000_000, seats).astype(float)
        wins = np.floor(n * rng.uniform(0.0, 1.0, seats))
        if (wins == 0).all() or (wins == n).all():
            continue
        chi2, p, df, _ = st.chi2_contingency(np.stack([wins, n - wins], axis=1), correction=False)
        assert chi2_equal_rates(list(wins), list(n)) == {"chi2": float(chi2), "df": int(df), "p": float(p)}
        z = float(rng.normal(0.0, 4.0)) / float(rng.choice([1.0, 1e-3, 3.7]))
        assert normal_p(z) == float(2 * st.norm.sf(abs(z)))
        k1, k2 = float(wins[0]), float(wins[1])
        pooled = (k1 + k2) / (n[0] + n[1])
        d = two_proportions(k1, n[0], k2, n[1])
        if min(n[0], n[1]) * min(pooled, 1 - pooled) < EXACT_BELOW:
            assert d["test"] == "exact"
            assert d["p"] == float(st.fisher_exact([[k1, n[0] - k1], [k2, n[1] - k2]])[1])
        else:
            assert d["test"] == "z" and d["p"] == _pooled_z_p(k1, n[0], k2, n[1])


def _pooled_z_p(k1, n1, k2, n2) -> float:
    """The pooled two-proportion z-test's two-sided p, from scipy.stats (the reference for analysis.stats)."""
    pooled = (k1 + k2) / (n1 + n2)
    se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return 1.0 if se == 0 else float(2 * st.norm.sf(abs(k2 / n2 - k1 / n1) / se))


def _exact_size(test, p: float, n1: int, n2: int, alpha: float = 0.05) -> float:
    """The probability that `test` rejects at alpha when both groups win at rate p: summed
    over every outcome (k1, k2) with its binomial probability, no sampling."""
    k1 = np.arange(n1 + 1)
    w1 = st.binom.pmf(k1, n1, p)
    keep = w1 > 1e-9
    total = 0.0
    for a, wa in zip(k1[keep], w1[keep]):
        for b in range(n2 + 1):
            if test(float(a), n1, float(b), n2) < alpha:
                total += wa * st.binom.pmf(b, n2, p)
    return total


def test_a_small_group_s_p_value_holds_its_level_under_a_true_null():
    """Null calibration of two_proportions where a group is small (a card played in a handful of
    seat-games): the exact probability of p < 5% when both rates are equal stays at or below 5%.
    The pooled z-test alone does not (it is the check that this test can fail)."""
    cases = [(0.02, 400, 8), (0.01, 400, 12), (0.1, 400, 5), (0.3, 400, 10), (0.5, 400, 8), (0.05, 400, 10)]
    z_sizes = [_exact_size(_pooled_z_p, *c) for c in cases]
    assert max(z_sizes) > 0.07, z_sizes
    for c in cases:
        size = _exact_size(lambda *a: two_proportions(*a)["p"], *c)
        assert size <= 0.05 + 1e-9, (c, size)


def _totals(rows):
    return pl.DataFrame(rows, schema={"card_id": pl.Int32, "card": pl.String, "counter": pl.String,
                                      "games_with": pl.Int64, "wins_with": pl.Int64, "total": pl.Int64,
                                      "seat_games": pl.Int64, "seat_wins": pl.Int64}, orient="row")


def test_card_lift_sign_significance_and_dead_cards():
    # 1000 seat-games, 500 won. "boost" played in 100 of them, 80 won: 80% vs 420/900 = 46.7%.
    totals = _totals([
        (0, "boost", "played", 100, 80, 150, 1000, 500),
        (1, "burden", "played", 100, 20, 100, 1000, 500),
        (2, "neutral", "played", 100, 50, 100, 1000, 500),
        (3, "rare", "played", 5, 3, 5, 1000, 500),
        (4, "never", "played", 0, 0, 0, 1000, 500),
    ])
    imp = card_impact(totals)
    row = {r["card"]: r for r in imp.iter_rows(named=True)}
    assert row["boost"]["rate_with"] == pytest.approx(0.8)
    assert row["boost"]["rate_without"] == pytest.approx(420 / 900)
    assert row["boost"]["lift"] == pytest.approx(0.8 - 420 / 900)
    assert row["boost"]["lift_lo"] > 0 and row["boost"]["significant"]
    assert row["burden"]["lift"] < 0 and row["burden"]["lift_hi"] < 0 and row["burden"]["significant"]
    assert row["neutral"]["lift"] == pytest.approx(0.0) and not row["neutral"]["significant"]
    assert row["never"]["lift"] is None and not row["never"]["significant"]
    top, bottom = ranked(imp, "played")
    assert top["card"].to_list() == ["boost"] and bottom["card"].to_list() == ["burden"]
    assert dead_cards(imp, "played")["card"].to_list() == ["never", "rare"]


def test_holm_is_applied_across_cards():
    # one borderline card alone is significant; among 20 null cards Holm keeps it only if strong enough
    borderline = (0, "edge", "played", 400, 222, 400, 4000, 2000)  # 55.5% vs 49.4%, p ~ 0.02
    alone = card_impact(_totals([borderline]))
    assert alone["p"][0] < 0.05 and alone["significant"][0]
    many = card_impact(_totals([borderline] + [(i, f"c{i}", "played", 400, 200, 400, 4000, 2000)
                                               for i in range(1, 20)]))
    assert not many.filter(pl.col("card") == "edge")["significant"][0]


def test_cards_to_dict_sums_chunks():
    chunk = {"variant": "base", "card_id": 0, "card": "x", "counter": "played", "games_with": 10,
             "wins_with": 8, "total": 12, "seat_games": 100, "seat_wins": 50}
    cards = pl.DataFrame([{**chunk, "chunk": 0}, {**chunk, "chunk": 1}])
    assert card_totals(cards)["games_with"].to_list() == [20]
    d = cards_to_dict(cards, ("drawn", "played"))
    assert d["primary_counter"] == "played" and d["n_cards"] == 1 and d["seat_games"] == 200
    assert d["table"][0]["win_rate_with"]["n"] == 20 and d["table"][0]["win_rate_without"]["n"] == 180
    assert primary_counter(("drawn", "held")) == "drawn" and primary_counter(()) is None
    empty = cards_to_dict(cards.clear(), ())
    assert empty["table"] == [] and empty["n_cards"] == 0


def test_cards_never_drawn_are_not_dead():
    base = {"variant": "base", "chunk": 0, "seat_games": 1000, "seat_wins": 500}
    rows = []
    for cid, name, drawn, played in ((0, "common", 900, 600), (1, "removed", 0, 0), (2, "stuck", 800, 3)):
        rows.append({**base, "card_id": cid, "card": name, "counter": "drawn", "games_with": drawn,
                     "wins_with": drawn // 2, "total": drawn})
        rows.append({**base, "card_id": cid, "card": name, "counter": "played", "games_with": played,
                     "wins_with": played // 2, "total": played})
    d = cards_to_dict(pl.DataFrame(rows), ("drawn", "played"))
    assert d["never_drawn"] == ["removed"] and d["n_in_play"] == 2
    assert [r["card"] for r in d["dead"]] == ["stuck"]


# ------------------------------------------------ lift among the seat-games where the card reached the hand
REACHED_SCHEMA = {"card_id": pl.Int32, "card": pl.String, "counter": pl.String, "games_with": pl.Int64,
                  "wins_with": pl.Int64, "total": pl.Int64, "seat_games": pl.Int64, "seat_wins": pl.Int64,
                  "reached_games": pl.Int64, "reached_wins": pl.Int64, "reached_with": pl.Int64,
                  "reached_wins_with": pl.Int64}


def test_lift_compares_played_with_not_played_among_the_seat_games_that_drew_the_card():
    # 1000 seat-games, 500 won. The card reached 400 hands (260 won): played in 300 of them (195 won),
    # drawn and not played in 100 (65 won): 65% both ways, so no lift, whereas played vs every other
    # seat-game is 65% vs 305/700 = 43.6%: the old comparison's +21 points are "winners hold more cards".
    totals = pl.DataFrame([(0, "holder", "played", 300, 195, 300, 1000, 500, 400, 260, 300, 195)],
                          schema=REACHED_SCHEMA, orient="row")
    r = card_impact(totals).row(0, named=True)
    assert r["comparison"] == "reached"
    assert r["rate_with"] == pytest.approx(195 / 300) and r["rate_without"] == pytest.approx(65 / 100)
    assert r["lift"] == pytest.approx(0.0) and not r["significant"]
    assert (r["lift_n_with"], r["games_without"], r["wins_without"]) == (300, 100, 65)
    assert r["share_reached"] == pytest.approx(0.75) and r["share_reached_lo"] < 0.75 < r["share_reached_hi"]
    d = two_proportions(65, 100, 195, 300)
    assert (r["lift_lo"], r["lift_hi"], r["p"]) == (pytest.approx(d["ci"][0]), pytest.approx(d["ci"][1]),
                                                    pytest.approx(d["p"]))
    old = card_impact(totals.drop("reached_games", "reached_wins", "reached_with", "reached_wins_with")).row(0, named=True)
    assert old["comparison"] == "all" and old["share_reached"] is None
    assert old["lift"] == pytest.approx(195 / 300 - 305 / 700) and old["significant"]


def test_an_old_folder_without_reached_columns_gets_the_old_lift_and_says_so():
    base = {"variant": "base", "card_id": 0, "card": "x", "counter": "played", "games_with": 10,
            "wins_with": 8, "total": 12, "seat_games": 100, "seat_wins": 50}
    new = {**base, "reached_games": 40, "reached_wins": 25, "reached_with": 10, "reached_wins_with": 8}
    old_only = cards_to_dict(pl.DataFrame([{**base, "chunk": 0}, {**base, "chunk": 1}]), ("played",))
    assert old_only["comparison"] == "all" and "never held it" in old_only["lift_meaning"]
    assert old_only["table"][0]["win_rate_without"]["n"] == 180 and old_only["table"][0]["reached_games"] is None
    both = cards_to_dict(pl.DataFrame([{**new, "chunk": 0}, {**new, "chunk": 1}]), ("played",))
    assert both["comparison"] == "reached" and "reached the seat's hand" in both["lift_meaning"]
    row = both["table"][0]
    assert row["reached_games"] == 80 and row["win_rate_with"]["n"] == 20 and row["win_rate_without"]["n"] == 60
    assert row["share_reached"]["value"] == pytest.approx(0.25) and row["share_reached"]["n"] == 80
    # a chunk without the columns (an old part beside a new one) makes the reached totals unknown,
    # never a partial sum: the card falls back to the old comparison
    mixed = pl.concat([pl.DataFrame([{**base, "chunk": 0}]), pl.DataFrame([{**new, "chunk": 1}])],
                      how="diagonal_relaxed")
    assert card_totals(mixed)["reached_games"].to_list() == [None]
    assert cards_to_dict(mixed, ("played",))["comparison"] == "all"


def _null_family(rng, m: int, n: int):
    """One run's card totals under a true null for the drawn-only lift: winners reach more cards
    (a card reaches 70% of winners' hands, 50% of losers'), a drawn card is played with probability
    0.6 whether the seat wins or not. The older comparison sees the first effect as a lift."""
    won = rng.binomial(n, 0.5, m)
    r_w, r_l = rng.binomial(won, 0.7), rng.binomial(n - won, 0.5)
    p_w, p_l = rng.binomial(r_w, 0.6), rng.binomial(r_l, 0.6)
    rows = [(i, f"c{i}", "played", int(p_w[i] + p_l[i]), int(p_w[i]), int(p_w[i] + p_l[i]), n, int(won[i]),
             int(r_w[i] + r_l[i]), int(r_w[i]), int(p_w[i] + p_l[i]), int(p_w[i])) for i in range(m)]
    return pl.DataFrame(rows, schema=REACHED_SCHEMA, orient="row")


def test_the_lift_verdict_holds_its_level_under_a_true_null():
    """Null calibration: 600 runs of 20 cards (4,000 seat-games each) where playing a drawn card says
    nothing about winning. The Holm verdict (any card significant) must reject in at most alpha of
    the runs (the rate's 95% Wilson interval reaches down to alpha or below), and each card's
    unadjusted test near its nominal 5%; the older comparison, on the same runs, rejects nearly always."""
    rng = np.random.default_rng(20)
    runs, m, n, alpha = 600, 20, 4000, 0.05
    family = single = old_family = 0
    for _ in range(runs):
        totals = _null_family(rng, m, n)
        new = card_impact(totals, alpha)
        old = card_impact(totals.drop("reached_games", "reached_wins", "reached_with", "reached_wins_with"), alpha)
        family += bool(new["significant"].any())
        single += int((new["p"] < alpha).sum())
        old_family += bool(old["significant"].any())
    lo, hi = wilson(family, runs)
    assert lo <= alpha, f"family-wise false positives {family}/{runs}: [{lo:.3f}, {hi:.3f}] is above {alpha}"
    s_lo, s_hi = wilson(single, runs * m)
    assert s_lo <= alpha <= s_hi, f"per-card false positives {single}/{runs * m}: [{s_lo:.4f}, {s_hi:.4f}]"
    o_lo, _ = wilson(old_family, runs)
    assert o_lo > 0.5, f"the old comparison rejected in only {old_family}/{runs} null runs"
