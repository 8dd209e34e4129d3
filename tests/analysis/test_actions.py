"""The per-action table (analysis.actions, reports.actions): each seat's chosen action kinds, counted by
the runner through the game's `action` kernel, kept in the seats part (`action_*` columns), summed per
seat, shown in the run report and read by the API."""
import numpy as np
import polars as pl

from balance.analysis.actions import action_totals, load_actions
from balance.analysis.frames import load_games, load_seats, part_files
from balance.simcore import registry

from tests.cli.runkit import balance


def test_totals_sum_each_seat_and_keep_the_declared_order():
    seats = pl.DataFrame({"variant": ["base"] * 4, "game_index": [0, 0, 1, 1], "seat": pl.Series([0, 1, 0, 1], dtype=pl.Int8),
                          "action_draw": [1, 0, 2, 0], "action_play": [3, 4, 0, 0], "won": [1, 0, 0, 1]})
    spec = registry.get("shed")
    t = action_totals(seats, spec)
    assert t["action"].to_list() == ["play", "draw"] * 2  # spec order, not the frame's
    seat0 = t.filter(pl.col("seat") == 0)
    assert seat0["count"].to_list() == [3, 3] and seat0["decisions"].to_list() == [6, 6]
    assert seat0["share"].to_list() == [0.5, 0.5] and seat0["games"].to_list() == [2, 2]
    assert all(lo <= 0.5 <= hi for lo, hi in zip(seat0["low"], seat0["high"]))
    assert t.filter(pl.col("seat") == 1)["count"].to_list() == [4, 0]
    # a folder written before the action columns: no table, not a guess
    assert action_totals(seats.drop("action_draw", "action_play"), spec).is_empty()


def test_the_share_interval_covers_at_its_level_when_games_differ():
    """stats.ratio_ci counts games as the independent units: with shares that differ from game to game (one
    seat keeps playing its way), its 95% interval holds the true share about 95% of the time; Wilson over the
    decisions, which treats them as independent, falls well short (so this test can fail)."""
    from balance.analysis.stats import ratio_ci, wilson

    rng = np.random.default_rng(7)
    true, reps, games = 0.3, 600, 150
    ours = naive = 0
    for _ in range(reps):
        d = rng.poisson(30, games) + 1
        p = rng.beta(0.3 * 4, 0.7 * 4, games)  # mean 0.3, much spread between games
        c = rng.binomial(d, p).astype(float)
        d = d.astype(float)
        lo, hi = ratio_ci(c.sum(), d.sum(), (c * c).sum(), (c * d).sum(), (d * d).sum(), games)
        ours += lo <= true <= hi
        lo, hi = wilson(c.sum(), d.sum())
        naive += lo <= true <= hi
    assert 0.925 <= ours / reps <= 0.975, ours / reps
    assert naive / reps < 0.7, naive / reps
    # no spread at all: the interval is Wilson's of the count, never a point
    lo, hi = ratio_ci(0.0, 300.0, 0.0, 0.0, 900.0, 100)
    assert lo == 0.0 and 0.005 < hi < 0.02


def test_a_rotated_run_has_one_column_per_seat_and_policy():
    seats = pl.DataFrame({"variant": ["r0", "r0", "r1", "r1"], "game_index": [0, 0, 0, 0],
                          "seat": pl.Series([0, 1, 0, 1], dtype=pl.Int8), "policy": ["greedy", "random", "random", "greedy"],
                          "action_draw": [1, 0, 2, 0], "action_play": [3, 4, 0, 5]})
    t = action_totals(seats, registry.get("shed"))
    assert t.select("seat", "policy").unique(maintain_order=True).rows() == [
        (0, "greedy"), (0, "random"), (1, "greedy"), (1, "random")]
    assert t.filter((pl.col("seat") == 1) & (pl.col("policy") == "greedy"))["count"].to_list() == [5, 0]


def test_the_run_folder_keeps_the_actions_and_the_report_shows_them(tmp_path):
    run = tmp_path / "run"
    r = balance("simulate", "--game", "shed", "-n", 300, "--seed", 3, "--players", 3, "--out", run, "--quiet",
                "--skill-check", 0)
    assert r.exit_code == 0, r.output
    spec = registry.get("shed")
    assert part_files(run, "seats")
    seats = load_seats(run, spec)
    assert set(spec.action_column_names) <= set(seats.columns)
    # every decision of every game is one seat's action of one kind
    games = load_games(run, spec)
    assert int(seats.select(spec.action_column_names).sum().sum_horizontal()[0]) == int(games["decisions"].sum())
    t = load_actions(run, spec)
    assert sorted(set(t["seat"].to_list())) == [0, 1, 2] and set(t["action"]) == set(spec.action_kinds)
    per_seat = seats.group_by("seat").agg(pl.sum_horizontal(spec.action_column_names).sum().alias("d")).sort("seat")
    assert np.array_equal(t.group_by("seat").agg(pl.col("count").sum()).sort("seat")["count"].to_numpy(),
                          per_seat["d"].to_numpy())
    assert t.filter(pl.col("action") == "play")["count"].sum() > 0
    html = (run / "report.html").read_text()
    assert "Actions chosen, by seat" in html and "pass turn" in html and "Seat 1 · greedy" in html
    assert "games (n)" in html
    import balance as api

    assert api.load(run).actions.equals(t)
