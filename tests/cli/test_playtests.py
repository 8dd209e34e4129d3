"""`balance playtests FILE`: a malformed log is one line naming the file, the row, the column and what
is allowed (exit 2, no traceback); a good log gives playtests.json and a verdict-first report."""
from __future__ import annotations

import json

import pytest

from tests.cli.runkit import balance, one_line_error

GOOD = "players,winners,turns,end,mood\n2,1,18,boss_fired,happy\n2,2,25,boss_fired,\n2,1,14,failed_bluff,tired\n"


def _log(tmp_path, text: str, name: str = "log.csv", raw: bytes | None = None):
    path = tmp_path / name
    if raw is not None:
        path.write_bytes(raw)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text,game,must", [
    ("", "youre-fired", ["empty", "header"]),
    ("players,turns\n2,10\n", "youre-fired", ["column winners", "missing", "players, winners"]),
    ("players,winners\n", "youre-fired", ["no games under the header"]),
    ("players,winners,winners\n2,1,1\n", "youre-fired", ["column winners", "twice"]),
    ("players,winners\n2,1\n9,1\n", "youre-fired", ["row 2", "column players", "9", "2..4"]),
    ("players,winners\ntwo,1\n", "youre-fired", ["row 1", "column players", "'two'", "whole number"]),
    ("players,winners\n2,3\n", "youre-fired", ["row 1", "column winners", "seats 1..2"]),
    ("players,winners\n2,1;1\n", "youre-fired", ["row 1", "column winners", "seat 1 listed twice"]),
    ("players,winners\n2,first\n", "youre-fired", ["row 1", "column winners", "'first'"]),
    ("players,winners,turns\n2,1,-4\n", "youre-fired", ["row 1", "column turns", "0 or more"]),
    ("players,winners,turns\n2,1,12.5\n", "youre-fired", ["row 1", "column turns", "whole number"]),
    ("players,winners,minutes\n2,1,soon\n", "youre-fired", ["row 1", "column minutes", "'soon'", "above 0"]),
    ("players,winners,minutes\n2,1,-3\n", "youre-fired", ["row 1", "column minutes"]),
    ("players,winners,end\n2,1,boss_fired\n2,2,rage quit\n", "youre-fired",
     ["row 2", "column end", "'rage quit'", "boss_fired", "failed_bluff"]),
    ("players,winners,settings\n2,1,hand_size\n", "youre-fired", ["row 1", "column settings", "NAME=VALUE"]),
    ("players,winners,settings\n2,1,hand_sizes=5\n", "youre-fired", ["row 1", "column settings", "hand_sizes"]),
    ("players,winners,settings\n2,1,hand_size=lots\n", "youre-fired", ["row 1", "column settings", "hand_size"]),
    ("players,winners,level\n2,1,3\n", "youre-fired", ["row 1", "column level", "no difficulty levels"]),
    ("players,winners,level\n1,1,12\n", "sickdays-solo", ["row 1", "column level", "12"]),
    ("players,winners,cards\n2,1,nowhere.toml\n", "youre-fired", ["row 1", "column cards", "nowhere.toml", "not a file"]),
    ("players,winners\n2,1,extra,cells\n", "youre-fired", ["row 1", "cells", "header"]),
    ("players,winners\n2,1\n", "sickdays-solo", ["row 1", "column winners", "together"]),
])
def test_a_malformed_log_is_one_line_naming_row_and_column(tmp_path, text, game, must):
    path = _log(tmp_path, text)
    line = one_line_error(balance("playtests", path, "--game", game, "--out", tmp_path / "out", "-n", 50,
                                  "--no-expert", "--quiet"))
    assert str(path) in line, line
    for bit in must:
        assert bit in line, (bit, line)
    assert not (tmp_path / "out").exists()


def test_a_log_that_is_not_text_or_not_there(tmp_path):
    line = one_line_error(balance("playtests", tmp_path / "missing.csv", "--game", "youre-fired", "--quiet"))
    assert "missing.csv" in line
    path = _log(tmp_path, "", raw=b"players,winners\n2,\xff\xfe\n")
    line = one_line_error(balance("playtests", path, "--game", "youre-fired", "--quiet"))
    assert "UTF-8" in line and str(path) in line
    line = one_line_error(balance("playtests", tmp_path, "--game", "youre-fired", "--quiet"))
    assert str(tmp_path) in line


def test_players_filter_and_out_folder_are_checked(tmp_path):
    path = _log(tmp_path, GOOD)
    line = one_line_error(balance("playtests", path, "--game", "youre-fired", "-p", 3, "--quiet", "--no-expert",
                                  "--out", tmp_path / "o"))
    assert "--players" in line and "allowed: 2" in line
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "manifest.json").write_text("{}")
    line = one_line_error(balance("playtests", path, "--game", "youre-fired", "--out", taken, "--quiet"))
    assert "--out" in line and "manifest.json" in line


def test_a_good_log_gives_json_and_a_verdict_first_report(tmp_path):
    path = _log(tmp_path, GOOD)
    out = tmp_path / "out"
    r = balance("playtests", path, "--game", "youre-fired", "-n", 300, "--no-expert", "--seed", 3, "--out", out,
                "--quiet")
    assert r.exit_code == 0, (r.output, r.exception)
    res = json.loads((out / "playtests.json").read_text())
    assert res["games"] == 3 and res["ignored_columns"] == ["mood"]
    ids = [it["id"] for it in res["comparison"]["items"]]
    assert ids[:2] == ["seat1", "seat2"] and "turns" in ids and "end:failed_bluff" in ids
    seat1 = res["comparison"]["items"][0]
    assert seat1["playtest"]["k"] == 2 and seat1["playtest"]["n"] == 3 and seat1["simulation"]["n"] == 300
    assert seat1["playtest"]["ci"][0] < 2 / 3 < seat1["playtest"]["ci"][1]
    assert res["skill"]["rungs"][0]["label"] == "greedy epsilon=1" and res["skill"]["n"] == 3
    html = (out / "report.html").read_text()
    assert html.index('id="verdicts"') < html.index("<table") and "Your group plays like" in html
    assert "<link" not in html and 'src="http' not in html and "<svg" in html  # one file: inline CSS and charts
    # rerun into its own folder: replaced, not refused
    assert balance("playtests", path, "--game", "youre-fired", "-n", 300, "--no-expert", "--out", out,
                   "--quiet").exit_code == 0


def test_rows_are_grouped_by_their_settings(tmp_path):
    text = ("players,winners,turns,settings\n2,1,18,\n2,2,25,hand_size=5\n2,1,14,hand_size=5\n"
            "3,2,30,\n")
    path = _log(tmp_path, text)
    out = tmp_path / "out"
    r = balance("playtests", path, "--game", "youre-fired", "-n", 200, "--no-expert", "--out", out, "--quiet")
    assert r.exit_code == 0, (r.output, r.exception)
    res = json.loads((out / "playtests.json").read_text())
    assert [(g["players"], g["games"]) for g in res["groups"]] == [(2, 1), (2, 2), (3, 1)]
    assert res["groups"][1]["settings"] == {"hand_size": 5}
    r = balance("playtests", path, "--game", "youre-fired", "-n", 200, "--no-expert", "-p", 3, "--out",
                tmp_path / "three", "--quiet")
    assert r.exit_code == 0
    assert json.loads((tmp_path / "three" / "playtests.json").read_text())["games"] == 1


def test_synthesize_writes_a_log_the_command_reads(tmp_path):
    path = tmp_path / "synthetic.csv"
    r = balance("playtests", path, "--game", "youre-fired", "--synthesize", "-p", 2, "--policy", "greedy",
                "--policy-param", "2:epsilon=0.5", "-n", 12, "--seed", 9)
    assert r.exit_code == 0, r.output
    lines = path.read_text().splitlines()
    assert lines[0].startswith("players,winners,turns,end") and len(lines) == 13 and "synthetic" in lines[1]
    again = tmp_path / "again.csv"
    balance("playtests", again, "--game", "youre-fired", "--synthesize", "-p", 2, "--policy", "greedy",
            "--policy-param", "2:epsilon=0.5", "-n", 12, "--seed", 9)
    assert again.read_text() == path.read_text()  # same seed, same log
    r = balance("playtests", path, "--game", "youre-fired", "-n", 200, "--no-expert", "--out", tmp_path / "o", "--quiet")
    assert r.exit_code == 0, (r.output, r.exception)


@pytest.mark.parametrize("args,must", [
    (["--level", "2"], "--level: youre-fired has no difficulty levels"),
    (["--set", "hand_size=99"], "--set: hand_size"),
    (["--cards", "nowhere.toml"], "--cards: nowhere.toml is not a file"),
])
def test_the_command_lines_settings_are_named_as_options(tmp_path, args, must):
    path = _log(tmp_path, GOOD)
    line = one_line_error(balance("playtests", path, "--game", "youre-fired", *args, "--quiet", "--out", tmp_path / "o"))
    assert must in line and "row" not in line, line
