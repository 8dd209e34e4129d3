"""`balance report FOLDER` rebuilds any folder as the kind it is (reports.rebuild_report
and its table FOLDER_KINDS): run, sweep, compare (also `compare --game`, a sweep
folder with a comparison.json), tune, campaign, and a later kind by one entry."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from synthetic import make_run

from balance import reports
from balance.analysis.campaign import write_campaign
from balance.reports import FolderKind, folder_kind, rebuild_report
from balance.simcore import registry
from balance.simcore.errors import BalanceError

from test_other_reports import _fake_tune, campaign_result, compare_result, typed

from balance.analysis.summary import jsonable


@pytest.fixture(autouse=True)
def race21(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "race21", "toygame")


def title(path: Path) -> str:
    html = path.read_text(encoding="utf-8")
    return html[html.index("<h1>") + 4:html.index("</h1>")]


def test_run_folder(tmp_path):
    run = make_run(tmp_path, n_games=600)
    assert folder_kind(run).kind == "run"
    path = rebuild_report(run)
    assert path == run / "report.html" and (run / "summary.json").exists()
    assert title(path).startswith("Race to 21 (test game): balance report")


def test_sweep_folder(tmp_path):
    run = make_run(tmp_path, n_games=300, n_cap=0, variants={"a": 0.5, "b": 0.6})
    assert title(rebuild_report(run)).startswith("Race to 21 (test game): sweep report")


def test_compare_game_folder_stays_a_comparison(tmp_path):
    """`compare --game` writes a sweep folder (manifest kind "sweep") and comparison.json:
    rebuilt, it is the comparison, not a sweep report."""
    run = make_run(tmp_path, n_games=300, n_cap=0, variants={"A": 0.5, "B": 0.6})
    assert json.loads((run / "manifest.json").read_text())["kind"] == "sweep"
    typed({**compare_result(), "command": "balance compare --game x"}).write(run)
    assert folder_kind(run).kind == "compare"
    html = rebuild_report(run).read_text()
    assert "comparison, B against A" in html and "sweep report" not in html
    assert "B changes pizzas from 2 to 3." in html and "balance compare --game x" in html


def test_compare_folder_of_two_runs(tmp_path):
    typed({**compare_result(), "command": "balance compare a b"}).write(tmp_path)
    assert "comparison, B against A" in title(rebuild_report(tmp_path))


def test_tune_folder(tmp_path, monkeypatch):
    from balance.simcore import registry

    tune = _fake_tune(monkeypatch, lambda p: {4: 0.50, 5: 0.58}[p["snooze_thresholds"][0]], players=2)
    spec = registry.get("overtime")
    points = [{"snooze_thresholds": [k, k + 3, k + 6]} for k in (4, 5)]
    result = tune.tune(spec, {}, points, [tune.parse_target("win_rate=0.45..0.55")], 2,
                       [tune.resolve_policy(spec, "greedy", {})], 1, 400, 4000, keep=1, n_fresh=3000, n_skill=400)
    tune.write_tuning(tmp_path, result, "balance tune ...")
    assert folder_kind(tmp_path).kind == "tune"
    html = rebuild_report(tmp_path).read_text()
    assert "recommends snooze_thresholds=4-7-10" in html and "not a run folder" not in html


def test_campaign_folder(tmp_path):
    write_campaign(tmp_path, None, campaign_result(), "balance campaign")
    path = rebuild_report(tmp_path)
    assert title(path).startswith("Use Up All Your Sick Days") and "campaign report" in title(path)
    assert "balance campaign" in path.read_text()


def test_a_new_kind_is_one_entry(tmp_path, monkeypatch):
    def rebuild(folder: Path) -> Path:
        (folder / "report.html").write_text("impact " + json.loads((folder / "impact.json").read_text())["card"])
        return folder / "report.html"

    monkeypatch.setattr(reports, "FOLDER_KINDS", [FolderKind("impact", "impact.json", rebuild), *reports.FOLDER_KINDS])
    run = make_run(tmp_path, n_games=300)
    (run / "impact.json").write_text(json.dumps({"card": "Coffee Break"}))
    assert folder_kind(run).kind == "impact"
    assert rebuild_report(run).read_text() == "impact Coffee Break"


def test_not_a_folder_balance_wrote(tmp_path):
    with pytest.raises(BalanceError, match="not a folder balance wrote .*manifest.json.*allowed: a compare, tune, "
                                           "campaign, impact, ladder, playtests, run folder"):
        rebuild_report(tmp_path)
    with pytest.raises(BalanceError, match="no such folder"):
        rebuild_report(tmp_path / "missing")
    (tmp_path / "tuning.json").write_text("{not json")
    with pytest.raises(BalanceError, match=r"tuning.json: damaged \(not JSON at line 1: truncated or damaged\); run "
                                           r"`balance tune` again"):
        rebuild_report(tmp_path)


def test_report_command_rebuilds_any_kind(tmp_path):
    from balance.cli.app import app

    runner = CliRunner()
    run = make_run(tmp_path / "r", n_games=300)
    r = runner.invoke(app, ["report", str(run)])
    assert r.exit_code == 0, r.output
    assert f"report: {run / 'report.html'}" in r.output.replace("\n", "")
    (tmp_path / "c").mkdir()
    write_campaign(tmp_path / "c", None, campaign_result(), None)
    r = runner.invoke(app, ["report", str(tmp_path / "c")])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["report", str(tmp_path / "empty")])
    assert r.exit_code == 2 and "no such folder" in r.output and "Traceback" not in r.output
