"""What a run's numbers are about (reports.context, built once per report):
its card lists, the rule parameters off their defaults, the policy at each
seat, the skill ladder it is set against and the fair share of a seat. The
run, sweep and impact reports build it with `build_about`. Split from
reports.views.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

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


def build_about(s: dict, manifest: dict, run_dir: Path | None, spec=None, params: dict | None = None) -> About:
    cfg = manifest.get("config") or {}
    params = params if params is not None else (s.get("params") or cfg.get("params") or {})
    game = s.get("game") or cfg.get("game") or getattr(spec, "name", "")
    seats = context.seat_policies(s.get("policies") or cfg.get("policies"), spec, s.get("players") or cfg.get("players"))
    return About(
        cards=context.card_lists(manifest, spec, run_dir),
        changes=context.rule_changes(params, spec),
        seats=seats,
        ladder=context.find_ladder(run_dir, s, game, s.get("players") or cfg.get("players"), params,
                                   cfg.get("engine_hash")),
        fair=None if s.get("cooperative") else context.fair_share(s),
        game_title=s.get("title") or cfg.get("title") or game,
    )
