"""The search index that a first publish builds, over K copies of a built warehouse's staged papers
(each copy's paper ids suffixed), at DuckDB's memory limit: seconds and peak resident memory, to
see whether the index fits that limit beyond the papers a benchmark run has.

    .venv/bin/python benchmarks/profile_search_index.py WAREHOUSE_DIR SCRATCH_DIR [--copies K]

The limit is publish's (PAPERS_DUCKDB_MEMORY_LIMIT, else its default). SCRATCH_DIR gets the
database and DuckDB's spill files, and is left for the caller to remove.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from memory import MemorySampler

from pipeline.lib.publish import _connect
from pipeline.lib.search import create_search_index
from pipeline.lib.staging import Staging


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouse", type=Path)
    parser.add_argument("scratch", type=Path)
    parser.add_argument("--copies", type=int, default=1)
    args = parser.parse_args()
    args.scratch.mkdir(parents=True, exist_ok=False)
    papers = Staging(args.warehouse).frame("papers")
    with MemorySampler() as memory:
        con = _connect(args.scratch / "papers.duckdb")
        limit = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        started = time.time()
        con.execute(
            "CREATE TABLE papers AS SELECT * REPLACE (paper_id || '-' || copy AS paper_id) "
            "FROM read_parquet($path), range($copies) AS copies(copy)",
            {"path": str(papers), "copies": args.copies},
        )
        (rows,) = con.execute("SELECT count(*) FROM papers").fetchone()
        loaded = time.time()
        print(f"{rows:,} papers loaded in {loaded - started:.1f} s (DuckDB limit {limit})", flush=True)
        reason = create_search_index(con)
        ended = time.time()
        con.close()
    if reason is not None:
        raise SystemExit(f"no index: {reason}")
    print(
        f"search index {ended - loaded:.1f} s, peak RSS {memory.peak(loaded, ended)[0] / 1e9:.2f} GB "
        f"(loading {memory.peak(started, loaded)[0] / 1e9:.2f} GB)"
    )


if __name__ == "__main__":
    main()
