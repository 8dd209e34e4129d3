"""The card file is the interface: bad input names the file, the card and the field."""
import pytest
from helpers import NAMES, TABLES

from simcore.errors import BalanceError
from simcore.four_day_weekend import SPEC
from simcore.four_day_weekend import constants as K
from simcore.four_day_weekend.cards import CARDS_FILE, compile_tables

GOOD = CARDS_FILE.read_text()


def test_default_deck_is_a_marked_reconstruction_of_100_cards():
    assert "RECONSTRUCTION" in GOOD.splitlines()[0]
    cards, _, inst, _ = TABLES
    assert inst.shape[0] == 100
    kinds = [int((cards[inst, K.C_KIND] == k).sum()) for k in range(4)]
    assert kinds == [22, 18, 48, 12]
    assert len(NAMES) == cards.shape[0]


@pytest.mark.parametrize("patch,card,field,allowed", [
    ('op = "multiply_type", type = "cash", factor = 3', "Cash Advance", "effects.op", "multiply_colour"),
])
def test_unknown_opcode(tmp_path, patch, card, field, allowed):
    bad = GOOD.replace(patch, 'op = "quadruple_everything", type = "cash", factor = 3')
    path = tmp_path / "cards.toml"
    path.write_text(bad)
    with pytest.raises(BalanceError) as e:
        compile_tables({}, path)
    msg = str(e.value)
    assert str(path) in msg and card in msg and field in msg and allowed in msg


@pytest.mark.parametrize("old,new,card,field", [
    ('name = "Rock Concert"\nkind = "activity"\ncolour = "red"', 'name = "Rock Concert"\nkind = "activity"\ncolour = "purple"', "Rock Concert", "colour"),
    ('name = "Tacos"\nkind = "necessity"\ntype = "food"\ncolour = "red"\npoints = 2', 'name = "Tacos"\nkind = "necessity"\ntype = "food"\ncolour = "red"\npoints = 7', "Tacos", "points"),
    ('name = "Tacos"\nkind = "necessity"\ntype = "food"', 'name = "Tacos"\nkind = "necessity"\ntype = "beer"', "Tacos", "type"),
    ('name = "Jury Duty"\nkind = "excuse"', 'name = "Jury Duty"\nkind = "alibi"', "Jury Duty", "kind"),
    ('name = "Jury Duty"\nkind = "excuse"', 'name = "Jury Duty"\nkind = "excuse"\npoints = 2', "Jury Duty", "points"),
    ('op = "multiply_type", type = "cash", factor = 3', 'op = "multiply_type", type = "cash", factor = "three"', "Cash Advance", "effects.factor"),
    ('op = "multiply_type", type = "cash", factor = 3', 'op = "multiply_type", type = "gold", factor = 3', "Cash Advance", "effects.type"),
])
def test_bad_field(tmp_path, old, new, card, field):
    assert old in GOOD
    path = tmp_path / "cards.toml"
    path.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(BalanceError) as e:
        compile_tables({}, path)
    msg = str(e.value)
    assert str(path) in msg and f"'{card}'" in msg and f"'{field}'" in msg and "allowed" in msg


def test_params_validated_and_hash_changes():
    from simcore.params import coerce

    with pytest.raises(BalanceError):
        coerce(SPEC.param("hand_size"), 99, "--set")
    assert SPEC.card_list_hash({}) != SPEC.card_list_hash({"hand_size": 6})
    assert SPEC.compile_tables({"hand_size": 6})[3][K.R_HAND_SIZE] == 6
