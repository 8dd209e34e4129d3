"""The card-by-card diff of two card lists (reports.card_diff), for the compare report."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from balance.reports.card_diff import ABSENT, card_diff_table, diff_card_lists, split
from balance.simcore.errors import BalanceError
from balance.simcore.files import data_file
from balance.simcore.gamedata import CardList, GameData

BASE = """
suits = ["clubs", "hearts"]

[[rank]]
name = "A"
effects = [{op = "skip"}]

[[rank]]
name = "2"
effects = [{op = "draw", n = 2}]

[[rank]]
name = "3"

[[rank]]
name = "4"
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_same_lists_have_no_difference(tmp_path):
    a = write(tmp_path, "a.toml", BASE)
    b = write(tmp_path, "b.toml", BASE)
    d = diff_card_lists(a, b)
    assert d.same and d.unchanged == 4 and not d.rows()
    assert "hold the same cards" in d.words() and "identical content" in d.words()


def test_added_removed_changed_field_by_field(tmp_path):
    a = write(tmp_path, "a.toml", BASE)
    text = (BASE.replace('name = "2"\neffects = [{op = "draw", n = 2}]', 'name = "2"\neffects = [{op = "draw", n = 4}]')
            .replace('[[rank]]\nname = "4"\n', '') + '\n[[rank]]\nname = "Joker"\neffects = [{op = "wild"}]\n')
    text = text.replace('suits = ["clubs", "hearts"]', 'suits = ["clubs", "hearts", "spades"]')
    b = write(tmp_path, "b.toml", text)
    d = diff_card_lists(a, b)
    assert [c.name for c in d.added] == ["Joker"] and [c.name for c in d.removed] == ["4"]
    (ch,) = d.changed
    assert ch.name == "2" and [(f.field, f.a, f.b) for f in ch.fields] == [("effects[0].n", 2, 4)]
    assert [(f.field, f.a, f.b) for f in d.file_fields] == [("suits", ["clubs", "hearts"], ["clubs", "hearts", "spades"])]
    assert d.unchanged == 2
    words = d.words()
    assert words.startswith(f"B's card list ({b}) against A's ({a}) adds 1 card (Joker), removes 1 card (4), "
                            f"changes 1 card (2: effects[0].n 2 → 4) and changes suits [clubs, hearts] → "
                            f"[clubs, hearts, spades]")
    assert words.endswith("2 cards are unchanged.")
    assert ["removed", "rank", "4", "", "present", ""] in d.rows()
    assert ["changed", "rank", "2", "effects[0].n", "2", "4"] in d.rows()
    json.dumps(d.to_dict())  # JSON for comparison.json


def test_a_field_only_one_side_has(tmp_path):
    a = write(tmp_path, "a.toml", BASE)
    b = write(tmp_path, "b.toml", BASE.replace('name = "3"\n', 'name = "3"\neffects = [{op = "skip"}]\n'))
    (ch,) = diff_card_lists(a, b).changed
    (f,) = ch.fields
    assert f.field == "effects[0].op" and f.a is ABSENT and f.b == "skip"
    assert f.words() == "effects[0].op skip (new)"
    back = diff_card_lists(b, a).changed[0].fields[0]
    assert back.words() == "effects[0].op removed (was skip)"


def test_rename_is_not_a_removal_and_an_addition(tmp_path):
    a = write(tmp_path, "a.toml", BASE)
    b = write(tmp_path, "b.toml", BASE.replace('name = "A"', 'name = "Ace"'))
    d = diff_card_lists(a, b)
    assert not d.added and not d.removed
    (ch,) = d.changed
    assert ch.name == "Ace" and ch.fields[0].words() == "name A → Ace"


def test_repeated_names_and_single_table_sections():
    cards, other = split({"card": [{"name": "X", "count": 1}, {"name": "X", "count": 2}],
                          "starting_employee": {"name": "Joe", "copies": 6}, "deck": {"size": 40}})
    assert set(cards) == {("card", "X"), ("card", "X (2)"), ("starting_employee", "Joe")}
    assert cards[("starting_employee", "Joe")].copies == 6 and other == {"deck.size": 40}


def test_shipped_overtime_list_against_an_edited_copy(tmp_path):
    shipped = data_file("overtime", "cards.toml")
    text = shipped.read_text(encoding="utf-8")
    edited = text.replace('name = "Busy Work"\ntype = "W"\ncount = 8', 'name = "Busy Work"\ntype = "W"\ncount = 6', 1)
    assert edited != text
    mine = write(tmp_path, "my-cards.toml", edited)
    d = diff_card_lists(shipped, mine)
    assert [(c.name, [(f.field, f.a, f.b) for f in c.fields]) for c in d.changed] == [("Busy Work", [("count", 8, 6)])]
    assert d.a_file == "data/overtime/cards.toml" and not d.added and not d.removed
    table = card_diff_table(d)
    assert table.rows == [["changed", "card", "Busy Work", "count", "8", "6"]] and "Busy Work: count 8 → 6" in table.note


def test_from_gamedata_and_cardlist(tmp_path):
    a = write(tmp_path, "a.toml", BASE)
    b = write(tmp_path, "b.toml", BASE.replace('name = "3"', 'name = "3"\nlabel = "three"'))
    cl_a = CardList("a.toml", str(a), "0" * 64, True, False)
    cl_b = CardList("mine.toml", str(b), "1" * 64, False, False)
    data_a = GameData("shed", {}, (), (), cl_a, (), "x")
    data_b = GameData("shed", {}, (), (), cl_b, (), "y")
    d = diff_card_lists(data_a, data_b)
    assert d.a_file == "a.toml" and d.b_file == "mine.toml"
    assert d.changed[0].fields[0].words() == "label three (new)"
    assert diff_card_lists(cl_a, cl_b).changed == d.changed
    # a game not moved to simcore.gamedata (cards=None): its cards parameter, else its shipped file
    legacy = GameData("overtime", {"cards": ""}, (), (), None, (), "z")
    assert diff_card_lists(legacy, data_file("overtime", "cards.toml")).same


def test_missing_file_is_one_error_naming_it(tmp_path):
    with pytest.raises(BalanceError, match="nope.toml"):
        diff_card_lists(tmp_path / "nope.toml", write(tmp_path, "b.toml", BASE))
