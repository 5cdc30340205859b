"""What publishing costs in each layout, for a full build and for a rebuild after a small change.

Takes two sets of staged tables (the `<warehouse>/.staging/<table>.parquet` files of a build, copied
aside: BEFORE, and after a change such as a file of 1,000 abstracts added: AFTER) and times:

- `segments` (what `pipeline.lib.publish` does): BEFORE published into an empty warehouse, then
  AFTER published over it, which rewrites only the segments and database rows that changed;
- `whole`: every table written whole to Parquet and DuckDB (the layout before segments), measured
  as `segments` with no last release to start from;
- `ducklake`: the tables as a DuckLake (its extension loaded from `duckdb-extension-ducklake`,
  catalogue in a DuckDB file, data as Parquet), BEFORE created with CREATE TABLE AS, AFTER applied
  as the rows of the changed groups deleted and inserted in one transaction (the same diff as
  `segments`). The search index is not part of this figure.

    .venv/bin/python benchmarks/publish_layout.py --before /tmp/stateA --after /tmp/stateB

To make the two sets: build a warehouse (`papers build` with PAPERS_SEEDS_DIR and
PAPERS_WAREHOUSE_DIR set) from `generate_corpus.py --n 100000`, copy its `.staging/<table>.parquet`
files aside, add a file of 1,000 abstracts (`run_benchmark.write_extra_file`), build again and copy
them again. Prints seconds per step and sizes; asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import tempfile
import time
from pathlib import Path

import duckdb
import polars as pl

from pipeline.lib.publish import publish
from pipeline.lib.schema import TABLES
from pipeline.lib.segments import group_column


def _timed(label: str, action):
    started = time.perf_counter()
    result = action()
    print(f"{label:<52} {time.perf_counter() - started:8.1f} s")
    return result


def _size_mb(path: Path) -> float:
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files) / 2**20


def _tables(directory: Path) -> dict[str, Path]:
    return {name: directory / f"{name}.parquet" for name in TABLES}


def bench_segments(before: Path, after: Path, scratch: Path) -> None:
    warehouse = scratch / "segments"
    _timed(
        "segments: full publish of BEFORE",
        lambda: publish(_tables(before), warehouse, input_fingerprint="0" * 64),
    )
    release = _timed(
        "segments: publish of AFTER over it",
        lambda: publish(_tables(after), warehouse, input_fingerprint="1" * 64),
    )
    manifest = (warehouse / "manifest.json").read_text(encoding="utf-8")
    tables = json.loads(manifest)["tables"]
    for name, summary in tables.items():
        print(
            f"  {name:<16} rows {release.row_counts[name]:>9,}  segments {len(summary['segments']):>3}  "
            f"written {len(summary['written']):>3}  rows written {summary['rows_written']:>8,}"
        )
    parquet_mb, database_mb = _size_mb(warehouse / "parquet"), _size_mb(warehouse / "papers.duckdb")
    print(f"  release size: Parquet {parquet_mb:.0f} MB, database {database_mb:.0f} MB")
    _timed(
        "whole: full publish of AFTER (no last release)",
        lambda: publish(_tables(after), scratch / "whole", input_fingerprint="1" * 64),
    )


def _ducklake_extension() -> Path:
    spec = importlib.util.find_spec("duckdb_extension_ducklake")
    if spec is None or spec.origin is None:
        raise SystemExit("pip install duckdb-extension-ducklake==" + duckdb.__version__)
    return Path(spec.origin).parent / "extensions" / f"v{duckdb.__version__}" / "ducklake.duckdb_extension"


def bench_ducklake(before: Path, after: Path, scratch: Path) -> None:
    lake = scratch / "lake"
    lake.mkdir()
    con = duckdb.connect()
    con.execute("SET autoinstall_known_extensions = false")
    con.execute(f"LOAD '{_ducklake_extension()}'")
    con.execute(f"ATTACH 'ducklake:{lake / 'catalog.ducklake'}' AS lake (DATA_PATH '{lake / 'data'}/')")

    def create() -> None:
        for name, path in _tables(before).items():
            con.execute(f"CREATE TABLE lake.{name} AS SELECT * FROM read_parquet('{path}')")

    def apply_change() -> None:
        con.execute("BEGIN")
        for name, path in _tables(after).items():
            key = group_column(TABLES[name])
            if key is None:
                con.execute(f"DELETE FROM lake.{name}")
                con.execute(f"INSERT INTO lake.{name} SELECT * FROM read_parquet('{path}')")
                continue
            # The groups whose rows differ, found as `segments` finds them (here by EXCEPT).
            con.execute(
                f"CREATE OR REPLACE TEMP TABLE changed AS SELECT DISTINCT {key} AS key FROM ("
                f"(SELECT * FROM read_parquet('{path}') EXCEPT ALL SELECT * FROM lake.{name}) UNION ALL "
                f"(SELECT * FROM lake.{name} EXCEPT ALL SELECT * FROM read_parquet('{path}')))"
            )
            con.execute(f"DELETE FROM lake.{name} WHERE {key} IN (SELECT key FROM changed)")
            con.execute(
                f"INSERT INTO lake.{name} SELECT * FROM read_parquet('{path}') "
                f"WHERE {key} IN (SELECT key FROM changed)"
            )
        con.execute("COMMIT")

    _timed("ducklake: CREATE TABLE AS from BEFORE", create)
    _timed("ducklake: AFTER applied as deletes and inserts", apply_change)
    snapshots = con.execute("SELECT count(*) FROM lake.snapshots()").fetchone()[0]
    data_files = sorted((lake / "data").rglob("*.parquet"))
    deletes = [p for p in data_files if "delete" in p.name]
    papers = pl.read_parquet([p for p in data_files if "/papers/" in str(p) and p not in deletes])
    published = con.execute("SELECT count(*) FROM lake.papers").fetchone()[0]
    print(
        f"  {snapshots} snapshots; {len(data_files)} Parquet files ({len(deletes)} of them delete files); "
        f"papers: {published:,} rows through DuckLake, {papers.height:,} read by polars from its data files"
    )
    con.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="staged tables of the first build")
    parser.add_argument("--after", type=Path, required=True, help="staged tables after the change")
    parser.add_argument("--scratch", type=Path, help="where to write (default: a temporary directory)")
    args = parser.parse_args(argv)
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="publish-layout-"))
    try:
        bench_segments(args.before, args.after, scratch)
        bench_ducklake(args.before, args.after, scratch)
    finally:
        if args.scratch is None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
