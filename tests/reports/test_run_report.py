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

from balance.simcore import metrics as M

from balance.analysis.summary import write_summary
from balance.reports import render_run_report
from balance.reports.charts import interval_bars

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    run = make_run(tmp_path_factory.mktemp("report"), n_games=4000, n_cap=5)
    return render_run_report(run, SPEC)


def test_report_written_beside_the_parts_with_summary(report):
    assert report.name == "report.html"
    assert (report.parent / "summary.json").exists()  # computed because it was missing


def assert_self_contained(html: str) -> None:
    """Nothing fetched: no external URL, no stylesheet link, and the one script inline (the tables' sort,
    filter and CSV), with no source, no request and no import in it."""
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", html, re.I)
    assert not re.search(r"<link|@import|url\(\s*['\"]?(?:https?:)?//", html, re.I)
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S | re.I)
    assert len(scripts) == len(re.findall(r"<script", html, re.I)) == 1
    attrs, body = scripts[0]
    assert attrs.strip() == ""
    assert not re.search(r"fetch\(|XMLHttpRequest|import\(|\bsrc\b|https?:|WebSocket|navigator\.", body)
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html


def test_report_is_self_contained(report):
    html = report.read_text(encoding="utf-8")
    assert_self_contained(html)
    assert html.count("<svg") >= 4  # win rate, length, end reasons, card impact


def test_report_summary_first_in_plain_words(report):
    html = report.read_text(encoding="utf-8")
    first = html.index("Over 4,000 games (seed 7")
    assert first < html.index("<svg") < html.index('id="tables"') < html.index('id="provenance"')
    assert "5 games (0.1%) hit the turn cap of 100 decisions" in html
    # the seat sentence says its verdict against the margin, not "significant, p < 0.001" (issue 43)
    assert re.search(r"Seat 1 wins \d+\.\d pts more than seat 2 \(95% CI \[[\d.]+, [\d.]+\] pts\); against the margin "
                     r"of ±2.0 pts: differs by more than the margin", html.replace("\u00a0", " "))
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

    metrics = (M.Counts(key="missing_cards", value=pl.col("total"), help="cards still missing when the game ended"),)
    spec = dataclasses.replace(SPEC, cooperative=True, metrics=metrics, card_counters=("drawn", "played"))
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


def test_game_metric_shapes_in_the_report(tmp_path):
    """Every declared metric kind renders: a rate, a mean, a bare value -> count dict
    in a group (sick days' missing_cards.at_loss), sums as a distribution, a note."""
    from balance.reports.views import distributions

    lost = pl.col("total") < 21
    spec = dataclasses.replace(SPEC, metrics=(
        M.Rate(key="win_rate", hits=pl.col("total") >= 21),
        M.Group(key="missing_cards", members=(
            M.Counts(key="at_loss", value=pl.col("total") % 3 + 1, where=lost, bare=True),
            M.Mean(key="mean", value=pl.col("total") % 3 + 1, where=lost))),
        M.Sums(key="round_ends", label="How rounds end", parts=(
            ("short", pl.col("decisions") < 8), ("long", pl.col("decisions") >= 8))),
        M.Mean(key="turns", value=pl.col("decisions")),
        M.Note(key="note", text="reading B of the rulebook"),
    ))
    run = make_run(tmp_path, n_games=600)
    html = render_run_report(run, spec).read_text()
    gm = json.loads((run / "summary.json").read_text())["game_metrics"]
    found = {d.name: d for d in distributions(gm)}
    assert set(found) == {"missing_cards.at_loss", "round_ends"}
    n_lost = sum(gm["missing_cards"]["at_loss"].values())
    assert found["missing_cards.at_loss"].n == n_lost == gm["missing_cards"]["mean"]["n"]
    assert found["round_ends"].n == 600 and not found["round_ends"].shares
    assert "How rounds end (n = 600)" in html and f"Missing cards: at loss (n = {n_lost:,})" in html
    assert "missing_cards: mean" in html and "reading B of the rulebook" in html


# ---------------------------------------------------------------- printing


A4_TEXT_WIDTH_PX = 703  # 210 mm less two 12 mm margins (the report's @page), at 96 px per inch

PRINT_PROBE = """<script>
(function () {
  var main = document.querySelector('main'), bad = [];
  var mw = main.getBoundingClientRect().width, mr = main.getBoundingClientRect().right;
  var doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) bad.push('page scrolls sideways ' + doc.scrollWidth + '>' + doc.clientWidth);
  document.querySelectorAll('.table-block').forEach(function (b) {
    var name = b.querySelector('h3').textContent, t = b.querySelector('table');
    if (b.scrollWidth > b.clientWidth + 1) bad.push(name + ': overflows ' + b.scrollWidth + '>' + b.clientWidth);
    if (t && t.getBoundingClientRect().right > mr + 1) bad.push(name + ': cut at the right');
    if (t) t.querySelectorAll('th, td').forEach(function (c) {
      if (c.getBoundingClientRect().width < 8 || getComputedStyle(c).display === 'none') bad.push(name + ': a hidden column');
    });
  });
  document.querySelectorAll('figure svg').forEach(function (s, i) {
    var w = s.getBoundingClientRect().width;
    if (w < 0.95 * mw) bad.push('chart ' + i + ' at ' + Math.round(w) + 'px of ' + Math.round(mw));
  });
  var out = document.createElement('pre');
  out.textContent = 'PRO' + 'BE[' + (bad.length ? bad.join(' | ') : 'ok') + ']';
  document.body.appendChild(out);
})();
</script>"""


def print_styles(html: str) -> str:
    """The body of the template's @media print block (to apply it on a screen of A4 width)."""
    start = html.index("@media print")
    i = html.index("{", start) + 1
    depth = 1
    j = i
    while depth:
        depth += {"{": 1, "}": -1}.get(html[j], 0)
        j += 1
    return html[i:j - 1]


def as_printed(html: str) -> str:
    """The page with its print styles applied on screen and a probe that reports overflows."""
    return html.replace("</head>", f"<style>{print_styles(html)}</style></head>").replace("</body>", PRINT_PROBE + "</body>")


def probe_print_layout(binary: str, profile: Path, report: Path) -> str:
    probe = report.with_name("print-probe.html")
    probe.write_text(as_printed(report.read_text(encoding="utf-8")), encoding="utf-8")
    dom = _chromium(binary, profile, "--dump-dom", f"--window-size={A4_TEXT_WIDTH_PX},1200", probe.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r"PROBE\[(.*?)\]", dom.stdout, re.S)
    assert found, dom.stdout[-2000:]
    return found.group(1)


@pytest.fixture(scope="module")
def long_names_report(tmp_path_factory) -> Path:
    """A run whose card names are long (as Overtime's are), to stress the card tables in print."""
    run = make_run(tmp_path_factory.mktemp("long"), n_games=2000, n_cap=3)
    long = {"+1": "Performance Review of the Quarterly Numbers", "+2": "I'll Just Copy That! (Second Edition)",
            "+3": "Burning the Midnight Oil Until Sunrise"}
    for p in (run / "parts").glob("cards-*.parquet"):
        pl.read_parquet(p).with_columns(pl.col("card").replace(long)).write_parquet(p)
    return render_run_report(run, SPEC)


def test_print_styles_keep_every_column_and_chart_readable(long_names_report, tmp_path):
    binary = _chromium_or_skip()
    html = long_names_report.read_text(encoding="utf-8")
    styles = print_styles(html)
    assert "max-height: 9cm" not in styles and "overflow: visible" in styles  # no thumbnails, no scrollbars
    for col in ("lift 95% CI", "p", "n seat-games"):
        assert f">{col}</th>" in html
    assert probe_print_layout(binary, tmp_path / "profile", long_names_report) == "ok"


def test_the_probe_finds_a_table_that_does_not_fit(long_names_report, tmp_path):
    """The print probe fails a layout that scrolls (so the test above can fail)."""
    binary = _chromium_or_skip()
    html = long_names_report.read_text(encoding="utf-8")
    wide = html.replace("</thead>", "</thead><tr><td style='white-space:nowrap'>" + "x" * 400 + "</td></tr>", 1)
    bad = tmp_path / "wide" / "report.html"
    bad.parent.mkdir()
    bad.write_text(wide, encoding="utf-8")
    assert "overflows" in probe_print_layout(binary, tmp_path / "profile", bad)


def test_report_prints_to_pdf(long_names_report, tmp_path):
    binary = _chromium_or_skip()
    pdf = tmp_path / "report.pdf"
    r = _chromium(binary, tmp_path / "profile", "--no-pdf-header-footer", f"--print-to-pdf={pdf}",
                  long_names_report.as_uri())
    assert r.returncode == 0, r.stderr[-2000:]
    data = pdf.read_bytes()
    assert data[:5] == b"%PDF-" and len(data) > 20_000
    pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
    assert 2 <= pages <= 12, pages
    if shutil.which("pdftoppm"):  # look at the first page as a person would (poppler-utils)
        subprocess.run(["pdftoppm", "-png", "-r", "40", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "page")],
                       check=True, timeout=60)
        png = next(tmp_path.glob("page*.png"))
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_card_section_says_which_comparison_its_lift_is(tmp_path):
    """A run with the reached columns: lift among the seat-games where the card was drawn, said in the
    table, the chart and the summary; a folder written before them: the older comparison, said as such."""
    new = render_run_report(make_run(tmp_path / "new", n_games=3000, reached=True), SPEC)
    html = new.read_text(encoding="utf-8").replace("\u00a0", " ")
    summary = json.loads((new.parent / "summary.json").read_text())
    assert summary["cards"]["comparison"] == "reached"
    assert "among seat-games where the card was drawn: win rate when played vs not played" in html
    assert ">played when drawn</th>" in html and "an association" in html and "balance impact --game" in html
    assert "all other seat-games" not in html
    top = summary["cards"]["top"][0]
    assert top["card"] == "+3" and top["win_rate_with"]["n"] + top["win_rate_without"]["n"] == top["reached_games"]
    old = render_run_report(make_run(tmp_path / "old", n_games=3000), SPEC)
    html = old.read_text(encoding="utf-8").replace("\u00a0", " ")
    assert json.loads((old.parent / "summary.json").read_text())["cards"]["comparison"] == "all"
    assert "vs all other seat-games, including those where it was never drawn" in html
    assert "among seat-games where the card was drawn" not in html and ">played when drawn</th>" not in html
