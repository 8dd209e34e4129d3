"""Outputs by name: every registered game writes each declared result column,
in its declared range, through index constants generated from the declared
columns (simcore.spec.game_index / seat_index), and the end reason as a code
generated from the declared reasons (simcore.spec.end_index), never by a counted
position."""
import dataclasses
import sys

import numpy as np
import pytest

from balance.simcore import registry
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.params import resolve

GAMES = registry.names()
UNWRITTEN = -7.7e300  # what the rows hold before `outcome`: any left means a column was not written


def play_unwritten(spec, players: int, n: int = 150, seed: int = 11, policy: str = "random"):
    """Run games with the result rows pre-filled with UNWRITTEN."""
    data = spec.load_data(resolve(spec, {}))
    engine = Engine(spec, [resolve_policy(spec, policy)])
    run_games = engine._runner().run_games
    kinds, params = engine._policy_arrays(players)
    idx = np.arange(n, dtype=np.int64)
    game_out = np.full((n, len(spec.game_column_names)), UNWRITTEN)
    seat_out = np.full((n, players, len(spec.seat_column_names)), UNWRITTEN)
    import numba

    card_stats = np.zeros((numba.config.NUMBA_NUM_THREADS, len(data.card_names), len(spec.card_counters), 3), np.int64)
    hand_stats = np.zeros((numba.config.NUMBA_NUM_THREADS, len(data.card_names), len(spec.card_counters) + 1, 2),
                          np.int64)
    violations = np.zeros((n, 2), np.int64)
    action_out = np.zeros((n, players, len(spec.action_kinds)), np.int32)
    run_games(data.tables, np.int64(players), np.uint64(seed), idx, kinds, params, np.int64(spec.max_decisions),
              np.int64(spec.max_options), np.int64(0), game_out, seat_out, action_out, card_stats, spec.hand_kinds, hand_stats,
              violations)
    return game_out, seat_out


def _out_of_place(columns, values, first: int) -> list[str]:
    bad = []
    for j, col in enumerate(columns, start=first):
        v = values[..., j].ravel()
        if (v == UNWRITTEN).any():
            bad.append(f"{col.name}: not written")
            continue
        finite = v[~np.isnan(v)]
        if finite.size < v.size and not col.nan_ok:
            bad.append(f"{col.name}: NaN written but nan_ok is not declared")
        if col.low is not None and (finite < col.low).any():
            bad.append(f"{col.name}: {finite.min():g} below its declared low {col.low:g}")
        if col.high is not None and (finite > col.high).any():
            bad.append(f"{col.name}: {finite.max():g} above its declared high {col.high:g}")
    return bad


@pytest.mark.parametrize("name", GAMES)
def test_every_column_is_written_in_its_declared_range(name):
    spec = registry.get(name)
    for players in sorted({spec.min_players, spec.max_players}):
        g, s = play_unwritten(spec, players)
        assert not (g[:, :2] == UNWRITTEN).any() and not (s[:, :, :2] == UNWRITTEN).any(), "won/score/end_reason"
        bad = _out_of_place(spec.game_columns, g, 2) + _out_of_place(spec.seat_columns, s, 2)
        assert not bad, f"{name} at {players} players: " + "; ".join(bad)


@pytest.mark.parametrize("name", GAMES)
def test_columns_declare_their_ranges_and_kernels_index_them_by_name(name):
    spec = registry.get(name)
    undeclared = [c.name for c in spec.game_columns + spec.seat_columns if c.low is None or c.high is None]
    assert not undeclared, f"declare low/high for: {', '.join(undeclared)}"
    idx = kernel_indexes(spec)
    assert list(idx["GameColumns"]._fields) == spec.game_column_names
    assert list(idx["SeatColumns"]._fields) == spec.seat_column_names
    # end reasons: the code `outcome` writes is END.<name>, generated from the declared reasons
    assert "EndReasons" in idx, f"{name}: outcome's module has no END = end_index(END_REASONS)"
    assert idx["EndReasons"]._fields == spec.all_end_reasons
    assert tuple(idx["EndReasons"]) == tuple(range(len(spec.all_end_reasons)))


@pytest.mark.parametrize("name", GAMES)
def test_every_end_code_written_is_a_declared_reason(name):
    spec = registry.get(name)
    g, _ = play_unwritten(spec, spec.default_players, n=60)
    codes = set(np.unique(g[:, 0]).astype(int))
    assert codes <= set(range(len(spec.all_end_reasons))), f"{name}: end codes {sorted(codes)}"


def kernel_indexes(spec) -> dict:
    """The column indexes the module of the game's `outcome` kernel writes by."""
    fn = spec.kernels.outcome
    module = sys.modules[getattr(fn, "py_func", fn).__module__]
    constants = getattr(module, "constants", None)
    found = dict(vars(constants)) if constants is not None else {}  # the layout's constants module, read as constants.X
    found.update(vars(module))
    return {type(v).__name__: v for v in found.values() if hasattr(v, "_fields")}


def test_a_column_declared_out_of_place_is_caught():
    """The shed fixture with two of its seat columns declared in swapped order
    while its kernels write by their own index: the contract check fails."""
    spec = registry.get("shed")
    cols = list(spec.seat_columns)
    names = [c.name for c in cols]
    i, j = names.index("cards_left"), names.index("drawn")
    cols[i], cols[j] = cols[j], cols[i]
    swapped = dataclasses.replace(spec, seat_columns=tuple(cols))
    assert list(kernel_indexes(swapped)["SeatColumns"]._fields) != swapped.seat_column_names


def test_an_end_reason_declared_out_of_place_is_caught():
    """Sick Days solo with its end reasons declared in another order than the kernels' END: caught."""
    spec = registry.get("sickdays-solo")
    swapped = dataclasses.replace(spec, end_reasons=tuple(reversed(spec.end_reasons)))
    assert kernel_indexes(swapped)["EndReasons"]._fields != swapped.all_end_reasons
    assert kernel_indexes(spec)["EndReasons"]._fields == spec.all_end_reasons
