"""Is a game's loop in the compile cache (`is_warm`), and compiling it in a child
process (`in_child`), so that a cold first command does not carry the
compiler's memory through its games.

Numba keeps what it compiled (LLVM modules, the loop's library: several
hundred MB for Overtime) for the life of the process; a run that compiles and
then plays a million games peaks at twice the memory of the same run on a warm
cache (811 MB against 408, session 11). When the loop is not in the compile
cache, the CLI runs this module first: a child process that builds the same
loop (the same game and policy kinds, with or without the invariant checks)
and plays one game, which writes the loop to the cache; the parent then loads
it from there, as a warm run does, and the child's memory is returned when it
exits. If the child fails for any reason the parent compiles the loop itself,
as before: nothing changes but the memory.

    python -m simcore.precompile MODULE KINDS CHECK    (KINDS: e.g. 0,1,4; CHECK: 0 or 1)
"""
from __future__ import annotations

import os
import subprocess
import sys


def _dispatchers(runner, traced: bool = False, checked: bool = False) -> list:
    """The loop's dispatchers whose cache entries say warm or cold: `run_range`
    (what `run_games` runs in each thread; `run_range_checked` under --check,
    `play_traced` for a replay; each holds the game loop `play`, inlined) and
    `choose` (the policies of the run's kinds)."""
    name = "play_traced" if traced else "run_range_checked" if checked else "run_range"
    top = getattr(runner, name, None)
    out = [top] if hasattr(top, "_cache") else []
    choose = getattr(runner, "choose", None)
    if hasattr(choose, "_cache"):
        out.append(choose)
    return out


def _cached(d) -> bool:
    """An entry of this dispatcher (its bytecode and closure: game kernels, policy
    kinds) for this machine is in numba's index (any argument types: a game's
    tables have one type)."""
    if d.overloads:  # compiled (or loaded) in this process already
        return True
    cache = d._cache
    key = cache._index_key((), d.targetctx.codegen())
    return any(k[1:] == key[1:] for k in cache._cache_file._load_index())


def is_warm(engine, traced: bool = False, checked: bool = False) -> bool | None:
    """Is the compiled loop of this engine (its game and policy kinds) in numba's cache?
    (`traced`: the replay loop.) None when it cannot be told (no JIT, a runner of another shape)."""
    try:
        import numba

        if numba.config.DISABLE_JIT:
            return None
        found = _dispatchers(engine._runner(), traced, checked)
        if not found or not all(hasattr(d._cache, "_index_key") for d in found):
            return None
        return all(_cached(d) for d in found)
    except Exception:  # noqa: BLE001  never fail a run over a status line
        return None


def child_env(extra: dict | None = None) -> dict:
    """The environment of a child Python process that imports what this one can (a game
    registered from elsewhere too), plus `extra`."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p), **(extra or {})}


def compile_loop(module: str, kinds: list[int], check: bool) -> None:
    """Build and call the loop of `module`'s game for these policy kinds (one game of greedy seats)."""
    import importlib

    import numpy as np

    from .batch import Engine, resolve_policy
    from .params import resolve

    spec = importlib.import_module(module).SPEC
    data = spec.load_data(resolve(spec, {}))
    engine = Engine(spec, [resolve_policy(spec, "greedy")], kinds=kinds)
    engine.run(data.tables, spec.default_players, 1, np.arange(1, dtype=np.int64), len(data.card_names), check=check)


def in_child(spec, engine, check: bool = False) -> bool | None:
    """Compile `engine`'s loop in a child process (see the module docstring): True when it did, False
    when the child failed (the run then compiles the loop itself), None when not tried: only a
    registered game without a user policy file is (a child cannot rebuild those from a name)."""
    from . import registry

    module = registry.GAMES.get(spec.name)
    if module is None or engine.user_ref is not None or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return None
    kinds = ",".join(str(k) for k in sorted(engine.kinds))
    try:
        done = subprocess.run([sys.executable, "-m", "simcore.precompile", module, kinds, str(int(check))],
                              env=child_env(), capture_output=True, text=True)
    except OSError:
        return False
    return done.returncode == 0


def main(argv: list[str]) -> int:
    module, kinds, check = argv
    compile_loop(module, [int(k) for k in kinds.split(",")], check == "1")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
