"""Bradley-Terry ratings of the ladder's tournament (analysis.tournament): the fit is the maximum of the
likelihood (checked against Hunter's MM iterations, a slow reference), known strengths are recovered
inside their intervals, and between two identical policies the verdict "A beats B" comes at most as often
as alpha allows (null calibration)."""
import numpy as np
import pytest

from balance.analysis import tournament
from balance.analysis.stats import wilson


def _pairing(rng, a, b, ta, tb, deals, contact=0.7, table="t"):
    """Per deal one comparison with probability `contact` (else both lost or shared), won by a with the
    Bradley-Terry probability."""
    met = rng.random(deals.size) < contact
    a_won = met & (rng.random(deals.size) < 1 / (1 + np.exp(tb - ta)))
    b_won = met & ~a_won
    return tournament.Pairing(a, b, deals, a_won.astype(float), b_won.astype(float), table)


def _mm(wins, anchor, prior, iters=20000):
    """Hunter's MM iterations (the slow, obvious reference)."""
    k = wins.shape[0]
    w = tournament.with_prior(wins, anchor, prior)
    n = w + w.T
    won = w.sum(axis=1)
    pi = np.ones(k)
    for _ in range(iters):
        pi = won / (n / (pi[:, None] + pi[None, :])).sum(axis=1)
        pi /= pi[anchor]
    return np.log(pi)


def test_newton_fit_is_the_maximum_likelihood_of_the_mm_reference():
    rng = np.random.default_rng(3)
    wins = rng.integers(0, 40, (4, 4)).astype(float)
    np.fill_diagonal(wins, 0)
    got = tournament.fit(["a", "b", "c", "d"], wins, anchor=1)
    assert got[1] == 0.0
    np.testing.assert_allclose(got, _mm(wins, 1, tournament.PRIOR), atol=1e-6)


def test_known_strengths_are_recovered_inside_their_intervals():
    rng = np.random.default_rng(11)
    names = ["greedy", "expert", "random", "lookahead"]
    truth = {"greedy": 0.0, "expert": 1.0, "random": -1.5, "lookahead": 0.5}
    deals = np.arange(1500)
    prs = [_pairing(rng, a, b, truth[a], truth[b], deals) for a, b in
           [("expert", "greedy"), ("random", "greedy"), ("lookahead", "greedy"), ("expert", "lookahead")]]
    r = tournament.ratings(names, prs, "greedy", reps=200, seed=1)
    by = {p["label"]: p for p in r["players"]}
    for name, th in truth.items():
        lo, hi = by[name]["ci"]
        assert lo - 0.05 <= th <= hi + 0.05, (name, by[name])
    words = {(p["a"], p["b"]): p["verdict"]["words"] for p in r["pairs"]}
    assert words[("greedy", "expert")] == "expert beats greedy"
    assert words[("expert", "lookahead")] == "expert beats lookahead"
    # random never met expert: the tournament still rates the pair through greedy
    assert words[("expert", "random")] == "expert beats random"
    assert r["n_deals"] == 1500 and by["greedy"]["anchor"]
    # transitive strengths: every table is where the ratings say it is
    assert all(p["fits"] for p in r["pairings"]), r["pairings"]


def test_a_table_the_ratings_cannot_fit_is_flagged():
    """Expert strong against greedy, level with lookahead, lookahead level with greedy: no one number per rung
    gives all three tables (a best response to greedy); the check says which tables the ratings miss."""
    rng = np.random.default_rng(8)
    deals = np.arange(1500)
    prs = [_pairing(rng, "expert", "greedy", 1.4, 0.0, deals), _pairing(rng, "lookahead", "greedy", 0.0, 0.0, deals),
           _pairing(rng, "expert", "lookahead", 0.0, 0.0, deals)]
    r = tournament.ratings(["greedy", "expert", "lookahead"], prs, "greedy", reps=200, seed=2)
    assert not all(p["fits"] for p in r["pairings"])
    for p in r["pairings"]:
        lo, hi = p["observed_ci"]
        assert lo <= p["observed"] <= hi and 0 < p["predicted"] < 1


def test_a_rung_that_never_wins_keeps_a_finite_rating():
    deals = np.arange(50)
    prs = [tournament.Pairing("random", "greedy", deals, np.zeros(50), np.ones(50), "t")]
    r = tournament.ratings(["greedy", "random"], prs, "greedy", reps=50)
    rnd = next(p for p in r["players"] if p["label"] == "random")
    assert np.isfinite(rnd["rating"]) and rnd["rating"] < -3 and rnd["ci"][1] < 0


def test_a_subset_of_deals_is_rated_on_those_deals_only():
    rng = np.random.default_rng(5)
    deals = np.arange(200)
    prs = [_pairing(rng, "a", "b", 0.5, 0.0, deals)]
    r = tournament.ratings(["a", "b"], prs, "b", reps=20, deals=deals[deals % 2 == 1])
    assert r["n_deals"] == 100 and r["pairings"][0]["deals"] == 100


def test_two_identical_policies_are_declared_different_at_most_alpha_of_the_time():
    """Null calibration: A and A2 are the same player (the same strength against greedy and against each
    other, on shared deals, with a head-to-head table). 'A beats A2' or 'A2 beats A' must come in at most
    alpha of the tournaments, within the binomial tolerance of the repeats (3 standard errors)."""
    rng = np.random.default_rng(20261206)
    reps, hits = 300, 0
    deals = np.arange(150)
    for r in range(reps):
        prs = [_pairing(rng, "A", "greedy", 0.4, 0.0, deals), _pairing(rng, "A2", "greedy", 0.4, 0.0, deals),
               _pairing(rng, "A", "A2", 0.0, 0.0, deals)]
        out = tournament.ratings(["greedy", "A", "A2"], prs, "greedy", reps=120, seed=r)
        pair = next(p for p in out["pairs"] if {p["a"], p["b"]} == {"A", "A2"})
        hits += pair["verdict"]["stronger"] is not None
    rate = hits / reps
    tol = 3 * np.sqrt(tournament.ALPHA * (1 - tournament.ALPHA) / reps)
    assert rate <= tournament.ALPHA + tol, (hits, reps)
    lo, _ = wilson(hits, reps, z=3.0)
    assert lo <= tournament.ALPHA  # and not a test that can never say 'beats' (it is near alpha, not 0)
    assert hits > 0


@pytest.mark.parametrize("lo,hi,words", [(0.1, 0.5, "a beats b"), (-0.5, -0.1, "b beats a"),
                                         (-0.1, 0.2, "a and b cannot be told apart")])
def test_verdict_reads_the_interval(lo, hi, words):
    assert tournament.verdict("a", "b", lo, hi)["words"] == words


def test_the_fit_check_flags_a_table_at_most_alpha_of_the_time_when_strength_is_one_number():
    """Null calibration of `fits`: strengths that are one number per rung (the model holds), three tables;
    the share of tables flagged must stay within alpha and its binomial tolerance. (It is conservative: 0 of
    450 tables at seed 42, as each table's data also pulls the fit towards it; the intransitive set above
    is still flagged.)"""
    rng = np.random.default_rng(42)
    reps, flagged, tables = 150, 0, 0
    deals = np.arange(200)
    for r in range(reps):
        prs = [_pairing(rng, "expert", "greedy", 0.8, 0.0, deals), _pairing(rng, "lookahead", "greedy", 0.4, 0.0, deals),
               _pairing(rng, "expert", "lookahead", 0.8, 0.4, deals)]
        out = tournament.ratings(["greedy", "expert", "lookahead"], prs, "greedy", reps=100, seed=r)
        flagged += sum(not p["fits"] for p in out["pairings"])
        tables += len(out["pairings"])
    rate = flagged / tables
    assert rate <= tournament.ALPHA + 3 * np.sqrt(tournament.ALPHA * (1 - tournament.ALPHA) / tables), (flagged, tables)
