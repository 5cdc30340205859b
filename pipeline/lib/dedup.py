"""Exact and near-duplicate detection over cleaned abstracts.

Exact stage. `normalise_for_hash` gives a markup-insensitive normal form (NFKC, casefold, every run
of non-alphanumeric characters one space). The first 64 bits of its sha256 are both the grouping
key and the paper id (`paper_id_for`), so equal ids mean one exact group, on every machine and in
any input order. The normal form is computed on UTF-8 bytes with numpy: ASCII by byte arithmetic,
each distinct non-ASCII character folded once, and only texts with combining marks or jamo (which
NFKC may compose with their neighbours) through Python's unicodedata; a hypothesis test checks it
against `normalise_for_hash`.

Near stage, over the first text of every exact group:
1. shingles: each run of SHINGLE_SIZE consecutive words of the normal form, hashed to 64 bits;
2. MinHash by one-permutation hashing (Li, Owen and Zhang 2012) with optimal densification
   (Shrivastava 2017): each shingle hash is computed once and competes for one of NUM_PERM bins.
   Classic MinHash evaluates NUM_PERM hash functions per shingle, 1M abstracts x ~180 shingles x
   128 = 23 billion evaluations, minutes of numpy on 2 cores; this needs one per shingle;
3. LSH: 32 bands of 4 values; texts that share a band key are candidates (a member of a crowded
   bucket is paired only with its 64 earliest members);
4. a candidate whose 8-bit MinHash estimate is more than ESTIMATE_MARGIN below the threshold is
   dropped unverified. On the generated 1M corpus this drops 88% of 1.06M candidates; the
   estimate's error had standard deviation 0.023 (0.04 near the threshold) and the lowest estimate
   among the pairs whose true similarity was >= 0.55 was 0.40, above the 0.35 cut;
5. every other candidate is verified with the exact Jaccard similarity of the two shingle sets;
6. assignment, in canonical order: a group joins the most similar earlier group (the earliest on
   a tie) that verifies at >= threshold and is itself canonical ('first'); otherwise it is
   canonical. No transitive closure: in a chain A~B~C with A !~ C, B joins A and C stays its own
   paper, unless C itself verifies against A.

Why Jaccard and not a containment-aware measure: containment would also merge truncated copies
(two ICML 2024 openreview abstracts cut off at a '$' have Jaccard 0.35 and 0.39 with the full
text), but it makes any short text that repeats part of a longer one its duplicate, MinHash LSH
estimates Jaccard, so such pairs would be found only by chance, and documents.similarity is
documented as Jaccard. Those two truncated copies stay separate papers.

Why bigrams and 0.55, measured with `benchmarks/dedup_benchmark.py --calibrate` on its generated
100k corpus (3,000 injected near copies; 20,000 pairs of different abstracts sharing a sentence):

    words per   Jaccard of near copies (5th percentile)    different abstracts sharing a sentence
    shingle     typos   sentence dropped   reworded         99.9th percentile    maximum
    1           0.920   0.716              0.661            0.360                0.477
    2           0.860   0.670              0.440            0.284                0.417
    3           0.800   0.651              0.422            0.275                0.404
    5           0.689   0.615              0.399            0.264                0.395

Bigrams keep edited copies nearly as similar as single words while separating abstracts that
share a sentence nearly as well as longer shingles. On the real corpus, CoRL abstracts whose words
are glued at line breaks ("vehiclesmust") have Jaccard 0.61 to 0.98 with their clean copies with
bigrams, but as low as 0.48 with trigrams. Then the threshold, on the generated 1M corpus
(pairwise scores for near duplicates, from the benchmark's evaluation):

    shingle, threshold   precision   recall   F1
    2, 0.50              0.9828      0.9805   0.9817
    2, 0.55              0.9947      0.9694   0.9819
    2, 0.60              0.9985      0.9501   0.9737
    3, 0.50              0.9855      0.9761   0.9808
    3, 0.55              0.9949      0.9630   0.9787

0.55 has the best F1 and a third of the false merges of 0.5. The false merges left are two-sentence
abstracts whose shared sentence is most of both texts, where Jaccard cannot tell a shared sentence
from a reworded one. Boilerplate such as "Code is available at ..." or a shared first sentence in
abstracts of ordinary length stays far below the threshold (tests/lib/test_dedup.py).

Real corpus (31,971 abstracts): 3,156 exact and 58 near merges; of the 3,137 pairs with the same
title and year in two sources (ICML 2024, CoRL 2024/25), 3,135 end up in one paper (the two
truncated ICML copies do not). Most of the other near merges are one work listed at two venues
(ICLR 2018 and ICML 2018, say); the clear mistakes are yearly prefaces of one conference.

Speed on 2 cores (benchmarks/dedup_benchmark.py, generated corpus, both stages): 1M abstracts in
18 to 23 s (two runs) with 0.53 GB of extra memory. datasketch's MinHash + MinHashLSH with the same
shingles, 128 permutations and bands, plus the same verification, took 48 to 54 s per 100k: 23 to
26 times slower, 17 to 20 times counting only its MinHash and LSH stages, at the same F1.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from functools import cache, lru_cache
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.lib.staging import write_atomically
from pipeline.lib.versions import source_digest

SHINGLE_SIZE = 2
NUM_PERM = 128
THRESHOLD = 0.55
# Rows per LSH band. With 128 values, 32 bands of 4 make a pair a candidate with probability 0.95
# at J = 0.55, 0.99 at 0.6 and 0.9998 at 0.7, and 0.003 at J = 0.1 (a shared sentence).
BAND_ROWS = 4
# Candidates whose MinHash estimate is this far below the threshold are not verified: with 128
# values the estimate's standard deviation is at most 0.045, so 0.2 is more than 4 of them.
ESTIMATE_MARGIN = 0.2
# A bucket bigger than this pairs each member only with its earliest MAX_BUCKET_PARTNERS members.
MAX_BUCKET_PARTNERS = 64

_NON_ALNUM_RUN = re.compile(r"[\W_]+")
_U64 = np.uint64
_MAX_U64 = np.iinfo(np.uint64).max
# Chunks of about this many UTF-8 bytes keep every temporary array small (a few tens of MB).
_CHUNK_BYTES = 1 << 22
# Shingles sorted together per verification batch.
_VERIFY_BATCH = 1 << 22
_MIX_MULTIPLIER = np.array(0x9E3779B97F4A7C15, dtype=_U64)
_PAD_TOKEN = np.array(0xD6E8FEB86659FD93, dtype=_U64)


# --- public API ----------------------------------------------------------------------------------


def normalise_for_hash(clean_text: str) -> str:
    """NFKC, case-folded, every run of non-alphanumeric characters replaced by one space, stripped."""
    folded = unicodedata.normalize("NFKC", clean_text).casefold()
    return _NON_ALNUM_RUN.sub(" ", folded).strip()


def paper_id_for(clean_text: str) -> str:
    """Stable paper id: 'P' + the first 16 hex digits of sha256 of the normalised text."""
    return "P" + hashlib.sha256(normalise_for_hash(clean_text).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class DedupStats:
    documents: int
    papers: int
    exact_merged: int
    near_merged: int


def summarise(result: pl.DataFrame) -> dict[str, int]:
    """Counts of a `deduplicate` result: documents, papers, exact merged, near merged."""
    counts = dict(result.group_by("match").len().iter_rows())
    stats = DedupStats(
        documents=result.height,
        papers=counts.get("first", 0),
        exact_merged=counts.get("exact", 0),
        near_merged=counts.get("near", 0),
    )
    return asdict(stats)


@dataclass(frozen=True)
class Signatures:
    """What both stages need of each text, computed once per text (`sign_texts`): a build keeps
    those of an unchanged input file and does not sign its texts again."""

    digests: np.ndarray  # uint64 per text: first 8 bytes of sha256(normalised text)
    band_keys: np.ndarray  # (bands, texts) uint64 LSH band keys
    sketches: np.ndarray  # (texts, num_perm) uint8: the low byte of each MinHash value
    has_shingles: np.ndarray  # bool per text

    def __len__(self) -> int:
        return len(self.digests)

    def to_arrow(self) -> pa.Table:
        """One row per text, the sketch and band keys as fixed-size binary: a file's signatures are
        a Parquet part beside its documents, read back as arrays without a copy per value."""
        n_texts = len(self)
        band_keys = np.ascontiguousarray(self.band_keys.T)
        return pa.table(
            {
                "digest": pa.array(self.digests, pa.uint64()),
                "band_keys": _fixed_binary(band_keys, n_texts),
                "sketch": _fixed_binary(np.ascontiguousarray(self.sketches), n_texts),
                "has_shingles": pa.array(self.has_shingles, pa.bool_()),
            }
        )

    def write(self, path: Path) -> None:
        """As Parquet, to a temporary name renamed into place: a reader finds the whole file or none."""
        write_atomically(lambda tmp: pq.write_table(self.to_arrow(), tmp), path)

    @classmethod
    def read(cls, path: Path) -> Signatures | None:
        """The signatures `write` wrote at path, or None when it cannot be read."""
        try:
            return cls.from_arrow(pq.read_table(path))
        except (OSError, pa.ArrowException, KeyError, ValueError):
            return None

    @classmethod
    def from_arrow(cls, table: pa.Table, num_perm: int = NUM_PERM) -> Signatures:
        n_texts = table.num_rows
        band_keys = _fixed_binary_values(table["band_keys"], _U64).reshape(n_texts, num_perm // BAND_ROWS)
        return cls(
            digests=table["digest"].to_numpy().astype(_U64, copy=False),
            band_keys=np.ascontiguousarray(band_keys.T),
            sketches=_fixed_binary_values(table["sketch"], np.uint8).reshape(n_texts, num_perm),
            has_shingles=table["has_shingles"].to_numpy(),
        )

    @classmethod
    def empty(cls, n_texts: int, num_perm: int = NUM_PERM) -> Signatures:
        """Room for n_texts signatures, to be filled by `put`."""
        return cls(
            digests=np.empty(n_texts, _U64),
            band_keys=np.empty((num_perm // BAND_ROWS, n_texts), _U64),
            sketches=np.empty((n_texts, num_perm), np.uint8),
            has_shingles=np.empty(n_texts, bool),
        )

    def put(self, start: int, part: Signatures) -> None:
        """Copy part's signatures into texts start, start + 1, ..."""
        stop = start + len(part)
        self.digests[start:stop] = part.digests
        self.band_keys[:, start:stop] = part.band_keys
        self.sketches[start:stop] = part.sketches
        self.has_shingles[start:stop] = part.has_shingles


def _fixed_binary(values: np.ndarray, n_rows: int) -> pa.Array:
    """A 2-D array's rows as fixed-size binary values."""
    width = values.shape[1] * values.itemsize
    return pa.FixedSizeBinaryArray.from_buffers(pa.binary(width), n_rows, [None, pa.py_buffer(values)])


def _fixed_binary_values(column: pa.ChunkedArray, dtype: type) -> np.ndarray:
    array = column.combine_chunks()
    if len(array) == 0:
        return np.empty(0, dtype)
    width = array.type.byte_width
    data = array.buffers()[1]
    return np.frombuffer(
        data, dtype, offset=array.offset * width, count=len(array) * width // np.dtype(dtype).itemsize
    )


def signature_version() -> str:
    """Changes with this module's code: signatures staged by an earlier build go stale with it."""
    return source_digest([Path(__file__)])


def sign_texts(texts: pl.Series, shingle_size: int = SHINGLE_SIZE, num_perm: int = NUM_PERM) -> Signatures:
    """Normalise, digest, shingle and MinHash every text, a few chunks at a time on threads."""
    if texts.null_count():
        texts = texts.fill_null("")
    signatures = Signatures.empty(len(texts), num_perm)

    def analyse(bounds: tuple[int, int]) -> None:
        start, stop = bounds
        chunk = _analyse_chunk(texts.slice(start, stop - start), shingle_size, num_perm)
        signatures.put(start, chunk)

    _map_in_threads(analyse, _chunk_bounds(texts.str.len_bytes().to_numpy(), _CHUNK_BYTES))
    return signatures


def deduplicate(
    docs: pl.DataFrame,
    *,
    threshold: float = THRESHOLD,
    num_perm: int = NUM_PERM,
    shingle_size: int = SHINGLE_SIZE,
    signatures: Signatures | None = None,
) -> pl.DataFrame:
    """Match every occurrence to its paper: one output row per input row, in input order.

    `docs` has `document_id` and `clean_text`, in canonical order (the first row of a group is its
    canonical occurrence). Output columns: document_id, paper_id, canonical_document_id, match
    ('first', 'exact' or 'near') and similarity (1.0 for first and exact, the verified Jaccard
    similarity of word shingles with the canonical occurrence for near). `signatures`, when given,
    are those `sign_texts` gives for the texts with the same shingle size and permutations.
    """
    _check_parameters(threshold, num_perm, shingle_size)
    texts = docs.get_column("clean_text")
    if texts.null_count():
        texts = texts.fill_null("")
    if signatures is None:
        signatures = sign_texts(texts, shingle_size, num_perm)
    ids = docs.get_column("document_id")
    return deduplicate_signed(ids, signatures, texts.gather, threshold=threshold, shingle_size=shingle_size)


# Texts by row: the texts of the given rows, in the order given (a Series of one text per row).
TextSource = Callable[[np.ndarray], pl.Series]


def deduplicate_signed(
    ids: pl.Series,
    signatures: Signatures,
    texts_of: TextSource,
    *,
    threshold: float = THRESHOLD,
    shingle_size: int = SHINGLE_SIZE,
) -> pl.DataFrame:
    """`deduplicate` of texts already signed, which asks `texts_of` for the texts of the candidate
    pairs it verifies only: at a million texts the others need not be in memory."""
    _check_parameters(threshold, signatures.sketches.shape[1], shingle_size)
    if len(signatures) != len(ids):
        raise ValueError(f"{len(signatures)} signatures for {len(ids)} texts")
    digests, band_keys = signatures.digests, signatures.band_keys
    sketches, has_shingles = signatures.sketches, signatures.has_shingles

    # Exact stage: rows with the same normalised text share a digest; the first row is the group's
    # representative and every other row of the group is an exact copy of it.
    representative = (
        pl.DataFrame({"digest": digests})
        .with_row_index("row")
        .select(pl.col("row").first().over("digest"))
        .get_column("row")
        .to_numpy()
        .astype(np.int64)
    )
    rep_rows = np.flatnonzero(representative == np.arange(len(representative)))

    # Near stage over the representatives that have at least one shingle.
    near_rows = rep_rows[has_shingles[rep_rows]]
    left, right = _candidate_pairs(band_keys, near_rows)
    plausible = _estimated_jaccard(sketches, near_rows[left], near_rows[right]) >= threshold - ESTIMATE_MARGIN
    left, right = left[plausible], right[plausible]
    similarity = _verified_jaccard(texts_of, near_rows, left, right, shingle_size)
    keep = similarity >= threshold
    target, target_similarity = _assign_to_canonical(
        len(near_rows), left[keep], right[keep], similarity[keep]
    )

    canonical_of_rep = np.arange(len(representative))
    similarity_of_rep = np.ones(len(representative))
    canonical_of_rep[near_rows] = near_rows[target]
    similarity_of_rep[near_rows] = target_similarity

    canonical_row = canonical_of_rep[representative]
    is_rep = representative == np.arange(len(representative))
    is_near = canonical_row != representative
    match = np.where(is_near, "near", np.where(is_rep, "first", "exact"))
    paper_digests = digests[canonical_row]
    return pl.DataFrame(
        {
            "document_id": ids,
            "paper_id": _paper_ids(paper_digests),
            "canonical_document_id": ids.gather(canonical_row),
            "match": match,
            "similarity": similarity_of_rep[representative],
        },
        schema={
            "document_id": pl.String,
            "paper_id": pl.String,
            "canonical_document_id": pl.String,
            "match": pl.String,
            "similarity": pl.Float64,
        },
    )


def _check_parameters(threshold: float, num_perm: int, shingle_size: int) -> None:
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"threshold must be in (0, 1], got {threshold}")
    if num_perm < BAND_ROWS or shingle_size < 1:
        raise ValueError(f"need num_perm >= {BAND_ROWS} and shingle_size >= 1")


# --- per-chunk analysis: normalise, digest, tokenise, shingle, sign ------------------------------


@dataclass(frozen=True)
class _Tokens:
    normalised: np.ndarray  # uint8: the chunk's normalised texts, concatenated
    text_start: np.ndarray  # int64 per text, into normalised
    text_end: np.ndarray
    token_hash: np.ndarray  # uint64 per token, in text order
    token_text: np.ndarray  # int64 per token: index of its text within the chunk
    first_token: np.ndarray  # int64 per text: index of its first token
    tokens_per_text: np.ndarray  # int64 per text

    @property
    def n_texts(self) -> int:
        return len(self.first_token)


def _worker_count() -> int:
    return max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1))


def _chunk_bounds(sizes: np.ndarray, budget: int) -> list[tuple[int, int]]:
    """Consecutive index ranges whose sizes add up to about `budget` each (at least one item)."""
    ends = np.cumsum(sizes, dtype=np.int64)
    bounds = []
    start = 0
    while start < len(ends):
        before = ends[start - 1] if start else 0
        stop = max(start + 1, int(np.searchsorted(ends, before + budget, side="right")))
        bounds.append((start, stop))
        start = stop
    return bounds


def _map_in_threads(function: Callable, items: list) -> list:
    """function over items on a few threads: numpy releases the GIL in its loops, so the byte and
    hash arithmetic of different chunks overlaps."""
    with ThreadPoolExecutor(max_workers=_worker_count()) as pool:
        return list(pool.map(function, items))


def _analyse_chunk(chunk: pl.Series, shingle_size: int, num_perm: int) -> Signatures:
    tokens = _tokenise(chunk)
    shingles, shingle_text = _shingles(tokens, shingle_size)
    signatures = _signatures(shingles, shingle_text, tokens.n_texts, num_perm)
    return Signatures(
        digests=_digests(tokens),
        band_keys=_band_keys(signatures).T,
        sketches=signatures.astype(np.uint8),
        has_shingles=np.bincount(shingle_text, minlength=tokens.n_texts) > 0,
    )


def _folded_utf8(chunk: pl.Series) -> tuple[np.ndarray, np.ndarray]:
    """Each text NFKC-normalised and case-folded (except ASCII upper case letters, which the
    tokeniser folds), as UTF-8 joined by NUL bytes; and each text's start offset.

    NFKC and casefold work character by character for almost every text, so each distinct
    non-ASCII character is folded once (`_fold_character`) and spliced in. Only a text with a
    character that can compose or reorder with its neighbours goes through Python's unicodedata.
    """
    array = chunk.to_arrow().cast(pa.large_string())
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    _, offsets_buffer, data_buffer = array.buffers()
    offsets = np.frombuffer(offsets_buffer, np.int64)[array.offset : array.offset + len(array) + 1]
    data = memoryview(data_buffer if data_buffer is not None else b"")
    bounds = offsets.tolist()
    pieces: list = [data[bounds[index] : bounds[index + 1]] for index in range(len(array))]
    raw = np.frombuffer(data, np.uint8)[offsets[0] : offsets[-1]]
    leads, code_points = _decode_non_ascii(raw)
    folded_whole = np.zeros(len(pieces), bool)
    if leads.size:
        distinct, inverse = np.unique(code_points, return_inverse=True)
        contextual = np.array([_fold_character(point) is None for point in distinct.tolist()], bool)
        for index in np.unique(
            np.searchsorted(offsets, leads[contextual[inverse]] + offsets[0], "right") - 1
        ):
            text = unicodedata.normalize("NFKC", str(pieces[index], "utf-8")).casefold()
            pieces[index] = text.encode()
            folded_whole[index] = True
    lengths = np.fromiter((len(piece) for piece in pieces), np.int64, len(pieces))
    text_start = np.zeros(len(pieces), np.int64)
    np.cumsum(lengths[:-1] + 1, out=text_start[1:])
    joined = b"\x00".join(pieces)
    if not leads.size:
        return np.frombuffer(joined, np.uint8), text_start
    return _splice_folded_characters(joined, text_start, folded_whole)


def _decode_non_ascii(utf8: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of the lead bytes of non-ASCII characters in valid UTF-8, and their code points."""
    high = np.flatnonzero(utf8 >= 0x80)
    leads = high[utf8[high] >= 0xC0]
    if leads.size == 0:
        return leads, np.empty(0, np.uint32)
    last = len(utf8) - 1
    first = utf8[leads].astype(np.uint32)
    second, third, fourth = (
        utf8[np.minimum(leads + shift, last)].astype(np.uint32) & 0x3F for shift in (1, 2, 3)
    )
    code_points = np.where(
        first < 0xE0,
        ((first & 0x1F) << 6) | second,
        np.where(
            first < 0xF0,
            ((first & 0x0F) << 12) | (second << 6) | third,
            ((first & 0x07) << 18) | (second << 12) | (third << 6) | fourth,
        ),
    )
    return leads, code_points


def _splice_folded_characters(
    joined: bytes, text_start: np.ndarray, folded_whole: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Replace each non-ASCII character that NFKC or casefold changes by its folded form."""
    buffer = np.frombuffer(joined, np.uint8)
    leads, code_points = _decode_non_ascii(buffer)
    in_folded_text = folded_whole[np.searchsorted(text_start, leads, "right") - 1]
    leads, code_points = leads[~in_folded_text], code_points[~in_folded_text]
    distinct, inverse = np.unique(code_points, return_inverse=True)
    replacements = [_fold_character(point) for point in distinct.tolist()]
    changed = np.array(
        [
            replacement != chr(point).encode()
            for point, replacement in zip(distinct.tolist(), replacements, strict=True)
        ],
        bool,
    )
    which = np.flatnonzero(changed[inverse])
    if which.size == 0:
        return buffer, text_start
    replacement_index = inverse[which]
    first_byte = buffer[leads[which]]
    widths = 2 + (first_byte >= 0xE0).astype(np.int64) + (first_byte >= 0xF0)
    pieces = []
    cursor = 0
    view = memoryview(joined)
    for position, width, index in zip(
        leads[which].tolist(), widths.tolist(), replacement_index.tolist(), strict=True
    ):
        pieces.append(view[cursor:position])
        pieces.append(replacements[index])
        cursor = position + width
    pieces.append(view[cursor:])
    growth = (
        np.array([len(replacement) for replacement in replacements], np.int64)[replacement_index] - widths
    )
    shift = np.concatenate(([0], np.cumsum(growth)))
    text_start = text_start + shift[np.searchsorted(leads[which], text_start)]
    return np.frombuffer(b"".join(pieces), np.uint8), text_start


@cache
def _fold_character(code_point: int) -> bytes | None:
    """casefold(NFKC(c)) as UTF-8 when that is what the character becomes inside any text; None when
    NFKC could compose or reorder it with its neighbours (a combining mark, a Hangul jamo ...)."""
    char = chr(code_point)
    compatible = unicodedata.normalize("NFKC", char)
    interacts = (
        unicodedata.combining(char)
        or char in _composition_seconds()
        or not compatible
        or compatible[0] in _composition_seconds()
        or any(unicodedata.combining(part) for part in compatible)
    )
    return None if interacts else compatible.casefold().encode()


@lru_cache(maxsize=1)
def _composition_seconds() -> frozenset[str]:
    """Characters that canonical composition can merge into the character before them."""
    seconds = {chr(point) for point in range(0x1161, 0x1176)} | {
        chr(point) for point in range(0x11A8, 0x11C3)
    }
    for point in range(0x80, 0x110000):
        parts = unicodedata.decomposition(chr(point)).split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            seconds.add(chr(int(parts[1], 16)))
    return frozenset(seconds)


@cache
def _is_alphanumeric(code_point: int) -> bool:
    return chr(code_point).isalnum()


def _ascii_word_bytes(folded: np.ndarray, out: np.ndarray) -> None:
    """Write into `out` whether each byte is an ASCII letter or digit (byte arithmetic, no lookups)."""
    letter = folded | np.uint8(0x20)
    letter -= np.uint8(ord("a"))
    np.less(letter, 26, out=out)
    digit = folded - np.uint8(ord("0"))
    out |= digit < 10


def _mark_non_ascii_words(folded: np.ndarray, is_word: np.ndarray) -> None:
    """Set is_word for the bytes of non-ASCII alphanumeric characters (str.isalnum)."""
    leads, code_points = _decode_non_ascii(folded)
    if leads.size == 0:
        return
    distinct, inverse = np.unique(code_points, return_inverse=True)
    alphanumeric = np.array([_is_alphanumeric(point) for point in distinct.tolist()], bool)[inverse]
    # A character's continuation bytes (10xxxxxx) follow its lead byte.
    high = np.flatnonzero(folded >= 0x80)
    lead_index = np.cumsum(folded[high] >= 0xC0) - 1
    is_word[high] = alphanumeric[lead_index]


# _BYTE_MASKS[n] keeps the low n bytes of a little-endian 64-bit word.
_BYTE_MASKS = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=_U64)


def _tokenise(chunk: pl.Series) -> _Tokens:
    """The chunk's texts as normalise_for_hash would give them, and a 64-bit hash per word."""
    folded, text_start_folded = _folded_utf8(chunk)
    n_texts = len(text_start_folded)
    # Word bytes with a non-word byte on either side, so that runs pair up as (start, end).
    padded_word = np.zeros(len(folded) + 2, bool)
    is_word = padded_word[1:-1]
    _ascii_word_bytes(folded, is_word)
    _mark_non_ascii_words(folded, is_word)
    boundaries = np.flatnonzero(padded_word[1:] != padded_word[:-1])
    starts, ends = boundaries[0::2], boundaries[1::2]
    lengths = ends - starts
    n_tokens = len(starts)
    first_token = np.searchsorted(starts, text_start_folded)
    tokens_per_text = np.diff(first_token, append=n_tokens)
    token_text = np.repeat(np.arange(n_texts), tokens_per_text)
    has_tokens = tokens_per_text > 0
    first_of_text = np.zeros(n_tokens, bool)
    first_of_text[first_token[has_tokens]] = True

    # The normalised text: words joined by one space within a text, nothing between texts; padded
    # with 8 zero bytes so that an 8-byte window can be read at any word start.
    keep = is_word.copy()
    keep[ends[:-1][~first_of_text[1:]]] = True
    # polars filters a byte array with short runs several times faster than numpy's compress.
    kept = pl.Series(folded, dtype=pl.UInt8).filter(pl.Series(keep)).to_numpy()
    n_kept = len(kept)
    normalised = np.zeros(n_kept + 8, np.uint8)
    normalised[:n_kept] = kept
    upper = normalised[:n_kept] - np.uint8(ord("A"))
    np.add(normalised[:n_kept], np.uint8(32), out=normalised[:n_kept], where=upper < 26)
    out_end = np.cumsum(lengths + ~first_of_text)
    out_start = out_end - lengths
    normalised[out_start[~first_of_text] - 1] = ord(" ")
    if n_tokens:
        text_start = np.where(has_tokens, out_start[np.minimum(first_token, n_tokens - 1)], 0)
        text_end = np.where(has_tokens, out_end[np.maximum(first_token + tokens_per_text - 1, 0)], 0)
    else:
        text_start = text_end = np.zeros(n_texts, np.int64)

    # Word hash: its bytes read 8 at a time as little-endian words, folded in with fmix64.
    windows = np.lib.stride_tricks.as_strided(normalised, shape=(n_kept + 1, 8), strides=(1, 1))

    def word_bytes(offsets: np.ndarray, remaining: np.ndarray) -> np.ndarray:
        return windows[offsets].view("<u8").ravel() & _BYTE_MASKS[np.minimum(remaining, 8)]

    token_hash = _fmix64(word_bytes(out_start, lengths))
    longer = np.flatnonzero(lengths > 8)
    consumed = 8
    while longer.size:
        mixed = token_hash[longer] * _MIX_MULTIPLIER
        mixed += word_bytes(out_start[longer] + consumed, lengths[longer] - consumed)
        token_hash[longer] = _fmix64(mixed)
        consumed += 8
        longer = longer[lengths[longer] > consumed]
    return _Tokens(
        normalised[:n_kept], text_start, text_end, token_hash, token_text, first_token, tokens_per_text
    )


def _digests(tokens: _Tokens) -> np.ndarray:
    """First 8 bytes of sha256 of each normalised text, as uint64 (the paper id's 16 hex digits)."""
    view = memoryview(tokens.normalised)
    digests = b"".join(
        hashlib.sha256(view[start:end]).digest()[:8]
        for start, end in zip(tokens.text_start.tolist(), tokens.text_end.tolist(), strict=True)
    )
    return np.frombuffer(digests, ">u8").astype(_U64)


def _fmix64(values: np.ndarray) -> np.ndarray:
    """The splitmix64 finaliser: a bijective mix so that every output bit depends on every input bit."""
    values = values ^ (values >> _U64(30))
    values *= _U64(0xBF58476D1CE4E5B9)
    values ^= values >> _U64(27)
    values *= _U64(0x94D049BB133111EB)
    values ^= values >> _U64(31)
    return values


def _shingles(tokens: _Tokens, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Hash of every run of `size` consecutive words within a text, and the text it belongs to.

    A text with fewer words than `size` has one shingle: all its words.
    """
    hashes = tokens.token_hash
    n_tokens = len(hashes)
    padded = np.concatenate((hashes, np.full(size - 1, _PAD_TOKEN)))
    combined = hashes.copy()
    for offset in range(1, size):
        combined *= _MIX_MULTIPLIER
        combined += padded[offset : offset + n_tokens]
    text_end_token = tokens.first_token + tokens.tokens_per_text
    complete = np.repeat(text_end_token, tokens.tokens_per_text) - np.arange(n_tokens) >= size
    short = np.flatnonzero((tokens.tokens_per_text > 0) & (tokens.tokens_per_text < size))
    if short.size:
        first = tokens.first_token[short]
        words = tokens.tokens_per_text[short]
        short_combined = hashes[first]
        for offset in range(1, size):
            following = hashes[np.minimum(first + offset, n_tokens - 1)]
            short_combined = short_combined * _MIX_MULTIPLIER + np.where(
                offset < words, following, _PAD_TOKEN
            )
        combined[first] = short_combined
        complete[first] = True
    return _fmix64(combined[complete]), tokens.token_text[complete]


def _signatures(shingles: np.ndarray, shingle_text: np.ndarray, n_texts: int, num_perm: int) -> np.ndarray:
    """One-permutation MinHash with optimal densification: (texts, num_perm) uint64.

    Each shingle hash picks a bin with its top 32 bits and competes for that bin's minimum with its
    low 32 bits (Li, Owen and Zhang 2012). An empty bin borrows the value of a pseudo-random other
    bin, retrying until it finds a filled one (Shrivastava 2017): borrowing from independent bins
    keeps neighbouring values uncorrelated, which rotation (borrowing from the next bin) does not.
    Texts without shingles keep all-empty signatures.
    """
    bins = (shingles >> _U64(32)) * _U64(num_perm)
    bins >>= _U64(32)
    slot = shingle_text * num_perm
    slot += bins.astype(np.int64)
    signatures = np.full(n_texts * num_perm, _MAX_U64, _U64)
    np.minimum.at(signatures, slot, shingles & _U64(0xFFFFFFFF))
    has_shingles = np.bincount(shingle_text, minlength=n_texts) > 0
    empty = np.flatnonzero(signatures == _MAX_U64)
    empty = empty[has_shingles[empty // num_perm]]
    row_start = empty - empty % num_perm
    column = (empty % num_perm).astype(_U64)
    borrowed = signatures.copy()
    pending = np.arange(len(empty))
    attempt = 1
    while pending.size:
        # Each (bin, attempt) names a pseudo-random bin to borrow from, the same in every text.
        source_bin = _fmix64(column[pending] * _U64(0x10001) + _U64(attempt)) % _U64(num_perm)
        values = signatures[row_start[pending] + source_bin.astype(np.int64)]
        found = values != _MAX_U64
        borrowed[empty[pending[found]]] = values[found]
        pending = pending[~found]
        attempt += 1
    return borrowed.reshape(n_texts, num_perm)


def _band_keys(signatures: np.ndarray) -> np.ndarray:
    """(texts, bands) uint64: a hash of each band of BAND_ROWS consecutive signature values."""
    n_texts, num_perm = signatures.shape
    bands = num_perm // BAND_ROWS
    rows = signatures[:, : bands * BAND_ROWS].reshape(n_texts, bands, BAND_ROWS)
    keys = rows[:, :, 0].copy()
    for row in range(1, BAND_ROWS):
        keys *= _MIX_MULTIPLIER
        keys += rows[:, :, row]
        keys = _fmix64(keys)
    return keys


# --- LSH candidates, verification, assignment ----------------------------------------------------


def _candidate_pairs(band_keys: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct (earlier, later) pairs of positions in `rows` whose texts share a band key.

    `band_keys` is (bands, all rows). In a bucket, each member is paired with the earliest
    MAX_BUCKET_PARTNERS members before it, so a huge bucket costs linear, not quadratic, work.
    """
    n_items = len(rows)
    slot_bits = max(4, (4 * n_items).bit_length())
    found = []
    for band_of_all in band_keys:
        keys = band_of_all[rows]
        # Almost every key is unique: a counting pass over its top bits finds the few that may not
        # be, and only those are sorted.
        slot = (keys >> _U64(64 - slot_bits)).astype(np.int64)
        members = np.flatnonzero(np.bincount(slot, minlength=1 << slot_bits)[slot] > 1)
        members = members[np.argsort(keys[members], kind="stable")]
        member_keys = keys[members]
        run_first = np.ones(len(members), bool)
        run_first[1:] = member_keys[1:] != member_keys[:-1]
        run_start = np.flatnonzero(run_first)
        start_of_member = run_start[np.cumsum(run_first) - 1]
        partners = np.minimum(np.arange(len(members)) - start_of_member, MAX_BUCKET_PARTNERS)
        later = np.repeat(members, partners)
        offset_in_repeat = np.arange(len(later)) - np.repeat(np.cumsum(partners) - partners, partners)
        earlier = members[np.repeat(start_of_member, partners) + offset_in_repeat]
        found.append(earlier * n_items + later)
    codes = np.sort(np.concatenate(found)) if found else np.empty(0, np.int64)
    distinct = np.ones(len(codes), bool)
    distinct[1:] = codes[1:] != codes[:-1]
    codes = codes[distinct]
    return codes // n_items, codes % n_items


def _estimated_jaccard(sketches: np.ndarray, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Jaccard estimated from 8-bit MinHash values (b-bit minwise hashing, Li and König 2010):
    two values agree with probability J + (1 - J) / 256."""
    agreeing = np.empty(len(left))
    for start in range(0, len(left), 65536):
        stop = start + 65536
        agreeing[start:stop] = np.count_nonzero(
            sketches[left[start:stop]] == sketches[right[start:stop]], axis=1
        )
    chance = 1 / 256
    return (agreeing / sketches.shape[1] - chance) / (1 - chance)


def _shingle_fingerprints(texts: pl.Series, shingle_size: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct shingles of each text as sorted 32-bit fingerprints, concatenated, and each
    text's offsets into them. Texts are re-tokenised a chunk at a time, so memory stays bounded."""

    def fingerprints(bounds: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        start, stop = bounds
        shingles, shingle_text = _shingles(_tokenise(texts.slice(start, stop - start)), shingle_size)
        keyed = np.sort((shingle_text.astype(_U64) << _U64(32)) | (shingles >> _U64(32)))
        distinct = np.ones(len(keyed), bool)
        distinct[1:] = keyed[1:] != keyed[:-1]
        keyed = keyed[distinct]
        counts = np.bincount((keyed >> _U64(32)).astype(np.int64), minlength=stop - start)
        return keyed.astype(np.uint32), counts

    parts = _map_in_threads(fingerprints, _chunk_bounds(texts.str.len_bytes().to_numpy(), _CHUNK_BYTES))
    values = np.concatenate([part[0] for part in parts])
    offsets = np.zeros(len(texts) + 1, np.int64)
    np.cumsum(np.concatenate([part[1] for part in parts]), out=offsets[1:])
    return values, offsets


def _verified_jaccard(
    texts_of: TextSource, rows: np.ndarray, left: np.ndarray, right: np.ndarray, shingle_size: int
) -> np.ndarray:
    """Jaccard similarity of the shingle sets of the texts of rows[left[i]] and rows[right[i]]."""
    if len(left) == 0:
        return np.empty(0)
    involved, inverse = np.unique(np.concatenate((left, right)), return_inverse=True)
    texts = texts_of(rows[involved])
    if texts.null_count():
        texts = texts.fill_null("")
    values, offsets = _shingle_fingerprints(texts, shingle_size)
    del texts
    sizes = np.diff(offsets)
    left_local, right_local = inverse[: len(left)], inverse[len(left) :]
    pair_sizes = sizes[left_local] + sizes[right_local]
    intersections = np.zeros(len(left), np.int64)
    # Per batch of pairs: both sets of each pair, tagged with the pair, sorted together; a shingle
    # in both sets shows up as two equal neighbours.
    for start, stop in _chunk_bounds(pair_sizes, _VERIFY_BATCH):
        members = np.concatenate((left_local[start:stop], right_local[start:stop]))
        counts = sizes[members]
        owner = np.repeat(np.tile(np.arange(stop - start, dtype=_U64), 2), counts)
        within = np.arange(len(owner)) - np.repeat(np.cumsum(counts) - counts, counts)
        tagged = (owner << _U64(32)) | values[np.repeat(offsets[members], counts) + within]
        tagged.sort()
        shared = tagged[1:][tagged[1:] == tagged[:-1]]
        intersections[start:stop] = np.bincount((shared >> _U64(32)).astype(np.int64), minlength=stop - start)
    return intersections / np.maximum(pair_sizes - intersections, 1)


def _assign_to_canonical(
    n_items: int, earlier: np.ndarray, later: np.ndarray, similarity: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each item's canonical item and its similarity with it, from verified (earlier, later) pairs.

    Items are visited in order; an item joins the most similar earlier item that is itself
    canonical, so a chain A~B~C with A !~ C leaves C canonical instead of merging it into A.
    """
    target = np.arange(n_items)
    target_similarity = np.ones(n_items)
    canonical = np.ones(n_items, bool)
    # By later item, then best similarity, then earliest candidate: an item's first usable pair wins.
    for index in np.lexsort((earlier, -similarity, later)).tolist():
        item, candidate = int(later[index]), int(earlier[index])
        if canonical[item] and canonical[candidate]:
            target[item] = candidate
            target_similarity[item] = similarity[index]
            canonical[item] = False
    return target, target_similarity


def _paper_ids(digests: np.ndarray) -> pl.Series:
    """'P' + 16 hex digits of each digest, as paper_id_for writes them."""
    big_endian = pa.py_buffer(digests.astype(">u8").tobytes())
    as_binary = pa.Array.from_buffers(pa.binary(8), len(digests), [None, big_endian])
    hexed = pl.Series(as_binary.cast(pa.binary())).bin.encode("hex")
    return ("P" + hexed).alias("paper_id")
