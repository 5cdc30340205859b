"""Every registered rule's worked examples: each expected mention is found with its type (and its
role, when the example gives one)."""

import pytest

from pipeline.lib.extract import extract as extract_module
from pipeline.lib.extract import vocabulary
from pipeline.lib.extract.extract import extract_entities
from pipeline.lib.extract.rules import RULES, STAGES

EXAMPLES = [
    pytest.param(example, id=f"{rule.name}-{k}") for rule in RULES for k, example in enumerate(rule.examples)
]


def test_every_rule_has_a_worked_example_and_a_known_stage():
    assert all(rule.examples for rule in RULES)
    assert all(rule.stage in STAGES for rule in RULES)
    assert len({rule.name for rule in RULES}) == len(RULES)


def test_every_cue_group_a_rule_names_is_declared_in_the_vocabulary():
    for rule in RULES:
        for group in rule.cues:
            if group.isupper():
                assert hasattr(vocabulary, group), (rule.name, group)
            elif group.startswith("cue_"):
                assert group.removeprefix("cue_") in vocabulary.CUE_WORDS, (rule.name, group)


@pytest.mark.parametrize("example", EXAMPLES)
def test_rule_example(example):
    mentions = extract_entities(example.sentence).mentions
    found = {(m.name, m.entity_type, m.role) for m in mentions}
    for expected in example.expected:
        width = len(expected)
        assert expected in {mention[:width] for mention in found}, (expected, sorted(found))
    written = {m.name for m in mentions} | {m.text for m in mentions}
    assert not written & set(example.absent), sorted(written & set(example.absent))


def _example_holds(example) -> bool:
    mentions = extract_entities(example.sentence).mentions
    found = {(m.name, m.entity_type, m.role) for m in mentions}
    names = {m.name for m in mentions} | {m.text for m in mentions}
    expected = all(e in {f[: len(e)] for f in found} for e in example.expected)
    return expected and not any(name in names for name in example.absent)


@pytest.mark.parametrize("rule", RULES, ids=[rule.name for rule in RULES])
def test_a_rule_s_examples_need_the_rule(rule, monkeypatch):
    """Without the rule, at least one of its examples no longer holds: the examples show what the
    rule does, not what other rules do anyway."""
    monkeypatch.setattr(
        extract_module, "_RUN_ORDER", tuple(r for r in extract_module._RUN_ORDER if r is not rule)
    )
    assert not all(_example_holds(example) for example in rule.examples)
