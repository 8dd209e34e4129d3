"""Rule parameters: their declaration (`Param`), and their values from the
command line or a TOML file, checked against the game's declared `Param`s.
Every error names where the value came from, the parameter, and what is
allowed."""
from __future__ import annotations

from collections.abc import Mapping

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .errors import BalanceError
from .files import read_toml


@dataclass(frozen=True)
class Param:
    """A rule parameter: one knob a designer may set with --set or sweep.

    kind: "int", "float", "bool", "ints" (a list, written 5,8,11 or 5-8-11) or
    "floats" (a list of numbers, written 0.8,1.2 or as a TOML list; one value
    for every seat or one per seat, for example) or "file" (a path; "" for
    the game's own file).
    low/high bound every value (each element for lists); choices, when set,
    are the only allowed values. default None means "from the level/table".
    """

    name: str
    kind: str
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple | None = None
    length: int | None = None  # fixed length for "ints" / "floats" (None: any length >= 1)
    # a knob the tools set (card power's `power_card`, `power_seat`), not a designer rule: left out of
    # the listings of parameters (lookup's allowed names, `impact --rules`), still settable by name
    internal: bool = False
    # where the engine reads it: its position in the game's int64 rule table (a list: one position per
    # element), written there by `rule_table`; None: the game compiles it some other way
    slot: int | tuple[int, ...] | None = None

    def allowed(self) -> str:
        if self.choices is not None:
            return ", ".join(str(c) for c in self.choices)
        if self.kind == "bool":
            return "true, false"
        if self.kind == "file":
            return "the path of an existing .toml or .csv file, or empty for the game's own"
        rng = f"{self.low:g}..{self.high:g}" if self.low is not None and self.high is not None else "any"
        if self.kind in ("ints", "floats"):
            n = f"{self.length} " if self.length else ""
            return f"a list of {n}{'integers' if self.kind == 'ints' else 'numbers'} in {rng}"
        return f"{'an integer' if self.kind == 'int' else 'a number'} in {rng}"


def rule_table(params, values: Mapping[str, Any], width: int):
    """A game's int64 rule table for one variant: every declared Param with a `slot` holds its value
    there (a bool as 0/1, a list element by element); the game then writes what it derives."""
    table = np.zeros(width, np.int64)
    for p in params:
        if p.slot is not None and p.kind not in ("int", "bool", "ints"):
            raise ValueError(f"Param {p.name}: a {p.kind} has no rule slot (the int64 table would truncate it)")
        if isinstance(p.slot, tuple):
            table[list(p.slot)] = [int(x) for x in values[p.name]]
        elif p.slot is not None:
            table[p.slot] = int(values[p.name])
    return table


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def coerce(param: Param, raw: Any, source: str) -> Any:
    """Turn a raw value (string from the CLI, or a TOML value) into a checked one."""

    def bad(why: str = "") -> BalanceError:
        extra = f" ({why})" if why else ""
        return BalanceError(f"{source}: {param.name}={raw!r} is not allowed{extra}; allowed: {param.allowed()}")

    if param.kind == "file":
        text = str(raw).strip()
        if text == "":
            return ""  # the game's own file
        path = Path(text).expanduser().resolve()
        if not path.is_file():
            raise bad("no such file")
        if path.suffix.lower() not in (".toml", ".csv"):  # a CSV card list: simcore.cardcsv
            raise bad("not a .toml or .csv file")
        return str(path)
    if param.kind == "bool":
        if isinstance(raw, bool):
            return raw
        s = str(raw).strip().lower()
        if s in _TRUE:
            return True
        if s in _FALSE:
            return False
        raise bad()
    if param.kind in ("ints", "floats"):
        if isinstance(raw, (list, tuple)):
            items = list(raw)
        else:
            s = str(raw).strip()
            # "-" separates ints only: a float list may hold negative numbers or exponents
            sep = "," if ("," in s or param.kind == "floats") else "-"
            items = [x for x in s.split(sep) if x.strip() != ""]
        try:
            if param.kind == "ints":
                values = [int(str(x).strip()) for x in items]
            else:
                values = [float(str(x).strip()) for x in items]
                if not all(math.isfinite(v) for v in values):
                    raise ValueError
        except (ValueError, OverflowError):
            raise bad(f"not a list of {'integers' if param.kind == 'ints' else 'numbers'}") from None
        if param.kind == "floats" and (not values or any(v != v for v in values)):
            raise bad("needs at least one number")
        if param.length and len(values) != param.length:
            raise bad(f"needs {param.length} values")
        for v in values:
            if (param.low is not None and v < param.low) or (param.high is not None and v > param.high):
                raise bad("out of range")
        return values
    try:
        if isinstance(raw, bool):
            raise ValueError  # TOML true/false is not a number
        f = float(raw)
        if not math.isfinite(f):
            raise ValueError
        if param.kind == "int":
            if f != int(f):
                raise ValueError
            value: Any = int(f)
        else:
            value = f
    except (TypeError, ValueError, OverflowError):
        raise bad("not a finite number" if param.kind == "float" else "") from None
    if param.choices is not None and value not in param.choices:
        raise bad()
    if (param.low is not None and value < param.low) or (param.high is not None and value > param.high):
        raise bad("out of range")
    return value


def split_assignment(text: str, option: str) -> tuple[str, str]:
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise BalanceError(f"{option}: '{text}' is not NAME=VALUE")
    return name.strip(), value.strip()


def assignments(items, option: str) -> list[tuple[str, Any]]:
    """NAME=VALUE texts (the command line), or a mapping {name: value} (Python: each value as it is, checked
    like a value read from a TOML file, never turned into text first)."""
    if items is None:
        return []
    if isinstance(items, Mapping):
        return [(str(k), v) for k, v in items.items()]
    if isinstance(items, str):
        items = [items]
    return [split_assignment(str(t), option) for t in items]


def lookup(spec, name: str, source: str) -> Param:
    p = spec.param(name)
    if p is None:
        known = ", ".join(q.name for q in spec.params if not q.internal) or "none"
        raise BalanceError(f"{source}: {spec.name} has no parameter '{name}'; allowed: {known}")
    return p


def user_params(spec, sets: list[str] | None = None, file: Path | None = None,
                extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Validated user values: from a TOML file, then --set, then named options."""
    values: dict[str, Any] = {}
    if file is not None:
        path = Path(file)
        data = read_toml(path, "--params: ", "a TOML file of NAME = VALUE rule parameters")
        for name, raw in data.items():
            values[name] = coerce(lookup(spec, name, str(path)), raw, str(path))
    for name, raw in assignments(sets, "--set"):
        values[name] = coerce(lookup(spec, name, "--set"), raw, "--set")
    for name, raw in (extra or {}).items():
        if raw is not None:
            values[name] = coerce(lookup(spec, name, f"--{name.replace('_', '-')}"), raw, f"--{name.replace('_', '-')}")
    return values


def resolve(spec, user: dict[str, Any]) -> dict[str, Any]:
    """All parameters with defaults filled in (the game may derive some, from
    its rules file or a level table): the parameters of its GameData."""
    return dict(spec.load_data(dict(user)).params)
