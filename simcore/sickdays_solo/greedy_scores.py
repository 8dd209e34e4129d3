"""Sick Days solo/co-op: greedy's weights, declared once, and the reference option scorer.

`option_score(tables, s, seat, op, params)` scores one legal option from scratch (read through
the rules' `action`: its kind, card and column): the
definition of greedy's choice, kept plain so it can be read against the
rulebook; `policies.greedy` takes exactly the option this would take (first
best), faster (tests/sickdays_solo/test_greedy_speedup.py checks it).

Scores, for a worker not yet happy, are built on *lines*: the row and the two
diagonals (r - c and r + c constant) through a cell. A line is viable for a
worker when its real cards there plus open cells on it (empty, at or below the
column's next open row, whose card of that worker is still to come) can reach
three (a wild on the line counts as the third). Only what the seat can see is
read: cards in the deck, removed unseen or in other hands count alike as
"still to come".
"""


from balance.simcore.jit import jit
from balance.simcore.runner import P_GAME
from balance.simcore.spec import PolicyParam, policy_index

from .rules import (
    ACT, action, EV_BIRTHDAY, EV_COFFEE, EV_LOOKBUSY, EV_NEWYEARS, EV_PIZZAPARTY, EV_VALENTINE, EV_WATERCOOLER,
    H_BD_C, H_BD_R, H_DISC_N, H_NP, H_ROWS, H_USED, HAND_CAP,
    NCOL, NSUITS, NWORK, O_HAND, O_HANDN, O_HAPPY, O_HEIGHT, O_ZONE,
    Z_AUTOMA, Z_DECK, Z_HAND0, Z_REMOVED, line_count, o_d1, o_d2, o_rowcnt, o_rowfill, wild_on_line, H_NY_R,
    H_VAL_R, H_VAL_W,
)

GREEDY_DEFAULTS = (
    ("w_one", 2.0, "value of a first card of a worker on a line that can still reach three"),
    ("w_two", 3.0, "value of a second card on such a line"),
    ("w_happy", 20.0, "value of a play that makes a worker happy"),
    ("w_gap", 0.4, "penalty per filler card a line still needs below a column's next open row"),
    ("w_block", 2.0, "penalty for taking a cell another worker's two-card line needs"),
    ("w_scaffold", 0.8, "weight of a filler (note, happy worker's card) that moves a column down to where a hand card helps"),
    ("w_waste", 2.5, "penalty for playing an unhappy worker's card where it helps no line"),
    ("w_discard_happy", 1.5, "value of discarding a happy worker's card or a dead card"),
    ("w_keep", 0.6, "discard penalty per unit of the card's best potential play"),
    ("refresh_at", 1.5, "spend a ready pizza to refresh the hand when no option scores above this"),
    ("w_row_full", 1.0, "bonus for completing a week (readies a pizza)"),
    ("w_note_cost", 0.3, "cost of spending a discard as a Doctor's note"),
)
# greedy's weights, declared once: params[W.w_one] is the slot of w_one (from P_GAME, in this order)
GREEDY_PARAMS = tuple(PolicyParam(name, P_GAME + i, d, h, -100.0, 100.0) for i, (name, d, h) in enumerate(GREEDY_DEFAULTS))
W = policy_index(GREEDY_PARAMS, P_GAME)



@jit
def still_to_come(s, w, c):
    z = s[O_ZONE + w * 7 + c]
    return z == Z_DECK or z == Z_REMOVED or z >= Z_HAND0 or z == Z_AUTOMA


@jit
def line_row(kind, r, c, c2):
    """Row of the line of `kind` through (r, c) in column c2."""
    if kind == 0:
        return r
    if kind == 1:
        return r + (c2 - c)
    return r - (c2 - c)


@jit(force=True)
def two_smallest(g1, g2, gap):
    """(g1, g2), the two smallest gaps seen so far, after `gap` is seen."""
    if gap < g1:
        return gap, g1
    if gap < g2:
        return g1, gap
    return g1, g2


@jit(force=True)
def offer_line(best, second, n, need, g1, g2, k, wild, w_two, w_one, w_gap):
    """(best, second), the two best lines so far, after a line with k cards of the worker (wild: a
    wild card on it) and n open cells of gaps g1 <= g2 is offered: a line with the `need` open
    cells it lacks is worth w_two or w_one less w_gap per filler card below them."""
    if n < need:
        return best, second
    gap = g1 if need == 1 else g1 + g2
    v = (w_two if k + wild >= 2 else w_one) - w_gap * gap
    if v > best:
        return v, best
    if v > second:
        return best, v
    return best, second


@jit
def line_open(s, w, kind, r, c, skip):
    """Open cells for w on the line of `kind` through (r, c), column `skip`
    left out: (count, smallest gap, second smallest gap)."""
    rows = s[H_ROWS]
    n = 0
    g1 = 1 << 30
    g2 = 1 << 30
    bd_c = s[H_BD_C]
    for c2 in range(NCOL):
        if c2 == skip:
            continue
        r2 = line_row(kind, r, c, c2)
        if r2 < 0 or r2 >= rows:
            continue
        h = s[O_HEIGHT + c2]
        gap = -1
        if r2 >= h:
            gap = r2 - h
        elif bd_c == c2 and s[H_BD_R] == r2:
            gap = 0
        if gap >= 0 and still_to_come(s, w, c2):
            n += 1
            g1, g2 = two_smallest(g1, g2, gap)
    return n, g1, g2


@jit
def play_value(s, w, r, c, params):
    """Progress of worker w if its card lands at (r, c)."""
    best = 0.0
    second = 0.0
    rows = s[H_ROWS]
    w2 = rows + NCOL
    wilds = s[H_NY_R] >= 0 or (s[H_VAL_R] >= 0 and s[H_VAL_W] == -1)
    for kind in range(3):
        if kind == 0:
            k = s[o_rowcnt(s) + w * rows + r] + 1
        elif kind == 1:
            k = s[o_d1(s) + w * w2 + r - c + 6] + 1
        else:
            k = s[o_d2(s) + w * w2 + r + c] + 1
        wild = wild_on_line(s, w, kind, r, c) if wilds else 0
        if k >= 3 or (k == 2 and wild == 1):
            return params[W.w_happy]
        need = 3 - k - wild
        n, g1, g2 = line_open(s, w, kind, r, c, c)
        best, second = offer_line(best, second, n, need, g1, g2, k, wild, params[W.w_two], params[W.w_one], params[W.w_gap])
    # a card on two viable lines keeps two ways open: count the second at 30%
    return best + 0.3 * second


@jit
def potential(s, w, c, params, pv_here):
    """Best value of w's card of column c in the next two open rows
    (pv_here: its play value at the next open row if known, else < 0)."""
    rows = s[H_ROWS]
    h = s[O_HEIGHT + c]
    best = 0.0
    if h < rows:
        best = pv_here if pv_here >= 0.0 else play_value(s, w, h, c, params)
    if h + 1 < rows:
        v = play_value(s, w, h + 1, c, params) - params[W.w_gap]
        if v > best:
            best = v
    if s[H_BD_C] == c:
        v = play_value(s, w, s[H_BD_R], c, params)
        if v > best:
            best = v
    return best


@jit
def scaffold(s, seat, r, c, params):
    """Value of filling (r, c) with a blank so column c's next card lands at r + 1."""
    rows = s[H_ROWS]
    if r + 1 >= rows:
        return 0.0
    best = 0.0
    base = O_HAND + seat * HAND_CAP
    for i in range(s[O_HANDN + seat]):
        card = s[base + i]
        if card < NWORK and card % 7 == c and s[O_HAPPY + card // 7] == 0:
            w = card // 7
            g = play_value(s, w, r + 1, c, params) - play_value(s, w, r, c, params)
            if g > best:
                best = g
    if best == 0.0:
        # a card still to come whose worker has more cards on the lines through the next cell
        brow = o_rowcnt(s)
        bd1 = o_d1(s)
        bd2 = o_d2(s)
        w2 = rows + NCOL
        for w in range(NSUITS):
            if s[O_HAPPY + w] == 0 and still_to_come(s, w, c):
                a = s[brow + w * rows + r + 1] + s[bd1 + w * w2 + r - c + 7] + s[bd2 + w * w2 + r + c + 1]
                b = s[brow + w * rows + r] + s[bd1 + w * w2 + r - c + 6] + s[bd2 + w * w2 + r + c]
                if a > b:
                    best = 0.25 * params[W.w_one]
                    break
    return params[W.w_scaffold] * best


@jit
def worker_block(pen, s, w, r, c, rows, w2, brow, bd1, bd2, wilds, params):
    """`pen` plus worker w's penalty for (r, c) on its row and two diagonals:
    w_block for a line where it has two cards, a quarter for one (added in
    this order, so every caller sums the same floats)."""
    for kind in range(3):
        if kind == 0:
            k = s[brow + w * rows + r]
        elif kind == 1:
            k = s[bd1 + w * w2 + r - c + 6]
        else:
            k = s[bd2 + w * w2 + r + c]
        if wilds:
            k += wild_on_line(s, w, kind, r, c)
        if k >= 2:
            pen += params[W.w_block]
        elif k == 1:
            pen += 0.25 * params[W.w_block]
    return pen


@jit
def block(s, r, c, self_w, params):
    """Penalty for filling (r, c) with something other than these workers' cards."""
    pen = 0.0
    rows = s[H_ROWS]
    brow = o_rowcnt(s)
    bd1 = o_d1(s)
    bd2 = o_d2(s)
    w2 = rows + NCOL
    wilds = s[H_NY_R] >= 0 or (s[H_VAL_R] >= 0 and s[H_VAL_W] == -1)
    for w in range(NSUITS):
        if w == self_w or s[O_HAPPY + w] != 0 or not still_to_come(s, w, c):
            continue
        pen = worker_block(pen, s, w, r, c, rows, w2, brow, bd1, bd2, wilds, params)
    return pen


@jit
def row_bonus(s, r, params):
    if s[o_rowfill(s) + r] == NCOL - 1 and s[H_USED] > 0:
        return params[W.w_row_full]
    return 0.0


@jit
def play_score(s, seat, card, r, c, params, bday):
    w = card // 7
    if s[O_HAPPY + w] != 0:
        sc = (0.0 if bday else scaffold(s, seat, r, c, params)) - 0.1
    else:
        pv = play_value(s, w, r, c, params)
        if pv > 0.0:
            sc = pv
        else:
            sc = (0.0 if bday else scaffold(s, seat, r, c, params)) - params[W.w_waste]
    if not bday:
        sc -= block(s, r, c, w, params)
        sc += row_bonus(s, r, params)
    return sc


@jit
def keep_value(s, card, params, pv_here):
    """How much a card in hand is worth keeping (<= 0: dead)."""
    if card >= NWORK:
        return 0.5
    w = card // 7
    if s[O_HAPPY + w] != 0:
        return -params[W.w_discard_happy]
    pot = potential(s, w, card % 7, params, pv_here)
    if pot <= 0.0:
        return -0.8 * params[W.w_discard_happy]
    return params[W.w_keep] * pot


@jit(force=True)
def event_bonus(s, e, params):
    """What event e (other than New Years and Valentine's Day) adds to its value as a filler."""
    if e == EV_PIZZAPARTY:
        return params[W.w_row_full] * min(s[H_NP], s[H_USED])
    if e == EV_WATERCOOLER or e == EV_LOOKBUSY:
        return 0.5 if s[H_DISC_N] > 0 else 0.0
    if e == EV_COFFEE or e == EV_BIRTHDAY:
        return 0.3
    return 0.0


@jit
def event_score(s, seat, card, c, params):
    r = s[O_HEIGHT + c]
    e = card - NWORK
    sc = 0.0
    if e == EV_NEWYEARS:
        for w in range(NSUITS):
            if s[O_HAPPY + w] == 0:
                k = line_count(s, w, 0, r, c)
                if k >= 2:
                    sc += params[W.w_happy]
                elif k == 1:
                    sc += 0.5 * params[W.w_one]
    elif e == EV_VALENTINE:
        for w in range(NSUITS):
            if s[O_HAPPY + w] == 0:
                for kind in range(3):
                    k = line_count(s, w, kind, r, c)
                    if k >= 2:
                        sc = max(sc, params[W.w_happy])
                    elif k == 1:
                        sc = max(sc, 0.5 * params[W.w_one])
    else:
        sc = scaffold(s, seat, r, c, params) + event_bonus(s, e, params)
    return sc - block(s, r, c, -1, params) + row_bonus(s, r, params)


@jit
def note_score(s, seat, c, params):
    r = s[O_HEIGHT + c]
    return scaffold(s, seat, r, c, params) - block(s, r, c, -1, params) + row_bonus(s, r, params) \
        - params[W.w_note_cost]


@jit
def option_score(tables, s, seat, op, params):
    act, card, _target, col = action(tables, s, op)  # what the option does, named by the rules (ACT)
    if act == ACT.refresh:
        return params[W.refresh_at]
    if act == ACT.play or act == ACT.automa_place:
        c = card % 7
        return play_score(s, seat, card, s[O_HEIGHT + c], c, params, False)
    if act == ACT.play_on_birthday:
        return play_score(s, seat, card, s[H_BD_R], s[H_BD_C], params, True)
    if act == ACT.discard:
        return -keep_value(s, card, params, -1.0) - 0.05
    if act == ACT.note or act == ACT.watercooler_note:
        v = note_score(s, seat, col, params)
        return v + (params[W.w_note_cost] * 0.5 if act == ACT.watercooler_note else 0.0)
    if act == ACT.event:
        return event_score(s, seat, card, col, params)
    if act == ACT.look_busy_take:
        return keep_value(s, card, params, -1.0) - 0.5
    if act == ACT.coffee_return:
        return -keep_value(s, card, params, -1.0) - 0.2
    return 0.0  # automa discard, Water Cooler done, Look Busy skip, Coffee Break done
