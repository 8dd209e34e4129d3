"""`value`, the search's judge of a solo state (fitted on greedy play: tests/fit_solo_value.py)."""
import numpy as np

from balance.simcore.sickdays_solo import constants, greedy_scores, rules
from balance.simcore.sickdays_solo import policies
from sickdays_solo.helpers import card, empty_hand, fill, fresh, put, tables_for

T5 = tables_for(level=5, removed_cards=0)  # 10 workers, 8 weeks, no automa; every card at hand


def others(exclude=(0,)):
    return [c for c in range(constants.NWORK) if c // 7 not in exclude][::-1]


def test_a_win_is_one_and_a_loss_is_below_a_live_game():
    s, _ = fresh(T5)
    live = policies.value(T5, s, 0)
    assert 0.02 < live < 1.0
    s[constants.H_OVER] = constants.END.all_happy
    assert policies.value(T5, s, 0) == 1.0
    s[constants.H_OVER] = constants.END.no_action
    assert 0.0 <= policies.value(T5, s, 0) <= 0.02 < live


def test_two_cards_on_a_line_are_worth_more_than_two_workers_with_one():
    """The same cards spent (the hand put back in the deck first): worker 0 with two on a week
    that can still be finished, against workers 0 and 1 with one each (the old value, a count of
    progress, scored them alike)."""
    vs = []
    for second in (card(0, 2), card(1, 2)):
        s, _ = fresh(T5)
        empty_hand(s, 0)
        assert policies.viable_best(s, 0) == 0
        put(s, card(0, 1), 0)  # Monday, week 1
        put(s, second, 1)  # Tuesday, week 1
        vs.append(policies.value(T5, s, 0))
    assert policies.viable_best(s, 0) == 1 and policies.viable_best(s, 1) == 1
    assert vs[0] > vs[1]


def test_a_worker_no_line_can_make_happy_is_a_loss():
    """Five of the seven days full of notes: no week and no diagonal has three open days, so no
    unhappy worker can be made happy and the game cannot be won: graded as a loss (the old value,
    progress only, did not move)."""
    s, _ = fresh(T5)
    v0 = policies.value(T5, s, 0)
    f = others(exclude=())
    for col in range(5):
        fill(s, col, s[constants.H_ROWS], f)
    assert all(policies.viable_best(s, w) == -1 for w in range(constants.NSUITS) if s[constants.O_HAPPY + w] == 0)
    assert policies.value(T5, s, 0) <= 0.02 < v0


def test_a_harder_level_lowers_the_same_state():
    t1, t4 = tables_for(level=1, removed_cards=0), tables_for(level=4, removed_cards=0)
    s, _ = fresh(t4)
    assert policies.value(t4, s, 0) < policies.value(t1, s, 0)
    assert np.isfinite(policies.value(t1, s, 0))


def _viable_best_reference(s, w):
    """viable_best as first written: every line in turn, its full open count from line_open."""
    rows = s[constants.H_ROWS]
    w2 = rows + constants.NCOL
    best = -1
    for kind in range(3):
        base = (rules.o_rowcnt(s), rules.o_d1(s), rules.o_d2(s))[kind] + w * (rows if kind == 0 else w2)
        for i in range(rows if kind == 0 else w2):
            k = s[base + i]
            if k <= best:
                continue
            r = i - 6 if kind == 1 else i
            n, _, _ = greedy_scores.line_open(s, w, kind, r, 0, -1)
            if k + rules.wild_on_line(s, w, kind, r, 0) + n >= 3:
                best = k
    return min(best, 2)


def test_viable_best_equals_trying_every_line():
    """The fast viable_best (lines tried from two cards down, open cells counted from a mask) gives
    the reference's answer for every unhappy worker of states reached by greedy and random play,
    with events (wilds, the Birthday cell) and the automa."""
    from balance.simcore import rng as R
    from balance.simcore.batch import resolve_policy
    from balance.simcore.sickdays_solo import SPEC
    from balance.simcore.trace import no_trace

    params = np.array(resolve_policy(SPEC, "greedy").params)
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    checked = 0
    for level, events in ((1, 7), (4, 0), (8, 7), (11, 3)):
        t = tables_for(level=level, events=events)
        for game in range(6):
            rng = R.new_streams(500 + level, game)
            s = rules.new_game(t, np.int64(1), rng, no_trace())
            while rules.to_move(s) >= 0:
                for w in range(constants.NSUITS):
                    if s[constants.O_HAPPY + w] == 0:
                        assert policies.viable_best(s, w) == _viable_best_reference(s, w)
                        checked += 1
                n = rules.legal(t, s, out)
                j = policies.greedy(t, s, 0, out, n, params, rng) if game % 2 == 0 else R.randint(rng, R.POLICY, n)
                rules.step(t, s, out[j], rng, no_trace())
    assert checked > 2000
