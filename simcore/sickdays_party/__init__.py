"""Use Up All Your Sick Days, party game (`--game sickdays-party`, 3-8 players).

A real-time game simulated in continuous time: each seat's behaviour profile
(reaction time, mistakes) is a game parameter, one value for all seats or one
per seat. Layout: `kernels` (constants, state, rules), `policy` (greedy,
value), `data` (rules file, parameters, tables), this module (spec, trace
decoding, headline metrics).
"""
from __future__ import annotations

from simcore.spec import Column, GameSpec, Kernels, PolicyParam, common_policies

from . import kernels as K
from . import policy as P
from .data import PARAMS, card_list_hash, card_name, card_names, compile_tables, load_deck, resolve_params

CAUSE_NAMES = ("collision", "wrong_card", "played_twice", "forgot_celebrate", "wrong_accusation",
               "coffee_break", "look_busy")
CAUSE_WORDS = ("played at the same time", "wrong card", "played twice in a row", "forgot to celebrate",
               "wrong accusation", "played during the Coffee Break", "last to look busy")

GAME_COLUMNS = (
    Column("minutes", "simulated minutes until the game ended", "float64"),
    Column("plays", "cards put on the play pile (mistakes and stalls included)"),
    Column("stalls", "stall-rule plays (nobody could play; the last player played any card)"),
    Column("collisions", "moments when two or more players played at the same time"),
) + tuple(
    Column(f"draw2_{name}", f"draw-2 penalties incurred: {words} (a pizza slice may have cancelled some)")
    for name, words in zip(CAUSE_NAMES, CAUSE_WORDS)
) + (
    Column("draw2_total", "draw-2 penalties incurred, all causes"),
    Column("slices_used", "draw-2 penalties cancelled by putting a pizza slice back"),
    Column("events_played", "event cards put on the pile"),
    Column("notes_made", "Doctor's notes made (advanced flow)"),
    Column("notes_played", "Doctor's notes played onto the pile (advanced flow)"),
    Column("refills", "times the deck ran out and the pile (all but its top card) became the deck"),
    Column("tokens_returned", "tired worker tokens put back (each: an emptied hand, then draw 7)"),
    Column("winners", "players who went out"),
    Column("fastest_seat", "seat (from 0) with the lowest reaction median; -1 if tied"),
    Column("fastest_place", "finishing place of the fastest seat; -1 if the fastest is tied"),
    Column("speed_rank_corr", "Spearman rank correlation of reaction median and finishing place "
                              "(+1: finishing order is the speed order; NaN when every seat has the same median)",
           "float64"),
)

SEAT_COLUMNS = (
    Column("place", "finishing place: winners in the order they went out, then the rest by tokens and cards left"),
    Column("reaction_median", "this seat's median reaction time (s)", "float64"),
    Column("seat_plays", "cards this seat put on the pile"),
    Column("seat_draw2", "draw-2 penalties this seat incurred"),
    Column("tokens_left", "tired worker tokens this seat still holds"),
    Column("cards_left", "cards this seat holds at the end (a Doctor's note included)"),
)

GREEDY_HELP = (
    "plays the legal card least connected to the rest of its hand (fewest other cards of its worker or day), "
    "keeping event cards (wild) for when nothing else fits; advanced flow: makes a Doctor's note of that card "
    "with the seat's note_habit chance, plays its note when the hand is down to 2 cards or nothing else fits; "
    "puts a pizza slice back whenever it owes a draw-2; at a stall plays its least connected card. "
    "Speed and mistakes are the behaviour profile (game parameters), not the policy"
)
GREEDY_PARAMS = tuple(PolicyParam(name, P.P_GAME + i, d, h, 0.0, 1.0) for i, (name, d, h) in enumerate(P.GREEDY_DEFAULTS))

END_REASONS = ("all_but_left_won", "stuck")


def _t(ms: int) -> str:
    return f"[{ms / 1000:6.1f} s]"


def decode_trace(events, params, n_players) -> list[str]:
    deck = load_deck()

    def card(c):
        return card_name(int(c), deck)

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


def headline(games, seats, params: dict) -> dict:
    """Minutes per game, draw-2s by cause, and skill vs luck: how often the
    fastest seat finishes first (against 1/players by chance) and the mean
    rank correlation of reaction median and finishing place."""
    import numpy as np
    import polars as pl

    from analysis.stats import mean_ci, rate
    from analysis.summary import distribution

    n = games.height
    out = {"minutes": distribution(games["minutes"].to_numpy(), "minutes", "simulated minutes per game")}
    out["draw2_by_cause"] = {name: mean_ci(games[f"draw2_{name}"].to_numpy()) for name in CAUSE_NAMES}
    out["plays"] = mean_ci(games["plays"].to_numpy())
    out["stalls"] = mean_ci(games["stalls"].to_numpy())
    players = int(seats["seat"].max()) + 1 if seats.height else 0
    fastest = games.filter(pl.col("fastest_seat") >= 0)
    skill = {"note": "fastest = the seat with the lowest reaction_median; by chance alone it finishes "
                     "first 1/players of the time and the correlation is 0"}
    if fastest.height:
        first = int((fastest["fastest_place"] == 1).sum())
        skill["fastest_finishes_first"] = rate(first, fastest.height)
        skill["chance_level"] = 1.0 / players if players else None
        if seats.height:
            fw = seats.join(fastest.select("variant", "game_index", "fastest_seat"), on=["variant", "game_index"])
            fw = fw.filter(pl.col("seat").cast(pl.Int64) == pl.col("fastest_seat").cast(pl.Int64))
            skill["fastest_wins"] = rate(int(fw["won"].cast(pl.Int64).sum()), fw.height)
    corr = games["speed_rank_corr"].cast(pl.Float64).to_numpy() if n else np.zeros(0)
    corr = corr[~np.isnan(corr)]
    if corr.size:
        skill["speed_rank_corr"] = mean_ci(corr)
    out["skill_vs_luck"] = skill
    return out


SPEC = GameSpec(
    name="sickdays-party",
    title="Use Up All Your Sick Days: party (real time)",
    version="1",
    modes=("party",),
    min_players=3,
    max_players=8,
    default_players=5,
    cooperative=False,
    max_decisions=6000,
    max_options=K.MAX_OPTIONS,
    params=PARAMS,
    end_reasons=END_REASONS,
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    card_counters=("drawn", "played", "held_at_end"),
    policies=common_policies(
        GREEDY_HELP, GREEDY_PARAMS, rollouts=4, horizon=200,
        expert_refused="a real-time game: who plays, and when, follows the seats' reaction profiles (game "
                       "parameters), not choices; the one choice, which fitting card to play, is greedy's, and a "
                       "search over it would read the other seats' reaction times already drawn in the state, which "
                       "no player knows. Give stronger players faster or steadier profiles (--set reaction_median=...)"),
    kernels=Kernels(K.new_game, K.to_move, K.legal, K.step, K.outcome, K.clone, K.determinise, P.value,
                    P.greedy, K.card_counts, check=K.check),
    compile_tables=compile_tables,
    card_names=card_names,
    card_list_hash=card_list_hash,
    decode_trace=decode_trace,
    resolve_params=resolve_params,
    headline=headline,
    data_files=("sickdays-party/rules.toml", "sickdays-solo/rules.toml"),
    notes="Readings and what is not modelled: docs/assumptions.md (Use Up All Your Sick Days: party)",
    invariants=K.INVARIANTS,
)
