"""A card file's order is not data (issue 40, item 2).

Every registered game whose card list declares sections of card kinds
(`simcore.gamedata.CardSection`, not `ordered`) gets these tests with no code
of its own: its shipped card file written with the entries of those sections
shuffled must give the same kernel tables, the same card names in the same
order, the same card-list and content hashes, and the same games byte for
byte (random and greedy on a few hundred games, lookahead on a few), for one
fixed shuffle and, as a hypothesis property, for several more. Before the
loader read card files in a canonical order, a shuffled Overtime file played
other games (`balance compare --game overtime --b-set cards=shuffled.toml`:
+3.6 points [3.2, 4.0] for the same cards).

Sick Days keeps no card file: its deck is the printed one; of its rules
file's lists only `suits` could be reordered by a designer (a level keeps the
first N), and the kernels' tables do not depend on that order (test below).
"""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance.analysis.cardfile import dumps
from balance.simcore import registry
from balance.simcore.batch import Engine, resolve_policy
from balance.simcore.files import read_toml
from tests.fingerprints import shuffled_cards

# (policy, games); lookahead is slow: a few games
PLAYS = (("random", 300), ("greedy", 300), ("lookahead", 3))
SEED = 40


def _unordered(game: str):
    cards = registry.get(game).load_data({}).cards
    return [s for s in (cards.sections if cards is not None else ()) if not getattr(s, "ordered", False)]


def _card_games() -> list[str]:
    return [g for g in registry.names() if _unordered(g)]


def _same_data(a, b) -> None:
    assert list(a.card_names) == list(b.card_names)
    assert len(a.tables) == len(b.tables)
    for i, (x, y) in enumerate(zip(a.tables, b.tables)):
        assert np.array_equal(np.asarray(x), np.asarray(y)), f"table {i} differs"
    assert dict(a.info) == dict(b.info)
    assert a.card_list_hash == b.card_list_hash
    assert a.content_hash == b.content_hash


def _results(spec, data, policy: str, players: int, n: int):
    """The result arrays of games 0..n-1, as bytes (byte for byte: NaN, "not reached", equals itself)."""
    res = Engine(spec, [resolve_policy(spec, policy)]).run(data.tables, players, SEED, np.arange(n, dtype=np.int64),
                                                           len(data.card_names))
    return [(a.shape, a.dtype.str, np.ascontiguousarray(a).tobytes()) for a in (res.game_out, res.seat_out,
                                                                                 res.card_stats)]


def test_every_game_with_a_card_file_is_covered():
    """The three games with a card file are found from the registry (a new one joins by itself)."""
    assert {"overtime", "youre-fired", "four-day-weekend"} <= set(_card_games())


@pytest.mark.parametrize("game", _card_games())
def test_a_shuffled_card_file_plays_the_same_games(game, tmp_path):
    spec = registry.get(game)
    shipped = spec.load_data({})
    path = shuffled_cards(game, 1, tmp_path / "shuffled.toml")
    doc, own = read_toml(path), read_toml(Path(shipped.cards.path))
    for sec in _unordered(game):  # the file really is in another order, with the same entries
        names = [e[sec.key] for e in doc[sec.section]]
        assert sorted(names) == sorted(e[sec.key] for e in own[sec.section])
        assert len(names) < 2 or names != [e[sec.key] for e in own[sec.section]]
    mine = spec.load_data({"cards": str(path)})
    _same_data(shipped, mine)
    for policy, n in PLAYS:
        if spec.policy(policy) is None or spec.policy(policy).refused:
            continue
        players = spec.default_players
        assert _results(spec, shipped, policy, players, n) == _results(spec, mine, policy, players, n), \
            f"{policy}: other games"


@pytest.mark.parametrize("game", _card_games())
def test_the_shipped_file_is_in_the_canonical_order(game):
    """The shipped file reads in the order the engine uses: its card names, in
    file order, are the card ids' names."""
    from balance.simcore.gamedata import canonical_order

    data = registry.get(game).load_data({})
    doc = read_toml(Path(data.cards.path))
    for sec in _unordered(game):
        assert doc[sec.section] == canonical_order(doc[sec.section], sec.key), sec.section
    names = [e[s.key] for s in _unordered(game) for e in doc[s.section]]
    assert [n for n in data.card_names if n in set(names)] == names


@pytest.mark.parametrize("game", _card_games())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_any_shuffle_plays_the_same_games(game, seed, tmp_path):
    spec = registry.get(game)
    shipped = spec.load_data({})
    doc = read_toml(Path(shipped.cards.path))
    rng = random.Random(seed)
    for sec in _unordered(game):
        entries = list(doc[sec.section])
        rng.shuffle(entries)
        doc[sec.section] = entries
    path = tmp_path / f"shuffled-{seed}.toml"
    path.write_text(dumps(doc))
    mine = spec.load_data({"cards": str(path)})
    _same_data(shipped, mine)
    assert (_results(spec, shipped, "greedy", spec.default_players, 40)
            == _results(spec, mine, "greedy", spec.default_players, 40))


def test_a_reordered_file_is_the_same_configuration_and_an_edit_is_not(tmp_path):
    """The card-list hash is the cards' content as read: the same for the
    entries reordered, another one for a changed count."""
    spec = registry.get("overtime")
    shipped = spec.load_data({})
    doc = read_toml(Path(shipped.cards.path))
    doc["card"] = doc["card"][::-1]
    path = tmp_path / "reversed.toml"
    path.write_text(dumps(doc))
    assert spec.load_data({"cards": str(path)}).card_list_hash == shipped.card_list_hash
    doc["card"][0] = {**doc["card"][0], "count": doc["card"][0]["count"] + 1}
    path.write_text(dumps(doc))
    assert spec.load_data({"cards": str(path)}).card_list_hash != shipped.card_list_hash


def test_entries_without_a_name_are_refused_by_their_place_in_the_file(tmp_path):
    """An unnamed entry is not sorted away: the refusal names it by its place in the file."""
    from balance.simcore.errors import BalanceError

    spec = registry.get("four-day-weekend")
    doc = read_toml(Path(spec.load_data({}).cards.path))
    del doc["card"][2]["name"]
    path = tmp_path / "unnamed.toml"
    path.write_text(dumps(doc))
    with pytest.raises(BalanceError, match=r"card #3.*'name'"):
        spec.load_data({"cards": str(path)})


def test_sick_days_suit_order_does_not_change_the_tables(tmp_path):
    """Sick Days' only reorderable list: rules.toml's suits (a level keeps the
    first N). Their names label the cards; the kernels' tables, the games, do
    not depend on their order."""
    import shutil

    from balance.simcore.files import data_file
    from balance.simcore.gamedata import loader
    from balance.simcore.sickdays_solo import cards as solo

    src = data_file("sickdays-solo", "rules.toml")
    shutil.copy(data_file("sickdays-solo", "levels.toml"), tmp_path / "levels.toml")
    text = src.read_text()
    rules = read_toml(src)
    suits = rules["suits"]
    line = next(x for x in text.splitlines() if x.replace(" ", "").startswith("suits="))
    text = text.replace(line, "suits = [" + ", ".join(f'"{s}"' for s in suits[::-1]) + "]")
    (tmp_path / "rules.toml").write_text(text)
    assert read_toml(tmp_path / "rules.toml")["suits"] == suits[::-1]
    own = loader("sickdays-solo", solo.build)({"level": 3})
    mine = loader("sickdays-solo", solo.build, data_dir=tmp_path)({"level": 3})
    for x, y in zip(own.tables, mine.tables):
        assert np.array_equal(x, y)
    assert list(own.card_names) != list(mine.card_names)


def test_a_run_resumes_with_a_reordered_card_file_and_plays_the_same_games(tmp_path):
    # the folder's identity reads the list by content in canonical order, not by the file's bytes:
    # extending a run with the same cards written in another order adds the games a fresh run would play
    import polars as pl

    from tests.cli.runkit import balance

    shuffled = shuffled_cards("youre-fired", 5, tmp_path / "shuffled.toml")
    shipped = tmp_path / "shipped.toml"
    shipped.write_bytes(Path(registry.get("youre-fired").load_data({}).cards.file).read_bytes())
    common = ["simulate", "--game", "youre-fired", "--chunk-size", 100, "--seed", 4, "--quiet"]
    assert balance(*common, "--set", f"cards={shipped}", "-n", 200, "--out", tmp_path / "R").exit_code == 0
    r = balance(*common, "--set", f"cards={shuffled}", "-n", 400, "--out", tmp_path / "R")
    assert r.exit_code == 0, r.output
    assert balance(*common, "--set", f"cards={shipped}", "-n", 400, "--out", tmp_path / "fresh").exit_code == 0

    def games(folder):
        return pl.read_parquet(folder / "parts" / "games").drop("chunk", strict=False).sort("game_index")

    assert games(tmp_path / "R").equals(games(tmp_path / "fresh"))
