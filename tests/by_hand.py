"""Play one game outside the runner's loop, kernel by kernel (tests and fitting tools)."""
import numpy as np

from balance.simcore import rng as R


def play_on(spec, tables, state, rng, choose, decisions, look=None, after=None):
    """Play `state` on for up to `decisions` decisions or to its end: `choose(state, seat, options,
    n, rng)` gives the index of each decision's option (a single legal option plays without asking),
    `look(state, rng)`, if given, sees the state before every decision and `after(state)` after
    every step. Returns the state."""
    k = spec.kernels
    notrace = np.zeros(0, np.int32)
    options = np.zeros(spec.max_options, np.int64)
    for _ in range(decisions):
        seat = k.to_move(state)
        if seat < 0:
            break
        n = k.legal(tables, state, options)
        if n == 0:
            break
        if look is not None:
            look(state, rng)
        j = 0 if n == 1 else choose(state, seat, options, n, rng)
        k.step(tables, state, options[j], rng, notrace)
        if after is not None:
            after(state)
    return state


def new_game(spec, tables, players: int, seed: int = 1, index: int = 0):
    """Game `index` of `seed` before its first decision: (state, its random streams)."""
    rng = R.new_streams(seed, index)
    return spec.kernels.new_game(tables, np.int64(players), rng, np.zeros(0, np.int32)), rng


def starter(spec, players: int):
    """A game's scenario start for its tests: `fresh(tables, n_players=players, seed=1, game=0)` gives
    `new_game`'s (state, streams)."""
    def fresh(tables, n_players=players, seed=1, game=0):
        return new_game(spec, tables, n_players, seed, game)
    return fresh


def play_by_hand(spec, tables, players: int, seed: int, index: int, choose, look=None):
    """Game `index` of `seed`, played to its end as `play_on` plays. Returns the final state."""
    state, rng = new_game(spec, tables, players, seed, index)
    return play_on(spec, tables, state, rng, choose, spec.max_decisions, look)


def random_choice(state, seat, options, n, rng):
    """`choose` for `play_on`: a uniformly random option, from the policy stream (as the random policy draws)."""
    return R.randint(rng, R.POLICY, n)


def play_checked(spec, tables, state, rng, choose, decisions):
    """`play_on` with the game's invariants (spec.kernels.check) asserted before the first decision and
    after every step. Returns the state."""
    def checked(s):
        assert spec.kernels.check(tables, s) == 0

    checked(state)
    return play_on(spec, tables, state, rng, choose, decisions, after=checked)


def games_checked(spec, tables, players: int, seed: int, n_cards: int, policy: str, games: int = 200) -> None:
    """`games` whole games, `policy` at every seat, played by the runner with the invariants checked after
    every step (check=True raises InvariantBroken): every game is played."""
    from balance.simcore.batch import Engine, resolve_policy

    r = Engine(spec, [resolve_policy(spec, policy)]).run(tables, players, seed, np.arange(games), n_cards, check=True)
    assert r.game_out.shape[0] == games


def first_played(play, wanted, what: str, seeds: int = 50):
    """`play(seed)`'s (tables, state) for the first seed below `seeds` whose state is `wanted(state)`."""
    for seed in range(seeds):
        t, s = play(seed)
        if wanted(s):
            return t, s
    raise AssertionError(f"no {what}")
