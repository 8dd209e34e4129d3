"""The skill check (issue 43, item 2): is a verdict about the game, or about the policy that played it?

Every default answer is greedy's. So `simulate`, `sweep`, `compare` and `impact` also play a slice of the
same deals with `expert` at every seat: a run folder of its own, `RUN/skill-check/`, with the same game,
rules, seed and variants as the run and only the policies changed, over game indices 0..deals-1. Game i
is dealt from the same streams in both folders (analysis.runs), so each expert game is paired with the
main run's game i on the same deal.

Two things are read from it, both with the analysis the run itself uses (no new statistics):
- the headline, paired: the main run's figure and expert's on the same deals, their difference with its
  95% interval (`stats.paired_difference`, exact McNemar for a 0/1 outcome) and its margin verdict
  (`stats.margin_verdict`): "holds" within the margin, "changes" beyond it;
- every verdict of the run (seats, moving first, each sweep point against the first, the policies of a
  rotated run) recomputed on the expert games (analysis.summary on the sub-folder) and set beside the
  main one: the same decided verdict -> holds; another decided verdict (or another seat ahead) ->
  changes; expert's undecided -> not settled, with the deals that would settle it.

The folder is an ordinary run folder: `balance report RUN/skill-check`, `balance replay RUN/skill-check
--index I` read it, and rerunning the command resumes it.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl

from balance.simcore.spec import GameSpec

from .runs import ROTATION_KEY, RunConfig, Variant, default_chunk_size
from .stats import margin_verdict, paired_difference

SUBFOLDER = "skill-check"
POLICY = "expert"
DEFAULT_DEALS = 1_000  # a rate near 50% to about +-3 points (95%): 1.96 * 0.5 / sqrt(1000) = 0.031
MIN_DEALS = 200  # each variant of a many-variant command gets at least this many
BUDGET = 2_000  # expert games a command plays by default, split over its variants (about 20 s on 2 cores)
DECIDED = ("within_margin", "beyond_margin")


def default_deals(n_games: int, n_variants: int) -> int:
    """Deals per variant when --skill-check is not given: DEFAULT_DEALS for one variant, BUDGET split
    over more (at least MIN_DEALS each), never more than the run plays."""
    per = DEFAULT_DEALS if n_variants <= 1 else max(MIN_DEALS, min(DEFAULT_DEALS, BUDGET // n_variants))
    return max(0, min(int(n_games), per))


def why_not(spec: GameSpec, policies: list) -> str | None:
    """Why a run has no skill check to play, or None when it has one."""
    pol = spec.policy(POLICY)
    if pol is None:
        return f"{spec.title} has no {POLICY} policy to check against"
    if getattr(pol, "refused", None):
        return f"{POLICY} is not available for {spec.title}: {pol.refused}"
    names = {(p.name if hasattr(p, "name") else p.get("name")) for p in policies}
    if names == {POLICY}:
        return f"every seat already plays {POLICY}"
    return None


def check_config(spec: GameSpec, config: RunConfig, deals: int, only: list[str] | None = None) -> RunConfig | None:
    """The skill check's configuration: the run's game, rules, seed and variants (those named in `only`,
    else all; a seat-rotated run: its first rotation, since with one policy at every seat a rotation is
    the same game), with `expert` at every seat. None when there is nothing to check (`why_not`)."""
    from balance.simcore.batch import parse_policies

    if deals <= 0 or why_not(spec, config.policies) is not None:
        return None
    variants = [v for v in config.variants if only is None or v.name in only]
    if any(ROTATION_KEY in (v.varied or {}) for v in variants):
        first = variants[0]
        variants = [Variant(first.name, first.params, {k: x for k, x in first.varied.items() if k != ROTATION_KEY})]
    expert = parse_policies(spec, [POLICY], None, config.players)
    return replace(config, policies=expert, variants=variants, chunk_size=default_chunk_size(deals), check=False)


def folder(run_dir: Path) -> Path:
    return Path(run_dir) / SUBFOLDER


def has_check(run_dir: Path) -> bool:
    return (folder(run_dir) / "manifest.json").is_file()


# ---------------------------------------------------------------- reading it
def _first_games(run_dir: Path, spec: GameSpec, variant: str, deals: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Games and seats of one variant with game index below `deals` (only the parts that hold them)."""
    from .frames import part_ranges, scan_parts

    out = []
    for kind in ("games", "seats"):
        files = [f for f, a, _ in part_ranges(run_dir, kind) if a < deals]
        lf = scan_parts(files)
        if lf is None:
            return pl.DataFrame(), pl.DataFrame()
        out.append(lf.filter((pl.col("variant") == variant) & (pl.col("game_index") < deals)).collect())
    return out[0], out[1]


def headline_metric(summary: dict) -> tuple[str, str]:
    """(per-game column of analysis.compare._per_game, words) of the run's headline: the first seat's win
    rate in a game someone always wins (two players), else the win rate ("someone wins", "the team
    wins")."""
    lose = summary.get("everybody_loses") or {}
    if not summary.get("cooperative") and (summary.get("players") or 0) > 1 and lose.get("n") and not lose.get("k"):
        return "seat 1 win rate", "seat 1 wins"
    if (summary.get("players") or 0) == 1:
        return "win rate", "the player wins"
    return "win rate", "the team wins" if summary.get("cooperative") else "someone wins"


def _outcome(seats: pl.DataFrame, metric: str) -> pl.DataFrame:
    """Per game (game_index, v): 1 when someone won ("win rate"), or when seat 1 won ("seat 1 win rate")."""
    won = pl.col("won").cast(pl.Int64).clip(0, 1)
    if metric == "seat 1 win rate":
        return seats.filter(pl.col("seat") == 0).group_by("game_index").agg(won.max().alias("v"))
    return seats.group_by("game_index").agg(won.max().alias("v"))


def paired_headline(run_dir: Path, spec: GameSpec, main_variant: str, check_variant: str, deals: int,
                    metric: str, margin: float) -> dict | None:
    """The headline on the same deals: main run's and expert's, and expert minus main (95%, paired)."""
    _, sa = _first_games(run_dir, spec, main_variant, deals)
    _, sb = _first_games(folder(run_dir), spec, check_variant, deals)
    if sa.is_empty() or sb.is_empty():
        return None
    a, b = _outcome(sa, metric), _outcome(sb, metric)
    both = a.rename({"v": "x"}).join(b.rename({"v": "y"}), on="game_index")
    x, y = both["x"].cast(pl.Float64).to_numpy(), both["y"].cast(pl.Float64).to_numpy()
    if not x.size:
        return None
    d = paired_difference(x, y, 0.95, True)
    n = int(both.height)
    from .stats import rate

    main, check = rate(int(np.nansum(x)), n), rate(int(np.nansum(y)), n)
    return {"metric": metric, "deals": n, "main": main, "check": check, "diff": d["diff"], "ci": d["ci"], "p": d.get("p"),
            "verdict": margin_verdict(d["diff"], d["ci"], margin, n=n, no_information=d.get("no_information"))}


def _key(it: dict) -> tuple:
    return it.get("id"), it.get("variant")


def _same_side(a: dict, b: dict) -> bool:
    """Do two 'beyond' verdicts point the same way (the same seat or policy ahead, the same sign)?"""
    for k in ("best_seat", "best"):
        if a.get(k) is not None and b.get(k) is not None:
            return a.get(k) == b.get(k)
    ea, eb = a.get("estimate"), b.get("estimate")
    return ea is None or eb is None or (ea >= 0) == (eb >= 0)


def status(main_code: str | None, check_code: str | None, same_side: bool = True) -> str:
    """holds / changes / unsettled, from a verdict's code in the run and in the skill check."""
    if check_code in DECIDED:
        if check_code == main_code and (check_code != "beyond_margin" or same_side):
            return "holds"
        if main_code in DECIDED or main_code == "differs_size_unclear":
            return "changes"
    if check_code == "differs_size_unclear" and main_code == "within_margin":
        return "changes"
    return "unsettled"


def compare_items(main: list[dict], check: list[dict]) -> list[dict]:
    """Each verdict of the run beside the same verdict (same id, same variant) on the expert games."""
    by_key = {_key(it): it for it in check}
    out = []
    for it in main:
        c = by_key.get(_key(it))
        if c is None:
            continue
        st = status(it.get("verdict"), c.get("verdict"), _same_side(it, c))
        out.append({"id": it.get("id"), "variant": it.get("variant"), "status": st, "main_verdict": it.get("verdict"),
                    "check": {k: c.get(k) for k in ("verdict", "estimate", "ci", "ci_level", "n", "margin",
                                                    "games_to_decide", "best_seat", "worst_seat", "best", "worst",
                                                    "reason")}})
    return out


def result(run_dir: Path, spec: GameSpec, summary: dict, sub: dict | None, margin: float) -> dict:
    """summary.json's `skill_check`: what was checked, the paired headline per variant, each verdict's
    status, from the run's summary and its check's (`sub`, analysis.summary of RUN/skill-check; None when
    there is none: then why not, every seat already expert, no expert, or skipped)."""
    run_dir = Path(run_dir)
    if sub is None:
        why = why_not(spec, summary.get("policies") or [])
        return {"played": False, "policy": POLICY,
                "why": why or "skipped (--skill-check 0): the verdicts are for the run's own policies only"}
    metric, words = headline_metric(summary)
    rotated = summary.get("seat_rotation") is not None
    from .frames import load_manifest

    sub_variants = [v.get("name") for v in (load_manifest(folder(run_dir)).get("config") or {}).get("variants") or []]
    main_manifest = load_manifest(run_dir)
    main_variants = [v.get("name") for v in (main_manifest.get("config") or {}).get("variants") or []]
    heads = []
    pols = {str(p.get("name")) + str(p.get("params")) for p in summary.get("policies") or [] if isinstance(p, dict)}
    # seat 1's rate is its policy's as much as the game's: no paired headline when the seats play different ones
    headed = [] if metric != "win rate" and len(pols) > 1 else sub_variants
    for name in headed:
        main_name = name if name in main_variants else (main_variants[0] if main_variants else name)
        h = paired_headline(run_dir, spec, main_name, name, _max_index(sub, name), metric, margin)
        if h is not None:
            heads.append({"variant": None if len(sub_variants) == 1 and not summary.get("variants") else name, **h})
    main_items = (summary.get("verdicts") or {}).get("items") or []
    check_items = (sub.get("verdicts") or {}).get("items") or []
    if rotated:  # the rotated run's seats are free of who sits where; the check has one policy everywhere
        main_items = [it for it in main_items if it.get("id") != "policies"]
    if summary.get("variants") and not sub.get("variants") and len(sub_variants) == 1:
        check_items = [{**it, "variant": sub_variants[0]} for it in check_items]  # one point checked
    items = compare_items(main_items, check_items)
    changes = [i for i in items if i["status"] == "changes"] + [
        {"id": "headline", "variant": h["variant"]} for h in heads
        if h["verdict"]["verdict"] in ("beyond_margin", "differs_size_unclear")]
    return {"played": True, "policy": POLICY, "folder": SUBFOLDER, "deals": int(sub.get("n_games") or 0)
            // max(1, len(sub_variants)), "n_games": int(sub.get("n_games") or 0), "variants": sub_variants,
            "headline_metric": metric, "headline_words": words, "headlines": heads, "items": items,
            "changes": len(changes), "margin": margin,
            "how": f"the first deals of the run played again with {POLICY} at every seat (same game indices, "
                   f"same seed: the same deals), each paired with the run's game on that deal"}


def _max_index(sub: dict, name: str) -> int:
    """Deals of one variant of the check (its games are game indices 0..deals-1)."""
    for v in sub.get("variants") or []:
        if v.get("name") == name:
            return int(v.get("n_games") or 0)
    return int(sub.get("n_games") or 0)
