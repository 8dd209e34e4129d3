"""Four Day Weekend's invariants, checked after the deal and after every step by `--check`.

`check(tables, s)` returns 0 when every invariant holds, else the 1-based code
of the first one broken; `INVARIANTS` words each code for a designer (the
spec's `invariants`). It reads the arrays it is given and allocates nothing.

"Each card in exactly one zone": every entry of the Draw pile, the Really
Discarded pile, the hands, rows and sets must name a card whose zone (and
owner) says it is there, the entries must number the cards of the game, and
the multiset of (card, zone) pairs the lists hold must equal the one the zone
array holds, compared by a sum of `mix64` hashes: mix64 is a bijection of
64-bit words, so a card listed twice in place of another always changes the
sum (several compensating errors would have to cancel a 64-bit hash sum).

The memos (locked sets in play, each seat's provisional points, the card uses
greedy remembered in this epoch) are compared with what they summarise;
recomputing them writes only the state's scoring scratch.
"""
import numpy as np

from balance.simcore.jit import jit
from balance.simcore.zones import new_tally, pair_hash, slots_ok, tally_list, tally_owned

from . import constants
from .rules import count_locked, provisional_points
from .policies import _use, use_context, use_stamp

INV_RANGE = 1
INV_TWO_PLACES = 2
INV_CONSERVED = 3
INV_SETS = 4
INV_HAND_SIZE = 5
INV_SEAT_COUNTERS = 6
INV_ROUNDS = 7
INV_MEMO = 8

INVARIANTS = (
    (
        "a value is out of range: a seat, phase, zone, owner or card id out of range, a negative or "
        "too large pile, hand, row or set count, or a used slot beyond a list's count"
    ),
    (
        "a card is in two places: a pile, hand, row or set lists a card whose place is elsewhere "
        "(or with another owner), or lists a card twice"
    ),
    (
        "cards not conserved: the Draw pile, Really Discarded pile, hands, Personal Discard rows and "
        "sets do not hold every card of the game exactly once in total"
    ),
    (
        "a set breaks the set rules: a set without its Excuse, a card in the wrong slot of a set "
        "(not an Activity in the Activity slot, a Necessity of another type), or a Necessity before "
        "the Activity"
    ),
    "a hand holds more cards than the hand size",
    (
        "per-seat counters disagree: cards drawn, taken from rows, sets started, sets completed or "
        "turns counted per seat do not add up to the cards and turns of the game"
    ),
    (
        "round bookkeeping disagrees: rounds ended by each reason do not add up to the rounds played, "
        "declarations do not match the rounds, the game-over flag and the phase differ, or (with "
        "declarer_pile_only) Back To Work-ish was declared after the sweep in a turn that took a card "
        "from another player's row"
    ),
    (
        "a memo disagrees with the sets: the count of locked sets in play, a seat's provisional "
        "points or a card's use to the seat to move kept in the state differ from what the sets give"
    ),
)


@jit
def check(tables, s):
    a = s.a
    counts = s.counts
    cards = tables[constants.T_CARDS]
    inst_card = tables[constants.T_INSTANCES]
    rules = tables[constants.T_RULES]
    P = a[constants.M_PLAYERS]
    n_inst = a[constants.M_N_INST]
    max_sets = a[constants.M_MAX_SETS]
    o_zone = a[constants.O_ZONE]
    o_owner = a[constants.O_OWNER]
    o_draw = a[constants.O_DRAW]
    o_really = a[constants.O_REALLY]
    o_hand = a[constants.O_HAND]
    o_hand_n = a[constants.O_HAND_N]
    o_row = a[constants.O_ROW]
    o_row_n = a[constants.O_ROW_N]
    o_sets = a[constants.O_SETS]
    o_n_sets = a[constants.O_N_SETS]
    o_stats = a[constants.O_SEAT_STATS]
    ph = a[constants.M_PHASE]

    # 1. values in range
    if P < 1 or P > counts.shape[0] or n_inst != inst_card.shape[0]:
        return INV_RANGE
    if ph < constants.PH_START or ph > constants.PH_OVER or a[constants.M_CUR] < 0 or a[constants.M_CUR] >= P:
        return INV_RANGE
    if a[constants.M_DECLARER] < -1 or a[constants.M_DECLARER] >= P:
        return INV_RANGE
    dn = a[constants.M_DRAW_N]
    rn = a[constants.M_REALLY_N]
    if not slots_ok(a[o_draw:o_draw + n_inst], dn, n_inst) or not slots_ok(a[o_really:o_really + n_inst], rn, n_inst):
        return INV_RANGE
    for i in range(n_inst):
        z = a[o_zone + i]
        if z < constants.Z_DRAW or z > constants.Z_SET or a[o_owner + i] < -1 or a[o_owner + i] >= P:
            return INV_RANGE
        if (z == constants.Z_DRAW or z == constants.Z_REALLY) != (a[o_owner + i] == -1):
            return INV_RANGE
    for p in range(P):
        hand = a[o_hand + p * constants.HAND_MAX:o_hand + (p + 1) * constants.HAND_MAX]
        row = a[o_row + p * constants.ROW_MAX:o_row + (p + 1) * constants.ROW_MAX]
        if not slots_ok(hand, a[o_hand_n + p], n_inst) or not slots_ok(row, a[o_row_n + p], n_inst):
            return INV_RANGE
        ns = a[o_n_sets + p]
        if ns < 0 or ns > max_sets:
            return INV_RANGE
        for i in range(max_sets):
            for slot in range(constants.N_SLOTS):
                x = a[o_sets + (p * max_sets + i) * constants.N_SLOTS + slot]
                if x < -1 or x >= n_inst or (i >= ns and x != -1):
                    return INV_RANGE
        for k in range(constants.N_SEAT_STATS):
            if a[o_stats + p * constants.N_SEAT_STATS + k] < 0:
                return INV_RANGE
        for c in range(counts.shape[1]):
            for k in range(counts.shape[2]):
                if k != constants.CC_SCORED and counts[p, c, k] < 0:
                    return INV_RANGE

    # 2./3. every listed card is where its zone says, each card listed once
    zone = a[o_zone:o_zone + n_inst]
    owner = a[o_owner:o_owner + n_inst]
    tally = tally_list(new_tally(), a[o_draw:], dn, zone, constants.Z_DRAW)
    tally = tally_list(tally, a[o_really:], rn, zone, constants.Z_REALLY)
    for p in range(P):
        tally = tally_owned(tally, a[o_hand + p * constants.HAND_MAX:], a[o_hand_n + p], zone, constants.Z_HAND, owner, p)
        tally = tally_owned(tally, a[o_row + p * constants.ROW_MAX:], a[o_row_n + p], zone, constants.Z_ROW, owner, p)
        sets = a[o_sets + p * max_sets * constants.N_SLOTS:]
        for j in range(a[o_n_sets + p] * constants.N_SLOTS):
            if sets[j] >= 0:
                tally = tally_owned(tally, sets[j:], 1, zone, constants.Z_SET, owner, p)
    listed, h = tally
    if listed < 0:
        return INV_TWO_PLACES
    if listed != n_inst:
        return INV_CONSERVED
    for i in range(n_inst):
        h -= pair_hash(i, zone[i])
    if h != np.uint64(0):
        return INV_TWO_PLACES

    # 4. set rules
    for p in range(P):
        for i in range(a[o_n_sets + p]):
            base = o_sets + (p * max_sets + i) * constants.N_SLOTS
            e = a[base + constants.S_EXCUSE]
            if e < 0 or cards[inst_card[e], constants.C_KIND] != constants.EXCUSE:
                return INV_SETS
            act = a[base + constants.S_ACTIVITY]
            if act >= 0 and cards[inst_card[act], constants.C_KIND] != constants.ACTIVITY:
                return INV_SETS
            b = a[base + constants.S_BONUS]
            if b >= 0 and cards[inst_card[b], constants.C_KIND] != constants.BONUS:
                return INV_SETS
            for t in range(constants.N_TYPES):
                x = a[base + constants.S_NEC + t]
                if x >= 0:
                    c = inst_card[x]
                    if act < 0 or cards[c, constants.C_KIND] != constants.NECESSITY or cards[c, constants.C_TYPE] != t:
                        return INV_SETS

    # 5. hand size
    for p in range(P):
        if a[o_hand_n + p] > rules[constants.R_HAND_SIZE]:
            return INV_HAND_SIZE

    # 6. per-seat counters against the cards and turns
    over = ph == constants.PH_OVER
    rnd = a[constants.M_ROUND]
    dealt_rounds = rnd if over else rnd + 1
    turns = 0
    for p in range(P):
        st = o_stats + p * constants.N_SEAT_STATS
        drawn = 0
        taken = 0
        excuses = 0
        for c in range(counts.shape[1]):
            drawn += counts[p, c, constants.CC_DRAWN]
            taken += counts[p, c, constants.CC_TAKEN]
            if cards[c, constants.C_KIND] == constants.EXCUSE:
                excuses += counts[p, c, constants.CC_PLAYED]
        if drawn != a[st + constants.SS_DRAWN] + dealt_rounds * rules[constants.R_HAND_SIZE]:
            return INV_SEAT_COUNTERS
        if taken != a[st + constants.SS_TAKEN] or excuses != a[st + constants.SS_SETS_STARTED]:
            return INV_SEAT_COUNTERS
        if a[st + constants.SS_SETS_COMPLETED] > a[st + constants.SS_SETS_STARTED] or a[o_n_sets + p] > a[st + constants.SS_SETS_STARTED]:
            return INV_SEAT_COUNTERS
        turns += a[st + constants.SS_TURNS]
    if turns != a[constants.M_TURNS]:
        return INV_SEAT_COUNTERS

    # 7. rounds
    if over != (a[constants.M_OVER] == 1):
        return INV_ROUNDS
    if (over and rnd != a[constants.M_N_ROUNDS]) or (not over and (rnd < 0 or rnd >= a[constants.M_N_ROUNDS])):
        return INV_ROUNDS
    if a[constants.M_ROUNDS_BTW] + a[constants.M_ROUNDS_EXHAUSTED] + a[constants.M_ROUNDS_LIMIT] != rnd:
        return INV_ROUNDS
    declared = 0
    won = 0
    for p in range(P):
        declared += a[o_stats + p * constants.N_SEAT_STATS + constants.SS_DECLARED]
        won += a[o_stats + p * constants.N_SEAT_STATS + constants.SS_ROUNDS_WON]
    current = 1 if (a[constants.M_DECLARER] >= 0 and not over) else 0
    if declared - current < a[constants.M_ROUNDS_BTW] or declared - current > rnd or won < rnd:
        return INV_ROUNDS
    if a[constants.M_DECLARED_TURN] != 0 and a[constants.M_DECLARER] != a[constants.M_CUR]:
        return INV_ROUNDS
    if a[constants.M_TOOK_ROW] < 0 or a[constants.M_TOOK_ROW] > 1 or a[constants.M_PILE_ONLY] < 0 or a[constants.M_PILE_ONLY] > 1:
        return INV_ROUNDS
    # declared after the sweep (refill from the Draw pile only) in a turn that took from a row
    if rules[constants.R_DECLARER_PILE_ONLY] != 0 and a[constants.M_PILE_ONLY] != 0 and a[constants.M_TOOK_ROW] != 0:
        return INV_ROUNDS
    if a[constants.M_ROUND_TURNS] < 0 or a[constants.M_ROUND_TURNS] > rules[constants.R_ROUND_TURN_LIMIT]:
        return INV_ROUNDS

    # 8. memos
    if a[constants.M_LOCKED] != count_locked(a):
        return INV_MEMO
    for p in range(P):
        v = a[a[constants.O_PROV] + p]
        if v != constants.PROV_STALE and v != provisional_points(tables, a, p):
            return INV_MEMO
    if not over:
        seat = a[constants.M_CUR]
        ai, _ = use_context(tables, a, seat)  # both values of `starts` are checked below
        f = s.f
        for c in range(cards.shape[0]):
            stamp = f[constants.F_CARD_USE + 2 * c]
            for starts in (False, True):
                if stamp == use_stamp(a, starts) and f[constants.F_CARD_USE + 2 * c + 1] != _use(
                        tables, s, seat, c, ai, starts):
                    return INV_MEMO
    return 0
