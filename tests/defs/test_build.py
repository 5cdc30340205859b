"""The whole asset graph materialised into tmp_path, and what the published warehouse must show."""

import os
import subprocess
import sys

import dagster as dg
import duckdb
import polars as pl
import pyarrow.parquet as pq

from pipeline.build import run_build
from pipeline.definitions import build_definitions
from pipeline.defs.checks import CHECKED_TABLES
from pipeline.defs.ingest import SEED_FILES, seed_file
from pipeline.lib.schema import TABLES
from tests.conftest import REPO_ROOT, SEEDS

MARKUP = ("$", "\\textit", "\\textbf", "\\url", "**", "\\%", "\\_")


def _query(warehouse, sql):
    with duckdb.connect(str(warehouse / "papers.duckdb"), read_only=True) as con:
        return con.execute(sql).fetchall()


def test_materialize_all_assets_into_tmp_path(tmp_path):
    defs = build_definitions(str(SEEDS), str(tmp_path))
    assets = [*defs.assets, *defs.asset_checks]
    instance = dg.DagsterInstance.ephemeral()
    names = sorted(path.name for path in SEEDS.glob("*.txt"))
    instance.add_dynamic_partitions(SEED_FILES.name, names)
    for name in names:
        parsed = dg.materialize(
            assets, selection=[seed_file], partition_key=name, resources=defs.resources, instance=instance
        )
        assert parsed.success
        assert parsed.asset_materializations_for_node("seed_file")[0].partition == name
    result = dg.materialize(
        assets,
        selection=dg.AssetSelection.all() - dg.AssetSelection.assets(seed_file),
        resources=defs.resources,
        instance=instance,
    )
    assert result.success
    documents = result.output_for_node("deduplicate_documents", "documents")
    assert documents.collect().height == 38  # a LazyFrame: the step streams it to its file
    merged = result.asset_materializations_for_node("deduplicate_documents")[0].metadata
    assert merged["exact_merged"].value == 6
    assert merged["near_merged"].value == 0
    evaluations = result.get_asset_check_evaluations()
    assert sorted(e.asset_check_key.name for e in evaluations) == sorted(CHECKED_TABLES)
    assert all(check.passed for check in evaluations)
    assert (tmp_path / "papers.duckdb").exists()
    for name in TABLES:
        assert (tmp_path / "parquet" / f"{name}.parquet").exists(), name
    # The checks share two steps, yet each runs alone when it is the one selected.
    papers_check = dg.AssetCheckKey(dg.AssetKey("papers"), "papers_matches_schema")
    alone = dg.materialize(
        assets, selection=dg.AssetSelection.checks(papers_check), resources=defs.resources, instance=instance
    )
    assert [e.asset_check_key for e in alone.get_asset_check_evaluations()] == [papers_check]


def test_seed_build_counts(built_warehouse):
    assert _query(built_warehouse, "SELECT count(*) FROM documents") == [(38,)]
    assert _query(built_warehouse, "SELECT count(*) FROM papers") == [(32,)]
    assert _query(built_warehouse, "SELECT count(*) FROM papers WHERE n_documents = 2") == [(6,)]
    assert _query(built_warehouse, "SELECT count(*) FROM rejects") == [(0,)]
    assert _query(built_warehouse, "SELECT DISTINCT match FROM documents ORDER BY 1") == [
        ("exact",),
        ("first",),
    ]


def test_abstract_clean_has_no_markup(built_warehouse):
    papers = pl.read_parquet(built_warehouse / "parquet" / "papers.parquet")
    for token in MARKUP:
        offenders = papers.filter(pl.col("abstract_clean").str.contains(token, literal=True))
        assert offenders.height == 0, (token, offenders["abstract_clean"].to_list()[:1])


def test_parquet_files_follow_the_schema_module(built_warehouse):
    for name, table in TABLES.items():
        (segment,) = (
            built_warehouse / "parquet" / f"{name}.parquet"
        ).iterdir()  # the seeds' tables are small
        parquet = pq.ParquetFile(segment)
        assert parquet.schema_arrow.remove_metadata() == table.arrow_schema().remove_metadata(), name
        if parquet.metadata.num_row_groups:
            assert parquet.metadata.row_group(0).column(0).compression == "ZSTD", name
        assert parquet.schema_arrow.metadata[b"schema_version"]


def test_database_answers_from_another_directory(built_warehouse, tmp_path):
    script = (
        "import duckdb, sys; "
        "print(duckdb.connect(sys.argv[1], read_only=True).sql('SELECT count(*) FROM papers').fetchone()[0])"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(built_warehouse / "papers.duckdb")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "32"


def test_paper_ids_are_identical_across_builds_and_directories(built_warehouse, tmp_path):
    other = tmp_path / "other"
    assert run_build(SEEDS, other).published
    ids = [sorted(_query(w, "SELECT paper_id, abstract FROM papers")) for w in (built_warehouse, other)]
    assert ids[0] == ids[1]


def _edited_copy(text: str) -> str:
    words = text.split(" ")
    for i in (5, 17, 40):
        words[i] = words[i] + "s"
    return " ".join(words)


def test_edited_copy_joins_its_original_as_near_duplicate(seeds_copy, tmp_path):
    original_ids = {
        r[0] for r in _query_build(seeds_copy, tmp_path / "before", "SELECT paper_id FROM papers")
    }
    source = (seeds_copy / "000_7beccc23ec4b2ebf.txt").read_text(encoding="utf-8").split("\n\n")
    new_abstract = (
        "We introduce a benchmark of handwritten chemistry notes for evaluating optical character "
        "recognition of reaction diagrams, with expert transcriptions for every page and baselines "
        "that show current recognisers miss most arrows and subscripts in the drawings."
    )
    (seeds_copy / "003_extra.txt").write_text(
        f"ICLR 2026 Papers\n\n{_edited_copy(source[3])}\n\n{new_abstract}\n", encoding="utf-8"
    )
    warehouse = tmp_path / "after"
    assert _query_build(seeds_copy, warehouse, "SELECT count(*) FROM papers") == [(33,)]
    near = _query(warehouse, "SELECT document_id, similarity FROM documents WHERE match = 'near'")
    assert [doc for doc, _ in near] == ["003_extra.txt:1"]
    assert 0.5 < near[0][1] < 1.0
    assert original_ids <= {r[0] for r in _query(warehouse, "SELECT paper_id FROM papers")}


def _query_build(seeds, warehouse, sql):
    outcome = run_build(seeds, warehouse)
    assert outcome.published, outcome.reason
    return _query(warehouse, sql)


def test_cli_build_honours_environment_and_exit_codes(tmp_path):
    env = {**os.environ, "PAPERS_SEEDS_DIR": str(SEEDS), "PAPERS_WAREHOUSE_DIR": str(tmp_path / "wh")}
    ok = subprocess.run(
        [sys.executable, "-m", "pipeline", "build"], cwd=REPO_ROOT, env=env, capture_output=True
    )
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "wh" / "papers.duckdb").exists()
    env["PAPERS_SEEDS_DIR"] = str(tmp_path / "nowhere")
    missing = subprocess.run(
        [sys.executable, "-m", "pipeline", "build"], cwd=REPO_ROOT, env=env, capture_output=True, text=True
    )
    assert missing.returncode != 0
    assert missing.stderr.strip().count("\n") == 0
    assert "does not exist" in missing.stderr
