"""CSV, TSV and Parquet files, streamed in batches by pyarrow.

The delimiter is sniffed from the first rows (comma, tab, semicolon or bar) and the header row is
recognised by its column names. A ragged row (more or fewer fields than the header) is one reject
naming its row, and the rest of the file is read. A file with no header row has its columns'
meaning inferred from their content (`infer_columns`); a mapping in `sources.toml` overrides it.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Mapping
from typing import BinaryIO

import pyarrow as pa
import pyarrow.csv as pacsv

from pipeline.lib.parquet_files import open_parquet
from pipeline.lib.readers import fields as f
from pipeline.lib.readers.records import RecordSink
from pipeline.lib.readers.shapes import field_of_column, to_record

Batch = tuple[list[dict], list[dict]]
BATCH_ROWS = 20_000
_DELIMITERS = ",\t;|"
_URL = re.compile(r"^https?://")


def sniff_dialect(sample: str, extension_delimiter: str | None) -> str:
    """The delimiter that splits the first rows most consistently into more than one field (each
    candidate's rows read by the csv module); on a tie, the one the file's extension says."""
    lines = sample.splitlines(keepends=True)
    if len(lines) > 1:
        lines = lines[:-1]  # the last line of a sample is usually cut short
    text = "".join(lines[:200])

    def score(delimiter: str) -> tuple[float, int, bool]:
        try:
            widths = [len(row) for row in csv.reader(io.StringIO(text), delimiter=delimiter) if row]
        except csv.Error:
            return (0.0, 0, False)
        if not widths:
            return (0.0, 0, False)
        modal = max(set(widths), key=widths.count)
        consistent = widths.count(modal) / len(widths) if modal > 1 else 0.0
        return (consistent, modal, delimiter == extension_delimiter)

    return max(_DELIMITERS, key=score) if text else extension_delimiter or ","


def first_rows(sample: str, delimiter: str, limit: int = 50) -> list[list[str]]:
    lines = sample.splitlines(keepends=True)
    if len(lines) > 1:
        lines = lines[:-1]
    rows = []
    try:
        for row in csv.reader(io.StringIO("".join(lines)), delimiter=delimiter):
            rows.append(row)
            if len(rows) >= limit:
                break
    except csv.Error:
        pass
    return rows


def has_header(rows: list[list[str]]) -> bool:
    """A first row of short cells that name known fields is a header; one holding a long text is not."""
    if not rows:
        return False
    first = rows[0]
    if any(len(cell.split()) > 12 or _URL.match(cell) for cell in first):
        return False
    named = [field_of_column(cell) for cell in first]
    return sum(1 for n in named if n) >= 2 or "abstract" in named


def infer_columns(rows: list[list[str]]) -> dict[str, str]:
    """field -> column name ('f0', 'f1' ...) for a file without a header, from what the cells hold.

    The abstract is the column with the most words (20 or more on average); the title is the first
    column before it of 2 to 30 words that is not a list; links give the url and the ids they hold;
    the first column of ';'-separated items is the authors, the next the keywords; a short column
    naming a venue and a year ('CoRL 2024') is the venue.
    """
    if not rows:
        return {}
    width = max(len(r) for r in rows)
    columns = [[r[i] if i < len(r) else "" for r in rows] for i in range(width)]

    def mean_words(cells):
        return sum(len(c.split()) for c in cells) / max(len(cells), 1)

    def share(cells, test):
        filled = [c for c in cells if c.strip()]
        return sum(1 for c in filled if test(c)) / len(filled) if filled else 0.0

    mapping: dict[str, str] = {}
    words = [mean_words(c) for c in columns]
    abstract = max(range(width), key=lambda i: words[i])
    if words[abstract] < 20:
        return {}
    mapping["abstract"] = f"f{abstract}"
    lists = [i for i in range(width) if i != abstract and share(columns[i], lambda c: ";" in c) > 0.5]
    if lists:
        mapping["authors"] = f"f{lists[0]}"
    if len(lists) > 1:
        mapping["keywords"] = f"f{lists[1]}"
    for i in range(width):
        if _URL.match(columns[i][0] or "") and share(columns[i], _URL.match) > 0.9:
            mapping.setdefault("url", f"f{i}")
        elif (
            i not in lists
            and i != abstract
            and share(columns[i], lambda c: f.year(c) and len(c.split()) <= 6) > 0.9
        ):
            mapping.setdefault("venue", f"f{i}")
    for i in range(abstract):
        if i not in lists and f"f{i}" not in mapping.values() and 2 <= words[i] <= 30:
            mapping["title"] = f"f{i}"
            break
    return mapping


class _CsvRows:
    """Numbers the rows pyarrow returns and handles the ones it cannot place.

    A row with fewer fields than the header is read with its missing trailing fields empty (and
    the repair recorded): its abstract is there. A row with more fields is a reject naming its row.
    """

    def __init__(self, sink: RecordSink, names: list[str], delimiter: str, header: bool, mapping):
        self.sink = sink
        self.names = names
        self.delimiter = delimiter
        self.offset = 1 if header else 0  # pyarrow counts the header row
        self.mapping = mapping
        self.placed: list[int] = []  # rows handled here, which pyarrow's batches leave out
        self.next_row = 1
        self.padded = 0

    def add(self, values: dict, number: int) -> None:
        record, shape = to_record(values, self.mapping)
        record.line_start = record.line_end = number
        record.locator = f"row {number}"
        self.sink.add(record, shape if shape != "table" else None, ordinal=number)

    def on_invalid(self, row) -> str:
        number = row.number - self.offset if row.number is not None else self.next_row
        self.placed.append(number)
        if row.actual_columns < row.expected_columns:
            cells = next(csv.reader(io.StringIO(row.text), delimiter=self.delimiter), [])
            if len(cells) == row.actual_columns:
                self.padded += 1
                self.add(
                    dict(zip(self.names, cells + [""] * (len(self.names) - len(cells)), strict=True)), number
                )
                return "skip"
        self.sink.reject(
            number,
            number,
            f"row {number} has {row.actual_columns} fields where the file has {row.expected_columns}",
            row.text,
        )
        return "skip"

    def take(self) -> int:
        while self.placed and self.placed[0] <= self.next_row:
            if self.placed.pop(0) == self.next_row:
                self.next_row += 1
        number = self.next_row
        self.next_row += 1
        return number


def read_csv(
    stream: BinaryIO,
    sink: RecordSink,
    delimiter: str,
    header: bool,
    column_names: list[str],
    mapping: Mapping[str, str] | None,
) -> Iterator[Batch]:
    names = [name or f"column{i + 1}" for i, name in enumerate(column_names)]
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name}_{seen[name]}")
    rows = _CsvRows(sink, unique, delimiter, header, mapping)
    reader = pacsv.open_csv(
        stream,
        read_options=pacsv.ReadOptions(
            column_names=unique, skip_rows=1 if header else 0, use_threads=False, block_size=1 << 22
        ),
        parse_options=pacsv.ParseOptions(
            delimiter=delimiter, newlines_in_values=True, invalid_row_handler=rows.on_invalid
        ),
        convert_options=pacsv.ConvertOptions(
            column_types={name: pa.large_string() for name in unique}, strings_can_be_null=False
        ),
    )
    for batch in reader:
        for values in batch.to_pylist():
            rows.add(values, rows.take())
        sink.documents.sort(key=lambda d: d["ordinal"])  # rows placed by the handler come first
        yield sink.take()
    if rows.padded:
        sink.notes.append(
            f"{rows.padded} rows had fewer fields than the header; their missing trailing fields "
            "were read as empty"
        )
    yield sink.take()


def read_parquet(stream: BinaryIO, sink: RecordSink, mapping: Mapping[str, str] | None) -> Iterator[Batch]:
    number = 0
    for batch in open_parquet(stream).iter_batches(batch_size=BATCH_ROWS):
        for row in batch.to_pylist():
            number += 1
            record, shape = to_record(row, mapping)
            record.line_start = record.line_end = number
            record.locator = f"row {number}"
            sink.add(record, shape if shape != "table" else None)
        yield sink.take()
    yield sink.take()
