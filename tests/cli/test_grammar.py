"""One command-line grammar (issue 18 item 5): walk every command's options by
introspection and check that a shared option has one help text and one
placeholder everywhere, that flags show no value placeholder, that no help text
holds a printf escape ('%%'), and that every command's --help renders."""
from __future__ import annotations

from collections import defaultdict

import pytest
import typer

from balance.cli.app import app
from tests.cli.runkit import balance

SHARED = ("--game", "-n", "--seed", "--set", "--params", "--policy", "--policy-param", "--out", "--threads",
          "--quiet", "--margin", "--level", "--players", "--precision", "--vary", "--check", "--chunk-size")
# (command, option) whose help differs on purpose, and why
DIFFERENT = {("bench", "--policy"): "bench measures each policy at every seat, one row per policy",
             ("ladder", "--level"): "ladder plays several levels on the same deals (4, or 1,4,6,11)"}


def commands():
    group = typer.main.get_command(app)
    return {name: cmd for name, cmd in group.commands.items()}


def options(cmd):
    for p in cmd.params:
        if p.param_type_name == "option" and not p.hidden:
            yield p


def test_every_command_is_walked():
    assert {"games", "policies", "simulate", "sweep", "compare", "tune", "report", "replay", "campaign",
            "bench"} <= set(commands())


def test_a_shared_option_has_one_help_and_one_placeholder():
    helps, metavars = defaultdict(dict), defaultdict(dict)
    for name, cmd in commands().items():
        for p in options(cmd):
            for opt in p.opts:
                if opt in SHARED and (name, opt) not in DIFFERENT:
                    helps[opt][name] = p.help
                    metavars[opt][name] = p.metavar
    assert {"--game", "-n", "--seed", "--set", "--out", "--quiet", "--margin", "--level"} <= set(helps)
    for opt in helps:
        assert len(set(helps[opt].values())) == 1, (opt, helps[opt])
        assert len(set(metavars[opt].values())) == 1, (opt, metavars[opt])
    assert len(helps["--game"]) >= 8 and len(helps["-n"]) >= 5


def test_flags_show_no_placeholder_and_values_show_a_named_one():
    for name, cmd in commands().items():
        for p in options(cmd):
            if p.is_flag:
                assert p.metavar == "", (name, p.opts)  # no <bool>: --quiet true is an error
            else:
                assert p.metavar and p.metavar.upper() == p.metavar and "<" not in p.metavar, (name, p.opts, p.metavar)


def test_no_help_text_holds_a_printf_escape():
    group = typer.main.get_command(app)
    for name, cmd in commands().items():
        for p in cmd.params:
            assert "%%" not in (getattr(p, "help", None) or ""), (name, p.name)
        assert "%%" not in (cmd.help or ""), name
    assert "%%" not in (group.help or "")


@pytest.mark.parametrize("name", sorted(["games", "policies", "simulate", "sweep", "compare", "tune", "report",
                                         "replay", "campaign", "bench"]))
def test_help_renders_clean(name):
    r = balance(name, "--help")
    assert r.exit_code == 0, r.output
    assert "%%" not in r.output and "<bool>" not in r.output and "<list[" not in r.output, r.output


def test_options_that_make_sense_are_everywhere():
    cmds = commands()

    def has(name, opt):
        return any(opt in p.opts for p in options(cmds[name]))

    for opt in ("--level", "--params", "--quiet"):
        assert has("tune", opt), opt
    assert has("compare", "--params") and has("compare", "--precision")
    assert not has("replay", "--run")  # hidden: the folder is an argument, as for report and compare
    assert not has("campaign", "-n") and has("campaign", "--campaigns")


def test_replay_takes_the_folder_as_an_argument_and_the_old_run_option(tmp_path, monkeypatch):
    from balance.simcore import registry

    monkeypatch.setitem(registry.GAMES, "race21", "toygame")
    out = tmp_path / "r"
    made = balance("simulate", "--game", "race21", "-n", 40, "--seed", 3, "--out", out, "--quiet")
    assert made.exit_code == 0, made.output
    balance("replay", out, "--index", 3)  # the traced loop compiles here if it must ("compiling ..." once)
    new = balance("replay", out, "--index", 3)
    old = balance("replay", "--run", out, "--index", 3)
    assert new.exit_code == 0 and old.exit_code == 0, (new.output, old.output)
    assert new.output == old.output
    both = balance("replay", out, "--run", tmp_path / "other", "--index", 3)
    assert both.exit_code == 2


def test_quiet_is_a_flag():
    r = balance("simulate", "--game", "shed", "--quiet", "true", "-n", "5")
    assert r.exit_code == 2  # 'true' is an unexpected argument: a flag takes no value


def test_games_game_shows_one_game_with_its_card_list():
    r = balance("games", "--game", "overtime")
    assert r.exit_code == 0, r.output
    assert "overtime" in r.output and "four-day-weekend" not in r.output
    assert "policies" in r.output and "greedy" in r.output
    assert "card list" in r.output and "reconstruction" in r.output and "data/overtime/cards.toml" in r.output
    solo = balance("games", "--game", "sickdays-solo")
    assert solo.exit_code == 0 and "reconstruction" not in solo.output.split("card list")[-1]
    bad = balance("games", "--game", "nope")
    assert bad.exit_code == 2 and "nope" in bad.stderr
