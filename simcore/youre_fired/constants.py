"""You're Fired!: zones, effect opcodes, phases, state offsets, event codes,
and the declared result columns.

Everything here is a plain integer (or a NamedTuple of them) so kernels can
use it (numba freezes module-level ints at compile time, which is what we
want for constants; parameters never live here, they reach kernels through
`tables`). The card file's names for the opcodes and triggers are declared
in `cards.EFFECTS`.
"""
from ..spec import Column, action_index, end_index, game_index, seat_index

# ---- card kinds (cards.toml section) ----
KIND_COMPANY = 0
KIND_CONSULTANT = 1

# ---- effect opcodes (codes of the `effect` field of a card: cards.EFFECTS) ----
OP_NONE = 0  # no effect: the card is only ever put in the break room
OP_BOSS = 1  # the Boss's rules (not card text): playing it tries to fire target's Boss
OP_GUESS_FIRE_HAND = 2  # Axe Man: name a card; if it is in the target's hand, fire it
OP_FIRE_FROM_BREAK = 3  # Bean Counter: fire a named card from the target's break room
OP_REVEAL_HAND = 4  # Secretary: the target shows you (only you) their hand
OP_FIRE_SELF_RESHUFFLE = 5  # Fall Guy: fire this card, shuffle your break room into your deck
OP_REVIVE = 6  # Boss's Spouse: take a card from your unemployment line into your hand
OP_CANCEL = 7  # reactive: cancel a card played against you
OP_REDIRECT = 8  # reactive: this card is fired instead of the one that would be
OP_DRAW = 9  # draw n cards
OP_DISCARD = 10  # target puts a card of their choice from hand into their break room
OP_SWAP = 11  # exchange a card in your hand with one in your break room
OP_PEEK_DECK = 12  # look at the top n cards of the target's deck

# reactive triggers (the card file's `trigger`: simcore.youre_fired.cards.EFFECTS)
TRIG_NONE = 0
TRIG_TARGETED = 1  # cancel: any card that targets you
TRIG_GUESS = 2  # cancel: a guessing card (or a Boss play) that targets you
TRIG_BOSS_FIRE = 3  # redirect: your Boss would be fired from your hand
TRIG_FIRED = 4  # redirect: any card would be fired from your hand

# ---- card table columns (tables[0], int64 (cards, CF_N)) ----
CF_KIND = 0
CF_COUNT = 1  # copies in each company set (consultants: 1 in the pool)
CF_EFFECT = 2
CF_N = 3
CF_TRIGGER = 4
CF_TARGETED = 5
CF_WIDTH = 6

# ---- rule table (tables[1], int64) ----
R_HAND = 0  # draw up to this many
R_START_HAND = 1
R_REDRAW_HAND = 2
R_CONS_2P = 3
R_CONS_MULTI = 4
R_BOSS_REVEAL_DEAL = 5
R_BOSS_REVEAL_REDRAW = 6
R_TEAMS = 7
R_REPLACE_FIRED = 8
R_FAILED_FIRING_RESHUFFLE = 9
R_SPOUSE_BOSS_TEAMS = 10  # 1: the Spouse may bring back a Boss in teams (rulebook: no)
R_BOSS_ID = 11  # card id of the Boss
R_N_CONSULTANTS = 12  # consultants in the pool
R_TEAM_BOSS_AFTER = 13  # teams: where a Boss goes after a Boss play that fired its target's (BOSS_TO_*)
R_TEAM_DEADLOCK = 14  # teams: only one team can still play and no opposing Boss is reachable (DEADLOCK_*)
R_NO_PROGRESS_TURNS = 15  # turns in a row without progress that end the game (0: never)
R_REPLACE_HAND_ONLY = 16  # 1: only a card fired out of a hand is replaced (rulebook: every fired employee)
R_TEAM_PASS_BOSS = 17  # 1: teams, a Boss in a reshuffling hand is passed with the rest (rulebook: it is an employee)
R_SPOUSE_BOSS_REVIVALS = 18  # with R_SPOUSE_BOSS_TEAMS: Boss revivals each team may make in a game
R_POWER_CARD = 19  # card power (analysis.card_power): the company card a seat gets one more copy of; -1 none
R_POWER_SEAT = 20  # the seat that gets it; -1: a seat drawn per game from its deal key (engine.power_draw)
R_WIDTH = 21

# team_boss_after_success
BOSS_TO_BREAK_ROOM = 0
BOSS_TO_DECK = 1
BOSS_TO_HAND = 2
# team_deadlock
DEADLOCK_PLAY_ON = 0
DEADLOCK_NO_WINNER = 1
DEADLOCK_ACTING_TEAM_WINS = 2

# ---- state: g (int64 scalars) offsets ----
G_NP = 0
G_TEAMS = 1
G_PHASE = 2
G_CUR = 3  # whose turn it is
G_DECIDER = 4  # who decides now (turn player or a reacting target)
G_TURN = 5
G_OVER = 6
G_END = 7  # end reason code (runner numbering)
G_WINNER = 8  # seat (duel/ffa) or team (teams); -1 none
G_ACT_CARD = 9  # pending play: card, target, named cards, forced Boss play
G_ACT_TARGET = 10
G_ACT_NAME = 11
G_ACT_NAME2 = 12
G_ACT_FORCED = 13
G_ELIMS = 14
G_FAILED_FIRINGS = 15
G_BOSSES_FIRED = 16
G_FORCED_OUT = 17
G_FAILED_BLUFFS = 18
G_NCARDS = 19
G_REDIRECT_CARD = 20  # pending redirect: card that would be fired, and whose card fired it
G_PENDING_BY = 21
G_PROGRESS = 22  # engine.progress when last seen (cards out of play at most, failed firings, players out)
G_PROGRESS_TURN = 23  # the turn in which it last changed
G_UNEMP_MAX = 24  # the most cards the unemployment lines have held together at the end of a turn
G_POWER_SEAT = 25  # card power: the seat that got one more copy of rules[R_POWER_CARD] in its deck; -1 none
G_WIDTH = 26

# ---- per-seat scalars ----
S_ALIVE = 0
S_BOSS_LOST = 1
S_CARDS_FIRED = 2  # own cards fired by opponents
S_FIRED_OTHERS = 3
S_GUESSES = 4
S_GUESSES_HIT = 5
S_BOSS_ATTEMPTS = 6
S_BOSS_HITS = 7
S_RESHUFFLES = 8  # failed-firing reshuffles this seat got
S_TURNS = 9
S_OUT_ORDER = 10  # 0 still in; k = k-th player out
S_BOSS_REVIVALS = 11  # Bosses this seat brought back with a Spouse (spouse_revives_boss_in_teams)
S_WIDTH = 12

# ---- phases ----
PH_PLAY = 0
PH_CANCEL = 1  # target may cancel the pending play
PH_REDIRECT = 2  # target may let a redirect card be fired instead
PH_DISCARD = 3  # target picks the card to discard
PH_OVER = 4

# ---- what an option does (rules.action), declared once (the spec's action_kinds) ----
# play: a card for its effect; boss: the Boss played at a target; break_room: a card put straight
# into the break room; cancel / redirect: a reactive card played; decline: no reaction; discard:
# the card a target puts from hand into the break room.
ACTION_KINDS = ("play", "boss", "break_room", "cancel", "redirect", "decline", "discard")
ACT = action_index(ACTION_KINDS)

# ---- card counters ----
K_OWNED = 0  # in this seat's set at the deal (consultants: dealt to this seat)
K_DRAWN = 1
K_PLAYED = 2
K_FIRED = 3  # lost to the unemployment line
K_HELD_AT_END = 4
K_RECEIVED = 5  # into the hand other than by a draw: passed by a partner, revived, swapped in, the Boss back
N_COUNTERS = 6
COUNTER_NAMES = ("owned", "drawn", "played", "fired", "held_at_end", "received")
HAND_COUNTERS = ("drawn", "received")  # every way into a hand

# ---- end reasons, declared once (the spec's end_reasons); END.<name> is the code written
END_REASONS = ("boss_fired", "boss_forced_out", "failed_bluff", "teams_both_bosses", "stalled", "teams_deadlock",
               "no_progress")
END = end_index(END_REASONS)  # END.cap 0 and END.no_move 1 are the runner's; the game's from 2
# elimination causes (trace and per-game counts)
CAUSE_FIRED = 0
CAUSE_FORCED = 1
CAUSE_BLUFF = 2

DECK_CAP = 64  # any seat's deck can hold every card of two companies plus consultants
MAX_PLAYERS = 4
MAX_CARD_TYPES = 32  # the card file allows at most 24 company cards and 8 consultants
NAME_NONE_OFFSET = 0  # option field "name" == n_cards means "no card"

# ---- trace event codes ----
EV_DEAL = 1  # seat, consultant a, consultant b (-1)
EV_BOSS_REVEAL = 2  # seat
EV_TURN = 3  # seat, turn
EV_DRAW = 4  # seat, card
EV_PLAY = 5  # seat, card, target, name
EV_PLAY_PLAIN = 6  # seat, card
EV_HIT = 7  # actor, target, card
EV_MISS = 8  # actor, target, name
EV_REVEAL = 9  # actor, target, hand size
EV_CANCEL = 10  # seat, card, actor
EV_REDIRECT = 11  # seat, card, instead of
EV_FAILED_FIRING = 12  # seat
EV_BREAK_RESHUFFLE = 13  # seat, cards
EV_REVIVE = 14  # seat, card
EV_DISCARD = 15  # seat, card
EV_SWAP = 16  # seat, gave, took
EV_PEEK = 17  # actor, target, n
EV_BOSS_FIRED = 18  # seat, by
EV_ELIMINATED = 19  # seat, cause
EV_GAME_OVER = 20  # winner (seat or team), end reason, teams flag
EV_PASS = 21  # seat, partner, n, Bosses among them
EV_SKIP = 22  # seat
EV_FIRE_BREAK = 23  # actor, target, card
EV_FIRE_SELF = 24  # seat, card
EV_RESHUFFLE_ALL = 25  # after an elimination
EV_REMOVED = 26  # card removed unseen
EV_BOSS_PLAY_WIN = 27  # seat, target
EV_BOSS_BACK = 28  # seat, where (BOSS_TO_*): teams, the Boss after a Boss play that fired its target's

# ---- the turn cap and the declared result columns ----
MAX_DECISIONS = 800  # the spec's max_decisions (every choice, reactions included)
# turns started: each decision ends at most one turn, and starting one may pass
# over every seat once (a seat with no cards passes), so at most P+1 per decision
MAX_TURNS = (MAX_PLAYERS + 1) * (MAX_DECISIONS + 1)

GAME_COLUMNS = (
    Column("turns", "turns started (a seat with no cards passes its turn)", low=0, high=MAX_TURNS),
    Column("eliminations", "players knocked out (free-for-all)", low=0, high=MAX_PLAYERS - 1),
    Column("bosses_fired", "Bosses fired by a guess or a Boss play", low=0, high=MAX_DECISIONS),
    Column("bosses_forced_out", "Bosses played or discarded because nothing else was left, without firing the target's",
           low=0, high=MAX_DECISIONS),
    Column("failed_bluffs", "Bosses played by choice that failed to fire the target's Boss", low=0, high=MAX_DECISIONS),
    Column("failed_firings", "failed attempts on a Boss (the owner reshuffled)", low=0, high=MAX_DECISIONS),
    Column("winning_team", "team variant: 0 or 1; -1 otherwise", "int8", low=-1, high=1),
)
SEAT_COLUMNS = (
    Column("team", "team (team variant) or the seat itself", "int8", low=0, high=MAX_PLAYERS - 1),
    Column("place", "1 = winner; free-for-all: order out, later is better", "int8", low=1, high=MAX_PLAYERS),
    Column("cards_fired", "own cards fired by opponents", low=0, high=MAX_DECISIONS),
    Column("fired_others", "opponents' cards this seat fired", low=0, high=MAX_DECISIONS),
    Column("guesses", "guessing cards played (Axe Man)", low=0, high=MAX_DECISIONS),
    Column("guesses_hit", "guesses that found the named card", low=0, high=MAX_DECISIONS),
    Column("boss_attempts", "attempts on a Boss: Axe Man naming it, or a Boss play", low=0, high=MAX_DECISIONS),
    Column("boss_hits", "Bosses this seat fired", low=0, high=MAX_DECISIONS),
    Column("reshuffles", "failed-firing reshuffles this seat got", low=0, high=MAX_DECISIONS),
    Column("turns_played", "turns this seat started", low=0, high=MAX_TURNS),
)
# outcome writes game_row[GAME_COL.turns], seat_rows[p, SEAT_COL.won]...: by name
GAME_COL = game_index(GAME_COLUMNS)
SEAT_COL = seat_index(SEAT_COLUMNS)

# ---- card power (analysis.card_power): which seat gets the extra copy and where it goes in the deck are
# drawn from the game's deal key (its deal stream's first state, a function of seed and game index alone)
# hashed with these salts, never from a stream: every other card of the deal stays where it was.
# analysis.card_power.SEAT_SALT / SLOT_SALT hold the same values (tests/analysis/test_card_power.py).
POWER_SEAT_SALT = 0x43415244504F5752  # "CARDPOWR"
POWER_SLOT_SALT = 0x534C4F54504F5752  # "SLOTPOWR"
