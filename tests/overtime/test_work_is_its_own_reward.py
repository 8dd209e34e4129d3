"""Work Is Its Own Reward read by its words (issue 40, item 11): "React to another player
completing an A card. Give one of your A cards to the player that has the least amount of A
cards left, or is tied for the least." The player with the fewest is counted among every
player, the card's player included (`least_assignments_includes_yourself`, default true): a
player who alone has the fewest gives nothing (giving to yourself is no give); one tied for the
fewest gives to another tied player. The card stays playable (its trigger, another player
completing an A card, is what the rulebook asks of a reaction), and its recipient is judged when
it resolves. Played from constructed states; the first test fails on the reading before the fix
(the fewest among the other players only)."""
import numpy as np
import pytest

from balance.simcore import rng as R
from balance.simcore.batch import resolve_policy
from balance.simcore.overtime import SPEC
from balance.simcore.overtime.cards import load_data
from balance.simcore.overtime.policies import greedy

from .helpers import constants, DATA, assignment, events, fresh, give, lines, new_trace, opt, options, play, slot, to_move

WIIOR = "Work Is Its Own Reward"
UXS = "User Experience Survey"
A_CARDS = ("Lead Generation Report", "Project Cost Breakdown", "The Quarterly Report", "Monthly Sales Forecast", UXS)
OLD = load_data({"least_assignments_includes_yourself": False})  # the reading before the fix


def holding(s, p, n, data=DATA, keep=UXS):
    """p keeps n of their A cards (`keep` among them): the others leave play as if completed."""
    for name in A_CARDS:
        if n >= s.ps[p, constants.P_N_ASSIGN]:
            break
        if name == keep:
            continue
        a = assignment(s, p, name, data)
        s.zone[a] = constants.Z_OUT
        s.owner[a] = -1
        s.ps[p, constants.P_N_ASSIGN] -= 1
    assert s.ps[p, constants.P_N_ASSIGN] == n


def p1_completes(data=DATA, held=None):
    """P1 completes their User Experience Survey with Busy Work (its last task); P2 holds Work Is
    Its Own Reward; `held`: how many A cards each seat holds before (default 5 each)."""
    s, rng = fresh(data=data)
    for p, n in enumerate(held or (5, 5, 5, 5)):
        holding(s, p, n, data)
    give(s, 0, "Busy Work", data)
    give(s, 1, WIIOR, data)
    uxs = assignment(s, 0, UXS, data)
    s.tasks[uxs] = 1
    trace = new_trace()
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "Busy Work", data), uxs), trace, data)
    assert s.zone[uxs] == constants.Z_OUT and s.g[constants.G_PHASE] == constants.PH_REACT and to_move(s) == 1
    return s, rng, trace


def pass_reactions(s, rng, trace, data=DATA):
    while s.g[constants.G_PHASE] == constants.PH_REACT:
        play(s, rng, opt(constants.O_END), trace, data)


@pytest.mark.parametrize("fewest", [1, 2])
def test_alone_with_the_fewest_gives_nothing(fewest):
    """P2 holds the fewest A cards (1 or 2; the others 4 or 5): "the player that has the least"
    is P2, so the card is played (another player completed an A card) and gives nothing. Before
    the fix P2 gave one to P1, and with 1 left won by giving away the last (seed 2026, game 1)."""
    s, rng, trace = p1_completes(held=(5, fewest, 5, 5))
    react = opt(constants.O_REACT, slot(s, 1, WIIOR), 0)
    assert react in options(s)  # its trigger happened: playable
    play(s, rng, react, trace)
    assert s.g[constants.G_PHASE] != constants.PH_CHOOSE  # nobody to give to: no A card to choose
    pass_reactions(s, rng, trace)
    assert s.ps[1, constants.P_N_ASSIGN] == fewest and s.ps[0, constants.P_N_ASSIGN] == 4
    assert s.ps[1, constants.P_GIVEN] == 0 and s.ps[0, constants.P_RECEIVED] == 0 and s.g[constants.G_GIVES] == 0
    codes = events(trace)[:, 0]
    assert constants.EV_NO_RECIPIENT in codes and constants.EV_GIVE not in codes
    assert f"  P2 alone has the fewest A cards ({fewest}): no one to give one to." in lines(trace)


def test_the_reading_before_the_fix_is_a_rule_parameter():
    """`least_assignments_includes_yourself=false`: the fewest among the other players, so P2
    (alone with 1) gives its last A card to P1."""
    s, rng, trace = p1_completes(OLD, held=(5, 1, 5, 5))
    play(s, rng, opt(constants.O_REACT, slot(s, 1, WIIOR, OLD), 0), trace, OLD)
    pass_reactions(s, rng, trace, OLD)
    assert s.ps[1, constants.P_N_ASSIGN] == 0 and s.ps[0, constants.P_N_ASSIGN] == 5 and s.ps[1, constants.P_GIVEN] == 1
    assert constants.EV_NO_RECIPIENT not in events(trace)[:, 0]


def test_tied_for_the_fewest_gives_to_another_tied_player():
    """P2 and P3 hold 2 A cards each (P1 4 after completing, P4 5): P3 "is tied for the least",
    so P2 gives to P3 (the A card is P2's choice)."""
    s, rng, trace = p1_completes(held=(5, 2, 2, 5))
    play(s, rng, opt(constants.O_REACT, slot(s, 1, WIIOR), 0), trace)
    assert s.g[constants.G_PHASE] == constants.PH_CHOOSE and to_move(s) == 1
    play(s, rng, opt(constants.O_CHOOSE, 0, assignment(s, 1, UXS)), trace)
    pass_reactions(s, rng, trace)
    assert s.ps[1, constants.P_N_ASSIGN] == 1 and s.ps[2, constants.P_N_ASSIGN] == 3 and s.ps[0, constants.P_N_ASSIGN] == 4
    assert s.owner[assignment(s, 2, UXS)] == 2


def test_ties_go_to_the_player_who_completed():
    """P1 completes down to 2, tied with P2 (the card's player) and P3: P2 gives to P1, the
    player who completed the A card, before P3."""
    s, rng, trace = p1_completes(held=(3, 2, 2, 5))
    play(s, rng, opt(constants.O_REACT, slot(s, 1, WIIOR), 0), trace)
    play(s, rng, opt(constants.O_CHOOSE, 0, assignment(s, 1, UXS)), trace)
    pass_reactions(s, rng, trace)
    assert s.ps[0, constants.P_N_ASSIGN] == 3 and s.ps[1, constants.P_N_ASSIGN] == 1 and s.ps[2, constants.P_N_ASSIGN] == 2


def test_the_player_with_the_fewest_is_judged_when_the_card_resolves():
    """P2, alone with 1 A card, plays the card; P3 (3 A cards) then plays another copy on the
    same completion, which resolves first (newest pile first) and gives P2 an A card. When P2's
    card resolves P2 is tied with P3 at 2, so it gives one to P3: what counts is the table when
    the card resolves ("Any card added to the Pile will have its effect happen unless it was
    canceled"), not when it was played."""
    s, rng, trace = p1_completes(held=(5, 1, 3, 5))
    give(s, 2, WIIOR)
    play(s, rng, opt(constants.O_REACT, slot(s, 1, WIIOR), 0), trace)
    assert to_move(s) == 2
    play(s, rng, opt(constants.O_REACT, slot(s, 2, WIIOR), 0), trace)
    qr = assignment(s, 2, "The Quarterly Report")
    play(s, rng, opt(constants.O_CHOOSE, 0, qr), trace)  # P3 gives The Quarterly Report (to P2, alone the fewest)
    pass_reactions(s, rng, trace)
    assert s.ps[1, constants.P_N_ASSIGN] == 1 and s.ps[2, constants.P_N_ASSIGN] == 3
    assert s.owner[qr] == 2  # back to P3: P2 gave the A card with the most tasks left (the fixed rule)
    assert s.ps[1, constants.P_RECEIVED] == 1 and s.ps[1, constants.P_GIVEN] == 1 and constants.EV_NO_RECIPIENT not in events(trace)[:, 0]


def pick(s, seat, data):
    params = np.array(resolve_policy(SPEC, "greedy").params, float)
    opts = np.array(options(s, data), np.int64)
    return int(opts[greedy(data.tables, s, seat, opts, len(opts), params, R.new_streams(1, 0))])


def test_greedy_does_not_value_a_give_to_nobody():
    """Greedy reads the card as the engine does: alone with the fewest, P2 keeps the card (a give
    to nobody is worth nothing); under the reading before the fix it plays it to give away its
    last A card; tied for the fewest it plays it."""
    s, rng, trace = p1_completes(held=(5, 1, 5, 5))
    assert pick(s, 1, DATA) == opt(constants.O_END)
    s, rng, trace = p1_completes(OLD, held=(5, 1, 5, 5))
    assert pick(s, 1, OLD) == opt(constants.O_REACT, slot(s, 1, WIIOR, OLD), 0)
    s, rng, trace = p1_completes(held=(5, 2, 2, 5))
    assert pick(s, 1, DATA) == opt(constants.O_REACT, slot(s, 1, WIIOR), 0)
