"""Card file and parameter validation."""
import pytest

from simcore.errors import BalanceError
from simcore.overtime import SPEC
from simcore.overtime.cards import CARDS_FILE, _load_cards, compile_tables, resolve_params
from simcore.params import user_params


def _bad(tmp_path, old, new):
    text = CARDS_FILE.read_text()
    assert old in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(old, new, 1))  # same path each time: the loader keys on content
    with pytest.raises(BalanceError) as e:
        _load_cards(str(path))
    return str(e.value)


def test_default_list_is_the_rulebook_counts():
    tables = compile_tables(resolve_params({}))
    rules, kinds, eff, inst = tables
    from simcore.overtime import constants as C
    assert rules[C.R_N_MAIN] == 122
    assert rules[C.R_J0] - rules[C.R_A0] == 30
    assert inst.shape[0] == 122 + 30 + 6
    assert "A RECONSTRUCTION" in CARDS_FILE.read_text().splitlines()[0]


def test_unknown_opcode_names_file_card_field(tmp_path):
    msg = _bad(tmp_path, '{ op = "copy" }', '{ op = "photocopy" }')
    assert "cards.toml" in msg and "I'll Just Copy That!" in msg and "effects[0].op" in msg
    assert "photocopy" in msg and "take_discard" in msg  # lists the allowed opcodes


def test_bad_argument_names_the_card(tmp_path):
    msg = _bad(tmp_path, '{ op = "work", n = 3 }', '{ op = "work", n = "three" }')
    assert "Burning the Midnight Oil" in msg and "effects[0].n" in msg
    msg = _bad(tmp_path, 'who = "target_owner" }]\ntext = "React to a W card played by another player: discard',
               'who = "the boss" }]\ntext = "React to a W card played by another player: discard')
    assert "Lost File" in msg and ".who" in msg and "least_assignments" in msg
    msg = _bad(tmp_path, 'type = "B"\ncount = 6', 'type = "Q"\ncount = 6')
    assert "Watchful Eye" in msg and "'type'" in msg


def test_snooze_thresholds_set_and_validated():
    vals = user_params(SPEC, ["snooze_thresholds=5,8,11"])
    p = resolve_params(vals)
    assert p["snooze_thresholds"] == [5, 8, 11]
    rules = compile_tables(p)[0]
    from simcore.overtime import constants as C
    assert list(rules[[C.R_T1, C.R_T2, C.R_T3]]) == [5, 8, 11]
    with pytest.raises(BalanceError, match="increasing"):
        resolve_params(user_params(SPEC, ["snooze_thresholds=8,5,11"]))
    with pytest.raises(BalanceError, match="out of range"):
        user_params(SPEC, ["snooze_thresholds=5,8,99"])
    with pytest.raises(BalanceError, match="needs 3 values"):
        user_params(SPEC, ["snooze_thresholds=5,8"])


def test_every_param_has_a_default_in_rules_toml():
    from simcore.overtime.cards import RULES_FILE
    import tomllib
    data = tomllib.loads(RULES_FILE.read_text())
    # every rule parameter; `cards` (which card list) is the data file itself
    assert set(data) == {p.name for p in SPEC.params if p.kind != "file"}



def test_card_list_larger_than_the_state_is_refused(tmp_path):
    # the state record holds at most NINST_MAX card instances (158 in the default list)
    from simcore.overtime import constants as C
    text = CARDS_FILE.read_text()
    assert text.count("count = 6\n") >= 2
    path = tmp_path / "big.toml"
    path.write_text(text.replace("count = 6\n", "count = 200\n", 2))  # 158 - 12 + 400 = 546 cards
    with pytest.raises(BalanceError) as e:
        _load_cards(str(path))
    msg = str(e.value)
    assert "big.toml" in msg and "'count'" in msg and "546 cards" in msg and f"at most {C.NINST_MAX} cards" in msg
