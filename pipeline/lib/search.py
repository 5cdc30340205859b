"""Full-text search over the papers: a BM25 index built at publish time and the `search_papers` macro.

DuckDB's fts extension builds the index (`create_fts_index`) and provides its stopwords,
tokenizer and stemmer. It is LOADed from the duckdb-extension-fts package, never INSTALLed, because
installing downloads it and a fresh offline machine has no network. The `search_papers` table macro
then scores with plain SQL over the index tables, looking each query word up in a vocabulary
stemmed at build time (every word form in the papers and its regular inflections), so any DuckDB
client can search the database without the extension. A query word outside the vocabulary is
matched unstemmed.

When the extension cannot be loaded the build still publishes, and `search_papers` raises an error
saying why search is unavailable.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa

MACRO = "search_papers"
SOURCE_TABLE = "papers"
ID_COLUMN = "paper_id"
SNIPPET_COLUMN = "abstract_clean"
# Titles are indexed when the papers table has them; the seed format has none yet.
TEXT_COLUMNS = ("title", "abstract_clean")
INDEX_SCHEMA = f"fts_main_{SOURCE_TABLE}"
STEMMER = "porter"
DEFAULT_LIMIT = 10
SNIPPET_CHARS = 200
SNIPPET_LEAD_CHARS = 60
UNAVAILABLE = "full-text search is unavailable"
# The characters the fts extension's default tokenizer (its `ignore` pattern) treats as separators.
TOKEN_SEPARATORS = "0-9!@#$%^&*()_+={}\\[\\]:;<>,.?~\\\\/\\|''\"`-"
FTS_PACKAGE = "duckdb-extension-fts"
MACRO_DESCRIPTION = (
    f"{MACRO}(query_string, max_results := {DEFAULT_LIMIT}): the papers best matching the query by BM25 "
    "over abstract_clean (and title when present), best first, as paper_id, score and snippet."
)

# The fts extension's own tables plus the vocabulary added here; every column is commented so
# duckdb_columns() documents the whole database.
INDEX_TABLES: dict[str, tuple[str, dict[str, str]]] = {
    "docs": (
        "One row per indexed paper (BM25 index of the fts extension).",
        {
            "docid": "Internal document number of the index.",
            "name": "The paper (papers.paper_id).",
            "len": "Indexed terms in the paper, stopwords excluded.",
        },
    ),
    "terms": (
        "One row per indexed term occurrence (BM25 index of the fts extension).",
        {
            "docid": "The document (docs.docid).",
            "fieldid": "The indexed column (fields.fieldid).",
            "termid": "The stemmed term (dict.termid).",
        },
    ),
    "dict": (
        "The stemmed terms of the index with their document frequency.",
        {
            "termid": "Internal term number.",
            "term": "Stemmed, lower-cased, accent-free term.",
            "df": "Papers containing the term.",
        },
    ),
    "stats": (
        "Corpus statistics used by BM25.",
        {"num_docs": "Indexed papers.", "avgdl": "Mean indexed terms per paper."},
    ),
    "fields": (
        "The columns of papers that are indexed.",
        {"fieldid": "Internal column number.", "field": "Column name in papers."},
    ),
    "stopwords": ("English stopwords left out of the index.", {"sw": "A stopword."}),
    "vocabulary": (
        "Word forms of the papers and their regular inflections with their stems, so a query is stemmed "
        "without the extension.",
        {"token": "A lower-cased, accent-free word form.", "term": "Its stem (dict.term)."},
    ),
    "words": (
        "Every distinct word of the indexed columns, as the tokenizer gives it, kept so that the next "
        "build can index only the papers that changed.",
        {"token": "A lower-cased, accent-free word."},
    ),
}


class SearchUnavailable(RuntimeError):
    """Search cannot run; the message says why and what to do."""


@dataclass(frozen=True)
class SearchHit:
    paper_id: str
    score: float
    snippet: str


def _sql_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def fts_extension_path() -> Path:
    """The fts extension binary shipped by duckdb-extension-fts for the installed duckdb."""
    wanted = f"pip install {FTS_PACKAGE}=={duckdb.__version__}"
    spec = importlib.util.find_spec("duckdb_extension_fts")
    if spec is None or spec.origin is None:
        raise SearchUnavailable(f"the Python package {FTS_PACKAGE} is not installed ({wanted})")
    path = Path(spec.origin).parent / "extensions" / f"v{duckdb.__version__}" / "fts.duckdb_extension"
    if not path.is_file():
        raise SearchUnavailable(
            f"{FTS_PACKAGE} has no fts extension for duckdb {duckdb.__version__} (no {path}; {wanted})"
        )
    return path


def load_fts(con: duckdb.DuckDBPyConnection) -> None:
    """LOAD the fts extension from its package; never download it."""
    con.execute("SET autoinstall_known_extensions = false")
    path = fts_extension_path()
    try:
        con.execute(f"LOAD {_sql_literal(str(path))}")
    except duckdb.Error as error:
        raise SearchUnavailable(f"DuckDB could not load the fts extension {path}: {error}") from error


def _indexed_columns(con: duckdb.DuckDBPyConnection) -> list[str]:
    try:
        # Not duckdb_columns(): its first call takes over a second.
        present = {column[0] for column in con.execute(f"SELECT * FROM {SOURCE_TABLE} LIMIT 0").description}
    except duckdb.CatalogException:
        return []
    return [name for name in TEXT_COLUMNS if name in present]


def _create_unavailable_macro(con: duckdb.DuckDBPyConnection, reason: str) -> None:
    message = f"{UNAVAILABLE}: {reason}"
    con.execute(
        f"CREATE OR REPLACE MACRO {MACRO}(query_string, max_results := {DEFAULT_LIMIT}) AS TABLE "
        f"SELECT error({_sql_literal(message)})::VARCHAR AS {ID_COLUMN}, "
        "NULL::DOUBLE AS score, NULL::VARCHAR AS snippet"
    )
    con.execute(f"COMMENT ON MACRO TABLE {MACRO} IS {_sql_literal(message)}")


# The words of the papers, and every indexed stem (and, for stems ending in 'i', the 'y' form)
# extended by common English suffixes; each form whose stem is an indexed term is kept, so a query
# for "meshes" or "compressing" finds "mesh" and "compression" without stemming at query time.
_VOCABULARY_SQL = """
CREATE TABLE {schema}.vocabulary AS
WITH words AS (SELECT DISTINCT token FROM ({words}) WHERE token <> ''),
bases AS (
    SELECT term AS base FROM {schema}.dict
    UNION SELECT regexp_replace(term, 'i$', 'y') FROM {schema}.dict
),
suffixes AS (
    SELECT unnest([
        '', 'e', 's', 'es', 'ed', 'd', 'ing', 'er', 'ers', 'ion', 'ions', 'ation', 'ations', 'al',
        'ally', 'ly', 'ity', 'ities', 'ive', 'ness', 'ment', 'ments', 'able', 'ism', 'ist', 'ists'
    ]) AS suffix
),
forms AS (
    SELECT token FROM words
    UNION SELECT base || suffix FROM bases, suffixes
)
SELECT forms.token, dict.term
FROM forms JOIN {schema}.dict AS dict ON dict.term = stem(forms.token, {stemmer})
ORDER BY forms.token
"""

# The indexed terms a query asks for: each word stemmed through the vocabulary, or as it is.
_QUERY_TERMS_SQL = """
CREATE OR REPLACE MACRO {schema}.query_terms(query_string) AS TABLE
WITH query_tokens AS (
    SELECT DISTINCT token FROM (SELECT unnest({schema}.tokenize(query_string)) AS token) WHERE token <> ''
)
SELECT DISTINCT dict.termid, dict.term, dict.df
FROM query_tokens
LEFT JOIN {schema}.vocabulary AS vocabulary USING (token)
JOIN {schema}.dict AS dict ON dict.term = coalesce(vocabulary.term, query_tokens.token)
"""

# BM25 exactly as the extension's match_bm25 computes it (k = 1.2, b = 0.75, any query word may
# match). The snippet is a window of the clean abstract around the first word that matched.
_SEARCH_MACRO_SQL = """
CREATE OR REPLACE MACRO {macro}(query_string, max_results := {limit}) AS TABLE
WITH query_terms AS (SELECT * FROM {schema}.query_terms(query_string)),
term_frequencies AS (
    SELECT terms.docid, terms.termid, count(*) AS tf
    FROM {schema}.terms AS terms
    WHERE terms.termid IN (SELECT termid FROM query_terms)
    GROUP BY terms.docid, terms.termid
),
scores AS (
    SELECT docs.name AS paper_id, sum(
        log((stats.num_docs - query_terms.df + 0.5) / (query_terms.df + 0.5) + 1)
        * tf * (1.2 + 1) / (tf + 1.2 * (1 - 0.75 + 0.75 * docs.len / stats.avgdl))
    ) AS score
    FROM term_frequencies
    JOIN query_terms USING (termid)
    JOIN {schema}.docs AS docs USING (docid)
    CROSS JOIN {schema}.stats AS stats
    GROUP BY docs.name
),
ranked AS (
    SELECT paper_id, score FROM scores ORDER BY score DESC, paper_id LIMIT max_results
),
-- The tokenizer's separators replaced one for one by spaces, so a word's position in that text is
-- its position in the clean abstract.
first_hits AS (
    SELECT ranked.paper_id, min(nullif(strpos(
        ' ' || regexp_replace(lower(strip_accents(source.{text})), '[\\s{separators}]', ' ', 'g') || ' ',
        ' ' || vocabulary.token || ' '
    ), 0)) AS position
    FROM ranked
    JOIN {source} AS source ON source.{id} = ranked.paper_id
    LEFT JOIN {schema}.vocabulary AS vocabulary ON vocabulary.term IN (SELECT term FROM query_terms)
    GROUP BY ranked.paper_id
),
windows AS (
    SELECT ranked.paper_id, ranked.score, substr(source.{text}, window_start, {width}) AS body,
        window_start > 1 AS cut_before, window_start + {width} <= length(source.{text}) AS cut_after
    FROM ranked
    JOIN first_hits USING (paper_id)
    JOIN {source} AS source ON source.{id} = ranked.paper_id,
    LATERAL (SELECT greatest(coalesce(first_hits.position, 1) - {lead}, 1) AS window_start)
)
-- A word cut at either edge of the window is dropped and replaced by an ellipsis.
SELECT paper_id, score,
    CASE WHEN cut_before THEN '…' ELSE '' END
    || trim(CASE WHEN cut_after THEN regexp_replace(starts_whole, '\\s+\\S*$', '') ELSE starts_whole END)
    || CASE WHEN cut_after THEN '…' ELSE '' END AS snippet
FROM windows, LATERAL (
    SELECT CASE WHEN cut_before THEN regexp_replace(body, '^\\S*\\s+', '') ELSE body END AS starts_whole
)
ORDER BY score DESC, paper_id
"""


def _comment_index(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(f"COMMENT ON MACRO TABLE {MACRO} IS {_sql_literal(MACRO_DESCRIPTION)}")
    for table, (description, columns) in INDEX_TABLES.items():
        con.execute(f"COMMENT ON TABLE {INDEX_SCHEMA}.{table} IS {_sql_literal(description)}")
        for column, text in columns.items():
            con.execute(f'COMMENT ON COLUMN {INDEX_SCHEMA}.{table}."{column}" IS {_sql_literal(text)}')


def create_search_index(con: duckdb.DuckDBPyConnection, previous: Path | None = None) -> str | None:
    """Index the papers table and create `search_papers`; None when built, else why search is unavailable.

    With `previous`, the database of the last release, the index is that release's index brought up
    to date: its rows for the papers whose indexed text did not change are copied, and only the new
    or changed papers are tokenized (see `_reuse_previous_index`); the tables come out as a full build
    would make them, up to the internal document and term numbers. Without a usable previous index
    the whole table is indexed. Without the extension the macro is still created, and raises that
    reason when called.
    """
    columns = _indexed_columns(con)
    if SNIPPET_COLUMN not in columns:
        reason = f"the database has no {SOURCE_TABLE}.{SNIPPET_COLUMN} column to index"
        _create_unavailable_macro(con, reason)
        return reason
    try:
        load_fts(con)
    except SearchUnavailable as error:
        reason = f"{error}; then rebuild the warehouse"
        _create_unavailable_macro(con, reason)
        return reason
    if previous is None or not _reuse_previous_index(con, previous, columns):
        _create_fts_index(con, columns)
    con.execute(
        _VOCABULARY_SQL.format(
            schema=INDEX_SCHEMA,
            words=f"SELECT token FROM {INDEX_SCHEMA}.words",
            stemmer=_sql_literal(STEMMER),
        )
    )
    con.execute(_QUERY_TERMS_SQL.format(schema=INDEX_SCHEMA))
    con.execute(
        _SEARCH_MACRO_SQL.format(
            macro=MACRO,
            limit=DEFAULT_LIMIT,
            schema=INDEX_SCHEMA,
            source=SOURCE_TABLE,
            id=ID_COLUMN,
            text=SNIPPET_COLUMN,
            width=SNIPPET_CHARS,
            lead=SNIPPET_LEAD_CHARS,
            separators=TOKEN_SEPARATORS,
        )
    )
    _comment_index(con)
    return None


def _pragma_create_fts_index(con: duckdb.DuckDBPyConnection, columns: list[str]) -> None:
    column_list = ", ".join(_sql_literal(c) for c in columns)
    con.execute(
        f"PRAGMA create_fts_index({_sql_literal(SOURCE_TABLE)}, {_sql_literal(ID_COLUMN)}, {column_list}, "
        f"stemmer = {_sql_literal(STEMMER)}, overwrite = 1)"
    )


def _create_fts_index(con: duckdb.DuckDBPyConnection, columns: list[str]) -> None:
    """The extension's index over every paper, and the papers' words, made as `create_fts_index`
    makes them (its tokenizer, stopwords and stemmer) but with each distinct word stemmed once and
    joins instead of its correlated updates: at a million papers 95 s against 117 s for
    `create_fts_index` plus 32 s for its words in polars."""
    _create_empty_fts_index(con, columns)
    names = {"schema": INDEX_SCHEMA, "source": SOURCE_TABLE, "id": ID_COLUMN}
    con.execute(
        f"CREATE TEMP TABLE added_docs AS SELECT rowid AS docid, {ID_COLUMN} AS name, "
        f"{', '.join(columns)} FROM {SOURCE_TABLE}"
    )
    _add_terms(con, columns, with_words=True)
    con.execute(_FULL_INDEX_SQL.format(**names))
    for table in ("added_docs", "added_terms", "all_terms"):
        con.execute(f"DROP TABLE {table}")


def _create_empty_fts_index(con: duckdb.DuckDBPyConnection, columns: list[str]) -> None:
    """The extension's schema, macros, stopwords and fields with empty tables: the papers table is
    set aside while the extension indexes an empty copy of it."""
    aside = f"{SOURCE_TABLE}_being_indexed"
    con.execute(f"ALTER TABLE {SOURCE_TABLE} RENAME TO {aside}")
    con.execute(f"CREATE TABLE {SOURCE_TABLE} AS SELECT * FROM {aside} LIMIT 0")
    _pragma_create_fts_index(con, columns)
    con.execute(f"DROP TABLE {SOURCE_TABLE}")
    con.execute(f"ALTER TABLE {aside} RENAME TO {SOURCE_TABLE}")


PREVIOUS = "previous_release"

# The papers of the last release whose indexed text is unchanged, and the new or changed ones with
# document numbers after the last release's.
_KEPT_AND_ADDED_SQL = """
CREATE TEMP TABLE kept_docs AS
SELECT old.docid, old.name, old.len
FROM {previous}.{schema}.docs AS old
JOIN {source} AS new ON new.{id} = old.name
JOIN {previous}.{source} AS old_paper ON old_paper.{id} = old.name
WHERE {unchanged};
CREATE TEMP TABLE added_docs AS
SELECT (SELECT coalesce(max(docid), -1) FROM {previous}.{schema}.docs) + row_number() OVER () AS docid,
    new.{id} AS name, {columns}
FROM {source} AS new
WHERE new.{id} NOT IN (SELECT name FROM kept_docs);
"""

# The extension's terms for the added papers: each field's tokens, stopwords and empty tokens left
# out, stemmed. Each distinct word is stemmed once: stemming every occurrence, as the extension
# does, took longer than tokenizing.
_ADDED_TOKENS_SQL = """
CREATE TEMP TABLE added_tokens AS
SELECT t.w, t.docid, t.fieldid FROM ({fields}) AS t WHERE t.w NOT NULL AND len(t.w) > 0
"""
_ADDED_TERMS_SQL = """
CREATE TEMP TABLE added_stems AS
SELECT w, stem(w, {stemmer}) AS term
FROM (SELECT DISTINCT w FROM added_tokens WHERE w NOT IN (SELECT sw FROM {schema}.stopwords));
CREATE TEMP TABLE added_terms AS
SELECT added_stems.term, added_tokens.docid, added_tokens.fieldid
FROM added_tokens JOIN added_stems USING (w);
DROP TABLE added_stems;
"""

_FIELD_TOKENS_SQL = (
    "SELECT unnest({schema}.tokenize(added_docs.{column})) AS w, docid, {fieldid} AS fieldid FROM added_docs"
)

# Every paper indexed: numbered terms, the terms' document frequencies, each paper's length and
# the statistics, as the extension defines them. Document frequencies are counted on the numbered
# terms: counted on the words, at a million papers they did not fit in 1 GB.
_FULL_INDEX_SQL = """
INSERT INTO {schema}.docs
SELECT added_docs.docid, added_docs.name, count(added_terms.term)
FROM added_docs LEFT JOIN added_terms USING (docid)
GROUP BY added_docs.docid, added_docs.name;
CREATE TEMP TABLE all_terms AS
SELECT row_number() OVER () - 1 AS termid, term FROM (SELECT DISTINCT term FROM added_terms);
INSERT INTO {schema}.terms (docid, fieldid, termid)
SELECT added_terms.docid, added_terms.fieldid, all_terms.termid
FROM added_terms JOIN all_terms USING (term);
INSERT INTO {schema}.dict
SELECT all_terms.termid, all_terms.term, df.n
FROM (
    SELECT termid, count(*) AS n FROM (SELECT DISTINCT termid, docid FROM {schema}.terms) GROUP BY termid
) AS df
JOIN all_terms USING (termid);
DELETE FROM {schema}.stats;
INSERT INTO {schema}.stats
SELECT count(docs.docid), sum(docs.len) / count(docs.len) FROM {schema}.docs AS docs;
"""

# Copy what is unchanged, add what is new, and recount the document frequencies and the statistics
# as the extension defines them.
_UPDATE_INDEX_SQL = """
INSERT INTO {schema}.docs SELECT docid, name, len FROM kept_docs;
INSERT INTO {schema}.docs
SELECT added_docs.docid, added_docs.name, count(added_terms.term)
FROM added_docs LEFT JOIN added_terms USING (docid)
GROUP BY added_docs.docid, added_docs.name;
INSERT INTO {schema}.terms
SELECT old.* FROM {previous}.{schema}.terms AS old WHERE old.docid IN (SELECT docid FROM kept_docs);
CREATE TEMP TABLE new_terms AS
SELECT (SELECT coalesce(max(termid), -1) FROM {previous}.{schema}.dict) + row_number() OVER () AS termid,
    term
FROM (SELECT DISTINCT term FROM added_terms WHERE term NOT IN (SELECT term FROM {previous}.{schema}.dict));
CREATE TEMP TABLE all_terms AS
SELECT termid, term FROM {previous}.{schema}.dict UNION ALL SELECT termid, term FROM new_terms;
INSERT INTO {schema}.terms (docid, fieldid, termid)
SELECT added_terms.docid, added_terms.fieldid, all_terms.termid
FROM added_terms JOIN all_terms USING (term);
CREATE TEMP TABLE removed_df AS
SELECT termid, count(DISTINCT docid) AS n
FROM {previous}.{schema}.terms
WHERE docid NOT IN (SELECT docid FROM kept_docs)
GROUP BY termid;
CREATE TEMP TABLE added_df AS
SELECT all_terms.termid, count(DISTINCT added_terms.docid) AS n
FROM added_terms JOIN all_terms USING (term)
GROUP BY all_terms.termid;
INSERT INTO {schema}.dict
SELECT all_terms.termid, all_terms.term,
    coalesce(old.df, 0) - coalesce(removed_df.n, 0) + coalesce(added_df.n, 0) AS df
FROM all_terms
LEFT JOIN {previous}.{schema}.dict AS old USING (termid)
LEFT JOIN removed_df USING (termid)
LEFT JOIN added_df USING (termid)
WHERE coalesce(old.df, 0) - coalesce(removed_df.n, 0) + coalesce(added_df.n, 0) > 0;
DELETE FROM {schema}.stats;
INSERT INTO {schema}.stats
SELECT count(docs.docid), sum(docs.len) / count(docs.len) FROM {schema}.docs AS docs;
"""


def _reuse_previous_index(con: duckdb.DuckDBPyConnection, previous: Path, columns: list[str]) -> bool:
    """Bring the previous release's index up to date for the papers table; False, with nothing
    changed, when that index cannot be reused (no such file, another layout, other fields, another
    tokenizer, stemmer or stopwords), and the caller then indexes every paper."""
    try:
        con.execute(f"ATTACH {_sql_literal(str(previous))} AS {PREVIOUS} (READ_ONLY)")
    except duckdb.Error:
        return False  # missing, locked by a writer, or from a DuckDB that cannot read it
    try:
        if not _previous_index_matches(con, columns):
            return False
        _create_empty_fts_index(con, columns)
        if not _same_tokenizer(con):
            con.execute(f"DROP SCHEMA {INDEX_SCHEMA} CASCADE")
            return False
        names = {"previous": PREVIOUS, "schema": INDEX_SCHEMA, "source": SOURCE_TABLE, "id": ID_COLUMN}
        unchanged = " AND ".join(f"new.{c} IS NOT DISTINCT FROM old_paper.{c}" for c in columns)
        con.execute(
            _KEPT_AND_ADDED_SQL.format(
                **names, unchanged=unchanged, columns=", ".join(f"new.{c}" for c in columns)
            )
        )
        _add_terms(con, columns, with_words=False)
        con.execute(_UPDATE_INDEX_SQL.format(**names))
        _update_words(con, columns)
        for table in (
            "kept_docs",
            "added_docs",
            "added_terms",
            "new_terms",
            "all_terms",
            "removed_df",
            "added_df",
        ):
            con.execute(f"DROP TABLE {table}")
        return True
    finally:
        con.execute(f"DETACH {PREVIOUS}")


REPLACED = "papers_replaced"

# In a database whose papers table was just brought up to date (the index still that of its rows
# before): the indexed papers whose row was replaced with another text or removed leave the index,
# and the papers not in it (new, or with a new text) are numbered after the last document.
_LEFT_AND_ADDED_SQL = """
CREATE TEMP TABLE left_docs AS
SELECT docs.docid FROM {schema}.docs AS docs
JOIN {replaced} AS old ON old.{id} = docs.name
LEFT JOIN {source} AS new ON new.{id} = old.{id}
WHERE new.{id} IS NULL OR NOT ({unchanged});
CREATE TEMP TABLE removed_df AS
SELECT termid, count(DISTINCT docid) AS n FROM {schema}.terms
WHERE docid IN (SELECT docid FROM left_docs) GROUP BY termid;
DELETE FROM {schema}.terms WHERE docid IN (SELECT docid FROM left_docs);
DELETE FROM {schema}.docs WHERE docid IN (SELECT docid FROM left_docs);
CREATE TEMP TABLE added_docs AS
SELECT (SELECT coalesce(max(docid), -1) FROM {schema}.docs) + row_number() OVER () AS docid,
    new.{id} AS name, {columns}
FROM {source} AS new ANTI JOIN {schema}.docs AS docs ON docs.name = new.{id};
"""

# The added papers' documents and terms, new terms numbered after the last, and the document
# frequencies and statistics recounted as the extension defines them.
_IN_PLACE_SQL = """
INSERT INTO {schema}.docs
SELECT added_docs.docid, added_docs.name, count(added_terms.term)
FROM added_docs LEFT JOIN added_terms USING (docid)
GROUP BY added_docs.docid, added_docs.name;
INSERT INTO {schema}.dict
SELECT (SELECT coalesce(max(termid), -1) FROM {schema}.dict) + row_number() OVER () AS termid, term, 0
FROM (SELECT DISTINCT term FROM added_terms WHERE term NOT IN (SELECT term FROM {schema}.dict));
INSERT INTO {schema}.terms (docid, fieldid, termid)
SELECT added_terms.docid, added_terms.fieldid, dict.termid
FROM added_terms JOIN {schema}.dict AS dict USING (term);
CREATE TEMP TABLE added_df AS
SELECT dict.termid, count(DISTINCT added_terms.docid) AS n
FROM added_terms JOIN {schema}.dict AS dict USING (term)
GROUP BY dict.termid;
UPDATE {schema}.dict AS dict SET df = dict.df + delta.n
FROM (
    SELECT termid, sum(n) AS n FROM (
        SELECT termid, n FROM added_df UNION ALL SELECT termid, -n FROM removed_df
    ) GROUP BY termid
) AS delta
WHERE dict.termid = delta.termid;
DELETE FROM {schema}.dict WHERE df <= 0;
DELETE FROM {schema}.stats;
INSERT INTO {schema}.stats
SELECT count(docs.docid), sum(docs.len) / count(docs.len) FROM {schema}.docs AS docs;
"""


def remember_replaced_papers(con: duckdb.DuckDBPyConnection, paper_ids: str) -> None:
    """Keep the indexed text of the papers whose rows are about to be deleted or replaced (ids in
    the relation `paper_ids`, column `key`), for `update_search_index` to tell which left the index."""
    columns = _indexed_columns(con)
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE {REPLACED} AS SELECT {', '.join([ID_COLUMN, *columns])} "
        f"FROM {SOURCE_TABLE} WHERE {ID_COLUMN} IN (SELECT key FROM {paper_ids})"
    )


def update_search_index(con: duckdb.DuckDBPyConnection) -> bool:
    """Bring the database's own index up to date with its papers table, in place, after rows were
    replaced as `remember_replaced_papers` recorded: only the papers whose text left or entered the
    index are touched, so the work follows the change, not the corpus. The tables come out as a full
    build would make them, up to the internal document and term numbers. False, with nothing
    changed, when the database's index cannot be updated so (none, other fields, no extension): the
    caller then indexes every paper."""
    columns = _indexed_columns(con)
    try:
        present = {row[0] for row in con.execute(f"SELECT field FROM {INDEX_SCHEMA}.fields").fetchall()}
        load_fts(con)
    except (duckdb.Error, SearchUnavailable):
        return False
    if present != set(columns) or SNIPPET_COLUMN not in columns:
        return False
    names = {"schema": INDEX_SCHEMA, "source": SOURCE_TABLE, "id": ID_COLUMN, "replaced": REPLACED}
    unchanged = " AND ".join(f"new.{c} IS NOT DISTINCT FROM old.{c}" for c in columns)
    con.execute(
        _LEFT_AND_ADDED_SQL.format(
            **names, unchanged=unchanged, columns=", ".join(f"new.{c}" for c in columns)
        )
    )
    _add_terms(con, columns, with_words=False)
    con.execute(_IN_PLACE_SQL.format(**names))
    (left,) = con.execute("SELECT count(*) FROM left_docs").fetchone()
    (added,) = con.execute("SELECT count(*) FROM added_docs").fetchone()
    if left or added:
        # A paper that left may have taken words no other paper has: then every paper's are read again.
        con.register(
            "paper_words", _distinct_words(con, columns, source=SOURCE_TABLE if left else "added_docs")
        )
        if left:
            con.execute(f"DELETE FROM {INDEX_SCHEMA}.words")
        con.execute(
            f"INSERT INTO {INDEX_SCHEMA}.words SELECT DISTINCT token FROM paper_words "
            f"WHERE token NOT IN (SELECT token FROM {INDEX_SCHEMA}.words)"
        )
        con.unregister("paper_words")
        con.execute(f"DROP TABLE {INDEX_SCHEMA}.vocabulary")
        con.execute(
            _VOCABULARY_SQL.format(
                schema=INDEX_SCHEMA,
                words=f"SELECT token FROM {INDEX_SCHEMA}.words",
                stemmer=_sql_literal(STEMMER),
            )
        )
        _comment_index(con)
    for table in ("left_docs", "removed_df", "added_docs", "added_terms", "added_df", REPLACED):
        con.execute(f"DROP TABLE {table}")
    return True


def _add_terms(con: duckdb.DuckDBPyConnection, columns: list[str], with_words: bool) -> None:
    """`added_terms` (term, docid, fieldid) for the papers of `added_docs`; with_words, also the
    words table: every distinct token, stopwords included."""
    fields = " UNION ALL ".join(
        _FIELD_TOKENS_SQL.format(schema=INDEX_SCHEMA, column=column, fieldid=fieldid)
        for fieldid, column in enumerate(columns)
    )
    con.execute(_ADDED_TOKENS_SQL.format(fields=fields))
    if with_words:
        con.execute(f"CREATE TABLE {INDEX_SCHEMA}.words AS SELECT DISTINCT w AS token FROM added_tokens")
    con.execute(_ADDED_TERMS_SQL.format(schema=INDEX_SCHEMA, stemmer=_sql_literal(STEMMER)))
    con.execute("DROP TABLE added_tokens")


def _previous_index_matches(con: duckdb.DuckDBPyConnection, columns: list[str]) -> bool:
    def names(sql: str, name: str) -> set[str]:
        return {row[0] for row in con.execute(sql, [PREVIOUS, name]).fetchall()}

    tables = names(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = ? AND schema_name = ?", INDEX_SCHEMA
    )
    if not {"docs", "terms", "dict", "stats", "fields", "stopwords", "words", "vocabulary"} <= tables:
        return False
    fields = con.execute(f"SELECT field FROM {PREVIOUS}.{INDEX_SCHEMA}.fields ORDER BY fieldid").fetchall()
    present = names(
        "SELECT column_name FROM duckdb_columns() WHERE database_name = ? AND table_name = ?", SOURCE_TABLE
    )
    return [f for (f,) in fields] == columns and set(columns) <= present and ID_COLUMN in present


def _same_tokenizer(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether this extension tokenizes, stems and stops words as the one that built the previous index."""
    (current,) = con.execute("SELECT current_database()").fetchone()
    definitions = dict(
        con.execute(
            "SELECT database_name, macro_definition FROM duckdb_functions() "
            "WHERE schema_name = ? AND function_name = 'tokenize'",
            [INDEX_SCHEMA],
        ).fetchall()
    )
    if definitions.get(PREVIOUS) is None or definitions.get(PREVIOUS) != definitions.get(current):
        return False
    # The previous vocabulary holds word forms with the stems its extension gave them.
    stems_alike = con.execute(
        f"SELECT count(*) = 0 FROM "
        f"(SELECT * FROM {PREVIOUS}.{INDEX_SCHEMA}.vocabulary USING SAMPLE 2000 ROWS) "
        f"WHERE stem(token, {_sql_literal(STEMMER)}) IS DISTINCT FROM term"
    ).fetchone()[0]
    new, old = f"{INDEX_SCHEMA}.stopwords", f"{PREVIOUS}.{INDEX_SCHEMA}.stopwords"
    stopwords_alike = con.execute(
        f"SELECT count(*) = 0 FROM ((SELECT sw FROM {new} EXCEPT SELECT sw FROM {old}) "
        f"UNION ALL (SELECT sw FROM {old} EXCEPT SELECT sw FROM {new}))"
    ).fetchone()[0]
    return bool(stems_alike and stopwords_alike)


def _update_words(con: duckdb.DuckDBPyConnection, columns: list[str]) -> None:
    """The words of the papers: the previous release's plus the added papers' when no paper left the
    index; read again from every paper when one did, since its words may be nobody else's."""
    removed = con.execute(
        f"SELECT count(*) FROM {PREVIOUS}.{INDEX_SCHEMA}.docs "
        "WHERE docid NOT IN (SELECT docid FROM kept_docs)"
    ).fetchone()[0]
    if removed:
        con.register("paper_words", _distinct_words(con, columns))
    else:
        con.register("paper_words", _distinct_words(con, columns, source="added_docs"))
    con.execute(
        f"CREATE TABLE {INDEX_SCHEMA}.words AS SELECT DISTINCT token FROM ("
        f"SELECT token FROM paper_words"
        + ("" if removed else f" UNION ALL SELECT token FROM {PREVIOUS}.{INDEX_SCHEMA}.words")
        + ")"
    )
    con.unregister("paper_words")


# Rows read from the papers table at a time when collecting its words: their word lists take
# about four times the text, beside the memory DuckDB keeps from building the index.
BATCH_ROWS = 20_000
# A word as the extension's tokenizer splits: a run of characters that are neither its separators
# nor whitespace as RE2 (its regex engine) defines \s.
_WORD = f"[^\\t\\n\\f\\r {TOKEN_SEPARATORS}]+"


def _distinct_words(
    con: duckdb.DuckDBPyConnection, columns: list[str], source: str = SOURCE_TABLE
) -> pa.Table:
    """Every distinct word of the indexed columns (column `token`), as the extension's tokenize
    macro gives them, found by polars: the macro over a million abstracts takes a minute.

    ASCII words are lower-cased here; the few words with other characters go through the macro
    itself, which also strips accents. Lower-casing and accent stripping act on each character and
    keep the ASCII separators, so tokenizing word by word equals tokenizing the whole text.
    """
    text_columns = ", ".join(columns)
    reader = con.execute(f"SELECT {text_columns} FROM {source}").to_arrow_reader(BATCH_ROWS)
    words = pl.concat(
        [
            pl.concat(
                batch.select(word=pl.col(column).str.extract_all(_WORD)).explode("word") for column in columns
            ).unique()
            for batch in map(pl.from_arrow, reader)
        ]
        or [pl.DataFrame(schema={"word": pl.String})]
    ).unique()
    is_ascii = pl.col("word").str.len_bytes() == pl.col("word").str.len_chars()
    con.register("non_ascii_words", words.filter(~is_ascii).to_arrow())
    folded = con.execute(
        f"SELECT DISTINCT unnest({INDEX_SCHEMA}.tokenize(word)) AS token FROM non_ascii_words"
    ).pl()
    con.unregister("non_ascii_words")
    ascii_tokens = words.filter(is_ascii).select(token=pl.col("word").str.to_lowercase())
    return pl.concat([ascii_tokens, folded]).unique().filter(pl.col("token") != "").to_arrow()


def search(con: duckdb.DuckDBPyConnection, query: str, limit: int = DEFAULT_LIMIT) -> list[SearchHit]:
    """The best `limit` papers for `query`, best first; raises SearchUnavailable with the reason."""
    try:
        rows = con.execute(f"SELECT * FROM {MACRO}(?, max_results := ?)", [query, limit]).fetchall()
    except duckdb.CatalogException as error:
        raise SearchUnavailable(
            f"{UNAVAILABLE}: the database has no {MACRO} macro (it was published before search "
            "existed); rebuild the warehouse"
        ) from error
    except duckdb.Error as error:
        if UNAVAILABLE in str(error):
            raise SearchUnavailable(str(error)[str(error).index(UNAVAILABLE) :]) from error
        raise
    return [SearchHit(paper_id, score, snippet) for paper_id, score, snippet in rows]


def matching_words(con: duckdb.DuckDBPyConnection, query: str) -> set[str]:
    """The word forms (lower-cased, accent-free) that match `query`, to highlight; empty without an index."""
    try:
        rows = con.execute(
            f"SELECT DISTINCT token FROM {INDEX_SCHEMA}.vocabulary "
            f"WHERE term IN (SELECT term FROM {INDEX_SCHEMA}.query_terms(?))",
            [query],
        ).fetchall()
    except duckdb.CatalogException:
        return set()
    return {token for (token,) in rows}
