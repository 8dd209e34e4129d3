"""Kernels compiled without reference counting (`simcore.jit`, refs=False) stay safe.

Such a kernel must never hand an array back to its caller (the caller would
release a reference it was never given) and a batch of games must free every
array it allocates (a refless kernel that received a new array from a callee
would leak it). Both are checked on every registered game and policy."""
import numba
import numpy as np
import pytest
from numba.core.runtime import rtsys

from simcore import registry
from simcore.batch import Engine, resolve_policy
from simcore.jit import REFLESS
from simcore.params import resolve


def _has_array(ty) -> bool:
    if isinstance(ty, numba.types.Array):
        return True
    return any(_has_array(t) for t in getattr(ty, "types", ()) or ())


def _play(name: str, policy: str, n: int):
    spec = registry.get(name)
    params = resolve(spec, {})
    tables = spec.compile_tables(params)
    engine = Engine(spec, [resolve_policy(spec, policy)])
    for players in sorted({spec.min_players, spec.max_players}):
        engine.run(tables, players, 3, np.arange(n, dtype=np.int64), len(spec.card_names(params)))
        engine.replay(tables, players, 3, 1)


@pytest.mark.parametrize("name", registry.names())
def test_a_batch_frees_all_it_allocates(name):
    rtsys.memsys_enable_stats()
    try:
        for policy, n in (("random", 40), ("greedy", 40), ("lookahead", 2)):
            _play(name, policy, 4)  # compile / load first: that allocates too
            before = rtsys.get_allocation_stats()
            _play(name, policy, n)
            after = rtsys.get_allocation_stats()
            allocated = after.alloc - before.alloc
            freed = after.free - before.free
            assert allocated > 0
            assert allocated == freed, f"{name}/{policy}: {allocated} arrays allocated, {freed} freed"
    finally:
        rtsys.memsys_disable_stats()


def test_no_refless_kernel_returns_an_array():
    for name in registry.names():
        _play(name, "lookahead", 1)
    checked = 0
    for d in REFLESS:
        for sig, cres in d.overloads.items():
            checked += 1
            assert not _has_array(cres.signature.return_type), \
                f"{d.py_func.__module__}.{d.py_func.__qualname__} returns {cres.signature.return_type}: mark it refs=True"
    assert checked > 50
