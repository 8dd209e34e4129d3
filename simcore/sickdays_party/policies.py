"""Scripted greedy play and the value of a state for the Sick Days party game.

In a real-time game skill is mostly speed, which lives in the behaviour
profile (game parameters), not here. The policy only decides what a seat does
at its moment: which legal card to play, whether to make or play a Doctor's
note (advanced flow), whether to spend a pizza slice, which card to stall with.
"""

from balance.simcore import rng as R
from balance.simcore.jit import jit
from balance.simcore.runner import P_GAME
from balance.simcore.spec import PolicyParam, policy_index

from . import constants, rules
# (name, default, help): greedy weights, params[P_GAME + i]
GREEDY_DEFAULTS = (
    ("keep_events", 1.0, "1: play an event card only when no day card fits (events are wild: a sure play later); 0: no preference"),
    ("use_slices", 1.0, "1: always put a pizza slice back instead of drawing 2; 0: never"),
)
# greedy's weights, declared once: params[W.keep_events] is the slot of keep_events (from P_GAME, in this order)
GREEDY_PARAMS = tuple(PolicyParam(name, P_GAME + i, d, h, 0.0, 1.0) for i, (name, d, h) in enumerate(GREEDY_DEFAULTS))
W = policy_index(GREEDY_PARAMS, P_GAME)


@jit
def card_score(lo, hi, c, params):
    """Higher = play it sooner: the least connected card first (keep the ones
    that many of your cards could follow: `links`, counted on the hand set
    (lo, hi)), events last when keep_events."""
    if c >= constants.NWORK:
        return -1000.0 * params[W.keep_events]
    return -float(rules.popcount(lo & rules.LINK_LO[c]) + rules.popcount(hi & rules.LINK_HI[c]))


@jit(force=True)
def greedy(tables, s, seat, options, n, params, rng):
    ph = s[constants.H_PHASE]
    if ph == constants.PH_SLICE:
        want = 0 if params[W.use_slices] >= 0.5 else 1
        for i in range(n):
            if rules.action(tables, s, options[i])[0] == (constants.ACT.slice_use if want == 0 else constants.ACT.slice_keep):
                return i
        return 0
    best = 0
    best_v = -1e18
    note_i = -1
    n_play = 0
    lo, hi = rules.hand_bits(s, seat)
    for i in range(n):
        kind, card, _, _ = rules.action(tables, s, options[i])
        if kind == constants.ACT.play_note or (kind == constants.ACT.stall and card == s[constants.O_NOTE + seat]):
            note_i = i
            continue
        if kind == constants.ACT.play or kind == constants.ACT.stall:
            n_play += 1
            v = card_score(lo, hi, card, params)
            if v > best_v:
                best_v = v
                best = i
    if n_play == 0:
        return note_i if note_i >= 0 else 0
    # advanced flow: play the note when the hand is nearly empty (it must go
    # too before the seat is out) ...
    if note_i >= 0 and ph == constants.PH_ACT and s[constants.O_HANDN + seat] <= 2:
        return note_i
    # ... and make one by habit (profile `note_habit`) with the card greedy would play
    if ph == constants.PH_ACT and s[constants.O_NOTE + seat] < 0:
        c = rules.action(tables, s, options[best])[1]
        for i in range(n):
            kind, card, _, _ = rules.action(tables, s, options[i])
            if kind == constants.ACT.make_note and card == c:
                if R.uniform(rng, R.POLICY) < tables[1][seat, rules.F_NOTE]:
                    return i
                break
    return best


@jit
def value(tables, s, seat):
    """1 for a seat that went out (earlier is better), else progress toward it:
    the fewer tokens and cards left, the closer to 1."""
    n = s[constants.H_NP]
    place = s[constants.O_PLACE + seat]
    if place > 0:
        return 1.0 - 0.5 * (place - 1) / max(1, n - 1)
    hand = tables[0][rules.C_HAND]
    left = s[constants.O_TOKENS + seat] * hand + rules.cards_left(s, seat)
    full = (s[constants.O_TOKENS + seat] + 1) * hand + 10
    v = 0.5 * (1.0 - left / max(1.0, float(full + hand)))
    if v < 0.0:
        v = 0.0
    return v
