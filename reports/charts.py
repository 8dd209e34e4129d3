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
    from matplotlib.ticker import PercentFormatter

    (ax.xaxis if axis == "x" else ax.yaxis).set_major_formatter(PercentFormatter(1.0, decimals=0))


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
            ax.text(min(hi + 0.01, 1.0), yy, f"{v:.1%}", va="center", ha="left" if hi < 0.9 else "right",
                    color=INK if hi < 0.9 else "white", fontsize=8)
        if reference is not None:
            ax.axvline(reference, color=MUTED, ls="--", lw=1)
        ax.set_xlim(0, 1)
        _pct_axis(ax)
        ax.set_xlabel(f"{xlabel} (bars: 95% Wilson interval)")
        ax.set_title(title, loc="left")

    return _draw(build, height=max(1.6, 0.55 * rows + 1.1))


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
        ax.margins(y=0.18)
        top = ax.get_ylim()[1]
        for i, (name, x) in enumerate((marks or {}).items()):
            if x is not None:
                ax.axvline(x, color=INK, ls=":", lw=1)
                ax.text(x, top * (0.97 - 0.08 * i), f" {name} {x:g}", va="top", ha="left", fontsize=7, color=INK)
        if cap_pos is not None:
            lo, hi = min(others), max(others)
            ticks = [t for t in ax.get_xticks() if lo - width <= t <= hi + width]
            ax.set_xticks(ticks + [cap_pos], [f"{t:g}" for t in ticks] + [f"cap {highlight:g}"])
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
            ax.text(c + top * 0.01, yy, f"{c:,} ({c / n:.1%})" if n else "0", va="center", fontsize=8, color=INK)
        ax.set_xlim(0, top * 1.25)
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
                txt = f"{c:.1%}" if shares else (f"{c / total:.1%}" if total else "")
                ax.text(xx, c, txt, ha="center", va="bottom", fontsize=7, color=INK)
        if shares:
            _pct_axis(ax, "y")
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
        err = [[v - lo for v, lo in zip(values, lows)], [hi - v for v, hi in zip(values, highs)]]
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
        from matplotlib.ticker import FuncFormatter

        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v * 100:+.0f} pts"))
        ax.set_xlabel("win rate when played minus when not (95% interval)")
        ax.set_title(title, loc="left")

    return _draw(build, height=max(1.6, 0.32 * len(labels) + 1.1))
