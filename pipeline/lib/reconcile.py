"""Prove that nothing was lost: every entry of the input directory has its input_files row; every
non-blank line of a text file is its header, in one document or in one reject; every record of
any other file is one document or one reject.

Text files and JSON Lines files are read again from disk, independently of the parse results: each
non-blank text line is counted against the line ranges the tables claim for it, and the non-blank
lines of a JSON Lines file against its records. For the other formats, the documents and rejects
of each file are counted against the records its reader found.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import polars as pl

from pipeline.lib.parse import BLANK_LINE, LINE_BREAK, MAX_TEXT_BYTES, decode_bytes, seed_paths
from pipeline.lib.readers.entries import inspect

PROBLEM_SCHEMA = {"source_file": pl.String, "line": pl.Int32, "problem": pl.String}


def _nonblank_lines(data: bytes) -> np.ndarray | None:
    """1-based numbers of the non-blank lines, or None when the bytes cannot be read as text."""
    decoded = decode_bytes(data)
    if decoded is None:
        return None
    lines = LINE_BREAK.split(decoded[0])
    if lines and lines[-1] == "":
        lines.pop()
    return np.array([i + 1 for i, line in enumerate(lines) if not BLANK_LINE.match(line)], dtype=np.int64)


def reconcile(
    seeds_dir: Path,
    documents: pl.DataFrame,
    rejects: pl.DataFrame,
    input_files: pl.DataFrame,
    balanced: Mapping[str, str] | None = None,
) -> tuple[pl.DataFrame, dict[str, str]]:
    """Lines not accounted for exactly once, one row per line (empty when the accounting balances),
    and each file's account key: a digest of its bytes as read now, of the line spans the tables
    claim for it and of whether a reject row claims the whole file.

    A file whose key is in `balanced` (the keys of an earlier reconciliation that balanced) has the
    same bytes and the same claims as then, so its lines are not counted again.
    """
    spans = _claimed_spans(documents, rejects, input_files)
    whole_file_rejects = set(rejects.filter(pl.col("line_start") == 0)["source_file"].to_list())
    formats = dict(input_files.select("source_file", "format").iter_rows())
    problems: list[dict] = []
    keys: dict[str, str] = {}
    by_file = {name: group for (name,), group in spans.group_by("source_file")}
    for path in seed_paths(seeds_dir):
        name = path.name
        if name not in formats:
            problems.append({"source_file": name, "line": 0, "problem": "entry has no input_files row"})
            continue
        if formats[name] is None:  # no reader took it: the whole file must be a reject
            if name not in whole_file_rejects:
                problems.append({"source_file": name, "line": 0, "problem": "unread file has no reject row"})
            continue
        if formats[name] != "text":
            continue
        file_spans = by_file.get(name, spans.clear()).sort("line_start", "line_end")
        entry = inspect(path, seeds_dir)
        data = None
        if entry.problem is None and (entry.size or 0) <= MAX_TEXT_BYTES:
            try:
                data = path.read_bytes()
            except OSError:
                data = None
        if data is not None:
            keys[name] = _account_key(data, file_spans, name in whole_file_rejects)
            if balanced is not None and balanced.get(name) == keys[name]:
                continue
        problems.extend(_file_problems(name, data, file_spans, name in whole_file_rejects))
    problems.extend(_record_problems(seeds_dir, documents, rejects, input_files, balanced, keys))
    frame = pl.DataFrame(problems, schema=PROBLEM_SCHEMA) if problems else pl.DataFrame(schema=PROBLEM_SCHEMA)
    return frame, keys


def _record_problems(
    seeds_dir: Path,
    documents: pl.DataFrame,
    rejects: pl.DataFrame,
    input_files: pl.DataFrame,
    balanced: Mapping[str, str] | None,
    keys: dict[str, str],
) -> list[dict]:
    """Files of records: documents + rejects = records, and for JSON Lines, records = non-blank lines.

    A JSON Lines file's lines are counted again only when its key (the digest of the bytes its reader
    read, and the counts) is not that of a balanced run: the same bytes have the same lines.
    """
    record_files = input_files.filter(pl.col("format").is_not_null() & (pl.col("format") != "text"))
    if record_files.is_empty():
        return []
    names = record_files["source_file"]
    taken = documents.filter(pl.col("source_file").is_in(names.implode())).group_by("source_file").len("docs")
    refused = (
        rejects.filter(pl.col("source_file").is_in(names.implode()) & (pl.col("line_start") > 0))
        .group_by("source_file")
        .len("rejected")
    )
    counts = (
        record_files.select("source_file", "format", "status", "n_records", "compression", "sha256")
        .join(taken, on="source_file", how="left")
        .join(refused, on="source_file", how="left")
        .with_columns(pl.col("docs", "rejected").fill_null(0))
    )
    problems = []
    for name, fmt, status, n_records, compression, sha256, docs, rejected in counts.iter_rows():
        if docs + rejected != n_records:
            problems.append(
                {
                    "source_file": name,
                    "line": 0,
                    "problem": f"{n_records} records but {docs} documents and {rejected} rejects",
                }
            )
        if fmt == "jsonl" and status != "read in part":
            keys[name] = f"records:{sha256}:{n_records}:{docs}:{rejected}"
            if balanced is not None and balanced.get(name) == keys[name]:
                continue
            lines = _nonblank_line_count(seeds_dir / name, compression == "gzip")
            if lines is not None and lines != n_records:
                problems.append(
                    {
                        "source_file": name,
                        "line": 0,
                        "problem": f"{lines} non-blank lines but {n_records} records",
                    }
                )
    return problems


def _nonblank_line_count(path: Path, compressed: bool) -> int | None:
    try:
        with gzip.open(path, "rb") if compressed else open(path, "rb") as stream:
            return sum(1 for line in stream if line.strip())
    except (OSError, EOFError):
        return None


def _account_key(data: bytes, file_spans: pl.DataFrame, rejected_whole: bool) -> str:
    digest = hashlib.sha256(data)
    digest.update(b"rejected whole" if rejected_whole else b"")
    digest.update(pl.__version__.encode())  # row hashes are stable within one polars version
    digest.update(file_spans.select("line_start", "line_end").hash_rows(seed=0).to_numpy().tobytes())
    return digest.hexdigest()


def _claimed_spans(documents: pl.DataFrame, rejects: pl.DataFrame, input_files: pl.DataFrame) -> pl.DataFrame:
    return pl.concat(
        [
            documents.select("source_file", "line_start", "line_end"),
            rejects.filter(pl.col("line_start") > 0).select("source_file", "line_start", "line_end"),
            input_files.filter(pl.col("header_line").is_not_null()).select(
                "source_file", line_start="header_line", line_end="header_line"
            ),
        ]
    )


def _file_problems(
    name: str, data: bytes | None, file_spans: pl.DataFrame, rejected_whole: bool
) -> list[dict]:
    expected = None if data is None else _nonblank_lines(data)
    problems: list[dict] = []
    if expected is None:
        if not rejected_whole and file_spans.height == 0:
            problems.append({"source_file": name, "line": 0, "problem": "unreadable file has no reject row"})
        return problems
    size = int(max(expected.max(initial=0), file_spans["line_end"].max() or 0)) + 2
    coverage = np.zeros(size, dtype=np.int64)
    starts = file_spans["line_start"].to_numpy()
    ends = file_spans["line_end"].to_numpy()
    np.add.at(coverage, starts, 1)
    np.add.at(coverage, ends + 1, -1)
    coverage = np.cumsum(coverage)
    for line in expected[coverage[expected] != 1]:
        count = int(coverage[line])
        problem = "not accounted for" if count == 0 else f"accounted for {count} times"
        problems.append({"source_file": name, "line": int(line), "problem": problem})
    return problems
