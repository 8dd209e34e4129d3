"""Properties over random games: cards conserved, one zone per card, turn cap,
same seed same result whatever the split of game indices."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.simcore import rng as R
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.youre_fired import SPEC
from balance.simcore.youre_fired import constants
from balance.simcore.youre_fired.rules import legal, new_game, step, to_move
from balance.simcore.youre_fired.state import card_totals, view

N_CARDS = len(SPEC.load_data({}).card_names)


def expected_totals(tables, n_players):
    cards = tables[0]
    return np.array([cards[c, constants.CF_COUNT] * (n_players if cards[c, constants.CF_KIND] == constants.KIND_COMPANY else 1)
                     for c in range(cards.shape[0])])


@settings(deadline=None, max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), teams=st.booleans(),
       hand=st.integers(3, 5))
def test_cards_conserved_every_step(seed, players, teams, hand):
    tables = SPEC.load_data({"teams": teams, "hand_size": hand}).tables
    rng = R.new_streams(seed, 0)
    s = view(new_game(tables, np.int64(players), rng, np.zeros(0, np.int32)))
    want = expected_totals(tables, players)
    out = np.zeros(SPEC.max_options, np.int64)
    pick = np.random.default_rng(seed)
    for _ in range(SPEC.max_decisions):
        assert (card_totals(s) == want).all()
        for arr in (s.hand, s.brk, s.unemp):
            assert (arr >= 0).all()
        for p in range(players):
            assert (s.deck[p, : s.deck_n[p]] >= 0).all() and (s.deck[p, s.deck_n[p]:] == -1).all()
        assert (s.known >= 0).all() and (s.belief >= -1e-9).all()
        seat = to_move(s)
        if seat < 0:
            break
        n = legal(tables, s, out)
        assert n > 0, "a live state always has a move"
        assert len(set(out[:n].tolist())) == n
        step(tables, s, out[pick.integers(n)], rng, np.zeros(0, np.int32))
    assert (card_totals(s) == want).all()


@settings(deadline=None, max_examples=6)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), teams=st.booleans(),
       policy=st.sampled_from(["random", "greedy"]))
def test_turn_cap_and_split_invariance(seed, players, teams, policy):
    tables = SPEC.load_data({"teams": teams}).tables
    eng = Engine(SPEC, [resolve_policy(SPEC, policy)])
    idx = np.arange(24)
    whole = eng.run(tables, players, seed, idx, N_CARDS)
    assert (whole.game_out[:, 1] <= SPEC.max_decisions).all()
    reasons = whole.game_out[:, 0]
    assert ((reasons >= 0) & (reasons < 2 + len(SPEC.end_reasons))).all()
    assert not (reasons == 1).any()  # never stuck without a move
    a = eng.run(tables, players, seed, idx[17:], N_CARDS)
    b = eng.run(tables, players, seed, idx[:17][::-1], N_CARDS)
    np.testing.assert_array_equal(whole.game_out[17:], a.game_out)
    np.testing.assert_array_equal(whole.game_out[:17][::-1], b.game_out)
    np.testing.assert_array_equal(whole.seat_out[17:], a.seat_out)
    np.testing.assert_array_equal(whole.card_stats, a.card_stats + b.card_stats)
    no_winner = [2 + constants.END_REASONS.index(r) for r in ("stalled", "teams_deadlock", "no_progress")]
    decided = (reasons >= 2) & ~np.isin(reasons, no_winner)
    won = whole.seat_out[:, :, 0].sum(axis=1)
    assert (won[~decided] == 0).all()
    assert (won[decided] == (2 if teams and players == 4 else 1)).all()
