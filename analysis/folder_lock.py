"""The one-writer lock of a run folder: `hold(run_dir)` takes flock on
`<run>/.lock` (holding the writer's pid, host, start time and command, for
the refusal message) before anything else is written; the kernel drops it
when its process dies, however it dies, so a lock file left by a dead process
is simply taken over. Re-entrant for its holder (open_run, then execute).
Split from analysis.store (its module docstring says why one writer).
"""
from __future__ import annotations

import json
import os
import socket
from datetime import datetime, timezone
from pathlib import Path

from balance.simcore.errors import BalanceError

from .folder_entries import LOCK, open_entry

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
