"""Scratch arrays on the stack (simcore/scratch.py): usable in a kernel without
reference counting, one array per call however often it is called, a clear
error for a size numba cannot see when compiling."""
import numpy as np
import pytest

from balance.simcore.jit import jit
from balance.simcore.scratch import copy_head, stack_f64, stack_i64

SIZE = 5


def _sums(x):
    """x's values in SIZE buckets (i mod SIZE), through a stack scratch array; and their count."""
    f = stack_f64(SIZE)
    k = stack_i64(SIZE)
    for j in range(SIZE):
        f[j] = 0.0
        k[j] = 0
    for i in range(x.shape[0]):
        f[i % SIZE] += x[i]
        k[i % SIZE] += 1
    t = 0.0
    for j in range(SIZE):
        t += f[j] * (j + 1) + k[j]
    return t


sums = jit(_sums)  # refless, as every kernel that does not ask for reference counting


@jit
def _many(x, times):
    t = 0.0
    for _ in range(times):
        t += sums(x)
    return t


def test_a_stack_scratch_array_in_a_refless_kernel():
    x = np.arange(12.0)
    expect = sum(x[i] * (i % SIZE + 1) for i in range(12)) + 12
    assert sums(x) == expect
    # a million calls in a loop: each one's array is its own stack slot, freed on return
    assert _many(x, 1_000_000) == expect * 1_000_000


def test_a_size_not_known_when_compiling_is_refused_by_name():
    from numba.core.errors import TypingError

    @jit
    def bad(n):
        a = stack_f64(n)
        a[0] = 1.0
        return a[0]

    with pytest.raises(TypingError, match="stack_float64: the size must be a constant"):
        bad(3)


@jit
def _heads(dst2, src2, dst1, src1, n2, n1):
    copy_head(dst2, src2, n2)
    copy_head(dst1, src1, n1)


def test_copy_head_copies_the_first_elements_in_memory_order():
    src2 = np.arange(24, dtype=np.int64).reshape(4, 6)
    dst2 = np.full((4, 6), -1, np.int64)
    src1 = np.arange(10.0)
    dst1 = np.full(10, -1.0)
    _heads(dst2, src2, dst1, src1, 9, 3)
    assert dst2.ravel().tolist() == list(range(9)) + [-1] * 15
    assert dst1.tolist() == [0.0, 1.0, 2.0] + [-1.0] * 7
