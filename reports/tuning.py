"""View model of the tuning report (analysis.tune.tune).

Everything the report measures comes from fresh games: game indices that
played no part in choosing (analysis.tune's module docstring). It shows the
recommended values and how close each target came on those games, how sure
the search is that the pick is best (or which runners-up it cannot tell
apart), the runners-up, the policy the search assumed, and skill sensitivity
(the same answer under a weaker and a stronger policy, paired with it, the
interval saying whether the sign is known). A difficulty ladder gets the
fitted win rate per level against its target with a margin verdict, and each
step between levels checked with its paired interval."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from markupsafe import Markup

from . import charts, context, verdicts
from .views import Chart, KeyFigure, Paragraph, RunReport, Table, fmt_ci, fmt_ci_pct, fmt_int, fmt_num, fmt_pct

RATE_TARGETS = {"win_rate", "seat_gap"}
if TYPE_CHECKING:
    from balance.analysis.tuning_result import Candidate, Certainty, Measured, SkillRow, TuningResult

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


def policy_words(result: TuningResult) -> str:
    names = [p.get("name", "?") for p in result.policies]  # SeatPolicy.describe(): name, kind, params
    if not names:
        return "–"
    return names[0] if len(set(names)) == 1 else ", ".join(names)


def _targets(result: TuningResult):
    from balance.analysis.tune import parse_target

    out = []
    for t in result.targets:
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


def _pts(x) -> str:
    return "–" if x is None else f"{x * 100:+.1f}"


def _pts_ci(ci) -> str:
    return "–" if not ci or ci[0] is None else f"{ci[0] * 100:+.1f} to {ci[1] * 100:+.1f} pts"


def band_words(t) -> str:
    f = lambda v: _fmt(t.metric, v)  # noqa: E731
    if t.low is None:
        return f"at most {f(t.high)}"
    if t.low == t.high:
        return f"exactly {f(t.low)}"
    return f"{f(t.low)} to {f(t.high)}"


def verdict(t, c: Candidate) -> str:
    """A band target against the fresh interval: the candidate's own check (analysis.tune.band_check)."""
    chk = next((b for b in c.targets if b.target == t.describe()), None)
    return (chk.words if chk is not None else None) or "unclear"


def _m(m: Measured, metric: str):
    """A measured metric by its target's name (win_rate, seat_gap, length_mean, length_median)."""
    return getattr(m, metric)


def _games_words(r: TuningResult) -> str:
    return r.games.words or f"{fmt_int(r.n_final)} games per finalist"


def _p_best(c: Certainty | None, i: int) -> str:
    p = c.p_best if c is not None else []
    return f"{100 * p[i]:.0f}%" if i < len(p) else "–"


def _skill_rows(skill: dict[str, SkillRow] | None) -> list[tuple[str, SkillRow]]:
    return list((skill or {}).items())


def _skill_sentence(name: str, sk: SkillRow, where: str = "") -> str:
    w = sk.win_rate
    return (f"{where}With a {name} policy the same values win {fmt_pct(w.value, w.ci)} (95% CI "
            f"{fmt_ci_pct(w.ci)}, n = {fmt_int(w.n)}); against the assumed policy on the same games "
            f"{sk.vs_assumed.words}.")


# ---------------------------------------------------------------- plain targets


def _plain_sentences(r: TuningResult, targets) -> list[str]:
    best = r.recommended
    m = best.measured
    out = [f"Assuming the {policy_words(r)} policy at every seat ({r.players} player"
           f"{'s' if r.players != 1 else ''}), the search tried {fmt_int(r.grid_points)} points "
           f"and recommends {point_words(best.point)}; {_games_words(r)}."]
    for t in targets:
        e = _m(m, t.metric)
        out.append(f"{LABELS.get(t.metric, t.metric).capitalize()}: target {band_words(t)}; on fresh games "
                   f"{_fmt(t.metric, e.value)} (95% CI {_fmt_ci(t.metric, e.ci)}, n = {fmt_int(e.n)}): "
                   f"{verdict(t, best)}.")
    c = r.certainty
    if c:
        out.append(f"How sure: {c.words} ({fmt_int(c.n_boot)} paired resamples of {fmt_int(c.n)} fresh games).")
    ups = r.runners_up or []
    if ups:
        out.append("Runners-up, on the same fresh games: " + "; ".join(
            f"{point_words(u.point)} (win rate {fmt_pct(u.measured.win_rate.value, u.measured.win_rate.ci)}, "
            f"95% CI {fmt_ci_pct(u.measured.win_rate.ci)}, distance {u.miss:.3f})" for u in ups[:3]) + ".")
    for name, sk in _skill_rows(r.skill):
        out.append(_skill_sentence(name, sk))
    return out


def _plain_charts(r: TuningResult, targets) -> list[Chart]:
    out = []
    cands = [r.recommended] + list(r.runners_up or [])
    rows = []
    for t in targets:
        rows.append({"label": f"{LABELS.get(t.metric, t.metric)}: target {band_words(t)}", "low": t.low, "high": t.high,
                     "pct": t.metric in RATE_TARGETS,
                     "candidates": [{"label": ("★ " if i == 0 else "") + point_words(c.point),
                                     "value": _m(c.measured, t.metric).value, "lo": _m(c.measured, t.metric).ci[0],
                                     "hi": _m(c.measured, t.metric).ci[1],
                                     "n": _m(c.measured, t.metric).n, "best": i == 0}
                                    for i, c in enumerate(cands)]})
    if rows:
        svg = charts.target_fit(rows, "How close each target came, on fresh games")
        out.append(Chart("How close each target came", Markup(svg),
                         "Green band: the target. Blue (★): the recommended point; grey: the runners-up; bars are 95% "
                         "intervals from fresh games that played no part in choosing (Wilson for the win rate, bootstrap "
                         "for the median, paired pairwise bounds for the seat gap, normal otherwise); n = fresh games.",
                         wide=True))
    w = r.recommended.measured.win_rate
    labels, vals, lo, hi, ns = [f"assumed: {policy_words(r)}"], [w.value], [w.ci[0]], [w.ci[1]], [w.n]
    for name, sk in _skill_rows(r.skill):
        w = sk.win_rate
        labels.append(name), vals.append(w.value), lo.append(w.ci[0]), hi.append(w.ci[1]), ns.append(w.n)
    if len(labels) > 1:
        svg = charts.interval_bars(labels, vals, lo, hi, ns, "Skill sensitivity: win rate of the recommended values")
        out.append(Chart("Skill sensitivity", Markup(svg),
                         "The recommended values played by the assumed policy, a weaker and a stronger one, on the same "
                         "fresh games; 95% Wilson intervals; n = games per bar (the table gives each paired difference)."))
    return out


def _skill_table(rows: list[tuple[str, str, SkillRow]]) -> Table:
    out = []
    for where, name, sk in rows:
        w, v = sk.win_rate, sk.vs_assumed
        out.append(([where] if where else []) + [name, fmt_pct(w.value, w.ci), fmt_ci_pct(w.ci),
                                                 _pts(v.diff), _pts_ci(v.ci), v.sign,
                                                 fmt_num(sk.length_median.value), fmt_int(w.n)])
    cols = (["level"] if rows and rows[0][0] else []) + ["policy", "win rate", "95% CI", "vs assumed, pts",
                                                          "95% CI (paired)", "sign", "median length", "n"]
    return Table("Skill sensitivity", cols, out,
                 "On the fresh games of the recommendation, paired game by game with the assumed policy (exact "
                 "McNemar; Newcombe interval). sign: 'straddles 0' when the interval cannot tell whether this policy "
                 "wins more or less. The weaker policy plays every fresh game; lookahead plays what a ±5-point "
                 "interval needs (planned from a 100-game pilot's spread).", numeric_from=2 if rows and rows[0][0] else 1)


def _plain_tables(r: TuningResult, targets) -> list[Table]:
    cands = [("recommended", r.recommended)] + [(f"runner-up {i + 1}", c) for i, c in enumerate(r.runners_up or [])]
    cols = ["", "parameters"]
    for t in targets:
        cols += [f"{LABELS.get(t.metric, t.metric)}", "95% CI", "target"]
    cols += ["distance", "closest in", "distance when chosen", "n"]
    rows = []
    for i, (label, c) in enumerate(cands):
        m = c.measured
        row = [label, point_words(c.point)]
        for t in targets:
            row += [_fmt(t.metric, _m(m, t.metric).value), _fmt_ci(t.metric, _m(m, t.metric).ci), verdict(t, c)]
        sel = c.selection
        row += [f"{c.miss:.4f}", _p_best(r.certainty, i), f"{sel.miss:.4f} (n = {fmt_int(sel.n)})", fmt_int(m.n)]
        rows.append(row)
    out = [Table("Recommended values and runners-up, on fresh games", cols, rows,
                 "Measured on fresh games only (game indices never used to choose). distance: the summed distance of "
                 "each measurement from its target band (0 = inside every band); rates in 0..1, lengths relative to "
                 "the band's top. closest in: the share of paired resamples of the fresh games in which it comes "
                 "closest (ties shared). distance when chosen: on the selection games, for the record.",
                 numeric_from=2)]
    out.append(_skill_table([("", name, sk) for name, sk in _skill_rows(r.skill)]))
    return out


# ---------------------------------------------------------------- ladder


def _ladder_sentences(r: TuningResult) -> list[str]:
    lv = r.ladder
    margin = r.margin
    ladder = ", ".join(f"{x.target:g}" for x in lv)
    out = [f"Assuming the {policy_words(r)} policy, the search fitted {len(lv)} levels to the target ladder "
           f"({ladder}), trying {fmt_int(r.grid_points)} points per level; {_games_words(r)}."]
    within = [x for x in lv if x.check.verdict == "within_margin"]
    beyond = [x for x in lv if x.check.verdict == "beyond_margin"]
    inside = [x for x in lv if x.check.target_inside_ci]
    out.append(f"On the fresh games {len(within)} of {len(lv)} levels are within ±{margin * 100:g} points of their "
               f"target and {len(beyond)} off by more; the target lies inside the fitted win rate's 95% interval at "
               f"{len(inside)} of {len(lv)}.")
    worst = max(lv, key=lambda x: abs(x.check.off_by))
    w = worst.measured.win_rate
    out.append(f"The farthest is level {worst.level}: target {worst.target:.0%}, fresh {fmt_pct(w.value, w.ci)} "
               f"(95% CI {fmt_ci_pct(w.ci)}, n = {fmt_int(w.n)}), {worst.check.words}.")
    broken = [x.level for x in lv if not x.monotone_kept]
    out.append("The levels were fitted together so that the chosen win rates follow the targets' order (on the "
               "selection games)." if not broken else
               f"No choice of points kept the targets' order at level{'s' if len(broken) != 1 else ''} "
               f"{', '.join(map(str, broken))} (on the selection games): the closest ladder was used.")
    steps = [x.step for x in lv if x.step]
    if steps:
        by = {k: [x.level for x in lv if x.step is not None and x.step.status == k]
              for k in ("confirmed", "not resolved", "reversed")}
        out.append(f"On the fresh games, paired by game: {len(by['confirmed'])} of {len(steps)} steps between levels "
                   f"are confirmed in the targets' direction"
                   + (f"; not resolved at level{'s' if len(by['not resolved']) != 1 else ''} "
                      f"{', '.join(map(str, by['not resolved']))}" if by["not resolved"] else "")
                   + (f"; reversed at level{'s' if len(by['reversed']) != 1 else ''} "
                      f"{', '.join(map(str, by['reversed']))}" if by["reversed"] else "") + ".")
    unsure = [x.level for x in lv if x.certainty and any(d.indistinguishable for d in x.certainty.vs_pick)]
    if unsure:
        out.append(f"At level{'s' if len(unsure) != 1 else ''} {', '.join(map(str, unsure))} a runner-up is "
                   f"indistinguishable from the pick on the fresh games (see 'closest in').")
    names = sorted({k for x in lv for k in x.skill})
    for name in names:
        rows = [x.skill[name] for x in lv if name in x.skill]
        ds = [s.vs_assumed.diff * 100 for s in rows]
        straddle = [x.level for x in lv if name in x.skill and x.skill[name].vs_assumed.sign == "straddles 0"]
        out.append(f"With a {name} policy the same values move the win rate by {min(ds):+.1f} to {max(ds):+.1f} pts "
                   f"per level (paired, n = {fmt_int(min(s.win_rate.n for s in rows))}–"
                   f"{fmt_int(max(s.win_rate.n for s in rows))} games per level)"
                   + (f"; the interval straddles 0 at level{'s' if len(straddle) != 1 else ''} "
                      f"{', '.join(map(str, straddle))}, so the sign is not known there" if straddle
                      else "; every interval carries a sign") + ".")
    return out


def _ladder_charts(r: TuningResult) -> list[Chart]:
    lv = r.ladder
    fitted = {"label": f"fitted ({policy_words(r)}), fresh games", "y": [x.measured.win_rate.value for x in lv],
              "lo": [x.measured.win_rate.ci[0] for x in lv], "hi": [x.measured.win_rate.ci[1] for x in lv],
              "n": [x.measured.win_rate.n for x in lv]}
    others = []
    for name in sorted({k for x in lv for k in x.skill}):
        rows = [x.skill.get(name) for x in lv]
        if all(rows):
            ws = [s.win_rate for s in rows]
            others.append({"label": name, "y": [w.value for w in ws], "lo": [w.ci[0] for w in ws],
                           "hi": [w.ci[1] for w in ws], "n": [w.n for w in ws]})
    svg = charts.ladder_fit([x.level for x in lv], [x.target for x in lv], fitted, others,
                            "Difficulty ladder: target vs fitted win rate (fresh games)")
    return [Chart("Difficulty ladder: target vs fitted", Markup(svg),
                  "Dashes: the target per level. Blue: the win rate of the recommended values on fresh games (never "
                  "used to choose) with its 95% Wilson interval; the other lines: the same values under a weaker and "
                  "a stronger policy on the same games (skill sensitivity). n = fresh games per level.", wide=True)]


def _ladder_tables(r: TuningResult) -> list[Table]:
    lv = r.ladder
    cols = ["level", "target", "recommended", "fresh win rate", "95% CI", "off by", "verdict", "step from the level "
            "before", "closest in", "when chosen", "n", "runners-up (fresh)"]
    rows = []
    for x in lv:
        w = x.measured.win_rate
        sel = x.selection
        step = x.step
        rows.append([str(x.level), f"{x.target:.0%}", point_words(x.recommended), fmt_pct(w.value, w.ci),
                     fmt_ci_pct(w.ci), f"{x.check.off_by * 100:+.1f} pts", x.check.words,
                     (f"{_pts(step.diff)} ({_pts_ci(step.ci)}): {step.status}" if step else "–"),
                     _p_best(x.certainty, 0),
                     f"{fmt_pct(sel.win_rate)} (n = {fmt_int(sel.n)})" + ("" if x.monotone_kept else ", order broken"),
                     fmt_int(w.n),
                     "; ".join(f"{point_words(u.point)}: {fmt_pct(u.win_rate.value, u.win_rate.ci)}"
                               for u in x.runners_up) or "–"])
    out = [Table("Fitted ladder, on fresh games", cols, rows,
                 f"Fresh games only (never used to choose). verdict: the fresh win rate minus the target against the "
                 f"±{r.margin * 100:g}-point margin. step: this level's win rate minus the previous "
                 f"level's, paired by game (exact McNemar; Newcombe interval): confirmed when the interval lies on the "
                 f"targets' side of 0. closest in: the share of paired resamples in which the pick comes closest to "
                 f"the target among the level's candidates. when chosen: the win rate on the selection games.",
                 numeric_from=3)]
    srows = []
    for x in lv:
        for name, sk in _skill_rows(x.skill):
            srows.append((str(x.level), name, sk))
    if srows:
        out.append(_skill_table(srows))
    return out


def verdict_sentences(r: TuningResult) -> list[str]:
    v = r.verdicts
    out = [f"Margin: ±{v.margin * 100:g} points (--margin)."]
    for it in v.items:
        out.append(f"{it.metric}: {it.words}" + (f" (95% CI {_pts_ci(it.ci)}, n = {fmt_int(it.n)})"
                                                 if it.id in ("level", "step") and it.ci[0] is not None else "") + ".")
    return out


# ---------------------------------------------------------------- the page


def provenance(r: TuningResult, command: str | None) -> list[tuple[str, str]]:
    g = r.games
    return [("game", str(r.game)), ("players", str(r.players)),
            ("policies (assumed)", json.dumps(r.policies, sort_keys=True)),
            ("targets", ", ".join(r.targets)), ("grid points", fmt_int(r.grid_points)),
            ("games per point, screening", fmt_int(r.n_screen)), ("games per finalist", fmt_int(r.n_final)),
            ("fresh games", fmt_int(r.n_fresh)),
            ("game indices", f"screening {g.screening}, selection {g.selection}, fresh {g.fresh}"),
            ("margin", str(r.margin)),
            ("seed", str(r.seed)), ("fixed parameters", json.dumps(r.user_params, sort_keys=True)),
            ("command", command or "–")]


def build_tuning_report(result: TuningResult, command: str | None = None, spec=None) -> RunReport:
    r = result
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    if r.ladder:
        summary, chart_list, tables = _ladder_sentences(r), _ladder_charts(r), _ladder_tables(r)
        lv = r.ladder
        off = max(abs(x.check.off_by) for x in lv)
        within = sum(1 for x in lv if x.check.verdict == "within_margin")
        figs = [KeyFigure("levels fitted", str(len(lv)), f"{fmt_int(r.grid_points)} points tried per level"),
                KeyFigure("within the margin", f"{within} of {len(lv)}",
                          f"fresh win rate within ±{r.margin * 100:g} pts of the target, whole interval"),
                KeyFigure("largest miss", f"{off * 100:.1f} pts", "fresh win rate minus target, any level"),
                KeyFigure("fresh games per level", fmt_int(lv[0].measured.win_rate.n), f"seed {r.seed}")]
    else:
        targets = _targets(r)
        summary, chart_list, tables = _plain_sentences(r, targets), _plain_charts(r, targets), _plain_tables(r, targets)
        best = r.recommended
        m = best.measured
        met = sum(1 for t in targets if verdict(t, best).startswith("met"))
        figs = [KeyFigure("recommended", point_words(best.point), f"policy {policy_words(r)}"),
                KeyFigure("targets met", f"{met} of {len(targets)}", "whole fresh interval inside the band"),
                KeyFigure("win rate", fmt_pct(m.win_rate.value, m.win_rate.ci),
                          f"95% CI {fmt_ci_pct(m.win_rate.ci)}, n = {fmt_int(m.n)} fresh games")]
        if r.certainty:
            figs.append(KeyFigure("pick closest in", _p_best(r.certainty, 0), "of paired resamples of the fresh games"))
    anchors = {"fit": next((c.anchor for c in chart_list if "target" in c.title.lower() or "close" in c.title.lower()),
                           tables[0].anchor if tables else ""),
               "ladder": tables[0].anchor if tables else ""}
    cards = context.card_lists_of(r.card_list, str(r.game))
    return RunReport(
        title=f"{r.game}: tuning report",
        subtitle=f"{r.game} · targets {', '.join(r.targets)} · policy {policy_words(r)} · "
                 f"seed {r.seed}",
        summary=summary,
        warnings=[],
        key_figures=figs,
        charts=chart_list,
        tables=tables,
        provenance=provenance(r, command),
        generated=now,
        notes=["Chosen on one range of games, measured on another: every interval in this report comes from fresh "
               "games that played no part in the choice, so a lucky draw while searching does not show as a good fit.",
               "The answer holds for the policy named: people who play better or worse than it will find the game "
               "easier or harder; the skill-sensitivity rows show by how much."],
        paragraphs=[Paragraph("Verdicts in detail", verdict_sentences(r))],
        footer=f"Tuning rendered {now} · made by balance from tuning.json.",
        banners=context.card_banner(cards, 1, getattr(spec, "title", "") or "", "This tuning"),
        block=verdicts.tune_block(r, anchors, LABELS, {t.describe(): (t.metric, band_words(t)) for t in _targets(r)}),
    )
