"""Time one `papers build` of a seeds directory, as the benchmark runs it (each step in a process of
its own, a persistent Dagster instance), with nothing else measured beside it, and print every
step's seconds and peak memory (the asset checks each on a row of their own).

    .venv/bin/python benchmarks/time_build.py SEEDS_DIR WAREHOUSE_DIR [--instance DIR]

`--instance DIR` keeps the Dagster instance in DIR (created when missing), so that a second run on
the same warehouse after a file was added is timed as the benchmark's rebuild is. To time another
revision of the pipeline on the same input, run it from a worktree of that revision:
`PYTHONPATH=<worktree> .venv/bin/python benchmarks/time_build.py ...` (run from a directory outside
this repository, so that the worktree's `pipeline` is the one imported).
"""

from __future__ import annotations

import argparse
import contextlib
import tempfile
import time
from pathlib import Path

import dagster as dg
from memory import MemorySampler

from pipeline.build import run_build, temporary_instance


def _instance_home(kept: Path | None) -> contextlib.AbstractContextManager[str]:
    if kept is None:
        return tempfile.TemporaryDirectory()
    kept.mkdir(parents=True, exist_ok=True)
    return contextlib.nullcontext(str(kept))


def print_steps(instance: dg.DagsterInstance, run_ids: set[str], memory: MemorySampler) -> None:
    """One row per step of the given runs, in the order they started."""
    steps = [
        step
        for run_id in run_ids
        for step in instance.get_run_step_stats(run_id)
        if step.start_time is not None and step.end_time is not None
    ]
    print(f"{'step':<44} {'wall s':>8} {'peak RSS GB':>12} {'peak PSS GB':>12}")
    for step in sorted(steps, key=lambda s: s.start_time):
        rss, pss = memory.peak(step.start_time, step.end_time)
        seconds = step.end_time - step.start_time
        print(f"{step.step_key:<44} {seconds:>8.1f} {rss / 1e9:>12.2f} {pss / 1e9:>12.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=Path)
    parser.add_argument("warehouse", type=Path)
    parser.add_argument("--instance", type=Path, help="keep the Dagster instance here, for a later rebuild")
    args = parser.parse_args()
    with _instance_home(args.instance) as home, temporary_instance(home) as instance:
        before = {run.run_id for run in instance.get_runs()}
        with MemorySampler() as memory:
            started = time.perf_counter()
            outcome = run_build(args.seeds, args.warehouse, instance, isolate_steps=True)
            elapsed = time.perf_counter() - started
        print_steps(instance, {run.run_id for run in instance.get_runs()} - before, memory)
    rss, pss = memory.peak()
    print(
        f"published {outcome.published} ({outcome.reason}) in {elapsed:.1f} s; "
        f"peak RSS {rss / 1e9:.2f} GB, PSS {pss / 1e9:.2f} GB"
    )


if __name__ == "__main__":
    main()
