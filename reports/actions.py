"""View model of the per-action table (analysis.actions): how often each seat chose each kind of
action (the game's declared `action_kinds`), as a count and a share of the seat's decisions.

Read from the run folder's seats parts (their `action_*` columns, docs/run-folder.md); a folder
written before them, or a game that declares no actions, has no table.
"""
from __future__ import annotations

from pathlib import Path

import polars as pl

from . import fmt
from .model import Table
from .run_words import seat_name

TITLE = "Actions chosen, by seat"


def table(run_dir: str | Path, spec=None) -> Table | None:
    """The table (one row per action kind, one column per seat: count and share of its decisions), or None."""
    from balance.analysis.actions import load_actions
    from balance.simcore.errors import BalanceError

    try:
        totals = load_actions(run_dir, spec)
    except BalanceError:  # a folder the rest of the report already says is damaged
        return None
    if totals.is_empty():
        return None
    seats = sorted(set(totals["seat"].to_list()))
    decisions = {r["seat"]: r["decisions"] for r in totals.iter_rows(named=True)}
    rows = []
    for kind in dict.fromkeys(totals["action"].to_list()):
        mine = {r["seat"]: r for r in totals.filter(totals["action"] == kind).iter_rows(named=True)}
        row = [kind.replace("_", " ")]
        for seat in seats:
            r = mine.get(seat)
            row.append(f"{fmt.int_(r['count'])} ({fmt.pct(r['share'])})" if r and r["share"] is not None else "–")
        rows.append(row)
    rows.append(["all decisions"] + [fmt.int_(decisions[seat]) for seat in seats])
    variants = " (all variants together)" if _variants(run_dir) > 1 else ""
    note = ("Each decision's option named by the game's rules (a card played, a draw, a pass...): how many times a "
            f"seat chose each kind, and its share of that seat's decisions{variants}. Forced moves (one legal option) "
            "count too.")
    return Table(TITLE, ["action"] + [seat_name(s) for s in seats], rows, note, numeric_from=1)


def tables(run_dir: str | Path, spec=None) -> list[Table]:
    """[table] when the folder has one, else []: the run report's hook."""
    t = table(run_dir, spec)
    return [t] if t is not None else []


def _variants(run_dir) -> int:
    from balance.analysis.frames import part_files, scan_parts

    lf = scan_parts(part_files(run_dir, "seats"), ["variant"])
    return 0 if lf is None else lf.select(pl.col("variant").n_unique()).collect().item()
