"""`--check` for Overtime: the invariants hold in play, and each catches the bug it names."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.simcore import rng as R
from balance.simcore.overtime import SPEC
from balance.simcore.overtime import constants
from balance.simcore.overtime import invariants
from balance.simcore.overtime.rules import legal, new_game, step, to_move
from balance.simcore.overtime.invariants import check
from balance.simcore.overtime.state import view
from balance.simcore.trace import no_trace
from by_hand import games_checked

from .helpers import NAMES, TABLES

INST = TABLES[3]


def played(seed=1, n_players=4, steps=12):
    """A new game and a few random moves (checked as it goes)."""
    rng = R.new_streams(seed, 0)
    s = view(new_game(TABLES, n_players, rng, no_trace()))
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    for _ in range(steps):
        if to_move(s) < 0:
            break
        n = legal(TABLES, s, out)
        step(TABLES, s, out[R.randint(rng, R.POLICY, n)], rng, no_trace())
        assert check(TABLES, s) == 0
    return s


def test_spec_names_every_code():
    assert SPEC.kernels.check is check
    assert len(SPEC.invariants) == invariants.INV_WORK == 10
    assert all(isinstance(x, str) and len(x) > 20 for x in SPEC.invariants)


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("players", [SPEC.min_players, SPEC.max_players])
def test_games_pass_with_checks_on(policy, players):
    games_checked(SPEC, TABLES, players, 11, len(NAMES), policy)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), n_players=st.integers(2, 6), steps=st.integers(0, 60))
def test_untouched_state_passes(seed, n_players, steps):
    s = played(seed, n_players, steps)
    assert check(TABLES, s) == 0


def off_the_deck(s):
    """The deck's top card taken off it, its zone (and all else) left for the test to set."""
    dn = s.g[constants.G_DECK_N] - 1
    c = s.deck[dn]
    s.deck[dn] = -1
    s.g[constants.G_DECK_N] = dn
    return c


def _first_in(s, z):
    return int(np.flatnonzero(s.zone == z)[0])


def test_card_duplicated_into_the_deck():
    s = played()
    c = int(s.hand[0, 0])  # the card stays in P1's hand and is also put on the deck
    s.deck[s.g[constants.G_DECK_N]] = c
    s.g[constants.G_DECK_N] += 1
    assert check(TABLES, s) == invariants.INV_DECK


def test_deck_lists_one_card_twice_and_misses_another():
    s = played()
    s.deck[0] = s.deck[1]
    assert check(TABLES, s) == invariants.INV_DECK


def test_card_dropped_from_a_hand():
    s = played()
    n = s.ps[1, constants.P_HAND_N] - 1  # the slot is emptied, the card still says "in P2's hand"
    c = s.hand[1, n]
    s.hand[1, n] = -1
    s.ps[1, constants.P_HAND_N] = n
    s.cc[1, INST[c], constants.CC_HELD] -= 1
    assert check(TABLES, s) == invariants.INV_HANDS


def test_card_lost_from_the_game():
    s = played()
    c = off_the_deck(s)  # into nowhere
    s.zone[c] = constants.Z_BOX
    assert check(TABLES, s) == invariants.INV_CONSERVED


def test_discard_count_desynced():
    s = played()
    s.dk[INST[s.hand[0, 0]]] += 1
    assert check(TABLES, s) == invariants.INV_DISCARD_COUNTS


def test_card_moved_to_discard_without_its_count():
    s = played()
    c = off_the_deck(s)
    s.zone[c] = constants.Z_DISCARD  # bypassing set_zone: dk not updated
    assert check(TABLES, s) == invariants.INV_DISCARD_COUNTS


def test_held_counter_moved_to_another_kind():
    s = played()
    k = INST[s.hand[2, 0]]
    s.cc[2, k, constants.CC_HELD] -= 1
    s.cc[2, (k + 1) % s.dk.shape[0], constants.CC_HELD] += 1
    assert check(TABLES, s) == invariants.INV_HELD_COUNTS


def test_reaction_slots_out_of_step_with_the_hand():
    """P_REACT_SLOTS (which hand slots hold a reaction card: the reaction windows read only those)
    must follow the hand: a slot's bit set for a card that is no reaction, or cleared for one that is."""
    s = played()
    for p in range(4):
        if s.ps[p, constants.P_HAND_N] > 0:
            break
    s.ps[p, constants.P_REACT_SLOTS] ^= 1
    assert check(TABLES, s) == invariants.INV_HELD_COUNTS


def test_assignment_count_desynced():
    s = played()
    s.ps[0, constants.P_N_ASSIGN] -= 1
    assert check(TABLES, s) == invariants.INV_ASSIGN_COUNTS


def test_assignment_changes_owner_without_the_counters():
    s = played()
    a = int(np.flatnonzero((s.zone == constants.Z_ASSIGN) & (s.owner == 0))[0])
    s.owner[a] = 1
    assert check(TABLES, s) == invariants.INV_ASSIGN_COUNTS


def _memo(s):
    """What greedy's memo (state.assignment_memo) should hold: tasks left per seat, each seat's A card nearest completion."""
    rem = np.zeros(constants.NREM, np.int64)
    rem[constants.REM_NEAREST:constants.REM_VALID] = -1
    for a in range(TABLES[0][constants.R_A0], TABLES[0][constants.R_J0]):
        if s.zone[a] == constants.Z_ASSIGN:
            p, r = s.owner[a], TABLES[1][INST[a], constants.KF_TASKS] - s.tasks[a]
            rem[p] += r
            b = rem[constants.REM_NEAREST + p]
            if b < 0 or r < TABLES[1][INST[b], constants.KF_TASKS] - s.tasks[b]:
                rem[constants.REM_NEAREST + p] = a
    rem[constants.REM_VALID] = 1
    return rem


def test_tasks_left_memo_gone_stale():
    s = played()
    s.rem[:] = _memo(s)
    assert check(TABLES, s) == 0
    held = np.flatnonzero((s.zone == constants.Z_ASSIGN) & (s.owner == 1))
    a = int(held[np.argmax(TABLES[1][INST[held], constants.KF_TASKS] - s.tasks[held])])
    s.tasks[a] += 1  # a change to an A card that did not call assignments_changed (still short of complete)
    assert check(TABLES, s) == invariants.INV_ASSIGN_COUNTS
    s.rem[constants.REM_VALID] = 0  # what assignments_changed does
    assert check(TABLES, s) == 0


def test_second_employee():
    s = played()
    c = off_the_deck(s)
    s.zone[c] = constants.Z_EMPLOYEE
    s.owner[c] = 0
    assert check(TABLES, s) == invariants.INV_EMPLOYEE


def test_negative_snooze_and_bad_seat():
    s = played()
    s.ps[3, constants.P_SNOOZE] = -1
    assert check(TABLES, s) == invariants.INV_RANGE
    s = played()
    s.g[constants.G_CUR] = 4
    assert check(TABLES, s) == invariants.INV_RANGE


def test_assignment_over_complete():
    s = played()
    a = int(np.flatnonzero(s.zone == constants.Z_ASSIGN)[0])
    s.tasks[a] = TABLES[1][INST[a], constants.KF_TASKS]
    assert check(TABLES, s) == invariants.INV_WORK


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40), which=st.integers(0, 10_000))
def test_any_hand_card_copied_onto_the_deck_is_caught(seed, steps, which):
    s = played(seed, 4, steps)
    held = [int(c) for p in range(4) for c in s.hand[p, : s.ps[p, constants.P_HAND_N]]]
    if not held or s.g[constants.G_DECK_N] == 0:
        return
    s.deck[which % s.g[constants.G_DECK_N]] = held[which % len(held)]  # overwrites a deck card: lost and duplicated
    assert check(TABLES, s) == invariants.INV_DECK
