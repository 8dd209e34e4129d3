"""Policies' game knowledge: the scripted greedy, the lookahead's value.

Greedy scores every legal option and takes the best (first on ties): the
scores are `greedy_scores.option_score`'s (greedy's weights and the reference
scorer), computed here with memos. It reads only what its seat can see: its
own hand, the calendar, the discard pile and which cards are gone (face up,
notes, discards); cards in the deck, removed unseen or in other hands count
alike as "still to come".
"""
import math

import numpy as np

from balance.simcore.bits import lowbit, udiv, umod
from balance.simcore.jit import jit
from balance.simcore.scratch import stack_f64

from .rules import (
    ACT, action,
    EV_NEWYEARS, EV_VALENTINE,
    END, H_BD_C, H_BD_R, H_KEPT, H_NP, H_OVER, H_PHASE,
    H_READY, H_ROWS, H_USED, HAND_CAP, NCOL, NSUITS, NWORK, O_HAND, O_HANDN, O_HAPPY, O_HEIGHT,
    O_ZONE, PH_TURN, Z_AUTOMA, Z_DECK, Z_HAND0, Z_REMOVED, o_d1, o_d2, o_rowcnt, o_rowfill, wild_on_line, worker_lines, H_NY_R, H_VAL_R,
    H_VAL_W, missing, C_LEVEL, H_DECK_N, H_HAND,
)

from .greedy_scores import GREEDY_PARAMS, W, event_bonus, event_score, offer_line, option_score, still_to_come, two_smallest, worker_block  # noqa: F401  (GREEDY_PARAMS: the spec's)

# ---- greedy -------------------------------------------------------------
# `greedy` picks exactly what scoring every option with `option_score` and
# taking the first best would pick. On a turn it avoids recomputing: per
# decision it precomputes which of each unhappy worker's cards are still to
# come (bit masks), memoises the play values of the hand's cards (at their
# column's next open row, the row below it, the Birthday cell), the scaffold
# value and the block penalty per column. Every helper is a pure function of
# the unchanged state, so memoised values are bit-identical; the two other
# shortcuts (block penalties summed as integers, discards that cannot beat the
# best so far left unfinished) are exact, see `_block_exact` and `greedy`.

PV_SLOTS = 3  # memo slots per hand card: next open row, the row below, the Birthday cell
M_SCAF = HAND_CAP * PV_SLOTS  # memo offset: scaffold value per column
M_BLOCK = M_SCAF + NCOL  # memo offset: block(.., -1) per column (exact: in units of w_block / 4)
M_SIZE = M_BLOCK + NCOL
STC_ZONES = (1 << Z_DECK) | (1 << Z_REMOVED) | (1 << Z_AUTOMA)  # still to come, besides hands


@jit
def _stc_masks(s):
    """Still-to-come masks of the workers not yet happy, 7 bits (columns) per
    worker: workers 0-4 in the first int, 5-9 in the second."""
    lo = 0
    hi = 0
    for w in range(NSUITS):
        if s[O_HAPPY + w] == 0:
            b = 0
            base = O_ZONE + w * 7
            for c in range(NCOL):
                z = s[base + c]
                b |= (1 if z >= Z_HAND0 else (STC_ZONES >> z) & 1) << c
            if w < 5:
                lo |= b << (7 * w)
            else:
                hi |= b << (7 * (w - 5))
    return lo, hi


@jit
def _mask(lo, hi, w):
    if w < 5:
        return (lo >> (7 * w)) & 127
    return (hi >> (7 * (w - 5))) & 127


assert HAND_CAP * NCOL <= 63  # greedy's hand cards by column fit one int64 (`hcols`)
SPREAD = 1 | 1 << 7 | 1 << 14 | 1 << 21 | 1 << 28  # bit c of each of five workers' 7-bit masks


@jit
def _col_workers(lo, hi, c):
    """The workers whose card of column c is still to come (and who are not happy), as bits 7w:
    scanned low bit first (lowbit(x) // 7) they come in ascending order."""
    return ((lo >> c) & SPREAD) | (((hi >> c) & SPREAD) << 35)


@jit
def _col_hand(hcols, c):
    """The hand indexes of column c's cards of unhappy workers, from greedy's `hcols` (bit
    HAND_CAP * column + hand index)."""
    return (hcols >> (HAND_CAP * c)) & ((1 << HAND_CAP) - 1)


@jit
def _play_value(s, w, r, c, wp, m, rows, w2, brow, bd1, bd2, wilds):
    """`play_value(s, w, r, c, params)`, given w's still-to-come mask m and
    wp = (w_happy, w_two, w_one, w_gap)."""
    best = 0.0
    second = 0.0
    bd_r = s[H_BD_R]
    bd_c = s[H_BD_C]
    m = m & ~(1 << c)
    for kind in range(3):
        if kind == 0:
            k = s[brow + w * rows + r] + 1
        elif kind == 1:
            k = s[bd1 + w * w2 + r - c + 6] + 1
        else:
            k = s[bd2 + w * w2 + r + c] + 1
        wild = wild_on_line(s, w, kind, r, c) if wilds else 0
        if k >= 3 or (k == 2 and wild == 1):
            return wp[0]
        need = 3 - k - wild
        # line_open(s, w, kind, r, c, c): the columns of m, low bit first
        n = 0
        g1 = 1 << 30
        g2 = 1 << 30
        mm = m
        while mm != 0:
            c2 = lowbit(mm)
            mm &= mm - 1
            if kind == 0:
                r2 = r
            elif kind == 1:
                r2 = r + (c2 - c)
            else:
                r2 = r - (c2 - c)
            if r2 < 0 or r2 >= rows:
                continue
            h = s[O_HEIGHT + c2]
            if r2 >= h:
                gap = r2 - h
            elif bd_c == c2 and bd_r == r2:
                gap = 0
            else:
                continue
            n += 1
            g1, g2 = two_smallest(g1, g2, gap)
        best, second = offer_line(best, second, n, need, g1, g2, k, wild, wp[1], wp[2], wp[3])
    return best + 0.3 * second


@jit
def _hand_pv(s, memo, hb, i, slot, params, lo, hi, rows, w2, brow, bd1, bd2, wilds):
    """Memoised play value of hand card i (a worker not yet happy): slot 0 at its
    column's next open row, 1 the row below, 2 the Birthday cell."""
    j = i * PV_SLOTS + slot
    v = memo[j]
    if v != v:
        card = s[hb + i]
        c = umod(card, 7)
        w = udiv(card, 7)
        if slot == 2:
            r = s[H_BD_R]
        else:
            r = s[O_HEIGHT + c] + slot
        wp = (params[W.w_happy], params[W.w_two], params[W.w_one], params[W.w_gap])
        v = _play_value(s, w, r, c, wp, _mask(lo, hi, w), rows, w2, brow, bd1, bd2, wilds)
        memo[j] = v
    return v


@jit
def _scaffold(s, memo, hb, hcols, c, params, lo, hi, rows, w2, brow, bd1, bd2, wilds):
    """Memoised `scaffold(s, seat, s[O_HEIGHT + c], c, params)`."""
    v = memo[M_SCAF + c]
    if v == v:
        return v
    r = s[O_HEIGHT + c]
    if r + 1 >= rows:
        v = 0.0
    else:
        best = 0.0
        hs = _col_hand(hcols, c)
        while hs != 0:
            i = lowbit(hs)
            hs &= hs - 1
            g = _hand_pv(s, memo, hb, i, 1, params, lo, hi, rows, w2, brow, bd1, bd2, wilds) \
                - _hand_pv(s, memo, hb, i, 0, params, lo, hi, rows, w2, brow, bd1, bd2, wilds)
            if g > best:
                best = g
        if best == 0.0:
            ws = _col_workers(lo, hi, c)  # not yet happy, its card of column c still to come
            while ws != 0:
                w = udiv(lowbit(ws), 7)
                ws &= ws - 1
                a = s[brow + w * rows + r + 1] + s[bd1 + w * w2 + r - c + 7] + s[bd2 + w * w2 + r + c + 1]
                b = s[brow + w * rows + r] + s[bd1 + w * w2 + r - c + 6] + s[bd2 + w * w2 + r + c]
                if a > b:
                    best = 0.25 * params[W.w_one]
                    break
        v = params[W.w_scaffold] * best
    memo[M_SCAF + c] = v
    return v


@jit
def _block_exact(params):
    """True when `block`'s float sum is exact, so it equals (its units) * w_block / 4
    whatever the order: every term is a multiple of q = 0.25 * w_block (w_block =
    4q exactly) and q's significand has at most 45 bits, so every partial sum
    (at most 120 q) is representable and no addition rounds."""
    wb = params[W.w_block]
    q = 0.25 * wb
    if not (q * 4.0 == wb) or q != q or q - q != 0.0:  # rounding underflow, nan, inf
        return False
    if q == 0.0:
        return True
    f, e = math.frexp(q)
    return (np.int64(abs(f) * 9007199254740992.0) & 255) == 0  # f * 2**53: q's significand


@jit
def _block_seq(s, r, c, self_w, params, lo, hi, rows, w2, brow, bd1, bd2, wilds):
    """`block(s, r, c, self_w, params)`, summed in its order."""
    pen = 0.0
    ws = _col_workers(lo, hi, c)  # (happy workers have no bits)
    while ws != 0:
        w = udiv(lowbit(ws), 7)
        ws &= ws - 1
        if w == self_w:
            continue
        pen = worker_block(pen, s, w, r, c, rows, w2, brow, bd1, bd2, wilds, params)
    return pen


@jit
def _worker_units(s, w, r, c, rows, w2, brow, bd1, bd2, wilds):
    """Worker w's part of block(s, r, c, ..) in units of w_block / 4: per line through (r, c),
    4 for a two-card line and 1 for a one-card line."""
    k0 = s[brow + w * rows + r]
    k1 = s[bd1 + w * w2 + r - c + 6]
    k2 = s[bd2 + w * w2 + r + c]
    if wilds:
        k0 += wild_on_line(s, w, 0, r, c)
        k1 += wild_on_line(s, w, 1, r, c)
        k2 += wild_on_line(s, w, 2, r, c)
    return (4 if k0 >= 2 else (1 if k0 == 1 else 0)) + (4 if k1 >= 2 else (1 if k1 == 1 else 0)) \
        + (4 if k2 >= 2 else (1 if k2 == 1 else 0))


@jit
def _col_units(s, r, c, lo, hi, rows, w2, brow, bd1, bd2, wilds):
    """block(s, r, c, -1, params) in units of w_block / 4: `_worker_units` summed over the
    workers whose card of column c is still to come."""
    u = 0
    ws = _col_workers(lo, hi, c)
    while ws != 0:
        w = udiv(lowbit(ws), 7)
        ws &= ws - 1
        u += _worker_units(s, w, r, c, rows, w2, brow, bd1, bd2, wilds)
    return u


@jit
def greedy(tables, s, seat, options, n, params, rng):
    best = 0
    best_v = -1e300
    if s[H_PHASE] != PH_TURN:
        for i in range(n):
            v = option_score(tables, s, seat, options[i], params)
            if v > best_v:
                best_v = v
                best = i
        return best
    # a turn: option_score's arithmetic, memoised (few calls: each passes arrays, which costs)
    hb = O_HAND + seat * HAND_CAP
    hn = s[O_HANDN + seat]
    rows = s[H_ROWS]
    w2 = rows + NCOL
    brow = o_rowcnt(s)
    bd1 = o_d1(s)
    bd2 = o_d2(s)
    wilds = s[H_NY_R] >= 0 or (s[H_VAL_R] >= 0 and s[H_VAL_W] == -1)
    exact = _block_exact(params)
    q = 0.25 * params[W.w_block]
    row_full = s[H_USED] > 0
    rfill = o_rowfill(s)
    lo, hi = _stc_masks(s)
    wp = (params[W.w_happy], params[W.w_two], params[W.w_one], params[W.w_gap])
    ws = params[W.w_scaffold]
    block_nonneg = params[W.w_block] >= 0.0  # every block penalty is >= 0 (False for nan)
    note_bound_ok = block_nonneg and np.isfinite(ws) and np.isfinite(params[W.w_one]) \
        and np.isfinite(params[W.w_row_full]) and np.isfinite(params[W.w_note_cost])
    ub_fill = max(0.0, max(ws * 0.0, ws * (0.25 * params[W.w_one])))  # a note's scaffold, at most
    hcols = 0  # the hand cards of unhappy workers: bit HAND_CAP * (their column) + (hand index)
    for i2 in range(hn):
        card2 = s[hb + i2]
        if card2 < NWORK and s[O_HAPPY + udiv(card2, 7)] == 0:
            hcols |= 1 << (HAND_CAP * umod(card2, 7) + i2)
    memo = stack_f64(M_SIZE)  # on the stack: no allocation, no reference counting per call
    for j in range(M_SIZE):
        memo[j] = np.nan
    for i in range(n):
        op = options[i]
        act, card, _target, col = action(tables, s, op)  # what the option does, named by the rules (ACT)
        a = umod(udiv(op, 100), 100)  # the card's hand slot: only the memo's key (the memo is per hand slot)
        if act == ACT.refresh:
            v = params[W.refresh_at]
        elif act == ACT.play:
            c = umod(card, 7)
            w = udiv(card, 7)
            r = s[O_HEIGHT + c]
            if s[O_HAPPY + w] != 0:
                sc = _scaffold(s, memo, hb, hcols, c, params, lo, hi, rows, w2, brow, bd1, bd2, wilds) - 0.1
            else:
                pv = memo[a * PV_SLOTS]
                if pv != pv:
                    pv = _play_value(s, w, r, c, wp, _mask(lo, hi, w), rows, w2, brow, bd1, bd2, wilds)
                    memo[a * PV_SLOTS] = pv
                if pv > 0.0:
                    sc = pv
                else:
                    sc = _scaffold(s, memo, hb, hcols, c, params, lo, hi, rows, w2, brow, bd1, bd2, wilds) \
                        - params[W.w_waste]
            rb = params[W.w_row_full] if (s[rfill + r] == NCOL - 1 and row_full) else 0.0
            if block_nonneg and sc + rb <= best_v:
                continue  # its block penalty is >= 0: sc - pen + rb <= sc + rb (rounding is monotone)
            # block(s, r, c, w, params)
            if exact:
                u = memo[M_BLOCK + c]
                if u != u:
                    u = np.float64(_col_units(s, r, c, lo, hi, rows, w2, brow, bd1, bd2, wilds))
                    memo[M_BLOCK + c] = u
                units = np.int64(u)
                if (_mask(lo, hi, w) >> c) & 1:  # w's own terms, counted in _col_units
                    units -= _worker_units(s, w, r, c, rows, w2, brow, bd1, bd2, wilds)
                pen = 0.0 if units == 0 or q == 0.0 else np.float64(units) * q
            else:
                pen = _block_seq(s, r, c, w, params, lo, hi, rows, w2, brow, bd1, bd2, wilds)
            v = sc - pen + rb  # (rb: row_bonus(s, r, params))
        elif act == ACT.discard:
            if card >= NWORK:
                kv = 0.5
            elif s[O_HAPPY + udiv(card, 7)] != 0:
                kv = -params[W.w_discard_happy]
            else:
                # keep_value: potential(s, w, c, params, -1.0)
                c = umod(card, 7)
                h = s[O_HEIGHT + c]
                pot = 0.0
                pruned = False
                if h < rows:
                    pot = memo[a * PV_SLOTS]
                    if pot != pot:
                        w = udiv(card, 7)
                        pot = _play_value(s, w, h, c, wp, _mask(lo, hi, w), rows, w2, brow, bd1, bd2, wilds)
                        memo[a * PV_SLOTS] = pot
                    wk = params[W.w_keep]
                    if pot > 0.0 and wk >= 0.0:
                        # the final pot is >= this one (> 0), so kv = wk * pot >= wk * this pot and the
                        # score -kv - 0.05 <= ub (float rounding is monotone): if ub cannot beat
                        # best_v, neither can the score, and the rest need not be computed
                        ub = -(wk * pot) - 0.05
                        pruned = ub <= best_v
                if pruned:
                    continue
                if h + 1 < rows:
                    v = _hand_pv(s, memo, hb, a, 1, params, lo, hi, rows, w2, brow, bd1, bd2, wilds) \
                        - params[W.w_gap]
                    if v > pot:
                        pot = v
                if s[H_BD_C] == c:
                    v = _hand_pv(s, memo, hb, a, 2, params, lo, hi, rows, w2, brow, bd1, bd2, wilds)
                    if v > pot:
                        pot = v
                if pot <= 0.0:
                    kv = -0.8 * params[W.w_discard_happy]
                else:
                    kv = params[W.w_keep] * pot
            v = -kv - 0.05
        elif act == ACT.note or act == ACT.event:
            c = col
            r = s[O_HEIGHT + c]
            if act == ACT.note and note_bound_ok:
                # a note in a column no hand card of an unhappy worker belongs to: its scaffold is
                # 0, w_scaffold x 0 or w_scaffold x 0.25 w_one (the largest is `ub_fill`) and its
                # block penalty >= 0 (w_block >= 0), so its score is <= the bound below (float
                # rounding is monotone); if that cannot beat best_v, neither can the note
                if _col_hand(hcols, c) == 0:
                    rb = params[W.w_row_full] if (s[rfill + r] == NCOL - 1 and row_full) else 0.0
                    if (ub_fill + rb) - params[W.w_note_cost] <= best_v:
                        continue
            e = card - NWORK
            if act == ACT.event and (e == EV_NEWYEARS or e == EV_VALENTINE):
                v = event_score(s, seat, card, c, params)
            else:
                sc = _scaffold(s, memo, hb, hcols, c, params, lo, hi, rows, w2, brow, bd1, bd2, wilds)
                if act == ACT.event:
                    sc += event_bonus(s, e, params)
                # block(s, r, c, -1, params)
                if exact:
                    u = memo[M_BLOCK + c]
                    if u != u:
                        u = np.float64(_col_units(s, r, c, lo, hi, rows, w2, brow, bd1, bd2, wilds))
                        memo[M_BLOCK + c] = u
                    pen = 0.0 if u == 0.0 or q == 0.0 else u * q
                else:
                    pen = _block_seq(s, r, c, -1, params, lo, hi, rows, w2, brow, bd1, bd2, wilds)
                v = sc - pen + (params[W.w_row_full] if (s[rfill + r] == NCOL - 1 and row_full) else 0.0)
                if act == ACT.note:
                    v = v - params[W.w_note_cost]
                    v = v + 0.0
        elif act == ACT.play_on_birthday:
            if s[O_HAPPY + udiv(card, 7)] != 0:
                v = 0.0 - 0.1
            else:
                pv = _hand_pv(s, memo, hb, a, 2, params, lo, hi, rows, w2, brow, bd1, bd2, wilds)
                v = pv if pv > 0.0 else 0.0 - params[W.w_waste]
        else:
            v = option_score(tables, s, seat, op, params)
        if v > best_v:
            best_v = v
            best = i
    return best


@jit
def _open_at_least(s, m, kind, r, rows, need):
    """Do `need` or more cells of the line of `kind` through (r, 0) lie open for a worker whose
    cards of the columns in mask m are still to come (line_open(s, w, kind, r, 0, -1)'s count)?"""
    if need <= 0:
        return True
    n = 0
    bd_r = s[H_BD_R]
    bd_c = s[H_BD_C]
    mm = m
    while mm != 0:  # the columns of m, low bit first
        c2 = lowbit(mm)
        mm &= mm - 1
        r2 = r if kind == 0 else (r + c2 if kind == 1 else r - c2)
        if r2 < 0 or r2 >= rows:
            continue
        if r2 >= s[O_HEIGHT + c2] or (bd_c == c2 and bd_r == r2):
            n += 1
            if n >= need:
                return True
    return False


@jit
def viable_best(s, w):
    """Best real count of worker w on a line that can still reach three (0..2); -1: no line can.

    Every line in turn, as the reference in tests/sickdays_solo/test_value.py, but a line is only
    asked whether it has the open cells it needs, from a mask of the columns whose card of w is
    still to come."""
    rows = s[H_ROWS]
    m = 0
    for c in range(NCOL):
        if still_to_come(s, w, c):
            m |= 1 << c
    best = -1
    for kind in range(3):
        b, lines = worker_lines(s, w, kind)
        for i in range(lines):
            k = s[b + i]
            if k <= best:
                continue
            r = i - 6 if kind == 1 else i
            if _open_at_least(s, m, kind, r, rows, 3 - k - wild_on_line(s, w, kind, r, 0)):
                best = k
                if best >= 2:
                    return best
    return best


# The terms of `value` (value_terms), fitted by `python -m tests.fit_solo_value`: a logistic
# regression of a win (greedy playing on) on these terms plus one intercept per level, on the
# states where every unhappy worker still has a line that can reach three (the others are lost).
VALUE_TERMS = (
    "happy workers / kept",
    "unhappy workers with two cards on a line that can still reach three / kept",
    "... with one card / kept (those with none yet on such a line are the rest: no term)",
    "cards still needed / (deck + hand + 1)",
    "deck cards / 10",
    "open calendar cells / cells",
    "ready pizzas (at most 5)",
    "hand cards / hand size",
)
N_LEVELS = 11
VALUE_WEIGHTS = (-0.5985, -1.3554, -0.8126, -13.0394, 0.3437, 1.2702, 0.1285, -0.2742)
LEVEL_BIAS = (3.8874, 3.6025, 3.3206, 2.9672, 2.4522, 4.3463, 3.4139, 2.7924, 2.1190, 1.6486, 1.4617)


@jit
def value_terms(s):
    """(the terms of `value` (VALUE_TERMS) in state `s`, the number of unhappy workers no line can
    make happy any more: a game that cannot be won)."""
    kept = max(1, s[H_KEPT])
    happy = 0
    two = 0
    one = 0
    dead = 0
    need = 0
    for w in range(NSUITS):
        h = s[O_HAPPY + w]
        if h == 1:
            happy += 1
        elif h == 0:
            b = viable_best(s, w)
            if b < 0:
                dead += 1
            else:
                need += 3 - b
                if b == 2:
                    two += 1
                elif b == 1:
                    one += 1
    hand = 0
    for p in range(s[H_NP]):
        hand += s[O_HANDN + p]
    rows = s[H_ROWS]
    open_cells = 0
    for c in range(NCOL):
        open_cells += max(0, rows - s[O_HEIGHT + c])
    return (happy / kept, two / kept, one / kept, need / (s[H_DECK_N] + hand + 1.0), s[H_DECK_N] / 10.0,
            open_cells / max(1.0, rows * NCOL), min(s[H_READY], 5) * 1.0,
            hand / max(1.0, s[H_HAND] * s[H_NP])), dead


@jit
def value(tables, s, seat):
    """1 win; a loss, or a game a worker no line can save any more dooms, 0..0.02 (one card short
    above ten short: rollouts that all lose still tell the options apart); otherwise the chance of
    a win with greedy playing on, fitted (VALUE_TERMS, `python -m tests.fit_solo_value`)."""
    if s[H_OVER] == END.all_happy:
        return 1.0
    if s[H_OVER] == 0:
        x, dead = value_terms(s)
        if dead == 0:
            w = VALUE_WEIGHTS
            z = LEVEL_BIAS[tables[0][C_LEVEL] - 1]
            z += (w[0] * x[0] + w[1] * x[1] + w[2] * x[2] + w[3] * x[3] + w[4] * x[4] + w[5] * x[5]
                  + w[6] * x[6] + w[7] * x[7])
            return 1.0 / (1.0 + np.exp(-z))
    return 0.02 * (1.0 - missing(s) / (3.0 * s[H_KEPT]))
