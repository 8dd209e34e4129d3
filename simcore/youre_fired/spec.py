"""You're Fired!'s declarative header: players, turn cap, parameters, columns, end reasons,
metrics, policies (the game and its modules: `__init__`).
"""
from __future__ import annotations

import polars as pl

from .. import metrics as M
from ..spec import Budgets, GameSpec, Kernels, common_policies, declared
from . import cards, constants, invariants, knowledge, policies, rules, state, transcript
from .policies import GREEDY_HELP, GREEDY_PARAMS


def _team_rate(team: int) -> M.Rate:
    """A team's win rate: games in which its first seat (seat `team`) won."""
    return M.Rate(key=f"team {team + 1} (players {team + 1} and {team + 3})", table="seats",
                  where=pl.col("seat") == team, hits=pl.col("won") > 0)


METRICS = (
    M.Rate(key="guess_hit_rate", label="guessing cards (Axe Man) that hit", table="seats",
           hits=pl.col("guesses_hit"), trials=pl.col("guesses")),
    M.Rate(key="boss_attempt_hit_rate", label="attempts on a Boss (guess or Boss play) that fired it", table="seats",
           hits=pl.col("boss_hits"), trials=pl.col("boss_attempts")),
    M.Mean(key="turns", label="game length in turns", value=pl.col("turns")),
    M.Counts(key="end_reasons", label="how games end", value=pl.col("end_reason"), rates=True),
    M.Mean(key="failed_firings", label="failed Boss firings (reshuffles) per game", value=pl.col("failed_firings")),
    M.Group(key="team_win_rates", label="win rate by team", only_if="teams", members=(
        M.Group(key="teams", members=(_team_rate(0), _team_rate(1))),
    )),
)

SPEC = GameSpec(
    name="youre-fired",
    title="You're Fired!",
    version="3",
    modes=("duel", "ffa", "teams"),
    min_players=2,
    max_players=constants.MAX_PLAYERS,
    default_players=2,
    max_options=512,
    card_counters=constants.COUNTER_NAMES,
    # expert: 48 iterations, rollouts of 20 decisions; confidence 0 (session 30): the most visited option is
    # played, no test against greedy's pick, which had made expert keep greedy's move where the search
    # preferred another. On fresh deals (seed 4, 3,000 deals, both seatings, paired with confidence 0.5):
    # one seat among lookahead 47.8% -> 54.8% (+6.9 points [+5.7, +8.2]), among greedy 68.0% -> 71.3%
    # (+3.3 [+2.3, +4.4]), at the same speed (docs/benchmarks.md, session 30)
    policies=common_policies(GREEDY_HELP, GREEDY_PARAMS, rollouts=4, horizon=40, expert_iterations=48, expert_horizon=20,
                             expert_confidence=0.0),
    kernels=Kernels.named_in(rules, policies, invariants, knowledge, state),
    metrics=METRICS,
    length_column="turns",
    # cold compile (docs/benchmarks.md): greedy loop 24.8 s (session 22), with expert 43 s; ladder: 4,000 deals a rung
    budgets=Budgets(compile_seconds=25, search_compile_seconds=45, ladder_games=4_000),
    card_power_note=cards.card_power_note,
    **declared(constants, invariants, cards, transcript),
)
