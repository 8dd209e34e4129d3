"""Sick Days party game transcripts: the event log in the rulebook's words, with the run's names.
"""
from __future__ import annotations

from balance.simcore.transcript import Decoder, Event

from . import constants


def _t(ms: int) -> str:
    return f"[{ms / 1000:6.1f} s]"


class Names:
    """The run's card names (data.info)."""

    def __init__(self, data, n_players: int):
        self.deck = data.info
        self.names = data.card_names

    def card(self, c):
        return self.names[int(c)]


def _end(t, a, b, c, d):
    out = []
    why = {constants.END.all_but_left_won: 'all but the last players have won', constants.END.stuck: 'nobody holds a card'}.get(b, '?')
    out.append(f"{_t(a)} The game ends: {why} ({c} winner{('s' if c != 1 else '')}).")
    return out


EVENTS = (
    Event(constants.T_SETUP, 'setup',
          lambda t, a, b, c, d: f"Setup: {a} players, {b} tired worker token{('s' if b != 1 else '')} each, {c} event card{('s' if c != 1 else '')} in the deck; the starting card is {t.card(d)}."),
    Event(constants.T_EVENTS, 'events',
          lambda t, a, b, c, d: f"Event card in the deck: {t.deck['events'][a]}."),
    Event(constants.T_DEAL, 'deal',
          lambda t, a, b, c, d: f'Seat {a + 1} draws {b} cards.'),
    Event(constants.T_PLAY, 'play',
          lambda t, a, b, c, d: f'{_t(a)} seat {b + 1} plays {t.card(c)} on {t.card(d)}'),
    Event(constants.T_STALL, 'stall',
          lambda t, a, b, c, d: f'{_t(a)} nobody can play: seat {b + 1} plays {t.card(c)} on {t.card(d)} (stall rule, no penalty)'),
    Event(constants.T_NOTE_MAKE, 'note_make',
          lambda t, a, b, c, d: f'''{_t(a)} seat {b + 1} makes a Doctor's note of {t.card(c)}: "I'm sick"'''),
    Event(constants.T_NOTE_PLAY, 'note_play',
          lambda t, a, b, c, d: f'''{_t(a)} seat {b + 1} plays its Doctor's note {t.card(c)} on {t.card(d)}: "I'm back"'''),
    Event(constants.T_MISTAKE, 'mistake',
          lambda t, a, b, c, d: f'{_t(a)}   mistake by seat {b + 1}: {constants.CAUSE_WORDS[c]} ({t.card(d)} stays on the pile)'),
    Event(constants.T_DRAW, 'draw',
          lambda t, a, b, c, d: f'{_t(a)}   seat {b + 1} draws {c} ({constants.CAUSE_WORDS[d]})'),
    Event(constants.T_SLICE_USE, 'slice_use',
          lambda t, a, b, c, d: f'{_t(a)}   seat {b + 1} puts a pizza slice back instead of drawing 2 ({constants.CAUSE_WORDS[c]})'),
    Event(constants.T_COLLIDE, 'collide',
          lambda t, a, b, c, d: f'{_t(a)} {b} players play at the same time!'),
    Event(constants.T_CELEBRATE, 'celebrate',
          lambda t, a, b, c, d: f"{_t(a)}   seat {b + 1} celebrates {t.deck['events'][c]}"),
    Event(constants.T_TOKEN, 'token',
          lambda t, a, b, c, d: f'{_t(a)} seat {b + 1} played all its cards: a tired worker token goes back ({c} left), draws {d}'),
    Event(constants.T_WIN, 'win',
          lambda t, a, b, c, d: f'{_t(a)} seat {b + 1} played all its cards with no token left: wins (place {c})'),
    Event(constants.T_REFILL, 'refill',
          lambda t, a, b, c, d: f'{_t(a)} the deck ran out: {b} cards of the play pile become the deck (unshuffled)'),
    Event(constants.T_COFFEE, 'coffee',
          lambda t, a, b, c, d: f'{_t(a)} Coffee Break: nobody may play until {b / 1000:.1f} s'),
    Event(constants.T_LOOKBUSY, 'lookbusy',
          lambda t, a, b, c, d: f'{_t(a)} Look Busy: seat {b + 1} is the last to type on the table ({c / 1000:.1f} s)'),
    Event(constants.T_GRAB, 'grab',
          lambda t, a, b, c, d: f'{_t(a)} Pizza Party: seat {b + 1} grabs a pizza slice after {d / 1000:.1f} s ({c} left in the middle)'),
    Event(constants.T_ACCUSE, 'accuse',
          lambda t, a, b, c, d: f'{_t(a)}   seat {b + 1} wrongly accuses seat {c + 1} of a wrong day ({t.card(d)} is the same worker)'),
    Event(constants.T_END, 'end', _end),
)

decode_trace = Decoder(EVENTS, Names)
