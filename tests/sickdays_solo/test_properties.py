"""Properties over random games: cards conserved, turn cap, chunking-free results."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.simcore import rng as R
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.sickdays_solo import SPEC
from balance.simcore.sickdays_solo import constants, rules
from balance.simcore.sickdays_solo import policies
from balance.simcore.trace import no_trace
from sickdays_solo.helpers import check_zones, tables_for

N_CARDS = len(SPEC.load_data({}).card_names)


@settings(deadline=None, max_examples=25)
@given(level=st.integers(1, 11), events=st.integers(0, 7), players=st.integers(1, 6),
       seed=st.integers(0, 2**32), greedy_moves=st.booleans(), diag=st.booleans())
def test_cards_conserved_every_step(level, events, players, seed, greedy_moves, diag):
    t = tables_for(level=level, events=events, note_diagonal_adjacency=diag)
    rng = R.new_streams(seed, 0)
    s = rules.new_game(t, np.int64(players), rng, no_trace())
    check_zones(s)
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    params = np.array(resolve_policy(SPEC, "greedy").params)
    steps = 0
    while rules.to_move(s) >= 0:
        n = rules.legal(t, s, out)
        assert n > 0, "a live state always has a move"
        seat = rules.to_move(s)
        j = policies.greedy(t, s, seat, out, n, params, rng) if greedy_moves else R.randint(rng, R.POLICY, n)
        rules.step(t, s, out[j], rng, no_trace())
        check_zones(s)
        steps += 1
        assert steps < SPEC.max_decisions
    assert s[constants.H_OVER] in (constants.END.all_happy, constants.END.no_action, constants.END.automa_empty)
    v = policies.value(t, s, 0)
    if s[constants.H_OVER] == constants.END.all_happy:
        assert v == 1.0
    else:  # a loss is graded by the cards it misses, within 0..0.02
        assert 0.0 <= v <= 0.02


@settings(deadline=None, max_examples=6)
@given(seed=st.integers(0, 2**31), split=st.integers(1, 39), level=st.sampled_from([1, 4, 8]),
       policy=st.sampled_from(["random", "greedy"]))
def test_same_seed_same_result_whatever_the_split(seed, split, level, policy):
    t = SPEC.load_data({"level": level, "events": 2}).tables
    eng = Engine(SPEC, [resolve_policy(SPEC, policy)])
    idx = np.arange(40)
    whole = eng.run(t, 2, seed, idx, N_CARDS)
    a = eng.run(t, 2, seed, idx[:split], N_CARDS)
    b = eng.run(t, 2, seed, idx[split:][::-1].copy(), N_CARDS)
    np.testing.assert_array_equal(whole.game_out, np.vstack([a.game_out, b.game_out[::-1]]))
    np.testing.assert_array_equal(whole.seat_out, np.concatenate([a.seat_out, b.seat_out[::-1]]))
    np.testing.assert_array_equal(whole.card_stats, a.card_stats + b.card_stats)


def test_turn_cap_and_end_reasons():
    for level in (1, 6, 11):
        t = SPEC.load_data({"level": level, "events": 7}).tables
        res = Engine(SPEC, [resolve_policy(SPEC, "random")]).run(t, 3, 5, np.arange(200), N_CARDS)
        g = res.game_out
        assert (g[:, 1] <= SPEC.max_decisions).all()
        assert set(np.unique(g[:, 0]).astype(int)) <= {2, 3, 4}  # never the cap, never no_move
        won = g[:, 0] == 2
        assert (g[won, 3] == 0).all() and (g[~won, 3] > 0).all()
        assert (res.seat_out[:, :, 0] == won[:, None]).all()  # co-op: every seat shares the result


def test_card_counters_consistent():
    t = SPEC.load_data({"level": 4}).tables
    res = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).run(t, 1, 3, np.arange(100), N_CARDS)
    cs = res.card_stats  # cards x kinds x (games, wins, total)
    drawn, played, noted, discarded, held, taken = (cs[:, k, 2] for k in range(6))
    # a card drawn (or taken back from the discard pile) is played, noted, discarded, held or shuffled back
    assert (played <= drawn + taken).all() and (held <= drawn + taken).all()
    assert played.sum() > 0 and drawn[63:70].sum() == 0  # level 4 keeps 9 suits
    assert res.game_out[:, 2].sum() >= played.sum() + discarded.sum() - res.game_out[:, 6].sum()


def test_lookahead_runs():
    t = SPEC.load_data({"level": 1}).tables
    res = Engine(SPEC, [resolve_policy(SPEC, "lookahead")]).run(t, 1, 3, np.arange(4), N_CARDS)
    assert set(np.unique(res.game_out[:, 0]).astype(int)) <= {2, 3, 4}


def test_determinise_keeps_what_the_seat_sees():
    t = tables_for(level=4)
    rng = R.new_streams(9, 1)
    s = rules.new_game(t, np.int64(3), rng, no_trace())
    s2 = s.copy()
    rules.determinise(t, s2, np.int64(1), rng)
    check_zones(s2)
    hand = slice(constants.O_HAND + constants.HAND_CAP, constants.O_HAND + 2 * constants.HAND_CAP)
    np.testing.assert_array_equal(s[hand], s2[hand])
    assert s[constants.H_DECK_N] == s2[constants.H_DECK_N] and s[constants.H_REM_N] == s2[constants.H_REM_N]
    assert not np.array_equal(s[constants.O_DECK:constants.O_DECK + s[constants.H_DECK_N]], s2[constants.O_DECK:constants.O_DECK + s[constants.H_DECK_N]])
    hidden = lambda x: sorted(list(x[constants.O_DECK:constants.O_DECK + x[constants.H_DECK_N]]) + list(x[constants.O_REM:constants.O_REM + x[constants.H_REM_N]])
                              + list(x[constants.O_HAND:constants.O_HAND + x[constants.O_HANDN]])
                              + list(x[constants.O_HAND + 2 * constants.HAND_CAP:constants.O_HAND + 2 * constants.HAND_CAP + x[constants.O_HANDN + 2]]))
    assert hidden(s) == hidden(s2)


def test_headline_metrics():
    import json

    import polars as pl

    from balance.analysis.metrics import GameMetrics

    t = SPEC.load_data({"level": 4}).tables
    res = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).run(t, 1, 3, np.arange(200), N_CARDS)
    games = pl.DataFrame(res.game_out, schema=SPEC.game_column_names)
    seats = pl.DataFrame(res.seat_out[:, 0, :], schema=SPEC.seat_column_names)
    named = games.with_columns(pl.col("end_reason").replace_strict({2.0: "all_happy", 3.0: "no_action", 4.0: "automa_empty"}))
    acc = GameMetrics(SPEC, {}, 1)
    acc.add(named, seats)
    h = acc.result()
    json.dumps(h)
    lost = int((res.game_out[:, 0] != 2).sum())
    assert sum(h["missing_cards"]["at_loss"].values()) == lost
    assert h["pizzas_spent"]["n"] == 200 and h["notes_used"]["value"] >= 0
    assert h["win_rate"]["k"] == 200 - lost
