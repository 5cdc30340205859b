"""A failed build leaves the last good warehouse intact; a failing blocking check stops publishing."""

import hashlib
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

import pipeline.defs.extract
from pipeline.build import run_build
from pipeline.cli import app
from pipeline.lib.assemble import papers_table
from tests.conftest import SEEDS


def _fingerprint(warehouse):
    files = [warehouse / "papers.duckdb", *sorted((warehouse / "parquet").glob("*.parquet/*.parquet"))]
    return {
        f"{path.parent.name}/{path.name}": hashlib.sha256(path.read_bytes()).hexdigest() for path in files
    }


@pytest.fixture
def good_warehouse(built_warehouse, tmp_path):
    """A copy of the session's warehouse of the seeds (its links are relative): this test's to break."""
    return Path(shutil.copytree(built_warehouse, tmp_path / "warehouse", symlinks=True))


def _duplicate_first_paper(canonical, annotations):
    table = papers_table(canonical, annotations)
    return pl.concat([table, table.head(1)])


def test_duplicate_paper_id_fails_the_blocking_check_and_nothing_is_published(good_warehouse, monkeypatch):
    before = _fingerprint(good_warehouse)
    monkeypatch.setattr(pipeline.defs.extract, "papers_table", _duplicate_first_paper)
    result = CliRunner().invoke(app, ["build", "--warehouse", str(good_warehouse), "--seeds", str(SEEDS)])
    assert result.exit_code == 1
    message = result.stderr.strip()
    assert "\n" not in message
    assert "papers_matches_schema" in message
    assert "paper_id unique" in message
    assert _fingerprint(good_warehouse) == before
    report = (good_warehouse / "reports" / "validation.json").read_text()
    assert '"success": false' in report


def test_exception_in_extraction_leaves_previous_warehouse_queryable(good_warehouse, monkeypatch):
    before = _fingerprint(good_warehouse)

    def broken_extraction(papers, rows, texts):
        raise RuntimeError("injected fault in extraction")

    monkeypatch.setattr(pipeline.defs.extract, "assemble", broken_extraction)
    outcome = run_build(SEEDS, good_warehouse)
    assert not outcome.published
    assert "injected fault in extraction" in outcome.reason
    assert _fingerprint(good_warehouse) == before
    with duckdb.connect(str(good_warehouse / "papers.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM papers").fetchone() == (32,)


def test_rebuild_after_success_changes_no_data(good_warehouse):
    tables = {p.stem: pl.read_parquet(p) for p in (good_warehouse / "parquet").glob("*.parquet")}
    assert run_build(SEEDS, good_warehouse).published
    for name, frame in tables.items():
        assert pl.read_parquet(good_warehouse / "parquet" / f"{name}.parquet").equals(frame), name


def test_an_open_reader_does_not_block_the_next_build(good_warehouse):
    with duckdb.connect(str(good_warehouse / "papers.duckdb"), read_only=True) as reader:
        assert run_build(SEEDS, good_warehouse).published
        assert reader.execute("SELECT count(*) FROM papers").fetchone() == (32,)
