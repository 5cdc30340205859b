"""Every word group the extraction rules key on, declared once; the rules build their patterns
from these groups with `alternation` rather than repeat the words inside regex literals.

The long head-word and cue-word lists live in lexicons/heads.txt (one word a line, under [group]
headers) and are read here once; the shorter groups are declared below. A word may belong to
several groups (a kind noun is also a method head), but no group is written twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path


def alternation(words: Iterable[str]) -> str:
    """A regex alternation of words, escaped, longest first (so that no word is cut short by a
    shorter one it begins with)."""
    return "|".join(re.escape(word) for word in sorted(set(words), key=lambda word: (-len(word), word)))


def read_groups(path: Path) -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = {}
    current: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = groups.setdefault(line[1:-1], [])
        else:
            current.append(line)
    return {name: tuple(words) for name, words in groups.items()}


# --- heads and cues, from lexicons/heads.txt -----------------------------------------------------
# The last word of a phrase says what kind of thing it names ('Sparse Neural Compression network'
# is a method, 'continual learning' a topic); cue words mark where a paper announces its own names.

_GROUPS = read_groups(Path(__file__).with_name("lexicons") / "heads.txt")

METHOD_HEADS = frozenset(_GROUPS["method_heads"])
WEAK_METHOD_HEADS = frozenset(_GROUPS["weak_method_heads"])
METRIC_HEADS = frozenset(_GROUPS["metric_heads"])
WEAK_METRIC_HEADS = frozenset(_GROUPS["weak_metric_heads"])
DATASET_HEADS = frozenset(_GROUPS["dataset_heads"])
LANGUAGE_DATA_HEADS = frozenset(_GROUPS["language_data_heads"])
NAMED_HEADS = frozenset(_GROUPS["named_heads"])
TOPIC_HEADS = frozenset(_GROUPS["topic_heads"])
INTRO_FILLERS = frozenset(_GROUPS["intro_fillers"])
FUNCTION_WORDS = frozenset(_GROUPS["function_words"])
MEASURE_HEADS = frozenset(_GROUPS["measure_heads"])
WEAK_MEASURE_HEADS = frozenset(_GROUPS["weak_measure_heads"])
MEASURE_CUES = frozenset(_GROUPS["measure_cues"])
# Metric heads that name no measure alone, unlike 'accuracy': 'lower similarity', 'a correlation'.
UNNAMED_ALONE_METRIC_HEADS = frozenset(
    ("coefficient", "correlation", "divergence", "metric", "odds", "parity", "similarity")
)
TASK_HEADS = frozenset(_GROUPS["task_heads"])
WEAK_TASK_HEADS = frozenset(_GROUPS["weak_task_heads"])
TASK_WORD_STOPS = frozenset(_GROUPS["task_word_stops"])
# After a task head, the words that say it names a task: 'the summarization task', 'the packing problem'.
TASK_FOLLOWERS = ("task", "tasks", "problem", "problems")
# Task heads and their plurals, found by the one pass of the automaton ('interpolations').
_TASK_HEAD_FORMS = tuple(
    sorted({form for head in TASK_HEADS | WEAK_TASK_HEADS for form in (head, f"{head}s")})
)
# Words the one Aho–Corasick pass reports besides lexicon names, by the cue they belong to.
CUE_WORDS = {
    "verb": _GROUPS["cue_verb"],
    "slot": _GROUPS["cue_slot"],
    "head": _GROUPS["cue_head"],
    "example": _GROUPS["cue_example"],
    "task": _TASK_HEAD_FORMS,
}

# --- entity types ---------------------------------------------------------------------------------

ENTITY_KINDS = ("method", "model", "dataset", "metric")

# --- kind nouns -----------------------------------------------------------------------------------
# The nouns that say what kind of thing a name is, by the entity type they give it.

# Set off after a name or before it: 'X, a benchmark for ...', 'the method X', 'X is a metric'.
APPOSED_KIND_NOUNS = {
    "dataset": ("benchmark", "dataset", "corpus", "suite", "testbed", "leaderboard", "collection"),
    "metric": ("metric", "measure", "score"),
    "method": (
        *("method", "framework", "model", "algorithm", "approach", "module", "architecture", "system"),
        *("network", "technique", "mechanism", "pipeline", "strategy", "optimizer", "tokenizer", "agent"),
        *("policy", "data structure"),
    ),
}
# Before a list of examples or a list in parentheses: 'baselines such as X', 'datasets (X, Y)'.
LIST_KIND_NOUNS = {
    "dataset": (
        "datasets",
        "benchmarks",
        "tasks",
        "environments",
        "suites",
        "corpora",
        "dataset",
        "benchmark",
    ),
    "model": ("models", "LLMs", "VLMs", "MLLMs", "architectures", "backbones"),
    "method": (
        *("methods", "baselines", "algorithms", "approaches", "techniques", "optimizers", "attacks"),
        "defenses",
    ),
    "metric": ("metrics", "measures"),
}
# Too general before a parenthesis: 'tasks (i) and (ii)', 'methods (Section 3)'.
LIST_KIND_NOUNS_NOT_BEFORE_PARENTHESES = (
    "dataset",
    "benchmark",
    "tasks",
    "methods",
    "approaches",
    "techniques",
)
# A coined name right after one of these in a proposal clause is the thing proposed: 'a new model
# merging algorithm, CCA Merge'.
NAMING_KIND_NOUNS = (
    *("algorithm", "method", "framework", "model", "approach", "system", "benchmark", "dataset"),
    *("architecture", "pipeline", "module", "technique", "strategy", "agent", "metric", "network"),
    *("tool", "library", "suite", "paradigm"),
)
# After 'a novel' or 'a new', before a lower-case coined name: 'a novel framework, selfmem, which'.
NEW_KIND_NOUNS = (
    *("algorithm", "method", "framework", "model", "approach", "system", "benchmark", "dataset"),
    *("architecture", "pipeline", "module", "technique", "library", "toolkit", "tool"),
)
# Between 'our' and the kind: 'our Wasserstein gradient descent algorithm'.
OWN_KIND_NOUNS = (
    *("algorithm", "method", "framework", "approach", "estimator", "procedure", "technique", "sampler"),
    *("solver", "scheme"),
)
# What the authors train: 'We train a QuRater model'.
TRAINED_KIND_NOUNS = (
    "model",
    "classifier",
    "network",
    "policy",
    "agent",
    "tokenizer",
    "encoder",
    "reward model",
)
# The kind an apposition gives a lower-case name: 'self-guidance, a method that ...'.
DEFINED_KIND_NOUNS = (
    *("method", "framework", "approach", "technique", "algorithm", "benchmark", "dataset", "model"),
    *("architecture", "procedure", "strategy", "metric", "system", "tool", "toolkit", "library"),
    *("agent", "pipeline", "module", "mechanism", "suite", "environment", "platform", "intervention"),
    *("regularizer", "regulariser", "objective", "loss", "estimator", "test", "attack", "defense"),
    *("defence", "protocol", "scheme", "paradigm", "layer", "operator", "sampler", "solver", "heuristic"),
    "principle",
)
# 'on Atari games', 'ListOps tasks': a name before these is a benchmark.
BENCHMARK_FOLLOWERS = ("task", "tasks", "games", "environments", "environment", "splits", "split", "subset")
# A word after a name that makes it a metric: 'the FooScore metric'.
METRIC_FOLLOWERS = ("score", "metric", "metrics")
# A plural of these names a class of things, not one: 'graph neural networks'.
CLASS_PLURAL_HEADS = ("model", "network", "system", "method", "algorithm")

# --- metrics --------------------------------------------------------------------------------------

# Plain words that are measures only where the sentence states a value, compares them or names
# a change in them ("gains in sample efficiency").
QUALITY_WORDS = ("accuracy", "precision", "recall", "sample efficiency")
# A score named after the metric it reports: 'a FID score of 6.21' reports FID.
SCORE_HEADS = ("score", "scores")
# Measure heads that name what a value is of, as metric heads do: 'a computational speedup of 45x'.
VALUED_MEASURE_HEADS = ("speedup", "speedups", "speed-up", "speed-ups")
RATE_HEADS = ("rate", "rates", *SCORE_HEADS)
# What makes a rate a measured quantity rather than a speed of convergence: 'a win rate of 72%'.
RATE_KINDS = (
    *("win", "success", "error", "failure", "acceptance", "hit", "miss", "detection", "positive"),
    *("negative", "discovery", "pass", "solve", "resolve", "refusal", "hallucination", "compression"),
    *("click-through", "recognition", "classification"),
)
# Words before a metric that are not part of its name: 'the average accuracy'.
METRIC_FILLERS = (
    *("average", "mean", "overall", "final", "high", "higher", "highest", "low", "lower", "lowest"),
    *("best", "improved"),
    *("better", "strong", "state-of-the-art", "same", "similar"),
    # How much of it is given up: 'while sacrificing little accuracy', 'too much accuracy'.
    *("little", "marginal", "too much", "much"),
    # How good or how large it is, not what it measures: 'substantial speedups', 'favorable regret',
    # 'the resulting excess risk', 'excellent accuracy'.
    *("substantial", "significant", "considerable", "dramatic", "notable", "remarkable", "impressive"),
    *("excellent", "favorable", "favourable", "promising", "satisfactory", "modest", "resulting"),
    *("required", "enhanced", "increased", "large", "small", "minimal", "tremendous", "huge"),
)

# Words that say how a bound grows or how good or how much it is, not what it bounds: 'achieves
# bounded regret', 'a sublinear bilevel local regret', 'in terms of theoretical regret bounds',
# 'achieve zero training error'.
BOUND_RATE_WORDS = (
    *("bounded", "sublinear", "sub-linear", "linear", "near-linear", "logarithmic", "polylogarithmic"),
    *("poly-logarithmic", "polynomial", "constant", "optimal", "near-optimal", "order-optimal"),
    *("minimax-optimal", "near", "tight", "provable", "theoretical", "dependent", "independent"),
    *("zero", "near-zero", "perfect", "near-perfect", "significant", "certain", "given", "desired"),
    *("small", "smaller", "known"),
)

# --- the words of names ---------------------------------------------------------------------------

# Words that make a versioned name beside them a released model: 'the embedding model ABC-M3',
# 'a diffusion model, Zero7', 'we fine-tune Heron-v2', 'Heron-v2 checkpoints'.
MODEL_WORDS_BEFORE = (
    *("model", "models", "LLM", "LLMs", "VLM", "VLMs", "MLLM", "MLLMs", "backbone", "backbones"),
    *("encoder", "encoders", "checkpoint", "checkpoints", "pretrained", "pre-trained", "fine-tune"),
    *("fine-tunes", "fine-tuned", "fine-tuning", "finetune", "finetuned", "finetuning", "prompting"),
    # What a trained model outputs: 'structures predicted by Kestrel-1x', 'embeddings from ABC-M3'.
    *("predicted by", "generated by", "produced by", "embeddings from", "responses from"),
)
MODEL_WORDS_AFTER = (
    *("model", "models", "checkpoint", "checkpoints", "weights", "backbone", "backbones", "embeddings"),
    *("encoder", "LLM", "VLM"),
)

# Nouns for trained language models: a name defined as one is a model ('X, a series of MoE LLMs').
LANGUAGE_MODEL_NOUNS = (
    *("LLM", "LLMs", "language model", "language models", "VLM", "VLMs", "MLLM", "MLLMs"),
    *("chat model", "chat models", "chatbot", "foundation model", "foundation models"),
)
# Capitalised words that number a part of the paper, not a model: 'Table 2B', 'Figure 3M'.
DOCUMENT_PARTS = (
    *("Table", "Tables", "Figure", "Figures", "Fig", "Section", "Sections", "Appendix", "Eq"),
    *("Equation", "Theorem", "Lemma", "Corollary", "Algorithm", "Step", "Chapter", "Part", "Phase"),
)
# Lower-case suffix words a name keeps: 'Qwen-base', 'T5-large'.
MODEL_SIZE_WORDS = ("base", "large", "small", "tiny", "mini", "medium", "huge", "instruct", "chat", "xl")
# Lower-case words after a size or a version that a released model's name keeps: 'X-7B-beta',
# 'X-2-9b-it', 'X-2-7b-hf'.
MODEL_RELEASE_WORDS = ("alpha", "beta", "it", "hf", "preview", "distill", "coder", "math", "vision")
# A released model's tier after its name or version: 'Claude v3 Opus', 'Stable Diffusion XL'.
MODEL_TIERS = (
    *("Opus", "Sonnet", "Haiku", "Pro", "Ultra", "Instruct", "Chat", "Turbo", "XL", "XXL", "Large"),
    *("Small", "Base", "Huge", "Mini", "Flash", "Nano"),
)
# Generic lower-case prefixes cut from a token: 'non-IID' -> 'IID'.
LOWER_PREFIXES = (
    *("non", "multi", "semi", "pre", "post", "anti", "sub", "super", "cross", "self", "co", "inter"),
    *("intra", "over", "under", "re", "de", "un", "meta", "hyper", "ultra", "micro", "quasi", "pseudo"),
    *("near", "low", "high", "full", "half", "single", "dual", "bi", "tri", "uni", "all", "zero", "few"),
)
# Where the head of a long form ends: 'fitted Q-iteration | with log-loss'.
HEAD_CUT_WORDS = ("of", "from", "for", "with", "via", "using", "based", "under")
# A hyphenated word ending like this is an adjective, whatever its capitals: 'Long-CoT-based'.
ADJECTIVE_SUFFIXES = (
    *("based", "driven", "aware", "guided", "free", "style", "like", "specific", "level", "scale"),
    *("wise", "centric", "oriented", "agnostic", "conditioned", "only", "friendly", "enhanced"),
    *("augmented", "powered", "inspired"),
)
# Capitalised for emphasis, not part of a name: 'the Vanilla Transformer'.
GENERIC_MODIFIERS = (
    *("vanilla", "standard", "original", "classical", "classic", "conventional", "plain", "typical"),
    "popular",
)
# Of those, the words that say which variant of a system a number is compared with, kept with its
# name there as the annotators write it: 'than standard FooNet', 'compared to vanilla BarGAN'.
VARIANT_WORDS = ("vanilla", "standard", "plain")
# Words that open a capitalised phrase without being part of the name in it.
TITLE_OPENERS = ("the", "a", "an", "for", "while", "in", "with", "using", "our", "this", "unlike", "like")

# Words of a released model's name that say its size or tuning: 'Qwen2-Large', 'X-7B-Instruct'.
SIZE_TAGS = ("XL", "XXL", "Large", "Base", "Small", "Tiny", "Huge", "Mini", "Instruct", "Chat")
# Lower-case words that join the words of a Title-Case name: 'Mixture of Experts', 'Search for
# Truth'; the coordinators join two names in a list ('RW-AdaBatch and RW-Meta').
TITLE_JOINERS = ("of", "for", "with", "via", "on", "in", "to", "from", "under", "the")
COORDINATORS = ("and", "&")
# Adjectives that make a described thing somebody else's: 'X is a popular framework'.
OTHERS_ADJECTIVES = (
    *("existing", "prior", "previous", "popular", "recent", "widely", "standard", "common", "classic"),
    *("classical", "well-known", "known", "state-of-the-art", "established", "leading", "prominent"),
    *("representative", "traditional", "conventional"),
)

# --- verbs ----------------------------------------------------------------------------------------

# 'a new metric called X': the participles of a naming slot; more of them in a slot read backwards.
NAMING_PARTICIPLES = ("called", "named", "dubbed", "termed", "coined")
SLOT_PARTICIPLES = (*NAMING_PARTICIPLES, "codenamed", "denoted as", "referred to as", "abbreviated as")
# 'we call it X', 'which we refer to as X'.
WE_NAMING_VERBS = ("call", "term", "dub", "name")
WHAT_WE_NAMING_VERBS = (*WE_NAMING_VERBS, "denote", "refer to as")
# 'The resulting model, X', 'our proposed framework X', 'the proposed method X': the kinds after
# which a naming slot's name follows.
RESULTING_KIND_NOUNS = (
    *("model", "method", "framework", "approach", "algorithm", "system", "architecture", "benchmark"),
    "result",
)
FINAL_KIND_NOUNS = ("result", "model", "system", "agent", "policy", "method")
OUR_SLOT_KIND_NOUNS = (
    *("model", "method", "framework", "approach", "algorithm", "system", "architecture", "benchmark"),
    *("dataset", "pipeline", "technique", "agent", "tool", "library", "module", "solution", "network"),
)
PROPOSED_SLOT_KIND_NOUNS = (
    *("model", "method", "framework", "approach", "algorithm", "system", "architecture", "benchmark"),
    *("dataset", "pipeline", "technique", "module", "network", "scheme"),
)
# The first four letters of the naming-slot cue words that name ('called', 'dubbed', 'referred').
NAMING_VERB_STEMS = ("call", "name", "dubb", "dub", "term", "coin", "code", "refe", "deno")
# 'A Cross-Scale GNN is proposed': a passive proposal verb after its subject.
PROPOSAL_PARTICIPLES = (
    "proposed",
    "introduced",
    "designed",
    "developed",
    "presented",
    "devised",
    "constructed",
)
# A proposed name, then what it is made of: 'DLPL comprises three modules'.
PART_VERBS = (
    *("introduces", "proposes", "presents", "develops", "designs", "devises", "incorporates"),
    *("integrates", "features", "contains", "comprises", "includes", "consists of", "is composed of"),
)
# 'as measured by Bayes risk', 'evaluated in terms of success rate'.
MEASURE_VERBS = ("measured", "evaluated", "quantified", "assessed")
IN_TERMS_OF = "in terms of"
MEASURE_PREPOSITIONS = ("by", "with", "via", IN_TERMS_OF)
# Phrases before a measure that name it as what is evaluated: 'in terms of latency and accuracy'.
MEASURE_PHRASES = (IN_TERMS_OF, "metrics such as", "metrics like", "metrics including")
# Nouns of a change a measure undergoes, singular (a pattern adds the plural): 'a reduction in the
# FPR', 'gains in sample efficiency'.
CHANGE_NOUNS = ("improvement", "gain", "increase", "decrease", "reduction", "drop")
# A change, or a balance, named by what it is in: 'gains in sample efficiency', 'a trade-off between
# accuracy and throughput'.
CHANGE_IN_PHRASES = (
    *("improvement in", "improvements in", "gain in", "gains in", "reduction in", "reductions in"),
    *("increase in", "increases in", "decrease in", "drop in", "drops in", "degradation in"),
    *("trade-off between", "trade-offs between", "tradeoff between", "tradeoffs between"),
    *("balance between", "compromise between"),
)
# What a measure is compared or evaluated by, found by the one pass of the automaton.
# A bound is stated on what is measured: 'a lower bound on the reconstruction error'.
BOUND_ON_PHRASES = ("bound on", "bounds on", "guarantee on", "guarantees on")
# 'measure' is a metric head too ('a risk measure'): a cue only as the verb ('we measure the').
MEASURE_VERB_PHRASES = ("we measure", "to measure", "and measure", "which measures", "that measures")
CUE_WORDS["measure"] = tuple(
    sorted(
        MEASURE_CUES
        | set(MEASURE_PHRASES)
        | set(CHANGE_IN_PHRASES)
        | set(BOUND_ON_PHRASES)
        | set(MEASURE_VERB_PHRASES)
    )
)
# A cue verb that changes what it is said of by a value: 'reduces latency by 30%', 'improves
# robustness by 4 points'. The stems of the verbs among the measure cues.
CHANGE_VERB_STEMS = ("improv", "reduc", "boost", "increas", "decreas", "cut", "enhanc", "lower")
# Words that are no measure when a value changes them: 'improves performance by 5%', 'outperforms
# baselines by 3 points'.
UNMEASURED_WORDS = (
    *("performance", "results", "result", "baseline", "baselines", "state", "art", "it", "them"),
    *("this", "that", "these", "those", "up", "one", "ones", "average", "margin", "factor", "data"),
)
# Qualities a comparison names that are properties of a method, not measures of its results:
# 'better scalability', 'lower complexity', 'higher quality'.
UNMEASURED_QUALITIES = (
    *("complexity", "scalability", "interpretability", "explainability", "generalizability"),
    *("effectiveness", "capacity", "dimensionality", "probability", "priority", "adaptability"),
    *("customizability", "flexibility", "applicability", "usability", "controllability", "quality"),
    *("expressivity", "expressiveness", "simplicity", "novelty", "practicality", "generality"),
    *("superiority", "quantity", "activity", "suitability", "tractability", "sparsity"),
)
# Measures named by a modifier wherever they are written, cue or not: 'reconstruction accuracy',
# 'clean accuracy', 'inference latency'. Weak heads ('time', 'rate') and heads that name no measure
# alone ('similarity') are left to the cues: 'at test time', 'a learning rate'.
MODIFIED_MEASURE_HEADS = (
    *("accuracy", "precision", "recall", "perplexity", "latency", "throughput", "runtime", "coverage"),
    *("fidelity", "risk", "regret", "speed"),
)
# 'time' is a measure after a word that says what takes it, wherever it is written: 'overall
# computational time', 'inference time'; not after 'at' or 'during' ('at inference time').
TIME_HEADS = ("time", "times")
# Not 'running time': in a theorem it is a complexity ('a running time of O(n log n)').
COMPUTE_TIME_MODIFIERS = (
    *("computational", "computation", "computing", "compute", "wall-clock", "wallclock", "execution"),
    *("inference", "training"),
)
# 'complexity' is a measure after a word that says what is counted: 'sample complexity', 'query
# complexity'; not 'computational complexity' or 'model complexity', properties of a method.
COMPLEXITY_HEADS = ("complexity", "complexities")
COUNTED_COMPLEXITY_MODIFIERS = ("sample", "query", "communication", "round", "oracle", "iteration", "label")
# What a resource is used by, wherever written: 'a constant memory footprint', 'energy consumption'.
RESOURCE_HEADS = ("footprint", "consumption", "usage")
RESOURCE_MODIFIERS = ("memory", "energy", "power", "gpu", "bandwidth")
CUE_WORDS["measure_head"] = (*MODIFIED_MEASURE_HEADS, *TIME_HEADS, *COMPLEXITY_HEADS, *RESOURCE_HEADS)
# Nouns that end a cued measure right after its head, never a measure alone: 'less memory space',
# 'improves memory efficiency', 'lower memory requirements'.
SECOND_MEASURE_HEADS = ("savings", "space", "efficiency", "requirements", "requirement")
# Hyperparameters named like measures: a setting chosen for training, never a measure of its result
# ('a smaller learning rate than Adam', 'larger learning rates', 'a 75% mask ratio').
HYPERPARAMETER_NAMES = (
    *("learning rate", "learning rates", "dropout rate", "dropout rates"),
    *("mask ratio", "mask ratios", "masking ratio", "masking ratios"),
)
# What an agent gains, a measure after a value and "in" ('by 12% in episodic reward'), not a
# head anywhere else ('reward functions', 'can return').
GAINED_IN_HEADS = ("reward", "rewards", "return", "returns")
# Words that say under which conditions a measure is taken: 'clean accuracy', 'test error'.
MEASURE_SETTINGS = (
    *("test", "testing", "training", "validation", "clean", "adversarial"),
    *("certified", "zero-shot", "few-shot", "one-shot", "worst-group", "downstream", "held-out"),
    *("in-distribution", "out-of-distribution", "in-domain", "out-of-domain", "top-1", "top-5"),
    *("per-class", "end-to-end", "serving", "decoding"),
    *("empirical", "population", "excess", "expected", "cumulative"),
)
# Prepositions the function words leave out, which task words may hold ('against', 'beyond').
PREPOSITIONS = (
    *("against", "beyond", "without", "across", "among", "toward", "towards", "within", "despite"),
    *("over", "under", "into", "onto", "about", "after", "before", "during", "between", "through"),
)

# Verbs of one system beating another: 'surpasses existing models in speed'.
BEATING_VERBS = (
    *("outperform", "outperforms", "outperformed", "outperforming", "surpass", "surpasses"),
    *("surpassed", "surpassing", "exceed", "exceeds", "exceeded", "exceeding", "beat", "beats"),
    "beating",
)
# Adjectives that compare systems the same way: 'superior in numerical accuracy', 'competitive
# with A in speed'.
COMPARING_ADJECTIVES = ("superior", "inferior", "comparable", "competitive")
CUE_WORDS["beating"] = (*BEATING_VERBS, *COMPARING_ADJECTIVES)
# Words before 'precision' that make it a number format, not a measure: 'in half precision'.
NUMBER_FORMATS = ("half", "single", "double", "mixed", "full", "arbitrary", "reduced", "low", "lower")
# Nouns after a head that make the phrase a setting, not a measure: 'in a deep metric learning setting'.
SETTING_NOUNS = ("learning", "setting", "settings", "regime", "regimes", "mode", "format", "task", "tasks")
# Verbs that show qualities of a system: 'we demonstrate the accuracy and robustness of'.
SHOWING_VERBS = (
    *("demonstrate", "demonstrates", "demonstrated", "demonstrating", "show", "shows", "showed"),
    *("shown", "showing", "showcase", "showcases", "showcased", "showcasing", "validate", "validates"),
    *("validated", "validating", "verify", "verifies", "verified", "verifying", "confirm", "confirms"),
    *("confirmed", "confirming", "examine", "examines", "examined", "examining"),
)
# The qualities such a showing measures (not 'usefulness', 'validity', 'feasibility', 'ability').
SHOWN_QUALITIES = (
    *("robustness", "efficiency", "calibration", "generalization", "generalisation", "stability"),
    *("faithfulness", "diversity", "transferability"),
)
# A claim made of a name: 'X achieves state-of-the-art'.
CLAIM_VERBS = (
    *("achieve", "achieves", "attain", "attains", "set", "sets", "establish", "establishes", "outperform"),
    *("outperforms", "surpass", "surpasses", "beat", "beats", "exceed", "exceeds", "yield", "yields"),
)
