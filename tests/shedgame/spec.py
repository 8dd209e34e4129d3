"""Shed (`--game shed`, tests only): the declarative header, the card file's
schema and loader, the transcript. The rules are in `rules.py`, the cards
in `cards.toml`; tests/conftest.py registers the game for the tests."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from balance.simcore import metrics as M
from balance.simcore.gamedata import CardSection, Field, Opcode, Schema, Vocabulary, loader, overlay, refuse
from balance.simcore.spec import GameSpec, Kernels, Param, cards_param, common_policies, declared
from balance.simcore.transcript import Decoder, Event

from . import rules

HERE = Path(__file__).resolve().parent
CARDS_FILE = HERE / "cards.toml"

EFFECTS = Vocabulary((
    Opcode("wild", 1, (), "the card may be played on anything; its player names the suit"),
    Opcode("draw", 2, (Field("n", "int", required=True, low=1, high=6),), "the next player draws n and loses the turn"),
    Opcode("skip", 3, (), "the next player loses the turn"),
))
RANK = Schema("rank", (
    Field("name", "str", required=True),
    Field("effects", "effects", default=[], vocabulary=EFFECTS, length=(0, 3)),
))
CARD_FILE = Schema("card file", (
    Field("suits", "strs", required=True, length=(1, 8)),
    Field("rank", "tables", required=True, schema=RANK, length=(1, 32)),
), key="")

PARAMS = (
    Param("hand_size", "int", 5, "cards dealt to each player", 1, 10),
    cards_param(CARDS_FILE),
)


def build(reader, user: dict):
    params = overlay({p.name: p.default for p in PARAMS}, user, "shed")
    path = Path(params["cards"] or CARDS_FILE)
    raw = reader.toml(path, allowed="a card file in the format of tests/shedgame/cards.toml")
    data = CARD_FILE.check(raw, path, "top level")
    ranks, suits = data["rank"], data["suits"]
    n = len(ranks) * len(suits)
    if n > rules.NMAX:
        raise refuse(path, "top level", "rank", f"{len(ranks)} ranks in {len(suits)} suits make {n} cards",
                     f"at most {rules.NMAX} cards")
    if n < 2 + params["hand_size"] * 4:
        raise refuse(path, "top level", "rank", f"{n} cards cannot deal 4 hands of {params['hand_size']}",
                     f"at least {2 + params['hand_size'] * 4} cards")
    cards = np.zeros((n, rules.CF), np.int64)
    names = []
    for r, rank in enumerate(ranks):
        for s, suit in enumerate(suits):
            c = r * len(suits) + s
            cards[c, rules.C_RANK], cards[c, rules.C_SUIT] = r, s
            for e in rank["effects"]:
                if e["op"] == "wild":
                    cards[c, rules.C_WILD] = 1
                elif e["op"] == "draw":
                    cards[c, rules.C_DRAW] = e["n"]
                elif e["op"] == "skip":
                    cards[c, rules.C_SKIP] = 1
            names.append(f"{rank['name']} of {suit}")
    table = np.array([params["hand_size"], n, len(suits)], np.int64)
    rank_order = (CardSection("rank", None, ordered=True),)  # ranks low to high: their order is data (simcore.gamedata)
    return reader.make(params, (cards, table), names, reader.card_list(path, CARDS_FILE, reconstruction=False,
                                                            sections=rank_order),
                       info={"suits": tuple(suits)})


load_data = loader("shed", build, data_dir=HERE)


class Names:
    """The run's card names and suits (its GameData), for the transcript."""

    def __init__(self, data, n_players: int):
        self.names, self.suits = data.card_names, data.info["suits"]

EVENTS = (
    Event(rules.EV_DEAL, 'deal',
          lambda t, a, b, c, d: f'{a} players are dealt {b} cards each; {t.names[c]} starts the pile; player {d + 1} begins.'),
    Event(rules.EV_PLAY, 'play',
          lambda t, a, b, c, d: f'Player {a + 1} plays {t.names[b]} (suit now {t.suits[c]}).'),
    Event(rules.EV_DRAW, 'draw',
          lambda t, a, b, c, d: f"Player {a + 1} cannot play and draws {('a card' if b >= 0 else 'nothing (no card left)')}."),
    Event(rules.EV_PASS, 'pass',
          lambda t, a, b, c, d: f'Player {a + 1} cannot play or draw, and passes.'),
    Event(rules.EV_RESHUFFLE, 'reshuffle',
          lambda t, a, b, c, d: f'The discard pile is shuffled into a new deck of {a} cards.'),
    Event(rules.EV_SKIP, 'skip',
          lambda t, a, b, c, d: f'Player {a + 1} ' + (f'draws {b} and ' if b else '') + 'loses the turn.'),
    Event(rules.EV_OUT, 'out',
          lambda t, a, b, c, d: f'Player {a + 1} is out of cards and wins (turn {b}).'),
)

decode_trace = Decoder(EVENTS, Names)


METRICS = (
    M.Mean(key="turns", label="turns per game", value=pl.col("turns")),
    M.Rate(key="reshuffled", label="games in which the deck ran out", hits=pl.col("reshuffles") > 0),
    M.Mean(key="cards_left_losing", label="cards left in a losing hand", table="seats", value=pl.col("cards_left"),
           where=pl.col("won") == 0, counts=True),
    M.Rate(key="draws_per_turn", label="share of turns that drew a card", hits=pl.col("cards_drawn"),
           trials=pl.col("turns")),
    M.Group(key="winner", label="who wins", members=(
        M.Mean(key="share_of_draws", label="winner's share of the cards drawn", table="seats",
               value=pl.col("drawn") / pl.col("cards_drawn"), where=(pl.col("won") == 1) & (pl.col("cards_drawn") > 0)),
        M.Fixed(key="chance", value=lambda params, players: 1.0 / players if players else None),
        M.Note(key="note", text="a seat's fair share of wins is 1/players"),
    )),
)

SPEC = GameSpec(
    name="shed",
    title="Shed (the tests' fixture game)",
    min_players=2,
    max_players=rules.PMAX,
    default_players=3,
    max_decisions=400,
    params=PARAMS,
    policies=common_policies("plays the matching card hardest to play later; effect cards against a player "
                             "close to going out; wild cards last", rollouts=4, horizon=60),
    kernels=Kernels.named_in(rules),
    decode_trace=decode_trace,
    load_data=load_data,
    metrics=METRICS,
    length_column="turns",
    invariants=("a card is in no zone or in two", "a hand or pile count is out of range"),
    **declared(rules),
)
