"""Use Up All Your Sick Days, party game (`--game sickdays-party`, 3-8 players).

A real-time game simulated in continuous time: each seat's behaviour profile
(reaction time, mistakes) is a game parameter, one value for all seats or one
per seat. Layout: `kernels` (constants, state, rules), `policy` (greedy,
value), `data` (rules file, parameters, tables), this module (spec, trace
decoding, headline metrics).
"""
from __future__ import annotations

import polars as pl

from balance.simcore import metrics as M
from balance.simcore.gamedata import loader
from balance.simcore.spec import GameSpec, Kernels, common_policies

from . import kernels as K
from . import policy as P
from .data import PARAMS, build

CAUSE_NAMES = K.CAUSE_NAMES
CAUSE_WORDS = K.CAUSE_WORDS
GAME_COLUMNS = K.GAME_COLUMNS
SEAT_COLUMNS = K.SEAT_COLUMNS

GREEDY_HELP = (
    "plays the legal card least connected to the rest of its hand (fewest other cards of its worker or day), "
    "keeping event cards (wild) for when nothing else fits; advanced flow: makes a Doctor's note of that card "
    "with the seat's note_habit chance, plays its note when the hand is down to 2 cards or nothing else fits; "
    "puts a pizza slice back whenever it owes a draw-2; at a stall plays its least connected card. "
    "Speed and mistakes are the behaviour profile (game parameters), not the policy"
)
GREEDY_PARAMS = P.GREEDY_PARAMS

END_REASONS = ("all_but_left_won", "stuck")


def _t(ms: int) -> str:
    return f"[{ms / 1000:6.1f} s]"


def decode_trace(events, data, n_players) -> list[str]:
    """The event log, timestamped, with the run's card names (data.info)."""
    deck = data.info
    names = data.card_names

    def card(c):
        return names[int(c)]

    out = []
    for code, a, b, c, d in (tuple(int(x) for x in e) for e in events):
        if code == K.T_SETUP:
            out.append(f"Setup: {a} players, {b} tired worker token{'s' if b != 1 else ''} each, "
                       f"{c} event card{'s' if c != 1 else ''} in the deck; the starting card is {card(d)}.")
        elif code == K.T_EVENTS:
            out.append(f"Event card in the deck: {deck['events'][a]}.")
        elif code == K.T_DEAL:
            out.append(f"Seat {a + 1} draws {b} cards.")
        elif code == K.T_PLAY:
            out.append(f"{_t(a)} seat {b + 1} plays {card(c)} on {card(d)}")
        elif code == K.T_STALL:
            out.append(f"{_t(a)} nobody can play: seat {b + 1} plays {card(c)} on {card(d)} (stall rule, no penalty)")
        elif code == K.T_NOTE_MAKE:
            out.append(f"{_t(a)} seat {b + 1} makes a Doctor's note of {card(c)}: \"I'm sick\"")
        elif code == K.T_NOTE_PLAY:
            out.append(f"{_t(a)} seat {b + 1} plays its Doctor's note {card(c)} on {card(d)}: \"I'm back\"")
        elif code == K.T_MISTAKE:
            out.append(f"{_t(a)}   mistake by seat {b + 1}: {CAUSE_WORDS[c]} ({card(d)} stays on the pile)")
        elif code == K.T_DRAW:
            out.append(f"{_t(a)}   seat {b + 1} draws {c} ({CAUSE_WORDS[d]})")
        elif code == K.T_SLICE_USE:
            out.append(f"{_t(a)}   seat {b + 1} puts a pizza slice back instead of drawing 2 ({CAUSE_WORDS[c]})")
        elif code == K.T_COLLIDE:
            out.append(f"{_t(a)} {b} players play at the same time!")
        elif code == K.T_CELEBRATE:
            out.append(f"{_t(a)}   seat {b + 1} celebrates {deck['events'][c]}")
        elif code == K.T_TOKEN:
            out.append(f"{_t(a)} seat {b + 1} played all its cards: a tired worker token goes back "
                       f"({c} left), draws {d}")
        elif code == K.T_WIN:
            out.append(f"{_t(a)} seat {b + 1} played all its cards with no token left: wins (place {c})")
        elif code == K.T_REFILL:
            out.append(f"{_t(a)} the deck ran out: {b} cards of the play pile become the deck (unshuffled)")
        elif code == K.T_COFFEE:
            out.append(f"{_t(a)} Coffee Break: nobody may play until {b / 1000:.1f} s")
        elif code == K.T_LOOKBUSY:
            out.append(f"{_t(a)} Look Busy: seat {b + 1} is the last to type on the table ({c / 1000:.1f} s)")
        elif code == K.T_GRAB:
            out.append(f"{_t(a)} Pizza Party: seat {b + 1} grabs a pizza slice after {d / 1000:.1f} s "
                       f"({c} left in the middle)")
        elif code == K.T_ACCUSE:
            out.append(f"{_t(a)}   seat {b + 1} wrongly accuses seat {c + 1} of a wrong day ({card(d)} is the same worker)")
        elif code == K.T_END:
            why = {K.END_DONE: "all but the last players have won", K.END_STUCK: "nobody holds a card"}.get(b, "?")
            out.append(f"{_t(a)} The game ends: {why} ({c} winner{'s' if c != 1 else ''}).")
        elif code == -2:
            out.append("The turn cap ends the game.")
        else:
            out.append(f"(event {code} {a} {b} {c} {d})")
    return out


FASTEST = pl.col("fastest_seat") >= 0  # games with one fastest seat (profiles not all alike)

METRICS = (
    M.Distribution(key="minutes", help="simulated minutes per game", value=pl.col("minutes")),
    M.Group(key="draw2_by_cause", label="draw-2 penalties per game, by cause", members=tuple(
        M.Mean(key=name, label=words, value=pl.col(f"draw2_{name}")) for name, words in zip(CAUSE_NAMES, CAUSE_WORDS))),
    M.Mean(key="plays", label="cards played per game", value=pl.col("plays")),
    M.Mean(key="stalls", label="stall-rule plays per game", value=pl.col("stalls")),
    M.Group(key="skill_vs_luck", label="skill vs luck", members=(
        M.Note(key="note", text="fastest = the seat with the lowest reaction_median; by chance alone it finishes "
                                "first 1/players of the time and the correlation is 0"),
        M.Rate(key="fastest_finishes_first", label="the fastest seat finishes first", where=FASTEST,
               hits=pl.col("fastest_place") == 1),
        M.Fixed(key="chance_level", value=lambda params, players: 1.0 / players if players else None),
        M.Rate(key="fastest_wins", label="the fastest seat wins", table="seats",
               where=FASTEST & (pl.col("seat").cast(pl.Int64) == pl.col("fastest_seat").cast(pl.Int64)),
               hits=pl.col("won")),
        M.Mean(key="speed_rank_corr", label="rank correlation of reaction median and finishing place",
               value=pl.col("speed_rank_corr"), where=pl.col("speed_rank_corr").is_not_nan()),
    )),
)


SPEC = GameSpec(
    name="sickdays-party",
    title="Use Up All Your Sick Days: party (real time)",
    version="2",
    modes=("party",),
    min_players=3,
    max_players=8,
    default_players=5,
    cooperative=False,
    max_decisions=K.MAX_DECISIONS,
    max_options=K.MAX_OPTIONS,
    params=PARAMS,
    end_reasons=END_REASONS,
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    card_counters=("drawn", "played", "held_at_end"),
    hand_counters=("drawn",),  # the deal and every draw: the one way into a hand
    policies=common_policies(
        GREEDY_HELP, GREEDY_PARAMS, rollouts=4, horizon=200,
        expert_refused="a real-time game: who plays, and when, follows the seats' reaction profiles (game "
                       "parameters), not choices; the one choice, which fitting card to play, is greedy's, and a "
                       "search over it would read the other seats' reaction times already drawn in the state, which "
                       "no player knows. Give stronger players faster or steadier profiles (--set reaction_median=...)"),
    kernels=Kernels(K.new_game, K.to_move, K.legal, K.step, K.outcome, K.clone, K.determinise, P.value,
                    P.greedy, K.card_counts, check=K.check),
    decode_trace=decode_trace,
    load_data=loader("sickdays-party", build),
    metrics=METRICS,
    invariants=K.INVARIANTS,
)
