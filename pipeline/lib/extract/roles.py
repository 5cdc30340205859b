"""Roles: whether each entity is the paper's own (proposed) or somebody else's (referenced)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from pipeline.lib.extract import proposed as cue
from pipeline.lib.extract.lexicons import letters, on_word_boundaries
from pipeline.lib.extract.shapes import (
    ADJECTIVE_SUFFIX_PATTERN,
    APPOSITIVE_KIND,
    CLAIM_AFTER,
    COINED,
    GREEK_PREFIXED,
    KIND_GROUPS,
    SIZE_TAG,
    VOICE,
    at_sentence_start,
    introduced_type,
    kind_type,
    repository_letters,
)
from pipeline.lib.extract.state import Entity, PaperState
from pipeline.lib.extract.vocabulary import (
    FINAL_KIND_NOUNS,
    NAMING_PARTICIPLES,
    OTHERS_ADJECTIVES,
    PART_VERBS,
    TRAINED_KIND_NOUNS,
    alternation,
)

# 'UniFlow-XL', 'Expert Merging++', 'MagicoderS' (a capital letter appended), 'X-CL-7B'.
_VARIANT_SUFFIX = re.compile(
    r"(?:\+\+|\+|[A-Z](?=-|[^\w+])|(?:-[A-Z0-9][\w.]*)+|-(?:v\d+|large|base|small|tiny|mini|lite|pro|plus))"
    r"(?![\w+])"
)


# A variant of a variant is the paper's too: 'Magicoder' -> 'MagicoderS' -> 'MagicoderS-CL-7B'.
_VARIANT_DEPTH = 2


# The kind an apposition gives, as shapes.APPOSITIVE_KIND, with room for a longer description:
# ', a simple yet highly efficient speculative sampling framework'.
_DESCRIBED_KIND = re.compile(r", (?:a|an|the) (?:[\w-]+,? ){0,7}?" + KIND_GROUPS)


_ADJECTIVE_SUFFIX_AFTER = re.compile(ADJECTIVE_SUFFIX_PATTERN)


_NOVEL_BEFORE = re.compile(r"\b(?:novel|new)\b")


_CALLED_BEFORE = re.compile(
    rf"\b(?:{alternation(NAMING_PARTICIPLES)}|we call (?:it|this))\s+$"
    rf"|\b[Tt]he (?:final|resulting) (?:[\w-]+ )?(?:{alternation(FINAL_KIND_NOUNS)}),\s+$"
)


def _opens_window(cues: cue.Cues, text: str, position: int) -> bool:
    """Whether position is the object of a proposal verb: at most three words after it."""
    return any(
        start <= position < end and len(text[start:position].split()) <= 3 for start, end in cues.windows
    )


def propose_known_named_by_slot(paper: PaperState) -> None:
    """'we propose a novel learning paradigm called RRHF': naming what the paper proposes makes it
    the paper's, known or not; 'Adam is a framework called FTRL' names somebody's."""
    text, cues = paper.text, paper.cues
    for entity in paper.entities.values():
        if entity.known and not entity.proposed and entity.entity_type != "metric":
            first = min(entity.spans)[0]
            if _CALLED_BEFORE.search(text, max(0, first - 30), first) is not None and (
                cue.in_window(cues, first)
                or _NOVEL_BEFORE.search(text, max(0, first - 60), first) is not None
            ):
                paper.propose(entity, "called")
            elif _introduced_and_defined(text, cues, min(entity.spans)):
                paper.propose(entity, "defined_object")


def propose_by_cues(paper: PaperState) -> None:
    """A new name in a proposal clause, after a naming slot or set off by a novel apposition, and
    the other places a paper's own name stands, is the paper's."""
    text, cues = paper.text, paper.cues
    for entity in paper.entities.values():
        if entity.known or entity.proposed:
            continue
        first, first_end = min(entity.spans)
        coined = _COINED_OR_SHAPED.search(entity.name) is not None
        if entity.entity_type == "metric":
            # 'introducing a Task Agnostic Correlations (TAC) metric', 'to build QUDsim, a similarity
            # metric': a measure the paper defines.
            # A measure spelled out in lower case is the paper's only as what it proposes ('We propose
            # the multi-marginal matching gap (M3G)'), not on the way ('to cause jailbreak success
            # rates (JSRs) to surge').
            spelled_out = entity.expansion is not None and (
                entity.expansion != entity.expansion.lower() or _opens_window(cues, text, first)
            )
            defined = spelled_out or (
                coined and text.startswith(",", first_end) and APPOSITIVE_KIND.match(text, first_end)
            )
            if defined and cue.in_window(cues, first):
                paper.propose(entity, cue.window_word(cues, first))
            continue
        found = _proposal_cue(paper, entity, coined, first, first_end)
        if found is not None:
            paper.propose(entity, found)


def _proposal_cue(paper: PaperState, entity: Entity, coined: bool, first: int, first_end: int) -> str | None:
    """The first cue, in order, that makes the entity the paper's, or None."""
    text, cues = paper.text, paper.cues
    if (verb := cue.window_word(cues, first)) is not None:
        return verb
    if any(cue.after_naming_slot(cues, text, start) for start in _occurrences(text, entity)):
        return "naming_slot"
    if any(cue.novel_apposition(text, end) for _, end in entity.spans):
        return "novel_apposition"
    if COINED.search(entity.name) and cue.apposed_in_proposal(cues, text, first, first_end):
        return "apposed_in_proposal"
    if coined and _apposed_to_what_the_authors_train(text, cues, first, first_end):
        return "trained_apposition"
    if coined and _THIS_WORK_OPENING.search(text, max(0, first - 40), first) is not None:
        return "this_work"
    if coined and _AT_THE_CORE.search(text, max(0, first - 60), first) is not None:
        return "at_the_core"
    if coined and _NOVEL_JUST_BEFORE.search(text, max(0, first - 30), first) is not None:
        return "novel"
    if (
        (coined or "-" in entity.name)
        and _ONE_OF_THEM.search(text, max(0, first - 30), first) is not None
        and any(window_start < first for window_start, _ in cues.windows)
    ):
        return "one_of_them"
    if coined and text.count(entity.name) > 1 and _defined_as_a_kind(text, first_end):
        return "defined_as_a_kind"
    return None


def retype_proposed_datasets(paper: PaperState) -> None:
    """'X, a benchmark for ...': a proposed method or model that a kind noun near it calls a
    benchmark or dataset is one; so is one an apposition calls a metric ('X, a new metric')."""
    text, cues = paper.text, paper.cues
    for entity in paper.entities.values():
        if entity.proposed and entity.entity_type in ("method", "model"):
            start, end = min(entity.spans)
            sentence_start, _ = cue.sentence_of(cues, text, start)
            if introduced_type(text, max(sentence_start, start - 60), start, end) == "dataset":
                paper.retype(entity, "dataset")
            elif any(_called_a_metric(text, span_end) for _, span_end in entity.spans):
                paper.retype(entity, "metric")  # 'the Price of Waiting (PoW), a new metric that'


# After a name (and its abbreviation or emphasis), an apposition that calls it a metric.
_CLOSING = re.compile(r"(?: \([A-Za-z][\w-]*\))?[*_)]*")


def _called_a_metric(text: str, end: int) -> bool:
    kind = APPOSITIVE_KIND.match(text, _CLOSING.match(text, end).end())
    return kind is not None and kind_type(kind) == "metric"


def _nothing_proposed(paper: PaperState) -> bool:
    return not any(e.proposed for e in paper.entities.values())


def reference_cited(paper: PaperState) -> None:
    """A proposed name first written as somebody else's work is referenced after all."""
    for entity in paper.entities.values():
        if entity.proposed and _cited_as_others(paper, paper.cues, entity):
            paper.reference(entity)


def reference_bases(paper: PaperState) -> None:
    """Only ever 'Long-CoT-based': what the paper's thing is based on, not the thing."""
    text = paper.text
    for entity in paper.entities.values():
        if entity.proposed and all(_ADJECTIVE_SUFFIX_AFTER.match(text, end) for _, end in entity.spans):
            paper.reference(entity)


def drop_greek_math(paper: PaperState) -> None:
    """'Δ-approximation', 'ε-greedy': math, unless the paper names it as its own."""
    for entity in list(paper.entities.values()):
        if not entity.proposed and GREEK_PREFIXED.fullmatch(entity.name):
            paper.drop(entity)


def propose_code_namesakes(paper: PaperState) -> None:
    """'Our code is at github.com/mazumder-lab/OSSCAR': authors name their code's repository after
    what they propose, so a new name that is the repository's name is the paper's."""
    repositories = repository_letters(paper)
    if not repositories:
        return
    for entity in paper.entities.values():
        if not entity.known and letters(entity.name) in repositories:
            paper.propose(entity)


def _introduced_and_defined(text: str, cues: cue.Cues, span: tuple[int, int]) -> bool:
    """'In this paper, we introduce Lookahead decoding, an exact, parallel decoding algorithm': a
    known name that is the very object of a proposal verb and defined by an apposition is the
    paper's (it is where the name comes from); 'we introduce LoRA into ...' is not."""
    start, end = span
    spelled_out = _PARENTHESIS_AFTER.match(text, end)
    end = spelled_out.end() if spelled_out else end  # 'we introduce EAGLE (Extrapolation ...), a'
    if not any(
        window_start <= start < window_end and _VERB_OBJECT_GAP.fullmatch(text, window_start, start)
        for window_start, window_end in cues.windows
    ):
        return False
    # 'we propose Domain Reweighting with Minimax Optimization (DoReMi), which first trains': the
    # name spelled out with its acronym as the very object of the verb is where it comes from.
    return _DESCRIBED_KIND.match(text, end) is not None or (
        spelled_out is not None and _CLAUSE_AFTER_DEFINITION.match(text, end) is not None
    )


_PARENTHESIS_AFTER = re.compile(r" \([^()]{1,120}\)")


_CLAUSE_AFTER_DEFINITION = re.compile(r",\s+(?:which|that|a|an)\b|\.(?:\s|$)|\s+(?:which|that)\b")


# Between a proposal verb and its object: ' ', ' the ', ' a new '.
_VERB_OBJECT_GAP = re.compile(r"\s+(?:(?:the|a|an|new|novel)\s+)*")


# 'We leverage this dataset to train a CLIP-based scoring function, PickScore, which ...'.
_TRAINED_APPOSITION = re.compile(
    r"\b[Ww]e\b[^.;]{0,80}?\b(?:train|fine-tune|learn|distil)\w*\s+(?:a|an)\s+[^,;()]{1,60}, $"
)


# 'In this work, TaskNet ...': the name the paper opens its own contribution with.
_THIS_WORK_OPENING = re.compile(r"\b(?:[Ii]n|[Tt]hrough|[Ww]ith) this (?:work|paper|study),\s+(?:our\s+)?$")


# 'The latter uses a novel Task-wise Decorrelation (TwD) loss'.
_NOVEL_JUST_BEFORE = re.compile(r"\b(?:a|an|our|the) (?:\w+ )?(?:novel|new) $")


# 'we devise two algorithms. The former, F-UCB, is ... The latter, F-Track', 'One is GRL-SVO(UP)'.
_ONE_OF_THEM = re.compile(
    r"(?:\b[Tt]he (?:former|latter|first|second|third|other)(?: one)?(?:,| is)|\b[Oo]ne is) $"
)


# 'At its core is IMPACT, a transformer-based policy', 'At the core of Lucid-XR is Vuer'.
_AT_THE_CORE = re.compile(
    r"\b[Aa]t (?:its|the) (?:core|heart)(?: of [\w-]+)?,? (?:is|are|lies|lie) (?:an? |the )?$"
)


# 'TaskNet is a framework that ...', but not 'TaskNet is a popular framework'.
_IS_A_KIND = re.compile(r" is (?:a|an) ((?:[\w-]+,? ){0,4}?)" + KIND_GROUPS)


_OTHERS_ADJECTIVES = re.compile(rf"\b(?:{alternation(OTHERS_ADJECTIVES)})\b")


# A name written as somebody else's: 'such as X', 'than X', 'existing X', 'X et al.', 'X [12]'.
_REFERENCE_BEFORE = re.compile(
    r"\b(?:such as|e\.g\.,?|compared (?:to|with)|than|over|against|versus|vs\.?|like|including|unlike|"
    r"(?:unlike )?(?:traditional|conventional|standard|classic|classical|vanilla|popular)|"
    r"existing|prior|previous|baselines?|state-of-the-art (?:methods?|models?|approaches|baselines?),?)"
    r"\s+(?:the\s+)?$"
)


_CITATION_AFTER = re.compile(r"\s*(?:et al\b|\[\d|\(\d{4}\)|\([A-Z][\w-]+ et al)")


def _apposed_to_what_the_authors_train(text: str, cues: cue.Cues, start: int, end: int) -> bool:
    sentence_start, _ = cue.sentence_of(cues, text, start)
    return (
        text[max(0, start - 2) : start] == ", "
        and cue.set_off(text, end)
        and _TRAINED_APPOSITION.search(text, max(sentence_start, start - 160), start) is not None
    )


def _defined_as_a_kind(text: str, end: int) -> bool:
    m = _IS_A_KIND.match(text, end)
    return m is not None and _OTHERS_ADJECTIVES.search(m.group(1)) is None


# 'Our development includes algorithms like TaskNet-E': examples of the authors' own.
_OWN_EXAMPLES = re.compile(
    r"^(?:[^.;]*\b(?:[Oo]ur|[Ww]e)\b)(?![^.;]*\b(?:than|compar\w+|existing|prior|previous|"
    r"baselines?|over|against|outperform\w*|surpass\w*)\b)"
)


def _cited_as_others(paper: PaperState, cues: cue.Cues, entity: Entity) -> bool:
    """The name is first written as somebody else's work, and no naming slot gives it."""
    text = paper.text
    start, end = _first_occurrence(text, entity)
    if cue.after_naming_slot(cues, text, start):
        return False
    reference = _REFERENCE_BEFORE.search(text, max(0, start - 40), start)
    if reference is None:
        return _CITATION_AFTER.match(text, end) is not None
    sentence_start, _ = cue.sentence_of(cues, text, start)
    return _OWN_EXAMPLES.match(text[sentence_start : reference.end()]) is None


def _occurrences(text: str, entity: Entity) -> set[int]:
    """Where any form of the entity is written as a whole word: 'the proposed TPPE' is one,
    though only its definition made a span."""
    starts = {start for start, _ in entity.spans}
    for form in entity.forms:
        position = text.find(form)
        while position != -1:
            if on_word_boundaries(text, position, position + len(form)):
                starts.add(position)
            position = text.find(form, position + 1)
    return starts


def _first_occurrence(text: str, entity: Entity) -> tuple[int, int]:
    first = min(entity.spans)
    for form in entity.forms:
        position = text.find(form, 0, first[0])
        while position != -1 and not on_word_boundaries(text, position, position + len(form)):
            position = text.find(form, position + 1, first[0])
        if position != -1:
            first = min(first, (position, position + len(form)))
    return first


def propose_trained_models(paper: PaperState) -> None:
    """'We train a QuRater model to ...': a new name the authors train as a model is theirs."""
    text = paper.text
    if " train" not in text:
        return
    for m in _TRAINED_MODEL.finditer(text):
        entity = paper.entities.get(paper.key(m.group(1)))
        if entity is not None and not entity.known and not entity.expansion:
            paper.retype(entity, "model")
            paper.propose(entity)


def propose_claim_fallback(paper: PaperState) -> None:
    """Still nothing proposed: a new name that is the subject of a claim in the authors' voice
    ('we demonstrate how QUIC-FL achieves state-of-the-art accuracy') is the paper's."""
    if not _nothing_proposed(paper):
        return
    cues = paper.cues
    text = paper.text
    for entity in paper.entities.values():
        if (
            entity.known
            or entity.entity_type not in ("method", "model")
            or not _COINED_OR_SHAPED.search(entity.name)
        ):
            continue
        for start, end in sorted(entity.spans):
            sentence_start, _ = cue.sentence_of(cues, text, start)
            if CLAIM_AFTER.match(text, end) and _CLAIM_VOICE.search(text, sentence_start, start):
                paper.propose(entity)
                return


def propose_subject_after_unnamed_proposal(paper: PaperState) -> None:
    """'we propose an adaptive prompting approach that ... . AdaPromptCL employs ...': the authors
    proposed something without naming it, and a coined name then opens a later sentence as its
    subject and comes back. The first such name is what they proposed."""
    if not _nothing_proposed(paper):
        return
    cues = paper.cues
    if not cues.windows:
        return
    text = paper.text
    _, proposal_end = cue.sentence_of(cues, text, min(cues.windows)[0])
    best: tuple[int, Entity] | None = None
    for entity in paper.entities.values():
        if entity.known or entity.entity_type not in ("method", "model") or entity.expansion:
            continue
        if not _COINED_OR_SHAPED.search(entity.name) or sum(text.count(f) for f in entity.forms) < 2:
            continue
        start, _ = _first_occurrence(text, entity)
        if start >= proposal_end and at_sentence_start(text, start) and (best is None or start < best[0]):
            best = (start, entity)
    if best is not None:
        paper.propose(best[1])


def propose_variants(paper: PaperState) -> None:
    """UniFlow-XL and Expert Merging++ are the paper's when UniFlow and Expert Merging are."""
    propagated: set[int] = set()
    variants: dict[str, list[tuple[int, int]]] = {}  # by form: a form several entities hold is walked once
    for _ in range(_VARIANT_DEPTH):
        for entity in list(paper.entities.values()):
            if entity.proposed and id(entity) not in propagated:
                propagated.add(id(entity))
                _mark_variants(paper, entity, variants)


_CAPITAL_PREFIX = re.compile(r"[A-Z]{2,}(?=[A-Z][a-z]|[A-Z]?$)")


def propose_prefix_variants(paper: PaperState) -> None:
    """'Dynamically Composable Multi-Head Attention (DCMHA) ... the corresponding DCFormer ...
    DCPythia-6.9B': a coined name opening with the capitals that spell the first words of a
    proposed long form is built from it, and the paper's too."""
    prefixes = set()
    for entity in paper.entities.values():
        if entity.proposed and entity.expansion:
            initials = "".join(w[0] for w in re.split(r"[\s-]+", entity.expansion) if w)
            if initials.isupper() and entity.name.startswith(initials[:2]):
                prefixes.update(initials[:k] for k in range(2, len(initials)))
    if not prefixes:
        return
    for entity in paper.entities.values():
        opening = _CAPITAL_PREFIX.match(entity.name)
        if entity.proposed or entity.known or entity.expansion or opening is None:
            continue
        if opening.group() in prefixes and _COINED_OR_SHAPED.search(entity.name):
            paper.propose(entity)


_SIBLING_OPENING = re.compile(r"([A-Z][a-z]{2,})-(?=[A-Z])")


def propose_siblings(paper: PaperState) -> None:
    """'We first introduce Delayed-PSVI ... for Delayed-LPSVI': a new coined name sharing the first
    word of a proposed coined name is its sibling, the paper's too."""
    openings = set()
    for entity in paper.entities.values():
        opening = _SIBLING_OPENING.match(entity.name)
        if entity.proposed and not entity.known and opening and paper.lexicon.lookup(opening[1]) is None:
            openings.add(opening[1])
    for entity in paper.entities.values():
        opening = _SIBLING_OPENING.match(entity.name)
        if opening and opening[1] in openings and not entity.known and entity.entity_type != "metric":
            paper.propose(entity)


# 'CAT-Walk introduces a temporal walk on hypergraphs, SetWalk, that ...', 'DLPL comprises three
# modules: ...', 'VoxDet first ingeniously proposes template voxel aggregation (TVA) module'.
_PROPOSED_SUBJECT_VERB = re.compile(
    rf" (?:(?:\w+ly|first|then|also|further|additionally) )*(?:{alternation(PART_VERBS)})\b"
)


_PART_VERB = re.compile(rf" (?:{alternation(PART_VERBS)})\b")


def propose_parts(paper: PaperState) -> None:
    """A sentence whose subject is a proposed name describes its parts: a new coined or spelled-out
    name written there after the verb, before any reference to other work, is one of the paper's
    own."""
    cues = paper.cues
    text = paper.text
    if not any(entity.proposed for entity in paper.entities.values()) or _PART_VERB.search(text) is None:
        return  # no subject, or no verb: the cheaper test first
    verbs = []
    for entity in paper.entities.values():
        if entity.proposed:
            for start in _occurrences(text, entity):
                form = next((f for f in entity.forms if text.startswith(f, start)), "")
                verb = _PROPOSED_SUBJECT_VERB.match(text, start + len(form))
                if form and verb is not None:
                    verbs.append((verb.end(), cue.sentence_of(cues, text, start)[1]))
    for verb_end, sentence_end in verbs:
        reference = cue.REFERENCE_MARKER.search(text, verb_end, sentence_end)
        part_end = reference.start() if reference else sentence_end
        for entity in paper.entities.values():
            if entity.known or entity.proposed or entity.entity_type == "metric":
                continue
            if not (entity.expansion or _COINED_OR_SHAPED.search(entity.name)):
                continue
            start, _ = min(entity.spans)
            if verb_end <= start < part_end:
                paper.propose(entity)


def propose_described_in_own_voice(paper: PaperState) -> None:
    """'We then employ LocoEdit, a fast closed-form editing method', 'using DCP-RMP, a locally
    reactive goal-proposal module': a new coined name the authors describe as a method or a part
    is theirs, unless the sentence cites it as other work or the description calls it known."""
    cues = paper.cues
    text = paper.text
    for entity in paper.entities.values():
        if entity.known or entity.proposed or entity.entity_type not in ("method", "model"):
            continue
        if not _COINED_OR_SHAPED.search(entity.name):
            continue
        start, end = min(entity.spans)
        described = _DESCRIBED_KIND.match(text, end)
        if described is None or kind_type(described) != "method":
            continue
        sentence_start, _ = cue.sentence_of(cues, text, start)
        if (
            VOICE.search(text, sentence_start, start)
            and not cue.strong_reference(text, sentence_start, start)
            and not _OTHERS_ADJECTIVES.search(described.group())
        ):
            paper.propose(entity)


def propose_slash_partners(paper: PaperState) -> None:
    """'namely RankDice/RankIoU': a new name written as the other half of a proposed name is the
    paper's too, and of the same kind."""
    text = paper.text
    if "/" not in text:
        return
    for entity in [e for e in paper.entities.values() if e.proposed]:
        for _, end in list(entity.spans):
            if not text.startswith("/", end):
                continue
            partner_start = end + 1
            for other in paper.entities.values():
                if not other.known and (partner_start, partner_start + len(other.name)) in other.spans:
                    paper.propose(other)
                    paper.retype(other, entity.entity_type)


def _mark_variants(paper: PaperState, entity: Entity, variants: dict[str, list[tuple[int, int]]]) -> None:
    text = paper.text
    for form in list(entity.forms):
        if form not in variants:
            variants[form] = list(_variant_spans(text, form))
        for start, variant_end in variants[form]:
            name = text[start:variant_end]
            entity_type = "model" if SIZE_TAG.search(name) else entity.entity_type
            added = paper.entities.get(paper.key(name)) or paper.add(name, entity_type, (start, variant_end))
            if added is not None:
                paper.propose(added)
                paper.add_spans(added, [(start, variant_end)])


def _variant_spans(text: str, form: str) -> Iterator[tuple[int, int]]:
    """Where form is written with a variant's suffix: 'UniFlow-XL', 'Expert Merging++'."""
    position = text.find(form)
    while position != -1:
        start, end = position, position + len(form)
        position = text.find(form, end)
        variant = _VARIANT_SUFFIX.match(text, end)
        if variant is not None and not (start > 0 and (text[start - 1].isalnum() or text[start - 1] == "-")):
            yield start, variant.end()


# '[Ww](?<=\b[Ww])' rather than '\b[Ww]': a pattern that opens with a character class lets re skip
# to the next W or w instead of trying every position.
_TRAINED_MODEL = re.compile(
    r"[Ww](?<=\b[Ww])e (?:\w+ly )?(?:train|pre-?train|fine-tune|build|develop|obtain)\w* (?:a|an|our) "
    rf"([A-Z][\w+-]*[A-Za-z0-9+]) (?:{alternation(TRAINED_KIND_NOUNS)})\b"
)


_COINED_OR_SHAPED = re.compile(r"[a-z][A-Z]|[A-Z][a-z]+[A-Z]|[A-Z]{2,}-|[A-Z]{3,}")


# The claim is the authors' own: 'we show that X', 'we demonstrate how X', 'our X'.
_CLAIM_VOICE = re.compile(
    r"\b(?:[Ww]e (?:\w+ )?(?:show|demonstrate|find|observe|verify|confirm)\w*|[Oo]ur)\b"
)


def propose_salient_fallback(paper: PaperState) -> None:
    """No cue fired: the coined name the abstract keeps returning to, first written in a sentence
    that speaks for the authors ('In this work, we reimagine ... with TensorAR')."""
    if not _nothing_proposed(paper):
        return
    cues = paper.cues
    text = paper.text
    best: tuple[int, Entity] | None = None
    for entity in paper.entities.values():
        if entity.known or entity.entity_type not in ("method", "model") or entity.expansion:
            continue
        coined = COINED.search(entity.name) is not None
        if not coined and not (entity.name.isupper() and len(entity.name) >= 4):
            continue
        occurrences = sum(text.count(form) for form in entity.forms)
        first = min(entity.spans)[0]
        sentence_start, _ = cue.sentence_of(cues, text, first)
        # Spoken of by the authors, or named after they said they propose something unnamed.
        voiced = VOICE.search(text, sentence_start, first) is not None or (
            bool(cues.windows) and occurrences >= 4
        )
        if occurrences >= 3 and voiced and (best is None or occurrences > best[0]):
            best = (occurrences, entity)
    if best is not None:
        paper.propose(best[1])
