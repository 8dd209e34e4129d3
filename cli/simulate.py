"""`balance games`, `balance policies`, `balance simulate` and `balance sweep`, and the terminal's summary
of a run (its table, its verdicts)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from .app import GameOpt, MaybeGameOpt, SharedOptions, VaryOpt, _command_line, _spec, _threads, command, options, out
from .running import run_and_report

if TYPE_CHECKING:
    from balance.analysis.summary_result import SummaryResult


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


def _print_summary(summary: SummaryResult, run_dir: Path, spec=None) -> None:
    def pct(r):
        return f"{100 * r:.2f}%" if r is not None else "-"

    t = Table(title=f"{summary.game} — {summary.n_games:,} games, seed {summary.seed}")
    t.add_column("metric")
    t.add_column("value", justify="right")
    t.add_column("95% CI", justify="right")
    t.add_column("n", justify="right")
    n = summary.n_games
    ci = summary.win_rate_ci
    t.add_row("win rate", pct(summary.win_rate), f"{pct(ci[0])} – {pct(ci[1])}", f"{n:,}")
    labels = _summary_seat_labels(summary, spec)
    for s in summary.win_rate_by_seat or []:
        who = labels.get(s.seat, s.policy)
        t.add_row(f"  seat {s.seat + 1} ({who})", pct(s.value), f"{pct(s.ci[0])} – {pct(s.ci[1])}", f"{s.n:,}")
    length = summary.length
    lci = length.mean_ci
    fmt = lambda x: f"{x:.2f}" if isinstance(x, (int, float)) else "-"  # noqa: E731
    t.add_row("length (turns), mean", fmt(length.mean), f"{fmt(lci[0])} – {fmt(lci[1])}", f"{length.n:,}")
    t.add_row("length, median [p10, p90]", f"{fmt(length.median)} [{fmt(length.p10)}, {fmt(length.p90)}]", "", "")
    for reason, c in summary.end_reasons.items():
        if c:
            t.add_row(f"ended: {reason}", f"{c:,}", "", f"{n:,}")
    out.print(t)
    if summary.seat_rotation is not None and spec is not None:
        from balance.simcore.batch import seat_labels

        pols = summary.policies
        out.print(f"policies moved round the table: {', '.join(seat_labels(spec, pols, len(pols)))}", highlight=False)
        for r in (summary.seat_rotation.policies.seats if summary.seat_rotation.policies is not None else []):
            rng = f" (95% CI {100 * r.ci[0]:.2f}% – {100 * r.ci[1]:.2f}%)" if r.ci[0] is not None else ""
            out.print(f"  {r.policy} wins {100 * r.value:.2f}%{rng} over every seat, {r.n:,} deals", highlight=False)
    _print_verdicts(summary)
    out.print(f"run folder: {run_dir}")


def _summary_seat_labels(summary: SummaryResult, spec) -> dict[int, str]:
    """Seat -> its policy with its changed parameters by name ('greedy (epsilon=1)'), from the run's recorded
    policies; none in a seat-rotated run (every policy sits at every seat)."""
    from balance.simcore.batch import seat_labels

    pols, players = summary.policies, summary.players
    if spec is None or summary.seat_rotation is not None or players is None:
        return {}
    if len(pols) not in (1, players):
        return {}
    return dict(enumerate(seat_labels(spec, pols, players)))


def _print_verdicts(summary: SummaryResult) -> None:
    """The verdict block (summary.json `verdicts`), one line each, and what stopped the run."""
    if summary.stopped_by == "precision":
        stop = summary.stopping or {}  # stopping.json's content, as analysis.summary.read_stopping gives it
        out.print(f"complete: stopped by --precision {stop.get('precision')} (every win-rate interval narrower) "
                  f"after {summary.n_games:,} of at most {stop.get('max_games', 0):,} games", highlight=False)
    rot = summary.seat_rotation
    if rot is not None:
        out.print(f"seats rotated: {rot.how} ({rot.deals:,} deals)", highlight=False)
    v = summary.verdicts
    for it in v.items:
        ci = it.ci or [None, None]
        rng = f"{100 * ci[0]:+.1f} to {100 * ci[1]:+.1f} pts" if ci[0] is not None else "no interval"
        where = f" [{it.variant}]" if it.variant else ""
        out.print(f"{it.metric}{where}: {it.words} (margin ±{100 * v.margin:.1f} pts; estimate "
                  f"{100 * (it.estimate or 0):+.1f} pts, {100 * it.ci_level:.4g}% CI {rng}, "
                  f"n = {it.n or 0:,})", highlight=False)
    if summary.skill_check is not None:  # the skill check, in the report's own words (reports.verdicts)
        from balance.reports.verdicts import run_items, skill_note, skill_verdicts, _one

        for it in run_items(summary):
            said = _one(it)
            note = skill_note(said, it, summary).skill if said is not None else ""
            if note:
                out.print(f"skill check: {note}", highlight=False, markup=False)
        for v in skill_verdicts(summary):
            out.print(f"skill check: {v.sentence}" + (f" ({v.detail})" if v.detail else ""), highlight=False,
                      markup=False)


@command()
@options("game players level policy policy_param n seed set_ params out_dir chunk_size threads precision scheduler "
         "workers check rotate_seats margin skill_check card_power quiet", game="overtime", n=1_000_000)
def simulate(
    shared: SharedOptions,
    rotate_seats: Annotated[bool, typer.Option(
        "--rotate-seats", help="play every deal once per rotation of the policies round the table (each policy "
                               "at every seat on the same deal): seat advantage free of who sits where")] = False,
    card_power: Annotated[bool, typer.Option(
        "--card-power/--no-card-power",
        help="also measure what one more copy of each card does for the seat that gets it (competitive games "
             "with a card list; the run's first deals, up to 12,000 a card and a quarter of -n in all)")] = True,
):
    """Play N games, write the run folder (Parquet parts, summary.json) and its HTML report."""
    from balance.analysis import runs

    _threads(shared.threads)
    spec, n_players, seats, user = shared.setting()
    config = runs.make_config(spec, user, n_players, seats, shared.seed, shared.n, shared.chunk_size,
                              rotate_seats=rotate_seats)
    config.check = shared.check
    run_dir = shared.out_dir or runs.new_run_dir(Path("runs"), spec.name)
    summary = run_and_report(spec, config, run_dir, shared.n, _command_line(), quiet=shared.quiet,
                             precision=shared.precision, scheduler=shared.scheduler, workers=shared.workers,
                             margin=shared.margin, skill_check=shared.skill_check, card_power=card_power)
    _print_summary(summary, run_dir, spec)
    out.print(f"report: {run_dir / 'report.html'}")
    return run_dir


@command()
@options("vary game players level policy policy_param n seed set_ params out_dir chunk_size threads precision "
         "scheduler workers check margin skill_check quiet", game="overtime", n=100_000)
def sweep(vary: VaryOpt, shared: SharedOptions):
    """Play every point of a parameter grid on the same deals; one folder, one report."""
    from balance.analysis import runs
    from balance.analysis.sweep import grid, sweep_config

    _threads(shared.threads)
    spec, n_players, seats, user = shared.setting()
    points = grid(spec, vary)
    config = sweep_config(spec, user, points, n_players, seats, shared.seed, shared.n, shared.chunk_size)
    config.check = shared.check
    run_dir = shared.out_dir or runs.new_run_dir(Path("runs"), f"{spec.name}-sweep")
    summary = run_and_report(spec, config, run_dir, shared.n, _command_line(), kind="sweep", quiet=shared.quiet,
                             precision=shared.precision, scheduler=shared.scheduler, workers=shared.workers,
                             margin=shared.margin, skill_check=shared.skill_check)
    _print_sweep(summary, run_dir)
    return run_dir


def _print_sweep(summary: SummaryResult, run_dir: Path) -> None:
    t = Table(title=f"sweep: {len(summary.variants or [])} points, seed {summary.seed}")
    t.add_column("point")
    t.add_column("win rate (95% CI)", justify="right")
    t.add_column("n", justify="right")
    t.add_column("length mean", justify="right")
    for v in summary.variants or []:
        ci, length = v.win_rate_ci, v.length.mean
        t.add_row(v.name, f"{100 * (v.win_rate or 0):.2f}% ({100 * (ci[0] or 0):.2f}–{100 * (ci[1] or 0):.2f})",
                  f"{v.n_games:,}", f"{length:.2f}" if isinstance(length, (int, float)) else "-")
    out.print(t)
    out.print(f"run folder: {run_dir}\nreport: {run_dir / 'report.html'}")
