"""What a seat of Shed cannot see (simcore/visibility.py): the deck's order and the other hands;
the discard pile is face up. The fixture's `determinise` redraws exactly these."""
import numpy as np

from balance.simcore.visibility import Hidden, Pool, Visibility

from .rules import L, NMAX


def _slots(s, seat):
    """Indices into the state of the places hidden from `seat`: the deck, then the other hands."""
    out = [np.arange(L.deck, L.deck + s[L.deck_n])]
    for p in range(s[L.players]):
        if p != seat:
            out.append(np.arange(L.hand + p * NMAX, L.hand + p * NMAX + s[L.hand_n + p]))
    return np.concatenate(out)


def hidden_pools(tables, s, seat):
    return [Pool("the deck and the other hands", s[_slots(s, seat)].copy())]


def place_pools(tables, s, seat, pools):
    s[_slots(s, seat)] = pools[0].cards


VISIBILITY = Visibility(
    hidden=(
        Hidden("the deck", "every seat's", "order", "a face-down deck"),
        Hidden("hands", "the other seats'", "cards", "a hand is held; the discard pile is face up"),
    ),
    pools=hidden_pools,
    place=place_pools,
)
