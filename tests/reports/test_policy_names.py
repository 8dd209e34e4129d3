"""A report names each policy parameter (issue 41: names, not positions): the run records a seat's
policy as a vector of slots; the provenance table prints the game's declared names and values."""
from balance.reports import context
from balance.simcore import registry
from balance.simcore.batch import resolve_policy


def test_the_provenance_names_every_declared_parameter_never_the_slot_vector():
    spec = registry.get("youre-fired")
    greedy = resolve_policy(spec, "greedy", {"epsilon": 0.1}).describe()
    words = context.policy_rows([greedy], spec, 2)
    assert words.startswith("every seat greedy: epsilon=0.1 (default 0)"), words
    for q in spec.policy("greedy").params:
        assert f"{q.name}=" in words
    assert "[" not in words and "0.0, 0.0" not in words  # not the 32 slots
    mixed = context.policy_rows([greedy, resolve_policy(spec, "random").describe()], spec, 2)
    assert mixed.startswith("seat 1 greedy: ") and "; seat 2 random" in mixed, mixed


def test_a_policy_at_its_defaults_reads_plainly():
    spec = registry.get("overtime")
    words = context.policy_rows([resolve_policy(spec, "greedy").describe()], spec, 4)
    assert "(default" not in words and words.startswith("every seat greedy: ")
