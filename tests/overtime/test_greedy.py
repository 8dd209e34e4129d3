"""Greedy's version-1 blind spots (issue 22 item 5), each fixed behind a switch that
restores version 1 at 0: the fix changes the choice in a constructed state."""
import numpy as np
import pytest

from balance.simcore import rng as R
from balance.simcore.batch import resolve_policy
from balance.simcore.overtime import SPEC
from balance.simcore.overtime.policies import greedy

from .helpers import constants, DATA, assignment, fresh, give, opt, options, play, slot

OLD = {"rest_spare": 0, "value_abilities": 0, "cancel_employee": 0, "useful_tasks": 0}


def pick(s, seat, **overrides):
    params = np.array(resolve_policy(SPEC, "greedy", overrides).params, float)
    opts = np.array(options(s), np.int64)
    return int(opts[greedy(DATA.tables, s, seat, opts, len(opts), params, R.new_streams(1, 0))])


def test_useful_tasks_no_credit_for_overshooting():
    """Burning the Midnight Oil (3 tasks) with a User Experience Survey one task short:
    version 1 put it there (3 tasks counted, and a bonus for overshooting); now it goes
    on an A card that needs all three."""
    s, rng = fresh()
    give(s, 0, "Burning the Midnight Oil")
    uxs = assignment(s, 0, "User Experience Survey")
    s.tasks[uxs] = 1
    old = pick(s, 0, useful_tasks=0)
    new = pick(s, 0)
    assert old >> 24 == constants.O_PLAY and old & 0xFFF == uxs
    a = new & 0xFFF
    assert new >> 24 == constants.O_PLAY and a != uxs
    assert DATA.tables[1][DATA.tables[3][a], constants.KF_TASKS] - s.tasks[a] == 3


def test_rest_spare_plays_a_rest_card_with_a_spare_action():
    """Coffee Break at 2 Snooze crosses no level: version 1 kept it (to the end of the game,
    0.80 per seat-game); now a spare action rests."""
    s, rng = fresh()
    s.ps[0, constants.P_SNOOZE] = 2
    give(s, 0, "Coffee Break")
    assert pick(s, 0, rest_spare=0) == opt(constants.O_END)
    assert pick(s, 0) == opt(constants.O_PLAY, slot(s, 0, "Coffee Break"), 0)
    s.ps[0, constants.P_SNOOZE] = 0  # nothing to remove: kept
    assert pick(s, 0) == opt(constants.O_END)


def test_value_abilities_counts_an_employee_ability():
    """The Schmoozer ("remove 2 Snooze tokens from yourself" once per round) at 5 Snooze:
    version 1 valued every ability at 0.3 and never played it over Average Joe."""
    s, rng = fresh()
    s.ps[0, constants.P_SNOOZE] = 5
    give(s, 0, "The Schmoozer")
    assert pick(s, 0, value_abilities=0) == opt(constants.O_END)
    assert pick(s, 0) == opt(constants.O_PLAY, slot(s, 0, "The Schmoozer"), 0)


def test_cancel_employee_values_performance_review():
    """Performance Review on the leader's Workaholic: version 1 saw no effect to cancel."""
    s, rng = fresh()
    give(s, 0, "The Workaholic")
    give(s, 1, "Performance Review")
    for name in ("Lead Generation Report", "Project Cost Breakdown"):
        a = assignment(s, 0, name)
        s.tasks[a] = 2  # P1 is 4 tasks ahead
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "The Workaholic"), 0))
    assert s.g[constants.G_PHASE] == constants.PH_REACT and s.g[constants.G_OFFER] == 1
    assert pick(s, 1, cancel_employee=0) == opt(constants.O_END)
    assert pick(s, 1) == opt(constants.O_REACT, slot(s, 1, "Performance Review"), 0)


@pytest.mark.parametrize("name", sorted(OLD))
def test_every_switch_is_a_declared_greedy_parameter(name):
    p = next(p for p in SPEC.policy("greedy").params if p.name == name)
    assert p.default == 1.0 and "version 1" in p.help
