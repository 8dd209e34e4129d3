"""Compile a game's loop in a child process, so that a cold first command does
not carry the compiler's memory through its games.

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


def in_child(spec, engine, check: bool = False) -> bool:
    """Compile `engine`'s loop in a child process (see the module docstring); True when it did.
    Only for a registered game without a user policy file (a child cannot rebuild those from a name)."""
    from . import registry

    module = registry.GAMES.get(spec.name)
    if module is None or engine.user_ref is not None or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return False
    kinds = ",".join(str(k) for k in sorted(engine.kinds))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    try:
        done = subprocess.run([sys.executable, "-m", "simcore.precompile", module, kinds, str(int(check))],
                              env=env, capture_output=True, text=True)
    except OSError:
        return False
    return done.returncode == 0


def main(argv: list[str]) -> int:
    module, kinds, check = argv
    compile_loop(module, [int(k) for k in kinds.split(",")], check == "1")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
