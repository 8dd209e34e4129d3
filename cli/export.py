"""`balance export RUN [FILE] [--table T] [--format csv|parquet|xlsx]`: one table of a run folder
written as a file a spreadsheet or another tool opens.

Registered by its import in cli/__init__.py. The tables are read through analysis.frames' checked readers
(committed chunks only, every part checked against its record): games (one row per game), seats (one row
per game and seat), cards (the per-card counters, one row per chunk, card and counter); summary is
summary.json's win-rate table flattened: one row per variant for every seat together (seat empty) and one
per seat, each with its 95% interval. xlsx needs openpyxl (`pip install openpyxl`)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from balance.simcore.errors import BalanceError

from .app import FOLDER_HELP, command, out

TABLES = ("games", "seats", "cards", "summary")
FORMATS = ("csv", "parquet", "xlsx")
XLSX_MAX_ROWS = 1_048_575  # a worksheet's rows, less the header
SUMMARY_COLUMNS = ("variant", "seat", "policy", "win_rate", "ci_low", "ci_high", "wins", "n")


def summary_frame(run_dir: Path):
    """summary.json's win rates (read through its schema, analysis.summary_result: an older or damaged file
    is refused, naming the command that makes it again): per variant, all seats (seat null) then each seat."""
    import polars as pl

    from balance.analysis.summary_result import SummaryResult

    if not (Path(run_dir) / SummaryResult.FILE).exists():
        raise BalanceError(f"RUN: {run_dir} has no summary.json; write it with `balance report {run_dir}`, or "
                           "export another --table (games, seats, cards)")
    summary = SummaryResult.read(run_dir)
    rows = []
    for part in summary.variants or [summary]:
        name = getattr(part, "name", "base")
        ci = part.win_rate_ci or [None, None]
        rows.append((name, None, "all", part.win_rate, ci[0], ci[1], part.wins, part.n_games))
        for r in part.win_rate_by_seat or []:
            rows.append((name, r.seat, r.policy, r.value, r.ci[0], r.ci[1], r.wins, r.n))
    schema = {"variant": pl.String, "seat": pl.Int64, "policy": pl.String, "win_rate": pl.Float64,
              "ci_low": pl.Float64, "ci_high": pl.Float64, "wins": pl.Int64, "n": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def table_frame(run_dir: Path, table: str):
    from balance.analysis import frames

    if table == "summary":
        return summary_frame(run_dir)
    return {"games": frames.load_games, "seats": frames.load_seats, "cards": frames.load_cards}[table](run_dir)


def _xlsx_bytes(frame, sheet: str) -> bytes:
    import io

    from openpyxl import Workbook

    if frame.height > XLSX_MAX_ROWS:
        raise BalanceError(f"--format: xlsx holds at most {XLSX_MAX_ROWS + 1:,} rows a sheet and this table has "
                           f"{frame.height + 1:,}; allowed: --format csv or parquet")
    wb = Workbook(write_only=True)
    ws = wb.create_sheet(sheet)
    ws.append(frame.columns)
    for row in frame.iter_rows():
        ws.append([json.dumps(v) if isinstance(v, (list, dict)) else v for v in row])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def export_table(run: Path, table: str = "games", fmt: str | None = None, dest: Path | None = None,
                 force: bool = False) -> tuple[Path, int]:
    """Write one table of a run folder; returns (the file written, its rows). The format is `fmt`, else
    the extension of `dest`, else csv; `dest` defaults to RUNNAME-TABLE.FORMAT in the current folder."""
    if table not in TABLES:
        raise BalanceError(f"--table: {table!r} is not a table of a run folder; allowed: {', '.join(TABLES)}")
    if fmt is None and dest is not None and dest.suffix.lower().lstrip(".") in FORMATS:
        fmt = dest.suffix.lower().lstrip(".")
    fmt = (fmt or "csv").lower()
    if fmt not in FORMATS:
        raise BalanceError(f"--format: {fmt!r} is not allowed; allowed: {', '.join(FORMATS)}")
    if dest is not None and dest.suffix.lower().lstrip(".") in FORMATS and dest.suffix.lower().lstrip(".") != fmt:
        raise BalanceError(f"FILE: {dest} ends in {dest.suffix} but --format is {fmt}; allowed: a file name ending "
                           f"in .{fmt}, or no --format")
    if fmt == "xlsx":
        try:
            import openpyxl  # noqa: F401
        except ImportError:
            raise BalanceError("--format: xlsx needs openpyxl, which is not installed; pip install openpyxl "
                               "(or --format csv)") from None
    run = Path(run)
    if not run.is_dir():
        raise BalanceError(f"RUN: {run} is not a folder; allowed: {FOLDER_HELP}")
    if not (run / "manifest.json").is_file():
        raise BalanceError(f"RUN: {run} holds no manifest.json; allowed: {FOLDER_HELP}")
    target = dest if dest is not None else Path(f"{run.resolve().name}-{table}.{fmt}")
    from .cards import check_new_file, write_file

    check_new_file(target, force, f".{fmt}")
    frame = table_frame(run, table)
    if fmt == "csv":
        data = frame.write_csv().encode("utf-8")
    elif fmt == "parquet":
        import io

        buf = io.BytesIO()
        frame.write_parquet(buf)
        data = buf.getvalue()
    else:
        data = _xlsx_bytes(frame, table)
    write_file(target, data)
    return target, frame.height


@command("export")
def export(
    run: Annotated[Path, typer.Argument(metavar="RUN", help=FOLDER_HELP)],
    dest: Annotated[Optional[Path], typer.Argument(metavar="FILE", help="the file to write (default: "
                                                   "RUNNAME-TABLE.FORMAT here)", show_default=False)] = None,
    table: Annotated[str, typer.Option("--table", metavar="TABLE", help="games (one row per game), seats (per game "
                                       "and seat), cards (per-card counters by chunk), summary (win rates by seat, "
                                       "with intervals)")] = "games",
    fmt: Annotated[Optional[str], typer.Option("--format", metavar="FORMAT", help="csv, parquet or xlsx (needs "
                                               "openpyxl); default: FILE's extension, else csv")] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite the file if it exists")] = False,
):
    """Write one table of a run folder as CSV, Parquet or an Excel sheet."""
    target, n = export_table(run, table, fmt, dest, force)
    out.print(f"wrote {target}: {table} of {run}, {n:,} rows", highlight=False, markup=False)
    return target
