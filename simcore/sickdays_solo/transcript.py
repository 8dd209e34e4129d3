"""Sick Days solo/co-op transcripts: the event log in the rulebook's words, with the run's names.
"""
from __future__ import annotations

from balance.simcore.transcript import Decoder, Event, Wording

from . import constants

LINE_WORDS = ("row", "diagonal", "diagonal")
WILD_WORDS = ('', ' with the New Years wild', " with the Valentine's Day wild")


def _card(card: int, rules) -> str:
    if card >= constants.NWORK:
        return f"the {rules['events'][card - constants.NWORK]} event card"
    d = card % 7
    return f"{d + 1}-{rules['day_names'][d]} ({rules['suits'][card // 7]})"


class Names(Wording):
    """The run's names (data.info: day names, suits, events)."""

    def card(self, c) -> str:
        return _card(c, self.info)

    def day(self, c) -> str:
        return self.info["day_names"][c]


def _pizza_ready(t, a, b, c, d):
    if c > 0:
        return f'Week {a + 1} is full: a pizza is ready again ({b} ready).'
    return f'Week {a + 1} is full (no used pizza to flip).'


def _happy(t, a, b, c, d):
    return f"{t.info['suits'][a]} is happy ({LINE_WORDS[b]}{WILD_WORDS[c]}) on turn {d}."


def _lose(t, a, b, c, d):
    why = {constants.END.no_action: 'no legal turn action', constants.END.automa_empty: 'the automa cannot draw'}.get(a, '?')
    return f"You lose ({why}): {b} card{t.s(b)} missing."


EVENTS = (
    Event(constants.T_SETUP, 'setup',
          'Setup: {a} workers, {b} cards removed unseen, {c} event cards shuffled in, calendar of {d} weeks.'),
    Event(constants.T_DRAW, 'draw', '{a:seat} draws {b} card{b:s}.'),
    Event(constants.T_TURN, 'turn', '-- Turn {b}: {a:seat}.'),
    Event(constants.T_PLAY, 'play', '{a:seat} plays {b:card} into {d:day}, week {c:+1}.'),
    Event(constants.T_PLAY_BDAY, 'play_bday',
          '{a:seat} plays {b:card} over the Birthday card in {d:day}, week {c:+1}.'),
    Event(constants.T_DISCARD, 'discard', '{a:seat} discards {b:card}.'),
    Event(constants.T_NOTE, 'note',
          "{a:seat} uses a discarded {b:card} as a Doctor's note in {d:day}, week {c:+1}."),
    Event(constants.T_WC_NOTE, 'wc_note',
          "Water Cooler: {a:seat} uses a discarded {b:card} as a Doctor's note in {d:day}, week {c:+1}."),
    Event(constants.T_REFRESH, 'refresh', '{a:seat} spends a ready pizza to refresh the hand ({b} ready left).'),
    Event(constants.T_PIZZA_READY, 'pizza_ready', _pizza_ready),
    Event(constants.T_AUT_DRAW, 'aut_draw', 'The automa draws {a:card}.'),
    Event(constants.T_AUT_PLACE, 'aut_place', "The automa's {a:card} is placed into {c:day}, week {b:+1}."),
    Event(constants.T_AUT_DISCARD, 'aut_discard',
          lambda t, a, b, c, d: f"The automa's {t.card(a)} is discarded{(' (it cannot be placed)' if b else '')}."),
    Event(constants.T_HAPPY, 'happy', _happy),
    Event(constants.T_WIN, 'win', 'All workers are happy: you win (turn {a}).'),
    Event(constants.T_LOSE, 'lose', _lose),
    Event(constants.T_EVENT, 'event', '{a:seat} puts {b:card} into {d:day}, week {c:+1}.'),
    Event(constants.T_LB_TAKE, 'lb_take', 'Look Busy: {a:seat} takes the discarded {b:card} back into the hand.'),
    Event(constants.T_CB_RETURN, 'cb_return', 'Coffee Break: {a:seat} shuffles {b:card} into the deck.'),
    Event(constants.T_CB_DONE, 'cb_done', 'Coffee Break: {a:seat} draws back to the hand size ({b} drawn).'),
    Event(constants.T_PIZZA_PARTY, 'pizza_party', 'Pizza Party: {a} pizza{a:s} ready again ({b} ready).'),
)

decode_trace = Decoder(EVENTS, Names)
