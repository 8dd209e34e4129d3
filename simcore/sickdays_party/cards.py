"""Rules file, parameters and tables of the Sick Days party game: the one
`build(reader, user) -> GameData`.

Python side only. `data/sickdays-party/rules.toml` holds the default of every
parameter (rules and behaviour profile), read with `simcore.gamedata.read_rules`;
the deck is the printed Sick Days deck (70 days of the week cards = 10 workers
x days 1-7, and the 7 event cards), named by the solo game's
`data/sickdays-solo/rules.toml`, read through the same Reader so that the
content hash covers it. Every refusal names the file, the field, the value
and what is allowed.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from balance.simcore.errors import BalanceError
from balance.simcore.files import data_file
from balance.simcore.gamedata import Reader, loader, overlay, read_rules, refuse
from balance.simcore.params import coerce
from balance.simcore.spec import Param

from ..sickdays_solo import cards as solo
from . import constants, rules
GAME = "sickdays-party"
RULES_FILE = "rules.toml"

PER_SEAT = "one number for every seat, or one per seat (a shorter list repeats from seat 1)"

# the parameters a designer sweeps (rules.toml's first part)
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
    Param("left_at_end", "int", None,
          "the game ends when all but this many players have won (rulebook: 2), and at least min_winners", 1, 7),
    Param("min_winners", "int", None,
          "the game never ends with fewer winners than this (rulebook: \"2 winners for 3 players\"; "
          "always fewer than the players)", 1, 7),
    Param("pizza_slices", "int", None, "pizza slices in the middle with Pizza Party; -1 = players - 1", -1, 8),
    Param("draw_time", "float", None,
          "seconds a player needs per card drawn before reacting again (picking up a penalty or a new hand)",
          0.0, 10.0),
)

RECONSTRUCTED_CARDS = False  # the shipped deck is the printed one (the spec's cards_reconstructed; reports say so)

# the behaviour of the players, per seat (rules.toml's second part)
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
DECLARED = RULE_PARAMS + PROFILE_PARAMS  # every default is rules.toml's (None here: the file must set it)
PROFILE_SLOT = {"reaction_median": rules.F_MEDIAN, "reaction_spread": rules.F_SPREAD, "wrong_play": rules.F_WRONG,
                "forget_celebrate": rules.F_FORGET, "wrong_accusation": rules.F_ACCUSE, "note_habit": rules.F_NOTE}


def _per_seat(p: Param, v, refusal):
    if p.kind == "floats" and len(v) > constants.MAXP:
        raise refusal(f"{len(v)} values", f"{p.allowed()}, at most {constants.MAXP} (one per seat)")
    return v


def read_rules_file(reader: Reader) -> dict:
    """rules.toml: every parameter set, each value checked (simcore.gamedata.read_rules)."""
    path = reader.own(RULES_FILE)
    values = read_rules(reader, DECLARED, RULES_FILE)
    for p in DECLARED:
        if values[p.name] is None:
            raise refuse(path, "rules", p.name, "missing", p.allowed())
        _per_seat(p, values[p.name], lambda msg, allowed, p=p: refuse(path, "rules", p.name, msg, allowed))
    return values


def build(reader: Reader, user: dict):
    defaults = read_rules_file(reader)
    deck_path = data_file("sickdays-solo", solo.RULES_FILE)
    deck = solo.read_rules_file(reader, deck_path)
    values = overlay(defaults, {k: v for k, v in user.items() if v is not None}, GAME)
    out = {}
    for p in DECLARED:
        v = coerce(p, values[p.name], "--set")
        out[p.name] = _per_seat(p, v, lambda msg, allowed, p=p: BalanceError(
            f"--set: {p.name}: {msg}; allowed: {allowed}"))
    info = {k: tuple(deck[k]) for k in ("day_names", "suits", "events")}
    names = [card_name(c, info) for c in range(constants.NCARDS)]
    cards = reader.card_list(deck_path, deck_path, reconstruction=RECONSTRUCTED_CARDS)
    return reader.make(out, compile_tables(out), names, cards, info)


load_data = loader("sickdays-party", build)


def compile_tables(resolved: dict) -> tuple:
    cfg = np.zeros(constants.N_CFG, np.int64)
    cfg[rules.C_TOKENS] = resolved["tokens_per_player"]
    cfg[rules.C_HAND] = resolved["hand_size"]
    cfg[rules.C_EVENTS] = resolved["events"]
    cfg[rules.C_WINDOW_MS] = int(round(resolved["collision_window"] * 1000))
    cfg[rules.C_STALL_MS] = int(round(resolved["stall_delay"] * 1000))
    cfg[rules.C_ADVANCED] = 1 if resolved["advanced_flow"] else 0
    cfg[rules.C_COFFEE_MS] = int(round(resolved["coffee_break"] * 1000))
    cfg[rules.C_LEFT] = resolved["left_at_end"]
    cfg[rules.C_SLICES] = resolved["pizza_slices"]
    cfg[rules.C_DRAW_MS] = int(round(resolved["draw_time"] * 1000))
    cfg[rules.C_MIN_WINNERS] = resolved["min_winners"]
    prof = np.zeros((constants.MAXP, constants.N_PROF), np.float64)
    for name, slot in PROFILE_SLOT.items():
        values = resolved[name]
        values = list(values) if isinstance(values, (list, tuple)) else [values]
        for seat in range(constants.MAXP):
            prof[seat, slot] = float(values[seat % len(values)])
    return (cfg, prof)


def card_name(card: int, deck) -> str:
    """"3-Wednesday/blue", or the event's name (deck: day_names, suits, events)."""
    if card >= constants.NWORK:
        return deck["events"][card - constants.NWORK]
    d = card % constants.NDAYS
    return f"{d + 1}-{deck['day_names'][d]}/{deck['suits'][card // constants.NDAYS]}"


def _with_file_defaults(params: tuple) -> tuple:
    """The declared parameters with the shipped rules.toml's values as their
    defaults, for `balance games` to show (a variant's own reading is build's,
    through its Reader); a broken rules file leaves them None, and loading
    then raises the file's error."""
    try:
        defaults = read_rules_file(Reader(GAME))
    except BalanceError:
        return params
    return tuple(replace(p, default=defaults[p.name]) for p in params)


PARAMS = _with_file_defaults(DECLARED)
