"""Use Up All Your Sick Days (solo / co-op): what `balance play` shows a seat (simcore/seat_view.py): the board as the
seat sees it, its options in words, the transcript events that would show a hidden card rewritten."""
from __future__ import annotations

from . import constants
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

    def option(self, state, code):
        constants, s = self.constants, state
        kind, a, b = code // 10000, (code // 100) % 100, code % 100
        seat = s[constants.H_CB_SEAT] if s[constants.H_PHASE] == constants.PH_COFFEE else s[constants.H_CUR]
        hand = self.hand(s, seat)
        day = self.info["day_names"]

        def at(col):
            return f"{day[col]}, week {int(s[constants.O_HEIGHT + col]) + 1}"

        if kind == constants.OP_REFRESH:
            return "Spend a ready pizza: shuffle your hand into the deck and draw back up"
        if kind == constants.OP_PLAY:
            c = hand[a]
            return f"Play {self.long(c)} into {at(c % 7)}" if c < constants.NWORK else f"Play {self.long(c)}"
        if kind == constants.OP_PLAY_BDAY:
            return f"Play {self.long(hand[a])} over the Birthday card"
        if kind == constants.OP_DISCARD:
            return f"Discard {self.long(hand[a])}"
        if kind in (constants.OP_NOTE, constants.OP_WC_NOTE):
            return f"Take a discarded card as a Doctor's note into {at(b)}"
        if kind == constants.OP_EVENT:
            return f"Put {self.long(hand[a])} into {at(b)}"
        if kind == constants.OP_AUT_PLACE:
            return f"Place the automa's {self.long(int(s[constants.H_AUT_CARD]))} on the calendar"
        if kind == constants.OP_AUT_DISCARD:
            return f"Discard the automa's {self.long(int(s[constants.H_AUT_CARD]))}"
        if kind == constants.OP_WC_DONE:
            return "Stop placing Doctor's notes (Water Cooler)"
        if kind == constants.OP_LB_TAKE:
            return f"Look Busy: take {self.long(int(s[constants.O_DISC + a]))} from the discard pile into your hand"
        if kind == constants.OP_LB_SKIP:
            return "Look Busy: take nothing"
        if kind == constants.OP_CB_RETURN:
            return f"Coffee Break: shuffle {self.long(hand[a])} into the deck"
        if kind == constants.OP_CB_DONE:
            return "Coffee Break: draw back up to the hand size"
        return f"option {code}"
