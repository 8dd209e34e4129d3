"""The playtests report says its verdicts in plain words, first, read from playtests.json alone."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from balance.analysis import playtests as PT
from balance.reports.playtests import build_playtests_report, render_playtests_report
from balance.simcore import registry

DOCS = Path(__file__).resolve().parents[2] / "docs" / "playtests"


def test_a_log_whose_seats_differ_is_said_in_plain_words(tmp_path):
    spec = registry.get("youre-fired")
    log = tmp_path / "our <group>.csv"  # a name the page must escape
    shutil.copy(DOCS / "youre-fired.csv", log)
    result = PT.analyse(spec, log, n=400, seed=2, expert=False)
    result = json.loads(json.dumps(result, default=str))  # what playtests.json holds
    view = build_playtests_report(result, spec)
    said = [v.sentence for v in view.block.verdicts]
    seat1 = next(s for s in said if s.startswith("Seat 1"))
    assert re.match(r"Seat 1 wins more in your playtests than in the simulation: \d+\.\d% \[\d+, \d+\] of 40 games "
                    r"vs \d+\.\d%", seat1), seat1
    assert any(s.startswith("Your group plays like greedy with epsilon") for s in said), said
    assert [a.kind for a in view.block.alerts] == ["seats"]  # the one-rung fit reads the table's average
    codes = [v.code for v in view.block.verdicts]
    assert codes[0] in ("beyond_margin", "differs_size_unclear")  # the differences come first
    path = render_playtests_report(tmp_path / "out", result, spec)
    html = path.read_text()
    assert "our &lt;group&gt;.csv" in html and "our <group>" not in html
    assert html.index("Seat 1 wins more") < html.index('id="table-playtests"') < html.index("How this was measured")


def test_a_log_from_the_simulated_settings_says_nothing_differs(tmp_path):
    from balance.analysis.playtest_log import synthesize, write_log
    from balance.simcore.batch import resolve_policy

    spec = registry.get("youre-fired")
    rows = synthesize(spec, 2, [], None, [resolve_policy(spec, "greedy")], 20, 77)
    log = write_log(tmp_path / "same.csv", rows)
    result = json.loads(json.dumps(PT.analyse(spec, log, n=400, seed=2, expert=False), default=str))
    assert not any(it["significant"] for it in result["comparison"]["items"])
    view = build_playtests_report(result, spec)
    assert view.block.verdicts[0].sentence.startswith("Nothing in your playtests differs significantly")
    assert [a.kind for a in view.block.alerts] == ["few"]  # 20 games
    assert all(it["playtest"]["n"] == 20 for it in result["comparison"]["items"])
