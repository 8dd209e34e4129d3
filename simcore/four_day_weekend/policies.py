"""The scripted `greedy` player of Four Day Weekend.

It rates every card by how useful it is to its own active set ("use"):
a card it can play into the active set now is worth its points (a Necessity
doubled by the Activity's wheel counts double, a Bonus counts the points it
adds) plus NOW_BONUS; a card for a later set is worth a fraction. Then:

- before the sweep, and while playing: declare Back To Work-ish when its lead
  (this round's points; the whole game's in the last round) over every other
  seat is at least `declare_margin` after that seat's final turn, estimated
  from its visible active set (`final_turn_base` + `final_turn_per_slot` per
  open Necessity slot): declaring on a bare lead of 3 gave the other seats a
  final turn each, which overtook the declarer in about half of the last
  rounds it did so at a lead of 3-6 (issue 22). Among three seats of the
  greedy of before (final_turn_base=0, final_turn_per_slot=0) one such seat
  wins 33.6% [33.3, 33.9] of 4-player games, where the seat it replaces won
  26.2% on the same deals (docs/assumptions.md);
- discard: the least useful card while its use is below `keep_threshold`
  (a duplicate of a better card of the same role counts as a later-set card);
  with `deny_weight` > 0 it adds that weight times the most any opponent
  could use it (a card in its row is free for the taking). Denial is off by
  default: at the reconstructed deck it loses to plain greedy (2 players,
  deny_weight=0.3 wins 0.357 [0.337, 0.379] of 2,000 games against it);
- refill: take the most useful card in another player's row when its use is
  at least `take_threshold` (plus `deny_weight` times the most any opponent
  could use it), else draw;
- play: start a set with an Excuse; the Activity whose wheel doubles most of
  the hand's Necessities; the best playable Necessity; the Bonus when it adds
  at least `bonus_min_gain`; lock the set with a new Excuse once it scores and
  holds `lock_necessities` Necessities (or nothing in hand can improve it and
  another Activity waits in hand); else end the turn.
"""
import numpy as np

from ..jit import jit
from ..runner import P_GAME
from ..spec import PolicyParam, policy_index
from . import constants
from .rules import (
    action,
    at,
    can_declare,
    card_of,
    contrib,
    hand_at,
    necs,
    provisional_memo,
    role,
    set_at,
    set_complete,
)
from .scoring import set_points

# greedy's weights, declared once: slots P_GAME, P_GAME + 1, ... in this order
# (the slots saved policy vectors use), indexed by name (W.declare_margin).
_WEIGHTS = (
    ("keep_threshold", 1.6, "discard the least useful card while its use is below this", 0.0, 20.0),
    ("take_threshold", 4.0, "take from another player's row when the card's use is at least this", 0.0, 20.0),
    ("declare_margin", 3.0, "declare Back To Work-ish when ahead by at least this many points", -50.0, 50.0),
    ("lock_necessities", 3.0, "lock a scoring set with a new Excuse once it holds this many Necessities", 1.0, 4.0),
    ("bonus_min_gain", 2.0, "play a Bonus when it adds at least this many points", 0.0, 50.0),
    ("deny_weight", 0.0, "weight of what a card is worth to opponents (discard less, take more of it)", 0.0, 5.0),
    ("final_turn_base", 10.0, "declaring: points another seat may add in the final turn a declaration gives it "
     "(final_turn_base=0 with final_turn_per_slot=0 is the greedy of before, which counted none)", 0.0, 50.0),
    ("final_turn_per_slot", 1.5, "declaring: more final-turn points per Necessity that seat's active set can "
     "still take (4 without an Activity)", 0.0, 20.0),
)
GREEDY_PARAMS = tuple(PolicyParam(name, P_GAME + i, default, help, low, high)
                      for i, (name, default, help, low, high) in enumerate(_WEIGHTS))
W = policy_index(GREEDY_PARAMS, P_GAME)

NOW_BONUS = 3.0
ALL_ROLES = (1 << constants.N_SLOTS) - 1


@jit
def bonus_gain(tables, s, seat, bonus_card):
    """Points a Bonus would add to the seat's active set as it stands (plus 1
    per Necessity slot still open, a rough value of what it will multiply)."""
    a = s.a
    nc = necs(a)
    ai = at(a, constants.O_N_SETS, seat) - 1
    if ai < 0:
        return 0.0
    inst_card = tables[constants.T_INSTANCES]
    open_slots = 0
    for t in range(constants.N_TYPES):
        x = set_at(a, seat, ai, constants.S_NEC + t)
        if x >= 0:
            nc[t] = inst_card[x]
        else:
            nc[t] = -1
            open_slots += 1
    act = set_at(a, seat, ai, constants.S_ACTIVITY)
    if act < 0:
        return 1.0 + 0.5 * open_slots
    cards = tables[constants.T_CARDS]
    mult = tables[constants.T_RULES][constants.R_COLOUR_MULTIPLIER]
    exc = inst_card[set_at(a, seat, ai, constants.S_EXCUSE)]
    cb = contrib(a)
    set_points(cards, tables[constants.T_BONUS], mult, exc, inst_card[act], nc, bonus_card, cb)
    return cb[5] + 0.5 * open_slots  # what the Bonus adds: with it, less without it


@jit
def card_use(tables, s, seat, c):
    """How useful card id c is to `seat` given its active set."""
    ai, starts = use_context(tables, s.a, seat)
    return _use(tables, s, seat, c, ai, starts)


@jit(force=True)
def use_context(tables, a, seat):
    """What card_use needs of the seat besides the card: the active set's
    index, and (without a set) whether an Excuse in hand will start one."""
    ai = at(a, constants.O_N_SETS, seat) - 1
    starts = False
    if ai < 0:
        for j in range(at(a, constants.O_HAND_N, seat)):
            if tables[constants.T_CARDS][card_of(tables, hand_at(a, seat, j)), constants.C_KIND] == constants.EXCUSE:
                starts = True
    return ai, starts


@jit(force=True)
def _use(tables, s, seat, c, ai, starts):
    a = s.a
    cards = tables[constants.T_CARDS]
    kind = cards[c, constants.C_KIND]
    pts = cards[c, constants.C_POINTS]
    if kind == constants.EXCUSE:
        if ai < 0:
            return NOW_BONUS + 3.0
        return 2.0 if set_complete(a, seat, ai) else 0.8
    if ai < 0:
        # no set yet: an Excuse in hand will start one this turn
        if not starts:
            return 0.5 * pts + 0.3
        if kind == constants.ACTIVITY:
            return NOW_BONUS + pts + 1.0
        if kind == constants.NECESSITY:
            return 0.8 * pts + 0.5
        return 3.0
    act = set_at(a, seat, ai, constants.S_ACTIVITY)
    if kind == constants.NECESSITY:
        if act < 0:
            return 0.8 * pts + 0.5
        if set_at(a, seat, ai, constants.S_NEC + cards[c, constants.C_TYPE]) >= 0:
            return 0.3 * pts
        v = pts
        if (cards[card_of(tables, act), constants.C_WHEEL] >> cards[c, constants.C_COLOUR]) & 1:
            v *= tables[constants.T_RULES][constants.R_COLOUR_MULTIPLIER]
        return NOW_BONUS + v
    if kind == constants.ACTIVITY:
        if act < 0:
            return NOW_BONUS + pts + 1.0
        return 0.5 * pts + 0.5
    # Bonus
    if set_at(a, seat, ai, constants.S_BONUS) < 0:
        return 1.0 + bonus_gain(tables, s, seat, c)
    return 0.5


@jit(force=True)
def use_stamp(a, starts):
    """What a use remembered by turn_use is valid for: this epoch (M_EPOCH) and
    this value of `starts`."""
    return 2.0 * a[constants.M_EPOCH] + (2.0 if starts else 1.0)


@jit(force=True)
def turn_use(tables, s, seat, c, ai, starts):
    """_use of card id c, remembered in s.f for the rest of the epoch. Besides
    `starts` (part of the stamp), _use reads the state only through the mover's
    active set, which cannot change within an epoch: M_EPOCH moves on when the
    mover plays a card into a set and when a turn begins. `--check` compares
    every use remembered in the current epoch with _use."""
    f = s.f
    o = constants.F_CARD_USE + 2 * c
    stamp = use_stamp(s.a, starts)
    if f[o] != stamp:
        f[o] = stamp
        f[o + 1] = _use(tables, s, seat, c, ai, starts)
    return f[o + 1]


@jit(force=True)
def hand_uses(tables, s, seat, roles, ai, starts):
    """card_use of every hand card into s.f[F_USE + k], and per role the best
    of them (s.f[F_ROLE_BEST + r]) and its first hand slot (s.f[F_ROLE_SLOT + r]):
    what use_with_hand compares against, computed once per decision. Only
    for the roles in the bit mask `roles` (the others are left at -inf, -1);
    ai, starts: the seat's use_context."""
    a = s.a
    f = s.f
    cards = tables[constants.T_CARDS]
    for r in range(constants.N_SLOTS):
        f[constants.F_ROLE_BEST + r] = -np.inf
        f[constants.F_ROLE_SLOT + r] = -1.0
    for k in range(at(a, constants.O_HAND_N, seat)):
        c = card_of(tables, hand_at(a, seat, k))
        r = role(cards, c)
        if not (roles >> r) & 1:
            continue
        u = turn_use(tables, s, seat, c, ai, starts)
        f[constants.F_USE + k] = u
        if u > f[constants.F_ROLE_BEST + r]:
            f[constants.F_ROLE_BEST + r] = u
            f[constants.F_ROLE_SLOT + r] = k


@jit
def use_with_hand(tables, s, seat, c, skip):
    """card_use, lowered to a later-set value when the hand (except slot `skip`)
    holds a card of the same role that is at least as useful. The definition:
    greedy gets the same values from hand_uses, once per decision (a test
    compares the two)."""
    a = s.a
    cards = tables[constants.T_CARDS]
    u = card_use(tables, s, seat, c)
    for j in range(at(a, constants.O_HAND_N, seat)):
        if j == skip:
            continue
        d = card_of(tables, hand_at(a, seat, j))
        if role(cards, c) == role(cards, d):
            ud = card_use(tables, s, seat, d)
            if ud > u or (ud == u and j < skip):
                return min(u, 0.5 * cards[c, constants.C_POINTS] + 0.5)
    return u


@jit
def opponents_use(tables, s, seat, c):
    a = s.a
    best = 0.0
    for p in range(a[constants.M_PLAYERS]):
        if p != seat:
            u = card_use(tables, s, p, c)
            if u > best:
                best = u
    return best


@jit
def final_turn_points(tables, a, p, params):
    """What seat p may add to this round's points in the one more turn a
    declaration gives it, from what every seat sees (its sets; its hand is
    hidden): final_turn_base plus final_turn_per_slot for each Necessity its
    active set can still take (four when the set has no Activity yet, or there
    is no set: a new set takes four). The defaults, 10 + 1.5 per open slot,
    follow the 90th percentile of the final-turn gains in 2,000 four-player
    greedy games (9-12 points with no slot open, 12-13 with one to three,
    15-19 with four); the means were 3.5-12."""
    ai = at(a, constants.O_N_SETS, p) - 1
    open_slots = constants.N_TYPES
    if ai >= 0 and set_at(a, p, ai, constants.S_ACTIVITY) >= 0:
        open_slots = 0
        for t in range(constants.N_TYPES):
            if set_at(a, p, ai, constants.S_NEC + t) < 0:
                open_slots += 1
    return params[W.final_turn_base] + params[W.final_turn_per_slot] * open_slots


@jit
def should_declare(tables, s, seat, params):
    """Declare when ahead of every other seat by `declare_margin` after each of
    them has had the final turn a declaration gives it (final_turn_points).
    The declarer's own points count as they stand, also before the sweep when
    its own turn is still to come (what it adds is a safety margin: counting it
    as well, the declarations before the sweep came back with leads too small
    to hold). Points: this round's, the whole game's in the last round. With
    final_turn_base = final_turn_per_slot = 0 this is the old rule (the lead as
    it stands)."""
    a = s.a
    n_players = a[constants.M_PLAYERS]
    last_round = a[constants.M_ROUND] == a[constants.M_N_ROUNDS] - 1
    mine = provisional_memo(tables, a, seat) + (at(a, constants.O_SCORE, seat) if last_round else 0)
    # the lead over the best other seat is at least the margin iff it is over each
    for p in range(n_players):
        if p != seat:
            v = provisional_memo(tables, a, p) + (at(a, constants.O_SCORE, p) if last_round else 0)
            v += final_turn_points(tables, a, p, params)
            if mine - v < params[W.declare_margin]:
                return False
    return True


@jit(force=True)
def played_card(tables, s, o, kind):
    """The card id option o plays, if it plays a card of `kind`; else -1."""
    act, c, _, _ = action(tables, s, o)
    if act != constants.ACT.play:
        return -1
    return c if tables[constants.T_CARDS][c, constants.C_KIND] == kind else -1


@jit
def _find(options, n, code):
    for i in range(n):
        if options[i] == code:
            return i
    return -1


@jit(force=True)
def _greedy(tables, s, seat, options, n, params):
    a = s.a
    ph = a[constants.M_PHASE]
    cards = tables[constants.T_CARDS]
    deny = params[W.deny_weight]
    if ph == constants.PH_START:
        declare_ok = should_declare(tables, s, seat, params)
        return _find(options, n, constants.OPT_DECLARE if declare_ok else constants.OPT_CONTINUE)
    if ph == constants.PH_DISCARD:
        # use_with_hand(c, k) for every slot k, from one pass of card_use: a card is
        # lowered unless it is the first of the most useful cards of its role
        ai, starts = use_context(tables, a, seat)
        hand_uses(tables, s, seat, ALL_ROLES, ai, starts)
        f = s.f
        best_k = -1
        best_u = 1e9
        for k in range(at(a, constants.O_HAND_N, seat)):
            c = card_of(tables, hand_at(a, seat, k))
            u = f[constants.F_USE + k]
            if f[constants.F_ROLE_SLOT + role(cards, c)] != k:
                u = min(u, 0.5 * cards[c, constants.C_POINTS] + 0.5)
            if deny > 0.0:
                u += deny * opponents_use(tables, s, seat, c)
            if u < best_u:
                best_u = u
                best_k = k
        if best_k >= 0 and best_u < params[W.keep_threshold]:
            return _find(options, n, constants.OPT_DISCARD + best_k)
        return _find(options, n, constants.OPT_CONTINUE)
    if ph == constants.PH_REFILL:
        # use_with_hand(c, -1): lowered if a hand card of its role is more useful.
        # Lowering only lowers: while the Draw pile is open, a row card whose own
        # use is below take_threshold is never taken, so only the roles of the
        # others need the hand's uses (and none at all is the common case).
        d = _find(options, n, constants.OPT_DRAW)
        ai, starts = use_context(tables, a, seat)
        f = s.f
        roles = 0
        for i in range(n):
            act, c, _, _ = action(tables, s, options[i])
            if act == constants.ACT.take:
                u = turn_use(tables, s, seat, c, ai, starts)
                f[constants.F_OPT + i] = u
                if u >= params[W.take_threshold] or d < 0 or deny > 0.0:
                    roles |= 1 << role(cards, c)
        if roles == 0 and d >= 0:
            return d
        hand_uses(tables, s, seat, roles, ai, starts)
        best_i = -1
        best_u = -1e9
        for i in range(n):
            act, c, _, _ = action(tables, s, options[i])
            if act == constants.ACT.take:
                u = f[constants.F_OPT + i]
                if f[constants.F_ROLE_BEST + role(cards, c)] > u:
                    u = min(u, 0.5 * cards[c, constants.C_POINTS] + 0.5)
                if deny > 0.0:
                    u += deny * opponents_use(tables, s, seat, c)
                if u > best_u:
                    best_u = u
                    best_i = i
        if best_i >= 0 and (best_u >= params[W.take_threshold] or d < 0):
            return best_i
        if d >= 0:
            return d
        return 0
    # play: the options are OPT_PLAY + k for every hand slot k whose card fits,
    # in slot order (an Excuse always fits; an Activity or a Bonus fits while the
    # active set lacks one), then end the turn and perhaps declare
    ai = at(a, constants.O_N_SETS, seat) - 1
    excuse_i = -1
    for i in range(n):
        if played_card(tables, s, options[i], constants.EXCUSE) >= 0:
            excuse_i = i
            break
    if ai < 0:
        if excuse_i >= 0:
            return excuse_i
        if can_declare(tables, a) and should_declare(tables, s, seat, params):
            return _find(options, n, constants.OPT_DECLARE)
        return _find(options, n, constants.OPT_CONTINUE)
    act = set_at(a, seat, ai, constants.S_ACTIVITY)
    mult = tables[constants.T_RULES][constants.R_COLOUR_MULTIPLIER]
    best_i = -1
    best_v = -1.0
    if act < 0:
        # the Activity whose wheel doubles most of the hand's Necessities
        for i in range(n):
            c = played_card(tables, s, options[i], constants.ACTIVITY)
            if c < 0:
                continue
            v = 1.0 * cards[c, constants.C_POINTS]
            for j in range(at(a, constants.O_HAND_N, seat)):
                d = card_of(tables, hand_at(a, seat, j))
                if cards[d, constants.C_KIND] == constants.NECESSITY and (cards[c, constants.C_WHEEL] >> cards[d, constants.C_COLOUR]) & 1:
                    v += cards[d, constants.C_POINTS] * (mult - 1)
            if v > best_v:
                best_v = v
                best_i = i
    else:
        # the most useful Necessity that fits
        for i in range(n):
            c = played_card(tables, s, options[i], constants.NECESSITY)
            if c < 0:
                continue
            v = _use(tables, s, seat, c, ai, False)  # card_use, with the active set ai
            if v > best_v:
                best_v = v
                best_i = i
    if best_i >= 0:
        return best_i
    if set_at(a, seat, ai, constants.S_BONUS) < 0:
        best_v = -1.0
        for i in range(n):
            c = played_card(tables, s, options[i], constants.BONUS)
            if c < 0:
                continue
            v = bonus_gain(tables, s, seat, c)
            if v > best_v:
                best_v = v
                best_i = i
        if best_i >= 0 and best_v >= params[W.bonus_min_gain]:
            return best_i
    if excuse_i >= 0 and set_complete(a, seat, ai):
        n_nec = 0
        for t in range(constants.N_TYPES):
            if set_at(a, seat, ai, constants.S_NEC + t) >= 0:
                n_nec += 1
        has_activity = False
        for k in range(at(a, constants.O_HAND_N, seat)):
            if cards[card_of(tables, hand_at(a, seat, k)), constants.C_KIND] == constants.ACTIVITY:
                has_activity = True
        if n_nec >= params[W.lock_necessities] or has_activity:
            return excuse_i
    if can_declare(tables, a) and should_declare(tables, s, seat, params):
        return _find(options, n, constants.OPT_DECLARE)
    return _find(options, n, constants.OPT_CONTINUE)


@jit(force=True)
def greedy(tables, s, seat, options, n, params, rng):
    i = _greedy(tables, s, seat, options, n, params)
    return i if i >= 0 else 0
