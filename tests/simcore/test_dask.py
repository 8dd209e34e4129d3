"""A real LocalCluster (worker processes) plays the same games as the local run."""
import os

import polars as pl
import pytest

from balance.analysis import execution, runs
from balance.simcore import registry
from balance.simcore.batch import resolve_policy
from toygame import SPEC

distributed = pytest.importorskip("distributed")


def test_local_cluster_gives_the_same_parts_as_local(tmp_path, monkeypatch):
    from balance.analysis.executors import DaskExecutor

    monkeypatch.setitem(registry.GAMES, "race21", "toygame")
    # worker processes import the toy game from tests/ like this process does
    here = os.path.dirname(os.path.dirname(__file__))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([here, os.path.dirname(here), os.environ.get("PYTHONPATH", "")]))
    cfg = runs.make_config(SPEC, {}, 2, [resolve_policy(SPEC, "greedy", {"epsilon": 0.3})], 13, 2400, 500)
    local, remote = tmp_path / "local", tmp_path / "dask"
    runs.open_run(local, SPEC, cfg, 2400, "test")
    execution.execute(local, SPEC, cfg, 2400)
    runs.open_run(remote, SPEC, cfg, 2400, "test")
    ex = DaskExecutor(cfg, workers=2)
    try:
        execution.execute(remote, SPEC, cfg, 2400, executor=ex)
    finally:
        ex.close()
    for kind in ("games", "seats", "cards"):
        names = sorted(p.name for p in (local / "parts" / kind).glob("*.parquet"))
        assert names == sorted(p.name for p in (remote / "parts" / kind).glob("*.parquet"))
        for name in names:
            assert pl.read_parquet(local / "parts" / kind / name).equals(pl.read_parquet(remote / "parts" / kind / name)), name


def test_a_worker_lost_mid_run_has_its_chunks_redone_with_the_same_results(tmp_path, monkeypatch):
    import signal

    from balance.analysis.executors import DaskExecutor

    monkeypatch.setitem(registry.GAMES, "race21", "toygame")
    here = os.path.dirname(os.path.dirname(__file__))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([here, os.path.dirname(here), os.environ.get("PYTHONPATH", "")]))
    n, chunk = 24_000, 1000
    cfg = runs.make_config(SPEC, {}, 3, [resolve_policy(SPEC, "greedy", {"epsilon": 0.3})], 17, n, chunk)
    local, remote = tmp_path / "local", tmp_path / "dask"
    runs.open_run(local, SPEC, cfg, n, "test")
    execution.execute(local, SPEC, cfg, n)
    runs.open_run(remote, SPEC, cfg, n, "test")
    ex = DaskExecutor(cfg, workers=2)
    killed = []

    def kill_one_worker(done, total):
        if not killed and done >= 2 * chunk:  # mid-run: chunks are in flight on both workers
            pids = ex.client.run(os.getpid)
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    try:
        execution.execute(remote, SPEC, cfg, n, on_chunk=kill_one_worker, executor=ex)
    finally:
        ex.close()
    assert killed
    for kind in ("games", "seats", "cards"):
        names = sorted(p.name for p in (local / "parts" / kind).glob("*.parquet"))
        assert len(names) == n // chunk
        assert names == sorted(p.name for p in (remote / "parts" / kind).glob("*.parquet"))
        for name in names:
            assert pl.read_parquet(local / "parts" / kind / name).equals(pl.read_parquet(remote / "parts" / kind / name)), name
