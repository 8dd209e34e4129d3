"""View model of the comparison report: B against A (analysis.compare.compare_runs).

The balance diff, in the order the verdicts are made: the primary metric
(the headline win rate) at alpha with its 95% interval, then the family of
secondary metrics, each interval at 1 - alpha/m (Bonferroni) with its verdict
read from the interval shown; every verdict also against the margin of
practical significance ("balanced within the margin", "differs by more than
the margin", ...). Forest plots around zero (rates in percentage points;
other metrics relative to A, since their units differ) and a table.

The primary metric's headline comes first, in the key figures, the summary and
every table; every number is in the one format of reports/fmt.py (rates 43.3%,
differences +2.3 pts, intervals [+1.0, +3.6] pts, p = 0.034). When the two
sides play different card lists (the manifests' card_list records), the report
shows the card-by-card diff of the two lists (reports/card_diff.py):
`card_diff_of(result)` computes it from the two run folders when the comparison
is made (cli.compare, before comparison.json is written), and it is kept in
comparison.json (`card_diff`, in every file of schema 1), so a report is built
from comparison.json alone: no card file is read while rendering.

Every function here reads the typed result (analysis.compare_result.ComparisonResult).
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from markupsafe import Markup

from balance.analysis.compare_result import ComparisonResult, MetricRow, Side

from . import charts, context, fmt, verdicts
from .views import Chart, KeyFigure, Paragraph, RunReport, Table, fmt_int, fmt_p


def is_rate(m: MetricRow) -> bool:
    """Rates (shares of games) compare in percentage points: as analysis.compare decided (`rate`)."""
    return m.rate


def _side(d: Side) -> str:
    run = Path(d.run).name
    return f"{run}" + (f" [{d.variant}]" if d.variant and d.variant not in ("base",) else "")


def _policy_names(d: Side) -> str:
    return ", ".join(str(p.get("name", "?")) for p in d.policies) or "–"  # the manifest's records, as it has them


def _js(v) -> str:
    if isinstance(v, list) and all(isinstance(x, (int, float)) for x in v) and v:
        return "-".join(str(x) for x in v)
    return json.dumps(v) if isinstance(v, (dict, list)) else str(v)


def _card_file(result: ComparisonResult, side: str, value) -> str:
    """A side's card list as the designer knows it: its file (and what it is), from the manifest's record."""
    block = getattr(result.card_diff, side) if result.card_diff is not None else None
    name = (block.file if block is not None else None) or (_js(value) if value not in (None, "") else "")
    if not name:
        return "the game's own list"
    if block is not None and block.reconstruction:
        return f"{name} (the shipped reconstruction)"
    return name


def changes_words(result: ComparisonResult) -> str:
    ch = result.changed
    if not ch:
        return "B changes nothing in the rules or policies (same configuration: differences are noise)"
    parts = []
    for k, (a, b) in ch.items():
        if k == "policies":
            parts.append(f"the policies from {', '.join(map(str, a))} to {', '.join(map(str, b))}")
        elif k == "cards":
            parts.append(f"the card list from {_card_file(result, 'a', a)} to {_card_file(result, 'b', b)}")
        else:
            parts.append(f"{k} from {fmt.value(a) if a is not None else '(unset)'} to "
                         f"{fmt.value(b) if b is not None else '(unset)'}")
    return "B changes " + "; ".join(parts)


def _level(m: MetricRow) -> str:
    lv = m.ci_level
    return f"{100 * lv:.3g}%" if lv >= 0.999 else f"{100 * lv:.4g}%"


def _value(m: MetricRow, key: str) -> str:
    v = getattr(m, key)
    return fmt.pct(v) if is_rate(m) else fmt.num(v)


def _signed(v) -> str:
    """A difference of a metric in its own unit, signed: +1.50 (fmt.num's digits)."""
    s = fmt.num(v)
    return s if s == fmt.MISSING or s.startswith("-") else "+" + s


def _diff(m: MetricRow) -> str:
    return fmt.pts(m.diff) if is_rate(m) else _signed(m.diff)


def _diff_ci(m: MetricRow) -> str:
    ci = m.ci
    if is_rate(m):
        return fmt.ci_pts(ci)
    if ci[0] is None or ci[1] is None:
        return fmt.MISSING
    return f"[{_signed(ci[0])},{fmt.NBSP}{_signed(ci[1])}]"


def _margin(m: MetricRow) -> str:
    return f"±{fmt.pts(m.margin, signed=False)}" if is_rate(m) else f"±{fmt.num(m.margin)}"


def headline(r: ComparisonResult) -> MetricRow | None:
    """The primary metric (the win rate): what the comparison leads with."""
    return r.headline


def headline_first(r: ComparisonResult) -> list[MetricRow]:
    """The metrics with the headline first, the others in the order analysis.compare gave."""
    return r.headline_first()


def _n(m: MetricRow) -> str:
    if (m.method or "").startswith("paired"):
        return f"{fmt_int(m.n_a)} pairs"
    return f"{fmt_int(m.n_a)} / {fmt_int(m.n_b)}"


def _margin_words(m: MetricRow) -> str:
    v = m.margin_verdict
    words = v.words
    if v.games_to_decide:
        words += f" (about {fmt_int(v.games_to_decide)} games per side would settle it)"
    return words


def pairing_effect(r: ComparisonResult) -> str | None:
    """What the pairing did here, measured (analysis.compare.pairing_sentence of the paired against the
    unpaired interval's width, stored as the pairing's `words`), with the correlation behind it; None when
    nothing was measured."""
    p = r.pairing
    if p is None or not p.words:
        return None
    words = p.words
    if p.correlation is not None and not p.identical:
        words += f", the {r.primary} of A and B correlating {p.correlation:.2f} game by game"
    return words


def pairing_words(r: ComparisonResult) -> str:
    if not r.paired:
        return "unpaired: independent samples (the runs do not share their seed and player count)"
    words = r.pairing_words or "paired"
    effect = pairing_effect(r)
    return f"{words}; {effect}" if effect else words


def summary_sentences(r: ComparisonResult) -> list[str]:
    ms = headline_first(r)
    head = headline(r)
    secondary = [m for m in ms if m is not head]
    sig = [m for m in secondary if m.significant]
    out = []
    if head:  # the headline first
        verdict = "a significant difference" if head.significant else "not a significant difference"
        out.append(f"Primary metric, the {head.metric}: A {_value(head, 'a')}, B {_value(head, 'b')}, B − A "
                   f"{_diff(head)} (95% CI {_diff_ci(head)}, {fmt_p(head.p)}, n = {_n(head)})"
                   f": {verdict}; against the margin of {_margin(head)}: {_margin_words(head)}.")
    out.append(changes_words(r) + ".")
    cd = r.card_diff
    if cd is not None and cd.words and not cd.same:
        out.append(cd.words)
    out.append(f"The comparison is {pairing_words(r)}; n = {fmt_int(r.n_a)} games for A and "
               f"{fmt_int(r.n_b)} for B.")
    if secondary:
        lvl = _level(secondary[0])
        out.append(f"{len(sig)} of the {len(secondary)} other metrics differ (each interval at {lvl}, so that all "
                   f"{len(secondary)} hold together with 95% confidence).")
    if sig:
        bits = [f"{m.metric} {_value(m, 'a')} → {_value(m, 'b')} ({_diff(m)}, {_level(m)} CI {_diff_ci(m)}; "
                f"{m.margin_verdict.words})" for m in sorted(sig, key=lambda m: m.p)[:6]]
        more = f", and {len(sig) - 6} more (see the table)" if len(sig) > 6 else ""
        out.append("They are: " + "; ".join(bits) + more + ".")
    elif ms and not sig and not (head and head.significant):
        out.append("No metric moves beyond what chance explains at this sample size; the margin verdicts say which "
                   "are shown to be balanced and which need more games.")
    dropped = r.dropped
    if dropped:
        out.append("Left out of the family (nothing to test): " + "; ".join(f"{d.metric} ({d.reason})"
                                                                          for d in dropped[:8])
                   + (f", and {len(dropped) - 8} more" if len(dropped) > 8 else "") + ".")
    return out


def verdict_sentences(r: ComparisonResult) -> list[str]:
    """The verdict box: each metric against the margin, grouped."""
    groups: dict[str, list[str]] = {}
    for m in r.metrics:
        groups.setdefault(m.margin_verdict.verdict, []).append(m.metric)
    margin = r.margin
    out = [f"Margin of practical significance: {margin * 100:g} points for rates, {margin * 100:g}% of A's "
           f"value for other metrics (--margin {margin:g})."]
    names = {"beyond_margin": "Differ by more than the margin", "differs_size_unclear":
             "Differ, but not enough games to say whether by more than the margin", "within_margin":
             "Balanced within the margin (the whole interval inside it: an equivalence test)",
             "inconclusive": "Not enough games to say",
             "no_information": "Not enough information to say (no game set A against B; more games of the same kind "
                               "would not help)"}
    for code in ("beyond_margin", "differs_size_unclear", "within_margin", "inconclusive", "no_information"):
        if groups.get(code):
            out.append(f"{names[code]}: {', '.join(groups[code])}.")
    for m in r.metrics:
        reason = m.margin_verdict.reason
        if reason:
            out.append(f"{m.metric}: {reason[:1].upper() + reason[1:]}.")
    return out


def diff_charts(r: ComparisonResult) -> list[Chart]:
    ms = [m for m in headline_first(r) if m.diff is not None]
    out = []
    rates = [m for m in ms if is_rate(m)]
    if rates:
        svg = charts.diff_forest([m.metric for m in rates], [m.diff for m in rates],
                                 [m.ci[0] for m in rates], [m.ci[1] for m in rates],
                                 [f"n = {_n(m)}" for m in rates], [m.significant for m in rates],
                                 "Balance diff: rates, B − A", "B − A in percentage points (interval at its level)")
        out.append(Chart("Balance diff: rates", Markup(svg),
                         "Each rate's difference B − A with its interval: 95% for the primary metric (the win rate), "
                         f"{_level(rates[-1]) if len(rates) > 1 else '95%'} for the others (Bonferroni over the "
                         "family). Filled and coloured: the interval excludes 0, so the verdict is 'differs' (green: "
                         "B higher, red: B lower); hollow grey: it does not. n = games (pairs when paired)."))
    rel = [m for m in ms if not is_rate(m) and m.a]
    if rel:
        scale = [abs(m.a) for m in rel]
        svg = charts.diff_forest([m.metric for m in rel], [m.diff / s for m, s in zip(rel, scale)],
                                 [m.ci[0] / s if m.ci[0] is not None else None for m, s in zip(rel, scale)],
                                 [m.ci[1] / s if m.ci[1] is not None else None for m, s in zip(rel, scale)],
                                 [f"n = {_n(m)}" for m in rel], [m.significant for m in rel],
                                 "Balance diff: other metrics, B − A relative to A",
                                 "B − A as % of A's value (interval at its level)", unit="%")
        out.append(Chart("Balance diff: other metrics", Markup(svg),
                         "Lengths and the game's own means have different units, so each difference is shown as a share "
                         "of A's value (the table gives it in the metric's own unit); intervals and colours as above."))
    return out


def verdict_table(r: ComparisonResult) -> Table:
    rows = []
    for m in headline_first(r):
        v = m.margin_verdict
        rows.append([m.metric, m.role, _diff(m), f"{_diff_ci(m)} ({_level(m)})", _margin(m),
                     _margin_words(m), fmt_int(v.games_to_decide) if v.games_to_decide else "–", _n(m)])
    return Table("Verdicts against the margin",
                 ["metric", "role", "B − A", "interval (level)", "margin", "verdict", "games to decide", "n"], rows,
                 "Balanced within the margin: the whole interval lies inside ± the margin (an equivalence test, TOST at "
                 "α/2 per side). Differs by more than the margin: the whole interval lies beyond it. Games to decide: "
                 "about how many games per side would narrow the interval enough to settle it, if the estimate stayed "
                 "where it is.", numeric_from=2)


def diff_table(r: ComparisonResult) -> Table:
    rows = []
    for m in headline_first(r):
        rows.append([m.metric, m.role, _value(m, "a"), _value(m, "b"), _diff(m), _diff_ci(m), _level(m),
                     fmt_p(m.p), fmt_p(m.p_adjusted), m.verdict, m.method or "–",
                     _n(m) + (f" ({fmt_int(m.missing)} missing)" if m.missing else "")])
    k = r.family_size
    note = (f"Rates in percent, their differences in percentage points; other metrics in their own units. The primary "
            f"metric at α = {r.alpha} with a 95% interval; the {k} other metrics each at α/{k} "
            f"(Bonferroni), their intervals at the same level, so 'differs' is exactly 'the interval excludes 0'. "
            f"p: the metric's own two-sided p (the exact McNemar test for paired rates); adjusted: times {k} for the "
            f"family. n: pairs of games when paired, else games of A / games of B; missing values (a round not "
            f"reached) left out.")
    return Table("Balance diff", ["metric", "role", "A", "B", "B − A", "CI", "level", "p", "p adjusted", "verdict",
                                  "method", "n"], rows, note, numeric_from=2)


def sides_table(r: ComparisonResult) -> Table:
    rows = []
    for label, d, n in (("A", r.a, r.n_a), ("B", r.b, r.n_b)):
        changed = {k: v for k, v in d.params.items() if k in r.changed}
        rows.append([label, _side(d), _policy_names(d), ", ".join(f"{k}={_js(v)}" for k, v in changed.items()) or "–",
                     str(d.seed), str(d.players), fmt_int(n)])
    return Table("The two sides", ["side", "run", "policy", "parameters", "seed", "players", "n"], rows,
                 "parameters: only those that differ between A and B; provenance lists them all.", numeric_from=4)


def provenance(r: ComparisonResult) -> list[tuple[str, str]]:
    rows = [("game", f"{r.game} ({r.title})")]
    for label, d in (("a", r.a), ("b", r.b)):
        rows += [(f"{label.upper()}: run", d.run), (f"{label.upper()}: variant", d.variant),
                 (f"{label.upper()}: seed", str(d.seed)),
                 (f"{label.upper()}: policies", json.dumps(d.policies, sort_keys=True)),
                 (f"{label.upper()}: parameters", json.dumps(d.params, sort_keys=True))]
    rows += [("paired", pairing_words(r) if r.paired else "no"),
             ("correction", r.family),
             ("margin", f"{r.margin:g}"),
             ("command", r.command or "–")]
    return rows


def build_compare_report(r: ComparisonResult) -> RunReport:
    """The comparison report, from comparison.json alone (its card diff was made with the comparison)."""
    ms = headline_first(r)
    head = headline(r)
    sig = [m for m in ms if m.significant and m is not head]
    how = f"paired on the {r.pairing_basis or 'same deals'}" if r.paired else "independent"
    figs = []
    if head:  # the headline first
        figs.append(KeyFigure(f"{head.metric}, B − A", _diff(head),
                              f"A {_value(head, 'a')} → B {_value(head, 'b')}; 95% CI {_diff_ci(head)}, "
                              f"{fmt_p(head.p)}, n = {_n(head)}"))
        figs.append(KeyFigure("against the margin", head.margin_verdict.words, f"margin {_margin(head)}"))
    figs.append(KeyFigure("games", f"{fmt_int(r.n_a)} / {fmt_int(r.n_b)}", f"A / B, {how}"))
    figs.append(KeyFigure("other metrics that differ", f"{len(sig)} of {len(ms) - (1 if head else 0)}",
                          f"{r.correction}, intervals at {_level(ms[-1]) if len(ms) > 1 else '–'}"))
    p = r.pairing
    if p is not None and p.width_ratio is not None:
        corr = f"correlation {fmt.num(p.correlation)} game by game; " if p.correlation is not None else ""
        figs.append(KeyFigure("paired interval", f"{fmt.num(p.width_ratio)}× the unpaired width",
                              f"{corr}n = {fmt_int(p.n_pairs)} pairs"))
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    warnings = [] if r.paired else ["The two runs do not share their seed (or player count): the comparison "
                                    "is unpaired, so the intervals are wider than a paired run would give."]
    cd = r.card_diff
    if cd is not None and not cd.same and not cd.rows:
        warnings.append(cd.words or "The two sides play different card lists; the card-by-card diff could not "
                                    "be made here.")
    if r.paired and r.pairing_basis == "same seeds":
        effect = pairing_effect(r)
        warnings.append("The card lists differ, so game i is not the same deal on both sides: the pairing shares only "
                        "the random streams (same seeds), not the deal itself; "
                        + (effect if effect else "what it removed of the luck was not measured") + ".")
    tables = [verdict_table(r), diff_table(r), *card_tables(r), sides_table(r)]
    chart_list = diff_charts(r)
    return RunReport(
        title=f"{r.title or r.game}: comparison, B against A",
        subtitle=f"{r.game} · A: {_side(r.a)} · B: {_side(r.b)} · {how}",
        summary=summary_sentences(r),
        warnings=warnings,
        key_figures=figs,
        charts=chart_list,
        tables=tables,
        provenance=provenance(r),
        generated=now,
        notes=["Differences are B − A. Paired: win/loss and end reasons by the exact McNemar test with a Newcombe "
               "interval widened where needed to agree with it; means by a paired t interval. Unpaired: Newcombe "
               "intervals for rates, Welch for means. The primary metric's interval is 95%; the others' at 1 − α/m."],
        paragraphs=[Paragraph("Verdicts by group", verdict_sentences(r))],
        footer=f"Comparison rendered {now} · made by balance from comparison.json.",
        banners=context.card_banner(compare_card_notes(r), 2, r.title, "This comparison", "side"),
        block=verdicts.compare_block(r, {"verdicts": tables[0].anchor}),
    )


# ---------------------------------------------------------------- the two card lists


def _variant_block(run: Path, variant: str | None) -> tuple[dict | None, dict]:
    """A side's card_list record and parameters, from its run folder's manifest; a designer's list of a
    reconstructed game carries `edited` ([names shared, names]) when it is an edited copy of the
    reconstruction (context.edited_from, read from the run folder's own copy of the list)."""
    manifest = json.loads((Path(run) / "manifest.json").read_text(encoding="utf-8"))
    cfg = manifest.get("config") or {}
    vs = cfg.get("variants") or []
    v = next((x for x in vs if x.get("name") == variant), vs[0] if len(vs) == 1 else {})
    params = v.get("params") if v.get("params") is not None else (cfg.get("params") or {})
    block = v.get("card_list") or (cfg.get("card_list") if len(vs) <= 1 else None)
    if not isinstance(block, dict):
        return None, params
    if not block.get("reconstruction") and not block.get("shipped"):
        edited = context.edited_from(str(cfg.get("game")), context.run_copy(manifest, Path(run), block.get("sha256")))
        block = {**block, "edited": list(edited) if edited else None}
    return block, params


def compare_card_notes(r: ComparisonResult) -> list:
    """The two sides' card lists as context.CardListNote (for the reconstruction banner), from comparison.json's
    card_diff records alone: a rebuild on another machine needs neither run folder."""
    cd = r.card_diff
    notes: dict[tuple, list] = {}
    for side in ("a", "b"):
        b = getattr(cd, side) if cd is not None else None
        if b is None or not b.file:
            continue
        key = (b.file, b.sha256)
        edited = tuple(b.edited) if b.edited is not None and len(b.edited) == 2 else None
        note = context.CardListNote((side.upper(),), b.file, b.sha256, bool(b.shipped), bool(b.reconstruction),
                                    None, None, edited)
        if key in notes:
            notes[key][1].append(side.upper())
        else:
            notes[key] = [note, [side.upper()]]
    return [context.CardListNote(tuple(names), n.file, n.sha256, n.shipped, n.reconstruction, None, None, n.edited)
            for n, names in notes.values()]


def card_diff_of(result: dict) -> dict | None:
    """Which cards differ between the two sides' card lists (for comparison.json `card_diff`).

    From the manifests' card_list records: None when the game has no card list;
    `same` when both record the same content; else the card-by-card diff of the two
    files (reports.card_diff), read through the game's loader, when each file here
    still has the content the run recorded; otherwise only the two records, said so.
    Never raises: a comparison is not refused over its card diff."""
    try:
        blocks = {k: _variant_block(Path(str(result[k]["run"])), result[k].get("variant")) for k in ("a", "b")}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    (ba, pa), (bb, pb) = blocks["a"], blocks["b"]
    if ba is None and bb is None:
        return None
    rec = {"a": ba or {}, "b": bb or {}}
    if ba and bb and ba.get("sha256") and ba.get("sha256") == bb.get("sha256"):
        return {**rec, "same": True, "rows": [],
                "words": f"Both sides play the same card list ({ba.get('file')}, hash {str(ba['sha256'])[:16]})."}
    try:
        from balance.simcore import registry

        from .card_diff import diff_card_lists

        spec = registry.get(str(result.get("game")))
        da, db = spec.load_data(dict(pa)), spec.load_data(dict(pb))
        for data, block in ((da, ba), (db, bb)):
            if block and data.cards is not None and block.get("sha256") and data.cards.sha256 != block["sha256"]:
                raise ValueError(f"{block.get('file')} has changed since the run")
        diff = diff_card_lists(da, db)
    except Exception as exc:  # noqa: BLE001  a file gone or changed: the records still say which lists
        why = str(exc) if isinstance(exc, ValueError) else "their files are not readable here"
        return {**rec, "same": False, "rows": [],
                "words": f"The two sides play different card lists (A: {rec['a'].get('file', '–')}, hash "
                         f"{str(rec['a'].get('sha256', '–'))[:16]}; B: {rec['b'].get('file', '–')}, hash "
                         f"{str(rec['b'].get('sha256', '–'))[:16]}); the card-by-card diff is not shown: {why}."}
    return {**rec, "same": diff.same, "rows": diff.rows(), "words": diff.words(), "diff": diff.to_dict()}


def card_tables(r: ComparisonResult) -> list[Table]:
    """The card-by-card diff of the two lists (none when the lists are the same or unknown)."""
    cd = r.card_diff
    if cd is None or not cd.rows:
        return []
    from .card_diff import rows_table

    return [rows_table(cd.rows, cd.words)]
