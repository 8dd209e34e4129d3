"""What summary.json concludes about a set of games, as data the reports put
in words (reports/verdicts.py): the verdict block (`verdicts`: every seat and
comparison verdict with its margin, interval and n), the headline against the
margin (`headline`), and the alerts a designer should look at first
(`alerts`, naming a card only when `nameable`). Split from analysis.summary.
"""
from __future__ import annotations

import math

from .stats import ALPHA


def _item(kind: str, question: str, metric: str, r: dict, verdict: dict, variant: str | None = None,
          ci_level: float = 0.95, n=None, **who) -> dict:
    """One verdict of the run; `who` names what it is about (best_seat/worst_seat for the seats, best/worst
    policy for a rotated run's policies, baseline for a sweep point), so a report can say it in a sentence."""
    return {"id": kind, "variant": variant, "question": question, "metric": metric,
            "estimate": r.get("diff", r.get("value", r.get("advantage"))), "ci": r.get("ci"), "ci_level": ci_level,
            "n": n if n is not None else r.get("n"), "p": r.get("p"), **who, **verdict}


def verdicts(summary: dict, margin: float) -> dict:
    """The verdict block of summary.json: every seat and comparison verdict of
    the run with its margin, interval and n (stats.margin_verdict)."""
    items = []

    def seat_item(block: dict, variant: str | None) -> None:
        g = block.get("seat_gap")
        if g and g.get("verdict"):
            items.append(_item("seats", "Are the seats balanced?", "seat gap (best minus worst seat's win rate)",
                               g, g["verdict"], variant, n=g.get("n"), best_seat=g.get("best_seat"),
                               worst_seat=g.get("worst_seat")))

    def first_item(block: dict, variant: str | None) -> None:
        f = block.get("first_player")
        if f and f.get("verdict"):
            items.append(_item("first_player", "Does moving first matter?",
                               "first mover's win rate minus the other seats'", f, f["verdict"], variant))

    if summary.get("variants"):
        for c in (summary.get("paired_vs_first") or {}).get("comparisons") or []:
            w = c["win_rate"]
            if w.get("verdict"):
                items.append(_item("vs_first", f"Does {c['variant']} change the win rate?",
                                   f"win rate, {c['variant']} minus {summary['paired_vs_first']['baseline']}", w,
                                   w["verdict"], c["variant"], w.get("ci_level", 0.95), n=c["n_pairs"],
                                   baseline=summary["paired_vs_first"]["baseline"]))
        for v in summary["variants"]:
            seat_item(v, v["name"])
            first_item(v, v["name"])
    else:
        seat_item(summary, None)
        first_item(summary, None)
        pol = (summary.get("seat_rotation") or {}).get("policies")
        if pol and pol.get("verdict"):  # a seat-rotated run: each policy over every seat, on the same deals
            g = pol["gap"]
            names = {r.get("listed_seat"): r.get("policy") for r in pol.get("seats") or []}
            items.append(_item("policies", "Are the policies equally strong?",
                               "policy gap (strongest minus weakest policy's win rate, each over every seat)",
                               {**g, "p": pol["test"]["p"]}, pol["verdict"], None, n=pol["n"],
                               best=names.get(g.get("best_seat")), worst=names.get(g.get("worst_seat"))))
    counts: dict[str, int] = {}
    for it in items:
        counts[it["verdict"]] = counts.get(it["verdict"], 0) + 1
    return {"margin": margin, "alpha": ALPHA, "margin_kind": "absolute, in win-rate points (0.02 = 2 points)",
            "items": items, "counts": counts}


# ---------------------------------------------------------------- alerts
def nameable(ci, margin: float) -> bool:
    """May a report name a card (or anything) on this figure? Only when its interval pins it down to
    within ± the margin (the interval narrower than twice the margin): a card played 17 times, whose
    lift is known to ±20 points, is not named in a headline or an alert, whatever its estimate."""
    lo, hi = (ci or [None, None])[:2]
    return lo is not None and hi is not None and hi - lo < 2 * margin


MAX_ALERT_CARDS = 3


def headline(block: dict, margin: float) -> dict | None:
    """The headline win rate against the margin, for a game with no seats to set against each other
    (solo, co-op): measured to within ± the margin (its 95% interval narrower than twice the margin), or
    not yet, with about how many games in all would get it there (the half-width shrinks as 1/sqrt(n))."""
    n = block.get("n_games") or 0
    lo, hi = (block.get("win_rate_ci") or [None, None])[:2]
    if not n or lo is None or hi is None:
        return None
    half = (hi - lo) / 2
    ok = half < margin
    return {"metric": "win rate", "value": block.get("win_rate"), "ci": [lo, hi], "n": n, "half_width": half,
            "margin": margin, "verdict": "measured" if ok else "imprecise",
            "games_for_margin": None if ok else int(math.ceil(n * (half / margin) ** 2)) + 1}


def alerts(block: dict, margin: float) -> list[dict]:
    """What a designer should look at first in one set of games (a run, or a sweep point), as data (the
    reports say it in words, reports/verdicts.py): games nobody wins, games stopped by the turn cap or
    with no legal move, dead cards, and cards whose lift lies beyond the margin (an association: the
    seat-games that played them win that much more or less), named only when `nameable`."""
    out = []
    n = block.get("n_games") or 0
    if not n:
        return out
    lose = block.get("everybody_loses")
    if lose and lose.get("k"):
        out.append({"id": "nobody_wins", "k": lose["k"], "n": lose["n"], "value": lose["value"], "ci": lose["ci"]})
    capped = block.get("capped") or 0
    if capped:
        cr = block.get("capped_rate") or {}
        out.append({"id": "turn_cap", "k": capped, "n": n, "value": cr.get("value"), "ci": cr.get("ci"),
                    "cap": block.get("turn_cap")})
    no_move = (block.get("end_reasons") or {}).get("no_move")
    if no_move:
        out.append({"id": "no_move", "k": no_move, "n": n})
    c = block.get("cards") or {}
    if c.get("dead"):
        out.append({"id": "dead_cards", "counter": c.get("primary_counter"), "threshold": c.get("dead_threshold"),
                    "cards": [d["card"] for d in c["dead"]], "seat_games": c.get("seat_games")})
    strong = []
    for r in (c.get("top") or []) + (c.get("bottom") or []):
        lift = r.get("lift") or {}
        lo, hi = (lift.get("ci") or [None, None])[:2]
        if lo is None or not nameable(lift.get("ci"), margin) or not (lo > margin or hi < -margin):
            continue
        strong.append({"card": r["card"], "lift": lift["value"], "ci": lift["ci"],
                       "plays": (r.get("win_rate_with") or {}).get("n")})
    if strong:
        strong.sort(key=lambda r: -abs(r["lift"]))
        out.append({"id": "card_lift", "counter": c.get("primary_counter"), "comparison": c.get("comparison", "all"),
                    "margin": margin, "cards": strong[:MAX_ALERT_CARDS], "more": max(0, len(strong) - MAX_ALERT_CARDS)})
    return out
