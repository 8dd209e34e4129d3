"""The card file is the interface: bad input names the file, the card and the field."""
import pytest

from simcore.errors import BalanceError
from simcore.youre_fired import SPEC
from simcore.youre_fired.cards import CARDS_FILE, compile_tables, load_cards

GOOD = CARDS_FILE.read_text()


def test_default_list_is_a_marked_reconstruction():
    assert "RECONSTRUCTED" in GOOD.splitlines()[0]
    rows = load_cards()
    company = [r for r in rows if r["kind"] == 0]
    assert sum(r["count"] for r in company) == 11
    assert sum(1 for r in rows if r["kind"] == 1) == 5
    names = {r["name"] for r in rows}
    assert {"Boss", "Fall Guy", "Axe Man", "Secretary", "Boss's Spouse"} <= names


@pytest.mark.parametrize("old,new,card,field,allowed", [
    ('effect = "guess_fire_hand"', 'effect = "guess_fire_head"', "Axe Man", "effect", "reveal_hand"),
    ("n = 2", "n = 9", "Recruiter", "n", "1..5"),
    ('trigger = "boss_fire"', 'trigger = "always"', "Manager", "trigger", "boss_fire, fired"),
    ('name = "Secretary"\ncount = 2', 'name = "Secretary"\ncount = 0', "Secretary", "count", "1..8"),
    ('name = "Lawyer"', 'name = "Lawyer"\ncolour = "red"', "Lawyer", "colour", "effect"),
])
def test_bad_card_file_names_file_card_field(tmp_path, old, new, card, field, allowed):
    assert old in GOOD
    path = tmp_path / "cards.toml"
    path.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(BalanceError) as err:
        compile_tables({}, path)
    msg = str(err.value)
    assert str(path) in msg and f"'{card}'" in msg and f"'{field}'" in msg and "allowed" in msg and allowed in msg


def test_two_bosses_rejected(tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text(GOOD.replace('name = "Bean Counter"\ncount = 1\neffect = "fire_from_break"',
                                 'name = "Bean Counter"\ncount = 1\neffect = "boss"'))
    with pytest.raises(BalanceError, match="exactly one"):
        compile_tables({}, path)


def test_params_have_defaults_ranges_and_hash():
    p = SPEC.resolve_params({})
    assert p["hand_size"] == 4 and p["teams"] is False
    assert SPEC.card_list_hash(p) != SPEC.card_list_hash({**p, "hand_size": 5})
    with pytest.raises(BalanceError):
        SPEC.resolve_params({"hand_sise": 3})
