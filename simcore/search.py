"""`expert` and `oracle`: one information-set search, written once for every game.

Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012, as
OpenSpiel's `is_mcts` and TAG's MCTS do it), over the game contract only
(`clone`, `determinise`, `to_move`, `legal`, `step`, `value`, and the game's
`greedy` as the opponents', the rollouts' and the expansion order's policy),
so a game added later gets it with no code:

* every iteration starts from a clone of the state whose hidden information
  (deck order, other hands, removed cards) `determinise` redraws from what
  the deciding seat cannot see: the search never reads the rest;
* the root's options are compared on the same worlds: the k-th visit of every
  option plays world k (common random numbers, as lookahead's rollouts are);
  `worlds` W > 0 reuses W worlds (k mod W);
* the tree holds the deciding seat's own decisions only (nodes keyed by the
  option codes taken from the root); the other seats' decisions, forced moves
  and chance are played inside each sampled world by greedy, as the rollouts
  are: against greedy seats that is the opponent it meets;
* a node's children are the options seen there; an option legal in some
  worlds only is selected by UCB1 over its availability count (how often it
  was legal when its parent was visited), not the parent's visits;
* options are tried in greedy's order (greedy's pick among those not tried
  yet), and progressive widening (`widen`) lets a node with N visits try at
  most 1 + widen * sqrt(N) of them; one new node per iteration, below which
  greedy plays on until `horizon` decisions from the root were made (or the
  game ended, or, with `turns` k > 0, the move changed hands between the
  deciding seat and the others for the k-th time: 2 is when it comes back to
  the seat, so that every option is judged at the same point of the table's
  turn cycle, not some in the seat's own turn and some in the next player's),
  and `value` judges the state for the deciding seat;
* the decision is the root option with the most visits (ties: the higher
  mean), and greedy's own pick stands unless that option beats it on the
  same worlds by more than `confidence` standard errors of the paired
  differences (so the search's noise cannot make it weaker than greedy).
  Those worlds also chose it (the most visited of several options is ahead
  partly on noise), so with `recheck` R > 0 a challenger that passes is
  played against greedy's pick on R fresh worlds (none of which chose it:
  no selection bias) and replaces it only if it leads there too by
  `confidence` standard errors (Sick Days solo, fresh deals: see
  simcore/sickdays_solo). The
  search stops early once the most visited option cannot be overtaken, and,
  with `futility` F > 0, after F iterations as soon as no new option is due
  and every option tried has shared at least min(F, 2) worlds with greedy's
  pick and is not ahead of it on them (it could not replace greedy's pick yet;
  in session 10's Overtime trace greedy's pick stood at 84% of decisions):
  F = 1 is the quick form, one shared world each (Four Day Weekend's).

`oracle` is the same search without `determinise`: every world is the real
state (deck order, hands, removed cards), and what chance does after the
decision (a shuffle of the deck, as Sick Days' refresh does) is drawn afresh
in each world, as for expert. It is an open-hand search, not a player and not
an upper bound (a longer search does better; Sick Days solo's bound is the
ladder's exhaustive solver, simcore/sickdays_solo/solver.py); it does not know
how a shuffle still to come will fall (until session 13 it did, reading the game's own chance
stream: Sick Days solo level 4 94.0% against 88.6% without, 500 deals).

Randomness: iteration worlds and rollouts draw from streams derived from one
draw of the decision's policy stream (as lookahead's rollouts do), so the
same seed plays the same games and rule variants stay paired on the same deals.
The tree is a handful of arrays allocated once per decision (sized by the
iteration budget); nothing is allocated per node, nor, where the game has
`restore`, per world (one clone a decision, restored every iteration).
"""
import numpy as np

from . import rng as R
from .jit import jit

from .slots import (
    GREEDY, P_CONFIDENCE, P_DEPTH, P_EXPLORATION, P_FUTILITY, P_HORIZON, P_ITERATIONS, P_RECHECK, P_ROLLOUT_KIND, P_TURNS,
    P_WIDEN, P_WORLDS,
)


@jit
def world_streams(r2, base, k):
    """The streams of world k of a decision whose one policy draw was `base` (lookahead's rollout k,
    the search's k-th visit of an option, recheck's fresh worlds): the same k, the same deal."""
    for j in range(R.N_STREAMS):
        r2[j] = R.mix64(base + np.uint64(k * 7919 + j))


@jit
def leads(d, z):
    """Do the paired differences `d` (challenger - greedy's pick, one per world) lead by more than `z`
    standard errors of their mean? (One world: is it ahead at all.)"""
    k = d.shape[0]
    sd = d.std() * np.sqrt(k / max(1, k - 1))
    return d.mean() > z * sd / np.sqrt(k)


def make_worlds(clone, restore, jit):
    """`first_world(state)` and `next_world(w0, state)`: the state a search iteration (or a lookahead
    rollout) plays on. With the game's `restore`, one clone a decision (`first_world`), restored from
    the state every iteration (no allocation); without, `first_world` is the state itself (never
    written) and every iteration a clone."""
    if restore is None:
        def first_world(state):
            return state

        def next_world(w0, state):
            return clone(state)
    else:
        def first_world(state):
            return clone(state)

        def next_world(w0, state):
            restore(w0, state)
            return w0

    return jit(first_world, force=True), jit(next_world, force=True)


def make_search(to_move, legal_call, step_call, greedy_call, simple_choice, world_kernels, determinise, value, jit,
                legal, step, greedy):
    """The search kernel for one game's kernels; `jit(f)` compiles it beside them. `legal`, `step`
    and `greedy` are the game's own kernels, which the rollout calls directly (where a game
    compiles them to be inlined, they are inlined there); everywhere else the search calls them
    through the runner's wrappers (`legal_call`...), so each is inlined in one more place only.
    `world_kernels`: `make_worlds`' pair."""
    first_world, next_world = world_kernels

    def play_on(tables, w, seat, steps, horizon, turns, seat_moving, handovers, rk, params, r2, obuf, notrace):
        """The rollout: the rollout policy plays every seat on from world `w` (`steps` decisions from
        the root made) until `horizon`, the game's end or the `turns`-th hand-over of the move
        between `seat` and the others (`seat_moving`, `handovers`: so far); `value` judges it."""
        while steps < horizon:
            s = to_move(w)
            if s < 0:
                break
            if (s == seat) != seat_moving:
                seat_moving = s == seat
                handovers += 1
                if turns > 0 and handovers >= turns:
                    break
            m = legal(tables, w, obuf)
            if m == 0:
                break
            if m == 1:
                j = 0
            elif rk == GREEDY:  # simple_choice's two cases, with the game's greedy called directly
                j = greedy(tables, w, s, obuf, m, params, r2)
            else:
                j = R.randint(r2, R.POLICY, m)
            step(tables, w, obuf[j], r2, notrace)
            steps += 1
        return value(tables, w, seat)

    play_on = jit(play_on, refs=False)  # it allocates nothing: no reference counts per rollout

    def search(tables, state, seat, options, n, params, rng, buf, perfect):
        """The index (0..n-1) of the option the search takes; `perfect` != 0: oracle."""
        g = greedy_call(tables, state, seat, options, n, params, rng)
        iters = np.int64(params[P_ITERATIONS])
        if iters < 2:
            return g
        horizon = max(1, np.int64(params[P_HORIZON]))
        max_depth = max(1, np.int64(params[P_DEPTH]))
        c = params[P_EXPLORATION]
        rk = np.int64(params[P_ROLLOUT_KIND])
        worlds = np.int64(params[P_WORLDS])
        widen = params[P_WIDEN]
        z = params[P_CONFIDENCE]
        turns = np.int64(params[P_TURNS])
        futility = np.int64(params[P_FUTILITY])
        recheck = np.int64(params[P_RECHECK])
        shared = min(futility, 2)  # worlds an option must share with greedy's pick before futility judges it
        base = R.next_u64(rng, R.POLICY)
        width = max(buf.shape[0], n)
        # node 0 is the root, 1 + i the root's option i; below them at most one
        # new node per iteration
        cap = n + 1 + iters
        code = np.empty(cap, np.int64)
        first = np.full(cap, -1, np.int64)  # newest child, -1 none
        sib = np.full(cap, -1, np.int64)  # next older sibling, -1 none
        visits = np.zeros(cap, np.int64)
        avail = np.zeros(cap, np.int64)
        total = np.zeros(cap)
        rootv = np.zeros((n, iters))  # the value of root option i's k-th visit (in world k)
        for i in range(n):
            code[1 + i] = options[i]
        path = np.empty(max_depth, np.int64)
        mark = np.empty(width, np.int64)  # per option seen at a node: its child, -1 not tried
        obuf = np.empty(width, np.int64)
        sub = np.empty(width, np.int64)  # options not tried yet at a node
        order = np.empty(n, np.int64)  # the root's options in greedy's order, as far as known
        placed = np.zeros(n, np.int64)
        r2 = np.zeros(R.N_STREAMS, np.uint64)
        notrace = np.zeros(0, np.int32)
        w0 = first_world(state)
        order[0] = g
        placed[g] = 1
        ordered = 1
        tried = 0
        nodes = n + 1
        for it in range(iters):
            # stop once the most visited option cannot be overtaken in the iterations left
            if tried >= 1:
                b1 = 0
                b2 = 0
                for t in range(tried):
                    vq = visits[1 + order[t]]
                    if vq > b1:
                        b2 = b1
                        b1 = vq
                    elif vq > b2:
                        b2 = vq
                if b1 - b2 > iters - it:
                    break
            # the root: the next option in greedy's order while widening allows, else UCB1
            widening = tried == 0 or (tried < n and (widen <= 0.0 or tried < 1.0 + widen * np.sqrt(it)))
            # futility: after `futility` iterations, with no new option due, stop when no option
            # tried is ahead of greedy's pick on the worlds both played (it could not replace it)
            if futility > 0 and it >= futility and not widening and visits[1 + g] >= shared:
                ahead = False
                for t in range(1, tried):
                    q = order[t]
                    k = min(visits[1 + q], visits[1 + g])
                    if k < shared:  # not enough shared worlds yet (F = 1: one is enough)
                        ahead = True
                        break
                    d = 0.0
                    for j in range(k):
                        d += rootv[q, j] - rootv[g, j]
                    if d > 0.0:
                        ahead = True
                        break
                if not ahead:
                    break
            if widening:
                if tried == ordered:
                    # greedy's pick among the options not ordered yet (on the real state:
                    # greedy reads only what the seat sees)
                    m = 0
                    for q in range(n):
                        if placed[q] == 0:
                            sub[m] = q
                            obuf[m] = options[q]
                            m += 1
                    for j in range(R.N_STREAMS):
                        r2[j] = R.mix64(base + np.uint64(0x5EED + ordered * 31 + j))
                    q = greedy_call(tables, state, seat, obuf, m, params, r2) if m > 1 else 0
                    if q < 0 or q >= m:
                        q = 0
                    order[ordered] = sub[q]
                    placed[sub[q]] = 1
                    ordered += 1
                i = order[tried]
                tried += 1
            else:
                i = order[0]
                best_u = -1e300
                lt = np.log(it)
                for t in range(tried):
                    q = order[t]
                    u = total[1 + q] / visits[1 + q] + c * np.sqrt(lt / visits[1 + q])
                    if u > best_u:
                        best_u = u
                        i = q
            node = 1 + i
            # the world: option i's k-th visit plays world k (mod `worlds`), so that the
            # options are compared on the same deals
            wi = visits[node] % worlds if worlds > 0 else visits[node]
            world_streams(r2, base, wi)
            w = next_world(w0, state)
            if perfect == 0:
                determinise(tables, w, seat, r2)
            step_call(tables, w, options[i], r2, notrace)
            path[0] = node
            plen = 1
            steps = 1
            in_tree = plen < max_depth
            seat_moving = True  # the last move was the seat's own
            handovers = 0  # times the move passed from the seat to another seat or back
            stopped = False  # the game ended, no move, or the `turns`-th hand-over: judged here
            while in_tree and steps < horizon:
                s = to_move(w)
                if s < 0:
                    stopped = True
                    break
                if (s == seat) != seat_moving:
                    seat_moving = s == seat
                    handovers += 1
                    if turns > 0 and handovers >= turns:
                        stopped = True
                        break
                m = legal_call(tables, w, obuf)
                if m == 0:
                    stopped = True
                    break
                if s != seat or m == 1:
                    j = 0 if m == 1 else simple_choice(tables, w, s, obuf, m, rk, params, r2)
                    step_call(tables, w, obuf[j], r2, notrace)
                    steps += 1
                    continue
                # the seat's own decision inside the tree: which children are legal here
                for k in range(m):
                    mark[k] = -1
                ch = first[node]
                while ch >= 0:
                    for k in range(m):
                        if obuf[k] == code[ch]:
                            mark[k] = ch
                            avail[ch] += 1
                            break
                    ch = sib[ch]
                unexpanded = 0
                seen = 0
                for k in range(m):
                    if mark[k] < 0:
                        sub[unexpanded] = obuf[k]
                        unexpanded += 1
                    else:
                        seen += 1
                room = nodes < cap
                if room and widen > 0.0 and seen > 0:
                    kids = 0
                    ch = first[node]
                    while ch >= 0:
                        kids += 1
                        ch = sib[ch]
                    room = kids < 1.0 + widen * np.sqrt(visits[node])
                if unexpanded > 0 and room:
                    # the next option tried here: greedy's pick among those not tried yet
                    q = greedy_call(tables, w, seat, sub, unexpanded, params, r2) if unexpanded > 1 else 0
                    if q < 0 or q >= unexpanded:
                        q = R.randint(r2, R.POLICY, unexpanded)
                    new = nodes
                    nodes += 1
                    code[new] = sub[q]
                    sib[new] = first[node]
                    first[node] = new
                    avail[new] = 1
                    path[plen] = new
                    plen += 1
                    in_tree = False  # a new node: greedy plays on from here
                    step_call(tables, w, sub[q], r2, notrace)
                    steps += 1
                    continue
                best = -1
                best_u = -1e300
                for k in range(m):
                    ch = mark[k]
                    if ch >= 0:
                        u = total[ch] / visits[ch] + c * np.sqrt(np.log(avail[ch]) / visits[ch])
                        if u > best_u:
                            best_u = u
                            best = k
                if best < 0:  # nothing seen here is in the tree, and no room for it
                    in_tree = False
                    continue
                node = mark[best]
                path[plen] = node
                plen += 1
                if plen >= max_depth:
                    in_tree = False
                step_call(tables, w, obuf[best], r2, notrace)
                steps += 1
            if stopped:
                v = value(tables, w, seat)
            else:  # below the tree (or at the horizon): the rollout plays on
                v = play_on(tables, w, seat, steps, horizon, turns, seat_moving, handovers, rk, params, r2, obuf,
                            notrace)
            rootv[i, visits[1 + i]] = v
            visits[0] += 1
            for q in range(plen):
                visits[path[q]] += 1
                total[path[q]] += v
        # the root option with the most visits; ties: the higher mean, then greedy's order
        pick = g
        best_n = -1
        best_mean = -1e300
        for t in range(tried):
            q = order[t]
            vq = visits[1 + q]
            if vq > 0:
                mean = total[1 + q] / vq
                if vq > best_n or (vq == best_n and mean > best_mean):
                    best_n = vq
                    best_mean = mean
                    pick = q
        # greedy's pick stands unless the chosen option beats it on the same worlds
        # by more than `confidence` standard errors of the paired differences
        k = min(visits[1 + pick], visits[1 + g])
        if pick != g and z > 0.0:
            if k < 2:
                return g
            if not leads(rootv[pick, :k] - rootv[g, :k], z):
                return g
            if recheck > 0:
                # the lead re-tested on fresh worlds (iters + j: none played yet), which did not
                # choose the pick and so carry no selection bias: greedy plays on from each option
                dv = np.zeros(recheck)
                for j in range(recheck):
                    for side in range(2):
                        i = pick if side == 0 else g
                        world_streams(r2, base, iters + j)
                        w = next_world(w0, state)
                        if perfect == 0:
                            determinise(tables, w, seat, r2)
                        step_call(tables, w, options[i], r2, notrace)
                        v = play_on(tables, w, seat, 1, horizon, turns, True, 0, rk, params, r2, obuf, notrace)
                        dv[j] += v if side == 0 else -v
                if not leads(dv, z):
                    return g
        return pick

    return jit(search)
