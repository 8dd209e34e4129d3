"""tuning.json's schema (version 2, which added card_list: the card list played, read by the report
instead of the game's loader; the files before version 1 had neither `kind` nor schema_version):
`balance tune`'s result (analysis.tune.tune): the recommended point (or, for a `ladder=` target,
one point per level), measured on fresh games never used to choose it.

Written by `write_tuning` (analysis.tune) from tune's result; read back by reports.tuning,
reports.verdicts, cli.tune and the Python API with `TuningResult.read(folder)`. A tuning folder
holds no games, so an older or damaged file is made again by its own command (`balance tune ...`).
"""
from __future__ import annotations

from typing import Any, Literal, Optional

from .campaign_result import Mean, Rate
from .results import CardListRecord, CommandResultFile, Interval, MarginVerdict, Part


class Estimate(Part):
    """A figure with its 95% interval over n games (the seat gap adds its test's p)."""

    value: Optional[float]
    ci: Interval
    n: int
    p: Optional[float] = None


class Measured(Part):
    """analysis.tune.measured: the target metrics of a sample of games, with intervals."""

    n: int
    indices: list[int]  # [first, last] game index
    win_rate: Rate
    seat_win_rates: list[Rate]
    seat_gap: Estimate  # bounded by paired pairwise intervals (analysis.stats.seat_balance)
    length_mean: Mean
    length_median: Estimate  # bootstrap interval


class Selection(Part):
    """A point's distance from the targets on the games that chose it (never the fresh ones)."""

    point: Optional[dict[str, Any]] = None  # the point (a ladder level's candidates carry it)
    n: int
    indices: list[int]
    miss: float  # summed distance from the targets (0: inside every band)
    win_rate: float
    values: Optional[dict[str, float]] = None  # metric -> its value on those games


class BandCheck(Part):
    """A band target against the fresh interval (analysis.tune.band_check)."""

    target: str  # as given: 'win_rate=0.45..0.55'
    verdict: Literal["met", "missed", "unclear"]
    point_inside: bool
    words: Optional[str] = None  # None: the interval could not be made


class Candidate(Part):
    """The pick or a runner-up, measured on the fresh games (the figures reported)."""

    point: dict[str, Any]  # parameter -> value
    selection: Selection
    measured: Measured
    fresh: bool
    miss: float
    targets: list[BandCheck]
    targets_met: list[bool]


class VsPick(Part):
    candidate: int
    diff_ci: Interval
    indistinguishable: bool


class Certainty(Part):
    """How sure the pick is the closest (analysis.tune.certainty): paired bootstrap of the fresh games."""

    p_best: list[float]  # per candidate, the pick first
    vs_pick: list[VsPick]
    n_boot: int
    n: int
    method: str
    words: str


class PairedBinary(Part):
    """analysis.stats.paired_binary: B − A game by game (exact McNemar, Newcombe interval)."""

    diff: Optional[float]
    ci: Interval
    p: Optional[float]
    p_mcnemar_exact: Optional[float]
    n: int
    discordant: list[int]
    correlation: Optional[float]
    method: str
    no_information: Optional[str] = None


class VsAssumed(PairedBinary):
    sign: Literal["higher", "lower", "straddles 0"]
    words: str
    verdict: MarginVerdict


class SkillRow(Measured):
    """The pick under another policy on the same fresh games, paired with it (analysis.tune.skill_row)."""

    vs_assumed: VsAssumed
    planned_from_pilot: bool


class LevelCheck(MarginVerdict):
    """A ladder level's fresh win rate against its target (analysis.tune.level_check)."""

    target: float
    off_by: float
    off_by_ci: Interval
    target_inside_ci: bool


class Step(PairedBinary):
    """A ladder step from the level before, paired by game (analysis.tune.step_check)."""

    expected: Literal["flat", "falls", "rises"]
    status: Literal["confirmed", "reversed", "not resolved"]
    words: str


class LevelRunnerUp(Part):
    point: dict[str, Any]
    win_rate: Rate
    miss: float
    selection: Selection


class TuneLevel(Part):
    """One level of a `ladder=` target: its pick, measured fresh, against its target."""

    level: int
    target: float  # the win rate asked for
    recommended: dict[str, Any]  # the pick: parameter -> value
    measured: Measured
    selection: Selection
    monotone_kept: bool  # the step from the level before keeps the targets' order
    check: LevelCheck
    runners_up: list[LevelRunnerUp]
    certainty: Optional[Certainty] = None  # None: the only candidate
    step: Optional[Step] = None  # None: the first level
    skill: dict[str, SkillRow]  # policy in words -> its row


class Games(Part):
    screening: list[int]  # [first, last] game index
    selection: list[int]
    fresh: list[int]
    words: str


class VerdictItem(Part):
    """A verdict (`id`: target, a band target; level and step, a ladder's)."""

    id: Literal["target", "level", "step"]
    question: str
    metric: str
    verdict: str  # target: met, missed, unclear; level: a margin verdict; step: confirmed, reversed, not resolved
    words: str
    estimate: Optional[float]
    ci: Interval
    n: int
    margin: Optional[float] = None  # the ladder's items carry it


class Verdicts(Part):
    margin: float
    items: list[VerdictItem]


class TuningResult(CommandResultFile, kind="tuning", schema_version=2):
    """tuning.json: the recommended parameters and how sure the recommendation is."""

    COMMAND = "tune"

    policies: list[dict[str, Any]]  # SeatPolicy.describe() per seat: name, kind, params (the policy's own)
    players: int
    seed: int
    targets: list[str]  # as given
    grid_points: int
    n_screen: int
    n_final: int  # games per finalist on the choosing range
    n_fresh: int
    margin: float
    user_params: dict[str, Any]  # the fixed rule parameters (keys: the game's parameter names)
    card_list: Optional[CardListRecord]  # the card list played at them (None: a game without one)
    games: Games
    # a `ladder=` target: one pick per level
    ladder: Optional[list[TuneLevel]] = None
    # band targets only: the pick, its runners-up, how sure, and skill sensitivity
    recommended: Optional[Candidate] = None
    runners_up: Optional[list[Candidate]] = None
    certainty: Optional[Certainty] = None
    skill: Optional[dict[str, SkillRow]] = None
    verdicts: Verdicts
