"""View model of the skill-ladder report (analysis.ladder): who wins how much
on the same deals as the player gets stronger, per level when there are
several, with intervals; the "how much skill matters" figure; for a
competitive game, each rung's seat against its fair share.

Laid out by the shared page template (templates/run.html.jinja2), as every
report is; everything here is read from summary.json's ladder result alone."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from markupsafe import Markup

from . import charts, context, fmt, verdicts
from .views import Chart, KeyFigure, RunReport, Table, fmt_int


def _lv(lad: dict) -> str:
    return f"level {lad['level']}" if lad.get("level") is not None else ""


def _d(d: dict | None) -> str:
    return fmt.diff(d["diff"], d["ci"]) + f", n = {fmt_int(d.get('n'))}" if d and d.get("diff") is not None else "–"


def _cell(d: dict | None) -> str:
    if not d or d.get("diff") is None:
        return "–"
    return f"{fmt.pts(d['diff'])} {fmt.ci_pts(d['ci'])}"


def _real(lad: dict) -> list[dict]:
    return [e for e in lad["policies"] if not e.get("bound") and e.get("value") is not None]


def headroom_words(d: dict) -> str:
    """What stronger play than greedy does to greedy's figures, read from the paired interval."""
    lo, hi = d["ci"]
    if lo is None:
        return "not measured with an interval."
    if lo > 0 and d["diff"] >= context.MOVES_A_LOT:
        return "a figure measured with greedy would move a lot with stronger play."
    if lo > 0:
        return "stronger play moves greedy's figures a little."
    if hi < context.MOVES_A_LOT and lo > -context.MOVES_A_LOT:
        return (f"no significant gain, and less than {fmt.pts(context.MOVES_A_LOT, signed=False)} either way: greedy's "
                f"figures are close to what this stronger play gets.")
    return "not enough deals to say how much stronger play would move greedy's figures."


def sentences(r: dict) -> list[str]:
    comp = r["competitive"]
    how = (f"one seat of each policy among {r['players'] - 1} greedy seat{'s' if r['players'] > 2 else ''}, the "
           f"policy's seat moved round the table on every deal (so seat advantage cancels out)" if comp
           else "every seat playing the policy" if r["players"] > 1 else "the player playing each policy in turn")
    share = r.get("search_share") or {}
    out = [f"The same deals (seed {r['seed']}) played by players of rising skill, {how}. "
           + (f"The search policies play the first part of the deals the others play ("
              + ", ".join(f"{k} {fmt.pct(v)}" for k, v in share.items())
              + "), so every comparison is on common deals (its n says how many)." if share else "")]
    for lad in r["ladders"]:
        lv = _lv(lad)
        head = f"At {lv}: " if lv else ""
        bits = "; ".join(f"{e['label']} {fmt.pct(e['value'])} {fmt.ci_pct(e['ci'])}" + (" (upper bound)" if e.get("bound") else "")
                         for e in lad["policies"] if e.get("value") is not None)
        metric = lad["metric"] if head else lad["metric"][:1].upper() + lad["metric"][1:]  # a sentence of its own
        out.append(f"{head}{metric}: {bits}.")
        sk = lad.get("skill")
        if sk:
            big = sk["ci"][0] is not None and (sk["ci"][0] > 0 or sk["ci"][1] < 0)
            out.append(f"How much skill matters{' at ' + lv if lv else ''}: {sk['figure']} is {_d(sk)}, on the same deals"
                       + ("" if big else " (not significantly different from zero)") + "."
                       + (f" Above greedy, {sk['over_greedy']['figure']} is {_d(sk['over_greedy'])}: "
                          + headroom_words(sk["over_greedy"]) if sk.get("over_greedy") else ""))
        if sk and sk.get("expert_vs_greedy") and sk["expert_vs_greedy"]["ci"][1] is not None \
                and sk["expert_vs_greedy"]["ci"][1] < 0:
            out.append(f"Expert does worse than greedy here ({_d(sk['expert_vs_greedy'])}): its search does not "
                       f"find stronger play in this game and setting, so it is not the top of the ladder.")
        if comp:
            above = [e["label"] for e in _real(lad) if (e.get("vs_fair") or {}).get("significant") and e["vs_fair"]["diff"] > 0]
            below = [e["label"] for e in _real(lad) if (e.get("vs_fair") or {}).get("significant") and e["vs_fair"]["diff"] < 0]
            out.append(f"Significantly more than the fair share: {', '.join(above) or 'none'}; significantly less: "
                       f"{', '.join(below) or 'none'} (95% intervals of the paired difference to the fair share in the "
                       f"same games).")
        bound = next((e for e in lad["policies"] if e.get("bound")), None)
        top = next((e for e in _real(lad) if e["name"] == "expert"), None)
        if bound is not None and top is not None and top["label"] in bound.get("vs", {}):
            out.append(f"The oracle sees every hidden card, so it is an upper bound no real player reaches: it gets "
                       f"{_d(bound['vs'][top['label']])} more than expert.")
    if r.get("left_out"):
        out.append("Left out: " + "; ".join(r["left_out"]) + ".")
    if not r.get("complete", True):
        out.append("This ladder is incomplete (a run was stopped): some rungs have fewer games than asked. Run the "
                   "same command again to finish it.")
    return out


def _charts(r: dict) -> list[Chart]:
    out = []
    comp = r["competitive"]
    for lad in r["ladders"]:
        lv = _lv(lad)
        es = [e for e in lad["policies"] if e.get("value") is not None]
        if not es:
            continue
        labels = [e["label"] + (" (bound)" if e.get("bound") else "") for e in es]
        fair = None
        if comp:
            fairs = [e.get("fair_share") for e in es if e.get("fair_share") is not None]
            fair = sum(fairs) / len(fairs) if fairs else None
        svg = charts.interval_bars(labels, [e["value"] for e in es], [e["ci"][0] for e in es],
                                   [e["ci"][1] for e in es], [e["n"] for e in es],
                                   f"Skill ladder{' at ' + lv if lv else ''}", reference=fair,
                                   xlabel="win rate of the policy's seat" if comp else "win rate")
        out.append(Chart(f"Skill ladder{' — ' + lv if lv else ''}", Markup(svg),
                         f"{lad['metric']}, weakest first, 95% intervals ({es[0].get('interval', '')}); n = "
                         + ("deals (each played once per seat of the policy)" if comp else "games")
                         + (f"; dashed line: the fair share ({fmt.pct(fair)})" if fair is not None else "") + "."))
        if comp:
            rows = [e for e in es if e.get("vs_fair") and e["vs_fair"].get("diff") is not None]
            if rows:
                svg = charts.fair_share_forest([e["label"] for e in rows], [e["vs_fair"]["diff"] for e in rows],
                                               [e["vs_fair"]["ci"][0] for e in rows], [e["vs_fair"]["ci"][1] for e in rows],
                                               [e["vs_fair"]["n"] for e in rows], fair or 0.0,
                                               "One seat of the policy among greedy seats, against its fair share")
                out.append(Chart("Against the fair share", Markup(svg),
                                 "The policy's seat win rate minus its fair share in the same games (mean winners per "
                                 "game / players), paired by deal, 95% t interval; n = deals."))
    if len(r["ladders"]) > 1:
        levels = [str(lad["level"]) for lad in r["ladders"]]
        labels = list(dict.fromkeys(e["label"] for lad in r["ladders"] for e in lad["policies"]))
        series = []
        for lab in labels:
            pts = [next((e for e in lad["policies"] if e["label"] == lab), None) for lad in r["ladders"]]
            series.append({"label": lab, "y": [p["value"] if p else None for p in pts],
                           "lo": [p["ci"][0] if p else None for p in pts], "hi": [p["ci"][1] if p else None for p in pts],
                           "n": [p["n"] if p else 0 for p in pts]})
        svg = charts.curves(levels, series, "Win rate by level, per policy", "level", "win rate",
                            numeric_x=[float(x) for x in levels], pct=True, legend_title="policy")
        out.append(Chart("Levels by policy", Markup(svg),
                         "Win rate per level for each policy on the same deals, 95% Wilson bands; the oracle is an "
                         "upper bound, not a player.", wide=True))
    return out


def _tables(r: dict) -> list[Table]:
    comp = r["competitive"]
    out = []
    for lad in r["ladders"]:
        lv = _lv(lad)
        cols = ["policy", "win rate", "95% CI", "n"]
        if comp:
            cols += ["fair share", "minus fair share [95% CI]", "verdict"]
        cols += ["minus the rung below [95% CI]", "minus greedy [95% CI]", "pairs"]
        rows, prev = [], None
        for e in lad["policies"]:
            row = [e["label"] + (" (upper bound)" if e.get("bound") else ""), fmt.pct(e.get("value")),
                   fmt.ci_pct(e.get("ci")), fmt_int(e.get("n"))]
            if comp:
                vf = e.get("vs_fair") or {}
                row += [fmt.pct(e.get("fair_share")), _cell(vf), ((vf.get("verdict") or {}).get("words") or "–")]
            below = e["vs"].get(prev) if prev else None
            vs_g = e["vs"].get("greedy") if e["label"] != "greedy" else None
            row += [_cell(below), _cell(vs_g), fmt_int((below or vs_g or {}).get("n"))]
            rows.append(row)
            prev = e["label"]
        note = ("Differences are paired on the same deals: " + ("exact McNemar with Newcombe's interval (win/loss per game)."
                if not comp else "the mean over deals of the per-deal difference, t interval (a deal's value is the "
                "policy seat's mean result over the seats it sat at). Greedy among greedy seats is the fair share "
                "by construction (every seat is the greedy seat): its interval is that of the fair share."))
        out.append(Table(f"Skill ladder{' — ' + lv if lv else ''}", cols, rows, note))
    return out


def build_ladder_report(r: dict, spec=None, command: str | None = None, manifest: dict | None = None,
                        run_dir=None) -> RunReport:
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    first = r["ladders"][0] if r["ladders"] else {}
    params = first.get("params") or {}
    changes = [c for c in context.rule_changes(params, spec) if c.name != "level" or len(r["ladders"]) == 1]
    settings = context.settings_words(changes, [])
    figs = []
    for lad in r["ladders"]:
        sk = lad.get("skill")
        lv = _lv(lad)
        if sk:
            figs.append(KeyFigure(f"skill matters{' (' + lv + ')' if lv else ''}", fmt.pts(sk["diff"]),
                                  f"{sk['figure']}, 95% CI {fmt.ci_pts(sk['ci'])}, n = {fmt_int(sk.get('n'))} deals"))
        for name in ("greedy", "expert"):
            e = next((x for x in lad["policies"] if x["label"] == name), None)
            if e is not None:
                figs.append(KeyFigure(f"{name}{' (' + lv + ')' if lv else ''}", fmt.pct(e["value"]),
                                      f"95% CI {fmt.ci_pct(e['ci'])}, n = {fmt_int(e['n'])}"))
    notes = ["Intervals are 95%: Wilson for win rates of games, normal for means over deals; differences are paired "
             "on the same deals. The oracle is an upper bound (it sees the hidden cards), never a player."]
    prov = [("game", str(r.get("game"))), ("players", str(r.get("players"))), ("seed", str(r.get("seed"))),
            ("deals per cheap rung (requested)", fmt_int(r.get("n_requested"))),
            ("search rungs' share of the deals", ", ".join(f"{k} {fmt.pct(v)}" for k, v in
                                                           (r.get("search_share") or {}).items()) or "all"),
            ("levels", ", ".join(map(str, r.get("levels") or [])) or "–"),
            ("rule parameters", json.dumps(params, sort_keys=True, default=str)),
            ("policies", json.dumps(r.get("policies"), sort_keys=True)),
            ("engine hash", str(r.get("engine_hash"))), ("command", command or r.get("command") or "–")]
    title = getattr(spec, "title", None) or r.get("title") or r.get("game")
    tables = _tables(r)
    cards = context.card_lists(manifest, spec, run_dir) if manifest else []
    return RunReport(
        title=f"{title}: skill ladder" + (f" — {settings}" if settings else ""),
        subtitle=f"{r.get('game')} · {r.get('players')} player(s) · seed {r.get('seed')}"
                 + (f" · levels {', '.join(map(str, r['levels']))}" if r.get("levels") else ""),
        summary=sentences(r),
        warnings=[] if r.get("complete", True) else ["Incomplete: some rungs have fewer games than asked."],
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
