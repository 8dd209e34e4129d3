"""Sick Days party game: real-time play as events in continuous time.

One flat int64 state array with named offsets (`H_*` scalars, `O_*` blocks).
Time is `H_CLOCK`, integer milliseconds since the first top card.

Card id = row of the card table: 0..69 workers (suit * 7 + day index, day 0 =
Monday), 70..76 the seven event cards. Every card instance lives in exactly
one zone (`O_ZONE`): out of the game, the deck, the play pile, a hand, or a
seat's Doctor's note. Deck and pile are also ordered arrays (order matters:
the deck is refilled from the pile unshuffled).

The flow of a game, in engine terms:
  * When the top card changes, `schedule` samples from the CHANCE stream a
    reaction time for every seat that reacts: a seat holding a legal card
    (not the last player), a seat about to make a wrong play (profile
    P(wrong play)), or the last player about to play twice (same).
  * `next_moment` takes the earliest reaction; everyone within the collision
    window of it acts "at the same time" (the group). If nobody holds a legal
    card, after the stall delay the last player plays any card (stall rule).
  * Each group member is asked, in time order, which option it takes (a
    decision: to_move / legal / step). Mistakes are judged in `step` from the
    facts: collision, Coffee Break, playing twice, wrong card, forgetting to
    celebrate. Each mistake leaves the card on the pile and queues a draw-2.
  * After the group: wrong accusations, the draw-2 queue (a seat with a pizza
    slice decides whether to spend it), emptied hands (token -> draw 7, or
    win), the end check, and a new schedule.
"""
import numpy as np

from balance.simcore import rng as R
from balance.simcore import zones
from balance.simcore.bits import lowbit, popcount
from balance.simcore.jit import jit
from balance.simcore.trace import emit

from .constants import *  # noqa: F403  the rules read the names bare; rules.X keeps working


# ---- small helpers -------------------------------------------------------
@jit
def matches(card, top):
    """Next day (7 wraps to 1) or same worker; events are wild both ways."""
    if card >= NWORK or top >= NWORK:
        return True
    if card // NDAYS == top // NDAYS:
        return True
    return card % NDAYS == (top % NDAYS + 1) % NDAYS


@jit
def same_worker_only(card, top):
    """A legal play by worker only, not by day (what a wrong accusation mistakes)."""
    if card >= NWORK or top >= NWORK:
        return False
    return card // NDAYS == top // NDAYS and card % NDAYS != (top % NDAYS + 1) % NDAYS


@jit
def active(s, seat):
    return s[O_PLACE + seat] == 0


@jit
def has_cards(s, seat):
    return s[O_HANDN + seat] > 0 or s[O_NOTE + seat] >= 0


# ---- card sets as bits ----------------------------------------------------
# A set of cards is two int64 words: bit c of `lo` for cards 0..63, bit c - 64
# of `hi` for cards 64..76. Scanning a set's bits from `lo` to `hi`, low bit
# first, visits its cards in card-id order, the order of a scan of all cards.
def _bits(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    lo = m & 0xFFFFFFFFFFFFFFFF
    return (lo - (1 << 64) if lo >= 1 << 63 else lo), m >> 64


_matches_py = getattr(matches, "py_func", matches)  # (NUMBA_DISABLE_JIT=1: no dispatcher)


def _set_tables():
    """Per card: the cards that may be played on it (MATCH), and for a day card
    the other day cards sharing its worker or its day (LINK, greedy's links)."""
    m = np.zeros((2, NCARDS), np.int64)
    k = np.zeros((2, NCARDS), np.int64)
    for x in range(NCARDS):
        m[0, x], m[1, x] = _bits(c for c in range(NCARDS) if _matches_py(c, x))
        if x < NWORK:
            k[0, x], k[1, x] = _bits(d for d in range(NWORK) if d != x and (
                d // NDAYS == x // NDAYS or d % NDAYS == x % NDAYS))
    return m[0].copy(), m[1].copy(), k[0].copy(), k[1].copy()


MATCH_LO, MATCH_HI, LINK_LO, LINK_HI = _set_tables()
# per zone: bit p for seat p's hand, else 0 (no branch on where a card is)
ZONE_SEAT_BIT = np.array([1 << (z - Z_HAND0) if Z_HAND0 <= z < Z_HAND0 + MAXP else 0
                          for z in range(Z_NOTE0 + MAXP)], np.int64)


@jit(force=True)
def hand_bits(s, seat):
    """The cards in seat's hand, as a set (lo, hi). Branch-free, so that LLVM
    vectorises the scan of the zones."""
    z = Z_HAND0 + seat
    lo = np.int64(0)
    hi = np.int64(0)
    for c in range(64):
        lo |= np.int64(s[O_ZONE + c] == z) << c
    for c in range(64, NCARDS):
        hi |= np.int64(s[O_ZONE + c] == z) << (c - 64)
    return lo, hi


@jit
def nth_card(lo, hi, j):
    """The j-th card (from 0, in card-id order) of the set (lo, hi)."""
    k = popcount(lo)
    if j >= k:
        j -= k
        lo = hi
        base = 64
    else:
        base = 0
    for _ in range(j):
        lo &= lo - 1
    return base + lowbit(lo)


@jit(force=True)
def has_legal(tables, s, seat, top):
    lo, hi = hand_bits(s, seat)
    if (lo & MATCH_LO[top]) != 0 or (hi & MATCH_HI[top]) != 0:
        return True
    if tables[0][C_ADVANCED] == 1:
        note = s[O_NOTE + seat]
        if note >= 0 and matches(note, top):
            return True
    return False


@jit(force=True)
def legal_seats(tables, s, top):
    """The seats that could play on top (bit p: has_legal(seat p)), from one
    look at where each card that matches top is, not a scan of every hand."""
    m = np.int64(0)
    lo = MATCH_LO[top]
    while lo != 0:
        m |= ZONE_SEAT_BIT[s[O_ZONE + lowbit(lo)]]
        lo &= lo - 1
    hi = MATCH_HI[top]
    while hi != 0:
        m |= ZONE_SEAT_BIT[s[O_ZONE + 64 + lowbit(hi)]]
        hi &= hi - 1
    if tables[0][C_ADVANCED] == 1:
        for p in range(s[H_NP]):
            note = s[O_NOTE + p]
            if note >= 0 and matches(note, top):
                m |= np.int64(1) << p
    return m


@jit
def random_hand_card(s, seat, rng, want_wrong, top):
    """A random hand card (CHANCE); with want_wrong, one that does not match top
    (-1 if none qualifies)."""
    lo, hi = hand_bits(s, seat)
    if want_wrong:
        lo &= ~MATCH_LO[top]
        hi &= ~MATCH_HI[top]
    k = popcount(lo) + popcount(hi)
    if k == 0:
        return -1
    j = R.randint(rng, R.CHANCE, k)
    return nth_card(lo, hi, j)


@jit(force=True)
def reaction_ms(tables, seat, rng):
    """Lognormal reaction delay: median * exp(spread * N(0, 1)), at least 1 ms."""
    prof = tables[1]
    u1 = 1.0 - R.uniform(rng, R.CHANCE)
    u2 = R.uniform(rng, R.CHANCE)
    z = np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u2)
    d = prof[seat, F_MEDIAN] * 1000.0 * np.exp(prof[seat, F_SPREAD] * z)
    if d < 1.0:
        d = 1.0
    if d > 1.0e9:
        d = 1.0e9
    return np.int64(d)


# ---- zones ---------------------------------------------------------------
@jit
def to_hand(s, seat, c):
    s[O_ZONE + c] = Z_HAND0 + seat
    s[O_HANDN + seat] += 1


@jit
def from_hand(s, seat, c):
    s[O_HANDN + seat] -= 1
    s[O_ZONE + c] = Z_OUT


@jit
def to_pile(s, c, t):
    s[O_PILE + s[H_PILE_N]] = c
    s[H_PILE_N] += 1
    s[O_ZONE + c] = Z_PILE
    s[H_TOP] = c
    s[H_TOP_TIME] = t
    s[H_ACT_T] = t
    s[H_NOTE_BY] = -1
    if c >= NWORK:
        s[H_EVENTS_LANDED] += 1


@jit
def refill(s, trace):
    """"Flip over all but the top card of the play pile to make a new deck. No
    shuffling needed." Flipping the face-up pile turns its bottom card into the
    top of the new deck: the deck is drawn bottom card first."""
    n = s[H_PILE_N]
    if n <= 1:
        return
    k = n - 1
    for i in range(k):
        c = s[O_PILE + i]
        s[O_DECK + k - 1 - i] = c  # pile[0] ends at the deck's draw end
        s[O_ZONE + c] = Z_DECK
    s[H_DECK_N] = k
    top = s[O_PILE + n - 1]
    s[O_PILE] = top
    for i in range(1, n):
        s[O_PILE + i] = -1
    s[H_PILE_N] = 1
    s[H_REFILLS] += 1
    emit(trace, T_REFILL, s[H_CLOCK], k, 0, 0)


@jit
def draw(tables, s, seat, n, trace):
    """Draw up to n cards (refilling from the pile when the deck runs out). The
    seat is busy picking them up for `draw_time` seconds a card."""
    got = 0
    for _ in range(n):
        if s[H_DECK_N] == 0:
            refill(s, trace)
            if s[H_DECK_N] == 0:
                break
        s[H_DECK_N] -= 1
        c = s[O_DECK + s[H_DECK_N]]
        s[O_DECK + s[H_DECK_N]] = -1
        to_hand(s, seat, c)
        s[O_CNT + (seat * NCARDS + c) * N_CT + CT_DRAWN] += 1
        got += 1
    busy = s[H_CLOCK] + got * tables[0][C_DRAW_MS]
    if busy > s[O_BUSY + seat]:
        s[O_BUSY + seat] = busy
    return got


# ---- setup ---------------------------------------------------------------
@jit(refs=True)
def new_game(tables, n_players, rng, trace):
    cfg = tables[0]
    s = np.zeros(STATE_SIZE, np.int64)
    s[H_NP] = n_players
    for i in range(O_DECK, O_ZONE):
        s[i] = -1
    for p in range(MAXP):
        s[O_NOTE + p] = -1
        s[O_RT + p] = -1
    # "Shuffle the deck and 2 random event cards": which events, from the deal
    ev = np.arange(NEVENTS)
    zones.shuffle(rng, R.DEAL, ev, NEVENTS)
    n_ev = cfg[C_EVENTS]
    s[H_EV_IN] = n_ev
    # "Put a random 1-Monday card in the center"
    first = R.randint(rng, R.DEAL, NSUITS) * NDAYS
    deck = np.zeros(NCARDS, np.int64)
    k = 0
    for c in range(NWORK):
        if c != first:
            deck[k] = c
            k += 1
    for i in range(n_ev):
        deck[k] = NWORK + ev[i]
        k += 1
        emit(trace, T_EVENTS, ev[i], 0, 0, 0)
    zones.shuffle(rng, R.DEAL, deck, k)
    for i in range(k):
        s[O_DECK + i] = deck[i]
        s[O_ZONE + deck[i]] = Z_DECK
    s[H_DECK_N] = k
    to_pile(s, first, 0)
    s[H_EVENTS_LANDED] = 0
    tokens = cfg[C_TOKENS]
    if tokens < 0:  # rulebook: 2 each, 1 each for 6-8 players
        tokens = 2 if n_players <= 5 else 1
    has_party = False
    for i in range(n_ev):
        if ev[i] == EV_PIZZAPARTY:
            has_party = True
    if has_party:  # "1 pizza slice token per player minus 1 in the middle"
        s[H_MIDDLE] = n_players - 1 if cfg[C_SLICES] < 0 else cfg[C_SLICES]
    s[H_SLICES_TOTAL] = s[H_MIDDLE]
    emit(trace, T_SETUP, n_players, tokens, n_ev, first)
    for p in range(n_players):
        s[O_TOKENS + p] = tokens
    for _ in range(cfg[C_HAND]):
        for p in range(n_players):
            draw(tables, s, p, 1, trace)
    for p in range(n_players):
        emit(trace, T_DEAL, p, s[O_HANDN + p], 0, 0)
        s[O_BUSY + p] = 0  # the deal happens before the first card is turned
    s[H_LAST] = -1
    s[H_TOP_BY] = -1
    s[H_G_LAST] = -1
    schedule(tables, s, rng)
    next_moment(tables, s, rng, trace)
    return s


# ---- scheduling ----------------------------------------------------------
@jit(force=True)
def plan_mistake(tables, s, p, rng, kind, top, since):
    """Seat p will play a card of its hand by mistake (kind RK_WRONG: a card that does not match
    the top card; RK_TWICE: any card, right after its own), its reaction time after `since`;
    False when its hand has no such card."""
    c = random_hand_card(s, p, rng, kind == RK_WRONG, top)
    if c < 0:
        return False
    s[O_RK + p] = kind
    s[O_RCARD + p] = c
    s[O_RT + p] = since + reaction_ms(tables, p, rng)
    return True


@jit(force=True)
def schedule_seat(tables, s, p, rng, legal_mask, since):
    """Sample whether and when seat p reacts to the current top card
    (`legal_mask`: `legal_seats` of it), counting from `since` (the top card's
    time, or the Doctor's note that changed who may play). No reaction, not
    even a mistaken one, comes before the seat has picked up the cards it drew
    (`O_BUSY`); a correct one waits for the end of a Coffee Break."""
    prof = tables[1]
    s[O_RT + p] = -1
    s[O_RK + p] = RK_NONE
    s[O_RCARD + p] = -1
    if not active(s, p) or not has_cards(s, p):
        return
    top = s[H_TOP]
    ready = since if since > s[O_BUSY + p] else s[O_BUSY + p]
    start = ready if ready > s[H_BREAK] else s[H_BREAK]
    p_wrong = prof[p, F_WRONG]
    if p == s[H_LAST]:
        # "you can't play after yourself": only as a mistake
        if p_wrong > 0.0 and R.uniform(rng, R.CHANCE) < p_wrong:
            plan_mistake(tables, s, p, rng, RK_TWICE, top, ready)
        return
    legal = (legal_mask >> p) & 1 == 1
    if legal:
        impatient = p_wrong > 0.0 and R.uniform(rng, R.CHANCE) < p_wrong
        if impatient and start > ready:
            # jumps the gun in a Coffee Break: a legal card, but too early
            s[O_RK + p] = RK_LEGAL
            s[O_RT + p] = ready + reaction_ms(tables, p, rng)
            return
        if impatient and plan_mistake(tables, s, p, rng, RK_WRONG, top, start):
            return  # sees a match that is not there
        s[O_RK + p] = RK_LEGAL
        s[O_RT + p] = start + reaction_ms(tables, p, rng)
        return
    if p_wrong > 0.0 and R.uniform(rng, R.CHANCE) < p_wrong:
        plan_mistake(tables, s, p, rng, RK_WRONG, top, start)


@jit(force=True)
def schedule(tables, s, rng):
    legal_mask = legal_seats(tables, s, s[H_TOP])
    for p in range(s[H_NP]):
        schedule_seat(tables, s, p, rng, legal_mask, s[H_TOP_TIME])


@jit
def staller(s):
    """Who plays when nobody can: the last player; after a collision (or at the
    start) the one whose card is on top; if that seat is out, the next seat
    still playing, clockwise."""
    n = s[H_NP]
    p = s[H_LAST]
    if p >= 0 and active(s, p) and has_cards(s, p):
        return p
    b = s[H_TOP_BY]
    if b < 0:
        b = n - 1
    elif active(s, b) and has_cards(s, b):
        return b
    for k in range(1, n + 1):
        q = (b + k) % n
        if active(s, q) and has_cards(s, q):
            return q
    return -1


@jit(force=True)
def next_moment(tables, s, rng, trace):
    """Find what happens next: a group of reactions, or the stall rule."""
    n = s[H_NP]
    cfg = tables[0]
    best = -1
    any_legal = False
    for p in range(n):
        if s[O_RT + p] >= 0:
            if s[O_RK + p] == RK_LEGAL:
                any_legal = True
            if best < 0 or s[O_RT + p] < best:
                best = s[O_RT + p]
    stall_t = -1
    if not any_legal:
        # counted from the last turn: a Doctor's note restarts it (nobody can play
        # for stall_delay after the note before the last player must play)
        t0 = s[H_ACT_T]
        start = t0 if t0 > s[H_BREAK] else s[H_BREAK]
        stall_t = start + cfg[C_STALL_MS]
        if stall_t <= s[H_CLOCK]:
            stall_t = s[H_CLOCK] + 1
    if best < 0 or (stall_t >= 0 and stall_t < best):
        st = staller(s)
        if st < 0:
            end_game(s, END.stuck, trace)
            return
        s[H_PHASE] = PH_STALL
        s[H_STALL_SEAT] = st
        s[H_STALL_T] = stall_t
        s[H_TO_MOVE] = st
        return
    # the group: everyone within the collision window of the earliest
    limit = best + cfg[C_WINDOW_MS]
    g = 0
    for p in range(n):
        t = s[O_RT + p]
        if t >= 0 and t <= limit:
            # insertion by (time, seat)
            j = g
            while j > 0 and s[O_G_TIME + j - 1] > t:
                s[O_G_SEAT + j] = s[O_G_SEAT + j - 1]
                s[O_G_TIME + j] = s[O_G_TIME + j - 1]
                j -= 1
            s[O_G_SEAT + j] = p
            s[O_G_TIME + j] = t
            g += 1
    s[H_G_N] = g
    s[H_G_I] = 0
    s[H_G_TOP] = s[H_TOP]
    s[H_G_LAST] = s[H_LAST]
    s[H_G_CHANGED] = 0
    s[H_ACCUSABLE] = 0
    s[H_PQ_N] = 0
    s[H_PQ_I] = 0
    if g > 1:
        s[H_COLLISIONS] += 1
        emit(trace, T_COLLIDE, best, g, 0, 0)
    s[H_PHASE] = PH_ACT
    s[H_TO_MOVE] = s[O_G_SEAT]


@jit
def end_game(s, reason, trace):
    s[H_OVER] = reason
    s[H_PHASE] = PH_OVER
    s[H_TO_MOVE] = -1
    emit(trace, T_END, s[H_CLOCK], reason, s[H_NWON], 0)


# ---- decisions -----------------------------------------------------------
@jit
def to_move(s):
    if s[H_OVER] != 0:
        return -1
    return s[H_TO_MOVE]


@jit
def put_cards(out, n, code, lo, hi):
    """Append code + c for every card c of the set (lo, hi), in card-id order."""
    while lo != 0:
        out[n] = code + lowbit(lo)
        n += 1
        lo &= lo - 1
    while hi != 0:
        out[n] = code + 64 + lowbit(hi)
        n += 1
        hi &= hi - 1
    return n


@jit(force=True)
def legal(tables, s, out):
    ph = s[H_PHASE]
    seat = s[H_TO_MOVE]
    n = 0
    if ph == PH_SLICE:
        out[0] = OP_SLICE_USE * 100
        out[1] = OP_SLICE_KEEP * 100
        return 2
    z = Z_HAND0 + seat
    if ph == PH_STALL:
        lo, hi = hand_bits(s, seat)
        n = put_cards(out, n, OP_STALL * 100, lo, hi)
        # "You cannot make and then immediately play a doctor's note": not the
        # note the staller has just made (its hand is never empty then)
        if s[O_NOTE + seat] >= 0 and (s[H_NOTE_BY] != seat or n == 0):
            out[n] = OP_STALL * 100 + s[O_NOTE + seat]
            n += 1
        return n
    if ph != PH_ACT:
        return 0
    kind = s[O_RK + seat]
    if kind == RK_WRONG or kind == RK_TWICE:
        c = s[O_RCARD + seat]
        if c >= 0 and s[O_ZONE + c] == z:
            out[0] = OP_PLAY * 100 + c
            return 1
    top = s[H_G_TOP]
    adv = tables[0][C_ADVANCED] == 1
    note = s[O_NOTE + seat]
    hlo, hhi = hand_bits(s, seat)
    lo = hlo & MATCH_LO[top]
    hi = hhi & MATCH_HI[top]
    n = put_cards(out, n, OP_PLAY * 100, lo, hi)
    if adv:
        # "you cannot make and then immediately play a doctor's note, and you
        # cannot make or play one after you played a card": both follow from
        # nobody acting twice in a row (a seat is never asked right after itself)
        if note < 0 and s[O_HANDN + seat] > 1:
            n = put_cards(out, n, OP_MAKE_NOTE * 100, lo, hi)
        if note >= 0 and matches(note, top):
            out[n] = OP_PLAY_NOTE * 100 + note
            n += 1
    if n == 0:
        # only in a determinised state (lookahead): the hand changed under a reaction
        n = put_cards(out, n, OP_PLAY * 100, hlo, hhi)
        if n == 0:
            out[0] = OP_PASS * 100
            n = 1
    return n


@jit(force=True)
def action(tables, s, option):
    """(kind, card, target, choice) of a legal option (ACT; kind OP - 1 of its code OP): the card played,
    made a note, or stalled with; -1 where one does not apply."""
    kind = option // 100
    if kind == OP_PLAY or kind == OP_MAKE_NOTE or kind == OP_PLAY_NOTE or kind == OP_STALL:
        return kind - 1, option % 100, -1, -1
    return kind - 1, -1, -1, -1


@jit
def queue_penalty(s, seat, cause):
    if s[H_PQ_N] < PQ_CAP:
        s[O_PQ_SEAT + s[H_PQ_N]] = seat
        s[O_PQ_CAUSE + s[H_PQ_N]] = cause
        s[H_PQ_N] += 1
    s[H_PEN0 + cause] += 1
    s[O_SEAT_PEN + seat] += 1


@jit
def land_event(tables, s, seat, c, t, rng, trace):
    """What an event card does when it lands on the pile."""
    e = c - NWORK
    n = s[H_NP]
    if e == EV_COFFEE:
        # "Relax! No one can play for 10 seconds."
        until = t + tables[0][C_COFFEE_MS]
        if until > s[H_BREAK]:
            s[H_BREAK] = until
        emit(trace, T_COFFEE, t, until, 0, 0)
    elif e == EV_LOOKBUSY:
        # "The last player to 'look busy' (type on table) draws 2 cards."
        slow = -1
        slow_t = -1
        for p in range(n):
            if p != seat and active(s, p):
                d = reaction_ms(tables, p, rng)
                if d > slow_t:
                    slow_t = d
                    slow = p
        if slow >= 0:
            emit(trace, T_LOOKBUSY, t, slow, slow_t, 0)
            queue_penalty(s, slow, CA_LOOKBUSY)
    elif e == EV_PIZZAPARTY:
        # "When someone plays Pizza Party, you may grab a pizza token from the
        # middle": the fastest hands get the slices, one each
        # (no array allocated here: step runs without reference counting)
        for p in range(n):
            s[O_SCRATCH + p] = reaction_ms(tables, p, rng) if active(s, p) else -1
        while s[H_MIDDLE] > 0:
            q = -1
            for p in range(n):
                if s[O_SCRATCH + p] >= 0 and (q < 0 or s[O_SCRATCH + p] < s[O_SCRATCH + q]):
                    q = p
            if q < 0:
                break
            s[H_MIDDLE] -= 1
            s[O_SLICES + q] += 1
            s[H_GRABS] += 1
            emit(trace, T_GRAB, t, q, s[H_MIDDLE], s[O_SCRATCH + q])
            s[O_SCRATCH + q] = -1
        for p in range(n):
            s[O_SCRATCH + p] = 0


@jit
def act(tables, s, option, rng, trace):
    """A group member's play (or Doctor's note action)."""
    i = s[H_G_I]
    seat = s[O_G_SEAT + i]
    t = s[O_G_TIME + i]
    g = s[H_G_N]
    top0 = s[H_G_TOP]
    kind = option // 100
    c = option % 100
    if t > s[H_CLOCK]:
        s[H_CLOCK] = t
    s[O_RT + seat] = -1
    s[O_RK + seat] = RK_NONE
    if kind != OP_PASS:
        if kind == OP_PLAY_NOTE:
            s[O_NOTE + seat] = -1
            s[O_ZONE + c] = Z_OUT
        else:
            from_hand(s, seat, c)
        # the mistake, if any (one draw-2 per play, the first cause that applies)
        cause = -1
        if g > 1:
            cause = CA_COLLISION
        elif t < s[H_BREAK]:
            cause = CA_COFFEE
        elif seat == s[H_G_LAST]:
            cause = CA_TWICE
        elif not matches(c, top0):
            cause = CA_WRONG
        elif top0 >= NWORK and CELEBRATE[top0 - NWORK] == 1:
            if R.uniform(rng, R.CHANCE) < tables[1][seat, F_FORGET]:
                cause = CA_FORGET
            else:
                emit(trace, T_CELEBRATE, t, seat, top0 - NWORK, 0)
        if kind == OP_MAKE_NOTE and cause < 0:
            s[O_NOTE + seat] = c
            s[O_ZONE + c] = Z_NOTE0 + seat
            s[H_NOTES_MADE] += 1
            s[H_LAST] = seat
            s[H_ACT_T] = t
            s[H_NOTE_BY] = seat
            emit(trace, T_NOTE_MAKE, t, seat, c, 0)
        else:
            # "leave the card you played or wanted to play on the Play Pile"
            to_pile(s, c, t)
            s[H_TOP_BY] = seat
            s[H_G_CHANGED] = 1
            s[H_PLAYS] += 1
            s[O_SEAT_PLAYS + seat] += 1
            s[O_CNT + (seat * NCARDS + c) * N_CT + CT_PLAYED] += 1
            if kind == OP_PLAY_NOTE:
                s[H_NOTES_PLAYED] += 1
                emit(trace, T_NOTE_PLAY, t, seat, c, top0)
            else:
                emit(trace, T_PLAY, t, seat, c, top0)
            if cause < 0 and g == 1 and same_worker_only(c, top0):
                s[H_ACCUSABLE] = 1
            if c >= NWORK:
                land_event(tables, s, seat, c, t, rng, trace)
        if cause >= 0:
            emit(trace, T_MISTAKE, t, seat, cause, c)
            queue_penalty(s, seat, cause)
    s[H_G_I] = i + 1
    if i + 1 < g:
        s[H_TO_MOVE] = s[O_G_SEAT + i + 1]
        return
    # the group is done
    if s[H_G_CHANGED] == 1:
        s[H_LAST] = seat if g == 1 else -1  # "then anyone may play next"
    if s[H_ACCUSABLE] == 1:
        # "Wrongly accuse someone else ... they play the same worker but you
        # call them out for the wrong day"
        for p in range(s[H_NP]):
            if p != seat and active(s, p) and R.uniform(rng, R.CHANCE) < tables[1][p, F_ACCUSE]:
                emit(trace, T_ACCUSE, t, p, seat, c)
                queue_penalty(s, p, CA_ACCUSE)
    settle(tables, s, rng, trace)


@jit
def stall(tables, s, option, rng, trace):
    """Simple flow: "If no one can play a card, the player who played last plays
    any card from their hand. They don't get punished for this.\""""
    seat = s[H_STALL_SEAT]
    c = option % 100
    t = s[H_STALL_T]
    if t > s[H_CLOCK]:
        s[H_CLOCK] = t
    top0 = s[H_TOP]
    if s[O_NOTE + seat] == c:
        s[O_NOTE + seat] = -1
        s[O_ZONE + c] = Z_OUT
        s[H_NOTES_PLAYED] += 1
    else:
        from_hand(s, seat, c)
    to_pile(s, c, t)
    s[H_TOP_BY] = seat
    s[H_LAST] = seat
    s[H_STALLS] += 1
    s[H_PLAYS] += 1
    s[O_SEAT_PLAYS + seat] += 1
    s[O_CNT + (seat * NCARDS + c) * N_CT + CT_PLAYED] += 1
    emit(trace, T_STALL, t, seat, c, top0)
    s[H_G_N] = 1
    s[O_G_SEAT] = seat
    s[H_G_CHANGED] = 1
    s[H_PQ_N] = 0
    s[H_PQ_I] = 0
    if c >= NWORK:
        land_event(tables, s, seat, c, t, rng, trace)
    settle(tables, s, rng, trace)


@jit(force=True)
def settle(tables, s, rng, trace):
    """Pay the draw-2 queue (asking slice holders), then emptied hands, the end
    check, and the next schedule."""
    while s[H_PQ_I] < s[H_PQ_N]:
        j = s[H_PQ_I]
        p = s[O_PQ_SEAT + j]
        if s[O_SLICES + p] > 0 and active(s, p):
            s[H_PHASE] = PH_SLICE
            s[H_TO_MOVE] = p
            return
        got = draw(tables, s, p, 2, trace)
        emit(trace, T_DRAW, s[H_CLOCK], p, got, s[O_PQ_CAUSE + j])
        s[H_PQ_I] = j + 1
    after_penalties(tables, s, rng, trace)


@jit
def slice_choice(tables, s, option, rng, trace):
    j = s[H_PQ_I]
    p = s[O_PQ_SEAT + j]
    cause = s[O_PQ_CAUSE + j]
    if option // 100 == OP_SLICE_USE:
        # "you can put the pizza back in the middle of the table instead"
        s[O_SLICES + p] -= 1
        s[H_MIDDLE] += 1
        s[H_SLICES_USED] += 1
        emit(trace, T_SLICE_USE, s[H_CLOCK], p, cause, 0)
    else:
        got = draw(tables, s, p, 2, trace)
        emit(trace, T_DRAW, s[H_CLOCK], p, got, cause)
    s[H_PQ_I] = j + 1
    settle(tables, s, rng, trace)


@jit
def winners_needed(cfg, n):
    """"The game continues until all but 2 players win. (i.e. 2 winners for 3
    players, 6 winners for 8 players)": all but `left_at_end`, and at least
    `min_winners`; never all of them."""
    need = n - cfg[C_LEFT]
    if need < cfg[C_MIN_WINNERS]:
        need = cfg[C_MIN_WINNERS]
    if need > n - 1:
        need = n - 1
    if need < 1:
        need = 1
    return need


@jit(force=True)
def after_penalties(tables, s, rng, trace):
    n = s[H_NP]
    cfg = tables[0]
    t = s[H_CLOCK]
    # "If you play all your cards (and don't need to draw cards)"
    for p in range(n):
        if active(s, p) and s[O_HANDN + p] == 0 and s[O_NOTE + p] < 0:
            if s[O_TOKENS + p] > 0:
                s[O_TOKENS + p] -= 1
                s[H_TOKENS_BACK] += 1
                got = draw(tables, s, p, cfg[C_HAND], trace)
                emit(trace, T_TOKEN, t, p, s[O_TOKENS + p], got)
            else:
                s[H_NWON] += 1
                s[O_PLACE + p] = s[H_NWON]
                s[H_MIDDLE] += s[O_SLICES + p]  # a winner's slices go back to the middle
                s[O_SLICES + p] = 0
                s[O_RT + p] = -1
                s[O_RK + p] = RK_NONE
                emit(trace, T_WIN, t, p, s[H_NWON], 0)
    if s[H_NWON] >= winners_needed(cfg, n):
        end_game(s, END.all_but_left_won, trace)
        return
    if s[H_G_CHANGED] == 1:
        schedule(tables, s, rng)
    else:
        # only a Doctor's note was made: the top card is the same and the others'
        # reactions to it stand; the note maker is now the last player, and the
        # seat that was the last player may play again ("you must alternate with
        # others"): both react anew, from the note
        legal_mask = legal_seats(tables, s, s[H_TOP])
        for i in range(s[H_G_N]):
            schedule_seat(tables, s, s[O_G_SEAT + i], rng, legal_mask, t)
        was_last = s[H_G_LAST]
        if was_last >= 0 and was_last != s[H_LAST]:
            schedule_seat(tables, s, was_last, rng, legal_mask, t)
    next_moment(tables, s, rng, trace)


@jit(force=True)
def step(tables, s, option, rng, trace):
    ph = s[H_PHASE]
    if ph == PH_ACT:
        act(tables, s, option, rng, trace)
    elif ph == PH_SLICE:
        slice_choice(tables, s, option, rng, trace)
    elif ph == PH_STALL:
        stall(tables, s, option, rng, trace)


# ---- results -------------------------------------------------------------
@jit
def cards_left(s, p):
    return s[O_HANDN + p] + (1 if s[O_NOTE + p] >= 0 else 0)


@jit(refs=True)
def places(tables, s):
    """Finishing place of every seat: winners by the order they went out; the
    rest after them by tokens left, then cards left (ties share a place)."""
    n = s[H_NP]
    out = np.zeros(n, np.int64)
    hand = tables[0][C_HAND]
    for p in range(n):
        if s[O_PLACE + p] > 0:
            out[p] = s[O_PLACE + p]
    for p in range(n):
        if s[O_PLACE + p] == 0:
            mine = s[O_TOKENS + p] * hand + cards_left(s, p)
            better = 0
            for q in range(n):
                if s[O_PLACE + q] > 0:
                    better += 1
                elif q != p and s[O_TOKENS + q] * hand + cards_left(s, q) < mine:
                    better += 1
            out[p] = better + 1
    return out


@jit(refs=True)
def avg_ranks(x, n):
    r = np.zeros(n)
    for i in range(n):
        less = 0
        eq = 0
        for j in range(n):
            if x[j] < x[i]:
                less += 1
            elif x[j] == x[i]:
                eq += 1
        r[i] = less + (eq + 1) / 2.0
    return r


@jit(refs=True)
def spearman(x, y, n):
    """Rank correlation (average ranks for ties); NaN when either is constant."""
    rx = avg_ranks(x, n)
    ry = avg_ranks(y, n)
    mx = rx.mean()
    my = ry.mean()
    sxy = 0.0
    sxx = 0.0
    syy = 0.0
    for i in range(n):
        sxy += (rx[i] - mx) * (ry[i] - my)
        sxx += (rx[i] - mx) ** 2
        syy += (ry[i] - my) ** 2
    if sxx == 0.0 or syy == 0.0:
        return np.nan
    return sxy / np.sqrt(sxx * syy)


# game columns that are a state word as the game ends: (column, word)
FINAL_WORDS = (
    (G.plays, H_PLAYS), (G.stalls, H_STALLS), (G.collisions, H_COLLISIONS), (G.slices_used, H_SLICES_USED),
    (G.events_played, H_EVENTS_LANDED), (G.notes_made, H_NOTES_MADE), (G.notes_played, H_NOTES_PLAYED),
    (G.refills, H_REFILLS), (G.tokens_returned, H_TOKENS_BACK), (G.winners, H_NWON),
)


@jit(refs=True)
def outcome(tables, s, game_row, seat_rows):
    n = s[H_NP]
    prof = tables[1]
    game_row[G.end_reason] = s[H_OVER] if s[H_OVER] != 0 else END.all_but_left_won
    pl = places(tables, s)
    med = np.zeros(n)
    plf = np.zeros(n)
    for p in range(n):
        med[p] = prof[p, F_MEDIAN]
        plf[p] = pl[p]
    fastest = 0
    unique = True
    for p in range(1, n):
        if med[p] < med[fastest]:
            fastest = p
    for p in range(n):
        if p != fastest and med[p] == med[fastest]:
            unique = False
    game_row[G.minutes] = s[H_CLOCK] / 60000.0
    for column, word in FINAL_WORDS:
        game_row[column] = s[word]
    total = 0
    for c in range(N_CAUSES):  # draw2_<cause> are declared in cause order (CAUSE_NAMES)
        game_row[G.draw2_collision + c] = s[H_PEN0 + c]
        total += s[H_PEN0 + c]
    game_row[G.draw2_total] = total
    game_row[G.fastest_seat] = fastest if unique else -1
    game_row[G.fastest_place] = pl[fastest] if unique else -1
    game_row[G.speed_rank_corr] = spearman(med, plf, n)
    for p in range(n):
        seat_rows[p, S.won] = 1.0 if s[O_PLACE + p] > 0 else 0.0
        seat_rows[p, S.score] = n - pl[p]
        seat_rows[p, S.place] = pl[p]
        seat_rows[p, S.reaction_median] = med[p]
        seat_rows[p, S.seat_plays] = s[O_SEAT_PLAYS + p]
        seat_rows[p, S.seat_draw2] = s[O_SEAT_PEN + p]
        seat_rows[p, S.tokens_left] = s[O_TOKENS + p]
        seat_rows[p, S.cards_left] = cards_left(s, p)


@jit(refs=True)
def clone(s):
    return s.copy()


@jit(refs=True)
def determinise(tables, s, seat, rng):
    """Redraw what `seat` cannot see: the deck order, the other hands and the
    other face-down notes (counts kept), using the POLICY stream. Pending
    reactions that name a card no longer held fall back in `legal`."""
    n = s[H_NP]
    pool = np.zeros(NCARDS, np.int64)
    k = 0
    for c in range(NCARDS):
        z = s[O_ZONE + c]
        if z == Z_DECK or (z >= Z_HAND0 and z < Z_HAND0 + MAXP and z != Z_HAND0 + seat) or \
                (z >= Z_NOTE0 and z != Z_NOTE0 + seat):
            pool[k] = c
            k += 1
    zones.redeal(rng, pool, k)
    j = 0
    for i in range(s[H_DECK_N]):
        s[O_DECK + i] = pool[j]
        s[O_ZONE + pool[j]] = Z_DECK
        j += 1
    for p in range(n):
        if p == seat:
            continue
        if s[O_NOTE + p] >= 0:
            s[O_NOTE + p] = pool[j]
            s[O_ZONE + pool[j]] = Z_NOTE0 + p
            j += 1
        for _ in range(s[O_HANDN + p]):
            s[O_ZONE + pool[j]] = Z_HAND0 + p
            j += 1


@jit(refs=True)
def card_counts(s):
    n = s[H_NP]
    out = s[O_CNT:O_CNT + n * NCARDS * N_CT].reshape((n, NCARDS, N_CT)).copy()
    for p in range(n):
        for c in range(NCARDS):
            z = s[O_ZONE + c]
            out[p, c, CT_HELD] = 1 if z == Z_HAND0 + p or z == Z_NOTE0 + p else 0
    return out
