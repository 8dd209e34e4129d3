"""Build Overtime states by hand for rulebook scenarios."""
import numpy as np

from balance.simcore import rng as R
from balance.simcore.overtime import constants
from balance.simcore.overtime.cards import load_data
from balance.simcore.overtime.rules import legal, new_game, step, to_move
from balance.simcore.overtime.state import view
from balance.simcore.trace import events, new_trace, no_trace

DATA = load_data({})
PARAMS = dict(DATA.params)
TABLES = DATA.tables
NAMES = list(DATA.card_names)


def kind(name, data=DATA):
    return list(data.card_names).index(name)


def fresh(n_players=4, seed=3, data=DATA):
    """A new game, then everybody's hand put back and P1 to act with 0 snooze
    (`data`: another card list or rule set, a GameData)."""
    TABLES = data.tables
    rng = R.new_streams(seed, 0)
    s = view(new_game(TABLES, n_players, rng, no_trace()))
    for p in range(n_players):
        while s.ps[p, constants.P_HAND_N] > 0:
            n = s.ps[p, constants.P_HAND_N] - 1
            c = s.hand[p, n]
            s.hand[p, n] = -1
            s.ps[p, constants.P_HAND_N] = n
            s.ps[p, constants.P_REACT_SLOTS] &= ~(1 << n)
            s.cc[p, TABLES[3][c], constants.CC_HELD] -= 1
            s.deck[s.g[constants.G_DECK_N]] = c
            s.g[constants.G_DECK_N] += 1
            s.zone[c] = constants.Z_DECK
            s.owner[c] = -1
        s.ps[p, constants.P_SNOOZE] = 0
    s.g[constants.G_CUR] = 0
    s.g[constants.G_ROUND] = 1
    s.g[constants.G_PHASE] = constants.PH_ACTION
    s.g[constants.G_ACTIONS_USED] = 0
    s.g[constants.G_ACTED] = 0
    s.g[constants.G_IN_TURN] = 1
    return s, rng


def _from_deck(s, name, data):
    """Take one copy of card `name` out of the deck (the deck's last card fills its place); returns it."""
    k = kind(name, data)
    n = s.g[constants.G_DECK_N]
    for j in range(n):
        c = s.deck[j]
        if data.tables[3][c] == k:
            s.deck[j] = s.deck[n - 1]
            s.deck[n - 1] = -1
            s.g[constants.G_DECK_N] = n - 1
            return c
    raise AssertionError(f"no {name} left in the deck")


def give(s, p, name, data=DATA):
    """Move one copy of card `name` from the deck to p's hand."""
    c = _from_deck(s, name, data)
    h = s.ps[p, constants.P_HAND_N]
    s.hand[p, h] = c
    s.ps[p, constants.P_HAND_N] = h + 1
    if data.tables[1][kind(name, data), constants.KF_IS_REACTION] != 0:
        s.ps[p, constants.P_REACT_SLOTS] |= 1 << h
    s.zone[c] = constants.Z_HAND
    s.owner[c] = p
    s.cc[p, kind(name, data), constants.CC_HELD] += 1
    return c


def to_discard(s, name, data=DATA):
    """Move one copy of card `name` from the deck to the discard pile."""
    c = _from_deck(s, name, data)
    s.zone[c] = constants.Z_DISCARD
    s.dk[kind(name, data)] += 1
    return c


def assignment(s, p, name, data=DATA):
    TABLES = data.tables
    k = kind(name, data)
    for a in range(TABLES[0][constants.R_A0], TABLES[0][constants.R_J0]):
        if TABLES[3][a] == k and s.owner[a] == p and s.zone[a] == constants.Z_ASSIGN:
            return int(a)
    raise AssertionError(f"P{p + 1} has no {name}")


def slot(s, p, name, data=DATA):
    TABLES = data.tables
    k = kind(name, data)
    for i in range(s.ps[p, constants.P_HAND_N]):
        if TABLES[3][s.hand[p, i]] == k:
            return i
    raise AssertionError(f"P{p + 1} holds no {name}")


def opt(kind_, a=0, b=0):
    return (kind_ << 24) | (a << 12) | b


def options(s, data=DATA):
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    n = legal(data.tables, s, out)
    return [int(x) for x in out[:n]]


def play(s, rng, option, trace=None, data=DATA):
    assert option in options(s, data), (option, options(s, data))
    step(data.tables, s, np.int64(option), rng, trace if trace is not None else no_trace())


def lines(trace, data=DATA):
    from balance.simcore.overtime.transcript import decode_trace

    return decode_trace(events(trace), data, 4)


__all__ = ["constants", "DATA", "TABLES", "NAMES", "fresh", "give", "to_discard", "assignment", "slot", "opt", "options", "play", "to_move",
           "new_trace", "events", "lines", "kind"]
