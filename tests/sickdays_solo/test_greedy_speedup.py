"""The memoised greedy picks exactly what scoring every option with
`option_score` and taking the first best picks (the plain definition), in
states reached by greedy and by random moves, with events, the automa, co-op,
and with weights where the block penalty's float sum is not exact."""
import numpy as np
import pytest

from balance.simcore import rng as R
from balance.simcore.batch import resolve_policy
from balance.simcore.sickdays_solo import SPEC
from balance.simcore.sickdays_solo import constants, rules
from balance.simcore.sickdays_solo import policies
from balance.simcore.trace import no_trace
from sickdays_solo.helpers import tables_for


def plain_greedy(t, s, seat, options, n, params):
    best, best_v = 0, -1e300
    for i in range(n):
        v = policies.option_score(t, s, seat, options[i], params)
        if v > best_v:
            best, best_v = i, v
    return best


@pytest.mark.parametrize("level,events,players,overrides", [
    (4, 0, 1, None),
    (1, 7, 2, None),
    (8, 3, 1, None),
    (11, 7, 3, None),
    (4, 7, 1, {"w_block": 0.3, "w_gap": 0.7, "w_keep": 0.9, "w_scaffold": 0.33}),
    (9, 7, 2, {"w_block": -0.7, "w_keep": -0.2, "w_happy": -3.0, "w_one": -0.5}),
    # the notes' upper bound with other signs: a negative scaffold weight or note cost, a big row bonus
    (5, 7, 1, {"w_scaffold": -0.6, "w_one": 1.3, "w_note_cost": -0.4, "w_row_full": 2.5}),
    (3, 0, 2, {"w_scaffold": 3.0, "w_one": -1.0, "w_note_cost": 0.0, "w_discard_happy": -1.0}),
])
def test_greedy_matches_plain_argmax(level, events, players, overrides):
    t = tables_for(level=level, events=events)
    params = np.array(resolve_policy(SPEC, "greedy", overrides).params)
    out = np.zeros(constants.MAX_OPTIONS, np.int64)
    checked = 0
    for game in range(12):
        rng = R.new_streams(1000 + level, game)
        s = rules.new_game(t, np.int64(players), rng, no_trace())
        while rules.to_move(s) >= 0:
            seat = rules.to_move(s)
            n = rules.legal(t, s, out)
            g = policies.greedy(t, s, seat, out, n, params, rng)
            assert g == plain_greedy(t, s, seat, out, n, params)
            checked += 1
            j = g if game % 2 == 0 else R.randint(rng, R.POLICY, n)  # odd games: random moves
            rules.step(t, s, out[j], rng, no_trace())
    assert checked > 100
