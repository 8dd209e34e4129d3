"""Constructed states for rulebook scenarios, and a slow zone checker."""
import numpy as np

from balance.simcore import rng as R
from balance.simcore.sickdays_party import SPEC
from balance.simcore.sickdays_party import kernels as K
from balance.simcore.trace import no_trace

# deterministic reactions: spread 0 means every delay is exactly the median
CALM = {"wrong_play": [0.0], "forget_celebrate": [0.0], "wrong_accusation": [0.0], "reaction_spread": [0.0]}


def tables_for(**params):
    user = dict(CALM)
    user.update(params)
    return SPEC.load_data(user).tables


def fresh(tables, n_players=4, seed=1, game=0):
    rng = R.new_streams(seed, game)
    return K.new_game(tables, np.int64(n_players), rng, no_trace()), rng


def card(suit, day):
    """Card id of worker `suit` (0-based), day 1..7."""
    return suit * 7 + day - 1


def event(e):
    return K.NWORK + e


def detach(s, c):
    """Take card c out of whatever holds it (deck, pile, hand, note, out of the game)."""
    z = s[K.O_ZONE + c]
    if z == K.Z_DECK:
        n = s[K.H_DECK_N]
        deck = [x for x in s[K.O_DECK:K.O_DECK + n] if x != c]
        s[K.O_DECK:K.O_DECK + n] = deck + [-1]
        s[K.H_DECK_N] = n - 1
    elif z == K.Z_PILE:
        n = s[K.H_PILE_N]
        pile = [x for x in s[K.O_PILE:K.O_PILE + n] if x != c]
        s[K.O_PILE:K.O_PILE + n] = pile + [-1]
        s[K.H_PILE_N] = n - 1
        s[K.H_TOP] = pile[-1] if pile else -1
    elif K.Z_HAND0 <= z < K.Z_HAND0 + K.MAXP:
        s[K.O_HANDN + z - K.Z_HAND0] -= 1
    elif z >= K.Z_NOTE0:
        s[K.O_NOTE + z - K.Z_NOTE0] = -1
    elif z == K.Z_OUT:
        s[K.H_EV_IN] += 1
    s[K.O_ZONE + c] = K.Z_OUT


def to_deck(s, c):
    detach(s, c)
    s[K.O_DECK + s[K.H_DECK_N]] = c
    s[K.H_DECK_N] += 1
    s[K.O_ZONE + c] = K.Z_DECK


def set_hand(s, seat, cards):
    """Make seat's hand exactly `cards` (its old cards go to the deck)."""
    for c in range(K.NCARDS):
        if s[K.O_ZONE + c] == K.Z_HAND0 + seat and c not in cards:
            to_deck(s, c)
    for c in cards:
        if s[K.O_ZONE + c] != K.Z_HAND0 + seat:
            detach(s, c)
            s[K.O_ZONE + c] = K.Z_HAND0 + seat
            s[K.O_HANDN + seat] += 1


def set_top(s, c):
    detach(s, c)
    s[K.O_PILE + s[K.H_PILE_N]] = c
    s[K.H_PILE_N] += 1
    s[K.O_ZONE + c] = K.Z_PILE
    s[K.H_TOP] = c


def hand(s, seat):
    return sorted(c for c in range(K.NCARDS) if s[K.O_ZONE + c] == K.Z_HAND0 + seat)


def restart(tables, s, rng, last=-1, t=0):
    """Re-sample every reaction to the current top card (as at a top change at time t)."""
    s[K.H_LAST] = last
    s[K.H_TOP_TIME] = t
    s[K.H_CLOCK] = t
    s[K.H_G_LAST] = last
    K.schedule(tables, s, rng)
    K.next_moment(tables, s, rng, no_trace())


def options(tables, s):
    out = np.zeros(K.MAX_OPTIONS, np.int64)
    n = K.legal(tables, s, out)
    return list(out[:n])


def play(tables, s, rng, option=None, trace=None):
    """Step the seat to move with `option` (default: its first legal option)."""
    if option is None:
        option = options(tables, s)[0]
    K.step(tables, s, np.int64(option), rng, no_trace() if trace is None else trace)


def check_zones(s):
    """Every card in exactly one place, containers and zones agreeing; returns the cards in play."""
    n = s[K.H_NP]
    seen = {}
    for i in range(s[K.H_DECK_N]):
        c = s[K.O_DECK + i]
        assert s[K.O_ZONE + c] == K.Z_DECK and c not in seen
        seen[c] = "deck"
    for i in range(s[K.H_PILE_N]):
        c = s[K.O_PILE + i]
        assert s[K.O_ZONE + c] == K.Z_PILE and c not in seen
        seen[c] = "pile"
    assert s[K.H_TOP] == s[K.O_PILE + s[K.H_PILE_N] - 1]
    for p in range(n):
        h = [c for c in range(K.NCARDS) if s[K.O_ZONE + c] == K.Z_HAND0 + p]
        assert len(h) == s[K.O_HANDN + p]
        for c in h:
            assert c not in seen
            seen[c] = "hand"
        note = s[K.O_NOTE + p]
        if note >= 0:
            assert s[K.O_ZONE + note] == K.Z_NOTE0 + p and note not in seen
            seen[note] = "note"
    for c in range(K.NCARDS):
        if c not in seen:
            assert s[K.O_ZONE + c] == K.Z_OUT, (c, s[K.O_ZONE + c])
    return len(seen)
