"""You're Fired! (Button Shy): 2 players, 3-4 free-for-all, 4 in two teams.

The card list (data/youre-fired/cards.toml) is a reconstruction: the rulebook
prints no cards. The mode is duel with 2 players, ffa with 3-4, teams with 4
players and `--set teams=true` (ignored at other player counts).

Modules, in the layout every game shares (docs/adding-a-game.md): `spec` (the
declarative header), `constants` (phases, offsets, columns, end reasons),
`cards` (the card file's schemas, the loader), `state` (state record, clone),
`rules` (the jitted rules), `knowledge` (what a seat sees, beliefs,
determinise), `policies` (scripted greedy, value), `transcript`, `invariants`
(`--check`), `seat_view` (what `balance play` shows a seat).
"""
from .spec import SPEC

__all__ = ["SPEC"]
