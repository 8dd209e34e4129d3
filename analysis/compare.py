"""Comparisons: the difference in every headline metric between two runs (or
two variants of one run), with its interval and a significance verdict,
Holm-corrected for the number of metrics compared.

When both sides played the same seed, the same game indices are the same
deals, so the comparison is paired: differences are taken game by game, which
removes the deal's luck from the noise (the reason paired runs exist).
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

from .stats import Z95, holm, normal_p, two_proportions

ALPHA = 0.05


def _per_game(games: pl.DataFrame, seats: pl.DataFrame, spec) -> pl.DataFrame:
    """One row per game: the metrics compared, as numbers."""
    won = seats.group_by("game_index").agg(
        pl.col("won").max().alias("win rate"),
        *[pl.col("won").filter(pl.col("seat") == s).first().alias(f"seat {s + 1} win rate")
          for s in range(int(seats["seat"].max()) + 1 if seats.height else 0)],
    )
    cols = [pl.col("game_index")]
    length = "turns" if "turns" in games.columns else "decisions"
    cols.append(pl.col(length).cast(pl.Float64).alias("length"))
    for reason in sorted(set(games["end_reason"].unique().to_list())):
        cols.append((pl.col("end_reason") == reason).cast(pl.Float64).alias(f"ends: {reason}"))
    for c in spec.game_columns:
        if c.name != length and not c.name.startswith("happy_turn"):
            cols.append(pl.col(c.name).cast(pl.Float64).alias(f"mean {c.name}"))
    return games.select(cols).join(won, on="game_index").sort("game_index")


def _binary(name: str) -> bool:
    return "win rate" in name or name.startswith("ends: ")


def compare_frames(a_games, a_seats, b_games, b_seats, spec, paired: bool) -> dict:
    a = _per_game(a_games, a_seats, spec)
    b = _per_game(b_games, b_seats, spec)
    metrics = [c for c in a.columns if c != "game_index" and c in b.columns]
    if paired:
        both = a.join(b, on="game_index", suffix="__b")
        paired = both.height > 1
    rows = []
    for m in metrics:
        if paired:
            x = both[m].to_numpy().astype(float)
            y = both[m + "__b"].to_numpy().astype(float)
            ok = ~(np.isnan(x) | np.isnan(y))
            d = y[ok] - x[ok]
            n = int(d.size)
            mean = float(d.mean()) if n else float("nan")
            se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
            p = 1.0 if se == 0 else normal_p(mean / se)
            if se == 0 and mean != 0:
                p = 0.0
            rows.append({"metric": m, "a": float(x[ok].mean()) if n else None, "b": float(y[ok].mean()) if n else None,
                         "diff": mean, "ci": [mean - Z95 * se, mean + Z95 * se], "p": p, "n_a": n, "n_b": n,
                         "method": "paired by game"})
        else:
            x = a[m].drop_nulls().drop_nans().to_numpy().astype(float)
            y = b[m].drop_nulls().drop_nans().to_numpy().astype(float)
            if _binary(m):
                r = two_proportions(x.sum(), x.size, y.sum(), y.size)
                diff, ci, p, method = r["diff"], r["ci"], r["p"], "two proportions (Newcombe)"
            else:
                diff = float(y.mean() - x.mean())
                se = math.sqrt(x.var(ddof=1) / x.size + y.var(ddof=1) / y.size) if x.size > 1 and y.size > 1 else 0.0
                ci = [diff - Z95 * se, diff + Z95 * se]
                p = 1.0 if se == 0 else normal_p(diff / se)
                method = "Welch"
            rows.append({"metric": m, "a": float(x.mean()), "b": float(y.mean()), "diff": diff, "ci": list(ci), "p": p,
                         "n_a": int(x.size), "n_b": int(y.size), "method": method})
    reject = holm([r["p"] for r in rows], ALPHA)
    for r, rej in zip(rows, reject):
        r["significant"] = bool(rej)
        r["verdict"] = ("B higher" if r["diff"] > 0 else "B lower") if rej else "no significant difference"
    return {"paired": bool(paired), "alpha": ALPHA, "correction": "Holm", "metrics": rows,
            "significant": [r["metric"] for r in rows if r["significant"]]}


def split_variant(games: pl.DataFrame, seats: pl.DataFrame, variant: str | None):
    if variant is None:
        return games, seats
    return games.filter(pl.col("variant") == variant), seats.filter(pl.col("variant") == variant)


def compare_runs(run_a, run_b, variant_a: str | None = None, variant_b: str | None = None) -> dict:
    """Compare two run folders (or two variants of sweep folders)."""
    import json

    from simcore import registry
    from simcore.errors import BalanceError

    from .frames import load_games, load_seats
    from .runs import load_manifest

    ma, mb = load_manifest(run_a), load_manifest(run_b)
    if ma["config"]["game"] != mb["config"]["game"]:
        raise BalanceError(f"compare: {run_a} is {ma['config']['game']} but {run_b} is {mb['config']['game']}; compare runs of one game")
    spec = registry.get(ma["config"]["game"])
    sides = []
    for run, manifest, variant, label in ((run_a, ma, variant_a, "A"), (run_b, mb, variant_b, "B")):
        names = [v["name"] for v in manifest["config"]["variants"]]
        if variant is None and len(names) > 1:
            raise BalanceError(f"--{label.lower()}-variant: {run} holds {len(names)} variants; allowed: {', '.join(names)}")
        if variant is not None and variant not in names:
            raise BalanceError(f"--{label.lower()}-variant: '{variant}' is not in {run}; allowed: {', '.join(names)}")
        g, s = split_variant(load_games(run, spec), load_seats(run, spec), variant)
        params = next(v["params"] for v in manifest["config"]["variants"] if variant is None or v["name"] == variant)
        sides.append((g, s, {"run": str(run), "variant": variant or names[0], "params": params,
                             "seed": manifest["config"]["seed"], "policies": manifest["config"]["policies"],
                             "players": manifest["config"]["players"]}))
    (ga, sa, a), (gb, sb, b) = sides
    paired = a["seed"] == b["seed"] and a["players"] == b["players"]
    result = compare_frames(ga, sa, gb, sb, spec, paired)
    changed = {k: [a["params"].get(k), b["params"].get(k)] for k in sorted(set(a["params"]) | set(b["params"]))
               if a["params"].get(k) != b["params"].get(k)}
    if a["policies"] != b["policies"]:
        changed["policies"] = [[p["name"] for p in a["policies"]], [p["name"] for p in b["policies"]]]
    return {"game": spec.name, "title": spec.title, "a": a, "b": b, "changed": json.loads(json.dumps(changed, default=str)),
            "n_a": int(ga.height), "n_b": int(gb.height), **result}


def write_comparison(folder, result: dict, command: str):
    import json
    from pathlib import Path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "comparison.json").write_text(json.dumps({**result, "command": command}, indent=2, default=float))
    from reports import render_compare_report

    return render_compare_report(folder, result)
