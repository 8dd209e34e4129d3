"""View model of the impact report (analysis.impact's impact.json): what
changes the game, measured by changing it.

Summary first: the baseline, how the variants are paired with it, how many
change the win rate and which most; then a tornado chart of the paired
differences in the win rate (one row per card or rule, one bar per change,
its interval as a whisker, the margin shaded), the ranked table with
intervals, n and the margin verdict, each card's observational lift beside
its effects (labelled as the association it is), the other metrics that
differ, and the variants that were not a legal configuration. Rendered with
the run report's template (run.html.jinja2), like every report. Read from the
typed result (analysis.impact_result.ImpactResult); its `card_power` and
`stopping` parts are read as their own files' writers make them, until those
files have schemas of their own.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

from markupsafe import Markup

from balance.analysis.impact_result import ImpactResult, ImpactRow, PairedRow
from balance.analysis.summary_result import SummaryResult

from . import card_power, charts, context, fmt, verdicts
from .views import Chart, KeyFigure, Paragraph, RunReport, Table, build_about, fmt_int, fmt_p, lift_is_association

CHANGE_ORDER = ("remove_all", "remove_one", "add_one", "down", "flipped", "up")
SERIES = {"remove_all": ("all copies removed", charts.BAD), "remove_one": ("one copy removed", "#dd6b20"),
          "add_one": ("one copy added", charts.GOOD), "down": ("one step down", "#805ad5"),
          "up": ("one step up", charts.BAR), "flipped": ("switch flipped", charts.BAR)}
MAX_ROWS = 25  # factors in one tornado


def lift_words(res: ImpactResult) -> str:
    """What the baseline's lift is (the run report's words, reports/views.py), and what the effect columns are."""
    return (f"{lift_is_association(res.lift_comparison or 'all', 'played')}. The effect columns are what "
            f"removing or adding copies does, measured on the same seeds.")


def _primary(res: ImpactResult) -> str:
    """The ranking metric with its unit: "win rate", or "length (turns)"."""
    name, unit = res.primary, res.primary_unit
    return f"{name} ({unit})" if unit and not res.primary_rate else name


def _pts_or_num(r: PairedRow, key: str) -> str:
    v = getattr(r, key)
    return fmt.pct(v) if r.rate else fmt.num(v)


def _diff(r: PairedRow) -> str:
    return fmt.pts(r.diff) if r.rate else (fmt.num(r.diff) if r.diff is None or r.diff < 0 else "+" + fmt.num(r.diff))


def _ci(r: PairedRow) -> str:
    return fmt.ci_pts(r.ci) if r.rate else fmt.ci_num(r.ci)


def _level(r: PairedRow) -> str:
    return f"{100 * r.ci_level:.4g}%"


def verdict_words(r: PairedRow) -> str:
    """The difference test, read from the interval shown."""
    if r.diff is None:
        return "no data"
    if not r.significant:
        return "no significant difference"
    return "higher" if r.diff > 0 else "lower"


def _lift(r: ImpactRow) -> tuple[str, str]:
    lift = r.lift
    if lift is None or lift.lift is None:
        return "–", "–"
    return fmt.pts(lift.lift), (f"{fmt.ci_pts(lift.ci)}, n = {fmt_int(lift.n_with)} played / "
                                f"{fmt_int(lift.n_without)} not")


def _change(r: ImpactRow) -> str:
    if r.what == "card":
        a, b = (r.copies or [None, None])[:2]
        return f"{r.change_words} ({a} → {b})"
    return f"{r.rule} {fmt.value(r.from_)} → {fmt.value(r.to)}"


def _factor(r: ImpactRow) -> str:
    return r.card if r.what == "card" else r.rule


def factors(rows: list[ImpactRow], what: str) -> list[tuple[str, dict[str, ImpactRow]]]:
    """(card or rule, {change: row}), largest effect on the primary metric first."""
    by: dict[str, dict[str, ImpactRow]] = {}
    for r in rows:
        if r.what == what:
            by.setdefault(_factor(r), {})[r.change] = r
    return sorted(by.items(), key=lambda kv: -max(abs(x.diff or 0.0) for x in kv[1].values()))


def tornado_charts(res: ImpactResult, what: str) -> list[Chart]:
    """The tornado of the card (or rule) variants, largest effect first, in charts of as many factors as print on
    one page with their caption (charts.tornado_rows_per_page): a 25-card tornado in one chart was 2,200 px tall
    at an A4 page's width, and split across pages."""
    fs = factors(res.rows, what)
    if not fs:
        return []
    shown = fs[:MAX_ROWS]
    changes = [c for c in CHANGE_ORDER if any(c in d for _, d in shown)]
    most = charts.tornado_rows_per_page(len(changes))
    per = -(-len(shown) // -(-len(shown) // most))  # as few parts as fit a page each, of even sizes (25: 9, 9, 7)
    parts = [shown[i:i + per] for i in range(0, len(shown), per)]
    out = []
    for j, part in enumerate(parts):
        where = f" ({j * per + 1}–{j * per + len(part)} of {len(shown)})" if len(parts) > 1 else ""
        out.append(_tornado(res, what, part, changes, where, len(fs)))
    return out


def _tornado(res: ImpactResult, what: str, shown: list, changes: list[str], where: str, n_factors: int) -> Chart:
    series = []
    for c in changes:
        name, color = SERIES[c]
        rows = [d.get(c) for _, d in shown]  # (a factor's changes: one row each, or none)
        series.append({"name": name, "color": color,
                       "diffs": [r.diff if r else None for r in rows],
                       "lows": [r.ci[0] if r else None for r in rows],
                       "highs": [r.ci[1] if r else None for r in rows],
                       "significant": [bool(r and r.significant) for r in rows]})
    n = min(r.n_a for _, d in shown for r in d.values())
    level = f"{100 * res.ci_level:.4g}%"
    title = f"{'Cards' if what == 'card' else 'Rules'}{where}: change in the {_primary(res)} (n = {n:,} pairs each)"
    rates = res.primary_rate
    margin = res.margin if rates else next(iter(shown[0][1].values())).margin
    svg = charts.tornado([f for f, _ in shown], series, margin, title,
                         f"variant − baseline{'' if rates else ' (' + _primary(res) + ')'}; whiskers: {level} intervals",
                         unit="pts" if rates else (res.primary_unit or ""))
    more = f" The {n_factors - MAX_ROWS} smaller ones are in the table." if n_factors > MAX_ROWS else ""
    cap = ("Each bar is one variant minus the baseline on the same seeds, game by game; " if what == "card" else
           "Each bar is one step of the rule minus the baseline on the same deals, game by game; ")
    cap += (f"whiskers: {level} intervals (Bonferroni over the {res.family_size} variants, so they hold "
            f"together at 95%); faded bars: the interval includes 0; shaded band: the margin. ")
    return Chart(f"{'Card' if what == 'card' else 'Rule'} ablation{where}: effect on the {_primary(res)}",
                 Markup(svg), cap + f"Largest effect on top.{more}")


# Fits a 1280-px screen (issue 43): the estimate with its interval in one cell, the verdict against the margin
# in one, the lift with its interval and n in one; the intervals' level is the same for every row (the note).
RANK_COLUMNS = ["rank", "variant", "change", "baseline → variant", "difference [CI]", "p (Holm)", "verdict",
                "against the margin", "n pairs", "paired on", "lift in the baseline (association) [CI], n"]


def ranked_table(res: ImpactResult) -> Table:
    rows = []
    for i, r in enumerate(res.rows, 1):
        lift, lift_ci = _lift(r) if r.what == "card" else ("–", "–")
        rows.append([str(i), r.variant, _change(r), f"{_pts_or_num(r, 'a')} → {_pts_or_num(r, 'b')}",
                     f"{_diff(r)} {_ci(r)}", fmt_p(r.p_holm), verdict_words(r),
                     verdicts.LABELS.get(r.margin_verdict.verdict, "–"),
                     fmt_int(r.n_a), r.pairing_basis,
                     "–" if lift == "–" else f"{lift} {lift_ci}"])
    note = (f"Ranked by the difference in the {_primary(res)} (variant minus baseline), most positive first. "
            f"Intervals at {100 * res.ci_level:.4g}% each (Bonferroni over the {res.family_size} "
            f"variants, so they hold together at 95%); the verdict is read from the interval shown; p is Holm-adjusted "
            f"over the same family. Win/loss pairs: exact McNemar test; means: paired t. Margin: "
            + (f"±{fmt.pts(res.margin, signed=False)}. " if res.primary_rate else
               f"±{fmt.pct(res.margin)} of the baseline's {_primary(res)}. ")
            + (res.primary_why[0].upper() + res.primary_why[1:] + ". " if res.primary_why else "")
            + lift_words(res))
    return Table(f"Every variant, ranked by its effect on the {_primary(res)}", RANK_COLUMNS, rows, note,
                 numeric_from=3)


def secondary_table(res: ImpactResult) -> Table | None:
    sec = res.secondary
    if not sec:
        return None
    sig = [r for r in sec if r.significant]
    rows = [[r.variant, r.metric, _pts_or_num(r, "a"), _pts_or_num(r, "b"), _diff(r), _ci(r),
             r.margin_verdict.words, fmt_int(r.n_a)]
            for r in sorted(sig, key=lambda r: -abs(r.diff or 0.0))]
    note = (f"{len(sig)} of the {len(sec)} other (variant, metric) differences exclude 0 at "
            f"{100 * res.secondary_ci_level:.4g}% (Bonferroni over all {len(sec)}); a metric equal to "
            f"another game by game, or the same on both sides, is left out (analysis.compare's rules). Rates in "
            f"points; other metrics in their units, their margin the margin times the baseline's value.")
    return Table("Other metrics that differ from the baseline", ["variant", "metric", "baseline", "variant value",
                                                                  "difference", "CI", "against the margin", "n pairs"],
                 rows, note, numeric_from=2)


def skipped_table(res: ImpactResult) -> Table | None:
    sk = res.skipped
    if not sk:
        return None
    return Table("Not played: not a legal configuration", ["variant", "why"],
                 [[s.words, s.reason] for s in sk],
                 "A count outside its declared field, or a list the game's loader refuses (its deck size, "
                 "exactly one Boss...), or a step outside the rule's declared range.", numeric_from=2)


def file_checks(res: ImpactResult, run_dir: Path | None) -> list[str]:
    """Card lists named by the rows that are missing or changed in the folder."""
    if run_dir is None:
        return []
    bad = []
    for r in res.rows:
        if r.file:
            p = Path(run_dir) / r.file
            if not p.is_file():
                bad.append(f"{r.file} (missing)")
            elif r.sha256 and hashlib.sha256(p.read_bytes()).hexdigest() != r.sha256:
                bad.append(f"{r.file} (changed since the run)")
    return bad


# stopping.json's content (res.stopping) is read as analysis.summary.read_stopping gives it, until it is typed
def _stopped_games(stop: dict) -> int:
    """Games per variant when a --precision run stopped (all variants stop together)."""
    return max((int(v.get("games", 0)) for v in stop.get("variants") or []), default=0)


def _games_per_variant(res: ImpactResult) -> str:
    stop = res.stopping or {}
    if stop.get("stopped_by") == "precision":
        games = _stopped_games(stop)
        return f"{fmt_int(games)} (stopped by --precision {stop['precision']:g}; at most {fmt_int(res.n_requested)})"
    return fmt_int(res.n_requested)


def stopping_words(res: ImpactResult) -> str:
    """What a --precision run stopped at ('' without --precision)."""
    stop = res.stopping or {}
    if not stop:
        return ""
    games = _stopped_games(stop)
    if stop.get("stopped_by") == "precision":
        return (f" Stopped by --precision {stop['precision']:g}: every variant's 95% win-rate interval was narrower "
                f"after {games:,} games each (of at most {int(stop.get('max_games', 0)):,}); all variants stop at the "
                f"same games, so every game keeps its pair.")
    return (f" --precision {stop['precision']:g} was not reached within {int(stop.get('max_games', 0)):,} games "
            f"per variant.")


def baseline_words(res: ImpactResult) -> str:
    b = res.baseline.win_rate
    out = f"The baseline wins {fmt.rate(b.value, b.ci, b.n)}." + stopping_words(res)
    if not res.primary_rate:
        p = res.baseline.primary
        out += (f" Its {_primary(res)}: a mean of {fmt.num(p.value)} (95% CI {fmt.ci_num(p.ci)}, "
                f"n = {fmt_int(p.n)}).")
    return out


def summary_sentences(res: ImpactResult, about) -> list[str]:
    rows = res.rows
    n = min(r.n_a for r in rows) if rows else 0
    cards = [r for r in rows if r.what == "card"]
    out = [f"{baseline_words(res)} Each of the {len(rows)} variants is the baseline with one change, played on the "
           f"same {fmt_int(n)} game indices of seed {res.seed}, and compared with it game by game."]
    if res.primary_why:
        out.append(res.primary_why[0].upper() + res.primary_why[1:] + ".")
    if cards:
        out.append("A card variant changes the deck, so its games share the baseline's random streams (the same "
                   "seeds) but not its deals; a rule variant on the same card list replays the same deals.")
    sig = [r for r in rows if r.significant]
    within = sum(1 for r in rows if r.margin_verdict.verdict == "within_margin")
    beyond = sum(1 for r in rows if r.margin_verdict.verdict == "beyond_margin")
    mg = (f"±{fmt.pts(res.margin, signed=False)}" if res.primary_rate else
          f"±{fmt.pct(res.margin)} of the baseline's {_primary(res)}")
    out.append(f"{len(sig)} of {len(rows)} change the {_primary(res)} (intervals at "
               f"{100 * res.ci_level:.4g}%, Bonferroni over the {len(rows)}); against the margin of "
               f"{mg}, {beyond} differ by more than it and {within} are balanced within it.")
    up = [r for r in sig if r.diff > 0]
    down = [r for r in sig if r.diff < 0]
    if up:
        r = up[0]
        out.append(f"Largest rise: {r.variant}, {_diff(r)} ({_level(r)} CI {_ci(r)}, n = {fmt_int(r.n_a)} pairs).")
    if down:
        r = min(down, key=lambda r: r.diff)
        out.append(f"Largest fall: {r.variant}, {_diff(r)} ({_level(r)} CI {_ci(r)}, n = {fmt_int(r.n_a)} pairs).")
    if res.skipped:
        out.append(f"{len(res.skipped)} variant{'s were' if len(res.skipped) != 1 else ' was'} not played "
                   f"(not a legal configuration): see the last table.")
    if cards:
        out.append("Lift, shown beside each card, is not an effect: it compares the seat-games where the card was "
                   "played with the others of the same games and says how much more often winners played it.")
    if about is not None and about.reconstruction:
        out.append("The card lists are reconstructions: the baseline plays the shipped reconstructed list, and every "
                   "card variant is a one-card edit of it (written into this folder's cards/), so the card names "
                   "and effects are about invented cards.")
    return out


def key_figures(res: ImpactResult) -> list[KeyFigure]:
    rows = res.rows
    b = res.baseline.primary
    rates = res.primary_rate
    sig = sum(1 for r in rows if r.significant)
    figs = [KeyFigure(f"baseline {_primary(res)}", fmt.pct(b.value) if rates else fmt.num(b.value),
                      f"95% CI {fmt.ci_pct(b.ci) if rates else fmt.ci_num(b.ci)}, n = {fmt_int(b.n)}"),
            KeyFigure("variants played", fmt_int(len(rows)), f"{fmt_int(len(res.skipped))} not legal, skipped"),
            KeyFigure(f"change the {_primary(res)}", f"{sig} of {len(rows)}",
                      f"intervals at {100 * res.ci_level:.4g}% (Bonferroni)")]
    power = (res.card_power or {}).get("rows") or []  # card_power.json's rows, as analysis.card_power writes them
    if power:  # card power leads: the strongest card for the player who gets one more copy
        p = power[0]
        figs.insert(0, KeyFigure("strongest card for its holder", fmt.pts(p.get("effect")),
                                 f"{p['card']}: one more copy, CI {fmt.ci_pts(p.get('ci'))}, n = {fmt_int(p.get('n'))}"))
    if rows:
        top = rows[0]
        figs.append(KeyFigure("largest rise", _diff(top), f"{top.variant}, CI {_ci(top)}"))
        bot = rows[-1]
        figs.append(KeyFigure("largest fall", _diff(bot), f"{bot.variant}, CI {_ci(bot)}"))
    return figs


def provenance(res: ImpactResult, manifest: dict, summary: SummaryResult, run_dir: Path | None, spec=None) -> list[tuple[str, str]]:
    cfg = manifest.get("config") or {}
    pols = context.policy_rows(cfg.get("policies"), spec, cfg.get("players"))  # each parameter by name
    base = res.baseline
    cl = base.card_list or {}  # the manifest's card_list record, as the manifest holds it
    rows = [("run folder", run_dir.name if run_dir else "–"), ("kind", "impact"),
            ("game", f"{res.game} ({res.title})"), ("players", str(res.players)),
            ("seed", str(res.seed)), ("policies", pols),
            ("games per variant", _games_per_variant(res)),
            ("baseline rule parameters", json.dumps(base.params, sort_keys=True)),
            ("baseline card list", f"{cl.get('file', '–')} (sha256 {str(cl.get('sha256', '–'))[:16]})"
                                   + (", a reconstruction" if cl.get("reconstruction") else "")),
            ("cards asked", ", ".join(res.asked.cards) or "none"),
            ("rules asked", ", ".join(res.asked.rules) or "none"),
            ("variant card lists", "cards/ in this folder (data only, never executed); each row names its file "
                                   "and sha256 in impact.json"),
            ("correction", res.family), ("margin", f"{res.margin:g}"),
            ("engine hash", str(cfg.get("engine_hash", "–"))), ("package version", str(manifest.get("package_version", "–"))),
            ("created", str(manifest.get("created", "–"))), ("command", str(manifest.get("command", "–")))]
    if not summary.complete:
        rows.append(("complete", "no: some chunks are not committed; run the same command again to finish"))
    return rows


def build_impact_report(res: ImpactResult, summary: SummaryResult, manifest: dict, run_dir: Path | None,
                        spec=None) -> RunReport:
    base_params = res.baseline.params
    base_summary = next((v for v in summary.variants or [] if v.name == "baseline"), summary)
    s = summary.at(base_summary)  # the baseline's seats
    only_base = {**manifest, "config": {**(manifest.get("config") or {}),
                                        "variants": (manifest.get("config") or {}).get("variants", [])[:1]}}
    about = build_about(s, only_base, run_dir, spec, base_params)
    cp = res.card_power
    power = card_power.view(cp, (cp or {}).get("not_measured"))
    charts_ = (power.charts if power else []) + tornado_charts(res, "card") + tornado_charts(res, "rule")
    tables = (power.tables if power else []) + [t for t in (ranked_table(res), secondary_table(res),
                                                            skipped_table(res)) if t]
    warnings = []
    if not summary.complete:
        warnings.append("Not every game is played yet (a stopped run): the figures are from the committed chunks; "
                        "run the same command again to finish.")
    bad = file_checks(res, run_dir)
    if bad:
        warnings.append("Card lists of this folder are missing or changed: " + "; ".join(bad[:5])
                        + ". The figures are from the games played with the lists the manifest records.")
    banners = context.card_banner(about.cards, 1, about.game_title)
    if about.reconstruction:
        banners.append("Every card variant below is a one-card edit of that reconstructed list: removing or adding "
                       "invented cards. Impact measured here is about them.")
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    settings = context.settings_sentence(about.changes, about.seats, " of the baseline")
    ranked = ranked_table(res)
    anchors = {"ranked": ranked.anchor,
               "cards": next((c.anchor for c in charts_ if c.title.startswith("Card ablation")), "")}
    block = verdicts.impact_block(res, base_summary, anchors)
    if power:  # card power leads: what a card does for the player who has it
        skill = res.skill_check.model_dump(by_alias=True) if res.skill_check is not None else None
        block = replace(block, verdicts=card_power.verdict_list(cp, power.anchor, skill=skill) + block.verdicts)
    return RunReport(
        title=f"{res.title or res.game}: impact of cards and rules",
        subtitle=f"{res.game} · {res.players} player(s) · {_games_per_variant(res)} games per "
                 f"variant · {len(res.rows)} variants · seed {res.seed}",
        summary=(power.sentences if power else []) + summary_sentences(res, about) + [settings],
        warnings=warnings,
        key_figures=key_figures(res),
        charts=charts_,
        tables=tables,
        provenance=provenance(res, manifest, summary, run_dir, spec),
        generated=now,
        notes=["Differences are variant − baseline, game by game on the same game indices of one seed. Rates in "
               "percent, their differences in points (pts). Win/loss: exact McNemar test with its interval; other "
               "metrics: paired t intervals. " + lift_words(res)],
        paragraphs=[Paragraph("How to read it", [
            "An effect here is causal for these players: the same seeds played with the card list or the rule "
            "changed, nothing else. It is about the policy that played (above); other players may differ.",
            "A card whose removal leaves the win rate unchanged can still matter to how the game feels; a card "
            "with a large lift and no effect is one winners happen to play."])],
        banners=banners,
        about=context.about_sentences(about.seats, summary.cooperative, about.ladder),
        footer=f"Impact report rendered {now} · made by balance from the run folder alone (impact.json, summary.json).",
        block=block,
    )
