"""Merging across sources: ids, text, titles, and the veto on different ids of one kind."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.lib.dedup import SHINGLE_SIZE, _verified_jaccard, deduplicate, normalise_for_hash, paper_id_for
from pipeline.lib.merge import (
    MAX_PAPERS_PER_TITLE,
    MAX_TEXTS_PER_ID,
    STRONG_IDS,
    TITLE_THRESHOLD,
    _normal_forms,
    merge_occurrences,
    normalise_title,
)

TITLE = "Learning Sparse Graph Embeddings at Scale"


def words(seed: int, n: int = 60) -> list[str]:
    """n made-up words, distinct across seeds, so that texts of different seeds share no bigram."""
    rng = random.Random(seed)
    return [f"w{seed}x{rng.randrange(10**6)}" for _ in range(n)]


def text(*segments: list[str]) -> str:
    return " ".join(word for segment in segments for word in segment)


def occurrence(abstract: str, title: str | None = None, **ids: str) -> dict:
    return {"abstract_clean": abstract, "title": title, **{kind: ids.get(kind) for kind in STRONG_IDS}}


def merge(records: list[dict], **kwargs: float) -> pl.DataFrame:
    frame = pl.DataFrame(
        [
            {"document_id": f"f.txt:{i + 1}", "source_file": "f.txt", "ordinal": i + 1, **r}
            for i, r in enumerate(records)
        ],
        schema_overrides={"title": pl.String, **dict.fromkeys(STRONG_IDS, pl.String)},
    )
    text_matches = deduplicate(frame.select("document_id", clean_text="abstract_clean"))
    return merge_occurrences(frame, text_matches, **kwargs)


def jaccard(a: str, b: str) -> float:
    texts_of = pl.Series([a, b]).gather
    return float(_verified_jaccard(texts_of, np.arange(2), np.array([0]), np.array([1]), SHINGLE_SIZE)[0])


def same_paper(result: pl.DataFrame, *rows: int) -> bool:
    return result["paper_id"].gather(list(rows)).n_unique() == 1


A, B, C, D = words(1), words(2), words(3), words(4)


def test_without_ids_or_titles_the_text_dedup_result_is_kept():
    records = [occurrence(text(A, B)), occurrence(text(A, B)), occurrence(text(C, D))]
    result = merge(records)
    assert result["match"].to_list() == ["first", "exact", "first"]
    assert result["similarity"].to_list() == [1.0, 1.0, 1.0]
    assert result["paper_id"][0] == paper_id_for(text(A, B))
    assert result.columns == ["document_id", "paper_id", "canonical_document_id", "match", "similarity"]


def test_a_shared_id_merges_different_abstracts_into_the_earliest_paper():
    first, rewritten = text(A, B), text(C, D)
    result = merge([occurrence(first, doi="10.1/x"), occurrence(rewritten, doi="10.1/x")])
    assert result["match"].to_list() == ["first", "id"]
    assert result["paper_id"].to_list() == [paper_id_for(first)] * 2
    assert result["canonical_document_id"].to_list() == ["f.txt:1", "f.txt:1"]
    assert result["similarity"][1] == 0.0  # the abstracts share no bigram


def test_ids_of_different_kinds_chain_when_no_kind_disagrees():
    records = [
        occurrence(text(A), doi="10.1/x"),
        occurrence(text(B), doi="10.1/x", arxiv_id="2401.00001"),
        occurrence(text(C), arxiv_id="2401.00001"),
    ]
    result = merge(records)
    assert same_paper(result, 0, 1, 2)
    assert result["match"].to_list() == ["first", "id", "id"]


def test_an_id_chain_through_different_dois_is_cut_before_the_second_doi():
    records = [
        occurrence(text(A), doi="10.1/x"),
        occurrence(text(B), doi="10.1/x", arxiv_id="2401.00001"),
        occurrence(text(C), doi="10.1/z", arxiv_id="2401.00001"),
    ]
    result = merge(records)
    assert same_paper(result, 0, 1)
    assert not same_paper(result, 1, 2)
    assert result["match"].to_list() == ["first", "id", "first"]


def test_exact_copies_with_different_dois_are_different_papers():
    abstract = text(A, B)
    records = [
        occurrence(abstract, doi="10.1/x"),
        occurrence(abstract, doi="10.1/y"),
        occurrence(abstract),  # no id: stays with the canonical occurrence
        occurrence(abstract, doi="10.1/y", arxiv_id="2401.00001"),
    ]
    result = merge(records)
    assert same_paper(result, 0, 2) and same_paper(result, 1, 3)
    assert not same_paper(result, 0, 1)
    assert result["match"].to_list() == ["first", "first", "exact", "exact"]
    assert result["paper_id"][0] == paper_id_for(abstract)
    assert result["paper_id"][1] != paper_id_for(abstract)
    assert result["paper_id"][1].startswith("P") and len(result["paper_id"][1]) == 17
    # Stable: the same input gives the same split id, the digest of the normal form and the ids.
    assert merge(records)["paper_id"].equals(result["paper_id"])
    key = f"{normalise_for_hash(abstract)}\ndoi:10.1/y"
    assert result["paper_id"][1] == "P" + hashlib.sha256(key.encode()).hexdigest()[:16]


# Characters that NFKC or casefold change, combining marks, non-Latin scripts and separators.
_TRICKY = "aZ09 _-.,\n\t\u00a0…ﬁßẞİıΣσςΩé\u0301ǰ한\u1100\u1161²½ＡℌǄ中𝔘𐐀\U0001f600\u0345ΐµKÅⅷⓐ"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text(alphabet=st.sampled_from(_TRICKY), max_size=40)), max_size=30))
def test_normal_forms_are_normalise_for_hash_in_utf8(texts):
    expected = [normalise_for_hash(text or "").encode() for text in texts]
    assert _normal_forms(pl.Series(texts, dtype=pl.String)) == expected


def test_near_copies_with_different_dois_are_split_and_rescored():
    base = words(5, 120)
    near = base[:100] + words(6, 20)
    records = [occurrence(" ".join(base), doi="10.1/x"), occurrence(" ".join(near), doi="10.1/y")]
    assert deduplicate(
        pl.DataFrame({"document_id": ["a", "b"], "clean_text": [" ".join(base), " ".join(near)]})
    )["match"].to_list() == ["first", "near"]
    result = merge(records)
    assert result["match"].to_list() == ["first", "first"]
    assert not same_paper(result, 0, 1)


def test_different_ids_of_another_kind_do_not_split_a_text_group():
    records = [occurrence(text(A, B), doi="10.1/x"), occurrence(text(A, B), arxiv_id="2401.00001")]
    assert merge(records)["match"].to_list() == ["first", "exact"]


def test_an_id_on_too_many_abstracts_joins_nothing():
    records = [occurrence(text(words(100 + i)), doi="10.1/volume") for i in range(MAX_TEXTS_PER_ID + 1)]
    assert merge(records)["match"].to_list() == ["first"] * (MAX_TEXTS_PER_ID + 1)


def test_same_title_and_a_rewritten_abstract_merge_as_title():
    first, rewritten = text(A, B, C), text(C, D)
    similarity = jaccard(first, rewritten)
    assert TITLE_THRESHOLD <= similarity < 0.55  # too far apart for the near stage
    result = merge([occurrence(first, TITLE), occurrence(rewritten, TITLE.upper() + ".")])
    assert result["match"].to_list() == ["first", "title"]
    assert result["similarity"][1] == pytest.approx(similarity)
    assert result["paper_id"].to_list() == [paper_id_for(first)] * 2


def test_the_title_can_come_from_any_occurrence_of_a_text_group():
    first, rewritten = text(A, B, C), text(C, D)
    records = [occurrence(first), occurrence(first, TITLE), occurrence(rewritten, TITLE)]
    result = merge(records)
    assert result["match"].to_list() == ["first", "exact", "title"]


def test_same_title_with_unrelated_abstracts_stays_apart():
    result = merge([occurrence(text(A, B), TITLE), occurrence(text(C, D), TITLE)])
    assert result["match"].to_list() == ["first", "first"]


def test_the_title_threshold_is_a_parameter():
    first, rewritten = text(A, B, C), text(C, D)
    records = [occurrence(first, TITLE), occurrence(rewritten, TITLE)]
    assert merge(records, title_threshold=0.9)["match"].to_list() == ["first", "first"]
    with pytest.raises(ValueError):
        merge(records, title_threshold=0.0)


def test_short_titles_never_merge():
    first, rewritten = text(A, B, C), text(C, D)
    result = merge([occurrence(first, "Introduction"), occurrence(rewritten, "Introduction")])
    assert result["match"].to_list() == ["first", "first"]


def test_a_title_on_many_papers_is_generic_and_not_used():
    shared = words(9)
    records = [occurrence(text(shared, words(200 + i, 30)), "Reinforcement Learning") for i in range(5)]
    assert len(records) > MAX_PAPERS_PER_TITLE
    assert jaccard(records[0]["abstract_clean"], records[1]["abstract_clean"]) >= TITLE_THRESHOLD
    assert merge(records)["match"].to_list() == ["first"] * 5
    assert merge(records[:2])["match"].to_list() == ["first", "title"]


def test_title_merges_form_stars_not_chains():
    # B verifies against A and C against B, but C not against A: C stays its own paper.
    records = [occurrence(text(A, B), TITLE), occurrence(text(B, C), TITLE), occurrence(text(C, D), TITLE)]
    assert jaccard(text(A, B), text(C, D)) < TITLE_THRESHOLD
    result = merge(records)
    assert result["match"].to_list() == ["first", "title", "first"]


def test_different_ids_veto_a_title_merge_even_through_a_third_occurrence():
    records = [
        occurrence(text(A, B, C), TITLE),
        occurrence(text(B, C, D), TITLE, doi="10.1/x"),
        occurrence(text(C, D, A), TITLE, doi="10.1/y"),
    ]
    result = merge(records)
    assert result["match"].to_list() == ["first", "title", "first"]
    assert not same_paper(result, 0, 2)


def test_a_group_joined_by_id_and_then_by_title_is_labelled_title():
    records = [
        occurrence(text(A, B, C), TITLE),
        occurrence(text(C, D), TITLE, doi="10.1/x"),
        occurrence(text(words(7)), doi="10.1/x"),
    ]
    result = merge(records)
    assert same_paper(result, 0, 1, 2)
    assert result["match"].to_list() == ["first", "title", "title"]


def test_rows_must_match_the_text_dedup_result():
    frame = pl.DataFrame(
        [{"document_id": "a", **occurrence(text(A))}, {"document_id": "b", **occurrence(text(B))}],
        schema_overrides={"title": pl.String, **dict.fromkeys(STRONG_IDS, pl.String)},
    )
    text_matches = deduplicate(frame.select("document_id", clean_text="abstract_clean"))
    with pytest.raises(ValueError):
        merge_occurrences(frame, text_matches.reverse())


def test_normalise_title():
    titles = pl.Series(["  Ａ Study: of *LLMs*—again ", None])
    assert pl.select(normalise_title(pl.lit(titles))).to_series().to_list() == ["a study of llms again", None]
