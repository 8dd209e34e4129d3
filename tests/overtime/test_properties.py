"""Properties of random games: cards conserved, turn cap, same seed same result."""
import numpy as np
from hypothesis import given, settings, strategies as st

from balance.simcore import rng as R
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.overtime import SPEC
from balance.simcore.overtime import constants
from balance.simcore.overtime.rules import legal, new_game, step, to_move
from balance.simcore.overtime.state import view
from balance.simcore.trace import no_trace

from .helpers import NAMES, TABLES

RULES, KINDS, EFF, INST = TABLES
N_MAIN = RULES[constants.R_N_MAIN]
A0, J0 = RULES[constants.R_A0], RULES[constants.R_J0]


def check(s):
    n = s.g[constants.G_NP]
    zone = s.zone
    # every main-deck card (and every Joe in play) is in exactly one place
    in_deck = list(s.deck[: s.g[constants.G_DECK_N]])
    assert sorted(in_deck) == sorted(np.flatnonzero(zone == constants.Z_DECK))
    hands = [c for p in range(n) for c in s.hand[p, : s.ps[p, constants.P_HAND_N]]]
    assert sorted(hands) == sorted(np.flatnonzero(zone == constants.Z_HAND))
    assert len(set(hands)) == len(hands) and len(set(in_deck)) == len(in_deck)
    for p in range(n):
        for c in s.hand[p, : s.ps[p, constants.P_HAND_N]]:
            assert s.owner[c] == p
        assert zone[s.ps[p, constants.P_EMP]] == constants.Z_EMPLOYEE and s.owner[s.ps[p, constants.P_EMP]] == p
    assert (zone[:N_MAIN] != constants.Z_BOX).all() and (zone[:N_MAIN] != constants.Z_OUT).all()
    assert (zone[A0:J0] == constants.Z_ASSIGN).sum() + (zone[A0:J0] == constants.Z_OUT).sum() == 5 * n
    emp = (zone == constants.Z_EMPLOYEE).sum()
    assert emp == n
    # discard pile counts per kind
    dk = np.bincount(INST[zone == constants.Z_DISCARD], minlength=len(NAMES))
    assert (dk == s.dk).all()
    # attached work sits on an A card in play; tasks add up
    for a in range(A0, J0):
        if zone[a] == constants.Z_ASSIGN:
            att = [w for w in range(N_MAIN) if zone[w] == constants.Z_ATTACHED and s.link[w] == a]
            assert sum(s.tasks[w] for w in att) <= s.tasks[a] < KINDS[INST[a], constants.KF_TASKS]
            assert all(s.owner[w] == s.owner[a] for w in att)
    for p in range(n):
        assert s.ps[p, constants.P_N_ASSIGN] == ((zone[A0:J0] == constants.Z_ASSIGN) & (s.owner[A0:J0] == p)).sum()
        assert s.ps[p, constants.P_SNOOZE] >= 0
    if s.g[constants.G_PHASE] not in (constants.PH_REACT, constants.PH_CHOOSE):  # a card's A-card choice is made with its pile open
        assert (zone == constants.Z_PILE).sum() == 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), n_players=st.integers(2, 6))
def test_random_games_conserve_cards(seed, n_players):
    rng = R.new_streams(seed, 0)
    s = view(new_game(TABLES, n_players, rng, no_trace()))
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    check(s)
    for _ in range(SPEC.max_decisions):
        seat = to_move(s)
        if seat < 0:
            break
        n = legal(TABLES, s, out)
        assert n >= 1
        step(TABLES, s, out[R.randint(rng, R.POLICY, n)], rng, no_trace())
        check(s)
    assert to_move(s) == -1
    assert s.g[constants.G_END] in (constants.END.assignments_done, constants.END.rounds_out)
    assert s.g[constants.G_ROUND] <= RULES[constants.R_ROUNDS]


def _run(policy, n_players, idx, seed=5):
    eng = Engine(SPEC, [resolve_policy(SPEC, policy)])
    return eng.run(TABLES, n_players, seed, idx, len(NAMES))


@settings(max_examples=4, deadline=None)
@given(split=st.integers(1, 39), n_players=st.integers(2, 6))
def test_same_seed_same_result_whatever_the_split(split, n_players):
    idx = np.arange(40)
    whole = _run("greedy", n_players, idx)
    a = _run("greedy", n_players, idx[:split])
    b = _run("greedy", n_players, idx[split:])
    np.testing.assert_array_equal(whole.game_out, np.concatenate([a.game_out, b.game_out]))
    np.testing.assert_array_equal(whole.seat_out, np.concatenate([a.seat_out, b.seat_out]))


def test_turn_cap_and_end_reasons():
    r = _run("random", 4, np.arange(200))
    assert (r.game_out[:, 1] <= SPEC.max_decisions).all()
    assert set(np.unique(r.game_out[:, 0])) <= {2.0, 3.0}  # never cap / no_move
    won = r.seat_out[:, :, 0].sum(axis=1)
    lost_all = r.game_out[:, 4] == 1
    assert ((won >= 1) | lost_all).all() and not (lost_all & (won > 0)).any()
    assert (r.game_out[:, 3] <= 8).all()
