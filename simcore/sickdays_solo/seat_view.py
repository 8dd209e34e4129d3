"""Use Up All Your Sick Days (solo / co-op): what `balance play` shows a seat (simcore/seat_view.py): the board as the
seat sees it, its options in words, the transcript events that would show a hidden card rewritten."""
from __future__ import annotations

from . import constants
from .constants import ACT
from .transcript import _card
from ..seat_view import SeatView


class View(SeatView):
    def __init__(self, spec, data, players, human):
        super().__init__(spec, data, players, human)
        self.constants = constants
        self.info = data.info

    def short(self, c: int) -> str:
        constants = self.constants
        if c < 0:
            return "."
        if c >= constants.NWORK:
            return self.info["events"][c - constants.NWORK]
        return f"{c % 7 + 1}-{self.info['suits'][c // 7]}"

    def long(self, c: int) -> str:
        return _card(c, self.info)

    def hand(self, s, p):
        constants = self.constants
        return [int(s[constants.O_HAND + p * constants.HAND_CAP + i]) for i in range(s[constants.O_HANDN + p])]

    def board(self, state, final=False):
        constants, s = self.constants, state
        h = self.human
        rows = int(s[constants.H_ROWS])
        lines = [f"== {self.spec.title}: level {self.data.params.get('level', '?')}, turn {s[constants.H_TURNS]}; deck {s[constants.H_DECK_N]} "
                 f"card(s); pizzas ready {s[constants.H_READY]}, used {s[constants.H_USED]} =="]
        happy = [self.info["suits"][w] for w in range(constants.NSUITS) if s[constants.O_HAPPY + w] == 1]
        kept = [self.info["suits"][w] for w in range(constants.NSUITS) if s[constants.O_HAPPY + w] >= 0]
        lines.append(f"Workers kept: {', '.join(kept)}; happy: {', '.join(happy) or 'none yet'}")
        days = self.info["day_names"]
        width = 11
        lines.append("Calendar   " + "".join(f"{d[:9]:<{width}}" for d in days))
        last = max([int(s[constants.O_HEIGHT + c]) for c in range(constants.NCOL)] + [0])
        okind = constants.O_GRID + rows * constants.NCOL
        for r in range(min(rows, last + 1)):
            cells = []
            for c in range(constants.NCOL):
                kind = s[okind + r * constants.NCOL + c]
                card = int(s[constants.O_GRID + r * constants.NCOL + c])
                txt = ("." if kind == constants.K_EMPTY else "[note]" if kind == constants.K_NOTE else self.short(card))
                cells.append(f"{txt:<{width}}")
            lines.append(f"week {r + 1:<5} " + "".join(cells))
        disc = [self.long(int(s[constants.O_DISC + i])) for i in range(s[constants.H_DISC_N])]
        lines.append(f"Discard pile: {', '.join(disc) or 'empty'}")
        if s[constants.H_PHASE] == constants.PH_AUTOMA:
            lines.append(f"The automa drew {self.long(int(s[constants.H_AUT_CARD]))}.")
        for p in range(self.players):
            if p != h:
                lines.append(f"{self.you(p)}: {len(self.hand(s, p))} card(s) in hand")
        lines.append("Your hand: " + (", ".join(self.long(c) for c in self.hand(s, h)) or "empty"))
        return lines

    SAYS = {
        ACT.refresh: "Spend a ready pizza: shuffle your hand into the deck and draw back up",
        ACT.play: "Play {long}{into}",
        ACT.play_on_birthday: "Play {long} over the Birthday card",
        ACT.discard: "Discard {long}",
        ACT.note: "Take a discarded card as a Doctor's note into {at}",
        ACT.watercooler_note: "Take a discarded card as a Doctor's note into {at}",
        ACT.event: "Put {long} into {at}",
        ACT.automa_place: "Place the automa's {long} on the calendar",
        ACT.automa_discard: "Discard the automa's {long}",
        ACT.watercooler_done: "Stop placing Doctor's notes (Water Cooler)",
        ACT.look_busy_take: "Look Busy: take {long} from the discard pile into your hand",
        ACT.look_busy_skip: "Look Busy: take nothing",
        ACT.coffee_return: "Coffee Break: shuffle {long} into the deck",
        ACT.coffee_done: "Coffee Break: draw back up to the hand size",
    }

    def at(self, s, col: int) -> str:
        """A calendar column's next free cell."""
        return f"{self.info['day_names'][col]}, week {int(s[self.constants.O_HEIGHT + col]) + 1}"

    def fields(self, state, kind, card, target, choice):
        # the card played, discarded, returned or taken, the column a note or event goes to (the choice); a
        # work card played goes to its own day's column
        work = kind == ACT.play and 0 <= card < self.constants.NWORK
        return {"long": self.long(card) if card >= 0 else "", "at": self.at(state, choice) if choice >= 0 else "",
                "into": f" into {self.at(state, card % 7)}" if work else ""}
