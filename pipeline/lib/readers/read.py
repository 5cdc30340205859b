"""Read one input file of any supported format into batches of document rows and reject rows.

The format is chosen by the file's extension (`.gz` looked through) and confirmed by sniffing the
first bytes: a `.txt` file that holds JSON Lines is read as JSON Lines, a `.json` file that holds no
JSON is a reject. Files read whole (the text format and BibTeX) are bounded by MAX_WHOLE_BYTES; the
others are streamed. Whatever goes wrong ends as a reject with its reason, never an exception, and
what was read before a fault (a gzip stream cut short, say) is kept.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import zlib
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import ijson
import pyarrow as pa

from pipeline.lib import parse
from pipeline.lib.readers import entries
from pipeline.lib.readers import fields as f
from pipeline.lib.readers.bibtex import read_bibtex
from pipeline.lib.readers.jsonfiles import read_json, read_jsonl
from pipeline.lib.readers.mapping import MAPPING_FILE, FileMapping, MappingError, parse_mappings
from pipeline.lib.readers.records import RecordSink, SourceDefaults
from pipeline.lib.readers.tables import (
    first_rows,
    has_header,
    infer_columns,
    read_csv,
    read_parquet,
    sniff_dialect,
)

# The text format and BibTeX are parsed from the whole file; above this size a file is rejected
# instead of read into memory. The other formats are streamed, whatever their size.
MAX_WHOLE_BYTES = parse.MAX_TEXT_BYTES
SNIFF_BYTES = 256 * 2**10
EXTENSIONS = {
    ".txt": "text",
    ".text": "text",
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".jsonlines": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
}
_GZIP_MAGIC = b"\x1f\x8b"
_PARQUET_MAGIC = b"PAR1"

Batch = tuple[list[dict], list[dict]]


@dataclass
class FileReport:
    """What reading one file found: the file's row of `input_files`."""

    source_file: str
    format: str | None = None
    compression: str | None = None
    status: str = "read"
    size_bytes: int | None = None
    sha256: str = ""
    encoding: str | None = None
    n_lines: int = 0
    nonblank_lines: int = 0
    n_records: int = 0
    header_line: int | None = None
    venue: str | None = None
    year: int | None = None
    venue_source: str | None = None
    n_documents: int = 0
    n_rejects: int = 0
    repairs: list[str] = field(default_factory=list)

    def row(self) -> dict:
        return dict(self.__dict__)


class _Hashing(io.RawIOBase):
    """Passes a file's bytes through while hashing them and counting its lines."""

    def __init__(self, raw: BinaryIO):
        self.raw = raw
        self.digest = hashlib.sha256()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.raw.read(len(buffer))
        self.digest.update(data)
        buffer[: len(data)] = data
        return len(data)


def _extension(name: str) -> tuple[str, bool]:
    lower = name.lower()
    compressed = lower.endswith(".gz")
    stem = lower.removesuffix(".gz")
    dot = stem.rfind(".")
    return (stem[dot:] if dot > 0 else ""), compressed


def sniff(head: bytes) -> str | None:
    """The format the first bytes show, when they show one unmistakably."""
    if head.startswith(_PARQUET_MAGIC):
        return "parquet"
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith(b"["):
        return "json"
    if stripped.startswith(b"{"):
        first, _, rest = stripped.partition(b"\n")
        if rest.lstrip().startswith(b"{") and first.rstrip().endswith(b"}"):
            return "jsonl"
        return "json"
    text = stripped.decode("utf-8", "ignore")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("%")]
    if lines and lines[0].startswith("@") and "{" in lines[0]:
        return "bibtex"
    return None


def choose_format(name: str, head: bytes, mapping: FileMapping | None) -> tuple[str | None, str | None]:
    """(format, note): the mapping's format, else the extension's confirmed by the content, else the
    content's; the note says why the extension was overruled, or why the file cannot be read."""
    extension, _ = _extension(name)
    if mapping and mapping.format:
        return mapping.format, None
    by_name = EXTENSIONS.get(extension)
    by_content = sniff(head)
    if by_name in ("json", "jsonl") and by_content in ("json", "jsonl"):
        # One object on one line is both; only an array, or several lines of objects, says which.
        array = head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"[")
        chosen = by_content if (array or by_content == "jsonl") else by_name
        return chosen, None if chosen == by_name else f"named {extension} but holds {chosen}"
    if by_name == "parquet" and by_content != "parquet":
        return None, "named .parquet but is not a Parquet file (no PAR1 magic bytes)"
    if by_name in ("json", "jsonl") and by_content is None:
        return None, f"named {extension} but does not hold JSON (it starts {head[:40]!r})"
    if by_name in ("text", "csv", "tsv", None) and by_content in ("json", "jsonl", "parquet", "bibtex"):
        note = f"named {extension or 'without an extension'} but holds {by_content}; read as {by_content}"
        return by_content, note
    if by_name is None:
        shown = extension or "no extension"
        return (
            None,
            f"unsupported file type ({shown}); supported: {', '.join(sorted(EXTENSIONS))}, each also .gz",
        )
    return by_name, None


class InputReader:
    """Reads one input file; iterate `batches()`, then read `report`."""

    def __init__(
        self,
        path: Path,
        name: str | None = None,
        seeds_dir: Path | None = None,
        mappings: dict[str, FileMapping] | None = None,
    ):
        self.path = path
        self.name = name or path.name
        self.seeds_dir = seeds_dir or path.parent
        self.mapping = (mappings or {}).get(self.name)
        self.report = FileReport(self.name)

    @contextlib.contextmanager
    def _open(self) -> Iterator[BinaryIO]:
        """The file's content (unpacked), hashed as it is read: when the stream closes, the rest of
        the bytes are hashed too and the digest is the file's sha256, so no second pass reads it."""
        with open(self.path, "rb") as raw:
            hasher = _Hashing(raw)
            buffered = io.BufferedReader(hasher, buffer_size=1 << 20)
            try:
                if self.report.compression == "gzip":
                    with gzip.GzipFile(fileobj=buffered, mode="rb") as unpacked:
                        yield unpacked
                else:
                    yield buffered
            finally:
                while hasher.read(1 << 20):  # what a reader left unread (after its last record)
                    pass
                self.report.sha256 = hasher.digest.hexdigest()

    def _reopen(self) -> AbstractContextManager[BinaryIO]:
        raw = open(self.path, "rb")  # noqa: SIM115 - closed by the stream that wraps it
        if self.report.compression == "gzip":
            return gzip.GzipFile(fileobj=raw, mode="rb")
        return raw

    def _whole_file_row(self, reason: str) -> dict:
        """A reject that names no line: the file, or what of it could not be read."""
        self.report.n_rejects += 1
        return {"source_file": self.name, "line_start": 0, "line_end": 0, "reason": reason, "raw_text": None}

    def _file_reject(self, reason: str, status: str = "rejected") -> Batch:
        self.report.status = status
        if not self.report.sha256 and self.report.size_bytes is not None:
            self.report.sha256 = _file_sha256(self.path)  # a regular file: its bytes can be named
        return [], [self._whole_file_row(reason)]

    def batches(self) -> Iterator[Batch]:
        entry = entries.inspect(self.path, self.seeds_dir)
        self.report.size_bytes = entry.size
        if entry.problem:
            yield self._file_reject(f"entry {entry.problem}")
            return
        if self.name == MAPPING_FILE:
            yield from self._mapping_file()
            return
        if self.name.startswith("."):
            self.report.status = "skipped: hidden file"
            self.report.sha256 = _file_sha256(self.path)
            yield [], []
            return
        extension, compressed = _extension(self.name)
        try:
            with open(self.path, "rb") as handle:
                head = handle.read(SNIFF_BYTES)
            if head.startswith(_GZIP_MAGIC):
                self.report.compression = "gzip"
                head = _unpacked_head(self.path)
            elif compressed:
                yield self._file_reject("named .gz but is not gzip-compressed (no gzip magic bytes)")
                return
        except (OSError, EOFError, zlib.error) as error:
            damaged = self.report.compression == "gzip" and not isinstance(error, PermissionError)
            reason = (
                f"the file is damaged before any record: {error}"
                if damaged
                else f"file cannot be read: {error}"
            )
            yield self._file_reject(reason)
            return
        chosen, note = choose_format(self.name, head, self.mapping)
        if chosen is None:
            self.report.format = EXTENSIONS.get(extension)
            yield self._file_reject(note or "unknown format")
            return
        self.report.format = chosen
        if note:
            self.report.repairs.append(note)
        yield from self._guarded(chosen, head)

    def _mapping_file(self) -> Iterator[Batch]:
        self.report.format = "mapping"
        self.report.status = "mapping"
        try:
            data = self.path.read_bytes()
            self.report.sha256 = hashlib.sha256(data).hexdigest()
            parse_mappings(data.decode("utf-8"))
        except (OSError, UnicodeDecodeError, MappingError) as error:
            yield self._file_reject(f"the mapping file cannot be used: {error}")
            return
        yield [], []

    def _guarded(self, chosen: str, head: bytes) -> Iterator[Batch]:
        sink = RecordSink(self.name, chosen, self._defaults())
        try:
            if chosen == "text":
                yield from self._text()
            elif chosen == "bibtex":
                yield from self._bibtex(sink)
            else:
                yield from self._streamed(chosen, head, sink)
        except (OSError, EOFError, zlib.error, gzip.BadGzipFile) as error:
            yield self._cut_short(sink, "the file is damaged", error)
        except (ijson.JSONError, pa.ArrowInvalid, ValueError) as error:
            yield self._cut_short(sink, f"the {chosen} content is malformed", error)
        if chosen != "text":
            self.report.repairs.extend(sink.notes)
            self.report.n_records = sink.n_records
            self.report.n_documents += sink.n_documents
            self.report.n_rejects += sink.n_rejects
            if sink.defaults.venue or sink.defaults.year:
                self.report.venue, self.report.year = sink.defaults.venue, sink.defaults.year
                self.report.venue_source = sink.defaults.venue_source
        if self.report.status == "read" and self.report.n_rejects:
            self.report.status = "read with rejects"
        if self.report.n_documents == 0 and self.report.status.startswith("read"):
            self.report.status = "no documents"

    def _cut_short(self, sink: RecordSink, what: str, error: Exception) -> Batch:
        """What was read before a fault, and one reject for the rest of the file."""
        documents, rejects = sink.take()
        where = f"after record {sink.n_records}" if sink.n_records else "before any record"
        self.report.status = "read in part" if sink.n_records else "rejected"
        reason = f"{what} {where}: {error}; the rest of the file could not be read"
        rejects.append(self._whole_file_row(reason))
        return documents, rejects

    def _defaults(self) -> SourceDefaults:
        if self.mapping and (self.mapping.venue or self.mapping.year):
            return SourceDefaults(self.mapping.venue, self.mapping.year, "sources.toml", "sources.toml")
        venue, year = f.venue_from_file_name(self.name)
        return SourceDefaults(venue, year, "file name" if venue else None, "file name" if year else None)

    def _whole(self) -> bytes | None:
        if (self.report.size_bytes or 0) > MAX_WHOLE_BYTES and self.report.compression is None:
            return None
        with self._open() as stream:
            data = stream.read(MAX_WHOLE_BYTES + 1)
        return None if len(data) > MAX_WHOLE_BYTES else data

    def _too_large(self) -> Batch:
        return self._file_reject(
            f"file is larger than {MAX_WHOLE_BYTES // 2**20} MiB, the limit for the {self.report.format} "
            "format, which is parsed whole; split it, or convert it to JSON Lines or CSV, which are streamed"
        )

    def _text(self) -> Iterator[Batch]:
        data = self._whole()
        if data is None:
            yield self._too_large()
            return
        parsed = parse.parse_bytes(self.name, data, sha256=self.report.sha256)
        report = self.report
        report.encoding, report.n_lines, report.nonblank_lines = (
            parsed.encoding,
            parsed.n_lines,
            parsed.nonblank_lines,
        )
        report.repairs.extend(parsed.repairs)
        if parsed.header:
            report.header_line, report.venue, report.year = (
                parsed.header.line,
                parsed.header.venue,
                parsed.header.year,
            )
            report.venue_source = "header" if parsed.header.venue or parsed.header.year else None
        report.n_records = len(parsed.documents) + len(parsed.rejects)
        report.n_documents = len(parsed.documents)
        report.n_rejects += len(parsed.rejects)
        if parsed.encoding == "binary":
            report.status = "rejected"
        source = "header" if parsed.header and (parsed.header.venue or parsed.header.year) else None
        documents = [
            {
                **d,
                "locator": f"lines {d['line_start']}-{d['line_end']}",
                "format": "text",
                "venue_source": source if d["venue"] else None,
                "year_source": source if d["year"] else None,
            }
            for d in parsed.documents
        ]
        yield documents, parsed.rejects

    def _bibtex(self, sink: RecordSink) -> Iterator[Batch]:
        data = self._whole()
        if data is None:
            yield self._too_large()
            return
        decoded = parse.decode_bytes(data)
        if decoded is None:
            yield self._file_reject("file is not text (too few of its bytes are text); nothing was parsed")
            return
        text, self.report.encoding, repairs = decoded
        self.report.repairs.extend(repairs)
        self.report.n_lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        yield from read_bibtex(text, sink)

    def _streamed(self, chosen: str, head: bytes, sink: RecordSink) -> Iterator[Batch]:
        columns = self.mapping.columns if self.mapping else None
        self.report.encoding = "utf-8" if chosen != "parquet" else None
        if chosen == "jsonl":
            with self._open() as stream:
                yield from read_jsonl(stream, sink, columns)
        elif chosen == "json":
            yield from read_json(self._reopen, self._open, sink, columns, self.name)
        elif chosen == "parquet":
            self.report.sha256 = _file_sha256(self.path)
            with self._reopen() as stream:
                if self.report.compression is None:
                    yield from read_parquet(stream, sink, columns)
                    return
                # Parquet is read by seeking, which a gzip stream cannot do: unpacked in memory,
                # and so bounded like the formats read whole.
                data = stream.read(MAX_WHOLE_BYTES + 1)
                if len(data) > MAX_WHOLE_BYTES:
                    yield self._too_large()
                    return
                yield from read_parquet(io.BytesIO(data), sink, columns)
        else:
            yield from self._csv(chosen, head, sink, columns)

    def _csv(self, chosen: str, head: bytes, sink: RecordSink, columns) -> Iterator[Batch]:
        sample = head.decode("utf-8", "replace")
        default = "\t" if chosen == "tsv" else ","
        delimiter = (self.mapping.delimiter if self.mapping else None) or sniff_dialect(sample, default)
        rows = first_rows(sample, delimiter)
        header = self.mapping.header if self.mapping and self.mapping.header is not None else has_header(rows)
        if not rows:
            yield self._file_reject("file has no rows", status="no documents")
            return
        width = max(len(r) for r in rows[:20])
        names = list(rows[0]) if header else [f"f{i}" for i in range(width)]
        if not header and not columns:
            columns = infer_columns(rows)
            if columns:
                shown = ", ".join(f"{k}={v}" for k, v in columns.items())
                self.report.repairs.append(f"no header row; columns inferred from their content: {shown}")
        self.report.format = "tsv" if delimiter == "\t" else "csv"
        sink.format = self.report.format
        with self._open() as stream:
            yield from read_csv(stream, sink, delimiter, header, names, columns)


def _unpacked_head(path: Path) -> bytes:
    """The first SNIFF_BYTES of a gzip file's content, or as much as comes before a damaged part
    (which the reader then reports where it meets it)."""
    head = b""
    with gzip.open(path, "rb") as unpacked:
        try:
            while len(head) < SNIFF_BYTES:
                chunk = unpacked.read(16384)
                if not chunk:
                    break
                head += chunk
        except (EOFError, zlib.error, gzip.BadGzipFile):
            if not head:
                raise
    return head[:SNIFF_BYTES]


def _file_sha256(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()
