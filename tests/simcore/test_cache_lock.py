"""Numba's on-disk cache under concurrent writers (simcore/jit.py `_lock_cache_saves`):
several processes saving entries into one index at once must leave every key with
its own data. Unlocked, numba can give two keys one data file (one kernel then
loads another's machine code); the second test shows the race is real here."""
from __future__ import annotations

import multiprocessing as mp

import pytest
from numba.core import caching

import balance.simcore.jit  # noqa: F401  (installs the lock)

KEYS = 300
WRITERS = 3


def _writer(folder: str, who: int, locked: bool, start) -> None:
    import balance.simcore.jit  # noqa: F401

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


_PLAY = r"""
import sys, json
import numpy as np
sys.path.insert(0, sys.argv[1])
from toygame import SPEC
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.params import resolve
data = SPEC.load_data(resolve(SPEC, {}))
out = {}
for pol in sys.argv[2:]:
    e = Engine(SPEC, [resolve_policy(SPEC, pol), resolve_policy(SPEC, "random")])
    r = e.run(data.tables, 2, 5, np.arange(400, dtype=np.int64), 3)
    out[pol] = r.seat_out[:, 0, 0].tolist()
print(json.dumps(out))
"""


def test_loops_compiled_in_different_processes_load_side_by_side(tmp_path):
    """The greedy and the lookahead loop of one game, each compiled in its own process, then both
    loaded from the cache into a third: each must still run its own code (numba's symbol names of
    closures carry a per-process counter: without a qualname of their own they collided)."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    tests = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "BALANCE_NUMBA_CACHE": str(tmp_path / "cache")}

    def play(*pols):
        done = subprocess.run([sys.executable, "-c", _PLAY, tests, *pols], env=env, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout.strip().splitlines()[-1])

    alone_lookahead = play("lookahead")["lookahead"]
    alone_greedy = play("greedy")["greedy"]
    both = play("greedy", "lookahead")  # both loops from the cache, in one process
    assert both["greedy"] == alone_greedy and both["lookahead"] == alone_lookahead
