from pipeline.lib.inputs import read_seeds as parse_seeds
from pipeline.lib.parse import MIN_WORDS
from pipeline.lib.reconcile import reconcile

ABSTRACT = " ".join(["word"] * (MIN_WORDS + 5))


def _write(tmp_path):
    (tmp_path / "a.txt").write_text(f"ICLR 2026 Papers\n\n{ABSTRACT}\nmore\n\nshort one\n", encoding="utf-8")
    (tmp_path / "b.txt").write_bytes(b"\x00\x01\x02binary\n" * 20)
    return parse_seeds(tmp_path)


def test_balanced_accounting_has_no_problems(tmp_path):
    parsed = _write(tmp_path)
    assert reconcile(tmp_path, parsed.documents, parsed.rejects, parsed.files)[0].height == 0


def test_a_dropped_document_is_reported_line_by_line(tmp_path):
    parsed = _write(tmp_path)
    problems, _ = reconcile(tmp_path, parsed.documents.head(0), parsed.rejects, parsed.files)
    assert problems.select("source_file", "line", "problem").rows() == [
        ("a.txt", 3, "not accounted for"),
        ("a.txt", 4, "not accounted for"),
    ]


def test_a_line_in_two_pieces_is_reported(tmp_path):
    parsed = _write(tmp_path)
    doubled = parsed.documents.vstack(parsed.documents)
    problems, _ = reconcile(tmp_path, doubled, parsed.rejects, parsed.files)
    assert set(problems["problem"]) == {"accounted for 2 times"}


def test_an_unparsed_file_is_reported(tmp_path):
    parsed = _write(tmp_path)
    (tmp_path / "c.txt").write_text(f"ICLR 2026 Papers\n\n{ABSTRACT}\n", encoding="utf-8")
    problems, _ = reconcile(tmp_path, parsed.documents, parsed.rejects, parsed.files)
    assert problems.filter(problems["source_file"] == "c.txt")["problem"].to_list() == [
        "entry has no input_files row"
    ]


def test_records_of_other_formats_are_counted_against_documents_and_rejects(tmp_path):
    record = f'{{"title": "T", "abstract": "{ABSTRACT}"}}\n'
    (tmp_path / "r.jsonl").write_text(record * 3 + "{broken\n")
    parsed = parse_seeds(tmp_path)
    assert reconcile(tmp_path, parsed.documents, parsed.rejects, parsed.files)[0].height == 0
    problems, _ = reconcile(tmp_path, parsed.documents.head(2), parsed.rejects, parsed.files)
    assert problems["problem"].to_list() == ["4 records but 2 documents and 1 rejects"]
    (tmp_path / "r.jsonl").write_text(record * 5)
    problems, _ = reconcile(tmp_path, parsed.documents, parsed.rejects, parsed.files)
    assert problems["problem"].to_list() == ["5 non-blank lines but 4 records"]


def test_a_file_with_the_bytes_and_claims_of_a_balanced_run_is_not_recounted(tmp_path):
    parsed = _write(tmp_path)
    problems, keys = reconcile(tmp_path, parsed.documents, parsed.rejects, parsed.files)
    assert problems.height == 0 and set(keys) == {"a.txt", "b.txt"}
    # Claims that no longer balance are not hidden by an old key for other claims ...
    problems, _ = reconcile(tmp_path, parsed.documents.head(0), parsed.rejects, parsed.files, keys)
    assert problems["source_file"].to_list() == ["a.txt", "a.txt"]
    # ... nor by one for other bytes: the file is read and counted again.
    (tmp_path / "a.txt").write_text(
        f"ICLR 2026 Papers\n\n{ABSTRACT}\nmore\n\nshort one\nextra line\n", encoding="utf-8"
    )
    problems, new_keys = reconcile(tmp_path, parsed.documents, parsed.rejects, parsed.files, keys)
    assert problems.select("line", "problem").rows() == [(7, "not accounted for")]
    assert new_keys["a.txt"] != keys["a.txt"] and new_keys["b.txt"] == keys["b.txt"]


def test_a_json_lines_file_read_as_in_a_balanced_run_is_not_counted_again(tmp_path):
    record = f'{{"title": "T", "abstract": "{ABSTRACT}"}}\n'
    (tmp_path / "r.jsonl").write_text(record * 3)
    parsed = parse_seeds(tmp_path)
    problems, keys = reconcile(tmp_path, parsed.documents, parsed.rejects, parsed.files)
    assert problems.height == 0 and "r.jsonl" in keys
    (tmp_path / "r.jsonl").write_text(record * 5)  # not read again: its key is of the bytes its reader read
    assert reconcile(tmp_path, parsed.documents, parsed.rejects, parsed.files, keys)[0].height == 0
    assert reconcile(tmp_path, parsed.documents, parsed.rejects, parsed.files)[0].height == 1
