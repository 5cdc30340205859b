"""Parquet files read a batch at a time, in bounded memory."""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

import pyarrow.parquet as pq


def open_parquet(source: Path | BinaryIO) -> pq.ParquetFile:
    """A Parquet file to read batch by batch (`iter_batches`), without pre-buffering: with it,
    pyarrow's default, every batch read stayed allocated until the file was closed (pyarrow 26:
    1.1 GB after 120 batches of 6,400 of the 1M arXiv papers, 0.05 GB without), and buffering
    ahead buys nothing on a local disk."""
    return pq.ParquetFile(source, pre_buffer=False)
