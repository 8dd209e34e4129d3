"""The scripted `greedy` (a card counter) and the `value` lookahead judges by.

greedy, in words:
* It knows only what its seat has seen: its own cards, public zones, what its
  Secretaries showed it, what its Auditor saw on a deck, and the fixed make-up
  of every company. From that it estimates, for each card and opponent, the
  chance the card is in that opponent's hand now (`prob_in_hand`).
* A guessing card (Axe Man) names the card with the best chance x worth; it
  names a Boss only when that chance reaches `boss_guess_threshold` (a miss
  gives the owner a free reshuffle).
* It plays its own Boss only when it is at least `boss_play_threshold` sure
  the target holds theirs, or when the Boss is all it has.
* Every other card is scored by what its effect gains (reveal: unknown cards
  in the target's hand; Fall Guy: size of the break room when the deck runs
  low; draw, revive, swap: the worth of what comes back) minus
  `hold_cost` x its worth in hand; dumping a card without effect costs its
  worth. Reactive cards are worth `keep_reactive` and are never played for
  nothing while something else will do.
* Ties between equally scored plays are broken at random (POLICY stream).
* Off-turn it cancels anything aimed at its Boss or at a card it holds worth
  keeping, lets a Manager take the fall for its Boss, and discards its least
  worth card.
"""
import numpy as np

from .. import rng as R
from ..jit import jit
from ..runner import P_GAME
from ..spec import PolicyParam, policy_index
from . import constants
from .rules import action
from .knowledge import hand_probs, hand_size

GREEDY_HELP = (
    "card counter: estimates from what its seat has seen (own cards, public zones, Secretary reveals, "
    "the fixed make-up of each company) how likely each card is in each opponent's hand; guesses the "
    "most likely card worth firing, names a Boss only above boss_guess_threshold, plays its own Boss only "
    "above boss_play_threshold or when forced; otherwise plays the card whose effect gains most over its "
    "worth in hand; off-turn cancels what threatens its Boss and lets a Manager take the fall"
)

# greedy's weights, declared once: slots from P_GAME in this order (saved policy
# vectors keep their meaning); the kernels read params[W.<name>]
_WEIGHTS = (
    ("boss_guess_threshold", 0.55, "min chance the target holds its Boss to name it with a guessing card", 0.0, 1.0),
    ("boss_play_threshold", 0.9, "min chance the target holds its Boss to play one's own Boss", 0.0, 1.0),
    ("fire_weight", 1.0, "value of firing an ordinary card, times its worth", 0.0, 100.0),
    ("reveal_weight", 0.35, "value of each unknown card a Secretary reveals", 0.0, 100.0),
    ("reshuffle_weight", 0.2, "value per break-room card a Fall Guy reshuffles", 0.0, 100.0),
    ("keep_reactive", 2.0, "worth of holding a reactive card (Manager, Lawyer)", 0.0, 100.0),
    ("draw_weight", 0.5, "value per extra card drawn", 0.0, 100.0),
    ("hold_cost", 0.5, "share of a card's worth its play costs", 0.0, 10.0),
)
GREEDY_PARAMS = tuple(PolicyParam(name, P_GAME + i, default, text, low, high)
                      for i, (name, default, text, low, high) in enumerate(_WEIGHTS))
W = policy_index(GREEDY_PARAMS, P_GAME)


@jit
def worth(cards, rules, c, params):
    op = cards[c, constants.CF_EFFECT]
    if op == constants.OP_BOSS:
        return 1000.0
    if op == constants.OP_CANCEL or op == constants.OP_REDIRECT:
        return params[W.keep_reactive]
    if op == constants.OP_GUESS_FIRE_HAND:
        return 1.5
    if op == constants.OP_NONE:
        return 0.2
    return 1.0


@jit
def protected_boss(cards, probs_t, boss):
    """Chance an attempt on this Boss fires it: the target holds it and no
    reactive card that would cancel or redirect the attempt."""
    p = probs_t[boss]
    if p <= 0.0:
        return 0.0
    for r in range(cards.shape[0]):
        op = cards[r, constants.CF_EFFECT]
        if (op == constants.OP_CANCEL or op == constants.OP_REDIRECT) and cards[r, constants.CF_TRIGGER] != constants.TRIG_NONE:
            p *= 1.0 - probs_t[r]
    return p


@jit
def play_score(cards, rules, known, deck_n, a, kind, c, t, x, params, probs, hands, brk_total, only_bosses):
    """The play (kind, c, t, x) of rules.action; probs[t, c]: chance (to seat a) that c is in t's hand;
    hands[t]: hand sizes; only_bosses: a's Bosses in hand (two when a partner passed one)."""
    C = cards.shape[0]
    boss = rules[constants.R_BOSS_ID]
    wc = worth(cards, rules, c, params)
    if kind == constants.ACT.break_room:
        return -wc
    op = cards[c, constants.CF_EFFECT]
    hold = params[W.hold_cost] * wc
    if op == constants.OP_BOSS:
        p = protected_boss(cards, probs[t], boss)
        if p >= params[W.boss_play_threshold] or hands[a] == only_bosses:
            return 100.0 * p
        return -100.0 + p
    if op == constants.OP_GUESS_FIRE_HAND:
        if x == boss:
            p = protected_boss(cards, probs[t], boss)
            if p >= params[W.boss_guess_threshold]:
                return 50.0 * p
            return -2.0 - hold
        return probs[t, x] * params[W.fire_weight] * worth(cards, rules, x, params) - hold
    if op == constants.OP_FIRE_FROM_BREAK:
        return 0.3 * worth(cards, rules, x, params) - hold
    if op == constants.OP_REVEAL_HAND:
        unknown = hands[t]
        for z in range(C):
            unknown -= known[a, t, z]
        return params[W.reveal_weight] * unknown - hold
    if op == constants.OP_FIRE_SELF_RESHUFFLE:
        low = 1.0 if deck_n[a] < 4 else 0.3
        return params[W.reshuffle_weight] * brk_total * low - hold
    if op == constants.OP_REVIVE:
        return 0.8 * worth(cards, rules, x, params) - hold
    if op == constants.OP_DRAW:
        return params[W.draw_weight] * cards[c, constants.CF_N] - hold
    if op == constants.OP_DISCARD:
        if hands[t] == 1:
            return 50.0 * protected_boss(cards, probs[t], boss) + 0.5 - hold
        return 0.5 - hold
    if op == constants.OP_SWAP:  # x: the hand card given up and the break-room card taken, as x + C * y
        return worth(cards, rules, x // C, params) - worth(cards, rules, x % C, params) - hold
    if op == constants.OP_PEEK_DECK:
        return 0.1 * cards[c, constants.CF_N] - hold
    return -hold


@jit(refs=True)
def greedy(tables, S, seat, options, n, params, rng):
    s = S[0]
    cards, rules = tables
    boss = rules[constants.R_BOSS_ID]
    ph = s.g[constants.G_PHASE]
    if ph == constants.PH_CANCEL:
        c = s.g[constants.G_ACT_CARD]
        op = cards[c, constants.CF_EFFECT]
        x = s.g[constants.G_ACT_NAME]
        want = False
        if op == constants.OP_BOSS:
            want = s.hand[seat, boss] > 0
        elif op == constants.OP_GUESS_FIRE_HAND:
            want = x < cards.shape[0] and s.hand[seat, x] > 0 and (
                x == boss or worth(cards, rules, x, params) >= 1.5)
        elif op == constants.OP_REVEAL_HAND:
            want = s.hand[seat, boss] > 0
        elif op == constants.OP_DISCARD:
            want = hand_size(s.hand, seat) == 1 and s.hand[seat, boss] > 0
        return (n - 1) if (want and n > 1) else 0
    if ph == constants.PH_REDIRECT:
        victim = s.g[constants.G_REDIRECT_CARD]
        other = action(tables, S, options[1])[1] if n > 1 else -1  # the reactive card that would go instead
        if n > 1 and (victim == boss or worth(cards, rules, victim, params) > worth(cards, rules, other, params)):
            return 1
        return 0
    if ph == constants.PH_DISCARD:
        best = 0
        bw = 1e300
        for i in range(n):
            w = worth(cards, rules, action(tables, S, options[i])[1], params)
            if w < bw:
                bw = w
                best = i
        return best
    P = s.g[constants.G_NP]
    C = cards.shape[0]
    probs = np.zeros((P, C))
    hands = np.zeros(P, np.int64)
    for t in range(P):
        hands[t] = hand_size(s.hand, t)
        if t != seat and s.seat[t, constants.S_ALIVE] == 1:
            hand_probs(cards, rules, s, seat, t, probs[t])
    brk_total = 0
    for z in range(C):
        brk_total += s.brk[seat, z]
    # equal scores (e.g. the same card against different opponents) are broken
    # at random, so no seat is everybody's default target
    best = 0
    bv = -1e300
    ties = 0
    for i in range(n):
        kind, c, t, x = action(tables, S, options[i])
        v = play_score(cards, rules, s.known, s.deck_n, seat, kind, c, t, x, params, probs, hands, brk_total,
                       s.hand[seat, boss])
        if v > bv + 1e-9:
            bv = v
            best = i
            ties = 1
        elif v > bv - 1e-9:
            ties += 1
            if R.randint(rng, R.POLICY, ties) == 0:
                best = i
    return best


@jit
def value(tables, S, seat):
    s = S[0]
    P = s.g[constants.G_NP]
    teams = s.g[constants.G_TEAMS] == 1
    if s.g[constants.G_OVER] == 1:
        w = s.g[constants.G_WINNER]
        if w < 0:
            return 0.5 if teams else 1.0 / P
        if teams:
            return 1.0 if (seat % 2) == w else 0.0
        return 1.0 if w == seat else 0.0
    if teams:  # Bosses lost by each team (public: its unemployment lines)
        boss = tables[1][constants.R_BOSS_ID]
        own = s.unemp[seat, boss] + s.unemp[(seat + 2) % 4, boss]
        opp = s.unemp[(seat + 1) % 4, boss] + s.unemp[(seat + 3) % 4, boss]
        return 0.5 + 0.2 * (opp - own)
    if s.seat[seat, constants.S_ALIVE] == 0:
        return 0.0
    alive = 0
    total = 0.0
    for p in range(P):
        if s.seat[p, constants.S_ALIVE] == 1:
            alive += 1
            total += hand_size(s.hand, p) + s.deck_n[p]
    mine = hand_size(s.hand, seat) + s.deck_n[seat]
    v = 1.0 / alive + 0.02 * (mine - total / alive)
    if v < 0.02:
        v = 0.02
    if v > 0.98:
        v = 0.98
    return v
