"""summary.json's schema (version 1; the files before it had no schema_version, and their `kind` was the
run folder's kind, now `folder_kind`): the result of a run, a sweep, an impact or a compare folder's
games (analysis.summary), every rate with its interval and n, every comparison with its verdict.

Written by `write_summary` (analysis.summary) from `summarize`; read back by reports (the run and sweep
reports, the impact report's baseline), cli (simulate's and sweep's tables, export) and the Python API
(`balance.load(folder).typed_summary`) with `SummaryResult.read(folder)`. The file is remade from the
folder's games by `balance report FOLDER`, which rewrites an older or damaged summary.json rather than
read it (reports.summary_for); a ladder folder's summary.json is its own (analysis.ladder_result).

The parts are the shapes analysis.summary_block, analysis.findings, analysis.cards and analysis.stats
write: one set of games (`Games`: a whole run, or one point of a sweep), its seats, lengths, end reasons,
cards, alerts and verdicts. Only the game's own headline (`game_metrics`, declared by each game in its
spec: rates, means, distributions, nested groups) and the embedded results of other analyses
(`card_power`, `stopping`) are free-form.
"""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import model_validator

from .campaign_result import Rate
from .results import Interval, MarginVerdict, Part, ResultFile


class Estimate(Part):
    """A share or a mean with its interval, where n may be unknown (a card's share of reached games in an
    older folder)."""

    value: Optional[float]
    ci: Interval
    n: Optional[int]
    k: Optional[int] = None


class SeatRate(Part):
    """One seat's win rate (a rotated run's: over every rotation; `policy` "every policy in turn")."""

    seat: int
    policy: str
    value: Optional[float]
    ci: Interval
    n: int
    wins: int
    seat_games: Optional[int] = None  # a rotated run's: deals times rotations
    ci_method: Optional[str] = None  # a rotated run's (a t interval over deals)


class SeatPair(Part):
    seats: list[int]
    diff: Optional[float]
    ci: Interval
    p: Optional[float]
    ci_level: float


class Informative(Part):
    count: int
    share: float
    help: str


class SeatGap(Part):
    """Best minus worst seat, with the one interval the seats' verdict is read from (analysis.stats.seat_balance)."""

    value: float
    ci: Interval
    best_seat: int
    worst_seat: int
    test: str
    p: Optional[float]
    family_size: int
    pair_ci_level: float
    significant: bool
    n: int
    ci_method: str
    pairs: list[SeatPair]
    informative: Informative
    no_information: Optional[str]
    verdict: MarginVerdict
    n_games_played: Optional[int] = None  # a rotated run: deals times rotations


class SharedWins(Part):
    games_with_a_winner: int
    games_with_shared_wins: int
    shared_rate: Rate
    seat_rates_sum: float  # the seats' win rates added up
    words: Optional[str]


class FirstPlayer(Part):
    first: Rate
    others: Rate
    advantage: Optional[float]
    ci: Interval
    p: Optional[float]
    n: int
    significant: bool
    method: str
    verdict: MarginVerdict


class Histogram(Part):
    values: list[float]
    counts: list[int]
    bin_width: Optional[float]


class Distribution(Part):
    """analysis.distributions.distribution_counts: a length's distribution."""

    column: str
    help: str
    n: int
    mean: Optional[float]
    mean_ci: Interval
    median: Optional[float]
    median_ci: Interval
    p10: Optional[float]
    p90: Optional[float]
    min: Optional[float]
    max: Optional[float]
    histogram: Histogram


class ColumnMean(Part):
    """A declared column's mean per game (per seat-game: `per`), missing values and -1 sentinels left out."""

    mean: Optional[float]
    ci: Interval
    n: int
    missing: int
    help: str
    excluded_sentinel: Optional[int] = None  # the column's help documents -1 as "never"
    per: Optional[str] = None  # "seat-game"


class Lift(Part):
    value: Optional[float]
    ci: Interval
    p: Optional[float]
    significant: bool


class CardRow(Part):
    """One card and counter (analysis.cards._row): its lift is an association, not an effect."""

    card_id: int
    card: str
    counter: str
    seat_games: int
    games_with: int
    total: int
    share_with: Estimate
    mean_total: Optional[float]
    win_rate_with: Estimate
    win_rate_without: Estimate
    lift: Lift
    comparison: str  # "reached" or "all"
    reached_games: Optional[int]
    share_reached: Estimate


class Cards(Part):
    """analysis.cards.cards_to_dict: every card and counter, the ranked top and bottom, the dead cards."""

    counters: list[str]
    primary_counter: Optional[str]
    n_cards: int
    n_in_play: int
    never_drawn: list[str]
    alpha: float
    dead_threshold: float
    table: list[CardRow]
    top: list[CardRow]
    bottom: list[CardRow]
    dead: list[CardRow]
    seat_games: Optional[int] = None  # the rest: None when no card was counted
    correction: Optional[str] = None
    family_size: Optional[int] = None
    comparison: Optional[str] = None  # "reached", "all" or "mixed"
    lift_meaning: Optional[str] = None
    n_significant: Optional[int] = None


class AlertCard(Part):
    card: str
    lift: float
    ci: Interval
    plays: Optional[int]


class Alert(Part):
    """analysis.findings.alerts: what a designer should look at first (`id` says which)."""

    id: Literal["nobody_wins", "turn_cap", "no_move", "dead_cards", "card_lift", "skill_changes"]
    k: Optional[int] = None
    n: Optional[int] = None
    value: Optional[float] = None
    ci: Optional[Interval] = None
    cap: Optional[int] = None  # turn_cap
    counter: Optional[str] = None  # dead_cards, card_lift
    threshold: Optional[float] = None  # dead_cards
    cards: Optional[list[str] | list[AlertCard]] = None  # dead_cards: names; card_lift: the cards named
    seat_games: Optional[int] = None
    comparison: Optional[str] = None  # card_lift
    margin: Optional[float] = None
    more: Optional[int] = None
    policy: Optional[str] = None  # skill_changes
    changes: Optional[int] = None


class Headline(Part):
    """analysis.findings.headline: the win rate measured to within the margin, or not yet."""

    metric: str
    value: Optional[float]
    ci: Interval
    n: int
    half_width: float
    margin: float
    verdict: Literal["measured", "imprecise"]
    games_for_margin: Optional[int]


class Games(Part):
    """The headline fields of one set of games (analysis.summary_block.Block): a run, or a sweep's point."""

    n_games: int
    win_rate: Optional[float]
    win_rate_ci: Interval
    wins: int
    win_rate_by_seat: Optional[list[SeatRate]] = None  # competitive games with several seats
    seat_gap: Optional[SeatGap] = None
    # a seat's fair share of wins (analysis.stats.fair_share: mean winners per game / players), what every seat
    # would win if the seats were equal; the one figure the reports compare each seat with
    fair_share: Optional[float] = None
    shared_wins: Optional[SharedWins] = None
    everybody_loses: Optional[Rate] = None
    first_player: Optional[FirstPlayer] = None
    length: Distribution
    rounds: Optional[Distribution] = None
    end_reasons: dict[str, int]  # every declared end reason (zeros included), then any other
    end_reason_shares: dict[str, Rate]
    capped: int
    capped_rate: Rate
    turn_cap: int
    metrics: dict[str, ColumnMean]  # the declared game columns (keys: the game's column names)
    seat_metrics: dict[str, ColumnMean]  # the declared seat columns
    # the game's own headline (simcore.metrics, declared in its spec): rates, means, distributions and
    # nested groups of them, of each game's own shape, so free-form
    game_metrics: Optional[dict[str, Any]] = None
    cards: Cards
    alerts: list[Alert]
    headline: Optional[Headline]


class Variant(Games):
    """One point of a sweep (every figure of one rule set: none pools the points)."""

    name: str
    params: dict[str, Any]  # its rule parameters (keys: the game's parameter names)
    varied: dict[str, Any]  # what the sweep varied
    n_requested: Optional[int]
    complete: bool
    stopped_by: Optional[str]


class PairedFigure(Part):
    """One point minus the first on one figure (analysis.summary._Paired)."""

    diff: Optional[float]
    ci: Interval
    p: Optional[float]
    n: int
    p_adjusted: Optional[float]
    ci_level: float
    significant: bool
    verdict: Optional[MarginVerdict] = None  # None: no margin (a length with no baseline mean)
    method: Optional[str] = None
    ci_95: Optional[Interval] = None  # the win rate's 95% interval
    margin_kind: Optional[str] = None
    p_mcnemar_exact: Optional[float] = None
    discordant: Optional[list[int]] = None
    correlation: Optional[float] = None
    no_information: Optional[str] = None
    a: Optional[float] = None
    b: Optional[float] = None
    n_a: Optional[int] = None
    n_b: Optional[int] = None
    missing: Optional[int] = None
    rate: Optional[bool] = None


class PairedPoint(Part):
    variant: str
    n_pairs: int
    win_rate: PairedFigure
    length_mean: PairedFigure


class PairedVsFirst(Part):
    """Every point of a sweep against the first, game by game on the same seeds."""

    baseline: Optional[str]
    method: str
    correction: str
    alpha: float
    ci_level: float
    family_size: int
    margin: float
    comparisons: list[PairedPoint]


class PolicyRate(Part):
    """A rotated run's policy over every seat."""

    listed_seat: int
    policy: str
    value: Optional[float]
    ci: Interval
    n: int
    seat_games: int
    wins: int
    ci_method: str


class RotatedSeat(Part):
    seat: int
    value: Optional[float]
    ci: Interval
    n: int
    seat_games: int
    wins: int
    ci_method: str


class GapOf(Part):
    value: float
    ci: Interval
    best_seat: int
    worst_seat: int
    ci_method: str


class Test(Part):
    name: str
    p: Optional[float]
    family_size: int
    ci_level: float


class Balance(Part):
    """analysis.stats.seat_balance over a rotated run's deals (seats, or policies)."""

    n: int
    reps: int
    trials_per_seat: int
    seats: list[RotatedSeat] | list[PolicyRate]
    fair_share: float
    informative: Informative
    test: Test
    significant: bool
    gap: GapOf
    pairs: list[SeatPair]
    no_information: Optional[str]
    verdict: MarginVerdict
    shared: Optional[dict[str, Any]] = None  # only with one replay per deal, never in a rotated run


class SeatRotation(Part):
    rotations: int
    deals: int
    incomplete_deals: int
    how: str
    seats: Optional[Balance]
    policies: Optional[Balance]
    policy_names: list[str]


class LevelRate(Part):
    """A difficulty level's win rate (analysis.summary.ladder)."""

    level: Any  # the game's level value (a number or a name)
    value: Optional[float]
    ci: Interval
    n: int
    k: int
    variant: Optional[str] = None


class VerdictItem(MarginVerdict):  # + margin, verdict, significant, words, reason, games_to_decide
    """One verdict of the run (analysis.findings._item)."""

    id: Literal["seats", "first_player", "vs_first", "policies"]
    variant: Optional[str]
    question: str
    metric: str
    estimate: Optional[float]
    ci: Optional[Interval]
    ci_level: float
    n: Optional[int]
    p: Optional[float]
    best_seat: Optional[int] = None  # seats
    worst_seat: Optional[int] = None
    best: Optional[str] = None  # policies
    worst: Optional[str] = None
    baseline: Optional[str] = None  # vs_first


class Verdicts(Part):
    margin: float
    alpha: float
    margin_kind: str
    items: list[VerdictItem]
    counts: dict[str, int]  # verdict code -> items


class SkillFigure(Part):
    value: Optional[float]
    ci: Interval
    n: int
    k: Optional[int] = None


class SkillHeadline(Part):
    """The headline paired deal by deal: the run's policies against expert at every seat."""

    variant: Optional[str]
    metric: str
    deals: int
    main: SkillFigure
    check: SkillFigure
    diff: Optional[float]
    ci: Interval
    p: Optional[float]
    verdict: MarginVerdict


class SkillCheckItem(Part):
    """A verdict of the run re-read from the expert games (the check's verdict fields, as `VerdictItem`'s)."""

    id: str
    variant: Optional[str]
    status: Literal["holds", "changes", "unsettled"]
    main_verdict: Optional[str]
    check: dict[str, Any]  # the check's item: a verdict item's fields (estimate, ci, n, margin, verdict...)


class SkillCheck(Part):
    """analysis.skill_check.result: the first deals played again with expert at every seat."""

    played: bool
    policy: str
    why: Optional[str] = None  # not played
    folder: Optional[str] = None
    deals: Optional[int] = None
    n_games: Optional[int] = None
    variants: Optional[list[str]] = None
    headline_metric: Optional[str] = None
    headline_words: Optional[str] = None
    headlines: list[SkillHeadline] = []
    items: list[SkillCheckItem] = []
    changes: int = 0
    margin: Optional[float] = None
    how: Optional[str] = None


class SummaryResult(Games, ResultFile, kind="summary", schema_version=1):
    """summary.json: a folder's games summarised. A run's (one set of games) has the `Games` fields at its
    top level; a sweep's (`per_variant`) has them per point, in `variants`, and no pooled figure."""

    folder_kind: str  # the run folder's kind (manifest.json): run, sweep, compare, impact, skill-check
    game: str
    title: str
    mode: Optional[str]
    players: Optional[int]
    cooperative: bool
    n_requested: Optional[int]
    seed: Optional[int]
    policies: list[dict[str, Any]]  # the manifest's policy records (analysis.runs), as the manifest holds them
    params: dict[str, Any]  # the rule parameters (keys: the game's parameter names)
    rule_version: Optional[str]
    card_list_hash: Optional[str]
    margin: float
    complete: bool
    stopped_by: Optional[str]  # "n_games", "precision"; None: not complete
    length_unit: str
    # a sweep's: no pooled figure, so the `Games` fields a run has at its top level are absent
    per_variant: Optional[bool] = None
    variants: Optional[list[Variant]] = None
    paired_vs_first: Optional[PairedVsFirst] = None
    win_rate: Optional[float] = None
    win_rate_ci: Optional[Interval] = None
    wins: Optional[int] = None
    length: Optional[Distribution] = None
    end_reasons: Optional[dict[str, int]] = None
    end_reason_shares: Optional[dict[str, Rate]] = None
    capped: Optional[int] = None
    capped_rate: Optional[Rate] = None
    turn_cap: Optional[int] = None
    metrics: Optional[dict[str, ColumnMean]] = None
    seat_metrics: Optional[dict[str, ColumnMean]] = None
    cards: Optional[Cards] = None
    alerts: list[Alert] = []
    headline: Optional[Headline] = None
    # a seat-rotated run's
    seat_rotation: Optional[SeatRotation] = None
    seat_gap_unrotated: Optional[SeatGap] = None
    # stopping.json's content (analysis.summary.read_stopping) for a --precision run: read as it is written
    stopping: Optional[dict[str, Any]] = None
    ladder: list[LevelRate]  # the difficulty ladder (several levels played), else empty
    verdicts: Verdicts
    generated: str
    # card_power.json's result (analysis.card_power.analyse), embedded as impact.json embeds it
    card_power: Optional[dict[str, Any]] = None
    skill_check: Optional[SkillCheck] = None  # None: a skill check's own summary

    @model_validator(mode="after")
    def _points_compared(self):
        if len(self.variants or []) > 1 and self.paired_vs_first is None:
            raise ValueError("a sweep's summary without paired_vs_first (every point against the first)")
        return self

    @property
    def sweep(self) -> bool:
        """Several points, each summarised on its own (the sweep report)."""
        return len(self.variants or []) > 1

    def at(self, point: Games) -> "SummaryResult":
        """One point of a sweep (an impact folder's baseline) as a run's summary: the run-wide fields (game,
        players, policies, margin...), the point's figures in place of the run's, and none of what names
        the points (their list and comparisons, their verdicts, the skill check, card power)."""
        mine = {k: getattr(point, k) for k in type(point).model_fields if k in SummaryResult.model_fields}
        return self.model_copy(update={**mine, "variants": None, "paired_vs_first": None, "per_variant": None,
                                       "verdicts": self.verdicts.model_copy(update={"items": [], "counts": {}}),
                                       "skill_check": None, "card_power": None})

    def dumps(self) -> str:
        # the fields the analysis wrote, and only those: a run's summary has no sweep fields and the reverse
        import json

        from .jsonsafe import jsonable

        return json.dumps(jsonable(self.model_dump(mode="python", by_alias=True, exclude_unset=True)), indent=1,
                          allow_nan=False)

    @classmethod
    def recover(cls, path: Path, data: dict | None) -> str:
        return f"run `balance report {shlex.quote(str(path.parent))}` to make it again from the folder's games"
