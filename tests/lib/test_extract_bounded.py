"""Extraction stays bounded on hostile abstracts: time grows with the text, not with the acronyms
or capitals in it, and a paper keeps at most MAX_MENTIONS mentions, flagged when cut short."""

import time

import polars as pl
import pytest

from pipeline.lib.extract import MAX_MENTIONS, extract_all
from pipeline.lib.extract.entities import extract_entities
from pipeline.lib.extract.lexicons import load_lexicon

# One long form defined under 250 acronyms: every occurrence of it used to be a mention of every
# acronym (45,474 rows, minutes of build time).
ACRONYMS = "We propose networks: " + " ".join(f"Foo Bar Net (FBN{i})" for i in range(250))
# Tokens that used to take time in the square of their length (60,000 characters: minutes).
LONG_TOKENS = ["A" * 60_000, "A1" * 30_000, "A-" * 30_000 + "A", "A" + "a" * 59_999]
# Generous: the point is seconds against minutes, on a busy machine.
SECONDS = 5


def _seconds(text: str) -> float:
    lexicon = load_lexicon()
    started = time.perf_counter()
    extract_entities(text, lexicon)
    return time.perf_counter() - started


def test_one_long_form_under_many_acronyms_is_fast_and_capped():
    assert _seconds(ACRONYMS) < SECONDS
    found = extract_entities(ACRONYMS)
    assert found.capped
    assert len(found.mentions) == MAX_MENTIONS
    assert all(ACRONYMS[m.start : m.end] == m.text for m in found.mentions)
    # The first mentions in the text are the ones kept: from the first long form, not to the end.
    assert found.mentions == sorted(found.mentions)
    assert found.mentions[0].start == ACRONYMS.index("Foo Bar Net")
    assert found.mentions[-1].end < ACRONYMS.rindex("Foo Bar Net")


@pytest.mark.parametrize("token", LONG_TOKENS, ids=["capitals", "digits", "hyphens", "capitalised"])
def test_a_long_token_is_fast(token):
    assert _seconds(token) < SECONDS
    assert _seconds(f"We propose {token}, a method for sorting.") < SECONDS


def test_the_cap_is_recorded_per_paper_and_normal_papers_are_not_capped():
    papers = pl.DataFrame(
        {
            "paper_id": ["hostile", "normal"],
            "abstract_clean": [ACRONYMS, "We propose Scene Depth Fusion (SDF). SDF beats LoRA."],
        }
    )
    extraction = extract_all(papers)
    assert extraction.capped_papers == ["hostile"]
    counts = dict(extraction.mentions.group_by("paper_id").len().iter_rows())
    assert counts["hostile"] == MAX_MENTIONS
    assert 0 < counts["normal"] < MAX_MENTIONS
    # Kept rows carry the flag to the next build, which reuses them.
    again = extract_all(papers, previous=extraction.paper_rows)
    assert again.reused_papers == 2
    assert again.capped_papers == ["hostile"]


def test_a_form_shared_by_many_acronyms_names_only_a_few_of_them_at_each_occurrence():
    found = extract_entities(ACRONYMS)
    by_span: dict[tuple[int, int], int] = {}
    for m in found.mentions:
        by_span[(m.start, m.end)] = by_span.get((m.start, m.end), 0) + 1
    assert max(by_span.values()) <= 5  # four holders of the form, and the acronym defined there
