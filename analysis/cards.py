"""Card impact: among the seat-games where a card reached the seat's hand,
the win rate when its counter was > 0 versus when it was 0, with intervals, a
corrected verdict, and the cards that are hardly ever played (dead cards).

Input is the cards parts (docs/run-folder.md): per chunk, card and counter kind,
`games_with`, `wins_with`, `total`, `seat_games`, `seat_wins`, and (runs
written since the game's spec declares `hand_counters`) `reached_games`,
`reached_wins`, `reached_with`, `reached_wins_with`: the seat-games where the
card reached the hand, their wins, and of those the ones where the counter was
> 0 and their wins. Functions are frame -> frame; `cards_to_dict` shapes the
result for summary.json.

The comparison (`comparison` per row):
- "reached" (the `reached_*` columns are there): among the seat-games where the
  card reached the hand, counter > 0 against counter = 0. A seat that never
  held the card is in neither group, so "winners hold more cards" no longer
  makes a card look strong.
- "all" (a folder written before those columns, or a game that declares no
  hand counters): counter > 0 against every other seat-game, including those
  where the seat never held the card (the lift of earlier reports).

Either way "win rate when played" is an association, not a cause: a card that
is only played when already winning looks strong. The report says so.
"""
from __future__ import annotations

import math

import polars as pl

from .stats import holm, two_proportions, wilson

DEAD_SHARE = 0.01  # played in fewer than 1% of seat-games
ALPHA = 0.05
REACHED = ("reached_games", "reached_wins", "reached_with", "reached_wins_with")
SUMMED = ("games_with", "wins_with", "total", "seat_games", "seat_wins")


def card_totals(cards: pl.DataFrame | pl.LazyFrame | None, by_variant: bool = False) -> pl.DataFrame:
    """Sum the per-chunk counters: one row per (variant,) card and counter.

    `cards` may be lazy (analysis.frames.scan_parts): the sums then run on
    polars' streaming engine, holding one row per card and counter, not the
    rows of every chunk."""
    keys = (["variant"] if by_variant else []) + ["card_id", "card", "counter"]
    empty = pl.DataFrame(schema={**{k: (pl.Int32 if k == "card_id" else pl.String) for k in keys},
                                 **{c: pl.Int64 for c in SUMMED + REACHED}})
    if cards is None or (isinstance(cards, pl.DataFrame) and cards.is_empty()):
        return empty
    lf = cards.lazy()
    have = set(lf.collect_schema().names())
    # The reached sums only where every chunk has them: a chunk without them (an old part, a game
    # without hand counters) makes the card's reached totals unknown (null), never a partial sum.
    reached = [pl.when(pl.col(c).null_count() == 0).then(pl.col(c).cast(pl.Int64).sum()).otherwise(None).alias(c)
               if c in have else pl.lit(None, pl.Int64).alias(c) for c in REACHED]
    out = (
        lf.group_by(keys)
        .agg(pl.col(*SUMMED).cast(pl.Int64).sum(), *reached)
        .sort(keys)
        .collect(engine="streaming")
    )
    return empty if out.is_empty() else out.with_columns(pl.col(*REACHED).cast(pl.Int64))


def has_reached(r: dict) -> bool:
    """A totals row carries the reached counts (analysis.cards: comparison "reached")."""
    return all(r.get(c) is not None for c in REACHED)


def card_impact(totals: pl.DataFrame, alpha: float = ALPHA) -> pl.DataFrame:
    """Add rates with Wilson intervals, lift (with - without) with Newcombe interval,
    p-value and a Holm verdict across the cards of each counter kind.

    With the reached counts (`comparison` "reached"): with = reached and counter
    > 0, without = reached and counter = 0, and `share_reached` = with / reached
    ("played when drawn"). Without them (`comparison` "all"): with = counter > 0,
    without = every other seat-game, `share_reached` null."""
    rows = []
    for r in totals.iter_rows(named=True):
        out = dict(r)
        for c in REACHED:
            out.setdefault(c, None)
        if has_reached(out):
            out["comparison"] = "reached"
            n_with, k_with = r["reached_with"], r["reached_wins_with"]
            n_without, k_without = r["reached_games"] - n_with, r["reached_wins"] - k_with
            out["share_reached"] = n_with / r["reached_games"] if r["reached_games"] else None
            out["share_reached_lo"], out["share_reached_hi"] = wilson(n_with, r["reached_games"])
        else:
            out["comparison"] = "all"
            n_with, k_with = r["games_with"], r["wins_with"]
            n_without, k_without = r["seat_games"] - n_with, r["seat_wins"] - k_with
            out["share_reached"] = out["share_reached_lo"] = out["share_reached_hi"] = None
        out["share_with"] = r["games_with"] / r["seat_games"] if r["seat_games"] else None
        out["share_with_lo"], out["share_with_hi"] = wilson(r["games_with"], r["seat_games"])
        out["mean_total"] = r["total"] / r["seat_games"] if r["seat_games"] else None
        out["lift_n_with"] = n_with
        out["games_without"], out["wins_without"] = n_without, k_without
        out["rate_with"] = k_with / n_with if n_with else None
        out["rate_with_lo"], out["rate_with_hi"] = wilson(k_with, n_with)
        out["rate_without"] = k_without / n_without if n_without else None
        out["rate_without_lo"], out["rate_without_hi"] = wilson(k_without, n_without)
        if n_with and n_without:
            d = two_proportions(k_without, n_without, k_with, n_with)
            out["lift"], (out["lift_lo"], out["lift_hi"]), out["p"] = d["diff"], d["ci"], d["p"]
        else:
            out["lift"] = out["lift_lo"] = out["lift_hi"] = out["p"] = None
        rows.append(out)
    schema_extra = ["share_with", "share_with_lo", "share_with_hi", "share_reached", "share_reached_lo",
                    "share_reached_hi", "mean_total", "rate_with", "rate_with_lo",
                    "rate_with_hi", "rate_without", "rate_without_lo", "rate_without_hi", "lift", "lift_lo",
                    "lift_hi", "p"]
    if not rows:
        return totals.with_columns(
            *[pl.lit(None, pl.Int64).alias(c) for c in REACHED if c not in totals.columns],
            pl.lit(None, pl.String).alias("comparison"), pl.lit(None, pl.Int64).alias("lift_n_with"),
            pl.lit(None, pl.Int64).alias("games_without"), pl.lit(None, pl.Int64).alias("wins_without"),
            *[pl.lit(None, pl.Float64).alias(c) for c in schema_extra],
            pl.lit(None, pl.Boolean).alias("significant"),
        )
    # Holm within each counter kind: the family is "every card, this counter".
    significant = [False] * len(rows)
    for counter in {r["counter"] for r in rows}:
        idx = [i for i, r in enumerate(rows) if r["counter"] == counter and r["p"] is not None]
        for i, rej in zip(idx, holm([rows[i]["p"] for i in idx], alpha)):
            significant[i] = rej
    for r, s in zip(rows, significant):
        r["significant"] = s
    frame = pl.DataFrame(rows, infer_schema_length=None)
    return frame.with_columns(pl.col(schema_extra).cast(pl.Float64), pl.col(*REACHED).cast(pl.Int64))


def primary_counter(counters) -> str | None:
    """The counter that means "played" if the game has one, else the first."""
    counters = list(counters)
    if not counters:
        return None
    return "played" if "played" in counters else counters[0]


def ranked(impact: pl.DataFrame, counter: str, k: int = 10) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The k most positive and k most negative significant lifts for one counter."""
    sig = impact.filter((pl.col("counter") == counter) & pl.col("significant") & pl.col("lift").is_not_null())
    top = sig.filter(pl.col("lift") > 0).sort("lift", descending=True).head(k)
    bottom = sig.filter(pl.col("lift") < 0).sort("lift").head(k)
    return top, bottom


def never_drawn(impact: pl.DataFrame) -> list[int]:
    """Card ids that never reached a hand: not in this configuration's deck
    (removed by the level, or an unused expansion), so not "dead" in the
    designer's sense. From the reached counts where there are any, else from a
    `drawn` counter; empty when the game counts neither."""
    if "reached_games" in impact.columns:
        known = impact.filter(pl.col("reached_games").is_not_null())
        if not known.is_empty():
            return known.filter(pl.col("reached_games") == 0)["card_id"].unique().sort().to_list()
    drawn = impact.filter(pl.col("counter") == "drawn")
    if drawn.is_empty():
        return []
    return drawn.filter(pl.col("games_with") == 0)["card_id"].to_list()


def dead_cards(impact: pl.DataFrame, counter: str, threshold: float = DEAD_SHARE) -> pl.DataFrame:
    """Cards in play whose counter is > 0 in fewer than `threshold` of seat-games."""
    return (
        impact.filter((pl.col("counter") == counter) & (pl.col("seat_games") > 0)
                      & (pl.col("games_with") < threshold * pl.col("seat_games"))
                      & ~pl.col("card_id").is_in(never_drawn(impact)))
        .sort("share_with")
    )


def lift_meaning(counter: str, comparison: str) -> str:
    """What a lift of this comparison is, in one sentence (summary.json's `lift_meaning`)."""
    if comparison == "reached":
        return (f"an association, not an effect: among the seat-games where the card reached the seat's hand, "
                f"the win rate when it was {counter} minus the win rate when it was not")
    what = ("the seat-games where it was not, including those where the seat never held it"
            if comparison == "all" else
            "the seat-games where it was not (among those where it reached the hand where the run counted that)")
    return f"an association, not an effect: the win rate of the seat-games where the card was {counter} minus {what}"


def _clean(v):
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    return v


def _row(r: dict) -> dict:
    return {
        "card_id": int(r["card_id"]), "card": r["card"], "counter": r["counter"],
        "seat_games": int(r["seat_games"]), "games_with": int(r["games_with"]), "total": int(r["total"]),
        "share_with": {"value": _clean(r["share_with"]), "ci": [r["share_with_lo"], r["share_with_hi"]],
                       "n": int(r["seat_games"])},
        "mean_total": _clean(r["mean_total"]),
        "win_rate_with": {"value": _clean(r["rate_with"]), "ci": [r["rate_with_lo"], r["rate_with_hi"]],
                          "n": int(r["lift_n_with"])},
        "win_rate_without": {"value": _clean(r["rate_without"]), "ci": [r["rate_without_lo"], r["rate_without_hi"]],
                             "n": int(r["games_without"])},
        "lift": {"value": _clean(r["lift"]), "ci": [_clean(r["lift_lo"]), _clean(r["lift_hi"])],
                 "p": _clean(r["p"]), "significant": bool(r["significant"])},
        # what lift compares: "reached" (among the seat-games where the card reached the hand:
        # counter > 0 vs = 0) or "all" (counter > 0 vs every other seat-game; older folders)
        "comparison": r["comparison"],
        "reached_games": None if r["reached_games"] is None else int(r["reached_games"]),
        "share_reached": {"value": _clean(r["share_reached"]), "ci": [r["share_reached_lo"], r["share_reached_hi"]],
                          "n": None if r["reached_games"] is None else int(r["reached_games"])},
    }


def cards_to_dict(cards: pl.DataFrame | pl.LazyFrame | None, counters=(), k: int = 10, alpha: float = ALPHA,
                  dead_threshold: float = DEAD_SHARE) -> dict:
    """Card impact for summary.json: every card and counter, the ranked top and
    bottom of the primary counter, and the dead cards."""
    counters = list(counters)
    totals = card_totals(cards)
    if not counters and not totals.is_empty():
        counters = sorted(totals["counter"].unique().to_list())
    impact = card_impact(totals, alpha)
    main = primary_counter(counters)
    if impact.is_empty() or main is None:
        return {"counters": counters, "primary_counter": main, "n_cards": 0, "n_in_play": 0, "never_drawn": [],
                "alpha": alpha,
                "dead_threshold": dead_threshold, "table": [], "top": [], "bottom": [], "dead": []}
    top, bottom = ranked(impact, main, k)
    dead = dead_cards(impact, main, dead_threshold)
    main_rows = impact.filter(pl.col("counter") == main)
    absent = never_drawn(impact)
    kinds = set(main_rows["comparison"].to_list())
    comparison = kinds.pop() if len(kinds) == 1 else "mixed"
    return {
        "counters": counters,
        "primary_counter": main,
        "n_cards": main_rows.height,
        "n_in_play": main_rows.height - len(absent),
        "never_drawn": main_rows.filter(pl.col("card_id").is_in(absent))["card"].to_list(),
        "seat_games": int(main_rows["seat_games"].max()) if main_rows.height else 0,
        "alpha": alpha,
        "correction": "Holm across the cards of each counter",
        # the Holm family: the cards of this counter that have a lift (played in some seat-games and not in others)
        "family_size": int(main_rows.filter(pl.col("p").is_not_null()).height),
        "comparison": comparison,
        "lift_meaning": lift_meaning(main, comparison),
        "dead_threshold": dead_threshold,
        "n_significant": int(main_rows["significant"].sum()),
        "table": [_row(r) for r in impact.iter_rows(named=True)],
        "top": [_row(r) for r in top.iter_rows(named=True)],
        "bottom": [_row(r) for r in bottom.iter_rows(named=True)],
        "dead": [_row(r) for r in dead.iter_rows(named=True)],
    }
