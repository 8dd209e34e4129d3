"""A tiny game that exercises the shared loop: race to 21.

Players alternately add 1..3 to a total (parameter `target`, default 21); a chance die (1-6 == 1) adds a bonus
of 2 on a move. Whoever brings the total to 21 or more wins. Cards: the three
moves, counted as "played" per seat, so card counters have something to count.
"""
import numpy as np

from balance.simcore import rng as R
from balance.simcore.gamedata import loader, overlay
from balance.simcore.jit import jit
from balance.simcore.spec import Column, GameSpec, Kernels, Param, common_policies, end_index, game_index, seat_index
from balance.simcore.trace import emit

GAME_COLUMNS = (Column("total", "final total", low=0, high=160),)
END_REASONS = ("reached",)
END = end_index(END_REASONS)
G = game_index(GAME_COLUMNS)
S = seat_index(())



@jit(refs=True)
def new_game(tables, n_players, rng, trace):
    s = np.zeros(4 + n_players * 3, np.int64)
    s[0] = 0  # total
    s[1] = R.randint(rng, R.DEAL, n_players)  # first player from the deal stream
    s[2] = n_players
    s[3] = -1  # winner
    emit(trace, 1, s[1], 0, 0, 0)
    return s


@jit
def to_move(s):
    return -1 if s[3] >= 0 else s[1]


@jit
def legal(tables, s, out):
    for i in range(3):
        out[i] = i + 1
    return 3


@jit
def step(tables, s, option, rng, trace):
    p = s[1]
    add = option
    if R.randint(rng, R.CHANCE, 6) == 0:
        add += 2
    s[0] += add
    s[4 + p * 3 + option - 1] += 1
    emit(trace, 2, p, option, add, s[0])
    if tables[0][1] > 0 and s[0] >= tables[0][1]:
        s[0] -= 100  # the planted bug `bug_total` (for --check tests)
    if s[0] >= tables[0][0]:
        s[3] = p
    else:
        s[1] = (p + 1) % s[2]


@jit
def check(tables, s):
    """1: the total is below the moves played (each adds at least its value)."""
    played = 0
    for p in range(s[2]):
        for i in range(3):
            played += (i + 1) * s[4 + p * 3 + i]
    if s[0] < played:
        return 1
    return 0


@jit
def outcome(tables, s, game_row, seat_rows):
    game_row[G.end_reason] = END.reached
    game_row[G.total] = s[0]
    for p in range(s[2]):
        seat_rows[p, S.won] = 1.0 if s[3] == p else 0.0
        seat_rows[p, S.score] = s[0] if s[3] == p else 0


@jit(refs=True)
def clone(s):
    return s.copy()


@jit
def determinise(tables, s, seat, rng):
    pass


@jit
def value(tables, s, seat):
    if s[3] >= 0:
        return 1.0 if s[3] == seat else 0.0
    return 0.5


@jit
def greedy(tables, s, seat, options, n, params, rng):
    # win at once if possible, else leave the opponent a multiple of 4 short of 21
    for i in range(n):
        if s[0] + options[i] >= tables[0][0]:
            return i
    for i in range(n):
        if (tables[0][0] - s[0] - options[i]) % 4 == 0:
            return i
    return 0


@jit(refs=True)
def card_counts(s):
    return s[4:].reshape(s[2], 3, 1)


def _decode(events, data, n_players):
    out = []
    for code, a, b, c, d in events:
        if code == 1:
            out.append(f"Player {a + 1} starts.")
        elif code == 2:
            out.append(f"Player {a + 1} adds {b} ({c} with the die): total {d}.")
        elif code == -2:
            out.append("The turn cap ends the game.")
    return out


PARAMS = (Param("target", "int", 21, "the total that wins", 5, 60),
          Param("bug_total", "int", 0, "test only: a bug corrupts the total once it reaches this (0: never)", 0, 60))


def _build(reader, user):
    params = overlay({p.name: p.default for p in PARAMS}, user, "race21")
    return reader.make(params, (np.array([params["target"], params["bug_total"]], np.int64),), ["+1", "+2", "+3"])


SPEC = GameSpec(
    name="race21", title="Race to 21 (test game)", version="1", modes=("race",),
    min_players=2, max_players=4, default_players=2, cooperative=False,
    max_decisions=100, max_options=3,
    params=PARAMS,
    end_reasons=END_REASONS, invariants=("the total is below the sum of the moves played",),
    game_columns=GAME_COLUMNS, seat_columns=(),
    card_counters=("played",),
    policies=common_policies("wins at once if it can, else leaves the opponent a multiple of 4 short of 21"),
    kernels=Kernels(new_game, to_move, legal, step, outcome, clone, determinise, value, greedy, card_counts, check),
    decode_trace=_decode,
    load_data=loader("race21", _build),
)
