"""The systems a number is compared with: named after it ("2.1× faster than A"), before it by a
verb of comparison ("outperforms A by 5%"), or by its clause's opening ("Compared to A, ...").

results.py finds the numbers and calls `compared_systems` for each; ties.py holds what the
sentence ties to several numbers at once (lists, pairs, a score beside the systems it beats).
"""

from __future__ import annotations

import re

from pipeline.lib.extract.ties import NAME_GOES_ON, NUMBER_LIST_GAP, System, named_in, unknown_name, within
from pipeline.lib.extract.vocabulary import VARIANT_WORDS, alternation

# The words that make a number a change: "3× faster", "5% more", "a 2× speedup".
COMPARATIVE = (
    r"faster|slower|speed-?ups?|more|less|fewer|higher|lower|larger|smaller|better|worse|reductions?"
    r"|improvements?|increases?|decreases?|gains?|acceleration|compression|cheaper|greater|as\b|the\b"
)
COMPARATIVE_AFTER = re.compile(rf"\s+(?:{COMPARATIVE})", re.IGNORECASE)
_MAX_PHRASE = 80
COMPARED_TYPES = frozenset({"method", "model"})
# A change and the systems after it: "2.1× faster than A", "3% over A", "+5 points relative to A"
_COMPARED_AFTER = re.compile(
    rf"(?:/[\d.]+\s?%?)?(?:(?:\s+(?:{COMPARATIVE}|accuracy|points?|absolute|relative|average|on\s+average)){{0,3}}"
    # a comparative and what it compares: "30% fewer FLOPs than A", "8× better pass rate over A"
    rf"(?:\s+(?:{COMPARATIVE})(?:\s+[\w@.-]+){{1,4}}?)?"
    r"\s+(?:than|over|vs\.?|versus|compared\s+(?:to|with)|relative\s+to|against)"
    # ... or a few words and a word that only compares: "46% GPU memory than A", "97% on new tasks
    # compared to A"
    r"|(?:\s+[^\W\d][\w@-]*){1,4}?\s+(?:than|compared\s+(?:to|with)|relative\s+to)"
    # ... or a few words naming a change, then "over": "72.3% overall bit rate saving over A"
    r"|(?:\s+[^\W\d][\w@-]*){0,3}?\s+(?:savings?|reductions?|improvements?|gains?|speed-?ups?|boosts?)\s+over)"
    r"\s+(?:(?:the|its|their)\s+)?(?-i:[a-z]+(?:-[a-z]+)+\s+)?"
    # ... a word that says which variant, kept with the name: "than standard A"
    rf"(?:(?-i:{alternation(VARIANT_WORDS)})\s+(?=[A-Z]))?"
    # ... or the other system's own value first: "72% compared to 28% for (default) A".
    r"(?:\d[\d.,]*\s?%?\s+(?:for|of|by|with|from)\s+(?:the\s+)?(?:[a-z]+\s+)?)?",
    re.IGNORECASE,
)
_NAME_TEXT = r"(?:[^\d,;.()]|(?<=[A-Za-z-])\d+(?:\.\d+)*)"
# A verb of comparison, the systems, then "by" and the number: "outperforms A and B by 5%".
_COMPARED_BEFORE = re.compile(
    r"\b(?:(?P<beats>outperform|surpass|beat|exceed|outpac)|improv|boost)\w*(?:\s+(?:up)?on|\s+over)?\s+"
    r"(?:the\s+)?"
    # "outperforms the strongest baseline, A, by 3%": the name in apposition; digits only inside a
    # name ("Llama-3.1-8B"), never a number of its own
    rf"(?:{_NAME_TEXT}{{2,60}}?,\s*)?(?P<systems>{_NAME_TEXT}{{2,60}}?),?\s+by\s+"
    r"(?:(?:up\s+to|about|around|nearly|over|approximately|roughly|almost|a\s+relative)\s+)?[+]?$",
    re.IGNORECASE,
)
_MEASURE_OF = re.compile(r"\s(?<!terms\s)of\s")
# Where the systems beaten end: "outperforms A on B by 3%", "surpasses A in terms of speed by 52×",
# "outperforms A using B by 4%" (B is what A was run with).
_OBJECT_END = re.compile(r"\s(?:on|in|across|for|at|under|with|using|when|while)\s")
# A name that only says which kind of unnamed systems were beaten: "all prior A methods".
_UNNAMED_BEFORE = re.compile(
    r"\b(?:all|existing|pre-existing|prior|previous|earlier|other|current|conventional|traditional"
    r"|state-of-the-art|sota)\s+"
    r"(?:[\w-]+\s+){0,2}$",
    re.IGNORECASE,
)
# The kind may follow a word or two that say what the systems do: "prior LLM inference systems".
_KIND_AFTER = re.compile(
    r"\s+(?:(?!(?:and|or|with|by|on|in)\b)[a-z][\w-]*\s+){0,2}"
    r"(?:methods|approaches|baselines|techniques|algorithms|models|frameworks|systems|variants|works)\b"
    r"(?P<examples>,?\s+(?:such\s+as|including|like)\b)?"
)
# Nothing but systems: "improves A and B by 3%" (not "improves the ImageNet accuracy by 3%").
_ONLY_SYSTEMS = re.compile(r"(?:\s|,|\b(?:and|both|the)\b)*", re.IGNORECASE)
# A clause that opens on what it compares with: "Compared to the SOTA method, IFC, it ...".
_COMPARED_OPENING = re.compile(
    r"\s*(?:[Cc]ompared|[Rr]elative)\s+(?:to|with)\s+(?P<systems>[^\d,;.()]{2,60}?)(?:,\s*[^\d,;.()]{2,30})?,"
)


def compared_systems(
    text: str, systems: list[System], clause_start: int, start: int, end: int, unit: str | None
) -> str | None:
    """The systems (of the clause, sorted) a change [start, end) is measured against: named right
    after it ("2.1× faster than A", "+3% over A and B"), before it by a verb of comparison
    ("outperforms A by 5%"), or by the clause's opening ("Compared to A, it is 4× faster"). A
    plain value ("A reaches 72%") is compared with nothing. `systems` hold no metric typed as a
    system (`MAE`); a dataset (index -1) is one only right after the change."""
    rivals = [s for s in systems if not NAME_GOES_ON.match(text, s.end)]
    systems = [system for system in rivals if system.index >= 0]
    names = []
    after = _COMPARED_AFTER.match(text, end)
    first = after and next((s for s in rivals if s.start == after.end()), None)
    unknown = after and not first and unknown_name(text, after.end())
    if after and (first or unknown):
        name_end = first.end if first else after.end() + len(unknown)
        # "2× more requests than the state-of-the-art A inference systems" names none
        if not _unnamed_kind(text, after.start(), after.end(), name_end):
            names = [_as_written(text, first), *_listed_after(text, rivals, first)] if first else [unknown]
    elif unit is not None:
        before = _COMPARED_BEFORE.search(text, max(0, start - _MAX_PHRASE), start)
        opening = _COMPARED_OPENING.match(text, clause_start)
        if before:
            # "improves the NDS of A by 3%": what is measured comes before "of", the system after it
            names = _systems_before(text, systems, before)
        elif opening and (unit == "×" or text[start] == "+" or COMPARATIVE_AFTER.match(text, end)):
            names = [s.name for s in within(systems, opening.start("systems"), opening.end())]
    return ", ".join(dict.fromkeys(names)) or None


def _systems_before(text: str, systems: list[System], before: re.Match) -> list[str]:
    """The systems a verb of comparison names before "by": the object of "outperforms" up to its
    first preposition; for "improves", the systems the measure is "of" or that own it ("A's"), or
    an object that is nothing but systems ("improves A by 3%", not "improves the top-1 A accuracy by 3%")."""
    start, end = before.span("systems")
    of = max((m.end() for m in _MEASURE_OF.finditer(text, start, end)), default=-1)
    if before["beats"] or of >= 0:
        start = start if before["beats"] else of
        cut = _OBJECT_END.search(text, start, end)
        end = cut.start() if cut else end
        named = within(systems, start, end)
        kinds = [s for s in named if _unnamed_kind(text, start, s.start, s.end)]
        named = [s for s in named if s not in kinds]
        return named_in(text, named, start, end) if named or not kinds else []
    named = within(systems, start, end)
    owners = [s.name for s in named if text.startswith(("'s ", "’s "), s.end)]  # "improves A's F1 by"
    if owners:
        return owners
    gaps = zip([start] + [s.end for s in named], [s.start for s in named] + [end], strict=True)
    return [s.name for s in named] if all(_ONLY_SYSTEMS.fullmatch(text, a, b) for a, b in gaps) else []


def _listed_after(text: str, systems: list[System], first: System) -> list[str]:
    """The systems listed right after the first one compared ("than A, B and C")."""
    listed = []
    position = first.end
    for system in systems:
        if system.start > position and NUMBER_LIST_GAP.fullmatch(text, position, system.start):
            listed.append(system.name)
            position = system.end
    return listed


def _unnamed_kind(text: str, start: int, name_start: int, name_end: int) -> bool:
    """Whether the name at [name_start, name_end) names only the kind of the systems beaten:
    unnamed ("outperforms all pre-existing A methods by 4%": none named) or named after it ("A
    methods such as B": B), the object starting at `start`."""
    kind = _KIND_AFTER.match(text, name_end)
    return bool(kind) and bool(
        kind["examples"] or _UNNAMED_BEFORE.search(text, max(start, name_start - 60), name_start)
    )


_GENERIC_BEFORE = re.compile(rf"\b(?-i:{alternation(VARIANT_WORDS)})\s+$")


def _as_written(text: str, system: System) -> str:
    """A system's name with the word before it that says which variant is compared, as the sentence
    writes it: "than standard A" compares "standard A", "vanilla A" is not A improved."""
    modifier = _GENERIC_BEFORE.search(text, max(0, system.start - 16), system.start)
    return f"{modifier.group().rstrip()} {system.name}" if modifier else system.name
