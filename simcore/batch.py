"""Python side of the engine: resolve policies, allocate outputs, call kernels.

`Engine(spec)` compiles (or loads from cache) the game's loop once per process;
`run` plays any set of game indices and returns plain arrays; `replay` plays
one game with its trace. The kernels see only arrays and scalars.
"""
from __future__ import annotations

from collections.abc import Mapping

import hashlib
import importlib.util
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np

from .errors import BalanceError, InvariantBroken
from .jit import stable_uuid
from .recorded import RECORDED
from .recorded import USER_KEY as RECORDED_KEY
from .recorded import kernel as recorded_kernel
from .runner import BAD_CHOICE, COL_DECISIONS, N_POLICY_PARAMS, USER, make_runner, runner_kinds
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
    # (n, seats, action kinds) int32: each seat's chosen options by the spec's action_kinds (the
    # game's `action` kernel); None: not counted (results built by hand)
    action_out: np.ndarray | None = None


def policy_defaults(spec: GameSpec, name: str) -> np.ndarray:
    vec = np.zeros(N_POLICY_PARAMS)
    pol = spec.policy(name)
    if pol is not None:
        for p in pol.params:
            vec[p.slot] = p.default
    return vec


def resolve_policy(spec: GameSpec, name: str, overrides: dict[str, float] | None = None,
                   where: str = "") -> SeatPolicy:
    """A policy by name (or user file `path.py:func`) with parameter overrides.
    `where` names the seat or setting an override came from, for the refusal
    (" (seat 2, from '2:epsilon=1')")."""
    overrides = dict(overrides or {})
    if is_user_policy(name):
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
            raise BalanceError(f"--policy-param: '{key}' is not a parameter of policy '{name}'{where}; "
                               f"allowed: {', '.join(known) or 'none'}")
        p = known[key]
        if not (p.low <= value <= p.high):
            raise BalanceError(f"--policy-param: {key}={value:g} is out of range{where}; allowed: {p.low:g}..{p.high:g}")
        vec[p.slot] = value
    return SeatPolicy(name, kind, tuple(float(v) for v in vec))


# ------------------------------------------------ --policy and --policy-param: the one parser of every command
POLICY_PARAM_FORMS = ("NAME=VALUE (every seat), SEAT:NAME=VALUE (one seat, 1..players) or POLICY.NAME=VALUE "
                      "(every seat playing POLICY)")


def is_user_policy(name: str) -> bool:
    """`path/to/file.py:function`, a policy of the user's own."""
    return ":" in name and name.split(":")[0].endswith(".py")


def policy_names(items: list[str] | None) -> list[str]:
    """--policy as given (repeated and/or comma-separated; a user policy file kept whole): one name per entry,
    greedy when none."""
    names: list[str] = []
    for item in items or ["greedy"]:
        names += [item.strip()] if ".py:" in item else [x.strip() for x in item.split(",") if x.strip()]
    return names or ["greedy"]


@dataclass(frozen=True)
class PolicySetting:
    """One --policy-param: NAME=VALUE for `seat` (0-based), for every seat playing `policy`, or for every seat."""

    text: str
    name: str
    value: float
    seat: int | None = None
    policy: str | None = None

    @property
    def rank(self) -> int:  # the more particular setting wins: every seat < a policy's seats < one seat
        return 2 if self.seat is not None else 1 if self.policy is not None else 0


_SEAT_KEY = re.compile(r"(\d+):([A-Za-z_]\w*)")
_POLICY_KEY = re.compile(r"(.+)\.([A-Za-z_]\w*)")
_NAME_KEY = re.compile(r"[A-Za-z_]\w*")


def parse_policy_param(text: str) -> PolicySetting:
    """`epsilon=0.1`, `2:epsilon=1` (seat 2) or `greedy.epsilon=1` (every greedy seat), checked for form only;
    from Python also a pair (key, number)."""
    if isinstance(text, tuple):
        key, raw = str(text[0]).strip(), text[1]
        eq, text = "=", f"{key}={raw}"
        number = isinstance(raw, (int, float, str)) and not isinstance(raw, bool)  # True is not 1 here
        raw = str(raw).strip()
    else:
        key, eq, raw = str(text).partition("=")
        key, raw, number = key.strip(), raw.strip(), True
    if not eq or not key:
        raise BalanceError(f"--policy-param: '{text}' is not NAME=VALUE; allowed: {POLICY_PARAM_FORMS}")
    try:
        value = float(raw) if number else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise BalanceError(f"--policy-param: {key}={raw!r} is not a finite number; allowed: {POLICY_PARAM_FORMS}, "
                           "VALUE a number in the parameter's range (see `balance policies --game G`)")
    if m := _SEAT_KEY.fullmatch(key):
        return PolicySetting(text, m.group(2), value, seat=int(m.group(1)) - 1)
    if _NAME_KEY.fullmatch(key):
        return PolicySetting(text, key, value)
    if m := _POLICY_KEY.fullmatch(key):
        return PolicySetting(text, m.group(2), value, policy=m.group(1).strip())
    raise BalanceError(f"--policy-param: '{text}' is not one of the allowed forms; allowed: {POLICY_PARAM_FORMS}")


def _policy_of(name: str, ref: str) -> bool:
    """Whether a seat playing `name` is the policy a POLICY.NAME setting names (a user policy also by its
    function's name)."""
    return ref == name or (is_user_policy(name) and ref == name.rpartition(":")[2])


def seat_settings(spec: GameSpec, names: list[str], texts: list[str] | None, players: int) -> list[dict[str, float]]:
    """Each seat's policy parameters from --policy-param (`names`: one policy, or one per seat)."""
    settings = [parse_policy_param(t) for t in (list(texts.items()) if isinstance(texts, Mapping) else texts or [])]
    seats = names if len(names) == players else names * players
    chosen: list[dict[str, tuple[int, PolicySetting]]] = [{} for _ in range(players)]
    for st in settings:
        if st.seat is not None:
            if not 0 <= st.seat < players:
                raise BalanceError(f"--policy-param: seat {st.seat + 1} in '{st.text}' is not a seat of this game of "
                                   f"{players} player(s); allowed: seats 1..{players}")
            targets = [st.seat]
        elif st.policy is not None:
            targets = [i for i, n in enumerate(seats) if _policy_of(n, st.policy)]
            if not targets:
                played = ", ".join(dict.fromkeys(seats))
                raise BalanceError(f"--policy-param: '{st.text}' names policy '{st.policy}', which no seat plays; "
                                   f"allowed: a policy of --policy ({played})")
        else:
            targets = list(range(players))
        for i in targets:
            have = chosen[i].get(st.name)
            if have is None or have[0] <= st.rank:  # the more particular wins; at the same rank, the later
                chosen[i][st.name] = (st.rank, st)
    out = []
    for i, c in enumerate(chosen):
        for name, (_, st) in c.items():
            known = _param_names(spec, seats[i])
            if name not in known:
                who = f"seat {i + 1}" if len(set(seats)) > 1 or st.seat is not None else "every seat"
                some = [n for n in dict.fromkeys(seats) if name in _param_names(spec, n)]
                hint = (f", or give it to the seats that have it ({some[0]}.{name}=VALUE, or SEAT:{name}=VALUE)"
                        if st.rank == 0 and some else "")
                raise BalanceError(f"--policy-param: '{name}' (from '{st.text}') is not a parameter of policy "
                                   f"'{seats[i]}' ({who}); allowed: {', '.join(known) or 'none'}{hint}")
        out.append({name: st.value for name, (_, st) in c.items()})
    return out


def _param_names(spec: GameSpec, name: str) -> list[str]:
    base = spec.policy("greedy" if is_user_policy(name) else name)
    return [p.name for p in base.params] if base is not None else []


def parse_policies(spec: GameSpec, items: list[str] | None, param_texts: list[str] | None,
                   players: int) -> list[SeatPolicy]:
    """--policy and --policy-param of any command, checked against the game and the number of players before
    anything runs: one SeatPolicy for every seat (all seats alike, as before per-seat parameters), or one per
    seat. A user policy file is imported here (its function must exist), not compiled."""
    names = policy_names(items)
    if len(names) not in (1, players):
        raise BalanceError(f"--policy: {len(names)} policies given ({', '.join(names)}) for {players} players; "
                           f"allowed: one policy for every seat, or {players} (one per seat)")
    users = {n for n in names if is_user_policy(n)}
    if len(users) > 1:
        raise BalanceError(f"--policy: {len(users)} policy files given ({', '.join(sorted(users))}); allowed: at "
                           "most one user policy file per run")
    for n in names:
        if not is_user_policy(n):
            resolve_policy(spec, n)  # an unknown policy is named before its parameters
    per_seat = seat_settings(spec, names, param_texts, players)
    seats = names if len(names) == players else names * players
    alike = len(set(seats)) == 1 and all(c == per_seat[0] for c in per_seat)  # a refusal names the seat if not
    pols = [resolve_policy(spec, seats[i], per_seat[i], "" if alike else f" (seat {i + 1})") for i in range(players)]
    for ref in users:
        import_user_policy(ref)  # the file and its function exist: refused now, not after the folder is written
    if len(names) == 1 and len(set(pols)) == 1:
        return pols[:1]  # every seat alike: one entry, as a run always recorded it
    return pols


def policy_label(spec: GameSpec, name: str, params) -> str:
    """A seat's policy in words: its name and the parameters not at their default, by name
    ('greedy (epsilon=1)'), never the parameter vector."""
    base = spec.policy("greedy" if is_user_policy(name) else name)
    shown = name.rpartition(":")[2] if is_user_policy(name) else name
    if base is None:
        return shown
    defaults = policy_defaults(spec, "greedy" if is_user_policy(name) else name)
    vec = list(params or ())
    changed = [f"{p.name}={vec[p.slot]:g}" for p in base.params
               if p.slot < len(vec) and not math.isclose(vec[p.slot], defaults[p.slot], rel_tol=1e-12, abs_tol=1e-12)]
    return f"{shown} ({', '.join(changed)})" if changed else shown


def seat_labels(spec: GameSpec, policies: list, players: int) -> list[str]:
    """policy_label of each seat, from SeatPolicy objects or a manifest's policy dicts (one for every seat, or one
    per seat)."""
    pols = list(policies or [])
    if len(pols) == 1:
        pols = pols * players
    out = []
    for p in pols:
        if isinstance(p, SeatPolicy):
            out.append(policy_label(spec, p.name, p.params))
        elif isinstance(p, dict):
            out.append(policy_label(spec, str(p.get("name", "?")), p.get("params") or ()))
        else:
            out.append(str(p))
    return out


def load_user_policy(ref: str):
    """Load `path/to/file.py:function`, an @njit function with the policy signature."""
    fn, mod_name, fname = import_user_policy(ref)
    if not isinstance(fn, numba.core.registry.CPUDispatcher):
        fn = numba.njit(fn)
    return stable_uuid(fn, f"user:{mod_name}.{fname}"), f"{mod_name}.{fname}"


def import_user_policy(ref: str):
    """The function of `path/to/file.py:function` (its module imported once per content), its module's name
    and the function's name; a BalanceError naming the file when it is missing, fails to import or lacks
    the function."""
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
    return fn, mod_name, fname


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
        if user_refs and any(s.kind == RECORDED for s in seats):  # both would take the loop's one user slot
            raise BalanceError("--policy: a policy file cannot play beside a recorded seat (balance play)")
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
            if RECORDED in self.kinds:  # a played game's human seat (simcore/recorded.py): the user slot plays it back
                user, user_key = recorded_kernel(), RECORDED_KEY
            else:
                user, user_key = (load_user_policy(self.user_ref) if self.user_ref else (None, ""))
            _RUNNERS[key] = make_runner(self.spec.name, self.spec.kernels, user, user_key, kinds=self.kinds)
        return _RUNNERS[key]

    def _policy_arrays(self, n_players: int):
        seats = self.seats if len(self.seats) > 1 else self.seats * n_players
        if len(seats) != n_players:
            raise BalanceError(f"--policy: {len(self.seats)} policies given for {n_players} players; give one, or one per seat")
        kinds = np.array([s.kind for s in seats], np.int64)
        width = max(len(s.params) for s in seats)  # a recorded seat's vector is longer: pad the others with zeros
        params = np.zeros((len(seats), width), np.float64)
        for i, s in enumerate(seats):
            params[i, :len(s.params)] = s.params
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
        action_out = np.zeros((n, n_players, len(self.spec.action_kinds)), np.int32)
        threads = numba.config.NUMBA_NUM_THREADS
        n_kinds = len(self.spec.card_counters)
        card_stats = np.zeros((threads, n_cards, n_kinds, 3), np.int64)
        hand_stats = np.zeros((threads, n_cards, n_kinds + 1, 2), np.int64)
        violations = np.zeros((n, 2), np.int64)
        run_games(tables, np.int64(n_players), np.uint64(seed), idx, kinds, params,
                  np.int64(self.spec.max_decisions), np.int64(self.spec.max_options), np.int64(check),
                  game_out, seat_out, action_out, card_stats, self.spec.hand_kinds, hand_stats, violations)
        self._check_choices(game_out[:, COL_DECISIONS], idx, seed)
        self._check_invariants(violations, idx, seed)
        return Results(game_out, seat_out, card_stats.sum(axis=0), idx, hand_stats.sum(axis=0), action_out)

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
        actions = np.zeros((n_players, len(self.spec.action_kinds)), np.int32)
        play_traced(tables, np.int64(n_players), np.uint64(seed), np.int64(game_index), kinds, params,
                    np.int64(self.spec.max_decisions), np.int64(self.spec.max_options), np.int64(check), trace,
                    game_row, seat_rows, actions, violation)
        self._check_choices(game_row[1:2], np.array([game_index]), seed)
        self.last_violation = (int(violation[0]), int(violation[1]))
        return events(trace), game_row, seat_rows
