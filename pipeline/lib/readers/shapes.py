"""The known shapes of paper records and their field mappings, plus the generic mapping by column name.

A shape is recognised from the keys of a record (a JSON object or a table row). Each shape maps
its own fields onto the warehouse's (see `fields.RECORD_FIELDS`); whatever a mapping does not use
is kept in the record's `extra`, never dropped.

| shape      | recognised by                                     | abstract from                     |
|------------|---------------------------------------------------|-----------------------------------|
| arxiv      | `id`, `abstract`, `categories`, `versions` or `authors_parsed` | `abstract`            |
| openreview | `forum` and `content` (API v1: plain values; v2: `content.x.value`) | `content.abstract` |
| paperlists | `site` or `track`/`status` beside `author` and `abstract` (Paper Copilot) | `abstract` |
| openalex   | `abstract_inverted_index`, or an `https://openalex.org/W...` id | the inverted index, rebuilt |
| s2         | `corpusid` (Semantic Scholar Datasets `papers`, `abstracts`) | `abstract` (papers have none) |
| crossref   | `DOI` with `container-title` or `issued`, or `message` | `abstract` (JATS XML removed) |
| table      | anything else: columns named like the fields (`COLUMN_ALIASES`) | a column named abstract |
"""

from __future__ import annotations

import datetime
import html
import re
from collections.abc import Callable, Mapping

from pipeline.lib.readers import fields as f
from pipeline.lib.readers.records import Record

# Column or key names (lower case, without spaces, '_' or '-') that mean a field, for any table or
# JSON shape that is not recognised: the generic mapping.
COLUMN_ALIASES: dict[str, tuple[str, ...]] = {
    "abstract": ("abstract", "abstracts", "summary", "abstracttext", "paperabstract", "abs", "description"),
    "title": ("title", "papertitle", "displayname"),
    "authors": ("authors", "author", "authornames", "creators", "authorlist"),
    "doi": ("doi",),
    "arxiv_id": ("arxivid", "arxiv", "eprint", "arxivurl"),
    "openreview_id": ("openreviewid", "forum", "forumid", "openreview", "openreviewurl"),
    "openalex_id": ("openalexid", "openalex"),
    "s2_corpus_id": ("corpusid", "s2corpusid"),
    "url": ("url", "link", "site", "paperurl", "landingpage", "landingpageurl", "forumurl", "pageurl"),
    "published": ("published", "publicationdate", "date", "pubdate", "publishedat"),
    "keywords": ("keywords", "keyword", "tags"),
    "venue": ("venue", "conference", "booktitle", "journal", "containertitle"),
    "year": ("year", "publicationyear", "pubyear"),
    "id": ("id", "paperid", "key", "uid"),
}
_ALIAS_OF = {alias: name for name, aliases in COLUMN_ALIASES.items() for alias in aliases}
_JATS_TAG = re.compile(r"<[^>]+>")
_JATS_TITLE = re.compile(r"<jats:title>\s*abstract\s*</jats:title>", re.IGNORECASE)


def column_key(name: str) -> str:
    return re.sub(r"[\s_.\-]+", "", str(name)).lower()


def field_of_column(name: str) -> str | None:
    return _ALIAS_OF.get(column_key(name))


def _plain(value):
    """OpenReview API v2 wraps every content field as {'value': ...}."""
    if isinstance(value, Mapping) and "value" in value:
        return value["value"]
    return value


def _ids_from_links(values: dict, candidates) -> None:
    """Strong ids written only as links (a forum URL, an arXiv or DOI link) in any text field."""
    for value in candidates:
        if not isinstance(value, str) or "/" not in value:
            continue
        if values.get("openreview_id") is None and "openreview.net" in value:
            values["openreview_id"] = f.openreview_id(value)
        elif values.get("arxiv_id") is None and "arxiv.org/" in value:
            values["arxiv_id"] = f.arxiv_id(value)
        elif values.get("doi") is None and "doi.org/" in value:
            values["doi"] = f.doi(value)


def _venue_fields(values: dict, venue_text, year_value=None, source: str = "record") -> None:
    venue, year = f.venue_and_year(venue_text if isinstance(venue_text, str) else None)
    year = f.year(year_value) or year
    if venue:
        values["venue"], values["venue_source"] = venue, source
    if year:
        values["year"], values["year_source"] = year, source


def generic(obj: Mapping, mapping: Mapping[str, str] | None = None) -> tuple[Record, str]:
    """Any flat record: the user's mapping (field -> column) first, then columns named like a field."""
    columns: dict[str, str] = {}
    for name in obj:
        field = field_of_column(name)
        if field and field not in columns:
            columns[field] = name
    columns.update(mapping or {})
    raw = {field: obj.get(column) for field, column in columns.items()}
    values: dict = {
        "title": f.text(raw.get("title")),
        "authors": f.authors(raw.get("authors")),
        "doi": f.doi(raw.get("doi")),
        "arxiv_id": f.arxiv_id(raw.get("arxiv_id")),
        "openreview_id": f.openreview_id(raw.get("openreview_id")),
        "openalex_id": f.openalex_id(raw.get("openalex_id")),
        "s2_corpus_id": f.s2_corpus_id(raw.get("s2_corpus_id")),
        "url": f.text(raw.get("url")),
        "published": f.published(raw.get("published")),
        "keywords": f.split_list(raw.get("keywords"), ";,"),
    }
    _venue_fields(values, raw.get("venue"), raw.get("year") or raw.get("published"))
    if values["url"] is None and str(raw.get("openreview_id") or "").startswith("http"):
        values["url"] = f.text(raw["openreview_id"])
    key = f.text(raw.get("id"))
    if key and values["openreview_id"] is None and any("openreview.net" in str(v) for v in obj.values()):
        values["openreview_id"] = f.openreview_id(key)
    _ids_from_links(values, obj.values())
    used = set(columns.values())
    extra = {k: v for k, v in obj.items() if k not in used and v not in (None, "")}
    abstract = raw.get("abstract")
    record = Record(0, 0, "", abstract if isinstance(abstract, str) else None, values, extra or None, key)
    record.shape_known = bool(columns)  # not one field named like a known one: a shape to map
    return record, "table"


def arxiv(obj: Mapping) -> Record:
    versions = obj.get("versions") or []
    first = versions[0].get("created") if versions and isinstance(versions[0], Mapping) else None
    parsed = obj.get("authors_parsed")
    if isinstance(parsed, list) and parsed:
        names = [" ".join(p for p in (n[1], n[0], n[2] if len(n) > 2 else "") if p) for n in parsed]
        authors = f.split_list(names)
    else:
        authors = f.authors(obj.get("authors"))
    values = {
        "title": f.text(obj.get("title")),
        "authors": authors,
        "doi": f.doi(obj.get("doi")),
        "arxiv_id": f.arxiv_id(obj.get("id")),
        "url": f"https://arxiv.org/abs/{obj['id']}" if obj.get("id") else None,
        "published": f.published(first) or f.published(obj.get("update_date")),
        "keywords": f.split_list(obj.get("categories"), " "),
    }
    if obj.get("journal-ref"):
        _venue_fields(values, obj["journal-ref"], source="journal-ref")
    if values.get("year") is None and values["published"]:
        values["year"], values["year_source"] = int(values["published"][:4]), "first version"
    used = {"id", "title", "authors", "authors_parsed", "doi", "abstract", "versions", "categories"}
    extra = {k: v for k, v in obj.items() if k not in used and v not in (None, "")}
    return Record(0, 0, "", obj.get("abstract"), values, extra or None, f.text(obj.get("id")))


_INVITATION = re.compile(r"^([^/]+?)(?:\.cc|\.org|\.net)?/(\d{4})/")


def openreview(obj: Mapping, defaults: Mapping | None = None) -> Record:
    content = {k: _plain(v) for k, v in (obj.get("content") or {}).items()}
    forum = obj.get("forum") or obj.get("id")
    values = {
        "title": f.text(content.get("title")),
        "authors": f.authors(content.get("authors")),
        "openreview_id": f.openreview_id(forum),
        "url": f"https://openreview.net/forum?id={forum}" if forum else None,
        "keywords": f.split_list(content.get("keywords"), ";,"),
        "doi": f.doi(content.get("doi")),
        "arxiv_id": f.arxiv_id(content.get("arxiv")) if content.get("arxiv") else None,
    }
    invitation = obj.get("invitation") or (obj.get("invitations") or [None])[0] or obj.get("domain") or ""
    venue_text = content.get("venue")
    if isinstance(venue_text, str) and f.year(venue_text):
        _venue_fields(values, venue_text, source="content.venue")
    else:
        found = _INVITATION.match(str(invitation))
        if found:
            _venue_fields(values, f"{found.group(1)} {found.group(2)}", source="invitation")
    if values.get("year") is None and defaults and defaults.get("year"):
        _venue_fields(values, defaults.get("venue"), defaults.get("year"), source="enclosing object")
    published = obj.get("pdate") or obj.get("odate") or obj.get("cdate")
    if isinstance(published, int | float):
        moment = datetime.datetime.fromtimestamp(published / 1000, tz=datetime.UTC)
        values["published"] = moment.date().isoformat()
    used_content = {"title", "authors", "abstract", "keywords", "venue", "doi", "arxiv"}
    extra = {k: v for k, v in content.items() if k not in used_content and v not in (None, "", [])}
    return Record(0, 0, "", content.get("abstract"), values, extra or None, f.text(forum))


def paperlists(obj: Mapping) -> Record:
    site = obj.get("site") or ""
    values = {
        "title": f.text(obj.get("title")),
        "authors": f.authors(obj.get("author") or obj.get("authors")),
        "openreview_id": f.openreview_id(obj.get("id")) if "openreview.net" in str(site) else None,
        "url": f.text(site) or None,
        "keywords": f.split_list(obj.get("keywords"), ";"),
        "doi": f.doi(obj.get("doi")),
        "arxiv_id": f.arxiv_id(obj.get("arxiv")) if obj.get("arxiv") else None,
    }
    _ids_from_links(values, (site, obj.get("pdf"), obj.get("oa")))
    booktitle = re.search(r"booktitle\s*=\s*\{([^}]*)\}", str(obj.get("bibtex") or ""))
    year = re.search(r"year\s*=\s*\{?(\d{4})", str(obj.get("bibtex") or ""))
    if year:
        _venue_fields(values, booktitle.group(1) if booktitle else None, year.group(1), source="bibtex field")
    used = {"id", "title", "author", "authors", "abstract", "keywords", "site", "doi", "arxiv"}
    extra = {k: v for k, v in obj.items() if k not in used and v not in (None, "")}
    return Record(0, 0, "", obj.get("abstract"), values, extra or None, f.text(obj.get("id")))


def rebuild_inverted_index(index: Mapping | None) -> str | None:
    """OpenAlex's abstract_inverted_index ({word: [positions]}) back to the text, word for word."""
    if not isinstance(index, Mapping) or not index:
        return None
    placed = [(position, word) for word, positions in index.items() for position in positions or ()]
    if not placed:
        return None
    placed.sort()
    return " ".join(word for _, word in placed)


def openalex(obj: Mapping) -> Record:
    ids = obj.get("ids") if isinstance(obj.get("ids"), Mapping) else {}
    authorships = obj.get("authorships") or []
    names = [
        (a.get("author") or {}).get("display_name") or a.get("raw_author_name")
        for a in authorships
        if isinstance(a, Mapping)
    ]
    location = obj.get("primary_location") if isinstance(obj.get("primary_location"), Mapping) else {}
    source = location.get("source") if isinstance(location.get("source"), Mapping) else {}
    keywords = [k.get("display_name") for k in obj.get("keywords") or [] if isinstance(k, Mapping)]
    values = {
        "title": f.text(obj.get("title") or obj.get("display_name")),
        "authors": f.split_list(names),
        "doi": f.doi(obj.get("doi") or ids.get("doi")),
        "openalex_id": f.openalex_id(obj.get("id")),
        "url": f.text(location.get("landing_page_url")) or f.text(obj.get("id")),
        "published": f.published(obj.get("publication_date")) or f.published(obj.get("publication_year")),
        "keywords": f.split_list(keywords),
    }
    _ids_from_links(values, (location.get("landing_page_url"), location.get("pdf_url")))
    _venue_fields(values, source.get("display_name"), obj.get("publication_year"), source="publication_year")
    if source.get("display_name"):
        values["venue_source"] = "primary_location.source"
    used = {"id", "title", "display_name", "authorships", "doi", "publication_date", "keywords"}
    used.add("abstract_inverted_index")
    extra = {k: v for k, v in obj.items() if k not in used and v not in (None, "", [], {})}
    abstract = obj.get("abstract") or rebuild_inverted_index(obj.get("abstract_inverted_index"))
    return Record(0, 0, "", abstract, values, extra or None, values["openalex_id"])


def s2(obj: Mapping) -> Record:
    external = obj.get("externalids") or obj.get("externalIds") or {}
    access = obj.get("openaccessinfo") if isinstance(obj.get("openaccessinfo"), Mapping) else {}
    external = {**(access.get("externalids") or {}), **external}
    corpus = obj.get("corpusid") or obj.get("corpusId")
    values = {
        "title": f.text(obj.get("title")),
        "authors": f.split_list([a.get("name") for a in obj.get("authors") or [] if isinstance(a, Mapping)]),
        "doi": f.doi(external.get("DOI")),
        "arxiv_id": f.arxiv_id(external.get("ArXiv")),
        "s2_corpus_id": f.s2_corpus_id(corpus),
        "url": f.text(obj.get("url")) or f.text(access.get("url")),
        "published": f.published(obj.get("publicationdate") or obj.get("publicationDate"))
        or f.published(obj.get("year")),
    }
    _venue_fields(values, obj.get("venue") or None, obj.get("year"), source="venue/year")
    used = {"corpusid", "corpusId", "externalids", "externalIds", "title", "authors", "url", "abstract"}
    used |= {"publicationdate", "publicationDate"}
    extra = {k: v for k, v in obj.items() if k not in used and v not in (None, "", [], {})}
    return Record(0, 0, "", obj.get("abstract"), values, extra or None, values["s2_corpus_id"])


def jats_to_text(value) -> str | None:
    """Crossref's JATS XML abstract as plain text: tags and the 'Abstract' title removed."""
    if not isinstance(value, str):
        return None
    value = _JATS_TITLE.sub(" ", value)
    value = re.sub(r"</jats:p>\s*<jats:p>", "\n", value)
    return html.unescape(_JATS_TAG.sub(" ", value)).strip() or None


def crossref(obj: Mapping) -> Record:
    def first(value):
        return value[0] if isinstance(value, list) and value else value

    people = [
        " ".join(p for p in (a.get("given"), a.get("family")) if p) or a.get("name")
        for a in obj.get("author") or []
        if isinstance(a, Mapping)
    ]
    issued = obj.get("issued") or obj.get("published") or obj.get("published-print") or {}
    parts = (issued.get("date-parts") or [[None]])[0] if isinstance(issued, Mapping) else [None]
    date = "-".join(f"{p:02d}" if i else str(p) for i, p in enumerate(parts) if isinstance(p, int))
    values = {
        "title": f.text(first(obj.get("title"))),
        "authors": f.split_list(people),
        "doi": f.doi(obj.get("DOI")),
        "url": f.text(obj.get("URL")),
        "published": f.published(date),
        "keywords": f.split_list(obj.get("subject")),
    }
    _venue_fields(values, first(obj.get("container-title")), date or None, source="container-title/issued")
    used = {"DOI", "title", "author", "URL", "subject", "abstract", "issued", "container-title"}
    extra = {k: v for k, v in obj.items() if k not in used and v not in (None, "", [], {})}
    return Record(0, 0, "", jats_to_text(obj.get("abstract")), values, extra or None, values["doi"])


def detect(obj: Mapping) -> str:
    """The shape of one record, from its keys."""
    keys = obj.keys()
    if "abstract_inverted_index" in keys or str(obj.get("id", "")).startswith("https://openalex.org/W"):
        return "openalex"
    if "corpusid" in keys or "corpusId" in keys:
        return "s2"
    if "content" in keys and isinstance(obj.get("content"), Mapping) and ("forum" in keys or "id" in keys):
        return "openreview"
    if "DOI" in keys and ("container-title" in keys or "issued" in keys or "author" in keys):
        return "crossref"
    if "abstract" in keys and "categories" in keys and ("versions" in keys or "authors_parsed" in keys):
        return "arxiv"
    if "abstract" in keys and "author" in keys and ("site" in keys or "track" in keys or "status" in keys):
        return "paperlists"
    return "table"


MAPPERS: dict[str, Callable[[Mapping], Record]] = {
    "arxiv": arxiv,
    "openreview": openreview,
    "paperlists": paperlists,
    "openalex": openalex,
    "s2": s2,
    "crossref": crossref,
}


def to_record(obj: Mapping, mapping: Mapping[str, str] | None = None, defaults: Mapping | None = None):
    """(record, shape) of one object: the user's mapping wins over recognising a shape."""
    shape = "table" if mapping else detect(obj)
    if shape == "table":
        return generic(obj, mapping)
    if shape == "openreview":
        return openreview(obj, defaults), shape
    return MAPPERS[shape](obj), shape
