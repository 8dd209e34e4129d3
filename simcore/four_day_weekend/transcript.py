"""Turn a kernel's event trace into rulebook-worded lines, with the run's own
cards: names and kinds come from its GameData (a designer's list prints its
own names and kinds)."""
from __future__ import annotations

from . import constants as K


def _seat(p) -> str:
    return f"Slacker {int(p) + 1}"


def decode_trace(events, data, n_players: int) -> list[str]:
    """events: the (n, 5) trace; data: the run's GameData."""
    names = data.card_names
    kinds = data.info["kinds"]
    pile_only = bool(data.params["declarer_pile_only"])

    def card(c) -> str:
        return f"{names[int(c)]} ({kinds[int(c)]})"

    out: list[str] = []
    for code, a, b, c, d in (tuple(int(x) for x in e) for e in events):
        if code == K.EV_ROUND_START:
            out.append(f"== Round {a + 1}: {_seat(b)} goes first; {c} cards in the Draw pile after the deal ==")
        elif code == K.EV_DEAL:
            out.append(f"{_seat(a)} is dealt {card(b)}.")
        elif code == K.EV_TURN_START:
            out.append(f"-- {_seat(a)}'s turn ({b} of the round) --")
        elif code == K.EV_SWEEP:
            out.append(f"{_seat(a)} sweeps {b} card(s) from the Personal Discard row to the Really Discarded pile.")
        elif code == K.EV_DISCARD:
            out.append(f"{_seat(a)} discards {card(b)} to the Personal Discard row.")
        elif code == K.EV_DRAW:
            out.append(f"{_seat(a)} draws {card(b)} from the Draw pile.")
        elif code == K.EV_TAKE:
            out.append(f"{_seat(a)} takes {card(c)} from {_seat(b)}'s Personal Discard row.")
        elif code == K.EV_RESHUFFLE:
            out.append(f"The Draw pile is empty: {a} Really Discarded cards are reshuffled into it.")
        elif code == K.EV_NEW_SET:
            lock = " locking the previous set;" if c > 0 else ""
            out.append(f"{_seat(a)} plays the Excuse {names[b]}, starting set {c + 1};{lock} {d} locked set(s) in play.")
        elif code == K.EV_PLAY:
            out.append(f"{_seat(a)} adds {card(b)} to set {c + 1}.")
        elif code == K.EV_DECLARE:
            if b:
                when = "before sweeping (the refill may still take from other rows)"
            elif not pile_only:
                when = "after sweeping (declarer_pile_only is off: the rows stay open)"
            elif d == K.PH_PLAY:
                when = "after sweeping, while playing (this turn's refill took nothing from a row)"
            else:
                when = "after sweeping (the rest of the refill from the Draw pile only)"
            out.append(f"{_seat(a)} declares Back To Work-ish {when}, with {c} locked sets in play.")
        elif code == K.EV_END_TURN:
            out.append(f"{_seat(a)} ends the turn holding {c} card(s).")
        elif code == K.EV_DUMP:
            out.append(f"{_seat(a)} puts {card(b)} from hand into the Personal Discard row.")
        elif code == K.EV_EXHAUSTED:
            out.append(f"The Draw pile and the Really Discarded pile are both empty: the round ends after {_seat(a)}'s turn.")
        elif code == K.EV_ROUND_END:
            out.append(f"== Round {a + 1} ends ({K.ROUND_END_NAMES[b]}) ==")
        elif code == K.EV_SET_SCORE:
            if d:
                out.append(f"{_seat(a)}'s set {b + 1} scores {c} points.")
            else:
                out.append(f"{_seat(a)}'s set {b + 1} does not score (needs an Excuse, an Activity and a Necessity).")
        elif code == K.EV_ROUND_SCORE:
            out.append(f"{_seat(a)} scores {b} this round, {c} in all.")
        elif code == K.EV_GAME_END:
            who = ", ".join(_seat(p) for p in range(n_players) if (a >> p) & 1)
            tie = " (a shared win)" if c > 1 else ""
            out.append(f"Game over: {who} win(s) with {b} points{tie}.")
        elif code == -2:
            out.append("The turn cap ends the game.")
        else:
            out.append(f"(unknown event {code} {a} {b} {c} {d})")
    return out
