"""Numeric results in an abstract: percentages, multipliers and scores, with what they measure.

One compiled pattern finds every number with its unit over the whole text. Numbers with a result
unit (`%`, `×`, points) are kept unless the words around them say they are a setting (`95%
confidence`, `10-fold cross-validation`, `4× super-resolution`); a bare number is kept only when
a metric sits right next to it (`an F1 of 78.3`, `0.87 AUC`, `by 0.15 in rFID`) or it is the end of
a change (`from 45.2 to 61.8`). So model sizes (`7B`), years, counts (`3 datasets`), section numbers
and hyperparameters (`ε=0.1`) are not results.

The metric, dataset and compared systems come from the sentence: metric and dataset mentions
found by the entity extractor when given, else a built-in list of common metric names.

Two limits keep a hostile text (`1% 1% …` over 60,000 characters, no full stop) from flooding the
results table; real abstracts stay far below them. `find_results(text, limit=n)` stops once it has
found n results, the first ones in the text: extraction asks for MAX_RESULTS + 1 (200, and one more
to tell that the cap applies; real abstracts have 15 at most). And a result's `sentence` longer
than MAX_SENTENCE characters (2,000; the longest real one has 1,223) is stored as the MAX_SENTENCE
characters around the number, with "…" in place of the first and/or last of them where the
sentence goes on: a cut sentence is exactly MAX_SENTENCE characters long and starts or ends with
"…". Each row would otherwise hold the whole text again.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from itertools import islice
from typing import NamedTuple

from pipeline.lib.extract.carried import carried_metrics
from pipeline.lib.extract.compared import COMPARATIVE, COMPARATIVE_AFTER, COMPARED_TYPES, compared_systems
from pipeline.lib.extract.sentences import split_sentences
from pipeline.lib.extract.ties import (
    NUMBER_LIST_GAP,
    SAME_MEASURE_GAP,
    Cue,
    Cues,
    System,
    beaten_beside,
    beside,
    changed_measures,
    compared_quantity,
    number_groups,
    paired_metrics,
    paired_systems,
    parallel,
    shared_in_groups,
    tied_datasets,
    within,
)

MAX_RESULTS = 200
MAX_SENTENCE = 2000


class MentionSpan(NamedTuple):
    start: int
    end: int
    entity_type: str
    name: str


class Result(NamedTuple):
    text: str
    value: float | None
    unit: str | None
    metric: str | None
    dataset: str | None
    compared_to: str | None
    start: int
    end: int
    sentence: str


# --- numbers ---------------------------------------------------------------------------------------

_NUM = r"\d+(?:,\d{3})*(?:\.\d+)?"
_SIGNS = "+−-"
_QUANTITY = re.compile(
    # Not part of a name (Qwen3-8B, GPT-4), a version, a citation, a decimal or an error bar; the
    # lookbehinds sit after the first digit so that the scan can jump from digit to digit.
    r"(?P<low>\d(?<![\w.,@/^_]\d)(?<![\w.,@/^_+−\-][+−-]\d)(?<!±\d)(?<!± \d)\d*(?:,\d{3})*(?:\.\d+)?)"
    rf"(?:(?P<low_unit>\s?%)?(?:\s?[-–—~]\s?|\s+to\s+)(?P<high>{_NUM}))?"
    r"(?:"
    r"(?P<percent>\+?\s?%|\s(?:percent|per\s?cent)\b)"  # '10+%': over 10%
    r"|(?P<pp>\s?pp\b|\s?p\.p\.|\s(?:percentage|absolute)\s+points?\b)"
    r"|(?P<points>\s(?:points?|pts)\b)"
    r"|(?P<decibels>\s?dB\b)"
    rf"|(?P<times>\s?×(?!\s?\d)|x(?![\w×])(?!\s?\d)|\s[x×](?=\s+(?:{COMPARATIVE}))"
    r"|\s?-?fold\b|\stimes\b)"
    r"|(?![\w%]|[.,]\d|-[^\W\d]))",
    re.IGNORECASE,
)
_WORD_NUMBERS = {
    "two": 2.0,
    "three": 3.0,
    "four": 4.0,
    "five": 5.0,
    "six": 6.0,
    "seven": 7.0,
    "eight": 8.0,
    "nine": 9.0,
    "ten": 10.0,
    "twenty": 20.0,
    "hundred": 100.0,
    "thousand": 1000.0,
}
_WORD_MULTIPLIER = re.compile(
    rf"\b(?P<word>{'|'.join(_WORD_NUMBERS)})(?:-fold\b|\s+fold\b|\s+times\b(?=\s+(?:{COMPARATIVE})))",
    re.IGNORECASE,
)
# "our contributions are two-fold": a count of points, not a multiplier.
_PREDICATE_BEFORE = re.compile(r"\b(?:is|are|was|were|be)\s+$", re.IGNORECASE)
# Words right after a number that make it a setting, not a result.
_SETTING_AFTER = {
    "percent": re.compile(
        r"\s*(?:confidence|CI\b|credible|quantile|percentile|of (?:the )?(?:time|cases)\b|sparsity"
        r"|label(?:l?ed|s)\b|corruptions?|(?:label )?noise|noisy|masking|poison)",
        re.IGNORECASE,
    ),
    "times": re.compile(
        r"\s*(?:A100|H100|V100|RTX|GPUs?\b|TPUs?\b|NVIDIA|(?:super-?)?resolution|SR\b|up-?sampl|down-?sampl"
        r"|up-?scal|magnif|zoom|cross|CV\b|validation|\d)",
        re.IGNORECASE,
    ),
    "points": re.compile(r"\s*(?:clouds?|sets?|in (?:the )?(?:plane|space)|of (?:the )?(?:data|sample))"),
}
# "using only 10% of the training data": a share of the input the experiment chose, not a result.
_PERCENT_SHARE_BEFORE = re.compile(
    r"\b(?:using|with|on|requir\w*|need\w*)\s+"
    r"(?:(?:only|just|less than|fewer than|leq|≤|<|~|about|up to)\s*)*$",
    re.IGNORECASE,
)
_PERCENT_SHARE_AFTER = re.compile(
    r"\s*of (?:the )?(?:\w+ )?(?:data|dataset|labels|samples|examples|training \w+)\b", re.IGNORECASE
)
# Before "N points": only a change in score reads like this ("by 4 points", "gains of 3 points").
_POINTS_CUE_BEFORE = re.compile(
    r"(?:by|of|gains?|improvements?|increases?|boosts?|drops?|up to|over|about|nearly|roughly|average)\s+$",
    re.IGNORECASE,
)
_FROM_BEFORE = re.compile(r"from\s+$", re.IGNORECASE)
_LOOKBACK = 40

# --- metrics ---------------------------------------------------------------------------------------

_METRIC_WORDS = (
    r"(?:top-?\d+\s+|balanced\s+|average\s+|mean\s+|exact[- ]match\s+|robust\s+|certified\s+)?accuracy"
    r"|top-?\d+"
    r"|precision|recall|f1(?:[- ]scores?)?|f-(?:score|measure)|(?:macro|micro)-?f1"
    r"|(?:success|error|win|pass|hit|solve|resolve|acceptance|compression)\s+rates?|exact\s+match"
    r"|perplexity|speed-?ups?|compression|latency|memory(?:\s+(?:usage|footprint|consumption))?|throughput"
    r"|inference\s+(?:time|speed|cost)|run-?time|training\s+time|wall-?clock\s+time"
    r"|(?:spearman|pearson|kendall)(?:'s)?(?:\s+(?:rank\s+)?correlation)?|correlation"
    r"|dice(?:\s+(?:score|coefficient))?|returns?|rewards?(?!\s+models?)|elo(?:\s+rating)?|human\s+preference"
    r"|(?:word|character|equal)\s+error\s+rate|mean\s+(?:absolute|squared)\s+error|chamfer\s+distance"
    r"|inception\s+score|clip\s*score|bits\s+per\s+(?:dim(?:ension)?|character|byte)|flops"
)
_METRIC_ACRONYMS = (
    r"BLEU(?:-\d)?|ROUGE(?:-[L12])?|METEOR|CIDEr|SPICE|chrF(?:\+\+)?|BERTScore|[rg]?FID|FVD|KID|LPIPS"
    r"|PSNR|(?:MS-)?SSIM|AUC|AUROC|AUPRC|ROC-AUC|PR-AUC|mAP(?:@[\d.:]+)?|AP(?:50|75|_?[SMLsml])?|m?IoU"
    r"|n?DCG(?:@\d+)?|PQ|SPL|MRR|Hits@\d+|R@\d+|Recall@\d+|[Pp]ass@(?:\d+|k)|MAE|R?MSE|NLL|ECE|[WCE]ER|EM"
    r"|ADE|FDE|EPE|PPL|BPD|SRCC|PLCC|mAcc|NMI|ARI|HOTA|MOTA|IDF1|PCK|ATE|F1"
)
_METRIC = re.compile(rf"(?<![\w@-])(?:(?i:{_METRIC_WORDS})|{_METRIC_ACRONYMS})(?![\w@])")
# What may separate a metric from its number: "F1 of 78.3", "FID to 2.1", "BLEU 34.1", "accuracy by 3".
_GAP_BEFORE = re.compile(
    r"(?:\s*(?:of|:|=|≈|~|is|was|are|were|reach(?:es|ed|ing)?|to|at|by|around|about|approximately|nearly"
    r"|over|above|up|as|high|low|only|just|scores?|values?|rates?|improvements?|gains?|increases?|enhancements?|boosts?|\(|@\d+))*\s*",
    re.IGNORECASE,
)
# ... and a number from its metric: "0.87 AUC", "0.15 in rFID", "3.1 higher F1".
_GAP_AFTER = re.compile(
    r"(?:\s*(?:in|on|of|higher|lower|better|more|less|fewer|improvements?|gains?|increases?|reductions?|drops?"
    r"|absolute|relative|average|overall|terms|the|for))*\s*",
    re.IGNORECASE,
)
_MAX_GAP = 30
# Metric words are searched this far around each number (the gap plus a long metric name).
_METRIC_WINDOW = _MAX_GAP + 40
# A bare score is followed by punctuation or a linking word, never by a noun: "14 weeks", "19 GMACS"
# and "66 evaluated tasks" are quantities; nor by a slash without a space: "1/2", "1-1/e" are math.
_SCORE_FOLLOWER = re.compile(
    r"\s+/|\s*(?:$|[,;:.)\]}(±]|(?:on|in|for|vs|versus|and|or|with|compared|relative|over|when|at|using|while"
    r"|which|across|under|after|within|than|to|from|by|respectively|against|as|is|was|dB)\b)",
    re.IGNORECASE,
)
# "achieving a semantic similarity of 89.7": a score named by words the metric list does not know.
_SCORE_PHRASE_BEFORE = re.compile(
    r"\b(?:achiev|attain|obtain|reach|record|yield|scor)\w*\s+(?:an?\s+)?"
    r"(?:(?!(?:order|total|number|set|range|batch|group|series)\b)[A-Za-z][\w@-]*\s+){1,4}of\s+$",
    re.IGNORECASE,
)


def find_results(text: str, mentions: Sequence[MentionSpan] = (), limit: int | None = None) -> list[Result]:
    """Every numeric result in `text`, in order, with metric, dataset and compared systems; with
    `limit`, the first `limit` of them (the same rows), none past them worked out."""
    quantities = list(_QUANTITY.finditer(text))
    word_multipliers = list(islice(_word_multipliers(text), limit))
    if not quantities and not word_multipliers:
        return []
    metric_mentions = _cues_of_type(text, mentions, "metric")
    found, builtin_metrics, searched = _first_results(
        text, quantities, word_multipliers, metric_mentions, limit
    )
    if not found:
        return []
    known_mentions = metric_mentions[: bisect.bisect_left(metric_mentions, (searched + 1,))]
    sentences = split_sentences(text)
    sentence_starts = [s for s, _ in sentences]
    semicolons = [m.start() for m in re.finditer(";", text)]
    dataset_mentions = _cues_of_type(text, mentions, "dataset")
    systems = sorted(
        System(m.start, k, m.end, text[m.start : m.end])
        for k, m in enumerate(mentions)
        if m.entity_type in COMPARED_TYPES
    )
    # A dataset right after a word of comparison is a system typed as a dataset ("2% over A"):
    # index -1 marks it, only ever taken there.
    rivals = sorted(systems + [System(c.start, -1, c.end, c.name) for c in dataset_mentions])
    compared_in: dict[tuple[int, int], list[System]] = {}
    not_metrics: dict[tuple[int, int], list[System]] = {}
    # What a sentence gives its results, worked out once per sentence: a text of many results and
    # no full stop would otherwise copy and search the whole of it for each one. A sentence over
    # MAX_SENTENCE is not kept: each of its results stores its own excerpt.
    in_sentence: dict[tuple[int, int], tuple[str | None, Cues, Cues]] = {}
    groups = number_groups(text, found)
    datasets_tied = tied_datasets(text, found, Cues(dataset_mentions), sentence_starts, groups)
    results = []
    metrics_of = []
    for start, end, value, unit in found:
        sentence_start, sentence_end = sentences[max(0, bisect.bisect_right(sentence_starts, start) - 1)]
        clause = _clause(semicolons, start, end, sentence_start, sentence_end)
        if clause not in compared_in:
            compared_in[clause] = within(rivals, *clause)
            # A metric typed as a system (`MAE`) is compared with nothing.
            not_metrics[clause] = [s for s in compared_in[clause] if not _METRIC.fullmatch(s.name)]
        if (sentence_start, sentence_end) not in in_sentence:
            in_sentence[sentence_start, sentence_end] = (
                text[sentence_start:sentence_end] if sentence_end - sentence_start <= MAX_SENTENCE else None,
                Cues(within(dataset_mentions, sentence_start, sentence_end)),
                # The mentioned metrics and the built-in ones no mention overlaps ('FLOPs' beside a
                # mentioned 'AP'); those past `searched` are too far from the results to be theirs.
                Cues(
                    beside(
                        within(known_mentions, sentence_start, sentence_end),
                        within(builtin_metrics, sentence_start, sentence_end),
                    )
                ),
            )
        sentence, _, metrics = in_sentence[sentence_start, sentence_end]
        metrics_of.append(metrics)
        if sentence is None:
            sentence = _excerpt(text, sentence_start, sentence_end, start, end)
        results.append(
            Result(
                text=text[start:end],
                value=value,
                unit=unit,
                metric=_joined_cue(text, metrics, start, end) or compared_quantity(text, end, unit),
                dataset=datasets_tied[len(results)],
                compared_to=compared_systems(text, not_metrics[clause], clause[0], start, end, unit)
                or beaten_beside(text, compared_in[clause], clause, start, end),
                start=start,
                end=end,
                sentence=sentence,
            )
        )
    # Numbers listed together share what one of them is tied to, or pair with a list of metrics.
    shared = shared_in_groups([r.metric for r in results], number_groups(text, found, SAME_MEASURE_GAP))
    metrics = paired_metrics(text, found, groups, metrics_of, shared)
    changed = changed_measures(text, found, groups, metrics_of, systems, sentence_starts)
    compared = paired_systems(
        text,
        found,
        [c[1] or r.compared_to for r, c in zip(results, changed, strict=True)],
        groups,
        datasets_tied,
    )
    metrics, compared = parallel(
        text, found, [m or c[0] for m, c in zip(metrics, changed, strict=True)], compared
    )
    metrics = carried_metrics(text, found, metrics)
    return [
        result._replace(metric=metric, compared_to=against)
        for result, metric, against in zip(results, metrics, compared, strict=True)
    ]


def _first_results(
    text: str,
    quantities: list[re.Match],
    word_multipliers: list[tuple[int, int, float, str]],
    metric_mentions: list[Cue],
    limit: int | None,
) -> tuple[list[tuple[int, int, float | None, str | None]], list[Cue], int]:
    """(start, end, value, unit) of the first `limit` results (all without a limit), the built-in
    metric words looked for, and how far: all that start up to there, enough for these results.

    Metric words only matter next to a number: they are looked for there, not in the whole text.
    With more numbers than the limit, only up to `searched`: first just past the number after the
    limit (the results being among the numbers), then twice as far until that part of the text
    holds the first `limit` results and the metric words they may take."""
    windows = _metric_windows(text, [m.span() for m in quantities])
    if limit is not None and len(quantities) > limit:
        searched = quantities[limit].end() + _METRIC_WINDOW
    else:
        searched = len(text)
    while True:
        builtin_metrics = _builtin_metric_cues(text, windows, searched)
        known_mentions = metric_mentions[: bisect.bisect_left(metric_mentions, (searched + 1,))]
        # The numbers whose metric words within _MAX_GAP are all known.
        known = bisect.bisect_right(quantities, searched - _MAX_GAP, key=re.Match.end)
        among = list(
            islice(
                _results_among(
                    text,
                    quantities if searched >= len(text) else quantities[:known],
                    Cues(sorted(builtin_metrics + known_mentions)),
                ),
                limit,
            )
        )
        found = sorted([*among, *word_multipliers])[:limit]
        if searched >= len(text) or (
            len(among) == limit and (not found or found[-1][1] + _METRIC_WINDOW <= searched)
        ):
            return found, builtin_metrics, searched
        searched *= 2


def _results_among(text: str, quantities: list[re.Match], metric_cues: Cues):
    """(start, end, value, unit) of every number that reads as a result."""
    previous_score_end = -1
    for match in quantities:
        start, end = match.span()
        sign = text[start - 1] if start and text[start - 1] in _SIGNS else ""
        value = _number(match["high"] or match["low"])
        if sign and sign != "+":
            value = -value
        if match["percent"] or match["low_unit"]:
            share_of_input = _PERCENT_SHARE_AFTER.match(text, end) and _PERCENT_SHARE_BEFORE.search(
                text, max(0, start - _LOOKBACK), start
            )
            if not share_of_input and not _SETTING_AFTER["percent"].match(text, end):
                yield start - len(sign), end, value, "%"
        elif match["pp"]:
            yield start - len(sign), end, value, "pp"
        elif match["points"] or match["decibels"]:
            if match["points"] and _SETTING_AFTER["points"].match(text, end):
                continue
            # '27.8 dB', '+3dB', 'by 2 points' are results; 'SNRs of 6dB or higher' is a setting.
            signed_or_decimal = sign == "+" or "." in match["low"]
            if signed_or_decimal or _POINTS_CUE_BEFORE.search(text, max(0, start - _LOOKBACK), start):
                yield start - len(sign), end, value, "points" if match["points"] else "dB"
        elif match["times"]:
            if not _SETTING_AFTER["times"].match(text, end) and not _times_is_a_count(text, match):
                yield start - len(sign), end, value, "×"
        elif _is_score(text, match, metric_cues, previous_score_end):
            previous_score_end = end
            yield start - len(sign), end, value, None


def _times_is_a_count(text: str, match: re.Match) -> bool:
    """'run 3 times' counts repetitions; '3 times faster' and '2.5 times' are results."""
    if not match["times"].lower().endswith("times") or "." in (match["high"] or match["low"]):
        return False
    return not COMPARATIVE_AFTER.match(text, match.end())


def _word_multipliers(text: str):
    if "fold" not in text and "times" not in text:
        return
    for match in _WORD_MULTIPLIER.finditer(text):
        if _SETTING_AFTER["times"].match(text, match.end()) or _PREDICATE_BEFORE.search(
            text, max(0, match.start() - 6), match.start()
        ):
            continue
        yield match.start(), match.end(), _WORD_NUMBERS[match["word"].lower()], "×"


def _is_score(text: str, match: re.Match, cues: Cues, previous_score_end: int) -> bool:
    start, end = match.span()
    low, high = match["low"], match["high"]
    if high is None and len(low) == 4 and low[:2] in ("19", "20"):  # a year
        return False
    # Only a cue within _MAX_GAP of the number can be joined to it.
    if any(_joined_after(text, end, cue) for cue in cues.starting_between(end, end + _MAX_GAP)):
        return True
    if not _SCORE_FOLLOWER.match(text, end) or (high is None and low in ("0", "1")):  # "reward 0"
        return False
    if high and _FROM_BEFORE.search(text, max(0, start - 6), start):
        return "." in low or "." in high
    if previous_score_end >= 0 and NUMBER_LIST_GAP.fullmatch(text, previous_score_end, start):
        return True
    if any(_joined_before(text, cue, start) for cue in cues.ending_between(start - _MAX_GAP, start)):
        return True
    return bool(_SCORE_PHRASE_BEFORE.search(text, max(0, start - _LOOKBACK), start))


def _joined_before(text: str, cue: Cue, start: int) -> bool:
    """Does a metric-to-number gap ("F1 of 78.3") join the cue to a number starting at `start`?"""
    gap_is_short = cue.end <= start <= cue.end + _MAX_GAP
    return gap_is_short and _GAP_BEFORE.fullmatch(text, cue.end, start) is not None


def _joined_after(text: str, end: int, cue: Cue) -> bool:
    """Does a number-to-metric gap ("0.87 AUC") join a number ending at `end` to the cue?"""
    gap_is_short = end <= cue.start <= end + _MAX_GAP
    return gap_is_short and _GAP_AFTER.fullmatch(text, end, cue.start) is not None


def _number(surface: str) -> float:
    return float(surface.replace(",", ""))


def _metric_windows(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The stretches within reach of the given spans, merged, each ending at a word boundary."""
    windows: list[list[int]] = []
    for start, end in spans:
        low, high = max(0, start - _METRIC_WINDOW), end + _METRIC_WINDOW
        if windows and low <= windows[-1][1]:
            windows[-1][1] = high
        else:
            windows.append([low, high])
    stretched = []
    for low, high in windows:
        space = text.find(" ", high)
        stretched.append((low, len(text) if space < 0 else space))
    return stretched


def _builtin_metric_cues(text: str, windows: list[tuple[int, int]], through: int) -> list[Cue]:
    """The metric words of the windows that start at or before `through`: those of a search of all
    the windows, as each window is searched whole, only not past that point."""
    cues = []
    for low, high in windows:
        if low > through:
            break
        for match in _METRIC.finditer(text, low, high):
            if match.start() > through:
                break
            cues.append(Cue(match.start(), match.end(), match.group()))
    # Windows stretched to a word's end may overlap: each cue once, in order, as within bisects.
    return sorted(set(cues))


def _cues_of_type(text: str, mentions: Sequence[MentionSpan], entity_type: str) -> list[Cue]:
    """The mentions of one type as cues named as the sentence writes them: `pass@1`, not the
    catalog's `pass@k`."""
    return sorted(
        Cue(m.start, m.end, text[m.start : m.end]) for m in mentions if m.entity_type == entity_type
    )


def _excerpt(text: str, sentence_start: int, sentence_end: int, start: int, end: int) -> str:
    """The MAX_SENTENCE characters of a longer sentence around the number [start, end), the first
    and/or last replaced by "…" where the sentence goes on."""
    low = min(max(sentence_start, (start + end - MAX_SENTENCE) // 2), sentence_end - MAX_SENTENCE)
    high = low + MAX_SENTENCE
    head = "…" if low > sentence_start else text[low]
    tail = "…" if high < sentence_end else text[high - 1]
    return head + text[low + 1 : high - 1] + tail


def _joined_cue(text: str, cues: Cues, start: int, end: int) -> str | None:
    """The metric joined to [start, end) by a metric gap ("an F1 of 78.3", "0.87 AUC"): on each
    side the first joined one going away from the number, the nearer of the two winning, the one
    before on a tie. A metric merely nearby is not the number's: it is often another clause's."""
    ranked = []
    first_after = bisect.bisect_left(cues.starts, end)
    for k in range(first_after, bisect.bisect_right(cues.starts, end + _MAX_GAP)):
        if _joined_after(text, end, cues.cues[k]):
            ranked.append((cues.cues[k].start - end, 1, k))
            break
    ended = bisect.bisect_right(cues.by_end, (start, 1))  # the entries of cues ending by start
    near = bisect.bisect_left(cues.by_end, (start - _MAX_GAP, -len(cues.cues)))
    for cue_end, minus_k in reversed(cues.by_end[near:ended]):
        if _joined_before(text, cues.cues[-minus_k], start):
            ranked.append((start - cue_end, 0, -minus_k))
            break
    return cues.cues[min(ranked)[2]].name if ranked else None


def _clause(
    semicolons: list[int], start: int, end: int, sentence_start: int, sentence_end: int
) -> tuple[int, int]:
    """The part of the sentence between semicolons (the text's, in order) that holds [start, end):
    found by bisection, as a search back to the sentence start costs the sentence for each result."""
    before = bisect.bisect_left(semicolons, start)
    after = bisect.bisect_left(semicolons, end)
    clause_start = semicolons[before - 1] + 1 if before and semicolons[before - 1] >= sentence_start else 0
    clause_end = semicolons[after] if after < len(semicolons) and semicolons[after] < sentence_end else -1
    return clause_start or sentence_start, sentence_end if clause_end < 0 else clause_end
