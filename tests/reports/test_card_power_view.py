"""balance.reports.card_power: the view model of a card-power table (what the impact report shows first)."""
import numpy as np

from balance.analysis import card_power as cp
from balance.reports import card_power as view
from tests.analysis.test_card_power import SPEC, manifest, synthetic


def _result(effect):
    seats, games = synthetic(5, 2, 12000, seed=4, rng=np.random.default_rng(3), effect=effect)  # narrow enough to name
    return cp.analyse_frames(seats, games, manifest(5, 2, 4), SPEC, 0.02, 0.05)


def test_the_strong_card_leads_the_table_the_chart_and_the_verdicts():
    res = _result({2: 0.15})
    v = view.view(res, [{"card": "Boss", "reason": "one Boss a player, by the rules"}])
    t = v.tables[0]
    assert t.columns == view.COLUMNS and [r[1] for r in t.rows][0] == "card 2" and len(t.rows) == 5
    assert "Bonferroni over the 5 cards" in t.note
    assert v.tables[1].rows == [["Boss", "one Boss a player, by the rules"]]
    assert v.charts and "<svg" in str(v.charts[0].svg)
    lines = view.verdict_list(res, v.anchor)
    assert lines[0].code == "beyond_margin" and lines[0].sentence.startswith("card 2 is strong: one more copy raises")
    assert "more than your 2-point margin" in lines[0].sentence
    assert any("card 2" in s for s in v.sentences)
    assert "card 2" in view.text_table(res).splitlines()[1]


def test_a_null_family_names_no_card_as_strong():
    res = _result(None)
    lines = view.verdict_list(res)
    assert not any(x.code == "beyond_margin" for x in lines)
    assert view.view({"rows": []}) is None
