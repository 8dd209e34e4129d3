"""You're Fired!'s invariants, checked after the deal and after every step by `--check`.

`check(tables, s)` returns 0 when every invariant holds, else the 1-based code
of the first one broken; `INVARIANTS` words each code for a designer (the
spec's `invariants`). Hands, break rooms and unemployment lines are counts
per card type, so "a card in two places" shows as more copies of a type than
the card list holds, a lost card as fewer. It reads the arrays it is given
and allocates nothing (the card list has a dozen types: counting a type's
copies in the decks by a loop per type is cheap).
"""
from balance.simcore.jit import jit

from . import constants
INV_RANGE = 1
INV_DUPLICATED = 2
INV_CONSERVED = 3
INV_BOSS = 4
INV_COUNTERS = 5
INV_PLAYERS_OUT = 6
INV_TURN = 7
INV_KNOWLEDGE = 8

INVARIANTS = (
    (
        "a value is out of range: a negative card count, a deck larger than its capacity or holding a "
        "card id that does not exist, or a seat or phase out of range"
    ),
    (
        "a card is in two places: the hands, decks, break rooms, unemployment lines and removed "
        "consultants hold more copies of a card than the card list has"
    ),
    (
        "cards not conserved: the hands, decks, break rooms, unemployment lines and removed consultants "
        "hold fewer copies of a card than the card list has"
    ),
    (
        "a player's Boss is not exactly once among that player's own cards (team variant where a passed hand "
        "carries the Boss: a team's two Bosses are not among its two players' cards)"
    ),
    (
        "card counters disagree: the cards dealt to the players (plus removed consultants) are not the "
        "card list, or a player's unemployment line holds more of a card than was fired from them"
    ),
    (
        "players out disagree: the number of players out, their 'still in' flags and their order of "
        "going out do not match (or a team game lost a player)"
    ),
    (
        "turn bookkeeping disagrees: the game-over flag and the phase differ, the player whose turn it "
        "is is out or holds no card, or the player deciding is not the one the phase asks"
    ),
    (
        "a player knows more than is there: they believe another's hand holds more copies of a card "
        "than it does, have seen more cards of a deck than it holds, or a belief is negative"
    ),
)


@jit
def check(tables, S):
    s = S[0]
    cards = tables[0]
    rules = tables[1]
    C = cards.shape[0]
    P = s.g[constants.G_NP]
    boss = rules[constants.R_BOSS_ID]

    # 1. values in range
    if P < 2 or P > constants.MAX_PLAYERS or s.g[constants.G_NCARDS] != C:
        return INV_RANGE
    ph = s.g[constants.G_PHASE]
    if ph < constants.PH_PLAY or ph > constants.PH_OVER:
        return INV_RANGE
    if s.g[constants.G_CUR] < 0 or s.g[constants.G_CUR] >= P or s.g[constants.G_DECIDER] < 0 or s.g[constants.G_DECIDER] >= P:
        return INV_RANGE
    for c in range(C):
        if s.removed[c] < 0:
            return INV_RANGE
    for t in range(P):
        for c in range(C):
            if s.hand[t, c] < 0 or s.brk[t, c] < 0 or s.unemp[t, c] < 0:
                return INV_RANGE
            for k in range(constants.N_COUNTERS):
                if s.counts[t, c, k] < 0:
                    return INV_RANGE
        dn = s.deck_n[t]
        if dn < 0 or dn > constants.DECK_CAP:
            return INV_RANGE
        for i in range(constants.DECK_CAP):
            x = s.deck[t, i]
            if i < dn:
                if x < 0 or x >= C:
                    return INV_RANGE
            elif x != -1:
                return INV_RANGE
        for f in range(constants.S_WIDTH):
            if s.seat[t, f] < 0:
                return INV_RANGE
        if s.seat[t, constants.S_ALIVE] > 1 or s.seat[t, constants.S_BOSS_LOST] > 1:
            return INV_RANGE

    # 2./3. every copy of every card type is somewhere, once
    short = False
    power = rules[constants.R_POWER_CARD] if s.g[constants.G_POWER_SEAT] >= 0 else -1  # card power: one more copy of it
    for c in range(C):
        want = cards[c, constants.CF_COUNT]
        if cards[c, constants.CF_KIND] == constants.KIND_COMPANY:
            want *= P
        if c == power:
            want += 1
        have = s.removed[c]
        for t in range(P):
            have += s.hand[t, c] + s.brk[t, c] + s.unemp[t, c]
            for i in range(s.deck_n[t]):
                if s.deck[t, i] == c:
                    have += 1
        if have > want:
            return INV_DUPLICATED
        if have < want:
            short = True
    if short:
        return INV_CONSERVED

    # 4. each player's one Boss stays among their own cards; with team_pass_boss
    # a passed hand carries it to the partner: each team's two stay in the team
    passes = s.g[constants.G_TEAMS] == 1 and rules[constants.R_TEAM_PASS_BOSS] == 1
    for team in range(2 if passes else P):
        nb = 0
        for t in range(P):
            if t == team or (passes and t == team + 2):
                nb += s.hand[t, boss] + s.brk[t, boss] + s.unemp[t, boss]
                for i in range(s.deck_n[t]):
                    if s.deck[t, i] == boss:
                        nb += 1
        if nb != cards[boss, constants.CF_COUNT] * (2 if passes else 1):
            return INV_BOSS

    # 5. counters kept beside the zones
    for c in range(C):
        company = cards[c, constants.CF_KIND] == constants.KIND_COMPANY
        dealt = s.removed[c]
        for t in range(P):
            o = s.counts[t, c, constants.K_OWNED]
            if company and o != cards[c, constants.CF_COUNT] + (1 if (c == power and t == s.g[constants.G_POWER_SEAT]) else 0):
                return INV_COUNTERS
            dealt += o
            if s.unemp[t, c] > s.counts[t, c, constants.K_FIRED]:
                return INV_COUNTERS
        if not company and dealt != cards[c, constants.CF_COUNT]:
            return INV_COUNTERS

    # 6. players out
    if s.g[constants.G_TEAMS] == 1:
        if s.g[constants.G_ELIMS] != 0:
            return INV_PLAYERS_OUT
        for t in range(P):
            if s.seat[t, constants.S_ALIVE] != 1 or s.seat[t, constants.S_OUT_ORDER] != 0:
                return INV_PLAYERS_OUT
    else:
        dead = 0
        for t in range(P):
            out = s.seat[t, constants.S_OUT_ORDER]
            if (s.seat[t, constants.S_ALIVE] == 0) != (out > 0):
                return INV_PLAYERS_OUT
            if out > 0:
                dead += 1
                for u in range(t):
                    if s.seat[u, constants.S_OUT_ORDER] == out:
                        return INV_PLAYERS_OUT
        if dead != s.g[constants.G_ELIMS] or dead >= P:
            return INV_PLAYERS_OUT
        for t in range(P):
            if s.seat[t, constants.S_OUT_ORDER] > dead:
                return INV_PLAYERS_OUT

    # 7. whose turn, who decides
    if (ph == constants.PH_OVER) != (s.g[constants.G_OVER] == 1):
        return INV_TURN
    if ph != constants.PH_OVER:
        cur = s.g[constants.G_CUR]
        if s.seat[cur, constants.S_ALIVE] != 1:
            return INV_TURN
        if ph == constants.PH_PLAY:
            if s.g[constants.G_DECIDER] != cur:
                return INV_TURN
            held = 0
            for c in range(C):
                held += s.hand[cur, c]
            if held == 0:
                return INV_TURN
        elif s.g[constants.G_DECIDER] != s.g[constants.G_ACT_TARGET]:
            return INV_TURN

    # 8. knowledge never exceeds the facts
    for o in range(P):
        for t in range(P):
            kt = s.known_top[o, t]
            if kt < 0 or kt > s.deck_n[t]:
                return INV_KNOWLEDGE
            for c in range(C):
                if s.known[o, t, c] < 0 or s.known[o, t, c] > s.hand[t, c]:
                    return INV_KNOWLEDGE
                b = s.belief[o, t, c]
                if not (b >= -1e-9):  # also catches NaN
                    return INV_KNOWLEDGE
    return 0
