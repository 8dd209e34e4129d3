"""View model of the sweep report: a run folder holding several variants (the
points of a parameter grid, all played on the same deals).

Built from summary.json (its `variants` and `paired_vs_first`) and the manifest,
like the run report. Shows each headline metric against each varied parameter
as a curve with its 95% band, a heatmap when exactly two parameters vary, the
table of points, and then the run report's sections for the first point (the
baseline every point is compared with): summary.json gives every number per
point, none pooled over points (they share their deals).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from markupsafe import Markup

from balance.analysis.summary_result import PairedVsFirst, SummaryResult, Variant

from . import charts, context, fmt, verdicts
from .about import build_about
from .run_words import _players_words, _policies_words, seat_name, someone_always_wins, summary_sentences, warnings
from .views import (Chart, KeyFigure, Paragraph, RunReport, Table, _card_chart, _card_tables,
                    _distribution_charts, _end_chart, _end_table, _is_number, _ladder_chart, _ladder_table, _length_chart,
                    _metrics_table, _seat_table, find_anchor, fmt_ci, fmt_ci_pct, fmt_int, fmt_num, fmt_p, fmt_pct,
                    fmt_points, provenance, report_title, run_anchors)

MAX_SERIES = 8  # lines per chart; more combinations of the other parameters are left to the heatmap and table
MAX_GAME_METRICS = 8
ALPHA = 0.05

# ---------------------------------------------------------------- the grid


fmt_value = fmt.value  # a parameter value as the designer typed it: 4-7-10 for lists, true/false for switches


@dataclass(frozen=True)
class Axis:
    name: str
    values: list[Any]  # distinct, in plotting order
    numeric: bool

    @property
    def labels(self) -> list[str]:
        return [fmt_value(v) for v in self.values]


def _key(v) -> str:
    return fmt_value(v)


def varied_names(s: SummaryResult) -> list[str]:
    """The parameters the sweep varied: from the manifest's grid points, else the
    parameters that differ between variants, else the variant names themselves."""
    vs = s.variants or []
    names: list[str] = []
    for v in vs:
        for k in v.varied:
            if k not in names:
                names.append(k)
    if names:
        return names
    keys = []
    for v in vs:
        for k in v.params:
            if k not in keys:
                keys.append(k)
    differ = [k for k in keys if len({_key(v.params.get(k)) for v in vs}) > 1]
    return differ or ["variant"]


def point_value(v: Variant, name: str):
    if name == "variant":
        return v.name
    return v.varied[name] if name in v.varied else v.params.get(name)  # keys: the game's parameter names


def axes(s: SummaryResult) -> list[Axis]:
    out = []
    for name in varied_names(s):
        seen: dict[str, Any] = {}
        for v in s.variants or []:
            val = point_value(v, name)
            seen.setdefault(_key(val), val)
        vals = list(seen.values())
        numeric = all(_is_number(x) for x in vals)
        if numeric:
            vals = sorted(vals)
        out.append(Axis(name, vals, numeric))
    return out


def point_label(v: Variant, names: list[str]) -> str:
    if names == ["variant"]:
        return v.name
    return ", ".join(f"{n}={fmt_value(point_value(v, n))}" for n in names)


# ---------------------------------------------------------------- metrics per point

Getter = Callable[[Variant], "tuple[float | None, float | None, float | None, int | None] | None"]


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    pct: bool
    get: Getter
    group: str


def _seat_getter(seat: int) -> Getter:
    def get(v):
        for r in v.win_rate_by_seat or []:
            if r.seat == seat:
                return r.value, r.ci[0], r.ci[1], r.n
        return None
    return get


def _path_get(d: dict, path: tuple[str, ...]):
    for k in path:
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def _game_metric_getter(path: tuple[str, ...]) -> Getter:
    def get(v):
        e = _path_get(v.game_metrics or {}, path)  # the game's own headline: free-form
        if not isinstance(e, dict):
            return None
        val = e.get("value") if _is_number(e.get("value")) else e.get("mean")
        if not _is_number(val):
            return None
        ci = e.get("ci") or e.get("mean_ci") or [None, None]
        return val, ci[0], ci[1], e.get("n", v.n_games)
    return get


def game_metric_entries(gm: dict, skip: set[str], prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str, bool]]:
    """Numeric entries with an interval in a game's headline: (path, label, is_rate)."""
    out = []
    for k, e in (gm or {}).items():
        if not isinstance(e, dict) or (not prefix and k in skip):
            continue
        path = prefix + (k,)
        label = e.get("label") or ": ".join(p.replace("_", " ") for p in path)
        if _is_number(e.get("value")) and "ci" in e:
            out.append((path, label, "k" in e))
        elif _is_number(e.get("mean")) and ("ci" in e or "mean_ci" in e):
            out.append((path, label, False))
        elif "distribution" not in e:
            out.extend(game_metric_entries(e, skip, path))
    return out


def metrics(s: SummaryResult, vs: list[Variant] | None = None) -> list[Metric]:
    """The figures a sweep report draws per point, read from the points `vs` (default: every point)."""
    vs = vs if vs is not None else s.variants
    first = vs[0]
    coop = s.cooperative
    out = [Metric("win_rate", "team win rate" if coop else "win rate (someone wins)", True,
                  lambda v: (v.win_rate, v.win_rate_ci[0], v.win_rate_ci[1], v.n_games), "Win rate")]
    if not coop:
        for r in first.win_rate_by_seat or []:
            out.append(Metric(f"seat{r.seat}", f"{seat_name(r.seat)} win rate", True, _seat_getter(r.seat), "Win rate"))
    L = first.length.column
    out.append(Metric("length_mean", f"mean length ({L})", False,
                      lambda v: (v.length.mean, *v.length.mean_ci, v.length.n), "Game length"))
    out.append(Metric("length_median", f"median length ({L})", False,
                      lambda v: (v.length.median, *v.length.median_ci, v.length.n), "Game length"))
    skip = {"win_rate", L}
    for path, label, is_rate in game_metric_entries(first.game_metrics or {}, skip)[:MAX_GAME_METRICS]:
        out.append(Metric("gm:" + ".".join(path), label, is_rate, _game_metric_getter(path), "The game's own metrics"))
    return out


def _informative(m: Metric, vs: list[Variant]) -> bool:
    """Worth a curve: it moves between points (a flat 100% "someone wins" says nothing)."""
    vals = [r[0] for r in (m.get(v) for v in vs) if r and r[0] is not None]
    return len(vals) > 0 and max(vals) - min(vals) > 1e-12


# ---------------------------------------------------------------- paired comparisons against the first point


def length_unit(s: SummaryResult) -> str:
    return s.length_unit


def vs_first(s: SummaryResult) -> PairedVsFirst:
    """Each point against the first on win rate, as summary.json's paired block has it (same seeds, game by
    game; Bonferroni intervals and verdicts): the report computes none."""
    return s.paired_vs_first


# ---------------------------------------------------------------- words


def _shape(vals: list[float]) -> str:
    inc = all(a <= b for a, b in zip(vals, vals[1:]))
    dec = all(a >= b for a, b in zip(vals, vals[1:]))
    return "rises steadily" if inc and not dec else "falls steadily" if dec and not inc else \
        "stays flat" if inc and dec else "is not monotone"


def sweep_sentences(s: SummaryResult, ax: list[Axis], cmp: PairedVsFirst) -> list[str]:
    vs = s.variants
    names = [a.name for a in ax]
    out = []
    ns = [v.n_games for v in vs]
    n_words = f"{fmt_int(ns[0])} games each" if len(set(ns)) == 1 else f"{fmt_int(min(ns))}–{fmt_int(max(ns))} games each"
    grid = " × ".join(f"{a.name} = {', '.join(a.labels)}" for a in ax) if names != ["variant"] else \
        ", ".join(v.name for v in vs)
    who = _policies_words(s) or "the policy"
    pairing = "on the same deals"
    out.append(f"This sweep plays {len(vs)} points ({grid}), {n_words} {pairing} "
               f"(seed {s.seed}, {who}).")
    played = [v for v in vs if v.n_games]
    if not played:
        return out + ["No point has finished games yet: nothing to compare."]
    what = "the team's win rate" if s.cooperative else "the share of games someone wins"
    hi = max(played, key=lambda v: v.win_rate)
    lo = min(played, key=lambda v: v.win_rate)
    if hi.win_rate == lo.win_rate:
        out.append(f"Win rate ({what}) is {fmt_pct(hi.win_rate, hi.win_rate_ci)} at every point "
                   f"(95% CI {fmt_ci_pct(hi.win_rate_ci)}, n = {fmt_int(hi.n_games)} each).")
    else:
        out.append(f"Highest win rate ({what}): {point_label(hi, names)}, "
                   f"{fmt_pct(hi.win_rate, hi.win_rate_ci)} (95% CI {fmt_ci_pct(hi.win_rate_ci)}, "
                   f"n = {fmt_int(hi.n_games)}); lowest: {point_label(lo, names)}, "
                   f"{fmt_pct(lo.win_rate, lo.win_rate_ci)} (95% CI {fmt_ci_pct(lo.win_rate_ci)}, "
                   f"n = {fmt_int(lo.n_games)}).")
    seated = [v for v in played if v.win_rate_by_seat]
    if not s.cooperative and seated:
        def s1(v):
            return v.win_rate_by_seat[0]
        a = max(seated, key=lambda v: s1(v).value)
        b = min(seated, key=lambda v: s1(v).value)
        if a is not b:
            out.append(f"Seat 1 wins most at {point_label(a, names)} ({fmt_pct(s1(a).value, s1(a).ci)}, 95% CI "
                       f"{fmt_ci_pct(s1(a).ci)}) and least at {point_label(b, names)} "
                       f"({fmt_pct(s1(b).value, s1(b).ci)}, 95% CI {fmt_ci_pct(s1(b).ci)}).")
    rows = cmp.comparisons
    if rows:
        m = len(rows)
        sig = [c.variant for c in rows if c.win_rate.significant]
        big_c = max(rows, key=lambda c: abs(c.win_rate.diff or 0))
        big = big_c.win_rate
        big_v = next(v for v in vs if v.name == big_c.variant)
        how = (f"paired game by game on the same deals, {cmp.correction}-corrected over {m} "
               f"comparison{'s' if m != 1 else ''}, α = {cmp.alpha}")
        base_v = vs[0]
        head = (f"{len(sig)} of {m} points differ significantly in win rate from the first point "
                f"({point_label(base_v, names)})") if sig else \
            (f"No point differs significantly in win rate from the first ({point_label(base_v, names)})")
        ci = big.ci
        out.append(f"{head} ({how}); the largest change is {fmt_points(big.diff)} at "
                   f"{point_label(big_v, names)} (95% CI {fmt.ci_pts(ci)}, "
                   f"{fmt_p(big.p)}, n = {fmt_int(big_c.n_pairs)}).")
    if len(ax) == 1 and ax[0].numeric and len(ax[0].values) > 2:
        a = ax[0]
        by = {_key(point_value(v, a.name)): v for v in played}
        vals = [by[_key(x)].win_rate for x in a.values if _key(x) in by]
        out.append(f"Win rate {_shape(vals)} as {a.name} goes from {a.labels[0]} to {a.labels[-1]}.")
    if not s.cooperative:
        gaps = [v for v in played if v.seat_gap]
        if gaps:
            sig_gap = [v for v in gaps if v.seat_gap.significant]
            worst = max(gaps, key=lambda v: v.seat_gap.value)
            g = worst.seat_gap
            out.append(f"The seats' win rates differ significantly (the seat test, each game one outcome, "
                       f"α = {ALPHA}) at {len(sig_gap)} of {len(gaps)} points; the largest seat gap is "
                       f"{fmt.pts(g.value, signed=False)} at {point_label(worst, names)} "
                       f"({seat_name(g.best_seat)} over {seat_name(g.worst_seat).lower()}, "
                       f"95% CI {fmt.ci_pts(g.ci, signed=False)}).")
    unit = length_unit(s)
    med = [v for v in played if v.length.median is not None]
    if med:
        a = min(med, key=lambda v: v.length.median)
        b = max(med, key=lambda v: v.length.median)
        if a is b or a.length.median == b.length.median:
            out.append(f"The median length is {fmt_num(a.length.median)} {unit} at every point.")
        else:
            out.append(f"The median game length goes from {fmt_num(a.length.median)} {unit} "
                       f"(95% CI {fmt_ci(a.length.median_ci)}) at {point_label(a, names)} to "
                       f"{fmt_num(b.length.median)} (95% CI {fmt_ci(b.length.median_ci)}) at "
                       f"{point_label(b, names)}.")
    capped = [v for v in played if v.capped]
    if capped:
        out.append(f"{len(capped)} point{'s' if len(capped) != 1 else ''} had games stopped by the turn cap "
                   f"({fmt_int(sum(v.capped for v in capped))} games in all); they count with the result they had.")
    else:
        out.append("No game at any point hit the turn cap.")
    return out


def sweep_warnings(s: SummaryResult, names: list[str]) -> list[str]:
    w = []
    for v in s.variants:
        if v.n_requested and v.n_games < v.n_requested and not v.complete:
            w.append(f"Only {fmt_int(v.n_games)} of {fmt_int(v.n_requested)} requested games finished at "
                     f"{point_label(v, names)}; resume the sweep to complete it.")
        cr = v.capped_rate
        if cr.value and cr.value > 0.01:
            w.append(f"More than 1% of games hit the turn cap at {point_label(v, names)} "
                     f"({fmt_pct(cr.value)}): the cap may be shaping that point's results.")
    return w[:12]


# ---------------------------------------------------------------- charts


def _series_for(m: Metric, vs: list[Variant], ax: Axis, others: list[Axis], names: list[str]) -> list[dict]:
    """One series per combination of the other parameters (all of them in a 1-D sweep: one series)."""
    groups: dict[str, dict[str, dict]] = {}
    for v in vs:
        other = ", ".join(f"{o.name}={fmt_value(point_value(v, o.name))}" for o in others)
        groups.setdefault(other, {})[_key(point_value(v, ax.name))] = v
    series = []
    for label, by in groups.items():
        ys, los, his, ns = [], [], [], []
        for x in ax.values:
            r = m.get(by[_key(x)]) if _key(x) in by else None
            y, lo, hi, n = r if r else (None, None, None, None)
            ys.append(y), los.append(lo), his.append(hi), ns.append(n)
        series.append({"label": label or m.label, "y": ys, "lo": los, "hi": his, "n": [n for n in ns if n is not None]})
    return series


def curve_charts(s: SummaryResult, ax: list[Axis]) -> list[Chart]:
    vs = [v for v in s.variants if v.n_games]
    if not vs:
        return []
    names = [a.name for a in ax]
    every = metrics(s, vs)
    ms = [m for m in every if _informative(m, vs)]
    seat_ms = [m for m in ms if m.key.startswith("seat")]
    out = []
    for a in ax:
        if len(a.values) < 2:
            continue
        others = [o for o in ax if o is not a and len(o.values) > 1]
        xlabel = a.name + ("" if a.numeric else " (categories)")
        numeric_x = [float(x) for x in a.values] if a.numeric else None
        legend = ", ".join(o.name for o in others) or None
        cap_tail = (" One line per value of " + legend + "." if others else "")
        for m in ms:
            if m in seat_ms[1:] or m.key == "length_median" and not others:
                continue
            if m in seat_ms[:1]:
                # all seats on one chart (per combination of the other parameters)
                series = []
                for sm in seat_ms:
                    for sr in _series_for(sm, vs, a, others, names):
                        lab = sm.label.replace(" win rate", "") + (f" · {sr['label']}" if others else "")
                        series.append({**sr, "label": lab})
                title, ylabel, pct = "Win rate by seat", "win rate", True
                ref = None
                cap = (f"Each seat's win rate against {a.name}, 95% Wilson bands; n = games per point."
                       + (" One line per seat and value of " + legend + "." if others else ""))
            elif m.key == "length_mean" and not others:
                series = [{**_series_for(m, vs, a, others, names)[0], "label": "mean"},
                          {**_series_for(next(x for x in every if x.key == "length_median"), vs, a, others, names)[0],
                           "label": "median"}]
                title, ylabel, pct, ref = f"Game length ({length_unit(s)})", length_unit(s), False, None
                cap = (f"Mean (normal 95% interval) and median (bootstrap 95% interval) length against {a.name}; "
                       f"n = games per point.")
            else:
                series = _series_for(m, vs, a, others, names)
                title, ylabel, pct, ref = m.label[:1].upper() + m.label[1:], m.label, m.pct, None
                kind = "Wilson" if m.pct else ("bootstrap" if m.key == "length_median" else "normal")
                cap = f"{m.label[:1].upper() + m.label[1:]} against {a.name}, 95% {kind} bands; n = games per point." + cap_tail
            if len(series) > MAX_SERIES:
                cap += f" Only the first {MAX_SERIES} of {len(series)} lines are drawn; the table has every point."
                series = series[:MAX_SERIES]
            svg = charts.curves(a.labels, series, f"{title} against {a.name}", xlabel, ylabel, numeric_x=numeric_x,
                                pct=pct, reference=ref, legend_title=legend)
            out.append(Chart(f"{title} against {a.name}", Markup(svg), cap, group=m.group))
    order = {"Win rate": 0, "Game length": 1, "The game's own metrics": 2}
    return sorted(out, key=lambda c: order.get(c.group, 9))


def heatmap_charts(s: SummaryResult, ax: list[Axis]) -> list[Chart]:
    """The win rate heatmap; for a competitive game also seat 1's (someone nearly always wins there)."""
    out = [heatmap_chart(s, ax)]
    if not s.cooperative and any(v.win_rate_by_seat for v in s.variants):
        out.append(heatmap_chart(s, ax, seat=0))
    return [c for c in out if c]


def heatmap_chart(s: SummaryResult, ax: list[Axis], seat: int | None = None) -> Chart | None:
    real = [a for a in ax if len(a.values) > 1]
    if len(real) != 2:
        return None
    xa, ya = real
    by = {(_key(point_value(v, xa.name)), _key(point_value(v, ya.name))): v for v in s.variants if v.n_games}
    vals, ns, cis = [], [], []
    for y in ya.values:
        rv, rn, rc = [], [], []
        for x in xa.values:
            v = by.get((_key(x), _key(y)))
            r = (_seat_getter(seat)(v) if seat is not None else
                 (v.win_rate, *v.win_rate_ci, v.n_games)) if v else None
            rv.append(r[0] if r else None)
            rn.append(r[3] if r else None)
            rc.append([r[1], r[2]] if r else None)
        vals.append(rv), ns.append(rn), cis.append(rc)
    what = ("team win rate" if s.cooperative else "win rate (someone wins)") if seat is None else \
        f"{seat_name(seat)} win rate"
    name = "Win rate" if seat is None else f"{seat_name(seat)} win rate"
    svg = charts.heatmap(ya.labels, xa.labels, vals, ns, f"{name} over {xa.name} × {ya.name}", xa.name, ya.name, cis)
    return Chart(f"{name} over {xa.name} × {ya.name}", Markup(svg),
                 f"Each cell: the {what} at that point, ± half the width of its 95% Wilson interval, and n = games "
                 f"played there (same deals at every point). Blank: no games.", group="Win rate", wide=True)


# ---------------------------------------------------------------- tables


@dataclass(frozen=True)
class PointSettings:
    """The settings changed from the game's defaults, per point of the sweep."""

    common: list  # context.Change: the same change at every point, not a varied parameter (in the title)
    extra: dict  # point name -> [Change]: changed at that point, neither varied nor common

    def extra_words(self, name: str) -> str:
        return ", ".join(c.words() for c in self.extra.get(name) or []) or "–"

    @property
    def any_extra(self) -> bool:
        return any(self.extra.values())


def point_settings(s: SummaryResult, names: list[str], spec) -> PointSettings:
    per = {v.name: context.rule_changes(v.params or {}, spec) for v in s.variants or []}
    lists = list(per.values())
    first = lists[0] if lists else []
    common = [c for c in first if c.name not in names and all(any(c.words() == d.words() for d in other)
                                                               for other in lists[1:])]
    shown = set(names) | {c.name for c in common}
    return PointSettings(common, {k: [c for c in v if c.name not in shown] for k, v in per.items()})


def points_table(s: SummaryResult, ax: list[Axis], cmp: PairedVsFirst, settings: PointSettings | None = None) -> Table:
    names = [a.name for a in ax]
    unit = length_unit(s)
    competitive = not s.cooperative and any(v.seat_gap for v in s.variants)
    by_name = names == ["variant"]
    extra = settings is not None and settings.any_extra
    cols = (["variant"] if by_name else names) + (["other changes"] if extra else []) + \
        ["win rate [95% CI]", "vs first point [95% CI]", "p", "verdict"]
    if competitive:
        cols += ["seat gap [95% CI]", "seats"]
    any_cap = any(v.capped for v in s.variants)
    cols += [f"median {unit} [95% CI]", f"mean {unit} [95% CI]"] + (["capped"] if any_cap else []) + ["n"]
    rows = []
    rows_by = {c.variant: c for c in cmp.comparisons}
    for i, v in enumerate(s.variants):
        row = [v.name] if by_name else [fmt_value(point_value(v, n)) for n in names]
        if extra:
            row.append(settings.extra_words(v.name))
        row.append(f"{fmt_pct(v.win_rate)} {fmt_ci_pct(v.win_rate_ci)}")
        c = rows_by.get(v.name)
        if i == 0:
            row += ["(first point)", "–", "reference"]
        elif c is not None and c.win_rate.diff is not None:
            w, mv = c.win_rate, c.win_rate.verdict
            row += [f"{fmt.pts(w.diff)} {fmt.ci_pts(w.ci)}", fmt_p(w.p),
                    ("differs" if w.significant else "not significant")
                    + (f"; {verdicts.LABELS.get(mv.verdict, mv.verdict)}" if mv is not None else "")]
        else:
            row += ["–", "–", "–"]
        if competitive:
            g = v.seat_gap
            row += [f"{fmt.pts(g.value, signed=False)} {fmt.ci_pts(g.ci, signed=False)}" if g else "–",
                    verdicts.LABELS.get(g.verdict.verdict, "–") if g else "–"]
        L = v.length
        row += [f"{fmt_num(L.median)} {fmt_ci(L.median_ci)}", f"{fmt_num(L.mean)} {fmt_ci(L.mean_ci)}",
                ] + ([fmt_int(v.capped)] if any_cap else []) + [fmt_int(v.n_games)]
        rows.append(row)
    how = "paired game by game on the same deals"
    adjusted = ("; its interval is at 1 − α/m, so the verdict is read from the interval shown"
                if cmp.correction == "Bonferroni" else "")
    note = (f"'vs first': win rate minus the first point's ({cmp.baseline}), {how}; verdict after "
            f"{cmp.correction} correction over the {len(cmp.comparisons)} points compared (α = {cmp.alpha}){adjusted}. "
            f"Other intervals 95%: Wilson for rates, bootstrap for medians, normal for means."
            + (" Against the margin (±" + f"{100 * s.margin:g}" + " pts): within the margin, beyond it, "
               "or undecided (more games needed), read from the same interval." if s.margin is not None else "")
            + (" Seat gap: best minus worst seat, every pair of seats compared in the same games; seats: its "
               "verdict against the margin." if competitive else ""))
    return Table("Variants: the points of the sweep", cols, rows, note,
                 numeric_from=(1 if by_name else len(names)) + (1 if extra else 0))


def metric_table(s: SummaryResult, ax: list[Axis]) -> Table | None:
    """The game's own numeric headline metrics at every point."""
    names = [a.name for a in ax]
    ms = [m for m in metrics(s) if m.key.startswith("gm:")]
    if not ms:
        return None
    rows = []
    for v in s.variants:
        for m in ms:
            r = m.get(v)
            if not r:
                continue
            y, lo, hi, n = r
            val = fmt_pct(y, [lo, hi]) if m.pct else fmt_num(y)
            ci = fmt_ci_pct([lo, hi]) if m.pct else fmt_ci([lo, hi])
            rows.append([point_label(v, names), m.label, val, ci, fmt_int(n)])
    return Table("The game's own metrics at each point", ["point", "metric", "value", "95% CI", "n"], rows,
                 numeric_from=2)


# ---------------------------------------------------------------- the page


def key_figures(s: SummaryResult, ax: list[Axis], cmp: PairedVsFirst) -> list[KeyFigure]:
    vs = [v for v in s.variants if v.n_games]
    names = [a.name for a in ax]
    ns = [v.n_games for v in s.variants]
    figs = [KeyFigure("points", fmt_int(len(s.variants)),
                      " × ".join(str(len(a.values)) for a in ax) + f" grid, seed {s.seed}"),
            KeyFigure("games per point", fmt_int(min(ns)) if len(set(ns)) == 1 else f"{fmt_int(min(ns))}–{fmt_int(max(ns))}",
                      f"{fmt_int(sum(ns))} games in all, same deals at every point")]
    if vs and all(someone_always_wins(s.at(v)) for v in vs):  # someone wins every game: seat 1's win rate leads
        def s1(v):
            return next(r for r in v.win_rate_by_seat if r.seat == 0)
        hi, lo = max(vs, key=lambda v: s1(v).value), min(vs, key=lambda v: s1(v).value)
        for label, v in (("seat 1 wins most", hi), ("seat 1 wins least", lo)):
            r = s1(v)
            figs.append(KeyFigure(label, fmt_pct(r.value, r.ci),
                                  f"{point_label(v, names)}; 95% CI {fmt_ci_pct(r.ci)}, n = {fmt_int(r.n)}"))
    elif vs:
        hi = max(vs, key=lambda v: v.win_rate)
        lo = min(vs, key=lambda v: v.win_rate)
        figs.append(KeyFigure("highest win rate", fmt_pct(hi.win_rate, hi.win_rate_ci),
                              f"{point_label(hi, names)}; 95% CI {fmt_ci_pct(hi.win_rate_ci)}, n = {fmt_int(hi.n_games)}"))
        figs.append(KeyFigure("lowest win rate", fmt_pct(lo.win_rate, lo.win_rate_ci),
                              f"{point_label(lo, names)}; 95% CI {fmt_ci_pct(lo.win_rate_ci)}, n = {fmt_int(lo.n_games)}"))
    if cmp.comparisons:
        k = sum(1 for c in cmp.comparisons if c.win_rate.significant)
        figs.append(KeyFigure("differ from the first point", f"{k} of {len(cmp.comparisons)}",
                              f"win rate, paired, {cmp.correction} α = {cmp.alpha}"))
    return figs


def build_sweep_report(summary: SummaryResult, manifest: dict, run_dir: Path, spec=None) -> RunReport:
    s = summary
    ax = axes(s)
    names = [a.name for a in ax]
    cmp = vs_first(s)
    settings = point_settings(s, names, spec)
    first = s.at(s.variants[0])  # the first point as a run's summary: the run report's sections
    fixed = {k: v for k, v in first.params.items() if k not in names}  # the setting the points share (for a ladder)
    # its seats are the first point's (their fair share too, as the tables `At the first point` show)
    about = dataclasses.replace(build_about(first, manifest, Path(run_dir), spec, params=fixed), changes=settings.common)
    chart_list = heatmap_charts(s, ax) + curve_charts(s, ax)
    chart_list += [c for c in (_ladder_chart(s),) if c]
    at_first = f"At the first point ({point_label(s.variants[0], names)})"
    detail = [c for c in (_length_chart(first), _end_chart(first)) if c] + _distribution_charts(first)
    detail += [c for c in (_card_chart(first, about),) if c]
    chart_list += [Chart(c.title, c.svg, c.caption, group=at_first, wide=c.wide) for c in detail]
    tables = [points_table(s, ax, cmp, settings)]
    tables += [t for t in (metric_table(s, ax), _ladder_table(s)) if t]
    first_tables = [_metrics_table(first)] + [t for t in (_seat_table(first, about),) if t] + [_end_table(first)]
    first_tables += _card_tables(first, about)
    tables += [Table(f"{at_first}: {t.title[:1].lower() + t.title[1:]}", t.columns, t.rows, t.note,
                     t.numeric_from) for t in first_tables]
    mode = f" · {s.mode}" if s.mode else ""
    subtitle = (f"{s.game}{mode} · {_players_words(s.players)} · sweep of {len(s.variants)} "
                f"points over {', '.join(names)} · {fmt_int(s.n_games)} games · seed {s.seed}")
    words = sweep_sentences(s, ax, cmp)
    scope = " common to every point" if len(s.variants) > 1 else ""
    words.insert(1, context.settings_sentence(settings.common, about.seats, scope)
                 + (" Some points change more than the varied parameters: see the table's 'other changes'."
                    if settings.any_extra else ""))
    title = report_title(s, "sweep report" + (f" over {', '.join(names)}" if names != ["variant"] else ""), about)
    notes = ["Intervals are 95%: Wilson for rates, normal for means, bootstrap for medians; differences between "
             "points are taken game by game on the same deals when the sweep shares its seed (it does unless "
             "stated), and corrected for the number of points compared (Bonferroni: each 'vs first' interval is at "
             "1 − α/m, and its verdict is read from it). No figure pools the points. Seats are numbered from 1."]
    return RunReport(
        title=title,
        subtitle=subtitle,
        summary=words,
        warnings=sweep_warnings(s, names) + [w for w in warnings(s) if "turn cap" not in w],
        key_figures=key_figures(s, ax, cmp),
        charts=chart_list,
        tables=tables,
        provenance=provenance(manifest, s, Path(run_dir), about, spec),
        generated=s.generated,
        notes=notes,
        paragraphs=[Paragraph(at_first, summary_sentences(first))],
        banners=context.card_banner(about.cards, len(s.variants), about.game_title),
        about=context.about_sentences(about.seats, bool(s.cooperative), about.ladder),
        block=verdicts.sweep_block(s, lambda name: _label_of(s, name, names),
                                   {**run_anchors(chart_list, tables), "points": tables[0].anchor}, first),
    )


def _label_of(s: SummaryResult, name: str, names: list[str]) -> str:
    """A point as the designer set it ('snooze_thresholds=5-8-11'), from its variant name."""
    v = next((x for x in s.variants or [] if x.name == name), None)
    return point_label(v, names) if v is not None else name
