"""`balance impact` on the fixture games (race to 21, shed): a do-nothing rule
gives no difference, a real one is found, card variants are written into the
folder and played from there, resume plays only what is missing, bad names
exit 2 with one line naming the allowed ones, the report renders and
`balance report` rebuilds it."""
import hashlib
import json

import pytest

from balance.simcore import registry
from balance.simcore.files import read_toml

from runkit import balance, one_line_error


pytestmark = pytest.mark.usefixtures("race21")


def result(folder):
    return json.loads((folder / "impact.json").read_text())


RACE = ("--game", "race21", "--policy", "greedy", "--policy-param", "epsilon=0.2", "--quiet")


def test_a_do_nothing_rule_changes_nothing_and_a_real_one_is_found(tmp_path):
    # bug_total=59 is never reached (a race ends at 21..25): its steps 58 and 60 do nothing
    out = tmp_path / "null"
    r = balance("impact", *RACE, "-n", 1000, "--set", "bug_total=59", "--rules", "bug_total,target", "--out", out)
    assert r.exit_code == 0, r.output
    res = result(out)
    rows = {x["variant"]: x for x in res["rows"]}
    assert set(rows) == {"bug_total=58", "bug_total=60", "target=20", "target=22"}
    assert res["family_size"] == 4 and res["ci_level"] == pytest.approx(1 - 0.05 / 4)
    for name in ("bug_total=58", "bug_total=60"):
        assert rows[name]["diff"] == 0 and not rows[name]["significant"]
        assert rows[name]["pairing_basis"] == "same deals"
        assert not any(s["variant"] == name for s in res["secondary"])  # the same in every game: nothing to test
    # the target moves the final total: found, in the direction it must go
    tot = {s["variant"]: s for s in res["secondary"] if s["metric"] == "mean total"}
    assert tot["target=20"]["significant"] and tot["target=20"]["diff"] < 0
    assert tot["target=22"]["significant"] and tot["target=22"]["diff"] > 0
    assert "bug_total=58" in r.output and "margin" in r.output
    html = (out / "report.html").read_text()
    assert "impact of cards and rules" in html and "Rule ablation" in html and "<svg" in html


def test_card_variants_are_files_in_the_folder_and_resume_plays_only_what_is_missing(tmp_path):
    out = tmp_path / "shed"
    args = ("impact", "--game", "shed", "--cards", "A,8", "--quiet", "--out", out)
    r = balance(*args, "-n", 200)
    assert r.exit_code == 0, r.output
    res = result(out)
    assert {x["variant"] for x in res["rows"]} == {"A: all copies removed", "8: all copies removed"}
    assert {(s["card"], s["change"]) for s in res["skipped"]} == {(c, ch) for c in "A8" for ch in ("remove_one", "add_one")}
    assert "only all of its copies can be removed" in r.output  # the reason, said
    manifest = json.loads((out / "manifest.json").read_text())
    base_doc = read_toml(registry.get("shed").load_data({}).cards.path)
    for v in manifest["config"]["variants"][1:]:
        f = out / v["varied"]["file"]
        assert f.parent == out / "cards" and v["params"]["cards"] == str(f.resolve())
        assert hashlib.sha256(f.read_bytes()).hexdigest() == v["card_list"]["sha256"] == v["varied"]["sha256"]
        doc = read_toml(f)
        assert doc["suits"] == base_doc["suits"]
        assert [x["name"] for x in doc["rank"]] == [x["name"] for x in base_doc["rank"] if x["name"] != v["varied"]["card"]]
    for x in res["rows"]:
        assert x["pairing_basis"] == "same seeds" and x["n_a"] == 200
    lines = len((out / "chunks.jsonl").read_text().splitlines())
    r = balance(*args, "-n", 200)  # the same command again: nothing to play
    assert r.exit_code == 0, r.output
    assert len((out / "chunks.jsonl").read_text().splitlines()) == lines
    r = balance(*args, "-n", 400)  # more games: only the missing ones are played
    assert r.exit_code == 0, r.output
    fresh = tmp_path / "fresh"
    assert balance("impact", "--game", "shed", "--cards", "A,8", "--quiet", "--out", fresh, "-n", 400).exit_code == 0
    a, b = result(out), result(fresh)
    assert [(x["variant"], x["diff"], x["ci"], x["n_a"]) for x in a["rows"]] == \
        [(x["variant"], x["diff"], x["ci"], x["n_a"]) for x in b["rows"]]
    assert a["secondary"] == b["secondary"]
    # another card list for the same folder is refused, and leaves no card file behind
    before = sorted(p.name for p in (out / "cards").iterdir())
    msg = one_line_error(balance("impact", "--game", "shed", "--cards", "K", "--quiet", "--out", out, "-n", 200))
    assert "different configuration" in msg
    assert sorted(p.name for p in (out / "cards").iterdir()) == before


def test_the_report_renders_and_rebuilds_from_the_folder(tmp_path):
    out = tmp_path / "shed"
    assert balance("impact", "--game", "shed", "--cards", "2", "--rules", "hand_size", "-n", 200, "--quiet",
                   "--out", out).exit_code == 0
    first = result(out)
    html = (out / "report.html").read_text()
    for words in ("Card ablation", "ranked by its effect", "played more often by winners", "Not played",
                  "same seeds", "association"):
        assert words in html, words
    (out / "report.html").unlink()
    (out / "impact.json").unlink()
    r = balance("report", out)
    assert r.exit_code == 0, r.output
    assert (out / "report.html").exists() and result(out) == first
    from balance.reports import folder_kind

    assert folder_kind(out).kind == "impact"


def test_bad_names_exit_2_with_one_line_naming_the_allowed(tmp_path):
    msg = one_line_error(balance("impact", *RACE, "--cards", "all", "--out", tmp_path / "a"))
    assert "race21 has no card list" in msg
    msg = one_line_error(balance("impact", *RACE, "--out", tmp_path / "b"))
    assert "--rules" in msg and "allowed: target, bug_total" in msg
    msg = one_line_error(balance("impact", *RACE, "--rules", "targte", "--out", tmp_path / "c"))
    assert msg == "error: --rules: race21 has no parameter 'targte'; allowed: target, bug_total"
    msg = one_line_error(balance("impact", "--game", "shed", "--cards", "A,Z", "--out", tmp_path / "d"))
    assert "--cards: shed has no card 'Z'; allowed: all, none, or card names (comma-separated): A, 2, 3" in msg
    msg = one_line_error(balance("impact", "--game", "shed", "--rules", "cards", "--out", tmp_path / "e"))
    assert "--rules: cards is a file parameter, not a number or a switch" in msg and "allowed: hand_size" in msg
    msg = one_line_error(balance("impact", "--game", "shed", "--cards", "none", "--out", tmp_path / "f"))
    assert "no variant to play" in msg
    assert not any((tmp_path / x).exists() for x in "abcdef")


def test_dask_workers_play_the_card_variants_alike(tmp_path, monkeypatch):
    """A LocalCluster worker reads each variant's card list from the folder and plays
    the same games as the local run (the same impact.json)."""
    import os

    pytest.importorskip("distributed")
    tests = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([tests, os.path.dirname(tests), os.environ.get("PYTHONPATH", "")]))
    args = ("impact", "--game", "shed", "--cards", "A", "--rules", "hand_size", "-n", 200, "--quiet")
    assert balance(*args, "--out", tmp_path / "local").exit_code == 0
    r = balance(*args, "--workers", 1, "--out", tmp_path / "dask")
    assert r.exit_code == 0, r.output
    a, b = result(tmp_path / "local"), result(tmp_path / "dask")
    assert a["rows"] == b["rows"] and a["secondary"] == b["secondary"] and len(a["rows"]) == 3


def test_a_copied_folder_resumes_and_replays_with_its_own_card_files(tmp_path):
    """The folder holds its edited lists; the manifest's absolute paths name where it was played.
    Identity compares card lists by content, and replay reads the folder's own files."""
    import shutil

    first, moved = tmp_path / "first", tmp_path / "elsewhere" / "copy"
    assert balance("impact", "--game", "shed", "--cards", "A", "--quiet", "--out", first, "-n", 60).exit_code == 0
    moved.parent.mkdir()
    shutil.copytree(first, moved)
    shutil.rmtree(first)  # the files the manifest names by absolute path are gone
    r = balance("impact", "--game", "shed", "--cards", "A", "--quiet", "--out", moved, "-n", 120)
    assert r.exit_code == 0, r.output
    manifest = json.loads((moved / "manifest.json").read_text())
    assert manifest["n_games"] == 120
    rep = balance("replay", moved, "--variant", 1, "--index", 7)
    assert rep.exit_code == 0, rep.output
    assert "End:" in rep.output


def test_precision_stops_every_variant_at_the_same_games_and_says_so(tmp_path):
    out = tmp_path / "p"
    r = balance("impact", *RACE, "--rules", "target", "-n", 4000, "--chunk-size", 100, "--precision", 0.2, "--out", out)
    assert r.exit_code == 0, r.output
    stop = json.loads((out / "stopping.json").read_text())
    games = {v["name"]: v["games"] for v in stop["variants"]}
    assert stop["stopped_by"] == "precision" and len(set(games.values())) == 1 and max(games.values()) < 4000
    res = result(out)
    assert res["stopping"]["stopped_by"] == "precision"
    assert all(row["n_a"] == max(games.values()) for row in res["rows"])  # every game kept its pair
    html = (out / "report.html").read_text()
    assert "Stopped by --precision 0.2" in html


def test_card_power_is_the_first_card_table_of_a_competitive_game(tmp_path):
    """You're Fired! (2 players, someone always wins): card power plays one more Axe Man to one seat on the
    baseline's deals and leads the terminal, impact.json and the report; the ablation stays beside it."""
    out = tmp_path / "yf"
    r = balance("impact", "--game", "youre-fired", "--cards", "Axe Man,Lawyer", "-n", 300, "--out", out)
    assert r.exit_code == 0, r.output
    res = result(out)
    cp = res["card_power"]
    assert [x["card"] for x in cp["rows"]] == ["Axe Man"] and cp["rows"][0]["n"] == 300
    assert sum(cp["rows"][0]["n_by_seat"]) == 300 and min(cp["rows"][0]["n_by_seat"]) > 100
    assert [x["card"] for x in cp["not_measured"]] == ["Lawyer"]
    assert res["rows"] and all(x["what"] == "card" and x["card"] in ("Axe Man", "Lawyer") for x in res["rows"])
    assert not any("one seat" in x["variant"] for x in res["rows"])  # the ablation: card power is not in it
    assert r.output.index("card power") < r.output.index("impact on the")
    html = (out / "report.html").read_text()
    assert html.index("Card power: what one more copy does") < html.index("Every variant, ranked")
    r = balance("impact", "--game", "youre-fired", "--cards", "Axe Man", "-n", 100, "--no-card-power", "--quiet",
                "--out", tmp_path / "none")
    assert r.exit_code == 0, r.output
    assert result(tmp_path / "none")["card_power"] is None  # impact.json schema 2 writes every field
