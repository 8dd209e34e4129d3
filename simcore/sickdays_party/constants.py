"""Sick Days party game: cards, profiles, zones, phases, reaction kinds, option codes, end reasons,
mistake causes, result columns (by name), trace codes and the state layout (all plain ints); the rules
are in `rules`.
"""
import numpy as np

from balance.simcore.spec import Column, action_index, end_index, game_index, seat_index

# ---- cards: the Sick Days deck, the one solo plays (sickdays_solo.constants) ----
from balance.simcore.sickdays_solo.constants import (EV_BIRTHDAY, EV_COFFEE, EV_LOOKBUSY, EV_NEWYEARS,  # noqa: F401
                                                     EV_PIZZAPARTY, EV_VALENTINE, EV_WATERCOOLER, EVENT_NAMES, NCARDS,
                                                     NDAYS, NEVENTS, NSUITS, NWORK)

MAXP = 8

# ---- tables[0]: cfg (int64) ----------------------------------------------
(C_TOKENS, C_HAND, C_EVENTS, C_WINDOW_MS, C_STALL_MS, C_ADVANCED, C_COFFEE_MS, C_LEFT, C_SLICES,
 C_DRAW_MS, C_MIN_WINNERS) = range(11)
N_CFG = 11
# ---- tables[1]: profile (float64, MAXP x N_PROF), per seat --------------
(F_MEDIAN, F_SPREAD, F_WRONG, F_FORGET, F_ACCUSE, F_NOTE) = range(6)
N_PROF = 6

# ---- zones -------------------------------------------------------------
Z_OUT = 0  # event card not in this game
Z_DECK = 1
Z_PILE = 2
Z_HAND0 = 10  # + seat
Z_NOTE0 = 20  # + seat: the seat's face-down Doctor's note

# ---- phases --------------------------------------------------------------
PH_ACT = 0  # a group member chooses its play
PH_SLICE = 1  # a seat owing a draw-2 decides whether to spend a pizza slice
PH_STALL = 2  # stall rule: the last player plays any card
PH_OVER = 3

# ---- reaction kinds --------------------------------------------------------
RK_NONE = 0
RK_LEGAL = 1  # holds a legal card (or note) and will choose among them
RK_WRONG = 2  # will play a wrong card (engine-chosen, O_RCARD)
RK_TWICE = 3  # the last player plays again (engine-chosen card, O_RCARD)

# ---- option codes: kind * 100 + card ------------------------------------
OP_PLAY = 1  # a hand card onto the pile
OP_MAKE_NOTE = 2  # advanced flow: a hand card face down in front ("I'm sick")
OP_PLAY_NOTE = 3  # advanced flow: the note onto the pile ("I'm back")
OP_SLICE_USE = 4  # put a pizza slice back instead of drawing 2
OP_SLICE_KEEP = 5  # draw 2, keep the slice
OP_STALL = 6  # stall rule: any card (hand or note) onto the pile, unpunished
OP_PASS = 7  # only in determinised (lookahead) states: the reaction fizzles
# What an option does (rules.action), declared once (the spec's action_kinds), in the order of the
# OP_* codes above: an option of code OP is the action kind OP - 1 (checked below).
ACTION_KINDS = ("play", "make_note", "play_note", "slice_use", "slice_keep", "stall", "pass_reaction")
ACT = action_index(ACTION_KINDS)
assert (ACT.play, ACT.make_note, ACT.play_note, ACT.slice_use, ACT.slice_keep, ACT.stall,
        ACT.pass_reaction) == tuple(op - 1 for op in range(OP_PLAY, OP_PASS + 1))
MAX_OPTIONS = 2 * NCARDS + 4

# ---- draw-2 causes -------------------------------------------------------
(CA_COLLISION, CA_WRONG, CA_TWICE, CA_FORGET, CA_ACCUSE, CA_COFFEE, CA_LOOKBUSY) = range(7)
N_CAUSES = 7

# ---- end reasons, declared once (the spec's end_reasons); END.<name> is the code written
END_REASONS = ("all_but_left_won", "stuck")
END = end_index(END_REASONS)  # END.cap 0 and END.no_move 1 are the runner's; the game's from 2

# ---- results, by name: outcome writes game_row[G.minutes], seat_rows[p, S.place] ----
MAX_DECISIONS = 6000  # the spec's turn cap: every card that leaves a hand is a decision
CAUSE_NAMES = ("collision", "wrong_card", "played_twice", "forgot_celebrate", "wrong_accusation",
               "coffee_break", "look_busy")
CAUSE_WORDS = ("played at the same time", "wrong card", "played twice in a row", "forgot to celebrate",
               "wrong accusation", "played during the Coffee Break", "last to look busy")
# per decision at most one mistaken play, a Look Busy and an accusation by each other seat
MAX_DRAW2 = MAX_DECISIONS * (MAXP + 1)
GAME_COLUMNS = (
    # per decision the clock moves by at most a reaction (1e6 s, reaction_ms) plus a Coffee Break
    # and a pick-up time (minutes, for every parameter value allowed)
    Column("minutes", "simulated minutes until the game ended", "float64", low=0.0,
           high=MAX_DECISIONS * 1.1e6 / 60.0),
    Column("plays", "cards put on the play pile (mistakes and stalls included)", low=0, high=MAX_DECISIONS),
    Column("stalls", "stall-rule plays (nobody could play; the last player played any card)", low=0,
           high=MAX_DECISIONS),
    Column("collisions", "moments when two or more players played at the same time", low=0, high=MAX_DECISIONS),
) + tuple(
    Column(f"draw2_{name}", f"draw-2 penalties incurred: {words} (a pizza slice may have cancelled some)",
           low=0, high=MAX_DRAW2)
    for name, words in zip(CAUSE_NAMES, CAUSE_WORDS)
) + (
    Column("draw2_total", "draw-2 penalties incurred, all causes", low=0, high=MAX_DRAW2),
    Column("slices_used", "draw-2 penalties cancelled by putting a pizza slice back", low=0, high=MAX_DECISIONS),
    Column("events_played", "event cards put on the pile", low=0, high=MAX_DECISIONS),
    Column("notes_made", "Doctor's notes made (advanced flow)", low=0, high=MAX_DECISIONS),
    Column("notes_played", "Doctor's notes played onto the pile (advanced flow)", low=0, high=MAX_DECISIONS),
    # a refill leaves the pile one card; the next needs a card played since
    Column("refills", "times the deck ran out and the pile (all but its top card) became the deck", low=0,
           high=MAX_DECISIONS),
    Column("tokens_returned", "tired worker tokens put back (each: an emptied hand, then draw 7)", low=0,
           high=MAXP * 6),
    Column("winners", "players who went out", low=0, high=MAXP - 1),
    Column("fastest_seat", "seat (from 0) with the lowest reaction median; -1 if tied", low=-1, high=MAXP - 1),
    Column("fastest_place", "finishing place of the fastest seat; -1 if the fastest is tied", low=-1, high=MAXP),
    Column("speed_rank_corr", "Spearman rank correlation of reaction median and finishing place "
                              "(+1: finishing order is the speed order; NaN when every seat has the same median)",
           "float64", low=-1.0, high=1.0, nan_ok=True),
)
SEAT_COLUMNS = (
    Column("place", "finishing place: winners in the order they went out, then the rest by tokens and cards left",
           low=1, high=MAXP),
    Column("reaction_median", "this seat's median reaction time (s)", "float64", low=0.05, high=30.0),
    Column("seat_plays", "cards this seat put on the pile", low=0, high=MAX_DECISIONS),
    Column("seat_draw2", "draw-2 penalties this seat incurred", low=0, high=MAX_DRAW2),
    Column("tokens_left", "tired worker tokens this seat still holds", low=0, high=6),
    Column("cards_left", "cards this seat holds at the end (a Doctor's note included)", low=0, high=NCARDS),
)
G = game_index(GAME_COLUMNS)
S = seat_index(SEAT_COLUMNS)

# ---- card counters -------------------------------------------------------
CT_DRAWN, CT_PLAYED, CT_HELD = range(3)
N_CT = 3

# ---- trace codes (a = time in ms unless said) ----------------------------
T_SETUP = 1  # players, tokens each, events, first card
T_EVENTS = 2  # event id in the deck (a = event)
T_DEAL = 3  # seat, cards
T_PLAY = 4  # t, seat, card, card it was played on
T_MISTAKE = 5  # t, seat, cause, card
T_DRAW = 6  # t, seat, cards drawn, cause
T_SLICE_USE = 7  # t, seat, cause
T_COLLIDE = 8  # t, players in the group
T_STALL = 9  # t, seat, card, card it was played on
T_NOTE_MAKE = 10  # t, seat, card
T_NOTE_PLAY = 11  # t, seat, card, card it was played on
T_TOKEN = 12  # t, seat, tokens left, drawn
T_WIN = 13  # t, seat, place
T_REFILL = 14  # t, cards into the deck
T_COFFEE = 15  # t, until (ms)
T_LOOKBUSY = 16  # t, slowest seat, its delay (ms)
T_GRAB = 17  # t (the card landing), seat, slices left in the middle, its grab delay (ms)
T_ACCUSE = 18  # t, accuser, accused, card
T_END = 19  # t, reason, winners
T_CELEBRATE = 20  # t, seat, event celebrated

# ---- state layout ------------------------------------------------------
H_NP = 0
H_OVER = 1  # 0 while running, else the end reason
H_PHASE = 2
H_CLOCK = 3  # ms
H_TOP = 4  # top card of the pile
H_TOP_TIME = 5  # when the top card last changed (ms): reactions count from here
H_LAST = 6  # who played last (-1: anyone may play, as after a collision)
H_TOP_BY = 7  # who put the top card there (-1: the starting card)
H_BREAK = 8  # Coffee Break: no play before this time (ms)
H_DECK_N = 9
H_PILE_N = 10
H_MIDDLE = 11  # pizza slices in the middle of the table
H_NWON = 12
H_TO_MOVE = 13
H_G_N = 14  # group: members acting at this moment
H_G_I = 15  # next member to act
H_G_TOP = 16  # the top card the group reacted to
H_G_LAST = 17  # the last player when the group reacted
H_G_CHANGED = 18  # did a card land on the pile in this group
H_PQ_N = 19  # draw-2 queue length
H_PQ_I = 20  # next queue entry
H_STALL_SEAT = 21
H_STALL_T = 22
H_ACCUSABLE = 23  # 1 if the group's single play may be wrongly accused
# game counters
H_PLAYS = 24
H_STALLS = 25
H_COLLISIONS = 26
H_SLICES_USED = 27
H_EVENTS_LANDED = 28
H_NOTES_MADE = 29
H_NOTES_PLAYED = 30
H_REFILLS = 31
H_TOKENS_BACK = 32
H_GRABS = 33
H_PEN0 = 34  # .. + N_CAUSES: draw-2 penalties incurred by cause
H_EV_IN = 41  # event cards in the game
H_SLICES_TOTAL = 42  # pizza slices in the game (middle + held), fixed at setup
H_ACT_T = 43  # when the last turn was taken (a card landed, a Doctor's note was made): the stall timer's start
H_NOTE_BY = 44  # the seat whose Doctor's note was the last turn (-1: a card landed since)
O_TOKENS = 48
O_SLICES = O_TOKENS + MAXP
O_NOTE = O_SLICES + MAXP  # note card, -1 none
O_PLACE = O_NOTE + MAXP  # 0 still playing, else finishing place (1 = first out)
O_HANDN = O_PLACE + MAXP
O_SEAT_PLAYS = O_HANDN + MAXP
O_SEAT_PEN = O_SEAT_PLAYS + MAXP
O_RT = O_SEAT_PEN + MAXP  # reaction time (ms), -1 none
O_RK = O_RT + MAXP  # reaction kind
O_RCARD = O_RK + MAXP  # card of a wrong / twice reaction
O_G_SEAT = O_RCARD + MAXP
O_G_TIME = O_G_SEAT + MAXP
PQ_CAP = 3 * MAXP
O_PQ_SEAT = O_G_TIME + MAXP
O_PQ_CAUSE = O_PQ_SEAT + PQ_CAP
O_SCRATCH = O_PQ_CAUSE + PQ_CAP  # per seat scratch (Pizza Party grab times)
O_BUSY = O_SCRATCH + MAXP  # a seat picking up drawn cards cannot react before this time (ms)
O_DECK = O_BUSY + MAXP  # deck[0..n): the next card drawn is deck[n-1]
O_PILE = O_DECK + NCARDS  # pile[0] bottom .. pile[n-1] top
O_ZONE = O_PILE + NCARDS
O_CNT = O_ZONE + NCARDS  # seat x card x counter
STATE_SIZE = O_CNT + MAXP * NCARDS * N_CT

CELEBRATE = np.array([1, 1, 1, 1, 0, 0, 1], np.int64)  # events you celebrate when playing on them
