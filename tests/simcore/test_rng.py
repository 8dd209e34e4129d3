import numpy as np
from hypothesis import given, settings, strategies as st

from balance.simcore import rng as R


@settings(deadline=None, max_examples=50)
@given(st.integers(0, 2**63 - 1), st.integers(0, 2**40))
def test_streams_depend_only_on_seed_and_index(seed, index):
    a = R.new_streams(seed, index)
    b = R.new_streams(seed, index)
    assert (a == b).all()
    assert len(set(a.tolist())) == R.N_STREAMS  # purposes are distinct streams


def test_neighbouring_games_differ():
    firsts = {int(R.next_u64(R.new_streams(7, i), R.DEAL)) for i in range(1000)}
    assert len(firsts) == 1000


def test_uniform_and_randint_are_uniform():
    r = R.new_streams(3, 0)
    draws = np.array([R.randint(r, R.CHANCE, 6) for _ in range(60_000)])
    counts = np.bincount(draws, minlength=6)
    assert draws.min() == 0 and draws.max() == 5
    # each face 10,000 expected; sd ~ 91: 5 sd is a failure, not noise
    assert np.all(np.abs(counts - 10_000) < 460)


def test_shuffle_is_a_permutation():
    r = R.new_streams(5, 9)
    arr = np.arange(50)
    R.shuffle(r, R.DEAL, arr, 50)
    assert sorted(arr.tolist()) == list(range(50))
    assert arr.tolist() != list(range(50))


@settings(deadline=None, max_examples=30)
@given(st.integers(0, 2**63 - 1), st.integers(0, 80))
def test_shuffle_draws_as_randint_does(seed, n):
    # shuffle keeps the stream in a register; the swaps and the stream it leaves must be those of
    # Fisher-Yates with randint (the same games as before: the fingerprints depend on it)
    a = R.new_streams(seed, 1)
    b = a.copy()
    x = np.arange(n) * 3
    y = x.copy()
    R.shuffle(a, R.POLICY, x, n)
    for i in range(n - 1, 0, -1):
        j = R.randint(b, R.POLICY, i + 1)
        y[i], y[j] = y[j], y[i]
    assert x.tolist() == y.tolist()
    assert a.tolist() == b.tolist()
