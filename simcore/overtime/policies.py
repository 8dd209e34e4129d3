"""Overtime's scripted `greedy` policy.

Every option gets a value in "tasks" for the deciding seat, from a one-step
reading of its effects:
  * work when rested: a W card is worth w_task per task (+ w_complete if it
    finishes the A card), times the chance the Work die lets it through, less
    the cost of the snooze it brings;
  * rest when tired: snooze cost grows with the tiredness levels it crosses
    (w_snooze per token, w_level per level, w_exhaust for reaching 10+), so an
    R card is worth a lot just below a threshold and little when rested;
  * react to stop a leader: harm to another player (cancelling their card,
    giving them snooze or an A card, losing their work) is weighted by how far
    ahead of you they are (w_leader); harm to yourself counts in full;
  * giving away an A card is worth w_give; an E card is worth the change in
    stats (w_emp) and ability (value_abilities); cancelling another's E card
    denies them that (cancel_employee);
  * a W card counts only the tasks its A card still needs (useful_tasks);
    an R card's snooze removed is worth rest_spare * w_snooze per token more,
    so spare actions rest instead of keeping Rest cards to the end.
It plays the best action while that is worth more than keeping the card
(w_card), reacts when a reaction is worth at least w_react_min, and discards
the cards it values least.
"""

from balance.simcore.jit import jit
from balance.simcore.runner import P_GAME
from balance.simcore.spec import PolicyParam, policy_index

from .constants import (
    ACT, AB_NONE, AB_PASSIVE, AB_REACTION, EF_MASK, EF_N, EF_OP, EF_WHO, G_CH_ENTRY, G_CH_SLOT, G_CUR, G_NP, G_PHASE,
    KF_ABIL, KF_D, KF_IS_REACTION, KF_L, KF_P, KF_SHIFT, KF_TARGET, KF_TYPE, MAX_EFF,
    OP_CANCEL, OP_COPY, OP_DISCARD_ASSIGNMENT, OP_DISCARD_SNOOZE, OP_DISCARD_WORK, OP_DRAW, OP_GIVE_ASSIGNMENT,
    OP_NONE, OP_SKIP_TURN, OP_SNOOZE, OP_SNOOZE_SHIELD, OP_TAKE_ASSIGNMENT, OP_TAKE_DISCARD, OP_TOKENS, OP_WORK,
    OP_WORK_BONUS, PF_ARG, PF_CANCELLED, PF_KIND, PF_PLAYER,
    PF_TARGET, PH_CHOOSE, PH_DISCARD, PH_REACT, P_EMP, P_N_ASSIGN, P_SNOOZE, REM_NEAREST, R_DIE1, R_DIE_SIDES,
    R_N_MAIN, TG_ANOTHER, TG_ASSIGNMENT, T_E, T_W, W_ALL, W_ANOTHER, W_ANY, W_CURRENT,
    W_LEAST_ASSIGNMENTS, W_OTHERS, W_SELF, W_TARGET_OWNER, Z_ATTACHED,
)
from .effects import choice_slot, work_gained
from .rules import action
from .state import alone_fewest, assignment_memo, emp_kind, level, remaining, shifted_level, tired_level

_GREEDY_WEIGHTS = (
    ("w_task", 1.0, "value of one task done on your A cards"),
    ("w_complete", 1.0, "bonus for finishing an A card"),
    ("w_snooze", 0.15, "cost of one snooze token"),
    ("w_level", 0.8, "cost of crossing a tiredness level"),
    ("w_exhaust", 2.0, "cost of reaching the last level (turn skipped)"),
    ("w_hurt", 0.6, "value of a loss to another player, relative to a gain of yours"),
    ("w_card", 0.3, "value of a card in hand (kept rather than spent)"),
    ("w_give", 2.5, "value of one A card fewer"),
    ("w_skip", 1.5, "value of a skipped turn (to you: its cost)"),
    ("w_leader", 1.0, "how much more harming a leader is worth"),
    ("w_emp", 0.6, "value of one point of Productiveness"),
    ("w_react_min", 0.35, "play a reaction when it is worth at least this"),
    # issue 22 item 5: version 1's blind spots, each with a switch (0 restores version 1's greedy)
    ("rest_spare", 1.0, "extra value of each Snooze token an R card removes from you, in units of w_snooze, so "
     "that spare actions rest (0: version 1, which kept Rest cards unless they crossed a level)"),
    ("value_abilities", 1.0, "1: an E card counts its ability (what an action ability gives now, a passive's gain "
     "per turn, w_react_min for a reaction ability); 0: version 1's flat 0.3"),
    ("cancel_employee", 1.0, "1: cancelling another player's E card is worth what it would gain them "
     "(Performance Review); 0: version 1 (worth nothing)"),
    ("useful_tasks", 1.0, "1: a W card is worth the tasks its A card still needs (no credit for overshooting); "
     "0: version 1 (all n tasks, and a bonus for overshooting)"),
)
# greedy's weights, declared once; slots from P_GAME in this order (saved policy vectors keep their meaning)
GREEDY_PARAMS = tuple(PolicyParam(name, P_GAME + i, default, help)
                      for i, (name, default, help) in enumerate(_GREEDY_WEIGHTS))
W = policy_index(GREEDY_PARAMS, P_GAME)  # w[W.w_snooze] is the weight w_snooze


# greedy calls these per option and per effect: they are inlined into their
# callers (`force=True`, see simcore/jit.py), as a call would copy every array
# of `t` and the state onto the stack.
@jit(force=True)
def snooze_cost(rules, kinds, ek, old, d, w):
    """Cost of gaining d (d < 0: losing -d) snooze tokens from `old`, under an employee of kind ek."""
    if d == 0:
        return 0.0
    new = max(0, old + d)
    la = tired_level(rules, kinds, ek, old)
    lb = tired_level(rules, kinds, ek, new)
    c = w[W.w_snooze] * (new - old) + w[W.w_level] * (min(lb, 2) - min(la, 2))
    if lb >= 3 and la < 3:
        c += w[W.w_exhaust]
    elif la >= 3 and lb < 3:
        c -= w[W.w_exhaust]
    return c


@jit(force=True)
def lead_weight(rem, me, q, w):
    """How much harming q is worth to me: more when q is ahead (rem: tasks left per seat)."""
    diff = rem[me] - rem[q]
    v = 1.0 + w[W.w_leader] * diff / 5.0
    return min(3.0, max(0.2, v))


@jit(force=True)
def hurt(rem, me, q, amount, w):
    """Value to me of q suffering `amount` (in q's task units)."""
    if q == me:
        return -amount
    return w[W.w_hurt] * amount * lead_weight(rem, me, q, w)


@jit(force=True)
def p_die(rules, kinds, lv, k):
    """Chance that a card of kind k gets past the Work die at tiredness level lv."""
    if (kinds[k, KF_TYPE] & T_W) == 0:
        return 1.0
    if lv == 0:
        return 1.0
    need = rules[R_DIE1 + lv - 1]
    sides = rules[R_DIE_SIDES]
    return max(0.0, min(1.0, (sides - need + 1) / sides))


@jit(force=True)
def who_player(rules, g, ps, who, actor, arg_p, towner):
    n = g[G_NP]
    if who == W_SELF:
        return actor
    if who == W_ANOTHER or who == W_ANY:
        if 0 <= arg_p < n:
            return arg_p
        return actor if who == W_ANY else -1
    if who == W_TARGET_OWNER:
        return towner
    if who == W_CURRENT:
        return g[G_CUR]
    if who == W_LEAST_ASSIGNMENTS:
        if alone_fewest(rules, ps, n, actor):
            return -1  # the actor alone has the fewest A cards: nobody (effects.single_who)
        m = 1 << 30
        best = -1
        for q in range(n):
            if q != actor and (ps[q, P_N_ASSIGN] < m or (ps[q, P_N_ASSIGN] == m and q == towner)):
                m = ps[q, P_N_ASSIGN]
                best = q
        return best
    return -1


@jit(force=True)
def eff_value(t, s, me, op, n, who, mask, actor, arg_a, arg_p, te, w, rem):
    """One effect's value to `me` (no recursion: cancel/copy read one level)."""
    npl = s.g[G_NP]
    towner = s.pile[te, PF_PLAYER] if te >= 0 else -1
    if op == OP_WORK or op == OP_TOKENS:
        a = arg_a
        if a < 0:
            a = rem[REM_NEAREST + actor] if actor >= 0 else -1  # actor's A card nearest completion (assignment_memo)
        if a < 0:
            return 0.0
        r = remaining(t, s, a)
        if w[W.useful_tasks] != 0:
            # only the tasks the A card still needs count; short of completion, nearer is better
            gain = w[W.w_task] * min(n, r) + w[W.w_complete] * (1.0 if r <= n else 0.0) - 0.05 * max(0, r - n)
        else:
            gain = w[W.w_task] * n + w[W.w_complete] * (1.0 if r <= n else 0.0)
            gain += 0.05 * (n - r)  # prefer the card nearest completion
        return hurt(rem, me, actor, -gain, w) if actor != me else gain
    if op == OP_SNOOZE:
        v = 0.0
        q1 = who_player(t[0], s.g, s.ps, who, actor, arg_p, towner)
        for q in range(npl):
            if who == W_ALL or (who == W_OTHERS and q != actor) or q == q1:
                v += hurt(rem, me, q, snooze_cost(t[0], t[1], t[3][s.ps[q, P_EMP]], s.ps[q, P_SNOOZE], n, w), w)
        return v
    if op == OP_DRAW:
        q = who_player(t[0], s.g, s.ps, who, actor, arg_p, towner)
        return hurt(rem, me, q, -w[W.w_card] * n, w) if q >= 0 else 0.0
    if op == OP_TAKE_DISCARD:
        return hurt(rem, me, actor, -w[W.w_card] * 2.0 * n, w)
    if op == OP_GIVE_ASSIGNMENT:
        q = who_player(t[0], s.g, s.ps, who, actor, arg_p, towner)
        if q < 0 or q == actor or s.ps[actor, P_N_ASSIGN] == 0:
            return 0.0
        return hurt(rem, me, actor, -w[W.w_give], w) + hurt(rem, me, q, w[W.w_give], w)
    if op == OP_TAKE_ASSIGNMENT:
        q = who_player(t[0], s.g, s.ps, who, actor, arg_p, towner)
        if q < 0 or q == actor or s.ps[q, P_N_ASSIGN] == 0:
            return 0.0
        return hurt(rem, me, actor, w[W.w_give] * 0.8, w) + hurt(rem, me, q, -w[W.w_give] * 0.8, w)
    if op == OP_SKIP_TURN:
        q = who_player(t[0], s.g, s.ps, who, actor, arg_p, towner)
        if q < 0:
            return 0.0
        return hurt(rem, me, q, w[W.w_skip], w)
    if op == OP_DISCARD_WORK:
        q = who_player(t[0], s.g, s.ps, who, actor, arg_p, towner)
        if q < 0:
            return 0.0
        best = 0
        for x in range(t[0][R_N_MAIN]):
            # the W card Lost File hits (effects.lose_work): its tasks and its Task tokens
            if s.zone[x] == Z_ATTACHED and s.owner[x] == q and (t[1][t[3][x], KF_TYPE] & T_W) != 0:
                best = max(best, work_gained(t, s, x))
        return hurt(rem, me, q, w[W.w_task] * best, w)
    if op == OP_DISCARD_ASSIGNMENT:
        q = who_player(t[0], s.g, s.ps, who, actor, arg_p, towner)
        if q < 0 or s.ps[q, P_N_ASSIGN] == 0:
            return 0.0
        return hurt(rem, me, q, -w[W.w_give], w)
    if op == OP_DISCARD_SNOOZE:
        q = who_player(t[0], s.g, s.ps, who, actor, arg_p, towner)
        if q < 0:
            return 0.0
        return hurt(rem, me, q, snooze_cost(t[0], t[1], t[3][s.ps[q, P_EMP]], s.ps[q, P_SNOOZE], -s.ps[q, P_SNOOZE], w), w)
    return 0.0


@jit(force=True)
def kind_value_flat(t, s, me, k, base, actor, arg_a, arg_p, te, w, rem):
    """Value to `me` of kind k's effects other than cancel and copy."""
    eff = t[2]
    v = 0.0
    for j in range(base, base + MAX_EFF):
        op = eff[k, j, EF_OP]
        if op == OP_NONE:
            break
        if op == OP_CANCEL or op == OP_COPY:
            continue
        v += eff_value(t, s, me, op, eff[k, j, EF_N], eff[k, j, EF_WHO], eff[k, j, EF_MASK], actor, arg_a, arg_p, te, w, rem)
    return v


@jit(force=True)
def kind_value(t, s, me, k, base, actor, arg_a, arg_p, te, w, depth, rem):
    """Value to `me` of kind k's effects resolving for `actor`."""
    eff = t[2]
    v = 0.0
    for j in range(base, base + MAX_EFF):
        op = eff[k, j, EF_OP]
        if op == OP_NONE:
            break
        if op != OP_CANCEL and op != OP_COPY:
            v += eff_value(t, s, me, op, eff[k, j, EF_N], eff[k, j, EF_WHO], eff[k, j, EF_MASK], actor, arg_a, arg_p, te, w, rem)
            continue
        # cancel and copy read the card they act on, one level deep (one call site of kind_value_flat)
        if depth != 0 or te < 0 or s.pile[te, PF_KIND] < 0:
            continue
        k2 = s.pile[te, PF_KIND]
        cancel = op == OP_CANCEL
        if cancel:
            if (t[1][k2, KF_TYPE] & eff[k, j, EF_MASK]) == 0 or s.pile[te, PF_CANCELLED] != 0:
                continue
            tg = t[1][k2, KF_TARGET]
            arg = s.pile[te, PF_ARG]
            by = s.pile[te, PF_PLAYER]
            arg_a2 = arg if tg == TG_ASSIGNMENT else -1
            arg_p2 = arg if tg >= TG_ANOTHER else -1
        else:
            by = actor
            arg_a2 = -1
            arg_p2 = -1
        x = kind_value_flat(t, s, me, k2, 0, by, arg_a2, arg_p2, s.pile[te, PF_TARGET], w, rem)
        if cancel and w[W.cancel_employee] != 0 and (t[1][k2, KF_TYPE] & T_E) != 0 and t[1][k2, KF_IS_REACTION] == 0 \
                and by != me:
            # an E card's worth is its stats and ability against the one it replaces (it has no effects)
            gain = emp_value(t, s, by, k2, w, rem) - emp_value(t, s, by, emp_kind(t, s, by), w, rem)
            x += hurt(rem, me, by, -gain, w)
        if cancel:
            v -= x + (0.0 if s.pile[te, PF_PLAYER] == me else 0.1)
            if s.pile[te, PF_PLAYER] == me:
                v -= 1.0  # never cancel your own card
        else:
            v += x
    return v


@jit(force=True)
def emp_stats(t, k, w):
    kinds = t[1]
    return w[W.w_emp] * (kinds[k, KF_P] + 0.4 * kinds[k, KF_L] + 0.15 * kinds[k, KF_D] + 0.3 * kinds[k, KF_SHIFT])


@jit
def ability_value(t, s, me, k, w, rem):
    """What an E card's special ability is worth to `me` per round."""
    kinds = t[1]
    ab = kinds[k, KF_ABIL]
    if ab == AB_NONE:
        return 0.0
    if w[W.value_abilities] == 0:
        return 0.3
    if ab == AB_REACTION:
        return w[W.w_react_min]
    if ab == AB_PASSIVE:
        v = 0.0
        for j in range(MAX_EFF, 2 * MAX_EFF):
            op = t[2][k, j, EF_OP]
            if op == OP_WORK_BONUS:
                v += w[W.w_task] * t[2][k, j, EF_N]  # about one W card a turn
            elif op == OP_SNOOZE_SHIELD:
                v += 2.0 * w[W.w_snooze] * t[2][k, j, EF_N]  # about two gains a turn
        return v
    return max(0.0, kind_value_flat(t, s, me, k, MAX_EFF, me, -1, -1, -1, w, rem))


@jit(force=True)
def emp_value(t, s, me, k, w, rem):
    return emp_stats(t, k, w) + ability_value(t, s, me, k, w, rem)


@jit
def rest_tokens(t, s, k, target, seat):
    """Snooze an action card of kind k removes from `seat` (as much as seat has), if it targets seat."""
    sn = s.ps[seat, P_SNOOZE]
    got = 0
    for j in range(MAX_EFF):
        op = t[2][k, j, EF_OP]
        if op == OP_NONE:
            break
        who = t[2][k, j, EF_WHO]
        n = t[2][k, j, EF_N]
        if op == OP_SNOOZE and n < 0 and (who == W_SELF or (who == W_ANY and target == seat)):
            take = min(-n, sn - got)
            if take > 0:
                got += take
    return got


@jit(force=True)
def hold_value(t, s, me, k, w, rem):
    """Worth of keeping kind k in hand (for the discard phase)."""
    kinds = t[1]
    ty = kinds[k, KF_TYPE]
    v = w[W.w_card]
    if kinds[k, KF_IS_REACTION] != 0:
        return v + 0.8
    if (ty & T_E) != 0:
        return v + max(0.0, emp_value(t, s, me, k, w, rem) - emp_value(t, s, me, emp_kind(t, s, me), w, rem))
    return v + max(0.0, kind_value_flat(t, s, me, k, 0, me, -1, me, -1, w, rem)) * p_die(t[0], t[1], level(t, s, me), k)


@jit
def choose_assignment(t, S, seat, options, n, w, rem):
    """Which A card a card just played works on, gives, takes or discards: the one
    nearest completion for work, the one with the most tasks left to give away (or
    to discard of your own), the one with the fewest to take (or to discard of
    another's). Ties: the first in instance order (the fixed rules of version 1)."""
    s = S[0]
    op, nn, owner = choice_slot(t, s, s.g[G_CH_ENTRY], s.g[G_CH_SLOT])
    best = 0
    best_v = -1e300
    for i in range(n):
        a = action(t, S, options[i])[3]  # the A card instance
        r = remaining(t, s, a)
        if op == OP_WORK:
            v = eff_value(t, s, seat, OP_WORK, nn, W_SELF, 0, seat, a, -1, -1, w, rem)
        elif op == OP_GIVE_ASSIGNMENT or (op == OP_DISCARD_ASSIGNMENT and owner == seat):
            v = 1.0 * r
        else:
            v = -1.0 * r
        if v > best_v:
            best_v = v
            best = i
    return best


@jit(force=True)
def greedy(t, S, seat, options, n, params, rng):
    s = S[0]
    w = params
    best = 0
    best_v = 0.0
    ph = s.g[G_PHASE]
    # tasks left per seat (read by every `hurt`) and each seat's A card nearest
    # completion: recomputed only when an A card changed
    assignment_memo(t, s)
    rem = s.rem
    lv = level(t, s, seat)
    if ph == PH_DISCARD:
        best_v = 1e300
        for i in range(n):
            k = action(t, S, options[i])[1]
            v = hold_value(t, s, seat, k, w, rem)
            if v < best_v:
                best_v = v
                best = i
        return best
    if ph == PH_CHOOSE:
        return choose_assignment(t, S, seat, options, n, w, rem)
    if ph == PH_REACT:
        best_v = w[W.w_react_min]
    for i in range(n):
        kind, card, target, choice = action(t, S, options[i])
        if kind == ACT.end_actions or kind == ACT.pass_reaction:
            continue
        # the effects an option resolves for the seat (kind k's from `base` on, aimed at A card aa,
        # player ap or pile entry te) are read at one call site of kind_value, so that greedy holds
        # one inlined copy of it, not four (a smaller kernel: fewer instruction-cache misses)
        k = -1
        base = 0
        aa = -1
        ap = -1
        te = -1
        v = 0.0
        if kind == ACT.play:
            k = card
            kinds = t[1]
            if (kinds[k, KF_TYPE] & T_E) != 0:
                v = emp_value(t, s, seat, k, w, rem) - emp_value(t, s, seat, emp_kind(t, s, seat), w, rem)
                # a new employee also moves the tiredness ratings
                v += w[W.w_level] * (lv - shifted_level(t[0], s.ps[seat, P_SNOOZE], kinds[k, KF_SHIFT]))
                k = -1
            else:
                aa = choice  # the A card an assignment card aims at (-1: none)
                ap = target  # the player a card aims at (-1: none)
        elif kind == ACT.ability:
            if choice >= 0:  # an ability that takes a card of this kind from the discard pile
                v = hold_value(t, s, seat, choice, w, rem)
            else:
                k = card
                base = MAX_EFF
        elif kind == ACT.react:
            k = card
            te = choice
        elif kind == ACT.ability_react:
            k = card
            base = MAX_EFF
            te = choice
        if k >= 0:
            v = kind_value(t, s, seat, k, base, seat, aa, ap, te, w, 0, rem)
            if kind == ACT.play:
                if w[W.rest_spare] != 0:
                    # a Rest card kept to the end of the game is wasted: spare actions rest
                    v += w[W.rest_spare] * w[W.w_snooze] * rest_tokens(t, s, k, ap, seat)
                v *= p_die(t[0], t[1], lv, k)
            elif kind == ACT.react:
                v = v * p_die(t[0], t[1], lv, k) - 0.5 * w[W.w_card]
        if kind == ACT.play:
            v -= w[W.w_card]  # the card spent
        elif kind == ACT.ability:
            v -= 0.05
        if v > best_v:
            best_v = v
            best = i
    return best
