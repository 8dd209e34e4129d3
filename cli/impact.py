"""`balance impact`: every card removed or added, every rule stepped, on the
same seeds as the baseline, in one run folder (analysis.impact)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.table import Table

from balance.simcore.errors import BalanceError

if TYPE_CHECKING:
    from balance.analysis.impact_result import ImpactResult

from .app import SharedOptions, _command_line, _threads, command, options, out
from .running import run_and_report


@command()
@options("game players level policy policy_param n seed set_ params cards rules power out_dir chunk_size threads "
         "scheduler workers margin precision skill_check quiet", game="overtime", n=10_000)
def impact(
    shared: SharedOptions,
    cards: Annotated[Optional[str], typer.Option(
        "--cards", metavar="NAMES", help="card kinds to remove and add, comma-separated, or 'all' or 'none' "
                        "(default: all, unless --rules is given)")] = None,
    rules: Annotated[Optional[str], typer.Option(
        "--rules", metavar="NAMES", help="rule parameters to step one step down and up (switches: flipped), comma-separated")] = None,
    power: Annotated[bool, typer.Option(
        "--card-power/--no-card-power", help="competitive games: also give one seat one more copy of each card "
                                             "named, on the baseline's deals, and measure that seat's win (card power, "
                                             "the first table)")] = True,
):
    """What each card and rule does to the game: the same seeds played with one copy of a card removed, all
    removed, one added, or a rule stepped; paired differences with corrected intervals, ranked, in one report."""
    from balance.analysis import impact as imp
    from balance.analysis import runs

    _threads(shared.threads)
    spec, n_players, seats, user = shared.setting()
    from balance.simcore.params import resolve

    base = resolve(spec, user)
    rule_names = imp.pick_rules(spec, rules)
    if cards is None and rules is None:
        cards = "all" if imp.card_kinds(spec, base) else None
        if cards is None:
            raise BalanceError(f"--rules: {spec.name} has no card list to ablate, so name rule parameters; "
                               f"allowed: {', '.join(imp.steppable(spec))}")
    kinds = imp.pick_cards(spec, base, cards)
    run_dir = shared.out_dir or runs.new_run_dir(Path("runs"), f"{spec.name}-impact")
    from balance.analysis.preflight import check_target

    check_target(run_dir)  # before the plan writes its card lists there (the whole folder: in run_and_report)
    plan = imp.plan(spec, user, run_dir, kinds, rule_names, power=power)
    config = imp.impact_config(spec, plan, n_players, seats, shared.seed, shared.n, shared.chunk_size)
    try:
        run_and_report(spec, config, run_dir, shared.n, _command_line(), kind="impact", quiet=shared.quiet,
                       scheduler=shared.scheduler, workers=shared.workers, margin=shared.margin,
                       precision=shared.precision, skill_check=shared.skill_check,
                       check_only=lambda folder: imp.check_variants(folder, spec, shared.margin))
    except BaseException:
        imp.discard(plan, run_dir)  # the card lists of a folder that was refused
        raise
    from balance.analysis.impact_result import ImpactResult

    _print(ImpactResult.read(run_dir), run_dir)
    return run_dir


def _pts(x) -> str:
    return "–" if x is None else f"{100 * x:+.1f}"


def _num(x) -> str:
    return "–" if x is None else f"{x:+.3g}"


def _print_power(cp: dict) -> None:
    """Card power first: what one more copy does for the player who gets it."""
    lvl = f"{100 * cp['ci_level']:.4g}%"
    t = Table(title=f"card power: one more copy to one seat ({cp.get('how')}), the receiving seat's win with it minus "
                    f"without on the same deals; {len(cp['rows'])} cards, intervals at {lvl} (Bonferroni over "
                    f"{cp['family_size']}), margin ±{100 * cp['margin']:g} pts")
    for col in ("card", "holder's win", "effect (pts)", f"{lvl} CI", "p (Holm)", "against the margin", "n pairs",
                "length", "nobody wins"):
        t.add_column(col)
    for r in cp["rows"]:
        gl = r.get("game_level") or {}
        length = next((v for k, v in gl.items() if k.startswith("length")), None)
        nobody = gl.get("nobody wins")
        t.add_row(r["card"], f"{_rate(r.get('seat_win_without'))} → {_rate(r.get('seat_win_with'))}", _pts(r["effect"]),
                  f"{_pts(r['ci'][0])} … {_pts(r['ci'][1])}",
                  "–" if r.get("p_holm") is None else f"{r['p_holm']:.2g}", r["margin_verdict"]["words"],
                  f"{r['n']:,}",
                  "–" if not length or length.get("diff") is None else
                  f"{_num(length['diff'])} [{_num(length['ci'][0])}, {_num(length['ci'][1])}]",
                  "–" if not nobody or nobody.get("diff") is None else
                  f"{_pts(nobody['diff'])} [{_pts(nobody['ci'][0])}, {_pts(nobody['ci'][1])}]")
    out.print(t)
    skipped = (cp.get("not_measured") or []) + (cp.get("refused") or [])
    for s in skipped:
        out.print(f"card power not measured: {s['card']}: {s['reason']}", highlight=False, markup=False)


def _rate(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _print(res: ImpactResult, run_dir: Path) -> None:
    cp = res.card_power  # card_power.json's result, as analysis.card_power writes it (not typed yet)
    if cp and cp.get("rows"):
        _print_power(cp)
    rates = res.primary_rate
    b = res.baseline.primary
    lvl = f"{100 * res.ci_level:.4g}%"
    d = _pts if rates else _num
    base = f"{100 * b.value:.1f}%" if rates else f"mean {b.value:.3g}"
    mg = f"±{100 * res.margin:g} pts" if rates else f"±{100 * res.margin:g}% of the baseline's"
    if res.primary_why:
        out.print(res.primary_why, highlight=False)
    t = Table(title=f"impact on the {res.primary}: {len(res.rows)} variants against the baseline "
                    f"({base}, n = {b.n:,}); intervals at {lvl} (Bonferroni over "
                    f"{res.family_size}), margin {mg}")
    for col in ("variant", "diff (pts)" if rates else "diff", f"{lvl} CI", "p (Holm)", "verdict", "against the margin",
                "n", "paired on", "lift (association)"):
        t.add_column(col)
    for r in res.rows:
        lift = r.lift
        t.add_row(r.variant, d(r.diff), f"{d(r.ci[0])} … {d(r.ci[1])}", f"{r.p_holm:.2g}",
                  ("higher" if r.diff > 0 else "lower") if r.significant else "no significant difference",
                  r.margin_verdict.words, f"{r.n_a:,}", r.pairing_basis,
                  "–" if lift is None or lift.lift is None else
                  f"{_pts(lift.lift)} [{_pts(lift.ci[0])}, {_pts(lift.ci[1])}]")
    out.print(t)
    groups: dict[str, list[str]] = {}
    for s in res.skipped:
        groups.setdefault(s.reason, []).append(s.words)
    for reason, which in groups.items():
        shown = ", ".join(which[:6]) + (f" and {len(which) - 6} more" if len(which) > 6 else "")
        out.print(f"not played ({len(which)}): {shown}: {reason}", highlight=False, markup=False)
    sc = res.skill_check
    if sc is not None and sc.played:
        from balance.reports import verdicts

        for v in verdicts.impact_block(res, {}, {}).verdicts:
            if v.skill:
                out.print(f"skill check: {v.skill}", highlight=False, markup=False)
    elif sc is not None:
        out.print(f"skill check: not checked for stronger play: {sc.why}", highlight=False, markup=False)
    out.print(f"run folder: {run_dir}\nreport: {run_dir / 'report.html'}")
