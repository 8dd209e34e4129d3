"""A run folder's own copy of every card list it played (`cards/<first 16
hex of its sha256>.toml`, the bytes that were played), so that replay and
anything else that plays a run's cards again never depends on a file outside
the folder: `keep_card_lists` writes them (open_run, resume), `held_list`
finds the one a manifest's variant played. Split from analysis.runs, which
reads them back (config_from_manifest, played_data).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from balance.simcore.batch import BalanceError
from balance.simcore.spec import GameSpec

from . import folder_entries, store

CARD_LISTS = folder_entries.CARDS  # card lists the folder holds: its copy of each list it played, an impact folder's variants


def recorded_sha(variant: dict) -> str | None:
    """The sha256 (64 hex) of the card list a manifest's variant played, or its
    16-hex card_list_hash in a folder older than the card_list record; None
    when the variant plays no card list."""
    cl = variant.get("card_list") if isinstance(variant, dict) else None
    if isinstance(cl, dict) and isinstance(cl.get("sha256"), str) and len(cl["sha256"]) == 64:
        return cl["sha256"]
    h = variant.get("card_list_hash") if isinstance(variant, dict) else None
    return h if isinstance(h, str) and h and h != "none" else None


def _card_copies(cfg: dict) -> dict[str, str]:
    """sha256 -> the file in the folder holding that card list (manifest's config.card_files)."""
    out = {}
    for e in cfg.get("card_files") or []:
        if (isinstance(e, dict) and isinstance(e.get("sha256"), str) and isinstance(e.get("file"), str)
                and e["file"].startswith(CARD_LISTS + "/") and "/" not in e["file"][len(CARD_LISTS) + 1:]):
            out[e["sha256"]] = e["file"]
    return out


def keep_card_lists(run_dir: Path, spec: GameSpec, config, recorded: list,
                    notice: store.Notice | None = None) -> tuple[list[dict], list[str]]:
    """The folder's own copy of every card list its variants (`config`, an
    analysis.runs.RunConfig) play, so that
    replay (and anything else that plays a run's cards again) never depends on
    a file outside it: `cards/<first 16 hex of its sha256>.toml`, the bytes that
    were played. A list the folder already holds (an impact variant's) is
    recorded where it is. Returns the manifest's `config.card_files` (one
    {file, sha256, from} per list) and the files this call wrote."""
    from balance.simcore.files import read_bytes

    run_dir = Path(run_dir)
    root = run_dir.resolve()
    valid = _card_copies({"card_files": recorded})
    have = {e["sha256"]: e for e in recorded if isinstance(e, dict) and e.get("sha256") in valid}
    written: list[str] = []
    for v in config.variants:
        if "cards" not in v.params:  # a game without a cards parameter: its list cannot be replaced by a copy
            continue
        cards = spec.load_data(v.params).cards
        if cards is None:
            continue
        sha = cards.sha256
        try:
            rel = Path(cards.path).resolve().relative_to(root).as_posix()  # in the folder already
        except ValueError:
            rel = None
        if rel is not None and rel.startswith(CARD_LISTS + "/") and "/" not in rel[len(CARD_LISTS) + 1:]:
            have.setdefault(sha, {"file": rel, "sha256": sha, "from": rel})
            continue
        # a CSV list's copy stays a .csv: the loader reads a card list by its extension (simcore.cardcsv)
        ext = ".csv" if Path(cards.path).suffix.lower() == ".csv" else ".toml"
        name = have[sha]["file"] if sha in have else f"{CARD_LISTS}/{sha[:16]}{ext}"
        try:
            _, digest = folder_entries.sha256_entry(run_dir, name, folder_entries.MAX_CARD_BYTES)
        except FileNotFoundError:
            digest = None
        if digest == sha:
            have.setdefault(sha, {"file": name, "sha256": sha, "from": cards.file})
            continue
        if digest is not None and notice:
            notice(f"repaired: {name}: damaged (its sha256 differs from manifest.json's); written again from {cards.file}")
        data = read_bytes(Path(cards.path), "--set cards: ", "a card file in its game's format")
        if hashlib.sha256(data).hexdigest() != sha:
            raise BalanceError(f"--set cards: {cards.file} changed while the run was starting (its sha256 is no "
                               f"longer {sha[:12]}...); run the command again")
        try:
            folder_entries.replace_entry(run_dir, name, data, create=True)
        except OSError as exc:
            raise BalanceError(f"--out: cannot write {run_dir / name} ({exc.strerror or exc}); allowed: a folder you "
                               "can write to, on a disk with free space") from None
        written.append(name)
        have[sha] = {"file": name, "sha256": sha, "from": cards.file}
    return sorted(have.values(), key=lambda e: e["file"]), written


def held_list(cfg: dict, variant: dict) -> str | None:
    """The file in the folder holding the card list a variant played: its copy
    (config.card_files), or an impact variant's own `cards/...` file; None when
    the folder holds none (a folder written before it kept copies)."""
    want = recorded_sha(variant)
    if want:
        held = next((f for sha, f in _card_copies(cfg).items() if sha.startswith(want)), None)
        if held is not None:
            return held
    own = (variant.get("varied") or {}).get("file")
    if isinstance(own, str) and own.startswith(CARD_LISTS + "/") and "/" not in own[len(CARD_LISTS) + 1:]:
        return own
    return None


def card_list_record(spec: GameSpec, params: dict) -> dict | None:
    """Which card list a variant plays (file, sha256, shipped, reconstruction), for
    the report's banner and provenance; None for a game without one."""
    cards = spec.load_data(params).cards
    if cards is None:
        return None
    return {"file": cards.file, "sha256": cards.sha256, "shipped": cards.shipped,
            "reconstruction": cards.reconstruction}
