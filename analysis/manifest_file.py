"""manifest.json of a run folder: written atomically with a checksum of its
own (so an edited manifest is recognised), read back checked (a JSON object,
its checksum, the keys a command needs), and the hash of the configuration it
holds that every commit record carries (`config_hash`). docs/run-folder.md,
"manifest.json". Split from analysis.store.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from balance.simcore.errors import BalanceError

from . import folder_entries
from .folder_entries import MANIFEST, EntryRefused, check_entries, read_entry, replace_file

LAYOUT = 2  # manifest["layout"]: parts in table folders, committed by records


def canonical(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def config_hash(manifest: dict) -> str | None:
    """The hash of the configuration a folder holds (its manifest's identity),
    written into every record so that a record can be matched to its manifest."""
    ident = (manifest.get("config") or {}).get("identity") if isinstance(manifest, dict) else None
    return hashlib.sha256(canonical(ident)).hexdigest()[:16] if ident is not None else None


def manifest_checksum(manifest: dict) -> str:
    return hashlib.sha256(canonical({k: v for k, v in manifest.items() if k != "checksum"})).hexdigest()[:16]


def write_manifest(run_dir: Path, manifest: dict) -> dict:
    """Write manifest.json atomically with its checksum (every writer of a
    manifest goes through here: an edited manifest is then recognised)."""
    manifest = {k: v for k, v in manifest.items() if k != "checksum"}
    manifest["checksum"] = manifest_checksum(manifest)
    replace_file(Path(run_dir), MANIFEST, json.dumps(manifest, indent=2),
                  "allowed: a folder you can write to, on a disk with free space")
    return manifest


_HOW = ("restore manifest.json from a copy of the folder, or run the command again into a new --out folder")


def _shape_problem(m: dict) -> str | None:
    """What is missing or malformed in a parsed manifest (None when it is sound)."""
    cfg = m.get("config")
    if not isinstance(cfg, dict):
        return "no 'config' object"
    for key, kind in (("game", str), ("mode", str), ("players", int), ("seed", int), ("chunk_size", int),
                      ("policies", list), ("variants", list)):
        if key not in cfg:
            return f"missing key config.{key}"
        if not isinstance(cfg[key], kind) or isinstance(cfg[key], bool):
            return f"config.{key} is not a {'whole number' if kind is int else kind.__name__}"
    if not 0 <= cfg["seed"] < 2**64:
        return "config.seed is not in 0..2**64-1"
    if cfg["players"] < 1 or cfg["chunk_size"] < 1:
        return "config.players or config.chunk_size is below 1"
    if not cfg["variants"]:
        return "config.variants is empty"
    for i, v in enumerate(cfg["variants"]):
        if not (isinstance(v, dict) and isinstance(v.get("name"), str) and isinstance(v.get("params"), dict)):
            return f"config.variants[{i}] is not an object with a name and params"
    for i, p in enumerate(cfg["policies"]):
        if not (isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("kind"), int)
                and isinstance(p.get("params"), list)
                and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in p["params"])):
            return f"config.policies[{i}] is not an object with a name, kind and params"
    if "n_games" not in m:
        return "missing key n_games"
    if not isinstance(m["n_games"], int) or isinstance(m["n_games"], bool) or m["n_games"] < 0:
        return "n_games is not a whole number"
    ident = cfg.get("identity")
    if ident is not None and (not isinstance(ident, dict) or ident.get("game") != cfg["game"]):
        return "config.identity does not match config.game (the manifest was edited)"
    return None


def read_manifest(run_dir: Path, role: str = "", required: bool = True) -> dict:
    """manifest.json, checked: a JSON object, its checksum (when it has one)
    and, when `required`, the keys a command needs. A BalanceError naming the
    file and what is wrong otherwise; {} when absent and not required."""
    path = Path(run_dir) / MANIFEST
    where = f"{role}: " if role else ""
    check_entries(Path(run_dir), role)  # every command reads the manifest first: no link, no pipe, nothing too large
    try:
        data = read_entry(Path(run_dir), MANIFEST, role, folder_entries.MAX_MANIFEST_BYTES, _HOW)
    except EntryRefused as exc:
        if exc.what.startswith("a folder"):
            raise BalanceError(f"{where}{path}: damaged (a folder, not a file); {_HOW}") from None
        raise
    except FileNotFoundError:
        if not required:
            return {}
        raise BalanceError(f"{where}{run_dir}: not a run folder (no {MANIFEST}); allowed: a folder written by "
                           "balance simulate, sweep or compare") from None
    except IsADirectoryError:
        raise BalanceError(f"{where}{path}: damaged (a folder, not a file); {_HOW}") from None
    except OSError as exc:
        raise BalanceError(f"{where}{path}: cannot read it ({exc.strerror or exc})") from None
    if len(data) > folder_entries.MAX_MANIFEST_BYTES:
        raise BalanceError(f"{where}{path}: damaged (larger than {folder_entries.MAX_MANIFEST_BYTES // 2**20} MB); {_HOW}")
    if not data.strip():
        raise BalanceError(f"{where}{path}: damaged (empty); {_HOW}")
    try:
        m = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BalanceError(f"{where}{path}: damaged (not valid JSON: {str(exc).splitlines()[0][:80]}); {_HOW}") from None
    except RecursionError:
        raise BalanceError(f"{where}{path}: damaged (nested too deeply); {_HOW}") from None
    if not isinstance(m, dict):
        raise BalanceError(f"{where}{path}: damaged (a JSON {type(m).__name__}, not an object); {_HOW}")
    if "checksum" in m and m["checksum"] != manifest_checksum(m):
        raise BalanceError(f"{where}{path}: edited or damaged (its checksum does not match its content); {_HOW}")
    if required:
        why = _shape_problem(m)
        if why:
            raise BalanceError(f"{where}{path}: damaged ({why}); {_HOW}")
    return m
