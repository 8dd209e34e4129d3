"""What each seat knows: updated on public events, read by policies.

Only public events (plays, fires, break rooms, revivals, reshuffles) and a
seat's own looks (Secretary, Auditor) change another seat's knowledge; a
policy for seat o reads known[o], known_top[o] and belief[o] and public zones.
"""
import numpy as np

from .. import rng as R
from .. import zones
from ..jit import jit
from ..visibility import Hidden, Pool, Visibility
from . import constants
from .state import view


@jit(inline=True)
def public_leave(cards, s, t, c):
    """Card c left t's hand in view of everyone (played, fired, discarded)."""
    P = s.g[constants.G_NP]
    consultant = cards[c, constants.CF_KIND] == constants.KIND_CONSULTANT
    for o in range(P):
        if o == t:
            continue
        if s.known[o, t, c] > 0:
            s.known[o, t, c] -= 1
        b = s.belief[o, t, c] - 1.0
        s.belief[o, t, c] = b if b > 0.0 else 0.0
        if consultant:  # each consultant is unique: now nobody else holds it
            for u in range(P):
                if u != t:
                    s.belief[o, u, c] = 0.0


@jit
def public_enter_hand(s, t, c):
    """Card c entered t's hand from a public zone (revived, swapped in)."""
    for o in range(s.g[constants.G_NP]):
        if o != t:
            s.known[o, t, c] += 1
            s.belief[o, t, c] += 1.0


@jit
def public_still_in_hand(s, t, c):
    """Everyone saw that t holds c (a reactive card saved it from being fired)."""
    for o in range(s.g[constants.G_NP]):
        if o != t and s.known[o, t, c] == 0:
            s.known[o, t, c] = 1


@jit
def break_becomes_hidden(s, t):
    """t's break room goes into the deck: everyone adds it to t's hidden pool."""
    for o in range(s.g[constants.G_NP]):
        if o != t:
            for c in range(s.g[constants.G_NCARDS]):
                s.belief[o, t, c] += s.brk[t, c]


@jit
def forget_hand(s, t):
    for o in range(s.g[constants.G_NP]):
        for c in range(s.g[constants.G_NCARDS]):
            s.known[o, t, c] = 0
        s.known_top[o, t] = 0


@jit
def reveal_hand_to(cards, s, o, t):
    P = s.g[constants.G_NP]
    for c in range(s.g[constants.G_NCARDS]):
        s.known[o, t, c] = s.hand[t, c]
        if s.hand[t, c] > 0:
            if s.belief[o, t, c] < s.hand[t, c]:
                s.belief[o, t, c] = s.hand[t, c]
            if cards[c, constants.CF_KIND] == constants.KIND_CONSULTANT:
                for u in range(P):
                    if u != t:
                        s.belief[o, u, c] = 0.0


@jit
def pass_hand_knowledge(s, t, partner, passed):
    """t passes `passed` (counts) to partner. Partner knows exactly what came;
    the others move what they knew and a proportional share of the rest."""
    P = s.g[constants.G_NP]
    C = s.g[constants.G_NCARDS]
    total = 0
    for c in range(C):
        total += passed[c]
    for o in range(P):
        if o == t:
            continue
        if o == partner:
            for c in range(C):
                b = s.belief[o, t, c] - passed[c]
                s.belief[o, t, c] = b if b > 0.0 else 0.0
            continue
        knew = 0
        for c in range(C):
            k = min(s.known[o, t, c], passed[c])
            knew += k
            s.known[o, partner, c] += k
            s.belief[o, partner, c] += k
            b = s.belief[o, t, c] - k
            s.belief[o, t, c] = b if b > 0.0 else 0.0
        unknown = total - knew
        if unknown <= 0:
            continue
        pool = 0.0
        for c in range(C):
            if passed[c] >= 0:
                pool += s.belief[o, t, c]
        if pool <= 0.0:
            continue
        for c in range(C):
            share = unknown * s.belief[o, t, c] / pool
            if share > s.belief[o, t, c]:
                share = s.belief[o, t, c]
            s.belief[o, t, c] -= share
            s.belief[o, partner, c] += share


@jit
def on_draw(s, t, c):
    """t drew its top card c: anyone who had seen it now knows it is in hand."""
    for o in range(s.g[constants.G_NP]):
        if o != t and s.known_top[o, t] > 0:
            s.known_top[o, t] -= 1
            s.known[o, t, c] += 1


@jit
def hand_size(hand, t):
    n = 0
    for c in range(hand.shape[1]):
        n += hand[t, c]
    return n


@jit
def boss_passes(rules, s):
    """Team variant with `team_pass_boss`: a Boss goes to the partner with a
    passed hand, so where a team's Bosses are is hidden like any card's."""
    return s.g[constants.G_TEAMS] == 1 and rules[constants.R_TEAM_PASS_BOSS] == 1


@jit
def bosses_hidden(rules, s, o, t):
    """How many Bosses seat o expects among t's hidden cards (hand and deck).
    A Boss that never leaves its owner is there unless it is lost or in the
    break room; one that passes between partners is followed like any card
    (`belief`: public plays and fires, a share of each passed hand)."""
    if boss_passes(rules, s):
        return s.belief[o, t, rules[constants.R_BOSS_ID]]
    boss = rules[constants.R_BOSS_ID]
    return 0.0 if (s.seat[t, constants.S_BOSS_LOST] == 1 or s.brk[t, boss] > 0) else 1.0


@jit
def hidden_in_hand(s, o, t):
    """How many of t's hand cards seat o does not know."""
    known_n = 0
    for x in range(s.g[constants.G_NCARDS]):
        known_n += s.known[o, t, x]
    return hand_size(s.hand, t) - known_n


@jit
def unknown_belief(rules, s, o, t, x, boss):
    """How many copies of card x seat o expects among t's hidden cards, less those it knows of."""
    if x == boss:
        b = bosses_hidden(rules, s, o, t)
    else:
        b = s.belief[o, t, x]
    b -= s.known[o, t, x]
    return b


@jit
def prob_in_hand(cards, rules, s, o, t, c):
    """How likely seat o thinks card c is in t's hand, from what o has seen."""
    if s.known[o, t, c] > 0:
        return 1.0
    C = s.g[constants.G_NCARDS]
    boss = rules[constants.R_BOSS_ID]
    hidden_hand = hidden_in_hand(s, o, t)
    if hidden_hand <= 0:
        return 0.0
    top_c = 0
    kt = s.known_top[o, t]
    for i in range(kt):
        if s.deck[t, s.deck_n[t] - 1 - i] == c:
            top_c += 1
    total = 0.0
    mine = 0.0
    for x in range(C):
        b = unknown_belief(rules, s, o, t, x, boss)
        if x == c:
            b -= top_c
        if b < 0.0:
            b = 0.0
        total += b
        if x == c:
            mine = b
    # known top cards of the deck are not in the hidden hand pool
    total -= kt - top_c
    if total <= 0.0 or mine <= 0.0:
        return 0.0
    q = mine / total
    if q >= 1.0:
        return 1.0
    return 1.0 - (1.0 - q) ** hidden_hand


@jit
def hand_probs(cards, rules, s, o, t, out):
    """prob_in_hand for every card at once: out[c] for c in 0..C-1."""
    C = s.g[constants.G_NCARDS]
    boss = rules[constants.R_BOSS_ID]
    hidden_hand = hidden_in_hand(s, o, t)
    kt = s.known_top[o, t]
    total = 0.0
    for x in range(C):
        b = unknown_belief(rules, s, o, t, x, boss)
        for i in range(kt):
            if s.deck[t, s.deck_n[t] - 1 - i] == x:
                b -= 1.0
        if b < 0.0:
            b = 0.0
        out[x] = b
        total += b
    for x in range(C):
        if s.known[o, t, x] > 0:
            out[x] = 1.0
        elif hidden_hand <= 0 or total <= 0.0 or out[x] <= 0.0:
            out[x] = 0.0
        else:
            q = out[x] / total
            out[x] = 1.0 if q >= 1.0 else 1.0 - (1.0 - q) ** hidden_hand


@jit
def _pick(row, n, c, want, rng):
    """A random slot of row[:n] holding c (want) or not holding c (not want)."""
    k = 0
    for i in range(n):
        if (row[i] == c) == want:
            k += 1
    j = R.randint(rng, R.POLICY, k)
    for i in range(n):
        if (row[i] == c) == want:
            if j == 0:
                return i
            j -= 1
    return -1


@jit
def _bosses_unseen(rules, s, o, t):
    """Bosses seat o expects among the cards of t it has not seen (its pool)."""
    boss = rules[constants.R_BOSS_ID]
    top = 0
    for i in range(s.known_top[o, t]):
        if s.deck[t, s.deck_n[t] - 1 - i] == boss:
            top += 1
    v = bosses_hidden(rules, s, o, t) - s.known[o, t, boss] - top
    return v if v > 0.0 else 0.0


@jit
def spread_bosses(rules, s, o, pools, n_pool, rng):
    """Team variant with `team_pass_boss`: which of two opposing partners holds
    each of their hidden Bosses is hidden too (a passed hand may have carried
    one). The world puts each of them with one partner or the other as seat o
    expects (bosses_hidden), trading a hidden card of that partner's back so
    every hand and deck keeps its size. o's own team needs none: o knows its
    own cards, so its partner's hidden Bosses are the ones o cannot see."""
    boss = rules[constants.R_BOSS_ID]
    for t in range(2):
        u = t + 2
        if o == t or o == u:
            continue
        b_t = zones.count_of(pools[t], n_pool[t], boss)
        b = b_t + zones.count_of(pools[u], n_pool[u], boss)
        if b == 0:
            continue
        e_t = _bosses_unseen(rules, s, o, t)
        e_u = _bosses_unseen(rules, s, o, u)
        if e_t + e_u <= 0.0:
            continue
        want = 0
        for _ in range(b):
            if R.uniform(rng, R.POLICY) * (e_t + e_u) < e_t:
                want += 1
        want = max(want, b - n_pool[u])
        want = min(want, n_pool[t])
        while b_t != want:
            src, dst = (u, t) if b_t < want else (t, u)
            i = _pick(pools[src], n_pool[src], boss, True, rng)
            j = _pick(pools[dst], n_pool[dst], boss, False, rng)
            pools[src, i] = pools[dst, j]
            pools[dst, j] = boss
            b_t += 1 if dst == t else -1


@jit(refs=True)
def determinise(tables, S, o, rng):
    """Redraw everything seat o cannot see, keeping what o knows.

    For every other seat, the cards o has not seen (hand minus known, deck
    below the top cards o looked at) are shuffled together and dealt back
    into the same slots. o's own deck is face down too ("shuffle them with
    their other cards to form their deck"): o knows what is in it (its own
    company cards and the consultants it looked at), not the order, so it is
    shuffled below the top cards o looked at. Consultant identities o has not
    seen are first shuffled across the other seats' slots and the removed
    pile, since o does not know who got which consultant or which was removed.

    Each seat's pool is sorted before anything random reads it, so a world
    depends on the stream and on what o has seen only, never on the real
    arrangement of the hidden cards (the information contract's test).
    """
    s = S[0]
    cards = tables[0]
    rules = tables[1]
    P = s.g[constants.G_NP]
    C = s.g[constants.G_NCARDS]
    pools = np.full((P, 2 * constants.DECK_CAP), -1, np.int64)
    n_pool = np.zeros(P, np.int64)
    n_hand = np.zeros(P, np.int64)
    for t in range(P):
        if t == o:  # o's own hand is seen; its deck (below what it looked at) is not
            for i in range(s.deck_n[o] - s.known_top[o, o]):
                pools[o, n_pool[o]] = s.deck[o, i]
                n_pool[o] += 1
            continue
        for c in range(C):
            kn = s.known[o, t, c]
            if kn > s.hand[t, c]:
                kn = s.hand[t, c]
            k = s.hand[t, c] - kn
            for _ in range(k):
                pools[t, n_pool[t]] = c
                n_pool[t] += 1
            s.hand[t, c] -= k
        n_hand[t] = n_pool[t]
        hidden_deck = s.deck_n[t] - s.known_top[o, t]
        for i in range(hidden_deck):
            pools[t, n_pool[t]] = s.deck[t, i]
            n_pool[t] += 1
    for t in range(P):
        zones.sort_head(pools[t], n_pool[t])
    if boss_passes(rules, s):
        spread_bosses(rules, s, o, pools, n_pool, rng)
    # consultant identities. Who was dealt each one: its holder, except in the team variant, where a
    # passed hand may have carried it to the partner; o knows the ones it was dealt, wherever they went
    dealt_to = np.full(C, -1, np.int64)
    for c in range(C):
        for t in range(P):
            if s.counts[t, c, constants.K_OWNED] > 0:
                dealt_to[c] = t
    ids = np.empty(C * 2 + 2 * P * constants.DECK_CAP, np.int64)
    n_ids = 0
    for t in range(P):
        if t == o:  # every card in o's deck passed through o's hands or face up: o knows which it is
            continue
        for i in range(n_pool[t]):
            c = pools[t, i]
            if cards[c, constants.CF_KIND] == constants.KIND_CONSULTANT and dealt_to[c] != o:
                ids[n_ids] = c
                n_ids += 1
    n_removed = 0
    for c in range(C):
        for _ in range(s.removed[c]):
            ids[n_ids] = c
            n_ids += 1
            n_removed += 1
        s.removed[c] = 0
    zones.redeal(rng, ids, n_ids)
    j = 0
    for t in range(P):
        if t == o:
            continue
        for i in range(n_pool[t]):
            if cards[pools[t, i], constants.CF_KIND] == constants.KIND_CONSULTANT and dealt_to[pools[t, i]] != o:
                # the world's deal: the seat dealt this card was dealt this identity instead (its
                # counters say so too, or they would keep the real deal of the cards o cannot see)
                u = dealt_to[pools[t, i]]
                if u < 0:
                    u = t
                s.counts[u, pools[t, i], constants.K_OWNED] -= 1
                s.counts[u, ids[j], constants.K_OWNED] += 1
                pools[t, i] = ids[j]
                j += 1
    while j < n_ids:
        s.removed[ids[j]] += 1
        j += 1
    # deal the pools back
    for t in range(P):
        if n_pool[t] == 0:
            continue
        row = pools[t]
        zones.redeal(rng, row, n_pool[t])
        for i in range(n_hand[t]):
            s.hand[t, row[i]] += 1
        for i in range(n_hand[t], n_pool[t]):
            s.deck[t, i - n_hand[t]] = row[i]
    # a third seat's knowledge of a redealt hand (3-4 players): what o knows of the hand too stays (public
    # reveals, which every seat saw); the rest of what q saw, o did not, so q knows that many cards of the
    # world's hand instead, drawn from it: otherwise q's greedy would play the world on the real hand
    for t in range(P):
        if t == o:
            continue
        for q in range(P):
            if q == o or q == t:
                continue
            extra = 0
            for c in range(C):
                keep = min(s.known[q, t, c], s.known[o, t, c])
                extra += s.known[q, t, c] - keep
                s.known[q, t, c] = keep
            if extra == 0:
                continue
            m = 0
            for c in range(C):  # the world hand's cards q does not know yet (t's pool row, dealt out: scratch)
                for _ in range(s.hand[t, c] - s.known[q, t, c]):
                    pools[t, m] = c
                    m += 1
            zones.redeal(rng, pools[t], m)
            for i in range(min(extra, m)):
                s.known[q, t, pools[t, i]] += 1


# ---- what a seat cannot see, declared (simcore/visibility.py; tests/test_information_contract.py) ----
def _kept_in_hand(v, t):
    """Copies of each card of t's hand that some other seat knows are there (shown to it, seen to
    come back): a world keeps them, or that seat's knowledge would not be a fact."""
    keep = np.zeros(v.hand.shape[1], np.int64)
    for q in range(v.hand.shape[0]):
        if q != t:
            keep = np.maximum(keep, v.known[q, t])
    return np.minimum(keep, v.hand[t])


def _places(v, o):
    """Per seat t: (cards of t's hand in the pool, in card order) and how many deck cards (from the
    bottom) are pooled; o's hand is not pooled, the top cards o looked at are not either."""
    out = []
    for t in range(v.hand.shape[0]):
        deck = int(v.deck_n[t] - v.known_top[o, t])
        if t == o:
            out.append((np.zeros(v.hand.shape[1], np.int64), deck))
        else:
            out.append((v.hand[t] - _kept_in_hand(v, t), deck))
    return out


def _dealt_to(v):
    """The seat each card was dealt to (its deal counter), -1 for none (removed, or not dealt)."""
    owned = v.counts[:, :, constants.K_OWNED]
    return np.where(owned.any(axis=0), owned.argmax(axis=0), -1)


def _unseen_consultants(tables, v, o):
    """The consultants whose identity o has not seen: the removed ones, then each other seat's
    among its hidden cards (not dealt to o, not known by any seat, below the top cards o looked
    at), each group sorted (so the list says who has which, not where in a hand or deck)."""
    cards = tables[0]
    P, C = v.hand.shape
    dealt = _dealt_to(v)
    groups = [[] for _ in range(P + 1)]
    for c in range(C):
        if cards[c, constants.CF_KIND] != constants.KIND_CONSULTANT or dealt[c] == o:
            continue
        if v.removed[c] > 0:
            groups[P].append(c)
            continue
        for t in range(P):
            if t == o:
                continue
            if v.hand[t, c] > 0 and _kept_in_hand(v, t)[c] == 0:
                groups[t].append(c)
            elif c in v.deck[t, :v.deck_n[t] - v.known_top[o, t]]:
                groups[t].append(c)
    return np.array([c for g in groups[P:] + groups[:P] for c in g], np.int64)


def hidden_pools(tables, S, o):
    """Per seat, its cards o cannot see (o's own: its deck's order); last, the identities of the
    consultants o has not seen (exchanging two relabels every place that holds them)."""
    v = view(S)
    out = []
    for t, (hand, deck) in enumerate(_places(v, o)):
        cards = np.concatenate([np.repeat(np.arange(hand.size), hand), v.deck[t, :deck]]).astype(np.int64)
        name = f"seat {o + 1}'s own deck, order" if t == o else f"seat {t + 1}'s hand and deck"
        out.append(Pool(name, cards))
    out.append(Pool("the consultants it has not seen, identities", _unseen_consultants(tables, v, o)))
    return out


def place_pools(tables, S, o, pools):
    v = view(S)
    for t, ((hand, deck), pool) in enumerate(zip(_places(v, o), pools)):
        n_hand = int(hand.sum())
        C = hand.size
        v.hand[t] -= hand
        v.hand[t] += np.bincount(pool.cards[:n_hand], minlength=C)
        v.deck[t, :deck] = pool.cards[n_hand:]
    old = _unseen_consultants(tables, v, o)
    new = pools[-1].cards
    if old.size == 0 or np.array_equal(old, new):
        return
    label = np.arange(v.hand.shape[1])
    label[old] = new
    dealt = _dealt_to(v)
    for t in range(v.hand.shape[0]):
        if t == o:
            continue
        hand = v.hand[t].copy()
        v.hand[t, old] = 0
        v.hand[t, new] += hand[old]
        n = v.deck_n[t] - v.known_top[o, t]
        v.deck[t, :n] = label[v.deck[t, :n]]
    removed = v.removed.copy()
    v.removed[old] = 0
    v.removed[new] += removed[old]
    v.counts[:, old, constants.K_OWNED] = 0
    for c, d in zip(old, new):  # the seat dealt c was dealt d instead
        if dealt[c] >= 0:
            v.counts[dealt[c], d, constants.K_OWNED] = 1


VISIBILITY = Visibility(
    hidden=(
        Hidden("each deck", "every seat's, its own too", "order (its own deck's cards are known: its company set and "
               "the consultants it looked at)", "\"Players will look at theirs and shuffle them with their other "
               "cards to form their deck\""),
        Hidden("hands", "the other seats'", "cards, but those shown to the seat (Secretary, a reactive card that "
               "saved itself) or seen to come back", "a hand is held; the Secretary reveals one"),
        Hidden("the top of a deck", "every seat's", "cards, but those the seat looked at",
               "a look at a deck's top cards shows the looker only"),
        Hidden("consultants", "the other seats' and the removed ones", "which is whose, until played",
               "\"deal two to each player, face down ... The remaining consultant is secretly removed\""),
        Hidden("what the other seats know", "the other seats'", "what they were shown alone",
               "\"your target opponent only reveals cards to you\""),
    ),
    pools=hidden_pools,
    place=place_pools,
)
