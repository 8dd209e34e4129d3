"""summary.json's headline fields of one set of games (a whole run, one
variant of a sweep), accumulated window by window: `Block` (counts, moments
and value-count tables only, so memory stays flat), its value-count and mean
accumulators, the seats' fields (`seat_fields`) and `game_results`, the games
with a `won` column every summary reads. Split from analysis.summary, which
feeds the windows and assembles summary.json.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from .distributions import distribution_counts
from .stats import (
    ALPHA,
    DEFAULT_MARGIN,
    Moments,
    WinPatterns,
    margin_verdict,
    mean_difference,
    rate,
    seat_balance,
)

ID_COLUMNS = {"variant", "game_index", "seed", "chunk", "id"}


def _is_id_column(name: str) -> bool:
    return name in ID_COLUMNS or name.endswith("_id") or name.endswith("_index")


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


class _MeanAcc:
    """Mean with interval of a declared column, chunk by chunk. Where the column's
    help documents -1 as "never"/"not applicable" (the house sentinel), those rows
    are left out. Missing values (null or NaN, e.g. a per-round column of a round
    the game never reached) are left out too: `n` counts the values present and
    `missing` the others."""

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
    """summary.json's seat fields (`seat_gap`, `fair_share`, `shared_wins`) from `stats.seat_balance`."""
    gap, test = balance["gap"], balance["test"]
    out = {"seat_gap": {
        "value": gap["value"], "ci": gap["ci"], "best_seat": gap["best_seat"], "worst_seat": gap["worst_seat"],
        "test": test["name"], "p": test["p"], "family_size": test["family_size"], "pair_ci_level": test["ci_level"],
        "significant": balance["significant"], "n": n, "ci_method": gap["ci_method"], "pairs": balance["pairs"],
        "informative": balance["informative"], "no_information": balance["no_information"],
        "verdict": balance["verdict"],
    }}
    k = len(balance["seats"])
    out["fair_share"] = balance["fair_share"]  # analysis.stats.fair_share: what every seat would win if seats were equal
    shared = balance.get("shared")
    if shared is not None:
        out["shared_wins"] = {**shared, "words": shared_words(shared, k)}
    return out
