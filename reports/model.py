"""The pieces every report is made of: a chart and a table (the view models the template lays out).
Kept apart from reports.views so that a fragment (reports.card_power) can build them without importing the
run report that includes it."""
from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup

from . import fmt


@dataclass(frozen=True)
class Chart:
    title: str
    svg: Markup
    caption: str
    group: str = ""  # charts are laid out under a heading per group (sweep: curves, then pooled)
    wide: bool = False  # spans the whole width (heatmaps, multi-panel charts)

    @property
    def anchor(self) -> str:
        """Its id in the page (a verdict links to it): fmt.anchor("chart", title)."""
        return fmt.anchor("chart", self.title)


TEXT_COLUMNS = {"what it is", "parameters", "policy", "verdict", "method", "run", "recommended", "runners-up",
                "point", "target met", "monotone"}


@dataclass(frozen=True)
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]
    note: str = ""
    numeric_from: int = 1  # columns from this index on are right-aligned, except text ones

    def is_num(self, i: int) -> bool:
        return i >= self.numeric_from and self.columns[i] not in TEXT_COLUMNS

    @property
    def anchor(self) -> str:
        """Its id in the page (a verdict links to it): fmt.anchor("table", title)."""
        return fmt.anchor("table", self.title)
