"""Decode an Overtime event trace into rulebook-worded lines."""
from __future__ import annotations

from . import constants as C


CHOICE_WORDS = {C.OP_WORK: "to work on", C.OP_GIVE_ASSIGNMENT: "to give", C.OP_TAKE_ASSIGNMENT: "to take",
                C.OP_DISCARD_ASSIGNMENT: "to discard"}


def decode_trace(events, data, n_players: int) -> list[str]:
    """The events of one game in the rulebook's words, with the names and kinds
    of the run's own card list (`data`: its GameData)."""
    names = data.card_names
    kind_target = data.info["kind_target"]
    instance_kind = data.info["instance_kind"]

    def card(k):
        k = int(k)
        return names[k] if 0 <= k < len(names) else "?"

    def pl(p):
        return f"P{int(p) + 1}"

    out: list[str] = []
    for code, a, b, c, d in (tuple(int(x) for x in row) for row in events):
        if code == C.EV_SETUP:
            out.append(f"Setup: {a} players, {b} A cards each, {c} snooze each, {d} cards in the Main deck.")
        elif code == C.EV_ROUND:
            out.append(f"== Round {a}" + (f": the Time card gives every player {b} snooze." if b else "."))
        elif code == C.EV_TURN:
            out.append(f"-- {pl(a)}'s turn (round {b}), {c} snooze, tiredness level {d}.")
        elif code == C.EV_PLAY:
            extra = " (free: first action, an E card)" if d else ""
            tgt = ""
            if c >= 0:
                is_a = kind_target[b] == C.TG_ASSIGNMENT
                tgt = f" on {card(instance_kind[c])}" if is_a else f" targeting {pl(c)}"
            out.append(f"{pl(a)} plays {card(b)}{tgt}{extra}.")
        elif code == C.EV_DIE:
            out.append(f"{pl(a)} rolls the Work die for {card(b)}: {c} (needs {d}+)" + ("." if c >= d else ": canceled, it fails."))
        elif code == C.EV_REACT:
            what = card(c) if c >= 0 else "the completed A card"
            out.append(f"{pl(a)} reacts with {card(b)} to {what} (pile entry {d}).")
        elif code == C.EV_ABILITY:
            if d >= 0:
                out.append(f"{pl(a)} uses {card(b)}'s ability as a reaction on pile entry {d}.")
            else:
                out.append(f"{pl(a)} uses {card(b)}'s ability" + (f", taking {card(c)} from the discard pile." if c >= 0 else "."))
        elif code == C.EV_RESOLVE:
            out.append(f"  resolve {card(b)} ({pl(a)})" + (": canceled, discarded." if c else "."))
        elif code == C.EV_WORK:
            out.append(f"  {pl(a)} completes {c} task(s) on {card(b)} ({d} done).")
        elif code == C.EV_TOKENS:
            out.append(f"  {pl(a)} puts {c} task token(s) on {card(b)} ({d} done).")
        elif code == C.EV_COMPLETE:
            out.append(f"  {pl(a)} completes {card(b)}: discarded with its W cards ({c} A cards left).")
        elif code == C.EV_SNOOZE:
            out.append(f"  {pl(a)} {'gains' if b > 0 else 'removes'} {abs(b)} snooze ({c}).")
        elif code == C.EV_SNOOZE_DISCARD:
            out.append(f"  {pl(a)} discards all {b} snooze tokens.")
        elif code == C.EV_GIVE:
            out.append(f"  {pl(a)} gives {card(c)} ({d} tasks done) to {pl(b)}.")
        elif code == C.EV_NO_RECIPIENT:
            out.append(f"  {pl(a)} alone has the fewest A cards ({b}): no one to give one to.")
        elif code == C.EV_DRAW:
            out.append(f"  {pl(a)} draws {b} card(s) ({c} in hand).")
        elif code == C.EV_DISCARD:
            out.append(f"  {pl(a)} discards {card(b)}.")
        elif code == C.EV_EXHAUST:
            if c:
                out.append(f"  {pl(a)} is at {b} snooze (10+ level): discards all snooze (the turn is skipped once).")
            else:
                out.append(f"  {pl(a)} is at {b} snooze (10+ level): discards all snooze and skips the rest of the turn.")
        elif code == C.EV_SKIP:
            why = ("a card told them to", "exhaustion", "a card told them to")[b] if 0 <= b < 3 else "?"
            out.append(f"  {pl(a)} skips their turn ({why}) and draws {c}.")
        elif code == C.EV_SKIP_SET:
            out.append(f"  {pl(a)} must skip " + ("the rest of this turn." if b else "their next turn."))
        elif code == C.EV_EMPLOYEE:
            out.append(f"  {pl(a)} replaces {card(c)} with {card(b)}.")
        elif code == C.EV_RESHUFFLE:
            out.append(f"  The Main deck ran out: the discard pile is shuffled into a new deck ({a} cards).")
        elif code == C.EV_TAKE_DISCARD:
            out.append(f"  {pl(a)} takes {card(b)} from the discard pile.")
        elif code == C.EV_EVENT:
            out.append(f"  Players may react to {pl(a)} completing an A card.")
        elif code == C.EV_WORK_LOST:
            out.append(f"  {pl(a)}'s {card(b)} is discarded from {card(c)}: its {d} task(s) are lost.")
        elif code == C.EV_TOKENS_LOST:
            out.append(f"  the {d} Task token(s) {card(b)} put on {card(c)} are lost too.")
        elif code == C.EV_CHOOSE:
            what = CHOICE_WORDS.get(c, "for")
            out.append(f"  {pl(a)} chooses {card(b)} {what} ({card(d)}).")
        elif code == C.EV_A_DISCARD:
            out.append(f"  {pl(a)} discards {card(b)} without completing it ({c} A cards left).")
        elif code == C.EV_CANCEL:
            out.append(f"  {pl(a)} cancels {pl(c)}'s {card(b)}.")
        elif code == C.EV_END_ACTIONS:
            out.append(f"  {pl(a)} ends the Action phase after {b} action(s).")
        elif code == C.EV_END:
            if a == C.END_ASSIGNMENTS_DONE:
                who = ", ".join(pl(p) for p in range(n_players) if (b >> p) & 1)
                out.append(f"Game over in round {c} after {d} turns: {who} has no A card left and wins.")
            else:
                out.append(f"Game over: {c} rounds played, nobody finished their A cards; everybody loses.")
        elif code == -2:
            out.append("The turn cap ends the game.")
        else:
            out.append(f"(event {code} {a} {b} {c} {d})")
    return out
