"""Sick Days solo/co-op: cards, result columns (by name), tables, zones, phases, option codes,
end reasons, counters, trace codes and the state layout (all plain ints); the rules are in
`rules`.
"""
from balance.simcore.spec import Column, action_index, end_index, game_index, seat_index

# ---- cards -------------------------------------------------------------
NSUITS = 10
NDAYS = 7
NCOL = 7
NWORK = 70
NEVENTS = 7
NCARDS = 77
MAXP = 6
HAND_CAP = 8
MAX_ROWS = 80
MAX_OPTIONS = 128
EVENT_NAMES = ("Birthday", "New Years", "Valentine's Day", "Water Cooler", "Look Busy", "Coffee Break", "Pizza Party")
EV_BIRTHDAY, EV_NEWYEARS, EV_VALENTINE, EV_WATERCOOLER, EV_LOOKBUSY, EV_COFFEE, EV_PIZZAPARTY = range(7)

# ---- results, by name: outcome writes game_row[G.turns], seat_rows[p, S.plays] ----
MAX_TURNS = 3000  # the spec's max_decisions: no count of turn actions can pass it
GAME_COLUMNS = (
    Column("turns", "turn actions taken (play, discard, Doctor's note, event)", low=0, high=MAX_TURNS),
    Column("missing", "cards missing at a loss: over unhappy workers, 3 - best line count (0 on a win)",
           low=0, high=3 * NSUITS),
    Column("pizzas_spent", "ready pizzas spent to refresh a hand", low=0, high=MAX_TURNS),
    Column("pizzas_regained", "pizzas flipped ready (full weeks, Pizza Party)", low=0, high=MAX_TURNS),
    Column("notes_used", "discards placed as Doctor's notes (Water Cooler's included)", low=0, high=NCARDS),
    Column("discards", "hand cards discarded as a turn action", low=0, high=MAX_TURNS),
    Column("automa_placed", "automa cards placed on the calendar", low=0, high=NCARDS),
    Column("automa_discarded", "automa cards discarded (chosen or forced)", low=0, high=NCARDS),
    Column("events_in_deck", "event cards shuffled into the deck", low=0, high=NEVENTS),
    Column("happy_workers", "workers happy at the end", low=0, high=NSUITS),
    Column("level", "difficulty level", low=1, high=11),
) + tuple(
    Column(f"happy_turn_{w}", f"turn at which worker {w} (suit order of rules.toml) became happy; -1 never/not kept",
           low=-1, high=MAX_TURNS)
    for w in range(NSUITS)
) + (Column("deck_left", "cards left in the deck at the end", low=0, high=NCARDS),)
SEAT_COLUMNS = (
    Column("plays", "cards this seat put face up (events included)", low=0, high=NCARDS),
    Column("seat_discards", "cards this seat discarded", low=0, high=MAX_TURNS),
    Column("seat_notes", "Doctor's notes this seat placed", low=0, high=NCARDS),
)
G = game_index(GAME_COLUMNS)
S = seat_index(SEAT_COLUMNS)

# ---- tables[0]: cfg ----------------------------------------------------
(C_LEVEL, C_SUITS, C_READY, C_TOTAL, C_ROWS, C_MAXW, C_REMOVED, C_AUTOMA, C_EVENTS, C_HAND,
 C_NOTE_DIAG, C_PIZZA_ROW) = range(12)
N_CFG = 12

# ---- zones -------------------------------------------------------------
Z_OUT = 0  # not in this game (suit not kept, event not added)
Z_DECK = 1
Z_DISCARD = 2
Z_REMOVED = 3  # removed unseen at setup
Z_FACEUP = 4  # on the calendar, face up (by a player or the automa)
Z_NOTE = 5  # on the calendar, face down (Doctor's note)
Z_EVENT = 6  # event card on the calendar
Z_COVERED = 7  # Birthday card under a card played over it
Z_AUTOMA = 8  # drawn by the automa, awaiting place/discard
Z_HAND0 = 10  # + seat

# cell kinds
K_EMPTY = 0
K_FACEUP = 1
K_NOTE = 2
K_EVENT = 3

# ---- phases (who decides what) -----------------------------------------
PH_TURN = 0  # pizza refreshes, then one turn action
PH_AUTOMA = 1  # place or discard the automa's card
PH_WATERCOOLER = 2  # place discards as notes (touching allowed) or stop
PH_LOOKBUSY = 3  # take one discard into hand or not
PH_COFFEE = 4  # the coffee seat returns hand cards one at a time, then redraws

# ---- option codes: kind * 10000 + a * 100 + b ---------------------------
OP_REFRESH = 1
OP_PLAY = 2  # a = hand index
OP_PLAY_BDAY = 3  # a = hand index, played over the Birthday card
OP_DISCARD = 4  # a = hand index
OP_NOTE = 5  # b = column
OP_EVENT = 6  # a = hand index, b = column
OP_AUT_PLACE = 7
OP_AUT_DISCARD = 8
OP_WC_NOTE = 9  # b = column
OP_WC_DONE = 10
OP_LB_TAKE = 11  # a = discard index
OP_LB_SKIP = 12
OP_CB_RETURN = 13  # a = hand index
OP_CB_DONE = 14
# What an option does (rules.action), declared once (the spec's action_kinds), in the order of the
# OP_* codes above: an option of code OP is the action kind OP - 1 (checked below).
ACTION_KINDS = ("refresh", "play", "play_on_birthday", "discard", "note", "event", "automa_place",
                "automa_discard", "watercooler_note", "watercooler_done", "look_busy_take", "look_busy_skip",
                "coffee_return", "coffee_done")
ACT = action_index(ACTION_KINDS)
assert (ACT.refresh, ACT.play, ACT.play_on_birthday, ACT.discard, ACT.note, ACT.event, ACT.automa_place,
        ACT.automa_discard, ACT.watercooler_note, ACT.watercooler_done, ACT.look_busy_take, ACT.look_busy_skip,
        ACT.coffee_return, ACT.coffee_done) == tuple(op - 1 for op in range(OP_REFRESH, OP_CB_DONE + 1))

# ---- end reasons, declared once (the spec's end_reasons); END.<name> is the code written
END_REASONS = ("all_happy", "no_action", "automa_empty")
END = end_index(END_REASONS)  # END.cap 0 and END.no_move 1 are the runner's; the game's from 2

# ---- counters ----------------------------------------------------------
CT_DRAWN, CT_PLAYED, CT_NOTED, CT_DISCARDED, CT_HELD, CT_TAKEN = range(6)
N_CT = 6  # CT_TAKEN: taken into the hand from the discard pile (Look Busy), not a draw

# ---- trace codes -------------------------------------------------------
T_SETUP = 1  # kept suits, removed, events, rows
T_PLAY = 2  # seat, card, row, col
T_PLAY_BDAY = 3  # seat, card, row, col
T_DISCARD = 4  # seat, card
T_NOTE = 5  # seat, card, row, col
T_REFRESH = 6  # seat, ready left
T_PIZZA_READY = 7  # row, ready now
T_AUT_DRAW = 8  # card
T_AUT_PLACE = 9  # card, row, col
T_AUT_DISCARD = 10  # card, forced (1) or chosen (0)
T_HAPPY = 11  # worker, line kind, wild (0 none, 1 New Years, 2 Valentine's), turn
T_WIN = 12  # turn
T_LOSE = 13  # end reason, missing
T_EVENT = 14  # seat, card, row, col
T_WC_NOTE = 15  # seat, card, row, col
T_LB_TAKE = 16  # seat, card
T_CB_RETURN = 17  # seat, card
T_CB_DONE = 18  # seat, drawn
T_PIZZA_PARTY = 19  # pizzas readied, ready now
T_DRAW = 20  # seat, cards drawn
T_TURN = 21  # seat, turn number
T_DEAL = 22  # seat, cards

# ---- state layout ------------------------------------------------------
H_PHASE = 0
H_CUR = 1  # seat whose turn it is
H_NP = 2
H_OVER = 3  # 0 while running, else the end reason code
H_TURNS = 4
H_READY = 5
H_USED = 6
H_SPENT = 7
H_REGAINED = 8
H_NOTES = 9
H_DISCARDS = 10
H_AUT_PLACED = 11
H_AUT_DISC = 12
H_EVENTS_IN = 13
H_HAPPY_N = 14
H_KEPT = 15
H_DECK_N = 16
H_DISC_N = 17
H_REM_N = 18
H_AUT_CARD = 19
H_ROWS = 20
H_CB_SEAT = 21
H_CB_LEFT = 22
H_CB_N = 23
H_BD_R = 24  # Birthday cell (row, col), -1 if not on the calendar uncovered
H_BD_C = 25
H_NY_R = 26  # New Years row, -1 if not placed
H_VAL_R = 27
H_VAL_C = 28
H_VAL_W = 29  # the one worker Valentine's Day works for (-1: unused)
H_INGAME = 30
H_HAND = 31  # hand size
H_AUTOMA = 32
O_HTURN = 40
O_HAPPY = 50  # 1 happy, 0 not yet, -1 suit not kept
O_HEIGHT = 60
O_HANDN = 67
O_HAND = 73
O_DECK = O_HAND + MAXP * HAND_CAP
O_DISC = O_DECK + NCARDS
O_REM = O_DISC + NCARDS
O_ZONE = O_REM + NCARDS
O_GRID = O_ZONE + NCARDS
# then, sized by the calendar's rows: cell kinds, row fill, per worker the real counts on
# each row and diagonal (o_kind .. o_d2); last, the card counters of the seats in the game
# (o_cnt), which no decision reads, for the seats in play only: every iteration of the search
# clones the state, and six seats' counters were three quarters of a one-seat game's state
