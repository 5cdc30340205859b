"""Build the warehouse from a generated corpus and print what each stage costs and how well it dedups.

    .venv/bin/python benchmarks/run_benchmark.py --n 1000000
    .venv/bin/python benchmarks/run_benchmark.py --corpus /tmp/corpus-1m --baseline-sample 100000

1. Generates N abstracts with generate_corpus.py (or reuses the corpus given with --corpus;
   a missing --corpus directory is generated and kept), with its injected ground truth.
2. Runs `pipeline.build.run_build` in this process, exactly what `papers build` runs, into a
   temporary warehouse with a temporary persistent Dagster instance (a large corpus runs each step
   in a process of its own), while a thread samples the resident memory of this process plus all
   its children (step processes and their parse and extraction workers) every 0.2 s, and their
   proportional set size (PSS) every 2 s.
3. Prints one row per Dagster step (from the instance's step statistics): wall seconds,
   abstracts per second (input abstracts of the corpus / step seconds) and the peak RSS sampled
   inside the step's window; then total wall and overall peak RSS.
4. Scores the published `documents` table (paper_id per occurrence) against the ground truth:
   pairwise precision, recall and F1 for near duplicates and for all duplicates.
5. Writes one extra file of 1,000 new abstracts into the corpus, builds again with the same
   instance and warehouse, prints that wall time against the full build's and the files parsed
   again, then removes the extra file so the corpus stays as generated.
6. Runs datasketch's MinHash + MinHashLSH (benchmarks/dedup_benchmark.py) with the same shingles,
   permutations, bands and threshold on the same cleaned texts, on the first --baseline-sample
   documents, extrapolated linearly to the corpus when sampled; our deduplicate runs on the same
   sample too, so both F1s and a same-size time ratio are printed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import dagster as dg
import polars as pl
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import dedup_benchmark
import generate_corpus

from pipeline.build import run_build, temporary_instance
from pipeline.defs.automation import build_tables, ingest_files
from pipeline.defs.resources import read_staged
from pipeline.lib import dedup

SAMPLE_SECONDS = 0.2
# PSS every tenth sample only: reading it walks a process's page tables (40 ms for a 3 GB process),
# so sampling it every 0.2 s took a quarter of this 2-core machine from the build it measured. RSS
# is cheap to read (14 us) and sampled every time.
PSS_EVERY = 10
EXTRA_FILE = "bench_zz_added.txt"
EXTRA_ABSTRACTS = 1_000
# The targets for 1,000,000 abstracts on the 2-core machine.
TARGET_BUILD_SECONDS = 300
TARGET_PEAK_GB = 4.0
TARGET_NEAR_F1 = 0.95
TARGET_SPEEDUP = 5.0
TARGET_INCREMENTAL_SHARE = 0.10
# Step keys, in pipeline order; every other step key is an asset check.
PIPELINE_STEPS = [
    ("seed_file", "seed_file (parse + clean)"),
    ("collect_seed_files", "collect_seed_files"),
    ("deduplicate_documents", "deduplicate_documents"),
    ("extract_entities", "extract_entities"),
    ("papers", "papers"),
    ("warehouse", "warehouse (publish)"),
]
CHECKS = "checks"


class MemorySampler:
    """Memory of this process and all its descendants, sampled in a thread: (epoch seconds, RSS
    bytes, PSS bytes). RSS counts a page shared by several processes (the step processes are forked
    from one server) once per process; PSS divides it among them, so its sum is the memory in use."""

    def __init__(self, interval: float = SAMPLE_SECONDS) -> None:
        self.interval = interval
        self.samples: list[tuple[float, int, int]] = []
        self._process = psutil.Process()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _totals(self, with_pss: bool) -> tuple[int, int]:
        """RSS and PSS of the processes; PSS is 0 unless asked for."""
        rss = pss = 0
        for process in [self._process, *self._process.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):  # the child ended between listing and reading
                if with_pss:
                    memory = process.memory_full_info()
                    pss += memory.pss
                else:
                    memory = process.memory_info()
                rss += memory.rss
        return rss, pss

    def _run(self) -> None:
        count = 0
        while True:
            self.samples.append((time.time(), *self._totals(with_pss=count % PSS_EVERY == 0)))
            count += 1
            if self._stop.wait(self.interval):
                return

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def peak(self, start: float = 0.0, end: float = float("inf")) -> tuple[int, int]:
        """The highest RSS and PSS samples in [start, end], widened by one interval of each (RSS's
        and PSS's) so that a short step gets one of each."""

        def highest(column: int, margin: float) -> int:
            low, high = start - margin, end + margin
            return max((sample[column] for sample in self.samples if low <= sample[0] <= high), default=0)

        return highest(1, self.interval), highest(2, self.interval * PSS_EVERY)


@dataclass
class Stage:
    name: str
    seconds: float = 0.0
    start: float = float("inf")
    end: float = 0.0
    steps: int = 0
    peak_rss: int = 0
    peak_pss: int = 0


@dataclass
class Build:
    row_counts: dict[str, int]
    parsed_files: list[str]
    wall_seconds: float
    peak_rss: int
    peak_pss: int
    stages: list[Stage] = field(default_factory=list)


def _run_ids(instance: dg.DagsterInstance) -> set[str]:
    jobs = (ingest_files.name, build_tables.name)
    return {run.run_id for job in jobs for run in instance.get_runs(filters=dg.RunsFilter(job_name=job))}


def _stages(instance: dg.DagsterInstance, run_ids: set[str], memory: MemorySampler) -> list[Stage]:
    """Step statistics of the given runs, one stage per pipeline step and one for all checks."""
    labels = dict(PIPELINE_STEPS)
    stages = {label: Stage(label) for _, label in PIPELINE_STEPS} | {CHECKS: Stage(CHECKS)}
    for run_id in run_ids:
        for step in instance.get_run_step_stats(run_id):
            if step.start_time is None or step.end_time is None:
                continue
            stage = stages[labels.get(step.step_key, CHECKS)]
            stage.seconds += step.end_time - step.start_time
            stage.start = min(stage.start, step.start_time)
            stage.end = max(stage.end, step.end_time)
            stage.steps += 1
            rss, pss = memory.peak(step.start_time, step.end_time)
            stage.peak_rss, stage.peak_pss = max(stage.peak_rss, rss), max(stage.peak_pss, pss)
    order = [label for _, label in PIPELINE_STEPS[:-1]] + [CHECKS, PIPELINE_STEPS[-1][1]]
    return [stages[label] for label in order]


def timed_build(corpus: Path, warehouse: Path, instance: dg.DagsterInstance) -> Build:
    before = _run_ids(instance)
    with MemorySampler() as memory:
        started = time.perf_counter()
        outcome = run_build(corpus, warehouse, instance, log_level="CRITICAL")
        wall = time.perf_counter() - started
    if not outcome.published:
        raise SystemExit(f"the build did not publish: {outcome.reason}")
    stages = _stages(instance, _run_ids(instance) - before, memory)
    return Build(outcome.row_counts, outcome.parsed_files, wall, *memory.peak(), stages)


def _gb(n_bytes: int) -> str:
    return f"{n_bytes / 1e9:.2f}"


def print_stages(build: Build, n_abstracts: int) -> None:
    peaks = f"{'peak RSS GB':>12} {'peak PSS GB':>12}"
    print(f"{'stage':<28} {'steps':>5} {'wall s':>8} {'abstracts/s':>12} {peaks}")
    for stage in build.stages:
        if not stage.steps:
            continue
        rate = n_abstracts / stage.seconds if stage.seconds else float("inf")
        peaks = f"{_gb(stage.peak_rss):>12} {_gb(stage.peak_pss):>12}"
        print(f"{stage.name:<28} {stage.steps:>5} {stage.seconds:>8.1f} {rate:>12,.0f} {peaks}")
    outside = build.wall_seconds - sum(stage.seconds for stage in build.stages)
    print(f"{'outside steps (Dagster)':<28} {'':>5} {outside:>8.1f}")
    print(
        f"{'total':<28} {'':>5} {build.wall_seconds:>8.1f} {n_abstracts / build.wall_seconds:>12,.0f} "
        f"{_gb(build.peak_rss):>12} {_gb(build.peak_pss):>12}"
    )


def load_or_generate(args: argparse.Namespace, scratch: Path) -> Path:
    corpus = args.corpus or scratch / "corpus"
    if (corpus / "ground_truth.csv").exists():
        print(f"corpus: reusing {corpus}")
        return corpus
    started = time.perf_counter()
    generate_corpus.main(["--n", str(args.n), "--out", str(corpus), "--seed", str(args.seed)])
    print(f"corpus: generated in {time.perf_counter() - started:.1f} s (not part of the build)")
    return corpus


def write_extra_file(corpus: Path, n: int, seed: int) -> Path:
    """n new originals, recombined from the real abstracts like the corpus, in a file sorted last."""
    abstracts = generate_corpus.read_abstracts(generate_corpus.default_source())
    texts, _ = generate_corpus.generate(abstracts, n, seed, exact_rate=0.0, near_rate=0.0)
    path = corpus / EXTRA_FILE
    path.write_text("NeurIPS 2025 Papers\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")
    return path


def score_published(warehouse: Path, corpus: Path) -> dict[str, dict]:
    documents = pl.read_parquet(
        warehouse / "parquet" / "documents.parquet", columns=["document_id", "paper_id"]
    )
    truth = dedup_benchmark.read_ground_truth(corpus)
    return dedup_benchmark.evaluate(documents, documents["paper_id"], truth)


def run_baseline(warehouse: Path, corpus: Path, sample_size: int | None) -> dict:
    """datasketch and our deduplicate on the same first documents (the cleaned texts the build
    deduplicated in the full build, in its canonical order)."""
    raw = (
        read_staged(warehouse, "raw_documents")
        .filter(pl.col("source_file") != EXTRA_FILE)
        .sort("source_file", "ordinal")
    )
    sample = raw.head(sample_size or raw.height)
    frame = sample.select("document_id", clean_text="abstract_clean")
    params = {"threshold": dedup.THRESHOLD, "num_perm": dedup.NUM_PERM, "shingle_size": dedup.SHINGLE_SIZE}
    truth = dedup_benchmark.read_ground_truth(corpus)
    ours, ours_seconds, _ = dedup_benchmark.timed(lambda: dedup.deduplicate(frame, **params))
    texts = frame["clean_text"].to_list()
    (canonical, stage_seconds), base_seconds, base_mb = dedup_benchmark.timed(
        lambda: dedup_benchmark.datasketch_deduplicate(texts, **params)
    )
    return {
        "documents": raw.height,
        "sample": frame.height,
        "params": params,
        "ours_seconds": ours_seconds,
        "base_seconds": base_seconds,
        "base_stage_seconds": stage_seconds,
        "base_extra_mb": base_mb,
        "ours_scores": dedup_benchmark.evaluate(frame, ours["paper_id"], truth),
        "base_scores": dedup_benchmark.evaluate(frame, pl.Series(canonical).cast(pl.String), truth),
    }


def stage_seconds(build: Build, name: str) -> float:
    return next(stage.seconds for stage in build.stages if stage.name == name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="abstracts to generate (default 1,000,000)")
    parser.add_argument("--corpus", type=Path, help="corpus directory: reused if it has ground_truth.csv")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--baseline-sample",
        type=int,
        default=100_000,
        help="documents datasketch runs on, extrapolated linearly (default 100,000; 0 = all)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="papers-bench-") as scratch_name:
        scratch = Path(scratch_name)
        corpus = load_or_generate(args, scratch)
        warehouse = scratch / "warehouse"
        print(
            f"machine: {psutil.cpu_count()} CPUs, {psutil.virtual_memory().total / 1e9:.0f} GB; "
            f"load average before the build {os.getloadavg()[0]:.2f}"
        )
        (scratch / "dagster").mkdir()
        # Persistent (in the scratch directory), as `papers build` uses: its steps run in processes.
        with temporary_instance(str(scratch / "dagster")) as instance:
            full = timed_build(corpus, warehouse, instance)
            n_abstracts = full.row_counts["documents"]
            print(
                f"\nfull build: {n_abstracts:,} documents -> {full.row_counts['papers']:,} papers, "
                f"{full.row_counts['rejects']:,} rejects; {len(full.parsed_files)} files "
                f"parsed; load average after {os.getloadavg()[0]:.2f}"
            )
            print_stages(full, n_abstracts)

            print("\nnear-duplicate detection, published documents table vs the injected ground truth:")
            published_scores = score_published(warehouse, corpus)
            dedup_benchmark.print_scores("ours", published_scores)

            extra = write_extra_file(corpus, EXTRA_ABSTRACTS, args.seed + 1)
            try:
                incremental = timed_build(corpus, warehouse, instance)
            finally:
                extra.unlink()
            print(
                f"\nincremental: {EXTRA_ABSTRACTS:,} new abstracts in {extra.name}, rebuilt with the same "
                f"instance and warehouse; files parsed again: {', '.join(incremental.parsed_files)}"
            )
            print_stages(incremental, incremental.row_counts["documents"])
            share = incremental.wall_seconds / full.wall_seconds
            load = os.getloadavg()[0]
            print(f"incremental / full build wall time: {share:.1%}; load average after {load:.2f}")

            # After both builds, so that the baseline's memory is not counted in theirs.
            baseline = run_baseline(warehouse, corpus, args.baseline_sample or None)
            print_baseline(baseline, full)

    figures = summarise(full, incremental, published_scores, baseline, n_abstracts)
    print_targets(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


def print_baseline(baseline: dict, full: Build) -> None:
    sample, documents = baseline["sample"], baseline["documents"]
    scale = documents / sample
    extrapolated = baseline["base_seconds"] * scale
    step = stage_seconds(full, "deduplicate_documents")
    note = f", extrapolated linearly from {sample:,}" if sample < documents else ""
    params = baseline["params"]
    print(
        f"\nbaseline: datasketch MinHash + MinHashLSH, same shingles ({params['shingle_size']} words), "
        f"{params['num_perm']} permutations, {params['num_perm'] // dedup.BAND_ROWS} bands "
        f"x {dedup.BAND_ROWS} rows, threshold {params['threshold']}, same verification, "
        f"on the first {sample:,} cleaned documents"
    )
    print(
        f"  datasketch {baseline['base_seconds']:.1f} s ({sample / baseline['base_seconds']:,.0f} docs/s); "
        + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in baseline["base_stage_seconds"].items())
    )
    print(f"  ours (pipeline.lib.dedup.deduplicate) on the same documents: {baseline['ours_seconds']:.1f} s")
    dedup_benchmark.print_scores("datasketch", baseline["base_scores"])
    dedup_benchmark.print_scores("ours", baseline["ours_scores"])
    print(
        f"  time ratio datasketch / ours, same {sample:,} documents: "
        f"{baseline['base_seconds'] / baseline['ours_seconds']:.1f}x"
    )
    print(
        f"  time ratio datasketch on {documents:,} documents ({extrapolated:.0f} s{note}) / our "
        f"deduplicate_documents step ({step:.1f} s, with its Parquet I/O and table assembly): "
        f"{extrapolated / step:.1f}x"
    )


def summarise(
    full: Build, incremental: Build, scores: dict[str, dict], baseline: dict, n_abstracts: int
) -> dict:
    extrapolated = baseline["base_seconds"] * baseline["documents"] / baseline["sample"]
    return {
        "documents": n_abstracts,
        "build_seconds": full.wall_seconds,
        "peak_rss_gb": full.peak_rss / 1e9,
        "peak_pss_gb": full.peak_pss / 1e9,
        "stages": [
            {
                "stage": s.name,
                "seconds": s.seconds,
                "peak_rss_gb": s.peak_rss / 1e9,
                "peak_pss_gb": s.peak_pss / 1e9,
            }
            for s in full.stages
            if s.steps
        ],
        "near": scores["near"],
        "all": scores["all"],
        "baseline_sample": baseline["sample"],
        "baseline_near_f1": baseline["base_scores"]["near"]["f1"],
        "ours_sample_near_f1": baseline["ours_scores"]["near"]["f1"],
        "speedup_same_sample": baseline["base_seconds"] / baseline["ours_seconds"],
        "speedup_vs_step": extrapolated / stage_seconds(full, "deduplicate_documents"),
        "incremental_seconds": incremental.wall_seconds,
        "incremental_share": incremental.wall_seconds / full.wall_seconds,
        "incremental_parsed_files": incremental.parsed_files,
        "incremental_stages": [
            {"stage": s.name, "seconds": s.seconds} for s in incremental.stages if s.steps
        ],
    }


def print_targets(figures: dict) -> None:
    scale = 1_000_000 / figures["documents"]
    note = "" if scale < 1.01 else f" (targets are for 1,000,000; this run has {figures['documents']:,})"
    print(f"\ntargets{note}:")
    near_f1, ours_f1, base_f1 = (
        figures["near"]["f1"],
        figures["ours_sample_near_f1"],
        figures["baseline_near_f1"],
    )
    speedup = figures["speedup_vs_step"]
    rows = [
        ("build wall time", f"{figures['build_seconds']:.0f} s", f"<= {TARGET_BUILD_SECONDS} s",
         figures["build_seconds"] <= TARGET_BUILD_SECONDS),
        ("peak RSS", f"{figures['peak_rss_gb']:.2f} GB", f"<= {TARGET_PEAK_GB} GB",
         figures["peak_rss_gb"] <= TARGET_PEAK_GB),
        ("peak PSS (shared pages once)", f"{figures['peak_pss_gb']:.2f} GB", f"<= {TARGET_PEAK_GB} GB",
         figures["peak_pss_gb"] <= TARGET_PEAK_GB),
        ("near-dup F1", f"{near_f1:.4f}", f">= {TARGET_NEAR_F1}", near_f1 >= TARGET_NEAR_F1),
        ("dedup speed-up vs datasketch", f"{speedup:.1f}x (step)",
         f">= {TARGET_SPEEDUP}x, F1 {ours_f1:.4f} vs {base_f1:.4f}",
         speedup >= TARGET_SPEEDUP and ours_f1 >= base_f1),
        ("incremental / full", f"{figures['incremental_share']:.1%}", f"<= {TARGET_INCREMENTAL_SHARE:.0%}",
         figures["incremental_share"] <= TARGET_INCREMENTAL_SHARE),
    ]  # fmt: skip
    for name, value, target, met in rows:
        print(f"  {name:<30} {value:>18}   target {target:<40} {'met' if met else 'MISSED'}")


if __name__ == "__main__":
    sys.exit(main())
