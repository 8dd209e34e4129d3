"""Sick Days solo / co-op's declarative header: players, turn cap, parameters, columns, end
reasons, headline metrics, policies (the game and its modules: `__init__`).
"""
from __future__ import annotations

import polars as pl

from balance.simcore import metrics as M
from balance.simcore.spec import Budgets, GameSpec, Kernels, common_policies, declared

from . import cards, constants, invariants, policies, rules, transcript


GREEDY_HELP = (
    "scores every option and takes the best: a card's progress toward three of its worker on a row or "
    "diagonal that can still be completed (open cells whose cards are still to come, minus a penalty per "
    "filler still needed), a big bonus for making a worker happy, a penalty for taking a cell another "
    "worker's two-card line needs; fillers (notes, happy workers' cards, blank events) are worth what they "
    "gain for a hand card of that column one row lower; discards prefer happy workers' and dead cards; "
    "a ready pizza refreshes the hand when nothing scores above refresh_at; the automa's card is placed when "
    "its play scores above zero, else discarded"
)
GREEDY_PARAMS = policies.GREEDY_PARAMS


LOST = pl.col("end_reason") != "all_happy"  # a loss or the turn cap: every game not won

METRICS = (
    M.Rate(key="win_rate", label="win rate", hits=pl.col("end_reason") == "all_happy",
           help="games in which every kept worker became happy"),
    M.Group(key="missing_cards", label="cards missing at a loss", members=(
        M.Counts(key="at_loss", value=pl.col("missing"), where=LOST, bare=True),
        M.Mean(key="mean", label="mean cards missing at a loss", value=pl.col("missing"), where=LOST),
    ), help="over unhappy workers, 3 minus the best line count (the rulebook's \"count how many cards you were missing\")"),
    M.Mean(key="pizzas_spent", label="pizzas spent per game", value=pl.col("pizzas_spent")),
    M.Mean(key="notes_used", label="Doctor's notes per game", value=pl.col("notes_used")),
    M.Mean(key="turns", label="turns per game", value=pl.col("turns")),
)


SPEC = GameSpec(
    name="sickdays-solo",
    title="Use Up All Your Sick Days: solo / co-op",
    version="1",
    modes=("solo", "co-op"),
    min_players=1,
    max_players=constants.MAXP,
    default_players=1,
    cooperative=True,
    max_decisions=constants.MAX_TURNS,
    card_counters=("drawn", "played", "noted", "discarded", "held_at_end", "taken_from_discard"),
    hand_counters=("drawn", "taken_from_discard"),  # the deal and draws; a card taken from the discard pile
    # expert's recheck 16: a challenger to greedy's pick is re-tested on 16 fresh worlds (no selection
    # bias) before it replaces it. Fresh deals, expert against recheck 0 (paired), seed 2026 / 99:
    # L1 96.2 -> 98.1 / 96.7 -> 97.2% (2,000 deals), L2 89.4 -> 94.2 / 89.6 -> 93.0, L3 88.8 -> 91.3 /
    # 88.3 -> 91.4, L4 76.4 -> 84.1 / 79.0 -> 81.7, L5 73.3 -> 82.9 / 70.9 -> 81.3 (1,000 each); +30% CPU
    # per decision, where 64 iterations (the same CPU) gave L4 77.0, L5 72.9 (seed 2026). Oracle - expert
    # then -0.3..+6.8 / +1.1..+9.7 points (L4 above 5). Stricter confidence tests (Sidak / Bonferroni
    # over the options tried, confidence 1.5) helped L4 as much but cost L1 2-4 points (seed 7).
    # Session 17: `value` fitted (policy.VALUE_TERMS, tests/fit_solo_value.py) at these same defaults,
    # fresh seeds 2026+99 paired against the old value: L3 +1.8, L4 +3.5 points (L1, L2, L5 n.s.);
    # oracle - expert +0.2 / +2.4 / +1.5 / +2.8 / +3.2 at L1-5 (docs/assumptions.md).
    policies=common_policies(GREEDY_HELP, GREEDY_PARAMS, rollouts=6, horizon=1000, expert_iterations=48,
                             expert_recheck=16, oracle=True),
    kernels=Kernels.named_in(rules, policies, invariants),
    metrics=METRICS,
    length_column="turns",
    setting_columns=("level",),
    # cold compile (docs/benchmarks.md): greedy loop 19.8 s (session 22), with expert 38 s; ladder: 4,000
    # deals a rung, lookahead (the slowest rung: full greedy rollouts) on 5% of them
    budgets=Budgets(compile_seconds=20, search_compile_seconds=40, ladder_games=4_000,
                    ladder_search_share=(("lookahead", 0.05), ("expert", 0.25), ("oracle", 0.25))),
    **declared(constants, invariants, cards, transcript),
)
