"""Issue 40 (items 1, 3, 4, 5 and the repair hint of 10): a run folder is
self-contained for replay and safe to be handed by someone else.

- replay plays the cards the run played: the folder keeps its own copy of
  every card list it played (named by content, recorded in the manifest and
  checked); a folder written before that refuses a card file edited since,
  naming it, and so does an impact folder whose variant list was edited;
- replay refuses a game index the run did not play;
- no link below a run folder is ever followed for a write or a delete (nor a
  read): a folder holding one is refused with one line naming the entry, and
  what the link points to is left as it was;
- a file read from a folder is a regular file read with a cap (no pipe to wait
  on, no /dev/zero to read for ever);
- a repair hint names the folder the user gave, not the one the run was made in.
"""
from __future__ import annotations

import json
import os
import resource
import shutil
import threading
from pathlib import Path

import pytest

from balance.analysis import folder_entries, manifest_file

from runkit import balance, child, one_line_error, race21_run, simulate_args

SHED_CARDS = Path(__file__).resolve().parent.parent / "shedgame" / "cards.toml"


pytestmark = pytest.mark.usefixtures("race21")


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    return race21_run(tmp_path_factory)


def copy_of(base: Path, tmp_path: Path, name: str = "run") -> Path:
    run = tmp_path / name
    shutil.copytree(base, run, symlinks=True)
    return run


# ------------------------------------------------------------------ item 1: the run's own cards
def without_the_third_rank(text: str) -> str:
    """The shed list with its rank "3" left out: 48 cards, so every deal moves."""
    edited = text.replace('[[rank]]\nname = "3"\n', "", 1)
    assert edited != text
    return edited


def shed_run(tmp_path: Path, n: int = 30) -> tuple[Path, Path]:
    cards = tmp_path / "my-cards.toml"
    cards.write_bytes(SHED_CARDS.read_bytes())
    run = tmp_path / "shed-run"
    r = balance("simulate", "--game", "shed", "--set", f"cards={cards}", "-n", n, "--seed", 3, "--out", run, "--quiet")
    assert r.exit_code == 0, r.output
    return run, cards


def transcript(run: Path, *args) -> str:
    r = balance("replay", run, *args)
    assert r.exit_code == 0, r.output
    # the game's lines only: on a cold compile cache the first replay also says it is compiling the engine
    return "".join(line for line in r.output.splitlines(keepends=True) if not line.startswith("compiling "))


def as_written_before_copies(run: Path) -> None:
    """The folder as balance wrote it before run folders kept their card lists."""
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["config"].pop("card_files", None)
    manifest_file.write_manifest(run, manifest)
    shutil.rmtree(run / "cards", ignore_errors=True)


def test_the_folder_keeps_a_copy_of_each_card_list_it_played_named_by_content(tmp_path):
    run, cards = shed_run(tmp_path)
    files = json.loads((run / "manifest.json").read_text())["config"]["card_files"]
    sha = json.loads((run / "manifest.json").read_text())["config"]["card_list"]["sha256"]
    assert files == [{"file": f"cards/{sha[:16]}.toml", "sha256": sha, "from": str(cards)}]
    assert (run / files[0]["file"]).read_bytes() == cards.read_bytes()


def test_replay_plays_the_cards_the_run_played_after_the_card_file_is_edited(tmp_path):
    run, cards = shed_run(tmp_path)
    before = transcript(run, "--index", 0)
    cards.write_text(without_the_third_rank(cards.read_text()))
    assert transcript(run, "--index", 0) == before  # the folder's copy, not the edited file
    cards.unlink()
    assert transcript(run, "--index", 0) == before  # nor does it need the file at all


def test_an_edited_copy_in_the_folder_is_refused_naming_it(tmp_path):
    run, _ = shed_run(tmp_path)
    copy = json.loads((run / "manifest.json").read_text())["config"]["card_files"][0]["file"]
    (run / copy).write_text(without_the_third_rank((run / copy).read_text()))
    line = one_line_error(balance("replay", run, "--index", 0))
    assert copy in line and "damaged or edited" in line and "not the card list the run played" in line, line


def test_a_folder_without_a_copy_refuses_a_card_file_edited_since_naming_it(tmp_path):
    run, cards = shed_run(tmp_path)
    before = transcript(run, "--index", 0)
    as_written_before_copies(run)
    assert transcript(run, "--index", 0) == before  # the file as it was: still replayed
    cards.write_text(without_the_third_rank(cards.read_text()))
    line = one_line_error(balance("replay", run, "--index", 0))
    assert str(cards) in line and "not the card list" in line and "sha256" in line, line
    assert "put back the file the run played" in line and f"--set cards={cards}" in line, line


def test_resuming_a_folder_without_a_copy_gives_it_one(tmp_path):
    run, cards = shed_run(tmp_path)
    before = transcript(run, "--index", 0)
    as_written_before_copies(run)
    r = balance("simulate", "--game", "shed", "--set", f"cards={cards}", "-n", 30, "--seed", 3, "--out", run, "--quiet")
    assert r.exit_code == 0, r.output
    assert len(json.loads((run / "manifest.json").read_text())["config"]["card_files"]) == 1
    cards.write_text(without_the_third_rank(cards.read_text()))
    assert transcript(run, "--index", 0) == before


def test_an_impact_variants_edited_card_list_is_refused_naming_it(tmp_path):
    run = tmp_path / "impact"
    r = balance("impact", "--game", "shed", "--cards", "3", "-n", 20, "--seed", 3, "--out", run, "--quiet")
    assert r.exit_code == 0, r.output
    manifest = json.loads((run / "manifest.json").read_text())
    own = manifest["config"]["variants"][1]["varied"]["file"]
    assert {"file": own, "sha256": manifest["config"]["variants"][1]["card_list"]["sha256"], "from": own} \
        in manifest["config"]["card_files"]  # held where it is, not copied again
    before = transcript(run, "--variant", 1, "--index", 0)
    (run / own).write_text((run / own).read_text().replace('name = "4"', 'name = "4"\neffects = [{op = "skip"}]', 1))
    line = one_line_error(balance("replay", run, "--variant", 1, "--index", 0))
    assert own in line and "not the card list the run played" in line, line
    assert before  # the unedited variant replayed


# ------------------------------------------------------------------ item 5: a game the run did not play
def test_replay_refuses_an_index_the_run_did_not_play(base_run):
    line = one_line_error(balance("replay", base_run, "--index", 3000))
    assert "--index" in line and "3000 is not a game of" in line and "allowed: 0..2999" in line, line
    transcript(base_run, "--index", 2999)


@pytest.mark.parametrize("option", [("--policy-param", "epsilon=1"), ("--set", "target=25"), ("--players", "3"),
                                    ("--game", "overtime")])
def test_replay_of_a_folder_refuses_settings_it_would_not_play(base_run, option):
    # the run's own settings are replayed: another policy parameter, rule or count is refused, never ignored
    line = one_line_error(balance("replay", base_run, "--index", 0, *option))
    assert option[0] in line and "allowed:" in line, line


# ------------------------------------------------------------------ item 3: links are never followed
def snapshot(path: Path):
    """Everything at `path` (a file's bytes, a folder's files and folders), to see that nothing changed."""
    if path.is_file():
        return path.read_bytes()
    return {p.relative_to(path).as_posix(): (p.read_bytes() if p.is_file() else None) for p in sorted(path.rglob("*"))}


LINKED = ["parts/_staging", "parts/cards", "parts/games", "parts", ".lock", "chunks.jsonl", "manifest.json",
          "summary.json", "report.html", "cards"]


def link_out(run: Path, entry: str, victim_root: Path) -> Path:
    """Move `entry` of the folder out (or make one) and leave a link to it in its place."""
    victim = victim_root / entry.replace("/", "-")
    src = run / entry
    if src.exists():
        shutil.move(src, victim)
    elif entry == ".lock":
        victim.write_text("someone else's file\n")
    else:
        victim.mkdir()
    if victim.is_dir():  # something of someone else's in it, that a writer emptying the folder would delete
        (victim / "keep.txt").write_text("someone else's file\n")
        (victim / "sub").mkdir(exist_ok=True)
        (victim / "sub" / "keep.txt").write_text("someone else's file\n")
    os.symlink(victim, src)
    return victim


@pytest.mark.parametrize("command", ["resume", "report", "replay"])
@pytest.mark.parametrize("entry", LINKED)
def test_a_folder_holding_a_link_is_refused_and_what_it_points_to_is_left_alone(tmp_path, base_run, entry, command):
    run = copy_of(base_run, tmp_path)
    victims = tmp_path / "elsewhere"
    victims.mkdir()
    victim = link_out(run, entry, victims)
    before = snapshot(victim)
    args = {"resume": simulate_args(run, 4000, 1000, seed=5), "report": ["report", run],
            "replay": ["replay", run, "--index", 0]}[command]
    line = one_line_error(balance(*args))
    assert f"{run / entry}:" in line and "symbolic link" in line and "never followed" in line, line
    assert snapshot(victim) == before


def test_a_linked_part_is_refused_by_report_and_resume(tmp_path, base_run):
    run = copy_of(base_run, tmp_path)
    name = "parts/seats/v0000-i000000001000-n000001000.parquet"
    outside = tmp_path / "part.parquet"
    shutil.move(run / name, outside)
    os.symlink(outside, run / name)
    before = outside.read_bytes()
    line = one_line_error(balance("report", run))
    assert name in line and "symbolic link" in line, line
    line = one_line_error(balance(*simulate_args(run, 4000, 1000, seed=5)))
    assert name in line and "symbolic link" in line, line
    assert outside.read_bytes() == before


def test_the_folder_itself_may_be_a_link(tmp_path, base_run):
    run = copy_of(base_run, tmp_path)
    link = tmp_path / "latest"
    os.symlink(run, link)
    assert balance("report", link).exit_code == 0
    assert balance(*simulate_args(link, 4000, 1000, seed=5)).exit_code == 0
    transcript(link, "--index", 3999)


# ------------------------------------------------------------------ item 4: no blocking, no unbounded read
def test_a_manifest_that_is_a_named_pipe_is_refused_without_waiting_on_it(tmp_path, base_run):
    run = copy_of(base_run, tmp_path)
    pipe = run / "manifest.json"
    pipe.unlink()
    os.mkfifo(pipe)
    fed = []

    def feed():  # a command that opens the pipe to read it would wait for ever: this gives it "{}" and an end
        fd = os.open(pipe, os.O_WRONLY)  # waits for a reader
        fed.append(True)
        try:
            os.write(fd, b"{}")
        except BrokenPipeError:  # released by the test itself: nobody reads
            pass
        os.close(fd)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        line = one_line_error(balance("report", run))
        assert "manifest.json" in line and "named pipe" in line, line
        assert not fed  # never opened
    finally:
        os.close(os.open(pipe, os.O_RDONLY | os.O_NONBLOCK))  # lets the feeder go
        feeder.join()


def _limit_memory():  # on a regression, a child that reads /dev/zero stops at 2 GB instead of taking the machine
    resource.setrlimit(resource.RLIMIT_DATA, (2 * 2**30, 2 * 2**30))


def test_a_log_linked_to_dev_zero_is_refused_before_it_is_read(tmp_path, base_run):
    run = copy_of(base_run, tmp_path)
    (run / "chunks.jsonl").unlink()
    os.symlink("/dev/zero", run / "chunks.jsonl")
    proc = child("report", run, preexec_fn=_limit_memory)
    out, err = proc.communicate()
    lines = [x for x in err.splitlines() if x.strip()]
    assert proc.returncode == 2 and len(lines) == 1, err[-2000:]
    assert "chunks.jsonl" in lines[0] and "/dev/zero" in lines[0] and "symbolic link" in lines[0], lines[0]


@pytest.mark.parametrize("name,cap", [("chunks.jsonl", "MAX_LOG_BYTES"), ("summary.json", "MAX_RESULT_BYTES"),
                                      ("manifest.json", "MAX_MANIFEST_BYTES")])
def test_a_file_over_its_kinds_cap_is_refused_naming_it(tmp_path, base_run, monkeypatch, name, cap):
    run = copy_of(base_run, tmp_path)
    monkeypatch.setattr(folder_entries, cap, 200)
    size = (run / name).stat().st_size
    for args in (["report", run], ["replay", run, "--index", 0]):
        line = one_line_error(balance(*args))
        assert f"{run / name}: {size:,} bytes, larger than the 200 bytes allowed for it" in line, line


def test_read_entry_reads_at_most_its_cap_and_never_through_a_link(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "summary.json").write_bytes(b"x" * 100)
    assert folder_entries.read_entry(folder, "summary.json", cap=100) == b"x" * 100
    with pytest.raises(folder_entries.EntryRefused, match="larger than the 99 bytes"):
        folder_entries.read_entry(folder, "summary.json", cap=99)
    os.symlink(folder / "summary.json", folder / "stopping.json")
    with pytest.raises(folder_entries.EntryRefused, match="symbolic link"):
        folder_entries.read_entry(folder, "stopping.json")
    os.mkfifo(folder / "ladder.json")
    with pytest.raises(folder_entries.EntryRefused, match="named pipe"):  # opened without blocking, then refused
        folder_entries.read_entry(folder, "ladder.json")
    (folder / "parts").mkdir()
    os.symlink(tmp_path, folder / "parts" / "games")
    (tmp_path / "x.parquet").write_bytes(b"p")
    with pytest.raises(folder_entries.EntryRefused, match="parts/games: a symbolic link"):
        folder_entries.read_entry(folder, "parts/games/x.parquet")


# ------------------------------------------------------------------ item 10: the repair hint names the copy
def test_the_repair_hint_of_a_copied_folder_names_the_copy(tmp_path):
    made = tmp_path / "made"
    proc = child(*simulate_args(made, 3000, 1000, seed=5))  # a process of its own: the manifest records its command
    assert proc.wait() == 0, proc.stderr.read()
    run = copy_of(made, tmp_path, "my copy")
    part = run / "parts" / "games" / "v0000-i000000001000-n000001000.parquet"
    part.write_bytes(part.read_bytes()[:100])
    line = one_line_error(balance("report", run))
    assert f"--out '{run}'" in line and str(made) not in line, line
    hint = line.split("on this folder: ", 1)[1].rstrip(")")
    import shlex

    argv = shlex.split(hint)
    assert argv[argv.index("--out") + 1] == str(run)
    r = balance(*argv[1:])  # the hint, as printed, repairs the copy
    assert r.exit_code == 0, r.output
    assert balance("report", run).exit_code == 0


# ------------------------------------------------------------------ a run folder's own copy of a ladder
@pytest.mark.parametrize("content", ["{not json", '{"kind": "ladder", "schema_version": 2}', "x" * (5 * 2**20)],
                         ids=["not-json", "fields-missing", "too-big"])
def test_a_damaged_ladder_json_in_the_run_folder_is_refused_not_left_out(tmp_path, base_run, content):
    """A ladder.json copied into a run folder is part of it: a damaged one stops the report with one line
    naming it and how to recover, instead of a report that silently lacks the ladder. A damaged one beside
    the run folder is passed over (nothing near a run fails its report)."""
    run = copy_of(base_run, tmp_path)
    (tmp_path / "ladder.json").write_text(content)
    assert balance("report", run).exit_code == 0
    (run / "ladder.json").write_text(content)
    line = one_line_error(balance("report", run))
    assert "ladder.json" in line and "copy it again" in line and "remove it from the run folder" in line
