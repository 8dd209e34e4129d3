"""Card file and parameter validation."""
import pytest

from balance.simcore.errors import BalanceError
from balance.simcore.overtime import SPEC
from balance.simcore.overtime.cards import CARDS_FILE, load_data
from balance.simcore.params import user_params


def _bad(tmp_path, old, new):
    text = CARDS_FILE.read_text()
    assert old in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(old, new, 1))  # same path each time: the loader keys on content
    with pytest.raises(BalanceError) as e:
        load_data({"cards": str(path)})
    return str(e.value)


def test_default_list_is_the_rulebook_counts():
    tables = load_data({}).tables
    rules, kinds, eff, inst = tables
    from balance.simcore.overtime import constants
    assert rules[constants.R_N_MAIN] == 122
    assert rules[constants.R_J0] - rules[constants.R_A0] == 30
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
    data = load_data(vals)
    assert data.params["snooze_thresholds"] == [5, 8, 11]
    rules = data.tables[0]
    from balance.simcore.overtime import constants
    assert list(rules[[constants.R_T1, constants.R_T2, constants.R_T3]]) == [5, 8, 11]
    with pytest.raises(BalanceError, match="increasing"):
        load_data(user_params(SPEC, ["snooze_thresholds=8,5,11"]))
    with pytest.raises(BalanceError, match="out of range"):
        user_params(SPEC, ["snooze_thresholds=5,8,99"])
    with pytest.raises(BalanceError, match="needs 3 values"):
        user_params(SPEC, ["snooze_thresholds=5,8"])


def test_every_param_has_a_default_in_rules_toml():
    from balance.simcore.overtime.cards import RULES_FILE
    import tomllib
    data = tomllib.loads(RULES_FILE.read_text())
    # every rule parameter; `cards` (which card list) is the data file itself
    assert set(data) == {p.name for p in SPEC.params if p.kind != "file"}



def test_card_list_larger_than_the_state_is_refused(tmp_path):
    # the state record holds at most NINST_MAX card instances (158 in the default list)
    from balance.simcore.overtime import constants
    text = CARDS_FILE.read_text()
    assert text.count("count = 6\n") >= 2
    path = tmp_path / "big.toml"
    path.write_text(text.replace("count = 6\n", "count = 200\n", 2))  # 158 - 12 + 400 = 546 cards
    with pytest.raises(BalanceError) as e:
        load_data({"cards": str(path)})
    msg = str(e.value)
    assert "big.toml" in msg and "'count'" in msg and "546 cards" in msg and f"at most {constants.NINST_MAX} cards" in msg


# ---------------------------------------------------------------- issue 19: fields an opcode does not use
def test_a_field_the_opcode_does_not_use_is_refused(tmp_path):
    """`{op="work", n=1, who="another"}` used to validate and the work landed on the
    player's own A card: every field an opcode ignores is refused, naming the
    file, the card, the field and what that opcode accepts."""
    msg = _bad(tmp_path, 'effects = [{ op = "work", n = 1 }]\n',
               'effects = [{ op = "work", n = 1, who = "another" }]\n')
    assert msg.startswith(str(tmp_path / "cards.toml"))
    assert "card 'Steady Progress'" in msg and "field 'effects[0].who'" in msg
    assert "'who' is not used by 'work'" in msg and "allowed: for 'work': op, n" in msg


def test_types_on_an_opcode_that_ignores_them_is_refused(tmp_path):
    msg = _bad(tmp_path, 'yourself."\neffects = [{ op = "snooze", n = -2, who = "self" }]',
               'yourself."\neffects = [{ op = "snooze", n = -2, who = "self", types = "W" }]')
    assert "card 'Coffee Break'" in msg and "effects[0].types" in msg and "for 'snooze': op, n, who" in msg
    # and the opcodes that use types still take them
    assert load_data({}).tables[2].shape[0] > 0


def test_n_on_an_opcode_without_n_is_refused(tmp_path):
    msg = _bad(tmp_path, '{ op = "copy" }', '{ op = "copy", n = 2 }')
    assert "I'll Just Copy That!" in msg and "effects[0].n" in msg and "for 'copy': op" in msg


def test_a_give_needs_one_player(tmp_path):
    msg = _bad(tmp_path, '{ op = "give_assignment", who = "least_assignments" }',
               '{ op = "give_assignment", who = "all" }')
    assert "Work Is Its Own Reward" in msg and "effects[0].who" in msg and "target_owner" in msg
    assert "'all' is not allowed" in msg


def test_employee_fields_on_other_cards_and_unused_ability_fields_are_refused(tmp_path):
    msg = _bad(tmp_path, 'type = "R"\ncount = 8', 'type = "R"\ncount = 8\ntiredness_shift = 1')
    assert "Coffee Break" in msg and "'tiredness_shift'" in msg and "only E cards" in msg
    msg = _bad(tmp_path, 'ability = "passive"\nability_effects = [{ op = "snooze_shield", n = 1 }]',
               'ability = "passive"\nability_uses_per_round = 1\nability_effects = [{ op = "snooze_shield", n = 1 }]')
    assert "The Slacker" in msg and "'ability_uses_per_round'" in msg and "ability action or reaction" in msg
    msg = _bad(tmp_path, 'react_to = "W"\neffects = [{ op = "cancel", types = "W" }]',
               'effects = [{ op = "cancel", types = "W" }]')
    assert "Power Outage" in msg and "'react_to'" in msg


def test_react_to_complete_lists_completed(tmp_path):
    """Issue 19: `react_to = "complete"` said "unknown card type 'COMPLETE'" and did not list `completed`."""
    msg = _bad(tmp_path, 'react_to = "completed"', 'react_to = "complete"')
    assert "Work Is Its Own Reward" in msg and "'react_to'" in msg and "'completed'" in msg


def test_the_card_file_header_documents_every_opcode_and_its_fields():
    from balance.simcore.overtime.cards import EFFECTS

    header = [ln for ln in CARDS_FILE.read_text().splitlines() if ln.startswith("#")]
    text = "\n".join(header)
    for op in EFFECTS.opcodes:
        line = next((ln for ln in header if ln.startswith(f"#   {op.name} ")), None)
        assert line is not None, f"{op.name} is not documented in the header of {CARDS_FILE.name}"
        for f in op.fields:
            assert f.name in line, f"{op.name}'s field {f.name}"
    assert "A RECONSTRUCTION" in text
