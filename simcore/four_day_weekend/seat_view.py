"""Four Day Weekend: what `balance play` shows a seat (simcore/seat_view.py): the board as the
seat sees it, its options in words, the transcript events that would show a hidden card rewritten."""
from __future__ import annotations

from . import constants
from .constants import ACT
from ..seat_view import SeatView


class View(SeatView):
    def __init__(self, spec, data, players, human):
        super().__init__(spec, data, players, human)
        self.constants = constants
        self.cards = data.tables[constants.T_CARDS]
        self.inst = data.tables[constants.T_INSTANCES]

    def seat_name(self, p):
        return f"Slacker {p + 1}"

    def desc(self, inst: int) -> str:
        constants = self.constants
        c = int(self.inst[inst])
        row = self.cards[c]
        kind = constants.KIND_NAMES[row[constants.C_KIND]]
        bits = [kind]
        if row[constants.C_COLOUR] >= 0:
            bits.append(constants.COLOUR_NAMES[row[constants.C_COLOUR]])
        if row[constants.C_TYPE] >= 0:
            bits.append(constants.TYPE_NAMES[row[constants.C_TYPE]])
        if row[constants.C_POINTS]:
            bits.append(f"{row[constants.C_POINTS]} pt")
        if row[constants.C_KIND] == constants.ACTIVITY and row[constants.C_WHEEL]:
            bits.append("doubles " + "/".join(n for i, n in enumerate(constants.COLOUR_NAMES) if (row[constants.C_WHEEL] >> i) & 1))
        return f"{self.names[c]} ({', '.join(bits)})"

    def a(self, state):
        return state.a

    def hand(self, a, p):
        constants = self.constants
        return [int(a[a[constants.O_HAND] + p * constants.HAND_MAX + k]) for k in range(a[a[constants.O_HAND_N] + p])]

    def row(self, a, p):
        constants = self.constants
        return [int(a[a[constants.O_ROW] + p * constants.ROW_MAX + j]) for j in range(a[a[constants.O_ROW_N] + p])]

    def sets(self, a, p) -> list[str]:
        constants = self.constants
        out = []
        for i in range(a[a[constants.O_N_SETS] + p]):
            base = a[constants.O_SETS] + (p * a[constants.M_MAX_SETS] + i) * constants.N_SLOTS
            cards = [self.names[int(self.inst[a[base + sl]])] for sl in range(constants.N_SLOTS) if a[base + sl] >= 0]
            out.append(f"set {i + 1}: " + ", ".join(cards))
        return out

    def board(self, state, final=False):
        constants, a = self.constants, self.a(state)
        h = self.human
        lines = [f"== {self.spec.title}: round {min(a[constants.M_ROUND] + 1, a[constants.M_N_ROUNDS])} of {a[constants.M_N_ROUNDS]}, {self.seat_name(a[constants.M_CUR])}'s turn "
                 f"({constants.PHASE_NAMES[a[constants.M_PHASE]]}); Draw pile {a[constants.M_DRAW_N]}, Really Discarded {a[constants.M_REALLY_N]}; "
                 f"{a[constants.M_LOCKED]} locked set(s) ==" ]
        if a[constants.M_DECLARER] >= 0:
            lines.append(f"Back To Work-ish was declared by {self.seat_name(a[constants.M_DECLARER])}.")
        for p in range(self.players):
            hand = self.hand(a, p)
            lines.append(f"{self.you(p)}: {a[a[constants.O_SCORE] + p]} point(s); {len(hand)} card(s) in hand")
            row = self.row(a, p)
            lines.append(f"    Personal Discard row: {', '.join(self.desc(i) for i in row) or 'empty'}")
            for st in self.sets(a, p):
                lines.append(f"    {st}")
        lines.append("Your hand: " + (", ".join(self.desc(i) for i in self.hand(a, h)) or "empty"))
        return lines

    SAYS = {
        ACT.declare: "Declare Back To Work-ish",
        ACT.carry_on: "Go on: sweep your Personal Discard row",
        ACT.stop_discarding: "Done discarding: refill your hand",
        ACT.end_turn: "End your turn",
        ACT.draw: "Draw from the Draw pile",
        ACT.discard: "Discard {desc} to your Personal Discard row",
        ACT.play: "Add {desc} to your set",
        ACT.take: "Take {desc} from {who}'s Personal Discard row",
    }

    def words(self, state, kind, card, target, choice):
        constants = self.constants
        if kind == ACT.play and self.cards[card, constants.C_KIND] == constants.EXCUSE:
            return f"Play the Excuse {self.desc(choice)}: start a new set"
        return super().words(state, kind, card, target, choice)

    def fields(self, state, kind, card, target, choice):
        # the card instance discarded, played or taken, the seat whose row it is taken from
        return {"desc": self.desc(choice) if choice >= 0 else "", "who": self.seat_name(target)}

    def hide(self, ev):
        constants = self.constants
        code, a, b, c, d = ev
        if code == constants.EV_DEAL and a != self.human:
            return ""  # one line per card dealt to another player: nothing to show
        if code == constants.EV_DRAW and a != self.human:
            return f"{self.seat_name(a)} draws a card from the Draw pile."
        return None
