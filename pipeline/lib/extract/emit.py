"""Mentions: every occurrence of every surface form, overlaps resolved longest first."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from operator import itemgetter

from pipeline.lib.extract.lexicons import on_word_boundaries
from pipeline.lib.extract.state import MAX_MENTIONS, Entity, Mention, PaperState


def _word_spans(text: str, form: str) -> list[tuple[int, int]]:
    """Where form is written as a whole word, or as one with a plural 's'."""
    spans = []
    position = text.find(form)
    while position != -1:
        end = position + len(form)
        following = text[end : end + 1]
        # Inside a longer word ('FBN1' in 'FBN12'), neither a word nor a plural: told without a call.
        if following.isalnum() and following != "s":
            pass
        elif on_word_boundaries(text, position, end):
            spans.append((position, end))
        elif following == "s" and on_word_boundaries(text, position, end + 1):
            spans.append((position, end + 1))
        position = text.find(form, position + 1)
    return spans


# Mentions at one span are ordered by all but their evidence, which decides nothing (and, None beside
# a string, would not compare).
_ORDER = itemgetter(slice(0, 7))


def emit(paper: PaperState) -> tuple[list[Mention], bool]:
    """The mentions, in text order, and whether MAX_MENTIONS cut them short."""
    text = paper.text
    # The entities at each span, as the shared lists of the entities holding each surface form
    # found there: a form that many entities hold costs its occurrences, not their product.
    holders: dict[str, dict[int, Entity]] = {}
    at: dict[tuple[int, int], list[Sequence[Entity]]] = {}
    for entity in paper.entities.values():
        for span in entity.spans:
            at.setdefault(span, []).append((entity,))
        for form in entity.forms:
            if len(form) >= 2:
                for variant in {form, form[0].upper() + form[1:], form[0].lower() + form[1:]}:
                    holders.setdefault(variant, {})[id(entity)] = entity
    for variant, entities in holders.items():
        members = list(entities.values())
        for span in _word_spans(text, variant):
            at.setdefault(span, []).append(members)
    # Longest first, so a long form wins over a lexicon word inside it. The same span may name two
    # entities ('AlphaFold 2/3'), never a part of another span, so the spans taken never overlap
    # and, sorted, the last one starting before a span's end is the only one that could cross it.
    taken: list[tuple[int, int]] = []
    for start, end in sorted(at, key=lambda span: (span[0] - span[1], span[0])):
        before = bisect.bisect_left(taken, (end,))
        if (before and taken[before - 1][1] > start) or paper.is_blocked(start):
            continue
        bisect.insort(taken, (start, end))
    mentions: list[Mention] = []
    for start, end in taken:
        members_here = at[(start, end)]
        if len(members_here) == 1:
            named = members_here[0]  # one list, each of its entities once: nothing to merge
        else:
            named = list({id(entity): entity for members in members_here for entity in members}.values())
        here = [
            Mention(
                start,
                end,
                text[start:end],
                entity.name,
                entity.entity_type,
                "proposed" if entity.proposed else "referenced",
                entity.expansion,
                entity.evidence,
            )
            for entity in named
        ]
        here.sort(key=_ORDER)
        if len(mentions) + len(here) > MAX_MENTIONS:
            mentions += here[: MAX_MENTIONS - len(mentions)]
            return mentions, True
        mentions += here
    return mentions, False
