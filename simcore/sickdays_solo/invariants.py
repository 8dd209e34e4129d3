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
from balance.simcore.zones import count_of, new_tally, pair_hash, slots_ok, tally_card, tally_list

from . import constants, rules
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
def _hl(w, kind, i):
    return mix64(np.uint64((w * 3 + kind) * 1024 + i) + np.uint64(7))


@jit
def check(tables, s):
    cfg = tables[0]
    P = s[constants.H_NP]
    rows = s[constants.H_ROWS]
    ph = s[constants.H_PHASE]

    # 1. values in range
    if P < 1 or P > constants.MAXP or s[constants.H_CUR] < 0 or s[constants.H_CUR] >= P or ph < constants.PH_TURN or ph > constants.PH_COFFEE:
        return INV_RANGE
    if rows < 1 or rows > constants.MAX_ROWS or s.shape[0] != rules.state_size(rows, P):
        return INV_RANGE
    if ph == constants.PH_COFFEE and (s[constants.H_CB_SEAT] < 0 or s[constants.H_CB_SEAT] >= P):
        return INV_RANGE
    dn = s[constants.H_DECK_N]
    xn = s[constants.H_DISC_N]
    rn = s[constants.H_REM_N]
    N = constants.NCARDS
    if not (slots_ok(s[constants.O_DECK:constants.O_DECK + N], dn, N) and slots_ok(s[constants.O_DISC:constants.O_DISC + N], xn, N)
            and slots_ok(s[constants.O_REM:constants.O_REM + N], rn, N)):
        return INV_RANGE
    for i in range(N):
        z = s[constants.O_ZONE + i]
        if z < constants.Z_OUT or z > constants.Z_HAND0 + P - 1 or (z > constants.Z_AUTOMA and z < constants.Z_HAND0):
            return INV_RANGE
    for p in range(constants.MAXP):
        hn = s[constants.O_HANDN + p]
        hand = s[constants.O_HAND + p * constants.HAND_CAP:constants.O_HAND + (p + 1) * constants.HAND_CAP]
        if not slots_ok(hand, hn, N) or (p >= P and hn != 0) or hn > s[constants.H_HAND]:
            return INV_RANGE
    ac = s[constants.H_AUT_CARD]
    if ac < -1 or ac >= constants.NCARDS:
        return INV_RANGE
    for c in range(constants.NCOL):
        if s[constants.O_HEIGHT + c] < 0 or s[constants.O_HEIGHT + c] > rows:
            return INV_RANGE
    ok = rules.o_kind(s)
    for i in range(rows * constants.NCOL):
        x = s[constants.O_GRID + i]
        k = s[ok + i]
        if x < -1 or x >= constants.NCARDS or k < constants.K_EMPTY or k > constants.K_EVENT:
            return INV_RANGE
    for f in (constants.H_READY, constants.H_USED, constants.H_SPENT, constants.H_REGAINED, constants.H_NOTES, constants.H_DISCARDS, constants.H_AUT_PLACED, constants.H_AUT_DISC,
              constants.H_HAPPY_N):
        if s[f] < 0:
            return INV_RANGE
    oc = rules.o_cnt(s)
    for i in range(P * constants.NCARDS * constants.N_CT):
        if s[oc + i] < 0:
            return INV_RANGE

    # 2./3. every card in one place
    zone = s[constants.O_ZONE:constants.O_ZONE + N]
    tally = tally_list(new_tally(), s[constants.O_DECK:], dn, zone, constants.Z_DECK)
    tally = tally_list(tally, s[constants.O_DISC:], xn, zone, constants.Z_DISCARD)
    tally = tally_list(tally, s[constants.O_REM:], rn, zone, constants.Z_REMOVED)
    for p in range(P):
        tally = tally_list(tally, s[constants.O_HAND + p * constants.HAND_CAP:], s[constants.O_HANDN + p], zone, constants.Z_HAND0 + p)
    for i in range(rows * constants.NCOL):
        x = s[constants.O_GRID + i]
        k = s[ok + i]
        if k == constants.K_EMPTY:
            if x != -1:
                return INV_TWO_PLACES
            continue
        z = constants.Z_FACEUP if k == constants.K_FACEUP else (constants.Z_NOTE if k == constants.K_NOTE else constants.Z_EVENT)
        tally = tally_card(tally, x, zone, z)
    if ac >= 0:
        tally = tally_card(tally, ac, zone, constants.Z_AUTOMA)
    listed, h = tally
    if listed < 0:
        return INV_TWO_PLACES
    kept = s[constants.H_KEPT]
    if kept != cfg[rules.C_SUITS] or s[constants.H_EVENTS_IN] != cfg[rules.C_EVENTS] or s[constants.H_INGAME] != kept * 7 + s[constants.H_EVENTS_IN]:
        return INV_CONSERVED
    covered = 0
    in_play = 0
    events = 0
    for i in range(constants.NCARDS):
        z = s[constants.O_ZONE + i]
        if z == constants.Z_OUT:
            if i < kept * 7:
                return INV_CONSERVED
            continue
        if i >= kept * 7 and i < constants.NWORK:
            return INV_CONSERVED
        if i >= constants.NWORK:
            events += 1
        in_play += 1
        if z == constants.Z_COVERED:
            covered += 1
        else:
            h -= pair_hash(i, z)
    if listed + covered != s[constants.H_INGAME] or in_play != s[constants.H_INGAME] or events != s[constants.H_EVENTS_IN]:
        return INV_CONSERVED
    if h != np.uint64(0):
        return INV_TWO_PLACES

    # 4. the calendar: columns fill top-down, workers in their day's column, event markers
    of = rules.o_rowfill(s)
    for c in range(constants.NCOL):
        ht = s[constants.O_HEIGHT + c]
        for r in range(rows):
            k = s[ok + r * constants.NCOL + c]
            if (r < ht) != (k != constants.K_EMPTY):
                return INV_CALENDAR
            x = s[constants.O_GRID + r * constants.NCOL + c]
            if k == constants.K_FACEUP and (x >= constants.NWORK or x % 7 != c):
                return INV_CALENDAR
            if k == constants.K_EVENT and x < constants.NWORK:
                return INV_CALENDAR
    for r in range(rows):
        n = 0
        for c in range(constants.NCOL):
            if s[ok + r * constants.NCOL + c] != constants.K_EMPTY:
                n += 1
        if s[of + r] != n:
            return INV_CALENDAR
    br = s[constants.H_BD_R]
    if br >= 0:
        bc = s[constants.H_BD_C]
        if br >= rows or bc < 0 or bc >= constants.NCOL or s[constants.O_GRID + br * constants.NCOL + bc] != constants.NWORK + rules.EV_BIRTHDAY:
            return INV_CALENDAR
    elif s[constants.O_ZONE + constants.NWORK + rules.EV_BIRTHDAY] == constants.Z_EVENT:
        return INV_CALENDAR  # the Birthday card is uncovered on the calendar but not marked
    ny = s[constants.H_NY_R]
    if (ny >= 0) != (s[constants.O_ZONE + constants.NWORK + rules.EV_NEWYEARS] == constants.Z_EVENT):
        return INV_CALENDAR
    if ny >= 0:
        found = False
        for c in range(constants.NCOL):
            if ny < rows and s[constants.O_GRID + ny * constants.NCOL + c] == constants.NWORK + rules.EV_NEWYEARS:
                found = True
        if not found:
            return INV_CALENDAR
    vr = s[constants.H_VAL_R]
    if (vr >= 0) != (s[constants.O_ZONE + constants.NWORK + rules.EV_VALENTINE] == constants.Z_EVENT):
        return INV_CALENDAR
    if vr >= 0:
        vc = s[constants.H_VAL_C]
        if vr >= rows or vc < 0 or vc >= constants.NCOL or s[constants.O_GRID + vr * constants.NCOL + vc] != constants.NWORK + rules.EV_VALENTINE:
            return INV_CALENDAR

    # 5. each worker's face-up counts per line
    cnt = 0
    h = np.uint64(0)
    for r in range(rows):
        for c in range(constants.NCOL):
            if s[ok + r * constants.NCOL + c] == constants.K_FACEUP:
                w = s[constants.O_GRID + r * constants.NCOL + c] // 7
                cnt += 3
                h += _hl(w, 0, r) + _hl(w, 1, r - c + 6) + _hl(w, 2, r + c)
    orc = rules.o_rowcnt(s)
    od1 = rules.o_d1(s)
    od2 = rules.o_d2(s)
    for w in range(constants.NSUITS):
        for r in range(rows):
            v = s[orc + w * rows + r]
            if v < 0:
                return INV_LINES
            cnt -= v
            h -= np.uint64(v) * _hl(w, 0, r)
        for i in range(rows + constants.NCOL):
            v1 = s[od1 + w * (rows + constants.NCOL) + i]
            v2 = s[od2 + w * (rows + constants.NCOL) + i]
            if v1 < 0 or v2 < 0:
                return INV_LINES
            cnt -= v1 + v2
            h -= np.uint64(v1) * _hl(w, 1, i) + np.uint64(v2) * _hl(w, 2, i)
    if cnt != 0 or h != np.uint64(0):
        return INV_LINES

    # 6. happy workers
    happy = 0
    for w in range(constants.NSUITS):
        f = s[constants.O_HAPPY + w]
        if w >= kept:
            if f != -1 or s[constants.O_HTURN + w] != -1:
                return INV_HAPPY
            continue
        if f == 1:
            happy += 1
            if s[constants.O_HTURN + w] < 0:
                return INV_HAPPY
        elif f == 0:
            if s[constants.O_HTURN + w] != -1:
                return INV_HAPPY
        else:
            return INV_HAPPY
    vw = s[constants.H_VAL_W]
    if vw < -1 or vw >= kept or (vw >= 0 and (vr < 0 or s[constants.O_HAPPY + vw] != 1)):
        return INV_HAPPY
    if happy != s[constants.H_HAPPY_N] or (happy >= kept) != (s[constants.H_OVER] == constants.END.all_happy):
        return INV_HAPPY

    # 7. pizzas
    if s[constants.H_READY] + s[constants.H_USED] != cfg[rules.C_TOTAL]:
        return INV_PIZZAS
    if s[constants.H_READY] != cfg[rules.C_READY] - s[constants.H_SPENT] + s[constants.H_REGAINED]:
        return INV_PIZZAS

    # 8. counters against the calendar and the discard pile
    if (ac >= 0 and ph != constants.PH_AUTOMA) or (ac < 0 and ph == constants.PH_AUTOMA and s[constants.H_OVER] == 0):
        return INV_COUNTERS  # the automa's card is pending exactly while it waits for a decision
    notes = count_of(zone, N, constants.Z_NOTE)
    faceup = count_of(zone, N, constants.Z_FACEUP)
    ev_on = count_of(zone, N, constants.Z_EVENT) + count_of(zone, N, constants.Z_COVERED)
    noted = 0
    played_w = 0
    played_e = 0
    discarded = 0
    for p in range(P):
        for card in range(constants.NCARDS):
            b = rules.o_cnt(s) + (p * constants.NCARDS + card) * constants.N_CT
            noted += s[b + rules.CT_NOTED]
            discarded += s[b + rules.CT_DISCARDED]
            if card < constants.NWORK:
                played_w += s[b + rules.CT_PLAYED]
            else:
                played_e += s[b + rules.CT_PLAYED]
    if notes != s[constants.H_NOTES] or noted != s[constants.H_NOTES] or discarded != s[constants.H_DISCARDS]:
        return INV_COUNTERS
    if played_w + s[constants.H_AUT_PLACED] != faceup or played_e != ev_on:
        return INV_COUNTERS
    return 0
