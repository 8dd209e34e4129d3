"""Where a greedy game's time goes, split without `perf` (a measuring tool, by hand):

    python -m tests.decision_split --game overtime -n 20000 [--rounds 5]

Three loops over the same games, alternated in rounds, one thread: `full` plays greedy (legal,
greedy, step: the batch loop's work, without its counters); `replay` steps the options `full`
chose, recorded, and calls `legal` before each (the engine and legal move generation, no policy);
`steps` steps them without `legal` (the engine alone). So greedy = full - replay, legal = replay -
steps. With --by-kind, one more replay per action kind asks greedy (its answer unused) at the
decisions whose chosen option was of that kind: greedy's cost there. The loop inlines the game's
kernels as the batch loop does, so `perf` sees one function; this splits it. (Session 25 measured
this way by hand; session 33 kept it.) Also prints the decisions a game by action kind (the game's
`action` kernel) with their mean option counts.
"""
from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from balance.simcore import rng as R
from balance.simcore.batch import policy_defaults


def make_loops(spec):
    k = spec.kernels
    new_game, to_move, legal, step, greedy, action = k.new_game, k.to_move, k.legal, k.step, k.greedy, k.action

    @numba.njit(nogil=True)
    def scratch(max_options):
        """What both loops play with: the option buffer, the streams, an empty trace."""
        return np.zeros(max_options, np.int64), np.zeros(R.N_STREAMS, np.uint64), np.zeros(0, np.int32)

    @numba.njit(nogil=True)
    def deal(tables, players, seed, g, rng, notrace):
        """Game g of the seed, its streams set."""
        R.seed_streams(rng, seed, g)
        return new_game(tables, players, rng, notrace)

    @numba.njit(nogil=True)
    def full(tables, players, seed, n, params, max_options, codes, starts, kinds_out, opts_out):
        options, rng, notrace = scratch(max_options)
        at = 0
        for g in range(n):
            s = deal(tables, players, seed, g, rng, notrace)
            starts[g] = at
            while to_move(s) >= 0:
                m = legal(tables, s, options)
                if m == 0:
                    break
                seat = to_move(s)
                j = 0 if m == 1 else greedy(tables, s, seat, options, m, params, rng)
                if at < codes.shape[0]:
                    codes[at] = options[j]
                    kinds_out[at] = action(tables, s, options[j])[0]
                    opts_out[at] = m
                at += 1
                step(tables, s, options[j], rng, notrace)
        starts[n] = at
        return at

    @numba.njit(nogil=True)
    def replay(tables, players, seed, n, max_options, codes, starts, with_legal, params, kinds_in, ask):
        """The recorded games again; with_legal: `legal` before every step; greedy asked (its answer
        unused) at the decisions whose action kind k has ask[k] != 0."""
        options, rng, notrace = scratch(max_options)
        total = 0
        for g in range(n):
            s = deal(tables, players, seed, g, rng, notrace)
            for d in range(starts[g], starts[g + 1]):
                if with_legal:
                    m = legal(tables, s, options)
                    total += m
                    if m > 1 and kinds_in[d] >= 0 and ask[kinds_in[d]] != 0:
                        total += greedy(tables, s, to_move(s), options, m, params, rng)
                step(tables, s, codes[d], rng, notrace)
        return total

    return full, replay


def main(argv=None) -> int:
    from balance.simcore import registry

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="overtime")
    ap.add_argument("-n", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--by-kind", action="store_true", help="also time greedy at each action kind's decisions")
    a = ap.parse_args(argv)
    spec = registry.get(a.game)
    data = spec.load_data()
    tables = data.tables
    players = np.int64(spec.default_players)
    params = np.array(policy_defaults(spec, "greedy"))
    full, replay = make_loops(spec)
    cap = a.n * 3000
    codes = np.zeros(cap, np.int64)
    kinds = np.zeros(cap, np.int64)
    opts = np.zeros(cap, np.int64)
    starts = np.zeros(a.n + 1, np.int64)
    seed = np.uint64(a.seed)
    # compile, and record the choices the replays step
    total = full(tables, players, seed, np.int64(a.n), params, np.int64(spec.max_options), codes, starts, kinds, opts)
    assert total <= cap, "more decisions than room to record them: lower -n"
    n_kinds = len(spec.action_kinds)
    none = np.zeros(n_kinds, np.int64)
    asks = {"replay": none, "steps": none}
    if a.by_kind:  # greedy asked at one action kind's decisions only
        for k in range(n_kinds):
            if (kinds[:total] == k).any():
                one = none.copy()
                one[k] = 1
                asks[spec.action_kinds[k]] = one
    replay(tables, players, seed, np.int64(1), np.int64(spec.max_options), codes, starts, True, params, kinds, none)
    times = {"full": [], **{k: [] for k in asks}}
    for r in range(a.rounds):
        order = list(times) if r % 2 == 0 else list(times)[::-1]
        for what in order:
            t0 = time.perf_counter()
            if what == "full":
                full(tables, players, seed, np.int64(a.n), params, np.int64(spec.max_options), codes, starts, kinds,
                     opts)
            else:
                replay(tables, players, seed, np.int64(a.n), np.int64(spec.max_options), codes, starts,
                       what != "steps", params, kinds, asks[what])
            times[what].append(time.perf_counter() - t0)
    med = {k: float(np.median(v)) for k, v in times.items()}
    per = 1e9 / total
    print(f"{spec.name} {players}p greedy, {a.n} games, {total / a.n:.1f} decisions/game, median of {a.rounds}:")
    print(f"  full   {med['full'] * per:6.0f} ns/decision  ({a.n / med['full']:,.0f} games/s)")
    print(f"  greedy {(med['full'] - med['replay']) * per:6.0f} ns  ({100 * (1 - med['replay'] / med['full']):.0f}%)")
    print(f"  legal  {(med['replay'] - med['steps']) * per:6.0f} ns  "
          f"({100 * (med['replay'] - med['steps']) / med['full']:.0f}%)")
    print(f"  engine {med['steps'] * per:6.0f} ns  ({100 * med['steps'] / med['full']:.0f}%; new_game included)")
    names = spec.action_kinds
    for k in range(len(names)):
        sel = kinds[:total] == k
        if sel.any():
            cost = ""
            if names[k] in med:  # greedy's time at these decisions: a replay asking it there, less the plain one
                spent = med[names[k]] - med["replay"]
                cost = f", greedy {spent * 1e9 / sel.sum():5.0f} ns each ({100 * spent / med['full']:.0f}% of a game)"
            print(f"  {names[k]:>16}: {sel.sum() / a.n:6.1f} a game, {opts[:total][sel].mean():5.1f} options{cost}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
