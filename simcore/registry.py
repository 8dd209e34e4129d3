"""The games the toolkit knows: every folder of `simcore/` that holds a `spec.py`, imported on demand.

A game is found by its folder (`simcore/four_day_weekend/spec.py` is `--game four-day-weekend`), so
adding one needs no line here (docs/adding-a-game.md); nothing registers itself on import. Tests add
their fixture games to `GAMES` by hand."""
from __future__ import annotations

import importlib
from pathlib import Path

from .errors import BalanceError
from .spec import GameSpec


def _found() -> dict[str, str]:
    """--game name -> the game's spec module, for every game folder beside this module, by name."""
    here = Path(__file__).resolve().parent
    return {folder.name.replace("_", "-"): f"balance.simcore.{folder.name}.spec"
            for folder in sorted(p.parent for p in here.glob("*/spec.py"))}


GAMES: dict[str, str] = _found()


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
