"""`balance ladder`: the same deals played by players of rising skill, in one
run folder, paired (issue 22).

The rungs (weakest first): `random`, `greedy` with a share of random moves
(`epsilon`, EPSILONS), `greedy`, `lookahead`, `expert` and, where the game
has one, `oracle` (an open-hand search: it sees the hidden cards, it is
never "a player" and, as it searches a few lines only, no upper bound). A
policy the game refuses (sickdays-party's expert) is left out and named in
`left_out`.

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

Competitive games also play the search rungs head to head (expert against lookahead: with 2 players one
seat each, seats swapped; with more, one expert seat among lookahead seats, moved round the table), and
every pairing of rungs at one table (a rung's seat against each greedy seat, expert against each
lookahead seat) feeds one Bradley-Terry tournament (analysis.tournament): ratings with bootstrap
intervals over deals, and a verdict per pair of rungs from its interval ("expert beats lookahead" or
"cannot be told apart").

"How much skill matters" is the best rung minus the weakest. Both are chosen from data (the ratings, or
the solo win rates), so they are chosen on the even-numbered deals and the figure is measured on the
odd-numbered ones, which did not choose them (paired: exact McNemar, or a t interval over deals).

The open-hand search (`oracle`) sees the hidden cards but does not search every line: it is not a
player, and not an upper bound either (issue 42: at solo level 4 it lost deals expert won). Where the
game has an exhaustive solver (`simcore.<game>.solver`, found by `solver_for`: Sick Days solo/co-op),
`solve_bound` solves the deals the search rungs played and writes `bound.json`; the ladder then says
which share of the deals some line wins, counting the deals the solver could not finish both ways
("between X% and Y%").

`ladder.json` is the hook reports.context reads (its docstring: one ladder per
setting; several levels give `{"kind": "ladder", "ladders": [...]}`; its schema:
analysis.ladder_result.LadderFile), and `summary.json` holds analyse's whole
result (analysis.ladder_result.LadderAnalysis) with the command.
"""
from __future__ import annotations

import importlib
import json
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from balance.simcore.batch import SeatPolicy, resolve_policy
from balance.simcore.errors import BalanceError
from balance.simcore.params import resolve

from . import stats
from . import tournament as bradley_terry
from .runs import SEATING_KEY, SHARE_KEY, RunConfig, Variant, _jsonable, variant_games

LADDER_FILE = "ladder.json"
SUMMARY_FILE = "summary.json"
KIND = "ladder"
EPSILONS = (0.5, 0.2)  # greedy with this share of its moves random: weaker players
SEARCH = ("lookahead", "expert", "oracle")
RUNG_KEY = "rung"
FOCAL_KEY = "focal_seat"  # the seat the rung's policy sits at (competitive games), None: every seat
LEVEL_KEY = "level"
H2H_KEY = "head_to_head"  # a table of two search rungs ([A, B]: one A seat, the others B), not a rung
SEAT_RUNGS_KEY = "seat_rungs"  # the rung at each seat (competitive games)
HEAD_TO_HEAD = (("expert", "lookahead"),)  # played head to head where both are on the ladder
BOUND_FILE = "bound.json"
OPEN_HAND = "open-hand search"  # what the oracle rung is: it sees the hidden cards, it is no bound

# Deals per cheap rung, and the share of them each search rung plays: each game's spec declares them
# (`budgets.ladder_games`, `budgets.ladder_search_share`), chosen so that `balance ladder --game G`
# finishes in a few minutes on 2 cores; these are for a game that does not.
FALLBACK_GAMES = 2_000
FALLBACK_SHARE = {"lookahead": 0.1, "expert": 0.25, "oracle": 0.25}


@dataclass(frozen=True)
class Rung:
    label: str
    name: str  # policy name
    params: dict  # policy-parameter overrides (epsilon)
    bound: bool = False  # not a player (oracle, the open-hand search: no upper bound either), never "stronger play"

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


def default_solver_nodes(game: str) -> int:
    """The solver's budget of nodes (`step` calls) a deal: its module's DEFAULT_NODES (0: no solver)."""
    m = solver_for(game)
    return int(getattr(m, "DEFAULT_NODES", 0)) if m is not None else 0


def _budgets(game: str):
    from balance.simcore import registry
    from balance.simcore.spec import Budgets

    try:
        return registry.get(game).budgets
    except BalanceError:
        return Budgets()


def default_games(game: str) -> int:
    return _budgets(game).ladder_games or FALLBACK_GAMES


def default_share(game: str, given: float | None = None) -> dict[str, float]:
    """The share of the deals each search rung plays (`given`: the same for all of them)."""
    if given is not None:
        return {name: float(given) for name in SEARCH}
    share = _budgets(game).ladder_search_share
    return dict(share) if share is not None else dict(FALLBACK_SHARE)


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
                    labels = ["greedy"] * players
                    labels[seat] = r.label
                    variants.append(Variant(variant_name(level, r.label, seat), params,
                                            {**varied, FOCAL_KEY: seat, SEATING_KEY: seating,
                                             SEAT_RUNGS_KEY: labels}))
            else:
                variants.append(Variant(variant_name(level, r.label, None), params,
                                        {**varied, FOCAL_KEY: None, SEATING_KEY: [pi] * players,
                                         **({SEAT_RUNGS_KEY: [r.label] * players} if competitive else {})}))
        if competitive:
            variants += head_to_head_variants(spec, rs, players, level, params, share, index)
    return RunConfig(spec.name, spec.modes[0], players, pols, seed, variants, chunk_size), rs, left


def h2h_label(a: str, b: str, players: int) -> str:
    return f"{a} vs {b}" if players == 2 else f"one {a} among {b}"


def head_to_head_variants(spec, rs: list[Rung], players: int, level, params: dict, share: dict[str, float],
                          index) -> list[Variant]:
    """The search rungs head to head (HEAD_TO_HEAD): one A seat, every other seat B, A's seat moved round
    the table; on the deals both rungs play (the smaller share)."""
    present = {r.name: r for r in rs if not r.bound and not r.params}
    out = []
    for a, b in HEAD_TO_HEAD:
        if a not in present or b not in present:
            continue
        pa, pb = index(resolve_policy(spec, a)), index(resolve_policy(spec, b))
        label = h2h_label(a, b, players)
        sh = min(share.get(a, 1.0), share.get(b, 1.0))
        for seat in range(players):
            seating = [pb] * players
            seating[seat] = pa
            labels = [b] * players
            labels[seat] = a
            varied: dict[str, Any] = {RUNG_KEY: label, H2H_KEY: [a, b], FOCAL_KEY: seat, SEATING_KEY: seating,
                                      SEAT_RUNGS_KEY: labels, "rung_policy": a, "rung_params": {}, "bound": False}
            if level is not None:
                varied[LEVEL_KEY] = level
            if sh < 1.0:
                varied[SHARE_KEY] = sh
            out.append(Variant(variant_name(level, label, seat), params, varied))
    return out


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
        fair[have] += stats.fair_share(np.nansum(mat, axis=1)[have], 1, players)
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
    """The ladder of a ladder folder, from its committed parts (and bound.json) alone."""
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
                                                "bound": bool(varied.get("bound")), "h2h": varied.get(H2H_KEY)})
        if SHARE_KEY in varied:
            share[varied[RUNG_KEY]] = varied[SHARE_KEY]
    left_out = rungs(spec)[1] if spec is not None else []
    levels = list(dict.fromkeys(k[0] for k in groups))
    bound_file = read_bound(run_dir)
    if bound_file.get("seed") != cfg["seed"] or bound_file.get("players") != players:
        bound_file = {}  # solved for other deals: not these
    ladders = []
    for level in levels:
        entries, series, h2h = [], {}, []
        for (lv, label), vs in groups.items():
            if lv != level:
                continue
            x, fair = _per_deal(won, vs, players, competitive)
            info = rung_info.get(label, {})
            e = {"name": info["name"], "label": label, **_headline(x, binary),
                 "bound": bool(info.get("bound")), "variants": len(vs)}
            if info.get("bound"):
                e["open_hand"] = True  # sees the hidden cards: not a player, and no upper bound either
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
            if info.get("h2h"):
                e["a"], e["b"] = info["h2h"]
                e["table"] = _table_words(label, info["h2h"], players)
                h2h.append(e)
                continue
            series[label] = x
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
        lad = {"kind": KIND, "game": cfg["game"], "players": players, "params": params,
               **({"level": level} if level is not None else {}),
               "metric": _metric_words(competitive, players, cooperative),
               "paired": True, "policies": entries}
        if competitive:
            lad["head_to_head"] = h2h
            lad["tournament"] = tournament(won, [vs for (lv, _), vs in groups.items() if lv == level], players,
                                           [e["label"] for e in entries if not e.get("bound")], int(cfg["seed"]))
        lad["skill"] = skill(entries, competitive, series)
        b = bound_entry(bound_file, level, series, entries)
        if b is not None:
            lad["solver_bound"] = b
        ladders.append(lad)
    return {"kind": KIND, "game": cfg["game"], "title": cfg.get("title", cfg["game"]), "players": players,
            "competitive": competitive, "cooperative": cooperative, "seed": cfg["seed"],
            "n_requested": manifest.get("n_games"), "search_share": share,
            "levels": [lv for lv in levels if lv is not None], "left_out": left_out,
            "engine_hash": cfg.get("engine_hash"), "margin": margin, "ladders": ladders,
            "verdicts": verdicts(ladders, margin),
            "complete": _complete(ladders, manifest), "policies": cfg.get("policies")}


def _table_words(label: str, pair, players: int) -> str:
    a, b = pair
    return f"{a} against {b}, seats swapped" if players == 2 else \
        f"one {a} seat among {players - 1} {b} seats, moved round the table"


# ---------------------------------------------------------------- the tournament (competitive games)


def _seat_rungs(v: dict, players: int) -> list[str]:
    varied = v.get("varied") or {}
    labels = varied.get(SEAT_RUNGS_KEY)
    if labels:
        return [str(x) for x in labels]
    focal = varied.get(FOCAL_KEY)  # a folder written before the seats' rungs were recorded
    out = ["greedy"] * players if focal is not None else [varied[RUNG_KEY]] * players
    if focal is not None:
        out[int(focal)] = varied[RUNG_KEY]
    return out


def pairings(won: pl.DataFrame, tables: list[list[dict]], players: int) -> list[bradley_terry.Pairing]:
    """Every pair of different rungs seated at one table, per deal: the share of their seat pairs each won
    (A's seat won and B's did not), over the table's variants (its rotations), on the deals all of them
    played. One table counts once per deal."""
    out = []
    for vs in tables:
        names = [v["name"] for v in vs]
        sub = won.filter(pl.col("variant").is_in(names))
        if sub.height == 0:
            continue
        size = int(sub["game_index"].max()) + 1
        acc: dict[tuple[str, str], list] = {}
        present = np.zeros(size, np.int64)
        for v in vs:
            rows = sub.filter(pl.col("variant") == v["name"])
            if rows.height == 0:
                continue
            mat = np.full((size, players), np.nan)
            mat[rows["game_index"].to_numpy(), rows["seat"].to_numpy().astype(np.int64)] = rows["won"].to_numpy()
            have = ~np.isnan(mat).any(axis=1)
            present[have] += 1
            labels = _seat_rungs(v, players)
            m = np.nan_to_num(mat) > 0.5
            for s in range(players):
                for t in range(players):
                    if labels[s] == labels[t]:
                        continue
                    a, b = sorted((labels[s], labels[t]))
                    if labels[s] != a:
                        continue  # each seat pair once, from A's side
                    slot = acc.setdefault((a, b), [np.zeros(size), np.zeros(size), 0])
                    slot[0] += np.where(have, m[:, s] & ~m[:, t], 0)
                    slot[1] += np.where(have, m[:, t] & ~m[:, s], 0)
                    slot[2] += 1
        full = present == len(vs)
        deals = np.flatnonzero(full).astype(np.int64)
        table = vs[0]["varied"][RUNG_KEY]
        for (a, b), (aw, bw, k) in acc.items():
            per = k / len(vs)  # seat pairs of (a, b) per variant
            out.append(bradley_terry.Pairing(a, b, deals, aw[full] / (len(vs) * per), bw[full] / (len(vs) * per), table))
    return out


def tournament(won: pl.DataFrame, tables: list[list[dict]], players: int, labels: list[str], seed: int) -> dict:
    """Bradley-Terry ratings of the rungs (analysis.tournament) from every table of the ladder, greedy at
    0; the pairings it was fitted on are listed with it."""
    prs = [p for p in pairings(won, tables, players) if p.a in labels and p.b in labels]
    r = bradley_terry.ratings(labels, prs, "greedy", seed=seed)
    r["connected"] = bradley_terry.connected([p["label"] for p in r.get("players", [])], prs)
    return r


# ---------------------------------------------------------------- the solver's bound (Sick Days solo / co-op)


def solver_for(game: str):
    """The game's exhaustive solver: the module `simcore.<game package>.solver`, if it exists and has
    `solve_deals`; None for every game without one."""
    from balance.simcore import registry

    if game not in registry.GAMES:
        return None
    mod = registry.package(game)
    try:
        m = importlib.import_module(f"{mod}.solver")
    except ModuleNotFoundError as exc:
        if exc.name == f"{mod}.solver":
            return None
        raise
    return m if hasattr(m, "solve_deals") else None


def _json_object(path: Path) -> dict:
    """The file's JSON object; {} for a file that is missing, unreadable or not a JSON object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def read_bound(run_dir: Path) -> dict:
    data = _json_object(Path(run_dir) / BOUND_FILE)
    return data if data.get("kind") == "bound" else {}


def bound_deals(config: RunConfig, n_games: int) -> dict:
    """Per level, the deals the solver solves: the ones expert plays (else the most any search rung plays)."""
    out: dict = {}
    for v in config.variants:
        varied = v.varied or {}
        if varied.get(H2H_KEY) or not (varied.get("rung_policy") in SEARCH):
            continue
        level = varied.get(LEVEL_KEY)
        m = variant_games(v, n_games)
        if varied.get("rung_policy") == "expert":
            out[level] = ("expert", m)
        elif out.get(level, ("", 0))[0] != "expert":
            out[level] = ("", max(m, out.get(level, ("", 0))[1]))
    return {lv: m for lv, (_, m) in out.items()}


def solve_bound(run_dir: Path, config: RunConfig, spec, n_games: int, nodes: int, progress=None) -> dict | None:
    """Solve the deals of each level with the game's solver (none: None), keeping what bound.json already
    holds for the same seed and node budget (a stopped run resumes); writes bound.json as it goes."""
    solver = solver_for(spec.name)
    if solver is None or nodes <= 0:
        return None
    from .runs import _write_json

    run_dir = Path(run_dir)
    old = read_bound(run_dir)
    same = old.get("seed") == config.seed and old.get("nodes") == nodes and old.get("players") == config.players
    data = {"kind": "bound", "game": spec.name, "seed": config.seed, "players": config.players, "nodes": nodes,
            "solver": solver.__name__, "levels": old.get("levels", []) if same else []}
    greedy = np.asarray(resolve_policy(spec, "greedy").params, np.float64)
    params_of = {}
    for v in config.variants:
        params_of.setdefault((v.varied or {}).get(LEVEL_KEY), v.params)
    for level, m in bound_deals(config, n_games).items():
        entry = next((e for e in data["levels"] if e.get("level") == level), None)
        if entry is None:
            entry = {"level": level, "game_index": [], "result": [], "nodes": [], "replayed": [], "lines": []}
            data["levels"].append(entry)
        tables = spec.load_data(params_of[level]).tables
        done = set(entry["game_index"])
        todo = [g for g in range(m) if g not in done]
        for lo in range(0, len(todo), 25):
            part = todo[lo:lo + 25]
            r = solver.solve_deals(tables, config.players, config.seed, part, greedy, nodes)
            entry["game_index"] += [int(g) for g in r["game_index"]]
            entry["result"] += [int(x) for x in r["result"]]
            entry["nodes"] += [int(x) for x in r["nodes"]]
            entry["replayed"] += [int(x) for x in r["replayed"]]
            entry["lines"] += [[int(o) for o in line] for line in r["lines"]]
            _write_json(run_dir / BOUND_FILE, data)
            if progress is not None:
                progress(level, len(entry["game_index"]), m)
    _write_json(run_dir / BOUND_FILE, data)
    return data


def bound_entry(bound: dict, level, series: dict, entries: list[dict]) -> dict | None:
    """The bound at one level: deals some line wins, counting the unknown deals both ways, each share with
    its Wilson interval; and, per rung on the same deals, its wins and the deals it won that the solver
    calls not winnable (none, or the solver is wrong)."""
    e = next((x for x in bound.get("levels", []) if x.get("level") == level), None)
    if e is None or not e.get("game_index"):
        return None
    idx = np.asarray(e["game_index"], np.int64)
    res = np.asarray(e["result"], np.int64)
    n = int(idx.size)
    win = int((res == 1).sum())
    lost = int((res == 0).sum())
    unknown = int((res == -1).sum())
    low, high = stats.rate(win, n), stats.rate(win + unknown, n)
    out = {"deals": n, "winnable": win, "not_winnable": lost, "unknown": unknown, "nodes": bound.get("nodes"),
           "low": low, "high": high, "ci": [low["ci"][0], high["ci"][1]],
           "replayed": int(np.asarray(e.get("replayed") or [0]).sum()),
           "nodes_median": float(np.median(e["nodes"])) if e.get("nodes") else None,
           "how": "exhaustive search knowing the deck order and how every shuffle falls (the game's own chance "
                  "streams), every winning line replayed through the engine's own legal/step"}
    rungs_on = {}
    for ent in entries:
        x = series.get(ent["label"])
        if x is None:
            continue
        inside = idx < x.size
        vals = x[idx[inside]]
        have = ~np.isnan(vals)
        if not have.any():
            continue
        r = res[inside][have]
        v = vals[have] > 0.5
        rungs_on[ent["label"]] = {"deals": int(have.sum()), "won": int(v.sum()),
                                  "won_not_winnable": int((v & (r == 0)).sum()),
                                  "rate": stats.rate(int(v.sum()), int(have.sum()))}
    out["rungs"] = rungs_on
    return out


def verdicts(ladders: list[dict], margin: float) -> dict:
    """The ladder's verdicts against the margin (as summary.json's and comparison.json's `verdicts`), each
    read from the paired interval the report prints: how much skill matters (the best rung minus the
    weakest, both chosen on the even-numbered deals, measured on the odd-numbered ones), whether stronger play than greedy moves greedy's figures, and, in a competitive game,
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
        for e in lad["policies"] + lad.get("head_to_head", []):
            if e["n"] < want.get((lad.get("level"), e["label"]), 0):
                return False
    return True


def _metric_words(competitive: bool, players: int, cooperative: bool) -> str:
    if competitive:
        return (f"win rate of one seat of the policy among {players - 1} greedy seat{'s' if players > 2 else ''} "
                f"(seats rotated)")
    return "win rate" if players == 1 else "team win rate (every seat the policy)"


def skill(entries: list[dict], competitive: bool, series: dict | None = None, _fit=None) -> dict | None:
    """'How much skill matters': the best rung minus the weakest (the open-hand search left out: it is no
    player). Both are chosen from data, so they are chosen on the even-numbered deals (the highest and
    the lowest mean there) and the difference is measured on the odd-numbered deals, paired (exact McNemar
    for win/loss, a t interval over deals for a competitive seat's value). `over_greedy`: the best minus
    greedy on the same odd deals; `expert_vs_greedy`: expert minus greedy on every deal (not chosen)."""
    real = [e for e in entries if not e.get("bound") and e.get("value") is not None]
    if series is None or len(real) < 2:
        return None
    binary = not competitive

    def on(e, parity):
        x = series[e["label"]][parity::2]
        return x[~np.isnan(x)]

    chosen = {e["label"]: on(e, 0) for e in real}
    usable = [e for e in real if chosen[e["label"]].size]
    if len(usable) < 2:
        return None
    top = max(usable, key=lambda e: (float(chosen[e["label"]].mean()), e["label"] == "expert"))
    base = min(usable, key=lambda e: (float(chosen[e["label"]].mean()), e["label"] != "random"))
    if top is base:
        return None
    d = _pair(series[base["label"]][1::2], series[top["label"]][1::2], binary)
    if d is None:
        return None
    out = {"figure": f"{top['label']} minus {base['label']}", "top": top["label"], "base": base["label"], **d,
           "chosen_on": {"deals": "even-numbered", "means": {k: float(v.mean()) for k, v in chosen.items() if v.size},
                         "n": {k: int(v.size) for k, v in chosen.items()}},
           "measured_on": "odd-numbered deals (not used to choose the two rungs)"}
    greedy = next((e for e in real if e["label"] == "greedy"), None)
    if greedy is not None and greedy is not top:
        og = _pair(series["greedy"][1::2], series[top["label"]][1::2], binary)
        if og is not None:
            out["over_greedy"] = {"figure": f"{top['label']} minus greedy", **og}
    expert = next((e for e in real if e["name"] == "expert"), None)
    if expert is not None and expert is not top and greedy is not None and "greedy" in expert["vs"]:
        out["expert_vs_greedy"] = {"figure": "expert minus greedy", **expert["vs"]["greedy"]}
    return out


def ladder_result(result: dict):
    """analyse's result as its model (analysis.ladder_result.LadderAnalysis)."""
    from .ladder_result import LadderAnalysis

    return LadderAnalysis.model_validate(_jsonable(result))


def write(run_dir: Path, result: dict, command: str | None = None):
    """ladder.json (its schema: analysis.ladder_result.LadderFile) and the folder's summary.json (analyse's
    result, with the command and when); return analyse's result as its model."""
    from .ladder_result import LadderFile
    from .runs import _write_json

    run_dir = Path(run_dir)
    model = ladder_result(result)
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    LadderFile.of(model, now).write(run_dir)
    _write_json(run_dir / SUMMARY_FILE, _jsonable({**result, "command": command, "generated": now}))
    return model


def read_summary(run_dir: Path) -> dict:
    return _json_object(Path(run_dir) / SUMMARY_FILE)
