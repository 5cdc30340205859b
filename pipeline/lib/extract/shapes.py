"""What a token or a phrase looks like: name shapes, head words, the type a long form names.

Shared by the rules of every stage.
"""

from __future__ import annotations

import re

from pipeline.lib.extract.lexicons import Lexicon, letters
from pipeline.lib.extract.links import repository_name
from pipeline.lib.extract.state import PaperState
from pipeline.lib.extract.vocabulary import (
    ADJECTIVE_SUFFIXES,
    APPOSED_KIND_NOUNS,
    BENCHMARK_FOLLOWERS,
    CLAIM_VERBS,
    CLASS_PLURAL_HEADS,
    COORDINATORS,
    DATASET_HEADS,
    ENTITY_KINDS,
    FUNCTION_WORDS,
    HEAD_CUT_WORDS,
    LOWER_PREFIXES,
    METHOD_HEADS,
    METRIC_FOLLOWERS,
    METRIC_HEADS,
    MODEL_RELEASE_WORDS,
    MODEL_SIZE_WORDS,
    SIZE_TAGS,
    TITLE_JOINERS,
    TOPIC_HEADS,
    WEAK_METHOD_HEADS,
    alternation,
)

# 'type-II', 'phase-IV': a word numbered with a Roman numeral.
_NUMBERED_WORD = re.compile(r"[a-z]+-[IVX]+")


_COUNTED_CAPITALISED = re.compile(r"\d+-[A-Z][a-z]+")


# 'Σ-agent': a Greek letter joined to a word, a name when the paper introduces it (else math).
GREEK_PREFIXED = re.compile(r"[\u0391-\u03a9\u03b1-\u03c9]-[A-Za-z][\w-]*")


# A token inside an asymptotic bound, 'Õ(dHK)', or beside a relation, 'A ≈ LR': a formula's symbols.
_BOUND_OPEN = re.compile(r"(?:\b[OΘΩ]|Õ|𝒪)\([^()]*$")


_RELATION_BEFORE = re.compile(r"[=≈≃≅≤≥<>∼]\s?$")


_RELATION_AFTER = re.compile(r"\s?[=≈≃≅≤≥∼]")


_UNIT = re.compile(r"(?i)\d+(?:\.\d+)?(?:[kmbt]|bn|x|×|d|db|st|nd|rd|th|gb|mb|tb|ms|s|h|hz|bit|bits|-bit|%)?")


_ROMAN = re.compile(r"[IVX]{1,4}s?")


# A parameter count may be written in lower case: 'Quux-2-9b-it'.
SIZE_TAG = re.compile(
    rf"(?:^|[-_ ])(?:\d+(?:\.\d+)?[BMb]|\d+B\d*[A-Z]?\d*T?|{alternation(SIZE_TAGS)})$"
    r"|\d+(?:\.\d+)?[BMb]-"
    # A scaled variant's letter and rank: 'MiT-B5', 'EfficientNet-B0'.
    r"|[A-Za-z]-B[0-7]$"
)


DATASET_SHAPE = re.compile(
    r"(?:Bench|bench|QA|Eval|Set|Gym|Arena|World|Suite|Corpus|Data)(?:[-_ ]?(?:\d[\w.]*|v\d+|[A-Z]{1,3}))?$"
)


# 'BLEU-1', 'Rouge-F': a metric's variants are named with a suffix.
_METRIC_SHAPE = re.compile(
    r"(?:FID|IoU|AUC|AUROC|(?i:BLEU|ROUGE)|PSNR|SSIM|mAP|ECE|NDCG|F1)(?:-(?:\d|[A-Z]|Lsum))?$|^pass@"
)


_MODEL_SIZE_WORDS = frozenset(MODEL_SIZE_WORDS)


_LOWER_PREFIXES = frozenset(LOWER_PREFIXES)


_BENCHMARK_FOLLOWERS = frozenset(BENCHMARK_FOLLOWERS)


# 'on X and four real datasets', 'X, Y and Z benchmarks'; not past a preposition, which starts what
# is done with the names ('Zorb-MoE and Quux-MoE fine-tuned on benchmark datasets').
_LISTED_DATASETS = re.compile(
    r"(?:,? (?:and |or )?(?:the )?(?!(?:on|in|of|for|with|from|to|by|at|over|across)\b)[\w-]+){0,6}?"
    r" (?:datasets|benchmarks|corpora)\b"
)


# 'Bellman', 'Experiments': a capital, then only lower case and no digit.
_PLAIN_CAPITALISED = re.compile(r"[A-Z][^\WA-Z0-9_]*(?:[-'’.][^\WA-Z0-9_]*)*")


# The rest of a name's word: word characters, and a dot only inside it ('v1.5', 'St.Mary').
NAME_WORD = r"(?:[\w+'’-]|\.(?=\w))*"


# The name before a dataset head word, read backwards: 'the LVIS', 'on the Open Graph'.
_NAME_BEFORE = re.compile(
    rf"((?:[A-Z]{NAME_WORD}|[\w+-]*[a-zA-Z][\w+-]*(?:[a-zA-Z]\d|\d[a-zA-Z]){NAME_WORD})"
    rf"(?: [A-Z0-9]{NAME_WORD}){{0,3}}) $"
)
# Every name _NAME_BEFORE finds holds a capital or a digit.
_NAME_MARK = re.compile(r"[A-Z\d]")


def name_before(text: str, start: int, end: int) -> re.Match[str] | None:
    """_NAME_BEFORE's match in text[start:end]. Its search tries every start and backtracks over
    each word, many times the cost of a look for a capital or digit, which most windows lack."""
    if _NAME_MARK.search(text, start, end) is None:
        return None
    return _NAME_BEFORE.search(text, start, end)


def says_new(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] holds 'novel ' or 'new ': what every pattern of a new kind of thing
    ('a novel framework, X') holds, told by two string searches instead of the pattern's scan."""
    return text.find("novel ", start, end) != -1 or text.find("new ", start, end) != -1


_LIST_ITEM = re.compile(
    rf"(?:[A-Z0-9]{NAME_WORD}|[a-z]+[A-Z]{NAME_WORD})"
    rf"(?: (?!(?:Our|We|The|This|In)\b)[A-Z0-9]{NAME_WORD}){{0,3}}"
)


_LOWER_WORD_NEXT = re.compile(r" (?!(?:and|or|as|in|on|for|with|to|at|by|are|is|have|has)\b)[a-z]")


def _title_run(joiners: tuple[str, ...]) -> re.Pattern[str]:
    """Title-Case words joined by spaces and the given lower-case words, and version numbers."""
    return re.compile(
        r"[A-Z][\w'’+-]*(?:\+\+|\+)?"
        rf"(?:(?: (?:{alternation(joiners)}))? [A-Z][\w'’+-]*(?:\+\+|\+)?"
        r"| \d+(?:\.\d+)?(?![\w.%]))*"
    )


TITLE_RUN = _title_run((*TITLE_JOINERS, *COORDINATORS))
# In a list, 'and' joins two names: 'two new algorithms: RW-AdaBatch and RW-Meta'.
LISTED_TITLE_RUN = _title_run(TITLE_JOINERS)


NEXT_WORD = re.compile(r"\s*([\w-]+)")


LIST_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)")


# One named group a type, so the match itself says which type its kind noun gives: kind_type.
KIND_GROUPS = (
    "(?:"
    + "|".join(f"(?P<{kind}>{alternation(nouns)})" for kind, nouns in APPOSED_KIND_NOUNS.items())
    + r")s?\b"
)


def kind_type(match: re.Match[str]) -> str:
    """The entity type the kind noun a KIND_GROUPS pattern matched gives."""
    return next(kind for kind in APPOSED_KIND_NOUNS if match.group(kind) is not None)


# 'X, a benchmark with ...', 'X, the first large-scale corpus', 'X, a large, open dataset': the
# kind an apposition gives.
APPOSITIVE_KIND = re.compile(r",? (?:a|an|the) (?:[\w-]+,? ){0,4}?" + KIND_GROUPS)


KIND_NOUN = re.compile(r"\b" + KIND_GROUPS)


# Where the head of a long form ends: 'fitted Q-iteration | with log-loss'.
_HEAD_CUT = re.compile(rf" (?:{alternation(HEAD_CUT_WORDS)}) ")


_OF_COMPOUND = re.compile(r"-(of|for|to|in|on|and|the)-")


_PREFERENCE_OPTIMISATION = re.compile(r"(?i)(?:policy|preference) (?:optimi[sz]ation|alignment)$")


# 'Ant Colony Optimization', 'Directed Representation Optimization': three title-case words or more
# name a method; 'Bayesian Optimization' and 'Convex Optimization' name fields.
_NAMED_OPTIMISATION = re.compile(r"(?:[A-Z][\w-]* ){2,}Optimi[sz]ation$")


# Coined names mix cases inside a word: TensorAR, MixKV, eNeRgy.
COINED = re.compile(r"[a-z][A-Z]|[A-Z][a-z]+[A-Z]")


VOICE = re.compile(r"\b(?:[Ww]e|[Oo]ur|[Tt]his (?:work|paper))\b")


_SENTENCE_OPENING = re.compile(r"(?:[.!?:]\s+|\n)[\"“(*]?$")


# Lower-case words a released model's size or version keeps: 'Zephyr-7B-beta', 'Gemma-2-9b-it'.
_RELEASE_WORDS = frozenset(MODEL_RELEASE_WORDS)


def strip_token(text: str, start: int, end: int) -> tuple[int, int]:
    """Trim possessives, trailing punctuation, lower-case suffix words and generic lower-case
    prefixes from a token: ``LoRA-based`` -> ``LoRA``, ``GPT-4o's`` -> ``GPT-4o``, ``non-IID`` -> ``IID``."""
    while end > start and text[end - 1] in ".'’/-":
        end -= 1
    token = text[start:end]
    for suffix in ("'s", "’s"):
        if token.endswith(suffix):
            end -= 2
            token = token[:-2]
            break
    parts = token.split("-")
    while (
        len(parts) > 1
        and parts[-1].isalpha()
        and parts[-1].islower()
        and parts[-1] not in _MODEL_SIZE_WORDS
        and not (parts[-1] in _RELEASE_WORDS and any(char.isdigit() for char in parts[-2]))
        and not GREEK_PREFIXED.fullmatch("-".join(parts))
    ):
        end -= len(parts[-1]) + 1
        parts.pop()
    if len(parts) > 1 and parts[0] in _LOWER_PREFIXES:
        start += len(parts[0]) + 1
    return start, end


def plain_capitalised(word: str) -> bool:
    """'Bellman', 'Experiments': a capital, then only lower case and no digit."""
    return _PLAIN_CAPITALISED.fullmatch(word) is not None


def is_name_shape(token: str) -> bool:
    if GREEK_PREFIXED.fullmatch(token):
        return True
    if _COUNTED_CAPITALISED.fullmatch(token):
        return False  # '1-Lipschitz', '2-Wasserstein': an order of a named property, math
    if len(token) < 2 or not token[0].isalnum() or plain_capitalised(token) or _UNIT.fullmatch(token):
        return False
    if _ROMAN.fullmatch(token):
        return False
    letters = sum(map(str.isalpha, token))
    uppers = sum(map(str.isupper, token))
    if letters < 2 or uppers == 0 or (len(token) == 2 and not token.isupper()):
        return False  # 'mT', 'kB': units and symbols
    if uppers >= 2:
        return True
    if token[0].isupper():
        # One capital: only a versioned word is a name (Qwen3, Phi-3), not "Bellman" or "Z-axis".
        return any(c.isdigit() for c in token) and token[1:2].isalpha()
    return _NUMBERED_WORD.fullmatch(token) is None  # video-SALMONN, iPhone; not 'type-II'


def _head(phrase: str) -> str:
    words = _OF_COMPOUND.sub(r" \1 ", phrase.replace("–", "-")).split()
    for k, word in enumerate(words):
        if k > 0 and word.lower() in HEAD_CUT_WORDS:
            words = words[:k]
            break
    return words[-1].lower() if words else ""


def is_titled(phrase: str) -> bool:
    words = phrase.split()
    return len(words) >= 2 and all(w[0].isupper() for w in words if w.lower() not in FUNCTION_WORDS)


def _ends_in_topic(phrase: str, lexicon: Lexicon | None) -> bool:
    """'Online Convex Optimization' ends in a field's name."""
    if lexicon is None:
        return False
    entry = lexicon.lookup(" ".join(phrase.split()[-2:]))
    return entry is not None and entry.kind == "topic"


def long_form_type(long: str, lexicon: Lexicon | None = None) -> str | None:
    """The entity type a long form names, or None for a topic or a generic phrase:
    'Sparse Neural Compression' -> method, 'signal-to-noise ratio' -> metric,
    'continual learning' -> None. A long form ending in a lexicon name takes its type
    ('Replica exchange stochastic gradient Langevin dynamics')."""
    if lexicon is not None:
        head_part = _HEAD_CUT.split(long, maxsplit=1)[0]
        hits, _ = lexicon.find(head_part)
        if (
            hits
            and hits[-1].end >= len(head_part) - 1
            and " " in head_part[hits[-1].start :].replace("-", " ")
        ):
            return hits[-1].entry.kind if hits[-1].entry.kind in ENTITY_KINDS else None
    head = _head(long)
    last_part = head.split("-")[-1]
    if head in DATASET_HEADS:
        return "dataset"
    if head in METRIC_HEADS or last_part in METRIC_HEADS:
        return "metric"
    if _PREFERENCE_OPTIMISATION.search(long):
        return "method"
    if _NAMED_OPTIMISATION.search(long) and not _ends_in_topic(long, lexicon):
        return "method"
    long = _OF_COMPOUND.sub(r" \1 ", long)  # 'Mixture-of-Prompts' reads as 'Mixture of Prompts'
    if head in TOPIC_HEADS or last_part in TOPIC_HEADS:
        return None
    titled = is_titled(long)
    if head in WEAK_METHOD_HEADS or last_part in WEAK_METHOD_HEADS:
        return "method" if titled else None  # 'Generalized Advantage Estimation', not 'depth estimation'
    if head in METHOD_HEADS or last_part in METHOD_HEADS:
        return "method"
    singular = head[:-1] if head.endswith("s") and not head.endswith("ss") else None
    if singular in METHOD_HEADS or singular == "expert":
        # A plural names a class ('graph neural networks'), except for a named mixture or ensemble.
        return None if singular in CLASS_PLURAL_HEADS else "method"
    return "method" if titled and singular is None else None


# What may follow a model family name in a released model's name: versions, sizes, variants.
_RELEASE_SUFFIX = re.compile(
    r"(?:[-_ .]?(?:\d+(?:\.\d+)*[BMKbmk]?|[a-z]|v\d+|[A-Z]\d*|VL|Vision|Instruct|Chat|Base|Large|XL|Small|"
    r"Mini|mini|"
    r"Turbo|Pro|Plus|Max|Ultra|Flash|Coder|Math|Med|Code|Preview|preview|Omni|Sonnet|Opus|Haiku|Lite|Nano|"
    r"Distill|Qwen|Llama|[LBHS]/\d+))*"
)


def is_released_model(lexicon: Lexicon, token: str) -> bool:
    """'Qwen3-8B' and 'GPT-4o-mini' are somebody's released models; 'CLIP4HOI' is a new name."""
    family = lexicon.model_family.match(token)
    return family is not None and _RELEASE_SUFFIX.fullmatch(token, family.end()) is not None


def shape_type(token: str, lexicon: Lexicon, following: str) -> str:
    if lexicon.is_model_family(token) or SIZE_TAG.search(token):
        return "model"
    if _METRIC_SHAPE.search(token):
        return "metric"
    if DATASET_SHAPE.search(token) and not token.isupper():
        return "dataset"
    variant_of = lexicon.lookup(token.rpartition("-")[0]) if "-" in token else None
    if variant_of is not None and variant_of.kind == "dataset":
        return "dataset"  # 'ImageNet-21k', 'MMLU-Pro': a variant of a known dataset
    word = NEXT_WORD.match(following)
    next_word = word.group(1).lower() if word else ""
    if next_word in DATASET_HEADS or next_word in _BENCHMARK_FOLLOWERS or _LISTED_DATASETS.match(following):
        return "dataset"
    if word is not None and next_word.isalpha():
        second = NEXT_WORD.match(following, word.end())
        if second is not None and second.group(1).lower() in DATASET_HEADS:
            return "dataset"  # 'the StoryCloze textual benchmark'

    if next_word in METRIC_FOLLOWERS:
        return "metric"
    kind = APPOSITIVE_KIND.match(following) if following.startswith(",") else None
    if kind is not None:
        return kind_type(kind)
    return "method"


def repository_letters(paper: PaperState) -> set[str]:
    """The letters of the names of the repositories the abstract links to."""
    return {letters(name) for name in map(repository_name, paper.links) if name is not None}


def in_formula(text: str, start: int, end: int) -> bool:
    return (
        _BOUND_OPEN.search(text, max(0, start - 30), start) is not None
        or _RELATION_BEFORE.search(text, max(0, start - 2), start) is not None
        or _RELATION_AFTER.match(text, end) is not None
    )


ADJECTIVE_ENDING = re.compile(r"(?:ian|ean|ic|al|ive)$")


# A hyphenated word ending like this is an adjective, whatever its capitals: 'Long-CoT-based'.
ADJECTIVE_SUFFIX_PATTERN = rf"-(?:{alternation(ADJECTIVE_SUFFIXES)})\b"


def listed_name(paper: PaperState, item: tuple[int, int], modifiers: bool = True) -> str | None:
    """The list item's text when it can be a name: not a modifier (unless modifiers is False), a
    unit, a topic or a function word."""
    text = paper.text
    name = text[item[0] : item[1]]
    if modifiers and plain_capitalised(name) and _LOWER_WORD_NEXT.match(text, item[1]):
        return None  # 'e.g., Gaussian mixture models': a modifier, not a name
    if sum(c.isalpha() for c in name) < 2 or _UNIT.fullmatch(name):
        return None  # '3D', '10K'
    entry = paper.lexicon.lookup(name)
    if entry is not None and entry.kind in ("topic", "non_entity"):
        return None
    if paper.is_topic(name) or name.lower() in FUNCTION_WORDS:
        return None
    return name


def list_items(text: str, position: int) -> list[tuple[int, int]]:
    """The capitalised items of a list starting at position: 'X, Y, and Z', 'X and Y'."""
    items = []
    while True:
        item = _LIST_ITEM.match(text, position)
        if item is None:
            break
        start, end = strip_token(text, item.start(), item.end())
        if end > start:
            items.append((start, end))
        joint = LIST_JOIN.match(text, item.end())
        if joint is None or len(items) >= 8:
            break
        position = joint.end()
    return items


def at_sentence_start(text: str, start: int) -> bool:
    return start == 0 or _SENTENCE_OPENING.search(text, max(0, start - 4), start) is not None


# 'we present Transolver based on', 'a new Physics-Attention to split': a word that closes the noun
# phrase, so the capitalised word before it is the object itself, not a modifier of a noun.
ENDS_NOUN_PHRASE = re.compile(r" (?:based|that|which|to|for|with|as|via|by|inspired|designed|built)\b")


def introduced_type(text: str, window_start: int, start: int, end: int) -> str:
    """A name a proposal clause introduces is a dataset when the nearest kind noun around it says
    benchmark or dataset ('two benchmark tasks: A and B', 'X, a benchmark for ...')."""
    nouns = list(KIND_NOUN.finditer(text, window_start, start))
    after = KIND_NOUN.match(text, end + 1) or APPOSITIVE_KIND.match(text, end)
    nearest = after or (nouns[-1] if nouns else None)
    if nearest is not None:
        return kind_type(nearest)
    return "dataset" if DATASET_SHAPE.search(text[start:end]) else "method"


CLAIM_AFTER = re.compile(rf",?\s(?:\w+ly\s)?(?:{alternation(CLAIM_VERBS)})\b")
