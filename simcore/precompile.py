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

One child that compiles the whole loop still peaks far above a warm run (578
MB for Overtime's greedy loop against 198 MB loading it, and 408 MB for the
warm 1,000,000-game run, session 15): every kernel it compiled stays in memory while the
ones that call it link it in. So the compile is cut across several children,
each on a memory budget (`BUDGET_MB`): a child compiles kernels (callees
first, as numba types the loop) and writes each to the cache, and once its
peak is BUDGET_MB above where it started it starts no new one and exits
with SPENT; the next child loads what is cached (cheaply: no typing,
lowering or optimising) and goes on, until one builds the loop itself. Every
child compiles at least one kernel, so each makes progress. Overtime's
greedy loop (`balance bench`, session 15): 50.4 s and a largest process of
399 MB, against 48.6 s and 579 MB in one child; the README's first command
(1M games): every process at most 410 MB (warm: 408), all of them together
465 MB at worst, shared pages counted once (warm: 413; this process waits at
136 MB while a child compiles), against 683 MB with one child.

A command that will need a second loop later (a run's skill check: expert at every seat) starts its
compile at once, `ahead`, in a thread that runs the same children beside the run's own loop and games;
`in_child` for that loop then waits for it. numba compiles on one thread, so on two cores a first run
waits for the longer compile, not for both (session 32, `balance bench` cold, alternated: Overtime 67-69 s side by side
against 83-90 one after the other; the two compile chains share the kernels both need only through the cache, so some
are compiled twice). Children still running when this process exits are stopped.

    python -m simcore.precompile MODULE KINDS CHECK [BUDGET_MB|none [TRACED]]
    (KINDS: e.g. 0,1,4; CHECK, TRACED: 0 or 1; TRACED: the replay loop)
"""
from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading

BUDGET_MB = 100  # a compile child starts no new kernel once its peak is this far above its start
SPENT = 3  # a compile child's exit status: budget spent, some kernels cached, run another
MAX_CHILDREN = 64  # each child compiles at least one kernel; this only stops a loop that caches nothing


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


def compile_loop(module: str, kinds: list[int], check: bool, traced: bool = False) -> None:
    """Build and call the loop of `module`'s game for these policy kinds (one game of greedy seats);
    `traced`: the replay loop (`play_traced`, one game with its event trace)."""
    import importlib

    import numpy as np

    from .batch import Engine, resolve_policy
    from .params import resolve

    spec = importlib.import_module(module).SPEC
    data = spec.load_data(resolve(spec, {}))
    engine = Engine(spec, [resolve_policy(spec, "greedy")], kinds=kinds)
    if traced:
        engine.replay(data.tables, spec.default_players, 1, 0, check=check)
    else:
        engine.run(data.tables, spec.default_players, 1, np.arange(1, dtype=np.int64), len(data.card_names),
                   check=check)


def in_child(spec, engine, check: bool = False, budget_mb: float | None = BUDGET_MB,
             traced: bool = False) -> bool | None:
    """Compile `engine`'s loop (`traced`: its replay loop) in child processes (see the module docstring),
    each on a memory budget of `budget_mb` (None: one child compiles it all; 0: each child about one
    kernel): True when they did, False when a child failed (the run then compiles the loop itself), None
    when not tried: only a registered game without a user policy file is (a child cannot rebuild those
    from a name)."""
    module = _child_module(spec, engine)
    if module is None:
        return None
    ahead = _AHEAD.pop(_loop_key(spec, engine, check, traced), None)
    if ahead is not None:  # already compiling beside what this process did since (`ahead`): wait for it
        ahead.join()
        if ahead.ok:
            return True
    return _in_children(module, engine, check, budget_mb, traced)


def _child_module(spec, engine) -> str | None:
    """The module a compile child imports to rebuild this loop, or None when a child cannot: a game not
    in the registry, a user policy file, or no JIT at all."""
    from . import registry

    if engine.user_ref is not None or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return None
    return registry.GAMES.get(spec.name)


def _in_children(module: str, engine, check: bool, budget_mb: float | None, traced: bool) -> bool:
    kinds = ",".join(str(k) for k in sorted(engine.kinds))
    cmd = [sys.executable, "-m", "balance.simcore.precompile", module, kinds, str(int(check)),
           "none" if budget_mb is None else str(budget_mb), str(int(traced))]
    for _ in range(MAX_CHILDREN):
        code = _run_child(cmd)
        if code != SPENT:
            return code == 0
    return False


_LIVE: set = set()  # compile children running now
_EXITING: list = []  # non-empty once this process is exiting: no new child is started


def _run_child(cmd: list[str]) -> int | None:
    """One compile child's exit status (None: it could not be started). A child still running when this
    process exits (Ctrl-C, an error, a loop compiled `ahead` and never needed) is stopped then."""
    if _EXITING:
        return None
    try:
        proc = subprocess.Popen(cmd, env=child_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return None
    _LIVE.add(proc)
    try:
        return proc.wait()
    finally:
        _LIVE.discard(proc)


@atexit.register
def _stop_children() -> None:
    _EXITING.append(True)
    for proc in list(_LIVE):
        proc.terminate()


def _loop_key(spec, engine, check: bool, traced: bool) -> tuple:
    return spec.name, tuple(sorted(engine.kinds)), bool(check), bool(traced)


class _Ahead(threading.Thread):
    def __init__(self, module: str, engine, check: bool):
        super().__init__(daemon=True, name=f"compile ahead: {module}")
        self.args_ = (module, engine, check, BUDGET_MB, False)
        self.ok = False

    def run(self) -> None:
        try:
            self.ok = _in_children(*self.args_)
        except Exception:  # noqa: BLE001  the loop is then compiled when it is needed, as without this
            self.ok = False


_AHEAD: dict = {}  # loop key -> the _Ahead compiling it


def ahead(spec, engine, check: bool = False) -> bool:
    """Start compiling a loop that this command will need later, in its child processes, while the command
    goes on (a first run's skill check: its expert loop compiles beside the run's own loop and its
    games; numba compiles on one thread, so on two cores the two compiles take the time of the longer one,
    not of both). Nothing when the loop is already in the cache or cannot be compiled in a child. Returns
    whether a compile was started (or is under way). `in_child` for the same loop waits for it."""
    key = _loop_key(spec, engine, check, False)
    if key in _AHEAD:
        return True
    module = _child_module(spec, engine)
    if module is None or is_warm(engine, False, check) is not False:
        return False
    t = _AHEAD[key] = _Ahead(module, engine, check)
    t.start()
    return True


def compiling_ahead(spec, engine, check: bool = False) -> bool:
    """Is this loop being compiled `ahead` (started earlier by this process and not yet waited for)?"""
    return _loop_key(spec, engine, check, False) in _AHEAD


def _peak_mb() -> float | None:
    """This process's peak resident memory in MB (None where it cannot be read)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


class _Spent(RuntimeError):
    """The child's memory budget is spent: it starts no new compile."""


def _compile_on_budget(budget_mb: float) -> dict | None:
    """From now on, refuse to start compiling anything once this process's peak memory is `budget_mb`
    above its peak at the first compile (the game imported, its tables loaded), and once at least one
    kernel has been written to the cache (so every child makes progress: numba's own helpers, compiled
    on the way, are not cached). Returns the counts ("cached", "refused"), or None when numba's compiler
    or cache cannot be wrapped (one child then compiles everything, as without a budget)."""
    try:
        from numba.core.caching import IndexDataCacheFile
        from numba.core.dispatcher import _FunctionCompiler
    except ImportError:
        return None
    if _peak_mb() is None or not hasattr(_FunctionCompiler, "compile") or not hasattr(IndexDataCacheFile, "save"):
        return None
    counts = {"cached": 0, "refused": 0, "start_mb": None}
    plain_compile, plain_save = _FunctionCompiler.compile, IndexDataCacheFile.save

    def compile(self, args, return_type):
        if counts["start_mb"] is None:
            counts["start_mb"] = _peak_mb()
        if counts["cached"] and _peak_mb() >= counts["start_mb"] + budget_mb:
            counts["refused"] += 1
            raise _Spent(f"compile budget of {budget_mb} MB spent")
        return plain_compile(self, args, return_type)

    def save(self, key, data):
        plain_save(self, key, data)
        counts["cached"] += 1

    _FunctionCompiler.compile = compile
    IndexDataCacheFile.save = save
    return counts


def main(argv: list[str]) -> int:
    module, kinds, check = argv[:3]
    budget = argv[3] if len(argv) > 3 else "none"
    traced = len(argv) > 4 and argv[4] == "1"
    counts = None if budget == "none" else _compile_on_budget(float(budget))
    try:
        compile_loop(module, [int(k) for k in kinds.split(",")], check == "1", traced)
    except Exception:
        if counts is not None and counts["refused"]:
            return SPENT  # what was compiled is in the cache; the next child goes on from there
        raise
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
