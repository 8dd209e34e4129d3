"""The rules file and parameters: defaults load, bad values are clear errors."""
import pytest

from balance.simcore.errors import BalanceError
from balance.simcore.params import resolve, user_params
from balance.simcore.sickdays_party import SPEC
from balance.simcore.sickdays_party import constants, rules
from balance.simcore.files import data_file
from balance.simcore.gamedata import Reader
from balance.simcore.sickdays_party.cards import compile_tables, read_rules_file

RULES_FILE = data_file("sickdays-party", "rules.toml")


def load_rules(path=RULES_FILE):
    return read_rules_file(Reader("sickdays-party", path.parent))


def resolve_params(user):
    return dict(SPEC.load_data(user).params)


def test_defaults_come_from_the_rules_file():
    d = load_rules()
    assert d["tokens_per_player"] == -1 and d["hand_size"] == 7 and d["events"] == 2
    assert d["collision_window"] == 0.3 and d["coffee_break"] == 10.0 and d["left_at_end"] == 2
    assert d["advanced_flow"] is False and d["min_winners"] == 2
    assert resolve(SPEC, {}) == d
    data = SPEC.load_data({})
    assert list(data.info["events"]) == list(constants.EVENT_NAMES)
    assert data.cards.file == "data/sickdays-solo/rules.toml" and not data.cards.reconstruction
    assert [name for name, _ in data.files] == ["data/sickdays-party/rules.toml", "data/sickdays-solo/rules.toml"]
    assert {p.name: p.default for p in SPEC.params} == d  # `balance games` shows the file's defaults


def test_the_party_deck_is_the_solo_deck():
    from balance.simcore.sickdays_solo import rules as solo

    assert (constants.NDAYS, constants.NSUITS, constants.NEVENTS, list(constants.EVENT_NAMES)) == (7, solo.NSUITS, solo.NEVENTS, list(solo.EVENT_NAMES))


def _write(tmp_path, old, new):
    text = RULES_FILE.read_text()
    assert old in text
    f = tmp_path / "rules.toml"
    f.write_text(text.replace(old, new))
    return f


@pytest.mark.parametrize("old,new,field,allowed", [
    ("hand_size = 7", "hand_size = 0", "hand_size", "an integer in 1..20"),
    ("collision_window = 0.3", "collision_window = -1", "collision_window", "a number in 0..5"),
    ("advanced_flow = false", "advanced_flow = \"sometimes\"", "advanced_flow", "true, false"),
    ("reaction_median = 2.5", "reaction_median = [1.0, \"fast\"]", "reaction_median", "a list of numbers"),
    ("wrong_play = 0.03", "wrong_play = 1.5", "wrong_play", "a list of numbers in 0..1"),
])
def test_a_bad_value_names_file_field_value_and_allowed(tmp_path, old, new, field, allowed):
    f = _write(tmp_path, old, new)
    with pytest.raises(BalanceError) as e:
        load_rules(f)
    msg = str(e.value)
    assert str(f) in msg and f"{field}=" in msg and allowed in msg and new.split(" = ")[1] in msg.replace("'", '"')


def test_missing_and_unknown_fields(tmp_path):
    with pytest.raises(BalanceError, match="rules.toml: rules, field 'stall_delay': missing; allowed: a number in 0.5..120"):
        load_rules(_write(tmp_path, "stall_delay = 5.0", ""))
    with pytest.raises(BalanceError, match=r"rules.toml: rules, field 'stall': unknown parameter; allowed: tokens_per_player"):
        load_rules(_write(tmp_path, "stall_delay = 5.0", "stall_delay = 5.0\nstall = 1"))


def test_per_seat_profiles_from_the_command_line():
    p = resolve(SPEC, user_params(SPEC, ["reaction_median=0.8,1.2,1.6,2.0", "wrong_play=0.1"]))
    assert p["reaction_median"] == [0.8, 1.2, 1.6, 2.0] and p["wrong_play"] == [0.1]
    cfg, prof = compile_tables(p)
    assert list(prof[:, rules.F_MEDIAN]) == [0.8, 1.2, 1.6, 2.0] * 2  # a shorter list repeats
    assert (prof[:, rules.F_WRONG] == 0.1).all()
    with pytest.raises(BalanceError, match="reaction_median"):
        user_params(SPEC, ["reaction_median=0.8,x"])
    with pytest.raises(BalanceError, match="tokens_per_player"):
        resolve_params({"tokens_per_player": 9})
    with pytest.raises(BalanceError, match="has no parameter 'tokenz'"):
        resolve_params({"tokenz": 1})
    with pytest.raises(BalanceError, match="reaction_median: 9 values; allowed: .*at most 8"):
        resolve_params({"reaction_median": [2.0] * 9})


def test_tables_carry_times_in_milliseconds():
    cfg, prof = compile_tables(resolve(SPEC, {"collision_window": 0.25, "stall_delay": 4, "advanced_flow": True}))
    assert cfg[rules.C_WINDOW_MS] == 250 and cfg[rules.C_STALL_MS] == 4000 and cfg[rules.C_ADVANCED] == 1
    assert cfg[rules.C_COFFEE_MS] == 10_000 and cfg[rules.C_TOKENS] == -1
