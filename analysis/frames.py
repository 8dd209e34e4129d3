"""Read a run folder (docs/run-folder.md) into polars frames.

Only committed chunks count (analysis.store): the parts named by a record in
chunks.jsonl (`parts/games/`, `parts/seats/`, `parts/cards/`), or, in a folder
of the old flat layout, the ranges whose games part is there. A part no record
names (a chunk killed before its record) is ignored, and so are temporary
files; a folder whose records or ranges contradict each other is refused
with a BalanceError naming the line or part. With no parts, each loader
returns an empty frame with the documented columns, so every analysis
function works on an empty run too.

`load_*` read every row into memory (fine for tests and small runs). The
summary reads with bounded memory instead: `scan_parts` (lazy, only the
columns asked for) and `windows`, which yields the games and seats of one
range of game indices at a time, every variant of that range together.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import polars as pl

from balance.simcore.errors import BalanceError

from . import manifest_file, store

GAME_BASE = {"variant": pl.String, "game_index": pl.Int64, "end_reason": pl.String, "decisions": pl.Int32}
SEAT_BASE = {"variant": pl.String, "game_index": pl.Int64, "seat": pl.Int8, "policy": pl.String,
             "won": pl.Int8, "score": pl.Float32}
CARD_COLUMNS = {"variant": pl.String, "chunk": pl.Int32, "card_id": pl.Int32, "card": pl.String,
                "counter": pl.String, "games_with": pl.Int64, "wins_with": pl.Int64, "total": pl.Int64,
                "seat_games": pl.Int64, "seat_wins": pl.Int64,
                # since hand_counters (null for a game without them; absent in older folders)
                "reached_games": pl.Int64, "reached_wins": pl.Int64, "reached_with": pl.Int64,
                "reached_wins_with": pl.Int64}

_DTYPES = {"int8": pl.Int8, "int16": pl.Int16, "int32": pl.Int32, "int64": pl.Int64,
           "float32": pl.Float32, "float64": pl.Float64, "bool": pl.Boolean}


def committed(run_dir: str | Path) -> store.View:
    """The folder's committed chunks; a BalanceError when its records (or an
    old folder's ranges) are damaged or contradict each other."""
    manifest = load_manifest(run_dir)
    view = store.committed(Path(run_dir), manifest)
    store.refuse(Path(run_dir), view.problems, manifest)
    return view


def part_files(run_dir: str | Path, kind: str) -> list[Path]:
    """The committed parts of one kind ("games", "seats", "cards"), in (variant, first game) order."""
    return [p for p, _, _ in committed(run_dir).parts(kind)]


def _unreadable(path, exc: Exception) -> BalanceError:
    text = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else type(exc).__name__
    return BalanceError(f"{path}: cannot be read as a part ({text}); "
                        "run the same simulate command again to recompute it")


def read_part(path: Path, columns=None) -> pl.DataFrame:
    """One part (all rows, or `columns`), a BalanceError naming it if it cannot be read."""
    try:
        return pl.read_parquet(path, columns=columns)
    except (OSError, pl.exceptions.PolarsError, ValueError) as exc:  # pyarrow.ArrowInvalid is a ValueError
        raise _unreadable(path, exc) from None


def _empty(schema: dict) -> pl.DataFrame:
    return pl.DataFrame(schema=schema)


def _spec_schema(base: dict, columns) -> dict:
    schema = dict(base)
    for c in columns or ():
        schema[c.name] = _DTYPES.get(c.dtype, pl.Float64)
    return schema


def _load(run_dir, kind: str, schema: dict) -> pl.DataFrame:
    """Every committed part of a kind, each checked against its record as it is read."""
    view = committed(run_dir)
    if view.layout == manifest_file.LAYOUT:
        bad = [f"{r.parts[kind].file}: {why}" for r in view.records
               if (why := store.check_part(view.run_dir, r.parts[kind]))]
        if bad:
            store.refuse(view.run_dir, [store.Problem(b) for b in bad], load_manifest(run_dir))
    files = [p for p, _, _ in view.parts(kind)]
    if not files:
        return _empty(schema)
    frames = [read_part(f) for f in files]
    # relaxed: a resumed run may have written an int column as a wider type
    return pl.concat(frames, how="diagonal_relaxed")


def load_games(run_dir: str | Path, spec=None) -> pl.DataFrame:
    """One row per finished game. `spec` only shapes the empty frame."""
    return _load(run_dir, "games", _spec_schema(GAME_BASE, spec.game_columns if spec else ()))


def load_seats(run_dir: str | Path, spec=None) -> pl.DataFrame:
    """One row per finished game and seat."""
    schema = _spec_schema(SEAT_BASE, spec.seat_columns if spec else ())
    schema.update({c: pl.Int32 for c in getattr(spec, "action_column_names", ())})  # each seat's actions by kind
    return _load(run_dir, "seats", schema)


def load_cards(run_dir: str | Path) -> pl.DataFrame:
    """Per-card counters, one row per chunk, card and counter kind."""
    return _load(run_dir, "cards", CARD_COLUMNS)


# ---------------------------------------------------------------- bounded-memory reading
def scan_parts(files, columns=None) -> pl.LazyFrame | None:
    """The parts as one LazyFrame (None when there are none), restricted to the
    `columns` that exist. Relaxed like `_load`: a resumed run may have written
    an int column as a wider type."""
    files = list(files)
    if not files:
        return None
    lf = pl.concat([pl.scan_parquet(f) for f in files], how="diagonal_relaxed")
    if columns is not None:
        have = lf.collect_schema().names()
        lf = lf.select([c for c in have if c in set(columns)])
    return lf


def part_ranges(run_dir: str | Path, kind: str) -> list[tuple[Path, int, int]]:
    """(part, first game index, last game index + 1) of each committed part.

    From its record (or an old part's name); otherwise from the part's
    `game_index` column (one column of one part at a time)."""
    out = []
    for f, first, end in committed(run_dir).parts(kind):
        if first is not None:
            out.append((f, first, end))
            continue
        try:
            r = pl.scan_parquet(f).select(pl.col("game_index").min().alias("lo"),
                                          pl.col("game_index").max().alias("hi")).collect()
        except (OSError, pl.exceptions.PolarsError, ValueError) as exc:
            raise _unreadable(f, exc) from None
        if r["lo"][0] is not None:
            out.append((f, int(r["lo"][0]), int(r["hi"][0]) + 1))
    return out


def windows(run_dir: str | Path, width: int, game_columns=None, seat_columns=None,
            games_schema=None, seats_schema=None) -> Iterator[tuple[pl.DataFrame, pl.DataFrame]]:
    """(games, seats) of game indices [lo, lo + width), every variant together,
    for consecutive windows covering every part: at most `width` game indices
    per variant in memory at a time, whatever the number of games. Only parts
    whose range overlaps the window are opened. A window with no part of a kind
    gets an empty frame of that kind (`*_schema`, default the base columns)."""
    ranges = {k: part_ranges(run_dir, k) for k in ("games", "seats")}
    empty = {"games": pl.DataFrame(schema=games_schema or GAME_BASE),
             "seats": pl.DataFrame(schema=seats_schema or SEAT_BASE)}
    cols = {"games": game_columns, "seats": seat_columns}
    spans = ranges["games"] + ranges["seats"]
    if not spans:
        return
    lo, end = min(a for _, a, _ in spans), max(b for _, _, b in spans)
    while lo < end:
        hi = lo + width
        if not any(a < hi and b > lo for _, a, b in spans):  # a gap in the indices: on to the next part
            lo = min(a for _, a, _ in spans if a >= hi)
            continue
        in_window = pl.col("game_index").is_between(lo, hi, closed="left")
        out = []
        for kind in ("games", "seats"):
            files = [f for f, a, b in ranges[kind] if a < hi and b > lo]
            try:
                frame = scan_parts(files, cols[kind]).filter(in_window).collect() if files else None
            except (OSError, pl.exceptions.PolarsError, ValueError) as exc:
                raise _unreadable(", ".join(str(f) for f in files[:2]) + (" ..." if len(files) > 2 else ""),
                                  exc) from None
            if frame is None:
                frame = empty[kind]
                if cols[kind] is not None:
                    frame = frame.select([c for c in frame.columns if c in set(cols[kind])])
            out.append(frame)
        yield out[0], out[1]
        lo = hi


def load_manifest(run_dir: str | Path) -> dict:
    """manifest.json as a dict ({} when absent, so a bare parts folder still
    reports); a BalanceError naming it when it is damaged or was edited."""
    return manifest_file.read_manifest(Path(run_dir), required=False)
