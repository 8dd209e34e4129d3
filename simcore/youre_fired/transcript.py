"""Turn a game's event trace into rulebook-worded lines (`balance replay`): each
event declared once (simcore.transcript).

Card names and which cards target someone come from the run's GameData (its
own card list, `--set cards=FILE` included): nothing here reads a file.
"""
from __future__ import annotations

from balance.simcore.transcript import Decoder, Event, Wording

from . import constants

CAUSES = {constants.CAUSE_FIRED: "{boss} fired", constants.CAUSE_FORCED: "{boss} forced out", constants.CAUSE_BLUFF: "failed bluff"}
REASONS = constants.END._fields  # each code's name (the runner's cap and no_move first)


class Names(Wording):
    """`data`: the GameData the game was played with (simcore.gamedata)."""

    def __init__(self, data, n_players: int):
        super().__init__(data, n_players)
        self.boss = self.names[list(data.info["effects"]).index("boss")]  # the card the Boss rules are about
        self.causes = {k: v.format(boss=self.boss) for k, v in CAUSES.items()}

    def card(self, c: int) -> str:
        return self.names[c] if 0 <= c < len(self.names) else "nothing"

    def is_card(self, c: int) -> bool:
        return 0 <= c < len(self.names)


def _deal(t, a, b, c, d):
    cons = [t.card(x) for x in (b, c) if x >= 0]
    return f"{t.seat(a)} shuffles their company" + (f" with consultant(s) {', '.join(cons)}" if cons else "") + "."


def _play(t, a, b, c, d):
    tgt = f" against {t.seat(c)}" if t.is_card(b) and t.info['targeted'][b] else ""
    extra = f", naming {t.card(d)}" if t.is_card(d) else ""
    return f"{t.seat(a)} plays {t.card(b)}{tgt}{extra}."


def _pass(t, a, b, c, d):
    among = "" if d == 0 else f", a {t.boss} among them" if d == 1 else f", {d} {t.boss}es among them"
    return f"{t.seat(a)} passes {c} card(s) to partner {t.seat(b)}{among}."


def _boss_back(t, a, b, c, d):
    if b == constants.BOSS_TO_DECK:
        return f"{t.seat(a)} shuffles their {t.boss} back into their deck."
    return f"{t.seat(a)} takes their {t.boss} back into their hand."


def _eliminated(t, a, b, c, d):
    if c == 1:
        return f"{t.seat(a)} has lost their {t.boss} ({t.causes.get(b, '?')}) and plays on for the team."
    return f"{t.seat(a)} is out ({t.causes.get(b, '?')})."


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
    Event(constants.EV_REMOVED, "consultant_removed", "Consultant {a:card} is removed from the game unseen."),
    Event(constants.EV_BOSS_REVEAL, "boss_reveal",
          "{a:seat} reveals their {t.boss}, draws another card and shuffles the {t.boss} back into their deck."),
    Event(constants.EV_TURN, "turn", "-- Turn {b}: {a:seat}."),
    Event(constants.EV_DRAW, "draw", "{a:seat} draws {b:card}."),
    Event(constants.EV_PLAY, "play", _play),
    Event(constants.EV_PLAY_PLAIN, "play_plain", "{a:seat} puts {b:card} in the break room without its effect."),
    Event(constants.EV_HIT, "guess_hit", "{c:card} is in {b:seat}'s hand: fired to the unemployment line."),
    Event(constants.EV_MISS, "guess_miss", "{b:seat} has no {c:card} in hand."),
    Event(constants.EV_REVEAL, "hand_shown", "{b:seat} shows their hand ({c} cards) to {a:seat} only."),
    Event(constants.EV_CANCEL, "cancel", "{a:seat} reacts with {b:card}: {c:seat}'s card is cancelled."),
    Event(constants.EV_REDIRECT, "redirect", "{a:seat} reacts: {b:card} is fired instead of {c:card}."),
    Event(constants.EV_FAILED_FIRING, "failed_firing",
          "The attempt to fire {a:seat}'s {t.boss} failed: {a:seat} shuffles hand, break room and deck "
          "and draws a new hand."),
    Event(constants.EV_BREAK_RESHUFFLE, "break_room_reshuffle",
          "{a:seat} shuffles their break room ({b} cards) into their deck."),
    Event(constants.EV_REVIVE, "revive", "{a:seat} brings {b:card} back from the unemployment line."),
    Event(constants.EV_DISCARD, "discard", "{a:seat} puts {b:card} in the break room."),
    Event(constants.EV_SWAP, "swap", "{a:seat} swaps {b:card} from hand for {c:card} from the break room."),
    Event(constants.EV_PEEK, "peek", "{a:seat} looks at the top {c} cards of {b:seat}'s deck."),
    Event(constants.EV_BOSS_FIRED, "boss_fired", "{a:seat}'s {t.boss} is fired by {b:seat}!"),
    Event(constants.EV_BOSS_PLAY_WIN, "boss_play_won", "{a:seat}'s {t.boss} play succeeded."),
    Event(constants.EV_BOSS_BACK, "boss_back", _boss_back),
    Event(constants.EV_ELIMINATED, "eliminated", _eliminated),
    Event(constants.EV_RESHUFFLE_ALL, "reshuffle_all",
          "Everyone left shuffles hand, deck and break room and draws a new hand."),
    Event(constants.EV_PASS, "pass_to_partner", _pass),
    Event(constants.EV_SKIP, "no_cards", "{a:seat} has no cards and cannot play."),
    Event(constants.EV_FIRE_BREAK, "fired_from_break_room", "{c:card} is fired from {b:seat}'s break room."),
    Event(constants.EV_FIRE_SELF, "fire_own", "{a:seat} fires their {b:card}."),
    Event(constants.EV_GAME_OVER, "game_over", _game_over),
)

decode_trace = Decoder(EVENTS, Names)
