"""compare's folders and grammar (issue 18 items 4-5): a played comparison is a
folder of kind "compare" that `balance report` rebuilds as a comparison, the
headline comes first, --params applies to both sides, and two run folders with
settings for new games are refused."""
from __future__ import annotations

import json

import pytest

from tests.cli.runkit import balance, one_line_error


pytestmark = pytest.mark.usefixtures("race21")


def test_played_comparison_is_a_compare_folder_rebuilt_as_one(tmp_path):
    params = tmp_path / "p.toml"
    params.write_text("target = 19\n")
    out = tmp_path / "cmp"
    r = balance("compare", "--game", "race21", "--params", params, "--b-set", "target=23", "-n", 60, "--out", out,
                "--quiet")
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "compare"
    variants = {v["name"]: v["params"] for v in manifest["config"]["variants"]}
    assert variants["A"]["target"] == 19 and variants["B"]["target"] == 23  # --params on both, --b-set on B
    result = json.loads((out / "comparison.json").read_text())
    assert result["card_diff"] is None  # the toy game has no card list
    data_rows = [line for line in r.output.splitlines() if line.startswith("│ ")]
    assert data_rows and data_rows[0].startswith("│ seat 1 win rate ")  # the headline first (someone always wins race21)
    assert "%" in data_rows[0] and "pts" in data_rows[0]  # one number format: rates and points
    (out / "report.html").unlink()
    again = balance("report", out)
    assert again.exit_code == 0, again.output
    html = (out / "report.html").read_text()
    assert "comparison, B against A" in html


def test_two_folders_refuse_settings_for_new_games(tmp_path):
    a = tmp_path / "a"
    assert balance("simulate", "--game", "race21", "-n", 30, "--out", a, "--quiet").exit_code == 0
    line = one_line_error(balance("compare", a, a, "--set", "target=20"))
    assert "--game" in line
