"""A replayed 2-player game decoded into rulebook words matches its golden transcript.

Regenerate (after a deliberate rules change, bumping SPEC.version):
    PYTHONPATH=.:tests python -c "from youre_fired.test_golden import write; write()"
"""
from pathlib import Path

from simcore.batch import Engine, resolve_policy
from simcore.youre_fired import SPEC

GOLDEN = Path(__file__).parent / "golden" / "duel_greedy_seed7_game3.txt"


def transcript() -> str:
    data = SPEC.load_data({})
    events, row, seats = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).replay(data.tables, 2, 7, 3)
    return "\n".join(SPEC.decode_trace(events, data, 2)) + "\n"


def write():
    GOLDEN.write_text(transcript())


def test_golden_transcript():
    assert transcript().splitlines() == GOLDEN.read_text().splitlines()


def test_transcript_ends_with_the_result():
    assert transcript().strip().splitlines()[-1].startswith("Game over")


def test_transcript_prints_the_runs_own_card_names(tmp_path):
    """Issue 19: a replay with a designer's card list prints that list's names.
    The same cards renamed play the same game; its transcript is the default
    one with every name replaced, and no default name is left in it."""
    import re

    from simcore.youre_fired.cards import CARDS_FILE

    data = SPEC.load_data({})
    renamed = {n: f"{n.upper()} v2" for n in data.card_names}
    text = CARDS_FILE.read_text()
    for old, new in renamed.items():
        text = text.replace(f'name = "{old}"', f'name = "{new}"')
    path = tmp_path / "renamed.toml"
    path.write_text(text)
    mine = SPEC.load_data({"cards": str(path)})
    assert list(mine.card_names) == list(renamed.values())
    events, row, seats = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).replay(mine.tables, 2, 7, 3)
    lines = SPEC.decode_trace(events, mine, 2)
    names = re.compile("|".join(re.escape(n) for n in sorted(renamed, key=len, reverse=True)))
    assert lines == [names.sub(lambda m: renamed[m.group(0)], x) for x in transcript().splitlines()]
    shown = "\n".join(lines)
    assert not re.search(r"\b(Axe Man|Fall Guy|Secretary|Lawyer)\b", shown)
    assert "AXE MAN v2" in shown and "BOSS v2" in shown
