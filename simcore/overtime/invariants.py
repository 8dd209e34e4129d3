"""Overtime's invariants, checked after the deal and after every step by `--check`.

`check(t, s)` returns 0 when every invariant holds, else the 1-based code of
the first one broken; `INVARIANTS` words each code for a designer (the spec's
`invariants`). It only reads the arrays it is given and allocates nothing.

Multisets (the deck list against the cards whose zone is "deck", a per-kind
counter against the cards it counts) are compared by count and by a sum of
`mix64` of each member. mix64 is a bijection of 64-bit words, so a list that
holds one card twice and misses another (or a counter moved from one kind to
another) always changes the sum; several compensating errors would have to
cancel a 64-bit hash sum to go unseen.
"""

from balance.simcore.jit import jit
from balance.simcore.zones import (
    lists_marked, new_tally, settled, slots_ok, tally_card, tally_kind, tally_owned, untally_counts, untally_marked,
)

from .constants import (
    CC_HELD, EVQ_CAP, G_CH_ENTRY, G_CH_SLOT, G_CH_WHO, G_COMPLETIONS, G_CUR, G_DECK_N, G_DISCARDS, G_EV_N,
    G_GIVES, G_NINST, G_NKINDS, G_NP, G_OFFER, G_PHASE, G_PILE_N, HAND_CAP, KF_TASKS, NCH, NPS,
    PF_CARD, PF_KIND, PH_ACTION, PH_CHOOSE, PH_REACT, PILE_CAP, PMAX, P_COMPLETED, P_DISCARDED, P_EMP, P_GIVEN,
    P_HAND_N, P_N_ASSIGN, P_REACT_SLOTS, P_RECEIVED, P_START_ASSIGN, REM_NEAREST, REM_VALID, R_A0, R_A_COPIES, R_J0,
    R_N_INST, R_N_KINDS, R_N_MAIN, N_CC, Z_ASSIGN, Z_ATTACHED, Z_BOX, Z_DECK, Z_DISCARD, Z_EMPLOYEE, Z_HAND, Z_OUT,
    Z_PILE,
)
from .state import react_slots

INV_RANGE = 1
INV_CONSERVED = 2
INV_DECK = 3
INV_HANDS = 4
INV_PILE = 5
INV_DISCARD_COUNTS = 6
INV_HELD_COUNTS = 7
INV_EMPLOYEE = 8
INV_ASSIGN_COUNTS = 9
INV_WORK = 10

INVARIANTS = (
    (
        "a value is out of range: a negative count (snooze, tasks, hand, deck, counters), a seat, "
        "zone or hand size beyond its limits"
    ),
    (
        "cards not conserved: a main-deck card has left the game, or the Assignment and Average Joe cards "
        "in play do not match the number of players"
    ),
    (
        "a card is in two places: the deck list and the cards marked as in the deck differ "
        "(a card missing, listed twice, or also somewhere else)"
    ),
    (
        "a card is in two places: a player's hand and the cards marked as in that hand differ "
        "(a card missing, listed twice, or also somewhere else)"
    ),
    (
        "a card is in two places: the reaction pile and the cards marked as played into it differ, "
        "or a card sits in a pile with no reaction window open"
    ),
    "the discard pile's per-card counts disagree with the cards in the discard pile",
    "a player's held-card counters (per kind, and which hand slots hold reaction cards) disagree with the cards "
    "in their hand",
    "a player's Employee is not their one active E card",
    (
        "Assignment bookkeeping disagrees: a player's A-card count is not the A cards they hold "
        "(or not start - completed - discarded - given + received), completed / discarded / given / received "
        "totals differ, or the memo of tasks left per player is stale"
    ),
    (
        "attached Work is inconsistent: a W card on an A card not in play or of another player, "
        "an A card with fewer tasks than its Work brought or already complete, or tasks on a loose card"
    ),
)


@jit
def check(t, S):
    s = S[0]
    rules = t[0]
    kinds = t[1]
    ck = t[3]
    g = s.g
    zone = s.zone
    owner = s.owner
    n_inst = g[G_NINST]
    n_main = rules[R_N_MAIN]
    a0 = rules[R_A0]
    j0 = rules[R_J0]
    copies = rules[R_A_COPIES]
    K = g[G_NKINDS]
    n = g[G_NP]

    # 1. values in range
    if n < 1 or n > PMAX:
        return INV_RANGE
    if n_inst != rules[R_N_INST] or K != rules[R_N_KINDS]:
        return INV_RANGE
    ph = g[G_PHASE]
    if ph < PH_ACTION or ph > PH_CHOOSE:
        return INV_RANGE
    if g[G_CUR] < 0 or g[G_CUR] >= n:
        return INV_RANGE
    if (ph == PH_REACT or ph == PH_CHOOSE) and (g[G_OFFER] < 0 or g[G_OFFER] >= n):
        return INV_RANGE
    if ph == PH_CHOOSE and (g[G_CH_WHO] < 0 or g[G_CH_WHO] >= n or g[G_CH_ENTRY] < 0
                            or g[G_CH_ENTRY] >= g[G_PILE_N] or g[G_CH_SLOT] < 0 or g[G_CH_SLOT] >= NCH):
        return INV_RANGE
    if g[G_DECK_N] < 0 or g[G_DECK_N] > n_inst:
        return INV_RANGE
    if g[G_PILE_N] < 0 or g[G_PILE_N] > PILE_CAP or g[G_EV_N] < 0 or g[G_EV_N] > EVQ_CAP:
        return INV_RANGE
    for i in range(n_inst):
        if zone[i] < Z_BOX or zone[i] > Z_OUT or owner[i] < -1 or owner[i] >= n or s.tasks[i] < 0:
            return INV_RANGE
        if s.abil[i] < 0 or s.tok_n[i] < 0 or s.tok_on[i] < -1 or s.tok_on[i] >= n_inst:
            return INV_RANGE
    for p in range(PMAX):
        hn = s.ps[p, P_HAND_N]
        if hn < 0 or hn > HAND_CAP or (p >= n and hn != 0):
            return INV_RANGE
        for f in range(NPS):
            if s.ps[p, f] < 0:
                return INV_RANGE
        for k in range(K if p < n else 0):  # (a clone copies the counters of the seats in play only)
            for c in range(N_CC):
                if s.cc[p, k, c] < 0:
                    return INV_RANGE
    for k in range(K):
        if s.dk[k] < 0:
            return INV_RANGE

    # 2. cards conserved: which zones each kind of instance may be in
    for i in range(n_inst):
        z = zone[i]
        if i < n_main:
            if z == Z_BOX or z == Z_OUT or z == Z_ASSIGN:
                return INV_CONSERVED
        elif i < j0:
            in_game = (i - a0) % copies < n
            if in_game and z != Z_ASSIGN and z != Z_OUT:
                return INV_CONSERVED
            if not in_game and z != Z_BOX:
                return INV_CONSERVED
        else:
            if i - j0 < n:
                if z == Z_BOX or z == Z_OUT or z == Z_ASSIGN or z == Z_ATTACHED:
                    return INV_CONSERVED
            elif z != Z_BOX:
                return INV_CONSERVED

    # 3. the deck list holds exactly the cards in the deck
    dn = g[G_DECK_N]
    if not slots_ok(s.deck[:n_inst], dn, n_inst) or not lists_marked(s.deck, dn, zone[:n_inst], Z_DECK):
        return INV_DECK

    # 4. the hands hold exactly the cards in hands, each owned by its holder
    tally = new_tally()
    for p in range(PMAX):
        hn = s.ps[p, P_HAND_N]
        if not slots_ok(s.hand[p], hn, n_inst):
            return INV_HANDS
        tally = tally_owned(tally, s.hand[p], hn, zone[:n_inst], Z_HAND, owner, p)
    if not settled(untally_marked(tally, zone[:n_inst], Z_HAND)):
        return INV_HANDS

    # 5. the reaction pile: its entries' cards are exactly the cards in the pile zone
    pn = g[G_PILE_N]
    if ph != PH_REACT and ph != PH_CHOOSE and pn != 0:
        return INV_PILE
    tally = new_tally()
    for e in range(PILE_CAP):
        c = s.pile[e, PF_CARD]
        if e >= pn:
            if c != -1:
                return INV_PILE
        elif c >= 0:  # (not an event lead: an A card completed)
            tally = tally_card(tally, c, zone[:n_inst], Z_PILE)
            if tally[0] < 0 or s.pile[e, PF_KIND] != ck[c]:
                return INV_PILE
    if not settled(untally_marked(tally, zone[:n_inst], Z_PILE)):
        return INV_PILE

    # 6. per-kind discard counts
    tally = untally_counts(new_tally(), s.dk[:K], Z_DISCARD)
    for i in range(n_inst):
        if zone[i] == Z_DISCARD:
            tally = tally_kind(tally, ck[i], Z_DISCARD)
    if not settled(tally):
        return INV_DISCARD_COUNTS

    # 7. held-card counters per seat and kind (seats beyond n hold nothing: checked in 1.)
    for p in range(n):
        tally = untally_counts(new_tally(), s.cc[p, :K, CC_HELD], Z_HAND)
        for j in range(s.ps[p, P_HAND_N]):
            tally = tally_kind(tally, ck[s.hand[p, j]], Z_HAND)
        if not settled(tally) or react_slots(t, s, p) != s.ps[p, P_REACT_SLOTS]:
            return INV_HELD_COUNTS

    # 8. one active Employee per player, theirs
    emp = 0
    for i in range(n_inst):
        if zone[i] == Z_EMPLOYEE:
            emp += 1
    if emp != n:
        return INV_EMPLOYEE
    for p in range(n):
        e = s.ps[p, P_EMP]
        if e < 0 or e >= n_inst or zone[e] != Z_EMPLOYEE or owner[e] != p:
            return INV_EMPLOYEE

    # 9. Assignment bookkeeping
    done = 0
    for a in range(a0, j0):
        if zone[a] == Z_OUT:
            done += 1
            if owner[a] != -1:
                return INV_ASSIGN_COUNTS
    completed = 0
    discarded = 0
    given = 0
    received = 0
    for p in range(n):
        held = 0
        left = 0
        nearest = -1
        for a in range(a0, j0):
            if zone[a] == Z_ASSIGN and owner[a] == p:
                held += 1
                r = kinds[ck[a], KF_TASKS] - s.tasks[a]
                left += r
                if nearest < 0 or r < kinds[ck[nearest], KF_TASKS] - s.tasks[nearest]:
                    nearest = a
        if s.rem[REM_VALID] != 0 and (s.rem[p] != left or s.rem[REM_NEAREST + p] != nearest):
            return INV_ASSIGN_COUNTS
        na = s.ps[p, P_N_ASSIGN]
        if na != held:
            return INV_ASSIGN_COUNTS
        if na != s.ps[p, P_START_ASSIGN] - s.ps[p, P_COMPLETED] - s.ps[p, P_DISCARDED] - s.ps[p, P_GIVEN] + \
                s.ps[p, P_RECEIVED]:
            return INV_ASSIGN_COUNTS
        completed += s.ps[p, P_COMPLETED]
        discarded += s.ps[p, P_DISCARDED]
        given += s.ps[p, P_GIVEN]
        received += s.ps[p, P_RECEIVED]
    if completed + discarded != done or completed != g[G_COMPLETIONS] or discarded != g[G_DISCARDS] or \
            given != received or given != g[G_GIVES]:
        return INV_ASSIGN_COUNTS

    # 10. attached Work and task tokens
    attached = 0
    for w in range(n_inst):
        if zone[w] == Z_ATTACHED:
            attached += 1
            a = s.link[w]
            if a < a0 or a >= j0 or zone[a] != Z_ASSIGN or owner[w] != owner[a] or s.tasks[w] > s.tasks[a]:
                return INV_WORK
        elif w < n_main and s.tasks[w] != 0:
            return INV_WORK
    for a in range(a0, j0):
        if zone[a] != Z_ASSIGN:
            continue
        if s.tasks[a] >= kinds[ck[a], KF_TASKS]:
            return INV_WORK
        if attached > 1 and s.tasks[a] > 0:
            on = 0
            for w in range(n_main):
                if zone[w] == Z_ATTACHED and s.link[w] == a:
                    on += s.tasks[w]
            if on > s.tasks[a]:
                return INV_WORK
    return 0
