"""Turn a kernel's event trace into rulebook-worded lines, with the run's own
cards: names and kinds come from its GameData (a designer's list prints its
own names and kinds)."""
from __future__ import annotations

from balance.simcore.transcript import Decoder, Event, Wording

from . import constants


class Names(Wording):
    """The run's own cards (its GameData): a designer's list prints its own names and kinds."""
    seat_words = "Slacker {}"

    def card(self, c) -> str:
        return f"{self.names[int(c)]} ({self.info['kinds'][int(c)]})"

    @staticmethod
    def round_end(reason) -> str:
        return constants.ROUND_END_NAMES[reason]


def _new_set(t, a, b, c, d):
    lock = ' locking the previous set;' if c > 0 else ''
    return f'{t.seat(a)} plays the Excuse {t.names[b]}, starting set {c + 1};{lock} {d} locked set(s) in play.'


def _declare(t, a, b, c, d):
    if b:
        when = 'before sweeping (the refill may still take from other rows)'
    elif not t.params['declarer_pile_only']:
        when = 'after sweeping (declarer_pile_only is off: the rows stay open)'
    elif d == constants.PH_PLAY:
        when = "after sweeping, while playing (this turn's refill took nothing from a row)"
    else:
        when = 'after sweeping (the rest of the refill from the Draw pile only)'
    return f'{t.seat(a)} declares Back To Work-ish {when}, with {c} locked sets in play.'


def _set_score(t, a, b, c, d):
    if d:
        return f"{t.seat(a)}'s set {b + 1} scores {c} points."
    return f"{t.seat(a)}'s set {b + 1} does not score (needs an Excuse, an Activity and a Necessity)."


def _game_end(t, a, b, c, d):
    tie = ' (a shared win)' if c > 1 else ''
    return f'Game over: {t.seats(a)} win(s) with {b} points{tie}.'


EVENTS = (
    Event(constants.EV_ROUND_START, 'round_start',
          '== Round {a:+1}: {b:seat} goes first; {c} cards in the Draw pile after the deal =='),
    Event(constants.EV_DEAL, 'deal', '{a:seat} is dealt {b:card}.'),
    Event(constants.EV_TURN_START, 'turn_start', "-- {a:seat}'s turn ({b} of the round) --"),
    Event(constants.EV_SWEEP, 'sweep',
          '{a:seat} sweeps {b} card(s) from the Personal Discard row to the Really Discarded pile.'),
    Event(constants.EV_DISCARD, 'discard', '{a:seat} discards {b:card} to the Personal Discard row.'),
    Event(constants.EV_DRAW, 'draw', '{a:seat} draws {b:card} from the Draw pile.'),
    Event(constants.EV_TAKE, 'take', "{a:seat} takes {c:card} from {b:seat}'s Personal Discard row."),
    Event(constants.EV_RESHUFFLE, 'reshuffle',
          'The Draw pile is empty: {a} Really Discarded cards are reshuffled into it.'),
    Event(constants.EV_NEW_SET, 'new_set', _new_set),
    Event(constants.EV_PLAY, 'play', '{a:seat} adds {b:card} to set {c:+1}.'),
    Event(constants.EV_DECLARE, 'declare', _declare),
    Event(constants.EV_END_TURN, 'end_turn', '{a:seat} ends the turn holding {c} card(s).'),
    Event(constants.EV_DUMP, 'dump', '{a:seat} puts {b:card} from hand into the Personal Discard row.'),
    Event(constants.EV_EXHAUSTED, 'exhausted',
          "The Draw pile and the Really Discarded pile are both empty: the round ends after {a:seat}'s turn."),
    Event(constants.EV_ROUND_END, 'round_end', '== Round {a:+1} ends ({b:round_end}) =='),
    Event(constants.EV_SET_SCORE, 'set_score', _set_score),
    Event(constants.EV_ROUND_SCORE, 'round_score', '{a:seat} scores {b} this round, {c} in all.'),
    Event(constants.EV_GAME_END, 'game_end', _game_end),
)

decode_trace = Decoder(EVENTS, Names)
