"""`--check` for You're Fired!: the invariants hold in play, and each catches the bug it names."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.simcore import rng as R
from balance.simcore.youre_fired import SPEC
from balance.simcore.youre_fired import constants
from balance.simcore.youre_fired import invariants
from balance.simcore.youre_fired.rules import legal, new_game, step, to_move
from balance.simcore.youre_fired.invariants import check
from balance.simcore.youre_fired.state import view
from by_hand import first_played, games_checked

from .helpers import BOSS, C, tables

NOTRACE = np.zeros(0, np.int32)


def played(seed=1, n_players=3, steps=6, **params):
    """A new game and a few random moves (checked as it goes); a live state."""
    t = tables(**params)
    rng = R.new_streams(seed, 0)
    s = view(new_game(t, np.int64(n_players), rng, NOTRACE))
    out = np.zeros(SPEC.max_options, np.int64)
    pick = np.random.default_rng(seed)
    for _ in range(steps):
        if to_move(s) < 0:
            break
        assert check(t, s) == 0
        n = legal(t, s, out)
        step(t, s, out[pick.integers(n)], rng, NOTRACE)
    assert check(t, s) == 0
    return t, s


def live(n_players=3, **params):
    return first_played(lambda seed: played(seed, n_players, **params), lambda s: to_move(s) >= 0, "live state")


def test_spec_names_every_code():
    assert SPEC.kernels.check is check
    assert len(SPEC.invariants) == invariants.INV_KNOWLEDGE == 8


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("players,teams", [(SPEC.min_players, False), (SPEC.max_players, False),
                                           (SPEC.max_players, True)])
def test_games_pass_with_checks_on(policy, players, teams):
    games_checked(SPEC, tables(teams=teams), players, 13, C, policy)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), teams=st.booleans(),
       steps=st.integers(0, 40))
def test_untouched_state_passes(seed, players, teams, steps):
    t, s = played(seed, players, steps, teams=teams)
    assert check(t, s) == 0


def _held(s, p):
    return int(np.flatnonzero(s.hand[p] > 0)[0])


def test_card_copied_into_a_break_room():
    t, s = live()
    c = _held(s, 0)
    s.brk[1, c] += 1  # still in P1's hand, also in P2's break room
    assert check(t, s) == invariants.INV_DUPLICATED


def test_card_drawn_but_left_on_the_deck():
    t, s = live()
    p = int(np.flatnonzero(s.deck_n[: s.g[constants.G_NP]] > 0)[0])
    c = s.deck[p, s.deck_n[p] - 1]
    s.hand[p, c] += 1  # the deck pointer was not moved
    assert check(t, s) == invariants.INV_DUPLICATED


def test_card_dropped():
    t, s = live()
    s.hand[0, _held(s, 0)] -= 1
    assert check(t, s) == invariants.INV_CONSERVED


def test_deck_card_lost_when_shrinking_the_deck():
    t, s = live()
    p = int(np.flatnonzero(s.deck_n[: s.g[constants.G_NP]] > 0)[0])
    s.deck_n[p] -= 1
    s.deck[p, s.deck_n[p]] = -1
    assert check(t, s) == invariants.INV_CONSERVED


def test_boss_moved_to_another_player():
    t, s = live()
    for p in range(3):  # find P's Boss and give it to the next player's break room
        if s.hand[p, BOSS] > 0:
            s.hand[p, BOSS] -= 1
            break
        if s.brk[p, BOSS] > 0:
            s.brk[p, BOSS] -= 1
            break
        i = np.flatnonzero(s.deck[p, : s.deck_n[p]] == BOSS)
        if i.size:
            s.deck[p, i[0]] = s.deck[p, s.deck_n[p] - 1]
            s.deck[p, s.deck_n[p] - 1] = -1
            s.deck_n[p] -= 1
            break
    s.brk[(p + 1) % 3, BOSS] += 1
    assert check(t, s) == invariants.INV_BOSS


def test_unemployment_line_beyond_fired_counter():
    t, s = live()
    c = _held(s, 1)
    s.hand[1, c] -= 1
    s.unemp[1, c] += 1
    s.counts[1, c, constants.K_FIRED] = s.unemp[1, c] - 1
    assert check(t, s) == invariants.INV_COUNTERS


def test_elimination_not_counted():
    t, s = live()
    p = (s.g[constants.G_CUR] + 1) % 3
    s.seat[p, constants.S_ALIVE] = 0  # out, but G_ELIMS and the order not updated
    assert check(t, s) == invariants.INV_PLAYERS_OUT


def test_decider_desynced():
    t, s = live()
    s.g[constants.G_PHASE] = constants.PH_PLAY
    s.g[constants.G_DECIDER] = (s.g[constants.G_CUR] + 1) % 3
    assert check(t, s) == invariants.INV_TURN


def test_knowledge_beyond_the_hand():
    t, s = live()
    c = int(np.flatnonzero(s.hand[1] == 0)[0])
    s.known[0, 1, c] = 1
    assert check(t, s) == invariants.INV_KNOWLEDGE


def test_negative_count_and_bad_seat():
    t, s = live()
    s.brk[2, 0] = -1
    s.hand[2, 0] += 1  # totals still add up: only the range check sees it
    assert check(t, s) == invariants.INV_RANGE
    t, s = live()
    s.g[constants.G_CUR] = 3
    assert check(t, s) == invariants.INV_RANGE


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), steps=st.integers(0, 30),
       c=st.integers(0, C - 1), zone=st.sampled_from(["hand", "brk", "unemp"]), extra=st.sampled_from([1, -1]))
def test_any_copy_gained_or_lost_is_caught(seed, players, steps, c, zone, extra):
    t, s = played(seed, players, steps)
    arr = getattr(s, zone)
    if arr[0, c] + extra < 0:
        return
    arr[0, c] += extra
    assert check(t, s) == (invariants.INV_DUPLICATED if extra > 0 else invariants.INV_CONSERVED)
