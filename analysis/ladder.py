"""`balance ladder`: the same deals played by players of rising skill, in one
run folder, paired (issue 22).

The rungs (weakest first): `random`, `greedy` with a share of random moves
(`epsilon`, EPSILONS), `greedy`, `lookahead`, `expert` and, where the game
has one, `oracle` (an upper bound that sees the hidden cards, never "a
player"). A policy the game refuses (sickdays-party's expert) is left out and
named in `left_out`.

One run folder, one variant per (level, rung, seat) (analysis.runs: a
variant's own seating `varied.seating`), so it resumes, is Dask-capable and
every rung plays game indices 0..m-1 of the same seed: the same deals.

* Solo and co-op games: every seat plays the rung; the headline is the win
  rate (Wilson interval, n games); rungs are compared game by game (exact
  McNemar, analysis.stats.paired_binary).
* Competitive games: one seat of the rung among greedy seats, the rung's seat
  moved round the table (one variant per seat, the same deals in each), so
  the seat's win rate is free of seat advantage. Per deal its value is the
  mean over the seats it sat at; the headline is the mean over deals (normal
  interval, n deals), against its fair share in the same games (the mean
  number of winners per game / players, paired); rungs are compared deal by
  deal (paired t interval). The greedy rung is the all-greedy table: every
  seat is "the" greedy seat, so its value is the fair share itself.

Search rungs (lookahead, expert, oracle) cost 100-1000x a greedy game, so they
play a share (`SEARCH_SHARE`) of the deals the cheap rungs play: the first
ones, so every comparison is still on common deals (`n` says how many).

`ladder.json` is the hook reports.context reads (its docstring: one ladder per
setting; several levels give `{"kind": "ladder", "ladders": [...]}`), and
`summary.json` holds the same with the rung table and the skill figure.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simcore.batch import SeatPolicy, resolve_policy
from simcore.errors import BalanceError
from simcore.params import resolve

from . import stats
from .runs import SEATING_KEY, SHARE_KEY, RunConfig, Variant, _jsonable, variant_games

LADDER_FILE = "ladder.json"
SUMMARY_FILE = "summary.json"
KIND = "ladder"
EPSILONS = (0.5, 0.2)  # greedy with this share of its moves random: weaker players
SEARCH = ("lookahead", "expert", "oracle")
RUNG_KEY = "rung"
FOCAL_KEY = "focal_seat"  # the seat the rung's policy sits at (competitive games), None: every seat
LEVEL_KEY = "level"

# Default deals per cheap rung, and the share of them each search rung plays, per game: chosen so that
# `balance ladder --game G` finishes in a few minutes on 2 cores (lookahead is the slowest rung: flat Monte
# Carlo with full greedy rollouts; measured speeds in docs/benchmarks.md).
DEFAULT_GAMES = {"sickdays-solo": 4_000, "youre-fired": 4_000, "overtime": 1_000, "four-day-weekend": 1_000,
                 "sickdays-party": 1_000}
DEFAULT_SEARCH_SHARE = {"sickdays-solo": {"lookahead": 0.05, "expert": 0.25, "oracle": 0.25}}
FALLBACK_GAMES = 2_000
FALLBACK_SHARE = {"lookahead": 0.1, "expert": 0.25, "oracle": 0.25}


@dataclass(frozen=True)
class Rung:
    label: str
    name: str  # policy name
    params: dict  # policy-parameter overrides (epsilon)
    bound: bool = False  # an upper bound (oracle), never "stronger play"

    @property
    def search(self) -> bool:
        return self.name in SEARCH


def rungs(spec) -> tuple[list[Rung], list[str]]:
    """The game's rungs, weakest first, and the ones left out (why)."""
    by_name = {p.name: p for p in spec.policies}
    out, left = [Rung("random", "random", {})], []
    greedy = by_name.get("greedy")
    if greedy is not None and any(p.name == "epsilon" for p in greedy.params):
        out += [Rung(f"greedy epsilon={e:g}", "greedy", {"epsilon": e}) for e in EPSILONS]
    else:
        left.append("greedy with epsilon: greedy has no epsilon parameter in this game")
    out.append(Rung("greedy", "greedy", {}))
    for name in ("lookahead", "expert", "oracle"):
        p = by_name.get(name)
        if p is None:
            if name != "oracle":
                left.append(f"{name}: not a policy of this game")
            continue
        if p.refused:
            left.append(f"{name}: {p.refused}")
            continue
        out.append(Rung(name, name, {}, bound=(name == "oracle")))
    return out, left


def default_games(game: str) -> int:
    return DEFAULT_GAMES.get(game, FALLBACK_GAMES)


def default_share(game: str, given: float | None = None) -> dict[str, float]:
    """The share of the deals each search rung plays (`given`: the same for all of them)."""
    if given is not None:
        return {name: float(given) for name in SEARCH}
    return dict(DEFAULT_SEARCH_SHARE.get(game, FALLBACK_SHARE))


def is_competitive(spec, players: int) -> bool:
    return players > 1 and not spec.cooperative


def parse_levels(spec, texts: list[str] | None) -> list[int] | None:
    """`--level 4`, `--level 1,4,6` or `--level 1 --level 4`: the levels, checked; None: not given."""
    if not texts:
        return None
    param = spec.param("level")
    if param is None:
        raise BalanceError(f"--level: {spec.name} has no difficulty levels")
    levels: list[int] = []
    for text in texts:
        for item in str(text).split(","):
            item = item.strip()
            if not item:
                continue
            try:
                lv = int(item)
            except ValueError:
                raise BalanceError(f"--level: '{item}' is not a level; allowed: {param.allowed()}, one or a list "
                                   f"like 1,4,6") from None
            if not param.low <= lv <= param.high:
                raise BalanceError(f"--level: {lv} is not allowed; allowed: {param.allowed()}")
            if lv not in levels:
                levels.append(lv)
    if not levels:
        raise BalanceError(f"--level: no level given; allowed: {param.allowed()}, one or a list like 1,4,6")
    return levels


def variant_name(level: int | None, label: str, seat: int | None) -> str:
    bits = ([f"level={level}"] if level is not None else []) + [label] + ([f"seat{seat + 1}"] if seat is not None else [])
    return "/".join(bits)


def ladder_config(spec, user: dict, players: int, seed: int, levels: list[int] | None,
                  chunk_size: int, share: dict[str, float]) -> tuple[RunConfig, list[Rung], list[str]]:
    """The run: one variant per (level, rung, seat of the rung), on the same deals."""
    rs, left = rungs(spec)
    pols: list[SeatPolicy] = []

    def index(p: SeatPolicy) -> int:
        if p not in pols:
            pols.append(p)
        return pols.index(p)

    greedy = index(resolve_policy(spec, "greedy"))
    competitive = is_competitive(spec, players)
    variants = []
    for level in levels or [None]:
        params = resolve(spec, {**user, **({"level": level} if level is not None else {})})
        for r in rs:
            pi = index(resolve_policy(spec, r.name, r.params))
            varied: dict[str, Any] = {RUNG_KEY: r.label, "rung_policy": r.name, "rung_params": r.params,
                                      "bound": r.bound}
            if level is not None:
                varied[LEVEL_KEY] = level
            if r.search and share.get(r.name, 1.0) < 1.0:
                varied[SHARE_KEY] = share[r.name]
            if competitive and pi != greedy:
                for seat in range(players):
                    seating = [greedy] * players
                    seating[seat] = pi
                    variants.append(Variant(variant_name(level, r.label, seat), params,
                                            {**varied, FOCAL_KEY: seat, SEATING_KEY: seating}))
            else:
                variants.append(Variant(variant_name(level, r.label, None), params,
                                        {**varied, FOCAL_KEY: None, SEATING_KEY: [pi] * players}))
    return RunConfig(spec.name, spec.modes[0], players, pols, seed, variants, chunk_size), rs, left


def default_chunk(n_games: int, share: dict[str, float]) -> int:
    """About ten chunks per cheap rung (a chunk's parts cost a fraction of a second to commit, so the
    cheap rungs' games are not spread over hundreds of chunks); a search rung's share is then one or a
    few chunks of its own (a killed run loses at most a chunk)."""
    del share  # the search rungs are sized by the same chunks
    return int(min(5_000, max(100, math.ceil(n_games / 10))))


def plan(config: RunConfig, n_games: int) -> list[dict]:
    """Per rung (and level): the games each of its variants plays, and how many variants."""
    out: dict[tuple, dict] = {}
    for v in config.variants:
        key = (v.varied.get(LEVEL_KEY), v.varied[RUNG_KEY])
        row = out.setdefault(key, {"level": key[0], "rung": key[1], "deals": variant_games(v, n_games), "variants": 0})
        row["variants"] += 1
    for row in out.values():
        row["games"] = row["deals"] * row["variants"]
    return list(out.values())


# ---------------------------------------------------------------- analysis of the folder


def _won(run_dir: Path) -> pl.DataFrame:
    from .frames import part_files, scan_parts

    lf = scan_parts(part_files(run_dir, "seats"), columns=["variant", "game_index", "seat", "won"])
    if lf is None:
        return pl.DataFrame(schema={"variant": pl.String, "game_index": pl.Int64, "seat": pl.Int8, "won": pl.Int8})
    return lf.collect()


def _per_deal(won: pl.DataFrame, variants: list[dict], players: int, competitive: bool) -> tuple[np.ndarray, np.ndarray]:
    """One rung's per-deal value (NaN where a deal is missing from any of its variants) and, for a
    competitive game, the per-deal fair share (mean winners per game / players); indexed by game."""
    names = [v["name"] for v in variants]
    sub = won.filter(pl.col("variant").is_in(names))
    if sub.height == 0:
        return np.zeros(0), np.zeros(0)
    size = int(sub["game_index"].max()) + 1
    value = np.zeros(size)
    fair = np.zeros(size)
    present = np.zeros(size, np.int64)
    for v in variants:
        rows = sub.filter(pl.col("variant") == v["name"])
        if rows.height == 0:
            continue
        g = rows["game_index"].to_numpy()
        s = rows["seat"].to_numpy().astype(np.int64)
        w = rows["won"].to_numpy().astype(float)
        mat = np.full((size, players), np.nan)
        mat[g, s] = w
        have = ~np.isnan(mat).any(axis=1)
        focal = v["varied"].get(FOCAL_KEY)
        if not competitive:
            val = np.nanmax(np.where(np.isnan(mat), -1.0, mat), axis=1)  # the team's (the player's) result
        elif focal is None:  # every seat plays the rung: each in turn is "the" seat
            val = np.nansum(mat, axis=1) / players
        else:
            val = mat[:, int(focal)]
        value[have] += val[have]
        fair[have] += np.nansum(mat, axis=1)[have] / players
        present[have] += 1
    k = len(variants)
    out = np.where(present == k, value / max(k, 1), np.nan)
    fr = np.where(present == k, fair / max(k, 1), np.nan)
    return out, fr


def _pair(x: np.ndarray, y: np.ndarray, binary: bool) -> dict | None:
    """y - x over the deals both played (paired)."""
    m = min(len(x), len(y))
    if m == 0:
        return None
    a, b = x[:m], y[:m]
    ok = ~(np.isnan(a) | np.isnan(b))
    if ok.sum() < 2:
        return None
    r = stats.paired_difference(a[ok], b[ok], binary=binary)
    return {"diff": r["diff"], "ci": r["ci"], "p": r["p"], "n": int(ok.sum()), "method": r.get("method")}


def _headline(x: np.ndarray, binary: bool) -> dict:
    v = x[~np.isnan(x)]
    if binary:
        r = stats.rate(float(v.sum()), int(v.size))
        return {"value": r["value"], "ci": r["ci"], "n": r["n"], "k": r["k"], "interval": "Wilson"}
    r = stats.mean_ci(v)
    lo, hi = r["ci"]
    return {"value": r["value"], "ci": [None if lo is None else max(0.0, lo), None if hi is None else min(1.0, hi)],
            "n": r["n"], "interval": "normal, over deals"}


def analyse(run_dir: Path, manifest: dict, spec=None, margin: float = 0.02) -> dict:
    """The ladder of a ladder folder, from its committed parts alone."""
    run_dir = Path(run_dir)
    cfg = manifest["config"]
    players = int(cfg["players"])
    cooperative = bool(getattr(spec, "cooperative", players == 1)) if spec is not None else players == 1
    competitive = players > 1 and not cooperative
    binary = not competitive
    won = _won(run_dir)
    groups: dict[tuple, list[dict]] = {}
    for v in cfg["variants"]:
        varied = v.get("varied") or {}
        if RUNG_KEY not in varied:
            raise BalanceError(f"{run_dir / 'manifest.json'}: variant {v.get('name')!r} has no rung; "
                               "allowed: a folder written by balance ladder")
        groups.setdefault((varied.get(LEVEL_KEY), varied[RUNG_KEY]), []).append(v)
    rung_info = {}
    share = {}
    for v in cfg["variants"]:
        varied = v.get("varied") or {}
        rung_info.setdefault(varied[RUNG_KEY], {"name": varied.get("rung_policy") or varied[RUNG_KEY].split(" ")[0],
                                                "params": varied.get("rung_params") or {},
                                                "bound": bool(varied.get("bound"))})
        if SHARE_KEY in varied:
            share[varied[RUNG_KEY]] = varied[SHARE_KEY]
    left_out = rungs(spec)[1] if spec is not None else []
    levels = list(dict.fromkeys(k[0] for k in groups))
    ladders = []
    for level in levels:
        entries, series = [], {}
        for (lv, label), vs in groups.items():
            if lv != level:
                continue
            x, fair = _per_deal(won, vs, players, competitive)
            series[label] = x
            info = rung_info.get(label, {})
            e = {"name": info["name"], "label": label, **_headline(x, binary),
                 "bound": bool(info.get("bound")), "variants": len(vs)}
            if info.get("params"):
                e["params"] = info["params"]
            if competitive:
                f = fair[~np.isnan(fair)]
                e["fair_share"] = float(f.mean()) if f.size else None
                d = _pair(fair, x, False)
                if d is not None:
                    d["verdict"] = stats.margin_verdict(d["diff"], d["ci"], margin, n=d["n"])
                    d["significant"] = bool(d["ci"][0] is not None and (d["ci"][0] > 0 or d["ci"][1] < 0))
                e["vs_fair"] = d
            entries.append(e)
        for e in entries:
            e["vs"] = {}
            for o in entries:
                if o is e:
                    continue
                d = _pair(series[o["label"]], series[e["label"]], binary)
                if d is not None:
                    e["vs"][o["label"]] = d
        params = next(v["params"] for (lv, _), vs in groups.items() if lv == level for v in vs)
        ladders.append({"kind": KIND, "game": cfg["game"], "players": players, "params": params,
                        **({"level": level} if level is not None else {}),
                        "metric": _metric_words(competitive, players, cooperative),
                        "paired": True, "policies": entries, "skill": skill(entries, competitive)})
    return {"kind": KIND, "game": cfg["game"], "title": cfg.get("title", cfg["game"]), "players": players,
            "competitive": competitive, "cooperative": cooperative, "seed": cfg["seed"],
            "n_requested": manifest.get("n_games"), "search_share": share,
            "levels": [lv for lv in levels if lv is not None], "left_out": left_out,
            "engine_hash": cfg.get("engine_hash"), "margin": margin, "ladders": ladders,
            "verdicts": verdicts(ladders, margin),
            "complete": _complete(ladders, manifest), "policies": cfg.get("policies")}


def verdicts(ladders: list[dict], margin: float) -> dict:
    """The ladder's verdicts against the margin (as summary.json's and comparison.json's `verdicts`), each
    read from the paired interval the report prints: how much skill matters (the strongest real player
    minus random), whether stronger play than greedy moves greedy's figures, and, in a competitive game,
    each rung's seat against its fair share."""
    items = []
    for lad in ladders:
        level = lad.get("level")
        sk = lad.get("skill")
        if sk and sk.get("diff") is not None:
            items.append({"id": "skill", "level": level, "question": "How much does skill matter?",
                          "metric": f"win rate, {sk['figure']}", "top": sk["top"], "base": sk["base"],
                          "estimate": sk["diff"], "ci": sk["ci"], "n": sk.get("n"), "p": sk.get("p"),
                          **stats.margin_verdict(sk["diff"], sk["ci"], margin, n=sk.get("n"))})
            og = sk.get("over_greedy")
            if og and og.get("diff") is not None:
                items.append({"id": "headroom", "level": level,
                              "question": "Would stronger play than greedy move greedy's figures?",
                              "metric": f"win rate, {og['figure']}", "top": sk["top"], "base": "greedy",
                              "estimate": og["diff"], "ci": og["ci"], "n": og.get("n"), "p": og.get("p"),
                              **stats.margin_verdict(og["diff"], og["ci"], margin, n=og.get("n"))})
        for e in lad["policies"]:
            vf = e.get("vs_fair") or {}
            if e.get("bound") or not vf.get("verdict") or (e["name"] == "greedy" and not e.get("params")):
                continue  # greedy among greedy seats is the fair share by construction: nothing measured
            items.append({"id": "vs_fair", "level": level, "policy": e["label"],
                          "question": f"Does one {e['label']} seat among greedy seats win its fair share?",
                          "metric": f"{e['label']} seat's win rate minus its fair share", "estimate": vf["diff"],
                          "ci": vf["ci"], "n": vf.get("n"), "p": vf.get("p"), **vf["verdict"]})
    counts: dict[str, int] = {}
    for it in items:
        counts[it["verdict"]] = counts.get(it["verdict"], 0) + 1
    return {"margin": margin, "margin_kind": "absolute, in win-rate points (0.02 = 2 points)", "items": items,
            "counts": counts}


def _complete(ladders: list[dict], manifest: dict) -> bool:
    from .runs import config_from_manifest

    config = config_from_manifest(manifest)
    want = {(v.varied.get(LEVEL_KEY), v.varied[RUNG_KEY]): variant_games(v, manifest["n_games"]) for v in config.variants}
    for lad in ladders:
        for e in lad["policies"]:
            if e["n"] < want.get((lad.get("level"), e["label"]), 0):
                return False
    return True


def _metric_words(competitive: bool, players: int, cooperative: bool) -> str:
    if competitive:
        return (f"win rate of one seat of the policy among {players - 1} greedy seat{'s' if players > 2 else ''} "
                f"(seats rotated)")
    return "win rate" if players == 1 else "team win rate (every seat the policy)"


def skill(entries: list[dict], competitive: bool) -> dict | None:
    """'How much skill matters': the strongest real player's headline (the oracle left out: it is no
    player) minus random's, paired on the same deals. The strongest is expert, unless another rung
    beats it significantly on the same deals (Four Day Weekend's and Overtime's lookahead, session 9):
    then the best of those; a rung that is merely higher on a few deals does not displace it."""
    real = [e for e in entries if not e.get("bound") and e.get("value") is not None]
    base = next((e for e in real if e["name"] == "random"), None)
    above = [e for e in real if e is not base]
    top = next((e for e in above if e["name"] == "expert"), None)
    if top is not None:
        better = [e for e in above if e is not top and ((e["vs"].get(top["label"]) or {}).get("ci") or [None])[0]
                  is not None and e["vs"][top["label"]]["ci"][0] > 0]
        top = max(better, key=lambda e: e["value"]) if better else top
    elif above:
        top = max(above, key=lambda e: e["value"])
    if base is None or top is None or base["label"] not in top["vs"]:
        return None
    d = top["vs"][base["label"]]
    out = {"figure": f"{top['label']} minus {base['label']}", "top": top["label"], "base": base["label"], **d}
    greedy = next((e for e in real if e["label"] == "greedy"), None)
    if greedy is not None and greedy is not top and greedy["label"] in top["vs"]:
        out["over_greedy"] = {"figure": f"{top['label']} minus greedy", **top["vs"]["greedy"]}
    expert = next((e for e in real if e["name"] == "expert"), None)
    if expert is not None and expert is not top and greedy is not None and "greedy" in expert["vs"]:
        out["expert_vs_greedy"] = {"figure": "expert minus greedy", **expert["vs"]["greedy"]}
    return out


def hook(result: dict) -> dict:
    """ladder.json: one ladder (one setting), or several under `ladders` (one per level)."""
    meta = {"seed": result["seed"], "engine_hash": result.get("engine_hash"), "complete": result["complete"],
            "generated": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    if len(result["ladders"]) == 1:
        return {**result["ladders"][0], **meta}
    return {"kind": KIND, "game": result["game"], "players": result["players"], "ladders": result["ladders"], **meta}


def write(run_dir: Path, result: dict, command: str | None = None) -> None:
    from .runs import _write_json

    run_dir = Path(run_dir)
    _write_json(run_dir / LADDER_FILE, _jsonable(hook(result)))
    _write_json(run_dir / SUMMARY_FILE, _jsonable({**result, "command": command,
                                                   "generated": datetime.now(timezone.utc).isoformat(timespec="seconds")}))


def read_summary(run_dir: Path) -> dict:
    path = Path(run_dir) / SUMMARY_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
