"""Playing a run folder's games from a command: the folder checked, opened and resumed (opened_run), the
games played with a progress bar (_play), then its summary and report, its skill check and card power
(run_and_report). Every command that plays into a run folder goes through here."""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from balance.simcore.errors import BalanceError, InvariantBroken

if TYPE_CHECKING:
    from balance.analysis.summary_result import SummaryResult

from . import app as cli_app
from .app import _announce, _games_kept, _notice, err


def run_and_report(spec, config, run_dir: Path, n_games: int, command: str, kind: str = "run", quiet: bool = False,
                   precision: float | None = None, scheduler: str | None = None, workers: int | None = None,
                   margin: float | None = None, skill_check: int | None = 0, check_only: list[str] | None = None,
                   card_power: bool = False) -> SummaryResult:
    """Check the folder (read only), compile, then open or resume the folder, play what is missing with a
    progress bar, then the skill check (`skill_check` deals per variant with expert at every seat, None: the
    default, 0: none; `check_only`: the variants it plays, default all), write summary.json and report.html.
    Returns the summary (summary.json's schema, analysis.summary_result)."""
    if skill_check != 0 and not (scheduler or workers):
        _skill_check_ahead(spec, config)
    with opened_run(spec, config, run_dir, n_games, command, kind, quiet, scheduler, workers) as (prepared, executor):
        _play(spec, config, run_dir, n_games, quiet, precision, prepared, executor, paired=kind in PAIRED_KINDS)
        if card_power:
            play_card_power(spec, config, run_dir, n_games, command, quiet, scheduler, workers)
        play_skill_check(spec, config, run_dir, n_games, command, skill_check, check_only, quiet, scheduler, workers)
        # imported after the games, not before: a cold first run's compile children run while this process waits,
        # and the report's libraries (matplotlib, jinja2) would be held through them for nothing
        from balance.analysis.summary import write_summary
        from balance.analysis.summary_result import SummaryResult
        from balance.reports import render_run_report

        summary = SummaryResult.read(write_summary(run_dir, spec, margin))
        render_run_report(run_dir, spec)
        return summary


def _skill_check_ahead(spec, config) -> None:
    """On a cold cache, the skill check's loop (expert at every seat) starts compiling now, in child
    processes beside the run's own loop and games (simcore.precompile.ahead): a first run waits for the
    longer of the two compiles, not for both. Nothing when it is cached or the run has no skill check."""
    from balance.analysis import skill_check as sc
    from balance.simcore.batch import Engine
    from balance.simcore.precompile import ahead

    sub = sc.check_config(spec, config, 1)
    if sub is not None:
        ahead(spec, Engine(spec, sub.policies))


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


@contextlib.contextmanager
def opened_run(spec, config, run_dir: Path, n_games: int, command: str, kind: str, quiet: bool,
               scheduler: str | None = None, workers: int | None = None):
    """A run folder for the games, opened only once everything is checked (issue 40 item 9): the folder read
    only first (analysis.preflight: another configuration, another build, a file, no room), the executor
    reached (--scheduler, --workers), the engine compiled (a user policy file also played on one game), and
    only then the folder created or resumed ("resuming: N of M games already played"). Yields (prepared,
    executor); Ctrl-C or SIGTERM inside says what was kept ("interrupted: N of M games kept; rerun the same
    command to resume"). The folder is let go when the block ends."""
    from balance.analysis import execution, preflight, runs

    resumed = preflight.check_out(run_dir, spec, config, n_games)
    executor, prepared = None, None
    try:
        if scheduler or workers:
            from balance.analysis.executors import DaskExecutor

            executor = DaskExecutor(config, scheduler, workers)
        else:
            prepared = execution.Prepared(spec, config)
            cli_app._first_compile(spec, config.policies, prepared.engine, checked=config.check, say=not quiet)
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

    from balance.analysis import execution, runs

    total = sum(runs.variant_games(v, n_games) for v in config.variants)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=err, disable=quiet, transient=False) as bar:
        task = bar.add_task(label or spec.name, total=total)

        def on_chunk(done, total):
            bar.update(task, completed=done, total=total)

        try:
            execution.execute(run_dir, spec, config, n_games, on_chunk, prepared, precision, executor, paired)
        except InvariantBroken as exc:
            exc.run_dir = str(run_dir)
            raise
