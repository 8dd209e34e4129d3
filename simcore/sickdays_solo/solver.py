"""An exhaustive solver for Sick Days solo / co-op: is this deal winnable by some line? (issue 42, item 3)

The solver knows everything: the deck order, the cards removed unseen, every hand, and how each shuffle
still to come falls. That last part is not a guess: chance is drawn inside `step` from the game's own
streams (simcore/rng.py, stream CHANCE: a refresh's and a Coffee Break's shuffle), and the solver clones
those streams with the state and plays every line through the engine's own `legal` and `step`, so it
meets exactly the chance the real game of that (seed, game index) meets after the same decisions. No
policy's own randomness reaches the game's streams (a policy draws from POLICY only, and the searches
from streams of their own), so every policy's game of a deal is one of the lines the solver searches:

    "not winnable"  => no policy wins that deal (with that seed): an upper bound on every player;
    "winnable"      => a line wins it, replayed from the deal through `legal`/`step` (`replay`);
    "unknown"       => the node budget ran out first (or the depth cap cut a line).

Depth-first over the options of every decision (the team's and the automa's alike, the pizza refresh
included), in greedy's order (policy.option_score, highest first: greedy's own pick is tried first, so
the first line is greedy's game), as limited discrepancy search (Harvey and Ginsberg 1995): passes in
which a line may leave greedy's order by at most 0, 1, 2, 4, 8, 16 ranks in all (the r-th best option
costs r), then one pass with no limit, which alone can answer "not winnable" (a pass with a limit that
cut an option proves nothing). Two sound prunings, neither of which can turn a winnable deal into
"not winnable":

* a state whose every option was searched to the end without a win is remembered as lost (a hash table
  of 2 x 64-bit keys of everything `legal` and `step` read: phase, scalars, hands, deck order, discard
  pile, zones, the calendar's used rows, and the CHANCE stream), so a transposition (two plays in either
  order reach the same state, hand order included) is searched once, in every pass; a state whose
  search was cut (by a pass's limit or the depth cap) is not remembered, nor is any state above it;
* a state with an unhappy kept worker that no line can make happy any more is lost: a line needs three
  of the worker's cards, each in its own column (one card of a worker per day), every one either face
  up on that line already or still playable there (in a hand, the deck or the automa's hand, and the
  line's cell in that column still open: at or below the column's next open row, inside the calendar);
  so is a state where the cards the unhappy workers still need (3 minus the most already on such a
  line) outnumber the calendar's open cells.
  Cards removed unseen and discards are gone for good when the game has no event cards (Look Busy can
  take a discard back, and New Years and Valentine's Day are wilds): with events in the deck this
  pruning is off, and the solver is plain exhaustive search with the transposition table.

The result per deal: 1 winnable, 0 not winnable, -1 unknown, with the nodes (calls of `step`) spent.
"""
from __future__ import annotations

import numpy as np

from balance.simcore import rng as R
from balance.simcore.jit import jit

from .rules import (
    END, H_AUT_DISC, H_AUT_PLACED, H_DECK_N, H_DISC_N, H_DISCARDS, H_EVENTS_IN, H_NOTES, H_NP,
    H_OVER, H_REGAINED, H_ROWS, H_SPENT, H_TURNS, HAND_CAP, MAX_OPTIONS, NCARDS, NCOL, NSUITS, O_DECK, O_DISC, O_GRID,
    O_HAND, O_HANDN, O_HAPPY, O_HEIGHT, O_HTURN, O_ZONE, Z_AUTOMA, Z_DECK, Z_HAND0, legal, new_game,
    o_kind, step, to_move, worker_lines,
)
from .greedy_scores import option_score

WINNABLE = 1
NOT_WINNABLE = 0
UNKNOWN = -1
RESULT_WORDS = {WINNABLE: "winnable", NOT_WINNABLE: "not winnable", UNKNOWN: "unknown"}

MAX_DEPTH = 400  # decisions on one line; a deal of 10 workers and 7 events takes ~ 150 at most
TABLE_BITS = 20  # lost states remembered: 2^20 slots (16 MB), filled to at most 3/4
DEFAULT_NODES = 100_000
LAST_LIMIT = 16  # discrepancy limits 0, 1, 2, 4, 8, 16, then none
MAX_LIMIT = 1 << 40  # `step` calls per deal before "unknown"

_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
_M = np.uint64(0xFF51AFD7ED558CCD)
_S33 = np.uint64(33)


@jit
def _mix(h, x, k):
    h = (h ^ (np.uint64(x) + k)) * _M
    return h ^ (h >> _S33)


@jit
def _add(h1, h2, x):
    return _mix(h1, x, _K1), _mix(h2, x, _K2)


@jit
def state_key(s, rng):
    """Two 64-bit hashes of everything the rules read from here on (the counters and counting scalars
    left out), and of the CHANCE stream."""
    h1 = np.uint64(1)
    h2 = np.uint64(2)
    for i in range(O_HTURN):
        if i != H_TURNS and i != H_SPENT and i != H_REGAINED and i != H_NOTES and i != H_DISCARDS \
                and i != H_AUT_PLACED and i != H_AUT_DISC:
            h1, h2 = _add(h1, h2, s[i])
    for i in range(O_HAPPY, O_HAND):  # happy flags, column heights, hand sizes
        h1, h2 = _add(h1, h2, s[i])
    for p in range(s[H_NP]):
        for i in range(s[O_HANDN + p]):
            h1, h2 = _add(h1, h2, s[O_HAND + p * HAND_CAP + i])
    for i in range(s[H_DECK_N]):
        h1, h2 = _add(h1, h2, s[O_DECK + i])
    h1, h2 = _add(h1, h2, 1000 + s[H_DISC_N])
    for i in range(s[H_DISC_N]):
        h1, h2 = _add(h1, h2, s[O_DISC + i])
    for i in range(NCARDS):
        h1, h2 = _add(h1, h2, s[O_ZONE + i])
    top = 0
    for c in range(NCOL):
        top = max(top, s[O_HEIGHT + c])
    kb = o_kind(s)
    for i in range(top * NCOL):  # the calendar's used rows: cards and cell kinds (line counts follow)
        h1, h2 = _add(h1, h2, s[O_GRID + i])
        h1, h2 = _add(h1, h2, s[kb + i])
    h1 = _mix(h1, rng[R.CHANCE], _K1)
    h2 = _mix(h2, rng[R.CHANCE], _K2)
    return h1, h2


@jit
def _live(s, card):
    """Can this worker card still be played face up? (in a hand, the deck, or the automa's hand)"""
    z = s[O_ZONE + card]
    return z == Z_DECK or z == Z_AUTOMA or z >= Z_HAND0


@jit
def _best_viable(s, w, rows, live, exact):
    """The most cards of worker w already face up on one line that can still get three (a line's
    other cells: one per column, its cell open and the worker's card of that day still live); -1:
    no line can. With `exact` False, the first viable line's count (enough to know it is viable)."""
    best = -1
    for kind in range(3):
        b, lines = worker_lines(s, w, kind)
        for i in range(lines):
            have = s[b + i]
            if have + live < 3 or have <= best:
                continue
            r = i - 6 if kind == 1 else i
            k = have
            for c in range(NCOL):
                if k >= 3:
                    break
                if not _live(s, w * 7 + c):
                    continue
                r2 = r if kind == 0 else (r + c if kind == 1 else r - c)
                if r2 >= s[O_HEIGHT + c] and r2 < rows:
                    k += 1
            if k >= 3:
                best = have
                if best >= 2 or not exact:
                    return best
    return best


@jit
def doomed(s):
    """Can the game no longer be won? Some unhappy kept worker has no row or diagonal that can still
    get three of its cards, or the cards the unhappy workers still need (each 3 minus its most cards
    on a line that can still get three) outnumber the calendar's open cells (a cell takes one card).
    (Sound only without event cards in the game: see the module docstring.)"""
    rows = s[H_ROWS]
    open_cells = 0
    for c in range(NCOL):
        open_cells += rows - s[O_HEIGHT + c]
    unhappy = 0
    for w in range(NSUITS):
        if s[O_HAPPY + w] == 0:
            unhappy += 1
    exact = open_cells < 3 * unhappy  # else the cells cannot run short: viability is enough
    need = 0
    for w in range(NSUITS):
        if s[O_HAPPY + w] != 0:
            continue
        live = 0
        maxh = 0
        for c in range(NCOL):
            if _live(s, w * 7 + c):
                live += 1
                maxh = max(maxh, s[O_HEIGHT + c])
        if not exact and live >= 3 and maxh < rows:
            continue  # the row at the highest of their columns' next open rows takes three live cards
        b = _best_viable(s, w, rows, live, exact)
        if b < 0:
            return True
        need += 3 - b
    return need > open_cells


@jit
def _order(tables, s, opts, n, params, order, sc):
    """The options in greedy's order: option_score, highest first (ties: the legal order, as greedy)."""
    seat = to_move(s)
    for i in range(n):
        sc[i] = option_score(tables, s, seat, opts[i], params)
        order[i] = i
    for i in range(1, n):  # insertion sort, stable
        j = i
        while j > 0 and sc[order[j - 1]] < sc[order[j]]:
            t = order[j - 1]
            order[j - 1] = order[j]
            order[j] = t
            j -= 1


@jit
def _dfs(tables, params, limit, budget, nodes, line, out, states, rngs, opts, order, nopt, nxt, cut, disc, k1, k2,
         t1, t2, used, score, prune, notrace):
    """One depth-first pass from states[0] (its options in opts[0] / order[0]) in which a line may leave
    greedy's order by at most `limit` ranks in all (the r-th best option costs r: limited discrepancy
    search); an option over the limit marks its state cut (not searched to the end). Returns the nodes
    spent in all; out[0] = WINNABLE (the line in `line`, its length in out[2]) or stays as it was."""
    mask = np.uint64(t1.shape[0] - 1)
    slots = t1.shape[0]
    nxt[0] = 0
    cut[0] = False
    disc[0] = 0
    d = 0
    while d >= 0:
        if nxt[d] < nopt[d]:
            r = nxt[d]
            if disc[d] + r > limit:
                cut[d] = True
                nxt[d] = nopt[d]
                continue
            j = order[d, r]
            nxt[d] += 1
            line[d] = opts[d, j]
            c = d + 1
            for i in range(states.shape[1]):
                states[c, i] = states[d, i]
            for i in range(R.N_STREAMS):
                rngs[c, i] = rngs[d, i]
            step(tables, states[c], opts[d, j], rngs[c], notrace)
            nodes += 1
            sc = states[c]
            if sc[H_OVER] != 0:
                if sc[H_OVER] == END.all_happy:
                    out[0] = WINNABLE
                    out[2] = c
                    return nodes
                continue
            if to_move(sc) < 0:
                continue
            m = legal(tables, sc, opts[c])
            if m == 0:
                continue  # no legal move: the runner ends the game, not won
            if prune and doomed(sc):
                continue
            h1, h2 = state_key(sc, rngs[c])
            at = h1 & mask
            known = False
            while t1[at] != 0 or t2[at] != 0:
                if t1[at] == h1 and t2[at] == h2:
                    known = True
                    break
                at = (at + np.uint64(1)) & mask
            if known:
                continue
            if nodes >= budget:
                out[3] = 1
                return nodes
            if c >= MAX_DEPTH:
                cut[d] = True
                continue
            nopt[c] = m
            nxt[c] = 0
            cut[c] = False
            disc[c] = disc[d] + r
            k1[c] = h1
            k2[c] = h2
            _order(tables, sc, opts[c], m, params, order[c], score)
            d = c
        else:
            # every option of this state searched to the end, none won: lost (unless a line was cut)
            if not cut[d]:
                if used[0] < (slots * 3) // 4 and d > 0:
                    at = k1[d] & mask
                    while t1[at] != 0 or t2[at] != 0:
                        at = (at + np.uint64(1)) & mask
                    t1[at] = k1[d]
                    t2[at] = k2[d]
                    used[0] += 1
            elif d > 0:
                cut[d - 1] = True
            d -= 1
    out[0] = UNKNOWN if cut[0] else NOT_WINNABLE
    return nodes


@jit(refs=True)
def solve(tables, s0, rng0, params, budget, line, out):
    """Search the game from state `s0` with streams `rng0` (both left unchanged): limited discrepancy
    passes with a growing limit (LIMITS), then one without a limit, sharing one table of lost states
    and one node budget. `out` gets [result, nodes, line length, budget hit]; `line` the winning line."""
    size = s0.shape[0]
    states = np.empty((MAX_DEPTH + 1, size), np.int64)
    rngs = np.empty((MAX_DEPTH + 1, R.N_STREAMS), np.uint64)
    opts = np.empty((MAX_DEPTH + 1, MAX_OPTIONS), np.int64)
    order = np.empty((MAX_DEPTH + 1, MAX_OPTIONS), np.int64)
    nopt = np.zeros(MAX_DEPTH + 1, np.int64)
    nxt = np.zeros(MAX_DEPTH + 1, np.int64)
    cut = np.zeros(MAX_DEPTH + 1, np.bool_)
    disc = np.zeros(MAX_DEPTH + 1, np.int64)
    k1 = np.zeros(MAX_DEPTH + 1, np.uint64)
    k2 = np.zeros(MAX_DEPTH + 1, np.uint64)
    slots = 1 << TABLE_BITS
    t1 = np.zeros(slots, np.uint64)
    t2 = np.zeros(slots, np.uint64)
    used = np.zeros(1, np.int64)
    score = np.empty(MAX_OPTIONS)
    notrace = np.zeros(0, np.int32)
    prune = s0[H_EVENTS_IN] == 0
    out[0] = UNKNOWN
    out[1] = 0
    out[2] = 0
    out[3] = 0
    if s0[H_OVER] != 0:
        out[0] = WINNABLE if s0[H_OVER] == END.all_happy else NOT_WINNABLE
        return
    states[0, :] = s0
    rngs[0, :] = rng0
    n = legal(tables, states[0], opts[0])
    if n == 0 or (prune and doomed(states[0])):
        out[0] = NOT_WINNABLE
        return
    nopt[0] = n
    _order(tables, states[0], opts[0], n, params, order[0], score)
    nodes = 0
    limit = 0
    while True:
        out[0] = UNKNOWN
        nodes = _dfs(tables, params, limit, budget, nodes, line, out, states, rngs, opts, order, nopt, nxt, cut, disc,
                     k1, k2, t1, t2, used, score, prune, notrace)
        if out[0] != UNKNOWN or out[3] != 0 or limit >= MAX_LIMIT:
            break
        limit = MAX_LIMIT if limit >= LAST_LIMIT else (1 if limit == 0 else 2 * limit)
    out[1] = nodes


@jit(refs=True)
def replay(tables, n_players, seed, game_index, line, length):
    """Play `line` from the deal through the engine's own `legal` and `step` (each option must be
    legal when it is played); 1 if the game is then won, 0 if not, -1 if an option was not legal."""
    rng = np.zeros(R.N_STREAMS, np.uint64)
    R.seed_streams(rng, seed, game_index)
    notrace = np.zeros(0, np.int32)
    s = new_game(tables, n_players, rng, notrace)
    opts = np.empty(MAX_OPTIONS, np.int64)
    for i in range(length):
        if to_move(s) < 0:
            return -1
        n = legal(tables, s, opts)
        ok = False
        for k in range(n):
            if opts[k] == line[i]:
                ok = True
                break
        if not ok:
            return -1
        step(tables, s, line[i], rng, notrace)
    return 1 if s[H_OVER] == END.all_happy else 0


@jit(refs=True)
def solve_deal(tables, n_players, seed, game_index, params, budget, line, out):
    """Deal game `game_index` of `seed` as the runner does, and solve it."""
    rng = np.zeros(R.N_STREAMS, np.uint64)
    R.seed_streams(rng, seed, game_index)
    notrace = np.zeros(0, np.int32)
    s = new_game(tables, n_players, rng, notrace)
    solve(tables, s, rng, params, budget, line, out)


def solve_deals(tables, n_players: int, seed: int, game_indices, params, budget: int = DEFAULT_NODES) -> dict:
    """Solve each deal; every winnable line is replayed through `legal`/`step` before it counts.

    Returns arrays per deal: game_index, result (1 / 0 / -1), nodes, line length, replayed (1 when a
    winnable line won again on replay), and the lines themselves (list of arrays)."""
    idx = np.asarray(list(game_indices), np.int64)
    res = np.zeros(idx.size, np.int64)
    nodes = np.zeros(idx.size, np.int64)
    length = np.zeros(idx.size, np.int64)
    replayed = np.zeros(idx.size, np.int64)
    lines = []
    line = np.zeros(MAX_DEPTH + 1, np.int64)
    out = np.zeros(4, np.int64)
    pv = np.asarray(params, np.float64)
    for k, g in enumerate(idx):
        solve_deal(tables, np.int64(n_players), np.uint64(seed), np.int64(g), pv, np.int64(budget), line, out)
        res[k], nodes[k], length[k] = out[0], out[1], out[2]
        if out[0] == WINNABLE:
            won = replay(tables, np.int64(n_players), np.uint64(seed), np.int64(g), line, np.int64(out[2]))
            replayed[k] = 1 if won == 1 else 0
            if won != 1:
                res[k] = UNKNOWN  # never claimed: a line the engine does not win again is no proof
            lines.append(line[:out[2]].copy())
        else:
            lines.append(np.zeros(0, np.int64))
    return {"game_index": idx, "result": res, "nodes": nodes, "length": length, "replayed": replayed, "lines": lines}
