"""Overtime's declarative header: players, turn cap, parameters, columns, end reasons,
metrics, policies (the game and its modules: `__init__`).
"""
from __future__ import annotations

import polars as pl

from .. import metrics as M
from ..spec import Budgets, GameSpec, Kernels, common_policies, declared
from . import cards, constants, invariants, policies, rules, state, transcript
from .policies import GREEDY_PARAMS

GREEDY_HELP = ("scripted: works when rested and rests when tired (snooze priced by the tiredness levels it "
               "crosses), reacts to stop a leader, gives A cards away whenever it can, keeps the cards it "
               "values most")

# Overtime's own summary figures (summary.json's game_metrics): P(everybody loses),
# length, assignments, exhaustion, piles, and snooze per player round by round.
METRICS = (
    M.Rate(key="everybody_loses", label="P(everybody loses)", hits=pl.col("everybody_loses"),
           help="games in which 8 rounds passed and nobody cleared their A cards"),
    M.Mean(key="rounds", label="rounds played", value=pl.col("rounds"), counts=True),
    M.Mean(key="turns", label="turns played", value=pl.col("turns")),
    M.Mean(key="assignments_completed", label="A cards completed per seat", table="seats",
           value=pl.col("assignments_completed")),
    M.Mean(key="assignments_given", label="A cards given away per seat", table="seats",
           value=pl.col("assignments_given")),
    M.Mean(key="turns_exhausted", label="turns lost to exhaustion per seat", table="seats",
           value=pl.col("turns_exhausted")),
    M.Mean(key="reaction_piles", label="reaction piles per game", value=pl.col("reaction_piles")),
    # one mean per round, over the games that reached it (NaN: not reached, left out)
    M.Group(key="snooze_by_round", label="snooze per player at the end of round", members=tuple(
        M.Mean(key=str(r), value=pl.col(f"snooze_r{r}")) for r in range(1, constants.SNOOZE_COLS + 1))),
)

SPEC = GameSpec(
    name="overtime",
    title="Overtime",
    # 2: issue 19 (skip at 10+, Lost File, abilities per card, A-card choices, discard_assignment); 3: issue 40
    # item 11 ("the player that has the least amount of A cards" counts the giver: least_assignments_includes_yourself)
    version="3",
    min_players=2,
    max_players=constants.PMAX,
    default_players=4,
    # expert: flat greedy rollouts (depth 1) of 18 decisions, 32 iterations with a wide root (widen 2: a
    # card greedy ranks low is still tried); until session 30 it replaced greedy's pick only at 1.5 paired
    # standard errors (docs/assumptions.md, session 10); futility 1: a search stops once nothing tried is ahead of
    # greedy's pick on the worlds it shared with it. Session 16: with `value` fitted on greedy
    # self-play, this is stronger than the old 40-decision rollouts with futility 2 (+2.8 points
    # [+1.0, +4.6] on fresh deals) and 2.6 times faster (104 games/s with every seat expert on 2 cores).
    # Session 22: rollouts of 18 decisions (were 20), 1.1 times faster, no weaker within a 1-point margin
    # (one seat among greedy, seeds 6061 and 7070, 40,000 games paired: -0.1 points [-0.7, +0.4]).
    # Session 30: confidence 0 (was 1.5): the most visited option is played, with no test against greedy's
    # pick; with today's rollouts the test kept greedy's move where the search preferred another. Fresh
    # deals (seed 4, 1,000 deals, every seat in turn, paired with 1.5): one seat among lookahead 17.2% ->
    # 23.5% (+6.4 points [+4.7, +8.0]), among greedy 35.2% -> 43.1% (+8.0 [+6.1, +9.9]), no slower
    policies=common_policies(GREEDY_HELP, GREEDY_PARAMS, rollouts=2, horizon=40, expert_iterations=32,
                             expert_horizon=18, expert_depth=1, expert_widen=2.0, expert_confidence=0.0,
                             expert_futility=1),
    kernels=Kernels.named_in(rules, policies, invariants, state,
                             rollouts_inline=False),  # (the compile cost: simcore.spec.Kernels)
    metrics=METRICS,
    length_column="turns",
    rounds_column="rounds",
    # cold compile (docs/benchmarks.md): greedy loop 47.9 s, then the expert loop 39.6 s more (session 31);
    # ladder: 1,000 deals a rung
    budgets=Budgets(compile_seconds=50, search_compile_seconds=90, ladder_games=1_000),
    **declared(constants, invariants, cards, transcript),
)
