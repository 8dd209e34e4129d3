"""Numba's on-disk cache under concurrent writers (simcore/jit.py `_lock_cache_saves`):
several processes saving entries into one index at once must leave every key with
its own data. Unlocked, numba can give two keys one data file (one kernel then
loads another's machine code); the second test shows the race is real here."""
from __future__ import annotations

import multiprocessing as mp

import pytest
from numba.core import caching

import simcore.jit  # noqa: F401  (installs the lock)

KEYS = 300
WRITERS = 3


def _writer(folder: str, who: int, locked: bool, start) -> None:
    import simcore.jit  # noqa: F401

    f = caching.IndexDataCacheFile(folder, "kernel", ("stamp", 1))
    save = caching.IndexDataCacheFile.save if locked else caching.IndexDataCacheFile._balance_unlocked_save
    start.wait(60)  # every writer imported: they save at the same time
    for i in range(KEYS):
        save(f, (who, i), ("data", who, i))


def _run(folder, locked: bool) -> list:
    folder.mkdir(parents=True, exist_ok=True)
    ctx = mp.get_context("spawn")
    start = ctx.Barrier(WRITERS)
    procs = [ctx.Process(target=_writer, args=(str(folder), w, locked, start)) for w in range(WRITERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    f = caching.IndexDataCacheFile(str(folder), "kernel", ("stamp", 1))
    return [(w, i) for w in range(WRITERS) for i in range(KEYS) if f.load((w, i)) != ("data", w, i)]


def test_processes_saving_at_once_keep_every_entry_its_own_data(tmp_path):
    assert caching.IndexDataCacheFile._balance_locked
    assert _run(tmp_path, locked=True) == []


def test_without_the_lock_the_race_loses_or_swaps_entries(tmp_path):
    """The reason for the lock, shown on this machine (a race: repeated until it shows, at most 5 times;
    it showed at the first, with about half of 900 entries lost or swapped)."""
    for attempt in range(5):
        bad = _run(tmp_path / str(attempt), locked=False)
        if bad:
            return
    pytest.fail("no lost or swapped entry in 5 unlocked runs: the race test has no power here")
