"""Helpers for the run-folder tests: run `balance` in this process, and read a
folder's results in a form two runs can be compared by (summary numbers, the
parts' rows)."""
from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from pathlib import Path

import polars as pl
from typer.testing import CliRunner

from balance.cli.app import app

runner = CliRunner()
TESTS = Path(__file__).resolve().parent.parent
# a child process that knows the toy game, as the test process does
LAUNCH = (
    "import sys; sys.path[:0] = [{tests!r}, {root!r}]; "
    "from balance.simcore import registry; registry.GAMES['race21'] = 'toygame'; "
    "from balance.cli.app import app; app()"
).format(tests=str(TESTS), root=str(TESTS.parent))

VOLATILE = {"generated"}  # summary keys that differ between two identical runs


def balance(*args):
    return runner.invoke(app, [str(a) for a in args])


def child(*args, env=None, **kw) -> subprocess.Popen:
    """`balance ARGS` in a process of its own (stdout/stderr piped)."""
    return subprocess.Popen([sys.executable, "-c", LAUNCH, *[str(a) for a in args]], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def simulate_args(out: Path, n: int, chunk: int | None = None, seed: int = 21) -> list:
    args = ["simulate", "--game", "race21", "-n", n, "--seed", seed, "--policy", "greedy",
            "--policy-param", "epsilon=0.2", "--out", out, "--quiet"]
    return args + (["--chunk-size", chunk] if chunk else [])


def summary(out: Path) -> dict:
    data = json.loads((Path(out) / "summary.json").read_text())
    return {k: v for k, v in data.items() if k not in VOLATILE}


def rows(out: Path) -> dict[str, pl.DataFrame]:
    """The games and seats rows in game order, and the card counters summed
    over chunks (chunking differs between runs; the sums must not), read
    with plain polars from the table folders."""
    out = Path(out)
    games = pl.read_parquet(out / "parts" / "games").sort("game_index")
    seats = pl.read_parquet(out / "parts" / "seats").sort("game_index", "seat")
    cards = (pl.read_parquet(out / "parts" / "cards")
             .group_by("variant", "card_id", "card", "counter")
             .agg(pl.col("games_with", "wins_with", "total", "seat_games", "seat_wins").sum())
             .sort("variant", "card_id", "counter"))
    return {"games": games, "seats": seats, "cards": cards}


def same_rows(a: Path, b: Path) -> bool:
    ra, rb = rows(a), rows(b)
    return all(ra[k].equals(rb[k]) for k in ra)


def same_run(a: Path, b: Path) -> bool:
    """Two run folders hold the same results: summaries (but when they were made) and rows."""
    return summary(a) == summary(b) and same_rows(a, b)


def played_at_once(out: Path, n: int, chunk: int | None = None, seed: int = 21) -> Path:
    """`simulate_args`' run played start to end into `out`, for a run that was stopped and resumed to equal."""
    r = balance(*simulate_args(out, n, chunk, seed=seed))
    assert r.exit_code == 0, r.output
    return out


def one_line_error(result) -> str:
    """The refusal of a command: exit 2, one line on stderr, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


def read_refused(model, folder: Path, words=()) -> str:
    """`model.read(folder)`'s refusal: one BalanceError line naming the file and holding each of `words`."""
    import pytest

    from balance.simcore.errors import BalanceError

    with pytest.raises(BalanceError) as exc:
        model.read(folder)
    line = str(exc.value)
    assert "\n" not in line and str(folder / model.FILE) in line
    for w in words:
        assert w in line, line
    return line


@contextlib.contextmanager
def race21_registered():
    """The toy game (tests/toygame.py) registered as `race21` while the block runs, undone after (also when it
    fails), so later tests see the real registry: for a module fixture that plays it (a test's own
    registration is the `race21` fixture, tests/cli/conftest.py)."""
    import pytest

    from balance.simcore import registry

    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(registry.GAMES, "race21", "toygame")
        yield


def race21_run(tmp_path_factory, n: int = 3000, chunk: int = 1000, seed: int = 5) -> Path:
    """A finished race21 run folder for a module's tests, the toy game registered only while it is played."""
    out = tmp_path_factory.mktemp("base") / "run"
    with race21_registered():
        r = balance(*simulate_args(out, n, chunk, seed=seed))
    assert r.exit_code == 0, r.output
    return out


def typed_ladder(data: dict) -> str:
    """A hand-made ladder (the hook's plain form, reports.context) as the text of a schema-2 ladder.json
    (analysis.ladder_result.LadderFile): each rung completed with the fields `balance ladder` writes."""
    from balance.analysis.ladder_result import LadderFile

    def rung(e: dict) -> dict:
        vs = {k: {"p": None, **d} for k, d in (e.get("vs") or {}).items()}
        return {"label": e["name"], "interval": "Wilson", "bound": False, "variants": 1, **e, "vs": vs}

    def one(lad: dict) -> dict:
        return {"params": {}, **lad, "policies": [rung(e) for e in lad["policies"]]}

    top = {"schema_version": LadderFile.SCHEMA_VERSION, "seed": 1, "engine_hash": None, "complete": True,
           "generated": "2026-01-01T00:00:00+00:00"}
    body = {**data, "ladders": [one(x) for x in data["ladders"]]} if "ladders" in data else one(data)
    return LadderFile.model_validate({**top, **body}).dumps()
