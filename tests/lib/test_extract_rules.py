"""Every registered rule's worked examples: each expected mention is found with its type (and its
role, when the example gives one)."""

import pytest

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
    found = {(m.name, m.entity_type, m.role) for m in extract_entities(example.sentence).mentions}
    for expected in example.expected:
        width = len(expected)
        assert expected in {mention[:width] for mention in found}, (expected, sorted(found))
