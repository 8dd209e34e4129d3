"""The `balance` command as a user runs it (Typer's CliRunner, the toy game)."""
import json

import pytest

from runkit import balance

from balance.simcore.errors import BalanceError


pytestmark = pytest.mark.usefixtures("race21")


def test_version_and_help():
    r = balance("--version")
    assert r.exit_code == 0 and r.output.startswith("balance ")
    assert "simulate" in balance("--help").output


def test_games_and_policies_list_what_a_designer_can_set():
    r = balance("games")
    assert r.exit_code == 0 and "race21" in r.output and "players: 2-4" in r.output
    r = balance("policies", "--game", "race21")
    assert r.exit_code == 0 and "lookahead" in r.output and "rollouts" in r.output and "epsilon" in r.output


def test_simulate_writes_the_run_folder_and_resumes(tmp_path):
    out = tmp_path / "run"
    r = balance("simulate", "--game", "race21", "-n", 3000, "--seed", 7, "--out", out, "--quiet", "--chunk-size", 1000)
    assert r.exit_code == 0, r.output
    for name in ("manifest.json", "summary.json", "report.html", "chunks.jsonl"):
        assert (out / name).exists()
    assert len(list((out / "parts" / "games").glob("*.parquet"))) == 3
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_games"] == 3000 and summary["seed"] == 7
    lo, hi = summary["win_rate_ci"]
    assert lo <= summary["win_rate"] <= hi
    assert "win rate" in r.output and str(out) in r.output
    # same command again: nothing to play, same summary
    r = balance("simulate", "--game", "race21", "-n", 3000, "--seed", 7, "--out", out, "--quiet")
    assert r.exit_code == 0
    assert (out / "chunks.jsonl").read_text().count("\n") == 3
    # another configuration on the same folder is refused with exit 2
    r = balance("simulate", "--game", "race21", "-n", 3000, "--seed", 8, "--out", out, "--quiet")
    assert r.exit_code == 2 and "different configuration" in r.output and "seed" in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("args,words", [
    (("--game", "nope"), ["--game", "unknown game 'nope'", "allowed:", "race21"]),
    (("--game", "race21", "--players", 9), ["--players", "allowed: 2..4"]),
    (("--game", "race21", "--set", "x=1"), ["--set", "has no parameter 'x'"]),
    (("--game", "race21", "--policy", "clever"), ["--policy", "unknown policy 'clever'", "random, greedy, lookahead"]),
    (("--game", "race21", "--policy-param", "epsilon=3"), ["--policy-param", "allowed: 0..1"]),
    (("--game", "race21", "--level", 3), ["--level", "no difficulty levels"]),
    (("--game", "race21", "--params", "/nonexistent.toml"), ["--params", "does not exist"]),
])
def test_bad_input_is_one_clear_line_and_exit_2(tmp_path, args, words):
    r = balance("simulate", *args, "-n", 10, "--out", tmp_path / "x", "--quiet")
    assert r.exit_code == 2, r.output
    for w in words:
        assert w in r.output
    assert "Traceback" not in r.output


def test_replay_prints_a_transcript_matching_the_run(tmp_path):
    out = tmp_path / "run"
    balance("simulate", "--game", "race21", "-n", 50, "--seed", 5, "--out", out, "--quiet")
    balance("replay", "--game", "race21", "--seed", 5, "--index", 0)  # compile first: only a cold replay says "compiling"
    a = balance("replay", "--game", "race21", "--seed", 5, "--index", 12)
    b = balance("replay", "--run", out, "--index", 12)
    assert a.exit_code == 0 and b.exit_code == 0
    assert "Player" in a.output and "End:" in a.output
    assert a.output.splitlines()[1:] == b.output.splitlines()[1:]


def test_report_rebuilds_from_the_folder_alone(tmp_path):
    out = tmp_path / "run"
    balance("simulate", "--game", "race21", "-n", 200, "--out", out, "--quiet")
    (out / "report.html").unlink()
    (out / "summary.json").unlink()
    r = balance("report", out)
    assert r.exit_code == 0 and (out / "report.html").exists() and (out / "summary.json").exists()
    assert balance("report", tmp_path / "nothing").exit_code == 2


def test_sweep_plays_every_point_on_the_same_deals(tmp_path):
    out = tmp_path / "sweep"
    r = balance("sweep", "--game", "race21", "--vary", "target=11..21:5", "-n", 400, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    summary = json.loads((out / "summary.json").read_text())
    assert [v["params"]["target"] for v in summary["variants"]] == [11, 16, 21]
    assert all(v["n_games"] == 400 for v in summary["variants"])
    assert (out / "report.html").exists()
    r = balance("sweep", "--game", "race21", "--vary", "target=1..3", "-n", 10, "--out", tmp_path / "bad")
    assert r.exit_code == 2 and "allowed: an integer in 5..60" in r.output


def test_compare_two_runs(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    balance("simulate", "--game", "race21", "-n", 2000, "--seed", 3, "--out", a, "--quiet", "--policy", "random")
    balance("simulate", "--game", "race21", "-n", 2000, "--seed", 3, "--out", b, "--quiet", "--policy", "greedy,random")
    r = balance("compare", a, b, "--out", tmp_path / "cmp")
    assert r.exit_code == 0, r.output
    assert "paired on the same deals" in r.output and "seat 1 win rate" in r.output
    result = json.loads((tmp_path / "cmp" / "comparison.json").read_text())
    seat1 = next(m for m in result["metrics"] if m["metric"] == "seat 1 win rate")
    assert seat1["significant"] and seat1["diff"] > 0  # greedy as seat 1 beats random
    assert (tmp_path / "cmp" / "report.html").exists()


def test_bench_measures_and_writes_json(tmp_path):
    r = balance("bench", "--game", "race21", "-n", 500, "--no-cold", "--nojit-games", 3, "--repeat", 3,
                "--json", tmp_path / "b.json")
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "b.json").read_text())
    assert data["samples_per_row"] == 3
    (game,) = data["results"]
    rows = game["rows"]
    assert {row["policy"] for row in rows} == {"random", "greedy", "expert"}  # expert beside them by default
    assert all(row["games_per_second"] > 0 and row["decisions_per_game"] > 0 for row in rows)
    # each row: the median of its 3 samples, between the slowest and the fastest
    assert all(row["samples"] == 3 for row in rows)
    assert all(row["games_per_second_min"] <= row["games_per_second"] <= row["games_per_second_max"] for row in rows)
    assert all(row["decisions_per_second"] == pytest.approx(row["games_per_second"] * row["decisions_per_game"])
               for row in rows)
    assert "median of 3" in r.output
    # the same rules in plain Python (NUMBA_DISABLE_JIT=1) are much slower than compiled
    one_thread = [row for row in rows if row["threads"] == 1 and row["policy"] != "expert"]  # search: no plain run
    assert one_thread and all(row["jit_speedup"] > 1 for row in one_thread)
    expert = [row for row in rows if row["policy"] == "expert"]
    assert expert and all(row["games"] == 64 and "jit_speedup" not in row for row in expert)  # n/100, at least 64
    assert game["peak_rss_mb"] > 10 and game["warm_load_seconds"] > 0 and game["cold_compile_seconds"] is None
    assert "peak RSS" in r.output and "no JIT" in r.output
    assert balance("bench", "--game", "nope").exit_code == 2
    assert balance("bench", "--game", "race21", "--repeat", 0).exit_code == 2
    assert balance("bench", "--game", "race21", "--policy", "nope").exit_code == 2
    from balance.analysis.bench import DEFAULT_POLICIES, available

    assert available("sickdays-party", list(DEFAULT_POLICIES))[0] == ["random", "greedy"]  # party refuses expert
    assert "expert" in available("sickdays-party", list(DEFAULT_POLICIES))[1]


def test_bench_of_every_game_passes_over_a_refused_policy():
    """`balance bench --policy expert` with no --game measures every game: the party game, which refuses expert,
    shows it as not available instead of stopping the whole command; named with --game, it is refused."""
    from balance.cli.bench import check_policies

    check_policies(["race21", "sickdays-party"], ["expert"], named=False)  # no error
    with pytest.raises(BalanceError, match="not available for sickdays-party"):
        check_policies(["sickdays-party"], ["expert"], named=True)
    with pytest.raises(BalanceError):
        check_policies(["race21", "sickdays-party"], ["nope"], named=False)  # an unknown policy still fails
    r = balance("bench", "--game", "sickdays-party", "--policy", "expert", "-n", 10, "--no-cold")
    assert r.exit_code == 2 and "not available for sickdays-party" in r.output


def test_check_passes_a_sound_game_and_stops_at_a_planted_bug(tmp_path):
    r = balance("simulate", "--game", "race21", "-n", 500, "--check", "--out", tmp_path / "ok", "--quiet")
    assert r.exit_code == 0, r.output
    # the planted bug corrupts the total once it reaches 12: --check names the invariant,
    # the game index and a replay command for the run folder, and exits 1 (an engine bug, not bad input)
    r = balance("simulate", "--game", "race21", "-n", 500, "--set", "bug_total=12", "--check",
                "--out", tmp_path / "bug", "--quiet")
    assert r.exit_code == 1
    assert "the total is below the sum of the moves played" in r.output
    assert "game index 0" in r.output and f"balance replay {tmp_path / 'bug'} --index 0 --check" in r.output
    assert "Traceback" not in r.output
    # without --check the same bug goes unnoticed
    r = balance("simulate", "--game", "race21", "-n", 500, "--set", "bug_total=12", "--out", tmp_path / "quiet", "--quiet")
    assert r.exit_code == 0
    # the replay command it printed stops at the broken step
    r = balance("replay", "--run", tmp_path / "bug", "--index", 0, "--check")
    assert r.exit_code == 1 and "Stopped by --check after decision" in r.output
    r = balance("replay", "--game", "race21", "--index", 0, "--check")
    assert r.exit_code == 0 and "every invariant held" in r.output


def test_bench_s_warm_load_is_a_load_even_on_an_empty_cache(tmp_path, monkeypatch):
    # a new machine's compile cache is empty: the warm process must still find every loop in it
    # (before session 13 it compiled them, and "load, warm cache" showed the compile time)
    monkeypatch.setenv("BALANCE_NUMBA_CACHE", str(tmp_path / "cache"))
    r = balance("bench", "--game", "race21", "-n", 200, "--policy", "greedy", "--nojit-games", 0,
                "--json", tmp_path / "b.json")
    assert r.exit_code == 0, r.output
    (game,) = json.loads((tmp_path / "b.json").read_text())["results"]
    assert game["warm_in_cache"] and all(v is True for v in game["warm_in_cache"].values()), game["warm_in_cache"]
    assert game["cold_peak_rss_mb"] > 10 and game["cold_compile_seconds"] > 0
    assert "peak RSS cold" in r.output
