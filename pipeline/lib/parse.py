"""Parse seed files: header, paragraphs, exact raw text and line ranges, rejects with reasons.

Every non-blank line of a file ends up as exactly one of: the header line, a line of one
document, or a line of one reject. Problems with the file as a whole (unreadable, not text,
empty, no abstracts) are recorded as a reject with line range 0-0, so nothing is silent.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from pipeline.lib.schema import INPUT_FILES, REJECTS

MIN_WORDS = 20
MAX_WORDS = 2000
MAX_HEADER_WORDS = 12

LINE_BREAK = re.compile(r"\r\n|\r|\n")
_HEADER = re.compile(r"^\s*(?P<venue>.*?)[\s,_-]*\b(?P<year>(?:19|20)\d{2})\b(?P<rest>.*?)\s*$")
_HEADER_TAIL = re.compile(r"^[\s:,-]*(papers?|abstracts?|proceedings|accepted)?[\s:.]*$", re.IGNORECASE)
# Blank means nothing but whitespace, including the zero-width characters editors do not show.
BLANK_LINE = re.compile(r"^[\s\u200b\u200c\u200d\u2060\ufeff]*$")
# C0 controls other than tab/newline/CR: a text file almost never has them, a binary file does.
_BINARY_BYTES = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")

# What the cleaner repairs in a paragraph; detected here so that each repair is recorded.
_PARAGRAPH_REPAIRS = (
    (re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"), "control characters removed"),
    (re.compile(r"[\u200b-\u200d\u2060\ufeff\u00ad]"), "zero-width characters removed"),
    (re.compile(r"&(?:[a-zA-Z]{2,8}|#\d{2,6}|#x[0-9a-fA-F]{2,5});"), "HTML entities decoded"),
)
_UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")
_UNESCAPED_BRACE = re.compile(r"(?<!\\)[{}]")


@dataclass(frozen=True)
class Header:
    line: int
    venue: str | None
    year: int | None


@dataclass
class ParsedFile:
    source_file: str
    sha256: str
    encoding: str
    n_lines: int
    nonblank_lines: int
    header: Header | None
    documents: list[dict] = field(default_factory=list)
    rejects: list[dict] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)


def decode_bytes(data: bytes) -> tuple[str, str, list[str]] | None:
    """Decode file bytes; returns (text, encoding, repairs) or None when it is not text."""
    repairs: list[str] = []
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "utf-16", ["decoded from UTF-16 (byte order mark found)"]
        except UnicodeDecodeError:
            return None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        repairs.append("removed a UTF-8 byte order mark")
    sample = data[:65536]
    if b"\x00" in sample or len(_BINARY_BYTES.findall(sample)) > max(8, len(sample) // 200):
        return None
    try:
        return data.decode("utf-8"), "utf-8", repairs
    except UnicodeDecodeError as error:
        repairs.append(
            f"not valid UTF-8 (first bad byte at offset {error.start}); decoded as Windows-1252/Latin-1"
        )
    try:
        return data.decode("cp1252"), "cp1252", repairs
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1", repairs


def parse_header(line: str) -> Header | None:
    """Recognise a header such as 'ICLR 2026 Papers' (venue, year); None if the line is not one."""
    if len(line.split()) > MAX_HEADER_WORDS:
        return None
    match = _HEADER.match(line)
    if not match or not _HEADER_TAIL.match(match.group("rest")):
        return None
    venue = match.group("venue").strip() or None
    return Header(line=0, venue=venue, year=int(match.group("year")))


def _file_reject(name: str, reason: str, raw_text: str | None = None) -> dict:
    return {"source_file": name, "line_start": 0, "line_end": 0, "reason": reason, "raw_text": raw_text}


def _paragraph_problem(text: str) -> str | None:
    words = len(text.split())
    if words < MIN_WORDS:
        return (
            f"paragraph has {words} word{'s' if words != 1 else ''}; an abstract has at least "
            f"{MIN_WORDS}, so this looks like a stray line, title or fragment"
        )
    if words > MAX_WORDS:
        return (
            f"paragraph has {words} words; an abstract has at most {MAX_WORDS}, so this looks like "
            "several abstracts without blank lines between them or a whole document"
        )
    return None


def paragraph_repairs(raw: str) -> list[str]:
    """What the cleaner will have to repair in this paragraph, as short phrases."""
    found = [phrase for pattern, phrase in _PARAGRAPH_REPAIRS if pattern.search(raw)]
    if len(_UNESCAPED_DOLLAR.findall(raw)) % 2:
        found.append("unbalanced $ read as a literal dollar sign")
    braces = _UNESCAPED_BRACE.findall(raw)
    if braces.count("{") != braces.count("}"):
        found.append("unbalanced LaTeX braces dropped")
    return found


def parse_text(name: str, text: str, *, sha256: str = "", encoding: str = "utf-8") -> ParsedFile:
    lines = LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    nonblank = [i for i, line in enumerate(lines) if not BLANK_LINE.match(line)]
    parsed = ParsedFile(name, sha256, encoding, len(lines), len(nonblank), header=None)
    if "\r" in text:
        parsed.repairs.append("line endings were CRLF or CR; read as line breaks")
    if not nonblank:
        reason = "file is empty" if not lines else "file has only blank lines"
        parsed.rejects.append(_file_reject(name, reason, ""))
        return parsed

    first = nonblank[0]
    header = parse_header(lines[first])
    body_start = first
    if header is not None:
        parsed.header = Header(line=first + 1, venue=header.venue, year=header.year)
        body_start = first + 1
    else:
        parsed.repairs.append(
            "no header line ('VENUE YEAR Papers'); venue and year are NULL and the first line is read as text"
        )

    venue = parsed.header.venue if parsed.header else None
    year = parsed.header.year if parsed.header else None
    ordinal = 0
    i = body_start
    while i < len(lines):
        if BLANK_LINE.match(lines[i]):
            i += 1
            continue
        start = i
        while i < len(lines) and not BLANK_LINE.match(lines[i]):
            i += 1
        raw = "\n".join(lines[start:i])
        ordinal += 1
        problem = _paragraph_problem(raw)
        if problem:
            parsed.rejects.append(
                {
                    "source_file": name,
                    "line_start": start + 1,
                    "line_end": i,
                    "reason": problem,
                    "raw_text": raw,
                }
            )
            continue
        document_id = f"{name}:{ordinal}"
        parsed.repairs.extend(f"{document_id} (lines {start + 1}-{i}): {r}" for r in paragraph_repairs(raw))
        parsed.documents.append(
            {
                "document_id": document_id,
                "source_file": name,
                "ordinal": ordinal,
                "line_start": start + 1,
                "line_end": i,
                "venue": venue,
                "year": year,
                "raw_text": raw,
            }
        )
    if ordinal == 0:
        parsed.rejects.append(_file_reject(name, "file has a header but no abstracts", lines[first]))
    return parsed


def parse_file(path: Path, name: str | None = None) -> ParsedFile:
    """Parse one seed file; never raises for bad content or an unreadable file."""
    name = name or path.name
    try:
        data = path.read_bytes()
    except OSError as error:
        parsed = ParsedFile(name, "", "", 0, 0, header=None)
        parsed.rejects.append(_file_reject(name, f"file cannot be read: {error.strerror or error}"))
        return parsed
    digest = hashlib.sha256(data).hexdigest()
    decoded = decode_bytes(data)
    if decoded is None:
        n_lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
        parsed = ParsedFile(name, digest, "binary", n_lines, n_lines, header=None)
        parsed.rejects.append(
            {
                "source_file": name,
                "line_start": 1 if n_lines else 0,
                "line_end": n_lines,
                "reason": "file is not text (it has NUL or other control bytes); nothing was parsed",
                "raw_text": None,
            }
        )
        return parsed
    text, encoding, repairs = decoded
    parsed = parse_text(name, text, sha256=digest, encoding=encoding)
    parsed.repairs[:0] = repairs
    return parsed


def seed_paths(seeds_dir: Path) -> list[Path]:
    return sorted(p for p in seeds_dir.glob("*.txt") if p.is_file() or p.is_symlink())


DOCUMENT_SCHEMA = {
    "document_id": pl.String,
    "source_file": pl.String,
    "ordinal": pl.Int32,
    "line_start": pl.Int32,
    "line_end": pl.Int32,
    "venue": pl.String,
    "year": pl.Int32,
    "raw_text": pl.String,
}


@dataclass(frozen=True)
class ParsedSeeds:
    documents: pl.DataFrame
    rejects: pl.DataFrame
    files: pl.DataFrame


def collect(parsed_files: list[ParsedFile]) -> ParsedSeeds:
    documents = [d for p in parsed_files for d in p.documents]
    rejects = [r for p in parsed_files for r in p.rejects]
    files = [
        {
            "source_file": p.source_file,
            "sha256": p.sha256,
            "encoding": p.encoding,
            "n_lines": p.n_lines,
            "nonblank_lines": p.nonblank_lines,
            "header_line": p.header.line if p.header else None,
            "venue": p.header.venue if p.header else None,
            "year": p.header.year if p.header else None,
            "n_documents": len(p.documents),
            "n_rejects": len(p.rejects),
            "repairs": p.repairs,
        }
        for p in parsed_files
    ]
    return ParsedSeeds(
        documents=pl.DataFrame(documents, schema=DOCUMENT_SCHEMA, orient="row")
        if documents
        else pl.DataFrame(schema=DOCUMENT_SCHEMA),
        rejects=REJECTS.conform(pl.DataFrame(rejects, schema=REJECTS.polars_schema()))
        if rejects
        else REJECTS.empty_frame(),
        files=INPUT_FILES.conform(pl.DataFrame(files, schema=INPUT_FILES.polars_schema()))
        if files
        else INPUT_FILES.empty_frame(),
    )


def parse_seeds(seeds_dir: Path) -> ParsedSeeds:
    """Parse every *.txt in the seeds directory, in name order."""
    return collect([parse_file(path) for path in seed_paths(seeds_dir)])
