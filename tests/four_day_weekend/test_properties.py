"""Properties over random games: cards conserved, cap respected, chunking-free."""
import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.simcore import rng as R
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.four_day_weekend import SPEC
from balance.simcore.four_day_weekend import constants
from balance.simcore.four_day_weekend import rules
from balance.simcore.four_day_weekend.policies import greedy
from balance.simcore.trace import no_trace

from .helpers import TABLES, check_conservation, fresh

N_CARDS = TABLES[0].shape[0]


@settings(max_examples=8, deadline=None)
@given(n_players=st.integers(2, 6), seed=st.integers(0, 2**31), use_greedy=st.booleans())
def test_every_card_in_exactly_one_zone_after_every_step(n_players, seed, use_greedy):
    s, rng = fresh(n_players, seed)
    check_conservation(s)
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    params = np.array(resolve_policy(SPEC, "greedy").params)
    steps = 0
    while rules.to_move(s) >= 0 and steps < 4000:
        n = rules.legal(TABLES, s, out)
        assert n > 0, "a live state always has a move"
        seat = rules.to_move(s)
        j = greedy(TABLES, s, seat, out, n, params, rng) if use_greedy else R.randint(rng, R.POLICY, n)
        assert 0 <= j < n
        rules.step(TABLES, s, out[j], rng, no_trace())
        check_conservation(s)
        steps += 1
    assert rules.to_move(s) == -1
    per = 2 if n_players <= 3 else 1
    assert s.a[constants.M_ROUND] == per * n_players


def test_turn_cap_is_respected():
    capped = dataclasses.replace(SPEC, max_decisions=40)
    r = Engine(capped, [resolve_policy(SPEC, "random")]).run(TABLES, 3, 5, np.arange(6), N_CARDS)
    assert (r.game_out[:, 0] == 0).all()  # end reason "cap"
    assert (r.game_out[:, 1] <= 40).all()


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**40), split=st.integers(1, 11), n_players=st.integers(2, 6))
def test_same_seed_same_result_whatever_the_split(seed, split, n_players):
    eng = Engine(SPEC, [resolve_policy(SPEC, "greedy")])
    whole = eng.run(TABLES, n_players, seed, np.arange(12), N_CARDS)
    a = eng.run(TABLES, n_players, seed, np.arange(split), N_CARDS)
    b = eng.run(TABLES, n_players, seed, np.arange(split, 12)[::-1].copy(), N_CARDS)
    assert np.array_equal(whole.game_out, np.concatenate([a.game_out, b.game_out[::-1]]))
    assert np.array_equal(whole.seat_out, np.concatenate([a.seat_out, b.seat_out[::-1]]))
    assert np.array_equal(whole.card_stats, a.card_stats + b.card_stats)


def test_games_finish_and_rounds_end_for_the_rules_reasons():
    for pol in ("random", "greedy"):
        r = Engine(SPEC, [resolve_policy(SPEC, pol)]).run(TABLES, 4, 11, np.arange(40), N_CARDS)
        assert (r.game_out[:, 0] == 2).all()  # completed, never capped
        assert (r.game_out[:, 3] == 4).all()  # one round per player
        assert (r.game_out[:, 6:9].sum(axis=1) == 4).all()
        won = r.seat_out[:, :, 0]
        assert (won.sum(axis=1) == r.game_out[:, 4]).all()  # ties: every tied seat wins


def test_card_counters_add_up():
    r = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).run(TABLES, 2, 3, np.arange(20), N_CARDS)
    totals = r.card_stats[:, :, 2]  # (cards, kinds) summed counters
    assert totals[:, constants.CC_SCORED].sum() == r.seat_out[:, :, 1].sum()  # scored points add up to scores
    assert totals[:, constants.CC_TAKEN].sum() == r.seat_out[:, :, 5].sum()
    excuses = TABLES[0][:, constants.C_KIND] == constants.EXCUSE
    assert totals[excuses, constants.CC_PLAYED].sum() == r.seat_out[:, :, 4].sum()  # each Excuse played starts a set


def test_lookahead_runs():
    pol = resolve_policy(SPEC, "lookahead", {"rollouts": 1, "horizon": 10})
    r = Engine(SPEC, [pol, resolve_policy(SPEC, "greedy")]).run(TABLES, 2, 1, np.arange(2), N_CARDS)
    assert (r.game_out[:, 0] == 2).all()
