"""The games the toolkit knows: an explicit table, imported on demand."""
from __future__ import annotations

import importlib

from .errors import BalanceError
from .spec import GameSpec

# --game name -> module holding SPEC. Listed here, never registered on import.
GAMES: dict[str, str] = {
    "overtime": "balance.simcore.overtime",
    "sickdays-solo": "balance.simcore.sickdays_solo",
    "four-day-weekend": "balance.simcore.four_day_weekend",
    "youre-fired": "balance.simcore.youre_fired",
    "sickdays-party": "balance.simcore.sickdays_party",
}


def names() -> list[str]:
    return list(GAMES)


def get(name: str) -> GameSpec:
    if name not in GAMES:
        raise BalanceError(f"--game: unknown game '{name}'; allowed: {', '.join(GAMES)}")
    return importlib.import_module(GAMES[name]).SPEC
