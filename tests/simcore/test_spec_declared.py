"""simcore.spec's declarations taken by name: `Kernels.named_in` finds each kernel in the game's modules,
`declared` each fact, `common_policies` each search default (and the search's own greedy weights); a clash
or a missing or unknown name is refused, never resolved by position or order."""
import types

import numpy as np
import pytest

from balance.simcore import registry
from balance.simcore.params import Param, rule_table
from balance.simcore.spec import Kernels, PolicyParam, SEARCH_PARAMS, common_policies, declared
from tests.shedgame import rules as shed_rules


def _module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    return m


def test_named_in_takes_every_kernel_by_its_name():
    k = Kernels.named_in(shed_rules)
    assert k.step is shed_rules.step and k.legal is shed_rules.legal and k.greedy is shed_rules.greedy
    # the same function reached through two modules (one imports it) is one kernel, not a clash
    again = _module("again", step=shed_rules.step)
    assert Kernels.named_in(shed_rules, again).step is shed_rules.step


def test_named_in_refuses_two_kernels_of_one_name_and_a_missing_one():
    other = _module("other", step=lambda *a: None)
    with pytest.raises(ValueError, match="kernel 'step'.*each define one"):
        Kernels.named_in(shed_rules, other)
    bare = _module("bare", **{n: getattr(shed_rules, n) for n in Kernels._fields
                              if hasattr(shed_rules, n) and n != "legal"})
    with pytest.raises(ValueError, match="kernel 'legal': none of bare defines it"):
        Kernels.named_in(bare)


def test_declared_refuses_a_fact_two_modules_declare():
    a, b = _module("a", MAX_DECISIONS=10), _module("b", MAX_DECISIONS=10)
    assert declared(a)["max_decisions"] == 10
    with pytest.raises(ValueError, match="b.MAX_DECISIONS: declared by two modules"):
        declared(a, b)


def test_common_policies_sets_a_search_default_by_name_and_refuses_an_unknown_one():
    pols = {p.name: p for p in common_policies("greedy", expert_iterations=48)}
    its = {q.name: q.default for q in pols["expert"].params}
    assert its["iterations"] == 48
    assert its["horizon"] == next(p.default for p in SEARCH_PARAMS if p.name == "horizon")
    with pytest.raises(TypeError, match="no search parameter"):
        common_policies("greedy", expert_iteration=48)


def test_common_policies_sets_the_searchs_own_greedy_weight_and_leaves_greedys():
    w = PolicyParam("take", 9, 4.0, "a greedy weight", 0.0, 20.0)
    pols = {p.name: p for p in common_policies("greedy", (w,), expert_take=4.5)}
    defaults = {name: {q.name: q.default for q in pol.params} for name, pol in pols.items()}
    assert defaults["expert"]["take"] == 4.5
    assert defaults["greedy"]["take"] == 4.0 and defaults["lookahead"]["take"] == 4.0
    with pytest.raises(TypeError, match="no search parameter or greedy weight"):
        common_policies("greedy", (w,), expert_taek=4.5)


def test_rule_table_writes_each_knob_at_its_declared_slot():
    knobs = (Param("n", "int", 1, "a count", 0, 9, slot=2), Param("on", "bool", False, "a switch", slot=0),
             Param("xs", "ints", [1, 2], "a list", 0, 9, length=2, slot=(3, 1)), Param("free", "int", 0, "unslotted"))
    table = rule_table(knobs, {"n": 7, "on": True, "xs": [5, 6], "free": 9}, 5)
    assert table.dtype == np.int64 and table.tolist() == [1, 6, 7, 5, 0]


@pytest.mark.parametrize("game", registry.names())
def test_no_two_knobs_share_a_rule_slot(game):
    """A knob's `slot` is where the engine reads it: two knobs at one slot would let one overwrite the other."""
    taken = {}
    for p in registry.get(game).params:
        for slot in (p.slot if isinstance(p.slot, tuple) else () if p.slot is None else (p.slot,)):
            assert slot not in taken, f"{game}: {p.name} and {taken[slot]} share rule slot {slot}"
            taken[slot] = p.name
