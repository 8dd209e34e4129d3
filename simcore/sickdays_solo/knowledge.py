"""What a player of Sick Days solo / co-op cannot see, declared once (simcore/visibility.py).

The deck's order, the cards removed unseen at setup and, in co-op, the other players' hands; the
calendar (Doctor's notes too), the discard pile and the pizzas are public. `determinise`
(kernels.py) redraws exactly these; tests/test_information_contract.py checks both against this
declaration.
"""
import numpy as np

from ..visibility import Hidden, Pool, Visibility
from . import kernels as K


def _slots(s, seat):
    """Indices into the state of the places hidden from `seat` (the deck, the cards removed unseen,
    the other hands), each with the zone its cards are in."""
    out = [(np.arange(K.O_DECK, K.O_DECK + s[K.H_DECK_N]), K.Z_DECK),
           (np.arange(K.O_REM, K.O_REM + s[K.H_REM_N]), K.Z_REMOVED)]
    for p in range(s[K.H_NP]):
        if p != seat:
            h0 = K.O_HAND + p * K.HAND_CAP
            out.append((np.arange(h0, h0 + s[K.O_HANDN + p]), K.Z_HAND0 + p))
    return out


def hidden_pools(tables, s, seat):
    return [Pool("the deck, the cards removed unseen and the other hands",
                 np.concatenate([s[ix] for ix, _ in _slots(s, seat)]).astype(np.int64))]


def place_pools(tables, s, seat, pools):
    cards = pools[0].cards
    at = 0
    for ix, z in _slots(s, seat):
        new = cards[at:at + ix.size]
        at += ix.size
        s[ix] = new
        s[K.O_ZONE + new] = z


VISIBILITY = Visibility(
    hidden=(
        Hidden("the deck", "every seat's", "order (which event cards were added is known: a reading)",
               "\"Shuffle the deck\"; events: \"replay that level with a random event card added to the deck\""),
        Hidden("cards removed at setup", "every seat's", "which they are",
               "\"random cards removed from the deck during setup (you can't look at these all game)\""),
        Hidden("hands", "the other players' (co-op)", "cards",
               "\"each sees only their own hand plus public state\" (the pizza marker is public)"),
    ),
    pools=hidden_pools,
    place=place_pools,
)
