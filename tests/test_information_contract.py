"""The information contract, for every registered game (simcore/visibility.py).

Each game declares what a seat cannot see (`<game package>.knowledge.VISIBILITY`). From states
reached by random play, this builds pairs of states that differ only there (the declaration's
pools of hidden cards, permuted: other hands dealt among the unseen cards, every deck reordered,
the seat's own face-down deck included) and checks that

* the seat has the same options in both (else the declaration hides something the seat sees);
* every built-in policy of the seat (`oracle` excepted: told everything by design) makes the same
  choice in both with the same policy stream: what it cannot see does not move it. `determinise`
  makes the search's worlds from what the seat has seen and the stream only, so this holds choice
  by choice, not only in distribution;
* `determinise` redraws every pool (the seat's own deck order included) and keeps the seat's
  options.

A game added to the registry gets these tests with no code here; one without a declaration fails.
The helpers are shown to fail: on a policy told the deck (oracle) and on a determinise that
redraws nothing.
"""
from __future__ import annotations

import numpy as np
import pytest

from balance.simcore import registry
from balance.simcore import rng as R
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.errors import BalanceError
from balance.simcore.params import resolve
from balance.simcore.runner import GREEDY, RANDOM
from balance.simcore.slots import P_EPSILON
from balance.simcore.visibility import declared

GAMES = registry.names()
# small budgets: the contract is about what a policy reads, not how well it plays
BUDGETS = {"lookahead": {"rollouts": 2, "horizon": 8}, "expert": {"iterations": 6, "horizon": 6},
           "oracle": {"iterations": 6, "horizon": 6}}
STREAMS = 2  # policy streams per state and policy
MOVES = (0, 2, 5, 9, 14, 22, 35)  # random decisions before a state is taken, in each of GAMES_PER_COUNT games
GAMES_PER_COUNT = 2
NOTRACE = np.zeros(0, np.int32)


def _setup(name):
    spec = registry.get(name)
    tables = spec.load_data(resolve(spec, {})).tables
    return spec, declared(name), tables


def _states(spec, tables, seed=7):
    """(players, state, seat, options, n) at decisions with a choice, reached by random play."""
    k = spec.kernels
    opts = np.zeros(spec.max_options, np.int64)
    for players in sorted({spec.default_players, spec.max_players}):
        for game in range(GAMES_PER_COUNT):
            rng = R.new_streams(seed + players, game)
            s = k.new_game(tables, np.int64(players), rng, NOTRACE)
            done = 0
            for at in MOVES:
                while done < at and k.to_move(s) >= 0:
                    n = k.legal(tables, s, opts)
                    if n == 0:
                        break
                    k.step(tables, s, opts[R.randint(rng, R.POLICY, n)], rng, NOTRACE)
                    done += 1
                seat = k.to_move(s)
                if seat < 0:
                    break
                n = k.legal(tables, s, opts)
                if n >= 2:
                    yield players, k.clone(s), seat, opts[:n].copy(), n


def pair_of(spec, vis, tables, state, seat, seed):
    """A clone of `state` with every pool of `seat`'s hidden cards permuted (a permutation that
    moves something where one exists); None when no pool can change."""
    other = spec.kernels.clone(state)
    pools = vis.pools(tables, other, seat)
    g = np.random.default_rng(seed)
    changed = False
    for pool in pools:
        if np.unique(pool.cards).size < 2:
            continue
        for _ in range(20):
            p = g.permutation(pool.cards)
            if not np.array_equal(p, pool.cards):
                break
        changed |= not np.array_equal(p, pool.cards)
        pool.cards[:] = p
    if not changed:
        return None
    vis.place(tables, other, seat, pools)
    return other


def _options(spec, tables, state):
    opts = np.zeros(spec.max_options, np.int64)
    return opts[:spec.kernels.legal(tables, state, opts)].copy()


class Chooser:
    """A policy's choice at a decision, with the policy streams of `stream`: random and greedy as
    the game loop decides them, the others through the loop's `choose`."""

    def __init__(self, spec, name):
        self.spec = spec
        self.name = name
        self.policy = resolve_policy(spec, name, BUDGETS.get(name))
        self.params = np.array(self.policy.params, np.float64)
        self.choose = None if self.policy.kind in (RANDOM, GREEDY) else Engine(spec, [self.policy])._runner().choose
        self.buf = np.zeros(spec.max_options, np.int64)

    def __call__(self, tables, state, seat, options, n, stream):
        rng = R.new_streams(stream, 11)
        if self.choose is not None:
            return int(self.choose(tables, state, seat, options, n, self.policy.kind, self.params, rng, self.buf))
        if self.params[P_EPSILON] > 0.0 and R.uniform(rng, R.POLICY) < self.params[P_EPSILON]:
            return int(R.randint(rng, R.POLICY, n))
        if self.policy.kind == RANDOM:
            return int(R.randint(rng, R.POLICY, n))
        return int(self.spec.kernels.greedy(tables, state, seat, options, n, self.params, rng))


def contract_breaches(spec, vis, tables, choosers, seed=0):
    """Pairs tried, and every (policy, players, seat, stream, choice, choice on the pair) where a
    policy chose differently on two states that differ only in what its seat cannot see."""
    k = spec.kernels
    pairs = 0
    breaches = []
    for i, (players, s, seat, opts, n) in enumerate(_states(spec, tables)):
        other = pair_of(spec, vis, tables, s, seat, seed + i)
        if other is None:
            continue
        pairs += 1
        if k.check is not None:
            assert k.check(tables, other) == 0, (spec.name, players, i, spec.invariant(k.check(tables, other)))
        assert k.to_move(other) == seat
        assert np.array_equal(_options(spec, tables, other), opts), \
            f"{spec.name}: the seat's options differ on a pair: its declaration hides something the seat sees"
        for ch in choosers:
            for stream in range(STREAMS):
                a = ch(tables, s, seat, opts, n, 100 * i + stream)
                b = ch(tables, other, seat, opts, n, 100 * i + stream)
                if a != b:
                    breaches.append((ch.name, players, seat, stream, a, b))
    return pairs, breaches


def unredrawn_pools(spec, vis, tables, determinise, worlds=8):
    """Pools (by name) of a state that `determinise` never changed in `worlds` worlds although
    they hold two different cards, and states where a world changed the seat's options."""
    k = spec.kernels
    stuck = set()
    moved = 0
    for players, s, seat, opts, n in _states(spec, tables):
        real = vis.pools(tables, s, seat)
        seen = [np.unique(p.cards).size < 2 for p in real]
        for w in range(worlds):
            world = k.clone(s)
            determinise(tables, world, seat, R.new_streams(w, 13))
            moved += not np.array_equal(_options(spec, tables, world), opts)
            for j, p in enumerate(vis.pools(tables, world, seat)):
                seen[j] |= not np.array_equal(p.cards, real[j].cards)
        stuck |= {f"{players}p: {p.name}" for p, ok in zip(real, seen) if not ok}
    return sorted(stuck), moved


@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_what_a_seat_cannot_see(name):
    vis = declared(name)
    spec = registry.get(name)
    assert all(h.zone and h.whose and h.what and h.rule for h in vis.hidden)
    assert set(vis.perfect_information) <= {p.name for p in spec.policies} | {"oracle"}


def test_a_game_without_a_declaration_fails_the_contract(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "no-declaration", "balance.simcore.rng")  # a module with no knowledge beside it
    monkeypatch.setattr(registry, "get", lambda name: None)
    with pytest.raises(BalanceError, match="no information declaration"):
        declared("no-declaration")


@pytest.mark.parametrize("name", GAMES)
def test_determinise_redraws_every_pool_the_seat_cannot_see(name):
    spec, vis, tables = _setup(name)
    stuck, moved = unredrawn_pools(spec, vis, tables, spec.kernels.determinise)
    assert not stuck, f"{name}: determinise keeps what the seat cannot see: {stuck}"
    assert moved == 0, f"{name}: determinise changed the seat's options in {moved} worlds"


@pytest.mark.parametrize("name", GAMES)
def test_every_policy_chooses_alike_on_states_that_differ_only_in_what_its_seat_cannot_see(name):
    spec, vis, tables = _setup(name)
    choosers = [Chooser(spec, p.name) for p in spec.policies
                if not p.refused and p.name not in vis.perfect_information]
    assert {"random", "greedy"} <= {c.name for c in choosers}
    pairs, breaches = contract_breaches(spec, vis, tables, choosers)
    assert pairs >= 8, f"{name}: only {pairs} pairs of states differ in what the seat cannot see"
    assert not breaches, f"{name}: a policy read what its seat cannot see (policy, players, seat, stream, " \
                         f"choice, choice on the pair): {breaches[:8]}"


def test_the_contract_catches_a_policy_told_the_deck():
    # oracle (Sick Days solo) is told the deck order: on the same pairs it chooses differently
    spec, vis, tables = _setup("sickdays-solo")
    assert "oracle" in vis.perfect_information
    pairs, breaches = contract_breaches(spec, vis, tables, [Chooser(spec, "oracle")])
    assert pairs >= 8 and breaches


def test_the_contract_catches_a_determinise_that_keeps_a_deck():
    # a determinise that redraws nothing leaves every pool as it was: each one is named
    spec, vis, tables = _setup("youre-fired")

    def keeps_everything(tables, state, seat, rng):
        pass

    stuck, _ = unredrawn_pools(spec, vis, tables, keeps_everything, worlds=2)
    assert any("own deck" in s for s in stuck) and any("hand and deck" in s for s in stuck)
