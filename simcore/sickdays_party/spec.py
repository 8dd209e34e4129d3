"""Sick Days party game's declarative header: players, turn cap, parameters (the behaviour
profiles), columns, end reasons, headline metrics, policies (the game and its modules: `__init__`).
"""
from __future__ import annotations

import polars as pl

from balance.simcore import metrics as M
from balance.simcore.spec import Budgets, GameSpec, Kernels, common_policies, declared

from . import cards, constants, invariants, policies, rules, transcript

CAUSE_NAMES = constants.CAUSE_NAMES
CAUSE_WORDS = constants.CAUSE_WORDS

GREEDY_HELP = (
    "plays the legal card least connected to the rest of its hand (fewest other cards of its worker or day), "
    "keeping event cards (wild) for when nothing else fits; advanced flow: makes a Doctor's note of that card "
    "with the seat's note_habit chance, plays its note when the hand is down to 2 cards or nothing else fits; "
    "puts a pizza slice back whenever it owes a draw-2; at a stall plays its least connected card. "
    "Speed and mistakes are the behaviour profile (game parameters), not the policy"
)
GREEDY_PARAMS = policies.GREEDY_PARAMS


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
    max_players=constants.MAXP,
    default_players=5,
    card_counters=("drawn", "played", "held_at_end"),
    hand_counters=("drawn",),  # the deal and every draw: the one way into a hand
    policies=common_policies(
        GREEDY_HELP, GREEDY_PARAMS, rollouts=4, horizon=200,
        expert_refused="a real-time game: who plays, and when, follows the seats' reaction profiles (game "
                       "parameters), not choices; the one choice, which fitting card to play, is greedy's, and a "
                       "search over it would read the other seats' reaction times already drawn in the state, which "
                       "no player knows. Give stronger players faster or steadier profiles (--set reaction_median=...)"),
    kernels=Kernels.named_in(rules, policies, invariants),
    metrics=METRICS,
    # cold compile (docs/benchmarks.md): greedy loop 21.6 s (session 15); ladder: 1,000 deals a rung
    budgets=Budgets(compile_seconds=22, ladder_games=1_000),
    play_refused="it is a real-time game (everyone plays at once, against the bots' reaction times), which a "
                 "turn-by-turn prompt cannot play fairly",
    behaviour_params=tuple(p.name for p in cards.PROFILE_PARAMS),  # reaction_median first: fitted to a log's minutes
    **declared(constants, invariants, cards, transcript),
)
