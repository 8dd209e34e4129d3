"""The games the toolkit knows: an explicit table, imported on demand."""
from __future__ import annotations

import importlib

from .errors import BalanceError
from .spec import GameSpec

# --game name -> module holding SPEC. Listed here, never registered on import.
GAMES: dict[str, str] = {
    "overtime": "simcore.overtime",
    "sickdays-solo": "simcore.sickdays_solo",
    "four-day-weekend": "simcore.four_day_weekend",
    "youre-fired": "simcore.youre_fired",
    "sickdays-party": "simcore.sickdays_party",
}


def names() -> list[str]:
    return list(GAMES)


def get(name: str) -> GameSpec:
    if name not in GAMES:
        raise BalanceError(f"--game: unknown game '{name}'; allowed: {', '.join(GAMES)}")
    return importlib.import_module(GAMES[name]).SPEC
