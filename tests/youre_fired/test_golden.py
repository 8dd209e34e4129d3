"""Replayed games (a duel, a team game) decoded into rulebook words match their golden transcripts.

Regenerate (after a deliberate rules change, bumping SPEC.version):
    PYTHONPATH=.:tests python -c "from youre_fired.test_golden import write; write()"
"""
from pathlib import Path

from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.youre_fired import SPEC

GOLDEN = Path(__file__).parent / "golden" / "duel_greedy_seed7_game3.txt"
# issue 19's team game: a Boss play that fails (a bluff) and one that fires the other team's last Boss
GOLDEN_TEAMS = Path(__file__).parent / "golden" / "teams_greedy_seed3_game10.txt"
# issue 40: a card fired from a break room replaced at once, the Fall Guy replaced, a Manager's redirect
# and the reshuffling player's hand passed with the Boss in it (game 41 until the cards were read in their
# canonical order, issue 40 item 2; game 7 is the first game of seed 3 that shows all four)
BOSS_PASSED_GAME = 7
GOLDEN_BOSS_PASSED = Path(__file__).parent / "golden" / f"teams_greedy_seed3_game{BOSS_PASSED_GAME}.txt"


def transcript(players: int = 2, seed: int = 7, index: int = 3, **user) -> str:
    data = SPEC.load_data(user)
    events, row, seats = Engine(SPEC, [resolve_policy(SPEC, "greedy")]).replay(data.tables, players, seed, index)
    return "\n".join(SPEC.decode_trace(events, data, players)) + "\n"


def teams_transcript(index: int = 10) -> str:
    return transcript(4, 3, index, teams=True)


def write():
    GOLDEN.write_text(transcript())
    GOLDEN_TEAMS.write_text(teams_transcript())
    GOLDEN_BOSS_PASSED.write_text(teams_transcript(BOSS_PASSED_GAME))


def test_golden_transcript():
    assert transcript().splitlines() == GOLDEN.read_text().splitlines()


def test_golden_team_transcript():
    assert teams_transcript().splitlines() == GOLDEN_TEAMS.read_text().splitlines()


def test_golden_team_transcript_with_a_boss_passed():
    text = teams_transcript(BOSS_PASSED_GAME)
    assert ", a Boss among them." in text and "is fired from Player 2's break room.\nPlayer 2 draws" in text
    assert text.splitlines() == GOLDEN_BOSS_PASSED.read_text().splitlines()


def test_transcript_ends_with_the_result():
    assert transcript().strip().splitlines()[-1].startswith("Game over")


def test_transcript_prints_the_runs_own_card_names(tmp_path):
    """Issue 19: a replay with a designer's card list prints that list's names.
    The same cards renamed play the same game; its transcript is the default
    one with every name replaced, and no default name is left in it."""
    import re

    from balance.simcore.youre_fired.cards import CARDS_FILE

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
