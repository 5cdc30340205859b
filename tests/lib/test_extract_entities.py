import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.lib.extract.extract import extract_entities
from pipeline.lib.extract.lexicons import load_lexicon
from pipeline.lib.extract.shapes import long_form_type


def found(text):
    """{name: (entity_type, role)} of the mentions in text."""
    return {m.name: (m.entity_type, m.role) for m in extract_entities(text).mentions}


def test_every_mention_is_an_exact_span():
    text = (
        "We propose FooNet-7B, a novel framework built for Zorblax (ZRB) data. Compared to GPT-4o and "
        "Llama-3-8B, FooNet-7B reaches a top-1 accuracy of 81.2% on the ImageNet-1K dataset."
    )
    mentions = extract_entities(text).mentions
    assert mentions
    for m in mentions:
        assert text[m.start : m.end] == m.text


# Shape cues


def test_versioned_model_names_are_models():
    names = found("We fine-tune Qwen3-8B and compare it with GPT-4o-mini on math problems.")
    assert names["Qwen3-8B"] == ("model", "referenced")
    assert names["GPT-4o-mini"] == ("model", "referenced")


def test_mixed_case_coined_name_is_a_method():
    assert found("Prior work such as ZipKV compresses the cache.")["ZipKV"][0] == "method"


def test_hyphenated_name_with_digits_before_datasets_is_a_dataset():
    names = found("Our method improves results on QR-VOLT-3 and two other imaging datasets.")
    assert names["QR-VOLT-3"][0] == "dataset"


def test_name_before_a_dataset_head_is_a_dataset():
    names = found("It is evaluated on the Wordsworth dataset and the MegaSim benchmark.")
    assert names["Wordsworth"][0] == "dataset"
    assert names["MegaSim"][0] == "dataset"


def test_version_list_names_two_models():
    names = found("Structure predictors (e.g., AlphaFold 2/3) fold proteins.")
    assert "AlphaFold 2" in names and "AlphaFold 3" in names


def test_lower_case_suffix_is_not_part_of_the_name():
    mentions = extract_entities("We train LoRA-based adapters.").mentions
    assert [(m.text, m.name) for m in mentions] == [("LoRA", "LoRA")]


# What is not an entity


def test_capitalised_sentence_start_is_not_an_entity():
    assert found("Experiments show gains. Moreover, Results improve with scale.") == {}


def test_capitalised_words_mid_sentence_are_not_entities_by_themselves():
    assert found("This follows from the Bellman equation and a Gaussian prior over Markov chains.") == {}


@pytest.mark.parametrize("acronym", ["LLM", "LLMs", "KV", "RL", "NLP", "CV", "SOTA", "GPU"])
def test_field_acronyms_are_not_entities(acronym):
    assert found(f"Work on {acronym} has grown, and {acronym} matters for us.") == {}


def test_defined_topic_acronym_is_an_abbreviation_only():
    result = extract_entities("Large language models (LLMs) are popular. LLMs reason well.")
    assert [(a.short, a.long) for a in result.abbreviations] == [("LLMs", "Large language models")]
    assert result.mentions == []


def test_topic_long_forms_are_not_entities_but_named_methods_are():
    result = found("Continual learning (CL) is hard; we compare with Sparse Token Routing (STR) instead.")
    assert "CL" not in result
    assert result["STR"][0] == "method"


def test_math_and_units_are_not_names():
    assert found("With 7B parameters, 3D inputs and a 4-bit code, the bound is O(n) for ε_BC.") == {}


def test_field_acronym_fused_with_a_word_is_not_a_name():
    assert found("Results on video-QA and neuroAI are mixed.") == {}


# Types of long forms


@pytest.mark.parametrize(
    ("long", "expected"),
    [
        ("Sparse Neural Compression", "method"),
        ("gradient descent", "method"),
        ("signal-to-noise ratio", "metric"),
        ("Street Scene Dataset", "dataset"),
        ("continual learning", None),
        ("monocular depth estimation", None),
        ("Generalized Advantage Estimation", "method"),
        ("graph neural networks", None),
        ("Direct Preference Optimization", "method"),
        ("local differential privacy", None),
    ],
)
def test_long_form_type(long, expected):
    assert long_form_type(long) == expected


@pytest.mark.parametrize(
    ("long", "expected"),
    [
        ("Ant Colony Optimization", "method"),
        ("Directed Representation Optimization", "method"),
        ("Online Convex Optimization", None),
        ("Combinatorial Optimization", None),
    ],
)
def test_a_titled_optimisation_names_a_method_unless_it_ends_in_a_field(long, expected):
    assert long_form_type(long, load_lexicon()) == expected


def test_a_titled_long_form_defined_as_a_kind_takes_that_kind():
    names = found("Open Table Reasoning (OTR) is a benchmark of questions over tables.")
    assert names["OTR"] == ("dataset", "referenced")
    # Lower case, the definition does not type it: its head does ('reasoning' names a task).
    assert found("Open table reasoning (OTR) is a benchmark of questions.")["OTR"][0] == "task"


def test_an_acronym_spelled_out_is_a_method_unless_it_names_a_topic_or_a_class():
    names = found(
        "We rely on stochastic line search (SLS) and continual learning (CL) "
        "on hyperbolic neural networks (HNNs)."
    )
    assert names["SLS"] == ("method", "referenced")
    assert "CL" not in names  # a topic the lexicon knows
    assert "HNN" not in names  # a plural names a class
    assert found("Recent text-to-image (T2I) models and out-of-domain (OOD) inputs.") == {}
    assert found("Fluorescence microscopy (FM) imaging observes live cells.") == {}


def test_a_kind_noun_dashed_to_a_name_is_not_part_of_it():
    names = found("This paper introduces a universal prompt-tuning framework-FlashST, which adapts models.")
    assert names["FlashST"] == ("method", "proposed")
    assert "framework-FlashST" not in names


def test_a_cited_author_is_not_a_name():
    assert found("Hesitancy is a delay in acceptance (MacDonald, 2015), as DeVries et al. show.") == {}
    assert found("We compare FooNet, 2048 samples, with ZipKV.")["FooNet"][0] == "method"


def test_a_model_size_after_a_space_belongs_to_the_released_model():
    names = found("UTGen improves Qwen2.5 32B and Llama 2 70B on HumanEvalFix.")
    assert names["Qwen2.5 32B"] == ("model", "referenced")
    assert names["Llama 2 70B"] == ("model", "referenced")


# Lexicons and context


def test_lexicon_metrics_and_methods():
    names = found("We report perplexity and win rate, training with AdamW and LoRA.")
    assert names["perplexity"][0] == "metric"
    assert names["win rate"][0] == "metric"
    assert names["AdamW"][0] == "method"
    assert names["LoRA"][0] == "method"


def test_case_sensitive_lexicon_names_do_not_fire_on_ordinary_words():
    assert found("We sam the data and adam the results with a clip.") == {}


def test_metric_from_its_reported_value():
    names = found("The model achieves a semantic IoU of 82.4 and a boundary score of 0.7.")
    assert names["semantic IoU"][0] == "metric"
    assert names["boundary score"][0] == "metric"


def test_generic_quantity_with_a_value_is_not_a_metric():
    assert found("This gives an approximation error of 0.1 and a rate of O(1/T).") == {}


def test_examples_after_a_kind_noun_take_its_type():
    names = found("We test on benchmarks such as Infoseek and Quartzbench.")
    assert names["Infoseek"][0] == "dataset"
    assert names["Quartzbench"][0] == "dataset"


# Proposed versus referenced


def test_we_propose_x():
    names = found("We propose ZetaFlow, a sampler for molecules. ZetaFlow beats DDPM.")
    assert names["ZetaFlow"] == ("method", "proposed")
    assert names["DDPM"] == ("method", "referenced")


def test_our_model_x():
    assert (
        found("Across experiments, our model PlanGuide produces better plans.")["PlanGuide"][1] == "proposed"
    )


def test_x_a_novel_framework():
    assert found("Here, KiloMix, a novel framework for mixing, is simple.")["KiloMix"][1] == "proposed"


def test_we_build_x_a_benchmark_is_a_proposed_dataset():
    assert found("We build OrbitQA-2K, a benchmark for orbital questions.")["OrbitQA-2K"] == (
        "dataset",
        "proposed",
    )


def test_proposed_long_form_and_acronym_are_one_entity():
    mentions = extract_entities("We introduce Graph Echo Routing (GER), a method. GER is fast.").mentions
    assert {m.name for m in mentions} == {"GER"}
    assert {m.text for m in mentions} == {"Graph Echo Routing", "GER"}
    assert all(m.role == "proposed" and m.expansion == "Graph Echo Routing" for m in mentions)


def test_title_case_name_after_a_proposal_verb():
    names = found("We introduce Expert Folding, a training-light method. Expert Folding++ goes further.")
    assert names["Expert Folding"] == ("method", "proposed")
    assert names["Expert Folding++"][1] == "proposed"


def test_names_after_a_reference_marker_in_a_proposal_sentence_are_referenced():
    names = found("We propose a method that outperforms baselines such as ZipKV and PackKV.")
    assert names["ZipKV"][1] == "referenced"
    assert names["PackKV"][1] == "referenced"


def test_known_models_are_never_proposed():
    assert found("We propose fine-tuning our Qwen3-8B with a new loss.")["Qwen3-8B"][1] == "referenced"


def test_names_mentioned_before_the_proposal_are_referenced():
    names = found("GeoMix is popular. We propose a small change to GeoMix for speed.")
    assert names["GeoMix"][1] == "referenced"


# Pieces to build arbitrary texts from: names, markup, numbers, URLs, math.
_WORDS = [
    *("We", "propose", "FooNet-2", "(FN)", "LLMs", "a", "novel", "of", "82.4%", "GPT-4o", "dataset"),
    *(
        ",",
        ".",
        "the",
        "accuracy",
        "https://x.io/a",
        "e.g.,",
        "AlphaFold",
        "2/3",
        "-",
        "Δ",
        "Zeta Model",
        "\n",
    ),
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=40))
def test_spans_are_exact_on_arbitrary_text(words):
    text = " ".join(words)
    for m in extract_entities(text).mentions:
        assert text[m.start : m.end] == m.text
        assert m.entity_type in ("method", "model", "dataset", "metric")
        assert m.role in ("proposed", "referenced")


def test_architecture_families_are_methods_and_neural_networks_a_topic():
    mentions = {
        m.name: m.entity_type
        for m in extract_entities("A GNN and two CNNs beat deep neural networks.").mentions
    }
    assert mentions == {"GNN": "method", "CNN": "method"}


def test_a_venue_cited_with_its_year_is_not_an_entity():
    assert extract_entities("Lu (NeurIPS '23, ALT '24) introduces a theory of learning.").mentions == []


def test_an_order_of_a_named_property_is_math_not_a_name():
    assert extract_entities("Every 1-Lipschitz function of the data is bounded.").mentions == []


def test_software_hardware_and_countries_are_not_entities():
    text = "We run MATLAB code on SRAM chips with MPI across the U.S. in USD."
    assert extract_entities(text).mentions == []


def test_a_class_of_functions_named_by_a_prefix_is_math_not_a_name():
    text = "We maximise continuous DR-submodular functions and minimise L-smooth objectives."
    assert extract_entities(text).mentions == []


def test_accuracy_is_a_metric_where_a_value_is_stated_or_compared():
    assert found("The WFR distance reaches 86.4% accuracy on Cora.")["accuracy"] == ("metric", "referenced")
    assert found("The WFR distance achieves higher accuracy than WMD.")["accuracy"][0] == "metric"


def test_accuracy_as_a_quality_is_not_a_metric():
    names = found("These kernels rely on high-precision arithmetic to maintain inference accuracy.")
    assert "accuracy" not in names


def test_metric_variants_named_with_a_suffix_are_metrics():
    names = found("The decoder achieves 41.35 BLEU-1 and 33.71 Rouge-F on the ZuCo dataset.")
    assert names["BLEU-1"][0] == "metric"
    assert names["Rouge-F"][0] == "metric"


def test_a_family_version_introduced_by_the_paper_is_a_model():
    names = found("To bridge this gap, we introduce TÜLU 3, a family of fully-open post-trained models.")
    assert names["TÜLU 3"][0] == "model"


def test_gpus_and_their_vendors_are_not_entities():
    # The compute budget is a measure (lexicons/metrics.txt); the hardware and its vendors are not.
    mentions = extract_entities("Training takes 70 GPU hours on AMD MI300 and Intel CPUs.").mentions
    assert [(m.text, m.entity_type) for m in mentions] == [("GPU hours", "metric")]


def test_in_distribution_written_id_is_a_topic_not_a_method():
    assert "ID" not in found("Outliers mark the boundary between ID and OOD data in this setting.")


def test_a_step_size_rule_spelled_out_is_a_method():
    assert found("The stochastic Polyak stepsize (SPS) adapts to the loss.")["SPS"][0] == "method"


def test_a_hyphenated_variant_of_a_lexicon_dataset_is_a_dataset():
    names = found("It outperforms LiT for ImageNet-77k pretraining.")
    assert names["ImageNet-77k"] == ("dataset", "referenced")


def test_a_capitalised_modifier_before_a_lexicon_method_names_a_variant():
    names = found("The bound is known as Folded ADMM and the rest is simulated.")
    assert names == {"Folded ADMM": ("method", "referenced")}


def test_a_generic_modifier_a_model_or_a_plural_keeps_the_lexicon_name():
    assert "ADMM" in found("We compare against the Vanilla ADMM solver.")
    assert "Transformers" not in {n.split()[-1] for n in found("We study Graph Transformers on molecules.")}


def test_an_algorithm_called_by_a_name_includes_the_word_algorithm():
    names = found("Clustering algorithms such as Tarnwell's algorithm are slow.")
    assert names == {"Tarnwell's algorithm": ("method", "referenced")}
    assert "QX algorithm" in found("Most algorithms, including the celebrated QX algorithm, need many tests.")


def test_a_coined_name_with_digits_before_algorithm_stays_as_written():
    assert "TQ7" in found("We build on the TQ7 algorithm for control.")


def test_three_or_four_capitals_before_lower_case_letters_are_a_name():
    assert found("We propose TarnGrad, a modification of TQSGrad that averages.")["TQSGrad"][0] == "method"
    assert "REfinement" not in found("We study a Unified LAbel REfinement Framework for noisy labels.")
