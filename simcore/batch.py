"""Python side of the engine: resolve policies, allocate outputs, call kernels.

`Engine(spec)` compiles (or loads from cache) the game's loop once per process;
`run` plays any set of game indices and returns plain arrays; `replay` plays
one game with its trace. The kernels see only arrays and scalars.
"""
from __future__ import annotations

import hashlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np

from .errors import BalanceError, InvariantBroken
from .jit import stable_uuid
from .runner import BAD_CHOICE, N_POLICY_PARAMS, USER, make_runner, runner_kinds
from .spec import GameSpec
from .trace import events, new_trace


@dataclass(frozen=True)
class SeatPolicy:
    name: str  # built-in name, or "path.py:function" for a user policy
    kind: int
    params: tuple[float, ...]

    def describe(self) -> dict:
        return {"name": self.name, "kind": self.kind, "params": list(self.params)}


@dataclass
class Results:
    game_out: np.ndarray  # (n, G) float64
    seat_out: np.ndarray  # (n, seats, S) float64
    card_stats: np.ndarray  # (cards, kinds, 3) int64: games with, wins with, total
    game_indices: np.ndarray
    # (cards, kinds + 1, 2) int64, among the seat-games where the card reached the hand (the
    # spec's hand_counters): [c, k] seat-games with counter k > 0 and their wins; [c, kinds]
    # all of them and their wins (simcore.runner HS_*). None: not counted (results built by hand).
    hand_stats: np.ndarray | None = None


def policy_defaults(spec: GameSpec, name: str) -> np.ndarray:
    vec = np.zeros(N_POLICY_PARAMS)
    pol = spec.policy(name)
    if pol is not None:
        for p in pol.params:
            vec[p.slot] = p.default
    return vec


def resolve_policy(spec: GameSpec, name: str, overrides: dict[str, float] | None = None) -> SeatPolicy:
    """A policy by name (or user file `path.py:func`) with parameter overrides."""
    overrides = dict(overrides or {})
    if ":" in name and name.split(":")[0].endswith(".py"):
        base = spec.policy("greedy")  # a user policy gets the greedy weights and epsilon
        vec = policy_defaults(spec, "greedy")
        kind = USER
    else:
        base = spec.policy(name)
        if base is None:
            allowed = ", ".join(p.name for p in spec.policies)
            raise BalanceError(f"--policy: unknown policy '{name}' for {spec.name}; allowed: {allowed}, or path/to/file.py:function")
        if base.refused:
            raise BalanceError(f"--policy: '{name}' is not available for {spec.name}: {base.refused}")
        vec = policy_defaults(spec, name)
        kind = base.kind
    known = {p.name: p for p in base.params} if base else {}
    for key, value in overrides.items():
        if key not in known:
            raise BalanceError(f"--policy-param: '{key}' is not a parameter of policy '{name}'; allowed: {', '.join(known) or 'none'}")
        p = known[key]
        if not (p.low <= value <= p.high):
            raise BalanceError(f"--policy-param: {key}={value} is out of range; allowed: {p.low:g}..{p.high:g}")
        vec[p.slot] = value
    return SeatPolicy(name, kind, tuple(float(v) for v in vec))


def load_user_policy(ref: str):
    """Load `path/to/file.py:function`, an @njit function with the policy signature."""
    path_s, _, fname = ref.rpartition(":")
    path = Path(path_s).resolve()
    if not path.is_file():
        raise BalanceError(f"--policy: file '{path_s}' does not exist; expected path/to/file.py:function")
    src = path.read_bytes()
    digest = hashlib.sha256(src).hexdigest()[:12]
    mod_name = f"balance_user_policy_{digest}"
    if mod_name in sys.modules:
        module = sys.modules[mod_name]
    else:
        spec = importlib.util.spec_from_file_location(mod_name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[mod_name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # the user's file: report, don't trace back
            raise BalanceError(f"--policy: {path_s} failed to import: {exc}") from exc
    fn = getattr(module, fname, None)
    if fn is None:
        raise BalanceError(f"--policy: {path_s} has no function '{fname}'")
    if not isinstance(fn, numba.core.registry.CPUDispatcher):
        fn = numba.njit(fn)
    return stable_uuid(fn, f"user:{mod_name}.{fname}"), f"{mod_name}.{fname}"


_RUNNERS: dict[tuple[str, str, frozenset], tuple] = {}


class Engine:
    """One game's compiled loop. Cheap to create; compiles on first use."""

    def __init__(self, spec: GameSpec, seats: list[SeatPolicy], kinds=None):
        """`kinds`: compile the loop for these policy kinds (a superset of the
        seats' own, e.g. to share one compiled loop between engines); default
        the seats' kinds."""
        self.spec = spec
        self.seats = seats
        self._kinds = None if kinds is None else frozenset(kinds)
        user_refs = {s.name for s in seats if s.kind == USER}
        if len(user_refs) > 1:
            raise BalanceError("--policy: at most one user policy file per run")
        self.user_ref = next(iter(user_refs), None)
        self.last_violation = (0, 0)

    @property
    def kinds(self) -> frozenset:
        """The policy kinds this engine's loop is compiled for (random and greedy
        always): a run compiles only the policies its seats use."""
        own = {s.kind for s in self.seats if s.kind != USER}
        return runner_kinds(own | (self._kinds or set()))

    def _runner(self):
        key = (self.spec.name, self.user_ref or "", self.kinds)
        if key not in _RUNNERS:
            user, user_key = (load_user_policy(self.user_ref) if self.user_ref else (None, ""))
            _RUNNERS[key] = make_runner(self.spec.name, self.spec.kernels, user, user_key, kinds=self.kinds)
        return _RUNNERS[key]

    def _policy_arrays(self, n_players: int):
        seats = self.seats if len(self.seats) > 1 else self.seats * n_players
        if len(seats) != n_players:
            raise BalanceError(f"--policy: {len(self.seats)} policies given for {n_players} players; give one, or one per seat")
        kinds = np.array([s.kind for s in seats], np.int64)
        params = np.array([s.params for s in seats], np.float64)
        return kinds, params

    def run(self, tables, n_players: int, seed: int, game_indices: np.ndarray, n_cards: int,
            check: bool = False) -> Results:
        """Play the games; with `check`, the game's invariants after every step."""
        run_games = self._runner().run_games
        kinds, params = self._policy_arrays(n_players)
        idx = np.ascontiguousarray(game_indices, dtype=np.int64)
        n = idx.shape[0]
        game_out = np.zeros((n, len(self.spec.game_column_names)))
        seat_out = np.zeros((n, n_players, len(self.spec.seat_column_names)))
        threads = numba.config.NUMBA_NUM_THREADS
        n_kinds = len(self.spec.card_counters)
        card_stats = np.zeros((threads, n_cards, n_kinds, 3), np.int64)
        hand_stats = np.zeros((threads, n_cards, n_kinds + 1, 2), np.int64)
        violations = np.zeros((n, 2), np.int64)
        run_games(tables, np.int64(n_players), np.uint64(seed), idx, kinds, params,
                  np.int64(self.spec.max_decisions), np.int64(self.spec.max_options), np.int64(check),
                  game_out, seat_out, card_stats, self.spec.hand_kinds, hand_stats, violations)
        self._check_choices(game_out[:, 1], idx, seed)
        self._check_invariants(violations, idx, seed)
        return Results(game_out, seat_out, card_stats.sum(axis=0), idx, hand_stats.sum(axis=0))

    def _check_invariants(self, violations: np.ndarray, idx: np.ndarray, seed: int) -> None:
        bad = np.flatnonzero(violations[:, 0] != 0)
        if bad.size:
            code, decision = (int(x) for x in violations[bad[0]])
            raise InvariantBroken(self.spec.name, self.spec.invariant(code), int(idx[bad[0]]), decision,
                                  int(bad.size), int(idx.shape[0]), int(seed))

    def _check_choices(self, decisions: np.ndarray, idx: np.ndarray, seed: int) -> None:
        bad = np.flatnonzero(decisions == BAD_CHOICE)
        if bad.size:
            who = self.user_ref or ", ".join(s.name for s in self.seats)
            raise BalanceError(
                f"--policy: {who} chose an option outside 0..n-1 in game index {int(idx[bad[0]])} "
                f"({bad.size} game(s)); replay it with: balance replay --game {self.spec.name} --seed {seed} "
                f"--index {int(idx[bad[0]])}")

    def replay(self, tables, n_players: int, seed: int, game_index: int, check: bool = False):
        """One game's events and result rows. With `check`, `last_violation`
        becomes (code, decision) of the first broken invariant, (0, 0) if none."""
        play_traced = self._runner().play_traced
        kinds, params = self._policy_arrays(n_players)
        trace = new_trace()
        game_row = np.zeros(len(self.spec.game_column_names))
        seat_rows = np.zeros((n_players, len(self.spec.seat_column_names)))
        violation = np.zeros(2, np.int64)
        play_traced(tables, np.int64(n_players), np.uint64(seed), np.int64(game_index), kinds, params,
                    np.int64(self.spec.max_decisions), np.int64(self.spec.max_options), np.int64(check), trace,
                    game_row, seat_rows, violation)
        self._check_choices(game_row[1:2], np.array([game_index]), seed)
        self.last_violation = (int(violation[0]), int(violation[1]))
        return events(trace), game_row, seat_rows
