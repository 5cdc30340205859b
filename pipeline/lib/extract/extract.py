"""Named entities of one abstract: methods, models, datasets and metrics, with their role.

Candidates come from five sources:

1. abbreviation definitions: the long form and its acronym are one entity, typed by the head
   word of the long form; topic acronyms (LLM, RL, KV) stay abbreviations only;
2. the curated lexicons, found by one Aho–Corasick pass that also reports the cue words;
3. name-shaped tokens: inner capitals, digits in words (``Qwen3-8B``, ``MixKV``, ``SR-CACO-2``);
4. context: "the X dataset", "a semantic IoU of 82.4", version numbers after a model name;
5. the Title-Case names a proposal clause introduces ("We introduce Expert Merging, ...").

Every occurrence of every surface form then becomes a mention, overlaps resolved longest first,
so ``text == abstract[start:end]`` holds by construction. The few full-text passes are compiled
patterns and the automaton; the Python loops run over their (few) matches, not over the words.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.lib.extract.abbreviations import find_abbreviations
from pipeline.lib.extract.emit import emit
from pipeline.lib.extract.lexicons import Lexicon, load_lexicon
from pipeline.lib.extract.links import Link, find_links
from pipeline.lib.extract.rules import RULES, STAGES
from pipeline.lib.extract.state import LIMITS, MAX_DEFINITIONS, PaperEntities, PaperState

# The rules by stage, in their registered order within a stage: sorted once, not per abstract.
_RUN_ORDER = tuple(rule for stage in STAGES for rule in RULES if rule.stage == stage)


def extract_entities(
    text: str, lexicon: Lexicon | None = None, links: Sequence[Link] | None = None
) -> PaperEntities:
    """All entity mentions and abbreviation definitions of one abstract_clean text; `links` are the
    text's links when the caller has found them already."""
    lexicon = lexicon or load_lexicon()
    abbreviations = find_abbreviations(text, limit=MAX_DEFINITIONS + 1)  # one more tells a cut
    definitions_capped = len(abbreviations) > MAX_DEFINITIONS
    del abbreviations[MAX_DEFINITIONS:]
    paper = PaperState(text, lexicon, find_links(text) if links is None else links, abbreviations)
    for rule in _RUN_ORDER:
        paper.rule = rule.name
        rule.apply(paper)
    mentions, mentions_capped = emit(paper)
    cut = (definitions_capped, paper.entities_capped, mentions_capped)
    capped = tuple(limit for limit, applied in zip(LIMITS, cut, strict=True) if applied)
    return PaperEntities(mentions, abbreviations, capped)
