"""Per-file partitions: a new file is parsed on its own, and parallel runs give the same warehouse."""

import shutil

import dagster as dg
import duckdb
import polars as pl
import pytest

from pipeline.build import run_build
from pipeline.definitions import build_definitions
from pipeline.defs.automation import build_tables, contiguous_blocks, ingest_files, range_tags
from pipeline.defs.ingest import SEED_FILES, seed_file
from pipeline.defs.resources import partition_root
from pipeline.lib.search import search
from tests.conftest import SEEDS

NEW_FILE = (
    "NeurIPS 2025 Papers\n\n"
    "We introduce a benchmark of handwritten chemistry notes for evaluating optical character recognition "
    "of reaction diagrams, with expert transcriptions for every page and baselines that show current "
    "recognisers miss most arrows and subscripts in the drawings.\n"
)


def _tables(warehouse):
    """Each table's rows in a canonical order: a table promises its rows, not their order (a rebuild
    keeps unchanged Parquet segments and adds the changed rows to others)."""
    return {
        p.stem: pl.read_parquet(p).sort(pl.all()) for p in sorted((warehouse / "parquet").glob("*.parquet"))
    }


def _assert_same_tables(left, right):
    assert left.keys() == right.keys()
    for name in left:
        assert left[name].equals(right[name]), name


@pytest.fixture(scope="module")
def one_process_build(tmp_path_factory):
    """A full build, in one process, of the seeds and NEW_FILE: what every other way of building them
    (file by file, in parallel, step by step in processes) must give."""
    root = tmp_path_factory.mktemp("one_process")
    seeds = root / "seeds"
    shutil.copytree(SEEDS, seeds)
    (seeds / "004_new.txt").write_text(NEW_FILE, encoding="utf-8")
    outcome = run_build(seeds, root / "warehouse", isolate_steps=False)
    assert outcome.published, outcome.reason
    return root / "warehouse"


def test_contiguous_blocks_group_runs_of_wanted_keys():
    assert contiguous_blocks(["a", "b", "c", "d", "e"], {"a", "b", "d"}) == [("a", "b"), ("d", "d")]
    assert contiguous_blocks(["a", "b"], set()) == []


def test_a_new_file_is_the_only_one_parsed_again_and_equals_a_full_rebuild(
    seeds_copy, tmp_path, one_process_build
):
    warehouse = tmp_path / "incremental"
    instance = dg.DagsterInstance.ephemeral()
    first = run_build(seeds_copy, warehouse, instance)
    assert first.published
    assert first.parsed_files == sorted(p.name for p in seeds_copy.glob("*.txt"))
    unchanged = run_build(seeds_copy, warehouse, instance)
    assert unchanged.parsed_files == []
    (seeds_copy / "004_new.txt").write_text(NEW_FILE, encoding="utf-8")
    second = run_build(seeds_copy, warehouse, instance)
    assert second.published
    assert second.parsed_files == ["004_new.txt"]
    (mentions,) = [
        m
        for m in second.result.asset_materializations_for_node("extract_entities")
        if m.asset_key.path == ["mentions"]
    ]
    assert mentions.metadata["texts_extracted_here"].value == 0  # the maps extracted every text
    (mapped,) = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey("seed_file"), asset_partitions=["004_new.txt"]), limit=1
    ).records
    assert mapped.asset_materialization.metadata["texts_extracted"].value == 1  # only the new paper
    (documents,) = [
        m
        for m in second.result.asset_materializations_for_node("deduplicate_documents")
        if m.asset_key.path == ["documents"]
    ]
    assert documents.metadata["files_signed"].value == 0  # every file's map signed its texts
    # The checks give GX only the rows that are new since the last build's passed validation.
    checked = {e.check_name: e.metadata for e in second.result.get_asset_check_evaluations()}
    assert checked["papers_matches_schema"]["rows_validated_before"].value == 32
    assert checked["input_files_matches_schema"]["rows_validated_before"].value == 2
    assert checked["nothing_lost"]["files_unchanged_since_balanced"].value == 2  # not the new file
    full = one_process_build
    _assert_same_tables(_tables(warehouse), _tables(full))
    assert _tables(warehouse)["papers"].height == 33
    # The second build updated the first one's search index; it finds what a full build's finds.
    with (
        duckdb.connect(str(warehouse / "papers.duckdb"), read_only=True) as updated,
        duckdb.connect(str(full / "papers.duckdb"), read_only=True) as rebuilt,
    ):
        for query in ("optical character recognition", "language models", "graph neural networks"):
            # Scores are sums over terms in the index's order, so they may differ in the last bit.
            found = [
                [(h.paper_id, round(h.score, 9), h.snippet) for h in search(con, query, limit=50)]
                for con in (updated, rebuilt)
            ]
            assert found[0] == found[1], query
        count = "SELECT num_docs FROM fts_main_papers.stats"
        assert updated.execute(count).fetchone() == rebuilt.execute(count).fetchone() == (33,)


def test_a_removed_file_leaves_the_warehouse(seeds_copy, tmp_path):
    warehouse = tmp_path / "warehouse"
    instance = dg.DagsterInstance.ephemeral()
    assert run_build(seeds_copy, warehouse, instance).published
    (seeds_copy / "002_4b23d85508f43a9c.txt").unlink()
    assert run_build(seeds_copy, warehouse, instance).published
    assert set(_tables(warehouse)["documents"]["source_file"]) == {"000_7beccc23ec4b2ebf.txt"}
    assert instance.get_dynamic_partitions(SEED_FILES.name) == ["000_7beccc23ec4b2ebf.txt"]


def _texts_extracted(instance, key):
    (mapped,) = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey("seed_file"), asset_partitions=[key]), limit=1
    ).records
    return mapped.asset_materialization.metadata["texts_extracted"].value


def test_a_text_in_two_files_is_extracted_once_and_again_when_its_owner_goes(tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    other = "A second abstract on sorting networks, with lower bounds for comparators and depth."
    (seeds / "a.txt").write_text(NEW_FILE, encoding="utf-8")
    (seeds / "b.txt").write_text(NEW_FILE + "\n" + other + "\n", encoding="utf-8")
    warehouse = tmp_path / "warehouse"
    instance = dg.DagsterInstance.ephemeral()
    assert run_build(seeds, warehouse, instance).published
    assert (_texts_extracted(instance, "a.txt"), _texts_extracted(instance, "b.txt")) == (1, 1)
    (seeds / "a.txt").unlink()
    again = run_build(seeds, warehouse, instance)
    assert again.published and again.parsed_files == []
    (mentions,) = [
        m
        for m in again.result.asset_materializations_for_node("extract_entities")
        if m.asset_key.path == ["mentions"]
    ]
    assert mentions.metadata["texts_extracted_here"].value == 1  # its owner, a.txt, went
    # Kept for the builds after it: not extracted again while no file's map holds it.
    later = run_build(seeds, warehouse, instance)
    (mentions,) = [
        m
        for m in later.result.asset_materializations_for_node("extract_entities")
        if m.asset_key.path == ["mentions"]
    ]
    assert mentions.metadata["texts_extracted_here"].value == 0
    full = tmp_path / "full"
    assert run_build(seeds, full).published
    _assert_same_tables(_tables(warehouse), _tables(full))


def multiprocess_ingest_job() -> dg.JobDefinition:
    """Loaded again in each step's process: paths come from PAPERS_SEEDS_DIR / PAPERS_WAREHOUSE_DIR."""
    return build_definitions(executor=dg.multiprocess_executor).resolve_job_def(ingest_files.name)


def test_files_parsed_in_parallel_under_the_multiprocess_executor_equal_the_single_process_build(
    tmp_path, monkeypatch, one_process_build
):
    seeds = tmp_path / "seeds"
    shutil.copytree(SEEDS, seeds)
    (seeds / "004_new.txt").write_text(NEW_FILE, encoding="utf-8")
    warehouse = tmp_path / "parallel"
    monkeypatch.setenv("PAPERS_SEEDS_DIR", str(seeds))
    monkeypatch.setenv("PAPERS_WAREHOUSE_DIR", str(warehouse))
    names = sorted(p.name for p in seeds.glob("*.txt"))
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions(SEED_FILES.name, names)
        # One run over every partition: its step runs in a process of the multiprocess executor and
        # spreads the files over worker processes.
        tags = range_tags(names[0], names[-1])
        with dg.execute_job(dg.reconstructable(multiprocess_ingest_job), instance, tags=tags) as parsed:
            assert parsed.success
        parsed_keys = {m.partition for m in parsed.asset_materializations_for_node("seed_file")}
        assert parsed_keys == set(names)
        tables = build_definitions().resolve_job_def(build_tables.name)
        assert tables.execute_in_process(instance=instance).success
    _assert_same_tables(_tables(warehouse), _tables(one_process_build))


def test_steps_in_processes_of_their_own_build_what_one_process_builds(
    seeds_copy, tmp_path, one_process_build
):
    """`papers build` isolates the steps of a large input; the tables are those of one process."""
    (seeds_copy / "004_new.txt").write_text(NEW_FILE, encoding="utf-8")
    isolated = tmp_path / "isolated"
    outcome = run_build(seeds_copy, isolated, isolate_steps=True)
    assert outcome.published, outcome.reason
    assert outcome.parsed_files == sorted(p.name for p in seeds_copy.glob("*.txt"))
    _assert_same_tables(_tables(isolated), _tables(one_process_build))


def test_isolated_steps_refuse_an_instance_other_processes_cannot_reach(tmp_path):
    with pytest.raises(ValueError, match="persistent Dagster instance"):
        run_build(SEEDS, tmp_path / "warehouse", dg.DagsterInstance.ephemeral(), isolate_steps=True)


def test_staged_parts_of_a_removed_file_go_without_a_persistent_instance(seeds_copy, tmp_path):
    warehouse = tmp_path / "warehouse"
    assert run_build(seeds_copy, warehouse).published  # a fresh ephemeral instance each time
    staged = partition_root(warehouse, seed_file.key)
    assert sorted(p.name for p in staged.iterdir()) == sorted(p.name for p in seeds_copy.iterdir())
    (seeds_copy / "002_4b23d85508f43a9c.txt").unlink()
    assert run_build(seeds_copy, warehouse).published
    assert [p.name for p in staged.iterdir()] == ["000_7beccc23ec4b2ebf.txt"]


def _seed_text(abstracts: list[str]) -> str:
    return "\n\n".join(["ICLR 2024 Papers", *abstracts]) + "\n"


def test_file_names_that_look_like_globs_are_read_as_names(tmp_path):
    """`[1]` would match no file and `p*` would match `pq.txt` too, if a path were read as a glob."""
    paragraphs = (SEEDS / "000_7beccc23ec4b2ebf.txt").read_text(encoding="utf-8").split("\n\n")[1:]
    abstracts = [p.strip() for p in paragraphs if p.strip()]
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    files = {"paper[1].txt": abstracts[:2], "p*.txt": abstracts[2:3], "pq.txt": abstracts[3:5], "p?.txt": []}
    for name, texts in files.items():
        (seeds / name).write_text(_seed_text(texts or abstracts[5:6]), encoding="utf-8")
    outcome = run_build(seeds, tmp_path / "warehouse")
    assert outcome.published, outcome.reason
    tables = _tables(tmp_path / "warehouse")
    per_file = dict(tables["documents"].group_by("source_file").len().iter_rows())
    assert per_file == {"paper[1].txt": 2, "p*.txt": 1, "pq.txt": 2, "p?.txt": 1}
    assert dict(tables["input_files"].select("source_file", "n_documents").iter_rows()) == per_file
    assert tables["documents"]["document_id"].is_unique().all()
