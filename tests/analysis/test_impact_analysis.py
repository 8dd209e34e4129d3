"""balance impact's parts that need no engine: the TOML writer (round trip of
every shipped card file), the card edits within each game's declared count
field, the variants a plan builds (one copy removed changes that count and
nothing else), the rule steps, and the family's false-positive rate under a
true null (race to 21 games against other games of the same rules)."""
from __future__ import annotations

import glob
import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.analysis import card_power, cardfile, impact
from balance.analysis.stats import wilson
from balance.simcore import registry
from balance.simcore.errors import BalanceError
from balance.simcore.files import parse_toml, read_toml
from balance.simcore.params import resolve

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(glob.glob(str(ROOT / "data" / "*" / "*.toml"))) + [str(ROOT / "tests" / "shedgame" / "cards.toml")]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: "/".join(Path(p).parts[-2:]))
def test_every_shipped_file_round_trips(path):
    doc = read_toml(Path(path))
    text = cardfile.dumps(doc, "a header\nof two lines")
    assert parse_toml(text.encode(), "x") == doc
    assert text.startswith("# a header\n# of two lines\n")


_scalar = st.one_of(st.text(max_size=12), st.integers(-10**6, 10**6), st.booleans(),
                    st.floats(allow_nan=False, allow_infinity=False, width=64))
_key = st.text(min_size=1, max_size=8)
_value = st.recursive(_scalar, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(_key, inner, max_size=3)), max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_key, _value, max_size=4),
       st.dictionaries(_key, st.lists(st.dictionaries(_key, _value, min_size=1, max_size=3), min_size=1, max_size=3),
                       max_size=2))
def test_dumps_round_trips_any_document_of_the_subset(plain, tables):
    doc = {**plain, **{k: v for k, v in tables.items() if k not in plain}}
    assert parse_toml(cardfile.dumps(doc).encode(), "x") == doc


def test_dumps_refuses_what_toml_cannot_hold():
    with pytest.raises(BalanceError, match="finite"):
        cardfile.dumps({"x": float("inf")})


# ---------------------------------------------------------------- variants built right
def _plan(tmp_path, game, cards="all", rules=None, user=None):
    spec = registry.get(game)
    user = user or {}
    kinds = impact.pick_cards(spec, resolve(spec, user), cards)
    return spec, impact.plan(spec, user, tmp_path / "run", kinds, impact.pick_rules(spec, rules))


@pytest.mark.parametrize("game", ["overtime", "youre-fired", "four-day-weekend", "shed"])
def test_each_card_variant_changes_one_count_and_nothing_else(tmp_path, game):
    spec, plan = _plan(tmp_path, game)
    cl, base = impact.base_cards(spec, resolve(spec, {}))
    kinds = {(k.section, k.name): k for k in cardfile.kinds(base, cl.sections)}
    assert plan.variants[0].name == impact.BASELINE and plan.variants[0].params == resolve(spec, {})
    assert len(plan.variants) > 1
    ablations = [v for v in plan.variants[1:] if card_power.POWER_KEY not in v.varied]  # card power: its own test
    for v in ablations:
        kind = next(k for (sec, name), k in kinds.items() if name == v.varied["card"])
        path = Path(v.params["cards"])
        assert path.parent == (tmp_path / "run" / "cards").resolve() and path.read_text().startswith("# Written by")
        assert v.varied["file"] == f"cards/{path.name}" and path.name.endswith(v.varied["sha256"][:12] + ".toml")
        doc = read_toml(path)
        entries = list(base[kind.section])
        before, after = v.varied["copies"]
        if v.varied["change"] == "remove_all":
            del entries[kind.index]
            assert after == 0
        else:
            assert after == before + (1 if v.varied["change"] == "add_one" else -1)
            entries[kind.index] = {**entries[kind.index], kind.count_field: after}
        assert doc == {**base, kind.section: entries}  # that count (or that entry), nothing else
        assert spec.load_data(v.params).cards.sha256 == v.varied["sha256"]  # the game plays that very file
    # every kind asked is either played or skipped with a reason, for each change
    done = {(v.varied["card"], v.varied["change"]) for v in ablations}
    done |= {(s["card"], s["change"]) for s in plan.skipped}
    assert done == {(k.name, c) for k in kinds.values() for c in cardfile.CHANGES}
    assert all(s["reason"] for s in plan.skipped)


def test_count_limits_and_the_loaders_rules_are_respected(tmp_path):
    spec, plan = _plan(tmp_path, "youre-fired")
    skipped = {(s["card"], s["change"]): s["reason"] for s in plan.skipped}
    # the Boss: one copy, the loader wants exactly one; consultants are unique (count 1 by the field)
    assert "removing one is removing all" in skipped[("Boss", "remove_one")]
    assert "not a legal card list" in skipped[("Boss", "remove_all")] and "boss" in skipped[("Boss", "remove_all")]
    assert "not a legal card list" in skipped[("Boss", "add_one")]
    cons = [k for k in impact.card_kinds(spec, resolve(spec, {})) if k.section == "consultant"]
    assert cons and all("allows 1 (each consultant is unique)" in skipped[(k.name, "add_one")] for k in cons)
    assert all("the edited list" in r or "not a legal" not in r for r in skipped.values())  # no temporary path shown
    assert not any("/tmp" in r for r in skipped.values())


def test_overtime_assignments_keep_one_copy_per_player(tmp_path):
    spec, plan = _plan(tmp_path, "overtime")
    kinds = impact.card_kinds(spec, resolve(spec, {}))
    assigned = [k for k in kinds if k.section == "assignment"]
    skipped = {(s["card"], s["change"]): s["reason"] for s in plan.skipped}
    assert assigned and all("copies" in skipped[(k.name, "remove_one")] for k in assigned)


def test_plans_are_deterministic_and_rewrite_nothing(tmp_path):
    _, a = _plan(tmp_path, "overtime", cards="Power Outage")
    assert a.created and all(p.exists() for p in a.created)
    _, b = _plan(tmp_path, "overtime", cards="Power Outage")
    assert b.created == []  # the same files (content-addressed): nothing written again
    assert [v.params for v in a.variants] == [v.params for v in b.variants]
    impact.discard(b, tmp_path / "run")  # no manifest names them, but b created none
    assert all(p.exists() for p in a.created)
    impact.discard(a, tmp_path / "run")
    assert not (tmp_path / "run").exists()


def test_card_and_rule_names_are_checked():
    spec = registry.get("overtime")
    params = resolve(spec, {})
    with pytest.raises(BalanceError, match=r"^--cards: overtime has no card 'Nope'; allowed: all, none, .*Power Outage"):
        impact.pick_cards(spec, params, "Power Outage,Nope")
    assert [k.name for k in impact.pick_cards(spec, params, "power outage")] == ["Power Outage"]
    with pytest.raises(BalanceError, match=r"^--rules: overtime has no parameter 'nope'; allowed: rounds"):
        impact.pick_rules(spec, "rounds,nope")
    with pytest.raises(BalanceError, match=r"^--rules: cards is a file parameter, not a number or a switch"):
        impact.pick_rules(spec, "cards")


def test_rule_steps():
    from balance.simcore.params import Param

    assert impact.rule_steps(Param("r", "int", 8, "", 1, 10), 8) == [("down", 7), ("up", 9)]
    down, up = impact.rule_steps(Param("r", "int", 10, "", 1, 10), 10)
    assert down == ("down", 9) and up[1] is None and "outside" in up[2]
    assert impact.rule_steps(Param("b", "bool", False, ""), False) == [("flipped", True)]
    assert impact.rule_steps(Param("f", "float", 0.5, "", 0, 1), 0.5) == [("down", 0.45), ("up", 0.55)]
    assert impact.rule_steps(Param("t", "ints", [4, 7, 10], "", 1, 20), [4, 7, 10]) == [("down", [3, 6, 9]),
                                                                                      ("up", [5, 8, 11])]
    assert impact.rule_steps(Param("c", "int", 3, "", choices=(2, 3, 5)), 3) == [("down", 2), ("up", 5)]


# ---------------------------------------------------------------- the family under a true null
@pytest.fixture(scope="module")
def race_games(tmp_path_factory):
    """Race to 21 (greedy, 20% random moves): one run of many games, to be cut into
    baselines and 'variants' that are other games of the same rules (a true null)."""
    from typer.testing import CliRunner

    from balance.cli.app import app

    registry.GAMES["race21"] = "toygame"
    out = tmp_path_factory.mktemp("race") / "run"
    r = CliRunner().invoke(app, ["simulate", "--game", "race21", "-n", "180000", "--seed", "5", "--policy", "greedy",
                                 "--policy-param", "epsilon=0.2", "--out", str(out), "--quiet",
                                 "--chunk-size", "60000"])
    assert r.exit_code == 0, r.output
    from balance.analysis.compare import _per_game
    from balance.analysis.frames import load_games, load_seats

    spec = registry.get("race21")
    return spec, _per_game(load_games(out, spec), load_seats(out, spec), spec)


def _null_manifest(k: int, n: int) -> dict:
    variants = [{"name": impact.BASELINE, "varied": {}, "card_list_hash": "none", "params": {}}]
    variants += [{"name": f"null {i}", "varied": {"rule": "bug_total", "change": "up", "from": 0, "to": 0},
                  "card_list_hash": "none", "params": {}} for i in range(k)]
    return {"config": {"game": "race21", "seed": 5, "players": 2, "variants": variants}, "n_games": n}


def test_the_family_holds_its_false_positive_rate_under_a_true_null(race_games):
    """300 repeats of a baseline and 2 null variants of 200 games each (other games of
    the same rules, relabelled to the same indices): a repeat is a false positive of a
    family when any of its intervals excludes 0. Two families, each at alpha = 5%
    (Bonferroni): the primary metric of every variant (here the length: someone wins
    every race), and the other metrics of every variant (seat 1's win rate, the mean
    total). Each family-wise rate's 95% Wilson interval must reach down to 5% or
    below, and the test must not be dead (a shifted variant is found)."""
    spec, per_game = race_games
    k, n, reps = 2, 200, 300
    manifest = _null_manifest(k, n)
    false_pos, tested = {"rows": 0, "secondary": 0}, 0
    for rep in range(reps):
        first = rep * (k + 1) * n
        per = {}
        for j, name in enumerate([impact.BASELINE] + [f"null {i}" for i in range(k)]):
            block = per_game.filter(pl.col("game_index").is_between(first + j * n, first + (j + 1) * n - 1))
            per[name] = block.with_columns((pl.col("game_index") - first - j * n).alias("game_index"))
        res = impact.analyse_frames(per, manifest, spec)
        rows = res["rows"] + res["secondary"]
        tested = max(tested, len(rows))
        for fam in false_pos:
            false_pos[fam] += any(r["significant"] for r in res[fam])
        for r in rows:  # every verdict is the interval's
            lo, hi = r["ci"]
            assert r["significant"] == (lo is not None and (lo > 0 or hi < 0))
    assert tested >= 6  # the primary of each variant and at least two secondary metrics each
    for fam, k_fp in false_pos.items():
        lo, hi = wilson(k_fp, reps)
        assert lo <= 0.05, (fam, k_fp, reps, lo, hi)
    # power: the same machinery finds a real shift (seat 1 wins 15 points more often in a variant)
    base = per_game.filter(pl.col("game_index") < 2000)
    rng = np.random.default_rng(1)
    flip = (rng.random(2000) < 0.3) & (base["seat 1 win rate"].to_numpy() == 0)
    shifted = base.with_columns(pl.Series("seat 1 win rate", np.where(flip, 1.0, base["seat 1 win rate"].to_numpy())))
    res = impact.analyse_frames({impact.BASELINE: base, "null 0": shifted, "null 1": base}, _null_manifest(2, 2000),
                                spec)
    found = [r for r in res["secondary"] if r["variant"] == "null 0" and r["metric"] == "seat 1 win rate"]
    assert found and found[0]["significant"] and found[0]["diff"] > 0.1


def test_a_null_variant_identical_game_by_game_is_left_out_of_the_family(race_games):
    spec, per_game = race_games
    base = per_game.filter(pl.col("game_index") < 500)
    res = impact.analyse_frames({impact.BASELINE: base, "null 0": base, "null 1": base}, _null_manifest(2, 500), spec)
    assert [r["diff"] for r in res["rows"]] == [0.0, 0.0] and not any(r["significant"] for r in res["rows"])
    assert res["secondary"] == []
    assert all(any("the same on both sides in every game" in d["reason"] for d in ds) for ds in res["dropped"].values())
    assert json.loads(json.dumps(res)) == res  # plain JSON


@pytest.mark.parametrize("game", ["overtime", "youre-fired"])
def test_competitive_games_get_card_power_first(tmp_path, game):
    """Card power (analysis.card_power): one variant per card the game can give one seat, first after the
    baseline, on the baseline's deals (its rules with power_card set, the same card list); the cards it
    cannot give are listed with why; --no-card-power (power=False) plays none."""
    spec, plan = _plan(tmp_path, game)
    base = plan.variants[0]
    power = [v for v in plan.variants[1:] if card_power.POWER_KEY in v.varied]
    assert power and plan.variants[1:len(power) + 1] == power
    kinds, not_measured = card_power.power_kinds(spec, base.params)
    assert [v.varied[card_power.POWER_KEY]["card"] for v in power] == [k.name for k in kinds]
    names = list(spec.load_data(base.params).card_names)
    for v in power:
        pw = v.varied[card_power.POWER_KEY]
        assert {k: x for k, x in v.params.items() if k != "power_card"} == \
            {k: x for k, x in base.params.items() if k != "power_card"}
        assert base.params["power_card"] == -1 and v.params["power_seat"] == -1
        assert names[v.params["power_card"]] == pw["card"] and pw["against"] == impact.BASELINE
        assert spec.load_data(v.params).card_list_hash == spec.load_data(base.params).card_list_hash
    meta = base.varied[impact.PLAN_KEY]["card_power"]
    assert meta["cards"] == [k.name for k in kinds] and all(x["reason"] for x in meta["not_measured"])
    if game == "youre-fired":
        assert {"Boss", "Lawyer"} <= {x["card"] for x in meta["not_measured"]}
    spec2 = registry.get(game)
    kinds_all = impact.pick_cards(spec2, resolve(spec2, {}), "all")
    none = impact.plan(spec2, {}, tmp_path / "run2", kinds_all, [], power=False)
    assert not any(card_power.POWER_KEY in v.varied for v in none.variants)


def test_card_power_knobs_are_no_rules():
    """power_card / power_seat are card power's own settings (Param.internal): not steppable by --rules, not
    listed among a game's parameters in a refusal."""
    from balance.simcore.params import lookup

    spec = registry.get("youre-fired")
    assert "power_card" not in impact.steppable(spec) and "hand_size" in impact.steppable(spec)
    with pytest.raises(BalanceError, match="card power's own setting"):
        impact.pick_rules(spec, "power_card")
    with pytest.raises(BalanceError) as e:
        lookup(spec, "nope", "--set")
    assert "power_card" not in str(e.value) and "hand_size" in str(e.value)
