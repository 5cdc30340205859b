"""Whether two published warehouses hold the same tables: row for row, in order.

    .venv/bin/python benchmarks/compare_warehouses.py WAREHOUSE_A WAREHOUSE_B [--ignore-order]

Prints `identical` or, per table that differs, its row counts and the rows only one side has.
Exit code 0 when every table is identical, 1 otherwise. The input_files table differs between
any two builds that read the files at different times only in nothing it records (no timestamps).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

from pipeline.lib.publish import PARQUET_DIR
from pipeline.lib.schema import TABLES


def table_differences(left: pl.DataFrame, right: pl.DataFrame, ignore_order: bool) -> str | None:
    if ignore_order:
        left, right = (frame.sort(pl.all().cast(pl.String), nulls_last=True) for frame in (left, right))
    if left.equals(right):
        return None
    only_left = left.join(right, on=left.columns, how="anti", nulls_equal=True)
    only_right = right.join(left, on=left.columns, how="anti", nulls_equal=True)
    unmatched = f"{only_left.height} and {only_right.height} unmatched"
    lines = [f"{left.height} rows against {right.height}; {unmatched}"]
    if only_left.height:
        lines.append(f"only in A:\n{only_left.head(5)}")
    if only_right.height:
        lines.append(f"only in B:\n{only_right.head(5)}")
    if not only_left.height and not only_right.height:
        lines.append("the same rows in another order")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--ignore-order", action="store_true", help="compare rows as sets")
    args = parser.parse_args(argv)
    differing = 0
    for name in TABLES:
        paths = [warehouse / PARQUET_DIR / f"{name}.parquet" for warehouse in (args.a, args.b)]
        left, right = (pl.read_parquet(path) for path in paths)
        difference = table_differences(left, right, args.ignore_order)
        if difference:
            differing += 1
            print(f"{name}: {difference}")
    print("identical" if not differing else f"{differing} of {len(TABLES)} tables differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
