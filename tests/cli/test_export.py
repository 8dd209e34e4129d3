"""`balance export RUN` (issue 45 item 3): a run folder's tables as CSV, Parquet or xlsx, read through
analysis.frames' checked readers; summary.json's win-rate table flattened; refusals in one line."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import polars as pl
import pytest

from balance.analysis import frames
from tests.cli.runkit import balance, one_line_error, race21_run


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return race21_run(tmp_path_factory, n=600, chunk=200)


pytestmark = pytest.mark.usefixtures("race21")


LOADERS = {"games": frames.load_games, "seats": frames.load_seats, "cards": frames.load_cards}


@pytest.mark.parametrize("table", sorted(LOADERS))
def test_parquet_and_csv_hold_the_table(run, table, tmp_path):
    want = LOADERS[table](run)
    assert want.height > 0
    r = balance("export", run, "--table", table, "--format", "parquet", tmp_path / "t.parquet")
    assert r.exit_code == 0, r.output
    assert f"{want.height:,} rows" in r.stdout
    assert pl.read_parquet(tmp_path / "t.parquet").equals(want)
    r = balance("export", run, "--table", table, tmp_path / "t.csv")  # the format from the extension
    assert r.exit_code == 0, r.output
    assert pl.read_csv(tmp_path / "t.csv", schema=want.schema).equals(want)


def test_the_default_is_games_as_csv_named_after_the_run_here(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = balance("export", run)
    assert r.exit_code == 0, r.output
    written = tmp_path / f"{run.name}-games.csv"
    assert pl.read_csv(written).height == frames.load_games(run).height
    line = one_line_error(balance("export", run))  # never overwritten unless asked
    assert "exists" in line and "--force" in line
    written.write_text("mine")
    assert balance("export", run, "--force").exit_code == 0
    assert written.read_text() != "mine"


def test_summary_is_the_win_rates_by_seat(run, tmp_path):
    r = balance("export", run, "--table", "summary", tmp_path / "s.csv")
    assert r.exit_code == 0, r.output
    got = pl.read_csv(tmp_path / "s.csv")
    summary = json.loads((run / "summary.json").read_text())
    assert got.columns == ["variant", "seat", "policy", "win_rate", "ci_low", "ci_high", "wins", "n"]
    assert got.height == 1 + len(summary["win_rate_by_seat"])
    assert got.row(0)[1:4] == (None, "all", summary["win_rate"])
    for row, seat in zip(got.iter_rows(named=True), [None] + summary["win_rate_by_seat"]):
        if seat is not None:
            assert (row["seat"], row["win_rate"], row["ci_low"], row["wins"]) == \
                   (seat["seat"], seat["value"], seat["ci"][0], seat["wins"])


def test_a_sweep_summary_has_one_block_per_point(tmp_path):
    out = tmp_path / "sweep"
    assert balance("sweep", "--game", "race21", "--vary", "target=11..21:5", "-n", 200, "--out", out,
                   "--quiet").exit_code == 0
    assert balance("export", out, "--table", "summary", tmp_path / "s.parquet").exit_code == 0
    got = pl.read_parquet(tmp_path / "s.parquet")
    assert got["variant"].unique(maintain_order=True).to_list() == ["target=11", "target=16", "target=21"]
    assert got.filter(pl.col("seat").is_null()).height == 3


def test_xlsx_without_openpyxl_is_one_line(run, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "openpyxl", None)  # import openpyxl -> ImportError
    line = one_line_error(balance("export", run, "--format", "xlsx", tmp_path / "t.xlsx"))
    assert "pip install openpyxl" in line
    assert not (tmp_path / "t.xlsx").exists()


def test_xlsx_with_openpyxl(run, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    r = balance("export", run, "--table", "seats", tmp_path / "t.xlsx")
    assert r.exit_code == 0, r.output
    rows = list(openpyxl.load_workbook(tmp_path / "t.xlsx", read_only=True)["seats"].iter_rows(values_only=True))
    want = frames.load_seats(run)
    assert list(rows[0]) == want.columns and len(rows) == want.height + 1


@pytest.mark.parametrize("args, words", [
    (["--table", "players"], "--table: 'players' is not a table"),
    (["--format", "json"], "--format: 'json' is not allowed"),
    (["x.parquet", "--format", "csv"], "ends in .parquet but --format is csv"),
    (["no/such/folder/x.csv"], "is not a folder"),
])
def test_refusals(run, args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert words in one_line_error(balance("export", run, *args))
    assert list(tmp_path.iterdir()) == []


def test_not_a_run_folder(tmp_path):
    assert "is not a folder" in one_line_error(balance("export", tmp_path / "nothing"))
    assert "holds no manifest.json" in one_line_error(balance("export", tmp_path))


def test_a_folder_without_summary_or_with_a_damaged_part(run, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    (copy / "summary.json").unlink()
    assert "has no summary.json" in one_line_error(balance("export", copy, "--table", "summary",
                                                           tmp_path / "s.csv"))
    part = sorted((copy / "parts" / "games").rglob("*.parquet"))[0]
    part.write_bytes(part.read_bytes()[:50])
    line = one_line_error(balance("export", copy, tmp_path / "g.csv"))
    assert part.name in line
    assert not (tmp_path / "g.csv").exists()
