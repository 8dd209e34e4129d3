"""The statistics a user meets on the command line (race to 21): precision stops
reported as complete, seat rotation, margin verdicts, compare's primary metric,
family and pairing words, sweeps summarised per point."""
import json

import pytest

from runkit import balance


pytestmark = pytest.mark.usefixtures("race21")


def summary(folder):
    return json.loads((folder / "summary.json").read_text())


def test_a_precision_stop_is_complete_with_its_reason(tmp_path):
    out = tmp_path / "run"
    r = balance("simulate", "--game", "race21", "-n", 50_000, "--precision", 0.08, "--chunk-size", 500, "--out", out,
                "--quiet", "--policy", "greedy,random")
    assert r.exit_code == 0, r.output
    s = summary(out)
    assert s["n_games"] < 50_000 and s["complete"] and s["stopped_by"] == "precision"
    assert s["stopping"]["stopped_by"] == "precision" and "stopped by --precision" in r.output
    html = (out / "report.html").read_text()
    assert "resume the run to complete it" not in html
    # played on without --precision to fewer games than first asked: still complete by precision
    r = balance("simulate", "--game", "race21", "-n", 3000, "--chunk-size", 500, "--out", out, "--quiet",
                "--policy", "greedy,random")
    assert r.exit_code == 0, r.output
    s = summary(out)
    assert s["n_games"] == 3000 and s["complete"] and s["stopped_by"] == "precision"
    # and to every game ever asked for: complete by -n, the old record gone
    r = balance("simulate", "--game", "race21", "-n", 50_000, "--chunk-size", 5000, "--out", out, "--quiet",
                "--policy", "greedy,random")
    assert r.exit_code == 0, r.output
    s = summary(out)
    assert s["n_games"] == 50_000 and s["complete"] and s["stopped_by"] == "n_games" and "stopping" not in s
    assert not (out / "stopping.json").exists()


def test_rotated_seats_take_the_policies_round_the_table(tmp_path):
    out = tmp_path / "rot"
    r = balance("simulate", "--game", "race21", "-n", 2000, "--policy", "greedy,random", "--rotate-seats",
                "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    s = summary(out)
    rot = s["seat_rotation"]
    assert rot["rotations"] == 2 and rot["deals"] == 2000 and rot["incomplete_deals"] == 0
    # unrotated, seat 1 (greedy) looks far stronger; rotated, the seats of race to 21 are equal (the deal draws
    # the first player), so the rotated test has no reason to reject, and the policies' test sees greedy
    assert s["seat_gap_unrotated"]["significant"] and s["seat_gap_unrotated"]["best_seat"] == 0
    assert not s["seat_gap"]["significant"] and s["seat_gap"]["n"] == 2000
    pols = rot["policies"]
    assert [p["policy"] for p in pols["seats"]] == ["greedy", "random"] and pols["significant"]
    assert s["n_games"] == 2000 and s["complete"]
    assert all(r["policy"] == "every policy in turn" for r in s["win_rate_by_seat"])
    m = json.loads((out / "manifest.json").read_text())
    assert [v["varied"]["seat_rotation"] for v in m["config"]["variants"]] == [0, 1]
    assert "seats rotated" in r.output
    # a rotated game replays with its own seating
    import polars as pl

    seats = pl.read_parquet(sorted((out / "parts" / "seats").glob("v0001-*.parquet"))[0])
    for idx in range(6):
        winners = seats.filter((pl.col("game_index") == idx) & (pl.col("won") == 1))["seat"].to_list()
        rep = balance("replay", "--run", out, "--variant", 1, "--index", idx)
        assert rep.exit_code == 0 and f"winner(s): seat {winners[0] + 1}." in rep.output
        assert "policies random, greedy" in rep.output


def test_rotating_identical_seats_is_refused(tmp_path):
    r = balance("simulate", "--game", "race21", "-n", 100, "--rotate-seats", "--out", tmp_path / "x", "--quiet")
    assert r.exit_code == 2 and "--rotate-seats: every seat plays greedy" in r.output


def test_seat_verdict_with_the_margin(tmp_path):
    out = tmp_path / "run"
    r = balance("simulate", "--game", "race21", "-n", 20_000, "--margin", 0.03, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    s = summary(out)
    assert s["margin"] == 0.03
    item = next(i for i in s["verdicts"]["items"] if i["id"] == "seats")
    # equal seats, 20,000 games: the gap's interval is well inside 3 points
    assert item["verdict"] == "within_margin" and item["ci"][1] < 0.03
    assert "balanced within the margin" in r.output
    # the report rebuilt later keeps the margin the run was made with
    assert balance("report", out).exit_code == 0 and summary(out)["margin"] == 0.03


def test_sweep_is_summarised_per_point(tmp_path):
    out = tmp_path / "sw"
    r = balance("sweep", "--game", "race21", "--vary", "target=11,21", "-n", 1000, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    s = summary(out)
    assert s["per_variant"] and "win_rate" not in s and "cards" not in s
    assert all(v["cards"]["seat_games"] == 2000 for v in s["variants"])
    c = s["paired_vs_first"]["comparisons"][0]
    assert c["win_rate"]["ci_level"] == 0.95 and c["length_mean"]["verdict"]["verdict"] == "beyond_margin"
    assert {i["id"] for i in s["verdicts"]["items"]} >= {"vs_first", "seats"}


def test_compare_primary_family_pairing_and_same_seeds(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert balance("simulate", "--game", "race21", "-n", 2000, "--seed", 3, "--out", a, "--quiet",
                   "--policy", "random").exit_code == 0
    assert balance("simulate", "--game", "race21", "-n", 2000, "--seed", 3, "--out", b, "--quiet",
                   "--policy", "greedy,random").exit_code == 0
    r = balance("compare", a, b, "--out", tmp_path / "cmp")
    assert r.exit_code == 0, r.output
    res = json.loads((tmp_path / "cmp" / "comparison.json").read_text())
    # someone wins every race: the headline compared first is seat 1's win rate
    assert res["metrics"][0]["metric"] == "seat 1 win rate" and res["metrics"][0]["role"] == "primary"
    assert res["metrics"][0]["ci_level"] == 0.95
    k = res["family_size"]
    assert all(m["ci_level"] == pytest.approx(1 - 0.05 / k) for m in res["metrics"][1:])
    for m in res["metrics"]:  # the verdict is the interval's
        lo, hi = m["ci"]
        assert m["significant"] == (lo > 0 or hi < 0)
    assert res["pairing_basis"] == "same deals" and "paired on the same deals" in r.output
    assert res["pairing"]["correlation"] is not None  # seat 1's wins, game by game on the same deals
    assert any(d["reason"].startswith("constant") for d in res["dropped"])  # someone always wins a race
    # a different card list deals different cards from the same streams: "same seeds"
    m = json.loads((b / "manifest.json").read_text())
    m["config"]["variants"][0]["params"]["cards"] = "my-cards.toml"
    from balance.analysis.manifest_file import write_manifest

    write_manifest(b, m)  # as if b had been run with another card list (re-signed: an edit is refused)
    r = balance("compare", a, b, "--out", tmp_path / "cmp2")
    assert r.exit_code == 0, r.output
    res = json.loads((tmp_path / "cmp2" / "comparison.json").read_text())
    assert res["pairing_basis"] == "same seeds" and "the card lists differ" in res["pairing_words"]
    assert "same seeds" in (tmp_path / "cmp2" / "report.html").read_text()
