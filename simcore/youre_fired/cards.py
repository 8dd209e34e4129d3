"""The card file and the rules as declared schemas, read once into a GameData.

`build(reader, user)` reads `rules.toml` (through `read_rules`, against the
declared `PARAMS`) and the card list (the game's own or `--set cards=FILE`),
checks every entry against `COMPANY` / `CONSULTANT` and each card's effect
against the opcode vocabulary `EFFECTS` (an opcode declares the fields it
uses: `n`, `trigger`; any other is refused), and compiles the kernel tables
`(cards, rules)`: `cards` is int64 (n_cards, CF_WIDTH), one row per card type
(company cards first, then consultants); `rules` is int64 (R_WIDTH).
Every refusal is one line naming the file, the card and the field
(`simcore.gamedata.refuse`).
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

RECONSTRUCTED_CARDS = True  # the rulebook prints no card list: the shipped one is rebuilt from the cards it names (the spec's cards_reconstructed; reports say so)
GAME = "youre-fired"
CARDS_FILE = data_file(GAME, "cards.toml")  # the shipped (reconstructed) list; read only by `build`

# Defaults as the rulebook gives them; data/youre-fired/rules.toml sets the same
# values and is read at load time (read_rules), never at import.
PARAMS = (
    Param("hand_size", "int", 4, "draw up to this many cards each turn", 1, 8, slot=constants.R_HAND),
    Param("start_hand", "int", 3, "cards in the starting hand", 1, 6, slot=constants.R_START_HAND),
    Param("redraw_hand", "int", 3, "cards drawn after a reshuffle of hand, deck and break room", 1, 6,
          slot=constants.R_REDRAW_HAND),
    Param("consultants_2p", "int", 2, "consultants dealt to each player with 2 players", 0, 2,
          slot=constants.R_CONS_2P),
    Param("consultants_multi", "int", 1, "consultants dealt to each player with 3-4 players", 0, 1,
          slot=constants.R_CONS_MULTI),
    Param("boss_reveal_at_deal", "bool", True,
          "a Boss in the starting hand is revealed, replaced by a 4th card and shuffled back",
          slot=constants.R_BOSS_REVEAL_DEAL),
    Param("boss_reveal_on_redraw", "bool", False,
          "the same Boss reveal on every 3-card redraw after a reshuffle", slot=constants.R_BOSS_REVEAL_REDRAW),
    Param("teams", "bool", False, "4 players: the team variant (seats 1+3 against 2+4)", slot=constants.R_TEAMS),
    Param("replace_fired", "bool", True, "a player whose card is fired draws one at once to replace it",
          slot=constants.R_REPLACE_FIRED),
    Param("replace_fired_hand_only", "bool", False,
          "with replace_fired: only a card fired out of a hand is replaced, not the Fall Guy firing himself nor a "
          "card fired from a break room (rulebook: \"When one of your employees is fired\", wherever it was)",
          slot=constants.R_REPLACE_HAND_ONLY),
    Param("failed_firing_reshuffle", "bool", True,
          "a failed attempt to fire a Boss makes its owner reshuffle hand, break room and deck and draw anew",
          slot=constants.R_FAILED_FIRING_RESHUFFLE),
    Param("spouse_revives_boss_in_teams", "bool", False,
          "team variant: the Boss's Spouse may bring back a fired Boss (rulebook: no), spouse_boss_revivals times",
          slot=constants.R_SPOUSE_BOSS_TEAMS),
    Param("spouse_boss_revivals", "int", 1,
          "with spouse_revives_boss_in_teams: how many times in a game each team may bring back a Boss",
          1, 8, slot=constants.R_SPOUSE_BOSS_REVIVALS),
    Param("team_pass_boss", "bool", True,
          "team variant: a Boss in the hand of a player who reshuffles is passed to the partner with the rest "
          "(rulebook: \"pass all of the employees in their hand\"; the Boss is one); false: it stays and is "
          "shuffled into its holder's deck", slot=constants.R_TEAM_PASS_BOSS),
    Param("team_boss_after_success", "int", constants.BOSS_TO_DECK,
          "team variant: a Boss whose play fired the target's Boss goes 0 to its owner's break room (back only "
          "with a reshuffle of it), 1 shuffled into its owner's deck, 2 back to its owner's hand",
          0, 2, choices=(constants.BOSS_TO_BREAK_ROOM, constants.BOSS_TO_DECK, constants.BOSS_TO_HAND),
          slot=constants.R_TEAM_BOSS_AFTER),
    Param("team_deadlock", "int", constants.DEADLOCK_PLAY_ON,
          "team variant: when every seat that can still play is on one team and no opposing Boss is in a hand "
          "or deck: 0 play on (that team must go on playing, its Boss too when nothing else is left), "
          "1 the game ends (teams_deadlock) with no winner, 2 it ends and that team wins",
          0, 2, choices=(constants.DEADLOCK_PLAY_ON, constants.DEADLOCK_NO_WINNER, constants.DEADLOCK_ACTING_TEAM_WINS),
          slot=constants.R_TEAM_DEADLOCK),
    Param("no_progress_turns", "int", 200,
          "the game ends (no_progress) with no winner after this many turns in a row in which the unemployment "
          "lines never held more cards than they once had (a card brought back and fired again is no progress), "
          "no player went out and no attempt on a Boss failed; 0 = never",
          0, constants.MAX_TURNS, slot=constants.R_NO_PROGRESS_TURNS),
    cards_param(CARDS_FILE),
    # card power (analysis.card_power, `balance impact`): not rules a designer sets
    Param("power_card", "int", -1, "card power: the id of the company card (not the Boss) one seat gets one more "
          "copy of, shuffled into its deck after the opening hands; -1: none", -1, constants.MAX_CARD_TYPES - 1,
          internal=True, slot=constants.R_POWER_CARD),
    Param("power_seat", "int", -1, "card power: the seat that gets it; -1: a seat drawn for each game from its "
          "deal (the same seat in every variant of that game)", -1, constants.MAX_PLAYERS - 1, internal=True,
          slot=constants.R_POWER_SEAT),
)

# ---------------------------------------------------------------- the card file
_TRIGGER_CODES = {"targeted": constants.TRIG_TARGETED, "guess": constants.TRIG_GUESS,
                  "boss_fire": constants.TRIG_BOSS_FIRE, "fired": constants.TRIG_FIRED}


def _n(low: int, high: int) -> Field:
    return Field("n", "int", "how many", required=True, low=low, high=high)


def _trigger(*choices: str) -> Field:
    return Field("trigger", "str", "what the reactive card answers", required=True, choices=choices)


# Each opcode with the fields it uses (besides `effect`, which names it).
EFFECTS = Vocabulary((
    Opcode("none", constants.OP_NONE, (), "no effect: the card is only ever put in the break room"),
    Opcode("boss", constants.OP_BOSS, (), "the Boss's rules (not card text): playing it tries to fire the target's Boss"),
    Opcode("guess_fire_hand", constants.OP_GUESS_FIRE_HAND, (), "name a card; if it is in the target's hand, fire it"),
    Opcode("fire_from_break", constants.OP_FIRE_FROM_BREAK, (), "fire a named card from the target's break room"),
    Opcode("reveal_hand", constants.OP_REVEAL_HAND, (), "the target shows you (only you) their hand"),
    Opcode("fire_self_reshuffle_break", constants.OP_FIRE_SELF_RESHUFFLE, (),
           "fire this card, shuffle your break room into your deck"),
    Opcode("revive", constants.OP_REVIVE, (), "take a card from your unemployment line into your hand"),
    Opcode("cancel", constants.OP_CANCEL, (_trigger("targeted", "guess"),),
           "reactive: cancel a card played against you (targeted: any; guess: a guessing card or a Boss play)"),
    Opcode("redirect", constants.OP_REDIRECT, (_trigger("boss_fire", "fired"),),
           "reactive: this card is fired instead of the one that would be (boss_fire: only the Boss)"),
    Opcode("draw", constants.OP_DRAW, (_n(1, 5),), "draw n cards"),
    Opcode("discard", constants.OP_DISCARD, (), "the target puts a card of their choice from hand into their break room"),
    Opcode("swap", constants.OP_SWAP, (), "exchange a card in your hand with one in your break room"),
    Opcode("peek_deck", constants.OP_PEEK_DECK, (_n(1, 5),), "look at the top n cards of the target's deck"),
), key="effect")
OPCODE_FIELDS = ("n", "trigger")  # every field some opcode uses
TARGETED = ("boss", "guess_fire_hand", "fire_from_break", "reveal_hand", "discard", "peek_deck")
_BY_OPCODE = "checked by the effect: " + "; ".join(
    f"{o.name} takes {', '.join(f.name for f in o.fields)}" for o in EFFECTS.opcodes if o.fields)


def _card_schema(what: str, count: Field, effects: tuple[str, ...]) -> Schema:
    return Schema(what, (
        Field("name", "str", "the card's name (unique in the file)", required=True),
        count,
        Field("effect", "str", "the effect's opcode", required=True, choices=effects),
        Field("n", "any", "see effect", allowed_text=_BY_OPCODE),
        Field("trigger", "any", "see effect", allowed_text=_BY_OPCODE),
        Field("text", "text", "the card's text (shown nowhere in play)", default=""),
    ))


COMPANY = _card_schema("card", Field("count", "int", "copies in each player's company", required=True,
                                     low=1, high=8), tuple(EFFECTS.names()))
CONSULTANT = _card_schema("card", Field("count", "int", "each consultant is unique", default=1, choices=(1,),
                                        allowed_text="1 (each consultant is unique)"),
                          tuple(n for n in EFFECTS.names() if n != "boss"))
CARD_FILE = Schema("card file", (
    Field("company", "any", "[[company]]: each player's company set, one entry per card type"),
    Field("consultant", "any", "[[consultant]]: the consultant pool, one entry per (unique) consultant"),
), key="")
# the lists of card kinds: read in the canonical order (by name), never the file's (simcore.gamedata);
# the Boss is found by its effect (rules R_BOSS_ID), not by its place
CARD_SECTIONS = (CardSection("company", COMPANY.get("count")), CardSection("consultant", CONSULTANT.get("count")))
MAX_COMPANY = 24  # company cards in one set (DECK_CAP holds two sets and the consultants)
MAX_CONSULTANTS = 8


def _effect(row: dict, file, where: str) -> dict:
    """The card's effect against its opcode: a field the opcode does not use is
    refused; the fields it uses are checked and filled."""
    op = EFFECTS.get(row["effect"])
    used = {f.name for f in op.fields}
    for k in OPCODE_FIELDS:
        if row.get(k) is not None and k not in used:
            names = ", ".join(["effect"] + sorted(used))
            raise refuse(file, where, k, f"'{k}' is not used by effect '{op.name}'", f"for '{op.name}': {names}")
    body = {k: row[k] for k in used if row.get(k) is not None}
    return Schema(f"'{op.name}' effect", op.fields, key="").check(body, file, where)


def card_rows(raw: dict, path) -> list[dict]:
    """Checked card rows: name, kind, count, effect (opcode name), n, trigger (code), text."""
    CARD_FILE.check(raw, path, "top level")
    rows: list[dict] = []
    names: set[str] = set()
    for section, kind, schema, most in (("company", constants.KIND_COMPANY, COMPANY, None),
                                        ("consultant", constants.KIND_CONSULTANT, CONSULTANT, MAX_CONSULTANTS)):
        entries = raw.get(section, [])
        for i, row in enumerate(schema.check_all(entries, path, section, 0, most)):
            where = schema.label(row, i)
            if row["name"] in names:
                raise refuse(path, where, "name", "duplicate", "a name no other card has")
            names.add(row["name"])
            eff = _effect(row, path, where)
            rows.append({"name": row["name"], "kind": kind, "count": row["count"], "effect": row["effect"],
                         "n": eff.get("n", 0), "trigger": _TRIGGER_CODES.get(eff.get("trigger"), constants.TRIG_NONE),
                         "text": row["text"]})
    bosses = [r for r in rows if r["effect"] == "boss"]
    if len(bosses) != 1 or bosses[0]["count"] != 1:
        where = f"card '{bosses[1 if len(bosses) > 1 else 0]['name']}'" if bosses else "company"
        raise refuse(path, where, "effect" if len(bosses) != 1 else "count",
                     f"{len(bosses)} cards with effect boss" if len(bosses) != 1 else "a Boss has count 1",
                     "exactly one card with effect boss and count 1 in the company")
    company = sum(r["count"] for r in rows if r["kind"] == constants.KIND_COMPANY)
    if not 2 <= company <= MAX_COMPANY:
        raise refuse(path, "company", "count", f"{company} company cards in all", f"2..{MAX_COMPANY}")
    return rows


def compile_tables(rows: list[dict], params: dict) -> tuple:
    cards = np.zeros((len(rows), constants.CF_WIDTH), np.int64)
    for i, r in enumerate(rows):
        cards[i, constants.CF_KIND] = r["kind"]
        cards[i, constants.CF_COUNT] = r["count"]
        cards[i, constants.CF_EFFECT] = EFFECTS.get(r["effect"]).code
        cards[i, constants.CF_N] = r["n"]
        cards[i, constants.CF_TRIGGER] = r["trigger"]
        cards[i, constants.CF_TARGETED] = 1 if r["effect"] in TARGETED else 0
    rules = rule_table(PARAMS, params, constants.R_WIDTH)  # the knobs, each at its declared slot
    rules[constants.R_BOSS_ID] = next(i for i, r in enumerate(rows) if r["effect"] == "boss")
    rules[constants.R_N_CONSULTANTS] = sum(1 for r in rows if r["kind"] == constants.KIND_CONSULTANT)
    # with fewer consultants than the seats need, new_game deals what there is
    return (cards, rules)


def power_cards(rows: list[dict]) -> tuple[int, ...]:
    """The card ids card power may give one seat one more copy of: the company cards but the Boss (one Boss
    a player, by the rules). Consultants are unique by the rules ("each consultant is unique"), so a second
    copy of one is no card list the game has: they are not measured."""
    return tuple(i for i, r in enumerate(rows) if r["kind"] == constants.KIND_COMPANY and r["effect"] != "boss")


def check_power(rows: list[dict], params: dict, path) -> None:
    c = params["power_card"]
    if c != -1 and c not in power_cards(rows):
        allowed = ", ".join(f"{i} ({rows[i]['name']})" for i in power_cards(rows))
        raise BalanceError(f"--set power_card: {c} is not a company card of {shown(Path(path))} other than the Boss; "
                           f"allowed: -1, {allowed}")


def build(reader, user: dict):
    """The GameData of one variant: rules.toml under the user's values, the card
    list checked and compiled; `info` holds each card id's kind and effect for
    the transcript (so nothing re-reads a file)."""
    params = overlay(read_rules(reader, PARAMS), user, GAME)
    path = Path(params["cards"] or reader.own("cards.toml"))
    raw, cards = reader.card_file(path, reader.own("cards.toml"), reconstruction=RECONSTRUCTED_CARDS, sections=CARD_SECTIONS,
                                  allowed="a card list in the format of data/youre-fired/cards.toml")
    rows = card_rows(raw, path)
    check_power(rows, params, path)
    tables = compile_tables(rows, params)
    info = {"kinds": tuple("company" if r["kind"] == constants.KIND_COMPANY else "consultant" for r in rows),
            # card power (analysis.card_power): the ids that can be given one more copy, and how
            "power_cards": power_cards(rows), "power_how": "one more copy shuffled into its deck",
            "effects": tuple(r["effect"] for r in rows),
            "targeted": tuple(r["effect"] in TARGETED for r in rows)}
    return reader.make(params, tables, [r["name"] for r in rows], cards, info=info)


load_data = loader(GAME, build)


def card_power_note(data, name: str) -> str:
    """Why a card of the list gets no card-power figure (spec.card_power_note): a consultant is unique and
    the Boss one a player, by the rules, so one more copy of either is no card list the game has."""
    names = list(data.card_names)
    kinds = data.info.get("kinds")
    if name in names and kinds and kinds[names.index(name)] == "consultant":
        return "a consultant is unique by the rules, so one more copy of it is no card list the game has"
    return "one Boss a player, by the rules"
