"""Rulebook scenarios, each from a constructed state (rulebook passages quoted)."""
import numpy as np
import pytest

from balance.simcore import rng as R
from balance.simcore.youre_fired import constants
from balance.simcore.youre_fired.rules import to_move
from balance.simcore.youre_fired.knowledge import determinise, prob_in_hand
from balance.simcore.youre_fired.policies import greedy
from balance.simcore.youre_fired.state import card_totals, clone, view
from balance.simcore.batch import policy_defaults
from balance.simcore.youre_fired import SPEC
from youre_fired.helpers import (AXE, AUDITOR, BEAN, BOSS, C, DOWNSIZER, FALL, LAWYER, MANAGER, NONE, RECRUITER,
                                 REORG, SECRETARY, SPOUSE, answer, encode, fresh, hand_list, options, play,
                                 set_seat, turn_of)

GREEDY = policy_defaults(SPEC, "greedy")


# ---------------------------------------------------------------- setup
@pytest.mark.parametrize("players,per,removed", [(2, 2, 1), (3, 1, 2), (4, 1, 1)])
def test_setup_consultants(players, per, removed):
    """2 players: "deal two to each player ... The remaining consultant is secretly
    removed"; 3+: "deal one to each player face down; discard the rest"."""
    for seed in range(5):
        t, s, _ = fresh(players, seed=seed)
        cards = t[0]
        assert s.removed.sum() == removed
        for p in range(players):
            owned = s.counts[p, :, constants.K_OWNED]
            assert sum(owned[c] for c in range(C) if cards[c, constants.CF_KIND] == constants.KIND_CONSULTANT) == per
            assert owned.sum() == 11 + per


def test_starting_hand_boss_is_revealed_and_shuffled_back():
    """"If either player draws the Boss in their starting three employees, they
    reveal this card, draw a fourth card, then shuffle the Boss back"."""
    revealed = 0
    for seed in range(40):
        t, s, _ = fresh(2, seed=seed)
        # seat 2 has not had a turn yet: its starting hand is intact
        assert s.hand[1].sum() == 3
        assert s.hand[1, BOSS] == 0
        revealed += int(s.counts[1, BOSS, constants.K_DRAWN] > 0)
    assert revealed > 0  # the Boss was drawn (and put back) in some deals
    t, s, _ = fresh(2, seed=3, boss_reveal_at_deal=False)
    assert s.hand[1].sum() == 3


def test_turn_draws_one_then_up_to_four():
    """"draw one card ... If you have less than 4 cards in hand, continue drawing
    until you have 4"."""
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[SECRETARY, SECRETARY, FALL], deck=[AXE] * 6)
    set_seat(s, 1, hand=[FALL], deck=[AXE, AXE, AXE, AXE, AXE, SPOUSE])
    turn_of(s, 0)
    play(t, s, rng, SECRETARY, plain=True)
    assert to_move(s) == 1
    assert s.hand[1].sum() == 4 and s.deck_n[1] == 3  # drew 1 then up to 4
    # a big hand still draws one
    set_seat(s, 0, hand=[FALL] * 5, deck=[AXE] * 3)
    play(t, s, rng, FALL, plain=True)
    assert to_move(s) == 0 and s.hand[0].sum() == 6


def test_empty_deck_does_not_reshuffle():
    """"If your deck does not have enough cards to draw, you do not reshuffle."""
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[SECRETARY, FALL], deck=[AXE])
    set_seat(s, 1, hand=[FALL], deck=[], brk=[AXE, SECRETARY, MANAGER])
    turn_of(s, 0)
    play(t, s, rng, SECRETARY, plain=True)
    assert to_move(s) == 1
    assert s.deck_n[1] == 0 and s.hand[1].sum() == 1 and s.brk[1].sum() == 3


def test_play_without_effect_goes_to_break_room():
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[AXE, SECRETARY, FALL, MANAGER], deck=[AXE] * 4)
    set_seat(s, 1, hand=[BOSS, FALL, FALL], deck=[AXE] * 4)
    turn_of(s, 0)
    # reactive cards have no on-turn effect: only "straight to the break room"
    assert encode(C, 1, MANAGER, 0, NONE, NONE) in options(t, s)
    assert not any((o % 2 == 0) and ((o // 2) % C == MANAGER) for o in options(t, s))
    play(t, s, rng, AXE, plain=True)
    assert s.brk[0, AXE] == 1 and s.hand[1, BOSS] == 1


# ---------------------------------------------------------------- guessing
def test_axe_man_hit_fires_and_replaces_at_once():
    """Axe Man: name an employee; if it is in the opponent's hand, fire it.
    "When one of your employees is fired you will immediately draw to replace it"."""
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[AXE, FALL, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[SECRETARY, FALL, BOSS], deck=[FALL, FALL, SPOUSE, MANAGER])
    turn_of(s, 0)
    play(t, s, rng, AXE, target=1, name=SECRETARY)
    assert s.unemp[1, SECRETARY] == 1
    assert s.counts[1, MANAGER, constants.K_DRAWN] >= 1  # replacement, then the turn's draw
    assert s.seat[0, constants.S_GUESSES] == 1 and s.seat[0, constants.S_GUESSES_HIT] == 1
    assert s.brk[0, AXE] == 1


def test_axe_man_miss_on_boss_makes_target_reshuffle():
    """"If your opponent attempts to fire your Boss and fails for any reason, you must
    shuffle your hand, break pile, and deck together ... then draw a new hand of 3"."""
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[AXE, FALL, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[SECRETARY, FALL, MANAGER], deck=[BOSS, FALL, SPOUSE], brk=[AXE, AXE])
    turn_of(s, 0)
    play(t, s, rng, AXE, target=1, name=BOSS)
    assert s.seat[1, constants.S_RESHUFFLES] == 1 and s.g[constants.G_FAILED_FIRINGS] == 1
    assert s.brk[1].sum() == 0
    # 8 cards together, 3 drawn, then seat 2's own turn: draw 1 (to 4)
    assert s.hand[1].sum() == 4 and s.deck_n[1] == 4
    # a miss on another card changes nothing
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[AXE, FALL, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[SECRETARY, FALL, MANAGER], deck=[BOSS], brk=[AXE])
    turn_of(s, 0)
    play(t, s, rng, AXE, target=1, name=SPOUSE)
    assert s.brk[1, AXE] == 1 and s.seat[1, constants.S_RESHUFFLES] == 0


def test_axe_man_fires_boss_ends_two_player_game():
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[AXE, FALL, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[SECRETARY, FALL, BOSS], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, AXE, target=1, name=BOSS)
    assert to_move(s) == -1
    assert s.g[constants.G_END] == constants.END.boss_fired and s.g[constants.G_WINNER] == 0
    assert s.unemp[1, BOSS] == 1


def test_naming_a_card_all_of_whose_copies_are_public_is_not_offered():
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[AXE, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[FALL, FALL], deck=[FALL] * 4, brk=[SECRETARY], unemp=[SECRETARY])
    turn_of(s, 0)
    opts = options(t, s)
    assert encode(C, 0, AXE, 1, SECRETARY, NONE) not in opts
    assert encode(C, 0, AXE, 1, MANAGER, NONE) in opts


# ---------------------------------------------------------------- the Boss
def test_boss_play_fires_opposing_boss_and_wins():
    """"The game ends when a player's Boss is ... played to the break room (without
    successfully firing their opponent's Boss)": a play that fires it wins."""
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[BOSS, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[BOSS, FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, BOSS, target=1)
    assert s.g[constants.G_OVER] == 1 and s.g[constants.G_WINNER] == 0 and s.g[constants.G_END] == constants.END.boss_fired
    assert s.brk[0, BOSS] == 1 and s.unemp[1, BOSS] == 1


def test_boss_play_that_misses_is_a_failed_bluff():
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[BOSS, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[SECRETARY, FALL], deck=[BOSS, FALL, FALL])
    turn_of(s, 0)
    play(t, s, rng, BOSS, target=1)
    assert s.g[constants.G_OVER] == 1 and s.g[constants.G_WINNER] == 1 and s.g[constants.G_END] == constants.END.failed_bluff


def test_boss_forced_out_when_it_is_the_only_card():
    """"This may happen as the result of the player having to play their Boss because
    they have no other cards in their hand"."""
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[BOSS], deck=[])
    set_seat(s, 1, hand=[SECRETARY, FALL], deck=[BOSS, FALL, FALL])
    turn_of(s, 0)
    assert options(t, s) == [encode(C, 0, BOSS, 1, NONE, NONE)]
    play(t, s, rng, BOSS, target=1)
    assert s.g[constants.G_END] == constants.END.boss_forced_out and s.g[constants.G_WINNER] == 1


# ---------------------------------------------------------------- employees
def test_fall_guy_is_fired_to_reshuffle_break_room():
    """"A card may allow you to do so, such as the Fall Guy. However, this requires
    that you fire him." He is one of your employees fired: "When one of your
    employees is fired you will immediately draw to replace it" (before his effect)."""
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[FALL, SECRETARY], deck=[AXE], brk=[AXE, MANAGER, SPOUSE])
    set_seat(s, 1, hand=[FALL, FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, FALL)
    assert s.unemp[0, FALL] == 1 and s.brk[0].sum() == 0 and s.deck_n[0] == 3
    assert hand_list(s, 0) == sorted([AXE, SECRETARY])  # the deck's Axe Man replaced him
    # replace_fired_hand_only (the narrower reading): no draw, all four go into the deck
    t, s, rng = fresh(2, replace_fired_hand_only=True)
    set_seat(s, 0, hand=[FALL, SECRETARY], deck=[AXE], brk=[AXE, MANAGER, SPOUSE])
    set_seat(s, 1, hand=[FALL, FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, FALL)
    assert s.unemp[0, FALL] == 1 and s.deck_n[0] == 4 and hand_list(s, 0) == [SECRETARY]


def test_secretary_reveals_to_the_player_only():
    """"your target opponent only reveals cards to you\""""
    t, s, rng = fresh(3)
    set_seat(s, 0, hand=[SECRETARY, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[MANAGER, AXE, BOSS], deck=[FALL] * 4)
    turn_of(s, 0)
    shown = s.hand[1].copy()
    play(t, s, rng, SECRETARY, target=1)
    assert list(s.known[0, 1]) == list(shown)
    assert s.known[2, 1].sum() == 0
    assert prob_in_hand(t[0], t[1], s[0], 0, 1, BOSS) == 1.0
    assert prob_in_hand(t[0], t[1], s[0], 2, 1, BOSS) < 1.0


def test_spouse_brings_back_from_unemployment_line():
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[SPOUSE, FALL], deck=[FALL] * 4, unemp=[AXE, MANAGER])
    set_seat(s, 1, hand=[FALL, FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, SPOUSE, name=MANAGER)
    assert s.hand[0, MANAGER] == 1 and s.unemp[0, MANAGER] == 0
    assert s.known[1, 0, MANAGER] == 1  # everyone saw it come back


def test_bean_counter_fires_from_break_room():
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[BEAN, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[FALL, FALL], deck=[FALL] * 4, brk=[SPOUSE, AXE])
    turn_of(s, 0)
    assert encode(C, 0, BEAN, 1, MANAGER, NONE) not in options(t, s)
    play(t, s, rng, BEAN, target=1, name=SPOUSE)
    assert s.unemp[1, SPOUSE] == 1 and s.brk[1, SPOUSE] == 0


# ---------------------------------------------------------------- reactions
def test_manager_takes_the_fall_and_the_attempt_fails():
    """A reactive card answers off-turn: the Manager is fired instead of the Boss;
    the attempt on the Boss failed, so its owner reshuffles."""
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[AXE, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[BOSS, MANAGER, FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, AXE, target=1, name=BOSS)
    assert to_move(s) == 1 and s.g[constants.G_PHASE] == constants.PH_REDIRECT
    assert options(t, s) == [0, MANAGER + 1]
    answer(t, s, rng, MANAGER + 1)
    assert s.unemp[1, MANAGER] == 1 and s.unemp[1, BOSS] == 0
    assert s.g[constants.G_OVER] == 0 and s.seat[1, constants.S_RESHUFFLES] == 1


def test_declining_the_manager_loses_the_boss():
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[AXE, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[BOSS, MANAGER, FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, AXE, target=1, name=BOSS)
    answer(t, s, rng, 0)
    assert s.g[constants.G_OVER] == 1 and s.g[constants.G_WINNER] == 0


def test_lawyer_cancels_and_a_cancelled_boss_play_fails():
    t, s, rng = fresh(2, seed=5)
    set_seat(s, 0, hand=[SECRETARY, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[BOSS, LAWYER, FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, SECRETARY, target=1)
    assert s.g[constants.G_PHASE] == constants.PH_CANCEL and to_move(s) == 1
    answer(t, s, rng, LAWYER + 1)
    assert s.known[0, 1].sum() == 0 and s.brk[1, LAWYER] == 1
    # the Boss play cancelled: "fails for any reason"
    set_seat(s, 0, hand=[BOSS, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[BOSS, LAWYER, FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, BOSS, target=1)
    answer(t, s, rng, LAWYER + 1)
    assert s.g[constants.G_OVER] == 1 and s.g[constants.G_WINNER] == 1 and s.g[constants.G_END] == constants.END.failed_bluff


def test_downsizer_target_chooses_and_a_lone_boss_is_forced_out():
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[DOWNSIZER, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[BOSS, AXE], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, DOWNSIZER, target=1)
    assert s.g[constants.G_PHASE] == constants.PH_DISCARD and options(t, s) == [AXE]
    answer(t, s, rng, AXE)
    assert s.brk[1, AXE] == 1
    set_seat(s, 0, hand=[DOWNSIZER, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[BOSS], deck=[])
    turn_of(s, 0)
    play(t, s, rng, DOWNSIZER, target=1)
    answer(t, s, rng, BOSS)
    assert s.g[constants.G_OVER] == 1 and s.g[constants.G_END] == constants.END.boss_forced_out and s.g[constants.G_WINNER] == 0


def test_recruiter_reorg_auditor():
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[RECRUITER, REORG, AUDITOR, FALL], deck=[AXE, MANAGER, SECRETARY, SECRETARY], brk=[SPOUSE])
    set_seat(s, 1, hand=[FALL, FALL], deck=[AXE, AXE, BOSS, MANAGER])
    turn_of(s, 0)
    play(t, s, rng, RECRUITER)
    assert s.hand[0, SECRETARY] == 2
    turn_of(s, 0)
    play(t, s, rng, REORG, name=FALL, name2=SPOUSE)
    assert s.hand[0, SPOUSE] == 1 and s.brk[0, FALL] == 1 and s.brk[0, REORG] == 1
    set_seat(s, 1, hand=[FALL, FALL], deck=[AXE, AXE, BOSS, MANAGER])
    turn_of(s, 0)
    play(t, s, rng, AUDITOR, target=1)
    # seat 2's turn started: it drew MANAGER and BOSS that seat 1 had seen on top
    assert s.known[0, 1, MANAGER] == 1 and s.known[0, 1, BOSS] == 1
    assert prob_in_hand(t[0], t[1], s[0], 0, 1, BOSS) == 1.0


# ---------------------------------------------------------------- 3-4 players
def test_ffa_elimination_everyone_reshuffles():
    """"When any player's Boss is eliminated, that player is out of the game. All
    players must then shuffle their hand, deck, and break room - then draw three"."""
    t, s, rng = fresh(3)
    set_seat(s, 0, hand=[AXE, FALL], deck=[FALL] * 4, brk=[SECRETARY])
    set_seat(s, 1, hand=[BOSS, FALL], deck=[FALL] * 4)
    set_seat(s, 2, hand=[FALL, AXE, SPOUSE, MANAGER, SECRETARY], deck=[FALL] * 2, brk=[AXE])
    turn_of(s, 0)
    play(t, s, rng, AXE, target=1, name=BOSS)
    assert s.seat[1, constants.S_ALIVE] == 0 and s.g[constants.G_OVER] == 0 and s.g[constants.G_ELIMS] == 1
    assert s.brk[0].sum() == 0 and s.brk[2].sum() == 0
    assert s.hand[0].sum() == 3  # seat 1 is next but seat 2 is out: seat 3 plays
    assert to_move(s) == 2 and s.hand[2].sum() == 4
    # eliminated seats are not targets
    assert all((o // 2 // C) % constants.MAX_PLAYERS != 1 for o in options(t, s) if o % 2 == 0)


# ---------------------------------------------------------------- teams
def test_teams_boss_fired_passes_hand_and_plays_on():
    """"when one player's Boss is fired, that player is not eliminated. That player
    fires their Boss, passes the rest of their hand to their partner, and reshuffles
    their break room and deck. Then, they draw a new hand.\""""
    t, s, rng = fresh(4, teams=True)
    set_seat(s, 0, hand=[AXE, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[BOSS, SECRETARY, SPOUSE], deck=[FALL] * 5, brk=[AXE])
    set_seat(s, 3, hand=[FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, AXE, target=1, name=BOSS)
    assert s.g[constants.G_OVER] == 0 and s.seat[1, constants.S_BOSS_LOST] == 1 and s.unemp[1, BOSS] == 1
    assert s.hand[3, SECRETARY] == 1 and s.hand[3, SPOUSE] == 1
    assert s.hand[1].sum() == 4  # new hand of 3, then its turn's draw
    # "The game ends when both Bosses from either team have been fired."
    set_seat(s, 3, hand=[BOSS, FALL], deck=[FALL] * 4)
    turn_of(s, 2)
    set_seat(s, 2, hand=[AXE, FALL], deck=[FALL] * 4)
    play(t, s, rng, AXE, target=3, name=BOSS)
    assert s.g[constants.G_OVER] == 1 and s.g[constants.G_END] == constants.END.teams_both_bosses and s.g[constants.G_WINNER] == 0


def test_teams_spouse_cannot_bring_back_the_boss_and_empty_seats_pass():
    t, s, rng = fresh(4, teams=True)
    set_seat(s, 0, hand=[SPOUSE, FALL], deck=[FALL] * 4, unemp=[BOSS, AXE])
    s.seat[0, constants.S_BOSS_LOST] = 1
    turn_of(s, 0)
    opts = options(t, s)
    assert encode(C, 0, SPOUSE, 0, BOSS, NONE) not in opts
    assert encode(C, 0, SPOUSE, 0, AXE, NONE) in opts
    # "When a player runs out of employees in their hand and cannot draw, they are
    # still in the game ... they cannot play"
    set_seat(s, 1, hand=[], deck=[])
    play(t, s, rng, FALL, plain=True)
    assert to_move(s) == 2 and s.seat[1, constants.S_ALIVE] == 1


def test_teams_failed_firing_passes_the_hand():
    """"Whenever a player reshuffles their hand, deck, and break room for any reason
    they must pass all of the employees in their hand to their partner.\""""
    t, s, rng = fresh(4, teams=True)
    set_seat(s, 0, hand=[AXE, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[SECRETARY, SPOUSE], deck=[BOSS, FALL, FALL, FALL], brk=[AXE])
    set_seat(s, 3, hand=[], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, AXE, target=1, name=BOSS)
    assert s.hand[3, SECRETARY] == 1 and s.hand[3, SPOUSE] == 1
    assert s.seat[1, constants.S_RESHUFFLES] == 1


# ---------------------------------------------------------------- knowledge & policies
def test_greedy_names_a_card_it_saw():
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[SECRETARY, AXE, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[MANAGER, FALL, FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, SECRETARY, target=1)
    turn_of(s, 0)
    opts = np.array(options(t, s), np.int64)
    i = greedy(t, s, 0, opts, len(opts), GREEDY, R.new_streams(1, 1))
    assert opts[i] == encode(C, 0, AXE, 1, MANAGER, NONE)


def test_determinise_redraws_a_third_seats_knowledge_of_a_redealt_hand():
    # 3 players: seat 1 has seen two cards of seat 2's hand, the Axe (also known to seat 0, as if
    # revealed to all) and the Fall Guy (seen alone). In seat 0's worlds seat 2's hand is redealt:
    # seat 1 still knows two of its cards, the Axe and one drawn from the world's hand, not the real one
    t, s, rng = fresh(3, seed=9)
    set_seat(s, 2, hand=[AXE, FALL, BEAN, LAWYER], deck=[MANAGER, SPOUSE, REORG, RECRUITER, DOWNSIZER])
    turn_of(s, 0)
    s.known[:, 2, :] = 0
    s.known_top[:, 2] = 0
    s.known[1, 2, AXE] = s.known[1, 2, FALL] = 1
    s.known[0, 2, AXE] = 1
    real = s.known[1, 2].copy()
    of_seat_0 = s.known[1, 0].copy()
    differs = 0
    for k in range(30):
        s2 = view(clone(s))
        determinise(t, s2, 0, R.new_streams(k, 3))
        assert (s2.known[0] == s.known[0]).all()  # the deciding seat's own knowledge is kept
        assert s2.known[1, 2].sum() == 2 and (s2.known[1, 2] <= s2.hand[2]).all()
        assert s2.known[1, 2, AXE] == 1  # what seat 0 knows of the hand, seat 1 knows too
        assert (s2.known[1, 0] == of_seat_0).all()  # seat 0's hand is not redealt: knowledge of it stays
        differs += not (s2.known[1, 2] == real).all()
    assert differs >= 20  # the Fall Guy is rarely the card seat 1 knows in a world (1 in 8)


def test_determinise_keeps_what_the_seat_knows():
    """Seat 0 knows its hand, what the Secretary showed it of seat 1's, and what is in its own deck
    (its company set and the consultants it looked at), but not that deck's order: "Players will
    look at theirs and shuffle them with their other cards to form their deck". Its worlds keep
    the first three and redraw the order (they kept it until issue 42: the search knew its own draws)."""
    t, s, rng = fresh(2, seed=9)
    set_seat(s, 0, hand=[SECRETARY, AXE, FALL], deck=[FALL, MANAGER, AXE, BEAN, LAWYER, REORG])
    turn_of(s, 0)
    play(t, s, rng, SECRETARY, target=1)
    before = card_totals(s).copy()
    seen = s.known[0, 1].copy()
    own = sorted(s.deck[0, :s.deck_n[0]])
    reordered = 0
    for k in range(20):
        s2 = view(clone(s))
        determinise(t, s2, 0, R.new_streams(k, 2))
        assert (card_totals(s2) == before).all()
        assert (s2.hand[0] == s.hand[0]).all() and s2.deck_n[0] == s.deck_n[0]
        assert sorted(s2.deck[0, :s2.deck_n[0]]) == own  # what is in its deck: known
        reordered += not (s2.deck[0, :s2.deck_n[0]] == s.deck[0, :s.deck_n[0]]).all()  # its order: not
        assert (s2.hand[1] >= seen).all() and s2.hand[1].sum() == s.hand[1].sum()
        assert s2.deck_n[1] == s.deck_n[1]
    assert reordered >= 15  # 6 cards, 5 kinds: a world keeps the real order about 1 time in 360
