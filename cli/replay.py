"""`balance report` (rebuild a folder's report) and `balance replay` (one game as a transcript)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from balance.simcore.errors import BalanceError

from . import app as cli_app
from .app import FOLDER_HELP, SharedOptions, _command_line, command, options, out


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
@options("folder game index run variant players level policy policy_param seed set_ params check")
def replay(
    shared: SharedOptions,
    folder: Annotated[Optional[Path], typer.Argument(
        metavar="FOLDER", help="a run or sweep folder: replay one of its games with its configuration "
                                 "(or give --game and the settings)")] = None,
    index: Annotated[int, typer.Option("--index", metavar="INDEX", help="game index within the run")] = 0,
    run: Annotated[Optional[Path], typer.Option("--run", hidden=True, help="the folder (old spelling of FOLDER)")] = None,
    variant: Annotated[int, typer.Option("--variant", metavar="N", help="variant number within a sweep folder", min=0)] = 0,
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
        given = [name for name, value in (("--players", shared.players), ("--level", shared.level),
                                          ("--policy-param", shared.policy_param), ("--set", shared.set_),
                                          ("--params", shared.params)) if value]
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
        if shared.game is not None and shared.game != spec.name:
            raise BalanceError(f"--game: {shared.game} is not the game of {run} ({spec.name}); allowed: {spec.name}, or no --game")
        if variant >= len(config.variants):
            raise BalanceError(f"--variant: {variant} is not allowed; allowed: 0..{len(config.variants) - 1}")
        played = runs.variant_games(config.variants[variant], manifest["n_games"])
        if index >= played:  # a game the run did not play is not one of its games
            of = f"variant {variant} of {run}" if len(config.variants) > 1 else str(run)
            raise BalanceError(f"--index: {index} is not a game of {of}, which plays games 0..{played - 1:,}; "
                               f"allowed: 0..{played - 1}" if played else f"--index: {of} plays no game")
        config.policies = runs.replay_policies(run, manifest, config, shared.policy)  # never a file the folder names
        n_players, seed = config.players, config.seed
        seats = runs.seat_policies(config, config.variants[variant])  # a seat-rotated variant: its own seating
        data = runs.played_data(spec, run, manifest, config, variant)  # the folder's own copy of its cards, checked
    else:
        if shared.game is None:
            raise BalanceError("--game: give a game, or a run FOLDER to replay from")
        spec, n_players, seats, user = shared.setting()
        seed = shared.seed
        from balance.simcore.params import resolve

        rule_params = resolve(spec, user)
        data = spec.load_data(rule_params)
    engine = Engine(spec, seats)  # the transcript decodes with the cards played
    cli_app._first_compile(spec, seats, engine, traced=True)
    events, game_row, seat_rows = engine.replay(data.tables, n_players, seed, index, check=shared.check)
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
    if shared.check:
        out.print(f"--check: every invariant held after each of the {int(game_row[1])} decisions.", highlight=False)
    return lines
