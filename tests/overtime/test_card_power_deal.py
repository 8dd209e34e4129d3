"""Card power in Overtime (analysis.card_power): `power_card` deals ONE more copy of a main-deck card
into ONE seat's opening hand, in place of a card of that hand, which goes to the bottom of the deck;
every other card is where the same deal put it.

Rulebook framing: "deal 4 cards from the Main deck" to each player from one shared deck; card power is
the experiment of one player's opening hand holding one more copy of one card.
"""
import numpy as np
import pytest

from balance.analysis.card_power import receiving_seats
from balance.simcore import rng as R
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.errors import BalanceError
from balance.simcore.overtime import SPEC
from balance.simcore.overtime import constants
from balance.simcore.overtime.rules import new_game
from balance.simcore.overtime.invariants import check
from balance.simcore.overtime.state import view
from balance.simcore.trace import no_trace

BASE = SPEC.load_data({})
NAMES = list(BASE.card_names)
SEED = 41


def kind_of(name: str) -> int:
    return NAMES.index(name)


def deal(data, players, index, seed=SEED):
    return view(new_game(data.tables, players, R.new_streams(seed, index), no_trace()))


def hand(s, p):
    return list(s.hand[p, :s.ps[p, constants.P_HAND_N]])


def deck(s):
    return list(s.deck[:s.g[constants.G_DECK_N]])


def kinds_in_play(data, s):
    """Copies of each kind over every zone a card of this game can be in (all but the box)."""
    ik = data.tables[3]
    out = np.zeros(len(data.card_names), np.int64)
    for i in range(s.g[constants.G_NINST]):
        if s.zone[i] != constants.Z_BOX:
            out[ik[i]] += 1
    return out


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_copy_lands_in_the_receiving_seats_opening_hand_only(players):
    c = kind_of(NAMES[3])  # any main-deck card
    power = SPEC.load_data({"power_card": c})
    pi = int(power.tables[0][constants.R_POWER_INST])
    assert power.tables[3][pi] == c and pi == int(power.tables[0][constants.R_N_MAIN]) - 1
    seats = receiving_seats(SEED, np.arange(40), players)
    assert set(seats.tolist()) == set(range(players))
    ik_a, ik_b = BASE.tables[3], power.tables[3]
    exact = 0
    for i in range(40):
        a, b = deal(BASE, players, i), deal(power, players, i)
        t = int(seats[i])
        # new_game plays on to the first decision (seat 1's first action): seat 1 may have drawn already, and
        # the copy in its hand can change what it does (a card to act with). The other seats never move
        # before it, so their hands are the same deal's
        for p in range(1, players):
            if p != t:
                assert hand(a, p) == hand(b, p)
        # conserved: one more copy of c in all, nothing else (main-deck instance ids are the same)
        want = kinds_in_play(BASE, a)
        want[c] += 1
        assert np.array_equal(kinds_in_play(power, b), want)
        assert b.zone[pi] == constants.Z_HAND and b.owner[pi] == t and pi in hand(b, t)
        assert check(power.tables, b) == 0
        replaced = deck(b)[0]  # the replaced card at the bottom of the deck, the rest as the same deal left it
        assert replaced in hand(a, t) and replaced not in deck(a)
        m = min(len(deck(b)) - 1, len(deck(a)))
        assert deck(b)[1:m + 1] == deck(a)[:m]
        if t == 0 and (hand(a, 0) != [x if x != pi else replaced for x in hand(b, 0)]):
            continue  # seat 1 played on differently with the copy: the exact deal is checked on the others
        exact += 1
        assert deck(b) == [replaced] + deck(a)
        ha, hb = hand(a, t), hand(b, t)
        changed = [j for j in range(len(ha)) if ha[j] != hb[j]]
        assert len(changed) == 1 and hb[changed[0]] == pi and ha[changed[0]] == replaced
        # held and drawn counters: the copy counts as dealt to t, the replaced card as never dealt
        assert b.cc[t, c, constants.CC_HELD] == a.cc[t, c, constants.CC_HELD] + (0 if ik_a[replaced] == c else 1)
        assert b.cc[t, ik_b[replaced], constants.CC_DRAWN] == a.cc[t, ik_a[replaced], constants.CC_DRAWN] - (0 if ik_a[replaced] == c else 1)
    assert exact >= 30


def test_a_fixed_seat_and_the_default():
    c = kind_of(NAMES[0])
    power = SPEC.load_data({"power_card": c, "power_seat": 2})
    pi = int(power.tables[0][constants.R_POWER_INST])
    for i in range(8):
        b = deal(power, 4, i)
        assert pi in hand(b, 2)
    assert int(BASE.tables[0][constants.R_POWER_INST]) == -1
    again = SPEC.load_data({"power_card": -1})
    for i in range(8):
        assert deal(BASE, 4, i).tobytes() == deal(again, 4, i).tobytes()


def test_whole_games_keep_every_invariant():
    power = SPEC.load_data({"power_card": kind_of(NAMES[5])})
    eng = Engine(SPEC, [resolve_policy(SPEC, "greedy")])
    res = eng.run(power.tables, 4, SEED, np.arange(60, dtype=np.int64), len(power.card_names), check=True)
    assert res.game_out.shape[0] == 60


def test_refused_ids():
    first_assignment = int(BASE.tables[0][constants.R_FIRST_ASSIGN_KIND])
    for bad in (first_assignment, len(NAMES) - 1):  # an assignment, the starting employee
        with pytest.raises(BalanceError, match="power_card"):
            SPEC.load_data({"power_card": bad})
