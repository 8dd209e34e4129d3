"""The project's one jit decorator: every kernel goes through `jit`.

Numba keys its on-disk cache on the file that holds a function, not on the
files it calls, and keys a function that receives other jitted functions on
their per-process uuid. Both would make `cache=True` either stale or useless
for a game loop written once and handed each game's kernels. So:

* each game's kernels are cached in a folder named after a hash of the core
  kernel sources (`KERNEL_FILES`) and of that game's own package: any edit to the
  engine gives a fresh cache, never a stale one, and editing one game does
  not recompile the others; a kernel outside the engine (a test fixture, a
  measuring script) is keyed on the whole engine, as it may call any game;
* every dispatcher gets a stable uuid (module, name, that hash), so the loop
  built for a game is found in the cache by the next process;
* kernels run without numba's reference counting unless they ask for it
  (`@jit(refs=True)`). With it, every call of a function that branches
  increments and decrements an atomic count for each array of each argument:
  for a state of 13 arrays that was 40% of Overtime's run time. A kernel
  that only reads and writes arrays it is given needs none of it. Numba
  refuses at compile time to allocate an array without reference counting,
  so a kernel that allocates (or returns an array) must say `refs=True`;
  `REFLESS` lists the others so tests can check that none returns an array
  and that a batch of games frees everything it allocates;
* a call between kernels passes every array of every argument field by
  field (7-11 words each: pointers, shape, strides) through the stack, and
  numba compiles each kernel before its callees are linked in, so LLVM does
  not inline across kernels on its own. A kernel called per decision or per
  option (a game's `legal`, `step`, `greedy` and their hot helpers) says
  `@jit(force=True)`: LLVM inlines it into its callers (numba's
  `forceinline`). That doubled Overtime's and Four Day Weekend's speed; each
  forced kernel is compiled once per call site, so keep call sites few.
  (`inline=True`, numba's own IR inlining, is for tiny view accessors and
  for the runner's `play`, called once per loop: it re-types the body at
  every call site, but the function gets no library of its own.)
* compile time: numba links a kernel's callees into its own module and
  optimises and compiles that whole module again, so every dispatcher on
  the way down costs a compile of all it reaches. Three things keep that down:
  a kernel is compiled for the plain types of its arguments, never once per
  constant a caller passes (`_no_literal_specialising`); the runner's
  `play` is inlined into the loop rather than compiled beside it (Overtime's
  cold compile, greedy: 157 -> 67 CPU-s, peak 840 -> 598 MB); and a kernel
  compiled for its caller skips LLVM's whole-module pipeline, which the
  kernel called from Python runs over everything once (`_optimise_once`:
  Overtime's expert loop 116 -> 61 s, and faster code: see there;
  BALANCE_OPTIMISE_ONCE=0 gives numba's way).
"""
from __future__ import annotations

import hashlib
import os
import sys
from functools import lru_cache
from pathlib import Path

import numba

_HERE = Path(__file__).resolve().parent
CACHE_ROOT = Path(
    os.environ.get("BALANCE_NUMBA_CACHE")
    or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "balance" / "numba"
)


def _hash_files(paths) -> str:
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


# The core files that hold kernels (or what kernels compile in). Editing the
# Python-only core (batch, params, spec, registry) does not recompile games;
# tests/simcore/test_jit.py checks that every core file with a kernel is listed.
KERNEL_FILES = ("bits.py", "jit.py", "rng.py", "runner.py", "scratch.py", "search.py", "slots.py", "trace.py", "zones.py")
CORE_HASH = _hash_files(_HERE / f for f in KERNEL_FILES)
if os.environ.get("BALANCE_OPTIMISE_ONCE") == "0":  # other machine code for the same source: its own cache
    CORE_HASH += "-numba"
elif os.environ.get("BALANCE_PROFILE_NAMES") == "1":  # named callee copies, for perf: a cache of their own
    CORE_HASH += "-names"
SOURCE_HASH = _hash_files(_HERE.rglob("*.py"))  # the whole engine, for provenance


@lru_cache(maxsize=None)
def source_key(module: str) -> str:
    """Hash of what a module's kernels depend on: the core plus its own package."""
    parts = module.removeprefix("balance.").split(".")
    if parts[0] == "simcore" and len(parts) > 2:
        return f"{parts[1]}-{CORE_HASH}-{_hash_files((_HERE / parts[1]).rglob('*.py'))}"
    if parts[0] == "simcore":
        return f"core-{CORE_HASH}"
    # a kernel outside the engine (a test fixture, a measuring script) may call any game's kernels,
    # and numba would not notice an edit there: keyed on the whole engine, it compiles again
    # (a benchmark's loop around solo's greedy once kept timing the greedy it first compiled)
    mod = sys.modules.get(module)
    file = getattr(mod, "__file__", None)
    extra = _hash_files([Path(file)]) if file else "nofile"
    return f"{parts[-1]}-{SOURCE_HASH}-{extra}"


def stable_uuid(dispatcher, key: str):
    """Give a dispatcher a uuid that is the same in every process.

    (With NUMBA_DISABLE_JIT=1 there is no dispatcher, only the function.)"""
    if hasattr(dispatcher, "_set_uuid"):
        dispatcher._set_uuid(key)
    return dispatcher


def _lock_cache_saves() -> None:
    """Numba's cache writes an entry in three steps (read the index, take the first
    free data-file number, write index and data) with no lock: two processes
    compiling at once (pytest-xdist workers, two runs started together, Dask
    workers on one machine) can give two kernels the same data file, and one of
    them then silently loads the other's machine code (seen here: the toy game's
    lookahead loop playing another loop's code after two test workers compiled
    together). Each save takes an exclusive lock on a file beside the index, and
    reads the index again inside it. Loads need none: data files are replaced
    atomically and a missing one is compiled again. (No fcntl, as on Windows:
    saves are not locked.)"""
    try:
        import fcntl
        from numba.core import caching
    except ImportError:
        return
    cls = caching.IndexDataCacheFile
    if getattr(cls, "_balance_locked", False):
        return
    unlocked = cls.save

    def save(self, key, data):
        os.makedirs(self._cache_path, exist_ok=True)
        with open(self._index_path + ".lock", "a") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                unlocked(self, key, data)
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    cls.save = save
    cls._balance_locked = True
    cls._balance_unlocked_save = unlocked


_lock_cache_saves()


def _optimise_once() -> None:
    """Optimise a kernel's whole module once, in the kernel that is called from Python, not again
    at every kernel on the way down.

    Numba compiles a kernel's callees first, each into a library of its own, and finalising a
    library links in its callees' optimised modules and runs LLVM's whole module pipeline (the
    inliner, O3) and then its code generator over all of it: the loop optimises `greedy` once for
    `greedy`, again inside `expert`, inside `choose` and inside the loop, each time with everything
    those reach. Overtime's expert loop compiled for 114 s, 95 of them in LLVM, 7-9 s for each of
    the thin kernels between the loop and the search. Here a library finalised while another
    kernel's compile is under way (a callee, compiled because its caller's typing needs it) runs
    only the function passes numba gives every function as it is added; the library of the
    outermost compile (the kernel called from Python, or compiled by hand) runs the whole
    pipeline over everything linked into it, once, as before. The machine code of a callee so
    compiled is correct but not inlined: calling it from Python (a test, `balance play`) runs
    slower code. The outermost kernel's linked callees are made private to its module (numba
    links them "linkonce_odr", and the JIT may bind such a call to any library's definition of
    the name: here, a callee's unoptimised one), so a loop runs only its own optimised code; and
    LLVM, knowing every caller, optimises across them: You're Fired!'s greedy games 1.2 times as
    fast, Overtime's and Sick Days solo's expert 1.1-1.2 (docs/benchmarks.md, session 31).
    Private, not internal: session 31 made them internal, and its clean-clone CI had test workers
    die of segmentation faults. The JIT keeps one table of the named symbols of every object it
    loads, local ones included, the last loaded winning: an internal copy (which LLVM may give
    another calling convention, `fastcc`, knowing every caller) took the callee's name, and a
    kernel loaded later bound its calls to it. A private function has no symbol
    (tests/simcore/test_jit.py checks the table). BALANCE_OPTIMISE_ONCE=0 turns this off
    (numba's way, in a cache of its own)."""
    if os.environ.get("BALANCE_OPTIMISE_ONCE") == "0":
        return
    try:
        from numba.core import codegen
        from numba.core import event
    except ImportError:
        return
    cls = getattr(codegen, "CPUCodeLibrary", None)
    if cls is None or getattr(cls, "_balance_once", False) or not hasattr(cls, "_optimize_final_module"):
        return
    import threading

    depth = threading.local()

    class Nesting(event.Listener):
        def on_start(self, ev):
            depth.n = getattr(depth, "n", 0) + 1

        def on_end(self, ev):
            depth.n = getattr(depth, "n", 1) - 1

    from llvmlite import binding

    linkonce = binding.Linkage.linkonce_odr
    event.register("numba:compile", Nesting())
    whole = cls._optimize_final_module

    # for `perf` only (tests/perf_map.py): internal copies keep their names, with the risk above
    copies = "internal" if os.environ.get("BALANCE_PROFILE_NAMES") == "1" else "private"

    def optimise(self):
        if getattr(depth, "n", 0) <= 1:
            # the linked callees ("linkonce_odr") made private: why private, not internal, above
            for fn in self._final_module.functions:
                if not fn.is_declaration and fn.linkage == linkonce:
                    fn.linkage = copies
            whole(self)

    cls._optimize_final_module = optimise
    cls._balance_once = True


_optimise_once()

REFLESS: list = []  # dispatchers compiled without reference counting


def njit_cached(f, module: str, name: str, parallel: bool = False, refs: bool = True, inline: bool = False,
                force: bool = False):
    """Compile-on-call dispatcher cached under `module`'s source key.

    A closure made by a factory (the runner's loop, one per game and policy
    kinds) gets a qualname of its own, from its stable name: numba names a
    compiled function by qualname plus a per-process counter, so the same
    closure of two games compiled in two processes could carry one symbol,
    and a process loading both from the cache then links one game's loop to
    the other's code (seen: the shed game's loop reading the toy game's state)."""
    key = source_key(module)
    if "<locals>" in getattr(f, "__qualname__", ""):
        plain = getattr(f, "_balance_qualname", f.__qualname__)
        f._balance_qualname = plain
        f.__qualname__ = f"{plain}__{hashlib.sha256(f'{module}.{name}@{key}'.encode()).hexdigest()[:12]}"
    old = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(CACHE_ROOT / key)
    opts = {"_nrt": refs}  # explicit: numba would otherwise inherit it from the first caller
    if inline:
        opts["inline"] = "always"
    if force:
        opts["forceinline"] = True
    try:
        d = numba.njit(cache=True, parallel=parallel, nogil=True, error_model="numpy", **opts)(f)
    finally:
        numba.config.CACHE_DIR = old
    if not refs and not inline and hasattr(d, "overloads"):
        REFLESS.append(d)
    if hasattr(d, "get_call_template"):
        _no_literal_specialising(d)
    return stable_uuid(d, f"{module}.{name}@{key}")


def _no_literal_specialising(d) -> None:
    """Compile a kernel called from another kernel for the plain types of its
    arguments, not once per constant: numba types a constant argument as a
    literal (`emit(trace, EV_DRAW, ...)` as `Literal[int](7)`) and compiles one
    version of the callee per distinct constant, each linked into its callers
    again (Overtime compiled `emit` 40 times, its effect resolver 6 times). The
    caller's constants still reach the code: the forced-inline kernels are
    folded by LLVM, the others are small."""
    from numba.core import types

    plain = d.get_call_template

    def get_call_template(args, kws):
        return plain(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    d.get_call_template = get_call_template


def jit(fn=None, *, parallel: bool = False, refs: bool = False, inline: bool = False, force: bool = False):
    """`numba.njit(cache=True)` with the project's options and a stable uuid.

    `refs=True` for a kernel that allocates an array or returns a new one;
    `inline=True` for a small accessor that returns a view of its argument
    (inlined into its callers, it needs no reference counting);
    `force=True` for a kernel called per decision or per option, to have LLVM
    inline it into its callers (see the module docstring)."""

    def wrap(f):
        return njit_cached(f, f.__module__, f.__qualname__, parallel, refs or parallel, inline, force)

    return wrap(fn) if fn is not None else wrap


def inlined_copy(kernel):
    """`kernel` compiled to be inlined where it is called (as `jit(force=True)`), for one hot call
    site of a kernel that is not inlined elsewhere (the search's rollout calls the game's
    `greedy`): a copy of its function under its own name, so that its cache entry is its own
    (numba keys a cache entry on the function, not on the options it was compiled with). A kernel
    already compiled to be inlined is returned as it is; so is a plain function (no JIT)."""
    f = getattr(kernel, "py_func", None)
    if f is None or kernel.targetoptions.get("forceinline"):
        return kernel
    import types

    g = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
    g.__qualname__ = f"{f.__qualname__}__inlined"
    g.__module__ = f.__module__
    g.__doc__ = f.__doc__
    return jit(g, force=True, refs=bool(kernel.targetoptions.get("_nrt", False)))  # (an allocating kernel keeps its counts)


def intrinsic(py):
    """An operation written in LLVM IR (numba's `@intrinsic`, e.g. a popcount), for
    kernels to call; `py` is the same operation in plain Python, used when
    NUMBA_DISABLE_JIT=1. An intrinsic's uuid is random per process and is pickled
    into the cache key of every kernel that reaches it: it gets a stable one here,
    as `jit` gives its dispatchers, or those kernels would recompile in every process."""

    def wrap(fn):
        if numba.config.DISABLE_JIT:
            return py
        from numba.core.extending import intrinsic as numba_intrinsic

        return stable_uuid(numba_intrinsic(fn), f"{fn.__module__}.{fn.__qualname__}@{source_key(fn.__module__)}")

    return wrap
