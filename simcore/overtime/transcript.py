"""Decode an Overtime event trace into rulebook-worded lines."""
from __future__ import annotations

from balance.simcore.transcript import Decoder, Event, Wording

from . import constants
CHOICE_WORDS = {constants.OP_WORK: "to work on", constants.OP_GIVE_ASSIGNMENT: "to give", constants.OP_TAKE_ASSIGNMENT: "to take",
                constants.OP_DISCARD_ASSIGNMENT: "to discard"}
SKIP_WHY = ('a card told them to', 'exhaustion', 'a card told them to')


class Names(Wording):
    """The names and kinds of the run's own card list (its GameData)."""
    seat_words = "P{}"

    def card(self, k):
        k = int(k)
        return self.names[k] if 0 <= k < len(self.names) else "?"


def _play(t, a, b, c, d):
    extra = ' (free: first action, an E card)' if d else ''
    tgt = ''
    if c >= 0:
        is_a = t.info["kind_target"][b] == constants.TG_ASSIGNMENT
        tgt = f' on {t.card(t.info["instance_kind"][c])}' if is_a else f' targeting {t.seat(c)}'
    return f'{t.seat(a)} plays {t.card(b)}{tgt}{extra}.'


def _react(t, a, b, c, d):
    what = t.card(c) if c >= 0 else 'the completed A card'
    return f'{t.seat(a)} reacts with {t.card(b)} to {what} (pile entry {d}).'


def _ability(t, a, b, c, d):
    if d >= 0:
        return f"{t.seat(a)} uses {t.card(b)}'s ability as a reaction on pile entry {d}."
    return f"{t.seat(a)} uses {t.card(b)}'s ability" + (f', taking {t.card(c)} from the discard pile.' if c >= 0 else '.')


def _exhaust(t, a, b, c, d):
    then = 'discards all snooze (the turn is skipped once)' if c else 'discards all snooze and skips the rest of the turn'
    return f'  {t.seat(a)} is at {b} snooze (10+ level): {then}.'


def _skip(t, a, b, c, d):
    why = SKIP_WHY[b] if 0 <= b < len(SKIP_WHY) else '?'
    return f'  {t.seat(a)} skips their turn ({why}) and draws {c}.'


def _choose(t, a, b, c, d):
    return f'  {t.seat(a)} chooses {t.card(b)} {CHOICE_WORDS.get(c, "for")} ({t.card(d)}).'


def _end(t, a, b, c, d):
    if a == constants.END.assignments_done:
        return f'Game over in round {c} after {d} turns: {t.seats(b)} has no A card left and wins.'
    return f'Game over: {c} rounds played, nobody finished their A cards; everybody loses.'


EVENTS = (
    Event(constants.EV_SETUP, 'setup',
          'Setup: {a} players, {b} A cards each, {c} snooze each, {d} cards in the Main deck.'),
    Event(constants.EV_ROUND, 'round',
          lambda t, a, b, c, d: f'== Round {a}' + (f': the Time card gives every player {b} snooze.' if b else '.')),
    Event(constants.EV_TURN, 'turn', "-- {a:seat}'s turn (round {b}), {c} snooze, tiredness level {d}."),
    Event(constants.EV_PLAY, 'play', _play),
    Event(constants.EV_DIE, 'die',
          lambda t, a, b, c, d: f'{t.seat(a)} rolls the Work die for {t.card(b)}: {c} (needs {d}+)'
                                + ('.' if c >= d else ': canceled, it fails.')),
    Event(constants.EV_REACT, 'react', _react),
    Event(constants.EV_ABILITY, 'ability', _ability),
    Event(constants.EV_RESOLVE, 'resolve',
          lambda t, a, b, c, d: f'  resolve {t.card(b)} ({t.seat(a)})' + (': canceled, discarded.' if c else '.')),
    Event(constants.EV_WORK, 'work', '  {a:seat} completes {c} task(s) on {b:card} ({d} done).'),
    Event(constants.EV_TOKENS, 'tokens', '  {a:seat} puts {c} task token(s) on {b:card} ({d} done).'),
    Event(constants.EV_COMPLETE, 'complete',
          '  {a:seat} completes {b:card}: discarded with its W cards ({c} A cards left).'),
    Event(constants.EV_SNOOZE, 'snooze',
          lambda t, a, b, c, d: f"  {t.seat(a)} {('gains' if b > 0 else 'removes')} {abs(b)} snooze ({c})."),
    Event(constants.EV_SNOOZE_DISCARD, 'snooze_discard', '  {a:seat} discards all {b} snooze tokens.'),
    Event(constants.EV_GIVE, 'give', '  {a:seat} gives {c:card} ({d} tasks done) to {b:seat}.'),
    Event(constants.EV_NO_RECIPIENT, 'no_recipient',
          '  {a:seat} alone has the fewest A cards ({b}): no one to give one to.'),
    Event(constants.EV_DRAW, 'draw', '  {a:seat} draws {b} card(s) ({c} in hand).'),
    Event(constants.EV_DISCARD, 'discard', '  {a:seat} discards {b:card}.'),
    Event(constants.EV_EXHAUST, 'exhaust', _exhaust),
    Event(constants.EV_SKIP, 'skip', _skip),
    Event(constants.EV_SKIP_SET, 'skip_set',
          lambda t, a, b, c, d: f'  {t.seat(a)} must skip ' + ('the rest of this turn.' if b else 'their next turn.')),
    Event(constants.EV_EMPLOYEE, 'employee', '  {a:seat} replaces {c:card} with {b:card}.'),
    Event(constants.EV_RESHUFFLE, 'reshuffle',
          '  The Main deck ran out: the discard pile is shuffled into a new deck ({a} cards).'),
    Event(constants.EV_TAKE_DISCARD, 'take_discard', '  {a:seat} takes {b:card} from the discard pile.'),
    Event(constants.EV_EVENT, 'event', '  Players may react to {a:seat} completing an A card.'),
    Event(constants.EV_WORK_LOST, 'work_lost',
          "  {a:seat}'s {b:card} is discarded from {c:card}: its {d} task(s) are lost."),
    Event(constants.EV_TOKENS_LOST, 'tokens_lost', '  the {d} Task token(s) {b:card} put on {c:card} are lost too.'),
    Event(constants.EV_CHOOSE, 'choose', _choose),
    Event(constants.EV_A_DISCARD, 'a_discard',
          '  {a:seat} discards {b:card} without completing it ({c} A cards left).'),
    Event(constants.EV_CANCEL, 'cancel', "  {a:seat} cancels {c:seat}'s {b:card}."),
    Event(constants.EV_END_ACTIONS, 'end_actions', '  {a:seat} ends the Action phase after {b} action(s).'),
    Event(constants.EV_END, 'end', _end),
)

decode_trace = Decoder(EVENTS, Names)
