"""Build the warehouse from a generated corpus and print what each stage costs, against the floor,
and how well it dedups.

    .venv/bin/python benchmarks/run_benchmark.py --n 1000000
    .venv/bin/python benchmarks/run_benchmark.py --n 1000000 --format arxiv --json r1m-arxiv.json
    .venv/bin/python benchmarks/run_benchmark.py --corpus /tmp/corpus-1m --baseline-sample 100000

1. Generates N abstracts with generate_corpus.py in a process of its own, as seed-format text or
   arXiv-snapshot JSON Lines (`--format`), or reuses the corpus given with --corpus (its
   `manifest.json` gives the format; a missing --corpus directory is generated and kept), with
   its injected ground truth.
2. Measures the floor (benchmarks/floor.py): reading the corpus's files, splitting them into
   records, hashing each abstract and writing them to Parquet, one worker process per core.
3. Runs `pipeline.build.run_build`, exactly what `papers build` runs, in a spawned process of its
   own as a user's `papers build` is, into a temporary warehouse with a temporary persistent
   Dagster instance (a large corpus runs each step in a process of its own), while a thread
   samples the resident memory of that process plus all its children (step processes and their
   parse and extraction workers) every 0.2 s, and their proportional set size (PSS) every 2 s.
   Runs before commit "run_benchmark.py: each build in a process of its own" ran the builds in the
   benchmark's process and counted it too: for the rebuild, with what the full build and the
   scoring had left in it.
4. Prints one row per Dagster step (from the instance's step statistics): wall seconds, that
   time as a multiple of the floor's, abstracts per second (input abstracts of the corpus / step
   seconds) and the peak RSS and PSS sampled inside the step's window; then total wall and
   overall peaks.
5. Scores the published `documents` table (paper_id per occurrence) against the ground truth,
   and our text dedup alone (`pipeline.lib.dedup.deduplicate` on every cleaned document the build
   staged): pairwise precision, recall and F1 for near duplicates and for all duplicates.
6. Writes one extra file of 1,000 new abstracts in the corpus's format, builds again with the
   same instance and warehouse, prints that build's stages, its wall time against the full
   build's and the files parsed again, then removes the extra file so the corpus stays as
   generated.
7. Runs datasketch's MinHash + MinHashLSH (benchmarks/dedup_benchmark.py) with the same shingles,
   permutations, bands and threshold on the same cleaned texts, on the first --baseline-sample
   documents, extrapolated linearly to the corpus when sampled; our deduplicate runs on the same
   sample too, so both F1s and a same-size time ratio are printed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

import dagster as dg
import polars as pl
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import dedup_benchmark
import generate_corpus
from memory import MemorySampler

from pipeline.build import run_build, temporary_instance
from pipeline.defs import checks as check_definitions
from pipeline.defs.automation import build_tables, ingest_files
from pipeline.defs.resources import read_staged
from pipeline.lib import dedup

BENCHMARKS = Path(__file__).resolve().parent
# The incremental step's file; it sorts after the corpus's files in both formats.
EXTRA_STEM = "bench_zz_added"
EXTRA_ABSTRACTS = 1_000
# Issue 19's targets for 1,000,000 abstracts on the 2-core machine.
TARGET_BUILD_SECONDS = 300
TARGET_PEAK_GB = 3.0
TARGET_NEAR_F1 = 0.98
TARGET_SPEEDUP = 10.0
TARGET_INCREMENTAL_SHARE = 0.10
# Step keys, in pipeline order; the asset checks' steps are added up in one row.
PIPELINE_STEPS = [
    ("seed_file", "seed_file (parse + clean)"),
    ("collect_seed_files", "collect_seed_files"),
    ("deduplicate_documents", "deduplicate_documents"),
    ("extract_entities", "extract_entities"),
    ("papers", "papers"),
    ("warehouse", "warehouse (publish)"),
]
CHECKS = "checks"


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

    def peak_stage(self) -> str:
        """The stage in which the highest RSS was sampled."""
        return max((stage for stage in self.stages if stage.steps), key=lambda s: s.peak_rss).name


@dataclass
class Floor:
    """Reading, splitting, hashing and writing the corpus (benchmarks/floor.py)."""

    records: int
    seconds: float
    workers: int
    tasks: int
    peak_rss: int
    peak_pss: int


def _run_ids(instance: dg.DagsterInstance) -> set[str]:
    jobs = (ingest_files.name, build_tables.name)
    return {run.run_id for job in jobs for run in instance.get_runs(filters=dg.RunsFilter(job_name=job))}


def _check_steps() -> set[str]:
    """The step keys of the asset checks (their ops' names)."""
    return {definition.op.name for definition in dg.load_asset_checks_from_modules([check_definitions])}


def _stages(instance: dg.DagsterInstance, run_ids: set[str], memory: MemorySampler) -> list[Stage]:
    """Step statistics of the given runs, one stage per pipeline step and one for all checks; a step
    this benchmark does not know (the pipeline gained or renamed one) gets a row of its own."""
    labels = dict(PIPELINE_STEPS)
    checks = _check_steps()
    stages = {label: Stage(label) for _, label in PIPELINE_STEPS} | {CHECKS: Stage(CHECKS)}
    for run_id in run_ids:
        for step in instance.get_run_step_stats(run_id):
            if step.start_time is None or step.end_time is None:
                continue
            label = CHECKS if step.step_key in checks else labels.get(step.step_key, step.step_key)
            stage = stages.setdefault(label, Stage(label))
            stage.seconds += step.end_time - step.start_time
            stage.start = min(stage.start, step.start_time)
            stage.end = max(stage.end, step.end_time)
            stage.steps += 1
            rss, pss = memory.peak(step.start_time, step.end_time)
            stage.peak_rss, stage.peak_pss = max(stage.peak_rss, rss), max(stage.peak_pss, pss)
    order = [label for _, label in PIPELINE_STEPS[:-1]] + [CHECKS, PIPELINE_STEPS[-1][1]]
    unknown = sorted((stage for label, stage in stages.items() if label not in order), key=lambda s: s.start)
    return [stages[label] for label in order] + unknown


def _build_in_own_process(inputs: Path, warehouse: Path, home: str, sender: Connection) -> None:
    """run_build with the persistent instance in `home`; what the benchmark reads of its outcome is
    sent back (the outcome holds the run's result, which does not cross processes)."""
    with temporary_instance(home) as instance:
        outcome = run_build(inputs, warehouse, instance, log_level="CRITICAL")
    sender.send((outcome.published, outcome.reason, outcome.row_counts, outcome.parsed_files))


def timed_build(inputs: Path, warehouse: Path, instance: dg.DagsterInstance, home: str) -> Build:
    """One build in a process of its own, as a user's `papers build` is, with the memory of that
    process and all its children sampled: this process's own (its imports, what an earlier build
    and scoring left in it) is no part of the build."""
    before = _run_ids(instance)
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_build_in_own_process, args=(inputs, warehouse, home, sender))
    started = time.perf_counter()
    process.start()
    with MemorySampler(process.pid) as memory:
        while not receiver.poll(1):
            if not process.is_alive():
                raise SystemExit(f"the build's process ended with exit code {process.exitcode}")
        published, reason, row_counts, parsed_files = receiver.recv()
        process.join()
    wall = time.perf_counter() - started
    if not published:
        raise SystemExit(f"the build did not publish: {reason}")
    stages = _stages(instance, _run_ids(instance) - before, memory)
    return Build(row_counts, parsed_files, wall, *memory.peak(), stages)


def measure_floor(files: list[Path], corpus_format: str, out: Path) -> Floor:
    """benchmarks/floor.py in a process of its own (its workers spawned from it), with the memory
    of that process and all its children sampled as for the build's stages."""
    command = [sys.executable, str(BENCHMARKS / "floor.py"), "--format", corpus_format, "--out", str(out)]
    floor = subprocess.Popen([*command, *map(str, files)], stdout=subprocess.PIPE, text=True)
    with floor, MemorySampler(floor.pid) as memory:
        stdout, _ = floor.communicate()
    if floor.returncode:
        raise SystemExit(f"benchmarks/floor.py failed with exit code {floor.returncode}")
    result = json.loads(stdout.strip().splitlines()[-1])
    return Floor(**result, peak_rss=memory.peak()[0], peak_pss=memory.peak()[1])


def _gb(n_bytes: int) -> str:
    return f"{n_bytes / 1e9:.2f}"


def print_floor(floor: Floor) -> None:
    print(
        f"floor: read, split into records, hash each abstract (xxh3), write Parquet; {floor.workers} "
        f"worker processes, {floor.tasks} tasks: {floor.records:,} records in {floor.seconds:.1f} s "
        f"({floor.records / floor.seconds:,.0f} records/s); peak RSS {_gb(floor.peak_rss)} GB, "
        f"PSS {_gb(floor.peak_pss)} GB (floor.py's process and its children, as for the stages)"
    )


def print_stages(build: Build, n_abstracts: int, floor: Floor) -> None:
    peaks = f"{'peak RSS GB':>12} {'peak PSS GB':>12}"
    print(f"{'stage':<28} {'steps':>5} {'wall s':>8} {'x floor':>8} {'abstracts/s':>12} {peaks}")
    for stage in build.stages:
        if not stage.steps:
            continue
        rate = n_abstracts / stage.seconds if stage.seconds else float("inf")
        peaks = f"{_gb(stage.peak_rss):>12} {_gb(stage.peak_pss):>12}"
        ratio = stage.seconds / floor.seconds
        print(f"{stage.name:<28} {stage.steps:>5} {stage.seconds:>8.1f} {ratio:>8.2f} {rate:>12,.0f} {peaks}")
    outside = build.wall_seconds - sum(stage.seconds for stage in build.stages)
    print(f"{'outside steps (Dagster)':<28} {'':>5} {outside:>8.1f} {outside / floor.seconds:>8.2f}")
    print(
        f"{'total':<28} {'':>5} {build.wall_seconds:>8.1f} {build.wall_seconds / floor.seconds:>8.2f} "
        f"{n_abstracts / build.wall_seconds:>12,.0f} {_gb(build.peak_rss):>12} {_gb(build.peak_pss):>12}"
    )


def load_or_generate(args: argparse.Namespace, scratch: Path) -> Path:
    """The corpus directory: reused when it has a ground truth, else generated in a process of its
    own, so that the generator's memory is not in this process's when the build is measured."""
    corpus = args.corpus or scratch / "corpus"
    if (corpus / "ground_truth.csv").exists():
        print(f"corpus: reusing {corpus}")
        return corpus
    command = [sys.executable, str(BENCHMARKS / "generate_corpus.py"), "--n", str(args.n)]
    command += ["--out", str(corpus), "--seed", str(args.seed), "--format", args.format or "text"]
    if args.files:
        command += ["--files", str(args.files)]
    started = time.perf_counter()
    subprocess.run(command, check=True)
    print(f"corpus: generated in {time.perf_counter() - started:.1f} s (not part of the build)")
    return corpus


def documents_without_extra(warehouse: Path) -> pl.DataFrame:
    """The cleaned texts the full build deduplicated (its staged `raw_documents`, without the
    incremental step's file), in canonical order."""
    return (
        read_staged(warehouse, "raw_documents", ["document_id", "source_file", "ordinal", "abstract_clean"])
        .filter(~pl.col("source_file").str.starts_with(EXTRA_STEM))
        .sort("source_file", "ordinal")
        .select("document_id", clean_text="abstract_clean")
    )


def score_published(warehouse: Path, corpus: Path) -> dict[str, dict]:
    documents = pl.read_parquet(
        warehouse / "parquet" / "documents.parquet", columns=["document_id", "paper_id"]
    )
    truth = dedup_benchmark.read_ground_truth(corpus)
    missing = truth.join(documents, on="document_id", how="anti").height
    if missing:
        raise SystemExit(f"{missing:,} documents of the ground truth are not in the documents table")
    return dedup_benchmark.evaluate(documents, documents["paper_id"], truth)


DEDUP_PARAMS = {"threshold": dedup.THRESHOLD, "num_perm": dedup.NUM_PERM, "shingle_size": dedup.SHINGLE_SIZE}


def score_text_dedup(documents: pl.DataFrame, corpus: Path) -> tuple[dict[str, dict], float]:
    """Our text dedup alone on every document, without the merging by ids and titles that follows
    it in the build; its scores and seconds."""
    found, seconds, _ = dedup_benchmark.timed(lambda: dedup.deduplicate(documents, **DEDUP_PARAMS))
    truth = dedup_benchmark.read_ground_truth(corpus)
    return dedup_benchmark.evaluate(documents, found["paper_id"], truth), seconds


def run_baseline(documents: pl.DataFrame, corpus: Path, sample_size: int | None) -> dict:
    """datasketch and our deduplicate on the same first documents."""
    frame = documents.head(sample_size or documents.height)
    truth = dedup_benchmark.read_ground_truth(corpus)
    ours, ours_seconds, _ = dedup_benchmark.timed(lambda: dedup.deduplicate(frame, **DEDUP_PARAMS))
    texts = frame["clean_text"].to_list()
    (canonical, stage_seconds), base_seconds, base_mb = dedup_benchmark.timed(
        lambda: dedup_benchmark.datasketch_deduplicate(texts, **DEDUP_PARAMS)
    )
    return {
        "documents": documents.height,
        "sample": frame.height,
        "params": DEDUP_PARAMS,
        "ours_seconds": ours_seconds,
        "base_seconds": base_seconds,
        "base_stage_seconds": stage_seconds,
        "base_extra_mb": base_mb,
        "ours_scores": dedup_benchmark.evaluate(frame, ours["paper_id"], truth),
        "base_scores": dedup_benchmark.evaluate(frame, pl.Series(canonical).cast(pl.String), truth),
    }


def stage_seconds(build: Build, name: str) -> float:
    return next(stage.seconds for stage in build.stages if stage.name == name)


def _git_commit() -> str | None:
    completed = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=BENCHMARKS, capture_output=True, text=True, check=False
    )
    return completed.stdout.strip() or None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="abstracts to generate (default 1,000,000)")
    parser.add_argument(
        "--format",
        choices=generate_corpus.FORMATS,
        help="corpus format to generate: text (the default) or arxiv; a reused corpus has its own",
    )
    parser.add_argument(
        "--files",
        type=int,
        help="files to generate (default: one for arxiv, 5,000 to 20,000 abstracts each for text)",
    )
    parser.add_argument("--corpus", type=Path, help="corpus directory: reused if it has ground_truth.csv")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--baseline-sample",
        type=int,
        default=100_000,
        help="documents datasketch runs on, extrapolated linearly (default 100,000; 0 = all)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument(
        "--compare",
        type=Path,
        help="the --json of an earlier run (say at 1M): print how time per document grew",
    )
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="papers-bench-") as scratch_name:
        scratch = Path(scratch_name)
        corpus = load_or_generate(args, scratch)
        manifest = generate_corpus.read_manifest(corpus)
        if manifest is None:
            raise SystemExit(
                f"{corpus} was generated before corpora had manifest.json and inputs/: regenerate it"
            )
        corpus_format = manifest["format"]
        if args.format and args.format != corpus_format:
            raise SystemExit(f"{corpus} holds a {corpus_format} corpus, not {args.format}")
        inputs = corpus / generate_corpus.INPUTS
        files = [inputs / name for name in manifest["files"]]
        warehouse = scratch / "warehouse"
        load_before = os.getloadavg()[0]
        print(
            f"machine: {psutil.cpu_count()} CPUs, {psutil.virtual_memory().total / 1e9:.0f} GB; "
            f"load average before the build {load_before:.2f}; corpus: {corpus_format}, {len(files)} file(s)"
        )
        floor = measure_floor(files, corpus_format, scratch / "floor")
        print_floor(floor)
        (scratch / "dagster").mkdir()
        # Persistent (in the scratch directory), as `papers build` uses: its steps run in processes.
        with temporary_instance(str(scratch / "dagster")) as instance:
            full = timed_build(inputs, warehouse, instance, str(scratch / "dagster"))
            n_abstracts = full.row_counts["documents"]
            load_after_full = os.getloadavg()[0]
            print(
                f"\nfull build: {n_abstracts:,} documents -> {full.row_counts['papers']:,} papers, "
                f"{full.row_counts['rejects']:,} rejects; {len(full.parsed_files)} files "
                f"parsed; load average after {load_after_full:.2f}"
            )
            print_stages(full, n_abstracts, floor)

            print("\nduplicates against the injected ground truth:")
            # In a process of its own: the tables it reads would stay in this one's memory.
            with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
                published_scores = pool.submit(score_published, warehouse, corpus).result()
            dedup_benchmark.print_scores("published", published_scores)

            first_number = manifest.get("records", n_abstracts)
            extra = generate_corpus.write_added_file(
                inputs, EXTRA_STEM, EXTRA_ABSTRACTS, args.seed + 1, corpus_format, first_number
            )
            try:
                incremental = timed_build(inputs, warehouse, instance, str(scratch / "dagster"))
            finally:
                extra.unlink()
            print(
                f"\nincremental: {EXTRA_ABSTRACTS:,} new abstracts in {extra.name}, rebuilt with the same "
                f"instance and warehouse; files parsed again: {', '.join(incremental.parsed_files)}"
            )
            print_stages(incremental, incremental.row_counts["documents"], floor)
            share = incremental.wall_seconds / full.wall_seconds
            load_after = os.getloadavg()[0]
            print(f"incremental / full build wall time: {share:.1%}; load average after {load_after:.2f}")
            print(
                f"\npeak memory, each build's process and all its children: full build "
                f"{_gb(full.peak_rss)} GB RSS, {_gb(full.peak_pss)} GB PSS (in {full.peak_stage()}); "
                f"rebuild {_gb(incremental.peak_rss)} GB RSS, {_gb(incremental.peak_pss)} GB PSS "
                f"(in {incremental.peak_stage()})"
            )

            documents = documents_without_extra(warehouse)
            text_scores, text_seconds = score_text_dedup(documents, corpus)
            print(
                f"\nour text dedup alone, on all {documents.height:,} cleaned documents "
                f"({text_seconds:.1f} s):"
            )
            dedup_benchmark.print_scores("text dedup", text_scores)
            baseline = run_baseline(documents, corpus, args.baseline_sample or None)
            del documents
            print_baseline(baseline, full)

    figures = summarise(full, incremental, floor, published_scores, text_scores, baseline, n_abstracts)
    figures |= {
        "format": corpus_format,
        "files": len(files),
        "corpus": str(args.corpus) if args.corpus else None,
        "commit": _git_commit(),
        "cpus": psutil.cpu_count(),
        "load_average": {"before": load_before, "after_full": load_after_full, "after": load_after},
    }
    print_targets(figures)
    if args.compare:
        print_growth(figures, json.loads(args.compare.read_text(encoding="utf-8")))
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


def _stage_figures(build: Build, floor: Floor) -> list[dict]:
    return [
        {
            "stage": s.name,
            "steps": s.steps,
            "seconds": s.seconds,
            "x_floor": s.seconds / floor.seconds,
            "peak_rss_gb": s.peak_rss / 1e9,
            "peak_pss_gb": s.peak_pss / 1e9,
        }
        for s in build.stages
        if s.steps
    ]


def _build_figures(build: Build, floor: Floor) -> dict:
    return {
        "seconds": build.wall_seconds,
        "x_floor": build.wall_seconds / floor.seconds,
        "outside_steps_seconds": build.wall_seconds - sum(s.seconds for s in build.stages),
        "peak_rss_gb": build.peak_rss / 1e9,
        "peak_pss_gb": build.peak_pss / 1e9,
        "peak_stage": build.peak_stage(),
        "row_counts": build.row_counts,
        "parsed_files": build.parsed_files,
        "stages": _stage_figures(build, floor),
    }


def summarise(
    full: Build,
    incremental: Build,
    floor: Floor,
    published: dict[str, dict],
    text: dict[str, dict],
    baseline: dict,
    n_abstracts: int,
) -> dict:
    extrapolated = baseline["base_seconds"] * baseline["documents"] / baseline["sample"]
    return {
        "documents": n_abstracts,
        "floor": {
            "records": floor.records,
            "seconds": floor.seconds,
            "workers": floor.workers,
            "tasks": floor.tasks,
            "peak_rss_gb": floor.peak_rss / 1e9,
            "peak_pss_gb": floor.peak_pss / 1e9,
        },
        "full": _build_figures(full, floor),
        "incremental": _build_figures(incremental, floor),
        "incremental_share": incremental.wall_seconds / full.wall_seconds,
        "published_scores": published,
        "text_dedup_scores": text,
        "baseline": {
            "sample": baseline["sample"],
            "datasketch_seconds": baseline["base_seconds"],
            "datasketch_stage_seconds": baseline["base_stage_seconds"],
            "ours_seconds": baseline["ours_seconds"],
            "datasketch_scores": baseline["base_scores"],
            "ours_scores": baseline["ours_scores"],
            "speedup_same_sample": baseline["base_seconds"] / baseline["ours_seconds"],
            "datasketch_extrapolated_seconds": extrapolated,
            "speedup_vs_step": extrapolated / stage_seconds(full, "deduplicate_documents"),
        },
    }


def print_targets(figures: dict) -> None:
    scale = 1_000_000 / figures["documents"]
    note = "" if scale < 1.01 else f" (targets are for 1,000,000; this run has {figures['documents']:,})"
    print(f"\ntargets{note}:")
    full, incremental, baseline = figures["full"], figures["incremental"], figures["baseline"]
    text_f1, published_f1 = (
        figures["text_dedup_scores"]["near"]["f1"],
        figures["published_scores"]["near"]["f1"],
    )
    ours_f1, base_f1 = baseline["ours_scores"]["near"]["f1"], baseline["datasketch_scores"]["near"]["f1"]
    speedup = baseline["speedup_vs_step"]
    rows = [
        ("full build wall time", f"{full['seconds']:.0f} s", f"<= {TARGET_BUILD_SECONDS} s",
         full["seconds"] <= TARGET_BUILD_SECONDS),
        ("full build peak RSS", f"{full['peak_rss_gb']:.2f} GB", f"<= {TARGET_PEAK_GB} GB",
         full["peak_rss_gb"] <= TARGET_PEAK_GB),
        ("rebuild peak RSS", f"{incremental['peak_rss_gb']:.2f} GB", f"<= {TARGET_PEAK_GB} GB",
         incremental["peak_rss_gb"] <= TARGET_PEAK_GB),
        ("incremental / full", f"{figures['incremental_share']:.1%}", f"<= {TARGET_INCREMENTAL_SHARE:.0%}",
         figures["incremental_share"] <= TARGET_INCREMENTAL_SHARE),
        ("near-dup F1, text dedup", f"{text_f1:.4f}", f">= {TARGET_NEAR_F1}", text_f1 >= TARGET_NEAR_F1),
        ("near-dup F1, published papers", f"{published_f1:.4f}", f">= {TARGET_NEAR_F1}",
         published_f1 >= TARGET_NEAR_F1),
        ("dedup speed-up vs datasketch", f"{speedup:.1f}x (step)",
         f">= {TARGET_SPEEDUP:.0f}x, F1 {ours_f1:.4f} vs {base_f1:.4f}",
         speedup >= TARGET_SPEEDUP and ours_f1 >= base_f1),
    ]  # fmt: skip
    for name, value, target, met in rows:
        print(f"  {name:<30} {value:>18}   target {target:<40} {'met' if met else 'MISSED'}")


def print_growth(figures: dict, earlier: dict) -> None:
    """Time per document and peak memory against an earlier run's (3M against 1M, say); the floor's
    time per record beside it says how much of a change is the machine's."""

    def per_document(run: dict, part: str) -> float:
        return run[part]["seconds"] / (run["documents"] if part == "full" else run["floor"]["records"])

    now, then = per_document(figures, "full"), per_document(earlier, "full")
    floor_now, floor_then = per_document(figures, "floor"), per_document(earlier, "floor")
    print(
        f"\nagainst {earlier['documents']:,} documents ({earlier.get('format', 'text')}): full build "
        f"{now * 1e6:.0f} us per document against {then * 1e6:.0f} us ({now / then:.2f}x; 1.00x is linear "
        f"growth); the floor {floor_now * 1e6:.1f} us per record against {floor_then * 1e6:.1f} us "
        f"({floor_now / floor_then:.2f}x); peak RSS {figures['full']['peak_rss_gb']:.2f} GB against "
        f"{earlier['full']['peak_rss_gb']:.2f} GB"
    )


if __name__ == "__main__":
    sys.exit(main())
