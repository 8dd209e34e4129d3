"""Scoring: the rulebook's worked example and every Bonus opcode."""
import pytest

from balance.simcore.four_day_weekend.scoring import score_set

from .helpers import NAMES, TABLES


def score(**kw):
    return score_set(TABLES, names=NAMES, **kw)


def test_rulebook_example_red_cash_doubled_then_tripled_is_twelve():
    # "a two-point, red Cash Necessity in a set with an Activity card that doubles
    # red Necessities ... is now worth four points. If you also have a Bonus card
    # that triples Cash points, you've lucked your way into a massive twelve points"
    total, contrib = score(excuse="Jury Duty", activity="Rock Concert", necessities=["Birthday Card"], bonus="Cash Advance")
    activity, food, transportation, shelter, cash, bonus = contrib
    assert activity == 1  # Rock Concert: 1 point, wheel red + yellow
    assert cash == 4  # doubled by the wheel
    assert cash + bonus == 12  # then tripled by the Bonus
    assert total == 13


def test_without_bonus_the_red_cash_is_doubled_only():
    total, contrib = score(excuse="Jury Duty", activity="Rock Concert", necessities=["Birthday Card"])
    assert contrib[4] == 4 and total == 5


def test_colour_off_the_wheel_is_not_doubled():
    # Rock Concert doubles red and yellow; Lottery Ticket is a blue 2-point Cash
    total, _ = score(excuse="Jury Duty", activity="Rock Concert", necessities=["Lottery Ticket"])
    assert total == 1 + 2


@pytest.mark.parametrize("kw", [
    dict(activity="Rock Concert", necessities=["Birthday Card"]),  # no Excuse
    dict(excuse="Jury Duty", necessities=["Birthday Card"], bonus="Cash Advance"),  # no Activity
    dict(excuse="Jury Duty", activity="Rock Concert", bonus="Long Weekend"),  # no Necessity
])
def test_only_complete_sets_score(kw):
    assert score(**kw) == (0, [0] * 6)


@pytest.mark.parametrize("bonus,necs,expected", [
    # Go-Kart Racing: red activity, 2 points, wheel red. Tacos red food 2, Sushi yellow food 2,
    # Bus Pass red transportation 2, Hammock yellow shelter 1, Spare Change red cash 1.
    ("Free Room Upgrade", ["Hammock"], 2 + 1 * 3),  # multiply_type shelter x3
    ("All You Can Eat", ["Tacos"], 2 + 4 * 2),  # multiply_type food x2 after doubling
    ("Paid Time Off", ["Tacos", "Hammock"], 2 + 4 + 1 + 2),  # +1 per Necessity
    ("Perfect Alibi", ["Sushi"], 2 * 2 + 2),  # doubles the Activity
    ("Red Letter Day", ["Tacos", "Hostel"], 2 + 4 * 2 + 2),  # red Necessities x2
    ("Full Package", ["Tacos", "Bus Pass", "Hammock", "Spare Change"], 2 + 4 + 4 + 1 + 2 + 6),
    ("Full Package", ["Tacos", "Bus Pass"], 2 + 4 + 4),
    ("Long Weekend", ["Sushi"], 2 + 2 + 3),
    ("Road Trip", ["Bus Pass", "Tacos", "Hostel"], 2 + 4 + 4 + 2 + 2 + 2),  # +2 with transportation, +1 per doubled
])
def test_bonus_instructions(bonus, necs, expected):
    total, contrib = score(excuse="Jury Duty", activity="Go-Kart Racing", necessities=necs, bonus=bonus)
    assert total == expected
    assert sum(contrib) == total
