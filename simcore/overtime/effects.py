"""The opcode interpreter: card effects, assignments, the reaction pile.

Choices a card leaves open while it resolves (which of your A cards gets the
tokens, which W card a Lost File hits, ...) follow fixed rules documented in
docs/assumptions.md (Overtime); the choices made when a card is played (the A
card a W card goes on, the player an R card helps) are decisions.
"""

from simcore.jit import jit
from simcore.trace import emit

from .constants import (
    CC_CANCELLED, EF_MASK, EF_N, EF_OP, EF_WHO, EVQ_CAP, EV_CANCEL, EV_COMPLETE, EV_EMPLOYEE, EV_GIVE,
    EV_RESOLVE, EV_SKIP_SET, EV_SNOOZE_DISCARD, EV_TAKE_DISCARD, EV_TOKENS, EV_WORK, EV_WORK_LOST, G_CANCELS,
    G_COMPLETIONS, G_CUR, G_EV_N, G_GIVES, G_NINST, G_NKINDS, G_NP, G_PILES_RESOLVED, G_PILE_N, G_SKIP_NOW,
    KF_IS_REACTION, KF_TARGET, KF_TYPE, KF_WORK, MAX_EFF, NPF, OP_CANCEL, OP_COPY, OP_DISCARD_SNOOZE,
    OP_DISCARD_WORK, OP_DRAW, OP_GIVE_ASSIGNMENT, OP_NONE, OP_SKIP_TURN, OP_SNOOZE, OP_TAKE_ASSIGNMENT,
    OP_TAKE_DISCARD, OP_TOKENS, OP_WORK, OP_WORK_BONUS, PF_ARG, PF_CANCELLED, PF_CARD, PF_COVERED, PF_KIND,
    PF_PILE, PF_PLAYER, PF_TARGET, P_COMPLETED, P_EMP, P_GIVEN, P_N_ASSIGN, P_RECEIVED, P_SKIP_NEXT, P_SNOOZE,
    R_N_MAIN, TG_ANOTHER, TG_ANY, TG_ASSIGNMENT, T_E, W_ALL, W_ANOTHER, W_ANY, W_CURRENT, W_LEAST_ASSIGNMENTS,
    W_OTHERS, W_SELF, W_TARGET_OWNER, Z_ASSIGN, Z_ATTACHED, Z_DISCARD, Z_EMPLOYEE, Z_OUT, Z_PILE,
)
from .state import (add_snooze, add_to_hand, assignments_changed, draw_cards, least_assignments_other, leader_other,
                    passive, pick_assignment, remaining, set_zone)


@jit
def complete_assignment(t, s, a, trace):
    """Tasks done: discard the A card (out of play) and its W cards; queue the event."""
    rules = t[0]
    p = s.owner[a]
    for w in range(rules[R_N_MAIN]):
        if s.zone[w] == Z_ATTACHED and s.link[w] == a:
            s.tasks[w] = 0
            set_zone(t, s, w, Z_DISCARD)
    set_zone(t, s, a, Z_OUT)
    s.owner[a] = -1
    assignments_changed(s)
    s.ps[p, P_COMPLETED] += 1
    s.ps[p, P_N_ASSIGN] -= 1
    s.g[G_COMPLETIONS] += 1
    emit(trace, EV_COMPLETE, p, t[3][a], s.ps[p, P_N_ASSIGN], 0)
    ne = s.g[G_EV_N]
    if ne < EVQ_CAP:
        s.evq[ne] = p
        s.g[G_EV_N] = ne + 1


@jit
def add_tasks(t, s, a, n, trace):
    s.tasks[a] += n
    assignments_changed(s)
    if remaining(t, s, a) <= 0:
        complete_assignment(t, s, a, trace)


@jit
def move_assignment(t, s, a, frm, to, trace):
    """Give/take: the A card moves with its W cards and task tokens."""
    rules = t[0]
    s.owner[a] = to
    assignments_changed(s)
    for w in range(rules[R_N_MAIN]):
        if s.zone[w] == Z_ATTACHED and s.link[w] == a:
            s.owner[w] = to
    s.ps[frm, P_N_ASSIGN] -= 1
    s.ps[to, P_N_ASSIGN] += 1
    s.ps[frm, P_GIVEN] += 1
    s.ps[to, P_RECEIVED] += 1
    s.g[G_GIVES] += 1
    emit(trace, EV_GIVE, frm, to, t[3][a], s.tasks[a])


@jit
def best_discard_kind(t, s, mask):
    """Fixed rule for taking from the discard pile: most work, then by card order."""
    kinds = t[1]
    best = -1
    best_v = -1
    for k in range(s.g[G_NKINDS]):
        if s.dk[k] > 0 and (kinds[k, KF_TYPE] & mask) != 0:
            v = kinds[k, KF_WORK] * 4 + (2 if kinds[k, KF_IS_REACTION] else 1)
            if v > best_v:
                best_v = v
                best = k
    return best


@jit
def take_from_discard(t, s, p, k, trace):
    for i in range(s.g[G_NINST]):
        if s.zone[i] == Z_DISCARD and t[3][i] == k:
            add_to_hand(t, s, p, i)
            emit(trace, EV_TAKE_DISCARD, p, k, 0, 0)
            return True
    return False


@jit
def single_who(t, s, who, actor, arg_p, towner, sign):
    n = s.g[G_NP]
    if who == W_SELF:
        return actor
    if who == W_ANOTHER:
        if 0 <= arg_p < n and arg_p != actor:
            return arg_p
        return leader_other(t, s, actor)
    if who == W_ANY:
        if 0 <= arg_p < n:
            return arg_p
        return actor if sign < 0 else leader_other(t, s, actor)
    if who == W_TARGET_OWNER:
        return towner
    if who == W_LEAST_ASSIGNMENTS:
        return least_assignments_other(t, s, actor, towner)
    if who == W_CURRENT:
        return s.g[G_CUR]
    return -1


@jit
def who_includes(who, q, actor, single):
    if who == W_ALL:
        return True
    if who == W_OTHERS:
        return q != actor
    return q == single


@jit
def apply_one(t, s, rng, trace, op, n, who, mask, actor, card, arg_a, arg_p, te, attached, chosen_kind):
    """One effect. Returns the A card this card got attached to (or `attached`)."""
    rules = t[0]
    npl = s.g[G_NP]
    towner = s.pile[te, PF_PLAYER] if te >= 0 else -1
    if op == OP_WORK:
        a = arg_a
        if a < 0 or s.zone[a] != Z_ASSIGN:
            a = pick_assignment(t, s, actor, True, -1)
        if a < 0:
            return attached
        bonus = passive(t, s, actor, OP_WORK_BONUS)
        m = n + bonus
        if card >= 0 and s.zone[card] == Z_PILE:
            set_zone(t, s, card, Z_ATTACHED)
            s.link[card] = a
            s.owner[card] = s.owner[a]
            s.tasks[card] = m
            attached = a
        emit(trace, EV_WORK, actor, t[3][a], m, s.tasks[a] + m)
        add_tasks(t, s, a, m, trace)
        return attached
    if op == OP_TOKENS:
        a = pick_assignment(t, s, actor, True, attached)
        if a >= 0:
            emit(trace, EV_TOKENS, actor, t[3][a], n, s.tasks[a] + n)
            add_tasks(t, s, a, n, trace)
        return attached
    if op == OP_TAKE_DISCARD:
        for _ in range(n):
            k = chosen_kind if (chosen_kind >= 0 and s.dk[chosen_kind] > 0) else best_discard_kind(t, s, mask)
            if k < 0:
                break
            take_from_discard(t, s, actor, k, trace)
            chosen_kind = -1
        return attached
    if op == OP_CANCEL:
        if te >= 0 and s.pile[te, PF_KIND] >= 0 and (t[1][s.pile[te, PF_KIND], KF_TYPE] & mask) != 0:
            if s.pile[te, PF_CANCELLED] == 0:
                s.pile[te, PF_CANCELLED] = 1
                emit(trace, EV_CANCEL, actor, s.pile[te, PF_KIND], s.pile[te, PF_PLAYER], te)
        return attached
    single = single_who(t, s, who, actor, arg_p, towner, n)
    if op == OP_GIVE_ASSIGNMENT:
        if single >= 0 and single != actor:
            a = pick_assignment(t, s, actor, False, -1)
            if a >= 0:
                move_assignment(t, s, a, actor, single, trace)
        return attached
    if op == OP_TAKE_ASSIGNMENT:
        if single >= 0 and single != actor:
            a = pick_assignment(t, s, single, True, -1)
            if a >= 0:
                move_assignment(t, s, a, single, actor, trace)
        return attached
    for q in range(npl):
        if not who_includes(who, q, actor, single):
            continue
        if op == OP_SNOOZE:
            add_snooze(t, s, q, n, trace)
        elif op == OP_DRAW:
            draw_cards(t, s, q, n, rng, trace)
        elif op == OP_SKIP_TURN:
            if q == s.g[G_CUR]:
                s.g[G_SKIP_NOW] = 1
            else:
                s.ps[q, P_SKIP_NEXT] = 1
            emit(trace, EV_SKIP_SET, q, 1 if q == s.g[G_CUR] else 0, 0, 0)
        elif op == OP_DISCARD_WORK:
            best = -1
            for w in range(rules[R_N_MAIN]):
                if s.zone[w] == Z_ATTACHED and s.owner[w] == q and (best < 0 or s.tasks[w] > s.tasks[best]):
                    best = w
            if best >= 0:
                a = s.link[best]
                s.tasks[a] -= s.tasks[best]
                assignments_changed(s)
                emit(trace, EV_WORK_LOST, q, t[3][best], t[3][a], s.tasks[best])
                s.tasks[best] = 0
                set_zone(t, s, best, Z_DISCARD)
        elif op == OP_DISCARD_SNOOZE:
            if s.ps[q, P_SNOOZE] > 0:
                emit(trace, EV_SNOOZE_DISCARD, q, s.ps[q, P_SNOOZE], 0, 0)
            s.ps[q, P_SNOOZE] = 0
    return attached


@jit
def apply_effects(t, s, rng, trace, k, base, actor, card, arg_a, arg_p, te, chosen_kind):
    """All effects of kind k (base 0: the card, MAX_EFF: the E card's ability).

    `copy` runs the copied card's effects in its place ("works in every way as
    the copied card, except its card type"). One call site of apply_one keeps
    the compiled code small.
    """
    eff = t[2]
    attached = -1
    j = base
    in_copy = False
    k2 = -1
    j2 = 0
    te2 = -1
    while True:
        if in_copy:
            if j2 >= MAX_EFF or eff[k2, j2, EF_OP] == OP_NONE:
                in_copy = False
                j += 1
                continue
            op = eff[k2, j2, EF_OP]
            n = eff[k2, j2, EF_N]
            who = eff[k2, j2, EF_WHO]
            mask = eff[k2, j2, EF_MASK]
            j2 += 1
            if op == OP_COPY:
                continue
            a_a = -1
            a_p = -1
            tte = te2
            ck = -1
        else:
            if j >= base + MAX_EFF or eff[k, j, EF_OP] == OP_NONE:
                break
            op = eff[k, j, EF_OP]
            if op == OP_COPY:
                if te >= 0 and s.pile[te, PF_KIND] >= 0:
                    in_copy = True
                    k2 = s.pile[te, PF_KIND]
                    te2 = s.pile[te, PF_TARGET]
                    j2 = 0
                else:
                    j += 1
                continue
            n = eff[k, j, EF_N]
            who = eff[k, j, EF_WHO]
            mask = eff[k, j, EF_MASK]
            a_a = arg_a
            a_p = arg_p
            tte = te
            ck = chosen_kind
            j += 1
        attached = apply_one(t, s, rng, trace, op, n, who, mask, actor, card, a_a, a_p, tte, attached, ck)


@jit
def resolve_entry(t, s, rng, trace, i):
    c = s.pile[i, PF_CARD]
    if c < 0:
        return  # a completion event: nothing of its own to resolve
    k = s.pile[i, PF_KIND]
    p = s.pile[i, PF_PLAYER]
    if s.pile[i, PF_CANCELLED] != 0:
        emit(trace, EV_RESOLVE, p, k, 1, i)
        s.cc[p, k, CC_CANCELLED] += 1
        s.g[G_CANCELS] += 1
        set_zone(t, s, c, Z_DISCARD)
        return
    emit(trace, EV_RESOLVE, p, k, 0, i)
    kinds = t[1]
    if (kinds[k, KF_TYPE] & T_E) != 0 and kinds[k, KF_IS_REACTION] == 0:
        old = s.ps[p, P_EMP]
        set_zone(t, s, old, Z_DISCARD)
        set_zone(t, s, c, Z_EMPLOYEE)
        s.owner[c] = p
        s.ps[p, P_EMP] = c
        emit(trace, EV_EMPLOYEE, p, k, t[3][old], 0)
    arg = s.pile[i, PF_ARG]
    tg = kinds[k, KF_TARGET]
    arg_a = arg if tg == TG_ASSIGNMENT else -1
    arg_p = arg if (tg == TG_ANOTHER or tg == TG_ANY) else -1
    apply_effects(t, s, rng, trace, k, 0, p, c, arg_a, arg_p, s.pile[i, PF_TARGET], -1)
    if s.zone[c] == Z_PILE:
        set_zone(t, s, c, Z_DISCARD)


@jit
def resolve_pile(t, s, rng, trace):
    """Newest pile first, each from its top card down; the lead card last."""
    n = s.g[G_PILE_N]
    if n > 1:
        s.g[G_PILES_RESOLVED] += 1
    pid = n - 1
    i = n - 1
    while True:
        if pid >= 1:
            if s.pile[pid, PF_TARGET] != 0 or i < pid:
                pid -= 1
                i = n - 1
                continue
            if s.pile[i, PF_PILE] != pid:
                i -= 1
                continue
            e = i
            i -= 1
        elif pid == 0:
            e = 0
            pid = -1
        else:
            break
        resolve_entry(t, s, rng, trace, e)
    for i in range(n):
        for f in range(NPF):
            s.pile[i, f] = -1
    s.g[G_PILE_N] = 0


@jit
def set_entry(s, i, card, player, target, arg, pile_id, kind):
    s.pile[i, PF_CARD] = card
    s.pile[i, PF_PLAYER] = player
    s.pile[i, PF_TARGET] = target
    s.pile[i, PF_CANCELLED] = 0
    s.pile[i, PF_COVERED] = 0
    s.pile[i, PF_ARG] = arg
    s.pile[i, PF_PILE] = pile_id
    s.pile[i, PF_KIND] = kind
