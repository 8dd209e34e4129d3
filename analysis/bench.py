"""`balance bench`: how fast each game runs, and what it costs to get there.

Each game is measured in fresh child processes, so that compile time, the
speed-up over plain Python and peak memory are those of that game alone:

* first, each policy's loop is compiled into the user's compile cache where it
  is not there yet, in a child process (`simcore.precompile.in_child`, as a
  cold first run does): on a new machine it is not, and without this step the
  "warm" load below was a compile (54 s for Overtime, against 0.5 s);
* warm: the engine loaded from the compile cache (load time), then games/s
  and decisions/s of each policy on one thread and on all threads, and the
  peak resident memory of that process. Each row is measured `repeat` times,
  the rows taking turns (so a slow moment of the machine is spread over all
  of them); a row reports the median and the slowest and fastest sample;
* cold: a first command on an empty compile cache, as the CLI runs it: the
  loops compiled in child processes on a memory budget
  (`simcore.precompile.in_child`), every policy's loop started at once
  (`precompile.ahead`, as a first run starts its skill check's expert loop
  beside its own: on two cores, the time of the longer compile), then the same
  first batches loaded from the cache; compile time is the whole, wall clock,
  and the peak resident memory is that of the largest of those processes (the
  one that runs the games included);
  `compiled_in_child` per policy says which it was (True; False: the children
  failed and the batch compiled in the process; None: not tried, a game not
  in the registry);
* nojit: the same rules with `NUMBA_DISABLE_JIT=1` on a small sample, one
  thread: the speed-up is (jitted games/s on one thread) / (plain Python games/s).

`python -m analysis.bench GAME MODULE MODE N POLICIES [REPEAT]` is the child; it prints JSON.
"""
from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

FIRST_BATCH = 64  # games played to trigger compile (or cache load)
SEARCH_POLICIES = ("lookahead", "expert", "oracle")  # thousands of times slower per game than greedy
SEARCH_SHARE = 100  # a search policy's row plays n / SEARCH_SHARE games (at least SEARCH_MIN)
SEARCH_MIN = 64
BASELINE = ("random", "greedy")  # shown beside any other policy measured
DEFAULT_POLICIES = ("random", "greedy", "expert")  # what `balance bench` measures unless told (issue 22)


def available(game: str, policies: list[str]) -> tuple[list[str], dict[str, str]]:
    """The policies a game can play, and those it refuses with why (sickdays-party's expert)."""
    from balance.simcore import registry

    spec = registry.get(game)
    keep, refused = [], {}
    for name in policies:
        p = spec.policy(name)
        if p is not None and p.refused:
            refused[name] = p.refused
        else:
            keep.append(name)
    return keep, refused


def with_baseline(policies: list[str]) -> list[str]:
    """The policies a bench measures: random and greedy beside any other asked for."""
    if all(p in BASELINE for p in policies):
        return list(dict.fromkeys(policies))
    return list(dict.fromkeys([*BASELINE, *policies]))


def games_for(policy: str, n: int) -> int:
    """Games per sample of a row: a search policy plays n / SEARCH_SHARE of them."""
    return max(SEARCH_MIN, n // SEARCH_SHARE) if policy in SEARCH_POLICIES else n


def first_batch_for(policy: str) -> int:
    return 4 if policy in SEARCH_POLICIES else FIRST_BATCH


def _batch(spec, policy: str, n: int, players: int, seed: int = 1, found: dict | None = None) -> dict:
    """Games 0..n-1 of `seed`; `found`: record under the policy's name whether its
    loop was in the compile cache before the batch (None where that cannot be told)."""
    from balance.simcore.batch import Engine, resolve_policy
    from balance.simcore.precompile import is_warm
    from balance.simcore.params import resolve
    from balance.simcore.runner import COL_DECISIONS

    params = resolve(spec, {})
    data = spec.load_data(params)
    tables, n_cards = data.tables, len(data.card_names)
    engine = Engine(spec, [resolve_policy(spec, policy)])
    if found is not None:
        found[policy] = is_warm(engine)
    t0 = time.perf_counter()
    res = engine.run(tables, players, seed, np.arange(n, dtype=np.int64), n_cards)
    dt = time.perf_counter() - t0
    decisions = float(res.game_out[:, COL_DECISIONS].sum())
    return {"games": n, "seconds": dt, "games_per_second": n / dt, "decisions_per_second": decisions / dt,
            "decisions_per_game": decisions / n}


def _median_row(samples: list[dict]) -> dict:
    """One row from repeated samples of the same games: the median games/s (the
    decisions per game are the same in every sample), its slowest and fastest."""
    gps = [s["games_per_second"] for s in samples]
    mid = statistics.median(gps)
    first = samples[0]
    return {"games": first["games"], "seconds": first["games"] / mid, "games_per_second": mid,
            "decisions_per_second": mid * first["decisions_per_game"], "decisions_per_game": first["decisions_per_game"],
            "samples": len(gps), "games_per_second_min": min(gps), "games_per_second_max": max(gps)}


def child(game: str, module: str, mode: str, n: int, policies: list[str], repeat: int = 1) -> dict:
    """Runs in the child process (see the module docstring)."""
    import importlib

    import numba

    spec = importlib.import_module(module).SPEC
    players = spec.default_players
    out: dict = {"game": game, "players": players, "mode": mode, "rows": []}
    if mode in ("cold", "warm"):
        t0 = time.perf_counter()
        out["first_batch_by_policy"] = {}
        out["in_cache_before"] = {}
        if mode == "cold":  # every loop starts compiling at once, as a first run's own loop and its skill check's do
            from balance.simcore.batch import Engine, resolve_policy
            from balance.simcore.precompile import ahead, in_child, is_warm

            engines = {pol: Engine(spec, [resolve_policy(spec, pol)]) for pol in policies}
            for pol, engine in engines.items():
                out["in_cache_before"][pol] = is_warm(engine)
                ahead(spec, engine)
        for pol in policies:
            t1 = time.perf_counter()
            if mode == "cold":  # as a first command compiles: in budgeted children, then loads the loop
                out.setdefault("compiled_in_child", {})[pol] = in_child(spec, engines[pol])  # waits for its `ahead`
                _batch(spec, pol, first_batch_for(pol), players)
            else:
                _batch(spec, pol, first_batch_for(pol), players, found=out["in_cache_before"])
            out["first_batch_by_policy"][pol] = time.perf_counter() - t1
        out["first_batch_seconds"] = time.perf_counter() - t0
    if mode == "warm":
        all_threads = numba.config.NUMBA_NUM_THREADS
        keys = [(pol, threads) for pol in policies for threads in sorted({1, all_threads})]
        samples: dict = {k: [] for k in keys}
        for _ in range(max(1, repeat)):
            for pol, threads in keys:
                numba.set_num_threads(threads)
                samples[(pol, threads)].append(_batch(spec, pol, games_for(pol, n), players))
        for pol, threads in keys:
            out["rows"].append({"policy": pol, "threads": threads, **_median_row(samples[(pol, threads)])})
    if mode == "nojit":
        for pol in policies:
            if pol in SEARCH_POLICIES:  # hours in plain Python: no speed-up measured
                continue
            out["rows"].append({"policy": pol, "threads": 1, **_batch(spec, pol, n, players)})
    # the largest of this process and its children (a cold run's compile children)
    out["peak_rss_mb"] = max(resource.getrusage(who).ru_maxrss for who in
                             (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024
    return out


def _spawn(game: str, mode: str, n: int, policies: list[str], env_extra: dict, repeat: int = 1) -> dict:
    from balance.simcore import registry
    from balance.simcore.precompile import child_env

    env = child_env(env_extra)
    cmd = [sys.executable, "-m", "balance.analysis.bench", game, registry.GAMES[game], mode, str(n), ",".join(policies), str(repeat)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["(no output)"]
        raise RuntimeError(f"bench {game} {mode} failed: {tail[0]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_game(game: str, n: int, policies: list[str], cold: bool = True, nojit_games: int = 20,
               repeat: int = 1) -> dict:
    """One game's measurements: rows per (policy, threads) and per-game costs.

    Random and greedy are measured beside any other policy asked for (a policy
    the game refuses is left out, named in `refused`); a search
    policy (lookahead, expert, oracle) plays n / SEARCH_SHARE games a sample and
    is not timed without the JIT. The cold compile is that of every policy's
    loop in turn (a loop is compiled per set of policy kinds, and random and
    greedy share one), also given per policy."""
    from balance.simcore import registry
    from balance.simcore.batch import Engine, resolve_policy
    from balance.simcore.precompile import in_child

    policies, refused = available(game, with_baseline(list(policies)))
    spec = registry.get(game)
    for pol in policies:  # so that the warm process finds every loop in the cache (a child loads it if it is)
        in_child(spec, Engine(spec, [resolve_policy(spec, pol)]))
    warm = _spawn(game, "warm", n, policies, {}, repeat)
    result = {"game": game, "players": warm["players"], "rows": warm["rows"],
              "warm_load_seconds": warm["first_batch_seconds"], "peak_rss_mb": warm["peak_rss_mb"],
              "warm_in_cache": warm["in_cache_before"],
              "cold_compile_seconds": None, "cold_compile_by_policy": None, "cold_peak_rss_mb": None,
              "nojit_games": nojit_games,
              "refused": refused}
    if cold:
        with tempfile.TemporaryDirectory(prefix="balance-bench-cache-") as cache:
            c = _spawn(game, "cold", n, policies, {"BALANCE_NUMBA_CACHE": cache})
        result["cold_compile_seconds"] = c["first_batch_seconds"]
        result["cold_compile_by_policy"] = c.get("first_batch_by_policy")
        result["cold_peak_rss_mb"] = c["peak_rss_mb"]
    if nojit_games > 0 and any(p not in SEARCH_POLICIES for p in policies):
        plain = _spawn(game, "nojit", nojit_games, policies, {"NUMBA_DISABLE_JIT": "1"})
        for row in result["rows"]:
            if row["threads"] != 1:
                continue
            p = next((r for r in plain["rows"] if r["policy"] == row["policy"]), None)
            if p is None:
                continue
            row["nojit_games_per_second"] = p["games_per_second"]
            row["jit_speedup"] = row["games_per_second"] / p["games_per_second"]
    return result


if __name__ == "__main__":
    g, mod, m, count, pols = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5].split(",")
    reps = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    print(json.dumps(child(g, mod, m, count, pols, reps)))
