"""A directory of nasty inputs builds; every piece is a document, a reject with its reason, or a repair."""

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


def write_nasty_inputs(directory: Path) -> None:
    a = _abstracts()
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
    assert reasons["unreadable.txt:0"].startswith("file cannot be read")


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
