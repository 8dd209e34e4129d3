"""The state of one game: a NamedTuple of plain arrays (-1 = empty).

Zones are per seat: `deck` is ordered (top = index deck_n-1), hand, break
room and unemployment line are counts per card type (order never matters
there). Each seat's knowledge of the others lives in the state too, so a
policy reads only what its player has seen:

    known[o, t, c]     copies of card c that seat o knows are in t's hand
                       (Secretary reveals, cards it watched come back)
    known_top[o, t]    how many top cards of t's deck o has looked at
    belief[o, t, c]    expected copies of c in t's hidden zones (hand+deck),
                       from the fixed company set, public plays and fires,
                       and the consultants o does not hold
"""
from typing import NamedTuple

import numpy as np

from ..jit import jit
from . import constants as K


class State(NamedTuple):
    g: np.ndarray  # int64 (G_WIDTH,)
    hand: np.ndarray  # int64 (P, C)
    brk: np.ndarray  # int64 (P, C) break room
    unemp: np.ndarray  # int64 (P, C) unemployment line
    deck: np.ndarray  # int64 (P, DECK_CAP)
    deck_n: np.ndarray  # int64 (P,)
    removed: np.ndarray  # int64 (C,) consultants removed unseen
    seat: np.ndarray  # int64 (P, S_WIDTH)
    known: np.ndarray  # int64 (P, P, C)
    known_top: np.ndarray  # int64 (P, P)
    belief: np.ndarray  # float64 (P, P, C)
    counts: np.ndarray  # int64 (P, C, N_COUNTERS)


@jit(refs=True)
def empty_state(n_players, n_cards):
    P = n_players
    C = n_cards
    return State(
        np.zeros(K.G_WIDTH, np.int64),
        np.zeros((P, C), np.int64),
        np.zeros((P, C), np.int64),
        np.zeros((P, C), np.int64),
        np.full((P, K.DECK_CAP), -1, np.int64),
        np.zeros(P, np.int64),
        np.zeros(C, np.int64),
        np.zeros((P, K.S_WIDTH), np.int64),
        np.zeros((P, P, C), np.int64),
        np.zeros((P, P), np.int64),
        np.zeros((P, P, C), np.float64),
        np.zeros((P, C, K.N_COUNTERS), np.int64),
    )


@jit(refs=True)
def clone(s):
    return State(s.g.copy(), s.hand.copy(), s.brk.copy(), s.unemp.copy(), s.deck.copy(), s.deck_n.copy(),
                 s.removed.copy(), s.seat.copy(), s.known.copy(), s.known_top.copy(), s.belief.copy(),
                 s.counts.copy())


@jit(refs=True)
def card_totals(s):
    """Copies of each card type in all zones (for the conservation check)."""
    C = s.hand.shape[1]
    out = s.removed.copy()
    for p in range(s.hand.shape[0]):
        for c in range(C):
            out[c] += s.hand[p, c] + s.brk[p, c] + s.unemp[p, c]
        for i in range(s.deck_n[p]):
            out[s.deck[p, i]] += 1
    return out
