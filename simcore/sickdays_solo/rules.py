"""Sick Days solo/co-op rules as numba kernels over one int64 state array.

Card id = row of the card table: 0..69 workers (suit * 7 + day index),
70..76 the seven event cards. Every card instance lives in exactly one zone
(`O_ZONE`), mirrored by the containers (deck, hands, discard pile, removed
pile, calendar cells, the automa's pending card).

Calendar: 7 columns (days) x R rows (weeks); cards of a column fill top-down
(`O_HEIGHT` = next open row). Lines for happiness: a row (r fixed), a
diagonal r - c = k, or an anti-diagonal r + c = k; cards on a line need not be
adjacent. Per worker and line, real face-up counts are kept incrementally.
"""
import numpy as np

from balance.simcore import rng as R
from balance.simcore import zones
from balance.simcore.bits import udiv, umod
from balance.simcore.jit import jit
from balance.simcore.scratch import stack_i64
from balance.simcore.trace import emit

from .constants import *  # noqa: F403  the rules read the names bare; rules.X keeps working


@jit
def grid_size(rows):
    return 2 * rows * NCOL + rows + NSUITS * rows + 2 * NSUITS * (rows + NCOL)


@jit
def state_size(rows, n_players):
    return O_GRID + grid_size(rows) + n_players * NCARDS * N_CT


@jit
def o_cnt(s):
    """Card counters: seat p, card, kind at o_cnt(s) + (p * NCARDS + card) * N_CT + kind."""
    return O_GRID + grid_size(s[H_ROWS])


@jit
def o_kind(s):
    return O_GRID + s[H_ROWS] * NCOL


@jit
def o_rowfill(s):
    return O_GRID + 2 * s[H_ROWS] * NCOL


@jit
def o_rowcnt(s):
    return o_rowfill(s) + s[H_ROWS]


@jit
def o_d1(s):
    return o_rowcnt(s) + NSUITS * s[H_ROWS]


@jit
def o_d2(s):
    return o_d1(s) + NSUITS * (s[H_ROWS] + NCOL)


@jit(force=True)
def worker_lines(s, w, kind):
    """Where worker w's face-up counts on the lines of `kind` (0 weeks, 1 diagonals, 2 anti-diagonals)
    start in s, and how many lines of that kind there are."""
    rows = s[H_ROWS]
    if kind == 0:
        return o_rowcnt(s) + w * rows, rows
    return (o_d1(s) if kind == 1 else o_d2(s)) + w * (rows + NCOL), rows + NCOL


@jit
def line_count(s, w, kind, r, c):
    """Real face-up cards of worker w on the line of `kind` through (r, c)."""
    rows = s[H_ROWS]
    if kind == 0:
        return s[o_rowcnt(s) + w * rows + r]
    if kind == 1:
        return s[o_d1(s) + w * (rows + NCOL) + r - c + 6]
    return s[o_d2(s) + w * (rows + NCOL) + r + c]


@jit
def cell(s, r, c):
    return O_GRID + r * NCOL + c


@jit
def on_line(kind, r, c, r2, c2):
    if kind == 0:
        return r == r2
    if kind == 1:
        return r - c == r2 - c2
    return r + c == r2 + c2


@jit
def wild_on_line(s, w, kind, r, c):
    """1 if a wild card can act as the third card for w on this line."""
    if kind == 0 and s[H_NY_R] == r:
        return 1
    if s[H_VAL_R] >= 0 and (s[H_VAL_W] == -1 or s[H_VAL_W] == w) and on_line(kind, r, c, s[H_VAL_R], s[H_VAL_C]):
        return 1
    return 0


# ---- zone helpers ------------------------------------------------------
@jit
def hand_remove(s, seat, i):
    base = O_HAND + seat * HAND_CAP
    n = s[O_HANDN + seat]
    card = s[base + i]
    for j in range(i, n - 1):
        s[base + j] = s[base + j + 1]
    s[base + n - 1] = -1
    s[O_HANDN + seat] = n - 1
    return card


@jit
def hand_add(s, seat, card):
    n = s[O_HANDN + seat]
    s[O_HAND + seat * HAND_CAP + n] = card
    s[O_HANDN + seat] = n + 1
    s[O_ZONE + card] = Z_HAND0 + seat


@jit
def cnt_add(s, seat, card, kind):
    s[o_cnt(s) + (seat * NCARDS + card) * N_CT + kind] += 1


@jit
def draw_up(s, seat, trace):
    n = 0
    while s[O_HANDN + seat] < s[H_HAND] and s[H_DECK_N] > 0:
        s[H_DECK_N] -= 1
        card = s[O_DECK + s[H_DECK_N]]
        s[O_DECK + s[H_DECK_N]] = -1
        hand_add(s, seat, card)
        cnt_add(s, seat, card, CT_DRAWN)
        n += 1
    if n > 0:
        emit(trace, T_DRAW, seat, n, 0, 0)


@jit
def deck_push(s, card):
    s[O_DECK + s[H_DECK_N]] = card
    s[H_DECK_N] += 1
    s[O_ZONE + card] = Z_DECK


@jit
def disc_push(s, card):
    s[O_DISC + s[H_DISC_N]] = card
    s[H_DISC_N] += 1
    s[O_ZONE + card] = Z_DISCARD


@jit
def disc_remove(s, i):
    n = s[H_DISC_N]
    card = s[O_DISC + i]
    for j in range(i, n - 1):
        s[O_DISC + j] = s[O_DISC + j + 1]
    s[O_DISC + n - 1] = -1
    s[H_DISC_N] = n - 1
    return card


@jit
def note_card_index(s):
    """Which discard becomes the Doctor's note. Not a decision in this engine:
    a note is blank, so the card only matters to Look Busy later; take a happy
    worker's card (or an event) first, else the oldest discard."""
    for i in range(s[H_DISC_N]):
        card = s[O_DISC + i]
        if card >= NWORK or s[O_HAPPY + card // 7] == 1:
            return i
    return 0


# ---- calendar ----------------------------------------------------------
@jit
def col_open(s, c):
    return s[O_HEIGHT + c] < s[H_ROWS]


@jit
def note_ok(tables, s, r, c):
    """A Doctor's note may not touch another note orthogonally (diagonally too
    with note_diagonal_adjacency)."""
    rows = s[H_ROWS]
    at = o_kind(s) + r * NCOL + c  # the cell's index in the kind grid (row-major)
    up = r + 1 < rows
    down = r > 0
    left = c > 0
    right = c + 1 < NCOL
    if (down and s[at - NCOL] == K_NOTE) or (up and s[at + NCOL] == K_NOTE) \
            or (left and s[at - 1] == K_NOTE) or (right and s[at + 1] == K_NOTE):
        return False
    if tables[0][C_NOTE_DIAG] != 0:
        if down and ((left and s[at - NCOL - 1] == K_NOTE) or (right and s[at - NCOL + 1] == K_NOTE)):
            return False
        if up and ((left and s[at + NCOL - 1] == K_NOTE) or (right and s[at + NCOL + 1] == K_NOTE)):
            return False
    return True


@jit
def set_over(s, reason, trace):
    s[H_OVER] = reason
    if reason == END.all_happy:
        emit(trace, T_WIN, s[H_TURNS], 0, 0, 0)
    else:
        emit(trace, T_LOSE, reason, missing(s), 0, 0)


@jit
def make_happy(s, w, kind, wild, trace):
    s[O_HAPPY + w] = 1
    s[O_HTURN + w] = s[H_TURNS]
    s[H_HAPPY_N] += 1
    emit(trace, T_HAPPY, w, kind, wild, s[H_TURNS])
    if s[H_HAPPY_N] >= s[H_KEPT] and s[H_OVER] == 0:
        set_over(s, END.all_happy, trace)


@jit
def check_worker_at(s, w, r, c, trace):
    """After a face-up card of w lands at (r, c): is w happy on a line through it?"""
    if s[O_HAPPY + w] != 0:
        return
    for kind in range(3):
        n = line_count(s, w, kind, r, c)
        if n >= 3:
            make_happy(s, w, kind, 0, trace)
            return
    for kind in range(3):
        n = line_count(s, w, kind, r, c)
        if n == 2:
            if kind == 0 and s[H_NY_R] == r:
                make_happy(s, w, kind, 1, trace)
                return
            if s[H_VAL_R] >= 0 and s[H_VAL_W] == -1 and on_line(kind, r, c, s[H_VAL_R], s[H_VAL_C]):
                s[H_VAL_W] = w
                make_happy(s, w, kind, 2, trace)
                return


@jit
def place(s, card, kind, r, c, pizza_row, trace):
    """Put a card into the open cell (r, c) (top open spot of column c)."""
    s[cell(s, r, c)] = card
    s[o_kind(s) + r * NCOL + c] = kind
    s[O_HEIGHT + c] = r + 1
    fill = o_rowfill(s) + r
    s[fill] += 1
    if kind == K_FACEUP:
        s[O_ZONE + card] = Z_FACEUP
        add_face_up(s, card, r, c)
    elif kind == K_NOTE:
        s[O_ZONE + card] = Z_NOTE
    else:
        s[O_ZONE + card] = Z_EVENT
    if s[fill] == NCOL:
        # "When a week is full ... flip a pizza to the ready side."
        k = min(pizza_row, s[H_USED])
        if k > 0:
            s[H_USED] -= k
            s[H_READY] += k
            s[H_REGAINED] += k
        emit(trace, T_PIZZA_READY, r, s[H_READY], k, 0)


@jit
def add_face_up(s, card, r, c):
    w = card // 7
    rows = s[H_ROWS]
    s[o_rowcnt(s) + w * rows + r] += 1
    s[o_d1(s) + w * (rows + NCOL) + r - c + 6] += 1
    s[o_d2(s) + w * (rows + NCOL) + r + c] += 1


@jit
def best_line(s, w):
    """Best real count of w on any line, wilds included (a wild only counts as
    a third card)."""
    rows = s[H_ROWS]
    best = 0
    b0 = o_rowcnt(s) + w * rows
    for r in range(rows):
        n = s[b0 + r]
        if n == 2 and s[H_NY_R] == r:
            n = 3
        if n > best:
            best = n
    for kind in range(1, 3):
        b = (o_d1(s) if kind == 1 else o_d2(s)) + w * (rows + NCOL)
        for i in range(rows + NCOL):
            n = s[b + i]
            if n > best:
                best = n
    if best == 2 and s[H_VAL_R] >= 0 and s[H_VAL_W] == -1:
        for kind in range(3):
            if line_count(s, w, kind, s[H_VAL_R], s[H_VAL_C]) == 2:
                best = 3
    return min(best, 3)


@jit
def missing(s):
    m = 0
    for w in range(NSUITS):
        if s[O_HAPPY + w] == 0:
            m += 3 - best_line(s, w)
    return m


@jit
def has_note_spot(tables, s):
    for c in range(NCOL):
        if col_open(s, c) and note_ok(tables, s, s[O_HEIGHT + c], c):
            return True
    return False


# ---- setup -------------------------------------------------------------
@jit(refs=True)
def new_game(tables, n_players, rng, trace):
    cfg = tables[0]
    rows = cfg[C_ROWS]
    s = np.zeros(state_size(rows, n_players), np.int64)
    s[H_NP] = n_players
    s[H_ROWS] = rows
    s[H_HAND] = cfg[C_HAND]
    s[H_AUTOMA] = cfg[C_AUTOMA]
    s[H_READY] = cfg[C_READY]
    s[H_USED] = cfg[C_TOTAL] - cfg[C_READY]
    s[H_AUT_CARD] = -1
    s[H_BD_R] = -1
    s[H_BD_C] = -1
    s[H_NY_R] = -1
    s[H_VAL_R] = -1
    s[H_VAL_C] = -1
    s[H_VAL_W] = -1
    kept = cfg[C_SUITS]
    s[H_KEPT] = kept
    for w in range(NSUITS):
        s[O_HTURN + w] = -1
        s[O_HAPPY + w] = 0 if w < kept else -1
    for i in range(O_HAND, O_ZONE):
        s[i] = -1
    for i in range(O_GRID, O_GRID + rows * NCOL):
        s[i] = -1
    deck = np.empty(NCARDS, np.int64)
    n = 0
    for card in range(kept * 7):
        deck[n] = card
        n += 1
    zones.shuffle(rng, R.DEAL, deck, n)
    # removed unseen: the last `removed` of the shuffled deck
    n_rem = cfg[C_REMOVED]
    for i in range(n_rem):
        card = deck[n - 1 - i]
        s[O_REM + i] = card
        s[O_ZONE + card] = Z_REMOVED
    s[H_REM_N] = n_rem
    n -= n_rem
    ev = np.arange(NEVENTS)
    zones.shuffle(rng, R.DEAL, ev, NEVENTS)
    n_ev = cfg[C_EVENTS]
    for i in range(n_ev):
        deck[n] = NWORK + ev[i]
        n += 1
    s[H_EVENTS_IN] = n_ev
    zones.shuffle(rng, R.DEAL, deck, n)
    for i in range(n):
        deck_push(s, deck[i])
    s[H_INGAME] = kept * 7 + n_ev
    emit(trace, T_SETUP, kept, n_rem, n_ev, rows)
    for p in range(n_players):
        draw_up(s, p, trace)
    s[H_CUR] = 0
    s[H_PHASE] = PH_TURN
    emit(trace, T_TURN, 0, 1, 0, 0)
    if not (s[O_HANDN] > 0 or (s[H_DISC_N] > 0 and has_note_spot(tables, s))):
        set_over(s, END.no_action, trace)
    return s


@jit
def to_move(s):
    if s[H_OVER] != 0:
        return -1
    if s[H_PHASE] == PH_COFFEE:
        return s[H_CB_SEAT]
    return s[H_CUR]


# ---- legal options -----------------------------------------------------
@jit
def action(tables, s, option):
    """(kind, card, target, choice) of a legal option (ACT; kind OP - 1 of its code OP): the card played,
    discarded, returned or taken (a hand slot or discard index names a card here only), the discard
    that becomes a note, the automa's card; the choice is the column a note or an event goes to; -1
    where one does not apply."""
    kind = udiv(option, 10000)  # codes and cards are >= 0: unsigned division (simcore.bits)
    a = umod(udiv(option, 100), 100)
    b = umod(option, 100)
    seat = s[H_CB_SEAT] if s[H_PHASE] == PH_COFFEE else s[H_CUR]
    if kind == OP_PLAY or kind == OP_PLAY_BDAY or kind == OP_DISCARD or kind == OP_CB_RETURN:
        return kind - 1, s[O_HAND + seat * HAND_CAP + a], -1, -1
    if kind == OP_EVENT:
        return kind - 1, s[O_HAND + seat * HAND_CAP + a], -1, b
    if kind == OP_NOTE or kind == OP_WC_NOTE:
        return kind - 1, s[O_DISC + note_card_index(s)], -1, b
    if kind == OP_AUT_PLACE or kind == OP_AUT_DISCARD:
        return kind - 1, s[H_AUT_CARD], -1, -1
    if kind == OP_LB_TAKE:
        return kind - 1, s[O_DISC + a], -1, -1
    return kind - 1, -1, -1, -1


@jit
def legal(tables, s, out):
    n = 0
    if s[H_OVER] != 0:
        return 0
    ph = s[H_PHASE]
    seat = s[H_CUR]
    if ph == PH_TURN:
        if s[H_READY] > 0 and s[H_DECK_N] > 0:
            out[n] = OP_REFRESH * 10000
            n += 1
        base = O_HAND + seat * HAND_CAP
        for i in range(s[O_HANDN + seat]):
            card = s[base + i]
            if card < NWORK:
                c = umod(card, 7)
                if col_open(s, c):
                    out[n] = OP_PLAY * 10000 + i * 100
                    n += 1
                if s[H_BD_C] == c:
                    out[n] = OP_PLAY_BDAY * 10000 + i * 100
                    n += 1
            else:
                for c in range(NCOL):
                    if col_open(s, c):
                        out[n] = OP_EVENT * 10000 + i * 100 + c
                        n += 1
            out[n] = OP_DISCARD * 10000 + i * 100
            n += 1
        if s[H_DISC_N] > 0:
            for c in range(NCOL):
                if col_open(s, c) and note_ok(tables, s, s[O_HEIGHT + c], c):
                    out[n] = OP_NOTE * 10000 + c
                    n += 1
    elif ph == PH_AUTOMA:
        out[0] = OP_AUT_PLACE * 10000
        out[1] = OP_AUT_DISCARD * 10000
        n = 2
    elif ph == PH_WATERCOOLER:
        if s[H_DISC_N] > 0:
            for c in range(NCOL):
                if col_open(s, c):
                    out[n] = OP_WC_NOTE * 10000 + c
                    n += 1
        out[n] = OP_WC_DONE * 10000
        n += 1
    elif ph == PH_LOOKBUSY:
        for i in range(s[H_DISC_N]):
            out[n] = OP_LB_TAKE * 10000 + i * 100
            n += 1
        out[n] = OP_LB_SKIP * 10000
        n += 1
    elif ph == PH_COFFEE:
        cs = s[H_CB_SEAT]
        for i in range(s[O_HANDN + cs]):
            out[n] = OP_CB_RETURN * 10000 + i * 100
            n += 1
        out[n] = OP_CB_DONE * 10000
        n += 1
    return n


# ---- turn flow ---------------------------------------------------------
@jit
def end_turn(tables, s, trace):
    seat = s[H_CUR]
    draw_up(s, seat, trace)
    nxt = (seat + 1) % s[H_NP]
    s[H_CUR] = nxt
    s[H_PHASE] = PH_TURN
    emit(trace, T_TURN, nxt, s[H_TURNS] + 1, 0, 0)
    ok = s[O_HANDN + nxt] > 0 or (s[H_DISC_N] > 0 and has_note_spot(tables, s))
    if not ok:
        set_over(s, END.no_action, trace)


@jit
def after_action(tables, s, automa_trigger, trace):
    """After the turn action (and its event effect): the automa, then draw."""
    if s[H_OVER] != 0:
        return
    s[H_PHASE] = PH_TURN
    if automa_trigger and s[H_AUTOMA] != 0:
        if s[H_DECK_N] == 0:
            set_over(s, END.automa_empty, trace)
            return
        s[H_DECK_N] -= 1
        card = s[O_DECK + s[H_DECK_N]]
        s[O_DECK + s[H_DECK_N]] = -1
        s[O_ZONE + card] = Z_AUTOMA
        s[H_AUT_CARD] = card
        emit(trace, T_AUT_DRAW, card, 0, 0, 0)
        if card < NWORK and col_open(s, card % 7):
            s[H_PHASE] = PH_AUTOMA
            return
        # an event, or a closed column: the automa's card can only be discarded
        s[H_AUT_CARD] = -1
        disc_push(s, card)
        s[H_AUT_DISC] += 1
        emit(trace, T_AUT_DISCARD, card, 1, 0, 0)
    end_turn(tables, s, trace)


@jit
def place_event(tables, s, seat, card, c, trace):
    """An event goes face up into the top open spot of any column; returns True
    when its effect needs further decisions (a phase)."""
    r = s[O_HEIGHT + c]
    emit(trace, T_EVENT, seat, card, r, c)
    place(s, card, K_EVENT, r, c, tables[0][C_PIZZA_ROW], trace)
    cnt_add(s, seat, card, CT_PLAYED)
    e = card - NWORK
    if e == EV_BIRTHDAY:
        s[H_BD_R] = r
        s[H_BD_C] = c
    elif e == EV_NEWYEARS:
        s[H_NY_R] = r
        for w in range(NSUITS):
            if s[O_HAPPY + w] == 0 and line_count(s, w, 0, r, c) >= 2:
                make_happy(s, w, 0, 1, trace)
    elif e == EV_VALENTINE:
        s[H_VAL_R] = r
        s[H_VAL_C] = c
        for w in range(NSUITS):
            if s[O_HAPPY + w] == 0 and s[H_VAL_W] == -1:
                for kind in range(3):
                    if line_count(s, w, kind, r, c) >= 2:
                        s[H_VAL_W] = w
                        make_happy(s, w, kind, 2, trace)
                        break
    elif e == EV_WATERCOOLER:
        if s[H_DISC_N] > 0:
            s[H_PHASE] = PH_WATERCOOLER
            return True
    elif e == EV_LOOKBUSY:
        if s[H_DISC_N] > 0:
            s[H_PHASE] = PH_LOOKBUSY
            return True
    elif e == EV_COFFEE:
        s[H_PHASE] = PH_COFFEE
        s[H_CB_SEAT] = seat
        s[H_CB_LEFT] = s[H_NP]
        s[H_CB_N] = 0
        return True
    elif e == EV_PIZZAPARTY:
        k = min(s[H_NP], s[H_USED])
        s[H_USED] -= k
        s[H_READY] += k
        s[H_REGAINED] += k
        emit(trace, T_PIZZA_PARTY, k, s[H_READY], 0, 0)
    return False


@jit
def step(tables, s, option, rng, trace):
    kind = udiv(option, 10000)
    a = umod(udiv(option, 100), 100)
    b = umod(option, 100)
    seat = s[H_CUR]
    pizza_row = tables[0][C_PIZZA_ROW]
    if kind == OP_REFRESH:
        # "Shuffle the cards from your hand into the deck and draw 4 new cards."
        s[H_READY] -= 1
        s[H_USED] += 1
        s[H_SPENT] += 1
        while s[O_HANDN + seat] > 0:
            deck_push(s, hand_remove(s, seat, s[O_HANDN + seat] - 1))
        zones.shuffle(rng, R.CHANCE, s[O_DECK:O_DECK + s[H_DECK_N]], s[H_DECK_N])
        emit(trace, T_REFRESH, seat, s[H_READY], 0, 0)
        draw_up(s, seat, trace)
        return
    if kind == OP_PLAY or kind == OP_PLAY_BDAY:
        card = hand_remove(s, seat, a)
        c = card % 7
        s[H_TURNS] += 1
        cnt_add(s, seat, card, CT_PLAYED)
        if kind == OP_PLAY:
            r = s[O_HEIGHT + c]
            emit(trace, T_PLAY, seat, card, r, c)
            place(s, card, K_FACEUP, r, c, pizza_row, trace)
        else:
            # "Anyone may play directly on this card": the Birthday goes under.
            r = s[H_BD_R]
            bd = s[cell(s, r, c)]
            s[O_ZONE + bd] = Z_COVERED
            s[cell(s, r, c)] = card
            s[o_kind(s) + r * NCOL + c] = K_FACEUP
            s[O_ZONE + card] = Z_FACEUP
            add_face_up(s, card, r, c)
            s[H_BD_R] = -1
            s[H_BD_C] = -1
            emit(trace, T_PLAY_BDAY, seat, card, r, c)
        check_worker_at(s, card // 7, r, c, trace)
        after_action(tables, s, True, trace)
        return
    if kind == OP_DISCARD:
        card = hand_remove(s, seat, a)
        s[H_TURNS] += 1
        disc_push(s, card)
        s[H_DISCARDS] += 1
        cnt_add(s, seat, card, CT_DISCARDED)
        emit(trace, T_DISCARD, seat, card, 0, 0)
        after_action(tables, s, False, trace)
        return
    if kind == OP_NOTE or kind == OP_WC_NOTE:
        card = disc_remove(s, note_card_index(s))
        c = b
        r = s[O_HEIGHT + c]
        if kind == OP_NOTE:
            s[H_TURNS] += 1
        emit(trace, T_NOTE if kind == OP_NOTE else T_WC_NOTE, seat, card, r, c)
        place(s, card, K_NOTE, r, c, pizza_row, trace)
        s[H_NOTES] += 1
        cnt_add(s, seat, card, CT_NOTED)
        if kind == OP_NOTE:
            after_action(tables, s, True, trace)
        elif s[H_DISC_N] == 0 or not has_open_column(s):
            after_action(tables, s, True, trace)
        return
    if kind == OP_EVENT:
        card = hand_remove(s, seat, a)
        s[H_TURNS] += 1
        if not place_event(tables, s, seat, card, b, trace):
            after_action(tables, s, True, trace)
        return
    if kind == OP_AUT_PLACE or kind == OP_AUT_DISCARD:
        card = s[H_AUT_CARD]
        s[H_AUT_CARD] = -1
        if kind == OP_AUT_PLACE:
            c = card % 7
            r = s[O_HEIGHT + c]
            emit(trace, T_AUT_PLACE, card, r, c, 0)
            place(s, card, K_FACEUP, r, c, pizza_row, trace)
            s[H_AUT_PLACED] += 1
            check_worker_at(s, card // 7, r, c, trace)
        else:
            disc_push(s, card)
            s[H_AUT_DISC] += 1
            emit(trace, T_AUT_DISCARD, card, 0, 0, 0)
        if s[H_OVER] == 0:
            end_turn(tables, s, trace)
        return
    if kind == OP_WC_DONE or kind == OP_LB_SKIP:
        after_action(tables, s, True, trace)
        return
    if kind == OP_LB_TAKE:
        card = disc_remove(s, a)
        hand_add(s, seat, card)
        cnt_add(s, seat, card, CT_TAKEN)
        emit(trace, T_LB_TAKE, seat, card, 0, 0)
        after_action(tables, s, True, trace)
        return
    if kind == OP_CB_RETURN:
        cs = s[H_CB_SEAT]
        card = hand_remove(s, cs, a)
        deck_push(s, card)
        s[H_CB_N] += 1
        emit(trace, T_CB_RETURN, cs, card, 0, 0)
        return
    if kind == OP_CB_DONE:
        cs = s[H_CB_SEAT]
        if s[H_CB_N] > 0:
            zones.shuffle(rng, R.CHANCE, s[O_DECK:O_DECK + s[H_DECK_N]], s[H_DECK_N])
            before = s[O_HANDN + cs]
            draw_up(s, cs, trace)
            emit(trace, T_CB_DONE, cs, s[O_HANDN + cs] - before, 0, 0)
        s[H_CB_LEFT] -= 1
        s[H_CB_N] = 0
        if s[H_CB_LEFT] <= 0:
            after_action(tables, s, True, trace)
        else:
            s[H_CB_SEAT] = (cs + 1) % s[H_NP]
        return


@jit
def has_open_column(s):
    for c in range(NCOL):
        if col_open(s, c):
            return True
    return False


# ---- results -----------------------------------------------------------
# game columns that are a state word as the game ends: (column, word)
FINAL_WORDS = (
    (G.turns, H_TURNS), (G.pizzas_spent, H_SPENT), (G.pizzas_regained, H_REGAINED), (G.notes_used, H_NOTES),
    (G.discards, H_DISCARDS), (G.automa_placed, H_AUT_PLACED), (G.automa_discarded, H_AUT_DISC),
    (G.events_in_deck, H_EVENTS_IN), (G.happy_workers, H_HAPPY_N), (G.deck_left, H_DECK_N),
)


@jit
def outcome(tables, s, game_row, seat_rows):
    over = s[H_OVER]
    game_row[G.end_reason] = over
    won = over == END.all_happy
    for column, word in FINAL_WORDS:
        game_row[column] = s[word]
    game_row[G.missing] = 0 if won else missing(s)
    game_row[G.level] = tables[0][C_LEVEL]
    for w in range(NSUITS):  # happy_turn_0 .. happy_turn_9 are declared in worker order
        game_row[G.happy_turn_0 + w] = s[O_HTURN + w]
    for p in range(s[H_NP]):
        seat_rows[p, S.won] = 1.0 if won else 0.0
        seat_rows[p, S.score] = s[H_HAPPY_N]
        plays = 0
        notes = 0
        discards = 0
        for card in range(NCARDS):
            b = o_cnt(s) + (p * NCARDS + card) * N_CT
            plays += s[b + CT_PLAYED]
            notes += s[b + CT_NOTED]
            discards += s[b + CT_DISCARDED]
        seat_rows[p, S.plays] = plays
        seat_rows[p, S.seat_discards] = discards
        seat_rows[p, S.seat_notes] = notes


@jit(refs=True)
def clone(s):
    return s.copy()


@jit(refs=True)
def card_counts(s):
    np_ = s[H_NP]
    out = s[o_cnt(s):o_cnt(s) + np_ * NCARDS * N_CT].reshape((np_, NCARDS, N_CT)).copy()
    for p in range(np_):
        for i in range(s[O_HANDN + p]):
            out[p, s[O_HAND + p * HAND_CAP + i], CT_HELD] += 1
    return out


@jit
def determinise(tables, s, seat, rng):
    """Redraw what `seat` cannot see: deck order, removed cards, other hands."""
    pool = stack_i64(NCARDS)
    n = zones.gather(pool, 0, s[O_DECK:O_DECK + NCARDS], s[H_DECK_N])
    n = zones.gather(pool, n, s[O_REM:O_REM + NCARDS], s[H_REM_N])
    for p in range(s[H_NP]):
        if p != seat:
            b = O_HAND + p * HAND_CAP
            n = zones.gather(pool, n, s[b:b + HAND_CAP], s[O_HANDN + p])
    zones.redeal(rng, pool, n)
    k = 0
    for p in range(s[H_NP]):
        if p != seat:
            for i in range(s[O_HANDN + p]):
                s[O_HAND + p * HAND_CAP + i] = pool[k]
                s[O_ZONE + pool[k]] = Z_HAND0 + p
                k += 1
    for i in range(s[H_REM_N]):
        s[O_REM + i] = pool[k]
        s[O_ZONE + pool[k]] = Z_REMOVED
        k += 1
    for i in range(s[H_DECK_N]):
        s[O_DECK + i] = pool[k]
        s[O_ZONE + pool[k]] = Z_DECK
        k += 1
