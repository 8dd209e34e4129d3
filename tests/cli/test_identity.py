"""What a folder's identity covers (issue 17 items 4 and 5): a user policy
file's content, the engine that played it; and nothing a run folder names is
ever executed: `replay --run` loads a policy file only when the user names it
on the command line, and only when it is the file the run used."""
import json

import pytest

from balance.analysis import runs
from balance.simcore import registry

from runkit import balance, child, one_line_error

POLICY = '''from numba import njit


@njit
def last(tables, state, seat, options, n, params, rng):
    """Always the biggest step."""
    return n - 1
'''
# imported, this file leaves a mark: the test checks that replay never imports it
TRAP = '''import pathlib
pathlib.Path(__file__).with_name("EXECUTED").write_text("a run folder made balance run this file")
''' + POLICY


pytestmark = pytest.mark.usefixtures("race21")


def run_with_policy(tmp_path, policy_file):
    out = tmp_path / "run"
    r = balance("simulate", "--game", "race21", "-n", 300, "--seed", 4, "--policy", f"{policy_file}:last",
                "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    return out


def test_an_edited_policy_file_is_a_new_configuration(tmp_path):
    pol = tmp_path / "mine.py"
    # content of its own: this process loads a policy module once per content (simcore.batch)
    pol.write_text(POLICY + "# edited-policy test\n")
    out = run_with_policy(tmp_path, pol)
    ident = json.loads((out / "manifest.json").read_text())["config"]["identity"]
    assert len(ident["policies"][0]["file_sha256"]) == 64
    pol.write_text(POLICY.replace("biggest step", "biggest step (edited)"))
    line = one_line_error(balance("simulate", "--game", "race21", "-n", 300, "--seed", 4, "--policy", f"{pol}:last",
                                  "--out", out, "--quiet"))
    assert "holds a different configuration" in line and f"policy file {pol}:last: edited" in line


def test_replay_runs_a_policy_file_only_when_the_user_names_the_same_file(tmp_path):
    pol = tmp_path / "mine.py"
    pol.write_text(POLICY)
    out = run_with_policy(tmp_path, pol)
    mine = tmp_path / "elsewhere" / "copy.py"  # the same file, received with the folder
    mine.parent.mkdir()
    mine.write_text(POLICY)
    direct = balance("replay", "--game", "race21", "--seed", 4, "--index", 17, "--policy", f"{pol}:last")
    assert direct.exit_code == 0, direct.output
    # the folder's own file is now a trap: replay must never import it
    pol.write_text(TRAP)
    line = one_line_error(balance("replay", "--run", out, "--index", 17))
    assert "replay never runs a file a run folder names" in line and "--policy path/to/file.py:last" in line
    line = one_line_error(balance("replay", "--run", out, "--index", 17, "--policy", f"{pol}:last"))
    assert "is not the file the run used" in line
    line = one_line_error(balance("replay", "--run", out, "--index", 17, "--policy", f"{mine}:other"))
    assert "is not the function the run used" in line
    assert not (tmp_path / "EXECUTED").exists()
    # in a process of its own, as a user runs it (this process has loaded the same module from `pol`)
    proc = child("replay", "--run", out, "--index", 17, "--policy", f"{mine}:last")
    stdout, stderr = proc.communicate(timeout=600)
    assert proc.returncode == 0, stderr
    assert stdout.splitlines()[1:] == direct.stdout.splitlines()[1:]
    assert not (tmp_path / "EXECUTED").exists()


def test_replay_of_a_run_of_built_in_policies_takes_no_policy_file(tmp_path):
    out = tmp_path / "run"
    assert balance("simulate", "--game", "race21", "-n", 50, "--out", out, "--quiet").exit_code == 0
    line = one_line_error(balance("replay", "--run", out, "--policy", "random"))
    assert "--policy" in line and "the policies are the run's" in line


def test_a_changed_engine_is_a_new_configuration(tmp_path, monkeypatch):
    out = tmp_path / "run"
    args = ["simulate", "--game", "race21", "-n", 500, "--out", out, "--quiet"]
    assert balance(*args).exit_code == 0
    stored = json.loads((out / "manifest.json").read_text())["config"]["engine_hash"]
    monkeypatch.setattr(runs, "engine_hash", lambda spec: "0123456789abcdef")
    line = one_line_error(balance(*args[:4], 1000, *args[5:]))
    assert f"was played by another build of the race21 engine (engine_hash {stored}, this build 0123456789abcdef)" in line
    assert "use another --out folder" in line
    assert json.loads((out / "manifest.json").read_text())["n_games"] == 500  # refused before anything changed


def test_a_folder_from_before_per_game_engine_hashes_resumes_on_the_same_build(tmp_path):
    from balance.analysis import manifest_file
    from balance.simcore.jit import SOURCE_HASH

    out = tmp_path / "run"
    args = ["simulate", "--game", "race21", "-n", 500, "--out", out, "--quiet"]
    assert balance(*args).exit_code == 0
    m = json.loads((out / "manifest.json").read_text())
    m["config"]["engine_hash"] = SOURCE_HASH  # what older builds stored: the hash of all of simcore
    manifest_file.write_manifest(out, m)
    r = balance(*args[:4], 1000, *args[5:])
    assert r.exit_code == 0, r.output
    m = json.loads((out / "manifest.json").read_text())
    assert m["config"]["engine_hash"] == runs.engine_hash(registry.get("race21")) and m["n_games"] == 1000
