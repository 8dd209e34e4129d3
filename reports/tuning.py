"""View model of the tuning report (analysis.tune.tune): the recommended values,
how close each target came with its interval, the runners-up, the policy the
search assumed, and skill sensitivity (the same answer under a weaker and a
stronger policy). A difficulty ladder gets target vs fitted win rate per level."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from markupsafe import Markup

from . import charts
from .views import Chart, KeyFigure, RunReport, Table, fmt_ci, fmt_ci_pct, fmt_int, fmt_num, fmt_pct

RATE_TARGETS = {"win_rate", "seat_gap"}
LABELS = {"win_rate": "win rate", "seat_gap": "seat gap (best − worst seat)", "length_median": "median length",
          "length_mean": "mean length"}


def _val(v) -> str:
    if isinstance(v, (list, tuple)):
        return "-".join(str(x) for x in v)
    if isinstance(v, bool):
        return str(v).lower()
    return str(v)


def point_words(point: dict) -> str:
    return ", ".join(f"{k}={_val(v)}" for k, v in point.items()) or "(the defaults)"


def policy_words(result: dict) -> str:
    names = [p.get("name", "?") if isinstance(p, dict) else str(p) for p in result.get("policies") or []]
    if not names:
        return "–"
    return names[0] if len(set(names)) == 1 else ", ".join(names)


def _targets(result: dict):
    from analysis.tune import parse_target

    out = []
    for t in result.get("targets") or []:
        try:
            out.append(parse_target(t))
        except Exception:  # an unknown target text: shown in words only
            continue
    return out


def _fmt(metric: str, v) -> str:
    if v is None:
        return "–"
    return fmt_pct(v) if metric == "win_rate" else (f"{v * 100:.1f} pts" if metric == "seat_gap" else fmt_num(v))


def _fmt_ci(metric: str, ci) -> str:
    if not ci or ci[0] is None:
        return "–"
    if metric == "win_rate":
        return fmt_ci_pct(ci)
    if metric == "seat_gap":
        return f"{ci[0] * 100:.1f}–{ci[1] * 100:.1f} pts"
    return fmt_ci(ci)


def band_words(t) -> str:
    f = lambda v: _fmt(t.metric, v)  # noqa: E731
    if t.low is None:
        return f"at most {f(t.high)}"
    if t.low == t.high:
        return f"exactly {f(t.low)}"
    return f"{f(t.low)} to {f(t.high)}"


def verdict(t, m: dict) -> str:
    v, ci = m[t.metric]["value"], m[t.metric]["ci"]
    inside = (t.low is None or v >= t.low) and (t.high is None or v <= t.high)
    sure = (t.low is None or (ci[0] is not None and ci[0] >= t.low)) and (t.high is None or (ci[1] is not None and ci[1] <= t.high))
    if inside and sure:
        return "met (whole interval inside)"
    if inside:
        return "met, but the interval crosses the edge"
    miss = (t.low - v) if (t.low is not None and v < t.low) else (v - t.high)
    return f"missed by {_fmt(t.metric, miss)}"


# ---------------------------------------------------------------- plain targets


def _plain_sentences(r: dict, targets) -> list[str]:
    best = r["recommended"]
    m = best["measured"]
    out = [f"Assuming the {policy_words(r)} policy at every seat ({r.get('players')} player"
           f"{'s' if r.get('players') != 1 else ''}), the search tried {fmt_int(r.get('grid_points'))} points "
           f"({fmt_int(r.get('n_screen'))} games each to screen, {fmt_int(r.get('n_final'))} for each finalist, all on "
           f"the same deals) and recommends {point_words(best['point'])}."]
    for t in targets:
        e = m[t.metric]
        out.append(f"{LABELS.get(t.metric, t.metric).capitalize()}: target {band_words(t)}; measured "
                   f"{_fmt(t.metric, e['value'])} (95% CI {_fmt_ci(t.metric, e['ci'])}, n = {fmt_int(e.get('n', m['n']))}): "
                   f"{verdict(t, m)}.")
    ups = r.get("runners_up") or []
    if ups:
        out.append("Runners-up: " + "; ".join(
            f"{point_words(u['point'])} (win rate {fmt_pct(u['measured']['win_rate']['value'], u['measured']['win_rate']['ci'])}, "
            f"miss {u['miss']:.3f})" for u in ups[:3]) + ".")
    for name, sm in (r.get("skill") or {}).items():
        w = sm["win_rate"]
        d = (w["value"] - m["win_rate"]["value"]) * 100
        out.append(f"With a {name} policy the same values give a win rate of {fmt_pct(w['value'], w['ci'])} "
                   f"(95% CI {fmt_ci_pct(w['ci'])}, n = {fmt_int(w['n'])}), {d:+.1f} pts.")
    return out


def _plain_charts(r: dict, targets) -> list[Chart]:
    out = []
    cands = [r["recommended"]] + list(r.get("runners_up") or [])
    rows = []
    for t in targets:
        rows.append({"label": f"{LABELS.get(t.metric, t.metric)}: target {band_words(t)}", "low": t.low, "high": t.high,
                     "pct": t.metric in RATE_TARGETS,
                     "candidates": [{"label": ("★ " if i == 0 else "") + point_words(c["point"]),
                                     "value": c["measured"][t.metric]["value"], "lo": c["measured"][t.metric]["ci"][0],
                                     "hi": c["measured"][t.metric]["ci"][1],
                                     "n": c["measured"][t.metric].get("n", c["measured"]["n"]), "best": i == 0}
                                    for i, c in enumerate(cands)]})
    if rows:
        svg = charts.target_fit(rows, "How close each target came")
        out.append(Chart("How close each target came", Markup(svg),
                         "Green band: the target. Blue (★): the recommended point; grey: the runners-up; bars are 95% "
                         "intervals (Wilson for the win rate, bootstrap for the median, normal otherwise); n = games "
                         "per finalist.", wide=True))
    m = r["recommended"]["measured"]
    labels, vals, lo, hi, ns = [f"assumed: {policy_words(r)}"], [m["win_rate"]["value"]], [m["win_rate"]["ci"][0]], \
        [m["win_rate"]["ci"][1]], [m["win_rate"]["n"]]
    for name, sm in (r.get("skill") or {}).items():
        w = sm["win_rate"]
        labels.append(name), vals.append(w["value"]), lo.append(w["ci"][0]), hi.append(w["ci"][1]), ns.append(w["n"])
    if len(labels) > 1:
        svg = charts.interval_bars(labels, vals, lo, hi, ns, "Skill sensitivity: win rate of the recommended values")
        out.append(Chart("Skill sensitivity", Markup(svg),
                         "The recommended values played by the assumed policy, a weaker and a stronger one; 95% Wilson "
                         "intervals; n = games per bar."))
    return out


def _plain_tables(r: dict, targets) -> list[Table]:
    cands = [("recommended", r["recommended"])] + [(f"runner-up {i + 1}", c) for i, c in enumerate(r.get("runners_up") or [])]
    cols = ["", "parameters"]
    for t in targets:
        cols += [f"{LABELS.get(t.metric, t.metric)}", "95% CI", "target met"]
    cols += ["miss", "n"]
    rows = []
    for label, c in cands:
        m = c["measured"]
        row = [label, point_words(c["point"])]
        for t in targets:
            row += [_fmt(t.metric, m[t.metric]["value"]), _fmt_ci(t.metric, m[t.metric]["ci"]), verdict(t, m)]
        row += [f"{c['miss']:.4f}", fmt_int(m["n"])]
        rows.append(row)
    out = [Table("Recommended values and runners-up", cols, rows,
                 "miss: the summed distance of each measurement from its target band (0 = every target inside its band); "
                 "rates in 0..1, lengths relative to the band's top. Finalists replayed with the full sample.",
                 numeric_from=2)]
    srows = []
    m = r["recommended"]["measured"]
    for name, sm in [(f"assumed ({policy_words(r)})", m)] + list((r.get("skill") or {}).items()):
        w = sm["win_rate"]
        srows.append([name, fmt_pct(w["value"], w["ci"]), fmt_ci_pct(w["ci"]),
                      f"{(w['value'] - m['win_rate']['value']) * 100:+.1f} pts",
                      fmt_num(sm["length_median"]["value"]), fmt_int(w["n"])])
    out.append(Table("Skill sensitivity", ["policy", "win rate", "95% CI", "vs assumed", "median length", "n"], srows))
    return out


# ---------------------------------------------------------------- ladder


def _ladder_sentences(r: dict) -> list[str]:
    lv = r["ladder"]
    hits = [x for x in lv if x["measured"]["win_rate"]["ci"][0] <= x["target"] <= x["measured"]["win_rate"]["ci"][1]]
    worst = max(lv, key=lambda x: abs(x["measured"]["win_rate"]["value"] - x["target"]))
    w = worst["measured"]["win_rate"]
    ladder = ", ".join(f"{x['target']:g}" for x in lv)
    out = [f"Assuming the {policy_words(r)} policy, the search fitted {len(lv)} levels to the target ladder "
           f"({ladder}), trying {fmt_int(r.get('grid_points'))} points per level "
           f"({fmt_int(r.get('n_final'))} games for each finalist, same deals)."]
    out.append(f"{len(hits)} of {len(lv)} levels have the target inside the fitted win rate's 95% interval; the "
               f"farthest is level {worst['level']}: target {worst['target']:.0%}, fitted {fmt_pct(w['value'], w['ci'])} "
               f"(95% CI {fmt_ci_pct(w['ci'])}, n = {fmt_int(w['n'])}), {abs(w['value'] - worst['target']) * 100:.1f} pts away.")
    broken = [x["level"] for x in lv if not x.get("monotone_kept", True)]
    out.append("The fitted ladder keeps the targets' order at every level." if not broken else
               f"No candidate kept the ladder monotone at level{'s' if len(broken) != 1 else ''} "
               f"{', '.join(map(str, broken))}: the closest was used anyway.")
    names = sorted({k for x in lv for k in (x.get("skill") or {})})
    for name in names:
        ds = [(x["skill"][name]["value"] - x["measured"]["win_rate"]["value"]) * 100 for x in lv if name in (x.get("skill") or {})]
        if ds:
            out.append(f"With a {name} policy the same values move the win rate by {min(ds):+.1f} to {max(ds):+.1f} pts "
                       f"per level (mean {sum(ds) / len(ds):+.1f}).")
    return out


def _ladder_charts(r: dict) -> list[Chart]:
    lv = r["ladder"]
    fitted = {"label": f"fitted ({policy_words(r)})", "y": [x["measured"]["win_rate"]["value"] for x in lv],
              "lo": [x["measured"]["win_rate"]["ci"][0] for x in lv], "hi": [x["measured"]["win_rate"]["ci"][1] for x in lv],
              "n": [x["measured"]["win_rate"]["n"] for x in lv]}
    others = []
    for name in sorted({k for x in lv for k in (x.get("skill") or {})}):
        rows = [x["skill"].get(name) for x in lv]
        if all(rows):
            others.append({"label": name, "y": [w["value"] for w in rows], "lo": [w["ci"][0] for w in rows],
                           "hi": [w["ci"][1] for w in rows], "n": [w["n"] for w in rows]})
    svg = charts.ladder_fit([x["level"] for x in lv], [x["target"] for x in lv], fitted, others,
                            "Difficulty ladder: target vs fitted win rate")
    return [Chart("Difficulty ladder: target vs fitted", Markup(svg),
                  "Dashes: the target per level. Blue: the win rate of the recommended values with its 95% Wilson "
                  "interval; the other lines: the same values under a weaker and a stronger policy (skill "
                  "sensitivity). n = games per level.", wide=True)]


def _ladder_tables(r: dict) -> list[Table]:
    lv = r["ladder"]
    names = sorted({k for x in lv for k in (x.get("skill") or {})})
    cols = ["level", "target", "recommended", "fitted win rate", "95% CI", "off by", "monotone", "n"] + names + ["runners-up"]
    rows = []
    for x in lv:
        w = x["measured"]["win_rate"]
        row = [str(x["level"]), f"{x['target']:.0%}", point_words(x["recommended"]), fmt_pct(w["value"], w["ci"]),
               fmt_ci_pct(w["ci"]), f"{(w['value'] - x['target']) * 100:+.1f} pts",
               "kept" if x.get("monotone_kept", True) else "broken", fmt_int(w["n"])]
        for name in names:
            s = (x.get("skill") or {}).get(name)
            row.append(f"{fmt_pct(s['value'], s['ci'])} ({fmt_ci_pct(s['ci'])}, n = {fmt_int(s['n'])})" if s else "–")
        row.append("; ".join(f"{point_words(u['point'])}: {fmt_pct(u['win_rate']['value'], u['win_rate']['ci'])}"
                             for u in x.get("runners_up") or []) or "–")
        rows.append(row)
    return [Table("Fitted ladder", cols, rows, "Intervals 95% Wilson. Runners-up: the next-closest finalists at that level.",
                  numeric_from=3)]


# ---------------------------------------------------------------- the page


def provenance(r: dict, command: str | None) -> list[tuple[str, str]]:
    return [("game", str(r.get("game"))), ("players", str(r.get("players"))),
            ("policies (assumed)", json.dumps(r.get("policies"), sort_keys=True)),
            ("targets", ", ".join(r.get("targets") or [])), ("grid points", fmt_int(r.get("grid_points"))),
            ("games per point, screening", fmt_int(r.get("n_screen"))), ("games per finalist", fmt_int(r.get("n_final"))),
            ("seed", str(r.get("seed"))), ("fixed parameters", json.dumps(r.get("user_params") or {}, sort_keys=True)),
            ("command", command or "–")]


def build_tuning_report(result: dict, command: str | None = None) -> RunReport:
    r = result
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    if r.get("ladder"):
        summary, chart_list, tables = _ladder_sentences(r), _ladder_charts(r), _ladder_tables(r)
        lv = r["ladder"]
        off = max(abs(x["measured"]["win_rate"]["value"] - x["target"]) for x in lv)
        figs = [KeyFigure("levels fitted", str(len(lv)), f"{fmt_int(r.get('grid_points'))} points tried per level"),
                KeyFigure("largest miss", f"{off * 100:.1f} pts", "fitted minus target win rate, any level"),
                KeyFigure("games per level", fmt_int(lv[0]["measured"]["win_rate"]["n"]), f"seed {r.get('seed')}")]
    else:
        targets = _targets(r)
        summary, chart_list, tables = _plain_sentences(r, targets), _plain_charts(r, targets), _plain_tables(r, targets)
        m = r["recommended"]["measured"]
        met = sum(1 for t in targets if verdict(t, m).startswith("met"))
        figs = [KeyFigure("recommended", point_words(r["recommended"]["point"]), f"policy {policy_words(r)}"),
                KeyFigure("targets met", f"{met} of {len(targets)}", "point estimate inside the band"),
                KeyFigure("win rate", fmt_pct(m["win_rate"]["value"], m["win_rate"]["ci"]),
                          f"95% CI {fmt_ci_pct(m['win_rate']['ci'])}, n = {fmt_int(m['n'])}")]
    return RunReport(
        title=f"{r.get('game')}: tuning report",
        subtitle=f"{r.get('game')} · targets {', '.join(r.get('targets') or [])} · policy {policy_words(r)} · "
                 f"seed {r.get('seed')}",
        summary=summary,
        warnings=[],
        key_figures=figs,
        charts=chart_list,
        tables=tables,
        provenance=provenance(r, command),
        generated=now,
        notes=["The answer holds for the policy named: people who play better or worse than it will find the game "
               "easier or harder; the skill-sensitivity rows show by how much."],
        footer=f"Tuning rendered {now} · made by balance from tuning.json.",
    )
