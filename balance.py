"""`balance` from Python: run simulations, sweeps and comparisons, and read
any run folder's tables by name, as polars or pandas frames.

    import balance

    run = balance.simulate("overtime", n=20_000, seed=1)          # a run folder, like the CLI's
    run.summary["win_rate"], run.summary["win_rate_ci"]
    run.games                      # polars: one row per game
    run.seats.to_pandas()          # one row per game and seat
    run.table("cards", pandas=True)

    sweep = balance.sweep("sickdays-solo", vary={"ready_pizzas": "0..6"}, n=2_000, level=4)
    sweep.summary["variants"][0]["win_rate"]

    cmp = balance.compare("overtime", a={"rounds": 8}, b={"rounds": 7}, n=20_000)
    cmp.result["metrics"][0]       # B - A with its interval and verdict

    old = balance.load("runs/overtime-20261201-120000")         # any run folder

Every function takes the options of its command (`balance simulate --help`):
rule parameters as a dict (`params={"rounds": 7}`, like `--set`), one policy
for every seat or a list (like `--policy`), policy parameters as a dict with
the keys of `--policy-param` (`{"epsilon": 0.1}` every seat, `{"2:epsilon": 1}`
seat 2, `{"greedy.epsilon": 0.2}` every greedy seat).
Bad input raises `balance.BalanceError` with the command line's message.
docs/api.md has a worked example.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from simcore.errors import BalanceError

__all__ = ["BalanceError", "Run", "Comparison", "games", "policies", "simulate", "sweep", "compare", "load"]

TABLES = ("games", "seats", "cards")


def games() -> list[str]:
    """The games this build holds (the `--game` names)."""
    from simcore import registry

    return registry.names()


def policies(game: str) -> list[str]:
    """The built-in policies of a game."""
    from simcore import registry

    return [p.name for p in registry.get(game).policies]


@dataclass
class Run:
    """A run folder: its manifest, summary and tables (read when first asked for)."""

    folder: Path
    _frames: dict = field(default_factory=dict, repr=False)

    @property
    def manifest(self) -> dict:
        from analysis.runs import load_manifest

        return load_manifest(self.folder)

    @property
    def summary(self) -> dict:
        path = self.folder / "summary.json"
        if not path.is_file():
            raise BalanceError(f"{self.folder}: no summary.json; rebuild it with: balance report {self.folder}")
        return json.loads(path.read_text())

    @property
    def spec(self):
        from simcore import registry

        return registry.get(self.manifest["config"]["game"])

    def table(self, name: str, pandas: bool = False):
        """One of the run's tables by name: "games", "seats" or "cards"."""
        from analysis import frames

        if name not in TABLES:
            raise BalanceError(f"table: '{name}' is not a table of a run folder; allowed: {', '.join(TABLES)}")
        if name not in self._frames:
            spec = self.spec
            loaders = {"games": lambda: frames.load_games(self.folder, spec),
                       "seats": lambda: frames.load_seats(self.folder, spec),
                       "cards": lambda: frames.load_cards(self.folder)}
            self._frames[name] = loaders[name]()
        frame: pl.DataFrame = self._frames[name]
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
    def report(self) -> Path:
        return self.folder / "report.html"


@dataclass
class Comparison:
    """`compare`'s result (the dict of comparison.json) and the folder it played in."""

    folder: Path
    result: dict

    @property
    def run(self) -> Run:
        return Run(self.folder)


def load(folder: str | Path) -> Run:
    """Any run folder (simulate, sweep, compare): its tables by name."""
    from analysis.runs import load_manifest

    folder = Path(folder)
    load_manifest(folder)  # refuses a folder that is not a run folder, by name
    return Run(folder)


def _setup(game: str, players: int | None, policy, policy_params: dict | None, params: dict | None,
           level: int | None):
    from simcore import registry
    from simcore.batch import parse_policies
    from simcore.params import user_params

    spec = registry.get(game)
    n_players = spec.default_players if players is None else int(players)
    if not spec.min_players <= n_players <= spec.max_players:
        raise BalanceError(f"players: {n_players} is not allowed for {spec.name}; "
                           f"allowed: {spec.min_players}..{spec.max_players}")
    names = [policy] if isinstance(policy, str) else list(policy or ["greedy"])
    # the command line's parser: {"epsilon": 0.1} every seat, {"2:epsilon": 1} seat 2, {"greedy.epsilon": 0.2}
    seats = parse_policies(spec, names, [f"{k}={v}" for k, v in (policy_params or {}).items()], n_players)
    extra = {"level": level} if level is not None else {}
    user = user_params(spec, [f"{k}={_cli_value(v)}" for k, v in (params or {}).items()], None, extra)
    return spec, n_players, seats, user


def _cli_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


def _play(spec, config, folder: Path, n: int, command: str, kind: str, precision: float | None) -> None:
    from analysis import preflight, runs
    from analysis.summary import write_summary
    from reports import render_run_report

    preflight.check_out(folder, spec, config, n)  # read only: a refusal leaves the folder as it was
    runs.open_run(folder, spec, config, n, command, kind)
    runs.execute(folder, spec, config, n, None, runs.Prepared(spec, config), precision)
    write_summary(folder, spec)
    render_run_report(folder, spec)


def _folder(out: str | Path | None, name: str) -> Path:
    from analysis.runs import new_run_dir

    return Path(out) if out is not None else new_run_dir(Path("runs"), name)


def simulate(game: str, n: int = 100_000, seed: int = 1, players: int | None = None, policy="greedy",
             policy_params: dict | None = None, params: dict | None = None, level: int | None = None,
             out: str | Path | None = None, chunk_size: int | None = None, precision: float | None = None) -> Run:
    """Play n games (as `balance simulate`) into a run folder and summarise them."""
    from analysis import runs

    spec, n_players, seats, user = _setup(game, players, policy, policy_params, params, level)
    config = runs.make_config(spec, user, n_players, seats, seed, n, chunk_size)
    folder = _folder(out, spec.name)
    _play(spec, config, folder, n, f"balance.simulate({game!r}, n={n}, seed={seed})", "run", precision)
    return Run(folder)


def sweep(game: str, vary: dict[str, str], n: int = 20_000, seed: int = 1, players: int | None = None,
          policy="greedy", policy_params: dict | None = None, params: dict | None = None, level: int | None = None,
          out: str | Path | None = None, chunk_size: int | None = None) -> Run:
    """Play every point of a grid on the same deals (as `balance sweep`):
    vary={"ready_pizzas": "0..6", "max_weeks": "4,6,8"}."""
    from analysis.sweep import grid, sweep_config

    spec, n_players, seats, user = _setup(game, players, policy, policy_params, params, level)
    points = grid(spec, [f"{k}={v}" for k, v in vary.items()])
    config = sweep_config(spec, user, points, n_players, seats, seed, n, chunk_size)
    folder = _folder(out, f"{spec.name}-sweep")
    _play(spec, config, folder, n, f"balance.sweep({game!r}, vary={vary!r}, n={n}, seed={seed})", "sweep", None)
    return Run(folder)


def compare(game: str, a: dict | None = None, b: dict | None = None, n: int = 20_000, seed: int = 1,
            players: int | None = None, policy="greedy", policy_params: dict | None = None,
            params: dict | None = None, level: int | None = None, out: str | Path | None = None) -> Comparison:
    """Play side A and side B on the same seeds (as `balance compare --game`):
    a={"rounds": 8}, b={"rounds": 7}, or b={"cards": "my-cards.toml"}."""
    from analysis.compare import compare_runs, write_comparison
    from analysis.runs import RunConfig, Variant, default_chunk_size
    from simcore.params import resolve, user_params

    spec, n_players, seats, base = _setup(game, players, policy, policy_params, params, level)

    def side(values):
        return user_params(spec, [f"{k}={_cli_value(v)}" for k, v in (values or {}).items()])

    va, vb = side(a), side(b)
    variants = [Variant("A", resolve(spec, {**base, **va}), va), Variant("B", resolve(spec, {**base, **vb}), vb)]
    config = RunConfig(spec.name, spec.modes[0], n_players, seats, seed, variants, default_chunk_size(n))
    folder = _folder(out, f"{spec.name}-compare")
    _play(spec, config, folder, n, f"balance.compare({game!r}, a={a!r}, b={b!r}, n={n}, seed={seed})", "sweep", None)
    result = compare_runs(folder, folder, "A", "B")
    from reports import render_compare_report

    write_comparison(folder, result, f"balance.compare({game!r}, a={a!r}, b={b!r}, n={n}, seed={seed})")
    render_compare_report(folder, result)
    return Comparison(folder, result)
