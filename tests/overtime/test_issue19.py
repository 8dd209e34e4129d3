"""Issue 19's Overtime items, each played from a constructed state (each fails on
rule version 1, the reading before the fix)."""
import numpy as np
import pytest

from balance.simcore.overtime.cards import CARDS_FILE, load_data
from balance.simcore.trace import events

from .helpers import (constants, DATA, assignment, fresh, give, kind, new_trace, opt, options, play, slot, to_discard,
                      to_move)

LGR = "Lead Generation Report"
UXS = "User Experience Survey"
PCB = "Project Cost Breakdown"
QR = "The Quarterly Report"
MSF = "Monthly Sales Forecast"


def pass_reactions(s, rng, data=DATA):
    """Every seat offered a reaction passes (until a decision other than a reaction is due)."""
    while s.g[constants.G_PHASE] == constants.PH_REACT:
        play(s, rng, opt(constants.O_END), data=data)


def reacted(card, reaction, lgr_tasks=None, data=DATA):
    """A new game where P1 plays `card` on their Lead Generation Report (with `lgr_tasks` tasks on it, where
    given) and P2 reacts with `reaction`. Returns the state, its streams and that A card."""
    s, rng = fresh(data=data)
    give(s, 0, card, data)
    give(s, 1, reaction, data)
    lgr = assignment(s, 0, LGR, data)
    if lgr_tasks is not None:
        s.tasks[lgr] = lgr_tasks
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, card, data), lgr), data=data)
    play(s, rng, opt(constants.O_REACT, slot(s, 1, reaction, data), 0), data=data)
    return s, rng, lgr


# ---------------------------------------------------------------- (b) a card's skip at 10+
def test_a_card_imposed_skip_at_10_or_more_discards_the_snooze():
    """"If a player starts their turn ... has more Snooze tokens then permitted by the last
    level of the Tiredness track, they must immediately skip the remainder of their turn and
    discard all of their Snooze tokens." A Surprise Inspection's skip at 12 Snooze: one turn
    lost, and the Snooze go (version 1 kept them, and the player lost the next turn too)."""
    s, rng = fresh()
    s.ps[1, constants.P_SNOOZE] = 12
    s.ps[1, constants.P_SKIP_NEXT] = 1
    trace = new_trace()
    play(s, rng, opt(constants.O_END), trace)  # P1 ends the Action phase; P2's turn begins
    # P3 and P4 hold nothing to play: round 2 begins with the Time card's snooze
    assert s.g[constants.G_ROUND] == 2 and to_move(s) == 0
    assert s.ps[1, constants.P_SNOOZE] == DATA.tables[0][constants.R_TIME0 + 1]  # 0 + the Time card (version 1: 12 + it)
    assert s.ps[1, constants.P_SKIPPED] == 1 and s.ps[1, constants.P_EXHAUSTED] == 1
    assert s.ps[1, constants.P_HAND_N] == 2  # "Skip your turn": draws two cards, once
    ev = events(trace)
    assert [tuple(r[1:3]) for r in ev if r[0] == constants.EV_EXHAUST] == [(1, 12)]
    assert [r[1] for r in ev if r[0] == constants.EV_SKIP] == [1]


def test_a_skip_below_10_keeps_the_snooze():
    s, rng = fresh()
    s.ps[1, constants.P_SNOOZE] = 9
    s.ps[1, constants.P_SKIP_NEXT] = 1
    play(s, rng, opt(constants.O_END))
    assert s.ps[1, constants.P_SNOOZE] == 9 + DATA.tables[0][constants.R_TIME0 + 1]
    assert s.ps[1, constants.P_EXHAUSTED] == 0 and s.ps[1, constants.P_SKIPPED] == 1


# ---------------------------------------------------------------- (c) Lost File
def test_lost_file_on_multitasking_also_removes_its_task_token():
    """"If any effect removes or cancels a W card attached to an Assignment before it is
    complete, all the Tasks gained with that W card are also lost": Multitasking's Task
    token on another A card goes with it."""
    s, rng = fresh()
    give(s, 0, "Multitasking")
    give(s, 0, "Busy Work")
    give(s, 1, "Lost File")
    lgr, uxs, pcb = assignment(s, 0, LGR), assignment(s, 0, UXS), assignment(s, 0, PCB)
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "Multitasking"), lgr))
    pass_reactions(s, rng)
    assert s.tasks[lgr] == 1 and s.tasks[uxs] == 1  # 1 task, and the token on the A card nearest completion
    trace = new_trace()
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "Busy Work"), pcb), trace)
    assert to_move(s) == 1
    play(s, rng, opt(constants.O_REACT, slot(s, 1, "Lost File"), 0), trace)
    assert s.tasks[lgr] == 0 and s.tasks[uxs] == 0  # the token is lost too (version 1 left it)
    assert s.tasks[pcb] == 1  # the lead's own work
    assert constants.EV_TOKENS_LOST in events(trace)[:, 0]


def test_lost_file_does_not_discard_an_attached_copy():
    """Lost File: "discard a W card attached". I'll Just Copy That! copying a W card is
    attached to its A card but "its card type doesn't change": an S card, not a W card."""
    s, rng = fresh()
    give(s, 0, "A Hard Day's Night")
    give(s, 1, "I'll Just Copy That!")
    give(s, 1, "Busy Work")
    give(s, 2, "Lost File")
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "A Hard Day's Night"), assignment(s, 0, LGR)))
    play(s, rng, opt(constants.O_REACT, slot(s, 1, "I'll Just Copy That!"), 0))
    # the copied work goes on one of P2's A cards: P2's decision
    assert s.g[constants.G_PHASE] == constants.PH_CHOOSE and to_move(s) == 1
    p2_lgr = assignment(s, 1, LGR)
    assert set(options(s)) == {opt(constants.O_CHOOSE, 0, a) for a in range(len(s.zone))
                               if s.zone[a] == constants.Z_ASSIGN and s.owner[a] == 1}
    play(s, rng, opt(constants.O_CHOOSE, 0, p2_lgr))
    pass_reactions(s, rng)
    copy = next(c for c in range(len(s.zone)) if s.zone[c] == constants.Z_ATTACHED and s.owner[c] == 1)
    assert DATA.tables[3][copy] == kind("I'll Just Copy That!") and s.tasks[p2_lgr] == 2
    # P2's next turn: a W card; P3's Lost File finds no W card attached to P2's A cards
    s.g[constants.G_CUR] = 1
    s.g[constants.G_ACTIONS_USED] = 0
    play(s, rng, opt(constants.O_PLAY, slot(s, 1, "Busy Work"), assignment(s, 1, UXS)))
    assert to_move(s) == 2
    play(s, rng, opt(constants.O_REACT, slot(s, 2, "Lost File"), 0))
    assert s.zone[copy] == constants.Z_ATTACHED and s.tasks[p2_lgr] == 2


# ---------------------------------------------------------------- (d) once per round, per card
def test_each_employee_card_has_its_own_once_per_round_ability():
    """After Average Joe's ability, a freshly played Workaholic's is offered the same round
    (version 1 kept one counter per player); the same card's is not offered twice."""
    s, rng = fresh()
    to_discard(s, "Coffee Break")
    to_discard(s, "Busy Work")
    to_discard(s, "Steady Progress")
    give(s, 0, "The Workaholic")
    play(s, rng, opt(constants.O_ABILITY, 0, kind("Coffee Break")))  # Joe: take any card
    assert not any(o >> 24 == constants.O_ABILITY for o in options(s))  # Joe's use is spent
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "The Workaholic"), 0))
    pass_reactions(s, rng)
    assert DATA.tables[3][s.ps[0, constants.P_EMP]] == kind("The Workaholic")
    abil = [o for o in options(s) if o >> 24 == constants.O_ABILITY]
    assert abil == [opt(constants.O_ABILITY, 0, kind("Busy Work")), opt(constants.O_ABILITY, 0, kind("Steady Progress"))]
    play(s, rng, abil[0])
    assert not any(o >> 24 == constants.O_ABILITY for o in options(s))  # once per round for this card


# ---------------------------------------------------------------- (e) discarded, not completed
def _designer_list(tmp_path, extra: str):
    path = tmp_path / "cards.toml"
    path.write_text(CARDS_FILE.read_text() + extra)
    return load_data({"cards": str(path)})


SHREDDER = '''
[[card]]
name = "Shredder"
type = "R"
count = 1
effects = [{ op = "discard_assignment" }]
text = "Discard one of your A cards."
'''


def test_discard_assignment_is_not_a_completion(tmp_path):
    """"an A card that is discarded by any other effect is not considered complete and
    cannot be affected by those S and B cards. It just goes away!" The new opcode
    discard_assignment: the player chooses which A card; no reaction to a completion."""
    data = _designer_list(tmp_path, SHREDDER)
    s, rng = fresh(data=data)
    give(s, 0, "Shredder", data)
    give(s, 1, "Work Is Its Own Reward", data)
    qr = assignment(s, 0, QR, data)
    trace = new_trace()
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "Shredder", data), 0), trace, data=data)
    assert s.g[constants.G_PHASE] == constants.PH_CHOOSE and to_move(s) == 0
    play(s, rng, opt(constants.O_CHOOSE, 0, qr), trace, data=data)
    pass_reactions(s, rng, data)
    assert s.zone[qr] == constants.Z_OUT and s.ps[0, constants.P_N_ASSIGN] == 4
    assert s.ps[0, constants.P_DISCARDED] == 1 and s.ps[0, constants.P_COMPLETED] == 0 and s.g[constants.G_DISCARDS] == 1
    codes = events(trace)[:, 0]
    assert constants.EV_A_DISCARD in codes and constants.EV_EVENT not in codes and constants.EV_COMPLETE not in codes
    assert s.ps[1, constants.P_HAND_N] == 1  # Work Is Its Own Reward had nothing to react to


def test_discarding_the_last_assignment_wins(tmp_path):
    """"The game ends at the end of the turn in which any player completes, discards or
    gives away their last A card"."""
    data = _designer_list(tmp_path, SHREDDER)
    s, rng = fresh(data=data)
    for name in (LGR, PCB, QR, MSF):
        a = assignment(s, 0, name, data)
        s.zone[a] = constants.Z_OUT
        s.owner[a] = -1
        s.ps[0, constants.P_COMPLETED] += 1
        s.g[constants.G_COMPLETIONS] += 1
    s.ps[0, constants.P_N_ASSIGN] = 1
    give(s, 0, "Shredder", data)
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "Shredder", data), 0), data=data)  # one A card: no choice
    pass_reactions(s, rng, data)
    while to_move(s) == 0:
        play(s, rng, opt(constants.O_END), data=data)
    assert s.g[constants.G_END] == constants.END.assignments_done and s.ps[0, constants.P_WON] == 1


def test_discard_assignment_refuses_fields_it_does_not_use(tmp_path):
    from balance.simcore.errors import BalanceError

    with pytest.raises(BalanceError) as e:
        _designer_list(tmp_path, SHREDDER.replace('op = "discard_assignment"', 'op = "discard_assignment", n = 1'))
    assert "Shredder" in str(e.value) and "effects[0].n" in str(e.value) and "for 'discard_assignment': op, who" \
        in str(e.value)


# ---------------------------------------------------------------- (f) Trade Secrets and choices
def test_trade_secrets_gives_and_takes_the_a_cards_its_player_chooses():
    """Trade Secrets: "swap one of your A cards for one of theirs": which two is the
    reacting seat's decision (version 1: a fixed rule, which took the A card being worked on)."""
    s, rng, lgr = reacted("A Hard Day's Night", "Trade Secrets", lgr_tasks=1)
    mine = {a for a in range(len(s.zone)) if s.zone[a] == constants.Z_ASSIGN and s.owner[a] == 1}
    theirs = {a for a in range(len(s.zone)) if s.zone[a] == constants.Z_ASSIGN and s.owner[a] == 0}
    assert s.g[constants.G_PHASE] == constants.PH_CHOOSE and to_move(s) == 1
    assert set(options(s)) == {opt(constants.O_CHOOSE, 0, a) for a in mine}  # first: which of mine to give
    p2_qr = assignment(s, 1, QR)
    play(s, rng, opt(constants.O_CHOOSE, 0, p2_qr))
    assert s.g[constants.G_PHASE] == constants.PH_CHOOSE and set(options(s)) == {opt(constants.O_CHOOSE, 0, a) for a in theirs}
    uxs = assignment(s, 0, UXS)
    play(s, rng, opt(constants.O_CHOOSE, 0, uxs))
    pass_reactions(s, rng)
    assert s.owner[p2_qr] == 0 and s.owner[uxs] == 1
    assert s.zone[lgr] == constants.Z_OUT and s.ps[0, constants.P_COMPLETED] == 1  # the lead completed P1's own A card


@pytest.mark.parametrize("keeps", [True, False])
def test_moved_assignment_keeps_work(keeps):
    """A W card whose A card is taken before it resolves: `moved_assignment_keeps_work`
    (default true) puts it on that A card, now the taker's; false: on its player's own."""
    data = load_data({"moved_assignment_keeps_work": keeps})
    s, rng, lgr = reacted("A Hard Day's Night", "Trade Secrets", lgr_tasks=1, data=data)
    uxs = assignment(s, 0, UXS, data)
    play(s, rng, opt(constants.O_CHOOSE, 0, assignment(s, 1, QR, data)), data=data)
    play(s, rng, opt(constants.O_CHOOSE, 0, lgr), data=data)  # take the A card being worked on
    pass_reactions(s, rng, data)
    if keeps:
        assert s.zone[lgr] == constants.Z_OUT and s.ps[1, constants.P_COMPLETED] == 1 and s.ps[0, constants.P_COMPLETED] == 0
    else:
        assert s.owner[lgr] == 1 and s.tasks[lgr] == 1 and s.ps[1, constants.P_COMPLETED] == 0
        # P1's A card nearest completion (User Experience Survey, 2 tasks): completed
        assert s.zone[uxs] == constants.Z_OUT and s.ps[0, constants.P_COMPLETED] == 1


def test_reaction_work_goes_on_the_a_card_its_player_chooses():
    """"Quick" Data Check's task: on the A card the reacting seat chooses."""
    s, rng, _ = reacted("Busy Work", "\"Quick\" Data Check")
    qr = assignment(s, 1, QR)  # not the one nearest completion
    play(s, rng, opt(constants.O_CHOOSE, 0, qr))
    pass_reactions(s, rng)
    assert s.tasks[qr] == 1 and s.tasks[assignment(s, 1, UXS)] == 0


def test_greedy_chooses_as_the_old_fixed_rules():
    """Greedy's choices: give the A card with the most tasks left, take the one with the fewest."""
    from balance.simcore import rng as R
    from balance.simcore.overtime.policies import GREEDY_PARAMS, greedy

    s, rng, _ = reacted("A Hard Day's Night", "Trade Secrets")
    params = np.zeros(4 + len(GREEDY_PARAMS) + 8)
    for p in GREEDY_PARAMS:
        params[p.slot] = p.default
    opts = np.array(options(s), np.int64)
    pick = greedy(DATA.tables, s, 1, opts, len(opts), params, R.new_streams(1, 0))
    assert opts[pick] & 0xFFF == assignment(s, 1, QR)  # 4 tasks left: the most
    play(s, rng, int(opts[pick]))
    opts = np.array(options(s), np.int64)
    pick = greedy(DATA.tables, s, 1, opts, len(opts), params, R.new_streams(1, 0))
    assert opts[pick] & 0xFFF == assignment(s, 0, UXS)  # 2 tasks left: the fewest


# ---------------------------------------------------------------- transcripts with a designer's list
def test_the_transcript_prints_the_runs_own_card_names(tmp_path):
    """Issue 19, "Transcripts with a designer's card list": the names (and the A card a W card
    goes on) come from the run's GameData, not from the shipped file."""
    from .helpers import lines

    path = tmp_path / "renamed.toml"
    path.write_text(CARDS_FILE.read_text().replace('name = "Busy Work"', 'name = "Busywork Deluxe"')
                    .replace('name = "Lead Generation Report"', 'name = "Lead Gen"'))
    data = load_data({"cards": str(path)})
    s, rng = fresh(data=data)
    give(s, 0, "Busywork Deluxe", data)
    trace = new_trace()
    play(s, rng, opt(constants.O_PLAY, slot(s, 0, "Busywork Deluxe", data), assignment(s, 0, "Lead Gen", data)), trace,
         data=data)
    text = "\n".join(lines(trace, data))
    assert "P1 plays Busywork Deluxe on Lead Gen." in text and "Busy Work" not in text
