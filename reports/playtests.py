"""The playtests report (`balance playtests`): verdicts in plain words first, then the charts, the
tables of playtest beside simulation, the skill grid, the reaction profile, how it was measured and
where it came from. Built from analysis.playtests.analyse's result alone (playtests.json), as a view
model rendered by templates/playtests.jinja2 (autoescaped, inline CSS and SVG: one file)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from . import charts, fmt
from .verdicts import Alert, Block, Method, Verdict, margin_line

REPORT_FILE = "report.html"


@dataclass(frozen=True)
class Table:
    title: str
    anchor: str
    columns: list[str]
    rows: list[list[str]]
    note: str = ""
    numeric: tuple[int, ...] = ()


@dataclass(frozen=True)
class Chart:
    title: str
    svg: str
    caption: str = ""


@dataclass
class PlaytestsReport:
    title: str
    subtitle: str
    block: Block
    charts: list[Chart] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    provenance: list[tuple[str, str]] = field(default_factory=list)
    generated: str = ""
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- words


def _pct0(v) -> str:
    return "–" if v is None else f"{100 * v:.0f}"


def _rate_words(side: dict, with_n: bool = True) -> str:
    lo, hi = side["ci"]
    n = f" of {fmt.int_(side['n'])} games" if with_n else ""
    return f"{fmt.pct(side['value'])} [{_pct0(lo)}, {_pct0(hi)}]{n}"


def _mean_words(side: dict) -> str:
    lo, hi = side["ci"]
    if side["value"] is None:
        return "–"
    rng = f" [{lo:.3g}, {hi:.3g}]" if lo is not None else ""
    return f"{side['value']:.3g}{rng}"


def _subject(it: dict) -> tuple[str, str, str]:
    """(subject, verb for 'more', noun) for a figure: ('Seat 1', 'wins', 'win rate')."""
    what = it["what"]
    if it["id"].startswith("seat"):
        return what.replace(" win rate", "").capitalize(), "wins", "win rate"
    if it["id"] == "win":
        return "Your group", "wins", "win rate"
    if it["id"] == "nobody":
        return "Nobody winning", "happens", "share"
    if it["id"].startswith("end:"):
        return f"Ending by {it['id'][4:]}", "happens", "share"
    if it["id"] == "turns":
        return "Games", "are", "length"  # "Games are longer in your playtests ..."
    return "Games", "take", "minutes"


def comparison_sentence(it: dict) -> str:
    """'Seat 1 wins more in your playtests than in the simulation: 48% [30, 66] of 25 games vs 25.1%'."""
    subj, verb, _ = _subject(it)
    pt, sm = it["playtest"], it["simulation"]
    d = it.get("diff") or 0.0
    where = f" ({it['group']})" if it.get("group") and it.get("groups", 1) > 1 else ""
    if it["kind"] == "rate":
        more = "more" if d > 0 else "less"
        if verb == "happens":
            more = "more often" if d > 0 else "less often"
        figs = f"{_rate_words(pt)} vs {fmt.pct(sm['value'])}"
    else:
        more = ("longer" if d > 0 else "shorter") if verb == "are" else ("more minutes" if d > 0 else "fewer minutes")
        figs = f"mean {_mean_words(pt)} over {fmt.int_(pt['n'])} games vs {sm['value']:.3g}"
    return f"{subj} {verb} {more} in your playtests than in the simulation{where}: {figs}"


def comparison_verdict(it: dict, anchor: str) -> Verdict:
    mv = it["margin_verdict"]
    mg = it["margin"]
    unit = f" {it['unit']}" if it.get("unit") else ""
    margin = (f"margin ±{fmt.pts(mg, signed=False)}" if it["kind"] == "rate" else f"margin ±{mg:.3g}{unit}")
    detail = (f"difference {fmt.pts(it['diff']) if it['kind'] == 'rate' else format(it['diff'], '+.3g')}, "
              f"{100 * it['ci_level']:.4g}% CI "
              + (fmt.ci_pts(it["diff_ci"]) if it["kind"] == "rate" else f"[{it['diff_ci'][0]:+.3g}, {it['diff_ci'][1]:+.3g}]")
              + f"; p = {it['p']:.2g} ({it['test']}), Holm-corrected {it['p_holm']:.2g} over "
              f"{it.get('family_size', '')} figures")
    if it["significant"]:
        tail = {"beyond_margin": ", by more than your margin",
                "differs_size_unclear": "; too few games to tell whether by more than your margin"}.get(mv["verdict"], "")
        code = "beyond_margin" if mv["verdict"] == "beyond_margin" else "differs_size_unclear"
        return Verdict(comparison_sentence(it) + tail + ".", code, margin, detail, anchor)
    subj, _, noun = _subject(it)
    where = f" ({it['group']})" if it.get("group") and it.get("groups", 1) > 1 else ""
    pt, sm = it["playtest"], it["simulation"]
    figs = (f"{_rate_words(pt)} vs {fmt.pct(sm['value'])}" if it["kind"] == "rate"
            else f"mean {_mean_words(pt)} vs {sm['value']:.3g}")
    if mv["verdict"] == "within_margin":
        return Verdict(f"{subj}'s {noun} in your playtests agrees with the simulation within your margin{where}: {figs}.",
                       "within_margin", margin, detail, anchor)
    return Verdict(f"{subj}'s {noun}: no significant difference{where}, but too few games to say it agrees within "
                   f"your margin: {figs}.", "inconclusive", margin, detail, anchor)


def skill_verdict(sk: dict, anchor: str) -> Verdict:
    lo, hi = sk["interval_words"]
    span = f"[{lo}, {hi}]" if lo != hi else "(no other rung fits)"
    if sk["best_words"].startswith("greedy with epsilon") and lo.startswith("greedy") and hi.startswith("greedy"):
        e = [r["epsilon"] for r in sk["rungs"]]
        i0, i1 = sk["interval_index"]
        span = (f"[{e[i1]:g}, {e[i0]:g}]" if i0 != i1 else "(no other rung fits)")
        sentence = f"Your group plays like greedy with epsilon {sk['rungs'][sk['best_index']]['epsilon']:g} {span}"
    else:
        sentence = f"Your group plays like {sk['best_words']} {span}"
    edge = {"weakest": "; the interval reaches the weakest rung (every move random)",
            "strongest": "; the interval reaches the strongest rung of the grid"}.get(sk.get("at_edge") or "", "")
    gap = "" if sk["contiguous"] else "; some rungs inside the interval's ends fit worse (not one run of rungs)"
    wide = (sk["interval_index"][1] - sk["interval_index"][0]) > len(sk["rungs"]) // 2
    at = f"; the rungs played at {sk['played_at']}" if sk.get("played_at") else ""
    detail = (f"{100 * sk['level']:.0f}% likelihood-ratio interval over the rung grid (every seat at the same rung), "
              f"from the games' {', '.join(sk['uses'])}{at}; n = {fmt.int_(sk['n'])} playtest games")
    return Verdict(sentence + edge + gap + ".", "imprecise" if wide else "measured", "", detail, anchor)


def reaction_verdict(rx: dict, default: float | None, anchor: str) -> Verdict:
    lo, hi = rx["interval"]
    edge = {"low": f" (the interval reaches the grid's fastest, {rx['grid'][0]:g} s)",
            "high": f" (the interval reaches the grid's slowest, {rx['grid'][-1]:g} s)"}.get(rx.get("at_edge") or "", "")
    base = f"; the simulation's default is {default:g} s" if default is not None else ""
    how = ("from minutes and cards played" if rx.get("n_with_turns") else "from minutes alone (a `turns` column "
           "of cards played would pin it much better)")
    wide = hi - lo > 1.0
    return Verdict(f"Your group reacts like reaction_median {rx['best']:.2f} s [{lo:.2f}, {hi:.2f}]{edge}{base}.",
                   "imprecise" if wide else "measured", "",
                   f"{100 * rx['level']:.0f}% likelihood-ratio interval, {how}; n = {fmt.int_(rx['n'])} timed games",
                   anchor)


METHODS = [
    Method("Playtest rates", "Each playtest rate has an exact (Clopper-Pearson) 95% interval, fit for a few games; "
                             "the simulation's rates are read the same way from its many games."),
    Method("Differences", "Each rate is tested with Fisher's exact test, lengths and minutes with Welch's t; "
                          "'significant' means after Holm's correction over every figure of this report at 5%."),
    Method("Margin", "Each difference's interval at the family's Bonferroni level is read against your margin "
                     "(rates in points; lengths and minutes as that share of the simulation's mean): wholly inside "
                     "it is agreement (an equivalence test), wholly outside it a difference that matters."),
    Method("The simulation", "Every seat greedy, as balance simulate plays by default, at each setting of the log "
                             "(players, settings, level, cards), on the seed given."),
    Method("Skill rung", "Each setting is played by every rung of a grid (greedy with 100%, 90%, ... 0% of its moves "
                         "random, then expert) on the same deals; a playtest game's probability under a rung is the "
                         "share of simulated games with its winners, its end reason and its length quartile (the "
                         "columns it gives). The rung of highest likelihood is the fit; the interval holds every rung "
                         "whose likelihood-ratio statistic is under the chi-square 95% point, plus an allowance for "
                         "the simulation's own sampling noise."),
    Method("Reaction profile", "Party game: the setting is simulated at reaction medians from 1 s to 4 s (the other "
                               "figures of the profile held); log minutes and log cards played are modelled as "
                               "bivariate normal at each, and the median of highest likelihood is the fit, with its "
                               "likelihood-ratio interval. The skill rungs are then played at the fitted median, so "
                               "quick or slow players are not read as skill; the comparison keeps the game's own "
                               "profile."),
    Method("Seats", "Seat 1 is the seat that moves first; a log's seat numbers are read in turn order."),
]


# ---------------------------------------------------------------- the page


def _seat_chart(r: dict) -> Chart | None:
    rows = [it for it in r["comparison"]["items"] if it["kind"] == "rate" and (it["id"].startswith("seat")
                                                                             or it["id"] in ("win", "nobody"))]
    if not rows:
        return None
    labels = [f"{it['what']}" + (f" · {it['group']}" if len({x['group'] for x in rows}) > 1 else "") for it in rows]

    def build(fig):
        ax = fig.add_subplot()
        y = list(range(len(rows)))[::-1]
        pv = [it["playtest"]["value"] for it in rows]
        pe = [[max(0.0, v - it["playtest"]["ci"][0]) for v, it in zip(pv, rows)],
              [max(0.0, it["playtest"]["ci"][1] - v) for v, it in zip(pv, rows)]]
        sv = [it["simulation"]["value"] for it in rows]
        ax.errorbar(pv, [yy + 0.12 for yy in y], xerr=pe, fmt="o", color=charts.INK, capsize=4, lw=1.2,
                    label="your playtests (95% exact interval)")
        ax.plot(sv, [yy - 0.12 for yy in y], "D", color=charts.BAR, label="simulation (greedy)")
        ax.set_yticks(y, labels)
        ax.set_xlim(0, 1)
        charts._pct_axis(ax)
        fig.legend(loc="outside lower center", ncols=2, fontsize=7, frameon=False)
        ax.set_title("win rates: playtests and simulation", loc="left")

    return Chart("Win rates", charts._draw(build, height=max(2.0, 0.45 * len(rows) + 1.5)),
                 "Dots: your playtests with their exact 95% intervals; diamonds: the simulation.")


def _skill_chart(sk: dict) -> Chart:
    def build(fig):
        ax = fig.add_subplot()
        x = list(range(len(sk["rungs"])))
        lr = [min(e["lr"], 60.0) for e in sk["rungs"]]
        ax.plot(x, lr, "-o", color=charts.INK, ms=4)
        for j, e in enumerate(sk["rungs"]):
            if e["inside"]:
                ax.plot([j], [lr[j]], "o", color=charts.BAR, ms=8)
        ax.axhline(3.84, color=charts.MUTED, ls="--", lw=1)
        ax.set_xticks(x, [f"eps {e['epsilon']:g}" if e["name"] == "greedy" and e["epsilon"] else e["name"]
                          for e in sk["rungs"]],
                      rotation=45, ha="right", fontsize=7)
        ax.set_ylabel("likelihood ratio (capped at 60)")
        ax.set_title("which rung explains your games (low is better)", loc="left")

    return Chart("Skill rung", charts._draw(build, height=2.8),
                 "Likelihood-ratio statistic of each rung, weakest (every move random) to strongest; filled: inside "
                 "the interval; dashed: the chi-square 95% point.")


def _tables(r: dict, anchors: dict) -> list[Table]:
    c = r["comparison"]
    rows = []
    many = len(r["groups"]) > 1  # the setting column only when the log holds several
    for it in c["items"]:
        pt, sm = it["playtest"], it["simulation"]
        rate = it["kind"] == "rate"
        rows.append(([it["group"]] if many else []) + [it["what"],
                     _rate_words(pt, False) if rate else _mean_words(pt), fmt.int_(pt["n"]),
                     _rate_words(sm, False) if rate else _mean_words(sm), fmt.int_(sm["n"]),
                     (fmt.pts(it["diff"]) + " " + fmt.ci_pts(it["diff_ci"])) if rate
                     else f"{it['diff']:+.3g} [{it['diff_ci'][0]:+.3g}, {it['diff_ci'][1]:+.3g}]",
                     f"{it['p']:.2g}", f"{it['p_holm']:.2g}", "yes" if it["significant"] else "no",
                     it["margin_verdict"]["words"]])
    out = [Table("Playtests beside the simulation", anchors["cmp"],
                 (["setting"] if many else []) + ["figure", "playtests [95% CI]", "n", "simulation [95% CI]", "n",
                  f"difference [{100 * c['ci_level']:.4g}% CI]", "p", "p (Holm)", "significant", "against the margin"],
                 rows, f"Rates: exact (Clopper-Pearson) intervals; lengths: mean with a t interval. Differences are "
                       f"playtests minus simulation, their intervals at the family level (Bonferroni over "
                       f"{c['family_size']}).", numeric=tuple(j + many for j in (1, 2, 3, 4, 5, 6, 7)))]
    if not many:
        out[0] = Table(out[0].title + f" ({r['groups'][0]['label']})", out[0].anchor, out[0].columns, out[0].rows,
                       out[0].note, out[0].numeric)
    sk = r["skill"]
    out.append(Table("Skill grid", anchors["skill"], ["rung", "simulated games", "log-likelihood", "LR statistic",
                                                       "simulation noise (sd)", "inside the interval"],
                     [[e["label"], fmt.int_(e["games"]), f"{e['loglik']:.1f}", f"{e['lr']:.2f}", f"{e['sim_sd']:.2f}",
                       "yes" if e["inside"] else ""] for e in sk["rungs"]],
                     "Every seat plays the rung. The interval: LR statistic at most 3.84 plus 3.29 x the simulation "
                     "noise of the difference from the best rung (more simulated games, -n, make that noise and the "
                     "interval smaller).", numeric=(1, 2, 3, 4)))
    rx = r.get("reaction")
    if rx:
        out.append(Table("Reaction profile", anchors["reaction"], ["reaction_median (s)", "LR statistic"],
                         [[f"{p['reaction_median']:.2f}", f"{p['lr']:.2f}"] for p in rx["profile"]],
                         "Held, not fitted: " + "; ".join(f"{g}: " + ", ".join(f"{k} {v}" for k, v in h.items())
                                                          for g, h in (rx.get("held") or {}).items()),
                         numeric=(0, 1)))
    return out


def build_playtests_report(r: dict, spec=None) -> PlaytestsReport:
    anchors = {"cmp": "table-playtests", "skill": "table-skill", "reaction": "table-reaction"}
    items = r["comparison"]["items"]
    fam = r["comparison"]["family_size"]
    n_groups = len(r["groups"])
    for it in items:
        it.setdefault("family_size", fam)
        it["groups"] = n_groups
    vs: list[Verdict] = []
    sig = [it for it in items if it["significant"]]
    within = [it for it in items if not it["significant"] and it["margin_verdict"]["verdict"] == "within_margin"]
    rest = [it for it in items if it not in sig and it not in within]
    vs += [comparison_verdict(it, anchors["cmp"]) for it in sig]
    vs.append(skill_verdict(r["skill"], anchors["skill"]))
    rx = r.get("reaction")
    if rx:
        default = None
        if spec is not None and spec.param("reaction_median") is not None:
            d = spec.param("reaction_median").default
            default = d[0] if isinstance(d, list) else d
        vs.append(reaction_verdict(rx, default, anchors["reaction"]))
    vs += [comparison_verdict(it, anchors["cmp"]) for it in within]
    if rest:
        names = ", ".join(dict.fromkeys(it["what"] for it in rest))
        vs.append(Verdict(f"No significant difference in {len(rest)} other figure{'s' if len(rest) != 1 else ''} "
                          f"({names}), but too few games to say they agree within your margin.", "inconclusive",
                          f"margin ±{fmt.pts(r['margin'], signed=False)}",
                          f"{fmt.int_(r['games'])} playtest games; each difference's interval is in the table",
                          anchors["cmp"]))
    if not sig:
        vs.insert(0, Verdict(f"Nothing in your playtests differs significantly from the simulation ({fam} figures, "
                             f"Holm-corrected at 5%).", "within_margin" if not rest else "inconclusive", "",
                             f"{fmt.int_(r['games'])} playtest games beside {fmt.int_(r['sim_games'])} simulated per "
                             "setting", anchors["cmp"]))
    alerts = []
    seats = sorted({it["what"].replace(" win rate", "") for it in sig if it["id"].startswith("seat")})
    if seats:
        alerts.append(Alert(f"The seats' win rates differ from the simulation's ({', '.join(seats)}): the skill fit puts "
                            "every seat at one rung, so it reads the table's average strength; a seat that wins more "
                            "than the simulation says may hold a stronger player, or the game may favour it more "
                            "than the bots find.", anchors["cmp"], "seats"))
    if r["games"] < 30:
        alerts.append(Alert(f"Only {r['games']} playtest games: every interval is wide, and most differences smaller "
                            "than 20 points cannot be seen.", anchors["cmp"], "few"))
    cs = [c for c in (_seat_chart(r), _skill_chart(r["skill"])) if c is not None]
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    prov = [("log", r["log"]), ("game", r["game"]), ("playtest games", fmt.int_(r["games"])),
            ("columns", ", ".join(r["columns"])), ("ignored columns", ", ".join(r["ignored_columns"]) or "–"),
            ("simulation", r["simulation"]), ("simulated games per setting and rung", fmt.int_(r["sim_games"])),
            ("seed", str(r["seed"])), ("seats", r["seat_numbering"]),
            ("settings", "; ".join(f"{g['label']}: {g['games']} games" for g in r["groups"])),
            ("engine hash", str(r.get("engine_hash"))), ("command", r.get("command") or "–")]
    title = getattr(spec, "title", None) or r.get("title") or r["game"]
    return PlaytestsReport(
        title=f"{title}: your playtests beside the simulation",
        subtitle=f"{r['game']} · {fmt.int_(r['games'])} playtest games · {len(r['groups'])} setting(s) · seed {r['seed']}",
        block=Block(verdicts=vs, alerts=alerts, methods=METHODS, margin=margin_line(r["margin"])),
        charts=cs, tables=_tables(r, anchors), provenance=prov, generated=now,
        notes=["A playtest log is a handful of games: its intervals are wide, and 'no significant difference' is not "
               "agreement. Agreement is read against the margin."])


def render_playtests_report(folder: str | Path, result: dict, spec=None) -> Path:
    from jinja2 import Environment, PackageLoader, select_autoescape

    if spec is None:
        from balance.simcore import registry

        try:
            spec = registry.get(result["game"])
        except Exception:  # noqa: BLE001  (a report of a game no longer installed: its stored title)
            spec = None
    env = Environment(loader=PackageLoader("balance.reports", "templates"),
                      autoescape=select_autoescape(["html", "jinja2"], default=True), trim_blocks=True,
                      lstrip_blocks=True)
    html = env.get_template("playtests.jinja2").render(r=build_playtests_report(json.loads(json.dumps(result,
                                                                                                        default=str)), spec))
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / REPORT_FILE
    tmp = folder / (REPORT_FILE + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(path)
    return path
