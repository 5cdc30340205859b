"""What the paper itself introduces: the cues that mark a name as the paper's own.

The cue words come out of the same Aho–Corasick pass as the lexicon names (heads.CUE_WORDS);
short anchored patterns then check each one in its place. Three kinds of cue:

- a proposal clause, "we propose / introduce / present / build ... X": names first written
  inside it, before any marker of a reference ("such as", "compared to"), are the paper's;
- a naming slot, "which we call X", "dubbed X", "our model X", "a novel module, X": the next
  name is the paper's;
- an apposition, "X, a novel framework": X is the paper's.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from pipeline.lib.extract import sentences
from pipeline.lib.extract.lexicons import Hit
from pipeline.lib.extract.vocabulary import (
    OUR_SLOT_KIND_NOUNS,
    PROPOSED_SLOT_KIND_NOUNS,
    RESULTING_KIND_NOUNS,
    SLOT_PARTICIPLES,
    WE_NAMING_VERBS,
    WHAT_WE_NAMING_VERBS,
    alternation,
)

# What may stand between the subject and a proposal verb: "we further propose", "we then design".
_ADVERBS = (
    r"(?:(?:\w+ly|further|also|then|first|here|now|thus|therefore|hence|instead|additionally|finally)\s+)*"
)
# The subject of a proposal verb, read backwards from the verb.
_SUBJECT = re.compile(
    rf"(?:\b[Ww]e|\b[Tt]his (?:paper|work|study|article)|\b[Oo]ur (?:work|paper|study)|\b[Ww]e here"
    rf"|\b(?:allows?|allowed|enables?|enabled|leads?|led|motivates?|motivated|inspires?|inspired|prompts?)"
    rf" us to)"
    rf"\s+{_ADVERBS}$"
)
# "we first show that ... and then design X": a verb coordinated with an earlier "we".
# 'We then use this framework to build X': the purpose of a first-person clause, likewise.
_COORDINATED = re.compile(rf"\b(?:and|then|to)\s+(?:to (?:this|that) end,?\s+)?{_ADVERBS}$")
_FIRST_PERSON = re.compile(r"\b(?:[Ww]e|[Oo]ur|[Tt]his (?:paper|work|study|article))\b")
_PASSIVE = re.compile(r"\b(?:is|are)\s+(?:\w+ly\s+)?$")
# Where a clause that proposes something starts to speak of other work instead.
REFERENCE_MARKER = re.compile(
    r"\be\.g\.|\b(?:such as|like|including|compared|comparing|than|unlike|inspired|following|against|"
    r"versus|vs\.?|outperform\w*|surpass\w*|beyond|existing|prior|previous|baselines?|upon|over|"
    r"representative|popular|well-known|widely[- ]used|classic|classical|conventional|traditional|"
    r"off-the-shelf|mainstream|standard|incorporat\w+|"
    r"(?:study|studies|analysis|analyses|investigation|understanding|understandings|characteri[sz]ation|"
    r"formulation|reformulation) of|"
    r"builds? on|built on|extends?|extending|extensions? of|modifications? of|variants? of|versions? of|"
    r"instead of|"
    r"generali[sz]ation of|combin\w+|integrat\w+ with|plugs? into|on top of|using|uses|use|leverag\w+|"
    r"adopt\w*|employ\w*|via|from|with the|to the|into|augment(?:s|ing)|modif(?:y|ies|ying))\b"
)
# A slot, read backwards from a name, whose name is the paper's own.
_NAMING_SLOT = re.compile(
    rf"(?:\b(?:which|that|what) we (?:{alternation(WHAT_WE_NAMING_VERBS)})"
    rf"|\b[Ww]e (?:{alternation(WE_NAMING_VERBS)})"
    r"(?: (?:it|them|(?:this|these|our|the)(?: [\w-]+){0,2}))?(?: (?:a|an))?"
    rf"|\b(?:{alternation(SLOT_PARTICIPLES)})"
    rf"|\b[Tt]he (?:resulting|final) (?:[\w-]+ )?(?:{alternation(RESULTING_KIND_NOUNS)}),"
    rf"|\b[Oo]ur (?:proposed |new |novel )?(?:[\w-]+ )?(?:{alternation(OUR_SLOT_KIND_NOUNS)})"
    rf"|\b[Oo]ur proposed|\b[Tt]he proposed (?:[\w-]+ )?(?:{alternation(PROPOSED_SLOT_KIND_NOUNS)})?(?: as)?"
    r"|\b[Oo]ur|\b(?:novel|new) (?:[\w-]+ ){0,6}[\w-]+,)"
    r"\s*[:,(]?\s*(?:(?:the|an?)\s+)?[‘“'\"]?$"
)
# "X, a novel framework", "X, the first benchmark", "X (ABC), an efficient new method".
_APPOSITION_NOVEL = re.compile(
    r"\s*(?:\([^()]{1,40}\)\s*)?,\s+(?:(?:which|that) (?:is|are)\s+)?(?:a|an|the|our)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:novel|new|first|proposed|simple|our)\b"
)
# 'Our main contributions are the tuned SW-UCB algorithm ...', 'Our first contribution is the
# introduction of the X': a sentence that lists what the paper proposes, like a proposal verb.
_CONTRIBUTION = re.compile(
    r"\b[Oo]ur (?:[\w-]+ ){0,2}?contributions? (?:is|are|includes?|consists? of)\b"
    r"(?: (?:the |an? )?(?:introduction|development|design|proposal) of\b)?"
)
# How far before a passive proposal verb its subject may start: 'An effective and efficient
# multi-view querying Transformer (MVQ-Former) for aggregating ... is introduced'.
_PASSIVE_REACH = 160
# The clause a passive proposal verb ends: 'where a meta-controller is introduced'.
_CLAUSE_OPENING = re.compile(r".*(?:[,;:]\s|\b(?:where|which|that|and|then|while)\s)", re.DOTALL)


class Cues(NamedTuple):
    sentence_starts: list[int]
    windows: list[tuple[int, int]]  # proposal clauses: from the verb to the first reference marker
    window_words: list[str]  # the cue word that opened each window: 'introduce', 'contribution'
    slots: list[int]  # ends of naming-slot cue words
    sentences: list[tuple[int, int]]  # from a first-person proposal verb to the end of its sentence


def sentence_of(cues: Cues, text: str, position: int) -> tuple[int, int]:
    return sentences.sentence_of(cues.sentence_starts, text, position)


def find_cues(text: str, cue_hits: list[Hit]) -> Cues:
    starts = sentences.sentence_starts(text, loose=True)
    cues = Cues(starts, [], [], [], [])
    for hit in cue_hits:
        kind = hit.entry.kind
        if kind == "cue:slot":
            cues.slots.append(hit.end)
        elif kind == "cue:verb":
            sentence_start, sentence_end = sentence_of(cues, text, hit.start)
            before = max(sentence_start, hit.start - 60)
            if _SUBJECT.search(text, before, hit.start) or (
                _COORDINATED.search(text, before, hit.start)
                and _FIRST_PERSON.search(text, sentence_start, hit.start)
            ):
                marker = REFERENCE_MARKER.search(text, hit.end, sentence_end)
                cues.windows.append((hit.end, marker.start() if marker else sentence_end))
                cues.window_words.append(hit.entry.name)
                cues.sentences.append((hit.end, sentence_end))
            elif hit.entry.name.endswith("ing") and _FIRST_PERSON.search(text, sentence_start, hit.start):
                # 'We address this by introducing X'.
                marker = REFERENCE_MARKER.search(text, hit.end, sentence_end)
                cues.windows.append((hit.end, marker.start() if marker else sentence_end))
                cues.window_words.append(hit.entry.name)
            elif hit.entry.name.endswith("ed") and _PASSIVE.search(text, before, hit.start):
                reach = max(sentence_start, hit.start - _PASSIVE_REACH)
                clause = _CLAUSE_OPENING.match(text, reach, hit.start)
                cues.windows.append((clause.end() if clause else reach, hit.start))
                cues.window_words.append(hit.entry.name)
    if "ontribution" in text:
        for m in _CONTRIBUTION.finditer(text):
            _, sentence_end = sentence_of(cues, text, m.start())
            marker = REFERENCE_MARKER.search(text, m.end(), sentence_end)
            cues.windows.append((m.end(), marker.start() if marker else sentence_end))
            cues.window_words.append("contribution")
            cues.sentences.append((m.end(), sentence_end))
    return cues


def in_window(cues: Cues, position: int) -> bool:
    return any(start <= position < end for start, end in cues.windows)


def window_word(cues: Cues, position: int) -> str | None:
    """The cue word of the first proposal clause that holds position."""
    return next(
        (
            word
            for (start, end), word in zip(cues.windows, cues.window_words, strict=True)
            if start <= position < end
        ),
        None,
    )


def after_naming_slot(cues: Cues, text: str, start: int) -> bool:
    """Is the name at start the one a naming slot just before it introduces?"""
    if not any(start - 70 <= slot <= start for slot in cues.slots):
        return False
    return _NAMING_SLOT.search(text, max(0, start - 70), start) is not None


def novel_apposition(text: str, end: int) -> bool:
    return _APPOSITION_NOVEL.match(text, end, end + 100) is not None


# Markers after which a name in a proposal sentence is somebody else's, however it is written.
_STRONG_REFERENCE = re.compile(
    r"\b(?:e\.g|i\.e)\.|\b(?:such as|like|including|compared|than|unlike|against|versus|vs\.?|outperform\w*|"
    r"surpass\w*|baselines?|over|existing|prior|previous|inspired|following)\b"
)
# A name set off at the end of the object it names: '..., StarSSE, which', '..., X.'.
_SET_OFF = re.compile(r"(?:,|\.|;|\(| which\b| that\b|$)")


def set_off(text: str, end: int) -> bool:
    return _SET_OFF.match(text, end) is not None


def apposed_in_proposal(cues: Cues, text: str, start: int, end: int) -> bool:
    """'we propose a more effective modification of the Snapshot Ensembles (SSE) for transfer
    learning setup, StarSSE, which ...': a name set off by commas in a proposal sentence, with no
    strong reference marker between the verb and it."""
    for verb_end, sentence_end in cues.sentences:
        if verb_end <= start < sentence_end:
            return apposed_after(text, verb_end, start, end)
    return False


def strong_reference(text: str, start: int, end: int) -> bool:
    return _STRONG_REFERENCE.search(text, start, end) is not None


def apposed_after(text: str, verb_end: int, start: int, end: int) -> bool:
    """A name set off by commas after the verb at verb_end, with no strong reference marker
    between them."""
    return (
        text[max(0, start - 2) : start] == ", "
        and _SET_OFF.match(text, end) is not None
        and _STRONG_REFERENCE.search(text, verb_end, start) is None
    )
