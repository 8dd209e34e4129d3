"""Four Day Weekend's declarative header: the spec (players, turn cap, parameters, columns, end
reasons, policies) and its own summary figures, declared (simcore.metrics): the summary computes them
window by window from the games and seats columns."""
from __future__ import annotations

import polars as pl

from .. import metrics as M
from ..spec import Budgets, GameSpec, Kernels, common_policies, declared
from . import cards, constants, invariants, policies, rules, transcript
from .policies import GREEDY_PARAMS

_ROUNDS = pl.col("rounds").clip(lower_bound=1)  # a game column (joined into the seats rows)
_ROUND_END_COLUMNS = ("rounds_btw", "rounds_exhausted", "rounds_turn_limit")
_ALL_ROUNDS = pl.sum_horizontal(*(pl.col(c) for c in _ROUND_END_COLUMNS))

METRICS = (
    M.Mean(key="points_per_game", label="Points per player per game", table="seats", value=pl.col("score")),
    M.Mean(key="points_per_round", label="Points per player per round", table="seats",
           value=pl.col("points_per_round")),
    M.Mean(key="sets_per_round", label="Scoring sets per player per round", table="seats",
           value=pl.col("sets_completed").cast(pl.Float64) / _ROUNDS.cast(pl.Float64)),
    M.Mean(key="turns_per_round", label="Turns per round (all players)",
           value=pl.col("turns").cast(pl.Float64) / _ROUNDS.cast(pl.Float64)),
    *(M.Rate(key=f"round_end_{c[len('rounds_'):]}", label=f"Rounds ending by {name}", hits=pl.col(c),
             trials=_ALL_ROUNDS)
      for name, c in zip(constants.ROUND_END_NAMES, _ROUND_END_COLUMNS)),
    M.Sums(key="round_ends", label="How rounds end (rounds)",
           parts=tuple((name, pl.col(c)) for name, c in zip(constants.ROUND_END_NAMES, _ROUND_END_COLUMNS))),
    M.Rate(key="refills_from_rows", label="Share of refills taken from other players' rows", table="seats",
           hits=pl.col("taken_from_rows"), trials=pl.col("taken_from_rows") + pl.col("drawn_from_pile")),
    M.Rate(key="shared_wins", label="Games with a shared win", hits=pl.col("tie")),
)

SPEC = GameSpec(
    name="four-day-weekend",
    title="Four Day Weekend",
    version="2",
    min_players=2,
    max_players=6,
    default_players=4,
    policies=common_policies(
        "rates cards by use to its active set: keeps what completes or doubles, takes from other rows when "
        "a card is worth it, plays the best Activity/Necessity/Bonus, locks scoring sets, declares Back To "
        "Work-ish when ahead",
        GREEDY_PARAMS,
        rollouts=8,
        horizon=8,
        # the search judges every option when the move comes back to the player (turns=2: after the
        # other players' turns, which take from its Personal Discard row), over flat greedy rollouts
        # (depth 1: a deeper tree explored this turn's later choices and was weaker), and replaces
        # greedy's pick at 1.5 paired standard errors (docs/assumptions.md, session 10); 12 iterations
        # with futility 1 (stop once nothing tried is ahead of greedy's pick on the worlds it shared, one
        # or more): the budget that plays 100 games/s with every seat expert on 2 cores (session 16: 107;
        # 16 iterations 95.5, and 2.1 points stronger as one seat among greedy on fresh deals, so
        # `--policy-param iterations=16` is the stronger, slower expert). Session 30: exploration 2 (was
        # 0.5): the 12 iterations spread over more of the options; chosen on seed 3, fresh deals (seed 5,
        # 1,200 deals, every seat in turn, paired with 0.5): one seat among lookahead 25.9% -> 27.7% (+1.9
        # points [+0.8, +2.9]), among greedy 48.7% -> 50.7% (+2.0 [+0.6, +3.4]), at the same speed. One seat
        # among lookahead 3 points over its share takes a larger budget (iterations 20 with exploration 2:
        # +3.5 over 1/4 on seed 5 at about 100 games/s; iterations 24 with exploration 1: +4.4 on seed 4 at
        # about 88): docs/benchmarks.md, session 30. Session 34: the search's own greedy takes from another
        # player's row at a use of 4.5 (the greedy policy's 4.0 takes a 1-point playable Necessity): chosen
        # on seed 3 (400 deals, 29 settings of single weights), fresh deals (seeds 7 and 8, 1,200 deals each,
        # every seat in turn, paired with 4.0): one seat among lookahead +2.8 [+1.3, +4.3] and +3.9
        # [+2.4, +5.4], +4.7 over the table's fair share on both; among greedy +6.5 [+4.7, +8.2]
        # (docs/assumptions.md)
        expert_take_threshold=4.5,
        expert_iterations=12,
        expert_exploration=2.0,
        expert_futility=1,
        expert_horizon=200,
        expert_turns=2,
        expert_depth=1,
        expert_confidence=1.5,
    ),
    kernels=Kernels.named_in(rules, policies, invariants),
    metrics=METRICS,
    length_column="turns",
    rounds_column="rounds",
    # cold compile (docs/benchmarks.md): greedy loop 23.1 s, then the expert loop 27.1 s more (session 31;
    # its rollouts inline its kernels); ladder: 1,000 deals a rung, a quarter of them for lookahead (and so
    # for expert against lookahead): at the fallback's tenth, 100 deals, the head to head read +3.2 [-0.8, +7.3]
    # points, no verdict; at 250, +4.2 [+1.7, +6.8] (seed 7, session 34), and the ladder still takes about 30 s
    budgets=Budgets(compile_seconds=25, search_compile_seconds=50, ladder_games=1_000,
                    ladder_search_share=(("lookahead", 0.25), ("expert", 0.25))),
    **declared(constants, invariants, cards, transcript),
)
