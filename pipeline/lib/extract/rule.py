"""What a registered extraction rule is: its name, stage, the vocabulary it keys on, its worked
examples and the function that applies it; rules.py registers them in run order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pipeline.lib.extract.state import PaperState


@dataclass(frozen=True)
class Example:
    """A made-up sentence, the mentions it must yield, (name, entity_type) or (name, entity_type,
    role), and the names it must not."""

    sentence: str
    expected: tuple[tuple[str, ...], ...]
    absent: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rule:
    name: str
    stage: str
    # The vocabulary groups (upper case: vocabulary.py; cue_*: lexicons/heads.txt) or the words
    # the rule keys on.
    cues: tuple[str, ...]
    examples: tuple[Example, ...]
    apply: Callable[[PaperState], None]


def make_rule(
    name: str, stage: str, cues: tuple[str, ...], apply: Callable[[PaperState], None], *examples
) -> Rule:
    return Rule(
        name,
        stage,
        cues,
        tuple(Example(sentence, tuple(expected), *absent) for sentence, expected, *absent in examples),
        apply,
    )
