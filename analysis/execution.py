"""Playing a run: every missing (variant, range) of a run folder taken chunk by
chunk (`execute`), on the engines prepared once per process (`Prepared`), by
the local executor or another (analysis.executors), each chunk committed
while the next one plays (`write_chunk`, analysis.part_writer), and, with
--precision, the tally that stops a variant once its headline rates are
precise enough (`Tally`, stopping.json). Split from analysis.runs, which
makes, checks and resumes the folder it plays into (open_run) and says which
games are missing (missing_tasks).
"""
from __future__ import annotations

import json
import time
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import numpy as np
import polars as pl

from balance.simcore.batch import Engine, InvariantBroken, Results
from balance.simcore.runner import COL_WON, USER
from balance.simcore.spec import GameSpec

from . import chunk_log, folder_lock, manifest_file, store
from .chunk_frames import results_frames
from .folder_entries import MANIFEST
from .runs import (
    RunConfig,
    Variant,
    _engine_key,
    _write_json,
    covered,
    load_manifest,
    missing_tasks,
    rotation_of,
    seat_policies,
    seating_of,
    variant_games,
)


def write_chunk(run_dir: Path, spec: GameSpec, task: tuple[int, int, int, int], res: Results, seconds: float,
                variant: str, policies: list[str], card_names: list[str], config: str | None = None) -> None:
    """A played range's three parts, then the one record that commits them
    (analysis.store.commit_chunk); `config` is the folder's configuration hash."""
    v, c, first, count = task
    games, seats, cards = results_frames(spec, res, variant, c, policies, card_names)
    store.commit_chunk(Path(run_dir), task, {"games": games, "seats": seats, "cards": cards}, seconds, config)


def _seat_policy_names(config: RunConfig, variant: Variant | None = None) -> list[str]:
    return [p.name for p in seat_policies(config, variant)]


Task = tuple[int, int, int, int]  # (variant, chunk, first game index, games)


class LocalExecutor:
    """The embedded default: one chunk at a time, prange over its games."""

    def __init__(self, prepared):
        self.prepared = prepared

    def run(self, tasks: Iterable[Task], skip: Callable[[Task], bool]) -> Iterator:
        for t in tasks:
            if skip(t):
                yield t, None, 0.0
                continue
            t0 = time.perf_counter()
            res = self.prepared.run_task(t[0], t[2], t[3])
            yield t, res, time.perf_counter() - t0

    def close(self) -> None:
        pass


class Prepared:
    """Per variant: tables, engine, card names — compiled once per process."""

    def __init__(self, spec: GameSpec, config: RunConfig):
        self.spec = spec
        self.config = config
        self.engine = Engine(spec, config.policies)
        self.data = [spec.load_data(v.params) for v in config.variants]  # one GameData per variant
        self.tables = [d.tables for d in self.data]
        self.card_names = [list(d.card_names) for d in self.data]
        self.policy_names = _seat_policy_names(config)
        self.engines = {}
        # a seating per variant (ladder): one loop compiled for every policy kind of the run, shared
        kinds = {p.kind for p in config.policies if p.kind != USER} if any(seating_of(v) for v in config.variants) else None
        for v in config.variants:  # seat-rotated variants: the policies seated in their rotation
            r = _engine_key(v)
            if r and r not in self.engines:
                self.engines[r] = Engine(spec, seat_policies(config, v), kinds=kinds)

    def run_task(self, variant: int, first: int, count: int) -> Results:
        engine = self.engines.get(_engine_key(self.config.variants[variant]), self.engine)
        try:
            return engine.run(self.tables[variant], self.config.players, self.config.seed,
                                   np.arange(first, first + count, dtype=np.int64), len(self.card_names[variant]),
                                   check=self.config.check)
        except InvariantBroken as exc:
            exc.variant = variant
            raise


class Tally:
    """Win counts per variant and seat, to decide when a run is precise enough."""

    def __init__(self, n_variants: int, n_seats: int):
        self.games = np.zeros(n_variants, np.int64)
        self.any_won = np.zeros(n_variants, np.int64)
        self.seat_won = np.zeros((n_variants, n_seats), np.int64)

    def add(self, v: int, seat_out: np.ndarray) -> None:
        won = seat_out[:, :, COL_WON] > 0.5
        self.games[v] += won.shape[0]
        self.any_won[v] += int(won.any(axis=1).sum())
        self.seat_won[v] += won.sum(axis=0)

    def load(self, run_dir: Path, config: RunConfig) -> None:
        """The committed seats parts (open_run has checked them against their records)."""
        from .frames import read_part

        manifest = manifest_file.read_manifest(Path(run_dir), required=False)
        files = [f for f, _, _ in store.committed(Path(run_dir), manifest).parts("seats")]
        if not files:
            return
        names = {v.name: i for i, v in enumerate(config.variants)}
        for f in files:  # one part at a time (a part holds whole games): memory flat in the number of games
            seats = read_part(f, columns=["variant", "game_index", "seat", "won"])
            per_game = seats.group_by("variant", "game_index").agg(pl.col("won").max().alias("any"))
            for row in per_game.group_by("variant").agg(pl.len().alias("n"), pl.col("any").sum().alias("k")).iter_rows(named=True):
                self.games[names[row["variant"]]] += row["n"]
                self.any_won[names[row["variant"]]] += row["k"]
            for row in seats.group_by("variant", "seat").agg(pl.col("won").sum().alias("k")).iter_rows(named=True):
                self.seat_won[names[row["variant"]], row["seat"]] += row["k"]

    def widest(self, v: int) -> float:
        """Widest 95% Wilson interval among the variant's headline rates."""
        from .stats import wilson

        n = self.games[v]
        if n == 0:
            return 1.0
        ks = [self.any_won[v]] + list(self.seat_won[v])
        return max(hi - lo for lo, hi in (wilson(k, n) for k in ks))


def execute(run_dir: Path, spec: GameSpec, config: RunConfig, n_games: int,
            on_chunk: Callable[[int, int], None] | None = None, prepared: Prepared | None = None,
            precision: float | None = None, executor=None, paired: bool = False) -> dict:
    """Play every missing (variant, range) of the run and write its parts.

    Ranges are taken chunk by chunk across variants. With `precision`, a
    variant stops taking chunks once the widest 95% interval of its headline
    rates (win rate, each seat's win rate) is below it; the run stops when all
    have, or at n_games. on_chunk(done_games, total_games) reports progress;
    a chunk counts when played, and its parts are written while the next
    one plays (analysis.part_writer): all are on disk when this returns.
    `executor` (analysis.executors) plays the chunks: here by default, or on
    a Dask cluster. Returns what was played now and, with precision, what
    stopped it. `paired` (impact, compare --game: variants read game by game
    against each other) stops every variant at the same range, as seat
    rotations do, so no pair loses a side.
    """
    from .part_writer import PartWriter

    run_dir = Path(run_dir)
    folder_lock.hold(run_dir)  # open_run took it; a second process on this folder is refused here
    cfg_hash = manifest_file.config_hash(manifest_file.read_manifest(run_dir, required=False))
    todo = sorted(missing_tasks(run_dir, config, n_games), key=lambda t: (t[1], t[0], t[2]))
    if executor is None:
        prep = prepared or Prepared(spec, config)
        executor = LocalExecutor(prep)
    names = [_seat_policy_names(config, var) for var in config.variants]
    card_names = ([list(spec.load_data(v.params).card_names) for v in config.variants] if prepared is None
                  else prepared.card_names)
    total = sum(variant_games(v, n_games) for v in config.variants)
    done = total - sum(t[3] for t in todo)
    tally = None
    if precision is not None:
        tally = Tally(len(config.variants), config.players)
        tally.load(run_dir, config)

    rotated = paired or any(rotation_of(var) for var in config.variants)
    decided: dict[tuple[int, int], bool] = {}

    def precise(v: int) -> bool:
        return tally.games[v] > 0 and tally.widest(v) < precision

    def skip(task) -> bool:
        if tally is None:
            return False
        if not rotated:
            return precise(task[0])
        # seat-rotated (or paired): the variants of a deal are one outcome, so they stop together, range by range
        key = (task[1], task[2])
        if key not in decided:
            decided[key] = all(precise(v) for v in range(len(config.variants)))
        return decided[key]

    if on_chunk:
        on_chunk(done, total)
    played, seconds = 0, 0.0
    with PartWriter() as writer:  # a chunk is written while the next one plays
        for task, res, dt in executor.run(todo, skip):
            v, count = task[0], task[3]
            if res is None:  # skipped: this variant is already precise enough
                total -= count
                if on_chunk:
                    on_chunk(done, total)
                continue
            if tally is not None:  # before the executor asks `skip` about the next chunk
                tally.add(v, res.seat_out)
            writer.submit(partial(write_chunk, run_dir, spec, task, res, dt, config.variants[v].name, names[v],
                                  card_names[v], cfg_hash))
            played += count
            seconds += dt
            done += count
            if on_chunk:
                on_chunk(done, total)
    out: dict[str, Any] = {"games_played_now": played, "seconds_now": seconds}
    if tally is not None:
        widths = [tally.widest(v) for v in range(len(config.variants))]
        reached = bool(all(w < precision for w in widths))
        out["stopping"] = {
            "precision": precision,
            "stopped_by": "precision" if reached else "n_games",
            "max_games": n_games,
            "variants": [{"name": var.name, "games": int(tally.games[i]), "widest_ci": float(widths[i]),
                          "reached": bool(widths[i] < precision)} for i, var in enumerate(config.variants)],
        }
        _write_json(Path(run_dir) / "stopping.json", out["stopping"])
    elif (Path(run_dir) / "stopping.json").exists():
        # played on without --precision: once every variant has all the games the folder was ever asked
        # for, an earlier --precision record no longer says what stopped it
        wanted = load_manifest(run_dir).get("n_games", n_games) if (Path(run_dir) / MANIFEST).exists() else n_games
        have = covered(run_dir)
        if all(sum(c for _, c in have.get(v, [])) >= wanted for v in range(len(config.variants))):
            (Path(run_dir) / "stopping.json").unlink(missing_ok=True)
    return out


def timing(run_dir: Path) -> dict:
    """Games and seconds over the chunks played for this folder (committed
    chunks, and an old folder's timing lines)."""
    log = chunk_log.read_log(Path(run_dir))
    games = secs = 0.0
    for r in log.records:
        if not r.migrated:
            games += r.count
            secs += r.seconds
    for line in log.timing:
        rec = json.loads(line)
        games += rec.get("games", 0)
        secs += rec.get("seconds", 0.0)
    return {"games": int(games), "seconds": secs, "games_per_second": games / secs if secs else None}
