"""The Python API (balance/__init__.py over balance/cli/api.py, docs/api.md): every command is a function
with the command line's options, defaults and messages, run by the command's own code."""
import inspect
import subprocess
import sys

import pandas as pd
import polars as pl
import pytest

import balance
from balance.cli import api
from balance.cli.app import COMMANDS
from balance.simcore import registry


@pytest.fixture(autouse=True)
def toy_game(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "race21", "toygame")


def test_simulate_then_read_every_table_by_name(tmp_path):
    run = balance.simulate("race21", n=3000, seed=4, players=2, policy=["greedy", "random"],
                           set={"target": 15}, out=tmp_path / "run", chunk_size=1000, threads=1, quiet=True)
    s = run.summary
    assert s["n_games"] == 3000 and s["params"]["target"] == 15
    assert run.games.height == 3000 and run.seats.height == 6000
    assert set(run.seats["policy"].unique()) == {"greedy", "random"}
    assert isinstance(run.table("cards", pandas=True), pd.DataFrame)
    again = balance.load(tmp_path / "run")
    assert again.games.equals(run.games)
    assert run.report.is_file()
    # the same games as the command line's, option for option (text forms are the CLI's own)
    same = balance.simulate("race21", n=3000, seed=4, players=2, policy="greedy,random", set_=["target=15"],
                            out_dir=tmp_path / "run2", chunk_size=1000, quiet=True)
    assert same.games.equals(run.games)


def test_sweep_compare_replay_export_report(tmp_path):
    sw = balance.sweep("race21", vary={"target": [10, 20]}, n=500, out=tmp_path / "sweep", quiet=True)
    assert [v["name"] for v in sw.summary["variants"]] == ["target=10", "target=20"]
    cmp = balance.compare(game="race21", a_set={"target": 10}, b_set={"target": 20}, n=500, out=tmp_path / "cmp",
                          quiet=True)
    assert isinstance(cmp, balance.Comparison)
    assert cmp.result["paired"] and cmp.run.games.filter(pl.col("variant") == "A").height == 500
    lines = balance.replay(tmp_path / "sweep", index=3, variant=1)
    assert lines and all(isinstance(x, str) for x in lines)
    target = balance.export(tmp_path / "sweep", tmp_path / "games.csv")
    assert target.is_file() and pl.read_csv(target).height == 1000
    assert balance.report(tmp_path / "sweep") == tmp_path / "sweep" / "report.html"


def test_impact_and_tune_return_their_folders_results(tmp_path):
    imp = balance.impact("race21", rules="target", n=200, out=tmp_path / "imp", skill_check=0, quiet=True)
    assert imp.result["rows"] and (tmp_path / "imp" / "impact.json").is_file()
    tun = balance.tune("race21", vary={"target": [20, 21]}, target=["win_rate=0.4..0.6"], n=20,
                       out=tmp_path / "tune", quiet=True)
    assert tun.result["recommended"] and (tmp_path / "tune" / "report.html").is_file()


def test_every_command_is_a_function_with_the_command_lines_options_and_defaults():
    for name in balance.COMMANDS:
        fn = getattr(balance, name)
        own = inspect.signature(COMMANDS[name].__wrapped__, eval_str=True).parameters
        shown = inspect.signature(fn).parameters
        hidden = {p.name for p in api.parameters(name) if getattr(p, "hidden", False)}
        assert set(shown) == set(own) - hidden, name
        for pname, p in shown.items():
            assert p.default == own[pname].default, (name, pname)
    assert inspect.signature(balance.simulate).parameters["n"].default == 1_000_000  # as `balance simulate`


BAD = [  # (options, what the message says), each refused before anything is written
    ({"n": 10.5}, "-n' / '--games'"),
    ({"n": 0}, "-n' / '--games'"),
    ({"n": -5}, "-n' / '--games'"),
    ({"n": True}, "-n' / '--games'"),
    ({"seed": 2**70}, "--seed: 1180591620717411303424 is not allowed"),
    ({"seed": -1}, "--seed: -1 is not allowed"),
    ({"chunk_size": -3}, "--chunk-size"),
    ({"precision": -1}, "--precision"),
    ({"threads": "x"}, "--threads"),
    ({"set": {"target": 999}}, "--set: target=999 is not allowed"),
    ({"set": ["target"]}, "--set: 'target' is not NAME=VALUE"),
    ({"policy": "nobody"}, "--policy: unknown policy 'nobody'"),
    ({"policy_param": {"epsilon": "abc"}}, "--policy-param: epsilon='abc' is not a finite number"),
    ({"bogus": 1}, "simulate: no option 'bogus'"),
]


@pytest.mark.parametrize("options,says", BAD, ids=[str(b[0]) for b in BAD])
def test_bad_input_raises_the_command_lines_message_before_anything_is_written(tmp_path, options, says):
    out = tmp_path / "x"
    with pytest.raises(balance.BalanceError) as info:
        balance.simulate("race21", **{"n": 10, **options}, out=out, quiet=True)
    assert says in str(info.value) and "\n" not in str(info.value)
    assert not out.exists()


def test_n_as_text_is_taken_as_the_command_line_takes_it(tmp_path):
    assert balance.simulate("race21", n="100", out=tmp_path / "x", quiet=True).summary["n_games"] == 100


def test_the_run_is_closed_when_the_call_returns(tmp_path):
    balance.simulate("race21", n=200, out=tmp_path / "x", quiet=True)
    # another process may rebuild the report at once (the lock was let go), while this session lives
    code = ("import sys; from balance.simcore import registry; registry.GAMES['race21'] = 'toygame'; "
            "from balance.cli.app import main; sys.argv = ['balance', 'report', sys.argv[1]]; main()")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path / "x")], capture_output=True, text=True,
                       cwd=str(__import__("pathlib").Path(__file__).resolve().parent))  # toygame.py is here
    assert r.returncode == 0, r.stderr
    assert "report:" in r.stdout


def test_tables_and_games_by_name(tmp_path):
    with pytest.raises(balance.BalanceError, match="not a table"):
        balance.Run(tmp_path).table("hands")
    assert "race21" in balance.games() and "greedy" in balance.policies("race21")


def test_the_worked_example_in_docs_api_md_runs(tmp_path, monkeypatch):
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/api.md", "exec"), {})
    assert (tmp_path / "runs" / "api-solo" / "summary.json").is_file()
