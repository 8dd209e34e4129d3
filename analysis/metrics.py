"""The game's declared metrics (`simcore.metrics`), computed window by window.

`GameMetrics(spec, params, players)` takes one window of games and seats at a
time (`add`) and keeps only mergeable sums: counts for rates and value
tables, `stats.Moments` for means. `result()` is summary.json's
`game_metrics`. Means agree with one pass over all rows to float rounding;
everything else is exact.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from balance.simcore import metrics as M

from .distributions import distribution_counts
from .stats import Moments, rate

KEYS = ["variant", "game_index"]


def needed_columns(spec) -> dict[str, set[str]]:
    """The columns the spec's metrics read, per table, for the summary's windows
    (seat metrics may read game columns: those are read from the games)."""
    games, seats = M.columns(spec.metrics, "games"), M.columns(spec.metrics, "seats")
    seat_names = set(spec.seat_column_names) | {"seat", "policy", "won", "score"} | set(KEYS)
    joined = {c[:-len("_game")] if c.endswith("_game") else c for c in seats - seat_names}
    return {"games": games | joined | set(KEYS), "seats": (seats & seat_names) | set(KEYS)}


class _Acc:
    def __init__(self, metric: M.Metric):
        self.m = metric

    def frame(self, games: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
        f = games if self.m.table == "games" else seats
        if self.m.where is not None and f.height:
            f = f.filter(self.m.where)
        return f

    def values(self, f: pl.DataFrame, expr: pl.Expr) -> np.ndarray:
        if not f.height:
            return np.zeros(0)
        x = f.select(expr.cast(pl.Float64).alias("_v"))["_v"].drop_nulls().to_numpy()
        return x[~np.isnan(x)]


class _Rate(_Acc):
    def __init__(self, m):
        super().__init__(m)
        self.k = self.n = 0.0

    def add(self, games, seats):
        f = self.frame(games, seats)
        if not f.height:
            return
        self.k += float(f.select(self.m.hits.cast(pl.Float64).sum())[0, 0] or 0.0)
        self.n += float(f.select(self.m.trials.cast(pl.Float64).sum())[0, 0] or 0.0) if self.m.trials is not None \
            else float(f.height)

    def result(self, ctx):
        k = int(self.k) if float(self.k).is_integer() else self.k
        n = int(self.n) if float(self.n).is_integer() else self.n
        return rate(k, n)


class _Mean(_Acc):
    def __init__(self, m):
        super().__init__(m)
        self.moments = Moments()
        self.table: dict[float, int] = {}

    def add(self, games, seats):
        x = self.values(self.frame(games, seats), self.m.value)
        self.moments.add(x)
        if self.m.counts:
            for v, c in zip(*np.unique(x, return_counts=True)):
                self.table[float(v)] = self.table.get(float(v), 0) + int(c)

    def result(self, ctx):
        out = self.moments.ci()
        if self.m.counts:
            out["distribution"] = {_key(v): self.table[v] for v in sorted(self.table)}
        return out


class _Counts(_Acc):
    def __init__(self, m):
        super().__init__(m)
        self.table: dict = {}
        self.rows = 0

    def add(self, games, seats):
        f = self.frame(games, seats)
        if not f.height:
            return
        self.rows += f.height
        vc = f.select(self.m.value.alias("_v")).group_by("_v").len()
        for v, c in vc.iter_rows():
            if v is None or (isinstance(v, float) and np.isnan(v)):
                continue
            self.table[v] = self.table.get(v, 0) + int(c)

    def result(self, ctx):
        try:
            order = sorted(self.table, key=float)
        except (TypeError, ValueError):
            order = sorted(self.table, key=str)
        dist = {_key(v): self.table[v] for v in order}
        if self.m.bare:
            return dist
        out: dict[str, Any] = {"distribution": dist}
        if self.m.rates:
            out["rates"] = {k: rate(c, self.rows) for k, c in dist.items()}
        return out


class _Distribution(_Acc):
    def __init__(self, m):
        super().__init__(m)
        self.table: dict[float, int] = {}

    def add(self, games, seats):
        x = self.values(self.frame(games, seats), self.m.value)
        for v, c in zip(*np.unique(x, return_counts=True)):
            self.table[float(v)] = self.table.get(float(v), 0) + int(c)

    def result(self, ctx):
        keys = sorted(self.table)
        return distribution_counts(np.array(keys, dtype=float), np.array([self.table[k] for k in keys], np.int64),
                                   self.m.key, self.m.help)


class _Sums(_Acc):
    def __init__(self, m):
        super().__init__(m)
        self.sums = {name: 0.0 for name, _ in m.parts}

    def add(self, games, seats):
        f = self.frame(games, seats)
        if not f.height:
            return
        row = f.select([e.cast(pl.Float64).sum().alias(name) for name, e in self.m.parts]).row(0)
        for (name, _), v in zip(self.m.parts, row):
            self.sums[name] += float(v or 0.0)

    def result(self, ctx):
        return {"distribution": {k: int(v) if float(v).is_integer() else v for k, v in self.sums.items()}}


class _Group:
    def __init__(self, m: M.Group):
        self.m = m
        self.members = [make(x) for x in m.members]

    def add(self, games, seats):
        for a in self.members:
            a.add(games, seats)

    def result(self, ctx):
        out = {}
        for a in self.members:
            if a.m.only_if is not None and not ctx["params"].get(a.m.only_if):
                continue
            out[a.m.key] = _entry(a, ctx)
        return out


class _Static:
    def __init__(self, m):
        self.m = m

    def add(self, games, seats):
        pass

    def result(self, ctx):
        if isinstance(self.m, M.Fixed):
            return self.m.value(ctx["params"], ctx["players"])
        return self.m.text


_KINDS = {M.Rate: _Rate, M.Mean: _Mean, M.Counts: _Counts, M.Distribution: _Distribution, M.Sums: _Sums,
          M.Group: _Group, M.Fixed: _Static, M.Note: _Static}


def make(metric: M.Metric):
    return _KINDS[type(metric)](metric)


def _key(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _entry(acc, ctx) -> Any:
    """A metric's summary entry: its label and help first, then its figures."""
    body = acc.result(ctx)
    if not isinstance(body, dict) or (isinstance(acc.m, M.Counts) and acc.m.bare):
        return body
    head = {}
    if acc.m.label is not None:
        head["label"] = acc.m.label
    if acc.m.help:
        head["help"] = acc.m.help
    return {**head, **body}


class GameMetrics:
    """One scope's game metrics (the run, or one variant of it), fed window by window."""

    def __init__(self, spec, params: dict | None, players: int | None):
        self.spec = spec
        self.params = dict(params or {})
        self.players = players
        self.accs = [make(m) for m in spec.metrics]
        self.seat_joins = M.columns(spec.metrics, "seats") - set(spec.seat_column_names) - {"seat", "policy", *KEYS}
        self.n = 0

    def _seats(self, games: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
        if not self.seat_joins or seats.is_empty():
            return seats
        names = {c[:-len("_game")] if c.endswith("_game") and c[:-len("_game")] in games.columns else c
                 for c in self.seat_joins}
        cols = [c for c in names if c in games.columns and c not in KEYS]
        return seats.join(games.select(KEYS + cols), on=KEYS, how="left", suffix="_game")

    def add(self, games: pl.DataFrame, seats: pl.DataFrame) -> None:
        if not games.height:
            return
        self.n += games.height
        s = self._seats(games, seats)
        for a in self.accs:
            a.add(games, s)

    def result(self) -> dict:
        ctx = {"params": self.params, "players": self.players}
        out = {}
        for a in self.accs:
            if a.m.only_if is not None and not self.params.get(a.m.only_if):
                continue
            out[a.m.key] = _entry(a, ctx)
        return out
