"""The declarative header of a game: players, knobs, metrics, kernels.

Every balance knob is declared once, with its default and the range a
designer may sweep (TAG's parameters, OpenSpiel's game header). Metrics are
declared columns the kernel writes, not ad-hoc prints.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, NamedTuple

from .files import data_root, shown
from .params import Param  # noqa: F401  (declared here for the games: spec.Param)
from .slots import (EXPERT, GREEDY, LOOKAHEAD, ORACLE, P_CONFIDENCE, P_DEPTH, P_EPSILON, P_EXPLORATION, P_HORIZON,
                    P_FUTILITY, P_ITERATIONS, P_RECHECK, P_ROLLOUT_KIND, P_ROLLOUTS, P_TURNS, P_WIDEN, P_WORLDS, RANDOM)

DATA_DIR = data_root()  # the installed game data (simcore.files)


class Kernels(NamedTuple):
    """The jitted functions a game supplies to the shared loop.

    new_game(tables, n_players, rng, trace) -> state
    to_move(state) -> seat to decide, or -1 when the game is over
    legal(tables, state, out) -> n; fills out[:n] with option codes (int64)
    step(tables, state, option, rng, trace); chance from rng[rng.CHANCE]
    outcome(tables, state, game_row, seat_rows); float64 rows, columns as
        declared (runner owns game_row[0:2] and seat_rows[:, 0:2] layout:
        end_reason, decisions / won, score; the game writes end_reason,
        won and score itself)
    clone(state) -> an independent copy
    restore(world, state) (optional): make `world`, a clone of a state of
        the same game, play on as clone(state) would, with no allocation;
        per-card counters (read by `card_counts` only, for the real game)
        may be left as they were. The search's worlds: one clone per
        decision, restored every iteration. Absent: a clone per iteration.
    determinise(tables, state, seat, rng): redraw what `seat` cannot see
    value(tables, state, seat) -> float, how good a (possibly unfinished)
        state is for `seat`; 1.0 is a certain win
    greedy(tables, state, seat, options, n, params, rng) -> index into options
    card_counts(state) -> int array (seats, cards, counter kinds)
    check(tables, state) -> 0, or the 1-based code of the first invariant
        the state breaks (cards conserved, each card in one zone, counters
        consistent); `GameSpec.invariants` names the codes. Run after every
        step by `--check`.
    action(tables, state, option) -> (kind, card, target, choice), int64s:
        what a legal option of this state does, by name: its kind (a code of
        `GameSpec.action_kinds`, `ACT = action_index(ACTION_KINDS)`), the card
        id it plays or moves, the seat it targets, the choice it makes (a suit
        named, a card guessed, ...); -1 where one does not apply. An option
        code is a position (a hand slot): this is the one place that says
        which card it is now, for greedy, the statistics (the runner counts
        each seat's chosen kinds: the seats part's `action_*` columns) and
        the contract test. Two legal options of one state are two actions.
    """

    new_game: Any
    to_move: Any
    legal: Any
    step: Any
    outcome: Any
    clone: Any
    determinise: Any
    value: Any
    greedy: Any
    card_counts: Any
    check: Any = None
    action: Any = None  # see above; with GameSpec.action_kinds
    restore: Any = None  # see above
    # The search's rollouts call legal, step and greedy directly: a call passes every array of the
    # tables and the state field by field, which in a game of many cheap decisions is much of a
    # rollout's time (Four Day Weekend: expert 1.36x faster). Where a game compiles them to be
    # inlined (`jit(force=True)`) that is one more copy of each in the search's compile (Four Day
    # Weekend's cold compile 57 -> 76 s); False calls them through the runner's wrappers (Overtime:
    # its step and greedy read effects, and inlined once more they took its search's cold compile
    # from 133 to 200 s for 1% speed).
    rollouts_inline: bool = True

    @classmethod
    def named_in(cls, *modules, **given) -> "Kernels":
        """The kernels the game's modules define under these fields' names (`rules.step`,
        `policies.greedy`, `invariants.check`, ...), so that none is passed by its position; `given`
        sets a field directly (`rollouts_inline=False`). A name two modules bind to different
        functions is refused, and so is a missing kernel (`check`, `action` and `restore` may be absent)."""
        found = dict(given)
        for name in cls._fields:
            if name in found or name == "rollouts_inline":
                continue
            objects = {id(f): f for f in (getattr(m, name, None) for m in modules) if f is not None}
            if len(objects) > 1:
                raise ValueError(f"kernel {name!r}: {', '.join(m.__name__ for m in modules if hasattr(m, name))} "
                                 f"each define one")
            if objects:
                found[name] = next(iter(objects.values()))
            elif name not in cls._field_defaults:
                raise ValueError(f"kernel {name!r}: none of {', '.join(m.__name__ for m in modules)} defines it")
        return cls(**found)


def cards_param(default_file: Path) -> Param:
    """The `cards` parameter: another card list for a game, in the format of its
    own data file (`--set cards=my-cards.toml`; compare or sweep card lists on
    the same deals). Empty means the game's own list. Runs record the file's
    content hash, so an edited file is a different configuration."""
    rel = shown(default_file)
    return Param("cards", "file", "", f"card list file (.toml, or .csv as in docs/card-lists.md; `balance cards export --game G` "
                                       f"writes the game's own); empty: {rel}")


@dataclass(frozen=True)
class Column:
    """A result column the kernel writes: one per game (game_columns) or per
    game and seat (seat_columns). `low`/`high` bound every value the game may
    write (the contract test checks them on random games, which is how a
    column written into another's place is caught); `nan_ok` allows NaN
    ("not reached"). Kernels write by name through `game_index`/`seat_index`."""

    name: str
    help: str
    dtype: str = "int32"  # stored type; kernels write float64
    low: float | None = None
    high: float | None = None
    nan_ok: bool = False


def column_index(names, first: int = 0, typename: str = "Index"):
    """A NamedTuple of positions, one field per name: `G.turns` is the column
    `turns`. Kernels read it as a global (numba freezes its ints), so
    `game_row[G.turns] = ...` writes by name, never by a counted position."""
    from .records import named_positions

    names = list(names)
    return named_positions(typename, names, range(first, first + len(names)))


RUNNER_GAME_COLUMNS = ("end_reason", "decisions")
RUNNER_END_REASONS = ("cap", "no_move")  # the runner's own end reasons: codes 0 and 1 (runner.END_CAP, END_NO_MOVE)


def end_index(reasons):
    """Codes of the end reasons by name: `END.cap` 0 and `END.no_move` 1 (the runner's), then the
    game's own from runner.END_GAME = 2 in declared order. Declare a game's reasons once (its
    `END_REASONS`, the spec's `end_reasons`) and write `game_row[G.end_reason] = END.all_happy`:
    a code is never a counted position."""
    return column_index(RUNNER_END_REASONS + tuple(reasons), typename="EndReasons")
RUNNER_SEAT_COLUMNS = ("won", "score")


def action_index(kinds):
    """Codes of a game's action kinds by name, from 0 in declared order: declare them once
    (`ACTION_KINDS = ("play", "draw")`, the spec's `action_kinds`) and return `ACT.play` from the
    game's `action` kernel, never a counted code (as `end_index` for end reasons)."""
    return column_index(kinds, typename="ActionKinds")


ACTION_COLUMN = "action_"  # the seats part's column of an action kind: action_play (analysis.chunk_frames)


def game_index(columns):
    """Positions of game_row: end_reason, decisions (the runner's), then the game's columns."""
    return column_index(RUNNER_GAME_COLUMNS + tuple(c.name for c in columns), typename="GameColumns")


def seat_index(columns):
    """Positions of a seat row: won, score, then the game's seat columns."""
    return column_index(RUNNER_SEAT_COLUMNS + tuple(c.name for c in columns), typename="SeatColumns")


def policy_index(params, first: int):
    """Slots of a policy's parameter vector by name, from `first` in declared order."""
    return column_index([p.name for p in params], first, typename="PolicySlots")


@dataclass(frozen=True)
class PolicyParam:
    name: str
    slot: int
    default: float
    help: str
    low: float = 0.0
    high: float = 1e9


@dataclass(frozen=True)
class PolicySpec:
    name: str
    kind: int
    help: str
    params: tuple[PolicyParam, ...] = ()
    refused: str = ""  # why this game cannot offer the policy (resolve_policy refuses it with this)


@dataclass(frozen=True)
class Budgets:
    """What a game costs, measured (docs/benchmarks.md), for the tools that plan around it; None: not
    measured, the tool's own fallback. Kept in the spec so that no tool holds a table of games."""

    compile_seconds: float | None = None  # cold compile of the greedy loop, empty cache (first-run notice)
    search_compile_seconds: float | None = None  # the same with lookahead / expert / oracle in the loop
    ladder_games: int | None = None  # `balance ladder`'s deals per cheap rung (a few minutes on 2 cores)
    ladder_search_share: tuple[tuple[str, float], ...] | None = None  # (rung, share of those deals) per search rung


@dataclass(frozen=True, kw_only=True)
class GameSpec:
    name: str  # the CLI's --game
    title: str
    version: str = "1"  # rule version: "1" for a new game; bump when the engine's reading of the rules changes
    modes: tuple[str, ...] = ("standard",)  # the first is a run's mode
    min_players: int
    max_players: int
    default_players: int
    cooperative: bool = False  # True: one shared result for all seats (a competitive game need not say it)
    max_decisions: int  # the turn cap
    max_options: int  # upper bound of legal options at any decision
    params: tuple[Param, ...]
    end_reasons: tuple[str, ...]  # codes END_GAME.. in order (runner owns cap, no_move)
    game_columns: tuple[Column, ...]  # after end_reason, decisions
    seat_columns: tuple[Column, ...]  # after won, score
    card_counters: tuple[str, ...]  # counter kinds of card_counts
    policies: tuple[PolicySpec, ...]
    kernels: Kernels
    decode_trace: Callable[[Any, Any, int], list[str]]  # (events, GameData, n_players)
    load_data: Callable[[dict], Any] | None = None  # params -> simcore.gamedata.GameData
    metrics: tuple = ()  # simcore.metrics declarations: the game's own summary figures
    length_column: str = "decisions"  # game column the summary reports as the length
    rounds_column: str | None = None  # game column of rounds, when the game has rounds
    first_seat_column: str | None = None  # game column of the seat that moved first
    setting_columns: tuple[str, ...] = ()  # game columns that say what a game was played at (level)
    invariants: tuple[str, ...] = ()  # what check() codes 1, 2, ... mean
    # The card_counters whose > 0 means "the card reached this seat's hand" (every way in:
    # drawn, taken, passed...). The runner counts, per card and counter, the seat-games where
    # the card reached the hand, so that lift compares seat-games that held the card
    # (analysis.cards). Empty: the game declares none, lift is over all seat-games.
    hand_counters: tuple[str, ...] = ()
    budgets: Budgets = Budgets()
    cards_reconstructed: bool = False  # the shipped card list is rebuilt from the rulebook, not the printed deck
    # What an option does, by kind (Kernels.action returns a code of these): the runner counts each
    # seat's chosen kinds into the seats part (`action_<kind>` columns, analysis.actions).
    action_kinds: tuple[str, ...] = ()
    # Why `balance play` cannot seat a person at this game ("": it can; the game's seat_view.py shows the table).
    play_refused: str = ""
    # The parameters that model how people play, not the rules: a playtest log's `settings` never hold them,
    # and where a log gives minutes the first (a reaction time, seconds) is fitted to them (analysis.playtests).
    behaviour_params: tuple[str, ...] = ()
    # Why a card of the list gets no card-power figure, where the game knows better than "never dealt into a
    # hand": (GameData, card name) -> the reason, or None for the general one (analysis.card_power).
    card_power_note: Callable[[Any, str], str | None] | None = None

    def __post_init__(self):
        if self.load_data is None:
            raise ValueError(f"{self.name}: a GameSpec needs load_data (simcore.gamedata)")
        unknown = [c for c in self.hand_counters if c not in self.card_counters]
        if unknown or len(set(self.hand_counters)) != len(self.hand_counters):
            raise ValueError(f"{self.name}: hand_counters {list(self.hand_counters)} must name distinct "
                             f"card_counters ({', '.join(self.card_counters) or 'none'})")
        has_kernel = getattr(self.kernels, "action", None) is not None
        if has_kernel != bool(self.action_kinds) or len(set(self.action_kinds)) != len(self.action_kinds):
            raise ValueError(f"{self.name}: an action kernel needs distinct action_kinds, and action_kinds an "
                             f"action kernel (have {list(self.action_kinds)}, kernel: {has_kernel})")
        clash = [c for c in self.seat_column_names if c.startswith(ACTION_COLUMN)]
        if clash:
            raise ValueError(f"{self.name}: seat column(s) {clash} take the runner's {ACTION_COLUMN}* names")
        names = self.game_column_names + self.seat_column_names
        for col in (self.length_column, self.rounds_column, self.first_seat_column, *self.setting_columns):
            if col is not None and col not in names:
                raise ValueError(f"{self.name}: column {col!r} is not declared")

    @property
    def hand_kinds(self):
        """int64 mask over card_counters: 1 for the hand counters (the runner's `hand_kinds`)."""
        import numpy as np

        return np.array([1 if c in self.hand_counters else 0 for c in self.card_counters], np.int64)

    def invariant(self, code: int) -> str:
        if 1 <= code <= len(self.invariants):
            return self.invariants[code - 1]
        return f"invariant {code}"

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def policy(self, name: str) -> PolicySpec | None:
        return next((p for p in self.policies if p.name == name), None)

    @property
    def game_at(self):
        """Positions of a game row by name (`spec.game_at.decisions`): the index `outcome` writes by."""
        return game_index(self.game_columns)

    @property
    def seat_at(self):
        """Positions of a seat row by name (`spec.seat_at.won`)."""
        return seat_index(self.seat_columns)

    @property
    def all_end_reasons(self) -> tuple[str, ...]:
        return RUNNER_END_REASONS + self.end_reasons

    @property
    def action_column_names(self) -> list[str]:
        """The seats part's per-seat count of each action kind chosen (`action_play`, ...)."""
        return [ACTION_COLUMN + k for k in self.action_kinds]

    @property
    def game_column_names(self) -> list[str]:
        return ["end_reason", "decisions"] + [c.name for c in self.game_columns]

    @property
    def seat_column_names(self) -> list[str]:
        return ["won", "score"] + [c.name for c in self.seat_columns]


# Policies every game has; games add their own parameters (weights from P_GAME).
EXPERT_HELP = (
    "information-set search (ISMCTS): each iteration redraws everything the player cannot see "
    "(deck order, other hands, removed cards), walks a tree of the player's own decisions by UCB1 "
    "(options tried in greedy's order), adds one node, lets greedy play on for `horizon` decisions (or to "
    "the `turns`-th hand-over of the move) and judges the state; the option visited most is played (with `confidence` > 0, only "
    "if it beats greedy's pick on the same worlds by that many standard errors). "
    "Other seats are modelled as greedy, with the greedy weights listed here (a game may set the "
    "search's own)"
)
ORACLE_HELP = (
    "OPEN-HAND SEARCH, not a player: the expert's search told the hidden cards (the real deck order and "
    "hands; shuffles still to come are not known). Not an upper bound either: a longer search does better "
    "(Sick Days solo's bound is the ladder's exhaustive solver)"
)


# GameSpec fields a game declares in its modules (constants, invariants, cards, transcript), by the modules'
# names for them (docs/adding-a-game.md: constants.py holds what the kernels and the spec both read).
DECLARED = {"MAX_DECISIONS": "max_decisions", "MAX_OPTIONS": "max_options", "END_REASONS": "end_reasons",
            "GAME_COLUMNS": "game_columns", "SEAT_COLUMNS": "seat_columns", "CARD_COUNTERS": "card_counters",
            "HAND_COUNTERS": "hand_counters", "ACTION_KINDS": "action_kinds", "INVARIANTS": "invariants",
            "PARAMS": "params", "RECONSTRUCTED_CARDS": "cards_reconstructed", "load_data": "load_data",
            "decode_trace": "decode_trace"}


def declared(*modules) -> dict:
    """The GameSpec fields the modules declare (MAX_DECISIONS, END_REASONS, GAME_COLUMNS, INVARIANTS, ... as
    `DECLARED` names them), for `GameSpec(name=..., **declared(constants, invariants, cards, transcript))`: each fact is
    written once, where the kernels read it, and the spec takes it from there. A name two modules both
    declare is refused; a field none declares is left to the spec's own arguments."""
    out: dict = {}
    for module in modules:
        for name, field in DECLARED.items():
            if hasattr(module, name):
                if field in out:
                    raise ValueError(f"{module.__name__}.{name}: declared by two modules")
                out[field] = getattr(module, name)
    return out


EPSILON = PolicyParam("epsilon", P_EPSILON, 0.0, "probability of a uniformly random move (a weaker player)", 0.0, 1.0)
# The search's parameters (expert, oracle) with their defaults; a game sets its own by name: `expert_<name>=`.
SEARCH_PARAMS = (
    PolicyParam("iterations", P_ITERATIONS, 32,
                "search iterations per decision (each a freshly sampled world and one rollout)", 1, 100_000),
    PolicyParam("horizon", P_HORIZON, 8,
                "decisions simulated from the decision (tree and rollout) before `value` judges the state", 1, 100_000),
    PolicyParam("turns", P_TURNS, 0,
                "judge the state at the turns-th hand-over of the move (1: when it first passes to another "
                "player, 2: when it comes back to the player...), so that every option is judged at the same "
                "point of the table's turn cycle; 0: after `horizon` decisions only (which caps it either way)", 0, 1_000),
    PolicyParam("depth", P_DEPTH, 3, "most of the player's own decisions the tree holds on one line", 1, 64),
    PolicyParam("exploration", P_EXPLORATION, 0.5, "UCB1 exploration constant (values are 0..1)", 0, 10),
    PolicyParam("worlds", P_WORLDS, 0,
                "worlds per decision: every option's k-th visit plays world k mod this (options compared on "
                "the same deals); 0: world k, never reused", 0, 100_000),
    PolicyParam("widen", P_WIDEN, 0.5,
                "progressive widening: a node tries at most 1 + widen x sqrt(its visits) options, "
                "in greedy's order (0: every option)", 0, 100),
    PolicyParam("confidence", P_CONFIDENCE, 0.5,
                "standard errors (paired, same worlds) by which the chosen option must beat greedy's pick "
                "to replace it (0: no test)", 0, 10),
    PolicyParam("futility", P_FUTILITY, 0,
                "from this iteration on, stop as soon as no new option is due and every option tried has played "
                "two or more of greedy's pick's worlds (1: one) without being ahead of it on them (0: use every "
                "iteration)", 0, 100_000),
    PolicyParam("recheck", P_RECHECK, 0,
                "when the search would replace greedy's pick: play both on this many fresh worlds (not used "
                "to choose) and replace it only if the challenger leads there by the confidence test (0: none)",
                0, 10_000),
    PolicyParam("rollout_policy", P_ROLLOUT_KIND, 1,
                "policy of the other seats and the rollouts: 0 random, 1 greedy", 0, 1),
)
EXPERT_PREFIX = "expert_"


def common_policies(
    greedy_help: str,
    greedy_params: tuple[PolicyParam, ...] = (),
    rollouts: int = 8,
    horizon: int = 400,
    oracle: bool = False,
    expert_refused: str = "",
    **expert_defaults: float,
) -> tuple[PolicySpec, ...]:
    """random, greedy, lookahead and expert (and oracle where it means something:
    a solo or co-op game, where it bounds what any player could do). The
    lookahead budget is per game (its defaults here), and so are the search's:
    `expert_iterations=48` sets the default of SEARCH_PARAMS' `iterations`, and
    `expert_<greedy weight>=` the default of that weight in the search's own greedy
    (its pick, its expansion order, its rollouts and its model of the other seats),
    leaving the `greedy` policy's default as it is.
    `expert_refused`: why a search means nothing for this game; `--policy
    expert` is then refused with that sentence."""

    names = {EXPERT_PREFIX + p.name for p in SEARCH_PARAMS + greedy_params}
    unknown = sorted(set(expert_defaults) - names)
    if unknown:
        raise TypeError(f"common_policies: no search parameter or greedy weight {unknown} (have {sorted(names)})")

    def searched(p: PolicyParam) -> PolicyParam:
        return replace(p, default=expert_defaults.get(EXPERT_PREFIX + p.name, p.default))

    search_params = (EPSILON,) + tuple(searched(p) for p in SEARCH_PARAMS + greedy_params)
    pols = (
        PolicySpec("random", RANDOM, "a uniformly random legal move", (EPSILON,)),
        PolicySpec("greedy", GREEDY, greedy_help, (EPSILON,) + greedy_params),
        PolicySpec(
            "lookahead",
            LOOKAHEAD,
            "Monte Carlo rollouts of every option from determinised states "
            "(hidden cards redrawn from what the player cannot see), played on by greedy; "
            "greedy's pick stands unless another option is clearly better",
            (
                EPSILON,
                PolicyParam("rollouts", P_ROLLOUTS, rollouts, "rollouts per option", 1, 10_000),
                PolicyParam("horizon", P_HORIZON, horizon, "decisions per rollout before the state is judged", 1, 100_000),
                PolicyParam("rollout_policy", P_ROLLOUT_KIND, 1, "policy of the rollouts: 0 random, 1 greedy", 0, 1),
                PolicyParam("confidence", P_CONFIDENCE, 2.5,
                            "standard errors by which an option's rollouts must beat greedy's pick to replace it", 0, 10),
            )
            + greedy_params,
        ),
        PolicySpec("expert", EXPERT, f"not available here: {expert_refused}", (), refused=expert_refused)
        if expert_refused else PolicySpec("expert", EXPERT, EXPERT_HELP, search_params),
    )
    if oracle:
        pols += (PolicySpec("oracle", ORACLE, ORACLE_HELP, search_params),)
    return pols
