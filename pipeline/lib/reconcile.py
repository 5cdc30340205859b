"""Prove that nothing was lost: every non-blank input line is a header, in one document or in one reject.

The input files are read again from disk, independently of the parse results, and each non-blank
line is counted against the line ranges the tables claim for it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import polars as pl

from pipeline.lib.parse import BLANK_LINE, LINE_BREAK, decode_bytes, seed_paths

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
    problems: list[dict] = []
    keys: dict[str, str] = {}
    by_file = {name: group for (name,), group in spans.group_by("source_file")}
    for path in seed_paths(seeds_dir):
        name = path.name
        file_spans = by_file.get(name, spans.clear()).sort("line_start", "line_end")
        try:
            data = path.read_bytes()
        except OSError:
            data = None
        if data is not None:
            keys[name] = _account_key(data, file_spans, name in whole_file_rejects)
            if balanced is not None and balanced.get(name) == keys[name]:
                continue
        problems.extend(_file_problems(name, data, file_spans, name in whole_file_rejects))
    frame = pl.DataFrame(problems, schema=PROBLEM_SCHEMA) if problems else pl.DataFrame(schema=PROBLEM_SCHEMA)
    return frame, keys


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
