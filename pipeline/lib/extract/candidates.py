"""Candidates from the three sources that need no context: abbreviation definitions, the
lexicon's names and name-shaped tokens."""

from __future__ import annotations

import re

from pipeline.lib.extract import proposed as cue
from pipeline.lib.extract.lexicons import letters, match_key
from pipeline.lib.extract.shapes import (
    DATASET_SHAPE,
    GREEK_PREFIXED,
    KIND_GROUPS,
    KIND_NOUN,
    NEXT_WORD,
    SIZE_TAG,
    in_formula,
    introduced_type,
    is_name_shape,
    is_released_model,
    is_titled,
    kind_type,
    long_form_type,
    plain_capitalised,
    repository_letters,
    shape_type,
    strip_token,
)
from pipeline.lib.extract.state import Entity, PaperState, SpanIndex
from pipeline.lib.extract.vocabulary import (
    APPOSED_KIND_NOUNS,
    CHANGE_NOUNS,
    DATASET_HEADS,
    DOCUMENT_PARTS,
    FUNCTION_WORDS,
    HYPERPARAMETER_NAMES,
    INTRO_FILLERS,
    METHOD_HEADS,
    QUALITY_WORDS,
    TOPIC_HEADS,
    alternation,
)

_HYPERPARAMETERS = frozenset(HYPERPARAMETER_NAMES)
# Every word holding a capital; the Python loop then keeps those shaped like names.
_CAPITAL_WORD = re.compile(r"[A-Z\u0391-\u03a9](?:[\w.'’+-]|×(?=\d))*")  # 'Mixtral-8×7B' keeps its '×'


def _word_char(char: str) -> bool:
    r"""What the pattern [\w+-] matches, without a call into re: \w is str.isalnum, and '_'."""
    return char.isalnum() or char in "_+-"


# 'Weisfeiler-Leman', 'Human-Object': capitalised words joined by hyphens are names of people or
# phrases in title case, not coined names; the lexicon knows the ones that are methods.
_CAPITALISED_COMPOUND = re.compile(r"[A-Z][a-z]+(?:[-–][A-Z][a-z]+)+")


# 'a Unified LAbel REfinement Framework': words capitalised to spell out an acronym.
_ON_BEFORE = re.compile(
    r"\b(?:on|across|over)(?: the| both| several| multiple| \w+ of)?"
    r"(?: [\w.+-]*[A-Z0-9][\w.+-]*,?(?: and)?)* $"
)


_EVALUATION_WORDS = re.compile(
    r"\b(?:experiments?|evaluat\w*|results?|performance|accuracy|state-of-the-art|outperform\w*|achiev\w*|"
    r"tested|benchmarks?|datasets?|scores?|surpass\w*|improv\w*)\b"
)


_CITED_AUTHOR = re.compile(r"(?: et al\b|,? \(?(?:19[5-9]|20[0-3])\d[a-z]?\b(?![.,]\d))")


_GROUP_ARGUMENT = re.compile(r"\(\s*(?:\d|[a-zA-Z]\s*\))")


_SPELLED_INITIALS = re.compile(
    r"[A-Z]{2}[a-z]{3,}|[a-z]+[A-Z][a-z]+(?:-[A-Z][a-z]+)*|[a-z]{4,}[A-Z]|[a-z]{2,}-[A-Z][a-z]+"
)


# '4-DoF', '6-DOF', '3-D': a count of degrees of freedom or dimensions, not a name.
_DEGREES = re.compile(r"\d+-?(?:DoFs?|DOFs?|D)")


# 'video-QA', 'neuroAI', 'av-LLM': a lower-case word fused with a field acronym.
_FUSED_ACRONYM = re.compile(r"([a-z]+)-?([A-Z]{2,5})s?")


# Math rendered to Unicode: subscripts, Greek letters, letter-like symbols (nε_BC, ℓ2).
_MATHY = re.compile(r"[_\u00b2\u00b3\u00b9\u0370-\u03ff\u1d00-\u1dbf\u2070-\u209f\u2100-\u214f]")


# Metrics whose name is also an everyday word for a quality ('maintaining accuracy'): a metric
# where the sentence states a value or compares, as papers report results.
# Plain words that are measures only where the sentence states a value or compares them.
_QUALITY_WORDS = frozenset(QUALITY_WORDS)


_STATED_VALUE = re.compile(r"\d(?:\.\d+)?\s?(?:%|×|x\b|-fold\b|points?\b|pp\b)|\b\d+\.\d+\b")


_COMPARED_QUALITY = re.compile(
    r"\b(?:higher|better|best|superior|lower|comparable|competitive|top"
    rf"|(?:{alternation(CHANGE_NOUNS)})s? in"
    r"|improves?|improved|improving|boosts?|enhances?)\b(?: [\w-]+){0,2} $"
)


_PROPERTY_SUFFIX = re.compile(
    r"-(?:submodular|supermodular|convex|concave|smooth|Lipschitz|lipschitz|monotone|stationary|"
    r"mixing|regular|bounded)$"
)


_NAMELY = re.compile(r",? namely $")


_LOWER_COMPOUND = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")


# 'Ant Colony Optimization (ACO) is a meta-heuristic algorithm': a definition that gives the kind.
_DEFINED_KIND = re.compile(r" (?:is|are) (?:a|an) (?:[\w-]+,? ){0,3}?" + KIND_GROUPS)


_PRECEDING_TITLE_WORD = re.compile(r"(?<![.!?:] )\b[A-Z][a-z]+ $")


def add_abbreviations(paper: PaperState) -> None:
    lexicon, text, cues = paper.lexicon, paper.text, paper.cues
    for a in paper.abbreviations:
        entry = lexicon.lookup(a.short)
        if entry is not None and entry.expansion and not _same_words(entry.expansion, a.long):
            entry = None  # the paper defines the acronym otherwise: 'DMC (Dynamic Memory Compression)'
        if entry is not None and entry.kind == "non_entity":
            entry = None  # 'RAM' is memory, unless the paper spells out its own RAM
        entry = entry or lexicon.lookup(a.long)
        spans = ((a.short_start, a.short_end), (a.long_start, a.long_end))
        forms = (a.short, a.long)
        if entry is not None and entry.kind == "non_entity":
            continue
        if (entry is not None and entry.kind == "topic") or a.long.lower() in _HYPERPARAMETERS:
            paper.mark_topic(a.short, a.short.rstrip("s"), a.long)  # 'learning rate (LR)': no entity
            continue
        if entry is not None:
            # The lexicon knows this one: its name and expansion, not this paper's spelling of them.
            for span in spans:
                paper.add(entry.name, entry.kind, span, expansion=entry.expansion, known=True, forms=forms)
            continue
        entity_type = long_form_type(a.long, lexicon)
        following = NEXT_WORD.match(text, a.end)
        if entity_type is None and following is not None and following.group(1).lower() in METHOD_HEADS:
            entity_type = "method"  # 'the bandit-over-bandit (BOB) framework'
        defined = _DEFINED_KIND.match(text, a.end) if entity_type is None and is_titled(a.long) else None
        if defined is not None:
            entity_type = kind_type(defined)
        window_start = next((s for s, e in cues.windows if s <= a.long_start < e), None)
        # 'a ... model, VQ-MTM (...)', 'a method for prompt optimization, namely DRO (...)'
        apposed = (
            text[max(0, a.start - 2) : a.start] == ", "
            or _NAMELY.search(text, max(0, a.start - 9), a.start) is not None
        )
        introduced = cue.after_naming_slot(cues, text, a.start) or (
            window_start is not None
            and (entity_type is not None or apposed or _object_of_verb(text, window_start, a.start))
        )
        if (
            entity_type is None
            and not a.short.endswith("s")
            and not _LOWER_COMPOUND.fullmatch(a.long)
            and (following is None or following.group(1).lower() not in TOPIC_HEADS)
        ):
            # A paper spells out an acronym for a thing it uses, more often than not a method: 'stochastic
            # line search (SLS)'. Lexicon topics ('LLMs', 'RL'), plurals naming classes ('GNNs'),
            # lower-case compounds ('text-to-image (T2I)') and modifiers of a field ('fluorescence
            # microscopy (FM) imaging') are not.
            entity_type = "method"
        if entity_type is None and not introduced:
            paper.mark_topic(a.short, a.short.rstrip("s"), a.long)
            continue
        if window_start is not None and introduced_type(text, window_start, a.long_start, a.end) == "dataset":
            entity_type = "dataset"
        if following is not None and following.group(1).lower() in DATASET_HEADS:
            entity_type = "dataset"  # 'our Multilingual Composition Relation (MCR) benchmark'
        if following is not None and following.group(1).lower() in APPOSED_KIND_NOUNS["metric"]:
            entity_type = "metric"  # 'a Task Agnostic Correlations (TAC) metric'

        name = a.short[:-1] if a.short.endswith("s") and a.short[:-1].isupper() else a.short
        for span in spans:
            paper.add(name, entity_type or "method", span, expansion=a.long, forms=forms)


def _same_words(phrase: str, other: str) -> bool:
    """'supervised fine-tuned' and 'supervised fine-tuning': the same words but for their endings."""
    words, other_words = match_key(phrase).split(), match_key(other).split()
    if len(words) != len(other_words):
        return False
    for word, other_word in zip(words, other_words, strict=True):
        shortest = min(len(word), len(other_word))
        shared = next((k for k in range(shortest) if word[k] != other_word[k]), shortest)
        if shared < max(3, shortest - 3):
            return False
    return True


def _object_of_verb(text: str, verb_end: int, start: int) -> bool:
    """Does the name at start follow the proposal verb with only fillers between ('we propose a
    novel X'), rather than sit in a later phrase ('methods for Stochastic Convex Optimization')?"""
    words = text[verb_end:start].split()
    return len(words) <= 4 and all(w.lower().strip(",:") in INTRO_FILLERS for w in words)


def _measured_in_sentence(text: str, cues: cue.Cues, start: int, valued: dict[tuple[int, int], bool]) -> bool:
    """'86.4% accuracy on Cora', 'higher accuracy than WMD', not 'while maintaining accuracy'.
    `valued` remembers which sentences state a value: a sentence of many quality words (a text
    without a full stop) is searched once, not once for each of them."""
    sentence = cue.sentence_of(cues, text, start)
    if sentence not in valued:
        valued[sentence] = _STATED_VALUE.search(text, *sentence) is not None
    return valued[sentence] or _COMPARED_QUALITY.search(text, max(sentence[0], start - 30), start) is not None


def add_lexicon_hits(paper: PaperState) -> None:
    text, cues = paper.text, paper.cues
    valued: dict[tuple[int, int], bool] = {}
    for hit in paper.hits:
        form = text[hit.start : hit.end]
        kind = hit.entry.kind
        if kind == "topic":
            paper.mark_topic(form)
            continue
        if kind == "non_entity" or paper.is_topic(form):
            continue
        defined = paper.entities.get(paper.form_keys.get(paper.key(form), ""))
        if defined is not None and defined.expansion and not defined.known:
            continue  # the paper defines this acronym its own way: 'Geometric Active Exploration (GAE)'
        preceding = _PRECEDING_TITLE_WORD.search(text, max(0, hit.start - 20), hit.start)
        if (
            " " in form
            and form[0].isupper()
            and preceding is not None
            and preceding.group().strip().lower() not in FUNCTION_WORDS
        ):
            continue  # 'Normalized Stochastic Gradient Descent' is one longer name, 'The Shapley value' not
        if hit.entry.name in _QUALITY_WORDS and not _measured_in_sentence(text, cues, hit.start, valued):
            continue
        paper.add(hit.entry.name, kind, (hit.start, hit.end), expansion=hit.entry.expansion, known=True)


_PATH_PART_BEFORE = re.compile(r"(?<![\w.-])[a-z][\w.-]*/$")


_SIZE_AFTER = re.compile(r" (\d+(?:\.\d+)?[BM])(?![\w-])")


def add_shape_tokens(paper: PaperState) -> None:
    text, lexicon = paper.text, paper.lexicon
    long_forms = SpanIndex(paper.long_forms)  # most tokens are in none: no scan of them all
    previous_end = -1
    for m in _CAPITAL_WORD.finditer(text):
        start, end = m.span()
        if start < previous_end:
            continue
        while start > 0 and _word_char(text[start - 1]):
            start -= 1  # the word began in lower case: video-SALMONN, eNeRgy-GPT
        previous_end = end
        if text.startswith(("http", "www."), start):
            continue
        if m.start() == start and plain_capitalised(m.group()):
            if text[end + 1 : end + 2].isdigit():  # most capitalised words have no count after them
                _add_sized_word(paper, m.group(), start, end)
            continue
        if start > 1 and text[start - 1] == "/" and _PATH_PART_BEFORE.search(text, max(0, start - 40), start):
            continue  # a path: 'examples/ThoughtRollback', but not 'RankDice/RankIoU'
        if _GROUP_ARGUMENT.match(text, end):
            continue  # a group or a function: 'SE(3)', 'SO(n)'
        if _PROPERTY_SUFFIX.search(text, start, end):
            continue  # a class of functions: 'DR-submodular', 'L-smooth'
        start, end = strip_token(text, start, end)
        token = text[start:end]
        joined = token.find("-")
        if 0 < joined < m.start() - start + 1 and token[:joined].isalpha() and token[:joined].islower():
            rest = token[joined + 1 :]
            kind_noun = KIND_NOUN.fullmatch(token[:joined]) is not None
            if kind_noun or lexicon.lookup(rest) is not None or lexicon.is_model_family(rest):
                start += joined + 1  # 'base models-Llama 3', 'a framework-FlashST': a dash, not a compound
                token = rest
        if (start, end) in paper.covered or token in paper.forms:
            continue  # already a form of an entity: the acronym of a defined long form
        inside_long_form = long_forms.overlaps(start, end) and any(
            s <= start and end <= e and e - s > end - start for s, e in paper.long_forms
        )
        if inside_long_form and lexicon.lookup(token) is None:
            continue  # 'Thompson ActIve Learning algORithm selection': capitals spelling an acronym
        if (
            not is_name_shape(token)
            or paper.is_topic(token)
            or (_MATHY.search(token) and not GREEK_PREFIXED.fullmatch(token))
            or _DEGREES.fullmatch(token)
            or in_formula(text, start, end)
        ):
            continue
        entry = lexicon.lookup(token)
        if entry is None and (
            (
                _CAPITALISED_COMPOUND.fullmatch(token)
                and not SIZE_TAG.search(token)  # but 'Zorb-Large' is a released model's size
                and not _named_as_own(paper, token, start)
            )
            or (
                _SPELLED_INITIALS.fullmatch(token)
                and not DATASET_SHAPE.search(token)
                and token.rstrip("abcdefghijklmnopqrstuvwxyz") not in paper.forms
            )
        ):
            # But 'VBench' is a benchmark's name, and 'QUDsim' one made of the paper's 'QUD', not
            # capitals spelling an acronym.
            continue
        if entry is None and _fused_with_topic(paper, token):
            continue
        if entry is None and _CITED_AUTHOR.match(text, end):
            continue  # '(MacDonald, 2015)', 'DeVries et al.'
        if entry is not None:
            if entry.kind not in ("topic", "non_entity"):
                paper.add(entry.name, entry.kind, (start, end), expansion=entry.expansion, known=True)
            continue
        name = token
        if token.endswith("s") and token[:-1].isupper() and len(token) > 2:
            name = token[:-1]  # an acronym's plural: 'SAEs'
            stem_entry = lexicon.lookup(name)
            if paper.is_topic(name) or (
                stem_entry is not None and stem_entry.kind in ("topic", "non_entity")
            ):
                continue
        following = text[end : end + 80].split(".")[0]
        word = NEXT_WORD.match(following)
        if token.isupper() and word is not None and word.group(1) in TOPIC_HEADS:
            continue  # a field acronym as a modifier: 'PAC learning', 'HOI detection'
        if paper.is_full(name):
            continue  # no room for it: its type is not worth working out
        entity_type = shape_type(token, lexicon, following)
        if entity_type == "method" and _evaluated_on(text, start):
            entity_type = "dataset"
        paper.add(name, entity_type, (start, end), known=is_released_model(lexicon, token))


def _named_as_own(paper: PaperState, token: str, start: int) -> bool:
    """'our Pruner-Zero obtains', code at '.../Pruner-Zero': a capitalised compound that is not a
    pair of surnames ('Navier-Stokes') but a name the authors call theirs."""
    if paper.text[max(0, start - 4) : start] == "our ":
        return True
    return letters(token) in repository_letters(paper)


def split_glued_words(paper: PaperState) -> None:
    """'This paper presentsApBot', 'ApBotcloses the loop': text extracted from a PDF loses spaces.
    A coined token that is another of the paper's names plus a lower-case word is that name, unless
    it recurs: a lost space does not repeat itself, while 'QUDsim' after 'QUD' is a name of its own."""
    names = sorted(
        (e for e in paper.entities.values() if not e.known and len(e.name) >= 3),
        key=lambda e: len(e.name),
    )
    # Each name's first entity in that order: the one a scan of all pairs would meet first. Looking
    # up the pieces a glued token can be cut into costs its lengths, not the other entities.
    first_named: dict[str, tuple[int, Entity]] = {}
    for rank, other in enumerate(names):
        first_named.setdefault(other.name, (rank, other))
    lengths = sorted({len(name) for name in first_named})
    for entity in list(paper.entities.values()):
        if entity.known:
            continue
        glued = _glued_part(entity.name, first_named, lengths)
        if glued is None:
            continue
        offset, other = glued
        if len(re.findall(rf"(?<!\w){re.escape(entity.name)}(?!\w)", paper.text)) > 1:
            continue
        paper.add_spans(
            other, ((start + offset, start + offset + len(other.name)) for start, _ in entity.spans)
        )
        paper.drop(entity)


def _glued_part(
    token: str, first_named: dict[str, tuple[int, Entity]], lengths: list[int]
) -> tuple[int, Entity] | None:
    """The offset and entity of the first (in first_named's ranks) shorter name that token is,
    glued to lower-case words: first written where only glue comes before it and after it."""
    lower_head = len(token) - len(token.lstrip(_ASCII_LOWER))
    lower_tail = len(token) - len(token.rstrip(_ASCII_LOWER))
    best: tuple[int, int, Entity] | None = None
    for offset in (0, *range(2, lower_head + 1)):  # the glue before: nothing or two letters or more
        for length in lengths:
            end = offset + length
            rest = len(token) - end
            if rest < 0 or (rest == 0 and offset == 0):
                break  # token itself, or longer than token
            if rest == 1 or rest > lower_tail:
                continue
            found = first_named.get(token[offset:end])
            if found is None or token.find(found[1].name) != offset:
                continue
            if best is None or found[0] < best[0]:
                best = (found[0], offset, found[1])
    return None if best is None else (best[1], best[2])


_ASCII_LOWER = "abcdefghijklmnopqrstuvwxyz"


def _add_sized_word(paper: PaperState, word: str, start: int, end: int) -> None:
    """'Zentro 125M': a capitalised word with a parameter count is a released model; not a part
    of the paper ('Table 2B') nor a dataset ('on the Posture 3.6M dataset')."""
    text = paper.text
    size = _SIZE_AFTER.match(text, end) if text.startswith(" ", end) else None
    if size is None or word.lower() in FUNCTION_WORDS or word in DOCUMENT_PARTS:
        return
    following = NEXT_WORD.match(text[size.end() : size.end() + 40])
    if (following is not None and following.group(1).lower() in DATASET_HEADS) or _evaluated_on(text, start):
        return
    paper.add(f"{word} {size.group(1)}", "model", (start, size.end()))


def _evaluated_on(text: str, start: int) -> bool:
    """'state-of-the-art results on CodeContests': a name after 'on' in a sentence about
    evaluation is a benchmark."""
    if _ON_BEFORE.search(text, max(0, start - 40), start) is None:
        return False
    return _EVALUATION_WORDS.search(text, max(0, start - 160), start) is not None


def _fused_with_topic(paper: PaperState, token: str) -> bool:
    """'video-QA', 'neuroAI', 'LLM-Generated': a field acronym fused with ordinary words."""
    fused = _FUSED_ACRONYM.fullmatch(token)
    parts = [fused.group(1), fused.group(2)] if fused else token.split("-")
    if len(parts) < 2:
        return False
    topical = False
    for part in parts:
        stem = part[:-1] if part.endswith("s") and part[:-1].isupper() else part
        entry = paper.lexicon.lookup(stem) if stem.isupper() else None
        if stem.isupper() and (paper.is_topic(stem) or (entry is not None and entry.kind == "topic")):
            topical = True
        elif not (part.isalpha() and (part.islower() or plain_capitalised(part))):
            return False
    return topical
