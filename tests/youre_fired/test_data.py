"""The card file is the interface: bad input names the file, the card and the field."""
import tomllib

import pytest

from balance.simcore.errors import BalanceError
from balance.simcore.gamedata import Reader
from balance.simcore.params import resolve
from balance.simcore.youre_fired import SPEC
from balance.simcore.youre_fired import constants
from balance.simcore.youre_fired.cards import CARDS_FILE, EFFECTS, build, card_rows

GOOD = CARDS_FILE.read_text()


def load(path):
    return SPEC.load_data({"cards": str(path)})


def test_default_list_is_a_marked_reconstruction():
    assert "RECONSTRUCTED" in GOOD.splitlines()[0]
    rows = card_rows(tomllib.loads(GOOD), CARDS_FILE)
    company = [r for r in rows if r["kind"] == 0]
    assert sum(r["count"] for r in company) == 11
    assert sum(1 for r in rows if r["kind"] == 1) == 5
    names = {r["name"] for r in rows}
    assert {"Boss", "Fall Guy", "Axe Man", "Secretary", "Boss's Spouse"} <= names
    data = SPEC.load_data({})
    assert data.cards.shipped and data.cards.reconstruction
    assert data.card_names == tuple(r["name"] for r in rows)


@pytest.mark.parametrize("old,new,card,field,allowed", [
    ('effect = "guess_fire_hand"', 'effect = "guess_fire_head"', "Axe Man", "effect", "reveal_hand"),
    ("n = 2", "n = 9", "Recruiter", "n", "1..5"),
    ('trigger = "boss_fire"', 'trigger = "always"', "Manager", "trigger", "boss_fire, fired"),
    ('name = "Secretary"\ncount = 2', 'name = "Secretary"\ncount = 0', "Secretary", "count", "1..8"),
    ('name = "Lawyer"', 'name = "Lawyer"\ncolour = "red"', "Lawyer", "colour", "effect"),
    # a field the card's opcode does not use is refused, naming what it uses
    ('effect = "reveal_hand"', 'effect = "reveal_hand"\nn = 2', "Secretary", "n", "for 'reveal_hand': effect"),
    ('effect = "draw"\nn = 2', 'effect = "draw"\nn = 2\ntrigger = "guess"', "Recruiter", "trigger",
     "for 'draw': effect, n"),
    ('effect = "draw"\nn = 2', 'effect = "draw"', "Recruiter", "n", "1..5"),
    ('name = "Recruiter"\neffect = "draw"', 'name = "Recruiter"\ncount = 2\neffect = "draw"', "Recruiter", "count",
     "each consultant is unique"),
    ('name = "Auditor"\neffect = "peek_deck"', 'name = "Auditor"\neffect = "boss"', "Auditor", "effect",
     "peek_deck"),
])
def test_bad_card_file_names_file_card_field(tmp_path, old, new, card, field, allowed):
    assert old in GOOD
    path = tmp_path / "cards.toml"
    path.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(BalanceError) as err:
        load(path)
    msg = str(err.value)
    assert "\n" not in msg
    assert str(path) in msg and f"'{card}'" in msg and f"field '{field}'" in msg and "allowed" in msg and allowed in msg


def test_two_bosses_rejected(tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text(GOOD.replace('name = "Bean Counter"\ncount = 1\neffect = "fire_from_break"',
                                 'name = "Bean Counter"\ncount = 1\neffect = "boss"'))
    with pytest.raises(BalanceError, match="exactly one"):
        load(path)


def test_every_opcode_declares_its_fields():
    # the kernels' opcodes and the file's vocabulary are the same set
    codes = {o.code for o in EFFECTS.opcodes}
    assert codes == {v for k, v in vars(constants).items() if k.startswith("OP_")}
    assert {o.name: [f.name for f in o.fields] for o in EFFECTS.opcodes if o.fields} == {
        "cancel": ["trigger"], "redirect": ["trigger"], "draw": ["n"], "peek_deck": ["n"]}


def test_params_have_defaults_ranges_and_hash():
    p = resolve(SPEC, {})
    assert p["hand_size"] == 4 and p["teams"] is False
    a, b = SPEC.load_data(p), SPEC.load_data({**p, "hand_size": 5})
    assert a.content_hash != b.content_hash
    assert a.card_list_hash == b.card_list_hash  # a rule change is not a card-list change
    with pytest.raises(BalanceError, match="hand_sise"):
        SPEC.load_data({"hand_sise": 3})


def test_rules_file_sets_the_defaults_at_load_time(tmp_path):
    """rules.toml is read when the data is loaded (not at import) and checked
    against the declared parameters."""
    (tmp_path / "cards.toml").write_text(GOOD)
    (tmp_path / "rules.toml").write_text("hand_size = 5\n")
    data = build(Reader("youre-fired", tmp_path), {})
    assert data.params["hand_size"] == 5 and data.tables[1][constants.R_HAND] == 5
    (tmp_path / "rules.toml").write_text("hand_size = 50\n")
    with pytest.raises(BalanceError, match="hand_size"):
        build(Reader("youre-fired", tmp_path), {})


def test_missing_data_files_are_one_line_errors(tmp_path):
    """Issue 18: a missing card or rules file is a BalanceError naming it, not a traceback."""
    with pytest.raises(BalanceError) as err:
        load(tmp_path / "nowhere.toml")
    assert "nowhere.toml" in str(err.value) and "does not exist" in str(err.value)
    (tmp_path / "cards.toml").write_text(GOOD)
    with pytest.raises(BalanceError) as err:
        build(Reader("youre-fired", tmp_path), {})
    assert "rules.toml" in str(err.value) and "does not exist" in str(err.value)
