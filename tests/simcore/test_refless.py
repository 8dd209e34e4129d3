"""Kernels compiled without reference counting (`simcore.jit`, refs=False) stay safe.

Such a kernel must never hand an array back to its caller (the caller would
release a reference it was never given) and a batch of games must free every
array it allocates (a refless kernel that received a new array from a callee
would leak it). Both are checked on every registered game and policy."""
import json
import os
import subprocess
import sys

import numba
import numpy as np
import pytest

from balance.simcore import registry
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.jit import REFLESS
from balance.simcore.params import resolve


def _has_array(ty) -> bool:
    if isinstance(ty, numba.types.Array):
        return True
    return any(_has_array(t) for t in getattr(ty, "types", ()) or ())


def _play(name: str, policy: str, n: int):
    spec = registry.get(name)
    params = resolve(spec, {})
    data = spec.load_data(params)
    tables = data.tables
    engine = Engine(spec, [resolve_policy(spec, policy)])
    for players in sorted({spec.min_players, spec.max_players}):
        engine.run(tables, players, 3, np.arange(n, dtype=np.int64), len(data.card_names))
        engine.replay(tables, players, 3, 1)


_CHILD = """
import json, sys
from numba.core.runtime import rtsys
sys.path[:0] = {path!r}
from balance.simcore import registry
registry.GAMES.update({games!r})  # the fixture games the suite registers (tests/conftest.py)
from test_refless import _play as play
out = {{}}
for policy, n in (("random", 40), ("greedy", 40), ("lookahead", 2)):
    play({name!r}, policy, 4)  # compile or load first: that allocates too
    before = rtsys.get_allocation_stats()
    play({name!r}, policy, n)
    after = rtsys.get_allocation_stats()
    out[policy] = [after.alloc - before.alloc, after.free - before.free]
print(json.dumps(out))
"""


@pytest.mark.parametrize("name", registry.names())
def test_a_batch_frees_all_it_allocates(name):
    # numba counts allocations only when NUMBA_NRT_STATS is set before it starts: a child process
    code = _CHILD.format(path=[os.path.dirname(__file__)] + sys.path, name=name, games=dict(registry.GAMES))
    env = {**os.environ, "NUMBA_NRT_STATS": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stderr[-2000:]
    for policy, (allocated, freed) in json.loads(done.stdout.strip().splitlines()[-1]).items():
        assert allocated > 0
        assert allocated == freed, f"{name}/{policy}: {allocated} arrays allocated, {freed} freed"


def _load_cached_overloads(d) -> None:
    """A kernel the loops only link (the loop came from the compile cache) has no overloads in this
    process: load the ones its cache holds for this machine, so their signatures can be read."""
    if d.overloads or getattr(d, "_cache", None) is None:
        return
    here = d.targetctx.codegen().magic_tuple()
    for key in d._cache._cache_file._load_index():  # (signature, machine, ...)
        if key[1] == here:
            d.compile(key[0])  # found in the cache: loaded, not compiled


def test_no_refless_kernel_returns_an_array():
    for name in registry.names():
        _play(name, "lookahead", 1)
    checked = 0
    for d in REFLESS:
        _load_cached_overloads(d)
        for sig, cres in d.overloads.items():
            checked += 1
            assert not _has_array(cres.signature.return_type), \
                f"{d.py_func.__module__}.{d.py_func.__qualname__} returns {cres.signature.return_type}: mark it refs=True"
    assert checked > 50
