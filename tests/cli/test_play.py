"""`balance play` end to end: in a real terminal (tmux: send-keys, capture-pane) and with piped input.

Every turn-based game and mode is played through to its end (always option 1, after a wrong key, an
illegal option number and an undo), saved, and its folder replayed by `balance replay`: the replay's
transcript must be the game's own (transcript.txt, the events the person's game produced), the
compiled runner must have reached the same game (play.json's same_as_runner), and the playtest log
must hold its row. Quit, Ctrl-C and end of input keep the game; the same --out goes on with it. No capture
holds a traceback.
"""
from __future__ import annotations

import csv
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = "import sys; sys.path.insert(0, {root!r}); from balance.cli.app import main; main()".format(root=str(ROOT))
BALANCE = [sys.executable, "-c", LAUNCH]
PROMPT = "Your move ("


def run(*args, stdin: str = "", timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(BALANCE + [str(a) for a in args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def ones(k: int = 4000) -> str:
    return "1\n" * k


def check_saved(game_dir: Path, players: int) -> None:
    """The finished game's folder replays to the game's own transcript, and the log holds its row."""
    doc = json.loads((game_dir / "play.json").read_text())
    assert doc["finished"] is True and doc["same_as_runner"] is True
    rep = run("replay", game_dir / "run")
    assert rep.returncode == 0, rep.stderr
    lines = rep.stdout.splitlines()
    assert lines[1:-1] == (game_dir / "transcript.txt").read_text().splitlines()
    end = lines[-1]  # "End: REASON; decisions N; winner(s): seat 2." or "...; nobody won."
    assert end.startswith("End: ")
    rows = list(csv.DictReader(open(game_dir.parent / "playtests.csv", newline="")))
    row = next(r for r in rows if r["folder"] == str(game_dir / "run"))
    assert int(row["players"]) == players
    assert row["minutes"] == "" or float(row["minutes"]) > 0  # balance playtests takes a number above 0, or none
    assert row["end"] == end.split(";")[0].removeprefix("End: ")
    if "nobody won" in end:
        assert row["winners"] == ""
    else:
        winners = end.split("seat ")[1].rstrip(".").split(", ")
        assert row["winners"] == ";".join(winners)
    assert "Traceback" not in rep.stdout + rep.stderr


def check_hidden(text: str, game: str, human: int) -> None:
    """The seat's screen names no card another player drew or was dealt (the transcript does: replay shows all)."""
    import re

    if game == "youre-fired":
        for m in re.finditer(r"Player (\d) draws ([^\n]*)", text):
            assert int(m.group(1)) == human or m.group(2) == "a card.", m.group(0)
        assert "consultant(s) dealt face down" in text and not re.search(r"with consultant\(s\) [A-Z]", text)
    if game == "four-day-weekend":
        for m in re.finditer(r"Slacker (\d) (draws|is dealt) ([^\n]*)", text):
            assert int(m.group(1)) == human or m.group(3) == "a card from the Draw pile.", m.group(0)


# ------------------------------------------------------------------ a real terminal
class Tmux:
    """One `balance` command in a tmux pane of its own server (never the user's)."""

    def __init__(self, tmp: Path, args: list):
        self.sock = f"balance-play-test-{os.getpid()}-{time.monotonic_ns()}"
        conf = tmp / "tmux.conf"
        conf.write_text("set -g history-limit 100000\nset -g remain-on-exit on\n")
        cmd = " ".join(shlex.quote(str(a)) for a in BALANCE + list(args))
        self.tmux("-f", str(conf), "new-session", "-d", "-s", "play", "-x", "200", "-y", "50", "-c", str(ROOT), cmd)

    def tmux(self, *args) -> str:
        return subprocess.run(["tmux", "-L", self.sock, *args], capture_output=True, text=True, check=True).stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "play", *keys)

    def line(self, text: str) -> None:
        self.tmux("send-keys", "-t", "play", "-l", text)
        self.keys("Enter")

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-t", "play", "-S", "-100000")

    def dead(self) -> bool:
        return self.tmux("display-message", "-p", "-t", "play", "#{pane_dead}").strip() == "1"

    def wait(self, ready, timeout: float = 600) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            text = self.screen()
            if ready(text):
                return text
            if self.dead():
                return self.screen()
            time.sleep(0.2)
        raise AssertionError("timed out; the screen:\n" + self.screen()[-3000:])

    def prompts(self) -> int:
        return self.screen().count(PROMPT)

    def answer(self, text: str, timeout: float = 600) -> str:
        """Type a line at the prompt; wait for the next prompt or the end of the command."""
        before = self.prompts()
        self.line(text)
        return self.wait(lambda s: s.count(PROMPT) > before or "Saved:" in s or "Stopped (" in s, timeout)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], capture_output=True)


@pytest.fixture
def tmux_session(tmp_path):
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    made = []

    def start(*args):
        t = Tmux(tmp_path, list(args))
        made.append(t)
        return t

    yield start
    for t in made:
        t.close()


def test_duel_in_a_terminal_wrong_key_illegal_option_undo_hint_then_to_the_end(tmux_session, tmp_path):
    out = tmp_path / "plays" / "game"
    t = tmux_session("play", "--game", "youre-fired", "--seed", "3", "--out", out)
    first = t.wait(lambda s: PROMPT in s)
    assert "Your hand:" in first and "Player 2: 3 card(s) in hand" in first
    assert "Player 2 draws a card." in first  # another seat's draw is a count, never the card
    screen = t.answer("xyz")
    assert "'xyz' is not a command; allowed: a number 1..4" in screen
    screen = t.answer("99")
    assert "99 is not one of the options; allowed: 1..4" in screen
    screen = t.answer("cards")
    assert "Secretary" in screen and "Name an employee. If it is in target opponent's hand, fire it." in screen
    screen = t.answer("hint")
    assert "expert would play" in screen and "win chance" in screen
    t.answer("2")
    screen = t.answer("undo")
    assert "Undone: your last decision is taken back" in screen
    assert screen.rsplit("Undone", 1)[1].count("1. Put Bean Counter in the break room") == 1  # back at decision 1
    for _ in range(200):
        screen = t.answer("1")
        if "Saved:" in screen:
            break
    assert "Saved:" in screen and "Game over (" in screen
    assert "Traceback" not in screen
    check_hidden(screen, "youre-fired", 1)
    game_dir = out
    check_saved(game_dir, 2)
    again = run("play", "--out", game_dir)  # a finished game is not played on: refused in one line
    assert again.returncode == 2 and "holds a finished game" in again.stderr
    assert f"balance replay {game_dir / 'run'}" in again.stderr


def test_overtime_ctrl_c_then_quit_then_resume_to_the_end(tmux_session, tmp_path):
    out = tmp_path / "plays" / "game"
    t = tmux_session("play", "--game", "overtime", "--seed", "2", "--out", out)
    t.wait(lambda s: PROMPT in s)
    t.answer("1")
    t.answer("1")
    t.keys("C-c")
    screen = t.wait(lambda s: "Stopped (" in s)
    game_dir = out
    assert "Stopped (Ctrl-C)" in screen and f"balance play --out {game_dir}" in screen and "Traceback" not in screen
    kept = json.loads((game_dir / "play.json").read_text())
    assert kept["finished"] is False and len(kept["choices"]) == 2
    assert not (game_dir / "run").exists()
    rep = run("replay", game_dir)  # an unfinished game is not a run folder: refused in one line
    assert rep.returncode == 2 and "Traceback" not in rep.stderr
    t2 = tmux_session("play", "--out", game_dir)
    screen = t2.wait(lambda s: PROMPT in s)
    assert "resumed after your 2 decision(s)" in screen
    screen = t2.answer("quit")
    assert "Stopped (quit)" in screen
    assert len(json.loads((game_dir / "play.json").read_text())["choices"]) == 2
    done = run("play", "--out", game_dir, stdin=ones())
    assert done.returncode == 0, done.stderr
    assert "Saved:" in done.stdout and "Traceback" not in done.stdout + done.stderr
    check_saved(game_dir, 4)


# ------------------------------------------------------------------ every other mode, with piped input
MODES = [
    ("four-day-weekend", ["-p", "3", "--seat", "2"], 3),
    ("sickdays-solo", ["--level", "7"], 1),
    ("sickdays-solo", ["-p", "2", "--seat", "2", "--level", "3"], 2),
    ("youre-fired", ["-p", "3", "--seat", "3"], 3),
    ("youre-fired", ["-p", "4", "--set", "teams=true", "--seat", "2"], 4),
]


@pytest.mark.parametrize("game,args,players", MODES, ids=[f"{m[0]}{''.join(m[1])}" for m in MODES])
def test_every_mode_played_through_with_piped_input(tmp_path, game, args, players):
    out = tmp_path / "plays" / "game"
    done = run("play", "--game", game, *args, "--seed", "5", "--out", out, stdin="zz\n0\nundo\n" + ones())
    assert done.returncode == 0, done.stderr
    text = done.stdout + done.stderr
    assert "Traceback" not in text
    assert "'zz' is not a command" in text and "0 is not one of the options" in text
    assert "Nothing to undo" in text or "Undone" in text
    assert "Saved:" in done.stdout
    seat = int(args[args.index("--seat") + 1]) if "--seat" in args else 1
    check_hidden(done.stdout, game, seat)
    check_saved(out, players)


def test_end_of_input_keeps_the_game(tmp_path):
    out = tmp_path / "plays" / "game"
    done = run("play", "--game", "youre-fired", "--seed", "4", "--out", out, stdin="1\n")
    assert done.returncode == 0, done.stderr
    assert "Stopped (end of input)" in done.stdout and "Traceback" not in done.stdout + done.stderr
    kept = json.loads((out / "play.json").read_text())
    assert kept["finished"] is False and len(kept["choices"]) == 1
    assert not (out.parent / "playtests.csv").exists()  # an unfinished game is not a playtest


def test_out_of_another_folder_is_refused(tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    done = run("play", "--game", "youre-fired", "--out", other)
    assert done.returncode == 2 and "is not an empty folder nor an unfinished game" in done.stderr
    assert sorted(p.name for p in other.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("args,words", [
    (["--game", "sickdays-party"], "real-time game"),
    (["--game", "overtime", "--seat", "7"], "--seat: 7 is not a seat"),
    (["--game", "youre-fired", "--policy", "greedy,random,greedy"], "--policy: 3 policies given"),
    ([], "--game: give the game to play"),
])
def test_refusals_are_one_line(tmp_path, args, words):
    done = run("play", *args, "--out", tmp_path / "plays")
    assert done.returncode == 2
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "plays").exists()


TERMINAL_MODES = [
    ("four-day-weekend", ["-p", "3", "--seat", "2"], 3),
    ("sickdays-solo", ["--level", "7"], 1),
    ("sickdays-solo", ["-p", "2", "--seat", "2", "--level", "3"], 2),
    ("youre-fired", ["-p", "4", "--set", "teams=true", "--seat", "2"], 4),
]


@pytest.mark.parametrize("game,args,players", TERMINAL_MODES, ids=[f"{m[0]}{''.join(m[1])}" for m in TERMINAL_MODES])
def test_every_other_mode_in_a_terminal_then_finished(tmux_session, tmp_path, game, args, players):
    """Each game in a real terminal: a wrong key, an illegal option, a move, undo, quit; then the same
    game finished (resumed with piped input) and saved, replayable."""
    out = tmp_path / "plays" / "game"
    t = tmux_session("play", "--game", game, *args, "--seed", "6", "--out", out)
    t.wait(lambda s: PROMPT in s)
    assert "'zz' is not a command" in t.answer("zz")
    assert "0 is not one of the options" in t.answer("0")
    t.answer("1")
    screen = t.answer("undo")
    assert "Undone" in screen or "Nothing to undo" in screen
    screen = t.answer("quit")
    assert "Stopped (quit)" in screen and "Traceback" not in screen
    done = run("play", "--out", out, stdin=ones())
    assert done.returncode == 0, done.stderr
    assert "Saved:" in done.stdout and "Traceback" not in done.stdout + done.stderr
    check_saved(out, players)
