"""Fusing papers' fields from their documents: the canonical occurrence, then file order; conflicts kept."""

from __future__ import annotations

import datetime as dt

import polars as pl

from pipeline.lib.fusion import CONFLICT_SCHEMA, FUSED_FIELDS, fuse_papers

SCHEMA = {
    "document_id": pl.String,
    "paper_id": pl.String,
    "match": pl.String,
    "source_file": pl.String,
    "ordinal": pl.Int64,
    "format": pl.String,
    "title": pl.String,
    "authors": pl.List(pl.String),
    "doi": pl.String,
    "arxiv_id": pl.String,
    "openreview_id": pl.String,
    "openalex_id": pl.String,
    "s2_corpus_id": pl.String,
    "url": pl.String,
    "published": pl.Date,
    "keywords": pl.List(pl.String),
}


def document(source_file: str, ordinal: int, paper_id: str, match: str, fmt: str, **fields: object) -> dict:
    row = dict.fromkeys(SCHEMA)
    row.update(
        document_id=f"{source_file}:{ordinal}",
        paper_id=paper_id,
        match=match,
        source_file=source_file,
        ordinal=ordinal,
        format=fmt,
        **fields,
    )
    return row


def fuse(*rows: dict) -> tuple[pl.DataFrame, pl.DataFrame]:
    return fuse_papers(pl.DataFrame(list(rows), schema=SCHEMA))


def test_a_paper_of_one_document_keeps_its_fields_and_has_no_conflicts():
    fused, conflicts = fuse(
        document("a.csv", 1, "P1", "first", "csv", title="A Title", authors=["Ada Lovelace"], doi="10.1/x")
    )
    assert fused.columns == ["paper_id", *FUSED_FIELDS, "sources"]
    row = fused.row(0, named=True)
    assert (row["title"], row["authors"], row["doi"], row["arxiv_id"]) == (
        "A Title",
        ["Ada Lovelace"],
        "10.1/x",
        None,
    )
    assert row["sources"] == ["csv:a.csv"]
    assert conflicts.is_empty() and conflicts.schema == pl.Schema(CONFLICT_SCHEMA)


def test_the_canonical_occurrence_wins_even_when_it_comes_later_in_file_order():
    fused, _ = fuse(
        document("a.jsonl", 1, "P1", "exact", "jsonl", title="Earlier Title", url="https://a"),
        document("b.csv", 1, "P1", "first", "csv", title="Canonical Title"),
    )
    assert fused["title"].to_list() == ["Canonical Title"]
    # A field the canonical occurrence lacks comes from the earliest document that has it.
    assert fused["url"].to_list() == ["https://a"]


def test_missing_fields_fall_back_to_the_earliest_document_in_file_order():
    fused, conflicts = fuse(
        document("a.txt", 1, "P1", "first", "text"),
        document("c.bib", 2, "P1", "id", "bibtex", doi="10.1/z", title="  ", authors=[]),
        document("b.jsonl", 5, "P1", "exact", "openalex", title="Found", authors=["A B"], keywords=["ml"]),
        document("c.bib", 1, "P1", "exact", "bibtex", published=dt.date(2024, 7, 1), doi="10.1/z"),
    )
    row = fused.row(0, named=True)
    assert row["title"] == "Found"  # the blank title of c.bib:2 does not count
    assert row["authors"] == ["A B"]  # nor does its empty list
    assert row["doi"] == "10.1/z"
    assert row["published"] == dt.date(2024, 7, 1)
    assert row["keywords"] == ["ml"]
    assert row["sources"] == ["bibtex:c.bib", "openalex:b.jsonl", "text:a.txt"]
    assert conflicts.is_empty()


def test_papers_come_out_in_the_file_order_of_their_canonical_occurrences():
    fused, _ = fuse(
        document("b.txt", 1, "P2", "first", "text"),
        document("a.txt", 2, "P2", "exact", "text"),
        document("a.txt", 3, "P1", "first", "text"),
    )
    assert fused["paper_id"].to_list() == ["P1", "P2"]


def test_every_disagreement_is_listed_with_its_documents_and_the_chosen_value():
    fused, conflicts = fuse(
        document("a.csv", 1, "P1", "first", "csv", doi="10.1/x", title="Deep Nets"),
        document("b.csv", 1, "P1", "id", "csv", doi="10.1/y", title="deep nets."),
        document("c.csv", 1, "P1", "id", "csv", doi="10.1/x"),
        document("d.csv", 1, "P2", "first", "csv", doi="10.1/q"),
    )
    assert fused.filter(pl.col("paper_id") == "P1")["doi"].to_list() == ["10.1/x"]
    rows = conflicts.sort("document_id").rows()
    assert rows == [
        ("P1", "doi", "a.csv:1", "10.1/x", True),
        ("P1", "doi", "b.csv:1", "10.1/y", False),
        ("P1", "doi", "c.csv:1", "10.1/x", True),
    ]  # the titles differ only in case and punctuation: no conflict


def test_author_lists_compare_by_name_words_and_keywords_as_sets():
    _, conflicts = fuse(
        document(
            "a.csv",
            1,
            "P1",
            "first",
            "csv",
            authors=["Kaelin, Fabian", "Doina Precup"],
            keywords=["RL", "ml"],
        ),
        document(
            "b.csv", 1, "P1", "exact", "csv", authors=["Fabian Kaelin", "Doina Precup"], keywords=["ML", "rl"]
        ),
    )
    assert conflicts.is_empty()
    _, conflicts = fuse(
        document("a.csv", 1, "P1", "first", "csv", authors=["Fabian Kaelin", "Doina Precup"]),
        document("b.csv", 1, "P1", "exact", "csv", authors=["Doina Precup", "Fabian Kaelin"]),
        document("c.csv", 1, "P1", "exact", "csv", authors=["F. Kaelin", "Doina Precup"]),
    )
    assert conflicts["field"].unique().to_list() == ["authors"]
    assert conflicts.sort("document_id")["value"].to_list() == [
        "Fabian Kaelin; Doina Precup",
        "Doina Precup; Fabian Kaelin",
        "F. Kaelin; Doina Precup",
    ]
    assert conflicts.sort("document_id")["chosen"].to_list() == [True, False, False]


def test_titles_that_really_differ_are_a_conflict():
    fused, conflicts = fuse(
        document("a.csv", 1, "P1", "first", "csv", title="Learning to Rank"),
        document("b.csv", 1, "P1", "title", "csv", title="Learning to Rank Fast"),
    )
    assert fused["title"].to_list() == ["Learning to Rank"]
    assert conflicts.select("field", "value", "chosen").rows() == [
        ("title", "Learning to Rank", True),
        ("title", "Learning to Rank Fast", False),
    ]
