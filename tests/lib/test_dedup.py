"""Exact and near-duplicate detection: matches, similarities, chains, stable paper ids."""

from __future__ import annotations

import random

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.lib.assemble import (
    MATCH_COLUMNS,
    MATCH_KEYS,
    canonical_papers,
    documents_table,
    file_signatures,
    file_text_keys,
    fused_fields,
    match_documents,
    texts_by_row,
)
from pipeline.lib.dedup import (
    THRESHOLD,
    Signatures,
    deduplicate,
    normalise_for_hash,
    paper_id_for,
    sign_texts,
    summarise,
)
from pipeline.lib.inputs import RAW_DOCUMENT_SCHEMA

ABSTRACT = (
    "Sparse attention lets transformers read long documents, but most sparse patterns are fixed "
    "before training and ignore the content of the input. We introduce Tidal Attention, a routing "
    "scheme that learns which blocks of tokens each query should visit and adapts the pattern to "
    "every document. Tidal Attention keeps the cost linear in the sequence length and needs no "
    "custom kernels. On three long-document benchmarks it matches dense attention while using a "
    "fifth of the memory, and on genomic sequences of a million tokens it improves accuracy by four "
    "points over the strongest sparse baseline. An analysis of the learned routes shows that early "
    "layers attend locally while later layers link distant sections that discuss the same entity."
)
OTHER_ABSTRACT = (
    "Robots that fold laundry must reason about cloth, a material whose state space is effectively "
    "infinite. We present a planner that represents a garment as a graph of visible corners and "
    "edges and predicts how each grasp changes that graph. The planner is trained only in "
    "simulation, with randomised fabrics, lighting and camera poses, and transfers to a real robot "
    "without fine-tuning. In two hundred trials on unseen garments it folds shirts and towels with a "
    "success rate of eighty-one percent, twice that of an end-to-end policy trained on the same data. "
    "Failures come mostly from garments that hide their corners under a fold."
)
THIRD_ABSTRACT = (
    "Federated learning trains a model across many devices without collecting their data, but the "
    "devices differ in what data they hold and how often they are online. We study how such "
    "heterogeneity slows convergence and propose a correction that weights each client update by an "
    "estimate of its staleness. The correction adds no communication and is compatible with secure "
    "aggregation. We prove convergence at the rate of centralised training under mild assumptions "
    "and show on four benchmarks that it closes most of the gap to an idealised synchronous system."
)


def run(*texts: str, **options) -> pl.DataFrame:
    ids = [f"f.txt:{i}" for i in range(1, len(texts) + 1)]
    return deduplicate(pl.DataFrame({"document_id": ids, "clean_text": list(texts)}), **options)


def words(start: int, stop: int) -> str:
    """A text of distinct made-up words, so that overlaps between texts are exactly controlled."""
    return " ".join(f"token{i}x" for i in range(start, stop))


def test_normalise_for_hash_folds_case_width_and_punctuation():
    assert normalise_for_hash("  Deep-Learning, **for** ＭＬ_systems!\n") == "deep learning for ml systems"
    assert normalise_for_hash("Straße ﬁne") == "strasse fine"
    assert normalise_for_hash("") == ""
    assert normalise_for_hash("x") != normalise_for_hash("y")


def test_paper_id_is_sha256_of_the_normal_form():
    assert paper_id_for("Hello,  WORLD") == paper_id_for("hello world") == "Pb94d27b9934d3e08"
    assert paper_id_for("hello world") != paper_id_for("hello there world")


def test_identical_texts_are_exact_duplicates_of_the_first():
    result = run(ABSTRACT, OTHER_ABSTRACT, ABSTRACT)
    assert result["match"].to_list() == ["first", "first", "exact"]
    assert result["canonical_document_id"].to_list() == ["f.txt:1", "f.txt:2", "f.txt:1"]
    assert result["similarity"].to_list() == [1.0, 1.0, 1.0]
    assert result["paper_id"][0] == result["paper_id"][2] == paper_id_for(ABSTRACT)
    assert result["paper_id"][1] == paper_id_for(OTHER_ABSTRACT)


def test_whitespace_markup_and_case_differences_are_exact_duplicates():
    variant = "  " + ABSTRACT.upper().replace(" ", "\n ", 5).replace("Tidal Attention", "**Tidal-Attention**")
    result = run(ABSTRACT, variant)
    assert result["match"].to_list() == ["first", "exact"]
    assert result["paper_id"][1] == paper_id_for(ABSTRACT)


def test_a_lightly_edited_copy_is_a_near_duplicate():
    edited = ABSTRACT.replace("fifth", "fith").replace(
        "An analysis of the learned routes shows that", "Looking at the routes it learns, we find that"
    )
    result = run(ABSTRACT, OTHER_ABSTRACT, edited)
    assert result["match"].to_list() == ["first", "first", "near"]
    assert result["canonical_document_id"][2] == "f.txt:1"
    assert result["paper_id"][2] == paper_id_for(ABSTRACT)
    assert THRESHOLD < result["similarity"][2] < 1.0


def test_abstracts_sharing_a_sentence_or_boilerplate_are_not_merged():
    shared_sentence = "We release code, data and trained models to support future work on this problem. "
    boilerplate = " Code is available at https://github.com/example/project."
    result = run(
        shared_sentence + ABSTRACT + boilerplate,
        shared_sentence + OTHER_ABSTRACT + boilerplate,
        ABSTRACT.split(". ")[0] + ". " + THIRD_ABSTRACT,
    )
    assert result["match"].to_list() == ["first", "first", "first"]
    assert result["paper_id"].n_unique() == 3


def test_a_chain_is_not_merged_transitively():
    # 120-word texts shifted by 21 words: neighbours share about 0.7 of their shingles, the ends 0.48.
    a, b, c = words(0, 120), words(21, 141), words(42, 162)
    result = run(a, b, c)
    assert result["match"].to_list() == ["first", "near", "first"]
    assert result["canonical_document_id"].to_list() == ["f.txt:1", "f.txt:1", "f.txt:3"]
    assert 0.6 < result["similarity"][1] < 0.75


def test_a_near_duplicate_joins_its_most_similar_canonical_paper():
    base = words(0, 200)
    closer = words(0, 190) + " " + words(500, 510)
    farther = words(0, 170) + " " + words(600, 630)
    result = run(farther, base, closer)
    # base is near farther (J about 0.74); closer is nearer to base, but base is not canonical.
    assert result["match"].to_list() == ["first", "near", "near"]
    assert result["canonical_document_id"].to_list() == ["f.txt:1", "f.txt:1", "f.txt:1"]
    result = run(base, farther, closer)
    assert result["canonical_document_id"].to_list() == ["f.txt:1", "f.txt:1", "f.txt:1"]
    assert result["similarity"][2] > result["similarity"][1]


def test_exact_copies_of_a_near_duplicate_follow_it():
    edited = ABSTRACT.replace("four points", "five points")
    result = run(ABSTRACT, edited, edited.upper())
    assert result["match"].to_list() == ["first", "near", "near"]
    assert result["similarity"][1] == result["similarity"][2] < 1.0
    assert result["paper_id"].n_unique() == 1


def test_paper_ids_do_not_depend_on_order_or_other_documents():
    texts = [ABSTRACT, OTHER_ABSTRACT, THIRD_ABSTRACT, words(0, 50)]
    first = dict(zip(texts, run(*texts)["paper_id"], strict=True))
    shuffled = [*texts, words(1000, 1100), "An unrelated short note about nothing in particular."]
    random.Random(7).shuffle(shuffled)
    second = dict(zip(shuffled, run(*shuffled)["paper_id"], strict=True))
    assert all(first[text] == second[text] == paper_id_for(text) for text in texts)


def test_output_has_one_row_per_input_row_in_order():
    texts = [ABSTRACT, "", OTHER_ABSTRACT, ABSTRACT, "", "one", THIRD_ABSTRACT]
    ids = [f"doc-{i}" for i in range(len(texts))]
    result = deduplicate(pl.DataFrame({"document_id": ids, "clean_text": texts}))
    assert result["document_id"].to_list() == ids
    assert result.columns == ["document_id", "paper_id", "canonical_document_id", "match", "similarity"]
    assert result.schema["similarity"] == pl.Float64
    assert result["match"].to_list() == ["first", "first", "first", "exact", "exact", "first", "first"]
    assert summarise(result) == {"documents": 7, "papers": 5, "exact_merged": 2, "near_merged": 0}


def test_empty_input_gives_empty_output():
    empty = pl.DataFrame(
        {"document_id": [], "clean_text": []}, schema={"document_id": pl.String, "clean_text": pl.String}
    )
    result = deduplicate(empty)
    assert result.height == 0
    assert summarise(result) == {"documents": 0, "papers": 0, "exact_merged": 0, "near_merged": 0}


def test_invalid_parameters_are_rejected():
    with pytest.raises(ValueError):
        run(ABSTRACT, threshold=0.0)
    with pytest.raises(ValueError):
        run(ABSTRACT, shingle_size=0)


# Characters that NFKC or casefold change, combining marks, non-Latin scripts and separators: the
# vectorised normal form must agree with normalise_for_hash on every text.
_TRICKY = "aZ09 _-.,\n\t\u00a0…ﬁßẞİıΣσςΩé\u0301ǰ한\u1100\u1161²½ＡℌǄ中𝔘𐐀\U0001f600\u0345ΐµKÅⅷⓐ"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(_TRICKY), max_size=40), min_size=1, max_size=30))
def test_paper_ids_match_paper_id_for_on_any_text(texts):
    result = run(*texts)
    firsts = result.with_columns(text=pl.Series(texts)).filter(pl.col("match") == "first")
    assert all(
        paper_id_for(text) == pid for text, pid in zip(firsts["text"], firsts["paper_id"], strict=True)
    )
    exact = result.filter(pl.col("match") == "exact")
    assert all(
        normalise_for_hash(texts[int(row["document_id"].split(":")[1]) - 1])
        == normalise_for_hash(texts[int(row["canonical_document_id"].split(":")[1]) - 1])
        for row in exact.iter_rows(named=True)
    )


def test_occurrences_are_matched_in_file_order_whatever_order_they_come_in():
    text = "We study graph neural networks for molecules and report strong results on benchmarks."
    raw = pl.DataFrame(
        {
            "document_id": ["b.txt:1", "a.txt:2", "a.txt:1"],
            "source_file": ["b.txt", "a.txt", "a.txt"],
            "ordinal": [1, 2, 1],
            "abstract_clean": [text, "A different abstract about kernels and their spectra.", text],
        }
    )
    in_order = match_documents(raw.sort("source_file", "ordinal"))
    shuffled = match_documents(raw)
    assert shuffled.equals(in_order)
    assert shuffled["document_id"].to_list() == ["a.txt:1", "a.txt:2", "b.txt:1"]
    assert shuffled["match"].to_list() == ["first", "first", "exact"]


def test_the_tables_come_out_in_file_order_whatever_order_the_occurrences_come_in():
    text = "We study graph neural networks for molecules and report strong results on benchmarks."
    other = "A different abstract about kernels and their spectra."
    raw = pl.DataFrame(
        {
            "document_id": ["b.txt:1", "a.txt:2", "a.txt:1"],
            "source_file": ["b.txt", "a.txt", "a.txt"],
            "ordinal": [1, 2, 1],
            "line_start": [1, 3, 1],
            "line_end": [1, 3, 1],
            "venue": ["V", "V", "V"],
            "year": [2024, 2024, 2024],
            "raw_text": [text, other, text],
            "abstract": [text, other, text],
            "abstract_clean": [text, other, text],
            "locator": ["lines 1-1", "lines 3-3", "lines 1-1"],
            "format": ["text", "text", "text"],
        }
    )
    raw = raw.with_columns(
        pl.lit(None, dtype).alias(name)
        for name, dtype in RAW_DOCUMENT_SCHEMA.items()
        if name not in raw.columns
    )
    tables = {}
    for name, occurrences in (("in order", raw.sort("source_file", "ordinal")), ("shuffled", raw)):
        matches = match_documents(occurrences.select(MATCH_COLUMNS))
        fused, _ = fused_fields(occurrences.lazy(), matches)
        tables[name] = (
            documents_table(occurrences.lazy(), matches).collect(),
            canonical_papers(occurrences.lazy(), matches, fused, file_text_keys(occurrences, {})).collect(),
        )
    documents, papers = tables["shuffled"]
    assert documents.equals(tables["in order"][0]) and papers.equals(tables["in order"][1])
    assert documents["document_id"].to_list() == ["a.txt:1", "a.txt:2", "b.txt:1"]
    assert documents["paper_id"][0] == documents["paper_id"][2] != documents["paper_id"][1]
    assert papers["abstract"].to_list() == [text, other]
    assert papers["n_documents"].to_list() == [2, 1]
    assert papers["source_files"].to_list() == [["a.txt", "b.txt"], ["a.txt"]]


def _two_files(texts_a, texts_b):
    names = ["a.txt"] * len(texts_a) + ["b.txt"] * len(texts_b)
    ordinals = [*range(1, len(texts_a) + 1), *range(1, len(texts_b) + 1)]
    return pl.DataFrame(
        {
            "document_id": [f"{n}:{o}" for n, o in zip(names, ordinals, strict=True)],
            "source_file": names,
            "ordinal": ordinals,
            "abstract_clean": [*texts_a, *texts_b],
        }
    )


def _same_signatures(left, right):
    return all(
        np.array_equal(getattr(left, name), getattr(right, name))
        for name in ("digests", "band_keys", "sketches", "has_shingles")
    )


def _stage(occurrences, name, directory):
    """What a file's map writes: the signatures of its texts, as a Parquet part."""
    path = directory / f"{name}.signatures.parquet"
    sign_texts(occurrences.filter(pl.col("source_file") == name)["abstract_clean"]).write(path)
    return path


def test_staged_signatures_of_each_file_give_what_signing_again_gives(tmp_path):
    text = "We study graph neural networks for molecules and report strong results on benchmarks."
    near = text.replace("strong", "very strong")
    occurrences = _two_files([text, "Kernels and their spectra, studied at length."], [near])
    staged = {name: _stage(occurrences, name, tmp_path) for name in ("a.txt", "b.txt")}
    signatures, signed = file_signatures(occurrences, staged)
    assert signed == []
    assert _same_signatures(signatures, sign_texts(occurrences["abstract_clean"]))
    with_staged = match_documents(occurrences, signatures)
    assert with_staged.equals(match_documents(occurrences))
    assert with_staged["match"].to_list() == ["first", "first", "near"]


def _recording(texts_of):
    """texts_of, keeping every row it was asked for."""
    asked = []

    def recorded(rows):
        asked.extend(rows.tolist())
        return texts_of(rows)

    return recorded, asked


def test_texts_by_row_reads_the_rows_asked_for_in_the_order_asked(tmp_path):
    path = tmp_path / "occurrences.parquet"
    pl.DataFrame({"abstract_clean": ["zero", None, "two", "three"]}).write_parquet(path)
    texts_of = texts_by_row(pl.scan_parquet(path))
    assert texts_of(np.array([3, 0, 2])).to_list() == ["three", "zero", "two"]
    assert texts_of(np.array([1])).to_list() == [None]
    # Nothing asked, nothing read (this scan would fail if it were).
    assert texts_by_row(pl.scan_parquet(tmp_path / "no-such-file.parquet"))(np.array([], np.int64)).is_empty()


def test_without_their_texts_occurrences_match_as_with_them_reading_only_the_pairs_verified(tmp_path):
    near = ABSTRACT.replace("routing scheme", "routing method").replace("four points", "five points")
    texts_a = [ABSTRACT, OTHER_ABSTRACT, THIRD_ABSTRACT, ABSTRACT.upper()]
    occurrences = _two_files(texts_a, [near, "Kernels and their spectra, studied at length."])
    path = tmp_path / "occurrences.parquet"
    occurrences.write_parquet(path)
    staged = {"a.txt": _stage(occurrences, "a.txt", tmp_path)}
    keys = occurrences.select("document_id", "source_file", "ordinal")
    texts_of, asked = _recording(texts_by_row(pl.scan_parquet(path)))
    signatures, signed = file_signatures(keys, staged, texts_of)
    assert signed == ["b.txt"] and sorted(asked) == [4, 5]
    asked.clear()
    matches = match_documents(keys, signatures, texts_of)
    assert matches.equals(match_documents(occurrences))
    assert matches["match"].to_list() == ["first", "first", "first", "exact", "near", "first"]
    # Only the candidate pair (the abstract and its near copy) was read, not the other texts.
    assert sorted(asked) == [0, 4]
    assert set(MATCH_KEYS) == set(MATCH_COLUMNS) - {"abstract_clean"}


def test_occurrences_without_their_texts_must_come_in_file_order_with_signatures():
    occurrences = _two_files(["One abstract about optimisation."], ["Another about robot grasping."])
    keys = occurrences.select("document_id", "source_file", "ordinal")
    signatures = sign_texts(occurrences["abstract_clean"])
    texts_of = occurrences["abstract_clean"].gather
    with pytest.raises(ValueError, match="file order"):
        match_documents(keys.reverse(), signatures, texts_of)
    with pytest.raises(ValueError, match="file order"):
        file_signatures(keys.reverse(), {}, texts_of)
    with pytest.raises(ValueError, match="need signatures"):
        match_documents(keys, None, texts_of)


def test_a_file_without_staged_signatures_is_signed_here(tmp_path):
    occurrences = _two_files(["One abstract about optimisation."], ["Another about robot grasping."])
    signatures, signed = file_signatures(occurrences, {"a.txt": _stage(occurrences, "a.txt", tmp_path)})
    assert signed == ["b.txt"]
    assert _same_signatures(signatures, sign_texts(occurrences["abstract_clean"]))


def test_unreadable_or_mismatched_staged_signatures_are_not_used(tmp_path):
    unreadable = tmp_path / "a.parquet"
    unreadable.write_bytes(b"not a parquet file")
    assert Signatures.read(unreadable) is None
    one_text = tmp_path / "b.parquet"
    sign_texts(pl.Series(["a single text"])).write(one_text)
    more = _two_files(["One abstract about optimisation."], ["Robot grasping, rewritten.", "And more."])
    signatures, signed = file_signatures(more, {"a.txt": unreadable, "b.txt": one_text})
    assert signed == ["a.txt", "b.txt"]
    assert _same_signatures(signatures, sign_texts(more["abstract_clean"]))


def test_signatures_read_back_as_written(tmp_path):
    texts = pl.Series(["Graph networks for molecules.", "", "Kernels and spectra of graphs, at length."])
    signed = sign_texts(texts)
    signed.write(tmp_path / "s.parquet")
    assert _same_signatures(Signatures.read(tmp_path / "s.parquet"), signed)
    sign_texts(pl.Series([], dtype=pl.String)).write(tmp_path / "none.parquet")
    assert len(Signatures.read(tmp_path / "none.parquet")) == 0


def test_signatures_of_other_lengths_are_refused():
    occurrences = _two_files(["One abstract about optimisation."], ["Another about robot grasping."])
    with pytest.raises(ValueError, match="1 signatures for 2 texts"):
        deduplicate(
            occurrences.select("document_id", clean_text="abstract_clean"),
            signatures=sign_texts(occurrences["abstract_clean"].head(1)),
        )
