"""What the seats chose, by action kind: the per-action table of a run.

The runner names every decision's option with the game's `action` kernel (simcore.spec.Kernels:
kind, card, target, choice) and counts each seat's chosen kinds; a run folder keeps the counts in
the seats part, one `action_<kind>` column per kind of the spec's `action_kinds`
(docs/run-folder.md). Here they are summed: one row per (variant,) seat and action kind, with the
seat's decisions and the kind's share of them. A folder written before these columns gives an
empty frame (no row), never a guess.
"""
from __future__ import annotations

from pathlib import Path

import polars as pl

from balance.simcore.spec import ACTION_COLUMN

from . import frames

COLUMNS = {"variant": pl.String, "seat": pl.Int8, "action": pl.String, "count": pl.Int64,
           "decisions": pl.Int64, "share": pl.Float64}


def action_columns(names, spec=None) -> list[str]:
    """The `action_*` columns among `names`, in the spec's declared order when it is given."""
    have = [n for n in names if n.startswith(ACTION_COLUMN)]
    if spec is None or not getattr(spec, "action_kinds", ()):
        return have
    return [c for c in spec.action_column_names if c in set(have)]


def action_totals(seats: pl.DataFrame | pl.LazyFrame | None, spec=None, by_variant: bool = False) -> pl.DataFrame:
    """Seats rows (a frame, or the parts as a LazyFrame) -> one row per (variant,) seat and action kind:
    `count` (times the seat chose an option of that kind), `decisions` (all the seat's decisions) and
    `share` (count / decisions; null when the seat never decided). Variants summed unless `by_variant`."""
    if seats is None:
        return pl.DataFrame(schema=COLUMNS)
    lf = seats.lazy()
    cols = action_columns(lf.collect_schema().names(), spec)
    if not cols:
        return pl.DataFrame(schema=COLUMNS)
    keys = (["variant"] if by_variant else []) + ["seat"]
    wide = lf.group_by(keys).agg([pl.col(c).cast(pl.Int64).sum() for c in cols]).collect()
    if not by_variant:
        wide = wide.with_columns(pl.lit("all", dtype=pl.String).alias("variant"))
    long = wide.unpivot(index=["variant", "seat"], on=cols, variable_name="action", value_name="count")
    order = {c: i for i, c in enumerate(cols)}
    long = long.with_columns(
        pl.col("action").str.strip_prefix(ACTION_COLUMN),
        pl.col("action").replace_strict(order, return_dtype=pl.Int32).alias("_order"),
        pl.col("count").cast(pl.Int64),
        pl.col("seat").cast(pl.Int8),
    )
    long = long.with_columns(pl.col("count").sum().over(["variant", "seat"]).alias("decisions"))
    long = long.with_columns(
        pl.when(pl.col("decisions") > 0).then(pl.col("count") / pl.col("decisions")).otherwise(None)
        .cast(pl.Float64).alias("share"))
    return long.sort("variant", "seat", "_order").select(list(COLUMNS))


def load_actions(run_dir: str | Path, spec=None, by_variant: bool = False) -> pl.DataFrame:
    """The per-action table of a run folder (committed seats parts only, read column by column)."""
    lf = frames.scan_parts(frames.part_files(run_dir, "seats"))
    return action_totals(lf, spec, by_variant)
