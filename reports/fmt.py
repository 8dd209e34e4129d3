"""The one number format of every report (run, sweep, comparison, tuning,
campaign), the charts' axis ticks included.

- counts and numbers with thousands separators: 1,234 · 12.35 · 1,234.5
- rates as percentages with one decimal: 43.3% (below 0.05% but not zero:
  "<0.1%", above 99.95% but not one: ">99.9%", so a rare event never reads 0.0%)
- differences of rates in points, signed: +2.3 pts
- intervals in square brackets: [42.1%, 44.5%] · [-1.0, +3.6] pts · [12.3, 14.5]
- p-values: p < 0.001 · p = 0.034
- a parameter value as a designer types it: 4-7-10 for lists, true/false

A value that is missing is "–". A unit stays with its number and a p-value
holds together and an interval too (non-breaking spaces: "+2.3\u00a0pts", "p\u00a0=\u00a00.034",
"[42.1%,\u00a044.5%]"), so a narrow column wraps between an estimate and its
interval, never inside one.
"""
from __future__ import annotations

import math
import numbers

MISSING = "–"
NBSP = "\u00a0"


def _ok(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v)


def int_(n) -> str:
    """A count: 1,234."""
    return f"{int(n):,}" if _ok(n) else MISSING


def num(v, digits: int = 2) -> str:
    """A number: integers bare (1,234), others with `digits` decimals (12.35)."""
    if not _ok(v):
        return MISSING
    if float(v).is_integer() and abs(v) < 1e15:
        return f"{int(v):,}"
    return f"{v:,.{digits}f}"


def pct(v) -> str:
    """A rate (0..1) as a percentage with one decimal."""
    if not _ok(v):
        return MISSING
    if 1e-9 < v < 0.0005:
        return "<0.1%"
    if 0.9995 < v < 1 - 1e-9:  # (a Wilson bound of k = n is 1 up to float rounding)
        return ">99.9%"
    return f"{v * 100:.1f}%"


def pts(d, signed: bool = True) -> str:
    """A difference of two rates, in percentage points: +2.3 pts (a gap, never negative: 2.3 pts)."""
    if not _ok(d):
        return MISSING
    return f"{d * 100:+.1f}{NBSP}pts" if signed else f"{d * 100:.1f}{NBSP}pts"


def _pair(ci) -> tuple | None:
    if not ci or len(ci) < 2 or not _ok(ci[0]) or not _ok(ci[1]):
        return None
    return ci[0], ci[1]


def ci_pct(ci) -> str:
    """An interval of rates: [42.1%, 44.5%]."""
    c = _pair(ci)
    return f"[{pct(c[0])},{NBSP}{pct(c[1])}]" if c else MISSING


def ci_pts(ci, signed: bool = True) -> str:
    """An interval of differences of rates: [-1.0, +3.6] pts (of a gap: [1.0, 3.6] pts)."""
    c = _pair(ci)
    if not c:
        return MISSING
    f = "+.1f" if signed else ".1f"
    return f"[{c[0] * 100:{f}},{NBSP}{c[1] * 100:{f}}]{NBSP}pts"


def ci_num(ci, digits: int = 2) -> str:
    """An interval of numbers: [12.3, 14.5]."""
    c = _pair(ci)
    return f"[{num(c[0], digits)},{NBSP}{num(c[1], digits)}]" if c else MISSING


def rate(v, ci, n=None) -> str:
    """A rate in a sentence: 43.3% (95% CI [42.1%, 44.5%], n = 1,000)."""
    tail = f", n = {int_(n)}" if n is not None else ""
    return f"{pct(v)} (95% CI {ci_pct(ci)}{tail})"


def diff(d, ci) -> str:
    """A difference of rates in a sentence: +2.3 pts (95% CI [+1.0, +3.6] pts)."""
    return f"{pts(d)} (95% CI {ci_pts(ci)})"


def p(value) -> str:
    if not _ok(value):
        return MISSING
    return f"p{NBSP}<{NBSP}0.001" if value < 0.001 else f"p{NBSP}={NBSP}{value:.3f}"


def value(v) -> str:
    """A parameter value as the designer typed it: 4-7-10 for lists, true/false for switches."""
    if isinstance(v, (list, tuple)):
        return "-".join(value(x) for x in v)
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 game', '2 games' (with the count formatted)."""
    return f"{int_(n)} {word if n == 1 else (many or word + 's')}"


# ---------------------------------------------------------------- axis ticks (matplotlib FuncFormatter callables)


def tick_number(x, _pos=None) -> str:
    """A count or number on an axis, with thousands separators: 1,000 · 2.5."""
    if float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.2f}".rstrip("0").rstrip(".")


def tick_pct(x, _pos=None) -> str:
    """A rate on an axis: 40% (one decimal only where the ticks need it: 40.5%)."""
    v = round(x * 100, 6)
    return f"{v:.0f}%" if float(v).is_integer() else f"{v:.1f}%"


def tick_pts(x, _pos=None) -> str:
    """A difference of rates on an axis: +2 pts, 0, -1.5 pts."""
    v = round(x * 100, 6)
    if v == 0:
        return "0"
    return f"{v:+.0f} pts" if float(v).is_integer() else f"{v:+.1f} pts"


# ---------------------------------------------------------------- words of the verdict block (reports/verdicts.py)


def points(d) -> str:
    """A difference of rates in a sentence, unsigned, in words: '4.1 points' (the sign is said in words)."""
    if not _ok(d):
        return MISSING
    return f"{abs(d) * 100:.1f}{NBSP}points"


def margin_points(m) -> str:
    """A margin of rates in words: '2 points' (0.02), '0.5 points'."""
    return f"{m * 100:g}{NBSP}point{'' if m * 100 == 1 else 's'}" if _ok(m) else MISSING


def margin_adj(m) -> str:
    """A margin as an adjective: 'your 2-point margin'."""
    return f"{m * 100:g}-point" if _ok(m) else MISSING


def round_up(n) -> int:
    """A number of games to suggest, rounded up to two significant figures: 26,353 -> 27,000."""
    n = int(math.ceil(n)) if _ok(n) else 0
    if n <= 0:
        return 0
    step = 10 ** max(0, len(str(n)) - 2)
    return -(-n // step) * step


def anchor(kind: str, title: str) -> str:
    """The id of a chart or table in the page ('table-win-rate-by-seat'), so a verdict can link to it."""
    words = "".join(c if c.isalnum() else "-" for c in title.lower())
    return f"{kind}-" + "-".join(w for w in words.split("-") if w)[:60]


SENTENCE_WORDS = {"seats", "seat", "the", "not", "moving", "at", "with", "b's", "someone", "nobody", "no", "one",
                  "it", "this", "every", "all", "a", "an"}


def lower_first(sentence: str) -> str:
    """A sentence continued after a colon: its first word lowercased when it is an ordinary word ('Seats are
    ...' -> 'seats are ...'), never a name ('Axe Man ...' stays)."""
    word = sentence.split(" ", 1)[0]
    return sentence[:1].lower() + sentence[1:] if word.lower() in SENTENCE_WORDS else sentence
