"""`balance ladder`: the same deals played by players of rising skill (analysis.ladder).

Registered on the app by cli/app.py's last two lines, `register(globals())`:
this module takes the app's shared options and helpers from there and never
imports cli.app (so the two do not import each other). Annotations are
evaluated when the command is defined (no `from __future__ import
annotations`), since Typer reads them as objects.
"""
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

_app: dict = {}  # cli.app's namespace: command, out, err, the shared options and helpers


def register(ns: dict) -> None:
    """Define `balance ladder` on the app whose module namespace is `ns`."""
    _app.update(ns)
    command, options, SharedOptions, games_opt = ns["command"], ns["options"], ns["SharedOptions"], ns["games_opt"]

    @command()
    @options("game players level n search_share seed set_ params out_dir chunk_size threads scheduler workers margin "
             "solver_nodes quiet", game="sickdays-solo")
    def ladder(
        shared: SharedOptions,
        level: Annotated[Optional[list[str]], typer.Option(
            "--level", metavar="LEVEL", help="difficulty level(s): 4, or 1,4,6,11 (or repeat): one ladder per level, on the same deals")] = None,
        n: Annotated[Optional[int], games_opt()] = None,
        search_share: Annotated[Optional[float], typer.Option(
            "--search-share", metavar="SHARE", min=0.001, max=1.0, help="share of the deals every search rung (lookahead, expert, oracle) "
                                                       "plays: the first ones, so still paired (default: per game and "
                                                       "policy, printed before the run)")] = None,
        solver_nodes: Annotated[Optional[int], typer.Option(
            "--solver-nodes", metavar="N", min=0, help="where the game has an exhaustive solver (sickdays-solo): "
                                                       "its budget of nodes a deal on the deals expert plays (0: no "
                                                       "solver; default 100,000)")] = None,
    ):
        """Play the same deals with random, greedy at a few epsilons, lookahead, expert (and the open-hand
        search, oracle): the skill ladder, paired, in one folder with ladder.json, summary.json and report.html;
        competitive games also play expert against lookahead and rate every rung (Bradley-Terry); Sick Days
        solo's exhaustive solver says which deals some line wins (bound.json)."""
        from balance.analysis import ladder as ladder_analysis
        from balance.analysis import runs

        _app["_threads"](shared.threads)
        spec = _app["_spec"](shared.game)
        n_players = _app["_players"](spec, shared.players)
        levels = ladder_analysis.parse_levels(spec, level)
        user = _app["_user_params"](spec, shared.set_, shared.params, None)
        n_games = n if n is not None else ladder_analysis.default_games(spec.name)
        share = ladder_analysis.default_share(spec.name, search_share)
        chunk = shared.chunk_size or ladder_analysis.default_chunk(n_games, share)
        config, rs, left = ladder_analysis.ladder_config(spec, user, n_players, shared.seed, levels, chunk, share)
        run_dir = shared.out_dir or runs.new_run_dir(Path("runs"), f"{spec.name}-ladder")
        from balance.analysis.preflight import check_out

        check_out(run_dir, spec, config, n_games)  # a folder that cannot be run is refused before the plan
        _print_plan(spec, config, n_games, n_players, left)
        # the folder checked (read only) and the engine compiled before the folder is written; resume and
        # Ctrl-C said as in simulate (cli.app.opened_run)
        with _app["opened_run"](spec, config, run_dir, n_games, _app["_command_line"](), ladder_analysis.KIND,
                                shared.quiet, shared.scheduler, shared.workers) as (prepared, executor):
            _app["_play"](spec, config, run_dir, n_games, shared.quiet, None, prepared, executor,
                          label=f"{spec.name} ladder")
            from balance.reports import render_ladder_report

            nodes = ladder_analysis.default_solver_nodes(spec.name) if solver_nodes is None else solver_nodes
            if ladder_analysis.solver_for(spec.name) is not None and nodes > 0:
                deals = ladder_analysis.bound_deals(config, n_games)
                if not shared.quiet:
                    _app["err"].print(f"solver: {sum(deals.values()):,} deals, at most {nodes:,} nodes each",
                                      markup=False, highlight=False)
                ladder_analysis.solve_bound(run_dir, config, spec, n_games, nodes)
            manifest = runs.load_manifest(run_dir)
            analysed = ladder_analysis.analyse(run_dir, manifest, spec, shared.margin)
            result = ladder_analysis.write(run_dir, analysed, _app["_command_line"]())
            path = render_ladder_report(run_dir, result)
        print_ladder(result)
        _app["out"].print(f"ladder folder: {run_dir}\nreport: {path}", highlight=False)
        return run_dir


def _print_plan(spec, config, n_games: int, players: int, left: list[str]) -> None:
    from balance.analysis import ladder as ladder_analysis

    rows = ladder_analysis.plan(config, n_games)
    competitive = ladder_analysis.is_competitive(spec, players)
    bits = []
    for r in rows:
        where = f"level {r['level']} " if r["level"] is not None else ""
        seats = f" x {r['variants']} seats" if r["variants"] > 1 else ""
        bits.append(f"{where}{r['rung']}: n = {r['deals']:,} deals{seats}")
    how = ("one seat of each policy among greedy seats, moved round the table" if competitive
           else "every seat the policy")
    err = _app["err"]
    err.print(f"ladder {spec.name}, {players} player(s), {how}; {sum(r['games'] for r in rows):,} games:\n  "
              + "\n  ".join(bits), markup=False, highlight=False, soft_wrap=True)
    for why in left:
        err.print(f"left out: {why}", markup=False, highlight=False, soft_wrap=True)


def _pct(v) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"


def _pts(d) -> str:
    if not d or d.diff is None:
        return "-"
    rng = f" [{100 * d.ci[0]:+.1f}, {100 * d.ci[1]:+.1f}]" if d.ci[0] is not None else ""
    return f"{100 * d.diff:+.1f}{rng} (n={d.n:,})"


def print_ladder(result) -> None:
    """`balance ladder`'s tables, from analyse's typed result (analysis.ladder_result.LadderAnalysis)."""
    out = _app["out"]
    competitive = result.competitive
    for lad in result.ladders:
        where = f", level {lad.level}" if lad.level is not None else ""
        t = Table(title=f"skill ladder: {result.game}, {result.players} player(s){where}, seed {result.seed} "
                        f"- {lad.metric}")
        cols = ["policy", "win rate", "95% CI", "n"]
        cols += ["fair share", "vs fair share, pts [95% CI]"] if competitive else []
        cols += ["vs the rung below, pts", "vs greedy, pts"]
        for c in cols:
            t.add_column(c, justify="left" if c == "policy" else "right")
        prev = None
        for e in lad.policies:
            row = [e.label + (" (open-hand search)" if e.bound else ""), _pct(e.value),
                   f"{_pct(e.ci[0])} - {_pct(e.ci[1])}", f"{e.n:,}"]
            if competitive:
                row += [_pct(e.fair_share), _pts(e.vs_fair)]
            vs = e.vs or {}
            row += [_pts(vs.get(prev)) if prev else "", _pts(vs.get("greedy")) if e.label != "greedy" else ""]
            t.add_row(*row)
            prev = e.label
        out.print(t)
        from balance.reports.ladder import bound_sentence, strength_sentences

        tour = lad.tournament
        if tour is not None and tour.players:
            t2 = Table(title=f"tournament{where}: Bradley-Terry ratings, {tour.anchor} at 0, "
                             f"{tour.n_deals:,} deals")
            for c in ("rung", "rating", "95% CI", f"P(beats {tour.anchor})", "deals"):
                t2.add_column(c, justify="left" if c == "rung" else "right")
            for p in sorted(tour.players, key=lambda p: -p.rating):
                t2.add_row(p.label, f"{p.rating:+.2f}", f"[{p.ci[0]:+.2f}, {p.ci[1]:+.2f}]",
                           _pct(p.p_beats_anchor), f"{p.deals:,}")
            out.print(t2)
        for s in strength_sentences(lad)[1:] if tour is not None and tour.players else strength_sentences(lad):
            out.print(s, highlight=False, markup=False)
        bs = bound_sentence(lad)
        if bs:
            out.print(bs, highlight=False, markup=False)
        sk = lad.skill
        if sk:
            out.print(f"how much skill matters{where}: {sk.figure} {_pts(sk)} points (paired; the two rungs chosen "
                      f"on the even-numbered deals, measured on the odd-numbered ones)"
                      + (f"; {sk.over_greedy.figure} {_pts(sk.over_greedy)}" if sk.over_greedy else "")
                      + (f"; expert minus greedy {_pts(sk.expert_vs_greedy)}" if sk.expert_vs_greedy else ""),
                      highlight=False)
    if not result.complete:
        out.print("incomplete: some rungs have fewer games than asked (a run was stopped); run the same command again",
                  highlight=False)
