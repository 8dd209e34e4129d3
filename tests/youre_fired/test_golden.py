"""A replayed 2-player game decoded into rulebook words matches its golden transcript.

Regenerate (after a deliberate rules change, bumping SPEC.version):
    PYTHONPATH=.:tests python -c "from youre_fired.test_golden import write; write()"
"""
from pathlib import Path

from simcore.batch import Engine, resolve_policy
from simcore.youre_fired import SPEC

GOLDEN = Path(__file__).parent / "golden" / "duel_greedy_seed7_game3.txt"


def transcript() -> str:
    params = SPEC.resolve_params({})
    tables = SPEC.compile_tables(params)
    events, row, seats = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).replay(tables, 2, 7, 3)
    return "\n".join(SPEC.decode_trace(events, params, 2)) + "\n"


def write():
    GOLDEN.write_text(transcript())


def test_golden_transcript():
    assert transcript().splitlines() == GOLDEN.read_text().splitlines()


def test_transcript_ends_with_the_result():
    assert transcript().strip().splitlines()[-1].startswith("Game over")
