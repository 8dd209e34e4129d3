"""The project's one jit decorator: every kernel goes through `jit`.

Numba keys its on-disk cache on the file that holds a function, not on the
files it calls, and keys a function that receives other jitted functions on
their per-process uuid. Both would make `cache=True` either stale or useless
for a game loop written once and handed each game's kernels. So:

* each game's kernels are cached in a folder named after a hash of the core
  sources (simcore/*.py) and of that game's own package: any edit to the
  engine gives a fresh cache, never a stale one, and editing one game does
  not recompile the others;
* every dispatcher gets a stable uuid (module, name, that hash), so the loop
  built for a game is found in the cache by the next process.
"""
from __future__ import annotations

import hashlib
import os
import sys
from functools import lru_cache
from pathlib import Path

import numba

_HERE = Path(__file__).resolve().parent
CACHE_ROOT = Path(
    os.environ.get("BALANCE_NUMBA_CACHE")
    or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "balance" / "numba"
)


def _hash_files(paths) -> str:
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


CORE_HASH = _hash_files(_HERE.glob("*.py"))
SOURCE_HASH = _hash_files(_HERE.rglob("*.py"))  # the whole engine, for provenance


@lru_cache(maxsize=None)
def source_key(module: str) -> str:
    """Hash of what a module's kernels depend on: the core plus its own package."""
    parts = module.split(".")
    if parts[0] == "simcore" and len(parts) > 2:
        return f"{parts[1]}-{CORE_HASH}-{_hash_files((_HERE / parts[1]).rglob('*.py'))}"
    if parts[0] == "simcore":
        return f"core-{CORE_HASH}"
    mod = sys.modules.get(module)
    file = getattr(mod, "__file__", None)
    extra = _hash_files([Path(file)]) if file else "nofile"
    return f"{parts[-1]}-{CORE_HASH}-{extra}"


def stable_uuid(dispatcher, key: str):
    """Give a dispatcher a uuid that is the same in every process.

    (With NUMBA_DISABLE_JIT=1 there is no dispatcher, only the function.)"""
    if hasattr(dispatcher, "_set_uuid"):
        dispatcher._set_uuid(key)
    return dispatcher


def njit_cached(f, module: str, name: str, parallel: bool = False):
    """Compile-on-call dispatcher cached under `module`'s source key."""
    key = source_key(module)
    old = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(CACHE_ROOT / key)
    try:
        d = numba.njit(cache=True, parallel=parallel, nogil=True, error_model="numpy")(f)
    finally:
        numba.config.CACHE_DIR = old
    return stable_uuid(d, f"{module}.{name}@{key}")


def jit(fn=None, *, parallel: bool = False):
    """`numba.njit(cache=True)` with the project's options and a stable uuid."""

    def wrap(f):
        return njit_cached(f, f.__module__, f.__qualname__, parallel)

    return wrap(fn) if fn is not None else wrap
