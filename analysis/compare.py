"""Comparisons: B against A on every headline metric, with intervals and
verdicts that agree with each other.

- One primary metric first: the headline win rate (the share of games
  someone wins; the team's in a co-op game), or the first seat's win rate in
  a game someone wins every time on both sides, tested at alpha with its 95%
  interval.
- Then a deduplicated family of secondary metrics (each seat's win rate, the
  length, every end reason, the game's own means): a metric that is constant
  on both sides, or equal (or, for a rate, the complement) game by game to one
  already in, is left out and listed. Each secondary interval is at
  1 - alpha/m (Bonferroni over the m kept), and every verdict is read from the
  interval shown, so an interval excluding 0 is always "differs".
- Paired when both sides played the same seed and player count: game i of A
  and game i of B draw from the same random streams ("same deals" when the
  card lists are the same too, else only "same seeds"), so differences are
  taken game by game. Win/loss and end-reason metrics then use the exact
  McNemar test (analysis.stats.paired_binary), means a paired t interval; the
  achieved pairing correlation of the primary metric is reported. Unpaired:
  Newcombe intervals for rates, Welch for means.
- Practical significance: every verdict also says, against `margin` (rates:
  absolute points; other metrics: that share of A's value), "balanced within
  the margin", "differs by more than the margin", "differs, size unclear",
  "not enough games to say", or "not enough information to say" with the
  reason where no game set A against B (the same result on both sides in
  every pair: as when both sides play alike) (analysis.stats.margin_verdict).
- What the pairing bought is measured, never assumed (`pairing_of`): the
  paired interval of the primary metric against the unpaired one on the same
  games, and the sentence that says so (`pairing_sentence`).
- Missing values (NaN: a per-round metric of a round not reached) are left
  out; n counts the games (pairs) where the metric exists.

comparison.json holds the result as its schema's model (analysis.compare_result.ComparisonResult,
written by `write_comparison`).
"""
from __future__ import annotations

import numpy as np
import polars as pl

from .stats import ALPHA, DEFAULT_MARGIN, Moments, family_level, margin_verdict, paired_difference, two_proportions_ci, welch

PRIMARY = "win rate"


def _per_game(games: pl.DataFrame, seats: pl.DataFrame, spec) -> pl.DataFrame:
    """One row per game: the metrics compared, as numbers."""
    won = seats.group_by("game_index").agg(
        pl.col("won").max().alias("win rate"),
        *[pl.col("won").filter(pl.col("seat") == s).first().alias(f"seat {s + 1} win rate")
          for s in range(int(seats["seat"].max()) + 1 if seats.height else 0)],
    )
    cols = [pl.col("game_index")]
    length = "turns" if "turns" in games.columns else "decisions"
    cols.append(pl.col(length).cast(pl.Float64).alias("length"))
    for reason in sorted(set(games["end_reason"].unique().to_list())):
        cols.append((pl.col("end_reason") == reason).cast(pl.Float64).alias(f"ends: {reason}"))
    for c in spec.game_columns:
        if c.name != length and not c.name.startswith("happy_turn") and c.name in games.columns:
            cols.append(pl.col(c.name).cast(pl.Float64).alias(f"mean {c.name}"))
    return games.select(cols).join(won, on="game_index").sort("game_index")


def is_binary(name: str, values: np.ndarray | None = None) -> bool:
    """A rate (a share of games): a win rate, an end reason, or a game column
    that is 0 or 1 in every game (e.g. overtime's everybody_loses)."""
    if "win rate" in name or name.startswith("ends: "):
        return True
    if values is None:
        return False
    v = values[~np.isnan(values)]
    return bool(v.size) and bool(np.all((v == 0) | (v == 1)))


def _values(frame: pl.DataFrame, name: str) -> np.ndarray:
    if name not in frame.columns:
        return np.full(frame.height, np.nan)
    return frame[name].cast(pl.Float64).fill_null(float("nan")).to_numpy()


def dedupe(names: list[str], a: pl.DataFrame, b: pl.DataFrame, keep_first: str | None = PRIMARY,
           paired: bool = False) -> tuple[list[str], list[dict]]:
    """The metrics worth testing, in order, and those left out with the reason:
    not recorded on one side, constant on both sides, unchanged in every pair
    (paired: B equals A game by game, nothing to test), or the same game by
    game as a metric already kept (equal, or for a rate its complement)."""
    kept: list[str] = []
    vectors: dict[str, np.ndarray] = {}
    dropped = []
    order = ([keep_first] if keep_first in names else []) + [m for m in names if m != keep_first]
    for m in order:
        xa, xb = _values(a, m), _values(b, m)
        v = np.concatenate([xa, xb])
        present = v[~np.isnan(v)]
        if m != keep_first:
            reason = None
            if present.size == 0 or np.isnan(xa).all() or np.isnan(xb).all():
                reason = "missing on one side"
            elif np.all(present == present[0]):
                reason = "constant on both sides"
            elif paired and np.array_equal(xa, xb, equal_nan=True):
                reason = "the same on both sides in every game"
            if reason:
                dropped.append({"metric": m, "reason": reason})
                continue
        same = next((k for k in kept if np.array_equal(v, vectors[k], equal_nan=True)), None)
        if same is None and is_binary(m, v):
            same = next((k for k in kept if is_binary(k, vectors[k]) and np.array_equal(v, 1 - vectors[k], equal_nan=True)),
                        None)
            reason = "the complement of " + same if same else None
        else:
            reason = "the same as " + same if same else None
        if same is not None:
            dropped.append({"metric": m, "reason": f"{reason}, game by game"})
            continue
        kept.append(m)
        vectors[m] = v
    return kept, dropped


def _paired_row(x: np.ndarray, y: np.ndarray, binary: bool, level: float) -> dict:
    return paired_difference(x, y, level, binary)


def _unpaired_row(x: np.ndarray, y: np.ndarray, binary: bool, level: float) -> dict:
    mx, my = int(np.isnan(x).sum()), int(np.isnan(y).sum())
    x, y = x[~np.isnan(x)], y[~np.isnan(y)]
    if binary:
        r = two_proportions_ci(float((x > 0.5).sum()), x.size, float((y > 0.5).sum()), y.size, level)
    else:
        r = welch(Moments.of(x), Moments.of(y), level)
    return {**r, "a": float(x.mean()) if x.size else None, "b": float(y.mean()) if y.size else None,
            "n_a": int(x.size), "n_b": int(y.size), "missing": mx + my}


LITTLE_GAIN = 0.9  # a paired interval at least this share of the unpaired width: pairing "removed little of the luck"


def pairing_of(x: np.ndarray, y: np.ndarray, basis: str | None = None, level: float = 1 - ALPHA) -> dict:
    """How much the pairing bought on the primary metric, as measured on these
    games: the correlation of A's and B's per-game values, and `width_ratio`,
    the width of the paired interval (the one compare prints) as a share of
    the unpaired interval the same games would give as independent samples
    (Newcombe for rates, Welch for means), both at `level`. None where either
    interval cannot be made (fewer than 2 pairs, no spread, or no pair where A
    and B differ). `words`: `pairing_sentence` of it."""
    ok = ~(np.isnan(x) | np.isnan(y))
    x, y = x[ok], y[ok]
    out = {"correlation": None, "width_ratio": None, "n_pairs": int(x.size), "level": level,
           "how": "paired interval's width / unpaired interval's width, same games, same level"}
    if x.size >= 2:
        vx, vy = float(x.var(ddof=1)), float(y.var(ddof=1))
        out["correlation"] = float(np.corrcoef(x, y)[0, 1]) if vx > 0 and vy > 0 else None
        binary = is_binary("", np.concatenate([x, y]))
        paired = paired_difference(x, y, level, binary)
        unpaired = _unpaired_row(x, y, binary, level)
        pw, uw = _width(paired), _width(unpaired)
        if paired.get("no_information"):
            out["identical"] = True  # A and B alike in every pair: nothing for the pairing to remove
        elif pw is not None and uw:
            out["width_ratio"] = pw / uw
    out["words"] = pairing_sentence(out, basis)
    return out


def _width(r: dict) -> float | None:
    lo, hi = (r.get("ci") or [None, None])[:2]
    return None if lo is None or hi is None else float(hi - lo)


def pairing_sentence(pairing: dict | None, basis: str | None = None) -> str | None:
    """What the pairing did here, from its measured width ratio (`pairing_of`):
    "pairing on the same deals made this interval 3.1x narrower than
    independent games would", or "... removed little of the luck here
    (interval 0.97x the unpaired width)". None when nothing was measured."""
    p = pairing or {}
    how = f"pairing on the {basis}" if basis else "pairing game by game"
    if p.get("identical"):
        return (f"{how} cannot be judged here: A and B had the same result in every one of the "
                f"{p.get('n_pairs', 0):,} pairs")
    r = p.get("width_ratio")
    if r is None:
        return None
    if r < LITTLE_GAIN:
        return f"{how} made this interval {1 / r:.1f}x narrower than independent games would"
    if r <= 1:
        return f"{how} removed little of the luck here (interval {r:.2f}x the unpaired width)"
    return f"{how} removed none of the luck here (interval {r:.2f}x the unpaired width)"


FIRST_SEAT = "seat 1 win rate"


def primary_metric(a: pl.DataFrame, b: pl.DataFrame, metrics: list[str]) -> str:
    """The headline compared first: the share of games someone wins, or, in a
    game that someone wins every time on both sides (a duel, a free-for-all),
    the first seat's win rate, which is then what a change can move."""
    v = np.concatenate([_values(a, PRIMARY), _values(b, PRIMARY)])
    v = v[~np.isnan(v)]
    if FIRST_SEAT in metrics and v.size and np.all(v == 1):
        return FIRST_SEAT
    return PRIMARY


def compare_frames(a_games, a_seats, b_games, b_seats, spec, paired: bool, margin: float = DEFAULT_MARGIN,
                   alpha: float = ALPHA) -> dict:
    a = _per_game(a_games, a_seats, spec)
    b = _per_game(b_games, b_seats, spec)
    metrics = [c for c in a.columns if c != "game_index" and c in b.columns]
    if paired:
        both = a.join(b, on="game_index", suffix="__b")
        paired = both.height > 1
    if paired:
        a_side, b_side = both.select(metrics), both.select([pl.col(m + "__b").alias(m) for m in metrics])
    else:
        a_side, b_side = a, b
    first = primary_metric(a_side, b_side, metrics)
    kept, dropped = dedupe(metrics, a_side, b_side, keep_first=first, paired=paired)
    secondary = [m for m in kept if m != first]
    m_family = len(secondary)
    rows = []
    for name in kept:
        primary = name == first
        level = 1 - alpha if primary else family_level(alpha, m_family)
        x, y = _values(a_side, name), _values(b_side, name)
        binary = is_binary(name, np.concatenate([x, y]))
        r = (_paired_row if paired else _unpaired_row)(x, y, binary, level)
        size = 1 if primary else m_family
        p_adj = None if r["p"] is None else min(1.0, size * r["p"])
        rel = not binary
        mg = margin * abs(r["a"]) if rel and r["a"] is not None else margin
        no_info = r.get("no_information")
        if no_info and paired and binary and r["diff"] == 0:
            no_info = (f"A and B had the same {name} result in every one of the {r['n']:,} paired games (B changed no "
                       f"outcome on these deals, as when both sides play alike), so no game measured a difference")
        v = margin_verdict(r["diff"], r["ci"], mg, n=r["n_a"], no_information=no_info)
        sig = bool(p_adj is not None and p_adj <= alpha)
        if r["diff"] is None:
            words = "no data on one side"
        elif no_info:
            words = "no information"
        elif sig:
            words = "B higher" if r["diff"] > 0 else "B lower"
        else:
            words = "no significant difference"
        rows.append({"metric": name, "role": "primary" if primary else "secondary", **r, "ci_level": level,
                     "p_adjusted": p_adj, "significant": sig, "verdict": words, "margin_verdict": v,
                     "margin": mg, "margin_kind": "relative: the margin times A's value" if rel else "absolute",
                     "rate": binary})
    head = next((r for r in rows if r["metric"] == first), None)
    result = {
        "paired": bool(paired), "alpha": alpha, "margin": margin, "primary": first,
        "correction": "Bonferroni", "family_size": m_family,
        "family": f"the primary metric ({first}) at alpha {alpha:g} with a 95% interval; the {m_family} secondary "
                  f"metrics each at 1 - alpha/{m_family} (intervals at {family_level(alpha, m_family):.4g}), verdicts "
                  f"read from the intervals shown",
        "metrics": rows, "dropped": dropped,
        "significant": [r["metric"] for r in rows if r["significant"]],
    }
    if paired and head is not None:
        result["pairing"] = pairing_of(_values(a_side, first), _values(b_side, first))
    result["verdicts"] = {"margin": margin, "alpha": alpha, "items": [
        {"id": "compare", "variant": None, "question": f"Does B change the {r['metric']}?", "metric": r["metric"],
         "role": r["role"], "estimate": r["diff"], "ci": r["ci"], "ci_level": r["ci_level"], "n": r["n_a"],
         "p": r["p_adjusted"], **r["margin_verdict"]} for r in rows]}
    return result


def split_variant(games: pl.DataFrame, seats: pl.DataFrame, variant: str | None):
    if variant is None:
        return games, seats
    return games.filter(pl.col("variant") == variant), seats.filter(pl.col("variant") == variant)


def compare_runs(run_a, run_b, variant_a: str | None = None, variant_b: str | None = None,
                 margin: float = DEFAULT_MARGIN) -> dict:
    """Compare two run folders (or two variants of sweep folders)."""
    import json

    from balance.simcore import registry
    from balance.simcore.errors import BalanceError

    from .frames import load_games, load_seats
    from .runs import config_from_manifest, load_manifest, played_data

    ma, mb = load_manifest(run_a), load_manifest(run_b)
    if ma["config"]["game"] != mb["config"]["game"]:
        raise BalanceError(f"compare: {run_a} is {ma['config']['game']} but {run_b} is {mb['config']['game']}; compare runs of one game")
    spec = registry.get(ma["config"]["game"])
    sides = []
    for run, manifest, variant, label in ((run_a, ma, variant_a, "A"), (run_b, mb, variant_b, "B")):
        names = [v["name"] for v in manifest["config"]["variants"]]
        if variant is None and len(names) > 1:
            raise BalanceError(f"--{label.lower()}-variant: {run} holds {len(names)} variants; allowed: {', '.join(names)}")
        if variant is not None and variant not in names:
            raise BalanceError(f"--{label.lower()}-variant: '{variant}' is not in {run}; allowed: {', '.join(names)}")
        g, s = split_variant(load_games(run, spec), load_seats(run, spec), variant)
        entry = next(v for v in manifest["config"]["variants"] if variant is None or v["name"] == variant)
        params = entry["params"]
        index = manifest["config"]["variants"].index(entry)
        try:  # the card list the run played: the folder's own copy, checked against the manifest's hash
            played = played_data(spec, run, manifest, config_from_manifest(manifest, run), index)
            card_names, card_hash = list(played.card_names), played.card_list_hash
        except BalanceError:  # a card file no longer readable here: the names are unknown
            card_names = card_hash = None
        sides.append((g, s, {"run": str(run), "variant": variant or names[0], "params": params,
                             "seed": manifest["config"]["seed"], "policies": manifest["config"]["policies"],
                             "players": manifest["config"]["players"], "card_names": card_names,
                             "card_hash": card_hash}))
    (ga, sa, a), (gb, sb, b) = sides
    paired = a["seed"] == b["seed"] and a["players"] == b["players"]
    result = compare_frames(ga, sa, gb, sb, spec, paired, margin)
    changed = {k: [a["params"].get(k), b["params"].get(k)] for k in sorted(set(a["params"]) | set(b["params"]))
               if a["params"].get(k) != b["params"].get(k)}
    if a["policies"] != b["policies"]:
        changed["policies"] = [[p["name"] for p in a["policies"]], [p["name"] for p in b["policies"]]]
    # a different card list deals different cards from the same streams: then only the seeds are shared
    # (two paths to the same content are the same list: the deals are the same)
    same_cards = (a["card_names"] is not None and a["card_names"] == b["card_names"]
                  and ("cards" not in changed or (a["card_hash"] is not None and a["card_hash"] == b["card_hash"])))
    for side in (a, b):
        side.pop("card_names")
        side.pop("card_hash")
    result["pairing_basis"] = ("same deals" if same_cards else "same seeds") if result["paired"] else None
    if result.get("pairing") is not None:
        result["pairing"]["words"] = pairing_sentence(result["pairing"], result["pairing_basis"])
    result["pairing_words"] = (None if not result["paired"] else
                               f"paired on the same deals (seed {a['seed']}: game i is dealt alike on both sides)"
                               if same_cards else
                               f"paired on the same seeds (seed {a['seed']}: game i draws from the same random "
                               f"streams on both sides, but the card lists differ, so the deals do too)")
    return {"game": spec.name, "title": spec.title, "a": a, "b": b, "changed": json.loads(json.dumps(changed, default=str)),
            "n_a": int(ga.height), "n_b": int(gb.height), **result}


def comparison_result(result: dict, command: str | None):
    """comparison.json's model (analysis.compare_result) of compare_runs' result, with its skill check
    (`skill_check`) and card diff (`card_diff`) beside it."""
    from .compare_result import ComparisonResult
    from .jsonsafe import jsonable

    return ComparisonResult.model_validate(jsonable({**result, "command": command}))


def write_comparison(folder, result: dict, command: str | None):
    """Write comparison.json into `folder`; return its model (what the report and the terminal read)."""
    model = comparison_result(result, command)
    model.write(folder)  # its report is the reports layer's (reports.render_compare_report)
    return model


# ---------------------------------------------------------------- compare (comparison.json's skill_check)
def skill_check(run_a: Path, run_b: Path, variant_a: str | None, variant_b: str | None, main: dict,
                   margin: float) -> dict:
    """The comparison recomputed on the skill checks of its sides (`compare --game`: one folder's A and B;
    two run folders: each one's own check, when both have one), each metric's verdict beside the main one."""
    from pathlib import Path

    from .skill_check import POLICY, SUBFOLDER, folder, has_check, status

    a, b = folder(run_a), folder(run_b)
    if not (has_check(Path(run_a)) and has_check(Path(run_b))):
        why = "a side was played without a skill check" if Path(run_a) != Path(run_b) else None
        return {"played": False, "policy": POLICY, "why": why or "skipped (--skill-check 0): the verdicts are for "
                "the run's own policies only"}
    sub = compare_runs(a, b, variant_a, variant_b, margin)
    rows = {m["metric"]: m for m in sub.get("metrics") or []}
    items = []
    for m in main.get("metrics") or []:
        c = rows.get(m["metric"])
        if c is None:
            continue
        mv, cv = (m.get("margin_verdict") or {}), (c.get("margin_verdict") or {})
        same = m.get("diff") is None or c.get("diff") is None or (m["diff"] >= 0) == (c["diff"] >= 0)
        items.append({"metric": m["metric"], "status": status(mv.get("verdict"), cv.get("verdict"), same),
                      "check": {k: c.get(k) for k in ("metric", "diff", "ci", "ci_level", "margin", "margin_verdict",
                                                      "rate", "n_a", "n_b", "a", "b", "method", "role")}})
    return {"played": True, "policy": POLICY, "folder": SUBFOLDER, "n_a": sub.get("n_a"), "n_b": sub.get("n_b"),
            "items": items, "changes": sum(1 for i in items if i["status"] == "changes"), "margin": margin,
            "how": f"the first deals of each side played again with {POLICY} at every seat, on the same deals, "
                   f"compared with the same statistics"}
