"""--vary SPEC parsing: ranges, lists, list-valued and per-seat parameters."""
import pytest

from balance.analysis.sweep import grid
from balance.simcore import registry
from balance.simcore.errors import BalanceError


def test_list_and_range_specs():
    ot = registry.get("overtime")
    assert grid(ot, ["snooze_thresholds=4-7-10|5-8-11"]) == [{"snooze_thresholds": [4, 7, 10]},
                                                             {"snooze_thresholds": [5, 8, 11]}]
    assert [p["rounds"] for p in grid(ot, ["rounds=6..8"])] == [6, 7, 8]
    assert len(grid(ot, ["rounds=6..8", "starting_hand=3,4"])) == 6


def test_per_seat_numbers_sweep_as_lists_or_as_one_value_for_all_seats():
    party = registry.get("sickdays-party")
    assert grid(party, ["reaction_median=1.5..2.5:0.5"]) == [{"reaction_median": [v]} for v in (1.5, 2.0, 2.5)]
    assert grid(party, ["reaction_median=1.5,2,2.5|2,2,2"]) == [{"reaction_median": [1.5, 2.0, 2.5]},
                                                               {"reaction_median": [2.0, 2.0, 2.0]}]


def test_bad_vary_names_the_parameter_and_the_allowed_values():
    ot = registry.get("overtime")
    with pytest.raises(BalanceError, match="rounds"):
        grid(ot, ["rounds=0..3"])
    with pytest.raises(BalanceError, match="each parameter may be varied once"):
        grid(ot, ["rounds=6,7", "rounds=8"])
