"""Overtime: what `balance play` shows a seat (simcore/seat_view.py): the board as the
seat sees it, its options in words, the transcript events that would show a hidden card rewritten."""
from __future__ import annotations

from . import constants
from .constants import ACT
from ..seat_view import SeatView


class View(SeatView):
    def __init__(self, spec, data, players, human):
        super().__init__(spec, data, players, human)
        self.constants = constants
        self.rules, self.kinds, _, self.ck = data.tables[:4]

    def seat_name(self, p):
        return f"P{p + 1}"

    def kind_of(self, inst: int) -> int:
        return int(self.ck[inst])

    def card_of(self, inst: int) -> str:
        return self.card(self.kind_of(inst))

    def stats(self, k: int) -> str:
        constants = self.constants
        return f"Productiveness {self.kinds[k, constants.KF_P]}, Laziness {self.kinds[k, constants.KF_L]}, Determination {self.kinds[k, constants.KF_D]}"

    def tired(self, ek: int, snooze: int) -> int:
        constants, r = self.constants, self.rules
        sh = self.kinds[ek, constants.KF_SHIFT]
        return 3 if snooze >= r[constants.R_T3] + sh else 2 if snooze >= r[constants.R_T2] + sh else 1 if snooze >= r[constants.R_T1] + sh else 0

    def assignments(self, s, p) -> list[str]:
        constants = self.constants
        out = []
        for a in range(self.rules[constants.R_A0], self.rules[constants.R_J0]):
            if s["zone"][a] == constants.Z_ASSIGN and s["owner"][a] == p:
                k = self.kind_of(a)
                out.append(f"{self.card(k)} ({s['tasks'][a]}/{self.kinds[k, constants.KF_TASKS]} tasks)")
        return out

    def board(self, state, final=False):
        constants, s = self.constants, state[0]
        g = s["g"]
        h = self.human
        now = "the end" if final else f"{self.seat_name(g[constants.G_CUR])}'s turn"
        lines = [f"== {self.spec.title}: round {g[constants.G_ROUND]} of {self.rules[constants.R_ROUNDS]}, {now}; Main deck {g[constants.G_DECK_N]} card(s), discard pile {int(s['dk'][:g[constants.G_NKINDS]].sum())} =="]
        words = ("rested", "tired", "very tired", "exhausted")
        for p in range(self.players):
            ps = s["ps"][p]
            ek = self.kind_of(ps[constants.P_EMP])
            level = self.tired(ek, ps[constants.P_SNOOZE])
            lines.append(f"{self.you(p)}: employee {self.card(ek)} ({self.stats(ek)}); {ps[constants.P_SNOOZE]} snooze "
                         f"({words[level]}); {ps[constants.P_HAND_N]} card(s) in hand")
            lines.append(f"    A cards: {', '.join(self.assignments(s, p)) or 'none left'}")
        hand = [self.card_of(s["hand"][h, i]) for i in range(s["ps"][h, constants.P_HAND_N])]
        lines.append(f"Your hand: {', '.join(hand) or 'empty'}")
        top = [self.card(k) + (f" x{int(n)}" if n > 1 else "") for k, n in enumerate(s["dk"][:g[constants.G_NKINDS]]) if n > 0]
        if top:
            lines.append(f"Discard pile: {', '.join(top)}")
        ph = g[constants.G_PHASE]
        if not final and ph == constants.PH_REACT:
            lines.append("Reaction pile (newest last): " + "; ".join(self.entry(s, e) for e in range(g[constants.G_PILE_N])))
        elif not final and ph == constants.PH_ACTION:
            ek = self.kind_of(s["ps"][h, constants.P_EMP])
            level = self.tired(ek, s["ps"][h, constants.P_SNOOZE])
            allowed = (0 if level == 3 else self.kinds[ek, constants.KF_P] - (self.rules[constants.R_PEN1] if level == 1 else
                                                                       self.rules[constants.R_PEN2] if level == 2 else 0))
            free = " (the first action may be an E card, free)" if g[constants.G_ACTED] == 0 and self.rules[constants.R_FIRST_E_FREE] else ""
            lines.append(f"Action phase: {g[constants.G_ACTIONS_USED]} of {max(0, allowed)} action(s) used{free}.")
        elif not final and ph == constants.PH_DISCARD:
            lines.append(f"End of your turn: discard down to your Determination "
                         f"({self.kinds[self.kind_of(s['ps'][h, constants.P_EMP]), constants.KF_D]}).")
        elif not final and ph == constants.PH_CHOOSE:
            lines.append(f"Your {self.entry(s, g[constants.G_CH_ENTRY])} asks which A card it is for.")
        return lines

    def entry(self, s, e: int) -> str:
        constants = self.constants
        pe = s["pile"][e]
        if pe[constants.PF_CARD] < 0:
            return f"{self.seat_name(pe[constants.PF_PLAYER])} completed an A card"
        done = " (cancelled)" if pe[constants.PF_CANCELLED] else ""
        return f"{e}: {self.seat_name(pe[constants.PF_PLAYER])}'s {self.card_of(pe[constants.PF_CARD])}{done}"

    SAYS = {
        ACT.pass_reaction: "Pass (no reaction)",
        ACT.end_actions: "End your action phase",
        ACT.play: "Play {card}{aim}",
        ACT.ability: "Use {card}'s ability{take}",
        ACT.discard: "Discard {card}",
        ACT.react: "React with {card} to {entry}",
        ACT.ability_react: "Use {card}'s ability as a reaction to {entry}",
        ACT.choose: "Choose your {card} ({tasks} tasks)",
    }

    def fields(self, state, kind, card, target, choice):
        constants, s = self.constants, state[0]
        out = super().fields(state, kind, card, target, choice)
        if kind == ACT.play:  # the A card an assignment card works on, or the player a card targets
            out["aim"] = (f" on your {self.card_of(choice)} ({s['tasks'][choice]} tasks done)" if choice >= 0 else
                          f" targeting {self.you(target)}" if target >= 0 else "")
        elif kind == ACT.ability:  # the card kind it takes from the discard pile
            out["take"] = f": take {self.card(choice)} from the discard pile" if choice >= 0 else ""
        elif kind in (ACT.react, ACT.ability_react):  # the pile entry reacted to
            out["entry"] = self.entry(s, choice)
        elif kind == ACT.choose:  # the A card instance chosen
            out["tasks"] = f"{s['tasks'][choice]}/{self.kinds[card, constants.KF_TASKS]}"
        return out
