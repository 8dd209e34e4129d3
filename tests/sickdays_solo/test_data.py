"""Level table as the rulebook lists it; bad data files name file, row, field."""
import shutil

import pytest

from balance.simcore.errors import BalanceError
from balance.simcore.files import data_file
from balance.simcore.gamedata import Reader, loader
from balance.simcore.sickdays_solo import SPEC, cards

GAME_DIR = data_file("sickdays-solo", "rules.toml").parent


def load_levels(game_dir=GAME_DIR):
    return cards.read_levels_file(Reader("sickdays-solo", game_dir), game_dir / cards.LEVELS_FILE)


def load_rules(game_dir=GAME_DIR):
    return cards.read_rules_file(Reader("sickdays-solo", game_dir), game_dir / cards.RULES_FILE)


def resolve_params(user):
    return dict(SPEC.load_data(user).params)

# Rulebook, "Difficulty Levels"
RULEBOOK = [
    (1, "Can't Lose", 6, 2, 4, 0, False),
    (2, "Easy", 7, 3, 5, 1, False),
    (3, "Okay", 8, 4, 6, 1, False),
    (4, "Normal", 9, 5, 7, 2, False),
    (5, "Hard", 10, 6, 8, 2, False),
    (6, "New Intro", 6, 2, 0, 0, True),
    (7, "Not Bad", 7, 3, 0, 0, True),
    (8, "Fun", 8, 4, 0, 0, True),
    (9, "Challenging", 9, 5, 0, 0, True),
    (10, "Ultimate", 10, 6, 0, 0, True),
    (11, "Oh No", 10, 0, 0, 0, True),
]


def test_levels_match_the_rulebook():
    got = [(lv["number"], lv["name"], lv["suits"], lv["ready_pizzas"], lv["weeks_max"], lv["removed_cards"], lv["automa"])
           for lv in load_levels()]
    assert got == RULEBOOK


def test_rules_file():
    rules = load_rules()
    assert rules["hand_size"] == 4 and rules["pizza_tokens"] == 6 and rules["days"] == 7
    assert len(rules["suits"]) == 10 and rules["suits"][6:] == ["yellow", "orange", "red", "purple"]
    assert len(SPEC.load_data({}).card_names) == 77


def test_resolve_fills_from_the_level():
    p = resolve_params({"level": 2})
    assert (p["suits"], p["ready_pizzas"], p["max_weeks"], p["removed_cards"], p["automa"], p["hand_size"]) == (7, 3, 5, 1, False, 4)
    p = resolve_params({"level": 9, "max_weeks": 12})
    assert p["automa"] is True and p["max_weeks"] == 12
    assert resolve_params({})["level"] == 4


@pytest.mark.parametrize("bad", [{"level": 12}, {"ready_pizzas": 9}, {"events": 8}, {"nonsense": 1}])
def test_bad_params(bad):
    with pytest.raises(BalanceError):
        resolve_params(bad)


def _copy(tmp_path):
    for f in ("rules.toml", "levels.toml"):
        shutil.copy(GAME_DIR / f, tmp_path / f)
    return tmp_path / "levels.toml"


def test_bad_levels_file_names_file_level_field(tmp_path):
    path = _copy(tmp_path)
    text = path.read_text()
    i = text.index("suits = 8")
    path.write_text(text[:i] + "suits = 12" + text[i + 9:])
    with pytest.raises(BalanceError) as err:
        load_levels(tmp_path)
    msg = str(err.value)
    assert "levels.toml" in msg and "level 'Okay'" in msg and "'suits'" in msg and "1..10" in msg


def test_bad_automa_flag(tmp_path):
    path = _copy(tmp_path)
    text = path.read_text().replace("automa = true", "automa = 1", 1)
    path.write_text(text)
    with pytest.raises(BalanceError, match=r"levels.toml: level 'New Intro', field 'automa'.*true, false"):
        load_levels(tmp_path)


def test_bad_rules_file(tmp_path):
    _copy(tmp_path)
    p = tmp_path / "rules.toml"
    p.write_text(p.read_text().replace("hand_size = 4", "hand_size = 0"))
    with pytest.raises(BalanceError, match=r"rules.toml: rules, field 'hand_size'"):
        load_rules(tmp_path)


def test_content_hash_changes_with_params():
    a = SPEC.load_data({"level": 1}).content_hash
    b = SPEC.load_data({"level": 2}).content_hash
    assert a != b and len(a) == 16


def test_the_deck_is_the_printed_one_and_the_hash_covers_both_files():
    d = SPEC.load_data({})
    assert d.cards.file == "data/sickdays-solo/rules.toml" and not d.cards.reconstruction and d.cards.shipped
    assert [name for name, _ in d.files] == ["data/sickdays-solo/levels.toml", "data/sickdays-solo/rules.toml"]
    assert d.card_names[0] == "1-Monday (blue)" and d.card_names[70:] == tuple(d.info["events"])


def test_an_edited_levels_file_is_another_configuration(tmp_path):
    _copy(tmp_path)
    load = loader("sickdays-solo", cards.build, data_dir=tmp_path)
    a = load({})
    p = tmp_path / "levels.toml"
    p.write_text(p.read_text().replace('name = "Normal"', 'name = "Usual"'))
    b = load({})
    assert a.content_hash != b.content_hash and b.info["level_names"][3] == "Usual"


def test_unknown_level_field_and_levels_out_of_order(tmp_path):
    path = _copy(tmp_path)
    text = path.read_text()
    path.write_text(text.replace('name = "Easy"', 'name = "Easy"\nweeks = 3'))
    with pytest.raises(BalanceError, match=r"levels.toml: level 'Easy', field 'weeks': unknown field; allowed: number, name"):
        load_levels(tmp_path)
    path.write_text(text.replace("number = 2", "number = 3", 1))
    with pytest.raises(BalanceError, match=r"level 'Easy', field 'number': 3 is out of order; allowed: 2"):
        load_levels(tmp_path)
