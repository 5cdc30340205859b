"""Whether a warehouse's extraction tables are those `extract_all` gives for its published papers:
the check that the map over files (each file extracting its own texts, the build assembling them)
changes nothing.

    .venv/bin/python benchmarks/check_extraction.py WAREHOUSE_DIR

Prints, per table, `identical` (same rows in the same order), `same rows in another order`, or
the two row counts; exit code 0 when every table is identical.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import polars as pl

from pipeline.lib.extract import extract_all
from pipeline.lib.publish import PARQUET_DIR

TABLES = ("mentions", "entities", "abbreviations", "links", "results")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouse", type=Path)
    args = parser.parse_args()
    parquet = args.warehouse / PARQUET_DIR
    papers = pl.read_parquet(parquet / "papers.parquet", columns=["paper_id", "abstract_clean"])
    extraction = extract_all(papers, workers=os.cpu_count() or 1)
    differing = 0
    for name in TABLES:
        published = pl.read_parquet(parquet / f"{name}.parquet")
        expected = getattr(extraction, name).select(published.columns)
        if published.equals(expected):
            print(f"{name}: identical ({published.height} rows)")
            continue
        differing += 1
        in_order = [frame.sort(pl.all().cast(pl.String), nulls_last=True) for frame in (published, expected)]
        verdict = "same rows in another order" if in_order[0].equals(in_order[1]) else "different rows"
        print(f"{name}: {verdict} ({published.height} published, {expected.height} from extract_all)")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
