"""Test helpers: build constructed states, read zones, check conservation."""
from __future__ import annotations

import numpy as np

from balance.simcore.four_day_weekend import SPEC
from balance.simcore.four_day_weekend import constants
from balance.simcore.four_day_weekend import rules
from balance.simcore.trace import no_trace
from by_hand import new_game

DATA = SPEC.load_data({})
TABLES = DATA.tables
NAMES = list(DATA.card_names)


def tables_with(**params):
    return SPEC.load_data(params).tables


def cid(name: str) -> int:
    return NAMES.index(name)


def fresh(n_players=2, seed=1, game=0, tables=TABLES):
    return new_game(SPEC, tables, n_players, seed, game)


def hand(s, p):
    a = s.a
    o = a[constants.O_HAND] + p * constants.HAND_MAX
    return [int(x) for x in a[o:o + a[a[constants.O_HAND_N] + p]]]


def row(s, p):
    a = s.a
    o = a[constants.O_ROW] + p * constants.ROW_MAX
    return [int(x) for x in a[o:o + a[a[constants.O_ROW_N] + p]]]


def draw_pile(s):
    a = s.a
    return [int(x) for x in a[a[constants.O_DRAW]:a[constants.O_DRAW] + a[constants.M_DRAW_N]]]


def really(s):
    a = s.a
    return [int(x) for x in a[a[constants.O_REALLY]:a[constants.O_REALLY] + a[constants.M_REALLY_N]]]


def sets(s, p):
    a = s.a
    out = []
    for i in range(a[a[constants.O_N_SETS] + p]):
        o = a[constants.O_SETS] + (p * a[constants.M_MAX_SETS] + i) * constants.N_SLOTS
        out.append([int(x) for x in a[o:o + constants.N_SLOTS]])
    return out


def names_of(tables, insts):
    return [NAMES[int(tables[constants.T_INSTANCES][i])] for i in insts]


def check_conservation(s, tables=TABLES):
    """Every card instance is in exactly one zone, and the zone array agrees."""
    a = s.a
    n_inst = int(a[constants.M_N_INST])
    seen = np.zeros(n_inst, np.int64)
    where = np.full(n_inst, -1, np.int64)
    for i in draw_pile(s):
        seen[i] += 1
        where[i] = constants.Z_DRAW
    for i in really(s):
        seen[i] += 1
        where[i] = constants.Z_REALLY
    for p in range(int(a[constants.M_PLAYERS])):
        for i in hand(s, p):
            seen[i] += 1
            where[i] = constants.Z_HAND
        for i in row(s, p):
            seen[i] += 1
            where[i] = constants.Z_ROW
        for st in sets(s, p):
            for i in st:
                if i >= 0:
                    seen[i] += 1
                    where[i] = constants.Z_SET
    assert (seen == 1).all(), f"instances not in exactly one zone: {np.nonzero(seen != 1)[0]}"
    zones = a[a[constants.O_ZONE]:a[constants.O_ZONE] + n_inst]
    assert (zones == where).all()
    assert len(hand(s, 0)) <= tables[constants.T_RULES][constants.R_HAND_SIZE]


def build(n_players=2, hands=None, rows=None, set_lists=None, draw=None, really_pile=None, cur=0,
          phase=constants.PH_DISCARD, tables=TABLES, seed=1, leftover="draw"):
    """A state with the given cards (by name) in the given zones; every other
    card goes to the Draw pile (below the named `draw` cards, which are on top,
    last name = top card) unless `draw` is given as the complete pile."""
    s, rng = fresh(n_players, seed, tables=tables)
    a = s.a
    inst_card = tables[constants.T_INSTANCES]
    free = {}
    for i, c in enumerate(inst_card):
        free.setdefault(int(c), []).append(i)

    def take(name):
        lst = free[cid(name)]
        assert lst, f"no free copy of {name}"
        return lst.pop(0)

    hands = hands or {}
    rows = rows or {}
    set_lists = set_lists or {}
    a[a[constants.O_HAND]:a[constants.O_N_SETS] + n_players] = -1
    a[a[constants.O_HAND_N]:a[constants.O_HAND_N] + n_players] = 0
    a[a[constants.O_ROW_N]:a[constants.O_ROW_N] + n_players] = 0
    a[a[constants.O_N_SETS]:a[constants.O_N_SETS] + n_players] = 0
    a[a[constants.O_DRAW]:a[constants.O_DRAW] + a[constants.M_N_INST]] = -1
    a[a[constants.O_REALLY]:a[constants.O_REALLY] + a[constants.M_N_INST]] = -1
    for p, names in hands.items():
        for nm in names:
            rules._hand_add(a, p, take(nm))
    for p, names in rows.items():
        for nm in names:
            rules._row_add(a, p, take(nm))
    for p, lst in set_lists.items():
        for i, st in enumerate(lst):
            a[a[constants.O_N_SETS] + p] = i + 1
            for nm in st:
                inst = take(nm)
                kind = tables[constants.T_CARDS][inst_card[inst], constants.C_KIND]
                slot = {constants.EXCUSE: constants.S_EXCUSE, constants.ACTIVITY: constants.S_ACTIVITY, constants.BONUS: constants.S_BONUS}.get(
                    int(kind), constants.S_NEC + int(tables[constants.T_CARDS][inst_card[inst], constants.C_TYPE]))
                a[rules.ix_set(a, p, i, slot)] = inst
                a[a[constants.O_ZONE] + inst] = constants.Z_SET
                a[a[constants.O_OWNER] + inst] = p
    rules.sets_rebuilt(a)
    rp = [take(nm) for nm in (really_pile or [])]
    for j, inst in enumerate(rp):
        a[a[constants.O_REALLY] + j] = inst
        a[a[constants.O_ZONE] + inst] = constants.Z_REALLY
        a[a[constants.O_OWNER] + inst] = -1
    a[constants.M_REALLY_N] = len(rp)
    top = [take(nm) for nm in (draw or [])]
    rest = sorted(i for lst in free.values() for i in lst)
    # leftover="void": the other cards are out of play (tests of empty piles)
    pile = (rest + top) if leftover == "draw" else top
    for j, inst in enumerate(pile):
        a[a[constants.O_DRAW] + j] = inst
        a[a[constants.O_ZONE] + inst] = constants.Z_DRAW
        a[a[constants.O_OWNER] + inst] = -1
    a[constants.M_DRAW_N] = len(pile)
    a[constants.M_CUR] = cur
    a[constants.M_PHASE] = phase
    a[constants.M_DECLARER] = -1
    a[constants.M_DECLARED_TURN] = 0
    a[constants.M_EXHAUSTED] = 0
    a[constants.M_PILE_ONLY] = 0
    a[constants.M_TOOK_ROW] = 0
    a[constants.M_ROUND_TURNS] = 0
    if leftover == "draw":
        check_conservation(s, tables)
    return s, rng


def options(s, tables=TABLES):
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    n = rules.legal(tables, s, out)
    return [int(x) for x in out[:n]]


def do(s, rng, option, tables=TABLES, check=True):
    assert option in options(s, tables), f"{option} not legal: {options(s, tables)}"
    rules.step(tables, s, np.int64(option), rng, no_trace())
    if check:
        check_conservation(s, tables)
