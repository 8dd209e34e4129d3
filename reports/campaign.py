"""View model of the campaign report (analysis.campaign.run_campaign): how many
campaigns reach and clear each level, the win rate per attempt by level, the
attempts a level takes, and the games a whole campaign takes."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from markupsafe import Markup

from . import charts, context, fmt, verdicts
from .views import Chart, KeyFigure, RunReport, Table, fmt_ci, fmt_ci_pct, fmt_int, fmt_num, fmt_pct

if TYPE_CHECKING:
    from balance.analysis.campaign_result import CampaignResult


def _policy(r: CampaignResult) -> str:
    names = [p.get("name", "?") for p in r.policies]  # SeatPolicy.describe(): name, kind, params
    return (names[0] if len(set(names)) == 1 else ", ".join(names)) if names else "–"


def sentences(r: CampaignResult) -> list[str]:
    n = r.n_campaigns
    lv = r.levels
    g = r.games_to_clear
    out = [f"{fmt_int(n)} campaigns (seed {r.seed}, policy {_policy(r)}): start at level {lv[0].level}; a win "
           f"moves on, a loss replays the level with one more event (giving up after {fmt_int(r.max_attempts)} "
           f"attempts at one level)."]
    share = g.n / n if n else 0
    if g.n:
        out.append(f"{fmt_int(g.n)} of {fmt_int(n)} campaigns ({fmt.pct(share)}) clear every level, in a median of "
                   f"{fmt_num(g.median)} games (95% CI {fmt_ci(g.median_ci)}; mean "
                   f"{fmt_num(g.mean.value)}, 80% between {fmt_num(g.p10)} and {fmt_num(g.p90)}).")
    else:
        out.append("No campaign clears every level.")
    if r.gave_up:
        out.append(f"{fmt_int(r.gave_up)} campaign{'s' if r.gave_up != 1 else ''} gave up.")
    played = [x for x in lv if x.win_rate.n]
    if played:
        hard = min(played, key=lambda x: x.win_rate.value)
        easy = max(played, key=lambda x: x.win_rate.value)
        w, e = hard.win_rate, easy.win_rate
        out.append(f"The hardest level per attempt is {hard.level}: {fmt_pct(w.value, w.ci)} of attempts won "
                   f"(95% CI {fmt_ci_pct(w.ci)}, n = {fmt_int(w.n)} attempts), taking a mean of "
                   f"{fmt_num(hard.attempts.value)} attempts to clear; the easiest is {easy.level} "
                   f"({fmt_pct(e.value, e.ci)}, n = {fmt_int(e.n)}).")
        vals = [x.win_rate.value for x in played]
        if all(a >= b for a, b in zip(vals, vals[1:])):
            out.append("The win rate per attempt falls at every level: the campaign gets steadily harder.")
        else:
            ups = [f"{b.level}" for a, b in zip(played, played[1:]) if b.win_rate.value > a.win_rate.value]
            out.append(f"The win rate per attempt rises again at level{'s' if len(ups) != 1 else ''} {', '.join(ups)} "
                       f"(easier than the level before, including the events a replay adds).")
    return out


def build_campaign_report(result: CampaignResult, spec=None, command: str | None = None) -> RunReport:
    r = result
    lv = r.levels
    n = r.n_campaigns
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    labels = [str(x.level) for x in lv]
    played = [x for x in lv if x.win_rate.n]
    chart_list = []
    if played:
        svg = charts.ladder([x.level for x in played], [x.win_rate.value for x in played],
                            [x.win_rate.ci[0] for x in played], [x.win_rate.ci[1] for x in played],
                            [x.win_rate.n for x in played], "Win rate per attempt by level")
        chart_list.append(Chart("Win rate per attempt by level", Markup(svg),
                                "Share of attempts won at each level (replays included, each with its extra events), "
                                "95% Wilson intervals; n (second line) = attempts played at that level."))
        a = [x.attempts for x in played]
        svg = charts.mean_bars(labels[:len(played)], [y.value for y in a], [y.ci[0] for y in a],
                               [y.ci[1] for y in a], [y.n for y in a], "Attempts to clear each level",
                               "level (second line: campaigns that cleared it)", "attempts",
                               marks=[y.median for y in a])
        chart_list.append(Chart("Attempts per level", Markup(svg),
                                "Mean attempts among the campaigns that cleared the level (normal 95% interval), "
                                "orange: the median; n = campaigns that cleared it."))
        reach = [{"label": "reached", "y": [x.reached / n for x in lv],
                  "lo": [x.reached / n for x in lv], "hi": [x.reached / n for x in lv],
                  "n": [n] * len(lv)}]
        svg = charts.curves(labels, reach, "Campaigns reaching each level", "level", "share of campaigns", pct=True)
        chart_list.append(Chart("Campaigns reaching each level", Markup(svg),
                                f"Share of the n = {fmt_int(n)} campaigns that played the level at least "
                                f"once (exact counts in the table)."))
    rows = []
    for x in lv:
        w, f, at = x.win_rate, x.first_try, x.attempts
        rows.append([str(x.level), fmt_int(x.reached), fmt_int(x.cleared), fmt_pct(w.value, w.ci),
                     fmt_ci_pct(w.ci), fmt_int(w.n), fmt_pct(f.value, f.ci), fmt_ci_pct(f.ci),
                     fmt_num(at.value), fmt_ci(at.ci), fmt_num(at.median), fmt_int(x.reached)])
    tables = [Table("Levels", ["level", "reached", "cleared", "win rate per attempt", "95% CI", "n attempts",
                               "cleared first try", "95% CI", "mean attempts", "95% CI", "median attempts", "n"], rows,
                    "Win rate per attempt: over every attempt at the level. Cleared first try: share of the campaigns "
                    "that reached the level. Attempts: among campaigns that cleared it. n: campaigns that reached it.")]
    g = r.games_to_clear
    tables.append(Table("Games to clear the whole campaign", ["campaigns", "mean", "95% CI", "median", "95% CI", "p10",
                                                              "p90", "gave up", "n"],
                        [[fmt_int(n), fmt_num(g.mean.value), fmt_ci(g.mean.ci),
                          fmt_num(g.median), fmt_ci(g.median_ci), fmt_num(g.p10), fmt_num(g.p90),
                          fmt_int(r.gave_up), fmt_int(g.n)]],
                        "Over the n campaigns that cleared every level."))
    figs = [KeyFigure("campaigns", fmt_int(n), f"seed {r.seed}, policy {_policy(r)}"),
            KeyFigure("cleared everything", fmt_int(g.n),
                      f"{fmt.pct(g.n / n)} of n = {fmt_int(n)}" if n else "–"),
            KeyFigure("median games to clear", fmt_num(g.median), f"95% CI {fmt_ci(g.median_ci)}, n = {fmt_int(g.n)}"),
            KeyFigure("gave up", fmt_int(r.gave_up), f"after {fmt_int(r.max_attempts)} attempts at one level")]
    title = getattr(spec, "title", None) or r.game
    changes = [c for c in context.rule_changes(dict(r.user_params), spec) if c.name != "level"]
    seats = context.seat_policies(r.policies, spec, r.players)
    settings = context.settings_words(changes, seats)
    words = sentences(r)
    words.insert(1, context.settings_sentence(changes, seats, " (every level)"))
    prov = [("game", str(r.game)), ("players", str(r.players)),
            ("policies", json.dumps(r.policies, sort_keys=True)), ("seed", str(r.seed)),
            ("campaigns", fmt_int(n)), ("attempts before giving up", fmt_int(r.max_attempts)),
            ("fixed parameters", json.dumps(r.user_params, sort_keys=True)),
            ("rule version", str(getattr(spec, "version", "–"))), ("command", command or "–")]
    cards = context.card_lists_of(r.card_list, str(r.game))
    return RunReport(
        title=f"{title}: campaign report" + (f" — {settings}" if settings else ""),
        subtitle=f"{r.game} · {fmt_int(n)} campaigns · levels {lv[0].level}–{lv[-1].level} · "
                 f"seed {r.seed}",
        summary=words,
        about=context.about_sentences(seats, bool(getattr(spec, "cooperative", True)), None),
        warnings=([f"{fmt_int(r.gave_up)} campaigns gave up: the games-to-clear figures leave them out."]
                  if r.gave_up else []),
        key_figures=figs,
        charts=chart_list,
        tables=tables,
        provenance=prov,
        generated=now,
        notes=["Intervals are 95%: Wilson for rates, normal for means, bootstrap for medians."],
        footer=f"Campaign rendered {now} · made by balance from campaign.json.",
        banners=context.card_banner(cards, 1, title or "", "This campaign"),
        block=verdicts.campaign_block(r, {"levels": tables[0].anchor}),
    )
