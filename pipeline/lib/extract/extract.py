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

from pipeline.lib.extract import proposed as cue
from pipeline.lib.extract.abbreviations import find_abbreviations
from pipeline.lib.extract.candidates import (
    add_abbreviations,
    add_lexicon_hits,
    add_shape_tokens,
    split_glued_words,
)
from pipeline.lib.extract.context import (
    add_context,
    add_languages,
    add_modified_names,
    add_named_algorithms,
    add_named_heads,
    add_tiers,
    add_versions,
)
from pipeline.lib.extract.emit import emit
from pipeline.lib.extract.introduced import (
    add_apposed_names,
    add_introduced_names,
    add_introduced_phrases,
    add_renamed_kinds,
)
from pipeline.lib.extract.lexicons import Lexicon, load_lexicon
from pipeline.lib.extract.links import Link, find_links
from pipeline.lib.extract.naming import (
    add_enumerated_contributions,
    add_named_after_kind,
    add_named_by_slots,
    add_own_named_kinds,
    add_titled_methods,
)
from pipeline.lib.extract.roles import assign_roles
from pipeline.lib.extract.state import LIMITS, MAX_DEFINITIONS, PaperEntities, PaperState


def extract_entities(
    text: str, lexicon: Lexicon | None = None, links: Sequence[Link] | None = None
) -> PaperEntities:
    """All entity mentions and abbreviation definitions of one abstract_clean text; `links` are the
    text's links when the caller has found them already."""
    lexicon = lexicon or load_lexicon()
    paper = PaperState(text, lexicon, find_links(text) if links is None else links)
    hits, cue_hits = lexicon.find(text)
    cues = cue.find_cues(text, cue_hits)
    abbreviations = find_abbreviations(text, limit=MAX_DEFINITIONS + 1)  # one more tells a cut
    definitions_capped = len(abbreviations) > MAX_DEFINITIONS
    del abbreviations[MAX_DEFINITIONS:]
    add_abbreviations(paper, abbreviations, cues)
    add_lexicon_hits(paper, hits, cues)
    add_shape_tokens(paper)
    split_glued_words(paper)
    add_context(paper, cue_hits)
    add_introduced_names(paper, cues)
    add_introduced_phrases(paper, cues)
    add_named_by_slots(paper, cues, cue_hits)
    add_apposed_names(paper)
    add_renamed_kinds(paper, cues)
    add_named_after_kind(paper, cues)
    add_titled_methods(paper)
    add_own_named_kinds(paper)
    add_versions(paper)
    add_tiers(paper)
    add_modified_names(paper, cues)
    add_named_algorithms(paper, cues)
    add_named_heads(paper)
    add_languages(paper)
    add_enumerated_contributions(paper, cues)
    assign_roles(paper, cues)
    mentions, mentions_capped = emit(paper)
    cut = (definitions_capped, paper.entities_capped, mentions_capped)
    capped = tuple(limit for limit, applied in zip(LIMITS, cut, strict=True) if applied)
    return PaperEntities(mentions, abbreviations, capped)
