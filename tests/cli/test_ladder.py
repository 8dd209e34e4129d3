"""`balance ladder` on the toy game (race21): rungs present, paired, with intervals; the report renders and
`balance report` rebuilds it; it resumes; bad options exit 2 with one line. Plus the statistics it uses
under a true null, and the run report's ladder sentence (reports.context)."""
import json

import numpy as np
import polars as pl
import pytest

from balance.analysis import ladder as ladder_analysis
from balance.analysis.stats import wilson
from balance.reports import context
from balance.simcore import registry
from tests.cli.runkit import balance, typed_ladder

RUNGS = ["random", "greedy epsilon=0.5", "greedy epsilon=0.2", "greedy", "lookahead", "expert"]


pytestmark = pytest.mark.usefixtures("race21")


@pytest.fixture(scope="module")
def ladder_dir(tmp_path_factory):
    registry.GAMES["race21"] = "toygame"
    out = tmp_path_factory.mktemp("ladder") / "race21-ladder"
    r = balance("ladder", "--game", "race21", "-n", 240, "--search-share", 0.5, "--seed", 11, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    return out, r.output


def test_every_rung_is_played_on_the_same_deals_with_intervals(ladder_dir):
    out, text = ladder_dir
    lad = json.loads((out / "ladder.json").read_text())
    assert lad["kind"] == "ladder" and lad["game"] == "race21" and lad["players"] == 2 and lad["paired"]
    assert [e["label"] for e in lad["policies"]] == RUNGS
    for e in lad["policies"]:
        assert e["n"] == (120 if e["name"] in ladder_analysis.SEARCH else 240)
        lo, hi = e["ci"]
        assert 0 <= lo <= e["value"] <= hi <= 1
        # paired differences: on the deals both played, and the interval holds the estimate
        for other, d in e["vs"].items():
            other_n = next(o["n"] for o in lad["policies"] if o["label"] == other)
            assert d["n"] == min(e["n"], other_n)
            assert d["ci"][0] <= d["diff"] <= d["ci"][1]
        assert e["vs_fair"]["ci"][0] <= e["vs_fair"]["diff"] <= e["vs_fair"]["ci"][1]
    by = {e["label"]: e for e in lad["policies"]}
    # a random seat against greedy loses more than its share; greedy among greedy is the fair share itself
    assert by["random"]["vs_fair"]["ci"][1] < 0
    assert by["greedy"]["value"] == pytest.approx(by["greedy"]["fair_share"])
    # how much skill matters: the best rung minus the weakest, both chosen on the even deals, measured on the odd
    sk = lad["skill"]
    means = sk["chosen_on"]["means"]
    assert sk["top"] == max(means, key=means.get) and sk["base"] == min(means, key=means.get) == "random"
    assert sk["ci"][0] > 0 and "odd-numbered" in sk["measured_on"]
    odd = {e["label"]: e["n"] for e in lad["policies"]}
    assert sk["n"] == min(odd[sk["top"]], odd[sk["base"]]) // 2
    assert "how much skill matters" in text and "n = 120 deals x 2 seats" in text
    # expert against lookahead, head to head, seats swapped, on the deals both play
    (h2h,) = lad["head_to_head"]
    assert h2h["label"] == "expert vs lookahead" and h2h["n"] == 120 and h2h["a"] == "expert"
    assert h2h["vs_fair"]["ci"][0] <= h2h["vs_fair"]["diff"] <= h2h["vs_fair"]["ci"][1]
    assert "head to head" in text


def test_the_tournament_rates_every_rung_from_every_table(ladder_dir):
    out, text = ladder_dir
    lad = json.loads((out / "ladder.json").read_text())
    tour = lad["tournament"]
    assert [p["label"] for p in tour["players"]] == RUNGS and tour["anchor"] == "greedy" and tour["connected"]
    by = {p["label"]: p for p in tour["players"]}
    assert by["greedy"]["rating"] == 0.0 and by["random"]["ci"][1] < 0
    assert len(tour["pairs"]) == len(RUNGS) * (len(RUNGS) - 1) // 2
    for q in tour["pairs"]:
        lo, hi = q["ci"]
        assert lo <= q["diff"] <= hi
        assert (q["verdict"]["stronger"] is None) == (lo <= 0 <= hi)
    # the head-to-head table is one of the pairings: expert and lookahead met at one table
    pair = next(q for q in tour["pairs"] if {q["a"], q["b"]} == {"expert", "lookahead"})
    assert pair["head_to_head"] == ["expert vs lookahead"]
    tables = {(p["a"], p["b"]): p for p in tour["pairings"]}
    assert tables[("expert", "lookahead")]["deals"] == 120 and tables[("greedy", "random")]["deals"] == 240
    assert "tournament" in text and "Neighbours in the ratings" in text


def test_the_rung_seat_is_rotated_and_the_folder_is_one_resumable_run(ladder_dir):
    out, _ = ladder_dir
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "ladder"
    names = [v["name"] for v in manifest["config"]["variants"]]
    assert "expert/seat1" in names and "expert/seat2" in names and "greedy" in names
    assert "expert vs lookahead/seat1" in names and "expert vs lookahead/seat2" in names
    seats = pl.read_parquet(out / "parts" / "seats")
    exp = seats.filter(pl.col("variant") == "expert/seat2")
    assert set(exp.filter(pl.col("seat") == 1)["policy"]) == {"expert"}
    assert set(exp.filter(pl.col("seat") == 0)["policy"]) == {"greedy"}
    assert exp["game_index"].max() == 119  # the search rung plays the first half of the deals
    lines = (out / "chunks.jsonl").read_text().splitlines()
    r = balance("ladder", "--game", "race21", "-n", 240, "--search-share", 0.5, "--seed", 11, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    assert (out / "chunks.jsonl").read_text().splitlines() == lines  # nothing played twice
    r = balance("ladder", "--game", "race21", "-n", 240, "--search-share", 0.25, "--seed", 11, "--out", out, "--quiet")
    assert r.exit_code == 2 and "different configuration" in r.output


def test_the_report_renders_and_balance_report_rebuilds_it(ladder_dir):
    out, _ = ladder_dir
    html = (out / "report.html").read_text()
    assert "skill ladder" in html and "<svg" in html and "How much skill matters" in html
    from balance.reports.ladder import sentences

    before = json.loads((out / "summary.json").read_text())
    typed = ladder_analysis.ladder_result({k: v for k, v in before.items() if k not in ("command", "generated")})
    for s in sentences(typed):  # each a sentence of its own (one began "win rate of ..." after a full stop)
        assert s[:1].isupper(), s
    (out / "report.html").unlink()
    (out / "ladder.json").unlink()
    r = balance("report", str(out))
    assert r.exit_code == 0, r.output
    assert (out / "report.html").is_file()
    after = json.loads((out / "summary.json").read_text())
    assert [e["value"] for e in after["ladders"][0]["policies"]] == [e["value"] for e in before["ladders"][0]["policies"]]
    assert json.loads((out / "ladder.json").read_text())["policies"][0]["label"] == "random"


@pytest.mark.parametrize("args,words", [
    (("--game", "race21", "--level", 3), ["--level", "no difficulty levels"]),
    (("--game", "race21", "--players", 9), ["--players", "allowed: 2..4"]),
    (("--game", "sickdays-solo", "--level", "1,x"), ["--level", "'x' is not a level", "allowed"]),
    (("--game", "sickdays-solo", "--level", "12"), ["--level", "12 is not allowed", "allowed"]),
    (("--game", "race21", "--set", "x=1"), ["--set", "has no parameter 'x'"]),
])
def test_bad_options_exit_2_with_one_line(tmp_path, args, words):
    r = balance("ladder", *args, "-n", 10, "--out", tmp_path / "x", "--quiet")
    assert r.exit_code == 2
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    assert all(w in lines[0] for w in words), lines[0]
    assert not (tmp_path / "x").exists()


def test_levels_are_parsed_as_one_list():
    spec = registry.get("sickdays-solo")
    assert ladder_analysis.parse_levels(spec, ["1,4", "6", "4"]) == [1, 4, 6]
    assert ladder_analysis.parse_levels(spec, None) is None


def test_solo_rungs_include_the_oracle_as_a_bound_and_party_leaves_expert_out():
    solo, left = ladder_analysis.rungs(registry.get("sickdays-solo"))
    assert [r.label for r in solo][-1] == "oracle" and solo[-1].bound and not left
    party, left = ladder_analysis.rungs(registry.get("sickdays-party"))
    assert "expert" not in [r.label for r in party] and any(x.startswith("expert:") for x in left)


# ---------------------------------------------------------------- the statistics, under a true null


def _won_frame(variants, won):
    """seats rows of variants {name: (games x seats) 0/1 matrix}."""
    rows = []
    for name, mat in won.items():
        g, s = np.nonzero(np.ones_like(mat))
        rows.append(pl.DataFrame({"variant": [name] * g.size, "game_index": g.astype(np.int64),
                                  "seat": s.astype(np.int8), "won": mat[g, s].astype(np.int8)}))
    return pl.concat(rows)


def test_solo_per_deal_values_are_the_games_results():
    won = {"a": np.array([[1], [0], [1]])}
    x, _ = ladder_analysis._per_deal(_won_frame(None, won), [{"name": "a", "varied": {"focal_seat": None}}], 1, False)
    assert list(x) == [1.0, 0.0, 1.0]


def test_a_rung_equal_to_greedy_is_flagged_against_its_fair_share_at_most_alpha():
    """Null calibration of the fair-share test and the paired rung difference: a rotated seat that is as
    strong as the others (every seat equally likely to win, one winner per game) is declared off its
    fair share, or different from an equally strong rung, in about 5% of ladders."""
    rng = np.random.default_rng(20261201)
    players, deals, reps = 3, 200, 400
    variants = [{"name": f"r/seat{s + 1}", "varied": {"focal_seat": s}} for s in range(players)]
    other = [{"name": f"q/seat{s + 1}", "varied": {"focal_seat": s}} for s in range(players)]
    fp_fair = fp_pair = 0
    for _ in range(reps):
        won = {}
        for v in variants + other:
            winner = rng.integers(0, players, deals)
            won[v["name"]] = np.eye(players, dtype=np.int64)[winner]
        frame = _won_frame(None, won)
        x, fair = ladder_analysis._per_deal(frame, variants, players, True)
        y, _ = ladder_analysis._per_deal(frame, other, players, True)
        d = ladder_analysis._pair(fair, x, False)
        fp_fair += d["ci"][0] > 0 or d["ci"][1] < 0
        e = ladder_analysis._pair(x, y, False)
        fp_pair += e["ci"][0] > 0 or e["ci"][1] < 0
    for fp in (fp_fair, fp_pair):
        lo, hi = wilson(fp, reps, z=3.0)  # a 99.7% interval of the false-positive rate holds 5%
        assert lo <= 0.05 <= hi, (fp_fair, fp_pair)


def test_solo_rung_difference_is_calibrated_under_the_null():
    rng = np.random.default_rng(7)
    reps, n, fp = 400, 300, 0
    for _ in range(reps):
        a = (rng.random(n) < 0.6).astype(float)
        b = (rng.random(n) < 0.6).astype(float)
        d = ladder_analysis._pair(a, b, True)
        fp += d["ci"][0] > 0 or d["ci"][1] < 0
    lo, hi = wilson(fp, reps, z=3.0)
    assert hi >= 0.01 and lo <= 0.05, fp  # exact McNemar is conservative: at most 5%, not far below


# ---------------------------------------------------------------- the run report's ladder sentence


def _ladder(expert=0.80, expert_ci=(0.75, 0.85), diff=0.20, diff_ci=(0.15, 0.25), params=None):
    return {"kind": "ladder", "game": "sickdays-solo", "players": 1, "params": params or {"level": 4},
            "metric": "win rate", "paired": True,
            "policies": [{"name": "random", "label": "random", "value": 0.0, "ci": [0.0, 0.01], "n": 1000},
                         {"name": "greedy", "label": "greedy", "value": 0.60, "ci": [0.57, 0.63], "n": 1000},
                         {"name": "expert", "label": "expert", "value": expert, "ci": list(expert_ci), "n": 300,
                          "vs": {"greedy": {"diff": diff, "ci": list(diff_ci), "n": 300}}},
                         {"name": "oracle", "label": "oracle", "bound": True, "value": 0.97, "ci": [0.95, 0.98],
                          "n": 300}]}


def _greedy_seat():
    return context.seat_policies([{"name": "greedy", "kind": 1, "params": [0.0] * 4}], registry.get("sickdays-solo"), 1)


def test_run_report_says_the_headline_would_move_a_lot_with_stronger_play():
    words = " ".join(context.about_sentences(_greedy_seat(), True, (_ladder(), "ladder.json in the run folder")))
    assert "place 2 of 3 among the real players" in words
    assert "The headline would move a lot with stronger play: expert gets +20.0" in words
    assert "oracle 97.0%" in words and "(open-hand search)" in words and "upper bound" not in words


def test_run_report_does_not_claim_a_move_the_interval_does_not_show():
    lad = _ladder(expert=0.62, expert_ci=(0.57, 0.67), diff=0.02, diff_ci=(-0.03, 0.07))
    words = " ".join(context.about_sentences(_greedy_seat(), True, (lad, "x")))
    assert "would move a lot" not in words and "no significant difference" in words


def test_a_ladder_folder_beside_the_run_is_found_for_its_level_only(tmp_path):
    run = tmp_path / "runs" / "solo-run"
    run.mkdir(parents=True)
    lad = tmp_path / "runs" / "solo-ladder"
    lad.mkdir()
    (lad / "ladder.json").write_text(typed_ladder({"kind": "ladder", "game": "sickdays-solo", "players": 1,
                                                 "ladders": [_ladder(params={"level": 1}), _ladder(params={"level": 4})]}))
    found = context.find_ladder(run, "sickdays-solo", 1, {"level": 4, "suits": 6})
    assert found is not None and found[0]["params"] == {"level": 4} and found[1].endswith("solo-ladder/ladder.json")
    assert context.find_ladder(run, "sickdays-solo", 1, {"level": 6}) is None
    assert context.find_ladder(run, "overtime", 4, {"level": 4}) is None


def test_a_share_of_the_deals_is_the_first_ones_rounded_up():
    from balance.analysis.runs import Variant, variant_games

    assert variant_games(Variant("a", {}, {"share": 0.25}), 10) == 3
    assert variant_games(Variant("a", {}, {"share": 0.001}), 10) == 1
    assert variant_games(Variant("a", {}, {}), 10) == 10
    assert variant_games(Variant("a", {}, {"share": 0.1}), 4000) == 400


# ---------------------------------------------------------------- tournament pairings, skill split, the solver's bound


def test_pairings_count_each_table_once_per_deal():
    """One A seat among two B seats, rotated: per deal the share of A-B seat pairs each side won."""
    players = 3
    variants = [{"name": f"t/seat{s + 1}", "varied": {"rung": "t", "focal_seat": s,
                                                      "seat_rungs": ["A" if i == s else "B" for i in range(players)]}}
                for s in range(players)]
    # deal 0: A wins at every seating; deal 1: a B seat wins at every seating (A lost, one B won, one B lost)
    won = {}
    for s in range(players):
        m = np.zeros((2, players), np.int64)
        m[0, s] = 1
        m[1, (s + 1) % players] = 1
        won[f"t/seat{s + 1}"] = m
    (pr,) = ladder_analysis.pairings(_won_frame(None, won), [variants], players)
    assert (pr.a, pr.b) == ("A", "B") and list(pr.deals) == [0, 1]
    # deal 0: A beat both B seats: 2 of 2 pairs; deal 1: one B beat A, the other lost with A: 1 of 2 pairs to B
    assert list(pr.a_wins) == [1.0, 0.0] and list(pr.b_wins) == [0.0, 0.5]


def test_skill_is_chosen_on_even_deals_and_measured_on_odd_ones():
    n = 400
    x_even_lucky = np.zeros(n)
    x_even_lucky[0::2] = 1.0  # wins every even deal, no odd one
    series = {"random": np.zeros(n), "greedy": (np.arange(n) % 4 < 2).astype(float),  # half, even and odd alike
              "lucky": x_even_lucky}
    entries = [{"name": k, "label": k, "value": float(v.mean()), "vs": {}} for k, v in series.items()]
    sk = ladder_analysis.skill(entries, False, series)
    # chosen on the even deals, 'lucky' is the best; measured on the odd deals it wins nothing
    assert sk["top"] == "lucky" and sk["base"] == "random"
    assert sk["diff"] == pytest.approx(0.0) and sk["n"] == n // 2
    assert sk["over_greedy"]["diff"] == pytest.approx(-0.5)


def test_bound_counts_unknown_deals_both_ways_and_checks_every_rung():
    bound = {"kind": "bound", "nodes": 500, "levels": [{"level": 4, "game_index": [0, 1, 2, 3, 4],
                                                         "result": [1, 1, 0, -1, 1], "nodes": [3, 4, 500, 500, 9],
                                                         "replayed": [1, 1, 0, 0, 1], "lines": [[]] * 5}]}
    series = {"expert": np.array([1.0, 0.0, 0.0, 1.0, 1.0, np.nan]), "greedy": np.array([1.0, 0.0, 1.0, 0.0, 0.0])}
    entries = [{"label": "expert"}, {"label": "greedy"}]
    b = ladder_analysis.bound_entry(bound, 4, series, entries)
    assert (b["winnable"], b["not_winnable"], b["unknown"], b["deals"]) == (3, 1, 1, 5)
    assert b["low"]["value"] == pytest.approx(0.6) and b["high"]["value"] == pytest.approx(0.8)
    assert b["ci"] == [b["low"]["ci"][0], b["high"]["ci"][1]]
    assert b["rungs"]["expert"]["won_not_winnable"] == 0 and b["rungs"]["expert"]["won"] == 3
    # greedy "won" deal 2, which the solver calls not winnable: counted, and the report warns
    assert b["rungs"]["greedy"]["won_not_winnable"] == 1
    from balance.reports.ladder import bound_sentence

    from types import SimpleNamespace

    from balance.analysis.ladder_result import SolverBound

    words = bound_sentence(SimpleNamespace(level=4, solver_bound=SolverBound.model_validate(b)))
    assert "between 60.0% and 80.0%" in words and "WARNING: greedy" in words
    assert ladder_analysis.bound_entry(bound, 6, series, entries) is None


def test_solve_bound_writes_resumable_bound_json_for_the_deals_expert_plays(tmp_path):
    spec = registry.get("sickdays-solo")
    assert ladder_analysis.solver_for("sickdays-solo") is not None and ladder_analysis.solver_for("race21") is None
    share = {"lookahead": 0.25, "expert": 0.5, "oracle": 0.5}
    config, _, _ = ladder_analysis.ladder_config(spec, {}, 1, 7, [1, 4], 10, share)
    assert ladder_analysis.bound_deals(config, 12) == {1: 6, 4: 6}
    data = ladder_analysis.solve_bound(tmp_path, config, spec, 12, 3_000)
    for e in data["levels"]:
        assert e["game_index"] == list(range(6))
        assert all(r != 1 or p == 1 for r, p in zip(e["result"], e["replayed"]))
    before = (tmp_path / ladder_analysis.BOUND_FILE).read_text()
    ladder_analysis.solve_bound(tmp_path, config, spec, 12, 3_000)  # nothing left to solve: the same file
    assert (tmp_path / ladder_analysis.BOUND_FILE).read_text() == before
    assert ladder_analysis.solve_bound(tmp_path, config, registry.get("race21"), 12, 3_000) is None


def test_the_open_hand_search_is_never_called_an_upper_bound():
    from balance.reports.ladder import sentences

    lad = _ladder()
    for e in lad["policies"]:
        e.setdefault("vs", {})
    lad["policies"][-1]["vs"]["expert"] = {"diff": 0.17, "ci": [0.1, 0.2], "n": 300}
    from types import SimpleNamespace

    from balance.analysis.ladder_result import LadderFile

    one = LadderFile.model_validate_json(typed_ladder(lad)).settings[0]
    r = SimpleNamespace(competitive=False, players=1, seed=7, ladders=[one], left_out=[], complete=True, search_share={})
    words = " ".join(sentences(r))
    assert "open-hand search" in words
    assert words.count("upper bound") == words.count("not an upper bound")
