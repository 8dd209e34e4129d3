"""Turn a kernel's event trace into rulebook-worded lines, with the run's own
cards: names and kinds come from its GameData (a designer's list prints its
own names and kinds)."""
from __future__ import annotations

from balance.simcore.transcript import Decoder, Event

from . import constants
def _seat(p) -> str:
    return f"Slacker {int(p) + 1}"


class Names:
    """The run's own cards (its GameData): a designer's list prints its own names and kinds."""

    def __init__(self, data, n_players: int):
        self.names = data.card_names
        self.kinds = data.info["kinds"]
        self.pile_only = bool(data.params["declarer_pile_only"])
        self.n_players = n_players

    def card(self, c) -> str:
        return f"{self.names[int(c)]} ({self.kinds[int(c)]})"


def _new_set(t, a, b, c, d):
    out = []
    lock = ' locking the previous set;' if c > 0 else ''
    out.append(f'{_seat(a)} plays the Excuse {t.names[b]}, starting set {c + 1};{lock} {d} locked set(s) in play.')
    return out


def _declare(t, a, b, c, d):
    out = []
    if b:
        when = 'before sweeping (the refill may still take from other rows)'
    elif not t.pile_only:
        when = 'after sweeping (declarer_pile_only is off: the rows stay open)'
    elif d == constants.PH_PLAY:
        when = "after sweeping, while playing (this turn's refill took nothing from a row)"
    else:
        when = 'after sweeping (the rest of the refill from the Draw pile only)'
    out.append(f'{_seat(a)} declares Back To Work-ish {when}, with {c} locked sets in play.')
    return out


def _set_score(t, a, b, c, d):
    out = []
    if d:
        out.append(f"{_seat(a)}'s set {b + 1} scores {c} points.")
    else:
        out.append(f"{_seat(a)}'s set {b + 1} does not score (needs an Excuse, an Activity and a Necessity).")
    return out


def _game_end(t, a, b, c, d):
    out = []
    who = ', '.join((_seat(p) for p in range(t.n_players) if a >> p & 1))
    tie = ' (a shared win)' if c > 1 else ''
    out.append(f'Game over: {who} win(s) with {b} points{tie}.')
    return out


EVENTS = (
    Event(constants.EV_ROUND_START, 'round_start',
          lambda t, a, b, c, d: f'== Round {a + 1}: {_seat(b)} goes first; {c} cards in the Draw pile after the deal =='),
    Event(constants.EV_DEAL, 'deal',
          lambda t, a, b, c, d: f'{_seat(a)} is dealt {t.card(b)}.'),
    Event(constants.EV_TURN_START, 'turn_start',
          lambda t, a, b, c, d: f"-- {_seat(a)}'s turn ({b} of the round) --"),
    Event(constants.EV_SWEEP, 'sweep',
          lambda t, a, b, c, d: f'{_seat(a)} sweeps {b} card(s) from the Personal Discard row to the Really Discarded pile.'),
    Event(constants.EV_DISCARD, 'discard',
          lambda t, a, b, c, d: f'{_seat(a)} discards {t.card(b)} to the Personal Discard row.'),
    Event(constants.EV_DRAW, 'draw',
          lambda t, a, b, c, d: f'{_seat(a)} draws {t.card(b)} from the Draw pile.'),
    Event(constants.EV_TAKE, 'take',
          lambda t, a, b, c, d: f"{_seat(a)} takes {t.card(c)} from {_seat(b)}'s Personal Discard row."),
    Event(constants.EV_RESHUFFLE, 'reshuffle',
          lambda t, a, b, c, d: f'The Draw pile is empty: {a} Really Discarded cards are reshuffled into it.'),
    Event(constants.EV_NEW_SET, 'new_set', _new_set),
    Event(constants.EV_PLAY, 'play',
          lambda t, a, b, c, d: f'{_seat(a)} adds {t.card(b)} to set {c + 1}.'),
    Event(constants.EV_DECLARE, 'declare', _declare),
    Event(constants.EV_END_TURN, 'end_turn',
          lambda t, a, b, c, d: f'{_seat(a)} ends the turn holding {c} card(s).'),
    Event(constants.EV_DUMP, 'dump',
          lambda t, a, b, c, d: f'{_seat(a)} puts {t.card(b)} from hand into the Personal Discard row.'),
    Event(constants.EV_EXHAUSTED, 'exhausted',
          lambda t, a, b, c, d: f"The Draw pile and the Really Discarded pile are both empty: the round ends after {_seat(a)}'s turn."),
    Event(constants.EV_ROUND_END, 'round_end',
          lambda t, a, b, c, d: f'== Round {a + 1} ends ({constants.ROUND_END_NAMES[b]}) =='),
    Event(constants.EV_SET_SCORE, 'set_score', _set_score),
    Event(constants.EV_ROUND_SCORE, 'round_score',
          lambda t, a, b, c, d: f'{_seat(a)} scores {b} this round, {c} in all.'),
    Event(constants.EV_GAME_END, 'game_end', _game_end),
)

decode_trace = Decoder(EVENTS, Names)
