"""What a seat is shown when a person plays it (`balance play`): the table as that seat sees it,
its options in words, the others' moves.

A game's `seat_view.py` (the layout's optional role, docs/adding-a-game.md) subclasses `SeatView`
and reads the engine's state (plain numpy, read only) for what the seat may see: its own hand, the
public piles and zones, counts of the others' hands and decks, never their cards nor a deck's
order. Bot moves are the game's own transcript lines (`spec.decode_trace`, one event at a time),
with the events that would show a hidden card rewritten (`hide`): another player's draw, a deal,
a card removed unseen. A game with no `seat_view.py` is shown through this base: its title, its options'
action kinds and cards, and full transcript lines (so it should have one before people play it).
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
from pathlib import Path

import numpy as np


def card_texts(data) -> dict[str, str]:
    """Each card's rule text by name, from the card list the game was loaded with (its `text` fields), read
    only when its bytes are the ones the game played (sha256); {} when the list has no texts."""
    cards = getattr(data, "cards", None)
    path, want = getattr(cards, "path", None), getattr(cards, "sha256", None)
    if not path or not want:
        return {}
    try:
        import tomllib

        raw = Path(path).read_bytes()
        if hashlib.sha256(raw).hexdigest() != want or len(raw) > 5_000_000:
            return {}
        doc = tomllib.loads(raw.decode("utf-8"))
    except (OSError, ValueError):
        return {}
    out = {}
    for section in doc.values():
        for e in section if isinstance(section, list) else ():
            if isinstance(e, dict) and isinstance(e.get("name"), str) and isinstance(e.get("text"), str):
                out[e["name"]] = e["text"]
    return out


class SeatView:
    """The shared view; a game overrides `board`, the words of its options' actions (`SAYS`, `fields`) and `hide`."""

    def __init__(self, spec, data, players: int, human: int):
        self.spec, self.data, self.players, self.human = spec, data, players, human
        self.names = list(data.card_names)
        self.texts = card_texts(data)

    def card_list(self) -> list[str]:
        """The `cards` command: every card of the list with its rule text."""
        if not self.texts:
            return ["This card list has no card texts; the options say what each play does."]
        width = max(len(n) for n in self.texts)
        return [f"{name:<{width}}  {text}" for name, text in sorted(self.texts.items(), key=lambda kv: kv[0].lower())]

    def card(self, c: int) -> str:
        return self.names[c] if 0 <= c < len(self.names) else "?"

    def seat_name(self, p: int) -> str:
        return f"Player {p + 1}"

    def you(self, p: int) -> str:
        return f"{self.seat_name(p)} (you)" if p == self.human else self.seat_name(p)

    def board(self, state, final: bool = False) -> list[str]:
        return [f"{self.spec.title}"]

    def option(self, state, code: int) -> str:
        """A legal option in words, from what it does: the game's `action` kernel (kind, card, target, choice) of
        the engine's state, worded by `words`; "option <code>" for a game with no action kernel."""
        action = getattr(self.spec.kernels, "action", None)
        if action is None:
            return f"option {code}"
        kind, card, target, choice = (int(x) for x in action(self.data.tables, state, code))
        return self.words(state, kind, card, target, choice)

    # An option's sentence by its action's kind (the game's constants.ACT): a str.format template of the names
    # `fields` gives; a kind with none is worded by its name and card.
    SAYS: dict[int, str] = {}

    def words(self, state, kind: int, card: int, target: int, choice: int) -> str:
        """An action in words (`option`): its kind's template (SAYS) filled with its `fields`."""
        say = self.SAYS.get(kind)
        if say is not None:
            return say.format_map(self.fields(state, kind, card, target, choice))
        name = self.spec.action_kinds[kind]
        return f"{name} {self.card(card)}" if card >= 0 else name

    def fields(self, state, kind: int, card: int, target: int, choice: int) -> dict:
        """The names an action's template may use; a game adds its own (read from the action, and the state)."""
        return {"card": self.card(card)}

    def hide(self, ev: tuple) -> str | None:
        """None: the transcript's line may be shown as it is; a string: show this instead ("" shows nothing)."""
        return None

    def prompt(self, g) -> str:
        return f"Your move (1-{g.n}, hint, undo, help) > "

    def narrate(self, rows, everything: bool) -> list[str]:
        out = []
        for row in np.asarray(rows).reshape(-1, 5):
            ev = tuple(int(x) for x in row)
            instead = None if everything else self.hide(ev)
            if instead is None:
                out += self.spec.decode_trace(np.array([ev], np.int32), self.data, self.players)
            elif instead:
                out.append(instead)
        return out


def counts(names, counts) -> str:
    """'Axe Man x2, Boss' from a count per card type."""
    parts = [f"{names[c]}" + (f" x{int(k)}" if k > 1 else "") for c, k in enumerate(counts) if k > 0]
    return ", ".join(parts) if parts else "none"


def view_for(spec, data, players: int, human: int) -> SeatView:
    """The game's own view (`<game package>.seat_view.View`), or the plain one."""
    from . import registry

    module = registry.package(spec.name) + ".seat_view"
    if importlib.util.find_spec(module) is None:
        return SeatView(spec, data, players, human)
    return importlib.import_module(module).View(spec, data, players, human)
