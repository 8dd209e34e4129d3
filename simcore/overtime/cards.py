"""Overtime's data files: the declared schemas of the card file, the vocabulary
of effect opcodes (each opcode declares the fields it uses), the rule
parameters, and `build(reader, user) -> GameData` that checks them and
compiles the kernel tables (rules, kinds, effects, inst_kind).

Every refusal names the file, the card, the field and what is allowed
(`simcore.gamedata.refuse`). What the schemas cannot say (rules between
fields: only a reaction may cancel, an action ability aims at nobody, the
limits of the state record) is checked in `build`.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import BalanceError
from ..gamedata import CardSection, Field, Opcode, Schema, Vocabulary, loader, overlay, read_rules, refuse
from ..params import rule_table
from ..spec import DATA_DIR, Param, cards_param
from . import constants

RECONSTRUCTED_CARDS = True  # the rulebook prints no card list: the shipped one is rebuilt from the cards it names (the spec's cards_reconstructed; reports say so)
GAME_DIR = DATA_DIR / "overtime"
RULES_FILE = GAME_DIR / "rules.toml"
CARDS_FILE = GAME_DIR / "cards.toml"

# ---------------------------------------------------------------- values of fields
TYPE_TEXT = "card types W, R, E, S, B (a dual as S/W, a list as W,R)"
WHO = {
    "self": constants.W_SELF, "another": constants.W_ANOTHER, "any": constants.W_ANY, "all": constants.W_ALL, "others": constants.W_OTHERS,
    "target_owner": constants.W_TARGET_OWNER, "least_assignments": constants.W_LEAST_ASSIGNMENTS, "current": constants.W_CURRENT,
}
# a give or a take moves one A card between two players: it needs one player
WHO_ONE = ("another", "any", "target_owner", "least_assignments", "current")
REACTION_ONLY_WHO = {"target_owner"}
ABILITIES = {"none": constants.AB_NONE, "action": constants.AB_ACTION, "reaction": constants.AB_REACTION, "passive": constants.AB_PASSIVE}
REACT_BY = {"other": constants.RB_OTHER, "any": constants.RB_ANY}


def type_mask(raw: str) -> int:
    """'S/W' or 'W,R' -> a bit mask of card types (the A type is no main-deck card)."""
    mask = 0
    for part in raw.replace("/", ",").split(","):
        part = part.strip().upper()
        if part not in constants.TYPE_BITS or part == "A":
            raise ValueError(f"unknown card type '{part}'")
        mask |= constants.TYPE_BITS[part]
    return mask


def react_event(raw: str) -> tuple[int, int]:
    """What a reaction reacts to: (type mask, event). 'completed': a player completes an A card."""
    if raw == "completed":
        return 0, constants.RE_COMPLETED
    try:
        return type_mask(raw), constants.RE_CARD
    except ValueError as exc:
        hint = " (a player completing an A card is 'completed')" if raw.strip().lower().startswith("complet") else ""
        raise ValueError(f"{exc}{hint}") from None


REACT_TEXT = f"{TYPE_TEXT}, or 'completed' (another player completes an A card)"

# ---------------------------------------------------------------- the effect vocabulary
N_TASKS = Field("n", "int", "tasks", required=True, low=1, high=20)
N_CARDS = Field("n", "int", "cards", required=True, low=1, high=20)
N_SNOOZE = Field("n", "int", "snooze tokens gained (n < 0: -n removed)", required=True, low=-20, high=20)
WHO_ANY = Field("who", "str", "the player(s) it applies to", default="self", choices=tuple(WHO))
WHO_SINGLE = Field("who", "str", "the other player of the give or take", required=True, choices=WHO_ONE)
TYPES = Field("types", "str", "card types it applies to (default: every type)", default=type_mask("W,R,E,S,B"),
              parse=type_mask, allowed_text=TYPE_TEXT)  # a default is not parsed: it is the mask

EFFECTS = Vocabulary((
    Opcode("work", constants.OP_WORK, (N_TASKS,), "attach this card to one of your A cards and complete n tasks on it"),
    Opcode("tokens", constants.OP_TOKENS, (N_TASKS,), "n Task tokens on another of your A cards"),
    Opcode("snooze", constants.OP_SNOOZE, (N_SNOOZE, WHO_ANY), "who gains n Snooze tokens (n < 0: removes -n)"),
    Opcode("draw", constants.OP_DRAW, (N_CARDS, WHO_ANY), "who draws n cards"),
    Opcode("take_discard", constants.OP_TAKE_DISCARD, (N_CARDS, TYPES), "take n cards of these types from the discard pile"),
    Opcode("cancel", constants.OP_CANCEL, (TYPES,), "cancel the card reacted to, if it has one of these types"),
    Opcode("copy", constants.OP_COPY, (), "copy the effect of the card reacted to"),
    Opcode("give_assignment", constants.OP_GIVE_ASSIGNMENT, (WHO_SINGLE,),
           "give one of your A cards (with its Work and tokens) to who"),
    Opcode("take_assignment", constants.OP_TAKE_ASSIGNMENT, (WHO_SINGLE,), "take an A card (with its Work and tokens) from who"),
    Opcode("skip_turn", constants.OP_SKIP_TURN, (WHO_ANY,), "who skips their turn (the current one if it is theirs, else the next)"),
    Opcode("discard_work", constants.OP_DISCARD_WORK, (WHO_ANY,),
           "discard a W card attached to an A card of who: its tasks are lost"),
    Opcode("discard_snooze", constants.OP_DISCARD_SNOOZE, (WHO_ANY,), "who discards all Snooze tokens"),
    Opcode("discard_assignment", constants.OP_DISCARD_ASSIGNMENT,
           (Field("who", "str", "whose A card", default="self", choices=("self",) + WHO_ONE),),
           "who discards one of their A cards (with its Work): not completed, so nothing reacts to it"),
    Opcode("work_bonus", constants.OP_WORK_BONUS, (N_TASKS,), "(passive ability) +n tasks on each W card you play"),
    Opcode("snooze_shield", constants.OP_SNOOZE_SHIELD, (Field("n", "int", "tokens", required=True, low=1, high=20),),
           "(passive ability) gain n fewer Snooze tokens each time"),
))
PASSIVE_OPS = ("work_bonus", "snooze_shield")
ACTIVE_OPS = tuple(o for o in EFFECTS.names() if o not in PASSIVE_OPS)
REACTION_OPS = ("cancel", "copy")  # they act on the card reacted to

# ---------------------------------------------------------------- the card file's schemas
_NAME = Field("name", "str", "the card's name", required=True)
_TEXT = Field("text", "text", "the card text (shown, not read)", default="")
_FLAVOR = Field("flavor", "text", "flavor text (shown, not read)", default="")
_SHIFT = Field("tiredness_shift", "int", "added to snooze_thresholds under this employee", default=0, low=-10, high=20)
_ABILITY = Field("ability", "str", "the employee's special ability", default="none", choices=tuple(ABILITIES))
_ABILITY_EFFECTS = Field("ability_effects", "effects", "what the ability does", default=[], vocabulary=EFFECTS,
                         length=(0, constants.MAX_EFF))
_ABILITY_USES = Field("ability_uses_per_round", "int", "uses per round of each E card (0: unlimited)", default=0,
                      low=0, high=10)
_ABILITY_REACT_TO = Field("ability_react_to", "str", "what a reaction ability reacts to", allowed_text=REACT_TEXT,
                          parse=react_event)
_ABILITY_REACT_BY = Field("ability_react_by", "str", "whose cards a reaction ability reacts to", default="other",
                          choices=tuple(REACT_BY))
E_ONLY = ("stats", "tiredness_shift", "ability", "ability_effects", "ability_uses_per_round", "ability_react_to",
          "ability_react_by")

ASSIGNMENT = Schema("assignment", (
    _NAME,
    Field("tasks", "int", "tasks to complete it", required=True, low=1, high=30),
    Field("copies", "int", "copies (one per player)", default=constants.PMAX, low=constants.PMAX, high=20,
          allowed_text=f"an integer in {constants.PMAX}..20 (one per player)"),
    _TEXT, _FLAVOR,
))
STARTING_EMPLOYEE = Schema("starting_employee", (
    _NAME, _TEXT, _FLAVOR,
    Field("copies", "int", "copies (one per player)", default=constants.PMAX, low=constants.PMAX, high=200,
          allowed_text=f"an integer in {constants.PMAX}..200 (one per player)"),
    _SHIFT, _ABILITY, _ABILITY_EFFECTS, _ABILITY_USES, _ABILITY_REACT_TO, _ABILITY_REACT_BY,
))
CARD = Schema("card", (
    _NAME,
    Field("type", "str", "card type", required=True, parse=type_mask, allowed_text=TYPE_TEXT),
    Field("count", "int", "copies in the Main deck", default=1, low=0, high=200),
    _TEXT, _FLAVOR,
    Field("effects", "effects", "what the card does", default=[], vocabulary=EFFECTS, length=(0, constants.MAX_EFF)),
    Field("react_to", "str", "what the reaction reacts to (S and B cards only)", allowed_text=REACT_TEXT,
          parse=react_event),
    Field("react_by", "str", "whose cards it reacts to", default="other", choices=tuple(REACT_BY)),
    Field("stats", "ints", "E cards: [productiveness, laziness, determination]", default=[0, 0, 0], low=0, high=20,
          length=(3, 3)),
    _SHIFT, _ABILITY, _ABILITY_EFFECTS, _ABILITY_USES, _ABILITY_REACT_TO, _ABILITY_REACT_BY,
))
# the lists of card kinds: read in the canonical order (by name), never the file's (simcore.gamedata)
CARD_SECTIONS = (CardSection("card", CARD.get("count")), CardSection("assignment", ASSIGNMENT.get("copies")))
SECTIONS = Schema("card file", (
    Field("assignment", "any", "[[assignment]] tables: " + ASSIGNMENT.field_names(), required=True),
    Field("starting_employee", "any", "a [starting_employee] table: " + STARTING_EMPLOYEE.field_names(), required=True),
    Field("card", "any", "[[card]] tables: " + CARD.field_names(), required=True),
), key="")

# ---------------------------------------------------------------- rule parameters
PARAMS = (
    Param("rounds", "int", 8, "rounds before everybody loses (Round tracker)", 1, constants.MAX_ROUNDS,
          slot=constants.R_ROUNDS),
    Param("snooze_thresholds", "ints", [4, 7, 10],
          "Average Joe's tiredness ratings: snooze counts where levels 4-6, 7-9 and 10+ start (increasing)",
          1, 40, length=3, slot=(constants.R_T1, constants.R_T2, constants.R_T3)),
    Param("tired_productiveness_penalty", "ints", [1, 2], "Productiveness lost at the two tired levels", 0, 6, length=2,
          slot=(constants.R_PEN1, constants.R_PEN2)),
    Param("work_die_targets", "ints", [3, 5, 5],
          "Work die roll needed to play a W card at tired levels 1, 2 and 10+ (outside your turn)", 1, 7, length=3,
          slot=(constants.R_DIE1, constants.R_DIE2, constants.R_DIE3)),
    Param("work_die_sides", "int", 6, "sides of the Work die", 2, 20, slot=constants.R_DIE_SIDES),
    Param("time_snooze", "ints", [0, 1, 1, 1, 1, 2, 2, 2],
          "Time card: snooze each player gains at the start of round r (round 1 skipped; last value repeats)", 0, 10),
    Param("starting_snooze", "int", 1, "snooze tokens dealt at setup", 0, 20, slot=constants.R_START_SNOOZE),
    Param("starting_hand", "int", 4, "cards dealt from the Main deck at setup", 0, 15, slot=constants.R_START_HAND),
    Param("skip_turn_draw", "int", 2, "cards drawn by a player who skips their turn", 0, 10,
          slot=constants.R_SKIP_DRAW),
    Param("exhaustion_skips_turn", "bool", True,
          "10+ snooze counts as 'skip your turn' (draw skip_turn_draw); false: the turn just ends",
          slot=constants.R_EXHAUST_IS_SKIP),
    Param("first_employee_free", "bool", True, "an E card played as the first action of a turn costs no action",
          slot=constants.R_FIRST_E_FREE),
    Param("joe_productiveness", "int", 3, "Average Joe/Joanna Productiveness (actions per turn)", 0, 10),
    Param("joe_laziness", "int", 2, "Average Joe/Joanna Laziness (cards drawn per turn)", 0, 10),
    Param("joe_determination", "int", 5, "Average Joe/Joanna Determination (hand size kept)", 0, 20),
    Param("moved_assignment_keeps_work", "bool", True,
          "a W card whose A card was given or taken before it resolved still goes on that A card (now another "
          "player's); false: it goes on its player's own A card nearest completion",
          slot=constants.R_WORK_FOLLOWS),
    Param("least_assignments_includes_yourself", "bool", True,
          "who 'least_assignments' (Work Is Its Own Reward: \"the player that has the least amount of A cards left, "
          "or is tied for the least\") counts the card's player: when they alone have the fewest, nobody is named "
          "and no A card is given; false: the other player with the fewest (the card's player never counted)",
          slot=constants.R_LEAST_YOURSELF),
    cards_param(CARDS_FILE),
    # card power (analysis.card_power, `balance impact`): not rules a designer sets
    Param("power_card", "int", -1, "card power: the id of the main-deck card one seat gets one more copy of, "
          "dealt into its opening hand in place of a random card of it (that card goes to the bottom of the "
          "deck); -1: none", -1, constants.NKINDS_MAX - 1, internal=True),
    Param("power_seat", "int", -1, "card power: the seat that gets it; -1: a seat drawn for each game from its "
          "deal (the same seat in every variant of that game)", -1, constants.PMAX - 1, internal=True,
          slot=constants.R_POWER_SEAT),
)


def check_params(p: dict) -> None:
    """Rules between parameters (each alone is checked against its Param)."""
    t = list(p["snooze_thresholds"])
    if not (t[0] < t[1] < t[2]):
        raise BalanceError(f"--set: snooze_thresholds={','.join(map(str, t))} is not allowed (must be increasing); "
                           "allowed: 3 increasing integers in 1..40, e.g. 4,7,10")
    if not p["time_snooze"]:
        raise BalanceError("--set: time_snooze needs at least one value; allowed: integers in 0..10")
    for d in p["work_die_targets"]:
        if d > p["work_die_sides"] + 1:
            raise BalanceError(f"--set: work_die_targets={p['work_die_targets']} exceed the die "
                               f"(work_die_sides={p['work_die_sides']}); allowed: 1..{p['work_die_sides'] + 1}")


# ---------------------------------------------------------------- rules between fields
def _effects(path, where, field, effects, passive: bool, reaction: bool) -> list[tuple[int, int, int, int]]:
    """Checked effects (dicts from the vocabulary) as kernel rows (op, n, who, mask)."""
    out = []
    for i, e in enumerate(effects):
        f = f"{field}[{i}]"
        op = e["op"]
        if (op in PASSIVE_OPS) != passive:
            why = "a passive ability's opcode" if op in PASSIVE_OPS else "not a passive ability's opcode"
            raise refuse(path, where, f + ".op", f"'{op}' is not allowed here ({why})",
                         ", ".join(PASSIVE_OPS if passive else ACTIVE_OPS))
        if op in REACTION_OPS and not reaction:
            raise refuse(path, where, f + ".op", f"'{op}' needs a card reacted to",
                         "give the card a react_to, or another opcode")
        who = e.get("who", "self")
        if who in REACTION_ONLY_WHO and not reaction:
            raise refuse(path, where, f + ".who", f"'{who}' needs a card reacted to (a reaction)",
                         ", ".join(k for k in _who_choices(op) if k not in REACTION_ONLY_WHO))
        out.append((e["code"], int(e.get("n", 0)), WHO[who], int(e.get("types", 0))))
    return out


def _who_choices(op: str) -> tuple:
    return next(f.choices for f in EFFECTS.get(op).fields if f.name == "who")


def _target(effects) -> int:
    """What a card played as an action aims at: an A card (work), a player, or nothing."""
    t = constants.TG_NONE
    for op, n, who, mask in effects:
        if op == constants.OP_WORK:
            t = constants.TG_ASSIGNMENT
    for op, n, who, mask in effects:
        if op in (constants.OP_SNOOZE, constants.OP_DRAW, constants.OP_GIVE_ASSIGNMENT, constants.OP_TAKE_ASSIGNMENT, constants.OP_SKIP_TURN,
                  constants.OP_DISCARD_WORK, constants.OP_DISCARD_SNOOZE, constants.OP_DISCARD_ASSIGNMENT) and who in (constants.W_ANOTHER, constants.W_ANY):
            if t == constants.TG_ASSIGNMENT:
                return -1
            t = constants.TG_ANOTHER if who == constants.W_ANOTHER else constants.TG_ANY
    return t


def _card(path, where: str, raw: dict, c: dict, is_joe: bool) -> dict:
    """One checked [[card]] (or the [starting_employee]) as a row of the kind table."""
    mask = constants.T_E if is_joe else c["type"]
    reaction = "react_to" in c
    if reaction and not (mask & constants.T_REACTION):
        raise refuse(path, where, "react_to", "only S and B cards react", "give the card type S or B, or drop react_to")
    if not is_joe and not reaction and not (mask & constants.T_ACTION):
        raise refuse(path, where, "react_to", "an S or B card needs a react_to (what it reacts to)", REACT_TEXT)
    if "react_by" in raw and not reaction:
        raise refuse(path, where, "react_by", "only a reaction (a card with react_to) has react_by", "drop react_by")
    react_mask, react_ev = c["react_to"] if reaction else (0, 0)
    effects = _effects(path, where, "effects", c.get("effects", []), False, reaction)
    target = _target(effects)
    if target < 0:
        raise refuse(path, where, "effects", "a card can choose one target: an A card (work) or a player "
                     "(another/any), not both", "effects with one kind of target")
    if reaction:
        target = constants.TG_NONE  # reactions aim at the card reacted to; secondary choices follow fixed rules
    row = dict(name=c["name"], type=mask, count=c.get("copies" if is_joe else "count"), react_mask=react_mask,
               react_event=react_ev, react_by=REACT_BY[c.get("react_by", "other")], reaction=int(reaction),
               target=target, effects=effects, stats=(0, 0, 0), shift=0, ability=constants.AB_NONE, abil_uses=0,
               abil_react_mask=0, abil_react_event=0, abil_react_by=0, abil_effects=[], is_joe=is_joe)
    if not (mask & constants.T_E):
        extra = [k for k in E_ONLY if k in raw]
        if extra:
            raise refuse(path, where, extra[0], "only E cards have stats and abilities", "type E, or drop the field")
        return row
    ab = c["ability"]
    uses_field = ab in ("action", "reaction")
    for k, ok in (("ability_effects", ab != "none"), ("ability_uses_per_round", uses_field),
                  ("ability_react_to", ab == "reaction"), ("ability_react_by", ab == "reaction")):
        if k in raw and not ok:
            raise refuse(path, where, k, f"not used by an ability '{ab}'",
                         {"ability_effects": "ability action, reaction or passive",
                          "ability_uses_per_round": "ability action or reaction",
                          "ability_react_to": "ability reaction", "ability_react_by": "ability reaction"}[k])
    if ab == "reaction" and "ability_react_to" not in c:
        raise refuse(path, where, "ability_react_to", "a reaction ability needs what it reacts to", REACT_TEXT)
    abil_eff = _effects(path, where, "ability_effects", c["ability_effects"], ab == "passive", ab == "reaction")
    if ab == "action":
        for op, n, who, m in abil_eff:
            if op == constants.OP_WORK or who in (constants.W_ANOTHER, constants.W_ANY):
                raise refuse(path, where, "ability_effects", "action abilities choose no target (no work, another or any)",
                             "take_discard, draw, snooze self/all/others, tokens, ...")
    if ab != "none" and not abil_eff:
        raise refuse(path, where, "ability_effects", f"an '{ab}' ability needs effects",
                     "a list such as [{op = \"draw\", n = 1, who = \"self\"}]")
    ar_mask, ar_event = c["ability_react_to"] if ab == "reaction" else (0, 0)
    row.update(stats=tuple(c["stats"]) if not is_joe else (0, 0, 0), shift=c["tiredness_shift"],
               ability=ABILITIES[ab], abil_uses=c["ability_uses_per_round"], abil_react_mask=ar_mask,
               abil_react_event=ar_event, abil_react_by=REACT_BY[c["ability_react_by"]], abil_effects=abil_eff)
    return row


def read_cards(path: Path, raw: dict) -> dict:
    """The checked card list of a parsed card file."""
    SECTIONS.check(raw, path, "top level")
    assigns = ASSIGNMENT.check_all(raw["assignment"], path, "assignment", 1)
    copies = assigns[0]["copies"]
    for a in assigns:
        if a["copies"] != copies:
            raise refuse(path, ASSIGNMENT.label(a), "copies", f"{a['copies']} differs from the other assignments",
                         f"the same copies for every assignment kind ({copies})")
    joe_raw = raw["starting_employee"]
    if not isinstance(joe_raw, dict):
        raise refuse(path, "top level", "starting_employee", "is not a table",
                     "a [starting_employee] table with " + STARTING_EMPLOYEE.field_names())
    joe_where = STARTING_EMPLOYEE.label(joe_raw)
    joe = STARTING_EMPLOYEE.check(joe_raw, path, joe_where)
    cards = CARD.check_all(raw["card"], path, "card", 1)
    kinds = [_card(path, CARD.label(r), r, c, is_joe=False) for r, c in zip(raw["card"], cards)]
    kinds.append(_card(path, joe_where, joe_raw, joe, is_joe=True))
    # the state has room for NINST_MAX card instances and NKINDS_MAX kinds (state.py)
    n_kinds = len(kinds) + len(assigns)
    if n_kinds > constants.NKINDS_MAX:
        raise refuse(path, "card", "card", f"{len(kinds) - 1} cards and {len(assigns)} assignments make "
                     f"{n_kinds} kinds (the starting employee included)", f"at most {constants.NKINDS_MAX} kinds in all")
    n_inst = sum(k["count"] for k in kinds[:-1]) + len(assigns) * copies + joe["copies"]
    if n_inst > constants.NINST_MAX:
        raise refuse(path, "card", "count", f"the counts add up to {n_inst} cards (assignment copies and "
                     "starting employees included)", f"at most {constants.NINST_MAX} cards in all")
    return {"cards": kinds, "assignments": [(a["name"], a["tasks"]) for a in assigns], "copies": copies,
            "joe_copies": joe["copies"]}


# ---------------------------------------------------------------- the tables

# the kinds table's columns copied from a compiled card row as they are: (column, the row's key)
KIND_FIELDS = (
    (constants.KF_TYPE, "type"), (constants.KF_REACT_MASK, "react_mask"), (constants.KF_REACT_EVENT, "react_event"),
    (constants.KF_REACT_BY, "react_by"), (constants.KF_IS_REACTION, "reaction"), (constants.KF_TARGET, "target"),
    (constants.KF_SHIFT, "shift"), (constants.KF_ABIL, "ability"), (constants.KF_ABIL_USES, "abil_uses"),
    (constants.KF_ABIL_REACT_MASK, "abil_react_mask"), (constants.KF_ABIL_REACT_EVENT, "abil_react_event"),
    (constants.KF_ABIL_REACT_BY, "abil_react_by"),
)

def compile_tables(p: dict, d: dict) -> tuple:
    """(rules int64[NR], kinds int64[K, NKF], effects int64[K, 2*MAX_EFF, 4], inst_kind int64[N])."""
    main = d["cards"][:-1]
    joe = d["cards"][-1]
    n_main_kinds = len(main)
    n_akinds = len(d["assignments"])
    K = n_main_kinds + n_akinds + 1
    joe_kind = K - 1
    kinds = np.zeros((K, constants.NKF), np.int64)
    eff = np.zeros((K, 2 * constants.MAX_EFF, 4), np.int64)
    for k, row in enumerate(main + [joe]):
        kk = k if k < n_main_kinds else joe_kind
        for field, key in KIND_FIELDS:
            kinds[kk, field] = row[key]
        stats = row["stats"] if not row["is_joe"] else (p["joe_productiveness"], p["joe_laziness"], p["joe_determination"])
        kinds[kk, constants.KF_P], kinds[kk, constants.KF_L], kinds[kk, constants.KF_D] = stats
        for j, e in enumerate(row["effects"]):
            eff[kk, j] = e
            if e[0] == constants.OP_WORK:
                kinds[kk, constants.KF_WORK] += e[1]
            if e[0] == constants.OP_TOKENS:
                kinds[kk, constants.KF_WORK] += e[1]
        for j, e in enumerate(row["abil_effects"]):
            eff[kk, constants.MAX_EFF + j] = e
            if e[0] == constants.OP_TAKE_DISCARD and row["ability"] == constants.AB_ACTION:
                kinds[kk, constants.KF_ABIL_TAKE_MASK] |= e[3]
    for j, (name, tasks) in enumerate(d["assignments"]):
        kinds[n_main_kinds + j, constants.KF_TYPE] = constants.T_A
        kinds[n_main_kinds + j, constants.KF_TASKS] = tasks
    inst = [k for k, row in enumerate(main) for _ in range(row["count"])]
    power = p["power_card"]
    if power >= 0:  # its one more copy: the last main-deck instance (new_game deals it, never shuffles it in)
        inst.append(power)
    n_main = len(inst)
    a0 = n_main
    for j in range(n_akinds):
        inst += [n_main_kinds + j] * d["copies"]
    j0 = len(inst)
    inst += [joe_kind] * d["joe_copies"]
    rules = rule_table(PARAMS, p, constants.NR)  # the knobs, each at its declared slot; then what is derived
    rules[constants.R_JOE_KIND] = joe_kind
    rules[constants.R_N_MAIN] = n_main
    rules[constants.R_A0] = a0
    rules[constants.R_N_AKINDS] = n_akinds
    rules[constants.R_A_COPIES] = d["copies"]
    rules[constants.R_J0] = j0
    rules[constants.R_N_INST] = len(inst)
    rules[constants.R_N_KINDS] = K
    rules[constants.R_FIRST_ASSIGN_KIND] = n_main_kinds
    rules[constants.R_POWER_INST] = n_main - 1 if power >= 0 else -1
    ts = list(p["time_snooze"])
    for r in range(constants.MAX_ROUNDS):
        rules[constants.R_TIME0 + r] = ts[min(r, len(ts) - 1)]
    return (rules, kinds, eff, np.array(inst, np.int64))


def build(reader, user: dict):
    """Overtime's GameData: rules.toml under the user's values, the card list, the tables."""
    params = overlay(read_rules(reader, PARAMS), user, "overtime")
    check_params(params)
    path = Path(params["cards"] or reader.own("cards.toml"))
    # main-deck kinds and assignment kinds in the canonical order (by name): a kind's id never
    # depends on where its entry stands in the file; the starting employee keeps the last id by its role
    raw, cards = reader.card_file(path, reader.own("cards.toml"), reconstruction=RECONSTRUCTED_CARDS, sections=CARD_SECTIONS,
                                  allowed="a card file in the format of data/overtime/cards.toml")
    d = read_cards(path, raw)
    n_main_kinds = len(d["cards"]) - 1
    if not -1 <= params["power_card"] < n_main_kinds:
        allowed = ", ".join(f"{i} ({k['name']})" for i, k in enumerate(d["cards"][:-1]))
        raise BalanceError(f"--set power_card: {params['power_card']} is not a main-deck card of {path}; "
                           f"allowed: -1, {allowed}")
    if params["power_card"] >= 0 and sum(k["count"] for k in d["cards"][:-1]) + 1 + len(d["assignments"]) * d["copies"] \
            + d["joe_copies"] > constants.NINST_MAX:
        raise BalanceError(f"--set power_card: {path} leaves no room for one more card; allowed: -1")
    tables = compile_tables(params, d)
    names = [k["name"] for k in d["cards"][:-1]] + [a[0] for a in d["assignments"]] + [d["cards"][-1]["name"]]
    kinds = tables[1]
    info = {
        # card power (analysis.card_power): the kinds that can be given one more copy, and how
        "power_cards": tuple(range(n_main_kinds)),
        "power_how": "one more copy dealt into its opening hand in place of a random card of it",
        # what the transcript reads back: each kind's type bits and target, each instance's kind
        "kind_type": tuple(int(x) for x in kinds[:, constants.KF_TYPE]),
        "kind_target": tuple(int(x) for x in kinds[:, constants.KF_TARGET]),
        "instance_kind": tuple(int(x) for x in tables[3]),
        "assignment_kinds": tuple(range(int(tables[0][constants.R_FIRST_ASSIGN_KIND]),
                                        int(tables[0][constants.R_FIRST_ASSIGN_KIND]) + len(d["assignments"]))),
    }
    return reader.make(params, tables, names, cards, info=info)


load_data = loader("overtime", build)
