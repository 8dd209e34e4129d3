"""The README never shows a command that fails (issue 18 item 5).

Every `balance ...` command in README.md's code blocks is extracted and run in
this process, in the README's order, in one scratch folder (so `runs/x` written
by one command is there for the next), at a small size: `-n` becomes a few
dozen games (and is added where the command would play its default million),
`--campaigns` a few campaigns. Each must exit 0. The engines are the real
games' (compiled once per machine and cached for the whole suite); what is
changed or left out, and why, is listed in ADJUST and SKIP below.
"""
from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from tests.cli.runkit import balance

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GAMES = 24  # -n for every command that plays games
CAMPAIGNS = 3
PLAYS = {"simulate", "sweep", "tune"}  # play a default -n of games unless told
SKIP = {"--scheduler": "needs a running Dask scheduler (the same run without it is in the tour)"}
# a command written with placeholders in the README -> a concrete one
ADJUST = {"bench": ["bench", "--game", "sickdays-solo", "--quick", "-n", "200", "--repeat", "1", "--no-cold",
                    "--nojit-games", "0", "--json", "bench.json"]}


def readme_commands() -> list[str]:
    """The README's indented command lines starting with `balance` (or `... && balance`), continuations joined."""
    lines = README.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("    ") and not line.startswith("     ") or line.startswith("    balance"):
            text = line.strip()
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1].rstrip() + " " + lines[i].strip()
            m = re.search(r"(?:^|&&\s*)(balance\s.*)$", text)
            if m:
                out.append(m.group(1))
            elif text.startswith("cp ") and "cards.toml" in text:
                out.append(text)
        i += 1
    return out


def small(argv: list[str]) -> list[str]:
    """The command at a small size."""
    cmd = argv[0]
    if cmd in ADJUST:
        return list(ADJUST[cmd])
    argv = list(argv)
    for flag, size in (("-n", GAMES), ("--games", GAMES), ("--campaigns", CAMPAIGNS)):
        if flag in argv:
            argv[argv.index(flag) + 1] = str(size)
    if cmd == "replay" and "--game" not in argv and "--index" in argv:  # a game of the (small) run folder
        i = argv.index("--index") + 1
        argv[i] = str(min(int(argv[i]), GAMES - 1))
    playing = cmd in PLAYS or (cmd == "compare" and ("--game" in argv or "-g" in argv))
    if playing and "-n" not in argv and "--games" not in argv:
        argv += ["-n", str(GAMES)]
    if cmd == "campaign" and "--campaigns" not in argv:
        argv += ["--campaigns", str(CAMPAIGNS)]
    if cmd in ("simulate", "sweep", "compare") and "--quiet" not in argv:
        argv.append("--quiet")
    return argv


COMMANDS = readme_commands()


def test_the_readme_shows_the_tour():
    names = {shlex.split(c, comments=True)[1] for c in COMMANDS if c.startswith("balance")}
    assert {"games", "policies", "simulate", "report", "replay", "campaign", "sweep", "compare", "tune",
            "bench"} <= names
    assert len(COMMANDS) >= 20


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tour")
    (folder / "mypolicy.py").write_text(policy_file())
    return folder


def policy_file() -> str:
    """The README's own example policy (its ```python block), so its command runs what it shows."""
    m = re.search(r"```python\n(# mypolicy.py\n.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    assert m, "the README's mypolicy.py example"
    return m.group(1)


@pytest.fixture
def fast_tune(monkeypatch):
    """tune's skill-sensitivity rows without the lookahead row (it compiles the search policy
    too, minutes of compile for one row; the weaker row runs the same code path)."""
    from balance.analysis import tune

    real = tune.skill_policies

    def weaker_only(spec, policies):
        return {k: v for k, v in real(spec, policies).items() if not v[1]}

    monkeypatch.setattr(tune, "skill_policies", weaker_only)


@pytest.mark.parametrize("line", COMMANDS, ids=[f"{i:02d}" for i in range(len(COMMANDS))])
def test_readme_command_runs(line, scratch, monkeypatch, fast_tune):
    monkeypatch.chdir(scratch)
    if line.startswith("cp "):
        src, dst = shlex.split(line, comments=True)[1:3]
        shutil.copy(ROOT / src, scratch / dst)
        return
    argv = shlex.split(line, comments=True)[1:]
    for flag, why in SKIP.items():
        if flag in argv:
            pytest.skip(why)
    if argv[0] == "compare" and not any(a.startswith("-") for a in argv[1:3]):  # two run folders it reads
        for i, folder in enumerate(argv[1:3]):
            if not (scratch / folder).exists():
                made = balance("simulate", "--game", "overtime", "-n", GAMES, "--seed", 5, "--set",
                               f"rounds={8 - i}", "--out", folder, "--quiet")
                assert made.exit_code == 0, made.output
    r = balance(*small(argv))
    assert r.exit_code == 0, f"README: {line}\nran: balance {' '.join(small(argv))}\n{r.output}\n{r.stderr}"
