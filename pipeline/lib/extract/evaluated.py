"""Measures a sentence names as what is evaluated, with no value: the qualities a result shows of a
system ('we demonstrate the accuracy, robustness, and scalability of our method') and the measure
a metric is called ('a metric known as sampling efficiency').

measures.py finds the measures a comparison, a value or a cue names; these are the ones an
evaluation names outright.
"""

from __future__ import annotations

import re

from pipeline.lib.extract.measures import add_measure
from pipeline.lib.extract.state import PaperState
from pipeline.lib.extract.vocabulary import (
    FUNCTION_WORDS,
    MEASURE_HEADS,
    METRIC_FILLERS,
    METRIC_HEADS,
    SHOWING_VERBS,
    SHOWN_QUALITIES,
    UNMEASURED_QUALITIES,
    UNMEASURED_WORDS,
    WEAK_MEASURE_HEADS,
    WEAK_METRIC_HEADS,
    alternation,
)

# 'we demonstrate the ... of' (a verb of SHOWING_VERBS before it): what is shown of a system, read up
# to its "of".
_SHOWN = re.compile(r" the (?P<items>[a-z][a-z ,-]{2,100}?)\s+of\s")
_SHOWING_BEFORE = re.compile(rf"\b(?:{alternation(SHOWING_VERBS)})$")
_ITEM_JOIN = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
_WORD = re.compile(r"[a-z][a-z-]*")
_QUALITIES = frozenset(SHOWN_QUALITIES)
# Words that make the item a statement, not a measure: 'the following generalization of'.
_ORDINALS = frozenset(("following", "above", "first", "second", "main", "key"))
_NEEDS_MODIFIER = (WEAK_MEASURE_HEADS | WEAK_METRIC_HEADS) - {"speed"}
_HEADS = METRIC_HEADS | MEASURE_HEADS
_UNMEASURED = frozenset(UNMEASURED_QUALITIES) | frozenset(UNMEASURED_WORDS)
_FILLERS = frozenset(METRIC_FILLERS) | frozenset(
    ("accurate", "excellent", "good", "strong", "superior", "practical")
)
# 'a metric known as sampling efficiency', 'a new metric called cover rate'.
_CALLED = re.compile(
    r"\bmetrics?\s+(?:known\s+as|called|named|termed|dubbed)\s+(?P<phrase>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2})"
    r"(?=\s*[,.;:)(]|\s+(?:that|which|to|for|and)\b)"
)


def add_evaluated_measures(paper: PaperState) -> None:
    """'we demonstrate the accuracy, robustness, and scalability of our method' (accuracy,
    robustness: scalability is a property, UNMEASURED_QUALITIES), 'confirm the effectiveness and
    efficiency of' (efficiency), 'a metric known as sampling efficiency'."""
    text = paper.text
    # ' the ... of' is looked for first, a plain string the scan finds fast; then the verb before it.
    position = 0
    while (shown := _SHOWN.search(text, position)) is not None:
        if not _SHOWING_BEFORE.search(text, max(0, shown.start() - 14), shown.start()):
            position = shown.start() + 1  # a later ' the' inside this one may follow a verb
            continue
        for start, end in _shown_items(text, *shown.span("items")):
            add_measure(paper, (start, end))
        position = shown.end()
    for called in _CALLED.finditer(text) if "metric" in text else ():
        if not any(word in FUNCTION_WORDS for word in called["phrase"].split()):
            add_measure(paper, called.span("phrase"))


def _shown_items(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The measures listed in [start, end): each item's last one or two words, after the words that
    say how good it is, when they end in a measure head or a measured quality ('the accuracy and
    robustness'); none when an item is something else ('the code and data', 'the usefulness')."""
    items: list[tuple[int, int]] = []
    position = start
    for join in [*_ITEM_JOIN.finditer(text, start, end), None]:
        item_end = join.start() if join else end
        words = [(position + w.start(), position + w.end()) for w in _WORD.finditer(text[position:item_end])]
        while len(words) > 1 and text[words[0][0] : words[0][1]] in _FILLERS:
            words.pop(0)
        if not words or len(words) > 2:
            return []
        last = text[words[-1][0] : words[-1][1]]
        if text[words[0][0] : words[0][1]] in _ORDINALS:
            return []  # 'the following generalization of': a statement, not a measure
        if len(words) == 1 and last in _NEEDS_MODIFIER:
            return []  # 'the usage of', 'the rate of convergence'
        if last in _HEADS or last in _QUALITIES:
            items.append((words[0][0], words[-1][1]))
        elif last not in _UNMEASURED:  # 'the effectiveness and efficiency': the other items count
            return []
        position = join.end() if join else end
    return items
