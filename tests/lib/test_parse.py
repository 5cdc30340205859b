from pathlib import Path

import pytest

from pipeline.lib.inputs import read_seeds
from pipeline.lib.parse import (
    MAX_WORDS,
    MIN_WORDS,
    parse_file,
    parse_header,
    parse_text,
)
from pipeline.lib.reconcile import reconcile

SEEDS = Path(__file__).resolve().parents[2] / "seeds"
ABSTRACT = " ".join(["word"] * (MIN_WORDS + 5))


def test_header_gives_venue_and_year():
    header = parse_header("ICLR 2026 Papers")
    assert (header.venue, header.year) == ("ICLR", 2026)
    assert parse_header("NeurIPS 2023 papers").venue == "NeurIPS"
    assert parse_header("Conference on Robot Learning 2024").venue == "Conference on Robot Learning"


@pytest.mark.parametrize(
    "line",
    ["We study the classic problem of prediction in 2024 with many experts and bounds.", "ICLR Papers", ""],
)
def test_text_lines_are_not_headers(line):
    assert parse_header(line) is None


def test_paragraphs_keep_raw_text_and_line_ranges():
    text = f"ICLR 2026 Papers\n\n{ABSTRACT}\n\n\nfirst line of two {ABSTRACT}\n  second line\n"
    parsed = parse_text("a.txt", text)
    assert parsed.header.line == 1
    docs = parsed.documents
    assert [(d["line_start"], d["line_end"], d["ordinal"]) for d in docs] == [(3, 3, 1), (6, 7, 2)]
    assert docs[1]["raw_text"] == f"first line of two {ABSTRACT}\n  second line"
    assert docs[0]["document_id"] == "a.txt:1"
    assert (docs[0]["venue"], docs[0]["year"]) == ("ICLR", 2026)
    assert parsed.rejects == []


def test_crlf_and_lone_cr_line_endings_count_lines_like_an_editor():
    parsed = parse_text("a.txt", f"ICLR 2026 Papers\r\n\r\n{ABSTRACT}\r\n\r\n{ABSTRACT}\r")
    assert [(d["line_start"], d["line_end"]) for d in parsed.documents] == [(3, 3), (5, 5)]
    assert all("\r" not in d["raw_text"] for d in parsed.documents)


def test_short_and_long_paragraphs_are_rejected_with_reasons():
    long_text = " ".join(["w"] * (MAX_WORDS + 1))
    parsed = parse_text("a.txt", f"ICLR 2026 Papers\n\nToo short.\n\n{ABSTRACT}\n\n{long_text}\n")
    reasons = [r["reason"] for r in parsed.rejects]
    assert len(parsed.documents) == 1
    assert reasons[0].startswith("paragraph has 2 words")
    assert reasons[1].startswith(f"paragraph has {MAX_WORDS + 1} words")
    assert [(r["line_start"], r["line_end"]) for r in parsed.rejects] == [(3, 3), (7, 7)]
    # Ordinals count every paragraph so ids do not shift when a rule changes.
    assert parsed.documents[0]["ordinal"] == 2


def test_file_without_header_keeps_first_paragraph():
    parsed = parse_text("a.txt", f"{ABSTRACT}\n\n{ABSTRACT}\n")
    assert parsed.header is None
    assert len(parsed.documents) == 2
    assert parsed.documents[0]["venue"] is None
    assert any("no header" in r for r in parsed.repairs)


def test_empty_and_header_only_files_are_recorded():
    assert parse_text("e.txt", "").rejects[0]["reason"] == "file is empty"
    assert parse_text("b.txt", "\n \n").rejects[0]["reason"] == "file has only blank lines"
    only_header = parse_text("h.txt", "ICLR 2026 Papers\n")
    assert only_header.documents == []
    assert only_header.rejects[0]["reason"] == "file has a header but no abstracts"


def test_encodings_are_decoded_and_recorded(tmp_path):
    text = f"ICLR 2026 Papers\n\nCafé naïve {ABSTRACT}\n"
    cases = {
        "latin1.txt": text.encode("latin-1"),
        "utf16.txt": text.encode("utf-16"),
        "bom.txt": b"\xef\xbb\xbf" + text.encode("utf-8"),
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        parsed = parse_file(tmp_path / name)
        assert parsed.documents[0]["raw_text"].startswith("Café naïve"), name
        assert parsed.header is not None, name
        assert parsed.repairs, name


def test_binary_and_unreadable_files_become_rejects(tmp_path):
    binary = tmp_path / "image.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 50)
    parsed = parse_file(binary)
    assert parsed.documents == []
    assert "not text" in parsed.rejects[0]["reason"]
    missing = parse_file(tmp_path / "missing.txt")
    assert missing.rejects[0]["reason"].startswith("file cannot be read")


def test_seeds_parse_to_38_documents_and_every_line_is_accounted_for():
    parsed = read_seeds(SEEDS)
    assert parsed.documents.height == 38
    assert parsed.rejects.height == 0
    assert reconcile(SEEDS, parsed.documents, parsed.rejects, parsed.files)[0].height == 0
    first = parsed.documents.row(0, named=True)
    lines = (SEEDS / first["source_file"]).read_text(encoding="utf-8").split("\n")
    assert first["raw_text"] == "\n".join(lines[first["line_start"] - 1 : first["line_end"]])
