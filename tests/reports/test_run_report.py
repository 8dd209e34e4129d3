"""The single-run HTML report: self-contained, summary first, n everywhere,
and it renders in a real headless browser."""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import polars as pl
import pytest

from synthetic import SPEC, make_run

from analysis.summary import write_summary
from reports import render_run_report
from reports.charts import interval_bars

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    run = make_run(tmp_path_factory.mktemp("report"), n_games=4000, n_cap=5)
    return render_run_report(run, SPEC)


def test_report_written_beside_the_parts_with_summary(report):
    assert report.name == "report.html"
    assert (report.parent / "summary.json").exists()  # computed because it was missing


def test_report_is_self_contained(report):
    html = report.read_text(encoding="utf-8")
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", html, re.I)
    assert not re.search(r"<script|<link|@import|url\(\s*['\"]?(?:https?:)?//", html, re.I)
    assert html.count("<svg") >= 4  # win rate, length, end reasons, card impact


def test_report_summary_first_in_plain_words(report):
    html = report.read_text(encoding="utf-8")
    first = html.index("Over 4,000 games (seed 7")
    assert first < html.index("<svg") < html.index('id="tables"') < html.index('id="provenance"')
    assert "5 games (0.12%) hit the turn cap of 100 decisions" in html
    assert re.search(r"Seat 1 wins \d+\.\d points more than seat 2 \(95% CI [^)]*significant, p&lt;0.001", html)
    assert "1 dead card" in html


def test_report_shows_n_with_every_chart_and_table(report):
    html = report.read_text(encoding="utf-8")
    for fig in re.findall(r"<figure.*?</figure>", html, re.S):
        assert "n = " in fig
    for table in re.findall(r"<table>.*?</table>", html, re.S):
        head = re.search(r"<thead>(.*?)</thead>", table, re.S).group(1)
        assert re.search(r"<th[^>]*>n( seat-games)?</th>", head), head
    # provenance
    for key in ("card list hash", "engine hash", "rule version", "balance simulate --game race21"):
        assert key in html


def test_autoescape_card_names(tmp_path):
    run = make_run(tmp_path, n_games=1000, play3_boost=0.3)
    for p in (run / "parts").glob("cards-*.parquet"):
        pl.read_parquet(p).with_columns(pl.col("card").str.replace(r"\+3", "<script>alert(1)</script>")).write_parquet(p)
    html = render_run_report(run, SPEC).read_text()
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html


def test_stale_summary_is_recomputed(tmp_path):
    run = make_run(tmp_path, n_games=1000)
    path = write_summary(run, SPEC)
    data = json.loads(path.read_text())
    data["n_games"] = 1
    path.write_text(json.dumps(data))
    render_run_report(run, SPEC)  # summary newer than the parts: used as is
    assert json.loads(path.read_text())["n_games"] == 1
    newer = time.time() + 5
    for p in (run / "parts").iterdir():
        os.utime(p, (newer, newer))
    html = render_run_report(run, SPEC).read_text()
    assert json.loads(path.read_text())["n_games"] == 1000 and "Over 1,000 games" in html


def test_cooperative_ladder_and_distribution_report(tmp_path):

    def headline(games, seats, params):
        counts = games["total"].value_counts().sort("total")
        return {"missing_cards": {"distribution": {int(t): int(c) for t, c in counts.iter_rows()},
                                  "help": "cards still missing when the game ended"}}

    spec = dataclasses.replace(SPEC, cooperative=True, headline=headline, card_counters=("drawn", "played"))
    run = make_run(tmp_path, n_games=2000, n_cap=0, variants={"L1": 0.8, "L2": 0.5, "L3": 0.2},
                   variant_params={"L1": {"level": 1}, "L2": {"level": 2}, "L3": {"level": 3}})
    # co-op: make every seat share seat 0's result
    for p in (run / "parts").glob("seats-*.parquet"):
        s = pl.read_parquet(p)
        s.with_columns(pl.col("won").first().over("variant", "game_index")).write_parquet(p)
    html = render_run_report(run, spec).read_text()
    assert "Difficulty ladder" in html and "Win rate per level" in html
    assert "Missing cards" in html and "cards still missing" in html
    assert "the team (greedy, random) wins" in html and "team win rate" in html  # several variants: the sweep report
    assert "sweep report" in html
    assert "pooled" not in html and "At the first point (level=1)" in html  # no figure pools the points
    assert "Across levels 1–3 the win rate falls steadily" in html
    assert "Variants: the points of the sweep" in html and "This sweep plays 3 points (level = 1, 2, 3)" in html


def test_chart_is_inline_svg_with_unique_ids():
    a = interval_bars(["x"], [0.5], [0.4], [0.6], [100], "t")
    b = interval_bars(["x"], [0.5], [0.4], [0.6], [100], "t")
    assert a.startswith("<svg") and "<?xml" not in a and "n = 100" in a
    ids_a = set(re.findall(r'id="([^"]+)"', a))
    assert ids_a and not ids_a & set(re.findall(r'id="([^"]+)"', b))


def _chromium_or_skip() -> str:
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("chromium is required in CI for the report rendering test")
    pytest.skip("chromium not installed")


def _chromium(binary: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def test_report_renders_in_headless_chromium(report, tmp_path):
    binary = _chromium_or_skip()
    dom = _chromium(binary, tmp_path / "profile", "--dump-dom", report.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "Over 4,000 games (seed 7" in dom.stdout
    assert dom.stdout.count("<svg") >= 4 and "Win rate by seat" in dom.stdout
    png = tmp_path / "report.png"
    shot = _chromium(binary, tmp_path / "profile", f"--screenshot={png}", "--window-size=1366,900", report.as_uri())
    assert shot.returncode == 0, shot.stderr[-2000:]
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_headline_shapes_from_the_games(tmp_path):
    """Shapes the registered games' headlines use: a rate, a mean, a value -> count dict
    nested in an entry (sick days' missing_cards.at_loss), shares with a label (rounds)."""
    from analysis.stats import mean_ci, rate
    from reports.views import distributions

    def headline(games, seats, params):
        return {
            "win_rate": rate(30, 100),
            "missing_cards": {"at_loss": {"1": 40, "2": 20, "3": 10}, "mean": mean_ci([1, 2, 3, 1])},
            "round_ends": {"label": "How rounds end", "value": 250.0,
                           "distribution": {"all out": 0.5, "deck empty": 0.3, "turn limit": 0.2}},
            "turns": mean_ci([10, 12, 14]),
            "note": "reading B of the rulebook",
        }

    spec = dataclasses.replace(SPEC, headline=headline)
    run = make_run(tmp_path, n_games=600)
    html = render_run_report(run, spec).read_text()
    found = {d.name: d for d in distributions(json.loads((run / "summary.json").read_text())["game_metrics"])}
    assert set(found) == {"missing_cards.at_loss", "round_ends"}
    assert found["missing_cards.at_loss"].n == 70 and not found["missing_cards.at_loss"].shares
    assert found["round_ends"].shares and found["round_ends"].n == 250
    assert "How rounds end (n = 250)" in html and "Missing cards: at loss (n = 70)" in html
    assert "missing_cards: mean" in html and "30.0%" in html and "reading B of the rulebook" in html
