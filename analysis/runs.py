"""Run folders: the manifest, chunked execution, resume.

A run is a list of variants (one for `simulate`, one per grid point for a
sweep) that all play the same game indices 0..n-1 of the same seed, so
variants are paired on the same deals. Each (variant, chunk) is one task and
one set of Parquet parts, committed by one record in chunks.jsonl once all
its parts are in place (analysis.store): an interrupted run resumes where it
stopped, never recomputes a committed chunk and never counts an uncommitted
one. One process writes a folder at a time (a lock), and a resumed folder has
every part checked against its record first; a damaged chunk is played again.

Here: a run's configuration and identity, opening (creating or resuming) and
closing its folder, reading its manifest back, the missing game ranges, and
seat rotations and seatings. Playing the missing chunks (execute, Prepared,
Tally, timing) is in analysis.execution, a chunk's results as frames in
analysis.chunk_frames, and the folder's own copies of its card lists in
analysis.card_copies.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import secrets
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from balance.simcore.batch import BalanceError, SeatPolicy
from balance.simcore.jit import SOURCE_HASH
from balance.simcore.params import resolve
from balance.simcore.runner import USER
from balance.simcore.spec import GameSpec

from . import folder_entries, folder_lock, manifest_file, store
from .card_copies import CARD_LISTS, card_list_record, held_list, keep_card_lists, recorded_sha
from .folder_entries import CHUNK_LOG, MANIFEST, PARTS  # noqa: F401  (CHUNK_LOG: read by tests and tools)

MAX_SEED = 2**64 - 1  # seeds are uint64
MAX_INDEX = 2**63 - 1  # game indices are int64


DISTRIBUTION = "cardgame-balance"  # pyproject's [project] name; the import package is `balance`


def package_version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
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
            "policies": [policy_identity(p) for p in self.policies],
            "variants": [
                {"name": v.name, "params": _jsonable(v.params), "varied": _jsonable(v.varied),
                 "card_list_hash": spec.load_data(v.params).card_list_hash,
                 "card_list": card_list_record(spec, v.params),
                 "data_hash": spec.load_data(v.params).content_hash}
                for v in self.variants
            ],
        }


def policy_file(p: SeatPolicy) -> str | None:
    """The file of a user policy (`path.py:function`), None for a built-in."""
    return p.name.rpartition(":")[0] if p.kind == USER else None


def policy_identity(p: SeatPolicy) -> dict:
    """A policy as the identity records it: a user policy with its file's
    content hash, so an edited file is a new configuration."""
    out = p.describe()
    path = policy_file(p)
    if path is not None:
        from balance.simcore.files import read_bytes

        data = read_bytes(Path(path), "--policy: ", "a Python file holding your @njit policy function")
        out["file_sha256"] = hashlib.sha256(data).hexdigest()
    return out


def engine_hash(spec: GameSpec) -> str:
    """What a game's results depend on in code: the engine core (simcore/*.py)
    and the game's own package (or module, found from its kernels). Editing
    another game leaves it alone."""
    import importlib
    import sys

    from balance import simcore
    from balance.simcore import registry

    root = Path(simcore.__file__).resolve().parent
    first_kernel = spec.kernels[0]
    name = registry.GAMES.get(spec.name) or getattr(first_kernel, "py_func", first_kernel).__module__
    module = sys.modules.get(name) or importlib.import_module(name)
    if Path(module.__file__).name != "__init__.py" and "." in name:  # a game package's kernel module
        parent = sys.modules.get(name.rpartition(".")[0]) or module
        if getattr(parent, "__file__", None) is None and getattr(parent, "__path__", None):
            # a namespace package (a folder without __init__.py, e.g. tests/shedgame): all of its files
            parent = type("Folder", (), {"__file__": str(Path(list(parent.__path__)[0]) / "__init__.py")})
        module = parent
    own = Path(module.__file__).resolve()
    files = sorted(root.glob("*.py")) + (sorted(own.parent.rglob("*.py")) if own.name == "__init__.py" else [own])
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def check_seed(seed: int, option: str = "--seed") -> int:
    if not 0 <= seed <= MAX_SEED:
        raise BalanceError(f"{option}: {seed} is not allowed; allowed: a whole number in 0..{MAX_SEED} (2**64-1)")
    return seed


def check_out_path(path: Path, option: str = "--out") -> Path:
    """A folder name the file system can hold (each name at most 255 bytes)."""
    for part in Path(path).parts:
        size = len(os.fsencode(part))
        if size > 255:
            raise BalanceError(f"{option}: the name '{part[:40]}...' is {size} bytes long; "
                               "allowed: at most 255 bytes per folder name")
    if len(os.fsencode(str(path))) > 4000:
        raise BalanceError(f"{option}: the path is too long; allowed: at most 4,000 bytes")
    return Path(path)


def _by_content(ident: dict) -> dict:
    """An identity with card lists compared by content (card_list_hash, sha256), not
    by where their file is: a copied or moved folder (an impact folder holds its
    edited lists) and a card file moved elsewhere resume as the same run."""
    out = dict(ident)
    variants = []
    for v in ident.get("variants") or []:
        if not isinstance(v, dict):
            variants.append(v)
            continue
        v = dict(v)
        if isinstance(v.get("params"), dict):
            v["params"] = {k: x for k, x in v["params"].items() if k != "cards"}
        if isinstance(v.get("card_list"), dict):  # the list by its content in canonical order (card_list_hash,
            # beside): the file's bytes and path may differ, as a reordered file plays the same games
            v["card_list"] = {k: x for k, x in v["card_list"].items() if k not in ("file", "sha256")}
        variants.append(v)
    out["variants"] = variants
    return out


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


# What a run folder takes on disk, measured (issue 40 item 10: the old estimate, 4 bytes a value, was 2-13x too
# high on the runs measured here, 40x on the issue's). Parquet parts of 1,000-50,000 games of every game: a
# stored value of the games and seats parts takes 0.33-0.66 bytes compressed (You're Fired!'s fewest, Overtime's
# games part the most; 0.45 here puts every game's folder within 0.9-1.5x), and each part carries a footer of
# about 450 bytes per column (schema, statistics), which dominates small chunks.
VALUE_BYTES = 0.45  # a value of a games or seats part, compressed
PART_COLUMN_BYTES = 450  # a part's footer, per column
CARD_ROW_BYTES = 16  # a row (card, counter) of a cards part, compressed
GAMES_EXTRA_COLUMNS = 2  # variant, game_index (beside the spec's game columns)
SEATS_EXTRA_COLUMNS = 4  # variant, game_index, seat, policy (beside the spec's seat columns)
CARDS_COLUMNS = 14  # docs/run-folder.md's cards part
RECORD_BYTES = 700  # a chunk's commit record in chunks.jsonl
SUMMARY_CARD_ROW_BYTES = 900  # summary.json's cards table, per card and counter of each variant (indented JSON)
VARIANT_BYTES = 50_000  # summary.json's other figures, the report's and the manifest's lines, per variant
FOLDER_BYTES = 200_000  # report.html's charts and styles, manifest.json: once per folder
SPARE_BYTES = 50 * 2**20


def estimated_bytes(spec: GameSpec, config: RunConfig, n_games: int) -> int:
    """About what a run of n_games (per variant) writes into its folder: the Parquet parts (rows and each
    part's footer), the commit records, summary.json, report.html and manifest.json. Within 2x of what a run
    writes for every game (tests/cli/test_disk_estimate.py), rather than an upper bound: check_writable adds
    SPARE_BYTES."""
    if n_games <= 0:
        return 0
    game_cols = GAMES_EXTRA_COLUMNS + len(spec.game_column_names)
    seat_cols = SEATS_EXTRA_COLUMNS + len(spec.seat_column_names) + len(spec.action_kinds)  # + action_<kind>
    per_game = VALUE_BYTES * (game_cols + config.players * seat_cols)
    total = FOLDER_BYTES
    for v in config.variants:
        games = variant_games(v, n_games)
        parts = math.ceil(games / max(1, config.chunk_size))
        card_rows = len(spec.load_data(v.params).card_names) * len(spec.card_counters)
        per_part = (PART_COLUMN_BYTES * (game_cols + seat_cols + CARDS_COLUMNS) + CARD_ROW_BYTES * card_rows
                    + RECORD_BYTES)
        total += games * per_game + parts * per_part + VARIANT_BYTES + SUMMARY_CARD_ROW_BYTES * card_rows
    return int(total)


def check_writable(run_dir: Path, need: int) -> None:
    """Before any game is played: the folder can be created and written, and
    the disk has room for the results (a clear error, not a failure mid-run)."""
    import shutil

    try:
        (run_dir / PARTS).mkdir(parents=True, exist_ok=True)
        probe = run_dir / PARTS / f".write-probe-{os.getpid()}-{secrets.token_hex(4)}"  # one per caller
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


def open_run(run_dir: Path, spec: GameSpec, config: RunConfig, n_games: int, command: str, kind: str = "run",
             notice: store.Notice | None = None) -> dict:
    """Take the folder's lock, then create the folder and manifest, or check
    that it holds the same configuration (and engine), verify every committed
    part and drop what does not match its record (its games are played
    again). The lock is held until `close_run` (or the process ends)."""
    run_dir = check_out_path(Path(run_dir))
    if run_dir.exists() and not run_dir.is_dir():
        raise BalanceError(f"--out: {run_dir} is a file, not a folder; allowed: a new or existing run folder")
    ident = config.identity(spec)
    try:
        run_dir.mkdir(parents=True)  # atomic: of two processes starting together, one creates it
        created = True
    except FileExistsError:
        created = False
    except OSError as exc:
        raise BalanceError(f"--out: cannot write the run folder {run_dir} ({exc.strerror or exc}); "
                           "allowed: a folder you can write to, on a disk with free space") from None
    locked = False
    written: list[str] = []
    try:
        folder_entries.check_entries(run_dir, "--out", tables=True)  # no link is followed, for a write or a delete
        folder_lock.hold(run_dir, "--out", command)  # before anything else is written
        locked = True
        if (run_dir / MANIFEST).exists():
            return _resume(run_dir, spec, config, ident, n_games, notice)
        others = sorted(p.name for p in run_dir.iterdir() if p.name not in (folder_entries.LOCK, PARTS, CARD_LISTS))
        if others or any(p.name != folder_entries.STAGING for p in (run_dir / PARTS).glob("*")):
            raise BalanceError(f"--out: {run_dir} holds files ({', '.join(others[:3]) or PARTS}) but no {MANIFEST}, "
                               "so it is not a run folder; allowed: a new or empty folder, or a run folder to resume")
        check_writable(run_dir, estimated_bytes(spec, config, n_games))
        card_files, written = keep_card_lists(run_dir, spec, config, [])
        manifest = {
            "kind": kind,
            "layout": manifest_file.LAYOUT,
            "config": {
                "identity": ident,
                "game": config.game,
                "title": spec.title,
                "mode": config.mode,
                "players": config.players,
                "params": _jsonable(config.variants[0].params) if len(config.variants) == 1 else None,
                "card_list_hash": spec.load_data(config.variants[0].params).card_list_hash,
                "card_list": card_list_record(spec, config.variants[0].params),
                "policies": [policy_identity(p) for p in config.policies],
                "seed": config.seed,
                "chunk_size": config.chunk_size,
                "rule_version": spec.version,
                "engine_hash": engine_hash(spec),
                "source_hash": SOURCE_HASH,
                "variants": ident["variants"],
                "card_files": card_files,
            },
            "n_games": n_games,
            "package_version": package_version(),
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "command": command,
        }
        return manifest_file.write_manifest(run_dir, _jsonable(manifest))
    except BaseException:
        if locked and created:  # ours alone and no manifest written: leave no folder behind
            import shutil

            shutil.rmtree(run_dir, ignore_errors=True)
        elif locked and not (run_dir / MANIFEST).exists():  # an impact folder's card lists stay theirs to discard
            for rel in written:
                _unlink_quietly(run_dir, rel)
        if locked:
            folder_lock.release(run_dir)
        raise


def _resume(run_dir: Path, spec: GameSpec, config: RunConfig, ident: dict, n_games: int,
            notice: store.Notice | None) -> dict:
    manifest = load_manifest(run_dir, "--out")
    old = manifest["config"].get("identity")
    if old is None:
        raise BalanceError(f"--out: {run_dir / MANIFEST}: damaged (missing key config.identity); "
                           "use another --out folder")
    diffs = _diff(_by_content(old), _by_content(_jsonable(ident)))
    if diffs:
        shown = "; ".join(diffs[:3]) + ("; ..." if len(diffs) > 3 else "")
        raise BalanceError(
            f"--out: {run_dir} holds a different configuration ({shown}); use another --out folder to run this one"
        )
    stored, now = manifest["config"].get("engine_hash"), engine_hash(spec)
    if stored not in (now, SOURCE_HASH):  # SOURCE_HASH: folders written before engine_hash was per game
        raise BalanceError(
            f"--out: {run_dir} was played by another build of the {config.game} engine (engine_hash {stored}, "
            f"this build {now}); its games could differ from this build's, so it is a new configuration: "
            "use another --out folder")
    check_writable(run_dir, estimated_bytes(spec, config, max(0, n_games - manifest["n_games"])))
    store.prepare(run_dir, manifest, config.players, notice)
    # a folder written before it kept its card lists gets its copies now (the command's lists have the
    # folder's content, checked above), and a damaged copy is written again
    had = manifest["config"].get("card_files")
    card_files, _ = keep_card_lists(run_dir, spec, config, had if isinstance(had, list) else [], notice)
    changed = {"n_games": max(n_games, manifest["n_games"]), "layout": manifest_file.LAYOUT}
    manifest["config"]["engine_hash"] = now
    copies_changed = card_files != had and (had is not None or card_files)
    if any(manifest.get(k) != v for k, v in changed.items()) or stored != now or copies_changed:
        manifest["config"]["card_files"] = card_files
        manifest = manifest_file.write_manifest(run_dir, {**manifest, **changed})
    return manifest


def _unlink_quietly(run_dir: Path, rel: str) -> None:
    try:
        folder_entries._remove_at(Path(run_dir), tuple(rel.split("/")[:-1]), rel.split("/")[-1], False)
    except (OSError, BalanceError):
        pass


def _write_json(path: Path, obj) -> None:
    """A result file of a run folder, replaced atomically, never through a link."""
    try:
        folder_entries.replace_entry(path.parent, path.name, json.dumps(obj, indent=2, sort_keys=False).encode("utf-8"))
    except OSError as exc:
        raise BalanceError(f"--out: cannot write {path} ({exc.strerror or exc}); "
                           "free some space and run the same command again") from None


def close_run(run_dir: Path) -> None:
    """Let go of the folder's lock (taken by open_run)."""
    folder_lock.release(Path(run_dir))


@contextmanager
def locked(run_dir: Path, role: str, command: str = ""):
    """The folder's lock for a command that writes into a run folder without
    playing (`balance report`): refused while another process writes it."""
    held = folder_lock.holds(run_dir)
    if not held:
        folder_entries.check_entries(Path(run_dir), role, tables=True)  # it writes: no link is followed
    folder_lock.hold(run_dir, role, command)
    try:
        yield
    finally:
        if not held:
            folder_lock.release(run_dir)


def load_manifest(run_dir: Path, role: str = "") -> dict:
    """The folder's manifest, checked (analysis.manifest_file.read_manifest)."""
    return manifest_file.read_manifest(Path(run_dir), role)


def spec_of(manifest: dict, run_dir: Path):
    """The game a manifest names, or a BalanceError naming the manifest."""
    from balance.simcore import registry

    game = manifest["config"]["game"]
    if game not in registry.GAMES:
        raise BalanceError(f"{Path(run_dir) / MANIFEST}: game '{game}' is not a game of this build; "
                           f"allowed: {', '.join(registry.names())} (the folder was edited, or made by another build)")
    return registry.get(game)


def check_parts(run_dir: Path, manifest: dict, role: str = "") -> None:
    """Every committed part of a folder against its record, or a BalanceError
    naming the first missing or damaged one and how to repair it."""
    store.check_folder(Path(run_dir), manifest, manifest.get("config", {}).get("players"), role)


def replay_policies(run_dir: Path, manifest: dict, config: "RunConfig", given: list[str] | None) -> list[SeatPolicy]:
    """The seats' policies to replay a game of a run folder. Nothing named in a
    folder is ever executed: a user policy file is loaded only when the user
    names it with --policy, and it must be the file the run used (same content)."""
    users = [p for p in config.policies if p.kind == USER]
    names = [x.strip() for item in (given or []) for x in ([item] if ".py:" in item else item.split(",")) if x.strip()]
    if not users:
        if names:
            raise BalanceError(f"--policy: with --run the policies are the run's ({', '.join(p.name for p in config.policies)}); "
                               "--policy names only a policy file the run used")
        return config.policies
    recorded = {p["name"]: p.get("file_sha256")
                for p in (manifest["config"].get("identity") or {}).get("policies") or [] if isinstance(p, dict)}
    ref = users[0].name
    if len(names) != 1 or ".py:" not in names[0]:
        raise BalanceError(f"--run: {run_dir} was played with the policy file {ref}; replay never runs a file a run "
                           f"folder names: give it yourself with --policy path/to/file.py:{ref.rpartition(':')[2]}")
    mine = names[0]
    if mine.rpartition(":")[2] != ref.rpartition(":")[2]:
        raise BalanceError(f"--policy: {mine} is not the function the run used ({ref}); allowed: "
                           f"path/to/file.py:{ref.rpartition(':')[2]}")
    from balance.simcore.files import read_bytes

    data = read_bytes(Path(mine.rpartition(":")[0]), "--policy: ", "the policy file the run used")
    want = recorded.get(ref)
    if want is None:
        raise BalanceError(f"--run: {run_dir} does not record the content of its policy file {ref}, so the file you name "
                           "cannot be checked against it; replay with --game and --policy instead")
    if hashlib.sha256(data).hexdigest() != want:
        raise BalanceError(f"--policy: {mine.rpartition(':')[0]} is not the file the run used (its sha256 differs from "
                           f"the one in manifest.json, {want[:12]}...); allowed: the policy file the run played")
    from dataclasses import replace

    return [replace(p, name=mine) if p.kind == USER else p for p in config.policies]


def config_from_manifest(manifest: dict, run_dir: Path | None = None) -> RunConfig:
    """The run's configuration; with `run_dir`, each variant plays the card list
    the folder holds (its copy, or an impact variant's `cards/...` file) from
    this folder, wherever it was played. `played_data` checks it."""
    cfg = manifest["config"]
    pols = [SeatPolicy(p["name"], p["kind"], tuple(p["params"])) for p in cfg["policies"]]
    variants = []
    for v in cfg["variants"]:
        params = dict(v["params"])
        held = held_list(cfg, v) if run_dir is not None and "cards" in params else None
        if held is not None:
            params["cards"] = str(Path(run_dir) / held)
        variants.append(Variant(v["name"], params, v.get("varied", {})))
    return RunConfig(cfg["game"], cfg["mode"], cfg["players"], pols, cfg["seed"], variants, cfg["chunk_size"],
                     cfg.get("check", False))


def played_data(spec: GameSpec, run_dir: Path, manifest: dict, config: RunConfig, index: int, role: str = "FOLDER"):
    """The GameData variant `index` of a run folder played (config from
    `config_from_manifest(manifest, run_dir)`): its card list read from the
    folder's copy, or, in a folder written before it kept one, from the file
    the manifest names; refused, naming the file, when that is not the list the
    run played (its sha256 differs from manifest.json's)."""
    run_dir = Path(run_dir)
    cfg = manifest["config"]
    v = cfg["variants"][index]
    want = recorded_sha(v)
    params = config.variants[index].params
    held = held_list(cfg, v) if "cards" in params else None
    if held is not None and want:
        try:
            _, got = folder_entries.sha256_entry(run_dir, held, folder_entries.MAX_CARD_BYTES, role)
        except FileNotFoundError:
            raise BalanceError(f"{role}: {run_dir / held}: missing (the card list the run played); restore the "
                               "folder from a copy, or run the command that made it again into a new --out folder") from None
        except OSError as exc:
            raise BalanceError(f"{role}: {run_dir / held}: cannot be read ({exc.strerror or exc})") from None
        if not got.startswith(want):
            raise BalanceError(f"{role}: {run_dir / held}: damaged or edited (its sha256 {got[:12]}... is not manifest.json's "
                               f"{want[:12]}...: not the card list the run played); restore the folder from a copy, or run "
                               "the command that made it again into a new --out folder")
    try:
        data = spec.load_data(params)
    except BalanceError as exc:
        raise BalanceError(f"{role}: cannot read the card list {run_dir} played ({exc})") from None
    got = data.cards.sha256 if data.cards is not None else None
    if want and got and not got.startswith(want):
        shown = data.cards.file
        if held is not None:
            raise BalanceError(f"{role}: {run_dir / held}: changed while it was read (its sha256 is not manifest.json's "
                               f"{want[:12]}...); run the command again")
        again = (f"or replay it as it is now with --game {cfg['game']} --set cards={shown} and the run's other settings"
                 if params.get("cards") else "or replay with --game and the run's settings to play the list as it is now")
        raise BalanceError(f"{role}: {shown}: not the card list {run_dir} played (its sha256 is {got[:12]}..., manifest.json "
                           f"records {want[:12]}...: edited since the run, and this folder, written before run folders kept "
                           f"their own copy, holds none); put back the file the run played, {again}")
    return data


def chunks(n_games: int, chunk_size: int) -> list[tuple[int, int, int]]:
    return [(c, first, min(chunk_size, n_games - first)) for c, first in enumerate(range(0, n_games, chunk_size))]


def covered(run_dir: Path) -> dict[int, list[tuple[int, int]]]:
    """Committed game ranges per variant (analysis.store: records only)."""
    return store.committed(Path(run_dir), manifest_file.read_manifest(Path(run_dir), required=False)).covered()


def missing_tasks(run_dir: Path, config: RunConfig, n_games: int) -> list[tuple[int, int, int, int]]:
    """(variant, chunk, first, count) of game ranges not yet on disk.

    Chunks are aligned to chunk_size; a chunk finished by an earlier, smaller
    request is only topped up with the games it lacks, never replayed."""
    done = covered(run_dir)
    out = []
    for v in range(len(config.variants)):
        have = sorted(done.get(v, []))
        for c, first, count in chunks(variant_games(config.variants[v], n_games), config.chunk_size):
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

# --------------------------------------------------------------- seat rotation (balance simulate --rotate-seats)
ROTATION_KEY = "seat_rotation"  # in a variant's `varied`: how many seats the policies moved


def rotation_of(variant: Variant | None) -> int:
    return int((variant.varied or {}).get(ROTATION_KEY, 0)) if variant is not None else 0


# ------------------------------------------- a seating of its own per variant (balance ladder)
SEATING_KEY = "seating"  # in a variant's `varied`: for each seat, the index of its policy in config.policies
SHARE_KEY = "share"  # in a variant's `varied`: it plays ceil(share * n_games) of the run's games (0 < share <= 1)


def seating_of(variant: Variant | None) -> tuple[int, ...]:
    return tuple(int(i) for i in ((variant.varied or {}).get(SEATING_KEY) or ())) if variant is not None else ()


def variant_games(variant: Variant | None, n_games: int) -> int:
    """The games a variant plays of a run of n_games: all, or its share (game
    indices 0..m-1, the first m deals of every other variant: still paired)."""
    share = float((variant.varied or {}).get(SHARE_KEY, 1.0)) if variant is not None else 1.0
    if share >= 1.0:
        return n_games
    return max(1, min(n_games, math.ceil(share * n_games - 1e-9)))


def _engine_key(variant: Variant | None):
    return seating_of(variant) or rotation_of(variant)


def seat_policies(config: RunConfig, variant: Variant | None = None) -> list[SeatPolicy]:
    """The policy at each seat: as listed, or, in a seat-rotated variant r, the
    policy listed for seat j sits at seat (j + r) mod players; a variant with a
    seating of its own (`SEATING_KEY`) seats config.policies[i] for each i it lists."""
    seating = seating_of(variant)
    if seating:
        return [config.policies[i] for i in seating]
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
