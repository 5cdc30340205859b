"""Abbreviations an abstract defines, found Schwartz–Hearst style.

Three patterns, all resolved against the plain text (abstract_clean):

- ``Long Form (LF)``: the classic one. The long form is matched backwards from the parenthesis,
  every character of the short form appearing in order and its first character starting a word.
- ``LF (Long Form)``: the same match with the roles swapped.
- ``LF, a Long Form ...``: only for all-capital short forms whose letters are exactly the initials
  of the words that follow, because the loose match finds spurious long forms in appositions.

Two relaxations cover real cases: a short form whose capitals are exactly the capitals of the
long form (``eNeRgy-GPT (NRGPT)``), and a trailing size or version tag that the long form does
not spell out (``Region Recognition Dataset (RR-7K)``); but a name and a plain number after it
(``neural networks (ResNet-56)``, ``benchmarks (CIFAR-10)``) is no abbreviation unless the long
form writes the number.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Abbreviation(NamedTuple):
    short: str
    long: str
    start: int  # start of the whole definition
    end: int  # end of the whole definition (exclusive)
    short_start: int
    short_end: int
    long_start: int
    long_end: int


# Up to 120 characters: a long form may follow its short form, 'LoReTTa (Linking mOdalities ...)'.
_PARENTHESIS = re.compile(r"\(([^()]{1,120})\)")
_SHORT_FORM = re.compile(r"[A-Za-z0-9][\w.+&/’'-]*(?: [A-Za-z0-9][\w.+&/-]*)?")
# A short form written before a parenthesis: "LF (Long Form)" and "LF, a Long Form".
_TOKEN_BEFORE = re.compile(r"([A-Za-z0-9][\w+&-]*[\w+])\s*$")
# Tried only where a run of short-form characters starts, its opening digits and signs skipped:
# the matches of trying at every capital, without rescanning a long run from each of its letters.
_APPOSITION = re.compile(r"(?<![A-Z0-9&-])[0-9&-]*+([A-Z][A-Z0-9&-]*[A-Z0-9]s?), (?:a|an|the|or) ")
# Where an apposition's short form ends: few abstracts have one, and finding the comma first is
# far cheaper than trying _APPOSITION at every position.
_APPOSITION_END = re.compile(r",(?:(?<=[A-Z0-9],)|(?<=[A-Z0-9]s,)) (?:a|an|the|or) ")
_SIZE_TAG = re.compile(r"-?\d+(?:\.\d+)?[KMBkmb]?$")
# A plain number after a name, no size unit: a version or a variant ('ResNet-56', 'CIFAR-10', 'ICML
# 2022'), which a long form that does not write the number does not define.
_NUMBER_TAG = re.compile(r"[A-Za-z][- ](\d+(?:\.\d+)?)$")
_ROMAN = re.compile(r"(?i)[ivx]+")
_CLAUSE_BREAK = re.compile(r"[.;:!?\[\]]\s|[;:!?\[\]]|, |\. ")
_STRONG_BREAK = re.compile(r"[.;:!?\[\]]\s|[;:!?\[\]]|\. ")
_WORD = re.compile(r"\S+")
_SPELLED_WORD = re.compile(r"[A-Z][a-z]{3,}")


def _is_short_form(candidate: str) -> bool:
    """Does the text inside a parenthesis look like an abbreviation rather than a remark?"""
    # Two words may be longer: 'contrastive IL' for 'contrastive Imitation Learning'.
    if not 2 <= len(candidate) <= (16 if " " in candidate else 12) or not _SHORT_FORM.fullmatch(candidate):
        return False
    if not any(c.isupper() for c in candidate) or _ROMAN.fullmatch(candidate):
        return False
    letters = sum(c.isalpha() for c in candidate)
    # One letter after a counting digit may be enough: 'Three Towers (3T)'.
    return (letters >= 2 or (candidate[0] in _NUMBER_WORDS and letters == 1)) and not candidate.isdigit()


def _max_long_words(short: str) -> int:
    n = sum(c.isalnum() for c in short)
    return min(n + 5, n * 2)


def backward_match(short: str, window: str) -> int | None:
    """Schwartz–Hearst: the start of the shortest long form at the end of window, or None."""
    chars = [c.lower() for c in short if c.isalnum()]
    if not chars or not chars[0].isalnum():
        return None
    s = len(chars) - 1
    i = len(window) - 1
    while s >= 0:
        c = chars[s]
        while i >= 0 and (
            window[i].lower() != c
            or (s == 0 and i > 0 and window[i - 1].isalnum() and not _case_break(window, i))
        ):
            i -= 1
        if i < 0:
            return None
        i -= 1
        s -= 1
    start = i + 1
    while start > 0 and window[start - 1].isalnum():
        start -= 1
    return start


def _case_break(text: str, i: int) -> bool:
    """A capital after a lower-case letter starts a word part (``MetaBBO``, ``eNeRgy``)."""
    return text[i].isupper() and text[i - 1].islower()


def _capitals_match(short: str, window: str) -> int | None:
    """The shortest suffix of whole words whose capitals spell the short form's capitals."""
    capitals = "".join(c for c in short if c.isupper())
    if len(capitals) < 2 or capitals != "".join(c for c in short if c.isalpha() and c != "s"):
        return None
    words = list(_WORD.finditer(window))
    for k in range(len(words) - 1, max(-1, len(words) - 1 - len(capitals)), -1):
        start = words[k].start()
        if "".join(c for c in window[start:] if c.isupper()) == capitals:
            return start
    return None


def _initials_match(short: str, window: str) -> int | None:
    """The start of the words whose initials spell the short form's capitals (or letters):
    'Convex Concave Loss (CCL)', where the shortest character match would stop at 'Concave'."""
    # Capitals, after any lower-case letters that open the short form: 'pNML', 'reSGLD'.
    opening = len(short) - len(short.lstrip("abcdefghijklmnopqrstuvwxyz"))
    capitals = [c.lower() for c in short[:opening]] + [c.lower() for c in short if c.isupper()]
    letters = capitals if len(capitals) >= 2 else [c.lower() for c in short if c.isalpha()]
    if any(c.isdigit() for c in short) or len(letters) < 2:
        return None
    words = list(_WORD.finditer(window))[-2 * len(letters) :]

    def match(n_letters: int, n_words: int) -> int | None:
        """Word index where the first n_letters letters start, matching within words[:n_words]."""
        if n_letters == 0:
            return n_words
        if n_words == 0:
            return None
        word = words[n_words - 1].group().strip("\"“”'’")
        if word.lower() in _FUNCTION_WORDS and n_letters < len(letters):
            skipped = match(n_letters, n_words - 1)
            if skipped is not None:
                return skipped
        parts = [p for p in re.split(r"[-–/]", word) if p]
        options = {1, len(parts)} if parts else set()
        for n in sorted(options, reverse=True):
            if n <= n_letters and [p[0].lower() for p in parts[:n]] == letters[n_letters - n : n_letters]:
                found = match(n_letters - n, n_words - 1)
                if found is not None:
                    return found
        return None

    first = match(len(letters), len(words))
    return None if first is None or first >= len(words) else words[first].start()


# A digit between capitals that stands for a word: 'T2I' (text-to-image), 'P2P', 'B4' (before).
_DIGIT_WORD = re.compile(r"(?<=[A-Z])([24])(?=[A-Z])")


# A digit after a capital that counts it: 'A3C' (Asynchronous Advantage Actor-Critic), 'R2D2'.
_REPEATED_LETTER = re.compile(r"([A-Z])([234])(?=[A-Z]|$)")


# A leading digit that stands for the number word opening the long form: 'Two-Stage Shadow
# Inclusion (2SSI)', 'Three Towers (3T)'.
_NUMBER_WORDS = {
    "1": "one",
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
}


def _spellings(short: str) -> list[str]:
    """The short form, without a size tag, and with its digits read as words or as counts."""
    spelled = _DIGIT_WORD.sub(lambda m: "T" if m.group(1) == "2" else "F", short)
    repeated = _REPEATED_LETTER.sub(lambda m: m.group(1) * int(m.group(2)), short)
    candidates = (repeated, short, _SIZE_TAG.sub("", short), spelled)
    return [c for c in dict.fromkeys(candidates) if sum(ch.isalpha() for ch in c) >= 2]


def _long_form_start(short: str, window: str) -> int | None:
    for candidate in _spellings(short):
        start = _initials_match(candidate, window)
        if start is None:
            start = backward_match(candidate, window)
        if start is None:
            start = _capitals_match(candidate, window)
        if start is not None and _plausible(candidate, window[start:]):
            return start
    return _number_word_start(short, window)


def _number_word_start(short: str, window: str) -> int | None:
    number_word = _NUMBER_WORDS.get(short[0])
    if number_word is None or not short[1:2].isalpha():
        return None
    candidate = number_word[0].upper() + short[1:]
    start = _initials_match(candidate, window)
    if start is None or not re.match(rf"(?i){number_word}\b", window[start:]):
        return None
    return start if _plausible(candidate, window[start:]) else None


def _plausible(short: str, long: str) -> bool:
    words = long.split()
    if not words or len(long) <= len(short) or len(words) > _max_long_words(short):
        return False
    if long.lower().rstrip("s") == short.lower().rstrip("s"):
        return False
    # Long forms start with a content word, not with "the", "a", "of" ...
    first = words[0].lower()
    if first in _FUNCTION_WORDS or first.isdigit():
        return False
    # A word spelled out inside the short form begins (or ends) a word of the long form:
    # 'FlexProtein' for 'Flexible Protein ...', 'MVQ-Former' for '... Querying Transformer', but
    # not 'AutoAttack' for 'art attacks'.
    long_words = long.lower().replace("-", " ").split()
    return all(
        any(
            w.startswith(chunk) or w.endswith(chunk) or w.removesuffix("s").endswith(chunk)
            for w in long_words
        )
        for chunk in map(str.lower, _SPELLED_WORD.findall(short))
    )


_FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "for",
        "and",
        "or",
        "in",
        "on",
        "to",
        "with",
        "by",
        "from",
        "as",
        "at",
        "via",
        "is",
        "are",
        "we",
        "our",
        "this",
        "that",
        "these",
        "its",
        "their",
        "which",
        "who",
        "where",
        "when",
        "than",
        "into",
        "using",
        "based",
    ]
)


def _titled_list_start(short: str, window: str) -> int | None:
    """'“Critical-Layer, Core-Expert, Collaborative Pathway Optimization (C3PO)”': Title-Case
    words whose initials spell the short form, with commas between them."""
    for candidate in _spellings(short):
        start = _initials_match(candidate, window)
        if start is None:
            continue
        start += len(window[start:]) - len(window[start:].lstrip("\"“'‘"))
        words = window[start:].replace(",", " ").split()
        if len(words) > 1 and all(w[0].isupper() for w in words if w.lower() not in _FUNCTION_WORDS):
            return start
    return None


def _window_before(
    text: str, end: int, n_words: int, breaks: re.Pattern[str] = _CLAUSE_BREAK
) -> tuple[int, str]:
    """The clause before position end, at most n_words words: (offset, text)."""
    start = max(0, end - 12 * n_words)
    window = text[start:end]
    last_break = None
    for m in breaks.finditer(window):
        last_break = m
    if last_break is not None:
        start += last_break.end()
        window = text[start:end]
    words = list(_WORD.finditer(window))
    if len(words) > n_words:
        cut = words[-n_words].start()
        start += cut
        window = window[cut:]
    return start, window


def find_abbreviations(text: str, limit: int | None = None) -> list[Abbreviation]:
    """Every abbreviation defined in text, in order, at most one definition per short form.

    With a limit, at most that many: each pattern stops after its first `limit` definitions, so
    that a text defining hundreds costs no more than one defining `limit`.
    """
    found: list[Abbreviation] = []
    seen: set[str] = set()
    for m in _PARENTHESIS.finditer(text):
        if len(found) == limit:
            break
        inner = m.group(1)
        short = re.split(r"[;,]\s", inner, maxsplit=1)[0].strip()
        definition = None
        if _is_short_form(short) and short.rstrip("s") not in seen:
            definition = _long_then_short(text, m, short)
        elif short.isupper() and _ROMAN.fullmatch(short) and short not in seen:
            definition = _spelled_out_numeral(text, m, short)
        if definition is None and " " in inner.strip():
            definition = _short_then_long(text, m, inner)
        if definition is not None and definition.short.rstrip("s") not in seen:
            seen.add(definition.short.rstrip("s"))
            found.append(definition)
    in_parentheses = len(found)
    for m in _APPOSITION.finditer(text) if _APPOSITION_END.search(text) else ():
        if len(found) - in_parentheses == limit:
            break
        short = m.group(1)
        if short.rstrip("s") in seen or (
            m.start(1) > 0 and (text[m.start(1) - 1].isalnum() or text[m.start(1) - 1] in "-_")
        ):
            continue
        definition = _apposition(text, m, short)
        if definition is not None:
            seen.add(short.rstrip("s"))
            found.append(definition)
    found.sort(key=lambda a: a.start)
    return found[:limit]


def _long_then_short(text: str, paren: re.Match[str], short: str) -> Abbreviation | None:
    before_end = paren.start()
    while before_end > 0 and text[before_end - 1] in " ,;:\"”’'":
        before_end -= 1
    start = None
    if _REPEATED_LETTER.search(short):  # spelled in full, so a listed long form is no guess
        offset, window = _window_before(text, before_end, _max_long_words(short), _STRONG_BREAK)
        start = _titled_list_start(short, window)
    if start is None:
        offset, window = _window_before(text, before_end, _max_long_words(short))
        start = _long_form_start(short, window)
    if start is None:
        offset, window = _window_before(text, before_end, _max_long_words(short), _STRONG_BREAK)
        start = _titled_list_start(short, window)
    if start is None:
        return None
    long_start = offset + start
    closed = _unopened_close(text, long_start, before_end)
    if closed is not None:
        # The match starts inside a parenthesis closed before the short form ('OPE) and learning
        # (OPL)'): the long form, if any, is after it.
        while closed < before_end and text[closed] in " -–":
            closed += 1
        offset, window = closed, text[closed:before_end]
        start = _long_form_start(short, window)
        if start is None:
            return None
        long_start = offset + start
    numbered = _NUMBER_TAG.search(short)
    if numbered is not None and numbered.group(1) not in text[long_start:before_end]:
        return None  # a name and its number, not an abbreviation: 'neural networks (ResNet-56)'
    short_start = paren.start(1) + paren.group(1).index(short)
    return Abbreviation(
        short,
        text[long_start:before_end],
        long_start,
        paren.end(),
        short_start,
        short_start + len(short),
        long_start,
        before_end,
    )


def _unopened_close(text: str, start: int, end: int) -> int | None:
    """The position after the last ')' in [start, end) that no '(' there opens, or None."""
    if ")" not in text[start:end]:
        return None
    depth, after = 0, None
    for i in range(start, end):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth < 0:
                depth, after = 0, i + 1
    return after


def _spelled_out_numeral(text: str, paren: re.Match[str], short: str) -> Abbreviation | None:
    """'variational inference (VI)': letters that could be a numeral define an abbreviation only
    when the words right before spell them one word a letter, unlike 'Section (IV)'."""
    offset, window = _window_before(text, paren.start(), len(short))
    window = window.rstrip()
    words = window.split()
    if len(words) != len(short) or [w[0].upper() for w in words] != list(short):
        return None
    if any(w.lower() in _FUNCTION_WORDS for w in words):
        return None
    short_start = paren.start(1) + paren.group(1).index(short)
    return Abbreviation(
        short,
        window,
        offset,
        paren.end(),
        short_start,
        short_start + len(short),
        offset,
        offset + len(window),
    )


def _short_then_long(text: str, paren: re.Match[str], inner: str) -> Abbreviation | None:
    before = _TOKEN_BEFORE.search(text, max(0, paren.start() - 20), paren.start())
    if before is None:
        return None
    short = before.group(1)
    if not _is_short_form(short) or sum(c.isupper() for c in short) < 2:
        return None
    long = inner.strip()
    if len(long.split()) > _max_long_words(short):
        return None
    start = backward_match(short, long)
    if start != 0 or not _plausible(short, long):
        return None
    long_start = paren.start(1) + inner.index(long)
    return Abbreviation(
        short,
        long,
        before.start(1),
        paren.end(),
        before.start(1),
        before.end(1),
        long_start,
        long_start + len(long),
    )


def _apposition(text: str, m: re.Match[str], short: str) -> Abbreviation | None:
    letters = [c for c in short.rstrip("s") if c.isalpha()]
    if not 2 <= len(letters) <= 8 or not all(c.isupper() for c in letters):
        return None
    words = list(_WORD.finditer(text, m.end(), min(len(text), m.end() + 200)))[: len(letters) + 3]
    # 'Vector-Quantized' spells VQ; 'Parameter-efficient' spells P or, loosely, PE; 'Domain-Invariant'
    # may spell D alone.
    every_part: list[str] = []
    capitalised_parts: list[str] = []
    whole_words: list[str] = []
    for k, w in enumerate(words):
        token = w.group().strip(",.;:()")
        if token.lower() in _FUNCTION_WORDS:
            continue
        parts = [part for part in re.split(r"[-–]", token) if part]
        every_part.extend(part[0].upper() for part in parts)
        capitalised_parts.extend(
            part[0].upper() for i, part in enumerate(parts) if i == 0 or part[0].isupper()
        )
        whole_words.append(token[0].upper())
        if letters in (every_part, capitalised_parts, whole_words):
            end = w.start() + len(w.group().rstrip(",.;:)"))
            long_start = words[0].start()
            return Abbreviation(
                short, text[long_start:end], m.start(1), end, m.start(1), m.end(1), long_start, end
            )
        spelling = [
            initials
            for initials in (every_part, capitalised_parts, whole_words)
            if len(initials) <= len(letters) and initials == letters[: len(initials)]
        ]
        if not spelling or k > len(letters) + 2:
            return None
    return None
