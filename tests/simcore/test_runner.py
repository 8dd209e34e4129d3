"""The shared loop on a tiny game: determinism, chunking, threads, cap, traces."""
import numba
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from balance.simcore.batch import BalanceError, Engine, resolve_policy
from balance.simcore.runner import END_CAP
from toygame import SPEC

DATA = SPEC.load_data({})
TABLES = DATA.tables


def run(policy="random", idx=np.arange(500), players=2, seed=11, **over):
    e = Engine(SPEC, [resolve_policy(SPEC, policy, over)])
    return e.run(TABLES, players, seed, np.asarray(idx, np.int64), 3)


@settings(deadline=None, max_examples=10)
@given(st.integers(1, 499))
def test_same_result_whatever_the_split(cut):
    whole = run()
    a = run(idx=np.arange(cut))
    b = run(idx=np.arange(cut, 500))
    assert np.array_equal(whole.game_out, np.concatenate([a.game_out, b.game_out]))
    assert np.array_equal(whole.seat_out, np.concatenate([a.seat_out, b.seat_out]))
    assert np.array_equal(whole.card_stats, a.card_stats + b.card_stats)


def test_same_result_whatever_the_thread_count():
    many = run("lookahead")
    numba.set_num_threads(1)
    try:
        one = run("lookahead")
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert np.array_equal(many.game_out, one.game_out)
    assert np.array_equal(many.card_stats, one.card_stats)


def test_game_order_does_not_matter():
    idx = np.arange(300)
    fwd = run(idx=idx)
    back = run(idx=idx[::-1])
    assert np.array_equal(fwd.game_out, back.game_out[::-1])


def test_every_game_has_exactly_one_winner():
    r = run()
    assert np.all(r.seat_out[:, :, 0].sum(axis=1) == 1)


def test_policies_see_the_same_deals():
    # the first player comes from the deal stream: identical under any policy
    a, b = run("random"), run("greedy")
    assert np.array_equal(a.game_out[:, 0], b.game_out[:, 0])  # end reason
    ev_a, _, _ = Engine(SPEC, [resolve_policy(SPEC, "random")]).replay(TABLES, 2, 11, 4)
    ev_b, _, _ = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).replay(TABLES, 2, 11, 4)
    assert ev_a[0].tolist() == ev_b[0].tolist()


def test_turn_cap_ends_game_with_cap_reason():
    from dataclasses import replace

    capped = replace(SPEC, name="race21-capped", max_decisions=3)
    r = Engine(capped, [resolve_policy(capped, "random")]).run(TABLES, 2, 1, np.arange(100, dtype=np.int64), 3)
    assert np.all(r.game_out[:, 1] <= 3)
    assert np.all(r.game_out[:, 0] == END_CAP)  # 3 moves never reach 21


def test_replay_matches_batch_and_decodes():
    r = run("greedy", idx=np.arange(10))
    ev, g, s = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).replay(TABLES, 2, 11, 7)
    assert np.array_equal(g, r.game_out[7])
    lines = SPEC.decode_trace(ev, DATA, 2)
    assert lines[0].startswith("Player") and "total" in lines[-1]


def test_greedy_and_lookahead_beat_random():
    # the greedy line (leave a multiple of 4 to go) wins from most positions
    e = Engine(SPEC, [resolve_policy(SPEC, "greedy"), resolve_policy(SPEC, "random")])
    r = e.run(TABLES, 2, 5, np.arange(4000, dtype=np.int64), 3)
    rate = r.seat_out[:, 0, 0].mean()
    assert rate > 0.6, rate
    e = Engine(SPEC, [resolve_policy(SPEC, "lookahead"), resolve_policy(SPEC, "random")])
    r = e.run(TABLES, 2, 5, np.arange(1000, dtype=np.int64), 3)
    assert r.seat_out[:, 0, 0].mean() > 0.6


def test_epsilon_one_is_random_play():
    a = run("random", idx=np.arange(2000))
    g = run("greedy", idx=np.arange(2000), epsilon=1.0)
    # same wins distribution within noise; greedy never plays like this
    assert abs(a.seat_out[:, 0, 0].mean() - g.seat_out[:, 0, 0].mean()) < 0.05


def test_bad_policy_names_are_clear_errors():
    with pytest.raises(BalanceError, match="allowed: random, greedy, lookahead"):
        resolve_policy(SPEC, "smart")
    with pytest.raises(BalanceError, match="allowed: 0..1"):
        resolve_policy(SPEC, "greedy", {"epsilon": 2})
    with pytest.raises(BalanceError, match="not a parameter"):
        resolve_policy(SPEC, "random", {"rollouts": 3})


def test_user_policy_from_a_file(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text(
        "import numpy as np\n"
        "from numba import njit\n"
        "@njit\n"
        "def always_three(tables, state, seat, options, n, params, rng):\n"
        "    scratch = np.zeros(n)  # a user's policy may allocate\n"
        "    return n - 1 + int(scratch.sum())\n"
    )
    e = Engine(SPEC, [resolve_policy(SPEC, f"{f}:always_three")])
    r = e.run(TABLES, 2, 3, np.arange(50, dtype=np.int64), 3)
    # always +3: the "+3" card is played in every game, "+1"/"+2" never
    assert r.card_stats[2, 0, 0] == 100 and r.card_stats[0, 0, 0] == 0


def test_user_policy_file_errors(tmp_path):
    with pytest.raises(BalanceError, match="does not exist"):
        Engine(SPEC, [resolve_policy(SPEC, f"{tmp_path}/nope.py:f")]).run(TABLES, 2, 1, np.arange(2, dtype=np.int64), 3)
    f = tmp_path / "p.py"
    f.write_text("x = 1\n")
    with pytest.raises(BalanceError, match="no function 'f'"):
        Engine(SPEC, [resolve_policy(SPEC, f"{f}:f")]).run(TABLES, 2, 1, np.arange(2, dtype=np.int64), 3)


def test_user_policy_answering_an_illegal_option_is_reported_with_the_game(tmp_path):
    f = tmp_path / "wild.py"
    f.write_text(
        "from numba import njit\n"
        "@njit\n"
        "def wild(tables, state, seat, options, n, params, rng):\n"
        "    return n if state[0] > 10 else 0\n"
    )
    e = Engine(SPEC, [resolve_policy(SPEC, f"{f}:wild")])
    with pytest.raises(BalanceError, match=r"outside 0..n-1 in game index 0 .*balance replay --game race21 --seed 1 --index 0"):
        e.run(TABLES, 2, 1, np.arange(20, dtype=np.int64), 3)


@pytest.mark.parametrize("n,slots,threads", [(0, 2, 2), (1, 2, 2), (7, 2, 2), (1000, 2, 2), (1000, 1, 2), (33, 4, 1)])
def test_threads_play_every_game_once_and_count_into_their_own_row(n, slots, threads):
    from balance.simcore.runner import run_in_threads

    seen = np.zeros(n, np.int64)
    rows = set()

    def fake_range(head, lo, hi, t, tail):
        assert 0 <= lo < hi <= n and 0 <= t < slots
        seen[lo:hi] += 1
        rows.add(t)

    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        run_in_threads(fake_range, n, slots, ("h",), ("t",))
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert np.all(seen == 1)
    assert rows <= set(range(slots))
