"""Names typed by the words around them: kind nouns, lists, measured values, versions, tiers,
modifiers, named heads and natural languages."""

from __future__ import annotations

import re

from pipeline.lib.extract import proposed as cue
from pipeline.lib.extract.lexicons import Hit
from pipeline.lib.extract.listed import KIND_TYPES, type_list
from pipeline.lib.extract.shapes import (
    ADJECTIVE_ENDING,
    ADJECTIVE_SUFFIX_PATTERN,
    COINED,
    LIST_JOIN,
    SIZE_TAG,
    at_sentence_start,
    is_name_shape,
    list_items,
    listed_name,
    name_before,
)
from pipeline.lib.extract.state import PaperState
from pipeline.lib.extract.vocabulary import (
    FUNCTION_WORDS,
    GENERIC_MODIFIERS,
    INTRO_FILLERS,
    LANGUAGE_DATA_HEADS,
    LIST_KIND_NOUNS,
    LIST_KIND_NOUNS_NOT_BEFORE_PARENTHESES,
    MEASURE_PREPOSITIONS,
    MEASURE_VERBS,
    METHOD_HEADS,
    METRIC_FILLERS,
    METRIC_HEADS,
    MODEL_TIERS,
    NAMED_HEADS,
    RATE_HEADS,
    RATE_KINDS,
    SCORE_HEADS,
    TOPIC_HEADS,
    VALUED_MEASURE_HEADS,
    WEAK_METRIC_HEADS,
    alternation,
)

_SPACED_SIZE = re.compile(r" (\d+(?:x\d+)?(?:\.\d+)?[BM])(?![\w-])")


# 'ViT-B/16', 'ViT-H/14@448': a patch size, and the input resolution a released variant keeps.
_PATCH_SIZE = re.compile(r"/\d{1,2}(?:@\d{3,4}(?:px)?)?(?![\w%@]|\.\d)")


_TRAILING_VERSION = re.compile(r"(?<= )\d+(?:\.\d+)?$")


_OTHER_VERSION = re.compile(r"/(\d+(?:\.\d+)?)(?![\w.%])")


# A version may end a sentence ('we prompt Grok 3.'); not a number's first part ('2.5'), nor a
# factor ('FooNet 2.5 times faster').
_VERSION = re.compile(r" ((?:[VR]|v)?\d+(?:\.\d+)?)(?:/((?:[VR]|v)?\d+(?:\.\d+)?))?(?![\w%]|\.\w| times\b)")


# A measured quantity and its value: 'achieving a semantic IoU of 82.4'.
_OF_VALUE = re.compile(r" of (?=[-+−]?\d|𝒪|O\(|up to \d|over \d)")


_PERCENT = re.compile(r"[-+−]?\d+(?:\.\d+)?\s?%")


_GAIN_IN = re.compile(
    r"\d(?:\.\d+)?\s?%\s+(?:(?:relative |absolute |average )?(?:improvements?|gains?|increases?|reductions?|"
    r"higher|lower|better|boosts?) )?in (?:terms of )?(?:the )?((?:[\w-]+ ){0,4}[\w-]+)"
)


_QUANTITY_BEFORE = re.compile(r"\b(?:an?|the|higher|lower|best|average|mean) ((?:[\w-]+ ){0,2}[\w-]+)$")


# 'benchmarks such as Infoseek and OK-VQA', 'baselines (e.g., PPO, SAC)': a list of examples after
# a kind noun names things of that kind; the list starts after the cue and this.
_AFTER_EXAMPLE_CUE = re.compile(r"[.,:]*\s+")


_KIND_BEFORE = re.compile(
    rf"\b({alternation(noun for nouns in LIST_KIND_NOUNS.values() for noun in nouns)})\)?,?\s*\(?$"
)


# 'datasets (BDD100K, Cityscapes, and SODA10M)': a list in parentheses right after a kind noun.
# Both patterns begin with a literal, so the full-text scan stays cheap; the word before is
# checked against a set.
_PARENTHESIS_LIST = re.compile(r" \((?=[A-Z0-9])")


_LAST_WORD = re.compile(r"\w+$")


_PARENTHESIS_KINDS = frozenset(KIND_TYPES) - set(LIST_KIND_NOUNS_NOT_BEFORE_PARENTHESES)


# 'results on X and Y', 'experiments on the X, Y and Z': an evaluation phrase before a list.
_ON_LIST = re.compile(r" (?:on|across) (?:the |both |several |multiple )?(?=[A-Z0-9])")


_EVALUATION_BEFORE_ON = re.compile(
    r"\b(?:results|experiments|evaluations?|evaluated|tested|validated|performance|benchmarked)$"
)


_PRECISION_RECALL = re.compile(r"\b([Pp]recision)(?:,| and| or| vs\.?|/| versus) (?:\w+ )?([Rr]ecall)\b")


_RATE_HEADS = frozenset(RATE_HEADS)


_RATE_KINDS = frozenset(RATE_KINDS)


_METRIC_FILLERS = frozenset(METRIC_FILLERS)


def add_versions(paper: PaperState) -> None:
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
            patch = (
                _PATCH_SIZE.match(text, end) if entity.entity_type == "model" and base[-1].isupper() else None
            )
            if patch is not None:  # 'ViT-B/16': the patch size names the released model
                paper.add(f"{base}{patch.group()}", "model", (start, patch.end()), known=entity.known)
                continue
            size = _SPACED_SIZE.match(text, end) if entity.entity_type != "dataset" else None
            if size is not None and not SIZE_TAG.search(base):
                # 'Qwen2.5 32B' is one released model, as 'Qwen2.5-32B' would be; so is a coined
                # name with a parameter count, 'FooLM 125M'.
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
    rf" ({alternation(MODEL_TIERS)})"
    r"(?![\w-])(?! (?:language|vision|multimodal|models?|scale)\b)"  # not 'GPT-4 Large language models'
)


# A tier written in lower case, joined or after the version: 'gpt-3.5-turbo', 'GPT-4o mini'.
_LOWER_TIER_AFTER = re.compile(
    r"(?:-(?:turbo|mini|preview|instruct|chat|pro|flash|nano|lite)| mini)(?![\w-])"
)


def add_tiers(paper: PaperState) -> None:
    text = paper.text
    for entity in list(paper.entities.values()):
        if entity.entity_type != "model":
            continue
        for start, end in list(entity.spans):
            tier = _TIER_AFTER.match(text, end) or _LOWER_TIER_AFTER.match(text, end)
            if tier is not None:
                name = f"{text[start:end]}{tier.group()}"
                paper.add(name, "model", (start, tier.end()), known=entity.known)


# A capitalised word right before a lexicon name, after a lower-case word or a comma: 'train
# Wide ResNet models', 'known as Infinitesimal Jackknife', 'a Linearized ADMM method'.
_MODIFIER_BEFORE = re.compile(r"(?:[a-z]|[a-z],) ([A-Z][a-z]{2,}(?:-[a-z]+)?) $")


_GENERIC_MODIFIERS = frozenset(GENERIC_MODIFIERS)


def add_modified_names(paper: PaperState) -> None:
    """A capitalised modifier mid-sentence makes a lexicon method a variant with a name of its own,
    not the plain one. Not a model ('DeepMind Chinchilla' is Chinchilla), nor a plural ('Graph
    Transformers' is a family); the variant is as well known as the method."""
    text, cues = paper.text, paper.cues
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


def add_named_algorithms(paper: PaperState) -> None:
    text, cues = paper.text, paper.cues
    if " algorithm" not in text:
        return
    for entity in list(paper.entities.values()):
        if any(cue.in_window(cues, start) for start, _ in entity.spans):
            continue  # 'We propose the ALH algorithm' names ALH
        if entity.expansion or entity.entity_type != "method" or not entity.name.replace("-", "").isalpha():
            continue
        if COINED.search(entity.name) or "-" in entity.name:
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
        paper.drop(entity, uncover=True)
        for start, end, _ in extended:
            paper.add(f"{entity.name}{named[0].group()}", "method", (start, end))


# A name after an article names the thing after it: 'the Ising model', 'the Kullback-Leibler
# distance', 'the Wizard of Oz technique'. Only one word or a hyphenated pair of names, and not
# an adjective made from a name ('a Bayesian approach', 'the Riemannian metric'): those are kinds.
# Found from the name's capital, the article looked back for ('the ', 'an ', 'a '): re then skips
# from capital to capital instead of trying the article at every 't' and 'a'.
_NAME_THEN_HEAD = re.compile(
    r"([A-Z](?:(?<=the [A-Z])|(?<=an [A-Z])|(?<=a [A-Z]))[a-z]+(?:[-–][A-Z][a-z]+| of [A-Z][a-z]+)?) ("
    + "|".join(sorted(NAMED_HEADS, key=len, reverse=True))
    + r")\b"
)


def add_named_heads(paper: PaperState) -> None:
    text = paper.text
    for m in _NAME_THEN_HEAD.finditer(text):
        capital = m.start()  # the article before it is the one the look back found
        article = capital - (
            4 if text.startswith("the ", capital - 4) else 3 if text.startswith("an ", capital - 3) else 2
        )
        if article and text[article - 1].isalnum():
            continue  # 'bathe', 'Sofia': the article is a word's end (checked here: a \b costs more)
        name, head = m.groups()
        start, end = m.start(1), m.end()
        if ADJECTIVE_ENDING.search(name) or name.split()[0].split("-")[0].lower() in FUNCTION_WORDS:
            continue
        known = paper.lexicon.lookup(name)
        if (known and known.kind != "topic") or paper.key(name) in paper.form_keys or paper.is_topic(name):
            continue  # 'the Transformer model' is the Transformer; 'the Kullback-Leibler distance' a name
        if name in paper.lexicon.languages or any(s < end and start < e for s, e in paper.covered):
            continue
        paper.add(text[start:end], "metric" if head in METRIC_HEADS else "method", (start, end))


# Natural languages as the material a paper works on: a pair 'English-German', a language's data
# 'Japanese text', 'English and Czech newspaper texts'. A language alone ('a parser for German',
# 'translated from English to Japanese') names no dataset: the annotated sets never count one.
# A capitalised word, \b[A-Z][a-z]+\b: opening with the capital (its \b as a look back) lets re
# jump from capital to capital instead of trying every position, in half the time over a text.
_PLAIN_WORD = re.compile(r"[A-Z](?<!\w[A-Z])(?<!non-[A-Z])[a-z]+\b")  # not 'non-English corpora'


_LANGUAGE_PAIR = re.compile(r"[-–/]|-to-")


_LOWER_WORDS_AFTER = re.compile(r"(?: [a-z][a-z-]*\b){1,4}")


def _language_data_end(text: str, end: int) -> int | None:
    """Where the data noun after a language ends ('Japanese text', 'French broadcast news
    transcriptions'), within four lower-case words, before a function word or a model noun."""
    words = _LOWER_WORDS_AFTER.match(text, end)
    data_end, position = None, end
    for word in words.group().split(" ")[1:] if words else ():
        position += 1 + len(word)
        if word in FUNCTION_WORDS:
            break
        if word in LANGUAGE_DATA_HEADS or word in ("model", "models"):  # 'Japanese language models'
            data_end = position if word in LANGUAGE_DATA_HEADS else None
    return data_end


def add_languages(paper: PaperState) -> None:
    text, languages = paper.text, paper.lexicon.languages
    if languages.isdisjoint(_PLAIN_WORD.findall(text)):
        return  # most abstracts name no language: told without a match object a word
    found = [m for m in _PLAIN_WORD.finditer(text) if m.group() in languages]
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
        index += 1
    # A language listed with one of those is one too: 'from Chinese, Arabic, and English corpora'
    # (backwards), 'English-German and French' (forwards).
    for step, order in ((1, range(len(found) - 2, -1, -1)), (-1, range(1, len(found)))):
        for index in order:
            left, right = sorted((found[index], found[index + step]), key=lambda m: m.start())
            if (
                index not in spans
                and index + step in spans
                and LIST_JOIN.fullmatch(text, left.end(), right.start())
            ):
                spans[index] = found[index].span()
    for start, end in sorted(spans.values()):
        if paper.make_room(start, end):
            paper.add(text[start:end], "dataset", (start, end), known=True)


_ADJECTIVE_SUFFIX = re.compile(ADJECTIVE_SUFFIX_PATTERN + "$")


def add_cue_context(paper: PaperState) -> None:
    """'the X dataset', 'benchmarks such as X and Y': a name before a head cue word, the examples
    after a kind noun."""
    text = paper.text
    for hit in paper.cue_hits:
        if hit.entry.kind == "cue:example":
            _add_examples(paper, hit)
        if hit.entry.kind != "cue:head":
            continue
        # A match holds four spaces at most (three between its words, one after them): none starts
        # before the fifth space back, and each start the search need not try saves a backtrack.
        reach = max(0, hit.start - 60)
        words_before = text[reach : hit.start].rsplit(" ", 5)
        reach += len(words_before[0]) + 1 if len(words_before) == 6 else 0
        m = name_before(text, reach, hit.start)
        if m is None:
            continue
        words = m.group(1).split()
        while words and (words[0].lower() in FUNCTION_WORDS or words[0].lower() in INTRO_FILLERS):
            words.pop(0)
        if not words or paper.is_topic(words[-1]):
            continue
        name = " ".join(words)
        start = m.start(1) + m.group(1).index(name)
        if len(name) < 2 or (len(words) == 1 and not is_name_shape(name) and at_sentence_start(text, start)):
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


def add_precision_recall(paper: PaperState) -> None:
    """'precision and recall': both are measures here, not everyday qualities."""
    text = paper.text
    if "ecall" in text:
        for m in _PRECISION_RECALL.finditer(text):
            for group in (1, 2):
                paper.add(m.group(group).lower(), "metric", m.span(group), known=True)


def add_measured_values(paper: PaperState) -> None:
    """'achieving a semantic IoU of 82.4': the quantity a value is given for is a metric."""
    for m in _OF_VALUE.finditer(paper.text):
        _add_measured_quantity(paper, m)


def add_measured_in(paper: PaperState) -> None:
    """'as measured by Bayes risk', 'evaluated in terms of success rate and data efficiency'."""
    text = paper.text
    if not any(verb in text for verb in _MEASURE_VERBS_SPACED):
        return  # every match of both patterns holds one; most joints found are other verbs' ('proposed by ')
    # Every match of _MEASURED_IN holds one of its joints: a scan of the text for each is cheaper
    # than the pattern's. _AS_MEASURED_BY's joints ('using', 'via') are not among them.
    if any(joint in text for joint in _MEASURED_JOINTS):
        for m in _MEASURED_IN.finditer(text):
            for item in _MEASURE_ITEM.finditer(m.group(1)):
                if len(item.group().split()) <= 3:
                    _add_metric_phrase(paper, item.group(), m.start(1) + item.start(), m)
    for m in _AS_MEASURED_BY.finditer(text):
        if m.group(1) in ("measured", "quantified") or text.endswith("as ", 0, m.start()):
            _add_measuring_acronym(paper, m.span(2))


def _add_measuring_acronym(paper: PaperState, span: tuple[int, int]) -> None:
    """'fidelity (as assessed by GIQA)': an acronym that something is measured by is a metric,
    unless it is known as something else ('as judged by GPT-4' names a model)."""
    owners = [e for e in paper.entities.values() if span in e.spans]
    if any(owner.known or owner.expansion or owner.entity_type != "method" for owner in owners):
        return
    if owners:
        paper.retype(owners[0], "metric")
    elif span not in paper.covered:
        paper.add(paper.text[span[0] : span[1]], "metric", span)


def add_parenthesis_lists(paper: PaperState) -> None:
    """'datasets (BDD100K, Cityscapes, and SODA10M)': a list in parentheses after a kind noun."""
    text = paper.text
    if " (" in text:
        for m in _PARENTHESIS_LIST.finditer(text):
            word = _LAST_WORD.search(text, max(0, m.start() - 14), m.start())
            if word is not None and word.group() in _PARENTHESIS_KINDS:
                type_list(paper, word.group(), m.end())


def add_evaluation_lists(paper: PaperState) -> None:
    """'results on X and Y', 'experiments on the X, Y and Z': a list after an evaluation phrase."""
    text = paper.text
    for m in _ON_LIST.finditer(text):
        if _EVALUATION_BEFORE_ON.search(text, max(0, m.start() - 14), m.start()):
            _add_evaluation_list(paper, m.end())


def _add_examples(paper: PaperState, hit: Hit) -> None:
    """'benchmarks such as Infoseek and OK-VQA', 'baselines (e.g., PPO, SAC)': the examples listed
    after a kind noun are things of that kind."""
    text = paper.text
    kind = _KIND_BEFORE.search(text, max(0, hit.start - 40), hit.start)
    skip = _AFTER_EXAMPLE_CUE.match(text, hit.end)
    if kind is not None and skip is not None:
        type_list(paper, kind.group(1), skip.end())


def _add_evaluation_list(paper: PaperState, position: int) -> None:
    """'results on Atari and Minecraft': in a list that follows an evaluation phrase and holds a
    known dataset, the other names are datasets too ('Minecraft show' ends the list, so a plain
    word followed by a lower-case one is not read as a modifier here)."""
    text = paper.text
    items = [(item, name) for item in list_items(text, position) if (name := listed_name(paper, item, False))]
    entities = [paper.entities.get(paper.key(name)) for _, name in items]
    if len(items) < 2 or not any(e is not None and e.known and e.entity_type == "dataset" for e in entities):
        return
    for (item, name), entity in zip(items, entities, strict=True):
        if entity is None:
            paper.add(name, "dataset", item)
        elif not entity.known and entity.entity_type == "method" and not entity.expansion:
            paper.retype(entity, "dataset")


# 'as measured by Bayes risk', 'evaluated in terms of success rate and data efficiency'.
_MEASURED_IN = re.compile(
    rf"\b(?:{alternation(MEASURE_VERBS)}) (?:{alternation(MEASURE_PREPOSITIONS)}) (?:the )?"
    r"([\w-]+(?:(?: |, | and |, and )[\w-]+){0,5})(?=[),.;:]|$)"
)
# 'as assessed by GIQA', 'quantified by FooScore': what the measure is taken with.
# The verb first, so that the pattern is tried only where one of them begins; 'evaluated' and
# 'assessed' need the 'as' before them.
_AS_MEASURED_BY = re.compile(
    rf"({alternation(MEASURE_VERBS)}) (?:by|with|via|using) (?:the )?"
    r"([A-Z][A-Za-z]*[A-Z][A-Za-z0-9-]*)(?=[),.;:]|$)"
)
# What every match of _MEASURED_IN and _AS_MEASURED_BY holds: 'measured ', 'assessed '.
_MEASURE_VERBS_SPACED = tuple(f"{verb} " for verb in MEASURE_VERBS)
# What every match of _MEASURED_IN holds: 'ed by ', 'ed in terms of '.
_MEASURED_JOINTS = tuple(
    {f"{verb[-2:]} {preposition} " for verb in MEASURE_VERBS for preposition in MEASURE_PREPOSITIONS}
)


_MEASURE_ITEM = re.compile(r"[\w-]+(?: (?!and\b)[\w-]+)*")


def _add_measured_quantity(paper: PaperState, value: re.Match[str]) -> None:
    """'achieving a semantic IoU of 82.4': the quantity a value is given for is a metric."""
    text = paper.text
    before = _QUANTITY_BEFORE.search(text, max(0, value.start() - 50), value.start())
    if before is None:
        return
    _add_metric_phrase(paper, before.group(1), before.start(1), value)


def _add_metric_phrase(paper: PaperState, phrase: str, phrase_start: int, value: re.Match[str]) -> None:
    """The metric a phrase ending in a metric head word names, if it does."""
    text = paper.text
    words = phrase.split()
    while words and (words[0].lower() in FUNCTION_WORDS or words[0].lower() in _METRIC_FILLERS):
        words.pop(0)
    if not words:
        return
    head = words[-1].lower()
    if head not in METRIC_HEADS and head not in VALUED_MEASURE_HEADS:
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
    if head in _SCORE_HEADS and _names_metric(paper, words[-2]):
        words.pop()  # 'a zero-shot FID score of 6.21' reports zero-shot FID
    name = " ".join(words)
    start = phrase_start + phrase.index(name)
    paper.add(name, "metric", (start, start + len(name)))


_SCORE_HEADS = frozenset(SCORE_HEADS)


def _names_metric(paper: PaperState, word: str) -> bool:
    entry = paper.lexicon.lookup(word)
    return entry is not None and entry.kind == "metric"


def add_gain_measures(paper: PaperState) -> None:
    """'a gain of 19.0% and 22.8% in next word prediction accuracy': the quantity a percentage
    gain is stated in is a metric. The phrase ends at the first word that is not lower case."""
    text = paper.text
    if "%" not in text:
        return
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
