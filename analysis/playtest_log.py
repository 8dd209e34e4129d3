"""A playtest log read, grouped by setting, and its settings simulated (issue 44, items 2 and 3).

A playtest log is a CSV a designer keeps in a spreadsheet, one row per game played:

    players   required: the seat count
    winners   required: the winning seats, numbered from 1 in turn order (seat 1 moved first),
              `;`-separated; empty when nobody won (a co-op or solo win lists every seat)
    turns     optional: the game's length in the game's own turns (the party game: cards played)
    minutes   optional: how long the game took (the party game's reaction profile is fitted to it)
    end       optional: how the game ended, in the game's end-reason words (`balance games --game G`)
    settings  optional: NAME=VALUE;NAME=VALUE rule parameters, as --set
    cards     optional: a card list file, relative to the CSV
    level     optional: the difficulty level (games with levels)
    date, notes, and any other column: kept and ignored

Rows are grouped by what was played (players, settings, level, cards); each group is simulated
in memory with the run machinery's own library calls (analysis.runs.make_config and analysis.execution.Prepared,
as `balance simulate` plays a chunk) for every rung of a skill grid (analysis.playtest_fit), and
the `greedy` rung (what `balance simulate` plays by default) is set beside the playtests
(analysis.playtests).

Seats are engine seats: seat 1 of the log is the engine's seat 0, the seat that moves first.

`synthesize` writes a log of the same shape from known policies and settings (the sample logs of
docs/playtests/ and the recovery tests).
"""
from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from balance.simcore.errors import BalanceError
from balance.simcore.runner import COL_END_REASON, COL_WON


REQUIRED = ("players", "winners")
OPTIONAL = ("turns", "minutes", "end", "settings", "cards", "level", "date", "notes")
MAX_ROWS = 100_000
ALLOWED_WINNERS = "winning seats numbered from 1, separated by ';' (e.g. 1 or 2;3), or empty when nobody won"


@dataclass
class Row:
    """One game of the log (seats 0-based here; the log's seat 1 is seat 0)."""

    row: int  # 1 = the first row under the header
    players: int
    winners: tuple[int, ...]
    turns: int | None = None
    minutes: float | None = None
    end: str | None = None
    settings: tuple[str, ...] = ()
    cards: str | None = None  # a resolved path
    level: int | None = None
    kept: dict[str, str] = field(default_factory=dict)  # date, notes, unknown columns

    @property
    def mask(self) -> int:
        m = 0
        for s in self.winners:
            m |= 1 << s
        return m


@dataclass
class Group:
    """The rows played at one setting: one simulation each."""

    players: int
    user: dict[str, Any]  # validated rule parameters (simcore.params.user_params)
    label: str
    rows: list[Row]

    @property
    def key(self) -> str:
        return json.dumps([self.players, self.user], sort_keys=True, default=str)


@dataclass
class Log:
    path: Path
    rows: list[Row]
    columns: list[str]
    ignored: list[str]  # unknown columns, kept and ignored


# ---------------------------------------------------------------- reading a log


def _where(path: Path, row: int | None, column: str | None) -> str:
    bits = [str(path)] + ([f"row {row}"] if row is not None else []) + ([f"column {column}"] if column else [])
    return ", ".join(bits)


def end_words(spec) -> tuple[str, ...]:
    return tuple(spec.all_end_reasons)


def _end_of(text: str, spec) -> str | None:
    t = text.strip().lower().replace(" ", "_").replace("-", "_")
    return t if t in end_words(spec) else None


def read_log(path: Path, spec, sets: list[str] | None = None, level: int | None = None,
             cards: Path | None = None) -> Log:
    """The log's rows, checked; one line naming the file, row, column and what is allowed otherwise.
    `sets`, `level`, `cards`: the command line's, under every row (a row's own settings win)."""
    from balance.simcore.files import read_bytes

    _check_options(spec, sets, level, cards)
    path = Path(path)
    data = read_bytes(path, "playtest log ", "a CSV file of playtest games (docs/playtests/README.md)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BalanceError(f"{path}: not UTF-8 text; allowed: a CSV file saved as UTF-8") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        table = [r for r in reader]
    except csv.Error as exc:
        raise BalanceError(f"{path}: not a CSV file ({exc}); allowed: comma-separated columns with a header row") from None
    while table and not any(c.strip() for c in table[-1]):
        table.pop()
    if not table:
        raise BalanceError(f"{path}: empty; allowed: a header row (players,winners,...) and one row per game")
    header = [h.strip().lower() for h in table[0]]
    for col in REQUIRED:
        if col not in header:
            raise BalanceError(f"{_where(path, None, col)}: missing; allowed: a header naming {', '.join(REQUIRED)} "
                               f"(required) and any of {', '.join(OPTIONAL)}")
    dup = sorted({h for h in header if h and header.count(h) > 1})
    if dup:
        raise BalanceError(f"{_where(path, None, dup[0])}: named twice in the header; allowed: each column once")
    body = table[1:]
    if not [r for r in body if any(c.strip() for c in r)]:
        raise BalanceError(f"{path}: no games under the header; allowed: one row per game played")
    if len(body) > MAX_ROWS:
        raise BalanceError(f"{path}: {len(body):,} rows; allowed: at most {MAX_ROWS:,} games")
    base_sets = list(sets or [])
    rows = []
    for i, cells in enumerate(body, start=1):
        if not any(c.strip() for c in cells):
            continue  # a blank line in a spreadsheet export
        if len(cells) > len(header):
            raise BalanceError(f"{_where(path, i, None)}: {len(cells)} cells under a header of {len(header)} columns; "
                               "allowed: one cell per header column (quote a cell that holds a comma)")
        rec = {h: (cells[j].strip() if j < len(cells) else "") for j, h in enumerate(header)}
        rows.append(_row(path, i, rec, spec, base_sets, level, cards))
    ignored = [h for h in header if h and h not in REQUIRED + OPTIONAL]
    return Log(path, rows, header, ignored)


def _check_options(spec, sets: list[str] | None, level: int | None, cards: Path | None) -> None:
    """The command line's --set, --level and --cards, checked (and named) before any row."""
    from balance.simcore.params import resolve, user_params

    if level is not None and spec.param("level") is None:
        raise BalanceError(f"--level: {spec.name} has no difficulty levels")
    if cards is not None:
        if spec.param("cards") is None:
            raise BalanceError(f"--cards: {spec.name} has no card list to replace; allowed: leave it out")
        if not Path(cards).is_file():
            raise BalanceError(f"--cards: {cards} is not a file; allowed: a card list file ({spec.name}'s format)")
    user = user_params(spec, list(sets or []), None, {"level": level} if level is not None else {})
    resolve(spec, {**user, **({"cards": str(Path(cards).resolve())} if cards is not None else {})})


def _int(path, i, col, text, low, high, allowed) -> int:
    try:
        v = int(text)
    except ValueError:
        try:  # a spreadsheet may save 2 as 2.0
            f = float(text)
            v = int(f) if math.isfinite(f) and f == int(f) else None
        except ValueError:
            v = None
        if v is None:
            raise BalanceError(f"{_where(path, i, col)}: '{text}' is not a whole number; allowed: {allowed}") from None
    if not low <= v <= high:
        raise BalanceError(f"{_where(path, i, col)}: {v} is out of range; allowed: {allowed}")
    return v


def _row(path: Path, i: int, rec: dict, spec, base_sets: list[str], level: int | None, cards: Path | None) -> Row:
    from balance.simcore.params import split_assignment

    allowed_players = f"{spec.min_players}..{spec.max_players} ({spec.name})"
    players = _int(path, i, "players", rec["players"], spec.min_players, spec.max_players, allowed_players)
    winners: list[int] = []
    for bit in (rec["winners"].replace(",", ";").split(";") if rec["winners"] else []):
        bit = bit.strip()
        if not bit:
            continue
        seat = _int(path, i, "winners", bit, 1, players, f"seats 1..{players}: {ALLOWED_WINNERS}")
        if seat - 1 in winners:
            raise BalanceError(f"{_where(path, i, 'winners')}: seat {seat} listed twice; allowed: {ALLOWED_WINNERS}")
        winners.append(seat - 1)
    if spec.cooperative and winners and len(winners) != players:
        raise BalanceError(f"{_where(path, i, 'winners')}: '{rec['winners']}' names some seats only, but in "
                           f"{spec.name} the players win or lose together; allowed: every seat "
                           f"({';'.join(str(s + 1) for s in range(players))}) or empty")
    row = Row(i, players, tuple(sorted(winners)))
    if rec.get("turns"):
        row.turns = _int(path, i, "turns", rec["turns"], 0, 10**9, "a whole number of turns, 0 or more, or empty")
    if rec.get("minutes"):
        try:
            m = float(rec["minutes"])
        except ValueError:
            m = float("nan")
        if not (math.isfinite(m) and 0 < m < 100_000):
            raise BalanceError(f"{_where(path, i, 'minutes')}: '{rec['minutes']}' is not a duration; allowed: minutes "
                               "as a number above 0 (e.g. 7.5), or empty")
        row.minutes = m
    if rec.get("end"):
        e = _end_of(rec["end"], spec)
        if e is None:
            raise BalanceError(f"{_where(path, i, 'end')}: '{rec['end']}' is not an end reason of {spec.name}; "
                               f"allowed: {', '.join(end_words(spec))}, or empty")
        row.end = e
    own = [s.strip() for s in rec.get("settings", "").split(";") if s.strip()]
    for s in own:
        try:
            split_assignment(s, "settings")
        except BalanceError:
            raise BalanceError(f"{_where(path, i, 'settings')}: '{s}' is not NAME=VALUE; allowed: NAME=VALUE;NAME=VALUE "
                               "as --set (see `balance games --game G`)") from None
    row.settings = tuple(base_sets + own)
    if rec.get("level"):
        param = spec.param("level")
        if param is None:
            raise BalanceError(f"{_where(path, i, 'level')}: {spec.name} has no difficulty levels; allowed: empty")
        row.level = _int(path, i, "level", rec["level"], int(param.low), int(param.high), param.allowed())
    else:
        row.level = level
    card_file = None
    if rec.get("cards"):
        card_file = (path.parent / rec["cards"]).resolve()
        if not card_file.is_file():
            raise BalanceError(f"{_where(path, i, 'cards')}: '{rec['cards']}' is not a file (read relative to the log); "
                               "allowed: a card list file next to the log, or empty")
    elif cards is not None:
        card_file = Path(cards).resolve()
    if card_file is not None and spec.param("cards") is None:
        raise BalanceError(f"{_where(path, i, 'cards')}: {spec.name} has no card list to replace; allowed: empty")
    row.cards = str(card_file) if card_file is not None else None
    row.kept = {k: v for k, v in rec.items() if k not in REQUIRED + OPTIONAL[:6] and v}  # date, notes, unknown
    return row


def row_user(spec, row: Row, path: Path) -> dict:
    """The row's validated rule parameters; a bad one named by row and column."""
    from balance.simcore.params import user_params

    extra: dict[str, Any] = {}
    if row.level is not None:
        extra["level"] = row.level
    sets = list(row.settings) + ([f"cards={row.cards}"] if row.cards else [])
    try:
        user = user_params(spec, sets, None, extra)
        from balance.simcore.params import resolve

        resolve(spec, user)  # a card file that does not load, a setting the game refuses: here, per row
    except BalanceError as exc:
        col = "cards" if row.cards and "card" in str(exc).lower() else "level" if "--level" in str(exc) else "settings"
        raise BalanceError(f"{_where(path, row.row, col)}: {exc}") from None
    return user


def groups(spec, log: Log) -> list[Group]:
    """Rows grouped by what was played, in the order the log first lists each setting."""
    out: dict[str, Group] = {}
    for row in log.rows:
        user = row_user(spec, row, log.path)
        g = Group(row.players, user, group_label(spec, row.players, user), [])
        out.setdefault(g.key, g).rows.append(row)
    return list(out.values())


def group_label(spec, players: int, user: dict) -> str:
    bits = [f"{players} player{'s' if players != 1 else ''}"]
    for k, v in sorted(user.items()):
        if k == "cards":
            bits.append(f"cards {Path(str(v)).name}")
        else:
            bits.append(f"{k}={','.join(f'{x:g}' if isinstance(x, float) else str(x) for x in v) if isinstance(v, list) else v}")
    return ", ".join(bits)


# ---------------------------------------------------------------- simulating a setting


@dataclass
class Sim:
    """The simulated games of one setting and one policy: per game the winners, length, end and minutes."""

    won: np.ndarray  # (n, players) bool
    turns: np.ndarray | None  # (n,) the length column the log's `turns` is read against
    end: np.ndarray  # (n,) index into spec.all_end_reasons
    minutes: np.ndarray | None

    @property
    def n(self) -> int:
        return int(self.won.shape[0])

    @property
    def mask(self) -> np.ndarray:
        return (self.won.astype(np.int64) << np.arange(self.won.shape[1], dtype=np.int64)).sum(axis=1)


def turns_column(spec) -> str | None:
    """The game column a log's `turns` is compared with: `turns`, or the party game's cards played."""
    names = spec.game_column_names
    for name in ("turns", "plays"):
        if name in names:
            return name
    return None


def simulate(spec, players: int, user: dict, seats: list, n: int, seed: int, first: int = 0) -> Sim:
    """Play n games of the setting (game indices first..first+n-1 of `seed`) with the run machinery's own
    calls (analysis.runs.make_config, analysis.execution.Prepared.run_task: what `balance simulate` plays per chunk)."""
    from . import execution, runs

    config = runs.make_config(spec, user, players, list(seats), seed, n)
    res = execution.Prepared(spec, config).run_task(0, first, n)
    names = spec.game_column_names
    tc = turns_column(spec)
    return Sim(won=res.seat_out[:, :, COL_WON] > 0.5,
               turns=res.game_out[:, names.index(tc)].astype(np.int64) if tc else None,
               end=res.game_out[:, COL_END_REASON].astype(np.int64),
               minutes=res.game_out[:, names.index("minutes")] if "minutes" in names else None)


# ---------------------------------------------------------------- synthetic logs (docs/playtests, the recovery tests)

SYNTH_COLUMNS = ("date", "players", "winners", "turns", "minutes", "end", "settings", "level", "notes")


def sim_rows(spec, sim: Sim, turns: bool = True, end: bool = True, minutes: bool = True) -> list[Row]:
    """Simulated games as log rows (what read_log would return for them)."""
    ends = end_words(spec)
    out = []
    for i in range(sim.n):
        players = sim.won.shape[1]
        r = Row(i + 1, players, tuple(int(s) for s in np.flatnonzero(sim.won[i])))
        if turns and sim.turns is not None:
            r.turns = int(sim.turns[i])
        if end:
            r.end = ends[int(sim.end[i])]
        if minutes and sim.minutes is not None:
            r.minutes = float(round(sim.minutes[i], 2))
        out.append(r)
    return out


def synthesize(spec, players: int, sets: list[str], level: int | None, seats: list, n: int, seed: int,
               notes: str = "synthetic") -> list[dict]:
    """n games of known policies (`seats`: one SeatPolicy, or one per seat) and settings, as log rows
    (CSV cells by column name). The `settings` cell holds the rule settings of `sets`, not the policies
    nor the game's behaviour profile (spec.behaviour_params): a log says what was played, not how people play."""
    from balance.simcore.params import split_assignment, user_params

    user = user_params(spec, sets, None, {"level": level} if level is not None else {})
    rules = [s for s in sets if split_assignment(s, "--set")[0] not in spec.behaviour_params]
    sim = simulate(spec, players, user, seats if len(seats) > 1 else seats * players, n, seed)
    rows = []
    for r in sim_rows(spec, sim):
        rows.append({"date": "", "players": str(players), "winners": ";".join(str(s + 1) for s in r.winners),
                     "turns": "" if r.turns is None else str(r.turns),
                     "minutes": "" if r.minutes is None else f"{r.minutes:.2f}", "end": r.end or "",
                     "settings": ";".join(rules), "level": "" if level is None else str(level), "notes": notes})
    return rows


def write_log(path: Path, rows: list[dict]) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    cols = [c for c in SYNTH_COLUMNS if any(r.get(c) for r in rows) or c in REQUIRED]
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return path
