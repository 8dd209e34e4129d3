"""`balance play`'s prompt: show the table, narrate the bots, read the person's commands, save the game.

Plain `input()` with Rich for layout: a line-based prompt any terminal (and
tmux, and a pipe) drives. Every bad key gets one line and the prompt again;
end of input and Ctrl-C keep the game and exit cleanly.
"""
from __future__ import annotations

import datetime as _dt
import select
import sys
import time
from pathlib import Path

import numpy as np

from balance.simcore.errors import BalanceError

from .play import (HELP_TEXT, LOG_FILE, PLAY_FILE, Game, Quit, _settings_text, append_log, read_play_file, setup,
                   write_play_file)
from balance.simcore.seat_view import view_for


def say(text: str = "", style: str | None = None) -> None:
    from .app import out

    out.print(text, style=style, highlight=False, markup=False, soft_wrap=True)


def ask(prompt: str) -> str:
    """One line from the person. At a terminal the wait polls (select) rather than blocking in read(): Ctrl-C is
    delivered to whichever thread the kernel picks, and a numba worker thread catching it would leave a blocked
    read() waiting for Enter; polling lets the main thread see the interrupt within a fraction of a second."""
    try:
        if not sys.stdin.isatty():
            return input(prompt)
        sys.stdout.write(prompt)
        sys.stdout.flush()
        while not select.select([sys.stdin], [], [], 0.2)[0]:
            pass
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")
    except EOFError:
        raise Quit("end of input") from None
    except KeyboardInterrupt:
        raise Quit("Ctrl-C") from None


def run_session(game, players, seat, policy, policy_param, set_, seed, level, out_dir, notes) -> None:
    from balance.analysis import runs
    from balance.simcore.batch import resolve_policy

    folder = Path(out_dir) if out_dir is not None else None
    if folder is not None and folder.exists() and (folder / PLAY_FILE).exists():  # an unfinished game: go on with it
        doc = read_play_file(folder)
        given = [n for n, v in (("--players", players), ("--seat", seat), ("--policy", policy),
                                ("--policy-param", policy_param), ("--set", set_), ("--level", level)) if v]
        if game is not None and game != doc["game"]:
            given.insert(0, "--game")
        if given:
            raise BalanceError(f"{given[0]}: not allowed with --out {folder}, an unfinished game that goes on with its "
                               "own settings; allowed: --out alone, or a new folder for a new game")
        sets = [f"{k}={_value(v)}" for k, v in doc["settings"].items() if k != "level"]
        spec, n_players, seats, user = setup(doc["game"], doc["players"], doc["seat"], doc["policies"],
                                             doc.get("policy_params") or None, sets, doc["settings"].get("level"))
        seed, notes = doc["seed"], notes or doc.get("notes", "")
        choices, policy, policy_param = list(doc["choices"]), doc["policies"], doc.get("policy_params") or []
        seat, spent = doc["seat"], float(doc.get("seconds", 0.0))
    else:
        seat = 1 if seat is None else seat
        spec, n_players, seats, user = setup(game, players, seat, policy, policy_param, set_, level)
        if folder is None:
            folder = runs.new_run_dir(Path("runs"), f"{spec.name}-play")
        elif folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise BalanceError(f"--out: {folder} is not an empty folder nor an unfinished game of balance play; "
                               "allowed: a new folder, or the folder of an unfinished game to go on with it")
        choices, spent = [], 0.0
        policy, policy_param = list(policy or ["greedy"]), list(policy_param or [])
    data = spec.load_data(dict(user))
    human = seat - 1
    expert = _hint_policy(spec, resolve_policy)
    table = view_for(spec, data, n_players, human)
    _warm_up(spec, seats, human)
    g = Game(spec, data, n_players, human, seats, seed, choices)
    doc = {"game": spec.name, "players": n_players, "seat": seat, "seed": seed, "settings": _jsonable(user),
           "policies": policy, "policy_params": policy_param, "notes": notes, "choices": g.choices,
           "finished": False, "seconds": spent}
    bots = ", ".join(sorted({s.name for i, s in enumerate(seats) if i != human})) or "none"
    say(f"{spec.title}: {n_players} player(s), you are {table.seat_name(human)}; the others play {bots}. "
        f"Seed {seed}. Type help for the commands.", style="bold")
    started = time.perf_counter()
    try:
        try:
            _loop(table, g, expert, bool(choices))
        except KeyboardInterrupt:  # Ctrl-C (or SIGTERM) while the bots play: kept as at the prompt
            raise Quit("interrupted") from None
    except Quit as why:
        _keep(g, table, doc, folder, spent + time.perf_counter() - started)
        say("")
        say(f"Stopped ({why}). The game so far is kept in {folder}: go on with "
            f"balance play --out {folder}", style="bold")
        return
    except BalanceError:
        raise
    except Exception as exc:  # noqa: BLE001  a bug of ours: keep the game, say where, no traceback on the screen
        import traceback

        import typer

        from .app import err

        detail = traceback.format_exc()
        try:
            _keep(g, table, doc, folder, spent + time.perf_counter() - started)
            (folder / "error.txt").write_text(detail, encoding="utf-8")
            where = f"; the game so far is kept in {folder} (details in {folder / 'error.txt'}): go on with balance play --out {folder}"
        except Exception:  # noqa: BLE001
            where = ""
        err.print(f"error: balance play met an internal error ({type(exc).__name__}: {exc}){where}", markup=False,
                  highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    doc["seconds"] = spent + time.perf_counter() - started
    _finish(spec, g, table, doc, folder, user, seats, human, notes)


def _loop(table, g: Game, expert, resumed: bool) -> None:
    """Play until the game is over; raises Quit when the person stops."""
    g.advance()
    shown = 0 if not resumed else int(g.trace[0])
    if resumed:
        say(f"(resumed after your {len(g.choices)} decision(s))")
    while True:
        shown = _narrate(table, g, shown)
        if g.over:
            return
        _show_board(table, g)
        while True:
            line = ask(table.prompt(g)).strip().lower()
            if line in ("", "board", "b"):
                _show_board(table, g)
                continue
            if line in ("help", "h", "?"):
                say(HELP_TEXT)
                continue
            if line in ("quit", "q", "exit"):
                raise Quit("quit")
            if line == "log":
                for text in table.narrate(g.events, everything=False):
                    say(text)
                continue
            if line == "hint":
                _hint(table, g, expert)
                continue
            if line == "cards":
                for text in table.card_list():
                    say(text)
                continue
            if line == "undo":
                if not g.choices:
                    say("Nothing to undo: you have made no decision yet.")
                    continue
                g.undo()
                shown = g.marks[-1] if g.marks else 0
                say("Undone: your last decision is taken back. The game since your decision before it:")
                shown = _narrate(table, g, shown)
                _show_board(table, g)
                continue
            if line.isdigit():
                k = int(line)
                if 1 <= k <= g.n:
                    g.choose(k - 1)
                    g.advance()
                    break
                say(f"{k} is not one of the options; allowed: 1..{g.n} (or help).")
                continue
            say(f"'{line[:20]}' is not a command; allowed: a number 1..{g.n}, hint, undo, board, cards, log, help, quit.")


def _keep(g: Game, table, doc: dict, folder: Path, seconds: float) -> None:
    """The unfinished game in its folder: play.json (resume) and what the seat saw."""
    doc["seconds"] = seconds
    write_play_file(folder, doc)
    (folder / "transcript.txt").write_text("\n".join(table.narrate(g.events, everything=False)) + "\n",
                                           encoding="utf-8")


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(_value(x) for x in v)
    return str(v)


def _jsonable(user: dict) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in user.items()}


def _narrate(table, g: Game, shown: int) -> int:
    """Print the events since trace position `shown` (as the seat may see them); the new position."""
    from balance.simcore.trace import EVENT_WIDTH

    now = int(g.trace[0])
    if now > shown:
        rows = g.trace[1 + shown: 1 + now].reshape(-1, EVENT_WIDTH)
        for text in table.narrate(rows, everything=False):
            say(text)
    return now


def _show_board(table, g: Game) -> None:
    say("")
    for line in table.board(g.state):
        say(line)
    say("Your options:", style="bold")
    for i in range(g.n):
        say(f"  {i + 1:>2}. {table.option(g.state, int(g.options[i]))}")


def _hint_policy(spec, resolve_policy):
    pol = spec.policy("expert")
    if pol is not None and not pol.refused:
        return resolve_policy(spec, "expert")
    return resolve_policy(spec, "greedy")


_HINT_READY: set = set()


def _hint(table, g: Game, expert) -> None:
    if expert.name not in _HINT_READY:  # a first compile of the expert's loop on this machine is said, and done in children
        from balance.simcore.batch import Engine

        from .app import _first_compile

        _first_compile(g.spec, [expert], Engine(g.spec, [expert]))
        _HINT_READY.add(expert.name)
    say(f"(asking {expert.name}: it searches from what you can see; this takes a few seconds)")
    j, chance, played, name = g.hint(expert)
    words = table.option(g.state, int(g.options[j]))
    if chance is None:
        say(f"{name} would play {j + 1}. {words}.")
        return
    lo, hi = _wilson(chance, played)
    say(f"{name} would play {j + 1}. {words}. Your win chance after it: about {100 * chance:.0f}% "
        f"(95% interval {100 * lo:.0f}-{100 * hi:.0f}%, from {played} games played on from here with the hidden "
        f"cards redrawn and every seat playing greedy).")


def _wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return max(0.0, c - h), min(1.0, c + h)


def _warm_up(spec, seats, human: int) -> None:
    """Compile (or load) what the game needs before it starts: the replay loop and the batch loop with a recorded
    seat, so the save at the end does not wait (said when it is a first compile on this machine)."""
    from dataclasses import replace

    from balance.simcore.batch import Engine
    from balance.simcore.recorded import NAME, RECORDED, params_of

    from .app import _first_compile

    rec = list(seats)
    rec[human] = replace(seats[human], name=NAME, kind=RECORDED, params=params_of([]))
    engine = Engine(spec, rec)
    _first_compile(spec, rec, engine, traced=True)  # the check against the runner at the end
    _first_compile(spec, rec, engine, say=False)  # the one-game run folder


def _finish(spec, g: Game, table, doc: dict, folder: Path, user: dict, seats, human: int, notes: str) -> None:
    """The game is over: show the end, check it against the compiled runner, save the run folder and the log row."""
    from dataclasses import replace

    from balance.analysis import runs
    from balance.simcore.batch import Engine
    from balance.simcore.recorded import NAME, RECORDED, params_of

    from .app import _command_line
    from .running import run_and_report

    game_row, seat_rows = g.result()
    reason = spec.all_end_reasons[int(game_row[0])]
    winners = [s for s in range(g.players) if seat_rows[s, 0] > 0.5]
    say("")
    for line in table.board(g.state, final=True):
        say(line)
    who = ", ".join(table.seat_name(s) for s in winners) if winners else "nobody"
    mine = human in winners
    say(f"Game over ({reason}): {who} won." + (" You win!" if mine else " You did not win."), style="bold")
    rec = list(seats)
    rec[human] = replace(seats[human], name=NAME, kind=RECORDED, params=params_of(g.choices))
    engine = Engine(spec, rec)
    events, row2, seats2 = engine.replay(g.data.tables, g.players, g.seed, 0)
    same = np.array_equal(events, g.events) and np.array_equal(row2, game_row) and np.array_equal(seats2, seat_rows)
    if not same:
        say("WARNING: the compiled runner, replaying your decisions, did not reach the same game; the folder is "
            "saved but its replay differs from what you played (please report this).", style="bold red")
    doc["finished"] = True
    doc["same_as_runner"] = bool(same)
    run_dir = folder / "run"
    write_play_file(folder, doc)
    (folder / "transcript.txt").write_text("\n".join(table.narrate(g.events, everything=True)) + "\n",
                                           encoding="utf-8")
    config = runs.make_config(spec, user, g.players, rec, g.seed, 1, 1)
    run_and_report(spec, config, run_dir, 1, _command_line(), kind="play", quiet=True)
    turns = _column(spec, game_row, "turns")
    row = {"players": g.players, "winners": ";".join(str(s + 1) for s in winners), "turns": turns,
           "minutes": _minutes(doc["seconds"]), "end": reason, "settings": _settings_text(user),
           "cards": str(user.get("cards") or ""), "level": str(user.get("level") or g.data.params.get("level") or "")
           if spec.param("level") is not None else "",
           "date": _dt.date.today().isoformat(), "notes": notes, "game": spec.name, "seat": human + 1,
           "opponents": ";".join(s.name for i, s in enumerate(seats) if i != human), "seed": g.seed,
           "folder": str(run_dir)}
    log = folder.parent / LOG_FILE
    append_log(log, row)
    say(f"Saved: {run_dir} (replay it with: balance replay {run_dir}); a row added to {log}.")


def _minutes(seconds: float) -> str:
    """Minutes at the table, as the log takes them (a number above 0); empty for a game too quick to time
    (played from a script)."""
    m = seconds / 60
    return f"{m:.2f}" if m >= 0.01 else ""


def _column(spec, game_row, name: str) -> str:
    names = spec.game_column_names
    col = name if name in names else spec.length_column
    return str(int(game_row[names.index(col)]))


__all__ = ["run_session", "PLAY_FILE"]


# the command lives here, beside the session it runs (cli/play.py holds the game and its files, and imports
# nothing of this module)
from typing import Annotated, Optional  # noqa: E402

import typer  # noqa: E402

from .app import SharedOptions, command, options  # noqa: E402


@command(name="play")
@options("game players seat policy policy_param set_ seed level out_dir notes")
def play(
    shared: SharedOptions,
    seat: Annotated[Optional[int], typer.Option("--seat", metavar="K", help="your seat, 1..players (1 moves first; "
                                                "default 1)")] = None,
    notes: Annotated[str, typer.Option("--notes", metavar="TEXT", help="a note for the playtest log's row")] = "",
):
    """Play a game yourself against the bots, in the terminal. Your seat sees only what it may see. The game's
    folder (--out; default a new folder under runs/) keeps an unfinished game (quit, end of input, Ctrl-C: give
    the same --out to go on with it); a finished one is saved in it as a run folder `balance replay` reads
    (FOLDER/run), and as one row of playtests.csv beside the folder (runs/playtests.csv by default)."""
    run_session(game=shared.game, players=shared.players, seat=seat, policy=shared.policy,
                policy_param=shared.policy_param, set_=shared.set_, seed=shared.seed, level=shared.level,
                out_dir=shared.out_dir, notes=notes)
