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
The game's own metrics are declared in its spec (`simcore.metrics`) and
computed the same way (`analysis.metrics.GameMetrics`: rates by counts,
means by moments, distributions by value counts), so memory stays flat for
every game. docs/run-folder.md, "Reading a run".
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
from .jsonsafe import jsonable  # noqa: F401  (summary.jsonable: compare, skill check and others use it)
from .stats import (
    ALPHA,
    DEFAULT_MARGIN,
    Moments,
    WinPatterns,
    family_level,
    margin_verdict,
    mean_difference,
    paired_binary,
    rate,
    seat_balance,
)

STOPPING_FILE = "stopping.json"
ROTATION_KEY = "seat_rotation"  # a variant's `varied` entry in a seat-rotated run (analysis.runs)
SUMMARY_FILE = "summary.json"
CHECK_KIND = "skill-check"  # the manifest kind of a run's skill check (analysis.skill_check)
ID_COLUMNS = {"variant", "game_index", "seed", "chunk", "id"}
WINDOW_GAMES = 50_000  # game indices read at a time from a run folder, over all variants together


# ---------------------------------------------------------------- helpers



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
    """`column_mean`, chunk by chunk. Missing values (null or NaN, e.g. a
    per-round column of a round the game never reached) are left out: `n`
    counts the values present and `missing` the others."""

    def __init__(self, column):
        self.column = column
        self.moments = Moments()
        self.excluded = 0
        self.missing = 0

    def add(self, frame: pl.DataFrame) -> None:
        if frame.height and self.column.name in frame.columns:
            self.missing += int(frame[self.column.name].null_count())
        x = _column_values(frame, self.column.name)
        nan = np.isnan(x)
        if nan.any():
            self.missing += int(nan.sum())
            x = x[~nan]
        if _sentinel(self.column):
            drop = x == -1
            self.excluded += int(drop.sum())
            x = x[~drop]
        self.moments.add(x)

    def result(self) -> dict:
        m = self.moments.ci()
        out = {"excluded_sentinel": self.excluded} if _sentinel(self.column) else {}
        return {"mean": m["value"], "ci": m["ci"], "n": m["n"], "missing": self.missing, "help": self.column.help, **out}


# ---------------------------------------------------------------- one block of games
def _win_codes(seats: pl.DataFrame, keys=("variant", "game_index")) -> pl.DataFrame:
    """One row per game: `code` = the sum of 2**seat over the seats that won
    (the game's winner vector as a number; a shared win is one code)."""
    return seats.group_by(list(keys)).agg(
        (pl.col("won").cast(pl.Int64).clip(0, 1) * pl.lit(2, pl.Int64).pow(pl.col("seat").cast(pl.Int64)))
        .sum().alias("code"))


def _decode(codes, base: int, k: int) -> np.ndarray:
    """Codes (digits of `base`, seat 0 lowest) back to vectors of k digits."""
    c = np.asarray(codes, dtype=np.int64)
    return np.stack([(c // base ** s) % base for s in range(k)], axis=1) if c.size else np.zeros((0, k), np.int64)


def shared_words(shared: dict, n_seats: int) -> str | None:
    """Why seat win rates may add to more than the share of games someone wins."""
    k = shared.get("games_with_shared_wins", 0)
    if not k:
        return None
    total = shared["seat_rates_sum"]
    return (f"{fmt_share(shared['shared_rate']['value'])} of games have more than one winner (a shared win counts "
            f"for every seat that shares it), so the seats' win rates add to {fmt_share(total)}; the equal-seats "
            f"line is their mean, {fmt_share(total / n_seats)}, not a {n_seats}-way split of the games.")


def fmt_share(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


class Block:
    """The headline fields of one set of games (a whole run or one variant),
    accumulated window by window: `add` a (games with `won`, seats) pair per
    window, then `result`. Holds counts, moments and value-count tables only
    (the seats as a table of winner vectors, `stats.WinPatterns`)."""

    def __init__(self, spec, game_columns, seat_columns, margin: float = DEFAULT_MARGIN):
        self.spec = spec
        self.margin = margin
        game_columns, seat_columns = list(game_columns), list(seat_columns)
        self.helps = {c.name: c.help for c in spec.game_columns}
        self.length_col = spec.length_column  # declared in the spec, not guessed from names
        self.rounds_col = spec.rounds_column
        self.has_rounds = self.rounds_col is not None
        self.first_col = spec.first_seat_column if spec.first_seat_column in game_columns else None
        self.n = self.k = 0
        self.seats: dict[int, list] = {}  # seat -> [wins, seat-games, policies]
        self.codes: dict[int, int] = {}  # winner vector (as a code) -> games
        self.first = [0, 0, 0, 0]  # wins and seat-games of the first mover, of the others
        self.first_diff = Moments()  # per game: first mover's win minus the others' mean
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
            for code, c in _win_codes(seats)["code"].value_counts().iter_rows():
                self.codes[int(code)] = self.codes.get(int(code), 0) + int(c)
            if self.first_col and not self.spec.cooperative and n:
                s = seats.join(res.select("variant", "game_index", self.first_col), on=["variant", "game_index"])
                is_first = pl.col("seat").cast(pl.Int64) == pl.col(self.first_col).cast(pl.Int64)
                f = s.filter(is_first)
                o = s.filter(~is_first)
                self.first[0] += int(f["won"].cast(pl.Int64).sum())
                self.first[1] += f.height
                self.first[2] += int(o["won"].cast(pl.Int64).sum())
                self.first[3] += o.height
                won = pl.col("won").cast(pl.Float64)
                per_game = (s.group_by("variant", "game_index")
                            .agg(won.filter(is_first).sum().alias("f"), is_first.sum().alias("nf"),
                                 won.filter(~is_first).mean().alias("o"))
                            .filter((pl.col("nf") == 1) & pl.col("o").is_not_null()))
                self.first_diff.add((per_game["f"] - per_game["o"]).to_numpy())
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

    def patterns(self) -> WinPatterns:
        k = max(self.seats) + 1 if self.seats else 0
        wp = WinPatterns(k)
        if self.codes and k:
            codes = sorted(self.codes)
            wp.add(_decode(codes, 2, k), [self.codes[c] for c in codes])
        return wp

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
            balance = seat_balance(self.patterns(), ALPHA, self.margin)
            if balance is not None:
                out.update(seat_fields(balance, n))
            out["everybody_loses"] = rate(n - k, n)

        kf, nf, ko, no = self.first
        if nf and no:
            d = mean_difference(self.first_diff, bounds=(-1.0, 1.0))  # a win (0/1) minus a mean of wins
            out["first_player"] = {"first": rate(kf, nf), "others": rate(ko, no),
                                   "advantage": d["diff"], "ci": d["ci"], "p": d["p"], "n": d["n"],
                                   "significant": d["p"] is not None and d["p"] < ALPHA,
                                   "method": "paired within each game: the first mover's win minus the mean of the "
                                             "other seats' (t interval over games)",
                                   "verdict": margin_verdict(d["diff"], d["ci"], self.margin, n=d["n"],
                                                             no_information=d.get("no_information"))}

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


def seat_fields(balance: dict, n: int) -> dict:
    """summary.json's seat fields (`seat_gap`, `seat_fair_share`, `shared_wins`) from `stats.seat_balance`."""
    gap, test = balance["gap"], balance["test"]
    out = {"seat_gap": {
        "value": gap["value"], "ci": gap["ci"], "best_seat": gap["best_seat"], "worst_seat": gap["worst_seat"],
        "test": test["name"], "p": test["p"], "family_size": test["family_size"], "pair_ci_level": test["ci_level"],
        "significant": balance["significant"], "n": n, "ci_method": gap["ci_method"], "pairs": balance["pairs"],
        "informative": balance["informative"], "no_information": balance["no_information"],
        "verdict": balance["verdict"],
    }}
    k = len(balance["seats"])
    out["seat_fair_share"] = {"value": balance["fair_share"],
                              "help": "the win rate every seat would have if seats were equal: the mean of the "
                                      "seats' win rates"}
    shared = balance.get("shared")
    if shared is not None:
        out["shared_wins"] = {**shared, "words": shared_words(shared, k)}
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
class _Paired:
    """`paired_vs_first`, window by window: a window holds every variant's
    games of the same game indices, so each pair is complete in one window.
    The win rate as a paired 2x2 table (exact McNemar), the length as moments
    of the per-game differences."""

    METRICS = (("win_rate", "won"), ("length_mean", "length"))

    def __init__(self, variant_names: list[str], length_col: str = "decisions"):
        self.names = list(variant_names)
        self.length_col = length_col
        self.seen = False
        self.acc = {name: {"n_pairs": 0, "table": [0, 0, 0, 0], "length_mean": Moments()} for name in self.names[1:]}

    def add(self, res: pl.DataFrame) -> None:
        if len(self.names) < 2 or res.is_empty():
            return
        self.seen = True
        length_col = self.length_col
        r = res.select("variant", "game_index", pl.col("won").cast(pl.Int64),
                       pl.col(length_col).cast(pl.Float64).alias("length"))
        base = r.filter(pl.col("variant") == self.names[0]).drop("variant")
        for name in self.names[1:]:
            both = base.join(r.filter(pl.col("variant") == name).drop("variant"), on="game_index", suffix="_b")
            acc = self.acc[name]
            acc["n_pairs"] += both.height
            x, y = both["won"].to_numpy() > 0, both["won_b"].to_numpy() > 0
            for i, cell in enumerate((x & y, x & ~y, ~x & y, ~x & ~y)):  # a, b (A only), c (B only), d
                acc["table"][i] += int(cell.sum())
            x, y = both["length"].to_numpy(), both["length_b"].to_numpy()
            ok = ~(np.isnan(x) | np.isnan(y))
            acc["length_mean"].add(y[ok] - x[ok])

    def result(self, margin: float = DEFAULT_MARGIN, base_length: float | None = None) -> dict:
        m = max(1, len(self.names) - 1)
        level = family_level(ALPHA, m)
        out = {"baseline": self.names[0] if self.names else None, "method": "paired by game (same seeds)",
               "correction": "Bonferroni", "alpha": ALPHA, "ci_level": level, "family_size": m, "margin": margin,
               "comparisons": []}
        if len(self.names) < 2 or not self.seen:
            return out
        rows = []
        length_margin = margin * abs(base_length) if base_length else None
        for name in self.names[1:]:
            acc = self.acc[name]
            w = paired_binary(*acc["table"], level=level)
            w95 = paired_binary(*acc["table"], level=0.95)
            ln = mean_difference(acc["length_mean"], level)
            row = {"variant": name, "n_pairs": acc["n_pairs"]}
            for key, r, mg in (("win_rate", w, margin), ("length_mean", ln, length_margin)):
                p_adj = None if r["p"] is None else min(1.0, m * r["p"])
                row[key] = {**r, "p_adjusted": p_adj, "ci_level": level,
                            "significant": bool(p_adj is not None and p_adj <= ALPHA)}
                if mg is not None:
                    row[key]["verdict"] = margin_verdict(r["diff"], r["ci"], mg, n=r["n"],
                                                         no_information=r.get("no_information"))
            row["win_rate"]["ci_95"] = w95["ci"]
            row["length_mean"]["margin_kind"] = "relative: the margin times the first point's mean length"
            rows.append(row)
        out["comparisons"] = rows
        return out


def paired_vs_first(games: pl.DataFrame, seats: pl.DataFrame, variant_names: list[str],
                    length_col: str = "decisions") -> dict:
    """Every point of a sweep against the first, game by game on the same seeds
    (same game index = same random streams): win rate and mean length, each
    metric's intervals at 1 - alpha/m over the m points compared (Bonferroni),
    the verdicts read from them."""
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

    def cards(self):
        return self._cards


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

    def cards(self):
        return scan_parts(self.files["cards"])


class _Rotations:
    """A seat-rotated run (`balance simulate --rotate-seats`, analysis.runs):
    every deal played k times, rotation r seating the policy listed for seat j
    at seat (j + r) mod k. Per deal, each seat's wins summed over its k replays
    (so a deal is one outcome and every policy sat at every seat once), and
    the same per policy. Deals missing a replay (an unfinished run) are left
    out and counted."""

    def __init__(self, rotation: dict[str, int], k: int):
        self.rotation, self.k = dict(rotation), int(k)
        self.seat = WinPatterns(self.k, reps=self.k)
        self.policy = WinPatterns(self.k, reps=self.k)
        self.incomplete = 0

    def add(self, seats: pl.DataFrame) -> None:
        if seats.is_empty():
            return
        k, base = self.k, self.k + 1
        r = (seats.filter(pl.col("variant").is_in(list(self.rotation)))
             .select("game_index", pl.col("seat").cast(pl.Int64), pl.col("won").cast(pl.Int64).clip(0, 1),
                     pl.col("variant").replace_strict(self.rotation, return_dtype=pl.Int64).alias("rot")))
        full = r.group_by("game_index").agg(pl.col("rot").n_unique().alias("m"))
        self.incomplete += int((full["m"] < k).sum())
        r = r.join(full.filter(pl.col("m") == k).select("game_index"), on="game_index")
        r = r.with_columns(((pl.col("seat") - pl.col("rot") + k) % k).alias("slot"))
        for key, acc in (("seat", self.seat), ("slot", self.policy)):
            per = r.group_by("game_index", key).agg(pl.col("won").sum().alias("c"))
            code = per.group_by("game_index").agg(
                (pl.col("c") * pl.lit(base, pl.Int64).pow(pl.col(key))).sum().alias("code"))
            vc = code["code"].value_counts()
            acc.add(_decode(vc["code"].to_numpy(), base, k), vc["count"].to_numpy())

    def result(self, policy_names: list[str], margin: float) -> dict:
        seats = seat_balance(self.seat, ALPHA, margin)
        policies = seat_balance(self.policy, ALPHA, margin, what="policy")
        if policies is not None:
            for row in policies["seats"]:
                row["policy"] = policy_names[row["seat"]] if row["seat"] < len(policy_names) else "?"
                row["listed_seat"] = row.pop("seat")
        return {"rotations": self.k, "deals": self.seat.n, "incomplete_deals": self.incomplete,
                "how": f"each deal played {self.k} times, the policies moved one seat on each time, so every "
                       f"policy sat at every seat on the same deal; a seat's rate is over all {self.k} replays, "
                       f"one outcome per deal",
                "seats": seats, "policies": policies, "policy_names": policy_names}


def _rotations(manifest: dict) -> dict[str, int] | None:
    """variant name -> seat rotation, when the run is one configuration played seat-rotated."""
    vs = manifest.get("config", {}).get("variants") or []
    if len(vs) < 2 or not all(ROTATION_KEY in (v.get("varied") or {}) for v in vs):
        return None
    return {v.get("name"): int(v["varied"][ROTATION_KEY]) for v in vs}


def read_stopping(run_dir: str | Path) -> dict | None:
    """stopping.json (written by a --precision run), or None."""
    path = Path(run_dir) / STOPPING_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _completion(n_games: int, n_requested, name: str | None, stopping: dict | None, manifest_n) -> tuple[bool, str | None]:
    """Is this set of games complete, and what stopped it: "n_games" (every
    requested game played) or "precision" (a --precision run stopped early
    because every win-rate interval was narrow enough)."""
    if n_requested is None:
        return True, None
    if n_games >= n_requested:
        return True, "n_games"
    if stopping and stopping.get("max_games") == manifest_n:
        rows = {r.get("name"): r for r in stopping.get("variants") or []}
        row = rows.get(name) if name is not None else (next(iter(rows.values())) if len(rows) == 1 else None)
        if row and row.get("reached") and n_games >= int(row.get("games", n_games + 1)):  # more games: as precise
            return True, "precision"
    return False, None


def _item(kind: str, question: str, metric: str, r: dict, verdict: dict, variant: str | None = None,
          ci_level: float = 0.95, n=None, **who) -> dict:
    """One verdict of the run; `who` names what it is about (best_seat/worst_seat for the seats, best/worst
    policy for a rotated run's policies, baseline for a sweep point), so a report can say it in a sentence."""
    return {"id": kind, "variant": variant, "question": question, "metric": metric,
            "estimate": r.get("diff", r.get("value", r.get("advantage"))), "ci": r.get("ci"), "ci_level": ci_level,
            "n": n if n is not None else r.get("n"), "p": r.get("p"), **who, **verdict}


def verdicts(summary: dict, margin: float) -> dict:
    """The verdict block of summary.json: every seat and comparison verdict of
    the run with its margin, interval and n (stats.margin_verdict)."""
    items = []

    def seat_item(block: dict, variant: str | None) -> None:
        g = block.get("seat_gap")
        if g and g.get("verdict"):
            items.append(_item("seats", "Are the seats balanced?", "seat gap (best minus worst seat's win rate)",
                               g, g["verdict"], variant, n=g.get("n"), best_seat=g.get("best_seat"),
                               worst_seat=g.get("worst_seat")))

    def first_item(block: dict, variant: str | None) -> None:
        f = block.get("first_player")
        if f and f.get("verdict"):
            items.append(_item("first_player", "Does moving first matter?",
                               "first mover's win rate minus the other seats'", f, f["verdict"], variant))

    if summary.get("variants"):
        for c in (summary.get("paired_vs_first") or {}).get("comparisons") or []:
            w = c["win_rate"]
            if w.get("verdict"):
                items.append(_item("vs_first", f"Does {c['variant']} change the win rate?",
                                   f"win rate, {c['variant']} minus {summary['paired_vs_first']['baseline']}", w,
                                   w["verdict"], c["variant"], w.get("ci_level", 0.95), n=c["n_pairs"],
                                   baseline=summary["paired_vs_first"]["baseline"]))
        for v in summary["variants"]:
            seat_item(v, v["name"])
            first_item(v, v["name"])
    else:
        seat_item(summary, None)
        first_item(summary, None)
        pol = (summary.get("seat_rotation") or {}).get("policies")
        if pol and pol.get("verdict"):  # a seat-rotated run: each policy over every seat, on the same deals
            g = pol["gap"]
            names = {r.get("listed_seat"): r.get("policy") for r in pol.get("seats") or []}
            items.append(_item("policies", "Are the policies equally strong?",
                               "policy gap (strongest minus weakest policy's win rate, each over every seat)",
                               {**g, "p": pol["test"]["p"]}, pol["verdict"], None, n=pol["n"],
                               best=names.get(g.get("best_seat")), worst=names.get(g.get("worst_seat"))))
    counts: dict[str, int] = {}
    for it in items:
        counts[it["verdict"]] = counts.get(it["verdict"], 0) + 1
    return {"margin": margin, "alpha": ALPHA, "margin_kind": "absolute, in win-rate points (0.02 = 2 points)",
            "items": items, "counts": counts}


# ---------------------------------------------------------------- alerts
def nameable(ci, margin: float) -> bool:
    """May a report name a card (or anything) on this figure? Only when its interval pins it down to
    within ± the margin (the interval narrower than twice the margin): a card played 17 times, whose
    lift is known to ±20 points, is not named in a headline or an alert, whatever its estimate."""
    lo, hi = (ci or [None, None])[:2]
    return lo is not None and hi is not None and hi - lo < 2 * margin


MAX_ALERT_CARDS = 3


def headline(block: dict, margin: float) -> dict | None:
    """The headline win rate against the margin, for a game with no seats to set against each other
    (solo, co-op): measured to within ± the margin (its 95% interval narrower than twice the margin), or
    not yet, with about how many games in all would get it there (the half-width shrinks as 1/sqrt(n))."""
    n = block.get("n_games") or 0
    lo, hi = (block.get("win_rate_ci") or [None, None])[:2]
    if not n or lo is None or hi is None:
        return None
    half = (hi - lo) / 2
    ok = half < margin
    return {"metric": "win rate", "value": block.get("win_rate"), "ci": [lo, hi], "n": n, "half_width": half,
            "margin": margin, "verdict": "measured" if ok else "imprecise",
            "games_for_margin": None if ok else int(math.ceil(n * (half / margin) ** 2)) + 1}


def alerts(block: dict, margin: float) -> list[dict]:
    """What a designer should look at first in one set of games (a run, or a sweep point), as data (the
    reports say it in words, reports/verdicts.py): games nobody wins, games stopped by the turn cap or
    with no legal move, dead cards, and cards whose lift lies beyond the margin (an association: the
    seat-games that played them win that much more or less), named only when `nameable`."""
    out = []
    n = block.get("n_games") or 0
    if not n:
        return out
    lose = block.get("everybody_loses")
    if lose and lose.get("k"):
        out.append({"id": "nobody_wins", "k": lose["k"], "n": lose["n"], "value": lose["value"], "ci": lose["ci"]})
    capped = block.get("capped") or 0
    if capped:
        cr = block.get("capped_rate") or {}
        out.append({"id": "turn_cap", "k": capped, "n": n, "value": cr.get("value"), "ci": cr.get("ci"),
                    "cap": block.get("turn_cap")})
    no_move = (block.get("end_reasons") or {}).get("no_move")
    if no_move:
        out.append({"id": "no_move", "k": no_move, "n": n})
    c = block.get("cards") or {}
    if c.get("dead"):
        out.append({"id": "dead_cards", "counter": c.get("primary_counter"), "threshold": c.get("dead_threshold"),
                    "cards": [d["card"] for d in c["dead"]], "seat_games": c.get("seat_games")})
    strong = []
    for r in (c.get("top") or []) + (c.get("bottom") or []):
        lift = r.get("lift") or {}
        lo, hi = (lift.get("ci") or [None, None])[:2]
        if lo is None or not nameable(lift.get("ci"), margin) or not (lo > margin or hi < -margin):
            continue
        strong.append({"card": r["card"], "lift": lift["value"], "ci": lift["ci"],
                       "plays": (r.get("win_rate_with") or {}).get("n")})
    if strong:
        strong.sort(key=lambda r: -abs(r["lift"]))
        out.append({"id": "card_lift", "counter": c.get("primary_counter"), "comparison": c.get("comparison", "all"),
                    "margin": margin, "cards": strong[:MAX_ALERT_CARDS], "more": max(0, len(strong) - MAX_ALERT_CARDS)})
    return out


# ---------------------------------------------------------------- the run
def _summarize(source, manifest: dict, spec, margin: float = DEFAULT_MARGIN, stopping: dict | None = None) -> dict:
    config = manifest.get("config", {})
    params = dict(config.get("params") or {})
    variant_names = source.variant_names()
    declared = [v.get("name") for v in config.get("variants", []) or []]
    variant_names = [v for v in declared if v in variant_names] + [v for v in variant_names if v not in declared]
    n_requested_each = manifest.get("n_games")
    n_variants = max(1, len(variant_names), len(declared))
    rotation = _rotations(manifest)
    vparams = _variant_params(manifest)
    if rotation:  # one configuration: the headline is rotation 0 (as asked), the seats come from every rotation
        base = next(name for name, r in rotation.items() if r == 0)
        params = vparams.get(base, params)

    game_cols, seat_cols = source.columns()
    several = len(variant_names) > 1 and rotation is None
    pooled = Block(spec, game_cols, seat_cols, margin)
    blocks = {name: Block(spec, game_cols, seat_cols, margin) for name in variant_names} if several else {}
    levels = _LevelLadder()
    paired = _Paired(variant_names, spec.length_column)
    rot_acc = _Rotations(rotation, config.get("players") or 0) if rotation else None
    if rotation:
        scopes = {None: params, base: params}
    else:
        scopes = {None: params, **({name: vparams.get(name, params) for name in variant_names} if several else {})}
    # the game's own metrics, declared in its spec (simcore.metrics): one accumulator per scope
    # (None: the run, or rotation 0 of a seat-rotated run; else a variant of a sweep)
    game_metrics = {scope: GameMetrics(spec, p, config.get("players")) for scope, p in scopes.items()
                    if scope is None or several}
    max_seat = -1
    for games, seats in source.windows():
        res = game_results(games, seats)
        if not seats.is_empty():
            max_seat = max(max_seat, int(seats["seat"].max()))
        if several:
            for name, block in blocks.items():
                block.add(res.filter(pl.col("variant") == name), seats.filter(pl.col("variant") == name))
            paired.add(res)
            for name in blocks:
                game_metrics[name].add(games.filter(pl.col("variant") == name), seats.filter(pl.col("variant") == name))
        else:
            if rotation:
                rot_acc.add(seats)
                games, seats = games.filter(pl.col("variant") == base), seats.filter(pl.col("variant") == base)
                res = res.filter(pl.col("variant") == base)
            pooled.add(res, seats)
            if "level" in spec.setting_columns and "level" in game_cols:
                levels.add(res)
            game_metrics[None].add(games, seats)
        del games, seats, res

    players = config.get("players")
    if players is None and max_seat >= 0:
        players = max_seat + 1
    for acc in game_metrics.values():
        acc.players = players
    summary = {
        "game": config.get("game", spec.name),
        "title": spec.title,
        "kind": manifest.get("kind", "run"),
        "mode": config.get("mode"),
        "players": players,
        "cooperative": bool(spec.cooperative),
        "n_requested": (n_requested_each * (1 if rotation else n_variants)) if n_requested_each is not None else None,
        "seed": config.get("seed"),
        "policies": config.get("policies", []),
        "params": params,
        "rule_version": config.get("rule_version", spec.version),
        "card_list_hash": config.get("card_list_hash"),
        "margin": margin,
    }
    cards = source.cards()

    variants = []
    if several:
        # every number belongs to one rule set: no figure pools the points (they share their deals)
        varied = _variant_varied(manifest)
        summary["per_variant"] = True
        done = []
        for name in variant_names:
            p = vparams.get(name, params)
            block = blocks[name].result()
            if blocks[name].n and spec.metrics:
                block["game_metrics"] = game_metrics[name].result()
            complete, stopped_by = _completion(block["n_games"], n_requested_each, name, stopping, n_requested_each)
            done.append((complete, stopped_by))
            block["cards"] = card_impact.cards_to_dict(
                cards.filter(pl.col("variant") == name) if cards is not None else None, spec.card_counters)
            block["alerts"] = alerts(block, margin)
            block["headline"] = headline(block, margin)
            variants.append({"name": name, "params": p, "varied": varied.get(name, {}),
                             "n_requested": n_requested_each, "complete": complete, "stopped_by": stopped_by, **block})
        summary["variants"] = variants
        summary["n_games"] = int(sum(v["n_games"] for v in variants))
        summary["length_unit"] = variants[0]["length"]["column"]
        summary["complete"] = all(c for c, _ in done)
        summary["stopped_by"] = (("precision" if any(s == "precision" for _, s in done) else "n_games")
                                 if summary["complete"] and n_requested_each is not None else None)
        first = variants[0]
        summary["paired_vs_first"] = paired.result(margin, (first.get("length") or {}).get("mean"))
    else:
        summary.update(pooled.result())
        if pooled.n and spec.metrics:
            summary["game_metrics"] = game_metrics[None].result()
        if rotation:
            names = [p.get("name", "?") for p in config.get("policies", [])]
            names = names * (players // len(names)) if names and len(names) != players else names
            summary["seat_rotation"] = rot_acc.result(names, margin)
            rotated = summary["seat_rotation"]["seats"]
            if rotated is not None and not spec.cooperative:
                summary["seat_gap_unrotated"] = summary.get("seat_gap")
                summary["win_rate_by_seat"] = [{**r, "policy": "every policy in turn"} for r in rotated["seats"]]
                summary.update(seat_fields(rotated, rotated["n"]))
                summary["seat_gap"]["n_games_played"] = rotated["n"] * rotated["reps"]
            cards = cards.filter(pl.col("variant") == base) if cards is not None else None
        complete, stopped_by = _completion(summary["n_games"], summary["n_requested"], base if rotation else None,
                                           stopping, n_requested_each)
        if rotation:  # every rotation must be complete too
            complete = complete and summary["seat_rotation"]["incomplete_deals"] == 0
        summary["complete"], summary["stopped_by"] = complete, (stopped_by if complete else None)
        summary["length_unit"] = summary["length"]["column"]
        summary["cards"] = card_impact.cards_to_dict(cards, spec.card_counters)
        summary["alerts"] = alerts(summary, margin)
        summary["headline"] = headline(summary, margin)
    if stopping:
        summary["stopping"] = stopping
    summary["ladder"] = ladder(pl.DataFrame(), pl.DataFrame(), variants, levels)
    summary["verdicts"] = verdicts(summary, margin)
    summary["generated"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return jsonable(summary)


def summarize_frames(games: pl.DataFrame, seats: pl.DataFrame, cards: pl.DataFrame, manifest: dict, spec,
                     margin: float = DEFAULT_MARGIN, stopping: dict | None = None) -> dict:
    """The summary of a run from its frames and manifest (pure; writes nothing)."""
    return _summarize(_FrameSource(games, seats, cards), manifest, spec, margin, stopping)


def summarize(run_dir: str | Path, spec, margin: float = DEFAULT_MARGIN) -> dict:
    """Read a run folder and summarise it (writes nothing), a window of games
    at a time: memory does not grow with the number of games (module docstring)."""
    manifest = load_manifest(run_dir)
    out = _summarize(_FolderSource(Path(run_dir), spec), manifest, spec, margin, read_stopping(run_dir))
    if manifest.get("kind") != CHECK_KIND:  # a run, not its own skill check
        from . import skill_check

        from . import card_power

        if (Path(run_dir) / card_power.SUBFOLDER / "manifest.json").is_file():
            cp = card_power.analyse(Path(run_dir) / card_power.SUBFOLDER, spec, margin)
            if cp is not None:
                out["card_power"] = jsonable(cp)
        sub = (summarize(skill_check.folder(run_dir), spec, margin) if skill_check.has_check(Path(run_dir)) else None)
        out["skill_check"] = jsonable(skill_check.result(Path(run_dir), spec, out, sub, margin))
        if out["skill_check"].get("changes"):
            out.setdefault("alerts", []).append({"id": "skill_changes", "policy": out["skill_check"]["policy"],
                                                 "changes": out["skill_check"]["changes"]})
    return out


def write_summary(run_dir: str | Path, spec, margin: float | None = None) -> Path:
    """Write `summary.json` into the run folder and return its path. `margin`
    None: the margin of the summary already there (so `balance report` keeps
    the one the run was made with), else DEFAULT_MARGIN."""
    path = Path(run_dir) / SUMMARY_FILE
    if margin is None:
        try:
            margin = float(json.loads(path.read_text(encoding="utf-8")).get("margin", DEFAULT_MARGIN))
        except (OSError, ValueError, TypeError, AttributeError):
            margin = DEFAULT_MARGIN
    data = summarize(run_dir, spec, margin)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1, allow_nan=False), encoding="utf-8")
    tmp.replace(path)
    return path
