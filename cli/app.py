"""`balance`: thin Typer commands over simcore, analysis and reports.

Every bad input is a `BalanceError` (or a Typer usage error): one message on
stderr naming the option or file, the field and the allowed values, exit 2,
no traceback.
"""
from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import inspect
import shlex
import sys
import typing
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from typer.core import TyperCommand, TyperGroup

from balance.simcore.errors import BalanceError, InvariantBroken


def _no_type(ctx):
    return None


def _flags_without_placeholder(params):
    """A flag takes no value: no `<bool>` after it in the help (`--quiet true` is an error); an argument's
    name (FOLDER, RUN_A) says what it is: no `<path>` beside it."""
    from typer.core import TyperArgument

    for p in params:
        if getattr(p, "is_flag", False) and p.metavar is None:
            p.metavar = ""
        if isinstance(p, TyperArgument) and p.metavar:
            p.display_type_rich = _no_type
    return params


class _NoFlagPlaceholder:
    """Flags (--help included) show no value placeholder: mixed into the app's command and group classes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _flags_without_placeholder(self.params)

    def get_params(self, ctx):
        return _flags_without_placeholder(super().get_params(ctx))


class Command(_NoFlagPlaceholder, TyperCommand):
    """A command whose flags (--help included) show no value placeholder."""


class Group(_NoFlagPlaceholder, TyperGroup):
    """The app's group: its own flags (--version, --help) show no placeholder either."""


app = typer.Typer(
    cls=Group,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Monte Carlo balance analysis for tabletop card games.",
)
# wide enough for the tables when the output is a file or a pipe
out = Console() if sys.stdout.isatty() else Console(width=160, soft_wrap=True)  # piped output: a line is never broken
err = Console(stderr=True)

# The one grammar (issue 18 item 5): an option shared by several commands is defined
# once here (SharedOptions' fields, the game, -n and --vary), so it has one name, one
# placeholder and one help text everywhere (tests/cli/test_grammar.py walks every
# command and checks it). Folders are arguments (`balance report FOLDER`, `compare
# RUN_A RUN_B`, `replay FOLDER`); switches are flags (`--quiet`, never `--quiet true`).
GAME_HELP = "the game (see `balance games`)"
GameOpt = Annotated[str, typer.Option("--game", "-g", metavar="GAME", help=GAME_HELP)]
MaybeGameOpt = Annotated[Optional[str], typer.Option("--game", "-g", metavar="GAME", help=GAME_HELP)]
GAMES_HELP = ("number of games (sweep: per grid point; compare: per side; tune: per finalist; "
              "bench: per measurement; impact: per variant, the baseline too; ladder: per cheap rung, the search "
              "rungs play --search-share of them, default per game; playtests: per setting and skill rung)")


def games_opt(minimum: int = 1):
    return typer.Option("-n", "--games", metavar="N", min=minimum, help=GAMES_HELP)


VaryOpt = Annotated[list[str], typer.Option(
    "--vary", metavar="NAME=SPEC", help="a parameter to vary, NAME=SPEC: 0..6, 0.1..0.5:0.1, 3,4,5 or "
    "4-7-10|5-8-11 (repeat for a grid)")]
FOLDER_HELP = "a folder written by simulate, sweep, compare, tune, campaign, impact or ladder"


@dataclasses.dataclass
class SharedOptions:
    """The options several commands share, as one object: a command takes the ones `@options` names, each
    declared here once with its usual default; one it does not take keeps that default."""
    game: MaybeGameOpt = None
    players: Annotated[Optional[int], typer.Option("--players", "-p", metavar="N", help="number of players")] = None
    level: Annotated[Optional[int], typer.Option(
        "--level", metavar="LEVEL", help="difficulty level (games that have levels)")] = None
    policy: Annotated[Optional[list[str]], typer.Option(
        "--policy", metavar="NAME", help="policy for every seat, or one per seat (repeat or comma-separate); "
        "built-ins per `balance policies --game G`, or path/to/file.py:function")] = None
    policy_param: Annotated[Optional[list[str]], typer.Option(
        "--policy-param", metavar="NAME=VALUE", help="policy parameter (repeat for several): NAME=VALUE for every seat "
        "(epsilon=0.1), SEAT:NAME=VALUE for one seat, 1..players (2:epsilon=1), POLICY.NAME=VALUE for the seats "
        "playing POLICY (greedy.epsilon=0.2); the more particular wins; see `balance policies --game G`")] = None
    n: Annotated[int, games_opt()] = 100_000
    seed: Annotated[int, typer.Option("--seed", metavar="SEED", help="master seed: same seed, same games")] = 1
    set_: Annotated[Optional[list[str]], typer.Option(
        "--set", metavar="NAME=VALUE", help="rule parameter NAME=VALUE; lists as 5,8,11 (see `balance games`)")] = None
    params: Annotated[Optional[Path], typer.Option(
        "--params", metavar="FILE", help="TOML file of rule parameters")] = None
    out_dir: Annotated[Optional[Path], typer.Option(
        "--out", metavar="FOLDER", help="the folder to write (default: a new folder under runs/); a run folder is "
        "resumed")] = None
    chunk_size: Annotated[Optional[int], typer.Option(
        "--chunk-size", metavar="N", min=1, help="games per chunk (results do not depend on it)")] = None
    threads: Annotated[Optional[int], typer.Option(
        "--threads", metavar="N", help="worker threads (default: all cores)")] = None
    precision: Annotated[Optional[float], typer.Option(
        "--precision", metavar="WIDTH", min=1e-5, max=0.5,
        help="keep adding chunks until the widest 95% interval of the win rates is below this (or -n is reached); "
        "impact and compare stop all their variants together, so every game keeps its pair")] = None
    scheduler: Annotated[Optional[str], typer.Option(
        "--scheduler", metavar="ADDRESS", help="Dask scheduler address, e.g. tcp://host:8786: play the chunks on that "
        "cluster")] = None
    workers: Annotated[Optional[int], typer.Option(
        "--workers", metavar="N", min=1, help="play the chunks on a local Dask cluster of N worker processes")] = None
    check: Annotated[bool, typer.Option("--check", help="check the game's invariants after every step (slower); "
                                        "stop at the first broken one with a replay command")] = False
    margin: Annotated[float, typer.Option(
        "--margin", metavar="SHARE", min=0.0, max=0.5,
        help="practical significance, in win-rate points as a share (0.02 = 2 points): a difference inside it is "
             "'balanced within the margin', one beyond it 'differs by more than the margin'")] = 0.02
    skill_check: Annotated[Optional[int], typer.Option(
        "--skill-check", metavar="DEALS", min=0,
        help="also play this many of the same deals (per variant) with expert at every seat, so every verdict says "
             "whether it holds for stronger players (default: 1,000 deals, or 2,000 split over the variants; "
             "0 skips it)")] = None
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar or status lines")] = False

    def setting(self):
        """What a command that plays is asked to play, read as every such command reads it and checked in this
        order before anything compiles or is written: (spec, players, seats, user parameters)."""
        spec = _spec(self.game)
        n_players = _players(spec, self.players)
        return (spec, n_players, _policies(spec, self.policy, self.policy_param, n_players),
                _user_params(spec, self.set_, self.params, self.level))


def options(order: str, **defaults):
    """A command's options in the order its --help lists them (`order`: parameter names, space-separated). A name
    the command's function declares is its own; any other is a SharedOptions field, with this command's default
    from `defaults` (game="overtime") or the field's own, and reaches the function as one SharedOptions object,
    its parameter annotated SharedOptions. Typer, and the Python API (cli/api.py), see every option as a
    parameter of its own, in `order`."""

    def deco(f):
        hints = typing.get_type_hints(f, include_extras=True)
        holder = next(name for name, hint in hints.items() if hint is SharedOptions)
        own = {p.name: p.replace(annotation=hints[p.name])
               for p in inspect.signature(f).parameters.values() if p.name != holder}
        shared = [name for name in order.split() if name not in own]
        fields = {field.name: field.default for field in dataclasses.fields(SharedOptions)}
        wrong = (set(own) - set(order.split())) | (set(shared) - set(fields)) | (set(defaults) - set(shared))
        if wrong:
            raise TypeError(f"{f.__name__}: options() and the function disagree on {', '.join(sorted(wrong))}")
        shared_hints = typing.get_type_hints(SharedOptions, include_extras=True)
        params = []
        for name in order.split():
            if name in own:
                params.append(own[name])
                continue
            default = defaults.get(name, fields[name])
            hint = GameOpt if name == "game" and default is not None else shared_hints[name]  # a default: not optional
            params.append(inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default,
                                            annotation=hint))

        def command_function(**kw):
            return f(**{holder: SharedOptions(**{name: kw.pop(name) for name in shared})}, **kw)

        command_function.__name__ = command_function.__qualname__ = f.__name__
        command_function.__doc__, command_function.__module__ = f.__doc__, f.__module__
        command_function.__signature__ = inspect.Signature(params)
        command_function.__annotations__ = {p.name: p.annotation for p in params}
        return command_function

    return deco


def _check_shared(kw: dict) -> None:
    """Options every command shares, checked before anything is written."""
    from balance.analysis.runs import check_out_path, check_seed

    if kw.get("seed") is not None:
        check_seed(kw["seed"])
    out_dir = kw.get("out_dir")
    if out_dir is not None:
        if Path(out_dir) == Path("."):
            raise BalanceError("--out: '' (or '.') is the current folder; allowed: a folder of its own, e.g. --out runs/x")
        check_out_path(out_dir)


# The Python API (balance/__init__.py, through cli/api.py) calls these same command functions: while it does,
# API_CALL holds the call as written in Python (the command recorded in the folder) and errors are raised
# (BalanceError), not printed; COMMANDS: name -> the command's own function.
API_CALL: contextvars.ContextVar[str | None] = contextvars.ContextVar("balance_api_call", default=None)
COMMANDS: dict = {}


def command(*args, **kwargs):
    """`app.command` whose BalanceErrors become one line on stderr and exit 2
    (an invariant broken under --check: one line and exit 1); a full disk
    met outside the run folder's own writes is reported the same way."""

    def deco(f):
        @functools.wraps(f)
        def wrapper(*a, **kw):
            python = API_CALL.get() is not None  # called from Python (balance.simulate...): errors are raised
            try:
                with _signals():
                    _check_shared(kw)
                    return f(*a, **kw)
            except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM: what was kept is said where it was kept
                _announce(exc, "interrupted")
                if python:
                    raise
                raise typer.Exit(143 if isinstance(exc, Terminated) else 130) from None
            except BalanceError as exc:
                if python:
                    raise
                err.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
                raise typer.Exit(2) from None
            except OSError as exc:
                from balance.analysis.store import is_disk_full

                if not is_disk_full(exc):
                    raise
                text = (f"cannot write {exc.filename or 'a file'} ({exc.strerror}); the committed chunks are "
                        "kept: free some space and run the same command again")
                if python:
                    raise BalanceError(text) from None
                err.print(f"error: {text}", markup=False, highlight=False, soft_wrap=True)
                raise typer.Exit(2) from None
            except InvariantBroken as exc:  # an engine bug found by --check, not bad input
                if python:
                    raise
                err.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
                raise typer.Exit(1) from None

        COMMANDS[(kwargs.get("name") or (args[0] if args else None) or f.__name__).replace("_", "-")] = wrapper

        kwargs.setdefault("cls", Command)
        return app.command(*args, **kwargs)(wrapper)

    return deco


def _version(value: bool):
    if value:
        from balance.analysis.runs import package_version

        out.print(f"balance {package_version()}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="show the version")] = False,
):
    """Monte Carlo balance analysis for tabletop card games."""


def _threads(threads: int | None) -> None:
    if threads is None:
        return
    import numba

    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise BalanceError(f"--threads: {threads} is not allowed; allowed: 1..{numba.config.NUMBA_NUM_THREADS}")
    numba.set_num_threads(threads)


def _spec(game: str):
    from balance.simcore import registry

    return registry.get(game)


def _players(spec, players: int | None) -> int:
    n = spec.default_players if players is None else players
    if not spec.min_players <= n <= spec.max_players:
        raise BalanceError(f"--players: {n} is not allowed for {spec.name}; allowed: {spec.min_players}..{spec.max_players}")
    return n


def _policies(spec, policy: list[str] | None, policy_params: list[str] | None, players: int | None = None):
    """--policy and --policy-param, as every command reads them (simcore.batch.parse_policies): checked against
    the game and the number of players (default: the game's) before anything compiles or is written."""
    from balance.simcore.batch import parse_policies

    return parse_policies(spec, policy, policy_params, spec.default_players if players is None else players)


def _seats_words(spec, seats, players: int) -> str:
    """'greedy' when every seat plays it at its defaults, else each seat's policy with its changed parameters."""
    from balance.simcore.batch import seat_labels

    labels = seat_labels(spec, seats, players)
    if len(set(labels)) == 1:
        return labels[0] + (" (every seat)" if players > 1 and labels[0] != seats[0].name else "")
    return ", ".join(f"seat {i + 1} {lab}" for i, lab in enumerate(labels))


def _user_params(spec, sets, params_file, level):
    from balance.simcore.params import user_params

    extra = {}
    if level is not None:
        if spec.param("level") is None:
            raise BalanceError(f"--level: {spec.name} has no difficulty levels")
        extra["level"] = level
    return user_params(spec, sets, params_file, extra)


def _first_compile(spec, seats, engine=None, traced: bool = False, checked: bool = False, say: bool = True) -> None:
    """Before the games: when the engine's loop is not in the compile cache, say so (unless not `say`: --quiet)
    and compile it in child processes; nothing when it is ready (`traced`: the replay loop; `checked`: the
    loop that checks invariants, --check)."""
    from balance.simcore.batch import Engine
    from balance.simcore.precompile import compiling_ahead, in_child

    from .first_run import status

    engine = engine if engine is not None else Engine(spec, seats)
    st = status(spec, engine, traced, checked, ahead=not traced and compiling_ahead(spec, engine, checked))
    if st.line and say:
        err.print(st.line, markup=False, highlight=False, soft_wrap=True)
    if st.warm is False:
        # compiled in child processes: this one loads the loop from the cache and does not keep
        # the compiler's memory through its games (simcore/precompile.py)
        if in_child(spec, engine, checked, traced=traced) is False and say:
            err.print("(the compile in a child process failed: compiling in this one, which keeps its memory)",
                      markup=False, highlight=False, soft_wrap=True)


def _command_line() -> str:
    called = API_CALL.get()
    return called if called is not None else "balance " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _notice(text: str) -> None:
    err.print(text, markup=False, highlight=False, soft_wrap=True)


class Terminated(KeyboardInterrupt):
    """SIGTERM: a run stops as on Ctrl-C (its committed chunks kept, the folder let go), exit status 143."""


def _on_sigterm(signum, frame):
    raise Terminated()


@contextlib.contextmanager
def _signals():
    """While a command runs: SIGTERM stops it as Ctrl-C does (Python's default would end the process on the
    spot, saying nothing). Only in the main thread, where Python runs signal handlers."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


@contextlib.contextmanager
def _nothing_kept(what: str):
    """Ctrl-C in a command that writes its folder only when it ends (tune, campaign): say that nothing is kept."""
    try:
        yield
    except KeyboardInterrupt as exc:
        _announce(exc, f"interrupted: {what} writes its folder only when it ends, so nothing was kept; rerun the same "
                       "command to start again")
        raise


def _games_kept(run_dir: Path, config, n_games: int) -> tuple[int, int]:
    """(games committed, games the command asks for) over every variant of a run folder."""
    from balance.analysis import runs

    total = sum(runs.variant_games(v, n_games) for v in config.variants)
    return total - sum(t[3] for t in runs.missing_tasks(Path(run_dir), config, n_games)), total


def _announce(exc: BaseException, text: str) -> None:
    if not getattr(exc, "announced", False):
        _notice(text)
        exc.announced = True


def main() -> None:
    app()

