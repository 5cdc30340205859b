"""Write a synthetic corpus of abstracts, with known duplicates, for benchmarks: seed-format text
files (`--format text`, the default) or arXiv OAI metadata snapshot JSON Lines (`--format arxiv`).

Originals are recombined from real abstracts: each takes the sentence count of a random real
abstract and fills it with sentences drawn at random from all real abstracts (20 to 2,000 words,
what the pipeline takes for an abstract), so every text is new but reads like an abstract, and
many pairs of different abstracts share a sentence (a hard case for near-duplicate detection).
Then copies of originals are injected at random places:

- exact: a verbatim copy; `format`: the same text with case, spacing or markdown/LaTeX markup
  changed (identical after cleaning and normalisation, so it should be matched as exact);
- near: a copy with typos, one sentence reworded, one sentence dropped (typos instead where that
  would leave fewer than 20 words), or typos plus markup.

The texts are the same in both formats for the same arguments. `--format arxiv` writes each text
as one record with all 14 fields of the Kaggle snapshot (`arxiv_record`); the snapshot has one
record per arXiv id, so a copy is a record of its own with an id of its own, as a second
submission of the same paper is, with its original's title, authors and categories. Ids rise
with the position in the file, as in the snapshot. The snapshot is one file (about 2.9M
records), so arxiv writes one file unless `--files` asks for more; text writes files of 5,000 to
20,000 abstracts unless `--files` asks for a number.

The input files are written to `OUT/inputs/`, the directory to build from. The ground truth
(`OUT/ground_truth.csv`) lists every injected copy as `document_id,original_id,kind` with document
ids in the pipeline's `<file>:<ordinal>` form; `OUT/manifest.json` records the format, the files,
the number of records and the arguments. Texts are written as they are generated, and originals
are held as indices into the pool of real sentences, so 3M records need well under 1 GB. Same
arguments, same output.

    python benchmarks/generate_corpus.py --n 100000 --out /path/to/corpus
    python benchmarks/generate_corpus.py --n 3000000 --format arxiv --out /path/to/arxiv-3m
"""

from __future__ import annotations

import argparse
import bisect
import csv
import datetime
import functools
import gzip
import json
import os
import random
import re
import sys
import tempfile
from array import array
from collections.abc import Iterator
from pathlib import Path

import orjson
import xxhash

DEFAULT_SOURCE = Path("/work/shared/corpus/abstracts.jsonl.gz")
SHIPPED_SEEDS = Path(__file__).resolve().parent.parent / "seeds"
SOURCE_ENV = "PAPERS_BENCH_SOURCE"
MIN_WORDS = 20
# The most words the pipeline takes for an abstract (`parse.MAX_WORDS`, `records.MAX_ABSTRACT_WORDS`):
# a longer original would be rejected, and a JSON Lines file numbers its documents without its
# rejects, so the ground truth's ordinals would drift after it.
MAX_WORDS = 2000
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9$\\(])")
_WHITESPACE = re.compile(r"\s+")
NEAR_KINDS = ("typos", "reworded", "dropped", "typos+markup")
EXACT_KINDS = ("exact", "format")
FORMATS = ("text", "arxiv")
ARXIV_FILE = "arxiv-metadata-oai-snapshot.json"
MANIFEST = "manifest.json"
# The input files go in a directory of their own: the pipeline reads every entry of its input
# directory, and would read the ground truth and the manifest as inputs.
INPUTS = "inputs"


def default_source() -> Path:
    """$PAPERS_BENCH_SOURCE, else the shared corpus, else the repository's seeds/."""
    if os.environ.get(SOURCE_ENV):
        return Path(os.environ[SOURCE_ENV])
    return DEFAULT_SOURCE if DEFAULT_SOURCE.exists() else SHIPPED_SEEDS


@functools.cache  # read once for the abstracts and once for the titles and names
def _source_rows(source: Path) -> list[dict]:
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def read_abstracts(source: Path) -> list[str]:
    """Abstracts from a .jsonl(.gz) file with an `abstract` field, or from seed-format .txt files
    (a file or a directory of them)."""
    if source.suffix in {".gz", ".jsonl"}:
        return [row["abstract"] for row in _source_rows(source)]
    paths = sorted(source.glob("*.txt")) if source.is_dir() else [source]
    abstracts = []
    for path in paths:
        paragraphs = re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
        abstracts.extend(p for p in paragraphs[1:] if p.strip())
    return abstracts


def read_titles_and_names(source: Path) -> tuple[list[str], list[str]]:
    """Real titles and distinct author names ('A; B' in `authors`) of a .jsonl(.gz) source; none
    from seed-format text, which has neither."""
    if source.suffix not in {".gz", ".jsonl"}:
        return [], []
    rows = _source_rows(source)
    titles = [" ".join(row["title"].split()) for row in rows if row.get("title")]
    names = {name.strip() for row in rows for name in (row.get("authors") or "").split(";")}
    return titles, sorted(name for name in names if " " in name)


def sentences_of(abstract: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(_WHITESPACE.sub(" ", abstract).strip()) if s]


class Mutator:
    """The edits that turn an original into a near or formatting duplicate."""

    def __init__(self, rng: random.Random, vocabulary: list[str]):
        self.rng = rng
        self.vocabulary = vocabulary

    def typos(self, sentences: list[str], count: int) -> list[str]:
        words = " ".join(sentences).split(" ")
        for _ in range(count):
            index = self.rng.randrange(len(words))
            words[index] = self._misspell(words[index])
        return sentences_of(" ".join(words))

    def _misspell(self, word: str) -> str:
        if len(word) < 3:
            return word + self.rng.choice("aeiou")
        position = self.rng.randrange(1, len(word) - 1)
        edit = self.rng.randrange(3)
        if edit == 0:
            return word[:position] + word[position + 1 :]
        if edit == 1:
            return word[:position] + word[position + 1] + word[position] + word[position + 2 :]
        return word[:position] + self.rng.choice("etaoinshr") + word[position + 1 :]

    def reworded(self, sentences: list[str]) -> list[str]:
        """One sentence rewritten: about half its words replaced and two neighbours swapped."""
        index = self.rng.randrange(len(sentences))
        words = sentences[index].split(" ")
        for position in range(0, len(words), 2):
            words[position] = self.rng.choice(self.vocabulary)
        if len(words) > 3:
            swap = self.rng.randrange(len(words) - 1)
            words[swap], words[swap + 1] = words[swap + 1], words[swap]
        return [*sentences[:index], " ".join(words), *sentences[index + 1 :]]

    def dropped(self, sentences: list[str]) -> list[str]:
        if len(sentences) < 3:
            return self.typos(sentences, 2)
        index = self.rng.randrange(len(sentences))
        kept = sentences[:index] + sentences[index + 1 :]
        if len(" ".join(kept).split()) < MIN_WORDS:  # the text reader would reject it as a fragment
            return self.typos(sentences, 2)
        return kept

    def markup(self, text: str) -> str:
        """Add markdown emphasis or math delimiters around a word, or strip existing ones."""
        if "**" in text or "$" in text:
            return text.replace("**", "").replace("$", "")
        words = text.split(" ")
        index = self.rng.randrange(len(words))
        word = words[index]
        if word.isalpha():
            words[index] = f"**{word}**" if self.rng.random() < 0.5 else f"${word}$"
        return " ".join(words)

    def reformatted(self, text: str) -> str:
        choice = self.rng.randrange(3)
        if choice == 0:
            return text.replace(". ", ".  ", 3)
        if choice == 1:
            return self.markup(text)
        return text.upper() if len(text) < 200 else text[:1].lower() + text[1:]


class Corpus:
    """The generated texts in output order, held compactly: an original as the indices of its
    sentences in the pool, a copy's text in a temporary file. `copies` holds (position of the copy,
    position of its original, kind) for every injected copy; `work_of(position)` is the original a
    text is or copies, numbered in generation order."""

    def __init__(self, pool: list[str], n: int, n_original: int) -> None:
        self.pool = pool
        self.n_original = n_original
        self._sentences = array("I")
        self._sentence_offsets = array("Q", [0])
        # Open for the corpus's life: `close` (or the end of a `with` block) deletes it.
        self._copy_file = tempfile.TemporaryFile()  # noqa: SIM115
        self._copy_offsets = array("Q", [0])
        self._copy_sources = array("I")
        self.order = array("I", range(n))
        self.copies: list[tuple[int, int, str]] = []

    def __enter__(self) -> Corpus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def originals(self) -> int:
        return len(self._sentence_offsets) - 1

    def add_original(self, sentence_indices: list[int]) -> None:
        self._sentences.extend(sentence_indices)
        self._sentence_offsets.append(len(self._sentences))

    def original_sentences(self, index: int) -> list[str]:
        start, end = self._sentence_offsets[index], self._sentence_offsets[index + 1]
        return [self.pool[i] for i in self._sentences[start:end]]

    def add_copy(self, source: int, text: str) -> None:
        encoded = text.encode("utf-8")
        self._copy_file.write(encoded)
        self._copy_offsets.append(self._copy_offsets[-1] + len(encoded))
        self._copy_sources.append(source)

    def __len__(self) -> int:
        return len(self.order)

    def _text_of(self, index: int) -> str:
        if index < self.n_original:
            return " ".join(self.original_sentences(index))
        number = index - self.n_original
        start, end = self._copy_offsets[number], self._copy_offsets[number + 1]
        return os.pread(self._copy_file.fileno(), end - start, start).decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        self._copy_file.flush()
        return (self._text_of(index) for index in self.order)

    def work_of(self, position: int) -> int:
        index = self.order[position]
        return index if index < self.n_original else self._copy_sources[index - self.n_original]

    def close(self) -> None:
        self._copy_file.close()


def generate(abstracts: list[str], n: int, seed: int, exact_rate: float, near_rate: float) -> Corpus:
    """The corpus's texts and injected copies, in output order."""
    rng = random.Random(seed)
    split = [sentences_of(a) for a in abstracts]
    split = [s for s in split if s]
    pool = list(dict.fromkeys(sentence for sentences in split for sentence in sentences))
    vocabulary = list(dict.fromkeys(word for sentence in pool[:20000] for word in sentence.split(" ")))
    mutate = Mutator(rng, vocabulary)
    n_exact = int(n * exact_rate)
    n_near = int(n * near_rate)
    n_original = n - n_exact - n_near
    corpus = Corpus(pool, n, n_original)
    pool_index = range(len(pool))
    # Hashes of the texts, not the texts: the originals are never all held in memory. A false
    # collision of 64-bit hashes among 3M texts has a chance of about 1 in 4 million.
    seen: set[int] = set()
    while corpus.originals() < n_original:
        count = len(rng.choice(split))
        indices = rng.sample(pool_index, max(count, 2))
        text = " ".join(pool[i] for i in indices)
        digest = xxhash.xxh3_64_intdigest(text.encode("utf-8"))
        if not MIN_WORDS <= len(text.split()) <= MAX_WORDS or digest in seen:
            continue
        seen.add(digest)
        corpus.add_original(indices)
    del seen
    copies: list[tuple[int, int, str]] = []
    for number in range(n_exact + n_near):
        source = rng.randrange(n_original)
        sentences = corpus.original_sentences(source)
        if number < n_exact:
            kind = rng.choices(EXACT_KINDS, weights=(0.7, 0.3))[0]
            original = " ".join(sentences)
            text = original if kind == "exact" else mutate.reformatted(original)
        else:
            kind = rng.choice(NEAR_KINDS)
            if kind == "typos":
                text = " ".join(mutate.typos(sentences, rng.randint(1, 4)))
            elif kind == "reworded":
                text = " ".join(mutate.reworded(sentences))
            elif kind == "dropped":
                text = " ".join(mutate.dropped(sentences))
            else:
                text = mutate.markup(" ".join(mutate.typos(sentences, rng.randint(1, 2))))
        copies.append((n_original + number, source, kind))
        corpus.add_copy(source, text)
    rng.shuffle(corpus.order)
    position = array("I", bytes(4 * n))
    for rank, index in enumerate(corpus.order):
        position[index] = rank
    corpus.copies = [(position[copy], position[original], kind) for copy, original, kind in copies]
    return corpus


def text_file_sizes(n: int, rng: random.Random, files: int | None) -> Iterator[int]:
    """Abstracts per text file: `files` equal parts, else 5,000 to 20,000 at random."""
    if files:
        base, extra = divmod(n, files)
        yield from (base + (number < extra) for number in range(files))
        return
    remaining = n
    while remaining > 0:
        size = min(remaining, rng.randint(5000, 20000))
        yield size
        remaining -= size


def write_text_corpus(
    corpus: Corpus, out: Path, seed: int, files: int | None = None
) -> list[tuple[str, int]]:
    """Seed-format files of the corpus's texts in order; (file name, abstracts) per file."""
    rng = random.Random(seed + 1)
    venues = ["NeurIPS", "ICML", "ICLR", "AISTATS", "COLT", "UAI", "CoRL", "ACML"]
    texts = iter(corpus)
    written = []
    for number, size in enumerate(text_file_sizes(len(corpus), rng, files)):
        name = f"bench_{number:04d}.txt"
        header = f"{rng.choice(venues)} {rng.randint(2000, 2025)} Papers"
        with (out / name).open("w", encoding="utf-8") as handle:
            handle.write(header + "\n")
            for _ in range(size):
                handle.write("\n" + next(texts) + "\n")
        written.append((name, size))
    return written


def arxiv_id(number: int) -> str:
    """The id of the snapshot's `number`-th record (from 0): 8,000 a month with four digits from
    April 2007 to 2014, then 20,000 a month with five digits, as arXiv numbers them since 2015."""
    old_months, old_per_month, new_per_month = 93, 8_000, 20_000
    if number < old_months * old_per_month:
        month, serial, width, start = *divmod(number, old_per_month), 4, (2007, 4)
    else:
        month, serial = divmod(number - old_months * old_per_month, new_per_month)
        width, start = 5, (2015, 1)
    year, month_index = divmod(start[1] - 1 + month, 12)
    return f"{(start[0] + year) % 100:02d}{month_index + 1:02d}.{serial + 1:0{width}d}"


def _arxiv_abstract(text: str, width: int = 80) -> str:
    """The snapshot's layout: two leading spaces, lines wrapped at 80 columns, a final newline."""
    rest, lines = "  " + text, []
    while len(rest) > width:
        cut = rest.rfind(" ", 3, width + 1)
        if cut == -1:  # a word longer than a line stays whole
            cut = rest.find(" ", width)
            if cut == -1:
                break
        lines.append(rest[:cut])
        rest = rest[cut + 1 :]
    lines.append(rest)
    return "\n".join(lines) + "\n"


CATEGORIES = ("cs.LG", "stat.ML", "cs.CV", "cs.CL", "cs.AI", "cs.RO", "cs.NE", "cs.IR", "math.OC", "eess.IV")
LICENCES = (
    "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
    "http://creativecommons.org/licenses/by/4.0/",
    "http://creativecommons.org/licenses/by-sa/4.0/",
    "http://creativecommons.org/licenses/by-nc-sa/4.0/",
)
JOURNALS = ("Proceedings of ICML", "Advances in NeurIPS", "JMLR", "IEEE TPAMI", "Proceedings of AAAI")


class ArxivRecords:
    """Snapshot records around the generated texts. What belongs to the work (title, authors,
    categories) is drawn from the number of the original a text is or copies, so that a copy
    shares it; what belongs to the submission (id, dates, comments, licence, DOI, journal
    reference, report number) from the record's own number."""

    def __init__(self, seed: int, titles: list[str], names: list[str]) -> None:
        self.seed = seed
        self.titles = titles
        self.names = names or [f"{first} {last}" for first in "ABCDEFGH" for last in ("Lee", "Kim", "Smith")]
        self.rng = random.Random()

    def _work(self, work: int) -> tuple[str, list[str], str]:
        rng = self.rng
        rng.seed(self.seed * 1_000_003 + 2 * work)
        if self.titles:
            first, second = rng.choice(self.titles).split(" "), rng.choice(self.titles).split(" ")
            title = " ".join(first[: (len(first) + 1) // 2] + second[len(second) // 2 :])
        else:
            title = f"Study number {work}"
        authors = rng.sample(self.names, min(len(self.names), rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 8))))
        categories = " ".join(rng.sample(CATEGORIES, rng.choice((1, 1, 2, 2, 3))))
        return title, authors, categories

    def record(self, number: int, work: int, text: str) -> dict:
        title, authors, categories = self._work(work)
        rng = self.rng
        rng.seed(self.seed * 1_000_003 + 2 * number + 1)
        identifier = arxiv_id(number)
        year, month = 2000 + int(identifier[:2]), int(identifier[2:4])
        created = datetime.datetime(year, month, rng.randint(1, 28), rng.randrange(24), rng.randrange(60))
        versions = []
        for version in range(rng.choice((1, 1, 1, 2, 2, 3))):
            versions.append(
                {"version": f"v{version + 1}", "created": created.strftime("%a, %-d %b %Y %H:%M:%S GMT")}
            )
            created += datetime.timedelta(days=rng.randint(3, 200), minutes=rng.randrange(1440))
        year_published = year + rng.randint(0, 1)
        published = rng.random() < 0.15
        return {
            "id": identifier,
            "submitter": authors[0],
            "authors": ", ".join(authors[:-1]) + " and " + authors[-1] if len(authors) > 1 else authors[0],
            "title": title,
            "comments": f"{rng.randint(4, 40)} pages, {rng.randint(1, 12)} figures"
            if rng.random() < 0.85
            else None,
            "journal-ref": f"{rng.choice(JOURNALS)} {year_published}" if published else None,
            "doi": f"10.{rng.randint(1000, 9999)}/bench.{identifier}" if published else None,
            "report-no": f"REPORT-{year}-{rng.randint(1, 999):03d}" if rng.random() < 0.03 else None,
            "categories": categories,
            "license": rng.choice(LICENCES) if rng.random() < 0.7 else None,
            "abstract": _arxiv_abstract(text),
            "versions": versions,
            "update_date": (created - datetime.timedelta(days=1)).strftime("%Y-%m-%d"),
            "authors_parsed": [[*reversed(name.rsplit(" ", 1)), ""] for name in authors],
        }


def arxiv_file_names(files: int) -> list[str]:
    if files == 1:
        return [ARXIV_FILE]
    return [f"arxiv-metadata-oai-snapshot-{number:04d}.json" for number in range(files)]


def write_arxiv_corpus(
    corpus: Corpus, out: Path, records: ArxivRecords, files: int = 1
) -> list[tuple[str, int]]:
    """The corpus's texts as snapshot records, in `files` files of equal size."""
    base, extra = divmod(len(corpus), files)
    texts = iter(corpus)
    position = 0
    written = []
    for number, name in enumerate(arxiv_file_names(files)):
        size = base + (number < extra)
        with (out / name).open("wb") as handle:
            for _ in range(size):
                record = records.record(position, corpus.work_of(position), next(texts))
                handle.write(orjson.dumps(record) + b"\n")
                position += 1
        written.append((name, size))
    return written


def write_ground_truth(out: Path, copies: list[tuple[int, int, str]], files: list[tuple[str, int]]) -> None:
    """Every copy as `<file>:<ordinal>` of itself and of its original (ordinals from 1, as the
    pipeline numbers a file's documents)."""
    starts, total = [], 0
    for _, size in files:
        starts.append(total)
        total += size

    def location(position: int) -> str:
        number = bisect.bisect_right(starts, position) - 1
        return f"{files[number][0]}:{position - starts[number] + 1}"

    with (out / "ground_truth.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["document_id", "original_id", "kind"])
        for copy, original, kind in sorted(copies):
            writer.writerow([location(copy), location(original), kind])


def write_added_file(
    directory: Path, stem: str, n: int, seed: int, corpus_format: str, first_number: int
) -> Path:
    """`n` new originals (recombined like a corpus, with `seed`) in one more file of the corpus's
    format, named `stem` plus the format's suffix; arXiv records numbered from `first_number`, so
    their ids follow the corpus's."""
    source = default_source()
    with generate(read_abstracts(source), n, seed, exact_rate=0.0, near_rate=0.0) as corpus:
        if corpus_format == "text":
            path = directory / f"{stem}.txt"
            path.write_text("NeurIPS 2025 Papers\n\n" + "\n\n".join(corpus) + "\n", encoding="utf-8")
            return path
        path = directory / f"{stem}.json"
        records = ArxivRecords(seed, *read_titles_and_names(source))
        with path.open("wb") as handle:
            for offset, text in enumerate(corpus):
                handle.write(orjson.dumps(records.record(first_number + offset, first_number + offset, text)))
                handle.write(b"\n")
        return path


def read_manifest(corpus: Path) -> dict | None:
    """The corpus's manifest; None for a corpus written before manifests (its inputs beside its
    ground truth)."""
    path = corpus / MANIFEST
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="abstracts to write (default 1,000,000)")
    parser.add_argument(
        "--out", type=Path, required=True, help="directory to write the corpus into (its files in OUT/inputs)"
    )
    parser.add_argument("--format", choices=FORMATS, default="text", help="seed text (default) or arxiv")
    parser.add_argument(
        "--files",
        type=int,
        default=None,
        help="number of files (default: one for arxiv, as the snapshot; 5,000 to 20,000 abstracts each "
        "for text)",
    )
    parser.add_argument(
        "--source",
        type=Path,
        default=None,
        help=f"real abstracts (default: ${SOURCE_ENV}, "
        f"else {DEFAULT_SOURCE} when present, else the repository's seeds/)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--exact-rate", type=float, default=0.05, help="fraction that are exact copies")
    parser.add_argument("--near-rate", type=float, default=0.05, help="fraction that are near copies")
    args = parser.parse_args(argv)
    source = args.source or default_source()
    abstracts = read_abstracts(source)
    if not abstracts:
        print(f"no abstracts found in {source}", file=sys.stderr)
        return 1
    inputs = args.out / INPUTS
    inputs.mkdir(parents=True, exist_ok=True)
    with generate(abstracts, args.n, args.seed, args.exact_rate, args.near_rate) as corpus:
        if args.format == "text":
            files = write_text_corpus(corpus, inputs, args.seed, args.files)
        else:
            records = ArxivRecords(args.seed, *read_titles_and_names(source))
            files = write_arxiv_corpus(corpus, inputs, records, args.files or 1)
        write_ground_truth(args.out, corpus.copies, files)
    manifest = {
        "format": args.format,
        "records": args.n,
        "files": [name for name, _ in files],
        "seed": args.seed,
        "exact_rate": args.exact_rate,
        "near_rate": args.near_rate,
        "source": str(source),
    }
    (args.out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(
        f"wrote {len(corpus):,} abstracts ({len(corpus.copies):,} injected copies) from {len(abstracts):,} "
        f"real ones in {source} to {args.out}, {args.format} format, {len(files)} file(s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
