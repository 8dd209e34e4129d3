"""Rules and levels of Sick Days solo/co-op: load, validate, resolve, compile.

Python side only. Errors raise `BalanceError` naming the file, the row and the
field, and the allowed values.
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import numpy as np

from simcore.errors import BalanceError
from simcore.spec import DATA_DIR

from . import kernels as K

GAME_DIR = DATA_DIR / "sickdays-solo"
RULES_FILE = "rules.toml"
LEVELS_FILE = "levels.toml"
N_LEVELS = 11


def _read(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError as exc:
        raise BalanceError(f"{path}: file not found") from exc
    except tomllib.TOMLDecodeError as exc:
        raise BalanceError(f"{path}: not valid TOML ({exc})") from exc


def _int(path, where, row, field, lo, hi):
    v = row.get(field)
    if isinstance(v, bool) or not isinstance(v, int) or not (lo <= v <= hi):
        raise BalanceError(f"{path}: {where}: field '{field}' = {v!r}; allowed: an integer in {lo}..{hi}")
    return v


def load_rules(game_dir: Path = GAME_DIR, name: str = RULES_FILE) -> dict:
    path = game_dir / name
    raw = _read(path)
    out = {
        "hand_size": _int(path, "rules", raw, "hand_size", 1, K.HAND_CAP - 1),
        "pizza_tokens": _int(path, "rules", raw, "pizza_tokens", 0, 20),
        "days": _int(path, "rules", raw, "days", 7, 7),
    }
    for field, n in (("day_names", 7), ("suits", K.NSUITS), ("events", K.NEVENTS)):
        v = raw.get(field)
        if not isinstance(v, list) or len(v) != n or not all(isinstance(x, str) and x for x in v) or len(set(v)) != n:
            raise BalanceError(f"{path}: rules: field '{field}' = {v!r}; allowed: a list of {n} distinct non-empty names")
        out[field] = list(v)
    if out["events"] != list(K.EVENT_NAMES):
        raise BalanceError(f"{path}: rules: field 'events' = {out['events']!r}; allowed: exactly {list(K.EVENT_NAMES)} "
                           "(each event's effect is an engine rule)")
    return out


def load_levels(game_dir: Path = GAME_DIR) -> list[dict]:
    path = game_dir / LEVELS_FILE
    raw = _read(path)
    rows = raw.get("level")
    if not isinstance(rows, list) or len(rows) != N_LEVELS:
        raise BalanceError(f"{path}: field 'level' must be a list of {N_LEVELS} [[level]] tables (levels 1..{N_LEVELS}); "
                           f"found {len(rows) if isinstance(rows, list) else rows!r}")
    out = []
    for i, row in enumerate(rows, start=1):
        where = f"level row {i}"
        number = _int(path, where, row, "number", 1, N_LEVELS)
        if number != i:
            raise BalanceError(f"{path}: {where}: field 'number' = {number}; allowed: {i} (levels in order 1..{N_LEVELS})")
        where = f"level {number}"
        name = row.get("name")
        if not isinstance(name, str) or not name:
            raise BalanceError(f"{path}: {where}: field 'name' = {name!r}; allowed: a non-empty string")
        automa = row.get("automa")
        if not isinstance(automa, bool):
            raise BalanceError(f"{path}: {where}: field 'automa' = {automa!r}; allowed: true, false")
        out.append({
            "number": number, "name": name,
            "suits": _int(path, where, row, "suits", 1, K.NSUITS),
            "ready_pizzas": _int(path, where, row, "ready_pizzas", 0, 6),
            "weeks_max": _int(path, where, row, "weeks_max", 0, K.MAX_ROWS),
            "removed_cards": _int(path, where, row, "removed_cards", 0, 60),
            "automa": automa,
        })
        unknown = set(row) - {"number", "name", "suits", "ready_pizzas", "weeks_max", "removed_cards", "automa"}
        if unknown:
            raise BalanceError(f"{path}: {where}: unknown field(s) {sorted(unknown)}; allowed: number, name, suits, "
                               "ready_pizzas, weeks_max, removed_cards, automa")
    return out


def resolve_params(user: dict) -> dict:
    """Fill every None parameter from the level (and the rules file)."""
    from . import SPEC

    rules = load_rules()
    levels = load_levels()
    out = {}
    for p in SPEC.params:
        out[p.name] = user.get(p.name, p.default)
    unknown = set(user) - {p.name for p in SPEC.params}
    if unknown:
        raise BalanceError(f"--set: unknown parameter(s) {sorted(unknown)} for sickdays-solo; "
                           f"allowed: {', '.join(p.name for p in SPEC.params)}")
    lv = out["level"]
    if lv is None:
        lv = 4
    if isinstance(lv, bool) or not isinstance(lv, (int, np.integer)) or not 1 <= lv <= N_LEVELS:
        raise BalanceError(f"--set level={lv!r}; allowed: an integer in 1..{N_LEVELS}")
    level = levels[int(lv) - 1]
    fill = {
        "level": int(lv), "suits": level["suits"], "ready_pizzas": level["ready_pizzas"],
        "max_weeks": level["weeks_max"], "removed_cards": level["removed_cards"], "automa": level["automa"],
        "hand_size": rules["hand_size"], "pizza_tokens": rules["pizza_tokens"],
    }
    for k, v in fill.items():
        if out.get(k) is None:
            out[k] = v
    for p in SPEC.params:
        v = out[p.name]
        if p.kind == "bool":
            if not isinstance(v, (bool, np.bool_)) and v not in (0, 1):
                raise BalanceError(f"--set {p.name}={v!r}; allowed: {p.allowed()}")
            out[p.name] = bool(v)
        else:
            if isinstance(v, float) and v.is_integer():
                v = int(v)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not (p.low <= v <= p.high):
                raise BalanceError(f"--set {p.name}={v!r}; allowed: {p.allowed()}")
            out[p.name] = int(v)
    if out["ready_pizzas"] > out["pizza_tokens"]:
        raise BalanceError(f"--set ready_pizzas={out['ready_pizzas']} exceeds pizza_tokens={out['pizza_tokens']}; "
                           f"allowed: 0..{out['pizza_tokens']}")
    if out["removed_cards"] > out["suits"] * 7 - 3:
        raise BalanceError(f"--set removed_cards={out['removed_cards']}; allowed: 0..{out['suits'] * 7 - 3} "
                           f"with {out['suits']} suits")
    return out


def n_rows(resolved: dict) -> int:
    """Calendar rows: weeks max, or (no limit) as many as the cards in the game."""
    cards = resolved["suits"] * 7 + resolved["events"]
    return int(resolved["max_weeks"]) if resolved["max_weeks"] > 0 else min(cards, K.MAX_ROWS)


def compile_tables(resolved: dict) -> tuple:
    cfg = np.zeros(K.N_CFG, np.int64)
    cfg[K.C_LEVEL] = resolved["level"]
    cfg[K.C_SUITS] = resolved["suits"]
    cfg[K.C_READY] = resolved["ready_pizzas"]
    cfg[K.C_TOTAL] = resolved["pizza_tokens"]
    cfg[K.C_ROWS] = n_rows(resolved)
    cfg[K.C_MAXW] = resolved["max_weeks"]
    cfg[K.C_REMOVED] = resolved["removed_cards"]
    cfg[K.C_AUTOMA] = 1 if resolved["automa"] else 0
    cfg[K.C_EVENTS] = resolved["events"]
    cfg[K.C_HAND] = resolved["hand_size"]
    cfg[K.C_NOTE_DIAG] = 1 if resolved["note_diagonal_adjacency"] else 0
    cfg[K.C_PIZZA_ROW] = resolved["pizza_per_full_row"]
    card_suit = np.full(K.NCARDS, -1, np.int64)
    card_day = np.full(K.NCARDS, -1, np.int64)
    card_event = np.full(K.NCARDS, -1, np.int64)
    for c in range(K.NWORK):
        card_suit[c] = c // 7
        card_day[c] = c % 7
    for e in range(K.NEVENTS):
        card_event[K.NWORK + e] = e
    return (cfg, card_suit, card_day, card_event)


def card_names(resolved: dict | None = None) -> list[str]:
    rules = load_rules()
    names = [f"{d + 1}-{rules['day_names'][d]} ({rules['suits'][s]})" for s in range(K.NSUITS) for d in range(7)]
    return names + list(rules["events"])


def card_list_hash(resolved: dict) -> str:
    h = hashlib.sha256()
    for f in (RULES_FILE, LEVELS_FILE):
        h.update((GAME_DIR / f).read_bytes())
    h.update(json.dumps(resolved, sort_keys=True, default=str).encode())
    return h.hexdigest()


def level_name(number: int) -> str:
    return load_levels()[number - 1]["name"]
