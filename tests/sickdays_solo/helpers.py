"""Constructed states for rulebook scenarios, and a slow zone checker."""
import numpy as np

from balance.simcore import rng as R
from balance.simcore.sickdays_solo import SPEC
from balance.simcore.sickdays_solo import kernels as K
from balance.simcore.trace import no_trace


def tables_for(**params):
    return SPEC.load_data(params).tables


def fresh(tables, n_players=1, seed=1, game=0):
    rng = R.new_streams(seed, game)
    return K.new_game(tables, np.int64(n_players), rng, no_trace()), rng


def card(suit, day):
    """Card id of worker `suit` (0-based), day 1..7."""
    return suit * 7 + day - 1


def event(e):
    return K.NWORK + e


def detach(s, c):
    """Take card c out of whatever container holds it."""
    z = s[K.O_ZONE + c]
    if z == K.Z_DECK:
        n = s[K.H_DECK_N]
        deck = list(s[K.O_DECK:K.O_DECK + n])
        deck.remove(c)
        s[K.O_DECK:K.O_DECK + n] = deck + [-1]
        s[K.H_DECK_N] = n - 1
    elif z >= K.Z_HAND0:
        seat = z - K.Z_HAND0
        base = K.O_HAND + seat * K.HAND_CAP
        i = list(s[base:base + s[K.O_HANDN + seat]]).index(c)
        K.hand_remove(s, seat, i)
    elif z == K.Z_DISCARD:
        i = list(s[K.O_DISC:K.O_DISC + s[K.H_DISC_N]]).index(c)
        K.disc_remove(s, i)
    elif z == K.Z_REMOVED:
        n = s[K.H_REM_N]
        rem = list(s[K.O_REM:K.O_REM + n])
        rem.remove(c)
        s[K.O_REM:K.O_REM + n] = rem + [-1]
        s[K.H_REM_N] = n - 1
    elif z == K.Z_OUT:
        s[K.H_INGAME] += 1
    else:
        raise AssertionError(f"card {c} is on the calendar (zone {z})")
    s[K.O_ZONE + c] = K.Z_OUT


def put(s, c, col, kind=K.K_FACEUP):
    """Place card c at the top open spot of column col (as the rules would)."""
    detach(s, c)
    r = s[K.O_HEIGHT + col]
    K.place(s, np.int64(c), np.int64(kind), np.int64(r), np.int64(col), np.int64(1), no_trace())
    return r


def fill(s, col, rows, filler_cards):
    """Put notes (from filler_cards) into column col until its height is `rows`."""
    while s[K.O_HEIGHT + col] < rows:
        put(s, filler_cards.pop(), col, K.K_NOTE)


def give(s, seat, c):
    detach(s, c)
    K.hand_add(s, np.int64(seat), np.int64(c))


def to_discard(s, c):
    detach(s, c)
    K.disc_push(s, np.int64(c))


def empty_hand(s, seat):
    """Move the hand to the bottom of the deck."""
    while s[K.O_HANDN + seat] > 0:
        c = K.hand_remove(s, seat, s[K.O_HANDN + seat] - 1)
        n = s[K.H_DECK_N]
        s[K.O_DECK + 1:K.O_DECK + n + 1] = s[K.O_DECK:K.O_DECK + n].copy()
        s[K.O_DECK] = c
        s[K.H_DECK_N] = n + 1
        s[K.O_ZONE + c] = K.Z_DECK


def options(tables, s):
    out = np.zeros(K.MAX_OPTIONS, np.int64)
    n = K.legal(tables, s, out)
    return [int(x) for x in out[:n]]


def op(kind, a=0, b=0):
    return kind * 10000 + a * 100 + b


def do(tables, s, option, rng, trace=None):
    assert option in options(tables, s), (option, options(tables, s))
    K.step(tables, s, np.int64(option), rng, no_trace() if trace is None else trace)


def check_zones(s):
    """Every card instance in exactly one container, zones agreeing."""
    seen = {}

    def mark(c, zone, where):
        assert c not in seen, f"card {c} in {where} and {seen[c]}"
        seen[c] = where
        assert s[K.O_ZONE + c] == zone, f"card {c} in {where} but zone {s[K.O_ZONE + c]}"

    for i in range(s[K.H_DECK_N]):
        mark(s[K.O_DECK + i], K.Z_DECK, "deck")
    assert all(s[K.O_DECK + i] == -1 for i in range(s[K.H_DECK_N], K.NCARDS))
    for i in range(s[K.H_DISC_N]):
        mark(s[K.O_DISC + i], K.Z_DISCARD, "discard")
    for i in range(s[K.H_REM_N]):
        mark(s[K.O_REM + i], K.Z_REMOVED, "removed")
    for p in range(s[K.H_NP]):
        for i in range(s[K.O_HANDN + p]):
            mark(s[K.O_HAND + p * K.HAND_CAP + i], K.Z_HAND0 + p, f"hand {p}")
    rows = s[K.H_ROWS]
    kinds = K.o_kind(s)
    for r in range(rows):
        for c in range(7):
            v = s[K.O_GRID + r * 7 + c]
            k = s[kinds + r * 7 + c]
            if k == K.K_EMPTY:
                assert v == -1
                continue
            zone = {K.K_FACEUP: K.Z_FACEUP, K.K_NOTE: K.Z_NOTE, K.K_EVENT: K.Z_EVENT}[k]
            mark(v, zone, f"cell {r},{c}")
    if s[K.H_AUT_CARD] >= 0:
        mark(s[K.H_AUT_CARD], K.Z_AUTOMA, "automa")
    for c in range(K.NCARDS):
        if s[K.O_ZONE + c] == K.Z_COVERED:
            mark(c, K.Z_COVERED, "under a card")
    assert len(seen) == s[K.H_INGAME], (len(seen), s[K.H_INGAME])
    for c in range(K.NCARDS):
        if c not in seen:
            assert s[K.O_ZONE + c] == K.Z_OUT
