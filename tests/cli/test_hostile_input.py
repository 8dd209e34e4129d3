"""Issue 17 item 6, as a hostile tester typed it: every case exits 2 with one
line on stderr naming the option, file or part and what is allowed (or how to
recover), no traceback, and a refused run leaves no folder behind."""
import json
import shutil

import pytest


from runkit import balance, one_line_error, race21_run, simulate_args

BIG = str(2**64)
HUGE_INDEX = str(10**20)


pytestmark = pytest.mark.usefixtures("race21")


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    return race21_run(tmp_path_factory)


def nested_toml(depth: int) -> str:
    return "target = " + "[" * depth + "1" + "]" * depth + "\n"


FILES = {  # --params files
    "inf.toml": "target = inf\n",
    "big.toml": "target = 1e400\n",
    "nan.toml": "target = nan\n",
    "deep.toml": nested_toml(13),
    "very-deep.toml": nested_toml(50_000),
    "large.toml": "# x\n" * (5 * 2**20 // 4),
}

SEEDED = [  # (command args before --seed, extra args after)
    ("simulate", ["--game", "race21", "-n", 10, "--quiet"]),
    ("sweep", ["--game", "race21", "--vary", "target=10..12", "-n", 10, "--quiet"]),
    ("replay", ["--game", "race21"]),
    ("compare", ["--game", "race21", "--a-set", "target=20", "--b-set", "target=21", "-n", 10, "--quiet"]),
    ("tune", ["--game", "race21", "--vary", "target=10..12", "--target", "win_rate=0.4..0.6", "-n", 20]),
    ("campaign", ["--game", "race21", "-n", 10]),
]

CASES = [
    *[(f"{cmd} --seed {seed}", [cmd, *args, "--seed", seed, *(["--out", "{new}"] if cmd != "replay" else [])],
       ["--seed", "allowed: a whole number in 0.."]) for cmd, args in SEEDED for seed in ("-1", BIG)],
    ("--set target=inf", ["simulate", "--game", "race21", "--set", "target=inf", "--out", "{new}"], ["--set", "target", "allowed"]),
    ("--set target=1e400", ["simulate", "--game", "race21", "--set", "target=1e400", "--out", "{new}"], ["--set", "target", "allowed"]),
    ("--params with inf", ["simulate", "--game", "race21", "--params", "{files}/inf.toml", "--out", "{new}"],
     ["--params", "inf.toml", "finite numbers only"]),
    ("--params with 1e400", ["simulate", "--game", "race21", "--params", "{files}/big.toml", "--out", "{new}"],
     ["--params", "big.toml", "finite numbers only"]),
    ("--params with nan", ["simulate", "--game", "race21", "--params", "{files}/nan.toml", "--out", "{new}"],
     ["--params", "nan.toml", "finite numbers only"]),
    ("--params nested 13 deep", ["simulate", "--game", "race21", "--params", "{files}/deep.toml", "--out", "{new}"],
     ["--params", "deep.toml", "nested too deeply", "at most 12"]),
    ("--params nested 50,000 deep", ["simulate", "--game", "race21", "--params", "{files}/very-deep.toml", "--out", "{new}"],
     ["--params", "very-deep.toml", "nested too deeply"]),
    ("--params /dev/zero", ["simulate", "--game", "race21", "--params", "/dev/zero", "--out", "{new}"],
     ["--params", "/dev/zero", "not a regular file"]),
    ("--params a folder", ["simulate", "--game", "race21", "--params", "{files}", "--out", "{new}"],
     ["--params", "not a regular file"]),
    ("--params of 5 MB", ["simulate", "--game", "race21", "--params", "{files}/large.toml", "--out", "{new}"],
     ["--params", "large.toml", "too large", "4 MB"]),
    ("--out name of 300 characters", ["simulate", "--game", "race21", "--out", "{tmp}/" + "x" * 300],
     ["--out", "300 bytes long", "at most 255 bytes"]),
    ("--out nested name of 256 bytes", ["simulate", "--game", "race21", "--out", "{tmp}/a/" + "é" * 128],
     ["--out", "256 bytes long"]),
    *[(f'{cmd} --out ""', [cmd, *args, "--out", ""], ["--out", "current folder"])
      for cmd, args in SEEDED if cmd != "replay"],
    ("replay --index 10**20", ["replay", "--game", "race21", "--index", HUGE_INDEX], ["--index", "allowed: a game index in 0.."]),
    ("replay --index -1", ["replay", "--game", "race21", "--index", "-1"], ["--index", "allowed"]),
    ("replay --run --index 10**20", ["replay", "--run", "{run}", "--index", HUGE_INDEX], ["--index"]),
    ("report on no folder", ["report", "{tmp}/nothing"], ["no such folder", "written by simulate"]),
]

MANIFEST_DAMAGE = {
    "invalid JSON": lambda m: '{"kind": "run", "config": ',
    "empty": lambda m: "",
    "a list": lambda m: "[1, 2, 3]",
    "a string": lambda m: '"run"',
    "a missing key": lambda m: json.dumps({k: v for k, v in m.items() if k not in ("n_games", "checksum")}),
    "a missing config key": lambda m: json.dumps({**{k: v for k, v in m.items() if k != "checksum"},
                                                  "config": {k: v for k, v in m["config"].items() if k != "seed"}}),
    "an edited game": lambda m: json.dumps({**m, "config": {**m["config"], "game": "overtime"}}),
    "an edited game, no checksum": lambda m: json.dumps({**{k: v for k, v in m.items() if k != "checksum"},
                                                         "config": {**m["config"], "game": "overtime"}}),
    "an unknown game, no checksum": lambda m: json.dumps({**{k: v for k, v in m.items() if k != "checksum"},
                                                          "config": {**m["config"], "game": "chess",
                                                                     "identity": {**m["config"]["identity"],
                                                                                  "game": "chess"}}}),
    "an edited seed": lambda m: json.dumps({**m, "config": {**m["config"], "seed": 6}}),
    "a seed of 2**64, no checksum": lambda m: json.dumps({**{k: v for k, v in m.items() if k != "checksum"},
                                                          "config": {**m["config"], "seed": 2**64}}),
}

WORDS_OF = {"invalid JSON": "not valid JSON", "empty": "empty", "a list": "a JSON list", "a string": "a JSON str",
            "a missing key": "missing key n_games", "a missing config key": "missing key config.seed",
            "an edited game": "edited or damaged", "an edited game, no checksum": "config.identity does not match",
            "an unknown game, no checksum": "game 'chess' is not a game of this build",
            "an edited seed": "edited or damaged", "a seed of 2**64, no checksum": "config.seed"}


def fill(args, tmp_path, base_run):
    files = tmp_path / "files"
    files.mkdir(exist_ok=True)
    for name, text in FILES.items():
        (files / name).write_text(text)
    return [str(a).format(new=tmp_path / "new", files=files, tmp=tmp_path, run=base_run) for a in args]


@pytest.mark.parametrize("name,args,words", CASES, ids=[c[0] for c in CASES])
def test_hostile_input_is_one_line_and_exit_2(tmp_path, base_run, name, args, words):
    r = balance(*fill(args, tmp_path, base_run))
    line = one_line_error(r)
    for w in words:
        assert w in line, line
    assert not (tmp_path / "new").exists()  # nothing left behind


@pytest.mark.parametrize("command", ["simulate", "report", "replay"])
@pytest.mark.parametrize("damage", list(MANIFEST_DAMAGE))
def test_a_damaged_manifest_is_refused_naming_it(tmp_path, base_run, damage, command):
    run = tmp_path / "run"
    shutil.copytree(base_run, run)
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(MANIFEST_DAMAGE[damage](manifest))
    parts_before = sorted(p.name for p in (run / "parts" / "games").iterdir())
    args = {"simulate": simulate_args(run, 3000, 1000, seed=5), "report": ["report", run],
            "replay": ["replay", "--run", run, "--index", 3]}[command]
    line = one_line_error(balance(*args))
    if command == "simulate" and damage == "an unknown game, no checksum":  # the command's game is not the folder's
        assert "holds a different configuration" in line and "game: chess vs race21" in line
        return
    assert "manifest.json" in line and WORDS_OF[damage] in line, line
    if "game of this build" not in line:
        assert "restore manifest.json from a copy" in line
    assert sorted(p.name for p in (run / "parts" / "games").iterdir()) == parts_before  # nothing touched


PART_DAMAGE = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "bit-flipped": lambda p: p.write_bytes(bytes(b ^ (4 if i == 200 else 0) for i, b in enumerate(p.read_bytes()))),
    "foreign Parquet": lambda p: shutil.copyfile(p.parent / "v0000-i000000000000-n000001000.parquet", p),
    "deleted": lambda p: p.unlink(),
}


@pytest.mark.parametrize("kind", ["games", "seats", "cards"])
@pytest.mark.parametrize("damage", list(PART_DAMAGE))
def test_a_damaged_part_is_named_by_report_and_recomputed_by_resume(tmp_path, base_run, damage, kind):
    run = tmp_path / "run"
    shutil.copytree(base_run, run)
    name = "v0000-i000000001000-n000001000.parquet"
    PART_DAMAGE[damage](run / "parts" / kind / name)
    line = one_line_error(balance("report", run))
    assert f"parts/{kind}/{name}" in line and ("damaged" in line or "missing" in line)
    assert "run the command that made it again" in line and "it is in manifest.json" in line
    r = balance(*simulate_args(run, 3000, 1000, seed=5))
    assert r.exit_code == 0, r.output
    assert f"repaired: parts/{kind}/{name}" in r.stderr and "1,000 games are played again" in r.stderr
    from runkit import same_run

    assert same_run(run, base_run)


def test_compare_of_a_folder_with_a_damaged_part_is_refused_naming_it(tmp_path, base_run):
    run = tmp_path / "run"
    shutil.copytree(base_run, run)
    PART_DAMAGE["bit-flipped"](run / "parts" / "seats" / "v0000-i000000002000-n000001000.parquet")
    line = one_line_error(balance("compare", base_run, run, "--out", tmp_path / "cmp"))
    assert "parts/seats/v0000-i000000002000-n000001000.parquet: damaged" in line
