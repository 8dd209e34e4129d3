"""Issue 40 item 9: every command checks all its input (players, the policy list against them, policy
parameters, --set, --params, card files, --out and the folder it names) before anything compiles or is
written: a refused command leaves no folder behind, or the one it was given untouched, and a folder of
another configuration is refused naming the settings that differ as the command line says them."""
import json
import os
from pathlib import Path

import pytest

import balance.cli.app as app
from balance.analysis import runs
from balance.simcore import registry

from runkit import balance, one_line_error

pytestmark = pytest.mark.usefixtures("race21")


@pytest.fixture
def no_compile(monkeypatch):
    """Fails the test if a command gets as far as compiling (or loading) the engine, or creating a folder."""
    def compiled(*a, **k):
        raise AssertionError("the engine was compiled before the input was checked")

    monkeypatch.setattr(app, "_first_compile", compiled)
    monkeypatch.setattr(runs, "open_run", lambda *a, **k: (_ for _ in ()).throw(
        AssertionError("the folder was opened before the input was checked")))


PLAYS = {  # every command that plays games into a folder, with the toy game
    "simulate": ["simulate", "--game", "race21", "-n", 20],
    "sweep": ["sweep", "--game", "race21", "--vary", "target=20..21", "-n", 20],
    "compare": ["compare", "--game", "race21", "--a-set", "target=20", "--b-set", "target=21", "-n", 20],
    "impact": ["impact", "--game", "race21", "--rules", "target", "-n", 20],
    "tune": ["tune", "--game", "race21", "--vary", "target=20..21", "--target", "win_rate=0.4..0.6", "-n", 20],
}
BAD = {  # bad input of each kind, and the words of its refusal
    "policies for 3 players of 2": (["-p", 3, "--policy", "greedy,random"], ["--policy: 2 policies given", "3 players"]),
    "players": (["-p", 9], ["--players: 9", "allowed: 2..4"]),
    "policy parameter": (["--policy-param", "2:rollouts=4"], ["'rollouts'", "allowed: epsilon"]),
    "a policy file that is missing": (["--policy", "nowhere.py:mine"], ["--policy: file 'nowhere.py' does not exist"]),
    "--set": (["--set", "target=9999"], ["--set", "target", "allowed"]),
    "--params": (["--params", "{tmp}/bad.toml"], ["bad.toml"]),
}


@pytest.mark.parametrize("bad", list(BAD))
@pytest.mark.parametrize("command", list(PLAYS))
def test_bad_input_is_refused_before_any_compile_or_write(tmp_path, no_compile, command, bad):
    (tmp_path / "bad.toml").write_text("target = 'twenty'\n")
    extra, words = BAD[bad]
    out = tmp_path / "x"
    args = [str(a).format(tmp=tmp_path) for a in PLAYS[command] + extra] + ["--out", str(out), "--quiet"]
    line = one_line_error(balance(*args))
    for w in words:
        assert w in line, line
    assert not out.exists()


def test_the_hostile_run_then_its_correction(tmp_path):
    """Issue 40's transcript: the refused command wrote manifest.json, so the corrected one was then refused as
    a different configuration, with 32-number vectors. Now the first leaves nothing and the second runs."""
    out = tmp_path / "X"
    line = one_line_error(balance("simulate", "--game", "race21", "-p", 3, "--policy", "greedy,random", "-n", 30,
                                  "--out", out, "--quiet"))
    assert "--policy: 2 policies given (greedy, random) for 3 players" in line
    assert not out.exists()
    r = balance("simulate", "--game", "race21", "-p", 3, "--policy", "greedy,random,greedy", "-n", 30, "--out", out,
                "--quiet")
    assert r.exit_code == 0, r.output


def test_another_configuration_is_named_in_the_command_line_s_words(tmp_path, monkeypatch):
    out = tmp_path / "X"
    r = balance("simulate", "--game", "race21", "-p", 2, "--policy", "greedy,random", "--policy-param",
                "1:epsilon=0.25", "-n", 30, "--seed", 4, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    before = {p.name: p.stat().st_mtime_ns for p in out.rglob("*")}
    compiled = []
    monkeypatch.setattr(app, "_first_compile", lambda *a, **k: compiled.append(a))
    line = one_line_error(balance("simulate", "--game", "race21", "-p", 3, "--policy", "greedy", "--set",
                                  "target=25", "-n", 30, "--seed", 5, "--out", out, "--quiet"))
    assert "holds a different configuration" in line
    assert "policies: greedy (epsilon=0.25), random vs greedy (every seat)" in line
    assert "players: 2 vs 3" in line and "seed: 4 vs 5" in line and "target: 21 vs 25" in line
    assert "[0.0" not in line and "0.0, 0.0" not in line  # no parameter vectors
    assert not compiled  # refused before the engine compiled
    assert {p.name: p.stat().st_mtime_ns for p in out.rglob("*")} == before  # the folder untouched
    line = one_line_error(balance("simulate", "--game", "race21", "-p", 2, "--policy", "greedy,random", "-n", 30,
                                  "--seed", 4, "--out", out, "--quiet"))
    assert "policies: greedy (epsilon=0.25), random vs greedy, random" in line


def test_another_card_list_is_named_by_file(tmp_path):
    from balance.analysis.preflight import differences
    from balance.simcore.batch import parse_policies

    spec = registry.get("youre-fired")
    mine = tmp_path / "my-cards.toml"
    own = spec.load_data(spec.load_data({}).params).cards
    mine.write_text(Path(own.path).read_text() + "# mine\n")
    seats = parse_policies(spec, None, None, 2)
    a = runs.make_config(spec, {}, 2, seats, 1, 20).identity(spec)
    b = runs.make_config(spec, {"cards": str(mine)}, 2, seats, 1, 20).identity(spec)
    words = differences(a, b, spec)
    assert len(words) == 1 and words[0].startswith("card list: cards.toml (sha256 ")
    assert " vs my-cards.toml (sha256 " in words[0]
    assert differences(a, a, spec) == []


@pytest.mark.parametrize("command", list(PLAYS) + ["campaign", "ladder"])
def test_an_out_that_is_a_file_is_refused_before_the_games_and_left_alone(tmp_path, no_compile, monkeypatch,
                                                                          command):
    from balance.analysis import campaign as campaign_module, tune as tune_module
    for mod, fn in ((tune_module, "tune"), (campaign_module, "run_campaign")):
        monkeypatch.setattr(mod, fn, lambda *a, **k: (_ for _ in ()).throw(AssertionError("played")))
    blocker = tmp_path / "a-file"
    blocker.write_text("mine")
    args = {"campaign": ["campaign", "--game", "sickdays-solo", "--campaigns", 2],
            "ladder": ["ladder", "--game", "race21", "-n", 20]}.get(command) or PLAYS[command]
    line = one_line_error(balance(*args, "--out", blocker, "--quiet"))
    assert "--out" in line and "a-file" in line and "a file" in line
    assert blocker.read_text() == "mine"


def test_a_policy_file_that_does_not_compile_leaves_no_folder(tmp_path):
    pol = tmp_path / "broken.py"
    pol.write_text("from numba import njit\n\n\n@njit\ndef mine(tables, state, seat, options, n, params, rng):\n"
                   "    return 'x' + n\n")
    out = tmp_path / "x"
    line = one_line_error(balance("simulate", "--game", "race21", "--policy", f"{pol}:mine", "-n", 20,
                                  "--out", out, "--quiet"))
    assert f"--policy: {pol}:mine does not compile" in line and "broken.py line 6" in line
    assert not out.exists()


def test_a_scheduler_out_of_reach_leaves_no_folder(tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "x"
    line = one_line_error(balance("simulate", "--game", "race21", "-n", 20, "--scheduler", "tcp://127.0.0.1:9",
                                  "--out", out, "--quiet"))
    assert "--scheduler: cannot reach tcp://127.0.0.1:9" in line
    assert not out.exists()


def test_no_room_is_said_before_the_folder_is_made(tmp_path, monkeypatch):
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage(10**9, 10**9 - 2**20, 2**20))  # 1 MB free
    out = tmp_path / "x"
    line = one_line_error(balance("simulate", "--game", "race21", "-n", 1000, "--out", out, "--quiet"))
    assert "--out:" in line and "MB free" in line and "smaller -n" in line
    assert not out.exists()


def test_a_resumed_folder_that_cannot_be_resumed_is_untouched(tmp_path):
    out = tmp_path / "x"
    assert balance("simulate", "--game", "race21", "-n", 30, "--seed", 2, "--out", out, "--quiet").exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    os.utime(out / "manifest.json", ns=(1, 1))
    one_line_error(balance("simulate", "--game", "race21", "-n", 60, "--seed", 3, "--out", out, "--quiet"))
    assert json.loads((out / "manifest.json").read_text()) == manifest
    assert (out / "manifest.json").stat().st_mtime_ns == 1
    assert not (out / ".lock").exists()
