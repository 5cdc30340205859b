"""Names a proposal clause introduces: Title-Case runs, quoted or lower-case phrases after the
verb, renamed kinds and names set off by a novel apposition."""

from __future__ import annotations

import re
from collections.abc import Iterator

from pipeline.lib.extract.lexicons import Lexicon, on_word_boundaries
from pipeline.lib.extract.shapes import (
    ADJECTIVE_ENDING,
    CLAIM_AFTER,
    ENDS_NOUN_PHRASE,
    ENTITY_KINDS,
    LIST_JOIN,
    LISTED_TITLE_RUN,
    NEXT_WORD,
    TITLE_RUN,
    at_sentence_start,
    introduced_type,
    plain_capitalised,
    says_new,
)
from pipeline.lib.extract.state import PaperState
from pipeline.lib.extract.vocabulary import (
    DEFINED_KIND_NOUNS,
    FUNCTION_WORDS,
    INTRO_FILLERS,
    METHOD_HEADS,
    NAMED_HEADS,
    PROPOSAL_PARTICIPLES,
    alternation,
)

# 'We introduce self-guidance, a method that ...': a lower-case name the apposition defines.
_LOWER_NAME = re.compile(
    r"[a-z][\w-]*(?: [a-z][\w-]*){0,2}"
    rf"(?=, (?:a|an) (?:[\w-]+ ){{0,4}}?(?:{alternation(DEFINED_KIND_NOUNS)})s?\b)"
)


def add_introduced_names(paper: PaperState) -> None:
    """Title-Case names that only a proposal clause marks as names: 'We introduce Expert Merging,'.
    After the verb, fillers ('a novel', 'two new') are skipped; a list of names is followed."""
    text, cues = paper.text, paper.cues
    for (window_start, window_end), verb in zip(cues.windows, cues.window_words, strict=True):
        if _introduce_from(paper, verb, window_start, window_start, window_end):
            continue
        # 'we propose three regularisation techniques: Attention Masking, ... and Bind Adjective',
        # 'a simple efficient policy optimization framework—Optimistic NPG for online RL'.
        opening = _LIST_OPENING.search(text, window_start, min(window_end, window_start + 100))
        if opening is not None:
            _introduce_from(paper, verb, window_start, opening.end(), window_end)


_LIST_OPENING = re.compile(r"(?::|—|–)\s*")


_NAME_LOWER_HEAD = re.compile(r"([A-Z][a-z]{2,}) ([a-z]+)\b")


_HEAD_NOUNS = METHOD_HEADS | NAMED_HEADS


def _introduce_from(paper: PaperState, verb: str, window_start: int, position: int, window_end: int) -> bool:
    """Add the names of the proposal window verb opened, from position on; whether there was a name
    to read."""
    text = paper.text
    read = False
    while position < window_end:
        run = None
        cursor = position
        while cursor < window_end:
            word = NEXT_WORD.match(text, cursor, window_end)
            if word is None:
                break
            if word.group(1).lower() in INTRO_FILLERS or word.group(1).isdigit():
                cursor = word.end()
                continue
            title_run = LISTED_TITLE_RUN if position > window_start else TITLE_RUN
            run = title_run.match(text, word.start(1), window_end) or _LOWER_NAME.match(text, word.start(1))
            named_head = _NAME_LOWER_HEAD.match(text, word.start(1), window_end)
            if (
                named_head is not None
                and cursor > position
                and named_head[2] in _HEAD_NOUNS
                and not ADJECTIVE_ENDING.search(named_head[1])
                and paper.lexicon.lookup(named_head[1]) is None
            ):
                run = named_head  # 'we propose a Hadamard quantizer to suppress the outliers'
            break
        if run is None:
            break
        read = True
        name = run.group().rstrip("-")
        words = name.split()
        closing = text[run.end() : run.end() + 1]
        single_ok = (
            len(words) > 1
            or closing in (",", "(", ":", ";", ".")
            or name.endswith("+")
            or ENDS_NOUN_PHRASE.match(text, run.end()) is not None
            or _claimed_elsewhere(text, name, run.end())
        )
        if len(words) == 1 and plain_capitalised(name) and at_sentence_start(text, run.start()):
            single_ok = False  # 'Moreover,'
        run_end = run.start() + len(name)
        known = paper.lexicon.lookup(name)
        if single_ok and words[0].lower() not in FUNCTION_WORDS and not paper.is_topic(name):
            overlaps = [(s, e) for s, e in paper.covered if s < run_end and run.start() < e]
            # 'We propose TALL-masks, a method': one word set off, longer than the token inside it.
            set_off_word = closing in (",", "(") and all(e < run_end for _, e in overlaps)
            if (
                (len(words) > 1 or set_off_word)
                and overlaps
                and all(run.start() <= s and e <= run_end for s, e in overlaps)
            ):
                # 'K-split CP' holds 'CP'; 'we propose Model Spider, which' holds a dataset's name.
                # 'A Cross-Scale GNN is proposed': the whole run is the passive verb's subject.
                passive_subject = _PASSIVE_PROPOSAL_AFTER.match(text, run_end) is not None
                after_dash = text[run.start() - 1 : run.start()] in ("—", "–")  # 'a framework—Optimistic NPG'
                set_off = closing in (",", "(") or passive_subject or after_dash
                overlaps = [] if paper.absorb(overlaps, known_too=set_off) else overlaps
            if not overlaps and known is None:
                entity_type = introduced_type(text, window_start, run.start(), run_end)
                entity = paper.add(name, entity_type, (run.start(), run_end))
                if entity is not None:
                    paper.propose(entity, verb)
            elif not overlaps and known.kind in ENTITY_KINDS:
                # 'we introduce TÜLU 3': a released family's new version; the roles decide.
                canonical = name if known.kind == "model" else known.name
                paper.add(
                    canonical, known.kind, (run.start(), run_end), expansion=known.expansion, known=True
                )
        tail = LIST_JOIN.match(text, run.end(), window_end)
        if tail is None:
            break
        position = tail.end()
    return read


_PASSIVE_PROPOSAL_AFTER = re.compile(rf" (?:is|are) (?:\w+ly )?(?:{alternation(PROPOSAL_PARTICIPLES)})\b")


def add_introduced_phrases(paper: PaperState) -> None:
    """'we propose “Levels of AGI”', 'we introduce hierarchical randomized smoothing:': a quoted
    name, or lower-case words that extend a known method, right after a proposal verb."""
    text, cues = paper.text, paper.cues
    for (window_start, window_end), verb in zip(cues.windows, cues.window_words, strict=True):
        cursor = window_start
        while (word := NEXT_WORD.match(text, cursor, window_end)) is not None and (
            word.group(1).lower() in INTRO_FILLERS or word.group(1).isdigit()
        ):
            cursor = word.end()
        quoted = _QUOTED_NAME.match(text, cursor, window_end)
        lower = None if quoted else _LOWER_PHRASE.match(text, cursor, window_end)
        if quoted is not None and quoted.group(1)[0].isupper():
            start, end = quoted.span(1)
        elif lower is not None and _extends_known_method(paper.lexicon, lower.group(1)):
            start, end = lower.span(1)
        else:
            continue
        name = text[start:end]
        if paper.lexicon.lookup(name) is not None or paper.is_topic(name):
            continue
        if not paper.make_room(start, end):
            continue
        entity = paper.add(name, introduced_type(text, window_start, start, end), (start, end))
        if entity is not None:
            paper.propose(entity, verb)


def _extends_known_method(lexicon: Lexicon, phrase: str) -> bool:
    """'hierarchical randomized smoothing': modifiers, then a method the lexicon knows."""
    hits, _ = lexicon.find(phrase)
    return (
        bool(hits) and hits[-1].end == len(phrase) and hits[-1].start > 0 and hits[-1].entry.kind == "method"
    )


_QUOTED_NAME = re.compile(r"\s*[“\"‘]((?:[^”\"’\s]+ ?){1,6})[”\"’]")


# Not before '(': 'a superior supervised fine-tuning (SFT) dataset' goes on to name another kind.
_LOWER_PHRASE = re.compile(r"\s*([a-z][\w-]*(?: [a-z][\w-]*){1,4})(?=\s*[:,.;])")


def _later_ends(text: str, name: str, after: int) -> Iterator[int]:
    """Where name, written as a whole word after position after, ends."""
    position = text.find(name, after)
    while position != -1:
        end = position + len(name)
        if on_word_boundaries(text, position, end):
            yield end
        position = text.find(name, end)


def written_again(text: str, name: str, after: int) -> bool:
    return any(True for _ in _later_ends(text, name, after))


def _claimed_elsewhere(text: str, name: str, after: int) -> bool:
    """'... Transolver achieves state-of-the-art': the word is the subject of a claim later on."""
    return any(CLAIM_AFTER.match(text, end) for end in _later_ends(text, name, after))


def add_renamed_kinds(paper: PaperState) -> None:
    """'we propose a novel mode of textual attack, punctuation-level attack.': in a proposal
    clause, a lower-case phrase apposed to a new kind of thing and ending in the same noun names it."""
    text, cues = paper.text, paper.cues
    for (window_start, window_end), verb in zip(cues.windows, cues.window_words, strict=True):
        reach = min(len(text), window_end + 80)
        if not says_new(text, window_start, reach):
            continue  # as in most windows
        for m in _RENAMED_KIND.finditer(text, window_start, reach):
            start, end = m.span("name")
            if m.start() >= window_end or (start, end) in paper.covered or paper.is_topic(m.group("name")):
                continue
            entity = paper.add(m.group("name"), "method", (start, end))
            if entity is not None:
                paper.propose(entity, verb)


_RENAMED_KIND = re.compile(
    r"\b(?:a|an) (?:novel|new) (?:[\w-]+ ){0,4}?(?P<head>[a-z]{3,}), "
    r"(?P<name>(?:[\w-]+ ){0,3}(?P=head))(?=[.;,:]|\s\()"
)


def add_apposed_names(paper: PaperState) -> None:
    """'the basis of Caduceus, the first family of ... models': a capitalised word set off by a
    'novel', 'new' or 'first' apposition is a name the paper gives."""
    text = paper.text
    for m in _NOVEL_APPOSITION.finditer(text):
        word = _WORD_BEFORE.search(text, max(0, m.start() - 40), m.start())
        if word is None or at_sentence_start(text, word.start()):
            continue
        name = word.group()
        inside_a_name = any(s < word.end() and word.start() < e for s, e in paper.covered)
        if inside_a_name or name.lower() in FUNCTION_WORDS:
            continue  # 'Fluid Benchmarking, a new ...' is already the name, not 'Benchmarking'
        if paper.lexicon.lookup(name) is not None or paper.is_topic(name):
            continue
        entity = paper.add(name, introduced_type(text, word.start(), word.start(), word.end()), word.span())
        if entity is not None:
            paper.propose(entity)


_NOVEL_APPOSITION = re.compile(r", (?:a|an|the) (?:[\w-]+ ){0,2}?(?:novel|new|first)\b")


_WORD_BEFORE = re.compile(r"\b[A-Z][a-z]+[a-z0-9]*$")
