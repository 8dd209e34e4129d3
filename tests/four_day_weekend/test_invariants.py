"""`--check` for Four Day Weekend: the invariants hold in play, and each catches the bug it names."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.simcore.batch import resolve_policy
from balance.simcore.four_day_weekend import SPEC
from balance.simcore.four_day_weekend import constants
from balance.simcore.four_day_weekend import rules
from balance.simcore.four_day_weekend import invariants
from balance.simcore.four_day_weekend import policies
from balance.simcore.four_day_weekend.invariants import check
from balance.simcore.four_day_weekend.policies import greedy

from by_hand import games_checked, play_checked, random_choice

from .helpers import TABLES, fresh, hand

N_CARDS = TABLES[0].shape[0]
GREEDY = np.array(resolve_policy(SPEC, "greedy").params)


def played(seed=1, n_players=3, steps=20, use_greedy=True):
    """A new game and some moves (checked as it goes)."""
    s, rng = fresh(n_players, seed)
    choose = (lambda s, seat, o, n, rng: greedy(TABLES, s, seat, o, n, GREEDY, rng)) if use_greedy else random_choice
    return play_checked(SPEC, TABLES, s, rng, choose, steps)


def test_spec_names_every_code():
    assert SPEC.kernels.check is check
    assert len(SPEC.invariants) == invariants.INV_MEMO == 8


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("players", [SPEC.min_players, SPEC.max_players])
def test_games_pass_with_checks_on(policy, players):
    games_checked(SPEC, TABLES, players, 17, N_CARDS, policy)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), n_players=st.integers(2, 6), steps=st.integers(0, 200),
       use_greedy=st.booleans())
def test_untouched_state_passes(seed, n_players, steps, use_greedy):
    s = played(seed, n_players, steps, use_greedy)
    assert check(TABLES, s) == 0


def _ix_hand(a, p, k):
    return a[constants.O_HAND] + p * constants.HAND_MAX + k


def _ix_row(a, p, j):
    return a[constants.O_ROW] + p * constants.ROW_MAX + j


def test_hand_card_also_in_a_row():
    s = played()
    a = s.a
    inst = hand(s, 0)[0]
    m = a[a[constants.O_ROW_N] + 1]
    a[_ix_row(a, 1, m)] = inst  # still in P1's hand, also in P2's row
    a[a[constants.O_ROW_N] + 1] = m + 1
    assert check(TABLES, s) == invariants.INV_TWO_PLACES


def test_declaration_after_a_row_take_is_caught():
    """Issue 19: with declarer_pile_only, a turn that took a card from a row may
    not declare after the sweep (which sets the pile-only refill)."""
    s = played()
    a = s.a
    a[constants.M_TOOK_ROW] = 1
    assert check(TABLES, s) == 0  # a take alone is fine
    a[constants.M_PILE_ONLY] = 1
    assert check(TABLES, s) == invariants.INV_ROUNDS
    assert check(SPEC.load_data({"declarer_pile_only": False}).tables, s) == 0


def test_draw_pile_lists_a_card_twice():
    s = played()
    a = s.a
    d0 = a[constants.O_DRAW]
    a[d0] = a[d0 + 1]
    assert check(TABLES, s) == invariants.INV_TWO_PLACES


def test_card_dropped_from_a_hand():
    s = played()
    a = s.a
    n = a[a[constants.O_HAND_N] + 1]
    a[_ix_hand(a, 1, n - 1)] = -1  # the card still says "in P2's hand"
    a[a[constants.O_HAND_N] + 1] = n - 1
    assert check(TABLES, s) == invariants.INV_CONSERVED


def test_card_drawn_into_nowhere():
    s = played()
    a = s.a
    inst = rules._pop_draw(a)
    a[a[constants.O_ZONE] + inst] = constants.Z_HAND  # marked as held by P1, never put in the hand
    a[a[constants.O_OWNER] + inst] = 0
    assert check(TABLES, s) == invariants.INV_CONSERVED


def test_set_slots_swapped():
    for seed in range(40):
        s = played(seed, 2, 300)
        a = s.a
        for p in range(2):
            for i in range(a[a[constants.O_N_SETS] + p]):
                e, act = rules.ix_set(a, p, i, constants.S_EXCUSE), rules.ix_set(a, p, i, constants.S_ACTIVITY)
                if a[act] >= 0:
                    a[e], a[act] = a[act], a[e]
                    assert check(TABLES, s) == invariants.INV_SETS
                    return
    raise AssertionError("no set with an Activity found")


def test_hand_over_the_hand_size():
    s, _ = fresh(3, 4)
    a = s.a
    p = 0
    assert a[a[constants.O_HAND_N] + p] == TABLES[constants.T_RULES][constants.R_HAND_SIZE]
    rules._hand_add(a, p, rules._pop_draw(a))  # a draw the rules do not allow
    assert check(TABLES, s) == invariants.INV_HAND_SIZE


def test_seat_counters_desynced():
    s = played()
    s.a[rules.ix_stat(s.a, 2, constants.SS_TAKEN)] += 1  # a take counted on the seat but not on the card
    assert check(TABLES, s) == invariants.INV_SEAT_COUNTERS
    s = played()
    s.a[constants.M_TURNS] += 1
    assert check(TABLES, s) == invariants.INV_SEAT_COUNTERS


def test_game_over_flag_without_the_phase():
    s = played()
    s.a[constants.M_OVER] = 1
    assert check(TABLES, s) == invariants.INV_ROUNDS


def _with_locked_sets():
    for steps in range(20, 400, 20):
        s = played(steps=steps)
        if rules.count_locked(s.a) > 0:
            return s
    raise AssertionError("no locked set in 400 steps")


def test_locked_set_count_gone_stale():
    s = _with_locked_sets()
    assert s.a[constants.M_LOCKED] == rules.count_locked(s.a) > 0
    s.a[constants.M_LOCKED] -= 1  # an Excuse played without counting the set it locks
    assert check(TABLES, s) == invariants.INV_MEMO


def test_provisional_points_memo_gone_stale():
    s = _with_locked_sets()
    a = s.a
    for p in range(3):
        v = rules.provisional_memo(TABLES, a, p)  # fills the memo
        assert v == rules.provisional_points(TABLES, a, p) == a[a[constants.O_PROV] + p]
    assert check(TABLES, s) == 0
    a[a[constants.O_PROV] + 1] += 1  # a set changed and the memo was not marked stale
    assert check(TABLES, s) == invariants.INV_MEMO
    a[a[constants.O_PROV] + 1] = constants.PROV_STALE  # stale is always consistent
    assert check(TABLES, s) == 0


def test_remembered_card_use_gone_stale():
    """greedy remembers each card's use to the seat to move for one epoch (until
    it plays into a set or the turn ends); a use kept past a change is caught."""
    s = played(steps=60)
    a, f = s.a, s.f
    seat = rules.to_move(s)
    ai, starts = policies.use_context(TABLES, a, seat)
    c = int(rules.card_of(TABLES, rules.hand_at(a, seat, 0)))
    u = policies.turn_use(TABLES, s, seat, c, ai, starts)
    assert u == policies._use(TABLES, s, seat, c, ai, starts) == f[constants.F_CARD_USE + 2 * c + 1]
    assert check(TABLES, s) == 0
    f[constants.F_CARD_USE + 2 * c + 1] += 0.25
    assert check(TABLES, s) == invariants.INV_MEMO
    a[constants.M_EPOCH] += 1  # a new epoch: the old stamp no longer counts
    assert check(TABLES, s) == 0


def test_seat_out_of_range():
    s = played(n_players=3)
    s.a[constants.M_CUR] = 3
    assert check(TABLES, s) == invariants.INV_RANGE


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), n_players=st.integers(2, 6), steps=st.integers(0, 100),
       which=st.integers(0, 10_000))
def test_any_card_copied_over_a_draw_pile_card_is_caught(seed, n_players, steps, which):
    s = played(seed, n_players, steps, use_greedy=False)
    a = s.a
    if rules.to_move(s) < 0 or a[constants.M_DRAW_N] == 0:
        return
    n_inst = a[constants.M_N_INST]
    a[a[constants.O_DRAW] + which % a[constants.M_DRAW_N]] = which % n_inst  # one card lost, another listed twice
    code = check(TABLES, s)
    assert code == invariants.INV_TWO_PLACES or (code == 0 and _unchanged(s, seed, n_players, steps))


def _unchanged(s, seed, n_players, steps):
    """The 'corruption' wrote a card over itself."""
    return np.array_equal(s.a, played(seed, n_players, steps, use_greedy=False).a)
