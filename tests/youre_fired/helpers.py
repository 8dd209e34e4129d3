"""Build You're Fired! states by hand for rulebook scenarios."""
import numpy as np

from balance.simcore import rng as R
from balance.simcore.youre_fired import SPEC
from balance.simcore.youre_fired import constants
from balance.simcore.youre_fired.rules import encode, legal, new_game, step
from balance.simcore.youre_fired.state import view

NAMES = list(SPEC.load_data({}).card_names)
ID = {n: i for i, n in enumerate(NAMES)}
C = len(NAMES)
BOSS, AXE, BEAN, FALL, MANAGER, SECRETARY, SPOUSE = (ID[n] for n in (
    "Boss", "Axe Man", "Bean Counter", "Fall Guy", "Manager", "Secretary", "Boss's Spouse"))
LAWYER, RECRUITER, DOWNSIZER, REORG, AUDITOR = (ID[n] for n in (
    "Lawyer", "Recruiter", "Downsizer", "Reorg Consultant", "Auditor"))
NONE = C


def tables(**params):
    return SPEC.load_data(params).tables


def fresh(n_players=2, seed=1, index=0, **params):
    t = tables(**params)
    rng = R.new_streams(seed, index)
    s = view(new_game(t, np.int64(n_players), rng, np.zeros(0, np.int32)))
    return t, s, rng


def totals(t, s):
    from balance.simcore.youre_fired.state import card_totals
    return card_totals(s)


def set_seat(s, p, hand=(), deck=(), brk=(), unemp=()):
    """Replace seat p's zones. deck is listed bottom..top (last is drawn first)."""
    s.hand[p, :] = 0
    s.brk[p, :] = 0
    s.unemp[p, :] = 0
    for c in hand:
        s.hand[p, c] += 1
    for c in brk:
        s.brk[p, c] += 1
    for c in unemp:
        s.unemp[p, c] += 1
    s.deck[p, :] = -1
    for i, c in enumerate(deck):
        s.deck[p, i] = c
    s.deck_n[p] = len(deck)
    s.known[:, p, :] = 0
    s.known_top[:, p] = 0


def turn_of(s, p):
    s.g[constants.G_CUR] = p
    s.g[constants.G_DECIDER] = p
    s.g[constants.G_PHASE] = constants.PH_PLAY


def options(t, s):
    out = np.zeros(SPEC.max_options, np.int64)
    n = legal(t, s, out)
    return list(out[:n])


def play(t, s, rng, card, target=0, name=NONE, name2=NONE, plain=False, trace=None):
    code = encode(C, 1 if plain else 0, card, target, name, name2)
    assert code in options(t, s), (NAMES[card], target, name, name2)
    step(t, s, np.int64(code), rng, trace if trace is not None else np.zeros(0, np.int32))


def answer(t, s, rng, option):
    assert option in options(t, s)
    step(t, s, np.int64(option), rng, np.zeros(0, np.int32))


def hand_list(s, p):
    return sorted(c for c in range(C) for _ in range(int(s.hand[p, c])))
