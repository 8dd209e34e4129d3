"""chunks.jsonl, the log that commits a run folder's chunks: one record a
chunk (variant, games, each part's file, rows, bytes and sha256, and a
checksum of the line itself), appended and fsynced once the chunk's parts are
in place; `read_log` keeps the valid records and notes damaged, torn and
duplicate lines. analysis.store says what a reader trusts of them; split from
it.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from balance.simcore.errors import BalanceError

from . import folder_entries
from .folder_entries import CHUNK_LOG, PARTS, TABLES, _write_all, open_entry, part_file, read_entry, replace_file
from .manifest_file import canonical

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class PartInfo:
    file: str  # relative to the run folder: parts/<table>/<name>
    rows: int
    bytes: int
    sha256: str


@dataclass(frozen=True)
class Record:
    variant: int
    chunk: int
    first: int
    count: int
    seconds: float
    parts: dict[str, PartInfo]
    config: str | None
    migrated: bool = False
    line: int = 0  # 1-based line in chunks.jsonl (0: not read from it)

    @property
    def end(self) -> int:
        return self.first + self.count

    def body(self) -> dict:
        out = {"variant": self.variant, "chunk": self.chunk, "first": self.first, "games": self.count,
               "seconds": self.seconds, "config": self.config,
               "parts": {k: {"file": p.file, "rows": p.rows, "bytes": p.bytes, "sha256": p.sha256}
                         for k, p in self.parts.items()}}
        if self.migrated:
            out["migrated"] = True
        return out

    def to_line(self) -> str:
        body = self.body()
        body["record"] = hashlib.sha256(canonical(body)).hexdigest()[:16]
        return json.dumps(body, separators=(",", ":"))

    def key(self) -> tuple:
        return (self.variant, self.first, self.count, tuple(sorted((k, p.sha256) for k, p in self.parts.items())))

    def describe(self) -> str:
        return f"variant {self.variant}, games {self.first:,}..{self.end - 1:,}"


def _int(x, low=0) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= low


def parse_record(obj, line: int) -> Record | None:
    """A record from a parsed line, or None when it is not a valid record."""
    if not isinstance(obj, dict) or not isinstance(obj.get("record"), str):
        return None
    body = {k: v for k, v in obj.items() if k != "record"}
    if hashlib.sha256(canonical(body)).hexdigest()[:16] != obj["record"]:
        return None
    v, c, first, count, secs = (obj.get(k) for k in ("variant", "chunk", "first", "games", "seconds"))
    if not (_int(v) and isinstance(c, int) and _int(first) and _int(count, 1)
            and isinstance(secs, (int, float)) and not isinstance(secs, bool)):
        return None
    parts, raw = {}, obj.get("parts")
    if not isinstance(raw, dict) or set(raw) != set(TABLES):
        return None
    name = part_file(v, first, count)
    for kind in TABLES:
        p = raw[kind]
        if not (isinstance(p, dict) and p.get("file") == f"{PARTS}/{kind}/{name}" and _int(p.get("rows"))
                and _int(p.get("bytes")) and isinstance(p.get("sha256"), str) and _HEX64.match(p["sha256"])):
            return None
        parts[kind] = PartInfo(p["file"], p["rows"], p["bytes"], p["sha256"])
    if parts["games"].rows != count:
        return None
    cfg = obj.get("config")
    if cfg is not None and not isinstance(cfg, str):
        return None
    return Record(v, c, first, count, float(secs), parts, cfg, bool(obj.get("migrated", False)), line)


@dataclass
class Log:
    records: list[Record] = field(default_factory=list)  # valid records, in file order, duplicates dropped
    damaged: list[int] = field(default_factory=list)  # line numbers of damaged lines
    timing: list[str] = field(default_factory=list)  # lines of the old layout's timing log (kept as they are)
    torn: bool = False  # a last line without its newline: an append that never finished
    duplicates: int = 0


def read_log(run_dir: Path, role: str = "") -> Log:
    path = Path(run_dir) / CHUNK_LOG
    log = Log()
    try:  # a regular file of at most MAX_LOG_BYTES, never through a link
        data = read_entry(Path(run_dir), CHUNK_LOG, role, folder_entries.MAX_LOG_BYTES, "restore the folder from a copy, or run the "
                          "command again into a new --out folder")
    except FileNotFoundError:
        return log
    except OSError as exc:
        raise BalanceError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        log.torn = True
        lines.pop()  # not a record: its append was cut short
    seen = set()
    for i, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            log.damaged.append(i)
            continue
        if isinstance(obj, dict) and "parts" not in obj and "record" not in obj and {"games", "seconds"} <= set(obj):
            log.timing.append(raw.decode("utf-8"))
            continue
        rec = parse_record(obj, i)
        if rec is None:
            log.damaged.append(i)
        elif rec.key() in seen:
            log.duplicates += 1
        else:
            seen.add(rec.key())
            log.records.append(rec)
    return log


def append_line(run_dir: Path, line: str) -> None:
    path = Path(run_dir) / CHUNK_LOG
    data = (line + "\n").encode()
    try:
        fd = open_entry(Path(run_dir), CHUNK_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, "--out")
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
    except OSError as exc:
        raise BalanceError(f"--out: cannot write {path} ({exc.strerror or exc}); the committed chunks are kept: "
                           "free some space and run the same command again to resume") from None


def rewrite_log(run_dir: Path, log: Log, keep: list[Record]) -> None:
    lines = log.timing + [r.to_line() for r in keep]
    replace_file(Path(run_dir), CHUNK_LOG, "".join(x + "\n" for x in lines), "free some space and run the same command again")
