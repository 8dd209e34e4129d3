"""Bit operations for kernels: `popcount(x)` (set bits of an int64) and `lowbit(x)`
(the index of the lowest set bit, x != 0), one machine instruction each (LLVM's
ctpop and cttz), with plain-Python twins for NUMBA_DISABLE_JIT=1; and `udiv(x, d)`,
`umod(x, d)`, x // d and x % d of x >= 0, d > 0 (option codes, card numbers) as
unsigned division: Python's floor semantics on a signed int64 (numba's `//` and
`%`) cost sign fix-ups after every division, even by a constant.

A set held as bits is scanned low bit first with

    while m:
        i = lowbit(m)
        m &= m - 1

which visits the members in ascending order, as a loop over every index
that skips the absent ones does, in as many steps as there are members.
"""
from llvmlite import ir as _ir
from numba.core import types as _nt

from .jit import intrinsic


def _popcount_py(x):
    return (int(x) & 0xFFFFFFFFFFFFFFFF).bit_count()


def _udiv_py(x, d):
    return int(x) // int(d)


def _umod_py(x, d):
    return int(x) % int(d)


def _lowbit_py(x):
    x = int(x) & 0xFFFFFFFFFFFFFFFF
    return (x & -x).bit_length() - 1


@intrinsic(_popcount_py)
def popcount(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return _nt.int64(_nt.int64), codegen


@intrinsic(_lowbit_py)
def lowbit(typingctx, x):
    """Index of the lowest set bit (x != 0)."""
    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], _ir.Constant(_ir.IntType(1), 0))

    return _nt.int64(_nt.int64), codegen


@intrinsic(_udiv_py)
def udiv(typingctx, x, d):
    """x // d for x >= 0 and d > 0 (anything else: undefined)."""
    def codegen(context, builder, sig, args):
        return builder.udiv(args[0], args[1])

    return _nt.int64(_nt.int64, _nt.int64), codegen


@intrinsic(_umod_py)
def umod(typingctx, x, d):
    """x % d for x >= 0 and d > 0 (anything else: undefined)."""
    def codegen(context, builder, sig, args):
        return builder.urem(args[0], args[1])

    return _nt.int64(_nt.int64, _nt.int64), codegen
