"""`balance playtests FILE`: a playtest log held against the same settings simulated (analysis.playtests).

Registered by its import in cli/__init__.py. The hidden `--synthesize` writes FILE instead of reading
it: a log of games the simulation played with known policies (--policy, --policy-param) and
settings, the way docs/playtests/ was made (docs/playtests/README.md)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from balance.simcore.errors import BalanceError

from .app import SharedOptions, _command_line, _players, _spec, command, err, options, out

SYNTH_SEED_NOTE = "synthetic: made by balance playtests --synthesize"


@command()
@options("file game players set_ level cards n seed margin out_dir expert quiet synthesize policy policy_param",
         game="overtime", n=2_000)
def playtests(
    shared: SharedOptions,
    file: Annotated[Path, typer.Argument(metavar="FILE", help="the playtest log: a CSV, one row per game "
                                         "(players, winners; optional turns, minutes, end, settings, cards, level, "
                                         "date, notes; docs/playtests/README.md)")],
    cards: Annotated[Optional[Path], typer.Option(
        "--cards", metavar="FILE", help="card list file for the rows that name none (a row's own `cards` wins)")] = None,
    expert: Annotated[bool, typer.Option(
        "--expert/--no-expert", help="put expert at the top of the skill grid (it plays a tenth of -n games, "
                                     "every seat expert: 1000x slower than greedy)")] = True,
    synthesize: Annotated[bool, typer.Option("--synthesize", hidden=True,
                                             help="write FILE: -n games of --policy at --set/--level")] = False,
    policy: Annotated[Optional[list[str]], typer.Option("--policy", hidden=True, metavar="NAME")] = None,
    policy_param: Annotated[Optional[list[str]], typer.Option("--policy-param", hidden=True,
                                                              metavar="NAME=VALUE")] = None,
):
    """Hold a playtest log against the same settings simulated: per-seat win rates, nobody-wins, length and
    end reasons side by side (exact intervals, Holm-corrected differences, margin verdicts), the skill rung
    (greedy with epsilon 1..0, expert) that best explains the games and, for the party game with minutes,
    the reaction_median that does. -n is the simulated games per setting and rung; -p keeps the log's games
    of that many players only. Writes playtests.json and report.html."""
    spec = _spec(shared.game)
    if synthesize:
        _synthesize(spec, file, shared.players, shared.set_, shared.level, shared.n, shared.seed, policy,
                    policy_param)
        return
    from balance.analysis import playtests as playtest_analysis
    from balance.analysis import runs

    run_dir = shared.out_dir or runs.new_run_dir(Path("runs"), f"{spec.name}-playtests")
    _check_folder(run_dir)
    say = None if shared.quiet else (lambda text: err.print(text, markup=False, highlight=False, soft_wrap=True))
    result = playtest_analysis.analyse(spec, file, shared.players, shared.set_, shared.level, cards, shared.n,
                                       shared.seed, shared.margin, expert, say)
    result["command"] = _command_line()
    playtest_analysis.write(run_dir, result)
    from balance.reports.playtests import render_playtests_report

    path = render_playtests_report(run_dir, result)
    _print(result)
    out.print(f"playtests folder: {run_dir}\nreport: {path}", highlight=False)


def _check_folder(run_dir: Path) -> None:
    """A new folder, or one this command wrote before (its playtests.json and report.html are replaced)."""
    from balance.analysis.playtests import PLAYTESTS_FILE

    run_dir = Path(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise BalanceError(f"--out: {run_dir} is a file; allowed: a new folder, or one balance playtests wrote")
    if run_dir.is_dir():
        others = sorted(p.name for p in run_dir.iterdir() if p.name not in (PLAYTESTS_FILE, "report.html"))
        if others:
            raise BalanceError(f"--out: {run_dir} holds other files ({', '.join(others[:3])}); allowed: a new folder, "
                               "or one balance playtests wrote")


def _synthesize(spec, file: Path, players, sets, level, n, seed, policy, policy_param) -> None:
    from balance.analysis.playtest_log import synthesize, write_log
    from balance.simcore.batch import parse_policies, seat_labels

    p = _players(spec, players)
    seats = parse_policies(spec, policy, policy_param, p)
    labels = seat_labels(spec, seats, p)
    rows = synthesize(spec, p, list(sets or []), level, seats, n, seed,
                      notes=f"{SYNTH_SEED_NOTE} (seed {seed}): {', '.join(labels)}"
                      + (f"; played at {'; '.join(sets)}" if sets else "") + (f"; level {level}" if level else ""))
    write_log(file, rows)
    out.print(f"wrote {file}: {n:,} synthetic games of {spec.name}, {p} player(s), {', '.join(labels)}", highlight=False)


def _pct(v) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"


def _print(r: dict) -> None:
    c = r["comparison"]
    t = Table(title=f"{r['game']}: {r['games']} playtest game(s) beside {r['sim_games']:,} simulated per setting "
                    f"(greedy); differences Holm-corrected over {c['family_size']}, margin ±{100 * r['margin']:g} pts")
    for col in ("setting", "figure", "playtests [95% CI]", "n", "simulation", "p (Holm)", "verdict", "against the margin"):
        t.add_column(col)
    for it in c["items"]:
        pt, sm = it["playtest"], it["simulation"]
        if it["kind"] == "rate":
            a = f"{_pct(pt['value'])} [{_pct(pt['ci'][0])}, {_pct(pt['ci'][1])}]"
            b = _pct(sm["value"])
        else:
            a = f"{pt['value']:.3g} [{pt['ci'][0]:.3g}, {pt['ci'][1]:.3g}]" if pt["value"] is not None else "-"
            b = f"{sm['value']:.3g}"
        t.add_row(it["group"], it["what"], a, f"{pt['n']:,}", b, f"{it['p_holm']:.2g}",
                  ("differs" if it["significant"] else "no significant difference"), it["margin_verdict"]["words"])
    out.print(t)
    sk = r["skill"]
    lo, hi = sk["interval_words"]
    span = f"{lo} to {hi}" if lo != hi else "no other rung fits"
    at = f"; rungs played at {sk['played_at']}" if sk.get("played_at") else ""
    out.print(f"skill: plays like {sk['best_words']} (95% likelihood-ratio interval: {span}; every seat at one rung; "
              f"{sk['n']} games, from {', '.join(sk['uses'])}{at})", highlight=False)
    rx = r.get("reaction")
    if rx:
        out.print(f"reaction_median: {rx['best']:.2f} s [{rx['interval'][0]:.2f}, {rx['interval'][1]:.2f}] "
                  f"({rx['n']} timed games)", highlight=False)
