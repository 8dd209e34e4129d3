"""One loader for a game's data files: declared schemas, one error format, and
one `GameData` per variant handed to every consumer.

A game declares what its files hold (`Field`s grouped in `Schema`s; card
effects as a `Vocabulary` of `Opcode`s, each with the fields it uses) and
writes one function, `build(reader, params) -> GameData`: it reads its files
through the `Reader` (which records every file and its sha256), checks them
against its schemas, resolves the rule parameters and compiles the kernel
tables. `loader(game, build)` memoises it: the same parameters and the same
file contents give the same `GameData` object, so the tables, the card names,
the transcript and the report all come from one reading of the files.

A card file's entries are read in one canonical order, never the file's
(`Reader.card_file`): in each section of card kinds the game declares
(`CardSection`), entries are sorted by their name (`canonical_key`: the name
compared without case, then as written, then the entry's whole content).
Card ids follow that order, so the same cards give the same games, byte for
byte, however their entries are ordered; the card list's hash
(`CardList.hash`) is of that canonical content (comments and layout aside).
A section whose order is data (a rank order) says so (`ordered=True`) and is
kept as written.

Every refusal is a `BalanceError` in one format:

    data/overtime/cards.toml: card 'Coffee Break', field 'effects[0].who': 'who' is not used by 'work'; allowed: op, n

(the file as the user knows it, where in it, the field, what is wrong, what
is allowed).
"""
from __future__ import annotations

import hashlib
import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping

from . import cardcsv
from .errors import BalanceError
from .files import data_file, parse_toml, read_bytes, shown
from .params import coerce

_MISSING = object()
_CSV_PLACES: dict[str, cardcsv.Places] = {}  # a CSV card list read (its path, and its name as shown) -> its rows


def refuse(file: Path | str, where: str, field_name: str, msg: str, allowed: str = "") -> BalanceError:
    """The one error format for a data file: file, place, field, problem, allowed.
    In a CSV card list the place is the entry's row and the field's column."""
    extra = f"; allowed: {allowed}" if allowed else ""
    place = f"{where}, " if where else ""
    if _CSV_PLACES:
        csv_places = _CSV_PLACES.get(file if isinstance(file, str) else _resolved(str(file)))
        at = csv_places.place(where, field_name) if csv_places is not None else None
        if at is not None:
            place = f"{at}, "
    return BalanceError(f"{shown(Path(file)) if not isinstance(file, str) else file}: {place}field '{field_name}': {msg}{extra}")


# ---------------------------------------------------------------- schemas
KINDS = ("str", "text", "int", "float", "bool", "ints", "floats", "strs", "table", "tables", "effects", "any")


@dataclass(frozen=True)
class Field:
    """One field of an entry of a data file.

    kind: "str" (non-empty text), "text" (any text), "int", "float", "bool",
    "ints"/"floats"/"strs" (lists), "table" (a nested `schema`), "tables" (a
    list of them), "effects" (a list checked by `vocabulary`), "any" (checked
    by `parse`). low/high bound numbers (each element of a list), choices are
    the only values allowed, length is (min, max) items of a list.
    `parse(value) -> value`, when given, converts a checked value (a type list
    such as "S/W" to a bit mask, say) and raises ValueError with the reason."""

    name: str
    kind: str
    help: str = ""
    required: bool = False
    default: Any = _MISSING
    low: float | None = None
    high: float | None = None
    choices: tuple | None = None
    length: tuple[int, int] | None = None
    schema: "Schema | None" = None
    vocabulary: "Vocabulary | None" = None
    parse: Callable[[Any], Any] | None = None
    allowed_text: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"Field {self.name}: kind {self.kind!r} is not one of {KINDS}")

    def allowed(self) -> str:
        if self.allowed_text:
            return self.allowed_text
        if self.choices is not None:
            return ", ".join(str(c) for c in self.choices)
        rng = ""
        if self.low is not None and self.high is not None:
            rng = f" in {self.low:g}..{self.high:g}"
        elif self.low is not None:
            rng = f" >= {self.low:g}"
        size = ""
        if self.length is not None:
            lo, hi = self.length
            size = f"{lo} " if lo == hi else f"{lo} to {hi} "
        return {
            "str": "a non-empty text", "text": "a text", "int": f"an integer{rng}", "float": f"a number{rng}",
            "bool": "true, false", "ints": f"a list of {size}integers{rng}", "floats": f"a list of {size}numbers{rng}",
            "strs": f"a list of {size}non-empty texts", "any": "see the file's header",
            "table": f"a table with {self.schema.field_names() if self.schema else 'fields'}",
            "tables": f"a list of {size}tables with {self.schema.field_names() if self.schema else 'fields'}",
            "effects": f"a list of {size}effects {{op = ..., ...}}; ops: "
                       + (", ".join(self.vocabulary.names()) if self.vocabulary else "?"),
        }[self.kind]

    def check(self, value: Any, file, where: str, name: str | None = None) -> Any:
        name = name or self.name

        def bad(msg: str) -> BalanceError:
            return refuse(file, where, name, msg, self.allowed())

        k = self.kind
        if k in ("str", "text"):
            if not isinstance(value, str) or (k == "str" and not value.strip()):
                raise bad(f"{value!r} is not {'a non-empty text' if k == 'str' else 'a text'}")
            self._in_choices(value, bad)
        elif k in ("int", "float"):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or (k == "int" and not isinstance(value, int)):
                raise bad(f"{value!r} is not {'an integer' if k == 'int' else 'a number'}")
            self._in_range(value, bad)
            self._in_choices(value, bad)
        elif k == "bool":
            if not isinstance(value, bool):
                raise bad(f"{value!r} is not true or false")
        elif k in ("ints", "floats", "strs"):
            if not isinstance(value, list):
                raise bad(f"{value!r} is not a list")
            self._in_length(value, bad)
            item = {"ints": "int", "floats": "float", "strs": "str"}[k]
            value = [Field(self.name, item, low=self.low, high=self.high, choices=self.choices,
                           allowed_text=self.allowed()).check(v, file, where, f"{name}[{i}]")
                     for i, v in enumerate(value)]
        elif k == "table":
            if not isinstance(value, dict):
                raise bad(f"{value!r} is not a table")
            value = self.schema.check(value, file, where, prefix=f"{name}.")
        elif k == "tables":
            if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                raise bad("is not a list of tables")
            self._in_length(value, bad)
            # each entry is named in messages as its schema names it: "rank '8'", "card #3"
            value = self.schema.check_all(value, file, name)
        elif k == "effects":
            if not isinstance(value, list):
                raise bad(f"{value!r} is not a list of effects")
            self._in_length(value, bad)
            value = self.vocabulary.check(value, file, where, name)
        if self.parse is not None:
            try:
                value = self.parse(value)
            except ValueError as exc:
                raise bad(str(exc)) from None
        return value

    def _in_range(self, v, bad):
        if (self.low is not None and v < self.low) or (self.high is not None and v > self.high):
            raise bad(f"{v!r} is out of range")

    def _in_choices(self, v, bad):
        if self.choices is not None and v not in self.choices:
            raise bad(f"{v!r} is not allowed")

    def _in_length(self, v, bad):
        if self.length is not None and not (self.length[0] <= len(v) <= self.length[1]):
            lo, hi = self.length
            raise bad(f"{len(v)} items" + (f" (needs {lo})" if lo == hi else f" (needs {lo} to {hi})"))


@dataclass(frozen=True)
class Schema:
    """The fields of one kind of entry (a card, an assignment, a rules file).

    `check` refuses a field it does not declare (naming the ones it does),
    a missing required field, and a bad value; it fills defaults."""

    what: str  # "card", "assignment", ... (used in messages)
    fields: tuple[Field, ...]
    key: str = "name"  # the field that names an entry in messages

    def field_names(self) -> str:
        return ", ".join(f.name for f in self.fields)

    def get(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

    def label(self, raw: Mapping, index: int | None = None) -> str:
        name = raw.get(self.key) if isinstance(raw, Mapping) else None
        if isinstance(name, str) and name:
            return f"{self.what} '{name}'"
        return f"{self.what} #{index + 1}" if index is not None else self.what

    def check(self, raw: Mapping, file, where: str, prefix: str = "") -> dict:
        known = {f.name for f in self.fields}
        for k in raw:
            if k not in known:
                raise refuse(file, where, prefix + k, "unknown field", self.field_names())
        out = {}
        for f in self.fields:
            if f.name in raw:
                out[f.name] = f.check(raw[f.name], file, where, prefix + f.name)
            elif f.required:
                raise refuse(file, where, prefix + f.name, "missing", f.allowed())
            elif f.default is not _MISSING:
                out[f.name] = f.default
        return out

    def check_all(self, entries: Any, file, section: str, min_count: int = 0, max_count: int | None = None) -> list[dict]:
        """A list of entries ([[section]] tables), each checked, names unique."""
        if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
            raise refuse(file, "top level", section, "is not a list of [[" + section + "]] tables",
                         f"[[{section}]] tables with {self.field_names()}")
        if len(entries) < min_count or (max_count is not None and len(entries) > max_count):
            allowed = f"{min_count} to {max_count}" if max_count is not None else f"at least {min_count}"
            raise refuse(file, "top level", section, f"{len(entries)} [[{section}]] entries", f"{allowed} entries")
        out, seen = [], set()
        for i, e in enumerate(entries):
            where = self.label(e, i)
            row = self.check(e, file, where)
            key = row.get(self.key)
            if key is not None:
                if key in seen:
                    raise refuse(file, where, self.key, "duplicate", f"a {self.key} no other {self.what} has")
                seen.add(key)
            out.append(row)
        return out


@dataclass(frozen=True)
class Opcode:
    """One card-effect opcode: its code in the kernel tables and the fields it
    uses (besides `op`). A field an opcode does not use is refused."""

    name: str
    code: int
    fields: tuple[Field, ...] = ()
    help: str = ""


@dataclass(frozen=True)
class Vocabulary:
    """The opcodes a game's card effects may use."""

    opcodes: tuple[Opcode, ...]
    key: str = "op"

    def names(self) -> list[str]:
        return [o.name for o in self.opcodes]

    def get(self, name: str) -> Opcode | None:
        return next((o for o in self.opcodes if o.name == name), None)

    def check(self, raw: list, file, where: str, field_name: str, only: tuple[str, ...] | None = None) -> list[dict]:
        """Each effect as a dict: `op` (the opcode's name), `code`, and its fields
        (defaults filled). `only` limits the opcodes allowed here."""
        allowed_ops = [o for o in self.names() if only is None or o in only]
        out = []
        for i, e in enumerate(raw):
            f = f"{field_name}[{i}]"
            if not isinstance(e, Mapping) or self.key not in e:
                raise refuse(file, where, f, f"each effect is a table with '{self.key}'", ", ".join(allowed_ops))
            name = e[self.key]
            op = self.get(name) if isinstance(name, str) else None
            if op is None or name not in allowed_ops:
                why = f"unknown opcode {name!r}" if op is None else f"'{name}' is not allowed here"
                raise refuse(file, where, f"{f}.{self.key}", why, ", ".join(allowed_ops))
            body = {k: v for k, v in e.items() if k != self.key}
            schema = Schema(f"'{name}' effect", op.fields, key="")
            for k in body:
                if schema.get(k) is None:
                    used = ", ".join([self.key] + [x.name for x in op.fields])
                    raise refuse(file, where, f"{f}.{k}", f"'{k}' is not used by '{name}'", f"for '{name}': {used}")
            row = schema.check(body, file, where, prefix=f"{f}.")
            out.append({"op": name, "code": op.code, **row})
        return out

    def describe(self) -> list[str]:
        """One line per opcode: name, fields, help (for a card file's header and docs)."""
        lines = []
        for o in self.opcodes:
            fields = ", ".join(f"{f.name} ({f.allowed()})" for f in o.fields) or "no fields"
            lines.append(f"{o.name}: {fields}" + (f" — {o.help}" if o.help else ""))
        return lines


# ---------------------------------------------------------------- the data of one variant
@dataclass(frozen=True)
class CardSection:
    """One list of card kinds in a card file (its `[[section]]` tables), declared
    by the game so that a card list can be edited without knowing the game
    (`balance impact` removes or adds copies): `key` is the field naming a
    kind, `count` the declared Field giving its copies (its limits are the
    ones the file is checked against), or None when the file gives no count
    (each entry is one kind, dealt as the game's rules say: only the whole
    entry can be removed). Rules between entries (a deck's size, one Boss) are
    the loader's: an edited list is checked by loading it.

    The entries are card kinds, not a sequence: `Reader.card_file` hands them
    to the game in the canonical order (`canonical_order`, by `key`), so a
    card's id never depends on where its entry stands in the file. `ordered`:
    the entries' order is itself data (a rank order, best last, say) and is
    kept as written."""

    section: str
    count: Field | None
    key: str = "name"
    ordered: bool = False


def _content(value: Any) -> str:
    """A parsed TOML value as one canonical text: tables by key (a table has no
    order), lists as written."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def canonical_key(entry: Mapping, key: str = "name") -> tuple[str, str, str]:
    """Where an entry stands in the canonical order: its name compared without
    case or Unicode form ("Coffee Break" next to "coffee break"), then the name
    as written, then (two entries of one name, which the game then refuses)
    its whole content. The file's order never decides."""
    name = entry[key]
    return unicodedata.normalize("NFKC", name).casefold(), name, _content(entry)


def canonical_order(entries: Any, key: str = "name") -> Any:
    """The entries of a section in the canonical order (a new list). A section
    that is not a list of tables each with a text `key` is returned as it is:
    the game's checks refuse it, naming entries by their place in the file."""
    if not isinstance(entries, list) or not all(isinstance(e, Mapping) and isinstance(e.get(key), str)
                                                for e in entries):
        return entries
    return sorted(entries, key=lambda e: canonical_key(e, key))


def canonical_card_doc(doc: Mapping, sections: tuple["CardSection", ...]) -> dict:
    """A parsed card file with the entries of each declared section not
    `ordered` in the canonical order (everything else as parsed)."""
    out = dict(doc)
    for sec in sections:
        if not sec.ordered and sec.section in out:
            out[sec.section] = canonical_order(out[sec.section], sec.key)
    return out


def content_digest(doc: Mapping) -> str:
    """sha256 of a parsed file's content (its `_content`): the same for a copy
    whose comments, layout or table keys differ."""
    return hashlib.sha256(_content(doc).encode()).hexdigest()


@dataclass(frozen=True)
class CardList:
    """Which card list a variant plays, for provenance and the report's banner."""

    file: str  # as the user knows it: data/overtime/cards.toml, or their path
    path: str  # where it was read
    sha256: str  # of the file's bytes: this very file (provenance)
    shipped: bool  # the game's own file (not a designer's --set cards=FILE)
    reconstruction: bool  # the shipped list is a reconstruction of the printed cards
    sections: tuple[CardSection, ...] = ()  # where its card kinds and their counts are (CardSection)
    content_sha256: str = ""  # of its content as the game reads it (content_digest of the canonical document)

    @property
    def hash(self) -> str:
        """The card list by content: the same for the same cards however the
        file orders its entries (they are read in the canonical order, so they
        play the same games), lays them out or comments them."""
        return (self.content_sha256 or self.sha256)[:16]


@dataclass(frozen=True, eq=False)
class GameData:
    """Everything a variant's data files give: the resolved rule parameters, the
    kernel tables, one name per card id (row of the card table), which card
    list it is, every file read with its hash, and one content hash of all of
    it. `info` holds what the game's Python side reads back (for a transcript:
    each card id's kind, the rules' names), read-only."""

    game: str
    params: Mapping[str, Any]
    tables: tuple
    card_names: tuple[str, ...]
    cards: CardList | None
    files: tuple[tuple[str, str], ...]  # (file as shown, sha256)
    content_hash: str
    info: Mapping[str, Any] = field(default_factory=dict)

    @property
    def card_list_hash(self) -> str:
        """The card list's content alone (not the rules), as read: a file with its
        entries reordered is the same card list (CardList.hash)."""
        return self.cards.hash if self.cards is not None else "none"


class Reader:
    """Reads a variant's files, each once, and remembers what it read."""

    def __init__(self, game: str, data_dir: Path | None = None):
        self.game = game
        self.data_dir = Path(data_dir) if data_dir is not None else None
        self.read: dict[str, tuple[Path, str]] = {}  # shown name -> (path, sha256)
        self._parsed: dict[str, dict] = {}
        self._handed: dict[str, dict] = {}  # resolved path -> a card file's document as handed to the game
        self._content: dict[str, str] = {}  # shown name -> content digest (a card list's, for content_hash)

    def toml(self, path: Path | str, role: str = "", allowed: str = "a TOML file") -> dict:
        path = Path(path)
        key = str(path.resolve())
        if key not in self._parsed:
            data = read_bytes(path, role, allowed)
            self.read[shown(path)] = (path, hashlib.sha256(data).hexdigest())
            self._parsed[key] = parse_toml(data, shown(path), role, allowed)
        return self._parsed[key]

    def own(self, name: str) -> Path:
        """A file shipped with the game: data/<game>/<name> (or the game's own data folder)."""
        return self.data_dir / name if self.data_dir is not None else data_file(self.game, name)

    def digest(self, path: Path | str) -> str:
        return self.read[shown(Path(path))][1]

    def card_file(self, path: Path | str, default: Path, reconstruction: bool,
                  sections: tuple[CardSection, ...], allowed: str = "a TOML file") -> tuple[dict, CardList]:
        """A game's card file: (its parsed document with the entries of every
        declared section in the canonical order, its CardList). The game reads
        its cards from this document, so card ids (rows of its tables) follow
        the canonical order and not the file's: the same cards, however their
        entries are ordered, play the same games."""
        path = Path(path)
        parsed = self.csv_cards(path, sections) if cardcsv.is_csv(path) else self.toml(path, allowed=allowed)
        doc = canonical_card_doc(parsed, tuple(sections))
        self._handed[str(path.resolve())] = doc
        return doc, self.card_list(path, default, reconstruction, sections)

    def csv_cards(self, path: Path, sections: tuple[CardSection, ...]) -> dict:
        """A CSV card list (simcore.cardcsv) as the document its TOML would
        parse to; the game checks it as it checks the TOML, and a refusal about
        one of its entries names the row and the column."""
        key = str(path.resolve())
        if key not in self._parsed:
            data = read_bytes(path, "", cardcsv.ALLOWED)
            self.read[shown(path)] = (path, hashlib.sha256(data).hexdigest())
            keys = {s.key for s in sections}
            doc, places = cardcsv.parse(data, shown(path), tuple(s.section for s in sections),
                                        key=keys.pop() if len(keys) == 1 else "name")
            _CSV_PLACES[key] = _CSV_PLACES[shown(path)] = places
            self._parsed[key] = doc
        return self._parsed[key]

    def card_list(self, path: Path | str, default: Path, reconstruction: bool,
                  sections: tuple[CardSection, ...] = ()) -> CardList:
        """The card list read from `path`; `sections` declares its lists of card
        kinds and their count fields (CardSection). Its content hash is of the
        document as the game was handed it: in the canonical order when read
        with `card_file`, else as parsed (file order kept: what such a game plays)."""
        path = Path(path)
        raw = self.toml(path)
        digest = content_digest(self._handed.get(str(path.resolve()), raw))
        self._content[shown(path)] = digest
        shipped = path.resolve() == Path(default).resolve()
        return CardList(shown(path), str(path.resolve()), self.digest(path), shipped, reconstruction and shipped,
                        tuple(sections), digest)

    def make(self, params: Mapping[str, Any], tables: tuple, card_names, cards: CardList | None = None,
             info: Mapping[str, Any] | None = None) -> GameData:
        # a card list counts by its content as read (the same cards reordered: the same games)
        files = tuple(sorted((name, self._content.get(name, digest)) for name, (_, digest) in self.read.items()))
        read_paths = {str(p.resolve()) for p, _ in self.read.values()}
        # a parameter naming a file read counts by that file's content, not its path; so does the card
        # list parameter left empty (spec.cards_param: the game's own list, read and counted in `files`)
        plain = {k: v for k, v in params.items()
                 if not (isinstance(v, str) and v and _resolved(v) in read_paths)
                 and not (k == "cards" and v == "" and cards is not None)}
        frozen = MappingProxyType(dict(params))
        return GameData(self.game, frozen, tuple(tables), tuple(card_names), cards, files,
                        content_hash(self.game, plain, files), MappingProxyType(dict(info or {})))


def _resolved(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, ValueError):
        return path


def content_hash(game: str, params: Mapping[str, Any], files) -> str:
    """Game, parameters and the content of every file read (by content only:
    a copied file is the same list)."""
    h = hashlib.sha256(game.encode())
    h.update(json.dumps(dict(sorted(params.items())), sort_keys=True, default=str).encode())
    for _, digest in files:
        h.update(f"\0{digest}".encode())
    return h.hexdigest()[:16]


def read_rules(reader: Reader, params_decl, name: str = "rules.toml") -> dict:
    """A game's rules.toml: every key a declared rule parameter, each value
    checked like a --set value; the parameters it does not set keep their
    declared defaults."""
    path = reader.own(name)
    raw = reader.toml(path)
    known = {p.name: p for p in params_decl}
    out = {p.name: p.default for p in params_decl}
    for k, v in raw.items():
        if k not in known:
            raise refuse(path, "rules", k, "unknown parameter", ", ".join(known))
        out[k] = coerce(known[k], v, shown(path))
    return out


def overlay(defaults: dict, user: Mapping[str, Any], game: str) -> dict:
    """The user's values over the defaults; a name the game does not have is refused."""
    out = dict(defaults)
    for k, v in user.items():
        if k not in out:
            raise BalanceError(f"--set: {game} has no parameter '{k}'; allowed: {', '.join(out)}")
        out[k] = v
    return out


def loader(game: str, build: Callable[[Reader, dict], GameData],
           data_dir: Path | None = None) -> Callable[[Mapping[str, Any]], GameData]:
    """`load_data(params) -> GameData`, memoised on the parameters and the
    content of every file the build read (an edited file is read again).
    `data_dir`: where the game's own files are, if not data/<game>/."""
    cache: dict[str, tuple[GameData, tuple[tuple[Path, str], ...]]] = {}

    def load_data(params: Mapping[str, Any] | None = None) -> GameData:
        key = json.dumps(dict(params or {}), sort_keys=True, default=str)
        hit = cache.get(key)
        if hit is not None and all(_same_file(p, d) for p, d in hit[1]):
            return hit[0]
        reader = Reader(game, data_dir)
        data = build(reader, dict(params or {}))
        if len(cache) > 64:
            cache.clear()
        cache[key] = (data, tuple(reader.read.values()))
        return data

    load_data.__doc__ = f"The GameData of {game} for these parameters (see simcore.gamedata)."
    return load_data


def _same_file(path: Path, digest: str) -> bool:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest() == digest
    except OSError:
        return False
