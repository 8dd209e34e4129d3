"""`balance`: thin Typer commands over simcore, analysis and reports.

Every bad input is a `BalanceError` (or a Typer usage error): one message on
stderr naming the option or file, the field and the allowed values, exit 2,
no traceback.
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import json
import shlex
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table
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


class Command(TyperCommand):
    """A command whose flags (--help included) show no value placeholder."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _flags_without_placeholder(self.params)

    def get_params(self, ctx):
        return _flags_without_placeholder(super().get_params(ctx))


class Group(TyperGroup):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _flags_without_placeholder(self.params)

    def get_params(self, ctx):
        return _flags_without_placeholder(super().get_params(ctx))


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
# once here, so it has one name, one placeholder and one help text everywhere
# (tests/cli/test_grammar.py walks every command and checks it). Folders are
# arguments (`balance report FOLDER`, `compare RUN_A RUN_B`, `replay FOLDER`);
# switches are flags (`--quiet`, never `--quiet true`).
GAME_HELP = "the game (see `balance games`)"
GameOpt = Annotated[str, typer.Option("--game", "-g", metavar="GAME", help=GAME_HELP)]
MaybeGameOpt = Annotated[Optional[str], typer.Option("--game", "-g", metavar="GAME", help=GAME_HELP)]
PlayersOpt = Annotated[Optional[int], typer.Option("--players", "-p", metavar="N", help="number of players")]
LevelOpt = Annotated[Optional[int], typer.Option("--level", metavar="LEVEL", help="difficulty level (games that have levels)")]
PolicyOpt = Annotated[Optional[list[str]], typer.Option(
    "--policy", metavar="NAME", help="policy for every seat, or one per seat (repeat or comma-separate); "
    "built-ins per `balance policies --game G`, or path/to/file.py:function")]
PolicyParamOpt = Annotated[Optional[list[str]], typer.Option(
    "--policy-param", metavar="NAME=VALUE", help="policy parameter (repeat for several): NAME=VALUE for every seat "
    "(epsilon=0.1), SEAT:NAME=VALUE for one seat, 1..players (2:epsilon=1), POLICY.NAME=VALUE for the seats playing "
    "POLICY (greedy.epsilon=0.2); the more particular wins; see `balance policies --game G`")]
SetOpt = Annotated[Optional[list[str]], typer.Option(
    "--set", metavar="NAME=VALUE", help="rule parameter NAME=VALUE; lists as 5,8,11 (see `balance games`)")]
ParamsFileOpt = Annotated[Optional[Path], typer.Option("--params", metavar="FILE", help="TOML file of rule parameters")]
SeedOpt = Annotated[int, typer.Option("--seed", metavar="SEED", help="master seed: same seed, same games")]
GAMES_HELP = ("number of games (sweep: per grid point; compare: per side; tune: per finalist; "
              "bench: per measurement; impact: per variant, the baseline too; ladder: per cheap rung, the search "
              "rungs play --search-share of them, default per game; playtests: per setting and skill rung)")


def games_opt(minimum: int = 1):
    return typer.Option("-n", "--games", metavar="N", min=minimum, help=GAMES_HELP)


OutOpt = Annotated[Optional[Path], typer.Option(
    "--out", metavar="FOLDER", help="the folder to write (default: a new folder under runs/); a run folder is "
    "resumed")]
ChunkOpt = Annotated[Optional[int], typer.Option(
    "--chunk-size", metavar="N", min=1, help="games per chunk (results do not depend on it)")]
PrecisionOpt = Annotated[Optional[float], typer.Option(
    "--precision", metavar="WIDTH", min=1e-5, max=0.5,
    help="keep adding chunks until the widest 95% interval of the win rates is below this (or -n is reached); "
    "impact and compare stop all their variants together, so every game keeps its pair")]
SchedulerOpt = Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="ADDRESS", help="Dask scheduler address, e.g. tcp://host:8786: play the chunks on that "
    "cluster")]
WorkersOpt = Annotated[Optional[int], typer.Option(
    "--workers", metavar="N", min=1, help="play the chunks on a local Dask cluster of N worker processes")]
ThreadsOpt = Annotated[Optional[int], typer.Option("--threads", metavar="N", help="worker threads (default: all cores)")]
MarginOpt = Annotated[float, typer.Option(
    "--margin", metavar="SHARE", min=0.0, max=0.5,
    help="practical significance, in win-rate points as a share (0.02 = 2 points): a difference inside it is "
         "'balanced within the margin', one beyond it 'differs by more than the margin'")]
CheckOpt = Annotated[bool, typer.Option("--check", help="check the game's invariants after every step (slower); "
                                        "stop at the first broken one with a replay command")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar or status lines")]
SkillCheckOpt = Annotated[Optional[int], typer.Option(
    "--skill-check", metavar="DEALS", min=0,
    help="also play this many of the same deals (per variant) with expert at every seat, so every verdict says "
         "whether it holds for stronger players (default: 1,000 deals, or 2,000 split over the variants; "
         "0 skips it)")]
VaryOpt = Annotated[list[str], typer.Option(
    "--vary", metavar="NAME=SPEC", help="a parameter to vary, NAME=SPEC: 0..6, 0.1..0.5:0.1, 3,4,5 or "
    "4-7-10|5-8-11 (repeat for a grid)")]
FOLDER_HELP = "a folder written by simulate, sweep, compare, tune, campaign, impact or ladder"


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
    from balance.simcore.precompile import in_child

    from .first_run import status

    engine = engine if engine is not None else Engine(spec, seats)
    st = status(spec, engine, traced, checked)
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


@command()
def games(game: MaybeGameOpt = None):
    """List games, modes, player counts and rule parameters with defaults and ranges; with --game, one game's
    parameters, policies and card list (and whether the list is a reconstruction)."""
    from balance.simcore import registry

    for name in [game] if game is not None else registry.names():
        spec = registry.get(name)
        out.print(f"[bold]{spec.name}[/bold]  {spec.title}  (rules v{spec.version})", highlight=False)
        out.print(f"  modes: {', '.join(spec.modes)}   players: {spec.min_players}-{spec.max_players} (default {spec.default_players})")
        t = Table(show_edge=False, box=None, pad_edge=False)
        for col in ("parameter", "default", "allowed", "meaning"):
            t.add_column(col)
        for p in spec.params:
            if p.internal:  # not a rule (card power's knobs): listed below the table, not among the rules
                continue
            t.add_row(p.name, "from level" if p.default is None else str(p.default), p.allowed(), p.help)
        out.print(t)
        hidden = [p.name for p in spec.params if p.internal]
        if hidden:
            out.print(f"  not rules (set by balance impact and card power): {', '.join(hidden)}", highlight=False)
        if game is not None:
            _game_details(spec)
        out.print()


def _game_details(spec) -> None:
    """`balance games --game G`: the policies and the card list of one game."""
    from collections import Counter

    from balance.simcore.params import resolve

    out.print("\n[bold]policies[/bold]")
    for pol in spec.policies:
        extra = f" (not available: {pol.refused})" if getattr(pol, "refused", None) else ""
        out.print(f"  {pol.name}: {pol.help}{extra}", highlight=False, markup=False)
        for p in pol.params:
            out.print(f"      {p.name} = {p.default:g}   ({p.low:g}..{p.high:g})  {p.help}", highlight=False,
                      markup=False)
    data = spec.load_data(resolve(spec, {}))
    cards = data.cards
    out.print("\n[bold]card list[/bold]")
    if cards is None:
        out.print("  none (this game has no card list)")
        return
    what = ("a reconstruction: invented cards stand in for the printed ones (write it out with "
            "`balance cards export --game G FILE`, type in the printed cards, and pass --set cards=FILE to measure "
            "the printed game)" if cards.reconstruction
            else "the printed deck" if cards.shipped else "a designer's list")
    out.print(f"  {cards.file}: {what}; hash {cards.hash}", highlight=False, markup=False)
    names = Counter(str(c) for c in data.card_names)
    out.print(f"  {len(names):,} distinct cards: "
              + ", ".join(n if k == 1 else f"{n} (x{k})" for n, k in names.items()), highlight=False, markup=False,
              soft_wrap=False)


@command()
def policies(game: GameOpt):
    """List the policies of a game and their parameters."""
    spec = _spec(game)
    for pol in spec.policies:
        out.print(f"[bold]{pol.name}[/bold]: {pol.help}")
        for p in pol.params:
            out.print(f"    {p.name} = {p.default:g}   ({p.low:g}..{p.high:g})  {p.help}")
    out.print("[bold]path/to/file.py:function[/bold]: your own @njit policy (see README)")
    out.print("set a parameter with --policy-param: NAME=VALUE for every seat, SEAT:NAME=VALUE for one seat "
              "(2:epsilon=1), POLICY.NAME=VALUE for the seats playing POLICY (greedy.epsilon=0.2)", highlight=False,
              markup=False)


def _print_summary(summary: dict, run_dir: Path, spec=None) -> None:
    def pct(r):
        return f"{100 * r:.2f}%" if r is not None else "-"

    t = Table(title=f"{summary.get('game')} — {summary.get('n_games'):,} games, seed {summary.get('seed')}")
    t.add_column("metric")
    t.add_column("value", justify="right")
    t.add_column("95% CI", justify="right")
    t.add_column("n", justify="right")
    n = summary.get("n_games")
    wr = summary.get("win_rate")
    ci = summary.get("win_rate_ci") or [None, None]
    t.add_row("win rate", pct(wr), f"{pct(ci[0])} – {pct(ci[1])}", f"{n:,}")
    labels = _summary_seat_labels(summary, spec)
    for s in summary.get("win_rate_by_seat") or []:
        sci = s.get("ci") or [None, None]
        who = labels.get(s["seat"], s.get("policy", ""))
        t.add_row(f"  seat {s['seat'] + 1} ({who})", pct(s.get("value")), f"{pct(sci[0])} – {pct(sci[1])}", f"{s.get('n', 0):,}")
    length = summary.get("length") or {}
    if length:
        lci = length.get("mean_ci") or length.get("ci") or [None, None]
        fmt = lambda x: f"{x:.2f}" if isinstance(x, (int, float)) else "-"  # noqa: E731
        t.add_row("length (turns), mean", fmt(length.get("mean")), f"{fmt(lci[0])} – {fmt(lci[1])}", f"{length.get('n', n):,}")
        t.add_row("length, median [p10, p90]", f"{fmt(length.get('median'))} [{fmt(length.get('p10'))}, {fmt(length.get('p90'))}]", "", "")
    for reason, cnt in (summary.get("end_reasons") or {}).items():
        c = cnt["count"] if isinstance(cnt, dict) else cnt
        if c:
            t.add_row(f"ended: {reason}", f"{c:,}", "", f"{n:,}")
    out.print(t)
    if summary.get("seat_rotation") and spec is not None and isinstance(summary.get("policies"), list):
        from balance.simcore.batch import seat_labels

        pols = summary["policies"]
        out.print(f"policies moved round the table: {', '.join(seat_labels(spec, pols, len(pols)))}", highlight=False)
        for r in ((summary["seat_rotation"].get("policies") or {}).get("seats") or []):
            ci = r.get("ci") or [None, None]
            rng = f" (95% CI {100 * ci[0]:.2f}% – {100 * ci[1]:.2f}%)" if ci[0] is not None else ""
            out.print(f"  {r.get('policy', '?')} wins {100 * r['value']:.2f}%{rng} over every seat, "
                      f"{r.get('n', 0):,} deals", highlight=False)
    _print_verdicts(summary)
    out.print(f"run folder: {run_dir}")


def _summary_seat_labels(summary: dict, spec) -> dict[int, str]:
    """Seat -> its policy with its changed parameters by name ('greedy (epsilon=1)'), from the run's recorded
    policies; none in a seat-rotated run (every policy sits at every seat)."""
    from balance.simcore.batch import seat_labels

    pols, players = summary.get("policies"), summary.get("players")
    if spec is None or summary.get("seat_rotation") or not isinstance(pols, list) or not isinstance(players, int):
        return {}
    if len(pols) not in (1, players):
        return {}
    return dict(enumerate(seat_labels(spec, pols, players)))


def _print_verdicts(summary: dict) -> None:
    """The verdict block (summary.json `verdicts`), one line each, and what stopped the run."""
    if summary.get("stopped_by") == "precision":
        stop = summary.get("stopping") or {}
        out.print(f"complete: stopped by --precision {stop.get('precision')} (every win-rate interval narrower) "
                  f"after {summary.get('n_games'):,} of at most {stop.get('max_games', 0):,} games", highlight=False)
    rot = summary.get("seat_rotation")
    if rot:
        out.print(f"seats rotated: {rot['how']} ({rot['deals']:,} deals)", highlight=False)
    v = summary.get("verdicts") or {}
    for it in v.get("items") or []:
        ci = it.get("ci") or [None, None]
        rng = f"{100 * ci[0]:+.1f} to {100 * ci[1]:+.1f} pts" if ci[0] is not None else "no interval"
        where = f" [{it['variant']}]" if it.get("variant") else ""
        out.print(f"{it['metric']}{where}: {it['words']} (margin ±{100 * v['margin']:.1f} pts; estimate "
                  f"{100 * (it.get('estimate') or 0):+.1f} pts, {100 * it.get('ci_level', 0.95):.4g}% CI {rng}, "
                  f"n = {it.get('n') or 0:,})", highlight=False)
    sc = summary.get("skill_check") or {}
    if sc:  # the skill check, in the report's own words (reports.verdicts)
        from balance.reports.verdicts import run_items, skill_note, skill_verdicts, _one

        for it in run_items(summary):
            said = _one(it)
            note = skill_note(said, it, summary).skill if said is not None else ""
            if note:
                out.print(f"skill check: {note}", highlight=False, markup=False)
        for v in skill_verdicts(summary):
            out.print(f"skill check: {v.sentence}" + (f" ({v.detail})" if v.detail else ""), highlight=False,
                      markup=False)


def run_and_report(spec, config, run_dir: Path, n_games: int, command: str, kind: str = "run", quiet: bool = False,
                   precision: float | None = None, scheduler: str | None = None, workers: int | None = None,
                   margin: float | None = None, skill_check: int | None = 0, check_only: list[str] | None = None,
                   card_power: bool = False) -> dict:
    """Check the folder (read only), compile, then open or resume the folder, play what is missing with a
    progress bar, then the skill check (`skill_check` deals per variant with expert at every seat, None: the
    default, 0: none; `check_only`: the variants it plays, default all), write summary.json and report.html.
    Returns the summary."""
    with opened_run(spec, config, run_dir, n_games, command, kind, quiet, scheduler, workers) as (prepared, executor):
        _play(spec, config, run_dir, n_games, quiet, precision, prepared, executor, paired=kind in PAIRED_KINDS)
        if card_power:
            play_card_power(spec, config, run_dir, n_games, command, quiet, scheduler, workers)
        play_skill_check(spec, config, run_dir, n_games, command, skill_check, check_only, quiet, scheduler, workers)
        # imported after the games, not before: a cold first run's compile children run while this process waits,
        # and the report's libraries (matplotlib, jinja2) would be held through them for nothing
        from balance.analysis.summary import write_summary
        from balance.reports import render_run_report

        summary = json.loads(write_summary(run_dir, spec, margin).read_text())
        render_run_report(run_dir, spec)
        return summary


def play_card_power(spec, config, run_dir: Path, n_games: int, command: str, quiet: bool = False,
                    scheduler: str | None = None, workers: int | None = None) -> None:
    """Card power beside a run (analysis.card_power): the run's first deals with one more copy of each card
    kind for one seat, in RUN/card-power, a run folder of its own. Nothing in a game with no card power."""
    from balance.analysis import card_power as cp

    if spec.cooperative or config.players < 2 or not cp.supported(spec):
        return
    sub, games = cp.run_config(spec, config, n_games)
    if sub is None:
        return
    sub_dir = Path(run_dir) / cp.SUBFOLDER
    with opened_run(spec, sub, sub_dir, games, command, "card-power", quiet, scheduler, workers) as (prepared, executor):
        _play(spec, sub, sub_dir, games, quiet, None, prepared, executor, paired=True,
              label=f"card power: {len(sub.variants) - 1} cards, {games:,} deals each")


def play_skill_check(spec, config, run_dir: Path, n_games: int, command: str, deals: int | None,
                     only: list[str] | None = None, quiet: bool = False, scheduler: str | None = None,
                     workers: int | None = None) -> None:
    """The skill check (analysis.skill_check): the first `deals` deals of each variant (None: the default
    number) again with expert at every seat, in RUN/skill-check, a run folder of its own (resumed like any)."""
    from balance.analysis import skill_check as sc

    if callable(only):  # chosen from the run's own result (impact: the largest effects)
        only = only(run_dir)
    n_variants = len(only) if only is not None else len(config.variants)
    if any("seat_rotation" in (v.varied or {}) for v in config.variants):
        n_variants = 1
    deals = sc.default_deals(n_games, n_variants) if deals is None else min(int(deals), int(n_games))
    sub = sc.check_config(spec, config, deals, only)
    if sub is None:
        return
    sub_dir = sc.folder(run_dir)
    with opened_run(spec, sub, sub_dir, deals, command, "skill-check", quiet, scheduler, workers) as (prepared, executor):
        _play(spec, sub, sub_dir, deals, quiet, None, prepared, executor,
              label=f"skill check: {sc.POLICY} at every seat, {deals:,} deals")


PAIRED_KINDS = ("impact", "compare")  # folders read variant against variant, game by game: --precision stops them together


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


@contextlib.contextmanager
def opened_run(spec, config, run_dir: Path, n_games: int, command: str, kind: str, quiet: bool,
               scheduler: str | None = None, workers: int | None = None):
    """A run folder for the games, opened only once everything is checked (issue 40 item 9): the folder read
    only first (analysis.preflight: another configuration, another build, a file, no room), the executor
    reached (--scheduler, --workers), the engine compiled (a user policy file also played on one game), and
    only then the folder created or resumed ("resuming: N of M games already played"). Yields (prepared,
    executor); Ctrl-C or SIGTERM inside says what was kept ("interrupted: N of M games kept; rerun the same
    command to resume"). The folder is let go when the block ends."""
    from balance.analysis import preflight, runs

    resumed = preflight.check_out(run_dir, spec, config, n_games)
    executor, prepared = None, None
    try:
        if scheduler or workers:
            from balance.analysis.executors import DaskExecutor

            executor = DaskExecutor(config, scheduler, workers)
        else:
            prepared = runs.Prepared(spec, config)
            _first_compile(spec, config.policies, prepared.engine, checked=config.check, say=not quiet)
            _try_user_policy(spec, prepared)
        runs.open_run(run_dir, spec, config, n_games, command, kind, notice=_notice)
        try:  # the folder stays locked until its summary and report are written
            if resumed and not quiet:
                done, total = _games_kept(run_dir, config, n_games)
                _notice(f"resuming: {done:,} of {total:,} games already played")
            yield prepared, executor
        except KeyboardInterrupt as exc:
            done, total = _games_kept(run_dir, config, n_games)
            _announce(exc, f"interrupted: {done:,} of {total:,} games kept; rerun the same command to resume")
            raise
        finally:
            runs.close_run(run_dir)
    except KeyboardInterrupt as exc:  # before the folder was opened
        _announce(exc, f"interrupted: nothing written to {run_dir}" + (" (it is as it was)" if resumed else ""))
        raise
    finally:
        if executor is not None:
            executor.close()


def _try_user_policy(spec, prepared) -> None:
    """A user policy file is compiled with the game's loop and played on one game before the folder is written:
    a function that does not compile (or chooses outside 0..n-1) is refused with nothing left behind."""
    engine = prepared.engine
    if engine.user_ref is None:
        return
    from numba.core.errors import NumbaError

    try:
        prepared.run_task(0, 0, 1)
    except NumbaError as exc:
        raise BalanceError(f"--policy: {engine.user_ref} does not compile with the {spec.name} loop "
                           f"({_numba_words(exc, engine.user_ref)}); allowed: an @njit function with the policy "
                           "signature (see README, Policies)") from None


def _numba_words(exc: Exception, ref: str) -> str:
    """Numba's typing error in one line: what failed, and where in the user's file."""
    import re

    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    lines = [x.strip() for x in text.splitlines() if x.strip() and not x.strip().startswith("Failed in ")]
    what = lines[0] if lines else type(exc).__name__
    if what.endswith(":") and len(lines) > 1:
        what = f"{what} {lines[1]}"
    name = Path(ref.rpartition(":")[0]).name
    where = next((f", {name} line {m.group(2)}" for m in re.finditer(r'File "([^"]+)", line (\d+)', text)
                  if Path(m.group(1)).name == name), "")
    return f"{what[:200]}{where}"


def _play(spec, config, run_dir: Path, n_games: int, quiet: bool, precision: float | None, prepared, executor,
          paired: bool = False, label: str | None = None) -> None:
    """Play what the folder lacks, with a progress bar."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from balance.analysis import runs

    total = sum(runs.variant_games(v, n_games) for v in config.variants)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=err, disable=quiet, transient=False) as bar:
        task = bar.add_task(label or spec.name, total=total)

        def on_chunk(done, total):
            bar.update(task, completed=done, total=total)

        try:
            runs.execute(run_dir, spec, config, n_games, on_chunk, prepared, precision, executor, paired)
        except InvariantBroken as exc:
            exc.run_dir = str(run_dir)
            raise


@command()
def simulate(
    game: GameOpt = "overtime",
    players: PlayersOpt = None,
    level: LevelOpt = None,
    policy: PolicyOpt = None,
    policy_param: PolicyParamOpt = None,
    n: Annotated[int, games_opt()] = 1_000_000,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    params: ParamsFileOpt = None,
    out_dir: OutOpt = None,
    chunk_size: ChunkOpt = None,
    threads: ThreadsOpt = None,
    precision: PrecisionOpt = None,
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    check: CheckOpt = False,
    rotate_seats: Annotated[bool, typer.Option(
        "--rotate-seats", help="play every deal once per rotation of the policies round the table (each policy "
                               "at every seat on the same deal): seat advantage free of who sits where")] = False,
    margin: MarginOpt = 0.02,
    skill_check: SkillCheckOpt = None,
    card_power: Annotated[bool, typer.Option(
        "--card-power/--no-card-power",
        help="also measure what one more copy of each card does for the seat that gets it (competitive games "
             "with a card list; the run's first deals, up to 12,000 a card and a quarter of -n in all)")] = True,
    quiet: QuietOpt = False,
):
    """Play N games, write the run folder (Parquet parts, summary.json) and its HTML report."""
    from balance.analysis import runs

    _threads(threads)
    spec = _spec(game)
    n_players = _players(spec, players)
    seats = _policies(spec, policy, policy_param, n_players)
    user = _user_params(spec, set_, params, level)
    config = runs.make_config(spec, user, n_players, seats, seed, n, chunk_size, rotate_seats=rotate_seats)
    config.check = check
    run_dir = out_dir or runs.new_run_dir(Path("runs"), spec.name)
    summary = run_and_report(spec, config, run_dir, n, _command_line(), quiet=quiet, precision=precision,
                             scheduler=scheduler, workers=workers, margin=margin, skill_check=skill_check,
                             card_power=card_power)
    _print_summary(summary, run_dir, spec)
    out.print(f"report: {run_dir / 'report.html'}")
    return run_dir


@command()
def sweep(
    vary: VaryOpt,
    game: GameOpt = "overtime",
    players: PlayersOpt = None,
    level: LevelOpt = None,
    policy: PolicyOpt = None,
    policy_param: PolicyParamOpt = None,
    n: Annotated[int, games_opt()] = 100_000,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    params: ParamsFileOpt = None,
    out_dir: OutOpt = None,
    chunk_size: ChunkOpt = None,
    threads: ThreadsOpt = None,
    precision: PrecisionOpt = None,
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    check: CheckOpt = False,
    margin: MarginOpt = 0.02,
    skill_check: SkillCheckOpt = None,
    quiet: QuietOpt = False,
):
    """Play every point of a parameter grid on the same deals; one folder, one report."""
    from balance.analysis import runs
    from balance.analysis.sweep import grid, sweep_config

    _threads(threads)
    spec = _spec(game)
    n_players = _players(spec, players)
    seats = _policies(spec, policy, policy_param, n_players)
    user = _user_params(spec, set_, params, level)
    points = grid(spec, vary)
    config = sweep_config(spec, user, points, n_players, seats, seed, n, chunk_size)
    config.check = check
    run_dir = out_dir or runs.new_run_dir(Path("runs"), f"{spec.name}-sweep")
    summary = run_and_report(spec, config, run_dir, n, _command_line(), kind="sweep", quiet=quiet, precision=precision,
                             scheduler=scheduler, workers=workers, margin=margin, skill_check=skill_check)
    _print_sweep(summary, run_dir)
    return run_dir


def _print_sweep(summary: dict, run_dir: Path) -> None:
    t = Table(title=f"sweep: {len(summary.get('variants') or [])} points, seed {summary.get('seed')}")
    t.add_column("point")
    t.add_column("win rate (95% CI)", justify="right")
    t.add_column("n", justify="right")
    t.add_column("length mean", justify="right")
    for v in summary.get("variants") or []:
        ci = v.get("win_rate_ci") or [0, 0]
        length = (v.get("length") or {}).get("mean")
        t.add_row(v.get("name", ""), f"{100 * (v.get('win_rate') or 0):.2f}% ({100 * ci[0]:.2f}–{100 * ci[1]:.2f})",
                  f"{v.get('n_games', 0):,}", f"{length:.2f}" if isinstance(length, (int, float)) else "-")
    out.print(t)
    out.print(f"run folder: {run_dir}\nreport: {run_dir / 'report.html'}")


@command()
def compare(
    run_a: Annotated[Optional[Path], typer.Argument(metavar="RUN_A", help="run folder A (or --game to play A and B now)")] = None,
    run_b: Annotated[Optional[Path], typer.Argument(metavar="RUN_B", help="run folder B")] = None,
    game: MaybeGameOpt = None,
    a_set: Annotated[Optional[list[str]], typer.Option("--a-set", metavar="NAME=VALUE", help="rule parameter of side A only, NAME=VALUE (with --game)")] = None,
    b_set: Annotated[Optional[list[str]], typer.Option("--b-set", metavar="NAME=VALUE", help="rule parameter of side B only, NAME=VALUE (with --game)")] = None,
    a_variant: Annotated[Optional[str], typer.Option("--a-variant", metavar="NAME", help="variant of run A (sweep folders)")] = None,
    b_variant: Annotated[Optional[str], typer.Option("--b-variant", metavar="NAME", help="variant of run B (sweep folders)")] = None,
    players: PlayersOpt = None,
    level: LevelOpt = None,
    policy: PolicyOpt = None,
    policy_param: PolicyParamOpt = None,
    n: Annotated[int, games_opt()] = 100_000,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    params: ParamsFileOpt = None,
    out_dir: OutOpt = None,
    threads: ThreadsOpt = None,
    precision: PrecisionOpt = None,
    margin: MarginOpt = 0.02,
    skill_check: SkillCheckOpt = None,
    quiet: QuietOpt = False,
):
    """Differences in every headline metric between two runs (RUN_A RUN_B), or between two settings played now on
    the same deals (--game G --a-set ... --b-set ...; --set and --params apply to both), with intervals and
    verdicts."""
    from balance.analysis import runs
    from balance.analysis.compare import compare_runs, write_comparison

    _threads(threads)
    if game is not None:
        if run_a is not None or run_b is not None:
            raise BalanceError("compare: give two run folders, or --game with --a-set/--b-set, not both")
        spec = _spec(game)
        n_players = _players(spec, players)
        seats = _policies(spec, policy, policy_param, n_players)
        base = _user_params(spec, set_, params, level)
        from balance.simcore.params import resolve, user_params
        from balance.analysis.runs import RunConfig, Variant, default_chunk_size

        side_a = {**base, **user_params(spec, a_set)}
        side_b = {**base, **user_params(spec, b_set)}
        variants = [Variant("A", resolve(spec, side_a), user_params(spec, a_set)),
                    Variant("B", resolve(spec, side_b), user_params(spec, b_set))]
        config = RunConfig(spec.name, spec.modes[0], n_players, seats, seed, variants, default_chunk_size(n))
        folder = out_dir or runs.new_run_dir(Path("runs"), f"{spec.name}-compare")
        run_and_report(spec, config, folder, n, _command_line(), kind="compare", quiet=quiet, precision=precision,
                       margin=margin, skill_check=skill_check)
        result = compare_runs(folder, folder, "A", "B", margin)
        sides = (folder, folder, "A", "B")
    else:
        if run_a is None or run_b is None:
            raise BalanceError("compare: give two run folders RUN_A RUN_B, or --game G --a-set ... --b-set ...")
        if params is not None or set_ or a_set or b_set or precision is not None or skill_check is not None:
            raise BalanceError("compare: --set, --params, --a-set, --b-set, --precision and --skill-check play new "
                               "games: give them with --game G, not with two run folders")
        from balance.analysis.preflight import check_result_folder

        check_result_folder(out_dir, "comparison.json and report.html")  # before the comparison, not after it
        result = compare_runs(run_a, run_b, a_variant, b_variant, margin)
        sides = (run_a, run_b, a_variant, b_variant)
        folder = out_dir or runs.new_run_dir(Path("runs"), f"{result['game']}-compare")
    from balance.analysis.compare import skill_check as compare_skill_check

    result["skill_check"] = compare_skill_check(*sides, result, margin)
    from balance.reports import render_compare_report
    from balance.reports.comparison import card_diff_of, headline_first

    result["card_diff"] = card_diff_of(result)  # kept in comparison.json: a rebuild needs no card file
    write_comparison(folder, result, _command_line())
    path = render_compare_report(folder, result)
    how = f"paired on the {result['pairing_basis']}" if result["paired"] else "independent samples"
    t = Table(title=f"B vs A ({how}; {result['primary']} first at alpha {result['alpha']:g}, then "
                    f"{result['family_size']} more metrics at alpha/{result['family_size']}, Bonferroni; "
                    f"margin ±{100 * margin:g} pts)")
    for col in ("metric", "A", "B", "B − A (CI)", "CI level", "p (adjusted)", "verdict", "against the margin"):
        t.add_column(col)

    from balance.reports import fmt
    from balance.reports.comparison import _diff, _diff_ci, _level, _value

    for m in headline_first(result):  # the headline first, every number in the reports' one format
        t.add_row(m["metric"], _value(m, "a"), _value(m, "b"), f"{_diff(m)} {_diff_ci(m)}", _level(m),
                  fmt.p(m.get("p_adjusted")), m["verdict"], m["margin_verdict"]["words"])
    out.print(t)
    cd = result.get("card_diff") or {}
    if cd.get("words"):
        out.print(f"cards: {cd['words']}", highlight=False)
    pairing = result.get("pairing") or {}
    said = [result["pairing_words"]] if result.get("pairing_words") else []
    if pairing.get("correlation") is not None:
        said.append(f"correlation of the {result['primary']} game by game {pairing['correlation']:.2f}")
    if pairing.get("words"):  # what the pairing bought, as measured (None when it could not be: no width ratio)
        said.append(pairing["words"])
    if said:
        out.print("pairing: " + "; ".join(said), highlight=False)
    from balance.reports.verdicts import compare_block

    for v in compare_block(result, {}).verdicts:
        if v.skill:
            out.print(f"skill check: {v.skill}", highlight=False, markup=False)
        elif v.code == "count" and v.sentence.startswith("Not checked"):
            out.print(f"skill check: {v.sentence}", highlight=False, markup=False)
    if result.get("dropped"):
        out.print("left out of the family: " + "; ".join(f"{d['metric']} ({d['reason']})" for d in result["dropped"]),
                  highlight=False)
    out.print(f"n: A {result['n_a']:,} games, B {result['n_b']:,} games\nreport: {path}")
    return folder


@command()
def tune(
    vary: VaryOpt,
    target: Annotated[list[str], typer.Option("--target", metavar="TARGET", help="win_rate=0.45..0.55, seat_gap<=0.02, length_median=12..15, ladder=0.99,0.9,...")],
    game: GameOpt = "overtime",
    players: PlayersOpt = None,
    level: LevelOpt = None,
    policy: PolicyOpt = None,
    policy_param: PolicyParamOpt = None,
    n: Annotated[int, games_opt(10)] = 20_000,
    n_screen: Annotated[Optional[int], typer.Option("--screen", metavar="N", help="games per grid point in the screening pass (default n/10)", min=10)] = None,
    keep: Annotated[int, typer.Option("--keep", metavar="N", help="finalists replayed with -n games", min=1)] = 3,
    fresh: Annotated[Optional[int], typer.Option(
        "--fresh", metavar="N", min=10, help="fresh games (never used to choose) that re-measure the pick and its runners-up "
                                "(default: -n)")] = None,
    skill_games: Annotated[Optional[int], typer.Option(
        "--skill-games", metavar="N", min=10, help="at most this many fresh games per skill-sensitivity row (default: --fresh; "
                                      "lookahead plays what a 5-point interval needs, planned from a pilot)")] = None,
    margin: MarginOpt = 0.02,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    params: ParamsFileOpt = None,
    out_dir: OutOpt = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
):
    """Search parameters to hit targets; report the recommendation measured on fresh games, how sure the pick
    is, its runners-up and skill sensitivity."""
    from balance.analysis import runs
    from balance.analysis.sweep import grid
    from balance.analysis.tune import parse_target, tune as run_tune, write_tuning

    _threads(threads)
    spec = _spec(game)
    n_players = _players(spec, players)
    seats = _policies(spec, policy, policy_param, n_players)
    user = _user_params(spec, set_, params, level)
    targets = [parse_target(t) for t in target]
    points = grid(spec, vary)
    from balance.analysis.preflight import check_result_folder

    check_result_folder(out_dir, "tuning.json and report.html")  # before the games, not after them
    _first_compile(spec, seats, say=not quiet)
    with _nothing_kept("tune"), (err.status(f"tuning {spec.name}: {len(points)} grid points") if not quiet
                                 else contextlib.nullcontext()):
        result = run_tune(spec, user, points, targets, n_players, seats, seed, n_screen or max(10, n // 10), n, keep,
                          n_skill=skill_games, n_fresh=fresh, margin=margin)
    folder = out_dir or runs.new_run_dir(Path("runs"), f"{spec.name}-tune")
    from balance.reports import render_tuning_report

    write_tuning(folder, result, _command_line())
    path = render_tuning_report(folder, result)
    t = Table(title=f"tuning {spec.name} for {', '.join(result['targets'])} (policy {_seats_words(spec, seats, n_players)}); "
                    f"{result['games']['words']}")
    t.add_column("")
    t.add_column("recommended")
    t.add_column("fresh win rate (95% CI), n")
    t.add_column("verdict")
    t.add_column("sure it is best?")
    rows = result.get("ladder") or [{"level": "-", **result["recommended"], "recommended": result["recommended"]["point"],
                                     "certainty": result.get("certainty")}]
    for row in rows:
        w = row["measured"]["win_rate"]
        label = f"level {row['level']} (target {row['target']:g})" if "target" in row else "best"
        verdict = row["check"]["words"] if "check" in row else "; ".join(c["words"] for c in row.get("targets") or [])
        if row.get("step"):
            verdict += f"; step {row['step']['status']}"
        sure = (row.get("certainty") or {}).get("words", "only candidate")
        t.add_row(label, ", ".join(f"{k}={v}" for k, v in row["recommended"].items()),
                  f"{100 * w['value']:.1f}% ({100 * w['ci'][0]:.1f}–{100 * w['ci'][1]:.1f}), n={w['n']:,}", verdict, sure)
    out.print(t)
    for row in rows:
        for name, sk in (row.get("skill") or result.get("skill") or {}).items():
            where = f"level {row['level']}: " if "target" in row else ""
            out.print(f"{where}{name}: {sk['vs_assumed']['words']}", highlight=False)
        if "target" not in row:
            break
    out.print(f"report: {path}")
    return folder


@command()
def report(folder: Annotated[Path, typer.Argument(metavar="FOLDER", help=FOLDER_HELP)]):
    """Rebuild report.html from a folder alone, as the kind of folder it is (a run's summary.json too)."""
    from balance.analysis import runs
    from balance.reports import rebuild_report

    if (folder / runs.MANIFEST).exists():  # a run folder: not while a run writes it, every part against its record
        manifest = runs.load_manifest(folder, "report")
        runs.spec_of(manifest, folder)  # a game of this build before anything else
        with runs.locked(folder, "report", _command_line()):
            runs.check_parts(folder, manifest, "report")
            path = rebuild_report(folder)
    else:
        path = rebuild_report(folder)
    out.print(f"report: {path}")
    return Path(path)


@command()
def replay(
    folder: Annotated[Optional[Path], typer.Argument(
        metavar="FOLDER", help="a run or sweep folder: replay one of its games with its configuration "
                                 "(or give --game and the settings)")] = None,
    game: MaybeGameOpt = None,
    index: Annotated[int, typer.Option("--index", metavar="INDEX", help="game index within the run")] = 0,
    run: Annotated[Optional[Path], typer.Option("--run", hidden=True, help="the folder (old spelling of FOLDER)")] = None,
    variant: Annotated[int, typer.Option("--variant", metavar="N", help="variant number within a sweep folder", min=0)] = 0,
    players: PlayersOpt = None,
    level: LevelOpt = None,
    policy: PolicyOpt = None,
    policy_param: PolicyParamOpt = None,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    params: ParamsFileOpt = None,
    check: CheckOpt = False,
):
    """Print one game as a readable transcript, in the rulebook's words."""
    from balance.analysis import runs
    from balance.simcore.batch import Engine

    if folder is not None and run is not None and Path(folder) != Path(run):
        raise BalanceError("replay: give the run folder once (FOLDER; --run is its old spelling)")
    run = folder if folder is not None else run
    if not 0 <= index <= runs.MAX_INDEX:
        raise BalanceError(f"--index: {index} is not allowed; allowed: a game index in 0..{runs.MAX_INDEX} (2**63-1)")
    if run is not None:
        given = [name for name, value in (("--players", players), ("--level", level), ("--policy-param", policy_param),
                                          ("--set", set_), ("--params", params)) if value]
        if given:  # a folder's game is replayed with the run's own settings, never silently others
            raise BalanceError(f"{given[0]}: not allowed with a run FOLDER (its game is replayed with the run's own "
                               "settings); allowed: FOLDER with --index/--variant, or --game with the settings instead")
        if (Path(run) / "play.json").is_file() and not (Path(run) / "manifest.json").exists():  # balance play's
            if (Path(run) / "run" / "manifest.json").is_file():
                run = Path(run) / "run"
            else:
                raise BalanceError(f"FOLDER: {run} is an unfinished game of balance play; go on with it: "
                                   f"balance play --out {run}")
        manifest = runs.load_manifest(run, "FOLDER")
        config = runs.config_from_manifest(manifest, run)
        spec = runs.spec_of(manifest, run)
        if game is not None and game != spec.name:
            raise BalanceError(f"--game: {game} is not the game of {run} ({spec.name}); allowed: {spec.name}, or no --game")
        if variant >= len(config.variants):
            raise BalanceError(f"--variant: {variant} is not allowed; allowed: 0..{len(config.variants) - 1}")
        played = runs.variant_games(config.variants[variant], manifest["n_games"])
        if index >= played:  # a game the run did not play is not one of its games
            of = f"variant {variant} of {run}" if len(config.variants) > 1 else str(run)
            raise BalanceError(f"--index: {index} is not a game of {of}, which plays games 0..{played - 1:,}; "
                               f"allowed: 0..{played - 1}" if played else f"--index: {of} plays no game")
        config.policies = runs.replay_policies(run, manifest, config, policy)  # never a file the folder names
        n_players, seed = config.players, config.seed
        seats = runs.seat_policies(config, config.variants[variant])  # a seat-rotated variant: its own seating
        data = runs.played_data(spec, run, manifest, config, variant)  # the folder's own copy of its cards, checked
    else:
        if game is None:
            raise BalanceError("--game: give a game, or a run FOLDER to replay from")
        spec = _spec(game)
        n_players = _players(spec, players)
        seats = _policies(spec, policy, policy_param, n_players)
        from balance.simcore.params import resolve

        rule_params = resolve(spec, _user_params(spec, set_, params, level))
        data = spec.load_data(rule_params)
    engine = Engine(spec, seats)  # the transcript decodes with the cards played
    _first_compile(spec, seats, engine, traced=True)
    events, game_row, seat_rows = engine.replay(data.tables, n_players, seed, index, check=check)
    out.print(f"[bold]{spec.title}[/bold] — game {index} of seed {seed}, {n_players} player(s), "
              f"policies {', '.join(s.name for s in seats)}", highlight=False)
    lines = list(spec.decode_trace(events, data, n_players))
    for line in lines:
        out.print(line, highlight=False, markup=False)
    reason = spec.all_end_reasons[int(game_row[0])]
    winners = [str(s + 1) for s in range(n_players) if seat_rows[s, 0] > 0.5]
    code, decision = engine.last_violation
    if code:
        out.print(f"Stopped by --check after decision {decision}: {spec.invariant(code)}.", highlight=False)
        raise typer.Exit(1)
    out.print(f"End: {reason}; decisions {int(game_row[1])}; "
              f"{'winner(s): seat ' + ', '.join(winners) if winners else 'nobody won'}.", highlight=False)
    if check:
        out.print(f"--check: every invariant held after each of the {int(game_row[1])} decisions.", highlight=False)
    return lines


@command()
def campaign(
    game: GameOpt = "sickdays-solo",
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    policy_param: PolicyParamOpt = None,
    n: Annotated[int, typer.Option("--campaigns", metavar="N", min=1, help="number of campaigns (each plays as many "
                                    "games as it takes to clear levels 1-11)")] = 10_000,
    n_old: Annotated[Optional[int], typer.Option("-n", hidden=True, min=1, help="old spelling of --campaigns")] = None,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    params: ParamsFileOpt = None,
    max_attempts: Annotated[int, typer.Option("--max-attempts", metavar="N", help="give up a level after this many attempts", min=1)] = 200,
    out_dir: OutOpt = None,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
):
    """Play whole campaigns (levels 1..11; a lost level is replayed with one more event)."""
    from balance.analysis.campaign import run_campaign, write_campaign

    _threads(threads)
    spec = _spec(game)
    if spec.param("level") is None or spec.param("events") is None:
        raise BalanceError(f"--game: {spec.name} has no campaign (needs levels and events)")
    n_players = _players(spec, players)
    seats = _policies(spec, policy, policy_param, n_players)
    user = _user_params(spec, set_, params, None)
    n = n_old if n_old is not None else n
    from balance.analysis.preflight import check_result_folder

    check_result_folder(out_dir, "campaign.json and report.html")  # before the games, not after them
    _first_compile(spec, seats, say=not quiet)
    with _nothing_kept("campaign"):
        result = run_campaign(spec, user, n_players, seats, seed, n, max_attempts)
    from balance.analysis.runs import new_run_dir

    from balance.reports import render_campaign_report

    folder = out_dir or new_run_dir(Path("runs"), f"{spec.name}-campaign")
    write_campaign(folder, spec, result, _command_line())
    path = render_campaign_report(folder, result, spec)
    t = Table(title=f"campaign: {n:,} campaigns, policy {_seats_words(spec, seats, n_players)}")
    for col in ("level", "attempts (mean, 95% CI)", "win rate per attempt (95% CI)", "cleared"):
        t.add_column(col)
    for row in result["levels"]:
        a = row["attempts"]
        w = row["win_rate"]
        t.add_row(str(row["level"]), f"{a['value']:.2f} ({a['ci'][0]:.2f}–{a['ci'][1]:.2f})",
                  f"{100 * w['value']:.1f}% ({100 * w['ci'][0]:.1f}–{100 * w['ci'][1]:.1f}), n={w['n']:,}",
                  f"{row['cleared']:,}/{row['reached']:,}")
    out.print(t)
    g = result["games_to_clear"]
    if g["n"]:
        out.print(f"games to clear levels 1-11: mean {g['mean']['value']:.1f} "
                  f"(95% CI {g['mean']['ci'][0]:.1f}–{g['mean']['ci'][1]:.1f}), median {g['median']:.0f}, "
                  f"n={g['n']:,} of {n:,} campaigns cleared")
    out.print(f"report: {path}")
    return folder


@command()
def bench(
    game: Annotated[Optional[list[str]], typer.Option("--game", "-g", metavar="GAME", help=GAME_HELP)] = None,
    n: Annotated[int, games_opt()] = 20_000,
    policy: Annotated[Optional[list[str]], typer.Option(
        "--policy", metavar="NAME", help="a policy to measure, at every seat (repeat or comma-separate; default: "
                                         "random, greedy and expert)")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="2,000 games per measurement, 5 without the JIT, 1 sample")] = False,
    repeat: Annotated[Optional[int], typer.Option("--repeat", metavar="K", min=1, help="samples per row, taking turns; a row shows their median and range (default: 3)")] = None,
    cold: Annotated[bool, typer.Option("--cold/--no-cold", help="also time a compile on an empty cache (minutes per game)")] = True,
    nojit: Annotated[Optional[int], typer.Option("--nojit-games", metavar="N", min=0, help="games played with NUMBA_DISABLE_JIT=1 for the speed-up (0: skip)")] = None,
    json_out: Annotated[Optional[Path], typer.Option("--json", metavar="FILE", help="also write the table to this JSON file")] = None,
    peer: Annotated[Optional[bool], typer.Option(
        "--peer/--no-peer", help="also measure OpenSpiel's C++ crazy_eights random rollouts before and after the games, "
                                 "and show each game's random decisions/s on one thread as a multiple of it (default: "
                                 "when OpenSpiel is installed: pip install open-spiel)")] = None,
    peer_seconds: Annotated[float, typer.Option("--peer-seconds", metavar="S", min=0.5, help="seconds per OpenSpiel sample")] = 10.0,
):
    """Games/s and decisions/s of each game (every game unless --game; repeat --game for several) on one core and
    on all cores, compile time on a cold and a warm cache, the speed-up over the JIT disabled, peak memory."""
    import numba

    from balance.analysis.bench import bench_game
    from balance.simcore import registry

    n = 2_000 if quick else n
    nojit_games = nojit if nojit is not None else (5 if quick else 20)
    repeat = repeat if repeat is not None else (1 if quick else 3)
    names = game or registry.names()
    for name in names:
        registry.get(name)  # unknown names fail before any work
    from balance.analysis.bench import DEFAULT_POLICIES

    policies = [x.strip() for item in (policy or list(DEFAULT_POLICIES)) for x in item.split(",") if x.strip()]
    for name in names:
        spec = registry.get(name)
        for pol in policy or []:
            _policies(spec, [pol], None)  # unknown policies fail before any work
    results = []
    t = Table(title=f"balance bench — {n:,} games per measurement, median of {repeat} taking turns, "
                    f"{numba.config.NUMBA_NUM_THREADS} cores")
    for col in ("game", "players", "policy", "threads", "games/s", "slowest-fastest", "decisions/s", "decisions/game",
                "1M games (s)", "× no JIT"):
        t.add_column(col, justify="right")
    costs = Table(title="per game: compile and memory")
    for col in ("game", "compile, cold cache (s)", "load, warm cache (s)", "peak RSS warm (MB)", "peak RSS cold (MB)"):
        costs.add_column(col, justify="right")
    from .first_run import bench_line

    from balance.analysis import peer as peers

    if peer and not peers.installed():
        raise BalanceError("--peer: OpenSpiel is not installed; allowed: pip install open-spiel (or the bench extra), "
                           "or --no-peer")
    peer = peers.installed() if peer is None else peer
    peer_samples = []
    with err.status("measuring (each game in fresh processes)…") as status_line:
        if peer:
            status_line.update(f"measuring OpenSpiel's {peers.PEER_GAME} (one thread, {peer_seconds:g} s)…")
            peer_samples.append(peers.sample(peer_seconds))
        for name in names:
            status_line.update(bench_line(registry.get(name), policies, cold) + " (each game in fresh processes)…")
            try:
                r = bench_game(name, n, policies, cold=cold, nojit_games=nojit_games, repeat=repeat)
            except RuntimeError as exc:
                raise BalanceError(f"--game: {exc}") from None
            results.append(r)
            for row in r["rows"]:
                speed = f"{row['jit_speedup']:,.0f}" if "jit_speedup" in row else ""
                t.add_row(name, str(r["players"]), row["policy"], str(row["threads"]), f"{row['games_per_second']:,.0f}",
                          f"{row['games_per_second_min']:,.0f}-{row['games_per_second_max']:,.0f}",
                          f"{row['decisions_per_second']:,.0f}", f"{row['decisions_per_game']:.1f}",
                          f"{1e6 / row['games_per_second']:,.0f}", speed)
            for pol, why in (r.get("refused") or {}).items():
                t.add_row(name, str(r["players"]), pol, "", "not available", "", "", "", "", "")
            cold_s = f"{r['cold_compile_seconds']:.1f}" if r["cold_compile_seconds"] is not None else "(skipped)"
            cold_mb = f"{r['cold_peak_rss_mb']:,.0f}" if r["cold_peak_rss_mb"] is not None else "(skipped)"
            costs.add_row(name, cold_s, f"{r['warm_load_seconds']:.2f}", f"{r['peak_rss_mb']:,.0f}", cold_mb)
        if peer:
            status_line.update(f"measuring OpenSpiel's {peers.PEER_GAME} again (one thread, {peer_seconds:g} s)…")
            peer_samples.append(peers.sample(peer_seconds))
    out.print(t)
    out.print(costs)
    peer_result = peers.summary(peer_samples) if peer_samples else None
    if peer_result is not None:
        pt = Table(title=f"random play beside {peer_result['peer']}: {peer_result['decisions_per_second']:,.0f} "
                         f"decisions/s on one thread (before and after the games: "
                         f"{peer_result['decisions_per_second_min']:,.0f}-{peer_result['decisions_per_second_max']:,.0f})")
        for col in ("game", "players", "random decisions/s, 1 thread", "× OpenSpiel"):
            pt.add_column(col, justify="right")
        peer_result["ratios"] = peers.ratio_rows(results, peer_result)
        for row in peer_result["ratios"]:
            pt.add_row(row["game"], str(row["players"]), f"{row['decisions_per_second']:,.0f}", f"{row['ratio']:.1f}")
        out.print(pt)
    elif not peers.installed():
        out.print("OpenSpiel is not installed: no peer ratio (pip install open-spiel, then balance bench again)",
                  highlight=False)
    if json_out is not None:
        json_out.write_text(json.dumps({"games_per_measurement": n, "samples_per_row": repeat,
                                        "cores": numba.config.NUMBA_NUM_THREADS,
                                        "nojit_games": nojit_games, "results": results, "peer": peer_result}, indent=2))
        out.print(f"written: {json_out}")


def main() -> None:
    app()


from balance.cli.ladder import register as _register_ladder  # noqa: E402  (`balance ladder`, cli/ladder.py)
_register_ladder(globals())
