"""The registry of extraction rules: each rule's name, stage, the vocabulary it keys on, worked
examples and the function that applies it to a paper's state.

extract_entities runs the stages in STAGES order and, within a stage, the rules in the order they
are registered here (the measure rules in measure_rules.py, at their place in the context stage): a
later rule sees what the earlier ones found, so the order is part of what the rules mean. Every
rule carries at least one worked example, a made-up sentence and the mentions it must yield;
tests/lib/test_extract_rules.py runs them all.
"""

from __future__ import annotations

from pipeline.lib.extract import (
    candidates,
    context,
    introduced,
    listed,
    models,
    naming,
    roles,
    tasks,
)
from pipeline.lib.extract.listed import DATASETS_AFTER_LIST
from pipeline.lib.extract.measure_rules import MEASURE_RULES
from pipeline.lib.extract.rule import Rule
from pipeline.lib.extract.rule import make_rule as _rule

# candidates: what needs no context; context: names typed by the words around them; introduced:
# names the paper gives; extensions: longer names built on the ones found; late_names: names no
# earlier stage claimed; roles: proposed or referenced; tasks: the problems addressed, after the
# roles, so that only a task's own cue makes it proposed.
STAGES = ("candidates", "context", "introduced", "extensions", "late_names", "roles", "tasks")


RULES: tuple[Rule, ...] = (
    _rule(
        "abbreviation_definition",
        "candidates",
        ("DATASET_HEADS", "METHOD_HEADS", "METRIC_HEADS", "TOPIC_HEADS"),
        candidates.add_abbreviations,
        ("We collect a Hiking Route Corpus (HRC) of trails.", [("HRC", "dataset")]),
    ),
    _rule(
        "lexicon_name",
        "candidates",
        ("lexicons/*.txt",),
        candidates.add_lexicon_hits,
        ("Our model is trained with Adam on ImageNet.", [("Adam", "method", "referenced")]),
    ),
    _rule(
        "name_shape",
        "candidates",
        ("LOWER_PREFIXES", "MODEL_SIZE_WORDS", "TOPIC_HEADS"),
        candidates.add_shape_tokens,
        ("We compare against FooNet-7B and report results.", [("FooNet-7B", "model")]),
        (
            "We compare against Zentro 125M and Zorb-Large.",
            [("Zentro 125M", "model"), ("Zorb-Large", "model")],
        ),
        ("Features come from the ZorbNet-B5 backbone.", [("ZorbNet-B5", "model")]),
        ("Pruning is verified on Zorb-MoE fine-tuned on two datasets.", [("Zorb-MoE", "method")]),
    ),
    _rule(
        "glued_words",
        "candidates",
        (),
        candidates.split_glued_words,
        (
            "We present QuuxGen. The paper presentsQuuxGen again.",
            [("QuuxGen", "method", "proposed")],
            ("presentsQuuxGen",),
        ),
    ),
    _rule(
        "head_and_example_cues",
        "context",
        ("cue_head", "cue_example", "LIST_KIND_NOUNS"),
        context.add_cue_context,
        ("We evaluate on the Kestrel dataset.", [("Kestrel", "dataset", "referenced")]),
        ("We compare with baselines such as Zorblax and Quintet.", [("Zorblax", "method")]),
        ("We probe models such as GPT-4o and ZorbNet.", [("ZorbNet", "model")]),
        ("Topic models such as Zorb-LDA are old.", [("Zorb-LDA", "method")]),
    ),
    *MEASURE_RULES,
    _rule(
        "parenthesis_list",
        "context",
        ("LIST_KIND_NOUNS",),
        context.add_parenthesis_lists,
        ("We use three datasets (Alpha10, BetaSet and GammaCorp).", [("GammaCorp", "dataset")]),
    ),
    _rule(
        "evaluation_list",
        "context",
        ("results", "experiments", "evaluated", "on"),
        context.add_evaluation_lists,
        ("We report results on ImageNet and Quokka.", [("Quokka", "dataset")]),
    ),
    _rule(
        "names_before_datasets",
        "context",
        DATASETS_AFTER_LIST,
        listed.add_names_before_datasets,
        ("We test on the Zorbo, Blim and Quxa benchmarks.", [("Zorbo", "dataset"), ("Blim", "dataset")]),
        ("We test on English and Finnish benchmarks.", [], ("English",)),
        ("We test on the Sequential and Permuted Zorb datasets.", [], ("Sequential",)),
    ),
    _rule(
        "colon_list",
        "context",
        ("LIST_KIND_NOUNS",),
        listed.add_colon_lists,
        ("We use two graph benchmarks: Zorbo and Quxa.", [("Zorbo", "dataset"), ("Quxa", "dataset")]),
    ),
    _rule(
        "proposal_clause",
        "introduced",
        ("cue_verb", "INTRO_FILLERS"),
        introduced.add_introduced_names,
        (
            "We introduce Gradient Folding, a method for pruning.",
            [("Gradient Folding", "method", "proposed")],
        ),
    ),
    _rule(
        "proposal_phrase",
        "introduced",
        ("cue_verb", "INTRO_FILLERS"),
        introduced.add_introduced_phrases,
        (
            "We propose “Shallow Echo Tuning” for small models.",
            [("Shallow Echo Tuning", "method", "proposed")],
        ),
        ("We propose layered gradient descent.", [("layered gradient descent", "method", "proposed")]),
    ),
    _rule(
        "naming_slot",
        "introduced",
        ("cue_slot", "NAMING_VERB_STEMS"),
        naming.add_named_by_slots,
        (
            "We design a loss called Vortal.",
            [("Vortal", "method", "proposed")],
        ),
    ),
    _rule(
        "novel_apposition",
        "introduced",
        ("novel", "new", "first"),
        introduced.add_apposed_names,
        ("Results build on Pendulo, a new toolkit for control.", [("Pendulo", "method", "proposed")]),
    ),
    _rule(
        "renamed_kind",
        "introduced",
        ("novel", "new"),
        introduced.add_renamed_kinds,
        (
            "We propose a novel form of data attack, token-swap attack.",
            [("token-swap attack", "method", "proposed")],
        ),
    ),
    _rule(
        "name_after_kind",
        "introduced",
        ("NAMING_KIND_NOUNS", "NEW_KIND_NOUNS"),
        naming.add_named_after_kind,
        ("We propose a new training framework, Velora, which scales.", [("Velora", "method", "proposed")]),
    ),
    _rule(
        "titled_method",
        "introduced",
        ("METHOD_HEADS", "TITLE_OPENERS"),
        naming.add_titled_methods,
        (
            "Training uses an Adaptive Lattice Pruning Network as the student.",
            [("Adaptive Lattice Pruning Network", "method")],
        ),
    ),
    _rule(
        "our_named_kind",
        "introduced",
        ("OWN_KIND_NOUNS",),
        naming.add_own_named_kinds,
        (
            "Experiments confirm that our Fenwick clipping method is stable.",
            [("Fenwick clipping", "method", "proposed")],
        ),
    ),
    _rule(
        "version",
        "extensions",
        (),
        context.add_versions,
        ("We fine-tune FooLM 3 on the task.", [("FooLM 3", "model")]),
        ("We distil QuuxLM 1.3B into a student.", [("QuuxLM 1.3B", "model")]),
        ("Features come from ViT-B/16 and ViT-H/14@448.", [("ViT-B/16", "model"), ("ViT-H/14@448", "model")]),
    ),
    _rule(
        "tier",
        "extensions",
        ("MODEL_TIERS",),
        context.add_tiers,
        ("We query FooLM-7B Turbo for labels.", [("FooLM-7B Turbo", "model")]),
        ("We query FooLM-7B mini for labels.", [("FooLM-7B mini", "model")]),
    ),
    _rule(
        "modified_name",
        "extensions",
        ("GENERIC_MODIFIERS",),
        context.add_modified_names,
        ("We train a Gated ResNet on the data.", [("Gated ResNet", "method")]),
    ),
    _rule(
        "named_algorithm",
        "extensions",
        ("algorithm",),
        context.add_named_algorithms,
        (
            "Prior bounds rely on the KWIK algorithm for exploration.",
            [("KWIK algorithm", "method")],
            ("KWIK",),
        ),
    ),
    _rule(
        "named_head",
        "late_names",
        ("NAMED_HEADS",),
        context.add_named_heads,
        ("We revisit the Harmon distance in the analysis.", [("Harmon distance", "metric")]),
    ),
    _rule(
        "language",
        "late_names",
        ("LANGUAGE_DATA_HEADS",),
        context.add_languages,
        (
            "We translate German-Finnish pairs, not from Czech to Polish.",
            [("German-Finnish", "dataset")],
            ("Czech",),
        ),
        ("We tune Finnish language models on non-Czech corpora.", [], ("Finnish language", "Czech corpora")),
    ),
    _rule(
        "enumerated_contribution",
        "late_names",
        ("contribution",),
        naming.add_enumerated_contributions,
        (
            "Our contributions are: (1) Layer Recycling: we reuse layers.",
            [("Layer Recycling", "method", "proposed")],
        ),
    ),
    _rule(
        "known_named_by_slot",
        "roles",
        ("called", "named", "dubbed", "termed", "coined"),
        roles.propose_known_named_by_slot,
        ("We propose a novel learning paradigm called LoRA.", [("LoRA", "method", "proposed")]),
    ),
    _rule(
        "proposal_cues",
        "roles",
        ("cue_verb", "cue_slot"),
        roles.propose_by_cues,
        ("We propose FluxMix to merge experts.", [("FluxMix", "method", "proposed")]),
    ),
    _rule(
        "proposed_dataset",
        "roles",
        ("APPOSED_KIND_NOUNS",),
        roles.retype_proposed_datasets,
        (
            "We introduce TrailEval-7B, a new benchmark suite for hiking questions.",
            [("TrailEval-7B", "dataset", "proposed")],
        ),
        (
            "We propose the Price of Waiting in Lines (PWL), a new metric for queues.",
            [("PWL", "metric", "proposed")],
        ),
    ),
    _rule(
        "code_namesake",
        "roles",
        (),
        roles.propose_code_namesakes,
        (
            "Compared with BlipNet, training is stable. Code: https://github.com/someone/BlipNet",
            [("BlipNet", "method", "proposed")],
        ),
    ),
    _rule(
        "trained_model",
        "roles",
        ("TRAINED_KIND_NOUNS",),
        roles.propose_trained_models,
        ("We train a ZetaRank model to score answers.", [("ZetaRank", "model", "proposed")]),
    ),
    _rule(
        "variants",
        "roles",
        ("MODEL_SIZE_WORDS",),
        roles.propose_variants,
        ("We introduce FluxMix. FluxMix-XL is larger.", [("FluxMix-XL", "model", "proposed")]),
    ),
    _rule(
        "prefix_variants",
        "roles",
        (),
        roles.propose_prefix_variants,
        (
            "We propose Dual Gated Memory (DGM). The resulting DGNet scales well.",
            [("DGNet", "method", "proposed")],
        ),
    ),
    _rule(
        "siblings",
        "roles",
        (),
        roles.propose_siblings,
        ("We introduce Delta-QRL. Delta-QRX extends it.", [("Delta-QRX", "method", "proposed")]),
    ),
    _rule(
        "slash_partners",
        "roles",
        (),
        roles.propose_slash_partners,
        ("We propose the losses, namely FooDice/FooIoU, for masks.", [("FooIoU", "method", "proposed")]),
    ),
    _rule(
        "parts",
        "roles",
        ("PART_VERBS",),
        roles.propose_parts,
        ("We propose KiloNet. KiloNet includes a ZipAttn block.", [("ZipAttn", "method", "proposed")]),
    ),
    _rule(
        "described_in_own_voice",
        "roles",
        ("APPOSED_KIND_NOUNS",),
        roles.propose_described_in_own_voice,
        ("We then employ MorphEdit, a fast editing method.", [("MorphEdit", "method", "proposed")]),
    ),
    _rule(
        "salient_fallback",
        "roles",
        (),
        roles.propose_salient_fallback,
        (
            "In this work we study QuantaBox. QuantaBox is fast. QuantaBox is small.",
            [("QuantaBox", "method", "proposed")],
        ),
    ),
    _rule(
        "claim_fallback",
        "roles",
        ("CLAIM_VERBS",),
        roles.propose_claim_fallback,
        ("We show that GLOWER achieves strong accuracy.", [("GLOWER", "method", "proposed")]),
    ),
    _rule(
        "subject_after_unnamed_proposal",
        "roles",
        ("cue_verb",),
        roles.propose_subject_after_unnamed_proposal,
        (
            "We propose an adaptive prompting approach. NovaPrompt employs memory. NovaPrompt wins.",
            [("NovaPrompt", "method", "proposed")],
        ),
    ),
    _rule(
        "cited_as_others",
        "roles",
        ("such as", "than", "et al"),
        roles.reference_cited,
        ("We propose HexaNet [12] for parsing.", [("HexaNet", "method", "referenced")]),
    ),
    _rule(
        "based_on",
        "roles",
        ("ADJECTIVE_SUFFIXES",),
        roles.reference_bases,
        ("We propose a QuillNet-based tagger.", [("QuillNet", "method", "referenced")]),
    ),
    _rule(
        "greek_math",
        "roles",
        (),
        roles.drop_greek_math,
        (
            "Our analysis uses Δ-approximation bounds with FooNet.",
            [("FooNet", "method")],
            ("Δ-approximation",),
        ),
    ),
    _rule(
        "released_model",
        "roles",
        ("MODEL_WORDS_BEFORE", "MODEL_WORDS_AFTER"),
        models.retype_released_models,
        (
            "We retrieve with the embedding model ABC-M3 and rerank.",
            [("ABC-M3", "model", "referenced")],
        ),
        ("Poses come from Kestrel-1x and GPT-4o.", [("Kestrel-1x", "model")]),
        ("We compare Lumen-3 and Vortex on bandits.", [("Lumen-3", "method")]),
        ("We prune GPT-4o and VL-Zorb alike.", [("VL-Zorb", "model")]),
        ("We compare VL-Zorb and Vortex on bandits.", [("VL-Zorb", "method")]),
    ),
    _rule(
        "listed_model_size",
        "roles",
        (),
        models.add_listed_sizes,
        ("We fine-tune Zentro 7B, 13B and 70B.", [("Zentro 13B", "model"), ("Zentro 70B", "model")]),
    ),
    _rule(
        "defined_language_model",
        "roles",
        ("LANGUAGE_MODEL_NOUNS",),
        models.retype_defined_language_models,
        ("We train and release ZorbMoE, a series of open MoE LLMs.", [("ZorbMoE", "model")]),
        ("We fine-tune open-source LLMs named as ZorbMol on the data.", [("ZorbMol", "model")]),
        ("We propose ZorbNet, a method for LLMs.", [("ZorbNet", "method")]),
    ),
    _rule(
        "task_phrase",
        "tasks",
        ("TASK_HEADS", "WEAK_TASK_HEADS", "TASK_FOLLOWERS", "TASK_WORD_STOPS"),
        tasks.add_tasks,
        (
            "Our detector improves small object detection and speeds up image captioning.",
            [("small object detection", "task", "referenced"), ("image captioning", "task")],
            ("improves small object detection",),
        ),
        ("We study the summarization task.", [("summarization", "task")], ("study",)),
        ("Results on combinatorial optimization are strong.", [("combinatorial optimization", "task")]),
        (
            "We introduce the new task of recipe summarization.",
            [("recipe summarization", "task", "proposed")],
        ),
    ),
)
