"""Names the paper gives in other ways: after a naming slot ('called X'), right after a kind
noun, between 'our' and a kind noun, as Title-Case method phrases and as heads of enumerated
contributions."""

from __future__ import annotations

import re
from collections.abc import Iterator

from pipeline.lib.extract import proposed as cue
from pipeline.lib.extract.introduced import written_again
from pipeline.lib.extract.lexicons import Hit
from pipeline.lib.extract.shapes import (
    ENDS_NOUN_PHRASE,
    KIND_GROUPS,
    KIND_NOUN,
    TITLE_RUN,
    VOICE,
    at_sentence_start,
    introduced_type,
    is_name_shape,
    long_form_type,
    plain_capitalised,
    says_new,
)
from pipeline.lib.extract.state import PaperState, SpanIndex
from pipeline.lib.extract.vocabulary import (
    FUNCTION_WORDS,
    METHOD_HEADS,
    NAMING_KIND_NOUNS,
    NAMING_VERB_STEMS,
    NEW_KIND_NOUNS,
    OWN_KIND_NOUNS,
    TITLE_OPENERS,
    alternation,
)


def add_named_by_slots(paper: PaperState) -> None:
    """'a group fairness metric called Coreference Confidence Disparity': the Title-Case name
    after 'called', 'named', 'dubbed', 'termed' or 'coined' is the paper's."""
    text, cues = paper.text, paper.cues
    for hit in paper.cue_hits:
        if hit.entry.kind != "cue:slot" or hit.entry.name[:4] not in _NAMING_VERBS:
            continue
        if hit.end >= len(text) or text[hit.end] != " " or (hit.start > 0 and text[hit.start - 1] in "-‐"):
            continue  # not 'long-term'
        article = _SLOT_ARTICLE.match(text, hit.end + 1)
        name_start = article.end() if article else hit.end + 1
        kind = _SLOT_KIND.match(text, hit.end + 1)
        if kind is not None and not _is_participle(hit):
            name_start = kind.end()  # 'We name the method Tilt and Average'
            article = kind
        run = TITLE_RUN.match(text, name_start) or _DIGIT_TITLE_RUN.match(text, name_start)
        participle = _is_participle(hit)
        if (run is None or plain_capitalised(run.group())) and article:
            # 'a test that we call the Poisson binomial test.', 'a data structure called an online
            # coreset, which': capitalised, or named after the kind of thing it is.
            phrase = _SLOT_PHRASE.match(text, name_start)
            if phrase is not None and (
                phrase.group()[0].isupper() or KIND_NOUN.search(text, max(0, hit.start - 40), hit.start)
            ):
                run = phrase
        if (run is None or plain_capitalised(run.group())) and not article:
            # 'We propose a ... principle called Lovász principle, which', 'a framework for DP-SGD
            # referred to as pro-active DP.': in the authors' voice, a short phrase the slot closes.
            phrase = _NAMED_PHRASE.match(text, name_start)
            sentence_start, _ = cue.sentence_of(cues, text, hit.start)
            if (
                phrase is not None
                and not any(w.lower() in FUNCTION_WORDS for w in phrase.group().split()[1:])
                and VOICE.search(text, sentence_start, hit.start)
            ):
                run = phrase
        shaped = _SHAPED_LOWER_WORD.match(text, name_start) if run is None else None
        if shaped is not None and is_name_shape(shaped[0]):
            run = shaped  # 'a white-box attack method named sparse-PGD to generate them'
        if run is None and (
            (participle and KIND_NOUN.search(text, max(0, hit.start - 40), hit.start))
            or _WHAT_WE_CALL.search(text, max(0, hit.start - 12), hit.start)
        ):
            # 'a new metric for inference efficiency called idealized runtime, that', 'features
            # into what we call codebook features.'
            run = _LOWER_SLOT_NAME.match(text, hit.end + 1)
        if run is None:
            continue
        name = run.group().rstrip("-")
        known = paper.lexicon.lookup(name)
        if name.split()[0].lower() in FUNCTION_WORDS or paper.is_topic(name):
            continue
        if known is not None and known.kind != "non_entity":
            continue  # a lexicon name; but 'dubbed RAM' names the paper's RAM, not memory
        if (
            len(name.split()) == 1
            and not is_name_shape(name)
            and text[run.end() : run.end() + 1] not in ",(.;:"
            and not (ENDS_NOUN_PHRASE.match(text, run.end()) and written_again(text, name, run.end()))
        ):
            continue  # 'the framework named Ditto to enable ... of Ditto' names it; 'called Fisher' alone not
        sentence_start, _ = cue.sentence_of(cues, text, hit.start)
        for start, end in _coordinated_names(run.start(), name):
            entity_type = introduced_type(text, sentence_start, hit.start, end)
            entity = paper.add(text[start:end], entity_type, (start, end))
            if entity is not None:
                paper.propose(entity, hit.entry.name)


def _coordinated_names(start: int, name: str) -> list[tuple[int, int]]:
    """'called AdaSPS and AdaSLS' names two things; 'named Tilt and Average' one."""
    parts, offset = [], start
    for piece in _COORDINATION.split(name):
        if not _COORDINATION.fullmatch(piece):
            parts.append((offset, offset + len(piece)))
        offset += len(piece)
    if len(parts) > 1 and all(is_name_shape(name[s - start : e - start]) for s, e in parts):
        return parts
    return [(start, start + len(name))]


_COORDINATION = re.compile(r"(,?\s+and\s+|,\s+)")


_NAMING_VERBS = frozenset(NAMING_VERB_STEMS)


_LOWER_SLOT_NAME = re.compile(r"[a-z][\w-]*(?: [a-z][\w-]*){0,2}(?=[,;(]|\.\s|\.$)")


_WHAT_WE_CALL = re.compile(r"\b(?:what|which|that) we $")


_SHAPED_LOWER_WORD = re.compile(r"[a-z][\w-]*[A-Z][\w+-]*(?<![-])")


_NAMED_PHRASE = re.compile(r"[A-Za-z][\w-]*(?: [\w-]+){1,3}?(?=[,;(]|\.\s|\.$| which\b| that\b)")


def _is_participle(hit: Hit) -> bool:
    return hit.entry.name.endswith("ed")


# 'We name the method X', 'we call our framework X': the kind of thing, then its name.
_SLOT_KIND = re.compile(r"(?:the|this|our) (?:[\w-]+ )?" + KIND_GROUPS + r" (?=[A-Z0-9])")


# 'a new objective named 3D Cloze Test': a title-case name opening with a count of dimensions.
_DIGIT_TITLE_RUN = re.compile(r"\d[A-Z][\w-]*(?: [A-Z][\w'’+-]*)+")


_SLOT_ARTICLE = re.compile(r"(?:the|an?) (?=\S)")


# A name of up to four words after 'call the', closed by punctuation: 'Poisson binomial test.'
_SLOT_PHRASE = re.compile(r"[A-Za-z][\w-]*(?: [a-z][\w-]*){1,3}(?=[,;(]|\.\s|\.$| which\b)")


# 'a reinforcement learning based algorithm Trustworthy-Alignment': a name right after a kind noun.
# 'a new model merging algorithm, CCA Merge, which', 'a new inference method—the Simformer—which'.
_NAME_AFTER_KIND = re.compile(
    rf"\b(?:{alternation(NAMING_KIND_NOUNS)})(?:,? |—(?:the )?)"
    r"([A-Z][\w+-]*[A-Za-z0-9+](?: [A-Z][\w+-]*[A-Za-z0-9+]){0,3})"
)
_CAPITAL = re.compile(r"[A-Z]")


def add_named_after_kind(paper: PaperState) -> None:
    """In a proposal clause, a capitalised name written right after the kind of thing it is."""
    text, cues = paper.text, paper.cues
    for (window_start, window_end), verb in zip(cues.windows, cues.window_words, strict=True):
        # Every name it finds opens with a capital, which many windows lack.
        has_capital = _CAPITAL.search(text, window_start, window_end) is not None
        for m in _NAME_AFTER_KIND.finditer(text, window_start, window_end) if has_capital else ():
            name = m.group(1)
            start, end = m.span(1)
            closing = text[end : end + 1]
            # Several title-case words are one name only when set off: 'CCA Merge, which'.
            if " " in name and (closing not in ",(—" or not paper.make_room(start, end)):
                name, end = name.split()[0], start + len(name.split()[0])
                closing = text[end : end + 1]
            if (start, end) in paper.covered or name.lower() in FUNCTION_WORDS or paper.lexicon.lookup(name):
                continue
            if paper.is_topic(name) or (plain_capitalised(name) and closing not in ",(.;:—"):
                continue
            entity = paper.add(name, introduced_type(text, window_start, start, end), (start, end))
            if entity is not None:
                paper.propose(entity, verb)
        says_new_kind = says_new(text, window_start, window_end)
        for m in _LOWER_NAME_AFTER_NEW_KIND.finditer(text, window_start, window_end) if says_new_kind else ():
            # 'we propose a novel framework, selfmem, which': a coined word set off after a new kind.
            start, end = m.span(1)
            if m[1] in FUNCTION_WORDS or paper.lexicon.lookup(m[1]) is not None:
                continue
            if not any(s < end and start < e for s, e in paper.covered):
                entity = paper.add(m[1], introduced_type(text, window_start, start, end), (start, end))
                if entity is not None:
                    paper.propose(entity, verb)


_LOWER_NAME_AFTER_NEW_KIND = re.compile(
    rf"\b(?:novel|new) (?:[\w-]+ ){{0,4}}?(?:{alternation(NEW_KIND_NOUNS)}), "
    r"([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?=, )"
)


def _our_named_kinds(text: str) -> Iterator[re.Match[str]]:
    """What _OUR_NAMED_KIND.finditer gives, found from the literal 'ur ' rather than from every
    'o' of the text (an order of magnitude faster)."""
    position = text.find("ur ", 1)
    while position != -1:
        m = _OUR_NAMED_KIND.match(text, position - 1)
        position = text.find("ur ", m.end() + 1 if m else position + 1)
        if m is not None:
            yield m


def add_own_named_kinds(paper: PaperState) -> None:
    """'our Wasserstein gradient descent algorithm': a name opened by a capital between 'our' and the
    kind of thing it is belongs to the paper, even where no proposal verb stands."""
    text = paper.text
    for m in _our_named_kinds(text):
        start, end = m.span(1)
        name = m.group(1)
        words = name.split()
        if len(words) < 2 and not is_name_shape(name):
            continue  # 'our Bayesian method'
        if (
            paper.lexicon.lookup(name) is not None
            or paper.is_topic(name)
            or words[-1].lower() in FUNCTION_WORDS
        ):
            continue
        if not paper.make_room(start, end):
            continue  # but 'gradient descent' inside 'our Wasserstein gradient descent algorithm' gives way
        entity = paper.add(name, "method", (start, end))
        if entity is not None:
            paper.propose(entity)


# Middle words are not verbs or plurals: 'our HI-Diff outperforms state-of-the-art methods'.
_OUR_NAMED_KIND = re.compile(
    r"\b[Oo]ur (?:new |novel |proposed )?([A-Z][\w-]*(?: (?![a-z]+s\b)[a-z][\w-]*){0,3}) "
    rf"(?:{alternation(OWN_KIND_NOUNS)})s?\b"
)


# 'an Augmented Transition Network as a dialog model': Title-Case words ending in a method head.
# The capital opening a word is written '[A-Z](?<=\b[A-Z])' rather than '\b[A-Z]': a pattern that
# starts with a character class lets re skip to the next capital instead of trying every position.
_TITLED_PHRASE = re.compile(r"[A-Z](?<=\b[A-Z])[a-z]+(?:[ -](?:of |for |with |and |the )?[A-Z][a-z]+)+\b")


_TITLE_OPENERS = frozenset(TITLE_OPENERS)


_LONGER_NAME_BEFORE = re.compile(
    r"[A-Z][a-z]+ (?:based|driven|guided|aware|augmented|enhanced|with|of|for) $|[A-Z][\w-]*[A-Z][\w-]* $"
)


def add_titled_methods(paper: PaperState) -> None:
    """A phrase of capitalised words whose last word is a method head names a method, wherever it
    stands; at the start of a sentence it needs three words, as a capital there says nothing."""
    text = paper.text
    # The phrases do not overlap one another, so the spans this rule adds never cross a later one:
    # the spans covered before it are all a phrase needs to be checked against.
    covered = SpanIndex(paper.covered)
    new_method: dict[str, bool] = {}  # by phrase: a phrase repeated is looked up once
    for m in _TITLED_PHRASE.finditer(text):
        start, name = m.start(), m.group()
        while " " in name and name.split(" ", 1)[0].lower() in _TITLE_OPENERS:
            opener = name.split(" ", 1)[0]
            start, name = start + len(opener) + 1, name[len(opener) + 1 :]
        words = name.split()
        if len(words) < 2 or words[-1].lower() not in METHOD_HEADS:
            continue
        if len(words) < 3 and at_sentence_start(text, start):
            continue
        if _LONGER_NAME_BEFORE.search(text, max(0, start - 40), start):
            continue  # 'Gradient Tracking based Normalized Stochastic Gradient Descent'
        end = start + len(name)
        if covered.overlaps(start, end) or paper.is_topic(name):
            continue
        if name not in new_method:
            new_method[name] = (
                paper.lexicon.lookup(name) is None and long_form_type(name, paper.lexicon) == "method"
            )
        if new_method[name]:
            paper.add(name, "method", (start, end))


# 'two main contributions: 1) SWEGEN: a synthetic data recipe ... 2) Hybrid Test-time Scaling: we'.
_ENUMERATED_HEAD = re.compile(
    r"(?:^|[\s:;])\(?(?:\d|[ivx]{1,3})\)\s+([A-Z][\w'’+-]*(?: [A-Z][\w'’+-]*){0,4}):\s"
)


# The close of an item's number, then the number: found from the ')' for speed.
_ITEM_CLOSE = re.compile(r"\) [A-Z]")


_ITEM_NUMBER = re.compile(r"(?:^|[\s(])(?:\d|[ivx]{1,3})$")


def add_enumerated_contributions(paper: PaperState) -> None:
    """A name heading an item of a list after the paper says what it contributes or proposes
    ('we propose a new method with two novel ideas: (1) Localized Patch Importance Scoring: we')
    is one of its own."""
    text, cues = paper.text, paper.cues
    if not any(
        _ITEM_NUMBER.search(text, max(0, m.start() - 5), m.start()) for m in _ITEM_CLOSE.finditer(text)
    ):
        return  # no '1) X' or '(i) X' item
    openings = [start for start, _ in cues.windows]
    if (found := text.find("contribution")) != -1:
        openings.append(found)
    if not openings:
        return
    for m in _ENUMERATED_HEAD.finditer(text, min(openings)):
        start, end = m.span(1)
        name = m.group(1)
        if paper.lexicon.lookup(name) is not None or paper.is_topic(name):
            continue
        if len(name.split()) == 1 and not is_name_shape(name):
            continue  # '1) Efficiency: ...' heads an item without naming anything
        overlaps = [(s, e) for s, e in paper.covered if s < end and start < e]
        if overlaps and not ((start, end) in overlaps or paper.absorb(overlaps)):
            continue
        entity = paper.add(name, long_form_type(name, paper.lexicon) or "method", (start, end))
        if entity is not None:
            paper.propose(entity)
