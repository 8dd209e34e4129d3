"""Run folders: the manifest, chunked execution, resume.

A run is a list of variants (one for `simulate`, one per grid point for a
sweep) that all play the same game indices 0..n-1 of the same seed, so
variants are paired on the same deals. Each (variant, chunk) is one task and
one set of Parquet parts, written under a temporary name and renamed when
finished: an interrupted run resumes where it stopped and never recomputes
or loses a finished chunk.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

import numpy as np
import polars as pl

from simcore.batch import BalanceError, Engine, InvariantBroken, Results, SeatPolicy
from simcore.jit import SOURCE_HASH
from simcore.params import resolve
from simcore.spec import GameSpec

MANIFEST = "manifest.json"
PARTS = "parts"
CHUNK_LOG = "chunks.jsonl"


def package_version() -> str:
    try:
        return metadata.version("balance")
    except metadata.PackageNotFoundError:
        return "0+unknown"


@dataclass
class Variant:
    name: str
    params: dict[str, Any]  # resolved rule parameters
    varied: dict[str, Any] = field(default_factory=dict)  # the grid point (sweeps)


@dataclass
class RunConfig:
    game: str
    mode: str
    players: int
    policies: list[SeatPolicy]
    seed: int
    variants: list[Variant]
    chunk_size: int
    check: bool = False  # run the game's invariant checks after every step (not part of identity)

    def identity(self, spec: GameSpec) -> dict:
        """What must match for a folder to be resumed (not n_games, not chunking)."""
        return {
            "game": self.game,
            "mode": self.mode,
            "players": self.players,
            "rule_version": spec.version,
            "seed": self.seed,
            "policies": [p.describe() for p in self.policies],
            "variants": [
                {"name": v.name, "params": _jsonable(v.params), "varied": _jsonable(v.varied),
                 "card_list_hash": spec.card_list_hash(v.params)}
                for v in self.variants
            ],
        }


def _jsonable(obj):
    return json.loads(json.dumps(obj, default=lambda o: o.tolist() if hasattr(o, "tolist") else str(o)))


def default_chunk_size(n_games: int) -> int:
    return int(min(50_000, max(1_000, n_games // 20)))


def _diff(a, b, path="") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            out += _diff(a.get(k), b.get(k), f"{path}.{k}" if path else k)
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += _diff(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [f"{path}: folder has {a!r}, this command has {b!r}"]


BYTES_PER_VALUE = 4  # Parquet bytes per stored value, an upper estimate (columns compress well)
SPARE_BYTES = 50 * 2**20


def estimated_bytes(spec: GameSpec, config: RunConfig, n_games: int) -> int:
    per_game = len(spec.game_column_names) + config.players * (len(spec.seat_column_names) + 2) + 4
    return n_games * len(config.variants) * per_game * BYTES_PER_VALUE


def check_writable(run_dir: Path, need: int) -> None:
    """Before any game is played: the folder can be created and written, and
    the disk has room for the results (a clear error, not a failure mid-run)."""
    import shutil

    try:
        (run_dir / PARTS).mkdir(parents=True, exist_ok=True)
        probe = run_dir / PARTS / ".write-probe"
        with open(probe, "wb") as f:
            f.write(b"0" * 4096)
            f.flush()
            os.fsync(f.fileno())
        probe.unlink()
    except OSError as exc:
        raise BalanceError(f"--out: cannot write the run folder {run_dir} ({exc.strerror or exc}); "
                           "allowed: a folder you can write to, on a disk with free space") from None
    free = shutil.disk_usage(run_dir).free
    if free < need + SPARE_BYTES:
        raise BalanceError(f"--out: {run_dir} has {free / 2**20:,.0f} MB free; this run needs about "
                           f"{(need + SPARE_BYTES) / 2**20:,.0f} MB; allowed: a folder on a disk with more room, or a smaller -n")


def open_run(run_dir: Path, spec: GameSpec, config: RunConfig, n_games: int, command: str, kind: str = "run") -> dict:
    """Create the folder and manifest, or check that it holds the same configuration."""
    run_dir = Path(run_dir)
    ident = config.identity(spec)
    path = run_dir / MANIFEST
    if run_dir.exists() and not run_dir.is_dir():
        raise BalanceError(f"--out: {run_dir} is a file, not a folder; allowed: a new or existing run folder")
    if path.exists():
        manifest = json.loads(path.read_text())
        old = manifest["config"]["identity"]
        diffs = _diff(old, ident)
        if diffs:
            shown = "; ".join(diffs[:3]) + ("; ..." if len(diffs) > 3 else "")
            raise BalanceError(
                f"--out: {run_dir} holds a different configuration ({shown}); use another --out folder to run this one"
            )
        check_writable(run_dir, estimated_bytes(spec, config, max(0, n_games - manifest["n_games"])))
        if n_games > manifest["n_games"]:
            manifest["n_games"] = n_games
            _write_json(path, manifest)
        return manifest
    check_writable(run_dir, estimated_bytes(spec, config, n_games))
    manifest = {
        "kind": kind,
        "config": {
            "identity": ident,
            "game": config.game,
            "title": spec.title,
            "mode": config.mode,
            "players": config.players,
            "params": _jsonable(config.variants[0].params) if len(config.variants) == 1 else None,
            "card_list_hash": spec.card_list_hash(config.variants[0].params),
            "policies": [p.describe() for p in config.policies],
            "seed": config.seed,
            "chunk_size": config.chunk_size,
            "rule_version": spec.version,
            "engine_hash": SOURCE_HASH,
            "variants": ident["variants"],
        },
        "n_games": n_games,
        "package_version": package_version(),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": command,
    }
    _write_json(path, manifest)
    return manifest


def _write_json(path: Path, obj) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(obj, indent=2, sort_keys=False))
    os.replace(tmp, path)


def load_manifest(run_dir: Path) -> dict:
    path = Path(run_dir) / MANIFEST
    if not path.exists():
        raise BalanceError(f"{run_dir}: not a run folder (no {MANIFEST})")
    return json.loads(path.read_text())


def config_from_manifest(manifest: dict) -> RunConfig:
    cfg = manifest["config"]
    pols = [SeatPolicy(p["name"], p["kind"], tuple(p["params"])) for p in cfg["policies"]]
    variants = [Variant(v["name"], v["params"], v.get("varied", {})) for v in cfg["variants"]]
    return RunConfig(cfg["game"], cfg["mode"], cfg["players"], pols, cfg["seed"], variants, cfg["chunk_size"],
                     cfg.get("check", False))


def part_name(kind: str, variant: int, first: int, count: int) -> str:
    return f"{kind}-v{variant:04d}-i{first:012d}-n{count:09d}.parquet"


def chunks(n_games: int, chunk_size: int) -> list[tuple[int, int, int]]:
    return [(c, first, min(chunk_size, n_games - first)) for c, first in enumerate(range(0, n_games, chunk_size))]


def covered(run_dir: Path) -> dict[int, list[tuple[int, int]]]:
    """Finished game ranges per variant, read from the part names."""
    out: dict[int, list[tuple[int, int]]] = {}
    for path in (Path(run_dir) / PARTS).glob("games-v*-i*-n*.parquet"):
        _, v, i, n = path.stem.split("-")
        out.setdefault(int(v[1:]), []).append((int(i[1:]), int(n[1:])))
    return out


def missing_tasks(run_dir: Path, config: RunConfig, n_games: int) -> list[tuple[int, int, int, int]]:
    """(variant, chunk, first, count) of game ranges not yet on disk.

    Chunks are aligned to chunk_size; a chunk finished by an earlier, smaller
    request is only topped up with the games it lacks, never replayed."""
    done = covered(run_dir)
    out = []
    for v in range(len(config.variants)):
        have = sorted(done.get(v, []))
        for c, first, count in chunks(n_games, config.chunk_size):
            at, end = first, first + count
            for a, n in have:
                if a + n <= at:
                    continue
                if a >= end:
                    break
                if a > at:
                    out.append((v, c, at, a - at))
                at = max(at, a + n)
            if at < end:
                out.append((v, c, at, end - at))
    return out


def results_frames(spec: GameSpec, res: Results, variant: str, chunk: int, policies: list[str], card_names: list[str]):
    """Struct-of-arrays results -> the three long frames of docs/run-folder.md.

    String columns are built by polars (repeat, gather) rather than from
    Python lists or NumPy string arrays: the same columns, at a tenth of the
    cost (80 ms of a 50,000-game chunk, taken from the engine's cores)."""
    n, n_seats = res.seat_out.shape[0], res.seat_out.shape[1]
    reasons = pl.Series(spec.all_end_reasons, dtype=pl.String)
    g = res.game_out
    cols: dict[str, Any] = {
        "variant": pl.repeat(variant, n, dtype=pl.String, eager=True),
        "game_index": pl.Series(res.game_indices, dtype=pl.Int64),
        "end_reason": reasons.gather(g[:, 0].astype(np.int64)),
        "decisions": pl.Series(g[:, 1].astype(np.int32)),
    }
    for j, col in enumerate(spec.game_columns, start=2):
        cols[col.name] = pl.Series(g[:, j].astype(col.dtype))
    games = pl.DataFrame(cols)

    s = res.seat_out.reshape(n * n_seats, -1)
    scols: dict[str, Any] = {
        "variant": pl.repeat(variant, n * n_seats, dtype=pl.String, eager=True),
        "game_index": pl.Series(np.repeat(res.game_indices, n_seats), dtype=pl.Int64),
        "seat": pl.Series(np.tile(np.arange(n_seats, dtype=np.int8), n)),
        "policy": pl.Series(policies, dtype=pl.String).gather(np.tile(np.arange(len(policies)), n)),
        "won": pl.Series(s[:, 0].astype(np.int8)),
        "score": pl.Series(s[:, 1].astype(np.float32)),
    }
    for j, col in enumerate(spec.seat_columns, start=2):
        scols[col.name] = pl.Series(s[:, j].astype(col.dtype))
    seats = pl.DataFrame(scols)

    cs = res.card_stats  # cards x kinds x 3
    n_cards, n_kinds = cs.shape[0], cs.shape[1]
    seat_games = n * n_seats
    seat_wins = int(s[:, 0].sum())
    cards = pl.DataFrame({
        "variant": [variant] * (n_cards * n_kinds),
        "chunk": pl.Series([chunk] * (n_cards * n_kinds), dtype=pl.Int32),
        "card_id": pl.Series(np.repeat(np.arange(n_cards), n_kinds), dtype=pl.Int32),
        "card": np.repeat(np.array(card_names if card_names else [""] * n_cards, dtype=object), n_kinds).tolist(),
        "counter": np.tile(np.array(spec.card_counters, dtype=object), n_cards).tolist(),
        "games_with": pl.Series(cs[:, :, 0].reshape(-1), dtype=pl.Int64),
        "wins_with": pl.Series(cs[:, :, 1].reshape(-1), dtype=pl.Int64),
        "total": pl.Series(cs[:, :, 2].reshape(-1), dtype=pl.Int64),
        "seat_games": pl.Series([seat_games] * (n_cards * n_kinds), dtype=pl.Int64),
        "seat_wins": pl.Series([seat_wins] * (n_cards * n_kinds), dtype=pl.Int64),
    })
    return games, seats, cards


def _write_part(frame: pl.DataFrame, path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        frame.write_parquet(tmp)
        os.replace(tmp, path)
    except OSError as exc:  # e.g. the disk filled up mid-run: finished parts stay, this one is dropped
        tmp.unlink(missing_ok=True)
        raise BalanceError(f"--out: cannot write {path} ({exc.strerror or exc}); the finished chunks are kept: "
                           "free some space and run the same command again to resume") from None


def write_chunk(run_dir: Path, spec: GameSpec, task: tuple[int, int, int, int], res: Results, seconds: float,
                variant: str, policies: list[str], card_names: list[str]) -> None:
    """A played range's parts, games last (it marks the range finished), then its line in chunks.jsonl."""
    v, c, first, count = task
    games, seats, cards = results_frames(spec, res, variant, c, policies, card_names)
    parts = run_dir / PARTS
    _write_part(seats, parts / part_name("seats", v, first, count))
    _write_part(cards, parts / part_name("cards", v, first, count))
    _write_part(games, parts / part_name("games", v, first, count))  # last: marks the range finished
    with open(run_dir / CHUNK_LOG, "a") as fh:
        fh.write(json.dumps({"variant": v, "chunk": c, "first": first, "games": count, "seconds": round(seconds, 4)}) + "\n")


def _seat_policy_names(config: RunConfig, variant: Variant | None = None) -> list[str]:
    return [p.name for p in seat_policies(config, variant)]


# --------------------------------------------------------------- seat rotation (balance simulate --rotate-seats)
ROTATION_KEY = "seat_rotation"  # in a variant's `varied`: how many seats the policies moved


def rotation_of(variant: Variant | None) -> int:
    return int((variant.varied or {}).get(ROTATION_KEY, 0)) if variant is not None else 0


def seat_policies(config: RunConfig, variant: Variant | None = None) -> list[SeatPolicy]:
    """The policy at each seat: as listed, or, in a seat-rotated variant r, the
    policy listed for seat j sits at seat (j + r) mod players."""
    pols = list(config.policies)
    if len(pols) != config.players:
        pols = pols * config.players if len(pols) == 1 else pols
    r = rotation_of(variant)
    if not r or len(pols) != config.players:
        return pols
    k = config.players
    return [pols[(s - r) % k] for s in range(k)]


def rotated_variants(variant: Variant, players: int) -> list[Variant]:
    """One configuration played seat-rotated: the same rules, every deal once per
    rotation of the policies round the table (variant names seats+0, seats+1, ...).
    The game engines are untouched: game i of every rotation is dealt from the
    same streams, only the seat each policy sits at changes, so each policy
    plays every seat on the same deal (analysis.summary tests the seats on the
    per-deal totals)."""
    return [Variant(f"seats+{r}", variant.params, {**variant.varied, ROTATION_KEY: r}) for r in range(players)]


class Prepared:
    """Per variant: tables, engine, card names — compiled once per process."""

    def __init__(self, spec: GameSpec, config: RunConfig):
        self.spec = spec
        self.config = config
        self.engine = Engine(spec, config.policies)
        self.tables = [spec.compile_tables(v.params) for v in config.variants]
        self.card_names = [spec.card_names(v.params) for v in config.variants]
        self.policy_names = _seat_policy_names(config)
        self.engines = {}
        for v in config.variants:  # seat-rotated variants: the policies seated in their rotation
            r = rotation_of(v)
            if r and r not in self.engines:
                self.engines[r] = Engine(spec, seat_policies(config, v))

    def run_task(self, variant: int, first: int, count: int) -> Results:
        engine = self.engines.get(rotation_of(self.config.variants[variant]), self.engine)
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
        won = seat_out[:, :, 0] > 0.5
        self.games[v] += won.shape[0]
        self.any_won[v] += int(won.any(axis=1).sum())
        self.seat_won[v] += won.sum(axis=0)

    def load(self, run_dir: Path, config: RunConfig) -> None:
        files = sorted((Path(run_dir) / PARTS).glob("seats-*.parquet"))
        if not files:
            return
        names = {v.name: i for i, v in enumerate(config.variants)}
        for f in files:  # one part at a time (a part holds whole games): memory flat in the number of games
            seats = pl.read_parquet(f, columns=["variant", "game_index", "seat", "won"])
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
            precision: float | None = None, executor=None) -> dict:
    """Play every missing (variant, range) of the run and write its parts.

    Ranges are taken chunk by chunk across variants. With `precision`, a
    variant stops taking chunks once the widest 95% interval of its headline
    rates (win rate, each seat's win rate) is below it; the run stops when all
    have, or at n_games. on_chunk(done_games, total_games) reports progress;
    a chunk counts when played, and its parts are written while the next
    one plays (analysis.part_writer): all are on disk when this returns.
    `executor` (analysis.executors) plays the chunks: here by default, or on
    a Dask cluster. Returns what was played now and, with precision, what
    stopped it.
    """
    from .executors import LocalExecutor
    from .part_writer import PartWriter

    run_dir = Path(run_dir)
    todo = sorted(missing_tasks(run_dir, config, n_games), key=lambda t: (t[1], t[0], t[2]))
    if executor is None:
        prep = prepared or Prepared(spec, config)
        executor = LocalExecutor(prep)
    names = [_seat_policy_names(config, var) for var in config.variants]
    card_names = [spec.card_names(v.params) for v in config.variants] if prepared is None else prepared.card_names
    total = n_games * len(config.variants)
    done = total - sum(t[3] for t in todo)
    tally = None
    if precision is not None:
        tally = Tally(len(config.variants), config.players)
        tally.load(run_dir, config)

    rotated = any(rotation_of(var) for var in config.variants)
    decided: dict[tuple[int, int], bool] = {}

    def precise(v: int) -> bool:
        return tally.games[v] > 0 and tally.widest(v) < precision

    def skip(task) -> bool:
        if tally is None:
            return False
        if not rotated:
            return precise(task[0])
        # seat-rotated: the rotations of a deal are one outcome, so they stop together, range by range
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
            writer.submit(partial(write_chunk, run_dir, spec, task, res, dt, config.variants[v].name, names[v], card_names[v]))
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
    """Games and seconds over all chunks ever played for this folder."""
    path = Path(run_dir) / CHUNK_LOG
    games = secs = 0.0
    if path.exists():
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            games += rec["games"]
            secs += rec["seconds"]
    return {"games": int(games), "seconds": secs, "games_per_second": games / secs if secs else None}


def new_run_dir(root: Path, game: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = Path(root) / f"{game}-{stamp}"
    path, k = base, 1
    while path.exists():
        k += 1
        path = Path(f"{base}-{k}")
    return path


def make_config(spec: GameSpec, user: dict, players: int, policies: list[SeatPolicy], seed: int,
                n_games: int, chunk_size: int | None = None, mode: str | None = None,
                rotate_seats: bool = False) -> RunConfig:
    params = resolve(spec, user)
    variants = [Variant("base", params)]
    if rotate_seats:
        check_rotation(spec, players, policies)
        variants = rotated_variants(variants[0], players)
    return RunConfig(spec.name, mode or spec.modes[0], players, policies, seed,
                     variants, chunk_size or default_chunk_size(n_games))


def check_rotation(spec: GameSpec, players: int, policies: list[SeatPolicy]) -> None:
    """--rotate-seats needs seats that differ: with one policy at every seat a
    rotated replay is the very same game (the engine's streams are per game)."""
    if spec.cooperative or players < 2:
        raise BalanceError(f"--rotate-seats: {spec.name} with {players} player(s) has no seats to compare; "
                           "allowed: a competitive game with 2 or more players")
    if len({json.dumps(p.describe(), sort_keys=True, default=str) for p in policies}) < 2:
        name = policies[0].name if policies else "greedy"
        raise BalanceError(f"--rotate-seats: every seat plays {name}, so a rotated replay is the same game; "
                           "allowed: different policies per seat (e.g. --policy greedy,random), or leave it out "
                           "(the seat test already takes each game as one outcome)")
