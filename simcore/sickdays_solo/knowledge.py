"""What a player of Sick Days solo / co-op cannot see, declared once (simcore/visibility.py).

The deck's order, the cards removed unseen at setup and, in co-op, the other players' hands; the
calendar (Doctor's notes too), the discard pile and the pizzas are public. `determinise`
(rules.py) redraws exactly these; tests/test_information_contract.py checks both against this
declaration.
"""
import numpy as np

from ..visibility import Hidden, Pool, Visibility
from . import constants
def _slots(s, seat):
    """Indices into the state of the places hidden from `seat` (the deck, the cards removed unseen,
    the other hands), each with the zone its cards are in."""
    out = [(np.arange(constants.O_DECK, constants.O_DECK + s[constants.H_DECK_N]), constants.Z_DECK),
           (np.arange(constants.O_REM, constants.O_REM + s[constants.H_REM_N]), constants.Z_REMOVED)]
    for p in range(s[constants.H_NP]):
        if p != seat:
            h0 = constants.O_HAND + p * constants.HAND_CAP
            out.append((np.arange(h0, h0 + s[constants.O_HANDN + p]), constants.Z_HAND0 + p))
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
        s[constants.O_ZONE + new] = z


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
