"""`balance playtests` recovers what made a log (issue 44, "What it must reach"), and its difference
verdicts hold their false-positive rate under a true null.

The simulation's tables (every rung, or every reaction median) are played once per module on one
seed; the synthetic logs are games of another seed, each repeat its own game indices, so a log is
never a game the tables hold."""
from __future__ import annotations

import math

import numpy as np
import pytest

from balance.analysis import playtest_fit
from balance.analysis import playtests as PT
from balance.analysis.playtest_log import Group, simulate, sim_rows
from balance.simcore import registry
from balance.simcore.batch import resolve_policy

TABLE_SEED = 7
LOG_SEED = 1001
REPEATS = 50
GAMES = 200


def _coverage(game: str, players: int, user: dict, true_label: str, n_sim: int):
    spec = registry.get(game)
    rungs = playtest_fit.rung_grid(spec, expert=False)
    group = Group(players, user, "test", [])
    tables = playtest_fit.rung_tables(spec, [group], rungs, n_sim, TABLE_SEED)
    truth = next(i for i, r in enumerate(rungs) if r.label == true_label)
    held, widths, bests = 0, [], []
    for rep in range(REPEATS):
        sim = simulate(spec, players, user, [rungs[truth].policy(spec)] * players, GAMES, LOG_SEED, first=rep * GAMES)
        group.rows = sim_rows(spec, sim, end=False)  # winners and turns, as a spreadsheet log would give
        fit = playtest_fit.fit_rung(spec, [group], tables, rungs)
        lo, hi = fit["interval_index"]
        held += lo <= truth <= hi
        widths.append(hi - lo)
        bests.append(fit["best_index"])
    return held, widths, bests, truth


@pytest.mark.parametrize("game,players,user,true_label", [
    ("youre-fired", 2, {}, "greedy epsilon=0.3"),
    ("sickdays-solo", 1, {"level": 1}, "greedy epsilon=0.4"),
])
def test_the_fitted_interval_holds_the_true_rung(game, players, user, true_label):
    held, widths, bests, truth = _coverage(game, players, user, true_label, n_sim=5_000)
    print(f"{game}: true rung held in {held}/{REPEATS}; interval widths (rungs) {sorted(widths)}; best {bests}")
    assert held >= math.ceil(0.9 * REPEATS), (held, widths, bests)
    # and the interval says something: not the whole grid (11 rungs), and the best is near the truth
    assert np.median(widths) <= 4, widths
    assert np.mean(np.abs(np.array(bests) - truth) <= 1) >= 0.9, bests


@pytest.mark.parametrize("with_turns", [True, False], ids=["minutes and cards played", "minutes alone"])
def test_timed_party_games_recover_reaction_median(with_turns):
    """100 timed synthetic games (every seat greedy, reaction_median 2.0 or 3.0 s) recover the median within
    0.3 s, and the interval holds it (at least 6 of 8 logs; 95% intervals would miss 2 or more of 8 with
    probability 0.06 if exact)."""
    spec = registry.get("sickdays-party")
    grid = (1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5)
    group = Group(5, {}, "test", [])
    group.rows = sim_rows(spec, simulate(spec, 5, {}, [resolve_policy(spec, "greedy")] * 5, 2, LOG_SEED))  # has minutes
    tables = playtest_fit.reaction_tables(spec, [group], 800, TABLE_SEED, grid)
    greedy = resolve_policy(spec, "greedy")
    errors, held = [], 0
    for true in (2.0, 3.0):
        for rep in range(4):
            sim = simulate(spec, 5, {"reaction_median": [true]}, [greedy] * 5, 100, LOG_SEED, first=rep * 100)
            group.rows = sim_rows(spec, sim, turns=with_turns)
            fit = playtest_fit.fit_reaction([group], tables, grid)
            errors.append(fit["best"] - true)
            held += fit["interval"][0] <= true <= fit["interval"][1]
            assert fit["interval"][0] <= fit["best"] <= fit["interval"][1]
    print(f"reaction_median errors (s): {np.round(errors, 3).tolist()}; interval held {held}/8")
    assert max(abs(e) for e in errors) <= 0.3, errors
    assert held >= 6, held


def _family_flags(game: str, players: int, logs: int, games: int) -> tuple[int, int]:
    spec = registry.get(game)
    greedy = resolve_policy(spec, "greedy")
    group = Group(players, {}, "test", [])
    sims = {group.key: simulate(spec, players, {}, [greedy] * players, 4_000, TABLE_SEED)}
    flagged = items = 0
    for rep in range(logs):
        group.rows = sim_rows(spec, simulate(spec, players, {}, [greedy] * players, games, LOG_SEED, first=rep * games))
        c = PT.compare(spec, [group], sims, margin=0.02)
        flagged += any(it["significant"] for it in c["items"])
        items = c["family_size"]
    return flagged, items


@pytest.mark.parametrize("game,players", [("youre-fired", 2), ("overtime", 4)])
def test_no_difference_is_found_when_the_log_comes_from_the_same_settings(game, players):
    """Family-wise false-positive rate of the Holm-corrected verdicts at alpha 0.05, over logs of 30
    games synthesized from the simulated settings: at most alpha plus a one-sided 99% binomial allowance
    (200 logs: 10 expected at exactly alpha, allowed up to 17)."""
    logs = 200
    flagged, items = _family_flags(game, players, logs, 30)
    allowed = logs * PT.ALPHA + 2.33 * math.sqrt(logs * PT.ALPHA * (1 - PT.ALPHA))
    print(f"{game}: {flagged}/{logs} logs with a significant difference among {items} figures")
    assert flagged <= allowed, (flagged, allowed)


def test_a_log_whose_seats_differ_is_flagged():
    """The same test finds the difference it is for: seat 2 played by greedy with half its moves random."""
    spec = registry.get("youre-fired")
    greedy = resolve_policy(spec, "greedy")
    weak = resolve_policy(spec, "greedy", {"epsilon": 0.5})
    group = Group(2, {}, "test", [])
    sims = {group.key: simulate(spec, 2, {}, [greedy, greedy], 4_000, TABLE_SEED)}
    found = 0
    for rep in range(20):
        group.rows = sim_rows(spec, simulate(spec, 2, {}, [greedy, weak], 30, LOG_SEED, first=rep * 30))
        c = PT.compare(spec, [group], sims, margin=0.02)
        found += any(it["significant"] and it["id"] == "seat1" for it in c["items"])
    assert found >= 10, found
