"""Released models among the names typed as methods: a versioned name that the paper uses rather
than proposes, set beside a model (in a list with one, after a model noun or 'fine-tune', before
'model' or 'weights'), is a trained model: 'the embedding model ABC-M3', 'Kestrel-1x and
Llama-3', 'we fine-tune Heron-v2', 'Heron-v2 checkpoints'. So is a family and its variant written
with a hyphen, in a list with a model: 'Zorb-MoE and Quux-7B', 'GPT-4o and VL-Zorb'.

A version alone does not make a model: algorithms have versions too ('Exp3', 'UCB1'), so do
datasets ('Flowers-102') and cited works ('Smith95'); the context decides.
"""

from __future__ import annotations

import re

from pipeline.lib.extract.shapes import LIST_JOIN
from pipeline.lib.extract.state import Entity, PaperState
from pipeline.lib.extract.vocabulary import (
    LANGUAGE_MODEL_NOUNS,
    MODEL_WORDS_AFTER,
    MODEL_WORDS_BEFORE,
    alternation,
)

# A word, then its version: 'Kestrel-1x', 'Heron-v2', 'Zero123', 'Osprey-2.5', 'ABC-M3'. A word of
# capitals takes only a lettered version ('ABC-M3'), as 'TD3' and 'SR-2' name other things.
_VERSIONED = re.compile(
    r"(?:[A-Z][A-Za-z]*[a-z][A-Za-z]*(?:[-_]?[vV]?\d+(?:\.\d+)*[a-z]?|-\d+(?:\.\d+)*x)"
    r"|[A-Z][A-Za-z]+-[A-Z]\d+)"
)
# Not versions: a year ('VisDA-2017'), a cited work ('Smith95').
_NOT_A_VERSION = re.compile(r".*(?:\d{4}|[a-z]\d\d)$")
# A family and its variant, joined by a hyphen: 'Zorb-MoE', 'QuuxT-S', 'VL-Zorb'. Without a version
# it is a model only in a list with one ('Zorb-MoE and Quux-7B'), not after a model noun.
_VARIANT_NAMED = re.compile(r"[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9][A-Za-z0-9-]*")
_MODEL_WORD_BEFORE = re.compile(rf"\b(?:{alternation(MODEL_WORDS_BEFORE)}),? (?:the )?$")
_MODEL_WORD_AFTER = re.compile(rf" (?:{alternation(MODEL_WORDS_AFTER)})\b")
_WINDOW = 30


def retype_released_models(paper: PaperState) -> None:
    text = paper.text
    models = [span for e in paper.entities.values() if e.entity_type == "model" for span in e.spans]
    for entity in list(paper.entities.values()):
        if not _is_used_method(entity):
            continue
        released = _VERSIONED.fullmatch(entity.name) and not _NOT_A_VERSION.fullmatch(entity.name)
        if not (released or _VARIANT_NAMED.fullmatch(entity.name)):
            continue
        for start, end in sorted(entity.spans):
            if (
                released
                and (
                    _MODEL_WORD_BEFORE.search(text, max(0, start - _WINDOW), start)
                    or _MODEL_WORD_AFTER.match(text, end)
                )
            ) or _listed_with(text, (start, end), models):
                paper.retype(entity, "model")
                break


def _is_used_method(entity: Entity) -> bool:
    """A name typed as a method by its shape alone, which the paper uses rather than proposes."""
    return (
        entity.entity_type == "method"
        and not entity.known
        and not entity.proposed
        and entity.expansion is None
    )


def _listed_with(text: str, span: tuple[int, int], models: list[tuple[int, int]]) -> bool:
    """Whether a model is the item right before or right after span in a list."""
    start, end = span
    return any(
        (model_end <= start and LIST_JOIN.fullmatch(text, model_end, start))
        or (end <= model_start and LIST_JOIN.fullmatch(text, end, model_start))
        for model_start, model_end in models
    )


# A name the sentence defines as trained language models: 'ZorbMoE, a series of fully open-sourced
# MoE LLMs', 'a set of open-source LLMs named as ZorbMol', 'Foo-Chat, a 7B chat LLM'.
_LLMS = alternation(LANGUAGE_MODEL_NOUNS)
# The noun is the head of the apposition: no preposition or clause before it ('a method for LLMs'),
# nothing after it but the end of the phrase ('an LLM agent system', 'LLM-based').
_DEFINED_AS_LLMS_AFTER = re.compile(
    r",\s+(?:a|an)\s+(?:(?:series|family|suite|set|collection)\s+of\s+)?"
    r"(?:(?!(?:for|to|of|with|that|which|and|or|in|on|by)\b)[\w-]+\s+){0,5}?"
    rf"(?:{_LLMS})(?=\s*[,.;:(]|\s+(?:that|which|with|for|trained|pre-?trained|capable|designed|built|by)\b)"
)
_LLMS_NAMED_BEFORE = re.compile(rf"\b(?:{_LLMS})\s+(?:named|called|dubbed|termed)(?:\s+as)?\s+$")


def retype_defined_language_models(paper: PaperState) -> None:
    """A name typed as a method that the sentence defines as (a series of) trained language models
    is a model, the paper's own or not: 'we train and release ZorbMoE, a series of ... MoE LLMs'."""
    text = paper.text
    for entity in list(paper.entities.values()):
        if entity.entity_type != "method" or entity.known or entity.expansion is not None:
            continue
        for start, end in sorted(entity.spans):
            if _DEFINED_AS_LLMS_AFTER.match(text, end) or _LLMS_NAMED_BEFORE.search(
                text, max(0, start - _WINDOW), start
            ):
                paper.retype(entity, "model")
                break


# A released model's name ending in its size, then more sizes listed after it: 'Zentro 7B, 13B,
# 70B', 'Foo-7B and 13B', 'Foo 7B/13B'.
_SIZED_NAME = re.compile(r"(?P<family>.*?[A-Za-z].*?)(?P<sep>[\s-])\d+(?:\.\d+)?[BMK]")
_LISTED_SIZE = re.compile(
    r"(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+|\s*/\s*)(?P<size>\d+(?:\.\d+)?[BMK])(?![\w-]|\.\d)"
)


def add_listed_sizes(paper: PaperState) -> None:
    """The sizes listed after a sized model's name are models of that family: 'Zentro 7B, 13B,
    70B' names Zentro 13B and Zentro 70B, each written as its size."""
    text = paper.text
    for entity in list(paper.entities.values()):
        if entity.entity_type != "model":
            continue
        for start, end in sorted(entity.spans):
            sized = _SIZED_NAME.fullmatch(text, start, end)
            if sized is None:
                continue
            position = end
            while (listed := _LISTED_SIZE.match(text, position)) is not None:
                span = listed.span("size")
                if span not in paper.covered:
                    paper.add(sized["family"] + sized["sep"] + listed["size"], "model", span)
                position = listed.end()
