"""summary.json: the machine-readable result of a run, for every game.

`summarize_frames` is pure (frames + manifest + spec -> dict); `summarize` reads
a run folder; `write_summary` writes `summary.json` beside the parts. Every rate
carries its 95% interval and n; every comparison a p-value and verdict.

Games ended by the turn cap are counted like any other game (as the result the
game wrote, normally a loss) and reported under `capped`, never dropped.
"""
from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import polars as pl

from . import cards as card_impact
from .frames import load_cards, load_games, load_manifest, load_seats
from .stats import Z95, bootstrap_quantile_ci, chi2_equal_rates, holm, mean_ci, rate, two_proportions

ALPHA = 0.05
SUMMARY_FILE = "summary.json"
ID_COLUMNS = {"variant", "game_index", "seed", "chunk", "id"}
SETTING_COLUMNS = {"level"}  # what a game was played at, not an outcome: shown as the ladder
HIST_MAX_VALUES = 200  # distinct values kept as-is in a histogram; more are binned
HIST_BINS = 60


# ---------------------------------------------------------------- helpers
def jsonable(obj):
    """numpy / polars scalars to plain Python; NaN and inf to None; keys to str."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [jsonable(v) for v in obj.tolist()]
    if isinstance(obj, (np.bool_, bool)):
        return bool(obj)
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (np.floating, float)):
        f = float(obj)
        return None if math.isnan(f) or math.isinf(f) else f
    if isinstance(obj, pl.Series):
        return jsonable(obj.to_list())
    if isinstance(obj, pl.DataFrame):
        return jsonable(obj.to_dicts())
    return obj


def _is_id_column(name: str) -> bool:
    return name in ID_COLUMNS or name.endswith("_id") or name.endswith("_index")


def _quantile(x: np.ndarray, q: float) -> float | None:
    return float(np.quantile(x, q, method="inverted_cdf")) if x.size else None


def histogram(x: np.ndarray) -> dict:
    """Counts per distinct value (binned when there are very many values)."""
    if x.size == 0:
        return {"values": [], "counts": [], "bin_width": None}
    uniq, counts = np.unique(x, return_counts=True)
    if uniq.size <= HIST_MAX_VALUES:
        return {"values": uniq.tolist(), "counts": counts.tolist(), "bin_width": None}
    counts, edges = np.histogram(x, bins=HIST_BINS)
    return {"values": ((edges[:-1] + edges[1:]) / 2).tolist(), "counts": counts.tolist(),
            "bin_width": float(edges[1] - edges[0])}


def distribution(values, column: str = "", help: str = "") -> dict:
    """Mean (normal interval), median (bootstrap interval), p10, p90, n and histogram."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    m = mean_ci(x)
    med = _quantile(x, 0.5)
    lo, hi = bootstrap_quantile_ci(x, 0.5) if x.size else (None, None)
    return {
        "column": column, "help": help, "n": int(x.size),
        "mean": m["value"], "mean_ci": m["ci"],
        "median": med, "median_ci": [lo, hi],
        "p10": _quantile(x, 0.1), "p90": _quantile(x, 0.9),
        "min": float(x.min()) if x.size else None, "max": float(x.max()) if x.size else None,
        "histogram": histogram(x),
    }


def game_results(games: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    """games with a `won` column: 1 if any seat won (co-op: the team won)."""
    keys = ["variant", "game_index"]
    if seats.is_empty():
        return games.with_columns(pl.lit(0, pl.Int8).alias("won"))
    won = seats.group_by(keys).agg(pl.col("won").cast(pl.Int8).max().alias("won"))
    return games.join(won, on=keys, how="left").with_columns(pl.col("won").fill_null(0))


def column_mean(frame: pl.DataFrame, column) -> dict:
    """Mean with interval of a declared column. Where the column's help documents
    -1 as "never"/"not applicable" (the house sentinel), those rows are left out
    and `n` counts the rest."""
    x = frame[column.name].cast(pl.Float64).drop_nulls().to_numpy() if frame.height else np.zeros(0)
    out = {}
    if "-1" in column.help:
        out["excluded_sentinel"] = int((x == -1).sum())
        x = x[x != -1]
    m = mean_ci(x)
    return {"mean": m["value"], "ci": m["ci"], "n": m["n"], "help": column.help, **out}


# ---------------------------------------------------------------- one block of games
def headline(games: pl.DataFrame, seats: pl.DataFrame, spec, params: dict | None = None) -> dict:
    """The headline fields of one set of games (a whole run or one variant)."""
    params = params or {}
    res = game_results(games, seats)
    n = res.height
    k = int(res["won"].sum()) if n else 0
    win = rate(k, n)
    out: dict = {"n_games": n, "win_rate": win["value"], "win_rate_ci": win["ci"], "wins": k}

    # seats
    by_seat = []
    if not seats.is_empty():
        agg = (seats.group_by("seat")
               .agg(pl.col("won").cast(pl.Int64).sum().alias("k"), pl.len().alias("n"),
                    pl.col("policy").unique().sort().str.join("/").alias("policy"))
               .sort("seat"))
        for r in agg.iter_rows(named=True):
            sr = rate(r["k"], r["n"])
            by_seat.append({"seat": int(r["seat"]), "policy": r["policy"], "value": sr["value"],
                            "ci": sr["ci"], "n": sr["n"], "wins": sr["k"]})
    competitive = not spec.cooperative
    if competitive and len(by_seat) > 1:
        out["win_rate_by_seat"] = by_seat
        hi_s = max(by_seat, key=lambda s: s["value"])
        lo_s = min(by_seat, key=lambda s: s["value"])
        test = chi2_equal_rates([s["wins"] for s in by_seat], [s["n"] for s in by_seat])
        diff = two_proportions(lo_s["wins"], lo_s["n"], hi_s["wins"], hi_s["n"])
        out["seat_gap"] = {
            "value": hi_s["value"] - lo_s["value"], "ci": diff["ci"],
            "best_seat": hi_s["seat"], "worst_seat": lo_s["seat"],
            "test": "chi-square, equal win rate at every seat", **test,
            "significant": test["p"] < ALPHA, "n": n,
        }
        lose = rate(n - k, n)
        out["everybody_loses"] = lose

    # first-player advantage, when the game records who moved first
    first_col = next((c for c in ("first_seat", "first_player") if c in games.columns), None)
    if competitive and first_col and not seats.is_empty():
        s = seats.join(games.select("variant", "game_index", first_col), on=["variant", "game_index"])
        is_first = pl.col("seat").cast(pl.Int64) == pl.col(first_col).cast(pl.Int64)
        f = s.filter(is_first)
        o = s.filter(~is_first)
        if f.height and o.height:
            kf, ko = int(f["won"].cast(pl.Int64).sum()), int(o["won"].cast(pl.Int64).sum())
            d = two_proportions(ko, o.height, kf, f.height)
            out["first_player"] = {"first": rate(kf, f.height), "others": rate(ko, o.height),
                                   "advantage": d["diff"], "ci": d["ci"], "p": d["p"],
                                   "significant": d["p"] < ALPHA}

    # length
    names = [c.name for c in spec.game_columns]
    helps = {c.name: c.help for c in spec.game_columns}
    length_col = "turns" if "turns" in names else "decisions"
    out["length"] = distribution(games[length_col].to_numpy() if n else [], length_col,
                                 helps.get(length_col, "decisions taken by all players"))
    if "rounds" in names:
        out["rounds"] = distribution(games["rounds"].to_numpy() if n else [], "rounds", helps["rounds"])

    # end reasons: every declared reason, zeros included, plus any unexpected one
    counts = dict(games.group_by("end_reason").len().iter_rows()) if n else {}
    reasons = list(spec.all_end_reasons) + sorted(r for r in counts if r not in spec.all_end_reasons)
    out["end_reasons"] = {r: int(counts.get(r, 0)) for r in reasons}
    out["end_reason_shares"] = {r: rate(out["end_reasons"][r], n) for r in reasons}
    out["capped"] = out["end_reasons"]["cap"]
    out["capped_rate"] = rate(out["capped"], n)
    out["turn_cap"] = spec.max_decisions

    # the game's declared metrics
    out["metrics"] = {c.name: column_mean(games, c) for c in spec.game_columns
                      if c.name in games.columns and not _is_id_column(c.name) and c.name not in SETTING_COLUMNS}
    out["seat_metrics"] = {c.name: {**column_mean(seats, c), "per": "seat-game"} for c in spec.seat_columns
                           if c.name in seats.columns and not _is_id_column(c.name)}

    if spec.headline is not None and n:
        out["game_metrics"] = spec.headline(games, seats, params)
    return out


def _variant_params(manifest: dict) -> dict[str, dict]:
    config = manifest.get("config", {})
    base = dict(config.get("params") or {})
    return {v.get("name"): {**base, **(v.get("params") or {})} for v in config.get("variants") or []}


def _variant_varied(manifest: dict) -> dict[str, dict]:
    """The grid point of each variant (what the sweep varied), when the manifest says."""
    return {v.get("name"): dict(v.get("varied") or {}) for v in manifest.get("config", {}).get("variants") or []}


def ladder(games: pl.DataFrame, seats: pl.DataFrame, variants: list[dict]) -> list[dict]:
    """Win rate per difficulty level, when several levels ran: from a `level`
    game column, or from variants that differ only in their `level` parameter."""
    if "level" in games.columns and games["level"].n_unique() > 1:
        res = game_results(games, seats)
        agg = res.group_by("level").agg(pl.col("won").cast(pl.Int64).sum().alias("k"), pl.len().alias("n")).sort("level")
        return [{"level": jsonable(r["level"]), **rate(r["k"], r["n"])} for r in agg.iter_rows(named=True)]
    if len(variants) > 1 and all(set(v.get("varied") or {}) == {"level"} for v in variants):
        rows = [{"level": var["varied"]["level"], "variant": var["name"], **rate(var["wins"], var["n_games"])}
                for var in variants]
        return sorted(rows, key=lambda r: (r["level"] is None, r["level"]))
    if len(variants) > 1 and all("level" in v["params"] for v in variants):
        others = [{k: v for k, v in var["params"].items() if k != "level"} for var in variants]
        levels = [var["params"]["level"] for var in variants]
        if len(set(map(str, levels))) > 1 and all(o == others[0] for o in others):
            rows = [{"level": var["params"]["level"], "variant": var["name"], **rate(var["wins"], var["n_games"])}
                    for var in variants]
            return sorted(rows, key=lambda r: (r["level"] is None, r["level"]))
    return []


# ---------------------------------------------------------------- sweeps
def _paired_diff(x: np.ndarray, y: np.ndarray) -> dict:
    """Mean of y - x over paired games, normal interval, two-sided z-test."""
    d = y - x
    n = int(d.size)
    if n == 0:
        return {"diff": None, "ci": [None, None], "p": None, "n": 0}
    mean = float(d.mean())
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
    if se == 0:
        p = 1.0 if mean == 0 else 0.0
    else:
        from scipy import stats as st

        p = float(2 * st.norm.sf(abs(mean) / se))
    return {"diff": mean, "ci": [mean - Z95 * se, mean + Z95 * se], "p": p, "n": n}


def paired_vs_first(games: pl.DataFrame, seats: pl.DataFrame, variant_names: list[str]) -> dict:
    """Every point of a sweep against the first, game by game on the same deals
    (same game index = same deal): win rate and mean length, Holm-corrected over
    the points compared, per metric."""
    out = {"baseline": variant_names[0] if variant_names else None, "method": "paired by game (same deals)",
           "correction": "Holm", "alpha": ALPHA, "comparisons": []}
    if len(variant_names) < 2 or games.is_empty():
        return out
    length_col = "turns" if "turns" in games.columns else "decisions"
    res = game_results(games, seats).select("variant", "game_index", pl.col("won").cast(pl.Float64),
                                            pl.col(length_col).cast(pl.Float64).alias("length"))
    base = res.filter(pl.col("variant") == variant_names[0]).drop("variant")
    rows = []
    for name in variant_names[1:]:
        both = base.join(res.filter(pl.col("variant") == name).drop("variant"), on="game_index", suffix="_b")
        row = {"variant": name, "n_pairs": both.height}
        for metric, col in (("win_rate", "won"), ("length_mean", "length")):
            x = both[col].to_numpy()
            y = both[col + "_b"].to_numpy()
            ok = ~(np.isnan(x) | np.isnan(y))
            row[metric] = _paired_diff(x[ok], y[ok])
        rows.append(row)
    for metric in ("win_rate", "length_mean"):
        ps = [r[metric]["p"] if r[metric]["p"] is not None else 1.0 for r in rows]
        for r, rej in zip(rows, holm(ps, ALPHA)):
            r[metric]["significant"] = bool(rej)
    out["comparisons"] = rows
    return out


# ---------------------------------------------------------------- the run
def summarize_frames(games: pl.DataFrame, seats: pl.DataFrame, cards: pl.DataFrame, manifest: dict, spec) -> dict:
    """The summary of a run from its frames and manifest (pure; writes nothing)."""
    config = manifest.get("config", {})
    params = dict(config.get("params") or {})
    variant_names = sorted(games["variant"].unique().to_list()) if not games.is_empty() else []
    declared = [v.get("name") for v in config.get("variants", []) or []]
    variant_names = [v for v in declared if v in variant_names] + [v for v in variant_names if v not in declared]
    n_requested_each = manifest.get("n_games")
    n_variants = max(1, len(variant_names), len(declared))
    players = config.get("players")
    if players is None and not seats.is_empty():
        players = int(seats["seat"].max()) + 1

    summary = {
        "game": config.get("game", spec.name),
        "title": spec.title,
        "kind": manifest.get("kind", "run"),
        "mode": config.get("mode"),
        "players": players,
        "cooperative": bool(spec.cooperative),
        "n_requested": (n_requested_each * n_variants) if n_requested_each is not None else None,
        "seed": config.get("seed"),
        "policies": config.get("policies", []),
        "params": params,
        "rule_version": config.get("rule_version", spec.version),
        "card_list_hash": config.get("card_list_hash"),
    }
    summary.update(headline(games, seats, spec, params))
    summary["complete"] = summary["n_requested"] is None or summary["n_games"] >= summary["n_requested"]
    summary["length_unit"] = summary["length"]["column"]

    summary["cards"] = card_impact.cards_to_dict(cards, spec.card_counters)

    variants = []
    if len(variant_names) > 1:
        vparams = _variant_params(manifest)
        varied = _variant_varied(manifest)
        summary["pooled_over_variants"] = True
        for name in variant_names:
            g = games.filter(pl.col("variant") == name)
            s = seats.filter(pl.col("variant") == name)
            p = vparams.get(name, params)
            block = headline(g, s, spec, p)
            variants.append({"name": name, "params": p, "varied": varied.get(name, {}),
                             "n_requested": n_requested_each, **block})
        summary["variants"] = variants
        summary["paired_vs_first"] = paired_vs_first(games, seats, variant_names)
    summary["ladder"] = ladder(games, seats, variants)
    summary["generated"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return jsonable(summary)


def summarize(run_dir: str | Path, spec) -> dict:
    """Read a run folder and summarise it (writes nothing)."""
    return summarize_frames(load_games(run_dir, spec), load_seats(run_dir, spec), load_cards(run_dir),
                            load_manifest(run_dir), spec)


def write_summary(run_dir: str | Path, spec) -> Path:
    """Write `summary.json` into the run folder and return its path."""
    path = Path(run_dir) / SUMMARY_FILE
    data = summarize(run_dir, spec)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1, allow_nan=False), encoding="utf-8")
    tmp.replace(path)
    return path
