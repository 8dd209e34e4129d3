"""What a seat of Overtime cannot see, declared once (simcore/visibility.py).

The Main deck's order and the other seats' hands; everything else is on the table ("Any player
can look at the cards in the discard pile"). `determinise` (rules.py) redraws exactly these;
tests/test_information_contract.py checks both against this declaration.
"""
import numpy as np

from ..visibility import Hidden, Pool, Visibility
from .constants import CC_HELD, G_DECK_N, G_NP, P_HAND_N, P_REACT_SLOTS, Z_DECK, Z_HAND
from .state import react_slots, view


def _slots(v, seat):
    """(seat or -1 for the Draw pile, how many) of the places hidden from `seat`, in pool order."""
    out = [(-1, int(v.g[G_DECK_N]))]
    for p in range(int(v.g[G_NP])):
        if p != seat:
            out.append((p, int(v.ps[p, P_HAND_N])))
    return out


def hidden_pools(tables, S, seat):
    v = view(S)
    cards = [v.deck[:n] if p < 0 else v.hand[p, :n] for p, n in _slots(v, seat)]
    return [Pool("the Draw pile and the other hands", np.concatenate(cards).astype(np.int64))]


def place_pools(tables, S, seat, pools):
    v = view(S)
    kind = tables[3]
    cards = pools[0].cards
    at = 0
    for p, n in _slots(v, seat):
        new = cards[at:at + n]
        at += n
        if p < 0:
            v.deck[:n] = new
            v.zone[new] = Z_DECK
            v.owner[new] = -1
            continue
        for c in v.hand[p, :n]:  # the held-card counters follow the cards
            v.cc[p, kind[c], CC_HELD] -= 1
        v.hand[p, :n] = new
        v.zone[new] = Z_HAND
        v.owner[new] = p
        for c in new:
            v.cc[p, kind[c], CC_HELD] += 1
        v.ps[p, P_REACT_SLOTS] = react_slots(tables, S[0], p)


VISIBILITY = Visibility(
    hidden=(
        Hidden("the Main deck", "every seat's", "order", "\"Shuffle the Main deck and place it face down\""),
        Hidden("hands", "the other seats'", "cards (a card taken from the discard pile is not remembered: "
               "a reading)", "a hand is held; the discard pile is public (\"Any player can look at the cards in the "
               "discard pile\")"),
    ),
    pools=hidden_pools,
    place=place_pools,
)
