"""Constructed states for rulebook scenarios, and a slow zone checker."""
import numpy as np

from balance.simcore.sickdays_party import SPEC
from balance.simcore.sickdays_party import constants, rules
from balance.simcore.trace import no_trace
from by_hand import starter
from sickdays_deck import card, event, take_out  # noqa: F401  (the tests take them from here)

# deterministic reactions: spread 0 means every delay is exactly the median
CALM = {"wrong_play": [0.0], "forget_celebrate": [0.0], "wrong_accusation": [0.0], "reaction_spread": [0.0]}


def tables_for(**params):
    user = dict(CALM)
    user.update(params)
    return SPEC.load_data(user).tables


fresh = starter(SPEC, players=4)


def detach(s, c):
    """Take card c out of whatever holds it (deck, pile, hand, note, out of the game)."""
    z = s[constants.O_ZONE + c]
    if z == constants.Z_DECK:
        take_out(s, c, constants.O_DECK, constants.H_DECK_N)
    elif z == constants.Z_PILE:
        pile = take_out(s, c, constants.O_PILE, constants.H_PILE_N)
        s[constants.H_TOP] = pile[-1] if pile else -1
    elif constants.Z_HAND0 <= z < constants.Z_HAND0 + constants.MAXP:
        s[constants.O_HANDN + z - constants.Z_HAND0] -= 1
    elif z >= constants.Z_NOTE0:
        s[constants.O_NOTE + z - constants.Z_NOTE0] = -1
    elif z == constants.Z_OUT:
        s[constants.H_EV_IN] += 1
    s[constants.O_ZONE + c] = constants.Z_OUT


def to_deck(s, c):
    detach(s, c)
    s[constants.O_DECK + s[constants.H_DECK_N]] = c
    s[constants.H_DECK_N] += 1
    s[constants.O_ZONE + c] = constants.Z_DECK


def set_hand(s, seat, cards):
    """Make seat's hand exactly `cards` (its old cards go to the deck)."""
    for c in range(constants.NCARDS):
        if s[constants.O_ZONE + c] == constants.Z_HAND0 + seat and c not in cards:
            to_deck(s, c)
    for c in cards:
        if s[constants.O_ZONE + c] != constants.Z_HAND0 + seat:
            detach(s, c)
            s[constants.O_ZONE + c] = constants.Z_HAND0 + seat
            s[constants.O_HANDN + seat] += 1


def set_top(s, c):
    detach(s, c)
    s[constants.O_PILE + s[constants.H_PILE_N]] = c
    s[constants.H_PILE_N] += 1
    s[constants.O_ZONE + c] = constants.Z_PILE
    s[constants.H_TOP] = c


def hand(s, seat):
    return sorted(c for c in range(constants.NCARDS) if s[constants.O_ZONE + c] == constants.Z_HAND0 + seat)


def restart(tables, s, rng, last=-1, t=0):
    """Re-sample every reaction to the current top card (as at a top change at time t)."""
    s[constants.H_LAST] = last
    s[constants.H_TOP_TIME] = t
    s[constants.H_CLOCK] = t
    s[constants.H_G_LAST] = last
    rules.schedule(tables, s, rng)
    rules.next_moment(tables, s, rng, no_trace())


def options(tables, s):
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    n = rules.legal(tables, s, out)
    return list(out[:n])


def play(tables, s, rng, option=None, trace=None):
    """Step the seat to move with `option` (default: its first legal option)."""
    if option is None:
        option = options(tables, s)[0]
    rules.step(tables, s, np.int64(option), rng, no_trace() if trace is None else trace)


def check_zones(s):
    """Every card in exactly one place, containers and zones agreeing; returns the cards in play."""
    n = s[constants.H_NP]
    seen = {}
    for i in range(s[constants.H_DECK_N]):
        c = s[constants.O_DECK + i]
        assert s[constants.O_ZONE + c] == constants.Z_DECK and c not in seen
        seen[c] = "deck"
    for i in range(s[constants.H_PILE_N]):
        c = s[constants.O_PILE + i]
        assert s[constants.O_ZONE + c] == constants.Z_PILE and c not in seen
        seen[c] = "pile"
    assert s[constants.H_TOP] == s[constants.O_PILE + s[constants.H_PILE_N] - 1]
    for p in range(n):
        h = [c for c in range(constants.NCARDS) if s[constants.O_ZONE + c] == constants.Z_HAND0 + p]
        assert len(h) == s[constants.O_HANDN + p]
        for c in h:
            assert c not in seen
            seen[c] = "hand"
        note = s[constants.O_NOTE + p]
        if note >= 0:
            assert s[constants.O_ZONE + note] == constants.Z_NOTE0 + p and note not in seen
            seen[note] = "note"
    for c in range(constants.NCARDS):
        if c not in seen:
            assert s[constants.O_ZONE + c] == constants.Z_OUT, (c, s[constants.O_ZONE + c])
    return len(seen)
