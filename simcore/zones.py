"""Kernels over zones of cards that every card game needs: shuffle a pile,
draw from it with a reshuffle of the discards when it runs out, and redeal
the cards a seat cannot see (the heart of `determinise`).

A zone here is a slice of an int64 array of card ids and its count, kept by
the game wherever its state keeps it (a field of a record, an offset of a
flat array): these kernels take the array and the count and return the new
count, so they work for every state layout. Randomness comes from the
stream the caller names (rng.DEAL at setup, rng.CHANCE in play, rng.POLICY in
determinise), so variants stay paired on the same deals.
"""
import numpy as np

from . import rng as R
from .bits import lowbit
from .jit import jit
from .scratch import stack_i64

SORT_WORDS = 16  # sort_head's bitmap: card ids 0..1023, each once, are sorted by marking them


@jit
def shuffle(rng, stream, cards, n):
    """Fisher-Yates shuffle of cards[0:n] in place (rng.shuffle, for zones)."""
    R.shuffle(rng, stream, cards, n)


@jit
def gather(pool, n, cards, count):
    """Append cards[0:count] to pool[n:]; returns the new pool size."""
    for i in range(count):
        pool[n + i] = cards[i]
    return n + count


@jit
def scatter(pool, at, cards, count):
    """Fill cards[0:count] from pool[at:]; returns the next pool position."""
    for i in range(count):
        cards[i] = pool[at + i]
    return at + count


@jit
def sort_head(cards, n):
    """Sort cards[0:n] in place, allocating nothing (refless kernels call it). Distinct ids below
    64 x SORT_WORDS (card instances) are marked in a bitmap on the stack and read back in order
    (about 0.3 us for 100 cards, where a heapsort took 4 us: `determinise` runs once per search
    iteration); others (card kinds, which repeat) are heapsorted."""
    if n < 2:
        return
    bits = stack_i64(SORT_WORDS)
    for w in range(SORT_WORDS):
        bits[w] = 0
    distinct = True
    for i in range(n):
        c = cards[i]
        if c < 0 or c >= 64 * SORT_WORDS:
            distinct = False
            break
        m = np.int64(1) << (c & 63)
        if bits[c >> 6] & m:
            distinct = False
            break
        bits[c >> 6] |= m
    if distinct:
        i = 0
        for w in range(SORT_WORDS):
            word = bits[w]
            while word != 0:
                b = lowbit(word)
                cards[i] = (w << 6) + b
                i += 1
                word &= word - 1
        return
    for start in range(n // 2 - 1, -1, -1):
        _sift(cards, start, n)
    for end in range(n - 1, 0, -1):
        c = cards[0]
        cards[0] = cards[end]
        cards[end] = c
        _sift(cards, 0, end)


@jit
def _sift(cards, i, n):
    while True:
        big = i
        a = 2 * i + 1
        b = a + 1
        if a < n and cards[a] > cards[big]:
            big = a
        if b < n and cards[b] > cards[big]:
            big = b
        if big == i:
            return
        c = cards[i]
        cards[i] = cards[big]
        cards[big] = c
        i = big


@jit
def redeal(rng, pool, n):
    """Shuffle the pooled unseen cards with the policy stream: `determinise`
    gathers what the deciding seat cannot see (deck, removed cards, the other
    hands) into `pool`, redeals it here, and scatters it back to the same
    places, so every count the seat can see is kept.

    The pool is sorted first: the world then depends on which cards are unseen
    and on the stream, never on where the hidden cards really lie (gathered in
    their real order and shuffled, the same stream made a different world of
    every real deck order, and a policy's choice could follow the real order;
    tests/test_information_contract.py asks for the same choice)."""
    sort_head(pool, n)
    R.shuffle(rng, R.POLICY, pool, n)


@jit
def draw_top(deck, n):
    """The top card of a deck of n cards kept with its top at deck[n - 1]
    (-1 when empty); the caller stores n - 1."""
    if n <= 0:
        return -1
    c = deck[n - 1]
    deck[n - 1] = -1
    return c


@jit
def refill_from(rng, stream, deck, n, discards, m):
    """Shuffle the m discards and put them under the deck's n cards (the top
    stays at deck[n + m - 1]): the 'shuffle the discard pile to form a new
    deck' of most rulebooks. Returns the deck's new count; the discard pile is
    left empty (-1)."""
    R.shuffle(rng, stream, discards, m)
    for i in range(n - 1, -1, -1):
        deck[i + m] = deck[i]
    for i in range(m):
        deck[i] = discards[i]
        discards[i] = -1
    return n + m


@jit
def count_of(cards, n, card):
    """How many copies of `card` lie in cards[0:n]."""
    k = 0
    for i in range(n):
        if cards[i] == card:
            k += 1
    return k




# ---- invariant checks (a game's `check`): a zone's list against the cards marked as in it
@jit
def slots_ok(cards, n, n_ids):
    """A zone's list, its whole slice `cards` holding n cards: 0 <= n <= its size, the first n slots
    hold card ids 0..n_ids-1 and every other slot is empty (-1)."""
    if n < 0 or n > cards.shape[0]:
        return False
    for i in range(cards.shape[0]):
        x = cards[i]
        if i < n:
            if x < 0 or x >= n_ids:
                return False
        elif x != -1:
            return False
    return True


@jit
def pair_hash(card, z):
    """The hash of card `card` marked in zone `z` that a tally sums: mix64 is a bijection of 64-bit
    words, so a card listed twice in place of another, or a card marked elsewhere, changes the sum
    (compensating errors would have to cancel a 64-bit sum)."""
    return R.mix64((np.uint64(card) << np.uint64(16)) + np.uint64(z) + np.uint64(1))


@jit
def new_tally():
    """An empty tally: no card counted, hash sum 0."""
    return np.int64(0), np.uint64(0)


@jit
def tally_kind(tally, kind, z):
    """Add one card of kind `kind` in zone z to a tally (count, hash sum) of (kind, zone) pairs: a
    per-kind counter is checked against the cards it counts (see untally_counts)."""
    return tally[0] + 1, tally[1] + pair_hash(kind, z)


@jit
def tally_card(tally, card, zone, z):
    """Add one listed card, said to be in zone z, to a tally (count, hash sum) of (card, zone) pairs;
    the count turns -1, and stays so, when `card` is no card id of `zone` or is marked elsewhere."""
    if tally[0] < 0 or card < 0 or card >= zone.shape[0] or zone[card] != z:
        return np.int64(-1), tally[1]
    return tally_kind(tally, card, z)


@jit
def tally_list(tally, cards, n, zone, z):
    """tally_card for each card of the zone's list cards[0:n]."""
    for i in range(n):
        tally = tally_card(tally, cards[i], zone, z)
    return tally


@jit
def tally_owned(tally, cards, n, zone, z, owner, seat):
    """tally_list for a seat's list: each card must also be owned by `seat` (owner[card])."""
    for i in range(n):
        c = cards[i]
        if c >= 0 and c < owner.shape[0] and owner[c] != seat:
            return np.int64(-1), tally[1]
        tally = tally_card(tally, c, zone, z)
    return tally


@jit
def untally_marked(tally, zone, z):
    """Take every card marked in zone z out of the tally (a failed tally stays failed)."""
    k, h = tally
    if k < 0:
        return tally
    for c in range(zone.shape[0]):
        if zone[c] == z:
            k -= 1
            h -= pair_hash(c, z)
    return k, h


@jit
def untally_counts(tally, counts, z):
    """Take counts[kind] cards of each kind in zone z out of a tally of (kind, zone) pairs."""
    k, h = tally
    for kind in range(counts.shape[0]):
        k -= counts[kind]
        h -= np.uint64(counts[kind]) * pair_hash(kind, z)
    return k, h


@jit
def settled(tally):
    """The cards listed and the cards marked were the same, each once: the tally is back to nothing."""
    return tally[0] == 0 and tally[1] == np.uint64(0)


@jit
def lists_marked(cards, n, zone, z):
    """The zone's list cards[0:n] holds exactly the cards c with zone[c] == z, each once."""
    return settled(untally_marked(tally_list(new_tally(), cards, n, zone, z), zone, z))
