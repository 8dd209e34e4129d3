"""campaign.json's schema (version 2, which added card_list: the card list played, read by the report
instead of the game's loader; the files before version 1 had neither `kind` nor schema_version):
`balance campaign`'s result (analysis.campaign.run_campaign), whole solo campaigns, levels 1..11.

Written by `write_campaign` (analysis.campaign) from run_campaign's result; read back by
reports.campaign, reports.verdicts, cli.tune and the Python API with `CampaignResult.read(folder)`.
A campaign folder holds no games (it keeps its figures only), so an older or damaged file is made
again by its own command (`balance campaign ...`), not by `balance report`.
"""
from __future__ import annotations

from typing import Any, Literal, Optional

from .results import CardListRecord, CommandResultFile, Interval, MarginVerdict, Part


class Rate(Part):
    """analysis.stats.rate: k of n, Wilson 95% interval (value None: n is 0)."""

    value: Optional[float]
    ci: Interval
    n: int
    k: int


class Mean(Part):
    """analysis.stats.mean_ci: a mean with its normal 95% interval (value None: no values)."""

    value: Optional[float]
    ci: Interval
    n: int


class Attempts(Mean):
    """Attempts to clear a level, among the campaigns that cleared it."""

    median: Optional[float]


class Level(Part):
    level: int
    reached: int  # campaigns that played the level at least once
    cleared: int  # campaigns that won it
    attempts: Attempts
    win_rate: Rate  # over every attempt at the level (replays included)
    first_try: Rate  # of the campaigns that reached it


class GamesToClear(Part):
    """Games a whole campaign takes, over the campaigns that cleared every level (None: none did)."""

    n: int  # campaigns that cleared every level
    mean: Mean
    median: Optional[float]
    median_ci: Optional[Interval]  # bootstrap 95%
    p10: Optional[float]
    p90: Optional[float]


class StepItem(MarginVerdict):  # + margin, verdict, significant, words, reason, games_to_decide
    """A verdict: level L's win rate per attempt minus level L-1's (unpaired, Newcombe), against the margin
    (analysis.campaign.verdicts); the margin verdict's fields (analysis.stats.margin_verdict) inline."""

    id: Literal["step"]
    level: int
    from_level: int
    question: str
    metric: str
    estimate: Optional[float]
    ci: Interval
    ci_level: float  # 1 - alpha/steps (Bonferroni)
    n: int  # the smaller level's attempts
    n_a: int
    n_b: int
    p: Optional[float]


class Verdicts(Part):
    margin: float
    alpha: float
    margin_kind: str
    family_size: int
    items: list[StepItem]
    counts: dict[str, int]  # verdict -> how many items have it


class CampaignResult(CommandResultFile, kind="campaign", schema_version=2):
    """campaign.json: how many campaigns reach and clear each level, and what a whole campaign takes."""

    COMMAND = "campaign"

    players: int
    policies: list[dict[str, Any]]  # SeatPolicy.describe() per seat: name, kind, params (the policy's own)
    seed: int
    n_campaigns: int
    max_attempts: int  # a campaign gives up a level after this many attempts
    user_params: dict[str, Any]  # the fixed rule parameters (keys: the game's parameter names)
    card_list: Optional[CardListRecord]  # the card list played at them (None: a game without one)
    levels: list[Level]
    gave_up: int  # campaigns that gave up
    games_to_clear: GamesToClear
    verdicts: Verdicts
