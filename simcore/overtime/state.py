"""Overtime state and the small helpers every rule uses (zones, hands, snooze).

State: one numpy record (`STATE_DTYPE`) of int64 fields (see constants for
offsets); card instances move between zones only through `set_zone`, which
also keeps the per-kind count of the discard pile.

Why a record: the game loop and the kernels pass a record as one pointer,
where a tuple of arrays went field by field (7-11 words per array, about
110 words for the 14 arrays of this state) on every call between kernels
(see simcore/jit.py). A record has fixed sizes, so a card list may hold up
to NINST_MAX card instances and NKINDS_MAX kinds (cards.py checks); the
loops run to the game's own counts (rules[R_N_INST], rules[R_N_KINDS]).

The kernels the shared loop calls (new_game, to_move, legal, step, ...) take
the one-element record array `S` that `new_game` returns and work on its
record `s = S[0]`; every other kernel takes the record. In Python, `view(S)`
gives `s.hand[p, i]`-style access to the same memory (tests, debugging).
"""
import numpy as np

from balance.simcore import rng as R
from balance.simcore import zones
from balance.simcore.jit import jit
from balance.simcore.records import RecordView, record_dtype
from balance.simcore.scratch import copy_head
from balance.simcore.trace import emit

from .constants import (
    AB_PASSIVE, CC_DRAWN, CC_HELD, EF_N, EF_OP, EVQ_CAP, EV_DRAW, EV_RESHUFFLE, EV_SNOOZE, G_DECK_N, G_NINST,
    G_NKINDS, G_NP, G_RESHUFFLES, HAND_CAP, KF_ABIL, KF_IS_REACTION, KF_P, KF_SHIFT, KF_TASKS, MAX_EFF, NG,
    NINST_MAX, NKINDS_MAX, NPF, NPS, NREM, N_CC, OP_SNOOZE_SHIELD, PILE_CAP, PMAX, P_EMP, P_HAND_N, P_N_ASSIGN,
    P_REACT_SLOTS, P_SNOOZE,
    REM_NEAREST, REM_VALID, R_A0, R_DIE1, R_J0, R_LEAST_YOURSELF, R_N_INST, R_N_KINDS, R_PEN1, R_PEN2, R_T1, R_T2,
    R_T3, Z_ASSIGN, Z_DECK, Z_DISCARD, Z_HAND,
)

STATE_DTYPE = record_dtype([
    ("g", np.int64, (NG,)),
    ("zone", np.int64, (NINST_MAX,)),
    ("owner", np.int64, (NINST_MAX,)),
    ("link", np.int64, (NINST_MAX,)),
    ("tasks", np.int64, (NINST_MAX,)),
    ("deck", np.int64, (NINST_MAX,)),
    ("hand", np.int64, (PMAX, HAND_CAP)),
    ("ps", np.int64, (PMAX, NPS)),
    ("pile", np.int64, (PILE_CAP, NPF)),
    ("cc", np.int64, (PMAX, NKINDS_MAX, N_CC)),
    ("evq", np.int64, (EVQ_CAP,)),
    ("dk", np.int64, (NKINDS_MAX,)),
    ("rem", np.int64, (NREM,)),  # tasks left per seat, memoized (assignment_memo)
    ("abil", np.int64, (NINST_MAX,)),  # uses this round of each E card's ability ("each card its own use")
    ("tok_on", np.int64, (NINST_MAX,)),  # the A card this W card put its Task tokens on (-1 none)
    ("tok_n", np.int64, (NINST_MAX,)),  # how many: lost with the W card if it is discarded before completion
])


class StateView(RecordView):
    """`view(S).hand[p, i]`: per-card fields cut to the game's card instances (N) and kinds (K)."""

    AXES = {"zone": "N", "owner": "N", "link": "N", "tasks": "N", "deck": "N", "dk": "K", "cc": ".K", "abil": "N",
            "tok_on": "N", "tok_n": "N"}

    @staticmethod
    def sizes(g):
        return {"N": g[G_NINST], "K": g[G_NKINDS]}


def view(S) -> StateView:
    return np.asarray(S).view(StateView)


@jit(refs=True)
def alloc(t, n_players):
    rules = t[0]
    S = np.zeros(1, STATE_DTYPE)
    s = S[0]
    s.g[G_NP] = n_players
    s.g[G_NINST] = rules[R_N_INST]
    s.g[G_NKINDS] = rules[R_N_KINDS]
    s.owner[:] = -1
    s.link[:] = -1
    s.deck[:] = -1
    s.hand[:] = -1
    s.pile[:] = -1
    s.evq[:] = -1
    s.tok_on[:] = -1
    return S


@jit(refs=True)
def clone(S):
    """A copy of the game: the fields of the card instances, kinds and seats in this game only.

    The record has room for NINST_MAX instances and NKINDS_MAX kinds, and every kernel loops to
    the game's own counts (g[G_NINST], g[G_NKINDS]; the card counters to g[G_NP] seats), so the
    rest is never read: the search clones the state once per iteration, and copying the whole
    record (73 KB; the six seats' card counters alone are 30 KB) was a tenth of its time."""
    C = np.empty(1, STATE_DTYPE)
    s = S[0]
    c = C[0]
    n = s.g[G_NINST]
    k = s.g[G_NKINDS]
    copy_head(c.g, s.g, s.g.size)  # (one memcpy each: a slice assignment is an element loop)
    copy_head(c.zone, s.zone, n)
    copy_head(c.owner, s.owner, n)
    copy_head(c.link, s.link, n)
    copy_head(c.tasks, s.tasks, n)
    copy_head(c.deck, s.deck, n)
    copy_head(c.abil, s.abil, n)
    copy_head(c.tok_on, s.tok_on, n)
    copy_head(c.tok_n, s.tok_n, n)
    copy_head(c.hand, s.hand, s.hand.size)
    copy_head(c.ps, s.ps, s.ps.size)
    for p in range(s.g[G_NP]):
        copy_head(c.cc[p], s.cc[p], k * s.cc.shape[2])
    copy_head(c.pile, s.pile, s.pile.size)
    copy_head(c.evq, s.evq, s.evq.size)
    copy_head(c.dk, s.dk, k)
    copy_head(c.rem, s.rem, s.rem.size)
    return C


@jit
def set_zone_arr(ck, zone, owner, link, dk, i, z):
    """Move instance i to zone z, keeping the per-kind count of the discard pile."""
    k = ck[i]
    if zone[i] == Z_DISCARD:
        dk[k] -= 1
    zone[i] = z
    if z == Z_DISCARD:
        dk[k] += 1
        owner[i] = -1
        link[i] = -1


@jit
def set_zone(t, s, i, z):
    # a branch-free wrapper: the arrays are unpacked once, not increfed per branchy call
    set_zone_arr(t[3], s.zone, s.owner, s.link, s.dk, i, z)


@jit
def is_reaction(t, c):
    """1 if card instance c is a reaction card, else 0."""
    return 1 if t[1][t[3][c], KF_IS_REACTION] != 0 else 0


@jit
def react_slots(t, s, p):
    """The bits of p's hand slots that hold a reaction card, from the hand (P_REACT_SLOTS keeps them:
    a reaction window asks every seat whether it can react, and reads only those slots)."""
    m = 0
    for i in range(s.ps[p, P_HAND_N]):
        m |= is_reaction(t, s.hand[p, i]) << i
    return m


@jit
def add_to_hand(t, s, p, c):
    n = s.ps[p, P_HAND_N]
    s.hand[p, n] = c
    s.ps[p, P_HAND_N] = n + 1
    s.ps[p, P_REACT_SLOTS] |= is_reaction(t, c) << n
    set_zone(t, s, c, Z_HAND)
    s.owner[c] = p
    s.cc[p, t[3][c], CC_HELD] += 1


@jit
def remove_from_hand(t, s, p, slot):
    n = s.ps[p, P_HAND_N] - 1
    c = s.hand[p, slot]
    s.cc[p, t[3][c], CC_HELD] -= 1
    s.hand[p, slot] = s.hand[p, n]
    s.hand[p, n] = -1
    s.ps[p, P_HAND_N] = n
    # the last slot's card moved into `slot`: so does its bit
    m = s.ps[p, P_REACT_SLOTS]
    last = (m >> n) & 1
    m &= ~((1 << slot) | (1 << n))
    if slot != n:
        m |= last << slot
    s.ps[p, P_REACT_SLOTS] = m
    return c


@jit
def reshuffle(t, s, rng, trace):
    """The deck ran out: shuffle the discard pile to make a new deck."""
    n = s.g[G_DECK_N]
    for i in range(s.g[G_NINST]):
        if s.zone[i] == Z_DISCARD:
            set_zone(t, s, i, Z_DECK)
            s.deck[n] = i
            n += 1
    zones.shuffle(rng, R.CHANCE, s.deck, n)
    s.g[G_DECK_N] = n
    s.g[G_RESHUFFLES] += 1
    emit(trace, EV_RESHUFFLE, n, 0, 0, 0)


@jit
def draw_cards(t, s, p, n, rng, trace):
    got = 0
    for _ in range(n):
        if s.g[G_DECK_N] == 0:
            reshuffle(t, s, rng, trace)
            if s.g[G_DECK_N] == 0:
                break
        if s.ps[p, P_HAND_N] >= HAND_CAP:
            break
        s.g[G_DECK_N] -= 1
        c = s.deck[s.g[G_DECK_N]]
        s.deck[s.g[G_DECK_N]] = -1
        add_to_hand(t, s, p, c)
        s.cc[p, t[3][c], CC_DRAWN] += 1
        got += 1
    if got > 0:
        emit(trace, EV_DRAW, p, got, s.ps[p, P_HAND_N], 0)
    return got


@jit(force=True)
def emp_kind(t, s, p):
    return t[3][s.ps[p, P_EMP]]


@jit
def passive(t, s, p, op):
    """Sum of a passive ability opcode of p's employee."""
    k = emp_kind(t, s, p)
    if t[1][k, KF_ABIL] != AB_PASSIVE:
        return 0
    v = 0
    for j in range(MAX_EFF, 2 * MAX_EFF):
        if t[2][k, j, EF_OP] == op:
            v += t[2][k, j, EF_N]
    return v


# The helpers below that loop or branch come in two layers: `*_of` / `*_arr`
# kernels over the few arrays they read, and thin (t, s) wrappers: a call
# copies every array of its arguments onto the stack (see simcore/jit.py).
@jit(force=True)
def shifted_level(rules, snooze, shift):
    """Tiredness level 0..3 for a snooze count, the level thresholds raised by `shift`."""
    if snooze >= rules[R_T3] + shift:
        return 3
    if snooze >= rules[R_T2] + shift:
        return 2
    if snooze >= rules[R_T1] + shift:
        return 1
    return 0


@jit(force=True)
def tired_level(rules, kinds, ek, snooze):
    """Tiredness level 0..3 for a snooze count under an employee of kind ek."""
    return shifted_level(rules, snooze, kinds[ek, KF_SHIFT])


@jit
def level_at(t, s, p, snooze):
    """Tiredness level 0..3 for a snooze count under p's current employee."""
    return tired_level(t[0], t[1], t[3][s.ps[p, P_EMP]], snooze)


@jit(force=True)
def level(t, s, p):
    return tired_level(t[0], t[1], t[3][s.ps[p, P_EMP]], s.ps[p, P_SNOOZE])


@jit
def allowed_actions(rules, kinds, ek, snooze):
    """Actions per turn of an employee of kind ek at a snooze count."""
    lv = tired_level(rules, kinds, ek, snooze)
    a = kinds[ek, KF_P]
    if lv == 1:
        a -= rules[R_PEN1]
    elif lv == 2:
        a -= rules[R_PEN2]
    elif lv == 3:
        a = 0
    return max(0, a)


@jit
def die_target(t, lv):
    if lv <= 0:
        return 1
    return t[0][R_DIE1 + lv - 1]


@jit
def add_snooze(t, s, p, n, trace):
    if n > 0:
        n = max(0, n - passive(t, s, p, OP_SNOOZE_SHIELD))
    old = s.ps[p, P_SNOOZE]
    new = max(0, old + n)
    s.ps[p, P_SNOOZE] = new
    if new != old:
        emit(trace, EV_SNOOZE, p, new - old, new, 0)


@jit(force=True)
def remaining(t, s, a):
    return t[1][t[3][a], KF_TASKS] - s.tasks[a]


@jit(force=True)
def tasks_left_of(kinds, ck, zone, owner, tasks, a0, j0, p):
    """Tasks left on all of p's A cards."""
    r = 0
    for a in range(a0, j0):
        if zone[a] == Z_ASSIGN and owner[a] == p:
            r += kinds[ck[a], KF_TASKS] - tasks[a]
    return r


@jit(force=True)
def tasks_left_all(kinds, ck, zone, owner, tasks, a0, j0, rem):
    """In one pass over the A cards: rem[p] = tasks left on all of p's A cards,
    rem[REM_NEAREST + p] = p's A card nearest completion (the first in instance
    order on ties; -1 if p has none). rem has NREM slots."""
    for p in range(PMAX):
        rem[p] = 0
        rem[REM_NEAREST + p] = -1
    for a in range(a0, j0):
        p = owner[a]
        if zone[a] == Z_ASSIGN and p >= 0:
            r = kinds[ck[a], KF_TASKS] - tasks[a]
            rem[p] += r
            b = rem[REM_NEAREST + p]
            if b < 0 or r < kinds[ck[b], KF_TASKS] - tasks[b]:
                rem[REM_NEAREST + p] = a


@jit(force=True)
def assignments_changed(s):
    """Every change to an A card's tasks, owner or zone calls this: the memo
    of `assignment_memo` is stale (`--check` verifies it is never missed)."""
    s.rem[REM_VALID] = 0


@jit(force=True)
def assignment_memo(t, s):
    """Brings `s.rem` up to date (`tasks_left_all` of the state): recomputed only
    when an A card changed since (greedy reads it at every decision; A cards
    change at a fraction of them). A new state starts zeroed, so not valid."""
    if s.rem[REM_VALID] == 0:
        tasks_left_all(t[1], t[3], s.zone, s.owner, s.tasks, t[0][R_A0], t[0][R_J0], s.rem)
        s.rem[REM_VALID] = 1


@jit(force=True)
def remaining_tasks(t, s, p):
    return tasks_left_of(t[1], t[3], s.zone, s.owner, s.tasks, t[0][R_A0], t[0][R_J0], p)


@jit
def pick_assignment(t, s, p, nearest, excl):
    """p's A card nearest to (or, nearest=False, furthest from) completion."""
    rules = t[0]
    best = -1
    best_r = 0
    for a in range(rules[R_A0], rules[R_J0]):
        if s.zone[a] == Z_ASSIGN and s.owner[a] == p and a != excl:
            r = remaining(t, s, a)
            if best < 0 or (nearest and r < best_r) or ((not nearest) and r > best_r):
                best = a
                best_r = r
    return best


@jit
def leader_other(t, s, p):
    """The other player with the fewest tasks left (ties: first from p's left)."""
    n = s.g[G_NP]
    best = -1
    best_r = 0
    for d in range(1, n):
        q = (p + d) % n
        r = remaining_tasks(t, s, q)
        if best < 0 or r < best_r:
            best = q
            best_r = r
    return best


@jit(force=True)
def alone_fewest(rules, ps, n, p):
    """p has fewer A cards than every other player, and the rules count p among those with the
    fewest (`least_assignments_includes_yourself`): then "the player that has the least amount
    of A cards left, or is tied for the least" is p alone, and nobody else qualifies. Shared by
    the effect (`least_assignments_other`) and greedy's reading of it (policies.who_player)."""
    if rules[R_LEAST_YOURSELF] == 0:
        return False
    for q in range(n):
        if q != p and ps[q, P_N_ASSIGN] <= ps[p, P_N_ASSIGN]:
            return False
    return True


@jit
def least_assignments_other(t, s, p, prefer):
    """Who `least_assignments` names for p: another player with the fewest A cards (ties: `prefer`,
    the player of the card reacted to, else the first from p's left); -1 when p alone has the
    fewest and the rules count p (`alone_fewest`)."""
    n = s.g[G_NP]
    if alone_fewest(t[0], s.ps, n, p):
        return -1
    m = 1 << 30
    for q in range(n):
        if q != p and s.ps[q, P_N_ASSIGN] < m:
            m = s.ps[q, P_N_ASSIGN]
    if prefer >= 0 and prefer != p and s.ps[prefer, P_N_ASSIGN] == m:
        return prefer
    for d in range(1, n):
        q = (p + d) % n
        if s.ps[q, P_N_ASSIGN] == m:
            return q
    return -1
