"""Scratch arrays on the stack, for kernels called per decision or per option.

`np.empty` in a kernel is a heap allocation through numba's runtime, and a
kernel that allocates must run with reference counting (simcore/jit.py),
which then increments and decrements an atomic count for every array of every
argument at each call. A small scratch array of a size known when the kernel
is compiled needs neither: `stack_f64(8)` is an array of 8 float64 on the
calling kernel's stack (LLVM's alloca in its entry block, so a call in a loop
takes no more stack), with no owner to count. It lives until the kernel that
wrote the call returns: never return it or keep it in a state.

The size must be a constant numba sees when compiling: a literal or a name in
the calling kernel's own module (`K.NAME`, another module's attribute, is
typed as a plain integer and refused); the contents start undefined, as
`np.empty`'s. With NUMBA_DISABLE_JIT=1 it is `np.empty`.
"""
import numpy as np

from .jit import intrinsic


def _stack_f64_py(n):
    return np.empty(n, np.float64)


def _stack_i64_py(n):
    return np.empty(n, np.int64)


def _stack_array(dtype_name):
    def typer(typingctx, n):
        from numba.core import cgutils, types
        from numba.np.arrayobj import make_array, populate_array

        if not isinstance(n, types.IntegerLiteral) or n.literal_value < 1:
            from numba.core.errors import TypingError

            raise TypingError(f"stack_{dtype_name}: the size must be a constant of at least 1 known when "
                              f"compiling (a literal or a name in the kernel's own module, not module.NAME), got {n}")
        size = int(n.literal_value)
        dtype = getattr(types, dtype_name)
        arrty = types.Array(dtype, 1, "C")

        def codegen(context, builder, sig, args):
            item = context.get_abi_sizeof(context.get_data_type(dtype))
            data = cgutils.alloca_once(builder, context.get_data_type(dtype), size=size)
            ary = make_array(arrty)(context, builder)
            intp = lambda v: context.get_constant(types.intp, v)  # noqa: E731
            populate_array(ary, data=data, shape=[intp(size)], strides=[intp(item)], itemsize=intp(item),
                           meminfo=None)
            return ary._getvalue()

        return arrty(n), codegen

    typer.__name__ = typer.__qualname__ = f"stack_{dtype_name}"  # the intrinsic's stable uuid is its name
    return typer


stack_f64 = intrinsic(_stack_f64_py)(_stack_array("float64"))
stack_i64 = intrinsic(_stack_i64_py)(_stack_array("int64"))
