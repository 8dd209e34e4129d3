"""What `balance play` shows a seat: the table as that seat sees it, its options in words, the others' moves.

One `Table` per game reads the engine's state (plain numpy, read only) for
what the seat may see: its own hand, the public piles and zones, counts of
the others' hands and decks, never their cards nor a deck's order. Bot moves
are the game's own transcript lines (`spec.decode_trace`, one event at a
time), with the events that would show a hidden card rewritten (`hide`):
another player's draw, a deal, a card removed unseen.
"""
from __future__ import annotations

import hashlib
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


class Table:
    """The shared layout; a game overrides `board`, `option` and `hide`."""

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
        return f"option {code}"

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


def _counts(names, counts) -> str:
    """'Axe Man x2, Boss' from a count per card type."""
    parts = [f"{names[c]}" + (f" x{int(k)}" if k > 1 else "") for c, k in enumerate(counts) if k > 0]
    return ", ".join(parts) if parts else "none"


# ------------------------------------------------------------------ You're Fired!
class YoureFired(Table):
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
        from balance.simcore.youre_fired import constants

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
            lines.append(f"    break room: {_counts(self.names, s['brk'][p, :C])}")
            lines.append(f"    unemployment line: {_counts(self.names, s['unemp'][p, :C])}")
            if p != h and not final:
                known = s["known"][h, p, :C]
                if known.sum() > 0:
                    lines.append(f"    you know they hold: {_counts(self.names, known)}")
            if final and p != h:
                lines.append(f"    hand at the end: {_counts(self.names, s['hand'][p, :C])}")
        lines.append(f"Your hand: {_counts(self.names, s['hand'][h, :C])}")
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

    def option(self, state, code):
        constants, s = self.constants, self.s(state)
        g = s["g"]
        ph = g[constants.G_PHASE]
        C = self.C
        if ph in (constants.PH_CANCEL, constants.PH_REDIRECT):
            if code == 0:
                return "Do not react"
            c = code - 1
            if ph == constants.PH_CANCEL:
                return f"React with {self.card(c)}: cancel {self.seat_name(g[constants.G_CUR])}'s {self.card(g[constants.G_ACT_CARD])}"
            return f"React with {self.card(c)}: fire it instead of your {self.card(g[constants.G_REDIRECT_CARD])}"
        if ph == constants.PH_DISCARD:
            return f"Put {self.card(code)} from your hand in the break room"
        mode = code % 2
        rest = code // 2
        card = rest % C
        rest //= C
        target = rest % constants.MAX_PLAYERS
        rest //= constants.MAX_PLAYERS
        name = rest % (C + 1)
        name2 = rest // (C + 1)
        if mode == 1:
            return f"Put {self.card(card)} in the break room without its effect"
        words = self.PLAYS.get(self.effects[card], "Play {card}")
        return words.format(card=self.card(card), who=self.seat_name(target), name=self.card(name),
                            name2=self.card(name2))

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


# ------------------------------------------------------------------ Overtime
class Overtime(Table):
    def __init__(self, spec, data, players, human):
        super().__init__(spec, data, players, human)
        from balance.simcore.overtime import constants

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

    def option(self, state, code):
        constants, s = self.constants, state[0]
        g = s["g"]
        kind, a, b = code >> 24, (code >> 12) & 0xFFF, code & 0xFFF
        seat = g[constants.G_OFFER] if g[constants.G_PHASE] == constants.PH_REACT else g[constants.G_CH_WHO] if g[constants.G_PHASE] == constants.PH_CHOOSE else g[constants.G_CUR]
        if kind == constants.O_END:
            return "Pass (no reaction)" if g[constants.G_PHASE] == constants.PH_REACT else "End your action phase"
        if kind == constants.O_PLAY:
            c = self.kind_of(s["hand"][seat, a])
            tg = self.kinds[c, constants.KF_TARGET]
            if tg == constants.TG_ASSIGNMENT:
                return f"Play {self.card(c)} on your {self.card_of(b)} ({s['tasks'][b]} tasks done)"
            if tg in (constants.TG_ANOTHER, constants.TG_ANY):
                return f"Play {self.card(c)} targeting {self.you(b)}"
            return f"Play {self.card(c)}"
        if kind == constants.O_ABILITY:
            ek = self.kind_of(s["ps"][seat, constants.P_EMP])
            if self.kinds[ek, constants.KF_ABIL_TAKE_MASK]:
                return f"Use {self.card(ek)}'s ability: take {self.card(b)} from the discard pile"
            return f"Use {self.card(ek)}'s ability"
        if kind == constants.O_DISCARD:
            return f"Discard {self.card_of(s['hand'][seat, a])}"
        if kind == constants.O_REACT:
            return f"React with {self.card_of(s['hand'][seat, a])} to {self.entry(s, b)}"
        if kind == constants.O_ABILITY_REACT:
            ek = self.kind_of(s["ps"][seat, constants.P_EMP])
            return f"Use {self.card(ek)}'s ability as a reaction to {self.entry(s, b)}"
        if kind == constants.O_CHOOSE:
            return f"Choose your {self.card_of(b)} ({s['tasks'][b]}/{self.kinds[self.kind_of(b), constants.KF_TASKS]} tasks)"
        return f"option {code}"


# ------------------------------------------------------------------ Four Day Weekend
class FourDayWeekend(Table):
    def __init__(self, spec, data, players, human):
        super().__init__(spec, data, players, human)
        from balance.simcore.four_day_weekend import constants

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

    def option(self, state, code):
        constants, a = self.constants, self.a(state)
        seat = a[constants.M_CUR]
        if code == constants.OPT_DECLARE:
            return "Declare Back To Work-ish"
        if code == constants.OPT_CONTINUE:
            ph = a[constants.M_PHASE]
            return {constants.PH_START: "Go on: sweep your Personal Discard row", constants.PH_DISCARD: "Done discarding: refill your hand",
                    constants.PH_PLAY: "End your turn"}.get(ph, "Go on")
        if code == constants.OPT_DRAW:
            return "Draw from the Draw pile"
        if constants.OPT_DISCARD <= code < constants.OPT_PLAY:
            return f"Discard {self.desc(self.hand(a, seat)[code - constants.OPT_DISCARD])} to your Personal Discard row"
        if constants.OPT_PLAY <= code < constants.OPT_TAKE:
            inst = self.hand(a, seat)[code - constants.OPT_PLAY]
            c = int(self.inst[inst])
            if self.cards[c, constants.C_KIND] == constants.EXCUSE:
                return f"Play the Excuse {self.desc(inst)}: start a new set"
            return f"Add {self.desc(inst)} to your set"
        p, j = divmod(code - constants.OPT_TAKE, constants.ROW_MAX)
        return f"Take {self.desc(self.row(a, p)[j])} from {self.seat_name(p)}'s Personal Discard row"

    def hide(self, ev):
        constants = self.constants
        code, a, b, c, d = ev
        if code == constants.EV_DEAL and a != self.human:
            return ""  # one line per card dealt to another player: nothing to show
        if code == constants.EV_DRAW and a != self.human:
            return f"{self.seat_name(a)} draws a card from the Draw pile."
        return None


# ------------------------------------------------------------------ Use Up All Your Sick Days (solo / co-op)
class SickDays(Table):
    def __init__(self, spec, data, players, human):
        super().__init__(spec, data, players, human)
        from balance.simcore.sickdays_solo import constants

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
        from balance.simcore.sickdays_solo.transcript import _card

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


TABLES = {"youre-fired": YoureFired, "overtime": Overtime, "four-day-weekend": FourDayWeekend,
          "sickdays-solo": SickDays}


def table_for(spec, data, players: int, human: int) -> Table:
    return TABLES.get(spec.name, Table)(spec, data, players, human)
