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
    def __init__(self, spec, data, players, human):
        super().__init__(spec, data, players, human)
        from balance.simcore.youre_fired import constants as K

        self.K = K
        self.effects = list(data.info["effects"])
        self.boss = self.effects.index("boss")
        self.C = len(self.names)

    def s(self, state):
        return state[0]

    def team_words(self, s) -> str:
        return " (teams: Players 1 and 3 against 2 and 4)" if s["g"][self.K.G_TEAMS] == 1 else ""

    def board(self, state, final=False):
        K, s = self.K, self.s(state)
        g = s["g"]
        h = self.human
        C = self.C
        now = "the end" if final else f"{self.seat_name(g[K.G_CUR])} to play"
        lines = [f"== {self.spec.title}, turn {g[K.G_TURN]}: {now}{self.team_words(s)} =="]
        for p in range(self.players):
            seat = s["seat"][p]
            status = ""
            if seat[K.S_ALIVE] == 0:
                status = " [out]"
            elif seat[K.S_BOSS_LOST]:
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
        ph = g[K.G_PHASE]
        if not final and ph == K.PH_CANCEL:
            lines.append(f"{self.seat_name(g[K.G_CUR])} plays {self.card(g[K.G_ACT_CARD])} against you"
                         + (f", naming {self.card(g[K.G_ACT_NAME])}" if 0 <= g[K.G_ACT_NAME] < C else "")
                         + ": you may cancel it.")
        elif not final and ph == K.PH_REDIRECT:
            lines.append(f"Your {self.card(g[K.G_REDIRECT_CARD])} would be fired: you may fire another card instead.")
        elif not final and ph == K.PH_DISCARD:
            lines.append("Choose a card of your hand to put in your break room.")
        return lines

    def option(self, state, code):
        K, s = self.K, self.s(state)
        g = s["g"]
        ph = g[K.G_PHASE]
        C = self.C
        if ph in (K.PH_CANCEL, K.PH_REDIRECT):
            if code == 0:
                return "Do not react"
            c = code - 1
            if ph == K.PH_CANCEL:
                return f"React with {self.card(c)}: cancel {self.seat_name(g[K.G_CUR])}'s {self.card(g[K.G_ACT_CARD])}"
            return f"React with {self.card(c)}: fire it instead of your {self.card(g[K.G_REDIRECT_CARD])}"
        if ph == K.PH_DISCARD:
            return f"Put {self.card(code)} from your hand in the break room"
        mode = code % 2
        rest = code // 2
        card = rest % C
        rest //= C
        target = rest % K.MAX_PLAYERS
        rest //= K.MAX_PLAYERS
        name = rest % (C + 1)
        name2 = rest // (C + 1)
        if mode == 1:
            return f"Put {self.card(card)} in the break room without its effect"
        eff = self.effects[card]
        who = self.seat_name(target)
        if eff == "boss":
            return f"Play your {self.card(card)} against {who} (fires their Boss if it is in their hand; if not, you lose)"
        if eff == "guess_fire_hand":
            return f"Play {self.card(card)} against {who}, naming {self.card(name)}"
        if eff == "fire_from_break":
            return f"Play {self.card(card)}: fire {self.card(name)} from {who}'s break room"
        if eff in ("reveal_hand", "discard", "peek_deck"):
            what = {"reveal_hand": "they show you their hand", "discard": "they put a card of their choice in their "
                    "break room", "peek_deck": "look at the top of their deck"}[eff]
            return f"Play {self.card(card)} against {who} ({what})"
        if eff == "revive":
            return f"Play {self.card(card)}: take {self.card(name)} back from your unemployment line"
        if eff == "swap":
            return f"Play {self.card(card)}: swap {self.card(name)} from your hand for {self.card(name2)} from your break room"
        if eff == "fire_self_reshuffle_break":
            return f"Play {self.card(card)}: fire it, shuffle your break room into your deck"
        if eff == "draw":
            return f"Play {self.card(card)} (draw cards)"
        return f"Play {self.card(card)}"

    def hide(self, ev):
        K = self.K
        code, a, b, c, d = ev
        if code == K.EV_DRAW and a != self.human:
            return f"Player {a + 1} draws a card."
        if code == K.EV_DEAL:
            return f"Player {a + 1} shuffles their company" + (" with consultant(s) dealt face down" if b >= 0 else "") + "."
        if code == K.EV_REMOVED:
            return "A consultant is removed from the game unseen."
        return None


# ------------------------------------------------------------------ Overtime
class Overtime(Table):
    def __init__(self, spec, data, players, human):
        super().__init__(spec, data, players, human)
        from balance.simcore.overtime import constants as K

        self.K = K
        self.rules, self.kinds, _, self.ck = data.tables[:4]

    def seat_name(self, p):
        return f"P{p + 1}"

    def kind_of(self, inst: int) -> int:
        return int(self.ck[inst])

    def card_of(self, inst: int) -> str:
        return self.card(self.kind_of(inst))

    def stats(self, k: int) -> str:
        K = self.K
        return f"Productiveness {self.kinds[k, K.KF_P]}, Laziness {self.kinds[k, K.KF_L]}, Determination {self.kinds[k, K.KF_D]}"

    def tired(self, ek: int, snooze: int) -> int:
        K, r = self.K, self.rules
        sh = self.kinds[ek, K.KF_SHIFT]
        return 3 if snooze >= r[K.R_T3] + sh else 2 if snooze >= r[K.R_T2] + sh else 1 if snooze >= r[K.R_T1] + sh else 0

    def assignments(self, s, p) -> list[str]:
        K = self.K
        out = []
        for a in range(self.rules[K.R_A0], self.rules[K.R_J0]):
            if s["zone"][a] == K.Z_ASSIGN and s["owner"][a] == p:
                k = self.kind_of(a)
                out.append(f"{self.card(k)} ({s['tasks'][a]}/{self.kinds[k, K.KF_TASKS]} tasks)")
        return out

    def board(self, state, final=False):
        K, s = self.K, state[0]
        g = s["g"]
        h = self.human
        now = "the end" if final else f"{self.seat_name(g[K.G_CUR])}'s turn"
        lines = [f"== {self.spec.title}: round {g[K.G_ROUND]} of {self.rules[K.R_ROUNDS]}, {now}; Main deck {g[K.G_DECK_N]} card(s), discard pile {int(s['dk'][:g[K.G_NKINDS]].sum())} =="]
        words = ("rested", "tired", "very tired", "exhausted")
        for p in range(self.players):
            ps = s["ps"][p]
            ek = self.kind_of(ps[K.P_EMP])
            level = self.tired(ek, ps[K.P_SNOOZE])
            lines.append(f"{self.you(p)}: employee {self.card(ek)} ({self.stats(ek)}); {ps[K.P_SNOOZE]} snooze "
                         f"({words[level]}); {ps[K.P_HAND_N]} card(s) in hand")
            lines.append(f"    A cards: {', '.join(self.assignments(s, p)) or 'none left'}")
        hand = [self.card_of(s["hand"][h, i]) for i in range(s["ps"][h, K.P_HAND_N])]
        lines.append(f"Your hand: {', '.join(hand) or 'empty'}")
        top = [self.card(k) + (f" x{int(n)}" if n > 1 else "") for k, n in enumerate(s["dk"][:g[K.G_NKINDS]]) if n > 0]
        if top:
            lines.append(f"Discard pile: {', '.join(top)}")
        ph = g[K.G_PHASE]
        if not final and ph == K.PH_REACT:
            lines.append("Reaction pile (newest last): " + "; ".join(self.entry(s, e) for e in range(g[K.G_PILE_N])))
        elif not final and ph == K.PH_ACTION:
            ek = self.kind_of(s["ps"][h, K.P_EMP])
            level = self.tired(ek, s["ps"][h, K.P_SNOOZE])
            allowed = (0 if level == 3 else self.kinds[ek, K.KF_P] - (self.rules[K.R_PEN1] if level == 1 else
                                                                       self.rules[K.R_PEN2] if level == 2 else 0))
            free = " (the first action may be an E card, free)" if g[K.G_ACTED] == 0 and self.rules[K.R_FIRST_E_FREE] else ""
            lines.append(f"Action phase: {g[K.G_ACTIONS_USED]} of {max(0, allowed)} action(s) used{free}.")
        elif not final and ph == K.PH_DISCARD:
            lines.append(f"End of your turn: discard down to your Determination "
                         f"({self.kinds[self.kind_of(s['ps'][h, K.P_EMP]), K.KF_D]}).")
        elif not final and ph == K.PH_CHOOSE:
            lines.append(f"Your {self.entry(s, g[K.G_CH_ENTRY])} asks which A card it is for.")
        return lines

    def entry(self, s, e: int) -> str:
        K = self.K
        pe = s["pile"][e]
        if pe[K.PF_CARD] < 0:
            return f"{self.seat_name(pe[K.PF_PLAYER])} completed an A card"
        done = " (cancelled)" if pe[K.PF_CANCELLED] else ""
        return f"{e}: {self.seat_name(pe[K.PF_PLAYER])}'s {self.card_of(pe[K.PF_CARD])}{done}"

    def option(self, state, code):
        K, s = self.K, state[0]
        g = s["g"]
        kind, a, b = code >> 24, (code >> 12) & 0xFFF, code & 0xFFF
        seat = g[K.G_OFFER] if g[K.G_PHASE] == K.PH_REACT else g[K.G_CH_WHO] if g[K.G_PHASE] == K.PH_CHOOSE else g[K.G_CUR]
        if kind == K.O_END:
            return "Pass (no reaction)" if g[K.G_PHASE] == K.PH_REACT else "End your action phase"
        if kind == K.O_PLAY:
            c = self.kind_of(s["hand"][seat, a])
            tg = self.kinds[c, K.KF_TARGET]
            if tg == K.TG_ASSIGNMENT:
                return f"Play {self.card(c)} on your {self.card_of(b)} ({s['tasks'][b]} tasks done)"
            if tg in (K.TG_ANOTHER, K.TG_ANY):
                return f"Play {self.card(c)} targeting {self.you(b)}"
            return f"Play {self.card(c)}"
        if kind == K.O_ABILITY:
            ek = self.kind_of(s["ps"][seat, K.P_EMP])
            if self.kinds[ek, K.KF_ABIL_TAKE_MASK]:
                return f"Use {self.card(ek)}'s ability: take {self.card(b)} from the discard pile"
            return f"Use {self.card(ek)}'s ability"
        if kind == K.O_DISCARD:
            return f"Discard {self.card_of(s['hand'][seat, a])}"
        if kind == K.O_REACT:
            return f"React with {self.card_of(s['hand'][seat, a])} to {self.entry(s, b)}"
        if kind == K.O_ABILITY_REACT:
            ek = self.kind_of(s["ps"][seat, K.P_EMP])
            return f"Use {self.card(ek)}'s ability as a reaction to {self.entry(s, b)}"
        if kind == K.O_CHOOSE:
            return f"Choose your {self.card_of(b)} ({s['tasks'][b]}/{self.kinds[self.kind_of(b), K.KF_TASKS]} tasks)"
        return f"option {code}"


# ------------------------------------------------------------------ Four Day Weekend
class FourDayWeekend(Table):
    def __init__(self, spec, data, players, human):
        super().__init__(spec, data, players, human)
        from balance.simcore.four_day_weekend import constants as K

        self.K = K
        self.cards = data.tables[K.T_CARDS]
        self.inst = data.tables[K.T_INSTANCES]

    def seat_name(self, p):
        return f"Slacker {p + 1}"

    def desc(self, inst: int) -> str:
        K = self.K
        c = int(self.inst[inst])
        row = self.cards[c]
        kind = K.KIND_NAMES[row[K.C_KIND]]
        bits = [kind]
        if row[K.C_COLOUR] >= 0:
            bits.append(K.COLOUR_NAMES[row[K.C_COLOUR]])
        if row[K.C_TYPE] >= 0:
            bits.append(K.TYPE_NAMES[row[K.C_TYPE]])
        if row[K.C_POINTS]:
            bits.append(f"{row[K.C_POINTS]} pt")
        if row[K.C_KIND] == K.ACTIVITY and row[K.C_WHEEL]:
            bits.append("doubles " + "/".join(n for i, n in enumerate(K.COLOUR_NAMES) if (row[K.C_WHEEL] >> i) & 1))
        return f"{self.names[c]} ({', '.join(bits)})"

    def a(self, state):
        return state.a

    def hand(self, a, p):
        K = self.K
        return [int(a[a[K.O_HAND] + p * K.HAND_MAX + k]) for k in range(a[a[K.O_HAND_N] + p])]

    def row(self, a, p):
        K = self.K
        return [int(a[a[K.O_ROW] + p * K.ROW_MAX + j]) for j in range(a[a[K.O_ROW_N] + p])]

    def sets(self, a, p) -> list[str]:
        K = self.K
        out = []
        for i in range(a[a[K.O_N_SETS] + p]):
            base = a[K.O_SETS] + (p * a[K.M_MAX_SETS] + i) * K.N_SLOTS
            cards = [self.names[int(self.inst[a[base + sl]])] for sl in range(K.N_SLOTS) if a[base + sl] >= 0]
            out.append(f"set {i + 1}: " + ", ".join(cards))
        return out

    def board(self, state, final=False):
        K, a = self.K, self.a(state)
        h = self.human
        lines = [f"== {self.spec.title}: round {min(a[K.M_ROUND] + 1, a[K.M_N_ROUNDS])} of {a[K.M_N_ROUNDS]}, {self.seat_name(a[K.M_CUR])}'s turn "
                 f"({K.PHASE_NAMES[a[K.M_PHASE]]}); Draw pile {a[K.M_DRAW_N]}, Really Discarded {a[K.M_REALLY_N]}; "
                 f"{a[K.M_LOCKED]} locked set(s) ==" ]
        if a[K.M_DECLARER] >= 0:
            lines.append(f"Back To Work-ish was declared by {self.seat_name(a[K.M_DECLARER])}.")
        for p in range(self.players):
            hand = self.hand(a, p)
            lines.append(f"{self.you(p)}: {a[a[K.O_SCORE] + p]} point(s); {len(hand)} card(s) in hand")
            row = self.row(a, p)
            lines.append(f"    Personal Discard row: {', '.join(self.desc(i) for i in row) or 'empty'}")
            for st in self.sets(a, p):
                lines.append(f"    {st}")
        lines.append("Your hand: " + (", ".join(self.desc(i) for i in self.hand(a, h)) or "empty"))
        return lines

    def option(self, state, code):
        K, a = self.K, self.a(state)
        seat = a[K.M_CUR]
        if code == K.OPT_DECLARE:
            return "Declare Back To Work-ish"
        if code == K.OPT_CONTINUE:
            ph = a[K.M_PHASE]
            return {K.PH_START: "Go on: sweep your Personal Discard row", K.PH_DISCARD: "Done discarding: refill your hand",
                    K.PH_PLAY: "End your turn"}.get(ph, "Go on")
        if code == K.OPT_DRAW:
            return "Draw from the Draw pile"
        if K.OPT_DISCARD <= code < K.OPT_PLAY:
            return f"Discard {self.desc(self.hand(a, seat)[code - K.OPT_DISCARD])} to your Personal Discard row"
        if K.OPT_PLAY <= code < K.OPT_TAKE:
            inst = self.hand(a, seat)[code - K.OPT_PLAY]
            c = int(self.inst[inst])
            if self.cards[c, K.C_KIND] == K.EXCUSE:
                return f"Play the Excuse {self.desc(inst)}: start a new set"
            return f"Add {self.desc(inst)} to your set"
        p, j = divmod(code - K.OPT_TAKE, K.ROW_MAX)
        return f"Take {self.desc(self.row(a, p)[j])} from {self.seat_name(p)}'s Personal Discard row"

    def hide(self, ev):
        K = self.K
        code, a, b, c, d = ev
        if code == K.EV_DEAL and a != self.human:
            return ""  # one line per card dealt to another player: nothing to show
        if code == K.EV_DRAW and a != self.human:
            return f"{self.seat_name(a)} draws a card from the Draw pile."
        return None


# ------------------------------------------------------------------ Use Up All Your Sick Days (solo / co-op)
class SickDays(Table):
    def __init__(self, spec, data, players, human):
        super().__init__(spec, data, players, human)
        from balance.simcore.sickdays_solo import kernels as K

        self.K = K
        self.info = data.info

    def short(self, c: int) -> str:
        K = self.K
        if c < 0:
            return "."
        if c >= K.NWORK:
            return self.info["events"][c - K.NWORK]
        return f"{c % 7 + 1}-{self.info['suits'][c // 7]}"

    def long(self, c: int) -> str:
        from balance.simcore.sickdays_solo import _card

        return _card(c, self.info)

    def hand(self, s, p):
        K = self.K
        return [int(s[K.O_HAND + p * K.HAND_CAP + i]) for i in range(s[K.O_HANDN + p])]

    def board(self, state, final=False):
        K, s = self.K, state
        h = self.human
        rows = int(s[K.H_ROWS])
        lines = [f"== {self.spec.title}: level {self.data.params.get('level', '?')}, turn {s[K.H_TURNS]}; deck {s[K.H_DECK_N]} "
                 f"card(s); pizzas ready {s[K.H_READY]}, used {s[K.H_USED]} =="]
        happy = [self.info["suits"][w] for w in range(K.NSUITS) if s[K.O_HAPPY + w] == 1]
        kept = [self.info["suits"][w] for w in range(K.NSUITS) if s[K.O_HAPPY + w] >= 0]
        lines.append(f"Workers kept: {', '.join(kept)}; happy: {', '.join(happy) or 'none yet'}")
        days = self.info["day_names"]
        width = 11
        lines.append("Calendar   " + "".join(f"{d[:9]:<{width}}" for d in days))
        last = max([int(s[K.O_HEIGHT + c]) for c in range(K.NCOL)] + [0])
        okind = K.O_GRID + rows * K.NCOL
        for r in range(min(rows, last + 1)):
            cells = []
            for c in range(K.NCOL):
                kind = s[okind + r * K.NCOL + c]
                card = int(s[K.O_GRID + r * K.NCOL + c])
                txt = ("." if kind == K.K_EMPTY else "[note]" if kind == K.K_NOTE else self.short(card))
                cells.append(f"{txt:<{width}}")
            lines.append(f"week {r + 1:<5} " + "".join(cells))
        disc = [self.long(int(s[K.O_DISC + i])) for i in range(s[K.H_DISC_N])]
        lines.append(f"Discard pile: {', '.join(disc) or 'empty'}")
        if s[K.H_PHASE] == K.PH_AUTOMA:
            lines.append(f"The automa drew {self.long(int(s[K.H_AUT_CARD]))}.")
        for p in range(self.players):
            if p != h:
                lines.append(f"{self.you(p)}: {len(self.hand(s, p))} card(s) in hand")
        lines.append("Your hand: " + (", ".join(self.long(c) for c in self.hand(s, h)) or "empty"))
        return lines

    def option(self, state, code):
        K, s = self.K, state
        kind, a, b = code // 10000, (code // 100) % 100, code % 100
        seat = s[K.H_CB_SEAT] if s[K.H_PHASE] == K.PH_COFFEE else s[K.H_CUR]
        hand = self.hand(s, seat)
        day = self.info["day_names"]

        def at(col):
            return f"{day[col]}, week {int(s[K.O_HEIGHT + col]) + 1}"

        if kind == K.OP_REFRESH:
            return "Spend a ready pizza: shuffle your hand into the deck and draw back up"
        if kind == K.OP_PLAY:
            c = hand[a]
            return f"Play {self.long(c)} into {at(c % 7)}" if c < K.NWORK else f"Play {self.long(c)}"
        if kind == K.OP_PLAY_BDAY:
            return f"Play {self.long(hand[a])} over the Birthday card"
        if kind == K.OP_DISCARD:
            return f"Discard {self.long(hand[a])}"
        if kind in (K.OP_NOTE, K.OP_WC_NOTE):
            return f"Take a discarded card as a Doctor's note into {at(b)}"
        if kind == K.OP_EVENT:
            return f"Put {self.long(hand[a])} into {at(b)}"
        if kind == K.OP_AUT_PLACE:
            return f"Place the automa's {self.long(int(s[K.H_AUT_CARD]))} on the calendar"
        if kind == K.OP_AUT_DISCARD:
            return f"Discard the automa's {self.long(int(s[K.H_AUT_CARD]))}"
        if kind == K.OP_WC_DONE:
            return "Stop placing Doctor's notes (Water Cooler)"
        if kind == K.OP_LB_TAKE:
            return f"Look Busy: take {self.long(int(s[K.O_DISC + a]))} from the discard pile into your hand"
        if kind == K.OP_LB_SKIP:
            return "Look Busy: take nothing"
        if kind == K.OP_CB_RETURN:
            return f"Coffee Break: shuffle {self.long(hand[a])} into the deck"
        if kind == K.OP_CB_DONE:
            return "Coffee Break: draw back up to the hand size"
        return f"option {code}"


TABLES = {"youre-fired": YoureFired, "overtime": Overtime, "four-day-weekend": FourDayWeekend,
          "sickdays-solo": SickDays}


def table_for(spec, data, players: int, human: int) -> Table:
    return TABLES.get(spec.name, Table)(spec, data, players, human)
