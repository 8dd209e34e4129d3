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


# jit._optimise_once is on by default (BALANCE_OPTIMISE_ONCE=0 turns it off, process-wide, at import):
# its tests run in a child process with it on and a fresh cache, whatever this process runs with.
_ONCE_CHECK = """
import importlib, sys
import numpy as np
import numba
import balance.simcore.jit as J
assert getattr(numba.core.codegen.CPUCodeLibrary, "_balance_once", False), "not on"
sys.path.insert(0, sys.argv[1])

def calls(d, name):
    (cres,) = d.overloads.values()
    return any("call" in line and name in line for line in cres.library.get_llvm_str().splitlines())

def chain(tag, refs):
    m = importlib.import_module(tag)
    for part in ("leaf", "mid", "top"):
        setattr(m, f"{tag}_{part}", J.jit(getattr(m, f"{tag}_{part}"), force=part == "leaf" and not refs, refs=refs))
    return [getattr(m, f"{tag}_{part}") for part in ("leaf", "mid", "top")]

# a callee compiled for its caller keeps its forced-inline callee as a call; the caller inlines all
leaf, mid, top = chain("linked", False)
assert top(np.int64(2)) == 16
assert calls(mid, "linked_leaf") and not calls(top, "linked_leaf") and not calls(top, "linked_mid")
# a kernel called from Python first is optimised whole, as numba does
leaf, mid, top = chain("direct", False)
assert mid(np.int64(2)) == 17 and not calls(mid, "direct_leaf")
# the outermost kernel's callees are private: a call left is to its own copy, never linkonce_odr
leaf, mid, top = chain("alloc", True)
assert top(np.int64(5)) == 449.0
(cres,) = top.overloads.values()
defined = [x for x in cres.library.get_llvm_str().splitlines() if x.startswith("define")]
assert any("alloc_leaf" in x and " private " in x for x in defined), defined
assert not any("linkonce_odr" in x for x in defined), defined
# ... and private, so they take no name in the JIT: it keeps one table of every named symbol of the
# objects it loads, locals included, the last loaded winning; an internal copy of `table_leaf`
# (its signature free to change) took the name from table_leaf's own library, and a kernel loaded
# later bound its calls to it (session 31's segfaults).
leaf, mid, top = chain("table", True)
assert leaf(np.int64(4)) == 84.0
(lres,) = leaf.overloads.values()
engine = lres.library.codegen._engine
name = lres.fndesc.llvm_func_name
before = engine.get_function_address(name)
assert top(np.int64(5)) == 449.0
(cres,) = top.overloads.values()
assert any("table_leaf" in x and " private " in x for x in cres.library.get_llvm_str().splitlines()
           if x.startswith("define"))
assert engine.get_function_address(name) == before, "a copy inside the outermost kernel took the callee's name"
print("ok")
"""


def test_optimise_once_optimises_the_outermost_kernel_only_and_keeps_its_calls_inside(tmp_path):
    """With jit._optimise_once (the default): a kernel compiled for its caller runs only the function passes (its
    forced-inline callee is still a call in its own library), the kernel called from Python gets the
    whole pipeline over everything linked in, and the callees linked into it are private (numba links
    them "linkonce_odr", which the JIT may bind to a callee's own, unoptimised, library; an internal
    copy would take the callee's name in the JIT from its own library)."""
    import os
    import subprocess
    import sys

    import numba
    import pytest

    if numba.config.DISABLE_JIT:
        pytest.skip("no compiled libraries without the JIT")
    for tag in ("linked", "direct"):
        (tmp_path / f"{tag}.py").write_text(
            f"def {tag}_leaf(x):\n    return x * 3 + 1\n"
            f"def {tag}_mid(x):\n    return {tag}_leaf(x) + {tag}_leaf(x + 1)\n"
            f"def {tag}_top(x):\n    return {tag}_mid(x) - 1\n")
    for tag in ("alloc", "table"):
        (tmp_path / f"{tag}.py").write_text(
            "import numpy as np\n"
            f"def {tag}_leaf(x):\n    a = np.zeros(x + 3)\n    for i in range(a.size):\n        a[i] = i * x\n"
            "    return a.sum()\n"
            f"def {tag}_mid(x):\n    s = 0.0\n    for k in range(x):\n        s += {tag}_leaf(k) + {tag}_leaf(k + 1)\n"
            "    return s\n"
            f"def {tag}_top(x):\n    return {tag}_mid(x) - 1\n")
    env = {**os.environ, "BALANCE_OPTIMISE_ONCE": "1", "BALANCE_NUMBA_CACHE": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", _ONCE_CHECK, str(tmp_path)], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-3000:]
