"""Counter-based random streams: SplitMix64 keyed by (seed, game index, purpose).

Game i of a run with master seed s owns three streams, one per purpose, so a
result never depends on chunking, threads or machines, and two variants that
differ only in rules or policies are dealt the same cards (paired runs).
A stream is one uint64 of state in a small array the kernels mutate in place.
"""
import numpy as np

from .jit import jit

DEAL = 0  # shuffles and removals at setup
CHANCE = 1  # in-game chance: reshuffles, dice, draws from a reshuffled deck
POLICY = 2  # the players' own randomness (random moves, rollouts)
N_STREAMS = 3

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0


@jit
def mix64(z):
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@jit
def seed_streams(rng, seed, game_index):
    """Fill rng[0:N_STREAMS] with the streams of one game."""
    base = mix64(mix64(np.uint64(seed)) ^ (np.uint64(game_index) * _GAMMA))
    for k in range(rng.shape[0]):
        rng[k] = mix64(base + np.uint64(k + 1) * _M2)


@jit
def next_u64(rng, k):
    rng[k] = rng[k] + _GAMMA
    return mix64(rng[k])


@jit
def uniform(rng, k):
    """A float in [0, 1)."""
    return np.float64(next_u64(rng, k) >> _S11) * _INV53


@jit
def randint(rng, k, n):
    """An integer in [0, n); n >= 1."""
    return np.int64(uniform(rng, k) * n)


@jit
def shuffle(rng, k, arr, n):
    """Fisher-Yates shuffle of arr[0:n] in place."""
    for i in range(n - 1, 0, -1):
        j = randint(rng, k, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


def new_streams(seed: int, game_index: int) -> np.ndarray:
    rng = np.zeros(N_STREAMS, np.uint64)
    seed_streams(rng, np.uint64(seed), np.int64(game_index))
    return rng
