"""The verdict block at the top of every report (issue 43): what a designer must
conclude, one sentence each, in the designer's words, each with its margin, a
colour and a link to the chart or table it is read from; alerts beside them
(games nobody wins, games at the turn cap, dead cards, cards that go with
winning or losing); and "How this was measured", one plain sentence per
method, below the tables.

Nothing here is statistics: every sentence is read from a verdict the
analysis layer stored with the result (summary.json's, comparison.json's,
tuning.json's, ladder.json's and campaign.json's `verdicts`, impact.json's
rows' `margin_verdict`, summary.json's `alerts` and `headline`), whose codes
are analysis.stats.margin_verdict's:

    within_margin         "Seats are balanced within 2 points"
    beyond_margin         "Seat 2 wins 4.1 points more than seat 4 (more than your 2-point margin)"
    differs_size_unclear  "Seat 3 wins 1.2 points more than seat 1, but not enough games to tell whether by
                           more than your 2-point margin: about 6,400 more games would decide (rerun with -n 27000)"
    inconclusive          "Not enough games to tell whether the seats are within 2 points of each other: ..."
    no_information        "Not enough information to say whether the seats are balanced: <the reason>"

`games_to_decide` is stored as the games in all (at the same spread) that would
settle it, so "more" is that minus the games played. One function says each
code (`say`); each kind of result only supplies its phrases (`Phrases`).
No card is named in a sentence unless its figure is known to within ± the
margin (analysis.findings.nameable, applied when the alerts are stored).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from balance.analysis.campaign_result import CampaignResult, StepItem as CampaignStep
from balance.analysis.compare_result import ComparisonResult, MetricCheck, MetricRow
from balance.analysis.impact_result import ImpactResult, ImpactRow, RowCheck
from balance.analysis import summary_result
from balance.analysis.ladder_result import LadderAnalysis, VerdictItem as LadderItem
from balance.analysis.summary_result import Headline, SummaryResult, VerdictItem
from balance.analysis.tuning_result import TuningResult

from . import fmt

# ---------------------------------------------------------------- the block


TONES = {"within_margin": "good", "beyond_margin": "bad", "differs_size_unclear": "unsure", "inconclusive": "unsure",
         "no_information": "none", "measured": "good", "imprecise": "unsure", "met": "good", "missed": "bad",
         "unclear": "unsure", "confirmed": "good", "reversed": "bad", "not resolved": "unsure", "count": "none",
         "holds": "good", "changes": "bad", "unsettled": "unsure"}
LABELS = {"within_margin": "within the margin", "beyond_margin": "beyond the margin",
          "differs_size_unclear": "differs, size undecided", "inconclusive": "undecided",
          "no_information": "no information", "measured": "measured", "imprecise": "needs more games",
          "met": "target met", "missed": "target missed", "unclear": "undecided", "confirmed": "confirmed",
          "reversed": "reversed", "not resolved": "undecided", "count": "the rest",
          "holds": "holds for expert", "changes": "changes for expert", "unsettled": "not settled for expert"}
SEVERITY = {"changes": 0, "unsettled": 2, "holds": 4, "beyond_margin": 0, "missed": 0, "reversed": 0, "differs_size_unclear": 1, "inconclusive": 2,
            "unclear": 2, "not resolved": 2, "imprecise": 2, "no_information": 3, "within_margin": 4, "met": 4,
            "confirmed": 4, "measured": 4, "count": 5}


@dataclass(frozen=True)
class Verdict:
    sentence: str
    code: str  # analysis.stats.margin_verdict's code (or a tuning target's, a ladder step's)
    margin: str  # "margin ±2 pts"
    detail: str = ""  # the figure it is read from: "+1.2 pts, 95% CI [+0.2, +2.1] pts, n = 20,000 games"
    anchor: str = ""  # id of the chart or table in the page
    skill: str = ""  # the same verdict for expert players (the skill check): "Holds for expert players: ..."
    skill_code: str = ""  # holds / changes / unsettled

    @property
    def skill_tone(self) -> str:
        return TONES.get(self.skill_code, "none")

    @property
    def tone(self) -> str:
        return TONES.get(self.code, "none")

    @property
    def label(self) -> str:
        return LABELS.get(self.code, self.code.replace("_", " "))


@dataclass(frozen=True)
class Alert:
    sentence: str
    anchor: str = ""
    kind: str = ""


@dataclass(frozen=True)
class Method:
    name: str
    sentence: str


@dataclass(frozen=True)
class Block:
    """What the template lays out first (verdicts and alerts) and last (methods)."""
    verdicts: list[Verdict] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)
    methods: list[Method] = field(default_factory=list)
    margin: str = ""  # "Margin: ±2 points (--margin 0.02): a smaller difference counts as balanced."


def margin_line(margin) -> str:
    if not isinstance(margin, (int, float)):
        return ""
    return (f"Margin: ±{fmt.margin_points(margin)} (--margin {margin:g}): a difference smaller than this counts "
            f"as balanced.")


# ---------------------------------------------------------------- one verdict, any kind


@dataclass(frozen=True)
class Phrases:
    """How a kind of verdict is said; `say` adds the margin and the games that would decide."""
    within: str  # a whole sentence, no full stop: "Seats are balanced within 2 points"
    differs: str  # the difference as a fact: "Seat 3 wins 1.2 points more than seat 1"
    whether: str  # "the seats are within 2 points of each other"
    about: str  # "whether the seats are balanced" (no information)


def decide_words(v: dict, n, unit: str = "games", rerun: Callable[[int], str] | None = None) -> str:
    """': about 6,400 more games would decide (rerun with -n 27000)' from the stored games_to_decide (in all)."""
    total = v.get("games_to_decide")
    if not total or not n:
        return ""
    more = max(0, int(total) - int(n))
    if more <= 0:
        return ""
    hint = f" ({rerun(fmt.round_up(total))})" if rerun is not None else ""
    return f": about {fmt.int_(fmt.round_up(more))} more {unit} would decide{hint}"


def say(ph: Phrases, v: dict, margin_words: str, decide: str = "") -> str:
    """One sentence for one stored verdict (its code, `reason`), with your margin in it ('your 2-point
    margin' for rates; `margin_words` as given otherwise)."""
    code = v.get("verdict")
    if margin_words.endswith(f"{fmt.NBSP}points") or margin_words.endswith(f"{fmt.NBSP}point"):
        margin_words = fmt.margin_adj(v.get("margin"))
    if code == "within_margin":
        return ph.within + "."
    if code == "beyond_margin":
        return f"{ph.differs} (more than your {margin_words} margin)."
    if code == "differs_size_unclear":
        return f"{ph.differs}, but not enough games to tell whether by more than your {margin_words} margin{decide}."
    if code == "no_information":
        reason = v.get("reason") or "no game set the two sides against each other"
        return f"Not enough information to say {ph.about}: {reason}."
    return f"Not enough games to tell whether {ph.whether}{decide}."


def _pts_detail(v: dict, what: str, n_unit: str = "games", signed: bool = True) -> str:
    ci = v.get("ci") or [None, None]
    lvl = v.get("ci_level") or 0.95
    level = f"{100 * lvl:.4g}%" if abs(lvl - 0.95) > 1e-9 else "95%"
    est = fmt.pts(v.get("estimate"), signed=signed)
    return f"{what} {est}, {level} CI {fmt.ci_pts(ci, signed=signed)}, n = {fmt.int_(v.get('n'))} {n_unit}"


def _margin_tag(margin) -> str:
    return f"margin ±{fmt.pts(margin, signed=False)}" if isinstance(margin, (int, float)) else ""


def more_or_less(d, more: str = "more", less: str = "less") -> str:
    return more if (d or 0) >= 0 else less


def _rerun(total: int) -> str:
    return f"rerun with -n {total}"


# ---------------------------------------------------------------- runs (summary.json)


def seat_name(seat) -> str:
    return f"seat {int(seat) + 1}" if isinstance(seat, int) else "a seat"


def _lead(prefix: str, text: str) -> str:
    """'At X, seat 2 wins ...' or 'Seat 2 wins ...'."""
    return prefix + text if prefix else text[:1].upper() + text[1:]


def seats_verdict(it: VerdictItem, anchor: str = "", prefix: str = "", rerun: Callable[[int], str] = _rerun) -> Verdict:
    mw = fmt.margin_points(it.margin)
    best, worst = seat_name(it.best_seat), seat_name(it.worst_seat)
    at = f" {prefix.strip().rstrip(',')[:1].lower() + prefix.strip().rstrip(',')[1:]}" if prefix else ""
    ph = Phrases(within=_lead(prefix, f"seats are balanced within {mw}"),
                 differs=_lead(prefix, f"{best} wins {fmt.points(it.estimate)} more than {worst}"),
                 whether=f"the seats are within {mw} of each other{at}",
                 about=f"whether the seats are balanced{at}")
    v = it.model_dump()  # say() and the details read a verdict's fields by name, as every result's
    return Verdict(say(ph, v, mw, decide_words(v, it.n, rerun=rerun)), it.verdict,
                   _margin_tag(it.margin), _pts_detail(v, "seat gap", signed=False), anchor)


def first_player_verdict(it: VerdictItem, anchor: str = "", rerun: Callable[[int], str] = _rerun) -> Verdict:
    mw = fmt.margin_points(it.margin)
    d = it.estimate
    ph = Phrases(within=f"Moving first is worth less than {mw}: the first player wins within {mw} of the others",
                 differs=f"The first player wins {fmt.points(d)} {more_or_less(d)} than the others",
                 whether=f"moving first is worth less than {mw}", about="whether moving first matters")
    v = it.model_dump()
    return Verdict(say(ph, v, mw, decide_words(v, it.n, rerun=rerun)), it.verdict,
                   _margin_tag(it.margin), _pts_detail(v, "first player minus the others"), anchor)


def policies_verdict(it: VerdictItem, anchor: str = "") -> Verdict:
    mw = fmt.margin_points(it.margin)
    best, worst = it.best or "the strongest policy", it.worst or "the weakest"
    ph = Phrases(within=f"The policies are equally strong within {mw} (each over every seat)",
                 differs=f"{best[:1].upper() + best[1:]} wins {fmt.points(it.estimate)} more than {worst}, "
                         f"each over every seat",
                 whether=f"the policies are within {mw} of each other", about="whether the policies are equally strong")
    v = it.model_dump()
    return Verdict(say(ph, v, mw, decide_words(v, it.n, "deals", rerun=_rerun)), it.verdict,
                   _margin_tag(it.margin), _pts_detail(v, "policy gap", "deals", signed=False), anchor)


def headline_verdict(h: Headline, who: str, anchor: str = "") -> Verdict:
    """A solo or co-op run: the win rate, and whether it is measured to within ± the margin."""
    mw = fmt.margin_points(h.margin)
    rate = f"{who} {fmt.pct(h.value)} of games"
    if h.verdict == "measured":
        s = (f"{rate}, measured to within ±{fmt.points(h.half_width)} (inside your "
             f"{fmt.margin_adj(h.margin)} margin).")
    else:
        total = h.games_for_margin
        more = max(0, int(total or 0) - int(h.n or 0))
        tail = (f": about {fmt.int_(fmt.round_up(more))} more games would measure it to within ±{mw} "
                f"({_rerun(fmt.round_up(total))})" if more else "")
        s = (f"{rate}, measured only to ±{fmt.points(h.half_width)}, wider than your "
             f"{fmt.margin_adj(h.margin)} margin{tail}.")
    return Verdict(s, h.verdict, _margin_tag(h.margin),
                   f"win rate {fmt.pct(h.value)}, 95% CI {fmt.ci_pct(h.ci)}, n = {fmt.int_(h.n)} games", anchor)


def run_items(s: SummaryResult, variant: str | None = None) -> list[VerdictItem]:
    return [it for it in s.verdicts.items if it.variant == variant]


def run_verdicts(s: SummaryResult, anchors: dict[str, str], prefix: str = "") -> list[Verdict]:
    """A run's (or one sweep point's: `SummaryResult.at`) verdicts: the seats, moving first, a rotated run's
    policies; with no seats to set against each other (solo, co-op), the headline's precision against the
    margin."""
    out = []
    items = run_items(s) if not prefix else []
    for it in items:
        v = _one(it, anchors.get("seats", ""))
        if v is not None:
            out.append(skill_note(v, it, s))
    if not any(it.id == "seats" for it in items) and s.headline is not None:
        who = "The player wins" if s.players == 1 else "The team wins" if s.cooperative else "Someone wins"
        out.insert(0, headline_verdict(s.headline, who, anchors.get("win_rate", "")))
    if not prefix:
        out = out + skill_verdicts(s, anchors.get("skill", ""))
    return out


def _one(it: VerdictItem, anchor: str = "", rerun: Callable[[int], str] = _rerun, label: str = "",
         base: str = "") -> Verdict | None:
    """The sentence of one stored run verdict, by its id."""
    if it.id == "seats":
        return seats_verdict(it, anchor, prefix=f"At {label}, " if label else "", rerun=rerun)
    if it.id == "first_player":
        return first_player_verdict(it, anchor, rerun=rerun)
    if it.id == "policies":
        return policies_verdict(it, anchor)
    if it.id == "vs_first":
        return point_verdict(it, label or str(it.variant), base or "the first point", anchor, rerun=rerun)
    return None


# ---------------------------------------------------------------- the skill check (summary.json's skill_check)
SKILL_LEADS = {"holds": "Holds for expert players", "changes": "Changes for expert players",
               "unsettled": "For expert players, not settled"}


def _skill_rerun(total: int) -> str:
    return f"rerun with --skill-check {total}"


def skill_note(v: Verdict, it: VerdictItem, s: SummaryResult, label: str = "", base: str = "") -> Verdict:
    """A verdict with its skill-check line: the same verdict recomputed on the expert games, said with
    the same words, led by whether it holds."""
    sc = s.skill_check
    row = next((r for r in sc.items if r.id == it.id and r.variant == it.variant), None) if sc is not None else None
    if row is None:
        return v
    check = it.model_copy(update={k: x for k, x in row.check.items() if k != "id"})  # the check's figures, its words
    said = _one(check, rerun=_skill_rerun, label=label, base=base)
    if said is None:
        return v
    sentence = said.sentence
    text = f"{SKILL_LEADS[row.status]} ({fmt.int_(check.n)} deals): {fmt.lower_first(sentence)}"
    from dataclasses import replace

    return replace(v, skill=text, skill_code=row.status)


def skill_verdicts(s: SummaryResult, anchor: str = "", label: Callable[[str], str] | None = None) -> list[Verdict]:
    """The headline on the same deals with expert at every seat, one verdict per variant checked; or why
    no check was played."""
    sc = s.skill_check
    if sc is None:
        return []
    if not sc.played:
        return [Verdict(f"Not checked for stronger play: {sc.why}.", "count", "", "", anchor)]
    out = []
    names = [p.get("name") for p in s.policies if isinstance(p, dict)]  # the manifest's policy records
    who = names[0] if len(set(names)) == 1 else "the run's policies"
    mw = fmt.margin_points(s.margin)
    for h in sc.headlines:
        code = {"within_margin": "holds", "beyond_margin": "changes", "differs_size_unclear": "changes"}.get(
            h.verdict.verdict, "unsettled")
        words = sc.headline_words or "someone wins"
        at = f"At {label(h.variant)}, w" if label and h.variant else "W"
        c, m = h.check, h.main
        got = (f"{at}ith {sc.policy} at every seat, {words} {fmt.pct(c.value)} "
               f"{fmt.ci_pct(c.ci)} of the same {fmt.int_(h.deals)} deals, against "
               f"{fmt.pct(m.value)} with {who}")
        d = h.diff
        ph = Phrases(within=f"the headline holds for expert players, within {mw}",
                     differs=f"{fmt.points(d)} {more_or_less(d)} for expert players",
                     whether=f"it holds for expert players within {mw}",
                     about="whether it holds for expert players")
        v = h.verdict.model_dump()
        said = say(ph, {**v, "margin": s.margin}, mw, decide_words(v, h.deals, "deals", rerun=_skill_rerun))
        sentence = f"{got}: {fmt.lower_first(said)}"
        detail = (f"{sc.policy} − {who} {fmt.pts(d)}, 95% CI {fmt.ci_pts(h.ci)}, paired on "
                  f"n = {fmt.int_(h.deals)} deals")
        out.append(Verdict(sentence, code, _margin_tag(s.margin), detail, anchor))
    return out


_ALERT_SECTIONS = {"nobody_wins": "ends", "turn_cap": "length", "no_move": "ends", "dead_cards": "dead",
                  "skill_changes": "skill", "card_lift": "cards"}  # alert id -> the report's section it points to


def _alert_words(a: summary_result.Alert) -> str:
    if a.id == "nobody_wins":
        return f"Nobody wins {fmt.pct(a.value)} of games ({fmt.int_(a.k)} of {fmt.int_(a.n)}; 95% CI {fmt.ci_pct(a.ci)})."
    if a.id == "turn_cap":
        return (f"{fmt.plural(a.k, 'game')} ({fmt.pct(a.value)}) hit the turn cap of {fmt.int_(a.cap)} decisions; "
                f"they count with the result they had.")
    if a.id == "no_move":
        return (f"{fmt.plural(a.k, 'game')} ended with no legal move (the engine's last resort): check the rules "
                f"for a missing case.")
    if a.id == "dead_cards":
        names = a.cards or []
        shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
        return (f"{fmt.plural(len(names), 'dead card')} ({a.counter} in under {fmt.pct(a.threshold)} of "
                f"seat-games): {shown}.")
    if a.id == "skill_changes":
        return (f"{fmt.plural(a.changes or 0, 'verdict')} change for {a.policy} players: the answer depends on how "
                f"well the game is played (see the verdicts).")
    bits = ", ".join(f"{c.card} {fmt.pts(c.lift)} ({fmt.int_(c.plays)} {a.counter})" for c in a.cards or [])
    more = f", and {a.more} more" if a.more else ""
    return (f"Cards tied to winning or losing by more than {fmt.margin_points(a.margin)} when {a.counter}: "
            f"{bits}{more}. An association, not an effect: balance impact measures what a card does.")


def run_alerts(alerts: list[summary_result.Alert], anchors: dict[str, str], where: str = "") -> list[Alert]:
    """summary.json's `alerts` (analysis.findings.alerts) in words."""
    return [Alert(f"{where}{_alert_words(a)}", anchors.get(_ALERT_SECTIONS[a.id], ""), a.id) for a in alerts]


# ---------------------------------------------------------------- families: a short list


def shortlist(vs: list[Verdict], noun: str, anchor: str = "", keep: int = 4, many: str | None = None) -> list[Verdict]:
    """A family of verdicts (points of a sweep, metrics, variants, levels) as a short list: the ones
    that need attention first (beyond the margin, then undecided), at most `keep`, and one sentence
    counting the rest by verdict."""
    if len(vs) <= keep:
        return sorted(vs, key=lambda v: SEVERITY.get(v.code, 9))
    ranked = sorted(vs, key=lambda v: SEVERITY.get(v.code, 9))
    shown = [v for v in ranked if SEVERITY.get(v.code, 9) < 4][:keep - 1]
    rest = [v for v in ranked if v not in shown]
    counts: dict[str, int] = {}
    for v in rest:
        counts[v.label] = counts.get(v.label, 0) + 1
    words = "; ".join(f"{k} {label}" for label, k in counts.items())
    margin = rest[0].margin if rest and len({v.margin for v in rest}) == 1 else ""
    lead = "The other" if shown else "All"
    return shown + [Verdict(f"{lead} {fmt.plural(len(rest), noun, many)}: {words} (see the table).", "count", margin, "",
                            anchor)]


# ---------------------------------------------------------------- sweeps


def point_verdict(it: VerdictItem, label: str, base: str, anchor: str = "",
                  rerun: Callable[[int], str] = _rerun) -> Verdict:
    mw = fmt.margin_points(it.margin)
    d = it.estimate
    ph = Phrases(within=f"At {label} the win rate is within {mw} of the first point's ({base})",
                 differs=f"At {label} the win rate is {fmt.points(d)} {more_or_less(d, 'higher', 'lower')} than at "
                         f"the first point ({base})",
                 whether=f"the win rate at {label} is within {mw} of the first point's",
                 about=f"whether {label} changes the win rate")
    v = it.model_dump()
    return Verdict(say(ph, v, mw, decide_words(v, it.n, "games per point", rerun=rerun)),
                   it.verdict, _margin_tag(it.margin), _pts_detail(v, "vs first point"), anchor)


def sweep_block(s: SummaryResult, label: Callable[[str], str], anchors: dict[str, str], first: SummaryResult) -> Block:
    """A sweep: each point against the first on win rate, and each point's seats, as two short lists
    (`first`: the summary at the first point, SummaryResult.at)."""
    items = s.verdicts.items
    vs = s.variants or []
    base = label(vs[0].name) if vs else "the first point"
    always = not s.cooperative and all(v.win_rate == 1 for v in vs if v.n_games)
    pts = [skill_note(point_verdict(it, label(it.variant), base, anchors.get("points", "")), it, s,
                      label(it.variant), base)
           for it in items if it.id == "vs_first" and not always]  # someone wins every game: seats say it
    seats = []
    for it in items:
        if it.id == "seats" and it.variant:
            seats.append(skill_note(seats_verdict(it, anchors.get("points", ""), prefix=f"At {label(it.variant)}, "),
                                    it, s, label(it.variant)))
    out = shortlist(pts, "point", anchors.get("points", ""))
    if seats:
        codes = {v.code for v in seats}
        if codes == {"within_margin"}:
            mw = fmt.margin_points(items[0].margin)
            out.append(Verdict(f"Seats are balanced within {mw} at every one of the {len(seats)} points.",
                               "within_margin", seats[0].margin, "", anchors.get("points", "")))
        else:
            out += shortlist(seats, "point's seats", anchors.get("points", ""), many="points' seats")
    if not out:  # solo / co-op sweep with one point compared: the first point's headline
        out = run_verdicts(first, anchors)
    out += shortlist(skill_verdicts(s, anchors.get("skill", anchors.get("points", "")), label), "point checked for "
                     "expert players", anchors.get("points", ""), keep=3, many="points checked for expert players")
    return Block(out, run_alerts(first.alerts, anchors, f"At the first point ({base}): ") + run_alerts(
                     [a for a in s.alerts if a.id == "skill_changes"], anchors),
                 methods_for("sweep"), margin_line(s.margin))


# ---------------------------------------------------------------- comparisons (comparison.json)


def _cmp_margin(m: MetricRow | MetricCheck) -> tuple[str, str]:
    """(in a sentence, in the tag) for a compared metric's margin: points for rates, units otherwise."""
    if m.rate:
        return fmt.margin_points(m.margin), _margin_tag(m.margin)
    return f"{fmt.num(m.margin)}-unit", f"margin ±{fmt.num(m.margin)}"


def compare_verdict(m: MetricRow | MetricCheck, anchor: str = "") -> Verdict:
    v = m.margin_verdict.model_dump()
    metric = m.metric
    d = m.diff
    mw, tag = _cmp_margin(m)
    if m.rate:
        size = fmt.points(d)
        within_w = f"within {mw}"
    else:
        size = f"{fmt.num(abs(d)) if d is not None else fmt.MISSING} ({fmt.num(m.a)} → {fmt.num(m.b)})"
        within_w = f"within ±{fmt.num(m.margin)}"
    if metric == "win rate":
        ph = Phrases(within=f"B's win rate is within {mw} of A's",
                     differs=f"B's win rate is {size} {more_or_less(d, 'higher', 'lower')} than A's",
                     whether=f"B's win rate is within {mw} of A's", about="whether B changes the win rate")
    else:
        ph = Phrases(within=f"B's {metric} is {within_w} of A's",
                     differs=f"B's {metric} is {size} {more_or_less(d, 'higher', 'lower')} than A's",
                     whether=f"B's {metric} is {within_w} of A's", about=f"whether B changes the {metric}")
    margin_words = mw if m.rate else f"±{fmt.num(m.margin)}"
    sentence = say(ph, v, margin_words, decide_words(v, m.n_a, "games a side"))
    if not m.rate:
        sentence = sentence.replace(f"your {margin_words} margin", f"your margin of {margin_words}")
    ci = m.ci
    lvl = m.ci_level or 0.95
    detail = (f"B − A {fmt.pts(d) if m.rate else fmt.num(d)}, {100 * lvl:.4g}% CI "
              f"{fmt.ci_pts(ci) if m.rate else fmt.ci_num(ci)}, n = {fmt.int_(m.n_a)}"
              + (" pairs" if str(m.method or "").startswith("paired") else " / " + fmt.int_(m.n_b)))
    return Verdict(sentence, m.margin_verdict.verdict, tag, detail, anchor)


def compare_skill_note(v: Verdict, m: MetricRow, r: ComparisonResult) -> Verdict:
    """A compared metric's verdict with the same comparison on the expert games (comparison.json's
    skill_check)."""
    sc = r.skill_check
    row = next((i for i in sc.items if i.metric == m.metric), None) if sc is not None else None
    if row is None:
        return v
    said = compare_verdict(row.check).sentence
    from dataclasses import replace

    return replace(v, skill=f"{SKILL_LEADS[row.status]} ({fmt.int_(row.check.n_a)} deals a side): "
                            f"{fmt.lower_first(said)}", skill_code=row.status)


def compare_block(r: ComparisonResult, anchors: dict[str, str]) -> Block:
    head = r.headline
    out = [compare_skill_note(compare_verdict(head, anchors.get("verdicts", "")), head, r)] if head else []
    rest = [compare_skill_note(compare_verdict(m, anchors.get("verdicts", "")), m, r) for m in r.metrics
            if m is not head]
    out += shortlist(rest, "metric", anchors.get("verdicts", ""), keep=3)
    sc = r.skill_check
    alerts = []
    if sc is not None and not sc.played:
        out.append(Verdict(f"Not checked for stronger play: {sc.why}.", "count", "", "", anchors.get("verdicts", "")))
    elif sc is not None and sc.changes:
        alerts.append(Alert(f"{fmt.plural(sc.changes, 'verdict')} change for {sc.policy} players: the answer "
                            f"depends on how well the game is played (see the verdicts).", anchors.get("verdicts", ""),
                            "skill_changes"))
    return Block(out, alerts, methods_for("compare"), margin_line(r.margin))


# ---------------------------------------------------------------- impact (impact.json's rows)


def impact_subject(row: ImpactRow) -> str:
    if row.what == "card":
        a, b = (row.copies or [None, None])[:2]
        return f"{row.card} {row.change_words or row.change} ({a} → {b} copies)"
    return f"{row.rule} {fmt.value(row.from_)} → {fmt.value(row.to)}"


def impact_verdict(row: ImpactRow, res: ImpactResult, anchor: str = "") -> Verdict:
    v = row.margin_verdict.model_dump()
    d = row.diff
    what = impact_subject(row)
    rate = row.rate
    metric = res.primary
    if rate:
        mw = fmt.margin_points(row.margin)
        size = fmt.points(d)
    else:
        mw = f"±{fmt.num(row.margin)}"
        size = fmt.num(abs(d)) if d is not None else fmt.MISSING
    ph = Phrases(within=f"{what}: the {metric} stays within {mw} of the baseline",
                 differs=f"{what}: the {metric} {more_or_less(d, 'rises', 'falls')} {size}",
                 whether=f"{what} keeps the {metric} within {mw}", about=f"what {what} does")
    detail = (f"variant − baseline {fmt.pts(d) if rate else fmt.num(d)}, {100 * row.ci_level:.4g}% CI "
              f"{fmt.ci_pts(row.ci) if rate else fmt.ci_num(row.ci)}, n = {fmt.int_(row.n_a)} pairs")
    s = say(ph, v, mw, decide_words(v, row.n_a, "games per variant", rerun=_rerun))
    if not rate:
        s = s.replace(f"your {mw} margin", f"your margin of {mw}")
    return Verdict(s, row.margin_verdict.verdict, _margin_tag(row.margin) if rate else f"margin {mw}", detail, anchor)


def skill_row(skill: dict | None, table: str, variant: str) -> dict | None:
    """A skill check's item of one row (impact.json's: table "rows" or "card_power"), as a dict (card
    power's rows are read as analysis.card_power writes them)."""
    return next((i for i in (skill or {}).get("items") or []
                 if i.get("table") == table and i.get("variant") == variant), None)


def with_note(v: Verdict, status: str | None, said: Verdict | None, n) -> Verdict:
    """A verdict with its skill-check line (the same verdict said again on the expert games)."""
    if status is None or said is None:
        return v
    from dataclasses import replace

    return replace(v, skill=f"{SKILL_LEADS[status]} ({fmt.int_(n)} deals): {fmt.lower_first(said.sentence)}",
                   skill_code=status)


def checked(row: ImpactRow, check: RowCheck) -> ImpactRow:
    """The row with the fields re-measured on the skill check's games in place of its own."""
    return row.model_copy(update={k: getattr(check, k) for k in RowCheck.model_fields if k in ImpactRow.model_fields})


def impact_block(res: ImpactResult, base: summary_result.Games | None, anchors: dict[str, str]) -> Block:
    """`base`: the baseline's figures in the folder's summary.json, for its alerts (none: no alerts)."""
    rows = sorted(res.rows, key=lambda r: -abs(r.diff or 0.0))  # rises and falls alike
    sc = res.skill_check
    items = {i.variant: i for i in sc.items if i.table == "rows"} if sc is not None else {}
    vs = []
    for r in rows:
        v = impact_verdict(r, res, anchors.get("ranked", ""))
        item = items.get(r.variant)
        if item is None:
            vs.append(v)
            continue
        check = checked(r, item.check)
        vs.append(with_note(v, item.status, impact_verdict(check, res), check.n_a))
    tail = ([Verdict(f"Not checked for stronger play: {sc.why}.", "count", "", "", anchors.get("ranked", ""))]
            if sc is not None and not sc.played else [])
    alerts = run_alerts(base.alerts, anchors, "In the baseline: ") if base else []
    if sc is not None and sc.changes:
        alerts.append(Alert(f"{fmt.plural(sc.changes, 'verdict')} change for {sc.policy} players: the answer "
                            f"depends on how well the game is played (see the verdicts).", anchors.get("ranked", ""),
                            "skill_changes"))
    return Block(shortlist(vs, "variant", anchors.get("ranked", ""), keep=5) + tail,
                 alerts, methods_for("impact"), margin_line(res.margin))


# ---------------------------------------------------------------- skill ladders (ladder.json's result)


def ladder_verdict(item: LadderItem, anchor: str = "") -> Verdict:
    it = item.model_dump()  # say() and the details read a verdict's fields by name, as every result's
    mw = fmt.margin_points(item.margin)
    d = item.estimate
    at = f"At level {item.level}, " if item.level is not None else ""

    def cap(t: str) -> str:
        return t if at else t[:1].upper() + t[1:]

    if item.id == "skill":
        ph = Phrases(within=f"{at}{cap('skill')} barely matters: {item.top} wins within {mw} of {item.base}",
                     differs=f"{at}{cap('skill')} matters: {item.top} wins {fmt.points(d)} {more_or_less(d)} than "
                             f"{item.base} on the same deals",
                     whether=f"{item.top} and {item.base} are within {mw} of each other",
                     about="how much skill matters")
    elif item.id == "headroom":
        ph = Phrases(within=f"{at}{cap(item.top)} wins within {mw} of greedy: figures measured with greedy hold for "
                            f"stronger players",
                     differs=f"{at}{cap(item.top)} wins {fmt.points(d)} {more_or_less(d)} than greedy: figures "
                             f"measured with greedy would move with stronger play",
                     whether=f"{item.top} wins within {mw} of greedy", about="what stronger play does")
    else:
        ph = Phrases(within=f"{at}{cap('one')} {item.policy} seat among greedy seats wins its fair share, within {mw}",
                     differs=f"{at}{cap('one')} {item.policy} seat among greedy seats wins {fmt.points(d)} "
                             f"{more_or_less(d)} than its fair share",
                     whether=f"one {item.policy} seat wins its fair share within {mw}",
                     about=f"whether one {item.policy} seat wins its fair share")
    unit = "deals"
    return Verdict(say(ph, it, mw, decide_words(it, item.n, unit)), item.verdict,
                   _margin_tag(item.margin), _pts_detail(it, "difference", unit), anchor)


def ladder_block(r: LadderAnalysis, anchors: dict[str, str]) -> Block:
    items = r.verdicts.items
    main = [ladder_verdict(it, anchors.get("ladder", "")) for it in items if it.id in ("skill", "headroom")]
    fair = [ladder_verdict(it, anchors.get("ladder", "")) for it in items if it.id == "vs_fair"]
    alerts = []
    if not r.complete:
        alerts.append(Alert("This ladder is incomplete (a run was stopped): run the same command again to finish it.",
                            anchors.get("ladder", ""), "incomplete"))
    for lad in r.ladders:
        eg = lad.skill.expert_vs_greedy if lad.skill is not None else None
        if eg and eg.ci[1] is not None and eg.ci[1] < 0:
            lv = f" at level {lad.level}" if lad.level is not None else ""
            alerts.append(Alert(f"Expert does worse than greedy{lv} ({fmt.diff(eg.diff, eg.ci)}): its search "
                                f"does not find stronger play here.", anchors.get("ladder", ""), "expert"))
    return Block(main + shortlist(fair, "rung", anchors.get("ladder", ""), keep=3), alerts, methods_for("ladder"),
                 margin_line(r.margin))


# ---------------------------------------------------------------- tuning (tuning.json)


def tune_block(r: TuningResult, anchors: dict[str, str], labels: dict[str, str],
               bands: dict[str, tuple[str, str]]) -> Block:
    """`bands`: a target as tuning.json names it ('win_rate=0.45..0.55') -> (its metric, its band in words)."""
    out = []
    margin = r.verdicts.margin
    mw = fmt.margin_points(margin)
    levels = []
    for item in r.verdicts.items:
        it = item.model_dump(exclude_none=True)  # say() and the details read a verdict's fields by name
        ci = item.ci
        if item.id == "target":
            name, band = bands.get(item.metric, (item.metric, item.metric))
            label = labels.get(name, name.replace("_", " "))
            code = item.verdict
            value = fmt.pct(item.estimate) if name == "win_rate" else \
                fmt.pts(item.estimate, signed=False) if name == "seat_gap" else fmt.num(item.estimate)
            cis = fmt.ci_pct(ci) if name == "win_rate" else fmt.ci_pts(ci, signed=False) if name == "seat_gap" \
                else fmt.ci_num(ci)
            s = {"met": f"The {label} target ({band}) is met on fresh games: {value}, its whole interval inside the band.",
                 "missed": f"The {label} target ({band}) is missed on fresh games: {value}, its whole interval outside "
                           f"the band.",
                 }.get(code, f"Not enough fresh games to tell whether the {label} target ({band}) is met: {value}, its "
                             f"interval crosses the band's edge.")
            out.append(Verdict(s, code, f"band {band}", f"{value}, 95% CI {cis}, n = {fmt.int_(item.n)} fresh games",
                               anchors.get("fit", "")))
        elif item.id == "level":
            lv = item.metric.split(" ")[1] if item.metric else "?"
            d = item.estimate
            ph = Phrases(within=f"Level {lv} is within {mw} of its target",
                         differs=f"Level {lv} wins {fmt.points(d)} {more_or_less(d)} than its target",
                         whether=f"level {lv} is within {mw} of its target", about=f"whether level {lv} hits its target")
            levels.append(Verdict(say(ph, it, mw, decide_words(it, item.n, "fresh games")), item.verdict,
                                  _margin_tag(margin), _pts_detail(it, "win rate minus target", "fresh games"),
                                  anchors.get("ladder", "")))
        elif item.id == "step":
            q = item.question.replace("Does the win rate step from ", "").split(" the way")[0]
            levels.append(Verdict(f"Step from level {q}: {item.words}.", item.verdict, _margin_tag(margin), "",
                                  anchors.get("ladder", "")))
    out += shortlist(levels, "level or step", anchors.get("ladder", ""), keep=5, many="levels and steps")
    return Block(out, [], methods_for("tune"), margin_line(margin))


# ---------------------------------------------------------------- campaigns (campaign.json)


def campaign_verdict(item: CampaignStep, anchor: str = "") -> Verdict:
    it = item.model_dump()  # say() and the details read a verdict's fields by name, as every result's
    mw = fmt.margin_points(item.margin)
    d = item.estimate
    L, P = item.level, item.from_level
    ph = Phrases(within=f"Level {L} is as hard per attempt as level {P}, within {mw}",
                 differs=f"Level {L}'s attempts win {fmt.points(d)} {more_or_less(d)} than level {P}'s"
                         + (" (harder)" if (d or 0) < 0 else " (easier)"),
                 whether=f"level {L} is as hard as level {P} within {mw}", about=f"how level {L} compares with {P}")
    return Verdict(say(ph, it, mw, decide_words(it, item.n, "attempts")), item.verdict,
                   _margin_tag(item.margin), _pts_detail(it, "difference", "attempts"), anchor)


def campaign_block(r: CampaignResult, anchors: dict[str, str]) -> Block:
    vs = [campaign_verdict(it, anchors.get("levels", "")) for it in r.verdicts.items]
    alerts = []
    if r.gave_up:
        alerts.append(Alert(f"{fmt.plural(r.gave_up, 'campaign')} gave up after {fmt.int_(r.max_attempts)} "
                            f"attempts at one level.", anchors.get("levels", ""), "gave_up"))
    return Block(shortlist(vs, "step from a level to the next", anchors.get("levels", ""), keep=4,
                           many="steps from a level to the next"), alerts,
                 methods_for("campaign"), margin_line(r.verdicts.margin))


# ---------------------------------------------------------------- how this was measured

METHODS = {
    "margin": Method("Margin", "A difference smaller than the margin counts as balanced; 'within the margin' means "
                               "the whole range of plausible values lies inside it, not merely that no difference "
                               "was found."),
    "interval": Method("95% interval (CI)", "The range that holds the true figure in 95 runs out of 100; the "
                                            "figure can be anywhere inside it."),
    "wilson": Method("Wilson interval", "The range of a win rate; it stays honest near 0% and 100%, where the "
                                        "textbook ± does not."),
    "decide": Method("Games that would decide", "The range shrinks as one over the square root of the games, so "
                                                "this is about how many games in all would make it settle the "
                                                "verdict, if the estimate stayed where it is."),
    "seat_gap": Method("Seat gap", "The best seat's win rate minus the worst's; every pair of seats is compared "
                                   "within the same games, and each pair's range is widened so that all of them "
                                   "hold together."),
    "paired": Method("Paired difference", "Both sides played the same deals, so each game is compared with its "
                                          "own twin: the luck of the deal cancels out and the range is narrower "
                                          "than for independent games."),
    "mcnemar": Method("McNemar's exact test", "For wins and losses on the same deals only the deals one side won "
                                              "and the other lost carry information; the test counts those."),
    "newcombe": Method("Newcombe interval", "The range of a difference between two win rates, built from each "
                                            "rate's Wilson interval."),
    "bonferroni": Method("Bonferroni correction", "When m differences are checked at once, each range is widened "
                                                  "(to 1 − 5%/m) so that all of them hold together 95 times in "
                                                  "100, and a lucky one does not read as a finding."),
    "holm": Method("Holm correction", "Many p-values ranked so that the chance of any false alarm stays at 5%: the "
                                      "same promise as Bonferroni, a little less strict."),
    "p": Method("p-value", "How often chance alone would give a difference at least this large if there were "
                           "none; small (below 0.05) means the difference is unlikely to be luck."),
    "bootstrap": Method("Bootstrap", "A median's range comes from re-drawing the games at random many times and "
                                     "taking the median each time."),
    "t": Method("t interval", "Means and their differences: the mean ± about two standard errors."),
    "lift": Method("Lift", "Among seat-games where a card was drawn, the win rate when it was played minus when it "
                           "was not: an association (winners may play it because they are winning), not an effect; "
                           "balance impact measures effects."),
    "naming": Method("Naming a card", "A card is named in a verdict or an alert only when its figure is known to "
                                      "within ± the margin (its 95% interval narrower than twice the margin): a card "
                                      "played 17 times is not."),
    "skill": Method("Skill check", "The first deals of the run are played again with expert (a careful "
                                   "player that searches ahead) at every seat; each verdict is worked out again "
                                   "on those games and compared, and the headline is compared deal by deal."),
    "fisher": Method("Fisher's exact test", "Used instead of the usual test where a table of wins and losses has "
                                            "too few games in a cell for it."),
    "fresh": Method("Fresh games", "Tuning chooses on some games and measures the choice on others, so a lucky "
                                   "draw while searching does not show as a good fit."),
    "band": Method("Target band", "A target is met when the whole range of the fresh measurement lies inside its "
                                  "band, missed when it lies wholly outside."),
}

REPORT_METHODS = {
    "run": ["skill", "margin", "interval", "wilson", "seat_gap", "mcnemar", "bonferroni", "decide", "p", "bootstrap", "t",
            "newcombe", "holm", "lift", "naming"],
    "sweep": ["skill", "margin", "interval", "wilson", "paired", "mcnemar", "bonferroni", "seat_gap", "decide", "p",
              "bootstrap", "t", "holm", "fisher", "lift", "naming"],
    "compare": ["skill", "margin", "interval", "paired", "mcnemar", "newcombe", "bonferroni", "t", "decide", "p"],
    "impact": ["skill", "margin", "interval", "paired", "mcnemar", "bonferroni", "holm", "t", "decide", "lift", "naming"],
    "ladder": ["margin", "interval", "wilson", "paired", "mcnemar", "t", "decide"],
    "tune": ["fresh", "band", "margin", "interval", "wilson", "paired", "mcnemar", "bootstrap", "decide"],
    "campaign": ["margin", "interval", "wilson", "newcombe", "bonferroni", "t", "bootstrap", "decide"],
}


def methods_for(kind: str) -> list[Method]:
    return [METHODS[k] for k in REPORT_METHODS[kind]]


def run_block(s: SummaryResult, anchors: dict[str, str]) -> Block:
    return Block(run_verdicts(s, anchors), run_alerts(s.alerts, anchors), methods_for("run"), margin_line(s.margin))
