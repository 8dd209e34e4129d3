"""The exhaustive solver (simcore/sickdays_solo/solver.py): every "winnable" line replayed here through
the engine's own legal/step; its "not winnable" checked against a plain exhaustive search with no
pruning and no table (states near the end of real games, where that search is small); greedy's wins
are never called not winnable (the solver's first pass is greedy's own game, with the game's own chance
streams); a calendar too small for the workers is not winnable at the root."""
import numpy as np
import pytest

from balance.simcore import rng as R
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.sickdays_solo import SPEC
from balance.simcore.sickdays_solo import constants, rules
from balance.simcore.sickdays_solo import policies
from balance.simcore.sickdays_solo import solver
from balance.simcore.trace import no_trace

GREEDY = np.asarray(resolve_policy(SPEC, "greedy").params, np.float64)


def tables(**params):
    return SPEC.load_data(params).tables


def replay_here(tb, seed, game, line):
    """The line from the deal, option by option, each checked legal first (plain Python over the kernels)."""
    rng = R.new_streams(seed, game)
    s = rules.new_game(tb, np.int64(1), rng, no_trace())
    opts = np.zeros(constants.MAX_OPTIONS, np.int64)
    for op in line:
        assert rules.to_move(s) >= 0, "the game ended before the line did"
        n = rules.legal(tb, s, opts)
        assert int(op) in set(opts[:n].tolist()), f"option {op} not legal"
        rules.step(tb, s, np.int64(op), rng, no_trace())
    return int(s[constants.H_OVER])


@pytest.mark.parametrize("level", [1, 4, 6, 11])
def test_every_winnable_line_wins_again_through_legal_and_step(level):
    tb = tables(level=level)
    r = solver.solve_deals(tb, 1, 7, range(6), GREEDY, budget=20_000)
    assert set(r["result"].tolist()) <= {solver.WINNABLE, solver.NOT_WINNABLE, solver.UNKNOWN}
    won = np.flatnonzero(r["result"] == solver.WINNABLE)
    assert won.size >= 1
    for k in won:
        assert r["replayed"][k] == 1
        assert replay_here(tb, 7, int(r["game_index"][k]), r["lines"][k]) == constants.END.all_happy
    # a line cut short is not a win: the solver's own replay says so too
    k = won[0]
    line = r["lines"][k]
    assert solver.replay(tb, np.int64(1), np.uint64(7), np.int64(r["game_index"][k]), line, np.int64(line.size - 1)) == 0


def test_greedy_wins_are_never_called_not_winnable():
    tb = tables(level=4)
    idx = np.arange(40, dtype=np.int64)
    res = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).run(tb, 1, 7, idx, constants.NCARDS)
    greedy_won = res.seat_out[:, 0, 0] > 0.5
    r = solver.solve_deals(tb, 1, 7, idx, GREEDY, budget=1)  # a budget of one node: the first pass only, cut short
    # with one node nothing is proven either way, except by the root's own checks
    assert not np.any(r["result"] == solver.NOT_WINNABLE)
    r = solver.solve_deals(tb, 1, 7, idx, GREEDY, budget=5_000)
    assert greedy_won.sum() > 0
    assert np.all(r["result"][greedy_won] == solver.WINNABLE)
    # greedy's game is the solver's first line: where greedy wins, it takes no more nodes than greedy's decisions
    assert np.all(r["length"][greedy_won] == res.game_out[greedy_won, 1])


def test_a_calendar_too_small_for_the_workers_is_not_winnable():
    # ten workers need thirty face-up cards; four weeks hold 28
    tb = tables(level=5, max_weeks=4)
    r = solver.solve_deals(tb, 1, 3, range(5), GREEDY, budget=1_000)
    assert np.all(r["result"] == solver.NOT_WINNABLE) and np.all(r["nodes"] == 0)


def _reference(tb, s, rng, cap):
    """Plain exhaustive search over legal/step: no ordering, no pruning, no table. (won, nodes); None
    when it passes `cap` nodes."""
    nodes = [0]
    opts_at = {}

    def win(s, rng, depth):
        if s[constants.H_OVER] != 0:
            return s[constants.H_OVER] == constants.END.all_happy
        if rules.to_move(s) < 0:
            return False
        opts = opts_at.setdefault(depth, np.zeros(constants.MAX_OPTIONS, np.int64))
        n = rules.legal(tb, s, opts)
        for op in opts[:n].copy():
            nodes[0] += 1
            if nodes[0] > cap:
                raise OverflowError
            c, r2 = s.copy(), rng.copy()
            rules.step(tb, c, np.int64(op), r2, no_trace())
            if win(c, r2, depth + 1):
                return True
        return False

    try:
        return win(s, rng, 0), nodes[0]
    except OverflowError:
        return None


def _end_states(tb, seed, games, deck_left):
    """States of greedy's games once the deck holds `deck_left` cards or fewer (with their streams)."""
    out = []
    opts = np.zeros(constants.MAX_OPTIONS, np.int64)
    for g in range(games):
        rng = R.new_streams(seed, g)
        s = rules.new_game(tb, np.int64(1), rng, no_trace())
        while rules.to_move(s) >= 0:
            if s[constants.H_DECK_N] <= deck_left:
                out.append((s.copy(), rng.copy()))
                break
            n = rules.legal(tb, s, opts)
            if n == 0:
                break
            j = policies.greedy(tb, s, np.int64(rules.to_move(s)), opts, np.int64(n), GREEDY, rng)
            rules.step(tb, s, np.int64(opts[j]), rng, no_trace())
    return out


def test_solver_answers_as_a_plain_exhaustive_search_near_the_end():
    """Soundness of the prunings and the table: from states near the end of greedy's games (two cards
    left in the deck, or none), the solver's answer (winnable / not winnable) is the plain search's, and
    both kinds of answer occur. (A solver that took the deck's cards for dead gave 8 wrong answers here.)"""
    line = np.zeros(solver.MAX_DEPTH + 1, np.int64)
    out = np.zeros(4, np.int64)
    seen = {solver.WINNABLE: 0, solver.NOT_WINNABLE: 0}
    for level, deck_left in ((4, 2), (2, 2), (4, 0), (2, 0)):
        tb = tables(level=level)
        for s, rng in _end_states(tb, 11, 60, deck_left):
            ref = _reference(tb, s.copy(), rng.copy(), cap=20_000)
            if ref is None:
                continue
            solver.solve(tb, s, rng, GREEDY, np.int64(1_000_000), line, out)
            assert out[0] != solver.UNKNOWN
            assert (out[0] == solver.WINNABLE) == ref[0], (level, out, ref)
            seen[int(out[0])] += 1
    assert seen[solver.WINNABLE] >= 3 and seen[solver.NOT_WINNABLE] >= 3, seen


def test_with_event_cards_the_search_still_replays_its_wins():
    # events (Look Busy, the wilds) switch the dead-worker pruning off; wins are still real wins
    tb = tables(level=2, events=3)
    r = solver.solve_deals(tb, 1, 5, range(4), GREEDY, budget=20_000)
    for k in np.flatnonzero(r["result"] == solver.WINNABLE):
        assert replay_here(tb, 5, int(r["game_index"][k]), r["lines"][k]) == constants.END.all_happy
    assert (r["result"] == solver.WINNABLE).any()


def _doomed_reference(s):
    """`solver.doomed` written plainly: every line of every unhappy kept worker, cell by cell."""
    rows = int(s[constants.H_ROWS])
    height = [int(s[constants.O_HEIGHT + c]) for c in range(constants.NCOL)]
    open_cells = sum(rows - h for h in height)
    need = 0
    for w in range(constants.NSUITS):
        if s[constants.O_HAPPY + w] != 0:
            continue
        live = [int(s[constants.O_ZONE + w * 7 + c]) in (constants.Z_DECK, constants.Z_AUTOMA) or s[constants.O_ZONE + w * 7 + c] >= constants.Z_HAND0
                for c in range(constants.NCOL)]
        best = -1
        lines = [("row", r) for r in range(rows)] + [("d1", k) for k in range(-6, rows)] + \
                [("d2", k) for k in range(rows + 6)]
        for kind, k in lines:
            have = reach = 0
            for c in range(constants.NCOL):
                r = k if kind == "row" else (k + c if kind == "d1" else k - c)
                if not 0 <= r < rows:
                    continue
                if r < height[c]:
                    cell = int(s[constants.O_GRID + r * constants.NCOL + c])
                    kind_here = int(s[rules.o_kind(s) + r * constants.NCOL + c])
                    if kind_here == constants.K_FACEUP and cell // 7 == w:
                        have += 1
                elif live[c]:
                    reach += 1
            if have + reach >= 3:
                best = max(best, have)
        if best < 0:
            return True
        need += 3 - best
    return need > open_cells


def test_doomed_is_its_plain_reference_on_the_states_of_real_games():
    """The pruning's two rules (a worker no line can save; more cards needed than open cells) against
    their plain reading, on every state of greedy's games at levels with few and many weeks. (A rule
    loosened to 'need + 3 > open cells' fails here.)"""
    opts = np.zeros(constants.MAX_OPTIONS, np.int64)
    checked = doomed = 0
    for params, games in (({"level": 4, "max_weeks": 5}, 5), ({"level": 4}, 4), ({"level": 11}, 2)):
        tb = tables(**params)
        for g in range(games):
            rng = R.new_streams(3, g)
            s = rules.new_game(tb, np.int64(1), rng, no_trace())
            while rules.to_move(s) >= 0:
                got = solver.doomed(s)
                assert got == _doomed_reference(s), (params, g)
                checked += 1
                doomed += got
                n = rules.legal(tb, s, opts)
                if n == 0:
                    break
                j = policies.greedy(tb, s, np.int64(rules.to_move(s)), opts, np.int64(n), GREEDY, rng)
                rules.step(tb, s, np.int64(opts[j]), rng, no_trace())
    assert checked > 500 and doomed > 0
