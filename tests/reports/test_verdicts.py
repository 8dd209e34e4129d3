"""The verdict block first in every report (issue 43): one sentence a verdict, in the designer's words,
with its margin and the games that would decide, read from the verdicts the analysis stored; alerts beside
them; no card named on a figure known to less than ± the margin; the first seat's win rate as the headline
where someone wins every game; the reconstruction banner on every report of invented cards; and, in
headless Chromium at 1280 px, every report type's verdicts on its first screen, every table within the
page, sortable, filterable and saved as CSV."""
from __future__ import annotations

import copy
import html as htmllib
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from synthetic import SPEC, make_run

from balance.analysis.findings import alerts, nameable
from balance.analysis.summary_result import SummaryResult
from balance.reports import (fmt, render_campaign_report, render_compare_report, render_ladder_report, render_run_report,
                     render_tuning_report, rebuild_report, verdicts)
from balance.reports.context import card_banner, card_lists, card_names, edited_from
from balance.reports.run_words import summary_sentences
from balance.reports.views import key_figures

from test_other_reports import _fake_tune, campaign_result, compare_result, typed
from test_run_report import _chromium, _chromium_or_skip, assert_self_contained

ROOT = Path(__file__).resolve().parents[2]


def verdict_text(html: str) -> str:
    """The verdict block's words, as a reader sees them (tags out, entities and no-break spaces plain)."""
    block = html[html.index('id="verdicts"'):html.index('id="summary"')]
    return htmllib.unescape(re.sub(r"<[^>]+>", " ", block)).replace("\u00a0", " ")


def plain(s: str) -> str:
    return re.sub(r"\s+", " ", s.replace("\u00a0", " "))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """Synthetic two-seat runs (someone wins every game) whose seat verdicts are each of the codes."""
    out = {}
    for name, p0, n in (("within", 0.5, 40000), ("beyond", 0.6, 4000), ("inconclusive", 0.51, 4000),
                        ("unclear", 0.5, 20000)):
        out[name] = render_run_report(make_run(tmp_path_factory.mktemp(name), n_games=n, p_seat0=p0, n_cap=0), SPEC)
    return out


def seat_item(report: Path) -> dict:
    s = json.loads((report.parent / "summary.json").read_text())
    (item,) = [it for it in s["verdicts"]["items"] if it["id"] == "seats"]
    return item


def test_the_seat_verdict_within_the_margin(runs):
    assert seat_item(runs["within"])["verdict"] == "within_margin"
    html = runs["within"].read_text()
    words = verdict_text(html)
    assert "Seats are balanced within 2 points." in words
    assert 'data-verdict="within_margin"' in html and 'class="v good"' in html
    assert html.index('id="verdicts"') < html.index('id="summary"') < html.index('id="charts"')


def test_the_seat_verdict_beyond_the_margin(runs):
    item = seat_item(runs["beyond"])
    assert item["verdict"] == "beyond_margin"
    words = plain(verdict_text(runs["beyond"].read_text()))
    gap = fmt.points(item["estimate"]).replace("\u00a0", " ")
    assert f"Seat 1 wins {gap} more than seat 2 (more than your 2-point margin)." in words
    assert "margin ±2.0 pts" in words and "seat gap" in words and "n = 4,000 games" in words


@pytest.mark.parametrize("name", ["inconclusive", "unclear"])
def test_an_undecided_seat_verdict_says_how_many_games_would_decide(runs, name):
    item = seat_item(runs[name])
    total = item["games_to_decide"]  # stored by analysis.stats.margin_verdict: games in all, not more games
    assert item["verdict"] == {"inconclusive": "inconclusive", "unclear": "differs_size_unclear"}[name]
    assert total > item["n"]
    more, rerun = fmt.round_up(total - item["n"]), fmt.round_up(total)
    decide = f"about {more:,} more games would decide (rerun with -n {rerun})."
    words = plain(verdict_text(runs[name].read_text()))
    if name == "inconclusive":
        assert f"Not enough games to tell whether the seats are within 2 points of each other: {decide}" in words
    else:
        gap = fmt.points(item["estimate"]).replace("\u00a0", " ")
        assert (f"Seat 2 wins {gap} more than seat 1, but not enough games to tell whether by more than your "
                f"2-point margin: {decide}") in words or \
               (f"Seat 1 wins {gap} more than seat 2, but not enough games to tell whether by more than your "
                f"2-point margin: {decide}") in words


def test_games_to_decide_rounds_up_to_two_figures():
    assert [fmt.round_up(x) for x in (26353, 35259, 999, 100, 6353.2, 0)] == [27000, 36000, 1000, 100, 6400, 0]


def test_every_verdict_code_is_one_sentence_with_its_margin():
    ph = verdicts.Phrases(within="Seats are balanced within 2 points", differs="Seat 2 wins 4.1 points more than seat 4",
                          whether="the seats are within 2 points of each other", about="whether the seats are balanced")
    mw = fmt.margin_points(0.02)
    said = {code: verdicts.say(ph, {"verdict": code, "margin": 0.02, "reason": "no game set one seat against another"},
                               mw) for code in ("within_margin", "beyond_margin", "differs_size_unclear", "inconclusive",
                                                "no_information")}
    assert said == {
        "within_margin": "Seats are balanced within 2 points.",
        "beyond_margin": "Seat 2 wins 4.1 points more than seat 4 (more than your 2-point margin).",
        "differs_size_unclear": "Seat 2 wins 4.1 points more than seat 4, but not enough games to tell whether by more "
                                "than your 2-point margin.",
        "inconclusive": "Not enough games to tell whether the seats are within 2 points of each other.",
        "no_information": "Not enough information to say whether the seats are balanced: no game set one seat "
                          "against another.",
    }


def test_a_team_game_says_whether_its_win_rate_is_measured_to_within_the_margin(tmp_path):
    """No seats to set against each other (co-op): the headline's precision against the margin, and the games
    in all that would get it there (summary.json's `headline`)."""
    import dataclasses

    import polars as pl

    spec = dataclasses.replace(SPEC, cooperative=True)
    run = make_run(tmp_path, n_games=1500, n_cap=3)
    for p in (run / "parts").glob("seats-*.parquet"):
        s = pl.read_parquet(p)
        s.with_columns(pl.col("won").first().over("variant", "game_index")).write_parquet(p)
    html = render_run_report(run, spec).read_text()
    h = json.loads((run / "summary.json").read_text())["headline"]
    assert h["verdict"] == "imprecise" and h["half_width"] >= 0.02 and h["games_for_margin"] > 1500
    more, total = fmt.round_up(h["games_for_margin"] - 1500), fmt.round_up(h["games_for_margin"])
    assert (f"The team wins {fmt.pct(h['value'])} of games, measured only to ±{100 * h['half_width']:.1f} points, "
            f"wider than your 2-point margin: about {more:,} more games would measure it to within ±2 points "
            f"(rerun with -n {total}).") in plain(verdict_text(html))
    assert "3 games (0.2%) hit the turn cap of 100 decisions" in plain(verdict_text(html))


# ---------------------------------------------------------------- no card named on a figure known to ±20 points


def _slacker(s: dict) -> dict:
    """The issue's case: a card played 17 times whose lift (+23.8 pts, 95% CI [+5.8, +47.2]) tops the list."""
    s = copy.deepcopy(s)
    top = s["cards"]["top"][0]
    slacker = copy.deepcopy(top)
    slacker.update(card="The Slacker", lift={**top["lift"], "value": 0.238, "ci": [0.058, 0.472]},
                   win_rate_with={**top["win_rate_with"], "n": 17})
    s["cards"]["top"].insert(0, slacker)
    s["cards"]["dead"].append({**slacker})
    return s


def test_a_card_is_not_named_on_17_plays(runs):
    s = _slacker(json.loads((runs["within"].parent / "summary.json").read_text()))
    assert not nameable([0.058, 0.472], 0.02) and nameable(s["cards"]["top"][1]["lift"]["ci"], 0.02)
    words = " ".join(summary_sentences(SummaryResult.model_validate(s)))
    assert "most by winners +3" in words and "most by winners The Slacker" not in words
    found = {a["id"]: a for a in alerts(s, 0.02)}
    assert [c["card"] for c in found["card_lift"]["cards"]] == ["+3", "+1"]  # The Slacker: not named there
    assert "The Slacker" in found["dead_cards"]["cards"]  # dead on its play share, known to a fraction of a point


# ---------------------------------------------------------------- someone wins every game: the first seat leads


def test_a_two_player_headline_is_the_first_seat_not_someone_wins(runs):
    s = SummaryResult.read(runs["beyond"].parent)
    assert s.win_rate == 1.0
    figs = {f.label: f for f in key_figures(s)}
    assert "someone wins" not in figs
    seat1 = s.win_rate_by_seat[0]
    assert figs["seat 1 wins"].value == fmt.pct(seat1.value)
    assert "seats: beyond the margin (margin ±2.0\u00a0pts)" in figs["seat 1 wins"].detail
    assert "someone wins every game; seat 1 wins" in summary_sentences(s)[0]
    html = runs["beyond"].read_text()
    assert ">someone wins</div>" not in html and ">seat 1 wins</div>" in html


# ---------------------------------------------------------------- the reconstruction banner everywhere


def test_an_edited_copy_of_the_reconstruction_is_recognised_by_its_card_names(tmp_path):
    shipped = (ROOT / "data" / "overtime" / "cards.toml").read_text()
    n = len(card_names(ROOT / "data" / "overtime" / "cards.toml"))
    assert n == 37  # 5 assignments, the starting employee, 31 kinds of the main deck (summary.json's n_cards)
    one = tmp_path / "one.toml"
    one.write_text(shipped.replace('name = "The Slacker"', 'name = "A Printed Card"', 1))
    assert edited_from("overtime", one) == (n - 1, n)
    names = re.findall(r'^name = "([^"\\]+)"', shipped, re.M)
    printed = shipped
    for i, name in enumerate(dict.fromkeys(names)):
        if i < n // 2 + 1:
            printed = printed.replace(f'name = "{name}"', f'name = "Printed {i}"')
    assert len(card_names(ROOT / "data" / "overtime" / "cards.toml") - card_names_of_text(printed, tmp_path)) > n // 2
    (tmp_path / "printed.toml").write_text(printed)
    assert edited_from("overtime", tmp_path / "printed.toml") is None  # most names new: the printed game
    assert edited_from("sickdays-solo", one) is None  # Sick Days ships its printed deck


def test_a_run_of_an_edited_copy_gets_the_banner_from_its_own_copy(tmp_path):
    src = (ROOT / "data" / "overtime" / "cards.toml").read_text()
    run = tmp_path / "run"
    (run / "cards").mkdir(parents=True)
    (run / "cards" / "abc.toml").write_text(src.replace('name = "The Slacker"', 'name = "A Printed Card"', 1))
    block = {"file": "/elsewhere/my-cards.toml", "sha256": "ab" * 32, "shipped": False, "reconstruction": False}
    manifest = {"config": {"game": "overtime", "card_list": block,
                           "card_files": [{"file": "cards/abc.toml", "sha256": "ab" * 32}],
                           "variants": [{"name": "base", "params": {"cards": "/elsewhere/my-cards.toml"}}]}}
    (note,) = card_lists(manifest, None, run)
    assert note.edited is not None and note.invented
    (banner,) = card_banner([note], 1, "Overtime")
    assert "an edited copy of the reconstructed card list of Overtime" in banner and "/elsewhere/my-cards.toml" in banner


def card_names_of_text(text: str, tmp: Path) -> set[str]:
    path = tmp / "names.toml"
    path.write_text(text)
    return card_names(path)


def _recon_compare() -> dict:
    r = compare_result()
    r.update(game="overtime", title="Overtime", changed={"cards": ["", "my-cards.toml"]})
    r["card_diff"] = {"a": {"file": "data/overtime/cards.toml", "sha256": "a" * 64, "shipped": True,
                            "reconstruction": True},
                      "b": {"file": "my-cards.toml", "sha256": "b" * 64, "shipped": False, "reconstruction": False,
                            "edited": [36, 37]},
                      "same": False, "rows": [], "words": "The two sides play different card lists."}
    return r


def test_a_compare_report_of_the_reconstruction_has_the_banner(tmp_path):
    html = plain(htmllib.unescape(render_compare_report(tmp_path, typed(_recon_compare())).read_text()))
    assert "This comparison plays the reconstructed card list of Overtime (side A)" in html
    assert "this comparison plays my-cards.toml (side B), an edited copy of the reconstructed card list of " \
           "Overtime: 36 of its 37 card names are the reconstruction's invented cards" in html
    assert html.index('class="banner"') < html.index('id="verdicts"')


def test_a_ladder_and_a_tuning_report_of_the_reconstruction_have_the_banner(tmp_path, monkeypatch):
    from balance.simcore import registry

    spec = registry.get("overtime")
    lad = tmp_path / "lad"
    lad.mkdir()
    (lad / "manifest.json").write_text(json.dumps({"kind": "ladder", "config": {
        "game": "overtime", "params": {}, "card_list": {"file": "data/overtime/cards.toml", "sha256": "c" * 64,
                                                       "shipped": True, "reconstruction": True},
        "variants": [{"name": "x", "params": {}}]}}))
    result = {"kind": "ladder", "game": "overtime", "title": "Overtime", "players": 4, "competitive": True,
              "cooperative": False, "seed": 1, "n_requested": None, "search_share": {}, "levels": [], "left_out": [],
              "engine_hash": None, "ladders": [], "margin": 0.02, "complete": True, "policies": None}
    html = render_ladder_report(lad, result, spec).read_text()
    assert "This run plays the reconstructed card list of Overtime" in html
    tune = _fake_tune(monkeypatch, lambda p: 0.5)
    res = tune.tune(spec, {}, [{"snooze_thresholds": [4, 7, 10]}], [tune.parse_target("win_rate=0.45..0.55")], 2,
                    [tune.resolve_policy(spec, "greedy", {})], 1, 200, 400, keep=1, n_fresh=400, skill=False)
    html = plain(render_tuning_report(tmp_path / "t", res).read_text())
    assert "This tuning plays the reconstructed card list of Overtime" in html
    assert ("Not enough fresh games to tell whether the win rate target (45.0% to 55.0%) is met: 49.8%, its interval "
            "crosses the band's edge.") in htmllib.unescape(html)


def test_a_sick_days_campaign_has_no_banner_and_says_its_steps(tmp_path):
    from balance.simcore import registry

    html = plain(htmllib.unescape(render_campaign_report(tmp_path, campaign_result(), registry.get("sickdays-solo"))
                                  .read_text()))
    assert 'class="banner"' not in html
    assert "Level 2's attempts win 20.0 points less than level 1's (harder) (more than your 2-point margin)." in html
    assert "Level 3's attempts win 5.0 points more than level 2's (easier)" in html


# ---------------------------------------------------------------- every report type in a browser at 1280 px


SCREEN = 900
PROBE = """<script>
(function () {
  var bad = [], doc = document.documentElement;
  var vs = document.querySelectorAll('#verdicts .v');
  if (!vs.length) bad.push('no verdict');
  vs.forEach(function (v, i) {
    var r = v.getBoundingClientRect();
    if (r.bottom > %(screen)d) bad.push('verdict ' + i + ' ends at ' + Math.round(r.bottom) + 'px');
  });
  document.querySelectorAll('a.go').forEach(function (a) {
    if (!document.getElementById(a.getAttribute('href').slice(1))) bad.push('dead link ' + a.getAttribute('href'));
  });
  if (doc.scrollWidth > doc.clientWidth + 1) bad.push('page scrolls sideways ' + doc.scrollWidth);
  document.querySelectorAll('.table-block').forEach(function (b) {
    var name = b.querySelector('h3').textContent, t = b.querySelector('table');
    if (b.scrollWidth > b.clientWidth + 1) bad.push(name + ': ' + b.scrollWidth + 'px wide in ' + b.clientWidth);
    if (!t) return;
    var a = b.querySelector('.tools a.csv');
    if (!a) { bad.push(name + ': no CSV'); return; }
    var csv = decodeURIComponent(a.getAttribute('href').replace(/^data:text\\/csv;charset=utf-8,/, ''));
    var lines = csv.split('\\r\\n');
    var head = Array.prototype.map.call(t.tHead.rows[0].cells, function (c) { return c.textContent.trim(); });
    if (lines[0].replace(/"/g, '').indexOf(head[0].replace(/"/g, '')) !== 0) bad.push(name + ': CSV header ' + lines[0]);
    if (lines.length !== t.tBodies[0].rows.length + 2) bad.push(name + ': CSV has ' + lines.length + ' lines');
  });
  var out = document.createElement('pre');
  out.textContent = 'PRO' + 'BE[' + (bad.length ? bad.join(' | ') : 'ok') + ']' + 'FIRST[' +
    Array.prototype.map.call(vs, function (v) { return v.querySelector('.said').textContent; }).join(' / ') + ']';
  document.body.appendChild(out);
})();
</script>""" % {"screen": SCREEN}


def probe(binary: str, tmp: Path, report: Path) -> tuple[str, str]:
    page = tmp / f"probe-{report.parent.name}.html"
    page.write_text(report.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = _chromium(binary, tmp / "profile", "--dump-dom", f"--window-size=1280,{SCREEN}", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r"PROBE\[(.*?)\]FIRST\[(.*?)\]", dom.stdout, re.S)
    assert found, dom.stdout[-2000:]
    return found.group(1), found.group(2)


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    from balance.cli.app import app
    from balance.simcore import registry

    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(registry.GAMES, "race21", "toygame")
        runner = CliRunner()
        yield lambda *a: runner.invoke(app, [str(x) for x in a]), tmp_path_factory.mktemp("toy")


@pytest.fixture(scope="module")
def every_report(toy, runs, tmp_path_factory, request) -> dict[str, Path]:
    balance, root = toy
    out = {"run": runs["unclear"]}
    r = balance("sweep", "--game", "race21", "--vary", "target=11..26:5", "-n", 600, "--out", root / "sweep", "--quiet")
    assert r.exit_code == 0, r.output
    out["sweep"] = root / "sweep" / "report.html"
    r = balance("impact", "--game", "race21", "--policy", "greedy", "--policy-param", "epsilon=0.2", "-n", 400,
                "--rules", "bug_total,target", "--out", root / "impact", "--quiet")
    assert r.exit_code == 0, r.output
    out["impact"] = root / "impact" / "report.html"
    r = balance("ladder", "--game", "race21", "-n", 120, "--search-share", 0.5, "--seed", 11, "--out", root / "ladder",
                "--quiet")
    assert r.exit_code == 0, r.output
    out["ladder"] = root / "ladder" / "report.html"
    tmp = tmp_path_factory.mktemp("others")
    out["compare"] = render_compare_report(tmp / "compare", typed(_recon_compare()))
    out["campaign"] = render_campaign_report(tmp / "campaign", campaign_result())
    mp = pytest.MonkeyPatch()
    request.addfinalizer(mp.undo)
    from balance.simcore import registry

    tune = _fake_tune(mp, lambda p: {4: 0.50, 5: 0.58, 6: 0.30}[p["snooze_thresholds"][0]], players=2)
    spec = registry.get("overtime")
    res = tune.tune(spec, {}, [{"snooze_thresholds": [k, k + 3, k + 6]} for k in (4, 5, 6)],
                    [tune.parse_target(t) for t in ("win_rate=0.45..0.55", "seat_gap<=0.02")], 2,
                    [tune.resolve_policy(spec, "greedy", {})], 1, 400, 2000, keep=2, n_fresh=2000, n_skill=400)
    out["tune"] = render_tuning_report(tmp / "tune", res)
    return out


@pytest.mark.parametrize("kind", ["run", "sweep", "compare", "impact", "ladder", "tune", "campaign"])
def test_every_report_type_shows_its_verdicts_on_the_first_screen_at_1280px(every_report, kind, tmp_path):
    binary = _chromium_or_skip()
    html = every_report[kind].read_text(encoding="utf-8")
    assert_self_contained(html)
    assert html.index('id="verdicts"') < html.index('id="summary"')
    assert 'id="methods"' in html and "How this was measured" in html
    bad, first = probe(binary, tmp_path, every_report[kind])
    assert bad == "ok", bad
    assert first.strip(), "no verdict sentence"


def test_a_rebuilt_ladder_and_impact_keep_their_verdicts(every_report):
    for kind in ("ladder", "impact"):
        folder = every_report[kind].parent
        before = verdict_text(every_report[kind].read_text())
        rebuild_report(folder)
        assert verdict_text((folder / "report.html").read_text()) == before
    lad = json.loads((every_report["ladder"].parent / "summary.json").read_text())
    ids = {it["id"] for it in lad["verdicts"]["items"]}
    assert "skill" in ids and all("verdict" in it and "margin" in it for it in lad["verdicts"]["items"])


def test_tables_sort_and_filter_in_the_browser(runs, tmp_path):
    """Click a heading: the rows sort by it (numbers as numbers); type in the filter: only matching rows show."""
    binary = _chromium_or_skip()
    report = runs["within"]
    script = """<script>
(function () {
  var b = document.getElementById('table-end-reasons'), t = b.querySelector('table');
  var th = t.tHead.rows[0].cells[1];  // games
  th.click(); th.click();  // descending
  var vals = Array.prototype.map.call(t.tBodies[0].rows, function (r) { return r.cells[1].textContent; });
  var f = b.querySelector('.tools input');
  f.value = 'cap'; f.dispatchEvent(new Event('input'));
  var shown = Array.prototype.filter.call(t.tBodies[0].rows, function (r) { return r.style.display !== 'none'; });
  var out = document.createElement('pre');
  out.textContent = 'SORT[' + th.getAttribute('aria-sort') + ':' + vals.join('|') + ']SHOWN[' +
    shown.map(function (r) { return r.cells[0].textContent; }).join('|') + ':' + b.querySelector('.shown').textContent + ']';
  document.body.appendChild(out);
})();
</script>"""
    page = tmp_path / "sort.html"
    page.write_text(report.read_text().replace("</body>", script + "</body>"))
    dom = _chromium(binary, tmp_path / "profile", "--dump-dom", "--window-size=1280,900", page.as_uri())
    found = re.search(r"SORT\[(.*?)\]SHOWN\[(.*?)\]", dom.stdout)
    assert found, dom.stdout[-1500:]
    order, vals = found.group(1).split(":")
    counts = [int(v.replace(",", "")) for v in vals.split("|")]
    assert order == "descending" and counts == sorted(counts, reverse=True) and counts[0] == 40000
    names, n = found.group(2).split(":")
    assert names == "cap" and n.startswith("1 of ")


A4_TEXT_HEIGHT_PX = 1031  # 297 mm less two 12 mm margins (the report's @page), at 96 px per inch


def _big_impact() -> dict:
    """An impact result of 30 cards, each with one copy removed, all removed and one added (as Overtime's)."""
    rows = []
    for i in range(30):
        for j, change in enumerate(("remove_all", "remove_one", "add_one")):
            d = (0.3 - 0.02 * i) * (1, 0.4, -0.3)[j]
            rows.append({"what": "card", "card": f"Card number {i}", "change": change, "variant": f"c{i}:{change}",
                         "copies": [3, (0, 2, 4)[j]], "change_words": change.replace("_", " "), "diff": d,
                         "ci": [d - 0.02, d + 0.02], "significant": abs(d) > 0.02, "n_a": 2000, "rate": True,
                         "margin": 0.02, "ci_level": 0.9998, "a": 0.5, "b": 0.5 + d, "p_holm": 0.01,
                         "margin_verdict": {"verdict": "beyond_margin" if abs(d) > 0.04 else "inconclusive",
                                            "margin": 0.02, "games_to_decide": 9000}})
    from types import SimpleNamespace as Obj  # the fields of impact.json's model the tornado reads

    return Obj(rows=[Obj(**r) for r in rows], ci_level=0.9998, family_size=len(rows), margin=0.02, primary_rate=True,
               primary="win rate", primary_unit=None)


def test_a_printed_tornado_fits_one_page_with_its_caption(tmp_path):
    """break-inside: avoid cannot keep a figure taller than the page in one piece: a 25-card tornado was one
    chart 2,200 px tall at the page's width. Now each chart, caption included, fits an A4 page."""
    binary = _chromium_or_skip()
    from balance.reports import render_html
    from balance.reports.impact import tornado_charts
    from balance.reports.views import RunReport
    from test_run_report import A4_TEXT_WIDTH_PX, print_styles

    res = _big_impact()
    figs = tornado_charts(res, "card")
    assert len(figs) > 1 and all(f.title.startswith("Card ablation (") for f in figs)
    html = render_html(RunReport("t", "s", ["x"], [], [], figs, [], [], "now"))
    assert "break-inside: avoid" in print_styles(html)
    probe_js = """<script>(function () {
  var out = [];
  document.querySelectorAll('figure').forEach(function (f) {
    var c = f.querySelector('figcaption').getBoundingClientRect(), r = f.getBoundingClientRect();
    out.push(Math.round(r.height) + ':' + (c.bottom <= r.bottom + 1 ? 'in' : 'out'));
  });
  var pre = document.createElement('pre'); pre.textContent = 'FIGS[' + out.join(' ') + ']'; document.body.appendChild(pre);
})();</script>"""
    page = tmp_path / "print.html"
    page.write_text(html.replace("</head>", f"<style>{print_styles(html)}</style></head>").replace("</body>", probe_js + "</body>"))
    dom = _chromium(binary, tmp_path / "profile", "--dump-dom", f"--window-size={A4_TEXT_WIDTH_PX},1200", page.as_uri())
    found = re.findall(r"FIGS\[(.*?)\]", dom.stdout)
    assert found, dom.stdout[-1500:]
    sizes = [x.split(":") for x in found[-1].split()]
    assert len(sizes) == len(figs)
    assert all(int(h) <= A4_TEXT_HEIGHT_PX and where == "in" for h, where in sizes), sizes


def test_the_report_wording_is_built_in_one_module():
    """No report type builds its verdict sentences itself: every one calls reports.verdicts."""
    for name in ("views", "sweep", "comparison", "impact", "ladder", "tuning", "campaign"):
        src = (ROOT / "reports" / f"{name}.py").read_text()
        assert "verdicts." in src and "more than your" not in src, name
