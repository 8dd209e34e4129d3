"""The shared engine contract, checked on every registered game (pgx's api_test).

Random, greedy, lookahead and expert (oracle where declared) games of every game at its smallest, default and
largest player count: outputs in range, cooperative seats share one result,
turn cap respected, same games whatever the split, replay equals the batch and
decodes to words, card counters shaped like the card list."""
import numpy as np
import pytest

from balance.simcore import registry
from balance.simcore.batch import BalanceError, Engine, resolve_policy
from balance.simcore.params import resolve
from balance.simcore.runner import COL_DECISIONS, COL_END_REASON, COL_WON

GAMES = registry.names()
RESTORING = [name for name in GAMES if registry.get(name).kernels.restore is not None]  # the others clone worlds


def _setup(name):
    spec = registry.get(name)
    data = spec.load_data(resolve(spec, {}))
    return spec, data, data.tables, len(data.card_names)


@pytest.mark.parametrize("name", GAMES)
def test_spec_is_complete(name):
    spec, data, tables, n_cards = _setup(name)
    params = data.params
    assert spec.min_players <= spec.default_players <= spec.max_players
    assert {p.name for p in spec.policies} >= {"random", "greedy", "lookahead", "expert"}
    expert = spec.policy("expert")
    if expert.refused:  # a game where a search means nothing says why, and --policy expert says so
        with pytest.raises(BalanceError, match=f"'expert' is not available for {name}"):
            resolve_policy(spec, "expert")
    else:
        assert {p.name for p in expert.params} >= {"iterations", "horizon", "depth", "exploration"}
    oracle = spec.policy("oracle")
    if oracle is not None:  # an open-hand search, never called a bound, and every place it is listed says so
        assert "OPEN-HAND SEARCH" in oracle.help and "Not an upper bound" in oracle.help
    assert set(params) >= {p.name for p in spec.params}
    assert isinstance(tables, tuple) and all(isinstance(t, np.ndarray) for t in tables)
    assert n_cards > 0 and len(spec.card_counters) > 0
    assert len(data.content_hash) >= 8 and len(data.card_names) == n_cards
    assert len(set(spec.game_column_names)) == len(spec.game_column_names)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_games_play_to_a_valid_outcome(name, policy):
    spec, params, tables, n_cards = _setup(name)
    for players in sorted({spec.min_players, spec.default_players, spec.max_players}):
        e = Engine(spec, [resolve_policy(spec, policy)])
        r = e.run(tables, players, 5, np.arange(300, dtype=np.int64), n_cards)
        g, s = r.game_out, r.seat_out
        assert g.shape == (300, len(spec.game_column_names)) and s.shape == (300, players, len(spec.seat_column_names))
        # NaN marks "not reached" in float columns only (e.g. a round the game never got to)
        nan_ok = np.array([False, False] + [c.dtype.startswith("float") for c in spec.game_columns])
        assert not np.isinf(g).any() and np.isfinite(g[:, ~nan_ok]).all()
        seat_nan_ok = np.array([False, False] + [c.dtype.startswith("float") for c in spec.seat_columns])
        assert not np.isinf(s).any() and np.isfinite(s[:, :, ~seat_nan_ok]).all()
        reasons = g[:, COL_END_REASON]
        assert ((reasons >= 0) & (reasons < len(spec.all_end_reasons))).all()
        assert (reasons != 1).all(), "a game left a player with no legal move (no_move)"
        assert ((g[:, COL_DECISIONS] >= 1) & (g[:, COL_DECISIONS] <= spec.max_decisions)).all()
        won = s[:, :, COL_WON]
        assert np.isin(won, (0.0, 1.0)).all()
        if spec.cooperative:
            assert (won == won[:, :1]).all(), "co-op seats must share one result"
        assert r.card_stats.shape == (n_cards, len(spec.card_counters), 3)
        assert (r.card_stats[:, :, 1] <= r.card_stats[:, :, 0]).all()  # wins with <= games with
        # capped games are rare: a cap that bites often means the cap or the engine is wrong
        assert (reasons == 0).mean() < 0.05


@pytest.mark.parametrize("name", GAMES)
def test_same_games_whatever_the_split_and_replay_matches(name):
    spec, data, tables, n_cards = _setup(name)
    e = Engine(spec, [resolve_policy(spec, "greedy", {"epsilon": 0.2})])
    whole = e.run(tables, spec.default_players, 9, np.arange(120, dtype=np.int64), n_cards)
    a = e.run(tables, spec.default_players, 9, np.arange(0, 47, dtype=np.int64), n_cards)
    b = e.run(tables, spec.default_players, 9, np.arange(47, 120, dtype=np.int64), n_cards)
    assert np.array_equal(whole.game_out, np.concatenate([a.game_out, b.game_out]), equal_nan=True)
    assert np.array_equal(whole.card_stats, a.card_stats + b.card_stats)
    events, g, s = e.replay(tables, spec.default_players, 9, 33)
    assert np.array_equal(g, whole.game_out[33], equal_nan=True) and np.array_equal(s, whole.seat_out[33], equal_nan=True)
    lines = spec.decode_trace(events, data, spec.default_players)
    assert len(lines) >= 3 and all(isinstance(x, str) and x for x in lines)


def _search_seats(spec):
    """lookahead, expert (and oracle where declared) in one engine: one loop compiled."""
    pols = [resolve_policy(spec, "lookahead", {"rollouts": 2, "horizon": 50})]
    if not spec.policy("expert").refused:
        pols.append(resolve_policy(spec, "expert", {"iterations": 8}))
    if spec.policy("oracle") is not None:
        pols.append(resolve_policy(spec, "oracle", {"iterations": 8}))
    players = min(max(spec.default_players, len(pols)), spec.max_players)
    return [pols[s % len(pols)] for s in range(players)], players


# The search loop (lookahead, expert and oracle in one loop) is compiled here only
# for the games whose search loop the suite compiles anyway (sickdays-solo: the
# expert-levels test; the fixtures: small); the others play the same checks in
# plain Python in a child process (NUMBA_DISABLE_JIT=1): compiling the search
# loop of Overtime, Four Day Weekend and You're Fired! cold costs 2-6 minutes
# each, which CI's 30 minutes cannot hold. `balance ladder` and `bench` compile it.
COMPILED_SEARCH = {"sickdays-solo", "shed", "race21"}

_SEARCH_CHILD = """
import json, sys
sys.path[:0] = {path!r}
import numpy as np
from balance.simcore import registry
registry.GAMES.update({games!r})
from test_engine_contract import _search_check
print(json.dumps(_search_check({name!r}, 2)))
"""


def _search_check(name: str, n: int) -> bool:
    # every choice is checked against 0..n-1 by the engine (an illegal one raises)
    spec, params, tables, n_cards = _setup(name)
    seats, players = _search_seats(spec)
    e = Engine(spec, seats)
    r = e.run(tables, players, 3, np.arange(n, dtype=np.int64), n_cards)
    assert (r.game_out[:, COL_DECISIONS] >= 1).all()
    assert (r.game_out[:, COL_END_REASON] != 1).all()
    assert np.isin(r.seat_out[:, :, COL_WON], (0.0, 1.0)).all()
    again = e.run(tables, players, 3, np.arange(n // 2, n, dtype=np.int64), n_cards)
    assert np.array_equal(r.game_out[n // 2:], again.game_out, equal_nan=True)  # same seed, same games
    return True


@pytest.mark.parametrize("name", GAMES)
def test_search_policies_play_legal_games(name):
    if name in COMPILED_SEARCH:
        assert _search_check(name, 4)
        return
    import json
    import os
    import subprocess
    import sys

    code = _SEARCH_CHILD.format(path=[os.path.dirname(__file__)] + sys.path, games=dict(registry.GAMES), name=name)
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) is True


def _direct_counts(spec, tables, players, seed, index):
    """One random game played here, outside the runner's loop (its decisions made
    as `runner.play` makes a random seat's, epsilon 0): the game's own
    card_counts(state), seats x cards x counter kinds."""
    from balance.simcore import rng as R

    from tests.by_hand import play_by_hand

    state = play_by_hand(spec, tables, players, seed, index, lambda s, seat, o, n, rng: R.randint(rng, R.POLICY, n))
    return np.asarray(spec.kernels.card_counts(state))


@pytest.mark.parametrize("name", GAMES)
def test_reached_counts_equal_a_direct_count(name):
    """The runner's hand_stats and the cards part's reached columns equal a count,
    seat by seat, of the games played again here: a card reached a seat's hand
    when one of the spec's hand_counters is > 0 for it (docs/run-folder.md)."""
    from balance.analysis.chunk_frames import results_frames

    spec, data, tables, n_cards = _setup(name)
    assert set(spec.hand_counters) <= set(spec.card_counters) and spec.hand_counters, \
        f"{name} declares no hand_counters: its lift cannot be computed among the seat-games that drew the card"
    players, seed, n = spec.default_players, 11, 24
    r = Engine(spec, [resolve_policy(spec, "random")]).run(tables, players, seed, np.arange(n, dtype=np.int64),
                                                           n_cards)
    n_kinds = len(spec.card_counters)
    hand = np.array([c in spec.hand_counters for c in spec.card_counters])
    stats = np.zeros((n_cards, n_kinds, 3), np.int64)
    joint = np.zeros((n_cards, n_kinds, 2), np.int64)
    reached_total = np.zeros((n_cards, 2), np.int64)
    for g in range(n):
        counts = _direct_counts(spec, tables, players, seed, g)
        assert counts.shape == (players, n_cards, n_kinds)
        won = r.seat_out[g, :, COL_WON] > 0.5
        positive = counts > 0
        reached = positive[:, :, hand].any(axis=2)  # seats x cards
        stats[:, :, 0] += positive.sum(axis=0)
        stats[:, :, 1] += (positive & won[:, None, None]).sum(axis=0)
        stats[:, :, 2] += np.where(positive, counts, 0).sum(axis=0)
        both = positive & reached[:, :, None]
        joint[:, :, 0] += both.sum(axis=0)
        joint[:, :, 1] += (both & won[:, None, None]).sum(axis=0)
        reached_total[:, 0] += reached.sum(axis=0)
        reached_total[:, 1] += (reached & won[:, None]).sum(axis=0)
    assert np.array_equal(r.card_stats, stats), "the games played here are not the runner's"
    assert np.array_equal(r.hand_stats[:, :n_kinds], joint)
    assert np.array_equal(r.hand_stats[:, n_kinds], reached_total)
    assert reached_total[:, 0].sum() > 0 and (joint[:, :, 0] < reached_total[:, None, 0]).any(), \
        "a check that cannot fail: no card was ever drawn and not played"
    _, _, cards = results_frames(spec, r, "base", 0, ["random"] * players, list(data.card_names))
    cards = cards.sort("card_id", "counter")
    for row in cards.iter_rows(named=True):
        c, k = row["card_id"], spec.card_counters.index(row["counter"])
        assert (row["reached_games"], row["reached_wins"]) == tuple(reached_total[c])
        assert (row["reached_with"], row["reached_wins_with"]) == tuple(joint[c, k])
        assert (row["games_with"], row["wins_with"], row["total"]) == tuple(stats[c, k])


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_a_card_played_or_held_had_reached_the_hand(name, policy):
    """The hand counters count every way into a hand: every seat-game where a card was played or
    held at the end is one where it reached the hand (a way in that no hand counter counts, such as
    a card taken from a pile or passed by a partner, shows up here as a card played but not drawn)."""
    spec, data, tables, n_cards = _setup(name)
    e = Engine(spec, [resolve_policy(spec, policy)])
    for players in sorted({spec.min_players, spec.max_players}):
        r = e.run(tables, players, 13, np.arange(300, dtype=np.int64), n_cards)
        for counter in ("played", "held_at_end"):
            if counter not in spec.card_counters:
                continue
            k = spec.card_counters.index(counter)
            missed = np.flatnonzero(r.card_stats[:, k, 0] != r.hand_stats[:, k, 0])
            assert missed.size == 0, (
                f"{players} players: {', '.join(data.card_names[c] for c in missed[:5])} {counter} in "
                f"{int(r.card_stats[missed[0], k, 0] - r.hand_stats[missed[0], k, 0])} seat-games where no hand "
                f"counter ({', '.join(spec.hand_counters)}) counted it")


@pytest.mark.parametrize("name,way_in", [("overtime", "taken_from_discard"), ("four-day-weekend", "taken_from_row")])
def test_the_check_above_finds_a_way_into_the_hand_left_uncounted(name, way_in):
    """The check above can fail: with one way into the hand left out of hand_counters (Overtime's
    cards taken from the discard pile, Four Day Weekend's taken from a row), cards are played in
    seat-games where no hand counter counted them. (hand_kinds is an argument of the compiled loop.)"""
    import dataclasses

    spec, data, tables, n_cards = _setup(name)
    partial = dataclasses.replace(spec, hand_counters=tuple(c for c in spec.hand_counters if c != way_in))
    r = Engine(partial, [resolve_policy(partial, "random")]).run(tables, spec.max_players, 13,
                                                                 np.arange(300, dtype=np.int64), n_cards)
    k = spec.card_counters.index("played")
    assert (r.card_stats[:, k, 0] > r.hand_stats[:, k, 0]).any()


def _greedy_plays(spec, tables, state, rng, decisions, check=None):
    """Greedy plays every seat of `state` on (tests/by_hand.py's loop); `check(state)` after every step."""
    from tests.by_hand import play_on

    k = spec.kernels
    params = np.array(resolve_policy(spec, "greedy").params)
    play_on(spec, tables, state, rng, lambda s, seat, o, n, r: k.greedy(tables, s, seat, o, n, params, r),
            decisions, after=check)


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_plays_on_as_the_original(name):
    """`clone(state)` is the whole game (the search plays every iteration on one): played on with
    the same chance and the same choices it ends as the original does, with the same card counters,
    and it passes the game's invariant check after every step (a clone may leave out room the game
    does not use, never a part of the game)."""
    from balance.simcore import rng as R

    spec, data, tables, n_cards = _setup(name)
    k = spec.kernels
    columns = 2 + len(spec.game_columns), 2 + len(spec.seat_columns)

    def valid(state):
        assert k.check(tables, state) == 0

    def play_on(state, rng, check):
        _greedy_plays(spec, tables, state, rng, spec.max_decisions, valid if check else None)
        game_row, seat_rows = np.zeros(columns[0]), np.zeros((players, columns[1]))
        k.outcome(tables, state, game_row, seat_rows)
        return game_row, seat_rows, np.asarray(k.card_counts(state))

    players = spec.max_players
    for game, at in enumerate((0, 6, 25)):
        rng = R.new_streams(17, game)
        state = k.new_game(tables, np.int64(players), rng, np.zeros(0, np.int32))
        _greedy_plays(spec, tables, state, rng, at)  # greedy plays `at` decisions, then the game is cloned
        copy = k.clone(state)
        assert k.check(tables, copy) == 0
        rng2 = rng.copy()
        ended = play_on(state, rng, False)
        again = play_on(copy, rng2, True)
        for a, b in zip(ended, again):
            assert np.array_equal(a, b, equal_nan=True)


@pytest.mark.parametrize("name", RESTORING)
def test_a_restored_world_plays_on_as_a_clone(name):
    """`restore(world, state)` (the search's worlds, where the game has it) turns a clone of another
    state of the game (here: of another deal, at another point) into one that plays on as clone(state)
    would: the same chance and choices end it with the same result rows (card counters excepted: restore
    may leave them). Without `restore` the search clones every world."""
    from balance.simcore import rng as R

    spec, data, tables, n_cards = _setup(name)
    k = spec.kernels
    columns = 2 + len(spec.game_columns), 2 + len(spec.seat_columns)
    players = spec.max_players

    def ended(state, rng):
        _greedy_plays(spec, tables, state, rng, spec.max_decisions)
        game_row, seat_rows = np.zeros(columns[0]), np.zeros((players, columns[1]))
        k.outcome(tables, state, game_row, seat_rows)
        return game_row, seat_rows

    for game, (at, other_at) in enumerate(((0, 30), (6, 0), (25, 12))):
        rng = R.new_streams(17, game)
        state = k.new_game(tables, np.int64(players), rng, np.zeros(0, np.int32))
        _greedy_plays(spec, tables, state, rng, at)
        rng_o = R.new_streams(18, game)
        other = k.new_game(tables, np.int64(players), rng_o, np.zeros(0, np.int32))
        _greedy_plays(spec, tables, other, rng_o, other_at)
        world = k.clone(other)
        k.restore(world, state)
        rng2 = rng.copy()
        for a, b in zip(ended(k.clone(state), rng), ended(world, rng2)):
            assert np.array_equal(a, b, equal_nan=True), (game, at, other_at)


@pytest.mark.parametrize("name", GAMES)
def test_a_determinised_world_is_a_state_of_the_game(name):
    """`determinise` redraws what a seat cannot see; the world it makes must pass the game's own
    invariant check (its card counters too: a counter left as it was in the real game would tell a
    policy reading it what the other hands really hold) and stay valid as greedy plays it on."""
    from balance.simcore import rng as R

    spec, data, tables, n_cards = _setup(name)
    k = spec.kernels
    players = spec.max_players
    for game, at in enumerate((0, 6, 25)):
        rng = R.new_streams(23, game)
        state = k.new_game(tables, np.int64(players), rng, np.zeros(0, np.int32))
        _greedy_plays(spec, tables, state, rng, at)
        seat = k.to_move(state)
        if seat < 0:
            continue
        for world in range(3):
            w = k.clone(state)
            k.determinise(tables, w, seat, R.new_streams(31, world))

            def valid(state, game=game, world=world):
                code = k.check(tables, state)
                assert code == 0, (game, world, spec.invariant(code))

            valid(w)
            _greedy_plays(spec, tables, w, rng, 40, valid)


@pytest.mark.parametrize("name", GAMES)
def test_every_option_is_a_named_action(name):
    """The game's `action` kernel names every legal option of every state random games reach: a
    declared kind, a card id of the list or -1, a seat or -1, a choice >= -1; two legal options of one
    state are two different actions. And the runner's per-seat action counts (the seats part's
    `action_*` columns) are the kinds of the options each seat chose, one per decision."""
    from balance.simcore import rng as R

    from tests.by_hand import play_by_hand

    spec, data, tables, n_cards = _setup(name)
    k = spec.kernels
    assert k.action is not None and spec.action_kinds, f"{name} declares no action kernel and kinds"
    n_kinds = len(spec.action_kinds)
    for players in sorted({spec.min_players, spec.max_players}):
        seed, n = 19, 30
        r = Engine(spec, [resolve_policy(spec, "random")]).run(tables, players, seed, np.arange(n, dtype=np.int64),
                                                               n_cards)
        assert r.action_out.shape == (n, players, n_kinds)
        # every decision is counted once, for the seat that made it
        assert (r.action_out.sum(axis=(1, 2)) == r.game_out[:, COL_DECISIONS]).all()
        seen = np.zeros(n_kinds, np.int64)
        for g in range(n):
            chosen = np.zeros((players, n_kinds), np.int64)

            def choose(state, seat, options, m, rng):
                return R.randint(rng, R.POLICY, m)

            def look(state, rng, chosen=chosen):
                options = np.zeros(spec.max_options, np.int64)
                m = k.legal(tables, state, options)
                acts = [tuple(int(x) for x in k.action(tables, state, options[i])) for i in range(m)]
                for kind, card, target, choice in acts:
                    assert 0 <= kind < n_kinds and -1 <= card < n_cards and -1 <= target < players and choice >= -1, \
                        (name, acts)
                assert len(set(acts)) == m, f"{name}: two legal options are one action: {acts}"
                # the option random plays next (the same draw as `choose`, on a copy of the streams)
                j = 0 if m == 1 else R.randint(rng.copy(), R.POLICY, m)
                chosen[k.to_move(state), acts[j][0]] += 1

            play_by_hand(spec, tables, players, seed, g, choose, look)
            assert np.array_equal(r.action_out[g], chosen), (name, players, g)
            seen += chosen.sum(axis=0)
        assert seen.sum() > 0
