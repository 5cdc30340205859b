"""Tasks: the research problems an abstract addresses ('image classification', 'protein-ligand
docking', 'long-form question answering'), proposed when the paper defines the task itself.

A task phrase ends in a task head of the vocabulary (classification, detection, forecasting ...)
and is read backwards from it over the words task names are made of (lexicons/task_words.txt,
from Papers with Code's task list): 'improves image classification' stops at 'improves'. A bare
head is a task when 'task' or 'problem' follows it ('the summarization task'), when a list of
tasks holds it ('forecasting, imputation and anomaly detection') or when it follows 'tasks such
as'. A weak head (design, optimization, search ...) makes a task only with a word before it and
'task' or 'problem' after, or as a task name of lexicons/tasks.txt ('combinatorial optimization').
A named-only head (counting, registration, understanding ...) makes a task only as such a name
('crowd counting'). A hyphened compound of task words joins the phrase ('image-captioning'), and
so does an abbreviation inside it ('knowledge graph (KG) reasoning'); a verb form ends it
('identify code comprehension'). After a task cue ('tasks such as', 'the problem of') any plain
words make the phrase ('the problem of approximate inference'). A plural head ('predictions')
counts only as a bare head does; a head before a means word ('a detection algorithm') and a list
of bare heads before a noun ('generation and reconstruction quality') name no task.
A phrase that crosses a name the other rules found is left to that name; a long form the
abbreviation rule typed by its head word ('video super-resolution (VSR)') is a task when its head
is a task head, or when it is a named problem ('job shop scheduling problems (JSSP)'), and the
paper does not propose it.

The rule runs after roles, so no proposal rule gives a task the paper's role by accident: only
'we introduce the task of X' or 'a new task, X' does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache

from pipeline.lib.extract.lexicons import LEXICON_DIR
from pipeline.lib.extract.shapes import LIST_JOIN
from pipeline.lib.extract.state import PaperState, SpanIndex
from pipeline.lib.extract.vocabulary import (
    FUNCTION_WORDS,
    TASK_FOLLOWERS,
    TASK_HEADS,
    TASK_WORD_STOPS,
    WEAK_TASK_HEADS,
    alternation,
)

# Words of task names that before a head are the verb acting on it: 'we identify code comprehension'.
_VERB_FORMS = frozenset(
    [
        "classify",
        "detecting",
        "evaluating",
        "extracting",
        "generating",
        "identify",
        "predict",
        "predicting",
        "recognizing",
        "solving",
        "using",
    ]
)
# Heads that end a task only as a name of lexicons/tasks.txt ('crowd counting', 'bug fixing',
# 'image registration') or before 'task'/'problem': alone they are everyday words.
NAMED_TASK_HEADS = frozenset(
    [
        "anticipation",
        "assessment",
        "categorization",
        "correction",
        "counting",
        "enhancement",
        "fixing",
        "grounding",
        "making",
        "re-identification",
        "registration",
        "removal",
        "solving",
        "spotting",
        "transfer",
        "understanding",
    ]
)
MAX_TASK_WORDS = 4  # before the head: 'single image 3D reconstruction' has three
# Task phrases read per paper, the first in the text: real abstracts hold a dozen at most, and a
# text made of task heads would otherwise cost every phrase a look at every other.
MAX_TASK_PHRASES = 200

_TOKEN = re.compile(r"[A-Za-z0-9][\w'’+]*(?:[-–/][\w'’+]+)*")
_FOLLOWER = re.compile(rf" (?:{alternation(TASK_FOLLOWERS)})\b")
# A head followed by the word for a way of doing it modifies that word: 'an online detection
# algorithm', 'neural surface reconstruction methods' name no task unless a task name does.
_MEANS = re.compile(
    r" (?:algorithms?|methods?|approach(?:es)?|modules?|blocks?|techniques?|frameworks?|pipelines?"
    r"|procedures?|schemes?|strateg(?:y|ies))\b"
)
_PART = re.compile(r"[-–/]")
# Not after a word character or a hyphen: checked on each match (_named_heads), as a look back
# opening the pattern would make re try it at every position. A head holds only letters and
# hyphens, so no match the look back would allow starts inside one refused.
_NAMED_HEAD = re.compile(rf"(?:{alternation(NAMED_TASK_HEADS)})\b(?!-)")
_INNER_ABBREVIATION = re.compile(r"(?<= )\([A-Z][A-Za-z0-9-]{0,7}\) $")
_SUBJECT = re.compile(r"\b(?:[Ww]e|[Tt]hey) $")
_NEXT_WORD = re.compile(r" ([a-z]+)\b(?![-–])")
# A word of a named problem's long form: lower case, or a digit-led token ('3D bin packing').
_PLAIN_PROBLEM_WORD = re.compile(r"[a-z][a-z'-]*|\d[A-Za-z0-9-]*")
_WORD_GAP = re.compile(r" (?=\S)")
_SENTENCE_OPENING = re.compile(r"(?:[.!?:]\s+|\n)[\"“(]?$")
# What announces a task phrase, with up to three list items before it: 'tasks such as X, Y and',
# 'the goal of X'.
_TASK_CUE = re.compile(
    r"\b(?:(?:tasks?|problems?),? (?:such as|like|including|e\.g\.,?)|(?:task|problem|goal) of) "
    r"(?:[\w'’-]+(?: [\w'’-]+){0,4}(?:,| and| or|, and|, or) ){0,3}$"
)
_CUED_WORD = re.compile(r"[a-z0-9][a-z0-9'’-]*|[A-Z0-9][A-Z0-9-]{0,4}")
_EXAMPLES_CUE = re.compile(r"\btasks?,? (?:such as|like|including|e\.g\.,?) $")
# 'we introduce the task of X', 'a new task, X', 'we formulate the novel problem of X'.
_NEW_TASK = re.compile(
    r"\b(?:[Ww]e|[Tt]his (?:paper|work)) (?:\w+ )?(?:introduce|propose|define|formulate|present|study)s? "
    r"(?:a|the) (?:new|novel) (?:task|problem)(?: of|,| called| named| termed)? $"
    r"|\b(?:a|the) (?:new|novel) (?:task|problem)(?: of|,| called| named| termed) $"
)


@cache
def _lines(file_name: str) -> frozenset[str]:
    lines = (LEXICON_DIR / file_name).read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def add_tasks(paper: PaperState) -> None:
    text = paper.text
    phrases, bare = [], []
    for head in paper.cue_hits:
        if head.entry.kind != "cue:task":
            continue
        span = _task_span(text, head.start, head.end, head.entry.name)
        if span is None:
            continue
        followed = _FOLLOWER.match(text, head.end) is not None
        # A plural head names what a system outputs ('transparent predictions') unless listed.
        if not followed and (span[0] == head.start or _is_plural_head(head.entry.name)):
            bare.append(span)  # a task only among others, below
        else:
            phrases.append(span)
        if len(phrases) + len(bare) >= MAX_TASK_PHRASES:
            break
    for match in _named_heads(text):
        if len(phrases) >= MAX_TASK_PHRASES:
            break
        span = _task_span(text, match.start(), match.end(), match[0], named_only=True)
        if span is not None:
            phrases.append(span)
    spans = sorted(phrases + bare)
    bare_spans = set(bare)
    # A bare head is a task beside another task in a list: only its neighbours in text order can be.
    listed = {
        span
        for k, span in enumerate(spans)
        if span in bare_spans
        and (
            _EXAMPLES_CUE.search(text, max(0, span[0] - 24), span[0])
            or (k > 0 and _listed_together(text, spans[k - 1], span))
            or (k + 1 < len(spans) and _listed_together(text, span, spans[k + 1]))
        )
    }
    listed -= {span for k, span in enumerate(spans) if span in listed and _list_modifies_noun(text, spans, k)}
    names = _lines("tasks.txt")
    spans = [s for s in spans if not _MEANS.match(text, s[1]) or text[s[0] : s[1]].lower() in names]
    others = SpanIndex(paper.covered)  # the names other rules found, before any task is added
    for start, end in spans:
        if ((start, end) in bare_spans and (start, end) not in listed) or others.overlaps(start, end):
            continue
        entity = paper.add(text[start:end], "task", (start, end))
        if entity is not None and _NEW_TASK.search(text, max(0, start - 60), start):
            paper.propose(entity, "new_task")
    for entity in list(paper.entities.values()):
        defined_task = entity.expansion is not None and _is_task_long_form(entity.expansion)
        if defined_task and entity.entity_type == "method" and not entity.known and not entity.proposed:
            paper.retype(entity, "task")


def _named_heads(text: str) -> Iterator[re.Match[str]]:
    """_NAMED_HEAD's matches; most abstracts hold none of its words, and a substring test of each
    is cheaper than the regex's alternation tried at every position."""
    if not any(head in text for head in NAMED_TASK_HEADS):
        return iter(())
    return (
        m
        for m in _NAMED_HEAD.finditer(text)
        if not m.start() or not (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_-")
    )


def _task_span(
    text: str, head_start: int, head_end: int, head: str, named_only: bool = False
) -> tuple[int, int] | None:
    head_start = _compound_start(text, head_start)
    cued = _cued_start(text, head_start)
    if cued is not None:
        return cued, head_end
    start = _phrase_start(text, head_start, text[head_start].isupper())
    inner = _INNER_ABBREVIATION.search(text, max(0, head_start - 14), head_start)
    inner = None if start < head_start else inner
    if inner is not None:  # 'knowledge graph (KG) reasoning': the phrase goes on before the abbreviation
        before = _phrase_start(text, inner.start(), text[head_start].isupper())
        start = before if before < inner.start() else start
    if not named_only and head not in WEAK_TASK_HEADS and head.removesuffix("s") not in WEAK_TASK_HEADS:
        return start, head_end
    names = _lines("tasks.txt")
    for candidate in _starts(text, start, head_start):
        if text[candidate:head_end].lower() in names:
            # A named-only head's name is a task as a strong head's is, task words before it too.
            return (start if named_only else candidate), head_end
    if start < head_start and _FOLLOWER.match(text, head_end):
        return start, head_end
    return None


def _is_plural_head(form: str) -> bool:
    return form not in TASK_HEADS and form.endswith("s") and form[:-1] in TASK_HEADS


def _list_modifies_noun(text: str, spans: list[tuple[int, int]], k: int) -> bool:
    """Whether the list of heads spans[k] is in modifies the noun after it: 'in both generation
    and reconstruction quality'."""
    while k + 1 < len(spans) and _listed_together(text, spans[k], spans[k + 1]):
        k += 1
    after = _NEXT_WORD.match(text, spans[k][1])
    return after is not None and after[1] not in FUNCTION_WORDS and after[1] not in TASK_FOLLOWERS


def _cued_start(text: str, head_start: int) -> int | None:
    """Where a task phrase a task cue announces begins, over any plain lower-case words: 'tasks
    such as entropy estimation', 'the problem of approximate inference'."""
    # Every cue names a task, a problem or a goal within the window searched below.
    window = text[max(0, head_start - 40 * MAX_TASK_WORDS - 160) : head_start]
    if "task" not in window and "problem" not in window and "goal" not in window:
        return None
    start = _words_back(text, head_start, lambda token, _: _is_cued_word(token))
    if start < head_start and _TASK_CUE.search(text, max(0, start - 160), start):
        return start
    return None


def _compound_start(text: str, head_start: int) -> int:
    """Where a hyphened compound the head ends begins, when task words lead it: 'image-captioning'."""
    if head_start < 2 or text[head_start - 1] not in "-–":
        return head_start
    window = max(0, head_start - 40)
    word_start = max(text.rfind(" ", window, head_start), text.rfind("\n", window, head_start)) + 1
    token = text[word_start : head_start - 1]
    if _TOKEN.fullmatch(token) and _is_task_word(text, token, word_start, text[word_start].isupper()):
        return word_start
    return head_start


def _listed_together(text: str, first: tuple[int, int], second: tuple[int, int]) -> bool:
    """Whether two task spans, in text order, are neighbours in a list: 'forecasting, imputation
    and X'."""
    return second[0] - first[1] <= 6 and LIST_JOIN.fullmatch(text, first[1], second[0]) is not None


def _is_task_long_form(long_form: str) -> bool:
    """A long form that names a task: 'video super-resolution', or a named problem whose words
    are plain ('job shop scheduling problems', '3D bin packing problem')."""
    words = long_form.split()
    if len(words) > 1 and words[-1].lower() in TASK_FOLLOWERS:
        return all(_PLAIN_PROBLEM_WORD.fullmatch(word) and word not in TASK_WORD_STOPS for word in words[:-1])
    words = long_form.lower().split()
    return words[-1] in TASK_HEADS and all(
        part in _lines("task_words.txt") or part in FUNCTION_WORDS
        for word in words[:-1]
        for part in _PART.split(word)
        if part
    )


def task_phrase_start(text: str, head_start: int) -> int:
    """Where a lower-case task phrase ending in the head at head_start begins."""
    return _phrase_start(text, head_start, False)


def _phrase_start(text: str, head_start: int, titled: bool) -> int:
    """Where the task phrase ending in the head at head_start begins: back over up to
    MAX_TASK_WORDS words, each after one space, that task names are made of."""
    return _words_back(
        text,
        head_start,
        lambda token, token_start: (
            _TOKEN.fullmatch(token) is not None and _is_task_word(text, token, token_start, titled)
        ),
    )


def _words_back(text: str, head_start: int, accepts: Callable[[str, int], bool]) -> int:
    """Where a phrase ending at head_start begins: back over up to MAX_TASK_WORDS words, each
    after one space, while `accepts(word, its start)`."""
    start = head_start
    for _ in range(MAX_TASK_WORDS):
        if start < 2 or text[start - 1] != " ":
            break
        word_start = text.rfind(" ", max(0, start - 40), start - 1) + 1
        if not accepts(text[word_start : start - 1], word_start):
            break
        start = word_start
    return start


def _is_cued_word(token: str) -> bool:
    """A word a task cue's phrase may hold: plain lower case or a short acronym, no function word
    and no verb form."""
    lower = token.lower()
    plain = lower not in FUNCTION_WORDS and lower not in _VERB_FORMS
    return plain and _CUED_WORD.fullmatch(token) is not None


def _is_task_word(text: str, token: str, token_start: int, titled: bool) -> bool:
    lower = token.lower()
    if lower in FUNCTION_WORDS or lower in TASK_WORD_STOPS or lower in _VERB_FORMS:
        return False
    if _SUBJECT.search(text, max(0, token_start - 5), token_start):
        return False  # a verb: 'we test density estimation'
    if token.isupper() and len(token) <= 5:
        return True  # an acronym: 'KG completion', '3D pose estimation'
    if token[0].isupper() and not titled and not _opens_sentence(text, token_start):
        return False  # a name before a lower-case task is not part of it: 'Llama generation'
    words = _lines("task_words.txt")
    # Inside a compound a function word may join task words: 'text-to-image'.
    return all(part in words or part in FUNCTION_WORDS for part in _PART.split(lower) if part)


def _opens_sentence(text: str, position: int) -> bool:
    return position == 0 or _SENTENCE_OPENING.search(text, max(0, position - 4), position) is not None


def _starts(text: str, start: int, head_start: int) -> list[int]:
    """The word starts from start to the head, longest phrase first."""
    return [start, *(start + m.end() for m in _WORD_GAP.finditer(text[start:head_start]))]
