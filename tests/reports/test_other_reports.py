"""Sweep, comparison, tuning and campaign reports: self-contained, plain words
first, n and intervals everywhere, charts that render in headless Chromium."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from synthetic import SPEC, make_run

from balance.analysis.stats import mean_ci, rate
from balance.reports import (render_campaign_report, render_compare_report, render_run_report, render_sweep_report,
                     render_tuning_report)
from balance.reports.sweep import axes, fmt_value

from test_run_report import _chromium, _chromium_or_skip, assert_self_contained


def assert_order(html: str) -> None:
    s = html.index('id="summary"')
    assert s < html.index('id="charts"') < html.index('id="tables"') < html.index('id="provenance"')


def assert_n_everywhere(html: str) -> None:
    for fig in re.findall(r"<figure.*?</figure>", html, re.S):
        assert "n = " in fig or "n (second line)" in fig, fig[-400:]
    for table in re.findall(r"<table>.*?</table>", html, re.S):
        head = re.search(r"<thead>(.*?)</thead>", table, re.S).group(1)
        assert re.search(r"<th[^>]*>n( [a-z -]+)?</th>", head) or "(n = " in table, head


# ---------------------------------------------------------------- sweeps


@pytest.fixture(scope="module")
def sweep_2d(tmp_path_factory) -> Path:
    """A synthetic 2-D sweep: target x first, seat 1's win rate rising with target."""
    probs, params = {}, {}
    for t in (15, 21, 27):
        for lv in (1, 2):
            name = f"target={t},level={lv}"
            probs[name] = 0.35 + (t - 15) / 40 + 0.05 * lv
            params[name] = {"target": t, "level": lv}
    run = make_run(tmp_path_factory.mktemp("sweep2d"), n_games=1000, n_cap=0, variants=probs, variant_params=params)
    return render_run_report(run, SPEC)


def test_sweep_report_is_chosen_for_several_variants(sweep_2d):
    html = sweep_2d.read_text()
    assert_self_contained(html)
    assert_order(html)
    assert "sweep report" in html and "This sweep plays 6 points (target = 15, 21, 27 × level = 1, 2)" in html
    summary = json.loads((sweep_2d.parent / "summary.json").read_text())
    assert summary["paired_vs_first"]["baseline"] == "target=15,level=1"
    assert len(summary["paired_vs_first"]["comparisons"]) == 5


def test_sweep_report_words_heatmap_curves_and_table(sweep_2d):
    html = sweep_2d.read_text()
    assert "Win rate (the share of games someone wins) is 100.0% at every point" in html
    assert "Seat 1 wins most at target=27, level=2" in html and "least at target=15, level=1" in html
    assert "No point differs significantly in win rate from the first" in html
    assert "paired game by game on the same deals, Bonferroni-corrected over 5 comparisons" in html
    assert "Win rate over target × level" in html  # the heatmap
    assert "Win rate by seat against target" in html and "Win rate by seat against level" in html
    assert "Mean length (decisions) against target" in html
    assert "Variants: the points of the sweep" in html and "At the first point (target=15, level=1)" in html and "Pooled" not in html
    assert html.count("<svg") >= 8
    assert_n_everywhere(html)


def test_sweep_axes_categorical_for_lists():
    from types import SimpleNamespace as NS

    s = NS(variants=[NS(name="a", varied={"snooze_thresholds": [4, 7, 10]}, params={}),
                     NS(name="b", varied={"snooze_thresholds": [5, 8, 11]}, params={})])
    (ax,) = axes(s)
    assert not ax.numeric and ax.labels == ["4-7-10", "5-8-11"]
    assert fmt_value(True) == "true" and fmt_value(2.0) == "2"


def test_list_valued_sweep_renders_with_categorical_x(tmp_path):
    run = make_run(tmp_path, n_games=400, n_cap=0, variants={"a": 0.5, "b": 0.6, "c": 0.7})
    m = json.loads((run / "manifest.json").read_text())
    for v, th in zip(m["config"]["variants"], ([4, 7, 10], [5, 8, 11], [6, 9, 12])):
        v["varied"] = {"snooze_thresholds": th}
        v["params"] = {"snooze_thresholds": th}
    (run / "manifest.json").write_text(json.dumps(m))
    html = render_sweep_report(run, SPEC).read_text()
    assert "snooze_thresholds (categories)" in html and "5-8-11" in html
    assert "Win rate over" not in html  # one parameter: no heatmap


@pytest.fixture(scope="module")
def toy_cli(tmp_path_factory):
    from balance.cli.app import app
    from balance.simcore import registry

    with pytest.MonkeyPatch.context() as mp:  # undone after the module: later tests see the real registry
        mp.setitem(registry.GAMES, "race21", "toygame")
        runner = CliRunner()
        yield lambda *a: runner.invoke(app, [str(x) for x in a]), tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def real_sweep(toy_cli) -> Path:
    balance, root = toy_cli
    out = root / "sweep"
    r = balance("sweep", "--game", "race21", "--vary", "target=11..26:5", "-n", 600, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    return out / "report.html"


def test_real_sweep_report(real_sweep):
    html = real_sweep.read_text()
    assert_self_contained(html)
    assert "This sweep plays 4 points (target = 11, 16, 21, 26), 600 games each on the same deals" in html
    assert "Game length (decisions) against target" in html
    assert "Win rate by seat against target" in html
    assert_n_everywhere(html)


# ---------------------------------------------------------------- comparisons


def pairing(correlation: float, width_ratio: float, basis: str = "same deals", n_pairs: int = 5000) -> dict:
    """comparison.json's `pairing` as analysis.compare.pairing_of measures it (its sentence made once, there)."""
    from balance.analysis.compare import pairing_sentence

    p = {"correlation": correlation, "width_ratio": width_ratio, "n_pairs": n_pairs, "level": 0.95,
         "how": "paired interval's width / unpaired interval's width, same games, same level"}
    return {**p, "words": pairing_sentence(p, basis)}


def compare_result() -> dict:
    """A comparison.json's content, as a dict to edit; `typed` makes it the schema's model."""
    from balance.analysis.stats import margin_verdict

    def m(metric, a, b, lo, hi, p, sig, method="paired by game", role="secondary", level=0.9875, rate=True):
        mg = 0.02 if rate else 0.02 * a
        return {"metric": metric, "role": role, "a": a, "b": b, "diff": b - a, "ci": [lo, hi], "p": p,
                "p_adjusted": min(1.0, p * (1 if role == "primary" else 4)), "ci_level": level, "n_a": 5000,
                "n_b": 5000, "missing": 0, "method": method, "significant": sig, "rate": rate, "margin": mg,
                "margin_kind": "absolute" if rate else "relative: the margin times A's value",
                "margin_verdict": margin_verdict(b - a, [lo, hi], mg, n=5000),
                "verdict": ("B higher" if b > a else "B lower") if sig else "no significant difference"}

    metrics = [m("win rate", 0.62, 0.66, 0.03, 0.05, 1e-6, True, role="primary", level=0.95),
               m("seat 1 win rate", 0.40, 0.41, -0.005, 0.025, 0.2, False),
               m("length", 12.0, 13.5, 1.3, 1.7, 1e-9, True, rate=False), m("ends: cap", 0.001, 0.001, -0.001, 0.001, 1.0, False),
               m("mean pizzas_spent", 2.0, 1.9, -0.15, -0.05, 0.001, True, rate=False)]
    side = {"run": "/runs/a", "variant": "base", "params": {"pizzas": 2}, "seed": 1, "players": 2,
            "policies": [{"name": "greedy", "kind": 1, "params": [0.0]}]}
    verdicts = {"margin": 0.02, "alpha": 0.05, "items": [
        {"id": "compare", "variant": None, "question": f"Does B change the {x['metric']}?", "metric": x["metric"],
         "role": x["role"], "estimate": x["diff"], "ci": x["ci"], "ci_level": x["ci_level"], "n": x["n_a"],
         "p": x["p_adjusted"], **x["margin_verdict"]} for x in metrics]}
    return {"command": None, "game": "sickdays-solo", "title": "Sick Days <solo>", "a": side,
            "b": {**side, "run": "/runs/b", "params": {"pizzas": 3}}, "changed": {"pizzas": [2, 3]},
            "n_a": 5000, "n_b": 5000, "paired": True, "alpha": 0.05, "correction": "Bonferroni", "metrics": metrics,
            "family_size": 4, "family": "the primary metric (win rate) at alpha 0.05 with a 95% interval; the 4 "
                                     "secondary metrics each at 1 - alpha/4",
            "margin": 0.02, "primary": "win rate", "pairing_basis": "same deals",
            "pairing_words": "paired on the same deals (seed 1: game i is dealt alike on both sides)",
            "pairing": pairing(0.7, 0.55),
            "dropped": [{"metric": "ends: reached", "reason": "the complement of win rate, game by game"}],
            "significant": [x["metric"] for x in metrics if x["significant"]], "verdicts": verdicts,
            "skill_check": None, "card_diff": None}


def typed(r: dict):
    """The dict as comparison.json's model (what the report reads)."""
    from balance.analysis.compare_result import ComparisonResult

    return ComparisonResult.model_validate(r)


def test_compare_report(tmp_path):
    path = render_compare_report(tmp_path, typed({**compare_result(), "command": "balance compare a b"}))
    html = path.read_text()
    assert path == tmp_path / "report.html"
    assert_self_contained(html)
    assert_order(html)
    assert "Sick Days &lt;solo&gt;" in html  # escaped
    assert "B changes pizzas from 2 to 3." in html
    assert "The comparison is paired on the same deals (seed 1" in html and "correlating 0.70 game by game" in html
    assert "pairing on the same deals made this interval 1.8x narrower than independent games would" in html
    assert ("Primary metric, the win rate: A 62.0%, B 66.0%, B − A +4.0\u00a0pts (95% CI [+3.0,\u00a0+5.0]\u00a0pts"
            in html)
    assert "differs by more than the margin" in html  # +3.0 to +5.0 pts is beyond ±2 pts
    assert "2 of the 4 other metrics differ (each interval at 98.75%" in html
    assert "Verdicts against the margin" in html and "ends: reached (the complement of win rate" in html
    assert "Balance diff: rates" in html and "Balance diff: other metrics" in html and html.count("<svg") == 2
    assert "balance compare a b" in html
    assert_n_everywhere(html)


def test_compare_report_pairing_sentences_come_from_the_measured_widths(tmp_path):
    """'same-seed pairing still removes much of the luck' was printed beside correlations of 0.01-0.09 and
    intervals 0.95-0.99x the unpaired width: every pairing sentence is now read from the measured ratio."""
    r = compare_result()
    r.update(pairing_basis="same seeds", pairing_words="paired on the same seeds (seed 1: ... the card lists differ)",
             pairing=pairing(0.05, 0.97, "same seeds"))
    html = render_compare_report(tmp_path / "s", typed(r)).read_text().replace("\u00a0", " ")
    assert "much of the luck" not in html
    assert "pairing on the same seeds removed little of the luck here (interval 0.97x the unpaired width)" in html
    assert "the card lists differ, so game i is not the same deal" in html.lower()
    r = compare_result()
    r["pairing"] = pairing(0.88, 0.32)
    html = render_compare_report(tmp_path / "d", typed(r)).read_text().replace("\u00a0", " ")
    assert "pairing on the same deals made this interval 3.1x narrower than independent games would" in html
    assert "correlating 0.88 game by game" in html


def test_compare_report_unpaired_warns(tmp_path):
    r = compare_result()
    r.update(paired=False, pairing_basis=None, pairing_words=None, pairing=None)
    html = render_compare_report(tmp_path, typed(r)).read_text()
    assert "independent samples" in html and "unpaired" in html


# ---------------------------------------------------------------- tuning


def _fake_tune(monkeypatch, win_rate, players=1):
    from faketune import install

    from balance.analysis import tune

    install(monkeypatch, win_rate, players)
    return tune


def test_tuning_report_plain(tmp_path, monkeypatch):
    from balance.simcore import registry

    tune = _fake_tune(monkeypatch, lambda p: {4: 0.50, 5: 0.58, 6: 0.30}[p["snooze_thresholds"][0]], players=2)
    spec = registry.get("overtime")
    points = [{"snooze_thresholds": [k, k + 3, k + 6]} for k in (4, 5, 6)]
    targets = [tune.parse_target(t) for t in ("win_rate=0.45..0.55", "seat_gap<=0.02", "length_median=12..15")]
    result = tune.tune(spec, {}, points, targets, 2, [tune.resolve_policy(spec, "greedy", {})], 1, 400, 4000,
                       keep=2, n_fresh=3000, n_skill=400)
    assert result["card_list"]["file"] == "data/overtime/cards.toml" and result["card_list"]["reconstruction"]

    def no_loader(params=None):
        raise AssertionError("the tuning report asked the game's loader: it reads tuning.json's card_list")

    import dataclasses

    monkeypatch.setattr(registry, "get", lambda name: dataclasses.replace(spec, load_data=no_loader))
    html = render_tuning_report(tmp_path, result).read_text()
    assert_self_contained(html)
    assert_order(html)
    assert "Invented cards stand in for the printed ones" in html
    assert "Assuming the greedy policy at every seat (2 players)" in html
    assert "recommends snooze_thresholds=4-7-10" in html and "chosen on games 0..3999" in html
    assert "Win rate: target 45.0% to 55.0%; on fresh games 50." in html
    assert "Runners-up, on the same fresh games: snooze_thresholds=5-8-11" in html
    assert "With a weaker (25% random moves) policy the same values win" in html and "wins less" in html
    assert "How close each target came" in html and "Skill sensitivity" in html and "How sure:" in html
    assert_n_everywhere(html)


def test_tuning_report_ladder(tmp_path, monkeypatch):
    from balance.simcore import registry

    tune = _fake_tune(monkeypatch, lambda p: min(1.0, 1.05 - 0.15 * p["level"] + 0.02 * p["ready_pizzas"]))
    spec = registry.get("sickdays-solo")
    points = [{"ready_pizzas": k} for k in range(5)]
    result = tune.tune(spec, {}, points, [tune.parse_target("ladder=0.9,0.75,0.6")], 1,
                       [tune.resolve_policy(spec, "greedy", {})], 3, 200, 2000, keep=2, n_fresh=2000, n_skill=400)
    html = render_tuning_report(tmp_path, result).read_text()
    assert_self_contained(html)
    assert "fitted 3 levels to the target ladder (0.9, 0.75, 0.6)" in html
    assert "Difficulty ladder: target vs fitted" in html and "Fitted ladder, on fresh games" in html
    assert "fitted together so that the chosen win rates follow the targets&#39; order" in html
    assert "steps between levels are confirmed" in html
    assert "With a weaker (25% random moves) policy the same values move the win rate by" in html
    assert_n_everywhere(html)


# ---------------------------------------------------------------- campaigns


def campaign_result() -> dict:
    rows = []
    reached = 1000
    for lv, w in zip(range(1, 5), (0.9, 0.7, 0.75, 0.4)):
        attempts = round(reached / w)
        rows.append({"level": lv, "reached": reached, "cleared": reached,
                     "attempts": {**mean_ci([1 / w] * 10 + [1 / w + 1] * 10), "median": 1.0},
                     "win_rate": rate(reached, attempts), "first_try": rate(round(reached * w), reached)})
    from balance.analysis.campaign import verdicts

    return {"game": "sickdays-solo", "players": 1, "policies": [{"name": "greedy", "kind": 1, "params": [0.0]}],
            "seed": 5, "n_campaigns": 1000, "max_attempts": 200, "user_params": {}, "card_list": None, "levels": rows, "gave_up": 0,
            "games_to_clear": {"n": 1000, "mean": mean_ci([6, 7, 8, 9] * 25), "median": 7.0, "median_ci": [7.0, 8.0],
                               "p10": 5.0, "p90": 10.0}, "verdicts": verdicts(rows)}


def test_campaign_report(tmp_path):
    class Spec:
        title = "Use Up All Your Sick Days"
        version = "1"

    html = render_campaign_report(tmp_path, campaign_result(), Spec()).read_text()
    assert_self_contained(html)
    assert_order(html)
    assert "1,000 of 1,000 campaigns (100.0%) clear every level, in a median of 7 games" in html
    assert "The hardest level per attempt is 4" in html
    assert "rises again at level 3" in html
    assert "Win rate per attempt by level" in html and "Attempts per level" in html
    assert html.count("<svg") == 3
    assert_n_everywhere(html)


# ---------------------------------------------------------------- in a real browser


def test_sweep_and_compare_render_charts_in_headless_chromium(sweep_2d, tmp_path):
    binary = _chromium_or_skip()
    cmp = render_compare_report(tmp_path / "cmp", typed(compare_result()))
    for path, words, n_svg in ((sweep_2d, "This sweep plays 6 points", 8), (cmp, "B changes pizzas from 2 to 3", 2)):
        dom = _chromium(binary, tmp_path / "profile", "--dump-dom", path.as_uri())
        assert dom.returncode == 0, dom.stderr[-2000:]
        assert words in dom.stdout and dom.stdout.count("<svg") >= n_svg
        png = tmp_path / f"{path.parent.name}.png"
        shot = _chromium(binary, tmp_path / "profile", f"--screenshot={png}", "--window-size=1366,2400", path.as_uri())
        assert shot.returncode == 0, shot.stderr[-2000:]
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 30_000


def test_an_impact_ranked_by_length_says_its_unit():
    from balance.reports.impact import _primary

    from types import SimpleNamespace as Res  # the three fields of impact.json's ImpactResult it reads

    assert _primary(Res(primary="length", primary_rate=False, primary_unit="turns")) == "length (turns)"
    assert _primary(Res(primary="win rate", primary_rate=True, primary_unit=None)) == "win rate"


def test_a_sweep_summary_without_its_paired_block_is_refused(sweep_2d, tmp_path):
    # every point of a sweep is compared with the first on the same deals by the analysis (paired_vs_first);
    # the report computes no comparison of its own, so a summary without that block is refused, not patched
    from balance.analysis.summary_result import SummaryResult
    from balance.simcore.errors import BalanceError

    run = tmp_path / "run"
    shutil.copytree(sweep_2d.parent, run)
    summary = json.loads((run / "summary.json").read_text())
    summary.pop("paired_vs_first")
    (run / "summary.json").write_text(json.dumps(summary))
    with pytest.raises(BalanceError, match="paired_vs_first"):
        SummaryResult.read(run)
