"""Full-text search: the BM25 index, the search_papers macro, and what happens without the extension."""

import duckdb
import pytest

from pipeline.lib import search
from pipeline.lib.search import SearchUnavailable, create_search_index, matching_words

PAPERS = {
    "P-mesh": (
        "The growing demand for 3D mesh models has fueled the need for efficient mesh compression. "
        "We propose a neural mesh compression method based on a sparse implicit representation."
    ),
    "P-kv": "Existing KV cache compression methods retain important pairs to minimise storage.",
    "P-graph": "Graph neural networks propagate messages between nodes of molecular graphs.",
    "P-privacy": "We study online learning under local differential privacy with expert advice.",
}
LONG_ABSTRACT = " ".join(["Filler words about nothing in particular."] * 30 + ["Then a hypergraph appears."])


def _papers_database(path=":memory:", papers=PAPERS, title: dict | None = None):
    con = duckdb.connect(str(path))
    columns = "paper_id VARCHAR, abstract_clean VARCHAR" + (", title VARCHAR" if title is not None else "")
    con.execute(f"CREATE TABLE papers ({columns})")
    for paper_id, text in papers.items():
        row = [paper_id, text] + ([title.get(paper_id)] if title is not None else [])
        con.execute(f"INSERT INTO papers VALUES ({', '.join('?' * len(row))})", row)
    return con


@pytest.fixture
def indexed():
    con = _papers_database(papers={**PAPERS, "P-long": LONG_ABSTRACT})
    assert create_search_index(con) is None
    yield con
    con.close()


def test_best_match_comes_first_with_a_snippet(indexed):
    hits = search.search(indexed, "mesh compression")
    assert [hit.paper_id for hit in hits] == ["P-mesh", "P-kv"]
    assert hits[0].score > hits[1].score > 0
    assert "mesh" in hits[0].snippet
    assert hits[0].snippet == PAPERS["P-mesh"][: len(hits[0].snippet)]


def test_inflected_query_words_match_their_stems(indexed):
    assert search.search(indexed, "compressing meshes")[0].paper_id == "P-mesh"
    assert search.search(indexed, "graph")[0].paper_id == "P-graph"


def test_scores_equal_the_extensions_match_bm25(indexed):
    search.load_fts(indexed)
    for query in ("mesh compression", "compressing meshes", "graph neural networks", "privacy experts"):
        ours = [(hit.paper_id, round(hit.score, 9)) for hit in search.search(indexed, query, limit=100)]
        reference = indexed.execute(
            "SELECT paper_id, round(score, 9) FROM (SELECT paper_id, "
            "fts_main_papers.match_bm25(paper_id, ?) AS score FROM papers) "
            "WHERE score IS NOT NULL ORDER BY score DESC, paper_id",
            [query],
        ).fetchall()
        assert ours == reference, query


def test_stopwords_unknown_words_and_empty_queries_find_nothing(indexed):
    assert search.search(indexed, "the of and") == []
    assert search.search(indexed, "zyzzyva") == []
    assert search.search(indexed, "") == []
    assert search.search(indexed, "  ?!  ") == []


def test_limit_caps_the_hits(indexed):
    assert len(search.search(indexed, "compression", limit=1)) == 1
    assert len(search.search(indexed, "compression", limit=5)) == 2


def test_snippet_is_a_window_around_the_first_match(indexed):
    (hit,) = search.search(indexed, "hypergraphs")
    assert hit.paper_id == "P-long"
    assert hit.snippet.startswith("…")
    assert hit.snippet.endswith("hypergraph appears.")
    assert len(hit.snippet) < len(LONG_ABSTRACT)
    assert not hit.snippet[1].isspace()


def test_titles_are_indexed_when_the_table_has_them():
    con = _papers_database(title={"P-graph": "Message passing for chemistry", "P-kv": "Cache eviction"})
    assert create_search_index(con) is None
    assert [hit.paper_id for hit in search.search(con, "chemistry")] == ["P-graph"]
    assert [hit.paper_id for hit in search.search(con, "eviction")] == ["P-kv"]
    fields = {row[0] for row in con.execute("SELECT field FROM fts_main_papers.fields").fetchall()}
    assert fields == {"title", "abstract_clean"}


def test_database_searches_without_the_extension_loaded(tmp_path):
    path = tmp_path / "papers.duckdb"
    with _papers_database(path) as con:
        assert create_search_index(con) is None
    # No autoloading either: the macro must need nothing but core DuckDB.
    offline = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
    with duckdb.connect(str(path), read_only=True, config=offline) as con:
        loaded = con.execute(
            "SELECT count(*) FROM duckdb_extensions() WHERE loaded AND extension_name = 'fts'"
        )
        assert loaded.fetchone() == (0,)
        rows = con.execute(
            "SELECT paper_id FROM search_papers('mesh compression', max_results := 1)"
        ).fetchall()
        assert rows == [("P-mesh",)]


def test_every_index_column_is_commented(indexed):
    uncommented = indexed.execute(
        "SELECT table_name, column_name FROM duckdb_columns() "
        "WHERE schema_name = ? AND (comment IS NULL OR comment = '')",
        [search.INDEX_SCHEMA],
    ).fetchall()
    assert uncommented == []
    macro = indexed.execute(
        "SELECT comment FROM duckdb_functions() WHERE function_name = ? AND schema_name = 'main'",
        [search.MACRO],
    ).fetchone()
    assert macro == (search.MACRO_DESCRIPTION,)


def test_matching_words_are_the_forms_of_the_query_stems(indexed):
    words = matching_words(indexed, "Compressing")
    assert {"compression", "compressing"} <= words
    assert "mesh" not in words
    assert matching_words(duckdb.connect(), "mesh") == set()


def test_the_extension_ships_with_the_package():
    path = search.fts_extension_path()
    assert path.is_file()
    assert path.name == "fts.duckdb_extension"


def test_without_the_extension_the_build_goes_on_and_search_says_why(monkeypatch):
    def missing():
        raise SearchUnavailable("the Python package duckdb-extension-fts is not installed")

    monkeypatch.setattr(search, "fts_extension_path", missing)
    con = _papers_database()
    reason = create_search_index(con)
    assert reason is not None and "duckdb-extension-fts is not installed" in reason
    assert con.execute("SELECT count(*) FROM papers").fetchone() == (len(PAPERS),)
    with pytest.raises(SearchUnavailable, match=r"^full-text search is unavailable: .*not installed"):
        search.search(con, "mesh")
    # The raw macro tells a DuckDB CLI user the same.
    with pytest.raises(duckdb.Error, match="full-text search is unavailable"):
        con.execute("SELECT * FROM search_papers('mesh')").fetchall()


def test_an_extension_that_does_not_load_is_reported(monkeypatch, tmp_path):
    broken = tmp_path / "fts.duckdb_extension"
    broken.write_bytes(b"not an extension")
    monkeypatch.setattr(search, "fts_extension_path", lambda: broken)
    con = _papers_database()
    reason = create_search_index(con)
    assert reason is not None and "could not load the fts extension" in reason
    with pytest.raises(SearchUnavailable, match="could not load"):
        search.search(con, "mesh")


def test_a_database_without_papers_gets_no_index():
    con = duckdb.connect()
    reason = create_search_index(con)
    assert reason == "the database has no papers.abstract_clean column to index"
    with pytest.raises(SearchUnavailable, match=r"no papers\.abstract_clean"):
        search.search(con, "mesh")


def test_a_database_from_before_search_asks_for_a_rebuild():
    with pytest.raises(SearchUnavailable, match="rebuild the warehouse"):
        search.search(_papers_database(), "mesh")


def _index_tables(con):
    """The index as sets keyed by paper and term, independent of the numbering of ids."""
    schema = search.INDEX_SCHEMA
    docs = set(con.execute(f"SELECT name, len FROM {schema}.docs").fetchall())
    vocabulary = set(con.execute(f"SELECT term, df FROM {schema}.dict").fetchall())
    occurrences = con.execute(
        f"SELECT docs.name, fields.field, dict.term, count(*) FROM {schema}.terms AS terms "
        f"JOIN {schema}.docs AS docs USING (docid) JOIN {schema}.dict AS dict USING (termid) "
        f"JOIN {schema}.fields AS fields USING (fieldid) GROUP BY ALL"
    ).fetchall()
    stats = con.execute(f"SELECT num_docs, avgdl FROM {schema}.stats").fetchall()
    return docs, vocabulary, set(occurrences), stats


UNUSUAL = {
    "P-accents": "Café naïve résumé: Schrödinger's équation and the 3D-U-Net (v2.1) at 99.5% — done!",
    "P-empty": "",
    "P-stop": "the and of it is to be",
    # Characters whose lower case or accent-free form is not one ASCII letter, a separator
    # decomposing to an ASCII one, a combining mark after a separator, and non-ASCII spaces.
    "P-unicode": (
        "İstanbul STRASSE straße a≠b x-\u0301y tab\there\vvertical\u00a0no-break 東京の研究 😀emoji "
        "ﬁne ΣΊΣΥΦΟΣ Ǆemal"
    ),
}


def test_the_words_found_in_polars_are_the_extensions_tokens():
    titles = {"P-graph": "Message passing for chemistry", "P-accents": "Über-fast ÉTUDES"}
    con = _papers_database(papers={**PAPERS, **UNUSUAL}, title=titles)
    assert create_search_index(con) is None
    tokenized = con.execute(
        "SELECT DISTINCT token FROM (SELECT unnest(fts_main_papers.tokenize(abstract_clean)) AS token "
        "FROM papers UNION ALL SELECT unnest(fts_main_papers.tokenize(title)) FROM papers) "
        "WHERE token <> ''"
    ).fetchall()
    words = search._distinct_words(con, ["title", "abstract_clean"])
    assert sorted(words.column("token").to_pylist()) == sorted(token for (token,) in tokenized)
    assert {"istanbul", "straße", "東京の研究", "ǆemal"} <= set(words.column("token").to_pylist())


def test_the_vocabulary_has_the_papers_words_and_their_inflections(indexed):
    vocabulary = {
        token
        for (token,) in indexed.execute(f"SELECT token FROM {search.INDEX_SCHEMA}.vocabulary").fetchall()
    }
    assert {"compression", "compressing", "meshes", "propagate", "nodes"} <= vocabulary


# The index tables as a full build makes them, without the internal document and term numbers.
_INDEX_CONTENT = {
    "docs": "SELECT name, len FROM fts_main_papers.docs",
    "terms": "SELECT d.name, t.fieldid, dict.term, count(*) FROM fts_main_papers.terms AS t "
    "JOIN fts_main_papers.docs AS d USING (docid) JOIN fts_main_papers.dict AS dict USING (termid) "
    "GROUP BY ALL",
    "dict": "SELECT term, df FROM fts_main_papers.dict",
    "stats": "SELECT num_docs, avgdl FROM fts_main_papers.stats",
    "fields": "SELECT fieldid, field FROM fts_main_papers.fields",
    "vocabulary": "SELECT token, term FROM fts_main_papers.vocabulary",
    "words": "SELECT token FROM fts_main_papers.words",
}


def _index_content(con):
    return {name: sorted(con.execute(sql).fetchall()) for name, sql in _INDEX_CONTENT.items()}


def _built_from_previous(tmp_path, before, after, title_before=None, title_after=None):
    previous = tmp_path / "previous.duckdb"
    with _papers_database(previous, before, title_before) as con:
        assert create_search_index(con) is None
    updated = _papers_database(tmp_path / "updated.duckdb", after, title_after)
    assert create_search_index(updated, previous=previous) is None
    full = _papers_database(tmp_path / "full.duckdb", after, title_after)
    assert create_search_index(full) is None
    return updated, full


@pytest.mark.parametrize(
    "after",
    [
        {**PAPERS, "P-new": "Sparse meshes compress graphs; reviewers overcompress privately."},
        {**PAPERS, "P-kv": "Cache compression of key value pairs, now rewritten entirely."},
        {key: text for key, text in PAPERS.items() if key != "P-graph"},
        {"P-only": "Entirely different papers about quantum annealing schedules."},
    ],
    ids=["paper added", "paper changed", "paper removed", "all replaced"],
)
def test_an_index_brought_up_to_date_equals_a_full_build(tmp_path, after):
    updated, full = _built_from_previous(tmp_path, PAPERS, after)
    assert _index_content(updated) == _index_content(full)
    for query in ("mesh compression", "graphs", "privately compressed caches", "quantum"):
        # Scores are sums over terms in the index's order, so they may differ in the last bit.
        found = [
            [(h.paper_id, round(h.score, 9), h.snippet) for h in search.search(con, query, limit=100)]
            for con in (updated, full)
        ]
        assert found[0] == found[1], query


def test_an_update_copies_the_unchanged_papers_rows_instead_of_tokenizing_them(tmp_path, monkeypatch):
    tokenized = []
    real = search._distinct_words
    monkeypatch.setattr(
        search,
        "_distinct_words",
        lambda con, columns, source="papers": tokenized.append(source) or real(con, columns, source),
    )
    updated, full = _built_from_previous(tmp_path, PAPERS, {**PAPERS, "P-new": "A new paper on meshes."})
    assert tokenized == ["added_docs"]  # the update's new paper; full builds take the words from the index
    assert _index_content(updated) == _index_content(full)


def test_a_previous_index_over_other_fields_is_not_reused(tmp_path):
    titles = {"P-graph": "Message passing for chemistry"}
    updated, full = _built_from_previous(tmp_path, PAPERS, PAPERS, title_after=titles)
    assert _index_content(updated) == _index_content(full)
    assert [hit.paper_id for hit in search.search(updated, "chemistry")] == ["P-graph"]


def test_a_missing_or_unreadable_previous_database_means_a_full_build(tmp_path):
    (tmp_path / "garbage.duckdb").write_bytes(b"not a database")
    for previous in (tmp_path / "absent.duckdb", tmp_path / "garbage.duckdb"):
        con = _papers_database()
        assert create_search_index(con, previous=previous) is None
        assert search.search(con, "mesh compression")[0].paper_id == "P-mesh"


@pytest.mark.parametrize("title", [None, {"P-graph": "Message passing for chemistry", "P-kv": "The cache"}])
def test_a_full_index_equals_the_one_create_fts_index_makes(title):
    papers = {
        **PAPERS,
        "P-long": LONG_ABSTRACT,
        "P-stop": "The of and it is.",  # nothing but stopwords: a paper of length 0
        "P-accents": "Café résumé naïve Ångström — déjà vu, Zürich-based NAÏVE cafés.",
    }
    ours = _papers_database(papers=papers, title=title)
    assert create_search_index(ours) is None
    extensions = _papers_database(papers=papers, title=title)
    search.load_fts(extensions)
    search._pragma_create_fts_index(extensions, search._indexed_columns(extensions))
    compared = ("docs", "terms", "dict", "stats", "fields")
    assert {name: _index_content(ours)[name] for name in compared} == {
        name: sorted(extensions.execute(_INDEX_CONTENT[name]).fetchall()) for name in compared
    }
    stopwords = "SELECT sw FROM fts_main_papers.stopwords ORDER BY sw"
    assert ours.execute(stopwords).fetchall() == extensions.execute(stopwords).fetchall()
    assert ("cafe",) in _index_content(ours)["words"] and ("the",) in _index_content(ours)["words"]


def _updated_in_place(tmp_path, before, after):
    """The database of `before` with its papers rows replaced to be `after`, its index updated in place."""
    con = _papers_database(tmp_path / "in_place.duckdb", before)
    assert create_search_index(con) is None
    changed = [key for key in before.keys() | after.keys() if before.get(key) != after.get(key)]
    con.execute("CREATE TEMP TABLE removed_keys AS SELECT unnest(?::VARCHAR[]) AS key", [changed])
    search.remember_replaced_papers(con, "removed_keys")
    con.execute("DELETE FROM papers WHERE paper_id IN (SELECT key FROM removed_keys)")
    for key in changed:
        if key in after:
            con.execute("INSERT INTO papers VALUES (?, ?)", [key, after[key]])
    assert search.update_search_index(con)
    return con


@pytest.mark.parametrize(
    "after",
    [
        {**PAPERS, "P-new": "Sparse meshes compress graphs; reviewers overcompress privately."},
        {**PAPERS, "P-kv": "Cache compression of key value pairs, now rewritten entirely."},
        {key: text for key, text in PAPERS.items() if key != "P-graph"},
        {"P-only": "Entirely different papers about quantum annealing schedules."},
        PAPERS,
    ],
    ids=["paper added", "paper changed", "paper removed", "all replaced", "nothing changed"],
)
def test_an_index_updated_in_place_equals_a_full_build(tmp_path, after):
    updated = _updated_in_place(tmp_path, PAPERS, after)
    full = _papers_database(tmp_path / "full.duckdb", after)
    assert create_search_index(full) is None
    assert _index_content(updated) == _index_content(full)
    for query in ("mesh compression", "graphs", "privately compressed caches", "quantum"):
        found = [
            [(h.paper_id, round(h.score, 9), h.snippet) for h in search.search(con, query, limit=100)]
            for con in (updated, full)
        ]
        assert found[0] == found[1], query


def test_an_update_in_place_tokenizes_only_the_added_papers(tmp_path, monkeypatch):
    tokenized = []
    real = search._distinct_words
    monkeypatch.setattr(
        search,
        "_distinct_words",
        lambda con, columns, source="papers": tokenized.append(source) or real(con, columns, source),
    )
    _updated_in_place(tmp_path, PAPERS, {**PAPERS, "P-new": "A new paper on meshes."})
    assert tokenized == ["added_docs"]


def test_an_index_over_other_fields_is_not_updated_in_place():
    con = _papers_database(title={"P-kv": "Caches"})
    assert create_search_index(con) is None
    con.execute("ALTER TABLE papers DROP COLUMN title")
    assert not search.update_search_index(con)
