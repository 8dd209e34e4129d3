"""Shed's rules as kernels of the shared contract (docs/adding-a-game.md).

Play a card of the top card's suit or rank (a wild card on anything, naming
a suit); a player who cannot play draws one card, or passes when no card is
left to draw. The first player out of cards wins. An empty deck is refilled
from the discard pile (all but its top card), reshuffled.
"""
import numpy as np

from balance.simcore import rng as R
from balance.simcore import zones
from balance.simcore.jit import jit
from balance.simcore.records import flat_layout
from balance.simcore.spec import Column, action_index, end_index, game_index, seat_index
from balance.simcore.trace import emit

NMAX = 64  # cards a list may hold (the card file is refused above this)
PMAX = 4
C_RANK, C_SUIT, C_WILD, C_DRAW, C_SKIP = 0, 1, 2, 3, 4  # card table columns
CF = 5
T_CARDS, T_RULES = 0, 1  # tables
R_HAND, R_NCARDS, R_NSUITS = 0, 1, 2

# Results, by name: the kernels write game_row[G.turns], seat_rows[p, S.cards_left].
GAME_COLUMNS = (
    Column("turns", "turns taken (plays, draws and passes)", low=0, high=400),
    Column("cards_drawn", "cards drawn in play (deals not counted)", low=0, high=5000),
    Column("reshuffles", "discard pile turned into a new deck", low=0, high=400),
)
SEAT_COLUMNS = (
    Column("cards_left", "cards in hand at the end", low=0, high=NMAX),
    Column("played", "cards this seat played", low=0, high=400),
    Column("drawn", "cards this seat drew in play", low=0, high=5000),
)
G = game_index(GAME_COLUMNS)
S = seat_index(SEAT_COLUMNS)

# The state: one int64 array, offsets by name.
L, STATE_SIZE = flat_layout((
    ("players", 1), ("turn", 1), ("winner", 1), ("deck_n", 1), ("disc_n", 1), ("suit", 1), ("turns", 1),
    ("drawn_total", 1), ("reshuffles", 1), ("skip", 1), ("n_cards", 1),
    ("deck", NMAX), ("disc", NMAX), ("hand_n", PMAX), ("hand", PMAX * NMAX),
    ("played", PMAX), ("drawn", PMAX), ("counts", PMAX * NMAX * 2),
))
CT_DRAWN, CT_PLAYED = 0, 1
CARD_COUNTERS = ("drawn", "played")  # drawn: the deal and every draw, the one way into a hand
HAND_COUNTERS = ("drawn",)

# Options: play hand slot i (declaring suit d for a wild: code i * 8 + d + 1), draw, pass.
DRAW = 10_000
PASS = 10_001
MAX_OPTIONS = NMAX * 4 + 2
# What an option does (`action`): play a card (a wild card's choice the suit it names), draw, pass.
ACTION_KINDS = ("play", "draw", "pass_turn")
ACT = action_index(ACTION_KINDS)

END_REASONS = ("out_of_cards",)  # the spec's end_reasons; END.out_of_cards is the code written
END = end_index(END_REASONS)
EV_DEAL, EV_PLAY, EV_DRAW, EV_PASS, EV_RESHUFFLE, EV_OUT, EV_SKIP = 1, 2, 3, 4, 5, 6, 7


@jit(inline=True)
def hand(s, p):
    return s[L.hand + p * NMAX:L.hand + (p + 1) * NMAX]


@jit
def _draw_one(tables, s, p, rng, trace):
    """Draw a card for p, refilling the deck from the discards first if needed; -1 if none is left."""
    if s[L.deck_n] == 0 and s[L.disc_n] > 1:
        top = s[L.disc + s[L.disc_n] - 1]
        s[L.deck_n] = zones.refill_from(rng, R.CHANCE, s[L.deck:L.deck + NMAX], 0,
                                        s[L.disc:L.disc + NMAX], s[L.disc_n] - 1)
        s[L.disc] = top
        s[L.disc_n] = 1
        s[L.reshuffles] += 1
        emit(trace, EV_RESHUFFLE, s[L.deck_n], 0, 0, 0)
    if s[L.deck_n] == 0:
        return -1
    c = zones.draw_top(s[L.deck:L.deck + NMAX], s[L.deck_n])
    s[L.deck_n] -= 1
    h = hand(s, p)
    h[s[L.hand_n + p]] = c
    s[L.hand_n + p] += 1
    s[L.counts + (p * NMAX + c) * 2 + CT_DRAWN] += 1
    return c


@jit(refs=True)
def new_game(tables, n_players, rng, trace):
    s = np.zeros(STATE_SIZE, np.int64)
    n = tables[T_RULES][R_NCARDS]
    s[L.players] = n_players
    s[L.winner] = -1
    s[L.n_cards] = n
    for i in range(n):
        s[L.deck + i] = i
    zones.shuffle(rng, R.DEAL, s[L.deck:L.deck + NMAX], n)
    s[L.deck_n] = n
    k = tables[T_RULES][R_HAND]
    for p in range(n_players):
        for _ in range(k):
            c = zones.draw_top(s[L.deck:L.deck + NMAX], s[L.deck_n])
            s[L.deck_n] -= 1
            hand(s, p)[s[L.hand_n + p]] = c
            s[L.hand_n + p] += 1
            s[L.counts + (p * NMAX + c) * 2 + CT_DRAWN] += 1  # the card counter counts the deal too
    c = zones.draw_top(s[L.deck:L.deck + NMAX], s[L.deck_n])
    s[L.deck_n] -= 1
    s[L.disc] = c
    s[L.disc_n] = 1
    s[L.suit] = tables[T_CARDS][c, C_SUIT]
    s[L.turn] = R.randint(rng, R.DEAL, n_players)
    emit(trace, EV_DEAL, n_players, k, c, s[L.turn])
    return s


@jit
def to_move(s):
    return -1 if s[L.winner] >= 0 else s[L.turn]


@jit
def _fits(cards, s, c):
    top = s[L.disc + s[L.disc_n] - 1]
    return cards[c, C_WILD] != 0 or cards[c, C_SUIT] == s[L.suit] or cards[c, C_RANK] == cards[top, C_RANK]


@jit
def legal(tables, s, out):
    cards = tables[T_CARDS]
    p = s[L.turn]
    h = hand(s, p)
    n = 0
    for i in range(s[L.hand_n + p]):
        c = h[i]
        if _fits(cards, s, c):
            if cards[c, C_WILD] != 0:
                for d in range(tables[T_RULES][R_NSUITS]):
                    out[n] = i * 8 + d + 1
                    n += 1
            else:
                out[n] = i * 8
                n += 1
    if n == 0:
        out[0] = DRAW if s[L.deck_n] + s[L.disc_n] > 1 else PASS
        n = 1
    return n


@jit(force=True)
def action(tables, s, option):
    """(kind, card, target, choice) of a legal option: the card in hand slot option // 8, and for a
    wild card the suit it names (option % 8 - 1); -1 where one does not apply."""
    if option == DRAW:
        return ACT.draw, -1, -1, -1
    if option == PASS:
        return ACT.pass_turn, -1, -1, -1
    c = hand(s, s[L.turn])[option // 8]
    return ACT.play, c, -1, (option % 8 - 1) if tables[T_CARDS][c, C_WILD] != 0 else -1


@jit
def _next(s, p):
    return (p + 1) % s[L.players]


@jit
def step(tables, s, option, rng, trace):
    cards = tables[T_CARDS]
    p = s[L.turn]
    s[L.turns] += 1
    if option == DRAW:
        c = _draw_one(tables, s, p, rng, trace)
        s[L.drawn + p] += 1
        s[L.drawn_total] += 1
        emit(trace, EV_DRAW, p, c, 0, 0)
        s[L.turn] = _next(s, p)
        return
    if option == PASS:
        emit(trace, EV_PASS, p, 0, 0, 0)
        s[L.turn] = _next(s, p)
        return
    i = option // 8
    h = hand(s, p)
    c = h[i]
    last = s[L.hand_n + p] - 1
    h[i] = h[last]
    h[last] = -1
    s[L.hand_n + p] = last
    s[L.disc + s[L.disc_n]] = c
    s[L.disc_n] += 1
    s[L.suit] = option % 8 - 1 if cards[c, C_WILD] != 0 else cards[c, C_SUIT]
    s[L.played + p] += 1
    s[L.counts + (p * NMAX + c) * 2 + CT_PLAYED] += 1
    emit(trace, EV_PLAY, p, c, s[L.suit], 0)
    if last == 0:
        s[L.winner] = p
        emit(trace, EV_OUT, p, s[L.turns], 0, 0)
        return
    q = _next(s, p)
    if cards[c, C_DRAW] > 0:
        for _ in range(cards[c, C_DRAW]):
            if _draw_one(tables, s, q, rng, trace) >= 0:
                s[L.drawn + q] += 1
                s[L.drawn_total] += 1
        emit(trace, EV_SKIP, q, cards[c, C_DRAW], 0, 0)
        q = _next(s, q)
    elif cards[c, C_SKIP] != 0:
        emit(trace, EV_SKIP, q, 0, 0, 0)
        q = _next(s, q)
    s[L.turn] = q


@jit
def outcome(tables, s, game_row, seat_rows):
    game_row[G.end_reason] = END.out_of_cards
    game_row[G.turns] = s[L.turns]
    game_row[G.cards_drawn] = s[L.drawn_total]
    game_row[G.reshuffles] = s[L.reshuffles]
    for p in range(s[L.players]):
        seat_rows[p, S.won] = 1.0 if s[L.winner] == p else 0.0
        seat_rows[p, S.score] = -s[L.hand_n + p]
        seat_rows[p, S.cards_left] = s[L.hand_n + p]
        seat_rows[p, S.played] = s[L.played + p]
        seat_rows[p, S.drawn] = s[L.drawn + p]


@jit(refs=True)
def clone(s):
    return s.copy()


@jit(refs=True)
def determinise(tables, s, seat, rng):
    """Redeal the deck and the other hands (the seat sees its hand and the discards)."""
    pool = np.empty(NMAX, np.int64)
    n = zones.gather(pool, 0, s[L.deck:L.deck + NMAX], s[L.deck_n])
    for p in range(s[L.players]):
        if p != seat:
            n = zones.gather(pool, n, hand(s, p), s[L.hand_n + p])
    zones.redeal(rng, pool, n)
    at = zones.scatter(pool, 0, s[L.deck:L.deck + NMAX], s[L.deck_n])
    for p in range(s[L.players]):
        if p != seat:
            at = zones.scatter(pool, at, hand(s, p), s[L.hand_n + p])


@jit
def value(tables, s, seat):
    if s[L.winner] >= 0:
        return 1.0 if s[L.winner] == seat else 0.0
    fewest = NMAX
    for p in range(s[L.players]):
        if p != seat and s[L.hand_n + p] < fewest:
            fewest = s[L.hand_n + p]
    return min(0.95, max(0.05, 0.5 + 0.06 * (fewest - s[L.hand_n + seat])))


@jit
def greedy(tables, s, seat, options, n, params, rng):
    """Play the matching card that is hardest to play later: an effect card
    first when the next player is close to going out, a wild card last (naming
    the suit the hand holds most of); draw only when nothing fits."""
    cards = tables[T_CARDS]
    h = hand(s, seat)
    q = _next(s, seat)
    best, best_v = 0, -1e9
    for j in range(n):
        kind, c, _, d = action(tables, s, options[j])
        if kind != ACT.play:
            return j
        v = 1.0 + 0.01 * cards[c, C_RANK]
        if cards[c, C_WILD] != 0:
            same = 0
            for i in range(s[L.hand_n + seat]):
                if cards[h[i], C_SUIT] == d and cards[h[i], C_WILD] == 0:
                    same += 1
            v = 0.5 + 0.1 * same
        elif (cards[c, C_DRAW] > 0 or cards[c, C_SKIP] != 0) and s[L.hand_n + q] <= 2:
            v += 2.0
        if v > best_v:
            best, best_v = j, v
    return best


@jit(refs=True)
def card_counts(s):
    n = s[L.players]
    return s[L.counts:L.counts + n * NMAX * 2].reshape(n, NMAX, 2)[:, :s[L.n_cards], :].copy()


@jit(refs=True)
def check(tables, s):
    """1: a card is in no zone or in two; 2: a hand or pile count is out of range."""
    seen = np.zeros(NMAX, np.int64)
    n = s[L.n_cards]
    if s[L.deck_n] < 0 or s[L.disc_n] < 1 or s[L.deck_n] + s[L.disc_n] > n:
        return 2
    for i in range(s[L.deck_n]):
        seen[s[L.deck + i]] += 1
    for i in range(s[L.disc_n]):
        seen[s[L.disc + i]] += 1
    for p in range(s[L.players]):
        if s[L.hand_n + p] < 0 or s[L.hand_n + p] > NMAX:
            return 2
        for i in range(s[L.hand_n + p]):
            seen[hand(s, p)[i]] += 1
    for c in range(n):
        if seen[c] != 1:
            return 1
    return 0
