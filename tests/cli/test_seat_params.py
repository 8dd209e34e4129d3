"""Issue 40 item 6a: a policy parameter for one seat (`2:epsilon=1`) or for the seats of one policy
(`greedy.epsilon=0.5`), beside the old form that sets every seat (`epsilon=0.1`); one parser for every command
that takes --policy-param, the manifest recording each seat's parameters, and the terminal and the report
naming them ('greedy (epsilon=1)'), never as the parameter vector."""
import json

import pytest

from balance.simcore import registry
from balance.simcore.batch import parse_policies, policy_label, resolve_policy
from balance.simcore.slots import P_EPSILON

from runkit import balance, one_line_error


pytestmark = pytest.mark.usefixtures("race21")


def spec():
    return registry.get("race21")


def epsilons(pols, players):
    pols = pols * players if len(pols) == 1 else pols
    return [p.params[P_EPSILON] for p in pols]


def test_one_seat_gets_its_own_parameter_and_the_others_keep_theirs():
    pols = parse_policies(spec(), ["greedy"], ["2:epsilon=1"], 3)
    assert [p.name for p in pols] == ["greedy"] * 3 and epsilons(pols, 3) == [0.0, 1.0, 0.0]
    # the parameter vectors are otherwise the policy's defaults
    assert pols[0] == resolve_policy(spec(), "greedy") and pols[1] == resolve_policy(spec(), "greedy", {"epsilon": 1})


def test_the_old_form_still_sets_every_seat_and_stays_one_entry():
    assert parse_policies(spec(), ["greedy"], ["epsilon=0.1"], 3) == [resolve_policy(spec(), "greedy", {"epsilon": 0.1})]
    pols = parse_policies(spec(), ["random,greedy"], ["epsilon=1"], 2)  # the hostile run: both seats, as before
    assert [p.name for p in pols] == ["random", "greedy"] and epsilons(pols, 2) == [1.0, 1.0]
    assert parse_policies(spec(), None, None, 2) == [resolve_policy(spec(), "greedy")]


def test_a_policy_s_seats_and_the_more_particular_setting_wins():
    pols = parse_policies(spec(), ["random,greedy,greedy"], ["greedy.epsilon=0.5"], 3)
    assert epsilons(pols, 3) == [0.0, 0.5, 0.5]
    pols = parse_policies(spec(), ["random,greedy,greedy"], ["3:epsilon=1", "greedy.epsilon=0.5", "epsilon=0.2"], 3)
    assert epsilons(pols, 3) == [0.2, 0.5, 1.0]  # seat over policy over every seat, whatever the order given


@pytest.mark.parametrize("policy,param,players,words", [
    ("random,greedy", "1:rollouts=3", 2, ["'rollouts'", "policy 'random' (seat 1)", "allowed: epsilon"]),
    ("random,lookahead", "rollouts=3", 2, ["'rollouts'", "policy 'random' (seat 1)", "allowed: epsilon",
                                           "lookahead.rollouts=VALUE"]),
    ("greedy", "3:epsilon=1", 2, ["seat 3", "'3:epsilon=1'", "allowed: seats 1..2"]),
    ("greedy", "0:epsilon=1", 2, ["seat 0", "allowed: seats 1..2"]),
    ("greedy,random", "lookahead.rollouts=2", 2, ["policy 'lookahead', which no seat plays", "greedy, random"]),
    ("greedy", "2:epsilon=2", 2, ["epsilon=2 is out of range (seat 2)", "allowed: 0..1"]),
    ("greedy", "2:epsilon=nan", 2, ["not a finite number"]),
    ("greedy", "2.5=1", 2, ["not one of the allowed forms", "SEAT:NAME=VALUE"]),
    ("greedy,random", "epsilon=0.1", 3, ["--policy: 2 policies given (greedy, random) for 3 players",
                                         "allowed: one policy for every seat, or 3 (one per seat)"]),
])
def test_a_parameter_a_seat_cannot_take_is_refused_in_one_line_naming_it(tmp_path, policy, param, players, words):
    r = balance("simulate", "--game", "race21", "-p", players, "--policy", policy, "--policy-param", param,
                "-n", 10, "--out", tmp_path / "x", "--quiet")
    line = one_line_error(r)
    assert line.startswith("error: --policy")
    for w in words:
        assert w in line, line
    assert not (tmp_path / "x").exists()


# every command that takes --policy-param, refusing the same seat the same way (one parser)
COMMANDS = {
    "simulate": ["simulate", "--game", "race21", "-n", 10, "--out", "{out}", "--quiet"],
    "sweep": ["sweep", "--game", "race21", "--vary", "target=20..21", "-n", 10, "--out", "{out}", "--quiet"],
    "compare": ["compare", "--game", "race21", "--a-set", "target=20", "--b-set", "target=21", "-n", 10,
                "--out", "{out}", "--quiet"],
    "impact": ["impact", "--game", "race21", "--rules", "target", "-n", 10, "--out", "{out}", "--quiet"],
    "tune": ["tune", "--game", "race21", "--vary", "target=20..21", "--target", "win_rate=0.4..0.6", "-n", 20,
             "--out", "{out}", "--quiet"],
    "campaign": ["campaign", "--game", "sickdays-solo", "--campaigns", 2, "--out", "{out}", "--quiet"],
    "replay": ["replay", "--game", "race21"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_reads_policy_params_with_the_one_parser(tmp_path, command):
    args = [str(a).format(out=tmp_path / "x") for a in COMMANDS[command]]
    players = 1 if command == "campaign" else 2
    line = one_line_error(balance(*args, "--policy-param", f"{players + 1}:epsilon=1"))
    assert f"--policy-param: seat {players + 1} in '{players + 1}:epsilon=1'" in line
    assert f"allowed: seats 1..{players}" in line
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("command", ["simulate", "sweep", "compare", "impact"])
def test_the_folder_records_each_seat_s_parameters(tmp_path, command):
    out = tmp_path / "x"
    args = [str(a).format(out=out) for a in COMMANDS[command]]
    r = balance(*args, "-p", 3, "--policy", "greedy", "--policy-param", "2:epsilon=1")
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "manifest.json").read_text())
    pols = manifest["config"]["policies"]
    assert [p["name"] for p in pols] == ["greedy"] * 3
    assert [p["params"][P_EPSILON] for p in pols] == [0.0, 1.0, 0.0]
    assert manifest["config"]["identity"]["policies"] == pols


def test_the_terminal_and_the_report_name_each_seat_s_parameters(tmp_path):
    out = tmp_path / "x"
    r = balance("simulate", "--game", "race21", "-p", 3, "--policy", "greedy", "--policy-param", "2:epsilon=1",
                "-n", 300, "--seed", 3, "--out", out)
    assert r.exit_code == 0, r.output
    assert "seat 1 (greedy)" in r.stdout and "seat 2 (greedy (epsilon=1))" in r.stdout
    assert "seat 3 (greedy)" in r.stdout
    html = (out / "report.html").read_text()
    assert "seat 2 greedy (epsilon=1)" in html
    # rotated seats: the policies moved round the table, by name with their parameters
    r = balance("simulate", "--game", "race21", "--policy", "random,greedy", "--policy-param", "greedy.epsilon=0.5",
                "--rotate-seats", "-n", 300, "--out", tmp_path / "rot")
    assert r.exit_code == 0, r.output
    assert "policies moved round the table: random, greedy (epsilon=0.5)" in r.stdout


def test_a_label_names_only_the_parameters_not_at_their_default():
    s = spec()
    assert policy_label(s, "greedy", resolve_policy(s, "greedy").params) == "greedy"
    p = resolve_policy(s, "lookahead", {"rollouts": 3, "epsilon": 0.25})
    assert policy_label(s, "lookahead", p.params) == "lookahead (epsilon=0.25, rollouts=3)"


def test_the_python_api_takes_the_same_keys(tmp_path):
    import balance as api

    run = api.simulate("race21", n=200, players=3, policy_param={"2:epsilon": 1}, out=tmp_path / "api", skill_check=0,
                       quiet=True)
    pols = run.manifest["config"]["policies"]
    assert [p["params"][P_EPSILON] for p in pols] == [0.0, 1.0, 0.0]
    with pytest.raises(api.BalanceError, match="seat 4"):
        api.simulate("race21", n=200, players=3, policy_param=["4:epsilon=1"], out=tmp_path / "api2", quiet=True)
    assert not (tmp_path / "api2").exists()
