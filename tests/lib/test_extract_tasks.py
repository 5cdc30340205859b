"""The task rule: phrases ending in a task head, read back over task words, and their roles."""

import pytest

from pipeline.lib.extract.extract import extract_entities


def tasks(text: str) -> dict[str, str]:
    return {m.name: m.role for m in extract_entities(text).mentions if m.entity_type == "task"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The model improves long-form question answering.", {"long-form question answering": "referenced"}),
        (
            "We evaluate on 3D object detection and semantic segmentation.",
            {"3D object detection", "semantic segmentation"},
        ),
        (
            "It handles tasks such as forecasting, imputation and anomaly detection.",
            {"forecasting", "imputation", "anomaly detection"},
        ),
        ("Text-to-image generation is costly.", {"Text-to-image generation"}),
    ],
)
def test_task_phrases(text, expected):
    assert set(tasks(text)) == set(expected)


@pytest.mark.parametrize(
    "text",
    [
        "We reduce the cost of prediction.",  # a bare head, no task cue
        "The optimization converges quickly.",  # a weak head without a task name or cue
        "This improves model prediction.",  # a generic noun before the head
        "We train Llama generation pipelines.",  # a name before a lower-case head
    ],
)
def test_not_tasks(text):
    assert tasks(text) == {}


def test_quality_words_end_the_phrase():
    assert set(tasks("It achieves accurate image classification.")) == {"image classification"}


def test_a_new_task_is_proposed_and_other_proposals_leave_tasks_alone():
    assert tasks("We introduce the new task of chart summarization.") == {"chart summarization": "proposed"}
    assert tasks("We propose FooNet for image captioning.") == {"image captioning": "referenced"}


def test_a_spelled_out_task_acronym_is_a_task():
    found = {
        m.text: m.entity_type for m in extract_entities("Video super-resolution (VSR) needs frames.").mentions
    }
    assert found == {"Video super-resolution": "task", "VSR": "task"}


def test_a_task_inside_a_found_name_is_left_to_it():
    found = {
        (m.text, m.entity_type)
        for m in extract_entities("We propose Fast Object Detection Net (FODN).").mentions
    }
    assert ("object detection", "task") not in {(t.lower(), e) for t, e in found}


def test_a_spelled_out_named_problem_is_a_task():
    found = {
        m.text: m.entity_type
        for m in extract_entities("Solvers for the crate stacking problem (CSP) are slow.").mentions
    }
    assert found == {"crate stacking problem": "task", "CSP": "task"}


def test_a_plural_head_is_a_task_only_when_listed_or_followed():
    assert tasks("The network gives faithful graph predictions.") == {}
    assert set(tasks("We run image interpolations and image captioning.")) == {
        "image interpolations",
        "image captioning",
    }


def test_a_head_before_a_means_word_names_no_task_unless_a_task_name():
    assert tasks("We design an online detection algorithm for users.") == {}
    assert set(tasks("It beats image classification methods.")) == {"image classification"}


def test_a_verb_before_the_head_ends_the_phrase():
    assert set(tasks("Such models identify image segmentation cues and we study table detection tasks.")) == {
        "image segmentation",
        "table detection",
    }


def test_a_hyphened_compound_before_the_head_is_part_of_the_task():
    assert set(tasks("We test on table-parsing, image-captioning and retrieval.")) == {
        "table-parsing",
        "image-captioning",
        "retrieval",
    }


def test_a_list_of_heads_before_a_noun_names_no_task():
    assert tasks("It improves both segmentation and tracking quality.") == {}
    assert set(tasks("It handles segmentation and tracking on video.")) == {"segmentation", "tracking"}


def test_a_task_cue_announces_a_phrase_of_any_plain_words():
    assert set(tasks("It helps on tasks such as kettle noise estimation and swamp attacks.")) == {
        "kettle noise estimation",
        "swamp attacks",
    }
    assert set(tasks("We study the problem of quiet lantern inference.")) == {"quiet lantern inference"}


def test_a_named_only_head_makes_a_task_inside_a_task_name():
    assert set(tasks("We apply it to crowd counting and to point cloud registration.")) == {
        "crowd counting",
        "point cloud registration",
    }
    assert tasks("Careful counting and better understanding help.") == {}


def test_an_abbreviation_inside_the_phrase_keeps_it_going():
    assert "Molecule graph (MG) generation" in tasks("Molecule graph (MG) generation needs care.")


def test_the_goal_of_cues_a_task():
    assert set(tasks("The goal of shelf-aware stock forecasting is to plan orders.")) == {
        "shelf-aware stock forecasting"
    }


def test_task_words_before_a_named_only_task_join_it():
    assert set(tasks("It handles online bug fixing well.")) == {"online bug fixing"}


def test_a_task_word_after_we_is_a_verb():
    assert set(tasks("We target dense crowd counting and we test density estimation.")) == {
        "dense crowd counting",
        "density estimation",
    }
