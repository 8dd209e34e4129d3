"""The Python API (balance.py, docs/api.md): what a notebook does."""
import pandas as pd
import polars as pl
import pytest

import balance
from simcore import registry


@pytest.fixture(autouse=True)
def toy_game(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "race21", "toygame")


def test_simulate_then_read_every_table_by_name(tmp_path):
    run = balance.simulate("race21", n=3000, seed=4, players=2, policy=["greedy", "random"],
                           params={"target": 15}, out=tmp_path / "run", chunk_size=1000)
    s = run.summary
    assert s["n_games"] == 3000 and s["params"]["target"] == 15
    assert run.games.height == 3000 and run.seats.height == 6000
    assert set(run.seats["policy"].unique()) == {"greedy", "random"}
    assert isinstance(run.table("cards", pandas=True), pd.DataFrame)
    again = balance.load(tmp_path / "run")
    assert again.games.equals(run.games)
    assert run.report.is_file()


def test_sweep_and_compare_are_paired_on_the_same_deals(tmp_path):
    sw = balance.sweep("race21", vary={"target": "10,20"}, n=500, out=tmp_path / "sweep")
    assert [v["name"] for v in sw.summary["variants"]] == ["target=10", "target=20"]
    cmp = balance.compare("race21", a={"target": 10}, b={"target": 20}, n=500, out=tmp_path / "cmp")
    assert cmp.result["paired"] and cmp.run.games.filter(pl.col("variant") == "A").height == 500


def test_bad_input_raises_the_command_lines_message(tmp_path):
    with pytest.raises(balance.BalanceError, match="target"):
        balance.simulate("race21", n=10, params={"target": 999}, out=tmp_path / "x")
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
