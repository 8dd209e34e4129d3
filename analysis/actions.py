"""What the seats chose, by action kind: the per-action table of a run.

The runner names every decision's option with the game's `action` kernel (simcore.spec.Kernels:
kind, card, target, choice) and counts each seat's chosen kinds; a run folder keeps the counts in
the seats part, one `action_<kind>` column per kind of the spec's `action_kinds`
(docs/run-folder.md). Here they are summed: one row per (variant,) seat, policy and action kind, with
the seat's decisions, its games and the kind's share of its decisions with an interval. A folder written before these columns gives an
empty frame (no row), never a guess.
"""
from __future__ import annotations

from pathlib import Path

import polars as pl

from balance.simcore.spec import ACTION_COLUMN

from . import frames, stats

COLUMNS = {"variant": pl.String, "seat": pl.Int8, "policy": pl.String, "action": pl.String, "count": pl.Int64,
           "decisions": pl.Int64, "games": pl.Int64, "share": pl.Float64, "low": pl.Float64, "high": pl.Float64}


def action_columns(names, spec=None) -> list[str]:
    """The `action_*` columns among `names`, in the spec's declared order when it is given."""
    have = [n for n in names if n.startswith(ACTION_COLUMN)]
    if spec is None or not getattr(spec, "action_kinds", ()):
        return have
    return [c for c in spec.action_column_names if c in set(have)]


def action_totals(seats: pl.DataFrame | pl.LazyFrame | None, spec=None, by_variant: bool = False) -> pl.DataFrame:
    """Seats rows (a frame, or the parts as a LazyFrame) -> one row per (variant,) seat, policy and action
    kind: `count` (times the seat's policy chose an option of that kind), `decisions` (all its decisions),
    `games` (the games it sat in: the n of the share), `share` (count / decisions; null when it never
    decided) and its 95% interval `low`..`high` (`stats.ratio_ci`: games are the independent units, not
    decisions). A seat-rotated run has one row set per policy that sat at the seat. Variants summed
    unless `by_variant`."""
    if seats is None:
        return pl.DataFrame(schema=COLUMNS)
    lf = seats.lazy()
    names = lf.collect_schema().names()
    cols = action_columns(names, spec)
    if not cols:
        return pl.DataFrame(schema=COLUMNS)
    if "policy" not in names:
        lf = lf.with_columns(pl.lit(None, dtype=pl.String).alias("policy"))
    keys = (["variant"] if by_variant else []) + ["seat", "policy"]
    d = pl.sum_horizontal([pl.col(c).cast(pl.Float64) for c in cols])
    sums = [pl.len().alias("games"), d.sum().alias("_d"), (d * d).sum().alias("_dd")]
    for c in cols:
        x = pl.col(c).cast(pl.Float64)
        sums += [x.sum().alias(f"{c}|c"), (x * x).sum().alias(f"{c}|cc"), (x * d).sum().alias(f"{c}|cd")]
    wide = lf.group_by(keys).agg(sums).collect()
    rows = []
    for r in wide.iter_rows(named=True):
        for c in cols:
            share = r[f"{c}|c"] / r["_d"] if r["_d"] > 0 else None
            lo, hi = (stats.ratio_ci(r[f"{c}|c"], r["_d"], r[f"{c}|cc"], r[f"{c}|cd"], r["_dd"], r["games"])
                      if share is not None else (None, None))
            rows.append({"variant": r["variant"] if by_variant else "all", "seat": r["seat"],
                         "policy": r["policy"], "action": c[len(ACTION_COLUMN):], "count": round(r[f"{c}|c"]),
                         "decisions": round(r["_d"]), "games": r["games"], "share": share, "low": lo, "high": hi,
                         "_order": cols.index(c)})
    if not rows:
        return pl.DataFrame(schema=COLUMNS)
    out = pl.DataFrame(rows, schema={**COLUMNS, "_order": pl.Int32})
    return out.sort("variant", "seat", "policy", "_order", nulls_last=True).select(list(COLUMNS))


def load_actions(run_dir: str | Path, spec=None, by_variant: bool = False) -> pl.DataFrame:
    """The per-action table of a run folder (committed seats parts only, read column by column)."""
    lf = frames.scan_parts(frames.part_files(run_dir, "seats"))
    return action_totals(lf, spec, by_variant)
