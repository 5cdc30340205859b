"""Parse files in the text format: header, paragraphs, exact raw text and line ranges, rejects.

Every non-blank line of a file ends up as exactly one of: the header line, a line of one
document, or a line of one reject. Problems with the file as a whole (unreadable, not text,
empty, no abstracts) are recorded as a reject with line range 0-0, so nothing is silent.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.lib.readers.entries import entry_paths, inspect

MIN_WORDS = 20
MAX_WORDS = 2000
MAX_HEADER_WORDS = 12
# A file in the text format is read whole: one larger than this is rejected, never slurped.
MAX_TEXT_BYTES = 512 * 2**20

LINE_BREAK = re.compile(r"\r\n|\r|\n")
_HEADER = re.compile(r"^\s*(?P<venue>.*?)[\s,_-]*\b(?P<year>(?:19|20)\d{2})\b(?P<rest>.*?)\s*$")
# What may follow the year: 'Papers', '- accepted papers', '(spotlight)', 'Conference Track' ...
_HEADER_TAIL = re.compile(
    r"^[\s:,;\-–—(]*(?:(?:accepted|papers?|abstracts?|proceedings|spotlights?|orals?|posters?|main|track|"
    r"conference|workshops?|findings|list|of|the|and|volume|\d+)[\s:,;\-–—()]*)*[\s:.)]*$",
    re.IGNORECASE,
)
_PROCEEDINGS_OF = re.compile(r"^\s*(?:the\s+)?proceedings\s+of\s+(?:the\s+)?", re.IGNORECASE)
_VENUE_WORD = re.compile(
    r"\b(?:conference|workshop|symposium|proceedings|journal|transactions|meeting|congress|"
    r"colloquium|summit)\b",
    re.IGNORECASE,
)
MAX_BARE_HEADER_WORDS = 8
# Blank means nothing but whitespace, including the zero-width characters editors do not show.
BLANK_LINE = re.compile(r"^[\s\u200b\u200c\u200d\u2060\ufeff]*$")
# C0 controls other than tab/newline/CR: a text file almost never has them, a binary file does.
_BINARY_BYTES = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")
# Below this share of text-like bytes (see text_share) a file is binary, not text with a bad byte.
MIN_TEXT_SHARE = 0.9

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


def _utf8_lines(data: bytes) -> tuple[str, list[str], int]:
    """Decode line by line: a line that is not UTF-8 is decoded as Windows-1252 (Latin-1 where
    that fails) on its own, so one bad byte costs only its line. Returns the text, the repairs and
    how many bytes sat in lines that were not UTF-8 and were not ASCII."""
    lines = data.split(b"\n")
    repaired: list[int] = []
    suspect = 0
    for number, line in enumerate(lines):
        try:
            lines[number] = line.decode("utf-8")
        except UnicodeDecodeError:
            try:
                lines[number] = line.decode("cp1252")
            except UnicodeDecodeError:
                lines[number] = line.decode("latin-1")
            repaired.append(number + 1)
            suspect += sum(1 for byte in line if byte >= 0x80)
    shown = ", ".join(map(str, repaired[:20])) + (" ..." if len(repaired) > 20 else "")
    repair = (
        f"{len(repaired)} line{'s' if len(repaired) != 1 else ''} not valid UTF-8 (line {shown}), each "
        "decoded as Windows-1252/Latin-1 on its own; every other line was read as UTF-8"
    )
    return "\n".join(lines), [repair], suspect


def text_share(data: bytes, suspect_bytes: int = 0) -> float:
    """The share of bytes that look like text: not C0 control bytes, and not high bytes of lines
    that fail UTF-8. A file is binary when this share is low, not because of one byte."""
    if not data:
        return 1.0
    controls = len(_BINARY_BYTES.findall(data))
    return 1.0 - (controls + suspect_bytes) / len(data)


def decode_bytes(data: bytes) -> tuple[str, str, list[str]] | None:
    """Decode file bytes; returns (text, encoding, repairs) or None when it is not text.

    Valid UTF-8 is kept as it is. Lines that are not UTF-8 are decoded on their own (see
    `_utf8_lines`), NUL bytes are removed wherever they are, and the bytes are rejected as binary
    only when less than MIN_TEXT_SHARE of them look like text.
    """
    repairs: list[str] = []
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "utf-16", ["decoded from UTF-16 (byte order mark found)"]
        except UnicodeDecodeError:
            return None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        repairs.append("removed a UTF-8 byte order mark")
    try:
        text, encoding, suspect = data.decode("utf-8"), "utf-8", 0
    except UnicodeDecodeError:
        text, line_repairs, suspect = _utf8_lines(data)
        encoding = "utf-8 with Windows-1252 lines"
        repairs.extend(line_repairs)
    if text_share(data, suspect) < MIN_TEXT_SHARE:
        return None
    if "\x00" in text:
        lines = [i + 1 for i, line in enumerate(LINE_BREAK.split(text)) if "\x00" in line]
        shown = ", ".join(map(str, lines[:20])) + (" ..." if len(lines) > 20 else "")
        repairs.append(f"{text.count(chr(0))} NUL bytes removed (line {shown})")
        text = text.replace("\x00", "")
    return text, encoding, repairs


def _looks_like_venue(venue: str) -> bool:
    """'ICLR', 'NeurIPS', 'Conference on Robot Learning', not 'Since' or 'In'."""
    return bool(_VENUE_WORD.search(venue)) or any(
        sum(1 for c in token if c.isupper()) >= 2 for token in venue.split()
    )


def parse_header(line: str) -> Header | None:
    """Recognise a header naming a venue and a year, forgivingly: 'ICLR 2026 Papers',
    'Proceedings of ICML 2024 - accepted papers', 'NeurIPS 2023 (spotlight)'; None if the line is
    not one."""
    if len(line.split()) > MAX_HEADER_WORDS or line.rstrip().endswith("."):
        return None
    match = _HEADER.match(_PROCEEDINGS_OF.sub("", line))
    if not match or not _HEADER_TAIL.match(match.group("rest")):
        return None
    venue = match.group("venue").strip(" \t,;:-–—_(") or None
    if venue is None or not _looks_like_venue(venue):
        return None
    return Header(line=0, venue=venue, year=int(match.group("year")))


def looks_like_bare_header(line: str) -> bool:
    """A first line set apart by a blank line that names no venue and year but reads as a heading
    ('Accepted papers', 'ICLR Papers'): short, no sentence punctuation at its end."""
    words = line.split()
    return 0 < len(words) <= MAX_BARE_HEADER_WORDS and not line.rstrip().endswith((".", ",", ";"))


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
    set_apart = first + 1 >= len(lines) or bool(BLANK_LINE.match(lines[first + 1]))
    header = parse_header(lines[first])
    if header is None and set_apart and looks_like_bare_header(lines[first]):
        header = Header(line=0, venue=None, year=None)
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


def parse_bytes(name: str, data: bytes, sha256: str = "") -> ParsedFile:
    """Parse the bytes of one file in the text format; never raises for bad content."""
    digest = sha256 or hashlib.sha256(data).hexdigest()
    decoded = decode_bytes(data)
    if decoded is None:
        n_lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
        parsed = ParsedFile(name, digest, "binary", n_lines, n_lines, header=None)
        parsed.rejects.append(
            {
                "source_file": name,
                "line_start": 1 if n_lines else 0,
                "line_end": n_lines,
                "reason": (
                    f"file is not text (only {text_share(data):.0%} of its bytes are text: the rest are "
                    "control bytes or bytes of lines that are neither UTF-8 nor Windows-1252 text); "
                    "nothing was parsed"
                ),
                "raw_text": None,
            }
        )
        return parsed
    text, encoding, repairs = decoded
    parsed = parse_text(name, text, sha256=digest, encoding=encoding)
    parsed.repairs[:0] = repairs
    return parsed


def parse_file(path: Path, name: str | None = None) -> ParsedFile:
    """Parse one file in the text format; never raises for bad content or an unreadable file."""
    name = name or path.name
    entry = inspect(path)
    problem = entry.problem
    if problem is None and (entry.size or 0) > MAX_TEXT_BYTES:
        problem = f"is larger than {MAX_TEXT_BYTES // 2**20} MiB, the limit for a file read whole"
    data = None
    if problem is None:
        try:
            data = path.read_bytes()
        except OSError as error:
            problem = f"cannot be read: {error.strerror or error}"
    if data is None:
        parsed = ParsedFile(name, "", "", 0, 0, header=None)
        parsed.rejects.append(_file_reject(name, f"file {problem}"))
        return parsed
    return parse_bytes(name, data)


def seed_paths(seeds_dir: Path) -> list[Path]:
    """Every entry of the input directory, whatever its name or kind: each becomes an input file
    that is read, or a reject that says why not."""
    return entry_paths(seeds_dir)
