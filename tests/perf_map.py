"""Run a module under `perf record` with numba's compiled functions named (a measuring tool, by hand):

    BALANCE_PROFILE_NAMES=1 BALANCE_NUMBA_CACHE=$(mktemp -d) perf record -e cpu-clock -F 2000 -o perf.data \\
        python -m tests.perf_map tests.expert_reach speed --game sickdays-solo -n 1000
    perf report -i perf.data --no-children --sort symbol --time START,END

perf sees a kernel's machine code as an anonymous address; at exit this writes
/tmp/perf-PID.map (perf's format for code made at run time: start, size, name)
with every function of every library numba compiled in this process, so
`perf report` names them. A library loaded from the compile cache holds no
module to read names from: run on an empty BALANCE_NUMBA_CACHE, as above, and
report only the run's last seconds (`--time`, from `perf script -F time`), not
the compile. A function force-inlined into another (`jit(force=True)`) is
counted in its caller. Cycle counters are not needed (cpu-clock samples).
By default (simcore.jit._optimise_once) a loop's callees that LLVM did not
inline are private to the loop's module and have no symbol to name: their
samples count toward the named function before them. BALANCE_PROFILE_NAMES=1
keeps them as internal copies, named, in a cache of their own, optimised as the
default is, for profiling in one process only (internal copies are what
session 31's crash came from, see simcore/jit.py). BALANCE_OPTIMISE_ONCE=0
(numba's way, its own cache) names them too, but its code is other code: its
profile put 7% of Overtime's random games on passing arguments to `advance`,
and inlining `advance` changed nothing in the default build (session 33).

With PERF_DUMP=regex it also writes the machine code of every function whose
name matches to /tmp/perf-dump/START.bin (from its start to the next named
function, 1 MB at most), so the samples can be put on instructions:

    perf script -i perf.data -F ip,sym --time START,END     # the sampled addresses
    objdump -D -b binary -mi386:x86-64 -Mintel --adjust-vma=0xSTART /tmp/perf-dump/START.bin
"""
from __future__ import annotations

import atexit
import ctypes
import gc
import os
import re
import runpy
import sys


def write_map() -> int:
    from numba.core.registry import CPUDispatcher

    named: dict[int, str] = {}
    for d in [o for o in gc.get_objects() if isinstance(o, CPUDispatcher)]:
        for cres in list(d.overloads.values()):
            lib = cres.library
            try:
                functions = lib._final_module.functions
            except Exception:  # a library loaded from the cache: no module
                continue
            for fn in functions:
                if fn.is_declaration:
                    continue
                try:
                    at = lib.get_pointer_to_function(fn.name)
                except Exception:
                    continue
                if at:
                    named[at] = fn.name
    starts = sorted(named)
    dump = os.environ.get("PERF_DUMP", "")
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for i, at in enumerate(starts):
            size = min((starts[i + 1] - at) if i + 1 < len(starts) else 4096, 1 << 20)
            fh.write(f"{at:x} {size:x} {named[at]}\n")
            if dump and re.search(dump, named[at]):  # the code itself, for objdump
                os.makedirs("/tmp/perf-dump", exist_ok=True)
                with open(f"/tmp/perf-dump/{at:x}.bin", "wb") as out:
                    out.write(ctypes.string_at(at, min(size, 1 << 20)))
    return len(starts)


def main() -> None:
    atexit.register(lambda: print(f"perf map: {write_map()} functions", file=sys.stderr))
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.getcwd())
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
