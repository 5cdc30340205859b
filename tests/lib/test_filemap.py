"""The map over input files: what a file claims to extract, and the one staleness rule."""

import os

import polars as pl
import pytest

from pipeline.lib import filemap
from pipeline.lib.assemble import PrepareJob
from pipeline.lib.dedup import Signatures, sign_texts
from pipeline.lib.extract import TEXT_KEY, TextRows, text_keys
from pipeline.lib.filemap import (
    EXTRACTED_PART,
    STAMP_PART,
    StagedFile,
    claim_texts,
    file_version,
    missing_texts,
    read_and_sign,
    stale_files,
)
from pipeline.lib.readers.entries import file_digest

TEXTS = [
    "We propose a sorting network of lower depth than any known before, prove it optimal for sixteen "
    "inputs, and give a construction that scales to every power of two with the same bound.",
    "Graph neural networks for molecules are evaluated on property prediction benchmarks, where a "
    "simple message passing baseline with tuned features matches most of the recent architectures.",
]


def _keys_part(tmp_path, name, texts):
    path = tmp_path / f"{name}.parquet"
    frame = pl.DataFrame({"document_id": [f"{name}:{i}" for i in range(len(texts))], "text": texts})
    frame.select("document_id", text_keys(frame["text"])).write_parquet(path)
    return path


def test_each_text_is_claimed_by_the_first_file_that_has_it_and_no_file_claims_a_known_one(tmp_path):
    first = _keys_part(tmp_path, "a", [TEXTS[0], TEXTS[0], TEXTS[1]])
    second = _keys_part(tmp_path, "b", [TEXTS[1], "A third text."])
    known = pl.DataFrame({TEXT_KEY: text_keys(pl.Series([TEXTS[0]]))})
    owned = claim_texts([("a", first), ("b", second)], known)
    every = [*TEXTS, "A third text."]
    keys = dict(zip(every, text_keys(pl.Series(every)), strict=True))
    assert owned["a"][TEXT_KEY].to_list() == [keys[TEXTS[1]]]
    assert owned["b"][TEXT_KEY].to_list() == [keys["A third text."]]


def test_a_file_is_read_signed_and_keyed_in_its_staging_directory(tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "x.txt").write_text("ICLR 2024 Papers\n\n" + "\n\n".join(TEXTS) + "\n", encoding="utf-8")
    target = tmp_path / "staged" / "documents.parquet"
    target.parent.mkdir()
    mapped = read_and_sign(PrepareJob(seeds / "x.txt", seeds, target))
    documents = pl.read_parquet(target)
    assert documents.height == 2
    signatures = Signatures.read(mapped.signatures)
    assert signatures.digests.tolist() == sign_texts(documents["abstract_clean"]).digests.tolist()
    keys = pl.read_parquet(mapped.text_keys)
    assert keys["document_id"].to_list() == documents["document_id"].to_list()
    assert keys[TEXT_KEY].to_list() == text_keys(documents["abstract_clean"]).to_list()


@pytest.mark.parametrize("order", ["ordinal", "reversed"])
def test_texts_are_signed_in_slices_in_ordinal_order(tmp_path, monkeypatch, order):
    """Slices of two texts give what one slice of every text gives, in ordinal order even when the
    reader wrote the documents in another."""
    texts = [f"Abstract number {n} about a method and its results on a benchmark." for n in range(5)]
    documents = pl.DataFrame(
        {"document_id": [f"f:{n}" for n in range(5)], "ordinal": list(range(5)), "abstract_clean": texts}
    )
    path = tmp_path / "documents.parquet"
    (documents if order == "ordinal" else documents.reverse()).write_parquet(path)
    monkeypatch.setattr(filemap, "SIGN_SLICE_ROWS", 2)
    filemap._sign_in_slices(path, tmp_path / "signatures.parquet", tmp_path / "keys.parquet")
    signed, whole = Signatures.read(tmp_path / "signatures.parquet"), sign_texts(documents["abstract_clean"])
    assert signed.digests.tolist() == whole.digests.tolist()
    assert (signed.band_keys == whole.band_keys).all() and (signed.sketches == whole.sketches).all()
    keys = pl.read_parquet(tmp_path / "keys.parquet")
    assert keys["document_id"].to_list() == documents["document_id"].to_list()
    assert keys[TEXT_KEY].to_list() == text_keys(documents["abstract_clean"]).to_list()


def test_a_file_without_documents_has_empty_parts(tmp_path):
    path = tmp_path / "documents.parquet"
    schema = {"document_id": pl.String, "ordinal": pl.Int64, "abstract_clean": pl.String}
    pl.DataFrame(schema=schema).write_parquet(path)
    filemap._sign_in_slices(path, tmp_path / "signatures.parquet", tmp_path / "keys.parquet")
    assert len(Signatures.read(tmp_path / "signatures.parquet")) == 0
    assert pl.read_parquet(tmp_path / "keys.parquet").columns == ["document_id", TEXT_KEY]


def test_a_file_is_stale_unless_its_stamp_names_its_bytes_and_the_code_now(tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "x.txt").write_text("ICLR 2024 Papers\n\n" + TEXTS[0] + "\n", encoding="utf-8")
    staged = tmp_path / "staged"
    staged.mkdir()

    def stale():
        return stale_files(seeds, ["x.txt"], lambda key: staged)

    assert stale() == {"x.txt"}  # never mapped
    stamp = pl.DataFrame({"sha256": [file_digest(seeds / "x.txt")], "version": [file_version("x.txt", {})]})
    stamp.write_parquet(staged / f"{STAMP_PART}.parquet")
    assert stale() == set()
    assert StagedFile({STAMP_PART: staged / f"{STAMP_PART}.parquet"}).current(file_version("x.txt", {}))
    # New bytes with the same size and modification time: the digest, not the status, decides.
    status = (seeds / "x.txt").stat()
    edited = TEXTS[0].replace("sorting", "Sorting")
    (seeds / "x.txt").write_text("ICLR 2024 Papers\n\n" + edited + "\n", encoding="utf-8")
    os.utime(seeds / "x.txt", ns=(status.st_atime_ns, status.st_mtime_ns))
    assert (seeds / "x.txt").stat().st_size == status.st_size
    assert stale() == {"x.txt"}
    stamp.with_columns(version=pl.lit("other code")).write_parquet(staged / f"{STAMP_PART}.parquet")
    assert not StagedFile({STAMP_PART: staged / f"{STAMP_PART}.parquet"}).current(file_version("x.txt", {}))


def test_the_texts_no_file_holds_are_read_and_none_are_scanned_when_every_text_is_held(tmp_path):
    keys = text_keys(pl.Series(TEXTS))
    papers = pl.DataFrame({"paper_id": ["P1", "P2"], TEXT_KEY: keys})
    texts_path = tmp_path / "texts.parquet"
    pl.DataFrame({"paper_id": ["P1", "P2"], "abstract_clean": TEXTS}).write_parquet(texts_path)
    held_one = pl.DataFrame({TEXT_KEY: keys.head(1)})
    missing = missing_texts(papers, held_one, pl.scan_parquet(texts_path))
    assert missing.to_dicts() == [{TEXT_KEY: keys[1], "abstract_clean": TEXTS[1]}]
    # Everything held: the texts are not read (this scan would fail if they were).
    unreadable = pl.scan_parquet(tmp_path / "no-such-file.parquet")
    nothing = missing_texts(papers, pl.DataFrame({TEXT_KEY: keys}), unreadable)
    assert nothing.is_empty() and nothing.columns == [TEXT_KEY, "abstract_clean"]


def _documents_and_keys(tmp_path, texts):
    documents = pl.DataFrame({"document_id": [f"f:{n}" for n in range(len(texts))], "abstract_clean": texts})
    documents.write_parquet(tmp_path / "documents.parquet")
    documents.select("document_id", text_keys(documents["abstract_clean"])).write_parquet(
        tmp_path / "keys.parquet"
    )
    return tmp_path / "documents.parquet", tmp_path / "keys.parquet"


def test_owned_texts_come_once_each_in_file_order_a_slice_of_documents_at_a_time(tmp_path, monkeypatch):
    texts = ["t0", "t1", "t0", "t2", "t3", "t1", "t4"]
    documents, keys = _documents_and_keys(tmp_path, texts)
    owned = pl.DataFrame({TEXT_KEY: text_keys(pl.Series(["t4", "t0", "t1", "t3"]))})
    monkeypatch.setattr(filemap, "TEXT_SLICE_ROWS", 2)
    slices = list(filemap.owned_text_slices(documents, keys, owned))
    # Documents two at a time: [t0 t1] [t0 t2] [t3 t1] [t4]; t0 and t1 only where they first occur.
    assert [s["abstract_clean"].to_list() for s in slices] == [["t0", "t1"], ["t3"], ["t4"]]
    assert pl.concat(slices)[TEXT_KEY].to_list() == text_keys(pl.Series(["t0", "t1", "t3", "t4"])).to_list()


def test_a_file_that_owns_no_text_gives_one_empty_slice_and_its_documents_are_not_read(tmp_path):
    _, keys = _documents_and_keys(tmp_path, ["t0"])
    nothing = pl.DataFrame(schema={TEXT_KEY: pl.String})
    (empty,) = filemap.owned_text_slices(tmp_path / "no-such-file.parquet", keys, nothing)
    assert empty.is_empty() and empty.columns == [TEXT_KEY, "abstract_clean"]


def _rows_of(texts: pl.DataFrame) -> TextRows:
    links = pl.DataFrame(
        {TEXT_KEY: texts[TEXT_KEY], "url": [f"https://x.org/{t}" for t in texts["abstract_clean"]]}
    )
    empty = TextRows.empty()
    return TextRows.from_frames(
        {**empty.frames(), "links": pl.concat([empty.links, links], how="diagonal_relaxed")}
    )


def test_rows_staged_a_slice_at_a_time_are_the_rows_of_every_slice_with_empty_parts_for_a_name_without(
    tmp_path,
):
    pieces = []
    for name, texts in [("a", ["t0", "t1"]), ("a", ["t2"]), ("b", [])]:
        frame = pl.DataFrame({"abstract_clean": texts}, schema={"abstract_clean": pl.String})
        frame = frame.select(text_keys(frame["abstract_clean"]), "abstract_clean")
        pieces.append((name, frame, _rows_of(frame)))
    staged = {name: (parts, n) for name, parts, n in filemap.stage_rows(pieces, lambda name: tmp_path / name)}
    assert {name: n for name, (_, n) in staged.items()} == {"a": 3, "b": 0}
    a_parts = staged["a"][0]
    whole = pl.concat([texts for name, texts, _ in pieces if name == "a"])
    assert pl.read_parquet(a_parts[EXTRACTED_PART]).equals(whole.select(TEXT_KEY))
    assert pl.read_parquet(a_parts["rows_links"]).equals(_rows_of(whole).links)
    for part, path in staged["b"][0].items():
        assert pl.read_parquet(path).is_empty(), part
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == sorted(p.name for p in a_parts.values())


def test_a_failure_while_staging_rows_leaves_the_parts_before_it_and_no_temporary_file(tmp_path):
    frame = pl.DataFrame({"abstract_clean": ["t0"]}).select(text_keys(pl.Series(["t0"])), "abstract_clean")
    ((_, before, _),) = filemap.stage_rows([("a", frame, _rows_of(frame))], lambda name: tmp_path)
    kept = {part: path.read_bytes() for part, path in before.items()}

    def failing():
        yield "a", frame, _rows_of(frame)
        raise RuntimeError("extraction failed")

    with pytest.raises(RuntimeError, match="extraction failed"):
        list(filemap.stage_rows(failing(), lambda name: tmp_path))
    assert {part: path.read_bytes() for part, path in before.items()} == kept
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in before.values())
