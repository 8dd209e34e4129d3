"""Use Up All Your Sick Days, party game (`--game sickdays-party`, 3-8 players).

A real-time game simulated in continuous time: each seat's behaviour profile
(reaction time, mistakes) is a game parameter, one value for all seats or one
per seat.

Modules, in the layout every game shares (docs/adding-a-game.md): `spec` (the
declarative header, headline metrics), `constants` (zones, offsets, columns,
trace events), `cards` (rules file, parameters, tables), `rules` (the jitted
rules), `knowledge` (what a seat sees), `policies` (greedy, value),
`transcript`, `invariants` (`--check`).
"""
from .spec import SPEC

__all__ = ["SPEC"]
