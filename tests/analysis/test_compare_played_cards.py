"""compare reads the card list a run played (the folder's own copy, checked against the manifest),
not the file its manifest names: a card file edited after the run neither relabels the run nor
turns "same deals" into "same seeds"; and the same content under two paths is the same list."""
from __future__ import annotations

import shutil

from balance.analysis.compare import compare_runs
from balance.simcore.files import data_file
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


def test_a_game_someone_always_wins_is_compared_on_the_first_seats_win_rate(tmp_path):
    # You're Fired! duel: someone wins every game, so "win rate" (someone wins) is 100% on both sides and
    # says nothing; the headline compared is seat 1's win rate, with a verdict from its interval
    _run(tmp_path / "A")
    _run(tmp_path / "B", "--set", "hand_size=5")
    r = compare_runs(tmp_path / "A", tmp_path / "B")
    assert r["primary"] == "seat 1 win rate"
    head = next(m for m in r["metrics"] if m["role"] == "primary")
    assert head["metric"] == "seat 1 win rate" and head["ci"][0] < head["ci"][1]
    assert head["margin_verdict"]["verdict"] != "no_information"
