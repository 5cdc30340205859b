import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.lib.extract.results import MentionSpan, Result, find_results
from pipeline.lib.extract.sentences import split_sentences


def results(text: str, mentions=()) -> list[Result]:
    found = find_results(text, mentions)
    for result in found:
        assert text[result.start : result.end] == result.text
        assert result.sentence in text
    return found


def surfaces(text: str) -> list[str]:
    return [r.text for r in results(text)]


def mention(text: str, surface: str, entity_type: str, name: str | None = None) -> MentionSpan:
    start = text.index(surface)
    return MentionSpan(start, start + len(surface), entity_type, name or surface)


@pytest.mark.parametrize(
    ("sentence", "surface", "value", "unit"),
    [
        ("Our method improves accuracy by 5.1% on average.", "5.1%", 5.1, "%"),
        ("It gains 20.7 % on fluid tasks.", "20.7 %", 20.7, "%"),
        ("It beats the baselines by 10+% in accuracy.", "10+%", 10.0, "%"),
        ("It is 1.5-3× better than the baseline.", "1.5-3×", 3.0, "×"),
        ("It yields a 11–77% improvement.", "11–77%", 77.0, "%"),
        ("Training is 3x faster.", "3x", 3.0, "×"),
        ("Inference is 2.5 times cheaper.", "2.5 times", 2.5, "×"),
        ("Sampling becomes ten-fold faster.", "ten-fold", 10.0, "×"),
        ("Accuracy rises by +4.2 points.", "+4.2 points", 4.2, "points"),
        ("Recall improves by 3.1 pp over the baseline.", "3.1 pp", 3.1, "pp"),
        ("The detector reaches 0.87 AUC.", "0.87", 0.87, None),
        ("We obtain an F1 of 78.3.", "78.3", 78.3, None),
        ("The system scores BLEU 34.1 on the test set.", "34.1", 34.1, None),
        ("The model reaches a pass@1 of 62% on the benchmark.", "62%", 62.0, "%"),
        ("It raises the score from 45.2 to 61.8.", "45.2 to 61.8", 61.8, None),
        ("The error drops by −3.5%.", "−3.5%", -3.5, "%"),
        ("It saves 70% of the data collection cost.", "70%", 70.0, "%"),
        ("It improves the PSNR by 1.15dB over the baseline.", "1.15dB", 1.15, "dB"),
        ("The reconstruction reaches 27.8 dB on the test scenes.", "27.8 dB", 27.8, "dB"),
    ],
)
def test_result_forms(sentence, surface, value, unit):
    (result,) = results(sentence)
    assert (result.text, result.value, result.unit) == (surface, value, unit)
    assert result.sentence == sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "We fine-tune a 7B model and a 13B parameters model.",
        "The benchmark was released in 2023 with 10k images.",
        "We evaluate on 3 datasets, see Section 4.",
        "We set ε=0.1 and a budget=64.",
        "We use 10-fold cross-validation.",
        "The bound holds with 95% confidence.",
        "Each experiment is run 3 times.",
        "It stacks 3 × 3 convolutions for 4× super-resolution.",
        "Our contributions are two-fold.",
        "GPT-4 and Qwen3-8B are compared on 2-bit weights.",
        "The subjects were aged from 3.5 to 14 weeks.",
        "An accuracy of 8 bits is kept.",
        "We sample 1000 points from each shape.",
        "It matches the baseline using only 10% of the training data at 50% sparsity.",
        "The recordings have 34 dB of analog input range.",
    ],
)
def test_not_results(sentence):
    assert results(sentence) == []


def test_metric_from_the_builtin_list_nearest_the_number():
    text = "Our model surpasses the baseline by 0.15 in rFID and 0.09 in gFID, with a 72% win rate."
    assert [(r.text, r.metric) for r in results(text)] == [
        ("0.15", "rFID"),
        ("0.09", "gFID"),
        ("72%", "win rate"),
    ]


def test_far_away_metric_word_is_not_the_metric():
    text = (
        "It improves over the strong baseline by 6.05% on average across many understanding benchmarks, "
        "and it also gives competitive results elsewhere with a better rFID."
    )
    (result,) = results(text)
    assert result.metric is None


def test_metric_and_dataset_mentions_are_preferred():
    text = "On LVIS it achieves a semantic similarity of 89.7 and a semantic IoU of 82.4."
    mentions = [
        mention(text, "LVIS", "dataset"),
        mention(text, "semantic similarity", "metric"),
        mention(text, "semantic IoU", "metric"),
    ]
    found = results(text, mentions)
    assert [(r.text, r.metric, r.dataset) for r in found] == [
        ("89.7", "semantic similarity", "LVIS"),
        ("82.4", "semantic IoU", "LVIS"),
    ]


def test_systems_after_for_are_not_what_numbers_are_compared_with():
    # "for" names what the numbers are about, not a comparison; nor does the sentence pair the two
    # numbers with the two systems.
    text = "MixKV achieves gains of 8.0% and 9.0% for SnapKV and AdaKV on GUI grounding tasks."
    mentions = [
        mention(text, "MixKV", "method"),
        mention(text, "SnapKV", "method"),
        mention(text, "AdaKV", "method"),
    ]
    assert [(r.text, r.compared_to) for r in results(text, mentions)] == [("8.0%", None), ("9.0%", None)]


def test_compared_systems_after_outperforms_and_compared_to_opening():
    text = (
        "It outperforms FlashAttention and xFormers by 12%. Compared to PagedAttention, it is 2× "
        "faster, and it reaches 70%."
    )
    mentions = [mention(text, name, "method") for name in ("FlashAttention", "xFormers", "PagedAttention")]
    assert [(r.text, r.compared_to) for r in results(text, mentions)] == [
        ("12%", "FlashAttention, xFormers"),
        ("2×", "PagedAttention"),
        ("70%", None),  # a value, not a change
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It reaches 76.2% top-1 accuracy on ImageNet.", [("76.2%", "ImageNet")]),
        ("It gains 8.8% and 11.6% on GSM8K.", [("8.8%", "GSM8K"), ("11.6%", "GSM8K")]),
        (
            "It scores 62.1% and 71.0% on GSM8K and MATH, respectively.",
            [("62.1%", "GSM8K"), ("71.0%", "MATH")],
        ),
        ("It scores 62.1% and 71.0% on GSM8K and MATH.", [("62.1%", None), ("71.0%", None)]),
        ("On GSM8K, the model reaches 62.1% and a gain of 3.5%.", [("62.1%", "GSM8K"), ("3.5%", "GSM8K")]),
        ("The model, trained on GSM8K, reaches 62.1%.", [("62.1%", None)]),
        ("It is 3.1% more accurate than models tuned on GSM8K.", [("3.1%", None)]),
    ],
)
def test_dataset_only_where_the_sentence_ties_it_to_the_number(text, expected):
    mentions = [mention(text, name, "dataset") for name in ("GSM8K", "MATH", "ImageNet") if name in text]
    assert [(r.text, r.dataset) for r in results(text, sorted(mentions))] == expected


def test_metric_only_when_joined_and_named_as_written():
    text = "We report pass@1 of 65.9 on the hard split. Latency drops, and the method wins 12% of games."
    mentions = [mention(text, "pass@1", "metric", name="pass@k"), mention(text, "Latency", "metric")]
    assert [(r.text, r.metric) for r in results(text, mentions)] == [("65.9", "pass@1"), ("12%", None)]


def test_compared_systems_after_than_and_compared_to():
    text = "Ours is 2.1× faster than FlashAttention. It reaches 72% compared to 28% for default GPT-4o."
    mentions = [mention(text, "FlashAttention", "method"), mention(text, "GPT-4o", "model")]
    assert [(r.text, r.compared_to) for r in results(text, mentions)] == [
        ("2.1×", "FlashAttention"),
        ("72%", "GPT-4o"),
        ("28%", None),  # GPT-4o's own value
    ]


def test_for_without_a_number_before_it_does_not_name_a_comparison():
    text = "It gains 25% over the best technique used for RLHF."
    (result,) = results(text, [mention(text, "RLHF", "method")])
    assert result.compared_to is None


def test_comparison_stays_in_its_clause():
    text = "It gains 25% on math; it also beats GPT-4o in chat."
    (result,) = results(text, [mention(text, "GPT-4o", "model")])
    assert result.compared_to is None


def test_result_sentence_is_its_own_sentence():
    text = "We study pruning, e.g. of heads. It keeps 98.2% of the accuracy. Code is released."
    (result,) = results(text)
    assert result.sentence == "It keeps 98.2% of the accuracy."


def test_split_sentences_skips_abbreviations_and_decimals():
    text = "  We follow Smith et al. and use 3.5 times the data, i.e. more. Results improve! Done?  "
    assert [text[s:e] for s, e in split_sentences(text)] == [
        "We follow Smith et al. and use 3.5 times the data, i.e. more.",
        "Results improve!",
        "Done?",
    ]
    assert split_sentences("") == []


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["1.5", "-", "3", "%", "×", "x", " ", "F1", " of ", "BLEU", ".", "times", " faster", "±"]
        ),
        max_size=25,
    ).map("".join)
)
def test_offsets_hold_on_arbitrary_text(text):
    results(text)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["1.5", "3", "7B", "%", " ", "F1", " of ", "accuracy", ";", ". ", "2x", " faster"]),
        max_size=300,
    ).map("".join),
    st.integers(0, 4),
)
def test_a_limit_gives_the_first_results(text, limit):
    """The same rows as without a limit, however far into the text the search had to look."""
    mentions = [mention(text, "F1", "metric")] if "F1" in text else []
    assert find_results(text, mentions, limit=limit) == find_results(text, mentions)[:limit]


def test_a_built_in_metric_beside_a_mentioned_one_and_a_comparative_with_its_measure():
    text = "FooViT reaches 76.2% top-1 on ImageNet with 30% fewer FLOPs than DeiT-B, and 48.1 AP on COCO."
    mentions = [
        mention(text, "FooViT", "method"),
        mention(text, "ImageNet", "dataset"),
        mention(text, "DeiT-B", "model"),
        mention(text, "AP", "metric"),
        mention(text, "COCO", "dataset"),
    ]
    assert [(r.text, r.metric, r.dataset, r.compared_to) for r in results(text, mentions)] == [
        ("76.2%", "top-1", "ImageNet", None),
        ("30%", "FLOPs", None, "DeiT-B"),
        ("48.1", "AP", "COCO", None),
    ]


def test_numbers_listed_together_share_their_metric_unless_alternatives():
    text = (
        "It reaches 81.3% and 77.9% balanced accuracy on the two splits. "
        "It gives a 4x speedup or 2.5x improvement in accuracy."
    )
    assert [(r.text, r.metric) for r in results(text)] == [
        ("81.3%", "balanced accuracy"),
        ("77.9%", "balanced accuracy"),
        ("4x", "speedup"),
        ("2.5x", "accuracy"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "It beats the baselines by 3.1% and 0.9% in terms of precision and AUROC, respectively.",
        "It lowers the MAE and ECE by up to 3.1% and 0.9% over the baselines.",
    ],
)
def test_numbers_listed_with_as_many_metrics_pair_with_them(text):
    first, second = ("precision", "AUROC") if "AUROC" in text else ("MAE", "ECE")
    assert [(r.text, r.metric) for r in results(text)] == [("3.1%", first), ("0.9%", second)]


def test_numbers_and_metrics_not_paired_without_respectively_after():
    text = "It beats the baselines by 3.1% and 0.9% in precision and AUROC on both splits."
    assert [r.metric for r in results(text)] == [None, None]


def test_a_verb_of_change_names_the_measure_and_whose_it_is():
    text = (
        "Our module improves the macro-F1 of BERT-base and RoBERTa-large by 2.2% and 1.7%, "
        "respectively. It also raises recall across all domains by up to 9%. "
        "It lowers the latency of FooNet-v2-s by 12%."
    )
    mentions = [
        mention(text, "BERT-base", "model"),
        mention(text, "RoBERTa-large", "model"),
        mention(text, "FooNet-v2", "model"),  # cut short: not the system compared
        mention(text, "macro-F1", "metric"),
    ]
    assert [(r.text, r.metric, r.compared_to) for r in results(text, mentions)] == [
        ("2.2%", "macro-F1", "BERT-base"),
        ("1.7%", "macro-F1", "RoBERTa-large"),
        ("9%", "recall", None),
        ("12%", "latency", None),
    ]


def test_a_name_the_mentions_split_in_two_is_one_system():
    text = "It cuts the training time of Pre-LN Transformers by 8%."
    mentions = [
        mention(text, "Pre-LN", "method"),
        mention(text, "Transformers", "method"),
        mention(text, "training time", "metric"),
    ]
    assert [(r.metric, r.compared_to) for r in results(text, mentions)] == [
        ("training time", "Pre-LN Transformers")
    ]


def test_several_numbers_after_by_share_their_one_system():
    text = "It improves the accuracy of GPT-4o by 2.2% and 1.7% on the two splits."
    assert [r.compared_to for r in results(text, [mention(text, "GPT-4o", "model")])] == ["GPT-4o", "GPT-4o"]


@pytest.mark.parametrize(
    ("text", "system"),
    [
        ("It outperforms the strongest pruning method, FooPrune, by approximately 1.3%.", "FooPrune"),
        ("It reaches a 6× higher average solve rate over BarSolver.", "BarSolver"),
        ("It uses 40% GPU memory than BarSolver.", "BarSolver"),
        ("It keeps 95% on held-out tasks compared to BarSolver.", "BarSolver"),
        ("It gives a 72.3% overall bit rate saving over BarSolver.", "BarSolver"),
        ("It gives 12% higher accuracy gains over BarSolver.", "BarSolver"),
    ],
)
def test_compared_system_in_apposition_or_after_a_word_that_only_compares(text, system):
    (result,) = results(text, [mention(text, system, "method")])
    assert result.compared_to == system


@pytest.mark.parametrize(
    ("text", "compared"),
    [
        ("It keeps 3x faster generation than standard BarSolver.", "standard BarSolver"),
        ("It keeps 3x faster generation than the vanilla BarSolver.", "vanilla BarSolver"),
        # A word not known to name a variant: the comparison is not read past it.
        ("It keeps 3x faster generation than the original BarSolver.", None),
    ],
)
def test_the_variant_of_the_compared_system_is_kept_with_its_name(text, compared):
    (result,) = results(text, [mention(text, "BarSolver", "method")])
    assert result.compared_to == compared


def test_over_after_plain_words_is_no_comparison():
    text = "It reaches 95% accuracy on the test split over BarSolver runs."
    (result,) = results(text, [mention(text, "BarSolver", "method")])
    assert result.compared_to is None


def test_a_dataset_right_after_a_comparison_is_compared_and_nowhere_else():
    text = "It gives a 3% gain over FooSet. It outperforms baselines on BarSet by 2%."
    mentions = [mention(text, "FooSet", "dataset"), mention(text, "BarSet", "dataset")]
    assert [(r.text, r.compared_to) for r in results(text, mentions)] == [("3%", "FooSet"), ("2%", None)]


@pytest.mark.parametrize(
    ("text", "compared"),
    [
        ("It is 1.5× faster than FooLM Code Agent on our suite.", None),
        ("It is 1.5× faster than FooLM-v2 on our suite.", "FooLM-v2"),  # named whole, no mention
        ("It is 1.5× faster than FooLM-based agents on our suite.", "FooLM"),
        ("It is 1.5× faster than FooLM on our suite.", "FooLM"),
    ],
)
def test_a_system_name_cut_short_is_not_the_one_compared(text, compared):
    (result,) = results(text, [mention(text, "FooLM", "model")])
    assert result.compared_to == compared


@pytest.mark.parametrize(
    ("text", "metric"),
    [
        ("It needs 7× fewer gradient steps than the teacher.", "gradient steps"),
        ("It uses 40% less device memory per query.", "device memory"),
        ("It reaches 3× higher token throughput, and converges.", "token throughput"),
        ("It is 2× more efficient than the teacher.", None),
        ("It is 2× less expensive than the teacher.", None),
        ("It solves 12% more puzzles than the teacher.", None),
        ("The error is 30% lower than the bound.", None),
    ],
)
def test_a_comparative_names_the_quantity_it_counts(text, metric):
    (result,) = results(text)
    assert result.metric == metric


@pytest.mark.parametrize(
    ("text", "compared"),
    [
        ("It improves the QPS and recall of FooIndex by 4.2% on average.", "FooIndex"),
        ("It surpasses FooIndex in terms of recall by 4.2%.", "FooIndex"),
    ],
)
def test_what_a_verb_of_change_measures_comes_before_of(text, compared):
    mentions = [mention(text, "FooIndex", "method")]
    if "QPS" in text:
        mentions.insert(0, mention(text, "QPS", "model"))  # a measure typed as a system
    (result,) = results(text, mentions)
    assert result.compared_to == compared


@pytest.mark.parametrize(
    ("text", "compared"),
    [
        ("It outperforms Foo-3.1-8B on long contexts by 4.2%.", "Foo-3.1-8B"),
        ("It boosts Foo-3.1-8B's recall by 4.2%.", "Foo-3.1-8B"),
        ("It improves Foo-3.1-8B by 4.2%.", "Foo-3.1-8B"),
        ("It improves the top-1 Foo-3.1-8B accuracy by 4.2%.", None),
        ("It outperforms baselines on Foo-3.1-8B by 4.2%.", None),
    ],
)
def test_systems_before_by_are_the_object_beaten_or_what_the_measure_is_of(text, compared):
    (result,) = results(text, [mention(text, "Foo-3.1-8B", "model")])
    assert result.compared_to == compared


@pytest.mark.parametrize(
    ("text", "compared"),
    [
        ("Ours outperforms all pre-existing FooNet methods by 4%.", None),
        ("Ours outperforms prior FooNet baselines by 4%.", None),
        ("Ours outperforms BarNet and all prior FooNet methods by 4%.", "BarNet"),
        ("Ours outperforms all prior FooNet serving systems by 4%.", None),
        ("Ours serves 2× more requests than the state-of-the-art FooNet serving systems.", None),
        ("Ours serves 2× more requests than the state-of-the-art FooNet.", "FooNet"),
        ("Ours outperforms FooNet methods such as BarNet by 4%.", "BarNet"),
        ("Ours outperforms the SOTA BarNet using FooNet by 4.0% mIoU.", "BarNet"),
        ("Ours reaches 80%, outperforming BarNet using FooNet by 4.0%.", "BarNet"),
    ],
)
def test_a_kind_of_unnamed_systems_or_what_a_system_uses_is_not_compared(text, compared):
    mentions = sorted(mention(text, name, "method") for name in ("FooNet", "BarNet") if name in text)
    assert results(text, mentions)[-1].compared_to == compared


def test_numbers_listed_past_what_each_was_measured_with_share_their_comparison():
    text = "It surpasses FooNet in speed by 52× (BarNet-4) and 16× (BazNet-18)."
    found = results(text, [mention(text, "FooNet", "method")])
    assert [(r.text, r.compared_to) for r in found] == [("52×", "FooNet"), ("16×", "FooNet")]


def test_one_system_before_by_is_compared_with_the_whole_list():
    text = (
        "It surpasses FooNet by 6.1%, 2.4% and 3.0% on AlphaSet, BetaSet and GammaSet, respectively. "
        "It improves the recall of FooNet and BarNet by 1.4% and 0.6%, respectively. "
        "It is 7% better than their FooNet counterpart."
    )
    mentions = sorted(
        [mention(text, name, "dataset") for name in ("AlphaSet", "BetaSet", "GammaSet")]
        + [mention(text, "FooNet", "method")]
        + [MentionSpan(m.start(), m.end(), "method", "FooNet") for m in re.finditer("FooNet", text)][1:]
    )
    assert [(r.text, r.compared_to) for r in results(text, mentions)] == [
        ("6.1%", "FooNet"),
        ("2.4%", "FooNet"),
        ("3.0%", "FooNet"),
        ("1.4%", "FooNet"),  # BarNet, not known as a system, is the 0.6%'s
        ("0.6%", None),
        ("7%", "FooNet"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "It sets a new best on AlphaSet (71.5%) and BetaSet (64.0%).",
            [("71.5%", "AlphaSet"), ("64.0%", "BetaSet")],
        ),
        ("It improves results on the hard benchmark, AlphaSet, by +3 points.", [("+3 points", "AlphaSet")]),
        (
            "On AlphaSet, BetaSet, and GammaSet, it beats the baseline by 5.1%, 2.0%, and 3.3%.",
            [("5.1%", "AlphaSet"), ("2.0%", "BetaSet"), ("3.3%", "GammaSet")],
        ),
        ("On AlphaSet and BetaSet, it beats the baseline by 5.1%.", [("5.1%", None)]),
        ("Trained on AlphaSet, it beats the baseline by 5.1%.", [("5.1%", None)]),
    ],
)
def test_dataset_before_the_number_in_parentheses_by_or_an_opening_list(text, expected):
    mentions = [
        mention(text, name, "dataset") for name in ("AlphaSet", "BetaSet", "GammaSet") if name in text
    ]
    assert [(r.text, r.dataset) for r in results(text, mentions)] == expected


@pytest.mark.parametrize(
    ("text", "metric"),
    [
        ("It beats the baseline by 4.5% for the success rate.", "success rate"),
        ("It beats the baseline by 4.5% in terms of the F1-score.", "F1-score"),
        ("It brings recall increases of 4.5% on both splits.", "recall"),
        ("It brings a precision boost of 4.5% on both splits.", "precision"),
    ],
)
def test_metric_joined_past_the_for_and_increases_of(text, metric):
    (result,) = results(text)
    assert result.metric == metric


def test_numbers_in_parallel_share_their_metric_and_the_system_beaten():
    text = (
        "It beats FooNet by 10% for retrieval and 4% for captioning. "
        "It brings recall increases of 11.5% on AlphaSet, 26.1% on BetaSet, and 8.1% on GammaSet. "
        "It improves FooNet by 1.4% and 0.6% in the two settings, respectively."
    )
    foonets = [MentionSpan(m.start(), m.end(), "method", "FooNet") for m in re.finditer("FooNet", text)]
    found = results(text, foonets)
    assert [(r.text, r.metric, r.compared_to) for r in found] == [
        ("10%", None, "FooNet"),
        ("4%", None, "FooNet"),
        ("11.5%", "recall", None),
        ("26.1%", "recall", None),
        ("8.1%", "recall", None),
        ("1.4%", None, "FooNet"),
        ("0.6%", None, None),  # "respectively" pairs the numbers, it does not share
    ]


@pytest.mark.parametrize(
    ("text", "compared"),
    [
        ("It is 2.5× faster than ZipQV on long inputs.", "ZipQV"),
        ("It reaches 91% compared to 40% from vanilla KDXNet.", "KDXNet"),
        ("It outperforms ZipQV by 3.1% on long inputs.", "ZipQV"),
        ("It outperforms ZipQV Large by 3.1% on long inputs.", None),
        ("It is 2.5× faster than ZipQV Large on long inputs.", None),
        ("It is 2.5× faster than LLMs on long inputs.", None),
        ("It is 2.5× faster than Zipper on long inputs.", None),
    ],
)
def test_a_name_no_mention_found_after_a_comparison(text, compared):
    assert results(text)[0].compared_to == compared


@pytest.mark.parametrize(
    ("text", "compared"),
    [
        ("It improves the recall of ZipQV-s by 3.1% on long inputs.", "ZipQV-s"),
        ("It improves the recall of the ZipQV retriever by 3.1%.", None),
    ],
)
def test_a_name_no_mention_found_that_the_measure_is_of(text, compared):
    assert results(text)[0].compared_to == compared


@pytest.mark.parametrize(
    ("text", "compared"),
    [
        ("It reaches 81.2% on long inputs, outperforming a similarly sized FooNet by 2.0%.", "FooNet"),
        ("It clearly outperforms FooNet, achieving 81.2% on long inputs.", "FooNet"),
        ("It outperforms existing FooNet-based retrievers, achieving 81.2% on long inputs.", None),
        ("It reaches 81.2% on long inputs, and FooNet reaches 70.0%.", None),
    ],
)
def test_systems_a_clause_beats_beside_a_score_of_its_own(text, compared):
    assert results(text, [mention(text, "FooNet", "method")])[0].compared_to == compared


def test_a_slashed_pair_of_numbers_is_compared_past_its_second():
    text = "It gains 0.9%/1.2% more than FooNet on both splits."
    assert results(text, [mention(text, "FooNet", "method")])[0].compared_to == "FooNet"


def test_a_verb_of_change_names_the_measure_of_both_ends_from_to():
    text = "It lowers the error rate on hard queries from 20.4% to 11.9%, and raises recall from 61% → 72%."
    assert [(r.text, r.metric) for r in results(text)] == [
        ("20.4% to 11.9%", "error rate"),
        ("61%", "recall"),
        ("72%", "recall"),
    ]


def test_compression_is_a_measure_like_speedup():
    text = "A 7.5× compression keeps the quality of the full cache."
    assert [(r.text, r.metric) for r in results(text)] == [("7.5×", "compression")]


def test_a_beaten_system_own_value_in_parentheses_is_compared_with_it():
    text = "FooNet reaches 40.1% (best), outperforming baselines such as BarNet (15.0%) and BazNet (9.8%)."
    mentions = [mention(text, name, "method") for name in ("FooNet", "BarNet", "BazNet")]
    assert [(r.text, r.compared_to) for r in results(text, mentions)] == [
        ("40.1%", "BarNet"),  # the first of those it outperforms
        ("15.0%", "BarNet"),
        ("9.8%", "BazNet"),
    ]
    text = "FooNet (71.2%) outperforms BarNet."
    assert (
        results(text, [mention(text, "FooNet", "method"), mention(text, "BarNet", "method")])[0].compared_to
        is None
    )


@pytest.mark.parametrize(
    ("text", "compared"),
    [
        ("It costs a 0.05 increase in FID compared to full-precision FooDM-4.", "FooDM-4"),
        ("It is 2× faster than Foo-Bar on long inputs.", "Foo-Bar"),
    ],
)
def test_a_hyphenated_modifier_before_the_compared_system(text, compared):
    name = "FooDM-4" if "FooDM" in text else "Foo-Bar"
    assert results(text, [mention(text, name, "method")])[0].compared_to == compared


@pytest.mark.parametrize(
    ("text", "metrics"),
    [
        ("It reaches an accuracy of 81.2%, outperforming FooNet by 4.5%.", ["accuracy", "accuracy"]),
        ("It reaches 81.2% accuracy on Quokka, which is 4.5% higher than FooNet.", ["accuracy", "accuracy"]),
        ("It gives a 3× speedup, outperforming FooNet by 5%.", ["speedup", None]),
        ("It reaches an accuracy of 81.2%. It outperforms FooNet by 4.5%.", ["accuracy", None]),
        ("It reaches 81.2% accuracy with FooNet, which is 4.5% of the total.", ["accuracy", None]),
    ],
)
def test_a_change_right_after_a_value_beating_another_system_carries_its_measure(text, metrics):
    mentions = [mention(text, "FooNet", "method")]
    assert [r.metric for r in results(text, mentions)] == metrics


def test_changes_listed_after_values_pair_with_them_rather_than_carry_the_last_measure():
    text = "It reaches 88.3% zero-shot and 91.1% tuned accuracy, beating FooNet by 2% and 0.1%, respectively."
    found = results(text, [mention(text, "FooNet", "method")])
    assert found[2].metric != "tuned accuracy"


def test_numbers_compared_after_the_last_pair_with_as_many_systems():
    text = "It reaches 80.1% accuracy, 1.2% and 0.9% higher than FooNet-S and BarNet-T, respectively."
    mentions = [mention(text, "FooNet-S", "model"), mention(text, "BarNet-T", "model")]
    assert [(r.text, r.compared_to) for r in results(text, mentions)] == [
        ("80.1%", None),
        ("1.2%", "FooNet-S"),
        ("0.9%", "BarNet-T"),
    ]


def test_a_number_in_parallel_past_the_first_ones_measure_shares_it():
    text = (
        "It achieves 63.3% accuracy on AlphaSet24 and 95.6% on BetaSet500. "
        "It gives +2.8% Zorbness and +3.7% SPL on AlphaSet24, +2.6% Zorbness on BetaSet500."
    )
    mentions = [mention(text, "accuracy", "metric"), mention(text, "SPL", "metric")]
    found = {r.text: r.metric for r in results(text, mentions)}
    assert found["95.6%"] == "accuracy"
    assert found["+2.6%"] is None  # measured in something of its own, not SPL


def test_a_change_named_by_a_noun_or_with_a_reference_gives_its_measure():
    text = (
        "It gives a reduction in the FPR from 24.8% to 2.0% on AlphaSet. "
        "It increases the Spearman correlation with the Zorb Arena from 0.94 to 0.98."
    )
    mentions = [mention(text, "FPR", "metric"), mention(text, "Spearman correlation", "metric")]
    assert [(r.text, r.metric) for r in results(text, mentions)] == [
        ("24.8% to 2.0%", "FPR"),
        ("0.94 to 0.98", "Spearman correlation"),
    ]


def test_a_value_compared_with_a_measured_one_carries_its_measure():
    text = "It achieves 91.5% test accuracy compared to 23.8% from vanilla FooNet."
    found = results(text, [mention(text, "test accuracy", "metric")])
    assert [(r.text, r.metric) for r in found] == [("91.5%", "test accuracy"), ("23.8%", "test accuracy")]


@pytest.mark.parametrize(
    "text",
    [
        "Notably on AlphaSet, it reaches 82.5% top-1 accuracy.",
        "For object detection on AlphaSet, it improves the mAP of FooNet by 2.0%.",
        "Experiments on AlphaSet show that it is 16× smaller.",
    ],
)
def test_a_dataset_opening_the_sentence_after_a_word_or_a_task_is_the_numbers(text):
    found = results(text, [mention(text, "AlphaSet", "dataset")])
    assert [r.dataset for r in found] == ["AlphaSet"]
