"""The one game loop, written once, and the policies every game shares.

A game is a state machine of decisions (see `spec.Kernels`). `make_runner`
closes the loop below over one game's kernels (and optionally a user policy),
for the set of policy kinds a run uses (a greedy-only loop compiles no
lookahead or search code), and returns a `Runner` of jitted entry points:

    run_games(tables, n_players, seed, game_indices, kinds, params,
              max_decisions, max_options, checking, game_out, seat_out,
              action_out, card_stats, hand_kinds, hand_stats, violations)
        plays every game of `game_indices` (in numba's thread count of
        Python threads over the nogil `run_range`), writing one row of
        `game_out` (float64, n x G) and of `seat_out` (n x seats x S) per
        game, counting each seat's chosen actions by kind into `action_out`
        (int32, n x seats x action kinds; the game's `action` kernel names
        each decision's option), and adding per-card counters into `card_stats`
        (threads x cards x kinds x 3: games with, wins with, total) and,
        among the seat-games where the card reached the hand (`hand_kinds`,
        int64 per kind: 1 for the spec's hand_counters), into `hand_stats`
        (threads x cards x kinds + 1 x 2, HS_* below).
        With `checking` != 0 the game's `check` kernel runs after the deal
        and after every step; the first broken invariant stops that game
        and is written to its row of `violations` (code, decision number).
    play_traced(tables, n_players, seed, game_index, kinds, params,
                max_decisions, max_options, checking, trace, game_row,
                seat_rows, actions, violation)
        plays one game and fills its event trace (for `balance replay`).
    choose(tables, state, seat, options, n, kind, params, rng, buf)
        one decision of a lookahead, expert, oracle or user seat.

Policies: `random`, the game's `greedy`, `lookahead` (below) and `expert` /
`oracle` (information-set search, `simcore/search.py`), all through the
game's kernels only.

Game i draws everything from the streams of (seed, i), so the same game is
the same whichever chunk, thread or machine plays it.
"""
from typing import Any, NamedTuple

import numba
import numpy as np

from . import rng as R
from .jit import inlined_copy, njit_cached
from .search import leads, make_search, make_worlds, world_streams
from .trace import EV_CAP, emit

# Policy kinds and the slots of a seat's parameter vector: simcore/slots.py.
from .slots import (  # noqa: E402,F401  (the runner's names, as every caller knows them)
    BUILTIN_KINDS, EXPERT, GREEDY, LOOKAHEAD, N_POLICY_PARAMS, ORACLE, P_CONFIDENCE, P_EPSILON, P_GAME, P_HORIZON,
    P_ROLLOUT_KIND, P_ROLLOUTS, RANDOM, USER,
)

# Columns the runner owns. game_out: END_REASON, DECISIONS, then the game's.
# seat_out: WON, SCORE, then the game's.
COL_END_REASON = 0
COL_DECISIONS = 1
COL_WON = 0
COL_SCORE = 1
# End reasons the runner owns; a game's own reasons start at END_GAME.
END_CAP = 0
END_NO_MOVE = 1
END_GAME = 2

# card_stats last axis
CS_GAMES = 0
CS_WINS = 1
CS_TOTAL = 2
# hand_stats (threads x cards x kinds + 1 x 2): [c, k] for counter k, the seat-games where card c
# reached the hand (a hand counter > 0) and counter k was > 0, and the wins among them;
# [c, kinds] the seat-games where c reached the hand (whatever the counters) and their wins.
# Reached with counter k = 0 is [c, kinds] - [c, k].
HS_GAMES = 0
HS_WINS = 1

BAD_CHOICE = -1  # written as the decision count when a policy chose an illegal option


class Runner(NamedTuple):
    """What `make_runner` builds: the batch loop, the traced single game, and
    `choose(tables, state, seat, options, n, kind, params, rng, buf)` (a policy's
    decision for a kind other than random and greedy, for tests)."""

    run_games: Any
    play_traced: Any
    choose: Any
    run_range: Any  # the compiled loop run_games runs in each thread
    run_range_checked: Any  # the same with the game's invariant check after every step (--check)


PIECES_PER_THREAD = 4  # a thread's first piece is 1/4 of its share of what is left; pieces shrink from there
SMALLEST_PIECE = 256  # ... to 1/256 of a thread's share of the batch (at least one game)


def pieces(n: int, threads: int) -> list[tuple[int, int]]:
    """Games 1..n-1 cut into pieces that shrink as the batch goes (guided
    scheduling): each is 1 / (threads x PIECES_PER_THREAD) of the games left,
    but at least 1 / (threads x SMALLEST_PIECE) of the batch, so the threads
    end within a small piece of each other while a batch of fast games is
    still a few hundred calls. (Game 0 plays first, alone: `run_in_threads`.)"""
    least = max(1, n // (threads * SMALLEST_PIECE))
    out = []
    lo = 1
    while lo < n:
        size = max(least, -(-(n - lo) // (threads * PIECES_PER_THREAD)))
        out.append((lo, min(n, lo + size)))
        lo += size
    return out


def run_in_threads(run_range, n: int, slots: int, head: tuple, tail: tuple) -> None:
    """Play games 0..n-1 as pieces `run_range(*head, lo, hi, t, *tail)` on numba's
    current thread count (at most `slots`, the rows of card_stats): each thread
    t adds its card counters into row t, so the sums do not depend on which
    thread played what, and every game writes only its own rows.

    Python threads over a `nogil` kernel, not numba's `prange`: a parallel
    kernel is compiled twice more (the gufunc that holds the whole inlined
    game, and its launcher), which was half of a game's cold compile
    (docs/benchmarks.md, session 10)."""
    threads = max(1, min(slots, numba.get_num_threads(), n))
    if numba.config.DISABLE_JIT:
        threads = 1  # plain Python holds the GIL: threads would only interleave
    if threads == 1:
        size = max(1, -(-n // PIECES_PER_THREAD))
        for lo in range(0, n, size):
            run_range(*head, lo, min(n, lo + size), 0, *tail)
        return
    # Game 0 plays here, alone: the kernel is compiled (or loaded from the cache) before any other
    # thread calls it, so no two threads ever meet a dispatcher's first call. (Until session 16 this
    # first piece was 1/16 of the batch, played while the other thread waited: ~6% of a run's wall.)
    run_range(*head, 0, 1, 0, *tail)
    import queue
    from concurrent.futures import ThreadPoolExecutor

    todo: queue.SimpleQueue = queue.SimpleQueue()
    for piece in pieces(n, threads):
        todo.put(piece)

    def worker(t: int) -> None:
        while True:
            try:
                lo, hi = todo.get_nowait()
            except queue.Empty:
                return
            run_range(*head, lo, hi, t, *tail)

    with ThreadPoolExecutor(threads, thread_name_prefix="balance-games") as pool:
        for f in [pool.submit(worker, t) for t in range(threads)]:
            f.result()


def runner_kinds(kinds=None) -> frozenset:
    """The policy kinds a loop is compiled for: the given ones (None: every
    built-in kind) plus random and greedy, which every loop plays (epsilon's
    random moves; greedy inside lookahead and the search). A loop compiled
    for a smaller set holds no code of the kinds outside it."""
    ks = BUILTIN_KINDS if kinds is None else frozenset(int(k) for k in kinds)
    return ks | {RANDOM, GREEDY}


def kinds_key(kinds) -> str:
    """The set in a dispatcher's name (and so in its cache uuid): `k0-1-4`."""
    return "k" + "-".join(str(k) for k in sorted(runner_kinds(kinds)))


def make_runner(name: str, kernels, user_policy=None, user_key: str = "", kinds=None):
    """Build the jitted loop for one game (and optional user policy), for the
    policy kinds `kinds` (see `runner_kinds`): `choose` reaches only those, so
    a greedy-only loop compiles no lookahead or search code.

    The loop is cached beside the game's own kernels (same source key); the
    kinds are part of every dispatcher's name and so of its cache uuid."""
    new_game, to_move, legal, step, outcome = kernels.new_game, kernels.to_move, kernels.legal, kernels.step, kernels.outcome
    clone, determinise, value, greedy, card_counts = (kernels.clone, kernels.determinise, kernels.value, kernels.greedy,
                                                      kernels.card_counts)
    module = getattr(getattr(new_game, "py_func", None), "__module__", "balance.simcore.runner")
    ks = runner_kinds(kinds)
    if user_policy is not None:
        ks = ks | {USER}
    kkey = kinds_key(ks)

    def _jit(f, parallel=False, refs=True, force=False, inline=False):
        return njit_cached(f, module, f"runner[{name}|{user_key}|{kkey}].{f.__name__}", parallel, refs, inline=inline,
                           force=force)

    # Everything compiled for a game's types is cached under the game's own key
    # (these stand-ins too): a cache shared by all games would keep the types
    # of a game's old version, and loading it fails once they are gone.
    def no_user_policy(tables, state, seat, options, n, params, rng):
        return 0

    def no_check(tables, state):
        return 0

    def no_search_policy(tables, state, seat, options, n, params, rng, buf):
        return 0

    def no_action(tables, state, option):
        return -1, -1, -1, -1

    unchecked = _jit(no_check, refs=False)
    no_search = _jit(no_search_policy, refs=False)
    check = kernels.check if getattr(kernels, "check", None) is not None else unchecked
    # what each chosen option does (its kind counted per seat); a game without one counts nothing
    action = kernels.action if getattr(kernels, "action", None) is not None else _jit(no_action, refs=False)
    user = user_policy if user_policy is not None else _jit(no_user_policy, refs=False)

    # A game may compile its per-decision kernels (legal, step, greedy) to be
    # inlined where they are called (`@jit(force=True)`): calling them copies
    # every array of the tables and the state onto the stack. The greedy and
    # random loop below inlines them; lookahead's rollouts, the search and a
    # loop that can search call them through these wrappers, so that each is
    # compiled once more, not once per call site.
    def legal_call(tables, state, out):
        return legal(tables, state, out)

    def step_call(tables, state, option, rng, trace):
        step(tables, state, option, rng, trace)

    def greedy_call(tables, state, seat, options, n, params, rng):
        return greedy(tables, state, seat, options, n, params, rng)

    legal_call = _jit(legal_call, refs=False)
    step_call = _jit(step_call, refs=False)
    greedy_call = _jit(greedy_call, refs=False)

    def simple_choice(tables, state, seat, options, n, kind, params, rng):
        if kind == GREEDY:
            return greedy_call(tables, state, seat, options, n, params, rng)
        return R.randint(rng, R.POLICY, n)

    # inlined where it is called (the rollouts' every decision): a call passes every array of the
    # tables and the state field by field, and greedy_call is a call of its own
    simple_choice = _jit(simple_choice, refs=False, force=True)

    def playout(tables, state, seat, params, rng, buf):
        """Play on from a determinised clone; judge the end (or horizon) state."""
        kind = np.int64(params[P_ROLLOUT_KIND])
        horizon = np.int64(params[P_HORIZON])
        notrace = np.zeros(0, np.int32)
        for _ in range(horizon):
            s = to_move(state)
            if s < 0:
                break
            n = legal_call(tables, state, buf)
            if n == 0:
                break
            j = simple_choice(tables, state, s, buf, n, kind, params, rng)
            step_call(tables, state, buf[j], rng, notrace)
        return value(tables, state, seat)

    playout = _jit(playout)

    first_world, next_world = make_worlds(clone, kernels.restore, _jit)  # compiled where used

    def lookahead(tables, state, seat, options, n, params, rng, buf):
        """Monte Carlo rollouts per option from states the player could be in.

        Each rollout starts from a clone whose hidden information (deck order,
        other hands, removed cards) is redrawn by `determinise`, so the player
        uses only what it knows. Rollout r of every option shares its streams
        (common random numbers), which sharpens the comparison between options.
        Greedy's own pick is the baseline: another option replaces it only if
        its rollouts beat it by more than P_CONFIDENCE standard errors of the
        paired differences, so rollout noise cannot make lookahead weaker than
        the policy it rolls out with.
        """
        rollouts = max(1, np.int64(params[P_ROLLOUTS]))
        z = params[P_CONFIDENCE]
        g = greedy_call(tables, state, seat, options, n, params, rng)
        base = R.next_u64(rng, R.POLICY)
        notrace = np.zeros(0, np.int32)
        r2 = np.zeros(R.N_STREAMS, np.uint64)
        vals = np.zeros((n, rollouts))
        w0 = first_world(state)
        for i in range(n):
            for r in range(rollouts):
                world_streams(r2, base, r)
                s2 = next_world(w0, state)
                determinise(tables, s2, seat, r2)
                step_call(tables, s2, options[i], r2, notrace)
                vals[i, r] = playout(tables, s2, seat, params, r2, buf)
        best = g
        best_v = vals[g].mean()
        for i in range(n):
            m = vals[i].mean()
            if m > best_v:
                best_v = m
                best = i
        if best != g:
            if not leads(vals[best] - vals[g], z):
                best = g
        return best

    lookahead = _jit(lookahead) if LOOKAHEAD in ks else no_search

    if EXPERT in ks or ORACLE in ks:
        # the rollouts call the game's own kernels (Kernels.rollouts_inline), or the wrappers
        direct = kernels.rollouts_inline
        search = make_search(to_move, legal_call, step_call, greedy_call, simple_choice, (first_world, next_world),
                             determinise, value, _jit,
                             legal if direct else legal_call, step if direct else step_call,
                             inlined_copy(greedy) if direct else greedy_call)

        def expert(tables, state, seat, options, n, params, rng, buf):
            return search(tables, state, seat, options, n, params, rng, buf, 0)

        def oracle(tables, state, seat, options, n, params, rng, buf):
            return search(tables, state, seat, options, n, params, rng, buf, 1)

        expert = _jit(expert)
        oracle = _jit(oracle)
    else:
        expert = oracle = no_search

    def choose(tables, state, seat, options, n, kind, params, rng, buf):
        """Every kind but random and greedy (`play` decides those itself)."""
        if n == 1:
            return 0
        if params[P_EPSILON] > 0.0 and R.uniform(rng, R.POLICY) < params[P_EPSILON]:
            return R.randint(rng, R.POLICY, n)
        if kind == LOOKAHEAD:
            return lookahead(tables, state, seat, options, n, params, rng, buf)
        if kind == EXPERT:
            return expert(tables, state, seat, options, n, params, rng, buf)
        if kind == ORACLE:
            return oracle(tables, state, seat, options, n, params, rng, buf)
        return user(tables, state, seat, options, n, params, rng)

    # a user's @njit policy inherits reference counting from its caller: keep it, so it may allocate
    choose = _jit(choose, refs=user_policy is not None)

    # A loop that can search plays its own decisions through the wrappers, not inlined copies: the copies
    # were one more compile of the game's biggest kernels (Overtime's cold expert loop 38-45 s -> 25-30 s,
    # Four Day Weekend's 27 -> 22 s), and a search decision costs thousands of the loop's (expert and the
    # greedy seats of a searching loop measured no slower: docs/benchmarks.md, session 35).
    searching = bool(ks & {LOOKAHEAD, EXPERT, ORACLE})
    loop_legal = legal_call if searching else legal
    loop_step = step_call if searching else step
    loop_greedy = greedy_call if searching else greedy

    def make_loop(check_kernel, tag):
        """`play` (inlined where it is called) and the batch loop over it, checking with `check_kernel`."""

        def play(tables, n_players, seed, game_index, kinds, params, max_decisions, max_options, checking, trace,
                 game_row, seat_rows, actions, violation):
            rng = np.zeros(R.N_STREAMS, np.uint64)
            R.seed_streams(rng, seed, game_index)
            state = new_game(tables, n_players, rng, trace)
            options = np.zeros(max_options, np.int64)
            buf = np.zeros(max_options, np.int64)
            decisions = 0
            stuck = False
            bad_choice = False
            if checking != 0:
                code = check_kernel(tables, state)
                if code != 0:
                    violation[0] = code
                    violation[1] = 0
                    outcome(tables, state, game_row, seat_rows)
                    return state
            while True:
                seat = to_move(state)
                if seat < 0:
                    break
                if decisions >= max_decisions:
                    break
                n = loop_legal(tables, state, options)
                if n == 0:
                    stuck = True
                    break
                kind = kinds[seat]
                if n == 1:
                    j = 0
                elif kind == RANDOM or kind == GREEDY:
                    # decided here, not in `choose` (so a loop of these kinds only holds no
                    # other policy's code); epsilon's draw comes first, as in `choose`
                    eps = params[seat, P_EPSILON]
                    if eps > 0.0 and R.uniform(rng, R.POLICY) < eps:
                        j = R.randint(rng, R.POLICY, n)
                    elif kind == RANDOM:
                        j = R.randint(rng, R.POLICY, n)
                    else:
                        # inlined here (a game's `greedy` may be @jit(force=True)): one copy in the loop (a
                        # searching loop calls the wrapper, above)
                        j = loop_greedy(tables, state, seat, options, n, params[seat], rng)
                else:
                    j = choose(tables, state, seat, options, n, kind, params[seat], rng, buf)
                if j < 0 or j >= n:
                    bad_choice = True  # a user policy answered outside 0..n-1
                    break
                act = action(tables, state, options[j])[0]  # what the option does, named before it is done
                if act >= 0:
                    actions[seat, act] += 1
                loop_step(tables, state, options[j], rng, trace)
                decisions += 1
                if checking != 0:
                    code = check_kernel(tables, state)
                    if code != 0:
                        violation[0] = code
                        violation[1] = decisions
                        break
            outcome(tables, state, game_row, seat_rows)
            game_row[COL_DECISIONS] = decisions
            if bad_choice:
                game_row[COL_DECISIONS] = BAD_CHOICE
            if stuck:
                game_row[COL_END_REASON] = END_NO_MOVE
            elif to_move(state) >= 0:
                game_row[COL_END_REASON] = END_CAP
            return state

        play.__name__ = f"play{tag}"
        play = _jit(play, inline=True)

        def run_range(tables, n_players, seed, game_indices, lo, hi, t, kinds, params, max_decisions, max_options,
                      checking, game_out, seat_out, action_out, card_stats, hand_kinds, hand_stats, violations):
            """Games lo..hi-1 of `game_indices`, their card counters into card_stats[t] and hand_stats[t]."""
            notrace = np.zeros(0, np.int32)
            n_kinds = card_stats.shape[2]  # the game's card counters (card_counts' last axis)
            at_reached = n_kinds  # hand_stats' last row: reached, whatever the counters
            for g in range(lo, hi):
                state = play(tables, n_players, seed, game_indices[g], kinds, params, max_decisions, max_options,
                             checking, notrace, game_out[g], seat_out[g], action_out[g], violations[g])
                counts = card_counts(state)
                for s in range(counts.shape[0]):
                    won = seat_out[g, s, COL_WON] > 0.5
                    for c in range(counts.shape[1]):
                        # the card reached this seat's hand: one of the game's hand counters is > 0
                        reached = False
                        for k in range(n_kinds):
                            if hand_kinds[k] != 0 and counts[s, c, k] > 0:
                                reached = True
                                break
                        if reached:
                            hand_stats[t, c, at_reached, HS_GAMES] += 1
                            if won:
                                hand_stats[t, c, at_reached, HS_WINS] += 1
                        for k in range(n_kinds):
                            v = counts[s, c, k]
                            if v > 0:
                                card_stats[t, c, k, CS_GAMES] += 1
                                card_stats[t, c, k, CS_TOTAL] += v
                                if won:
                                    card_stats[t, c, k, CS_WINS] += 1
                                if reached:
                                    hand_stats[t, c, k, HS_GAMES] += 1
                                    if won:
                                        hand_stats[t, c, k, HS_WINS] += 1

        run_range.__name__ = f"run_range{tag}"
        return play, _jit(run_range)

    # The batch loop without --check holds no invariant code (the check is its own compile); the one with it,
    # and the replay loop, check when asked.
    _, run_range = make_loop(unchecked, "")
    play, run_range_checked = make_loop(check, "_checked")

    def run_games(tables, n_players, seed, game_indices, kinds, params, max_decisions, max_options, checking,
                  game_out, seat_out, action_out, card_stats, hand_kinds, hand_stats, violations):
        run_in_threads(run_range_checked if checking else run_range, game_indices.shape[0], card_stats.shape[0],
                       (tables, n_players, seed, game_indices), (kinds, params, max_decisions, max_options, checking,
                                                                 game_out, seat_out, action_out, card_stats, hand_kinds,
                                                                 hand_stats, violations))

    def play_traced(tables, n_players, seed, game_index, kinds, params, max_decisions, max_options, checking, trace,
                    game_row, seat_rows, actions, violation):
        play(tables, n_players, seed, game_index, kinds, params, max_decisions, max_options, checking, trace,
             game_row, seat_rows, actions, violation)
        if game_row[COL_END_REASON] == END_CAP:
            emit(trace, EV_CAP, 0, 0, 0, 0)

    play_traced = _jit(play_traced)
    return Runner(run_games, play_traced, choose, run_range, run_range_checked)
