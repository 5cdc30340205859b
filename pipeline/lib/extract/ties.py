"""What a sentence ties to a number: the cues (metric, dataset and system mentions) near it, found
by bisection, and the dataset a result is measured on.

results.py finds the numbers and their metric with these; compared.py the systems compared.
"""

from __future__ import annotations

import bisect
import re
from itertools import islice
from typing import NamedTuple, TypeVar

from pipeline.lib.extract.vocabulary import CHANGE_NOUNS, alternation

# "a BLEU of 32.8 and 15.1", "MAE/RMSE of 2.43 / 4.73": the next score of a list.
NUMBER_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+|or\s+|/\s*|vs\.?\s+|versus\s+)", re.IGNORECASE)
# ... past what each was measured with, no value of its own: "by 52× (ConvNet-4) and 16× (ResNet-18)".
_LISTED_GAP = re.compile(r"(?:\s*\([^()%×;]{1,30}\))?" + NUMBER_LIST_GAP.pattern, re.IGNORECASE)
# ... of one measure: not "5x or 3.5x improvement in accuracy", alternatives that may be two.
SAME_MEASURE_GAP = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+|/\s*|vs\.?\s+|versus\s+)", re.IGNORECASE)
# Between a number and the dataset it is measured on: a few words of its metric, then a preposition.
_DATASET_GAP_AFTER = re.compile(
    r"(?:\s*\(|(?:\s+[^\W\d][\w@-]*){0,4}\s+(?:on|in|across|of)\s+(?:the\s+)?"
    r"(?:(?:challenging|popular|standard|widely[- ]used|public|real-world)\s+)?)"
)
_MAX_DATASET_GAP = 60
# A dataset that opens a clause: "On ImageNet, ...", "For COCO, ...".
_CLAUSE_OPENING = re.compile(r"\b(?:[Oo]n|[Ff]or|[Ii]n)\s+(?:the\s+)?$")
# What a sentence may say before the dataset it opens on: a word or two ("Notably on A, ...",
# "Experiments on A show ..."), the task ("For object detection on A, ..."), or both ("Specifically,
# for image classification on A").
# Not what a model was trained on: "Trained on A, it beats the baseline by 5.1%".
_OPENING_LEAD = re.compile(
    r"(?!(?:Trained|Training|Pre-?trained|Fine-?tuned|Learned)\b)"
    r"(?:[A-Z][a-z]+(?:\s+[a-z]+)?,?\s+)(?:(?:for|in)\s+(?:[a-z][\w-]*\s+){1,4})?|(?:For|In)\s+(?:[a-z][\w-]*\s+){1,4}"
)
_CLAUSE_BREAK_BEFORE = re.compile(r"[;:]\s*$")
_DATASET_GAP_BEFORE = re.compile(r"(?:\s+(?:dataset|benchmark)s?)?,?\s(?:[^;.]|\.\d){0,150}")
_DATASET_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|/\s*)(?:the\s+)?")
# "by 2.4% and 1.2% in terms of F1 and AUROC", "... in F1 and AUROC": metrics after a list of numbers.
_METRICS_GAP_AFTER = re.compile(r"\s+(?:in\s+terms\s+of|in|on|for)\s+(?:the\s+)?", re.IGNORECASE)
# "RMSE and CRPS by up to 4.6% and 4.3%", "an F1 and AUC of 71.2 and 80.4".
_METRICS_GAP_BEFORE = re.compile(r"\s+(?:by|of)\s+(?:(?:up\s+to|about|around|nearly|over)\s+)?")
# A verb of change, then the measure it changes: "improves the top-1 accuracy", "reduce latency"; or
# a noun of change and "in": "a reduction in the FPR".
_CHANGE_VERB_BEFORE = re.compile(
    r"\b(?:(?:improv|increas|boost|rais|enhanc|reduc|decreas|lower|cut|surpass|exceed|outperform)\w*"
    rf"|(?:{alternation(CHANGE_NOUNS)})s?\s+in)\s+(?:(?:the|its|their|our)\s+)?$",
    re.IGNORECASE,
)
# ... then whose, where or against what ("of A and B", "across tasks", "on both splits", "with human
# ratings") and "by" or "from" the number.
_CHANGE_OF = re.compile(
    r"(?:\s+(?:(?P<of>of)|for|across|on|in|with)\s+(?P<what>[^;:.()%×]{1,80}?),?)?\s+(?:(?P<from>from)|by)\s+"
    r"(?:(?:up\s+to|about|around|nearly|over|approximately|a\s+relative|an\s+average\s+of)\s+)?",
    re.IGNORECASE,
)
# "improves the F1 from 45.2 to 61.8": both ends of the change are values of the measure.
_FROM_BEFORE = re.compile(r"\sfrom\s+$", re.IGNORECASE)
_TO_BETWEEN = re.compile(r"\s*(?:to|→|->)\s*", re.IGNORECASE)
_BY_BEFORE = re.compile(
    r"\sby\s+(?:(?:up\s+to|about|around|nearly|over|approximately|a\s+relative|an\s+average\s+of)\s+)?$",
    re.IGNORECASE,
)
_MAX_CHANGE_PHRASE = 120
# A name cut short: "A" of "A-v8-n" or of "A Code Interpreter" is not the system compared
# ("A-based" and "A-backboned" name A).
NAME_GOES_ON = re.compile(r"\w|-(?![a-z]{4,}\b)\w|\s+[A-Z][\w-]*")
# "9× fewer rounds,", "6× less client computation per round": up to three words, then their end.
_COMPARATIVE_QUANTITY = re.compile(
    r"\s+(?:fewer|less|lower|smaller|reduced|higher|greater|larger)\s+"
    r"(?P<quantity>[A-Za-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"
    r"(?=\s*(?:[,.;:)]|$)|\s+(?:than|per|with|while|and|compared|relative|on|in|for|at|during|across"
    r"|over|when|without|by|under|versus|vs|which|that|to)\b)"
)
# ... not an article, a preposition or a word of quality: "lower bound", "2× less expensive"
_NOT_A_QUANTITY = re.compile(
    r"\b(?:the|a|an|of|than|bound|bounds|[a-z]+(?:icient|sistent|erent|ive|ble|ous|ful|ly|est))\b",
    re.IGNORECASE,
)
# "on A (75.0%)", "on A by 3%", "on the hard benchmark, A, by +2 points".
_DATASET_THEN_NUMBER = re.compile(
    r"(?P<parenthesis>\s*\(\s*)|,?\s+by\s+(?:(?:up\s+to|about|around|nearly|over|approximately|roughly|almost|at\s+least)\s+)?"
)
_ON_BEFORE = re.compile(r"\b(?:on|in|across)\s+(?:the\s+)?(?:[^,;.()]{1,60},\s*)?$", re.IGNORECASE)
_LIST_OPENING = re.compile(r"\s*(?:On|For|In|Across)\s+(?:the\s+)?")
_LIST_CLOSE = re.compile(r"(?:\s+(?:datasets?|benchmarks?|tasks?))?,")
# Between numbers in parallel: where each was measured, then a list's comma or "and".
_PARALLEL_GAP = re.compile(
    r"(?:\s+(?:on|for|in|across)\s+(?:the\s+)?[^\W\d][^,;.()%×]{0,50}?)?(?:\s*,\s*(?:and\s+)?|\s+and\s+)"
)
# ... or past the first one's measure, when the next is measured on something of its own right
# after it: "63.3% accuracy on AlphaSet and 95.6% on BetaSet".
_MEASURED_PARALLEL_GAP = re.compile(
    r"(?:\s+[^\W\d][\w@-]*){1,3}?\s+(?:on|for|in|across|over)\s+(?:the\s+)?[^\W\d][^,;.()%×]{0,50}?"
    r"(?:\s*,\s*(?:and\s+)?|\s+and\s+)"
)
_MEASURED_ON = re.compile(
    r"\s+(?:(?:less|more|higher|lower|better|worse|faster|slower)\s+)?(?:on|for|in|across|over)\s"
)
_NAME_LIKE = re.compile(r"(?=[\w.-]*[A-Z][\w.-]*[A-Z\d])[A-Z][\w.-]*[\w](?<![A-Z]s)")
_NOT_NAMES = frozenset({"SOTA", "SOTAS", "SOTA.", "AI", "GPU", "GPUS", "CPU", "TPU"})
# "83.5% on A, outperforming (a similarly sized) B by 1.4%": the systems beaten after a score.
_BEATING_AFTER = re.compile(
    r"[^;\d]{0,80}?(?:,\s*|\s+)(?:\w+ly\s+)?(?:outperforming|surpassing|exceeding|beating)\s+"
    r"(?:(?:the|a|an)\s+)?(?:[a-z][\w-]*\s+){0,3}?(?P<object>[^;.,()\s][^;.,()]{0,60}?)"
    r"(?=\s+(?:by|on|in|across|for|with|using|while|when|at|under|and\s+(?:achiev|reach|obtain))|\s*[,;.(]|$)"
)
# "outperforms B, achieving 100%": the systems beaten before a score.
_BEATING_BEFORE = re.compile(
    r"\b(?:outperform|surpass|beat|exceed)(?:s|es|ed)?\s+(?:(?:the|a|an)\s+)?(?P<object>[^;.,()\d\s][^;.,()\d]{0,60}?),"
    r"\s*(?:achieving|reaching|attaining|obtaining|yielding)\s+[^;\d]{0,60}$"
)
_OWN_VALUE = re.compile(r"\s*\(\s*$")
_BEATING_CUE = re.compile(r"\b(?:outperform|surpass|beat|exceed)\w*\b[^;]*$", re.IGNORECASE)
_LOWER_WORDS = re.compile(r"(?:[a-z][\w-]*\s+)*")
_SYSTEMS_GAP = re.compile(r"(?:\s|,|\b(?:and|or|such\s+as)\b)*", re.IGNORECASE)
_THE = re.compile(r"(?:the\s+)?", re.IGNORECASE)
_RESPECTIVELY_LATER = re.compile(r"[^.;]{0,150}?\brespectively\b")
_RESPECTIVELY = re.compile(r"(?:\s+(?:datasets?|benchmarks?))?,?\s+respectively\b")


class Cue(NamedTuple):
    start: int
    end: int
    name: str


class System(NamedTuple):
    """A mention of a compared system, sorted by start; index is its place among the mentions."""

    start: int
    index: int
    end: int
    name: str


Span = TypeVar("Span", Cue, System)


def within(spans: list[Span], start: int, end: int) -> list[Span]:
    """The cues or systems (sorted) inside [start, end): bisected, as a text of many sentences and
    many cues would otherwise cost their product."""
    inside = spans[bisect.bisect_left(spans, (start,)) : bisect.bisect_left(spans, (end + 1,))]
    return [span for span in inside if span.end <= end]


def beside(mentions: list[Cue], builtin: list[Cue]) -> list[Cue]:
    """The mentions (sorted, apart) and the built-in cues that overlap none of them, sorted."""
    starts = [mention.start for mention in mentions]
    kept = list(mentions)
    for cue in builtin:
        before = bisect.bisect_left(starts, cue.end)  # the mentions starting before the cue ends
        if not before or mentions[before - 1].end <= cue.start:
            kept.append(cue)
    return sorted(kept)


class Cues:
    """Cues (sorted), indexed by start and by end, so that those near a number are found by
    bisection: a text of a thousand metrics and as many numbers would otherwise cost their product."""

    def __init__(self, cues: list[Cue]) -> None:
        self.cues = cues
        self.starts = [cue.start for cue in cues]
        # (end, -index): the last entry ending by a position is the first cue, in order, of those
        # that end nearest before it.
        self.by_end = sorted((cue.end, -k) for k, cue in enumerate(cues))

    def starting_between(self, low: int, high: int) -> list[Cue]:
        return self.cues[bisect.bisect_left(self.starts, low) : bisect.bisect_right(self.starts, high)]

    def ending_between(self, low: int, high: int) -> list[Cue]:
        first = bisect.bisect_left(self.by_end, (low, -len(self.cues)))
        return [
            self.cues[-minus_k]
            for _, minus_k in self.by_end[first : bisect.bisect_right(self.by_end, (high, 1))]
        ]


def compared_quantity(text: str, end: int, unit: str | None) -> str | None:
    """The quantity a change [.., end) counts, named after its comparative: "9× fewer rounds",
    "87× lower computation energy than A", "100× less communication per round". Not a quality
    ("2× more efficient"), nor a plain value's words."""
    if unit not in ("%", "×"):
        return None
    after = _COMPARATIVE_QUANTITY.match(text, end)
    if after is None or _NOT_A_QUANTITY.search(after["quantity"]):
        return None
    return after["quantity"]


def unknown_name(text: str, start: int) -> str | None:
    """A name no mention found, right after a word of comparison: written as names are (several
    capitals or a digit: "HNeRV", "DCVC", "Foo-2"), whole (not followed by more of a name), and
    not a family or a description ("LLMs", "SOTA")."""
    name = _NAME_LIKE.match(text, start)
    if name is None or NAME_GOES_ON.match(text, name.end()) or name.group().upper() in _NOT_NAMES:
        return None
    return name.group()


def named_in(text: str, systems: list[System], start: int, end: int) -> list[str]:
    """The systems [start, end) names: its mentions, or a name no mention found that is all of it
    ("outperforms HNeRV by 3%", "improves the F1 of the DCVC by 3%")."""
    if systems:
        return [system.name for system in systems]
    start += len(_THE.match(text, start).group())
    name = unknown_name(text, start)
    return [name] if name and start + len(name) == end else []


def beaten_beside(
    text: str, systems: list[System], clause: tuple[int, int], start: int, end: int
) -> str | None:
    """The systems a clause beats beside a score of its own: "reaches 83.5% on A, outperforming B
    by 1.4%", "outperforms B, achieving 100% preference" (B, named whole before any number)."""
    systems = [s for s in systems if s.index >= 0 and not NAME_GOES_ON.match(text, s.end)]
    own = _OWN_VALUE.search(text, max(clause[0], start - 4), start)
    beaten = own and next((s for s in reversed(systems) if s.end == own.start()), None)
    if beaten and _BEATING_CUE.search(text, max(clause[0], beaten.start - 100), beaten.start):
        return beaten.name  # "outperforming baselines such as A (15.0%) and B (9.8%)": A's own
    after = _BEATING_AFTER.match(text, end, clause[1])
    before = None if after else _BEATING_BEFORE.search(text, max(clause[0], start - 150), start)
    found = after or before
    if found is None:
        return None
    start, end = found.span("object")
    start = _LOWER_WORDS.match(text, start, end).end()  # "a similarly sized A", "baselines such as A"
    named = within(systems, start, end)
    gaps = zip([start] + [s.end for s in named], [s.start for s in named] + [end], strict=True)
    if named and not all(_SYSTEMS_GAP.fullmatch(text, low, high) for low, high in gaps):
        return None  # "existing A-based generative models": more than the systems
    return ", ".join(named_in(text, named, start, end)) or None


def number_groups(
    text: str, found: list[tuple[int, int, float | None, str | None]], gap: re.Pattern = _LISTED_GAP
) -> list[range]:
    """The results (indices, in order) listed together: "8.8% and 11.6%", "2.57, 2.33 and 2.1"."""
    groups = []
    group_start = 0
    for k in range(len(found)):
        if k + 1 < len(found) and gap.fullmatch(text, found[k][1], found[k + 1][0]):
            continue  # the next number is listed with this one: the group goes on
        groups.append(range(group_start, k + 1))
        group_start = k + 1
    return groups


def shared_in_groups(values: list[str | None], groups: list[range]) -> list[str | None]:
    """Each group's one named value given to its members that name none: "42.5% and 60.8% top-1
    accuracy" are both top-1 accuracy. A group whose members name different values keeps them."""
    shared = list(values)
    for group in groups:
        named = {values[k] for k in group} - {None}
        if len(group) > 1 and len(named) == 1:
            (value,) = named
            for k in group:
                shared[k] = value
    return shared


def paired_systems(
    text: str,
    found: list[tuple[int, int, float | None, str | None]],
    compared: list[str | None],
    groups: list[range],
    datasets: list[str | None],
) -> list[str | None]:
    """A group of numbers whose first (or, the comparison after them, last) is compared with as many
    systems as the group has numbers, each with its own: "outperforms A and B by 3% and 5%", "3%
    and 5% higher than A and B" (A, then B); with one system before
    "by", all of them: "surpasses A by 6.3%, 9.6% and 5.5% on B, C and D(, respectively)", unless
    a "respectively" pairs the numbers with something other than datasets ("of A and B by 1.4% and
    0.6%, respectively", B not known as a system)."""
    paired = list(compared)
    for group in groups:
        names = (compared[group[0]] or "").split(", ")
        last = (compared[group[-1]] or "").split(", ")
        if len(group) > 1 and len(last) == len(group) and not any(compared[k] for k in group[:-1]):
            # The comparison after the last number: "1.2% and 0.96% higher than A and B" (A, then B).
            for index, k in enumerate(group):
                paired[k] = last[index]
            continue
        if len(group) < 2 or any(compared[k] for k in group[1:]):
            continue
        by = _BY_BEFORE.search(text, max(0, found[group[0]][0] - 30), found[group[0]][0])
        respectively = _RESPECTIVELY_LATER.match(text, found[group[-1]][1])
        by_datasets = len({datasets[k] for k in group} - {None}) == len(group)
        shared = by and compared[group[0]] and len(names) == 1 and (by_datasets or not respectively)
        if len(names) == len(group) or shared:
            for index, k in enumerate(group):
                paired[k] = names[min(index, len(names) - 1)]
    return paired


def parallel(
    text: str,
    found: list[tuple[int, int, float | None, str | None]],
    metrics: list[str | None],
    compared: list[str | None],
) -> tuple[list[str | None], list[str | None]]:
    """Numbers in parallel, each with where it was measured ("by 10% for retrieval and 4% for
    captioning", "gains of 11.5% on A, 26.1% on B, and 8.1% on C"), share the one metric named
    for them, and the system the first is compared with after "by"."""
    metrics, compared = list(metrics), list(compared)
    for group in _parallel_groups(text, found):
        if len(group) < 2:
            continue
        named = {metrics[k] for k in group} - {None}
        if len(named) == 1:
            (metric,) = named
            for k in group:
                metrics[k] = metric
        by = _BY_BEFORE.search(text, max(0, found[group[0]][0] - 30), found[group[0]][0])
        respectively = _RESPECTIVELY_LATER.match(text, found[group[-1]][1])  # pairs, not shares
        if by and compared[group[0]] and not respectively and not any(compared[k] for k in group[1:]):
            for k in group:
                compared[k] = compared[group[0]]
    return metrics, compared


def _parallel_groups(text: str, found: list[tuple[int, int, float | None, str | None]]) -> list[range]:
    """The results (indices, in order) in parallel: number_groups with _PARALLEL_GAP, and past a
    measure when the next number is measured on something right after it."""
    groups = []
    group_start = 0
    for k in range(len(found)):
        if k + 1 < len(found) and (
            _PARALLEL_GAP.fullmatch(text, found[k][1], found[k + 1][0])
            or (
                _MEASURED_PARALLEL_GAP.fullmatch(text, found[k][1], found[k + 1][0])
                and _MEASURED_ON.match(text, found[k + 1][1])
            )
        ):
            continue
        groups.append(range(group_start, k + 1))
        group_start = k + 1
    return groups


def paired_metrics(
    text: str,
    found: list[tuple[int, int, float | None, str | None]],
    groups: list[range],
    metrics_of: list[Cues],
    metrics: list[str | None],
) -> list[str | None]:
    """Numbers listed with as many metrics, each number its own: "by 2.4% and 1.2% in terms of F1
    and AUROC, respectively", "reduces RMSE and CRPS by 4.6% and 4.3%". Listed with a list of
    metrics the sentence does not pair with them, they take none."""
    paired = list(metrics)
    for group in groups:
        if len(group) < 2:
            continue
        cues = metrics_of[group[0]]
        after = _metrics_listed_after(text, cues, found[group[-1]][1], len(group))
        before = _metrics_listed_before(text, cues, found[group[0]][0], len(group))
        if len(after) == len(group) and _RESPECTIVELY.match(text, after[-1].end):
            listed: list[Cue | None] = list(after)
        elif len(after) < 2 and len(before) == len(group):
            listed = list(before)
        elif len(after) > 1 or len(before) > 1:
            listed = [None] * len(group)
        else:
            continue
        for k, cue in zip(group, listed, strict=True):
            paired[k] = cue and cue.name
    return paired


def _metrics_listed_after(text: str, cues: Cues, end: int, count: int) -> list[Cue]:
    """The metrics (up to one more than `count`) listed right after a group of numbers."""
    first = bisect.bisect_left(cues.starts, end)
    if first == len(cues.cues) or not _METRICS_GAP_AFTER.fullmatch(text, end, cues.starts[first]):
        return []
    listed = [cues.cues[first]]
    for cue in islice(cues.cues, first + 1, first + 2 * count + 2):
        if len(listed) > count:
            break
        if cue.start < listed[-1].end:
            continue  # inside the last one listed
        if not _DATASET_LIST_GAP.fullmatch(text, listed[-1].end, cue.start):
            break
        listed.append(cue)
    return listed


def _metrics_listed_before(text: str, cues: Cues, start: int, count: int) -> list[Cue]:
    """The metrics (up to one more than `count`) listed right before a group of numbers, joined
    to it by "by" or "of"."""
    ended = bisect.bisect_right(cues.by_end, (start, 1))
    if not ended:
        return []
    last = cues.cues[-cues.by_end[ended - 1][1]]
    if not _METRICS_GAP_BEFORE.fullmatch(text, last.end, start):
        return []
    listed = [last]
    for end, minus_k in reversed(cues.by_end[max(0, ended - 2 * count - 2) : ended - 1]):
        if len(listed) > count or end > listed[0].start:
            break
        if not _DATASET_LIST_GAP.fullmatch(text, end, listed[0].start):
            break
        listed.insert(0, cues.cues[-minus_k])
    return listed


def changed_measures(
    text: str,
    found: list[tuple[int, int, float | None, str | None]],
    groups: list[range],
    metrics_of: list[Cues],
    systems: list[System],
    sentence_starts: list[int],
) -> list[tuple[str | None, str | None]]:
    """(metric, compared system) of each result a verb of change names before "by": "improves the
    top-1 accuracy of A and B by 1.4% and 0.6%, respectively" (top-1 accuracy; A, then B),
    "reduces the latency of A by 30%" (latency; A), "raises recall across tasks by 4%" (recall).
    The systems are those the measure is "of"; as many systems as numbers pair with them."""
    changed: list[tuple[str | None, str | None]] = [(None, None)] * len(found)
    for group in groups:
        start = found[group[0]][0]
        sentence_start = sentence_starts[max(0, bisect.bisect_right(sentence_starts, start) - 1)]
        by = _BY_BEFORE.search(text, max(sentence_start, start - _MAX_CHANGE_PHRASE), start) or (
            _FROM_BEFORE.search(text, max(sentence_start, start - 6), start)
        )
        if by is None:
            continue
        cues = metrics_of[group[0]]
        for cue in reversed(cues.ending_between(by.start() - _MAX_CHANGE_PHRASE, by.start())):
            between = _CHANGE_OF.fullmatch(text, cue.end, start)
            if cue.start < sentence_start or not between:
                continue
            if not _CHANGE_VERB_BEFORE.search(text, max(sentence_start, cue.start - 30), cue.start):
                break  # the nearest measure before "by" is not what a verb changes
            names = (
                []
                if between["of"] is None or between["from"]
                else _systems_of(text, systems, between.start("what"), between.end("what"))
            )
            for index, k in enumerate(group):
                if len(names) == len(group) and len(group) > 1:
                    changed[k] = (cue.name, names[index])
                else:  # one number against all the systems; several not paired, against none
                    changed[k] = (cue.name, ", ".join(names) if len(group) == 1 and names else None)
            break
    for k in range(1, len(found)):  # "from 45.2 to 61.8": the second end as the first
        previous = found[k - 1]
        if _TO_BETWEEN.fullmatch(text, previous[1], found[k][0]) and _FROM_BEFORE.search(
            text, max(0, previous[0] - 6), previous[0]
        ):
            changed[k] = (changed[k - 1][0], changed[k][1])
    return changed


def _systems_of(text: str, systems: list[System], start: int, end: int) -> list[str]:
    """The systems named whole in [start, end): not `A-v8` of "A-v8-n", a name cut short. Names
    one space apart are one name the mentions split ("Pre-LN Transformers": `Pre-LN`, `Transformers`)."""
    names: list[str] = []
    run_start = -1
    inside = within(systems, start, end)
    for k, system in enumerate(inside):
        if run_start < 0:
            run_start = system.start
        if k + 1 < len(inside) and inside[k + 1].start == system.end + 1 and text[system.end] == " ":
            continue  # the next mention goes on with this name
        if not NAME_GOES_ON.match(text, system.end):
            names.append(system.name if run_start == system.start else text[run_start : system.end])
        run_start = -1
    return names


def tied_datasets(
    text: str,
    found: list[tuple[int, int, float | None, str | None]],
    datasets: Cues,
    sentence_starts: list[int],
    groups: list[range],
) -> list[str | None]:
    """The dataset the sentence ties to each result, in order. Numbers listed together ("8.8% and
    11.6% on A") share the dataset named right after them, or pair with a list of as many
    datasets ("62% and 71% on A and B, respectively"); failing that, a dataset the clause opens
    with ("On A, it reaches 76.2%") is theirs. A list of datasets the sentence does not pair with
    its numbers ties none."""
    tied: list[str | None] = [None] * len(found)
    for group in groups:
        k = group[-1]
        listed = _datasets_listed_after(text, datasets, found[k][1])
        if len(listed) == 1 or (len(listed) == len(group) and _RESPECTIVELY.match(text, listed[-1].end)):
            for index, member in enumerate(group):
                tied[member] = listed[min(index, len(listed) - 1)].name
        elif not listed:
            start = found[group[0]][0]
            sentence_start = sentence_starts[max(0, bisect.bisect_right(sentence_starts, start) - 1)]
            right_before = _dataset_right_before(text, datasets, start, sentence_start)
            opening = right_before or _dataset_opening_clause(text, datasets, start, sentence_start)
            opened = [] if right_before else _datasets_opening_list(text, datasets, sentence_start, start)
            for index, member in enumerate(group):
                tied[member] = opened[index].name if len(opened) == len(group) > 1 else opening
    return tied


def _dataset_right_before(text: str, datasets: Cues, start: int, sentence_start: int) -> str | None:
    """A dataset the number follows in parentheses ("on A (75.0%)") or "by" ("on A by 3%",
    "on the hard benchmark, A, by 2 points")."""
    ended = bisect.bisect_right(datasets.by_end, (start, 1))
    if not ended:
        return None
    cue = datasets.cues[-datasets.by_end[ended - 1][1]]
    gap = _DATASET_THEN_NUMBER.fullmatch(text, cue.end, start)
    if cue.start < sentence_start or not gap:
        return None
    on = gap["parenthesis"] or _ON_BEFORE.search(text, max(sentence_start, cue.start - 80), cue.start)
    return cue.name if on else None


def _datasets_opening_list(text: str, datasets: Cues, sentence_start: int, start: int) -> list[Cue]:
    """The datasets a sentence opens on, listed ("On A, B, and C, ..."), when the numbers come
    after them in the same clause."""
    opener = _LIST_OPENING.match(text, sentence_start)
    if opener is None:
        return []
    listed: list[Cue] = []
    position = opener.end()
    for cue in datasets.starting_between(position, start):
        if cue.start < position:
            continue
        if not (
            _DATASET_LIST_GAP.fullmatch(text, position, cue.start) or (not listed and cue.start == position)
        ):
            break
        listed.append(cue)
        position = cue.end
    closes = listed and _LIST_CLOSE.match(text, position)
    if not closes or ";" in text[position:start]:
        return []
    return listed


def _datasets_listed_after(text: str, datasets: Cues, end: int) -> list[Cue]:
    """The datasets a number ending at `end` is measured on: the first right after it (past a few
    words of its metric and a preposition), and those listed with it."""
    first = bisect.bisect_left(datasets.starts, end)
    if first == len(datasets.cues) or datasets.starts[first] > end + _MAX_DATASET_GAP:
        return []
    if not _DATASET_GAP_AFTER.fullmatch(text, end, datasets.starts[first]):
        return []
    listed = [datasets.cues[first]]
    for cue in islice(datasets.cues, first + 1, None):  # stops at the first cue not listed
        if cue.start < listed[-1].end:
            continue
        if not _DATASET_LIST_GAP.fullmatch(text, listed[-1].end, cue.start):
            break
        listed.append(cue)
    return listed


def _dataset_opening_clause(text: str, datasets: Cues, start: int, sentence_start: int) -> str | None:
    """The dataset the clause of `start` opens with ("On A, ...", "...; for A it reaches 3%")."""
    ended = bisect.bisect_right(datasets.by_end, (start, 1))
    if not ended:
        return None
    cue = datasets.cues[-datasets.by_end[ended - 1][1]]
    opener = _CLAUSE_OPENING.search(text, max(sentence_start, cue.start - 8), cue.start)
    if cue.start < sentence_start or opener is None:
        return None
    opens = (
        opener.start() == sentence_start
        or _OPENING_LEAD.fullmatch(text, sentence_start, opener.start())
        or _CLAUSE_BREAK_BEFORE.search(text, max(sentence_start, opener.start() - 3), opener.start())
    )
    return cue.name if opens and _DATASET_GAP_BEFORE.fullmatch(text, cue.end, start) else None
