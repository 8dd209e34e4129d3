"""The end of the team game (issue 19), each reading from a constructed state.

Rulebook, 4 Player Team Variant: "when one player's Boss is fired, that player is
not eliminated. That player fires their Boss, passes the rest of their hand to
their partner, and reshuffles their break room and deck ... The game ends when
both Bosses from either team have been fired. The other team wins."  Silent on
the Boss whose play fired the target's (2 players: the game is over; 3+: "All
players must then shuffle their hand, deck, and break room").
"""
import numpy as np
import pytest

from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.youre_fired import SPEC
from balance.simcore.youre_fired import constants
from balance.simcore.youre_fired.rules import decode, legal, step, to_move
from youre_fired.helpers import AXE, BOSS, C, FALL, NONE, SECRETARY, SPOUSE, encode, fresh, options, play, set_seat, turn_of

NOTRACE = np.zeros(0, np.int32)


def boss_play_that_fires(after, **params):
    """Seat 1 plays its Boss against seat 2, who holds theirs: it fires it."""
    t, s, rng = fresh(4, teams=True, team_boss_after_success=after, **params)
    set_seat(s, 0, hand=[BOSS, SECRETARY], deck=[AXE, AXE, FALL])
    set_seat(s, 1, hand=[BOSS, FALL], deck=[FALL] * 4)
    set_seat(s, 3, hand=[FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, BOSS, target=1)
    assert s.unemp[1, BOSS] == 1 and s.seat[1, constants.S_BOSS_LOST] == 1 and s.g[constants.G_OVER] == 0
    assert s.seat[0, constants.S_BOSS_LOST] == 0
    return t, s


def test_successful_boss_play_shuffles_the_boss_into_its_deck_by_default():
    """Default reading: the Boss goes back among its owner's hidden cards (what
    the 3+ reshuffle does to it), so it can be drawn, targeted and played again.
    Before issue 19 it stayed in the break room, where nothing can target it."""
    assert SPEC.load_data({}).params["team_boss_after_success"] == constants.BOSS_TO_DECK
    t, s = boss_play_that_fires(constants.BOSS_TO_DECK)
    assert s.brk[0, BOSS] == 0 and s.hand[0, BOSS] == 0
    assert BOSS in list(s.deck[0, :s.deck_n[0]]) and s.deck_n[0] == 4
    assert s.known[1:, 0, BOSS].sum() == 0  # hidden again
    assert s.belief[2, 0, BOSS] == pytest.approx(1.0)


def test_the_other_readings_of_the_successful_boss():
    t, s = boss_play_that_fires(constants.BOSS_TO_BREAK_ROOM)  # the literal reading: a played card's place
    assert s.brk[0, BOSS] == 1 and BOSS not in list(s.deck[0, :s.deck_n[0]])
    # there, no card can name it. Seat 2's Axe Man may still name a Boss in seat 1's hand: one of
    # the team's two is hidden, and a hand passed by seat 3 would have carried it (team_pass_boss)
    set_seat(s, 1, hand=[AXE, FALL], deck=[FALL] * 4, unemp=[BOSS])
    turn_of(s, 1)
    assert encode(C, 0, AXE, 0, FALL, NONE) in options(t, s)
    assert encode(C, 0, AXE, 0, BOSS, NONE) in options(t, s)
    set_seat(s, 2, hand=[FALL], deck=[FALL], brk=[BOSS])  # seat 3's Boss in the open too: none can be in a hand
    assert encode(C, 0, AXE, 0, BOSS, NONE) not in options(t, s)
    # where a Boss never leaves its player (team_pass_boss=false), seat 1's lies in the open: not offered
    t, s = boss_play_that_fires(constants.BOSS_TO_BREAK_ROOM, team_pass_boss=False)
    set_seat(s, 1, hand=[AXE, FALL], deck=[FALL] * 4, unemp=[BOSS])
    turn_of(s, 1)
    assert encode(C, 0, AXE, 0, FALL, NONE) in options(t, s)
    assert encode(C, 0, AXE, 0, BOSS, NONE) not in options(t, s)
    t, s = boss_play_that_fires(constants.BOSS_TO_HAND)  # back in the hand, in view of all
    assert s.hand[0, BOSS] == 1 and s.brk[0, BOSS] == 0
    assert all(s.known[o, 0, BOSS] == 1 for o in (1, 2, 3))


def one_team_left(deadlock, no_progress=0):
    """Team 1 (seats 1, 3) alone can play: seat 2's Boss is fired, seat 4's lies
    in its break room after a successful Boss play; seats 2 and 4 have nothing."""
    t, s, rng = fresh(4, teams=True, team_boss_after_success=constants.BOSS_TO_BREAK_ROOM, team_deadlock=deadlock,
                      no_progress_turns=no_progress)
    set_seat(s, 0, hand=[SECRETARY, AXE, FALL], deck=[FALL, AXE])
    set_seat(s, 1, unemp=[BOSS])
    s.seat[1, constants.S_BOSS_LOST] = 1
    set_seat(s, 2, hand=[BOSS, FALL], deck=[SECRETARY])
    set_seat(s, 3, brk=[BOSS, AXE])
    turn_of(s, 0)
    return t, s, rng


@pytest.mark.parametrize("deadlock,over,winner", [(constants.DEADLOCK_PLAY_ON, 0, -1), (constants.DEADLOCK_NO_WINNER, 1, -1),
                                                  (constants.DEADLOCK_ACTING_TEAM_WINS, 1, 0)])
def test_one_team_left_and_no_opposing_boss_reachable(deadlock, over, winner):
    """`team_deadlock`: every seat that can still play is on one team and no
    opposing Boss is in a hand or deck. Default: play on ("You must always do
    both of these actions ... if able": that team must go on playing, its own
    Boss too when it has nothing else)."""
    t, s, rng = one_team_left(deadlock)
    play(t, s, rng, SECRETARY, plain=True)
    assert s.g[constants.G_OVER] == over and s.g[constants.G_WINNER] == winner
    if over:
        assert s.g[constants.G_END] == constants.END.teams_deadlock
    else:
        assert to_move(s) == 2  # player 2 has nothing and passes: player 3 plays


def test_no_deadlock_while_an_opposing_boss_is_in_a_deck():
    t, s, rng = one_team_left(constants.DEADLOCK_NO_WINNER)
    set_seat(s, 3, deck=[BOSS], brk=[AXE])  # seat 4 can draw its Boss: not a deadlock
    play(t, s, rng, SECRETARY, plain=True)
    assert s.g[constants.G_OVER] == 0


def loop_state(no_progress):
    """Issue 19, `--seed 3 --index 2619`: the last seat with cards can cycle for
    ever, the Spouse bringing back the Fall Guy that reshuffles her into the deck."""
    t, s, rng = fresh(4, teams=True, team_boss_after_success=constants.BOSS_TO_BREAK_ROOM, no_progress_turns=no_progress)
    set_seat(s, 0, hand=[SPOUSE], unemp=[FALL, BOSS])
    s.seat[0, constants.S_BOSS_LOST] = 1
    set_seat(s, 1, brk=[BOSS])
    set_seat(s, 2, brk=[BOSS])
    set_seat(s, 3, unemp=[BOSS])
    s.seat[3, constants.S_BOSS_LOST] = 1
    turn_of(s, 0)
    return t, s, rng


def cycle(t, s, rng, steps):
    """Seat 1 plays the Spouse (naming the Fall Guy) or the Fall Guy, for effect."""
    out = np.zeros(SPEC.max_options, np.int64)
    for k in range(steps):
        if to_move(s) < 0:
            return k
        n = legal(t, s, out)
        code = next(o for o in out[:n] if decode(C, o)[0] == 0 and decode(C, o)[1] in (SPOUSE, FALL))
        step(t, s, np.int64(code), rng, NOTRACE)
    return steps


def test_no_progress_guard_ends_a_cycle():
    t, s, rng = loop_state(0)  # guard off: the cycle runs on
    assert cycle(t, s, rng, 600) == 600 and s.g[constants.G_OVER] == 0
    t, s, rng = loop_state(40)
    played = cycle(t, s, rng, 600)
    assert s.g[constants.G_OVER] == 1 and s.g[constants.G_END] == constants.END.no_progress and s.g[constants.G_WINNER] == -1
    # ended at the end of the first turn that made 40 without progress (4 turns a
    # round: the other three seats pass); one play of seat 1 a round
    assert 40 <= s.g[constants.G_TURN] - s.g[constants.G_PROGRESS_TURN] < 44
    assert played == (s.g[constants.G_TURN] - 1) // 4 + 1


def test_progress_restarts_the_count():
    """A card fired beyond the most the unemployment lines ever held is progress: the count starts again."""
    t, s, rng = loop_state(40)
    cycle(t, s, rng, 5)  # the Spouse has just brought the Fall Guy back: he fires himself next
    s.unemp[1, AXE] += 1  # as if seat 0 had fired a card of seat 2's
    seen = s.g[constants.G_TURN]
    cycle(t, s, rng, 1)
    assert s.g[constants.G_PROGRESS_TURN] == seen and s.g[constants.G_OVER] == 0


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_team_games_end_with_both_bosses_of_a_team_fired(policy):
    """With the default readings no team game stalls, loops or reaches the cap
    (issue 19: 1.3% of team games ended with no winner). Seed 3, the issue's seed."""
    data = SPEC.load_data({"teams": True})
    r = Engine(SPEC, [resolve_policy(SPEC, policy)]).run(data.tables, 4, 3, np.arange(3000, dtype=np.int64),
                                                         len(data.card_names))
    reasons = r.game_out[:, 0].astype(int)
    assert (reasons == 2 + constants.END_REASONS.index("teams_both_bosses")).all()
    assert (r.seat_out[:, :, 0].sum(axis=1) == 2).all()
