"""Rules file, parameters and tables of the Sick Days party game.

Python side only. `data/sickdays-party/rules.toml` holds the default of every
parameter (rules and behaviour profile); the deck's names come from the Sick
Days deck file `data/sickdays-solo/rules.toml`. Errors raise `BalanceError`
naming the file, the field, the bad value and the allowed values.
"""
from __future__ import annotations

import hashlib
import json
import math
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np

from simcore.errors import BalanceError
from simcore.spec import DATA_DIR, Param

from . import kernels as K

GAME_DIR = DATA_DIR / "sickdays-party"
RULES_FILE = GAME_DIR / "rules.toml"
DECK_FILE = DATA_DIR / "sickdays-solo" / "rules.toml"

PER_SEAT = "one number for every seat, or one per seat (a shorter list repeats from seat 1)"

# [rules] table: the parameters a designer sweeps
RULE_PARAMS = (
    Param("tokens_per_player", "int", None,
          "tired worker tokens each; -1 = rulebook: 2 each, 1 each for 6-8 players", -1, 6),
    Param("hand_size", "int", None, "cards dealt, and drawn when a token goes back (rulebook: 7)", 1, 20),
    Param("events", "int", None, "random event cards shuffled into the deck (rulebook: 2)", 0, 7),
    Param("collision_window", "float", None,
          "seconds within which plays count as 'at the same time' (each draws 2)", 0.0, 5.0),
    Param("stall_delay", "float", None,
          "seconds after the top card changed before the stall rule applies", 0.5, 120.0),
    Param("advanced_flow", "bool", None,
          "false: simple flow (stall rule); true: advanced flow with Doctor's notes (stall rule kept as a fallback)"),
    Param("coffee_break", "float", None, "seconds nobody may play after a Coffee Break (rulebook: 10)", 0.0, 120.0),
    Param("left_at_end", "int", None, "the game ends when this many players have not won (rulebook: 2)", 1, 7),
    Param("pizza_slices", "int", None, "pizza slices in the middle with Pizza Party; -1 = players - 1", -1, 8),
    Param("draw_time", "float", None,
          "seconds a player needs per card drawn before reacting again (picking up a penalty or a new hand)",
          0.0, 10.0),
)
# [profile] table: the behaviour of the players (per seat)
PROFILE_PARAMS = (
    Param("reaction_median", "floats", None, f"median reaction time in seconds (lognormal); {PER_SEAT}", 0.05, 30.0),
    Param("reaction_spread", "floats", None, f"spread of the reaction time (sd of its log); {PER_SEAT}", 0.0, 3.0),
    Param("wrong_play", "floats", None,
          f"chance per new top card of a wrong play (wrong card, second play in a row, too early in a "
          f"Coffee Break); {PER_SEAT}", 0.0, 1.0),
    Param("forget_celebrate", "floats", None, f"chance of forgetting to celebrate an event; {PER_SEAT}", 0.0, 1.0),
    Param("wrong_accusation", "floats", None,
          f"chance of wrongly accusing a same-worker play; {PER_SEAT}", 0.0, 1.0),
    Param("note_habit", "floats", None,
          f"advanced flow: chance greedy makes a Doctor's note when it could; {PER_SEAT}", 0.0, 1.0),
)
PARAMS = RULE_PARAMS + PROFILE_PARAMS  # defaults filled from rules.toml below (after load_rules)
PROFILE_SLOT = {"reaction_median": K.F_MEDIAN, "reaction_spread": K.F_SPREAD, "wrong_play": K.F_WRONG,
                "forget_celebrate": K.F_FORGET, "wrong_accusation": K.F_ACCUSE, "note_habit": K.F_NOTE}


def _read(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError as exc:
        raise BalanceError(f"{path}: file not found") from exc
    except tomllib.TOMLDecodeError as exc:
        raise BalanceError(f"{path}: not valid TOML ({exc})") from exc


def check_value(p: Param, v, source: str, field: str):
    """A checked value of parameter p; the error names source, field, value and allowed values."""

    def bad():
        return BalanceError(f"{source}: field '{field}' = {v!r}; allowed: {p.allowed()}")

    if p.kind == "bool":
        if isinstance(v, (bool, np.bool_)):
            return bool(v)
        raise bad()
    if p.kind == "floats":
        items = list(v) if isinstance(v, (list, tuple)) else [v]
        if not items or len(items) > K.MAXP:
            raise bad()
        out = []
        for x in items:
            if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
                raise bad()
            x = float(x)
            if math.isnan(x) or not (p.low <= x <= p.high):
                raise bad()
            out.append(x)
        return out
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise bad()
    if p.kind == "int":
        if float(v) != int(v):
            raise bad()
        v = int(v)
    else:
        v = float(v)
        if math.isnan(v):
            raise bad()
    if not (p.low <= v <= p.high):
        raise bad()
    return v


def load_rules(path: Path = RULES_FILE) -> dict:
    """The defaults of every parameter, validated."""
    raw = _read(path)
    out = {}
    for table, params in (("rules", RULE_PARAMS), ("profile", PROFILE_PARAMS)):
        section = raw.get(table)
        if not isinstance(section, dict):
            raise BalanceError(f"{path}: table [{table}] is missing; allowed fields: "
                               f"{', '.join(p.name for p in params)}")
        unknown = set(section) - {p.name for p in params}
        if unknown:
            raise BalanceError(f"{path}: [{table}]: unknown field(s) {sorted(unknown)}; allowed: "
                               f"{', '.join(p.name for p in params)}")
        for p in params:
            if p.name not in section:
                raise BalanceError(f"{path}: [{table}]: field '{p.name}' is missing; allowed: {p.allowed()}")
            out[p.name] = check_value(p, section[p.name], f"{path}: [{table}]", p.name)
    unknown = set(raw) - {"rules", "profile"}
    if unknown:
        raise BalanceError(f"{path}: unknown table(s) {sorted(unknown)}; allowed: rules, profile")
    return out


def load_deck(path: Path = DECK_FILE) -> dict:
    """Names of the days, workers and events of the Sick Days deck: the solo
    game's rules file, read and checked by the solo game's own loader."""
    from ..sickdays_solo import data as solo

    rules = solo.load_rules(path.parent, path.name)
    return {k: rules[k] for k in ("day_names", "suits", "events")}


def resolve_params(user: dict) -> dict:
    """Every parameter: the user's value, else rules.toml's."""
    defaults = load_rules()
    names = {p.name for p in PARAMS}
    unknown = set(user) - names
    if unknown:
        raise BalanceError(f"--set: unknown parameter(s) {sorted(unknown)} for sickdays-party; "
                           f"allowed: {', '.join(p.name for p in PARAMS)}")
    out = {}
    for p in PARAMS:
        v = user.get(p.name)
        out[p.name] = defaults[p.name] if v is None else check_value(p, v, "--set", p.name)
    return out


def compile_tables(resolved: dict) -> tuple:
    cfg = np.zeros(K.N_CFG, np.int64)
    cfg[K.C_TOKENS] = resolved["tokens_per_player"]
    cfg[K.C_HAND] = resolved["hand_size"]
    cfg[K.C_EVENTS] = resolved["events"]
    cfg[K.C_WINDOW_MS] = int(round(resolved["collision_window"] * 1000))
    cfg[K.C_STALL_MS] = int(round(resolved["stall_delay"] * 1000))
    cfg[K.C_ADVANCED] = 1 if resolved["advanced_flow"] else 0
    cfg[K.C_COFFEE_MS] = int(round(resolved["coffee_break"] * 1000))
    cfg[K.C_LEFT] = resolved["left_at_end"]
    cfg[K.C_SLICES] = resolved["pizza_slices"]
    cfg[K.C_DRAW_MS] = int(round(resolved["draw_time"] * 1000))
    prof = np.zeros((K.MAXP, K.N_PROF), np.float64)
    for name, slot in PROFILE_SLOT.items():
        values = resolved[name]
        values = list(values) if isinstance(values, (list, tuple)) else [values]
        for seat in range(K.MAXP):
            prof[seat, slot] = float(values[seat % len(values)])
    return (cfg, prof)


def card_name(card: int, deck: dict) -> str:
    if card >= K.NWORK:
        return deck["events"][card - K.NWORK]
    d = card % K.NDAYS
    return f"{d + 1}-{deck['day_names'][d]}/{deck['suits'][card // K.NDAYS]}"


def card_names(resolved: dict | None = None) -> list[str]:
    deck = load_deck()
    return [card_name(c, deck) for c in range(K.NCARDS)]


def card_list_hash(resolved: dict) -> str:
    h = hashlib.sha256()
    for f in (RULES_FILE, DECK_FILE):
        h.update(f.read_bytes())
    h.update(json.dumps(resolved, sort_keys=True, default=str).encode())
    return h.hexdigest()


def _with_file_defaults(params: tuple) -> tuple:
    """The declared parameters with rules.toml's values as their defaults (shown by
    `balance games`); a broken rules file leaves them None, and resolving then
    raises the file's error."""
    try:
        defaults = load_rules()
    except BalanceError:
        return params
    return tuple(replace(p, default=defaults[p.name]) for p in params)


PARAMS = _with_file_defaults(PARAMS)
