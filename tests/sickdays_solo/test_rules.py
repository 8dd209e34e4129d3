"""Rulebook scenarios on constructed calendars."""
import numpy as np

from balance.simcore.sickdays_solo import constants, rules
from sickdays_solo.helpers import (
    card, check_zones, do, empty_hand, event, fill, fresh, give, op, options, put, tables_for, to_discard,
)

# level 5: 10 suits, 8 weeks, no automa; no removed cards so every card is at hand
T8 = tables_for(level=5, removed_cards=0)


def fillers(s, exclude_suits=(0, 1, 2)):
    """Cards of other suits to use as notes."""
    return [c for c in range(constants.NWORK) if c // 7 not in exclude_suits][::-1]


def test_row_three_not_adjacent_is_happy():
    s, rng = fresh(T8)
    put(s, card(0, 1), 0)  # Monday week 1
    put(s, card(0, 4), 3)  # Thursday week 1
    assert s[constants.O_HAPPY + 0] == 0
    empty_hand(s, 0)
    give(s, 0, card(0, 7))
    do(T8, s, op(constants.OP_PLAY, 0), rng)  # Sunday week 1
    assert s[constants.O_HAPPY + 0] == 1
    check_zones(s)


def test_diagonal_three_not_adjacent_is_happy():
    s, rng = fresh(T8)
    f = fillers(s)
    put(s, card(0, 1), 0)  # (0, 0)
    fill(s, 2, 2, f)
    put(s, card(0, 3), 2)  # (2, 2): r - c = 0
    fill(s, 5, 5, f)
    empty_hand(s, 0)
    give(s, 0, card(0, 6))
    assert s[constants.O_HAPPY + 0] == 0
    do(T8, s, op(constants.OP_PLAY, 0), rng)  # (5, 5)
    assert s[constants.O_HAPPY + 0] == 1
    check_zones(s)


def test_anti_diagonal_three_is_happy_and_bent_line_is_not():
    s, rng = fresh(T8)
    f = fillers(s)
    fill(s, 0, 4, f)
    put(s, card(1, 1), 0)  # (4, 0): r + c = 4
    fill(s, 3, 1, f)
    put(s, card(1, 4), 3)  # (1, 3): r + c = 4
    # worker 2: (0,1), (1,2) on a diagonal, then (1,4): not on one line
    put(s, card(2, 2), 1)  # (0, 1)
    fill(s, 2, 1, f)
    put(s, card(2, 3), 2)  # (1, 2)
    fill(s, 4, 1, f)
    empty_hand(s, 0)
    give(s, 0, card(1, 5))
    give(s, 0, card(2, 5))
    do(T8, s, op(constants.OP_PLAY, 1), rng)  # worker 2 day 5 at (1, 4): not a line with (0,1),(1,2)
    assert s[constants.O_HAPPY + 2] == 0
    fill(s, 4, 0, f)
    # worker 1 day 5 needs (0, 4) on r + c = 4 but column 4 is at row 2 now: not that line
    assert s[constants.O_HAPPY + 1] == 0
    check_zones(s)


def test_note_cannot_touch_a_note_orthogonally():
    s, rng = fresh(T8)
    empty_hand(s, 0)
    to_discard(s, card(9, 1))
    to_discard(s, card(9, 2))
    put(s, card(8, 1), 0, constants.K_NOTE)  # note at (0, 0)
    notes = [o for o in options(T8, s) if o // 10000 == constants.OP_NOTE]
    cols = sorted(o % 100 for o in notes)
    assert 0 not in cols  # (1, 0) is below the note
    assert 1 not in cols  # (0, 1) is beside it
    assert 2 in cols
    # diagonal contact: allowed by default, forbidden with note_diagonal_adjacency
    put(s, card(8, 2), 1)  # face-up at (0, 1); column 1 opens at (1, 1), diagonal to (0, 0)
    assert op(constants.OP_NOTE, 0, 1) in options(T8, s)
    t_diag = tables_for(level=5, removed_cards=0, note_diagonal_adjacency=True)
    assert op(constants.OP_NOTE, 0, 1) not in options(t_diag, s)


def test_full_week_readies_a_pizza():
    s, rng = fresh(T8)
    s[constants.H_READY], s[constants.H_USED] = 0, 6  # no pizza ready, six spent: the full week must ready one
    for col in range(6):
        put(s, card(9, col + 1), col)
    assert s[constants.H_READY] == 0
    empty_hand(s, 0)
    give(s, 0, card(8, 7))
    do(T8, s, op(constants.OP_PLAY, 0), rng)
    assert s[constants.H_READY] == 1 and s[constants.H_USED] == 5 and s[constants.H_REGAINED] == 1


def test_column_closed_at_max_weeks():
    t4 = tables_for(level=1)  # 4 weeks
    s, rng = fresh(t4)
    f = [c for c in range(7, 42)][::-1]
    empty_hand(s, 0)
    give(s, 0, card(0, 1))
    assert op(constants.OP_PLAY, 0) in options(t4, s)
    fill(s, 0, 4, f)
    assert op(constants.OP_PLAY, 0) not in options(t4, s)
    assert op(constants.OP_DISCARD, 0) in options(t4, s)


def test_refresh_spends_a_pizza_and_redraws():
    s, rng = fresh(T8)
    ready = s[constants.H_READY]
    do(T8, s, op(constants.OP_REFRESH), rng)
    assert s[constants.H_READY] == ready - 1 and s[constants.H_SPENT] == 1
    assert s[constants.O_HANDN] == 4
    assert s[constants.H_PHASE] == constants.PH_TURN and s[constants.H_TURNS] == 0  # still the same turn
    s[constants.H_READY] = 0
    assert op(constants.OP_REFRESH) not in options(T8, s)
    check_zones(s)


def test_no_legal_turn_action_loses():
    s, rng = fresh(T8)
    empty_hand(s, 0)
    while s[constants.H_DECK_N] > 1:
        detach_to_removed(s)
    c = s[constants.O_DECK]
    give(s, 0, c)
    do(T8, s, op(constants.OP_DISCARD, 0), rng)
    # hand empty, deck empty, a discard exists and a note spot exists: not lost yet
    assert s[constants.H_OVER] == 0
    n = [o for o in options(T8, s) if o // 10000 == constants.OP_NOTE]
    do(T8, s, n[0], rng)
    assert s[constants.H_OVER] == constants.END.no_action


def detach_to_removed(s):
    n = s[constants.H_DECK_N] - 1
    c = s[constants.O_DECK + n]
    s[constants.O_DECK + n] = -1
    s[constants.H_DECK_N] = n
    s[constants.O_REM + s[constants.H_REM_N]] = c
    s[constants.H_REM_N] += 1
    s[constants.O_ZONE + c] = constants.Z_REMOVED


T_AUT = tables_for(level=6)


def test_automa_draws_after_a_play_not_after_a_discard():
    s, rng = fresh(T_AUT)
    deck = s[constants.H_DECK_N]
    do(T_AUT, s, op(constants.OP_DISCARD, 0), rng)
    assert s[constants.H_DECK_N] == deck - 1  # only the player's draw back up
    do(T_AUT, s, [o for o in options(T_AUT, s) if o // 10000 == constants.OP_PLAY][0], rng)
    assert s[constants.H_AUT_CARD] >= 0 or s[constants.H_AUT_DISC] == 1
    if s[constants.H_PHASE] == constants.PH_AUTOMA:
        assert sorted(options(T_AUT, s)) == [op(constants.OP_AUT_PLACE), op(constants.OP_AUT_DISCARD)]
        do(T_AUT, s, op(constants.OP_AUT_PLACE), rng)
        assert s[constants.H_AUT_PLACED] == 1
    check_zones(s)


def test_automa_loses_on_an_empty_deck():
    s, rng = fresh(T_AUT)
    while s[constants.H_DECK_N] > 0:
        detach_to_removed(s)
    do(T_AUT, s, [o for o in options(T_AUT, s) if o // 10000 == constants.OP_PLAY][0], rng)
    assert s[constants.H_OVER] == constants.END.automa_empty


def test_birthday_reserves_the_spot_and_can_be_played_over():
    t = tables_for(level=5, removed_cards=0, events=7)
    s, rng = fresh(t)
    empty_hand(s, 0)
    give(s, 0, event(rules.EV_BIRTHDAY))
    do(t, s, op(constants.OP_EVENT, 0, 2), rng)  # Birthday into Wednesday week 1
    assert s[constants.H_BD_R] == 0 and s[constants.H_BD_C] == 2 and s[constants.O_HEIGHT + 2] == 1
    empty_hand(s, 0)
    give(s, 0, card(0, 3))
    opts = options(t, s)
    assert op(constants.OP_PLAY_BDAY, 0) in opts and op(constants.OP_PLAY, 0) in opts  # on it, or the next week down
    put(s, card(0, 1), 0)
    put(s, card(0, 2), 1)
    do(t, s, op(constants.OP_PLAY_BDAY, 0), rng)
    assert s[constants.O_ZONE + event(rules.EV_BIRTHDAY)] == constants.Z_COVERED
    assert s[constants.O_GRID + 2] == card(0, 3)
    assert s[constants.O_HAPPY + 0] == 1  # row 1: Monday, Tuesday and (over the Birthday) Wednesday
    check_zones(s)


def test_new_years_is_a_row_wild_for_any_number_of_workers():
    t = tables_for(level=5, removed_cards=0, events=7)
    s, rng = fresh(t)
    for w, days in ((0, (1, 2)), (1, (3, 4))):
        for d in days:
            put(s, card(w, d), d - 1)
    empty_hand(s, 0)
    give(s, 0, event(rules.EV_NEWYEARS))
    do(t, s, op(constants.OP_EVENT, 0, 6), rng)  # Sunday week 1
    assert s[constants.O_HAPPY + 0] == 1 and s[constants.O_HAPPY + 1] == 1
    # not a third card on a diagonal
    put(s, card(2, 6), 5)  # (0, 5)
    put(s, card(3, 6), 5)  # (1, 5)
    assert s[constants.O_HAPPY + 2] == 0


def test_new_years_needs_two_real_cards():
    t = tables_for(level=5, removed_cards=0, events=7)
    s, rng = fresh(t)
    put(s, card(0, 1), 0)
    empty_hand(s, 0)
    give(s, 0, event(rules.EV_NEWYEARS))
    do(t, s, op(constants.OP_EVENT, 0, 6), rng)
    assert s[constants.O_HAPPY + 0] == 0
    empty_hand(s, 0)
    give(s, 0, card(0, 3))
    do(t, s, op(constants.OP_PLAY, 0), rng)
    assert s[constants.O_HAPPY + 0] == 1  # later plays use it too


def test_valentines_is_a_line_wild_for_one_worker_only():
    t = tables_for(level=5, removed_cards=0, events=7)
    s, rng = fresh(t)
    fillers(s)
    # worker 0 two in row 1; worker 1 two on the diagonal r - c = 0 through (0, 0)...
    put(s, card(0, 2), 1)  # (0, 1)
    put(s, card(0, 3), 2)  # (0, 2)
    put(s, card(1, 5), 4)  # (0, 4)
    put(s, card(1, 6), 5)  # (0, 5)
    empty_hand(s, 0)
    give(s, 0, event(rules.EV_VALENTINE))
    do(t, s, op(constants.OP_EVENT, 0, 0), rng)  # (0, 0): row 1 for both workers
    assert s[constants.O_HAPPY + 0] + s[constants.O_HAPPY + 1] == 1
    assert s[constants.H_VAL_W] in (0, 1)


def test_valentines_on_a_diagonal():
    t = tables_for(level=5, removed_cards=0, events=7)
    s, rng = fresh(t)
    f = fillers(s)
    put(s, card(0, 1), 0)  # (0, 0)
    fill(s, 1, 1, f)
    put(s, card(0, 2), 1)  # (1, 1)
    fill(s, 3, 3, f)
    empty_hand(s, 0)
    give(s, 0, event(rules.EV_VALENTINE))
    do(t, s, op(constants.OP_EVENT, 0, 3), rng)  # (3, 3)
    assert s[constants.O_HAPPY + 0] == 1


def test_water_cooler_notes_may_touch():
    t = tables_for(level=5, removed_cards=0, events=7)
    s, rng = fresh(t)
    empty_hand(s, 0)
    for c in (card(9, 1), card(9, 2), card(9, 3)):
        to_discard(s, c)
    give(s, 0, event(rules.EV_WATERCOOLER))
    do(t, s, op(constants.OP_EVENT, 0, 6), rng)
    assert s[constants.H_PHASE] == constants.PH_WATERCOOLER
    do(t, s, op(constants.OP_WC_NOTE, 0, 0), rng)
    do(t, s, op(constants.OP_WC_NOTE, 0, 0), rng)  # right below the first: touching
    do(t, s, op(constants.OP_WC_NOTE, 0, 1), rng)  # beside it
    assert s[constants.H_NOTES] == 3 and s[constants.H_DISC_N] == 0
    assert s[constants.H_PHASE] == constants.PH_TURN and s[constants.H_TURNS] == 1  # one turn action in all
    check_zones(s)


def test_look_busy_takes_a_discard_back():
    t = tables_for(level=5, removed_cards=0, events=7)
    s, rng = fresh(t)
    empty_hand(s, 0)
    to_discard(s, card(3, 3))
    give(s, 0, event(rules.EV_LOOKBUSY))
    do(t, s, op(constants.OP_EVENT, 0, 6), rng)
    assert s[constants.H_PHASE] == constants.PH_LOOKBUSY
    before = rules.card_counts(s)[0, card(3, 3)].copy()
    do(t, s, op(constants.OP_LB_TAKE, 0), rng)
    hand = list(s[constants.O_HAND:constants.O_HAND + s[constants.O_HANDN]])
    assert card(3, 3) in hand and s[constants.H_DISC_N] == 0
    # the card table's `taken_from_discard` counts it (a take, not a draw)
    counts = rules.card_counts(s)
    assert counts[0, card(3, 3), rules.CT_TAKEN] == before[rules.CT_TAKEN] + 1
    assert counts[0, card(3, 3), rules.CT_DRAWN] == before[rules.CT_DRAWN]
    check_zones(s)


def test_coffee_break_everyone_returns_and_redraws():
    t = tables_for(level=5, removed_cards=0, events=7)
    s, rng = fresh(t, n_players=2)
    empty_hand(s, 0)
    give(s, 0, event(rules.EV_COFFEE))
    give(s, 0, card(0, 1))
    do(t, s, op(constants.OP_EVENT, 0, 6), rng)
    assert s[constants.H_PHASE] == constants.PH_COFFEE and rules.to_move(s) == 0
    do(t, s, op(constants.OP_CB_RETURN, 0), rng)
    do(t, s, op(constants.OP_CB_DONE), rng)
    assert s[constants.O_HANDN] == 4
    assert rules.to_move(s) == 1  # the other player chooses too
    do(t, s, op(constants.OP_CB_RETURN, 1), rng)
    do(t, s, op(constants.OP_CB_RETURN, 0), rng)
    do(t, s, op(constants.OP_CB_DONE), rng)
    assert s[constants.O_HANDN + 1] == 4
    assert s[constants.H_PHASE] == constants.PH_TURN and s[constants.H_CUR] == 1
    check_zones(s)


def test_pizza_party_refreshes_one_pizza_per_player():
    t = tables_for(level=5, removed_cards=0, events=7)
    s, rng = fresh(t, n_players=3)
    s[constants.H_READY], s[constants.H_USED] = 1, 5
    empty_hand(s, 0)
    give(s, 0, event(rules.EV_PIZZAPARTY))
    do(t, s, op(constants.OP_EVENT, 0, 6), rng)
    assert s[constants.H_READY] == 4 and s[constants.H_USED] == 2


def test_win_checked_after_an_automa_placement():
    s, rng = fresh(T_AUT)
    for w in range(1, 6):
        s[constants.O_HAPPY + w] = 1
    s[constants.H_HAPPY_N] = 5
    put(s, card(0, 1), 0)
    put(s, card(0, 2), 1)
    # the automa's next card is worker 0, day 3
    detach_c = card(0, 3)
    from sickdays_solo.helpers import detach
    detach(s, detach_c)
    rules.deck_push(s, np.int64(detach_c))
    s[constants.H_INGAME] -= 0
    empty_hand(s, 0)
    give(s, 0, card(5, 7))
    do(T_AUT, s, op(constants.OP_PLAY, 0), rng)
    assert s[constants.H_PHASE] == constants.PH_AUTOMA and s[constants.H_AUT_CARD] == card(0, 3)
    do(T_AUT, s, op(constants.OP_AUT_PLACE), rng)
    assert s[constants.H_OVER] == constants.END.all_happy


def test_missing_counts_best_line():
    t4 = tables_for(level=1)
    s, rng = fresh(t4)
    put(s, card(0, 1), 0)
    put(s, card(0, 2), 1)  # worker 0: two in a row -> 1 missing
    put(s, card(1, 4), 3)  # worker 1: one card -> 2 missing
    assert rules.missing(s) == 1 + 2 + 3 * 4


def test_note_ok_reads_the_eight_neighbours_as_the_rule_says():
    # note_ok against the rule written out cell by cell: random grids of notes, every cell, both
    # adjacency settings (a note touching another orthogonally, or diagonally with the option, is refused)
    t_diag = tables_for(level=5, removed_cards=0, note_diagonal_adjacency=True)
    gen = np.random.default_rng(5)
    for trial in range(200):
        s, _ = fresh(T8)
        rows = s[constants.H_ROWS]
        k = rules.o_kind(s)
        notes = gen.random((rows, constants.NCOL)) < gen.uniform(0.05, 0.4)
        for r in range(rows):
            for c in range(constants.NCOL):
                s[k + r * constants.NCOL + c] = constants.K_NOTE if notes[r, c] else 0
        for t, diag in ((T8, False), (t_diag, True)):
            for r in range(rows):
                for c in range(constants.NCOL):
                    touch = any(notes[r + dr, c + dc] for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                                if (dr, dc) != (0, 0) and (diag or dr == 0 or dc == 0)
                                and 0 <= r + dr < rows and 0 <= c + dc < constants.NCOL)
                    assert rules.note_ok(t, s, r, c) == (not touch), (trial, r, c, diag)
