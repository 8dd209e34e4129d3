"""Four Day Weekend kernels: the state machine of decisions.

One decision is one small act of a turn: declare Back To Work-ish or not,
discard one card (or stop), take one card from the Draw pile or another
player's Personal Discard row, play one card (or end the turn). Phases with
a single forced move are advanced automatically.

State: one int64 array `a` (a header of named offsets M_*/O_*, then the
sections: zones, owners, Draw pile, Really Discarded pile, hands, rows,
sets, scores, seat stats) plus the per-card counters and a float scratch
for the policies (`f`, so that greedy allocates nothing per decision). One
array keeps calls between kernels cheap and `clone` a plain copy. The
kernels the loop calls per decision are inlined into it (`force=True`).
"""
from typing import NamedTuple

import numpy as np

from .. import rng as R
from .. import zones
from ..jit import jit
from ..scratch import copy_head, stack_f64
from ..trace import emit
from . import constants
from .constants import G, S
from .scoring import set_points


class State(NamedTuple):
    a: np.ndarray  # int64: header M_*/O_*, then the sections
    counts: np.ndarray  # [seats, cards, N_COUNTERS]
    f: np.ndarray  # float64 scratch of the policies (constants.N_FSCRATCH)


# ---------------------------------------------------------------- accessors
# Every section of `a` starts where its header slot (an O_*) says. A flat
# section (zones, owners, the piles, per-seat counts and scores) holds entry i
# at a[section] + i: read it with `at(a, constants.O_..., i)`. A per-seat
# section (hands, Personal Discard rows, sets, seat stats) gives each seat
# `width` entries: `ix_seat`, named below per section with its width filled
# in (and a reader for hands and sets, the two read most).

@jit(force=True)
def at(a, section, i):
    """Entry i of a flat section."""
    return a[a[section] + i]


@jit(force=True)
def ix_seat(a, section, width, p, k):
    """Index in `a` of entry k of seat p in a per-seat section of `width` entries a seat."""
    return a[section] + p * width + k


@jit
def ix_hand(a, p, k):
    return ix_seat(a, constants.O_HAND, constants.HAND_MAX, p, k)


@jit
def hand_at(a, p, k):
    return a[ix_hand(a, p, k)]


@jit
def ix_row(a, p, j):
    return ix_seat(a, constants.O_ROW, constants.ROW_MAX, p, j)


@jit
def ix_set(a, p, i, slot):
    return ix_seat(a, constants.O_SETS, a[constants.M_MAX_SETS] * constants.N_SLOTS, p, i * constants.N_SLOTS + slot)


@jit
def set_at(a, p, i, slot):
    return a[ix_set(a, p, i, slot)]


@jit
def ix_stat(a, p, k):
    return ix_seat(a, constants.O_SEAT_STATS, constants.N_SEAT_STATS, p, k)


@jit(inline=True)
def contrib(a):
    return a[a[constants.O_CONTRIB]:a[constants.O_CONTRIB] + 6]


@jit(inline=True)
def necs(a):
    return a[a[constants.O_NECS]:a[constants.O_NECS] + constants.N_TYPES]


@jit
def card_of(tables, inst):
    return tables[constants.T_INSTANCES][inst]


# ---------------------------------------------------------------- rules helpers

@jit(force=True)
def locked_sets(tables, a, seat):
    """Locked sets that count toward Back To Work-ish for `seat`."""
    if tables[constants.T_RULES][constants.R_LOCKED_PER_PLAYER] != 0:
        return max(at(a, constants.O_N_SETS, seat) - 1, 0)
    return a[constants.M_LOCKED]


@jit
def count_locked(a):
    """Locked sets in play, all seats together, counted from the sets (what
    M_LOCKED keeps)."""
    total = 0
    for p in range(a[constants.M_PLAYERS]):
        total += max(at(a, constants.O_N_SETS, p) - 1, 0)
    return total


@jit
def sets_rebuilt(a):
    """After sets were written other than by `step` (a new round, a constructed
    state): recount the locked sets and mark every seat's provisional points stale."""
    a[constants.M_LOCKED] = count_locked(a)
    for p in range(a[constants.M_PLAYERS]):
        a[a[constants.O_PROV] + p] = constants.PROV_STALE


@jit(force=True)
def can_declare(tables, a):
    """May the seat to move declare Back To Work-ish now? "if you declare Back
    To Work-ish after sweeping your Personal Discard row, you must replenish
    your hand to five cards from the Draw pile": with `declarer_pile_only`, a
    turn's refill that took a card from another player's row was not from the
    Draw pile, so the rest of that turn may not declare (docs/assumptions.md)."""
    if a[constants.M_DECLARER] >= 0 or a[constants.M_PHASE] == constants.PH_OVER:
        return False
    if a[constants.M_TOOK_ROW] != 0 and tables[constants.T_RULES][constants.R_DECLARER_PILE_ONLY] != 0:
        return False
    return locked_sets(tables, a, a[constants.M_CUR]) >= tables[constants.T_RULES][constants.R_LOCKED_TO_DECLARE]


@jit
def role(cards, c):
    """The set slot card c goes to (two cards of one role compete for it)."""
    return cards[c, constants.C_ROLE]


@jit
def active_base(a, seat):
    """Index in `a` of slot 0 of the seat's active set, -1 without a set."""
    i = at(a, constants.O_N_SETS, seat) - 1
    return ix_set(a, seat, i, 0) if i >= 0 else -1


@jit
def fits(cards, a, base, c):
    """May card id c be played now, given the seat's active_base? Rulebook set
    order: an Excuse starts a set (and locks the last); Activity or Bonus next;
    Necessities after the Activity, one per type; one Bonus."""
    r = role(cards, c)
    if r == constants.S_EXCUSE:
        return True
    if base < 0:
        return False
    if r >= constants.S_NEC and a[base + constants.S_ACTIVITY] < 0:
        return False
    return a[base + r] < 0


@jit
def set_score(tables, a, seat, i):
    """Points of set i of `seat` (0 if incomplete); contributions in contrib(a)."""
    inst_card = tables[constants.T_INSTANCES]
    nc = necs(a)
    for t in range(constants.N_TYPES):
        x = set_at(a, seat, i, constants.S_NEC + t)
        nc[t] = inst_card[x] if x >= 0 else -1
    e = set_at(a, seat, i, constants.S_EXCUSE)
    act = set_at(a, seat, i, constants.S_ACTIVITY)
    b = set_at(a, seat, i, constants.S_BONUS)
    return set_points(tables[constants.T_CARDS], tables[constants.T_BONUS], tables[constants.T_RULES][constants.R_COLOUR_MULTIPLIER],
                      inst_card[e] if e >= 0 else -1, inst_card[act] if act >= 0 else -1, nc,
                      inst_card[b] if b >= 0 else -1, contrib(a))


@jit
def set_complete(a, seat, i):
    if set_at(a, seat, i, constants.S_EXCUSE) < 0 or set_at(a, seat, i, constants.S_ACTIVITY) < 0:
        return False
    for t in range(constants.N_TYPES):
        if set_at(a, seat, i, constants.S_NEC + t) >= 0:
            return True
    return False


@jit
def provisional_points(tables, a, seat):
    """This round's points if it ended now (scoring sets only)."""
    total = 0
    last = at(a, constants.O_N_SETS, seat) - 1
    for i in range(last + 1):
        if i == last and tables[constants.T_RULES][constants.R_ACTIVE_SET_SCORES] == 0:
            continue
        if set_complete(a, seat, i):
            total += set_score(tables, a, seat, i)
    return total


@jit
def provisional_memo(tables, a, seat):
    """provisional_points, kept in the state: recomputed only after the seat's
    sets changed (a locked set never changes; `step` marks the seat stale at
    every card played into a set). `--check` compares it with the sets."""
    o = a[constants.O_PROV] + seat
    v = a[o]
    if v == constants.PROV_STALE:
        v = provisional_points(tables, a, seat)
        a[o] = v
    return v


@jit(force=True)
def _list_remove(a, section, width, count, seat, k):
    """Take entry k out of the seat's hand or Personal Discard row (entries in the per-seat
    `section`, lengths in the flat `count`), closing the gap; returns the card."""
    first = ix_seat(a, section, width, seat, 0)
    inst = a[first + k]
    n = at(a, count, seat)
    for j in range(k, n - 1):
        a[first + j] = a[first + j + 1]
    a[first + n - 1] = -1
    a[a[count] + seat] = n - 1
    return inst


@jit(force=True)
def _list_add(a, section, width, count, zone, seat, inst):
    """Put card inst at the end of the seat's hand or Personal Discard row (`zone`: which)."""
    n = at(a, count, seat)
    a[ix_seat(a, section, width, seat, n)] = inst
    a[a[count] + seat] = n + 1
    a[a[constants.O_ZONE] + inst] = zone
    a[a[constants.O_OWNER] + inst] = seat


@jit
def _hand_remove(a, seat, k):
    return _list_remove(a, constants.O_HAND, constants.HAND_MAX, constants.O_HAND_N, seat, k)


@jit
def _hand_add(a, seat, inst):
    _list_add(a, constants.O_HAND, constants.HAND_MAX, constants.O_HAND_N, constants.Z_HAND, seat, inst)


@jit
def _row_add(a, seat, inst):
    _list_add(a, constants.O_ROW, constants.ROW_MAX, constants.O_ROW_N, constants.Z_ROW, seat, inst)


@jit
def _row_remove(a, seat, j):
    return _list_remove(a, constants.O_ROW, constants.ROW_MAX, constants.O_ROW_N, seat, j)


@jit
def _pop_draw(a):
    n = a[constants.M_DRAW_N] - 1
    inst = at(a, constants.O_DRAW, n)
    a[a[constants.O_DRAW] + n] = -1
    a[constants.M_DRAW_N] = n
    return inst


@jit
def draw_possible(tables, a):
    return a[constants.M_DRAW_N] > 0 or (a[constants.M_REALLY_N] > 0 and tables[constants.T_RULES][constants.R_RESHUFFLE_DISCARDS] != 0)


@jit
def _sweep(a, seat, trace):
    """'If there are any cards in your Personal Discard row, sweep them into
    the central Really Discarded pile.'"""
    n = at(a, constants.O_ROW_N, seat)
    if n == 0:
        return
    for j in range(n):
        inst = a[ix_row(a, seat, j)]
        a[a[constants.O_REALLY] + a[constants.M_REALLY_N]] = inst
        a[constants.M_REALLY_N] += 1
        a[a[constants.O_ZONE] + inst] = constants.Z_REALLY
        a[a[constants.O_OWNER] + inst] = -1
        a[ix_row(a, seat, j)] = -1
    a[a[constants.O_ROW_N] + seat] = 0
    emit(trace, constants.EV_SWEEP, seat, n, 0, 0)


# ---------------------------------------------------------------- rounds

@jit
def _start_round(tables, s, rng, trace):
    a = s.a
    key = rng[R.DEAL]  # this round's deal key (before its shuffle): card power's seat and card are drawn from it
    n_players = a[constants.M_PLAYERS]
    n_inst = a[constants.M_N_INST]
    power = tables[constants.T_RULES][constants.R_POWER_INST]
    n_deal = n_inst - 1 if power >= 0 else n_inst  # card power's one more copy is dealt below, never shuffled in
    hand_size = tables[constants.T_RULES][constants.R_HAND_SIZE]
    d0 = a[constants.O_DRAW]
    for i in range(n_inst):
        a[d0 + i] = i if i < n_deal else -1
        a[a[constants.O_REALLY] + i] = -1
        a[a[constants.O_ZONE] + i] = constants.Z_DRAW
        a[a[constants.O_OWNER] + i] = -1
    # every round's shuffle comes from the deal stream: variants stay paired
    zones.shuffle(rng, R.DEAL, a[d0:d0 + n_deal], n_deal)
    a[constants.M_DRAW_N] = n_deal
    a[constants.M_REALLY_N] = 0
    a[a[constants.O_HAND]:a[constants.O_N_SETS] + n_players] = -1  # hands, rows, sets ...
    a[a[constants.O_HAND_N]:a[constants.O_HAND_N] + n_players] = 0  # ... and their counts
    a[a[constants.O_ROW_N]:a[constants.O_ROW_N] + n_players] = 0
    a[a[constants.O_N_SETS]:a[constants.O_N_SETS] + n_players] = 0
    sets_rebuilt(a)
    # "A different slacker should go first in each round": rotate clockwise
    first = a[constants.M_ROUND] % n_players
    a[constants.M_FIRST] = first
    a[constants.M_CUR] = first
    a[constants.M_ROUND_TURNS] = 0
    a[constants.M_DECLARER] = -1
    a[constants.M_DECLARED_TURN] = 0
    a[constants.M_FINAL_LEFT] = 0
    a[constants.M_EXHAUSTED] = 0
    a[constants.M_PILE_ONLY] = 0
    emit(trace, constants.EV_ROUND_START, a[constants.M_ROUND], first, n_deal - hand_size * n_players, 0)
    for _ in range(hand_size):
        for q in range(n_players):
            p = (first + q) % n_players
            inst = _pop_draw(a)
            _hand_add(a, p, inst)
            s.counts[p, tables[constants.T_INSTANCES][inst], constants.CC_DRAWN] += 1
            emit(trace, constants.EV_DEAL, p, tables[constants.T_INSTANCES][inst], 0, 0)
    if power >= 0:
        _give_power_copy(tables, s, key, power, n_players)
    _begin_turn(tables, a, trace)


@jit
def power_draw(key, salt, n):
    """A number in [0, n) drawn from a deal key (analysis.card_power.power_draw, the same)."""
    return np.int64(R.mix64(key ^ np.uint64(salt)) % np.uint64(n))


@jit
def _give_power_copy(tables, s, key, c, n_players):
    """Card power (analysis.card_power): the one more copy (instance rules[R_POWER_INST]) is dealt into one
    seat's opening hand in place of a card of it drawn from the round's deal key; that card goes to the bottom
    of the Draw pile, so every other card is where the same deal put it. The seat is rules[R_POWER_SEAT] (mod
    the players) or drawn from the first round's deal key (the game's: analysis.card_power.receiving_seats),
    the same seat every round. The copy counts as dealt to it, the card it replaces as never dealt.
    `c` is that instance and `n_players` the table's size, as _start_round read them."""
    a = s.a
    ik = tables[constants.T_INSTANCES]
    p = a[constants.M_POWER_SEAT]
    if p < 0:
        chosen = tables[constants.T_RULES][constants.R_POWER_SEAT]
        p = chosen % n_players if chosen >= 0 else power_draw(key, constants.POWER_SEAT_SALT, n_players)
        a[constants.M_POWER_SEAT] = p
    hn = at(a, constants.O_HAND_N, p)
    if hn == 0:
        _hand_add(a, p, c)
        s.counts[p, ik[c], constants.CC_DRAWN] += 1
        return
    slot = power_draw(key, constants.POWER_SLOT_SALT, hn)
    h = a[ix_hand(a, p, slot)]
    s.counts[p, ik[h], constants.CC_DRAWN] -= 1
    a[ix_hand(a, p, slot)] = c
    a[a[constants.O_ZONE] + c] = constants.Z_HAND
    a[a[constants.O_OWNER] + c] = p
    s.counts[p, ik[c], constants.CC_DRAWN] += 1
    d0 = a[constants.O_DRAW]
    n = a[constants.M_DRAW_N]
    for i in range(n, 0, -1):
        a[d0 + i] = a[d0 + i - 1]
    a[d0] = h
    a[a[constants.O_ZONE] + h] = constants.Z_DRAW
    a[a[constants.O_OWNER] + h] = -1
    a[constants.M_DRAW_N] = n + 1


@jit
def _begin_turn(tables, a, trace):
    seat = a[constants.M_CUR]
    a[constants.M_PILE_ONLY] = 0
    a[constants.M_TOOK_ROW] = 0
    a[constants.M_EPOCH] += 1
    emit(trace, constants.EV_TURN_START, seat, a[constants.M_ROUND_TURNS] + 1, 0, 0)
    if can_declare(tables, a):
        a[constants.M_PHASE] = constants.PH_START  # declaring before the sweep keeps the free refill
    else:
        _sweep(a, seat, trace)
        a[constants.M_PHASE] = constants.PH_DISCARD


@jit
def _end_round(tables, s, reason, rng, trace):
    a = s.a
    n_players = a[constants.M_PLAYERS]
    inst_card = tables[constants.T_INSTANCES]
    active_scores = tables[constants.T_RULES][constants.R_ACTIVE_SET_SCORES] != 0
    emit(trace, constants.EV_ROUND_END, a[constants.M_ROUND], reason, 0, 0)
    best = -1
    cb = contrib(a)
    for p in range(n_players):
        for j in range(at(a, constants.O_HAND_N, p)):
            s.counts[p, inst_card[hand_at(a, p, j)], constants.CC_HELD_AT_END] += 1
        pts = 0
        last = at(a, constants.O_N_SETS, p) - 1
        for i in range(last + 1):
            if (i == last and not active_scores) or not set_complete(a, p, i):
                emit(trace, constants.EV_SET_SCORE, p, i, 0, 0)
                continue
            v = set_score(tables, a, p, i)
            pts += v
            a[ix_stat(a, p, constants.SS_SETS_COMPLETED)] += 1
            s.counts[p, inst_card[set_at(a, p, i, constants.S_ACTIVITY)], constants.CC_SCORED] += cb[0]
            for t in range(constants.N_TYPES):
                x = set_at(a, p, i, constants.S_NEC + t)
                if x >= 0:
                    s.counts[p, inst_card[x], constants.CC_SCORED] += cb[1 + t]
            b = set_at(a, p, i, constants.S_BONUS)
            if b >= 0:
                s.counts[p, inst_card[b], constants.CC_SCORED] += cb[5]
            emit(trace, constants.EV_SET_SCORE, p, i, v, 1)
        a[a[constants.O_ROUND_PTS] + p] = pts
        a[a[constants.O_SCORE] + p] += pts
        if pts > a[ix_stat(a, p, constants.SS_BEST_ROUND)]:
            a[ix_stat(a, p, constants.SS_BEST_ROUND)] = pts
        if pts > best:
            best = pts
        emit(trace, constants.EV_ROUND_SCORE, p, pts, at(a, constants.O_SCORE, p), 0)
    for p in range(n_players):
        if a[a[constants.O_ROUND_PTS] + p] == best:
            a[ix_stat(a, p, constants.SS_ROUNDS_WON)] += 1
    if reason == constants.RE_BTW:
        a[constants.M_ROUNDS_BTW] += 1
    elif reason == constants.RE_EXHAUSTED:
        a[constants.M_ROUNDS_EXHAUSTED] += 1
    else:
        a[constants.M_ROUNDS_LIMIT] += 1
    a[constants.M_LAST_END] = reason
    a[constants.M_ROUND] += 1
    if a[constants.M_ROUND] >= a[constants.M_N_ROUNDS]:
        a[constants.M_PHASE] = constants.PH_OVER
        a[constants.M_OVER] = 1
        mask, k = winners(a)
        emit(trace, constants.EV_GAME_END, mask, top_score(a), k, 0)
    else:
        _start_round(tables, s, rng, trace)


@jit
def _end_turn(tables, s, rng, trace):
    a = s.a
    seat = a[constants.M_CUR]
    n_players = a[constants.M_PLAYERS]
    a[constants.M_ROUND_TURNS] += 1
    a[constants.M_TURNS] += 1
    a[ix_stat(a, seat, constants.SS_TURNS)] += 1
    emit(trace, constants.EV_END_TURN, seat, a[constants.M_ROUND_TURNS], at(a, constants.O_HAND_N, seat), 0)
    if a[constants.M_DECLARER] >= 0:
        # "at the end of each player's turn all cards remaining in his/her hand
        # are placed in the Personal Discard row"
        while at(a, constants.O_HAND_N, seat) > 0:
            inst = _hand_remove(a, seat, 0)
            s.counts[seat, tables[constants.T_INSTANCES][inst], constants.CC_HELD_AT_END] += 1
            _row_add(a, seat, inst)
            emit(trace, constants.EV_DUMP, seat, tables[constants.T_INSTANCES][inst], 0, 0)
        if a[constants.M_DECLARED_TURN] != 0:
            a[constants.M_DECLARED_TURN] = 0
            a[constants.M_FINAL_LEFT] = n_players - 1  # "all other slackers get one final turn"
        else:
            a[constants.M_FINAL_LEFT] -= 1
            if a[constants.M_FINAL_LEFT] <= 0:
                _end_round(tables, s, constants.RE_BTW, rng, trace)
                return
    if a[constants.M_EXHAUSTED] != 0:
        _end_round(tables, s, constants.RE_EXHAUSTED, rng, trace)
        return
    if a[constants.M_ROUND_TURNS] >= tables[constants.T_RULES][constants.R_ROUND_TURN_LIMIT]:
        _end_round(tables, s, constants.RE_TURN_LIMIT, rng, trace)
        return
    a[constants.M_CUR] = (seat + 1) % n_players
    _begin_turn(tables, a, trace)


@jit
def n_takeable(a):
    seat = a[constants.M_CUR]
    if a[constants.M_PILE_ONLY] != 0:
        return 0
    total = 0
    for p in range(a[constants.M_PLAYERS]):
        if p != seat:
            total += at(a, constants.O_ROW_N, p)
    return total


@jit
def any_playable(tables, a):
    seat = a[constants.M_CUR]
    cards = tables[constants.T_CARDS]
    inst_card = tables[constants.T_INSTANCES]
    base = active_base(a, seat)
    for k in range(at(a, constants.O_HAND_N, seat)):
        if fits(cards, a, base, inst_card[hand_at(a, seat, k)]):
            return True
    return False


@jit(force=True)
def _advance(tables, s, rng, trace):
    """Skip phases whose only move is forced."""
    a = s.a
    hand_size = tables[constants.T_RULES][constants.R_HAND_SIZE]
    while True:
        ph = a[constants.M_PHASE]
        seat = a[constants.M_CUR]
        if ph == constants.PH_DISCARD:
            if at(a, constants.O_HAND_N, seat) == 0 and not can_declare(tables, a):
                a[constants.M_PHASE] = constants.PH_REFILL
                continue
            return
        if ph == constants.PH_REFILL:
            if at(a, constants.O_HAND_N, seat) >= hand_size:
                a[constants.M_PHASE] = constants.PH_PLAY
                continue
            if not draw_possible(tables, a):
                if a[constants.M_EXHAUSTED] == 0:
                    # GAMES.md: both piles empty -> the round ends after this turn
                    a[constants.M_EXHAUSTED] = 1
                    emit(trace, constants.EV_EXHAUSTED, seat, 0, 0, 0)
                if n_takeable(a) == 0:
                    a[constants.M_PHASE] = constants.PH_PLAY
                    continue
            return
        if ph == constants.PH_PLAY:
            if not any_playable(tables, a) and not can_declare(tables, a):
                _end_turn(tables, s, rng, trace)
                continue
            return
        return


@jit
def winners(a):
    """Bit mask of the seats with the most points, and how many share them."""
    top = top_score(a)
    mask = 0
    k = 0
    for p in range(a[constants.M_PLAYERS]):
        if at(a, constants.O_SCORE, p) == top:
            mask |= 1 << p
            k += 1
    return mask, k


@jit
def top_score(a):
    top = at(a, constants.O_SCORE, 0)
    for p in range(a[constants.M_PLAYERS]):
        top = max(top, at(a, constants.O_SCORE, p))
    return top


# ---------------------------------------------------------------- contract

@jit(refs=True)
def new_game(tables, n_players, rng, trace):
    n_inst = tables[constants.T_INSTANCES].shape[0]
    n_cards = tables[constants.T_CARDS].shape[0]
    max_sets = 1
    for i in range(n_inst):
        if tables[constants.T_CARDS][tables[constants.T_INSTANCES][i], constants.C_KIND] == constants.EXCUSE:
            max_sets += 1
    sizes = (n_inst, n_inst, n_inst, n_inst, n_players * constants.HAND_MAX, n_players, n_players * constants.ROW_MAX,
             n_players, n_players * max_sets * constants.N_SLOTS, n_players, n_players, n_players,
             n_players * constants.N_SEAT_STATS, 6, constants.N_TYPES, n_players)
    total = constants.N_META
    for z in sizes:
        total += z
    a = np.zeros(total, np.int64)
    off = constants.N_META
    j = 0
    for z in sizes:
        a[constants.O_ZONE + j] = off
        off += z
        j += 1
    a[constants.O_END] = off
    s = State(a, np.zeros((n_players, n_cards, len(constants.CARD_COUNTERS)), np.int64), np.zeros(constants.F_CARD_USE + 2 * n_cards))
    rules = tables[constants.T_RULES]
    per = rules[constants.R_ROUNDS_PER_PLAYER]
    if per == 0:
        per = 2 if n_players <= 3 else 1  # "If there are only two or three of you, play two rounds per slacker"
    a[constants.M_PLAYERS] = n_players
    a[constants.M_N_ROUNDS] = per * n_players
    a[constants.M_MAX_SETS] = max_sets
    a[constants.M_N_INST] = n_inst
    a[constants.M_DECLARER] = -1
    a[constants.M_POWER_SEAT] = -1
    _start_round(tables, s, rng, trace)
    _advance(tables, s, rng, trace)
    return s


@jit
def to_move(s):
    if s.a[constants.M_PHASE] == constants.PH_OVER:
        return -1
    return s.a[constants.M_CUR]


@jit(force=True)
def legal(tables, s, out):
    a = s.a
    ph = a[constants.M_PHASE]
    seat = a[constants.M_CUR]
    n = 0
    if ph == constants.PH_OVER:
        return 0
    if ph == constants.PH_START:
        out[0] = constants.OPT_DECLARE
        out[1] = constants.OPT_CONTINUE
        return 2
    if ph == constants.PH_DISCARD:
        for k in range(at(a, constants.O_HAND_N, seat)):
            out[n] = constants.OPT_DISCARD + k
            n += 1
        out[n] = constants.OPT_CONTINUE
        n += 1
    elif ph == constants.PH_REFILL:
        if draw_possible(tables, a):
            out[n] = constants.OPT_DRAW
            n += 1
        if a[constants.M_PILE_ONLY] == 0:
            for p in range(a[constants.M_PLAYERS]):
                if p == seat:
                    continue
                for j in range(at(a, constants.O_ROW_N, p)):
                    out[n] = constants.OPT_TAKE + p * constants.ROW_MAX + j
                    n += 1
    elif ph == constants.PH_PLAY:
        cards = tables[constants.T_CARDS]
        inst_card = tables[constants.T_INSTANCES]
        base = active_base(a, seat)
        for k in range(at(a, constants.O_HAND_N, seat)):
            if fits(cards, a, base, inst_card[hand_at(a, seat, k)]):
                out[n] = constants.OPT_PLAY + k
                n += 1
        out[n] = constants.OPT_CONTINUE
        n += 1
    if can_declare(tables, a):
        out[n] = constants.OPT_DECLARE
        n += 1
    return n


@jit(force=True)
def action(tables, s, option):
    """(kind, card, target, choice) of a legal option (constants.ACT): the card id discarded, taken
    or played, the seat whose row a card is taken from, and which copy (the card instance: two copies
    of a card in a hand are two options); -1 where one does not apply. An option's hand slot or row
    position names a card here only."""
    a = s.a
    seat = a[constants.M_CUR]
    if option == constants.OPT_DECLARE:
        return constants.ACT.declare, -1, -1, -1
    if option == constants.OPT_CONTINUE:
        ph = a[constants.M_PHASE]
        if ph == constants.PH_START:
            return constants.ACT.carry_on, -1, -1, -1
        if ph == constants.PH_DISCARD:
            return constants.ACT.stop_discarding, -1, -1, -1
        return constants.ACT.end_turn, -1, -1, -1
    if option == constants.OPT_DRAW:
        return constants.ACT.draw, -1, -1, -1
    if option >= constants.OPT_TAKE:
        p = (option - constants.OPT_TAKE) // constants.ROW_MAX
        inst = a[ix_row(a, p, (option - constants.OPT_TAKE) % constants.ROW_MAX)]
        return constants.ACT.take, card_of(tables, inst), p, inst
    if option >= constants.OPT_PLAY:
        inst = hand_at(a, seat, option - constants.OPT_PLAY)
        return constants.ACT.play, card_of(tables, inst), -1, inst
    inst = hand_at(a, seat, option - constants.OPT_DISCARD)
    return constants.ACT.discard, card_of(tables, inst), -1, inst


@jit(force=True)
def step(tables, s, option, rng, trace):
    a = s.a
    seat = a[constants.M_CUR]
    ph = a[constants.M_PHASE]
    inst_card = tables[constants.T_INSTANCES]
    if option == constants.OPT_DECLARE:
        a[constants.M_DECLARER] = seat
        a[constants.M_DECLARED_TURN] = 1
        a[ix_stat(a, seat, constants.SS_DECLARED)] += 1
        emit(trace, constants.EV_DECLARE, seat, 1 if ph == constants.PH_START else 0, locked_sets(tables, a, seat), ph)
        if ph == constants.PH_START:
            _sweep(a, seat, trace)
            a[constants.M_PHASE] = constants.PH_DISCARD
        elif tables[constants.T_RULES][constants.R_DECLARER_PILE_ONLY] != 0:
            # "if you declare Back To Work-ish after sweeping your Personal Discard
            # row, you must replenish your hand to five cards from the Draw pile"
            a[constants.M_PILE_ONLY] = 1
    elif option == constants.OPT_CONTINUE:
        if ph == constants.PH_START:
            _sweep(a, seat, trace)
            a[constants.M_PHASE] = constants.PH_DISCARD
        elif ph == constants.PH_DISCARD:
            a[constants.M_PHASE] = constants.PH_REFILL
        else:
            _end_turn(tables, s, rng, trace)
    elif option == constants.OPT_DRAW:
        if a[constants.M_DRAW_N] == 0:
            # GAMES.md: an empty Draw pile is refilled from the Really Discarded pile
            m = a[constants.M_REALLY_N]
            d0 = a[constants.O_DRAW]
            r0 = a[constants.O_REALLY]
            a[constants.M_DRAW_N] = zones.refill_from(rng, R.CHANCE, a[d0:d0 + m], 0, a[r0:r0 + m], m)
            a[constants.M_REALLY_N] = 0
            for i in range(m):
                a[a[constants.O_ZONE] + a[d0 + i]] = constants.Z_DRAW
            a[constants.M_RESHUFFLES] += 1
            emit(trace, constants.EV_RESHUFFLE, m, 0, 0, 0)
        inst = _pop_draw(a)
        _hand_add(a, seat, inst)
        s.counts[seat, inst_card[inst], constants.CC_DRAWN] += 1
        a[ix_stat(a, seat, constants.SS_DRAWN)] += 1
        emit(trace, constants.EV_DRAW, seat, inst_card[inst], 0, 0)
    elif option >= constants.OPT_TAKE:
        p = (option - constants.OPT_TAKE) // constants.ROW_MAX
        j = (option - constants.OPT_TAKE) % constants.ROW_MAX
        inst = _row_remove(a, p, j)
        _hand_add(a, seat, inst)
        a[constants.M_TOOK_ROW] = 1
        s.counts[seat, inst_card[inst], constants.CC_TAKEN] += 1
        a[ix_stat(a, seat, constants.SS_TAKEN)] += 1
        emit(trace, constants.EV_TAKE, seat, p, inst_card[inst], 0)
    elif option >= constants.OPT_PLAY:
        inst = _hand_remove(a, seat, option - constants.OPT_PLAY)
        c = inst_card[inst]
        kind = tables[constants.T_CARDS][c, constants.C_KIND]
        if kind == constants.EXCUSE:
            # a new Excuse starts a set and locks the previous one
            i = at(a, constants.O_N_SETS, seat)
            a[a[constants.O_N_SETS] + seat] = i + 1
            if i > 0:
                a[constants.M_LOCKED] += 1  # the set it locks
            a[ix_set(a, seat, i, constants.S_EXCUSE)] = inst
            a[ix_stat(a, seat, constants.SS_SETS_STARTED)] += 1
            emit(trace, constants.EV_NEW_SET, seat, c, i, locked_sets(tables, a, seat))
        else:
            i = at(a, constants.O_N_SETS, seat) - 1
            if kind == constants.ACTIVITY:
                slot = constants.S_ACTIVITY
            elif kind == constants.BONUS:
                slot = constants.S_BONUS
            else:
                slot = constants.S_NEC + tables[constants.T_CARDS][c, constants.C_TYPE]
            a[ix_set(a, seat, i, slot)] = inst
            emit(trace, constants.EV_PLAY, seat, c, i, 0)
        a[a[constants.O_ZONE] + inst] = constants.Z_SET
        a[a[constants.O_OWNER] + inst] = seat
        a[a[constants.O_PROV] + seat] = constants.PROV_STALE  # its sets changed
        a[constants.M_EPOCH] += 1
        s.counts[seat, c, constants.CC_PLAYED] += 1
    elif option >= constants.OPT_DISCARD:
        inst = _hand_remove(a, seat, option - constants.OPT_DISCARD)
        _row_add(a, seat, inst)
        emit(trace, constants.EV_DISCARD, seat, inst_card[inst], 0, 0)
    _advance(tables, s, rng, trace)


@jit
def outcome(tables, s, game_row, seat_rows):
    """The result rows, by column name (constants.G, constants.S)."""
    a = s.a
    mask, k = winners(a)
    game_row[G.end_reason] = constants.END.completed  # the runner overwrites a cap
    game_row[G.turns] = a[constants.M_TURNS]
    game_row[G.rounds] = a[constants.M_ROUND]
    game_row[G.winners] = k
    game_row[G.tie] = 1 if k > 1 else 0
    game_row[G.rounds_btw] = a[constants.M_ROUNDS_BTW]
    game_row[G.rounds_exhausted] = a[constants.M_ROUNDS_EXHAUSTED]
    game_row[G.rounds_turn_limit] = a[constants.M_ROUNDS_LIMIT]
    game_row[G.reshuffles] = a[constants.M_RESHUFFLES]
    rounds = max(a[constants.M_ROUND], 1)
    for p in range(a[constants.M_PLAYERS]):
        seat_rows[p, S.won] = 1.0 if (mask >> p) & 1 else 0.0
        seat_rows[p, S.score] = at(a, constants.O_SCORE, p)
        seat_rows[p, S.points_per_round] = at(a, constants.O_SCORE, p) / rounds
        seat_rows[p, S.sets_completed] = a[ix_stat(a, p, constants.SS_SETS_COMPLETED)]
        seat_rows[p, S.sets_started] = a[ix_stat(a, p, constants.SS_SETS_STARTED)]
        seat_rows[p, S.taken_from_rows] = a[ix_stat(a, p, constants.SS_TAKEN)]
        seat_rows[p, S.drawn_from_pile] = a[ix_stat(a, p, constants.SS_DRAWN)]
        seat_rows[p, S.declared] = a[ix_stat(a, p, constants.SS_DECLARED)]
        seat_rows[p, S.best_round] = a[ix_stat(a, p, constants.SS_BEST_ROUND)]
        seat_rows[p, S.rounds_won] = a[ix_stat(a, p, constants.SS_ROUNDS_WON)]
        seat_rows[p, S.turns] = a[ix_stat(a, p, constants.SS_TURNS)]


@jit(refs=True)
def clone(s):
    return State(s.a.copy(), s.counts.copy(), s.f.copy())


@jit
def restore(w, s):
    """w, a clone of this game, made to play on as clone(s) would (the search's worlds): the state and
    greedy's scratch; the per-card counters (half of what clone copies, written and never read in play)
    are left as they were."""
    copy_head(w.a, s.a, s.a.size)
    copy_head(w.f, s.f, s.f.size)


@jit
def determinise(tables, s, seat, rng):
    """Redraw the Draw pile order and the other hands (rows, sets and the
    Really Discarded pile are face up); counts per hand are kept."""
    a = s.a
    n_players = a[constants.M_PLAYERS]
    d0 = a[constants.O_DRAW]
    k = a[constants.M_DRAW_N]
    for p in range(n_players):
        if p != seat:
            for j in range(at(a, constants.O_HAND_N, p)):
                a[d0 + k] = hand_at(a, p, j)
                k += 1
    zones.redeal(rng, a[d0:d0 + k], k)
    for p in range(n_players):
        if p != seat:
            for j in range(at(a, constants.O_HAND_N, p)):
                k -= 1
                inst = a[d0 + k]
                a[d0 + k] = -1
                a[ix_hand(a, p, j)] = inst
                a[a[constants.O_ZONE] + inst] = constants.Z_HAND
                a[a[constants.O_OWNER] + inst] = p
    for i in range(k):
        a[a[constants.O_ZONE] + a[d0 + i]] = constants.Z_DRAW
        a[a[constants.O_OWNER] + a[d0 + i]] = -1


N_TYPES = constants.N_TYPES  # (a name of this module: a scratch array's size must be a constant numba can see)


@jit
def hand_potential(tables, a, p):
    """Rough points the hand is worth to its holder, for judging unfinished
    states: Necessities the active set can take at their (doubled) points,
    the first Activity if the set lacks one, an Excuse to start the next set,
    a Bonus for a set without one; other cards a little."""
    cards = tables[constants.T_CARDS]
    mult = tables[constants.T_RULES][constants.R_COLOUR_MULTIPLIER]
    ai = at(a, constants.O_N_SETS, p) - 1
    act = set_at(a, p, ai, constants.S_ACTIVITY) if ai >= 0 else -1
    act_card = card_of(tables, act) if act >= 0 else -1
    wheel = cards[act_card, constants.C_WHEEL] if act_card >= 0 else 0
    total = 0.0
    if ai >= 0 and not set_complete(a, p, ai):
        # an unfinished set's cards are worth what they were worth in hand
        total += 2.0
        if act_card >= 0:
            total += cards[act_card, constants.C_POINTS] + 1.0
        if set_at(a, p, ai, constants.S_BONUS) >= 0:
            total += 2.0
    seen_excuse = False
    seen_activity = act >= 0
    seen_bonus = ai >= 0 and set_at(a, p, ai, constants.S_BONUS) >= 0
    best = stack_f64(N_TYPES)  # on the stack: value calls this per seat per search iteration
    for t in range(N_TYPES):
        best[t] = 0.0
    for j in range(at(a, constants.O_HAND_N, p)):
        c = card_of(tables, hand_at(a, p, j))
        kind = cards[c, constants.C_KIND]
        pts = cards[c, constants.C_POINTS]
        if kind == constants.EXCUSE:
            total += 0.3 if seen_excuse else 2.0
            seen_excuse = True
        elif kind == constants.ACTIVITY:
            total += 0.5 * pts if seen_activity else pts + 1.0
            seen_activity = True
        elif kind == constants.BONUS:
            total += 0.5 if seen_bonus else 2.0
            seen_bonus = True
        else:
            t = cards[c, constants.C_TYPE]
            v = 0.5 * pts
            if act_card >= 0 and set_at(a, p, ai, constants.S_NEC + t) < 0:
                v = 1.0 * pts * (mult if (wheel >> cards[c, constants.C_COLOUR]) & 1 else 1)
            if v > best[t]:
                total += v - best[t] * 0.8
                best[t] = v
            else:
                total += 0.2 * v
    return total


@jit
def value(tables, s, seat):
    """1 for a sole win (1/k shared), 0 for a loss; unfinished: a logistic of
    the lead in points, counting this round's scoring sets as they stand and
    half of what each hand could still add to its active set."""
    a = s.a
    if a[constants.M_PHASE] == constants.PH_OVER:
        mask, k = winners(a)
        return 1.0 / k if (mask >> seat) & 1 else 0.0
    open_round = a[constants.M_DECLARER] < 0
    mine = at(a, constants.O_SCORE, seat) + provisional_memo(tables, a, seat)
    if open_round:
        mine += 0.5 * hand_potential(tables, a, seat)
    best_other = -1e9
    for p in range(a[constants.M_PLAYERS]):
        if p != seat:
            v = at(a, constants.O_SCORE, p) + provisional_memo(tables, a, p)
            if open_round:
                v += 0.5 * hand_potential(tables, a, p)
            if v > best_other:
                best_other = v
    return 1.0 / (1.0 + np.exp(-(mine - best_other) / 6.0))


@jit(refs=True)
def card_counts(s):
    return s.counts
