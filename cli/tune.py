"""`balance tune` and `balance campaign`: commands that write their folder only when they end."""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from balance.simcore.errors import BalanceError

from . import app as cli_app
from .app import (SharedOptions, VaryOpt, _command_line, _nothing_kept, _players, _policies, _seats_words, _spec,
                  _threads, _user_params, command, err, games_opt, options, out)


@command()
@options("vary target game players level policy policy_param n n_screen keep fresh skill_games margin seed set_ params "
         "out_dir threads quiet", game="overtime")
def tune(
    shared: SharedOptions,
    vary: VaryOpt,
    target: Annotated[list[str], typer.Option("--target", metavar="TARGET", help="win_rate=0.45..0.55, seat_gap<=0.02, length_median=12..15, ladder=0.99,0.9,...")],
    n: Annotated[int, games_opt(10)] = 20_000,
    n_screen: Annotated[Optional[int], typer.Option("--screen", metavar="N", help="games per grid point in the screening pass (default n/10)", min=10)] = None,
    keep: Annotated[int, typer.Option("--keep", metavar="N", help="finalists replayed with -n games", min=1)] = 3,
    fresh: Annotated[Optional[int], typer.Option(
        "--fresh", metavar="N", min=10, help="fresh games (never used to choose) that re-measure the pick and its runners-up "
                                "(default: -n)")] = None,
    skill_games: Annotated[Optional[int], typer.Option(
        "--skill-games", metavar="N", min=10, help="at most this many fresh games per skill-sensitivity row (default: --fresh; "
                                      "lookahead plays what a 5-point interval needs, planned from a pilot)")] = None,
):
    """Search parameters to hit targets; report the recommendation measured on fresh games, how sure the pick
    is, its runners-up and skill sensitivity."""
    from balance.analysis import runs
    from balance.analysis.sweep import grid
    from balance.analysis.tune import parse_target, tune as run_tune, write_tuning

    _threads(shared.threads)
    spec, n_players, seats, user = shared.setting()
    targets = [parse_target(t) for t in target]
    points = grid(spec, vary)
    from balance.analysis.preflight import check_result_folder

    check_result_folder(shared.out_dir, "tuning.json and report.html")  # before the games, not after them
    cli_app._first_compile(spec, seats, say=not shared.quiet)
    with _nothing_kept("tune"), (err.status(f"tuning {spec.name}: {len(points)} grid points") if not shared.quiet
                                 else contextlib.nullcontext()):
        result = run_tune(spec, user, points, targets, n_players, seats, shared.seed, n_screen or max(10, n // 10), n,
                          keep, n_skill=skill_games, n_fresh=fresh, margin=shared.margin)
    folder = shared.out_dir or runs.new_run_dir(Path("runs"), f"{spec.name}-tune")
    from balance.reports import render_tuning_report

    res = write_tuning(folder, result, _command_line())
    path = render_tuning_report(folder, res)
    t = Table(title=f"tuning {spec.name} for {', '.join(res.targets)} (policy {_seats_words(spec, seats, n_players)}); "
                    f"{res.games.words}")
    t.add_column("")
    t.add_column("recommended")
    t.add_column("fresh win rate (95% CI), n")
    t.add_column("verdict")
    t.add_column("sure it is best?")
    if res.ladder:  # one row a level: its pick against its target
        rows = [(f"level {x.level} (target {x.target:g})", x.recommended, x.measured.win_rate,
                 x.check.words + (f"; step {x.step.status}" if x.step else ""), x.certainty, x.skill,
                 f"level {x.level}: ") for x in res.ladder]
    else:
        best = res.recommended
        rows = [("best", best.point, best.measured.win_rate, "; ".join(c.words or "" for c in best.targets),
                 res.certainty, res.skill or {}, "")]
    for label, point, w, verdict, certainty, _, _ in rows:
        sure = certainty.words if certainty is not None else "only candidate"
        t.add_row(label, ", ".join(f"{k}={v}" for k, v in point.items()),
                  f"{100 * w.value:.1f}% ({100 * w.ci[0]:.1f}–{100 * w.ci[1]:.1f}), n={w.n:,}", verdict, sure)
    out.print(t)
    for *_, skill, where in rows:
        for name, sk in skill.items():
            out.print(f"{where}{name}: {sk.vs_assumed.words}", highlight=False)
    out.print(f"report: {path}")
    return folder


@command()
@options("game players policy policy_param n n_old seed set_ params max_attempts out_dir threads quiet",
         game="sickdays-solo")
def campaign(
    shared: SharedOptions,
    n: Annotated[int, typer.Option("--campaigns", metavar="N", min=1, help="number of campaigns (each plays as many "
                                    "games as it takes to clear levels 1-11)")] = 10_000,
    n_old: Annotated[Optional[int], typer.Option("-n", hidden=True, min=1, help="old spelling of --campaigns")] = None,
    max_attempts: Annotated[int, typer.Option("--max-attempts", metavar="N", help="give up a level after this many attempts", min=1)] = 200,
):
    """Play whole campaigns (levels 1..11; a lost level is replayed with one more event)."""
    from balance.analysis.campaign import run_campaign, write_campaign

    _threads(shared.threads)
    spec = _spec(shared.game)
    if spec.param("level") is None or spec.param("events") is None:
        raise BalanceError(f"--game: {spec.name} has no campaign (needs levels and events)")
    n_players = _players(spec, shared.players)
    seats = _policies(spec, shared.policy, shared.policy_param, n_players)
    user = _user_params(spec, shared.set_, shared.params, None)
    n = n_old if n_old is not None else n
    from balance.analysis.preflight import check_result_folder

    check_result_folder(shared.out_dir, "campaign.json and report.html")  # before the games, not after them
    cli_app._first_compile(spec, seats, say=not shared.quiet)
    with _nothing_kept("campaign"):
        result = run_campaign(spec, user, n_players, seats, shared.seed, n, max_attempts)
    from balance.analysis.runs import new_run_dir

    from balance.reports import render_campaign_report

    folder = shared.out_dir or new_run_dir(Path("runs"), f"{spec.name}-campaign")
    res = write_campaign(folder, spec, result, _command_line())
    path = render_campaign_report(folder, res, spec)
    t = Table(title=f"campaign: {n:,} campaigns, policy {_seats_words(spec, seats, n_players)}")
    for col in ("level", "attempts (mean, 95% CI)", "win rate per attempt (95% CI)", "cleared"):
        t.add_column(col)
    for row in res.levels:
        a = row.attempts
        w = row.win_rate
        t.add_row(str(row.level), f"{a.value:.2f} ({a.ci[0]:.2f}–{a.ci[1]:.2f})",
                  f"{100 * w.value:.1f}% ({100 * w.ci[0]:.1f}–{100 * w.ci[1]:.1f}), n={w.n:,}",
                  f"{row.cleared:,}/{row.reached:,}")
    out.print(t)
    g = res.games_to_clear
    if g.n:
        out.print(f"games to clear levels 1-11: mean {g.mean.value:.1f} "
                  f"(95% CI {g.mean.ci[0]:.1f}–{g.mean.ci[1]:.1f}), median {g.median:.0f}, "
                  f"n={g.n:,} of {n:,} campaigns cleared")
    out.print(f"report: {path}")
    return folder
