"""Golden transcript: a replayed 4-player greedy game in which a reaction pile resolves.

Regenerate after an intended rules change with
    python -m tests.overtime.test_golden
"""
from pathlib import Path

import numpy as np

from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.overtime import SPEC
from balance.simcore.overtime import constants
from .helpers import DATA, NAMES, TABLES

GOLDEN = Path(__file__).parent / "golden" / "greedy_4p_seed2026.txt"
SEED = 2026
COL_PILES = SPEC.game_column_names.index("reaction_piles")


def pick_game():
    eng = Engine(SPEC, [resolve_policy(SPEC, "greedy")])
    r = eng.run(TABLES, 4, SEED, np.arange(40), len(NAMES))
    return int(np.flatnonzero(r.game_out[:, COL_PILES] > 0)[0])


def transcript():
    idx = pick_game()
    eng = Engine(SPEC, [resolve_policy(SPEC, "greedy")])
    ev, game_row, seat_rows = eng.replay(TABLES, 4, SEED, idx)
    lines = [f"# overtime, 4 players, greedy, seed {SEED}, game {idx}"]
    lines += SPEC.decode_trace(ev, DATA, 4)
    return lines, ev


def test_golden_transcript():
    lines, ev = transcript()
    assert (ev[:, 0] == constants.EV_REACT).any() and (ev[:, 0] == constants.EV_RESOLVE).sum() > (ev[:, 0] == constants.EV_PLAY).sum() - 1
    want = GOLDEN.read_text().splitlines()
    assert len(lines) == len(want)
    for i, (got, exp) in enumerate(zip(lines, want)):
        assert got == exp, f"line {i + 1}"


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text("\n".join(transcript()[0]) + "\n")
    print(GOLDEN)
