"""The IO manager that hands frames between steps through Parquet under <warehouse>/.staging/."""

import dagster as dg
import polars as pl
import pyarrow.parquet as pq
import pytest

from pipeline.defs.resources import (
    COLUMNS,
    KEEP_LINKED_VERSIONS,
    LAZY,
    PATHS,
    STAGED_ROW_GROUP_ROWS,
    LinkedParts,
    StagedFrameIOManager,
    WarehousePaths,
    partition_dir,
    stage_partition,
)

FILES = dg.StaticPartitionsDefinition(["a.txt", "b.txt"])


@dg.asset
def wide() -> pl.DataFrame:
    return pl.DataFrame({"paper_id": ["p1", "p2"], "abstract": ["x", "y"], "abstract_clean": ["X", "Y"]})


@dg.asset(ins={"wide": dg.AssetIn(metadata={COLUMNS: ["paper_id", "abstract_clean"]})})
def narrow_reader(wide: pl.DataFrame) -> pl.DataFrame:
    return pl.DataFrame({"columns": wide.columns})


@dg.asset(ins={"wide": dg.AssetIn(metadata={LAZY: True, COLUMNS: ["abstract_clean", "paper_id"]})})
def lazy_reader(wide: pl.LazyFrame) -> pl.LazyFrame:
    """Gets a LazyFrame over the staged file, and returns one for the IO manager to stream."""
    assert isinstance(wide, pl.LazyFrame)
    return wide.with_columns(pl.col("abstract_clean").str.to_lowercase())


@dg.asset(partitions_def=FILES)
def staged_by_the_step(context: dg.AssetExecutionContext, paths: WarehousePaths) -> dict:
    """Stages its part itself, as the parse step does, and returns where."""
    key = context.partition_key
    parts = {"rows": pl.DataFrame({"file": [key]})}
    return {key: stage_partition(paths.warehouse(), context.asset_key, key, parts)}


@dg.asset(partitions_def=FILES)
def staged_elsewhere(context: dg.AssetExecutionContext, paths: WarehousePaths) -> dict:
    key = context.partition_key
    other = paths.warehouse() / "somewhere-else.parquet"
    pl.DataFrame({"file": [key]}).write_parquet(other)
    return {key: {"rows": other}}


def _resources(tmp_path) -> dict:
    return {
        "io_manager": StagedFrameIOManager(warehouse_dir=str(tmp_path)),
        "paths": WarehousePaths(warehouse_dir=str(tmp_path)),
    }


def test_an_input_with_columns_metadata_reads_only_those_columns(tmp_path):
    result = dg.materialize([wide, narrow_reader], resources=_resources(tmp_path))
    assert result.success
    assert result.output_for_node("narrow_reader")["columns"].to_list() == ["paper_id", "abstract_clean"]


def test_a_part_the_step_staged_itself_is_kept_where_it_is(tmp_path):
    result = dg.materialize([staged_by_the_step], partition_key="b.txt", resources=_resources(tmp_path))
    assert result.success
    staged = partition_dir(tmp_path, staged_by_the_step.key, "b.txt") / "rows.parquet"
    assert pl.read_parquet(staged)["file"].to_list() == ["b.txt"]
    assert not partition_dir(tmp_path, staged_by_the_step.key, "a.txt").exists()


def test_a_part_staged_anywhere_else_is_refused(tmp_path):
    with pytest.raises(ValueError, match="is staged at"):
        dg.materialize([staged_elsewhere], partition_key="a.txt", resources=_resources(tmp_path))


def test_lazy_frames_are_read_from_and_streamed_to_the_staged_files(tmp_path):
    assert dg.materialize([wide, lazy_reader], resources=_resources(tmp_path)).success
    written = pl.read_parquet(tmp_path / ".staging" / "lazy_reader.parquet")
    assert written.to_dict(as_series=False) == {"abstract_clean": ["x", "y"], "paper_id": ["p1", "p2"]}


@dg.asset
def many_rows() -> pl.LazyFrame:
    return pl.LazyFrame({"row": range(STAGED_ROW_GROUP_ROWS * 2 + 5)})


def test_staged_tables_are_written_in_bounded_row_groups(tmp_path):
    """A sink holds one row group at a time: the staged file of a long table has many."""
    assert dg.materialize([many_rows], resources=_resources(tmp_path)).success
    metadata = pq.ParquetFile(tmp_path / ".staging" / "many_rows.parquet").metadata
    sizes = [metadata.row_group(i).num_rows for i in range(metadata.num_row_groups)]
    assert sum(sizes) == STAGED_ROW_GROUP_ROWS * 2 + 5
    assert len(sizes) >= 3 and max(sizes) <= STAGED_ROW_GROUP_ROWS


@dg.asset(ins={"staged_by_the_step": dg.AssetIn(metadata={PATHS: True})})
def gathered(staged_by_the_step: dict) -> LinkedParts:
    """Gathers the partitions' files as collect_seed_files does: linked, not copied."""
    files = tuple(staged_by_the_step[key]["rows"] for key in sorted(staged_by_the_step))
    return LinkedParts(files, pl.DataFrame(schema={"file": pl.String}))


def test_linked_parts_read_as_one_frame_and_keep_their_rows_when_a_part_is_staged_again(tmp_path):
    resources = _resources(tmp_path)
    for key in ("a.txt", "b.txt"):
        assert dg.materialize([staged_by_the_step], partition_key=key, resources=resources).success
    everything = [staged_by_the_step.to_source_asset(), gathered]
    assert dg.materialize(everything, resources=resources).success
    staged = tmp_path / ".staging" / "gathered.parquet"
    assert staged.is_symlink() and pl.read_parquet(staged)["file"].to_list() == ["a.txt", "b.txt"]
    part_a = partition_dir(tmp_path, staged_by_the_step.key, "a.txt") / "rows.parquet"
    assert (staged / "000000.parquet").stat().st_ino == part_a.stat().st_ino  # a link, not a copy
    # The partition staged anew is a new file: the linked one still has the rows it had.
    pl.DataFrame({"file": ["a.txt, parsed again"]}).write_parquet(tmp_path / "new.parquet")
    (tmp_path / "new.parquet").replace(part_a)
    assert pl.read_parquet(staged)["file"].to_list() == ["a.txt", "b.txt"]
    for _ in range(3):
        assert dg.materialize(everything, resources=resources).success
    assert pl.read_parquet(staged)["file"].to_list() == ["a.txt, parsed again", "b.txt"]
    versions = tmp_path / ".staging" / "gathered.parquet.parts"
    assert len(list(versions.iterdir())) == KEEP_LINKED_VERSIONS


@dg.asset
def gathered_nothing() -> LinkedParts:
    return LinkedParts((), pl.DataFrame(schema={"file": pl.String}))


def test_linked_parts_without_files_stage_the_empty_frame(tmp_path):
    assert dg.materialize([gathered_nothing], resources=_resources(tmp_path)).success
    staged = tmp_path / ".staging" / "gathered_nothing.parquet"
    assert staged.is_file() and pl.read_parquet(staged).schema == pl.Schema({"file": pl.String})
