"""A change named right after a value carries that value's measure: 'an accuracy of 87.7%,
outperforming A by 14.9%' (14.9% of accuracy), 'over 95% accuracy, which is 40% higher than A';
so does the value another system reached, compared with it: '91.5% test accuracy compared to 23.8%'.

The clause that links them says the second number compares the first with another system; the
two numbers have the same unit, so that 'a 3× speedup, outperforming A by 5%' carries nothing.
"""

from __future__ import annotations

import re

from pipeline.lib.extract.compared import COMPARATIVE_AFTER

_APPROXIMATELY = r"(?:(?:up\s+to|about|around|over|nearly|almost|more\s+than|roughly)\s+)?"
# What lies between the two numbers, within one sentence and clause: the first one's measure and
# setting, a comma, then a verb of beating and its object up to "by", or "which is".
_BEATEN_BY = re.compile(
    r"[^.;]{0,60}?,\s*(?:(?P<beats>(?:outperform|surpass|beat|exceed)\w*\s[^.;%]{0,60}?\bby)|which\s+is)\s+"
    + _APPROXIMATELY
)

# Or the first one's measure, then what it is compared with, the second number: '91.5% test accuracy
# compared to 23.8%', '7.4% test error, vs. 13.4%'.
_COMPARED_WITH = re.compile(
    r"\s+[^.;,%×]{1,40}?,?\s+(?:compared\s+(?:to|with)|vs\.?|versus)\s+"
    r"(?:(?:just|only|under|over|about|around|nearly|roughly)\s+)?"
)

_LISTED = re.compile(r"\s*(?:,|/|and|or)\s*(?:and\s+)?")


def carried_metrics(
    text: str, found: list[tuple[int, int, float | None, str | None]], metrics: list[str | None]
) -> list[str | None]:
    """Each result without a measure that follows one with a measure and the same unit, linked to
    it by a clause that beats another system by it ('..., outperforming A by') or compares it
    ('..., which is 40% higher than A', '... compared to'), takes that measure."""
    carried = list(metrics)
    for k in range(1, len(found)):
        (_, before_end, _, before_unit), (start, end, _, unit) = found[k - 1], found[k]
        if carried[k] is not None or carried[k - 1] is None or unit != before_unit:
            continue
        if k + 1 < len(found) and _LISTED.fullmatch(text, end, found[k + 1][0]):
            continue  # '88% A and 91% B accuracy, surpassing C by 2% and 0.1%': pairs, not a chain
        link = _BEATEN_BY.fullmatch(text, before_end, start)
        if (link is not None and (link["beats"] or COMPARATIVE_AFTER.match(text, end))) or (
            _COMPARED_WITH.fullmatch(text, before_end, start)
        ):
            carried[k] = carried[k - 1]
    return carried
