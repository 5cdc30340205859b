"""Measures that a comparison or an evaluation names: lower-case metric phrases right after a
measure cue ('improves worst-group accuracy', 'lower training time', 'in terms of calibration,
accuracy and runtime', 'a reduction in memory footprint', 'a trade-off between accuracy and
throughput') or a value ('a 3× speedup', '4× more request rates').

After the cue (and an article, a possessive or an averaging word: 'boosts InstructGPT's
reasoning accuracy') the phrase is read forwards over lower-case words up to the first metric or
measure head. A head alone is a measure when it names one by itself (accuracy, latency,
throughput); a weak one (time, cost, error, rate ...) needs a word before it ('training time').
The measures listed after the first one share its cue ('in terms of calibration, accuracy and
runtime'); after 'in terms of' the list goes on past an item that is no measure. A phrase that
crosses a name the other rules found is left to it, unless what it holds is a metric it extends
('accuracy' in 'worst-group accuracy').
"""

from __future__ import annotations

import re

from pipeline.lib.extract.shapes import LIST_JOIN
from pipeline.lib.extract.state import PaperState
from pipeline.lib.extract.tasks import task_phrase_start
from pipeline.lib.extract.vocabulary import (
    BOUND_RATE_WORDS,
    CHANGE_VERB_STEMS,
    CLAIM_VERBS,
    COMPLEXITY_HEADS,
    COMPUTE_TIME_MODIFIERS,
    COUNTED_COMPLEXITY_MODIFIERS,
    DATASET_HEADS,
    FUNCTION_WORDS,
    GAINED_IN_HEADS,
    HYPERPARAMETER_NAMES,
    MEASURE_CUES,
    MEASURE_HEADS,
    MEASURE_PHRASES,
    MEASURE_SETTINGS,
    METHOD_HEADS,
    METRIC_FILLERS,
    METRIC_HEADS,
    PREPOSITIONS,
    RESOURCE_HEADS,
    RESOURCE_MODIFIERS,
    SECOND_MEASURE_HEADS,
    TASK_HEADS,
    TASK_WORD_STOPS,
    TIME_HEADS,
    UNMEASURED_QUALITIES,
    UNMEASURED_WORDS,
    UNNAMED_ALONE_METRIC_HEADS,
    WEAK_MEASURE_HEADS,
    WEAK_METRIC_HEADS,
    alternation,
)

MAX_MEASURE_WORDS = 4  # 'corrupted user detection accuracy'
MAX_LISTED = 4
# Cues read per paper, the first in the text: real abstracts hold a few dozen, and each measure
# found is checked against the names found before it.
MAX_MEASURE_CUES = 200

_HEADS = METRIC_HEADS | MEASURE_HEADS
# Heads that need a word before them: the weak ones, and metric heads that name no measure alone.
_NEEDS_MODIFIER = WEAK_MEASURE_HEADS | WEAK_METRIC_HEADS | UNNAMED_ALONE_METRIC_HEADS
_LEAD = re.compile(
    rf"(?:(?:the|its|their|our|a|an|both|{alternation(METRIC_FILLERS)}|[A-Z][\w.-]*['’]s)\s+)*"
)
_WORD = re.compile(r"[a-z0-9][a-z0-9@-]*(?=[\s,.;:)]|$)")
# A value right before what it is a value of: 'a 3× speedup', 'a 12% error rate'.
# A factor may be written in TeX: 'a 3$\times$ speedup', '40\% fewer'.
_TIMES = r"(?:×|x|\$?\\times\$?)"


def _leading_digits(marks: str) -> str:
    r"""(?<![\w.])[marks]?\d+, a number's digits and the mark that may open it ('$', a sign), not
    inside a word or a decimal. Written to open with its first character and look back after it:
    re then jumps from candidate to candidate instead of trying every position, twice as fast."""
    first = rf"[\d{marks}]"
    return rf"{first}(?<![\w.]{first})(?:(?<=[{marks}])\d+|(?<=\d)\d*)"


_VALUE_BEFORE = re.compile(rf"{_leading_digits('$')}(?:\.\d+)?\s?(?:%|\\%|{_TIMES})\s(?=[a-z])")


def add_cued_measures(paper: PaperState) -> None:
    text = paper.text
    cues = [
        cue for cue in paper.cue_hits if cue.entry.kind == "cue:measure" and text.startswith(" ", cue.end)
    ]
    cue_ends = [cue.end + 1 for cue in cues]
    # After 'in terms of' every item of the list is what is evaluated, so a list goes on past an
    # item that is no measure ('in terms of both mesh topology and runtime').
    # What each cue says of the phrase after it, in one pass over the cues: an evaluation list,
    # a quality, a count compared by a factor, a change by a value.
    kinds: dict[int, str] = {}
    for cue in cues:
        name = cue.entry.name
        if name in _MEASURE_PHRASES:
            kinds[cue.end + 1] = "list"
        elif name in _COMPARATIVES:
            kinds[cue.end + 1] = "quality"
        elif name in _COMPARED_COUNTS:
            if _FACTOR_BEFORE.search(text, max(0, cue.start - 20), cue.start):
                kinds[cue.end + 1] = "count"
        elif name.startswith(CHANGE_VERB_STEMS):
            kinds[cue.end + 1] = "change"
    if "%" in text or "×" in text or "x " in text or "\\times" in text:
        cue_ends += [value.end() for value in _VALUE_BEFORE.finditer(text)]
    for cue_end in sorted(cue_ends)[:MAX_MEASURE_CUES]:
        position = _LEAD.match(text, cue_end).end()
        kind = kinds.get(cue_end)
        for listed in range(MAX_LISTED):
            span = _measure_at(text, position) if position >= 0 else None
            if span is None and not listed and kind == "count":
                span = _counted_at(text, position)
                if span is not None:
                    add_measure(paper, span)
                break
            if span is None and not listed and kind in ("quality", "change"):
                span = _changed_by(text, position) if kind == "change" else _quality_at(text, position)
                if span is not None:
                    add_measure(paper, span)
                break
            if (
                span is None
                and kind == "list"
                and not _STATED_BEFORE.search(text, max(0, cue_end - 60), cue_end)
            ):
                span = _quality_at(text, position)  # 'in terms of robustness and accuracy'
                if span is not None:
                    add_measure(paper, span)
            if span is None:
                other = _LISTED_ITEM.match(text, position) if kind == "list" else None
                if other is None:
                    break
                span = (position, other.end())
            else:
                add_measure(paper, span)
            gap = LIST_JOIN.match(text, span[1])
            position = _LEAD.match(text, gap.end()).end() if gap else -1


_MEASURE_PHRASES = frozenset(MEASURE_PHRASES)
# A bound or a rate stated in terms of a quantity, not an evaluation: 'bounds in terms of the
# mixability of the loss', 'characterized in terms of regularity'.
_STATED_BEFORE = re.compile(
    r"\b(?:bounds?|characteri[sz]ed|expressed|depend\w*|scales?|rates?)\b[^.;]{0,40}$"
)
# An item of a list that is no measure, up to the join to the next one: 'mesh topology'.
_LISTED_ITEM = re.compile(r"(?:[\w-]+ ){0,3}?[\w-]+(?=,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)")
_MEASURE_SETTINGS = frozenset(MEASURE_SETTINGS)
_METRIC_FILLERS = frozenset(METRIC_FILLERS)
_PREPOSITIONS = frozenset(PREPOSITIONS)
_CLAIM_VERBS = frozenset(CLAIM_VERBS)
_PREVIOUS_WORD = re.compile(r"(?<![\w-])[a-z][a-z0-9-]*[a-z0-9] $")


def add_modified_measures(paper: PaperState) -> None:
    """'reconstruction accuracy', 'clean accuracy', 'node classification accuracy': a measure
    head after a word that says what or under which conditions it measures is a measure wherever
    it is written. The word is a setting, a noun made from a verb, or a task phrase."""
    text = paper.text
    for head in paper.cue_hits:
        if head.entry.kind != "cue:measure_head":
            continue
        if head.entry.name in COMPLEXITY_HEADS:
            word = _PREVIOUS_WORD.search(text, max(0, head.start - 30), head.start)
            if word is not None and word.group()[:-1] in COUNTED_COMPLEXITY_MODIFIERS:
                add_measure(paper, (word.start(), head.end))
            continue
        is_time = head.entry.name in _TIME_HEADS
        if (
            is_time
            and text[max(0, head.start - 16) : head.start - 1].rpartition(" ")[2]
            not in _COMPUTE_TIME_MODIFIERS
        ):
            continue  # most 'time' is no measure: a check cheaper than the pattern's
        word = _PREVIOUS_WORD.search(text, max(0, head.start - 30), head.start)
        if word is None:
            continue
        modifier = word.group()[:-1]
        if is_time:
            if modifier not in _COMPUTE_TIME_MODIFIERS or _SETTING_BEFORE.search(
                text, max(0, word.start() - 40), word.start()
            ):
                continue
            start = word.start()
        elif modifier in TASK_HEADS:
            start = _measure_phrase_start(text, task_phrase_start(text, word.start()), word.start())
        elif modifier in _MEASURE_SETTINGS or (
            head.entry.name in _RESOURCE_HEADS and modifier in _RESOURCE_MODIFIERS
        ):
            start = word.start()
        else:
            continue
        if _OPTIMIZED_AFTER.match(text, head.end):
            continue  # 'empirical risk minimization' is a method, 'its minimizer' a point
        add_measure(paper, (start, head.end))


_TIME_HEADS = frozenset(TIME_HEADS)
_RESOURCE_HEADS = frozenset(RESOURCE_HEADS)
_RESOURCE_MODIFIERS = frozenset(RESOURCE_MODIFIERS)
_OPTIMIZED_AFTER = re.compile(r" (?:minimi[sz]|maximi[sz])")
_COMPUTE_TIME_MODIFIERS = frozenset(COMPUTE_TIME_MODIFIERS)
# 'at inference time', 'at training and inference time', 'at all training times': when something
# happens, not how long it takes.
_SETTING_BEFORE = re.compile(r"\b(?:[Aa]t|[Dd]uring|[Ii]n)(?: the| all)?(?: [\w-]+(?:,| and| or| and/or))* $")


def _measure_phrase_start(text: str, start: int, head_start: int) -> int:
    """Where the task phrase from start to head_start names what is measured: back from the head
    to a word that does not ('high', 'against', 'preserving' in 'preserving classification
    accuracy', 'yield' in 'yield action recognition accuracy')."""
    words = text[start:head_start].split(" ")
    kept = len(words)
    while kept > 1 and _may_be_in_measure(word := words[kept - 2]):
        if word in _METRIC_FILLERS or word in _PREPOSITIONS or word in _CLAIM_VERBS:
            break
        kept -= 1
    return head_start - len(" ".join(words[kept - 1 :]))


def _measure_at(text: str, position: int) -> tuple[int, int] | None:
    """The measure phrase starting at position: lower-case words up to the first head, and the
    heads right after it that end the phrase ('memory footprint', not 'training time efficiency
    gains')."""
    words: list[re.Match[str]] = []
    while len(words) < MAX_MEASURE_WORDS:
        word = _WORD.match(text, position)
        if word is None or not _may_be_in_measure(word.group()):
            return None
        words.append(word)
        if word.group() in _HEADS and (len(words) > 1 or word.group() not in _NEEDS_MODIFIER):
            end = word.end()
            following = _WORD.match(text, end + 1) if text.startswith(" ", end) else None
            if (
                following is not None
                and (following.group() in _HEADS or following.group() in _SECOND_HEADS)
                and not _continues(text, following.end())
            ):
                end = following.end()
            return words[0].start(), end
        if not text.startswith(" ", word.end()):
            return None
        position = word.end() + 1
    return None


_SECOND_HEADS = frozenset(SECOND_MEASURE_HEADS)
# What a cue verb changes by a value: 'by 30%', 'by up to 4 points', 'by 2.1 BLEU'; or from one
# measured value to another: 'from 1.28× to 2.35×', 'from 48% to', not a count ('from 2 to 8').
_BY_VALUE = re.compile(
    r" by (?:up to |over |about |around |nearly |almost |more than |an average of )?[+-]?\d"
    r"| from (?:about |around |approximately )?\$?(?:\d*\.\d+|\d+)\$?\s?(?:\\?%|×|x\b|\$?\\times)"
    r"| from (?:about |around |approximately )?\$?\d*\.\d+\$? to\b"
)
_UNMEASURED = frozenset(UNMEASURED_WORDS) | METHOD_HEADS | DATASET_HEADS
# Words that end the phrase a verb changes: a preposition, or a verb of its own ('the decrease in
# performance can range from 19% to 47%').
_NOT_IN_CHANGED = frozenset(PREPOSITIONS) | frozenset(("can", "may", "could", "might", "will", "would"))


def _changed_by(text: str, position: int) -> tuple[int, int] | None:
    """'reduces latency by 30%', 'improves robustness by 4 points', 'boosts its mitigation potential
    from 1.28× to 2.35×': the lower-case phrase a cue verb changes by a value, or from one value to
    another, is a measure, whatever its head, unless it names a task. The phrase may name what it
    is of ('model size', 'the number of parameters'), join two words that share its head ('training
    and inference costs'), and be followed by whose it is or an adverb before the value ('the
    training time of FooNets by 8%', 'hallucination effectively by 58%')."""
    start = position
    words = 0
    joined = counted = False
    while words < MAX_MEASURE_WORDS:
        word = _WORD.match(text, position)
        if word is None:
            return None
        name = word.group()
        if words and not joined and name == "and" and text.startswith(" ", word.end()):
            joined = True  # 'training and inference costs': the words around it share the head
            position = word.end() + 1
            continue
        if name in _NOT_IN_CHANGED or not (_may_be_in_measure(name) or name in _NOUN_STOPS):
            return None
        words += 1
        if not counted and name in _COUNT_NOUNS and text.startswith(" of ", word.end()):
            counted = True  # 'the number of parameters'
            position = word.end() + 4
            continue
        after = _AFTER_CHANGED.match(text, word.end())
        if _BY_VALUE.match(text, after.end() if after else word.end()):
            # A task is what is improved, not what is measured: 'improves image retrieval by 3%'.
            if name in _UNMEASURED or name in TASK_HEADS or name in _NOUN_STOPS:
                return None
            if after is not None and words == 1 and (name in _NEEDS_MODIFIER or name in _NOT_VALUED_HEADS):
                return None  # 'the cost of failures by 78%', 'the amount of parameters by 80%'
            if joined and text.startswith(" and", word.start() - 4):
                return None  # 'accuracy and latency by 3%': two measures, left to the list rules
            return start, word.end()
        if not text.startswith(" ", word.end()):
            return None
        position = word.end() + 1
    return None


# Nouns that say the phrase after "of" is counted: 'reduces the number of parameters by 80%'.
_COUNT_NOUNS = frozenset(("number", "total"))
# What may come between the phrase a verb changes and its value: whose it is, up to four words
# ('the training time of Pre-LN Transformers by 8%'), or an adverb ('effectively by 58%').
_AFTER_CHANGED = re.compile(r" of (?:[\w.-]+ ){0,3}[\w.-]+(?= by )| [a-z]+ly(?= by )")


# A comparative before a quality noun: 'better transferability', 'higher stability than'.
_COMPARATIVES = frozenset(("better", "higher", "greater", "superior", "improved", "lower", "stronger"))
_QUALITY = re.compile(
    r"((?:[a-z][a-z-]+ |[A-Z]{2,}s? )?([a-z][a-z-]{3,}(?:ity|ness)|generali[sz]ation))"
    r"(?= and | than | across | of | on | in | to |[,.;:)]| compared)"
)
# Qualities that name a measure only with a word that says of what: 'better reasoning ability',
# 'higher sample quality', not 'better ability' or 'higher quality'.
_UNNAMED_ALONE_QUALITIES = frozenset(("ability", "capability", "quality"))
_UNMEASURED_QUALITIES = frozenset(UNMEASURED_QUALITIES) - _UNNAMED_ALONE_QUALITIES
# A count compared by a factor: '3× fewer parameters', '10x more tokens'.
_COMPARED_COUNTS = frozenset(("fewer", "more", "less"))
_FACTOR_BEFORE = re.compile(rf"(?<![\w.])\$?\d+(?:\.\d+)?\s?(?:{_TIMES}|times)\s$")


def _quality_at(text: str, position: int) -> tuple[int, int] | None:
    """'better transferability than', 'better reasoning ability and generalization': a quality noun
    a comparison names, unless it is a property of a method ('lower complexity'), with the word
    before it that says which ('reasoning ability', 'adversarial robustness'). Not after a verb of
    change without a value ('improves generalization'): that names no measured value."""
    quality = _QUALITY.match(text, position)
    if quality is None or quality.group(2) in _UNMEASURED_QUALITIES:
        return None
    if quality.group(2) in _UNNAMED_ALONE_QUALITIES and quality.start(1) == quality.start(2):
        return None  # 'better ability', but 'better reasoning ability'

    modifier = quality.group(1)[: quality.start(2) - quality.start(1)].strip()
    if modifier and (
        not (_may_be_in_measure(modifier) or modifier in _NOUN_STOPS) or modifier in _PREPOSITIONS
    ):
        return None  # not 'better the quality'; 'higher sample quality' is a measure
    return quality.span(1)


def _counted_at(text: str, position: int) -> tuple[int, int] | None:
    """'3× fewer parameters', '10x more training tokens': the noun phrase a factor compares is
    what is measured, when it ends where the words that may be counted end ('than', 'per', a
    comma), not at a describing word ('2× more diverse prompts')."""
    words: list[re.Match[str]] = []
    while len(words) < MAX_MEASURE_WORDS:
        word = _WORD.match(text, position)
        if word is None or not _may_be_counted(word.group()):
            break
        words.append(word)
        if not text.startswith(" ", word.end()):
            break
        position = word.end() + 1
    if not words or len(words) == MAX_MEASURE_WORDS or words[-1].group() in _UNMEASURED:
        return None
    end = words[-1].end()
    following = _WORD.match(text, end + 1) if text.startswith(" ", end) else None
    if following is not None and (following.group() in MEASURE_CUES or following.group().endswith("ly")):
        return None
    return words[0].start(), end


def _may_be_counted(word: str) -> bool:
    # What is counted may be a word tasks stop at ('tokens', 'samples'); a rate's 'per' ends it.
    return not (
        word in FUNCTION_WORDS
        or word in MEASURE_CUES
        or word in _PREPOSITIONS
        or word == "per"
        or word.endswith("ly")
    )


def _may_be_in_measure(word: str) -> bool:
    # A cue word starts a measure of its own ('higher accuracy and lower latency'); an adverb
    # qualifies the cue ('significantly lower latency'); a factor is a value ('achieve 26x
    # compression rate'); a preposition puts the measure after it ('a balance between accuracy
    # and ...', 'over time').
    return not (
        word in FUNCTION_WORDS
        or word in TASK_WORD_STOPS
        or word in MEASURE_CUES
        or word in _NOT_IN_MEASURE
        or word.endswith("ly")
        or (word[0].isdigit() and word.endswith("x"))
    )


_NOT_IN_MEASURE = frozenset(PREPOSITIONS) | frozenset(("vs", "versus", "regarding"))


def _continues(text: str, end: int) -> bool:
    """Whether a lower-case word follows end: the phrase goes on past it ('training time
    efficiency'); not a function word or a preposition ('calibration error across tasks')."""
    word = _WORD.match(text, end + 1) if text.startswith(" ", end) else None
    return word is not None and word.group() not in FUNCTION_WORDS and word.group() not in _PREPOSITIONS


_BOUND_RATE = re.compile(rf"(?:{alternation(BOUND_RATE_WORDS)}) ")
_HYPERPARAMETERS = frozenset(HYPERPARAMETER_NAMES)


def _names_alone(text: str, start: int, end: int) -> bool:
    """Whether the phrase [start, end) names a measure by itself: several words or a head that
    needs none before it ('regret', not 'cost')."""
    return " " in text[start:end] or text[start:end] not in _NEEDS_MODIFIER


def add_measure(paper: PaperState, span: tuple[int, int]) -> None:
    """The text at span as a metric, as every measure rule adds one (evaluated.py and beaten.py too), without
    the words that say how a bound grows ('bounded regret' is regret)."""
    start, end = span
    while (rate := _BOUND_RATE.match(paper.text, start, end)) and _names_alone(paper.text, rate.end(), end):
        start = rate.end()
    if paper.text[start:end].lower() in _HYPERPARAMETERS:
        return  # 'a smaller learning rate than Adam' names a setting
    inside = [(s, e) for s, e in paper.covered if s < end and start < e]
    if inside:
        holders = [e for e in paper.entities.values() if e.spans & set(inside)]
        if not all(start <= s and e <= end for s, e in inside) or any(
            holder.entity_type != "metric" for holder in holders
        ):
            return
        if not paper.make_room(start, end):
            return
    paper.add(paper.text[start:end], "metric", (start, end))


# --- measures tied to a value ---------------------------------------------------------------------
# A value with its unit, then what it is a value of: '13.5% higher model accuracy', '38% BitOPs
# reduction', 'a 50% reduction in FLOPs'. A measure head is not needed here: the value says the
# phrase is measured.
_VALUE = re.compile(rf"{_leading_digits('+-')}(?:\.\d+)?\+?\s?(?:%|\\%|{_TIMES})(?:\s(?:points|pp))?(?=\s)")
_VALUED_COMPARATIVE = re.compile(
    # Not 'more' or 'fewer': what a factor counts is left to the count rule ('12% more puzzles').
    r"\s(?:(?:higher|lower|better|faster|greater|improved|reduced|increased)\s)"
)
_CHANGE_NOUN = (
    r"(?:reductions?|improvements?|gains?|increases?|decreases?|drops?|boosts?|savings?|degradations?)"
)
_VALUED_CHANGE_IN = re.compile(
    rf"\s(?:(?:relative|absolute|average|overall)\s)?{_CHANGE_NOUN}\s(?P<prep>in|on)\s(?!terms\b)(?:the\s)?"
    r"(?:(?:[a-z]+['’]s)\s)?"
)
# A word of the phrase: lower case, or an acronym with capitals after its first letter ('FLOPs',
# 'BitOPs', 'MAE'), not a capitalised word (a name or a sentence's first word).
_VALUED_WORD = re.compile(r"(?:[a-z][a-z0-9@-]*|[A-Z][A-Za-z0-9@-]*[A-Z][A-Za-z0-9@-]*)(?=[\s,.;:)]|$)")
# Where the phrase a value is of ends: punctuation, or a word that starts what follows it.
_VALUED_END = re.compile(
    r"\s*(?:[,.;:)(]|$)|\s(?:than|per|with|while|and|or|compared|relative|on|in|for|at|during|across"
    r"|over|when|without|by|under|versus|vs|which|that|to|as|from|using|is|are|was|were|of|but|yet)\b"
)
# A value, then "in" and a measure named by its head: 'by 12% in episodic reward'.
_VALUE_IN = re.compile(r"\sin\s(?!terms\b)")
_GAINED_IN_HEADS = frozenset(GAINED_IN_HEADS)
# A count of operations right after a value is what the value is of: 'only 26% FLOPs', '4× MACs'.
_OPERATIONS_COUNTED = re.compile(
    r"(?:[GMT]?FLOPs?|[GM]?MACs|(?:Bit|[GMT])?OPs)(?=\s*(?:[,.;:)]|$)|\s(?![A-Z]))"
)
# A verb that saves or cuts by the value after it: what follows the value is what is saved.
_SAVED_BEFORE = re.compile(
    r"\b(?:saves?|saving|cuts?|cutting)\s(?:(?:up to|about|around|nearly|over|≈|~)\s?)*$"
)
# A change named before its value: 'an average reduction of 22% in average kurtosis'.
_CHANGE_OF_BEFORE = re.compile(
    rf"\b{_CHANGE_NOUN}\sof\s(?:(?:up to|about|around|nearly|over|approximately)\s)?$"
)
_NEXT_VALUE = re.compile(r"(?:\s+of\s+[\w\s-]{1,40}?)?,?\s+(?:and\s+)?")
_VALUED_CHANGE_AFTER = re.compile(rf"\s{_CHANGE_NOUN}(?=[\s,.;:)]|$)")
# Savings name a measure with what is saved, as a cued measure does ('memory savings',
# SECOND_MEASURE_HEADS); a reduction or a gain is a change in the measure before it ('38% BitOPs
# reduction' is BitOPs).
_SAVINGS_AFTER = re.compile(r"\ssavings?(?=[\s,.;:)]|$)")
# Heads that say a value is a setting, a share or a change, not what it measures.
_NOT_VALUED_HEADS = frozenset(
    (
        *("number", "amount", "total", "fraction", "portion", "share", "proportion", "part", "factor"),
        *("margin", "times", "time", "improvement", "improvements", "gain", "gains", "reduction"),
        *("reductions", "increase", "decrease", "drop", "boost", "relative", "absolute", "average"),
        *("overall", "size", "sizes", "steps", "parameter", "iterations", "epochs", "examples"),
        # What is done or where, not what is measured: 'faster inference', 'higher in settings'.
        *("inference", "training", "decoding", "often", "area", "areas"),
        *("tasks", "settings", "benchmarks", "datasets", "domains", "environments", "scenarios"),
        *("metric", "metrics"),
    )
)
_ADJECTIVE = re.compile(r"(?:icient|sistent|erent|ive|ble|ous|ful|ly|est|al|ic|ed|ing|ar)$")
# The words of TASK_WORD_STOPS that are nouns: a measure may hold them ('model size', 'token count').
_NOUN_STOPS = frozenset(
    (
        *("model", "models", "data", "label", "labels", "sample", "samples", "token", "tokens"),
        *("feature", "features", "output", "outputs", "response", "responses"),
    )
)
MAX_VALUED_WORDS = 3


def add_valued_measures(paper: PaperState) -> None:
    """What a value is given for, named right after it: '13.5% higher model accuracy', '87× lower
    computation energy', '38% BitOPs reduction', 'a 50% reduction in FLOPs', 'saves 80% budget'."""
    text = paper.text
    if "%" not in text and "×" not in text and "x " not in text and "\\times" not in text:
        return
    changed_end = -1  # the end of the last phrase a change noun's value was gained in
    for value in _VALUE.finditer(text):
        end = value.end()
        after = _VALUED_COMPARATIVE.match(text, end) or _VALUED_CHANGE_IN.match(text, end)
        if after is not None:  # 'a gain on X' needs a measure head, 'a gain in X' none
            read = _measure_at if after.groupdict().get("prep") == "on" else _valued_phrase
            span = read(text, after.end())
        elif (value_in := _VALUE_IN.match(text, end)) is not None:
            span = _measure_in(text, _LEAD.match(text, value_in.end()).end())
            # 'a drop of 3% in X', and the values listed after it: 'of 22% in X and 26% in Y'
            if _CHANGE_OF_BEFORE.search(text, max(0, value.start() - 40), value.start()) or (
                changed_end >= 0 and _NEXT_VALUE.fullmatch(text, changed_end, value.start())
            ):
                span = span or _valued_phrase(text, _LEAD.match(text, value_in.end()).end())
                changed_end = span[1] if span else -1
        else:
            span = _valued_phrase(text, end + 1, _VALUED_CHANGE_AFTER)
            if span is not None and (saved := _SAVINGS_AFTER.match(text, span[1])) is not None:
                span = (span[0], saved.end())  # what is saved is named with it: '20× energy savings'
            if span is None and (count := _OPERATIONS_COUNTED.match(text, end + 1)) is not None:
                span = count.span()
            if span is None and _SAVED_BEFORE.search(text, max(0, value.start() - 30), value.start()):
                span = _valued_phrase(text, end + 1)  # 'saves up to 80% computational budget'
        # A measure found inside the phrase, not at its end, is what the value is of: '2.3× lower
        # latency deadlines' compares latency.
        if span is None or any(s < span[1] and span[0] < e < span[1] for s, e in paper.covered):
            continue
        if span in paper.covered:
            _retype_as_measure(paper, span)
        else:
            add_measure(paper, span)


def _measure_in(text: str, position: int) -> tuple[int, int] | None:
    """What a value is gained in: a measure named by its head ('by 3% in top-1 accuracy'), or a
    phrase ending in what an agent gains ('by 12% in episodic reward')."""
    span = _measure_at(text, position)
    if span is None:
        span = _valued_phrase(text, position)
        if span is not None and text[span[0] : span[1]].rpartition(" ")[2] not in _GAINED_IN_HEADS:
            return None
    return span


def _retype_as_measure(paper: PaperState, span: tuple[int, int]) -> None:
    """A name a value is of is a metric, though the shapes took it for a method ('38% BitOPs
    reduction'), unless a lexicon knows it or the paper defines it."""
    owners = [e for e in paper.entities.values() if span in e.spans]
    if len(owners) != 1:
        return
    owner = owners[0]
    if owner.entity_type == "method" and not (owner.known or owner.expansion or owner.proposed):
        paper.retype(owner, "metric")


def _valued_phrase(text: str, position: int, end_pattern: re.Pattern = _VALUED_END) -> tuple[int, int] | None:
    """The phrase of up to MAX_VALUED_WORDS words from position that end_pattern ends, if its last
    word may name what is measured."""
    words: list[re.Match[str]] = []
    while len(words) < MAX_VALUED_WORDS:
        word = _VALUED_WORD.match(text, position)
        if word is None or not _may_be_valued(word.group()):
            return None
        words.append(word)
        if end_pattern.match(text, word.end()):
            break
        if word.group().endswith("s") and not word.group().endswith("ss") and word.group().islower():
            return None  # a plural, or a verb, goes before no more of the phrase: '0.1% parameters yields'
        if not text.startswith(" ", word.end()):
            return None
        position = word.end() + 1
    else:
        return None
    while len(words) > 1 and words[0].group() in _METRIC_FILLERS:
        words.pop(0)  # 'higher average success rate' is success rate
    head = words[-1].group()
    if head in _NOT_VALUED_HEADS or head in _UNMEASURED or head in TASK_HEADS or head in METRIC_FILLERS:
        return None
    if head.islower() and _ADJECTIVE.search(head):
        return None
    return words[0].start(), words[-1].end()


def _may_be_valued(word: str) -> bool:
    return word in _NOUN_STOPS or not (
        word in FUNCTION_WORDS
        or word in TASK_WORD_STOPS
        or word in MEASURE_CUES
        or word in _PREPOSITIONS
        or word.endswith("ly")
    )
