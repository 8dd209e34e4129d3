"""Greedy's once-per-decision rating of the hand agrees with its definition."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.simcore import rng as R
from balance.simcore.batch import resolve_policy
from balance.simcore.four_day_weekend import SPEC
from balance.simcore.four_day_weekend import constants
from balance.simcore.four_day_weekend import rules
from balance.simcore.four_day_weekend import policies
from balance.simcore.trace import no_trace

from .helpers import TABLES, build, fresh

CARDS = TABLES[constants.T_CARDS]
GREEDY = np.array(resolve_policy(SPEC, "greedy").params)


def lowered(c, u, role_flag):
    return min(u, 0.5 * CARDS[c, constants.C_POINTS] + 0.5) if role_flag else u


@settings(max_examples=6, deadline=None)
@given(n_players=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_hand_uses_give_use_with_hand_for_hand_and_row_cards(n_players, seed):
    """use_with_hand(c, skip) compares c with every same-role hand card; greedy
    computes every hand card's use once (hand_uses) and reads the role's best."""
    s, rng = fresh(n_players, seed)
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    checked = 0
    while rules.to_move(s) >= 0:
        seat = rules.to_move(s)
        policies.hand_uses(TABLES, s, seat, policies.ALL_ROLES, *policies.use_context(TABLES, s.a, seat))
        f = s.f
        a = s.a
        for k in range(rules.at(a, constants.O_HAND_N, seat)):
            c = int(rules.card_of(TABLES, rules.hand_at(a, seat, k)))
            r = rules.role(CARDS, c)
            fast = lowered(c, f[constants.F_USE + k], f[constants.F_ROLE_SLOT + r] != k)
            assert fast == policies.use_with_hand(TABLES, s, seat, c, k)
            checked += 1
        for p in range(n_players):
            for j in range(rules.at(a, constants.O_ROW_N, p)):
                c = int(rules.card_of(TABLES, a[rules.ix_row(a, p, j)]))
                u = policies.card_use(TABLES, s, seat, c)
                fast = lowered(c, u, f[constants.F_ROLE_BEST + rules.role(CARDS, c)] > u)
                assert fast == policies.use_with_hand(TABLES, s, seat, c, -1)
                checked += 1
        n = rules.legal(TABLES, s, out)
        rules.step(TABLES, s, out[R.randint(rng, R.POLICY, n)], rng, no_trace())
    assert checked > 0


@settings(max_examples=8, deadline=None)
@given(n_players=st.integers(2, 6), seed=st.integers(0, 2**31), deny=st.sampled_from([0.0, 0.3]))
def test_what_greedy_remembers_never_changes_its_choice(n_players, seed, deny):
    """greedy keeps provisional points and card uses in the state between
    decisions; at every decision it must choose what it chooses from a copy of
    the state with all of that forgotten. A third of the moves are random, so
    greedy also meets states its own choices would not lead to."""
    params = GREEDY.copy()
    params[policies.W.deny_weight] = deny
    s, rng = fresh(n_players, seed)
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    decisions = 0
    while rules.to_move(s) >= 0:
        seat = rules.to_move(s)
        n = rules.legal(TABLES, s, out)
        bare = rules.clone(s)
        bare.f[:] = 0.0
        rules.sets_rebuilt(bare.a)
        expected = policies.greedy(TABLES, bare, seat, out, n, params, rng)
        assert policies.greedy(TABLES, s, seat, out, n, params, rng) == expected
        decisions += 1
        j = expected if R.randint(rng, R.POLICY, 3) else R.randint(rng, R.POLICY, n)
        rules.step(TABLES, s, out[j], rng, no_trace())
    assert decisions > 50


def test_role_is_the_set_slot_a_card_competes_for():
    for c in range(CARDS.shape[0]):
        kind = CARDS[c, constants.C_KIND]
        expected = {constants.EXCUSE: constants.S_EXCUSE, constants.ACTIVITY: constants.S_ACTIVITY, constants.BONUS: constants.S_BONUS}.get(
            kind, constants.S_NEC + CARDS[c, constants.C_TYPE])
        assert rules.role(CARDS, c) == expected


OLD_DECLARING = {"final_turn_base": 0.0, "final_turn_per_slot": 0.0}  # the greedy of before (issue 22)


def greedy_params(**over):
    return np.array(resolve_policy(SPEC, "greedy", over).params)


def old_should_declare(s, seat):
    """The declaring rule greedy had before issue 22: the lead as it stands (this
    round's points; the whole game's in the last round) over every other seat."""
    a = s.a
    last = a[constants.M_ROUND] == a[constants.M_N_ROUNDS] - 1
    pts = [rules.provisional_points(TABLES, a, p) + (rules.at(a, constants.O_SCORE, p) if last else 0) for p in range(a[constants.M_PLAYERS])]
    return all(pts[seat] - pts[p] >= GREEDY[policies.W.declare_margin] for p in range(len(pts)) if p != seat)


@settings(max_examples=6, deadline=None)
@given(n_players=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_zero_final_turn_points_restore_the_old_declaring(n_players, seed):
    """`--policy-param final_turn_base=0 --policy-param final_turn_per_slot=0` is
    the greedy of before: its declaring rule at every state of random games."""
    params = greedy_params(**OLD_DECLARING)
    s, rng = fresh(n_players, seed)
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    seen = set()
    while rules.to_move(s) >= 0:
        seat = rules.to_move(s)
        old = old_should_declare(s, seat)
        assert policies.should_declare(TABLES, s, seat, params) == old
        seen.add(old)
        n = rules.legal(TABLES, s, out)
        rules.step(TABLES, s, out[R.randint(rng, R.POLICY, n)], rng, no_trace())
    assert seen == {True, False}


def test_greedy_declares_only_when_the_lead_survives_the_final_turns():
    """Issue 22: a lead of 10 in the round's points does not survive the final
    turn of a seat whose active set can still take three Necessities (10 + 1.5 x 3
    points by default); a lead of more than that does."""
    mine = ["Jury Duty", "Go-Kart Racing", "Tacos", "Bus Pass", "Tent", "Spare Change"]  # 2 + 4 + 4 + 2 + 2 = 14
    theirs = [["Car Trouble", "Picnic", "Nachos"]]  # 2 + 2: Activity, one Necessity, three slots open
    s, _ = build(2, set_lists={0: [mine], 1: theirs}, phase=constants.PH_PLAY)
    a = s.a
    assert (rules.provisional_points(TABLES, a, 0), rules.provisional_points(TABLES, a, 1)) == (14, 4)
    assert policies.final_turn_points(TABLES, a, 1, GREEDY) == 10.0 + 1.5 * 3
    assert policies.final_turn_points(TABLES, a, 0, GREEDY) == 10.0  # every Necessity slot filled
    assert policies.should_declare(TABLES, s, 0, greedy_params(**OLD_DECLARING))  # before: 14 - 4 >= 3
    assert not policies.should_declare(TABLES, s, 0, GREEDY)  # now: 14 - (4 + 14.5) < 3
    assert policies.should_declare(TABLES, s, 0, greedy_params(final_turn_base=3.0, final_turn_per_slot=1.0))  # 14 - 10 >= 3
    more = [mine, ["Migraine", "Barbecue Marathon", "Ramen", "Friend's Couch"]]  # a second set: 3 + 6 + 4 = 13
    s, _ = build(2, set_lists={0: more, 1: theirs}, phase=constants.PH_PLAY)
    assert rules.provisional_points(TABLES, s.a, 0) == 27
    assert policies.should_declare(TABLES, s, 0, GREEDY)  # 27 - 18.5 >= 3
    # no Activity in the active set (or no set at all): a new set may take all four
    s, _ = build(2, set_lists={0: more, 1: [["Car Trouble"]]}, phase=constants.PH_PLAY)
    assert policies.final_turn_points(TABLES, s.a, 1, GREEDY) == 10.0 + 1.5 * 4
    s, _ = build(2, set_lists={0: more}, phase=constants.PH_PLAY)
    assert policies.final_turn_points(TABLES, s.a, 1, GREEDY) == 10.0 + 1.5 * 4
