"""Card power's statistics (analysis.card_power): the receiving seat as the engines draw it, the paired
family of cards, its false-positive rate under a true null, and that a real effect is found on the seat
that got the card (and not on another)."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest

from balance.analysis import card_power as cp
from balance.simcore import rng as R

SPEC = SimpleNamespace(length_column="turns", title="toy", name="toy")


def manifest(n_cards: int, players: int, seed: int) -> dict:
    base = {"name": "base", "params": {"x": 1, "power_card": -1, "power_seat": -1}, "card_list_hash": "h",
            "varied": {}}
    vs = [base] + [{"name": f"card {k}: one more copy to one seat", "params": {"x": 1, "power_card": k,
                                                                             "power_seat": -1},
                    "card_list_hash": "h",
                    "varied": {cp.POWER_KEY: {"card": f"card {k}", "card_id": k, "how": "one more copy",
                                              "against": "base"}}}
                   for k in range(n_cards)]
    return {"config": {"game": "toy", "players": players, "seed": seed, "variants": vs, "policies": []}}


def synthetic(n_cards: int, players: int, n: int, seed: int, rng: np.random.Generator, effect: dict | None = None,
              rho: float = 0.5, nobody: float = 0.1, shift: int = 0):
    """Frames of a run where each variant's game is the baseline's with probability rho, else a fresh draw
    from the same deal's win chances: under the null the copy changes nothing. `effect` {card: e}: with
    probability e the receiving seat (moved by `shift` seats) wins instead."""
    idx = np.arange(n)
    chances = rng.dirichlet(np.ones(players), n)
    recv = (cp.receiving_seats(seed, idx, players) + shift) % players

    def draw():
        w = (chances.cumsum(axis=1) > rng.random(n)[:, None]).argmax(axis=1)
        return np.where(rng.random(n) < nobody, -1, w)

    w0 = draw()
    len0 = rng.poisson(20, n)
    names, winners, lengths = ["base"], [w0], [len0]
    for k in range(n_cards):
        keep = rng.random(n) < rho
        w = np.where(keep, w0, draw())
        ln = np.where(keep, len0, rng.poisson(20, n))
        e = (effect or {}).get(k, 0.0)
        if e:
            w = np.where(rng.random(n) < e, recv, w)
        names.append(f"card {k}: one more copy to one seat")
        winners.append(w)
        lengths.append(ln)
    seats = pl.DataFrame({
        "variant": np.repeat(names, n * players),
        "game_index": np.tile(np.repeat(idx, players), len(names)),
        "seat": np.tile(np.arange(players), n * len(names)).astype(np.int8),
        "won": np.concatenate([(np.repeat(w, players) == np.tile(np.arange(players), n)) for w in winners]).astype(np.int8),
    })
    games = pl.DataFrame({"variant": np.repeat(names, n), "game_index": np.tile(idx, len(names)),
                          "turns": np.concatenate(lengths).astype(np.int32)})
    return seats, games


def test_receiving_seats_follow_the_deal_stream():
    """The numpy replica of the deal key is simcore.rng's deal stream (the engines read rng[DEAL])."""
    for seed in (0, 1, 2026, 2**63 + 5):
        idx = np.array([0, 1, 7, 12345, 2**40])
        keys = cp.deal_keys(seed, idx)
        for i, k in zip(idx, keys):
            assert R.new_streams(seed, int(i))[R.DEAL] == k
    seats = cp.receiving_seats(3, np.arange(40_000), 4)
    share = np.bincount(seats, minlength=4) / seats.size
    assert np.all(np.abs(share - 0.25) < 4 * np.sqrt(0.25 * 0.75 / seats.size))  # every seat about 1/4
    assert np.array_equal(cp.receiving_seats(3, np.arange(5), 4, power_seat=6), np.full(5, 2))


def test_the_salts_are_the_engines():
    from balance.simcore.four_day_weekend import constants as FC
    from balance.simcore.overtime import constants as OC
    from balance.simcore.youre_fired import constants as YC

    for c in (OC, YC, FC):
        assert (c.POWER_SEAT_SALT, c.POWER_SLOT_SALT) == (cp.SEAT_SALT, cp.SLOT_SALT)


def test_null_family_wise_false_positive_rate():
    """Under a true null (the copy changes nothing: each variant's game is the same deal's, replayed or drawn
    again from the same chances) the chance that ANY of the family's cards is called significant is at most
    alpha, plus its binomial tolerance over the repeats (one-sided 99%)."""
    rng = np.random.default_rng(20261206)
    repeats, alpha, n_cards = 200, 0.05, 8
    any_hit = 0
    rows_hit = rows = 0
    for r in range(repeats):
        players = 2 if r % 2 else 4
        seats, games = synthetic(n_cards, players, 600, seed=r, rng=rng)
        res = cp.analyse_frames(seats, games, manifest(n_cards, players, r), SPEC, 0.02, alpha)
        sig = [row["significant"] for row in res["rows"]]
        any_hit += any(sig)
        rows_hit += sum(sig)
        rows += len(sig)
        assert res["family_size"] == n_cards
    rate = any_hit / repeats
    tolerance = 2.33 * np.sqrt(alpha * (1 - alpha) / repeats)
    assert rate <= alpha + tolerance, (rate, rows_hit, rows)


def test_a_real_effect_is_found_on_the_seat_that_got_the_card():
    """A card that makes its holder win 12% more often is found, strongest first, with an interval that
    covers it; the same effect put on another seat than the one the engines draw is not read as the
    holder's gain (so the analysis does read the receiving seat)."""
    rng = np.random.default_rng(7)
    seats, games = synthetic(6, 4, 4000, seed=11, rng=rng, effect={3: 0.12})
    res = cp.analyse_frames(seats, games, manifest(6, 4, 11), SPEC, 0.02, 0.05)
    top = res["rows"][0]
    assert top["card"] == "card 3" and top["significant"]
    assert top["ci"][0] < top["effect"] < top["ci"][1]
    assert top["margin_verdict"]["verdict"] == "beyond_margin"
    assert sum(top["n_by_seat"]) == top["n"] == 4000
    assert "length (turns)" in top["game_level"] and "nobody wins" in top["game_level"]
    others = [r for r in res["rows"] if r["card"] != "card 3"]
    assert not any(r["significant"] for r in others)

    seats, games = synthetic(6, 4, 4000, seed=11, rng=np.random.default_rng(7), effect={3: 0.12}, shift=1)
    res = cp.analyse_frames(seats, games, manifest(6, 4, 11), SPEC, 0.02, 0.05)
    row = next(r for r in res["rows"] if r["card"] == "card 3")
    assert row["effect"] < 0.02  # the win went to another seat: no gain for the holder


def test_variants_not_on_the_baselines_deals_are_refused():
    rng = np.random.default_rng(1)
    seats, games = synthetic(2, 2, 200, seed=1, rng=rng)
    m = manifest(2, 2, 1)
    m["config"]["variants"][2]["params"]["x"] = 2  # another rule: not the same deals
    res = cp.analyse_frames(seats, games, m, SPEC)
    assert [r["card"] for r in res["rows"]] == ["card 0"]
    assert res["refused"][0]["card"] == "card 1" and "rules differ" in res["refused"][0]["reason"]


def test_simulate_share():
    assert cp.simulate_share(1_000_000, 30) == pytest.approx(8_333 / 1_000_000)  # a quarter of the run, shared
    assert cp.simulate_share(10_000_000, 30) == pytest.approx(cp.PER_KIND / 10_000_000)
    assert cp.simulate_share(20_000, 30) == 0.0  # 166 a card: no card power


def test_simulate_variants_play_a_share_of_the_run_and_read_back(tmp_path):
    """What `balance simulate` adds (simulate_variants): one variant per card, each the first `share` of the
    run's deals, paired with the run's own variant; `analyse` reads the table back from the folder."""
    from balance.analysis import execution, runs
    from balance.simcore import registry
    from balance.simcore.batch import parse_policies

    spec = registry.get("youre-fired")
    config = runs.make_config(spec, {}, 2, parse_policies(spec, ["greedy"], None, 2), 5, 3000)
    extra, why = cp.simulate_variants(spec, config.variants[0], 2, 3000, per_kind=500, max_share=1.0)
    assert why is None and len(extra) == 6
    assert all(runs.variant_games(v, 3000) == 500 for v in extra)
    config.variants += extra
    run_dir = tmp_path / "run"
    runs.open_run(run_dir, spec, config, 3000, "test")
    try:
        execution.execute(run_dir, spec, config, 3000)
    finally:
        runs.close_run(run_dir)
    res = cp.analyse(run_dir, spec)
    assert len(res["rows"]) == 6 and all(r["n"] == 500 and r["against"] == "base" for r in res["rows"])
    assert res["rows"] == sorted(res["rows"], key=lambda r: -r["effect"])
    assert cp.write(run_dir, spec).name == cp.CARD_POWER_FILE
    none, why = cp.simulate_variants(spec, config.variants[0], 2, 3000)  # a quarter of 3,000: too few for 6 cards
    assert none == [] and "fewer than" in why
