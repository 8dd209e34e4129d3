"""Charts as inline SVG strings, drawn on a bare `matplotlib.figure.Figure`
(never pyplot: no global state, safe in threads and tests).

Text stays text (`svg.fonttype: none`): small files, selectable, crisp in print.
Every chart states its sample size in a label or the title.
"""
from __future__ import annotations

import io
import re
from collections.abc import Sequence

import matplotlib
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from . import fmt

INK = "#1f2933"
MUTED = "#7b8794"
BAR = "#3e7cb1"
GOOD = "#2f855a"
BAD = "#c53030"
CAP = "#b7791f"

RC = {
    "svg.fonttype": "none",
    "svg.hashsalt": "balance",  # stable ids between renders; each chart is prefixed below
    "font.family": ["DejaVu Sans", "sans-serif"],
    "font.size": 9,
    "axes.edgecolor": MUTED,
    "axes.labelcolor": INK,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "xtick.color": INK,
    "ytick.color": INK,
    "axes.titlesize": 10,
}
WIDTH = 6.4  # inches; SVG scales to its column

_counter = 0


def _new(height: float = 2.8) -> Figure:
    return Figure(figsize=(WIDTH, height), layout="constrained")


def to_svg(fig: Figure) -> str:
    """The figure as an inline <svg> element that scales to its container."""
    global _counter
    _counter += 1
    buf = io.StringIO()
    with matplotlib.rc_context(RC):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]  # drop the XML prolog and DOCTYPE
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, count=1, flags=re.S)  # RDF boilerplate (namespace URLs)
    svg = re.sub(r'<svg([^>]*?) width="[^"]+" height="[^"]+"', r'<svg\1 width="100%"', svg, count=1)
    svg = svg.replace("<svg ", '<svg role="img" preserveAspectRatio="xMidYMid meet" ', 1)
    # ids must be unique within the page, which holds several charts
    prefix = f"c{_counter}-"
    svg = re.sub(r'id="([^"]+)"', rf'id="{prefix}\1"', svg)
    svg = re.sub(r'url\(#([^)]+)\)', rf'url(#{prefix}\1)', svg)
    svg = re.sub(r'xlink:href="#([^"]+)"', rf'xlink:href="#{prefix}\1"', svg)
    svg = re.sub(r'href="#([^"]+)"', lambda m: m.group(0) if m.group(1).startswith(prefix) else f'href="#{prefix}{m.group(1)}"', svg)
    return svg


def _draw(build, height: float = 2.8) -> str:
    with matplotlib.rc_context(RC):
        fig = _new(height)
        build(fig)
        return to_svg(fig)


def _pct_axis(ax, axis: str = "x") -> None:
    """Rates (0..1) on this axis, as percentages."""
    (ax.xaxis if axis == "x" else ax.yaxis).set_major_formatter(FuncFormatter(fmt.tick_pct))


def _num_axis(ax, axis: str = "x") -> None:
    """Counts or numbers on this axis, with thousands separators."""
    (ax.xaxis if axis == "x" else ax.yaxis).set_major_formatter(FuncFormatter(fmt.tick_number))


def _pts_axis(ax, axis: str = "x") -> None:
    """Differences of rates on this axis, in points."""
    (ax.xaxis if axis == "x" else ax.yaxis).set_major_formatter(FuncFormatter(fmt.tick_pts))


def interval_bars(labels: Sequence[str], values: Sequence[float], lows: Sequence[float], highs: Sequence[float],
                  ns: Sequence[int], title: str, reference: float | None = None, xlabel: str = "win rate") -> str:
    """Horizontal bars of rates with their 95% intervals; label carries n."""
    rows = len(labels)

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        y = list(range(rows))[::-1]
        vals = [v or 0.0 for v in values]
        err = [[max(0.0, v - lo) for v, lo in zip(vals, lows)], [max(0.0, hi - v) for v, hi in zip(vals, highs)]]
        ax.barh(y, vals, color=BAR, height=0.6)
        ax.errorbar(vals, y, xerr=err, fmt="none", ecolor=INK, capsize=4, lw=1.2)
        ax.set_yticks(y, [f"{lab}\nn = {n:,}" for lab, n in zip(labels, ns)])
        for yy, v, hi in zip(y, vals, highs):
            ax.text(min(hi + 0.01, 1.0), yy, fmt.pct(v), va="center", ha="left" if hi < 0.9 else "right",
                    color=INK if hi < 0.9 else "white", fontsize=8)
        if reference is not None:
            ax.axvline(reference, color=MUTED, ls="--", lw=1)
        ax.set_xlim(0, 1)
        _pct_axis(ax)
        ax.set_xlabel(f"{xlabel} (bars: 95% Wilson interval)")
        ax.set_title(title, loc="left")

    return _draw(build, height=max(1.6, 0.55 * rows + 1.1))


def fair_share_forest(labels: Sequence[str], diffs: Sequence[float], lows: Sequence[float], highs: Sequence[float],
                      ns: Sequence[int], fair: float, title: str) -> str:
    """Each seat's win rate minus its fair share, in points, with its 95% interval,
    around a zero line (the fair share): a 2-point gap is as wide as the axis allows."""
    rows = len(labels)

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        y = list(range(rows))[::-1]
        for yy, d, lo, hi in zip(y, diffs, lows, highs):
            off = lo is not None and hi is not None and (lo > 0 or hi < 0)
            c = (GOOD if d > 0 else BAD) if off else BAR
            if lo is not None and hi is not None:
                ax.plot([lo, hi], [yy, yy], color=c, lw=2.2, solid_capstyle="butt")
                for x in (lo, hi):
                    ax.plot([x, x], [yy - 0.12, yy + 0.12], color=c, lw=1.2)
            ax.plot([d], [yy], "o", color=c, ms=6)
            ax.annotate(fmt.pts(d), (d, yy), xytext=(0, 7), textcoords="offset points", ha="center", va="bottom",
                        fontsize=7.5, color=INK)
        ax.axvline(0, color=INK, lw=1)
        ax.set_yticks(y, [f"{lab}\nn = {n:,}" for lab, n in zip(labels, ns)])
        lo_all = min([v for v in lows if v is not None] + [0.0] + list(diffs))
        hi_all = max([v for v in highs if v is not None] + [0.0] + list(diffs))
        span = max(hi_all - lo_all, 0.01)  # at least one point either side: a tiny gap is not blown up
        pad = span * 0.12
        ax.set_xlim(lo_all - pad, hi_all + pad)
        ax.set_ylim(-0.6, rows - 0.2)
        _pts_axis(ax)
        ax.grid(axis="x", color="#e4e7eb", lw=0.8)
        ax.set_xlabel(f"win rate minus the fair share ({fmt.pct(fair)}), points (bars: 95% interval)")
        ax.set_title(title, loc="left")

    return _draw(build, height=max(1.8, 0.62 * rows + 1.2))


def histogram(values: Sequence[float], counts: Sequence[int], title: str, xlabel: str,
              bin_width: float | None = None, marks: dict[str, float] | None = None,
              highlight: float | None = None) -> str:
    """Counts per value (or bin); `marks` draws labelled vertical lines (median, p10...),
    `highlight` colours the bar at that value (the turn cap)."""
    n = int(sum(counts))

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        width = bin_width or 0.85
        xs = list(values)
        cap_pos = None
        others = [v for v in xs if v != highlight]
        if highlight is not None and highlight in xs and others:
            # the turn cap sits far right of the other lengths: draw it just past them, labelled
            gap = max(2 * (bin_width or 1), (max(others) - min(others)) * 0.08)
            cap_pos = max(others) + gap
            xs = [cap_pos if v == highlight else v for v in xs]
        colors = [CAP if cap_pos is not None and x == cap_pos else BAR for x in xs]
        ax.bar(xs, counts, width=width, color=colors)
        ax.margins(y=0.12)
        # the marks (median, p10, p90) in a legend, not as text beside each line: close
        # quantiles would print their labels over each other
        styles = [("-", 1.4), (":", 1.2), ("--", 1.2), ("-.", 1.2)]
        drawn = False
        for i, (name, x) in enumerate((marks or {}).items()):
            if x is not None:
                ls, lw = styles[i % len(styles)]
                ax.axvline(x, color=INK, ls=ls, lw=lw, label=f"{name} {fmt.tick_number(x)}")
                drawn = True
        if drawn:  # above the bars, right-aligned, in one row: never over the bars or each other
            ax.legend(fontsize=7, frameon=False, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=len(marks),
                      handlelength=2.2, borderaxespad=0.2, columnspacing=1.2)
        if cap_pos is not None:
            lo, hi = min(others), max(others)
            ticks = [t for t in ax.get_xticks() if lo - width <= t <= hi + width]
            ax.set_xticks(ticks + [cap_pos], [fmt.tick_number(t) for t in ticks] + [f"cap {fmt.tick_number(highlight)}"])
        else:
            _num_axis(ax, "x")
        _num_axis(ax, "y")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.set_title(f"{title} (n = {n:,})", loc="left")

    return _draw(build)


def count_bars(labels: Sequence[str], counts: Sequence[int], title: str, highlight: Sequence[str] = ()) -> str:
    """Horizontal bars of counts with the share written beside each."""
    n = int(sum(counts))

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        y = list(range(len(labels)))[::-1]
        colors = [CAP if lab in highlight else BAR for lab in labels]
        ax.barh(y, counts, color=colors, height=0.6)
        ax.set_yticks(y, labels)
        top = max(counts) if counts and max(counts) > 0 else 1
        for yy, c in zip(y, counts):
            ax.text(c + top * 0.01, yy, f"{c:,} ({fmt.pct(c / n)})" if n else "0", va="center", fontsize=8, color=INK)
        ax.set_xlim(0, top * 1.25)
        _num_axis(ax, "x")
        ax.set_xlabel("games")
        ax.set_title(f"{title} (n = {n:,})", loc="left")

    return _draw(build, height=max(1.5, 0.4 * len(labels) + 1.0))


def value_bars(values: Sequence, counts: Sequence[float], title: str, xlabel: str, shares: bool = False,
               n: int | None = None) -> str:
    """Vertical bars: a game's own distribution (value -> count, or -> share of n)."""
    total = n if n is not None else (int(sum(counts)) if not shares else None)

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        x = list(range(len(values)))
        ax.bar(x, counts, color=BAR, width=0.8)
        ax.set_xticks(x, [str(v) for v in values], rotation=0 if len(values) <= 12 else 90)
        if len(values) <= 16:
            for xx, c in zip(x, counts):
                txt = fmt.pct(c) if shares else (fmt.pct(c / total) if total else "")
                ax.text(xx, c, txt, ha="center", va="bottom", fontsize=7, color=INK)
        if shares:
            _pct_axis(ax, "y")
        else:
            _num_axis(ax, "y")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("share" if shares else "games")
        ax.margins(y=0.12)
        ax.set_title(f"{title} (n = {total:,})" if total is not None else f"{title} (n = –)", loc="left")

    return _draw(build)


def ladder(levels: Sequence, values: Sequence[float], lows: Sequence[float], highs: Sequence[float],
           ns: Sequence[int], title: str) -> str:
    """Win rate per difficulty level with 95% intervals."""

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        x = list(range(len(levels)))
        err = [[max(0.0, v - lo) for v, lo in zip(values, lows)], [max(0.0, hi - v) for v, hi in zip(values, highs)]]
        ax.errorbar(x, values, yerr=err, fmt="o-", color=BAR, ecolor=INK, capsize=4, lw=1.5, ms=5)
        ax.set_xticks(x, [f"{lv}\n{n:,}" for lv, n in zip(levels, ns)])
        ax.set_xlabel("level (second line: games)")
        ax.set_ylim(0, 1)
        _pct_axis(ax, "y")
        ax.set_ylabel("win rate")
        ax.grid(axis="y", color="#e4e7eb", lw=0.8)
        ax.set_title(title, loc="left")

    return _draw(build)


def lift_forest(labels: Sequence[str], lifts: Sequence[float], lows: Sequence[float], highs: Sequence[float],
                ns: Sequence[int], title: str) -> str:
    """Card impact: win-rate difference (played - not played) with 95% Newcombe intervals."""

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        y = list(range(len(labels)))[::-1]
        for yy, v, lo, hi in zip(y, lifts, lows, highs):
            c = GOOD if v > 0 else BAD
            ax.plot([lo, hi], [yy, yy], color=c, lw=2)
            ax.plot([v], [yy], "o", color=c, ms=5)
        ax.axvline(0, color=MUTED, lw=1)
        ax.set_yticks(y, [f"{lab} (n = {n:,})" for lab, n in zip(labels, ns)])
        _pts_axis(ax)
        ax.set_xlabel("win rate when played minus when not (95% interval)")
        ax.set_title(title, loc="left")

    return _draw(build, height=max(1.6, 0.32 * len(labels) + 1.1))


# ---------------------------------------------------------------- sweeps, comparisons, tuning, campaigns

SERIES = ["#3e7cb1", "#c05621", "#2f855a", "#805ad5", "#b83280", "#2c7a7b", "#975a16", "#4a5568"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def _n_words(ns: Sequence[int]) -> str:
    ns = [int(n) for n in ns if n is not None]
    if not ns:
        return "n = –"
    lo, hi = min(ns), max(ns)
    return f"n = {lo:,} per point" if lo == hi else f"n = {lo:,}–{hi:,} per point"


def curves(x_labels: Sequence[str], series: Sequence[dict], title: str, xlabel: str, ylabel: str,
           numeric_x: Sequence[float] | None = None, pct: bool = False, reference: float | None = None,
           legend_title: str | None = None) -> str:
    """One line per series against a parameter, each with its 95% interval as a band.

    `series`: dicts with label, y, lo, hi, n (lists aligned with x; None = no point).
    `numeric_x` places points on a number line; without it the x axis is categorical
    (list-valued parameters such as 4-7-10). The title carries n."""
    all_n = [n for s in series for n in s["n"]]

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        xs = list(numeric_x) if numeric_x is not None else list(range(len(x_labels)))
        k = len(series)
        span = (max(xs) - min(xs)) if len(xs) > 1 else 1.0
        for i, s in enumerate(series):
            color = SERIES[i % len(SERIES)]
            pts = [(x, y, lo, hi) for x, y, lo, hi in zip(xs, s["y"], s["lo"], s["hi"]) if y is not None]
            if not pts:
                continue
            px, py, plo, phi = zip(*pts)
            lows = [lo if lo is not None else y for _, y, lo, _ in pts]
            highs = [hi if hi is not None else y for _, y, _, hi in pts]
            if len(pts) > 1:
                ax.fill_between(px, lows, highs, color=color, alpha=0.18, lw=0)
                ax.plot(px, py, "-", color=color, lw=1.5, marker=MARKERS[i % len(MARKERS)], ms=4,
                        label=s["label"])
            else:
                # a single point: its interval as an error bar (a band needs two points)
                off = (i - (k - 1) / 2) * span * 0.01
                ax.errorbar([px[0] + off], py, yerr=[[max(0.0, py[0] - lows[0])], [max(0.0, highs[0] - py[0])]], fmt=MARKERS[i % len(MARKERS)],
                            color=color, capsize=3, ms=4, label=s["label"])
        if numeric_x is None:
            ax.set_xticks(xs, list(x_labels), rotation=0 if len(xs) <= 8 else 45,
                          ha="center" if len(xs) <= 8 else "right")
            ax.set_xlim(-0.4, len(xs) - 0.6)
        elif len(xs) <= 12:
            ax.set_xticks(xs, list(x_labels))
        if reference is not None:
            ax.axhline(reference, color=MUTED, ls="--", lw=1)
        ax.margins(y=0.12)
        if pct:
            lo_y, hi_y = ax.get_ylim()
            if hi_y - lo_y < 0.04:  # a flat rate: show a readable window around it
                mid = (lo_y + hi_y) / 2
                lo_y, hi_y = mid - 0.02, mid + 0.02
            lo_y, hi_y = max(0.0, lo_y), min(1.0, hi_y)
            if hi_y - lo_y < 0.04:
                lo_y, hi_y = (hi_y - 0.04, hi_y) if hi_y >= 1.0 else (lo_y, lo_y + 0.04)
            ax.set_ylim(lo_y, hi_y + 0.002)
            _pct_axis(ax, "y")
        else:
            _num_axis(ax, "y")
        if numeric_x is not None:
            _num_axis(ax, "x")
        ax.grid(axis="y", color="#e4e7eb", lw=0.8)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel + " (band: 95% interval)")
        if k > 1:
            ax.legend(title=legend_title, fontsize=7, title_fontsize=7, frameon=False,
                      loc="center left", bbox_to_anchor=(1.0, 0.5))
        ax.set_title(f"{title} ({_n_words(all_n)})", loc="left")

    return _draw(build, height=3.0)


def heatmap(row_labels: Sequence[str], col_labels: Sequence[str], values, ns, title: str, xlabel: str,
            ylabel: str, cis=None) -> str:
    """Win rate over a two-parameter grid, each cell annotated with its value, interval and n.

    `values`, `ns`, `cis` are row-major nested lists (rows = y parameter); None = no data."""
    import numpy as np

    rows, cols = len(row_labels), len(col_labels)
    dense = rows * cols > 42

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        grid = np.array([[np.nan if v is None else v for v in r] for r in values], dtype=float)
        im = ax.imshow(grid, cmap="RdYlBu", vmin=0.0, vmax=1.0, aspect="auto", origin="lower")
        fs = 5.5 if dense else 7
        for i in range(rows):
            for j in range(cols):
                v = values[i][j]
                if v is None:
                    continue
                txt = fmt.pct(v)
                if not dense:
                    if cis and cis[i][j] and cis[i][j][0] is not None:
                        txt += f"\n±{(cis[i][j][1] - cis[i][j][0]) * 50:.1f} pts"
                    txt += f"\nn = {ns[i][j]:,}"
                dark = v < 0.2 or v > 0.8
                ax.text(j, i, txt, ha="center", va="center", fontsize=fs, color="white" if dark else INK)
        ax.set_xticks(range(cols), list(col_labels), rotation=0 if cols <= 8 else 45)
        ax.set_yticks(range(rows), list(row_labels))
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        cb = fig.colorbar(im, ax=ax, shrink=0.85)
        _pct_axis(cb.ax, "y")
        cb.set_label("win rate")
        flat = [n for r in ns for n in r if n is not None]
        ax.set_title(f"{title} ({_n_words(flat)})", loc="left")

    return _draw(build, height=max(2.6, min(6.5, 0.55 * rows + 1.6)))


def diff_forest(labels: Sequence[str], diffs: Sequence[float], lows: Sequence[float], highs: Sequence[float],
                ns: Sequence[str], significant: Sequence[bool], title: str, xlabel: str, unit: str = "pts",
                scale: float = 100.0) -> str:
    """Differences (B - A) with their 95% intervals around a zero line; significant ones coloured.
    `ns` are ready-made labels ('n = 2,000 pairs')."""

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        y = list(range(len(labels)))[::-1]
        for yy, v, lo, hi, sig in zip(y, diffs, lows, highs, significant):
            c = (GOOD if v > 0 else BAD) if sig else MUTED
            if lo is not None and hi is not None:
                ax.plot([lo, hi], [yy, yy], color=c, lw=2, solid_capstyle="butt")
            ax.plot([v], [yy], "o" if sig else "o", color=c, ms=5, mfc=c if sig else "white")
        ax.axvline(0, color=INK, lw=1)
        ax.set_yticks(y, [f"{lab} ({n})" for lab, n in zip(labels, ns)])
        if unit == "pts" and scale == 100.0:
            _pts_axis(ax)
        else:
            ax.xaxis.set_major_formatter(FuncFormatter(
                lambda v, _: "0" if v == 0 else f"{fmt.tick_number(round(v * scale, 6)) if v < 0 else '+' + fmt.tick_number(round(v * scale, 6))}"
                             f"{' ' + unit if unit and unit != '%' else unit}"))
        lo_all = min([lo for lo in lows if lo is not None] + [0.0])
        hi_all = max([hi for hi in highs if hi is not None] + [0.0])
        pad = (hi_all - lo_all) * 0.08 or 0.01
        ax.set_xlim(lo_all - pad, hi_all + pad)
        ax.set_xlabel(xlabel)
        ax.grid(axis="x", color="#e4e7eb", lw=0.8)
        # at the figure's left, above the row labels: at the axes' left a long title ran past the figure's
        # right edge and was cut off ("... B − A relative to A" in the compare report, session 15)
        fig.suptitle(title, x=0.01, ha="left", fontsize=RC["axes.titlesize"])

    return _draw(build, height=max(1.6, 0.36 * len(labels) + 1.2))


def target_fit(rows: Sequence[dict], title: str) -> str:
    """One panel per tuning target: the target band shaded, the recommended point
    and the runners-up with their 95% intervals.

    rows: dicts with label, low, high (band; None = open), pct (bool), and
    candidates: [{label, value, lo, hi, n, best}]."""
    k = len(rows)

    def build(fig: Figure) -> None:
        axes = fig.subplots(k, 1, squeeze=False)[:, 0]
        for ax, r in zip(axes, rows):
            cands = r["candidates"]
            y = list(range(len(cands)))[::-1]
            vals = [c["value"] for c in cands] + [v for v in (r["low"], r["high"]) if v is not None]
            vals += [c["lo"] for c in cands if c["lo"] is not None] + [c["hi"] for c in cands if c["hi"] is not None]
            lo_all, hi_all = min(vals), max(vals)
            pad = (hi_all - lo_all) * 0.15 or max(abs(hi_all) * 0.1, 0.01)
            left, right = lo_all - pad, hi_all + pad
            band_lo = r["low"] if r["low"] is not None else left
            band_hi = r["high"] if r["high"] is not None else right
            ax.axvspan(band_lo, band_hi, color=GOOD, alpha=0.14, lw=0)
            for v in (r["low"], r["high"]):
                if v is not None:
                    ax.axvline(v, color=GOOD, lw=1, ls="--")
            for yy, c in zip(y, cands):
                col = BAR if c["best"] else MUTED
                if c["lo"] is not None:
                    ax.plot([c["lo"], c["hi"]], [yy, yy], color=col, lw=2)
                ax.plot([c["value"]], [yy], "o", color=col, ms=6 if c["best"] else 4)
            ax.set_yticks(y, [f"{c['label']} (n = {c['n']:,})" for c in cands], fontsize=7)
            ax.set_xlim(left, right)
            ax.set_ylim(-0.6, len(cands) - 0.4)
            if r["pct"]:
                _pct_axis(ax)
            else:
                _num_axis(ax)
            ax.set_title(r["label"], loc="left", fontsize=9)
        axes[-1].set_xlabel("measured value (bar: 95% interval; green: the target)")
        fig.suptitle(title, x=0.01, ha="left", fontsize=10)

    per = max(len(r["candidates"]) for r in rows) * 0.3 + 0.8
    return _draw(build, height=min(9.0, max(2.0, per * k + 0.6)))


def ladder_fit(levels: Sequence, targets: Sequence[float], fitted: dict, others: Sequence[dict], title: str) -> str:
    """Difficulty ladder: the target win rate per level (line), the fitted one with
    its 95% interval, and the same recommendation under other policies.

    fitted / others: dicts with label, y, lo, hi, n (lists aligned with levels)."""
    ns = fitted["n"]

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        x = list(range(len(levels)))
        ax.plot(x, targets, "--", color=INK, lw=1.2, marker="_", ms=14, mew=2, label="target")
        for i, s in enumerate([fitted, *others]):
            color = SERIES[i % len(SERIES)] if i == 0 else [CAP, GOOD, "#805ad5"][(i - 1) % 3]
            off = (i - len(others) / 2) * 0.08
            # (a Wilson bound of k = n is 1 only up to float rounding: never a negative bar)
            err = [[max(0.0, y - lo) for y, lo in zip(s["y"], s["lo"])],
                   [max(0.0, hi - y) for y, hi in zip(s["y"], s["hi"])]]
            ax.errorbar([xx + off for xx in x], s["y"], yerr=err, fmt=MARKERS[i] + ("-" if i == 0 else ":"),
                        color=color, ecolor=color, capsize=3, lw=1.5 if i == 0 else 1, ms=5 if i == 0 else 4,
                        label=f"{s['label']} ({_n_words(s['n'])})")
        ax.set_xticks(x, [f"{lv}" for lv in levels])
        ax.set_xlabel("level")
        ax.set_ylim(0, 1.02)
        _pct_axis(ax, "y")
        ax.set_ylabel("win rate (bars: 95% interval)")
        ax.grid(axis="y", color="#e4e7eb", lw=0.8)
        ax.legend(fontsize=7, frameon=False, loc="lower left")
        ax.set_title(f"{title} ({_n_words(ns)})", loc="left")

    return _draw(build, height=3.2)


def mean_bars(labels: Sequence[str], means: Sequence[float], lows: Sequence[float], highs: Sequence[float],
              ns: Sequence[int], title: str, xlabel: str, ylabel: str, marks: Sequence[float] | None = None,
              mark_label: str = "median") -> str:
    """Vertical bars of means with 95% intervals (n under each label); optional dots (medians)."""

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        x = list(range(len(labels)))
        vals = [m if m is not None else 0.0 for m in means]
        ax.bar(x, vals, color=BAR, width=0.65, label="mean")
        err = [[max(0.0, v - (lo if lo is not None else v)) for v, lo in zip(vals, lows)],
               [max(0.0, (hi if hi is not None else v) - v) for v, hi in zip(vals, highs)]]
        ax.errorbar(x, vals, yerr=err, fmt="none", ecolor=INK, capsize=3, lw=1.1)
        if marks is not None:
            ax.plot([xx for xx, m in zip(x, marks) if m is not None], [m for m in marks if m is not None], "D",
                    color=CAP, ms=4, label=mark_label, ls="none")
            ax.legend(fontsize=7, frameon=False)
        ax.set_xticks(x, [f"{lab}\n{n:,}" for lab, n in zip(labels, ns)])
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        _num_axis(ax, "y")
        ax.margins(y=0.1)
        ax.grid(axis="y", color="#e4e7eb", lw=0.8)
        ax.set_title(title, loc="left")

    return _draw(build, height=2.9)


def tornado(labels: Sequence[str], series: Sequence[dict], margin: float | None, title: str, xlabel: str,
            unit: str = "pts") -> str:
    """A tornado chart: one row per factor (a card, a rule), one bar per change of it
    (`series`: {"name", "color", "diffs", "lows", "highs", "significant"}, each list
    aligned with `labels`, None where the change was not played), from zero to the
    paired difference, its interval as a whisker; the margin of practical
    significance shaded around zero. Rows in the order given (largest effect on top)."""
    k = max(1, len(series))
    width = 0.8 / k

    def build(fig: Figure) -> None:
        ax = fig.add_subplot()
        y0 = list(range(len(labels)))[::-1]
        if margin:
            ax.axvspan(-margin, margin, color="#edf2f7", zorder=0, lw=0)
        for i, row_y in enumerate(y0):
            present = [s for s in series if s["diffs"][i] is not None]  # the changes played, centred on the row
            for q, s in enumerate(present):
                yy = row_y - (q - (len(present) - 1) / 2) * width
                d, lo, hi, sig = s["diffs"][i], s["lows"][i], s["highs"][i], s["significant"][i]
                ax.barh(yy, d, height=width * 0.9, color=s["color"], alpha=1.0 if sig else 0.35, zorder=2)
                if lo is not None and hi is not None:
                    ax.plot([lo, hi], [yy, yy], color=INK, lw=1, zorder=3)
        ax.axvline(0, color=INK, lw=1, zorder=3)
        ax.set_yticks(y0, list(labels))
        if unit == "pts":
            _pts_axis(ax)
        else:  # a difference of means, in the metric's own unit
            ax.xaxis.set_major_formatter(FuncFormatter(
                lambda v, _: "0" if v == 0 else ("+" if v > 0 else "") + fmt.tick_number(round(v, 6))))
        ax.set_xlabel(xlabel)
        ax.grid(axis="x", color="#e4e7eb", lw=0.8, zorder=1)
        if len(series) > 1:
            from matplotlib.patches import Patch

            ax.legend(handles=[Patch(color=s["color"], label=s["name"]) for s in series], loc="lower right",
                      fontsize=7, frameon=False)
        ax.set_title(title, loc="left")

    return _draw(build, height=tornado_height(k, len(labels)))


TORNADO_PAGE = 8.2  # inches at WIDTH: at an A4 page's text width, with its caption, within one printed page


def tornado_height(changes: int, factors: int) -> float:
    """A tornado's height in inches: a row a factor, a bar a change."""
    return max(1.8, (0.16 * max(1, changes) + 0.1) * factors + 1.2)


def tornado_rows_per_page(changes: int) -> int:
    """How many factors one tornado chart holds and still prints on one page with its caption."""
    return max(1, int((TORNADO_PAGE - 1.2) // (0.16 * max(1, changes) + 0.1)))
