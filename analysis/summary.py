"""summary.json: the machine-readable result of a run, for every game.

`summarize_frames` is pure (frames + manifest + spec -> dict); `summarize` reads
a run folder; `write_summary` writes `summary.json` beside the parts. Every rate
carries its 95% interval and n; every comparison a p-value and verdict.

Games ended by the turn cap are counted like any other game (as the result the
game wrote, normally a loss) and reported under `capped`, never dropped.

Memory: every block of games is summarised from mergeable accumulators (counts,
`stats.Moments` for means, value-count tables for the length distributions)
fed window by window (`analysis.frames.windows`: WINDOW_GAMES game indices, all
variants together), so a run folder is read a window at a time and the peak
does not grow with the number of games. Medians, quantiles, histograms and the
bootstrap intervals come from the value-count tables and equal what the rows
give; means agree with one pass over the rows to float rounding (~1e-16).
The game's own metrics are declared in its spec (`simcore.metrics`) and
computed the same way (`analysis.metrics.GameMetrics`: rates by counts,
means by moments, distributions by value counts), so memory stays flat for
every game. docs/run-folder.md, "Reading a run".

Here: the sources of the games (a folder read a window at a time, or frames
in memory), the sweep's paired comparisons, seat rotations, the level ladder,
completion, and the assembly of summary.json. One block's headline fields are
in analysis.summary_block, the verdicts, headline and alerts in
analysis.findings.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import polars as pl

from . import cards as card_impact
from .distributions import distribution, distribution_counts, histogram, histogram_counts  # noqa: F401
from .findings import alerts, headline, verdicts
from .frames import load_manifest, part_files, scan_parts, windows
from .metrics import GameMetrics
from .jsonsafe import jsonable  # noqa: F401  (summary.jsonable: compare, skill check and others use it)
from .stats import (
    ALPHA,
    DEFAULT_MARGIN,
    Moments,
    WinPatterns,
    family_level,
    margin_verdict,
    mean_difference,
    paired_binary,
    rate,
    seat_balance,
)
from .summary_block import Block, _decode, game_results, seat_fields
from .summary_result import SummaryResult

STOPPING_FILE = "stopping.json"
ROTATION_KEY = "seat_rotation"  # a variant's `varied` entry in a seat-rotated run (analysis.runs)
SUMMARY_FILE = "summary.json"
CHECK_KIND = "skill-check"  # the manifest kind of a run's skill check (analysis.skill_check)
WINDOW_GAMES = 50_000  # game indices read at a time from a run folder, over all variants together


def _variant_params(manifest: dict) -> dict[str, dict]:
    config = manifest.get("config", {})
    base = dict(config.get("params") or {})
    return {v.get("name"): {**base, **(v.get("params") or {})} for v in config.get("variants") or []}


def _variant_varied(manifest: dict) -> dict[str, dict]:
    """The grid point of each variant (what the sweep varied), when the manifest says."""
    return {v.get("name"): dict(v.get("varied") or {}) for v in manifest.get("config", {}).get("variants") or []}


class _LevelLadder:
    """Wins and games per value of a `level` game column, window by window."""

    def __init__(self):
        self.levels: dict = {}

    def add(self, res: pl.DataFrame) -> None:
        if "level" not in res.columns or not res.height:
            return
        agg = res.group_by("level").agg(pl.col("won").cast(pl.Int64).sum().alias("k"), pl.len().alias("n"))
        for r in agg.iter_rows(named=True):
            acc = self.levels.setdefault(r["level"], [0, 0])
            acc[0] += int(r["k"])
            acc[1] += int(r["n"])

    def rows(self) -> list[dict]:
        if len(self.levels) <= 1:
            return []
        order = sorted(self.levels, key=lambda lv: (lv is not None, lv))  # as polars sorts: nulls first
        return [{"level": jsonable(lv), **rate(*self.levels[lv])} for lv in order]


def ladder(games: pl.DataFrame, seats: pl.DataFrame, variants: list[dict], levels: _LevelLadder | None = None) -> list[dict]:
    """Win rate per difficulty level, when several levels ran: from a `level`
    game column, or from variants that differ only in their `level` parameter.
    `levels` is the column's tally when the caller read the games window by window."""
    if levels is None:
        levels = _LevelLadder()
        if "level" in games.columns:
            levels.add(game_results(games, seats))
    rows = levels.rows()
    if rows:
        return rows
    if len(variants) > 1 and all(set(v.get("varied") or {}) == {"level"} for v in variants):
        rows = [{"level": var["varied"]["level"], "variant": var["name"], **rate(var["wins"], var["n_games"])}
                for var in variants]
        return sorted(rows, key=lambda r: (r["level"] is None, r["level"]))
    if len(variants) > 1 and all("level" in v["params"] for v in variants):
        others = [{k: v for k, v in var["params"].items() if k != "level"} for var in variants]
        levels_ = [var["params"]["level"] for var in variants]
        if len(set(map(str, levels_))) > 1 and all(o == others[0] for o in others):
            rows = [{"level": var["params"]["level"], "variant": var["name"], **rate(var["wins"], var["n_games"])}
                    for var in variants]
            return sorted(rows, key=lambda r: (r["level"] is None, r["level"]))
    return []


# ---------------------------------------------------------------- sweeps
class _Paired:
    """`paired_vs_first`, window by window: a window holds every variant's
    games of the same game indices, so each pair is complete in one window.
    The win rate as a paired 2x2 table (exact McNemar), the length as moments
    of the per-game differences."""

    METRICS = (("win_rate", "won"), ("length_mean", "length"))

    def __init__(self, variant_names: list[str], length_col: str = "decisions"):
        self.names = list(variant_names)
        self.length_col = length_col
        self.seen = False
        self.acc = {name: {"n_pairs": 0, "table": [0, 0, 0, 0], "length_mean": Moments()} for name in self.names[1:]}

    def add(self, res: pl.DataFrame) -> None:
        if len(self.names) < 2 or res.is_empty():
            return
        self.seen = True
        length_col = self.length_col
        r = res.select("variant", "game_index", pl.col("won").cast(pl.Int64),
                       pl.col(length_col).cast(pl.Float64).alias("length"))
        base = r.filter(pl.col("variant") == self.names[0]).drop("variant")
        for name in self.names[1:]:
            both = base.join(r.filter(pl.col("variant") == name).drop("variant"), on="game_index", suffix="_b")
            acc = self.acc[name]
            acc["n_pairs"] += both.height
            x, y = both["won"].to_numpy() > 0, both["won_b"].to_numpy() > 0
            for i, cell in enumerate((x & y, x & ~y, ~x & y, ~x & ~y)):  # a, b (A only), c (B only), d
                acc["table"][i] += int(cell.sum())
            x, y = both["length"].to_numpy(), both["length_b"].to_numpy()
            ok = ~(np.isnan(x) | np.isnan(y))
            acc["length_mean"].add(y[ok] - x[ok])

    def result(self, margin: float = DEFAULT_MARGIN, base_length: float | None = None) -> dict:
        m = max(1, len(self.names) - 1)
        level = family_level(ALPHA, m)
        out = {"baseline": self.names[0] if self.names else None, "method": "paired by game (same seeds)",
               "correction": "Bonferroni", "alpha": ALPHA, "ci_level": level, "family_size": m, "margin": margin,
               "comparisons": []}
        if len(self.names) < 2 or not self.seen:
            return out
        rows = []
        length_margin = margin * abs(base_length) if base_length else None
        for name in self.names[1:]:
            acc = self.acc[name]
            w = paired_binary(*acc["table"], level=level)
            w95 = paired_binary(*acc["table"], level=0.95)
            ln = mean_difference(acc["length_mean"], level)
            row = {"variant": name, "n_pairs": acc["n_pairs"]}
            for key, r, mg in (("win_rate", w, margin), ("length_mean", ln, length_margin)):
                p_adj = None if r["p"] is None else min(1.0, m * r["p"])
                row[key] = {**r, "p_adjusted": p_adj, "ci_level": level,
                            "significant": bool(p_adj is not None and p_adj <= ALPHA)}
                if mg is not None:
                    row[key]["verdict"] = margin_verdict(r["diff"], r["ci"], mg, n=r["n"],
                                                         no_information=r.get("no_information"))
            row["win_rate"]["ci_95"] = w95["ci"]
            row["length_mean"]["margin_kind"] = "relative: the margin times the first point's mean length"
            rows.append(row)
        out["comparisons"] = rows
        return out


def paired_vs_first(games: pl.DataFrame, seats: pl.DataFrame, variant_names: list[str],
                    length_col: str = "decisions") -> dict:
    """Every point of a sweep against the first, game by game on the same seeds
    (same game index = same random streams): win rate and mean length, each
    metric's intervals at 1 - alpha/m over the m points compared (Bonferroni),
    the verdicts read from them."""
    acc = _Paired(variant_names, length_col)
    if len(variant_names) >= 2 and not games.is_empty():
        acc.add(game_results(games, seats))
    return acc.result()


# ---------------------------------------------------------------- where the games come from
class _FrameSource:
    """Frames already in memory (summarize_frames): one window, the frames themselves."""

    def __init__(self, games: pl.DataFrame, seats: pl.DataFrame, cards: pl.DataFrame):
        self.games, self.seats, self._cards = games, seats, cards

    def variant_names(self) -> list[str]:
        return sorted(self.games["variant"].unique().to_list()) if not self.games.is_empty() else []

    def columns(self) -> tuple[list[str], list[str]]:
        return self.games.columns, self.seats.columns

    def windows(self):
        yield self.games, self.seats

    def cards(self):
        return self._cards


class _FolderSource:
    """A run folder read with bounded memory: windows of game indices for the
    accumulators, lazy scans for the cards, and for the game's own headline
    (which takes whole frames) only the columns it reads."""

    def __init__(self, run_dir: Path, spec):
        from .frames import GAME_BASE, SEAT_BASE, _spec_schema

        self.run_dir = Path(run_dir)
        self.spec = spec
        self.files = {k: part_files(self.run_dir, k) for k in ("games", "seats", "cards")}
        self.schema = {
            "games": (scan_parts(self.files["games"]).collect_schema() if self.files["games"]
                      else pl.Schema(_spec_schema(GAME_BASE, spec.game_columns))),
            "seats": (scan_parts(self.files["seats"]).collect_schema() if self.files["seats"]
                      else pl.Schema(_spec_schema(SEAT_BASE, spec.seat_columns))),
        }
        self.n_variants = 1

    def variant_names(self) -> list[str]:
        if not self.files["games"]:
            return []
        names = (scan_parts(self.files["games"], ["variant"]).unique()
                 .collect(engine="streaming")["variant"].to_list())
        self.n_variants = max(1, len(names))
        return sorted(names)

    def columns(self) -> tuple[list[str], list[str]]:
        return self.schema["games"].names(), self.schema["seats"].names()

    def windows(self):
        width = max(1_000, WINDOW_GAMES // self.n_variants)
        yield from windows(self.run_dir, width, games_schema=self.schema["games"], seats_schema=self.schema["seats"])

    def cards(self):
        return scan_parts(self.files["cards"])


class _Rotations:
    """A seat-rotated run (`balance simulate --rotate-seats`, analysis.runs):
    every deal played k times, rotation r seating the policy listed for seat j
    at seat (j + r) mod k. Per deal, each seat's wins summed over its k replays
    (so a deal is one outcome and every policy sat at every seat once), and
    the same per policy. Deals missing a replay (an unfinished run) are left
    out and counted."""

    def __init__(self, rotation: dict[str, int], k: int):
        self.rotation, self.k = dict(rotation), int(k)
        self.seat = WinPatterns(self.k, reps=self.k)
        self.policy = WinPatterns(self.k, reps=self.k)
        self.incomplete = 0

    def add(self, seats: pl.DataFrame) -> None:
        if seats.is_empty():
            return
        k, base = self.k, self.k + 1
        r = (seats.filter(pl.col("variant").is_in(list(self.rotation)))
             .select("game_index", pl.col("seat").cast(pl.Int64), pl.col("won").cast(pl.Int64).clip(0, 1),
                     pl.col("variant").replace_strict(self.rotation, return_dtype=pl.Int64).alias("rot")))
        full = r.group_by("game_index").agg(pl.col("rot").n_unique().alias("m"))
        self.incomplete += int((full["m"] < k).sum())
        r = r.join(full.filter(pl.col("m") == k).select("game_index"), on="game_index")
        r = r.with_columns(((pl.col("seat") - pl.col("rot") + k) % k).alias("slot"))
        for key, acc in (("seat", self.seat), ("slot", self.policy)):
            per = r.group_by("game_index", key).agg(pl.col("won").sum().alias("c"))
            code = per.group_by("game_index").agg(
                (pl.col("c") * pl.lit(base, pl.Int64).pow(pl.col(key))).sum().alias("code"))
            vc = code["code"].value_counts()
            acc.add(_decode(vc["code"].to_numpy(), base, k), vc["count"].to_numpy())

    def result(self, policy_names: list[str], margin: float) -> dict:
        seats = seat_balance(self.seat, ALPHA, margin)
        policies = seat_balance(self.policy, ALPHA, margin, what="policy")
        if policies is not None:
            for row in policies["seats"]:
                row["policy"] = policy_names[row["seat"]] if row["seat"] < len(policy_names) else "?"
                row["listed_seat"] = row.pop("seat")
        return {"rotations": self.k, "deals": self.seat.n, "incomplete_deals": self.incomplete,
                "how": f"each deal played {self.k} times, the policies moved one seat on each time, so every "
                       f"policy sat at every seat on the same deal; a seat's rate is over all {self.k} replays, "
                       f"one outcome per deal",
                "seats": seats, "policies": policies, "policy_names": policy_names}


def _rotations(manifest: dict) -> dict[str, int] | None:
    """variant name -> seat rotation, when the run is one configuration played seat-rotated."""
    vs = manifest.get("config", {}).get("variants") or []
    if len(vs) < 2 or not all(ROTATION_KEY in (v.get("varied") or {}) for v in vs):
        return None
    return {v.get("name"): int(v["varied"][ROTATION_KEY]) for v in vs}


def read_stopping(run_dir: str | Path) -> dict | None:
    """stopping.json (written by a --precision run), or None."""
    path = Path(run_dir) / STOPPING_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _completion(n_games: int, n_requested, name: str | None, stopping: dict | None, manifest_n) -> tuple[bool, str | None]:
    """Is this set of games complete, and what stopped it: "n_games" (every
    requested game played) or "precision" (a --precision run stopped early
    because every win-rate interval was narrow enough)."""
    if n_requested is None:
        return True, None
    if n_games >= n_requested:
        return True, "n_games"
    if stopping and stopping.get("max_games") == manifest_n:
        rows = {r.get("name"): r for r in stopping.get("variants") or []}
        row = rows.get(name) if name is not None else (next(iter(rows.values())) if len(rows) == 1 else None)
        if row and row.get("reached") and n_games >= int(row.get("games", n_games + 1)):  # more games: as precise
            return True, "precision"
    return False, None


# ---------------------------------------------------------------- the run
def _summarize(source, manifest: dict, spec, margin: float = DEFAULT_MARGIN, stopping: dict | None = None) -> dict:
    config = manifest.get("config", {})
    params = dict(config.get("params") or {})
    variant_names = source.variant_names()
    declared = [v.get("name") for v in config.get("variants", []) or []]
    variant_names = [v for v in declared if v in variant_names] + [v for v in variant_names if v not in declared]
    n_requested_each = manifest.get("n_games")
    n_variants = max(1, len(variant_names), len(declared))
    rotation = _rotations(manifest)
    vparams = _variant_params(manifest)
    if rotation:  # one configuration: the headline is rotation 0 (as asked), the seats come from every rotation
        base = next(name for name, r in rotation.items() if r == 0)
        params = vparams.get(base, params)

    game_cols, seat_cols = source.columns()
    several = len(variant_names) > 1 and rotation is None
    pooled = Block(spec, game_cols, seat_cols, margin)
    blocks = {name: Block(spec, game_cols, seat_cols, margin) for name in variant_names} if several else {}
    levels = _LevelLadder()
    paired = _Paired(variant_names, spec.length_column)
    rot_acc = _Rotations(rotation, config.get("players") or 0) if rotation else None
    if rotation:
        scopes = {None: params, base: params}
    else:
        scopes = {None: params, **({name: vparams.get(name, params) for name in variant_names} if several else {})}
    # the game's own metrics, declared in its spec (simcore.metrics): one accumulator per scope
    # (None: the run, or rotation 0 of a seat-rotated run; else a variant of a sweep)
    game_metrics = {scope: GameMetrics(spec, p, config.get("players")) for scope, p in scopes.items()
                    if scope is None or several}
    max_seat = -1
    for games, seats in source.windows():
        res = game_results(games, seats)
        if not seats.is_empty():
            max_seat = max(max_seat, int(seats["seat"].max()))
        if several:
            for name, block in blocks.items():
                block.add(res.filter(pl.col("variant") == name), seats.filter(pl.col("variant") == name))
            paired.add(res)
            for name in blocks:
                game_metrics[name].add(games.filter(pl.col("variant") == name), seats.filter(pl.col("variant") == name))
        else:
            if rotation:
                rot_acc.add(seats)
                games, seats = games.filter(pl.col("variant") == base), seats.filter(pl.col("variant") == base)
                res = res.filter(pl.col("variant") == base)
            pooled.add(res, seats)
            if "level" in spec.setting_columns and "level" in game_cols:
                levels.add(res)
            game_metrics[None].add(games, seats)
        del games, seats, res

    players = config.get("players")
    if players is None and max_seat >= 0:
        players = max_seat + 1
    for acc in game_metrics.values():
        acc.players = players
    summary = {
        "kind": SummaryResult.model_fields["kind"].default,
        "schema_version": SummaryResult.SCHEMA_VERSION,
        "game": config.get("game", spec.name),
        "title": spec.title,
        "folder_kind": manifest.get("kind", "run"),
        "mode": config.get("mode"),
        "players": players,
        "cooperative": bool(spec.cooperative),
        "n_requested": (n_requested_each * (1 if rotation else n_variants)) if n_requested_each is not None else None,
        "seed": config.get("seed"),
        "policies": config.get("policies", []),
        "params": params,
        "rule_version": config.get("rule_version", spec.version),
        "card_list_hash": config.get("card_list_hash"),
        "margin": margin,
    }
    cards = source.cards()

    variants = []
    if several:
        # every number belongs to one rule set: no figure pools the points (they share their deals)
        varied = _variant_varied(manifest)
        summary["per_variant"] = True
        done = []
        for name in variant_names:
            p = vparams.get(name, params)
            block = blocks[name].result()
            if blocks[name].n and spec.metrics:
                block["game_metrics"] = game_metrics[name].result()
            complete, stopped_by = _completion(block["n_games"], n_requested_each, name, stopping, n_requested_each)
            done.append((complete, stopped_by))
            block["cards"] = card_impact.cards_to_dict(
                cards.filter(pl.col("variant") == name) if cards is not None else None, spec.card_counters)
            block["alerts"] = alerts(block, margin)
            block["headline"] = headline(block, margin)
            variants.append({"name": name, "params": p, "varied": varied.get(name, {}),
                             "n_requested": n_requested_each, "complete": complete, "stopped_by": stopped_by, **block})
        summary["variants"] = variants
        summary["n_games"] = int(sum(v["n_games"] for v in variants))
        summary["length_unit"] = variants[0]["length"]["column"]
        summary["complete"] = all(c for c, _ in done)
        summary["stopped_by"] = (("precision" if any(s == "precision" for _, s in done) else "n_games")
                                 if summary["complete"] and n_requested_each is not None else None)
        first = variants[0]
        summary["paired_vs_first"] = paired.result(margin, (first.get("length") or {}).get("mean"))
    else:
        summary.update(pooled.result())
        if pooled.n and spec.metrics:
            summary["game_metrics"] = game_metrics[None].result()
        if rotation:
            names = [p.get("name", "?") for p in config.get("policies", [])]
            names = names * (players // len(names)) if names and len(names) != players else names
            summary["seat_rotation"] = rot_acc.result(names, margin)
            rotated = summary["seat_rotation"]["seats"]
            if rotated is not None and not spec.cooperative:
                summary["seat_gap_unrotated"] = summary.get("seat_gap")
                summary["win_rate_by_seat"] = [{**r, "policy": "every policy in turn"} for r in rotated["seats"]]
                summary.update(seat_fields(rotated, rotated["n"]))
                summary["seat_gap"]["n_games_played"] = rotated["n"] * rotated["reps"]
            cards = cards.filter(pl.col("variant") == base) if cards is not None else None
        complete, stopped_by = _completion(summary["n_games"], summary["n_requested"], base if rotation else None,
                                           stopping, n_requested_each)
        if rotation:  # every rotation must be complete too
            complete = complete and summary["seat_rotation"]["incomplete_deals"] == 0
        summary["complete"], summary["stopped_by"] = complete, (stopped_by if complete else None)
        summary["length_unit"] = summary["length"]["column"]
        summary["cards"] = card_impact.cards_to_dict(cards, spec.card_counters)
        summary["alerts"] = alerts(summary, margin)
        summary["headline"] = headline(summary, margin)
    if stopping:
        summary["stopping"] = stopping
    summary["ladder"] = ladder(pl.DataFrame(), pl.DataFrame(), variants, levels)
    summary["verdicts"] = verdicts(summary, margin)
    summary["generated"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return jsonable(summary)


def summarize_frames(games: pl.DataFrame, seats: pl.DataFrame, cards: pl.DataFrame, manifest: dict, spec,
                     margin: float = DEFAULT_MARGIN, stopping: dict | None = None) -> dict:
    """The summary of a run from its frames and manifest (pure; writes nothing)."""
    return _summarize(_FrameSource(games, seats, cards), manifest, spec, margin, stopping)


def summarize(run_dir: str | Path, spec, margin: float = DEFAULT_MARGIN) -> dict:
    """Read a run folder and summarise it (writes nothing), a window of games
    at a time: memory does not grow with the number of games (module docstring)."""
    manifest = load_manifest(run_dir)
    out = _summarize(_FolderSource(Path(run_dir), spec), manifest, spec, margin, read_stopping(run_dir))
    if manifest.get("kind") != CHECK_KIND:  # a run, not its own skill check
        from . import skill_check

        from . import card_power

        if (Path(run_dir) / card_power.SUBFOLDER / "manifest.json").is_file():
            cp = card_power.analyse(Path(run_dir) / card_power.SUBFOLDER, spec, margin)
            if cp is not None:
                out["card_power"] = jsonable(cp)
        sub = (summarize(skill_check.folder(run_dir), spec, margin) if skill_check.has_check(Path(run_dir)) else None)
        out["skill_check"] = jsonable(skill_check.result(Path(run_dir), spec, out, sub, margin))
        if out["skill_check"].get("changes"):
            out.setdefault("alerts", []).append({"id": "skill_changes", "policy": out["skill_check"]["policy"],
                                                 "changes": out["skill_check"]["changes"]})
    return out


def write_summary(run_dir: str | Path, spec, margin: float | None = None) -> Path:
    """Write `summary.json` (its schema: analysis.summary_result) into the run folder, atomically, and return
    its path. `margin`
    None: the margin of the summary already there (so `balance report` keeps
    the one the run was made with), else DEFAULT_MARGIN."""
    path = Path(run_dir) / SUMMARY_FILE
    if margin is None:
        try:
            margin = float(json.loads(path.read_text(encoding="utf-8")).get("margin", DEFAULT_MARGIN))
        except (OSError, ValueError, TypeError, AttributeError):
            margin = DEFAULT_MARGIN
    return summary_result(run_dir, spec, margin).write(run_dir)


def summary_result(run_dir: str | Path, spec, margin: float = DEFAULT_MARGIN) -> SummaryResult:
    """`summarize` as summary.json's schema (analysis.summary_result); a summary its schema refuses is a bug here,
    raised as pydantic's ValidationError."""
    return SummaryResult.model_validate(summarize(run_dir, spec, margin))
