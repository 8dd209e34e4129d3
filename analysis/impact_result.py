"""impact.json's schema (version 2; the files before it carried `kind` but no schema_version):
`balance impact`'s result (analysis.impact), every variant against the baseline, paired game by game.

Written by `write_impact` (analysis.impact) from `analyse`; read back by reports.impact,
reports.verdicts, cli.impact and the Python API with `ImpactResult.read(folder)`. An impact folder's
report recomputes the file from the folder's games first (`balance report FOLDER`), so an older file
is remade rather than read.
"""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import ConfigDict, Field

from .compare_result import Dropped, Pairing
from .results import Interval, MarginVerdict, Part, ResultFile


class Aliased(Part):
    """A part with a field named `from` (a Python keyword): `from_` in code, "from" in the file."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Estimate(Part):
    """A rate (analysis.stats.rate: k of n games, Wilson interval) or a mean (mean_ci: normal interval)."""

    value: Optional[float]
    ci: Interval  # 95%
    n: int
    k: Optional[int] = None  # a rate's count (None: a mean)


class Baseline(Part):
    name: str  # the baseline variant's name
    params: dict[str, Any]  # its rule parameters (keys: the game's parameter names)
    card_list: Optional[dict[str, Any]]  # the manifest's card_list record (file, sha256, shipped, reconstruction)
    win_rate: Estimate
    primary: Estimate  # the ranking metric's baseline value (the win rate, or a mean length)


class Asked(Part):
    cards: list[str]
    rules: list[str]
    card_power: Optional[list[str]] = None  # the cards given one more copy (card power)


class Skipped(Aliased):
    """A variant not played: not a legal configuration."""

    what: Literal["card", "rule"]
    change: str  # remove_one, remove_all, add_one; down, up, flipped
    words: str  # the variant in words
    reason: str
    card: Optional[str] = None
    rule: Optional[str] = None
    from_: Any = Field(None, alias="from")  # a rule's baseline value
    to: Any = None  # the value it would have stepped to


class Lift(Part):
    """A card's observational lift in the baseline (analysis.cards): an association, not an effect."""

    lift: Optional[float]
    ci: Interval
    p: Optional[float]
    significant: bool
    seat_games_with: int
    seat_games: int
    win_rate_with: Optional[float]
    win_rate_without: Optional[float]
    comparison: str  # "reached" (among the seat-games that drew the card) or "all"
    n_with: int
    n_without: int


class PairedRow(Part):
    """A paired difference, variant − baseline, in a family (analysis.stats.difference_family)."""

    diff: Optional[float]
    ci: Interval  # at ci_level (1 − alpha/m, Bonferroni over the family)
    ci_level: float
    family_size: int
    p: Optional[float]
    p_holm: float  # Holm-adjusted over the family
    a: Optional[float]  # the baseline's mean (a rate's share)
    b: Optional[float]  # the variant's
    n: int  # pairs
    n_a: int
    n_b: int
    missing: int
    rate: bool  # a share of games: in points, its margin absolute
    significant: bool  # the interval excludes 0
    margin: float  # in the metric's unit (others: the margin times the baseline's value)
    margin_verdict: MarginVerdict
    method: Optional[str] = None
    p_mcnemar_exact: Optional[float] = None
    discordant: Optional[list[int]] = None
    correlation: Optional[float] = None
    no_information: Optional[str] = None


class ImpactRow(PairedRow, Aliased):
    """One variant's effect on the primary metric, ranked."""

    variant: str
    what: Literal["card", "rule"]
    change: str  # remove_one, remove_all, add_one; down, up, flipped
    pairing_basis: Literal["same deals", "same seeds"]
    pairing: Pairing
    # a card variant
    card: Optional[str] = None
    change_words: Optional[str] = None
    copies: Optional[list[Optional[int]]] = None  # [baseline's copies, the variant's] (None: its entry removed)
    file: Optional[str] = None  # its card list, in the folder's cards/
    sha256: Optional[str] = None
    lift: Optional[Lift] = None  # the card's lift in the baseline (None: not measured)
    # a rule variant
    rule: Optional[str] = None
    from_: Any = Field(None, alias="from")
    to: Any = None


class SecondaryRow(PairedRow):
    """One (variant, metric) difference of the second family."""

    variant: str
    metric: str


class RowCheck(Part):
    """A row re-measured on the skill check's games: the fields its verdict is said from (`diff` for
    the ranked rows, `effect` for card power's)."""

    diff: Optional[float] = None
    effect: Optional[float] = None
    ci: Optional[Interval] = None
    ci_level: Optional[float] = None
    margin: Optional[float] = None
    margin_verdict: Optional[MarginVerdict] = None
    n: Optional[int] = None
    n_a: Optional[int] = None
    a: Optional[float] = None
    b: Optional[float] = None
    seat_win_without: Optional[float] = None
    seat_win_with: Optional[float] = None
    rate: Optional[bool] = None


class SkillItem(Part):
    table: Literal["rows", "card_power"]
    variant: str
    status: Literal["holds", "changes", "unsettled"]
    check: RowCheck


class SkillCheck(Part):
    """The baseline and the largest effects played again with a stronger policy (analysis.impact._skill)."""

    played: bool
    policy: str
    why: Optional[str] = None
    folder: Optional[str] = None
    n_games: Optional[int] = None
    items: list[SkillItem] = []
    changes: int = 0
    how: Optional[str] = None


class ImpactResult(ResultFile, kind="impact", schema_version=2):
    """impact.json: what changes the game, measured by changing it."""

    game: str
    title: str
    seed: int
    players: int
    policies: list[dict[str, Any]]  # the manifest's policy records (analysis.runs), as the manifest holds them
    mode: str
    n_requested: int  # games per variant asked for
    alpha: float
    margin: float
    primary: str  # the ranking metric: "win rate", or "length" when every baseline game has the same win
    primary_rate: bool  # the ranking metric is a rate
    primary_why: Optional[str]  # why it is not the win rate
    primary_unit: Optional[str]  # a length's unit (turns, rounds)
    baseline: Baseline
    asked: Asked
    skipped: list[Skipped]
    correction: str
    family_size: int  # variants in the primary family
    secondary_family_size: int
    ci_level: float  # each primary interval's level
    secondary_ci_level: float
    family: str  # the families in words
    lift_counter: Optional[str]  # the card counter the lift is of ("played")
    lift_comparison: Optional[str]
    rows: list[ImpactRow]  # ranked: the largest rise first
    secondary: list[SecondaryRow]
    dropped: dict[str, list[Dropped]]  # variant -> the metrics left out of its comparison
    n_games: dict[str, int]  # variant -> games analysed
    # card_power.json's result (analysis.card_power.analyse_frames), embedded: card power's own schema is
    # for when card_power.json gets one; until then its rows are read as analysis.card_power writes them
    card_power: Optional[dict[str, Any]] = None
    # stopping.json's content (analysis.summary.read_stopping) for a --precision run: typed with stopping.json
    stopping: Optional[dict[str, Any]] = None
    skill_check: Optional[SkillCheck] = None  # None: the skill check's own sub-analysis

    @classmethod
    def recover(cls, path: Path, data: dict | None) -> str:
        return f"run `balance report {shlex.quote(str(path.parent))}` to make it again from the folder's games"
