"""The issue's own commands on the first real game, end to end."""
import json

from runkit import balance


def test_simulate_replay_and_campaign_on_sickdays(tmp_path):
    out = tmp_path / "x"
    r = balance("simulate", "--game", "sickdays-solo", "--level", 4, "--players", 1, "--policy", "greedy",
                "-n", 3000, "--seed", 7, "--set", "ready_pizzas=3", "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["params"]["level"] == 4 and manifest["config"]["params"]["ready_pizzas"] == 3
    s = json.loads((out / "summary.json").read_text())
    assert s["game"] == "sickdays-solo" and s["n_games"] == 3000
    assert 0.2 < s["win_rate"] < 0.95
    assert "missing_cards" in json.dumps(s["game_metrics"])
    assert set(s["end_reasons"]) >= {"all_happy", "no_action", "cap"}
    html = (out / "report.html").read_text()
    assert "missing" in html.lower() and "<svg" in html

    r = balance("replay", "--game", "sickdays-solo", "--seed", 7, "--index", 123, "--level", 4, "--set", "ready_pizzas=3")
    assert r.exit_code == 0 and "Turn 1" in r.output and ("You win" in r.output or "You lose" in r.output or "happy" in r.output)
    same = balance("replay", "--run", out, "--index", 123)
    # the transcript lines (the header line names how the game was chosen; a first replay on a cold cache may
    # also print the compile notice, cli/first_run.py)
    lines = lambda out: [x for x in out.splitlines()[1:] if "first run on this machine" not in x]  # noqa: E731
    assert [x for x in lines(same.output) if not x.startswith("Use Up All")] == \
        [x for x in lines(r.output) if not x.startswith("Use Up All")]

    r = balance("campaign", "--game", "sickdays-solo", "-n", 40, "--max-attempts", 8, "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    c = json.loads((tmp_path / "c" / "campaign.json").read_text())
    assert [lv["level"] for lv in c["levels"]] == list(range(1, 12))
    assert c["levels"][0]["reached"] == 40
    assert (tmp_path / "c" / "report.html").exists()


def test_level_and_bad_values_are_clear(tmp_path):
    r = balance("simulate", "--game", "sickdays-solo", "--level", 12, "-n", 10, "--out", tmp_path / "y")
    assert r.exit_code == 2 and "level" in r.output and "1..11" in r.output
    r = balance("simulate", "--game", "sickdays-solo", "--players", 7, "-n", 10, "--out", tmp_path / "y")
    assert r.exit_code == 2 and "allowed: 1..6" in r.output
