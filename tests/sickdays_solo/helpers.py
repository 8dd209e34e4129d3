"""Constructed states for rulebook scenarios, and a slow zone checker."""
import numpy as np

from balance.simcore.sickdays_solo import SPEC
from balance.simcore.sickdays_solo import constants, rules
from balance.simcore.trace import no_trace
from by_hand import starter
from sickdays_deck import card, event, take_out  # noqa: F401  (the tests take them from here)


def tables_for(**params):
    return SPEC.load_data(params).tables


fresh = starter(SPEC, players=1)


def detach(s, c):
    """Take card c out of whatever container holds it."""
    z = s[constants.O_ZONE + c]
    if z == constants.Z_DECK:
        take_out(s, c, constants.O_DECK, constants.H_DECK_N)
    elif z >= constants.Z_HAND0:
        seat = z - constants.Z_HAND0
        base = constants.O_HAND + seat * constants.HAND_CAP
        i = list(s[base:base + s[constants.O_HANDN + seat]]).index(c)
        rules.hand_remove(s, seat, i)
    elif z == constants.Z_DISCARD:
        i = list(s[constants.O_DISC:constants.O_DISC + s[constants.H_DISC_N]]).index(c)
        rules.disc_remove(s, i)
    elif z == constants.Z_REMOVED:
        take_out(s, c, constants.O_REM, constants.H_REM_N)
    elif z == constants.Z_OUT:
        s[constants.H_INGAME] += 1
    else:
        raise AssertionError(f"card {c} is on the calendar (zone {z})")
    s[constants.O_ZONE + c] = constants.Z_OUT


def put(s, c, col, kind=constants.K_FACEUP):
    """Place card c at the top open spot of column col (as the rules would)."""
    detach(s, c)
    r = s[constants.O_HEIGHT + col]
    rules.place(s, np.int64(c), np.int64(kind), np.int64(r), np.int64(col), np.int64(1), no_trace())
    return r


def fill(s, col, rows, filler_cards):
    """Put notes (from filler_cards) into column col until its height is `rows`."""
    while s[constants.O_HEIGHT + col] < rows:
        put(s, filler_cards.pop(), col, constants.K_NOTE)


def give(s, seat, c):
    detach(s, c)
    rules.hand_add(s, np.int64(seat), np.int64(c))


def to_discard(s, c):
    detach(s, c)
    rules.disc_push(s, np.int64(c))


def empty_hand(s, seat):
    """Move the hand to the bottom of the deck."""
    while s[constants.O_HANDN + seat] > 0:
        c = rules.hand_remove(s, seat, s[constants.O_HANDN + seat] - 1)
        n = s[constants.H_DECK_N]
        s[constants.O_DECK + 1:constants.O_DECK + n + 1] = s[constants.O_DECK:constants.O_DECK + n].copy()
        s[constants.O_DECK] = c
        s[constants.H_DECK_N] = n + 1
        s[constants.O_ZONE + c] = constants.Z_DECK


def options(tables, s):
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    n = rules.legal(tables, s, out)
    return [int(x) for x in out[:n]]


def op(kind, a=0, b=0):
    return kind * 10000 + a * 100 + b


def do(tables, s, option, rng, trace=None):
    assert option in options(tables, s), (option, options(tables, s))
    rules.step(tables, s, np.int64(option), rng, no_trace() if trace is None else trace)


def check_zones(s):
    """Every card instance in exactly one container, zones agreeing."""
    seen = {}

    def mark(c, zone, where):
        assert c not in seen, f"card {c} in {where} and {seen[c]}"
        seen[c] = where
        assert s[constants.O_ZONE + c] == zone, f"card {c} in {where} but zone {s[constants.O_ZONE + c]}"

    for i in range(s[constants.H_DECK_N]):
        mark(s[constants.O_DECK + i], constants.Z_DECK, "deck")
    assert all(s[constants.O_DECK + i] == -1 for i in range(s[constants.H_DECK_N], constants.NCARDS))
    for i in range(s[constants.H_DISC_N]):
        mark(s[constants.O_DISC + i], constants.Z_DISCARD, "discard")
    for i in range(s[constants.H_REM_N]):
        mark(s[constants.O_REM + i], constants.Z_REMOVED, "removed")
    for p in range(s[constants.H_NP]):
        for i in range(s[constants.O_HANDN + p]):
            mark(s[constants.O_HAND + p * constants.HAND_CAP + i], constants.Z_HAND0 + p, f"hand {p}")
    rows = s[constants.H_ROWS]
    kinds = rules.o_kind(s)
    for r in range(rows):
        for c in range(7):
            v = s[constants.O_GRID + r * 7 + c]
            k = s[kinds + r * 7 + c]
            if k == constants.K_EMPTY:
                assert v == -1
                continue
            zone = {constants.K_FACEUP: constants.Z_FACEUP, constants.K_NOTE: constants.Z_NOTE, constants.K_EVENT: constants.Z_EVENT}[k]
            mark(v, zone, f"cell {r},{c}")
    if s[constants.H_AUT_CARD] >= 0:
        mark(s[constants.H_AUT_CARD], constants.Z_AUTOMA, "automa")
    for c in range(constants.NCARDS):
        if s[constants.O_ZONE + c] == constants.Z_COVERED:
            mark(c, constants.Z_COVERED, "under a card")
    assert len(seen) == s[constants.H_INGAME], (len(seen), s[constants.H_INGAME])
    for c in range(constants.NCARDS):
        if c not in seen:
            assert s[constants.O_ZONE + c] == constants.Z_OUT
