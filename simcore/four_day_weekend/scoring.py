"""Scoring a set: Activity + Necessity points, colour doubling, then the Bonus.

Rulebook: "First, if the color of a Necessity card matches the color wheel to
the left of the Activity card's title, double that Necessity's points. Next,
follow the instructions on any Bonus card." A set scores only with an Excuse,
an Activity and at least one Necessity.
"""
import numpy as np

from ..jit import jit
from . import constants
@jit
def set_points(cards, bonus_ops, colour_mult, excuse, activity, necs, bonus, contrib):
    """Points of one set given card ids (-1 for an empty slot).

    necs: int array of 4 card ids by Necessity type. contrib (6 ints) receives
    what each card adds: [activity, food, transportation, shelter, cash, bonus]
    (the Bonus gets the difference its instructions make), summing to the total.
    Returns 0 (and zero contributions) for an incomplete set.
    """
    for i in range(6):
        contrib[i] = 0
    n_nec = 0
    for t in range(constants.N_TYPES):
        if necs[t] >= 0:
            n_nec += 1
    if excuse < 0 or activity < 0 or n_nec == 0:
        return 0
    act_v = cards[activity, constants.C_POINTS]
    wheel = cards[activity, constants.C_WHEEL]
    doubled = 0
    for t in range(constants.N_TYPES):
        c = necs[t]
        if c >= 0:
            doubled += (wheel >> cards[c, constants.C_COLOUR]) & 1
            contrib[1 + t] = 1  # the Necessity's multiplier until its points are known
    # The Bonus's instructions in order, in one walk: multipliers scale
    # components, adders accumulate `extra`, multiply_set scales everything so far.
    act_mult = 1
    extra = 0
    if bonus >= 0:
        for k in range(bonus_ops.shape[1]):
            op = bonus_ops[bonus, k, 0]
            arg = bonus_ops[bonus, k, 1]
            amount = bonus_ops[bonus, k, 2]
            if op == constants.OP_NONE:
                break
            if op == constants.OP_MULTIPLY_ACTIVITY or op == constants.OP_MULTIPLY_SET:
                act_mult *= amount
            if op == constants.OP_MULTIPLY_SET:
                extra *= amount
            elif op == constants.OP_ADD_PER_NECESSITY:
                extra += amount * n_nec
            elif op == constants.OP_ADD_IF_TYPE:
                if necs[arg] >= 0:
                    extra += amount
            elif op == constants.OP_ADD_IF_ALL_TYPES:
                if n_nec == constants.N_TYPES:
                    extra += amount
            elif op == constants.OP_ADD_FLAT:
                extra += amount
            elif op == constants.OP_ADD_PER_DOUBLED:
                extra += amount * doubled
            for t in range(constants.N_TYPES):
                c = necs[t]
                if c >= 0 and ((op == constants.OP_MULTIPLY_TYPE and arg == t) or op == constants.OP_MULTIPLY_SET or (
                        op == constants.OP_MULTIPLY_COLOUR and cards[c, constants.C_COLOUR] == arg)):
                    contrib[1 + t] *= amount
    # Colour doubling, then the multipliers; contrib keeps what each card adds
    # before the Bonus, the Bonus the difference its instructions make.
    base = act_v
    total = act_v * act_mult + extra
    contrib[0] = act_v
    for t in range(constants.N_TYPES):
        c = necs[t]
        if c >= 0:
            v = cards[c, constants.C_POINTS]
            if (wheel >> cards[c, constants.C_COLOUR]) & 1:
                v *= colour_mult
            total += v * contrib[1 + t]
            contrib[1 + t] = v
            base += v
    contrib[5] = total - base
    return total


def score_set(tables, excuse=None, activity=None, necessities=(), bonus=None, names=None) -> tuple[int, list[int]]:
    """Python helper for tests and designers: score a set given card names or ids."""
    def cid(x):
        if x is None:
            return -1
        if isinstance(x, str):
            return names.index(x)
        return int(x)

    cards, bonus_ops, _, rules = tables
    necs = np.full(constants.N_TYPES, -1, np.int64)
    for n in necessities:
        c = cid(n)
        necs[cards[c, constants.C_TYPE]] = c
    contrib = np.zeros(6, np.int64)
    total = set_points(cards, bonus_ops, rules[constants.R_COLOUR_MULTIPLIER], cid(excuse), cid(activity), necs, cid(bonus), contrib)
    return int(total), [int(x) for x in contrib]
