"""Sick Days party game invariants, checked after the deal and after every step by `--check`
(and the tests).

`check(tables, s)` returns 0 when every invariant holds, else the 1-based code of the first one
broken; `INVARIANTS` words each code for a designer (the spec's `invariants`). It reads the state
array and allocates nothing.
"""
from balance.simcore.jit import jit
from balance.simcore.zones import lists_marked

from .constants import (
    H_CLOCK,
    H_DECK_N,
    H_EV_IN,
    H_MIDDLE,
    H_NP,
    H_NWON,
    H_PILE_N,
    H_SLICES_TOTAL,
    H_TOP,
    H_TOP_TIME,
    NCARDS,
    NWORK,
    O_DECK,
    O_HANDN,
    O_NOTE,
    O_PILE,
    O_PLACE,
    O_SLICES,
    O_TOKENS,
    O_ZONE,
    Z_DECK,
    Z_HAND0,
    Z_NOTE0,
    Z_OUT,
    Z_PILE,
)

INV_RANGE = 1
INV_CONSERVED = 2
INV_DECK = 3
INV_PILE = 4
INV_HANDS = 5
INV_NOTES = 6
INV_SLICES = 7
INV_PLACES = 8
INV_CLOCK = 9
INVARIANTS = (
    "a value is out of range: a negative count (hand, deck, pile, tokens, slices) or a top card, seat "
    "or place beyond its limits",
    "cards not conserved: the cards in play are not the 70 day cards plus the game's event cards",
    "a card is in two places: the deck list and the cards marked as in the deck differ",
    "a card is in two places: the play pile list and the cards marked as on the pile differ, or the "
    "top card is not the pile's last card",
    "a player's hand size differs from the cards marked as in that hand",
    "a Doctor's note is not where the seat's note says (or a seat has two)",
    "pizza slices not conserved: the middle plus the slices held differ from the slices at setup",
    "finishing places are not 1..winners, each once",
    "the clock is behind the time the top card changed",
)


@jit
def check(tables, s):
    """0 when every invariant holds, else the 1-based code of the first broken
    one (INVARIANTS words them). Reads only; allocates nothing."""
    n = s[H_NP]
    if s[H_DECK_N] < 0 or s[H_DECK_N] > NCARDS or s[H_PILE_N] < 1 or s[H_PILE_N] > NCARDS:
        return INV_RANGE
    if s[H_TOP] < 0 or s[H_TOP] >= NCARDS or s[H_MIDDLE] < 0 or s[H_NWON] < 0 or s[H_NWON] > n:
        return INV_RANGE
    for p in range(n):
        if s[O_HANDN + p] < 0 or s[O_TOKENS + p] < 0 or s[O_SLICES + p] < 0 or s[O_PLACE + p] < 0 \
                or s[O_PLACE + p] > n or s[O_NOTE + p] < -1 or s[O_NOTE + p] >= NCARDS:
            return INV_RANGE
    in_play = 0
    for c in range(NCARDS):
        if s[O_ZONE + c] != Z_OUT:
            in_play += 1
    if in_play != NWORK + s[H_EV_IN]:
        return INV_CONSERVED
    # the deck and pile lists hold exactly the cards marked as in them (simcore.zones.lists_marked)
    zone = s[O_ZONE:O_ZONE + NCARDS]
    if not lists_marked(s[O_DECK:O_DECK + NCARDS], s[H_DECK_N], zone, Z_DECK):
        return INV_DECK
    if not lists_marked(s[O_PILE:O_PILE + NCARDS], s[H_PILE_N], zone, Z_PILE) \
            or s[O_PILE + s[H_PILE_N] - 1] != s[H_TOP]:
        return INV_PILE
    held = s[H_MIDDLE]
    for p in range(n):
        k = 0
        notes = 0
        for c in range(NCARDS):
            if s[O_ZONE + c] == Z_HAND0 + p:
                k += 1
            elif s[O_ZONE + c] == Z_NOTE0 + p:
                notes += 1
        if k != s[O_HANDN + p]:
            return INV_HANDS
        note = s[O_NOTE + p]
        if notes != (1 if note >= 0 else 0) or (note >= 0 and s[O_ZONE + note] != Z_NOTE0 + p):
            return INV_NOTES
        held += s[O_SLICES + p]
    if held != s[H_SLICES_TOTAL]:
        return INV_SLICES
    for place in range(1, s[H_NWON] + 1):
        k = 0
        for p in range(n):
            if s[O_PLACE + p] == place:
                k += 1
        if k != 1:
            return INV_PLACES
    k = 0
    for p in range(n):
        if s[O_PLACE + p] > 0:
            k += 1
    if k != s[H_NWON]:
        return INV_PLACES
    if s[H_CLOCK] < s[H_TOP_TIME]:
        return INV_CLOCK
    return 0
