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
helpers (a card's name, a seat's). A wording returns a line, several lines or
None (an event that reads as nothing). The runner's own event (the turn cap,
`trace.EV_CAP`) and an undeclared code are worded here, once for every game;
`decode_trace.events` maps each code to its declaration (its name), for
anything that counts events by kind.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from .trace import EV_CAP

CAP_WORDS = "The turn cap ends the game."


@dataclass(frozen=True)
class Event:
    code: int
    name: str
    words: Callable[..., str | Sequence[str] | None]  # (names, a, b, c, d)


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
        out: list[str] = []
        for code, a, b, c, d in (tuple(int(v) for v in row) for row in events):
            if code == EV_CAP:
                out.append(CAP_WORDS)
                continue
            event = self.events.get(code)
            said = f"(event {code} {a} {b} {c} {d})" if event is None else event.words(t, a, b, c, d)
            if isinstance(said, str):
                out.append(said)
            elif said is not None:
                out.extend(said)
        return out

