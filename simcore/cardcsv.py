"""A card list as a spreadsheet: CSV in (`--set cards=my-cards.csv`) and out
(`balance cards export --game G my-cards.csv`). The format is docs/card-lists.md.

One row per card kind; the columns are the fields of the TOML entry, plus
`section` (which list of the file the row belongs to: `card`, `assignment`,
`company`, ...; without the column every row is in the game's first list).
A row of a section the game declares as a list of card kinds (`CardSection`)
is one of its `[[section]]` entries; a row of any other section is that
section's one `[section]` table (Overtime's `starting_employee`).

A cell is read as a TOML value when it is one (`3`, `-2`, `1.5`, `true`,
`["red", "blue"]`, `"1984"` in quotes), else as the text written; an empty
cell is a field the entry does not give. A column named `effects` or ending
in `_effects` holds a list of effects, `;` between effects, each the opcode
then its fields as `name=value`: `work n=2; snooze n=2 who=self` (or the TOML
list itself, `[{ op = "work", n = 2 }]`). A row whose first cell starts with
`#` is a comment.

The rows become the very document the TOML would give (`parse` -> dict), and
the game checks it as it checks a TOML file: the same cards give the same
card list hash and the same games. A refusal about one entry names its row
and column (`place`)."""
from __future__ import annotations

import csv
import io
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .errors import BalanceError

SECTION = "section"
EFFECT_KEY = "op"  # the opcode's key in an effect table (Overtime, Four Day Weekend)
ALLOWED = "a CSV card list (docs/card-lists.md): a header row of field names, one row per card kind"


def is_csv(path: Path | str) -> bool:
    return Path(path).suffix.lower() == ".csv"


def effects_column(name: str) -> bool:
    return name == "effects" or name.endswith("_effects")


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA: the column as a spreadsheet shows it."""
    out = ""
    index += 1
    while index:
        index, r = divmod(index - 1, 26)
        out = chr(65 + r) + out
    return out


# ---------------------------------------------------------------- cells
def _toml_value(text: str) -> tuple[bool, Any]:
    """(True, value) when `text` is one TOML value, else (False, None)."""
    from .files import _finite

    try:
        return True, tomllib.loads("v = " + text, parse_float=_finite)["v"]
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return False, None


def read_cell(text: str) -> Any:
    ok, value = _toml_value(text)
    return value if ok else text


def write_cell(value: Any) -> str:
    """The cell that reads back as `value` (read_cell)."""
    if isinstance(value, str):
        ok, back = _toml_value(value)
        return _toml_text(value) if (ok or value == "" or value != value.strip() or value.startswith("#")) else value
    return _toml_text(value)


def _toml_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        out = ['"']
        for ch in value:
            if ch in '"\\':
                out.append("\\" + ch)
            elif ch == "\n":
                out.append("\\n")
            elif ch == "\t":
                out.append("\\t")
            elif ord(ch) < 0x20 or ord(ch) == 0x7F:
                out.append(f"\\u{ord(ch):04x}")
            else:
                out.append(ch)
        return "".join(out) + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_text(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_text(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML text for {value!r}")


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_text(key)


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _split_outside_quotes(text: str, sep: str) -> list[str]:
    parts, cur, quote, i = [], [], "", 0
    while i < len(text):
        ch = text[i]
        if quote:
            cur.append(ch)
            if ch == "\\" and quote == '"' and i + 1 < len(text):
                cur.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
            cur.append(ch)
        elif ch == sep:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    parts.append("".join(cur))
    return parts


def read_effects(text: str) -> list:
    """`work n=2; snooze n=2 who=self` -> [{op: work, n: 2}, {op: snooze, n: 2, who: self}];
    a cell starting with `[` is the TOML list itself. ValueError names what is wrong."""
    text = text.strip()
    if text.startswith("["):
        ok, value = _toml_value(text)
        if not ok:
            raise ValueError("not a TOML list of effects")
        return value
    out = []
    for i, part in enumerate(_split_outside_quotes(text, ";")):
        words = [w for w in _split_outside_quotes(part.strip(), " ") if w]
        if not words:
            raise ValueError(f"effect {i + 1} is empty (two ';' in a row, or one at the end)")
        if not _WORD.fullmatch(words[0]):
            raise ValueError(f"effect {i + 1}: {words[0]!r} is not an opcode's name")
        effect: dict[str, Any] = {EFFECT_KEY: words[0]}
        for w in words[1:]:
            name, eq, value = w.partition("=")
            if not eq or not _WORD.fullmatch(name):
                raise ValueError(f"effect {i + 1} ({words[0]}): {w!r} is not name=value")
            if name in effect:
                raise ValueError(f"effect {i + 1} ({words[0]}): '{name}' given twice")
            effect[name] = read_cell(value)
        out.append(effect)
    return out


def write_effects(effects: list) -> str:
    """The cell for a list of effects: the `op name=value` syntax when every
    value reads back as itself, else the TOML list."""
    if not effects or not all(isinstance(e, Mapping) and isinstance(e.get(EFFECT_KEY), str)
                              and _WORD.fullmatch(e[EFFECT_KEY]) for e in effects):
        return _toml_text(effects)
    parts = []
    for e in effects:
        words = [e[EFFECT_KEY]]
        for k, v in e.items():
            if k == EFFECT_KEY:
                continue
            cell = write_cell(v)
            if not _WORD.fullmatch(k) or any(c in cell for c in " ;'") and not _quoted(cell):
                return _toml_text(effects)
            words.append(f"{k}={cell}")
        parts.append(" ".join(words))
    text = "; ".join(parts)
    try:  # a value the short syntax cannot carry (a lone quote) may not read back at all: the TOML list then
        same = read_effects(text) == [dict(e) for e in effects]
    except ValueError:
        same = False
    return text if same else _toml_text(effects)


def _quoted(cell: str) -> bool:
    return cell.startswith('"') and cell.endswith('"') and len(cell) >= 2


# ---------------------------------------------------------------- reading
@dataclass
class Places:
    """Where each entry of a parsed CSV stands: its row and the columns."""

    file: str
    header: tuple[str, ...]
    rows: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # (section, name) -> its rows
    first_row: dict[str, int] = field(default_factory=dict)  # section -> its first row

    def column(self, name: str) -> str:
        if name in self.header:
            return f"column '{name}' ({column_letter(self.header.index(name))})"
        return f"column '{name}' (not in the header)"

    def place(self, where: str, field_name: str) -> str | None:
        """'row 7 (card 'Coffee Break'), column 'effects' (F)' for a refusal
        about an entry's field, or None when it is about no row."""
        col = re.split(r"[\[.]", field_name, maxsplit=1)[0]
        m = re.fullmatch(r"([^']*) '(.*)'", where or "")
        if m:
            rows = [r for (sec, name), rs in self.rows.items() if name == m.group(2) for r in rs]
            if rows:
                at = f"row {rows[0]}" if len(rows) == 1 else "rows " + ", ".join(map(str, rows))
                return f"{at} ({where}), {self.column(col)}"
        if where in ("top level", "") and field_name in self.first_row:
            return f"row {self.first_row[field_name]}, column '{SECTION}' (section '{field_name}')"
        return None


def parse(data: bytes, file: str, list_sections: tuple[str, ...], key: str = "name") -> tuple[dict, Places]:
    """A CSV card list as the document its TOML would parse to, and where each
    entry stands. `list_sections`: the game's lists of card kinds, first the
    one a file without a `section` column fills."""
    def bad(where: str, msg: str, allowed: str = ALLOWED) -> BalanceError:
        return BalanceError(f"{file}: {where}{msg}; allowed: {allowed}")

    try:
        text = data.decode("utf-8-sig")  # a spreadsheet's UTF-8 often starts with a byte-order mark
    except UnicodeDecodeError:
        raise bad("", "not a text file (not UTF-8)") from None
    # the delimiter from the header row (the first line that is not blank or a comment)
    first = next((ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().lstrip('"').startswith("#")), "")
    delimiter = "," if "," in first or not any(d in first for d in ";\t") else (";" if ";" in first else "\t")
    try:
        records = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error as exc:
        raise bad("", f"not valid CSV ({exc})") from None
    rows = [(i + 1, r) for i, r in enumerate(records)
            if any(c.strip() for c in r) and not (r and r[0].lstrip().startswith("#"))]
    if not rows:
        raise bad("", "no header row")
    header_row, header = rows[0]
    if not list_sections and SECTION not in [h.strip() for h in header]:
        raise bad(f"row {header_row}: ", f"no '{SECTION}' column", "a 'section' column naming each row's list")
    header = [h.strip() for h in header]
    for j, h in enumerate(header):
        where = f"row {header_row}, column {column_letter(j)}: "
        if not h:
            raise bad(where, "a column without a name in the header", "the field names of the card list's entries")
        if not _WORD.fullmatch(h):
            raise bad(where, f"{h!r} is not a field name", "letters, digits and _ (a field of the TOML entry)")
        if h in header[:j]:
            raise bad(where, f"column '{h}' twice", "each field once")
    places = Places(file, tuple(header))
    doc: dict[str, Any] = {}
    for n, record in rows[1:]:
        if len(record) > len(header) and any(c.strip() for c in record[len(header):]):
            raise bad(f"row {n}, column {column_letter(len(header))}: ", "a cell beyond the header's columns",
                      f"{len(header)} columns, as the header names them")
        cells = {h: (record[j] if j < len(record) else "") for j, h in enumerate(header)}
        section = cells.pop(SECTION, "").strip() if SECTION in header else list_sections[0]
        col = places.column(SECTION)
        if not section:
            raise bad(f"row {n}, {col}: ", "empty", "the list the row belongs to: " + ", ".join(list_sections))
        if not _WORD.fullmatch(section):
            raise bad(f"row {n}, {col}: ", f"{section!r} is not a section's name",
                      "the list the row belongs to: " + ", ".join(list_sections))
        entry: dict[str, Any] = {}
        for h, cell in cells.items():
            if cell.strip() == "":
                continue
            if effects_column(h):
                try:
                    entry[h] = read_effects(cell)
                except ValueError as exc:
                    raise bad(f"row {n}, {places.column(h)}: ", str(exc),
                              "effects as `op name=value ...; op ...` (docs/card-lists.md)") from None
            else:
                entry[h] = read_cell(cell)
        name = entry.get(key)
        if section in list_sections:
            if not isinstance(name, str) or not name.strip():
                raise bad(f"row {n}, {places.column(key)}: ", "empty" if name is None else f"{name!r} is not a name",
                          "the card's name")
            doc.setdefault(section, [])
            if not isinstance(doc[section], list):
                raise bad(f"row {n}, {col}: ", f"'{section}' given twice", "one row per card kind")
            doc[section].append(entry)
        else:
            if section in doc:
                raise bad(f"row {n}, {col}: ", f"a second row of '{section}'",
                          f"one row of '{section}' (a single table), or one of the lists "
                          + ", ".join(list_sections))
            doc[section] = entry
        places.first_row.setdefault(section, n)
        if isinstance(name, str):
            places.rows.setdefault((section, name), []).append(n)
    return doc, places


def read_document(path: Path, list_sections: tuple[str, ...], key: str = "name") -> dict:
    """A card list file as parsed: a .csv through `parse`, anything else as TOML
    (simcore.files.read_toml), each refused in one line naming the file."""
    from .files import read_bytes, read_toml, shown

    if not is_csv(path):
        return read_toml(Path(path))
    return parse(read_bytes(Path(path), "", ALLOWED), shown(Path(path)), list_sections, key)[0]


# ---------------------------------------------------------------- writing
def write(doc: Mapping, list_sections: tuple[str, ...], note: str = "") -> str:
    """The CSV of a parsed card list (parse(write(doc)) == doc): `section`
    first, then every field in the order the file first uses it; `note` as
    comment rows above the header."""
    entries: list[tuple[str, Mapping]] = []
    order = [s for s in list_sections if s in doc] + [s for s in doc if s not in list_sections]
    for sec in order:
        value = doc[sec]
        if sec in list_sections and isinstance(value, list):
            entries.extend((sec, e) for e in value)
        elif isinstance(value, Mapping):
            entries.append((sec, value))
        else:
            raise ValueError(f"section {sec!r} is neither a list of tables nor a table")
    header = [SECTION]
    for _, e in entries:
        for k in e:
            if k not in header:
                header.append(k)
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\n")
    for line in note.splitlines():
        w.writerow(["# " + line if line else "#"])
    w.writerow(header)
    for sec, e in entries:
        row = [sec]
        for h in header[1:]:
            if h not in e:
                row.append("")
            elif effects_column(h) and isinstance(e[h], list):
                row.append(write_effects(e[h]))
            else:
                row.append(write_cell(e[h]))
        w.writerow(row)
    return buf.getvalue()
