"""The compile cache key covers every core file that holds a kernel."""
from pathlib import Path

from balance import simcore
from balance.simcore.jit import KERNEL_FILES

CORE = Path(simcore.__file__).resolve().parent


def test_every_core_file_with_a_kernel_is_in_the_cache_key():
    holding = {p.name for p in CORE.glob("*.py")
               if "@jit" in p.read_text() or "njit_cached(" in p.read_text().replace("def njit_cached(", "")}
    assert holding <= set(KERNEL_FILES), f"add {sorted(holding - set(KERNEL_FILES))} to simcore.jit.KERNEL_FILES"
    assert all((CORE / f).is_file() for f in KERNEL_FILES)


def test_no_core_kernel_takes_a_games_tables_or_state():
    # core kernels are cached once for all games: one compiled for a game's
    # tables or state would keep that game's types in the shared cache, and
    # loading it fails once a new version of the game drops them
    import importlib
    import inspect

    for name in KERNEL_FILES:
        mod = importlib.import_module(f"balance.simcore.{name[:-3]}")
        for attr, obj in vars(mod).items():
            f = getattr(obj, "py_func", None)
            if f is None or f.__module__ != mod.__name__:
                continue
            params = set(inspect.signature(f).parameters)
            assert not params & {"tables", "state", "t", "s"}, f"{mod.__name__}.{attr} takes a game's tables or state"


def _callee_versions(decorate) -> int:
    """Compile `outer`, which calls `inner` with three constants, with `decorate`; inner's compiled versions."""
    import numpy as np

    def inner(x, k):
        return x + k

    def outer(x):
        return inner(x, 1) + inner(x, 2) + inner(x, 3)

    inner = decorate(inner)
    outer = decorate(outer)
    assert outer(np.int64(1)) == 9
    return len(inner.overloads)


def test_a_kernel_called_with_constants_compiles_once(tmp_path, monkeypatch):
    """numba would compile a callee once per constant a caller passes (each typed as a literal); the
    project's jit compiles it once, for the plain type. The plain-numba pair shows the behaviour it avoids."""
    import numba
    import pytest

    import balance.simcore.jit as J

    if numba.config.DISABLE_JIT:
        pytest.skip("no compiled dispatchers without the JIT")
    monkeypatch.setattr(J, "CACHE_ROOT", tmp_path)  # a fresh compile, never a cache load
    assert _callee_versions(J.jit) == 1
    assert _callee_versions(numba.njit) == 3


def test_an_inlined_copy_keeps_the_kernels_compile_options():
    """inlined_copy (the search's rollout greedy) forces inlining and keeps everything else: a
    kernel that allocates keeps its reference counting (You're Fired!'s greedy would not compile
    without it), and one already inlined is itself."""
    from balance.simcore import registry
    from balance.simcore.jit import inlined_copy

    for name in registry.names():
        greedy = registry.get(name).kernels.greedy
        copy = inlined_copy(greedy)
        if greedy.targetoptions.get("forceinline"):
            assert copy is greedy
            continue
        assert copy is not greedy and copy.targetoptions["forceinline"]
        assert copy.targetoptions.get("_nrt") == greedy.targetoptions.get("_nrt"), name
        assert copy.py_func.__code__ is greedy.py_func.__code__


def test_a_kernel_outside_the_engine_is_keyed_on_the_whole_engine():
    """A script's or fixture's kernel may call any game's kernels: its cache key moves with every
    engine file (a game's kernels only with the core and their own package)."""
    from balance.simcore.jit import CORE_HASH, SOURCE_HASH, source_key

    assert SOURCE_HASH in source_key("some_measuring_script")
    game = source_key("balance.simcore.sickdays_solo.policies")
    assert CORE_HASH in game and SOURCE_HASH not in game


def _chain(tag: str, folder):
    """`top` calls `mid`, which calls `leaf` (a kernel LLVM is asked to inline: jit(force=True)); the
    names carry `tag`, so that each call makes new kernels."""
    from balance.simcore.jit import jit

    ns = {}
    src = folder / f"{tag}.py"  # numba caches only a function with a source file
    src.write_text(f"def {tag}_leaf(x):\n    return x * 3 + 1\n"
                   f"def {tag}_mid(x):\n    return {tag}_leaf(x) + {tag}_leaf(x + 1)\n"
                   f"def {tag}_top(x):\n    return {tag}_mid(x) - 1\n")
    exec(compile(src.read_text(), str(src), "exec"), ns)
    for part in ("leaf", "mid", "top"):
        f = ns[f"{tag}_{part}"]
        f.__module__ = "balance_test_chain"
        ns[f.__name__] = jit(f, force=part == "leaf")
    return ns[f"{tag}_leaf"], ns[f"{tag}_mid"], ns[f"{tag}_top"]


def _calls(dispatcher, name: str) -> bool:
    """Does the compiled library of `dispatcher` still call the function named `name`?"""
    (cres,) = dispatcher.overloads.values()
    return any("call" in line and name in line for line in cres.library.get_llvm_str().splitlines())


def test_a_callee_is_optimised_with_its_caller_not_on_its_own(tmp_path, monkeypatch):
    """jit._optimise_once: a kernel compiled because another kernel calls it runs only the function
    passes (its forced-inline callee is still a call in its own library); the kernel called from Python
    gets the whole pipeline over everything linked in (nothing left to call). A kernel called from
    Python first is optimised whole, as numba does."""
    import numba
    import numpy as np
    import pytest

    import balance.simcore.jit as J

    if numba.config.DISABLE_JIT or not getattr(numba.core.codegen.CPUCodeLibrary, "_balance_once", False):
        pytest.skip("no compiled libraries without the JIT, or BALANCE_OPTIMISE_EVERY_KERNEL=1")
    monkeypatch.setattr(J, "CACHE_ROOT", tmp_path)  # a fresh compile, never a cache load
    leaf, mid, top = _chain("linked", tmp_path)
    assert top(np.int64(2)) == 7 + 10 - 1
    assert _calls(mid, "linked_leaf")  # compiled for top: not optimised on its own
    assert not _calls(top, "linked_leaf") and not _calls(top, "linked_mid")  # optimised once, all inlined
    leaf, mid, top = _chain("direct", tmp_path)
    assert mid(np.int64(2)) == 17
    assert not _calls(mid, "direct_leaf")  # called from Python: optimised whole


def test_the_outermost_kernel_calls_only_its_own_copies(tmp_path, monkeypatch):
    """jit._optimise_once makes the callees linked into the kernel called from Python internal: a
    call LLVM did not inline (here an allocating callee in a loop) stays in the caller's optimised
    module. numba links them "linkonce_odr", which the JIT may bind to the callee's own library,
    unoptimised once callees skip the whole-module pipeline (You're Fired!'s expert ran at half speed)."""
    import importlib
    import sys

    import numba
    import numpy as np
    import pytest

    import balance.simcore.jit as J

    if numba.config.DISABLE_JIT or not getattr(numba.core.codegen.CPUCodeLibrary, "_balance_once", False):
        pytest.skip("no compiled libraries without the JIT, or BALANCE_OPTIMISE_EVERY_KERNEL=1")
    monkeypatch.setattr(J, "CACHE_ROOT", tmp_path)
    (tmp_path / "alloc_chain.py").write_text(
        "import numpy as np\n"
        "def c_leaf(x):\n    a = np.zeros(x + 3)\n    for i in range(a.size):\n        a[i] = i * x\n    return a.sum()\n"
        "def c_mid(x):\n    s = 0.0\n    for k in range(x):\n        s += c_leaf(k) + c_leaf(k + 1)\n    return s\n"
        "def c_top(x):\n    return c_mid(x) - 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    m = importlib.import_module("alloc_chain")
    try:
        for name in ("c_leaf", "c_mid", "c_top"):
            setattr(m, name, J.jit(getattr(m, name), refs=True))
        assert m.c_top(np.int64(5)) == 449.0
        (cres,) = m.c_top.overloads.values()
        defined = [line for line in cres.library.get_llvm_str().splitlines() if line.startswith("define")]
        assert any("c_leaf" in line and " internal " in line for line in defined)  # a call left, to its own copy
        assert not any("linkonce_odr" in line for line in defined)
    finally:
        sys.modules.pop("alloc_chain", None)
