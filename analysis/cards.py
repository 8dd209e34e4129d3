"""Card impact: win rate of the seat-games where a card's counter was > 0
versus those where it was not, with intervals, a corrected verdict, and the
cards that are hardly ever played (dead cards).

Input is the cards parts (docs/run-folder.md): per chunk, card and counter kind,
`games_with`, `wins_with`, `total`, `seat_games`, `seat_wins`. Functions are
frame -> frame; `cards_to_dict` shapes the result for summary.json.

"Win rate when played" is an association, not a cause: a card that is only
played when already winning looks strong. The report says so.
"""
from __future__ import annotations

import math

import polars as pl

from .stats import holm, two_proportions, wilson

DEAD_SHARE = 0.01  # played in fewer than 1% of seat-games
ALPHA = 0.05


def card_totals(cards: pl.DataFrame | pl.LazyFrame | None, by_variant: bool = False) -> pl.DataFrame:
    """Sum the per-chunk counters: one row per (variant,) card and counter.

    `cards` may be lazy (analysis.frames.scan_parts): the sums then run on
    polars' streaming engine, holding one row per card and counter, not the
    rows of every chunk."""
    keys = (["variant"] if by_variant else []) + ["card_id", "card", "counter"]
    empty = pl.DataFrame(schema={**{k: (pl.Int32 if k == "card_id" else pl.String) for k in keys},
                                 "games_with": pl.Int64, "wins_with": pl.Int64, "total": pl.Int64,
                                 "seat_games": pl.Int64, "seat_wins": pl.Int64})
    if cards is None or (isinstance(cards, pl.DataFrame) and cards.is_empty()):
        return empty
    out = (
        cards.lazy().group_by(keys)
        .agg(pl.col("games_with", "wins_with", "total", "seat_games", "seat_wins").cast(pl.Int64).sum())
        .sort(keys)
        .collect(engine="streaming")
    )
    return empty if out.is_empty() else out


def card_impact(totals: pl.DataFrame, alpha: float = ALPHA) -> pl.DataFrame:
    """Add rates with Wilson intervals, lift (with - without) with Newcombe interval,
    p-value and a Holm verdict across the cards of each counter kind."""
    rows = []
    for r in totals.iter_rows(named=True):
        n_with, k_with = r["games_with"], r["wins_with"]
        n_without, k_without = r["seat_games"] - n_with, r["seat_wins"] - k_with
        out = dict(r)
        out["share_with"] = n_with / r["seat_games"] if r["seat_games"] else None
        out["share_with_lo"], out["share_with_hi"] = wilson(n_with, r["seat_games"])
        out["mean_total"] = r["total"] / r["seat_games"] if r["seat_games"] else None
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
    schema_extra = ["share_with", "share_with_lo", "share_with_hi", "mean_total", "rate_with", "rate_with_lo",
                    "rate_with_hi", "rate_without", "rate_without_lo", "rate_without_hi", "lift", "lift_lo",
                    "lift_hi", "p"]
    if not rows:
        return totals.with_columns(
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
    return frame.with_columns(pl.col(schema_extra).cast(pl.Float64))


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
    """Card ids with a `drawn` counter that never reached a hand: not in this
    configuration's deck (removed by the level, or an unused expansion), so not
    "dead" in the designer's sense. Empty when the game counts no draws."""
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
                          "n": int(r["games_with"])},
        "win_rate_without": {"value": _clean(r["rate_without"]), "ci": [r["rate_without_lo"], r["rate_without_hi"]],
                             "n": int(r["games_without"])},
        "lift": {"value": _clean(r["lift"]), "ci": [_clean(r["lift_lo"]), _clean(r["lift_hi"])],
                 "p": _clean(r["p"]), "significant": bool(r["significant"])},
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
        "lift_meaning": (f"an association, not an effect: the win rate of the seat-games where the card was "
                         f"{main} minus that of the seat-games where it was not"),
        "dead_threshold": dead_threshold,
        "n_significant": int(main_rows["significant"].sum()),
        "table": [_row(r) for r in impact.iter_rows(named=True)],
        "top": [_row(r) for r in top.iter_rows(named=True)],
        "bottom": [_row(r) for r in bottom.iter_rows(named=True)],
        "dead": [_row(r) for r in dead.iter_rows(named=True)],
    }
