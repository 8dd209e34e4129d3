"""Overtime (`--game overtime`, 2-6 players): be the first Employee to complete,
discard or give away all of your Assignment cards within 8 rounds.

Modules: `constants` (zones, opcodes, offsets), `cards` (data loading,
validation, parameters, tables), `state` (state arrays and helpers),
`effects` (opcode interpreter, reaction piles), `engine` (turn flow and the
kernels of the shared loop), `policies` (scripted greedy), `transcript`.
"""
from __future__ import annotations

import numpy as np

from ..spec import Column, GameSpec, Kernels, common_policies
from . import constants as C
from .cards import PARAMS, card_list_hash, card_names, compile_tables, resolve_params
from .invariants import INVARIANTS, check
from .engine import card_counts, determinise, legal, new_game, outcome, step, to_move, value
from .policies import GREEDY_PARAMS, greedy
from .state import clone
from .transcript import decode_trace

GAME_COLUMNS = (
    Column("turns", "turns played"),
    Column("rounds", "rounds reached (Round tracker)"),
    Column("everybody_loses", "1 if 8 rounds passed with no winner"),
    Column("reactions", "reaction cards and abilities played"),
    Column("cancels", "cards canceled by reactions"),
    Column("reshuffles", "discard pile shuffled into a new deck"),
    Column("work_die_fails", "W cards canceled by a failed Work die roll"),
    Column("assignments_completed", "A cards completed (all players)"),
    Column("assignments_given", "A cards given or taken between players"),
    Column("reaction_piles", "windows in which at least one reaction was played (a pile resolved)"),
) + tuple(Column(f"snooze_r{r}", f"mean snooze per player at the end of round {r} (NaN if not reached)", "float32")
          for r in range(1, C.SNOOZE_COLS + 1))

SEAT_COLUMNS = (
    Column("assignments_completed", "A cards this seat completed"),
    Column("assignments_given", "A cards this seat gave away (or had taken)"),
    Column("assignments_received", "A cards this seat was given (or took)"),
    Column("assignments_left", "A cards left at the end"),
    Column("tasks_left", "tasks left on this seat's A cards at the end"),
    Column("turns_exhausted", "turns lost to the 10+ tiredness level"),
    Column("turns_skipped", "turns skipped (exhaustion or a card)"),
    Column("final_snooze", "snooze tokens at the end"),
    Column("work_die_fails", "W cards this seat lost to the Work die"),
    Column("reactions_played", "reactions this seat played"),
)

GREEDY_HELP = ("scripted: works when rested and rests when tired (snooze priced by the tiredness levels it "
               "crosses), reacts to stop a leader, gives A cards away whenever it can, keeps the cards it "
               "values most")


def headline(games, seats, params: dict) -> dict:
    """Overtime's own summary: P(everybody loses), length, assignments, snooze, exhaustion."""
    from analysis.stats import mean_ci, rate

    n = games.height
    lost = int(games["everybody_loses"].sum())
    out = {
        "everybody_loses": {"label": "P(everybody loses)", **rate(lost, n)},
        "rounds": {"label": "rounds played", **mean_ci(games["rounds"].to_numpy()),
                   "distribution": {str(int(k)): int(v) for k, v in
                                    zip(*np.unique(games["rounds"].to_numpy(), return_counts=True))}},
        "turns": {"label": "turns played", **mean_ci(games["turns"].to_numpy())},
        "assignments_completed": {"label": "A cards completed per seat",
                                  **mean_ci(seats["assignments_completed"].to_numpy())},
        "assignments_given": {"label": "A cards given away per seat", **mean_ci(seats["assignments_given"].to_numpy())},
        "turns_exhausted": {"label": "turns lost to exhaustion per seat", **mean_ci(seats["turns_exhausted"].to_numpy())},
        "reaction_piles": {"label": "reaction piles per game", **mean_ci(games["reaction_piles"].to_numpy())},
    }
    # one mean (with its interval and n: the games that reached that round) per round, so that
    # the summary can merge it across windows of games and memory stays flat as -n grows
    snz = {"label": "snooze per player at the end of round"}
    for r in range(1, C.SNOOZE_COLS + 1):
        col = games[f"snooze_r{r}"].to_numpy().astype(float)
        snz[str(r)] = mean_ci(col[~np.isnan(col)])
    out["snooze_by_round"] = snz
    return out


SPEC = GameSpec(
    name="overtime",
    title="Overtime",
    version="1",
    modes=("standard",),
    min_players=2,
    max_players=6,
    default_players=4,
    cooperative=False,
    max_decisions=3000,
    max_options=C.MAX_OPTIONS,
    params=PARAMS,
    end_reasons=("assignments_done", "rounds_out"),
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    card_counters=C.CARD_COUNTERS,
    policies=common_policies(GREEDY_HELP, GREEDY_PARAMS, rollouts=2, horizon=40, expert_iterations=16),
    kernels=Kernels(new_game, to_move, legal, step, outcome, clone, determinise, value, greedy, card_counts,
                    check=check),
    compile_tables=compile_tables,
    card_names=card_names,
    card_list_hash=card_list_hash,
    decode_trace=decode_trace,
    resolve_params=resolve_params,
    headline=headline,
    data_files=("overtime/rules.toml", "overtime/cards.toml"),
    notes="Reconstructed card list (data/overtime/cards.toml); readings in docs/assumptions.md (Overtime).",
    invariants=INVARIANTS,
)
