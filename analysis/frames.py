"""Read a run folder (docs/run-folder.md) into polars frames.

Only finished parts count: a part is renamed into place when its chunk is done,
so anything not named `<kind>-<chunk id>.parquet` (temporary `.tmp` files) is ignored.
With no parts, each loader returns an empty frame with the documented columns,
so every analysis function works on an empty run too.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl

GAME_BASE = {"variant": pl.String, "game_index": pl.Int64, "end_reason": pl.String, "decisions": pl.Int32}
SEAT_BASE = {"variant": pl.String, "game_index": pl.Int64, "seat": pl.Int8, "policy": pl.String,
             "won": pl.Int8, "score": pl.Float32}
CARD_COLUMNS = {"variant": pl.String, "chunk": pl.Int32, "card_id": pl.Int32, "card": pl.String,
                "counter": pl.String, "games_with": pl.Int64, "wins_with": pl.Int64, "total": pl.Int64,
                "seat_games": pl.Int64, "seat_wins": pl.Int64}

_DTYPES = {"int8": pl.Int8, "int16": pl.Int16, "int32": pl.Int32, "int64": pl.Int64,
           "float32": pl.Float32, "float64": pl.Float64, "bool": pl.Boolean}


def part_files(run_dir: str | Path, kind: str) -> list[Path]:
    """The finished parts of one kind ("games", "seats", "cards"), in chunk order."""
    parts = Path(run_dir) / "parts"
    if not parts.is_dir():
        return []
    # docs: games-000012.parquet; analysis.runs: games-v0000-i000000000000-n000000500.parquet
    pat = re.compile(rf"^{kind}-[A-Za-z0-9-]+\.parquet$")
    return sorted(p for p in parts.iterdir() if pat.match(p.name))


def _empty(schema: dict) -> pl.DataFrame:
    return pl.DataFrame(schema=schema)


def _spec_schema(base: dict, columns) -> dict:
    schema = dict(base)
    for c in columns or ():
        schema[c.name] = _DTYPES.get(c.dtype, pl.Float64)
    return schema


def _load(run_dir, kind: str, schema: dict) -> pl.DataFrame:
    files = part_files(run_dir, kind)
    if not files:
        return _empty(schema)
    frames = [pl.read_parquet(f) for f in files]
    # relaxed: a resumed run may have written an int column as a wider type
    return pl.concat(frames, how="diagonal_relaxed")


def load_games(run_dir: str | Path, spec=None) -> pl.DataFrame:
    """One row per finished game. `spec` only shapes the empty frame."""
    return _load(run_dir, "games", _spec_schema(GAME_BASE, spec.game_columns if spec else ()))


def load_seats(run_dir: str | Path, spec=None) -> pl.DataFrame:
    """One row per finished game and seat."""
    return _load(run_dir, "seats", _spec_schema(SEAT_BASE, spec.seat_columns if spec else ()))


def load_cards(run_dir: str | Path) -> pl.DataFrame:
    """Per-card counters, one row per chunk, card and counter kind."""
    return _load(run_dir, "cards", CARD_COLUMNS)


def load_manifest(run_dir: str | Path) -> dict:
    """manifest.json as a dict ({} when absent, so a bare parts folder still reports)."""
    path = Path(run_dir) / "manifest.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))
