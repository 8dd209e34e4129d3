"""The card file is the interface: bad input names the file, the card and the field."""
import pytest

from balance.simcore.errors import BalanceError
from balance.simcore.four_day_weekend import SPEC
from balance.simcore.four_day_weekend import constants
from balance.simcore.four_day_weekend.cards import CARDS_FILE, PARAMS, RULES_FILE
from balance.simcore.gamedata import Reader, read_rules

from .helpers import NAMES, TABLES

GOOD = CARDS_FILE.read_text()


def compile_tables(params, path):
    return SPEC.load_data({**params, "cards": str(path)}).tables


def refusal(tmp_path, old, new):
    """The card file with `old` changed to `new`, as the loader refuses it: (its path, the error line)."""
    assert old in GOOD
    path = tmp_path / "cards.toml"
    path.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(BalanceError) as e:
        compile_tables({}, path)
    return path, str(e.value)


def test_default_deck_is_a_marked_reconstruction_of_100_cards():
    assert "RECONSTRUCTION" in GOOD.splitlines()[0]
    cards, _, inst, _ = TABLES
    assert inst.shape[0] == 100
    kinds = [int((cards[inst, constants.C_KIND] == k).sum()) for k in range(4)]
    assert kinds == [22, 18, 48, 12]
    assert len(NAMES) == cards.shape[0]


@pytest.mark.parametrize("patch,card,field,allowed", [
    ('op = "multiply_type", type = "cash", factor = 3', "Cash Advance", "effects[0].op", "multiply_colour"),
])
def test_unknown_opcode(tmp_path, patch, card, field, allowed):
    path, msg = refusal(tmp_path, patch, 'op = "quadruple_everything", type = "cash", factor = 3')
    assert str(path) in msg and card in msg and field in msg and allowed in msg


@pytest.mark.parametrize("old,new,card,field", [
    ('name = "Rock Concert"\nkind = "activity"\ncolour = "red"', 'name = "Rock Concert"\nkind = "activity"\ncolour = "purple"', "Rock Concert", "colour"),
    ('name = "Tacos"\nkind = "necessity"\ntype = "food"\ncolour = "red"\npoints = 2', 'name = "Tacos"\nkind = "necessity"\ntype = "food"\ncolour = "red"\npoints = 7', "Tacos", "points"),
    ('name = "Tacos"\nkind = "necessity"\ntype = "food"', 'name = "Tacos"\nkind = "necessity"\ntype = "beer"', "Tacos", "type"),
    ('name = "Jury Duty"\nkind = "excuse"', 'name = "Jury Duty"\nkind = "alibi"', "Jury Duty", "kind"),
    ('name = "Jury Duty"\nkind = "excuse"', 'name = "Jury Duty"\nkind = "excuse"\npoints = 2', "Jury Duty", "points"),
    ('op = "multiply_type", type = "cash", factor = 3', 'op = "multiply_type", type = "cash", factor = "three"', "Cash Advance", "effects[0].factor"),
    ('op = "multiply_type", type = "cash", factor = 3', 'op = "multiply_type", type = "gold", factor = 3', "Cash Advance", "effects[0].type"),
])
def test_bad_field(tmp_path, old, new, card, field):
    path, msg = refusal(tmp_path, old, new)
    assert str(path) in msg and f"'{card}'" in msg and f"'{field}'" in msg and "allowed" in msg


def test_params_validated_and_hash_changes():
    from balance.simcore.params import coerce

    with pytest.raises(BalanceError):
        coerce(SPEC.param("hand_size"), 99, "--set")
    assert SPEC.load_data({}).content_hash != SPEC.load_data({"hand_size": 6}).content_hash
    assert SPEC.load_data({"hand_size": 6}).tables[3][constants.R_HAND_SIZE] == 6


def test_declared_defaults_are_the_shipped_rules_file():
    """`balance games` shows the declared defaults; the game plays rules.toml's values."""
    reader = Reader("four-day-weekend")
    assert read_rules(reader, PARAMS) == {p.name: p.default for p in PARAMS}
    assert set(reader.read) == {"data/four-day-weekend/rules.toml"} and RULES_FILE.is_file()
    assert dict(SPEC.load_data({}).params) == {p.name: p.default for p in PARAMS}


def test_a_rules_file_value_is_checked_like_a_set_value(tmp_path, monkeypatch):
    reader = Reader("four-day-weekend", data_dir=tmp_path)
    (tmp_path / "rules.toml").write_text(RULES_FILE.read_text().replace("hand_size = 5", "hand_size = 50"))
    with pytest.raises(BalanceError, match="hand_size"):
        read_rules(reader, PARAMS)


@pytest.mark.parametrize("old,new,card,field,allowed", [
    # a field another kind has: named with the fields this kind allows
    ('name = "Jury Duty"\nkind = "excuse"', 'name = "Jury Duty"\nkind = "excuse"\nwheel = ["red"]', "Jury Duty",
     "wheel", "name, kind, count"),
    ('name = "Tacos"\nkind = "necessity"\ntype = "food"\ncolour = "red"\npoints = 2',
     'name = "Tacos"\nkind = "necessity"\ncolour = "red"\npoints = 2', "Tacos", "type", "food, transportation"),
    ('name = "Picnic"\nkind = "activity"\ncolour = "yellow"\npoints = 2\nwheel = ["yellow"]',
     'name = "Picnic"\nkind = "activity"\ncolour = "yellow"\npoints = 2\nwheel = []', "Picnic", "wheel", "1 to 3"),
    ('effects = [{ op = "add_flat", amount = 3 }]', 'effects = [{ op = "add_flat", amount = 3, type = "food" }]',
     "Long Weekend", "effects[0].type", "for 'add_flat': op, amount"),
    ('effects = [{ op = "add_flat", amount = 3 }]', 'effects = []', "Long Weekend", "effects", "1 to 4"),
])
def test_each_kind_allows_its_own_fields(tmp_path, old, new, card, field, allowed):
    path, msg = refusal(tmp_path, old, new)
    assert "\n" not in msg and str(path) in msg and f"card '{card}'" in msg and f"field '{field}'" in msg
    assert allowed in msg.split("allowed:")[1]


def test_a_reordered_card_list_keeps_each_card_its_name_and_kind(tmp_path):
    """GameData carries one name and one kind per card id of the list played; the
    entries reversed are the same list (read in the canonical order, by name:
    simcore.gamedata; tests/test_card_order.py plays it)."""
    blocks = GOOD.split("[[card]]")
    path = tmp_path / "reordered.toml"
    path.write_text("[[card]]".join([blocks[0]] + blocks[1:][::-1]))
    data = SPEC.load_data({"cards": str(path)})
    assert data.card_names[0] == "All You Can Eat" and data.info["kinds"][0] == "bonus"
    assert data.card_names[-1] == "Yard Sale" and data.info["kinds"][-1] == "necessity"
    default = SPEC.load_data({})
    assert list(zip(data.card_names, data.info["kinds"])) == list(zip(default.card_names, default.info["kinds"]))
    assert not data.cards.shipped and data.card_list_hash == default.card_list_hash
