"""Three readings settled by the rulebook's words (issue 40, item 11), each from a constructed state.

1. Teams, the Boss's Spouse: "The Boss's Spouse cannot bring back the Boss." The variant that lets her
   (`spouse_revives_boss_in_teams`) is bounded by `spouse_boss_revivals`, and the no-progress guard does
   not count a card fired again after a revival (before: 27.5% of such team games reached the turn cap).
2. "When one of your employees is fired you will immediately draw to replace it": every fired employee,
   the Fall Guy firing himself and a card fired from a break room too (`replace_fired_hand_only` for the
   narrower reading).
3. Teams: "they must pass all of the employees in their hand to their partner": the Boss is an employee
   ("If either player draws the Boss in their starting three employees"), so a Boss held goes with them
   (`team_pass_boss`).
"""
import numpy as np

from balance.simcore import rng as R
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.youre_fired import SPEC
from balance.simcore.youre_fired import constants
from balance.simcore.youre_fired.rules import to_move
from balance.simcore.youre_fired.knowledge import determinise, prob_in_hand
from balance.simcore.youre_fired.state import card_totals, clone, view
from youre_fired.helpers import (AXE, BEAN, BOSS, C, FALL, LAWYER, MANAGER, NONE, SECRETARY, SPOUSE, answer,
                                 encode, fresh, hand_list, options, play, set_seat, turn_of)


def _ends(params, games=200, seed=11, policy="greedy"):
    """End reasons (names) of `games` 4-player games of seed `seed`."""
    data = SPEC.load_data({"teams": True, **params})
    r = Engine(SPEC, [resolve_policy(SPEC, policy)]).run(data.tables, 4, seed, np.arange(games, dtype=np.int64),
                                                         len(data.card_names))
    names = ("cap", "no_move") + constants.END_REASONS
    return [names[int(x)] for x in r.game_out[:, 0]]


# ---------------------------------------------------------------- 1. the Spouse and the Boss
def _revived_boss(**params):
    """Team game: player 1 lost their Boss and holds the Spouse; player 2 holds an Axe Man."""
    t, s, rng = fresh(4, teams=True, spouse_revives_boss_in_teams=True, **params)
    set_seat(s, 0, hand=[SPOUSE, SECRETARY], deck=[FALL] * 4, unemp=[BOSS])
    s.seat[0, constants.S_BOSS_LOST] = 1
    set_seat(s, 1, hand=[AXE, FALL, FALL], deck=[FALL] * 4)
    set_seat(s, 2, hand=[FALL], deck=[BOSS, FALL, FALL, FALL])
    set_seat(s, 3, hand=[FALL], deck=[BOSS, FALL, FALL, FALL])
    turn_of(s, 0)
    return t, s, rng


def test_the_spouse_brings_back_a_boss_spouse_boss_revivals_times_a_team():
    """Without a bound the Boss came back, was fired again at once (everyone saw it come back)
    and the Spouse, reshuffled into a small deck, brought it back again, to the turn cap."""
    t, s, rng = _revived_boss()
    play(t, s, rng, SPOUSE, name=BOSS)
    assert s.hand[0, BOSS] == 1 and s.seat[0, constants.S_BOSS_LOST] == 0 and s.seat[0, constants.S_BOSS_REVIVALS] == 1
    play(t, s, rng, AXE, target=0, name=BOSS)  # player 2 fires it again
    assert s.unemp[0, BOSS] == 1 and s.g[constants.G_OVER] == 0
    for p in (0, 2):  # the team's one revival is spent: neither partner's Spouse may name a Boss now
        set_seat(s, p, hand=[SPOUSE, FALL], deck=[FALL] * 4, unemp=[BOSS, AXE])
        turn_of(s, p)
        assert encode(C, 0, SPOUSE, 0, AXE, NONE) in options(t, s)
        assert encode(C, 0, SPOUSE, 0, BOSS, NONE) not in options(t, s)
    t, s, rng = _revived_boss(spouse_boss_revivals=2)
    play(t, s, rng, SPOUSE, name=BOSS)
    play(t, s, rng, AXE, target=0, name=BOSS)
    set_seat(s, 2, hand=[SPOUSE, FALL], deck=[FALL] * 4, unemp=[BOSS])
    turn_of(s, 2)
    assert encode(C, 0, SPOUSE, 0, BOSS, NONE) in options(t, s)
    # the rulebook's team game: never
    t, s, rng = fresh(4, teams=True)
    set_seat(s, 0, hand=[SPOUSE, SECRETARY], deck=[FALL] * 4, unemp=[BOSS])
    turn_of(s, 0)
    assert encode(C, 0, SPOUSE, 0, BOSS, NONE) not in options(t, s)


def test_team_games_with_revivals_end_with_both_bosses_fired_not_the_cap():
    """Issue 40: with `spouse_revives_boss_in_teams` 110 of 400 greedy team games of seed 11 reached
    the turn cap. With the guard off, the bound alone ends them, either reading of the passed Boss."""
    for pass_boss in (True, False):
        ends = _ends({"spouse_revives_boss_in_teams": True, "no_progress_turns": 0, "team_pass_boss": pass_boss})
        assert set(ends) == {"teams_both_bosses"}, (pass_boss, {e: ends.count(e) for e in set(ends)})


def test_a_card_fired_again_after_a_revival_is_no_progress():
    """The no-progress guard counts the most cards the unemployment lines ever held: a Manager
    brought back and fired again only restores that count; a card fired beyond it is progress."""
    t, s, rng = fresh(2)
    set_seat(s, 0, hand=[SPOUSE, SECRETARY, FALL, FALL], deck=[AXE] * 6, unemp=[MANAGER])
    set_seat(s, 1, hand=[AXE, AXE, FALL], deck=[FALL] * 6)
    turn_of(s, 0)
    play(t, s, rng, FALL, plain=True)  # the first turn's end sees the line as it is
    start = s.g[constants.G_PROGRESS_TURN]
    play(t, s, rng, FALL, plain=True)
    play(t, s, rng, SPOUSE, name=MANAGER)
    assert s.unemp[0].sum() == 0
    play(t, s, rng, AXE, target=0, name=MANAGER)  # fired again: as many out as before
    assert s.unemp[0, MANAGER] == 1 and s.g[constants.G_PROGRESS_TURN] == start
    play(t, s, rng, FALL, plain=True)
    play(t, s, rng, AXE, target=0, name=SECRETARY)  # one more than ever: progress
    assert s.unemp[0].sum() == 2 and s.g[constants.G_PROGRESS_TURN] == s.g[constants.G_TURN] - 1


# ---------------------------------------------------------------- 2. replacing fired employees
def test_the_rulebook_replaces_every_fired_employee_by_default():
    assert SPEC.load_data({}).params["replace_fired_hand_only"] is False


def test_a_card_fired_from_a_break_room_is_replaced_at_once():
    """"When one of your employees is fired you will immediately draw to replace it. This may happen
    during an opponent's turn." The Bean Counter fires from the break room: its owner draws."""
    for hand_only, drawn in ((False, 1), (True, 0)):
        t, s, rng = fresh(2, replace_fired_hand_only=hand_only)
        set_seat(s, 0, hand=[BEAN, FALL], deck=[FALL] * 4)
        set_seat(s, 1, hand=[FALL] * 4, deck=[AXE, AXE, AXE, SECRETARY], brk=[SPOUSE])
        turn_of(s, 0)
        play(t, s, rng, BEAN, target=1, name=SPOUSE)
        assert s.unemp[1, SPOUSE] == 1 and to_move(s) == 1
        # the Secretary on top came at once, before player 2's own turn drew one more
        assert s.hand[1].sum() == 5 + drawn and s.deck_n[1] == 3 - drawn


# ---------------------------------------------------------------- 3. the Boss in a passed hand
def test_the_rulebook_passes_the_boss_by_default():
    assert SPEC.load_data({}).params["team_pass_boss"] is True


def _redirected(**params):
    """Player 1's Axe Man names player 2's Boss; a Manager takes the fall: the attempt failed, so
    player 2 reshuffles and passes their hand (the Boss, a Secretary) to player 4."""
    t, s, rng = fresh(4, teams=True, **params)
    set_seat(s, 0, hand=[AXE, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[BOSS, MANAGER, SECRETARY], deck=[FALL] * 4, brk=[AXE])
    set_seat(s, 2, hand=[FALL], deck=[BOSS, FALL, FALL, FALL])
    set_seat(s, 3, hand=[BOSS, FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, AXE, target=1, name=BOSS)
    answer(t, s, rng, MANAGER + 1)
    assert s.unemp[1, MANAGER] == 1 and s.seat[1, constants.S_RESHUFFLES] == 1
    return t, s


def test_a_reshuffling_player_passes_the_boss_in_hand_to_the_partner():
    """"Whenever a player reshuffles their hand, deck, and break room for any reason they must pass
    all of the employees in their hand to their partner." The Manager showed the Boss was there,
    so everyone knows it went to player 4."""
    t, s = _redirected()
    assert s.hand[3, BOSS] == 2 and s.hand[3, SECRETARY] == 1
    assert s.hand[1, BOSS] == 0 and BOSS not in list(s.deck[1, :s.deck_n[1]])
    for o in (0, 2):
        assert prob_in_hand(t[0], t[1], s[0], o, 3, BOSS) == 1.0
        assert prob_in_hand(t[0], t[1], s[0], o, 1, BOSS) == 0.0
    # team_pass_boss=false: it stays with player 2, shuffled into the deck
    t, s = _redirected(team_pass_boss=False)
    assert s.hand[3, BOSS] == 1 and s.hand[3, SECRETARY] == 1
    assert s.hand[1, BOSS] + list(s.deck[1, :s.deck_n[1]]).count(BOSS) == 1


def test_a_player_holding_both_bosses_of_the_team():
    """"That player fires their Boss, passes the rest of their hand to their partner" (the other
    Boss with it); "The game ends when both Bosses from either team have been fired.\""""
    t, s, rng = fresh(4, teams=True)
    set_seat(s, 0, hand=[AXE, FALL], deck=[FALL] * 4)
    set_seat(s, 1, hand=[FALL], deck=[FALL] * 4)
    set_seat(s, 2, hand=[AXE, FALL], deck=[FALL] * 4)
    set_seat(s, 3, hand=[BOSS, BOSS, FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, AXE, target=3, name=BOSS)
    assert s.unemp[3, BOSS] == 1 and s.g[constants.G_OVER] == 0
    assert s.hand[1, BOSS] == 1 and s.hand[3, BOSS] == 0
    turn_of(s, 2)
    play(t, s, rng, AXE, target=1, name=BOSS)
    assert s.g[constants.G_OVER] == 1 and s.g[constants.G_END] == constants.END.teams_both_bosses and s.g[constants.G_WINNER] == 0


def test_a_hand_of_bosses_only_is_a_forced_boss_play():
    """"having to play their Boss because they have no other cards in their hand": two Bosses
    (one passed by the partner) and nothing else."""
    t, s, rng = fresh(4, teams=True)
    set_seat(s, 0, hand=[BOSS, BOSS], deck=[])
    set_seat(s, 1, hand=[FALL], deck=[BOSS, FALL, FALL])
    set_seat(s, 2, hand=[FALL], deck=[FALL] * 4)
    turn_of(s, 0)
    play(t, s, rng, BOSS, target=1)
    assert s.g[constants.G_FORCED_OUT] == 1 and s.g[constants.G_FAILED_BLUFFS] == 0
    assert s.unemp[0, BOSS] == 1 and s.g[constants.G_OVER] == 0


def test_a_boss_play_is_open_against_either_opponent_while_their_team_stands():
    """With `team_boss_after_success=0` a team's Bosses may both be in the open (one fired, one in
    its break room): a player left with only a Boss must still have a play ("having to play their
    Boss"), an attempt on either opponent, who might hold a Boss passed to them."""
    t, s, rng = fresh(4, teams=True, team_boss_after_success=constants.BOSS_TO_BREAK_ROOM)
    set_seat(s, 0, hand=[BOSS], deck=[])
    set_seat(s, 1, hand=[FALL], deck=[FALL], unemp=[BOSS])
    s.seat[1, constants.S_BOSS_LOST] = 1
    set_seat(s, 3, hand=[FALL], deck=[FALL], brk=[BOSS])
    turn_of(s, 0)
    assert sorted(options(t, s)) == sorted(encode(C, 0, BOSS, p, NONE, NONE) for p in (1, 3))


def test_determinise_hides_which_partner_holds_a_passed_boss():
    """A Lawyer cancels player 1's Axe Man naming player 2's Boss: nobody saw whether it was there,
    but it was, and the hand passed to player 4 carried it. Player 1's worlds must not always
    know where it went: sometimes player 2 still has a Boss, or not, as player 1 expects (about half the worlds)."""
    t, s, rng = fresh(4, teams=True)
    set_seat(s, 0, hand=[AXE, FALL, SECRETARY], deck=[FALL] * 4)
    set_seat(s, 1, hand=[BOSS, LAWYER, SECRETARY, FALL], deck=[FALL] * 4, brk=[AXE])
    set_seat(s, 2, hand=[FALL], deck=[BOSS, FALL, FALL, FALL])
    set_seat(s, 3, hand=[BOSS, FALL], deck=[FALL] * 4)
    s.belief[:, 1, :] = s.belief[:, 3, :] = 0.0
    for o in (0, 2):  # what they expect of the hidden cards of players 2 and 4
        for p, cards in ((1, [BOSS, LAWYER, SECRETARY, FALL] + [FALL] * 4), (3, [BOSS, FALL] + [FALL] * 4)):
            for c in cards:
                s.belief[o, p, c] += 1.0
    turn_of(s, 0)
    play(t, s, rng, AXE, target=1, name=BOSS)
    answer(t, s, rng, LAWYER + 1)
    assert s.hand[3, BOSS] == 2 and s.seat[1, constants.S_RESHUFFLES] == 1
    turn_of(s, 0)
    real = card_totals(s).copy()
    with_boss = 0
    worlds = 60
    for k in range(worlds):
        w = view(clone(s))
        determinise(t, w, 0, R.new_streams(k, 9))
        assert (card_totals(w) == real).all()
        assert w.hand[1].sum() == s.hand[1].sum() and w.deck_n[1] == s.deck_n[1]
        with_boss += (w.hand[1, BOSS] + list(w.deck[1, :w.deck_n[1]]).count(BOSS)) > 0
    assert 0 < with_boss < worlds, with_boss


def test_determinised_team_worlds_are_states_of_the_game():
    """Team worlds, Bosses spread between opposing partners, pass the invariants (a team's two
    Bosses in the team) and stay valid as greedy plays them on."""
    from balance.simcore.youre_fired.invariants import check
    from tests.by_hand import play_on
    from balance.simcore.youre_fired.policies import greedy
    from balance.simcore.batch import policy_defaults

    data = SPEC.load_data({"teams": True})
    t = data.tables
    params = policy_defaults(SPEC, "greedy")

    def choose(st, seat, o, n, r):
        return greedy(t, st, seat, o, n, params, r)

    def valid(st):
        assert check(t, st) == 0

    worlds = 0
    for game in range(12):
        rng = R.new_streams(41, game)
        st = view(SPEC.kernels.new_game(t, np.int64(4), rng, np.zeros(0, np.int32)))
        play_on(SPEC, t, st, rng, choose, 20 + 4 * game, after=valid)
        if to_move(st) < 0:
            continue
        for k in range(3):
            w = view(clone(st))
            determinise(t, w, to_move(st), R.new_streams(game, k))
            valid(w)
            play_on(SPEC, t, w, rng.copy(), choose, 60, after=valid)
            worlds += 1
    assert worlds >= 20


def test_determinise_keeps_the_consultant_a_seat_was_dealt_where_a_passed_hand_took_it():
    """Player 1 looked at the consultant it was dealt ("Players will look at theirs") and passed it to
    player 3 with a hand: in player 1's worlds it is still that consultant, and the deal counters
    of the world stay a deal (none negative: the card's holder is not the player dealt it)."""
    t, s, rng = fresh(4, teams=True, seed=3)
    cards = t[0]
    mine = next(c for c in range(C) if cards[c, constants.CF_KIND] == constants.KIND_CONSULTANT and s.counts[0, c, constants.K_OWNED])
    set_seat(s, 0, hand=[AXE, FALL], deck=[FALL] * 4)
    set_seat(s, 2, hand=[mine, FALL, SECRETARY], deck=[FALL] * 4)
    s.removed[mine] = 0
    turn_of(s, 0)
    kept = 0
    for k in range(30):
        w = view(clone(s))
        determinise(t, w, 0, R.new_streams(k, 4))
        assert (w.counts[:4, :C, constants.K_OWNED] >= 0).all()
        assert w.counts[0, mine, constants.K_OWNED] == 1
        kept += (w.hand[2, mine] + list(w.deck[2, :w.deck_n[2]]).count(mine)) == 1
    assert kept == 30
