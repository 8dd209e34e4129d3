"""comparison.json's schema (version 1): `balance compare`'s result, B against A (analysis.compare).

Written by `write_comparison` (analysis.compare) from compare_runs' result, the skill check and the
card diff; read back by reports.comparison, reports.verdicts, cli.compare and the Python API with
`ComparisonResult.read(folder)`.
"""
from __future__ import annotations

from typing import Any, Literal, Optional

from .results import CommandResultFile, Interval, MarginVerdict, Part


class Side(Part):
    """One side of the comparison: the run folder (and variant) it read."""

    run: str  # the run folder, as given
    variant: str  # the variant compared (a plain run's only one)
    params: dict[str, Any]  # the variant's rule parameters (keys: the game's parameter names)
    seed: int
    policies: list[dict[str, Any]]  # the manifest's policy records (analysis.runs), as the manifest holds them
    players: int


class MetricRow(Part):
    """One metric, B − A (analysis.compare.compare_frames): the difference, its interval at `ci_level`,
    its test and its verdicts."""

    metric: str  # "win rate", "seat 1 win rate", "length", "ends: <reason>", "mean <column>"
    role: Literal["primary", "secondary"]
    diff: Optional[float]  # B − A (None: no data on one side)
    ci: Interval  # of diff, at ci_level
    ci_level: float  # 1 − alpha for the primary metric, 1 − alpha/m for the secondary ones (Bonferroni)
    p: Optional[float]  # the metric's own two-sided p
    p_adjusted: Optional[float]  # p times the family's size (1 for the primary)
    a: Optional[float]  # A's mean (a rate's share)
    b: Optional[float]
    n_a: int  # games (pairs, when paired) where the metric exists
    n_b: int
    missing: int  # values left out (NaN: a round not reached)
    method: Optional[str] = None  # the test and interval: "paired by game (exact McNemar; ...)", "Welch", ...
    rate: bool  # a share of games: compared in points, its margin absolute
    significant: bool  # p_adjusted <= alpha (the interval shown excludes 0)
    verdict: str  # "B higher", "B lower", "no significant difference", "no information", "no data on one side"
    margin: float  # the margin in the metric's unit (rates: the margin; others: the margin times A's value)
    margin_kind: str  # "absolute" or "relative: the margin times A's value"
    margin_verdict: MarginVerdict
    # the paired methods' own figures (None where the method has none)
    n: Optional[int] = None  # pairs
    p_mcnemar_exact: Optional[float] = None
    discordant: Optional[list[int]] = None  # [pairs only A won, pairs only B won]
    correlation: Optional[float] = None  # of A's and B's outcomes, game by game
    no_information: Optional[str] = None  # why no game set A against B (the interval has no information)


class Dropped(Part):
    """A metric left out of the family, and why (analysis.compare.dedupe)."""

    metric: str
    reason: str


class Pairing(Part):
    """What the pairing bought on the primary metric, measured (analysis.compare.pairing_of)."""

    correlation: Optional[float]  # of A's and B's per-game values
    width_ratio: Optional[float]  # paired interval's width / the unpaired one's, same games, same level
    n_pairs: int
    level: float
    how: str
    identical: bool = False  # A and B had the same result in every pair: nothing for the pairing to remove
    words: Optional[str]  # the sentence that says it (analysis.compare.pairing_sentence); None: nothing measured


class VerdictItem(MarginVerdict):  # + margin, verdict, significant, words, reason, games_to_decide
    """One verdict of `verdicts` (the form every result's verdicts share): a question, its estimate and
    interval, and the margin verdict's fields."""

    id: str
    variant: Optional[str]
    question: str
    metric: str
    role: str
    estimate: Optional[float]
    ci: Interval
    ci_level: float
    n: int
    p: Optional[float]


class Verdicts(Part):
    margin: float
    alpha: float
    items: list[VerdictItem]


class MetricCheck(Part):
    """A metric's comparison recomputed on the skill check's games (the fields a verdict is said from)."""

    metric: str
    diff: Optional[float]
    ci: Interval
    ci_level: float
    margin: float
    margin_verdict: MarginVerdict
    rate: bool
    n_a: int
    n_b: int
    a: Optional[float]
    b: Optional[float]
    method: Optional[str]
    role: str


class SkillItem(Part):
    metric: str
    status: Literal["holds", "changes", "unsettled"]
    check: MetricCheck


class SkillCheck(Part):
    """The comparison again on the skill checks of its sides (analysis.compare.skill_check)."""

    played: bool
    policy: str  # the stronger policy played at every seat
    why: Optional[str] = None  # not played: why
    folder: Optional[str] = None  # played: its subfolder
    n_a: Optional[int] = None
    n_b: Optional[int] = None
    items: list[SkillItem] = []
    changes: int = 0  # verdicts that change for the stronger policy
    margin: Optional[float] = None
    how: Optional[str] = None


class CardList(Part):
    """A side's card list, as its manifest's card_list record holds it (analysis.card_copies.card_list_record)."""

    file: Optional[str] = None
    sha256: Optional[str] = None
    shipped: Optional[bool] = None
    reconstruction: Optional[bool] = None
    edited: Optional[list[int]] = None  # [names shared with the reconstruction, names]: an edited copy of it


class CardDiff(Part):
    """Which cards differ between the sides' card lists, made when the comparison is (reports.comparison
    .card_diff_of), so a report is rebuilt from comparison.json alone."""

    a: CardList
    b: CardList
    same: bool
    rows: list[list[Any]]  # the card-by-card table's rows: change, section, card, field, A's value, B's value
    words: str
    diff: Optional[dict[str, Any]] = None  # reports.card_diff.CardDiff.to_dict(): card fields are the game's own


class ComparisonResult(CommandResultFile, kind="comparison", schema_version=1):
    """comparison.json: B against A on every headline metric."""

    COMMAND = "compare"

    title: str
    a: Side
    b: Side
    changed: dict[str, list[Any]]  # what B changes: parameter (or "policies") -> [A's value, B's value]
    n_a: int  # games of A
    n_b: int
    paired: bool  # the same seed and players on both sides: compared game by game
    pairing_basis: Optional[Literal["same deals", "same seeds"]]  # paired: what the pairs share
    pairing_words: Optional[str]
    pairing: Optional[Pairing]  # paired: what the pairing bought, measured
    alpha: float
    margin: float
    primary: str  # the metric compared first
    correction: str
    family_size: int  # the secondary metrics
    family: str  # the family in words
    metrics: list[MetricRow]  # the primary metric first
    dropped: list[Dropped]
    significant: list[str]  # the metrics whose interval excludes 0
    verdicts: Verdicts
    skill_check: Optional[SkillCheck]
    card_diff: Optional[CardDiff]  # None: the game has no card list, or the run folders were not readable

    # ------------------------------------------------------------ read by the report
    @property
    def headline(self) -> Optional[MetricRow]:
        """The primary metric (the win rate): what the comparison leads with."""
        return next((m for m in self.metrics if m.role == "primary"), None) or \
            next((m for m in self.metrics if m.metric == self.primary), None)

    def headline_first(self) -> list[MetricRow]:
        """The metrics with the headline first, the others in the order analysis.compare gave."""
        head = self.headline
        return ([head] if head is not None else []) + [m for m in self.metrics if m is not head]
