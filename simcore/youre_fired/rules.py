"""The rules of You're Fired! as kernels: deal, turns, effects, reactions, ends.

A decision is one of four phases: the turn player's play (PH_PLAY), and the
target's off-turn reactions: cancel the card (PH_CANCEL), let a reactive card
be fired instead (PH_REDIRECT), choose the card to discard (PH_DISCARD).

Play option code: mode + 2*(card + C*(target + 4*(name + (C+1)*name2)))
with mode 0 = play for the effect, 1 = straight to the break room; name and
name2 = C mean "no card". Reaction codes: 0 = decline, c+1 = play card c.
Discard codes: the card id.
"""
import numpy as np

from .. import rng as R
from .. import zones
from ..jit import jit
from ..trace import emit
from . import constants
from .constants import GAME_COL, SEAT_COL
from .knowledge import (break_becomes_hidden, forget_hand, hand_size, on_draw, pass_hand_knowledge,
                        public_enter_hand, public_leave, public_still_in_hand, reveal_hand_to)
from .state import empty_state


# ------------------------------------------------------------------ options
@jit
def encode(C, mode, card, target, name, name2):
    return mode + 2 * (card + C * (target + constants.MAX_PLAYERS * (name + (C + 1) * name2)))


@jit
def decode(C, code):
    mode = code % 2
    code //= 2
    card = code % C
    code //= C
    target = code % constants.MAX_PLAYERS
    code //= constants.MAX_PLAYERS
    name = code % (C + 1)
    name2 = code // (C + 1)
    return mode, card, target, name, name2


@jit
def action(tables, S, option):
    """(kind, card, target, choice) of a legal option (constants.ACT): the card played, discarded or
    reacted with, the seat it targets, and the card it names (guessed, fired from a break room,
    revived) or, for a swap, the hand card x and the break-room card y as x + C * y; -1 where one
    does not apply."""
    s = S[0]
    cards, rules = tables
    C = cards.shape[0]
    ph = s.g[constants.G_PHASE]
    if ph == constants.PH_CANCEL or ph == constants.PH_REDIRECT:
        if option == 0:
            return constants.ACT.decline, -1, -1, -1
        kind = constants.ACT.cancel if ph == constants.PH_CANCEL else constants.ACT.redirect
        return kind, option - 1, -1, -1
    if ph == constants.PH_DISCARD:
        return constants.ACT.discard, option, -1, -1
    mode, c, t, x, y = decode(C, option)
    if mode == 1:
        return constants.ACT.break_room, c, -1, -1
    op = cards[c, constants.CF_EFFECT]
    if c == rules[constants.R_BOSS_ID]:
        return constants.ACT.boss, c, t, -1
    targeted = (op == constants.OP_GUESS_FIRE_HAND or op == constants.OP_FIRE_FROM_BREAK or op == constants.OP_REVEAL_HAND
                or op == constants.OP_DISCARD or op == constants.OP_PEEK_DECK)
    if op == constants.OP_SWAP:
        choice = x + C * y
    else:
        choice = x if x < C else -1
    return constants.ACT.play, c, t if targeted else -1, choice


# ------------------------------------------------------------------ seats
@jit
def is_opponent(s, a, t):
    if a == t or s.seat[t, constants.S_ALIVE] == 0:
        return False
    if s.g[constants.G_TEAMS] == 1:
        return (a % 2) != (t % 2)
    return True


@jit
def alive_count(s):
    n = 0
    for p in range(s.g[constants.G_NP]):
        n += s.seat[p, constants.S_ALIVE]
    return n


# ------------------------------------------------------------------ cards moving
@jit
def draw_one(s, t, trace):
    n = s.deck_n[t]
    if n == 0:
        return -1
    c = zones.draw_top(s.deck[t], n)
    s.deck_n[t] = n - 1
    s.hand[t, c] += 1
    s.counts[t, c, constants.K_DRAWN] += 1
    on_draw(s, t, c)
    emit(trace, constants.EV_DRAW, t, c, 0, 0)
    return c


@jit
def shuffle_deck(s, t, rng, stream):
    zones.shuffle(rng, stream, s.deck[t], s.deck_n[t])
    for o in range(s.g[constants.G_NP]):
        s.known_top[o, t] = 0


@jit
def draw_hand(rules, s, t, k, reveal, rng, stream, trace):
    """Draw k cards; with `reveal`, a Boss among them is shown, replaced by
    another draw and shuffled back into the deck."""
    boss = rules[constants.R_BOSS_ID]
    drawn = 0
    aside = False
    while drawn < k and s.deck_n[t] > 0:
        c = draw_one(s, t, trace)
        if c == boss and reveal and not aside:
            s.hand[t, boss] -= 1
            aside = True
            emit(trace, constants.EV_BOSS_REVEAL, t, 0, 0, 0)
            continue
        drawn += 1
    if aside:
        s.deck[t, s.deck_n[t]] = boss
        s.deck_n[t] += 1
        shuffle_deck(s, t, rng, stream)


@jit
def break_into_deck(s, t, rng):
    break_becomes_hidden(s, t)
    C = s.g[constants.G_NCARDS]
    for c in range(C):
        for _ in range(s.brk[t, c]):
            s.deck[t, s.deck_n[t]] = c
            s.deck_n[t] += 1
        s.brk[t, c] = 0
    shuffle_deck(s, t, rng, R.CHANCE)


@jit(refs=True)
def full_reshuffle(rules, s, t, rng, trace):
    """Hand, break room and deck together, then a new hand. In teams the hand
    goes to the partner first: "they must pass all of the employees in their
    hand to their partner", a Boss held among them (`team_pass_boss`: the Boss
    is one of the "three employees" of the starting hand; false, it stays)."""
    C = s.g[constants.G_NCARDS]
    boss = rules[constants.R_BOSS_ID]
    if s.g[constants.G_TEAMS] == 1:
        partner = (t + 2) % 4
        passed = np.zeros(C, np.int64)
        n = 0
        for c in range(C):
            if (c != boss or rules[constants.R_TEAM_PASS_BOSS] == 1) and s.hand[t, c] > 0:
                passed[c] = s.hand[t, c]
                n += passed[c]
        pass_hand_knowledge(s, t, partner, passed)
        for c in range(C):
            s.hand[partner, c] += passed[c]
            s.hand[t, c] -= passed[c]
            s.counts[partner, c, constants.K_RECEIVED] += passed[c]
        emit(trace, constants.EV_PASS, t, partner, n, passed[boss])
    break_becomes_hidden(s, t)
    for c in range(C):
        for _ in range(s.hand[t, c] + s.brk[t, c]):
            s.deck[t, s.deck_n[t]] = c
            s.deck_n[t] += 1
        s.hand[t, c] = 0
        s.brk[t, c] = 0
    forget_hand(s, t)
    shuffle_deck(s, t, rng, R.CHANCE)
    draw_hand(rules, s, t, rules[constants.R_REDRAW_HAND], rules[constants.R_BOSS_REVEAL_REDRAW] == 1, rng, R.CHANCE, trace)


# ------------------------------------------------------------------ ending
@jit
def game_over(s, winner, reason, trace):
    s.g[constants.G_OVER] = 1
    s.g[constants.G_PHASE] = constants.PH_OVER
    s.g[constants.G_WINNER] = winner
    s.g[constants.G_END] = reason
    emit(trace, constants.EV_GAME_OVER, winner, reason, s.g[constants.G_TEAMS], 0)


@jit
def team_bosses_out(rules, s, t):
    """Team variant: the Bosses of t's team in its unemployment lines (fired,
    or played and lost). With `team_pass_boss` a Boss moves between partners,
    so its owner is whoever holds it; the team has two."""
    boss = rules[constants.R_BOSS_ID]
    return s.unemp[t, boss] + s.unemp[(t + 2) % 4, boss]


@jit
def boss_falls(rules, s, t, cause, rng, trace):
    """t's Boss is out: already moved to its zone by the caller (unemployment
    line when fired, break room when played). 2-4 free-for-all: t is out and
    everyone left reshuffles; teams: t goes on, passing the rest of its hand."""
    boss = rules[constants.R_BOSS_ID]
    if cause == constants.CAUSE_FIRED:
        s.g[constants.G_BOSSES_FIRED] += 1
    elif cause == constants.CAUSE_FORCED:
        s.g[constants.G_FORCED_OUT] += 1
    else:
        s.g[constants.G_FAILED_BLUFFS] += 1
    reason = constants.END.boss_fired + cause
    if s.g[constants.G_TEAMS] == 1:
        if cause != constants.CAUSE_FIRED and s.brk[t, boss] > 0:  # a played Boss is lost like a fired one
            s.brk[t, boss] -= 1
            s.unemp[t, boss] += 1
        s.seat[t, constants.S_BOSS_LOST] = 1
        s.counts[t, boss, constants.K_FIRED] += 1
        emit(trace, constants.EV_ELIMINATED, t, cause, 1, 0)
        # "The game ends when both Bosses from either team have been fired."
        if team_bosses_out(rules, s, t) >= 2:
            game_over(s, 1 - (t % 2), constants.END.teams_both_bosses, trace)
            return
        full_reshuffle(rules, s, t, rng, trace)
        return
    if s.unemp[t, boss] > 0:
        s.counts[t, boss, constants.K_FIRED] += 1
    s.seat[t, constants.S_ALIVE] = 0
    s.g[constants.G_ELIMS] += 1
    s.seat[t, constants.S_OUT_ORDER] = s.g[constants.G_ELIMS]
    emit(trace, constants.EV_ELIMINATED, t, cause, 0, 0)
    P = s.g[constants.G_NP]
    if alive_count(s) == 1:
        for p in range(P):
            if s.seat[p, constants.S_ALIVE] == 1:
                game_over(s, p, reason, trace)
        return
    # "All players must then shuffle their hand, deck, and break room"
    emit(trace, constants.EV_RESHUFFLE_ALL, t, 0, 0, 0)
    for p in range(P):
        if s.seat[p, constants.S_ALIVE] == 1:
            full_reshuffle(rules, s, p, rng, trace)


@jit
def boss_after_success(rules, s, a, rng, trace):
    """Team variant: a's Boss play fired its target's Boss and lies in a's break
    room. The rulebook gives no rule for it (2 players: the game is over; 3+:
    everyone reshuffles hand, deck and break room). `team_boss_after_success`:
    leave it there (nothing can target it there), shuffle it into a's deck, or
    take it back into a's hand (in view of all)."""
    boss = rules[constants.R_BOSS_ID]
    where = rules[constants.R_TEAM_BOSS_AFTER]
    if where == constants.BOSS_TO_BREAK_ROOM or s.brk[a, boss] == 0:
        return
    s.brk[a, boss] -= 1
    if where == constants.BOSS_TO_DECK:
        s.deck[a, s.deck_n[a]] = boss
        s.deck_n[a] += 1
        for o in range(s.g[constants.G_NP]):
            if o != a:
                s.belief[o, a, boss] += 1.0  # back among a's hidden cards
        shuffle_deck(s, a, rng, R.CHANCE)
    else:
        s.hand[a, boss] += 1
        s.counts[a, boss, constants.K_RECEIVED] += 1
        public_enter_hand(s, a, boss)
    emit(trace, constants.EV_BOSS_BACK, a, where, 0, 0)


@jit
def failed_firing(rules, s, t, rng, trace):
    """Someone tried to fire t's Boss and failed: t reshuffles and redraws."""
    s.g[constants.G_FAILED_FIRINGS] += 1
    s.seat[t, constants.S_RESHUFFLES] += 1
    emit(trace, constants.EV_FAILED_FIRING, t, 0, 0, 0)
    if rules[constants.R_FAILED_FIRING_RESHUFFLE] == 1:
        full_reshuffle(rules, s, t, rng, trace)


@jit
def fire_from_hand(cards, rules, s, t, c, by, rng, trace):
    boss = rules[constants.R_BOSS_ID]
    s.hand[t, c] -= 1
    s.unemp[t, c] += 1
    public_leave(cards, s, t, c)
    if c == boss:
        s.seat[by, constants.S_BOSS_HITS] += 1
        emit(trace, constants.EV_BOSS_FIRED, t, by, 0, 0)
        boss_falls(rules, s, t, constants.CAUSE_FIRED, rng, trace)
        return
    s.counts[t, c, constants.K_FIRED] += 1
    s.seat[t, constants.S_CARDS_FIRED] += 1
    s.seat[by, constants.S_FIRED_OTHERS] += 1
    emit(trace, constants.EV_HIT, by, t, c, 0)
    if rules[constants.R_REPLACE_FIRED] == 1:
        draw_one(s, t, trace)


@jit
def replace_anywhere(rules):
    """"When one of your employees is fired you will immediately draw to replace
    it": also the Fall Guy firing himself and a card fired from a break room,
    unless `replace_fired_hand_only` (a card fired out of a hand is always replaced)."""
    return rules[constants.R_REPLACE_FIRED] == 1 and rules[constants.R_REPLACE_HAND_ONLY] == 0


@jit
def actor_boss_fails(rules, s, a, rng, trace):
    """The turn player's Boss play did not fire the target's Boss."""
    cause = constants.CAUSE_FORCED if s.g[constants.G_ACT_FORCED] == 1 else constants.CAUSE_BLUFF
    boss_falls(rules, s, a, cause, rng, trace)


# ------------------------------------------------------------------ turns
@jit(inline=True)
def start_turn(rules, s, first, rng, trace):
    """Draw 1, then up to the hand size; a seat with nothing to play passes."""
    P = s.g[constants.G_NP]
    p = first
    for _ in range(P + 1):
        if s.seat[p, constants.S_ALIVE] == 1:
            s.g[constants.G_TURN] += 1
            s.seat[p, constants.S_TURNS] += 1
            emit(trace, constants.EV_TURN, p, s.g[constants.G_TURN], 0, 0)
            draw_one(s, p, trace)
            while hand_size(s.hand, p) < rules[constants.R_HAND] and s.deck_n[p] > 0:
                draw_one(s, p, trace)
            if hand_size(s.hand, p) > 0:
                s.g[constants.G_CUR] = p
                s.g[constants.G_DECIDER] = p
                s.g[constants.G_PHASE] = constants.PH_PLAY
                return
            emit(trace, constants.EV_SKIP, p, 0, 0, 0)
        p = (p + 1) % P
    game_over(s, -1, constants.END.stalled, trace)


@jit
def progress(s):
    """What moves a game towards its end, as a count that never goes down: the
    most cards the unemployment lines have held together (a card fired, a Boss
    lost), failed attempts on a Boss, players out. A card a Spouse brings back
    and that is fired again only returns the lines to a count they had held, so
    a cycle of revivals and firings (a revived Boss fired again, the Fall Guy
    brought back to fire himself again) is no progress."""
    u = 0
    for p in range(s.g[constants.G_NP]):
        for c in range(s.g[constants.G_NCARDS]):
            u += s.unemp[p, c]
    if u > s.g[constants.G_UNEMP_MAX]:
        s.g[constants.G_UNEMP_MAX] = u
    return s.g[constants.G_UNEMP_MAX] + s.g[constants.G_FAILED_FIRINGS] + s.g[constants.G_ELIMS]


@jit
def deadlocked_team(rules, s):
    """Team variant: the team x when every seat that can still play (cards in
    hand or deck) is on team x and no opposing Boss still in play is in a hand
    or a deck, so team x cannot fire one and the other team cannot play; -1
    otherwise (also when nobody can play: start_turn ends that as stalled)."""
    boss = rules[constants.R_BOSS_ID]
    acting = 0
    for p in range(4):
        if hand_size(s.hand, p) > 0 or s.deck_n[p] > 0:
            acting |= 1 << (p % 2)
    if acting != 1 and acting != 2:
        return -1
    x = 0 if acting == 1 else 1
    for p in range(4):  # a lost Boss is in an unemployment line; a passed one in the partner's zones
        if p % 2 != x:
            if s.hand[p, boss] > 0:
                return -1
            for i in range(s.deck_n[p]):
                if s.deck[p, i] == boss:
                    return -1
    return x


@jit
def end_turn(rules, s, rng, trace):
    if s.g[constants.G_OVER] == 1:
        return
    # the no-progress guard (no_progress_turns): a game whose seats can only
    # cycle cards (a Spouse bringing back the Fall Guy that reshuffles her, or a
    # card that is fired again) ends for that reason instead of running into the turn cap
    m = progress(s)
    if m != s.g[constants.G_PROGRESS]:
        s.g[constants.G_PROGRESS] = m
        s.g[constants.G_PROGRESS_TURN] = s.g[constants.G_TURN]
    elif rules[constants.R_NO_PROGRESS_TURNS] > 0 and s.g[constants.G_TURN] - s.g[constants.G_PROGRESS_TURN] >= rules[constants.R_NO_PROGRESS_TURNS]:
        game_over(s, -1, constants.END.no_progress, trace)
        return
    if s.g[constants.G_TEAMS] == 1 and rules[constants.R_TEAM_DEADLOCK] != constants.DEADLOCK_PLAY_ON:
        x = deadlocked_team(rules, s)
        if x >= 0:
            game_over(s, x if rules[constants.R_TEAM_DEADLOCK] == constants.DEADLOCK_ACTING_TEAM_WINS else -1, constants.END.teams_deadlock, trace)
            return
    start_turn(rules, s, (s.g[constants.G_CUR] + 1) % s.g[constants.G_NP], rng, trace)


# ------------------------------------------------------------------ deal
@jit
def power_draw(key, salt, n):
    """A number in [0, n) drawn from the game's deal key (analysis.card_power.power_draw, the same)."""
    return np.int64(R.mix64(key ^ np.uint64(salt)) % np.uint64(n))


@jit
def give_power_copy(rules, s, key, P):
    """Card power (analysis.card_power): one seat gets one more copy of company card rules[R_POWER_CARD]
    in its own deck, after the opening hands, at a place drawn from the deal key, so every card dealt
    stays where it was. The seat is rules[R_POWER_SEAT] (mod the players), or drawn from the deal key.
    Its company is public, so the others count the copy among its hidden cards."""
    c = rules[constants.R_POWER_CARD]
    t = rules[constants.R_POWER_SEAT] % P if rules[constants.R_POWER_SEAT] >= 0 else power_draw(key, constants.POWER_SEAT_SALT, P)
    n = s.deck_n[t]
    at = power_draw(key, constants.POWER_SLOT_SALT, n + 1)  # deck[n - 1] is the top; `at` == n: on top
    for i in range(n, at, -1):
        s.deck[t, i] = s.deck[t, i - 1]
    s.deck[t, at] = c
    s.deck_n[t] = n + 1
    s.counts[t, c, constants.K_OWNED] += 1
    s.g[constants.G_POWER_SEAT] = t
    for o in range(P):
        if o != t:
            s.belief[o, t, c] += 1.0


@jit(refs=True)
def new_game(tables, n_players, rng, trace):
    cards, rules = tables
    key = rng[R.DEAL]  # the deal key (before any draw): card power's seat and slot are drawn from it
    C = cards.shape[0]
    P = n_players
    S = empty_state(P, C)
    s = S[0]
    s.g[constants.G_NP] = P
    s.g[constants.G_TEAMS] = 1 if (rules[constants.R_TEAMS] == 1 and P == 4) else 0
    s.g[constants.G_WINNER] = -1
    s.g[constants.G_NCARDS] = C
    cons = np.empty(C, np.int64)
    n_cons = 0
    for c in range(C):
        if cards[c, constants.CF_KIND] == constants.KIND_CONSULTANT:
            cons[n_cons] = c
            n_cons += 1
    zones.shuffle(rng, R.DEAL, cons, n_cons)
    per = rules[constants.R_CONS_2P] if P == 2 else rules[constants.R_CONS_MULTI]
    if per * P > n_cons:
        per = n_cons // P
    k = 0
    for t in range(P):
        s.seat[t, constants.S_ALIVE] = 1
        for c in range(C):
            if cards[c, constants.CF_KIND] == constants.KIND_COMPANY:
                for _ in range(cards[c, constants.CF_COUNT]):
                    s.deck[t, s.deck_n[t]] = c
                    s.deck_n[t] += 1
                s.counts[t, c, constants.K_OWNED] = cards[c, constants.CF_COUNT]
        a = -1
        b = -1
        for j in range(per):
            c = cons[k]
            k += 1
            s.deck[t, s.deck_n[t]] = c
            s.deck_n[t] += 1
            s.counts[t, c, constants.K_OWNED] = 1
            if j == 0:
                a = c
            else:
                b = c
        emit(trace, constants.EV_DEAL, t, a, b, 0)
    while k < n_cons:  # "The remaining consultant is secretly removed"
        s.removed[cons[k]] += 1
        emit(trace, constants.EV_REMOVED, cons[k], 0, 0, 0)
        k += 1
    # what each seat believes about the others' hidden cards
    for o in range(P):
        for t in range(P):
            if o == t:
                continue
            for c in range(C):
                if cards[c, constants.CF_KIND] == constants.KIND_COMPANY:
                    s.belief[o, t, c] = cards[c, constants.CF_COUNT]
                elif per > 0 and s.counts[o, c, constants.K_OWNED] == 0:
                    s.belief[o, t, c] = per / (n_cons - per)
    for t in range(P):
        shuffle_deck(s, t, rng, R.DEAL)
        draw_hand(rules, s, t, rules[constants.R_START_HAND], rules[constants.R_BOSS_REVEAL_DEAL] == 1, rng, R.DEAL, trace)
    s.g[constants.G_POWER_SEAT] = -1
    if rules[constants.R_POWER_CARD] >= 0:
        give_power_copy(rules, s, key, P)
    # "The player with the most soul crushing job goes first": seat 1
    start_turn(rules, s, 0, rng, trace)
    return S


@jit
def to_move(S):
    s = S[0]
    if s.g[constants.G_OVER] == 1:
        return -1
    return s.g[constants.G_DECIDER]


# ------------------------------------------------------------------ legal moves
@jit
def put(out, n, code):
    """Append an option (a card file with huge option counts is cut at max_options)."""
    if n < out.shape[0]:
        out[n] = code
        return n + 1
    return n


@jit
def boss_in_play(rules, teams, seat, brk, unemp, t):
    """Could a Boss be in t's hand or deck, judging by public zones only? With
    `team_pass_boss` either partner may hold either of the team's two."""
    boss = rules[constants.R_BOSS_ID]
    if teams and rules[constants.R_TEAM_PASS_BOSS] == 1:
        u = (t + 2) % 4
        return unemp[t, boss] + brk[t, boss] + unemp[u, boss] + brk[u, boss] < 2
    return seat[t, constants.S_BOSS_LOST] == 0 and brk[t, boss] == 0


@jit
def publicly_possible(cards, rules, teams, seat, brk, unemp, t, c, power_seat):
    """Could c be in t's hand, judging by public zones only? (Naming a card
    that everyone can see cannot be there is never offered.) `power_seat`
    holds one more copy of rules[R_POWER_CARD] (card power; -1: nobody)."""
    boss = rules[constants.R_BOSS_ID]
    if c == boss:
        return boss_in_play(rules, teams, seat, brk, unemp, t)
    if teams:
        return True  # passed hands mix the companies
    if cards[c, constants.CF_KIND] == constants.KIND_COMPANY:
        extra = 1 if (t == power_seat and c == rules[constants.R_POWER_CARD]) else 0
        return cards[c, constants.CF_COUNT] + extra - brk[t, c] - unemp[t, c] > 0
    for u in range(brk.shape[0]):  # a consultant seen anywhere is nobody's secret
        if brk[u, c] + unemp[u, c] > 0:
            return False
    return True


@jit
def spouse_may_revive_boss(rules, s, a):
    """Only with `spouse_revives_boss_in_teams` (the team rules: "The Boss's Spouse
    cannot bring back the Boss"; in the other modes a fired Boss ends the game or
    the player), and `spouse_boss_revivals` times a game for each team: without
    a bound a revived Boss, fired again at once (everyone saw it come back),
    reshuffles the Spouse into a small deck, and the two cycle to the turn cap."""
    if s.g[constants.G_TEAMS] != 1 or rules[constants.R_SPOUSE_BOSS_TEAMS] != 1:
        return False
    done = s.seat[a, constants.S_BOSS_REVIVALS] + s.seat[(a + 2) % 4, constants.S_BOSS_REVIVALS]
    return done < rules[constants.R_SPOUSE_BOSS_REVIVALS]


@jit
def legal(tables, S, out):
    s = S[0]
    cards, rules = tables
    C = cards.shape[0]
    P = s.g[constants.G_NP]
    ph = s.g[constants.G_PHASE]
    boss = rules[constants.R_BOSS_ID]
    n = 0
    if ph == constants.PH_OVER:
        return 0
    if ph == constants.PH_CANCEL or ph == constants.PH_REDIRECT:
        t = s.g[constants.G_DECIDER]
        out[0] = 0
        n = 1
        op = constants.OP_CANCEL if ph == constants.PH_CANCEL else constants.OP_REDIRECT
        for c in range(C):
            if s.hand[t, c] > 0 and cards[c, constants.CF_EFFECT] == op and reaction_fits(cards, rules, s, c):
                out[n] = c + 1
                n += 1
        return n
    if ph == constants.PH_DISCARD:
        t = s.g[constants.G_DECIDER]
        only_boss = hand_size(s.hand, t) == s.hand[t, boss]
        for c in range(C):
            if s.hand[t, c] > 0 and (c != boss or only_boss):
                out[n] = c
                n += 1
        return n
    a = s.g[constants.G_CUR]
    teams = s.g[constants.G_TEAMS] == 1
    opp = 0  # bit t set: t is a live opponent of a
    for t in range(P):
        if is_opponent(s, a, t):
            opp |= 1 << t
    for c in range(C):
        if s.hand[a, c] == 0:
            continue
        if c == boss:  # an attempt on any opponent whose Boss is not lost (a team's Bosses pass between partners)
            for t in range(P):
                if (opp >> t) & 1 and (s.seat[t, constants.S_BOSS_LOST] == 0 or (teams and rules[constants.R_TEAM_PASS_BOSS] == 1)):
                    n = put(out, n, encode(C, 0, c, t, C, C))
            continue
        n = put(out, n, encode(C, 1, c, 0, C, C))  # straight to the break room
        op = cards[c, constants.CF_EFFECT]
        if op == constants.OP_GUESS_FIRE_HAND:
            for t in range(P):
                if (opp >> t) & 1:
                    for x in range(C):
                        if publicly_possible(cards, rules, teams, s.seat, s.brk, s.unemp, t, x, s.g[constants.G_POWER_SEAT]):
                            n = put(out, n, encode(C, 0, c, t, x, C))
        elif op == constants.OP_FIRE_FROM_BREAK:
            for t in range(P):
                if (opp >> t) & 1:
                    for x in range(C):
                        if x != boss and s.brk[t, x] > 0:
                            n = put(out, n, encode(C, 0, c, t, x, C))
        elif op == constants.OP_REVEAL_HAND or op == constants.OP_DISCARD or op == constants.OP_PEEK_DECK:
            for t in range(P):
                if (opp >> t) & 1:
                    n = put(out, n, encode(C, 0, c, t, C, C))
        elif op == constants.OP_FIRE_SELF_RESHUFFLE or op == constants.OP_DRAW:
            n = put(out, n, encode(C, 0, c, 0, C, C))
        elif op == constants.OP_REVIVE:
            for x in range(C):
                if s.unemp[a, x] > 0 and (x != boss or spouse_may_revive_boss(rules, s, a)):
                    n = put(out, n, encode(C, 0, c, 0, x, C))
        elif op == constants.OP_SWAP:
            for x in range(C):
                if x == boss or s.hand[a, x] - (1 if x == c else 0) <= 0:
                    continue
                for y in range(C):
                    if s.brk[a, y] > 0:
                        n = put(out, n, encode(C, 0, c, 0, x, y))
    return n


@jit
def reaction_fits(cards, rules, s, r):
    """Does reactive card r answer what is pending?"""
    trig = cards[r, constants.CF_TRIGGER]
    if s.g[constants.G_PHASE] == constants.PH_CANCEL:
        if trig == constants.TRIG_TARGETED:
            return True
        op = cards[s.g[constants.G_ACT_CARD], constants.CF_EFFECT]
        return trig == constants.TRIG_GUESS and (op == constants.OP_GUESS_FIRE_HAND or op == constants.OP_BOSS)
    victim = s.g[constants.G_REDIRECT_CARD]
    if r == victim:
        return False
    if trig == constants.TRIG_FIRED:
        return True
    return trig == constants.TRIG_BOSS_FIRE and victim == rules[constants.R_BOSS_ID]


@jit
def any_reaction(cards, rules, s, t, phase):
    old = s.g[constants.G_PHASE]
    s.g[constants.G_PHASE] = phase
    op = constants.OP_CANCEL if phase == constants.PH_CANCEL else constants.OP_REDIRECT
    found = False
    for c in range(s.g[constants.G_NCARDS]):
        if s.hand[t, c] > 0 and cards[c, constants.CF_EFFECT] == op and reaction_fits(cards, rules, s, c):
            found = True
            break
    s.g[constants.G_PHASE] = old
    return found


# ------------------------------------------------------------------ step
@jit
def try_fire_from_hand(cards, rules, s, t, c, by, rng, trace):
    """Fire c from t's hand, unless t answers with a redirect: returns True
    when waiting for t's decision."""
    s.g[constants.G_REDIRECT_CARD] = c
    s.g[constants.G_PENDING_BY] = by
    if any_reaction(cards, rules, s, t, constants.PH_REDIRECT):
        s.g[constants.G_PHASE] = constants.PH_REDIRECT
        s.g[constants.G_DECIDER] = t
        return True
    resolve_fire(cards, rules, s, t, c, by, rng, trace)
    return False


@jit
def resolve_fire(cards, rules, s, t, c, by, rng, trace):
    """c is fired from t's hand (no redirect)."""
    boss = rules[constants.R_BOSS_ID]
    fire_from_hand(cards, rules, s, t, c, by, rng, trace)
    if c == boss and s.g[constants.G_OVER] == 0 and s.g[constants.G_ACT_CARD] == boss:
        emit(trace, constants.EV_BOSS_PLAY_WIN, by, t, 0, 0)  # the Boss play fired the target's Boss
        if s.g[constants.G_TEAMS] == 1:
            boss_after_success(rules, s, by, rng, trace)


@jit
def resolve(cards, rules, s, rng, trace):
    """Carry out the pending play. Returns True when a decision is pending."""
    C = cards.shape[0]
    boss = rules[constants.R_BOSS_ID]
    a = s.g[constants.G_CUR]
    c = s.g[constants.G_ACT_CARD]
    t = s.g[constants.G_ACT_TARGET]
    x = s.g[constants.G_ACT_NAME]
    y = s.g[constants.G_ACT_NAME2]
    op = cards[c, constants.CF_EFFECT]
    if op == constants.OP_BOSS:
        if s.hand[t, boss] > 0:
            return try_fire_from_hand(cards, rules, s, t, boss, a, rng, trace)
        emit(trace, constants.EV_MISS, a, t, boss, 0)
        failed_firing(rules, s, t, rng, trace)
        actor_boss_fails(rules, s, a, rng, trace)
        return False
    if op == constants.OP_GUESS_FIRE_HAND:
        s.seat[a, constants.S_GUESSES] += 1
        if x == boss:
            s.seat[a, constants.S_BOSS_ATTEMPTS] += 1
        if s.hand[t, x] > 0:
            s.seat[a, constants.S_GUESSES_HIT] += 1
            return try_fire_from_hand(cards, rules, s, t, x, a, rng, trace)
        emit(trace, constants.EV_MISS, a, t, x, 0)
        if x == boss:
            failed_firing(rules, s, t, rng, trace)
        return False
    if op == constants.OP_FIRE_FROM_BREAK:
        if s.brk[t, x] > 0:
            s.brk[t, x] -= 1
            s.unemp[t, x] += 1
            s.counts[t, x, constants.K_FIRED] += 1
            s.seat[t, constants.S_CARDS_FIRED] += 1
            s.seat[a, constants.S_FIRED_OTHERS] += 1
            emit(trace, constants.EV_FIRE_BREAK, a, t, x, 0)
            if replace_anywhere(rules):
                draw_one(s, t, trace)
        return False
    if op == constants.OP_REVEAL_HAND:
        reveal_hand_to(cards, s, a, t)
        emit(trace, constants.EV_REVEAL, a, t, hand_size(s.hand, t), 0)
        return False
    if op == constants.OP_FIRE_SELF_RESHUFFLE:
        n = 0
        for z in range(C):
            n += s.brk[a, z]
        emit(trace, constants.EV_BREAK_RESHUFFLE, a, n, 0, 0)
        break_into_deck(s, a, rng)
        return False
    if op == constants.OP_REVIVE:
        if x < C and s.unemp[a, x] > 0:
            s.unemp[a, x] -= 1
            s.hand[a, x] += 1
            s.counts[a, x, constants.K_RECEIVED] += 1
            if x == boss:
                s.seat[a, constants.S_BOSS_LOST] = 0
                s.seat[a, constants.S_BOSS_REVIVALS] += 1
            public_enter_hand(s, a, x)
            emit(trace, constants.EV_REVIVE, a, x, 0, 0)
        return False
    if op == constants.OP_DRAW:
        for _ in range(cards[c, constants.CF_N]):
            draw_one(s, a, trace)
        return False
    if op == constants.OP_DISCARD:
        if hand_size(s.hand, t) > 0:
            s.g[constants.G_PHASE] = constants.PH_DISCARD
            s.g[constants.G_DECIDER] = t
            return True
        return False
    if op == constants.OP_SWAP:
        if x < C and y < C and s.hand[a, x] > 0 and s.brk[a, y] > 0:
            s.hand[a, x] -= 1
            public_leave(cards, s, a, x)
            s.brk[a, y] -= 1
            s.hand[a, y] += 1
            s.counts[a, y, constants.K_RECEIVED] += 1
            public_enter_hand(s, a, y)
            s.brk[a, x] += 1
            emit(trace, constants.EV_SWAP, a, x, y, 0)
        return False
    if op == constants.OP_PEEK_DECK:
        k = cards[c, constants.CF_N]
        if k > s.deck_n[t]:
            k = s.deck_n[t]
        s.known_top[a, t] = k
        emit(trace, constants.EV_PEEK, a, t, k, 0)
        return False
    return False


@jit
def react_with(cards, s, t, option):
    """Seat t plays the reaction card of option (1 + card) from its hand, in view of everyone; returns the card."""
    r = option - 1
    s.hand[t, r] -= 1
    s.counts[t, r, constants.K_PLAYED] += 1
    public_leave(cards, s, t, r)
    return r


@jit
def step(tables, S, option, rng, trace):
    s = S[0]
    cards, rules = tables
    C = cards.shape[0]
    boss = rules[constants.R_BOSS_ID]
    ph = s.g[constants.G_PHASE]
    a = s.g[constants.G_CUR]
    if ph == constants.PH_PLAY:
        mode, c, t, x, y = decode(C, option)
        forced = 1 if (c == boss and hand_size(s.hand, a) == s.hand[a, boss]) else 0  # nothing else in hand
        s.hand[a, c] -= 1
        s.counts[a, c, constants.K_PLAYED] += 1
        public_leave(cards, s, a, c)
        if mode == 1:
            s.brk[a, c] += 1
            emit(trace, constants.EV_PLAY_PLAIN, a, c, 0, 0)
            end_turn(rules, s, rng, trace)
            return
        s.g[constants.G_ACT_CARD] = c
        s.g[constants.G_ACT_TARGET] = t
        s.g[constants.G_ACT_NAME] = x
        s.g[constants.G_ACT_NAME2] = y
        s.g[constants.G_ACT_FORCED] = forced
        emit(trace, constants.EV_PLAY, a, c, t, x if x < C else y)
        op = cards[c, constants.CF_EFFECT]
        # "carry out their listed effect, then place them in your break room";
        # placing first changes nothing a rule looks at, except the swap
        if op == constants.OP_FIRE_SELF_RESHUFFLE:
            s.unemp[a, c] += 1
            s.counts[a, c, constants.K_FIRED] += 1
            emit(trace, constants.EV_FIRE_SELF, a, c, 0, 0)
            if replace_anywhere(rules):  # "immediately": before his effect shuffles the break room in
                draw_one(s, a, trace)
        elif op != constants.OP_SWAP:
            s.brk[a, c] += 1
        if op == constants.OP_BOSS:
            s.seat[a, constants.S_BOSS_ATTEMPTS] += 1
        waiting = False
        if cards[c, constants.CF_TARGETED] == 1 and any_reaction(cards, rules, s, t, constants.PH_CANCEL):
            s.g[constants.G_PHASE] = constants.PH_CANCEL
            s.g[constants.G_DECIDER] = t
            return
        waiting = resolve(cards, rules, s, rng, trace)
        if op == constants.OP_SWAP:
            s.brk[a, c] += 1
        if not waiting:
            end_turn(rules, s, rng, trace)
        return
    # a window (cancel, redirect, discard) of seat t closes: play goes back to a, whose turn it is
    t = s.g[constants.G_DECIDER]
    s.g[constants.G_PHASE] = constants.PH_PLAY
    s.g[constants.G_DECIDER] = a
    if ph == constants.PH_CANCEL:
        if option == 0:
            if not resolve(cards, rules, s, rng, trace):
                end_turn(rules, s, rng, trace)
            return
        r = react_with(cards, s, t, option)
        s.brk[t, r] += 1
        emit(trace, constants.EV_CANCEL, t, r, a, 0)
        c = s.g[constants.G_ACT_CARD]
        op = cards[c, constants.CF_EFFECT]
        if op == constants.OP_GUESS_FIRE_HAND:
            s.seat[a, constants.S_GUESSES] += 1
            if s.g[constants.G_ACT_NAME] == boss:
                s.seat[a, constants.S_BOSS_ATTEMPTS] += 1
        # a cancelled attempt on the Boss "fails for any reason"
        if op == constants.OP_BOSS or (op == constants.OP_GUESS_FIRE_HAND and s.g[constants.G_ACT_NAME] == boss):
            failed_firing(rules, s, t, rng, trace)
            if op == constants.OP_BOSS:
                actor_boss_fails(rules, s, a, rng, trace)
        end_turn(rules, s, rng, trace)
        return
    if ph == constants.PH_REDIRECT:
        victim = s.g[constants.G_REDIRECT_CARD]
        by = s.g[constants.G_PENDING_BY]
        if option == 0:
            resolve_fire(cards, rules, s, t, victim, by, rng, trace)
            end_turn(rules, s, rng, trace)
            return
        r = react_with(cards, s, t, option)
        s.unemp[t, r] += 1
        s.counts[t, r, constants.K_FIRED] += 1
        s.seat[t, constants.S_CARDS_FIRED] += 1
        public_still_in_hand(s, t, victim)  # the redirect shows the card it saved was there
        emit(trace, constants.EV_REDIRECT, t, r, victim, 0)
        if rules[constants.R_REPLACE_FIRED] == 1:
            draw_one(s, t, trace)
        if victim == boss:
            failed_firing(rules, s, t, rng, trace)
            if s.g[constants.G_ACT_CARD] == boss:
                actor_boss_fails(rules, s, a, rng, trace)
        end_turn(rules, s, rng, trace)
        return
    if ph == constants.PH_DISCARD:
        c = option
        s.hand[t, c] -= 1
        s.brk[t, c] += 1
        public_leave(cards, s, t, c)
        emit(trace, constants.EV_DISCARD, t, c, 0, 0)
        if c == boss:  # the Boss in the break room: forced out
            boss_falls(rules, s, t, constants.CAUSE_FORCED, rng, trace)
        end_turn(rules, s, rng, trace)
        return


# ------------------------------------------------------------------ results
@jit
def outcome(tables, S, game_row, seat_rows):
    s = S[0]
    P = s.g[constants.G_NP]
    teams = s.g[constants.G_TEAMS] == 1
    G = GAME_COL
    game_row[G.end_reason] = s.g[constants.G_END] if s.g[constants.G_OVER] == 1 else 0
    game_row[G.turns] = s.g[constants.G_TURN]
    game_row[G.eliminations] = s.g[constants.G_ELIMS]
    game_row[G.bosses_fired] = s.g[constants.G_BOSSES_FIRED]
    game_row[G.bosses_forced_out] = s.g[constants.G_FORCED_OUT]
    game_row[G.failed_bluffs] = s.g[constants.G_FAILED_BLUFFS]
    game_row[G.failed_firings] = s.g[constants.G_FAILED_FIRINGS]
    game_row[G.winning_team] = s.g[constants.G_WINNER] if (teams and s.g[constants.G_OVER] == 1) else -1
    w = s.g[constants.G_WINNER]
    over = s.g[constants.G_OVER] == 1
    SC = SEAT_COL
    for p in range(P):
        if teams:
            won = over and w >= 0 and (p % 2) == w
            seat_rows[p, SC.won] = 1.0 if won else 0.0
            seat_rows[p, SC.score] = 1.0 if won else 0.0
            seat_rows[p, SC.team] = p % 2
            seat_rows[p, SC.place] = 1 if won else 2
        else:
            won = over and w == p
            seat_rows[p, SC.won] = 1.0 if won else 0.0
            out = s.seat[p, constants.S_OUT_ORDER]
            seat_rows[p, SC.score] = (out - 1) if out > 0 else s.g[constants.G_ELIMS]  # players outlasted
            seat_rows[p, SC.team] = p
            seat_rows[p, SC.place] = (P - out + 1) if out > 0 else (P - s.g[constants.G_ELIMS] if not won else 1)
        seat_rows[p, SC.cards_fired] = s.seat[p, constants.S_CARDS_FIRED]
        seat_rows[p, SC.fired_others] = s.seat[p, constants.S_FIRED_OTHERS]
        seat_rows[p, SC.guesses] = s.seat[p, constants.S_GUESSES]
        seat_rows[p, SC.guesses_hit] = s.seat[p, constants.S_GUESSES_HIT]
        seat_rows[p, SC.boss_attempts] = s.seat[p, constants.S_BOSS_ATTEMPTS]
        seat_rows[p, SC.boss_hits] = s.seat[p, constants.S_BOSS_HITS]
        seat_rows[p, SC.reshuffles] = s.seat[p, constants.S_RESHUFFLES]
        seat_rows[p, SC.turns_played] = s.seat[p, constants.S_TURNS]


@jit(refs=True)
def card_counts(S):
    s = S[0]
    out = s.counts[:s.g[constants.G_NP], :s.g[constants.G_NCARDS]].copy()
    for p in range(out.shape[0]):
        for c in range(out.shape[1]):
            out[p, c, constants.K_HELD_AT_END] = s.hand[p, c]
    return out
