"""You're Fired!: what `balance play` shows a seat (simcore/seat_view.py): the board as the
seat sees it, its options in words, the transcript events that would show a hidden card rewritten."""
from __future__ import annotations

from . import constants
from .constants import ACT
from ..seat_view import SeatView, counts


class View(SeatView):
    # a play in words, by the card's effect: {card} the card played, {who} the target, {name} and {name2} the
    # cards named (a str.format template)
    PLAYS = {
        "boss": "Play your {card} against {who} (fires their Boss if it is in their hand; if not, you lose)",
        "guess_fire_hand": "Play {card} against {who}, naming {name}",
        "fire_from_break": "Play {card}: fire {name} from {who}'s break room",
        "reveal_hand": "Play {card} against {who} (they show you their hand)",
        "discard": "Play {card} against {who} (they put a card of their choice in their break room)",
        "peek_deck": "Play {card} against {who} (look at the top of their deck)",
        "revive": "Play {card}: take {name} back from your unemployment line",
        "swap": "Play {card}: swap {name} from your hand for {name2} from your break room",
        "fire_self_reshuffle_break": "Play {card}: fire it, shuffle your break room into your deck",
        "draw": "Play {card} (draw cards)",
    }

    def __init__(self, spec, data, players, human):
        super().__init__(spec, data, players, human)
        self.constants = constants
        self.effects = list(data.info["effects"])
        self.boss = self.effects.index("boss")
        self.C = len(self.names)

    def s(self, state):
        return state[0]

    def team_words(self, s) -> str:
        return " (teams: Players 1 and 3 against 2 and 4)" if s["g"][self.constants.G_TEAMS] == 1 else ""

    def board(self, state, final=False):
        constants, s = self.constants, self.s(state)
        g = s["g"]
        h = self.human
        C = self.C
        now = "the end" if final else f"{self.seat_name(g[constants.G_CUR])} to play"
        lines = [f"== {self.spec.title}, turn {g[constants.G_TURN]}: {now}{self.team_words(s)} =="]
        for p in range(self.players):
            seat = s["seat"][p]
            status = ""
            if seat[constants.S_ALIVE] == 0:
                status = " [out]"
            elif seat[constants.S_BOSS_LOST]:
                status = " [Boss lost]"
            hand_n = int(s["hand"][p, :C].sum())
            lines.append(f"{self.you(p)}{status}: {hand_n} card(s) in hand, {int(s['deck_n'][p])} in deck")
            lines.append(f"    break room: {counts(self.names, s['brk'][p, :C])}")
            lines.append(f"    unemployment line: {counts(self.names, s['unemp'][p, :C])}")
            if p != h and not final:
                known = s["known"][h, p, :C]
                if known.sum() > 0:
                    lines.append(f"    you know they hold: {counts(self.names, known)}")
            if final and p != h:
                lines.append(f"    hand at the end: {counts(self.names, s['hand'][p, :C])}")
        lines.append(f"Your hand: {counts(self.names, s['hand'][h, :C])}")
        ph = g[constants.G_PHASE]
        if not final and ph == constants.PH_CANCEL:
            lines.append(f"{self.seat_name(g[constants.G_CUR])} plays {self.card(g[constants.G_ACT_CARD])} against you"
                         + (f", naming {self.card(g[constants.G_ACT_NAME])}" if 0 <= g[constants.G_ACT_NAME] < C else "")
                         + ": you may cancel it.")
        elif not final and ph == constants.PH_REDIRECT:
            lines.append(f"Your {self.card(g[constants.G_REDIRECT_CARD])} would be fired: you may fire another card instead.")
        elif not final and ph == constants.PH_DISCARD:
            lines.append("Choose a card of your hand to put in your break room.")
        return lines

    SAYS = {
        ACT.decline: "Do not react",
        ACT.cancel: "React with {card}: cancel {cur}'s {acted}",
        ACT.redirect: "React with {card}: fire it instead of your {fired}",
        ACT.discard: "Put {card} from your hand in the break room",
        ACT.break_room: "Put {card} in the break room without its effect",
    }

    def words(self, state, kind, card, target, choice):
        if kind not in (ACT.play, ACT.boss):
            return super().words(state, kind, card, target, choice)
        effect = self.effects[card]
        # the card it names; a swap's choice is the hand card x and the break-room card y as x + C * y
        name, name2 = (choice % self.C, choice // self.C) if effect == "swap" else (choice, -1)
        words = self.PLAYS.get(effect, "Play {card}")
        return words.format(card=self.card(card), who=self.seat_name(target), name=self.card(name),
                            name2=self.card(name2))

    def fields(self, state, kind, card, target, choice):
        # a reaction: whose card it cancels, or which of yours it is fired instead of
        constants, g = self.constants, self.s(state)["g"]
        return {"card": self.card(card), "cur": self.seat_name(g[constants.G_CUR]),
                "acted": self.card(g[constants.G_ACT_CARD]), "fired": self.card(g[constants.G_REDIRECT_CARD])}

    def hide(self, ev):
        constants = self.constants
        code, a, b, c, d = ev
        if code == constants.EV_DRAW and a != self.human:
            return f"Player {a + 1} draws a card."
        if code == constants.EV_DEAL:
            return f"Player {a + 1} shuffles their company" + (" with consultant(s) dealt face down" if b >= 0 else "") + "."
        if code == constants.EV_REMOVED:
            return "A consultant is removed from the game unseen."
        return None
