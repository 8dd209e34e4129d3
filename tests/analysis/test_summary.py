"""summary.json on synthetic run folders with known rates (race-to-21 toy spec).

Tolerances come from the intervals: a rate set to p is checked to lie in the
95% Wilson interval the summary reports (seeds fixed, so this is deterministic).
"""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import polars as pl

from synthetic import SPEC, make_run

from balance.analysis.frames import load_cards, load_games, load_manifest, load_seats, part_files
from balance.analysis.summary import summarize, summarize_frames, write_summary
from balance.simcore import metrics as M
from balance.simcore.spec import Column


def test_loaders_read_parts_and_ignore_temporary_files(tmp_path):
    run = make_run(tmp_path, n_games=1200, chunk=500)
    (run / "parts" / "games-000099.parquet.tmp").write_bytes(b"half written")
    assert [p.name for p in part_files(run, "games")] == [f"games-{i:06d}.parquet" for i in range(3)]
    games, seats, cards = load_games(run), load_seats(run), load_cards(run)
    assert games.height == 1200 and seats.height == 2400
    assert cards.height == 3 * 3
    assert load_manifest(run)["config"]["seed"] == 7


def test_loaders_on_an_empty_folder_give_documented_columns(tmp_path):
    games = load_games(tmp_path, SPEC)
    assert games.is_empty() and games.columns == ["variant", "game_index", "end_reason", "decisions", "total"]
    assert load_seats(tmp_path, SPEC).columns[:6] == ["variant", "game_index", "seat", "policy", "won", "score"]
    assert "seat_wins" in load_cards(tmp_path).columns
    assert load_manifest(tmp_path) == {}
    s = summarize(tmp_path, SPEC)
    assert s["n_games"] == 0 and s["win_rate"] is None
    json.dumps(s, allow_nan=False)


def test_summary_fields_and_capped_games_are_counted(tmp_path):
    run = make_run(tmp_path, n_games=4000, p_seat0=0.6, n_cap=5)
    s = summarize(run, SPEC)
    json.dumps(s, allow_nan=False)  # plain JSON, no numpy, no NaN
    for key in ("game", "mode", "players", "n_games", "n_requested", "seed", "policies", "params", "win_rate",
                "win_rate_ci", "win_rate_by_seat", "seat_gap", "everybody_loses", "length", "end_reasons",
                "capped", "metrics", "cards"):
        assert key in s, key
    assert (s["game"], s["mode"], s["players"], s["seed"]) == ("race21", "race", 2, 7)
    # cap-ended games stay in: 4000 finished, 5 of them capped, nobody won those
    assert s["n_games"] == 4000 and s["n_requested"] == 4000 and s["complete"]
    assert s["capped"] == 5 and s["end_reasons"]["cap"] == 5
    assert s["end_reasons"] == {"cap": 5, "no_move": 0, "reached": 3995}  # zeros included
    assert s["end_reason_shares"]["reached"]["n"] == 4000
    assert s["wins"] == 3995 and abs(s["win_rate"] - 3995 / 4000) < 1e-12
    lo, hi = s["win_rate_ci"]
    assert lo < s["win_rate"] < hi
    assert s["everybody_loses"]["k"] == 5 and s["everybody_loses"]["n"] == 4000
    seat0, seat1 = s["win_rate_by_seat"]
    assert (seat0["seat"], seat0["policy"], seat0["n"]) == (0, "greedy", 4000)
    assert seat0["ci"][0] <= 0.6 * 3995 / 4000 <= seat0["ci"][1]
    assert seat0["wins"] + seat1["wins"] == 3995
    gap = s["seat_gap"]
    assert gap["best_seat"] == 0 and gap["significant"] and gap["p"] < 1e-6 and gap["family_size"] == 1
    assert gap["ci"][0] > 0 and gap["verdict"]["verdict"] == "beyond_margin"  # the verdict is the interval's
    assert abs(gap["value"] - (seat0["value"] - seat1["value"])) < 1e-12
    assert gap["ci"][0] < gap["value"] < gap["ci"][1]
    # length in decisions (the toy game declares no `turns`), quantiles of the data
    games = load_games(run)
    d = games["decisions"].to_numpy()
    L = s["length"]
    assert L["column"] == "decisions" and L["n"] == 4000
    assert abs(L["mean"] - d.mean()) < 1e-9 and L["median"] == float(np.quantile(d, 0.5, method="inverted_cdf"))
    assert L["mean_ci"][0] < L["mean"] < L["mean_ci"][1]
    assert L["median_ci"][0] <= L["median"] <= L["median_ci"][1]
    assert L["p10"] <= L["median"] <= L["p90"] and L["max"] == SPEC.max_decisions
    assert sum(L["histogram"]["counts"]) == 4000
    assert set(s["metrics"]) == {"total"} and s["metrics"]["total"]["n"] == 4000
    assert s["metrics"]["total"]["ci"][0] < s["metrics"]["total"]["mean"] < s["metrics"]["total"]["ci"][1]
    assert "variants" not in s and s["ladder"] == []


def test_equal_seats_are_not_called_unequal(tmp_path):
    s = summarize(make_run(tmp_path, n_games=20000, p_seat0=0.5, n_cap=0, seed=3), SPEC)
    gap = s["seat_gap"]
    # the gap's interval must contain 0 when the seats are equal by construction
    assert gap["ci"][0] < 0 < gap["ci"][1] or not gap["significant"]
    assert gap["value"] < 0.03


def test_incomplete_run_says_so(tmp_path):
    s = summarize(make_run(tmp_path, n_games=1000, n_requested=5000), SPEC)
    assert s["n_games"] == 1000 and s["n_requested"] == 5000 and not s["complete"]


def test_write_summary_writes_json(tmp_path):
    run = make_run(tmp_path, n_games=600)
    path = write_summary(run, SPEC)
    assert path == run / "summary.json"
    assert json.loads(path.read_text())["n_games"] == 600


def test_variants_and_level_ladder(tmp_path):
    levels = {"L1": 0.9, "L2": 0.6, "L3": 0.3}
    run = make_run(tmp_path, n_games=3000, n_cap=0, variants=levels,
                   variant_params={"L1": {"level": 1}, "L2": {"level": 2}, "L3": {"level": 3}})
    s = summarize(run, SPEC)
    assert s["n_games"] == 9000 and s["n_requested"] == 9000 and s["per_variant"]
    # no figure pools the points: the headline, seats and cards are each variant's own
    assert "win_rate" not in s and "seat_gap" not in s and "cards" not in s
    assert all(v["cards"]["seat_games"] == 6000 for v in s["variants"])
    names = [v["name"] for v in s["variants"]]
    assert names == ["L1", "L2", "L3"]
    for v in s["variants"]:
        assert v["n_games"] == 3000 and v["params"]["level"] in (1, 2, 3)
        p = levels[v["name"]]
        seat0 = v["win_rate_by_seat"][0]
        assert seat0["ci"][0] <= p <= seat0["ci"][1]
    # the toy game is competitive; the ladder reads the game's win rate (someone wins), always 1 here
    assert [r["level"] for r in s["ladder"]] == [1, 2, 3]
    assert all(r["n"] == 3000 for r in s["ladder"])


def _coop_spec():
    metrics = (M.Counts(key="missing_cards", value=pl.col("total"), help="cards missing at the end"),
               M.Rate(key="pizza_rate", hits=pl.col("total") > 20))
    return dataclasses.replace(
        SPEC, cooperative=True, metrics=metrics, length_column="turns",
        game_columns=(Column("turns", "turns played"), Column("total", "final total"), Column("card_id", "an id")),
    )


def test_cooperative_spec_turns_column_and_headline(tmp_path):
    spec = _coop_spec()
    run = make_run(tmp_path, n_games=2000, n_cap=3)
    games = load_games(run).with_columns(((pl.col("decisions") + 1) // 2).alias("turns"), pl.lit(0).alias("card_id"))
    s = summarize_frames(games, load_seats(run), load_cards(run), load_manifest(run), spec)
    assert s["cooperative"] and "seat_gap" not in s and "everybody_loses" not in s
    assert s["length"]["column"] == "turns"
    assert s["length"]["median"] == float(np.quantile(games["turns"].to_numpy(), 0.5, method="inverted_cdf"))
    assert set(s["metrics"]) == {"turns", "total"}  # id columns skipped
    gm = s["game_metrics"]
    assert sum(gm["missing_cards"]["distribution"].values()) == 2000
    assert all(isinstance(k, str) for k in gm["missing_cards"]["distribution"])  # JSON keys
    json.dumps(s, allow_nan=False)


def test_level_column_gives_a_ladder(tmp_path):
    spec = dataclasses.replace(SPEC, game_columns=SPEC.game_columns + (Column("level", "difficulty level"),),
                               setting_columns=("level",))
    run = make_run(tmp_path, n_games=3000, n_cap=300)
    games = load_games(run).with_columns((pl.col("game_index") % 3 + 1).alias("level"))
    s = summarize_frames(games, load_seats(run), load_cards(run), load_manifest(run), spec)
    lad = s["ladder"]
    assert [r["level"] for r in lad] == [1, 2, 3] and sum(r["n"] for r in lad) == 3000
    assert all(r["ci"][0] <= r["value"] <= r["ci"][1] for r in lad)


def test_runs_part_names_and_sweep_manifest(tmp_path):
    """balance.analysis.runs names parts games-v0000-i...-n....parquet and writes params: None
    with per-variant params and `varied` for sweeps."""
    run = make_run(tmp_path, n_games=1000, n_cap=0, variants={"a": 0.7, "b": 0.4})
    for p in (run / "parts").iterdir():
        kind, idx = p.stem.split("-")
        p.rename(p.with_name(f"{kind}-v{int(idx) % 2:04d}-i{int(idx) * 500:012d}-n{500:09d}.parquet"))
    (run / "parts" / "games-v0000-i000000099999-n000000500.parquet.tmp").write_bytes(b"")
    m = json.loads((run / "manifest.json").read_text())
    m["config"]["params"] = None
    m["config"]["variants"] = [{"name": "a", "params": {"level": 1, "pizzas": 3}, "varied": {"level": 1}},
                               {"name": "b", "params": {"level": 2, "pizzas": 2}, "varied": {"level": 2}}]
    (run / "manifest.json").write_text(json.dumps(m))
    s = summarize(run, SPEC)
    assert s["n_games"] == 2000 and s["params"] == {}
    assert [v["varied"] for v in s["variants"]] == [{"level": 1}, {"level": 2}]
    assert s["variants"][1]["params"] == {"level": 2, "pizzas": 2}
    # only `level` varied, so the ladder is drawn even though resolved params differ
    assert [r["level"] for r in s["ladder"]] == [1, 2]


def test_sentinel_minus_one_is_left_out_of_means(tmp_path):
    spec = dataclasses.replace(SPEC, game_columns=(Column("total", "final total"),
                                                   Column("happy_turn", "turn a worker became happy; -1 never")))
    run = make_run(tmp_path, n_games=1000)
    games = load_games(run).with_columns(
        pl.when(pl.col("game_index") % 2 == 0).then(-1).otherwise(10).alias("happy_turn"))
    s = summarize_frames(games, load_seats(run), load_cards(run), load_manifest(run), spec)
    m = s["metrics"]["happy_turn"]
    assert m["mean"] == 10 and m["n"] == 500 and m["excluded_sentinel"] == 500


def test_first_player_advantage_when_the_game_records_it(tmp_path):
    spec = dataclasses.replace(SPEC, game_columns=SPEC.game_columns + (Column("first_seat", "seat that moved first"),),
                               first_seat_column="first_seat")
    run = make_run(tmp_path, n_games=4000, p_seat0=0.6, n_cap=0)
    games = load_games(run).with_columns(pl.lit(0, pl.Int8).alias("first_seat"))  # seat 0 always starts
    s = summarize_frames(games, load_seats(run), load_cards(run), load_manifest(run), spec)
    fp = s["first_player"]
    assert fp["first"]["n"] == 4000 and fp["others"]["n"] == 4000
    assert fp["advantage"] > 0 and fp["ci"][0] > 0 and fp["significant"]


def _rotated_frames(n: int, winner_seat) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Two rotations of n deals of race to 21 (policy listed j sits at seat (j + r) mod 2);
    `winner_seat(deal, r)` says which seat wins replay r of a deal."""
    games, seats = [], []
    idx = np.arange(n, dtype=np.int64)
    for r in (0, 1):
        v = f"r{r}"
        w = np.array([winner_seat(i, r) for i in range(n)])
        games.append(pl.DataFrame({"variant": [v] * n, "game_index": idx, "end_reason": ["reached"] * n,
                                   "decisions": np.full(n, 10, np.int32), "total": np.full(n, 21, np.int32)}))
        won = np.zeros((n, 2), np.int8)
        won[idx, w] = 1
        pols = ["greedy", "random"] if r == 0 else ["random", "greedy"]
        seats.append(pl.DataFrame({"variant": [v] * (2 * n), "game_index": np.repeat(idx, 2),
                                   "seat": np.tile(np.array([0, 1], np.int8), n), "policy": pols * n,
                                   "won": won.reshape(-1), "score": np.zeros(2 * n, np.float32)}))
    return pl.concat(games), pl.concat(seats)


def _rotated_manifest(n: int) -> dict:
    from synthetic import manifest

    return manifest(n, 7, [{"name": f"r{r}", "params": {}, "varied": {"seat_rotation": r}} for r in (0, 1)])


def test_a_rotated_run_gives_no_verdict_where_no_deal_set_one_side_against_the_other():
    rng = np.random.default_rng(5)
    deal_seat = rng.integers(0, 2, 3000)
    # the policies play alike: the same seat wins both replays of a deal, so each policy wins one of two,
    # every deal: the policies' 50% is by construction (it was "50.0% [50.0, 50.0], balanced within the margin")
    g, s = _rotated_frames(3000, lambda i, r: deal_seat[i])
    out = summarize_frames(g, s, None, _rotated_manifest(3000), SPEC)
    pol = out["seat_rotation"]["policies"]
    assert pol["verdict"]["verdict"] == "no_information" and "by construction" in pol["verdict"]["words"]
    assert all(r["value"] == 0.5 and r["ci"] == [None, None] for r in pol["seats"])
    item = next(i for i in out["verdicts"]["items"] if i["id"] == "policies")
    assert item["verdict"] == "no_information" and item["words"].startswith("not enough information to say: ")
    assert out["seat_gap"]["verdict"]["verdict"] != "no_information"  # the seats were measured
    # greedy wins every deal from either seat: each seat wins one replay of two, by construction
    g, s = _rotated_frames(3000, lambda i, r: r)
    out = summarize_frames(g, s, None, _rotated_manifest(3000), SPEC)
    gap = out["seat_gap"]
    assert gap["verdict"]["verdict"] == "no_information" and gap["ci"] == [None, None] and not gap["significant"]
    assert all(r["ci"] == [None, None] for r in out["win_rate_by_seat"])
    item = next(i for i in out["verdicts"]["items"] if i["id"] == "seats")
    assert item["verdict"] == "no_information" and out["verdicts"]["counts"]["no_information"] == 1
    assert out["seat_rotation"]["policies"]["verdict"]["verdict"] == "beyond_margin"
    for r in out["seat_rotation"]["policies"]["seats"] + out["seat_rotation"]["seats"]["pairs"]:
        assert r["ci"][0] is None or r["ci"][1] - r["ci"][0] > 0  # no interval of zero width
