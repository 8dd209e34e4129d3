"""Sick Days party game transcripts: the event log in the rulebook's words, with the run's names.
"""
from __future__ import annotations

from balance.simcore.transcript import Decoder, Event, Wording

from . import constants


class Names(Wording):
    """The run's card names (data.info)."""
    seat_words = "seat {}"

    def event(self, e):
        return self.info['events'][e]

    @staticmethod
    def cause(c):
        return constants.CAUSE_WORDS[c]

    @staticmethod
    def clock(ms) -> str:
        return f"[{ms / 1000:6.1f} s]"

    @staticmethod
    def secs(ms) -> str:
        return f"{ms / 1000:.1f}"


def _end(t, a, b, c, d):
    why = {constants.END.all_but_left_won: 'all but the last players have won', constants.END.stuck: 'nobody holds a card'}.get(b, '?')
    return f"{t.clock(a)} The game ends: {why} ({c} winner{t.s(c)})."


EVENTS = (
    Event(constants.T_SETUP, 'setup',
          'Setup: {a} players, {b} tired worker token{b:s} each, {c} event card{c:s} in the deck; '
          'the starting card is {d:card}.'),
    Event(constants.T_EVENTS, 'events', 'Event card in the deck: {a:event}.'),
    Event(constants.T_DEAL, 'deal', 'Seat {a:+1} draws {b} cards.'),
    Event(constants.T_PLAY, 'play', '{a:clock} {b:seat} plays {c:card} on {d:card}'),
    Event(constants.T_STALL, 'stall',
          '{a:clock} nobody can play: {b:seat} plays {c:card} on {d:card} (stall rule, no penalty)'),
    Event(constants.T_NOTE_MAKE, 'note_make', '''{a:clock} {b:seat} makes a Doctor's note of {c:card}: "I'm sick"'''),
    Event(constants.T_NOTE_PLAY, 'note_play',
          '''{a:clock} {b:seat} plays its Doctor's note {c:card} on {d:card}: "I'm back"'''),
    Event(constants.T_MISTAKE, 'mistake', '{a:clock}   mistake by {b:seat}: {c:cause} ({d:card} stays on the pile)'),
    Event(constants.T_DRAW, 'draw', '{a:clock}   {b:seat} draws {c} ({d:cause})'),
    Event(constants.T_SLICE_USE, 'slice_use',
          '{a:clock}   {b:seat} puts a pizza slice back instead of drawing 2 ({c:cause})'),
    Event(constants.T_COLLIDE, 'collide', '{a:clock} {b} players play at the same time!'),
    Event(constants.T_CELEBRATE, 'celebrate', '{a:clock}   {b:seat} celebrates {c:event}'),
    Event(constants.T_TOKEN, 'token',
          '{a:clock} {b:seat} played all its cards: a tired worker token goes back ({c} left), draws {d}'),
    Event(constants.T_WIN, 'win', '{a:clock} {b:seat} played all its cards with no token left: wins (place {c})'),
    Event(constants.T_REFILL, 'refill',
          '{a:clock} the deck ran out: {b} cards of the play pile become the deck (unshuffled)'),
    Event(constants.T_COFFEE, 'coffee', '{a:clock} Coffee Break: nobody may play until {b:secs} s'),
    Event(constants.T_LOOKBUSY, 'lookbusy',
          '{a:clock} Look Busy: {b:seat} is the last to type on the table ({c:secs} s)'),
    Event(constants.T_GRAB, 'grab',
          '{a:clock} Pizza Party: {b:seat} grabs a pizza slice after {d:secs} s ({c} left in the middle)'),
    Event(constants.T_ACCUSE, 'accuse',
          '{a:clock}   {b:seat} wrongly accuses {c:seat} of a wrong day ({d:card} is the same worker)'),
    Event(constants.T_END, 'end', _end),
)

decode_trace = Decoder(EVENTS, Names)
