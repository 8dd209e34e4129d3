"""View models of the run report: plain, typed data the template only lays out.

Everything here is built from summary.json and the manifest (the run folder
alone). All the wording and number formatting lives in the reports, so the
template has no logic beyond loops: here the page's dataclasses (RunReport,
KeyFigure, Paragraph), the run report's charts and tables, its provenance and
the assembly of the page (`build_run_report`). The plain-words summary is in
reports.run_words, what the numbers are about (About, build_about) in
reports.about.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from balance.analysis.summary_result import CardRow, SummaryResult

from . import actions, charts, context, fmt, verdicts
from .about import About, build_about
from .model import Chart, Table  # noqa: F401  (the report modules import them from here too)
from .run_words import _players_words, seat_name, seat_rows, someone_always_wins, summary_sentences, warnings, win_label

# ---------------------------------------------------------------- formatting
# One number format for every report: reports.fmt. These names are kept for the
# report modules that import them from here (comparison, tuning, campaign, sweep).

fmt_int = fmt.int_
fmt_num = fmt.num
fmt_ci = fmt.ci_num
fmt_points = fmt.pts
fmt_p = fmt.p
fmt_rate = fmt.rate


def fmt_pct(v, ci=None, digits: int | None = None) -> str:  # noqa: ARG001  one decimal throughout
    return fmt.pct(v)


def fmt_ci_pct(ci, digits: int | None = None) -> str:  # noqa: ARG001
    return fmt.ci_pct(ci)


# ---------------------------------------------------------------- view models


@dataclass(frozen=True)
class KeyFigure:
    label: str
    value: str
    detail: str  # interval and n


@dataclass(frozen=True)
class Paragraph:
    """A further plain-words paragraph of the summary, under its own heading."""
    heading: str
    sentences: list[str]


@dataclass(frozen=True)
class RunReport:
    title: str
    subtitle: str
    summary: list[str]
    warnings: list[str]
    key_figures: list[KeyFigure]
    charts: list[Chart]
    tables: list[Table]
    provenance: list[tuple[str, str]]
    generated: str
    notes: list[str] = field(default_factory=list)
    paragraphs: list[Paragraph] = field(default_factory=list)
    footer: str = ""  # default: "Summary computed <generated> · made by balance from the run folder alone."
    banners: list[str] = field(default_factory=list)  # above everything: a reconstructed card list, a missing file
    about: list[str] = field(default_factory=list)  # whom the figures are about (beside the headline)
    block: "verdicts.Block | None" = None  # the verdicts and alerts first, "How this was measured" last


# ---------------------------------------------------------------- charts and tables


def _win_chart(s: SummaryResult, about: About | None = None) -> Chart | None:
    """Competitive games: each seat against its fair share, in points. Otherwise
    (co-op, solo, no seats): the win rate, pooled and per variant."""
    if not s.n_games:
        return None
    seats = s.win_rate_by_seat or []
    if seats and not s.cooperative:
        return _seat_chart(s, about.fair if about is not None else context.fair_share(s))
    labels, vals, lo, hi, ns = [], [], [], [], []
    variants = s.variants or []
    labels.append(win_label(s) + (" (pooled)" if variants else ""))
    vals.append(s.win_rate), lo.append(s.win_rate_ci[0]), hi.append(s.win_rate_ci[1])
    ns.append(s.n_games)
    for v in variants[:12]:  # more points belong in a sweep report's curves
        labels.append(v.name)
        vals.append(v.win_rate), lo.append(v.win_rate_ci[0]), hi.append(v.win_rate_ci[1])
        ns.append(v.n_games)
    svg = charts.interval_bars(labels, vals, lo, hi, ns, "Win rate")
    return Chart("Win rate", Markup(svg), "Bars: share of games won, with 95% Wilson intervals; n = games per bar.")


def _seat_chart(s: SummaryResult, fair: "context.FairShare | None") -> Chart | None:
    if fair is None:
        return None
    rows = seat_rows(s, fair)
    svg = charts.fair_share_forest([f"{seat_name(r['seat'])} ({r['policy']})" for r in rows], [r["diff"] for r in rows],
                                   [r["diff_ci"][0] for r in rows], [r["diff_ci"][1] for r in rows],
                                   [r["n"] for r in rows], fair.value, "Each seat against its fair share")
    cap = ("Each seat's win rate minus its fair share, in points, with the seat's 95% Wilson interval (the fair "
           "share taken as known); green or red: the interval leaves the fair share; n = games per seat. "
           + context.fair_share_words(fair))
    return Chart("Win rate by seat", Markup(svg), cap)


def _length_chart(s: SummaryResult) -> Chart | None:
    length = s.length
    h = length.histogram
    if not h.counts:
        return None
    unit = length.column
    capped = s.capped
    highlight = float(s.turn_cap) if capped and unit == "decisions" else None
    svg = charts.histogram(h.values, h.counts, f"Game length in {unit}", unit, h.bin_width,
                           marks={"median": length.median, "p10": length.p10, "p90": length.p90},
                           highlight=highlight)
    cap = (f"Median {fmt_num(length.median)} (95% CI {fmt_ci(length.median_ci)}), "
           f"mean {fmt_num(length.mean)} (95% CI {fmt_ci(length.mean_ci)}), n = {fmt_int(length.n)}.")
    if highlight is not None:
        cap += f" Orange: games stopped by the turn cap ({fmt_int(capped)})."
    return Chart("Game length", Markup(svg), cap)


def _end_chart(s: SummaryResult) -> Chart | None:
    if not s.n_games:
        return None
    items = list(s.end_reasons.items())
    svg = charts.count_bars([k.replace("_", " ") for k, _ in items], [v for _, v in items], "End reasons",
                            highlight=("cap", "no move"))
    return Chart("End reasons", Markup(svg), "Every declared end reason, zeros included; orange: runner's "
                                             "own (turn cap, no legal move).")


STAT_KEYS = {"value", "ci", "n", "k", "mean", "label", "help"}


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_distribution(d) -> bool:
    """value -> count (or share) mapping: numbers only, keys not statistics' names."""
    return (isinstance(d, dict) and len(d) >= 1 and all(_is_number(c) for c in d.values())
            and not (set(d) & STAT_KEYS))


@dataclass(frozen=True)
class Distribution:
    name: str
    label: str
    items: list[tuple[str, float]]
    shares: bool  # values are shares of n, not counts
    n: int | None
    help: str


def distributions(game_metrics: dict) -> list[Distribution]:
    """Every distribution in the game's headline: an entry's `distribution` dict, or
    any value -> count dict one level inside an entry (e.g. missing_cards.at_loss)."""
    out = []
    for name, v in (game_metrics or {}).items():
        if not isinstance(v, dict):
            continue
        found = []
        if _is_distribution(v.get("distribution")):
            found.append((name, v["distribution"]))
        else:
            found += [(f"{name}.{k}", d) for k, d in v.items() if _is_distribution(d)]
        for full, d in found:
            items = list(d.items())
            try:
                items.sort(key=lambda kv: float(kv[0]))
            except ValueError:
                pass
            counts = all(float(c).is_integer() for _, c in items) and sum(items_c := [c for _, c in items]) > 1.5
            n = int(sum(items_c)) if counts else (v.get("n") if _is_number(v.get("n")) else
                                                  (int(v["value"]) if _is_number(v.get("value")) and "ci" not in v else None))
            label = v.get("label") or full.replace("_", " ").replace(".", ": ")
            out.append(Distribution(full, label, [(str(k), float(c)) for k, c in items], not counts, n, v.get("help", "")))
    return out


def _distribution_charts(s: SummaryResult) -> list[Chart]:
    out = []
    for d in distributions(s.game_metrics or {}):
        title = d.label[:1].upper() + d.label[1:]
        svg = charts.value_bars([k for k, _ in d.items], [c for _, c in d.items], title, d.name.split(".")[0].replace("_", " "),
                                shares=d.shares, n=d.n)
        what = d.help or f"Distribution of {d.label} over games"
        cap = f"{what} (n = {fmt_int(d.n)})" + ("; bars: share." if d.shares else "; labels: share of the n.")
        out.append(Chart(title, Markup(svg), cap))
    return out


def _ladder_chart(s: SummaryResult) -> Chart | None:
    lad = s.ladder
    if len(lad) < 2:
        return None
    svg = charts.ladder([r.level for r in lad], [r.value for r in lad], [r.ci[0] for r in lad],
                        [r.ci[1] for r in lad], [r.n for r in lad], "Win rate per level")
    return Chart("Difficulty ladder", Markup(svg), "Win rate per level with 95% Wilson intervals; "
                                                   "second line of each label: games at that level.")


INVENTED = "Reconstructed card list: these are invented cards standing in for the printed ones. "


def comparison_words(comparison: str, counter: str) -> str:
    """What a lift of this comparison ("reached", "mixed", "all"; analysis.cards) compares, in words."""
    if comparison == "reached":
        return f"among seat-games where the card was drawn: win rate when {counter} vs not {counter}"
    if comparison == "mixed":
        return (f"win rate when {counter} vs not {counter}, among seat-games where the card was drawn where the run "
                f"counted that, else against every other seat-game")
    return (f"win rate of seat-games where the card was {counter} vs all other seat-games, including those where "
            f"it was never drawn (this folder has no drawn counts: it was written before they were added, or the "
            f"game declares no hand counters)")


def lift_is_association(comparison: str, counter: str) -> str:
    """The sentence the run report's and the impact report's lift notes open with."""
    return (f"Lift ({comparison_words(comparison, counter)}) is an association, not an effect: a positive lift "
            f"means the card is {counter} more often by winners, a negative one more often by losers (a card "
            f"{counter} when already winning looks strong)")


def lift_words(s: SummaryResult, counter: str) -> str:
    """What lift is, in words a designer reads right, and where the effect is measured."""
    game = s.game or "G"
    comparison = (s.cards.comparison if s.cards is not None else None) or "all"
    drawn = ("seat-games where the card was never drawn (never reached the seat's hand) are left out, so holding "
             "more cards does not make a card look strong" if comparison == "reached" else
             "the seat-games without it include those where it was never drawn")
    return (f"{lift_is_association(comparison, counter)}; {drawn}. "
            f"What removing or adding the card does is measured by `balance impact --game {game} --cards all` "
            f"(the same seeds played with its copies changed).")


def _card_chart(s: SummaryResult, about: About | None = None) -> Chart | None:
    c = s.cards
    if c is None:
        return None
    rows = c.top[:10] + list(reversed(c.bottom[:10]))
    rows = sorted(rows, key=lambda r: -r.lift.value)
    if not rows:
        return None
    svg = charts.lift_forest([r.card for r in rows], [r.lift.value for r in rows],
                             [r.lift.ci[0] for r in rows], [r.lift.ci[1] for r in rows],
                             [r.win_rate_with.n for r in rows],
                             f"Card lift ({c.primary_counter}), an association")
    reached = c.comparison == "reached"
    what = (f"among seat-games where the card was drawn, win rate when {c.primary_counter} minus when not "
            f"{c.primary_counter}" if reached else
            f"win rate of seat-games where the card was {c.primary_counter} minus all other seat-games")
    return Chart("Card lift (an association)", Markup(svg), (INVENTED if about is not None and about.reconstruction
                                                              else "") +
                 f"Significant cards only (Holm, α = {c.alpha}): {what}, 95% Newcombe interval; "
                 f"n = seat-games where the card was {c.primary_counter}"
                 + (" (and drawn)" if reached else "") + ". " + lift_words(s, c.primary_counter))


def _metrics_table(s: SummaryResult) -> Table:
    rows = []
    n = s.n_games
    rows.append(["win rate", fmt_pct(s.win_rate, s.win_rate_ci), fmt_ci_pct(s.win_rate_ci), fmt_int(n),
                 "share of games won" + (" by the player" if s.players == 1 else
                                         " by the team" if s.cooperative else " by some seat")])
    if s.everybody_loses:
        e = s.everybody_loses
        rows.append(["everybody loses", fmt_pct(e.value, e.ci), fmt_ci_pct(e.ci), fmt_int(e.n),
                     "share of games nobody won"])
    if s.seat_gap:
        g = s.seat_gap
        v = g.verdict
        rows.append(["seat gap", fmt.pts(g.value, signed=False), fmt.ci_pts(g.ci, signed=False),
                     fmt_int(g.n), f"best minus worst seat; {g.test or 'paired seat differences'} "
                                   f"{fmt_p(g.p)}, {'significant' if g.significant else 'not significant'}"
                                   + (f"; {v.words}" if v.words else "")])
    for key, label in (("length", "length"), ("rounds", "rounds")):
        d = getattr(s, key)
        if d:
            rows.append([f"{label}: mean {d.column}", fmt_num(d.mean), fmt_ci(d.mean_ci), fmt_int(d.n), d.help])
            rows.append([f"{label}: median {d.column}", fmt_num(d.median), fmt_ci(d.median_ci),
                         fmt_int(d.n), f"bootstrap interval; p10 {fmt_num(d.p10)}, p90 {fmt_num(d.p90)}"])
    cr = s.capped_rate
    rows.append(["hit the turn cap", fmt_pct(cr.value), fmt_ci_pct(cr.ci), fmt_int(n),
                 f"{fmt_int(s.capped)} games at {fmt_int(s.turn_cap)} decisions"])
    for name, m in s.metrics.items():
        rows.append([name, fmt_num(m.mean), fmt_ci(m.ci), fmt_int(m.n), f"mean per game: {m.help}"])
    for name, m in s.seat_metrics.items():
        rows.append([name, fmt_num(m.mean), fmt_ci(m.ci), fmt_int(m.n), f"mean per seat-game: {m.help}"])
    for name, v in (s.game_metrics or {}).items():  # the game's own headline: free-form (summary_result.Games)
        rows.extend(_game_metric_rows(name, v, n))
    return Table("Metrics", ["metric", "value", "95% CI", "n", "what it is"], rows, numeric_from=1)


def _game_metric_rows(name: str, v, n_games: int) -> list[list[str]]:
    """The game's own headline entries, whatever their shape: rates (value, ci, k, n),
    means (value, ci, n), distributions (shown as charts), nested groups, bare numbers."""
    if isinstance(v, dict):
        label = v.get("label") or name
        what = v.get("help", "")
        if _is_distribution(v.get("distribution")) or _is_distribution(v):
            dist = v.get("distribution") if isinstance(v.get("distribution"), dict) else v
            return [[label, f"{len(dist)} values", "–", fmt_int(_dist_n(dist, v)), "distribution: see its chart"]]
        if _is_number(v.get("value")) or (v.get("value") is None and "ci" in v):
            ci = v.get("ci")
            is_rate = "k" in v
            val = fmt_pct(v["value"], ci) if is_rate else fmt_num(v["value"])
            cis = fmt_ci_pct(ci) if is_rate else fmt_ci(ci)
            n = v.get("n")
            return [[label, val, cis, fmt_int(n) if n is not None else "–", what or ("rate" if is_rate else "")]]
        if _is_number(v.get("mean")):
            return [[label, fmt_num(v["mean"]), fmt_ci(v.get("ci") or v.get("mean_ci")),
                     fmt_int(v.get("n", n_games)), what]]
        rows = []
        for k, sub in v.items():
            if k in ("label", "help"):
                continue
            rows.extend(_game_metric_rows(f"{label}: {k}", sub, n_games))
        return rows
    if _is_number(v):
        return [[name, fmt_num(v), "–", fmt_int(n_games), "reported by the game (no interval given)"]]
    if isinstance(v, str):
        return [[name, v, "–", "–", "reported by the game"]]
    return []


def _dist_n(dist: dict, parent: dict) -> int | None:
    vals = list(dist.values())
    if all(float(c).is_integer() for c in vals) and sum(vals) > 1.5:
        return int(sum(vals))
    return parent.get("n") if _is_number(parent.get("n")) else None


def _seat_table(s: SummaryResult, about: About | None = None) -> Table | None:
    seats = s.win_rate_by_seat or []
    if not seats:
        return None
    fair = about.fair if about is not None else (None if s.cooperative else context.fair_share(s))
    rows = []
    for r in seat_rows(s, fair):
        row = [seat_name(r["seat"]), r["policy"], fmt_int(r["wins"]), fmt.pct(r["value"]), fmt.ci_pct(r["ci"])]
        if fair is not None:
            row += [fmt.pts(r["diff"]), fmt.ci_pts(r["diff_ci"])]
        rows.append(row + [fmt_int(r["n"])])
    cols = ["seat", "policy", "wins", "win rate", "95% CI"] + (["vs fair share", "95% CI (pts)"] if fair else []) + ["n"]
    return Table("Win rate by seat", cols, rows, context.fair_share_words(fair) if fair is not None else "",
                 numeric_from=2)


def _end_table(s: SummaryResult) -> Table:
    rows = []
    for k, v in s.end_reasons.items():
        sh = s.end_reason_shares[k]
        rows.append([k.replace("_", " "), fmt_int(v), fmt_pct(sh.value), fmt_ci_pct(sh.ci), fmt_int(sh.n)])
    return Table("End reasons", ["end reason", "games", "share", "95% CI", "n"], rows)


def _card_rows(rows: list[CardRow], reached: bool = False) -> list[list[str]]:
    if reached:  # among the seat-games where the card reached the hand
        return [[r.card, fmt_int(r.reached_games),
                 fmt_pct(r.share_reached.value, r.share_reached.ci),
                 f"{fmt_pct(r.win_rate_with.value, r.win_rate_with.ci)} (n = {fmt_int(r.win_rate_with.n)})",
                 f"{fmt_pct(r.win_rate_without.value, r.win_rate_without.ci)} (n = {fmt_int(r.win_rate_without.n)})",
                 fmt_points(r.lift.value), fmt.ci_pts(r.lift.ci),
                 fmt_p(r.lift.p), fmt_int(r.seat_games)] for r in rows]
    return [[r.card, fmt_int(r.games_with), fmt_pct(r.share_with.value, r.share_with.ci),
             fmt_pct(r.win_rate_with.value, r.win_rate_with.ci),
             fmt_pct(r.win_rate_without.value, r.win_rate_without.ci),
             fmt_points(r.lift.value), fmt.ci_pts(r.lift.ci),
             fmt_p(r.lift.p), fmt_int(r.seat_games)] for r in rows]


CARD_COLUMNS = ["card", "seat-games with", "share with", "win rate with", "win rate without", "lift",
                "lift 95% CI", "p", "n seat-games"]


def card_columns(counter: str, reached: bool) -> list[str]:
    """The card tables' header: the drawn-only comparison's, or the older one's (CARD_COLUMNS)."""
    if not reached:
        return CARD_COLUMNS
    return ["card", "seat-games drawn", f"{counter} when drawn", f"win rate {counter} (drawn)",
            f"win rate not {counter} (drawn)", "lift", "lift 95% CI", "p", "n seat-games"]


def _card_tables(s: SummaryResult, about: About | None = None) -> list[Table]:
    c = s.cards
    if c is None or not c.n_cards:
        return []
    counter = c.primary_counter
    reached = c.comparison == "reached"
    cols = card_columns(counter, reached)
    shown = (f"Lift = among seat-games where the card was drawn, win rate when {counter} minus when not {counter}; "
             f"'{counter} when drawn' is the share of those seat-games where it was {counter}; n seat-games: all "
             f"seat-games of the run" if reached else
             f"Lift = win rate with minus without (all other seat-games, including those where the card was never "
             f"drawn)")
    note = ((INVENTED if about is not None and about.reconstruction else "") + f"Counter: {counter}. {shown}. "
            f"Lift intervals: Newcombe 95%; "
            f"significance: a two-proportion z-test, or Fisher's exact test where a cell of the card's 2x2 table "
            f"expects fewer than 5 seat-games, after Holm correction over {c.family_size} cards "
            f"(α = {c.alpha}). "
            + lift_words(s, counter))
    out = [
        Table(f"Cards {counter} more often by winners (top 10 by lift, significant)", cols,
              _card_rows(c.top, reached), note),
        Table(f"Cards {counter} more often by losers (bottom 10 by lift, significant)", cols,
              _card_rows(c.bottom, reached), note),
    ]
    out.append(Table(f"Dead cards ({counter} in under {fmt.pct(c.dead_threshold)} of seat-games)", cols,
                     _card_rows(c.dead, reached),
                     ("Never drawn, so left out (not in this configuration's deck): " + ", ".join(c.never_drawn) + ".")
                     if c.never_drawn else ""))
    return out


def _variants_table(s: SummaryResult) -> Table | None:
    vs = s.variants or []
    if not vs:
        return None
    rows = []
    for v in vs:
        shown = v.varied or {k: val for k, val in v.params.items() if s.params.get(k) != val}
        params = ", ".join(f"{k}={fmt.value(val)}" for k, val in shown.items()) or "(base)"
        rows.append([v.name, params, fmt_pct(v.win_rate, v.win_rate_ci), fmt_ci_pct(v.win_rate_ci),
                     fmt_num(v.length.median), fmt_ci(v.length.median_ci), fmt_int(v.capped), fmt_int(v.n_games)])
    return Table("Variants", ["variant", "parameters", "win rate", "95% CI", f"median {s.length.column}",
                              "95% CI", "capped", "n"], rows, numeric_from=2)


def _ladder_table(s: SummaryResult) -> Table | None:
    lad = s.ladder
    if len(lad) < 2:
        return None
    rows = [[str(r.level), fmt_int(r.k), fmt_pct(r.value, r.ci), fmt_ci_pct(r.ci), fmt_int(r.n)]
            for r in lad]
    return Table("Win rate per level", ["level", "wins", "win rate", "95% CI", "n"], rows)


# ---------------------------------------------------------------- provenance

RECONSTRUCTION_NOTE = ("The card lists shipped for Overtime, You're Fired! and Four Day Weekend are reconstructions "
                       "(their rulebooks do not list the cards): invented cards stand in for the printed ones. "
                       "Sick Days' deck is the printed one.")


def provenance(manifest: dict, s: dict, run_dir: Path, about: About | None = None, spec=None) -> list[tuple[str, str]]:
    cfg = manifest.get("config", {})

    def js(v) -> str:
        return json.dumps(v, sort_keys=True) if isinstance(v, (dict, list)) else str(v)

    pols = context.policy_rows(cfg.get("policies"), spec, cfg.get("players"))  # each parameter by name
    rows = [
        ("run folder", run_dir.name),
        ("kind", manifest.get("kind", "run")),
        ("game", f"{cfg.get('game', s.game)} ({s.title})"),
        ("mode", str(cfg.get("mode", "–"))),
        ("players", str(cfg.get("players", s.players))),
        ("rule version", str(cfg.get("rule_version", s.rule_version or "–"))),
        ("rule parameters", js(cfg.get("params", {}))),
    ]
    if about is not None:
        rows.append(("changed from the defaults", about.settings or "nothing (the game's defaults)"))
    rows.append(("card list hash", str(cfg.get("card_list_hash", "–"))))
    if about is not None and about.cards:
        for note in about.cards:
            label = "card list" + (f" ({', '.join(note.variants)})" if len(about.cards) > 1 else "")
            rows.append((label, note.words()))
        rows.append(("shipped card lists", RECONSTRUCTION_NOTE))
    rows += [
        ("policies", pols),
        ("seed", str(cfg.get("seed", "–"))),
        ("games requested", fmt_int(manifest.get("n_games")) + (" per variant" if len(cfg.get("variants") or []) > 1 else "")),
        ("games finished", fmt_int(s.n_games)),
        ("chunk size", str(cfg.get("chunk_size", "–"))),
        ("turn cap", f"{fmt_int(s.turn_cap)} decisions"),
        ("package version", str(manifest.get("package_version", "–"))),
        ("engine hash", str(cfg.get("engine_hash", "–"))),
        ("created", str(manifest.get("created", "–"))),
        ("command", str(manifest.get("command", "–"))),
    ]
    if about is not None:
        for sp in about.seats:
            if sp.help:
                rows.append((f"policy {sp.name}", sp.help))
                break
        if about.ladder is not None:
            rows.append(("skill ladder", about.ladder[1]))
    if len(cfg.get("variants") or []) > 1:
        rows.append(("variants", "; ".join(f"{v.get('name')}: {js(v.get('params', {}))}" for v in cfg["variants"])))
    return rows


# ---------------------------------------------------------------- the page


def first_seat_headline(s: SummaryResult) -> KeyFigure | None:
    """Where someone wins every game, the headline is the first seat's win rate and the seats' margin verdict."""
    if not someone_always_wins(s):
        return None
    r = next((x for x in s.win_rate_by_seat if x.seat == 0), None)
    if r is None:
        return None
    v = s.seat_gap.verdict if s.seat_gap is not None else None
    fair = context.fair_share(s)
    share = f"fair share {fmt.pct(fair.value)}; " if fair is not None else ""
    said = (f"seats: {verdicts.LABELS.get(v.verdict, v.verdict)} (margin ±{fmt.pts(v.margin, signed=False)}); "
            if v is not None else "")
    return KeyFigure("seat 1 wins", fmt.pct(r.value), f"95% CI {fmt.ci_pct(r.ci)}; {share}{said}n = {fmt_int(r.n)}")


def key_figures(s: SummaryResult, about: About | None = None) -> list[KeyFigure]:
    n = s.n_games
    figs = [KeyFigure("games", fmt_int(n), f"of {fmt_int(s.n_requested)} requested, seed {s.seed}")]
    first = first_seat_headline(s)
    if first is not None:  # someone wins every game: "someone wins 100.0%" says nothing
        figs.append(first)
    else:
        figs.append(KeyFigure(win_label(s), fmt.pct(s.win_rate), f"95% CI {fmt.ci_pct(s.win_rate_ci)}, n = {fmt_int(n)}"))
    if s.seat_gap:
        g = s.seat_gap
        v = g.verdict
        said = ("not enough information to say" if v.verdict == "no_information" else
                f"{verdicts.LABELS.get(v.verdict, v.verdict)} (margin ±{fmt.pts(v.margin, signed=False)})")
        figs.append(KeyFigure("seat gap", fmt.pts(g.value, signed=False),
                              f"95% CI {fmt.ci_pts(g.ci, signed=False)}; {said}; n = {fmt_int(g.n)}"))
    L = s.length
    figs.append(KeyFigure(f"median {L.column}", fmt_num(L.median),
                          f"95% CI {fmt_ci(L.median_ci)}, n = {fmt_int(L.n)}"))
    figs.append(KeyFigure("hit the turn cap", fmt_int(s.capped), f"{fmt.pct(s.capped_rate.value)} of n = {fmt_int(n)}"))
    return figs


def report_title(s: SummaryResult, kind: str, about: About | None) -> str:
    """'<Game>: balance report — level 4, ready_pizzas=3' (the changed settings in the title)."""
    base = f"{s.title or s.game}: {kind}"
    settings = about.settings if about is not None else ""
    return f"{base} — {settings}" if settings else base


def subtitle(s: SummaryResult, extra: str = "") -> str:
    mode = f" · {s.mode}" if s.mode else ""
    np_ = s.players
    return (f"{s.game}{mode} · {_players_words(np_)}{extra} · {fmt_int(s.n_games)} games · "
            f"seed {s.seed}")


def find_anchor(items, words: str) -> str:
    """The anchor of the first chart or table whose title holds `words` ('' when there is none)."""
    return next((x.anchor for x in items if words.lower() in x.title.lower()), "")


def run_anchors(chart_list: list, tables: list) -> dict[str, str]:
    """Where each verdict and alert of a run (or a sweep's first point) is read from (reports.verdicts)."""
    return {"seats": find_anchor(tables, "win rate by seat") or find_anchor(chart_list, "win rate"),
            "win_rate": find_anchor(chart_list, "win rate") or find_anchor(tables, "metrics"),
            "ends": find_anchor(tables, "end reasons"), "length": find_anchor(chart_list, "game length"),
            "dead": find_anchor(tables, "dead cards"),
            "cards": find_anchor(chart_list, "card lift") or find_anchor(tables, "cards ")}


def build_run_report(summary: SummaryResult, manifest: dict, run_dir: Path, spec=None) -> RunReport:
    s = summary
    about = build_about(s, manifest, Path(run_dir), spec)
    chart_list = [c for c in (_win_chart(s, about), _length_chart(s), _end_chart(s)) if c]
    chart_list += _distribution_charts(s)
    from . import card_power

    power = card_power.view(s.card_power)  # what a card does for its holder: the first card figures
    chart_list += [c for c in (_ladder_chart(s),) if c] + (power.charts if power else [])
    chart_list += [c for c in (_card_chart(s, about),) if c]
    tables = [_metrics_table(s)]
    tables += [t for t in (_seat_table(s, about), _ladder_table(s), _variants_table(s)) if t]
    tables.append(_end_table(s))
    tables += (power.tables if power else []) + _card_tables(s, about)
    tables += actions.tables(run_dir, spec)  # how often each seat chose each kind of action (reports.actions)
    notes = ["Intervals are 95%: Wilson for rates, normal for means, bootstrap for medians, Newcombe for "
             "differences of rates. Rates in percent, differences of rates in points (pts). Seats are numbered from 1."]
    return RunReport(
        title=report_title(s, "balance report", about),
        subtitle=subtitle(s),
        summary=summary_sentences(s, about),
        warnings=warnings(s),
        key_figures=key_figures(s, about),
        charts=chart_list,
        tables=tables,
        provenance=provenance(manifest, s, Path(run_dir), about, spec),
        generated=s.generated,
        notes=notes,
        banners=context.card_banner(about.cards, 1, about.game_title),
        about=context.about_sentences(about.seats, bool(s.cooperative), about.ladder),
        block=_with_power(verdicts.run_block(s, run_anchors(chart_list, tables)), s, power),
    )


def _with_power(block: verdicts.Block, s: dict, power) -> verdicts.Block:
    """The run's verdict block with the card-power verdicts after the run's own."""
    if not power:
        return block
    from dataclasses import replace

    from . import card_power

    return replace(block, verdicts=block.verdicts + card_power.verdict_list(s.card_power, power.anchor, keep=3),
                   methods=block.methods + [m for m in verdicts.methods_for("impact") if m.name == "Paired difference"
                                            and m not in block.methods])
