"""Released models: versioned names the paper uses beside a model are models, not methods."""

import pytest

from pipeline.lib.extract.extract import extract_entities


def types(text: str) -> dict[str, str]:
    return {m.text: m.entity_type for m in extract_entities(text).mentions}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We retrieve with the embedding model ABC-M3 and rerank.", "ABC-M3"),
        ("Poses come from Kestrel-1x and GPT-4o.", "Kestrel-1x"),
        ("We first use a diffusion model, Zero7, to render views.", "Zero7"),
        ("We fine-tune Heron-v2 on the new data.", "Heron-v2"),
        ("We evaluate public Heron-2.5 checkpoints on the task.", "Heron-2.5"),
        ("We rescore structures predicted by Kestrel-1x.", "Kestrel-1x"),
        ("We cluster embeddings from ABC-M3 by topic.", "ABC-M3"),
    ],
)
def test_a_versioned_name_beside_a_model_is_a_model(text, name):
    assert types(text)[name] == "model"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We compare UCB1 and Exp3 on bandits.", "Exp3"),  # no model beside it
        ("Poses come from Kestrel-1x and a docking search.", "Kestrel-1x"),
        ("We propose Kestrel-1x, and compare it with GPT-4o.", "Kestrel-1x"),  # the paper's own
        ("The model of Smith95 and GPT-4o are compared.", "Smith95"),  # a cited work, not a version
    ],
)
def test_a_versioned_name_without_a_model_beside_it_keeps_its_type(text, name):
    assert types(text).get(name, "method") != "model"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We distil from Zorb-Large into a small student.", "Zorb-Large"),
        ("Baselines include Atlas-Small and a linear probe.", "Atlas-Small"),
        ("We fine-tune Quill-Mini-Instruct on dialogues.", "Quill-Mini-Instruct"),
    ],
)
def test_a_capitalised_compound_ending_in_a_size_is_a_model(text, name):
    assert types(text)[name] == "model"


def test_a_capitalised_compound_without_a_size_stays_no_coined_name():
    assert "Kolmo-Arnold" not in types("We revisit the Kolmo-Arnold view of depth.")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We compare with Zentro 125M and Zentro 350M.", "Zentro 125M"),
        ("We release Quail 1B, a diffusion language model.", "Quail 1B"),
        ("We distil QuuxLM 1.3B into a student.", "QuuxLM 1.3B"),
    ],
)
def test_a_name_with_a_spaced_parameter_count_is_a_model(text, name):
    assert types(text)[name] == "model"


@pytest.mark.parametrize(
    "text",
    [
        "The ablation in Table 2B shows it.",  # a part of the paper
        "Results on the Posture 3.6M dataset are good.",  # a dataset
    ],
)
def test_a_spaced_count_after_no_model_name_is_no_model(text):
    assert "model" not in types(text).values()


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("The judge is ZorbLM 3.", "ZorbLM 3"),
        ("We prompt Grok 3.", "Grok 3"),
    ],
)
def test_a_version_may_end_the_sentence(text, name):
    assert types(text)[name] == "model"


def test_a_factor_after_a_name_is_no_version():
    assert "FooNet 2.5" not in types("We train FooNet 2.5 times faster.")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We test Quux-7B-beta against a rule.", "Quux-7B-beta"),
        ("We test Quux-2-9b-it against a rule.", "Quux-2-9b-it"),
        ("We test Quux-2-7b-hf against a rule.", "Quux-2-7b-hf"),
    ],
)
def test_a_release_word_after_a_size_stays_in_the_name(text, name):
    assert types(text)[name] == "model"


def test_a_lower_case_suffix_without_a_size_is_cut():
    assert "LoRA" in types("We use a LoRA-beta schedule.")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Features come from ViT-B/16 and a linear head.", "ViT-B/16"),
        ("The encoder is ViT-H/14.", "ViT-H/14"),
        ("Features come from ViT-H/14@448 pre-trained on images.", "ViT-H/14@448"),
    ],
)
def test_a_patch_size_names_the_released_model(text, name):
    assert types(text)[name] == "model"


def test_a_lower_case_tier_after_a_model_stays_in_its_name():
    assert types("We compare GPT-4o mini with a rule.")["GPT-4o mini"] == "model"
    assert "FooNet mini" not in types("We compare FooNet mini-batches.")


@pytest.mark.parametrize(
    ("text", "name", "entity_type"),
    [
        ("We train and release ZorbMoE, a series of fully open MoE LLMs.", "ZorbMoE", "model"),
        ("We fine-tune a set of open-source LLMs named as ZorbMol on the data.", "ZorbMol", "model"),
        ("We present ZorbPoet, a language model capable of writing video.", "ZorbPoet", "model"),
        ("We introduce ZorbNet, a vision foundation model for robot learning.", "ZorbNet", "model"),
        ("We propose ZorbNet, a method to teach LLMs to plan.", "ZorbNet", "method"),
        ("We propose ZorbAgent, an LLM agent system for long inputs.", "ZorbAgent", "method"),
        ("We propose ZorbNet, a novel LLM-based approach for evaluation.", "ZorbNet", "method"),
    ],
)
def test_a_name_defined_as_trained_language_models_is_a_model(text, name, entity_type):
    assert types(text)[name] == entity_type


def test_sizes_listed_after_a_sized_model_are_models_of_its_family():
    text = "We pre-train Zentro 7B, 13B, 70B and the models Quux-2.5-7B and 14B."
    found = {(m.name, m.text) for m in extract_entities(text).mentions if m.entity_type == "model"}
    assert {("Zentro 13B", "13B"), ("Zentro 70B", "70B"), ("Quux-2.5-14B", "14B")} <= found
    # A size after no sized model name is no model.
    assert not [
        m
        for m in extract_entities("We train with 7B, 13B and 70B tokens.").mentions
        if m.entity_type == "model"
    ]
