"""Fingerprints of the engines: sha256 of the result rows of fixed games.

    python -m tests.fingerprints [--game G ...] [--json out.json] [--compare old.json]
                                 [--cards FILE | --shuffled SEED]

For every game: `random`, `greedy` and `lookahead` at the smallest, default
and largest player count (lookahead on fewer games: it is slow), and `expert`
(and `oracle` where the game has it) at the default player count, every seat
playing it: the sha256 of game_out, seat_out and card_stats of games 0..n-1
of seed 2026. A change
that must not change results (a refactor, a speed-up) leaves every line the
same; `--compare` says which differ.

`--cards FILE` plays another card list (`--set cards=FILE`; give one --game);
`--shuffled SEED` plays each game's own card list with the entries of every
section its loader declares unordered (`simcore.gamedata.CardSection`)
shuffled by SEED (`shuffled_cards`), written to a temporary file: the lines
must be those of the shipped file (a card file's order is not data).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
from pathlib import Path

import numpy as np

GAMES_PER_POLICY = {"random": 400, "greedy": 400, "lookahead": 6, "expert": 100, "oracle": 100}
DEFAULT_COUNT_ONLY = ("expert", "oracle")  # the searches: slow, and their code is the same at every count
SEED = 2026


def _data(spec, params):
    """(tables, number of cards) for resolved params."""
    d = spec.load_data(params)
    return d.tables, len(d.card_names)


def shuffled_cards(name: str, seed: int, out: Path) -> Path | None:
    """The game's own card list written to `out` with the entries of each
    section its loader does not declare ordered in an order drawn from
    `seed` (never the file's own order, where a section has two entries or
    more); comments are not kept. None when the game has no such section."""
    from balance.analysis.cardfile import dumps
    from balance.simcore import registry
    from balance.simcore.files import read_toml

    cards = registry.get(name).load_data({}).cards
    sections = [s for s in (cards.sections if cards is not None else ()) if not getattr(s, "ordered", False)]
    if not sections:
        return None
    doc = read_toml(Path(cards.path))
    rng = random.Random(seed)
    for sec in sections:
        entries = list(doc.get(sec.section) or [])
        order = list(range(len(entries)))
        while len(order) > 1 and order == sorted(order):
            rng.shuffle(order)
        doc[sec.section] = [entries[i] for i in order]
    out = Path(out)
    out.write_text(dumps(doc, header=f"{cards.file} with its entries shuffled (seed {seed})"))
    return out


def fingerprints(name: str, user: dict | None = None) -> dict[str, str]:
    """Every line of one game, with the parameters `user` (e.g. another card list)."""
    from balance.simcore import registry
    from balance.simcore.batch import Engine, resolve_policy
    from balance.simcore.params import resolve

    spec = registry.get(name)
    params = resolve(spec, dict(user or {}))
    tables, n_cards = _data(spec, params)
    counts = sorted({spec.min_players, spec.default_players, spec.max_players})
    out = {}
    for policy, n in GAMES_PER_POLICY.items():
        pol = spec.policy(policy)
        if pol is None or pol.refused:
            continue
        engine = Engine(spec, [resolve_policy(spec, policy)])
        for players in ([spec.default_players] if policy in DEFAULT_COUNT_ONLY else counts):
            res = engine.run(tables, players, SEED, np.arange(n, dtype=np.int64), n_cards)
            h = hashlib.sha256()
            for arr in (res.game_out, res.seat_out, res.card_stats):
                h.update(np.ascontiguousarray(arr).tobytes())
            out[f"{name}/{policy}/{players}p"] = h.hexdigest()[:16]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append")
    ap.add_argument("--json")
    ap.add_argument("--compare")
    ap.add_argument("--cards", help="play this card list (--set cards=FILE); with one --game")
    ap.add_argument("--shuffled", type=int, metavar="SEED",
                    help="play each game's own card list with its entries shuffled by SEED")
    a = ap.parse_args(argv)
    from balance.simcore import registry

    if a.cards and len(a.game or []) != 1:
        ap.error("--cards needs exactly one --game")
    result: dict[str, str] = {}
    tmp = tempfile.TemporaryDirectory()
    for name in a.game or registry.names():
        user = {"cards": str(Path(a.cards).resolve())} if a.cards else {}
        if a.shuffled is not None:
            path = shuffled_cards(name, a.shuffled, Path(tmp.name) / f"{name}-shuffled-{a.shuffled}.toml")
            if path is None:
                print(f"# {name}: no card list with unordered entries; its own data played", flush=True)
            else:
                user = {"cards": str(path)}
        fp = fingerprints(name, user)
        for k, v in fp.items():
            print(k, v, flush=True)
        result.update(fp)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(result, fh, indent=1, sort_keys=True)
    if a.compare:
        with open(a.compare) as fh:
            old = json.load(fh)
        diff = [k for k in result if k in old and old[k] != result[k]]
        missing = [k for k in old if k not in result and (not a.game or k.split("/")[0] in a.game)]
        for k in diff:
            print(f"CHANGED {k}: {old[k]} -> {result[k]}")
        for k in missing:
            print(f"MISSING {k}")
        print(f"{len(result) - len(diff)} of {len(result)} unchanged")
        return 1 if diff or missing else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
