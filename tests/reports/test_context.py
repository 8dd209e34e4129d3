"""What a report's numbers are about: the reconstructed-cards banner, the changed
settings in the title and summary, whom the figures describe (and the skill
ladder hook), each seat against its fair share, one number format, the chart nits."""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from synthetic import SPEC, make_run

from balance.reports import context, fmt, render_run_report
from balance.reports import charts
from tests.cli.runkit import typed_ladder


def text(html: str) -> str:
    """The page's words, without markup or charts (entities kept as the browser shows them)."""
    import html as h

    body = re.sub(r"<svg.*?</svg>|<style>.*?</style>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", h.unescape(re.sub(r"<[^>]+>", " ", body)).replace("\u00a0", " "))


def set_manifest(run: Path, **config) -> None:
    m = json.loads((run / "manifest.json").read_text())
    for k, v in config.items():
        if k == "variant":
            m["config"]["variants"][0].update(v)
        else:
            m["config"][k] = v
    (run / "manifest.json").write_text(json.dumps(m))


# ---------------------------------------------------------------- one number format


def sp(x: str) -> str:
    return x.replace("\u00a0", " ")


def test_number_format():
    assert fmt.int_(1234567) == "1,234,567" and fmt.num(12.345) == "12.35" and fmt.num(1234.0) == "1,234"
    assert fmt.pct(0.4329) == "43.3%" and fmt.pct(0.00012) == "<0.1%" and fmt.pct(0.99991) == ">99.9%"
    assert fmt.pct(0.0) == "0.0%" and fmt.pct(1.0) == "100.0%" and fmt.pct(None) == "–"
    assert fmt.pct(1 - 1e-12) == "100.0%" and fmt.pct(1e-12) == "0.0%"  # float rounding of a Wilson bound
    assert sp(fmt.pts(0.0234)) == "+2.3 pts" and sp(fmt.pts(-0.02)) == "-2.0 pts"
    assert sp(fmt.pts(0.02, signed=False)) == "2.0 pts"
    assert sp(fmt.ci_pct([0.421, 0.445])) == "[42.1%, 44.5%]" and sp(fmt.ci_pts([-0.01, 0.036])) == "[-1.0, +3.6] pts"
    assert sp(fmt.ci_num([12.3, 1234.5])) == "[12.30, 1,234.50]" and fmt.ci_pct([None, None]) == "–"
    assert sp(fmt.rate(0.5, [0.4, 0.6], 1000)) == "50.0% (95% CI [40.0%, 60.0%], n = 1,000)"
    assert sp(fmt.p(0.0001)) == "p < 0.001" and sp(fmt.p(0.0342)) == "p = 0.034"
    assert fmt.value([4, 7, 10]) == "4-7-10" and fmt.value(True) == "true" and fmt.value(3.0) == "3"
    assert fmt.tick_number(25000) == "25,000" and fmt.tick_number(2.5) == "2.5"
    assert fmt.tick_pct(0.4) == "40%" and fmt.tick_pct(0.405) == "40.5%"
    assert fmt.pts(0.02).endswith("\u00a0pts") and fmt.p(0.5) == "p\u00a0=\u00a00.500"  # kept together in a column
    assert fmt.tick_pts(0.02) == "+2 pts" and fmt.tick_pts(0) == "0" and fmt.tick_pts(-0.015) == "-1.5 pts"


def _tick_labels(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_axis_ticks_have_thousands_separators():
    svg = charts.count_bars(["reached", "cap"], [25_000, 3_000], "End reasons")
    assert "25,000" in "".join(_tick_labels(svg)) or "20,000" in "".join(_tick_labels(svg))
    assert not any(re.fullmatch(r"\d{4,}", t.strip()) for t in _tick_labels(svg))
    svg = charts.histogram([1000, 2000, 3000], [5000, 12000, 3000], "Length", "decisions")
    labels = [t.strip() for t in _tick_labels(svg)]
    assert "2,000" in labels and "10,000" in labels
    assert not any(re.fullmatch(r"\d{4,}", t) for t in labels)
    svg = charts.curves(["1000", "2000", "3000"], [{"label": "x", "y": [1000, 1500, 2500], "lo": [900, 1400, 2400],
                                                     "hi": [1100, 1600, 2600], "n": [10, 10, 10]}],
                        "Length", "target", "decisions", numeric_x=[1000, 2000, 3000])
    assert not any(re.fullmatch(r"\d{4,}", t.strip()) for t in _tick_labels(svg))


def _text_positions(svg: str) -> dict[str, tuple[float, float]]:
    """Each text's label -> (x, y) (svg.fonttype none keeps text as text, placed by x and y)."""
    out = {}
    for m in re.finditer(r'<text[^>]*?\sx="([-\d.]+)" y="([-\d.]+)"[^>]*>([^<]*)</text>', svg):
        out[m.group(3).strip()] = (float(m.group(1)), float(m.group(2)))
    return out


def test_length_histogram_labels_do_not_overlap():
    """Median and p90 one value apart (the case that overlapped): the labels are in a legend, one per line."""
    svg = charts.histogram(list(range(5, 16)), [10, 30, 60, 90, 120, 150, 90, 40, 20, 5, 2], "Length", "turns",
                           marks={"median": 10, "p10": 7, "p90": 11})
    pos = _text_positions(svg)
    labels = {k: v for k, v in pos.items() if k.startswith(("median", "p10", "p90"))}
    assert set(labels) == {"median 10", "p10 7", "p90 11"}, pos.keys()
    assert len({y for _, y in labels.values()}) == 1  # one row: a legend, not text beside each line
    row = sorted((x, k) for k, (x, _) in labels.items())
    for (x0, k0), (x1, _) in zip(row, row[1:]):
        assert x1 - x0 >= 4.2 * len(k0), row  # each label ends before the next begins (7-pt text: ~4.2 pt a char)
    top_tick = min(y for k, (_, y) in _text_positions(svg).items() if k in {"0", "50", "100", "150"})
    assert all(y < top_tick - 10 for _, y in labels.values())  # above the plot (the 150 tick), not over the bars


# ---------------------------------------------------------------- the reconstructed card list


def test_banner_from_the_manifest_card_list(tmp_path):
    run = make_run(tmp_path, n_games=600)
    set_manifest(run, variant={"card_list": {"file": "data/overtime/cards.toml", "path": "/nowhere/cards.toml",
                                             "sha256": "ab" * 32, "shipped": True, "reconstruction": True}})
    html = render_run_report(run, SPEC).read_text()
    words = text(html)
    assert "Invented cards stand in for the printed ones" in words and "balance cards export" in words
    assert html.index('class="banner"') < html.index('id="summary"')
    assert "data/overtime/cards.toml: the shipped reconstruction (invented cards, not the printed ones), hash abababab" \
        in words
    assert "The card lists shipped for Overtime, You're Fired! and Four Day Weekend are reconstructions" in words
    assert "Of 3 invented cards" in words and "Reconstructed card list: these are invented cards" in words


def _no_loader(params=None):
    raise AssertionError("a run's report asked the game's loader: it is made from the run folder alone")


def _recorded(run, **card_list):
    """The run's manifest with each variant's card_list record (as analysis.runs writes it)."""
    m = json.loads((run / "manifest.json").read_text())
    for v in m["config"]["variants"]:
        v["card_list"] = card_list or None
    (run / "manifest.json").write_text(json.dumps(m))
    return run


def test_banner_from_the_manifests_card_list_record(tmp_path):
    """The banner says what the manifest recorded; the game's loader is never asked while rendering."""
    spec = dataclasses.replace(SPEC, load_data=_no_loader)
    run = _recorded(make_run(tmp_path, n_games=600), file="data/race21/cards.toml", sha256="cd" * 32, shipped=True,
                    reconstruction=True)
    words = text(render_run_report(run, spec).read_text())
    assert "Invented cards stand in for the printed ones" in words and "hash cdcdcdcd" in words


def test_no_banner_for_the_printed_or_no_card_list(tmp_path):
    spec = dataclasses.replace(SPEC, load_data=_no_loader)
    run = _recorded(make_run(tmp_path / "printed", n_games=600), file="data/race21/cards.toml", sha256="cd" * 32,
                    shipped=True, reconstruction=False)
    html = render_run_report(run, spec).read_text()
    assert 'class="banner"' not in html and "Invented cards" not in html
    assert "data/race21/cards.toml: the game&#39;s own list" in html
    # recorded as none (a game without cards), or a manifest from before the record: no note, no loader
    for run in (_recorded(make_run(tmp_path / "none", n_games=600)), make_run(tmp_path / "old", n_games=600)):
        html = render_run_report(run, spec).read_text()
        assert 'class="banner"' not in html and "cards.toml" not in html


@pytest.mark.parametrize("game", ["overtime", "youre-fired", "four-day-weekend"])
def test_fallback_for_the_three_reconstructed_games(game):
    """Games not moved to simcore.gamedata yet (cards=None): cards == "" and one of the three games."""
    manifest = {"config": {"game": game, "params": {"cards": ""}, "card_list_hash": "0123456789abcdef",
                           "variants": [{"name": "base", "params": {"cards": ""}, "card_list_hash": "0123456789abcdef"}]}}
    (note,) = context.card_lists(manifest, spec=None)
    assert note.reconstruction and note.shipped and note.file == f"data/{game}/cards.toml"
    assert context.card_banner([note])[0].startswith(context.BANNER)
    sick = {"config": {"game": "sickdays-solo", "params": {"level": 4}, "variants": [{"name": "base"}]}}
    assert context.card_lists(sick, spec=None) == []


def test_a_designers_card_file_missing_here_does_not_fail_the_report(tmp_path):
    def load_data(params=None):
        if (params or {}).get("cards"):
            raise FileNotFoundError(params["cards"])  # what a game's loader does on a missing file
        return SPEC.load_data(params)

    spec = dataclasses.replace(SPEC, load_data=load_data)
    run = make_run(tmp_path, n_games=600)
    set_manifest(run, params={"cards": "/elsewhere/my-cards.toml"}, card_list_hash="feedfacefeedface",
                 variant={"params": {"cards": "/elsewhere/my-cards.toml"}, "card_list_hash": "feedfacefeedface"})
    words = text(render_run_report(run, spec).read_text())
    assert ("The card list this run played (/elsewhere/my-cards.toml, hash feedfacefeedface) is not on this machine"
            in words)
    assert "a designer's list, hash feedfacefeedface; the file is not on this machine" in words


# ---------------------------------------------------------------- changed settings


def test_changed_settings_in_title_and_summary(tmp_path):
    run = make_run(tmp_path, n_games=600)
    set_manifest(run, params={"target": 25, "bug_total": 0},
                 policies=[{"name": "greedy", "kind": 1, "params": [0.1]}, {"name": "greedy", "kind": 1, "params": [0.1]}],
                 variant={"params": {"target": 25, "bug_total": 0}})
    html = render_run_report(run, SPEC).read_text()
    title = re.search(r"<h1>(.*?)</h1>", html).group(1)
    assert title == "Race to 21 (test game): balance report — target=25, every seat greedy (epsilon=0.1)"
    words = text(html)
    assert ("Settings: changed from the defaults: target=25 (default 21); policies: every seat greedy (epsilon=0.1)."
            in words)
    summary = words[words.index("Summary"):words.index("Charts")]
    assert "target=25" in summary and "10.0% of its moves random" in summary


def test_defaults_say_so(tmp_path):
    run = make_run(tmp_path, n_games=600)
    set_manifest(run, policies=[{"name": "greedy", "kind": 1, "params": [0.0]}] * 2)
    html = render_run_report(run, SPEC).read_text()
    assert re.search(r"<h1>Race to 21 \(test game\): balance report</h1>", html)
    assert "Settings: the game&#39;s defaults (every rule parameter at its default, greedy at every seat)." in html


def test_level_changes_against_that_levels_own_defaults():
    from balance.simcore import registry

    spec = registry.get("sickdays-solo")
    from balance.simcore.params import resolve

    at2 = resolve(spec, {"level": 2})
    assert [c.long_words() for c in context.rule_changes(at2, spec)] == [
        f"level 2 (default {resolve(spec, {})['level']})"]  # the level's own table is not a change
    mine = resolve(spec, {"ready_pizzas": 3})
    changes = context.rule_changes(mine, spec)
    default = resolve(spec, {})
    assert [c.long_words() for c in changes] == [f"level {default['level']} (the default level)",
                                                 f"ready_pizzas=3 (default {default['ready_pizzas']})"]
    assert context.settings_words(changes, []) == f"level {default['level']}, ready_pizzas=3"  # the level, always
    assert context.settings_sentence(changes, []) == (f"Settings: level {default['level']} (the default level); "
                                                      f"changed from that level's defaults: ready_pizzas=3 (default "
                                                      f"{default['ready_pizzas']}).")
    plain = context.rule_changes(default, spec)
    assert context.settings_sentence(plain, []).startswith(
        f"Settings: the game's defaults (level {default['level']} (the default level), every rule parameter")
    assert context.settings_words(context.rule_changes(resolve(spec, {"level": 6, "ready_pizzas": 1}), spec), []) \
        .startswith("level 6")


def test_sweep_title_and_points_carry_their_settings(tmp_path):
    probs = {"target=15": 0.5, "target=21": 0.55, "target=27": 0.6}
    params = {name: {"target": int(name.split("=")[1]), "bug_total": 3} for name in probs}
    run = make_run(tmp_path, n_games=400, n_cap=0, variants=probs, variant_params=params)
    m = json.loads((run / "manifest.json").read_text())
    for v in m["config"]["variants"]:
        v["varied"] = {"target": v["params"]["target"]}
    (run / "manifest.json").write_text(json.dumps(m))
    html = render_run_report(run, SPEC).read_text()
    title = re.search(r"<h1>(.*?)</h1>", html).group(1)
    assert title.startswith("Race to 21 (test game): sweep report over target — bug_total=3")
    assert "Settings common to every point: changed from the defaults: bug_total=3 (default 0)" in text(html)


# ---------------------------------------------------------------- whom it is about


def test_whom_it_is_about_without_a_ladder(tmp_path):
    run = make_run(tmp_path, n_games=600)
    html = render_run_report(run, SPEC).read_text()
    about = text(re.search(r'<p class="about".*?</p>', html, re.S).group(0))
    assert html.index('class="about"') < html.index('class="keys"')  # beside the headline
    assert "Seat 1 plays greedy, the game's scripted rule-of-thumb player" in about
    assert "seat 2 plays random, random legal moves" in about
    assert "These figures are what greedy and random players get; stronger play may differ" in about


def _ladder(expert: float, n: int = 2000, **extra) -> dict:
    return {"kind": "ladder", "game": "race21", "players": 2, "metric": "win rate of one seat among greedy seats",
            "paired": True, "policies": [
                {"name": "random", "value": 0.30, "ci": [0.28, 0.32], "n": n},
                {"name": "greedy", "value": 0.50, "ci": [0.478, 0.522], "n": n},
                {"name": "expert", "value": expert, "ci": [expert - 0.022, expert + 0.022], "n": n},
                {"name": "oracle", "bound": True, "value": 0.99, "ci": [0.98, 0.995], "n": 300}], **extra}


def _greedy_run(tmp_path) -> Path:
    run = make_run(tmp_path, n_games=600)
    set_manifest(run, policies=[{"name": "greedy", "kind": 1, "params": [0.0]}] * 2)
    return run


def test_ladder_beside_the_run_says_where_the_policy_stands_and_that_stronger_play_moves_it(tmp_path):
    run = _greedy_run(tmp_path)
    (run / "ladder.json").write_text(typed_ladder(_ladder(0.70)))
    about = text(re.search(r'<p class="about".*?</p>', render_run_report(run, SPEC).read_text(), re.S).group(0))
    assert "On the skill ladder for this game and setting (ladder.json in the run folder, same deals)" in about
    assert "greedy has a win rate of one seat among greedy seats of 50.0% [47.8%, 52.2%] (n = 2,000), place 2 of 3" \
        in about
    assert "oracle 99.0% [98.0%, 99.5%] (open-hand search)" in about
    assert "The headline would move a lot with stronger play: expert gets +20.0 pts" in about
    assert "stronger play may differ" not in about


def test_ladder_with_no_real_difference_makes_no_claim(tmp_path):
    run = _greedy_run(tmp_path)
    (tmp_path / "ladder.json").write_text(typed_ladder(_ladder(0.51)))  # beside the run folder
    about = text(re.search(r'<p class="about".*?</p>', render_run_report(run, SPEC).read_text(), re.S).group(0))
    assert "The ladder finds no significant difference with stronger play (expert: +1.0 pts" in about
    assert "move a lot" not in about


def test_ladder_of_another_setting_or_game_is_not_used(tmp_path):
    run = _greedy_run(tmp_path)
    sib = tmp_path / "other-ladder"
    sib.mkdir()
    (sib / "ladder.json").write_text(typed_ladder(_ladder(0.70, params={"target": 30})))
    (tmp_path / "ladder.json").write_text(typed_ladder({**_ladder(0.70), "game": "overtime"}))
    about = text(re.search(r'<p class="about".*?</p>', render_run_report(run, SPEC).read_text(), re.S).group(0))
    assert "stronger play may differ" in about and "skill ladder for this game" not in about


def test_ladder_of_another_build_of_the_engine_is_not_used(tmp_path):
    # a ladder played by another build (e.g. before expert's defaults changed) measured other bots
    run = _greedy_run(tmp_path)
    engine = json.loads((run / "manifest.json").read_text())["config"]["engine_hash"]
    (tmp_path / "ladder.json").write_text(typed_ladder(_ladder(0.70, engine_hash="0" * 16)))
    about = text(re.search(r'<p class="about".*?</p>', render_run_report(run, SPEC).read_text(), re.S).group(0))
    assert "stronger play may differ" in about and "skill ladder for this game" not in about
    (tmp_path / "ladder.json").write_text(typed_ladder(_ladder(0.70, engine_hash=engine)))
    about = text(re.search(r'<p class="about".*?</p>', render_run_report(run, SPEC).read_text(), re.S).group(0))
    assert "skill ladder for this game and setting" in about


def test_ladder_in_a_sibling_folder(tmp_path):
    seats = context.seat_policies([{"name": "greedy", "kind": 1, "params": [0.0]}] * 2, SPEC)
    sib = tmp_path / "runs" / "race21-ladder"
    sib.mkdir(parents=True)
    (sib / "ladder.json").write_text(typed_ladder(_ladder(0.7, params={"target": 21})))
    run = tmp_path / "runs" / "mine"
    run.mkdir()
    found = context.find_ladder(run, "race21", 2, {"target": 21})
    assert found and found[1] == str(sib / "ladder.json")
    assert context.find_ladder(None, "race21", 2, {}) is None
    assert "move a lot" in " ".join(context.about_sentences(seats, False, found))


def test_epsilon_policy_matches_only_its_own_ladder_entry():
    seats = context.seat_policies([{"name": "greedy", "kind": 1, "params": [0.1]}], SPEC)
    lad = _ladder(0.7)
    words = " ".join(context.about_sentences(seats, False, (lad, "ladder.json")))
    assert "does not include greedy (epsilon=0.1)" in words
    lad["policies"].append({"name": "greedy", "label": "greedy (epsilon=0.1)", "params": {"epsilon": 0.1},
                            "value": 0.4, "ci": [0.38, 0.42], "n": 2000})
    words = " ".join(context.about_sentences(seats, False, (lad, "ladder.json")))
    assert "greedy (epsilon=0.1) has a win rate" in words and "move a lot" in words


# ---------------------------------------------------------------- fair share and the seat chart


def test_seat_chart_is_the_difference_from_the_fair_share_in_points(tmp_path):
    run = make_run(tmp_path, n_games=2000, n_cap=0, p_seat0=0.51)
    html = render_run_report(run, SPEC).read_text()
    fig = re.search(r'<figure[^>]*aria-label="Win rate by seat".*?</figure>', html, re.S).group(0)
    assert "Each seat against its fair share" in fig and "pts" in fig
    assert "A seat&#39;s fair share is 50.0%" in fig
    assert "100%" not in " ".join(_tick_labels(fig))  # not a 0-100% axis
    assert ">vs fair share</th>" in html


def test_fair_share_is_read_as_the_analysis_wrote_it():
    """The report reads summary.json's fair_share (analysis.stats.fair_share) and never computes one."""
    from types import SimpleNamespace

    shared = SimpleNamespace(seat_rates_sum=1.06)
    s = SimpleNamespace(fair_share=0.265, shared_wins=shared, win_rate=0.98)
    f = context.fair_share(s)
    assert f.value == 0.265 and f.shared and f.seat_rates_sum == pytest.approx(1.06)
    assert f.source == "summary.json's fair share"
    words = context.fair_share_words(f)
    assert "fair share is 26.5%" in words and "add up to 106.0%, more than 100%" in words
    assert context.fair_share(SimpleNamespace(fair_share=None, shared_wins=None, win_rate=0.5)) is None


def test_shared_wins_are_said_in_the_report(tmp_path):
    import polars as pl

    run = make_run(tmp_path, n_games=1000, n_cap=0)
    for p in (run / "parts").glob("seats-*.parquet"):  # every 10th game: both seats win (a tie)
        df = pl.read_parquet(p)
        df.with_columns(pl.when(pl.col("game_index") % 10 == 0).then(1).otherwise(pl.col("won"))
                        .cast(pl.Int8).alias("won")).write_parquet(p)
    words = text(render_run_report(run, SPEC).read_text())
    assert "Wins are shared in some games, so the seats' win rates add up to 110.0%, more than 100%." in words


def test_one_player_game_is_not_labelled_team_wins(tmp_path):
    import polars as pl

    spec = dataclasses.replace(SPEC, cooperative=True)
    run = make_run(tmp_path, n_games=600, n_cap=0)
    for p in (run / "parts").glob("seats-*.parquet"):
        pl.read_parquet(p).filter(pl.col("seat") == 0).write_parquet(p)
    set_manifest(run, players=1, policies=[{"name": "greedy", "kind": 1, "params": [0.0]}])
    html = render_run_report(run, spec).read_text()
    assert "team wins" not in html.lower()
    assert '<div class="label">player wins</div>' in html
    assert "The player is greedy" in text(html)


def test_manifest_card_list_of_a_designer_missing_or_changed(tmp_path):
    run = make_run(tmp_path, n_games=600)
    block = {"file": "my-cards.toml", "path": str(tmp_path / "my-cards.toml"), "sha256": "ef" * 32,
             "shipped": False, "reconstruction": False}
    set_manifest(run, variant={"card_list": block})
    words = text(render_run_report(run, SPEC).read_text())
    assert "The card list this run played (my-cards.toml, hash efefefefefefefef) is not on this machine" in words
    (tmp_path / "my-cards.toml").write_text("edited since")
    words = text(render_run_report(run, SPEC).read_text())
    assert "The card list my-cards.toml on this machine differs from the one this run played" in words
    assert "Invented cards" not in words
