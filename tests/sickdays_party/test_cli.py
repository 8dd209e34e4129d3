"""The party game through the `balance` command: per-seat profiles on the
command line, the game's headline (minutes, skill vs luck) in summary.json,
and a timestamped replay."""
import json

from typer.testing import CliRunner

from balance.cli.app import app

runner = CliRunner()


def balance(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_simulate_mixed_speeds_and_replay(tmp_path):
    out = tmp_path / "run"
    r = balance("simulate", "--game", "sickdays-party", "-p", "4", "-n", "300", "--policy", "greedy",
                "--set", "reaction_median=1.5,2.5,3.5,4.5", "--set", "tokens_per_player=1", "--out", out)
    assert r.exit_code == 0, r.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_games"] == 300 and summary["capped"] == 0
    assert summary["params"]["reaction_median"] == [1.5, 2.5, 3.5, 4.5]
    gm = summary["game_metrics"]
    assert 0 < gm["minutes"]["median"] < 30
    skill = gm["skill_vs_luck"]
    assert skill["fastest_finishes_first"]["value"] > skill["chance_level"] == 0.25
    assert skill["speed_rank_corr"]["value"] > 0
    assert set(gm["draw2_by_cause"]) >= {"collision", "wrong_card", "look_busy"}
    r = balance("replay", "--run", out, "--index", "2")
    assert r.exit_code == 0, r.output
    assert " s] seat " in r.output and " plays " in r.output and "The game ends" in r.output


def test_a_bad_profile_is_a_clear_error(tmp_path):
    r = balance("simulate", "--game", "sickdays-party", "-n", "10", "--set", "reaction_median=fast",
                "--out", tmp_path / "bad")
    assert r.exit_code != 0 and "reaction_median" in r.output
