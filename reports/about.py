"""What a run's numbers are about (reports.context, built once per report):
its card lists, the rule parameters off their defaults, the policy at each
seat, the skill ladder it is set against and the fair share of a seat. The
run, sweep and impact reports build it with `build_about`. Split from
reports.views.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from balance.analysis.summary_result import SummaryResult

from . import context


@dataclass(frozen=True)
class About:
    """The context of a run's numbers (reports.context), built once per report."""

    cards: list = field(default_factory=list)  # context.CardListNote
    changes: list = field(default_factory=list)  # context.Change: rule parameters off their defaults
    seats: list = field(default_factory=list)  # context.SeatPolicy
    ladder: tuple | None = None  # (ladder, where found)
    fair: "context.FairShare | None" = None
    game_title: str = ""

    @property
    def settings(self) -> str:
        return context.settings_words(self.changes, self.seats)

    @property
    def reconstruction(self) -> bool:
        """Its card figures are about invented cards: the shipped reconstruction or an edited copy of it."""
        return any(n.invented for n in self.cards)


def build_about(s: SummaryResult, manifest: dict, run_dir: Path | None, spec=None, params: dict | None = None) -> About:
    """`s`: a run's summary (a sweep's: `params` the rule parameters every point shares)."""
    params = params if params is not None else s.params
    return About(
        cards=context.card_lists(manifest, spec, run_dir),
        changes=context.rule_changes(params, spec),
        seats=context.seat_policies(s.policies, spec, s.players),
        ladder=context.find_ladder(run_dir, s.game, s.players, params, (manifest.get("config") or {}).get("engine_hash")),
        fair=None if s.cooperative else context.fair_share(s),
        game_title=s.title or s.game,
    )
