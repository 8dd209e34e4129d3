"""Turn a game's event trace into rulebook-worded lines (`balance replay`): each
event declared once (simcore.transcript).

Card names and which cards target someone come from the run's GameData (its
own card list, `--set cards=FILE` included): nothing here reads a file.
"""
from __future__ import annotations

from balance.simcore.transcript import Decoder, Event

from . import constants

CAUSES = {constants.CAUSE_FIRED: "{boss} fired", constants.CAUSE_FORCED: "{boss} forced out", constants.CAUSE_BLUFF: "failed bluff"}
REASONS = constants.END._fields  # each code's name (the runner's cap and no_move first)


class Names:
    """`data`: the GameData the game was played with (simcore.gamedata)."""

    def __init__(self, data, n_players: int):
        self.names = list(data.card_names)
        self.targeted = list(data.info["targeted"])
        self.params = data.params
        self.boss = self.names[list(data.info["effects"]).index("boss")]  # the card the Boss rules are about
        self.causes = {k: v.format(boss=self.boss) for k, v in CAUSES.items()}

    def card(self, c: int) -> str:
        return self.names[c] if 0 <= c < len(self.names) else "nothing"

    def seat(self, p: int) -> str:
        return f"Player {p + 1}"

    def is_card(self, c: int) -> bool:
        return 0 <= c < len(self.names)


def _deal(t, a, b, c, d):
    cons = [t.card(x) for x in (b, c) if x >= 0]
    return f"{t.seat(a)} shuffles their company" + (f" with consultant(s) {', '.join(cons)}" if cons else "") + "."


def _play(t, a, b, c, d):
    tgt = f" against {t.seat(c)}" if t.is_card(b) and t.targeted[b] else ""
    extra = f", naming {t.card(d)}" if t.is_card(d) else ""
    return f"{t.seat(a)} plays {t.card(b)}{tgt}{extra}."


def _pass(t, a, b, c, d):
    among = "" if d == 0 else f", a {t.boss} among them" if d == 1 else f", {d} {t.boss}es among them"
    return f"{t.seat(a)} passes {c} card(s) to partner {t.seat(b)}{among}."


def _game_over(t, a, b, c, d):
    r = REASONS[b] if 0 <= b < len(REASONS) else str(b)
    out = []
    if b == constants.END.teams_deadlock:
        out.append(f"Every player who can still play is on one team, and no opposing {t.boss} is in a hand "
                   f"or a deck: that team cannot fire it, the other team cannot play.")
    elif b == constants.END.no_progress:
        out.append(f"{t.params['no_progress_turns']} turns in a row without more cards in the "
                   f"unemployment lines than ever before, a player out or a failed attempt on a {t.boss}.")
    if a < 0:
        out.append(f"Game over ({r}): nobody wins.")
    elif c == 1:
        out.append(f"Game over ({r}): team {a + 1} (players {a + 1} and {a + 3}) wins.")
    else:
        out.append(f"Game over ({r}): {t.seat(a)} wins.")
    return out


EVENTS = (
    Event(constants.EV_DEAL, "deal", _deal),
    Event(constants.EV_REMOVED, "consultant_removed",
          lambda t, a, b, c, d: f"Consultant {t.card(a)} is removed from the game unseen."),
    Event(constants.EV_BOSS_REVEAL, "boss_reveal",
          lambda t, a, b, c, d: f"{t.seat(a)} reveals their {t.boss}, draws another card and shuffles the {t.boss} "
                                f"back into their deck."),
    Event(constants.EV_TURN, "turn", lambda t, a, b, c, d: f"-- Turn {b}: {t.seat(a)}."),
    Event(constants.EV_DRAW, "draw", lambda t, a, b, c, d: f"{t.seat(a)} draws {t.card(b)}."),
    Event(constants.EV_PLAY, "play", _play),
    Event(constants.EV_PLAY_PLAIN, "play_plain",
          lambda t, a, b, c, d: f"{t.seat(a)} puts {t.card(b)} in the break room without its effect."),
    Event(constants.EV_HIT, "guess_hit",
          lambda t, a, b, c, d: f"{t.card(c)} is in {t.seat(b)}'s hand: fired to the unemployment line."),
    Event(constants.EV_MISS, "guess_miss", lambda t, a, b, c, d: f"{t.seat(b)} has no {t.card(c)} in hand."),
    Event(constants.EV_REVEAL, "hand_shown",
          lambda t, a, b, c, d: f"{t.seat(b)} shows their hand ({c} cards) to {t.seat(a)} only."),
    Event(constants.EV_CANCEL, "cancel",
          lambda t, a, b, c, d: f"{t.seat(a)} reacts with {t.card(b)}: {t.seat(c)}'s card is cancelled."),
    Event(constants.EV_REDIRECT, "redirect",
          lambda t, a, b, c, d: f"{t.seat(a)} reacts: {t.card(b)} is fired instead of {t.card(c)}."),
    Event(constants.EV_FAILED_FIRING, "failed_firing",
          lambda t, a, b, c, d: f"The attempt to fire {t.seat(a)}'s {t.boss} failed: {t.seat(a)} shuffles hand, "
                                f"break room and deck and draws a new hand."),
    Event(constants.EV_BREAK_RESHUFFLE, "break_room_reshuffle",
          lambda t, a, b, c, d: f"{t.seat(a)} shuffles their break room ({b} cards) into their deck."),
    Event(constants.EV_REVIVE, "revive",
          lambda t, a, b, c, d: f"{t.seat(a)} brings {t.card(b)} back from the unemployment line."),
    Event(constants.EV_DISCARD, "discard", lambda t, a, b, c, d: f"{t.seat(a)} puts {t.card(b)} in the break room."),
    Event(constants.EV_SWAP, "swap",
          lambda t, a, b, c, d: f"{t.seat(a)} swaps {t.card(b)} from hand for {t.card(c)} from the break room."),
    Event(constants.EV_PEEK, "peek",
          lambda t, a, b, c, d: f"{t.seat(a)} looks at the top {c} cards of {t.seat(b)}'s deck."),
    Event(constants.EV_BOSS_FIRED, "boss_fired",
          lambda t, a, b, c, d: f"{t.seat(a)}'s {t.boss} is fired by {t.seat(b)}!"),
    Event(constants.EV_BOSS_PLAY_WIN, "boss_play_won", lambda t, a, b, c, d: f"{t.seat(a)}'s {t.boss} play succeeded."),
    Event(constants.EV_BOSS_BACK, "boss_back",
          lambda t, a, b, c, d: f"{t.seat(a)} shuffles their {t.boss} back into their deck." if b == constants.BOSS_TO_DECK
          else f"{t.seat(a)} takes their {t.boss} back into their hand."),
    Event(constants.EV_ELIMINATED, "eliminated",
          lambda t, a, b, c, d: f"{t.seat(a)} has lost their {t.boss} ({t.causes.get(b, '?')}) and plays on for the team."
          if c == 1 else f"{t.seat(a)} is out ({t.causes.get(b, '?')})."),
    Event(constants.EV_RESHUFFLE_ALL, "reshuffle_all",
          lambda t, a, b, c, d: "Everyone left shuffles hand, deck and break room and draws a new hand."),
    Event(constants.EV_PASS, "pass_to_partner", _pass),
    Event(constants.EV_SKIP, "no_cards", lambda t, a, b, c, d: f"{t.seat(a)} has no cards and cannot play."),
    Event(constants.EV_FIRE_BREAK, "fired_from_break_room",
          lambda t, a, b, c, d: f"{t.card(c)} is fired from {t.seat(b)}'s break room."),
    Event(constants.EV_FIRE_SELF, "fire_own", lambda t, a, b, c, d: f"{t.seat(a)} fires their {t.card(b)}."),
    Event(constants.EV_GAME_OVER, "game_over", _game_over),
)

decode_trace = Decoder(EVENTS, Names)
