"""Scratch arrays on the stack, and block copies, for kernels called per decision or per option.

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

`copy_head(dst, src, n)` copies the first n elements of one C-contiguous
array into another as one memcpy (a clone that copies only the part of a
state the game uses: Overtime's).
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


def _copy_head_py(dst, src, n):
    dst.reshape(-1)[:n] = src.reshape(-1)[:n]


@intrinsic(_copy_head_py)
def copy_head(typingctx, dst, src, n):
    """The first n elements of src, in memory order, into dst: two C-contiguous arrays of one
    dtype (any number of dimensions), as one memcpy (numba's slice assignment is an element loop,
    about a third of memcpy's speed on Overtime's clone). n must not pass either array's size."""
    from numba.core import cgutils, types
    from numba.np.arrayobj import make_array

    if not (isinstance(dst, types.Array) and isinstance(src, types.Array) and dst.dtype == src.dtype
            and dst.layout == "C" and src.layout == "C" and isinstance(n, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        d = make_array(sig.args[0])(context, builder, args[0])
        s = make_array(sig.args[1])(context, builder, args[1])
        item = context.get_abi_sizeof(context.get_data_type(sig.args[0].dtype))
        nbytes = builder.mul(context.cast(builder, args[2], sig.args[2], types.intp),
                             context.get_constant(types.intp, item))
        cgutils.raw_memcpy(builder, d.data, s.data, nbytes, 1)
        return context.get_dummy_value()

    return types.void(dst, src, n), codegen
