"""Where the chunks of a run are played: here (numba threads) or on a Dask
distributed cluster. Both yield the same per-game results, because game i
depends only on (seed, i); the run folder is written here either way.

An executor takes (variant, chunk, first, count) tasks and yields
(task, Results or None if skipped, seconds) as chunks finish.
"""
from __future__ import annotations

import json
import time
from collections import deque
from typing import Callable, Iterable, Iterator

import numba

from .execution import LocalExecutor, Prepared, Task  # noqa: F401  (LocalExecutor: as before)
from .runs import config_from_manifest

_WORKER_CACHE: dict[str, object] = {}


def config_payload(config) -> str:
    """A RunConfig as JSON, in the manifest's shape (config_from_manifest reads
    it), with the module that holds the game's spec."""
    from balance.simcore import registry

    return json.dumps({"module": registry.GAMES[config.game], "config": {
        "game": config.game, "mode": config.mode, "players": config.players, "seed": config.seed,
        "chunk_size": config.chunk_size, "policies": [p.describe() for p in config.policies],
        "variants": [{"name": v.name, "params": v.params, "varied": v.varied} for v in config.variants],
        "check": config.check,
    }}, sort_keys=True, default=str)


def play_remote(payload: str, variant: int, first: int, count: int, threads: int | None):
    """Runs on a Dask worker: compile (or load from cache) once per process, play one range."""
    import importlib


    if threads:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    prep = _WORKER_CACHE.get(payload)
    if prep is None:
        data = json.loads(payload)
        config = config_from_manifest(data)
        prep = Prepared(importlib.import_module(data["module"]).SPEC, config)
        _WORKER_CACHE.clear()
        _WORKER_CACHE[payload] = prep
    t0 = time.perf_counter()
    res = prep.run_task(variant, first, count)
    return res, time.perf_counter() - t0


class DaskExecutor:
    """Chunks as Dask tasks: `--scheduler tcp://host:8786`, or `--workers N`
    for a LocalCluster of N single-threaded worker processes on this machine."""

    def __init__(self, config, scheduler: str | None = None, workers: int | None = None):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            from balance.simcore.errors import BalanceError

            raise BalanceError("--scheduler/--workers: Dask is not installed; allowed: pip install 'balance[cluster]'") from None
        self.cluster = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout="10s")
            except OSError as exc:
                from balance.simcore.errors import BalanceError

                raise BalanceError(f"--scheduler: cannot reach {scheduler} ({exc})") from None
            self.threads = None
        else:
            self.cluster = LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                        dashboard_address=None, silence_logs=40)
            self.client = Client(self.cluster)
            self.threads = 1
        self.payload = config_payload(config)
        self.window = 2 * max(1, len(self.client.scheduler_info()["workers"]))

    def run(self, tasks: Iterable[Task], skip: Callable[[Task], bool]) -> Iterator:
        from distributed import as_completed

        pending = deque(tasks)
        running = as_completed()
        owner = {}
        in_flight = 0
        while pending or in_flight:
            while pending and in_flight < self.window:
                t = pending.popleft()
                if skip(t):
                    yield t, None, 0.0
                    continue
                # pure=False: a chunk lost with its worker is simply recomputed elsewhere
                f = self.client.submit(play_remote, self.payload, t[0], t[2], t[3], self.threads, pure=False, retries=3)
                owner[f.key] = t
                running.add(f)
                in_flight += 1
            if in_flight:
                f = next(running)
                in_flight -= 1
                res, dt = f.result()
                yield owner.pop(f.key), res, dt

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
