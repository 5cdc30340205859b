"""Normalise the fields records carry: external ids, authors, dates, keywords, venue and year.

Every reader maps its source's fields onto `RECORD_FIELDS` and passes the values through these
functions, so an id or a date is spelled one way whatever file it came from.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from pipeline.lib import schema

# The fields a record may carry, besides its abstract (see `Record`): the schema's, venue and year.
RECORD_FIELDS = (*schema.RECORD_FIELDS, "venue", "year")
STRONG_IDS = schema.STRONG_IDS

_DOI = re.compile(r"(10\.\d{4,9}/\S+)", re.IGNORECASE)
# New-style (2101.00001) and old-style (hep-th/9901001, math.GT/0309136) arXiv ids.
_ARXIV = re.compile(
    r"(?:arxiv\.org/(?:abs|pdf)/|arxiv:\s*)?(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?",
    re.IGNORECASE,
)
_OPENREVIEW_URL = re.compile(r"openreview\.net/(?:forum|pdf)\?id=([A-Za-z0-9_-]+)")
_OPENREVIEW_ID = re.compile(r"^[A-Za-z0-9_-]{8,16}$")
_OPENALEX = re.compile(r"(?:openalex\.org/)?(W\d+)$", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_ISO_DATE = re.compile(r"^((?:19|20)\d{2})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    )
}
_RFC_DATE = re.compile(r"(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+((?:19|20)\d{2})")


def text(value) -> str | None:
    """A field's text with whitespace collapsed; None for empty or missing values."""
    if value is None:
        return None
    if not isinstance(value, str):
        value = str(value)
    value = " ".join(value.split())  # every run of whitespace one space, as \s+ would
    return value or None


def doi(value) -> str | None:
    """'https://doi.org/10.1000/XYZ' and 'doi:10.1000/xyz' are both '10.1000/xyz'."""
    found = _DOI.search(text(value) or "")
    return found.group(1).rstrip(".,;").lower() if found else None


def arxiv_id(value) -> str | None:
    """The arXiv id without its version: 'arXiv:2101.00001v2' and '.../abs/2101.00001' are '2101.00001'."""
    found = _ARXIV.search(text(value) or "")
    return found.group(1) if found else None


def openreview_id(value) -> str | None:
    """An OpenReview forum id, given bare or as a forum or PDF link."""
    value = text(value)
    if value is None:
        return None
    found = _OPENREVIEW_URL.search(value)
    if found:
        return found.group(1)
    return value if _OPENREVIEW_ID.match(value) else None


def openalex_id(value) -> str | None:
    """'https://openalex.org/W123' is 'W123'."""
    found = _OPENALEX.search(text(value) or "")
    return found.group(1).upper() if found else None


def s2_corpus_id(value) -> str | None:
    value = text(value)
    return value if value and value.isdigit() else None


def published(value) -> str | None:
    """An ISO date ('2024-05-01'), month ('2024-05') or year ('2024') from the usual spellings."""
    value = text(value)
    if value is None:
        return None
    iso = _ISO_DATE.match(value)
    if iso:
        year, month, day = iso.groups()
        if month and 1 <= int(month) <= 12:
            if day and 1 <= int(day) <= 31:
                return f"{year}-{int(month):02d}-{int(day):02d}"
            return f"{year}-{int(month):02d}"
        return year
    rfc = _RFC_DATE.search(value)  # 'Mon, 2 Apr 2007 19:18:42 GMT', as arXiv writes versions
    if rfc and rfc.group(2).lower()[:3] in _MONTHS:
        day, month, year = int(rfc.group(1)), _MONTHS[rfc.group(2).lower()[:3]], rfc.group(3)
        return f"{year}-{month:02d}-{day:02d}"
    found = _YEAR.search(value)
    return found.group(1) if found else None


def year(value) -> int | None:
    """A plausible publication year in a number or a text ('2024', 'ICLR 2024', 2024.0)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = int(value)
        return number if 1900 <= number <= 2100 else None
    found = _YEAR.search(text(value) or "")
    return int(found.group(1)) if found else None


def split_list(value, separators: str = ";") -> list[str] | None:
    """A list field given as a list, or as one string joined by any of `separators`."""
    if value is None:
        return None
    if isinstance(value, str):
        items: Iterable = re.split("[" + re.escape(separators) + "]", value)
    elif isinstance(value, list | tuple):
        items = value
    else:
        items = [value]
    cleaned = [t for t in (text(item) for item in items if not isinstance(item, dict | list)) if t]
    return cleaned or None


def authors(value) -> list[str] | None:
    """Author names from a list or a string: 'A; B', 'A, B and C' (arXiv), 'Last, First and ...' (BibTeX)."""
    if isinstance(value, str):
        value = text(value)
        if value is None:
            return None
        if ";" in value:
            return split_list(value, ";")
        if " and " in value and "," in value.split(" and ")[0] and value.count(",") >= value.count(" and "):
            # BibTeX: 'Last, First and Last, First'
            return [_bibtex_name(name) for name in value.split(" and ") if name.strip()] or None
        return split_list(re.sub(r",?\s+and\s+", ", ", value), ",")
    return split_list(value)


def _bibtex_name(name: str) -> str:
    parts = [p.strip() for p in name.split(",")]
    if len(parts) == 2 and parts[1]:
        return f"{parts[1]} {parts[0]}"
    return " ".join(p for p in parts if p)


def venue_and_year(value: str | None) -> tuple[str | None, int | None]:
    """'ICLR 2026 Poster' -> ('ICLR', 2026); a venue with no year keeps its text."""
    value = text(value)
    if value is None:
        return None, None
    found = _YEAR.search(value)
    if not found:
        return value, None
    venue = text(value[: found.start()].strip(" ,-_(")) or text(value[found.end() :].strip(" ,-_()"))
    return venue, int(found.group(1))


_FILE_VENUE = re.compile(r"(?:^|[^A-Za-z])([A-Za-z][A-Za-z]{1,15})[ _.-]?((?:19|20)\d{2})(?!\d)")
# How well-known venues are spelled: a file name such as 'corl2024.json' says 'corl'.
_VENUE_SPELLING = {
    v.lower(): v
    for v in [
        "AAAI",
        "ACL",
        "AISTATS",
        "ALT",
        "AutoML",
        "COLING",
        "COLM",
        "COLT",
        "CoRL",
        "CVPR",
        "ECCV",
        "EMNLP",
        "ICCV",
        "ICLR",
        "ICML",
        "IJCAI",
        "KDD",
        "NAACL",
        "NeurIPS",
        "NIPS",
        "SIGIR",
        "UAI",
        "WACV",
        "WWW",
        "ACML",
        "TMLR",
        "JMLR",
    ]
}


def venue_from_file_name(name: str) -> tuple[str | None, int | None]:
    """A venue and year read off a file name ('corl2024.json', 'CoRL_2024_Conference.csv'), the
    last resort when the records say neither."""
    found = next(reversed(list(_FILE_VENUE.finditer(name))), None)  # the last venue-year pair
    if found is None:
        return None, year(name)
    venue = found.group(1)
    return _VENUE_SPELLING.get(venue.lower(), venue), int(found.group(2))


def normalised_title(value: str | None) -> str | None:
    """A title folded for comparison: NFKD, accents and case dropped, non-alphanumerics collapsed."""
    if not value:
        return None
    folded = unicodedata.normalize("NFKD", value)
    folded = "".join(c for c in folded if not unicodedata.combining(c)).lower()
    return " ".join(re.findall(r"[a-z0-9]+", folded)) or None
