"""The bit and unsigned-division intrinsics (simcore/bits.py) against Python's own operators."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.simcore import bits
from balance.simcore.jit import jit


@jit
def _ops(x, d):
    return bits.udiv(x, d), bits.umod(x, d), bits.popcount(x), bits.lowbit(x) if x != 0 else -1


@jit
def _by_constants(x):
    return bits.udiv(x, 7), bits.umod(x, 7), bits.udiv(x, 10000), bits.umod(bits.udiv(x, 100), 100)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**62), st.integers(1, 2**40))
def test_unsigned_division_is_floor_division_of_non_negatives(x, d):
    q, r, pc, lb = _ops(np.int64(x), np.int64(d))
    assert (q, r) == (x // d, x % d)
    assert (bits._udiv_py(x, d), bits._umod_py(x, d)) == (x // d, x % d)
    assert pc == bin(x).count("1") == bits._popcount_py(x)
    assert lb == (-1 if x == 0 else (x & -x).bit_length() - 1)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**62))
def test_division_by_a_constant(x):
    """The form the kernels use (a literal divisor, folded by LLVM into a multiply and shift)."""
    assert _by_constants(np.int64(x)) == (x // 7, x % 7, x // 10000, (x // 100) % 100)
