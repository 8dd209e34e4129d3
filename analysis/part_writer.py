"""A chunk's Parquet parts written on a thread of their own, one chunk behind
the engine.

The engine's kernels release the GIL (`nogil=True`), so the next chunk plays
while this one is turned into frames and committed (analysis.store.commit_chunk:
its parts staged, moved into their table folders, then its one record):
before, every chunk's frames and writes held the engine up (about 4 s of a
million-game Overtime run). One write at a time, in the order the chunks
were played, so at most one chunk's results wait in memory whatever the
number of games. A failed write raises its own error (the same
BalanceError) in the thread that submits the next one, or at the end.
"""
from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Self


class PartWriter:
    """`with PartWriter() as w: w.submit(write)` for each chunk; leaving the
    block waits for the last write and raises its error, if any."""

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="balance-parts")
        self._pending: Future | None = None

    def submit(self, write: Callable[[], None]) -> None:
        """Start `write` once the previous write has finished (raising its error)."""
        self.wait()
        self._pending = self._thread.submit(write)

    def wait(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.result()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        # On an error in the run itself (a broken invariant, Ctrl-C) the chunk
        # being written still finishes, as it did when writes were inline, and
        # that error is the one reported.
        try:
            if exc_type is None:
                self.wait()
        finally:
            self._thread.shutdown(wait=True)
