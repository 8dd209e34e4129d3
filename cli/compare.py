"""`balance compare`: two run folders, or two settings played now on the same deals."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from balance.simcore.errors import BalanceError

from .app import SharedOptions, _command_line, _threads, command, options, out
from .running import run_and_report


@command()
@options("run_a run_b game a_set b_set a_variant b_variant players level policy policy_param n seed set_ params "
         "out_dir threads precision margin skill_check quiet", n=100_000)
def compare(
    shared: SharedOptions,
    run_a: Annotated[Optional[Path], typer.Argument(metavar="RUN_A", help="run folder A (or --game to play A and B now)")] = None,
    run_b: Annotated[Optional[Path], typer.Argument(metavar="RUN_B", help="run folder B")] = None,
    a_set: Annotated[Optional[list[str]], typer.Option("--a-set", metavar="NAME=VALUE", help="rule parameter of side A only, NAME=VALUE (with --game)")] = None,
    b_set: Annotated[Optional[list[str]], typer.Option("--b-set", metavar="NAME=VALUE", help="rule parameter of side B only, NAME=VALUE (with --game)")] = None,
    a_variant: Annotated[Optional[str], typer.Option("--a-variant", metavar="NAME", help="variant of run A (sweep folders)")] = None,
    b_variant: Annotated[Optional[str], typer.Option("--b-variant", metavar="NAME", help="variant of run B (sweep folders)")] = None,
):
    """Differences in every headline metric between two runs (RUN_A RUN_B), or between two settings played now on
    the same deals (--game G --a-set ... --b-set ...; --set and --params apply to both), with intervals and
    verdicts."""
    from balance.analysis import runs
    from balance.analysis.compare import compare_runs, write_comparison

    _threads(shared.threads)
    if shared.game is not None:
        if run_a is not None or run_b is not None:
            raise BalanceError("compare: give two run folders, or --game with --a-set/--b-set, not both")
        spec, n_players, seats, base = shared.setting()
        from balance.simcore.params import resolve, user_params
        from balance.analysis.runs import RunConfig, Variant, default_chunk_size

        side_a = {**base, **user_params(spec, a_set)}
        side_b = {**base, **user_params(spec, b_set)}
        variants = [Variant("A", resolve(spec, side_a), user_params(spec, a_set)),
                    Variant("B", resolve(spec, side_b), user_params(spec, b_set))]
        config = RunConfig(spec.name, spec.modes[0], n_players, seats, shared.seed, variants,
                           default_chunk_size(shared.n))
        folder = shared.out_dir or runs.new_run_dir(Path("runs"), f"{spec.name}-compare")
        run_and_report(spec, config, folder, shared.n, _command_line(), kind="compare", quiet=shared.quiet,
                       precision=shared.precision, margin=shared.margin, skill_check=shared.skill_check)
        result = compare_runs(folder, folder, "A", "B", shared.margin)
        sides = (folder, folder, "A", "B")
    else:
        if run_a is None or run_b is None:
            raise BalanceError("compare: give two run folders RUN_A RUN_B, or --game G --a-set ... --b-set ...")
        if (shared.params is not None or shared.set_ or a_set or b_set or shared.precision is not None
                or shared.skill_check is not None):
            raise BalanceError("compare: --set, --params, --a-set, --b-set, --precision and --skill-check play new "
                               "games: give them with --game G, not with two run folders")
        from balance.analysis.preflight import check_result_folder

        check_result_folder(shared.out_dir, "comparison.json and report.html")  # before the comparison, not after it
        result = compare_runs(run_a, run_b, a_variant, b_variant, shared.margin)
        sides = (run_a, run_b, a_variant, b_variant)
        folder = shared.out_dir or runs.new_run_dir(Path("runs"), f"{result['game']}-compare")
    from balance.analysis.compare import skill_check as compare_skill_check

    result["skill_check"] = compare_skill_check(*sides, result, shared.margin)
    from balance.reports import render_compare_report
    from balance.reports.comparison import card_diff_of

    result["card_diff"] = card_diff_of(result)  # kept in comparison.json: a rebuild needs no card file
    res = write_comparison(folder, result, _command_line())  # the typed result, as comparison.json holds it
    path = render_compare_report(folder, res)
    how = f"paired on the {res.pairing_basis}" if res.paired else "independent samples"
    t = Table(title=f"B vs A ({how}; {res.primary} first at alpha {res.alpha:g}, then "
                    f"{res.family_size} more metrics at alpha/{res.family_size}, Bonferroni; "
                    f"margin ±{100 * shared.margin:g} pts)")
    for col in ("metric", "A", "B", "B − A (CI)", "CI level", "p (adjusted)", "verdict", "against the margin"):
        t.add_column(col)

    from balance.reports import fmt
    from balance.reports.comparison import _diff, _diff_ci, _level, _value

    for m in res.headline_first():  # the headline first, every number in the reports' one format
        t.add_row(m.metric, _value(m, "a"), _value(m, "b"), f"{_diff(m)} {_diff_ci(m)}", _level(m),
                  fmt.p(m.p_adjusted), m.verdict, m.margin_verdict.words)
    out.print(t)
    if res.card_diff is not None and res.card_diff.words:
        out.print(f"cards: {res.card_diff.words}", highlight=False)
    said = [res.pairing_words] if res.pairing_words else []
    if res.pairing is not None and res.pairing.correlation is not None:
        said.append(f"correlation of the {res.primary} game by game {res.pairing.correlation:.2f}")
    if res.pairing is not None and res.pairing.words:  # what the pairing bought, as measured (None: no width ratio)
        said.append(res.pairing.words)
    if said:
        out.print("pairing: " + "; ".join(said), highlight=False)
    from balance.reports.verdicts import compare_block

    for v in compare_block(res, {}).verdicts:
        if v.skill:
            out.print(f"skill check: {v.skill}", highlight=False, markup=False)
        elif v.code == "count" and v.sentence.startswith("Not checked"):
            out.print(f"skill check: {v.sentence}", highlight=False, markup=False)
    if res.dropped:
        out.print("left out of the family: " + "; ".join(f"{d.metric} ({d.reason})" for d in res.dropped),
                  highlight=False)
    out.print(f"n: A {res.n_a:,} games, B {res.n_b:,} games\nreport: {path}")
    return folder
