"""Four Day Weekend's data files: the rule parameters, the card file's declared
schemas (one per card kind) and the Bonus instructions' vocabulary, and the
one `build` that reads them into a `GameData` (simcore.gamedata).

The card file is the interface a designer edits: every field of every kind
of card is declared here with its range, anything else is refused with one
line naming the file, the card and the field, and what is allowed.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import BalanceError
from ..files import data_file, shown
from ..gamedata import CardSection, Field, Opcode, Schema, Vocabulary, loader, overlay, read_rules, refuse
from ..params import rule_table
from ..spec import Param, cards_param
from . import constants
GAME = "four-day-weekend"
CARDS_FILE = data_file(GAME, "cards.toml")
RULES_FILE = data_file(GAME, "rules.toml")

# The rule knobs. data/four-day-weekend/rules.toml holds the value of each
# (read_rules at load time); the defaults declared here are what `balance
# games` shows, and a test checks that the shipped rules file agrees.
PARAMS = (
    Param("hand_size", "int", 5, "cards a hand is replenished to", 3, constants.HAND_MAX, slot=constants.R_HAND_SIZE),
    Param("locked_sets_to_declare", "int", 3, "locked sets in play before Back To Work-ish may be declared", 1, 12, slot=constants.R_LOCKED_TO_DECLARE),
    Param("rounds_per_player", "int", 0, "rounds per player (0: rulebook, two for 2-3 players, else one)", 0, 4, slot=constants.R_ROUNDS_PER_PLAYER),
    Param("colour_multiplier", "int", 2, "factor for a Necessity whose colour is on the Activity's wheel", 1, 5, slot=constants.R_COLOUR_MULTIPLIER),
    Param("round_turn_limit", "int", 200, "safeguard: a round ends after this many turns (not in the rulebook)", 10, 2000, slot=constants.R_ROUND_TURN_LIMIT),
    Param("reshuffle_discards", "bool", True, "reshuffle the Really Discarded pile when the Draw pile runs out", slot=constants.R_RESHUFFLE_DISCARDS),
    Param("declarer_pile_only", "bool", True, "declaring after the sweep forces the refill from the Draw pile", slot=constants.R_DECLARER_PILE_ONLY),
    Param("active_set_scores", "bool", True, "the active (unlocked) set scores when complete", slot=constants.R_ACTIVE_SET_SCORES),
    Param("locked_sets_per_player", "bool", False, "count locked sets per player instead of all players together", slot=constants.R_LOCKED_PER_PLAYER),
    cards_param(CARDS_FILE),
    # card power (analysis.card_power, `balance impact`): not rules a designer sets
    Param("power_card", "int", -1, "card power: the id of the card one seat gets one more copy of, dealt into "
          "its opening hand of every round in place of a card of it (that card goes to the bottom of the Draw "
          "pile); -1: none", -1, 10_000, internal=True),
    Param("power_seat", "int", -1, "card power: the seat that gets it; -1: a seat drawn for each game from its "
          "deal (the same seat in every variant of that game)", -1, 5, internal=True, slot=constants.R_POWER_SEAT),
)

RECONSTRUCTED_CARDS = True  # the rulebook prints no card list: the shipped one is rebuilt from the cards it names (the spec's cards_reconstructed; reports say so)

# ---------------------------------------------------------------- the card file
AMOUNT_MAX = 20

NECESSITY_TYPE = Field("type", "str", required=True, choices=constants.TYPE_NAMES, parse=constants.TYPE_NAMES.index,
                       help="a Necessity type")
COLOUR = Field("colour", "str", required=True, choices=constants.COLOUR_NAMES, parse=constants.COLOUR_NAMES.index, help="a colour")
FACTOR = Field("factor", "int", required=True, low=0, high=AMOUNT_MAX)
AMOUNT = Field("amount", "int", required=True, low=0, high=AMOUNT_MAX)

# A Bonus card's instructions, applied in order after the colour doubling.
BONUS_EFFECTS = Vocabulary((
    Opcode("multiply_type", constants.OP_MULTIPLY_TYPE, (NECESSITY_TYPE, FACTOR),
           "that Necessity type's points (after colour doubling) x factor"),
    Opcode("multiply_colour", constants.OP_MULTIPLY_COLOUR, (COLOUR, FACTOR), "Necessities of that colour x factor"),
    Opcode("multiply_activity", constants.OP_MULTIPLY_ACTIVITY, (FACTOR,), "the Activity's points x factor"),
    Opcode("add_per_necessity", constants.OP_ADD_PER_NECESSITY, (AMOUNT,), "amount per Necessity in the set"),
    Opcode("add_if_type", constants.OP_ADD_IF_TYPE, (NECESSITY_TYPE, AMOUNT), "amount if the set holds that Necessity type"),
    Opcode("add_if_all_types", constants.OP_ADD_IF_ALL_TYPES, (AMOUNT,), "amount if the set holds all four Necessity types"),
    Opcode("add_flat", constants.OP_ADD_FLAT, (AMOUNT,), "amount"),
    Opcode("multiply_set", constants.OP_MULTIPLY_SET, (FACTOR,), "everything in the set so far x factor"),
    Opcode("add_per_doubled", constants.OP_ADD_PER_DOUBLED, (AMOUNT,),
           "amount per Necessity doubled by the Activity's colour wheel"),
))


def _wheel_mask(colours: list[int]) -> int:
    mask = 0
    for c in colours:
        mask |= 1 << c
    return mask


KIND = Field("kind", "str", required=True, choices=constants.KIND_NAMES)
_COMMON = (
    Field("name", "str", required=True),
    KIND,
    Field("count", "int", required=True, low=1, high=60, help="copies in the deck"),
)
_POINTS = Field("points", "int", required=True, low=1, high=3)
# One schema per kind of card: the fields each kind allows.
CARD_SCHEMAS = {
    "excuse": Schema("excuse card", _COMMON),
    "activity": Schema("activity card", _COMMON + (
        COLOUR, _POINTS,
        Field("wheel", "strs", required=True, choices=constants.COLOUR_NAMES, length=(1, len(constants.COLOUR_NAMES)),
              parse=lambda names: _wheel_mask([constants.COLOUR_NAMES.index(n) for n in names]),
              allowed_text=f"a list of 1 to {len(constants.COLOUR_NAMES)} of {', '.join(constants.COLOUR_NAMES)}",
              help="colours whose Necessities it doubles"),
    )),
    "necessity": Schema("necessity card", _COMMON + (NECESSITY_TYPE, COLOUR, _POINTS)),
    "bonus": Schema("bonus card", _COMMON + (
        Field("effects", "effects", required=True, vocabulary=BONUS_EFFECTS, length=(1, constants.MAX_BONUS_OPS)),
    )),
}
assert tuple(CARD_SCHEMAS) == constants.KIND_NAMES


# the one list of card kinds: read in the canonical order (by name), never the file's (simcore.gamedata)
CARD_SECTIONS = (CardSection("card", _COMMON[2]),)


def _card_entries(v):
    if not isinstance(v, list) or not v or not all(isinstance(e, dict) for e in v):
        raise ValueError("no [[card]] tables")
    return v


CARD_FILE = Schema("card file", (
    Field("card", "any", required=True, parse=_card_entries,
          allowed_text="[[card]] tables, each with name, kind, count and the fields of its kind"),
), key="")


def check_cards(raw: dict, path: Path) -> list[dict]:
    """Each [[card]] checked against the schema of its kind: dicts with
    name, kind (code), count, colour, points, type, wheel (bit mask), ops
    (the Bonus's (opcode, arg, amount) triples)."""
    entries = CARD_FILE.check(raw, path, "top level")["card"]
    out, seen = [], set()
    for i, e in enumerate(entries):
        name = e.get("name")
        where = f"card '{name}'" if isinstance(name, str) and name.strip() else f"card #{i + 1}"
        if "kind" not in e:
            raise refuse(path, where, "kind", "missing", KIND.allowed())
        kind = KIND.check(e["kind"], path, where)
        schema = CARD_SCHEMAS[kind]
        for k in e:
            if schema.get(k) is None:
                raise refuse(path, where, k, f"not a field of {'an' if kind[0] in 'aeiou' else 'a'} {kind} card",
                             schema.field_names())
        row = schema.check(e, path, where)
        if row["name"] in seen:
            raise refuse(path, where, "name", "duplicate", "a name no other card has")
        seen.add(row["name"])
        out.append({
            "name": row["name"], "kind": constants.KIND_NAMES.index(kind), "count": row["count"],
            "colour": row.get("colour", constants.NO_COLOUR), "points": row.get("points", 0), "type": row.get("type", -1),
            "wheel": row.get("wheel", 0),
            "ops": [(op["code"], op.get("type", op.get("colour", 0)), op.get("factor", op.get("amount")))
                    for op in row.get("effects", ())],
        })
    return out


def compile_cards(cards: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = len(cards)
    table = np.zeros((n, constants.N_CARD_COLUMNS), np.int64)
    bonus = np.zeros((n, constants.MAX_BONUS_OPS, 3), np.int64)
    inst = []
    for i, c in enumerate(cards):
        role = {constants.EXCUSE: constants.S_EXCUSE, constants.ACTIVITY: constants.S_ACTIVITY, constants.BONUS: constants.S_BONUS}.get(c["kind"], constants.S_NEC + c["type"])
        table[i] = (c["kind"], c["colour"], c["points"], c["type"], c["wheel"], c["count"], role)
        for k, op in enumerate(c["ops"]):
            bonus[i, k] = op
        inst += [i] * c["count"]
    return table, bonus, np.array(inst, np.int64)


def compile_rules(p: dict) -> np.ndarray:
    r = rule_table(PARAMS, p, constants.N_RULES)  # the knobs, each at its declared slot
    r[constants.R_POWER_INST] = -1
    return r


def build(reader, user: dict):
    """The GameData of one variant: rules.toml under the user's values, the
    card list (the game's own or `--set cards=FILE`), the kernel tables
    (cards, bonus instructions, card instances, rules), one name and one kind
    per card id."""
    params = overlay(read_rules(reader, PARAMS), user, GAME)
    path = Path(params["cards"] or CARDS_FILE)
    raw, card_list = reader.card_file(path, CARDS_FILE, reconstruction=RECONSTRUCTED_CARDS, sections=CARD_SECTIONS,
                                      allowed="a card file in the format of data/four-day-weekend/cards.toml")
    cards = check_cards(raw, path)
    table, bonus, inst = compile_cards(cards)
    need = 6 * params["hand_size"] + 1
    if inst.shape[0] < need:
        raise refuse(path, "top level", "count", f"{inst.shape[0]} cards is too few to deal "
                     f"{params['hand_size']} to 6 players", f"at least {need} cards in all")
    rules = compile_rules(params)
    power = params["power_card"]
    if power != -1:
        if not 0 <= power < len(cards):
            raise BalanceError(f"--set power_card: {power} is not a card of {shown(path)}; allowed: -1, "
                               + ", ".join(f"{i} ({c['name']})" for i, c in enumerate(cards)))
        inst = np.append(inst, np.int64(power))  # its one more copy: the last instance (new_game deals it)
        rules[constants.R_POWER_INST] = inst.shape[0] - 1
    return reader.make(params, (table, bonus, inst, rules), [c["name"] for c in cards], card_list,
                       info={"kinds": tuple(constants.KIND_NAMES[c["kind"]] for c in cards),
                             # card power (analysis.card_power): every card can be given, and how
                             "power_cards": tuple(range(len(cards))),
                             "power_how": "one more copy dealt into its opening hand of every round in place of a "
                                          "random card of it"})


load_data = loader(GAME, build)
