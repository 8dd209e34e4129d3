"""Typed result files (analysis/results.py): comparison.json and impact.json are written as their
schema's model and read back as it, equal; an older file (no schema_version), a truncated one and
one with a field of the wrong type are refused with one line naming the file, the field and how to
make it again, by `read` and through the command line (`balance report FOLDER`: exit 2, one line,
no traceback)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from balance.analysis.compare_result import ComparisonResult
from balance.analysis.impact_result import ImpactResult
from balance.simcore import registry
from balance.simcore.errors import BalanceError
from tests.cli.runkit import balance, one_line_error


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    """A played comparison and a played impact of the toy game (race to 21)."""
    root = tmp_path_factory.mktemp("results")
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(registry.GAMES, "race21", "toygame")
        r = balance("compare", "--game", "race21", "--b-set", "target=23", "-n", 200, "--out", root / "cmp",
                    "--quiet")
        assert r.exit_code == 0, r.output
        r = balance("impact", "--game", "race21", "--policy", "greedy", "--policy-param", "epsilon=0.2", "-n", 300,
                    "--rules", "target", "--out", root / "imp", "--quiet")
        assert r.exit_code == 0, r.output
    return {"cmp": root / "cmp", "imp": root / "imp"}


@pytest.fixture
def race21(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "race21", "toygame")


@pytest.mark.parametrize("model,name", [(ComparisonResult, "cmp"), (ImpactResult, "imp")])
def test_a_result_file_reads_back_equal_to_what_was_written(folders, tmp_path, model, name):
    res = model.read(folders[name])
    data = json.loads((folders[name] / model.FILE).read_text())
    assert data["kind"] == res.kind and data["schema_version"] == model.SCHEMA_VERSION
    again = model.read(res.write(tmp_path))
    assert again == res
    assert (tmp_path / model.FILE).read_text() == (folders[name] / model.FILE).read_text()


def test_the_report_is_built_from_comparison_json_alone(folders, tmp_path):
    """A comparison's folder copied elsewhere (no run folder, no card file) rebuilds the same report."""
    copy = tmp_path / "elsewhere"
    copy.mkdir()
    (copy / "comparison.json").write_text((folders["cmp"] / "comparison.json").read_text())
    assert balance("report", copy).exit_code == 0
    assert "comparison, B against A" in (copy / "report.html").read_text()


def _damaged(src: Path, dest: Path, how: str) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    text = (src / "comparison.json").read_text()
    data = json.loads(text)
    # the command line as a terminal records it (under CliRunner sys.argv is pytest's, so none is recorded)
    data["command"] = "balance compare --game race21 --b-set target=23 -n 200"
    text = json.dumps(data)
    if how == "old":
        data.pop("schema_version")
        text = json.dumps(data)
    elif how == "truncated":
        text = text[: len(text) // 2]
    elif how == "wrong type":
        data["metrics"][0]["diff"] = "a lot"
        text = json.dumps(data)
    (dest / "comparison.json").write_text(text)
    return dest


CASES = {"old": ("field 'schema_version'", "older balance"), "truncated": ("damaged (not JSON", "truncated"),
         "wrong type": ("field 'metrics.0.diff'", "number")}


@pytest.mark.parametrize("how", list(CASES))
def test_an_old_or_damaged_comparison_is_refused_in_one_line(folders, tmp_path, how):
    folder = _damaged(folders["cmp"], tmp_path / how.replace(" ", "-"), how)
    with pytest.raises(BalanceError) as exc:
        ComparisonResult.read(folder)
    line = str(exc.value)
    assert "\n" not in line and str(folder / "comparison.json") in line
    for words in CASES[how]:
        assert words in line, line
    # how to make it again: the file's own command where it could be read, else compare's
    assert ("run `balance compare --game race21" if how != "truncated" else "run `balance compare`") in line


@pytest.mark.parametrize("how", list(CASES))
def test_balance_report_refuses_an_old_or_damaged_comparison(folders, tmp_path, race21, how):
    folder = _damaged(folders["cmp"], tmp_path / how.replace(" ", "-"), how)
    line = one_line_error(balance("report", folder))
    assert str(folder / "comparison.json") in line and CASES[how][0] in line
    assert not (folder / "report.html").exists()


def test_an_old_impact_file_is_refused_and_balance_report_makes_it_again(folders, tmp_path, race21):
    import shutil

    folder = tmp_path / "imp"
    shutil.copytree(folders["imp"], folder)
    data = json.loads((folder / "impact.json").read_text())
    data.pop("schema_version")  # as every impact.json before schema 2 (they had `kind`)
    (folder / "impact.json").write_text(json.dumps(data))
    with pytest.raises(BalanceError) as exc:
        ImpactResult.read(folder)
    line = str(exc.value)
    assert "field 'schema_version'" in line and f"run `balance report {folder}`" in line and "\n" not in line
    data["schema_version"], data["rows"][0]["margin_verdict"] = 2, {"verdict": "within_margin"}
    (folder / "impact.json").write_text(json.dumps(data))
    with pytest.raises(BalanceError, match=r"field 'rows\.0\.margin_verdict\.margin': Field required"):
        ImpactResult.read(folder)
    assert balance("report", folder).exit_code == 0  # the report recomputes impact.json from the games
    assert ImpactResult.read(folder) == ImpactResult.read(folders["imp"])


def test_an_unknown_key_is_refused_not_ignored(folders, tmp_path):
    data = json.loads((folders["cmp"] / "comparison.json").read_text())
    data["pairing_wrods"] = "typo"
    (tmp_path / "comparison.json").write_text(json.dumps(data))
    with pytest.raises(BalanceError, match=r"field 'pairing_wrods': Extra inputs are not permitted"):
        ComparisonResult.read(tmp_path)


def test_a_newer_file_says_upgrade(folders, tmp_path):
    data = json.loads((folders["cmp"] / "comparison.json").read_text())
    data["schema_version"] = ComparisonResult.SCHEMA_VERSION + 1
    (tmp_path / "comparison.json").write_text(json.dumps(data))
    with pytest.raises(BalanceError, match="made by a newer balance; upgrade balance"):
        ComparisonResult.read(tmp_path)


def test_the_python_api_reads_through_the_schemas(folders, tmp_path):
    import balance as api

    assert api.load(folders["imp"]).typed == ImpactResult.read(folders["imp"])
    run = api.load(folders["cmp"])  # a `compare --game` folder is a run folder too
    assert run.typed == ComparisonResult.read(folders["cmp"])
    assert run.result == json.loads((folders["cmp"] / "comparison.json").read_text())  # the dict, as before
