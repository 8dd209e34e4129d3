"""`--check` for Sick Days solo: the invariants hold in play, and each catches the bug it names."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from by_hand import first_played, games_checked, new_game, play_checked, random_choice
from sickdays_solo.helpers import tables_for
from balance.simcore.batch import resolve_policy
from balance.simcore.sickdays_solo import SPEC
from balance.simcore.sickdays_solo import invariants
from balance.simcore.sickdays_solo import constants, rules
from balance.simcore.sickdays_solo import policies
from balance.simcore.sickdays_solo.invariants import check

N_CARDS = len(SPEC.load_data({}).card_names)
GREEDY = np.array(resolve_policy(SPEC, "greedy").params)


def played(seed=2, players=2, steps=12, use_greedy=False, **params):
    """A new game and some moves (checked as it goes)."""
    t = tables_for(**({"level": 4, "events": 3} | params))
    s, rng = new_game(SPEC, t, players, seed)
    choose = (lambda s, seat, o, n, rng: policies.greedy(t, s, seat, o, n, GREEDY, rng)) if use_greedy else random_choice
    return t, play_checked(SPEC, t, s, rng, choose, steps)


def _face_up_and_live(s):
    faces = s[constants.O_ZONE:constants.O_ZONE + constants.NCARDS]
    return rules.to_move(s) >= 0 and s[constants.O_HANDN] > 0 and (faces == constants.Z_FACEUP).any()


def live():
    return first_played(played, _face_up_and_live, "live state with a face-up card")


def test_spec_names_every_code():
    assert SPEC.kernels.check is check
    assert len(SPEC.invariants) == invariants.INV_COUNTERS == 8


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("players", [SPEC.min_players, SPEC.max_players])
@pytest.mark.parametrize("level", [1, 8])
def test_games_pass_with_checks_on(policy, players, level):
    games_checked(SPEC, SPEC.load_data({"level": level, "events": 7}).tables, players, 19, N_CARDS, policy)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 6), level=st.integers(1, 11), events=st.integers(0, 7),
       steps=st.integers(0, 150), use_greedy=st.booleans())
def test_untouched_state_passes(seed, players, level, events, steps, use_greedy):
    t, s = played(seed, players, steps, use_greedy, level=level, events=events)
    assert check(t, s) == 0


def test_hand_card_also_in_the_discard_pile():
    t, s = live()
    s[constants.O_DISC + s[constants.H_DISC_N]] = s[constants.O_HAND]  # P1's first card, still in the hand
    s[constants.H_DISC_N] += 1
    assert check(t, s) == invariants.INV_TWO_PLACES


def test_deck_lists_a_card_twice():
    t, s = live()
    s[constants.O_DECK] = s[constants.O_DECK + 1]
    assert check(t, s) == invariants.INV_TWO_PLACES


def test_card_dropped_from_a_hand():
    t, s = live()
    n = s[constants.O_HANDN] - 1
    s[constants.O_HAND + n] = -1  # the card still says "in P1's hand"
    s[constants.O_HANDN] = n
    assert check(t, s) == invariants.INV_CONSERVED


def test_card_of_a_worker_not_kept_in_play():
    t, s = live()
    kept = s[constants.H_KEPT]
    assert kept < constants.NSUITS
    c = kept * 7  # not in this game
    s[constants.O_DECK + s[constants.H_DECK_N]] = c
    s[constants.H_DECK_N] += 1
    s[constants.O_ZONE + c] = constants.Z_DECK
    s[constants.H_INGAME] += 1
    assert check(t, s) == invariants.INV_CONSERVED


def test_week_fill_count_desynced():
    t, s = live()
    s[rules.o_rowfill(s)] += 1
    assert check(t, s) == invariants.INV_CALENDAR


def test_worker_in_another_days_column():
    t, s = live()
    i = int(np.flatnonzero(s[rules.o_kind(s):rules.o_kind(s) + s[constants.H_ROWS] * constants.NCOL] == constants.K_FACEUP)[0])
    x = s[constants.O_GRID + i]
    c = x % 7
    other = (x // 7) * 7 + (c + 1) % 7  # the same worker, another day
    if s[constants.O_ZONE + other] == constants.Z_OUT:
        pytest.skip("card not in the game")
    # swap the two cards' places: zones and containers stay consistent, the calendar does not
    z = s[constants.O_ZONE + other]
    for base, n in ((constants.O_DECK, s[constants.H_DECK_N]), (constants.O_DISC, s[constants.H_DISC_N]), (constants.O_REM, s[constants.H_REM_N]),
                    (constants.O_HAND, constants.MAXP * constants.HAND_CAP)):
        for j in range(n):
            if s[base + j] == other:
                s[base + j] = x
    if s[constants.H_AUT_CARD] == other:
        s[constants.H_AUT_CARD] = x
    s[constants.O_GRID + i] = other
    s[constants.O_ZONE + other] = constants.Z_FACEUP
    s[constants.O_ZONE + x] = z
    assert check(t, s) in (invariants.INV_CALENDAR, invariants.INV_TWO_PLACES)
    if z not in (constants.Z_FACEUP, constants.Z_NOTE):  # it was off the calendar: the swap is consistent but for the day
        assert check(t, s) == invariants.INV_CALENDAR


def test_line_count_desynced():
    t, s = live()
    i = int(np.flatnonzero(s[rules.o_kind(s):rules.o_kind(s) + s[constants.H_ROWS] * constants.NCOL] == constants.K_FACEUP)[0])
    w = s[constants.O_GRID + i] // 7
    r = i // constants.NCOL
    s[rules.o_rowcnt(s) + w * s[constants.H_ROWS] + r] -= 1
    s[rules.o_rowcnt(s) + ((w + 1) % constants.NSUITS) * s[constants.H_ROWS] + r] += 1  # counted for the wrong worker
    assert check(t, s) == invariants.INV_LINES


@pytest.mark.parametrize("counter,code", [
    (constants.H_HAPPY_N, invariants.INV_HAPPY),  # the happy count desynced
    (constants.H_READY, invariants.INV_PIZZAS),  # a pizza token appears
    (constants.H_NOTES, invariants.INV_COUNTERS),  # the note counter desynced
], ids=["happy_count", "pizza_token", "note_counter"])
def test_a_counter_one_too_many_is_caught(counter, code):
    t, s = live()
    s[counter] += 1
    assert check(t, s) == code


def test_seat_out_of_range():
    t, s = live()
    s[constants.H_CUR] = s[constants.H_NP]
    assert check(t, s) == invariants.INV_RANGE


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 6), steps=st.integers(0, 60),
       which=st.integers(0, 10_000))
def test_any_card_copied_over_a_deck_card_is_caught(seed, players, steps, which):
    t, s = played(seed, players, steps)
    if s[constants.H_DECK_N] == 0:
        return
    slot = constants.O_DECK + which % s[constants.H_DECK_N]
    card = which % constants.NCARDS
    if s[slot] == card:
        return
    s[slot] = card  # the deck card there is lost, `card` is listed twice (or is not in the game)
    assert check(t, s) == invariants.INV_TWO_PLACES
