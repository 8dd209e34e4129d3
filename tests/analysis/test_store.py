"""balance.analysis.store: commit records, the one-writer lock, what readers trust,
the layout plain pandas/polars read, and old flat folders (read, then
migrated by the next writer)."""
import json
import os
import shutil
import subprocess
import sys
import threading

import pandas as pd
import polars as pl
import pytest

from balance.analysis import chunk_log, execution, folder_entries, folder_lock, manifest_file, runs
from balance.analysis.frames import load_cards, load_games, load_seats, part_files, windows
from balance.analysis.summary import summarize
from balance.simcore.batch import resolve_policy
from balance.simcore.errors import BalanceError
from balance.simcore.jit import SOURCE_HASH
from toygame import SPEC

N, CHUNK = 2500, 500


def config(n=N, chunk=CHUNK, seed=9):
    return runs.make_config(SPEC, {}, 2, [resolve_policy(SPEC, "greedy", {"epsilon": 0.3})], seed, n, chunk)


def play(folder, n=N, chunk=CHUNK, seed=9, notice=None):
    cfg = config(n, chunk, seed)
    runs.open_run(folder, SPEC, cfg, n, "balance simulate (test)", notice=notice)
    try:
        execution.execute(folder, SPEC, cfg, n)
    finally:
        runs.close_run(folder)
    return folder


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    return play(tmp_path_factory.mktemp("clean") / "run")


def same_summary(a, b):
    drop = {"generated"}
    sa, sb = summarize(a, SPEC), summarize(b, SPEC)
    return {k: v for k, v in sa.items() if k not in drop} == {k: v for k, v in sb.items() if k not in drop}


def copy(src, tmp_path, name="run"):
    dst = tmp_path / name
    shutil.copytree(src, dst)
    return dst


def lines(run):
    return (run / "chunks.jsonl").read_text().splitlines()


# ---------------------------------------------------------------- records
def test_a_record_round_trips_and_any_edit_makes_it_damaged(clean):
    log = chunk_log.read_log(clean)
    assert len(log.records) == N // CHUNK and not log.damaged and not log.torn
    line = lines(clean)[1]
    rec = chunk_log.parse_record(json.loads(line), 2)
    assert rec.to_line() == line and rec.first == CHUNK and rec.parts["seats"].rows == 2 * CHUNK
    obj = json.loads(line)
    for key, value in (("first", CHUNK + 1), ("games", CHUNK - 1), ("seconds", 9.0), ("variant", 1)):
        assert chunk_log.parse_record({**obj, key: value}, 2) is None, key
    obj["parts"]["games"]["rows"] += 1
    assert chunk_log.parse_record(obj, 2) is None


def test_readers_trust_records_only(clean, tmp_path):
    run = copy(clean, tmp_path)
    stray = run / "parts" / "games" / folder_entries.part_file(0, N, CHUNK)  # a chunk killed after its parts moved in
    shutil.copyfile(run / "parts" / "games" / folder_entries.part_file(0, 0, CHUNK), stray)
    (run / "parts" / "seats" / "notes.parquet").write_bytes(b"not ours")
    assert stray not in part_files(run, "games")
    assert load_games(run).equals(load_games(clean)) and load_seats(run).equals(load_seats(clean))
    assert sum(g.height for g, _ in windows(run, 1000)) == N
    assert same_summary(run, clean)


def test_a_torn_last_line_is_not_a_record_and_the_next_writer_drops_it(clean, tmp_path):
    run = copy(clean, tmp_path)
    text = (run / "chunks.jsonl").read_text()
    last = lines(run)[-1]
    (run / "chunks.jsonl").write_text(text[: -len(last) - 1] + last[: len(last) // 2])  # an append cut short
    assert load_games(run).height == N - CHUNK
    play(run)
    assert (run / "chunks.jsonl").read_text().endswith("\n") and len(lines(run)) == N // CHUNK
    assert same_summary(run, clean)


def test_a_duplicated_line_counts_once_and_overlapping_records_are_refused_then_repaired(clean, tmp_path):
    run = copy(clean, tmp_path)
    with open(run / "chunks.jsonl", "a") as fh:
        fh.write(lines(run)[2] + "\n")
    assert load_games(run).equals(load_games(clean))
    # a record of games 250..499 (another chunk size) beside the record of 0..499: never counted twice
    src = play(tmp_path / "src", n=N, chunk=250)
    rec = next(r for r in chunk_log.read_log(src).records if r.first == 250)
    for kind in folder_entries.TABLES:
        shutil.copyfile(src / rec.parts[kind].file, run / rec.parts[kind].file)
    with open(run / "chunks.jsonl", "a") as fh:
        fh.write(rec.to_line() + "\n")
    with pytest.raises(BalanceError, match=r"both record games of variant 0, games 250\.\.499"):
        load_games(run)
    with pytest.raises(BalanceError, match="both record games"):
        summarize(run, SPEC)
    notices = []
    play(run, notice=notices.append)
    assert any("both record games" in x for x in notices)
    assert same_summary(run, clean) and load_games(run).equals(load_games(clean))


def test_records_of_another_configuration_are_refused(clean, tmp_path):
    run = copy(clean, tmp_path)
    other = play(tmp_path / "other", seed=10)
    shutil.copyfile(other / "manifest.json", run / "manifest.json")  # a sound manifest, but not this folder's
    with pytest.raises(BalanceError, match="written for another configuration than manifest.json's"):
        load_games(run)


# ---------------------------------------------------------------- the lock
def test_the_lock_refuses_a_second_holder_names_it_and_is_reentrant_for_its_own(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    first = folder_lock.hold(run, "--out", "balance simulate -n 5")
    assert folder_lock.hold(run) is first  # the holder may take it again (open_run, then execute)
    info = json.loads((run / folder_entries.LOCK).read_text())
    assert info["pid"] == os.getpid() and info["command"] == "balance simulate -n 5"
    with pytest.raises(BalanceError, match=rf"is being written by another balance process \(pid {os.getpid()} on "
                                           r".*balance simulate -n 5\); wait for it to finish"):
        folder_lock.FolderLock(run, "--out")  # a second open of the lock file, as another process would make
    folder_lock.release(run)
    assert not (run / folder_entries.LOCK).exists()
    again = folder_lock.FolderLock(run, "--out")
    again.release()


def test_a_lock_file_left_by_a_dead_process_is_taken_over(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = json.dumps({"pid": int(dead.stdout), "host": "here", "started": "then", "command": "balance simulate"})
    (run / folder_entries.LOCK).write_text(stale)
    lock = folder_lock.FolderLock(run, "--out")
    assert lock.previous == stale and json.loads((run / folder_entries.LOCK).read_text())["pid"] == os.getpid()
    lock.release()


def test_write_probes_of_concurrent_callers_do_not_collide(tmp_path):
    errors = []

    def probe():
        try:
            for _ in range(30):
                runs.check_writable(tmp_path, 0)
        except BalanceError as exc:  # a shared probe name: one caller unlinks the other's probe
            errors.append(exc)

    threads = [threading.Thread(target=probe) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and not list((tmp_path / "parts").iterdir())


# ---------------------------------------------------------------- the layout
def test_each_table_folder_reads_with_plain_pandas_and_polars(clean, tmp_path):
    run = copy(clean, tmp_path)
    (run / "parts" / folder_entries.STAGING / "games-x.parquet.123.tmp").write_bytes(b"half written")
    for kind, loader in (("games", load_games), ("seats", load_seats), ("cards", load_cards)):
        ours = loader(run).to_pandas()
        plain = pd.read_parquet(run / "parts" / kind)
        assert plain.equals(ours), kind
        assert pl.read_parquet(run / "parts" / kind).equals(loader(run)), kind
    assert pd.read_parquet(run / "parts" / "games")["game_index"].tolist() == list(range(N))


def to_old_layout(run):
    """A folder as balance wrote it before records: flat parts named
    <kind>-v…-i…-n….parquet (games written last), a timing-only chunks.jsonl,
    no layout or checksum in the manifest, engine_hash the whole-engine hash."""
    recs = chunk_log.read_log(run).records
    for kind in folder_entries.TABLES:
        for p in (run / "parts" / kind).glob("*.parquet"):
            p.rename(run / "parts" / f"{kind}-{p.name}")
        (run / "parts" / kind).rmdir()
    shutil.rmtree(run / "parts" / folder_entries.STAGING, ignore_errors=True)
    (run / "chunks.jsonl").write_text("".join(json.dumps({"variant": r.variant, "chunk": r.chunk, "first": r.first,
                                                          "games": r.count, "seconds": r.seconds}) + "\n"
                                              for r in recs))
    m = json.loads((run / "manifest.json").read_text())
    m.pop("checksum"), m.pop("layout")
    m["config"]["engine_hash"] = SOURCE_HASH
    (run / "manifest.json").write_text(json.dumps(m))
    return run


def test_an_old_folder_is_read_by_its_games_parts_and_migrated_by_the_next_writer(clean, tmp_path):
    old = to_old_layout(copy(clean, tmp_path))
    assert len(part_files(old, "games")) == N // CHUNK and same_summary(old, clean)
    # issue 17 item 1 in an old folder: seats and cards of a chunk whose games part never landed
    for kind in ("seats", "cards"):
        shutil.copyfile(old / "parts" / f"{kind}-{folder_entries.part_file(0, 0, CHUNK)}",
                        old / "parts" / f"{kind}-{folder_entries.part_file(0, N, CHUNK)}")
    assert load_seats(old).height == 2 * N and same_summary(old, clean)
    play(old, n=N + 700, chunk=300)
    assert not list((old / "parts").glob("*-v*.parquet"))  # nothing flat is left
    assert json.loads((old / "manifest.json").read_text())["layout"] == manifest_file.LAYOUT
    assert sum(r.migrated for r in chunk_log.read_log(old).records) == N // CHUNK
    bigger = play(tmp_path / "bigger", n=N + 700, chunk=300)
    assert same_summary(old, bigger)
    assert pd.read_parquet(old / "parts" / "seats").sort_values(["game_index", "seat"]).reset_index(drop=True).equals(
        pd.read_parquet(bigger / "parts" / "seats").sort_values(["game_index", "seat"]).reset_index(drop=True))


def test_an_old_folder_missing_a_seats_part_is_refused_by_readers_and_recomputed_by_a_writer(clean, tmp_path):
    """Issue 17 item 3: without the seats part, its games counted as losses, still `complete: true`."""
    old = to_old_layout(copy(clean, tmp_path))
    (old / "parts" / f"seats-{folder_entries.part_file(0, 1000, CHUNK)}").unlink()
    with pytest.raises(BalanceError, match=r"parts/seats-v0000-i000000001000-n000000500.parquet: missing"):
        summarize(old, SPEC)
    with pytest.raises(BalanceError, match="missing"):
        runs.check_parts(old, json.loads((old / "manifest.json").read_text()))
    notices = []
    play(old, notice=notices.append)
    assert any("seats-v0000-i000000001000-n000000500.parquet is missing" in x for x in notices)
    assert same_summary(old, clean)


def test_an_old_folder_with_a_damaged_part_is_recomputed_on_resume(clean, tmp_path):
    old = to_old_layout(copy(clean, tmp_path))
    part = old / "parts" / f"games-{folder_entries.part_file(0, 500, CHUNK)}"
    part.write_bytes(part.read_bytes()[:100])
    with pytest.raises(BalanceError, match="not a readable Parquet file"):
        runs.check_parts(old, json.loads((old / "manifest.json").read_text()))
    play(old)
    assert same_summary(old, clean)


def test_a_writer_refused_by_the_lock_never_deletes_the_folder_it_created(tmp_path, monkeypatch):
    """Two processes starting together on a new folder: one creates it, the
    other may take the lock first. The creator, refused, must not remove the
    folder the other is writing."""
    run = tmp_path / "run"

    def taken(run_dir, role="--out", command=""):
        (run_dir / "manifest.json").write_text("{}")  # the other process's files
        raise BalanceError(f"{role}: {run_dir} is being written by another balance process (pid 1 on there)")

    monkeypatch.setattr(folder_lock, "hold", taken)
    with pytest.raises(BalanceError, match="being written by another"):
        runs.open_run(run, SPEC, config(), N, "test")
    assert (run / "manifest.json").exists()


def test_a_refused_new_run_leaves_no_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(runs, "check_writable", lambda run_dir, need: (_ for _ in ()).throw(BalanceError("--out: full")))
    with pytest.raises(BalanceError, match="full"):
        runs.open_run(tmp_path / "run", SPEC, config(), N, "test")
    assert not (tmp_path / "run").exists()


def test_the_precision_tally_counts_committed_chunks_only(clean, tmp_path):
    run = copy(clean, tmp_path)
    for kind in ("seats", "games"):  # a killed chunk's parts, moved in but never recorded
        shutil.copyfile(run / "parts" / kind / folder_entries.part_file(0, 0, CHUNK), run / "parts" / kind / folder_entries.part_file(0, N, CHUNK))
    tally = execution.Tally(1, 2)
    tally.load(run, config())
    seats = load_seats(clean)
    assert tally.games[0] == N and tally.seat_won[0].tolist() == [
        int(seats.filter(pl.col("seat") == s)["won"].sum()) for s in (0, 1)]
