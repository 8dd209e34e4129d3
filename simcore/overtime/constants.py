"""Overtime: zones, card types, effect opcodes, state offsets (all plain ints), and the
result columns.

Card instances are numbered main deck first, then the 30 assignments (kind j,
copy c at A0 + j * copies + c), then the six Average Joe/Joanna cards.
"""
from ..spec import Column, action_index, end_index, game_index, seat_index

PMAX = 6
HAND_CAP = 40
PILE_CAP = 64
EVQ_CAP = 16
MAX_EFF = 6  # effects per card; ability effects follow at MAX_EFF..2*MAX_EFF
MAX_ROUNDS = 12
SNOOZE_COLS = 8  # snooze_r1..snooze_r8 recorded
MAX_OPTIONS = 512
# The state is one record of fixed size (see state.py), so these bound a card list:
NINST_MAX = 512  # card instances: the main deck, the assignments and the Average Joes
NKINDS_MAX = 128  # card kinds, assignments and the Average Joe included
# state.rem (see state.assignment_memo): tasks left per seat, each seat's A card
# nearest completion, and whether they are up to date
REM_NEAREST = PMAX
REM_VALID = 2 * PMAX
NREM = 2 * PMAX + 1

# zones
Z_BOX = 0  # not in this game (assignments / Joes of absent seats)
Z_DECK = 1
Z_HAND = 2
Z_DISCARD = 3
Z_EMPLOYEE = 4  # a player's active E card
Z_ASSIGN = 5  # an assignment on the table
Z_ATTACHED = 6  # Work attached to an assignment (link = assignment instance)
Z_PILE = 7  # just played, in a reaction pile
Z_OUT = 8  # completed or discarded assignments, removed from play
ZONE_NAMES = ("box", "deck", "hand", "discard", "employee", "assignment", "attached", "pile", "out")

# card type bits
T_W = 1
T_R = 2
T_E = 4
T_S = 8
T_B = 16
T_A = 32
TYPE_BITS = {"W": T_W, "R": T_R, "E": T_E, "S": T_S, "B": T_B, "A": T_A}
T_ACTION = T_W | T_R | T_E
T_REACTION = T_S | T_B

# effect opcodes (card file names in cards.OPCODES)
OP_NONE = 0
OP_WORK = 1  # attach to an assignment, complete n tasks on it
OP_TOKENS = 2  # n task tokens on another of your assignments
OP_SNOOZE = 3  # gain n (n < 0: remove) snooze tokens
OP_DRAW = 4
OP_TAKE_DISCARD = 5  # take n cards of the given types from the discard pile
OP_CANCEL = 6  # cancel the card reacted to, if of the given types
OP_COPY = 7  # copy the effect of the card reacted to
OP_GIVE_ASSIGNMENT = 8
OP_TAKE_ASSIGNMENT = 9
OP_SKIP_TURN = 10
OP_DISCARD_WORK = 11  # discard a W attached to an assignment of who (its tasks are lost)
OP_DISCARD_SNOOZE = 12  # discard (not remove) all snooze tokens
OP_WORK_BONUS = 13  # passive: +n tasks on each W you play
OP_SNOOZE_SHIELD = 14  # passive: gain n fewer snooze each time
OP_DISCARD_ASSIGNMENT = 15  # who discards one of their A cards: not completed ("it just goes away")

# who
W_SELF = 0
W_ANOTHER = 1  # chosen by the player, not themself
W_ANY = 2  # chosen by the player
W_ALL = 3
W_OTHERS = 4
W_TARGET_OWNER = 5  # the player of the card reacted to
# another player who has the fewest A cards of all, or is tied for them (ties: the target owner, else the first
# from the actor's left); with least_assignments_includes_yourself (the default) the actor counts too, so when
# the actor alone has the fewest there is nobody ("the player that has the least amount of A cards left, or
# is tied for the least": Work Is Its Own Reward)
W_LEAST_ASSIGNMENTS = 6
W_CURRENT = 7  # the player whose turn it is

# the chosen target of an action card
TG_NONE = 0
TG_ASSIGNMENT = 1  # one of your assignments
TG_ANOTHER = 2
TG_ANY = 3

# reaction events
RE_CARD = 0  # a card of the given types is played
RE_COMPLETED = 1  # a player completes an A card
RB_OTHER = 0
RB_ANY = 1

# ability kinds
AB_NONE = 0
AB_ACTION = 1
AB_REACTION = 2
AB_PASSIVE = 3

# kind table columns (tables[1])
KF_TYPE = 0
KF_REACT_MASK = 1
KF_REACT_EVENT = 2
KF_REACT_BY = 3
KF_TARGET = 4
KF_P = 5
KF_L = 6
KF_D = 7
KF_SHIFT = 8
KF_ABIL = 9
KF_ABIL_USES = 10
KF_ABIL_REACT_MASK = 11
KF_ABIL_REACT_EVENT = 12
KF_ABIL_REACT_BY = 13
KF_TASKS = 14  # assignment tasks
KF_IS_REACTION = 15
KF_WORK = 16  # tasks of its work effects (heuristics)
KF_ABIL_TAKE_MASK = 17  # types an action ability takes from the discard pile (0 none)
NKF = 18

# effect columns (tables[2][kind, j, :])
EF_OP = 0
EF_N = 1
EF_WHO = 2
EF_MASK = 3

# rules array (tables[0])
R_ROUNDS = 0
R_T1 = 1
R_T2 = 2
R_T3 = 3
R_PEN1 = 4
R_PEN2 = 5
R_DIE1 = 6
R_DIE2 = 7
R_DIE3 = 8
R_START_SNOOZE = 9
R_START_HAND = 10
R_SKIP_DRAW = 11
R_EXHAUST_IS_SKIP = 12
R_FIRST_E_FREE = 13
R_JOE_KIND = 14
R_N_MAIN = 15
R_A0 = 16
R_N_AKINDS = 17
R_A_COPIES = 18
R_J0 = 19
R_N_INST = 20
R_N_KINDS = 21
R_FIRST_ASSIGN_KIND = 22
R_DIE_SIDES = 23
R_TIME0 = 24  # time_snooze[r - 1] for r = 1..MAX_ROUNDS
R_WORK_FOLLOWS = R_TIME0 + MAX_ROUNDS  # moved_assignment_keeps_work: a W card goes on its A card after a give/take
# least_assignments_includes_yourself: who "least_assignments" counts the card's player among those with the fewest
R_LEAST_YOURSELF = R_WORK_FOLLOWS + 1
# card power (analysis.card_power): the one more copy of a main-deck kind is instance R_POWER_INST, the last
# of the main deck, kept out of the deck and dealt into one seat's opening hand in place of a random card
# of it (which goes to the bottom of the deck); -1 none. R_POWER_SEAT: that seat, or -1 drawn per game.
R_POWER_INST = R_LEAST_YOURSELF + 1
R_POWER_SEAT = R_POWER_INST + 1
NR = R_POWER_SEAT + 1
# which seat, and which card of its hand, are drawn from the game's deal key (its deal stream's first
# state) hashed with these salts, never from a stream (analysis.card_power.SEAT_SALT / SLOT_SALT, the same)
POWER_SEAT_SALT = 0x43415244504F5752  # "CARDPOWR"
POWER_SLOT_SALT = 0x534C4F54504F5752  # "SLOTPOWR"

# game scalars (state.g)
G_NP = 0
G_PHASE = 1
G_CUR = 2
G_ROUND = 3
G_TURNS = 4
G_ACTIONS_USED = 5
G_ACTED = 6
G_OFFER = 7
G_PASSES = 8
G_PILE_N = 9
G_DECK_N = 10
G_END = 11  # end reason code (0 while running)
G_SKIP_NOW = 12
G_REACTIONS = 13
G_CANCELS = 14
G_RESHUFFLES = 15
G_DIE_FAILS = 16
G_EV_N = 17
G_IN_TURN = 18  # the turn player is in the action phase (exhaustion checks apply)
G_COMPLETIONS = 19
G_GIVES = 20
G_WINDOWS = 21
G_PILES_RESOLVED = 22  # windows in which at least one reaction was played
G_SNZ = 23  # sum of snooze at the end of round r (SNOOZE_COLS slots)
G_NINST = G_SNZ + SNOOZE_COLS  # card instances in this game (rules[R_N_INST])
G_NKINDS = G_NINST + 1  # card kinds in this game (rules[R_N_KINDS])
G_CH_ENTRY = G_NKINDS + 1  # PH_CHOOSE: the pile entry whose A card is being chosen
G_CH_SLOT = G_CH_ENTRY + 1  # PH_CHOOSE: which of its choices (0..NCH-1)
G_CH_WHO = G_CH_SLOT + 1  # PH_CHOOSE: the seat that chooses (the card's player)
G_DISCARDS = G_CH_WHO + 1  # A cards discarded without being completed (all players)
NG = G_DISCARDS + 1

# phases
PH_ACTION = 0
PH_REACT = 1
PH_DISCARD = 2
PH_OVER = 3
PH_CHOOSE = 4  # a card just played asks its player which A card it moves, works on or discards

# per player (state.ps)
P_SNOOZE = 0
P_EMP = 1  # instance of the active E card
P_HAND_N = 2
P_N_ASSIGN = 3
P_COMPLETED = 4
P_GIVEN = 5
P_RECEIVED = 6
P_EXHAUSTED = 7
P_SKIPPED = 8
P_SKIP_NEXT = 9
P_ABIL_USED = 10  # abilities used this round (all of the player's E cards; each card's own use: state.abil)
P_DIE_FAILS = 11
P_REACTIONS = 12
P_WON = 13
P_START_ASSIGN = 14
P_CANCELLED_BY_OTHERS = 15
P_DISCARDED = 16  # A cards this player discarded without completing them
P_REACT_SLOTS = 17  # bit i set: hand slot i holds a reaction card (kept with the hand: state.add_to_hand ...)
NPS = 18

# pile entries (state.pile)
PF_CARD = 0  # instance, -1 for an event lead
PF_PLAYER = 1
PF_TARGET = 2  # entry reacted to (-1 for the lead)
PF_CANCELLED = 3
PF_COVERED = 4
PF_ARG = 5  # chosen target of a lead (assignment instance or player)
PF_PILE = 6  # index of the pile's first entry
PF_KIND = 7  # card kind, or -1 for an event
PF_CH1 = 8  # the A cards its player chose for its effects that pick one (work in a reaction or a copy,
PF_CH2 = 9  # give, take, discard an A card), in effect order; -1: the fixed rule (docs/assumptions.md)
NCH = 2  # choices per card; further such effects follow the fixed rules
NPF = 10

# card counters
CC_DRAWN = 0
CC_PLAYED = 1
CC_CANCELLED = 2
CC_HELD = 3
CC_TAKEN = 4  # taken into the hand from the discard pile (OP_TAKE_DISCARD); "drawn" counts deck draws only
CARD_COUNTERS = ("drawn", "played", "cancelled", "held_at_end", "taken_from_discard")
N_CC = len(CARD_COUNTERS)
# every way into a hand: the deal and draws from the deck, and taking from the discard pile
# (a give or take moves an A card on the table, never a hand card)
HAND_COUNTERS = ("drawn", "taken_from_discard")

# option codes: kind << 24 | a << 12 | b
O_END = 0  # end the action phase / pass a reaction
O_PLAY = 1  # a = hand slot, b = target (assignment instance or player)
O_ABILITY = 2  # b = card kind taken from the discard pile (or pile entry for reactions)
O_DISCARD = 3  # a = hand slot
O_REACT = 4  # a = hand slot, b = pile entry
O_ABILITY_REACT = 5  # b = pile entry
O_CHOOSE = 6  # b = the A card instance chosen (PH_CHOOSE)
# What an option does (rules.action), declared once (the spec's action_kinds): play a card in the
# action phase, use the employee's ability, end the action phase, react to a pile entry with a card
# or with the ability, pass a reaction, choose the A card an effect works on, discard a card.
ACTION_KINDS = ("play", "ability", "end_actions", "react", "ability_react", "pass_reaction", "choose", "discard")
ACT = action_index(ACTION_KINDS)

# ---- end reasons, declared once (the spec's end_reasons); END.<name> is the code written
END_REASONS = ("assignments_done", "rounds_out")
END = end_index(END_REASONS)  # END.cap 0 and END.no_move 1 are the runner's; the game's from 2

# trace codes
EV_SETUP = 1
EV_ROUND = 2
EV_TURN = 3
EV_PLAY = 4
EV_DIE = 5
EV_REACT = 6
EV_ABILITY = 7
EV_RESOLVE = 8
EV_WORK = 9
EV_COMPLETE = 10
EV_SNOOZE = 11
EV_GIVE = 12
EV_DRAW = 13
EV_DISCARD = 14
EV_EXHAUST = 15
EV_SKIP = 16
EV_EMPLOYEE = 17
EV_RESHUFFLE = 18
EV_END = 19
EV_TAKE_DISCARD = 20
EV_WINDOW = 21
EV_EVENT = 22
EV_WORK_LOST = 23
EV_CANCEL = 24
EV_TOKENS = 25
EV_SKIP_SET = 26
EV_PASS_END = 27
EV_END_ACTIONS = 28
EV_SNOOZE_DISCARD = 29
EV_TOKENS_LOST = 30
EV_CHOOSE = 31
EV_A_DISCARD = 32
EV_NO_RECIPIENT = 33  # a give to the player with the fewest A cards finds the giver alone has the fewest

# ---- result columns ------------------------------------------------------------
# Overtime's result columns, declared once: the spec lists them and `outcome`
# writes them by name (`game_row[GC.turns]`, `seat_rows[p, SC.final_snooze]`).
#
# Bounds are the engine's true limits: a game has at most MAX_ROUNDS rounds of
# one turn per seat and SPEC.max_decisions decisions (every reaction, play and
# cancel is one); a card list holds at most NINST_MAX cards.
MAX_DECISIONS = 3000  # the turn cap (SPEC.max_decisions)
MAX_TURNS = MAX_ROUNDS * PMAX
MAX_TASKS = NINST_MAX * 30  # every A card of a list at its largest task count
MAX_SNOOZE = 1_000_000  # snooze has no printed cap (tokens are unlimited, docs/assumptions.md)
MAX_RESHUFFLES = 100_000  # each is followed by a draw, and draws are bounded by the cards that leave hands

GAME_COLUMNS = (
    Column("turns", "turns played", low=0, high=MAX_TURNS),
    Column("rounds", "rounds reached (Round tracker)", low=1, high=MAX_ROUNDS),
    Column("everybody_loses", "1 if 8 rounds passed with no winner", low=0, high=1),
    Column("reactions", "reaction cards and abilities played", low=0, high=MAX_DECISIONS),
    Column("cancels", "cards canceled by reactions", low=0, high=MAX_DECISIONS),
    Column("reshuffles", "discard pile shuffled into a new deck", low=0, high=MAX_RESHUFFLES),
    Column("work_die_fails", "W cards canceled by a failed Work die roll", low=0, high=MAX_DECISIONS),
    Column("assignments_completed", "A cards completed (all players)", low=0, high=NINST_MAX),
    Column("assignments_given", "A cards given or taken between players", low=0, high=MAX_DECISIONS * MAX_EFF * 2),
    Column("reaction_piles", "windows in which at least one reaction was played (a pile resolved)",
           low=0, high=MAX_DECISIONS),
) + tuple(Column(f"snooze_r{r}", f"mean snooze per player at the end of round {r} (NaN if not reached)", "float32",
                 low=0, high=MAX_SNOOZE, nan_ok=True)
          for r in range(1, SNOOZE_COLS + 1))

SEAT_COLUMNS = (
    Column("assignments_completed", "A cards this seat completed", low=0, high=NINST_MAX),
    Column("assignments_given", "A cards this seat gave away (or had taken)", low=0, high=MAX_DECISIONS * MAX_EFF * 2),
    Column("assignments_received", "A cards this seat was given (or took)", low=0, high=MAX_DECISIONS * MAX_EFF * 2),
    Column("assignments_left", "A cards left at the end", low=0, high=NINST_MAX),
    Column("tasks_left", "tasks left on this seat's A cards at the end", low=0, high=MAX_TASKS),
    Column("turns_exhausted", "turns lost to the 10+ tiredness level", low=0, high=MAX_ROUNDS),
    Column("turns_skipped", "turns skipped (exhaustion or a card)", low=0, high=MAX_ROUNDS),
    Column("final_snooze", "snooze tokens at the end", low=0, high=MAX_SNOOZE),
    Column("work_die_fails", "W cards this seat lost to the Work die", low=0, high=MAX_DECISIONS),
    Column("reactions_played", "reactions this seat played", low=0, high=MAX_DECISIONS),
    Column("assignments_discarded", "A cards this seat discarded without completing them (a card's effect)",
           low=0, high=NINST_MAX),
)

GC = game_index(GAME_COLUMNS)  # GC.turns: the position of `turns` in a game row
SC = seat_index(SEAT_COLUMNS)  # SC.won, SC.score, SC.assignments_completed, ...
