"""Card by card: what one card list changes against another (for the compare
report, issue 18: "B changes cards from data/overtime/cards.toml to my-cards.toml"
says which cards were added, removed and changed, field by field).

    diff = diff_card_lists(data_a, data_b)       # two GameData, CardLists, paths or parsed files
    diff.words()                                 # one plain sentence
    card_diff_table(diff)                        # a reports.views.Table for the page
    rows_table(diff.rows(), diff.words())        # the same from what comparison.json keeps
    diff.to_dict()                               # JSON for comparison.json

It works on the card files themselves, for any game: every top-level list of
tables that have a `name` (`[[card]]`, `[[assignment]]`, `[[company]]`,
`[[rank]]`...) is a section of cards, a top-level table with a `name`
(`[starting_employee]`) a section of one; anything else at the top level
(`suits = [...]`) is a field of the file. A card is known by its section and
name (a repeated name gets " (2)"); its fields are compared flattened
(`effects[0].n`), so a changed count, type, text or effect argument is one
line each. A card whose name alone changed (every other field the same, in
the same section) is a rename, not a removal and an addition.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from balance.simcore.errors import BalanceError

from . import fmt

ABSENT = object()  # a field one side does not have


def _show(v) -> str:
    if v is ABSENT:
        return "(none)"
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)) and all(not isinstance(x, (dict, list)) for x in v):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    return fmt.value(v) if not isinstance(v, (dict, list)) else str(v)


@dataclass(frozen=True)
class FieldChange:
    field: str
    a: Any  # ABSENT when only B has it
    b: Any  # ABSENT when only A has it

    def words(self) -> str:
        if self.a is ABSENT:
            return f"{self.field} {_show(self.b)} (new)"
        if self.b is ABSENT:
            return f"{self.field} removed (was {_show(self.a)})"
        return f"{self.field} {_show(self.a)} → {_show(self.b)}"

    def to_dict(self) -> dict:
        return {"field": self.field, "a": None if self.a is ABSENT else self.a,
                "b": None if self.b is ABSENT else self.b}


@dataclass(frozen=True)
class Card:
    section: str
    name: str
    fields: Mapping[str, Any]  # flattened: "count", "effects[0].op", ...

    @property
    def copies(self) -> int | None:
        for key in ("count", "copies"):
            v = self.fields.get(key)
            if isinstance(v, int) and not isinstance(v, bool):
                return v
        return None

    def to_dict(self) -> dict:
        return {"section": self.section, "name": self.name, "fields": dict(self.fields)}


@dataclass(frozen=True)
class CardChange:
    section: str
    name: str  # B's name (a rename says A's in its `name` field change)
    fields: tuple[FieldChange, ...]

    def words(self) -> str:
        return f"{self.name}: " + "; ".join(f.words() for f in self.fields)

    def to_dict(self) -> dict:
        return {"section": self.section, "name": self.name, "fields": [f.to_dict() for f in self.fields]}


@dataclass(frozen=True)
class CardDiff:
    a_file: str
    b_file: str
    a_sha256: str | None
    b_sha256: str | None
    added: list[Card] = field(default_factory=list)
    removed: list[Card] = field(default_factory=list)
    changed: list[CardChange] = field(default_factory=list)
    unchanged: int = 0
    file_fields: list[FieldChange] = field(default_factory=list)  # top-level fields of the file

    @property
    def same(self) -> bool:
        return not (self.added or self.removed or self.changed or self.file_fields)

    def words(self, limit: int = 6) -> str:
        """One plain sentence: 'B's card list (my.toml) adds 1 card (X), removes ... and leaves 40 unchanged.'"""
        if self.same:
            return (f"The two card lists hold the same cards ({self.a_file} and {self.b_file}"
                    + (", identical content" if self.a_sha256 and self.a_sha256 == self.b_sha256 else "") + ").")

        def names(cards, words=lambda c: c.name) -> str:
            shown = ", ".join(words(c) for c in cards[:limit])
            return shown + (f" and {len(cards) - limit} more" if len(cards) > limit else "")

        bits = []
        if self.added:
            bits.append(f"adds {fmt.plural(len(self.added), 'card')} ({names(self.added)})")
        if self.removed:
            bits.append(f"removes {fmt.plural(len(self.removed), 'card')} ({names(self.removed)})")
        if self.changed:
            bits.append(f"changes {fmt.plural(len(self.changed), 'card')} ({names(self.changed, CardChange.words)})")
        if self.file_fields:
            bits.append("changes " + "; ".join(f.words() for f in self.file_fields))
        head = ", ".join(bits[:-1]) + (" and " if len(bits) > 1 else "") + bits[-1]
        return (f"B's card list ({self.b_file}) against A's ({self.a_file}) {head}; "
                f"{fmt.plural(self.unchanged, 'card')} {'is' if self.unchanged == 1 else 'are'} unchanged.")

    def to_dict(self) -> dict:
        return {"a": {"file": self.a_file, "sha256": self.a_sha256}, "b": {"file": self.b_file, "sha256": self.b_sha256},
                "added": [c.to_dict() for c in self.added], "removed": [c.to_dict() for c in self.removed],
                "changed": [c.to_dict() for c in self.changed], "unchanged": self.unchanged,
                "file_fields": [f.to_dict() for f in self.file_fields], "words": self.words()}

    def rows(self) -> list[list[str]]:
        """change, section, card, field, A, B: one row per added or removed card and per changed field."""
        out = []
        for c in self.removed:
            out.append(["removed", c.section, c.name, "", _copies(c), ""])
        for c in self.added:
            out.append(["added", c.section, c.name, "", "", _copies(c)])
        for c in self.changed:
            for f in c.fields:
                out.append(["changed", c.section, c.name, f.field, _show(f.a), _show(f.b)])
        for f in self.file_fields:
            out.append(["changed", "(file)", "", f.field, _show(f.a), _show(f.b)])
        return out


def _copies(c: Card) -> str:
    n = c.copies
    return f"{fmt.int_(n)} cop{'y' if n == 1 else 'ies'}" if n is not None else "present"


# ---------------------------------------------------------------- reading the two sides


def _flatten(value, prefix: str, out: dict) -> None:
    if isinstance(value, Mapping):
        for k, v in value.items():
            _flatten(v, f"{prefix}.{k}" if prefix else str(k), out)
    elif isinstance(value, list) and value and all(isinstance(x, Mapping) for x in value):
        for i, v in enumerate(value):
            _flatten(v, f"{prefix}[{i}]", out)
    else:
        out[prefix] = value


def _is_cards(v) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, Mapping) and isinstance(x.get("name"), str) for x in v)


def split(doc: Mapping) -> tuple[dict[tuple[str, str], Card], dict[str, Any]]:
    """A parsed card file as its cards, keyed by (section, name), and its other top-level fields (flattened)."""
    cards: dict[tuple[str, str], Card] = {}
    other: dict[str, Any] = {}
    for key, v in doc.items():
        entries = v if _is_cards(v) else [v] if isinstance(v, Mapping) and isinstance(v.get("name"), str) else None
        if entries is None:
            _flatten(v, key, other)
            continue
        seen: dict[str, int] = {}
        for e in entries:
            seen[e["name"]] = seen.get(e["name"], 0) + 1
            name = e["name"] if seen[e["name"]] == 1 else f"{e['name']} ({seen[e['name']]})"
            flat: dict = {}
            _flatten({k: x for k, x in e.items() if k != "name"}, "", flat)
            cards[(key, name)] = Card(key, name, flat)
    return cards, other


def _field_changes(a: Mapping, b: Mapping) -> list[FieldChange]:
    keys = list(a) + [k for k in b if k not in a]
    return [FieldChange(k, a.get(k, ABSENT), b.get(k, ABSENT)) for k in keys if a.get(k, ABSENT) != b.get(k, ABSENT)]


def _side(x) -> tuple[dict, str, str | None]:
    """(parsed file, file as shown, sha256) of a GameData, a CardList, a path or an already parsed dict."""
    import hashlib

    from balance.simcore.files import read_bytes, parse_toml, shown

    if isinstance(x, Mapping):
        return dict(x), "(given)", None
    path = None
    label = None
    cards = getattr(x, "cards", ABSENT)
    if cards is not ABSENT:  # a GameData
        if cards is not None:
            path, label = Path(cards.path), cards.file
        else:  # a game not moved to simcore.gamedata yet: its cards parameter, else its shipped file
            from balance.simcore.files import data_file

            given = (getattr(x, "params", None) or {}).get("cards")
            path = Path(given) if given else data_file(x.game, "cards.toml")
            if not path.is_file() and not given:
                raise BalanceError(f"{x.game}: this game has no card list to compare")
    elif hasattr(x, "path") and hasattr(x, "sha256"):  # a CardList
        path, label = Path(x.path), x.file
    else:
        path = Path(x)
    data = read_bytes(path, "", "a card file in its game's format")
    label = label or shown(path)
    return parse_toml(data, label, "", "a card file in its game's format"), label, hashlib.sha256(data).hexdigest()


def diff_card_lists(a, b) -> CardDiff:
    """The cards B adds, removes and changes (field by field) against A.

    a, b: GameData (its card file is read), simcore.gamedata.CardList, a path to a
    card file, or a parsed card file (dict). A file that cannot be read is a
    BalanceError naming it."""
    doc_a, file_a, sha_a = _side(a)
    doc_b, file_b, sha_b = _side(b)
    cards_a, other_a = split(doc_a)
    cards_b, other_b = split(doc_b)
    removed = [c for k, c in cards_a.items() if k not in cards_b]
    added = [c for k, c in cards_b.items() if k not in cards_a]
    changed, unchanged = [], 0
    for k, ca in cards_a.items():
        cb = cards_b.get(k)
        if cb is None:
            continue
        diffs = _field_changes(ca.fields, cb.fields)
        if diffs:
            changed.append(CardChange(cb.section, cb.name, tuple(diffs)))
        else:
            unchanged += 1
    # renames: a removed and an added card of one section with every other field equal
    for r in list(removed):
        twin = next((x for x in added if x.section == r.section and dict(x.fields) == dict(r.fields)), None)
        if twin is not None:
            removed.remove(r)
            added.remove(twin)
            changed.append(CardChange(twin.section, twin.name, (FieldChange("name", r.name, twin.name),)))
    order = {k: i for i, k in enumerate(list(cards_a) + [k for k in cards_b if k not in cards_a])}
    changed.sort(key=lambda c: order.get((c.section, c.name), len(order)))
    return CardDiff(file_a, file_b, sha_a, sha_b, added, removed, changed, unchanged,
                    _field_changes(other_a, other_b))


def card_diff_table(diff: CardDiff, title: str = "Card lists: B against A"):
    """The diff as a report table (one row per added/removed card and per changed field)."""
    return rows_table(diff.rows(), diff.words(), title)


def rows_table(rows: list[list[str]], words: str, title: str = "Card lists: B against A"):
    """The table of `CardDiff.rows()` (as kept in comparison.json) with its sentence."""
    from .views import Table

    note = words + " Cards are matched by section and name; fields are compared one by one."
    return Table(title, ["change", "section", "card", "field", "A", "B"], rows, note, numeric_from=6)
