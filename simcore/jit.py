"""The project's one jit decorator: every kernel goes through `jit`.

Numba keys its on-disk cache on the file that holds a function, not on the
files it calls, and keys a function that receives other jitted functions on
their per-process uuid. Both would make `cache=True` either stale or useless
for a game loop written once and handed each game's kernels. So:

* the cache lives in a folder named after a hash of all simcore sources
  (any edit to the engine gives a fresh cache, never a stale one), and
* every dispatcher gets a stable uuid (module, name, source hash), so the
  runner built for a game is found in the cache by the next process.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

_HERE = Path(__file__).resolve().parent


def _source_hash() -> str:
    h = hashlib.sha256()
    for path in sorted(_HERE.rglob("*.py")):
        h.update(str(path.relative_to(_HERE)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


SOURCE_HASH = _source_hash()
CACHE_DIR = Path(
    os.environ.get("BALANCE_NUMBA_CACHE")
    or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "balance" / "numba"
) / SOURCE_HASH
numba.config.CACHE_DIR = str(CACHE_DIR)


def stable_uuid(dispatcher, key: str):
    """Give a dispatcher a uuid that is the same in every process."""
    dispatcher._set_uuid(f"{key}@{SOURCE_HASH}")
    return dispatcher


def jit(fn=None, *, parallel: bool = False):
    """`numba.njit(cache=True)` with the project's options and a stable uuid."""

    def wrap(f):
        d = numba.njit(cache=True, parallel=parallel, nogil=True, error_model="numpy")(f)
        return stable_uuid(d, f"{f.__module__}.{f.__qualname__}")

    return wrap(fn) if fn is not None else wrap
