"""Sick Days solo/co-op transcripts: the event log in the rulebook's words, with the run's names.
"""
from __future__ import annotations

from balance.simcore.transcript import Decoder, Event

from . import constants

LINE_WORDS = ("row", "diagonal", "diagonal")


def _card(card: int, rules) -> str:
    if card >= constants.NWORK:
        return f"the {rules['events'][card - constants.NWORK]} event card"
    d = card % 7
    return f"{d + 1}-{rules['day_names'][d]} ({rules['suits'][card // 7]})"


class Names:
    """The run's names (data.info: day names, suits, events)."""

    def __init__(self, data, n_players: int):
        self.rules = data.info
        self.days = self.rules["day_names"]

    def spot(self, r, c):
        return f"{self.days[c]}, week {r + 1}"


def _pizza_ready(t, a, b, c, d):
    out = []
    if c > 0:
        out.append(f'Week {a + 1} is full: a pizza is ready again ({b} ready).')
    else:
        out.append(f'Week {a + 1} is full (no used pizza to flip).')
    return out


def _happy(t, a, b, c, d):
    out = []
    wild = ('', ' with the New Years wild', " with the Valentine's Day wild")[c]
    out.append(f"{t.rules['suits'][a]} is happy ({LINE_WORDS[b]}{wild}) on turn {d}.")
    return out


def _lose(t, a, b, c, d):
    out = []
    why = {constants.END.no_action: 'no legal turn action', constants.END.automa_empty: 'the automa cannot draw'}.get(a, '?')
    out.append(f"You lose ({why}): {b} card{('s' if b != 1 else '')} missing.")
    return out


EVENTS = (
    Event(constants.T_SETUP, 'setup',
          lambda t, a, b, c, d: f'Setup: {a} workers, {b} cards removed unseen, {c} event cards shuffled in, calendar of {d} weeks.'),
    Event(constants.T_DRAW, 'draw',
          lambda t, a, b, c, d: f"Player {a + 1} draws {b} card{('s' if b != 1 else '')}."),
    Event(constants.T_TURN, 'turn',
          lambda t, a, b, c, d: f'-- Turn {b}: Player {a + 1}.'),
    Event(constants.T_PLAY, 'play',
          lambda t, a, b, c, d: f'Player {a + 1} plays {_card(b, t.rules)} into {t.spot(c, d)}.'),
    Event(constants.T_PLAY_BDAY, 'play_bday',
          lambda t, a, b, c, d: f'Player {a + 1} plays {_card(b, t.rules)} over the Birthday card in {t.spot(c, d)}.'),
    Event(constants.T_DISCARD, 'discard',
          lambda t, a, b, c, d: f'Player {a + 1} discards {_card(b, t.rules)}.'),
    Event(constants.T_NOTE, 'note',
          lambda t, a, b, c, d: f"Player {a + 1} uses a discarded {_card(b, t.rules)} as a Doctor's note in {t.spot(c, d)}."),
    Event(constants.T_WC_NOTE, 'wc_note',
          lambda t, a, b, c, d: f"Water Cooler: Player {a + 1} uses a discarded {_card(b, t.rules)} as a Doctor's note in {t.spot(c, d)}."),
    Event(constants.T_REFRESH, 'refresh',
          lambda t, a, b, c, d: f'Player {a + 1} spends a ready pizza to refresh the hand ({b} ready left).'),
    Event(constants.T_PIZZA_READY, 'pizza_ready', _pizza_ready),
    Event(constants.T_AUT_DRAW, 'aut_draw',
          lambda t, a, b, c, d: f'The automa draws {_card(a, t.rules)}.'),
    Event(constants.T_AUT_PLACE, 'aut_place',
          lambda t, a, b, c, d: f"The automa's {_card(a, t.rules)} is placed into {t.spot(b, c)}."),
    Event(constants.T_AUT_DISCARD, 'aut_discard',
          lambda t, a, b, c, d: f"The automa's {_card(a, t.rules)} is discarded{(' (it cannot be placed)' if b else '')}."),
    Event(constants.T_HAPPY, 'happy', _happy),
    Event(constants.T_WIN, 'win',
          lambda t, a, b, c, d: f'All workers are happy: you win (turn {a}).'),
    Event(constants.T_LOSE, 'lose', _lose),
    Event(constants.T_EVENT, 'event',
          lambda t, a, b, c, d: f'Player {a + 1} puts {_card(b, t.rules)} into {t.spot(c, d)}.'),
    Event(constants.T_LB_TAKE, 'lb_take',
          lambda t, a, b, c, d: f'Look Busy: Player {a + 1} takes the discarded {_card(b, t.rules)} back into the hand.'),
    Event(constants.T_CB_RETURN, 'cb_return',
          lambda t, a, b, c, d: f'Coffee Break: Player {a + 1} shuffles {_card(b, t.rules)} into the deck.'),
    Event(constants.T_CB_DONE, 'cb_done',
          lambda t, a, b, c, d: f'Coffee Break: Player {a + 1} draws back to the hand size ({b} drawn).'),
    Event(constants.T_PIZZA_PARTY, 'pizza_party',
          lambda t, a, b, c, d: f"Pizza Party: {a} pizza{('s' if a != 1 else '')} ready again ({b} ready)."),
)

decode_trace = Decoder(EVENTS, Names)
