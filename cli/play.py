"""`balance play`: take a seat at the table and play a turn-based game against the bots.

The game is the real engine driven through its state-machine contract
(ARCHITECTURE.md, Engines): `new_game`, `to_move`, `legal`, `step`, with the
same streams as the runner's loop (`simcore/runner.py`, `play`). Each bot
seat decides exactly as the runner asks it (epsilon's draw first, then
random or the game's greedy, or the compiled `choose` of the other kinds),
and the person's seat draws nothing from the streams, as a `recorded` seat
(simcore/recorded.py) does in the runner. So the game the person played is
the game the runner plays with their decisions recorded: a finished game is
saved as an ordinary one-game run folder whose human seat plays back those
decisions, `balance replay FOLDER` prints it, and before saving the game is
played once more by the compiled runner and its events compared with the
ones shown (a mismatch is said, never hidden).

What the seat sees is cut to its information (the game's `seat_view.py`, simcore/seat_view.py: its
own hand, public piles, counts of the others' hands and decks; each bot move
narrated in the transcript's words, hidden cards left out).

Commands at the prompt: a number picks an option; `hint` asks `expert` (on a
copy of the game, from the seat's view; the game's own streams are not
touched); `undo` takes back the last decision (the game is replayed from the
start with the earlier ones); `board`, `log`, `help`, `quit`. `quit`, end of
input or Ctrl-C keep the game so far in its folder (`play.json`; go on with
it with the same `--out FOLDER`).
"""
from __future__ import annotations

import csv
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from balance.simcore import registry
from balance.simcore.errors import BalanceError

from .app import _players, _spec, _user_params

PLAY_FILE = "play.json"  # the game so far: settings, seats and the person's decisions (resume, undo)
LOG_FILE = "playtests.csv"  # one row per finished game, in the playtest log's format (balance playtests)
LOG_COLUMNS = ("players", "winners", "turns", "minutes", "end", "settings", "cards", "level", "date", "notes",
               "game", "seat", "opponents", "seed", "folder")
HINT_ROLLOUTS = 48  # games played out per hint for the win chance
HINT_SECONDS = 8.0  # ... or fewer, when they take longer than this
HELP_TEXT = ("a number: play that option   hint: what expert would play here, and a win chance   "
             "undo: take back your last decision   board: show the table again   cards: every card's text   "
             "log: the whole game so far   "
             "help: this line   quit: stop here (the game is kept: go on with balance play --out FOLDER)")


class Quit(Exception):
    """The person stopped (quit, end of input, Ctrl-C)."""


# ------------------------------------------------------------------ the game, driven as the runner drives it
@dataclass
class Game:
    """One game of `spec` at seed `seed`, game index 0, the person at seat `human` (0-based)."""

    spec: object
    data: object
    players: int
    human: int
    seats: list  # SeatPolicy per seat; the human's is a placeholder (its kind is never asked)
    seed: int
    choices: list[int] = field(default_factory=list)  # option codes the person chose at asked decisions

    def __post_init__(self):
        from balance.simcore.batch import Engine
        from balance.simcore.runner import GREEDY, RANDOM

        bots = [s for i, s in enumerate(self.seats) if i != self.human]
        self._simple = all(s.kind in (RANDOM, GREEDY) for s in bots)
        # the bots' other kinds (lookahead, expert, a user file) decide through the runner's compiled `choose`
        self._engine = None if self._simple else Engine(self.spec, bots)
        self.kinds = np.array([s.kind for s in self.seats], np.int64)
        self.params = np.array([s.params for s in self.seats], np.float64)
        self.restart()

    def restart(self) -> None:
        from balance.simcore import rng as R
        from balance.simcore.trace import new_trace

        k = self.spec.kernels
        self.rng = np.zeros(R.N_STREAMS, np.uint64)
        R.seed_streams(self.rng, np.uint64(self.seed), np.int64(0))
        self.trace = new_trace()
        self.state = k.new_game(self.data.tables, np.int64(self.players), self.rng, self.trace)
        self.options = np.zeros(self.spec.max_options, np.int64)
        self.buf = np.zeros(self.spec.max_options, np.int64)
        self.decisions = 0
        self.asked = 0  # the person's decisions with more than one option, so far
        self.n = 0
        self.stuck = False
        self.marks: list[int] = []  # trace length before each asked decision (undo shows from there)

    @property
    def events(self) -> np.ndarray:
        from balance.simcore.trace import events

        return events(self.trace)

    @property
    def over(self) -> bool:
        return self.stuck or self.spec.kernels.to_move(self.state) < 0 or self.decisions >= self.spec.max_decisions

    def advance(self) -> bool:
        """Play on (bots, forced moves, recorded decisions) until the person must choose (True) or the game
        is over (False). Exactly the runner's loop: the turn cap, no legal move, one option played unasked."""
        k = self.spec.kernels
        tables = self.data.tables
        while True:
            seat = k.to_move(self.state)
            if seat < 0 or self.decisions >= self.spec.max_decisions:
                return False
            n = k.legal(tables, self.state, self.options)
            if n == 0:
                self.stuck = True
                return False
            self.n = n
            if n == 1:
                j = 0
            elif seat == self.human:
                if self.asked >= len(self.choices):
                    return True
                j = self.index_of(self.choices[self.asked])
                if j < 0:
                    raise BalanceError(f"{PLAY_FILE}: decision {self.asked + 1} recorded option {self.choices[self.asked]}, "
                                       "which is not a legal option here (another engine or card list?)")
                self.marks.append(int(self.trace[0]))
                self.asked += 1
            else:
                j = self.bot_choice(seat, n)
            k.step(tables, self.state, self.options[j], self.rng, self.trace)
            self.decisions += 1

    def index_of(self, code: int) -> int:
        hits = np.flatnonzero(self.options[: self.n] == code)
        return int(hits[0]) if hits.size else -1

    def bot_choice(self, seat: int, n: int) -> int:
        """The runner's decision for a bot seat (simcore/runner.py, `play`), on the game's own streams."""
        from balance.simcore import rng as R
        from balance.simcore.runner import GREEDY, P_EPSILON, RANDOM

        kind = int(self.kinds[seat])
        params = self.params[seat]
        if kind == RANDOM or kind == GREEDY:
            eps = params[P_EPSILON]
            if eps > 0.0 and R.uniform(self.rng, R.POLICY) < eps:
                return int(R.randint(self.rng, R.POLICY, np.int64(n)))
            if kind == RANDOM:
                return int(R.randint(self.rng, R.POLICY, np.int64(n)))
            return int(self.spec.kernels.greedy(self.data.tables, self.state, np.int64(seat), self.options,
                                                np.int64(n), params, self.rng))
        return int(self._engine._runner().choose(self.data.tables, self.state, np.int64(seat), self.options,
                                                 np.int64(n), np.int64(kind), params, self.rng, self.buf))

    def choose(self, j: int) -> None:
        """The person plays option j of the current decision."""
        self.choices.append(int(self.options[j]))

    def undo(self) -> bool:
        """Take back the person's last decision: replay from the start with the earlier ones."""
        if not self.choices:
            return False
        self.choices.pop()
        self.restart()
        self.advance()
        return True

    def result(self) -> tuple[np.ndarray, np.ndarray]:
        """The runner's result rows of the finished game (end reason as the runner sets it)."""
        from balance.simcore.runner import COL_DECISIONS, COL_END_REASON, END_CAP, END_NO_MOVE

        game_row = np.zeros(len(self.spec.game_column_names))
        seat_rows = np.zeros((self.players, len(self.spec.seat_column_names)))
        self.spec.kernels.outcome(self.data.tables, self.state, game_row, seat_rows)
        game_row[COL_DECISIONS] = self.decisions
        if self.stuck:
            game_row[COL_END_REASON] = END_NO_MOVE
        elif self.spec.kernels.to_move(self.state) >= 0:
            game_row[COL_END_REASON] = END_CAP
        return game_row, seat_rows

    # ------------------------------------------------------------ hint: expert's choice and a win chance
    def hint(self, expert) -> tuple[int, float | None, int, str]:
        """(expert's option index, win chance, games played out, policy name), on copies of the game: its
        streams are not touched. The win chance: the seat's wins when the hidden cards are redrawn as the
        seat may imagine them (determinise), expert's option is played, and every seat plays greedy on."""
        from balance.simcore import rng as R
        from balance.simcore.batch import Engine

        k = self.spec.kernels
        tables = self.data.tables
        seat = self.human
        state = k.clone(self.state)
        rng = np.zeros(R.N_STREAMS, np.uint64)
        R.seed_streams(rng, np.uint64(self.seed ^ 0x5EED), np.int64(1 + self.decisions))
        if expert.kind in (0, 1):
            j = int(k.greedy(tables, state, np.int64(seat), self.options, np.int64(self.n),
                             np.array(expert.params), rng))
        else:
            runner = Engine(self.spec, [expert])._runner()
            j = int(runner.choose(tables, state, np.int64(seat), self.options.copy(), np.int64(self.n),
                                  np.int64(expert.kind), np.array(expert.params), rng, self.buf.copy()))
        from balance.simcore.batch import policy_defaults

        greedy_params = policy_defaults(self.spec, "greedy")
        wins = played = 0
        start = time.perf_counter()
        options = np.zeros_like(self.options)
        game_row = np.zeros(len(self.spec.game_column_names))
        seat_rows = np.zeros((self.players, len(self.spec.seat_column_names)))
        notrace = np.zeros(0, np.int32)
        for r in range(HINT_ROLLOUTS):
            if played and time.perf_counter() - start > HINT_SECONDS:
                break
            world = np.zeros(R.N_STREAMS, np.uint64)
            R.seed_streams(world, np.uint64(self.seed ^ 0xC0FFEE), np.int64(r + 1000 * self.decisions))
            s2 = k.clone(self.state)
            k.determinise(tables, s2, np.int64(seat), world)
            k.step(tables, s2, self.options[j], world, notrace)
            d = self.decisions + 1
            while k.to_move(s2) >= 0 and d < self.spec.max_decisions:
                n = k.legal(tables, s2, options)
                if n == 0:
                    break
                who = k.to_move(s2)
                c = 0 if n == 1 else k.greedy(tables, s2, np.int64(who), options, np.int64(n), greedy_params, world)
                k.step(tables, s2, options[c], world, notrace)
                d += 1
            k.outcome(tables, s2, game_row, seat_rows)
            wins += int(seat_rows[seat, 0] > 0.5)
            played += 1
        return j, (wins / played if played else None), played, expert.name


# ------------------------------------------------------------------ saving
def _settings_text(user: dict) -> str:
    """The rule parameters set for the game, `NAME=VALUE;...` as --set takes them (the level apart)."""
    def show(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (list, tuple)):
            return ",".join(show(x) for x in v)
        return str(v)

    return ";".join(f"{k}={show(v)}" for k, v in sorted(user.items()) if k not in ("level", "cards"))


def append_log(path: Path, row: dict) -> None:
    """One row of the playtest log (analysis' `balance playtests` reads it); a new file gets the header. An
    existing log keeps its own columns: the row fills those it has."""
    exists = path.exists() and path.stat().st_size > 0
    header = list(LOG_COLUMNS)
    if exists:
        with open(path, newline="", encoding="utf-8") as fh:
            first = next(csv.reader(fh), None)
        if first:
            header = first
    with open(path, "a", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=header, extrasaction="ignore")
        if not exists:
            w.writeheader()
        w.writerow({k: row.get(k, "") for k in header})


def write_play_file(folder: Path, doc: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (PLAY_FILE + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    tmp.replace(folder / PLAY_FILE)


def read_play_file(folder: Path) -> dict:
    path = Path(folder) / PLAY_FILE
    try:
        if path.is_symlink() or path.stat().st_size > 10_000_000:  # nothing in a folder is followed or read unbounded
            raise ValueError("a link, or larger than 10 MB")
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BalanceError(f"--out: {path} does not exist; allowed: a folder written by balance play") from None
    except (OSError, ValueError) as exc:
        raise BalanceError(f"--out: {path} cannot be read ({exc}); allowed: a play.json written by balance play") from None
    need = {"game": str, "players": int, "seat": int, "seed": int, "settings": dict, "policies": list, "choices": list}
    for key, kind in need.items():
        if not isinstance(doc.get(key), kind) or isinstance(doc.get(key), bool):
            raise BalanceError(f"--out: {path}: '{key}' is missing or not a {kind.__name__}; allowed: a play.json "
                               "written by balance play")
    if doc.get("finished"):
        raise BalanceError(f"--out: {folder} holds a finished game; allowed: a new folder, or an unfinished game's to go "
                           f"on with it (replay this one with: balance replay {Path(folder) / 'run'})")
    if not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in doc["choices"]):
        raise BalanceError(f"--out: {path}: 'choices' must be option codes (whole numbers >= 0)")
    return doc


# ------------------------------------------------------------------ the command



def setup(game: str | None, players: int | None, seat: int, policy, policy_param, set_, level):
    """Check every option against the game before anything plays: (spec, n_players, seats, user params)."""
    if game is None:
        raise BalanceError("--game: give the game to play (see `balance games`), or --out the folder of an "
                           "unfinished game to go on with it")
    spec = _spec(game)
    if spec.play_refused:
        playable = [name for name in registry.names() if not registry.get(name).play_refused]
        raise BalanceError(f"--game: balance play cannot seat you at {game}: {spec.play_refused}; allowed: "
                           f"{', '.join(playable)}")
    n_players = _players(spec, players)
    if not 1 <= seat <= n_players:
        raise BalanceError(f"--seat: {seat} is not a seat of this game of {n_players} player(s); allowed: 1..{n_players}")
    seats = bot_policies(spec, policy, policy_param, n_players, seat - 1)
    user = _user_params(spec, set_, None, level)
    return spec, n_players, seats, user


def bot_policies(spec, policy, policy_param, n_players: int, human: int) -> list:
    """Each seat's policy: --policy for every bot (one name), one per other seat in seat order, or one per seat;
    the person's seat keeps a placeholder (it is never asked)."""
    from balance.simcore.batch import parse_policies, policy_names

    names = policy_names(policy)
    others = n_players - 1
    if len(names) == 1:
        per_seat = names * n_players
    elif len(names) == n_players:  # one per seat, as every command reads --policy: yours is not asked
        per_seat = list(names)
    elif len(names) == others:
        per_seat = names[:human] + ["greedy"] + names[human:]
    else:
        raise BalanceError(f"--policy: {len(names)} policies given ({', '.join(names)}) for {others} bot seat(s); "
                           f"allowed: one policy for every bot, {others} (one per other seat, in seat order) or "
                           f"{n_players} (one per seat; yours is not played)")
    if n_players == 1:
        per_seat = ["greedy"]
    pols = parse_policies(spec, per_seat, policy_param, n_players)
    return pols * n_players if len(pols) == 1 else list(pols)


__all__ = ["Game", "setup", "append_log", "read_play_file", "write_play_file"]
