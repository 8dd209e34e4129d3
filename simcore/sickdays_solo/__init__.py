"""Use Up All Your Sick Days, solo / co-op (`--game sickdays-solo`, 1-6 players).

Modules, in the layout every game shares (docs/adding-a-game.md): `spec` (the
declarative header, headline metrics), `constants` (zones, offsets, columns,
trace events), `cards` (rules/levels files, parameters, tables), `rules` (the
jitted rules), `knowledge` (what a seat sees), `policies` (greedy, value),
`greedy_scores` (greedy's weights, the reference option scorer), `solver` (is
a deal winnable: the ladder's bound), `transcript`, `invariants` (`--check`),
`seat_view` (what `balance play` shows a seat)."""
from .spec import SPEC

__all__ = ["SPEC"]
