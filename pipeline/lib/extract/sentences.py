"""The one sentence splitter of extraction, with its two notions of where a sentence ends.

- ``loose=True`` (the cues and the rules that ask which sentence a name is in): any ``.``, ``!`` or
  ``?`` followed by whitespace ends a sentence, except the full stop of 'e.g.', 'i.e.', 'et al.',
  'vs.', 'cf.', 'Fig.', 'Eq.', 'resp.', 'approx.' and 'w.r.t.'.
- ``loose=False`` (results, whose sentence is stored as an excerpt): the stop may be followed by
  closing quotes or brackets and must be followed by a sentence opening (a capital, a digit, an
  opening quote or bracket), and 'etc.', 'Sec.', 'No.', 'Ref.' and single initials ('J. Smith')
  do not end one either.

Why two: the rules of both were tuned against their own notion, and corpus abstracts split
differently under them (an ending 'etc. and', a '."' before the next sentence, a lower-case
opening after a full stop); one notion for both changes the mentions or the results
(`benchmarks/extraction/corpus_snapshot.py --compare` tells). Both are declared here, next to
each other, so a change to either is made in one place.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

_LOOSE_END = re.compile(r"[.!?]\s+(?=\S)")
# A full stop that ends an abbreviation, not a sentence: 'e.g. ', 'et al. ', 'vs. '.
_ABBREVIATION_DOT = re.compile(
    r"(?:\b[a-z]\.[a-z]|\bet al|\bvs|\bcf|\bFig|\bEq|\bresp|\bapprox|\bw\.r\.t)\.$"
)
_STRICT_END = re.compile(
    r"[.!?](?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bvs\.)(?<!\bal\.)(?<!\betc\.)(?<!\bcf\.)(?<!\bFig\.)(?<!\bEq\.)"
    r"(?<!\bSec\.)(?<!\bresp\.)(?<!\bapprox\.)(?<!\bNo\.)(?<!\bNos\.)(?<!\bRef\.)(?<!\b[A-Z]\.)"
    r"[\"'”’)\]]*\s+(?=[A-Z0-9\"'“‘(\[])"
)


def sentence_starts(text: str, *, loose: bool) -> list[int]:
    """Where each sentence starts: 0, then right after each sentence end and the space after it."""
    if not loose:
        return [0, *(boundary.end() for boundary in _STRICT_END.finditer(text))]
    starts = [0]
    for m in _loose_ends(text):
        if not _ABBREVIATION_DOT.search(text, max(0, m.start() - 8), m.start() + 1):
            starts.append(m.end())
    return starts


def _loose_ends(text: str) -> Iterator[re.Match[str]]:
    """_LOOSE_END's matches. In a text with no '!' or '?' (most abstracts) each one is a match at a
    full stop, found by str.find, several times faster than re's scan of every character for the
    three; no match holds a full stop but its first character, so none is missed."""
    if "!" in text or "?" in text:
        yield from _LOOSE_END.finditer(text)
        return
    stop = text.find(".")
    while stop != -1:
        if (m := _LOOSE_END.match(text, stop)) is not None:
            yield m
        stop = text.find(".", stop + 1)


def split_sentences(text: str, *, loose: bool = False) -> list[tuple[int, int]]:
    """Sentence spans (start, end) covering `text`, surrounding whitespace excluded."""
    starts = sentence_starts(text, loose=loose)
    spans = []
    for start, end in zip(starts, [*starts[1:], len(text)], strict=True):
        sentence = text[start:end]
        stripped = sentence.strip()
        if stripped:
            spans.append((start + len(sentence) - len(sentence.lstrip()), start + len(sentence.rstrip())))
    return spans


def sentence_of(starts: list[int], text: str, position: int) -> tuple[int, int]:
    """The sentence holding position, given the starts: from its start to the next one's."""
    k = bisect_right(starts, position)
    return starts[k - 1], starts[k] if k < len(starts) else len(text)
