"""Typed result files (analysis/results.py): comparison.json, impact.json, ladder.json, tuning.json and
campaign.json are written as their schema's model and read back as it, equal; an older file (no
schema_version), a truncated one and one with a field of the wrong type are refused with one line
naming the file, the field and how to make it again, by `read` and through the command line
(`balance report FOLDER`: exit 2, one line, no traceback), or, where the folder's games make the file
again (impact, ladder), remade by `balance report FOLDER`."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from balance.analysis.campaign_result import CampaignResult
from balance.analysis.compare_result import ComparisonResult
from balance.analysis.impact_result import ImpactResult
from balance.analysis.ladder_result import LadderFile
from balance.analysis.tuning_result import TuningResult
from balance.simcore.errors import BalanceError
from tests.cli.runkit import balance, one_line_error, race21_registered, read_refused


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    """A played comparison and a played impact of the toy game (race to 21)."""
    root = tmp_path_factory.mktemp("results")
    with race21_registered():
        r = balance("compare", "--game", "race21", "--b-set", "target=23", "-n", 200, "--out", root / "cmp",
                    "--quiet")
        assert r.exit_code == 0, r.output
        r = balance("impact", "--game", "race21", "--policy", "greedy", "--policy-param", "epsilon=0.2", "-n", 300,
                    "--rules", "target", "--out", root / "imp", "--quiet")
        assert r.exit_code == 0, r.output
        r = balance("ladder", "--game", "race21", "-n", 60, "--search-share", 0.5, "--seed", 3, "--out", root / "lad",
                    "--quiet")
        assert r.exit_code == 0, r.output
        r = balance("tune", "--game", "race21", "--vary", "target=20..30:10", "--target", "length_median=12..14",
                    "-n", 100, "--screen", 50, "--keep", 2, "--policy", "random", "--out", root / "tune", "--quiet")
        assert r.exit_code == 0, r.output
        r = balance("campaign", "--game", "sickdays-solo", "--campaigns", 20, "--max-attempts", 4, "--out",
                    root / "camp", "--quiet")
        assert r.exit_code == 0, r.output
    return {"cmp": root / "cmp", "imp": root / "imp", "lad": root / "lad", "tune": root / "tune", "camp": root / "camp"}


@pytest.mark.parametrize("model,name", [(ComparisonResult, "cmp"), (ImpactResult, "imp"), (LadderFile, "lad"),
                                        (TuningResult, "tune"), (CampaignResult, "camp")])
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
    line = read_refused(ComparisonResult, folder, CASES[how])
    # how to make it again: the file's own command where it could be read, else compare's
    assert ("run `balance compare --game race21" if how != "truncated" else "run `balance compare`") in line


@pytest.mark.parametrize("how", list(CASES))
def test_balance_report_refuses_an_old_or_damaged_comparison(folders, tmp_path, race21, how):
    folder = _damaged(folders["cmp"], tmp_path / how.replace(" ", "-"), how)
    line = one_line_error(balance("report", folder))
    assert str(folder / "comparison.json") in line and CASES[how][0] in line
    assert not (folder / "report.html").exists()


def _old_remade_file(folders, tmp_path, name: str, model) -> tuple[Path, dict]:
    """A copy of folder `name` whose result file (impact.json, ladder.json: remade from the folder's games) has
    no schema_version, as every one before schema 2 (they had `kind`): refused in one line that says
    `balance report FOLDER` makes it again. Returns the copy and the file's data."""
    import shutil

    folder = tmp_path / name
    shutil.copytree(folders[name], folder)
    data = json.loads((folder / model.FILE).read_text())
    data.pop("schema_version")
    (folder / model.FILE).write_text(json.dumps(data))
    read_refused(model, folder, ("field 'schema_version'", f"run `balance report {folder}`"))
    return folder, data


def test_an_old_impact_file_is_refused_and_balance_report_makes_it_again(folders, tmp_path, race21):
    folder, data = _old_remade_file(folders, tmp_path, "imp", ImpactResult)
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
    lad = api.load(folders["lad"])  # a ladder folder is a run folder
    assert lad.typed == LadderFile.read(folders["lad"]) and lad.typed.settings[0].policies[0].label == "random"
    assert lad.result == json.loads((folders["lad"] / "ladder.json").read_text())
    for name in ("tune", "camp"):  # no run folder: what `balance.tune(...)` returns reads the same way
        model = COMMANDS[name][0]
        assert api.Run(folders[name]).typed == model.read(folders[name])


# ---------------------------------------------------------------- tuning.json and campaign.json: remade by their command

COMMANDS = {"tune": (TuningResult, "balance tune --game race21 --vary target=20..30:10 -n 100"),
            "camp": (CampaignResult, "balance campaign --game sickdays-solo --campaigns 20")}
WRONG = {"tune": ("recommended", "measured", "win_rate", "value"), "camp": ("levels", 0, "win_rate", "value")}


def _damaged_result(folders, name: str, dest: Path, how: str) -> Path:
    model, command = COMMANDS[name]
    dest.mkdir(parents=True, exist_ok=True)
    data = json.loads((folders[name] / model.FILE).read_text())
    data["command"] = command  # as a terminal records it (under CliRunner none is)
    if how == "old":
        data.pop("schema_version")
        data.pop("kind")  # the files before schema 1 had neither
        text = json.dumps(data)
    elif how == "truncated":
        text = json.dumps(data)
        text = text[: len(text) // 2]
    else:
        *path, last = WRONG[name]
        part = data
        for k in path:
            part = part[k]
        part[last] = "a lot"
        text = json.dumps(data)
    (dest / model.FILE).write_text(text)
    return dest


RESULT_CASES = {"old": ("field 'schema_version'", "older balance"), "truncated": ("damaged (not JSON", "truncated"),
                "wrong type": ("field '", "number")}


@pytest.mark.parametrize("name", list(COMMANDS))
@pytest.mark.parametrize("how", list(RESULT_CASES))
def test_an_old_or_damaged_tuning_or_campaign_is_refused_in_one_line(folders, tmp_path, race21, name, how):
    model, command = COMMANDS[name]
    folder = _damaged_result(folders, name, tmp_path / how.replace(" ", "-"), how)
    line = read_refused(model, folder, RESULT_CASES[how])
    if how == "wrong type":
        assert f"field '{'.'.join(map(str, WRONG[name]))}'" in line, line
    # how to make it again: the file's own command where it could be read, else the command's name
    assert (f"run `{command}` again" if how != "truncated" else f"run `{command.split(' --')[0]}` again") in line
    # through the command line: exit 2, that one line, no report written
    line = one_line_error(balance("report", folder))
    assert str(folder / model.FILE) in line and RESULT_CASES[how][0] in line
    assert not (folder / "report.html").exists()


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_report_is_built_from_tuning_or_campaign_json_alone(folders, tmp_path, name):
    model, _ = COMMANDS[name]
    (tmp_path / model.FILE).write_text((folders[name] / model.FILE).read_text())
    assert balance("report", tmp_path).exit_code == 0
    assert (tmp_path / "report.html").is_file()
    assert model.read(tmp_path) == model.read(folders[name])


# ---------------------------------------------------------------- ladder.json: remade from the ladder folder's games


def test_an_old_ladder_file_is_refused_and_balance_report_makes_it_again(folders, tmp_path, race21):
    folder, data = _old_remade_file(folders, tmp_path, "lad", LadderFile)
    (folder / "ladder.json").write_text(json.dumps(data)[:200])
    with pytest.raises(BalanceError, match=r"ladder.json: damaged \(not JSON"):
        LadderFile.read(folder)
    data["schema_version"], data["policies"][0]["n"] = 2, "many"
    (folder / "ladder.json").write_text(json.dumps(data))
    with pytest.raises(BalanceError, match=r"field 'policies\.0\.n': Input should be a valid integer"):
        LadderFile.read(folder)
    # a run report beside it does not use it (nothing near a run fails its report) ...
    from balance.reports import context

    assert context.find_ladder(tmp_path / "elsewhere", "race21", 2, data["params"]) is None
    # ... and `balance report` on the ladder folder recomputes it from the games
    assert balance("report", folder).exit_code == 0
    again, first = LadderFile.read(folder), LadderFile.read(folders["lad"])
    assert again.model_copy(update={"generated": ""}) == first.model_copy(update={"generated": ""})
    assert context.find_ladder(tmp_path / "elsewhere", "race21", 2, data["params"]) is not None


def test_a_ladder_file_holds_one_ladder_or_several_not_both(folders, tmp_path):
    data = json.loads((folders["lad"] / "ladder.json").read_text())
    (tmp_path / "ladder.json").write_text(json.dumps({**data, "ladders": []}))
    with pytest.raises(BalanceError, match="one ladder .policies. or several .ladders., not both"):
        LadderFile.read(tmp_path)
