"""The cued-measure rule: lower-case metric phrases after a comparison, an evaluation or a value."""

import pytest

from pipeline.lib.extract.extract import extract_entities


def metrics(text: str) -> set[str]:
    return {m.text for m in extract_entities(text).mentions if m.entity_type == "metric"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The method improves worst-group accuracy.", {"worst-group accuracy"}),
        ("It reaches higher accuracy and lower serving latency.", {"accuracy", "serving latency"}),
        (
            "We compare them in terms of calibration, runtime and memory footprint.",
            {"calibration", "runtime", "memory footprint"},
        ),
        ("It gives a 3× speedup on long inputs.", {"speedup"}),
        ("The kernel brings 2.5× speedups on long inputs.", {"speedups"}),
        ("It significantly reduces training time.", {"training time"}),
        ("It boosts FooLM's reasoning accuracy.", {"reasoning accuracy"}),
        ("We find a 40% reduction in memory footprint.", {"memory footprint"}),
        ("It offers a trade-off between accuracy and throughput.", {"accuracy", "throughput"}),
        ("It serves 4× more request rates than before.", {"request rates"}),
        ("It is better in terms of both mesh topology and runtime.", {"runtime"}),
        ("It cuts training and inference costs by 30%.", {"training and inference costs"}),
        ("It reduces the number of parameters by 80%.", {"number of parameters"}),
        ("The compression reduces model size by 75%.", {"model size"}),
        ("It reduces closed-domain hallucination effectively by 58.3%.", {"closed-domain hallucination"}),
        ("It can reduce the training time of FooNets by 8%.", {"training time"}),
        ("It brings 20× energy savings and a 38% BitOPs reduction.", {"energy savings", "BitOPs"}),
        ("It achieves excellent accuracy and a substantial speedup.", {"accuracy", "speedup"}),
        ("It reaches a good balance between accuracy and latency.", {"accuracy", "latency"}),
    ],
)
def test_cued_measures(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "It reduces the cost of labelling.",  # a weak head alone
        "It needs a smaller learning rate than Adam.",  # a hyperparameter, not a measure
        "It lowers time to convergence.",  # 'time' alone
        "The approach achieves state-of-the-art results.",  # no measure head
        "Training time grows with depth.",  # no cue
        "It needs fewer labels and more data.",  # no measure head
        "We see an increase in the number of layers.",  # a count, not a measure
    ],
)
def test_not_measures(text):
    assert metrics(text) == set()


def test_a_measure_extends_a_known_metric_it_holds():
    assert metrics("It improves top-1 accuracy on average.") == {"top-1 accuracy"}


def test_a_score_named_after_a_known_metric_is_that_metric():
    assert metrics("It reaches a zero-shot FID score of 6.21.") == {"zero-shot FID"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The defence keeps clean accuracy under attack.", {"clean accuracy"}),
        ("We study the node classification accuracy of deep models.", {"node classification accuracy"}),
        ("It trades fairness against image classification accuracy.", {"image classification accuracy"}),
        ("The model keeps high prediction accuracy.", {"prediction accuracy"}),
        (
            "The excess risk decreases less fast than the adversarial risk.",
            {"excess risk", "adversarial risk"},
        ),
        ("We bound the expected regret of the algorithm.", {"expected regret"}),
        ("It maintains a constant training speed for long sequences.", {"training speed"}),
        ("It trains on large graphs with a constant memory footprint.", {"memory footprint"}),
        ("The energy consumption of a CNN is predicted per layer.", {"energy consumption"}),
        ("Standard empirical risk minimization overfits.", set()),  # a method
    ],
)
def test_a_measure_named_by_its_modifier_needs_no_cue(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "We adapt the model at test time.",  # a weak head
        "We estimate a sparse precision matrix.",  # no setting, task or cue before the head
    ],
)
def test_a_head_without_a_naming_modifier_is_left_to_the_cues(text):
    assert metrics(text) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Pretraining the tagger takes 120 GPU hours.", {"GPU hours"}),
        ("The search costs 3 GPU-days instead of 40.", {"GPU days"}),
        ("It needs 30% less GPU memory at inference.", {"GPU memory"}),
    ],
)
def test_a_compute_budget_is_a_measure(text, expected):
    found = metrics(text)
    assert {name.replace("-", " ") for name in found} == expected, found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The planner improves route robustness by 4 points.", {"route robustness"}),
        ("Caching reduces decoding stalls by up to 30%.", {"decoding stalls"}),
        ("It boosts answer diversity by an average of 12%.", {"answer diversity"}),
        # Not measures: a generic word, a baseline, a task.
        ("It improves performance by 5% over the baseline.", set()),
        ("It improves over baselines by 3 points.", set()),
        ("It improves image retrieval by 2.9%.", set()),
    ],
)
def test_what_a_cue_verb_changes_by_a_value_is_a_measure(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The student needs 3× fewer parameters than its teacher.", {"parameters"}),
        ("It reads 10x more tokens, yet trains faster.", {"tokens"}),
        ("Clients send 40x less communication per round.", {"communication"}),
        ("It takes 5 times fewer gradient steps.", {"gradient steps"}),
        # Not measures: no factor, data, a percentage of solved items.
        ("It needs fewer labels and more compute.", set()),
        ("It uses 3x less data.", set()),
        ("It solves 12% more puzzles.", set()),
    ],
)
def test_a_count_compared_by_a_factor_is_a_measure(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It gives up to a 3$\\times$ speedup over solvers.", {"speedup"}),
        ("It needs 5$\\times$ fewer parameters.", {"parameters"}),
        ("It reaches 12\\% lower serving latency.", {"serving latency"}),
    ],
)
def test_a_value_written_in_tex_cues_a_measure(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It keeps fidelity (as assessed by QXRA) and diversity.", {"QXRA"}),
        ("Drift is quantified by ZEDI, which we define below.", {"ZEDI"}),
        ("Answers are good, as evaluated by GPT-4o.", set()),  # a model judges
        ("Outputs were evaluated by HumEval.", set()),  # 'evaluated by' alone names no measure
    ],
)
def test_an_acronym_something_is_measured_by_is_a_metric(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The gain shows in the total computation time.", {"computation time"}),
        ("Its training times stay short on one device.", {"training times"}),
        ("Wall-clock time aside, the execution time is what we report.", {"execution time"}),
        # When something happens, and a complexity bound, are no measures.
        ("It adapts at inference time.", set()),
        ("At training and inference time the cache is shared.", set()),
        ("The algorithm has a running time of O(n log n).", set()),
    ],
)
def test_a_compute_time_is_a_measure_wherever_it_is_written(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Its masks show better transferability than before.", {"transferability"}),
        ("The sampler yields greater diversity, and higher stability.", {"diversity", "stability"}),
        # Properties of a method, and a quality noun that modifies another word.
        ("The design offers better scalability and lower complexity.", set()),
        ("It samples higher density regions.", set()),
    ],
)
def test_a_quality_noun_after_a_comparative_is_a_measure(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Wider layers yield large gains in sample efficiency here.", {"sample efficiency"}),
        ("It improves sample-efficiency on every maze.", {"sample-efficiency"}),
        ("It has 20% higher sample efficiency.", {"sample efficiency"}),
        ("Control from pixels demands sample efficiency.", set()),  # no value, comparison or change
    ],
)
def test_sample_efficiency_is_a_measure_where_it_is_compared(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We evaluate the coverage of the generated tests.", {"coverage"}),
        ("We then quantify serving latency per request.", {"serving latency"}),
        ("We evaluate the planner on mazes.", set()),  # no measure head
    ],
)
def test_what_is_evaluated_is_a_measure(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It lowers calibration error across tasks.", {"calibration error"}),
        ("It cuts memory footprint by half.", {"memory footprint"}),
        ("It needs less memory space than before.", {"memory space"}),
        ("It improves memory efficiency of training.", {"memory efficiency"}),
        ("It lowers memory requirements.", {"memory requirements"}),
    ],
)
def test_a_second_head_ends_the_phrase_before_a_preposition(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We prove a lower bound on the decoding error rate.", {"decoding error rate"}),
        ("We give bounds on the tracking regret of the learner.", {"tracking regret"}),
        ("We bound the number of queries.", set()),
        ("We give a bound on the error.", set()),  # a weak head alone
    ],
)
def test_what_a_bound_is_on_is_a_measure(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We measure the constraint satisfaction rate of each planner.", {"constraint satisfaction rate"}),
        ("A probe that measures decoding latency is added.", {"decoding latency"}),
        ("A risk measure that measures tail loss.", set()),  # no head after the verb
    ],
)
def test_what_we_measure_is_a_measure(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We give the first $O(\\log T)$-regret learner for routing.", {"regret"}),
        ("It is an O(sqrt(T))-regret method.", {"regret"}),
        ("We train a top-accuracy model.", set()),  # a hyphen after a word still joins it
    ],
)
def test_a_metric_joined_to_a_bound_is_a_metric(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It wins by 12% in episodic reward.", {"episodic reward"}),
        ("It gains 4% in top-1 accuracy.", {"top-1 accuracy"}),
        ("It gains 4% in the worst-case return on hard tasks.", {"worst-case return"}),
        ("It gains 4% in some settings.", set()),  # where, not what is measured
        ("It gains 4% in terms of speed.", set()),  # left to the 'in terms of' cue
        ("The reward functions can return 4% in rare cases.", set()),
    ],
)
def test_what_a_value_is_gained_in_is_a_measure(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It needs only 26% FLOPs on the test set.", {"FLOPs"}),
        ("It reduces 47% GFLOPs of the backbone.", {"GFLOPs"}),
        ("It saves over 55% MACs.", {"MACs"}),
        ("It uses 26% FLOPs Budget tokens.", set()),  # a name goes on
    ],
)
def test_a_count_of_operations_after_a_value_is_a_measure(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It significantly surpasses existing models in speed, achieving fast detection.", {"speed"}),
        ("It outperforms earlier algorithms both in time and error.", {"time", "error"}),
        ("Ours outperforms FooNet in training speed.", {"training speed"}),
        ("Ours outperforms FooNet even in half precision.", set()),  # a number format
        ("Ours outperforms them in a deep metric learning setting.", set()),  # a setting
        ("Ours outperforms them in most cases.", set()),
    ],
)
def test_what_a_system_is_beaten_in_is_a_measure(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Through simulations, we demonstrate the accuracy, robustness, and scalability of our method.",
            {"accuracy", "robustness"},
        ),
        ("Experiments confirm the effectiveness and efficiency of our proposal.", {"efficiency"}),
        (
            "We demonstrate the accurate calibration and high sampling efficiency of FooNet on tasks.",
            {"calibration", "sampling efficiency"},
        ),
        ("It compares predictors using a metric known as sampling efficiency.", {"sampling efficiency"}),
        ("We also examine the numerical stability of two refinement strategies.", {"numerical stability"}),
        ("We examine the role of depth in these models.", set()),
        ("We demonstrate the usefulness and validity of our method.", set()),
        ("We demonstrate the usage of FooNet in practice.", set()),
        ("We show the following generalization of the above properties.", set()),
        ("We release the code and data of the benchmark.", set()),
    ],
)
def test_what_an_evaluation_shows_of_a_system_is_a_measure(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It draws samples 18,000 times faster, all without sacrificing accuracy.", {"accuracy"}),
        ("It enforces constraints without compromising predictive accuracy.", {"predictive accuracy"}),
        ("Defended directions need not come without penalising accuracy.", {"accuracy"}),
        ("It is faster while sacrificing little accuracy.", {"accuracy"}),
        ("It is faster without sacrificing too much accuracy.", {"accuracy"}),
        ("It is faster without sacrificing performance.", set()),  # no measure head
    ],
)
def test_what_is_not_given_up_is_a_measure(text, expected):
    assert metrics(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It reaches the best results in terms of robustness to audio edits.", {"robustness"}),
        (
            "It is compared in terms of faithfulness, diversity, and robustness.",
            {"faithfulness", "diversity", "robustness"},
        ),
        ("It shows better robustness to noise.", {"robustness"}),
        ("The bounds are stated in terms of the mixability of the loss.", set()),  # a bound's terms
        ("It is compared in terms of scalability.", set()),  # a property of a method
    ],
)
def test_a_quality_in_an_evaluation_list_is_a_measure(text, expected):
    assert metrics(text) == expected


def test_a_hyperparameter_spelled_out_for_its_acronym_is_no_entity():
    found = extract_entities("It overfits after learning rate (LR) decay. We study LR schedules.").mentions
    assert [m.text for m in found if m.text in ("LR", "learning rate")] == []
