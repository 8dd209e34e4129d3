"""A first run that says what it is doing (issue 18, item 2).

Before the progress bar, `simulate`, `sweep`, `compare --game`, `bench` and
`replay` (which compiles the traced loop, `play_traced`) say whether the game's engine will compile (numba's cache under
`simcore.jit.CACHE_ROOT` is cold for this engine and policy set) and about how
long that takes, or that the engine is ready:

    compiling the Overtime engine (greedy): first run on this machine, about 60 s

Cold or warm is read from numba's own cache index (`simcore.precompile.is_warm`), without compiling or
loading anything: the game loop (`run_range`, which holds `play`, and `choose` over the
run's policy kinds) is warm when its index file holds an entry for this machine, this
bytecode and this closure (the game's kernels, the policy kinds), which is
how numba itself finds it; the index is void when the source file changed. Anything unexpected (a changed runner, NUMBA_DISABLE_JIT)
gives `None`: unknown, and nothing is printed.

A cold loop is then compiled in child processes on a memory budget (`simcore/precompile.py`):
the run loads it from the cache as a warm run does and does not hold the compiler's memory.

The estimate is data, not a literal at each call site: each game's spec
declares it (`budgets.compile_seconds`), from docs/benchmarks.md (session 13: the greedy loop's first batch
on an empty cache, seconds of the compiling process on a 2-core machine;
numba compiles on one thread). Lookahead and the search policies
compile more code: `budgets.search_compile_seconds` (session 20, the loop
with `expert`), else `SEARCH_FACTOR` times the greedy loop's, a rough allowance.
"""
from __future__ import annotations

from dataclasses import dataclass

from balance.simcore import registry
from balance.simcore.errors import BalanceError
from balance.simcore.precompile import is_warm
from balance.simcore.spec import Budgets

DEFAULT_SECONDS = 120.0  # a game not measured yet (a new game, a fixture)
SEARCH_FACTOR = 1.5  # a game whose search loop was not measured: its greedy loop's time, times this


@dataclass(frozen=True)
class Status:
    warm: bool | None  # None: unknown
    line: str | None  # what to print before the progress bar (None: nothing)


def estimate_seconds(game: str, policy_names=()) -> float:
    """The game's measured cold compile (its spec's `budgets`), else the fallbacks here."""
    try:
        budgets = registry.get(game).budgets
    except BalanceError:
        budgets = Budgets()
    base = budgets.compile_seconds or DEFAULT_SECONDS
    if not any(n in ("lookahead", "expert", "oracle") for n in policy_names):
        return base
    return budgets.search_compile_seconds or base * SEARCH_FACTOR


def about(seconds: float) -> str:
    """'about 50 s', 'about 2 minutes' (rounded: an estimate, not a measurement)."""
    if seconds < 90:
        return f"about {int(round(seconds / 10.0) * 10) or 10} s"
    return f"about {max(2, round(seconds / 60))} minutes"


def title_of(spec) -> str:
    return getattr(spec, "title", None) or spec.name


def status(spec, engine, traced: bool = False, checked: bool = False, ahead: bool = False) -> Status:
    """The status line of a run (or, `traced`, a replay) about to play (cold: what compiles and about how long;
    `ahead`: its compile started earlier, simcore.precompile.ahead)."""
    warm = is_warm(engine, traced, checked)
    names = list(dict.fromkeys(s.name.rpartition(":")[2] or s.name for s in engine.seats))
    if warm is False and ahead:
        return Status(False, f"compiling the {title_of(spec)} engine ({', '.join(names)}): first run on this "
                             f"machine, already under way since the command started (cached afterwards)")
    if warm is False:
        return Status(False, f"compiling the {title_of(spec)} engine ({', '.join(names)}): first run on this "
                             f"machine, {about(estimate_seconds(spec.name, names))} (cached afterwards)")
    if warm is True:
        return Status(True, None)
    return Status(None, None)


def bench_line(spec, policies: list[str], cold: bool) -> str:
    """What `bench` says before it measures a game: a cold compile on an empty cache takes minutes."""
    est = about(estimate_seconds(spec.name, policies))
    if cold:
        return f"measuring {title_of(spec)}: first a compile on an empty cache ({', '.join(policies)}), {est}"
    return f"measuring {title_of(spec)} ({', '.join(policies)})"
