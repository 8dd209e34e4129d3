"""Overtime (`--game overtime`, 2-6 players): be the first Employee to complete,
discard or give away all of your Assignment cards within 8 rounds.

Modules, in the layout every game shares (docs/adding-a-game.md): `spec` (the
declarative header), `constants` (zones, opcodes, offsets, the result
columns), `cards` (the card file's schemas and opcode vocabulary, the rule
parameters, `build` -> GameData), `state` (state record and helpers), `rules`
(turn flow and the kernels of the shared loop), `effects` (opcode interpreter,
reaction piles), `knowledge` (what a seat sees), `policies` (scripted greedy),
`transcript`, `invariants` (`--check`), `seat_view` (what `balance play` shows
a seat)."""
from .spec import SPEC

__all__ = ["SPEC"]
