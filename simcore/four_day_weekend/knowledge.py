"""What a seat of Four Day Weekend cannot see, declared once (simcore/visibility.py).

The Draw pile's order and the other seats' hands; Personal Discard rows, sets and the Really
Discarded pile are face up. `determinise` (rules.py) redraws exactly these;
tests/test_information_contract.py checks both against this declaration.
"""
import numpy as np

from ..visibility import Hidden, Pool, Visibility
from . import constants
def _slots(a, seat):
    """Indices into `a` of the places hidden from `seat`: the Draw pile, then the other hands."""
    d0 = a[constants.O_DRAW]
    out = [np.arange(d0, d0 + a[constants.M_DRAW_N])]
    for p in range(a[constants.M_PLAYERS]):
        if p != seat:
            h0 = a[constants.O_HAND] + p * constants.HAND_MAX
            out.append(np.arange(h0, h0 + a[a[constants.O_HAND_N] + p]))
    return out


def hidden_pools(tables, s, seat):
    return [Pool("the Draw pile and the other hands", s.a[np.concatenate(_slots(s.a, seat))].copy())]


def place_pools(tables, s, seat, pools):
    a = s.a
    slots = _slots(a, seat)
    cards = pools[0].cards
    at = 0
    for j, ix in enumerate(slots):
        new = cards[at:at + ix.size]
        at += ix.size
        a[ix] = new
        a[a[constants.O_ZONE] + new] = constants.Z_DRAW if j == 0 else constants.Z_HAND
        a[a[constants.O_OWNER] + new] = -1 if j == 0 else [p for p in range(a[constants.M_PLAYERS]) if p != seat][j - 1]


VISIBILITY = Visibility(
    hidden=(
        Hidden("the Draw pile", "every seat's", "order", "cards are drawn from a face-down Draw pile"),
        Hidden("hands", "the other seats'", "cards (a card taken from a face-up Personal Discard row is not "
               "remembered: a reading)", "a hand is held; Personal Discard rows are \"face-up\", sets and the "
               "Really Discarded pile too"),
    ),
    pools=hidden_pools,
    place=place_pools,
)
