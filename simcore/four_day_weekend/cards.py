"""Load and validate the card list and rules, compile them into tables.

The card file is the interface a designer edits: every field is checked and
an error names the file, the card and the field, with the allowed values.
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import numpy as np

from ..errors import BalanceError
from ..spec import DATA_DIR, Param, cards_param
from . import constants as K

GAME_DIR = DATA_DIR / "four-day-weekend"
CARDS_FILE = GAME_DIR / "cards.toml"
RULES_FILE = GAME_DIR / "rules.toml"


def _param_defs() -> tuple[Param, ...]:
    """The rule knobs; defaults come from rules.toml (checked on load)."""
    raw = _read_toml(RULES_FILE)
    decl = (
        Param("hand_size", "int", None, "cards a hand is replenished to", 3, K.HAND_MAX),
        Param("locked_sets_to_declare", "int", None, "locked sets in play before Back To Work-ish may be declared", 1, 12),
        Param("rounds_per_player", "int", None, "rounds per player (0: rulebook, two for 2-3 players, else one)", 0, 4),
        Param("colour_multiplier", "int", None, "factor for a Necessity whose colour is on the Activity's wheel", 1, 5),
        Param("round_turn_limit", "int", None, "safeguard: a round ends after this many turns (not in the rulebook)", 10, 2000),
        Param("reshuffle_discards", "bool", None, "reshuffle the Really Discarded pile when the Draw pile runs out"),
        Param("declarer_pile_only", "bool", None, "declaring after the sweep forces the refill from the Draw pile"),
        Param("active_set_scores", "bool", None, "the active (unlocked) set scores when complete"),
        Param("locked_sets_per_player", "bool", None, "count locked sets per player instead of all players together"),
    )
    out = []
    for p in decl:
        if p.name not in raw:
            raise BalanceError(f"{RULES_FILE}: missing parameter '{p.name}'; allowed: {p.allowed()}")
        from ..params import coerce

        out.append(Param(p.name, p.kind, coerce(p, raw[p.name], str(RULES_FILE)), p.help, p.low, p.high, p.choices, p.length))
    unknown = set(raw) - {p.name for p in decl}
    if unknown:
        raise BalanceError(f"{RULES_FILE}: unknown parameter(s) {sorted(unknown)}; allowed: {', '.join(p.name for p in decl)}")
    return tuple(out) + (cards_param(CARDS_FILE),)


def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(Path(path).read_text())
    except FileNotFoundError:
        raise BalanceError(f"{path}: file does not exist") from None
    except tomllib.TOMLDecodeError as exc:
        raise BalanceError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise BalanceError(f"{path}: not a text file (not UTF-8); allowed: a TOML file") from None
    except OSError as exc:
        raise BalanceError(f"{path}: cannot read it ({exc.strerror or exc})") from None


PARAMS = _param_defs()


def resolve_params(user: dict) -> dict:
    out = {p.name: p.default for p in PARAMS}
    for k, v in user.items():
        if k not in out:
            raise BalanceError(f"four-day-weekend has no parameter '{k}'; allowed: {', '.join(out)}")
        out[k] = v
    return out


def _choice(path, name, field, value, allowed):
    if not isinstance(value, str) or value not in allowed:
        raise BalanceError(f"{path}: card '{name}': field '{field}' = {value!r} is not allowed; allowed: {', '.join(map(str, allowed))}")
    return allowed.index(value)


def _int_field(path, name, field, card, low, high):
    if field not in card:
        raise BalanceError(f"{path}: card '{name}': field '{field}' is missing; allowed: an integer in {low}..{high}")
    v = card[field]
    if not isinstance(v, int) or isinstance(v, bool) or not (low <= v <= high):
        raise BalanceError(f"{path}: card '{name}': field '{field}' = {v!r} is not allowed; allowed: an integer in {low}..{high}")
    return v


_FIELDS = {
    "excuse": {"name", "kind", "count"},
    "activity": {"name", "kind", "count", "colour", "points", "wheel"},
    "necessity": {"name", "kind", "count", "type", "colour", "points"},
    "bonus": {"name", "kind", "count", "effects"},
}


def load_cards(path: Path = CARDS_FILE) -> list[dict]:
    """Parsed, validated cards: dicts with kind/colour/points/type/wheel/count/ops."""
    data = _read_toml(path)
    cards = data.get("card")
    if not isinstance(cards, list) or not cards:
        raise BalanceError(f"{path}: no [[card]] entries; allowed: [[card]] tables, each with name, kind, count")
    out, seen = [], set()
    for i, c in enumerate(cards):
        name = c.get("name")
        if not isinstance(name, str) or not name:
            raise BalanceError(f"{path}: card #{i + 1}: field 'name' is missing; allowed: a non-empty string")
        if name in seen:
            raise BalanceError(f"{path}: card '{name}': field 'name' is a duplicate; allowed: a unique name")
        seen.add(name)
        kind = _choice(path, name, "kind", c.get("kind"), list(K.KIND_NAMES))
        extra = set(c) - _FIELDS[K.KIND_NAMES[kind]]
        if extra:
            f = sorted(extra)[0]
            raise BalanceError(f"{path}: card '{name}': field '{f}' is not allowed for a {K.KIND_NAMES[kind]}; "
                               f"allowed: {', '.join(sorted(_FIELDS[K.KIND_NAMES[kind]]))}")
        rec = {"name": name, "kind": kind, "colour": K.NO_COLOUR, "points": 0, "type": -1, "wheel": 0,
               "count": _int_field(path, name, "count", c, 1, 60), "ops": []}
        if kind in (K.ACTIVITY, K.NECESSITY):
            rec["colour"] = _choice(path, name, "colour", c.get("colour"), list(K.COLOUR_NAMES))
            rec["points"] = _int_field(path, name, "points", c, 1, 3)
        if kind == K.ACTIVITY:
            wheel = c.get("wheel")
            if not isinstance(wheel, list) or not wheel:
                raise BalanceError(f"{path}: card '{name}': field 'wheel' = {wheel!r} is not allowed; "
                                   f"allowed: a non-empty list of {', '.join(K.COLOUR_NAMES)}")
            for w in wheel:
                rec["wheel"] |= 1 << _choice(path, name, "wheel", w, list(K.COLOUR_NAMES))
        if kind == K.NECESSITY:
            rec["type"] = _choice(path, name, "type", c.get("type"), list(K.TYPE_NAMES))
        if kind == K.BONUS:
            effects = c.get("effects")
            if not isinstance(effects, list) or not effects or len(effects) > K.MAX_BONUS_OPS:
                raise BalanceError(f"{path}: card '{name}': field 'effects' = {effects!r} is not allowed; "
                                   f"allowed: a list of 1..{K.MAX_BONUS_OPS} {{op = ...}} tables")
            for e in effects:
                rec["ops"].append(_compile_effect(path, name, e))
        out.append(rec)
    return out


def _compile_effect(path, name, e) -> tuple[int, int, int]:
    if not isinstance(e, dict):
        raise BalanceError(f"{path}: card '{name}': field 'effects' entry {e!r} is not allowed; allowed: a table {{op = ...}}")
    op = e.get("op")
    if not isinstance(op, str) or op not in K.OPCODES:
        raise BalanceError(f"{path}: card '{name}': field 'effects.op' = {op!r} is not allowed; allowed: {', '.join(K.OPCODES)}")
    code, arg_kind, amount_field = K.OPCODES[op]
    allowed_keys = {"op", amount_field} | ({arg_kind} if arg_kind else set())
    extra = set(e) - allowed_keys
    if extra:
        f = sorted(extra)[0]
        raise BalanceError(f"{path}: card '{name}': field 'effects.{f}' is not allowed for op {op}; allowed: {', '.join(sorted(allowed_keys))}")
    arg = 0
    if arg_kind == "type":
        arg = _choice(path, name, "effects.type", e.get("type"), list(K.TYPE_NAMES))
    elif arg_kind == "colour":
        arg = _choice(path, name, "effects.colour", e.get("colour"), list(K.COLOUR_NAMES))
    amount = e.get(amount_field)
    if not isinstance(amount, int) or isinstance(amount, bool) or not (0 <= amount <= 20):
        raise BalanceError(f"{path}: card '{name}': field 'effects.{amount_field}' = {amount!r} is not allowed; allowed: an integer in 0..20")
    return (code, arg, amount)


def compile_cards(cards: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = len(cards)
    table = np.zeros((n, K.N_CARD_COLUMNS), np.int64)
    bonus = np.zeros((n, K.MAX_BONUS_OPS, 3), np.int64)
    inst = []
    for i, c in enumerate(cards):
        role = {K.EXCUSE: K.S_EXCUSE, K.ACTIVITY: K.S_ACTIVITY, K.BONUS: K.S_BONUS}.get(c["kind"], K.S_NEC + c["type"])
        table[i] = (c["kind"], c["colour"], c["points"], c["type"], c["wheel"], c["count"], role)
        for k, op in enumerate(c["ops"]):
            bonus[i, k] = op
        inst += [i] * c["count"]
    return table, bonus, np.array(inst, np.int64)


def compile_rules(p: dict) -> np.ndarray:
    r = np.zeros(K.N_RULES, np.int64)
    r[K.R_HAND_SIZE] = p["hand_size"]
    r[K.R_LOCKED_TO_DECLARE] = p["locked_sets_to_declare"]
    r[K.R_ROUNDS_PER_PLAYER] = p["rounds_per_player"]
    r[K.R_COLOUR_MULTIPLIER] = p["colour_multiplier"]
    r[K.R_ROUND_TURN_LIMIT] = p["round_turn_limit"]
    r[K.R_RESHUFFLE_DISCARDS] = int(bool(p["reshuffle_discards"]))
    r[K.R_DECLARER_PILE_ONLY] = int(bool(p["declarer_pile_only"]))
    r[K.R_ACTIVE_SET_SCORES] = int(bool(p["active_set_scores"]))
    r[K.R_LOCKED_PER_PLAYER] = int(bool(p["locked_sets_per_player"]))
    return r


def cards_file(params: dict | None, cards_path: Path | str | None = None) -> Path:
    """The card list in use: an explicit path, `--set cards=FILE`, else the game's own."""
    return Path(cards_path or (params or {}).get("cards") or CARDS_FILE)


def compile_tables(params: dict, cards_path: Path | str | None = None) -> tuple:
    p = resolve_params(params)
    cards_path = cards_file(params, cards_path)
    cards = load_cards(cards_path)
    table, bonus, inst = compile_cards(cards)
    need = 6 * p["hand_size"] + 1
    if inst.shape[0] < need:
        raise BalanceError(f"{cards_path}: {inst.shape[0]} cards is too few to deal {p['hand_size']} to 6 players; "
                           f"allowed: at least {need} (field 'count')")
    return (table, bonus, inst, compile_rules(p))


def card_names(params: dict, cards_path: Path | str | None = None) -> list[str]:
    return [c["name"] for c in load_cards(cards_file(params, cards_path))]


def card_list_hash(params: dict, cards_path: Path | str | None = None) -> str:
    h = hashlib.sha256(cards_file(params, cards_path).read_bytes())
    h.update(json.dumps(resolve_params(params), sort_keys=True, default=str).encode())
    return h.hexdigest()[:16]
