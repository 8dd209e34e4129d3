"""Sweeps: a grid over named rule parameters, every point a variant of one
run, all points on the same deals (same seed, same game indices), so the
differences between points are paired.

SPEC syntax for `--vary NAME=SPEC`:
  0..6          an inclusive integer range
  0.1..0.5:0.1  a stepped range (integers or numbers)
  3,4,5         a list
  4-7-10|5-8-11 a list of list values (for list parameters such as snooze_thresholds;
                per-seat numbers as 1.5,2,2.5|2,2,2, or a range 1.5..3:0.5 for all seats)
  true,false    for switches
"""
from __future__ import annotations

from collections.abc import Mapping

import itertools
from decimal import Decimal
from typing import Any

from balance.simcore.errors import BalanceError
from balance.simcore.params import coerce, lookup, resolve, split_assignment
from balance.simcore.spec import GameSpec

from .runs import RunConfig, Variant, default_chunk_size

MAX_POINTS = 10_000


def _range(text: str) -> list[str]:
    body, _, step = text.partition(":")
    lo, _, hi = body.partition("..")
    try:
        a, b = Decimal(lo.strip()), Decimal(hi.strip())
        s = Decimal(step.strip()) if step else Decimal(1)
    except Exception:
        raise ValueError from None
    if s <= 0 or b < a:
        raise ValueError
    out, x = [], a
    while x <= b and len(out) <= MAX_POINTS:
        out.append(str(x))
        x += s
    return out


def parse_values(spec: GameSpec, text: str | tuple[str, Any]) -> tuple[str, list[Any]]:
    """`NAME=SPEC` -> (name, checked values); from Python, (name, SPEC) or (name, [values])."""
    name, raw = text if isinstance(text, tuple) else split_assignment(text, "--vary")
    param = lookup(spec, name, "--vary")
    source = "--vary"
    if not isinstance(raw, str):  # Python: the values themselves (a list, a range), each checked as it is
        items = list(raw) if isinstance(raw, (list, tuple, range)) else [raw]
        if param.kind in ("ints", "floats") and items and not isinstance(items[0], (list, tuple)):
            items = [items]  # one list value
    elif param.kind in ("ints", "floats") and not (param.kind == "floats" and ".." in raw and "|" not in raw):
        items = [x for x in raw.split("|") if x.strip()]
    elif ".." in raw:
        if param.kind not in ("int", "float", "floats"):  # a floats range: one value for every seat per point
            raise BalanceError(f"--vary: {name} takes a list, not a range; allowed: {param.allowed()}")
        try:
            items = _range(raw)
        except ValueError:
            raise BalanceError(f"--vary: '{raw}' is not a range like 0..6 or 0.1..0.5:0.1") from None
    else:
        items = [x for x in raw.split(",") if x.strip()]
    if not items:
        raise BalanceError(f"--vary: {name} has no values; allowed: {param.allowed()}")
    values = [coerce(param, x, source) for x in items]
    return name, values


def grid(spec: GameSpec, varies) -> list[dict[str, Any]]:
    """The points of --vary NAME=SPEC texts, or of a mapping {name: SPEC or [values]} (Python)."""
    items = list(varies.items()) if isinstance(varies, Mapping) else [varies] if isinstance(varies, str) else varies
    axes = [parse_values(spec, v) for v in items]
    names = [a[0] for a in axes]
    if len(set(names)) != len(names):
        raise BalanceError("--vary: each parameter may be varied once")
    points = [dict(zip(names, combo)) for combo in itertools.product(*[a[1] for a in axes])]
    if len(points) > MAX_POINTS:
        raise BalanceError(f"--vary: {len(points)} grid points is too many; allowed: at most {MAX_POINTS}")
    return points


def point_name(point: dict[str, Any]) -> str:
    def fmt(v):
        return "-".join(str(x) for x in v) if isinstance(v, list) else str(v).lower() if isinstance(v, bool) else str(v)

    return ",".join(f"{k}={fmt(v)}" for k, v in point.items())


def sweep_config(spec: GameSpec, user: dict, points: list[dict], players: int, policies, seed: int,
                 n_games: int, chunk_size: int | None = None) -> RunConfig:
    variants = [Variant(point_name(p), resolve(spec, {**user, **p}), p) for p in points]
    return RunConfig(spec.name, spec.modes[0], players, policies, seed, variants,
                     chunk_size or default_chunk_size(n_games))
