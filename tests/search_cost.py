"""What one iteration of the search costs, by part (too heavy for pytest; run by hand):

    python -m tests.search_cost --game G [--level L] [--states 200] [--reps 20] [--horizon H] [--policy-param K=V]

An iteration of `expert` (simcore/search.py) clones the state, redraws what
the seat cannot see (`determinise`), plays up to `horizon` decisions with the
rollout policy (greedy: `legal`, the policy, `step` per decision) until its
horizon or, with `turns` k > 0, the k-th hand-over of the move between the
seat and the others, and asks `value` for the end. This times each of those,
and one whole expert decision, on mid-game states (greedy
play of `--states` deals of seed 7 to a decision 5..29 into the game), one
thread, and prints microseconds per call. The rollout is timed twice, with
random and with greedy moves, so the difference per decision is what the
policy costs beside `legal` + `step` (random rollouts take other paths, so
that difference is a guide, not an exact split).

Each state is made inside the timed kernel and then used `--reps` times;
the time of making them alone is subtracted (a Python list of Overtime's
record states passed in cost about 10 us an item to walk, more than a clone).
"""
from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from balance.simcore import rng as R
from balance.simcore.slots import EXPERT


def make_bench(K, choose):
    new_game, to_move, legal, step = K.new_game, K.to_move, K.legal, K.step
    clone, determinise, value, greedy = K.clone, K.determinise, K.value, K.greedy

    def advance(tables, s, rng, buf, params, horizon, target, kind, seat, turns):
        """Play up to `horizon` decisions (kind 0 random, 1 greedy) or, with `turns` > 0, to the
        turns-th hand-over of the move between `seat` and the others (as the search's rollout);
        with `target` >= 0, stop before the first decision with a choice once `target` were made.
        Returns (decisions, stopped at the target)."""
        notrace = np.zeros(0, np.int32)
        k = 0
        seat_moving = True
        handovers = 0
        while k < horizon:
            q = to_move(s)
            if q < 0:
                break
            if (q == seat) != seat_moving:
                seat_moving = q == seat
                handovers += 1
                if turns > 0 and handovers >= turns:
                    break
            m = legal(tables, s, buf)
            if m == 0:
                break
            if 0 <= target <= k and m > 1:
                return k, True
            if m == 1:
                j = 0
            elif kind == 0:
                j = R.randint(rng, R.POLICY, m)
            else:
                j = greedy(tables, s, q, buf, m, params, rng)
            step(tables, s, buf[j], rng, notrace)
            k += 1
        return k, False

    advance = numba.njit(advance)

    def bench(tables, players, n_states, reps, what, horizon, turns, params, max_options):
        """what: 0 only make the states, 1 clone, 2 clone + determinise, 3 value,
        4 clone + determinise + a random rollout, 5 the same with greedy, 6 one
        whole expert decision (the search); returns (calls, rollout decisions, a checksum)."""
        buf = np.zeros(max_options, np.int64)
        opts = np.zeros(max_options, np.int64)
        notrace = np.zeros(0, np.int32)
        rng = np.zeros(R.N_STREAMS, np.uint64)
        r2 = np.zeros(R.N_STREAMS, np.uint64)
        calls = 0
        steps = 0
        acc = 0.0
        for g in range(n_states):
            R.seed_streams(rng, 7, g)
            s = new_game(tables, players, rng, notrace)
            _, ok = advance(tables, s, rng, buf, params, 1 << 30, 5 + (g * 13) % 25, 1, -1, 0)
            if not ok:
                continue
            seat = to_move(s)
            m = legal(tables, s, opts)
            for r in range(reps):
                if what == 0:
                    continue
                calls += 1
                R.seed_streams(r2, 11 + r, g)
                if what == 6:
                    acc += choose(tables, s, seat, opts, m, EXPERT, params, r2, buf)
                    continue
                if what == 3:
                    acc += value(tables, s, seat)
                    continue
                w = clone(s)
                if what == 1:
                    continue
                determinise(tables, w, seat, r2)
                if what == 2:
                    continue
                k, _ = advance(tables, w, r2, buf, params, horizon, -1, 0 if what == 4 else 1, seat, turns)
                steps += k
                acc += value(tables, w, seat)
        return calls, steps, acc

    return numba.njit(bench)  # a measuring tool: compiled per run, not cached


def main(argv=None) -> int:
    from balance.simcore import registry
    from balance.simcore.batch import Engine, resolve_policy
    from balance.simcore.params import resolve
    from balance.simcore.slots import P_HORIZON, P_TURNS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--level", type=int, default=None, help="Sick Days solo's level")
    ap.add_argument("--states", type=int, default=200)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--horizon", type=int, default=None, help="rollout decisions (default: expert's horizon)")
    ap.add_argument("--policy-param", action="append", default=[], metavar="K=V", help="expert's parameters")
    a = ap.parse_args(argv)
    pp = {k: float(v) for k, v in (x.split("=", 1) for x in a.policy_param)}
    spec = registry.get(a.game)
    over = {"level": a.level} if a.level is not None else {}
    tables = spec.load_data(resolve(spec, over)).tables
    policy = resolve_policy(spec, "expert", pp)
    params = np.array(policy.params, np.float64)
    choose = Engine(spec, [policy])._runner().choose
    horizon = a.horizon if a.horizon is not None else int(params[P_HORIZON])
    turns = int(params[P_TURNS])
    players = spec.default_players
    bench = make_bench(spec.kernels, choose)
    names = ("make the states", "clone", "clone + determinise", "value", "clone + determinise + random rollout",
             "clone + determinise + greedy rollout", "one expert decision (the search)")
    bench(tables, players, 2, 1, 6, horizon, turns, params, spec.max_options)  # compile or load
    took = []
    for what in range(7):
        t = time.perf_counter()
        calls, steps, _ = bench(tables, players, a.states, a.reps, what, horizon, turns, params, spec.max_options)
        took.append((time.perf_counter() - t, calls, steps))
    base = took[0][0]
    print(f"{a.game} ({players}p{'' if a.level is None else f', level {a.level}'}), {took[1][1]} calls a part, "
          f"rollouts of at most {horizon} decisions{f' or to hand-over {turns}' if turns else ''}, one thread:")
    for what in range(1, 7):
        dt, calls, steps = took[what]
        line = f"  {names[what]:40s} {(dt - base) / max(calls, 1) * 1e6:8.2f} us"
        if steps and what != 6:
            line += f"  ({steps / calls:.1f} decisions)"
        print(line)
    (d4, c4, s4), (d5, c5, s5), (d2, _, _), (d3, _, _) = took[4], took[5], took[2], took[3]
    roll = lambda d, s: (d - d2 - (d3 - base)) / max(s, 1) * 1e6  # noqa: E731
    print(f"  per rollout decision: legal + step (random) {roll(d4, s4):.3f} us, with greedy {roll(d5, s5):.3f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
