"""`balance playtests`: a playtest log held against the same settings simulated (issue 44, item 2).

analysis.playtest_log reads the log (one row per game played; the format is in its docstring and in
docs/playtests/README.md), groups the rows by setting and simulates a setting in memory with the
run machinery's own calls; analysis.playtest_fit finds the skill rung (and, for the party game, the
reaction profile) that best explains the games. Here: the playtests beside the simulation, figure
by figure, and the result `playtests.json` holds.

The simulation set beside the playtests is every seat `greedy` (what `balance simulate` plays by
default), N games per setting (`-n`) of `--seed`. Per figure (each seat's win rate, nobody wins,
length, minutes, each end reason; per setting):

* each side's rate with its exact (Clopper-Pearson) 95% interval and n; means with a t interval;
* p of the difference: Fisher's exact test for rates (exact at any playtest n, conservative),
  Welch's t for lengths and minutes; significance by Holm over every figure of the report (the
  family), at alpha 0.05;
* the difference's interval at the family's Bonferroni level (Newcombe for rates, Welch for means),
  read against the margin by analysis.stats.margin_verdict (rates: points; means: the margin as a
  share of the simulation's mean), so "within the margin" is an equivalence verdict that holds for
  the whole family at once.
"""
from __future__ import annotations

import math
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import numpy as np

from . import stats
from .playtest_log import Group, Sim, end_words, simulate, turns_column

ALPHA = 0.05
PLAYTESTS_FILE = "playtests.json"
REACTION_GAMES = 1_000  # games per grid point of the reaction fit (at most -n)



def _rate_item(what: str, group: str, k: int, n: int, K: int, N: int, **extra) -> dict:
    lo, hi = stats.clopper_pearson(k, n)
    slo, shi = stats.clopper_pearson(K, N)
    return {"kind": "rate", "what": what, "group": group, "playtest": {"k": k, "n": n, "value": k / n if n else None,
                                                                        "ci": [lo, hi], "interval": "Clopper-Pearson"},
            "simulation": {"k": K, "n": N, "value": K / N if N else None, "ci": [slo, shi], "interval": "Clopper-Pearson"},
            "p": stats.fisher_p(k, n, K, N), "test": "Fisher's exact", **extra}


def _mean_item(what: str, group: str, x: np.ndarray, y: np.ndarray, **extra) -> dict:
    def side(v):
        r = stats.mean_ci(v)
        if v.size >= 2:
            from scipy.stats import t as t_dist

            half = float(t_dist.ppf(0.975, v.size - 1) * v.std(ddof=1) / math.sqrt(v.size))
            r["ci"] = [r["value"] - half, r["value"] + half]
        return {**r, "median": float(np.median(v)) if v.size else None, "interval": "t"}

    w = stats.welch(stats.Moments.of(y), stats.Moments.of(x))  # playtest minus simulation
    return {"kind": "mean", "what": what, "group": group, "playtest": side(x), "simulation": side(y),
            "p": w.get("p") if w.get("p") is not None else 1.0, "test": "Welch's t",
            "_moments": (stats.Moments.of(y), stats.Moments.of(x)), **extra}


def compare(spec, groups_: list[Group], sims: dict[str, Sim], margin: float = 0.02, alpha: float = ALPHA) -> dict:
    """Every figure of every group, playtest beside simulation: exact (Clopper-Pearson) intervals for each
    side's rates, a p per difference (Fisher's exact for rates, Welch for lengths), significance by Holm
    over the whole family, and each difference's interval at the family's Bonferroni level read against
    the margin (analysis.stats.margin_verdict; lengths: the margin as a share of the simulation's mean)."""
    items: list[dict] = []
    ends = end_words(spec)
    for g in groups_:
        sim = sims[g.key]
        n, N = len(g.rows), sim.n
        won = np.array([[s in r.winners for s in range(g.players)] for r in g.rows], bool)
        if g.players == 1 or spec.cooperative:
            items.append(_rate_item("win rate", g.label, int(won.any(axis=1).sum()), n,
                                    int(sim.won.any(axis=1).sum()), N, id="win", seat=None))
        else:
            for s in range(g.players):
                items.append(_rate_item(f"seat {s + 1} win rate", g.label, int(won[:, s].sum()), n,
                                        int(sim.won[:, s].sum()), N, id=f"seat{s + 1}", seat=s))
            if (~sim.won.any(axis=1)).any() or (~won.any(axis=1)).any():
                items.append(_rate_item("nobody wins", g.label, int((~won.any(axis=1)).sum()), n,
                                        int((~sim.won.any(axis=1)).sum()), N, id="nobody", seat=None))
        with_turns = [r.turns for r in g.rows if r.turns is not None]
        if with_turns and sim.turns is not None:
            tc = turns_column(spec)
            items.append(_mean_item(f"length ({tc})", g.label, np.array(with_turns, float), sim.turns.astype(float),
                                    id="turns", seat=None, unit="turns" if tc == "turns" else "cards played"))
        with_minutes = [r.minutes for r in g.rows if r.minutes is not None]
        if with_minutes and sim.minutes is not None:
            items.append(_mean_item("minutes", g.label, np.array(with_minutes, float), sim.minutes, id="minutes",
                                    seat=None, unit="minutes"))
        with_end = [r.end for r in g.rows if r.end is not None]
        if with_end:
            seen = sorted({ends.index(e) for e in with_end} | set(np.unique(sim.end).tolist()))
            won_any = np.array([bool(r.winners) for r in g.rows if r.end is not None])
            sim_any = sim.won.any(axis=1)
            for code in seen:
                pt_end = np.array([e == ends[code] for e in with_end])
                sim_end = sim.end == code
                if any((np.array_equal(pt_end, w) and np.array_equal(sim_end, sw)) for w, sw in
                       ((won_any, sim_any), (~won_any, ~sim_any))):
                    continue  # the same games as "someone won" or "nobody won" (solo: all_happy is the win rate)
                items.append(_rate_item(f"ends by {ends[code]}", g.label, sum(e == ends[code] for e in with_end),
                                        len(with_end), int((sim.end == code).sum()), N, id=f"end:{ends[code]}",
                                        seat=None))
    m = len(items)
    level = stats.family_level(alpha, m)
    for it, p_holm in zip(items, stats.holm_adjusted([it["p"] for it in items])):
        it["p_holm"] = p_holm
        it["significant"] = bool(p_holm <= alpha)
        it["ci_level"] = level
        pt, sm = it["playtest"], it["simulation"]
        if it["kind"] == "rate":
            d = stats.two_proportions_ci(sm["k"], sm["n"], pt["k"], pt["n"], level)
            mg = margin
        else:
            d = stats.welch(*it.pop("_moments"), level)
            mg = margin * abs(sm["value"] or 0.0)
        it["diff"], it["diff_ci"] = d.get("diff"), d.get("ci")
        it["margin"] = mg
        it["margin_verdict"] = stats.margin_verdict(d.get("diff"), d.get("ci"), mg, n=pt["n"],
                                                    no_information=d.get("no_information"))
    return {"alpha": alpha, "family_size": m, "ci_level": level, "margin": margin, "items": items}


# ---------------------------------------------------------------- the whole analysis


def analyse(spec, path: Path, players: int | None = None, sets: list[str] | None = None, level: int | None = None,
            cards: Path | None = None, n: int = 2_000, seed: int = 1, margin: float = 0.02, expert: bool = True,
            say: Callable[[str], None] | None = None) -> dict:
    """Read the log, simulate its settings (every rung of the skill grid), set the playtests beside the
    greedy simulation, fit the skill rung and (party game, rows with minutes) the reaction profile."""
    from balance.simcore.errors import BalanceError

    from . import playtest_fit as fit
    from .playtest_log import groups, read_log
    from .runs import engine_hash

    log = read_log(path, spec, sets, level, cards)
    gs = groups(spec, log)
    if players is not None:
        gs = [g for g in gs if g.players == players]
        if not gs:
            raise BalanceError(f"--players: {path} has no game of {players} players; allowed: "
                               f"{', '.join(sorted({str(r.players) for r in log.rows}))}")
    rungs = fit.rung_grid(spec, expert=expert)
    if say:
        ex = f" (expert: {fit.rung_games(rungs[-1], n):,})" if rungs[-1].name == "expert" else ""
        say(f"{len(gs)} setting(s), {sum(len(g.rows) for g in gs)} playtest game(s); simulating {len(rungs)} skill "
            f"rungs x {n:,} games per setting{ex}")
    reaction, users = None, None
    if spec.behaviour_params and any(r.minutes is not None for g in gs for r in g.rows):
        m = min(n, REACTION_GAMES)
        if say:
            say(f"fitting the reaction profile: {len(fit.REACTION_GRID)} reaction medians x {m:,} games per setting")
        reaction = fit.fit_reaction(gs, fit.reaction_tables(spec, gs, m, seed))
        if reaction is not None:
            reaction["games_per_point"] = m
            reaction["held"] = fit.profile_held(spec, gs)
            # the skill rungs are played at the fitted profile: quick or slow players are not read as skill
            users = {g.key: {**g.user, spec.behaviour_params[0]: [reaction["best"]]} for g in gs}
    tables = fit.rung_tables(spec, gs, rungs, n, seed, users)
    gi = next(i for i, r in enumerate(rungs) if r.label == "greedy")
    greedy = rungs[gi].policy(spec)
    sims = {g.key: tables[g.key][gi] if users is None else
            simulate(spec, g.players, g.user, [greedy] * g.players, n, seed) for g in gs}
    comparison = compare(spec, gs, sims, margin)
    skill = fit.fit_rung(spec, gs, tables, rungs)
    if users is not None:
        skill["played_at"] = f"{spec.behaviour_params[0]} {reaction['best']:.2f} s (the fitted profile)"
    return {"kind": "playtests", "game": spec.name, "title": spec.title, "log": str(path),
            "games": sum(len(g.rows) for g in gs), "ignored_columns": log.ignored,
            "columns": log.columns, "seed": seed, "sim_games": n, "margin": margin,
            "simulation": "every seat greedy (what balance simulate plays by default)",
            "seat_numbering": "seat 1 is the seat that moves first (the engine's seat 0)",
            "groups": [_group_facts(spec, g, sims[g.key]) for g in gs],
            "comparison": comparison, "skill": skill, "reaction": reaction,
            "engine_hash": engine_hash(spec), "generated": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def _group_facts(spec, g: Group, sim: Sim) -> dict:
    return {"label": g.label, "players": g.players, "settings": g.user, "games": len(g.rows), "sim_games": sim.n,
            "rows": [r.row for r in g.rows][:1000], "turns_column": turns_column(spec),
            "with_turns": sum(r.turns is not None for r in g.rows),
            "with_minutes": sum(r.minutes is not None for r in g.rows),
            "with_end": sum(r.end is not None for r in g.rows)}


def write(out_dir: Path, result: dict) -> Path:
    from .runs import _jsonable, _write_json

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / PLAYTESTS_FILE
    _write_json(path, _jsonable(result))
    return path
