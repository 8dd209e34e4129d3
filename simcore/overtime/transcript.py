"""Decode an Overtime event trace into rulebook-worded lines."""
from __future__ import annotations

from balance.simcore.transcript import Decoder, Event

from . import constants
CHOICE_WORDS = {constants.OP_WORK: "to work on", constants.OP_GIVE_ASSIGNMENT: "to give", constants.OP_TAKE_ASSIGNMENT: "to take",
                constants.OP_DISCARD_ASSIGNMENT: "to discard"}


class Names:
    """The names and kinds of the run's own card list (its GameData)."""

    def __init__(self, data, n_players: int):
        self.names = data.card_names
        self.kind_target = data.info["kind_target"]
        self.instance_kind = data.info["instance_kind"]
        self.n_players = n_players

    def card(self, k):
        k = int(k)
        return self.names[k] if 0 <= k < len(self.names) else "?"

    def pl(self, p):
        return f"P{int(p) + 1}"


def _play(t, a, b, c, d):
    out = []
    extra = ' (free: first action, an E card)' if d else ''
    tgt = ''
    if c >= 0:
        is_a = t.kind_target[b] == constants.TG_ASSIGNMENT
        tgt = f' on {t.card(t.instance_kind[c])}' if is_a else f' targeting {t.pl(c)}'
    out.append(f'{t.pl(a)} plays {t.card(b)}{tgt}{extra}.')
    return out


def _react(t, a, b, c, d):
    out = []
    what = t.card(c) if c >= 0 else 'the completed A card'
    out.append(f'{t.pl(a)} reacts with {t.card(b)} to {what} (pile entry {d}).')
    return out


def _ability(t, a, b, c, d):
    out = []
    if d >= 0:
        out.append(f"{t.pl(a)} uses {t.card(b)}'s ability as a reaction on pile entry {d}.")
    else:
        out.append(f"{t.pl(a)} uses {t.card(b)}'s ability" + (f', taking {t.card(c)} from the discard pile.' if c >= 0 else '.'))
    return out


def _exhaust(t, a, b, c, d):
    out = []
    if c:
        out.append(f'  {t.pl(a)} is at {b} snooze (10+ level): discards all snooze (the turn is skipped once).')
    else:
        out.append(f'  {t.pl(a)} is at {b} snooze (10+ level): discards all snooze and skips the rest of the turn.')
    return out


def _skip(t, a, b, c, d):
    out = []
    why = ('a card told them to', 'exhaustion', 'a card told them to')[b] if 0 <= b < 3 else '?'
    out.append(f'  {t.pl(a)} skips their turn ({why}) and draws {c}.')
    return out


def _choose(t, a, b, c, d):
    out = []
    what = CHOICE_WORDS.get(c, 'for')
    out.append(f'  {t.pl(a)} chooses {t.card(b)} {what} ({t.card(d)}).')
    return out


def _end(t, a, b, c, d):
    out = []
    if a == constants.END.assignments_done:
        who = ', '.join((t.pl(p) for p in range(t.n_players) if b >> p & 1))
        out.append(f'Game over in round {c} after {d} turns: {who} has no A card left and wins.')
    else:
        out.append(f'Game over: {c} rounds played, nobody finished their A cards; everybody loses.')
    return out


EVENTS = (
    Event(constants.EV_SETUP, 'setup',
          lambda t, a, b, c, d: f'Setup: {a} players, {b} A cards each, {c} snooze each, {d} cards in the Main deck.'),
    Event(constants.EV_ROUND, 'round',
          lambda t, a, b, c, d: f'== Round {a}' + (f': the Time card gives every player {b} snooze.' if b else '.')),
    Event(constants.EV_TURN, 'turn',
          lambda t, a, b, c, d: f"-- {t.pl(a)}'s turn (round {b}), {c} snooze, tiredness level {d}."),
    Event(constants.EV_PLAY, 'play', _play),
    Event(constants.EV_DIE, 'die',
          lambda t, a, b, c, d: f'{t.pl(a)} rolls the Work die for {t.card(b)}: {c} (needs {d}+)' + ('.' if c >= d else ': canceled, it fails.')),
    Event(constants.EV_REACT, 'react', _react),
    Event(constants.EV_ABILITY, 'ability', _ability),
    Event(constants.EV_RESOLVE, 'resolve',
          lambda t, a, b, c, d: f'  resolve {t.card(b)} ({t.pl(a)})' + (': canceled, discarded.' if c else '.')),
    Event(constants.EV_WORK, 'work',
          lambda t, a, b, c, d: f'  {t.pl(a)} completes {c} task(s) on {t.card(b)} ({d} done).'),
    Event(constants.EV_TOKENS, 'tokens',
          lambda t, a, b, c, d: f'  {t.pl(a)} puts {c} task token(s) on {t.card(b)} ({d} done).'),
    Event(constants.EV_COMPLETE, 'complete',
          lambda t, a, b, c, d: f'  {t.pl(a)} completes {t.card(b)}: discarded with its W cards ({c} A cards left).'),
    Event(constants.EV_SNOOZE, 'snooze',
          lambda t, a, b, c, d: f"  {t.pl(a)} {('gains' if b > 0 else 'removes')} {abs(b)} snooze ({c})."),
    Event(constants.EV_SNOOZE_DISCARD, 'snooze_discard',
          lambda t, a, b, c, d: f'  {t.pl(a)} discards all {b} snooze tokens.'),
    Event(constants.EV_GIVE, 'give',
          lambda t, a, b, c, d: f'  {t.pl(a)} gives {t.card(c)} ({d} tasks done) to {t.pl(b)}.'),
    Event(constants.EV_NO_RECIPIENT, 'no_recipient',
          lambda t, a, b, c, d: f'  {t.pl(a)} alone has the fewest A cards ({b}): no one to give one to.'),
    Event(constants.EV_DRAW, 'draw',
          lambda t, a, b, c, d: f'  {t.pl(a)} draws {b} card(s) ({c} in hand).'),
    Event(constants.EV_DISCARD, 'discard',
          lambda t, a, b, c, d: f'  {t.pl(a)} discards {t.card(b)}.'),
    Event(constants.EV_EXHAUST, 'exhaust', _exhaust),
    Event(constants.EV_SKIP, 'skip', _skip),
    Event(constants.EV_SKIP_SET, 'skip_set',
          lambda t, a, b, c, d: f'  {t.pl(a)} must skip ' + ('the rest of this turn.' if b else 'their next turn.')),
    Event(constants.EV_EMPLOYEE, 'employee',
          lambda t, a, b, c, d: f'  {t.pl(a)} replaces {t.card(c)} with {t.card(b)}.'),
    Event(constants.EV_RESHUFFLE, 'reshuffle',
          lambda t, a, b, c, d: f'  The Main deck ran out: the discard pile is shuffled into a new deck ({a} cards).'),
    Event(constants.EV_TAKE_DISCARD, 'take_discard',
          lambda t, a, b, c, d: f'  {t.pl(a)} takes {t.card(b)} from the discard pile.'),
    Event(constants.EV_EVENT, 'event',
          lambda t, a, b, c, d: f'  Players may react to {t.pl(a)} completing an A card.'),
    Event(constants.EV_WORK_LOST, 'work_lost',
          lambda t, a, b, c, d: f"  {t.pl(a)}'s {t.card(b)} is discarded from {t.card(c)}: its {d} task(s) are lost."),
    Event(constants.EV_TOKENS_LOST, 'tokens_lost',
          lambda t, a, b, c, d: f'  the {d} Task token(s) {t.card(b)} put on {t.card(c)} are lost too.'),
    Event(constants.EV_CHOOSE, 'choose', _choose),
    Event(constants.EV_A_DISCARD, 'a_discard',
          lambda t, a, b, c, d: f'  {t.pl(a)} discards {t.card(b)} without completing it ({c} A cards left).'),
    Event(constants.EV_CANCEL, 'cancel',
          lambda t, a, b, c, d: f"  {t.pl(a)} cancels {t.pl(c)}'s {t.card(b)}."),
    Event(constants.EV_END_ACTIONS, 'end_actions',
          lambda t, a, b, c, d: f'  {t.pl(a)} ends the Action phase after {b} action(s).'),
    Event(constants.EV_END, 'end', _end),
)

decode_trace = Decoder(EVENTS, Names)
