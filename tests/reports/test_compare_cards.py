"""The compare report (issue 18 item 4): the card-by-card diff of the two sides'
card lists, from the manifests' card_list records, and the headline first in
the one number format of reports/fmt.py."""
from __future__ import annotations

import json
import re
from pathlib import Path

from balance.analysis.card_copies import card_list_record
from balance.reports import render_compare_report
from balance.reports.comparison import build_compare_report, card_diff_of, headline_first
from balance.simcore import registry
from balance.simcore.files import data_file
from balance.simcore.params import resolve
from tests.reports.test_other_reports import compare_result, typed


def fake_run(folder: Path, game: str, params: dict, variant: str = "base") -> Path:
    """A run folder's manifest with what compare reads of it (no games played)."""
    spec = registry.get(game)
    full = resolve(spec, params)
    folder.mkdir(parents=True, exist_ok=True)
    manifest = {"kind": "run", "config": {"game": game, "params": full, "card_list": card_list_record(spec, full),
                                          "variants": [{"name": variant, "params": full,
                                                        "card_list": card_list_record(spec, full)}]}}
    (folder / "manifest.json").write_text(json.dumps(manifest, default=str))
    return folder


def edited_cards(tmp_path: Path) -> Path:
    text = data_file("overtime", "cards.toml").read_text()
    names = re.findall(r'^name = "(.*)"$', text, flags=re.M)
    assert "Power Outage" in names
    out = tmp_path / "my-cards.toml"
    out.write_text(text.replace('name = "Power Outage"', 'name = "Blackout"', 1))
    return out


def result_for(a: Path, b: Path, game="overtime", changed=None) -> dict:
    r = compare_result()
    r["game"], r["title"] = game, game
    r["a"] = {**r["a"], "run": str(a)}
    r["b"] = {**r["b"], "run": str(b)}
    r["changed"] = changed or {}
    return r


def test_different_card_lists_show_the_cards_that_differ(tmp_path):
    mine = edited_cards(tmp_path)
    a = fake_run(tmp_path / "a", "overtime", {})
    b = fake_run(tmp_path / "b", "overtime", {"cards": str(mine)})
    r = result_for(a, b, changed={"cards": ["", str(mine)]})
    cd = card_diff_of(r)
    assert cd["same"] is False and cd["a"]["reconstruction"] is True
    assert ["changed", "card", "Blackout", "name", "Power Outage", "Blackout"] in cd["rows"]
    json.dumps(cd)  # kept in comparison.json
    r["card_diff"] = cd
    (tmp_path / "cmp").mkdir()
    html = render_compare_report(tmp_path / "cmp", typed(r)).read_text()
    assert "Card lists: B against A" in html and "Power Outage" in html and "Blackout" in html
    # the change says which files, never "from  to FILE"
    assert "B changes the card list from data/overtime/cards.toml (the shipped reconstruction) to " in html
    assert "cards from  to" not in html


def test_a_rebuild_needs_no_card_file(tmp_path):
    mine = edited_cards(tmp_path)
    a = fake_run(tmp_path / "a", "overtime", {})
    b = fake_run(tmp_path / "b", "overtime", {"cards": str(mine)})
    r = result_for(a, b, changed={"cards": ["", str(mine)]})
    r["card_diff"] = card_diff_of(r)
    mine.unlink()
    view = build_compare_report(typed(json.loads(json.dumps(r))))
    assert any(t.title == "Card lists: B against A" for t in view.tables)


def test_same_card_list_is_one_sentence_and_no_table(tmp_path):
    a = fake_run(tmp_path / "a", "overtime", {})
    b = fake_run(tmp_path / "b", "overtime", {"rounds": 7})
    r = result_for(a, b, changed={"rounds": [8, 7]})
    cd = card_diff_of(r)
    assert cd["same"] is True and cd["rows"] == [] and "same card list" in cd["words"]
    view = build_compare_report(typed({**r, "card_diff": cd}))
    assert not any(t.title.startswith("Card lists") for t in view.tables)


def test_a_changed_file_is_said_not_diffed(tmp_path):
    mine = edited_cards(tmp_path)
    a = fake_run(tmp_path / "a", "overtime", {})
    b = fake_run(tmp_path / "b", "overtime", {"cards": str(mine)})
    mine.write_text(mine.read_text().replace('name = "Blackout"', 'name = "Brownout"', 1))
    cd = card_diff_of(result_for(a, b))
    assert cd["same"] is False and cd["rows"] == [] and "changed since the run" in cd["words"]
    view = build_compare_report(typed({**result_for(a, b), "card_diff": cd}))
    assert any("changed since the run" in w for w in view.warnings)


def test_a_game_without_cards_and_missing_folders_have_no_card_section(tmp_path):
    r = compare_result()  # its runs (/runs/a, /runs/b) are not on this machine
    assert card_diff_of(r) is None
    view = build_compare_report(typed(r))
    assert not any(t.title.startswith("Card lists") for t in view.tables)


def test_headline_first_in_every_table_and_the_key_figures(tmp_path):
    r = compare_result()
    r["metrics"] = r["metrics"][1:] + r["metrics"][:1]  # the win rate last, as issue 18 found it (21st of 25)
    assert headline_first(typed(r))[0].metric == "win rate"
    view = build_compare_report(typed(r))
    assert view.key_figures[0].label == "win rate, B − A" and view.key_figures[0].value == "+4.0\u00a0pts"
    assert view.summary[0].startswith("Primary metric, the win rate: A 62.0%, B 66.0%")
    for t in view.tables:
        if t.title in ("Verdicts against the margin", "Balance diff"):
            assert t.rows[0][0] == "win rate", t.title


def test_one_number_format(tmp_path):
    html = render_compare_report(tmp_path, typed(compare_result())).read_text()
    # rates as 43.3%, never as a bare share next to them; differences in pts; intervals in brackets
    assert "62.0%" in html and "0.62" not in html and "0.4329" not in html
    assert " to +" not in html  # the old "+3.0 to +5.0 pts" interval style
    assert "[+1.30,\u00a0+1.70]" in html  # a length difference's interval, in its own unit
