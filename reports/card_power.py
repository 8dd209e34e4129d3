"""View model of card power (analysis.card_power's table): what one more copy of a card does for the
player who gets it, in a competitive game.

`view(cp)` gives the pieces any report includes (the impact report first among its card tables; the run
report where its run played card-power variants): summary sentences, a chart (each card's effect on its
holder's win with its family-wise interval, the margin shaded), the ranked table (card, effect [CI],
Holm p, margin verdict, n, game-level effects beside), and the cards not measured with why. Rendered
through the run report's template like every other Table and Chart (reports/templates/run.html.jinja2).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup

from . import charts, fmt, verdicts
from .model import Chart, Table

fmt_int, fmt_p = fmt.int_, fmt.p

MAX_ROWS = 25  # cards in one chart (the table has them all)

COLUMNS = ["rank", "card", "holder's win: without → with", "effect on the holder [CI]", "p (Holm)",
           "against the margin", "n pairs", "length: difference [CI]", "nobody wins: difference [CI]"]


@dataclass(frozen=True)
class CardPowerView:
    sentences: list[str]
    charts: list[Chart] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    verdicts: list[dict] = field(default_factory=list)  # {"level": "bad"|"good"|"unclear", "text": ...}

    @property
    def anchor(self) -> str:
        return self.tables[0].anchor if self.tables else ""


def _level(cp: dict) -> str:
    return f"{100 * (cp.get('ci_level') or 0.95):.4g}%"


def _game_level(r: dict, key_start: str) -> str:
    g = next((v for k, v in (r.get("game_level") or {}).items() if k.startswith(key_start)), None)
    if not g or g.get("diff") is None:
        return "–"
    if g.get("rate"):
        return f"{fmt.pts(g['diff'])} {fmt.ci_pts(g['ci'])}"
    d = g["diff"]
    return f"{'+' if d >= 0 else ''}{fmt.num(d)} {fmt.ci_num(g['ci'])}"


def table(cp: dict) -> Table:
    rows = []
    for i, r in enumerate(cp.get("rows") or [], 1):
        mv = r.get("margin_verdict") or {}
        rows.append([str(i), r["card"], f"{fmt.pct(r.get('seat_win_without'))} → {fmt.pct(r.get('seat_win_with'))}",
                     f"{fmt.pts(r.get('effect'))} {fmt.ci_pts(r.get('ci'))}", fmt_p(r.get("p_holm")),
                     verdicts.LABELS.get(mv.get("verdict"), mv.get("words", "–")), fmt_int(r.get("n")),
                     _game_level(r, "length"), _game_level(r, "nobody")])
    unit = cp.get("length_unit") or "decisions"
    note = (f"Each card: the same deals with {cp.get('how') or 'one more copy'} given to one seat; the effect is "
            f"that seat's win minus the same seat's win on the same deal without it (points), most positive first. "
            f"{cp.get('seat_rule', '').capitalize()}. Intervals at {_level(cp)} each (Bonferroni over the "
            f"{cp.get('family_size')} cards, so they hold together at {100 * (1 - (cp.get('alpha') or 0.05)):.0f}%); "
            f"the verdict is read from the interval shown; p is Holm-adjusted over the same family; win/loss pairs: "
            f"exact McNemar test with its interval. Margin ±{fmt.pts(cp.get('margin'), signed=False)}. Beside each: "
            f"the game's length ({unit}) and its share of games nobody wins, variant minus baseline, intervals at "
            f"{100 * (cp.get('secondary_ci_level') or 0.95):.4g}% (Bonferroni over all "
            f"{cp.get('secondary_family_size')} of them).")
    return Table("Card power: what one more copy does for the player who gets it", COLUMNS, rows, note,
                 numeric_from=2)


def refused_table(cp: dict, not_measured: list[dict] | None = None) -> Table | None:
    rows = [[s.get("card", "?"), s.get("reason", "")] for s in (not_measured or []) + (cp.get("refused") or [])]
    if not rows:
        return None
    return Table("Card power: cards not measured", ["card", "why"], rows,
                 "A card the game's rules allow no second copy of, or a variant not paired with its baseline.",
                 numeric_from=2)


def chart(cp: dict) -> Chart | None:
    rows = (cp.get("rows") or [])[:MAX_ROWS]
    if not rows:
        return None
    series = [{"name": "one more copy to one seat", "color": charts.BAR,
               "diffs": [r.get("effect") for r in rows],
               "lows": [(r.get("ci") or [None, None])[0] for r in rows],
               "highs": [(r.get("ci") or [None, None])[1] for r in rows],
               "significant": [bool(r.get("significant")) for r in rows]}]
    n = min(int(r.get("n") or 0) for r in rows)
    svg = charts.tornado([r["card"] for r in rows], series, cp.get("margin"),
                         f"Card power: the holder's win (n = {n:,} paired games each or more)",
                         f"holder's win with the copy − without, same deals; whiskers: {_level(cp)} intervals")
    more = (f" The {len(cp['rows']) - MAX_ROWS} smaller ones are in the table." if len(cp.get("rows") or []) > MAX_ROWS
            else "")
    return Chart("Card power: effect on the holder's win", Markup(svg),
                 f"Each bar: one card, the receiving seat's win with {cp.get('how') or 'one more copy'} minus the "
                 f"same seat's win on the same deal without; whiskers: {_level(cp)} intervals (Bonferroni over the "
                 f"{cp.get('family_size')} cards); faded: the interval includes 0; shaded band: the margin. "
                 f"Strongest on top.{more}")


def verdict_lines(cp: dict) -> list[dict]:
    """The verdicts a report leads with: cards beyond the margin (too strong / too weak), and a plain line
    when every card is within it. Named only when the interval is narrower than twice the margin."""
    rows = cp.get("rows") or []
    if not rows:
        return []
    margin = cp.get("margin") or 0.02
    out = []
    for r in rows:
        code = (r.get("margin_verdict") or {}).get("verdict")
        lo, hi = (r.get("ci") or [None, None])[:2]
        if code == "beyond_margin" and lo is not None and hi - lo < 4 * margin:
            out.append({"level": "bad", "text": r["words"] + ".", "card": r["card"]})
    within = sum(1 for r in rows if (r.get("margin_verdict") or {}).get("verdict") == "within_margin")
    if within == len(rows):
        out.append({"level": "good", "text": f"Every one of the {len(rows)} cards is within your "
                                             f"{100 * margin:g}-point margin for the player who gets one more copy."})
    else:
        unclear = [r for r in rows if (r.get("margin_verdict") or {}).get("verdict") in
                   ("inconclusive", "differs_size_unclear", "no_information")]
        if unclear:
            need = [r["margin_verdict"].get("games_to_decide") for r in unclear
                    if (r.get("margin_verdict") or {}).get("games_to_decide")]
            more = (f": about {fmt_int(max(need))} paired games a card would decide them" if need else "")
            out.append({"level": "unclear", "text": f"{len(unclear)} of the {len(rows)} cards: not enough games to "
                                                    f"say whether one more copy moves its holder's win by more than "
                                                    f"{100 * margin:g} points{more}."})
    return out


def card_verdict(r: dict, cp: dict, anchor: str = "") -> verdicts.Verdict:
    """One card's verdict in the report's verdict block (reports.verdicts' sentences and tags)."""
    v = dict(r.get("margin_verdict") or {})
    v.setdefault("verdict", "inconclusive")
    d = r.get("effect")
    mw = fmt.margin_points(r.get("margin_verdict", {}).get("margin", cp.get("margin")))
    card = r["card"]
    ph = verdicts.Phrases(
        within=f"{card} is balanced: one more copy moves its holder's win by less than {mw}",
        differs=(f"{card} is {'strong' if (d or 0) >= 0 else 'weak'}: one more copy "
                 f"{verdicts.more_or_less(d, 'raises', 'lowers')} its holder's win by {fmt.points(d)}"),
        whether=f"one more {card} moves its holder's win by less than {mw}",
        about=f"what one more {card} does for its holder")
    detail = (f"holder's win with − without {fmt.pts(d)}, {_level(cp)} CI {fmt.ci_pts(r.get('ci'))}, "
              f"n = {fmt_int(r.get('n'))} paired games")
    s = verdicts.say(ph, v, mw, verdicts.decide_words(v, r.get("n"), "paired games a card"))
    return verdicts.Verdict(s, v["verdict"], f"margin ±{fmt.pts(cp.get('margin'), signed=False)}", detail, anchor)


def verdict_list(cp: dict, anchor: str = "", keep: int = 4, skill: dict | None = None) -> list:
    """The card-power verdicts a report leads with: the cards that need attention first (beyond the margin,
    then undecided), at most `keep`, and one line counting the rest (reports.verdicts.shortlist). No card is
    named on an interval wider than twice the margin, i.e. not known to within ± the margin (issue 43;
    analysis.findings.nameable); those are counted instead."""
    rows = cp.get("rows") or []
    margin = cp.get("margin") or 0.02
    named, vague = [], []
    for r in rows:
        lo, hi = (r.get("ci") or [None, None])[:2]
        (named if lo is not None and hi is not None and hi - lo < 2 * margin else vague).append(r)
    vs = []
    for r in named:
        item = verdicts.skill_row(skill, "card_power", r["variant"])
        check = {**r, **(item or {}).get("check", {})}
        vs.append(verdicts.with_note(card_verdict(r, cp, anchor), item and item["status"],
                                     card_verdict(check, cp) if item else None, check.get("n")))
    out = verdicts.shortlist(vs, "card", anchor, keep=keep) if vs else []
    if vague:
        out.append(verdicts.Verdict(f"{len(vague)} of the {len(rows)} cards: too few paired games for an interval "
                                    f"narrow enough to name them (see the card-power table).", "inconclusive",
                                    f"margin ±{fmt.pts(margin, signed=False)}", "", anchor))
    return out


def sentences(cp: dict) -> list[str]:
    rows = cp.get("rows") or []
    if not rows:
        return []
    n = min(int(r.get("n") or 0) for r in rows)
    beyond = [r for r in rows if (r.get("margin_verdict") or {}).get("verdict") == "beyond_margin"]
    within = sum(1 for r in rows if (r.get("margin_verdict") or {}).get("verdict") == "within_margin")
    out = [f"Card power: for each of {len(rows)} cards, the same deals played with {cp.get('how') or 'one more copy'} "
           f"given to one seat, at least {fmt_int(n)} paired games a card; the figure is that seat's win with it "
           f"minus the same seat's win on the same deal without ({cp.get('seat_rule', '')})."]
    out.append(f"Against the ±{fmt.pts(cp.get('margin'), signed=False)} margin, {len(beyond)} differ by more and "
               f"{within} are within it (intervals at {_level(cp)}, Bonferroni over the {len(rows)} cards).")
    top = rows[0]
    out.append(f"Strongest: {top['card']}, {fmt.pts(top.get('effect'))} ({_level(cp)} CI {fmt.ci_pts(top.get('ci'))}, "
               f"n = {fmt_int(top.get('n'))} pairs); weakest: {rows[-1]['card']}, {fmt.pts(rows[-1].get('effect'))} "
               f"(CI {fmt.ci_pts(rows[-1].get('ci'))}).")
    return out


def view(cp: dict | None, not_measured: list[dict] | None = None) -> CardPowerView | None:
    """Everything a report shows of card power (None: the run played none)."""
    if not cp or not cp.get("rows"):
        return None
    tables = [t for t in (table(cp), refused_table(cp, not_measured)) if t]
    ch = chart(cp)
    return CardPowerView(sentences(cp), [ch] if ch else [], tables, verdict_lines(cp))


def text_table(cp: dict) -> str:
    """The table as plain text (docs, a closing note)."""
    t = table(cp)
    widths = [max(len(c), *(len(r[i]) for r in t.rows)) for i, c in enumerate(t.columns)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths))  # noqa: E731
    return "\n".join([line(t.columns)] + [line(r) for r in t.rows])
