"""Benchmark `pipeline.lib.dedup.deduplicate` against datasketch's MinHashLSH on a generated corpus.

    python benchmarks/dedup_benchmark.py --n 100000
    python benchmarks/dedup_benchmark.py --n 1000000 --baseline-sample 100000
    python benchmarks/dedup_benchmark.py --real /work/shared/corpus/seed-format
    python benchmarks/dedup_benchmark.py --n 100000 --calibrate

Generates the corpus with generate_corpus.py (or reads one given with --corpus), cleans every
abstract with pipeline.lib.clean.clean_abstract, then runs our deduplicate and, on the same
cleaned texts, datasketch's MinHash + MinHashLSH with the same word shingles, number of
permutations and LSH bands, followed by the same exact verification and the same assignment
rule. Prints wall time, documents per second, peak extra memory, and pairwise precision, recall
and F1 against the injected ground truth, for near duplicates and for all duplicates.

--real runs our deduplicate on real seed files and prints its merges with sample near pairs;
--calibrate prints, for several shingle sizes, the true Jaccard of the injected near duplicates
and of pairs of different abstracts that share a sentence (the numbers behind the defaults).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import random
import re
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import polars as pl
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import generate_corpus

from pipeline.lib import dedup

_BLANK_LINES = re.compile(r"\n[ \t\r\f\v\u00a0\u200b\ufeff]*\n\s*")


# --- loading ---------------------------------------------------------------------------------------


def load_documents(directory: Path) -> pl.DataFrame:
    """Every paragraph after the header of every .txt file of a text corpus (in its inputs/ when it
    has one): document_id ('<file>:<ordinal>'), text, in canonical order (file name, then ordinal)."""
    if (directory / generate_corpus.INPUTS).is_dir():
        directory = directory / generate_corpus.INPUTS
    ids, texts = [], []
    for path in sorted(directory.glob("*.txt")):
        body = path.read_text(encoding="utf-8").split("\n", 1)
        paragraphs = [p for p in _BLANK_LINES.split(body[1] if len(body) > 1 else "") if p.strip()]
        ids.extend(f"{path.name}:{ordinal}" for ordinal in range(1, len(paragraphs) + 1))
        texts.extend(paragraphs)
    return pl.DataFrame({"document_id": ids, "text": texts})


def clean_texts(texts: list[str]) -> tuple[list[str], str]:
    try:
        from pipeline.lib.clean import clean_abstract
    except ImportError:
        return [" ".join(t.split()) for t in texts], "raw text (pipeline.lib.clean not found)"
    return [clean_abstract(t) for t in texts], "pipeline.lib.clean.clean_abstract"


def read_ground_truth(directory: Path) -> pl.DataFrame:
    with (directory / "ground_truth.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return pl.DataFrame(rows, schema={"document_id": pl.String, "original_id": pl.String, "kind": pl.String})


# --- measuring -------------------------------------------------------------------------------------


class PeakMemory:
    """Peak resident memory above the level at start, sampled every 10 ms in a thread."""

    def __init__(self) -> None:
        self.process = psutil.Process()
        self.start = self.process.memory_info().rss
        self.peak = self.start
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, self.process.memory_info().rss)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.process.memory_info().rss)

    @property
    def extra_mb(self) -> float:
        return (self.peak - self.start) / 2**20


def timed(function: Callable[[], object]) -> tuple[object, float, float]:
    """(result, seconds, peak extra MiB)."""
    with PeakMemory() as memory:
        start = time.perf_counter()
        result = function()
        seconds = time.perf_counter() - start
    return result, seconds, memory.extra_mb


def pair_scores(truth_cluster: pl.Series, predicted_cluster: pl.Series) -> dict[str, float]:
    """Pairwise precision, recall and F1 of a predicted clustering against the true one."""
    frame = pl.DataFrame({"truth": truth_cluster, "predicted": predicted_cluster})

    def pairs(*columns: str) -> int:
        sizes = frame.group_by(columns).len()["len"]
        return int((sizes * (sizes - 1) // 2).sum())

    true_pairs, predicted_pairs, agreed = pairs("truth"), pairs("predicted"), pairs("truth", "predicted")
    precision = agreed / predicted_pairs if predicted_pairs else 1.0
    recall = agreed / true_pairs if true_pairs else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "true_pairs": true_pairs,
        "found_pairs": predicted_pairs,
    }


def evaluate(documents: pl.DataFrame, predicted: pl.Series, truth: pl.DataFrame) -> dict[str, dict]:
    """Scores for all duplicates, for near duplicates only (exact and format copies left out), and
    recall by kind of injected copy."""
    frame = (
        documents.select("document_id")
        .with_columns(predicted=predicted)
        .join(truth, on="document_id", how="left")
    )
    frame = frame.with_columns(truth=pl.coalesce("original_id", "document_id"))
    near_only = frame.filter(~pl.col("kind").is_in(generate_corpus.EXACT_KINDS) | pl.col("kind").is_null())
    original_prediction = frame.select(
        pl.col("document_id").alias("original_id"), pl.col("predicted").alias("p0")
    )
    copies = frame.filter(pl.col("kind").is_not_null()).join(original_prediction, on="original_id")
    by_kind = copies.group_by("kind").agg(
        recall=(pl.col("predicted") == pl.col("p0")).mean(), copies=pl.len()
    )
    return {
        "all": pair_scores(frame["truth"], frame["predicted"]),
        "near": pair_scores(near_only["truth"], near_only["predicted"]),
        "by_kind": {
            row["kind"]: (row["recall"], row["copies"]) for row in by_kind.sort("kind").iter_rows(named=True)
        },
    }


# --- the datasketch baseline -----------------------------------------------------------------------


def datasketch_deduplicate(
    texts: list[str], *, threshold: float, num_perm: int, shingle_size: int
) -> tuple[list[int], dict[str, float]]:
    """The same job done with datasketch: exact groups by normalised text, MinHash + MinHashLSH over
    the distinct texts with our word shingles and bands, exact Jaccard verification of each
    candidate, each text joined to its most similar earlier canonical text. Returns each text's
    canonical index and the seconds spent per stage."""
    from datasketch import MinHash, MinHashLSH

    seconds: dict[str, float] = {}
    start = time.perf_counter()
    normalised = [dedup.normalise_for_hash(text) for text in texts]
    first_of: dict[str, int] = {}
    representative = [first_of.setdefault(text, i) for i, text in enumerate(normalised)]
    reps = [i for i, r in enumerate(representative) if r == i]
    shingle_sets = []
    for index in reps:
        words = normalised[index].split(" ")
        count = max(1, len(words) - shingle_size + 1)
        shingle_sets.append({" ".join(words[i : i + shingle_size]).encode() for i in range(count)})
    seconds["normalise + shingle"] = time.perf_counter() - start

    start = time.perf_counter()
    signatures = list(MinHash.bulk([list(s) for s in shingle_sets], num_perm=num_perm))
    seconds["MinHash"] = time.perf_counter() - start

    start = time.perf_counter()
    bands = num_perm // dedup.BAND_ROWS
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm, params=(bands, dedup.BAND_ROWS))
    with lsh.insertion_session() as session:
        for position, signature in enumerate(signatures):
            session.insert(position, signature, check_duplication=False)
    candidates = sorted(
        (earlier, later)
        for later, signature in enumerate(signatures)
        for earlier in lsh.query(signature)
        if earlier < later
    )
    seconds["MinHashLSH index + query"] = time.perf_counter() - start

    start = time.perf_counter()
    verified = []
    for earlier, later in candidates:
        a, b = shingle_sets[earlier], shingle_sets[later]
        similarity = len(a & b) / len(a | b)
        if similarity >= threshold:
            verified.append((later, -similarity, earlier))
    canonical = list(range(len(reps)))
    for later, _, earlier in sorted(verified):
        if canonical[later] == later and canonical[earlier] == earlier:
            canonical[later] = earlier
    seconds["verify + assign"] = time.perf_counter() - start
    rep_position = {index: position for position, index in enumerate(reps)}
    return [reps[canonical[rep_position[r]]] for r in representative], seconds


# --- modes -----------------------------------------------------------------------------------------


def print_scores(label: str, scores: dict[str, dict]) -> None:
    for part in ("near", "all"):
        s = scores[part]
        print(
            f"  {label:<11} {part:<4} duplicates: precision {s['precision']:.4f}  recall {s['recall']:.4f}  "
            f"F1 {s['f1']:.4f}  ({s['found_pairs']:,} pairs found, {s['true_pairs']:,} true)"
        )
    kinds = ", ".join(f"{kind} {recall:.3f}" for kind, (recall, _) in scores["by_kind"].items())
    print(f"  {label:<11} recall by kind: {kinds}")


def run_benchmark(corpus: Path, args: argparse.Namespace) -> None:
    documents = load_documents(corpus)
    truth = read_ground_truth(corpus)
    start = time.perf_counter()
    cleaned, how = clean_texts(documents["text"].to_list())
    seconds = time.perf_counter() - start
    print(f"{documents.height:,} documents from {corpus}; cleaned with {how} in {seconds:.1f} s")
    print(
        f"machine: {psutil.cpu_count()} CPUs; threshold {args.threshold}, shingle size {args.shingle_size}, "
        f"num_perm {args.num_perm}, bands {args.num_perm // dedup.BAND_ROWS} x {dedup.BAND_ROWS} rows"
    )
    frame = pl.DataFrame({"document_id": documents["document_id"], "clean_text": cleaned})
    del cleaned
    params = {"threshold": args.threshold, "num_perm": args.num_perm, "shingle_size": args.shingle_size}
    dedup.deduplicate(frame.head(1000), **params)  # warm-up: lazily built Unicode tables
    result, ours_seconds, ours_mb = timed(lambda: dedup.deduplicate(frame, **params))
    print(
        f"\nours: {ours_seconds:.2f} s, {documents.height / ours_seconds:,.0f} docs/s, "
        f"peak extra memory {ours_mb:,.0f} MiB; {dedup.summarise(result)}"
    )
    ours_scores = evaluate(documents, result["paper_id"], truth)
    print_scores("ours", ours_scores)
    if args.baseline_sample == 0:
        return

    sample = min(args.baseline_sample or documents.height, documents.height)
    texts = frame["clean_text"].head(sample).to_list()
    (canonical, stage_seconds), base_seconds, base_mb = timed(lambda: datasketch_deduplicate(texts, **params))
    scale = documents.height / sample
    print(
        f"\ndatasketch on {sample:,} documents: {base_seconds:.2f} s, {sample / base_seconds:,.0f} docs/s, "
        f"peak extra memory {base_mb:,.0f} MiB"
    )
    print("  stages: " + ", ".join(f"{name} {value:.1f} s" for name, value in stage_seconds.items()))
    sampled = documents.head(sample)
    # Scored on the sampled documents only; a copy keeps its true cluster (its original) even when
    # the original itself falls outside the sample.
    base_scores = evaluate(sampled, pl.Series(canonical).cast(pl.String), truth)
    print_scores("datasketch", base_scores)
    if sample < documents.height:
        print_scores("ours (same", evaluate(sampled, result["paper_id"].head(sample), truth))
        print(f"  (ours scored on the same {sample:,} documents, for comparison)")
    estimated = base_seconds * scale
    sketch_only = (stage_seconds["MinHash"] + stage_seconds["MinHashLSH index + query"]) * scale
    note = f" (extrapolated linearly from {sample:,} documents)" if sample < documents.height else ""
    print(
        f"\ntime ratio datasketch / ours: {estimated / ours_seconds:.1f}x for the whole job{note}; "
        f"{sketch_only / ours_seconds:.1f}x counting only datasketch's MinHash + LSH stages"
    )


def run_real(directory: Path, args: argparse.Namespace) -> None:
    documents = load_documents(directory)
    cleaned, how = clean_texts(documents["text"].to_list())
    frame = pl.DataFrame({"document_id": documents["document_id"], "clean_text": cleaned})
    params = {"threshold": args.threshold, "num_perm": args.num_perm, "shingle_size": args.shingle_size}
    result, seconds, _ = timed(lambda: dedup.deduplicate(frame, **params))
    print(f"{documents.height:,} real documents from {directory} ({how}); deduplicated in {seconds:.2f} s")
    print(dedup.summarise(result))
    merged = result.filter(pl.col("match") != "first").with_columns(
        pair=pl.col("document_id").str.extract(r"^([a-z0-9]+)_")
        + " -> "
        + pl.col("canonical_document_id").str.extract(r"^([a-z0-9]+)_")
    )
    print("merges by source prefix (duplicate -> canonical):")
    for row in (
        merged.group_by("match", "pair").len().sort("match", "len", descending=[False, True]).iter_rows()
    ):
        print(f"  {row[0]:<5} {row[1]:<28} {row[2]:>6}")
    text_of = dict(zip(frame["document_id"], frame["clean_text"], strict=True))
    near = merged.filter(pl.col("match") == "near").sort("similarity")
    rng = random.Random(args.seed)
    shown = near.rows(named=True)
    shown = sorted(rng.sample(shown, min(args.show, len(shown))), key=lambda row: row["similarity"])
    print(
        f"\n{len(shown)} of {near.height} near merges (lowest similarity first), with their first difference:"
    )
    for row in shown:
        a, b = text_of[row["canonical_document_id"]], text_of[row["document_id"]]
        print(f"  {row['similarity']:.3f}  {row['document_id']}  ->  {row['canonical_document_id']}")
        print(f"         {first_difference(a, b)}")
    title_pairs(directory, result)


def first_difference(a: str, b: str, width: int = 60) -> str:
    words_a, words_b = a.split(), b.split()
    index = next(
        (i for i, (x, y) in enumerate(zip(words_a, words_b, strict=False)) if x != y),
        min(len(words_a), len(words_b)),
    )
    left = " ".join(words_a[max(0, index - 3) : index + 8])[:width]
    right = " ".join(words_b[max(0, index - 3) : index + 8])[:width]
    return f"{len(words_a)} vs {len(words_b)} words; at word {index}: «{left}» vs «{right}»"


def title_pairs(directory: Path, result: pl.DataFrame) -> None:
    """With abstracts.jsonl.gz beside the seed files: occurrences in different sources with the same
    title and year are the same paper; how many did deduplicate put together?"""
    records_path = directory.parent / "abstracts.jsonl.gz"
    if not records_path.exists():
        return
    counters: dict[str, int] = defaultdict(int)
    document_ids, keys = [], []
    with gzip.open(records_path, "rt", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            counters[record["corpus_file"]] += 1
            document_ids.append(f"{record['corpus_file']}:{counters[record['corpus_file']]}")
            keys.append(f"{dedup.normalise_for_hash(record['title'] or '')}|{record['year']}")
    frame = (
        pl.DataFrame({"document_id": document_ids, "key": keys})
        .join(result.select("document_id", "paper_id", "match"), on="document_id")
        .with_columns(source=pl.col("document_id").str.extract(r"^([a-z0-9]+)_"))
    )
    cross = frame.filter(pl.col("source").n_unique().over("key") > 1, pl.col("key").len().over("key") == 2)
    together = cross.group_by("key").agg(
        same=pl.col("paper_id").n_unique() == 1, how=pl.col("match").sort().str.join("+")
    )
    print(
        f"\nsame title and year in two different sources: {together.height} pairs, "
        f"{together['same'].sum()} put in one paper; by how: "
        + ", ".join(f"{h} {n}" for h, n in together.filter("same").group_by("how").len().iter_rows())
    )


def run_calibration(corpus: Path, args: argparse.Namespace) -> None:
    """True Jaccard of injected near duplicates (by kind) and of different abstracts sharing a
    sentence, for shingle sizes 1 to 5, on a generated corpus."""
    documents = load_documents(corpus)
    cleaned, _ = clean_texts(documents["text"].to_list())
    text_of = dict(zip(documents["document_id"], cleaned, strict=True))
    truth = read_ground_truth(corpus)
    rng = random.Random(args.seed)
    near = [row for row in truth.iter_rows(named=True) if row["kind"] in generate_corpus.NEAR_KINDS]
    near = rng.sample(near, min(3000, len(near)))
    copies = set(truth["document_id"])
    by_sentence: dict[str, list[str]] = defaultdict(list)
    for document_id, text in documents.filter(~pl.col("document_id").is_in(list(copies))).iter_rows():
        for sentence in generate_corpus.sentences_of(text):
            if len(sentence) > 30:
                by_sentence[sentence].append(document_id)
    sharing = sorted(
        {
            (ids[i], ids[j])
            for ids in by_sentence.values()
            if len(ids) < 50
            for i in range(len(ids))
            for j in range(i + 1, len(ids))
        }
    )
    sharing = rng.sample(sharing, min(20000, len(sharing)))
    print(f"{len(near)} near copies, {len(sharing)} pairs of different abstracts sharing a sentence")

    def quantiles(values: list[float], points: tuple[float, ...]) -> str:
        ordered = sorted(values)
        return " ".join(f"{ordered[min(len(ordered) - 1, int(p * len(ordered)))]:.3f}" for p in points)

    for size in (1, 2, 3, 4, 5):

        def shingles(text: str, size: int = size) -> set[tuple[str, ...]]:
            words = dedup.normalise_for_hash(text).split(" ")
            return {tuple(words[i : i + size]) for i in range(max(1, len(words) - size + 1))}

        def jaccard(a: str, b: str) -> float:
            x, y = shingles(text_of[a]), shingles(text_of[b])
            return len(x & y) / len(x | y)

        per_kind: dict[str, list[float]] = defaultdict(list)
        for row in near:
            per_kind[row["kind"]].append(jaccard(row["document_id"], row["original_id"]))
        shared = [jaccard(a, b) for a, b in sharing]
        print(
            f"shingle size {size}: near copies J at 1%/5%/50%: "
            + "; ".join(f"{kind} {quantiles(v, (0.01, 0.05, 0.5))}" for kind, v in sorted(per_kind.items()))
        )
        print(f"   sharing a sentence J at 50%/99%/99.9%/max: {quantiles(shared, (0.5, 0.99, 0.999, 1.0))}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="documents to generate (default 100,000)")
    parser.add_argument("--corpus", type=Path, help="an already generated corpus directory")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--baseline-sample",
        type=int,
        default=None,
        help="run datasketch on the first N documents only and extrapolate; 0 skips it",
    )
    parser.add_argument("--threshold", type=float, default=dedup.THRESHOLD)
    parser.add_argument("--num-perm", type=int, default=dedup.NUM_PERM)
    parser.add_argument("--shingle-size", type=int, default=dedup.SHINGLE_SIZE)
    parser.add_argument("--real", type=Path, help="deduplicate these real seed files instead")
    parser.add_argument("--show", type=int, default=12, help="near pairs to show with --real")
    parser.add_argument("--calibrate", action="store_true", help="print the similarity measurements")
    args = parser.parse_args(argv)
    if args.real:
        run_real(args.real, args)
        return 0
    if args.corpus:
        (run_calibration if args.calibrate else run_benchmark)(args.corpus, args)
        return 0
    with tempfile.TemporaryDirectory(prefix="dedup-bench-") as directory:
        start = time.perf_counter()
        generate_corpus.main(["--n", str(args.n), "--out", directory, "--seed", str(args.seed)])
        print(f"generated in {time.perf_counter() - start:.1f} s (deleted afterwards; --corpus keeps one)")
        (run_calibration if args.calibrate else run_benchmark)(Path(directory), args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
