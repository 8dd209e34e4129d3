import pytest

from balance.simcore.errors import BalanceError
from balance.simcore.params import coerce, user_params
from balance.simcore.spec import Param
from dataclasses import replace
from toygame import SPEC

THRESH = Param("snooze_thresholds", "ints", [4, 7, 10], "tiredness boundaries", 1, 30, length=3)
PIZZAS = Param("ready_pizzas", "int", None, "ready pizzas", 0, 6)
WILD = Param("diagonals", "bool", True, "diagonals count")
GAME = replace(SPEC, params=(THRESH, PIZZAS, WILD))


@pytest.mark.parametrize("raw", ["5,8,11", "5-8-11", [5, 8, 11]])
def test_int_lists_in_both_spellings(raw):
    assert coerce(THRESH, raw, "--set") == [5, 8, 11]


@pytest.mark.parametrize("raw,why", [("5,8", "needs 3 values"), ("5,x,9", "not a list"), ("0,8,11", "out of range")])
def test_bad_lists_name_the_parameter_and_allowed_values(raw, why):
    with pytest.raises(BalanceError) as e:
        coerce(THRESH, raw, "--set")
    msg = str(e.value)
    assert "snooze_thresholds" in msg and why in msg and "allowed: a list of 3 integers in 1..30" in msg


def test_ints_and_bools():
    assert coerce(PIZZAS, "3", "--set") == 3
    assert coerce(WILD, "no", "--set") is False
    for bad in ("7", "2.5", "many"):
        with pytest.raises(BalanceError, match="allowed: an integer in 0..6"):
            coerce(PIZZAS, bad, "--set")


def test_unknown_parameter_lists_the_known_ones():
    with pytest.raises(BalanceError, match="has no parameter 'pizza'; allowed: snooze_thresholds, ready_pizzas, diagonals"):
        user_params(GAME, ["pizza=3"])
    with pytest.raises(BalanceError, match="not NAME=VALUE"):
        user_params(GAME, ["pizza"])


def test_params_file_then_set(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text("ready_pizzas = 2\nsnooze_thresholds = [3, 6, 9]\n")
    assert user_params(GAME, ["ready_pizzas=4"], f) == {"ready_pizzas": 4, "snooze_thresholds": [3, 6, 9]}
    f.write_text("ready_pizzas = 9\n")
    with pytest.raises(BalanceError, match=str(f)):
        user_params(GAME, [], f)
    f.write_text("ready_pizzas = \n")
    with pytest.raises(BalanceError, match="not valid TOML"):
        user_params(GAME, [], f)


SPEEDS = Param("reaction_median", "floats", None, "seconds, one per seat", 0.05, 30.0)


@pytest.mark.parametrize("raw,expected", [("0.8,1.2,1.6", [0.8, 1.2, 1.6]), ("1.5", [1.5]), (2, [2.0]),
                                          ([1, 2.5], [1.0, 2.5]), (" 1e0 , 2 ", [1.0, 2.0])])
def test_float_lists(raw, expected):
    assert coerce(SPEEDS, raw, "--set") == expected


@pytest.mark.parametrize("raw,why", [("0.8,fast", "not a list of numbers"), ("0.8,nan", "not a list of numbers"), ("0.8,inf", "not a list of numbers"),
                                     ("0.01", "out of range"), ("", "needs at least one")])
def test_bad_float_lists_name_the_parameter_and_allowed_values(raw, why):
    with pytest.raises(BalanceError) as e:
        coerce(SPEEDS, raw, "--set")
    msg = str(e.value)
    assert "reaction_median" in msg and why in msg and "allowed: a list of numbers in 0.05..30" in msg
