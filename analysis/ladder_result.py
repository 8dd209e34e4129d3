"""The skill ladder's result as typed schemas: `LadderAnalysis` (analysis.ladder.analyse's result: what
the ladder report and `balance ladder`'s tables are built from, and what the ladder folder's
summary.json holds) and `LadderFile`, ladder.json's schema (version 2; the files before it carried
`kind: "ladder"` but no schema_version): the hook reports.context reads, one ladder (one setting) at
its top level, or several under `ladders` (one per level).

Written by analysis.ladder.write; ladder.json read back by reports.context and the Python API with
`LadderFile.read(folder)`. A ladder folder's report recomputes both files from the folder's games
(`balance report FOLDER`), so an older ladder.json is remade rather than read.
"""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import model_validator

from .campaign_result import Rate
from .results import Interval, MarginVerdict, Part, ResultFile


class Paired(Part):
    """One rung minus another (or minus its fair share) over the deals both played (analysis.ladder._pair)."""

    diff: Optional[float]
    ci: Interval
    p: Optional[float]
    n: int  # deals (games) in the pairs
    method: Optional[str] = None


class VsFair(Paired):
    """The rung's seat minus its fair share in the same games, against the margin."""

    verdict: MarginVerdict
    significant: bool  # the interval excludes 0


class Rung(Part):
    """A rung's headline (a head-to-head table's too): Wilson interval over games (solo, co-op) or a normal
    interval over deals (a competitive seat's mean)."""

    name: str  # the policy
    label: str  # the rung: 'greedy epsilon=0.2', 'expert vs lookahead'
    value: Optional[float]
    ci: Interval
    n: int
    k: Optional[int] = None  # a rate's count (solo, co-op)
    interval: str  # "Wilson", "normal, over deals"
    bound: bool  # the open-hand search (oracle): not a player, no upper bound either
    variants: int  # the rung's variants (seats it sat at)
    open_hand: Optional[bool] = None
    params: Optional[dict[str, Any]] = None  # the policy's parameter overrides (epsilon)
    fair_share: Optional[float] = None  # competitive: mean winners per game / players, in the same games
    vs_fair: Optional[VsFair] = None  # competitive (None: fewer than 2 deals)
    vs: Optional[dict[str, Paired]] = None  # other rung's label -> this rung minus it (None: a head-to-head table)
    a: Optional[str] = None  # a head-to-head table: its first-named rung, whose seat is measured
    b: Optional[str] = None
    table: Optional[str] = None  # the seating in words


class Figure(Paired):
    figure: str  # 'expert minus greedy'


class ChosenOn(Part):
    deals: str
    means: dict[str, float]  # rung -> its mean on the deals that chose
    n: dict[str, int]


class Skill(Paired):
    """How much skill matters: the best rung minus the weakest, chosen on the even deals, measured on the odd."""

    figure: str
    top: str
    base: str
    chosen_on: ChosenOn
    measured_on: str
    over_greedy: Optional[Figure] = None
    expert_vs_greedy: Optional[Figure] = None


class TPlayer(Part):
    label: str
    rating: float
    ci: Interval
    p_beats_anchor: float
    deals: int
    anchor: bool


class TVerdict(Part):
    stronger: Optional[str]
    weaker: Optional[str]
    words: str


class TPair(Part):
    a: str
    b: str
    diff: float  # rating of a minus b
    ci: Interval
    verdict: TVerdict
    head_to_head: list[str]  # the tables where they met


class TPairing(Part):
    """A table's pairing of two rungs, observed against what the ratings predict (analysis.tournament)."""

    a: str
    b: str
    table: str
    deals: int
    a_wins: float
    b_wins: float
    observed: Optional[float]
    observed_ci: Interval
    predicted: float
    fits: bool


class Tournament(Part):
    """Bradley-Terry ratings of the rungs, greedy at 0 (analysis.tournament.ratings); no fit: empty lists."""

    players: list[TPlayer]
    pairs: list[TPair]
    n_deals: int
    anchor: Optional[str] = None
    bootstrap: Optional[int] = None
    alpha: Optional[float] = None
    prior: Optional[float] = None
    method: Optional[str] = None
    pairings: list[TPairing] = []
    connected: bool


class BoundRung(Part):
    deals: int
    won: int
    won_not_winnable: int  # won deals the solver calls not winnable (none, or the solver is wrong)
    rate: Rate


class SolverBound(Part):
    """The exhaustive solver's bound at one level (analysis.ladder.bound_entry)."""

    deals: int
    winnable: int
    not_winnable: int
    unknown: int  # the solver's budget ran out
    nodes: Optional[int]
    low: Rate  # winnable
    high: Rate  # winnable or unknown
    ci: Interval
    replayed: int
    nodes_median: Optional[float]
    how: str
    rungs: dict[str, BoundRung]  # rung -> its wins on the same deals


class Ladder(Part):
    """One ladder: one setting (one level)."""

    kind: Literal["ladder"] = "ladder"
    game: str
    players: int
    params: dict[str, Any]  # the rule parameters (keys: the game's parameter names)
    level: Optional[int] = None
    metric: str  # what `value` measures, in words
    paired: bool  # every rung played the same deals
    policies: list[Rung]  # weakest first
    head_to_head: Optional[list[Rung]] = None  # competitive games
    tournament: Optional[Tournament] = None  # competitive games
    skill: Optional[Skill] = None  # None: fewer than two rungs measured
    solver_bound: Optional[SolverBound] = None  # where the game has a solver

    def rung(self, label: str) -> Optional[Rung]:
        return next((e for e in self.policies if e.label == label), None)


class VerdictItem(MarginVerdict):  # + margin, verdict, significant, words, reason, games_to_decide
    """A ladder verdict (analysis.ladder.verdicts), the margin verdict's fields inline."""

    id: Literal["skill", "headroom", "vs_fair"]
    level: Optional[int]
    question: str
    metric: str
    top: Optional[str] = None
    base: Optional[str] = None
    policy: Optional[str] = None  # vs_fair: the rung
    estimate: Optional[float]
    ci: Interval
    n: Optional[int]
    p: Optional[float]


class Verdicts(Part):
    margin: float
    margin_kind: str
    items: list[VerdictItem]
    counts: dict[str, int]


class LadderAnalysis(Part):
    """analysis.ladder.analyse's result: every ladder of the folder, with what it was played with."""

    kind: Literal["ladder"] = "ladder"
    game: str
    title: str
    players: int
    competitive: bool
    cooperative: bool
    seed: int
    n_requested: Optional[int]  # deals per cheap rung
    search_share: dict[str, float]  # search rung -> its share of the deals
    levels: list[int]
    left_out: list[str]  # rungs the game refuses, and why
    engine_hash: Optional[str]
    margin: float
    ladders: list[Ladder]
    verdicts: Verdicts
    complete: bool  # every rung has the games asked for
    policies: Optional[list[dict[str, Any]]]  # the manifest's policy records (analysis.runs), as it holds them


class LadderFile(ResultFile, kind="ladder", schema_version=2):
    """ladder.json: one ladder at its top level (a Ladder's fields), or several under `ladders`."""

    game: str
    players: int
    seed: int
    engine_hash: Optional[str]
    complete: bool
    generated: str  # when it was written (UTC, ISO 8601)
    ladders: Optional[list[Ladder]] = None  # several settings (one per level)
    # one setting: a Ladder's fields at the top level
    params: Optional[dict[str, Any]] = None
    level: Optional[int] = None
    metric: Optional[str] = None
    paired: Optional[bool] = None
    policies: Optional[list[Rung]] = None
    head_to_head: Optional[list[Rung]] = None
    tournament: Optional[Tournament] = None
    skill: Optional[Skill] = None
    solver_bound: Optional[SolverBound] = None

    @model_validator(mode="after")
    def _one_form(self):
        if (self.ladders is None) == (self.policies is None):
            raise ValueError("one ladder (policies) or several (ladders), not " +
                             ("both" if self.ladders is not None else "neither"))
        if self.ladders is None and (self.metric is None or self.params is None or self.paired is None):
            raise ValueError("one ladder needs its params, metric and paired")
        return self

    @classmethod
    def of(cls, result: LadderAnalysis, generated: str) -> "LadderFile":
        """ladder.json of analyse's result: its one ladder at the top level, else every ladder under `ladders`."""
        meta = {"seed": result.seed, "engine_hash": result.engine_hash, "complete": result.complete,
                "generated": generated}
        if len(result.ladders) == 1:
            one = result.ladders[0]
            return cls(**{k: getattr(one, k) for k in Ladder.model_fields}, **meta)
        return cls(game=result.game, players=result.players, ladders=result.ladders, **meta)

    @property
    def settings(self) -> list[Ladder]:
        """Its ladders, one per setting, each with the file's game and players."""
        if self.ladders is not None:
            return self.ladders
        return [Ladder(**{k: getattr(self, k) for k in Ladder.model_fields})]

    @classmethod
    def recover(cls, path: Path, data: dict | None) -> str:
        return f"run `balance report {shlex.quote(str(path.parent))}` to make it again from the ladder folder's games"
