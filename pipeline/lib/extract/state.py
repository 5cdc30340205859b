"""The working state of one abstract's extraction: its entities, their spans and forms.

The rules of every stage read the text from it and record what they find in it.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import NamedTuple

from pipeline.lib.extract import proposed as cue
from pipeline.lib.extract.abbreviations import Abbreviation
from pipeline.lib.extract.lexicons import Lexicon, match_key
from pipeline.lib.extract.links import Link


class Mention(NamedTuple):
    start: int
    end: int
    text: str
    name: str
    entity_type: str
    role: str
    expansion: str | None
    # The rule and cue that made the entity proposed or referenced ('proposal_clause:introduce');
    # None where no rule decided its role.
    evidence: str | None


class PaperEntities(NamedTuple):
    mentions: list[Mention]
    abbreviations: list[Abbreviation]
    # The limits that cut this paper short, in LIMITS: more definitions than MAX_DEFINITIONS, more
    # entities than MAX_ENTITIES or more mentions than MAX_MENTIONS were found, and the first kept.
    capped: tuple[str, ...]


# Entities a surface form may belong to. Real abstracts give a form to two at most; without a bound,
# one long form defined under many acronyms ('Foo Bar Net (FBN1) ... Foo Bar Net (FBN2) ...') would
# give each of them every occurrence of it, and every rule that walks an entity's occurrences
# would take time in the square of the text. An entity beyond the bound keeps the span it was
# found at.
MAX_FORM_HOLDERS = 4


# Mentions kept per paper, the first ones in the text. Real abstracts have a few dozen at most, but
# one that defines a long form under many acronyms makes each occurrence of it a mention of every
# one of them: rows that grow with the square of the text.
MAX_MENTIONS = 1000


# Abbreviation definitions kept per paper, the first ones in the text. Real abstracts define 9 at
# most; each definition costs rules that look at the proposal clause and the other names, so
# hundreds of them ('Foo Bar Net (FBN0) ... (FBN249)') would cost many times a normal abstract.
MAX_DEFINITIONS = 20


# Entities kept per paper, the first ones the rules find. Real abstracts name 19 at most; a text
# made of names ('... (FBN20) ... (FBN249)', past MAX_DEFINITIONS each a name by its shape) would
# otherwise cost every rule that types an entity, gives it a role or finds its occurrences.
MAX_ENTITIES = 50


LIMITS = ("definitions", "entities", "mentions")


@dataclass
class Entity:
    key: str  # where PaperState.entities holds it
    name: str
    entity_type: str
    expansion: str | None
    known: bool  # named in a lexicon: somebody else's, never the paper's own
    forms: set[str] = field(default_factory=set)
    spans: set[tuple[int, int]] = field(default_factory=set)
    proposed: bool = False
    # The rule, and the cue it keyed on, that last decided the role: 'proposal_clause:introduce'.
    evidence: str | None = None


URL = re.compile(r"(?:https?://|www\.)\S+")


class PaperState:
    """The working state for one abstract. Rules change entities only through its methods (add,
    absorb, make_room, add_spans, retype, propose, reference, drop, mark_topic), so that what
    decided a type or a role is recorded in one place."""

    def __init__(
        self,
        text: str,
        lexicon: Lexicon,
        links: Sequence[Link],
        abbreviations: list[Abbreviation],
    ) -> None:
        # What the rules read: the text and what the one pass of the automaton, the cue finder, the
        # abbreviation finder and the link finder found in it.
        self.text = text
        self.links = links
        self.lexicon = lexicon
        self.hits, self.cue_hits = lexicon.find(text)
        self.cues = cue.find_cues(text, self.cue_hits)
        self.abbreviations = abbreviations
        self.entities: dict[str, Entity] = {}
        self.topic_forms: set[str] = set()
        self.covered: set[tuple[int, int]] = set()
        self.forms: set[str] = set()
        self.holders: Counter[str] = Counter()  # entities each form was given to
        self.form_keys: dict[str, str] = {}  # key of every surface form -> its entity's key
        self.keys: dict[str, str] = {}  # name -> key(name)
        self.entities_capped = False  # an entity was refused, MAX_ENTITIES being reached
        # The spans of the long forms the abstract defines.
        self.long_forms = [(a.long_start, a.long_end) for a in abbreviations]
        self.rule: str | None = None  # the rule running, named in the evidence of the roles it gives
        # The spans of URLs, in order and apart: what finditer gives.
        self.blocked: list[tuple[int, int]] = [m.span() for m in URL.finditer(text)] if "://" in text else []

    def is_blocked(self, position: int) -> bool:
        """Whether position is inside a URL."""
        if not self.blocked:
            return False  # as in most abstracts: no search
        after = bisect.bisect_right(self.blocked, (position, float("inf")))
        return after > 0 and position < self.blocked[after - 1][1]

    def key(self, name: str) -> str:
        key = self.keys.get(name)
        if key is None:  # remembered: every call to add asks again for the keys of all the forms
            # A plural is a lower-case s ('SAEs'); 'MagicoderS' is another model than 'Magicoder'.
            key = match_key(name).replace(" ", "")
            key = self.keys[name] = key[:-1] if name.endswith("s") else key
        return key

    def add(
        self,
        name: str,
        entity_type: str,
        span: tuple[int, int],
        *,
        expansion: str | None = None,
        known: bool = False,
        forms: tuple[str, ...] = (),
    ) -> Entity | None:
        if self.is_blocked(span[0]) or sum(map(str.isalnum, name)) < 2:
            return None  # a URL, or a single letter of the math: 'O', 'k'
        key = self.key(name)
        entity = self.entities.get(key)
        if entity is None and self.form_keys.get(key) in self.entities:  # a long form written on its own
            key = self.form_keys[key]
            entity = self.entities[key]
        if entity is None and self.is_full(name):
            return None
        if entity is None:
            entity = self.entities[key] = Entity(key, name, entity_type, expansion, known)
        elif expansion and not entity.expansion:
            entity.expansion = expansion
        entity.known = entity.known or known
        for form in {self.text[span[0] : span[1]], *forms} - entity.forms:
            if self.holders[form] < MAX_FORM_HOLDERS:
                # Only here does an entity gain a form, so its earlier forms are in self.forms and
                # self.form_keys already.
                entity.forms.add(form)
                self.holders[form] += 1
                self.forms.add(form)
                self.form_keys.setdefault(self.key(form), key)
        entity.spans.add(span)
        self.covered.add(span)
        return entity

    def is_full(self, name: str) -> bool:
        """Whether add would refuse name a new entity, MAX_ENTITIES being reached (and noted)."""
        if len(self.entities) < MAX_ENTITIES:
            return False
        key = self.key(name)
        if key in self.entities or self.form_keys.get(key) in self.entities:
            return False
        self.entities_capped = True
        return True

    def absorb(self, spans: list[tuple[int, int]], known_too: bool = False) -> bool:
        """Give up the shape-only entities written inside a longer introduced name; False (and
        nothing changes) when a span belongs to a defined or (unless known_too) lexicon entity."""
        owners = {key: e for key, e in self.entities.items() if e.spans & set(spans)}
        defined = any(e.expansion and not e.known for e in owners.values())
        if defined or (not known_too and any(e.known for e in owners.values())):
            return False
        for key, entity in owners.items():
            entity.spans -= set(spans)
            if not entity.spans:
                del self.entities[key]
        self.covered -= set(spans)
        return True

    def make_room(self, start: int, end: int) -> bool:
        """Whether a longer name fits [start, end): True once the entities written inside it,
        lexicon ones too, have given up their spans there; False when something crosses its edges
        or a defined entity is inside."""
        overlaps = [(s, e) for s, e in self.covered if s < end and start < e]
        inside = all(start <= s and e <= end for s, e in overlaps)
        return not overlaps or (inside and self.absorb(overlaps, known_too=True))

    def add_spans(self, entity: Entity, spans: Iterable[tuple[int, int]]) -> None:
        """More places the entity is written, found by a rule rather than by its forms."""
        entity.spans.update(spans)

    def retype(self, entity: Entity, entity_type: str) -> None:
        entity.entity_type = entity_type

    def propose(self, entity: Entity, cue: str | None = None) -> None:
        """The entity is the paper's own; the first rule to say so is its evidence."""
        if not entity.proposed:
            entity.proposed = True
            entity.evidence = self._evidence(cue)

    def reference(self, entity: Entity, cue: str | None = None) -> None:
        """The entity is somebody else's, whatever rule proposed it before."""
        entity.proposed = False
        entity.evidence = self._evidence(cue)

    def _evidence(self, cue: str | None) -> str | None:
        return f"{self.rule}:{cue}" if self.rule and cue else self.rule

    def drop(self, entity: Entity, *, uncover: bool = False) -> None:
        """Forget the entity; with uncover, its spans are free for another name."""
        del self.entities[entity.key]
        if uncover:
            self.covered -= entity.spans

    def mark_topic(self, *forms: str) -> None:
        """Forms that name a field of study, never an entity."""
        self.topic_forms.update(forms)

    def is_topic(self, form: str) -> bool:
        return form in self.topic_forms or form.rstrip("s") in self.topic_forms


class SpanIndex:
    """Spans sorted by start, with the furthest end reached so far: whether any of them overlaps
    [start, end) in logarithmic time rather than a scan of them all."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [start for start, _ in ordered]
        self.reach = list(accumulate((end for _, end in ordered), max))

    def overlaps(self, start: int, end: int) -> bool:
        before_end = bisect.bisect_left(self.starts, end)
        return before_end > 0 and self.reach[before_end - 1] > start
