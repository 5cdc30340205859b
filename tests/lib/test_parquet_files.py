"""Parquet files read a batch at a time stay in bounded memory."""

import os

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.lib.parquet_files import open_parquet

ROW_GROUPS = 40
ROWS_PER_GROUP = 1_000


def _peak_allocation_while_reading(parquet: pq.ParquetFile) -> int:
    before, peak = pa.total_allocated_bytes(), 0
    for batch in parquet.iter_batches(batch_size=ROWS_PER_GROUP):
        peak = max(peak, pa.total_allocated_bytes() - before)
        del batch
    return peak


def test_reading_batch_by_batch_holds_about_one_row_group_not_every_one_read(tmp_path):
    path = tmp_path / "texts.parquet"
    # Random text, uncompressed: the file's bytes are what the reader buffers.
    column = pa.array([os.urandom(200).hex() for _ in range(ROW_GROUPS * ROWS_PER_GROUP)])
    pq.write_table(pa.table({"text": column}), path, row_group_size=ROWS_PER_GROUP, compression="none")
    one_group = column.slice(0, ROWS_PER_GROUP).nbytes
    assert _peak_allocation_while_reading(open_parquet(path)) < 4 * one_group
    # What pyarrow's default (pre-buffering) does: every row group read stays allocated.
    assert _peak_allocation_while_reading(pq.ParquetFile(path)) > ROW_GROUPS // 2 * one_group
