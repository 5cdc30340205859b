"""Prove that nothing was lost: every non-blank input line is a header, in one document or in one reject.

The input files are read again from disk, independently of the parse results, and each non-blank
line is counted against the line ranges the tables claim for it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from pipeline.lib.parse import BLANK_LINE, LINE_BREAK, decode_bytes, seed_paths

PROBLEM_SCHEMA = {"source_file": pl.String, "line": pl.Int32, "problem": pl.String}


def _nonblank_lines(path: Path) -> np.ndarray | None:
    """1-based numbers of the non-blank lines, or None when the file cannot be read as text."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    decoded = decode_bytes(data)
    if decoded is None:
        return None
    lines = LINE_BREAK.split(decoded[0])
    if lines and lines[-1] == "":
        lines.pop()
    return np.array([i + 1 for i, line in enumerate(lines) if not BLANK_LINE.match(line)], dtype=np.int64)


def reconcile(
    seeds_dir: Path, documents: pl.DataFrame, rejects: pl.DataFrame, input_files: pl.DataFrame
) -> pl.DataFrame:
    """Lines not accounted for exactly once, one row per line (empty when the accounting balances)."""
    spans = pl.concat(
        [
            documents.select("source_file", "line_start", "line_end"),
            rejects.filter(pl.col("line_start") > 0).select("source_file", "line_start", "line_end"),
            input_files.filter(pl.col("header_line").is_not_null()).select(
                "source_file", line_start="header_line", line_end="header_line"
            ),
        ]
    )
    whole_file_rejects = set(rejects.filter(pl.col("line_start") == 0)["source_file"].to_list())
    problems: list[dict] = []
    for path in seed_paths(seeds_dir):
        name = path.name
        expected = _nonblank_lines(path)
        file_spans = spans.filter(pl.col("source_file") == name)
        if expected is None:
            if name not in whole_file_rejects and file_spans.height == 0:
                problems.append(
                    {"source_file": name, "line": 0, "problem": "unreadable file has no reject row"}
                )
            continue
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
    return pl.DataFrame(problems, schema=PROBLEM_SCHEMA) if problems else pl.DataFrame(schema=PROBLEM_SCHEMA)
