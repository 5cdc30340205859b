"""Names listed: after a kind noun, things of its kind ('benchmarks such as A and B', type_list, which
the context rules call), and around a dataset noun where the other list rules leave them: before a
plural one ('experiments on the Netflix and Movielens datasets'), and after one and a colon ('two
graph benchmarks: MalNet and TpuGraphs')."""

from __future__ import annotations

import re

from pipeline.lib.extract.shapes import list_items, listed_name, plain_capitalised
from pipeline.lib.extract.state import PaperState
from pipeline.lib.extract.vocabulary import LIST_KIND_NOUNS, LIST_KIND_NOUNS_NOT_BEFORE_PARENTHESES

# The plural dataset nouns a list of names may stand before: 'the A, B and C benchmarks'.
DATASETS_AFTER_LIST = ("datasets", "benchmarks", "corpora")
_ITEM = r"[A-Z0-9][\w.+-]*(?: [A-Z0-9][\w.+-]*)?"
# The list opens after a preposition of evaluation, so that it is what is evaluated on.
_LIST_BEFORE = re.compile(
    rf"\b(?:on|across|using|from|with|in) (?:the |both |all )?((?:{_ITEM}, )*{_ITEM},? (?:and|or) {_ITEM}) $"
)
_REACH = 160
# A dataset noun, a colon and a capitalised list: 'datasets: A, B, and C'; not the nouns too
# general for it ('tasks: (i) ...'), nor the other kinds ('measures: The X scheme ...',
# 'models: Model I with ...'), whose colons open sentences as often as lists.
_COLON_KINDS = sorted(set(LIST_KIND_NOUNS["dataset"]) - set(LIST_KIND_NOUNS_NOT_BEFORE_PARENTHESES))
_COLON_LIST = re.compile(rf"\b({'|'.join(_COLON_KINDS)}): (?=[A-Z0-9])")


# The kind each kind noun says the names listed after it are: "benchmarks such as A" are datasets.
KIND_TYPES = {noun: kind for kind, nouns in LIST_KIND_NOUNS.items() for noun in nouns}
_OWNER_BEFORE_NAME = re.compile(r"[A-Z][\w-]*['’]s ")


def type_list(paper: PaperState, kind_noun: str, position: int) -> None:
    """The names listed from position are things of the kind the kind noun says. A name the shapes
    took for a method is a model in a list of models that holds a model already ('models such as
    Zorb-MoE and Quux-7B', 'models (including GPT-4o and ZorbHop-Net)'); in a list of models alone
    ('topic models such as ZorbLDA') it stays what the shapes made it."""
    text = paper.text
    entity_type = KIND_TYPES[kind_noun]
    shaped_methods, holds_model = [], False
    for item in list_items(text, position):
        owner = _OWNER_BEFORE_NAME.match(text, item[0], item[1])
        if owner is not None:
            item = (owner.end(), item[1])  # 'OpenAI’s GPT-4' is GPT-4
        name = listed_name(paper, item)
        if name is None:
            continue
        existing = paper.entities.get(paper.key(name))
        if existing is not None:
            holds_model = holds_model or existing.entity_type == "model"
            if not existing.known and entity_type == "dataset":
                paper.retype(existing, entity_type)  # context beats shape
            elif existing.entity_type == "method" and not (existing.known or existing.expansion):
                shaped_methods.append(existing)
            continue
        entry = paper.lexicon.lookup(name)
        paper.add(name, entry.kind if entry else entity_type, item, known=True)
    if entity_type == "model" and holds_model:
        for entity in shaped_methods:
            paper.retype(entity, "model")


def add_names_before_datasets(paper: PaperState) -> None:
    """'experiments on the Netflix and Movielens datasets', 'on IHDP, ACIC and Twins benchmarks':
    each name of a list written right before a plural dataset noun is a dataset, unless a lexicon
    knows it as something else or it is a language ('on English and German corpora')."""
    text = paper.text
    for hit in paper.cue_hits:
        if hit.entry.kind != "cue:head" or hit.entry.name not in DATASETS_AFTER_LIST:
            continue
        listed = _LIST_BEFORE.search(text, max(0, hit.start - _REACH), hit.start)
        if listed is None:
            continue
        items = list_items(text, listed.start(1))
        for item in items:
            name = listed_name(paper, item, False)
            if item[1] > listed.end(1) or name is None or name in paper.lexicon.languages:
                continue
            if plain_capitalised(name) and " " in text[items[-1][0] : items[-1][1]]:
                continue  # 'the Sequential and Permuted MNIST datasets' share a name's head
            entity = paper.entities.get(paper.key(name))
            if entity is None and not _covered(paper, item) and paper.lexicon.lookup(name) is None:
                paper.add(name, "dataset", item)
            elif (
                entity is not None
                and entity.entity_type == "method"
                and not (entity.known or entity.expansion)
            ):
                paper.retype(entity, "dataset")


def _covered(paper: PaperState, item: tuple[int, int]) -> bool:
    return any(start < item[1] and item[0] < end for start, end in paper.covered)


def add_colon_lists(paper: PaperState) -> None:
    """'two graph benchmarks: MalNet and TpuGraphs': the names listed after a dataset noun and a
    colon are datasets."""
    text = paper.text
    if ": " in text:
        for m in _COLON_LIST.finditer(text):
            type_list(paper, m.group(1), m.end())
