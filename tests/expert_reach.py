"""What `expert` reaches, measured (too heavy for pytest; run by hand):

    python -m tests.expert_reach solo [--levels 1,4,6,11] [-n 300] [--seed 7] [--policies greedy,lookahead,expert,oracle]
    python -m tests.expert_reach seats --game overtime [-n 400] [--seed 7]
    python -m tests.expert_reach speed --game G [-n 200]
    python -m tests.expert_reach budget --game G [--levels 1,4] [-n 1000] [--seed 7] --policy-param k=v ...
    python -m tests.expert_reach cost --game G [--levels 4] [-n 300] [--seed 7] --policy-param k=v ...
    python -m tests.expert_reach among --game G [--among lookahead] [-n 1000] [--seed 4] [--old k=v ...] --policy-param k=v ...
    python -m tests.expert_reach screen --game G [--among lookahead] [-n 400] [--seed 3] --try k=v[,k=v] ... [--policy-param k=v ...]
    (--policy-param k=v, repeatable, sets the parameters of solo's expert and oracle, of seats'
    challenger, of speed's expert, of the changed expert in budget and cost)

`solo`: Sick Days solo win rate per level and policy on the same deals (game
indices 0..n-1 of one seed), each with its 95% Wilson interval, and the paired
difference oracle - expert with its 95% interval (analysis.stats.paired_difference:
exact McNemar with its Newcombe interval, as `balance` reports paired wins).

`seats`: at the game's default player count, one seat of `expert` (then one
of `lookahead`) among `greedy` seats, the seat taking every position in turn
(n / players games each, the same deals in every run), against the greedy
seat in the same position on the same deals: the seat's win rate with its
interval, its fair share (1 / players), and the paired difference to greedy.

`speed`: games/s of all seats playing expert, on every core, from wall time
and from process CPU time (games per CPU-second x cores: what the cores give
when the machine is shared).

`budget`: a change of the search's defaults (the --policy-param values) judged
on the same deals against the defaults: Sick Days solo per level, expert and
oracle (which shares the search's parameters) with and without the change,
the paired differences and oracle - expert for both; a competitive game as
`seats` does it, one seat of each expert among greedy seats, paired.

`cost`: what the change saves in search time, paired per decision on the
same states in one process (expert deciding every decision of greedy games
both ways): the time ratio, and how often the two decide differently.

`among`: at the game's default player count, one expert seat (with the
--policy-param values) among `--among` seats, on deals 0..n-1 of the seed, the
expert seat at every position of every deal (as `simulate --rotate-seats`);
per deal its win share over the positions. Printed: its mean, minus 1 /
players, minus the other seats' mean in the same games, minus the table's fair
share (winners per game / players, as summary.json's `fair_share`: in
Overtime most games have no winner), each with its 95% interval over deals (`paired`: a paired t interval);
with --old, the same for an expert with those parameters and the paired
difference new - old. The evidence of issue 42 item 2 (docs/benchmarks.md,
session 30).

`screen`: `among`'s expert seat with the --policy-param values (the base), then
with each --try setting on top of them, on the same deals: each one's seat share,
minus 1 / players and minus the base, paired by deal. The search for a setting
to re-measure with `among` on fresh seeds (docs/benchmarks.md, session 34).
With `--policy P` both measure a seat of policy P instead of expert (`screen --policy
greedy --among greedy`: does a greedy weight make a stronger player?).

`seats` and `budget` also save each line's per-game wins under /tmp
(expert_reach_*.npy; expert_budget_*.npy: default then changed), to pool runs of several seeds.
"""
from __future__ import annotations

import argparse
import time

import numba
import numpy as np


def wilson(k: float, n: int) -> tuple[float, float, float]:
    """The rate k / n with its 95% Wilson interval (analysis.stats, checked under a true null)."""
    from balance.analysis.stats import wilson as interval

    lo, hi = interval(k, n)
    return k / n, lo, hi


def paired(a: np.ndarray, b, binary: bool | None = None) -> tuple[float, float, float]:
    """Mean of a - b over games paired by index (b may be a number), with its 95% interval:
    analysis.stats.paired_difference (exact McNemar with its Newcombe interval for 0/1 wins, a paired t
    interval otherwise, or as `binary` says), the tests `balance` itself uses, checked under a true null."""
    from balance.analysis.stats import paired_difference

    a = np.asarray(a, float)
    r = paired_difference(np.broadcast_to(np.asarray(b, float), a.shape), a, binary=binary)
    nan = float("nan")  # too few games for an estimate or an interval
    return tuple(nan if x is None else x for x in (r["diff"], *r["ci"]))


def _setup(game: str, over: dict):
    from balance.simcore import registry
    from balance.simcore.params import resolve

    spec = registry.get(game)
    data = spec.load_data(resolve(spec, over))
    return spec, data.tables, len(data.card_names)


def play(game: str, seats: list, n: int, seed: int, over: dict | None = None, players: int | None = None,
         first: int = 0, pp: dict | None = None):
    """Games first..first+n-1 of `seed`, one policy per seat: a name (with `pp`, the challenger's parameters,
    unless it is greedy) or a (name, parameters) pair."""
    from balance.simcore.batch import Engine, resolve_policy

    spec, tables, n_cards = _setup(game, over or {})
    seats = [x if isinstance(x, tuple) else (x, None if x == "greedy" else pp) for x in seats]
    e = Engine(spec, [resolve_policy(spec, name, params) for name, params in seats])
    p = players or spec.default_players
    return e.run(tables, p, seed, np.arange(first, first + n, dtype=np.int64), n_cards)


def solo(levels: list[int], policies: list[str], n: int, seed: int, pp: dict | None = None) -> None:
    for level in levels:
        wins = {}
        for pol in policies:
            t = time.time()
            r = play("sickdays-solo", [pol], n, seed, {"level": level}, players=1,
                     pp=pp if pol in ("expert", "oracle") else None)
            wins[pol] = r.seat_out[:, 0, 0]
            p, lo, hi = wilson(wins[pol].sum(), n)
            print(f"level {level:2d} {pol:9s} win {p:6.1%} [{lo:6.1%}, {hi:6.1%}] n={n} seed={seed} "
                  f"({time.time() - t:.0f} s)", flush=True)
        if "oracle" in wins and "expert" in wins:
            m, lo, hi = paired(wins["oracle"], wins["expert"])
            print(f"level {level:2d} oracle - expert {m * 100:+.1f} points [{lo * 100:+.1f}, {hi * 100:+.1f}] (paired, same deals)",
                  flush=True)


def one_seat_wins(game: str, policy: str, n: int, seed: int, pp: dict | None = None) -> np.ndarray:
    """Wins (0/1 per game) of one `policy` seat among greedy seats, moved through every seat: the
    seat s plays games s*n/P .. (s+1)*n/P - 1, so any two policies meet the same deals."""
    from balance.simcore import registry

    P = registry.get(game).default_players
    per = max(1, n // P)
    won = []
    for s in range(P):
        pols = ["greedy"] * P
        pols[s] = policy
        won.append(play(game, pols, per, seed, first=s * per, pp=pp).seat_out[:, s, 0])
    return np.concatenate(won)


def seats(game: str, n: int, seed: int, challengers: list[str], pp: dict | None = None) -> None:
    from balance.simcore import registry

    P = registry.get(game).default_players
    g_all = one_seat_wins(game, "greedy", n, seed)
    p, lo, hi = wilson(g_all.sum(), len(g_all))
    print(f"{game} {P}p greedy seat (every position): win {p:.1%} [{lo:.1%}, {hi:.1%}] n={len(g_all)}; "
          f"fair share {1 / P:.1%}", flush=True)
    for ch in challengers:
        t = time.time()
        w = one_seat_wins(game, ch, n, seed, pp)
        p, lo, hi = wilson(w.sum(), len(w))
        m, mlo, mhi = paired(w, g_all)
        print(f"{game} {P}p one {ch} seat among greedy: win {p:.1%} [{lo:.1%}, {hi:.1%}] n={len(w)} seed={seed}; "
              f"vs the greedy seat on the same deals {m * 100:+.1f} points [{mlo * 100:+.1f}, {mhi * 100:+.1f}] "
              f"({time.time() - t:.0f} s)", flush=True)
        np.save(f"/tmp/expert_reach_{game}_{ch}_{seed}_{n}.npy", w)


def parameters(items) -> dict:
    """Policy parameters from K=V strings (--policy-param, --old, a --try or --among's list)."""
    return {k: float(v) for k, v in (x.split("=", 1) for x in items)}


def among_shares(game: str, among: str, n: int, seed: int, pp: dict | None,
                 policy: str = "expert") -> tuple[np.ndarray, np.ndarray]:
    """Per deal, the `policy` seat's win share over every position, and the other seats' mean share."""
    from balance.simcore import registry

    P = registry.get(game).default_players
    name, _, given = among.partition(":")  # "expert:take_threshold=4" : the other seats' parameters
    theirs = parameters(given.split(",")) if given else None
    me = np.zeros(n)
    others = np.zeros(n)
    for s in range(P):
        seats = [(name, theirs)] * P
        seats[s] = (policy, pp)
        won = play(game, seats, n, seed).seat_out[:, :, 0].astype(float)
        me += won[:, s] / P
        others += (won.sum(axis=1) - won[:, s]) / (P - 1) / P
    return me, others


def _pts(a: np.ndarray, b) -> str:
    """a - b in points, paired by deal (per-deal shares: a t interval, `paired`)."""
    m, lo, hi = paired(a, b, binary=False)
    return f"{m * 100:+.2f} [{lo * 100:+.2f}, {hi * 100:+.2f}]"


def among(game: str, among_policy: str, n: int, seed: int, pp: dict | None, old: dict | None,
          policy: str = "expert") -> None:
    from balance.simcore import registry

    P = registry.get(game).default_players
    lines = [("new", pp)] + ([("old", old)] if old is not None else [])
    got = {}
    for name, params in lines:
        t = time.time()
        me, others = among_shares(game, among_policy, n, seed, params, policy)
        got[name] = me
        fair = (me + (P - 1) * others) / P
        print(f"{game} {P}p one {policy} seat ({name}: {params or 'defaults'}) among {among_policy}, {n} deals x {P} "
              f"positions, seed {seed}: {me.mean():.2%}; - 1/{P} {_pts(me, 1 / P)}; - the other seats {_pts(me, others)} "
              f"(they win {others.mean():.2%}); - the table's fair share {_pts(me, fair)} ({time.time() - t:.0f} s)",
              flush=True)
    if old is not None:
        print(f"  new - old, paired by deal: {_pts(got['new'], got['old'])}", flush=True)


def screen(game: str, among_policy: str, n: int, seed: int, base: dict | None, tries: list[dict],
           policy: str = "expert") -> None:
    from balance.simcore import registry

    P = registry.get(game).default_players
    t = time.time()
    ref, _ = among_shares(game, among_policy, n, seed, base, policy)
    print(f"{game} {P}p one {policy} seat among {among_policy}, {n} deals x {P} positions, seed {seed}; "
          f"base {base or 'defaults'}: {ref.mean():.2%}, - 1/{P} {_pts(ref, 1 / P)} ({time.time() - t:.0f} s)", flush=True)
    for change in tries:
        t = time.time()
        me, _ = among_shares(game, among_policy, n, seed, {**(base or {}), **change}, policy)
        print(f"  {change}: {me.mean():.2%}, - 1/{P} {_pts(me, 1 / P)}; - base {_pts(me, ref)} "
              f"({time.time() - t:.0f} s)", flush=True)


def speed(game: str, n: int, seed: int, policy: str = "expert", pp: dict | None = None) -> None:
    from balance.simcore import registry

    spec = registry.get(game)
    play(game, [policy], 2, seed, pp=pp)  # compile or load
    t, c = time.time(), time.process_time()
    r = play(game, [policy], n, seed, pp=pp)
    wall, cpu = time.time() - t, time.process_time() - c
    cores = numba.config.NUMBA_NUM_THREADS
    print(f"{game} {spec.default_players}p all seats {policy}: {n / wall:.1f} games/s wall, "
          f"{cores * n / cpu:.1f} games/s from CPU time on {cores} cores, "
          f"{r.game_out[:, 1].mean():.1f} decisions/game, n={n}", flush=True)


def cost(game: str, n: int, seed: int, pp: dict, level: int | None = None) -> None:
    """The search time a change of expert's parameters saves, on the same states in one process: at every
    decision with a choice of `n` greedy games (tests/by_hand.py's loop), expert decides with the defaults
    and with `pp` (the same stream, the order of the two alternating), each timed; prints the ratio of the
    summed times and how often the two chose differently. Paired per decision, so the machine's drift
    cancels."""
    from balance.simcore.batch import Engine, resolve_policy
    from balance.simcore.slots import EXPERT
    from tests.by_hand import play_by_hand

    spec, tables, _ = _setup(game, {} if level is None else {"level": level})
    P = 1 if spec.name == "sickdays-solo" else spec.default_players
    k = spec.kernels
    choose = Engine(spec, [resolve_policy(spec, "expert")] * P)._runner().choose
    greedy = np.array(resolve_policy(spec, "greedy").params)
    vec = {"default": np.array(resolve_policy(spec, "expert").params),
           "changed": np.array(resolve_policy(spec, "expert", pp).params)}
    buf = np.zeros(spec.max_options, np.int64)
    spent = {"default": 0.0, "changed": 0.0}
    seen = {"decisions": 0, "differ": 0}

    def timed(state, seat, opts, m, rng):
        picks = {}
        for label in (("default", "changed") if seen["decisions"] % 2 == 0 else ("changed", "default")):
            if seen["decisions"] == 0:
                choose(tables, state, seat, opts, m, EXPERT, vec[label], rng.copy(), buf)  # compile or load
            r2 = rng.copy()
            t = time.perf_counter()
            picks[label] = choose(tables, state, seat, opts, m, EXPERT, vec[label], r2, buf)
            spent[label] += time.perf_counter() - t
        seen["decisions"] += 1
        seen["differ"] += picks["default"] != picks["changed"]
        return k.greedy(tables, state, seat, opts, m, greedy, rng)  # greedy plays the game on

    for gi in range(n):
        play_by_hand(spec, tables, P, seed, gi, timed)
    d = seen["decisions"]
    print(f"{game} expert {pp}: {spent['default'] / spent['changed']:.3f} times as fast as the defaults "
          f"({spent['default']:.2f} s against {spent['changed']:.2f} s of search) on {d} decisions of {n} "
          f"greedy games (seed {seed}); a different choice at {seen['differ'] / max(1, d):.2%} of them", flush=True)


def budget(game: str, levels: list[int], n: int, seed: int, pp: dict) -> None:
    """Expert (and oracle where there is one) with the changed parameters `pp` against the defaults."""
    from balance.simcore import registry

    spec = registry.get(game)
    if spec.name != "sickdays-solo":
        P = spec.default_players
        won = {}
        for label, params in (("default", None), ("changed", pp)):
            won[label] = one_seat_wins(game, "expert", n, seed, params)
            p, lo, hi = wilson(won[label].sum(), len(won[label]))
            print(f"{game} {P}p one expert seat among greedy, {label}: win {p:.1%} [{lo:.1%}, {hi:.1%}] "
                  f"n={len(won[label])} seed={seed}", flush=True)
        m, lo, hi = paired(won["changed"], won["default"])
        print(f"{game} changed - default {m * 100:+.1f} points [{lo * 100:+.1f}, {hi * 100:+.1f}] (paired) {pp}",
              flush=True)
        np.save(f"/tmp/expert_budget_{game}_{seed}_{n}.npy", np.stack([won["default"], won["changed"]]))
        return
    for level in levels:
        won = {}
        for pol in ("expert", "oracle"):
            for label, params in (("default", None), ("changed", pp)):
                r = play(game, [pol], n, seed, {"level": level}, players=1, pp=params)
                won[pol, label] = r.seat_out[:, 0, 0]
        for label in ("default", "changed"):
            e, o = won["expert", label], won["oracle", label]
            p, lo, hi = wilson(e.sum(), n)
            m, mlo, mhi = paired(o, e)
            print(f"level {level:2d} {label:8s} expert {p:6.1%} [{lo:6.1%}, {hi:6.1%}] oracle {o.mean():6.1%} "
                  f"oracle - expert {m * 100:+.1f} [{mlo * 100:+.1f}, {mhi * 100:+.1f}] n={n} seed={seed}", flush=True)
        m, lo, hi = paired(won["expert", "changed"], won["expert", "default"])
        mo, olo, ohi = paired(won["oracle", "changed"], won["oracle", "default"])
        print(f"level {level:2d} changed - default: expert {m * 100:+.1f} [{lo * 100:+.1f}, {hi * 100:+.1f}], "
              f"oracle {mo * 100:+.1f} [{olo * 100:+.1f}, {ohi * 100:+.1f}] (paired) {pp}", flush=True)
        np.save(f"/tmp/expert_budget_L{level}_{seed}_{n}.npy",
                np.stack([won[k] for k in (("expert", "default"), ("expert", "changed"), ("oracle", "default"),
                                             ("oracle", "changed"))]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("solo", "seats", "speed", "budget", "cost", "among", "screen"))
    ap.add_argument("--among", default="lookahead",
                    help="among, screen: the other seats' policy, with parameters as policy:k=v,k=v")
    ap.add_argument("--old", action="append", default=None, metavar="K=V",
                    help="among: the old expert's parameters (repeatable; 'defaults' for none)")
    ap.add_argument("--game", default="sickdays-solo")
    ap.add_argument("--levels", default="1,2,3,4,5")
    ap.add_argument("--policies", default="greedy,lookahead,expert,oracle")
    ap.add_argument("--challengers", default="expert,lookahead")
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--policy-param", action="append", default=[], metavar="K=V")
    ap.add_argument("--policy", default="expert",
                    help="speed: the policy every seat plays; among, screen: the one seat's policy")
    ap.add_argument("--try", dest="tries", action="append", default=[], metavar="K=V[,K=V]",
                    help="screen: one setting tried on top of the --policy-param values (repeatable)")
    a = ap.parse_args(argv)
    pp = parameters(a.policy_param) or None
    if a.what == "solo":
        solo([int(x) for x in a.levels.split(",")], a.policies.split(","), a.n, a.seed, pp)
    elif a.what == "seats":
        seats(a.game, a.n, a.seed, a.challengers.split(","), pp)
    elif a.what == "budget":
        budget(a.game, [int(x) for x in a.levels.split(",")], a.n, a.seed, pp or {})
    elif a.what == "among":
        old = None if a.old is None else parameters(x for x in a.old if x != "defaults")
        among(a.game, a.among, a.n, a.seed, pp, old, a.policy)
    elif a.what == "screen":
        tries = [parameters(x.split(",")) for x in a.tries]
        screen(a.game, a.among, a.n, a.seed, pp, tries, a.policy)
    elif a.what == "cost":
        cost(a.game, a.n, a.seed, pp or {}, int(a.levels.split(",")[0]) if a.game == "sickdays-solo" else None)
    else:
        speed(a.game, a.n, a.seed, a.policy, pp=pp)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
