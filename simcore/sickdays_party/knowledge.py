"""What a seat of Sick Days party cannot see, declared once (simcore/visibility.py).

The deck's order, the other seats' hands and their face-down Doctor's notes. `determinise`
(rules.py) redraws exactly these; tests/test_information_contract.py checks both against this
declaration. (The other seats' reactions already sampled by the engine are not cards and are not
pooled here: docs/information.md.)
"""
import numpy as np

from ..visibility import Hidden, Pool, Visibility
from . import constants
def _places(s, seat):
    """The places hidden from `seat`: (kind, seat, cards). The deck's slots, each other seat's face-down
    Doctor's note and the cards of its hand, but a card its pending reaction names (the engine chose
    it when the top card changed: it stays where it is)."""
    out = [("deck", -1, np.arange(constants.O_DECK, constants.O_DECK + s[constants.H_DECK_N]))]
    zone = s[constants.O_ZONE:constants.O_ZONE + constants.NCARDS]
    for p in range(s[constants.H_NP]):
        if p == seat:
            continue
        if s[constants.O_NOTE + p] >= 0:
            out.append(("note", p, np.array([constants.O_NOTE + p])))
        hand = [c for c in np.flatnonzero(zone == constants.Z_HAND0 + p) if c != s[constants.O_RCARD + p]]
        out.append(("hand", p, np.array(hand, np.int64)))
    return out


def hidden_pools(tables, s, seat):
    cards = [s[ix] if kind != "hand" else ix for kind, p, ix in _places(s, seat)]
    return [Pool("the deck, the other hands and their Doctor's notes", np.concatenate(cards).astype(np.int64))]


def place_pools(tables, s, seat, pools):
    cards = pools[0].cards
    places = _places(s, seat)
    at = 0
    for kind, p, ix in places:
        new = cards[at:at + ix.size]
        at += ix.size
        if kind == "hand":
            s[constants.O_ZONE + new] = constants.Z_HAND0 + p
            continue
        s[ix] = new
        s[constants.O_ZONE + new] = constants.Z_DECK if kind == "deck" else constants.Z_NOTE0 + p


VISIBILITY = Visibility(
    hidden=(
        Hidden("the deck", "every seat's", "order (which 2 event cards are in it is known: a reading)",
               "\"Shuffle the deck and 2 random event cards\""),
        Hidden("hands", "the other seats'", "cards", "\"Players can see their cards, but not other player's cards\""),
        Hidden("Doctor's notes", "the other seats'", "which card", "\"play a card from your hand face down in front "
               "of yourself\""),
    ),
    pools=hidden_pools,
    place=place_pools,
)
