"""The `recorded` policy (simcore/recorded.py): a seat that plays back option codes, as `balance play` saves them.

On the toy game: a seat recording exactly what greedy chose plays greedy's game (same events, same rows) in
the traced replay and in the batch loop; a code that is not legal at its decision, or a record that runs
out, is refused as a bad choice, never played as something else.
"""
from dataclasses import replace

import numpy as np
import pytest

from balance.simcore import rng as R
from balance.simcore.batch import BalanceError, Engine, policy_defaults, resolve_policy
from balance.simcore.recorded import NAME, P_CURSOR, RECORDED, codes_of, params_of
from toygame import SPEC

DATA = SPEC.load_data({})
TABLES = DATA.tables
SEED, INDEX = 11, 0


def greedy_codes(seat: int, players: int = 2) -> list[int]:
    """The option codes greedy chooses at `seat`'s decisions with more than one option (the runner's loop in Python)."""
    k = SPEC.kernels
    rng = np.zeros(R.N_STREAMS, np.uint64)
    R.seed_streams(rng, np.uint64(SEED), np.int64(INDEX))
    state = k.new_game(TABLES, np.int64(players), rng, np.zeros(0, np.int32))
    params = policy_defaults(SPEC, "greedy")
    options = np.zeros(SPEC.max_options, np.int64)
    codes = []
    while k.to_move(state) >= 0:
        s = k.to_move(state)
        n = k.legal(TABLES, state, options)
        j = 0 if n == 1 else k.greedy(TABLES, state, s, options, n, params, rng)
        if s == seat and n > 1:
            codes.append(int(options[j]))
        k.step(TABLES, state, options[j], rng, np.zeros(0, np.int32))
    return codes


def seats_with(codes, seat: int = 0):
    greedy = resolve_policy(SPEC, "greedy")
    seats = [greedy, greedy]
    seats[seat] = replace(greedy, name=NAME, kind=RECORDED, params=params_of(codes))
    return seats


def test_a_record_of_greedys_choices_replays_greedys_game():
    codes = greedy_codes(0)
    assert codes and codes_of(params_of(codes)) == codes
    base = Engine(SPEC, [resolve_policy(SPEC, "greedy")])
    ev0, g0, s0 = base.replay(TABLES, 2, SEED, INDEX)
    ev1, g1, s1 = Engine(SPEC, seats_with(codes)).replay(TABLES, 2, SEED, INDEX)
    assert np.array_equal(ev0, ev1) and np.array_equal(g0, g1) and np.array_equal(s0, s1)
    res = Engine(SPEC, seats_with(codes)).run(TABLES, 2, SEED, np.array([INDEX]), 3)  # the batch loop too
    assert np.array_equal(res.game_out[0], g0)


def test_a_code_that_is_not_legal_is_refused():
    codes = greedy_codes(0)
    bad = [99] + codes[1:]  # the toy game's options are 1, 2, 3
    with pytest.raises(BalanceError, match="outside 0..n-1"):
        Engine(SPEC, seats_with(bad)).replay(TABLES, 2, SEED, INDEX)


def test_a_record_that_runs_out_is_refused():
    codes = greedy_codes(0)
    with pytest.raises(BalanceError, match="outside 0..n-1"):
        Engine(SPEC, seats_with(codes[:-1])).replay(TABLES, 2, SEED, INDEX)


def test_the_cursor_starts_at_zero_and_codes_must_fit_a_float():
    assert params_of([5])[P_CURSOR] == 0.0
    with pytest.raises(ValueError):
        params_of([2**53])
