"""Card power in You're Fired! (analysis.card_power): `power_card` gives ONE seat one more copy of a
company card, in its own deck, after the opening hands; every other card is where the same deal put it.

Rulebook framing: each player has "the same 11 company cards" in a deck of their own; card power is the
experiment of one player's company holding one more copy of one card.
"""
import numpy as np
import pytest

from balance.analysis.card_power import receiving_seats
from balance.simcore import rng as R
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.errors import BalanceError
from balance.simcore.youre_fired import SPEC
from balance.simcore.youre_fired import constants
from balance.simcore.youre_fired.rules import new_game
from balance.simcore.youre_fired.invariants import check
from balance.simcore.youre_fired.state import card_totals, view

BASE = SPEC.load_data({})
NAMES = list(BASE.card_names)
AXE = NAMES.index("Axe Man")
BOSS = NAMES.index("Boss")
SEED = 77


def deal(data, players, index, seed=SEED):
    return view(new_game(data.tables, np.int64(players), R.new_streams(seed, index), np.zeros(0, np.int32)))


def deck(s, t):
    return list(s.deck[t, :s.deck_n[t]])


@pytest.mark.parametrize("players", [2, 4])
def test_the_copy_lands_in_the_receiving_seats_deck_only(players):
    power = SPEC.load_data({"power_card": AXE})
    seats = receiving_seats(SEED, np.arange(60), players)
    assert set(seats.tolist()) == set(range(players))  # every seat receives on some deal
    for i in range(60):
        a, b = deal(BASE, players, i), deal(power, players, i)
        t = int(seats[i])
        assert b.g[constants.G_POWER_SEAT] == t and a.g[constants.G_POWER_SEAT] == -1
        for p in range(players):
            assert np.array_equal(a.brk[p], b.brk[p]) and np.array_equal(a.unemp[p], b.unemp[p])
            if p != t:  # every other seat: the same deal, card for card
                assert np.array_equal(a.hand[p], b.hand[p]) and deck(a, p) == deck(b, p)
                assert np.array_equal(a.counts[p], b.counts[p])
        da, db = deck(a, t), deck(b, t)
        # the receiving seat holds the same cards and one more Axe Man among its hand and deck
        ca = a.hand[t] + np.bincount(da, minlength=len(NAMES))
        cb = b.hand[t] + np.bincount(db, minlength=len(NAMES))
        ca[AXE] += 1
        assert np.array_equal(ca, cb)
        if t != 0:  # (seat 1 has drawn for its first turn since the deal: its hand may hold the copy)
            assert np.array_equal(a.hand[t], b.hand[t])
            # the receiving deck is the same deck with one Axe Man put in at one place
            assert len(db) == len(da) + 1 and any(db[:j] + db[j + 1:] == da for j in range(len(db)) if db[j] == AXE)
        assert b.counts[t, AXE, constants.K_OWNED] == a.counts[t, AXE, constants.K_OWNED] + 1
        # cards conserved: one more Axe Man in all, nothing else moved
        want = np.array(card_totals(a))
        want[AXE] += 1
        assert np.array_equal(card_totals(b), want)
        assert check(power.tables, b) == 0
        # the others count the copy among its hidden cards (its company is public)
        for o in range(players):
            if o != t:
                assert b.belief[o, t, AXE] == pytest.approx(a.belief[o, t, AXE] + 1.0)


def test_a_fixed_seat():
    power = SPEC.load_data({"power_card": AXE, "power_seat": 1})
    for i in range(10):
        b = deal(power, 2, i)
        assert b.g[constants.G_POWER_SEAT] == 1
        assert deck(b, 1).count(AXE) == deck(deal(BASE, 2, i), 1).count(AXE) + 1


def test_the_default_deals_exactly_as_before():
    """power_card -1 (the default) is the game as it was: the same state, field by field."""
    for i in range(10):
        a = deal(BASE, 2, i)
        b = deal(SPEC.load_data({"power_card": -1}), 2, i)
        assert a.tobytes() == b.tobytes()


def test_whole_games_keep_every_invariant():
    """A card-power variant played to the end with the invariant check after every step (cards conserved
    with the one more copy, each seat's counters)."""
    power = SPEC.load_data({"power_card": AXE})
    eng = Engine(SPEC, [resolve_policy(SPEC, "greedy")])
    res = eng.run(power.tables, 2, SEED, np.arange(120, dtype=np.int64), len(power.card_names), check=True)
    assert res.game_out.shape[0] == 120


def test_refused_ids():
    for bad in (BOSS, NAMES.index("Lawyer"), 31):
        with pytest.raises(BalanceError, match="power_card"):
            SPEC.load_data({"power_card": bad})
