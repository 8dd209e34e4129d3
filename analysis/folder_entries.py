"""A run folder's own entries: their names, and how balance opens, reads,
replaces and deletes each one without following a link (docs/run-folder.md,
"Nothing in a folder is followed, nothing read without a bound").

Every reader and writer of a run folder goes through these helpers: a file is
opened from its folder's descriptor with O_NOFOLLOW, a folder with
O_DIRECTORY|O_NOFOLLOW, a read is capped per kind of file (`file_cap`), and
`check_entries` refuses a folder holding a link or a special file before a
writer deletes or writes anything. Split from analysis.store, which commits
and checks the chunks on top of them.
"""
from __future__ import annotations

import errno
import hashlib
import os
from pathlib import Path

from balance.simcore.errors import BalanceError

TABLES = ("games", "seats", "cards")
PARTS = "parts"
STAGING = "_staging"  # under parts/: pyarrow and polars skip names starting with "_" or "."
CHUNK_LOG = "chunks.jsonl"
LOCK = ".lock"
MANIFEST = "manifest.json"


def part_file(variant: int, first: int, count: int) -> str:
    """A chunk's file name, the same in each table folder."""
    return f"v{variant:04d}-i{first:012d}-n{count:09d}.parquet"


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


def replace_file(run_dir: Path, rel: str, text: str, how: str) -> None:
    """Replace run_dir/rel with `text` atomically and durably, no link followed
    (replace_entry), or a BalanceError ending with `how`."""
    try:
        replace_entry(run_dir, rel, text.encode("utf-8"))
    except OSError as exc:
        raise BalanceError(f"--out: cannot write {Path(run_dir) / rel} ({exc.strerror or exc}); {how}") from None


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
