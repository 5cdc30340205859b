"""Merging occurrences across sources: strong external ids, abstract text, then titles.

`merge_occurrences` takes the text-dedup result (`pipeline.lib.dedup.deduplicate`: exact and
verified near-duplicate abstracts) and adds the evidence that other sources carry. Evidence, from
strongest to weakest, each recorded in `documents.match`:

1. `id`: a shared strong id (STRONG_IDS: DOI, arXiv id, OpenReview forum id, S2 corpus id,
   OpenAlex id);
2. `exact` and `near`: the same normalised abstract, a verified near-duplicate (from dedup);
3. `title`: the same normalised title (more than 15 characters) and an abstract rewritten between
   versions (an arXiv or OpenReview version against the camera-ready), merged only when the
   abstracts still have a Jaccard similarity of word bigrams of at least TITLE_THRESHOLD.

The veto. Two occurrences with different values of the same kind of strong id (two DOIs, say)
never end up in one paper, whatever the other evidence says.

How the groups are built, in four steps, each on the result of the one before:

1. Text groups (dedup's papers) are split where they break the veto. When a text group carries
   two values of one kind, its occurrences are visited in file order and each joins the first
   part whose ids it agrees with (an occurrence without ids agrees with every part, so it stays
   with the canonical occurrence); an occurrence that agrees with none starts a new part. Each new
   part is a paper of its own: its first occurrence is canonical and its paper_id is derived
   from its normalised text and its ids (`_split_paper_id`), so that it differs from the paper
   whose text it shares.
2. Ids: parts that share an id value are put together (connected components of parts and
   id values). A component that holds no two values of one kind is one group: sharing an
   identifier is an equivalence, so taking the closure here cannot join papers that their ids
   say are different. A component that would break the veto is split greedily: its parts in file
   order each join the earliest group that it shares an id with and agrees with, else start a new
   one. An id value carried by more than MAX_TEXTS_PER_ID parts is not used to join: an
   identifier names one work, and a value on that many different abstracts is a volume DOI or a
   placeholder that would build a giant cluster (it still counts for the veto).
3. Titles: groups that share a normalised title of more than MIN_TITLE_CHARS - 1 characters are
   candidates, and each candidate pair is verified with the Jaccard similarity of the two groups'
   canonical abstracts. Assignment is dedup's star rule, not a closure: in file order, a group
   joins the most similar earlier group (the earliest on a tie) that verifies at
   >= TITLE_THRESHOLD, is itself not joined to another, and whose ids (with those of the groups
   that joined it already) agree with its own. A title shared by more than MAX_PAPERS_PER_TITLE
   groups is generic (a yearly preface, a tutorial, a keynote) and is not used at all.
4. Each paper keeps the paper_id of its earliest canonical occurrence in file order, so a paper
   whose evidence did not change keeps its id; that occurrence is its `first`.

`match` and `similarity` of every other occurrence say how it reached its paper: an occurrence of
the canonical occurrence's own text group keeps dedup's `exact` or `near` and similarity; one whose
text group joined by id is `id`, by title `title` (a group that joined by id a group that then
joined by title is `title`: the weakest link on its way), with the verified Jaccard similarity of
its abstract with the canonical occurrence's, the measure dedup uses. In a part split off by the
veto, an occurrence is `exact` when its normalised text is the part's first's, else `near` with
that similarity.

Why TITLE_THRESHOLD = 0.2 and MAX_PAPERS_PER_TITLE = 4, measured with
`benchmarks/title_merge_calibration.py` on the real corpus (31,971 abstracts with titles):

- 3,200 pairs of occurrences share a normalised title of more than 15 characters; dedup puts
  3,171 of them in one paper (recall 0.9909). The 29 others, checked by hand, are all one work at
  two venues (ICLR 2013-2018 versions against their ICML, NeurIPS or AISTATS papers, two ICML 2024
  copies), and their bigram Jaccard is spread evenly from 0.04 to 0.53, with no gap to put a
  threshold in. At 0.2 the title rule merges 19 of them (recall 0.9969); at 0.3, 13 (0.9950, just
  at the 0.995 asked for); at 0.1, 26 (0.9991).
- Different papers: the 5,498 pairs in different text groups whose titles differ but share at
  least half their words (papers on one topic) have Jaccard 0.022 at the median, 0.106 at the
  99th percentile and 0.317 at the 99.9th; the highest, 0.53, is again one work retitled, and
  different papers such as GraphGAN and NetGAN reach 0.27. Same-title pairs of different papers
  exist only among short titles: the yearly "Preface" of one proceedings, 8 of them, Jaccard up
  to 0.42 with each other. 0.2 keeps most of the recall while asking the abstracts to share more
  than all but about 1 in 500 pairs of same-topic papers; short titles are left out, and a title
  on more than 4 groups is treated as generic (on the corpus no title of more than 15 characters
  is on more than 2 text groups).

Ids on the corpus: 10,397 occurrences carry an OpenReview forum id; 527 ids are on two (CoRL
2024/25 in two sources), all already merged by text, so the id rule adds no merge there. The veto
splits one text group: an ICLR 2018 record titled "Withdrawn" whose abstract is exactly that of
another submission under a different forum id.

Speed: 200,000 generated occurrences (a sixth of them copies with a DOI or a rewritten abstract
under the same title) in 2.5 s on 2 cores, after dedup; the Python loops run only over
vetoed groups and title pairs that verify.
"""

from __future__ import annotations

import hashlib

import numpy as np
import polars as pl

from pipeline.lib.dedup import (
    _CHUNK_BYTES,
    SHINGLE_SIZE,
    TextSource,
    _chunk_bounds,
    _map_in_threads,
    _tokenise,
    _verified_jaccard,
)
from pipeline.lib.schema import STRONG_IDS

TITLE_THRESHOLD = 0.2
# Titles count when their normal form has more than 15 characters.
MIN_TITLE_CHARS = 16
MAX_TEXTS_PER_ID = 8
MAX_PAPERS_PER_TITLE = 4

_OUTPUT_SCHEMA = {
    "document_id": pl.String,
    "paper_id": pl.String,
    "canonical_document_id": pl.String,
    "match": pl.String,
    "similarity": pl.Float64,
}


def normalise_title(titles: pl.Expr) -> pl.Expr:
    """dedup's normal form, in polars: NFKC, lower case, every run of non-alphanumeric characters
    one space, stripped (lower case where dedup case-folds: titles differing only in 'ß' and 'ss'
    stay apart)."""
    return titles.str.normalize("NFKC").str.to_lowercase().str.replace_all(r"[\W_]+", " ").str.strip_chars()


def merge_occurrences(
    occurrences: pl.DataFrame,
    text_matches: pl.DataFrame,
    *,
    texts_of: TextSource | None = None,
    title_threshold: float = TITLE_THRESHOLD,
) -> pl.DataFrame:
    """The paper of every occurrence after ids, text and titles: one row per input row, in order.

    `occurrences` are in file order with document_id, abstract_clean, title and the STRONG_IDS
    columns (nullable strings, normalised). `text_matches` is the result of `deduplicate` (or
    `assemble.match_documents`) for the same rows in the same order: document_id, paper_id, match,
    similarity. Output columns: document_id, paper_id, canonical_document_id, match ('first',
    'id', 'exact', 'near' or 'title') and similarity (1.0 for first and exact; the bigram Jaccard
    similarity with the canonical occurrence otherwise). The rules are in the module docstring.
    Occurrences without `abstract_clean` come with `texts_of`, their texts by row: only those of
    rows merged by ids or titles are read.
    """
    if not 0.0 < title_threshold <= 1.0:
        raise ValueError(f"title_threshold must be in (0, 1], got {title_threshold}")
    document_ids = occurrences.get_column("document_id")
    if not text_matches.get_column("document_id").equals(document_ids):
        raise ValueError("text_matches must have one row per occurrence, in the same order")
    n_rows = occurrences.height
    if texts_of is None:
        texts_of = occurrences.get_column("abstract_clean").cast(pl.String).gather

    def normal_forms_at(rows: np.ndarray) -> list[bytes]:
        return _normal_forms(texts_of(rows.astype(np.int64)))

    # dedup's canonical occurrence is the first row of its group in the order it was given.
    text_group = (
        text_matches.select("paper_id")
        .with_row_index("row")
        .select(pl.col("row").min().over("paper_id"))
        .to_series()
        .to_numpy()
        .astype(np.int64)
    )
    ids = (
        occurrences.select(
            pl.int_range(pl.len(), dtype=pl.Int64).alias("row"), pl.col(STRONG_IDS).cast(pl.String)
        )
        .unpivot(index="row", variable_name="kind", value_name="value")
        .filter(pl.col("value").is_not_null() & (pl.col("value") != ""))
    )

    unit = _split_vetoed_text_groups(text_group, ids)
    group = _join_by_ids(unit, ids)
    titles = occurrences.select(normalise_title(pl.col("title").cast(pl.String))).to_series()
    paper = _join_by_titles(group, titles, texts_of, ids, title_threshold)

    # A paper's label is the row of its earliest canonical occurrence (steps 1 to 3 keep it so).
    canonical = paper
    rows = np.arange(n_rows)
    paper_ids = text_matches.get_column("paper_id").to_numpy().astype(object)
    split_first = np.flatnonzero((unit == rows) & (text_group != rows))
    if len(split_first):
        ids_of = _ids_by_row(ids.filter(pl.col("row").is_in(split_first.tolist())))
        paper_ids[split_first] = [
            _split_paper_id(normal, ids_of.get(int(row), {}))
            for row, normal in zip(split_first.tolist(), normal_forms_at(split_first), strict=True)
        ]

    match = text_matches.get_column("match").to_numpy().astype(object)
    similarity = text_matches.get_column("similarity").to_numpy().astype(np.float64)
    is_first = rows == canonical
    in_split = (text_group[canonical] != canonical) & (unit == canonical) & ~is_first
    by_id = (unit != canonical) & (group == canonical)
    by_title = group != canonical
    match[by_id] = "id"
    match[by_title] = "title"
    rescored = np.flatnonzero(by_id | by_title | in_split)
    similarity[rescored] = _verified_jaccard(texts_of, rows, canonical[rescored], rescored, SHINGLE_SIZE)
    split_rows = np.flatnonzero(in_split)
    # Both sides of each pair in one read: texts by row may be read from a file.
    both = normal_forms_at(np.concatenate((split_rows, canonical[split_rows])))
    pairs = zip(both[: len(split_rows)], both[len(split_rows) :], strict=True)
    same_text = np.array([a == b for a, b in pairs], dtype=bool)
    match[split_rows] = np.where(same_text, "exact", "near")
    similarity[split_rows[same_text]] = 1.0
    match[is_first] = "first"
    similarity[is_first] = 1.0
    return pl.DataFrame(
        {
            "document_id": document_ids,
            "paper_id": pl.Series(paper_ids[canonical], dtype=pl.String),
            "canonical_document_id": document_ids.gather(canonical),
            "match": pl.Series(match, dtype=pl.String),
            "similarity": similarity,
        },
        schema=_OUTPUT_SCHEMA,
    )


def _agrees(ids: dict[str, str], other: dict[str, str]) -> bool:
    """No kind of id with a different value in the two."""
    return all(ids.get(kind, value) == value for kind, value in other.items())


def _ids_by_row(ids: pl.DataFrame, by: str = "row") -> dict[int, dict[str, str]]:
    """{row (or `by`): {kind: value}} from a long frame of ids."""
    found: dict[int, dict[str, str]] = {}
    for key, kind, value in ids.select(by, "kind", "value").iter_rows():
        found.setdefault(key, {})[kind] = value
    return found


def _normal_forms(texts: pl.Series) -> list[bytes]:
    """`dedup.normalise_for_hash` of each text (a null text is the empty one) as UTF-8, by dedup's
    vectorised tokeniser a chunk at a time: the regular expression per text took 12 s for the
    100,000 texts split off by the veto at 1M arXiv records."""
    texts = texts.fill_null("")

    def chunk(bounds: tuple[int, int]) -> list[bytes]:
        tokens = _tokenise(texts.slice(bounds[0], bounds[1] - bounds[0]))
        normalised = tokens.normalised.tobytes()
        return [
            normalised[start:end]
            for start, end in zip(tokens.text_start.tolist(), tokens.text_end.tolist(), strict=True)
        ]

    bounds = _chunk_bounds(texts.str.len_bytes().to_numpy(), _CHUNK_BYTES)
    return [normal for part in _map_in_threads(chunk, bounds) for normal in part]


def _split_paper_id(normal: bytes, ids: dict[str, str]) -> str:
    """Paper id of a part split off a text group by the veto, from the UTF-8 normal form of its text
    (`_normal_forms`): its text shares the digest that names the group's paper, so its ids go into
    the digest too."""
    key = b"\n".join([normal, *sorted(f"{kind}:{value}".encode() for kind, value in ids.items())])
    return "P" + hashlib.sha256(key).hexdigest()[:16]


def _vetoed(ids: pl.DataFrame, by: str) -> pl.Series:
    """The values of `by` whose rows carry two values of one kind of id."""
    counts = ids.group_by(by, "kind").agg(pl.col("value").n_unique())
    return counts.filter(pl.col("value") > 1).get_column(by).unique()


def _split_vetoed_text_groups(text_group: np.ndarray, ids: pl.DataFrame) -> np.ndarray:
    """Step 1: the part of every row, labelled by the row of its first occurrence; a text group
    that breaks no veto is one part."""
    unit = text_group.copy()
    grouped = ids.with_columns(group=pl.Series(text_group).gather(ids.get_column("row")))
    vetoed = _vetoed(grouped, "group")
    if vetoed.is_empty():
        return unit
    ids_of = _ids_by_row(grouped.filter(pl.col("group").is_in(vetoed.implode())))
    members = (
        pl.DataFrame({"row": np.arange(len(text_group)), "group": text_group})
        .filter(pl.col("group").is_in(vetoed.implode()))
        .group_by("group", maintain_order=True)
        .agg("row")
    )
    for group_rows in members.get_column("row"):
        parts: list[tuple[int, dict[str, str]]] = []
        for row in group_rows:
            own = ids_of.get(row, {})
            for first, part_ids in parts:
                if _agrees(part_ids, own):
                    part_ids.update(own)
                    unit[row] = first
                    break
            else:
                parts.append((row, dict(own)))
                unit[row] = row
    return unit


def _join_by_ids(unit: np.ndarray, ids: pl.DataFrame) -> np.ndarray:
    """Step 2: the group of every row, labelled by the row of its earliest canonical occurrence."""
    label_of_unit = np.arange(len(unit))
    keyed = (
        ids.with_columns(unit=pl.Series(unit).gather(ids.get_column("row")))
        .select("unit", "kind", "value", key=pl.col("kind") + "\x1f" + pl.col("value"))
        .unique()
    )
    linking = keyed.select("unit", "key").filter(pl.len().over("key").is_between(2, MAX_TEXTS_PER_ID))
    if linking.is_empty():
        return unit.copy()
    # Connected components by propagating the smallest label through the shared ids: each round
    # lets a label cross one id, so it ends after as many rounds as the longest chain of parts.
    labels = linking.select(pl.col("unit").unique().sort()).with_columns(label=pl.col("unit"))
    while True:
        smallest_per_key = linking.join(labels, on="unit").group_by("key").agg(pl.col("label").min())
        updated = (
            linking.join(smallest_per_key, on="key").group_by("unit").agg(pl.col("label").min()).sort("unit")
        )
        if updated.get_column("label").equals(labels.get_column("label")):
            break
        labels = updated
    label_of_unit[labels.get_column("unit").to_numpy()] = labels.get_column("label").to_numpy()

    keyed = keyed.with_columns(component=pl.Series(label_of_unit).gather(keyed.get_column("unit")))
    vetoed = _vetoed(keyed, "component")
    if not vetoed.is_empty():
        in_vetoed = pl.col("component").is_in(vetoed.implode())
        ids_of = _ids_by_row(keyed.filter(in_vetoed), by="unit")
        keys_of: dict[int, set[str]] = {}
        for unit_row, key in linking.filter(
            pl.col("unit").is_in(keyed.filter(in_vetoed)["unit"].implode())
        ).iter_rows():
            keys_of.setdefault(unit_row, set()).add(key)
        for component_units in (
            labels.filter(pl.col("label").is_in(vetoed.implode()))
            .group_by("label")
            .agg(pl.col("unit").sort())
        ).get_column("unit"):
            groups: list[tuple[int, dict[str, str], set[str]]] = []
            for unit_row in component_units:
                own_ids, own_keys = ids_of.get(unit_row, {}), keys_of.get(unit_row, set())
                for label, group_ids, group_keys in groups:
                    if own_keys & group_keys and _agrees(group_ids, own_ids):
                        group_ids.update(own_ids)
                        group_keys |= own_keys
                        label_of_unit[unit_row] = label
                        break
                else:
                    groups.append((unit_row, dict(own_ids), set(own_keys)))
                    label_of_unit[unit_row] = unit_row
    return label_of_unit[unit]


def _join_by_titles(
    group: np.ndarray, titles: pl.Series, texts_of: TextSource, ids: pl.DataFrame, threshold: float
) -> np.ndarray:
    """Step 3: the paper of every row, labelled by the row of its earliest canonical occurrence."""
    n_rows = len(group)
    titled = (
        pl.DataFrame({"group": group, "title": titles})
        .filter(pl.col("title").str.len_chars() >= MIN_TITLE_CHARS)
        .unique()
        .filter(pl.len().over("title").is_between(2, MAX_PAPERS_PER_TITLE))
    )
    pairs = (
        titled.join(titled, on="title", suffix="_later")
        .filter(pl.col("group") < pl.col("group_later"))
        .select("group", "group_later")
        .unique()
    )
    if pairs.is_empty():
        return group.copy()
    earlier = pairs.get_column("group").to_numpy()
    later = pairs.get_column("group_later").to_numpy()
    involved = np.unique(np.concatenate((earlier, later))).tolist()
    ids_of = _ids_by_row(
        ids.with_columns(group=pl.Series(group).gather(ids.get_column("row")))
        .filter(pl.col("group").is_in(involved))
        .unique(["group", "kind"]),
        by="group",
    )
    # A pair whose ids disagree now never joins (a joined group only gains ids that agree), so its
    # texts are not compared: one arXiv paper's every resubmission shares its title, not its id.
    agreeing = np.array(
        [
            _agrees(ids_of.get(a, {}), ids_of.get(b, {}))
            for a, b in zip(earlier.tolist(), later.tolist(), strict=True)
        ],
        dtype=bool,
    )
    earlier, later = earlier[agreeing], later[agreeing]
    similarity = _verified_jaccard(texts_of, np.arange(n_rows), earlier, later, SHINGLE_SIZE)
    keep = similarity >= threshold
    earlier, later, similarity = earlier[keep], later[keep], similarity[keep]
    joined: dict[int, int] = {}
    # By later group, then best similarity, then earliest candidate: a group's first usable pair wins.
    for index in np.lexsort((earlier, -similarity, later)).tolist():
        item, candidate = int(later[index]), int(earlier[index])
        if item in joined or candidate in joined:
            continue
        candidate_ids, item_ids = ids_of.setdefault(candidate, {}), ids_of.get(item, {})
        if _agrees(candidate_ids, item_ids):
            joined[item] = candidate
            candidate_ids.update(item_ids)
    paper_of_group = np.arange(n_rows)
    paper_of_group[list(joined)] = list(joined.values())
    return paper_of_group[group]
