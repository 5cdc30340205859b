"""Time one `papers build` of a seeds directory, as the benchmark runs it (each step in a process of
its own, a temporary persistent Dagster instance), with nothing else measured beside it.

    .venv/bin/python benchmarks/time_build.py SEEDS_DIR WAREHOUSE_DIR

To time another revision of the pipeline on the same input, run it from a worktree of that
revision: `PYTHONPATH=<worktree> .venv/bin/python benchmarks/time_build.py ...` (run from a
directory outside this repository, so that the worktree's `pipeline` is the one imported).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from pipeline.build import run_build, temporary_instance


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=Path)
    parser.add_argument("warehouse", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home, temporary_instance(home) as instance:
        started = time.perf_counter()
        outcome = run_build(args.seeds, args.warehouse, instance, isolate_steps=True)
        elapsed = time.perf_counter() - started
    print(f"published {outcome.published} ({outcome.reason}) in {elapsed:.1f} s")


if __name__ == "__main__":
    main()
