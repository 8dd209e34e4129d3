"""A replayed game decoded into rulebook words matches its golden transcript.

Regenerate (after a deliberate rules change, bumping SPEC.version):
    python -c "from tests.sickdays_solo.test_golden import write; write()"
"""
from pathlib import Path

import numpy as np

from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.sickdays_solo import SPEC

GOLDEN = Path(__file__).parent / "golden" / "level4_seed7_game3.txt"


def transcript() -> str:
    data = SPEC.load_data({"level": 4})
    events, row, seats = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).replay(data.tables, 1, 7, 3)
    return "\n".join(SPEC.decode_trace(events, data, 1)) + "\n"


def write():
    GOLDEN.write_text(transcript())


def test_golden_transcript():
    assert transcript() == GOLDEN.read_text()


def test_replay_matches_batch():
    tables = SPEC.load_data({"level": 4}).tables
    eng = Engine(SPEC, [resolve_policy(SPEC, "greedy")])
    _, row, seats = eng.replay(tables, 1, 7, 3)
    res = eng.run(tables, 1, 7, np.array([3]), 77)
    np.testing.assert_array_equal(res.game_out[0], row)
