"""The rulebook's worked examples, played from constructed states."""
import numpy as np

from .helpers import constants, TABLES, assignment, events, fresh, give, kind, new_trace, opt, options, play, slot, to_move

AHDN = "A Hard Day's Night"
LGR = "Lead Generation Report"


def test_a_hard_days_night_on_the_lead_generation_report():
    """p.'Work Cards': AHDN completes 2 of LGR's 3 tasks, gives 2 snooze, stays attached;
    it goes to the discard pile when LGR is completed."""
    s, rng = fresh()
    c = give(s, 0, AHDN)
    give(s, 0, "Busy Work")
    lgr = assignment(s, 0, LGR)
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, AHDN), lgr))
    assert s.tasks[lgr] == 2 and s.zone[lgr] == constants.Z_ASSIGN  # needs 3: not complete
    assert s.zone[c] == constants.Z_ATTACHED and s.link[c] == lgr and s.tasks[c] == 2
    assert s.ps[0, constants.P_SNOOZE] == 2
    assert s.g[constants.G_ACTIONS_USED] == 1
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "Busy Work"), lgr))
    assert s.zone[lgr] == constants.Z_OUT  # complete: discarded with its W cards
    assert s.zone[c] == constants.Z_DISCARD
    assert s.ps[0, constants.P_COMPLETED] == 1 and s.ps[0, constants.P_N_ASSIGN] == 4


def test_cancelled_work_loses_its_tasks():
    """'If any effect removes or cancels a W card attached ... all the Tasks gained with that W card are also lost.'"""
    s, rng = fresh()
    c = give(s, 0, AHDN)
    give(s, 0, "Busy Work")
    give(s, 1, "Lost File")
    lgr = assignment(s, 0, LGR)
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, AHDN), lgr))  # P2 could react, but the greedy-free test passes
    if to_move(s) == 1:
        play(s, rng, opt(constants.O_END))  # P2 keeps Lost File for the next W card
    assert s.tasks[lgr] == 2
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "Busy Work"), assignment(s, 0, "User Experience Survey")))
    assert to_move(s) == 1
    play(s, rng, opt(constants.O_REACT, slot(s, 1, "Lost File"), 0))
    # Lost File resolves first: AHDN (2 tasks, the most) leaves LGR; then Busy Work's task lands.
    assert s.zone[c] == constants.Z_DISCARD and s.tasks[lgr] == 0


def test_work_is_its_own_reward_trigger():
    """WIIOR reacts only to another player completing an A card and gives one of your
    A cards to the player with the fewest; it cannot be played on the W card itself."""
    s, rng = fresh()
    give(s, 0, "Busy Work")
    give(s, 1, "Work Is Its Own Reward")
    uxs = assignment(s, 0, "User Experience Survey")  # 2 tasks
    s.tasks[uxs] = 1
    trace = new_trace()
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "Busy Work"), uxs), trace)
    # the W card's own window passed P2 by (no trigger); the completion opened a new one
    assert s.zone[uxs] == constants.Z_OUT
    assert s.g[constants.G_PHASE] == constants.PH_REACT and to_move(s) == 1
    assert s.pile[0, constants.PF_CARD] == -1 and s.pile[0, constants.PF_PLAYER] == 0
    assert options(s) == [opt(constants.O_END), opt(constants.O_REACT, slot(s, 1, "Work Is Its Own Reward"), 0)]
    before = s.ps[1, constants.P_N_ASSIGN]
    play(s, rng, opt(constants.O_REACT, slot(s, 1, "Work Is Its Own Reward"), 0))
    # which of P2's A cards to give is P2's decision (rule version 2)
    assert s.g[constants.G_PHASE] == constants.PH_CHOOSE and to_move(s) == 1
    play(s, rng, opt(constants.O_CHOOSE, 0, assignment(s, 1, "The Quarterly Report")))
    assert s.ps[0, constants.P_N_ASSIGN] == 5 and s.ps[1, constants.P_N_ASSIGN] == before - 1
    assert s.ps[1, constants.P_GIVEN] == 1 and s.ps[0, constants.P_RECEIVED] == 1
    codes = events(trace)[:, 0]
    assert constants.EV_COMPLETE in codes and constants.EV_EVENT in codes


def last_assignment_left(s):
    """P1 down to one Assignment, User Experience Survey: the other four out of the game."""
    for name in ("Lead Generation Report", "Project Cost Breakdown", "The Quarterly Report", "Monthly Sales Forecast"):
        a = assignment(s, 0, name)
        s.zone[a] = constants.Z_OUT
        s.owner[a] = -1
    s.ps[0, constants.P_N_ASSIGN] = 1


def test_last_assignment_given_back_before_the_turn_ends():
    """'Unless another player can give them an Assignment before the end of that turn'."""
    s, rng = fresh()
    last_assignment_left(s)
    uxs = assignment(s, 0, "User Experience Survey")
    give(s, 0, "Burning the Midnight Oil")
    give(s, 2, "Work Is Its Own Reward")
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "Burning the Midnight Oil"), uxs))
    assert s.ps[0, constants.P_N_ASSIGN] == 0 and to_move(s) == 2
    play(s, rng, opt(constants.O_REACT, slot(s, 2, "Work Is Its Own Reward"), 0))
    play(s, rng, opt(constants.O_CHOOSE, 0, assignment(s, 2, "The Quarterly Report")))  # P3 chooses what to give
    assert s.ps[0, constants.P_N_ASSIGN] == 1
    while s.g[constants.G_CUR] == 0 and to_move(s) == 0:
        play(s, rng, options(s)[0])
    assert s.g[constants.G_END] == 0  # the game goes on

    # the same without the reaction: P1 wins at the end of the turn
    s, rng = fresh()
    last_assignment_left(s)
    give(s, 0, "Burning the Midnight Oil")
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "Burning the Midnight Oil"), assignment(s, 0, "User Experience Survey")))
    while to_move(s) == 0:
        play(s, rng, options(s)[0])
    assert s.g[constants.G_END] == constants.END.assignments_done and s.ps[0, constants.P_WON] == 1 and to_move(s) == -1


def test_the_pile_example():
    """Page 8: Watchful Eye may target only the top of either pile (Power Outage or
    I'll Just Copy That!), not the covered "Quick" Data Check; piles resolve newest
    first, top down, the lead last."""
    s, rng = fresh()
    give(s, 0, AHDN)
    give(s, 0, "Watchful Eye")
    give(s, 1, "\"Quick\" Data Check")
    give(s, 2, "Power Outage")
    give(s, 3, "I'll Just Copy That!")
    lgr = assignment(s, 0, LGR)
    trace = new_trace()
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, AHDN), lgr), trace)
    assert to_move(s) == 1  # offers start at the acting player's left
    play(s, rng, opt(constants.O_REACT, slot(s, 1, "\"Quick\" Data Check"), 0), trace)  # pile A on the lead
    play(s, rng, opt(constants.O_CHOOSE, 0, assignment(s, 1, "User Experience Survey")), trace)  # its task: P2's choice
    assert to_move(s) == 2
    assert set(options(s)) == {opt(constants.O_END), opt(constants.O_REACT, 0, 0), opt(constants.O_REACT, 0, 1)}
    play(s, rng, opt(constants.O_REACT, 0, 1), trace)  # Power Outage covers "Quick" Data Check
    assert to_move(s) == 3
    assert options(s) == [opt(constants.O_END), opt(constants.O_REACT, 0, 0)]  # the covered card is no target
    play(s, rng, opt(constants.O_REACT, 0, 0), trace)  # pile B: I'll Just Copy That! on the lead
    play(s, rng, opt(constants.O_CHOOSE, 0, assignment(s, 3, "User Experience Survey")), trace)  # the copied work: P4's
    assert to_move(s) == 0
    we = slot(s, 0, "Watchful Eye")
    assert set(options(s)) == {opt(constants.O_END), opt(constants.O_REACT, we, 2), opt(constants.O_REACT, we, 3)}
    p4_before = s.ps[3, constants.P_SNOOZE]
    play(s, rng, opt(constants.O_REACT, we, 2), trace)  # Watchful Eye on Power Outage
    resolved = [(int(r[2]), int(r[3])) for r in events(trace) if r[0] == constants.EV_RESOLVE]
    order = [kind("I'll Just Copy That!"), kind("Watchful Eye"), kind("Power Outage"),
             kind("\"Quick\" Data Check"), kind(AHDN)]
    assert [k for k, _ in resolved] == order
    assert [c for _, c in resolved] == [0, 0, 1, 0, 0]  # only Power Outage was canceled
    assert s.tasks[lgr] == 2  # the lead resolved
    assert s.ps[3, constants.P_SNOOZE] == p4_before + 2  # the copy gave P4 AHDN's effect
    assert s.ps[1, constants.P_COMPLETED] + int(np.sum(s.tasks[TABLES[0][constants.R_A0]:TABLES[0][constants.R_J0]][
        s.owner[TABLES[0][constants.R_A0]:TABLES[0][constants.R_J0]] == 1])) >= 1  # "Quick" Data Check's task landed
    assert s.g[constants.G_PILE_N] == 0 and s.g[constants.G_PHASE] == constants.PH_ACTION


def test_tired_work_needs_the_die_and_exhaustion_skips():
    s, rng = fresh()
    s.ps[0, constants.P_SNOOZE] = 5  # 4-6: -1 Productiveness, W cards need 3+
    give(s, 0, "Busy Work")
    assert s.g[constants.G_ACTIONS_USED] == 0
    trace = new_trace()
    play(s, rng, opt(constants.O_PLAY, 0, assignment(s, 0, LGR)), trace)
    dice = [r for r in events(trace) if r[0] == constants.EV_DIE]
    assert len(dice) == 1 and dice[0][4] == 3
    # 10+ during the turn: discard all snooze, skip the rest ("skip your turn": draw 2)
    s, rng = fresh()
    s.ps[0, constants.P_SNOOZE] = 8
    give(s, 0, "Burning the Midnight Oil")
    give(s, 0, "Coffee Break")
    for _ in range(50):  # find a die roll that succeeds (5+)
        s2 = s.copy()
        r2 = rng.copy()
        play(s2, r2, opt(constants.O_PLAY, slot(s2, 0, "Burning the Midnight Oil"), assignment(s2, 0, LGR)))
        if s2.ps[0, constants.P_EXHAUSTED] == 1:
            break
        rng[1] += np.uint64(1)
    assert s2.ps[0, constants.P_EXHAUSTED] == 1 and s2.ps[0, constants.P_SNOOZE] == 0 and s2.ps[0, constants.P_SKIPPED] == 1
    assert s2.g[constants.G_CUR] == 1  # the turn ended


def test_first_employee_is_free_and_replaces_joe():
    s, rng = fresh()
    give(s, 0, "The Workaholic")
    joe = s.ps[0, constants.P_EMP]
    play(s, rng, opt(constants.O_PLAY, 0, 0))
    assert s.g[constants.G_ACTIONS_USED] == 0 and s.zone[joe] == constants.Z_DISCARD
    assert TABLES[3][s.ps[0, constants.P_EMP]] == kind("The Workaholic")
