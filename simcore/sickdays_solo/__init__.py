"""Use Up All Your Sick Days, solo / co-op (`--game sickdays-solo`, 1-6 players).

Layout: `kernels` (constants, state, rules), `policy` (greedy, value),
`data` (rules/levels files, parameters, tables), this module (spec, trace
decoding, headline metrics).
"""
from __future__ import annotations

from simcore.runner import P_GAME
from simcore.spec import Column, GameSpec, Kernels, Param, PolicyParam, common_policies

from . import kernels as K
from . import policy as P
from .invariants import INVARIANTS, check
from .data import card_list_hash, card_names, compile_tables, load_rules, resolve_params

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

GAME_COLUMNS = (
    Column("turns", "turn actions taken (play, discard, Doctor's note, event)"),
    Column("missing", "cards missing at a loss: over unhappy workers, 3 - best line count (0 on a win)"),
    Column("pizzas_spent", "ready pizzas spent to refresh a hand"),
    Column("pizzas_regained", "pizzas flipped ready (full weeks, Pizza Party)"),
    Column("notes_used", "discards placed as Doctor's notes (Water Cooler's included)"),
    Column("discards", "hand cards discarded as a turn action"),
    Column("automa_placed", "automa cards placed on the calendar"),
    Column("automa_discarded", "automa cards discarded (chosen or forced)"),
    Column("events_in_deck", "event cards shuffled into the deck"),
    Column("happy_workers", "workers happy at the end"),
    Column("level", "difficulty level"),
) + tuple(
    Column(f"happy_turn_{w}", f"turn at which worker {w} (suit order of rules.toml) became happy; -1 never/not kept")
    for w in range(K.NSUITS)
) + (Column("deck_left", "cards left in the deck at the end"),)

SEAT_COLUMNS = (
    Column("plays", "cards this seat put face up (events included)"),
    Column("seat_discards", "cards this seat discarded"),
    Column("seat_notes", "Doctor's notes this seat placed"),
)

GREEDY_HELP = (
    "scores every option and takes the best: a card's progress toward three of its worker on a row or "
    "diagonal that can still be completed (open cells whose cards are still to come, minus a penalty per "
    "filler still needed), a big bonus for making a worker happy, a penalty for taking a cell another "
    "worker's two-card line needs; fillers (notes, happy workers' cards, blank events) are worth what they "
    "gain for a hand card of that column one row lower; discards prefer happy workers' and dead cards; "
    "a ready pizza refreshes the hand when nothing scores above refresh_at; the automa's card is placed when "
    "its play scores above zero, else discarded"
)
GREEDY_PARAMS = tuple(PolicyParam(name, P_GAME + i, d, h, -100.0, 100.0) for i, (name, d, h) in enumerate(P.GREEDY_DEFAULTS))

END_REASONS = ("all_happy", "no_action", "automa_empty")
LINE_WORDS = ("row", "diagonal", "diagonal")


def _card(card: int, rules: dict) -> str:
    if card >= K.NWORK:
        return f"the {rules['events'][card - K.NWORK]} event card"
    d = card % 7
    return f"{d + 1}-{rules['day_names'][d]} ({rules['suits'][card // 7]})"


def decode_trace(events, params, n_players) -> list[str]:
    rules = load_rules()
    days = rules["day_names"]
    out = []

    def spot(r, c):
        return f"{days[c]}, week {r + 1}"

    for code, a, b, c, d in (tuple(int(x) for x in e) for e in events):
        if code == K.T_SETUP:
            out.append(f"Setup: {a} workers, {b} cards removed unseen, {c} event cards shuffled in, "
                       f"calendar of {d} weeks.")
        elif code == K.T_DRAW:
            out.append(f"Player {a + 1} draws {b} card{'s' if b != 1 else ''}.")
        elif code == K.T_TURN:
            out.append(f"-- Turn {b}: Player {a + 1}.")
        elif code == K.T_PLAY:
            out.append(f"Player {a + 1} plays {_card(b, rules)} into {spot(c, d)}.")
        elif code == K.T_PLAY_BDAY:
            out.append(f"Player {a + 1} plays {_card(b, rules)} over the Birthday card in {spot(c, d)}.")
        elif code == K.T_DISCARD:
            out.append(f"Player {a + 1} discards {_card(b, rules)}.")
        elif code == K.T_NOTE:
            out.append(f"Player {a + 1} uses a discarded {_card(b, rules)} as a Doctor's note in {spot(c, d)}.")
        elif code == K.T_WC_NOTE:
            out.append(f"Water Cooler: Player {a + 1} uses a discarded {_card(b, rules)} as a Doctor's note in {spot(c, d)}.")
        elif code == K.T_REFRESH:
            out.append(f"Player {a + 1} spends a ready pizza to refresh the hand ({b} ready left).")
        elif code == K.T_PIZZA_READY:
            if c > 0:
                out.append(f"Week {a + 1} is full: a pizza is ready again ({b} ready).")
            else:
                out.append(f"Week {a + 1} is full (no used pizza to flip).")
        elif code == K.T_AUT_DRAW:
            out.append(f"The automa draws {_card(a, rules)}.")
        elif code == K.T_AUT_PLACE:
            out.append(f"The automa's {_card(a, rules)} is placed into {spot(b, c)}.")
        elif code == K.T_AUT_DISCARD:
            out.append(f"The automa's {_card(a, rules)} is discarded{' (it cannot be placed)' if b else ''}.")
        elif code == K.T_HAPPY:
            wild = ("", " with the New Years wild", " with the Valentine's Day wild")[c]
            out.append(f"{rules['suits'][a]} is happy ({LINE_WORDS[b]}{wild}) on turn {d}.")
        elif code == K.T_WIN:
            out.append(f"All workers are happy: you win (turn {a}).")
        elif code == K.T_LOSE:
            why = {K.END_NO_ACTION: "no legal turn action", K.END_AUTOMA_EMPTY: "the automa cannot draw"}.get(a, "?")
            out.append(f"You lose ({why}): {b} card{'s' if b != 1 else ''} missing.")
        elif code == K.T_EVENT:
            out.append(f"Player {a + 1} puts {_card(b, rules)} into {spot(c, d)}.")
        elif code == K.T_LB_TAKE:
            out.append(f"Look Busy: Player {a + 1} takes the discarded {_card(b, rules)} back into the hand.")
        elif code == K.T_CB_RETURN:
            out.append(f"Coffee Break: Player {a + 1} shuffles {_card(b, rules)} into the deck.")
        elif code == K.T_CB_DONE:
            out.append(f"Coffee Break: Player {a + 1} draws back to the hand size ({b} drawn).")
        elif code == K.T_PIZZA_PARTY:
            out.append(f"Pizza Party: {a} pizza{'s' if a != 1 else ''} ready again ({b} ready).")
        elif code == -2:
            out.append("The turn cap ends the game.")
        else:
            out.append(f"(event {code} {a} {b} {c} {d})")
    return out


def headline(games, seats, params: dict) -> dict:
    import polars as pl

    from analysis.stats import mean_ci, rate

    reason = games["end_reason"]
    if reason.dtype == pl.Utf8:
        won = reason == "all_happy"
    else:
        won = reason == K.END_ALL_HAPPY
    n = games.height
    lost = games.filter(~won)
    dist = {}
    if lost.height:
        vc = lost.group_by("missing").len().sort("missing")
        dist = {str(int(m)): int(c) for m, c in zip(vc["missing"], vc["len"])}
    return {
        "win_rate": rate(int(won.sum()), n),
        "missing_cards": {"at_loss": dist, "mean": mean_ci(lost["missing"].to_numpy())},
        "pizzas_spent": mean_ci(games["pizzas_spent"].to_numpy()),
        "notes_used": mean_ci(games["notes_used"].to_numpy()),
        "turns": mean_ci(games["turns"].to_numpy()),
    }


SPEC = GameSpec(
    name="sickdays-solo",
    title="Use Up All Your Sick Days: solo / co-op",
    version="1",
    modes=("solo", "co-op"),
    min_players=1,
    max_players=6,
    default_players=1,
    cooperative=True,
    max_decisions=3000,
    max_options=K.MAX_OPTIONS,
    params=PARAMS,
    end_reasons=END_REASONS,
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    card_counters=("drawn", "played", "noted", "discarded", "held_at_end"),
    policies=common_policies(GREEDY_HELP, GREEDY_PARAMS, rollouts=6, horizon=1000, expert_iterations=48, oracle=True),
    kernels=Kernels(K.new_game, K.to_move, K.legal, K.step, K.outcome, K.clone, K.determinise, P.value,
                    P.greedy, K.card_counts, check=check),
    compile_tables=compile_tables,
    card_names=card_names,
    card_list_hash=card_list_hash,
    decode_trace=decode_trace,
    resolve_params=resolve_params,
    headline=headline,
    data_files=("sickdays-solo/rules.toml", "sickdays-solo/levels.toml"),
    notes="Readings and what is not modelled: docs/assumptions.md (Sick Days solo)",
    invariants=INVARIANTS,
)
