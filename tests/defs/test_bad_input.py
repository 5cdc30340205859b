"""A directory of nasty inputs builds; every piece is a document, a reject with its reason, or a repair."""

import json
import os
import random
import shutil
from pathlib import Path

import duckdb
import pytest

from pipeline.build import run_build
from pipeline.lib.parse import parse_file
from tests.conftest import SEEDS

HEADER = "ICLR 2026 Papers"


GOOD_FILE = "002_4b23d85508f43a9c.txt"


def _paragraphs(name: str) -> list[str]:
    text = (SEEDS / name).read_text(encoding="utf-8")
    return [p.strip() for p in text.split("\n\n")[1:] if p.strip()]


def _abstracts() -> list[str]:
    """Seed abstracts that are not in the good file, so each nasty file holds a paper of its own."""
    good = set(_paragraphs(GOOD_FILE))
    return [p for p in _paragraphs("000_7beccc23ec4b2ebf.txt") if p not in good]


_WORDS = [
    "model",
    "data",
    "learning",
    "method",
    "graph",
    "sparse",
    "signal",
    "noise",
    "robust",
    "kernel",
    "policy",
    "agent",
    "reward",
    "sample",
    "estimate",
    "bound",
    "error",
    "loss",
    "network",
    "layer",
    "attention",
    "token",
    "image",
    "video",
    "audio",
    "speech",
    "text",
    "language",
    "query",
    "answer",
    "retrieval",
    "index",
    "memory",
    "cache",
    "latency",
    "energy",
    "budget",
    "privacy",
    "fairness",
    "causal",
    "effect",
    "treatment",
    "outcome",
    "survey",
    "benchmark",
    "dataset",
    "metric",
    "baseline",
    "ablation",
    "variance",
    "bias",
    "prior",
    "posterior",
    "inference",
    "sampling",
    "gradient",
    "descent",
    "convex",
    "smooth",
    "manifold",
    "geometry",
    "topology",
    "spectrum",
    "filter",
    "cluster",
    "label",
    "domain",
    "shift",
    "transfer",
    "task",
    "skill",
    "robot",
    "control",
    "planning",
    "search",
    "tree",
    "forest",
    "boost",
]


def _made_up(number: int) -> str:
    """A text of 40 words drawn for `number` alone: long enough to be an abstract, and unlike the others."""
    return "We study " + " ".join(random.Random(number).choices(_WORDS, k=40)) + "."


def write_nasty_inputs(directory: Path) -> None:
    a = _abstracts()
    a += [_made_up(number) for number in range(len(a), 40)]
    directory.mkdir()
    shutil.copy(SEEDS / GOOD_FILE, directory / GOOD_FILE)
    (directory / "latin1.txt").write_bytes(f"{HEADER}\n\nCafé naïve résumé. {a[0]}\n".encode("latin-1"))
    (directory / "utf16.txt").write_bytes(f"{HEADER}\n\nÜber {a[1]}\n".encode("utf-16"))
    (directory / "utf8_bom.txt").write_bytes(f"\ufeff{HEADER}\n\n{a[2]}\n".encode())
    (directory / "crlf.txt").write_bytes(f"{HEADER}\r\n\r\n{a[3]}\r\n\r\n{a[4]}\r\n".encode())
    (directory / "empty.txt").write_bytes(b"")
    (directory / "no_header.txt").write_text(f"{a[5]}\n\n{a[6]}\n", encoding="utf-8")
    (directory / "only_header.txt").write_text(f"{HEADER}\n", encoding="utf-8")
    (directory / "binary.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01" * 64)
    (directory / "sizes.txt").write_text(
        f"{HEADER}\n\nPage 3\n\n{a[7]}\n\n{' '.join([a[8]] * 20)}\n", encoding="utf-8"
    )
    (directory / "invisible.txt").write_text(
        f"{HEADER}\n\nZero\u200bwidth and\x07control {a[9]}\n", encoding="utf-8"
    )
    (directory / "entities.txt").write_text(f"{HEADER}\n\nR&amp;D &lt;fast&gt; {a[10]}\n", encoding="utf-8")
    (directory / "latex.txt").write_text(
        f"{HEADER}\n\nCosts $5 and {{unbalanced \\textbf{{x}} {a[11]}\n", encoding="utf-8"
    )
    (directory / "twice.txt").write_text(f"{HEADER}\n\n{a[12]}\n\n{a[12]}\n", encoding="utf-8")
    (directory / "unreadable.txt").symlink_to(directory / "does-not-exist")
    write_hostile_entries(directory, a)
    write_broken_records(directory, a)


def write_hostile_entries(directory: Path, a: list[str]) -> None:
    """Entries that are not regular files in the directory, odd names, and damaged bytes."""
    (directory / "x.txt").mkdir()
    os.mkfifo(directory / "pipe.txt")
    (directory / "zero.txt").symlink_to("/dev/zero")
    private = directory.parent / "private.txt"
    private.write_text(f"{HEADER}\n\nroot:x:0:0 {a[13]}\n", encoding="utf-8")
    (directory / "outside.txt").symlink_to(private)
    (directory / "UPPER.TXT").write_text(f"{HEADER}\n\n{a[14]}\n", encoding="utf-8")
    (directory / "paper[1].txt").write_text(f"{HEADER}\n\n{a[15]}\n", encoding="utf-8")
    paragraphs = [
        f"Café {a[16]}".encode(),
        f"Bad \xff byte {a[17]}".encode("latin-1"),
        f"Déjà {a[18]}".encode(),
    ]
    (directory / "bad_byte.txt").write_bytes(f"{HEADER}\n\n".encode() + b"\n\n".join(paragraphs) + b"\n")
    nul = [f"Nul\x00 here {a[19]}".encode(), f"Clean {a[20]}".encode()]
    (directory / "nul.txt").write_bytes(f"{HEADER}\n\n".encode() + b"\n\n".join(nul) + b"\n")
    (directory / "noise.txt").write_bytes(random.Random(0).randbytes(20_000).translate(HIGH_BYTES))
    (directory / "since.txt").write_text(f"Since 2020\n{a[21]}\n", encoding="utf-8")


# Random bytes mapped onto 0x80-0xff, none of them NUL: text by the old one-byte test, but not text.
HIGH_BYTES = bytes(0x80 | (b & 0x7F) for b in range(256))


def write_broken_records(directory: Path, a: list[str]) -> None:
    """The other formats, each with a piece that cannot be read."""
    good = [json.dumps({"title": f"Record {i}", "abstract": a[22 + i]}) for i in range(2)]
    lines = [good[0], "{not json", json.dumps({"title": "Nothing to say", "id": "n1"}), good[1]]
    (directory / "malformed.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (directory / "ragged.csv").write_text(
        f'title,abstract\nGood,"{a[24]}"\nBad,"{a[25]}",extra,fields\n', encoding="utf-8"
    )
    (directory / "broken.bib").write_text(
        "@inproceedings{good24,\n  title = {Good},\n  abstract = {" + a[26] + "}\n}\n\n"
        "@inproceedings{bad24,\n  title = {Bad {brace},\n  abstract = {never closed\n",
        encoding="utf-8",
    )
    (directory / "corrupt.jsonl.gz").write_bytes(b"\x1f\x8b\x08\x00" + b"not deflate at all" * 10)
    (directory / "unknown.json").write_text(json.dumps({"meta": {"n": 1}, "body": "text"}), encoding="utf-8")


@pytest.fixture(scope="module")
def nasty_build(tmp_path_factory):
    root = tmp_path_factory.mktemp("nasty")
    seeds = root / "seeds"
    write_nasty_inputs(seeds)
    outcome = run_build(seeds, root / "warehouse")
    return outcome, root / "warehouse"


def _rows(warehouse, sql):
    with duckdb.connect(str(warehouse / "papers.duckdb"), read_only=True) as con:
        return con.execute(sql).fetchall()


def test_nasty_inputs_build_and_reconcile(nasty_build):
    outcome, _ = nasty_build
    assert outcome.published, outcome.reason
    evaluations = {e.asset_check_key.name: e for e in outcome.result.get_asset_check_evaluations()}
    assert evaluations["nothing_lost"].passed
    assert all(e.passed for e in evaluations.values())


def test_each_rejected_piece_has_its_reason(nasty_build):
    _, warehouse = nasty_build
    reasons = dict(_rows(warehouse, "SELECT source_file || ':' || line_start, reason FROM rejects"))
    assert reasons["empty.txt:0"] == "file is empty"
    assert reasons["only_header.txt:0"] == "file has a header but no abstracts"
    assert "not text" in reasons["binary.txt:1"]
    assert reasons["sizes.txt:3"].startswith("paragraph has 2 words")
    assert "at most 2000" in reasons["sizes.txt:7"]
    assert "broken symbolic link" in reasons["unreadable.txt:0"]


def test_hostile_entries_are_recorded_with_their_reasons_without_being_read(nasty_build):
    _, warehouse = nasty_build
    reasons = dict(_rows(warehouse, "SELECT source_file, reason FROM rejects WHERE line_start = 0"))
    assert "is a directory" in reasons["x.txt"]
    assert "named pipe" in reasons["pipe.txt"]
    assert "character device" in reasons["zero.txt"]
    assert "outside the seeds directory" in reasons["outside.txt"]
    assert "not text" in dict(_rows(warehouse, "SELECT source_file, reason FROM rejects"))["noise.txt"]
    read = dict(_rows(warehouse, "SELECT source_file, n_documents FROM input_files"))
    assert read["UPPER.TXT"] == read["paper[1].txt"] == 1
    assert not _rows(warehouse, "SELECT * FROM documents WHERE raw_text LIKE 'root:x:0:0%'")


def test_a_bad_byte_or_a_nul_costs_only_its_paragraph(nasty_build):
    _, warehouse = nasty_build
    seeds = warehouse.parent / "seeds"
    for name in ("bad_byte.txt", "nul.txt"):
        data = (seeds / name).read_bytes()
        rows = _rows(warehouse, f"SELECT raw_text, line_start FROM documents WHERE source_file = '{name}'")
        lines = data.split(b"\n")
        identical = [raw.encode() == lines[start - 1] for raw, start in rows]
        assert identical == ([True, False, True] if name == "bad_byte.txt" else [False, True]), name
    repairs = dict(_rows(warehouse, "SELECT source_file, repairs FROM input_files"))
    assert "1 line not valid UTF-8 (line 5)" in " ".join(repairs["bad_byte.txt"])
    assert "1 NUL bytes removed (line 3)" in " ".join(repairs["nul.txt"])


def test_a_first_line_that_starts_a_paragraph_is_no_header(nasty_build):
    _, warehouse = nasty_build
    rows = _rows(warehouse, "SELECT venue, year, line_start FROM documents WHERE source_file = 'since.txt'")
    assert rows == [(None, None, 1)]


def test_broken_records_of_every_format_are_specific_rejects(nasty_build):
    _, warehouse = nasty_build
    reasons = _rows(warehouse, "SELECT source_file, line_start, reason FROM rejects ORDER BY ALL")
    by_file: dict[str, list] = {}
    for name, line, reason in reasons:
        by_file.setdefault(name, []).append((line, reason))
    assert by_file["malformed.jsonl"][0][0] == 2 and "not valid JSON" in by_file["malformed.jsonl"][0][1]
    assert by_file["malformed.jsonl"][1] == (3, "no abstract: id n1, title 'Nothing to say'")
    assert by_file["ragged.csv"] == [(2, "row 2 has 4 fields where the file has 2")]
    assert "BibTeX block at lines 6-" in by_file["broken.bib"][0][1]
    assert "damaged before any record" in by_file["corrupt.jsonl.gz"][0][1]
    assert "unknown record shape" in by_file["unknown.json"][0][1]
    counts = _rows(
        warehouse,
        "SELECT source_file, n_records, n_documents, n_rejects FROM input_files "
        "WHERE source_file IN ('malformed.jsonl', 'ragged.csv', 'broken.bib') ORDER BY 1",
    )
    assert counts == [("broken.bib", 2, 1, 1), ("malformed.jsonl", 4, 2, 2), ("ragged.csv", 2, 1, 1)]


def test_repairs_are_recorded_per_file(nasty_build):
    _, warehouse = nasty_build
    repairs = {
        name: " | ".join(r) for name, r in _rows(warehouse, "SELECT source_file, repairs FROM input_files")
    }
    assert "Windows-1252" in repairs["latin1.txt"]
    assert "UTF-16" in repairs["utf16.txt"]
    assert "byte order mark" in repairs["utf8_bom.txt"]
    assert "CRLF" in repairs["crlf.txt"]
    assert "no header" in repairs["no_header.txt"]
    assert "zero-width characters removed" in repairs["invisible.txt"]
    assert "control characters removed" in repairs["invisible.txt"]
    assert "HTML entities decoded" in repairs["entities.txt"]
    assert "unbalanced $" in repairs["latex.txt"]
    assert "unbalanced LaTeX braces" in repairs["latex.txt"]


def test_repaired_text_reads_cleanly(nasty_build):
    _, warehouse = nasty_build
    clean = dict(
        _rows(
            warehouse,
            "SELECT d.source_file, p.abstract_clean FROM documents d JOIN papers p USING (paper_id)",
        )
    )
    assert clean["latin1.txt"].startswith("Café naïve résumé.")
    assert clean["utf16.txt"].startswith("Über")
    assert clean["entities.txt"].startswith("R&D <fast>")
    assert "\u200b" not in clean["invisible.txt"] and "\x07" not in clean["invisible.txt"]
    assert clean["latex.txt"].startswith("Costs $5 and")
    raw = dict(_rows(warehouse, "SELECT source_file, raw_text FROM documents WHERE source_file = 'crlf.txt'"))
    assert "\r" not in raw["crlf.txt"]


def test_same_abstract_twice_in_one_file_is_one_paper(nasty_build):
    _, warehouse = nasty_build
    rows = _rows(
        warehouse, "SELECT match, paper_id FROM documents WHERE source_file = 'twice.txt' ORDER BY ordinal"
    )
    assert [match for match, _ in rows] == ["first", "exact"]
    assert rows[0][1] == rows[1][1]


def test_permission_denied_becomes_a_reject(tmp_path, monkeypatch):
    path = tmp_path / "locked.txt"
    path.write_text("ICLR 2026 Papers\n", encoding="utf-8")

    def denied(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", denied)
    parsed = parse_file(path)
    assert parsed.rejects[0]["reason"] == "file cannot be read: Permission denied"
