"""The skill check as a designer meets it: `simulate` plays the first deals again with expert at every
seat in RUN/skill-check, says in the terminal and the report whether each verdict holds, can be sized
or skipped, resumes with the run, and its games replay like any run's."""
from __future__ import annotations

import json

import pytest


from runkit import balance, summary


pytestmark = pytest.mark.usefixtures("race21")


def _simulate(out, *extra):
    return balance("simulate", "--game", "race21", "-n", 400, "--seed", 3, "--out", out, *extra)


def test_simulate_checks_its_verdicts_with_expert_on_the_same_deals(tmp_path):
    out = tmp_path / "run"
    r = _simulate(out, "--skill-check", 120)
    assert r.exit_code == 0, r.output
    sub = json.loads((out / "skill-check" / "manifest.json").read_text())
    main = json.loads((out / "manifest.json").read_text())
    assert sub["config"]["seed"] == main["config"]["seed"]
    assert [p["name"] for p in sub["config"]["policies"]] == ["expert"]
    assert [v["params"] for v in sub["config"]["variants"]] == [v["params"] for v in main["config"]["variants"]]
    sc = summary(out)["skill_check"]
    assert sc["played"] and sc["n_games"] == 120
    (h,) = sc["headlines"]
    assert h["deals"] == 120 and h["main"]["n"] == 120
    assert {i["status"] for i in sc["items"]} <= {"holds", "changes", "unsettled"}
    said = " ".join(r.output.split()).lower()  # the terminal wraps long lines
    assert "skill check: " in said and "with expert at every seat" in said
    html = (out / "report.html").read_text()
    assert "data-skill=" in html and "of the same 120 deals" in html
    assert "Skill check" in html  # how it was measured


def test_the_check_resumes_with_the_run_and_replays(tmp_path):
    out = tmp_path / "run"
    assert _simulate(out, "--skill-check", 60).exit_code == 0
    before = summary(out)["skill_check"]
    again = _simulate(out, "--skill-check", 60)
    assert again.exit_code == 0, again.output
    after = summary(out)["skill_check"]
    assert after["headlines"] == before["headlines"]
    more = _simulate(out, "--skill-check", 90)  # a larger check adds deals to the same folder
    assert more.exit_code == 0, more.output
    assert summary(out)["skill_check"]["n_games"] == 90
    r = balance("replay", out / "skill-check", "--index", 5)
    assert r.exit_code == 0, r.output
    assert "expert" in r.output


def test_zero_skips_it_and_an_expert_run_has_nothing_to_check(tmp_path):
    r = _simulate(tmp_path / "a", "--skill-check", 0)
    assert r.exit_code == 0, r.output
    assert not (tmp_path / "a" / "skill-check").exists()
    sc = summary(tmp_path / "a")["skill_check"]
    assert not sc["played"] and "--skill-check 0" in sc["why"]
    assert "Not checked for stronger play" in (tmp_path / "a" / "report.html").read_text()
    r = _simulate(tmp_path / "b", "--policy", "expert", "--policy-param", "iterations=4", "-n", 30)
    assert r.exit_code == 0, r.output
    assert not (tmp_path / "b" / "skill-check").exists()
    assert "already plays expert" in summary(tmp_path / "b")["skill_check"]["why"]


def test_a_negative_size_is_refused_before_anything_is_written(tmp_path):
    r = _simulate(tmp_path / "c", "--skill-check", -5)
    assert r.exit_code == 2
    assert "--skill-check" in r.output
    assert not (tmp_path / "c").exists()


def test_compare_checks_both_sides_on_the_same_deals(tmp_path):
    out = tmp_path / "cmp"
    r = balance("compare", "--game", "race21", "--b-set", "target=20", "-n", 300, "--skill-check", 100,
                "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    res = json.loads((out / "comparison.json").read_text())
    sc = res["skill_check"]
    assert sc["played"] and sc["n_a"] == 100 and sc["n_b"] == 100
    assert sc["items"] and {i["status"] for i in sc["items"]} <= {"holds", "changes", "unsettled"}
    assert "skill check: " in r.output


def test_impact_re_measures_its_largest_effects_with_expert(tmp_path):
    out = tmp_path / "imp"
    r = balance("impact", "--game", "race21", "--rules", "target", "-n", 300, "--skill-check", 60, "--out", out,
                "--quiet")
    assert r.exit_code == 0, r.output
    res = json.loads((out / "impact.json").read_text())
    sc = res["skill_check"]
    assert sc["played"]
    sub = json.loads((out / "skill-check" / "manifest.json").read_text())
    names = [v["name"] for v in sub["config"]["variants"]]
    assert names[0] == res["baseline"]["name"] and len(names) <= 1 + 3 + 2
    assert {i["variant"] for i in sc["items"]} == set(names[1:])
    assert all(i["status"] in ("holds", "changes", "unsettled") for i in sc["items"])
    assert "skill check: " in " ".join(r.output.split()).lower() or not sc["items"]
