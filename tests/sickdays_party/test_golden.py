"""A replayed game decoded into rulebook words matches its golden transcript.

Regenerate (after a deliberate rules change, bumping SPEC.version):
    python -c "from tests.sickdays_party.test_golden import write; write()"
"""
from pathlib import Path

import numpy as np
import pytest

from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.sickdays_party import SPEC

GOLDEN = Path(__file__).parent / "golden" / "players4_seed7_game3.txt"
USER = {"reaction_median": [1.8, 2.2, 2.6, 3.0]}


@pytest.fixture(scope="module")
def engine():
    return Engine(SPEC, [resolve_policy(SPEC, "greedy")])


def transcript(engine=None) -> str:
    data = SPEC.load_data(USER)
    engine = engine or Engine(SPEC, [resolve_policy(SPEC, "greedy")])
    events, row, seats = engine.replay(data.tables, 4, 7, 3)
    return "\n".join(SPEC.decode_trace(events, data, 4)) + "\n"


def write():
    GOLDEN.write_text(transcript())


def test_golden_transcript(engine):
    assert transcript(engine) == GOLDEN.read_text()


def test_transcript_has_timestamps_and_replay_matches_batch(engine):
    text = transcript(engine)
    assert "[   " in text and " s] seat " in text and " plays " in text
    tables = SPEC.load_data(USER).tables
    _, row, seats = engine.replay(tables, 4, 7, 3)
    res = engine.run(tables, 4, 7, np.array([3]), 77)
    np.testing.assert_array_equal(res.game_out[0], row)
    np.testing.assert_array_equal(res.seat_out[0], seats)
