"""Golden transcript: a replayed 2-player greedy game, compared line by line.

Regenerate (after an intended rule change, with a version bump) with
BALANCE_REGOLD=1 python -m pytest tests/four_day_weekend/test_golden.py
"""
import os
from pathlib import Path


from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.four_day_weekend import SPEC

from .helpers import DATA, TABLES

GOLDEN = Path(__file__).parent / "golden" / "greedy-2p-seed2026-game7.txt"


def transcript() -> list[str]:
    eng = Engine(SPEC, [resolve_policy(SPEC, "greedy")])
    events, game_row, seat_rows = eng.replay(TABLES, 2, 2026, 7)
    lines = SPEC.decode_trace(events, DATA, 2)
    lines.append(f"# result: scores {[int(x) for x in seat_rows[:, 1]]}, won {[int(x) for x in seat_rows[:, 0]]}")
    return lines


def test_golden_transcript():
    lines = transcript()
    if os.environ.get("BALANCE_REGOLD") or not GOLDEN.exists():
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text("\n".join(lines) + "\n")
    expected = GOLDEN.read_text().splitlines()
    for i, (got, want) in enumerate(zip(lines, expected)):
        assert got == want, f"line {i + 1}"
    assert len(lines) == len(expected)
    assert any("Back To Work-ish" in x for x in lines)
    assert any("takes" in x and "Personal Discard row" in x for x in lines)


def test_a_designers_card_list_prints_its_own_names_and_kinds(tmp_path):
    """Issue 19: the transcript decodes with the run's cards. The default list
    renamed so that its order by name (the order cards are read in) is the
    default's reversed: every card id now names another card, and each printed
    '(kind)' must be that card's kind, not the default list's kind of the id."""
    import re

    blocks = (Path(DATA.cards.path).read_text()).split("[[card]]")
    n = len(blocks) - 1
    path = tmp_path / "reordered.toml"
    path.write_text("[[card]]".join([blocks[0]] + [b.replace('name = "', f'name = "{n - i:03d} ', 1)
                                                   for i, b in enumerate(blocks[1:])]))
    data = SPEC.load_data({"cards": str(path)})
    assert [x.split(" ", 1)[1] for x in data.card_names] == list(DATA.card_names)[::-1]
    eng = Engine(SPEC, [resolve_policy(SPEC, "greedy")])
    events, _, _ = eng.replay(data.tables, 2, 2026, 7)
    lines = SPEC.decode_trace(events, data, 2)
    kind_of = {f"{n - i:03d} {name}": kind for i, (name, kind) in enumerate(zip(DATA.card_names, DATA.info["kinds"]))}
    printed = re.findall(r"(?:dealt|draws|discards|takes|adds|puts) (.+?) \((excuse|activity|necessity|bonus)\)",
                         "\n".join(lines))
    assert {k for _, k in printed} == {"excuse", "activity", "necessity", "bonus"}
    wrong = [(name, kind) for name, kind in printed if kind_of[name] != kind]
    assert not wrong, wrong[:3]
