"""The overview page and the numbers behind `papers stats`, on small published warehouses."""

import re

import duckdb
import polars as pl
import pytest

from pipeline.lib import overview
from pipeline.lib.publish import publish
from pipeline.lib.schema import SCHEMA_VERSION, TABLES

LONG_NAME = "A Remarkably Long Method Name That Will Not Fit Its Label"


def _paper(paper_id, venue, year, n_documents, proposed):
    return {
        "paper_id": paper_id,
        "venue": venue,
        "year": year,
        "abstract": f"Abstract of {paper_id}.",
        "abstract_clean": f"Abstract of {paper_id}.",
        "word_count": 3,
        "n_documents": n_documents,
        "source_files": ["a.txt"],
        "proposed_methods": proposed,
        "code_url": None,
        "sources": ["text:a.txt"],
    }


def _document(document_id, paper_id, match):
    return {
        "document_id": document_id,
        "source_file": "a.txt",
        "ordinal": int(document_id.split(":")[1]),
        "line_start": 1,
        "line_end": 1,
        "locator": "lines 1-1",
        "format": "text",
        "venue": "ICLR",
        "year": 2026,
        "raw_text": "text",
        "paper_id": paper_id,
        "match": match,
        "similarity": 1.0,
    }


def _mention(paper_id, entity_id, entity_type="method"):
    return {
        "paper_id": paper_id,
        "entity_type": entity_type,
        "text": "x",
        "name": entity_id,
        "start": 0,
        "end": 1,
        "role": "referenced",
        "entity_id": entity_id,
    }


def _entity(entity_id, entity_type, name, n_papers):
    return {
        "entity_id": entity_id,
        "entity_type": entity_type,
        "name": name,
        "aliases": [name],
        "expansion": None,
        "n_papers": n_papers,
    }


def _frames(**rows) -> dict[str, pl.DataFrame]:
    return {
        name: pl.DataFrame(rows[name], schema=table.polars_schema()) if name in rows else table.empty_frame()
        for name, table in TABLES.items()
    }


@pytest.fixture
def warehouse(tmp_path):
    papers = [
        _paper("P1", "ICLR", 2026, 2, ["Widget"]),
        _paper("P2", "ICLR", 2026, 1, ["Widget", LONG_NAME]),
        _paper("P3", "NeurIPS", 2025, 1, []),
    ]
    documents = [
        _document("a.txt:1", "P1", "first"),
        _document("a.txt:2", "P1", "exact"),
        _document("a.txt:3", "P2", "first"),
        _document("a.txt:4", "P3", "first"),
    ]
    entities = [
        _entity("E1", "method", "Widget", 2),
        _entity("E2", "dataset", "<script>alert(1)</script>", 1),
        _entity("E3", "metric", "accuracy", 2),
        _entity("E4", "method", LONG_NAME, 1),
    ]
    mentions = [
        _mention("P1", "E1"),
        _mention("P1", "E3", "metric"),
        _mention("P2", "E1"),
        _mention("P2", "E1"),
        _mention("P2", "E2", "dataset"),
        _mention("P2", "E3", "metric"),
        _mention("P2", "E4"),
    ]
    frames = _frames(papers=papers, documents=documents, entities=entities, mentions=mentions)
    publish(frames, tmp_path, input_fingerprint="0" * 64)
    return tmp_path


def _charts(page: str) -> dict[str, int]:
    return {m[0]: int(m[1]) for m in re.findall(r'<svg id="([\w-]+)" class="chart" data-bars="(\d+)"', page)}


def test_numbers_behind_the_page(warehouse):
    with duckdb.connect(str(warehouse / "papers.duckdb"), read_only=True) as con:
        counts = overview.counts(con)
        assert (counts.papers, counts.documents, counts.duplicates, counts.rejects) == (3, 4, 1, 0)
        assert overview.papers_per_venue_year(con) == [("ICLR 2026", 2, 1), ("NeurIPS 2025", 1, 0)]
        assert overview.top_proposed(con) == [("Widget", 2), (LONG_NAME, 1)]
        assert overview.top_entities(con, "method", 1) == [("Widget", 2)]
        assert overview.entities_per_paper(con) == [("0", 1), ("1", 0), ("2", 1), ("3", 0), ("4", 1)]
        assert overview.entities_by_type(con) == [
            ("method", 2, 4),
            ("model", 0, 0),
            ("dataset", 1, 1),
            ("metric", 1, 2),
            ("task", 0, 0),
        ]


def test_page_is_self_contained_and_draws_every_chart(warehouse):
    path = overview.write_overview(warehouse)
    assert path == warehouse / "reports" / "index.html"
    page = path.read_text(encoding="utf-8")
    assert _charts(page) == {
        "chart-venues": 2,
        "chart-duplicates": 3,
        "chart-proposed": 2,
        "chart-methods": 2,
        "chart-datasets": 1,
        "chart-metrics": 1,
        "chart-entities-per-paper": 5,
        "chart-entity-types": 3,
    }
    assert page.count('class="bar"') == sum(_charts(page).values())
    assert "<script" not in page and "<link" not in page
    assert re.findall(r'(?:src|href)="([^"]*)"', page) == []
    assert "Build " in page and f"schema version {SCHEMA_VERSION}" in page


def test_labels_are_escaped_and_long_ones_shortened(warehouse):
    page = overview.write_overview(warehouse).read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert f"<title>{LONG_NAME}: 1</title>" in page
    assert f">{LONG_NAME[: overview.LABEL_CHARS - 1]}…</text>" in page


def test_links_to_the_validation_report_only_when_it_exists(warehouse):
    page = overview.write_overview(warehouse).read_text(encoding="utf-8")
    assert "validation.html" not in page
    assert "No validation report" in page
    (warehouse / "reports" / "validation.html").write_text("<html></html>", encoding="utf-8")
    page = overview.write_overview(warehouse).read_text(encoding="utf-8")
    assert re.findall(r'href="([^"]*)"', page) == ["validation.html"]


def test_an_empty_warehouse_gets_empty_charts(tmp_path):
    publish(_frames(), tmp_path, input_fingerprint="0" * 64)
    page = overview.write_overview(tmp_path).read_text(encoding="utf-8")
    charts = _charts(page)
    # Both kinds of duplicate are always listed, here with zero-length bars.
    assert charts.pop("chart-duplicates") == 2
    assert set(charts.values()) == {0}
    assert page.count("No data in this build.") == len(charts)


def test_without_a_published_database_nothing_is_written(tmp_path):
    with pytest.raises(FileNotFoundError, match="no published database"):
        overview.write_overview(tmp_path)
    assert not (tmp_path / "reports").exists()
