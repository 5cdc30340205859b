"""The curated word lists that ship with the package, and one Aho–Corasick pass to find them.

Each file under ``lexicons/`` holds one entry a line: ``|``-separated surface forms, the first
being the canonical name. Lines starting with ``#`` are comments (every file names its sources).
An entry whose canonical name is an acronym takes as expansion its first alias that spells it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

import ahocorasick

from pipeline.lib.extract.abbreviations import backward_match
from pipeline.lib.extract.vocabulary import CUE_WORDS

LEXICON_DIR = Path(__file__).with_name("lexicons")

# kind of entry -> file; entity kinds carry their entity type.
ENTITY_FILES = {
    "method": "methods.txt",
    "model": "models.txt",
    "dataset": "datasets.txt",
    "metric": "metrics.txt",
}
# Field acronyms and topics: abbreviations only, never entities (LLM, RL, KV ...).
TOPIC_FILE = "topics.txt"
# Capitalised tokens that are not names (SOTA, GPU, emphasis words ...).
NON_ENTITY_FILE = "non_entities.txt"
# Name prefixes of model families: a shape token starting with one is a model (Qwen3-8B).
MODEL_FAMILY_FILE = "model_families.txt"
# Natural languages: the material a paper works on (English, Japanese ...).
LANGUAGE_FILE = "languages.txt"

_DASHES = str.maketrans({"-": " ", "‐": " ", "‑": " ", "–": " ", "—": " ", "_": " ", "’": "'"})
# For searching, punctuation that ends a word also becomes a space (and capitals lower case), so
# every key can be padded with spaces and the automaton reports only matches on word boundaries.
_SEARCH = str.maketrans(
    {
        **{c: " " for c in '-‐‑–—_,;:()[]{}"“”!?\n\t'},
        **{chr(c): chr(c + 32) for c in range(ord("A"), ord("Z") + 1)},
        "’": "'",
    }
)
# The same mapping in two parts, for the text of every abstract: str.translate looks each character
# up in a dict once the text holds a non-ASCII one, several times slower than bytes.translate over
# its UTF-8 (whose multi-byte characters hold no ASCII byte) and a replace per non-ASCII character.
_SEARCH_ASCII = bytes.maketrans(
    bytes(c for c in _SEARCH if c < 128), bytes(ord(_SEARCH[c]) for c in _SEARCH if c < 128)
)
_SEARCH_NON_ASCII = tuple((chr(c), _SEARCH[c]) for c in _SEARCH if c >= 128)
_SPACES = re.compile(r"\s+")


class Entry(NamedTuple):
    name: str
    kind: str  # an entity type, "topic", "non_entity", or "cue:<cue kind>" for a cue word
    expansion: str | None


class Hit(NamedTuple):
    start: int
    end: int
    entry: Entry


class _Variant(NamedTuple):
    length: int  # of the padded key
    exact: str | None  # the form, when its case must match; else None
    entry: Entry
    cue: bool  # a cue word, not a name: entry.kind starts with 'cue:'


def match_key(text: str) -> str:
    """The form lexicon keys and the searched text share: lower case, dashes as spaces."""
    return text.lower().translate(_DASHES)


def _read_entries(path: Path) -> list[list[str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rows.append([form.strip() for form in line.split("|") if form.strip()])
    return rows


def _expansion(forms: list[str]) -> str | None:
    name = forms[0]
    if " " in name or sum(c.isupper() for c in name) < 2:
        return None
    for alias in forms[1:]:
        if (
            (" " in alias or "-" in alias)
            and letters(alias) != letters(name)
            and backward_match(name, alias) == 0
        ):
            return alias
    return None


def letters(form: str) -> str:
    """'MT-bench' and 'MT-Bench', 'VQA v2' and 'VQAv2': spellings of one name, not an expansion."""
    return "".join(c for c in form.lower() if c.isalnum())


def _acronym_first(forms: list[str]) -> list[str]:
    """'Low-Rank Adaptation | LoRA' is named LoRA, as a paper that defines it would name it."""
    if " " not in forms[0]:
        return forms
    for k, alias in enumerate(forms[1:], 1):
        if " " not in alias and sum(c.isupper() for c in alias) >= 2 and backward_match(alias, forms[0]) == 0:
            return [alias, *forms[:k], *forms[k + 1 :]]
    return forms


def _case_sensitive(form: str) -> bool:
    """Single-word forms with capitals (SAM, Adam, CLIP, Mistral) must match their exact case,
    or they would fire on ordinary words; multi-word and lower-case forms match any case."""
    return " " not in form and any(c.isupper() for c in form)


def _same_capitalised(lexicon_form: str, written: str) -> bool:
    """The written form is the lexicon's, case and all; or both mix cases with two capitals or more
    and differ only in case: 'LLaVa' is LLaVA and 'mIOU' is mIoU, but 'Sam' is not SAM and 'TOT'
    (all capitals, another acronym) is not ToT."""
    if written.startswith(lexicon_form):
        return True
    return written.lower() == lexicon_form.lower() and all(
        sum(c.isupper() for c in f) >= 2 and not f.isupper() for f in (written, lexicon_form)
    )


def _search_text(text: str) -> str:
    """text in the searched form, padded with a space at each end: the same length plus two."""
    searched = text.encode("utf-8", "surrogatepass").translate(_SEARCH_ASCII).decode("utf-8", "surrogatepass")
    if not text.isascii():
        for char, replacement in _SEARCH_NON_ASCII:
            searched = searched.replace(char, replacement)
    searched = searched.replace(". ", "  ")
    if searched.endswith("."):
        searched = searched[:-1] + " "
    return " " + searched + " "


@dataclass(frozen=True)
class Lexicon:
    automaton: ahocorasick.Automaton
    model_family: re.Pattern[str]
    languages: frozenset[str]
    by_key: dict[str, tuple[tuple[str, Entry], ...]]

    def find(self, text: str) -> tuple[list[Hit], list[Hit]]:
        """(names, cues): leftmost-longest lexicon names on word boundaries, and every cue word."""
        best: dict[int, Hit] = {}
        cues: list[Hit] = []
        for last, variants in self.automaton.iter(_search_text(text)):
            for length, exact, entry, is_cue in variants:
                # The key is padded: drop its spaces, and the one that pads the text.
                start = last - length + 1
                end = last - 1
                if is_cue:
                    cues.append(Hit(start, end, entry))
                    continue
                if exact is not None and not _same_capitalised(exact, text[start:end]):
                    continue
                if not on_word_boundaries(text, start, end) and not (
                    entry.kind == "metric" and _AFTER_BOUND.match(text, max(0, start - 2), start)
                ):
                    continue
                hit = best.get(start)
                if hit is None or end > hit.end:
                    best[start] = Hit(start, end, entry)
        hits: list[Hit] = []
        for start in sorted(best):
            if hits and start < hits[-1].end:
                continue
            hits.append(best[start])
        return hits, cues

    def lookup(self, form: str) -> Entry | None:
        """The entry a whole token or phrase names, if any."""
        key = " ".join(match_key(form).split())  # as _SPACES.sub(" ", ...).strip(), but cheaper
        for candidate in (key, key[:-1] if key.endswith("s") else None):
            for lexicon_form, entry in self.by_key.get(candidate or "", ()):
                if not _case_sensitive(lexicon_form):
                    return entry
                # An acronym's plural ends in a lower-case s: 'SAEs' is 'SAE', 'AIMS' is not 'AIM'.
                plural_ok = candidate == key or form.endswith("s")
                written = form.translate(_DASHES)[: len(lexicon_form)]
                if plural_ok and _same_capitalised(lexicon_form.translate(_DASHES), written):
                    return entry
        return None

    def is_model_family(self, token: str) -> bool:
        return self.model_family.match(token) is not None


# A metric joined to the bound before it: '$O(\\log n)$-regret', 'O(√T)-regret'.
_AFTER_BOUND = re.compile(r"[)$}]-")


def on_word_boundaries(text: str, start: int, end: int) -> bool:
    """A match must not be part of a larger word: no letter or digit on either side, no hyphen
    joining it to a name before it, and after it only a hyphen that opens a lower-case word
    (``LoRA-based`` holds ``LoRA``; ``GPT-4o`` does not hold ``GPT``)."""
    if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "-‐"):
        return False
    if end < len(text):
        nxt = text[end]
        if nxt.isalnum() or nxt == "+":
            return False
        if nxt in "-‐" and end + 1 < len(text) and not text[end + 1].islower():
            return False
    return True


@cache
def load_lexicon(directory: Path = LEXICON_DIR) -> Lexicon:
    automaton = ahocorasick.Automaton()
    by_key: dict[str, list[tuple[str, Entry]]] = {}
    files = [*ENTITY_FILES.items(), ("topic", TOPIC_FILE), ("non_entity", NON_ENTITY_FILE)]
    for kind, file_name in files:
        for forms in _read_entries(directory / file_name):
            forms = _acronym_first(forms)
            entry = Entry(forms[0], kind, _expansion(forms) if kind != "non_entity" else None)
            for form in forms:
                by_key.setdefault(_SPACES.sub(" ", match_key(form)).strip(), []).append((form, entry))
    padded: dict[str, list[_Variant]] = {}
    for key, entries in by_key.items():
        search_key = _SPACES.sub(" ", _search_text(key))
        for variant in (search_key, search_key[:-1] + "s "):  # and its plural
            for form, entry in entries:
                # Topics and non-entities matter only as whole tokens: lookup() finds them.
                if entry.kind in ENTITY_FILES:
                    exact = form if _case_sensitive(form) else None
                    padded.setdefault(variant, []).append(_Variant(len(variant), exact, entry, False))
    for cue_kind, words in CUE_WORDS.items():
        for word in words:
            key = f" {word.translate(_SEARCH)} "  # 'super-resolution' is searched as 'super resolution'
            padded.setdefault(key, []).append(
                _Variant(len(key), None, Entry(word, f"cue:{cue_kind}", None), True)
            )
    for key, value in padded.items():
        automaton.add_word(key, tuple(value))
    automaton.make_automaton()
    families = sorted(
        (forms[0] for forms in _read_entries(directory / MODEL_FAMILY_FILE)), key=len, reverse=True
    )
    # A family name followed by anything but a lower-case letter: 'Qwen3-8B', not 'Gemmas'.
    model_family = re.compile("(?:" + "|".join(re.escape(f) for f in families) + ")(?![a-z])")
    languages = frozenset(forms[0] for forms in _read_entries(directory / LANGUAGE_FILE))
    return Lexicon(automaton, model_family, languages, {k: tuple(v) for k, v in by_key.items()})
