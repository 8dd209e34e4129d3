"""`value`, the search's judge of a state (fitted on greedy self-play: tests/fit_overtime_value.py)."""
from balance.simcore.overtime.rules import value

from .helpers import constants, TABLES, DATA, fresh, give

REACTION = next(n for i, n in enumerate(DATA.card_names)
                if i < len(TABLES[1]) and TABLES[1][i, constants.KF_IS_REACTION] and TABLES[1][i, constants.KF_TYPE] != 0)


def test_an_unfinished_game_is_worth_less_than_a_win_and_more_than_a_loss():
    s, _ = fresh()
    v = value(TABLES, s, 0)
    assert 0.0 < v < 1.0
    s.g[constants.G_PHASE] = constants.PH_OVER
    s.ps[0, constants.P_WON] = 1
    assert value(TABLES, s, 0) == 1.0


def test_snooze_lowers_it_and_a_reaction_in_hand_raises_it():
    s, _ = fresh()
    v0 = value(TABLES, s, 0)
    s.ps[0, constants.P_SNOOZE] = 3
    v1 = value(TABLES, s, 0)
    assert v1 < v0
    give(s, 0, REACTION)
    assert value(TABLES, s, 0) > v1


def test_fewer_rounds_left_lower_it():
    s, _ = fresh()
    v0 = value(TABLES, s, 0)
    s.g[constants.G_ROUND] = 5
    assert value(TABLES, s, 0) < v0
