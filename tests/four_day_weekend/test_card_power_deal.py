"""Card power in Four Day Weekend (analysis.card_power): `power_card` deals ONE more copy of a card into
ONE seat's opening hand of every round, in place of a card of that hand, which goes to the bottom of the
Draw pile; every other card of the round's deal is where the same deal put it.

Rulebook framing: every round the whole deck is shuffled and each slacker is dealt a hand from it; card
power is the experiment of one slacker's hand holding one more copy of one card.
"""
import numpy as np
import pytest

from balance.analysis.card_power import receiving_seats
from balance.simcore import rng as R
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.errors import BalanceError
from balance.simcore.four_day_weekend import SPEC
from balance.simcore.four_day_weekend import constants
from balance.simcore.four_day_weekend import rules
from balance.simcore.four_day_weekend.invariants import check
from balance.simcore.trace import no_trace

from .helpers import draw_pile, hand

BASE = SPEC.load_data({})
NAMES = list(BASE.card_names)
SEED = 5


def deal(data, players, index):
    return rules.new_game(data.tables, players, R.new_streams(SEED, index), no_trace())


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_copy_lands_in_the_receiving_seats_opening_hand_only(players):
    c = 7
    power = SPEC.load_data({"power_card": c})
    pi = int(power.tables[constants.T_RULES][constants.R_POWER_INST])
    assert pi == BASE.tables[constants.T_INSTANCES].shape[0] and power.tables[constants.T_INSTANCES][pi] == c
    seats = receiving_seats(SEED, np.arange(30), players)
    assert set(seats.tolist()) == set(range(players))
    for i in range(30):
        a, b = deal(BASE, players, i), deal(power, players, i)
        t = int(seats[i])
        assert b.a[constants.M_POWER_SEAT] == t and a.a[constants.M_POWER_SEAT] == -1
        for p in range(players):
            if p != t:
                assert hand(a, p) == hand(b, p)
        ha, hb = hand(a, t), hand(b, t)
        changed = [j for j in range(len(ha)) if ha[j] != hb[j]]
        assert len(changed) == 1 and hb[changed[0]] == pi
        replaced = ha[changed[0]]
        assert draw_pile(b) == [replaced] + draw_pile(a)  # the replaced card at the bottom, the rest as dealt
        drawn_a = a.counts[:, :, constants.CC_DRAWN].copy()
        drawn_a[t, BASE.tables[constants.T_INSTANCES][replaced]] -= 1
        drawn_a[t, c] += 1
        assert np.array_equal(b.counts[:, :, constants.CC_DRAWN], drawn_a)
        assert check(power.tables, b) == 0


def test_the_default_deals_exactly_as_before():
    again = SPEC.load_data({"power_card": -1})
    for i in range(6):
        x, y = deal(BASE, 4, i), deal(again, 4, i)
        assert np.array_equal(x.a, y.a) and np.array_equal(x.counts, y.counts)


def test_whole_games_keep_every_invariant():
    """Played to the end with the invariant check after every step: every instance (the copy included) in
    exactly one place through every round's deal, and the drawn counters add up to the hands dealt."""
    power = SPEC.load_data({"power_card": 3, "power_seat": 1})
    eng = Engine(SPEC, [resolve_policy(SPEC, "greedy")])
    res = eng.run(power.tables, 3, SEED, np.arange(40, dtype=np.int64), len(power.card_names), check=True)
    assert res.game_out.shape[0] == 40


def test_every_round_deals_the_copy_to_the_same_seat():
    """A later round's deal (here by hand: _start_round on a finished round's state) gives the copy to the
    seat of the first round again."""
    power = SPEC.load_data({"power_card": 3})
    pi = int(power.tables[constants.T_RULES][constants.R_POWER_INST])
    rng = R.new_streams(SEED, 2)
    s = rules.new_game(power.tables, 4, rng, no_trace())
    t = int(s.a[constants.M_POWER_SEAT])
    for _ in range(3):
        s.a[constants.M_ROUND] += 1
        rules._start_round(power.tables, s, rng, no_trace())
        assert pi in hand(s, t) and s.a[constants.M_POWER_SEAT] == t


def test_refused_ids():
    with pytest.raises(BalanceError, match="power_card"):
        SPEC.load_data({"power_card": len(NAMES)})
