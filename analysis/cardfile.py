"""Card lists as data: write a parsed card file back as TOML, and edit one
card kind's copies (what `balance impact` plays).

`dumps(doc)` writes the subset of TOML the card files use: top-level keys,
tables (`[starting_employee]`), arrays of tables (`[[card]]`), and inside
them strings, integers, finite floats, booleans, arrays and inline tables
(`effects = [{op = "work", n = 2}]`). `simcore.files.parse_toml(dumps(doc))`
gives `doc` back (tests/analysis/test_impact.py round-trips every shipped
card file). Comments are not kept: a written list starts with its own header
saying where it came from. Nothing written here is ever executed.

A card kind is one entry of a section the game declares
(`simcore.gamedata.CardSection`): its name field and its count field, whose
declared limits an edit must respect; rules between entries (a deck's size,
one Boss) are the game loader's, so an edited list is accepted only if the
game loads it (analysis.impact does that).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from balance.simcore.errors import BalanceError

_BARE = re.compile(r"[A-Za-z0-9_-]+\Z")  # \Z, not $: "0\n" is not a bare key
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _key(k: str) -> str:
    if not isinstance(k, str):
        raise BalanceError(f"card list: key {k!r} is not a text; allowed: TOML keys")
    return k if _BARE.fullmatch(k) else _string(k)


def _string(s: str) -> str:
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise BalanceError(f"card list: {v!r} is not a finite number; allowed: finite numbers only")
        text = repr(v)
        return text if any(c in text for c in ".eE") else text + ".0"
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise BalanceError(f"card list: a value of type {type(v).__name__} cannot be written; "
                       "allowed: texts, numbers, booleans, lists and tables")


def _is_table_array(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def _body(table: dict) -> list[str]:
    """The key = value lines of one table (nested tables inline)."""
    return [f"{_key(k)} = {_value(v)}" for k, v in table.items()]


def dumps(doc: dict, header: str = "") -> str:
    """`doc` (a parsed card file) as TOML text; `header` becomes comment lines on top."""
    lines = [f"# {line}".rstrip() for line in header.splitlines()] if header else []
    plain = {k: v for k, v in doc.items() if not isinstance(v, dict) and not _is_table_array(v)}
    if lines and plain:
        lines.append("")
    lines += _body(plain)
    for k, v in doc.items():
        if isinstance(v, dict):
            lines += ["", f"[{_key(k)}]"] + _body(v)
    for k, v in doc.items():
        if _is_table_array(v):
            for item in v:
                lines += ["", f"[[{_key(k)}]]"] + _body(item)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- card kinds and their copies
CHANGES = ("remove_one", "remove_all", "add_one")
CHANGE_WORDS = {"remove_one": "one copy removed", "remove_all": "all copies removed", "add_one": "one copy added"}


@dataclass(frozen=True)
class Kind:
    """One card kind of a card list: where it is and how many copies it has."""

    name: str
    section: str
    index: int  # its entry in the section
    count_field: str | None  # the declared count field (None: the file gives no count)
    count: int | None  # its copies (None when the file gives no count)
    field: Any = None  # the declared simcore.gamedata.Field, with its limits


def kinds(doc: dict, sections) -> list[Kind]:
    """Every card kind of the declared sections, in file order."""
    out = []
    for sec in sections:
        entries = doc.get(sec.section)
        if not isinstance(entries, list):
            continue
        for i, e in enumerate(entries):
            if not isinstance(e, dict) or not isinstance(e.get(sec.key), str):
                continue
            count = None
            if sec.count is not None:
                raw = e.get(sec.count.name, sec.count.default)
                count = raw if isinstance(raw, int) and not isinstance(raw, bool) else None
            out.append(Kind(e[sec.key], sec.section, i, sec.count.name if sec.count is not None else None, count,
                            sec.count))
    return out


def _allowed(field, value: int) -> str | None:
    """Why the count field does not allow `value` (None: it does)."""
    if field.choices is not None and value not in field.choices:
        return f"its count field '{field.name}' allows {field.allowed()}"
    if (field.low is not None and value < field.low) or (field.high is not None and value > field.high):
        return f"its count field '{field.name}' allows {field.allowed()}"
    return None


def edited(doc: dict, kind: Kind, change: str) -> tuple[dict | None, str | None, tuple | None]:
    """(the edited document, None, (copies before, after)) or (None, the reason it
    is not a legal card list by the count field's declaration, None). Removing
    every copy removes the entry."""
    if change not in CHANGES:
        raise ValueError(change)
    entries = list(doc[kind.section])
    before = kind.count
    if change == "remove_all":
        del entries[kind.index]
        return {**doc, kind.section: entries}, None, (before, 0)
    if kind.count_field is None or before is None:
        return None, (f"the card file gives no count for its [[{kind.section}]] entries (each is one card kind), "
                      f"so only all of its copies can be removed"), None
    after = before - 1 if change == "remove_one" else before + 1
    if change == "remove_one" and after == 0:
        return None, f"it has one copy, so removing one is removing all of them (its own row)", None
    why = _allowed(kind.field, after)
    if why is not None:
        return None, f"{before} → {after} copies: {why}", None
    entry = dict(entries[kind.index])
    entry[kind.count_field] = after
    entries[kind.index] = entry
    return {**doc, kind.section: entries}, None, (before, after)


def base_cards(spec, params: dict):
    """(CardList, parsed document) of the baseline's card list, or (None, None)."""
    from pathlib import Path

    from balance.simcore.cardcsv import read_document

    data = spec.load_data(params)
    cl = data.cards
    if cl is None or not cl.sections:
        return None, None
    return cl, read_document(Path(cl.path), tuple(s.section for s in cl.sections))
