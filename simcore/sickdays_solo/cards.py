"""Rules and levels of Sick Days solo/co-op: the declared schemas of the two
data files and the one `build(reader, user) -> GameData`.

Python side only. The deck is the printed one (10 workers x days 1-7 and the
7 event cards, GAMES.md), named by `rules.toml`; the level table is
`levels.toml`, the rulebook's "Difficulty Levels". Every refusal is
`simcore.gamedata.refuse`'s one line: file, row, field, problem, allowed.
"""
from __future__ import annotations

import numpy as np

from balance.simcore.errors import BalanceError
from balance.simcore.gamedata import Field, Schema, loader, overlay, refuse
from balance.simcore.params import coerce
from balance.simcore.spec import Param

from . import constants

GAME = "sickdays-solo"
RULES_FILE = "rules.toml"
LEVELS_FILE = "levels.toml"
N_LEVELS = 11

PARAMS = (
    Param("level", "int", 4, "difficulty level 1..11 as the rulebook lists them; fills the other defaults", 1, 11),
    Param("suits", "int", None, "workers (suits) kept; the first N of rules.toml's list", 1, 10),
    Param("ready_pizzas", "int", None, "pizza tokens ready at setup (the rest are used)", 0, 6),
    Param("pizza_tokens", "int", None, "pizza tokens in all (rules.toml: 6)", 0, 20),
    Param("max_weeks", "int", None, "weeks (rows) of the calendar; 0 = no limit beyond the deck", 0, 60),
    Param("removed_cards", "int", None, "cards removed unseen at setup", 0, 60),
    Param("automa", "bool", None, "play against the automa (levels 6-11)"),
    Param("events", "int", 0, "random event cards shuffled into the deck (campaign: losses at this level)", 0, 7),
    Param("hand_size", "int", None, "hand size (rules.toml: 4)", 1, 7),
    Param("note_diagonal_adjacency", "bool", False,
          "false: Doctor's notes may not touch orthogonally; true: not diagonally either"),
    Param("pizza_per_full_row", "int", 1, "used pizzas flipped ready when a week (row) is full", 0, 6),
)

RECONSTRUCTED_CARDS = False  # the shipped deck is the printed one (the spec's cards_reconstructed; reports say so)

# rules.toml: the components and the fixed rules (every field required)
RULES = Schema("rules", (
    Field("hand_size", "int", "cards in hand (drawn back up to)", required=True, low=1, high=constants.HAND_CAP - 1),
    Field("pizza_tokens", "int", "pizza tokens in all (ready + used)", required=True, low=0, high=20),
    Field("days", "int", "days of the week: the calendar's columns", required=True, low=7, high=7),
    Field("day_names", "strs", "the seven day names, Monday first", required=True, length=(7, 7)),
    Field("suits", "strs", "the workers (suits); a level keeping N keeps the first N", required=True,
          length=(constants.NSUITS, constants.NSUITS)),
    Field("events", "strs", "the event cards, in the engine's order (each effect is an engine rule)",
          required=True, length=(constants.NEVENTS, constants.NEVENTS)),
), key="")

# levels.toml: one [[level]] per difficulty level, in order 1..11 (every field required)
LEVEL = Schema("level", (
    Field("number", "int", "the level's number, in order", required=True, low=1, high=N_LEVELS),
    Field("name", "str", "the rulebook's name of the level", required=True),
    Field("suits", "int", "workers (suits) kept", required=True, low=1, high=constants.NSUITS),
    Field("ready_pizzas", "int", "pizza tokens ready at setup", required=True, low=0, high=6),
    Field("weeks_max", "int", "weeks (rows) of the calendar; 0 = no limit beyond the deck", required=True,
          low=0, high=constants.MAX_ROWS),
    Field("removed_cards", "int", "cards removed unseen at setup", required=True, low=0, high=60),
    Field("automa", "bool", "play against the automa", required=True),
))
LEVELS = Schema("levels file", (
    Field("level", "any", "the difficulty levels 1..11, each checked as LEVEL", required=True,
          allowed_text=f"{N_LEVELS} [[level]] tables with {LEVEL.field_names()}"),
), key="")


def read_rules_file(reader, path) -> dict:
    """The checked rules.toml (the party game reads its deck's names from it too)."""
    raw = reader.toml(path, allowed="a rules file in the format of data/sickdays-solo/rules.toml")
    rules = RULES.check(raw, path, "rules")
    for name in ("day_names", "suits", "events"):
        if len(set(rules[name])) != len(rules[name]):
            raise refuse(path, "rules", name, f"{rules[name]!r} repeats a name",
                         f"a list of {len(rules[name])} distinct non-empty names")
    if rules["events"] != list(constants.EVENT_NAMES):
        raise refuse(path, "rules", "events", f"{rules['events']!r} is not the engine's list",
                     f"exactly {list(constants.EVENT_NAMES)} (each event's effect is an engine rule)")
    return rules


def read_levels_file(reader, path) -> list[dict]:
    raw = reader.toml(path, allowed="a levels file in the format of data/sickdays-solo/levels.toml")
    LEVELS.check(raw, path, "top level")
    rows = LEVEL.check_all(raw["level"], path, "level", N_LEVELS, N_LEVELS)
    for i, row in enumerate(rows, start=1):
        if row["number"] != i:
            raise refuse(path, LEVEL.label(row, i - 1), "number", f"{row['number']} is out of order",
                         f"{i} (levels in order 1..{N_LEVELS})")
    return rows


def _checked(params_decl, values: dict) -> dict:
    """Every parameter checked like a --set value (the build also takes resolved
    parameters back, and tests pass plain values)."""
    out = {}
    for p in params_decl:
        v = values[p.name]
        out[p.name] = None if v is None else coerce(p, v, "--set")
    return out


def build(reader, user: dict):
    rules_path, levels_path = reader.own(RULES_FILE), reader.own(LEVELS_FILE)
    rules = read_rules_file(reader, rules_path)
    levels = read_levels_file(reader, levels_path)
    out = _checked(PARAMS, overlay({p.name: p.default for p in PARAMS}, user, GAME))
    if out["level"] is None:
        out["level"] = 4
    level = levels[out["level"] - 1]
    fill = {
        "suits": level["suits"], "ready_pizzas": level["ready_pizzas"], "max_weeks": level["weeks_max"],
        "removed_cards": level["removed_cards"], "automa": level["automa"],
        "hand_size": rules["hand_size"], "pizza_tokens": rules["pizza_tokens"],
    }
    for k, v in fill.items():
        if out[k] is None:
            out[k] = v
    if out["ready_pizzas"] > out["pizza_tokens"]:
        raise BalanceError(f"--set ready_pizzas={out['ready_pizzas']} exceeds pizza_tokens={out['pizza_tokens']}; "
                           f"allowed: 0..{out['pizza_tokens']}")
    if out["removed_cards"] > out["suits"] * 7 - 3:
        raise BalanceError(f"--set removed_cards={out['removed_cards']}; allowed: 0..{out['suits'] * 7 - 3} "
                           f"with {out['suits']} suits")
    names = card_names(rules)
    info = {"day_names": tuple(rules["day_names"]), "suits": tuple(rules["suits"]), "events": tuple(rules["events"]),
            "level_names": tuple(lv["name"] for lv in levels)}
    cards = reader.card_list(rules_path, rules_path, reconstruction=RECONSTRUCTED_CARDS)
    return reader.make(out, compile_tables(out), names, cards, info)


load_data = loader("sickdays-solo", build)


def n_rows(resolved: dict) -> int:
    """Calendar rows: weeks max, or (no limit) as many as the cards in the game."""
    cards = resolved["suits"] * 7 + resolved["events"]
    return int(resolved["max_weeks"]) if resolved["max_weeks"] > 0 else min(cards, constants.MAX_ROWS)


def compile_tables(resolved: dict) -> tuple:
    cfg = np.zeros(constants.N_CFG, np.int64)
    cfg[constants.C_LEVEL] = resolved["level"]
    cfg[constants.C_SUITS] = resolved["suits"]
    cfg[constants.C_READY] = resolved["ready_pizzas"]
    cfg[constants.C_TOTAL] = resolved["pizza_tokens"]
    cfg[constants.C_ROWS] = n_rows(resolved)
    cfg[constants.C_MAXW] = resolved["max_weeks"]
    cfg[constants.C_REMOVED] = resolved["removed_cards"]
    cfg[constants.C_AUTOMA] = 1 if resolved["automa"] else 0
    cfg[constants.C_EVENTS] = resolved["events"]
    cfg[constants.C_HAND] = resolved["hand_size"]
    cfg[constants.C_NOTE_DIAG] = 1 if resolved["note_diagonal_adjacency"] else 0
    cfg[constants.C_PIZZA_ROW] = resolved["pizza_per_full_row"]
    card_suit = np.full(constants.NCARDS, -1, np.int64)
    card_day = np.full(constants.NCARDS, -1, np.int64)
    card_event = np.full(constants.NCARDS, -1, np.int64)
    for c in range(constants.NWORK):
        card_suit[c] = c // 7
        card_day[c] = c % 7
    for e in range(constants.NEVENTS):
        card_event[constants.NWORK + e] = e
    return (cfg, card_suit, card_day, card_event)


def card_names(rules: dict) -> list[str]:
    """One name per card id: "3-Wednesday (blue)", then the events."""
    names = [f"{d + 1}-{rules['day_names'][d]} ({rules['suits'][s]})" for s in range(constants.NSUITS) for d in range(7)]
    return names + list(rules["events"])
