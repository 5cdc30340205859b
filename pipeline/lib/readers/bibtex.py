"""BibTeX files, parsed by bibtexparser (v2).

Each entry is a record located by its key and lines. The abstract is kept as written (the cleaner
renders its LaTeX); titles and author names have their LaTeX rendered here. A `@Proceedings`
entry (as PMLR writes one per volume) gives the venue and year of the entries that lack them. An
entry the parser cannot read (an unbalanced brace, say) is one reject naming its lines.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

import bibtexparser
from bibtexparser.model import DuplicateBlockKeyBlock, Entry, ParsingFailedBlock
from pylatexenc.latex2text import LatexNodes2Text

from pipeline.lib.readers import fields as f
from pipeline.lib.readers.records import Record, RecordSink, SourceDefaults

Batch = tuple[list[dict], list[dict]]
_HEADER_TYPES = {"proceedings", "book", "collection"}
_LATEX = LatexNodes2Text(math_mode="verbatim", keep_braced_groups=False)
_USED = {"title", "author", "abstract", "doi", "eprint", "url", "openreview", "keywords", "year", "month"}
_USED |= {"booktitle", "journal"}


def _latex(value: str | None) -> str | None:
    if not value or not any(c in value for c in "\\{}$~"):
        return f.text(value)
    try:
        return f.text(_LATEX.latex_to_text(value))
    except Exception:  # pylatexenc is lenient; a field it still cannot read is kept as written
        return f.text(value)


def _lines(block) -> tuple[int, int]:
    start = (block.start_line or 0) + 1
    return start, start + max(block.raw.rstrip().count("\n"), 0) if block.raw else start


def proceedings_defaults(entries: list[Entry]) -> SourceDefaults | None:
    for entry in entries:
        if entry.entry_type.lower() in _HEADER_TYPES:
            values = {k.lower(): v for k, v in entry.fields_dict.items()}
            get = {k: v.value for k, v in values.items()}
            venue = get.get("shortname") or get.get("booktitle") or get.get("name") or get.get("title")
            year = f.year(get.get("year"))
            return SourceDefaults(_latex(venue), year, "@proceedings entry", "@proceedings entry")
    return None


def entry_record(entry: Entry) -> Record:
    get = {k.lower(): field.value for k, field in entry.fields_dict.items()}
    values = {
        "title": _latex(get.get("title")),
        "authors": f.authors(_latex(get.get("author"))) if get.get("author") else None,
        "doi": f.doi(get.get("doi")),
        "arxiv_id": f.arxiv_id(get.get("eprint")) if get.get("eprint") else None,
        "openreview_id": f.openreview_id(get.get("openreview")),
        "url": f.text(get.get("url")),
        "keywords": f.split_list(get.get("keywords"), ";,"),
        "published": f.published(get.get("year")),
    }
    if values["arxiv_id"] is None and "arxiv.org" in str(get.get("url")):
        values["arxiv_id"] = f.arxiv_id(get.get("url"))
    venue = _latex(get.get("booktitle") or get.get("journal"))
    year = f.year(get.get("year"))
    if venue:
        values["venue"], values["venue_source"] = venue, "entry"
    if year:
        values["year"], values["year_source"] = year, "entry"
    extra = {k: v for k, v in get.items() if k not in _USED and v}
    extra["entry_type"] = entry.entry_type
    start, end = _lines(entry)
    return Record(start, end, f"entry {entry.key}", get.get("abstract"), values, extra, entry.key)


def read_bibtex(text: str, sink: RecordSink) -> Iterator[Batch]:
    # bibtexparser logs every failed block itself; they are rejects here, with their reasons.
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
    library = bibtexparser.parse_string(text)
    defaults = proceedings_defaults(library.entries)
    if defaults:
        sink.defaults = defaults
    for block in library.blocks:
        if isinstance(block, DuplicateBlockKeyBlock):
            block = block.ignore_error_block
        if isinstance(block, Entry):
            if block.entry_type.lower() in _HEADER_TYPES:
                continue
            sink.add(entry_record(block))
        elif isinstance(block, ParsingFailedBlock):
            start, end = _lines(block)
            error = re.sub(r"\s+", " ", str(block.error)).strip() or type(block.error).__name__
            sink.reject(start, end, f"BibTeX block at lines {start}-{end} is malformed: {error}", block.raw)
    yield sink.take()
