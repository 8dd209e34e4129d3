"""The games the toolkit knows: an explicit table, imported on demand."""
from __future__ import annotations

import importlib

from .errors import BalanceError
from .spec import GameSpec

# --game name -> the game's spec module (every game: <package>.spec, docs/adding-a-game.md).
# Listed here, never registered on import.
GAMES: dict[str, str] = {
    "overtime": "balance.simcore.overtime.spec",
    "sickdays-solo": "balance.simcore.sickdays_solo.spec",
    "four-day-weekend": "balance.simcore.four_day_weekend.spec",
    "youre-fired": "balance.simcore.youre_fired.spec",
    "sickdays-party": "balance.simcore.sickdays_party.spec",
}


def names() -> list[str]:
    return list(GAMES)


def get(name: str) -> GameSpec:
    if name not in GAMES:
        raise BalanceError(f"--game: unknown game '{name}'; allowed: {', '.join(GAMES)}")
    return importlib.import_module(GAMES[name]).SPEC


def package(name: str) -> str:
    """The game's package, where the modules of its layout live (`<package>.solver`,
    `<package>.knowledge`): the spec module's package (a one-module game: the module itself)."""
    mod = importlib.import_module(GAMES[name])
    return mod.__name__ if hasattr(mod, "__path__") else (mod.__package__ or mod.__name__)
