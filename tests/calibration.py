"""Null calibration and coverage of the seat test and of `compare`.

    python -m tests.calibration [--repeats R] [--quick] [--json out.json]

Each check repeats an experiment whose truth is known and reports the rate at
which a verdict is wrong (a false positive under a true null) or an interval
misses the truth, with its 95% Wilson interval and the number of repeats:

- seat verdict, synthetic: winner vectors drawn with every seat equal (one
  winner, sometimes none; or shared wins, as in Four Day Weekend), 2-6 seats:
  how often the verdict says the seats differ, and how often the verdict and
  the printed gap interval disagree (never, by construction: the verdict is
  read from that interval); the old chi-square over seat-games beside it;
- seat verdict against its interval on resamples of real games (Overtime, 4
  players, greedy): resamples of 5,000 games from 100,000, how often the
  verdict and the printed gap interval disagree;
- seat test, race to 21 (tests/toygame.py: the first player is drawn from the
  deal, so the seats are equal by construction), 2-4 players; and seat-rotated
  with greedy against random (equal seats, unequal policies: the unrotated test
  must reject, the rotated one must not);
- compare under a true null, synthetic (paired games sharing a deal effect) and
  on real engines: the same game played by `random` and by `greedy` with
  epsilon 1 (both uniformly random movers, drawing different moves from the
  policy stream: a change with no effect on the same deals), race to 21 and
  Overtime; the primary verdict and any verdict of the family;
- coverage of compare's intervals on a known change: synthetic (the true
  difference computed exactly) and race to 21 with target 21 against 23 (the
  truth from 400,000 paired games).

pytest runs small versions of the same functions (tests/analysis/test_calibration.py);
this script runs the heavy ones (thousands of repeats) and prints a table.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

HERE = Path(__file__).resolve().parent
for p in (str(HERE), str(HERE.parent)):
    if p not in sys.path:
        sys.path.insert(0, p)

from balance.analysis.compare import compare_frames  # noqa: E402
from balance.analysis.stats import WinPatterns, chi2_equal_rates, seat_balance, wilson  # noqa: E402

ALPHA = 0.05


def summary_of(k: int, r: int, what: str, nominal: float = ALPHA) -> dict:
    lo, hi = wilson(k, r)
    return {"check": what, "rate": k / r if r else None, "ci": [lo, hi], "k": k, "repeats": r, "nominal": nominal}


# ---------------------------------------------------------------- seat test, synthetic
def winner_vectors(rng, n: int, seats: int, shared: float = 0.0, nobody: float = 0.1) -> np.ndarray:
    """n games with every seat equal: nobody wins with prob `nobody`; else one
    uniform winner, or with prob `shared` two uniform winners sharing the win."""
    won = np.zeros((n, seats), np.int64)
    u = rng.random(n)
    one = u >= nobody
    won[np.arange(n)[one], rng.integers(0, seats, n)[one]] = 1
    two = one & (rng.random(n) < shared)
    for i in np.flatnonzero(two):
        won[i, rng.choice(seats, 2, replace=False)] = 1
    return won


def patterns_of(won: np.ndarray) -> WinPatterns:
    wp = WinPatterns(won.shape[1])
    wp.add(won)
    return wp


def says_differs(b: dict) -> bool:
    """Does a seat verdict (stats.seat_balance) say the seats differ, in any of its words?"""
    return bool(b["significant"]) or b["verdict"]["verdict"] in ("beyond_margin", "differs_size_unclear")


def interval_excludes_0(b: dict) -> bool:
    lo = b["gap"]["ci"][0]
    return lo is not None and lo > 0


def seat_null_synthetic(repeats: int, n: int, seats: int, shared: float = 0.0, seed: int = 0, balance=None) -> dict:
    """Equal seats: how often the seat verdict says they differ (a false positive),
    how often the printed gap interval excludes 0, and how often the two disagree.
    `balance`: the seat_balance to check (analysis.stats's unless given)."""
    balance = balance or seat_balance
    rng = np.random.default_rng([seed, seats, int(shared * 100)])
    new = old = gap = disagree = 0
    for _ in range(repeats):
        won = winner_vectors(rng, n, seats, shared)
        b = balance(patterns_of(won), ALPHA)
        new += says_differs(b)
        gap += interval_excludes_0(b)
        disagree += says_differs(b) != interval_excludes_0(b)
        old += chi2_equal_rates(list(won.sum(axis=0)), [n] * seats)["p"] < ALPHA
    tag = f"{seats} seats, n={n}" + (f", {shared:.0%} shared wins" if shared else "")
    return {"seat verdict": summary_of(new, repeats, f"seat verdict says 'differs', synthetic null, {tag}"),
            "gap interval excludes 0": summary_of(gap, repeats, f"seat-gap interval excludes 0, synthetic null, {tag}"),
            "verdict and interval disagree": summary_of(disagree, repeats, f"seat verdict and its printed interval "
                                                                             f"disagree, synthetic null, {tag}",
                                                        nominal=0.0),
            "old chi-square": summary_of(old, repeats, f"old chi-square over seat-games, synthetic null, {tag}")}


def seat_power_synthetic(repeats: int, n: int, edge: float, seed: int = 0, balance=None) -> dict:
    """Two seats, seat 1 wins with probability 1/2 + edge: how often the verdict sees it."""
    balance = balance or seat_balance
    rng = np.random.default_rng([seed, 99])
    hit = 0
    for _ in range(repeats):
        s0 = rng.random(n) < 0.5 + edge
        won = np.stack([s0, ~s0], axis=1).astype(np.int64)
        hit += says_differs(balance(patterns_of(won), ALPHA))
    return summary_of(hit, repeats, f"seat verdict power, 2 seats, edge {edge:+.2f}, n={n}", nominal=None)


def seat_power_one_seat(repeats: int, n: int, seats: int, edge: float, seed: int = 0, balance=None) -> dict:
    """`seats` seats, one winner a game, seat 1 wins with probability 1/seats + edge
    (the others share the rest equally): how often the verdict sees it."""
    balance = balance or seat_balance
    rng = np.random.default_rng([seed, 98, seats])
    probs = np.full(seats, (1 - (1 / seats + edge)) / (seats - 1))
    probs[0] = 1 / seats + edge
    hit = 0
    for _ in range(repeats):
        won = np.zeros((n, seats), np.int64)
        won[np.arange(n), rng.choice(seats, n, p=probs)] = 1
        hit += says_differs(balance(patterns_of(won), ALPHA))
    return summary_of(hit, repeats, f"seat verdict power, {seats} seats, seat 1 {edge:+.2f} over 1/{seats}, n={n}",
                      nominal=None)


def seat_verdict_resamples(won: np.ndarray, repeats: int, n: int, seed: int = 0, balance=None,
                           what: str = "") -> dict:
    """Resamples (with replacement) of n games from a pool of winner vectors:
    how often the seat verdict and the gap interval printed beside it disagree
    (the verdict says 'differs' and the interval holds 0, or the reverse)."""
    balance = balance or seat_balance
    rng = np.random.default_rng([seed, 5])
    disagree = differs = 0
    for _ in range(repeats):
        b = balance(patterns_of(won[rng.integers(0, won.shape[0], n)]), ALPHA)
        disagree += says_differs(b) != interval_excludes_0(b)
        differs += says_differs(b)
    out = summary_of(disagree, repeats, f"seat verdict and its printed interval disagree, {what}resamples of {n:,} "
                                        f"of {won.shape[0]:,} games", nominal=0.0)
    out["verdict_differs"] = differs
    return out


def overtime_winners(n: int = 100_000, players: int = 4, seed: int = 11) -> np.ndarray:
    """Winner vectors of n Overtime games, greedy at every seat."""
    from balance.simcore import registry
    from balance.simcore.batch import Engine, resolve_policy

    spec = registry.get("overtime")
    return play_won(spec, Engine(spec, [resolve_policy(spec, "greedy", {})]), {}, players, seed, n)


# ---------------------------------------------------------------- real engines
def toy_spec():
    """The race-to-21 test game's spec (not registered: the registry stays as it is)."""
    from toygame import SPEC

    return SPEC


def play_frames(spec, policies, params: dict, players: int, seed: int, first: int, n: int, variant: str,
                engine=None):
    from balance.analysis.chunk_frames import results_frames
    from balance.simcore.batch import Engine
    from balance.simcore.params import resolve

    params = resolve(spec, params)
    engine = engine or Engine(spec, policies)
    data = spec.load_data(params)
    res = engine.run(data.tables, players, seed, np.arange(first, first + n, dtype=np.int64), len(data.card_names))
    names = [p.name for p in policies] * (players if len(policies) == 1 else 1)
    g, s, _ = results_frames(spec, res, variant, 0, names, list(data.card_names))
    return g, s


def play_won(spec, engine, params: dict, players: int, seed: int, n: int) -> np.ndarray:
    """The winner vectors of games 0..n-1 (int, n x players)."""
    from balance.simcore.params import resolve

    params = resolve(spec, params)
    data = spec.load_data(params)
    res = engine.run(data.tables, players, seed, np.arange(n, dtype=np.int64), len(data.card_names))
    return (res.seat_out[:, :, 0] > 0.5).astype(np.int64)


def seat_null_race21(repeats: int, n: int, players: int, seed: int = 0, balance=None) -> dict:
    """race to 21 with greedy at every seat: the first player is drawn from the deal, so the seats are equal."""
    from balance.simcore.batch import Engine, resolve_policy

    balance = balance or seat_balance
    spec = toy_spec()
    pol = [resolve_policy(spec, "greedy", {})]
    engine = Engine(spec, pol)
    new = old = 0
    for r in range(repeats):
        won = play_won(spec, engine, {}, players, seed * 100_003 + r, n)
        new += says_differs(balance(patterns_of(won), ALPHA))
        old += chi2_equal_rates(list(won.sum(axis=0)), [n] * players)["p"] < ALPHA
    return {"seat verdict": summary_of(new, repeats, f"seat verdict, race to 21, {players} players greedy, n={n}"),
            "old chi-square": summary_of(old, repeats, f"old chi-square, race to 21, {players} players, n={n}")}


def seat_rotation_race21(repeats: int, n: int, seed: int = 0, balance=None) -> dict:
    """greedy against random, every deal played with the seats rotated: equal
    seats (the null holds for the rotated test), unequal policies (the
    unrotated test must see seat 1's greedy)."""
    from balance.analysis.runs import RunConfig, Variant, rotated_variants, seat_policies
    from balance.analysis.summary import _Rotations
    from balance.simcore.batch import Engine, resolve_policy

    balance = balance or seat_balance
    spec = toy_spec()
    pols = [resolve_policy(spec, "greedy", {}), resolve_policy(spec, "random", {})]
    cfg = RunConfig("race21", "race", 2, pols, 1, rotated_variants(Variant("base", {}), 2), 1000)
    engines = [Engine(spec, seat_policies(cfg, v)) for v in cfg.variants]
    rotated = unrotated = 0
    for r in range(repeats):
        wons = [play_won(spec, eng, {}, 2, seed * 100_003 + r, n) for eng in engines]
        idx = np.arange(n)
        seats = pl.concat([pl.DataFrame({"variant": v.name, "game_index": np.repeat(idx, 2),
                                         "seat": np.tile([0, 1], n), "won": w.reshape(-1)})
                           for v, w in zip(cfg.variants, wons)])
        acc = _Rotations({v.name: i for i, v in enumerate(cfg.variants)}, 2)
        acc.add(seats)
        rotated += says_differs(balance(acc.seat, ALPHA))
        won = wons[0]
        unrotated += says_differs(balance(patterns_of(won), ALPHA))
    return {"rotated (null)": summary_of(rotated, repeats, f"seat verdict, rotated greedy vs random, race to 21, n={n} deals"),
            "unrotated (policy confounded)": summary_of(unrotated, repeats,
                                                        f"seat verdict, unrotated greedy vs random, race to 21, n={n}",
                                                        nominal=None)}


# ---------------------------------------------------------------- compare
def synthetic_frames(won: np.ndarray, length: np.ndarray, variant: str):
    n, k = won.shape
    idx = np.arange(n)
    g = pl.DataFrame({"variant": [variant] * n, "game_index": idx,
                      "end_reason": np.where(won.any(axis=1), "reached", "cap"),
                      "decisions": pl.Series(length.astype(np.int32)), "total": pl.Series((length * 2).astype(np.int32))})
    s = pl.DataFrame({"variant": [variant] * (n * k), "game_index": np.repeat(idx, k),
                      "seat": pl.Series(np.tile(np.arange(k), n).astype(np.int8)), "policy": ["x"] * (n * k),
                      "won": pl.Series(won.reshape(-1).astype(np.int8)), "score": pl.Series(np.zeros(n * k, np.float32))})
    return g, s


def _side(rng, z: np.ndarray, shift: float, seats: int = 2):
    """Games sharing the deal effects z: someone wins with prob sigmoid(z + shift), the winner uniform."""
    n = z.size
    p = 1 / (1 + np.exp(-(z + shift)))
    anyone = rng.random(n) < p
    won = np.zeros((n, seats), bool)
    won[np.arange(n)[anyone], rng.integers(0, seats, n)[anyone]] = True
    length = np.maximum(1, np.round(12 + 2 * z + rng.normal(0, 2, n)))
    return won, length


def true_difference(shift: float, sd: float = 1.0) -> float:
    """E[sigmoid(z + shift) - sigmoid(z)], z ~ N(0, sd^2), by Gauss-Hermite quadrature."""
    x, w = np.polynomial.hermite_e.hermegauss(80)
    z = sd * x
    return float(np.sum(w * (1 / (1 + np.exp(-(z + shift))) - 1 / (1 + np.exp(-z)))) / np.sum(w))


def compare_synthetic(repeats: int, n: int, shift: float = 0.0, paired: bool = True, seed: int = 0) -> dict:
    """compare_frames on synthetic paired (or independent) games: under shift 0
    the false-positive rate of the primary verdict and of any verdict; else the
    coverage of the primary 95% interval of the win-rate difference."""
    from toygame import SPEC

    rng = np.random.default_rng([seed, int(shift * 1000), int(paired)])
    truth = true_difference(shift)
    primary = family = cover = 0
    for _ in range(repeats):
        z = rng.normal(0, 1, n)
        wa, la = _side(rng, z, 0.0)
        wb, lb = _side(rng, z if paired else rng.normal(0, 1, n), shift)
        ga, sa = synthetic_frames(wa, la, "A")
        gb, sb = synthetic_frames(wb, lb, "B")
        res = compare_frames(ga, sa, gb, sb, SPEC, paired)
        head = res["metrics"][0]
        primary += head["significant"]
        family += any(m["significant"] for m in res["metrics"][1:])
        cover += head["ci"][0] <= truth <= head["ci"][1]
    how = "paired" if paired else "unpaired"
    if shift == 0:
        return {"primary": summary_of(primary, repeats, f"compare, synthetic null, {how}, n={n}: win rate 'differs'"),
                "family": summary_of(family, repeats, f"compare, synthetic null, {how}, n={n}: any other metric 'differs'")}
    return {"coverage": summary_of(cover, repeats, f"compare, synthetic change {truth:+.4f}, {how}, n={n}: "
                                                   f"95% interval covers the truth", nominal=0.95)}


def compare_null_engine(game: str, repeats: int, n: int, players: int, seed: int = 0) -> dict:
    """The same game played by `random` and by `greedy` with epsilon 1 on the
    same deals: both move uniformly at random, from different draws of the
    policy stream. A change with no effect: compare must not find one."""
    from balance.simcore import registry
    from balance.simcore.batch import Engine, resolve_policy

    spec = toy_spec() if game == "race21" else registry.get(game)
    pa = [resolve_policy(spec, "random", {})]
    pb = [resolve_policy(spec, "greedy", {"epsilon": 1.0})]
    ea, eb = Engine(spec, pa), Engine(spec, pb)
    primary = family = 0
    corr = []
    for r in range(repeats):
        s = seed * 100_003 + r
        ga, sa = play_frames(spec, pa, {}, players, s, 0, n, "A", ea)
        gb, sb = play_frames(spec, pb, {}, players, s, 0, n, "B", eb)
        res = compare_frames(ga, sa, gb, sb, spec, True)
        primary += res["metrics"][0]["significant"]
        family += any(m["significant"] for m in res["metrics"][1:])
        if (res.get("pairing") or {}).get("correlation") is not None:
            corr.append(res["pairing"]["correlation"])
    out = {"primary": summary_of(primary, repeats, f"compare, {game} random vs greedy eps=1 (no effect), "
                                                   f"{players} players, n={n}: win rate 'differs'"),
           "family": summary_of(family, repeats, f"compare, {game} no-effect change, n={n}: any other metric 'differs'")}
    out["primary"]["pairing_correlation"] = float(np.mean(corr)) if corr else None
    return out


def compare_coverage_race21(repeats: int, n: int, truth_games: int = 400_000, seed: int = 0) -> dict:
    """race to 21: A greedy against random to 21, B greedy against greedy to 23
    (seat 2 plays better, the race is longer): the truth of each compared
    metric from `truth_games` paired games, then the coverage of compare's
    intervals from `repeats` runs of n games on other seeds."""
    from balance.simcore.batch import Engine, resolve_policy

    spec = toy_spec()
    pols = [resolve_policy(spec, "greedy", {}), resolve_policy(spec, "random", {})]
    pols_b = [resolve_policy(spec, "greedy", {}), resolve_policy(spec, "greedy", {})]
    eng, eng_b = Engine(spec, pols), Engine(spec, pols_b)
    ga, sa = play_frames(spec, pols, {"target": 21}, 2, 10**9 + 7, 0, truth_games, "A", eng)
    gb, sb = play_frames(spec, pols_b, {"target": 23}, 2, 10**9 + 7, 0, truth_games, "B", eng_b)
    big = compare_frames(ga, sa, gb, sb, spec, True)
    truth = {m["metric"]: m["diff"] for m in big["metrics"]}
    hits = {m: 0 for m in truth}
    seen = {m: 0 for m in truth}
    for r in range(repeats):
        s = seed * 100_003 + r
        ga, sa = play_frames(spec, pols, {"target": 21}, 2, s, 0, n, "A", eng)
        gb, sb = play_frames(spec, pols_b, {"target": 23}, 2, s, 0, n, "B", eng_b)
        for m in compare_frames(ga, sa, gb, sb, spec, True)["metrics"]:
            if m["metric"] in truth and m["ci"][0] is not None:
                seen[m["metric"]] += 1
                hits[m["metric"]] += m["ci"][0] <= truth[m["metric"]] <= m["ci"][1]
    levels = {m["metric"]: m["ci_level"] for m in big["metrics"]}
    return {m: {**summary_of(hits[m], seen[m], f"compare coverage, race to 21 (greedy v random to 21) vs (greedy v greedy to 23), n={n}: {m} "
                                                 f"(truth {truth[m]:+.4f} from {truth_games:,} pairs)",
                             nominal=levels[m])} for m in truth if seen[m]}


# ---------------------------------------------------------------- the heavy run
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=2000)
    ap.add_argument("--quick", action="store_true", help="200 repeats, smaller games")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    R = 200 if a.quick else a.repeats
    rows = []

    def add(block):
        for v in block.values():
            rows.append(v)
            lo, hi = v["ci"]
            nom = "" if v["nominal"] is None else f" (nominal {v['nominal']:.3g})"
            print(f"{v['check']}: {v['rate']:.4f} [95% CI {lo:.4f}, {hi:.4f}], {v['k']}/{v['repeats']}{nom}",
                  flush=True)

    t0 = time.time()
    for seats in (2, 3, 4, 6):
        add(seat_null_synthetic(R, 500, seats))
    add(seat_null_synthetic(R, 500, 4, shared=0.1))
    add({"power": seat_power_synthetic(R // 4, 2000, 0.03)})
    add({"power 4": seat_power_one_seat(R // 4, 5000, 4, 0.02)})
    add({"resamples": seat_verdict_resamples(overtime_winners(), max(300, R // 4), 5000, what="Overtime 4p greedy, ")})
    for players in (2, 3, 4):
        add(seat_null_race21(R, 1000, players))
    add(seat_rotation_race21(R // 2, 1000))
    add(compare_synthetic(R, 1000, 0.0, True))
    add(compare_synthetic(R, 1000, 0.0, False))
    add(compare_synthetic(R, 1000, 0.3, True))
    add(compare_synthetic(R, 1000, 0.3, False))
    add(compare_null_engine("race21", R, 1000, 2))
    add(compare_null_engine("overtime", max(100, R // 4), 1000, 4))
    add(compare_coverage_race21(R // 2, 2000))
    print(f"({time.time() - t0:.0f} s)")
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
