"""What a system is beaten in: a verb of beating or an adjective that compares (BEATING_VERBS,
COMPARING_ADJECTIVES: cue words of the automaton's pass), its object, then "in" and the measure:
'surpasses existing models in speed', 'outperforms A and B in accuracy', 'superior in numerical
accuracy'. The phrase is read as measures.py reads a cued measure, and those listed with it.
"""

from __future__ import annotations

import re

from pipeline.lib.extract.measures import (
    _HEADS,
    _LEAD,
    _WORD,
    MAX_LISTED,
    _continues,
    _measure_at,
    add_measure,
)
from pipeline.lib.extract.shapes import LIST_JOIN
from pipeline.lib.extract.state import PaperState
from pipeline.lib.extract.vocabulary import COMPARING_ADJECTIVES, NUMBER_FORMATS, SETTING_NOUNS

_BEATEN_IN = re.compile(r"\s+(?:[^\s,;.()]+\s+){0,6}?in\s+(?!terms\b)(?:(?:the|their|its)\s+)?")
# After an adjective, "in" comes right after it or after what it compares with ('competitive with
# A in speed'), not in a clause of its own ('comparable to the work that runs in exponential time').
_COMPARED_IN = re.compile(
    r"\s+(?:(?:to|with)\s+(?:(?!(?:that|which|who|and|but)\b)[^\s,;.()]+\s+){1,4}?)?"
    r"in\s+(?!terms\b)(?:(?:the|their|its)\s+)?"
)
_COMPARING_ADJECTIVES = frozenset(COMPARING_ADJECTIVES)


def add_beaten_in_measures(paper: PaperState) -> None:
    """'surpasses existing models in speed': what a comparison of systems is won in is a measure,
    a head alone (the comparison says it is measured) or a measure phrase, and those listed with
    it ('in accuracy and latency')."""
    text = paper.text
    for verb in paper.cue_hits:
        if verb.entry.kind != "cue:beating" or not text[verb.start].islower():
            continue
        joint = _COMPARED_IN if verb.entry.name in _COMPARING_ADJECTIVES else _BEATEN_IN
        beaten = joint.match(text, verb.end)
        if beaten is None:
            continue
        position = _LEAD.match(text, beaten.end()).end()
        for _ in range(MAX_LISTED):
            span = _measure_at(text, position) or _head_alone(text, position)
            if span is None or not _beaten_in(text, span):
                break
            add_measure(paper, span)
            gap = LIST_JOIN.match(text, span[1])
            if gap is None:
                break
            position = _LEAD.match(text, gap.end()).end()


def _beaten_in(text: str, span: tuple[int, int]) -> bool:
    """Whether the phrase is what is measured, not a setting it is beaten in: not a phrase going on
    into a setting ('in a deep metric learning setting') or a number format ('in half precision')."""
    words = text[span[0] : span[1]].split()
    following = _WORD.match(text, span[1] + 1) if text.startswith(" ", span[1]) else None
    return not (
        (following is not None and following.group() in _SETTING_NOUNS)
        or (len(words) == 2 and words[0] in _NUMBER_FORMATS and words[1] == "precision")
    )


_NUMBER_FORMATS = frozenset(NUMBER_FORMATS)
_SETTING_NOUNS = frozenset(SETTING_NOUNS)


def _head_alone(text: str, position: int) -> tuple[int, int] | None:
    """A measure head that is the whole phrase: 'in speed,', 'in latency and ...'."""
    word = _WORD.match(text, position)
    if word is None or word.group() not in _HEADS or _continues(text, word.end()):
        return None
    return word.span()
