"""View model of the skill-ladder report (analysis.ladder): who wins how much
on the same deals as the player gets stronger, per level when there are
several, with intervals; the "how much skill matters" figure (the best rung
minus the weakest, chosen on some deals and measured on others); for a
competitive game, each rung's seat against its fair share, the head-to-head
tables and the tournament's ratings; for Sick Days solo the exhaustive
solver's bound. Every sentence about strength is read from an interval and
names the rungs it compares (`strength_sentences`, also printed by the CLI).

Laid out by the shared page template (templates/run.html.jinja2), as every
report is; everything here is read from the ladder's typed result alone
(analysis.ladder_result.LadderAnalysis: summary.json's ladder result)."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Optional

from markupsafe import Markup

from . import charts, context, fmt, verdicts
from .views import Chart, KeyFigure, RunReport, Table, fmt_int

if TYPE_CHECKING:
    from balance.analysis.ladder_result import Ladder, LadderAnalysis, Paired, Rung


def _lv(lad: Ladder) -> str:
    return f"level {lad.level}" if lad.level is not None else ""


def _d(d: Optional[Paired]) -> str:
    return fmt.diff(d.diff, d.ci) + f", n = {fmt_int(d.n)}" if d and d.diff is not None else "–"


def _cell(d: Optional[Paired]) -> str:
    if not d or d.diff is None:
        return "–"
    return f"{fmt.pts(d.diff)} {fmt.ci_pts(d.ci)}"


def _real(lad: Ladder) -> list[Rung]:
    return [e for e in lad.policies if not e.bound and e.value is not None]


OPEN_HAND_WORDS = ("the open-hand search (oracle) sees the hidden cards but tries only a few lines: it is not a "
                   "player, and not an upper bound either")


def _rating(x) -> str:
    return "–" if x is None else f"{x:+.2f}"


def _ci_rating(ci) -> str:
    return "–" if not ci or ci[0] is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"


def _h2h_words(e: Rung) -> str:
    """A head-to-head table, from the paired interval of A's seat minus its fair share."""
    vf = e.vs_fair
    a, b = e.a, e.b
    if vf is None or vf.diff is None:
        return f"{a} against {b} ({e.table}): not measured."
    lo, hi = vf.ci
    who = (f"{a} beats {b}" if lo is not None and lo > 0 else f"{b} beats {a}" if hi is not None and hi < 0
           else f"{a} and {b} cannot be told apart head to head")
    return (f"{who}: {a}'s seat wins {fmt.pct(e.value)} {fmt.ci_pct(e.ci)}, paired {_d(vf)} deals against its "
            f"fair share of {fmt.pct(e.fair_share)} ({e.table}).")


def strength_sentences(lad: Ladder) -> list[str]:
    """The sentences about strength at one setting, each from an interval, each naming its rungs."""
    out = []
    tour = lad.tournament
    ps = tour.players if tour is not None else []
    if ps:
        ranked = sorted(ps, key=lambda p: -p.rating)
        out.append(f"Tournament ratings ({tour.method}; every pairing of rungs at one table, on "
                   f"{fmt_int(tour.n_deals)} deals): " + "; ".join(
                       f"{p.label} {_rating(p.rating)} {_ci_rating(p.ci)}" + (" (anchor)" if p.anchor else "")
                       for p in ranked) + ".")
        pairs = {frozenset((q.a, q.b)): q for q in tour.pairs}
        unfit = {frozenset((q.a, q.b)) for q in tour.pairings if q.fits is False}
        said = []
        for hi_, lo_ in zip(ranked, ranked[1:]):
            q = pairs.get(frozenset((hi_.label, lo_.label)))
            if q is None:
                continue
            if frozenset((hi_.label, lo_.label)) in unfit:
                said.append(f"{hi_.label} and {lo_.label}: no verdict from the ratings, which do not fit the "
                            f"table where they met (below)")
                continue
            d = q.diff if q.a == hi_.label else -q.diff
            ci = q.ci if q.a == hi_.label else [-q.ci[1], -q.ci[0]]
            said.append(f"{q.verdict.words} (rating {hi_.label} minus {lo_.label} {_rating(d)} "
                        f"{_ci_rating(ci)})")
        if said:
            out.append("Neighbours in the ratings: " + "; ".join(said) + ".")
        misfit = [q for q in tour.pairings if q.fits is False]
        if misfit:
            out.append("The ratings do not fit every table, so strength is not one number here: " + "; ".join(
                f"{q.a} against {q.b} ({q.table} table): {q.a} won {fmt.pct(q.observed)} "
                f"{fmt.ci_pct(q.observed_ci)} of their comparisons on {fmt_int(q.deals)} deals, the ratings "
                f"predict {fmt.pct(q.predicted)}" for q in misfit)
                       + ". For these rungs read the table, not the ratings.")
        if not tour.connected:
            out.append("Some rungs never met at one table: their ratings rest on the prior alone.")
    for e in lad.head_to_head or []:
        out.append(_h2h_words(e))
    return [s[:1].upper() + s[1:] for s in out]


def bound_sentence(lad: Ladder) -> str | None:
    b = lad.solver_bound
    if not b:
        return None
    lv = _lv(lad)
    low, high = b.low, b.high
    where = f" at {lv}" if lv else ""
    s = (f"Winnable by some line{where}: between {fmt.pct(low.value)} and {fmt.pct(high.value)} of {fmt_int(b.deals)} "
         f"deals (95% CI {fmt.ci_pct(b.ci)}): {fmt_int(b.winnable)} winnable (every winning line replayed through the "
         f"engine), {fmt_int(b.not_winnable)} not winnable, {fmt_int(b.unknown)} unknown (the solver's budget of "
         f"{fmt_int(b.nodes)} nodes a deal ran out; counted as lost for the low figure, as won for the high). "
         f"The solver knows the deck order and how every shuffle falls, so no player wins more.")
    beside = [f"{k} {fmt.pct(v.rate.value)} {fmt.ci_pct(v.rate.ci)}" for k, v in b.rungs.items()
              if k in ("greedy", "expert", "oracle")]
    if beside:
        s += " On the same deals: " + ", ".join(beside) + "."
    broken = [k for k, v in b.rungs.items() if v.won_not_winnable]
    if broken:
        s += (" WARNING: " + ", ".join(broken) + " won deals the solver calls not winnable: the solver is wrong "
              "there; do not read this bound.")
    return s


def headroom_words(d: Paired) -> str:
    """What stronger play than greedy does to greedy's figures, read from the paired interval."""
    lo, hi = d.ci
    if lo is None:
        return "not measured with an interval."
    if lo > 0 and d.diff >= context.MOVES_A_LOT:
        return "a figure measured with greedy would move a lot with stronger play."
    if lo > 0:
        return "stronger play moves greedy's figures a little."
    if hi < context.MOVES_A_LOT and lo > -context.MOVES_A_LOT:
        return (f"no significant gain, and less than {fmt.pts(context.MOVES_A_LOT, signed=False)} either way: greedy's "
                f"figures are close to what this stronger play gets.")
    return "not enough deals to say how much stronger play would move greedy's figures."


def sentences(r: LadderAnalysis) -> list[str]:
    comp = r.competitive
    how = (f"one seat of each policy among {r.players - 1} greedy seat{'s' if r.players > 2 else ''}, the "
           f"policy's seat moved round the table on every deal (so seat advantage cancels out)" if comp
           else "every seat playing the policy" if r.players > 1 else "the player playing each policy in turn")
    share = r.search_share
    out = [f"The same deals (seed {r.seed}) played by players of rising skill, {how}. "
           + (f"The search policies play the first part of the deals the others play ("
              + ", ".join(f"{k} {fmt.pct(v)}" for k, v in share.items())
              + "), so every comparison is on common deals (its n says how many)." if share else "")]
    for lad in r.ladders:
        lv = _lv(lad)
        head = f"At {lv}: " if lv else ""
        bits = "; ".join(f"{e.label} {fmt.pct(e.value)} {fmt.ci_pct(e.ci)}" + (" (open-hand search)" if e.bound else "")
                         for e in lad.policies if e.value is not None)
        metric = lad.metric if head else lad.metric[:1].upper() + lad.metric[1:]  # a sentence of its own
        out.append(f"{head}{metric}: {bits}.")
        sk = lad.skill
        if sk:
            big = sk.ci[0] is not None and (sk.ci[0] > 0 or sk.ci[1] < 0)
            out.append(f"How much skill matters{' at ' + lv if lv else ''}: {sk.figure} is {_d(sk)}, on the same deals"
                       + ("" if big else " (not significantly different from zero)")
                       + (" (the best and the weakest rung chosen on the even-numbered deals, the figure measured on the "
                          "odd-numbered ones)" if sk.measured_on else "") + "."
                       + (f" Above greedy, {sk.over_greedy.figure} is {_d(sk.over_greedy)}: "
                          + headroom_words(sk.over_greedy) if sk.over_greedy else ""))
        if sk and sk.expert_vs_greedy and sk.expert_vs_greedy.ci[1] is not None and sk.expert_vs_greedy.ci[1] < 0:
            out.append(f"Expert does worse than greedy here ({_d(sk.expert_vs_greedy)}): its search does not "
                       f"find stronger play in this game and setting, so it is not the top of the ladder.")
        if comp:
            above = [e.label for e in _real(lad) if e.vs_fair is not None and e.vs_fair.significant and e.vs_fair.diff > 0]
            below = [e.label for e in _real(lad) if e.vs_fair is not None and e.vs_fair.significant and e.vs_fair.diff < 0]
            out.append(f"One seat among greedy seats wins significantly more than its fair share: {', '.join(above) or 'none'}; "
                       f"significantly less: {', '.join(below) or 'none'} (95% intervals of the paired difference to the "
                       f"fair share in the same games; a standing among greedy seats, not among stronger players).")
            out += strength_sentences(lad)
        bound = next((e for e in lad.policies if e.bound), None)
        top = next((e for e in _real(lad) if e.name == "expert"), None)
        if bound is not None and top is not None and top.label in (bound.vs or {}):
            out.append(f"{OPEN_HAND_WORDS[:1].upper() + OPEN_HAND_WORDS[1:]}: oracle minus expert is "
                       f"{_d(bound.vs[top.label])} deals.")
        bs = bound_sentence(lad)
        if bs:
            out.append(bs)
    if r.left_out:
        out.append("Left out: " + "; ".join(r.left_out) + ".")
    if not r.complete:
        out.append("This ladder is incomplete (a run was stopped): some rungs have fewer games than asked. Run the "
                   "same command again to finish it.")
    return out


def _charts(r: LadderAnalysis) -> list[Chart]:
    out = []
    comp = r.competitive
    for lad in r.ladders:
        lv = _lv(lad)
        es = [e for e in lad.policies if e.value is not None]
        if not es:
            continue
        labels = [e.label + (" (open hand)" if e.bound else "") for e in es]
        fair = None
        if comp:
            fairs = [e.fair_share for e in es if e.fair_share is not None]
            fair = sum(fairs) / len(fairs) if fairs else None
        svg = charts.interval_bars(labels, [e.value for e in es], [e.ci[0] for e in es],
                                   [e.ci[1] for e in es], [e.n for e in es],
                                   f"Skill ladder{' at ' + lv if lv else ''}", reference=fair,
                                   xlabel="win rate of the policy's seat" if comp else "win rate")
        out.append(Chart(f"Skill ladder{' — ' + lv if lv else ''}", Markup(svg),
                         f"{lad.metric}, weakest first, 95% intervals ({es[0].interval}); n = "
                         + ("deals (each played once per seat of the policy)" if comp else "games")
                         + (f"; dashed line: the fair share ({fmt.pct(fair)})" if fair is not None else "") + "."))
        if comp:
            rows = [e for e in es if e.vs_fair and e.vs_fair.diff is not None]
            if rows:
                svg = charts.fair_share_forest([e.label for e in rows], [e.vs_fair.diff for e in rows],
                                               [e.vs_fair.ci[0] for e in rows], [e.vs_fair.ci[1] for e in rows],
                                               [e.vs_fair.n for e in rows], fair or 0.0,
                                               "One seat of the policy among greedy seats, against its fair share")
                out.append(Chart("Against the fair share", Markup(svg),
                                 "The policy's seat win rate minus its fair share in the same games (mean winners per "
                                 "game / players), paired by deal, 95% t interval; n = deals."))
    if len(r.ladders) > 1:
        levels = [str(lad.level) for lad in r.ladders]
        labels = list(dict.fromkeys(e.label for lad in r.ladders for e in lad.policies))
        series = []
        for lab in labels:
            pts = [lad.rung(lab) for lad in r.ladders]
            series.append({"label": lab, "y": [p.value if p else None for p in pts],
                           "lo": [p.ci[0] if p else None for p in pts], "hi": [p.ci[1] if p else None for p in pts],
                           "n": [p.n if p else 0 for p in pts]})
        svg = charts.curves(levels, series, "Win rate by level, per policy", "level", "win rate",
                            numeric_x=[float(x) for x in levels], pct=True, legend_title="policy")
        out.append(Chart("Levels by policy", Markup(svg),
                         "Win rate per level for each policy on the same deals, 95% Wilson bands; the oracle is an "
                         "open-hand search: not a player, and not an upper bound.", wide=True))
    return out


def _tables(r: LadderAnalysis) -> list[Table]:
    comp = r.competitive
    out = []
    for lad in r.ladders:
        lv = _lv(lad)
        cols = ["policy", "win rate", "95% CI", "n"]
        if comp:
            cols += ["fair share", "minus fair share [95% CI]", "verdict"]
        cols += ["minus the rung below [95% CI]", "minus greedy [95% CI]", "pairs"]
        rows, prev = [], None
        for e in lad.policies:
            row = [e.label + (" (open-hand search)" if e.bound else ""), fmt.pct(e.value),
                   fmt.ci_pct(e.ci), fmt_int(e.n)]
            if comp:
                vf = e.vs_fair
                row += [fmt.pct(e.fair_share), _cell(vf), (vf.verdict.words if vf is not None else None) or "–"]
            vs = e.vs or {}
            below = vs.get(prev) if prev else None
            vs_g = vs.get("greedy") if e.label != "greedy" else None
            pair = below or vs_g
            row += [_cell(below), _cell(vs_g), fmt_int(pair.n if pair is not None else None)]
            rows.append(row)
            prev = e.label
        note = ("Differences are paired on the same deals: " + ("exact McNemar with Newcombe's interval (win/loss per game)."
                if not comp else "the mean over deals of the per-deal difference, t interval (a deal's value is the "
                "policy seat's mean result over the seats it sat at). Greedy among greedy seats is the fair share "
                "by construction (every seat is the greedy seat): its interval is that of the fair share."))
        out.append(Table(f"Skill ladder{' — ' + lv if lv else ''}", cols, rows, note))
        tour = lad.tournament
        if tour is not None and tour.players:
            trs = [[p.label + (" (anchor)" if p.anchor else ""), _rating(p.rating), _ci_rating(p.ci),
                    fmt.pct(p.p_beats_anchor), fmt_int(p.deals)]
                   for p in sorted(tour.players, key=lambda p: -p.rating)]
            out.append(Table(f"Tournament ratings{' — ' + lv if lv else ''}",
                             ["rung", "rating", "95% CI", f"P(beats {tour.anchor})", "deals"], trs,
                             f"{tour.method}. A rating is a log-odds: two rungs 1.0 apart, the stronger beats "
                             f"the weaker in 73% of comparisons (a comparison: two seats at one table, one won, the "
                             f"other did not)."))
            prs = [[q.a, q.b, _rating(q.diff), _ci_rating(q.ci), q.verdict.words,
                    ", ".join(q.head_to_head) or "through other rungs"] for q in tour.pairs]
            out.append(Table(f"Tournament: every pair of rungs{' — ' + lv if lv else ''}",
                             ["rung A", "rung B", "A minus B", "95% CI", "verdict", "met at"], prs,
                             "Each verdict from its own 95% interval (no correction across the pairs: read one pair, "
                             "not the table, as a test)."))
        if lad.head_to_head:
            hrs = [[e.label, e.table or "", fmt.pct(e.value), fmt.ci_pct(e.ci), fmt_int(e.n),
                    fmt.pct(e.fair_share), _cell(e.vs_fair)] for e in lad.head_to_head]
            out.append(Table(f"Head to head{' — ' + lv if lv else ''}",
                             ["table", "seating", "A's seat wins", "95% CI", "deals", "fair share", "minus fair share"],
                             hrs, "The first-named rung's seat, moved round the table; paired with the fair share in the "
                                  "same games, t interval over deals."))
        b = lad.solver_bound
        if b:
            brs = [["winnable (line replayed)", fmt_int(b.winnable), fmt.pct(b.low.value), fmt.ci_pct(b.low.ci)],
                   ["not winnable", fmt_int(b.not_winnable), fmt.pct(b.not_winnable / b.deals), "–"],
                   ["unknown (budget ran out)", fmt_int(b.unknown), fmt.pct(b.unknown / b.deals), "–"],
                   ["winnable or unknown", fmt_int(b.winnable + b.unknown), fmt.pct(b.high.value),
                    fmt.ci_pct(b.high.ci)]]
            for k, v in b.rungs.items():
                brs.append([f"{k} won (same deals)", fmt_int(v.won), fmt.pct(v.rate.value), fmt.ci_pct(v.rate.ci)])
            out.append(Table(f"Winnable by some line{' — ' + lv if lv else ''}", ["deals", "count", "share", "95% CI"],
                             brs, f"Exhaustive solver ({b.how}); {fmt_int(b.deals)} deals, at most "
                                  f"{fmt_int(b.nodes)} nodes a deal (median used {fmt.num(b.nodes_median, 0)}). "
                                  f"Wilson intervals."))
    return out


def build_ladder_report(r: LadderAnalysis, spec=None, command: str | None = None, manifest: dict | None = None,
                        run_dir=None) -> RunReport:
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    params = r.ladders[0].params if r.ladders else {}
    changes = [c for c in context.rule_changes(params, spec) if c.name != "level" or len(r.ladders) == 1]
    settings = context.settings_words(changes, [])
    figs = []
    for lad in r.ladders:
        sk = lad.skill
        lv = _lv(lad)
        if sk:
            figs.append(KeyFigure(f"skill matters{' (' + lv + ')' if lv else ''}", fmt.pts(sk.diff),
                                  f"{sk.figure}, 95% CI {fmt.ci_pts(sk.ci)}, n = {fmt_int(sk.n)} deals"))
        for name in ("greedy", "expert"):
            e = lad.rung(name)
            if e is not None:
                figs.append(KeyFigure(f"{name}{' (' + lv + ')' if lv else ''}", fmt.pct(e.value),
                                      f"95% CI {fmt.ci_pct(e.ci)}, n = {fmt_int(e.n)}"))
        b = lad.solver_bound
        if b:
            figs.append(KeyFigure(f"winnable{' (' + lv + ')' if lv else ''}",
                                  f"{fmt.pct(b.low.value)}–{fmt.pct(b.high.value)}",
                                  f"by some line, 95% CI {fmt.ci_pct(b.ci)}, n = {fmt_int(b.deals)} deals "
                                  f"({fmt_int(b.unknown)} unknown)"))
    notes = ["Intervals are 95%: Wilson for win rates of games, normal for means over deals; differences are paired "
             "on the same deals. The oracle is an open-hand search (it sees the hidden cards but tries few lines): "
             "never a player, and not an upper bound; the bound is the exhaustive solver's, where the game has one."]
    prov = [("game", str(r.game)), ("players", str(r.players)), ("seed", str(r.seed)),
            ("deals per cheap rung (requested)", fmt_int(r.n_requested)),
            ("search rungs' share of the deals", ", ".join(f"{k} {fmt.pct(v)}" for k, v in
                                                           r.search_share.items()) or "all"),
            ("levels", ", ".join(map(str, r.levels)) or "–"),
            ("rule parameters", json.dumps(params, sort_keys=True, default=str)),
            ("policies", json.dumps(r.policies, sort_keys=True)),
            ("engine hash", str(r.engine_hash)), ("command", command or "–")]
    title = getattr(spec, "title", None) or r.title or r.game
    tables = _tables(r)
    cards = context.card_lists(manifest, spec, run_dir) if manifest else []
    return RunReport(
        title=f"{title}: skill ladder" + (f" — {settings}" if settings else ""),
        subtitle=f"{r.game} · {r.players} player(s) · seed {r.seed}"
                 + (f" · levels {', '.join(map(str, r.levels))}" if r.levels else ""),
        summary=sentences(r),
        warnings=[] if r.complete else ["Incomplete: some rungs have fewer games than asked."],
        key_figures=figs,
        charts=_charts(r),
        tables=tables,
        provenance=prov,
        generated=now,
        notes=notes,
        footer=f"Ladder rendered {now} · made by balance from the ladder folder alone.",
        banners=context.card_banner(cards, 1, title or ""),
        block=verdicts.ladder_block(r, {"ladder": tables[0].anchor if tables else ""}),
    )
