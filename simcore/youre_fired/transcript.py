"""Turn a game's event trace into rulebook-worded lines (`balance replay`).

Card names and which cards target someone come from the run's GameData (its
own card list, `--set cards=FILE` included): nothing here reads a file.
"""
from __future__ import annotations

from . import constants as K

CAUSES = {K.CAUSE_FIRED: "{boss} fired", K.CAUSE_FORCED: "{boss} forced out", K.CAUSE_BLUFF: "failed bluff"}


def decode_trace(events, data, n_players: int) -> list[str]:
    """`data`: the GameData the game was played with (simcore.gamedata)."""
    names = list(data.card_names)
    targeted = list(data.info["targeted"])
    C = len(names)
    boss = names[list(data.info["effects"]).index("boss")]  # the card the Boss rules are about, by its name
    causes = {k: v.format(boss=boss) for k, v in CAUSES.items()}

    def card(c: int) -> str:
        return names[c] if 0 <= c < C else "nothing"

    def seat(p: int) -> str:
        return f"Player {p + 1}"

    reasons = ("cap", "no_move") + K.END_REASONS
    out: list[str] = []
    for code, a, b, c, d in (tuple(int(v) for v in row) for row in events):
        if code == K.EV_DEAL:
            cons = [card(x) for x in (b, c) if x >= 0]
            out.append(f"{seat(a)} shuffles their company" + (f" with consultant(s) {', '.join(cons)}" if cons else "") + ".")
        elif code == K.EV_REMOVED:
            out.append(f"Consultant {card(a)} is removed from the game unseen.")
        elif code == K.EV_BOSS_REVEAL:
            out.append(f"{seat(a)} reveals their {boss}, draws another card and shuffles the {boss} back into their deck.")
        elif code == K.EV_TURN:
            out.append(f"-- Turn {b}: {seat(a)}.")
        elif code == K.EV_DRAW:
            out.append(f"{seat(a)} draws {card(b)}.")
        elif code == K.EV_PLAY:
            tgt = f" against {seat(c)}" if 0 <= b < C and targeted[b] else ""
            extra = f", naming {card(d)}" if 0 <= d < C else ""
            out.append(f"{seat(a)} plays {card(b)}{tgt}{extra}.")
        elif code == K.EV_PLAY_PLAIN:
            out.append(f"{seat(a)} puts {card(b)} in the break room without its effect.")
        elif code == K.EV_HIT:
            out.append(f"{card(c)} is in {seat(b)}'s hand: fired to the unemployment line.")
        elif code == K.EV_MISS:
            out.append(f"{seat(b)} has no {card(c)} in hand.")
        elif code == K.EV_REVEAL:
            out.append(f"{seat(b)} shows their hand ({c} cards) to {seat(a)} only.")
        elif code == K.EV_CANCEL:
            out.append(f"{seat(a)} reacts with {card(b)}: {seat(c)}'s card is cancelled.")
        elif code == K.EV_REDIRECT:
            out.append(f"{seat(a)} reacts: {card(b)} is fired instead of {card(c)}.")
        elif code == K.EV_FAILED_FIRING:
            out.append(f"The attempt to fire {seat(a)}'s {boss} failed: {seat(a)} shuffles hand, break room and deck and draws a new hand.")
        elif code == K.EV_BREAK_RESHUFFLE:
            out.append(f"{seat(a)} shuffles their break room ({b} cards) into their deck.")
        elif code == K.EV_REVIVE:
            out.append(f"{seat(a)} brings {card(b)} back from the unemployment line.")
        elif code == K.EV_DISCARD:
            out.append(f"{seat(a)} puts {card(b)} in the break room.")
        elif code == K.EV_SWAP:
            out.append(f"{seat(a)} swaps {card(b)} from hand for {card(c)} from the break room.")
        elif code == K.EV_PEEK:
            out.append(f"{seat(a)} looks at the top {c} cards of {seat(b)}'s deck.")
        elif code == K.EV_BOSS_FIRED:
            out.append(f"{seat(a)}'s {boss} is fired by {seat(b)}!")
        elif code == K.EV_BOSS_PLAY_WIN:
            out.append(f"{seat(a)}'s {boss} play succeeded.")
        elif code == K.EV_BOSS_BACK:
            out.append(f"{seat(a)} shuffles their {boss} back into their deck." if b == K.BOSS_TO_DECK
                       else f"{seat(a)} takes their {boss} back into their hand.")
        elif code == K.EV_ELIMINATED:
            if c == 1:
                out.append(f"{seat(a)} has lost their {boss} ({causes.get(b, '?')}) and plays on for the team.")
            else:
                out.append(f"{seat(a)} is out ({causes.get(b, '?')}).")
        elif code == K.EV_RESHUFFLE_ALL:
            out.append("Everyone left shuffles hand, deck and break room and draws a new hand.")
        elif code == K.EV_PASS:
            among = "" if d == 0 else f", a {boss} among them" if d == 1 else f", {d} {boss}es among them"
            out.append(f"{seat(a)} passes {c} card(s) to partner {seat(b)}{among}.")
        elif code == K.EV_SKIP:
            out.append(f"{seat(a)} has no cards and cannot play.")
        elif code == K.EV_FIRE_BREAK:
            out.append(f"{card(c)} is fired from {seat(b)}'s break room.")
        elif code == K.EV_FIRE_SELF:
            out.append(f"{seat(a)} fires their {card(b)}.")
        elif code == K.EV_GAME_OVER:
            r = reasons[b] if 0 <= b < len(reasons) else str(b)
            if b == K.END_DEADLOCK:
                out.append(f"Every player who can still play is on one team, and no opposing {boss} is in a hand "
                           f"or a deck: that team cannot fire it, the other team cannot play.")
            elif b == K.END_NO_PROGRESS:
                out.append(f"{data.params['no_progress_turns']} turns in a row without more cards in the "
                           f"unemployment lines than ever before, a player out or a failed attempt on a {boss}.")
            if a < 0:
                out.append(f"Game over ({r}): nobody wins.")
            elif c == 1:
                out.append(f"Game over ({r}): team {a + 1} (players {a + 1} and {a + 3}) wins.")
            else:
                out.append(f"Game over ({r}): {seat(a)} wins.")
        elif code == -2:
            out.append("The turn cap ends the game.")
        else:
            out.append(f"(event {code} {a} {b} {c} {d})")
    return out
