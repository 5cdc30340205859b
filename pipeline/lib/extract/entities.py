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

import bisect
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import NamedTuple

from pipeline.lib.extract import proposed as cue
from pipeline.lib.extract.abbreviations import Abbreviation, find_abbreviations
from pipeline.lib.extract.heads import (
    DATASET_HEADS,
    FUNCTION_WORDS,
    INTRO_FILLERS,
    LANGUAGE_DATA_HEADS,
    METHOD_HEADS,
    METRIC_HEADS,
    NAMED_HEADS,
    TOPIC_HEADS,
    WEAK_METHOD_HEADS,
    WEAK_METRIC_HEADS,
)
from pipeline.lib.extract.lexicons import Hit, Lexicon, letters, load_lexicon, match_key, on_word_boundaries
from pipeline.lib.extract.links import Link, find_links, repository_name


class Mention(NamedTuple):
    start: int
    end: int
    text: str
    name: str
    entity_type: str
    role: str
    expansion: str | None


class PaperEntities(NamedTuple):
    mentions: list[Mention]
    abbreviations: list[Abbreviation]
    # The limits that cut this paper short, in LIMITS: more definitions than MAX_DEFINITIONS, more
    # entities than MAX_ENTITIES or more mentions than MAX_MENTIONS were found, and the first kept.
    capped: tuple[str, ...]


# Entities a surface form may belong to. Real abstracts give a form to two at most; without a bound,
# one long form defined under many acronyms ('Foo Bar Net (FBN1) ... Foo Bar Net (FBN2) ...') would
# give each of them every occurrence of it, and every rule that walks an entity's occurrences
# would take time in the square of the text. An entity beyond the bound keeps the span it was
# found at.
MAX_FORM_HOLDERS = 4

# Mentions kept per paper, the first ones in the text. Real abstracts have a few dozen at most, but
# one that defines a long form under many acronyms makes each occurrence of it a mention of every
# one of them: rows that grow with the square of the text.
MAX_MENTIONS = 1000

# Abbreviation definitions kept per paper, the first ones in the text. Real abstracts define 9 at
# most; each definition costs rules that look at the proposal clause and the other names, so
# hundreds of them ('Foo Bar Net (FBN0) ... (FBN249)') would cost many times a normal abstract.
MAX_DEFINITIONS = 20

# Entities kept per paper, the first ones the rules find. Real abstracts name 19 at most; a text
# made of names ('... (FBN20) ... (FBN249)', past MAX_DEFINITIONS each a name by its shape) would
# otherwise cost every rule that types an entity, gives it a role or finds its occurrences.
MAX_ENTITIES = 50

LIMITS = ("definitions", "entities", "mentions")


@dataclass
class _Entity:
    name: str
    entity_type: str
    expansion: str | None
    known: bool  # named in a lexicon: somebody else's, never the paper's own
    forms: set[str] = field(default_factory=set)
    spans: set[tuple[int, int]] = field(default_factory=set)
    proposed: bool = False


# Every word holding a capital; the Python loop then keeps those shaped like names.
_CAPITAL_WORD = re.compile(r"[A-Z\u0391-\u03a9](?:[\w.'’+-]|×(?=\d))*")  # 'Mixtral-8×7B' keeps its '×'

_WORD_CHARS = re.compile(r"[\w+-]")
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
# 'type-II', 'phase-IV': a word numbered with a Roman numeral.
_NUMBERED_WORD = re.compile(r"[a-z]+-[IVX]+")
_COUNTED_CAPITALISED = re.compile(r"\d+-[A-Z][a-z]+")
# 'Σ-agent': a Greek letter joined to a word, a name when the paper introduces it (else math).
_GREEK_PREFIXED = re.compile(r"[\u0391-\u03a9\u03b1-\u03c9]-[A-Za-z][\w-]*")
_CITED_AUTHOR = re.compile(r"(?: et al\b|,? \(?(?:19[5-9]|20[0-3])\d[a-z]?\b(?![.,]\d))")
_GROUP_ARGUMENT = re.compile(r"\(\s*(?:\d|[a-zA-Z]\s*\))")
_SPELLED_INITIALS = re.compile(
    r"[A-Z]{2}[a-z]{3,}|[a-z]+[A-Z][a-z]+(?:-[A-Z][a-z]+)*|[a-z]{4,}[A-Z]|[a-z]{2,}-[A-Z][a-z]+"
)
# '4-DoF', '6-DOF', '3-D': a count of degrees of freedom or dimensions, not a name.
_DEGREES = re.compile(r"\d+-?(?:DoFs?|DOFs?|D)")
# 'video-QA', 'neuroAI', 'av-LLM': a lower-case word fused with a field acronym.
_FUSED_ACRONYM = re.compile(r"([a-z]+)-?([A-Z]{2,5})s?")
URL = re.compile(r"(?:https?://|www\.)\S+")
# Math rendered to Unicode: subscripts, Greek letters, letter-like symbols (nε_BC, ℓ2).
_MATHY = re.compile(r"[_\u00b2\u00b3\u00b9\u0370-\u03ff\u1d00-\u1dbf\u2070-\u209f\u2100-\u214f]")
# A token inside an asymptotic bound, 'Õ(dHK)', or beside a relation, 'A ≈ LR': a formula's symbols.
_BOUND_OPEN = re.compile(r"(?:\b[OΘΩ]|Õ|𝒪)\([^()]*$")
_RELATION_BEFORE = re.compile(r"[=≈≃≅≤≥<>∼]\s?$")
_RELATION_AFTER = re.compile(r"\s?[=≈≃≅≤≥∼]")
_UNIT = re.compile(r"(?i)\d+(?:\.\d+)?(?:[kmbt]|bn|x|×|d|db|st|nd|rd|th|gb|mb|tb|ms|s|h|hz|bit|bits|-bit|%)?")
_ROMAN = re.compile(r"[IVX]{1,4}s?")
_SIZE_TAG = re.compile(
    r"(?:^|[-_ ])(?:\d+(?:\.\d+)?[BM]|\d+B\d*[A-Z]?\d*T?|XL|XXL|Large|Base|Small|Tiny|Huge|Mini|"
    r"Instruct|Chat)$"
    r"|\d+(?:\.\d+)?[BM]-"
)
_DATASET_SHAPE = re.compile(
    r"(?:Bench|bench|QA|Eval|Set|Gym|Arena|World|Suite|Corpus|Data)(?:[-_ ]?(?:\d[\w.]*|v\d+|[A-Z]{1,3}))?$"
)
# 'BLEU-1', 'Rouge-F': a metric's variants are named with a suffix.
_METRIC_SHAPE = re.compile(
    r"(?:FID|IoU|AUC|AUROC|(?i:BLEU|ROUGE)|PSNR|SSIM|mAP|ECE|NDCG|F1)(?:-(?:\d|[A-Z]|Lsum))?$|^pass@"
)
# Metrics whose name is also an everyday word for a quality ('maintaining accuracy'): a metric
# where the sentence states a value or compares, as papers report results.
# Plain words that are measures only where the sentence states a value or compares them.
_QUALITY_WORDS = frozenset(["accuracy", "precision", "recall"])
_STATED_VALUE = re.compile(r"\d(?:\.\d+)?\s?(?:%|×|x\b|-fold\b|points?\b|pp\b)|\b\d+\.\d+\b")
_COMPARED_QUALITY = re.compile(
    r"\b(?:higher|better|best|superior|lower|comparable|competitive|top)\b(?: [\w-]+){0,2} $"
)
_PROPERTY_SUFFIX = re.compile(
    r"-(?:submodular|supermodular|convex|concave|smooth|Lipschitz|lipschitz|monotone|stationary|"
    r"mixing|regular|bounded)$"
)
_ENTITY_KINDS = frozenset(["method", "model", "dataset", "metric"])
_MODEL_SIZE_WORDS = frozenset(
    ["base", "large", "small", "tiny", "mini", "medium", "huge", "instruct", "chat", "xl"]
)
_LOWER_PREFIXES = frozenset(
    [
        "non",
        "multi",
        "semi",
        "pre",
        "post",
        "anti",
        "sub",
        "super",
        "cross",
        "self",
        "co",
        "inter",
        "intra",
        "over",
        "under",
        "re",
        "de",
        "un",
        "meta",
        "hyper",
        "ultra",
        "micro",
        "quasi",
        "pseudo",
        "near",
        "low",
        "high",
        "full",
        "half",
        "single",
        "dual",
        "bi",
        "tri",
        "uni",
        "all",
        "zero",
        "few",
    ]
)
# 'on Atari games', 'ListOps tasks': a name before these is a benchmark.
_BENCHMARK_FOLLOWERS = frozenset(
    ["task", "tasks", "games", "environments", "environment", "splits", "split", "subset"]
)
# 'on X and four real datasets', 'X, Y and Z benchmarks'.
_LISTED_DATASETS = re.compile(r"(?:,? (?:and |or )?(?:the )?[\w-]+){0,6}? (?:datasets|benchmarks|corpora)\b")
_SPACED_SIZE = re.compile(r" (\d+(?:x\d+)?(?:\.\d+)?[BM])(?![\w-])")
_TRAILING_VERSION = re.compile(r"(?<= )\d+(?:\.\d+)?$")
_OTHER_VERSION = re.compile(r"/(\d+(?:\.\d+)?)(?![\w.%])")
_VERSION = re.compile(r" ((?:[VR]|v)?\d+(?:\.\d+)?)(?:/((?:[VR]|v)?\d+(?:\.\d+)?))?(?![\w.%])")
# The name before a dataset head word, read backwards: 'the LVIS', 'on the Open Graph'.
_NAME_WORD = r"(?:[\w+'’-]|\.(?=\w))*"
_NAME_BEFORE = re.compile(
    rf"((?:[A-Z]{_NAME_WORD}|[\w+-]*[a-zA-Z][\w+-]*(?:[a-zA-Z]\d|\d[a-zA-Z]){_NAME_WORD})"
    rf"(?: [A-Z0-9]{_NAME_WORD}){{0,3}}) $"
)
# A measured quantity and its value: 'achieving a semantic IoU of 82.4'.
_OF_VALUE = re.compile(r" of (?=[-+−]?\d|𝒪|O\(|up to \d|over \d)")
_PERCENT = re.compile(r"[-+−]?\d+(?:\.\d+)?\s?%")
_GAIN_IN = re.compile(
    r"\d(?:\.\d+)?\s?%\s+(?:(?:relative |absolute |average )?(?:improvements?|gains?|increases?|reductions?|"
    r"higher|lower|better|boosts?) )?in (?:terms of )?(?:the )?((?:[\w-]+ ){0,4}[\w-]+)"
)
_QUANTITY_BEFORE = re.compile(r"\b(?:an?|the|higher|lower|best|average|mean) ((?:[\w-]+ ){0,2}[\w-]+)$")
# 'benchmarks such as Infoseek and OK-VQA', 'baselines (e.g., PPO, SAC)': a list of examples after
# a kind noun names things of that kind.
_PLAIN_CAPITALISED = re.compile(r"[A-Z][^\WA-Z0-9_]*(?:[-'’.][^\WA-Z0-9_]*)*")
_AFTER_EXAMPLE_CUE = re.compile(r"[.,:]*\s+")
_KIND_BEFORE = re.compile(
    r"\b(datasets?|benchmarks?|tasks|environments|suites|corpora|models|LLMs|VLMs|MLLMs|architectures|backbones|"
    r"methods|baselines|algorithms|approaches|techniques|optimizers|attacks|defenses|metrics|measures)\)?,?\s*\(?$"
)
_KIND_TYPES = {
    **dict.fromkeys(["dataset", "benchmark", "task", "environment", "suite", "corpora"], "dataset"),
    **dict.fromkeys(["model", "llm", "vlm", "mllm", "architecture", "backbone"], "model"),
    **dict.fromkeys(
        ["method", "baseline", "algorithm", "approache", "technique", "optimizer", "attack", "defense"],
        "method",
    ),
    **dict.fromkeys(["metric", "measure"], "metric"),
}
# 'datasets (BDD100K, Cityscapes, and SODA10M)': a list in parentheses right after a kind noun.
# Both patterns begin with a literal, so the full-text scan stays cheap; the word before is
# checked against a set.
_PARENTHESIS_LIST = re.compile(r" \((?=[A-Z0-9])")
_LAST_WORD = re.compile(r"\w+$")
_PARENTHESIS_KINDS = frozenset(
    (
        *("datasets", "benchmarks", "environments", "suites", "corpora", "models", "LLMs", "VLMs"),
        *("MLLMs", "architectures", "backbones", "baselines", "algorithms", "optimizers", "attacks"),
        *("defenses", "metrics", "measures"),
    )
)
# 'results on X and Y', 'experiments on the X, Y and Z': an evaluation phrase before a list.
_ON_LIST = re.compile(r" (?:on|across) (?:the |both |several |multiple )?(?=[A-Z0-9])")
_EVALUATION_BEFORE_ON = re.compile(
    r"\b(?:results|experiments|evaluations?|evaluated|tested|validated|performance|benchmarked)$"
)
_LIST_WORD = r"(?:[\w+'’-]|\.(?=\w))*"
_LIST_ITEM = re.compile(
    rf"(?:[A-Z0-9]{_LIST_WORD}|[a-z]+[A-Z]{_LIST_WORD})"
    rf"(?: (?!(?:Our|We|The|This|In)\b)[A-Z0-9]{_LIST_WORD}){{0,3}}"
)
_PRECISION_RECALL = re.compile(r"\b([Pp]recision)(?:,| and| or| vs\.?|/| versus) (?:\w+ )?([Rr]ecall)\b")
_RATE_HEADS = frozenset(["rate", "rates", "score", "scores"])
_LOWER_WORD_NEXT = re.compile(r" (?!(?:and|or|as|in|on|for|with|to|at|by|are|is|have|has)\b)[a-z]")
# What makes a rate a measured quantity rather than a speed of convergence: 'a win rate of 72%'.
_RATE_KINDS = frozenset(
    [
        *("win", "success", "error", "failure", "acceptance", "hit", "miss", "detection", "positive"),
        *("negative", "discovery", "pass", "solve", "resolve", "refusal", "hallucination", "compression"),
        *("click-through", "recognition", "classification"),
    ]
)
_METRIC_FILLERS = frozenset(
    [
        "average",
        "mean",
        "overall",
        "final",
        "high",
        "higher",
        "low",
        "lower",
        "best",
        "improved",
        "better",
        "strong",
        "state-of-the-art",
    ]
)
_TITLE_RUN = re.compile(
    r"[A-Z][\w'’+-]*(?:\+\+|\+)?"
    r"(?:(?: (?:of|for|with|and|&|via|on|in|to|from|under|the))? [A-Z][\w'’+-]*(?:\+\+|\+)?"
    r"| \d+(?:\.\d+)?(?![\w.%]))*"
)
_NEXT_WORD = re.compile(r"\s*([\w-]+)")
# 'We introduce self-guidance, a method that ...': a lower-case name the apposition defines.
_LOWER_NAME = re.compile(
    r"[a-z][\w-]*(?: [a-z][\w-]*){0,2}(?=, (?:a|an) (?:[\w-]+ ){0,4}?(?:method|framework|approach|technique|"
    r"algorithm|benchmark|dataset|model|architecture|procedure|strategy|metric|system|tool|toolkit|library|"
    r"agent|pipeline|module|mechanism|suite|environment|platform|intervention|regularizer|regulariser|"
    r"objective|loss|estimator|test|attack|defense|defence|protocol|scheme|paradigm|layer|operator|"
    r"sampler|solver|heuristic|principle)s?\b)"
)
_LIST_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)")
# 'UniFlow-XL', 'Expert Merging++', 'MagicoderS' (a capital letter appended), 'X-CL-7B'.
_VARIANT_SUFFIX = re.compile(
    r"(?:\+\+|\+|[A-Z](?=-|[^\w+])|(?:-[A-Z0-9][\w.]*)+|-(?:v\d+|large|base|small|tiny|mini|lite|pro|plus))"
    r"(?![\w+])"
)
# A variant of a variant is the paper's too: 'Magicoder' -> 'MagicoderS' -> 'MagicoderS-CL-7B'.
_VARIANT_DEPTH = 2
_KIND_GROUPS = (
    r"(?:(benchmark|dataset|corpus|suite|testbed|leaderboard|collection)|(metric|measure|score)|"
    r"(method|framework|model|algorithm|approach|module|architecture|system|network|technique|mechanism|"
    r"pipeline|strategy|optimizer|tokenizer|agent|policy|data structure))s?\b"
)
# 'X, a benchmark with ...', 'X, the first large-scale corpus', 'X, a large, open dataset': the
# kind an apposition gives.
_APPOSITIVE_KIND = re.compile(r",? (?:a|an|the) (?:[\w-]+,? ){0,4}?" + _KIND_GROUPS)
# The same, with room for a longer description: ', a simple yet highly efficient speculative
# sampling framework'.
_DESCRIBED_KIND = re.compile(r", (?:a|an|the) (?:[\w-]+,? ){0,7}?" + _KIND_GROUPS)
_KIND_NOUN = re.compile(r"\b" + _KIND_GROUPS)
_NAMELY = re.compile(r",? namely $")
_LOWER_COMPOUND = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")
# 'Ant Colony Optimization (ACO) is a meta-heuristic algorithm': a definition that gives the kind.
_DEFINED_KIND = re.compile(r" (?:is|are) (?:a|an) (?:[\w-]+,? ){0,3}?" + _KIND_GROUPS)
# Where the head of a long form ends: 'fitted Q-iteration | with log-loss'.
_HEAD_CUT = re.compile(r" (?:of|from|for|with|via|using|based|under) ")
_OF_COMPOUND = re.compile(r"-(of|for|to|in|on|and|the)-")
_PREFERENCE_OPTIMISATION = re.compile(r"(?i)(?:policy|preference) (?:optimi[sz]ation|alignment)$")
# 'Ant Colony Optimization', 'Directed Representation Optimization': three title-case words or more
# name a method; 'Bayesian Optimization' and 'Convex Optimization' name fields.
_NAMED_OPTIMISATION = re.compile(r"(?:[A-Z][\w-]* ){2,}Optimi[sz]ation$")
# Coined names mix cases inside a word: TensorAR, MixKV, eNeRgy.
_COINED = re.compile(r"[a-z][A-Z]|[A-Z][a-z]+[A-Z]")
_VOICE = re.compile(r"\b(?:[Ww]e|[Oo]ur|[Tt]his (?:work|paper))\b")
_PRECEDING_TITLE_WORD = re.compile(r"(?<![.!?:] )\b[A-Z][a-z]+ $")
_SENTENCE_OPENING = re.compile(r"(?:[.!?:]\s+|\n)[\"“(*]?$")


def _strip_token(text: str, start: int, end: int) -> tuple[int, int]:
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
        and not _GREEK_PREFIXED.fullmatch("-".join(parts))
    ):
        end -= len(parts[-1]) + 1
        parts.pop()
    if len(parts) > 1 and parts[0] in _LOWER_PREFIXES:
        start += len(parts[0]) + 1
    return start, end


def _plain_capitalised(word: str) -> bool:
    """'Bellman', 'Experiments': a capital, then only lower case and no digit."""
    return _PLAIN_CAPITALISED.fullmatch(word) is not None


def _is_name_shape(token: str) -> bool:
    if _GREEK_PREFIXED.fullmatch(token):
        return True
    if _COUNTED_CAPITALISED.fullmatch(token):
        return False  # '1-Lipschitz', '2-Wasserstein': an order of a named property, math
    if len(token) < 2 or not token[0].isalnum() or _plain_capitalised(token) or _UNIT.fullmatch(token):
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
        if k > 0 and word.lower() in ("of", "from", "for", "with", "via", "using", "based", "under"):
            words = words[:k]
            break
    return words[-1].lower() if words else ""


def _titled(phrase: str) -> bool:
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
            return hits[-1].entry.kind if hits[-1].entry.kind in _ENTITY_KINDS else None
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
    titled = _titled(long)
    if head in WEAK_METHOD_HEADS or last_part in WEAK_METHOD_HEADS:
        return "method" if titled else None  # 'Generalized Advantage Estimation', not 'depth estimation'
    if head in METHOD_HEADS or last_part in METHOD_HEADS:
        return "method"
    singular = head[:-1] if head.endswith("s") and not head.endswith("ss") else None
    if singular in METHOD_HEADS or singular == "expert":
        # A plural names a class ('graph neural networks'), except for a named mixture or ensemble.
        return None if singular in ("model", "network", "system", "method", "algorithm") else "method"
    return "method" if titled and singular is None else None


# What may follow a model family name in a released model's name: versions, sizes, variants.
_RELEASE_SUFFIX = re.compile(
    r"(?:[-_ .]?(?:\d+(?:\.\d+)*[BMKbmk]?|[a-z]|v\d+|[A-Z]\d*|VL|Vision|Instruct|Chat|Base|Large|XL|Small|"
    r"Mini|mini|"
    r"Turbo|Pro|Plus|Max|Ultra|Flash|Coder|Math|Med|Code|Preview|preview|Omni|Sonnet|Opus|Haiku|Lite|Nano|"
    r"Distill|Qwen|Llama|[LBHS]/\d+))*"
)


def _is_released_model(lexicon: Lexicon, token: str) -> bool:
    """'Qwen3-8B' and 'GPT-4o-mini' are somebody's released models; 'CLIP4HOI' is a new name."""
    family = lexicon.model_family.match(token)
    return family is not None and _RELEASE_SUFFIX.fullmatch(token, family.end()) is not None


def _shape_type(token: str, lexicon: Lexicon, following: str) -> str:
    if lexicon.is_model_family(token) or _SIZE_TAG.search(token):
        return "model"
    if _METRIC_SHAPE.search(token):
        return "metric"
    if _DATASET_SHAPE.search(token) and not token.isupper():
        return "dataset"
    variant_of = lexicon.lookup(token.rpartition("-")[0]) if "-" in token else None
    if variant_of is not None and variant_of.kind == "dataset":
        return "dataset"  # 'ImageNet-21k', 'MMLU-Pro': a variant of a known dataset
    word = _NEXT_WORD.match(following)
    next_word = word.group(1).lower() if word else ""
    if next_word in DATASET_HEADS or next_word in _BENCHMARK_FOLLOWERS or _LISTED_DATASETS.match(following):
        return "dataset"
    if word is not None and next_word.isalpha():
        second = _NEXT_WORD.match(following, word.end())
        if second is not None and second.group(1).lower() in DATASET_HEADS:
            return "dataset"  # 'the StoryCloze textual benchmark'

    if next_word in ("score", "metric", "metrics"):
        return "metric"
    kind = _APPOSITIVE_KIND.match(following) if following.startswith(",") else None
    if kind is not None:
        return "dataset" if kind.group(1) else "metric" if kind.group(2) else "method"
    return "method"


class _Paper:
    """The working state for one abstract."""

    def __init__(self, text: str, lexicon: Lexicon, links: Sequence[Link]) -> None:
        self.text = text
        self.links = links
        self.lexicon = lexicon
        self.entities: dict[str, _Entity] = {}
        self.topic_forms: set[str] = set()
        self.covered: set[tuple[int, int]] = set()
        self.forms: set[str] = set()
        self.holders: Counter[str] = Counter()  # entities each form was given to
        self.form_keys: dict[str, str] = {}  # key of every surface form -> its entity's key
        self.keys: dict[str, str] = {}  # name -> key(name)
        self.entities_capped = False  # an entity was refused, MAX_ENTITIES being reached
        self.long_forms: list[tuple[int, int]] = []  # spans of the long forms the abstract defines
        # The spans of URLs, in order and apart: what finditer gives.
        self.blocked: list[tuple[int, int]] = [m.span() for m in URL.finditer(text)] if "://" in text else []

    def is_blocked(self, position: int) -> bool:
        """Whether position is inside a URL."""
        after = bisect.bisect_right(self.blocked, (position, float("inf")))
        return after > 0 and position < self.blocked[after - 1][1]

    def key(self, name: str) -> str:
        key = self.keys.get(name)
        if key is None:  # remembered: every call to add asks again for the keys of all the forms
            # A plural is a lower-case s ('SAEs'); 'MagicoderS' is another model than 'Magicoder'.
            key = match_key(name).replace(" ", "")
            key = self.keys[name] = key[:-1] if name.endswith("s") else key
        return key

    def add(
        self,
        name: str,
        entity_type: str,
        span: tuple[int, int],
        *,
        expansion: str | None = None,
        known: bool = False,
        forms: tuple[str, ...] = (),
    ) -> _Entity | None:
        if self.is_blocked(span[0]) or sum(map(str.isalnum, name)) < 2:
            return None  # a URL, or a single letter of the math: 'O', 'k'
        key = self.key(name)
        entity = self.entities.get(key)
        if entity is None and self.form_keys.get(key) in self.entities:  # a long form written on its own
            key = self.form_keys[key]
            entity = self.entities[key]
        if entity is None and self.is_full(name):
            return None
        if entity is None:
            entity = self.entities[key] = _Entity(name, entity_type, expansion, known)
        elif expansion and not entity.expansion:
            entity.expansion = expansion
        entity.known = entity.known or known
        for form in {self.text[span[0] : span[1]], *forms} - entity.forms:
            if self.holders[form] < MAX_FORM_HOLDERS:
                entity.forms.add(form)
                self.holders[form] += 1
        self.forms.update(entity.forms)
        for form in entity.forms:
            self.form_keys.setdefault(self.key(form), key)
        entity.spans.add(span)
        self.covered.add(span)
        return entity

    def is_full(self, name: str) -> bool:
        """Whether add would refuse name a new entity, MAX_ENTITIES being reached (and noted)."""
        if len(self.entities) < MAX_ENTITIES:
            return False
        key = self.key(name)
        if key in self.entities or self.form_keys.get(key) in self.entities:
            return False
        self.entities_capped = True
        return True

    def absorb(self, spans: list[tuple[int, int]], known_too: bool = False) -> bool:
        """Give up the shape-only entities written inside a longer introduced name; False (and
        nothing changes) when a span belongs to a defined or (unless known_too) lexicon entity."""
        owners = {key: e for key, e in self.entities.items() if e.spans & set(spans)}
        defined = any(e.expansion and not e.known for e in owners.values())
        if defined or (not known_too and any(e.known for e in owners.values())):
            return False
        for key, entity in owners.items():
            entity.spans -= set(spans)
            if not entity.spans:
                del self.entities[key]
        self.covered -= set(spans)
        return True

    def make_room(self, start: int, end: int) -> bool:
        """Whether a longer name fits [start, end): True once the entities written inside it,
        lexicon ones too, have given up their spans there; False when something crosses its edges
        or a defined entity is inside."""
        overlaps = [(s, e) for s, e in self.covered if s < end and start < e]
        inside = all(start <= s and e <= end for s, e in overlaps)
        return not overlaps or (inside and self.absorb(overlaps, known_too=True))

    def is_topic(self, form: str) -> bool:
        return form in self.topic_forms or form.rstrip("s") in self.topic_forms


class _SpanIndex:
    """Spans sorted by start, with the furthest end reached so far: whether any of them overlaps
    [start, end) in logarithmic time rather than a scan of them all."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [start for start, _ in ordered]
        self.reach = list(accumulate((end for _, end in ordered), max))

    def overlaps(self, start: int, end: int) -> bool:
        before_end = bisect.bisect_left(self.starts, end)
        return before_end > 0 and self.reach[before_end - 1] > start


def _add_abbreviations(paper: _Paper, abbreviations: list[Abbreviation], cues: cue.Cues) -> None:
    lexicon, text = paper.lexicon, paper.text
    paper.long_forms = [(a.long_start, a.long_end) for a in abbreviations]
    for a in abbreviations:
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
        if entry is not None and entry.kind == "topic":
            paper.topic_forms.update((a.short, a.short.rstrip("s"), a.long))
            continue
        if entry is not None:
            # The lexicon knows this one: its name and expansion, not this paper's spelling of them.
            for span in spans:
                paper.add(entry.name, entry.kind, span, expansion=entry.expansion, known=True, forms=forms)
            continue
        entity_type = long_form_type(a.long, lexicon)
        following = _NEXT_WORD.match(text, a.end)
        if entity_type is None and following is not None and following.group(1).lower() in METHOD_HEADS:
            entity_type = "method"  # 'the bandit-over-bandit (BOB) framework'
        defined = _DEFINED_KIND.match(text, a.end) if entity_type is None and _titled(a.long) else None
        if defined is not None:
            entity_type = "dataset" if defined.group(1) else "metric" if defined.group(2) else "method"
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
            paper.topic_forms.update((a.short, a.short.rstrip("s"), a.long))
            continue
        if (
            window_start is not None
            and _introduced_type(text, window_start, a.long_start, a.end) == "dataset"
        ):
            entity_type = "dataset"
        if following is not None and following.group(1).lower() in DATASET_HEADS:
            entity_type = "dataset"  # 'our Multilingual Composition Relation (MCR) benchmark'
        if following is not None and following.group(1).lower() in ("metric", "measure", "score"):
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


def _measured_in_sentence(text: str, cues: cue.Cues, start: int) -> bool:
    """'86.4% accuracy on Cora', 'higher accuracy than WMD', not 'while maintaining accuracy'."""
    sentence_start, sentence_end = cue.sentence_of(cues, text, start)
    return (
        _STATED_VALUE.search(text, sentence_start, sentence_end) is not None
        or _COMPARED_QUALITY.search(text, max(sentence_start, start - 30), start) is not None
    )


def _add_lexicon_hits(paper: _Paper, hits: list[Hit], cues: cue.Cues) -> None:
    text = paper.text
    for hit in hits:
        form = text[hit.start : hit.end]
        kind = hit.entry.kind
        if kind == "topic":
            paper.topic_forms.add(form)
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
        if hit.entry.name in _QUALITY_WORDS and not _measured_in_sentence(text, cues, hit.start):
            continue
        paper.add(hit.entry.name, kind, (hit.start, hit.end), expansion=hit.entry.expansion, known=True)


_PATH_PART_BEFORE = re.compile(r"(?<![\w.-])[a-z][\w.-]*/$")


def _add_shape_tokens(paper: _Paper) -> None:
    text, lexicon = paper.text, paper.lexicon
    long_forms = _SpanIndex(paper.long_forms)  # most tokens are in none: no scan of them all
    previous_end = -1
    for m in _CAPITAL_WORD.finditer(text):
        start, end = m.span()
        if start < previous_end:
            continue
        while start > 0 and _WORD_CHARS.match(text, start - 1):
            start -= 1  # the word began in lower case: video-SALMONN, eNeRgy-GPT
        previous_end = end
        if text.startswith(("http", "www."), start) or (m.start() == start and _plain_capitalised(m.group())):
            continue
        if start > 1 and text[start - 1] == "/" and _PATH_PART_BEFORE.search(text, max(0, start - 40), start):
            continue  # a path: 'examples/ThoughtRollback', but not 'RankDice/RankIoU'
        if _GROUP_ARGUMENT.match(text, end):
            continue  # a group or a function: 'SE(3)', 'SO(n)'
        if _PROPERTY_SUFFIX.search(text, start, end):
            continue  # a class of functions: 'DR-submodular', 'L-smooth'
        start, end = _strip_token(text, start, end)
        token = text[start:end]
        joined = token.find("-")
        if 0 < joined < m.start() - start + 1 and token[:joined].isalpha() and token[:joined].islower():
            rest = token[joined + 1 :]
            kind_noun = _KIND_NOUN.fullmatch(token[:joined]) is not None
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
            not _is_name_shape(token)
            or paper.is_topic(token)
            or (_MATHY.search(token) and not _GREEK_PREFIXED.fullmatch(token))
            or _DEGREES.fullmatch(token)
            or _in_formula(text, start, end)
        ):
            continue
        entry = lexicon.lookup(token)
        if entry is None and (
            (_CAPITALISED_COMPOUND.fullmatch(token) and not _named_as_own(paper, token, start))
            or (
                _SPELLED_INITIALS.fullmatch(token)
                and not _DATASET_SHAPE.search(token)
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
        word = _NEXT_WORD.match(following)
        if token.isupper() and word is not None and word.group(1) in TOPIC_HEADS:
            continue  # a field acronym as a modifier: 'PAC learning', 'HOI detection'
        if paper.is_full(name):
            continue  # no room for it: its type is not worth working out
        entity_type = _shape_type(token, lexicon, following)
        if entity_type == "method" and _evaluated_on(text, start):
            entity_type = "dataset"
        paper.add(name, entity_type, (start, end), known=_is_released_model(lexicon, token))


def _named_as_own(paper: _Paper, token: str, start: int) -> bool:
    """'our Pruner-Zero obtains', code at '.../Pruner-Zero': a capitalised compound that is not a
    pair of surnames ('Navier-Stokes') but a name the authors call theirs."""
    if paper.text[max(0, start - 4) : start] == "our ":
        return True
    return letters(token) in _repository_letters(paper)


def _repository_letters(paper: _Paper) -> set[str]:
    """The letters of the names of the repositories the abstract links to."""
    return {letters(name) for name in map(repository_name, paper.links) if name is not None}


def _in_formula(text: str, start: int, end: int) -> bool:
    return (
        _BOUND_OPEN.search(text, max(0, start - 30), start) is not None
        or _RELATION_BEFORE.search(text, max(0, start - 2), start) is not None
        or _RELATION_AFTER.match(text, end) is not None
    )


def _split_glued_words(paper: _Paper) -> None:
    """'This paper presentsApBot', 'ApBotcloses the loop': text extracted from a PDF loses spaces.
    A coined token that is another of the paper's names plus a lower-case word is that name, unless
    it recurs: a lost space does not repeat itself, while 'QUDsim' after 'QUD' is a name of its own."""
    names = sorted(
        (e for e in paper.entities.values() if not e.known and len(e.name) >= 3),
        key=lambda e: len(e.name),
    )
    # Each name's first entity in that order: the one a scan of all pairs would meet first. Looking
    # up the pieces a glued token can be cut into costs its lengths, not the other entities.
    first_named: dict[str, tuple[int, _Entity]] = {}
    for rank, other in enumerate(names):
        first_named.setdefault(other.name, (rank, other))
    lengths = sorted({len(name) for name in first_named})
    for key, entity in list(paper.entities.items()):
        if entity.known:
            continue
        glued = _glued_part(entity.name, first_named, lengths)
        if glued is None:
            continue
        offset, other = glued
        if len(re.findall(rf"(?<!\w){re.escape(entity.name)}(?!\w)", paper.text)) > 1:
            continue
        other.spans.update((start + offset, start + offset + len(other.name)) for start, _ in entity.spans)
        del paper.entities[key]


def _glued_part(
    token: str, first_named: dict[str, tuple[int, _Entity]], lengths: list[int]
) -> tuple[int, _Entity] | None:
    """The offset and entity of the first (in first_named's ranks) shorter name that token is,
    glued to lower-case words: first written where only glue comes before it and after it."""
    lower_head = len(token) - len(token.lstrip(_ASCII_LOWER))
    lower_tail = len(token) - len(token.rstrip(_ASCII_LOWER))
    best: tuple[int, int, _Entity] | None = None
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


# What a lost space glued to a name: nothing, or a lower-case word ('presents', 'closes').
_GLUE = re.compile(r"(?:[a-z]{2,})?")


def _evaluated_on(text: str, start: int) -> bool:
    """'state-of-the-art results on CodeContests': a name after 'on' in a sentence about
    evaluation is a benchmark."""
    if _ON_BEFORE.search(text, max(0, start - 40), start) is None:
        return False
    return _EVALUATION_WORDS.search(text, max(0, start - 160), start) is not None


def _fused_with_topic(paper: _Paper, token: str) -> bool:
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
        elif not (part.isalpha() and (part.islower() or _plain_capitalised(part))):
            return False
    return topical


def _add_versions(paper: _Paper) -> None:
    """'AlphaFold 2/3' names two models; 'SAM 2' is not 'SAM'."""
    text = paper.text
    for entity in list(paper.entities.values()):
        if entity.entity_type not in ("model", "method", "dataset"):
            continue
        versioned_type = "dataset" if entity.entity_type == "dataset" else "model"
        for start, end in list(entity.spans):
            base = text[start:end]
            versioned = _TRAILING_VERSION.search(base)
            sibling = _OTHER_VERSION.match(text, end)
            if versioned and sibling:  # 'AlphaFold 2' written as 'AlphaFold 2/3'
                stem = base[: versioned.start()]
                paper.add(
                    f"{stem}{sibling.group(1)}", versioned_type, (start, sibling.end()), known=entity.known
                )
                continue
            size = _SPACED_SIZE.match(text, end) if entity.entity_type == "model" else None
            if size is not None and not _SIZE_TAG.search(base):
                # 'Qwen2.5 32B' is one released model, as 'Qwen2.5-32B' would be.
                paper.add(f"{base} {size.group(1)}", "model", (start, size.end()), known=entity.known)
                continue
            m = _VERSION.match(text, end)
            if m is None or len(m.group(1).lstrip("VRv")) > 3:
                continue  # 'CLIP 2' and 'Claude v1.0' are versions, 'STOC 2019' a year
            if " " in entity.name and "." not in m.group(1) and not m.group(1)[0].isalpha():
                continue  # 'Stable Diffusion 2.1' is a version, 'Gaussian Process 2' rarely
            for version in (m.group(1), m.group(2)):
                if version:
                    paper.add(f"{base} {version}", versioned_type, (start, m.end()), known=entity.known)


# A released model's tier after its name or version: 'Claude v3 Opus', 'Stable Diffusion XL'.
_TIER_AFTER = re.compile(
    r" (Opus|Sonnet|Haiku|Pro|Ultra|Instruct|Chat|Turbo|XL|XXL|Large|Small|Base|Huge|Mini|Flash|Nano)"
    r"(?![\w-])(?! (?:language|vision|multimodal|models?|scale)\b)"  # not 'GPT-4 Large language models'
)


def _add_tiers(paper: _Paper) -> None:
    text = paper.text
    for entity in list(paper.entities.values()):
        if entity.entity_type != "model":
            continue
        for start, end in list(entity.spans):
            tier = _TIER_AFTER.match(text, end)
            if tier is not None:
                name = f"{text[start:end]} {tier.group(1)}"
                paper.add(name, "model", (start, tier.end()), known=entity.known)


# A capitalised word right before a lexicon name, after a lower-case word or a comma: 'train
# Wide ResNet models', 'known as Infinitesimal Jackknife', 'a Linearized ADMM method'.
_MODIFIER_BEFORE = re.compile(r"(?:[a-z]|[a-z],) ([A-Z][a-z]{2,}(?:-[a-z]+)?) $")
# Capitalised for emphasis, not part of a name: 'the Vanilla Transformer'.
_GENERIC_MODIFIERS = frozenset(
    ["vanilla", "standard", "original", "classical", "classic", "conventional", "plain", "typical", "popular"]
)


def _add_modified_names(paper: _Paper, cues: cue.Cues) -> None:
    """A capitalised modifier mid-sentence makes a lexicon method a variant with a name of its own,
    not the plain one. Not a model ('DeepMind Chinchilla' is Chinchilla), nor a plural ('Graph
    Transformers' is a family); the variant is as well known as the method."""
    text = paper.text
    for entity in list(paper.entities.values()):
        if not entity.known or entity.entity_type != "method":
            continue
        for start, end in sorted(entity.spans):
            m = _MODIFIER_BEFORE.search(text, max(0, start - 30), start)
            if m is None or text[end - 1] == "s":
                continue
            word = m.group(1)
            if (
                word.lower() in FUNCTION_WORDS
                or word.lower() in INTRO_FILLERS
                or word.lower() in _GENERIC_MODIFIERS
                or paper.lexicon.lookup(word) is not None
                or paper.is_topic(word)
            ):
                continue
            if paper.make_room(m.start(1), end):
                # As well known as the method, unless a naming slot introduces it: 'the proposed
                # Spike-driven Transformer'.
                introduced = cue.after_naming_slot(cues, text, m.start(1))
                paper.add(f"{word} {text[start:end]}", "method", (m.start(1), end), known=not introduced)


# 'Lloyd's algorithm', 'the PC algorithm': the algorithm is called by the name before it (but
# 'the TD7 algorithm' and 'the FairQCM algorithm' are TD7 and FairQCM, coined names).
_ALGORITHM_AFTER = re.compile(r"(?:'s|’s)? algorithm\b")


def _add_named_algorithms(paper: _Paper, cues: cue.Cues) -> None:
    text = paper.text
    if " algorithm" not in text:
        return
    for key, entity in list(paper.entities.items()):
        if any(cue.in_window(cues, start) for start, _ in entity.spans):
            continue  # 'We propose the ALH algorithm' names ALH
        if entity.expansion or entity.entity_type != "method" or not entity.name.replace("-", "").isalpha():
            continue
        if _COINED.search(entity.name) or "-" in entity.name:
            continue  # 'the FairQCM algorithm' and 'the FC-SE algorithm' are FairQCM and FC-SE
        if paper.lexicon.lookup(entity.name) is not None:
            continue  # 'the Adam algorithm' is Adam
        spans = sorted(entity.spans)
        extended = [
            (start, m.end() if m else end, m)
            for start, end in spans
            for m in [_ALGORITHM_AFTER.match(text, end)]
        ]
        named = [m for _, _, m in extended if m]
        others = paper.covered - entity.spans
        if not named or any(s < end and start < e for start, end, _ in extended for s, e in others):
            continue  # the longer name would cross another entity: nothing changes
        del paper.entities[key]
        paper.covered -= entity.spans
        for start, end, _ in extended:
            paper.add(f"{entity.name}{named[0].group()}", "method", (start, end))


# A name after an article names the thing after it: 'the Ising model', 'the Kullback-Leibler
# distance', 'the Wizard of Oz technique'. Only one word or a hyphenated pair of names, and not
# an adjective made from a name ('a Bayesian approach', 'the Riemannian metric'): those are kinds.
_NAME_THEN_HEAD = re.compile(
    r"(?:the|an?) ([A-Z][a-z]+(?:[-–][A-Z][a-z]+| of [A-Z][a-z]+)?) ("
    + "|".join(sorted(NAMED_HEADS, key=len, reverse=True))
    + r")\b"
)
_ADJECTIVE_ENDING = re.compile(r"(?:ian|ean|ic|al|ive)$")


def _add_named_heads(paper: _Paper) -> None:
    text = paper.text
    for m in _NAME_THEN_HEAD.finditer(text):
        if m.start() and text[m.start() - 1].isalnum():
            continue  # 'bathe', 'Sofia': the article is a word's end (checked here: a \b costs more)
        name, head = m.groups()
        start, end = m.start(1), m.end()
        if _ADJECTIVE_ENDING.search(name) or name.split()[0].split("-")[0].lower() in FUNCTION_WORDS:
            continue
        known = paper.lexicon.lookup(name)
        if (known and known.kind != "topic") or paper.key(name) in paper.form_keys or paper.is_topic(name):
            continue  # 'the Transformer model' is the Transformer; 'the Kullback-Leibler distance' a name
        if name in paper.lexicon.languages or any(s < end and start < e for s, e in paper.covered):
            continue
        paper.add(text[start:end], "metric" if head in METRIC_HEADS else "method", (start, end))


# Natural languages as the material a paper works on: a pair 'English-German', a language's data
# 'Japanese text', 'English and Czech newspaper texts', and a language after a preposition, 'a
# parser for German', 'translated from English to Japanese'.
_PLAIN_WORD = re.compile(r"\b[A-Z][a-z]+\b")
_LANGUAGE_PAIR = re.compile(r"[-–/]|-to-")
_LOWER_WORDS_AFTER = re.compile(r"(?: [a-z][a-z-]*\b){1,4}")
_PREPOSITION_BEFORE = re.compile(r"\b(?:in|for|from|to|into|between|both) $")
_BARE_LANGUAGE_AFTER = re.compile(
    r"[.,;:)]|$| (?:and|or|to|is|are|was|were|which|that|with|using|by|as|than|but|only)\b"
)


def _language_data_end(text: str, end: int) -> int | None:
    """Where the data noun after a language ends ('Japanese text', 'French broadcast news
    transcriptions'), if one follows within four lower-case words and before a function word."""
    words = _LOWER_WORDS_AFTER.match(text, end)
    data_end, position = None, end
    for word in words.group().split(" ")[1:] if words else ():
        position += 1 + len(word)
        if word in FUNCTION_WORDS:
            break
        if word in LANGUAGE_DATA_HEADS:
            data_end = position
    return data_end


def _add_languages(paper: _Paper) -> None:
    text = paper.text
    found = [m for m in _PLAIN_WORD.finditer(text) if m.group() in paper.lexicon.languages]
    spans: dict[int, tuple[int, int]] = {}  # index of a language in `found` -> its entity's span
    index = 0
    while index < len(found):
        start, end = found[index].span()
        pair = found[index + 1] if index + 1 < len(found) else None
        data = _language_data_end(text, end)
        if pair is not None and _LANGUAGE_PAIR.fullmatch(text, end, pair.start()):
            spans[index] = (start, pair.end())
            index += 1
        elif data is not None:
            spans[index] = (start, data)
        elif _PREPOSITION_BEFORE.search(text, max(0, start - 10), start) and _BARE_LANGUAGE_AFTER.match(
            text, end
        ):
            spans[index] = (start, end)
        index += 1
    # A language listed with one of those is one too: 'from Chinese, Arabic, and English corpora'
    # (backwards), 'in English and Japanese' (forwards).
    for step, order in ((1, range(len(found) - 2, -1, -1)), (-1, range(1, len(found)))):
        for index in order:
            left, right = sorted((found[index], found[index + step]), key=lambda m: m.start())
            if (
                index not in spans
                and index + step in spans
                and _LIST_JOIN.fullmatch(text, left.end(), right.start())
            ):
                spans[index] = found[index].span()
    for start, end in sorted(spans.values()):
        if paper.make_room(start, end):
            paper.add(text[start:end], "dataset", (start, end), known=True)


# A hyphenated word ending like this is an adjective, whatever its capitals: 'Long-CoT-based'.
_ADJECTIVE_SUFFIXES = (
    r"-(?:based|driven|aware|guided|free|style|like|specific|level|scale|wise|centric|oriented|agnostic|"
    r"conditioned|only|friendly|enhanced|augmented|powered|inspired)\b"
)
_ADJECTIVE_SUFFIX = re.compile(_ADJECTIVE_SUFFIXES + "$")
_ADJECTIVE_SUFFIX_AFTER = re.compile(_ADJECTIVE_SUFFIXES)


def _add_context(paper: _Paper, cue_hits: list[Hit]) -> None:
    text = paper.text
    for hit in cue_hits:
        if hit.entry.kind == "cue:example":
            _add_examples(paper, hit)
        if hit.entry.kind != "cue:head":
            continue
        m = _NAME_BEFORE.search(text, max(0, hit.start - 60), hit.start)
        if m is None:
            continue
        words = m.group(1).split()
        while words and (words[0].lower() in FUNCTION_WORDS or words[0].lower() in INTRO_FILLERS):
            words.pop(0)
        if not words or paper.is_topic(words[-1]):
            continue
        name = " ".join(words)
        start = m.start(1) + m.group(1).index(name)
        if len(name) < 2 or (
            len(words) == 1 and not _is_name_shape(name) and _at_sentence_start(text, start)
        ):
            continue
        if words[-1].lower() in METHOD_HEADS or words[-1].lower() in TOPIC_HEADS:
            continue
        if _ADJECTIVE_SUFFIX.search(name):
            continue  # 'a large-scale Long-CoT-based dataset' describes the dataset
        entry = paper.lexicon.lookup(name)
        if entry is not None and entry.kind in ("topic", "non_entity"):
            continue
        canonical, entity_type = (entry.name, entry.kind) if entry is not None else (name, "dataset")
        paper.add(canonical, entity_type, (start, start + len(name)), known=entry is not None)
    if "ecall" in text:
        for m in _PRECISION_RECALL.finditer(text):  # 'precision and recall': both are measures here
            for group in (1, 2):
                paper.add(m.group(group).lower(), "metric", m.span(group), known=True)
    for m in _OF_VALUE.finditer(text):
        _add_measured_quantity(paper, m)
    if "%" in text:
        _add_gain_measures(paper)
    for m in _MEASURED_IN.finditer(text):
        for item in _MEASURE_ITEM.finditer(m.group(1)):
            if len(item.group().split()) <= 3:
                _add_metric_phrase(paper, item.group(), m.start(1) + item.start(), m)
    if " (" in text:
        for m in _PARENTHESIS_LIST.finditer(text):
            word = _LAST_WORD.search(text, max(0, m.start() - 14), m.start())
            if word is not None and word.group() in _PARENTHESIS_KINDS:
                _type_list(paper, word.group(), m.end())
    for m in _ON_LIST.finditer(text):
        if _EVALUATION_BEFORE_ON.search(text, max(0, m.start() - 14), m.start()):
            _add_evaluation_list(paper, m.end())


def _add_examples(paper: _Paper, hit: Hit) -> None:
    """'benchmarks such as Infoseek and OK-VQA', 'baselines (e.g., PPO, SAC)': the examples listed
    after a kind noun are things of that kind."""
    text = paper.text
    kind = _KIND_BEFORE.search(text, max(0, hit.start - 40), hit.start)
    skip = _AFTER_EXAMPLE_CUE.match(text, hit.end)
    if kind is not None and skip is not None:
        _type_list(paper, kind.group(1), skip.end())


_OWNER_BEFORE_NAME = re.compile(r"[A-Z][\w-]*['’]s ")


def _type_list(paper: _Paper, kind_noun: str, position: int) -> None:
    """The names listed from position are things of the kind the kind noun says."""
    text = paper.text
    entity_type = _KIND_TYPES[kind_noun.lower().removesuffix("s")]
    for item in _list_items(text, position):
        owner = _OWNER_BEFORE_NAME.match(text, item[0], item[1])
        if owner is not None:
            item = (owner.end(), item[1])  # 'OpenAI’s GPT-4' is GPT-4
        name = _listed_name(paper, item)
        if name is None:
            continue
        existing = paper.entities.get(paper.key(name))
        if existing is not None:
            if not existing.known and entity_type == "dataset":
                existing.entity_type = entity_type  # context beats shape
            continue
        entry = paper.lexicon.lookup(name)
        paper.add(name, entry.kind if entry else entity_type, item, known=True)


def _listed_name(paper: _Paper, item: tuple[int, int], modifiers: bool = True) -> str | None:
    """The list item's text when it can be a name: not a modifier (unless modifiers is False), a
    unit, a topic or a function word."""
    text = paper.text
    name = text[item[0] : item[1]]
    if modifiers and _plain_capitalised(name) and _LOWER_WORD_NEXT.match(text, item[1]):
        return None  # 'e.g., Gaussian mixture models': a modifier, not a name
    if sum(c.isalpha() for c in name) < 2 or _UNIT.fullmatch(name):
        return None  # '3D', '10K'
    entry = paper.lexicon.lookup(name)
    if entry is not None and entry.kind in ("topic", "non_entity"):
        return None
    if paper.is_topic(name) or name.lower() in FUNCTION_WORDS:
        return None
    return name


def _add_evaluation_list(paper: _Paper, position: int) -> None:
    """'results on Atari and Minecraft': in a list that follows an evaluation phrase and holds a
    known dataset, the other names are datasets too ('Minecraft show' ends the list, so a plain
    word followed by a lower-case one is not read as a modifier here)."""
    text = paper.text
    items = [
        (item, name) for item in _list_items(text, position) if (name := _listed_name(paper, item, False))
    ]
    entities = [paper.entities.get(paper.key(name)) for _, name in items]
    if len(items) < 2 or not any(e is not None and e.known and e.entity_type == "dataset" for e in entities):
        return
    for (item, name), entity in zip(items, entities, strict=True):
        if entity is None:
            paper.add(name, "dataset", item)
        elif not entity.known and entity.entity_type == "method" and not entity.expansion:
            entity.entity_type = "dataset"


# 'as measured by Bayes risk', 'evaluated in terms of success rate and data efficiency'.
_MEASURED_IN = re.compile(
    r"\b(?:measured|evaluated|quantified|assessed) (?:by|with|via|in terms of) (?:the )?"
    r"([\w-]+(?:(?: |, | and |, and )[\w-]+){0,5})(?=[),.;:]|$)"
)
_MEASURE_ITEM = re.compile(r"[\w-]+(?: (?!and\b)[\w-]+)*")


def _add_measured_quantity(paper: _Paper, value: re.Match[str]) -> None:
    """'achieving a semantic IoU of 82.4': the quantity a value is given for is a metric."""
    text = paper.text
    before = _QUANTITY_BEFORE.search(text, max(0, value.start() - 50), value.start())
    if before is None:
        return
    _add_metric_phrase(paper, before.group(1), before.start(1), value)


def _add_metric_phrase(paper: _Paper, phrase: str, phrase_start: int, value: re.Match[str]) -> None:
    """The metric a phrase ending in a metric head word names, if it does."""
    text = paper.text
    words = phrase.split()
    while words and (words[0].lower() in FUNCTION_WORDS or words[0].lower() in _METRIC_FILLERS):
        words.pop(0)
    if not words:
        return
    head = words[-1].lower()
    if head not in METRIC_HEADS:
        return
    if head in WEAK_METRIC_HEADS and (len(words) == 1 or words[0].islower()) and head not in _RATE_HEADS:
        return  # 'an approximation error of', but 'a Nash imitation gap of', 'a win rate of'
    if head in _RATE_HEADS and len(words) == 1:
        return
    if (
        head in ("rate", "rates")
        and words[-2].lower() not in _RATE_KINDS
        and not _PERCENT.match(text, value.end())
    ):
        return  # 'a convergence rate of O(1/T)', but 'a recovery rate of 57.8%'
    name = " ".join(words)
    start = phrase_start + phrase.index(name)
    paper.add(name, "metric", (start, start + len(name)))


def _add_gain_measures(paper: _Paper) -> None:
    """'a gain of 19.0% and 22.8% in next word prediction accuracy': the quantity a percentage
    gain is stated in is a metric. The phrase ends at the first word that is not lower case."""
    text = paper.text
    for m in _GAIN_IN.finditer(text):
        words = []
        for word in m.group(1).split():
            if not (word.islower() and word.replace("-", "").isalpha()) or word in FUNCTION_WORDS:
                break
            words.append(word)
        while words and words[-1] not in METRIC_HEADS:
            words.pop()
        if words:
            _add_metric_phrase(paper, " ".join(words), m.start(1), m)


def _list_items(text: str, position: int) -> list[tuple[int, int]]:
    """The capitalised items of a list starting at position: 'X, Y, and Z', 'X and Y'."""
    items = []
    while True:
        item = _LIST_ITEM.match(text, position)
        if item is None:
            break
        start, end = _strip_token(text, item.start(), item.end())
        if end > start:
            items.append((start, end))
        joint = _LIST_JOIN.match(text, item.end())
        if joint is None or len(items) >= 8:
            break
        position = joint.end()
    return items


def _at_sentence_start(text: str, start: int) -> bool:
    return start == 0 or _SENTENCE_OPENING.search(text, max(0, start - 4), start) is not None


def _add_introduced_names(paper: _Paper, cues: cue.Cues) -> None:
    """Title-Case names that only a proposal clause marks as names: 'We introduce Expert Merging,'.
    After the verb, fillers ('a novel', 'two new') are skipped; a list of names is followed."""
    text = paper.text
    for window_start, window_end in cues.windows:
        if _introduce_from(paper, window_start, window_start, window_end):
            continue
        # 'we propose three regularisation techniques: Attention Masking, ... and Bind Adjective',
        # 'a simple efficient policy optimization framework—Optimistic NPG for online RL'.
        opening = _LIST_OPENING.search(text, window_start, min(window_end, window_start + 100))
        if opening is not None:
            _introduce_from(paper, window_start, opening.end(), window_end)


_LIST_OPENING = re.compile(r"(?::|—|–)\s*")
# In a list, 'and' joins two names: 'two new algorithms: RW-AdaBatch and RW-Meta'.
_LISTED_TITLE_RUN = re.compile(_TITLE_RUN.pattern.replace("and|&|", ""))
_NAME_LOWER_HEAD = re.compile(r"([A-Z][a-z]{2,}) ([a-z]+)\b")
_HEAD_NOUNS = METHOD_HEADS | NAMED_HEADS


def _introduce_from(paper: _Paper, window_start: int, position: int, window_end: int) -> bool:
    """Add the names of a proposal window from position on; whether there was a name to read."""
    text = paper.text
    read = False
    while position < window_end:
        run = None
        cursor = position
        while cursor < window_end:
            word = _NEXT_WORD.match(text, cursor, window_end)
            if word is None:
                break
            if word.group(1).lower() in INTRO_FILLERS or word.group(1).isdigit():
                cursor = word.end()
                continue
            title_run = _LISTED_TITLE_RUN if position > window_start else _TITLE_RUN
            run = title_run.match(text, word.start(1), window_end) or _LOWER_NAME.match(text, word.start(1))
            named_head = _NAME_LOWER_HEAD.match(text, word.start(1), window_end)
            if (
                named_head is not None
                and cursor > position
                and named_head[2] in _HEAD_NOUNS
                and not _ADJECTIVE_ENDING.search(named_head[1])
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
            or _ENDS_NOUN_PHRASE.match(text, run.end()) is not None
            or _claimed_elsewhere(text, name, run.end())
        )
        if len(words) == 1 and _plain_capitalised(name) and _at_sentence_start(text, run.start()):
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
                entity_type = _introduced_type(text, window_start, run.start(), run_end)
                entity = paper.add(name, entity_type, (run.start(), run_end))
                if entity is not None:
                    entity.proposed = True
            elif not overlaps and known.kind in _ENTITY_KINDS:
                # 'we introduce TÜLU 3': a released family's new version; the roles decide.
                canonical = name if known.kind == "model" else known.name
                paper.add(
                    canonical, known.kind, (run.start(), run_end), expansion=known.expansion, known=True
                )
        tail = _LIST_JOIN.match(text, run.end(), window_end)
        if tail is None:
            break
        position = tail.end()
    return read


_PASSIVE_PROPOSAL_AFTER = re.compile(
    r" (?:is|are) (?:\w+ly )?(?:proposed|introduced|designed|developed|presented|devised|constructed)\b"
)


def _add_introduced_phrases(paper: _Paper, cues: cue.Cues) -> None:
    """'we propose “Levels of AGI”', 'we introduce hierarchical randomized smoothing:': a quoted
    name, or lower-case words that extend a known method, right after a proposal verb."""
    text = paper.text
    for window_start, window_end in cues.windows:
        cursor = window_start
        while (word := _NEXT_WORD.match(text, cursor, window_end)) is not None and (
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
        entity = paper.add(name, _introduced_type(text, window_start, start, end), (start, end))
        if entity is not None:
            entity.proposed = True


def _extends_known_method(lexicon: Lexicon, phrase: str) -> bool:
    """'hierarchical randomized smoothing': modifiers, then a method the lexicon knows."""
    hits, _ = lexicon.find(phrase)
    return (
        bool(hits) and hits[-1].end == len(phrase) and hits[-1].start > 0 and hits[-1].entry.kind == "method"
    )


_QUOTED_NAME = re.compile(r"\s*[“\"‘]((?:[^”\"’\s]+ ?){1,6})[”\"’]")
# Not before '(': 'a superior supervised fine-tuning (SFT) dataset' goes on to name another kind.
_LOWER_PHRASE = re.compile(r"\s*([a-z][\w-]*(?: [a-z][\w-]*){1,4})(?=\s*[:,.;])")


# 'we present Transolver based on', 'a new Physics-Attention to split': a word that closes the noun
# phrase, so the capitalised word before it is the object itself, not a modifier of a noun.
_ENDS_NOUN_PHRASE = re.compile(r" (?:based|that|which|to|for|with|as|via|by|inspired|designed|built)\b")


def _later_ends(text: str, name: str, after: int) -> Iterator[int]:
    """Where name, written as a whole word after position after, ends."""
    position = text.find(name, after)
    while position != -1:
        end = position + len(name)
        if on_word_boundaries(text, position, end):
            yield end
        position = text.find(name, end)


def _written_again(text: str, name: str, after: int) -> bool:
    return any(True for _ in _later_ends(text, name, after))


def _claimed_elsewhere(text: str, name: str, after: int) -> bool:
    """'... Transolver achieves state-of-the-art': the word is the subject of a claim later on."""
    return any(_CLAIM_AFTER.match(text, end) for end in _later_ends(text, name, after))


def _add_renamed_kinds(paper: _Paper, cues: cue.Cues) -> None:
    """'we propose a novel mode of textual attack, punctuation-level attack.': in a proposal
    clause, a lower-case phrase apposed to a new kind of thing and ending in the same noun names it."""
    text = paper.text
    for window_start, window_end in cues.windows:
        for m in _RENAMED_KIND.finditer(text, window_start, min(len(text), window_end + 80)):
            start, end = m.span("name")
            if m.start() >= window_end or (start, end) in paper.covered or paper.is_topic(m.group("name")):
                continue
            entity = paper.add(m.group("name"), "method", (start, end))
            if entity is not None:
                entity.proposed = True


_RENAMED_KIND = re.compile(
    r"\b(?:a|an) (?:novel|new) (?:[\w-]+ ){0,4}?(?P<head>[a-z]{3,}), "
    r"(?P<name>(?:[\w-]+ ){0,3}(?P=head))(?=[.;,:]|\s\()"
)


def _add_apposed_names(paper: _Paper) -> None:
    """'the basis of Caduceus, the first family of ... models': a capitalised word set off by a
    'novel', 'new' or 'first' apposition is a name the paper gives."""
    text = paper.text
    for m in _NOVEL_APPOSITION.finditer(text):
        word = _WORD_BEFORE.search(text, max(0, m.start() - 40), m.start())
        if word is None or _at_sentence_start(text, word.start()):
            continue
        name = word.group()
        inside_a_name = any(s < word.end() and word.start() < e for s, e in paper.covered)
        if inside_a_name or name.lower() in FUNCTION_WORDS:
            continue  # 'Fluid Benchmarking, a new ...' is already the name, not 'Benchmarking'
        if paper.lexicon.lookup(name) is not None or paper.is_topic(name):
            continue
        entity = paper.add(name, _introduced_type(text, word.start(), word.start(), word.end()), word.span())
        if entity is not None:
            entity.proposed = True


_NOVEL_APPOSITION = re.compile(r", (?:a|an|the) (?:[\w-]+ ){0,2}?(?:novel|new|first)\b")
_WORD_BEFORE = re.compile(r"\b[A-Z][a-z]+[a-z0-9]*$")


def _add_named_by_slots(paper: _Paper, cues: cue.Cues, cue_hits: list[Hit]) -> None:
    """'a group fairness metric called Coreference Confidence Disparity': the Title-Case name
    after 'called', 'named', 'dubbed', 'termed' or 'coined' is the paper's."""
    text = paper.text
    for hit in cue_hits:
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
        run = _TITLE_RUN.match(text, name_start) or _DIGIT_TITLE_RUN.match(text, name_start)
        participle = _is_participle(hit)
        if (run is None or _plain_capitalised(run.group())) and article:
            # 'a test that we call the Poisson binomial test.', 'a data structure called an online
            # coreset, which': capitalised, or named after the kind of thing it is.
            phrase = _SLOT_PHRASE.match(text, name_start)
            if phrase is not None and (
                phrase.group()[0].isupper() or _KIND_NOUN.search(text, max(0, hit.start - 40), hit.start)
            ):
                run = phrase
        if (run is None or _plain_capitalised(run.group())) and not article:
            # 'We propose a ... principle called Lovász principle, which', 'a framework for DP-SGD
            # referred to as pro-active DP.': in the authors' voice, a short phrase the slot closes.
            phrase = _NAMED_PHRASE.match(text, name_start)
            sentence_start, _ = cue.sentence_of(cues, text, hit.start)
            if (
                phrase is not None
                and not any(w.lower() in FUNCTION_WORDS for w in phrase.group().split()[1:])
                and _VOICE.search(text, sentence_start, hit.start)
            ):
                run = phrase
        shaped = _SHAPED_LOWER_WORD.match(text, name_start) if run is None else None
        if shaped is not None and _is_name_shape(shaped[0]):
            run = shaped  # 'a white-box attack method named sparse-PGD to generate them'
        if run is None and (
            (participle and _KIND_NOUN.search(text, max(0, hit.start - 40), hit.start))
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
            and not _is_name_shape(name)
            and text[run.end() : run.end() + 1] not in ",(.;:"
            and not (_ENDS_NOUN_PHRASE.match(text, run.end()) and _written_again(text, name, run.end()))
        ):
            continue  # 'the framework named Ditto to enable ... of Ditto' names it; 'called Fisher' alone not
        sentence_start, _ = cue.sentence_of(cues, text, hit.start)
        for start, end in _coordinated_names(run.start(), name):
            entity_type = _introduced_type(text, sentence_start, hit.start, end)
            entity = paper.add(text[start:end], entity_type, (start, end))
            if entity is not None:
                entity.proposed = True


def _coordinated_names(start: int, name: str) -> list[tuple[int, int]]:
    """'called AdaSPS and AdaSLS' names two things; 'named Tilt and Average' one."""
    parts, offset = [], start
    for piece in _COORDINATION.split(name):
        if not _COORDINATION.fullmatch(piece):
            parts.append((offset, offset + len(piece)))
        offset += len(piece)
    if len(parts) > 1 and all(_is_name_shape(name[s - start : e - start]) for s, e in parts):
        return parts
    return [(start, start + len(name))]


_COORDINATION = re.compile(r"(,?\s+and\s+|,\s+)")
_NAMING_VERBS = frozenset(("call", "name", "dubb", "dub", "term", "coin", "code", "refe", "deno"))
_LOWER_SLOT_NAME = re.compile(r"[a-z][\w-]*(?: [a-z][\w-]*){0,2}(?=[,;(]|\.\s|\.$)")
_WHAT_WE_CALL = re.compile(r"\b(?:what|which|that) we $")


_SHAPED_LOWER_WORD = re.compile(r"[a-z][\w-]*[A-Z][\w+-]*(?<![-])")
_NAMED_PHRASE = re.compile(r"[A-Za-z][\w-]*(?: [\w-]+){1,3}?(?=[,;(]|\.\s|\.$| which\b| that\b)")


def _is_participle(hit: Hit) -> bool:
    return hit.entry.name.endswith("ed")


# 'We name the method X', 'we call our framework X': the kind of thing, then its name.
_SLOT_KIND = re.compile(r"(?:the|this|our) (?:[\w-]+ )?" + _KIND_GROUPS + r" (?=[A-Z0-9])")
# 'a new objective named 3D Cloze Test': a title-case name opening with a count of dimensions.
_DIGIT_TITLE_RUN = re.compile(r"\d[A-Z][\w-]*(?: [A-Z][\w'’+-]*)+")
_SLOT_ARTICLE = re.compile(r"(?:the|an?) (?=\S)")
# A name of up to four words after 'call the', closed by punctuation: 'Poisson binomial test.'
_SLOT_PHRASE = re.compile(r"[A-Za-z][\w-]*(?: [a-z][\w-]*){1,3}(?=[,;(]|\.\s|\.$| which\b)")
# 'a reinforcement learning based algorithm Trustworthy-Alignment': a name right after a kind noun.
# 'a new model merging algorithm, CCA Merge, which', 'a new inference method—the Simformer—which'.
_NAME_AFTER_KIND = re.compile(
    r"\b(?:algorithm|method|framework|model|approach|system|benchmark|dataset|architecture|pipeline|module|"
    r"technique|strategy|agent|metric|network|tool|library|suite|paradigm)(?:,? |—(?:the )?)"
    r"([A-Z][\w+-]*[A-Za-z0-9+](?: [A-Z][\w+-]*[A-Za-z0-9+]){0,3})"
)


def _add_named_after_kind(paper: _Paper, cues: cue.Cues) -> None:
    """In a proposal clause, a capitalised name written right after the kind of thing it is."""
    text = paper.text
    for window_start, window_end in cues.windows:
        for m in _NAME_AFTER_KIND.finditer(text, window_start, window_end):
            name = m.group(1)
            start, end = m.span(1)
            closing = text[end : end + 1]
            # Several title-case words are one name only when set off: 'CCA Merge, which'.
            if " " in name and (closing not in ",(—" or not paper.make_room(start, end)):
                name, end = name.split()[0], start + len(name.split()[0])
                closing = text[end : end + 1]
            if (start, end) in paper.covered or name.lower() in FUNCTION_WORDS or paper.lexicon.lookup(name):
                continue
            if paper.is_topic(name) or (_plain_capitalised(name) and closing not in ",(.;:—"):
                continue
            entity = paper.add(name, _introduced_type(text, window_start, start, end), (start, end))
            if entity is not None:
                entity.proposed = True
        for m in _LOWER_NAME_AFTER_NEW_KIND.finditer(text, window_start, window_end):
            # 'we propose a novel framework, selfmem, which': a coined word set off after a new kind.
            start, end = m.span(1)
            if m[1] in FUNCTION_WORDS or paper.lexicon.lookup(m[1]) is not None:
                continue
            if not any(s < end and start < e for s, e in paper.covered):
                entity = paper.add(m[1], _introduced_type(text, window_start, start, end), (start, end))
                if entity is not None:
                    entity.proposed = True


_LOWER_NAME_AFTER_NEW_KIND = re.compile(
    r"\b(?:novel|new) (?:[\w-]+ ){0,4}?(?:algorithm|method|framework|model|approach|system|benchmark|dataset|"
    r"architecture|pipeline|module|technique|library|toolkit|tool), ([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?=, )"
)


def _add_own_named_kinds(paper: _Paper) -> None:
    """'our Wasserstein gradient descent algorithm': a name opened by a capital between 'our' and the
    kind of thing it is belongs to the paper, even where no proposal verb stands."""
    text = paper.text
    for m in _OUR_NAMED_KIND.finditer(text):
        start, end = m.span(1)
        name = m.group(1)
        words = name.split()
        if len(words) < 2 and not _is_name_shape(name):
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
            entity.proposed = True


# Middle words are not verbs or plurals: 'our HI-Diff outperforms state-of-the-art methods'.
_OUR_NAMED_KIND = re.compile(
    r"\b[Oo]ur (?:new |novel |proposed )?([A-Z][\w-]*(?: (?![a-z]+s\b)[a-z][\w-]*){0,3}) "
    r"(?:algorithm|method|framework|approach|estimator|procedure|technique|sampler|solver|scheme)s?\b"
)


# 'an Augmented Transition Network as a dialog model': Title-Case words ending in a method head.
_TITLED_PHRASE = re.compile(r"\b[A-Z][a-z]+(?:[ -](?:of |for |with |and |the )?[A-Z][a-z]+)+\b")


_TITLE_OPENERS = frozenset(
    ["the", "a", "an", "for", "while", "in", "with", "using", "our", "this", "unlike", "like"]
)
_LONGER_NAME_BEFORE = re.compile(
    r"[A-Z][a-z]+ (?:based|driven|guided|aware|augmented|enhanced|with|of|for) $|[A-Z][\w-]*[A-Z][\w-]* $"
)


def _add_titled_methods(paper: _Paper) -> None:
    """A phrase of capitalised words whose last word is a method head names a method, wherever it
    stands; at the start of a sentence it needs three words, as a capital there says nothing."""
    text = paper.text
    # The phrases do not overlap one another, so the spans this rule adds never cross a later one:
    # the spans covered before it are all a phrase needs to be checked against.
    covered = _SpanIndex(paper.covered)
    new_method: dict[str, bool] = {}  # by phrase: a phrase repeated is looked up once
    for m in _TITLED_PHRASE.finditer(text):
        start, name = m.start(), m.group()
        while " " in name and name.split(" ", 1)[0].lower() in _TITLE_OPENERS:
            opener = name.split(" ", 1)[0]
            start, name = start + len(opener) + 1, name[len(opener) + 1 :]
        words = name.split()
        if len(words) < 2 or words[-1].lower() not in METHOD_HEADS:
            continue
        if len(words) < 3 and _at_sentence_start(text, start):
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


def _add_enumerated_contributions(paper: _Paper, cues: cue.Cues) -> None:
    """A name heading an item of a list after the paper says what it contributes or proposes
    ('we propose a new method with two novel ideas: (1) Localized Patch Importance Scoring: we')
    is one of its own."""
    text = paper.text
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
        if len(name.split()) == 1 and not _is_name_shape(name):
            continue  # '1) Efficiency: ...' heads an item without naming anything
        overlaps = [(s, e) for s, e in paper.covered if s < end and start < e]
        if overlaps and not ((start, end) in overlaps or paper.absorb(overlaps)):
            continue
        entity = paper.add(name, long_form_type(name, paper.lexicon) or "method", (start, end))
        if entity is not None:
            entity.proposed = True


def _introduced_type(text: str, window_start: int, start: int, end: int) -> str:
    """A name a proposal clause introduces is a dataset when the nearest kind noun around it says
    benchmark or dataset ('two benchmark tasks: A and B', 'X, a benchmark for ...')."""
    nouns = list(_KIND_NOUN.finditer(text, window_start, start))
    after = _KIND_NOUN.match(text, end + 1) or _APPOSITIVE_KIND.match(text, end)
    nearest = after or (nouns[-1] if nouns else None)
    if nearest is not None:
        return "dataset" if nearest.group(1) else "metric" if nearest.group(2) else "method"
    return "dataset" if _DATASET_SHAPE.search(text[start:end]) else "method"


_NOVEL_BEFORE = re.compile(r"\b(?:novel|new)\b")
_CALLED_BEFORE = re.compile(
    r"\b(?:called|named|dubbed|termed|coined|we call (?:it|this))\s+$"
    r"|\b[Tt]he (?:final|resulting) (?:[\w-]+ )?(?:result|model|system|agent|policy|method),\s+$"
)


def _opens_window(cues: cue.Cues, text: str, position: int) -> bool:
    """Whether position is the object of a proposal verb: at most three words after it."""
    return any(
        start <= position < end and len(text[start:position].split()) <= 3 for start, end in cues.windows
    )


def _assign_roles(paper: _Paper, cues: cue.Cues) -> None:
    text = paper.text
    for entity in paper.entities.values():
        if entity.known and not entity.proposed and entity.entity_type != "metric":
            # 'we propose a novel learning paradigm called RRHF': naming what the paper proposes makes
            # it the paper's, known or not; 'Adam is a framework called FTRL' names somebody's.
            first = min(entity.spans)[0]
            entity.proposed = (
                _CALLED_BEFORE.search(text, max(0, first - 30), first) is not None
                and (
                    cue.in_window(cues, first)
                    or _NOVEL_BEFORE.search(text, max(0, first - 60), first) is not None
                )
            ) or _introduced_and_defined(text, cues, min(entity.spans))
    for entity in paper.entities.values():
        if entity.known or entity.proposed:
            continue
        first, first_end = min(entity.spans)
        coined = _COINED_OR_SHAPED.search(entity.name) is not None
        if entity.entity_type == "metric":
            # 'introducing a Task Agnostic Correlations (TAC) metric', 'to build QUDsim, a similarity
            # metric': a measure the paper defines.
            # A measure spelled out in lower case is the paper's only as what it proposes ('We propose
            # the multi-marginal matching gap (M3G)'), not on the way ('to cause jailbreak success
            # rates (JSRs) to surge').
            spelled_out = entity.expansion is not None and (
                entity.expansion != entity.expansion.lower() or _opens_window(cues, text, first)
            )
            defined = spelled_out or (
                coined and text.startswith(",", first_end) and _APPOSITIVE_KIND.match(text, first_end)
            )
            entity.proposed = bool(defined) and cue.in_window(cues, first)
            continue
        if (
            cue.in_window(cues, first)
            or any(cue.after_naming_slot(cues, text, start) for start in _occurrences(text, entity))
            or any(cue.novel_apposition(text, end) for _, end in entity.spans)
            or (_COINED.search(entity.name) and cue.apposed_in_proposal(cues, text, first, first_end))
            or (coined and _apposed_to_what_the_authors_train(text, cues, first, first_end))
            or (coined and _THIS_WORK_OPENING.search(text, max(0, first - 40), first) is not None)
            or (coined and _AT_THE_CORE.search(text, max(0, first - 60), first) is not None)
            or (coined and _NOVEL_JUST_BEFORE.search(text, max(0, first - 30), first) is not None)
            or (
                (coined or "-" in entity.name)
                and _ONE_OF_THEM.search(text, max(0, first - 30), first) is not None
                and any(window_start < first for window_start, _ in cues.windows)
            )
            or (coined and text.count(entity.name) > 1 and _defined_as_a_kind(text, first_end))
        ):
            entity.proposed = True
    for entity in paper.entities.values():
        if entity.proposed and entity.entity_type in ("method", "model"):
            start, end = min(entity.spans)
            sentence_start, _ = cue.sentence_of(cues, text, start)
            if _introduced_type(text, max(sentence_start, start - 60), start, end) == "dataset":
                entity.entity_type = "dataset"
    _name_the_code_after(paper)
    _add_trained_models(paper)
    _propagate_to_variants(paper)
    _mark_prefix_variants(paper)
    _mark_siblings(paper)
    _mark_slash_partners(paper)
    _mark_parts_of_proposed(paper, cues)
    _mark_described_in_own_voice(paper, cues)
    if not any(e.proposed for e in paper.entities.values()):
        _salient_fallback(paper, cues)
    if not any(e.proposed for e in paper.entities.values()):
        _claim_fallback(paper, cues)
    if not any(e.proposed for e in paper.entities.values()):
        _subject_after_unnamed_proposal(paper, cues)
    for entity in paper.entities.values():
        if entity.proposed and _cited_as_others(paper, cues, entity):
            entity.proposed = False
        if entity.proposed and all(_ADJECTIVE_SUFFIX_AFTER.match(text, end) for _, end in entity.spans):
            entity.proposed = False  # only ever 'Long-CoT-based': what the paper's thing is based on
    for key, entity in list(paper.entities.items()):
        if not entity.proposed and _GREEK_PREFIXED.fullmatch(entity.name):
            del paper.entities[key]  # 'Δ-approximation', 'ε-greedy': math unless the paper names it


def _name_the_code_after(paper: _Paper) -> None:
    """'Our code is at github.com/mazumder-lab/OSSCAR': authors name their code's repository after
    what they propose, so a new name that is the repository's name is the paper's."""
    repositories = _repository_letters(paper)
    if not repositories:
        return
    for entity in paper.entities.values():
        if not entity.known and letters(entity.name) in repositories:
            entity.proposed = True


def _introduced_and_defined(text: str, cues: cue.Cues, span: tuple[int, int]) -> bool:
    """'In this paper, we introduce Lookahead decoding, an exact, parallel decoding algorithm': a
    known name that is the very object of a proposal verb and defined by an apposition is the
    paper's (it is where the name comes from); 'we introduce LoRA into ...' is not."""
    start, end = span
    spelled_out = _PARENTHESIS_AFTER.match(text, end)
    end = spelled_out.end() if spelled_out else end  # 'we introduce EAGLE (Extrapolation ...), a'
    if not any(
        window_start <= start < window_end and _VERB_OBJECT_GAP.fullmatch(text, window_start, start)
        for window_start, window_end in cues.windows
    ):
        return False
    # 'we propose Domain Reweighting with Minimax Optimization (DoReMi), which first trains': the
    # name spelled out with its acronym as the very object of the verb is where it comes from.
    return _DESCRIBED_KIND.match(text, end) is not None or (
        spelled_out is not None and _CLAUSE_AFTER_DEFINITION.match(text, end) is not None
    )


_PARENTHESIS_AFTER = re.compile(r" \([^()]{1,120}\)")
_CLAUSE_AFTER_DEFINITION = re.compile(r",\s+(?:which|that|a|an)\b|\.(?:\s|$)|\s+(?:which|that)\b")


# Between a proposal verb and its object: ' ', ' the ', ' a new '.
_VERB_OBJECT_GAP = re.compile(r"\s+(?:(?:the|a|an|new|novel)\s+)*")
# 'We leverage this dataset to train a CLIP-based scoring function, PickScore, which ...'.
_TRAINED_APPOSITION = re.compile(
    r"\b[Ww]e\b[^.;]{0,80}?\b(?:train|fine-tune|learn|distil)\w*\s+(?:a|an)\s+[^,;()]{1,60}, $"
)
# 'In this work, TaskNet ...': the name the paper opens its own contribution with.
_THIS_WORK_OPENING = re.compile(r"\b(?:[Ii]n|[Tt]hrough|[Ww]ith) this (?:work|paper|study),\s+(?:our\s+)?$")
# 'The latter uses a novel Task-wise Decorrelation (TwD) loss'.
_NOVEL_JUST_BEFORE = re.compile(r"\b(?:a|an|our|the) (?:\w+ )?(?:novel|new) $")
# 'we devise two algorithms. The former, F-UCB, is ... The latter, F-Track', 'One is GRL-SVO(UP)'.
_ONE_OF_THEM = re.compile(
    r"(?:\b[Tt]he (?:former|latter|first|second|third|other)(?: one)?(?:,| is)|\b[Oo]ne is) $"
)
# 'At its core is IMPACT, a transformer-based policy', 'At the core of Lucid-XR is Vuer'.
_AT_THE_CORE = re.compile(
    r"\b[Aa]t (?:its|the) (?:core|heart)(?: of [\w-]+)?,? (?:is|are|lies|lie) (?:an? |the )?$"
)
# 'TaskNet is a framework that ...', but not 'TaskNet is a popular framework'.
_IS_A_KIND = re.compile(r" is (?:a|an) ((?:[\w-]+,? ){0,4}?)" + _KIND_GROUPS)
_OTHERS_ADJECTIVES = re.compile(
    r"\b(?:existing|prior|previous|popular|recent|widely|standard|common|classic|classical|well-known|"
    r"known|state-of-the-art|established|leading|prominent|representative|traditional|conventional)\b"
)
# A name written as somebody else's: 'such as X', 'than X', 'existing X', 'X et al.', 'X [12]'.
_REFERENCE_BEFORE = re.compile(
    r"\b(?:such as|e\.g\.,?|compared (?:to|with)|than|over|against|versus|vs\.?|like|including|unlike|"
    r"(?:unlike )?(?:traditional|conventional|standard|classic|classical|vanilla|popular)|"
    r"existing|prior|previous|baselines?|state-of-the-art (?:methods?|models?|approaches|baselines?),?)"
    r"\s+(?:the\s+)?$"
)
_CITATION_AFTER = re.compile(r"\s*(?:et al\b|\[\d|\(\d{4}\)|\([A-Z][\w-]+ et al)")


def _apposed_to_what_the_authors_train(text: str, cues: cue.Cues, start: int, end: int) -> bool:
    sentence_start, _ = cue.sentence_of(cues, text, start)
    return (
        text[max(0, start - 2) : start] == ", "
        and cue.set_off(text, end)
        and _TRAINED_APPOSITION.search(text, max(sentence_start, start - 160), start) is not None
    )


def _defined_as_a_kind(text: str, end: int) -> bool:
    m = _IS_A_KIND.match(text, end)
    return m is not None and _OTHERS_ADJECTIVES.search(m.group(1)) is None


# 'Our development includes algorithms like TaskNet-E': examples of the authors' own.
_OWN_EXAMPLES = re.compile(
    r"^(?:[^.;]*\b(?:[Oo]ur|[Ww]e)\b)(?![^.;]*\b(?:than|compar\w+|existing|prior|previous|"
    r"baselines?|over|against|outperform\w*|surpass\w*)\b)"
)


def _cited_as_others(paper: _Paper, cues: cue.Cues, entity: _Entity) -> bool:
    """The name is first written as somebody else's work, and no naming slot gives it."""
    text = paper.text
    start, end = _first_occurrence(text, entity)
    if cue.after_naming_slot(cues, text, start):
        return False
    reference = _REFERENCE_BEFORE.search(text, max(0, start - 40), start)
    if reference is None:
        return _CITATION_AFTER.match(text, end) is not None
    sentence_start, _ = cue.sentence_of(cues, text, start)
    return _OWN_EXAMPLES.match(text[sentence_start : reference.end()]) is None


def _occurrences(text: str, entity: _Entity) -> set[int]:
    """Where any form of the entity is written as a whole word: 'the proposed TPPE' is one,
    though only its definition made a span."""
    starts = {start for start, _ in entity.spans}
    for form in entity.forms:
        position = text.find(form)
        while position != -1:
            if on_word_boundaries(text, position, position + len(form)):
                starts.add(position)
            position = text.find(form, position + 1)
    return starts


def _first_occurrence(text: str, entity: _Entity) -> tuple[int, int]:
    first = min(entity.spans)
    for form in entity.forms:
        position = text.find(form, 0, first[0])
        while position != -1 and not on_word_boundaries(text, position, position + len(form)):
            position = text.find(form, position + 1, first[0])
        if position != -1:
            first = min(first, (position, position + len(form)))
    return first


def _add_trained_models(paper: _Paper) -> None:
    """'We train a QuRater model to ...': a new name the authors train as a model is theirs."""
    text = paper.text
    if " train" not in text:
        return
    for m in _TRAINED_MODEL.finditer(text):
        entity = paper.entities.get(paper.key(m.group(1)))
        if entity is not None and not entity.known and not entity.expansion:
            entity.entity_type = "model"
            entity.proposed = True


def _claim_fallback(paper: _Paper, cues: cue.Cues) -> None:
    """Still nothing proposed: a new name that is the subject of a claim in the authors' voice
    ('we demonstrate how QUIC-FL achieves state-of-the-art accuracy') is the paper's."""
    text = paper.text
    for entity in paper.entities.values():
        if (
            entity.known
            or entity.entity_type not in ("method", "model")
            or not _COINED_OR_SHAPED.search(entity.name)
        ):
            continue
        for start, end in sorted(entity.spans):
            sentence_start, _ = cue.sentence_of(cues, text, start)
            if _CLAIM_AFTER.match(text, end) and _CLAIM_VOICE.search(text, sentence_start, start):
                entity.proposed = True
                return


def _subject_after_unnamed_proposal(paper: _Paper, cues: cue.Cues) -> None:
    """'we propose an adaptive prompting approach that ... . AdaPromptCL employs ...': the authors
    proposed something without naming it, and a coined name then opens a later sentence as its
    subject and comes back. The first such name is what they proposed."""
    if not cues.windows:
        return
    text = paper.text
    _, proposal_end = cue.sentence_of(cues, text, min(cues.windows)[0])
    best: tuple[int, _Entity] | None = None
    for entity in paper.entities.values():
        if entity.known or entity.entity_type not in ("method", "model") or entity.expansion:
            continue
        if not _COINED_OR_SHAPED.search(entity.name) or sum(text.count(f) for f in entity.forms) < 2:
            continue
        start, _ = _first_occurrence(text, entity)
        if start >= proposal_end and _at_sentence_start(text, start) and (best is None or start < best[0]):
            best = (start, entity)
    if best is not None:
        best[1].proposed = True


def _propagate_to_variants(paper: _Paper) -> None:
    """UniFlow-XL and Expert Merging++ are the paper's when UniFlow and Expert Merging are."""
    propagated: set[int] = set()
    variants: dict[str, list[tuple[int, int]]] = {}  # by form: a form several entities hold is walked once
    for _ in range(_VARIANT_DEPTH):
        for entity in list(paper.entities.values()):
            if entity.proposed and id(entity) not in propagated:
                propagated.add(id(entity))
                _mark_variants(paper, entity, variants)


_CAPITAL_PREFIX = re.compile(r"[A-Z]{2,}(?=[A-Z][a-z]|[A-Z]?$)")


def _mark_prefix_variants(paper: _Paper) -> None:
    """'Dynamically Composable Multi-Head Attention (DCMHA) ... the corresponding DCFormer ...
    DCPythia-6.9B': a coined name opening with the capitals that spell the first words of a
    proposed long form is built from it, and the paper's too."""
    prefixes = set()
    for entity in paper.entities.values():
        if entity.proposed and entity.expansion:
            initials = "".join(w[0] for w in re.split(r"[\s-]+", entity.expansion) if w)
            if initials.isupper() and entity.name.startswith(initials[:2]):
                prefixes.update(initials[:k] for k in range(2, len(initials)))
    if not prefixes:
        return
    for entity in paper.entities.values():
        opening = _CAPITAL_PREFIX.match(entity.name)
        if entity.proposed or entity.known or entity.expansion or opening is None:
            continue
        if opening.group() in prefixes and _COINED_OR_SHAPED.search(entity.name):
            entity.proposed = True


_SIBLING_OPENING = re.compile(r"([A-Z][a-z]{2,})-(?=[A-Z])")


def _mark_siblings(paper: _Paper) -> None:
    """'We first introduce Delayed-PSVI ... for Delayed-LPSVI': a new coined name sharing the first
    word of a proposed coined name is its sibling, the paper's too."""
    openings = set()
    for entity in paper.entities.values():
        opening = _SIBLING_OPENING.match(entity.name)
        if entity.proposed and not entity.known and opening and paper.lexicon.lookup(opening[1]) is None:
            openings.add(opening[1])
    for entity in paper.entities.values():
        opening = _SIBLING_OPENING.match(entity.name)
        if opening and opening[1] in openings and not entity.known and entity.entity_type != "metric":
            entity.proposed = True


# 'CAT-Walk introduces a temporal walk on hypergraphs, SetWalk, that ...', 'DLPL comprises three
# modules: ...', 'VoxDet first ingeniously proposes template voxel aggregation (TVA) module'.
_PROPOSED_SUBJECT_VERB = re.compile(
    r" (?:(?:\w+ly|first|then|also|further|additionally) )*(?:introduces|proposes|presents|develops|designs|"
    r"devises|incorporates|integrates|features|contains|comprises|includes|consists of|is composed of)\b"
)


_PART_VERB = re.compile(
    r" (?:introduces|proposes|presents|develops|designs|devises|incorporates|integrates|features|contains|"
    r"comprises|includes|consists of|is composed of)\b"
)


def _mark_parts_of_proposed(paper: _Paper, cues: cue.Cues) -> None:
    """A sentence whose subject is a proposed name describes its parts: a new coined or spelled-out
    name written there after the verb, before any reference to other work, is one of the paper's
    own."""
    text = paper.text
    if _PART_VERB.search(text) is None:
        return
    verbs = []
    for entity in paper.entities.values():
        if entity.proposed:
            for start in _occurrences(text, entity):
                form = next((f for f in entity.forms if text.startswith(f, start)), "")
                verb = _PROPOSED_SUBJECT_VERB.match(text, start + len(form))
                if form and verb is not None:
                    verbs.append((verb.end(), cue.sentence_of(cues, text, start)[1]))
    for verb_end, sentence_end in verbs:
        reference = cue.REFERENCE_MARKER.search(text, verb_end, sentence_end)
        part_end = reference.start() if reference else sentence_end
        for entity in paper.entities.values():
            if entity.known or entity.proposed or entity.entity_type == "metric":
                continue
            if not (entity.expansion or _COINED_OR_SHAPED.search(entity.name)):
                continue
            start, _ = min(entity.spans)
            if verb_end <= start < part_end:
                entity.proposed = True


def _mark_described_in_own_voice(paper: _Paper, cues: cue.Cues) -> None:
    """'We then employ LocoEdit, a fast closed-form editing method', 'using DCP-RMP, a locally
    reactive goal-proposal module': a new coined name the authors describe as a method or a part
    is theirs, unless the sentence cites it as other work or the description calls it known."""
    text = paper.text
    for entity in paper.entities.values():
        if entity.known or entity.proposed or entity.entity_type not in ("method", "model"):
            continue
        if not _COINED_OR_SHAPED.search(entity.name):
            continue
        start, end = min(entity.spans)
        described = _DESCRIBED_KIND.match(text, end)
        if described is None or described.group(3) is None:
            continue
        sentence_start, _ = cue.sentence_of(cues, text, start)
        if (
            _VOICE.search(text, sentence_start, start)
            and not cue.strong_reference(text, sentence_start, start)
            and not _OTHERS_ADJECTIVES.search(described.group())
        ):
            entity.proposed = True


def _mark_slash_partners(paper: _Paper) -> None:
    """'namely RankDice/RankIoU': a new name written as the other half of a proposed name is the
    paper's too, and of the same kind."""
    text = paper.text
    if "/" not in text:
        return
    for entity in [e for e in paper.entities.values() if e.proposed]:
        for _, end in list(entity.spans):
            if not text.startswith("/", end):
                continue
            partner_start = end + 1
            for other in paper.entities.values():
                if not other.known and (partner_start, partner_start + len(other.name)) in other.spans:
                    other.proposed = True
                    other.entity_type = entity.entity_type


def _mark_variants(paper: _Paper, entity: _Entity, variants: dict[str, list[tuple[int, int]]]) -> None:
    text = paper.text
    for form in list(entity.forms):
        if form not in variants:
            variants[form] = list(_variant_spans(text, form))
        for start, variant_end in variants[form]:
            name = text[start:variant_end]
            entity_type = "model" if _SIZE_TAG.search(name) else entity.entity_type
            added = paper.entities.get(paper.key(name)) or paper.add(name, entity_type, (start, variant_end))
            if added is not None:
                added.proposed = True
                added.spans.add((start, variant_end))


def _variant_spans(text: str, form: str) -> Iterator[tuple[int, int]]:
    """Where form is written with a variant's suffix: 'UniFlow-XL', 'Expert Merging++'."""
    position = text.find(form)
    while position != -1:
        start, end = position, position + len(form)
        position = text.find(form, end)
        variant = _VARIANT_SUFFIX.match(text, end)
        if variant is not None and not (start > 0 and (text[start - 1].isalnum() or text[start - 1] == "-")):
            yield start, variant.end()


_TRAINED_MODEL = re.compile(
    r"\b[Ww]e (?:\w+ly )?(?:train|pre-?train|fine-tune|build|develop|obtain)\w* (?:a|an|our) "
    r"([A-Z][\w+-]*[A-Za-z0-9+]) (?:model|classifier|network|policy|agent|tokenizer|encoder|reward model)\b"
)
_COINED_OR_SHAPED = re.compile(r"[a-z][A-Z]|[A-Z][a-z]+[A-Z]|[A-Z]{2,}-|[A-Z]{3,}")
_CLAIM_AFTER = re.compile(
    r",?\s(?:\w+ly\s)?(?:achieves?|attains?|sets?|establish(?:es)?|outperforms?|surpass(?:es)?|beats?|"
    r"exceeds?|yields?)\b"
)
# The claim is the authors' own: 'we show that X', 'we demonstrate how X', 'our X'.
_CLAIM_VOICE = re.compile(
    r"\b(?:[Ww]e (?:\w+ )?(?:show|demonstrate|find|observe|verify|confirm)\w*|[Oo]ur)\b"
)


def _salient_fallback(paper: _Paper, cues: cue.Cues) -> None:
    """No cue fired: the coined name the abstract keeps returning to, first written in a sentence
    that speaks for the authors ('In this work, we reimagine ... with TensorAR')."""
    text = paper.text
    best: tuple[int, _Entity] | None = None
    for entity in paper.entities.values():
        if entity.known or entity.entity_type not in ("method", "model") or entity.expansion:
            continue
        coined = _COINED.search(entity.name) is not None
        if not coined and not (entity.name.isupper() and len(entity.name) >= 4):
            continue
        occurrences = sum(text.count(form) for form in entity.forms)
        first = min(entity.spans)[0]
        sentence_start, _ = cue.sentence_of(cues, text, first)
        # Spoken of by the authors, or named after they said they propose something unnamed.
        voiced = _VOICE.search(text, sentence_start, first) is not None or (
            bool(cues.windows) and occurrences >= 4
        )
        if occurrences >= 3 and voiced and (best is None or occurrences > best[0]):
            best = (occurrences, entity)
    if best is not None:
        best[1].proposed = True


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


def _emit(paper: _Paper) -> tuple[list[Mention], bool]:
    """The mentions, in text order, and whether MAX_MENTIONS cut them short."""
    text = paper.text
    # The entities at each span, as the shared lists of the entities holding each surface form
    # found there: a form that many entities hold costs its occurrences, not their product.
    holders: dict[str, dict[int, _Entity]] = {}
    at: dict[tuple[int, int], list[Sequence[_Entity]]] = {}
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
        named = {id(entity): entity for members in at[(start, end)] for entity in members}
        here = sorted(
            Mention(
                start,
                end,
                text[start:end],
                entity.name,
                entity.entity_type,
                "proposed" if entity.proposed else "referenced",
                entity.expansion,
            )
            for entity in named.values()
        )
        if len(mentions) + len(here) > MAX_MENTIONS:
            mentions += here[: MAX_MENTIONS - len(mentions)]
            return mentions, True
        mentions += here
    return mentions, False


def extract_entities(
    text: str, lexicon: Lexicon | None = None, links: Sequence[Link] | None = None
) -> PaperEntities:
    """All entity mentions and abbreviation definitions of one abstract_clean text; `links` are the
    text's links when the caller has found them already."""
    lexicon = lexicon or load_lexicon()
    paper = _Paper(text, lexicon, find_links(text) if links is None else links)
    hits, cue_hits = lexicon.find(text)
    cues = cue.find_cues(text, cue_hits)
    abbreviations = find_abbreviations(text, limit=MAX_DEFINITIONS + 1)  # one more tells a cut
    definitions_capped = len(abbreviations) > MAX_DEFINITIONS
    del abbreviations[MAX_DEFINITIONS:]
    _add_abbreviations(paper, abbreviations, cues)
    _add_lexicon_hits(paper, hits, cues)
    _add_shape_tokens(paper)
    _split_glued_words(paper)
    _add_context(paper, cue_hits)
    _add_introduced_names(paper, cues)
    _add_introduced_phrases(paper, cues)
    _add_named_by_slots(paper, cues, cue_hits)
    _add_apposed_names(paper)
    _add_renamed_kinds(paper, cues)
    _add_named_after_kind(paper, cues)
    _add_titled_methods(paper)
    _add_own_named_kinds(paper)
    _add_versions(paper)
    _add_tiers(paper)
    _add_modified_names(paper, cues)
    _add_named_algorithms(paper, cues)
    _add_named_heads(paper)
    _add_languages(paper)
    _add_enumerated_contributions(paper, cues)
    _assign_roles(paper, cues)
    mentions, mentions_capped = _emit(paper)
    cut = (definitions_capped, paper.entities_capped, mentions_capped)
    capped = tuple(limit for limit, applied in zip(LIMITS, cut, strict=True) if applied)
    return PaperEntities(mentions, abbreviations, capped)
