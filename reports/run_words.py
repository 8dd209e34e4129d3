"""The run report's plain words, built from summary.json: the summary
sentences, the seats' verdict in a sentence, the warnings, and the small
phrases the run and sweep reports share (a seat's name, who the policies are,
what 'win rate' counts). Split from reports.views, which lays them out with
the charts and tables.
"""
from __future__ import annotations

from balance.analysis.findings import nameable

from balance.analysis.results import MarginVerdict
from balance.analysis.summary_result import SummaryResult

from . import context, fmt
from .about import About


def seat_name(seat: int) -> str:
    return f"Seat {int(seat) + 1}"  # summary.json counts seats from 0; people from 1


def win_label(s: SummaryResult) -> str:
    """What 'win rate' counts: the player's, the team's, or some seat's."""
    if s.players == 1:
        return "player wins"
    return "team wins" if s.cooperative else "someone wins"


# ---------------------------------------------------------------- the plain-words summary


def _policies_words(s: SummaryResult) -> str:
    names = [p.get("name", "?") for p in s.policies]  # the manifest's policy records
    if not names:
        return ""
    if len(set(names)) == 1:
        return names[0]
    return ("the team (" + ", ".join(names) + ")") if s.cooperative else " vs ".join(names)


def _players_words(players) -> str:
    return f"{players} player{'s' if players != 1 else ''}" if players else ""


def seat_rows(s: SummaryResult, fair: "context.FairShare | None") -> list[dict]:
    """Each seat's rate and its difference from the fair share (in rate units), with the
    seat's Wilson interval shifted by the fair share."""
    out = []
    f = fair.value if fair is not None else None
    for r in s.win_rate_by_seat or []:
        lo, hi = r.ci
        d = (r.value - f) if f is not None and r.value is not None else None
        out.append({**r.model_dump(), "diff": d, "diff_ci": [lo - f, hi - f] if d is not None and lo is not None else [None, None]})
    return out


def _verdict_clause(v: MarginVerdict | None, margin) -> str:
    """A margin verdict as the end of a sentence: 'against the margin of ±2.0 pts: not enough games to say'."""
    if not v:
        return ""
    if v.verdict == "no_information":
        return f"; {v.words}"
    mg = f" of ±{fmt.pts(margin, signed=False)}" if isinstance(margin, (int, float)) else ""
    return f"; against the margin{mg}: {v.words}"


def seat_gap_sentences(s: SummaryResult) -> list[str]:
    """The seat verdict: the gap, the one interval it is read from, and what that interval says
    against the margin (one reading: 'significant' is that interval excluding 0). A seat-rotated
    run says so and gives the policies' own verdict beside it."""
    gap = s.seat_gap
    v = gap.verdict
    margin = v.margin
    out = []
    rot = s.seat_rotation
    if rot is not None:
        out.append(f"Seats rotated: {rot.how} ({fmt.int_(rot.deals)} deals).")
    best, worst = seat_name(gap.best_seat), seat_name(gap.worst_seat)
    # the verdict against the margin, not "significant, p = 0.001" (which a designer reads as "unbalanced");
    # the p-value and the test are in the metrics table and How this was measured
    if v.verdict == "no_information":
        out.append(f"Are the seats balanced? {v.words[:1].upper() + v.words[1:]}.")
    elif gap.significant:
        out.append(f"{best} wins {fmt.pts(gap.value, signed=False)} more than {worst.lower()} "
                   f"(95% CI {fmt.ci_pts(gap.ci, signed=False)}){_verdict_clause(v, margin)}.")
    else:
        out.append(f"The largest gap between seats is {fmt.pts(gap.value, signed=False)}, {best.lower()} over "
                   f"{worst.lower()} (95% CI {fmt.ci_pts(gap.ci, signed=False)}: no difference shown)"
                   f"{_verdict_clause(v, margin)}.")
    pol = rot.policies if rot is not None else None
    if pol is not None and pol.seats:
        rates = ", ".join(f"{r.policy} {fmt.pct(r.value)}" + (f" {fmt.ci_pct(r.ci)}" if r.ci[0] is not None else "")
                          for r in pol.seats)
        pv = pol.verdict
        if pv.verdict == "no_information":
            out.append(f"The policies, each over every seat: {rates}; {pv.words}.")
        else:
            pg = pol.gap
            out.append(f"The policies, each over every seat: {rates}; largest gap {fmt.pts(pg.value, signed=False)} "
                       f"(95% CI {fmt.ci_pts(pg.ci, signed=False)}){_verdict_clause(pv, margin)}.")
    return out


def summary_sentences(s: SummaryResult, about: About | None = None) -> list[str]:
    out = []
    n = s.n_games
    seed = f"seed {s.seed}" if s.seed is not None else "seed unknown"
    players = s.players
    who = _policies_words(s) or "the policy"
    win, ci = s.win_rate, s.win_rate_ci
    if n == 0:
        return ["This run has no finished games yet: nothing to report."]
    pooled = f" in {len(s.variants)} variants, pooled" if s.variants else ""
    settings = (" " + context.settings_sentence(about.changes, about.seats)) if about is not None else ""
    if s.cooperative or players == 1:
        pl = f", {_players_words(players)}" if players else ""
        out.append(f"Over {fmt.int_(n)} games ({seed}{pl}{pooled}), {who} wins {fmt.rate(win, ci)}.{settings}")
    else:
        if someone_always_wins(s):
            r0 = next((x for x in s.win_rate_by_seat if x.seat == 0), s.win_rate_by_seat[0])
            out.append(f"Over {fmt.int_(n)} games ({seed}, {players} players: {who}{pooled}), someone wins every "
                       f"game; {seat_name(r0.seat).lower()} wins {fmt.rate(r0.value, r0.ci)}.{settings}")
        else:
            out.append(f"Over {fmt.int_(n)} games ({seed}, {players} players: {who}{pooled}), "
                       f"someone wins {fmt.rate(win, ci)} of games.{settings}")
        lose = s.everybody_loses
        if lose and lose.k:
            out.append(f"Everybody loses {fmt.rate(lose.value, lose.ci)}.")
        fair = about.fair if about is not None else context.fair_share(s)
        rows = seat_rows(s, fair)
        gap = s.seat_gap
        if rows and fair is not None:
            parts = [f"{seat_name(r['seat'])} ({r['policy']}) {fmt.pct(r['value'])}, {fmt.diff(r['diff'], r['diff_ci'])}"
                     for r in rows]
            out.append(f"Against a fair share of {fmt.pct(fair.value)} per seat: " + "; ".join(parts) + ".")
            if s.shared_wins is not None and s.shared_wins.words:
                out.append(s.shared_wins.words[:1].upper() + s.shared_wins.words[1:])
            elif fair.shared and fair.seat_rates_sum is not None and fair.seat_rates_sum > 1 + 1e-9:
                out.append(f"Wins are shared in some games, so the seats' win rates add up to "
                           f"{fmt.pct(fair.seat_rates_sum)}, more than 100%.")
        if rows and gap:
            out.extend(seat_gap_sentences(s))
        fp = s.first_player
        if fp:
            verdict = "significant" if fp.significant else "not significant"
            out.append(f"The first player wins {fmt.pct(fp.first.value)}, "
                       f"{fmt.diff(fp.advantage, fp.ci)} over the others ({verdict}, {fmt.p(fp.p)}).")
    length = s.length
    unit = length.column
    out.append(f"Games last a median of {fmt.num(length.median)} {unit} "
               f"(95% CI {fmt.ci_num(length.median_ci)}); mean {fmt.num(length.mean)}, "
               f"80% of games between {fmt.num(length.p10)} and {fmt.num(length.p90)}.")
    capped = s.capped
    cap = s.turn_cap
    if capped:
        out.append(f"{fmt.plural(capped, 'game')} ({fmt.pct(s.capped_rate.value)}) hit the turn cap of "
                   f"{fmt.int_(cap)} decisions; they are counted with the result they had, not dropped.")
    else:
        out.append(f"No game hit the turn cap of {fmt.int_(cap)} decisions.")
    reasons = sorted(((k, v) for k, v in s.end_reasons.items() if v), key=lambda kv: -kv[1])
    if reasons:
        out.append("Games end by " + ", ".join(f"{k.replace('_', ' ')} ({fmt.pct(v / n)})" for k, v in reasons[:4]) + ".")
    lad = s.ladder
    if len(lad) > 1:
        vals = [r.value for r in lad]
        dec = all(a >= b for a, b in zip(vals, vals[1:]))
        inc = all(a <= b for a, b in zip(vals, vals[1:]))
        shape = "falls steadily" if dec else "rises steadily" if inc else "is not monotone"
        out.append(f"Across levels {lad[0].level}–{lad[-1].level} the win rate {shape}: "
                   f"from {fmt.pct(lad[0].value)} to {fmt.pct(lad[-1].value)}.")
    c = s.cards
    if c is not None and c.n_cards:
        sig = c.n_significant or 0
        counter = c.primary_counter
        in_play = c.n_in_play
        invented = " invented" if about is not None and about.reconstruction else ""
        scope = f"Of {c.n_cards}{invented} cards" if in_play == c.n_cards else f"Of {in_play}{invented} cards in play"
        txt = (f"{scope}, {sig} {'is' if sig == 1 else 'are'} {counter} more often by winners or by losers "
               f"than chance explains (an association, not an effect: see How this was measured)")
        # a card is named only on a figure known to within ± the margin (not The Slacker's +23.8 pts on 17 plays)
        margin = s.margin
        picks = []
        t = next((r for r in c.top if nameable(r.lift.ci, margin)), None)
        if t is not None:
            picks.append(f"most by winners {t.card} ({fmt.pts(t.lift.value)}, 95% CI {fmt.ci_pts(t.lift.ci)})")
        b = next((r for r in c.bottom if nameable(r.lift.ci, margin)), None)
        if b is not None:
            picks.append(f"most by losers {b.card} ({fmt.pts(b.lift.value)}, 95% CI {fmt.ci_pts(b.lift.ci)})")
        out.append(txt + (": " + ", ".join(picks) if picks else "") + ".")
        if c.dead:
            names = ", ".join(d.card for d in c.dead[:8]) + ("…" if len(c.dead) > 8 else "")
            out.append(f"{len(c.dead)} dead card{'s' if len(c.dead) != 1 else ''} "
                       f"({counter} in under {fmt.pct(c.dead_threshold)} of seat-games): {names}.")
        if c.never_drawn:
            k = len(c.never_drawn)
            out.append(f"{k} card{'s were' if k != 1 else ' was'} never drawn (not in this configuration's deck).")
        if invented:
            out.append("These are the reconstructed list's invented cards, not the printed ones (see the banner).")
    if s.variants:
        out.append(f"This run holds {len(s.variants)} variants; the figures above pool them, "
                   f"the variants table gives each one.")
    return out


def warnings(s: SummaryResult) -> list[str]:
    w = []
    if s.n_requested and s.n_games < s.n_requested and not s.complete:
        w.append(f"Only {fmt.int_(s.n_games)} of {fmt.int_(s.n_requested)} requested games finished; "
                 f"resume the run to complete it.")
    if s.end_reasons and s.end_reasons.get("no_move"):  # keys: the game's declared end reasons (a sweep: per point)
        w.append(f"{fmt.int_(s.end_reasons['no_move'])} games ended with no legal move (the engine's last resort): "
                 f"check the rules for a missing case.")
    if s.capped_rate is not None and s.capped_rate.value and s.capped_rate.value > 0.01:
        w.append("More than 1% of games hit the turn cap: the cap may be shaping the results.")
    return w


def someone_always_wins(s: SummaryResult) -> bool:
    """A competitive game where every game has a winner: its 'someone wins' is 100% by construction."""
    return (not s.cooperative and bool(s.win_rate_by_seat) and bool(s.n_games)
            and s.wins == s.n_games)
