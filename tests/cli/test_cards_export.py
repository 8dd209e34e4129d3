"""`balance cards export --game G [FILE]` (issue 45 item 2): the shipped card list, from the installed
package data, as TOML (byte for byte) or CSV (the same document), and its refusals."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from balance.simcore import cardcsv, registry
from balance.simcore.files import data_file
from tests.cli.runkit import balance, one_line_error

CARD_GAMES = ("overtime", "four-day-weekend", "youre-fired")


@pytest.mark.parametrize("game", CARD_GAMES)
def test_toml_export_is_the_shipped_file_by_default_name(game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = balance("cards", "export", "--game", game)
    assert r.exit_code == 0, r.output
    written = tmp_path / f"{game}-cards.toml"
    assert written.read_bytes() == data_file(game, "cards.toml").read_bytes()
    assert f"wrote {game}-cards.toml" in r.stdout
    assert "reconstruction" in r.stdout  # every shipped list is one, and the command says so
    assert f"--set cards={game}-cards.toml" in r.stdout


@pytest.mark.parametrize("game", CARD_GAMES)
def test_csv_export_reads_back_as_the_same_list(game, tmp_path):
    target = tmp_path / "mine.csv"
    r = balance("cards", "export", "--game", game, target)
    assert r.exit_code == 0, r.output
    text = target.read_text(encoding="utf-8")
    assert text.startswith('"# ') or text.startswith("# ")  # the reconstruction note rides along as comment rows
    spec = registry.get(game)
    shipped = spec.load_data({})
    sections = tuple(s.section for s in shipped.cards.sections)
    doc, _ = cardcsv.parse(target.read_bytes(), str(target), sections)
    assert doc == tomllib.loads(data_file(game, "cards.toml").read_text(encoding="utf-8"))
    mine = spec.load_data({"cards": str(target)})
    assert mine.card_list_hash == shipped.card_list_hash
    assert not mine.cards.shipped and mine.cards.file == str(target)


@pytest.mark.parametrize("game", ("sickdays-solo", "sickdays-party"))
def test_a_game_without_a_card_list_is_one_line(game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = one_line_error(balance("cards", "export", "--game", game))
    assert f"{game} has no card list" in line
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_kept_unless_force(tmp_path):
    target = tmp_path / "cards.toml"
    target.write_text("mine\n")
    line = one_line_error(balance("cards", "export", "--game", "overtime", target))
    assert str(target) in line and "--force" in line
    assert target.read_text() == "mine\n"
    r = balance("cards", "export", "--game", "overtime", target, "--force")
    assert r.exit_code == 0, r.output
    assert target.read_bytes() == data_file("overtime", "cards.toml").read_bytes()


def test_force_replaces_a_link_not_the_file_it_points_to(tmp_path):
    victim = tmp_path / "elsewhere.txt"
    victim.write_text("keep me\n")
    link = tmp_path / "cards.csv"
    link.symlink_to(victim)
    one_line_error(balance("cards", "export", "--game", "youre-fired", link))
    r = balance("cards", "export", "--game", "youre-fired", link, "--force")
    assert r.exit_code == 0, r.output
    assert victim.read_text() == "keep me\n"
    assert not link.is_symlink() and link.read_text(encoding="utf-8").count("\ncompany,") == 7


@pytest.mark.parametrize("name, why", [("cards.txt", "neither .toml nor .csv"), ("nowhere/cards.toml", "not a folder"),
                                       (".", "is a folder")])
def test_refusals(name, why, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if name == ".":
        (tmp_path / "d.csv").mkdir()
        name = "d.csv"
    assert why in one_line_error(balance("cards", "export", "--game", "overtime", name))
    assert not Path(name).is_file()


def test_an_unknown_game_is_refused(tmp_path):
    assert "--game" in one_line_error(balance("cards", "export", "--game", "chess", tmp_path / "x.toml"))
