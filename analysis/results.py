"""Result files as typed, versioned schemas (pydantic models): one model per file, written by the
analysis layer and read back as objects by reports/, cli/ and the Python API.

`ResultFile` is the base of every result file's model. Each subclass names its kind and schema version
in its class line (`class ImpactResult(ResultFile, kind="impact", schema_version=2)`): its file is
`FILE` (`impact.json`), the `kind` and `schema_version` fields written into the file hold those values
and no other (`SCHEMA_VERSION` is the version); it says how to make the file again (`recover`). Then:

- `model.write(folder)` writes `folder/FILE` atomically (a temporary file beside it, renamed over it;
  no link followed: analysis.folder_entries.replace_entry), JSON without NaN or infinity (analysis.jsonsafe:
  NaN is null);
- `Model.read(path)` (a file, or the folder holding it; read as analysis.folder_entries.read_entry reads a
  folder's file: a regular file, no link followed, at most its cap) returns the model, or refuses, with one
  `BalanceError` line naming the file, the field and how to recover, a file that is not readable,
  not JSON (damaged, truncated), not this kind, made by an older or newer balance (no or another
  `schema_version`), or whose fields do not have the schema's shape (pydantic's first error).

The parts a file's model types are `extra="forbid"`: a key the schema does not name is refused, so a
field renamed in the code cannot be read back silently as a default. Maps whose keys are data (a
metric's name, a variant's) are `dict[str, Row]`; a corner that is truly free-form is `dict[str, Any]`
with a comment saying why.

A new schema_version is needed when a field is added without a default, removed, renamed or changes
meaning; reading an older file is then refused with the command that makes it again (a result file
is always remade from its run folders, never migrated).
"""
from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from balance.simcore.errors import BalanceError

from .jsonsafe import jsonable


class Part(BaseModel):
    """A typed part of a result file: no key the schema does not name."""

    model_config = ConfigDict(extra="forbid")


# An interval [low, high]; either end None where it cannot be made (too few games, no spread).
Interval = Annotated[list[Optional[float]], Field(min_length=2, max_length=2)]


class MarginVerdict(Part):
    """analysis.stats.margin_verdict: one interval against the margin of practical significance."""

    margin: float  # in the metric's unit (rates: absolute points as a share, 0.02 = 2 points)
    verdict: str  # within_margin, beyond_margin, differs_size_unclear, inconclusive, no_information
    significant: bool  # the interval excludes 0
    words: str  # the verdict in words
    reason: Optional[str] = None  # no_information: why no game measured a difference
    games_to_decide: Optional[int] = None  # about how many games in all would settle it (undecided verdicts)


class ResultFile(Part):
    """The base of a result file's model: `kind` and `schema_version` are written into the file."""

    FILE: ClassVar[str]  # the file's name in its folder: "comparison.json"
    SCHEMA_VERSION: ClassVar[int]

    kind: str
    schema_version: int

    def __init_subclass__(cls, kind: str | None = None, schema_version: int | None = None, **kwargs):
        """A subclass with a kind is a file's model: `kind`.json, its `kind` and `schema_version` fields
        Literal, defaulting to the given values."""
        super().__init_subclass__(**kwargs)
        if kind is None:
            return
        cls.FILE, cls.SCHEMA_VERSION = f"{kind}.json", schema_version
        cls.__annotations__ = {"kind": Literal[kind], "schema_version": Literal[schema_version],
                               **cls.__dict__.get("__annotations__", {})}
        cls.kind, cls.schema_version = kind, schema_version

    # ------------------------------------------------------------ writing
    def write(self, folder: str | Path) -> Path:
        """Write `folder/FILE` atomically, JSON without NaN; return its path."""
        from .folder_entries import replace_entry

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        replace_entry(folder, self.FILE, self.dumps().encode("utf-8"))
        return folder / self.FILE

    def dumps(self) -> str:
        return json.dumps(jsonable(self.model_dump(mode="python", by_alias=True)), indent=1, allow_nan=False)

    # ------------------------------------------------------------ reading
    @classmethod
    def recover(cls, path: Path, data: dict | None) -> str:
        """How to make the file again (the file's own recorded command, where it has one); `data` is the
        file's JSON object, None when it could not be read."""
        return "run the command that wrote it again"

    @classmethod
    def read(cls, path: str | Path):
        """The file (or `folder/FILE`) as this model; a file that cannot be this model is refused with
        one BalanceError line naming the file, the field and how to recover."""
        path = Path(path)
        if path.is_dir():
            path = path / cls.FILE
        from .folder_entries import read_entry

        try:  # a regular file, no link followed, at most the cap of its kind (analysis.store)
            text = read_entry(path.parent, path.name).decode("utf-8")
        except OSError as exc:
            raise BalanceError(f"{path}: not readable ({exc.strerror or exc.__class__.__name__}); "
                               f"{cls.recover(path, None)}") from None
        except UnicodeDecodeError:
            raise BalanceError(f"{path}: damaged (not UTF-8 text); {cls.recover(path, None)}") from None
        try:
            data = json.loads(text)
        except ValueError as exc:
            where = f"line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else "its text"
            what = "empty" if not text.strip() else f"not JSON at {where}: truncated or damaged"
            raise BalanceError(f"{path}: damaged ({what}); {cls.recover(path, None)}") from None
        if not isinstance(data, dict):
            raise BalanceError(f"{path}: damaged (not a JSON object); {cls.recover(path, None)}")
        return cls.from_data(data, path)

    @classmethod
    def from_data(cls, data: dict, path: str | Path):
        """A file's JSON object as this model, refused as `read` refuses it."""
        path = Path(path)
        kind = cls.model_fields["kind"].default
        how = cls.recover(path, data)
        if "schema_version" not in data:
            raise BalanceError(f"{path}: field 'schema_version': missing: made by an older balance "
                               f"(before {kind} schema {cls.SCHEMA_VERSION}); {how}")
        got = data.get("schema_version")
        if got != cls.SCHEMA_VERSION:
            newer = isinstance(got, int) and not isinstance(got, bool) and got > cls.SCHEMA_VERSION
            raise BalanceError(f"{path}: field 'schema_version': {got!r}, but this balance reads {kind} schema "
                               f"{cls.SCHEMA_VERSION}: made by "
                               + ("a newer balance; upgrade balance, or " if newer else "an older balance; ")
                               + how)
        if data.get("kind") != kind:
            raise BalanceError(f"{path}: field 'kind': {data.get('kind')!r}, not {kind!r}: not a {cls.FILE}; {how}")
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            loc = ".".join(str(x) for x in first.get("loc") or ()) or "(the whole file)"
            msg = " ".join(str(first.get("msg", "not valid")).split())
            raise BalanceError(f"{path}: field '{loc}': {msg}: damaged or edited; {how}") from None


class CardListRecord(Part):
    """Which card list a command played, as a run's manifest records it (analysis.runs.card_list_record):
    the report's banner reads it, never the game's loader."""

    file: str
    sha256: Optional[str] = None
    shipped: bool
    reconstruction: bool


class CommandResultFile(ResultFile):
    """A result file that one command writes whole and that records the command line (`command`): made
    again by running that command again."""

    COMMAND: ClassVar[str]  # the command that writes it: "compare", "tune", "campaign"

    command: Optional[str] = None  # the command line that made it (None: none was recorded)
    game: str

    @classmethod
    def recover(cls, path: Path, data: dict | None) -> str:
        command = (data or {}).get("command")
        if isinstance(command, str) and command.startswith((f"balance {cls.COMMAND} ", f"balance.{cls.COMMAND}(")):
            return f"run `{command}` again"
        return f"run `balance {cls.COMMAND}` again (with --out {shlex.quote(str(path.parent))})"
