"""Write a synthetic corpus of abstracts in the seed format, with known duplicates, for benchmarks.

Originals are recombined from real abstracts: each takes the sentence count of a random real
abstract and fills it with sentences drawn at random from all real abstracts, so every text is
new but reads like an abstract, and many pairs of different abstracts share a sentence (a hard
case for near-duplicate detection). Then copies of originals are injected at random places:

- exact: a verbatim copy; `format`: the same text with case, spacing or markdown/LaTeX markup
  changed (identical after cleaning and normalisation, so it should be matched as exact);
- near: a copy with typos, one sentence reworded, one sentence dropped, or typos plus markup.

The ground truth (`ground_truth.csv`) lists every injected copy as `document_id,original_id,kind`
with document ids in the pipeline's `<file>:<ordinal>` form. Same arguments, same output.

    python benchmarks/generate_corpus.py --n 100000 --out /path/to/corpus
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import os
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

DEFAULT_SOURCE = Path("/work/shared/corpus/abstracts.jsonl.gz")
SHIPPED_SEEDS = Path(__file__).resolve().parent.parent / "seeds"
SOURCE_ENV = "PAPERS_BENCH_SOURCE"
MIN_WORDS = 20
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9$\\(])")
_WHITESPACE = re.compile(r"\s+")
NEAR_KINDS = ("typos", "reworded", "dropped", "typos+markup")
EXACT_KINDS = ("exact", "format")


def default_source() -> Path:
    """$PAPERS_BENCH_SOURCE, else the shared corpus, else the repository's seeds/."""
    if os.environ.get(SOURCE_ENV):
        return Path(os.environ[SOURCE_ENV])
    return DEFAULT_SOURCE if DEFAULT_SOURCE.exists() else SHIPPED_SEEDS


def read_abstracts(source: Path) -> list[str]:
    """Abstracts from a .jsonl(.gz) file with an `abstract` field, or from seed-format .txt files
    (a file or a directory of them)."""
    if source.suffix in {".gz", ".jsonl"}:
        opener = gzip.open if source.suffix == ".gz" else open
        with opener(source, "rt", encoding="utf-8") as lines:
            return [json.loads(line)["abstract"] for line in lines if line.strip()]
    paths = sorted(source.glob("*.txt")) if source.is_dir() else [source]
    abstracts = []
    for path in paths:
        paragraphs = re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
        abstracts.extend(p for p in paragraphs[1:] if p.strip())
    return abstracts


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
        return sentences[:index] + sentences[index + 1 :]

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


def generate(
    abstracts: list[str], n: int, seed: int, exact_rate: float, near_rate: float
) -> tuple[list[str], list[tuple[int, int, str]]]:
    """Texts in output order, and (copy index, original index, kind) for every injected copy."""
    rng = random.Random(seed)
    split = [sentences_of(a) for a in abstracts]
    split = [s for s in split if s]
    pool = list(dict.fromkeys(sentence for sentences in split for sentence in sentences))
    vocabulary = list(dict.fromkeys(word for sentence in pool[:20000] for word in sentence.split(" ")))
    mutate = Mutator(rng, vocabulary)
    n_exact = int(n * exact_rate)
    n_near = int(n * near_rate)
    n_original = n - n_exact - n_near
    seen: set[str] = set()
    originals: list[list[str]] = []
    while len(originals) < n_original:
        count = len(rng.choice(split))
        sentences = rng.sample(pool, max(count, 2))
        text = " ".join(sentences)
        if len(text.split()) < MIN_WORDS or text in seen:
            continue
        seen.add(text)
        originals.append(sentences)
    texts = [" ".join(s) for s in originals]
    copies: list[tuple[int, int, str]] = []
    for number in range(n_exact + n_near):
        source = rng.randrange(n_original)
        sentences = originals[source]
        if number < n_exact:
            kind = rng.choices(EXACT_KINDS, weights=(0.7, 0.3))[0]
            text = texts[source] if kind == "exact" else mutate.reformatted(texts[source])
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
        copies.append((len(texts), source, kind))
        texts.append(text)
    order = list(range(len(texts)))
    rng.shuffle(order)
    position = {index: rank for rank, index in enumerate(order)}
    shuffled = [texts[index] for index in order]
    return shuffled, [(position[copy], position[original], kind) for copy, original, kind in copies]


def file_sizes(n: int, rng: random.Random) -> Iterator[int]:
    remaining = n
    while remaining > 0:
        size = min(remaining, rng.randint(5000, 20000))
        yield size
        remaining -= size


def write_corpus(texts: list[str], copies: list[tuple[int, int, str]], out: Path, seed: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed + 1)
    venues = ["NeurIPS", "ICML", "ICLR", "AISTATS", "COLT", "UAI", "CoRL", "ACML"]
    location: list[str] = []
    start = 0
    for number, size in enumerate(file_sizes(len(texts), rng)):
        name = f"bench_{number:04d}.txt"
        header = f"{rng.choice(venues)} {rng.randint(2000, 2025)} Papers"
        (out / name).write_text(header + "\n\n" + "\n\n".join(texts[start : start + size]) + "\n", "utf-8")
        location.extend(f"{name}:{ordinal}" for ordinal in range(1, size + 1))
        start += size
    with (out / "ground_truth.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["document_id", "original_id", "kind"])
        for copy, original, kind in sorted(copies):
            writer.writerow([location[copy], location[original], kind])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="abstracts to write (default 1,000,000)")
    parser.add_argument("--out", type=Path, required=True, help="directory to write the .txt files into")
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
    texts, copies = generate(abstracts, args.n, args.seed, args.exact_rate, args.near_rate)
    write_corpus(texts, copies, args.out, args.seed)
    print(
        f"wrote {len(texts):,} abstracts ({len(copies):,} injected copies) from {len(abstracts):,} "
        f"real ones in {source} to {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
