"""simcore.spec's declarations taken by name: `Kernels.named_in` finds each kernel in the game's modules,
`declared` each fact, `common_policies` each search default; a clash or a missing or unknown name is
refused, never resolved by position or order."""
import types

import pytest

from balance.simcore.spec import Kernels, SEARCH_PARAMS, common_policies, declared
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
