"""A corruption fuzz of run folders (seeded, so every case is the same on
every run): one or two random damages to parts, records, the manifest, the
lock or the staging folder, then `balance report` and a resume. Each is
either refused (exit 2, one line) or gives the clean run's numbers; a report
of a folder that lost records may be partial, but then it says so
(`complete: false`). A resume ends with the clean run's summary and rows, or
refuses because the manifest itself is damaged. Never a silently changed result."""
import json
import random
import shutil

import polars as pl
import pytest

from balance.analysis import folder_entries

from runkit import balance, one_line_error, race21_registered, same_rows, simulate_args, summary

N, CHUNK, SEED = 4000, 1000, 8
CASES = 30


pytestmark = pytest.mark.usefixtures("race21")


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    out = tmp_path_factory.mktemp("fuzz") / "run"
    with race21_registered():
        assert balance(*simulate_args(out, N, CHUNK, seed=SEED)).exit_code == 0
    return out


def parts(run):
    return sorted(p for kind in folder_entries.TABLES for p in (run / "parts" / kind).glob("*.parquet"))


def flip(path, rng):
    data = bytearray(path.read_bytes())
    i = rng.randrange(len(data))
    data[i] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def truncate(path, rng):
    data = path.read_bytes()
    path.write_bytes(data[: rng.randrange(len(data))])


def log_lines(run):
    return (run / "chunks.jsonl").read_text().splitlines(keepends=True)


def m_part_truncate(run, rng):
    truncate(rng.choice(parts(run)), rng)


def m_part_flip(run, rng):
    flip(rng.choice(parts(run)), rng)


def m_part_delete(run, rng):
    rng.choice(parts(run)).unlink()


def m_part_swap(run, rng):  # another chunk's part: valid Parquet, sound columns, wrong games
    kind = rng.choice(folder_entries.TABLES)
    a, b = rng.sample(sorted((run / "parts" / kind).glob("*.parquet")), 2)
    shutil.copyfile(a, b)


def m_part_foreign(run, rng):
    pl.DataFrame({"game_index": [1, 2, 3], "won": [1, 1, 1]}).write_parquet(rng.choice(parts(run)))


def m_extra_ours(run, rng):  # a part no record names, named as ours (a killed chunk's)
    kind = rng.choice(folder_entries.TABLES)
    src = rng.choice(sorted((run / "parts" / kind).glob("*.parquet")))
    shutil.copyfile(src, run / "parts" / kind / folder_entries.part_file(0, rng.randrange(N), rng.randrange(1, N)))


def m_extra_foreign(run, rng):
    kind = rng.choice(folder_entries.TABLES)
    (run / "parts" / kind / "notes.parquet").write_bytes(rng.randbytes(rng.randrange(1, 5000)))


def m_log_flip(run, rng):
    flip(run / "chunks.jsonl", rng)


def m_log_truncate(run, rng):
    truncate(run / "chunks.jsonl", rng)


def m_log_duplicate(run, rng):
    lines = log_lines(run)
    lines.insert(rng.randrange(len(lines) + 1), rng.choice(lines))
    (run / "chunks.jsonl").write_text("".join(lines))


def m_log_drop(run, rng):
    lines = log_lines(run)
    del lines[rng.randrange(len(lines))]
    (run / "chunks.jsonl").write_text("".join(lines))


def m_log_shuffle(run, rng):
    lines = log_lines(run)
    rng.shuffle(lines)
    (run / "chunks.jsonl").write_text("".join(lines))


def m_manifest_flip(run, rng):
    flip(run / "manifest.json", rng)


def m_manifest_truncate(run, rng):
    truncate(run / "manifest.json", rng)


def m_staging_junk(run, rng):
    (run / "parts" / folder_entries.STAGING / f"seats-{folder_entries.part_file(0, 0, 10)}.999.tmp").write_bytes(rng.randbytes(100))


def m_lock_junk(run, rng):  # a lock file left by a dead writer, with garbage in it
    (run / folder_entries.LOCK).write_bytes(rng.randbytes(rng.randrange(0, 200)))


MUTATIONS = [m_part_truncate, m_part_flip, m_part_delete, m_part_swap, m_part_foreign, m_extra_ours,
             m_extra_foreign, m_log_flip, m_log_truncate, m_log_duplicate, m_log_drop, m_log_shuffle,
             m_manifest_flip, m_manifest_truncate, m_staging_junk, m_lock_junk]
MANIFEST_DAMAGE = {m_manifest_flip, m_manifest_truncate}


def pick(seed):
    rng = random.Random(seed)
    # the first cases take each damage once, alone; the rest combine two at random
    if seed < len(MUTATIONS):
        return rng, [MUTATIONS[seed]]
    return rng, rng.sample(MUTATIONS, 2)


@pytest.mark.parametrize("seed", range(CASES), ids=lambda s: "+".join(m.__name__[2:] for m in pick(s)[1]))
def test_damage_is_repaired_or_refused_never_a_changed_result(tmp_path, base, seed):
    clean = summary(base)
    rng, damage = pick(seed)
    run = tmp_path / "run"
    shutil.copytree(base, run)
    for m in damage:
        m(run, rng)

    r = balance("report", run)
    if r.exit_code == 0:
        s = summary(run)
        assert s == clean or (s["complete"] is False and s["n_games"] < clean["n_games"]), damage
    else:
        one_line_error(r)

    r = balance(*simulate_args(run, N, CHUNK, seed=SEED))
    if r.exit_code == 0:
        assert summary(run) == clean and same_rows(run, base), damage
        assert json.loads((run / "manifest.json").read_text())["n_games"] == N
    else:
        line = one_line_error(r)
        assert MANIFEST_DAMAGE & set(damage) and "manifest.json" in line, line
