"""compare reads the card list a run played (the folder's own copy, checked against the manifest),
not the file its manifest names: a card file edited after the run neither relabels the run nor
turns "same deals" into "same seeds"; and the same content under two paths is the same list."""
from __future__ import annotations

import shutil

from analysis.compare import compare_runs
from simcore.files import data_file
from tests.cli.runkit import balance


def _run(out, *extra):
    r = balance("simulate", "--game", "youre-fired", "-n", 40, "--seed", 3, "--out", out, "--quiet", *extra)
    assert r.exit_code == 0, r.output


def test_same_content_under_another_path_is_same_deals_even_after_the_file_is_edited(tmp_path):
    mine = tmp_path / "mine.toml"
    shutil.copyfile(data_file("youre-fired", "cards.toml"), mine)
    _run(tmp_path / "A")
    _run(tmp_path / "B", "--set", f"cards={mine}")
    before = compare_runs(tmp_path / "A", tmp_path / "B")
    assert before["pairing_basis"] == "same deals"  # the shipped list's content under another path
    text = mine.read_text()
    mine.write_text(text.replace('name = "Axe Man"', 'name = "Renamed After The Run"', 1))
    after = compare_runs(tmp_path / "A", tmp_path / "B")
    assert after["pairing_basis"] == "same deals"  # B's folder holds the list it played
