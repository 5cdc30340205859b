"""Time the parts of a rebuild that pass over every document, on a built warehouse's staging, so
that two versions of the code can be compared side by side on the same tables (run it with
PYTHONPATH at each version). The figures in benchmarks/README.md's "1,000,000 arXiv records"
section come from these commands, on the staging of the first 1M arXiv run (kept by hard links).

    profile_rebuild_parts.py checks WAREHOUSE             each table validated as a check step does
    profile_rebuild_parts.py matches WAREHOUSE OUT.parquet  match_documents on the file's signatures
    profile_rebuild_parts.py same A.parquet B.parquet      whether two match_documents outputs agree
    profile_rebuild_parts.py fusion WAREHOUSE OUT.parquet  fused_fields from the matches OUT wrote
    profile_rebuild_parts.py sign DOCUMENTS OUT_DIR [--slice N | --whole]
                                                           sign and key one file's texts; peak RSS
    profile_rebuild_parts.py owned FILE_DIR [--whole]     a file's owned texts read slice by slice as
                                                           the map reads them (all its texts owned),
                                                           or held whole as the map held them before;
                                                           peak RSS
    profile_rebuild_parts.py dedup-step WAREHOUSE OUT_DIR  the deduplicate_documents step's calls, its
                                                           outputs written as its IO manager does;
                                                           seconds and peak RSS after each part
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import dagster as dg
import polars as pl

from pipeline.lib.staging import Staging


def _peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6


def _rss_gb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * resource.getpagesize() / 1e9


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def checks(warehouse: Path) -> None:
    from pipeline.defs.checks import _related
    from pipeline.defs.resources import staged_path
    from pipeline.lib.publish import content_digest
    from pipeline.lib.schema import TABLES
    from pipeline.lib.validate import load_passed_rows, validate_table

    total = 0.0
    for name, table in TABLES.items():
        started = time.perf_counter()
        files = {n: staged_path(warehouse, dg.AssetKey(n)) for n in [name, *_related(table)]}
        references = {
            n: pl.read_parquet(
                files[n],
                columns=sorted({k.ref_column for k in table.foreign_keys if k.table == n}),
                glob=False,
            )
            for n in _related(table)
        }
        passed = load_passed_rows(Staging(warehouse).passed_rows(name), table)
        validation = validate_table(table, files[name], references, passed_rows=passed)
        for path in files.values():
            content_digest(path)
        seconds = time.perf_counter() - started
        total += seconds
        print(f"{name:16s} {seconds:6.2f} s  rows {validation.n_rows:,}  reused {validation.reused_rows:,}")
    print(f"every table {total:.1f} s")


def _occurrences(warehouse: Path):
    from pipeline.lib.assemble import MATCH_KEYS, file_signatures, texts_by_row

    staging = Staging(warehouse)
    raw = pl.scan_parquet(staging.frame("raw_documents"), glob=False)
    occurrences = raw.select(MATCH_KEYS).collect()
    texts_of = texts_by_row(raw)
    staged = {
        directory.name: directory / "signatures.parquet"
        for directory in staging.partitions("seed_file").iterdir()
        if (directory / "signatures.parquet").is_file()
    }
    signatures, _ = file_signatures(occurrences, staged, texts_of)
    return raw, occurrences, signatures, texts_of


def matches(warehouse: Path, out: Path) -> None:
    from pipeline.lib.assemble import match_documents

    _, occurrences, signatures, texts_of = _occurrences(warehouse)
    started = time.perf_counter()
    found = match_documents(occurrences, signatures, texts_of)
    print(f"match_documents {time.perf_counter() - started:.1f} s, {found.height:,} documents")
    found.write_parquet(out)


def fusion(warehouse: Path, matched: Path) -> None:
    from pipeline.lib.assemble import fused_fields

    staging = Staging(warehouse)
    raw = pl.scan_parquet(staging.frame("raw_documents"), glob=False)
    rejects = pl.scan_parquet(staging.frame("rejects"), glob=False)
    started = time.perf_counter()
    fused, conflicts = fused_fields(raw, pl.read_parquet(matched), rejects)
    seconds = time.perf_counter() - started
    print(f"fused_fields {seconds:.1f} s, {fused.height:,} papers, {conflicts.height:,} conflicts")


def sign(documents: Path, out: Path, whole: bool, slice_rows: int | None) -> None:
    from pipeline.lib.dedup import sign_texts
    from pipeline.lib.extract import text_keys

    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    if whole:  # as the map did before it signed in slices
        texts = pl.read_parquet(documents, columns=["document_id", "ordinal", "abstract_clean"], glob=False)
        texts = texts.sort("ordinal", maintain_order=True)
        sign_texts(texts["abstract_clean"]).write(out / "signatures.parquet")
        keys = texts.select("document_id", text_keys(texts["abstract_clean"]))
        keys.write_parquet(out / "text_keys.parquet", compression="lz4")
    else:
        from pipeline.lib import filemap

        filemap.SIGN_SLICE_ROWS = slice_rows or filemap.SIGN_SLICE_ROWS
        filemap._sign_in_slices(documents, out / "signatures.parquet", out / "text_keys.parquet")
    print(f"signed in {time.perf_counter() - started:.1f} s, peak RSS {_peak_gb():.2f} GB")


def dedup_step(warehouse: Path, out: Path) -> None:
    """The calls deduplicate_documents makes (`deduplicate_occurrences`), on the staged signatures of
    every file (a build's step reads only the current ones), and each output's metadata then its file."""
    from pipeline.defs.metadata import frame_metadata
    from pipeline.defs.resources import _write_atomically
    from pipeline.lib.assemble import deduplicate_occurrences

    staging = Staging(warehouse)
    started = last = time.perf_counter()

    def mark(part: str) -> None:
        nonlocal last
        now = time.perf_counter()
        memory = f"RSS {_rss_gb():.2f} GB, peak {_peak_gb():.2f} GB"
        print(f"{part:26s} {now - last:6.1f} s  CPU {_cpu_s():6.1f} s  {memory}", flush=True)
        last = now

    staged = {
        directory.name: directory / "signatures.parquet"
        for directory in staging.partitions("seed_file").iterdir()
        if (directory / "signatures.parquet").is_file()
    }
    found = deduplicate_occurrences(
        pl.scan_parquet(staging.frame("raw_documents"), glob=False),
        pl.scan_parquet(staging.frame("rejects"), glob=False),
        staged,
        {name: path.with_name("text_keys.parquet") for name, path in staged.items()},
        mark,
    )
    for name, frame, table in (
        ("documents", found.documents, "documents"),
        ("canonical_papers", found.papers, "papers"),
        ("paper_conflicts", found.conflicts, "paper_conflicts"),
    ):
        frame_metadata(frame, table, **(found.merged if name == "documents" else {}))
        mark(f"{name} metadata")
        _write_atomically(frame, out / f"{name}.parquet")
        mark(f"{name} write")
    print(f"step {time.perf_counter() - started:.1f} s, CPU {_cpu_s():.1f} s, peak RSS {_peak_gb():.2f} GB")


def owned(directory: Path, whole: bool) -> None:
    from pipeline.lib.extract import TEXT_KEY
    from pipeline.lib.filemap import claim_texts, owned_text_slices

    started = time.perf_counter()
    keys = directory / "text_keys.parquet"
    (owned_keys,) = claim_texts([("file", keys)], pl.DataFrame(schema={TEXT_KEY: pl.String})).values()
    slices = owned_text_slices(directory / "documents.parquet", keys, owned_keys)
    # --whole: every owned text at once, as the map held them before it read them in slices.
    n_texts = pl.concat(list(slices)).height if whole else sum(texts.height for texts in slices)
    seconds = time.perf_counter() - started
    print(f"{n_texts:,} owned texts in {seconds:.1f} s, peak RSS {_peak_gb():.2f} GB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parts = ["checks", "matches", "same", "fusion", "sign", "owned", "dedup-step"]
    parser.add_argument("part", choices=parts)
    parser.add_argument("paths", type=Path, nargs="+")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--slice", type=int, help="sign: texts per slice (default: the map's)")
    how.add_argument("--whole", action="store_true", help="sign, owned: every text at once")
    args = parser.parse_args()
    if args.part == "checks":
        checks(args.paths[0])
    elif args.part == "matches":
        matches(*args.paths[:2])
    elif args.part == "same":
        left, right = (pl.read_parquet(path) for path in args.paths[:2])
        print("identical" if left.equals(right) else "different")
    elif args.part == "fusion":
        fusion(*args.paths[:2])
    elif args.part == "owned":
        owned(args.paths[0], args.whole)
    elif args.part == "dedup-step":
        dedup_step(*args.paths[:2])
    else:
        sign(args.paths[0], args.paths[1], args.whole, args.slice)
    return 0


if __name__ == "__main__":
    sys.exit(main())
