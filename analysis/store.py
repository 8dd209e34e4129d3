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
"""
from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import re
import signal
import socket
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import polars as pl

from balance.simcore.errors import BalanceError

TABLES = ("games", "seats", "cards")
PARTS = "parts"
STAGING = "_staging"  # under parts/: pyarrow and polars skip names starting with "_" or "."
CHUNK_LOG = "chunks.jsonl"
LOCK = ".lock"
MANIFEST = "manifest.json"
LAYOUT = 2  # manifest["layout"]: parts in table folders, committed by records

_PART_NAME = re.compile(r"^v(\d{4,})-i(\d{12,})-n(\d{9,})\.parquet$")
_LEGACY_NAME = re.compile(r"^(games|seats|cards)-([A-Za-z0-9-]+)\.parquet$")
_LEGACY_RANGE = re.compile(r"^v(\d+)-i(\d+)-n(\d+)$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")

Notice = Callable[[str], None]


def part_file(variant: int, first: int, count: int) -> str:
    """A chunk's file name, the same in each table folder."""
    return f"v{variant:04d}-i{first:012d}-n{count:09d}.parquet"


def canonical(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def config_hash(manifest: dict) -> str | None:
    """The hash of the configuration a folder holds (its manifest's identity),
    written into every record so that a record can be matched to its manifest."""
    ident = (manifest.get("config") or {}).get("identity") if isinstance(manifest, dict) else None
    return hashlib.sha256(canonical(ident)).hexdigest()[:16] if ident is not None else None


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


# ---------------------------------------------------------------- the folder's own entries
# A run folder is shared between people, so nothing in it is trusted to be what its name says:
# no link is ever followed below the folder (every file is opened from its folder's descriptor
# with O_NOFOLLOW, every folder with O_DIRECTORY|O_NOFOLLOW), a file read is a regular file
# (a named pipe or a device is refused before it can block or never end) read with a cap per
# kind, and a writer (and `balance report`) refuses a folder holding a link or a special file
# anywhere among its own entries before it writes or deletes anything (`check_entries`). The
# folder itself may be a link: it is the one path the user gave.
CARDS = "cards"  # card lists the folder holds: copies of the lists it played, an impact folder's variants
RESULTS = ("summary.json", "stopping.json", "impact.json", "ladder.json", "comparison.json")
MAX_MANIFEST_BYTES = 256 * 2**20  # a 10,000-point sweep's manifest is ~20 MB
MAX_LOG_BYTES = 2**30  # chunks.jsonl: ~700 bytes a chunk, so room for over a million chunks
MAX_RESULT_BYTES = 2**30  # summary.json and the like: a 10,000-point sweep's summary is a few hundred MB
MAX_CARD_BYTES = 4 * 2**20  # a card list (simcore.files.MAX_FILE_BYTES)
ENTRY_HELP = ("allowed: a run folder holding only its own files and folders, never a link or a special file "
              "(replace it by a copy of what it points to, or use another folder)")


def file_cap(rel: str) -> int | None:
    """The most bytes balance reads of a file of the folder (None: never read)."""
    if rel == MANIFEST:
        return MAX_MANIFEST_BYTES
    if rel == CHUNK_LOG:
        return MAX_LOG_BYTES
    if rel in RESULTS:
        return MAX_RESULT_BYTES
    if rel.startswith(CARDS + "/"):
        return MAX_CARD_BYTES
    return None


class EntryRefused(BalanceError):
    """An entry of a run folder that is not what balance may read or write
    there (a link, a special file, too large): `rel` names it, `what` says why."""

    def __init__(self, text: str, rel: str, what: str):
        super().__init__(text)
        self.rel = rel
        self.what = what


def _mode_words(mode: int) -> str:
    import stat

    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a regular file" if stat.S_ISREG(mode) else "a special file"


def _link_words(path: Path) -> str:
    try:
        return f"a symbolic link (to {os.readlink(path)}), never followed in a run folder"
    except OSError:
        return "a symbolic link, never followed in a run folder"


def refuse_entry(run_dir: Path, rel: str, what: str, role: str = "", how: str = ENTRY_HELP) -> EntryRefused:
    where = f"{role}: " if role else ""
    return EntryRefused(f"{where}{Path(run_dir) / rel}: {what}; {how}", rel, what)


def _describe(run_dir: Path, rel: str, want: str) -> str:
    """What an entry is, when it is not `want` ("a folder" or "a regular file")."""
    path = Path(run_dir) / rel
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        return f"cannot be opened ({exc.strerror or exc})"
    words = _mode_words(mode)
    if words == "a symbolic link":
        return _link_words(path)
    return f"{words}, not {want}"


def _dir_fd(run_dir: Path, names, role: str = "", create: bool = False) -> int:
    """A descriptor of the folder run_dir/names..., reached without following a
    link below run_dir (each one created when `create`); the caller closes it."""
    fd = os.open(run_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    done: list[str] = []
    try:
        for name in names:
            done.append(name)
            if create:
                try:
                    os.mkdir(name, 0o755, dir_fd=fd)
                except FileExistsError:
                    pass
            try:
                nfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    rel = "/".join(done)
                    raise refuse_entry(run_dir, rel, _describe(run_dir, rel, "a folder"), role) from None
                raise
            os.close(fd)
            fd = nfd
        return fd
    except BaseException:
        os.close(fd)
        raise


def open_entry(run_dir: Path, rel: str, flags: int, role: str = "", mode: int = 0o644) -> int:
    """A descriptor of the regular file run_dir/rel (a path with "/"), no link
    followed at any step below run_dir, never blocking on a named pipe; an
    EntryRefused naming it when it is a link, a folder or a special file.
    FileNotFoundError (and other OSErrors) as os.open raises them."""
    import stat

    *folders, name = rel.split("/")
    dfd = _dir_fd(run_dir, folders, role)
    try:
        try:
            fd = os.open(name, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, mode, dir_fd=dfd)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO, errno.ENODEV, errno.EOPNOTSUPP):
                raise refuse_entry(run_dir, rel, _describe(run_dir, rel, "a regular file"), role) from None
            raise
    finally:
        os.close(dfd)
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise refuse_entry(run_dir, rel, f"{_mode_words(st.st_mode)}, not a regular file", role)
    return fd


def read_entry(run_dir: Path, rel: str, role: str = "", cap: int | None = None, how: str = ENTRY_HELP) -> bytes:
    """The content of the regular file run_dir/rel, at most `cap` bytes (its
    kind's, `file_cap`); an EntryRefused naming it otherwise. FileNotFoundError
    when it is not there."""
    cap = cap if cap is not None else (file_cap(rel) or MAX_RESULT_BYTES)
    fd = open_entry(run_dir, rel, os.O_RDONLY, role)
    with os.fdopen(fd, "rb") as fh:
        size = os.fstat(fd).st_size
        if size > cap:
            raise refuse_entry(run_dir, rel, f"{size:,} bytes, larger than the {_mb(cap)} allowed for it", role, how)
        data = fh.read(cap + 1)
    if len(data) > cap:
        raise refuse_entry(run_dir, rel, f"larger than the {_mb(cap)} allowed for it", role, how)
    return data


def _mb(n: int) -> str:
    if n >= 2**30 and n % 2**30 == 0:
        return f"{n // 2**30:,} GB"
    return f"{n // 2**20:,} MB" if n >= 2**20 and n % 2**20 == 0 else f"{n:,} bytes"


def sha256_entry(run_dir: Path, rel: str, limit: int, role: str = "") -> tuple[int, str]:
    """(bytes, sha256) of the regular file run_dir/rel, reading at most limit + 1 bytes."""
    fd = open_entry(run_dir, rel, os.O_RDONLY, role)
    h, n = hashlib.sha256(), 0
    with os.fdopen(fd, "rb") as fh:
        while n <= limit:
            block = fh.read(min(1 << 20, limit + 1 - n))
            if not block:
                break
            h.update(block)
            n += len(block)
    return n, h.hexdigest()


def replace_entry(run_dir: Path, rel: str, data: bytes, role: str = "--out", create: bool = False) -> None:
    """Replace run_dir/rel with `data` atomically and durably (a new temporary
    file beside it, fsync, rename, fsync of the folder), no link followed;
    OSError as raised (the callers word it). `create`: make its folders."""
    *folders, name = rel.split("/")
    dfd = _dir_fd(run_dir, folders, role, create=create)
    tmp = f".{name}.{os.getpid()}.tmp"
    try:
        _new_file_at(dfd, tmp, data)
        os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)  # replaces a link itself, never what it points to
        _fsync_fd(dfd)
    except OSError:
        try:
            os.unlink(tmp, dir_fd=dfd)
        except OSError:
            pass
        raise
    finally:
        os.close(dfd)


def _fsync_fd(fd: int) -> None:
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot fsync a folder; the rename is still atomic
        pass


def check_entries(run_dir: Path, role: str = "", tables: bool = False) -> None:
    """Refuse a folder holding a link or a special file among its own entries:
    its top level, parts/ and parts/_staging/, cards/ and, with `tables`, the
    table folders (a writer, which deletes there); a file balance reads over its
    kind's cap; parts/ or cards/ not a folder. One line naming the entry.
    Folders of the user's own inside it are neither read nor written."""
    run_dir = Path(run_dir)

    def entries(rel: str):
        try:
            with os.scandir(run_dir / rel if rel else run_dir) as it:
                return list(it)
        except (FileNotFoundError, NotADirectoryError):
            return []

    def look(e, rel: str, folder: bool | None = None) -> None:
        """folder True: must be a folder; False: must be a regular file; None: either."""
        if e.is_symlink():
            raise refuse_entry(run_dir, rel, _link_words(run_dir / rel), role)
        is_dir = e.is_dir(follow_symlinks=False)
        if folder is True and not is_dir:
            raise refuse_entry(run_dir, rel, _describe(run_dir, rel, "a folder"), role)
        if is_dir:
            if folder is False:
                raise refuse_entry(run_dir, rel, "a folder, not a file", role)
            return
        if not e.is_file(follow_symlinks=False):
            raise refuse_entry(run_dir, rel, _describe(run_dir, rel, "a regular file"), role)
        cap = file_cap(rel)
        if cap is not None:
            size = e.stat(follow_symlinks=False).st_size
            if size > cap:
                raise refuse_entry(run_dir, rel, f"{size:,} bytes, larger than the {_mb(cap)} allowed for it", role)

    files = (MANIFEST, CHUNK_LOG, LOCK) + RESULTS
    for e in entries(""):
        look(e, e.name, True if e.name in (PARTS, CARDS) else False if e.name in files else None)
    for e in entries(PARTS):
        look(e, f"{PARTS}/{e.name}", True if e.name in TABLES + (STAGING,) else None)
    for sub in (f"{PARTS}/{STAGING}", CARDS) + (tuple(f"{PARTS}/{k}" for k in TABLES) if tables else ()):
        for e in entries(sub):
            look(e, f"{sub}/{e.name}")


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


# ---------------------------------------------------------------- the lock
_HELD: dict[Path, "FolderLock"] = {}


def _lock_holder(text: str) -> str:
    try:
        info = json.loads(text)
        cmd = str(info.get("command", ""))
        cmd = cmd if len(cmd) <= 120 else cmd[:117] + "..."
        return (f"pid {info['pid']} on {info['host']}, since {info['started']}"
                + (f": {cmd}" if cmd else ""))
    except (ValueError, KeyError, TypeError, AttributeError):
        return "it is starting"


class FolderLock:
    """flock on `<run>/.lock`, released by `release` or by the process's end."""

    def __init__(self, run_dir: Path, role: str, command: str = ""):
        self.path = Path(run_dir) / LOCK
        while True:
            try:  # never through a link: a linked .lock would be overwritten wherever it points
                fd = open_entry(Path(run_dir), LOCK, os.O_RDWR | os.O_CREAT, role)
            except OSError as exc:
                raise BalanceError(f"{role}: cannot create the lock file {self.path} ({exc.strerror or exc}); "
                                   "allowed: a folder you can write to") from None
            try:
                import fcntl

                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _lock_holder(os.pread(fd, 4096, 0).decode("utf-8", "replace"))
                os.close(fd)
                raise BalanceError(f"{role}: {run_dir} is being written by another balance process ({holder}); "
                                   "wait for it to finish, or use another folder") from None
            except OSError as exc:
                os.close(fd)
                raise BalanceError(f"{role}: cannot lock {self.path} ({exc.strerror or exc}); allowed: a folder on a "
                                   "file system with file locks (a local disk, NFS v4)") from None
            # a writer that is letting go unlinks the file it locked: lock the file at the path
            try:
                same = os.lstat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        self.fd = fd
        self.previous = os.pread(fd, 4096, 0).decode("utf-8", "replace")  # a dead writer's, if any
        info = {"pid": os.getpid(), "host": socket.gethostname(),
                "started": datetime.now(timezone.utc).isoformat(timespec="seconds"), "command": command}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)
        os.fsync(fd)

    def release(self) -> None:
        try:
            if os.lstat(self.path).st_ino == os.fstat(self.fd).st_ino:
                os.unlink(self.path)
        except OSError:
            pass
        os.close(self.fd)


def hold(run_dir: Path, role: str = "--out", command: str = "") -> FolderLock:
    """Take the folder's lock (or keep the one this process holds)."""
    key = Path(run_dir).resolve()
    lock = _HELD.get(key)
    if lock is None:
        lock = _HELD[key] = FolderLock(Path(run_dir), role, command)
    return lock


def release(run_dir: Path) -> None:
    lock = _HELD.pop(Path(run_dir).resolve(), None)
    if lock is not None:
        lock.release()


def holds(run_dir: Path) -> bool:
    return Path(run_dir).resolve() in _HELD


# ---------------------------------------------------------------- the manifest


def manifest_checksum(manifest: dict) -> str:
    return hashlib.sha256(canonical({k: v for k, v in manifest.items() if k != "checksum"})).hexdigest()[:16]


def write_manifest(run_dir: Path, manifest: dict) -> dict:
    """Write manifest.json atomically with its checksum (every writer of a
    manifest goes through here: an edited manifest is then recognised)."""
    manifest = {k: v for k, v in manifest.items() if k != "checksum"}
    manifest["checksum"] = manifest_checksum(manifest)
    _replace_file(Path(run_dir), MANIFEST, json.dumps(manifest, indent=2),
                  "allowed: a folder you can write to, on a disk with free space")
    return manifest


def _replace_file(run_dir: Path, rel: str, text: str, how: str) -> None:
    """Replace run_dir/rel with `text` atomically and durably, no link followed
    (replace_entry), or a BalanceError ending with `how`."""
    try:
        replace_entry(run_dir, rel, text.encode("utf-8"))
    except OSError as exc:
        raise BalanceError(f"--out: cannot write {Path(run_dir) / rel} ({exc.strerror or exc}); {how}") from None


_HOW = ("restore manifest.json from a copy of the folder, or run the command again into a new --out folder")


def _shape_problem(m: dict) -> str | None:
    """What is missing or malformed in a parsed manifest (None when it is sound)."""
    cfg = m.get("config")
    if not isinstance(cfg, dict):
        return "no 'config' object"
    for key, kind in (("game", str), ("mode", str), ("players", int), ("seed", int), ("chunk_size", int),
                      ("policies", list), ("variants", list)):
        if key not in cfg:
            return f"missing key config.{key}"
        if not isinstance(cfg[key], kind) or isinstance(cfg[key], bool):
            return f"config.{key} is not a {'whole number' if kind is int else kind.__name__}"
    if not 0 <= cfg["seed"] < 2**64:
        return "config.seed is not in 0..2**64-1"
    if cfg["players"] < 1 or cfg["chunk_size"] < 1:
        return "config.players or config.chunk_size is below 1"
    if not cfg["variants"]:
        return "config.variants is empty"
    for i, v in enumerate(cfg["variants"]):
        if not (isinstance(v, dict) and isinstance(v.get("name"), str) and isinstance(v.get("params"), dict)):
            return f"config.variants[{i}] is not an object with a name and params"
    for i, p in enumerate(cfg["policies"]):
        if not (isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("kind"), int)
                and isinstance(p.get("params"), list)
                and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in p["params"])):
            return f"config.policies[{i}] is not an object with a name, kind and params"
    if "n_games" not in m:
        return "missing key n_games"
    if not isinstance(m["n_games"], int) or isinstance(m["n_games"], bool) or m["n_games"] < 0:
        return "n_games is not a whole number"
    ident = cfg.get("identity")
    if ident is not None and (not isinstance(ident, dict) or ident.get("game") != cfg["game"]):
        return "config.identity does not match config.game (the manifest was edited)"
    return None


def read_manifest(run_dir: Path, role: str = "", required: bool = True) -> dict:
    """manifest.json, checked: a JSON object, its checksum (when it has one)
    and, when `required`, the keys a command needs. A BalanceError naming the
    file and what is wrong otherwise; {} when absent and not required."""
    path = Path(run_dir) / MANIFEST
    where = f"{role}: " if role else ""
    check_entries(Path(run_dir), role)  # every command reads the manifest first: no link, no pipe, nothing too large
    try:
        data = read_entry(Path(run_dir), MANIFEST, role, MAX_MANIFEST_BYTES, _HOW)
    except EntryRefused as exc:
        if exc.what.startswith("a folder"):
            raise BalanceError(f"{where}{path}: damaged (a folder, not a file); {_HOW}") from None
        raise
    except FileNotFoundError:
        if not required:
            return {}
        raise BalanceError(f"{where}{run_dir}: not a run folder (no {MANIFEST}); allowed: a folder written by "
                           "balance simulate, sweep or compare") from None
    except IsADirectoryError:
        raise BalanceError(f"{where}{path}: damaged (a folder, not a file); {_HOW}") from None
    except OSError as exc:
        raise BalanceError(f"{where}{path}: cannot read it ({exc.strerror or exc})") from None
    if len(data) > MAX_MANIFEST_BYTES:
        raise BalanceError(f"{where}{path}: damaged (larger than {MAX_MANIFEST_BYTES // 2**20} MB); {_HOW}")
    if not data.strip():
        raise BalanceError(f"{where}{path}: damaged (empty); {_HOW}")
    try:
        m = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BalanceError(f"{where}{path}: damaged (not valid JSON: {str(exc).splitlines()[0][:80]}); {_HOW}") from None
    except RecursionError:
        raise BalanceError(f"{where}{path}: damaged (nested too deeply); {_HOW}") from None
    if not isinstance(m, dict):
        raise BalanceError(f"{where}{path}: damaged (a JSON {type(m).__name__}, not an object); {_HOW}")
    if "checksum" in m and m["checksum"] != manifest_checksum(m):
        raise BalanceError(f"{where}{path}: edited or damaged (its checksum does not match its content); {_HOW}")
    if required:
        why = _shape_problem(m)
        if why:
            raise BalanceError(f"{where}{path}: damaged ({why}); {_HOW}")
    return m


# ---------------------------------------------------------------- commit records
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
        data = read_entry(Path(run_dir), CHUNK_LOG, role, MAX_LOG_BYTES, "restore the folder from a copy, or run the "
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


def _append_line(run_dir: Path, line: str) -> None:
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


def _rewrite_log(run_dir: Path, log: Log, keep: list[Record]) -> None:
    lines = log.timing + [r.to_line() for r in keep]
    _replace_file(Path(run_dir), CHUNK_LOG, "".join(x + "\n" for x in lines), "free some space and run the same command again")


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


def _unlink_at(dfd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dfd)  # removes a link itself, never what it points to
    except FileNotFoundError:
        pass


def _new_file_at(dfd: int, name: str, data: bytes) -> None:
    """`data` as a new file `name` in the folder `dfd`, fsynced; one left there by a killed
    process of the same pid is removed first (a link is removed, never followed)."""
    _unlink_at(dfd, name)
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644, dir_fd=dfd)
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    """All of `data` to `fd` (a write may take less), then fsync."""
    while data:
        data = data[os.write(fd, data):]
    os.fsync(fd)


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
    _append_line(run_dir, rec.to_line())
    fault("committed")
    return rec


def _entries_at(run_dir: Path, folders: tuple[str, ...]) -> list[tuple[str, bool]]:
    """(name, is a folder) of each entry of run_dir/folders (none when it is
    not there); a link among them, or on the way, is refused naming it."""
    try:
        dfd = _dir_fd(run_dir, folders, "--out")
    except FileNotFoundError:
        return []
    try:
        with os.scandir(dfd) as it:
            found = list(it)
    finally:
        os.close(dfd)
    out = []
    for e in found:
        rel = "/".join(folders + (e.name,))
        if e.is_symlink():
            raise refuse_entry(run_dir, rel, _link_words(Path(run_dir) / rel), "--out")
        out.append((e.name, e.is_dir(follow_symlinks=False)))
    return out


def _remove_at(run_dir: Path, folders: tuple[str, ...], name: str, is_dir: bool) -> None:
    """Delete run_dir/folders/name (a folder with what it holds), from the
    folder's descriptor: no link is followed, here or below it."""
    import shutil

    dfd = _dir_fd(run_dir, folders, "--out")
    try:
        if is_dir:
            shutil.rmtree(name, dir_fd=dfd)  # fd-based: it removes links inside, never what they point to
        else:
            _unlink_at(dfd, name)
    finally:
        os.close(dfd)


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
        _rewrite_log(run_dir, log, keep)
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
        _append_line(run_dir, rec.to_line())
        taken.append((v, first, first + count))
        added.append(rec)
    for kind in ("seats", "cards"):  # parts of ranges whose games part never landed: unfinished
        for p in old[kind].values():
            p.unlink(missing_ok=True)
    return added


def is_disk_full(exc: OSError) -> bool:
    return getattr(exc, "errno", None) in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
