"""Rulebook scenarios of the party game, each from a constructed state.

Reactions are made deterministic with reaction_spread = 0 (every delay is the
seat's median) and per-seat medians that fix who is fastest."""
import numpy as np
import pytest

from balance.simcore.sickdays_party import constants, rules
from balance.simcore.trace import events, new_trace

from .helpers import (card, check_zones, detach, event, fresh, hand, options, play, restart, set_hand, set_top,
                      tables_for)

# hands that cannot follow the tops used below (Monday/Tuesday of workers 5-9)
DEAD = [card(1, 5), card(2, 5), card(3, 6), card(4, 6)]


def quiet_others(s, seats, extra=()):
    """Give each seat in `seats` two cards that fit neither Monday nor Tuesday of workers 5-9."""
    pool = [card(w, d) for w in (1, 2, 3, 4) for d in (5, 6)]
    for i, p in enumerate(seats):
        set_hand(s, p, [pool[2 * i], pool[2 * i + 1]] + list(extra))


def seat_zero_alone(t, hand, top=card(5, 1)):
    """A four-seat game of tables `t`: seats 1-3 holding nothing that plays (quiet_others), `top` on the pile
    (default Monday/5) and seat 0 holding `hand`; not yet restarted, so a test can set what else it needs first."""
    s, rng = fresh(t, 4)
    quiet_others(s, (1, 2, 3))
    set_top(s, top)
    set_hand(s, 0, hand)
    return s, rng


def test_next_day_wraps_and_same_worker_and_events_are_wild():
    assert rules.matches(card(0, 2), card(3, 1))  # Tuesday on any Monday
    assert rules.matches(card(0, 1), card(3, 7))  # "You can play a 1-Monday on a 7-Sunday"
    assert rules.matches(card(2, 5), card(2, 1))  # same worker, any day
    assert not rules.matches(card(1, 3), card(2, 1))
    assert not rules.matches(card(1, 1), card(2, 1))  # same day is not enough
    assert not rules.matches(card(1, 7), card(2, 1))  # no going back a day
    assert rules.matches(event(0), card(1, 3)) and rules.matches(card(1, 3), event(5))
    assert rules.same_worker_only(card(2, 5), card(2, 1)) and not rules.same_worker_only(card(2, 2), card(2, 1))


def test_nobody_plays_twice_in_a_row_and_the_stall_rule():
    t = tables_for(reaction_median=[1.0])
    s, rng = fresh(t, 4)
    set_top(s, card(5, 1))
    set_hand(s, 0, [card(0, 2), card(0, 3)])
    quiet_others(s, (1, 2, 3))
    restart(t, s, rng)
    assert rules.to_move(s) == 0 and s[constants.H_PHASE] == constants.PH_ACT
    assert options(t, s) == [constants.OP_PLAY * 100 + card(0, 2)]
    play(t, s, rng)
    # seat 0 holds Wednesday/worker 0, which fits, but "you can't play after yourself"
    assert s[constants.H_LAST] == 0 and s[constants.O_RT + 0] == -1
    # nobody else can play: after the stall delay the last player plays any card, unpunished
    assert s[constants.H_PHASE] == constants.PH_STALL and rules.to_move(s) == 0
    assert s[constants.H_STALL_T] == 1000 + 5000
    assert options(t, s) == [constants.OP_STALL * 100 + card(0, 3)]
    play(t, s, rng)
    assert s[constants.H_STALLS] == 1 and s[constants.H_TOP] == card(0, 3)
    assert sum(s[constants.H_PEN0:constants.H_PEN0 + constants.N_CAUSES]) == 0
    check_zones(s)


def race_to_play(second):
    """Monday/5 on top, every seat holding a Tuesday of its own and a dead card; seat 1 reacts `second`
    seconds after the top card, seat 0 after 1.0, the others after 3.0 (collision window 0.3)."""
    t = tables_for(reaction_median=[1.0, second, 3.0, 3.0], collision_window=0.3)
    s, rng = fresh(t, 4)
    set_top(s, card(5, 1))
    for p in range(4):
        set_hand(s, p, [card(p, 2), DEAD[p]])
    restart(t, s, rng)
    return t, s, rng


def test_collision_within_the_window_all_land_and_each_draws_two():
    t, s, rng = race_to_play(1.2)
    assert s[constants.H_G_N] == 2 and rules.to_move(s) == 0
    pile_before = s[constants.H_PILE_N]
    play(t, s, rng, constants.OP_PLAY * 100 + card(0, 2))
    assert rules.to_move(s) == 1
    play(t, s, rng, constants.OP_PLAY * 100 + card(1, 2))
    assert s[constants.H_PILE_N] == pile_before + 2  # both cards landed
    assert s[constants.O_HANDN + 0] == 3 and s[constants.O_HANDN + 1] == 3  # 2 - 1 + 2
    assert s[constants.O_HANDN + 2] == 2 and s[constants.O_HANDN + 3] == 2
    assert s[constants.H_PEN0 + rules.CA_COLLISION] == 2 and s[constants.H_COLLISIONS] == 1
    assert s[constants.H_LAST] == -1  # "then anyone may play next"
    check_zones(s)


def test_outside_the_window_only_the_first_plays():
    t, s, rng = race_to_play(1.4)
    assert s[constants.H_G_N] == 1


@pytest.mark.parametrize("cause", ["wrong", "twice", "forget", "coffee"])
def test_every_mistake_leaves_the_card_and_draws_two(cause):
    prof = {"reaction_median": [1.0, 3.0, 3.0, 3.0]}
    if cause in ("wrong", "twice", "coffee"):
        prof["wrong_play"] = [1.0, 0.0, 0.0, 0.0]
    if cause == "forget":
        prof["forget_celebrate"] = [1.0]
    t = tables_for(**prof)
    s, rng = fresh(t, 4)
    quiet_others(s, (1, 2, 3))
    last = -1
    if cause == "wrong":
        set_top(s, card(5, 1))
        set_hand(s, 0, [card(0, 2), card(7, 6)])  # it plays Saturday/7 on Monday/5
        mistaken = card(7, 6)
    elif cause == "twice":
        set_top(s, card(5, 1))
        set_hand(s, 0, [card(5, 2), card(7, 6)])
        last = 0
        mistaken = None
    elif cause == "forget":
        set_top(s, event(rules.EV_BIRTHDAY))
        set_hand(s, 0, [card(0, 2), card(7, 6)])
        mistaken = None
    else:
        set_top(s, event(rules.EV_COFFEE))
        s[constants.H_BREAK] = 10_000
        set_hand(s, 0, [card(0, 2), card(7, 6)])
        mistaken = None
    restart(t, s, rng, last=last)
    assert rules.to_move(s) == 0
    opts = options(t, s)
    if mistaken is not None:
        assert opts == [constants.OP_PLAY * 100 + mistaken]
    play(t, s, rng, opts[0])
    code = {"wrong": rules.CA_WRONG, "twice": rules.CA_TWICE, "forget": rules.CA_FORGET, "coffee": rules.CA_COFFEE}[cause]
    assert s[constants.H_PEN0 + code] == 1 and sum(s[constants.H_PEN0:constants.H_PEN0 + constants.N_CAUSES]) == 1
    assert s[constants.H_TOP] == opts[0] % 100  # the card stays on the pile
    assert s[constants.O_HANDN + 0] == 1 + 2
    check_zones(s)


def test_no_celebration_is_needed_on_look_busy_or_coffee_break_or_a_day():
    t = tables_for(reaction_median=[1.0, 3.0, 3.0, 3.0], forget_celebrate=[1.0])
    for top in (event(rules.EV_LOOKBUSY), card(5, 1)):
        s, rng = seat_zero_alone(t, [card(0, 2), card(7, 6)], top=top)
        restart(t, s, rng)
        play(t, s, rng, constants.OP_PLAY * 100 + card(0, 2))
        assert sum(s[constants.H_PEN0:constants.H_PEN0 + constants.N_CAUSES]) == 0


def test_wrong_accusation_of_a_same_worker_play():
    t = tables_for(reaction_median=[1.0, 3.0, 3.0, 3.0], wrong_accusation=[0.0, 1.0, 1.0, 1.0])
    for played, accused in ((card(5, 5), True), (card(0, 2), False)):
        s, rng = seat_zero_alone(t, [played, card(7, 6)])
        restart(t, s, rng)
        play(t, s, rng, constants.OP_PLAY * 100 + played)
        if accused:  # Friday/5 on Monday/5: legal by worker, "you call them out for the wrong day"
            assert s[constants.H_PEN0 + rules.CA_ACCUSE] == 3
            assert [s[constants.O_HANDN + p] for p in range(4)] == [1, 4, 4, 4]
        else:
            assert s[constants.H_PEN0 + rules.CA_ACCUSE] == 0


def test_pizza_slice_cancels_a_draw_two():
    t = tables_for(reaction_median=[1.0, 3.0, 3.0, 3.0], wrong_play=[1.0, 0.0, 0.0, 0.0])
    s, rng = seat_zero_alone(t, [card(0, 2), card(7, 6)])
    s[constants.O_SLICES + 0] = 1
    restart(t, s, rng)
    play(t, s, rng)  # the wrong card
    assert s[constants.H_PHASE] == constants.PH_SLICE and rules.to_move(s) == 0
    assert options(t, s) == [constants.OP_SLICE_USE * 100, constants.OP_SLICE_KEEP * 100]
    middle = s[constants.H_MIDDLE]
    play(t, s, rng, constants.OP_SLICE_USE * 100)
    assert s[constants.O_HANDN + 0] == 1 and s[constants.O_SLICES + 0] == 0 and s[constants.H_MIDDLE] == middle + 1
    assert s[constants.H_SLICES_USED] == 1 and s[constants.H_PEN0 + rules.CA_WRONG] == 1
    check_zones(s)


def test_pizza_party_slices_go_to_the_fastest_hands():
    t = tables_for(reaction_median=[4.0, 1.0, 2.0, 3.0])
    s, rng = seat_zero_alone(t, [event(rules.EV_PIZZAPARTY), card(7, 6)])
    s[constants.H_MIDDLE] = 2
    restart(t, s, rng)
    play(t, s, rng, constants.OP_PLAY * 100 + event(rules.EV_PIZZAPARTY))
    assert [s[constants.O_SLICES + p] for p in range(4)] == [0, 1, 1, 0] and s[constants.H_MIDDLE] == 0


def test_coffee_break_blocks_play_for_ten_seconds():
    t = tables_for(reaction_median=[1.0, 2.0, 2.0, 2.0])
    s, rng = fresh(t, 4)
    for p in (1, 2, 3):
        set_hand(s, p, [card(p, 2), DEAD[p]])
    set_top(s, card(5, 1))
    set_hand(s, 0, [event(rules.EV_COFFEE), card(7, 6)])
    restart(t, s, rng)
    play(t, s, rng, constants.OP_PLAY * 100 + event(rules.EV_COFFEE))
    assert s[constants.H_BREAK] == 1000 + 10_000
    react = [s[constants.O_RT + p] for p in range(4) if s[constants.O_RT + p] >= 0]
    assert react and min(react) >= 11_000 + 2000
    assert s[constants.O_G_TIME] >= 11_000


def test_look_busy_punishes_the_slowest_player():
    t = tables_for(reaction_median=[1.0, 2.0, 5.0, 3.0])
    s, rng = seat_zero_alone(t, [event(rules.EV_LOOKBUSY), card(7, 6)])
    restart(t, s, rng)
    trace = new_trace()
    play(t, s, rng, constants.OP_PLAY * 100 + event(rules.EV_LOOKBUSY), trace)
    assert s[constants.H_PEN0 + rules.CA_LOOKBUSY] == 1
    assert [s[constants.O_HANDN + p] for p in range(4)] == [1, 2, 4, 2]
    assert any(e[0] == constants.T_LOOKBUSY and e[2] == 2 for e in events(trace))


def test_emptying_the_hand_returns_a_token_and_draws_seven_then_wins():
    t = tables_for(reaction_median=[1.0, 3.0, 3.0, 3.0])

    def last_card_played(tokens):
        """Five seats; seat 0 plays its one card (Tuesday/0 on Monday/5) holding `tokens` tokens."""
        s, rng = fresh(t, 5)
        quiet_others(s, (1, 2, 3))
        set_hand(s, 4, [card(9, 5)])
        set_top(s, card(5, 1))
        set_hand(s, 0, [card(0, 2)])
        s[constants.O_TOKENS + 0] = tokens
        restart(t, s, rng)
        play(t, s, rng)
        return s

    s = last_card_played(1)
    assert s[constants.O_TOKENS + 0] == 0 and s[constants.O_HANDN + 0] == 7 and s[constants.O_PLACE + 0] == 0
    # with no token left, playing the last card wins
    s = last_card_played(0)
    assert s[constants.O_PLACE + 0] == 1 and s[constants.H_NWON] == 1 and rules.to_move(s) != 0
    check_zones(s)


def test_game_ends_when_all_but_two_have_won():
    t = tables_for(reaction_median=[1.0, 3.0, 3.0, 3.0])
    s, rng = fresh(t, 4)
    quiet_others(s, (1, 2, 3))
    s[constants.O_PLACE + 1] = 1
    s[constants.H_NWON] = 1
    set_top(s, card(5, 1))
    set_hand(s, 0, [card(0, 2)])
    s[constants.O_TOKENS + 0] = 0
    restart(t, s, rng)
    assert rules.to_move(s) == 0
    play(t, s, rng)
    assert s[constants.O_PLACE + 0] == 2 and rules.to_move(s) == -1 and s[constants.H_OVER] == constants.END.all_but_left_won
    row = np.zeros(2 + 22)
    seats = np.zeros((4, 8))
    rules.outcome(t, s, row, seats)
    assert list(seats[:, 0]) == [1, 1, 0, 0] and list(seats[:, 2])[:2] == [2, 1]


def test_empty_deck_is_refilled_from_the_pile_unshuffled():
    t = tables_for()
    s, rng = fresh(t, 4)
    # move the whole deck onto the pile, in a known order, under the current top
    deck = [int(c) for c in s[constants.O_DECK:constants.O_DECK + s[constants.H_DECK_N]]]
    top = int(s[constants.H_TOP])
    for c in deck:
        set_top(s, c)
    set_top(s, top)
    pile = [int(c) for c in s[constants.O_PILE:constants.O_PILE + s[constants.H_PILE_N]]]
    assert s[constants.H_DECK_N] == 0 and pile[-1] == top
    before = hand(s, 1)
    got = rules.draw(t, s, np.int64(1), np.int64(2), new_trace())
    assert got == 2 and sorted(before + pile[:2]) == hand(s, 1)  # the pile's bottom cards first
    assert s[constants.H_PILE_N] == 1 and s[constants.H_TOP] == top and s[constants.H_REFILLS] == 1
    assert s[constants.O_DECK + s[constants.H_DECK_N] - 1] == pile[2]  # the next draw is the next card up
    assert s[constants.H_DECK_N] == len(pile) - 3
    check_zones(s)


def test_advanced_flow_doctors_notes():
    t = tables_for(advanced_flow=True, reaction_median=[1.0, 2.0, 9.0, 9.0])
    s, rng = fresh(t, 4)
    quiet_others(s, (2, 3))
    set_top(s, card(6, 1))
    set_hand(s, 0, [card(6, 3), card(0, 5), card(4, 6)])
    set_hand(s, 1, [card(6, 2), card(1, 6)])
    restart(t, s, rng)
    assert rules.to_move(s) == 0
    opts = options(t, s)
    # "you still need to follow the normal rules of playing a card"
    assert constants.OP_MAKE_NOTE * 100 + card(6, 3) in opts
    assert constants.OP_MAKE_NOTE * 100 + card(4, 6) not in opts and constants.OP_MAKE_NOTE * 100 + card(0, 5) not in opts
    play(t, s, rng, constants.OP_MAKE_NOTE * 100 + card(6, 3))  # "I'm sick"
    assert s[constants.O_NOTE + 0] == card(6, 3) and s[constants.O_ZONE + card(6, 3)] == constants.Z_NOTE0 + 0
    assert s[constants.H_TOP] == card(6, 1) and s[constants.H_LAST] == 0
    # "You cannot make and then immediately play a doctor's note": seat 1 is next
    assert rules.to_move(s) == 1
    play(t, s, rng, constants.OP_PLAY * 100 + card(6, 2))
    assert rules.to_move(s) == 0
    opts = options(t, s)
    assert constants.OP_PLAY_NOTE * 100 + card(6, 3) in opts
    assert not any(o // 100 == constants.OP_MAKE_NOTE for o in opts)  # one Doctor's note at a time
    play(t, s, rng, constants.OP_PLAY_NOTE * 100 + card(6, 3))  # "I'm back"
    assert s[constants.H_TOP] == card(6, 3) and s[constants.O_NOTE + 0] == -1 and s[constants.H_NOTES_PLAYED] == 1
    check_zones(s)


def test_a_note_left_in_front_keeps_a_player_in_the_game():
    t = tables_for(advanced_flow=True)
    s, rng = fresh(t, 4)
    set_hand(s, 0, [])
    detach(s, card(6, 3))
    s[constants.O_NOTE + 0] = card(6, 3)
    s[constants.O_ZONE + card(6, 3)] = constants.Z_NOTE0
    assert rules.has_cards(s, 0) and rules.cards_left(s, 0) == 1


# ---- issue 19: the advanced flow's Doctor's notes, pick-up time, the end of the game ----
def _give_note(s, seat, c):
    detach(s, c)
    s[constants.O_NOTE + seat] = c
    s[constants.O_ZONE + c] = constants.Z_NOTE0 + seat


def test_after_a_note_the_player_who_played_last_may_play_again():
    """A note is a turn: the seat that was the last player is no longer "after
    yourself" and reacts anew (here with its fitting note) instead of the engine
    declaring that nobody can play."""
    t = tables_for(advanced_flow=True, reaction_median=[1.0, 2.0, 9.0, 9.0])
    s, rng = fresh(t, 4)
    quiet_others(s, (2, 3))
    set_top(s, card(6, 1))
    set_hand(s, 0, [card(3, 5), card(3, 6)])
    _give_note(s, 0, card(6, 4))  # fits Monday/6 by worker
    set_hand(s, 1, [card(6, 5), card(4, 5)])
    restart(t, s, rng, last=0)
    assert s[constants.O_RT + 0] == -1 and rules.to_move(s) == 1  # seat 0 played last: it waits
    play(t, s, rng, constants.OP_MAKE_NOTE * 100 + card(6, 5))  # seat 1: "I'm sick", at 2.0 s
    assert s[constants.H_LAST] == 1 and s[constants.H_TOP] == card(6, 1)
    assert s[constants.H_PHASE] == constants.PH_ACT and rules.to_move(s) == 0  # not "nobody can play"
    assert s[constants.O_RT + 0] == 2000 + 1000  # its reaction counts from the note
    assert constants.OP_PLAY_NOTE * 100 + card(6, 4) in options(t, s)
    check_zones(s)


def test_the_stall_timer_restarts_at_a_note_and_the_note_is_not_the_stall_card():
    """After a note that leaves nobody able to play, the note maker (now the last
    player) plays any card stall_delay after the note, not in the same
    millisecond, and not the note it has just made ("You cannot make and then
    immediately play a doctor's note")."""
    t = tables_for(advanced_flow=True, reaction_median=[1.0, 7.0, 9.0, 9.0], stall_delay=5.0)
    s, rng = fresh(t, 4)
    quiet_others(s, (2, 3))
    set_top(s, card(6, 1))
    set_hand(s, 0, [card(3, 5), card(3, 6)])
    set_hand(s, 1, [card(6, 5), card(4, 5)])
    restart(t, s, rng)
    assert rules.to_move(s) == 1 and s[constants.O_G_TIME] == 7000  # later than 5 s: a legal reaction holds the stall off
    play(t, s, rng, constants.OP_MAKE_NOTE * 100 + card(6, 5))
    assert s[constants.H_PHASE] == constants.PH_STALL and rules.to_move(s) == 1
    assert s[constants.H_STALL_T] == 7000 + 5000
    assert options(t, s) == [constants.OP_STALL * 100 + card(4, 5)]
    trace = new_trace()
    play(t, s, rng, trace=trace)
    stall = [e for e in events(trace) if e[0] == constants.T_STALL]
    assert len(stall) == 1 and stall[0][1] == 12_000 and stall[0][3] == card(4, 5)
    # once a card has landed, a note may be the stall card again
    assert s[constants.H_NOTE_BY] == -1
    check_zones(s)


def test_a_seat_that_drew_seven_plays_twice_only_after_picking_them_up():
    """The "played twice" mistake waits for the pick-up time (draw_time per card)
    like every other reaction."""
    t = tables_for(reaction_median=[1.0, 3.0, 3.0, 3.0], wrong_play=[1.0, 0.0, 0.0, 0.0], draw_time=0.5)
    s, rng = seat_zero_alone(t, [card(0, 2)])
    s[constants.O_TOKENS + 0] = 1
    restart(t, s, rng)
    play(t, s, rng)  # its last card at 1.0 s: a token goes back, it draws 7
    assert s[constants.O_HANDN + 0] == 7 and s[constants.O_BUSY + 0] == 1000 + 7 * 500
    assert s[constants.O_RK + 0] == constants.RK_TWICE and s[constants.O_RT + 0] == 4500 + 1000


@pytest.mark.parametrize("coffee", [False, True])
def test_a_busy_seat_jumps_the_gun_only_in_a_coffee_break_and_after_picking_up(coffee):
    t = tables_for(reaction_median=[1.0, 3.0, 3.0, 3.0], wrong_play=[1.0, 0.0, 0.0, 0.0])
    s, rng = seat_zero_alone(t, [card(0, 2), card(7, 6)])
    s[constants.O_BUSY + 0] = 4000  # still picking up a penalty
    if coffee:
        s[constants.H_BREAK] = 10_000
    restart(t, s, rng)
    if coffee:  # too early, with its legal card: a mistake (Coffee Break)
        assert s[constants.O_RK + 0] == constants.RK_LEGAL and s[constants.O_RT + 0] == 4000 + 1000
    else:  # no break to jump: an impatient seat sees a match that is not there
        assert s[constants.O_RK + 0] == constants.RK_WRONG and s[constants.O_RCARD + 0] == card(7, 6) and s[constants.O_RT + 0] == 5000


@pytest.mark.parametrize("min_winners,needed", [(2, [2, 2, 3, 4, 5, 6]), (1, [1, 2, 3, 4, 5, 6]),
                                                (4, [2, 3, 4, 4, 5, 6])])
def test_all_but_two_win_and_at_least_two(min_winners, needed):
    """"The game continues until all but 2 players win. (i.e. 2 winners for 3
    players, 6 winners for 8 players)"; min_winners = 1 is "all but 2" alone."""
    t = tables_for(min_winners=min_winners)
    assert [rules.winners_needed(t[0], n) for n in range(3, 9)] == needed


@pytest.mark.parametrize("min_winners", [2, 1])
def test_three_player_game_goes_on_after_the_first_winner(min_winners):
    t = tables_for(reaction_median=[1.0, 3.0, 3.0], min_winners=min_winners)
    s, rng = fresh(t, 3)
    quiet_others(s, (1, 2))
    set_top(s, card(5, 1))
    set_hand(s, 0, [card(0, 2)])
    s[constants.O_TOKENS + 0] = 0
    restart(t, s, rng)
    play(t, s, rng)
    assert s[constants.O_PLACE + 0] == 1 and s[constants.H_NWON] == 1
    if min_winners == 2:
        assert s[constants.H_OVER] == 0 and rules.to_move(s) >= 0
    else:
        assert s[constants.H_OVER] == constants.END.all_but_left_won and rules.to_move(s) == -1
