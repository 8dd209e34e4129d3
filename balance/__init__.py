"""`balance` from Python: every command of the command line is a function here, with the same
options, defaults and checks, and every run folder's tables are frames you can ask for by name.

    import balance

    run = balance.simulate("overtime", n=20_000, seed=1, out="runs/ot")   # as `balance simulate`
    run.summary["win_rate"], run.summary["win_rate_ci"]
    run.typed_summary.seat_gap.verdict.words   # summary.json through its schema: fields as attributes
    run.games                      # polars: one row per game
    run.seats.to_pandas()          # one row per game and seat
    run.table("cards", pandas=True)

    sweep = balance.sweep("sickdays-solo", vary={"ready_pizzas": "0..6"}, n=2_000, level=4)
    cmp = balance.compare(game="overtime", a_set={"rounds": 8}, b_set={"rounds": 7}, n=20_000)
    cmp.result["metrics"][0]       # B - A with its interval and verdict (comparison.json)
    cmp.typed.metrics[0].diff      # the same, read through comparison.json's schema
    imp = balance.impact("overtime", n=5_000)                   # imp.result: impact.json
    lad = balance.ladder("sickdays-solo", level=["4"], n=400)   # lad.result: ladder.json
    lines = balance.replay(run.folder, index=3)                 # the transcript, one line a string
    balance.export(run.folder, "games.csv")
    old = balance.load("runs/overtime-20261201-120000")         # any run folder

Each function is the command of the same name, run by the same code (balance/cli/api.py): its
parameters are the command function's (`help(balance.simulate)`; `n` is -n, `set` or `set_` is --set,
`out` or `out_dir` is --out, `threads` is --threads...), with the command line's defaults (simulate plays
1,000,000 games, as `balance simulate` does). A repeated option takes a list; --set, --policy-param,
--vary and compare's --a-set/--b-set also take a dict ({"rounds": 7}), each value checked as it is.
Bad input raises `balance.BalanceError` with the command line's message, before anything is written;
when a call returns its folder is closed (another process may read it at once). The command's
progress bar and lines print as in a terminal (in a notebook, live with ipywidgets installed).
docs/api.md has a worked example.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # polars is imported when a table is first read, not by every `import balance.simcore`
    import polars as pl

# Run from a checkout (or a git worktree of it), balance.simcore is that checkout's simcore/ folder (and so
# for analysis/, cli/, reports/, data/), whatever an editable install points at; an installed wheel holds
# them inside this package and needs nothing.
_CHECKOUT = Path(__file__).resolve().parent.parent
if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "simcore" / "__init__.py").is_file():
    __path__.append(str(_CHECKOUT))  # noqa: F821  (a package's own __path__)

from balance.simcore.errors import BalanceError  # noqa: E402

__all__ = ["BalanceError", "Run", "Comparison", "games", "policies", "load", "simulate", "sweep", "compare", "impact",
           "ladder", "tune", "campaign", "replay", "report", "export", "cards_export"]

TABLES = ("games", "seats", "cards")


def games() -> list[str]:
    """The games this build holds (the `--game` names)."""
    from balance.simcore import registry

    return registry.names()


def policies(game: str) -> list[str]:
    """The built-in policies of a game."""
    from balance.simcore import registry

    return [p.name for p in registry.get(game).policies]


@dataclass
class Run:
    """A run folder: its manifest, summary and tables (read when first asked for)."""

    folder: Path
    _frames: dict = field(default_factory=dict, repr=False)

    @property
    def manifest(self) -> dict:
        from balance.analysis.runs import load_manifest

        return load_manifest(self.folder)

    @property
    def summary(self) -> dict:
        """summary.json as a dict, read through its schema (`typed_summary`): an older or damaged file raises
        BalanceError naming the command that makes it again."""
        return self.typed_summary.model_dump(mode="json", by_alias=True, exclude_unset=True)

    @property
    def typed_summary(self):
        """summary.json as its schema, balance.analysis.summary_result.SummaryResult: fields as attributes."""
        from balance.analysis.summary_result import SummaryResult

        if not (self.folder / SummaryResult.FILE).is_file():
            raise BalanceError(f"{self.folder}: no summary.json; rebuild it with: balance report {self.folder}")
        return SummaryResult.read(self.folder)

    @property
    def spec(self):
        from balance.simcore import registry

        return registry.get(self.manifest["config"]["game"])

    def table(self, name: str, pandas: bool = False):
        """One of the run's tables by name: "games", "seats" or "cards"."""
        from balance.analysis import frames

        if name not in TABLES:
            raise BalanceError(f"table: '{name}' is not a table of a run folder; allowed: {', '.join(TABLES)}")
        if name not in self._frames:
            spec = self.spec
            loaders = {"games": lambda: frames.load_games(self.folder, spec),
                       "seats": lambda: frames.load_seats(self.folder, spec),
                       "cards": lambda: frames.load_cards(self.folder)}
            self._frames[name] = loaders[name]()
        frame = self._frames[name]
        return frame.to_pandas() if pandas else frame

    @property
    def games(self) -> pl.DataFrame:
        return self.table("games")

    @property
    def seats(self) -> pl.DataFrame:
        return self.table("seats")

    @property
    def cards(self) -> pl.DataFrame:
        return self.table("cards")

    @property
    def actions(self) -> pl.DataFrame:
        """How often each seat chose each kind of action (analysis.actions): one row per seat and kind,
        `count`, the seat's `decisions`, `share`; empty for a folder written before action counts."""
        from balance.analysis.actions import load_actions

        return load_actions(self.folder, self.spec)

    @property
    def report(self) -> Path:
        return self.folder / "report.html"

    @property
    def result(self) -> dict | None:
        """The folder's own result (impact.json, ladder.json, tuning.json, campaign.json, comparison.json),
        or None for a plain run or sweep, as a dict; every one is read through its schema (`typed`): an older
        or damaged file raises BalanceError."""
        for name in RESULT_FILES:
            if (self.folder / name).is_file():
                return _read_result(self.folder / name)
        return None

    @property
    def typed(self):
        """The folder's result as its typed schema (balance.analysis.compare_result.ComparisonResult,
        impact_result.ImpactResult, ladder_result.LadderFile, tuning_result.TuningResult,
        campaign_result.CampaignResult): fields as attributes; a plain run's or sweep's is its summary.json
        (summary_result.SummaryResult), None when it has none yet."""
        for name in RESULT_FILES:
            if (self.folder / name).is_file() and name in _typed_files():
                return _typed_files()[name].read(self.folder / name)
        return self.typed_summary if (self.folder / "summary.json").is_file() else None


def _typed_files() -> dict:
    from balance.analysis.campaign_result import CampaignResult
    from balance.analysis.compare_result import ComparisonResult
    from balance.analysis.impact_result import ImpactResult
    from balance.analysis.ladder_result import LadderFile
    from balance.analysis.tuning_result import TuningResult

    return {m.FILE: m for m in (ComparisonResult, ImpactResult, LadderFile, TuningResult, CampaignResult)}


def _read_result(path: Path) -> dict:
    """A result file as a dict; a file with a schema read through it (refused if older or damaged)."""
    model = _typed_files().get(path.name)
    if model is not None:
        return model.read(path).model_dump(mode="json", by_alias=True)
    return json.loads(path.read_text())


@dataclass
class Comparison:
    """`compare`'s result (comparison.json, as a dict; `typed`: as its schema) and the folder it played in."""

    folder: Path
    result: dict

    @property
    def typed(self):
        """comparison.json as balance.analysis.compare_result.ComparisonResult: fields as attributes."""
        from balance.analysis.compare_result import ComparisonResult

        return ComparisonResult.read(self.folder)

    @property
    def run(self) -> Run:
        return Run(self.folder)


def load(folder: str | Path) -> Run:
    """Any run folder (simulate, sweep, compare): its tables by name."""
    from balance.analysis.runs import load_manifest

    folder = Path(folder)
    load_manifest(folder)  # refuses a folder that is not a run folder, by name
    return Run(folder)


RESULT_FILES = ("comparison.json", "impact.json", "ladder.json", "tuning.json", "campaign.json")
ALIASES = {"out": "out_dir", "set": "set_"}  # --out, --set: the names a Python call can use


def _written(name: str, args: tuple, given: dict) -> str:
    shown = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in given.items()]
    return f"balance.{name}({', '.join(shown)})"


def _command(name: str, first: tuple[str, ...] = (), returns=None):
    """The API function of command `name` (the command's own function, through balance/cli/api.py)."""
    from balance.cli import api

    def function(*args, **kwargs):
        if len(args) > len(first):
            raise BalanceError(f"{name}: at most {len(first)} positional argument(s) ({', '.join(first) or 'none'}); "
                               "give the others by name")
        given = dict(zip(first, args))
        for key, value in kwargs.items():
            key = ALIASES.get(key, key)
            if key in given:
                raise BalanceError(f"{name}: {key} given twice")
            given[key] = value
        result = api.call(name, given, _written(name, args, kwargs))
        return returns(result) if returns is not None and result is not None else result

    function.__name__ = function.__qualname__ = name.replace("-", "_")
    function.__signature__ = api.signature(name, first)
    function.__doc__ = (api.click_command(name).help or "") + f"\n\nThe command `balance {name}`; see the module's help."
    return function


def _folder(path) -> "Run":
    """What a command that writes a folder returns: a Comparison for compare's, else a Run."""
    folder = Path(path)
    if (folder / "comparison.json").is_file():
        return Comparison(folder, _read_result(folder / "comparison.json"))
    return Run(folder)


# name -> (the positional parameters, what the call returns); built when first used (module __getattr__),
# so that importing balance.simcore in a worker process does not import the command line
COMMANDS = {"simulate": (("game",), _folder), "sweep": (("game",), _folder), "compare": (("run_a", "run_b"), _folder),
            "impact": (("game",), _folder), "ladder": (("game",), _folder), "tune": (("game",), _folder),
            "campaign": (("game",), _folder), "replay": (("folder",), None), "report": (("folder",), None),
            "export": (("run", "dest"), None)}


def __getattr__(name: str):
    if name in COMMANDS:
        function = _command(name, *COMMANDS[name])
        globals()[name] = function
        return function
    raise AttributeError(f"module 'balance' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(COMMANDS))


def cards_export(game: str = "overtime", file: str | Path | None = None, force: bool = False) -> Path:
    """Write a game's own card list to FILE (.toml as shipped, .csv for a spreadsheet), as `balance cards
    export`; returns the file written."""
    from balance.cli.cards import export_card_list

    target, _ = export_card_list(game, Path(file) if file is not None else None, force)
    return target
