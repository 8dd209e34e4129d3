"""A game's own metrics, declared as data in its spec (`GameSpec.metrics`).

Each metric names what it reads with polars expressions over one table:
`games` (one row per game: the runner's and the game's declared game
columns) or `seats` (one row per game and seat: the seat columns, with the
game columns joined in; a game column whose name a seat column already has
is there as `<name>_game`). The summary (analysis.metrics) computes every
kind from mergeable sums window by window, so no metric needs every row in
memory and none is guessed at: what a metric reads is
`expr.meta.root_names()`.

Kinds (each writes one entry of summary.json's `game_metrics`):

    Rate(key, label, hits, trials=None)   sum(hits) / sum(trials) (rows if None):
                                          {label, value, ci (Wilson), k, n}
    Mean(key, label, value, counts=False) mean of the non-missing values:
                                          {label, value, ci, n} (+ distribution)
    Counts(key, label, value, rates=False, bare=False)
                                          value -> count (bare: the dict alone)
    Distribution(key, label, value)       mean, median with bootstrap CI, p10, p90, histogram
    Sums(key, label, parts)               {label, distribution: {name: sum}}
    Group(key, label, members)            {label, member key: entry, ...}
    Fixed(key, value)                     a number from the run's settings
                                          (value(params, players)), e.g. a chance level
    Note(key, text)                       a sentence the report shows beside the group

Every metric may say `where` (rows it counts), `only_if` (a rule parameter
that must be true for it to appear) and `help` (what it is, in the report).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import polars as pl

TABLES = ("games", "seats")


@dataclass(frozen=True, kw_only=True)
class Metric:
    key: str
    label: str | None = None
    help: str = ""
    table: str = "games"
    where: pl.Expr | None = None
    only_if: str | None = None

    def exprs(self) -> list[pl.Expr]:
        """The expressions this metric evaluates (for the columns it reads)."""
        return [self.where] if self.where is not None else []

    def columns(self) -> set[str]:
        out: set[str] = set()
        for e in self.exprs():
            out.update(e.meta.root_names())
        return out


@dataclass(frozen=True, kw_only=True)
class Rate(Metric):
    hits: pl.Expr
    trials: pl.Expr | None = None

    def exprs(self):
        return super().exprs() + [self.hits] + ([self.trials] if self.trials is not None else [])


@dataclass(frozen=True, kw_only=True)
class Mean(Metric):
    value: pl.Expr
    counts: bool = False  # also a value -> count `distribution`

    def exprs(self):
        return super().exprs() + [self.value]


@dataclass(frozen=True, kw_only=True)
class Counts(Metric):
    value: pl.Expr
    rates: bool = False  # also each value's rate over the rows counted
    bare: bool = False  # the value -> count dict alone (inside a Group)

    def exprs(self):
        return super().exprs() + [self.value]


@dataclass(frozen=True, kw_only=True)
class Distribution(Metric):
    value: pl.Expr

    def exprs(self):
        return super().exprs() + [self.value]


@dataclass(frozen=True, kw_only=True)
class Sums(Metric):
    parts: tuple[tuple[str, pl.Expr], ...]

    def exprs(self):
        return super().exprs() + [e for _, e in self.parts]


@dataclass(frozen=True, kw_only=True)
class Group(Metric):
    members: tuple[Metric, ...]

    def exprs(self):
        return [e for m in self.members for e in m.exprs()]


@dataclass(frozen=True, kw_only=True)
class Fixed(Metric):
    value: Callable[[dict, int], Any]


@dataclass(frozen=True, kw_only=True)
class Note(Metric):
    text: str


def walk(metrics) -> list[Metric]:
    """Every metric, members of groups included."""
    out = []
    for m in metrics:
        out.append(m)
        if isinstance(m, Group):
            out.extend(walk(m.members))
    return out


def columns(metrics, table: str) -> set[str]:
    """Columns the metrics of one table read."""
    out: set[str] = set()
    for m in walk(metrics):
        if not isinstance(m, Group) and m.table == table:
            out |= m.columns()
    return out
