"""The run folder on disk: where the parts live, the record that commits a
chunk, the one-writer lock, and the checks every reader makes
(docs/run-folder.md).

A chunk counts only once its commit record is in `chunks.jsonl`: all three
parts are written under temporary names in `parts/_staging/` (fsynced),
moved into their table folders (`parts/games/`, `parts/seats/`,
`parts/cards/`, one file name per chunk in each), the folders fsynced, and
then ONE line is appended (and fsynced) naming each part with its row count,
byte size and sha256, and carrying a checksum of its own. Readers trust
records only: a part no record names (a chunk killed after its parts moved
in) is ignored by every reader and removed by the next writer; a torn last
line (killed while appending) is not a record.

Why one log rather than a marker file per chunk: one append per chunk is the
whole commit (no directory of markers to list and fsync), a reader opens one
small file whatever the number of chunks, the line doubles as the timing log
that was already there, and its own checksum means a damaged line is
recognised as damaged instead of read as another range.

One writer per folder: `hold(run_dir)` takes `flock` on `.lock` (which holds
the writer's pid, host, start time and command, for the refusal message)
before anything else is written. The kernel drops the lock when its process
dies, however it dies, so a lock file left by a dead process is simply taken
over. The lock is per open file, so it also excludes a second writer in the
same process that opens the file on its own; `hold` is re-entrant for the
holder (the library calls `open_run` then `execute`).

Old folders (before this layout: flat `parts/games-v…-i…-n….parquet` files,
no records) are read by the old rule, a range is finished when its games part
is there, with its seats and cards parts of the same range required; the next
writer on such a folder moves its finished ranges into the table folders with
records (`migrate`), so it continues as a folder of this layout.

Split by role: the folder's names and the link-free opening, reading,
replacing and deleting of its entries are in analysis.folder_entries, the
lock in analysis.folder_lock, manifest.json in analysis.manifest, and
chunks.jsonl's records in analysis.chunk_log. This module holds what a reader
trusts (`committed`, `verify`, `check_folder`), the commit of a chunk
(`commit_chunk`, with its test fault points) and a writer's repair of a
folder before it adds chunks (`prepare`, `migrate`).
"""
from __future__ import annotations

import errno
import hashlib
import io
import os
import re
import signal
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import polars as pl

from balance.simcore.errors import BalanceError

from .chunk_log import Log, PartInfo, Record, append_line, read_log, rewrite_log
from .folder_entries import (
    CHUNK_LOG,
    PARTS,
    STAGING,
    TABLES,
    EntryRefused,
    _dir_fd,
    _entries_at,
    _fsync_fd,
    _link_words,
    _mode_words,
    _new_file_at,
    _remove_at,
    _unlink_at,
    check_entries,
    open_entry,
    part_file,
)
from .manifest_file import LAYOUT, config_hash

_PART_NAME = re.compile(r"^v(\d{4,})-i(\d{12,})-n(\d{9,})\.parquet$")
_LEGACY_NAME = re.compile(r"^(games|seats|cards)-([A-Za-z0-9-]+)\.parquet$")
_LEGACY_RANGE = re.compile(r"^v(\d+)-i(\d+)-n(\d+)$")

Notice = Callable[[str], None]


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot fsync a folder; the rename is still atomic
        pass
    finally:
        os.close(fd)


# ---------------------------------------------------------------- test hook: faults
FAULT_POINTS = ("begin", "staged:games", "staged:seats", "staged:cards",
                "moved:games", "moved:seats", "moved:cards", "committed")
_FAULTS: Counter = Counter()


def fault(point: str) -> None:
    """Called at each step of a chunk's commit (FAULT_POINTS). Does nothing
    unless a test asks: tests monkeypatch this function, or a child process
    gets BALANCE_TEST_FAULT=POINT@K (SIGKILL itself the K-th time it reaches
    POINT) or POINT@K:wait:PATH (create PATH.reached, then wait for PATH)."""
    want = os.environ.get("BALANCE_TEST_FAULT")
    if not want:
        return
    target, _, rest = want.partition(":wait:")
    name, _, k = target.rpartition("@")
    if name != point:
        return
    _FAULTS[point] += 1
    if _FAULTS[point] != int(k or 1):
        return
    if rest:
        Path(rest + ".reached").write_text(str(os.getpid()))
        deadline = time.monotonic() + 600
        while not Path(rest).exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        return
    os.kill(os.getpid(), signal.SIGKILL)


# ---------------------------------------------------------------- what a reader trusts
@dataclass
class Problem:
    text: str  # names the part or line and what is wrong
    record: Record | None = None


@dataclass
class View:
    """The committed chunks of a folder, as every reader sees them."""

    run_dir: Path
    layout: int  # LAYOUT (records) or 1 (an old folder: flat parts, no records)
    records: list[Record]
    legacy: dict[str, list[tuple[Path, int | None, int | None]]]  # kind -> (part, first, end) of an old folder
    problems: list[Problem]
    log: Log

    def parts(self, kind: str) -> list[tuple[Path, int | None, int | None]]:
        """(part, first game index, end) of each committed part of a kind, in
        (variant, first) order; first/end None when an old name does not say."""
        if self.layout == 1:
            return list(self.legacy[kind])
        return [(self.run_dir / r.parts[kind].file, r.first, r.end)
                for r in sorted(self.records, key=lambda r: (r.variant, r.first))]

    def covered(self) -> dict[int, list[tuple[int, int]]]:
        out: dict[int, list[tuple[int, int]]] = {}
        if self.layout == 1:
            for path, first, end in self.legacy["games"]:
                m = _LEGACY_RANGE.match(_LEGACY_NAME.match(path.name).group(2))
                if m and first is not None:
                    out.setdefault(int(m.group(1)), []).append((first, end - first))
            return out
        for r in self.records:
            out.setdefault(r.variant, []).append((r.first, r.count))
        return out


def _legacy_files(run_dir: Path) -> dict[str, dict[str, Path]]:
    found: dict[str, dict[str, Path]] = {k: {} for k in TABLES}
    parts = Path(run_dir) / PARTS
    if parts.is_dir():
        for p in parts.iterdir():
            m = _LEGACY_NAME.match(p.name)
            if m and p.is_file():
                found[m.group(1)][m.group(2)] = p
    return found


def _overlaps(spans: list[tuple[int, int, int, object]]) -> list[tuple[object, object]]:
    """Pairs (kept, later) among (variant, first, end, item) whose ranges overlap."""
    out = []
    last: dict[int, tuple[int, object]] = {}
    for v, a, b, item in sorted(spans, key=lambda s: (s[0], s[1], s[2])):
        if v in last and a < last[v][0]:
            out.append((last[v][1], item))
            continue
        last[v] = (b, item)
    return out


def committed(run_dir: Path, manifest: dict | None = None) -> View:
    """What the folder's records commit (or, in an old folder, its finished
    ranges), and every inconsistency found without reading the parts."""
    run_dir = Path(run_dir)
    log = read_log(run_dir)
    layout = LAYOUT if (log.records or log.damaged or (manifest or {}).get("layout") == LAYOUT) else 1
    problems: list[Problem] = [Problem(f"{CHUNK_LOG} line {i}: damaged (not a valid commit record)")
                               for i in log.damaged]
    legacy: dict[str, list] = {k: [] for k in TABLES}
    records = list(log.records)
    if layout == LAYOUT:
        want = config_hash(manifest or {})
        n_variants = len(((manifest or {}).get("config") or {}).get("variants") or []) or None
        good = []
        for r in records:
            if want is not None and r.config is not None and r.config != want:
                problems.append(Problem(f"{CHUNK_LOG} line {r.line} ({r.describe()}): written for another "
                                        "configuration than manifest.json's (the manifest was edited or replaced)", r))
            elif n_variants is not None and r.variant >= n_variants:
                problems.append(Problem(f"{CHUNK_LOG} line {r.line}: variant {r.variant} is not in manifest.json", r))
            else:
                good.append(r)
        for kept, later in _overlaps([(r.variant, r.first, r.end, r) for r in good]):
            problems.append(Problem(f"{CHUNK_LOG} lines {kept.line} and {later.line}: both record games of "
                                    f"{later.describe()}", later))
        records = good
    else:
        files = _legacy_files(run_dir)
        spans = []
        for key, games in sorted(files["games"].items()):
            m = _LEGACY_RANGE.match(key)
            first, end = (int(m.group(2)), int(m.group(2)) + int(m.group(3))) if m else (None, None)
            for kind in ("seats", "cards"):
                if key not in files[kind]:
                    problems.append(Problem(f"{PARTS}/{kind}-{key}.parquet: missing (its games part is there)"))
            for kind in TABLES:
                if key in files[kind]:
                    legacy[kind].append((files[kind][key], first, end))
            if m:
                spans.append((int(m.group(1)), first, end, key))
        for kept, later in _overlaps(spans):
            problems.append(Problem(f"{PARTS}/games-{kept}.parquet and games-{later}.parquet hold the same games"))
    return View(run_dir, layout, records, legacy, problems, log)


def check_part(run_dir: Path, info: PartInfo) -> str | None:
    """None when the part is the one its record names, else what is wrong.
    A part is a regular file reached without a link (open_entry), read no
    further than the size its record gives."""
    try:
        fd = open_entry(Path(run_dir), info.file, os.O_RDONLY)
    except FileNotFoundError:
        return "missing"
    except EntryRefused as exc:
        return exc.what if exc.rel == info.file else f"cannot be read ({exc.rel} is {exc.what})"
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    h, n = hashlib.sha256(), 0
    try:
        with os.fdopen(fd, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size != info.bytes:
                return f"damaged ({size:,} bytes, its record says {info.bytes:,})"
            while n <= info.bytes:
                block = fh.read(min(1 << 20, info.bytes + 1 - n))
                if not block:
                    break
                h.update(block)
                n += len(block)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if n != info.bytes:
        return f"damaged ({n:,} bytes read, its record says {info.bytes:,})"
    if h.hexdigest() != info.sha256:
        return "damaged (its sha256 differs from its record)"
    return None


def _legacy_check(path: Path, kind: str, first: int | None, end: int | None, players: int | None) -> str | None:
    """An old folder's part has no checksum: it must at least be readable Parquet with the right rows."""
    import stat

    import pyarrow.parquet as pq

    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not stat.S_ISREG(mode):
        return _link_words(path) if stat.S_ISLNK(mode) else f"{_mode_words(mode)}, not a regular file"
    try:
        rows = pq.read_metadata(path).num_rows
    except (OSError, ValueError) as exc:  # pyarrow.ArrowInvalid is a ValueError
        return f"damaged (not a readable Parquet file: {str(exc).splitlines()[0][:120]})"
    if first is not None and kind == "games" and rows != end - first:
        return f"damaged ({rows:,} rows for {end - first:,} games)"
    if first is not None and kind == "seats" and players and rows != (end - first) * players:
        return f"damaged ({rows:,} rows for {end - first:,} games of {players} seats)"
    return None


def verify(view: View, players: int | None = None) -> list[Problem]:
    """Every committed part checked against its record (size, sha256); in an
    old folder, that each part opens as Parquet with the rows its name says."""
    out = []
    if view.layout == 1:
        for kind in TABLES:
            for path, first, end in view.legacy[kind]:
                why = _legacy_check(path, kind, first, end, players)
                if why:
                    out.append(Problem(f"{PARTS}/{path.name}: {why}"))
        return out
    for r in view.records:
        for kind in TABLES:
            why = check_part(view.run_dir, r.parts[kind])
            if why:
                out.append(Problem(f"{r.parts[kind].file}: {why}", r))
    return out


def on_folder(command: str, run_dir: Path) -> str:
    """The manifest's command aimed at `run_dir` (its --out replaced, or added):
    a copied or moved folder is repaired where it is, not where it was made."""
    import shlex

    try:
        argv = shlex.split(command)
    except ValueError:  # not a command line shlex can read: leave it as recorded
        return command
    out, found, i = [], False, 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--out" and i + 1 < len(argv):
            out += [arg, str(run_dir)]
            found, i = True, i + 2
            continue
        if arg.startswith("--out="):
            out.append(f"--out={run_dir}")
            found = True
        else:
            out.append(arg)
        i += 1
    if not found:
        out += ["--out", str(run_dir)]
    return shlex.join(out)


def repair_hint(manifest: dict | None, run_dir: Path | None = None) -> str:
    """How to recompute what is damaged: the command that made the folder, on
    the folder the user gave (`run_dir`), wherever it was made."""
    cmd = str((manifest or {}).get("command") or "").strip()
    if cmd and run_dir is not None:
        return (f"run the command that made it again to recompute what is damaged (it is in manifest.json; "
                f"on this folder: {on_folder(cmd, Path(run_dir))})")
    if cmd:
        return f"run the command that made it again to recompute what is damaged (it is in manifest.json: {cmd})"
    where = f" with --out {run_dir}" if run_dir is not None else ""
    return f"run the same simulate command again{where} to recompute what is damaged"


def refuse(run_dir: Path, problems: list[Problem], manifest: dict | None, role: str = "") -> None:
    if not problems:
        return
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    where = f"{role}: " if role else ""
    raise BalanceError(f"{where}{run_dir}: {problems[0].text}{more}; {repair_hint(manifest, run_dir)}")


def check_folder(run_dir: Path, manifest: dict | None, players: int | None = None, role: str = "") -> View:
    """The committed view of a folder, every part verified; a BalanceError
    naming the first damaged part, line or range otherwise."""
    view = committed(run_dir, manifest)
    refuse(run_dir, view.problems, manifest, role)
    refuse(run_dir, verify(view, players), manifest, role)
    return view


# ---------------------------------------------------------------- the writer
def _write_error(path: Path, exc: BaseException) -> BalanceError:
    text = str(exc).strip()
    why = getattr(exc, "strerror", None) or (text.splitlines()[0] if text else type(exc).__name__)
    return BalanceError(f"--out: cannot write {path} ({why}); the committed chunks are kept: "
                        "free some space and run the same command again to resume")


def _parquet_bytes(frame: pl.DataFrame, path: Path) -> bytes:
    buf = io.BytesIO()
    try:
        frame.write_parquet(buf)
    except (OSError, pl.exceptions.ComputeError) as exc:  # polars reports a failed write as ComputeError
        raise _write_error(path, exc) from None
    return buf.getvalue()


def _write_durable(dfd: int, path: Path, data: bytes) -> None:
    """A new file `path.name` in the folder `dfd` (never through a link), fsynced."""
    name = path.name
    try:
        _new_file_at(dfd, name, data)
    except OSError as exc:
        try:
            _unlink_at(dfd, name)
        except OSError:
            pass
        raise _write_error(path, exc) from None


def commit_chunk(run_dir: Path, task: tuple[int, int, int, int], frames: dict[str, pl.DataFrame],
                 seconds: float, config: str | None) -> Record:
    """Write a chunk's three parts and commit them with one record (module docstring)."""
    run_dir = Path(run_dir)
    v, c, first, count = task
    name = part_file(v, first, count)
    staging = run_dir / PARTS / STAGING
    fault("begin")
    fds: dict[str, int] = {}  # parts/_staging and the table folders, each reached without a link
    try:
        try:
            for sub in (STAGING,) + TABLES:
                fds[sub] = _dir_fd(run_dir, (PARTS, sub), "--out", create=True)
        except OSError as exc:
            raise _write_error(staging, exc) from None
        staged, infos = {}, {}
        try:
            for kind in TABLES:
                tmp = staging / f"{kind}-{name}.{os.getpid()}.tmp"
                data = _parquet_bytes(frames[kind], tmp)
                _write_durable(fds[STAGING], tmp, data)
                staged[kind] = tmp.name
                infos[kind] = PartInfo(f"{PARTS}/{kind}/{name}", frames[kind].height, len(data),
                                       hashlib.sha256(data).hexdigest())
                fault(f"staged:{kind}")
        except Exception:  # a full disk: drop this chunk's staged parts (a killed process leaves them to `prepare`)
            for tmp in staged.values():
                _unlink_at(fds[STAGING], tmp)
            raise
        for kind in TABLES:
            try:
                os.replace(staged[kind], name, src_dir_fd=fds[STAGING], dst_dir_fd=fds[kind])
            except OSError as exc:
                raise _write_error(run_dir / infos[kind].file, exc) from None
            fault(f"moved:{kind}")
        for kind in TABLES:
            _fsync_fd(fds[kind])
    finally:
        for fd in fds.values():
            os.close(fd)
    rec = Record(v, c, first, count, round(seconds, 4), infos, config)
    append_line(run_dir, rec.to_line())
    fault("committed")
    return rec


def _ours(name: str) -> bool:
    return bool(_PART_NAME.match(name))


def prepare(run_dir: Path, manifest: dict, players: int, notice: Notice | None = None) -> None:
    """Before a writer adds chunks (holding the lock): drop what is not
    committed, and every record whose parts do not match it (its games are
    then played again); move an old folder's finished ranges into the table
    folders with records. Afterwards the table folders hold exactly the
    committed parts, so a plain read of a table folder is exact."""
    run_dir = Path(run_dir)
    say = notice or (lambda text: None)
    check_entries(run_dir, "--out", tables=True)  # nothing below is deleted or written through a link
    for name, is_dir in _entries_at(run_dir, (PARTS, STAGING)):  # parts of chunks that were never moved in
        _remove_at(run_dir, (PARTS, STAGING), name, is_dir)
    cfg = config_hash(manifest)
    log = read_log(run_dir)
    view = committed(run_dir, {**manifest, "layout": LAYOUT})
    drop = {id(p.record): p for p in view.problems if p.record is not None}
    for p in verify(view):
        drop.setdefault(id(p.record), p)
    keep = [r for r in view.records if id(r) not in drop]
    for p in view.problems + [p for p in drop.values() if p not in view.problems]:
        games = f"; its {p.record.count:,} games are played again" if p.record is not None else \
            "; the chunk it recorded is played again"
        say(f"repaired: {p.text}{games}")
    if drop or log.damaged or log.torn or log.duplicates:
        rewrite_log(run_dir, log, keep)
    # an old folder: its finished ranges become records, the rest goes
    old = _legacy_files(run_dir)
    if any(old.values()):
        keep += migrate(run_dir, old, keep, cfg, players, manifest, say)
    referenced = {r.parts[k].file for r in keep for k in TABLES}
    for kind in TABLES:
        for name, is_dir in _entries_at(run_dir, (PARTS, kind)):
            rel = f"{PARTS}/{kind}/{name}"
            if rel in referenced:
                continue
            if is_dir:
                raise BalanceError(f"--out: {run_dir / rel} is a folder inside a table folder; "
                                   "allowed: only the parts balance writes; move it out of the run folder")
            if not _ours(name):
                say(f"removed {rel}: no commit record names it (not a part of this run)")
            _remove_at(run_dir, (PARTS, kind), name, False)  # ours: a chunk killed before its record


def migrate(run_dir: Path, old: dict[str, dict[str, Path]], keep: list[Record], cfg: str | None,
            players: int, manifest: dict, say: Notice) -> list[Record]:
    """Move an old folder's finished ranges (games, seats and cards parts of one
    range, readable, with the rows the name says) into the table folders, each
    with a record; drop the rest (their games are played again)."""
    chunk_size = int((manifest.get("config") or {}).get("chunk_size") or 1) or 1
    taken = [(r.variant, r.first, r.end) for r in keep]
    added = []
    for key, games in sorted(old["games"].items()):
        m = _LEGACY_RANGE.match(key)
        if not m:
            raise BalanceError(f"--out: {games} is not a part name balance writes; this old folder can be "
                               "reported but not resumed: use another --out folder")
        v, first, count = int(m.group(1)), int(m.group(2)), int(m.group(3))
        paths = {k: old[k].pop(key, None) for k in TABLES}
        why = None
        recorded = any(tv == v and a < first + count and first < b for tv, a, b in taken)
        if recorded:  # left by a migration that was cut short: the record is the one that counts
            why = "recorded"
        elif any(p is None for p in paths.values()):
            why = f"{PARTS}/{next(k for k in TABLES if paths[k] is None)}-{key}.parquet is missing"
        else:
            for kind in TABLES:
                bad = _legacy_check(paths[kind], kind, first, first + count, players)
                if bad:
                    why = f"{PARTS}/{paths[kind].name} is {bad}"
                    break
        if why is not None:
            for p in paths.values():
                if p is not None:
                    p.unlink(missing_ok=True)
            if not recorded:
                say(f"repaired: {why}; its {count:,} games are played again")
            continue
        name = part_file(v, first, count)
        infos = {}
        for kind in TABLES:
            dest = run_dir / PARTS / kind / name
            dest.parent.mkdir(exist_ok=True)
            import pyarrow.parquet as pq

            infos[kind] = PartInfo(f"{PARTS}/{kind}/{name}", pq.read_metadata(paths[kind]).num_rows,
                                   paths[kind].stat().st_size, sha256_file(paths[kind]))
            os.replace(paths[kind], dest)
        for kind in TABLES:
            _fsync_dir(run_dir / PARTS / kind)
        rec = Record(v, first // chunk_size, first, count, 0.0, infos, cfg, migrated=True)
        append_line(run_dir, rec.to_line())
        taken.append((v, first, first + count))
        added.append(rec)
    for kind in ("seats", "cards"):  # parts of ranges whose games part never landed: unfinished
        for p in old[kind].values():
            p.unlink(missing_ok=True)
    return added


def is_disk_full(exc: OSError) -> bool:
    return getattr(exc, "errno", None) in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
