"""`balance impact`: what changes the game, measured by changing it.

Each card kind named is played with one copy removed, all copies removed and
one copy added; each rule parameter named one step down and one step up its
declared range (a switch flipped). Every variant is a variant of ONE run
folder (analysis.runs, like a sweep), so the variants play the same game
indices of the same seed: resumable, Dask-ready, and paired with the
baseline game by game.

- A card variant's list is written as TOML into the run folder
  (`cards/<card>-<change>-<sha>.toml`, data only, never executed) and named
  by the variant's `cards` parameter; the manifest records its file and
  sha256. Its games are paired with the baseline's on the SAME SEEDS (the
  same random streams), not the same deals: the deck differs. A rule variant
  on the same card list is paired on the same deals.
- Where a card's count can be changed is declared by the game
  (`simcore.gamedata.CardSection`: the count field and its limits); what the
  rules allow beyond one field (a deck's size, exactly one Boss) is the
  game's loader's, so every edited list is loaded before it is played and a
  variant it refuses is skipped with its reason.
- The statistics are analysis.compare's: the same per-game metrics
  (`_per_game`), the same deduplication (`dedupe`), and
  `analysis.stats.difference_family`: the primary metric (the headline win
  rate) over every variant is one family, each interval at 1 - alpha/m
  (Bonferroni) with the verdict read from the interval shown and the
  Holm-adjusted p beside it; the secondary metrics of every variant are a
  second family, adjusted the same way. Each gets the margin verdict of
  analysis.stats.margin_verdict. Ranked by the effect on the primary metric.
- Beside each card's effects: its observational lift in the baseline (win
  rate of the seat-games where it was played minus where it was not,
  analysis.cards), which is an association only.

`impact.json` holds the result, as its schema's model (analysis.impact_result.ImpactResult,
written by `write_impact`); the report is reports.impact.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from balance.simcore.errors import BalanceError
from balance.simcore.files import read_toml, shown
from balance.simcore.params import resolve
from balance.simcore.spec import GameSpec

from . import card_power, cardfile
from .cardfile import base_cards  # noqa: F401  (impact.base_cards: the baseline's card list)
from .compare import ALPHA, DEFAULT_MARGIN, PRIMARY, _per_game, _values, dedupe, pairing_of
from .jsonsafe import jsonable
from .runs import CARD_LISTS, RunConfig, Variant, default_chunk_size
from .stats import difference_family, family_level, mean_ci, rate

IMPACT_FILE = "impact.json"
BASELINE = "baseline"
PLAN_KEY = "impact"  # the baseline variant's `varied` entry: what was asked and what was skipped
RULE_KINDS = ("int", "float", "bool", "ints", "floats")


@dataclass
class Plan:
    variants: list[Variant]
    skipped: list[dict]
    created: list[Path] = field(default_factory=list)  # card files this command wrote


# ---------------------------------------------------------------- what to play
def _slug(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()
    return s[:40] or "card"


def card_kinds(spec: GameSpec, params: dict) -> list[cardfile.Kind]:
    cl, doc = base_cards(spec, params)
    return [] if cl is None else cardfile.kinds(doc, cl.sections)


def pick_cards(spec: GameSpec, params: dict, text: str | None) -> list[cardfile.Kind]:
    """--cards NAMES|all|none -> the card kinds, in file order; an unknown name is refused naming the allowed."""
    if text is None or text.strip().lower() == "none":
        return []
    kinds = card_kinds(spec, params)
    if not kinds:
        raise BalanceError(f"--cards: {spec.name} has no card list whose cards can be removed or added; "
                           f"allowed: leave --cards out, or --rules NAMES")
    if text.strip().lower() == "all":
        return kinds
    by_name = {k.name: k for k in kinds}
    lower = {k.name.lower(): k for k in kinds}

    def find(raw: str) -> cardfile.Kind:
        k = by_name.get(raw) or lower.get(raw.lower())
        if k is None:
            raise BalanceError(f"--cards: {spec.name} has no card '{raw}'; allowed: all, none, or card names "
                               f"(comma-separated): {', '.join(by_name)}")
        return k

    return _named(text, find, f"--cards: no card named; allowed: all, none, or card names: {', '.join(by_name)}")


def _named(text: str, find, none_named: str) -> list:
    """The comma-separated names of `text`, each looked up by `find` (which refuses an unknown one), in
    the order given, each once; `none_named` is the refusal when the text names nothing."""
    out = []
    for raw in [x.strip() for x in text.split(",") if x.strip()]:
        x = find(raw)
        if x not in out:
            out.append(x)
    if not out:
        raise BalanceError(none_named)
    return out


def steppable(spec: GameSpec) -> list[str]:
    return [p.name for p in spec.params if p.kind in RULE_KINDS and not p.internal]  # (card power's knobs: no rules)


def pick_rules(spec: GameSpec, text: str | None) -> list[str]:
    """--rules a,b -> parameter names; unknown or non-numeric ones are refused naming the allowed."""
    if text is None:
        return []
    allowed = steppable(spec)

    def find(raw: str) -> str:
        p = spec.param(raw)
        if p is None:
            raise BalanceError(f"--rules: {spec.name} has no parameter '{raw}'; allowed: {', '.join(allowed)}")
        if p.internal:
            raise BalanceError(f"--rules: {raw} is card power's own setting, not a rule of the game; "
                               f"allowed: {', '.join(allowed)}")
        if p.kind not in RULE_KINDS:
            raise BalanceError(f"--rules: {raw} is a {p.kind} parameter, not a number or a switch, so it has no step; "
                               f"allowed: {', '.join(allowed)}")
        return raw

    return _named(text, find, f"--rules: no parameter named; allowed: {', '.join(allowed)}")


def _round(x: float) -> float:
    return float(f"{x:.6g}")


def rule_steps(param, value) -> list[tuple[str, Any] | tuple[str, None, str]]:
    """[(direction, new value)] one step down and up its declared range, or
    (direction, None, why) where the step leaves the range."""
    lo, hi = param.low, param.high

    def inside(v) -> bool:
        vs = v if isinstance(v, list) else [v]
        return all((lo is None or x >= lo) and (hi is None or x <= hi) for x in vs)

    if param.kind == "bool":
        return [("flipped", not bool(value))]
    if param.choices is not None and param.kind in ("int", "float"):
        ch = sorted(param.choices)
        i = ch.index(value) if value in ch else None
        out = []
        for d, j in (("down", None if i is None else i - 1), ("up", None if i is None else i + 1)):
            out.append((d, ch[j]) if j is not None and 0 <= j < len(ch) else (d, None, f"no {d}ward choice of {param.allowed()}"))
        return out
    out = []
    for d, sign in (("down", -1), ("up", 1)):
        if param.kind == "int":
            new: Any = int(value) + sign
        elif param.kind == "ints":
            new = [int(x) + sign for x in value]
        elif param.kind == "float":
            step = abs(value) * 0.1 if value else ((hi - lo) / 20 if lo is not None and hi is not None else 0.1)
            new = _round(value + sign * step)
        else:  # floats: every value by 10%
            new = [_round(x + sign * (abs(x) * 0.1 if x else 0.1)) for x in value]
        out.append((d, new) if inside(new) else (d, None, f"{_show(new)} is outside {param.allowed()}"))
    return out


def _show(v) -> str:
    if isinstance(v, list):
        return "-".join(str(x) for x in v) if all(isinstance(x, int) for x in v) else ",".join(f"{x:g}" for x in v)
    if isinstance(v, bool):
        return str(v).lower()
    return f"{v:g}" if isinstance(v, float) else str(v)


def _scrub(text: str, path: Path) -> str:
    """A loader's refusal of a temporary file, worded about the edited list."""
    for p in {str(path), str(path.resolve()), shown(path)}:
        text = text.replace(p, "the edited list")
    return text


def _check_loads(spec: GameSpec, params: dict) -> str | None:
    try:
        spec.load_data(params)
    except BalanceError as exc:
        return str(exc)
    return None


def _write_new(path: Path, text: str) -> bool:
    """Write `text` to `path` unless a file with that content is there (names carry the
    content's hash). True when this call created it."""
    if path.exists():
        if path.read_text(encoding="utf-8") == text:
            return False
        raise BalanceError(f"--out: {path} holds another card list than its name says; allowed: a folder written "
                           "by balance impact (do not edit its cards/ files)")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return True


def plan(spec: GameSpec, user: dict, run_dir: Path, cards: list[cardfile.Kind], rules: list[str],
         power: bool = True) -> Plan:
    """The baseline and every variant that is a legal configuration, with the
    card lists written into `run_dir/cards/`; the others skipped with a reason.
    In a competitive game whose engine takes them (analysis.card_power), each
    card named also gets a card-power variant first: one more copy given to one
    seat, on the baseline's deals (`power` False: none)."""
    base_params = resolve(spec, user)
    variants: list[Variant] = []
    skipped: list[dict] = []
    created: list[Path] = []
    power_meta = None
    if power and cards and card_power.supported(spec):
        kinds, not_measured = card_power.power_kinds(spec, base_params)
        asked = {k.name for k in cards}
        kinds = [k for k in kinds if k.name in asked]
        variants += card_power.variants(spec, Variant(BASELINE, base_params), kinds)
        power_meta = {"cards": [k.name for k in kinds],
                      "not_measured": [x for x in not_measured if x["card"] in asked]}
    if cards:
        from .store import check_entries

        check_entries(Path(run_dir), "--out", tables=True)  # its cards/ written below: never through a link
        cl, doc = base_cards(spec, base_params)
        with tempfile.TemporaryDirectory(prefix="balance-impact-") as tmpdir:
            for kind in cards:
                for change in cardfile.CHANGES:
                    what = {"what": "card", "card": kind.name, "change": change,
                            "words": f"{kind.name}: {cardfile.CHANGE_WORDS[change]}"}
                    new, why, copies = cardfile.edited(doc, kind, change)
                    if new is None:
                        skipped.append({**what, "reason": why})
                        continue
                    how = (f"{copies[0]} -> {copies[1]} copies" if copies[0] is not None else "its entry removed")
                    header = (f"Written by balance impact: {cl.file} (sha256 {cl.sha256[:16]}) with {kind.name} "
                              f"{how} ({cardfile.CHANGE_WORDS[change]}).\n"
                              f"Data only, never executed. "
                              + ("The list it edits is a reconstruction: invented cards stand in for the printed ones."
                                 if cl.reconstruction else ""))
                    text = cardfile.dumps(new, header)
                    digest = hashlib.sha256(text.encode()).hexdigest()
                    tmp = Path(tmpdir) / f"{_slug(kind.name)}-{change}.toml"
                    tmp.write_text(text, encoding="utf-8")
                    err = _check_loads(spec, {**base_params, **user, "cards": str(tmp.resolve())})
                    if err is not None:
                        skipped.append({**what, "reason": "not a legal card list: " + _scrub(err, tmp)})
                        continue
                    rel = Path(CARD_LISTS) / f"{_slug(kind.name)}-{change.replace('_', '-')}-{digest[:12]}.toml"
                    target = (Path(run_dir) / rel).resolve()
                    if _write_new(target, text):
                        created.append(target)
                    params = resolve(spec, {**user, "cards": str(target)})
                    variants.append(Variant(what["words"], params,
                                            {"card": kind.name, "change": change, "copies": list(copies),
                                             "file": rel.as_posix(), "sha256": digest}))
    for name in rules:
        param = spec.param(name)
        value = base_params[name]
        for step in rule_steps(param, value):
            direction, new = step[0], step[1]
            what = {"what": "rule", "rule": name, "change": direction, "from": value}
            if new is None:
                skipped.append({**what, "words": f"{name} {direction}", "reason": step[2]})
                continue
            label = f"{name}={_show(new)}"
            params = {**user, name: new}
            err = _check_loads(spec, params)
            if err is not None:
                skipped.append({**what, "words": label, "to": new, "reason": err})
                continue
            variants.append(Variant(label, resolve(spec, params), {"rule": name, "change": direction,
                                                                   "from": value, "to": new}))
    if not variants:
        why = "; ".join(f"{s['words']}: {s['reason']}" for s in skipped[:3])
        raise BalanceError("--cards/--rules: no variant to play" + (f" ({why})" if why else "")
                           + "; allowed: cards whose copies can change, or rule parameters with room to step")
    meta = {"cards": [k.name for k in cards], "rules": list(rules), "skipped": skipped}
    if power_meta is not None:
        meta["card_power"] = power_meta
    return Plan([Variant(BASELINE, base_params, {PLAN_KEY: meta})] + variants, skipped, created)


def impact_config(spec: GameSpec, plan_: Plan, players: int, policies, seed: int, n_games: int,
                  chunk_size: int | None = None) -> RunConfig:
    return RunConfig(spec.name, spec.modes[0], players, policies, seed, plan_.variants,
                     chunk_size or default_chunk_size(n_games))


def discard(plan_: Plan, run_dir: Path) -> None:
    """Remove the card files this command wrote that no manifest names (the run was refused)."""
    from .runs import MANIFEST

    named: set[str] = set()
    try:
        manifest = json.loads((Path(run_dir) / MANIFEST).read_text(encoding="utf-8"))
        for v in manifest["config"]["variants"]:
            named.add(str((v.get("varied") or {}).get("file", "")))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    for path in plan_.created:
        rel = f"{CARD_LISTS}/{path.name}"
        if rel not in named:
            path.unlink(missing_ok=True)
    folder = Path(run_dir) / CARD_LISTS
    for d in (folder, Path(run_dir)):
        try:
            d.rmdir()  # only when empty
        except OSError:
            break


# ---------------------------------------------------------------- the analysis
def _frames_by_variant(games: pl.DataFrame, seats: pl.DataFrame, spec, names: list[str]) -> dict[str, pl.DataFrame]:
    per = {}
    for name in names:
        g = games.filter(pl.col("variant") == name)
        s = seats.filter(pl.col("variant") == name)
        per[name] = _per_game(g, s, spec) if g.height else None
    cols: list[str] = []
    for f in per.values():
        if f is not None:
            cols += [c for c in f.columns if c not in cols]
    out = {}
    for name, f in per.items():
        if f is None:
            continue
        # an end reason that never happened in a variant is 0 in each of its games
        missing = [pl.lit(0.0 if c.startswith("ends: ") else None, pl.Float64).alias(c) for c in cols
                   if c not in f.columns]
        out[name] = f.with_columns(missing).select(cols) if missing else f.select(cols)
    return out


def choose_primary(base: pl.DataFrame) -> tuple[str, str | None]:
    """The metric the variants are ranked by: the headline win rate, unless every
    baseline game has the same one (someone wins every game of a competitive
    game): then the game's length, the headline that still varies."""
    x = _values(base, PRIMARY)
    x = x[np.isfinite(x)]
    if x.size and np.all(x == x[0]) and "length" in base.columns:
        return "length", (f"every baseline game has the same {PRIMARY} ({100 * x[0]:.0f}%: "
                          f"{'someone wins every game' if x[0] == 1 else 'nobody wins'}), so the variants are ranked "
                          f"by the game's length; the {PRIMARY} stays among the other metrics")
    return PRIMARY, None


def _baseline_lift(run_dir: Path, spec) -> tuple[dict[str, dict], str | None]:
    """Each card's lift in the baseline (analysis.cards): an association."""
    from .cards import card_impact, card_totals, primary_counter
    from .frames import load_cards

    counter = primary_counter(spec.card_counters)
    cards = load_cards(run_dir)
    if counter is None or cards.is_empty():
        return {}, counter
    cards = cards.filter(pl.col("variant") == BASELINE)
    imp = card_impact(card_totals(cards)).filter(pl.col("counter") == counter)
    out = {}
    for r in imp.iter_rows(named=True):
        out[r["card"]] = {"lift": r["lift"], "ci": [r["lift_lo"], r["lift_hi"]], "p": r["p"],
                          "significant": bool(r["significant"]), "seat_games_with": int(r["games_with"]),
                          "seat_games": int(r["seat_games"]),
                          "win_rate_with": r["rate_with"], "win_rate_without": r["rate_without"],
                          # analysis.cards: "reached" (among the seat-games that drew the card) or "all"
                          "comparison": r["comparison"], "n_with": int(r["lift_n_with"]),
                          "n_without": int(r["games_without"])}
    return out, counter


def _is_power(v: dict) -> bool:
    return card_power.POWER_KEY in (v.get("varied") or {})


def analyse(run_dir: str | Path, spec, margin: float = DEFAULT_MARGIN, alpha: float = ALPHA) -> dict:
    """The impact result of an impact run folder (pure: writes nothing)."""
    from .frames import load_games, load_manifest, load_seats

    run_dir = Path(run_dir)
    manifest = load_manifest(run_dir)
    names = [v["name"] for v in manifest["config"]["variants"] if not _is_power(v)]
    games, seats = load_games(run_dir, spec), load_seats(run_dir, spec)
    per = _frames_by_variant(games, seats, spec, names)
    lifts, counter = _baseline_lift(run_dir, spec)
    from .summary import read_stopping

    out = analyse_frames(per, manifest, spec, margin, alpha, lifts, counter)
    cp = card_power.analyse_frames(seats, games, manifest, spec, margin, alpha)
    if cp is not None:
        meta = ((manifest["config"]["variants"][0].get("varied") or {}).get(PLAN_KEY) or {}).get("card_power") or {}
        cp["not_measured"] = meta.get("not_measured", [])
        out["card_power"] = cp  # the first card table: what one more copy does for the player who gets it
    stop = read_stopping(run_dir)
    if stop and stop.get("max_games") == manifest.get("n_games"):
        out["stopping"] = stop  # a --precision run: what stopped it (every variant at the same games)
    from . import skill_check

    if manifest.get("kind") != "skill-check":
        sub = analyse(skill_check.folder(run_dir), spec, margin, alpha) if skill_check.has_check(run_dir) else None
        out["skill_check"] = _skill(out, sub, manifest, spec)
    return out


def check_variants(run_dir: str | Path, spec, margin: float = DEFAULT_MARGIN, top: int = 3, top_power: int = 2) -> list[str]:
    """The variants the skill check re-measures: the baseline, the `top` largest effects on the headline
    and the `top_power` largest card-power effects (chosen on the main run's games, measured again on
    expert's)."""
    res = analyse(run_dir, spec, margin)
    rows = sorted(res.get("rows") or [], key=lambda r: -abs(r.get("diff") or 0.0))[:top]
    power = sorted((res.get("card_power") or {}).get("rows") or [], key=lambda r: -abs(r.get("effect") or 0.0))
    names = [res["baseline"]["name"]] + [r["variant"] for r in rows] + [r["variant"] for r in power[:top_power]]
    return list(dict.fromkeys(names))


def _skill(out: dict, sub: dict | None, manifest: dict, spec) -> dict:
    """impact.json's `skill_check`: each re-measured variant's verdict beside its verdict on the expert games."""
    from . import skill_check

    if sub is None:
        why = skill_check.why_not(spec, manifest["config"].get("policies") or [])
        return {"played": False, "policy": skill_check.POLICY,
                "why": why or "skipped (--skill-check 0): the verdicts are for the run's own policies only"}
    items = []
    for key, main_rows, check_rows, est in (("rows", out.get("rows") or [], sub.get("rows") or [], "diff"),
                                            ("card_power", (out.get("card_power") or {}).get("rows") or [],
                                             (sub.get("card_power") or {}).get("rows") or [], "effect")):
        by = {r["variant"]: r for r in check_rows}
        for r in main_rows:
            c = by.get(r["variant"])
            if c is None:
                continue
            a, b = r.get(est), c.get(est)
            same = a is None or b is None or (a >= 0) == (b >= 0)
            st = skill_check.status((r.get("margin_verdict") or {}).get("verdict"),
                                    (c.get("margin_verdict") or {}).get("verdict"), same)
            items.append({"table": key, "variant": r["variant"], "status": st,
                          "check": {k: c.get(k) for k in (est, "ci", "ci_level", "margin", "margin_verdict", "n", "n_a",
                                                          "a", "b", "seat_win_without", "seat_win_with", "rate")}})
    return {"played": True, "policy": skill_check.POLICY, "folder": skill_check.SUBFOLDER,
            "n_games": sub["baseline"].get("n") if isinstance(sub.get("baseline"), dict) else None,
            "items": items, "changes": sum(1 for i in items if i["status"] == "changes"),
            "how": f"the baseline and the largest effects played again on the first deals with "
                   f"{skill_check.POLICY} at every seat, each measured the same way"}


def analyse_frames(per: dict[str, pl.DataFrame], manifest: dict, spec, margin: float = DEFAULT_MARGIN,
                   alpha: float = ALPHA, lifts: dict | None = None, counter: str | None = None) -> dict:
    """The impact result from one per-game frame per variant (analysis.compare's
    `_per_game` columns, `game_index` first) and the manifest that declares them."""
    cfg = manifest["config"]
    declared = cfg["variants"]
    names = [v["name"] for v in declared]
    base_v = declared[0]
    meta = (base_v.get("varied") or {}).get(PLAN_KEY) or {}
    lifts = lifts or {}
    if base_v["name"] not in per:
        raise BalanceError(f"{cfg.get('game')}: no baseline games committed yet; run the same command again to play them")
    base = per[base_v["name"]]
    base_hash = base_v.get("card_list_hash")
    primary, why = choose_primary(base)
    primary_pairs, secondary_pairs, info, dropped = {}, {}, {}, {}
    for v in declared[1:]:
        name = v["name"]
        if name not in per or _is_power(v):  # card power's variants: their own table (analysis.card_power)
            continue
        both = base.join(per[name], on="game_index", suffix="__b")
        metrics = [c for c in base.columns if c != "game_index" and c in per[name].columns]
        a_side = both.select(metrics)
        b_side = both.select([pl.col(m + "__b").alias(m) for m in metrics])
        kept, drop = dedupe(metrics, a_side, b_side, keep_first=primary, paired=True)
        dropped[name] = drop
        x, y = _values(a_side, primary), _values(b_side, primary)
        primary_pairs[name] = (x, y)
        for m in kept:
            if m != primary:
                secondary_pairs[(name, m)] = (_values(a_side, m), _values(b_side, m))
        varied = dict(v.get("varied") or {})
        same_cards = v.get("card_list_hash") == base_hash
        info[name] = {"varied": varied, "what": "card" if "card" in varied else "rule",
                      "pairing_basis": "same deals" if same_cards else "same seeds", "pairing": pairing_of(x, y)}
    prim = difference_family(primary_pairs, alpha, margin) if primary_pairs else []
    rows = []
    for r in sorted(prim, key=lambda r: -(r["diff"] if r["diff"] is not None else -math.inf)):
        i = info[r["name"]]
        varied = i["varied"]
        row = {"variant": r.pop("name"), "what": i["what"],
               **{k: varied[k] for k in ("card", "change", "copies", "file", "sha256", "rule", "from", "to")
                  if k in varied},
               "pairing_basis": i["pairing_basis"], "pairing": i["pairing"], **r}
        if i["what"] == "card":
            row["change_words"] = cardfile.CHANGE_WORDS.get(varied.get("change"), varied.get("change"))
            row["lift"] = lifts.get(varied.get("card"))
        rows.append(row)
    sec = difference_family(secondary_pairs, alpha, margin) if secondary_pairs else []
    secondary = []
    for r in sec:
        variant, metric = r.pop("name")
        secondary.append({"variant": variant, "metric": metric, **r})
    secondary.sort(key=lambda r: (names.index(r["variant"]), r["metric"]))
    b_win = base[PRIMARY].cast(pl.Float64).to_numpy()
    b_primary = _values(base, primary)
    m1, m2 = len(rows), len(secondary)
    result = {
        "kind": "impact", "game": cfg.get("game"), "title": cfg.get("title", spec.title), "seed": cfg.get("seed"),
        "players": cfg.get("players"), "policies": cfg.get("policies"), "mode": cfg.get("mode"),
        "n_requested": manifest.get("n_games"), "alpha": alpha, "margin": margin, "primary": primary,
        "primary_rate": primary == PRIMARY, "primary_why": why,
        "primary_unit": None if primary == PRIMARY else spec.length_column,  # a length's unit: turns, rounds
        "baseline": {"name": base_v["name"], "params": base_v.get("params"), "card_list": base_v.get("card_list"),
                     "win_rate": rate(int(np.nansum(b_win)), int(np.isfinite(b_win).sum())),
                     "primary": (rate(int(np.nansum(b_primary)), int(np.isfinite(b_primary).sum()))
                                 if primary == PRIMARY else mean_ci(b_primary[np.isfinite(b_primary)]))},
        "asked": {"cards": meta.get("cards", []), "rules": meta.get("rules", [])},
        "skipped": meta.get("skipped", []),
        "correction": "Bonferroni intervals (verdicts read from them), Holm-adjusted p beside",
        "family_size": m1, "secondary_family_size": m2,
        "ci_level": family_level(alpha, m1), "secondary_ci_level": family_level(alpha, m2),
        "family": (f"the {primary} of each of the {m1} variants against the baseline is one family: each interval at "
                   f"1 - {alpha:g}/{m1} ({family_level(alpha, m1):.4g}), so all hold together at {1 - alpha:.0%}; "
                   f"the {m2} other (variant, metric) differences are a second family at "
                   f"{family_level(alpha, max(m2, 1)):.4g}; every verdict is read from the interval shown"),
        "lift_counter": counter,
        "lift_comparison": next((v.get("comparison") for v in lifts.values() if v), None),
        "rows": rows, "secondary": secondary, "dropped": dropped,
        "n_games": {name: int(f.height) for name, f in per.items()},
    }
    if meta.get("card_power"):
        result["asked"]["card_power"] = meta["card_power"].get("cards", [])
    return jsonable(result)



def impact_result(data: dict):
    """impact.json's model (analysis.impact_result) of `analyse`'s result."""
    from .impact_result import ImpactResult

    return ImpactResult.model_validate(jsonable(data))


def write_impact(run_dir: str | Path, spec, margin: float | None = None):
    """Write `impact.json` into the folder; return its model. `margin` None: the one of its summary.json."""
    from .summary import SUMMARY_FILE

    run_dir = Path(run_dir)
    if margin is None:
        try:
            margin = float(json.loads((run_dir / SUMMARY_FILE).read_text(encoding="utf-8")).get("margin",
                                                                                               DEFAULT_MARGIN))
        except (OSError, ValueError, TypeError, AttributeError):
            margin = DEFAULT_MARGIN
    model = impact_result(analyse(run_dir, spec, margin))
    model.write(run_dir)
    return model
