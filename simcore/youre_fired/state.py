"""The state of one game: one numpy record of fixed-size arrays (-1 = empty).

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
import numpy as np

from ..jit import jit
from ..records import RecordView, record_dtype
from . import constants
P_MAX = constants.MAX_PLAYERS
C_MAX = constants.MAX_CARD_TYPES

# One record, passed between kernels as one pointer (a tuple of 12 arrays went
# field by field, about 100 words per call: see simcore/jit.py). Fields are
# sized for 4 players and 32 card types; loops run to g[G_NP] and g[G_NCARDS].
STATE_DTYPE = record_dtype([
    ("g", np.int64, (constants.G_WIDTH,)),
    ("hand", np.int64, (P_MAX, C_MAX)),
    ("brk", np.int64, (P_MAX, C_MAX)),  # break room
    ("unemp", np.int64, (P_MAX, C_MAX)),  # unemployment line
    ("deck", np.int64, (P_MAX, constants.DECK_CAP)),
    ("deck_n", np.int64, (P_MAX,)),
    ("removed", np.int64, (C_MAX,)),  # consultants removed unseen
    ("seat", np.int64, (P_MAX, constants.S_WIDTH)),
    ("known", np.int64, (P_MAX, P_MAX, C_MAX)),
    ("known_top", np.int64, (P_MAX, P_MAX)),
    ("belief", np.float64, (P_MAX, P_MAX, C_MAX)),
    ("counts", np.int64, (P_MAX, C_MAX, constants.N_COUNTERS)),
])

class StateView(RecordView):
    """`view(S).hand[p, c]`: fields cut to the game's players (P) and card types (C)."""

    AXES = {"hand": "PC", "brk": "PC", "unemp": "PC", "deck": "P", "deck_n": "P", "removed": "C", "seat": "P",
            "known": "PPC", "known_top": "PP", "belief": "PPC", "counts": "PC"}

    @staticmethod
    def sizes(g):
        return {"P": g[constants.G_NP], "C": g[constants.G_NCARDS]}


def view(S) -> StateView:
    return np.asarray(S).view(StateView)


@jit(refs=True)
def empty_state(n_players, n_cards):
    S = np.zeros(1, STATE_DTYPE)
    s = S[0]
    s.g[constants.G_NP] = n_players
    s.g[constants.G_NCARDS] = n_cards
    s.deck[:] = -1
    return S


@jit(refs=True)
def clone(S):
    return S.copy()


@jit(refs=True)
def card_totals(S):
    """Copies of each card type in all zones (for the conservation check)."""
    s = S[0]
    C = s.g[constants.G_NCARDS]
    out = s.removed[:C].copy()
    for p in range(s.g[constants.G_NP]):
        for c in range(C):
            out[c] += s.hand[p, c] + s.brk[p, c] + s.unemp[p, c]
        for i in range(s.deck_n[p]):
            out[s.deck[p, i]] += 1
    return out
