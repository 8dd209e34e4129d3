"""summary.json: the machine-readable result of a run, for every game.

`summarize_frames` is pure (frames + manifest + spec -> dict); `summarize` reads
a run folder; `write_summary` writes `summary.json` beside the parts. Every rate
carries its 95% interval and n; every comparison a p-value and verdict.

Games ended by the turn cap are counted like any other game (as the result the
game wrote, normally a loss) and reported under `capped`, never dropped.

Memory: every block of games is summarised from mergeable accumulators (counts,
`stats.Moments` for means, value-count tables for the length distributions)
fed window by window (`analysis.frames.windows`: WINDOW_GAMES game indices, all
variants together), so a run folder is read a window at a time and the peak
does not grow with the number of games. Medians, quantiles, histograms and the
bootstrap intervals come from the value-count tables and equal what the rows
give; means agree with one pass over the rows to float rounding (~1e-16).
The game's own `spec.headline` takes frames: it is called per window on the
columns it reads (`_headline_columns`) and its results merged (`_merge`:
rates by counts, means by moments, counts by sums), checked on the first two
windows against one call over both; a headline that does not merge that way
is called once at the end on the columns it reads (memory then grows with the
games, by those columns only). docs/run-folder.md, "Reading a run".
"""
from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import polars as pl

from . import cards as card_impact
from .distributions import distribution, distribution_counts, histogram, histogram_counts  # noqa: F401
from .frames import load_manifest, part_files, scan_parts, windows
from .metrics import GameMetrics
from .stats import (
    Z95,
    Moments,
    chi2_equal_rates,
    holm,
    normal_p,
    rate,
    two_proportions,
)

ALPHA = 0.05
SUMMARY_FILE = "summary.json"
ID_COLUMNS = {"variant", "game_index", "seed", "chunk", "id"}
WINDOW_GAMES = 50_000  # game indices read at a time from a run folder, over all variants together


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


class _Counts:
    """A value-count table filled chunk by chunk (NaN left out)."""

    def __init__(self):
        self.table: dict[float, int] = {}

    def add(self, x) -> None:
        x = np.asarray(x, dtype=float)
        x = x[~np.isnan(x)]
        for v, c in zip(*np.unique(x, return_counts=True)):
            self.table[float(v)] = self.table.get(float(v), 0) + int(c)

    def distribution(self, column: str, help: str) -> dict:
        keys = sorted(self.table)
        return distribution_counts(np.array(keys, dtype=float), np.array([self.table[k] for k in keys], np.int64),
                                   column, help)


def game_results(games: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    """games with a `won` column: 1 if any seat won (co-op: the team won)."""
    keys = ["variant", "game_index"]
    if seats.is_empty():
        return games.with_columns(pl.lit(0, pl.Int8).alias("won"))
    won = seats.group_by(keys).agg(pl.col("won").cast(pl.Int8).max().alias("won"))
    return games.join(won, on=keys, how="left").with_columns(pl.col("won").fill_null(0))


def _column_values(frame: pl.DataFrame, name: str) -> np.ndarray:
    return frame[name].cast(pl.Float64).drop_nulls().to_numpy() if frame.height else np.zeros(0)


def _sentinel(column) -> bool:
    """The column's help documents -1 as "never"/"not applicable" (the house sentinel)."""
    return "-1" in column.help


def column_mean(frame: pl.DataFrame, column) -> dict:
    """Mean with interval of a declared column. Where the column's help documents
    -1 as "never"/"not applicable" (the house sentinel), those rows are left out
    and `n` counts the rest."""
    acc = _MeanAcc(column)
    acc.add(frame)
    return acc.result()


class _MeanAcc:
    """`column_mean`, chunk by chunk."""

    def __init__(self, column):
        self.column = column
        self.moments = Moments()
        self.excluded = 0

    def add(self, frame: pl.DataFrame) -> None:
        x = _column_values(frame, self.column.name)
        if _sentinel(self.column):
            drop = x == -1
            self.excluded += int(drop.sum())
            x = x[~drop]
        self.moments.add(x)

    def result(self) -> dict:
        m = self.moments.ci()
        out = {"excluded_sentinel": self.excluded} if _sentinel(self.column) else {}
        return {"mean": m["value"], "ci": m["ci"], "n": m["n"], "help": self.column.help, **out}


# ---------------------------------------------------------------- one block of games
class Block:
    """The headline fields of one set of games (a whole run or one variant),
    accumulated window by window: `add` a (games with `won`, seats) pair per
    window, then `result`. Holds counts, moments and value-count tables only."""

    def __init__(self, spec, game_columns, seat_columns):
        self.spec = spec
        game_columns, seat_columns = list(game_columns), list(seat_columns)
        self.helps = {c.name: c.help for c in spec.game_columns}
        self.length_col = spec.length_column  # declared in the spec, not guessed from names
        self.rounds_col = spec.rounds_column
        self.has_rounds = self.rounds_col is not None
        self.first_col = spec.first_seat_column if spec.first_seat_column in game_columns else None
        self.n = self.k = 0
        self.seats: dict[int, list] = {}  # seat -> [wins, seat-games, policies]
        self.first = [0, 0, 0, 0]  # wins and seat-games of the first mover, of the others
        self.length, self.rounds = _Counts(), _Counts()
        self.reasons: dict[str, int] = {}
        self.metrics = {c.name: _MeanAcc(c) for c in spec.game_columns
                        if c.name in game_columns and not _is_id_column(c.name) and c.name not in spec.setting_columns}
        self.seat_metrics = {c.name: _MeanAcc(c) for c in spec.seat_columns
                             if c.name in seat_columns and not _is_id_column(c.name)}

    def add(self, res: pl.DataFrame, seats: pl.DataFrame) -> None:
        """One window: `res` = game_results(games, seats) of the window's games, `seats` their seats."""
        n = res.height
        self.n += n
        self.k += int(res["won"].sum()) if n else 0
        if not seats.is_empty():
            agg = seats.group_by("seat").agg(pl.col("won").cast(pl.Int64).sum().alias("k"), pl.len().alias("n"),
                                             pl.col("policy").unique().alias("policy"))
            for r in agg.iter_rows(named=True):
                acc = self.seats.setdefault(int(r["seat"]), [0, 0, set()])
                acc[0] += int(r["k"])
                acc[1] += int(r["n"])
                acc[2].update(r["policy"])
            if self.first_col and not self.spec.cooperative and n:
                s = seats.join(res.select("variant", "game_index", self.first_col), on=["variant", "game_index"])
                is_first = pl.col("seat").cast(pl.Int64) == pl.col(self.first_col).cast(pl.Int64)
                f = s.filter(is_first)
                o = s.filter(~is_first)
                self.first[0] += int(f["won"].cast(pl.Int64).sum())
                self.first[1] += f.height
                self.first[2] += int(o["won"].cast(pl.Int64).sum())
                self.first[3] += o.height
        if n:
            self.length.add(res[self.length_col].to_numpy())
            if self.has_rounds:
                self.rounds.add(res[self.rounds_col].to_numpy())
            for r, c in res.group_by("end_reason").len().iter_rows():
                self.reasons[r] = self.reasons.get(r, 0) + int(c)
        for acc in self.metrics.values():
            acc.add(res)
        for acc in self.seat_metrics.values():
            acc.add(seats)

    def result(self) -> dict:
        spec, n, k = self.spec, self.n, self.k
        win = rate(k, n)
        out: dict = {"n_games": n, "win_rate": win["value"], "win_rate_ci": win["ci"], "wins": k}

        by_seat = []
        for seat in sorted(self.seats):
            wins, m, pols = self.seats[seat]
            sr = rate(wins, m)
            by_seat.append({"seat": seat, "policy": "/".join(sorted(p for p in pols if p is not None)),
                            "value": sr["value"], "ci": sr["ci"], "n": sr["n"], "wins": sr["k"]})
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
            out["everybody_loses"] = rate(n - k, n)

        kf, nf, ko, no = self.first
        if nf and no:
            d = two_proportions(ko, no, kf, nf)
            out["first_player"] = {"first": rate(kf, nf), "others": rate(ko, no),
                                   "advantage": d["diff"], "ci": d["ci"], "p": d["p"],
                                   "significant": d["p"] < ALPHA}

        out["length"] = self.length.distribution(self.length_col,
                                                 self.helps.get(self.length_col, "decisions taken by all players"))
        if self.has_rounds:
            out["rounds"] = self.rounds.distribution(self.rounds_col, self.helps[self.rounds_col])

        # end reasons: every declared reason, zeros included, plus any unexpected one
        counts = self.reasons
        reasons = list(spec.all_end_reasons) + sorted(r for r in counts if r not in spec.all_end_reasons)
        out["end_reasons"] = {r: int(counts.get(r, 0)) for r in reasons}
        out["end_reason_shares"] = {r: rate(out["end_reasons"][r], n) for r in reasons}
        out["capped"] = out["end_reasons"]["cap"]
        out["capped_rate"] = rate(out["capped"], n)
        out["turn_cap"] = spec.max_decisions

        out["metrics"] = {name: acc.result() for name, acc in self.metrics.items()}
        out["seat_metrics"] = {name: {**acc.result(), "per": "seat-game"} for name, acc in self.seat_metrics.items()}
        return out


def headline(games: pl.DataFrame, seats: pl.DataFrame, spec, params: dict | None = None) -> dict:
    """The headline fields of one set of games (a whole run or one variant)."""
    params = params or {}
    block = Block(spec, games.columns, seats.columns)
    block.add(game_results(games, seats), seats)
    out = block.result()
    if spec.metrics and games.height:
        acc = GameMetrics(spec, params, int(seats["seat"].max()) + 1 if seats.height else None)
        acc.add(games, seats)
        out["game_metrics"] = acc.result()
    elif spec.headline is not None and games.height:
        out["game_metrics"] = spec.headline(games, seats, params)
    return out


def _variant_params(manifest: dict) -> dict[str, dict]:
    config = manifest.get("config", {})
    base = dict(config.get("params") or {})
    return {v.get("name"): {**base, **(v.get("params") or {})} for v in config.get("variants") or []}


def _variant_varied(manifest: dict) -> dict[str, dict]:
    """The grid point of each variant (what the sweep varied), when the manifest says."""
    return {v.get("name"): dict(v.get("varied") or {}) for v in manifest.get("config", {}).get("variants") or []}


class _LevelLadder:
    """Wins and games per value of a `level` game column, window by window."""

    def __init__(self):
        self.levels: dict = {}

    def add(self, res: pl.DataFrame) -> None:
        if "level" not in res.columns or not res.height:
            return
        agg = res.group_by("level").agg(pl.col("won").cast(pl.Int64).sum().alias("k"), pl.len().alias("n"))
        for r in agg.iter_rows(named=True):
            acc = self.levels.setdefault(r["level"], [0, 0])
            acc[0] += int(r["k"])
            acc[1] += int(r["n"])

    def rows(self) -> list[dict]:
        if len(self.levels) <= 1:
            return []
        order = sorted(self.levels, key=lambda lv: (lv is not None, lv))  # as polars sorts: nulls first
        return [{"level": jsonable(lv), **rate(*self.levels[lv])} for lv in order]


def ladder(games: pl.DataFrame, seats: pl.DataFrame, variants: list[dict], levels: _LevelLadder | None = None) -> list[dict]:
    """Win rate per difficulty level, when several levels ran: from a `level`
    game column, or from variants that differ only in their `level` parameter.
    `levels` is the column's tally when the caller read the games window by window."""
    if levels is None:
        levels = _LevelLadder()
        if "level" in games.columns:
            levels.add(game_results(games, seats))
    rows = levels.rows()
    if rows:
        return rows
    if len(variants) > 1 and all(set(v.get("varied") or {}) == {"level"} for v in variants):
        rows = [{"level": var["varied"]["level"], "variant": var["name"], **rate(var["wins"], var["n_games"])}
                for var in variants]
        return sorted(rows, key=lambda r: (r["level"] is None, r["level"]))
    if len(variants) > 1 and all("level" in v["params"] for v in variants):
        others = [{k: v for k, v in var["params"].items() if k != "level"} for var in variants]
        levels_ = [var["params"]["level"] for var in variants]
        if len(set(map(str, levels_))) > 1 and all(o == others[0] for o in others):
            rows = [{"level": var["params"]["level"], "variant": var["name"], **rate(var["wins"], var["n_games"])}
                    for var in variants]
            return sorted(rows, key=lambda r: (r["level"] is None, r["level"]))
    return []


# ---------------------------------------------------------------- sweeps
def _paired_result(m: Moments) -> dict:
    """Mean of the paired differences, normal interval, two-sided z-test."""
    n = m.n
    if n == 0:
        return {"diff": None, "ci": [None, None], "p": None, "n": 0}
    mean = m.mean
    se = m.sd / math.sqrt(n) if n > 1 else 0.0
    if se == 0:
        p = 1.0 if mean == 0 else 0.0
    else:
        p = normal_p(mean / se)
    return {"diff": mean, "ci": [mean - Z95 * se, mean + Z95 * se], "p": p, "n": n}


def _paired_diff(x: np.ndarray, y: np.ndarray) -> dict:
    """Mean of y - x over paired games, normal interval, two-sided z-test."""
    return _paired_result(Moments.of(y - x))


class _Paired:
    """`paired_vs_first`, window by window: a window holds every variant's
    games of the same game indices, so each pair is complete in one window."""

    METRICS = (("win_rate", "won"), ("length_mean", "length"))

    def __init__(self, variant_names: list[str], length_col: str = "decisions"):
        self.names = list(variant_names)
        self.length_col = length_col
        self.seen = False
        self.acc = {name: {"n_pairs": 0, **{m: Moments() for m, _ in self.METRICS}} for name in self.names[1:]}

    def add(self, res: pl.DataFrame) -> None:
        if len(self.names) < 2 or res.is_empty():
            return
        self.seen = True
        length_col = self.length_col
        r = res.select("variant", "game_index", pl.col("won").cast(pl.Float64),
                       pl.col(length_col).cast(pl.Float64).alias("length"))
        base = r.filter(pl.col("variant") == self.names[0]).drop("variant")
        for name in self.names[1:]:
            both = base.join(r.filter(pl.col("variant") == name).drop("variant"), on="game_index", suffix="_b")
            acc = self.acc[name]
            acc["n_pairs"] += both.height
            for metric, col in self.METRICS:
                x = both[col].to_numpy()
                y = both[col + "_b"].to_numpy()
                ok = ~(np.isnan(x) | np.isnan(y))
                acc[metric].add(y[ok] - x[ok])

    def result(self) -> dict:
        out = {"baseline": self.names[0] if self.names else None, "method": "paired by game (same deals)",
               "correction": "Holm", "alpha": ALPHA, "comparisons": []}
        if len(self.names) < 2 or not self.seen:
            return out
        rows = []
        for name in self.names[1:]:
            acc = self.acc[name]
            rows.append({"variant": name, "n_pairs": acc["n_pairs"],
                         **{m: _paired_result(acc[m]) for m, _ in self.METRICS}})
        for metric, _ in self.METRICS:
            ps = [r[metric]["p"] if r[metric]["p"] is not None else 1.0 for r in rows]
            for r, rej in zip(rows, holm(ps, ALPHA)):
                r[metric]["significant"] = bool(rej)
        out["comparisons"] = rows
        return out


def paired_vs_first(games: pl.DataFrame, seats: pl.DataFrame, variant_names: list[str],
                    length_col: str = "decisions") -> dict:
    """Every point of a sweep against the first, game by game on the same deals
    (same game index = same deal): win rate and mean length, Holm-corrected over
    the points compared, per metric."""
    acc = _Paired(variant_names, length_col)
    if len(variant_names) >= 2 and not games.is_empty():
        acc.add(game_results(games, seats))
    return acc.result()


# ---------------------------------------------------------------- where the games come from
class _FrameSource:
    """Frames already in memory (summarize_frames): one window, the frames themselves."""

    def __init__(self, games: pl.DataFrame, seats: pl.DataFrame, cards: pl.DataFrame):
        self.games, self.seats, self._cards = games, seats, cards

    def variant_names(self) -> list[str]:
        return sorted(self.games["variant"].unique().to_list()) if not self.games.is_empty() else []

    def columns(self) -> tuple[list[str], list[str]]:
        return self.games.columns, self.seats.columns

    def windows(self):
        yield self.games, self.seats

    def feed(self, games, seats, spec, scopes) -> None:
        pass

    def game_metrics(self, spec, params: dict, variant: str | None) -> dict:
        g, s = self.games, self.seats
        if variant is not None:
            g, s = g.filter(pl.col("variant") == variant), s.filter(pl.col("variant") == variant)
        return spec.headline(g, s, params)

    def cards(self):
        return self._cards


def _code_strings(fn, depth: int = 0, seen: set | None = None) -> set[str]:
    """String constants of a function, its nested code, the constants and the
    same-package helper functions it names as globals."""
    seen = set() if seen is None else seen
    code = getattr(fn, "__code__", None)
    if code is None or id(code) in seen or depth > 3:
        return set()
    seen.add(id(code))
    out: set[str] = set()

    def consts(c):
        for k in c.co_consts:
            if isinstance(k, str):
                out.add(k)
            elif isinstance(k, (tuple, frozenset)):
                out.update(x for x in k if isinstance(x, str))
            elif hasattr(k, "co_consts"):
                consts(k)
                names.extend(k.co_names)

    names = list(code.co_names)
    consts(code)
    package = (getattr(fn, "__module__", "") or "").split(".")[0]
    glob = getattr(fn, "__globals__", {})
    for name in names:
        v = glob.get(name)
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, (tuple, list, frozenset)):
            out.update(x for x in v if isinstance(x, str))
        elif callable(v) and (getattr(v, "__module__", "") or "").split(".")[0] == package:
            out |= _code_strings(v, depth + 1, seen)
    return out


def _headline_columns(fn, available: list[str]) -> list[str]:
    """The columns a game's `headline` may read: those named by its string
    constants, or starting with one (f"snooze_r{r}"), plus `game_index` so the
    frame keeps its height. A superset is harmless; a miss is caught by the
    check on the first window (`_FolderSource.sample`)."""
    strings = _code_strings(fn)
    prefixes = [s for s in strings if len(s) >= 3 and s.isidentifier()]
    keep = {c for c in available if c in strings or any(c.startswith(p) for p in prefixes)} | {"game_index"}
    return [c for c in available if c in keep]


def _same(a, b) -> bool:
    return json.dumps(jsonable(a), sort_keys=True, default=str) == json.dumps(jsonable(b), sort_keys=True, default=str)


class _NotMergeable(Exception):
    pass


def _is_rate(d: dict) -> bool:
    return {"value", "ci", "n", "k"} <= d.keys()


def _is_mean(d: dict) -> bool:
    return {"value", "ci", "n"} <= d.keys() and "k" not in d


def _moments_of(d: dict) -> Moments:
    """Back from `mean_ci`'s dict to n, mean and M2 (the interval holds the sd)."""
    n = int(d["n"])
    if n == 0 or d["value"] is None:
        return Moments()
    if n == 1:
        return Moments(1, d["value"], 0.0)
    sd = (d["ci"][1] - d["value"]) / Z95 * math.sqrt(n)
    return Moments(n, d["value"], sd * sd * (n - 1))


def _merge_keys(a: dict, b: dict, skip=()) -> dict:
    out = {}
    for k in list(a) + [k for k in b if k not in a]:
        if k in skip:
            continue
        out[k] = _merge(a[k], b[k]) if k in a and k in b else (a[k] if k in a else b[k])
    return out


def _merge(a, b):
    """Merge the game headline of two disjoint sets of games, by the shapes
    analysis.stats gives them: a `rate` (k, n) by its counts, a `mean_ci` by
    its moments, an int (a count) by its sum, dicts key by key; anything else
    must be the same on both sides, or it is not mergeable."""
    if isinstance(a, dict) and isinstance(b, dict):
        if _is_rate(a) and _is_rate(b):
            return {**_merge_keys(a, b, ("value", "ci", "n", "k")), **rate(a["k"] + b["k"], a["n"] + b["n"])}
        if _is_mean(a) and _is_mean(b):
            return {**_merge_keys(a, b, ("value", "ci", "n")), **_moments_of(a).merge(_moments_of(b)).ci()}
        return _merge_keys(a, b)
    if isinstance(a, (int, np.integer)) and isinstance(b, (int, np.integer)) \
            and not isinstance(a, (bool, np.bool_)) and not isinstance(b, (bool, np.bool_)):
        return int(a) + int(b)
    if _close(a, b, 0.0):
        return a
    raise _NotMergeable


def _close(a, b, rel: float = 1e-9) -> bool:
    """Same structure, numbers equal to `rel` (NaN equals NaN)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k], rel) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_close(x, y, rel) for x, y in zip(a, b))
    if isinstance(a, (bool, np.bool_)) or isinstance(b, (bool, np.bool_)):
        return a == b
    if isinstance(a, (int, float, np.number)) and isinstance(b, (int, float, np.number)):
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b or abs(a - b) <= rel * max(abs(a), abs(b))
    return a == b


def _sorted_tables(x):
    """Count tables keyed by numbers ("0", "1", ...) in numeric order, as one call over all rows orders them."""
    if isinstance(x, dict):
        out = {k: _sorted_tables(v) for k, v in x.items()}
        try:
            keys = sorted(out, key=float)
        except (TypeError, ValueError):
            return out
        return {k: out[k] for k in keys}
    return x


class _StreamedHeadline:
    """A game's headline (one scope: the run, or one variant) computed window
    by window and merged (`_merge`). The merge is checked once, on the first
    two windows, against one call over both; a headline that does not merge
    (a mean of means, a max, a share of a float total, ...) falls back to one
    call over the whole run."""

    def __init__(self):
        self.state = None
        self.windows = 0
        self.first = None  # the first window, kept until the check
        self.failed = False

    def add(self, headline, games: pl.DataFrame, seats: pl.DataFrame, params: dict) -> None:
        if self.failed or not games.height:
            return
        try:
            h = headline(games, seats, params)
            if self.windows == 0:
                self.state, self.first = h, (games, seats)
            else:
                merged = _merge(self.state, h)
                if self.first is not None:
                    g0, s0 = self.first
                    both = headline(pl.concat([g0, games], how="vertical_relaxed"),
                                    pl.concat([s0, seats], how="vertical_relaxed"), params)
                    if not _close(jsonable(merged), jsonable(both)):
                        raise _NotMergeable
                    self.first = None
                self.state = merged
            self.windows += 1
        except Exception:  # noqa: BLE001 - not mergeable, or not on a part of the games: one call at the end
            self.failed, self.state, self.first = True, None, None

    def result(self):
        if self.failed or self.windows == 0:
            return None
        return self.state if self.windows == 1 else _sorted_tables(self.state)


class _FolderSource:
    """A run folder read with bounded memory: windows of game indices for the
    accumulators, lazy scans for the cards, and for the game's own headline
    (which takes whole frames) only the columns it reads."""

    def __init__(self, run_dir: Path, spec):
        from .frames import GAME_BASE, SEAT_BASE, _spec_schema

        self.run_dir = Path(run_dir)
        self.spec = spec
        self.files = {k: part_files(self.run_dir, k) for k in ("games", "seats", "cards")}
        self.schema = {
            "games": (scan_parts(self.files["games"]).collect_schema() if self.files["games"]
                      else pl.Schema(_spec_schema(GAME_BASE, spec.game_columns))),
            "seats": (scan_parts(self.files["seats"]).collect_schema() if self.files["seats"]
                      else pl.Schema(_spec_schema(SEAT_BASE, spec.seat_columns))),
        }
        self.n_variants = 1
        self.headline_cols: dict[str, list[str]] | None = None
        self.streams: dict[str | None, _StreamedHeadline] = {}

    def variant_names(self) -> list[str]:
        if not self.files["games"]:
            return []
        names = (scan_parts(self.files["games"], ["variant"]).unique()
                 .collect(engine="streaming")["variant"].to_list())
        self.n_variants = max(1, len(names))
        return sorted(names)

    def columns(self) -> tuple[list[str], list[str]]:
        return self.schema["games"].names(), self.schema["seats"].names()

    def windows(self):
        width = max(1_000, WINDOW_GAMES // self.n_variants)
        yield from windows(self.run_dir, width, games_schema=self.schema["games"], seats_schema=self.schema["seats"])

    def feed(self, games: pl.DataFrame, seats: pl.DataFrame, spec, scopes: dict) -> None:
        """One window for the game's own headline, per scope (None: the run;
        else a variant name -> its params). On the first window, pick the
        columns the headline reads and check that it gives the same result on
        them as on every column."""
        if spec.headline is None or not games.height:
            return
        if self.headline_cols is None:
            g_all, s_all = self.columns()
            cols = {"games": _headline_columns(spec.headline, g_all), "seats": _headline_columns(spec.headline, s_all)}
            try:
                ok = _same(spec.headline(games, seats, scopes[None]),
                           spec.headline(games.select([c for c in cols["games"] if c in games.columns]),
                                         seats.select([c for c in cols["seats"] if c in seats.columns]), scopes[None]))
            except Exception:  # noqa: BLE001 - a miss in the pruned frames: read every column
                ok = False
            self.headline_cols = cols if ok else {"games": g_all, "seats": s_all}
        g = games.select([c for c in self.headline_cols["games"] if c in games.columns])
        s = seats.select([c for c in self.headline_cols["seats"] if c in seats.columns])
        for scope, params in scopes.items():
            stream = self.streams.setdefault(scope, _StreamedHeadline())
            if scope is None:
                stream.add(spec.headline, g, s, params)
            else:
                stream.add(spec.headline, games.filter(pl.col("variant") == scope).select(g.columns),
                           seats.filter(pl.col("variant") == scope).select(s.columns), params)

    def _frame(self, kind: str, columns: list[str], variant: str | None) -> pl.DataFrame:
        lf = scan_parts(self.files[kind])
        if lf is None:
            return pl.DataFrame(schema={c: self.schema[kind][c] for c in columns})
        if variant is not None:
            lf = lf.filter(pl.col("variant") == variant)
        return lf.select([c for c in self.schema[kind].names() if c in set(columns)]).collect()

    def game_metrics(self, spec, params: dict, variant: str | None) -> dict:
        stream = self.streams.get(variant)
        merged = stream.result() if stream is not None else None
        if merged is not None:
            return merged
        cols = self.headline_cols or {"games": self.schema["games"].names(), "seats": self.schema["seats"].names()}
        g = self._frame("games", cols["games"], variant)
        s = self._frame("seats", cols["seats"], variant)
        return spec.headline(g, s, params)

    def cards(self):
        return scan_parts(self.files["cards"])


# ---------------------------------------------------------------- the run
def _summarize(source, manifest: dict, spec) -> dict:
    config = manifest.get("config", {})
    params = dict(config.get("params") or {})
    variant_names = source.variant_names()
    declared = [v.get("name") for v in config.get("variants", []) or []]
    variant_names = [v for v in declared if v in variant_names] + [v for v in variant_names if v not in declared]
    n_requested_each = manifest.get("n_games")
    n_variants = max(1, len(variant_names), len(declared))

    game_cols, seat_cols = source.columns()
    pooled = Block(spec, game_cols, seat_cols)
    several = len(variant_names) > 1
    blocks = {name: Block(spec, game_cols, seat_cols) for name in variant_names} if several else {}
    levels = _LevelLadder()
    paired = _Paired(variant_names, spec.length_column)
    vparams = _variant_params(manifest)
    scopes = {None: params, **({name: vparams.get(name, params) for name in variant_names} if several else {})}
    # the game's own metrics, declared in its spec (simcore.metrics), one accumulator per scope
    declared_metrics = {scope: GameMetrics(spec, p, config.get("players")) for scope, p in scopes.items()} \
        if spec.metrics else None
    max_seat = -1
    for games, seats in source.windows():
        res = game_results(games, seats)
        pooled.add(res, seats)
        if "level" in spec.setting_columns and "level" in game_cols:
            levels.add(res)
        if not seats.is_empty():
            max_seat = max(max_seat, int(seats["seat"].max()))
        for name, block in blocks.items():
            block.add(res.filter(pl.col("variant") == name), seats.filter(pl.col("variant") == name))
        if several:
            paired.add(res)
        if declared_metrics is not None:
            for scope, acc in declared_metrics.items():
                if scope is None:
                    acc.add(games, seats)
                else:
                    acc.add(games.filter(pl.col("variant") == scope), seats.filter(pl.col("variant") == scope))
        else:
            source.feed(games, seats, spec, scopes)
        del games, seats, res

    players = config.get("players")
    if players is None and max_seat >= 0:
        players = max_seat + 1
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
    summary.update(pooled.result())
    if declared_metrics is not None:
        for acc in declared_metrics.values():
            acc.players = players
        if pooled.n:
            summary["game_metrics"] = declared_metrics[None].result()
    elif spec.headline is not None and pooled.n:
        summary["game_metrics"] = source.game_metrics(spec, params, None)
    summary["complete"] = summary["n_requested"] is None or summary["n_games"] >= summary["n_requested"]
    summary["length_unit"] = summary["length"]["column"]

    summary["cards"] = card_impact.cards_to_dict(source.cards(), spec.card_counters)

    variants = []
    if several:
        varied = _variant_varied(manifest)
        summary["pooled_over_variants"] = True
        for name in variant_names:
            p = vparams.get(name, params)
            block = blocks[name].result()
            if declared_metrics is not None:
                if blocks[name].n:
                    block["game_metrics"] = declared_metrics[name].result()
            elif spec.headline is not None and blocks[name].n:
                block["game_metrics"] = source.game_metrics(spec, p, name)
            variants.append({"name": name, "params": p, "varied": varied.get(name, {}),
                             "n_requested": n_requested_each, **block})
        summary["variants"] = variants
        summary["paired_vs_first"] = paired.result()
    summary["ladder"] = ladder(pl.DataFrame(), pl.DataFrame(), variants, levels)
    summary["generated"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return jsonable(summary)


def summarize_frames(games: pl.DataFrame, seats: pl.DataFrame, cards: pl.DataFrame, manifest: dict, spec) -> dict:
    """The summary of a run from its frames and manifest (pure; writes nothing)."""
    return _summarize(_FrameSource(games, seats, cards), manifest, spec)


def summarize(run_dir: str | Path, spec) -> dict:
    """Read a run folder and summarise it (writes nothing), a window of games
    at a time: memory does not grow with the number of games (module docstring)."""
    return _summarize(_FolderSource(Path(run_dir), spec), load_manifest(run_dir), spec)


def write_summary(run_dir: str | Path, spec) -> Path:
    """Write `summary.json` into the run folder and return its path."""
    path = Path(run_dir) / SUMMARY_FILE
    data = summarize(run_dir, spec)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1, allow_nan=False), encoding="utf-8")
    tmp.replace(path)
    return path
