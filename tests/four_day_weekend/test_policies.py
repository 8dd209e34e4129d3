"""Greedy's once-per-decision rating of the hand agrees with its definition."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore import rng as R
from simcore.batch import resolve_policy
from simcore.four_day_weekend import SPEC
from simcore.four_day_weekend import constants as K
from simcore.four_day_weekend import engine as E
from simcore.four_day_weekend import policies as P
from simcore.trace import no_trace

from .helpers import TABLES, fresh

CARDS = TABLES[K.T_CARDS]
GREEDY = np.array(resolve_policy(SPEC, "greedy").params)


def lowered(c, u, role_flag):
    return min(u, 0.5 * CARDS[c, K.C_POINTS] + 0.5) if role_flag else u


@settings(max_examples=6, deadline=None)
@given(n_players=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_hand_uses_give_use_with_hand_for_hand_and_row_cards(n_players, seed):
    """use_with_hand(c, skip) compares c with every same-role hand card; greedy
    computes every hand card's use once (hand_uses) and reads the role's best."""
    s, rng = fresh(n_players, seed)
    out = np.zeros(K.MAX_OPTIONS, np.int64)
    checked = 0
    while E.to_move(s) >= 0:
        seat = E.to_move(s)
        P.hand_uses(TABLES, s, seat, P.ALL_ROLES, *P.use_context(TABLES, s.a, seat))
        f = s.f
        a = s.a
        for k in range(E.hand_n(a, seat)):
            c = int(E.card_of(TABLES, E.hand_at(a, seat, k)))
            r = E.role(CARDS, c)
            fast = lowered(c, f[K.F_USE + k], f[K.F_ROLE_SLOT + r] != k)
            assert fast == P.use_with_hand(TABLES, s, seat, c, k)
            checked += 1
        for p in range(n_players):
            for j in range(E.row_n(a, p)):
                c = int(E.card_of(TABLES, E.row_at(a, p, j)))
                u = P.card_use(TABLES, s, seat, c)
                fast = lowered(c, u, f[K.F_ROLE_BEST + E.role(CARDS, c)] > u)
                assert fast == P.use_with_hand(TABLES, s, seat, c, -1)
                checked += 1
        n = E.legal(TABLES, s, out)
        E.step(TABLES, s, out[R.randint(rng, R.POLICY, n)], rng, no_trace())
    assert checked > 0


@settings(max_examples=8, deadline=None)
@given(n_players=st.integers(2, 6), seed=st.integers(0, 2**31), deny=st.sampled_from([0.0, 0.3]))
def test_what_greedy_remembers_never_changes_its_choice(n_players, seed, deny):
    """greedy keeps provisional points and card uses in the state between
    decisions; at every decision it must choose what it chooses from a copy of
    the state with all of that forgotten. A third of the moves are random, so
    greedy also meets states its own choices would not lead to."""
    params = GREEDY.copy()
    params[P.W.deny_weight] = deny
    s, rng = fresh(n_players, seed)
    out = np.zeros(K.MAX_OPTIONS, np.int64)
    decisions = 0
    while E.to_move(s) >= 0:
        seat = E.to_move(s)
        n = E.legal(TABLES, s, out)
        bare = E.clone(s)
        bare.f[:] = 0.0
        E.sets_rebuilt(bare.a)
        expected = P.greedy(TABLES, bare, seat, out, n, params, rng)
        assert P.greedy(TABLES, s, seat, out, n, params, rng) == expected
        decisions += 1
        j = expected if R.randint(rng, R.POLICY, 3) else R.randint(rng, R.POLICY, n)
        E.step(TABLES, s, out[j], rng, no_trace())
    assert decisions > 50


def test_role_is_the_set_slot_a_card_competes_for():
    for c in range(CARDS.shape[0]):
        kind = CARDS[c, K.C_KIND]
        expected = {K.EXCUSE: K.S_EXCUSE, K.ACTIVITY: K.S_ACTIVITY, K.BONUS: K.S_BONUS}.get(
            kind, K.S_NEC + CARDS[c, K.C_TYPE])
        assert E.role(CARDS, c) == expected
