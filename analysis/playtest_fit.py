"""Which skill rung, and which reaction profile, best explains a playtest log (issue 44, item 2).

Skill rung. The grid is the ladder's (analysis.ladder) made finer: `greedy` with a share epsilon of
its moves random, epsilon 1.0 (every move random), 0.9, ..., 0.1, 0 (plain greedy), then `expert`
where the game offers it, weakest first. Every seat of the table plays the rung (a group of
players of one strength). For each group of the log (one setting) and each rung, the setting is
simulated once (common seeds across rungs: the same deals), and a game of the log has the
probability of its outcome under the rung: the share of simulated games with the same winners (as
a set of seats), the same end reason (when the row gives one) and a length in the same bin (when
the row gives `turns`; bins are the quartiles of all rungs' simulated lengths), with half a game
added (Jeffreys-like: (c + 1/2) / (N + 1)) so no outcome is impossible. The log-likelihood of a
rung is the sum over rows; the best rung maximises it, and the interval holds every rung whose
likelihood-ratio statistic 2 (max - ll) is at most the chi-square(1) quantile (3.84 at 95%) plus
an allowance for the simulation's own sampling noise (the tables are estimates: with N simulated
games and n logged ones their noise in a log-likelihood grows like n / sqrt(N), and without the
allowance an interval from 200 games missed the truth in 4 of 30 logs at N = 2,000; loglik's
docstring says how it is measured): a profile interval over an ordered grid, reported as its
weakest and strongest rung (`contiguous` says whether every rung between them is in the set).
The expert rung plays EXPERT_SHARE of the games (every seat expert costs 1000x a greedy game).

Reaction profile (the party game, rows with `minutes`). The party game's seats react after a
lognormal delay of median `reaction_median` (seconds) and spread `reaction_spread`; the other
figures of the profile (wrong plays, forgotten celebrations, wrong accusations) are held at the
group's values (defaults, or --set / the row's settings). For a grid of medians (every seat the
same), the setting is simulated with greedy seats; (log minutes, log cards played) is modelled as
bivariate normal with the simulated means, standard deviations and correlation at each grid point,
interpolated linearly between points (0.01 s steps); a row without `turns` uses log minutes alone.
The best median maximises the likelihood of the rows; the interval is the likelihood-ratio set as
above, its statistic scaled by the robust (Godambe) factor H / J when below 1, since the normal
model is only approximately the simulated games' law.

Minutes alone say little near the default 2.5 s (quick players collide, draw 2 and play longer
games: the mean of log minutes is flat from 2.25 to 3.5 s), so a log that gives `turns` (cards
played) beside `minutes` pins the median much better: time per card played grows steadily with it.
analysis.playtests fits the profile first and plays the skill rungs at the fitted median, so that
quick or slow players are not read as skill.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from balance.simcore.batch import resolve_policy
from balance.simcore.errors import BalanceError

from .playtest_log import Group, Row, Sim, end_words, simulate

EPSILONS = tuple(round(1.0 - 0.1 * i, 1) for i in range(11))  # 1.0 ... 0.0
EXPERT_SHARE = 0.1  # the expert rung plays this share of the games of a cheap rung (every seat expert: 1000x slower)
TURN_BINS = 4
REACTION_GRID = tuple(round(1.0 + 0.25 * i, 2) for i in range(13))  # 1.0 ... 4.0 s
REACTION_STEP = 0.01


@dataclass(frozen=True)
class Rung:
    label: str
    name: str  # policy
    epsilon: float | None  # greedy's share of random moves; None: a search policy

    def policy(self, spec):
        return resolve_policy(spec, self.name, {"epsilon": self.epsilon} if self.epsilon is not None else {})

    @property
    def words(self) -> str:
        if self.name == "greedy" and self.epsilon:
            return f"greedy with epsilon {self.epsilon:g}"
        return self.name


def rung_grid(spec, epsilons=EPSILONS, expert: bool = True) -> list[Rung]:
    greedy = spec.policy("greedy")
    if greedy is None or not any(p.name == "epsilon" for p in greedy.params):
        raise BalanceError(f"--game: {spec.name} has no greedy policy with epsilon; the skill fit needs one")
    out = [Rung("greedy" if e == 0 else f"greedy epsilon={e:g}", "greedy", float(e)) for e in epsilons]
    ex = spec.policy("expert")
    if expert and ex is not None and not ex.refused:
        out.append(Rung("expert", "expert", None))
    return out


def rung_games(rung: Rung, n: int) -> int:
    return n if rung.name == "greedy" else max(50, math.ceil(EXPERT_SHARE * n))


def rung_tables(spec, groups: list[Group], rungs: list[Rung], n: int, seed: int,
                users: dict[str, dict] | None = None) -> dict[str, list[Sim]]:
    """Per group (by key) and rung, the simulated games (the same deals for every rung); `users`: the
    rule parameters to play a group at instead of its own (the party game: its fitted reaction profile)."""
    users = users or {}
    return {g.key: [simulate(spec, g.players, users.get(g.key, g.user), [r.policy(spec)] * g.players,
                             rung_games(r, n), seed) for r in rungs] for g in groups}


def turn_edges(sims: list[Sim]) -> np.ndarray | None:
    if any(s.turns is None for s in sims):
        return None
    pooled = np.concatenate([s.turns for s in sims]).astype(float)
    return np.unique(np.quantile(pooled, np.arange(1, TURN_BINS) / TURN_BINS))


def loglik(spec, rows: list[Row], sims: list[Sim], edges: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Log-likelihood of the rows under each rung's simulated games, and its variance from the simulation's
    own sampling (delta method: the variance over simulated games of sum_k (d_k / p_k) [game matches k],
    over N, for the rows' distinct outcomes k seen d_k times at estimated probability p_k)."""
    ends = end_words(spec)
    patterns: dict[tuple[int, int, int], int] = {}
    for r in rows:
        b = -1
        if r.turns is not None and edges is not None:
            b = int(np.searchsorted(edges, r.turns, side="right"))
        key = (r.mask, ends.index(r.end) if r.end is not None else -1, b)
        patterns[key] = patterns.get(key, 0) + 1
    out = np.zeros(len(sims))
    var = np.zeros(len(sims))
    for j, sim in enumerate(sims):
        mask, end = sim.mask, sim.end
        bins = np.searchsorted(edges, sim.turns, side="right") if edges is not None else None
        h = np.zeros(sim.n)
        for (m, e, b), count in patterns.items():
            hit = mask == m
            if e >= 0:
                hit &= end == e
            if b >= 0 and bins is not None:
                hit &= bins == b
            p = (int(hit.sum()) + 0.5) / (sim.n + 1.0)
            out[j] += count * math.log(p)
            h += hit * (count / p)
        var[j] = float(h.var()) / sim.n
    return out, var


def lr_set(ll: np.ndarray, level: float = 0.95, var: np.ndarray | None = None) -> tuple[int, np.ndarray, np.ndarray]:
    """The best grid point, each point's likelihood-ratio statistic, and the points inside the interval:
    statistic at most the chi-square(1) quantile, plus (with `var`, the log-likelihoods' simulation
    variance) a one-sided 95% allowance for the simulation's noise in the difference from the best."""
    from scipy.stats import chi2

    best = int(np.argmax(ll))
    stat = 2.0 * (ll[best] - ll)
    limit = float(chi2.ppf(level, 1))
    if var is not None:
        limit = limit + 2.0 * 1.645 * np.sqrt(var + var[best])
    return best, stat, stat <= limit


def fit_rung(spec, groups: list[Group], tables: dict[str, list[Sim]], rungs: list[Rung], level: float = 0.95) -> dict:
    ll = np.zeros(len(rungs))
    var = np.zeros(len(rungs))
    for g in groups:
        sims = tables[g.key]
        a, v = loglik(spec, g.rows, sims, turn_edges(sims))
        ll += a
        var += v
    best, stat, inside = lr_set(ll, level, var)
    idx = np.flatnonzero(inside)
    lo, hi = int(idx.min()), int(idx.max())
    return {"best": rungs[best].label, "best_index": best, "best_words": rungs[best].words,
            "interval": [rungs[lo].label, rungs[hi].label], "interval_index": [lo, hi],
            "interval_words": [rungs[lo].words, rungs[hi].words], "contiguous": bool(inside[lo:hi + 1].all()),
            "level": level, "n": sum(len(g.rows) for g in groups),
            "uses": sorted({u for g in groups for r in g.rows for u in
                            (["winners"] + (["turns"] if r.turns is not None else []) + (["end"] if r.end else []))}),
            "at_edge": "weakest" if lo == 0 else "strongest" if hi == len(rungs) - 1 else None,
            "rungs": [{"label": r.label, "name": r.name, "epsilon": r.epsilon, "loglik": float(ll[j]),
                       "lr": float(stat[j]), "sim_sd": float(math.sqrt(var[j])), "inside": bool(inside[j]),
                       "games": int(tables[groups[0].key][j].n) if groups else 0} for j, r in enumerate(rungs)]}


# ---------------------------------------------------------------- the party game's reaction profile



def reaction_tables(spec, groups: list[Group], n: int, seed: int, grid=REACTION_GRID) -> dict[str, np.ndarray]:
    """Per group with minutes: per grid point, the mean and sd of log(simulated minutes) and of log(cards
    played), and their correlation (greedy seats, the group's setting with that reaction_median)."""
    greedy = resolve_policy(spec, "greedy")
    out = {}
    for g in groups:
        if not any(r.minutes is not None for r in g.rows):
            continue
        rows = []
        for v in grid:
            sim = simulate(spec, g.players, {**g.user, "reaction_median": [float(v)]}, [greedy] * g.players, n, seed)
            lm, lp = np.log(sim.minutes), np.log(np.maximum(sim.turns, 1))
            rows.append((lm.mean(), lp.mean(), lm.std(ddof=1), lp.std(ddof=1), np.corrcoef(lm, lp)[0, 1]))
        out[g.key] = np.array(rows)
    return out


def _reaction_loglik(rows: list[Row], table: np.ndarray, fine: np.ndarray, grid) -> np.ndarray:
    """Per fine grid point and row, the log-likelihood of the row's minutes (and cards played, where
    given): bivariate normal of (log minutes, log cards played), or the normal of log minutes alone."""
    from scipy.stats import norm

    mu_m, mu_p, sd_m, sd_p, rho = (np.interp(fine, grid, table[:, j])[:, None] for j in range(5))
    timed = [r for r in rows if r.minutes is not None]
    x = np.log([r.minutes for r in timed])[None, :]
    has = np.array([r.turns is not None for r in timed])[None, :]
    y = np.log([max(r.turns or 1, 1) for r in timed])[None, :]
    ll = norm.logpdf(x, mu_m, sd_m)
    # log cards played given log minutes, where the row gives them
    cm = mu_p + rho * sd_p / sd_m * (x - mu_m)
    cs = sd_p * np.sqrt(np.clip(1 - rho ** 2, 1e-6, None))
    return ll + np.where(has, norm.logpdf(y, cm, cs), 0.0)


def robust_factor(per_row: np.ndarray, best: int, step: float, h: int = 5) -> float:
    """The likelihood-ratio statistic's correction for a model that is only approximately right (the
    normal model of log minutes is not the simulated games' exact law): H / J at the best point, H the
    curvature of the total log-likelihood and J the sum of the rows' squared scores (finite differences
    h grid steps either side). A well-specified model gives about 1; the statistic is scaled by it when
    below 1 (the interval only ever widens)."""
    lo, hi = best - h, best + h
    if lo < 0 or hi >= per_row.shape[0]:
        return 1.0
    total = per_row.sum(axis=1)
    d = h * step
    curv = -(total[hi] - 2 * total[best] + total[lo]) / d ** 2
    score = (per_row[hi] - per_row[lo]) / (2 * d)
    info = float(np.sum(score ** 2))
    if curv <= 0 or info <= 0:
        return 1.0
    return float(min(1.0, curv / info))


def fit_reaction(groups: list[Group], tables: dict[str, np.ndarray], grid=REACTION_GRID, level: float = 0.95) -> dict | None:
    fine = np.round(np.arange(grid[0], grid[-1] + REACTION_STEP / 2, REACTION_STEP), 4)
    parts = []
    n = n_turns = 0
    for g in groups:
        if g.key not in tables:
            continue
        n += sum(r.minutes is not None for r in g.rows)
        n_turns += sum(r.minutes is not None and r.turns is not None for r in g.rows)
        parts.append(_reaction_loglik(g.rows, tables[g.key], fine, grid))
    if n == 0:
        return None
    per_row = np.concatenate(parts, axis=1)
    ll = per_row.sum(axis=1)
    best = int(np.argmax(ll))
    factor = robust_factor(per_row, best, REACTION_STEP)
    from scipy.stats import chi2

    stat = 2.0 * (ll[best] - ll) * factor
    inside = stat <= float(chi2.ppf(level, 1))
    idx = np.flatnonzero(inside)
    lo, hi = float(fine[idx.min()]), float(fine[idx.max()])
    return {"parameter": "reaction_median", "unit": "s", "best": float(fine[best]), "interval": [lo, hi], "level": level,
            "n": n, "n_with_turns": n_turns, "grid": [float(v) for v in grid], "step": REACTION_STEP,
            "robust_factor": factor, "contiguous": bool(inside[idx.min():idx.max() + 1].all()),
            "at_edge": "low" if idx.min() == 0 else "high" if idx.max() == fine.size - 1 else None,
            "profile": [{"reaction_median": float(v), "lr": float(s)} for v, s in zip(fine[::25], stat[::25])]}


def profile_held(spec, groups: list[Group]) -> dict:
    """The reaction profile's other figures as each group played them (held, not fitted)."""
    from balance.simcore.params import resolve

    out = {}
    for g in groups:
        p = resolve(spec, g.user)
        out[g.label] = {k: p[k] for k in spec.behaviour_params[1:] if k in p}
    return out
