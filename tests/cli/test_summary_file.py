"""summary.json as a typed result file (analysis/summary_result.py, schema 1): written as its model and
read back equal; an older file (no schema_version: `kind` was the folder's kind), a newer one, a damaged
one, one of another kind and one with a field of the wrong type are refused with one line naming the file,
the field and how to make it again (`balance report FOLDER`), by `read` and through the command line
(`balance export --table summary`: exit 2, one line, no traceback); `balance report FOLDER` makes it
again from the folder's games."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from balance.analysis.summary_result import SummaryResult
from balance.simcore import registry
from balance.simcore.errors import BalanceError
from tests.cli.runkit import balance, one_line_error, read_refused


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    """A played run and a played sweep of the toy game (race to 21)."""
    root = tmp_path_factory.mktemp("summaries")
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(registry.GAMES, "race21", "toygame")
        r = balance("simulate", "--game", "race21", "-n", 300, "--skill-check", 0, "--out", root / "run", "--quiet")
        assert r.exit_code == 0, r.output
        r = balance("sweep", "--game", "race21", "--vary", "target=20..22", "-n", 200, "--skill-check", 0,
                    "--out", root / "sweep", "--quiet")
        assert r.exit_code == 0, r.output
    return {"run": root / "run", "sweep": root / "sweep"}


@pytest.fixture
def race21(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "race21", "toygame")


@pytest.mark.parametrize("name", ["run", "sweep"])
def test_summary_json_reads_back_equal_to_what_was_written(folders, tmp_path, name):
    res = SummaryResult.read(folders[name])
    data = json.loads((folders[name] / "summary.json").read_text())
    assert data["kind"] == "summary" and data["schema_version"] == 1 and data["folder_kind"] == name
    again = SummaryResult.read(res.write(tmp_path))
    assert again == res
    assert (tmp_path / "summary.json").read_text() == (folders[name] / "summary.json").read_text()
    # a run has its figures at the top; a sweep's are per point, none pooled
    assert (res.win_rate is None) == (name == "sweep") and res.sweep == (name == "sweep")


def test_the_fair_share_is_written_once_and_read_as_written(folders):
    res = SummaryResult.read(folders["run"])
    assert res.fair_share == pytest.approx(sum(r.value for r in res.win_rate_by_seat) / res.players)
    assert "seat_fair_share" not in (folders["run"] / "summary.json").read_text()


def _damaged(src: Path, dest: Path, how: str) -> Path:
    shutil.copytree(src, dest)
    path = dest / "summary.json"
    data = json.loads(path.read_text())
    if how == "old":  # as every summary.json before schema 1: `kind` the folder's kind, no schema_version
        data.pop("schema_version")
        data["kind"] = data.pop("folder_kind")
    elif how == "newer":
        data["schema_version"] = SummaryResult.SCHEMA_VERSION + 1
    elif how == "another kind":
        data["kind"] = "ladder"
    elif how == "wrong type":
        data["win_rate_by_seat"][0]["wins"] = "a lot"
    elif how == "unknown key":
        data["seat_gap"]["verdcit"] = "typo"
    text = json.dumps(data)
    if how == "truncated":
        text = text[: len(text) // 2]
    path.write_text(text)
    return dest


CASES = {"old": ("field 'schema_version': missing", "older balance"),
         "newer": ("field 'schema_version': 2", "newer balance; upgrade balance"),
         "truncated": ("damaged (not JSON", "truncated"),
         "another kind": ("field 'kind': 'ladder'", "not a summary.json"),
         "wrong type": ("field 'win_rate_by_seat.0.wins'", "valid integer"),
         "unknown key": ("field 'seat_gap.verdcit'", "Extra inputs are not permitted")}


@pytest.mark.parametrize("how", list(CASES))
def test_an_old_or_damaged_summary_is_refused_in_one_line(folders, tmp_path, race21, how):
    folder = _damaged(folders["run"], tmp_path / how.replace(" ", "-"), how)
    line = read_refused(SummaryResult, folder, CASES[how])
    assert f"run `balance report {folder}` to make it again from the folder's games" in line
    # through the command line: exit 2, that one line, nothing written
    line = one_line_error(balance("export", folder, tmp_path / "out.csv", "--table", "summary"))
    assert str(folder / "summary.json") in line and CASES[how][0] in line
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("how", ["old", "truncated", "wrong type"])
def test_balance_report_makes_an_old_or_damaged_summary_again(folders, tmp_path, race21, how):
    folder = _damaged(folders["run"], tmp_path / how.replace(" ", "-"), how)
    assert balance("report", folder).exit_code == 0  # the report recomputes summary.json from the games
    again, first = SummaryResult.read(folder), SummaryResult.read(folders["run"])
    assert again.model_copy(update={"generated": ""}) == first.model_copy(update={"generated": ""})
    assert (folder / "report.html").is_file()


def test_the_python_api_reads_the_summary_through_its_schema(folders, tmp_path):
    import balance as api

    run = api.load(folders["run"])
    assert run.typed_summary == SummaryResult.read(folders["run"]) == run.typed  # a plain run's result: its summary
    assert run.summary == json.loads((folders["run"] / "summary.json").read_text())  # the dict, as written
    old = _damaged(folders["run"], tmp_path / "old", "old")
    with pytest.raises(BalanceError, match="field 'schema_version'"):
        api.load(old).summary
