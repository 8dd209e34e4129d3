"""Four Day Weekend: zones, card kinds, effect opcodes, option codes, offsets.

Everything a kernel indexes by name lives here as a plain integer so that the
kernels, the card compiler, the policies and the transcript agree; the result
columns are declared here too, and `outcome` writes them by name (G, S).
"""
from ..spec import Column, action_index, end_index, game_index, seat_index

# Card kinds (rulebook: "There are five types of cards": Excuses, Activities,
# the Necessities, Bonuses).
KIND_NAMES = ("excuse", "activity", "necessity", "bonus")
EXCUSE, ACTIVITY, NECESSITY, BONUS = range(len(KIND_NAMES))

# Colours of Activities and Necessities; a wheel is a bit mask of these.
COLOUR_NAMES = ("red", "yellow", "blue")
RED, YELLOW, BLUE = range(len(COLOUR_NAMES))
NO_COLOUR = -1

# Necessity types (a set holds one of each at most).
TYPE_NAMES = ("food", "transportation", "shelter", "cash")
FOOD, TRANSPORTATION, SHELTER, CASH = range(len(TYPE_NAMES))
N_TYPES = len(TYPE_NAMES)

# Card table columns (tables[T_CARDS][card, column]).
C_KIND = 0
C_COLOUR = 1
C_POINTS = 2
C_TYPE = 3  # necessity type, -1 otherwise
C_WHEEL = 4  # activity: bit mask of colours it doubles
C_COUNT = 5
C_ROLE = 6  # the set slot the card goes to: S_EXCUSE, S_ACTIVITY, S_BONUS or S_NEC + type
N_CARD_COLUMNS = 7

# Bonus instructions: tables[T_BONUS][card, k] = (opcode, arg, amount); OP_NONE ends.
OP_NONE = 0
OP_MULTIPLY_TYPE = 1  # arg type, amount factor: that Necessity's points (after colour doubling) x factor
OP_MULTIPLY_COLOUR = 2  # arg colour, amount factor: Necessities of that colour x factor
OP_MULTIPLY_ACTIVITY = 3  # amount factor: the Activity's points x factor
OP_ADD_PER_NECESSITY = 4  # amount per Necessity in the set
OP_ADD_IF_TYPE = 5  # arg type: amount if the set holds that Necessity type
OP_ADD_IF_ALL_TYPES = 6  # amount if the set holds all four Necessity types
OP_ADD_FLAT = 7  # amount
OP_MULTIPLY_SET = 8  # amount factor: everything in the set so far
OP_ADD_PER_DOUBLED = 9  # amount per Necessity doubled by the Activity's colour wheel
# (the card file names them: cards.BONUS_EFFECTS, a declared Vocabulary)
MAX_BONUS_OPS = 4

# Tables tuple positions.
T_CARDS = 0
T_BONUS = 1
T_INSTANCES = 2  # instance -> card id
T_RULES = 3

# Rule slots (tables[T_RULES]).
R_HAND_SIZE = 0
R_LOCKED_TO_DECLARE = 1
R_ROUNDS_PER_PLAYER = 2  # 0: the rulebook's (2 for 2-3 players, else 1)
R_COLOUR_MULTIPLIER = 3
R_ROUND_TURN_LIMIT = 4
R_RESHUFFLE_DISCARDS = 5
R_DECLARER_PILE_ONLY = 6
R_ACTIVE_SET_SCORES = 7
R_LOCKED_PER_PLAYER = 8
# card power (analysis.card_power): the one more copy of a card is instance R_POWER_INST (the last one), kept
# out of every round's shuffle and dealt into one seat's opening hand in place of a card of it (which goes to
# the bottom of the Draw pile); -1 none. R_POWER_SEAT: that seat, or -1 drawn per game from its deal key.
R_POWER_INST = 9
R_POWER_SEAT = 10
N_RULES = 11
# the seat, and each round the card of its hand, are drawn from the deal stream's state at the round's
# start hashed with these salts, never from a stream (analysis.card_power.SEAT_SALT / SLOT_SALT, the same)
POWER_SEAT_SALT = 0x43415244504F5752  # "CARDPOWR"
POWER_SLOT_SALT = 0x534C4F54504F5752  # "SLOTPOWR"

# Zones of a card instance.
Z_DRAW = 0
Z_HAND = 1
Z_ROW = 2  # a personal discard row
Z_REALLY = 3  # the central Really Discarded pile
Z_SET = 4
ZONE_NAMES = ("draw", "hand", "row", "really", "set")

# Slots of a set.
S_EXCUSE = 0
S_ACTIVITY = 1
S_BONUS = 2
S_NEC = 3  # S_NEC + necessity type
N_SLOTS = 7
# float scratch of the policies (State.f): per role (set slot) the best use in
# hand and its hand slot, then the use of each hand slot (then F_OPT below)
F_ROLE_BEST = 0
F_ROLE_SLOT = N_SLOTS
F_USE = 2 * N_SLOTS

HAND_MAX = 8  # hand_size may go up to this
ROW_MAX = 2 * HAND_MAX  # discards plus the hand dumped after Back To Work-ish

# Phases of the player to move.
PH_START = 0  # before the sweep: declare Back To Work-ish now, or carry on
PH_DISCARD = 1
PH_REFILL = 2
PH_PLAY = 3
PH_OVER = 4
PHASE_NAMES = ("start", "discard", "refill", "play", "over")

# Option codes.
OPT_DECLARE = 0
OPT_CONTINUE = 1  # start: don't declare / discard: done discarding / play: end turn
OPT_DRAW = 2
OPT_DISCARD = 10  # + hand slot
OPT_PLAY = 30  # + hand slot
OPT_TAKE = 100  # + seat * ROW_MAX + row position
# What an option does (rules.action), declared once (the spec's action_kinds): declare Back To
# Work-ish; carry on without declaring (start of the turn), stop discarding, end the turn (the three
# readings of OPT_CONTINUE); discard a hand card; draw; take a card from another's row; play a card.
ACTION_KINDS = ("declare", "carry_on", "stop_discarding", "end_turn", "discard", "draw", "take", "play")
ACT = action_index(ACTION_KINDS)
MAX_OPTIONS = 128
F_OPT = F_USE + HAND_MAX  # State.f: then a value per option
N_FSCRATCH = F_OPT + MAX_OPTIONS
# then per card id c: f[F_CARD_USE + 2c] the epoch stamp of f[F_CARD_USE + 2c + 1],
# the card's use to the seat to move (policies.turn_use)
F_CARD_USE = N_FSCRATCH

# meta offsets (state.meta).
M_PLAYERS = 0
M_ROUND = 1
M_N_ROUNDS = 2
M_FIRST = 3
M_CUR = 4
M_PHASE = 5
M_ROUND_TURNS = 6
M_TURNS = 7
M_DECLARER = 8  # seat that declared Back To Work-ish this round, -1 none
M_DECLARED_TURN = 9  # 1 while the declarer's own turn is running
M_FINAL_LEFT = 10
M_EXHAUSTED = 11
M_PILE_ONLY = 12  # this turn's refill must come from the Draw pile
M_DRAW_N = 13
M_REALLY_N = 14
M_RESHUFFLES = 15
M_ROUNDS_BTW = 16
M_ROUNDS_EXHAUSTED = 17
M_ROUNDS_LIMIT = 18
M_OVER = 19
M_MAX_SETS = 20
M_N_INST = 21
M_LAST_END = 22
M_LOCKED = 23  # locked sets in play, all seats together (kept by step; sets_rebuilt recounts)
# offsets of the state's sections inside its one int64 array (set by new_game)
O_ZONE = 24
O_OWNER = 25
O_DRAW = 26
O_REALLY = 27
O_HAND = 28  # [seats, HAND_MAX]
O_HAND_N = 29
O_ROW = 30  # [seats, ROW_MAX]
O_ROW_N = 31
O_SETS = 32  # [seats, max_sets, N_SLOTS]
O_N_SETS = 33
O_SCORE = 34
O_ROUND_PTS = 35
O_SEAT_STATS = 36  # [seats, N_SEAT_STATS]
O_CONTRIB = 37  # scratch (6)
O_NECS = 38  # scratch (4)
O_PROV = 39  # [seats] memo of provisional_points, PROV_STALE after the seat's sets changed
O_END = 40
M_EPOCH = 41  # +1 at every turn and every card played into a set: the mover's set is unchanged within one epoch
M_TOOK_ROW = 42  # 1 once the seat to move has taken a card from another player's row this turn
M_POWER_SEAT = 43  # card power: the seat dealt the one more copy each round (-1 none)
N_META = 44
PROV_STALE = -(1 << 62)  # below any set's points

# Round end reasons (trace and counts).
RE_BTW = 0
RE_EXHAUSTED = 1
RE_TURN_LIMIT = 2
# ---- end reasons, declared once (the spec's end_reasons); END.<name> is the code written
END_REASONS = ("completed",)
END = end_index(END_REASONS)  # END.cap 0 and END.no_move 1 are the runner's; the game's from 2

ROUND_END_NAMES = ("back to work-ish", "cards ran out", "round turn limit")

# Per-seat stats (state.seat_stats).
SS_SETS_COMPLETED = 0
SS_SETS_STARTED = 1
SS_TAKEN = 2
SS_DRAWN = 3
SS_DECLARED = 4
SS_BEST_ROUND = 5
SS_TURNS = 6
SS_ROUNDS_WON = 7
N_SEAT_STATS = 8

# Card counters (state.counts[seat, card, kind]).
CC_DRAWN = 0
CC_PLAYED = 1
CC_TAKEN = 2
CC_SCORED = 3
CC_HELD_AT_END = 4
CARD_COUNTERS = ("drawn", "played", "taken_from_row", "scored", "held_at_end")
# every way into a hand: the deal and draws (drawn), taking from another player's row (taken_from_row)
HAND_COUNTERS = ("drawn", "taken_from_row")

# Trace event codes.
EV_ROUND_START = 1  # round, first seat, draw pile size
EV_DEAL = 2  # seat, card
EV_SWEEP = 3  # seat, n cards
EV_DISCARD = 4  # seat, card
EV_DRAW = 5  # seat, card
EV_TAKE = 6  # seat, from seat, card
EV_RESHUFFLE = 7  # n cards
EV_PLAY = 8  # seat, card, set number
EV_NEW_SET = 9  # seat, excuse card, set number, locked sets in play
EV_DECLARE = 10  # seat, before sweep (1/0), locked sets, phase it was declared in
EV_END_TURN = 11  # seat, round turn, hand size
EV_DUMP = 12  # seat, card
EV_EXHAUSTED = 13  # seat
EV_ROUND_END = 14  # round, reason
EV_SET_SCORE = 15  # seat, set number, points, complete
EV_ROUND_SCORE = 16  # seat, round points, total
EV_GAME_END = 17  # winners mask, top score, ties
EV_TURN_START = 18  # seat, round turn

# ---------------------------------------------------------------- result columns
# Declared once; `outcome` writes game_row[G.turns], seat_rows[p, S.won]...
MAX_DECISIONS = 60_000  # the turn cap (GameSpec.max_decisions)
MAX_ROUNDS = 4 * 6  # rounds_per_player (at most 4) x players (at most 6)
# Points have no small true bound once a designer's Bonus factors (up to 20,
# several per card) multiply them; this one is far above any reachable score.
MAX_POINTS = 1e9

GAME_COLUMNS = (
    Column("turns", "turns played over all rounds", low=0, high=MAX_DECISIONS),
    Column("rounds", "rounds played", low=0, high=MAX_ROUNDS),
    Column("winners", "seats sharing the most points (1: a sole winner)", low=1, high=6),
    Column("tie", "1 when the win is shared", "int8", low=0, high=1),
    Column("rounds_btw", "rounds ended by Back To Work-ish", low=0, high=MAX_ROUNDS),
    Column("rounds_exhausted", "rounds ended because the Draw and Really Discarded piles ran out",
           low=0, high=MAX_ROUNDS),
    Column("rounds_turn_limit", "rounds ended by the round turn limit safeguard", low=0, high=MAX_ROUNDS),
    Column("reshuffles", "times the Really Discarded pile was reshuffled into the Draw pile",
           low=0, high=MAX_DECISIONS),
)
SEAT_COLUMNS = (
    Column("points_per_round", "points per round played", "float32", low=0, high=MAX_POINTS),
    Column("sets_completed", "scoring sets over the game", low=0, high=MAX_DECISIONS),
    Column("sets_started", "sets started (Excuses played)", low=0, high=MAX_DECISIONS),
    Column("taken_from_rows", "cards taken from other players' Personal Discard rows", low=0, high=MAX_DECISIONS),
    Column("drawn_from_pile", "cards drawn from the Draw pile while refilling (deals not counted)",
           low=0, high=MAX_DECISIONS),
    Column("declared", "times this seat declared Back To Work-ish", low=0, high=MAX_ROUNDS),
    Column("best_round", "most points in one round", low=0, high=MAX_POINTS),
    Column("rounds_won", "rounds in which this seat scored the most (ties count)", low=0, high=MAX_ROUNDS),
    Column("turns", "turns taken", low=0, high=MAX_DECISIONS),
)
G = game_index(GAME_COLUMNS)
S = seat_index(SEAT_COLUMNS)
