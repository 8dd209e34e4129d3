"""View model of the comparison report: B against A (analysis.compare.compare_runs).

The balance diff: every headline metric's difference B - A with its 95%
interval and a verdict after Holm correction, as a forest plot around zero
(rates in percentage points; other metrics relative to A, since their units
differ) and a table.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from markupsafe import Markup

from . import charts
from .views import Chart, KeyFigure, RunReport, Table, fmt_int, fmt_num, fmt_p


def is_rate(metric: str) -> bool:
    """Rates (shares of games) compare in percentage points: as analysis.compare decides."""
    return "win rate" in metric or metric.startswith("ends: ")


def _side(d: dict) -> str:
    run = Path(str(d.get("run", "?"))).name
    var = d.get("variant")
    return f"{run}" + (f" [{var}]" if var and var not in ("base",) else "")


def _policy_names(d: dict) -> str:
    return ", ".join(p.get("name", "?") for p in d.get("policies") or []) or "–"


def _js(v) -> str:
    if isinstance(v, list) and all(isinstance(x, (int, float)) for x in v) and v:
        return "-".join(str(x) for x in v)
    return json.dumps(v) if isinstance(v, (dict, list)) else str(v)


def changes_words(result: dict) -> str:
    ch = result.get("changed") or {}
    if not ch:
        return "B changes nothing in the rules or policies (same configuration: differences are noise)"
    parts = []
    for k, (a, b) in ch.items():
        if k == "policies":
            parts.append(f"the policies from {', '.join(map(str, a))} to {', '.join(map(str, b))}")
        else:
            parts.append(f"{k} from {_js(a)} to {_js(b)}")
    return "B changes " + "; ".join(parts)


def _value(m: dict, key: str) -> str:
    v = m.get(key)
    if v is None:
        return "–"
    return f"{v * 100:.1f}%" if is_rate(m["metric"]) else fmt_num(v)


def _diff(m: dict) -> str:
    d = m.get("diff")
    if d is None:
        return "–"
    return f"{d * 100:+.1f} pts" if is_rate(m["metric"]) else f"{d:+,.2f}"


def _diff_ci(m: dict) -> str:
    ci = m.get("ci") or [None, None]
    if ci[0] is None:
        return "–"
    if is_rate(m["metric"]):
        return f"{ci[0] * 100:+.1f} to {ci[1] * 100:+.1f} pts"
    return f"{ci[0]:+,.2f} to {ci[1]:+,.2f}"


def _n(m: dict, paired: bool) -> str:
    if m.get("method", "").startswith("paired"):
        return f"{fmt_int(m['n_a'])} pairs"
    return f"{fmt_int(m['n_a'])} / {fmt_int(m['n_b'])}"


def summary_sentences(r: dict) -> list[str]:
    ms = r.get("metrics") or []
    sig = [m for m in ms if m.get("significant")]
    out = [changes_words(r) + "."]
    how = (f"paired on the same deals (seed {r['a'].get('seed')}, game by game)" if r.get("paired") else
           "independent samples (the runs do not share their deals, so the comparison is unpaired)")
    out.append(f"{len(sig)} of {len(ms)} metrics differ significantly after {r.get('correction', 'Holm')} correction "
               f"(α = {r.get('alpha', 0.05)}); {how}; n = {fmt_int(r.get('n_a'))} games for A and "
               f"{fmt_int(r.get('n_b'))} for B.")
    head = next((m for m in ms if m["metric"] == "win rate"), None)
    if head:
        verdict = "a significant difference" if head["significant"] else "not a significant difference"
        out.append(f"Win rate: A {_value(head, 'a')}, B {_value(head, 'b')}, B − A {_diff(head)} "
                   f"(95% CI {_diff_ci(head)}, {fmt_p(head['p'])}): {verdict}.")
    others = sorted((m for m in sig if m["metric"] != "win rate"), key=lambda m: m["p"])
    if others:
        bits = [f"{m['metric']} {_value(m, 'a')} → {_value(m, 'b')} ({_diff(m)}, 95% CI {_diff_ci(m)})"
                for m in others[:6]]
        more = f", and {len(others) - 6} more (see the table)" if len(others) > 6 else ""
        out.append("Also significant: " + "; ".join(bits) + more + ".")
    elif ms and not sig:
        out.append("No metric moves beyond what chance explains at this sample size; a difference smaller than the "
                   "intervals in the table may still exist.")
    return out


def diff_charts(r: dict) -> list[Chart]:
    ms = [m for m in r.get("metrics") or [] if m.get("diff") is not None]
    out = []
    rates = [m for m in ms if is_rate(m["metric"])]
    if rates:
        svg = charts.diff_forest([m["metric"] for m in rates], [m["diff"] for m in rates],
                                 [m["ci"][0] for m in rates], [m["ci"][1] for m in rates],
                                 [f"n = {_n(m, r.get('paired'))}" for m in rates], [m["significant"] for m in rates],
                                 "Balance diff: rates, B − A", "B − A in percentage points (95% interval)")
        out.append(Chart("Balance diff: rates", Markup(svg),
                         "Each rate's difference B − A with its 95% interval; filled and coloured: significant after "
                         "Holm correction (green: B higher, red: B lower); hollow grey: not significant. "
                         "n = games (pairs when paired on the same deals)."))
    rel = [m for m in ms if not is_rate(m["metric"]) and m.get("a")]
    if rel:
        scale = [abs(m["a"]) for m in rel]
        svg = charts.diff_forest([m["metric"] for m in rel], [m["diff"] / s for m, s in zip(rel, scale)],
                                 [m["ci"][0] / s for m, s in zip(rel, scale)], [m["ci"][1] / s for m, s in zip(rel, scale)],
                                 [f"n = {_n(m, r.get('paired'))}" for m in rel], [m["significant"] for m in rel],
                                 "Balance diff: other metrics, B − A relative to A", "B − A as % of A's value (95% interval)",
                                 unit="%")
        out.append(Chart("Balance diff: other metrics", Markup(svg),
                         "Lengths and the game's own means have different units, so each difference is shown as a share "
                         "of A's value (the table gives it in the metric's own unit); colours as above."))
    return out


def diff_table(r: dict) -> Table:
    rows = []
    for m in r.get("metrics") or []:
        rows.append([m["metric"], _value(m, "a"), _value(m, "b"), _diff(m), _diff_ci(m), fmt_p(m.get("p")),
                     m.get("verdict", "–"), m.get("method", "–"), _n(m, r.get("paired"))])
    note = (f"Rates in percent, their differences in percentage points; other metrics in their own units. "
            f"p-values are raw; the verdict is after {r.get('correction', 'Holm')} correction over "
            f"{len(r.get('metrics') or [])} metrics (α = {r.get('alpha', 0.05)}). n: pairs of games when paired, "
            f"else games of A / games of B.")
    return Table("Balance diff", ["metric", "A", "B", "B − A", "95% CI", "p", "verdict", "method", "n"], rows, note)


def sides_table(r: dict) -> Table:
    rows = []
    for label, d, n in (("A", r["a"], r.get("n_a")), ("B", r["b"], r.get("n_b"))):
        changed = {k: v for k, v in (d.get("params") or {}).items() if k in (r.get("changed") or {})}
        rows.append([label, _side(d), _policy_names(d), ", ".join(f"{k}={_js(v)}" for k, v in changed.items()) or "–",
                     str(d.get("seed", "–")), str(d.get("players", "–")), fmt_int(n)])
    return Table("The two sides", ["side", "run", "policy", "parameters", "seed", "players", "n"], rows,
                 "parameters: only those that differ between A and B; provenance lists them all.", numeric_from=4)


def provenance(r: dict, command: str | None) -> list[tuple[str, str]]:
    rows = [("game", f"{r.get('game')} ({r.get('title', '')})")]
    for label in ("a", "b"):
        d = r[label]
        rows += [(f"{label.upper()}: run", str(d.get("run", "–"))), (f"{label.upper()}: variant", str(d.get("variant", "–"))),
                 (f"{label.upper()}: seed", str(d.get("seed", "–"))),
                 (f"{label.upper()}: policies", json.dumps(d.get("policies", []), sort_keys=True)),
                 (f"{label.upper()}: parameters", json.dumps(d.get("params", {}), sort_keys=True))]
    rows += [("paired", "yes: same seed and players, so game i is the same deal on both sides" if r.get("paired")
              else "no"), ("correction", f"{r.get('correction', 'Holm')}, α = {r.get('alpha', 0.05)}"),
             ("command", command or "–")]
    return rows


def build_compare_report(result: dict, command: str | None = None) -> RunReport:
    r = result
    ms = r.get("metrics") or []
    sig = [m for m in ms if m.get("significant")]
    head = next((m for m in ms if m["metric"] == "win rate"), None)
    figs = [KeyFigure("games", f"{fmt_int(r.get('n_a'))} / {fmt_int(r.get('n_b'))}",
                      "A / B" + (", paired on the same deals" if r.get("paired") else ", independent")),
            KeyFigure("metrics that differ", f"{len(sig)} of {len(ms)}",
                      f"{r.get('correction', 'Holm')}-corrected, α = {r.get('alpha', 0.05)}")]
    if head:
        figs.append(KeyFigure("win rate, B − A", _diff(head), f"95% CI {_diff_ci(head)}, {fmt_p(head['p'])}, "
                                                              f"n = {_n(head, r.get('paired'))}"))
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return RunReport(
        title=f"{r.get('title') or r.get('game')}: comparison, B against A",
        subtitle=f"{r.get('game')} · A: {_side(r['a'])} · B: {_side(r['b'])} · "
                 f"{'paired on the same deals' if r.get('paired') else 'independent samples'}",
        summary=summary_sentences(r),
        warnings=[] if r.get("paired") else ["The two runs do not share their seed (or player count): the comparison "
                                             "is unpaired, so the intervals are wider than a paired run would give."],
        key_figures=figs,
        charts=diff_charts(r),
        tables=[diff_table(r), sides_table(r)],
        provenance=provenance(r, command),
        generated=now,
        notes=["Differences are B − A. Paired: the mean of per-game differences with a normal interval. Unpaired: "
               "Newcombe intervals for rates, Welch for means. All intervals 95%."],
        footer=f"Comparison rendered {now} · made by balance from comparison.json.",
    )
