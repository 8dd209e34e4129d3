"""The ladder as a tournament: Bradley-Terry ratings from every pairing played on the same deals (issue 42,
item 4).

Input: pairwise results per deal. In a game, every two seats of different rungs (policies) A and B are
one comparison: A beats B when A's seat won and B's did not, B beats A the other way round, and there is
no comparison when both won (a shared win) or both lost. A table (a group of variants of one seating,
the rung seats moved round the table) gives per deal the share of its A-B seat pairs that A won and the
share B won, so that every table counts once per deal whatever its number of seats and rotations.

Model: P(A beats B) = exp(a) / (exp(a) + exp(b)) (Bradley and Terry 1952), fitted by maximum likelihood
(Newton's method; tests check it against Hunter's (2004) MM iterations), one rung held at 0 (the anchor, greedy where it is on the ladder). A
weak prior of `PRIOR` pseudo-comparisons, won half each way, against the anchor keeps a rung that never
won (random) finite; with hundreds of deals it moves no rating by more than a few hundredths.

Intervals: bootstrap over deals (the deals are resampled together in every pairing, so what one deal
does to several pairings stays together), percentile intervals of each rating and of each difference.
A verdict "A beats B" needs the whole interval of a - b above 0 (at 1 - alpha); otherwise "cannot be
told apart". One number per rung assumes strength is transitive; each table's observed share is checked
against the share the ratings predict (`pairings[].fits`), and a table they miss is reported (an expert
that is a best response to greedy beats greedy seats by more than it beats lookahead). tests/analysis/test_tournament.py checks the rate of such verdicts between two identical
policies (alpha or less, within its binomial tolerance).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PRIOR = 0.5  # pseudo-comparisons against the anchor, half won each way
BOOTSTRAP = 400
ALPHA = 0.05
MAX_ITER = 100
TOL = 1e-9


@dataclass(frozen=True)
class Pairing:
    """One table's comparisons of rung `a` with rung `b`, per deal (arrays over the same deal indices)."""

    a: str
    b: str
    deals: np.ndarray  # int64 game indices
    a_wins: np.ndarray  # per deal, the share of A-B seat pairs A won (0..1)
    b_wins: np.ndarray  # per deal, the share B won
    table: str = ""  # what table it comes from, in words ("one expert seat among greedy seats")


def _totals(players: list[str], pairings: list[Pairing], weights: list[np.ndarray] | None):
    k = len(players)
    at = {p: i for i, p in enumerate(players)}
    wins = np.zeros((k, k))  # wins[i, j]: comparisons i won against j
    for t, pr in enumerate(pairings):
        w = weights[t] if weights is not None else None
        i, j = at[pr.a], at[pr.b]
        wins[i, j] += float(np.dot(pr.a_wins, w)) if w is not None else float(pr.a_wins.sum())
        wins[j, i] += float(np.dot(pr.b_wins, w)) if w is not None else float(pr.b_wins.sum())
    return wins


def with_prior(wins: np.ndarray, anchor: int, prior: float) -> np.ndarray:
    """The wins with `prior` pseudo-comparisons between the anchor and every other rung, won half each way."""
    w = wins.astype(float).copy()
    if prior > 0:
        for i in range(w.shape[0]):
            if i != anchor:
                w[i, anchor] += prior / 2
                w[anchor, i] += prior / 2
    return w


def fit(players: list[str], wins: np.ndarray, anchor: int = 0, prior: float = PRIOR) -> np.ndarray:
    """Bradley-Terry log-strengths from a matrix of wins (wins[i, j]: i beat j), anchor at 0: the
    maximum of the log-likelihood sum_ij wins[i, j] log p_ij, by Newton's method (the likelihood is
    concave in the strengths; the prior keeps it strictly so)."""
    k = len(players)
    w = with_prior(wins, anchor, prior)
    n = w + w.T
    won = w.sum(axis=1)
    free = np.array([i for i in range(k) if i != anchor], dtype=np.int64)
    theta = np.zeros(k)
    for _ in range(MAX_ITER):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i beats j
        grad = won - (n * p).sum(axis=1)
        h = n * p * p.T
        hess = h - np.diag(h.sum(axis=1))
        g, hh = grad[free], hess[np.ix_(free, free)]
        try:
            delta = np.linalg.solve(hh, -g)
        except np.linalg.LinAlgError:
            delta = np.linalg.lstsq(hh, -g, rcond=None)[0]
        big = np.max(np.abs(delta)) if delta.size else 0.0
        if big > 5.0:
            delta *= 5.0 / big  # a damped step from far away (a rung that won almost nothing)
        theta[free] += delta
        if big < TOL:
            break
    return theta


def connected(players: list[str], pairings: list[Pairing]) -> bool:
    """Is every rung linked to every other through pairings with at least one comparison?"""
    if not players:
        return False
    at = {p: i for i, p in enumerate(players)}
    adj = {i: set() for i in range(len(players))}
    for pr in pairings:
        if pr.a_wins.sum() + pr.b_wins.sum() > 0:
            adj[at[pr.a]].add(at[pr.b])
            adj[at[pr.b]].add(at[pr.a])
    seen, todo = {0}, [0]
    while todo:
        for j in adj[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(players)


def ratings(players: list[str], pairings: list[Pairing], anchor: str | None = None, reps: int = BOOTSTRAP,
            alpha: float = ALPHA, seed: int = 0, deals: np.ndarray | None = None) -> dict:
    """Ratings with bootstrap intervals, and every pairwise difference with its verdict.

    `deals`: only these game indices (None: every deal of any pairing). The result is plain data
    (summary.json): players in the order given, ratings relative to the anchor."""
    prs = []
    for pr in pairings:
        keep = np.isin(pr.deals, deals) if deals is not None else np.ones(pr.deals.size, bool)
        prs.append(Pairing(pr.a, pr.b, pr.deals[keep], pr.a_wins[keep], pr.b_wins[keep], pr.table))
    players = [p for p in players if any(p in (pr.a, pr.b) and pr.deals.size for pr in prs)]
    if len(players) < 2:
        return {"players": [], "pairs": [], "n_deals": 0}
    anchor = anchor if anchor in players else players[0]
    ai = players.index(anchor)
    prs = [pr for pr in prs if pr.deals.size and pr.a in players and pr.b in players]
    universe = np.unique(np.concatenate([pr.deals for pr in prs]))
    theta = fit(players, _totals(players, prs, None), ai)
    # bootstrap over deals: a deal drawn c times weighs c in every pairing that played it
    rng = np.random.default_rng(seed)
    pos = [np.searchsorted(universe, pr.deals) for pr in prs]
    boot = np.empty((reps, len(players)))
    share = np.full((reps, len(prs)), np.nan)  # each pairing's observed share of A's wins, per resample
    for r in range(reps):
        counts = np.bincount(rng.integers(0, universe.size, universe.size), minlength=universe.size).astype(float)
        w = [counts[p] for p in pos]
        boot[r] = fit(players, _totals(players, prs, w), ai)
        for k, pr in enumerate(prs):
            aw, bw = float(np.dot(pr.a_wins, w[k])), float(np.dot(pr.b_wins, w[k]))
            if aw + bw > 0:
                share[r, k] = aw / (aw + bw)
    lo_q, hi_q = 100 * alpha / 2, 100 * (1 - alpha / 2)
    out_players = []
    for i, p in enumerate(players):
        lo, hi = np.percentile(boot[:, i], [lo_q, hi_q]) if i != ai else (0.0, 0.0)
        out_players.append({"label": p, "rating": float(theta[i]), "ci": [float(lo), float(hi)],
                            "p_beats_anchor": float(1 / (1 + np.exp(-theta[i]))),
                            "deals": int(np.unique(np.concatenate([pr.deals for pr in prs if p in (pr.a, pr.b)])).size),
                            "anchor": i == ai})
    pairs = []
    for i in range(len(players)):
        for j in range(i + 1, len(players)):
            d = boot[:, i] - boot[:, j]
            lo, hi = np.percentile(d, [lo_q, hi_q])
            diff = float(theta[i] - theta[j])
            direct = [pr for pr in prs if {pr.a, pr.b} == {players[i], players[j]}]
            pairs.append({"a": players[i], "b": players[j], "diff": diff, "ci": [float(lo), float(hi)],
                          "verdict": verdict(players[i], players[j], float(lo), float(hi)),
                          "head_to_head": [pr.table for pr in direct]})
    return {"players": out_players, "pairs": pairs, "anchor": anchor, "n_deals": int(universe.size),
            "bootstrap": reps, "alpha": alpha, "prior": PRIOR,
            "method": f"Bradley-Terry, maximum likelihood (Newton), {anchor} at 0; {100 * (1 - alpha):g}% "
                      f"percentile intervals from {reps} bootstrap resamples of the deals",
            "pairings": [_fit_check(pr, share[:, k], theta[players.index(pr.a)] - theta[players.index(pr.b)], lo_q, hi_q)
                         for k, pr in enumerate(prs)]}


def _fit_check(pr: Pairing, share: np.ndarray, diff: float, lo_q: float, hi_q: float) -> dict:
    """One table's comparisons of A and B: A's observed share of them with its bootstrap interval, the
    share the ratings predict, and whether the prediction lies in that interval (`fits`). A table the
    ratings miss says strength is not one number there (a rung strong against one opponent only)."""
    aw, bw = float(pr.a_wins.sum()), float(pr.b_wins.sum())
    ok = share[~np.isnan(share)]
    ci = [float(x) for x in np.percentile(ok, [lo_q, hi_q])] if ok.size else [None, None]
    if ci[0] is not None and ci[1] - ci[0] < 1e-12 and aw + bw > 0:
        # the bootstrap has no spread when one side won every comparison: widen to Wilson's interval of
        # the comparisons (the prior keeps a prediction off 0 and 1 by a hair)
        z = 1.959963984540054
        n, k = aw + bw, aw
        centre, half = (k + z * z / 2) / (n + z * z), z * np.sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
        ci = [min(ci[0], float(centre - half)), max(ci[1], float(centre + half))]
    pred = p_beats(diff)
    return {"a": pr.a, "b": pr.b, "table": pr.table, "deals": int(pr.deals.size), "a_wins": aw, "b_wins": bw,
            "observed": aw / (aw + bw) if aw + bw > 0 else None, "observed_ci": ci, "predicted": pred,
            "fits": bool(ci[0] is None or ci[0] <= pred <= ci[1])}


def verdict(a: str, b: str, lo: float, hi: float) -> dict:
    """From the interval of a - b: which rung is stronger, or that they cannot be told apart."""
    if lo > 0:
        return {"stronger": a, "weaker": b, "words": f"{a} beats {b}"}
    if hi < 0:
        return {"stronger": b, "weaker": a, "words": f"{b} beats {a}"}
    return {"stronger": None, "weaker": None, "words": f"{a} and {b} cannot be told apart"}


def p_beats(diff: float) -> float:
    """P(A beats B) in one comparison, for a rating difference a - b."""
    return float(1 / (1 + np.exp(-diff)))
