"""The IO manager that hands frames between steps through Parquet under <warehouse>/.staging/."""

import dagster as dg
import polars as pl
import pytest

from pipeline.defs.resources import (
    COLUMNS,
    LAZY,
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
