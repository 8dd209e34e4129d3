"""Four Day Weekend (`--game four-day-weekend`, 2-6 players): set collection
over several rounds. See GAMES.md and docs/assumptions.md (Four Day Weekend).

Modules, in the layout every game shares (docs/adding-a-game.md): `spec` (the
declarative header and the game's own summary figures), `constants` (zones,
offsets, columns), `cards` (the card file's schemas, the loader), `rules` (the
jitted rules), `scoring` (set scoring), `knowledge` (what a seat sees),
`policies` (scripted greedy), `transcript`, `invariants` (`--check`),
`seat_view` (what `balance play` shows a seat)."""
from .spec import SPEC

__all__ = ["SPEC"]
