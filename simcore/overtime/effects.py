"""The opcode interpreter: card effects, assignments, the reaction pile.

The choices made when a card is played are decisions of its player: the A
card a W card goes on, the player an R card helps (the option played), and,
for each effect that picks an A card otherwise (work done by a reaction or a
copy, an A card given, taken or discarded), the A card chosen right after the
card is played (PH_CHOOSE, `choice_slot`), up to NCH per card. The other
choices (which of your A cards gets the tokens, which W card a Lost File
hits, a chosen A card that has left its owner by the time the card resolves,
abilities) follow fixed rules documented in docs/assumptions.md (Overtime).
"""

from balance.simcore.jit import jit
from balance.simcore.trace import emit

from .constants import (
    CC_CANCELLED, CC_TAKEN, EF_MASK, EF_N, EF_OP, EF_WHO, EVQ_CAP, EV_A_DISCARD, EV_CANCEL, EV_COMPLETE, EV_EMPLOYEE,
    EV_GIVE, EV_NO_RECIPIENT, EV_RESOLVE, EV_SKIP_SET, EV_SNOOZE_DISCARD, EV_TAKE_DISCARD, EV_TOKENS, EV_TOKENS_LOST,
    EV_WORK, EV_WORK_LOST, G_CANCELS, G_COMPLETIONS, G_CUR, G_DISCARDS, G_EV_N, G_GIVES, G_NINST, G_NKINDS, G_NP,
    G_PILES_RESOLVED, G_PILE_N, G_SKIP_NOW, KF_IS_REACTION, KF_TARGET, KF_TYPE, KF_WORK, MAX_EFF, NPF,
    OP_CANCEL, OP_COPY, OP_DISCARD_ASSIGNMENT, OP_DISCARD_SNOOZE, OP_DISCARD_WORK, OP_DRAW, OP_GIVE_ASSIGNMENT,
    OP_NONE, OP_SKIP_TURN, OP_SNOOZE, OP_TAKE_ASSIGNMENT, OP_TAKE_DISCARD, OP_TOKENS, OP_WORK, OP_WORK_BONUS,
    PF_ARG, PF_CANCELLED, PF_CARD, PF_CH1, PF_CH2, PF_COVERED, PF_KIND, PF_PILE, PF_PLAYER, PF_TARGET,
    P_COMPLETED, P_DISCARDED, P_EMP, P_GIVEN, P_N_ASSIGN, P_RECEIVED, P_SKIP_NEXT, P_SNOOZE, R_N_MAIN,
    R_WORK_FOLLOWS, TG_ANOTHER, TG_ANY, TG_ASSIGNMENT, T_E, T_W, W_ALL, W_ANOTHER, W_ANY, W_CURRENT,
    W_LEAST_ASSIGNMENTS, W_OTHERS, W_SELF, W_TARGET_OWNER, Z_ASSIGN, Z_ATTACHED, Z_DISCARD, Z_EMPLOYEE, Z_OUT,
    Z_PILE,
)
from .state import (add_snooze, add_to_hand, assignments_changed, draw_cards, least_assignments_other, leader_other,
                    passive, pick_assignment, remaining, set_zone)


@jit(force=True)
def remove_assignment(t, s, a):
    """A card a leaves play (out) with its W cards (discarded); returns its owner."""
    rules = t[0]
    p = s.owner[a]
    for w in range(rules[R_N_MAIN]):
        if s.zone[w] == Z_ATTACHED and s.link[w] == a:
            s.tasks[w] = 0
            set_zone(t, s, w, Z_DISCARD)
    set_zone(t, s, a, Z_OUT)
    s.owner[a] = -1
    assignments_changed(s)
    s.ps[p, P_N_ASSIGN] -= 1
    return p


@jit
def complete_assignment(t, s, a, trace):
    """Tasks done: discard the A card (out of play) and its W cards; queue the event."""
    p = remove_assignment(t, s, a)
    s.ps[p, P_COMPLETED] += 1
    s.g[G_COMPLETIONS] += 1
    emit(trace, EV_COMPLETE, p, t[3][a], s.ps[p, P_N_ASSIGN], 0)
    ne = s.g[G_EV_N]
    if ne < EVQ_CAP:
        s.evq[ne] = p
        s.g[G_EV_N] = ne + 1


@jit
def discard_assignment(t, s, a, trace):
    """An A card discarded by an effect: out of play with its W cards, not completed
    ("an A card that is discarded by any other effect is not considered complete ...
    It just goes away!"), so nothing reacts to it."""
    p = remove_assignment(t, s, a)
    s.ps[p, P_DISCARDED] += 1
    s.g[G_DISCARDS] += 1
    emit(trace, EV_A_DISCARD, p, t[3][a], s.ps[p, P_N_ASSIGN], 0)


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


@jit(force=True)
def held_by(s, a, p):
    """A card a is on the table and p's (a chosen A card is still good when its card resolves)."""
    return a >= 0 and p >= 0 and s.zone[a] == Z_ASSIGN and s.owner[a] == p


@jit
def work_gained(t, s, w):
    """Tasks gained with attached W card w: its own and its Task tokens on an A card still in play."""
    v = s.tasks[w]
    a = s.tok_on[w]
    if a >= 0 and s.zone[a] == Z_ASSIGN:
        v += s.tok_n[w]
    return v


@jit
def lose_work(t, s, q, trace):
    """Discard q's attached W card with the most tasks gained with it ("discard a W card
    attached"): its tasks are lost, and so are the Task tokens it put on another A card
    ("all the Tasks gained with that W card are also lost"). Only W cards: a copy such
    as I'll Just Copy That! is attached but stays an S card."""
    best = -1
    best_v = -1
    for w in range(t[0][R_N_MAIN]):
        if s.zone[w] == Z_ATTACHED and s.owner[w] == q and (t[1][t[3][w], KF_TYPE] & T_W) != 0:
            v = work_gained(t, s, w)
            if v > best_v:
                best = w
                best_v = v
    if best < 0:
        return
    a = s.link[best]
    s.tasks[a] -= s.tasks[best]
    assignments_changed(s)
    emit(trace, EV_WORK_LOST, q, t[3][best], t[3][a], s.tasks[best])
    b = s.tok_on[best]
    if b >= 0 and s.zone[b] == Z_ASSIGN and s.tok_n[best] > 0:
        s.tasks[b] = max(0, s.tasks[b] - s.tok_n[best])
        emit(trace, EV_TOKENS_LOST, q, t[3][best], t[3][b], s.tok_n[best])
    s.tok_on[best] = -1
    s.tok_n[best] = 0
    s.tasks[best] = 0
    set_zone(t, s, best, Z_DISCARD)


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
            s.cc[p, k, CC_TAKEN] += 1
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
def apply_one(t, s, rng, trace, op, n, who, mask, actor, card, arg_a, arg_p, te, attached, chosen_kind, choice):
    """One effect. Returns the A card this card got attached to (or `attached`).
    `choice`: the A card its player chose for it (PH_CHOOSE), or -1."""
    rules = t[0]
    npl = s.g[G_NP]
    towner = s.pile[te, PF_PLAYER] if te >= 0 else -1
    if op == OP_WORK:
        a = arg_a
        if a < 0:
            a = choice  # work in a reaction or a copy: the A card its player chose
            if not held_by(s, a, actor):
                a = pick_assignment(t, s, actor, True, -1)
        elif s.zone[a] != Z_ASSIGN:
            a = pick_assignment(t, s, actor, True, -1)
        elif s.owner[a] != actor and rules[R_WORK_FOLLOWS] == 0:
            # the A card it was played on changed owner before it resolved (a give or take):
            # moved_assignment_keeps_work=false puts the work on its player's own A card
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
            if card >= 0:
                # remembered with the card: lost with it if it is discarded before its A card is complete
                s.tok_on[card] = a
                s.tok_n[card] += n
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
            a = choice if held_by(s, choice, actor) else pick_assignment(t, s, actor, False, -1)
            if a >= 0:
                move_assignment(t, s, a, actor, single, trace)
        elif who == W_LEAST_ASSIGNMENTS:
            # the giver alone has the fewest A cards when the card resolves: "the player that has the
            # least amount of A cards left" is themself, and giving to yourself is no give (state.alone_fewest)
            emit(trace, EV_NO_RECIPIENT, actor, s.ps[actor, P_N_ASSIGN], 0, 0)
        return attached
    if op == OP_TAKE_ASSIGNMENT:
        if single >= 0 and single != actor:
            a = choice if held_by(s, choice, single) else pick_assignment(t, s, single, True, -1)
            if a >= 0:
                move_assignment(t, s, a, single, actor, trace)
        return attached
    if op == OP_DISCARD_ASSIGNMENT:
        if single >= 0:
            # the fixed rule: your own A card with the most tasks left; another's with the fewest
            a = choice if held_by(s, choice, single) else pick_assignment(t, s, single, single != actor, -1)
            if a >= 0:
                discard_assignment(t, s, a, trace)
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
            lose_work(t, s, q, trace)
        elif op == OP_DISCARD_SNOOZE:
            if s.ps[q, P_SNOOZE] > 0:
                emit(trace, EV_SNOOZE_DISCARD, q, s.ps[q, P_SNOOZE], 0, 0)
            s.ps[q, P_SNOOZE] = 0
    return attached


@jit(force=True)
def picks_assignment(op, a_a):
    """An effect whose A card its player chooses (one choice slot each, in effect order):
    work not aimed by the lead's target (a reaction's or a copy's), give, take, discard."""
    return (op == OP_WORK and a_a < 0) or op == OP_GIVE_ASSIGNMENT or op == OP_TAKE_ASSIGNMENT or \
        op == OP_DISCARD_ASSIGNMENT


@jit(force=True)
def next_effect(eff, pile, k, end, arg_a, arg_p, te, j, k2, j2):
    """One step of the walk over kind k's effects j..end-1 (aimed at A card arg_a, player
    arg_p, pile entry te) that `apply_effects` does and `choice_slot` follows: a copy runs
    the effects of the card on pile entry te in its place, aimed at nothing of their own
    but at that card's target entry (a copy among them does nothing). (j, k2, j2) is the
    walk's state, (base, -1, 0) to start. Returns (op, n, who, mask, a_a, a_p, tte, j, k2,
    j2): the next effect, its aim, and the state to pass back; op is OP_NONE at the end,
    and k2 >= 0 while the effect is one of the copied card's (kind k2)."""
    while True:
        if k2 >= 0:
            if j2 >= MAX_EFF or eff[k2, j2, EF_OP] == OP_NONE:
                k2 = -1
                j += 1
                continue
            kk = k2
            jj = j2
            j2 += 1
            if eff[kk, jj, EF_OP] == OP_COPY:
                continue
            a_a = -1
            a_p = -1
            tte = pile[te, PF_TARGET]
        else:
            if j >= end or eff[k, j, EF_OP] == OP_NONE:
                return OP_NONE, 0, 0, 0, -1, -1, -1, j, k2, j2
            if eff[k, j, EF_OP] == OP_COPY:
                if te >= 0 and pile[te, PF_KIND] >= 0:
                    k2 = pile[te, PF_KIND]
                    j2 = 0
                else:
                    j += 1
                continue
            kk = k
            jj = j
            j += 1
            a_a = arg_a
            a_p = arg_p
            tte = te
        return (eff[kk, jj, EF_OP], eff[kk, jj, EF_N], eff[kk, jj, EF_WHO], eff[kk, jj, EF_MASK], a_a, a_p, tte,
                j, k2, j2)


@jit
def choice_slot(t, s, e, j):
    """Choice j of pile entry e: (opcode, n, owner of the A cards to choose from), or
    (OP_NONE, 0, -1) if the card has no choice j. The owner is -1 when the effect will
    do nothing (a give with nobody to give to). Walks the effects as `apply_effects`
    will (`next_effect`: a copy runs the copied card's), so the slots line up."""
    kinds = t[1]
    k = s.pile[e, PF_KIND]
    if k < 0 or s.pile[e, PF_CARD] < 0:
        return OP_NONE, 0, -1
    actor = s.pile[e, PF_PLAYER]
    tg = kinds[k, KF_TARGET]
    arg = s.pile[e, PF_ARG]
    arg_a = arg if tg == TG_ASSIGNMENT else -1
    arg_p = arg if (tg == TG_ANOTHER or tg == TG_ANY) else -1
    te = s.pile[e, PF_TARGET]
    found = 0
    jj = 0
    k2 = -1
    j2 = 0
    while True:
        op, n, who, _, a_a, a_p, tte, jj, k2, j2 = next_effect(t[2], s.pile, k, MAX_EFF, arg_a, arg_p, te, jj, k2, j2)
        if op == OP_NONE:
            break
        if not picks_assignment(op, a_a):
            continue
        if found == j:
            if op == OP_WORK:
                return op, n, actor
            towner = s.pile[tte, PF_PLAYER] if tte >= 0 else -1
            single = single_who(t, s, who, actor, a_p, towner, n)
            if op == OP_GIVE_ASSIGNMENT:
                return op, n, actor if (single >= 0 and single != actor) else -1
            if op == OP_TAKE_ASSIGNMENT:
                return op, n, single if single != actor else -1
            return op, n, single
        found += 1
    return OP_NONE, 0, -1


@jit
def apply_effects(t, s, rng, trace, k, base, actor, card, arg_a, arg_p, te, chosen_kind, ch1, ch2):
    """All effects of kind k (base 0: the card, MAX_EFF: the E card's ability).

    `copy` runs the copied card's effects in its place ("works in every way as
    the copied card, except its card type"; the walk is `next_effect`). ch1, ch2:
    the A cards chosen for the effects that pick one (`picks_assignment`), in order.
    One call site of apply_one keeps the compiled code small.
    """
    attached = -1
    j = base
    k2 = -1
    j2 = 0
    ci = 0
    while True:
        op, n, who, mask, a_a, a_p, tte, j, k2, j2 = next_effect(t[2], s.pile, k, base + MAX_EFF, arg_a, arg_p, te, j,
                                                                 k2, j2)
        if op == OP_NONE:
            break
        ck = -1 if k2 >= 0 else chosen_kind  # a copied card's effect has no chosen kind
        choice = -1
        if picks_assignment(op, a_a):
            choice = ch1 if ci == 0 else (ch2 if ci == 1 else -1)
            ci += 1
        attached = apply_one(t, s, rng, trace, op, n, who, mask, actor, card, a_a, a_p, tte, attached, ck, choice)


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
    apply_effects(t, s, rng, trace, k, 0, p, c, arg_a, arg_p, s.pile[i, PF_TARGET], -1, s.pile[i, PF_CH1],
                  s.pile[i, PF_CH2])
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
    s.pile[i, PF_CH1] = -1
    s.pile[i, PF_CH2] = -1
