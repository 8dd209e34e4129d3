"""Transcripts as declared event formats: a game lists each trace event once.

A game's kernels `emit(trace, code, a, b, c, d)` (simcore.trace); its
`transcript.py` declares, per event code, a name and how it reads in the
rulebook's words:

    EVENTS = (
        Event(constants.EV_DRAW, "draw", lambda t, a, b, c, d: f"{t.seat(a)} draws {t.card(b)}."),
        ...
    )
    decode_trace = Decoder(EVENTS, Names)

`Names(data, n_players)` (the game's own small class, or any callable) is
built once per transcript from the run's GameData and gives the wording
helpers (a card's name, a seat's); subclassing `Wording` gives it the ones
every game words alike (a seat, a set of seats, a plural's "s"). A wording
returns a line, several lines or None (an event that reads as nothing), or is
a template: the event's numbers `{a}`..`{d}` and the names `{t.boss}`, each
number read through a helper named after the colon (`{b:card}` is
`names.card(b)`, `{c:s}` the plural's "s"), counted from one by `{a:+1}`:

    Event(constants.EV_DRAW, "draw", "{a:seat} draws {b:card}."),
 The runner's own event (the turn cap,
`trace.EV_CAP`) and an undeclared code are worded here, once for every game;
`decode_trace.events` maps each code to its declaration (its name), for
anything that counts events by kind.
"""
from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from .trace import EV_CAP

CAP_WORDS = "The turn cap ends the game."


@dataclass(frozen=True)
class Event:
    code: int
    name: str
    words: str | Callable[..., str | Sequence[str] | None]  # a template, or (names, a, b, c, d)


class Wording:
    """What every game's Names words alike: the run's card names, info and parameters (its GameData), a card
    by its name, a seat as `seat_words` calls it (`{}`: its number from one)."""
    seat_words = "Player {}"

    def __init__(self, data, n_players: int):
        self.n_players = n_players
        self.names = data.card_names
        self.info = data.info
        self.params = data.params

    def card(self, c) -> str:
        return self.names[int(c)]

    def seat(self, p) -> str:
        return self.seat_words.format(int(p) + 1)

    def seats(self, mask) -> str:
        """The seats whose bits are set in `mask`, in seat order."""
        return ", ".join(self.seat(p) for p in range(self.n_players) if mask >> p & 1)

    @staticmethod
    def s(n) -> str:
        return "" if n == 1 else "s"


class _Template(string.Formatter):
    """Formats a template: `{x:+1}` adds one, `{x:helper}` is `names.helper(x)`, any other spec is format's."""

    def __init__(self, names):
        self.names = names

    def format_field(self, value, spec: str) -> str:
        if spec[:1] in ("+", "-") and spec[1:].isdigit():
            return str(value + int(spec))
        if spec.isidentifier():
            return str(getattr(self.names, spec)(value))
        return format(value, spec)


class Decoder:
    """`decode_trace(events, data, n_players) -> list[str]` for the spec, from declared events."""

    def __init__(self, events: Iterable[Event], names: Callable[[Any, int], Any]):
        self.events: dict[int, Event] = {}
        for e in events:
            if e.code in self.events or e.code == EV_CAP:
                raise ValueError(f"trace event code {e.code} ({e.name}) is declared twice or is the runner's")
            self.events[e.code] = e
        self.names = names

    def __call__(self, events, data, n_players: int) -> list[str]:
        t = self.names(data, n_players)
        template = _Template(t)
        out: list[str] = []
        for code, a, b, c, d in (tuple(int(v) for v in row) for row in events):
            if code == EV_CAP:
                out.append(CAP_WORDS)
                continue
            event = self.events.get(code)
            if event is None:
                said = f"(event {code} {a} {b} {c} {d})"
            elif isinstance(event.words, str):
                said = template.format(event.words, a=a, b=b, c=c, d=d, t=t)
            else:
                said = event.words(t, a, b, c, d)
            if isinstance(said, str):
                out.append(said)
            elif said is not None:
                out.extend(said)
        return out

