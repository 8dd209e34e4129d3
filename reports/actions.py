"""View model of the per-action table (analysis.actions): how often each seat chose each kind of
action (the game's declared `action_kinds`): its share of the seat's decisions, with an interval, for
the policy that sat there.

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
    """The table (one row per action kind, one column per seat and the policy that sat there: the kind's
    share of that seat's decisions with its 95% interval), or None."""
    from balance.analysis.actions import load_actions
    from balance.simcore.errors import BalanceError

    try:
        totals = load_actions(run_dir, spec)
    except BalanceError:  # a folder the rest of the report already says is damaged
        return None
    if totals.is_empty():
        return None
    groups = list(dict.fromkeys((r["seat"], r["policy"]) for r in totals.iter_rows(named=True)))
    by = {(r["seat"], r["policy"], r["action"]): r for r in totals.iter_rows(named=True)}
    rows = []
    for kind in dict.fromkeys(totals["action"].to_list()):
        row = [kind.replace("_", " ")]
        for seat, policy in groups:
            r = by.get((seat, policy, kind))
            row.append(f"{fmt.pct(r['share'])} {fmt.ci_pct((r['low'], r['high']))}"
                       if r and r["share"] is not None else "–")
        rows.append(row)
    first = {g: by[(g[0], g[1], totals["action"][0])] for g in groups}
    rows.append(["decisions"] + [fmt.int_(first[g]["decisions"]) for g in groups])
    rows.append(["games (n)"] + [fmt.int_(first[g]["games"]) for g in groups])
    variants = " All variants of the run together." if _variants(run_dir) > 1 else ""
    note = ("Each decision's option named by the game's rules (a card played, a draw, a pass...): the share of a "
            "seat's decisions that were of each kind, with its 95% interval (the games are the independent units: "
            "stats.ratio_ci), for the policy that sat there. Forced moves (one legal option) count too. What a "
            "policy chose, not what the game asks of a player: another policy may choose otherwise." + variants)
    header = [f"{seat_name(seat)} · {policy}" if policy else seat_name(seat) for seat, policy in groups]
    return Table(TITLE, ["action"] + header, rows, note, numeric_from=1)


def tables(run_dir: str | Path, spec=None) -> list[Table]:
    """[table] when the folder has one, else []: the run report's hook."""
    t = table(run_dir, spec)
    return [t] if t is not None else []


def _variants(run_dir) -> int:
    from balance.analysis.frames import part_files, scan_parts

    lf = scan_parts(part_files(run_dir, "seats"), ["variant"])
    return 0 if lf is None else lf.select(pl.col("variant").n_unique()).collect().item()
