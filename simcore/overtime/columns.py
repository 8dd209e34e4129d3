"""Overtime's result columns, declared once: the spec lists them and `outcome`
writes them by name (`game_row[GC.turns]`, `seat_rows[p, SC.final_snooze]`).

Bounds are the engine's true limits: a game has at most MAX_ROUNDS rounds of
one turn per seat and SPEC.max_decisions decisions (every reaction, play and
cancel is one); a card list holds at most NINST_MAX cards.
"""
from ..spec import Column, game_index, seat_index
from . import constants as C

MAX_DECISIONS = 3000  # the turn cap (SPEC.max_decisions)
MAX_TURNS = C.MAX_ROUNDS * C.PMAX
MAX_TASKS = C.NINST_MAX * 30  # every A card of a list at its largest task count
MAX_SNOOZE = 1_000_000  # snooze has no printed cap (tokens are unlimited, docs/assumptions.md)
MAX_RESHUFFLES = 100_000  # each is followed by a draw, and draws are bounded by the cards that leave hands

GAME_COLUMNS = (
    Column("turns", "turns played", low=0, high=MAX_TURNS),
    Column("rounds", "rounds reached (Round tracker)", low=1, high=C.MAX_ROUNDS),
    Column("everybody_loses", "1 if 8 rounds passed with no winner", low=0, high=1),
    Column("reactions", "reaction cards and abilities played", low=0, high=MAX_DECISIONS),
    Column("cancels", "cards canceled by reactions", low=0, high=MAX_DECISIONS),
    Column("reshuffles", "discard pile shuffled into a new deck", low=0, high=MAX_RESHUFFLES),
    Column("work_die_fails", "W cards canceled by a failed Work die roll", low=0, high=MAX_DECISIONS),
    Column("assignments_completed", "A cards completed (all players)", low=0, high=C.NINST_MAX),
    Column("assignments_given", "A cards given or taken between players", low=0, high=MAX_DECISIONS * C.MAX_EFF * 2),
    Column("reaction_piles", "windows in which at least one reaction was played (a pile resolved)",
           low=0, high=MAX_DECISIONS),
) + tuple(Column(f"snooze_r{r}", f"mean snooze per player at the end of round {r} (NaN if not reached)", "float32",
                 low=0, high=MAX_SNOOZE, nan_ok=True)
          for r in range(1, C.SNOOZE_COLS + 1))

SEAT_COLUMNS = (
    Column("assignments_completed", "A cards this seat completed", low=0, high=C.NINST_MAX),
    Column("assignments_given", "A cards this seat gave away (or had taken)", low=0, high=MAX_DECISIONS * C.MAX_EFF * 2),
    Column("assignments_received", "A cards this seat was given (or took)", low=0, high=MAX_DECISIONS * C.MAX_EFF * 2),
    Column("assignments_left", "A cards left at the end", low=0, high=C.NINST_MAX),
    Column("tasks_left", "tasks left on this seat's A cards at the end", low=0, high=MAX_TASKS),
    Column("turns_exhausted", "turns lost to the 10+ tiredness level", low=0, high=C.MAX_ROUNDS),
    Column("turns_skipped", "turns skipped (exhaustion or a card)", low=0, high=C.MAX_ROUNDS),
    Column("final_snooze", "snooze tokens at the end", low=0, high=MAX_SNOOZE),
    Column("work_die_fails", "W cards this seat lost to the Work die", low=0, high=MAX_DECISIONS),
    Column("reactions_played", "reactions this seat played", low=0, high=MAX_DECISIONS),
    Column("assignments_discarded", "A cards this seat discarded without completing them (a card's effect)",
           low=0, high=C.NINST_MAX),
)

GC = game_index(GAME_COLUMNS)  # GC.turns: the position of `turns` in a game row
SC = seat_index(SEAT_COLUMNS)  # SC.won, SC.score, SC.assignments_completed, ...
