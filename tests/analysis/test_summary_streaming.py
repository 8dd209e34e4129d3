"""The summary of a run folder is computed a window of games at a time
(analysis.frames.windows, analysis.summary): the same numbers as from the
frames in memory, and a peak memory that does not grow with the number of games."""
from __future__ import annotations

import dataclasses
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from synthetic import SPEC, make_run

from balance.analysis import summary as summary_mod
from balance.analysis.frames import (
    load_cards,
    load_games,
    load_manifest,
    load_seats,
    part_files,
    windows,
)
from balance.analysis.stats import Moments, mean_ci
from balance.analysis.summary import (
    distribution,
    distribution_counts,
    summarize,
    summarize_frames,
)
from balance.simcore import metrics as M
from balance.simcore.spec import Column

ROOT = Path(__file__).resolve().parents[2]


def _diffs(a, b, path="", rel=1e-12) -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        # skill_check and card_power are read from the run's other folders (RUN/skill-check, RUN/card-power),
        # not from its frames: a folder summary has them, an in-memory one cannot
        keys = (set(a) | set(b)) - {"generated", "skill_check", "card_power"}
        return [d for k in sorted(keys, key=str) for d in
                (_diffs(a.get(k), b.get(k), f"{path}/{k}", rel) if k in a and k in b else [f"{path}/{k} missing"])]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} vs {len(b)} items"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _diffs(x, y, f"{path}[{i}]", rel)]
    if isinstance(a, float) and isinstance(b, (int, float)) or isinstance(b, float) and isinstance(a, (int, float)):
        return [] if math.isclose(a, b, rel_tol=rel, abs_tol=1e-15) else [f"{path}: {a} vs {b}"]
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]


def _rewrite_games(run: Path, fn) -> None:
    for f in part_files(run, "games"):
        fn(pl.read_parquet(f)).write_parquet(f)


def _both(run: Path, spec, monkeypatch, window: int = 700) -> tuple[dict, dict]:
    """(folder summary read in small windows, summary of the frames in memory)."""
    monkeypatch.setattr(summary_mod, "WINDOW_GAMES", window)
    folder = summarize(run, spec)
    frames = summarize_frames(load_games(run, spec), load_seats(run, spec), load_cards(run), load_manifest(run), spec)
    return folder, frames


def test_windows_cover_every_game_once_and_stay_small(tmp_path):
    run = make_run(tmp_path, n_games=2300, chunk=500, variants={"a": 0.6, "b": 0.4})
    seen_games, seen_seats = [], []
    for g, s in windows(run, 700):
        assert g["game_index"].n_unique() <= 700 and g.height <= 2 * 700
        seen_games.append(g.select("variant", "game_index"))
        seen_seats.append(s.select("variant", "game_index", "seat"))
    games = pl.concat(seen_games)
    assert games.height == 4600 and games.n_unique() == 4600
    assert pl.concat(seen_seats).n_unique() == 9200


def test_folder_summary_equals_in_memory_summary(tmp_path, monkeypatch):
    run = make_run(tmp_path, n_games=4000, chunk=500, n_cap=7)
    folder, frames = _both(run, SPEC, monkeypatch)
    assert folder["n_games"] == 4000 and not _diffs(folder, frames)
    # medians, quantiles, histogram and the bootstrap interval are those of the rows
    d = load_games(run)["decisions"].to_numpy()
    assert folder["length"]["median"] == float(np.quantile(d, 0.5, method="inverted_cdf"))
    assert folder["length"]["median_ci"] == frames["length"]["median_ci"]


def test_sweep_paired_ladder_and_first_player_read_in_windows(tmp_path, monkeypatch):
    levels = {"L1": 0.9, "L2": 0.6, "L3": 0.3}
    run = make_run(tmp_path, n_games=3000, chunk=500, n_cap=4, variants=levels,
                   variant_params={"L1": {"level": 1}, "L2": {"level": 2}, "L3": {"level": 3}})
    spec = dataclasses.replace(SPEC, game_columns=SPEC.game_columns + (
        Column("first_seat", "seat that moved first"), Column("happy_turn", "turn a worker became happy; -1 never")),
        first_seat_column="first_seat")
    _rewrite_games(run, lambda g: g.with_columns(
        (pl.col("game_index") % 2).cast(pl.Int8).alias("first_seat"),
        pl.when(pl.col("game_index") % 3 == 0).then(-1).otherwise(pl.col("game_index") % 17).alias("happy_turn")))
    folder, frames = _both(run, spec, monkeypatch, window=1000)  # 333 games per variant per window
    assert not _diffs(folder, frames)
    assert [c["variant"] for c in folder["paired_vs_first"]["comparisons"]] == ["L2", "L3"]
    assert folder["paired_vs_first"]["comparisons"][0]["n_pairs"] == 3000
    first = folder["variants"][0]  # a sweep's numbers are per variant (no pooling across points)
    assert first["first_player"]["first"]["n"] == 3000 and first["metrics"]["happy_turn"]["excluded_sentinel"] == 1000
    assert [r["level"] for r in folder["ladder"]] == [1, 2, 3]


def test_level_column_ladder_in_windows(tmp_path, monkeypatch):
    spec = dataclasses.replace(SPEC, game_columns=SPEC.game_columns + (Column("level", "difficulty level"),),
                               setting_columns=("level",))
    run = make_run(tmp_path, n_games=3000, chunk=500, n_cap=300)
    _rewrite_games(run, lambda g: g.with_columns((pl.col("game_index") % 3 + 1).alias("level")))
    folder, frames = _both(run, spec, monkeypatch)
    assert not _diffs(folder, frames) and sum(r["n"] for r in folder["ladder"]) == 3000


METRIC_SETS = {
    "rates, means and counts": (
        M.Rate(key="wins", label="seat wins", table="seats", hits=pl.col("won") > 0),
        M.Mean(key="total", label="final total", value=pl.col("total")),
        M.Counts(key="totals", value=pl.col("total")),
    ),
    "distributions and groups": (
        M.Distribution(key="median_total", value=pl.col("total")),
        M.Group(key="long", label="long games", members=(
            M.Rate(key="share", hits=pl.col("decisions") > 10),
            M.Mean(key="decisions", value=pl.col("decisions"), where=pl.col("decisions") > 10, counts=True),
        )),
    ),
}


@pytest.mark.parametrize("kind", sorted(METRIC_SETS))
def test_game_metrics_streamed_equal_one_pass(tmp_path, monkeypatch, kind):
    spec = dataclasses.replace(SPEC, metrics=METRIC_SETS[kind])
    run = make_run(tmp_path, n_games=3000, chunk=500, variants={"a": 0.6, "b": 0.5})
    folder, frames = _both(run, spec, monkeypatch)
    assert not _diffs(folder, frames, rel=1e-9)
    for v in folder["variants"]:
        assert v["game_metrics"] and v["game_metrics"] == json.loads(json.dumps(v["game_metrics"]))


def test_moments_and_counts_agree_with_rows():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 300, 20_001).astype(float)
    assert Moments.of(x).ci() == mean_ci(x)  # one chunk: the very same numbers
    merged = Moments()
    for part in np.array_split(x, 13):
        merged.add(part)
    assert not _diffs(merged.ci(), mean_ci(x))
    u, c = np.unique(x, return_counts=True)
    assert not _diffs(distribution_counts(u, c, "x"), distribution(x, "x"))


_PEAK = """
import resource, sys
sys.path.insert(0, {tests!r})
import balance.analysis.summary as summary
from synthetic import SPEC
summary.WINDOW_GAMES = 10_000
s = summary.summarize(sys.argv[1], SPEC)
assert s["n_games"] == int(sys.argv[2]), s["n_games"]
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _peak_mb(run: Path, n: int) -> float:
    code = _PEAK.format(tests=str(Path(__file__).resolve().parent))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code, str(run), str(n)], capture_output=True, text=True, env=env,
                         timeout=120, check=True)
    return int(out.stdout.split()[-1]) / 1024  # ru_maxrss is in KiB on Linux


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss units and allocator behaviour checked on Linux")
def test_summary_peak_memory_does_not_grow_with_games(tmp_path):
    """10x the games (300k, 600k seat rows) must not raise the peak by more than
    a window's worth: reading every row at once (the old summary) added ~130 MB."""
    small = make_run(tmp_path / "small", n_games=30_000, chunk=10_000)
    large = make_run(tmp_path / "large", n_games=300_000, chunk=10_000)
    growth = _peak_mb(large, 300_000) - _peak_mb(small, 30_000)
    assert growth < 40, f"peak grew by {growth:.0f} MB for 10x the games"
