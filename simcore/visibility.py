"""What each seat may see: one declaration per game, read by the information contract's test.

A game declares `VISIBILITY` in the `knowledge` module of the package that holds its spec
(`simcore/<game>/knowledge.py`):

* `hidden`: what the rules keep from a seat, in words (zone, whose, what is hidden of it, the
  rulebook's passage): docs/information.md and the test's messages quote it;
* `pools(tables, state, seat)`: the cards of the places that are hidden from `seat`, as `Pool`s;
  the cards of one pool may be exchanged among its places in any way (a deck's order, a hand's
  cards with the deck's, a consultant's identity with the removed one's) and the result is a
  state of the game that `seat` cannot tell from the first. What the seat knows (a card it was
  shown, the top cards it looked at) and what another seat knows of a hand it could be asked
  about stay out of the pools;
* `place(tables, state, seat, pools)`: write the pools' cards back into the same places, in the
  order `pools` read them, and bring what follows the cards along (zones, owners, counters);
* `perfect_information`: policies that are told everything by design (`oracle`): the contract
  does not apply to them.

`determinise` is the fast form of the same reading (it redraws every pool from the policy stream
inside the search); tests/test_information_contract.py checks both against the declaration: every
policy chooses the same on two states that differ only in their pools, and `determinise` redraws
every pool. The declaration is plain Python (tests, docs), never called by a kernel.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .errors import BalanceError


@dataclass(frozen=True)
class Hidden:
    zone: str  # "the Draw pile", "each deck"...
    whose: str  # "every seat's", "the other seats'"
    what: str  # what of it the seat does not see: "order", "cards"...
    rule: str  # the rulebook passage (or the reading) it rests on


@dataclass
class Pool:
    """The cards of places hidden from a seat (ids as the state keeps them), in the order
    `place` writes them back; the contract's test permutes `cards` in place."""

    name: str
    cards: np.ndarray


@dataclass(frozen=True)
class Visibility:
    hidden: tuple[Hidden, ...]
    pools: Callable[[Any, Any, int], list[Pool]]
    place: Callable[[Any, Any, int, list[Pool]], None]
    perfect_information: tuple[str, ...] = ("oracle",)


def declared(game: str) -> Visibility:
    """The game's declaration (`<its package>.knowledge.VISIBILITY`); BalanceError without one."""
    from . import registry

    registry.get(game)  # an unknown game: the registry's own error
    spec_module = importlib.import_module(registry.GAMES[game])
    package = spec_module.__name__ if hasattr(spec_module, "__path__") else spec_module.__package__
    module = f"{package}.knowledge" if package else "knowledge"
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name != module:
            raise
        raise BalanceError(f"{game}: no information declaration ({module}.VISIBILITY: simcore/visibility.py)") from None
    vis = getattr(mod, "VISIBILITY", None)
    if not isinstance(vis, Visibility) or not vis.hidden:
        raise BalanceError(f"{game}: {module}.VISIBILITY must be a Visibility naming what a seat cannot see")
    return vis
