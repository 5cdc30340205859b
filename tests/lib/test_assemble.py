"""Assembling the tables: texts by row, text keys from the files' maps, word counts."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.lib import assemble
from pipeline.lib.assemble import (
    MATCH_COLUMNS,
    _beside_rows,
    _word_counts,
    canonical_papers,
    file_text_keys,
    fused_fields,
    match_documents,
    texts_by_row,
)
from pipeline.lib.extract import TEXT_KEY, text_keys
from pipeline.lib.inputs import RAW_DOCUMENT_SCHEMA


def _occurrences() -> pl.DataFrame:
    names = ["a.txt", "a.txt", "b.txt"]
    return pl.DataFrame(
        {
            "document_id": ["a.txt:1", "a.txt:2", "b.txt:1"],
            "source_file": names,
            "ordinal": [1, 2, 1],
            "abstract_clean": ["One abstract about optimisation.", None, "Another about robot grasping."],
        }
    )


def _expected(occurrences: pl.DataFrame) -> pl.DataFrame:
    return occurrences.select("document_id", text_keys(occurrences["abstract_clean"]))


def test_text_keys_come_from_the_maps_parts_that_key_the_files_documents(tmp_path):
    occurrences = _occurrences()
    staged = tmp_path / "a.parquet"
    # A part whose keys differ from the texts' shows that it is read, not hashed again.
    pl.DataFrame({"document_id": ["a.txt:1", "a.txt:2"], TEXT_KEY: ["k1", "k2"]}).write_parquet(staged)
    keys = file_text_keys(occurrences, {"a.txt": staged})
    assert keys["document_id"].to_list() == ["a.txt:1", "a.txt:2", "b.txt:1"]
    assert keys[TEXT_KEY].to_list()[:2] == ["k1", "k2"]
    assert keys.row(2) == _expected(occurrences).row(2)


def test_text_keys_are_hashed_here_without_a_usable_part(tmp_path):
    occurrences = _occurrences()
    unreadable = tmp_path / "a.parquet"
    unreadable.write_bytes(b"not a parquet file")
    other_documents = tmp_path / "b.parquet"
    pl.DataFrame({"document_id": ["b.txt:9"], TEXT_KEY: ["k9"]}).write_parquet(other_documents)
    keys = file_text_keys(occurrences, {"a.txt": unreadable, "b.txt": other_documents})
    assert keys.equals(_expected(occurrences))
    # Occurrences out of file order, without a part: keyed in file order all the same.
    assert file_text_keys(occurrences.reverse(), {}).equals(keys)


def test_text_keys_of_occurrences_without_texts_are_read_by_row():
    occurrences = _occurrences()
    asked = []

    def texts_of(rows: np.ndarray) -> pl.Series:
        asked.extend(rows.tolist())
        return occurrences["abstract_clean"].gather(rows)

    keys = file_text_keys(occurrences.drop("abstract_clean"), {}, texts_of)
    assert keys.equals(_expected(occurrences)) and asked == [0, 1, 2]


_SPACES = "ab \t\n\u00a0\u2003\u3000\u0085\x1c\u200b."


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text(alphabet=st.sampled_from(_SPACES), max_size=12)), max_size=20))
def test_word_counts_are_the_runs_of_non_whitespace(texts):
    series = pl.Series("abstract_clean", texts, dtype=pl.String)
    assert _word_counts(series).equals(series.str.count_matches(r"\S+"), check_names=False)


def test_word_counts_of_clean_texts():
    series = pl.Series(["one two  three", " lead", "trail ", "", None, "a\u00a0b c", "x"])
    assert _word_counts(series).to_list() == [3, 1, 1, 0, None, 3, 1]


def test_canonical_papers_carry_the_fused_fields_not_the_canonical_occurrences_own():
    text = "We study graph neural networks for molecules and report strong results on benchmarks."
    occurrences = pl.DataFrame(
        {
            "document_id": ["a.txt:1", "b.csv:1"],
            "source_file": ["a.txt", "b.csv"],
            "ordinal": [1, 1],
            "abstract_clean": [text, text],
            "title": [None, "Graph Networks for Molecules"],
            "venue": [None, "ICML"],
            "year": [None, 2024],
            "format": ["text", "csv"],
        }
    )
    occurrences = occurrences.with_columns(
        pl.col("abstract_clean").alias("abstract"),
        *(
            pl.lit(None, dtype).alias(name)
            for name, dtype in RAW_DOCUMENT_SCHEMA.items()
            if name not in {*occurrences.columns, "abstract"}
        ),
    )
    matches = match_documents(occurrences.select(MATCH_COLUMNS))
    fused, _ = fused_fields(occurrences.lazy(), matches)
    papers = canonical_papers(occurrences.lazy(), matches, fused, file_text_keys(occurrences, {})).collect()
    assert papers.select("title", "venue", "year", "n_documents").row(0) == (
        "Graph Networks for Molecules",
        "ICML",
        2024,
        2,
    )
    assert papers["text_key"].to_list() == text_keys(pl.Series([text])).to_list()
    assert papers["word_count"].to_list() == [13]


def test_texts_by_row_reads_across_slices_in_the_order_asked(tmp_path, monkeypatch):
    monkeypatch.setattr(assemble, "TEXT_SLICE_ROWS", 3)
    texts = [f"text {row}" if row % 4 else None for row in range(11)]
    path = tmp_path / "occurrences.parquet"
    pl.DataFrame({"abstract_clean": texts}, schema={"abstract_clean": pl.String}).write_parquet(path)
    rows = np.array([10, 0, 5, 3, 10, 7, 2])
    assert texts_by_row(pl.scan_parquet(path))(rows).to_list() == [texts[row] for row in rows]


def test_rows_beside_the_occurrences_are_read_a_slice_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setattr(assemble, "BESIDE_SLICE_ROWS", 3)
    path = tmp_path / "occurrences.parquet"
    occurrences = pl.DataFrame({"document_id": [f"d{row}" for row in range(10)], "text": list("abcdefghij")})
    occurrences.write_parquet(path)
    kept = [1, 2, 6, 7, 8, 9]  # none of the slice 3-5
    side = pl.DataFrame(
        {"row": kept, "paper": [f"p{row}" for row in kept]}, schema={"row": pl.UInt32, "paper": pl.String}
    )
    beside = _beside_rows(pl.scan_parquet(path), occurrences.height, side)

    expected = occurrences[kept].with_columns(side["paper"])
    assert beside.collect().equals(expected)
    assert beside.select(pl.len()).collect().item() == len(kept)
    assert beside.head(4).collect().equals(expected.head(4))
    assert beside.filter(pl.col("paper") > "p6").select("text").collect()["text"].to_list() == list("hij")
    written = tmp_path / "beside.parquet"
    beside.sink_parquet(written)
    assert pl.read_parquet(written).equals(expected)
