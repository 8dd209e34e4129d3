"""Sick Days solo/co-op invariants, checked after the deal and after every step by `--check`.

`check(tables, s)` returns 0 when every invariant holds, else the 1-based code
of the first one broken; `INVARIANTS` words each code for a designer (the
spec's `invariants`). It reads the state array and allocates nothing.

Multisets are compared by count and by a sum of `mix64` hashes: the
(card, zone) pairs the containers list (deck, discard pile, removed pile,
hands, calendar, the automa's card) against the pairs the zone array holds,
and each worker's incremental line counts against the face-up cards on the
calendar. mix64 is a bijection of 64-bit words, so a card listed twice in
place of another, or a count moved from one line to another, always changes
the sum (several compensating errors would have to cancel a 64-bit sum).
"""
import numpy as np

from balance.simcore.jit import jit
from balance.simcore.rng import mix64

from . import kernels as K

INV_RANGE = 1
INV_TWO_PLACES = 2
INV_CONSERVED = 3
INV_CALENDAR = 4
INV_LINES = 5
INV_HAPPY = 6
INV_PIZZAS = 7
INV_COUNTERS = 8

INVARIANTS = (
    (
        "a value is out of range: a seat, phase, zone or card id out of range, a negative or too large "
        "deck, discard, removed or hand count, a hand over the hand size, or a used slot beyond a list's count"
    ),
    (
        "a card is in two places: the deck, discard pile, removed pile, a hand, the calendar or the "
        "automa's card lists a card whose place is elsewhere, or lists a card twice"
    ),
    (
        "cards not conserved: the deck, hands, discard pile, removed pile, calendar and automa do not hold "
        "every card of the game once (kept workers and events added), or a card not in the game is in play"
    ),
    (
        "the calendar is malformed: a gap in a column, a filled spot above a column's height, a worker "
        "in another day's column, a week's fill count wrong, or a Birthday / New Years / Valentine's Day "
        "marker not on its card"
    ),
    "a worker's face-up counts on a week, diagonal or anti-diagonal disagree with the cards on the calendar",
    (
        "happy-worker bookkeeping disagrees: the number of happy workers, their flags and turns, or the "
        "win do not match"
    ),
    "pizza tokens not conserved: ready + used is not the total, or spent and regained do not add up",
    (
        "counters disagree: the notes, discards and plays counted (per seat and in total) do not match "
        "the cards on the calendar and the turns"
    ),
)


@jit
def _hz(card, z):
    return mix64(np.uint64(card * 32 + z) + np.uint64(1))


@jit
def _hl(w, kind, i):
    return mix64(np.uint64((w * 3 + kind) * 1024 + i) + np.uint64(7))


@jit
def check(tables, s):
    cfg = tables[0]
    P = s[K.H_NP]
    rows = s[K.H_ROWS]
    ph = s[K.H_PHASE]

    # 1. values in range
    if P < 1 or P > K.MAXP or s[K.H_CUR] < 0 or s[K.H_CUR] >= P or ph < K.PH_TURN or ph > K.PH_COFFEE:
        return INV_RANGE
    if rows < 1 or rows > K.MAX_ROWS or s.shape[0] != K.state_size(rows, P):
        return INV_RANGE
    if ph == K.PH_COFFEE and (s[K.H_CB_SEAT] < 0 or s[K.H_CB_SEAT] >= P):
        return INV_RANGE
    dn = s[K.H_DECK_N]
    xn = s[K.H_DISC_N]
    rn = s[K.H_REM_N]
    if dn < 0 or dn > K.NCARDS or xn < 0 or xn > K.NCARDS or rn < 0 or rn > K.NCARDS:
        return INV_RANGE
    for i in range(K.NCARDS):
        z = s[K.O_ZONE + i]
        if z < K.Z_OUT or z > K.Z_HAND0 + P - 1 or (z > K.Z_AUTOMA and z < K.Z_HAND0):
            return INV_RANGE
        x = s[K.O_DECK + i]
        if (i < dn and (x < 0 or x >= K.NCARDS)) or (i >= dn and x != -1):
            return INV_RANGE
        x = s[K.O_DISC + i]
        if (i < xn and (x < 0 or x >= K.NCARDS)) or (i >= xn and x != -1):
            return INV_RANGE
        x = s[K.O_REM + i]
        if (i < rn and (x < 0 or x >= K.NCARDS)) or (i >= rn and x != -1):
            return INV_RANGE
    for p in range(K.MAXP):
        hn = s[K.O_HANDN + p]
        if hn < 0 or hn > K.HAND_CAP or (p >= P and hn != 0) or hn > s[K.H_HAND]:
            return INV_RANGE
        for i in range(K.HAND_CAP):
            x = s[K.O_HAND + p * K.HAND_CAP + i]
            if (i < hn and (x < 0 or x >= K.NCARDS)) or (i >= hn and x != -1):
                return INV_RANGE
    ac = s[K.H_AUT_CARD]
    if ac < -1 or ac >= K.NCARDS:
        return INV_RANGE
    for c in range(K.NCOL):
        if s[K.O_HEIGHT + c] < 0 or s[K.O_HEIGHT + c] > rows:
            return INV_RANGE
    ok = K.o_kind(s)
    for i in range(rows * K.NCOL):
        x = s[K.O_GRID + i]
        k = s[ok + i]
        if x < -1 or x >= K.NCARDS or k < K.K_EMPTY or k > K.K_EVENT:
            return INV_RANGE
    for f in (K.H_READY, K.H_USED, K.H_SPENT, K.H_REGAINED, K.H_NOTES, K.H_DISCARDS, K.H_AUT_PLACED, K.H_AUT_DISC,
              K.H_HAPPY_N):
        if s[f] < 0:
            return INV_RANGE
    oc = K.o_cnt(s)
    for i in range(P * K.NCARDS * K.N_CT):
        if s[oc + i] < 0:
            return INV_RANGE

    # 2./3. every card in one place
    listed = 0
    h = np.uint64(0)
    for i in range(dn):
        x = s[K.O_DECK + i]
        if s[K.O_ZONE + x] != K.Z_DECK:
            return INV_TWO_PLACES
        listed += 1
        h += _hz(x, K.Z_DECK)
    for i in range(xn):
        x = s[K.O_DISC + i]
        if s[K.O_ZONE + x] != K.Z_DISCARD:
            return INV_TWO_PLACES
        listed += 1
        h += _hz(x, K.Z_DISCARD)
    for i in range(rn):
        x = s[K.O_REM + i]
        if s[K.O_ZONE + x] != K.Z_REMOVED:
            return INV_TWO_PLACES
        listed += 1
        h += _hz(x, K.Z_REMOVED)
    for p in range(P):
        for i in range(s[K.O_HANDN + p]):
            x = s[K.O_HAND + p * K.HAND_CAP + i]
            if s[K.O_ZONE + x] != K.Z_HAND0 + p:
                return INV_TWO_PLACES
            listed += 1
            h += _hz(x, K.Z_HAND0 + p)
    for i in range(rows * K.NCOL):
        x = s[K.O_GRID + i]
        k = s[ok + i]
        if k == K.K_EMPTY:
            if x != -1:
                return INV_TWO_PLACES
            continue
        z = K.Z_FACEUP if k == K.K_FACEUP else (K.Z_NOTE if k == K.K_NOTE else K.Z_EVENT)
        if x < 0 or s[K.O_ZONE + x] != z:
            return INV_TWO_PLACES
        listed += 1
        h += _hz(x, z)
    if ac >= 0:
        if s[K.O_ZONE + ac] != K.Z_AUTOMA:
            return INV_TWO_PLACES
        listed += 1
        h += _hz(ac, K.Z_AUTOMA)
    kept = s[K.H_KEPT]
    if kept != cfg[K.C_SUITS] or s[K.H_EVENTS_IN] != cfg[K.C_EVENTS] or s[K.H_INGAME] != kept * 7 + s[K.H_EVENTS_IN]:
        return INV_CONSERVED
    covered = 0
    in_play = 0
    events = 0
    for i in range(K.NCARDS):
        z = s[K.O_ZONE + i]
        if z == K.Z_OUT:
            if i < kept * 7:
                return INV_CONSERVED
            continue
        if i >= kept * 7 and i < K.NWORK:
            return INV_CONSERVED
        if i >= K.NWORK:
            events += 1
        in_play += 1
        if z == K.Z_COVERED:
            covered += 1
        else:
            h -= _hz(i, z)
    if listed + covered != s[K.H_INGAME] or in_play != s[K.H_INGAME] or events != s[K.H_EVENTS_IN]:
        return INV_CONSERVED
    if h != np.uint64(0):
        return INV_TWO_PLACES

    # 4. the calendar: columns fill top-down, workers in their day's column, event markers
    of = K.o_rowfill(s)
    for c in range(K.NCOL):
        ht = s[K.O_HEIGHT + c]
        for r in range(rows):
            k = s[ok + r * K.NCOL + c]
            if (r < ht) != (k != K.K_EMPTY):
                return INV_CALENDAR
            x = s[K.O_GRID + r * K.NCOL + c]
            if k == K.K_FACEUP and (x >= K.NWORK or x % 7 != c):
                return INV_CALENDAR
            if k == K.K_EVENT and x < K.NWORK:
                return INV_CALENDAR
    for r in range(rows):
        n = 0
        for c in range(K.NCOL):
            if s[ok + r * K.NCOL + c] != K.K_EMPTY:
                n += 1
        if s[of + r] != n:
            return INV_CALENDAR
    br = s[K.H_BD_R]
    if br >= 0:
        bc = s[K.H_BD_C]
        if br >= rows or bc < 0 or bc >= K.NCOL or s[K.O_GRID + br * K.NCOL + bc] != K.NWORK + K.EV_BIRTHDAY:
            return INV_CALENDAR
    elif s[K.O_ZONE + K.NWORK + K.EV_BIRTHDAY] == K.Z_EVENT:
        return INV_CALENDAR  # the Birthday card is uncovered on the calendar but not marked
    ny = s[K.H_NY_R]
    if (ny >= 0) != (s[K.O_ZONE + K.NWORK + K.EV_NEWYEARS] == K.Z_EVENT):
        return INV_CALENDAR
    if ny >= 0:
        found = False
        for c in range(K.NCOL):
            if ny < rows and s[K.O_GRID + ny * K.NCOL + c] == K.NWORK + K.EV_NEWYEARS:
                found = True
        if not found:
            return INV_CALENDAR
    vr = s[K.H_VAL_R]
    if (vr >= 0) != (s[K.O_ZONE + K.NWORK + K.EV_VALENTINE] == K.Z_EVENT):
        return INV_CALENDAR
    if vr >= 0:
        vc = s[K.H_VAL_C]
        if vr >= rows or vc < 0 or vc >= K.NCOL or s[K.O_GRID + vr * K.NCOL + vc] != K.NWORK + K.EV_VALENTINE:
            return INV_CALENDAR

    # 5. each worker's face-up counts per line
    cnt = 0
    h = np.uint64(0)
    for r in range(rows):
        for c in range(K.NCOL):
            if s[ok + r * K.NCOL + c] == K.K_FACEUP:
                w = s[K.O_GRID + r * K.NCOL + c] // 7
                cnt += 3
                h += _hl(w, 0, r) + _hl(w, 1, r - c + 6) + _hl(w, 2, r + c)
    orc = K.o_rowcnt(s)
    od1 = K.o_d1(s)
    od2 = K.o_d2(s)
    for w in range(K.NSUITS):
        for r in range(rows):
            v = s[orc + w * rows + r]
            if v < 0:
                return INV_LINES
            cnt -= v
            h -= np.uint64(v) * _hl(w, 0, r)
        for i in range(rows + K.NCOL):
            v1 = s[od1 + w * (rows + K.NCOL) + i]
            v2 = s[od2 + w * (rows + K.NCOL) + i]
            if v1 < 0 or v2 < 0:
                return INV_LINES
            cnt -= v1 + v2
            h -= np.uint64(v1) * _hl(w, 1, i) + np.uint64(v2) * _hl(w, 2, i)
    if cnt != 0 or h != np.uint64(0):
        return INV_LINES

    # 6. happy workers
    happy = 0
    for w in range(K.NSUITS):
        f = s[K.O_HAPPY + w]
        if w >= kept:
            if f != -1 or s[K.O_HTURN + w] != -1:
                return INV_HAPPY
            continue
        if f == 1:
            happy += 1
            if s[K.O_HTURN + w] < 0:
                return INV_HAPPY
        elif f == 0:
            if s[K.O_HTURN + w] != -1:
                return INV_HAPPY
        else:
            return INV_HAPPY
    vw = s[K.H_VAL_W]
    if vw < -1 or vw >= kept or (vw >= 0 and (vr < 0 or s[K.O_HAPPY + vw] != 1)):
        return INV_HAPPY
    if happy != s[K.H_HAPPY_N] or (happy >= kept) != (s[K.H_OVER] == K.END_ALL_HAPPY):
        return INV_HAPPY

    # 7. pizzas
    if s[K.H_READY] + s[K.H_USED] != cfg[K.C_TOTAL]:
        return INV_PIZZAS
    if s[K.H_READY] != cfg[K.C_READY] - s[K.H_SPENT] + s[K.H_REGAINED]:
        return INV_PIZZAS

    # 8. counters against the calendar and the discard pile
    if (ac >= 0 and ph != K.PH_AUTOMA) or (ac < 0 and ph == K.PH_AUTOMA and s[K.H_OVER] == 0):
        return INV_COUNTERS  # the automa's card is pending exactly while it waits for a decision
    notes = 0
    faceup = 0
    ev_on = 0
    for i in range(K.NCARDS):
        z = s[K.O_ZONE + i]
        if z == K.Z_NOTE:
            notes += 1
        elif z == K.Z_FACEUP:
            faceup += 1
        elif z == K.Z_EVENT or z == K.Z_COVERED:
            ev_on += 1
    noted = 0
    played_w = 0
    played_e = 0
    discarded = 0
    for p in range(P):
        for card in range(K.NCARDS):
            b = K.o_cnt(s) + (p * K.NCARDS + card) * K.N_CT
            noted += s[b + K.CT_NOTED]
            discarded += s[b + K.CT_DISCARDED]
            if card < K.NWORK:
                played_w += s[b + K.CT_PLAYED]
            else:
                played_e += s[b + K.CT_PLAYED]
    if notes != s[K.H_NOTES] or noted != s[K.H_NOTES] or discarded != s[K.H_DISCARDS]:
        return INV_COUNTERS
    if played_w + s[K.H_AUT_PLACED] != faceup or played_e != ev_on:
        return INV_COUNTERS
    return 0
