"""The measure rules of the registry (rules.py runs them in this order, after the head and example
cues of the context stage): each rule's name, stage, the vocabulary it keys on, worked examples
and the function that applies it."""

from __future__ import annotations

from pipeline.lib.extract import beaten, context, evaluated, measures
from pipeline.lib.extract.rule import Rule
from pipeline.lib.extract.rule import make_rule as _rule

MEASURE_RULES: tuple[Rule, ...] = (
    _rule(
        "precision_recall",
        "context",
        ("precision", "recall"),
        context.add_precision_recall,
        (
            "We trade off Precision and Recall of the detector.",
            [("precision", "metric"), ("recall", "metric")],
        ),
    ),
    _rule(
        "measured_value",
        "context",
        ("METRIC_HEADS", "METRIC_FILLERS", "VALUED_MEASURE_HEADS"),
        context.add_measured_values,
        ("The model reaches a token overlap score of 0.71.", [("token overlap score", "metric")]),
        (
            "It reaches a zero-shot FID score of 6.21.",
            [("zero-shot FID", "metric")],
            ("zero-shot FID score",),
        ),
        ("It gives a computational speedup of 45x.", [("computational speedup", "metric")]),
    ),
    _rule(
        "gain_measure",
        "context",
        ("METRIC_HEADS",),
        context.add_gain_measures,
        (
            "It gives a gain of 4.2% in exact span overlap match score.",
            [("exact span overlap match score", "metric")],
        ),
    ),
    _rule(
        "measured_in",
        "context",
        ("METRIC_HEADS",),
        context.add_measured_in,
        ("Quality is measured by plan success rate.", [("plan success rate", "metric")]),
        ("It keeps fidelity (as assessed by QXRA) intact.", [("QXRA", "metric")]),
        ("Fidelity is quantified using ZVQS.", [("ZVQS", "metric")]),
    ),
    _rule(
        "cued_measure",
        "context",
        (
            *("MEASURE_CUES", "MEASURE_PHRASES", "CHANGE_IN_PHRASES", "MEASURE_HEADS", "WEAK_MEASURE_HEADS"),
            *("METRIC_HEADS", "SECOND_MEASURE_HEADS"),
        ),
        measures.add_cued_measures,
        (
            "It improves worst-case accuracy and lowers serving latency.",
            [("worst-case accuracy", "metric"), ("serving latency", "metric")],
        ),
        (
            "It is compared in terms of calibration, runtime and memory footprint.",
            [("calibration", "metric"), ("memory footprint", "metric")],
        ),
        ("It reduces the cost of labels.", [], ("cost",)),
        (
            "It trains with larger learning rates and a lower mask ratio.",
            [],
            ("learning rates", "mask ratio"),
        ),
        ("It lowers the communication costs of training.", [("communication costs", "metric")]),
        (
            "It gives reduced runtimes and higher test accuracies.",
            [("runtimes", "metric"), ("test accuracies", "metric")],
        ),
        ("We see a trade-off between recall and serving latency.", [("serving latency", "metric")]),
        (
            "It achieves a better balance between accuracy and latency over time.",
            [("accuracy", "metric"), ("latency", "metric")],
            ("balance between accuracy", "over time"),
        ),
        ("It wins in terms of mesh topology and serving latency.", [("serving latency", "metric")]),
        (
            "It wins in terms of robustness and diversity.",
            [("robustness", "metric"), ("diversity", "metric")],
        ),
        ("Caching reduces decoding stalls by 30%.", [("decoding stalls", "metric")]),
        ("It improves hit quality from 0.61 to 0.72.", [("hit quality", "metric")]),
        ("It cuts training and inference costs by 30%.", [("training and inference costs", "metric")]),
        ("It reduces the number of parameters by 80%.", [("number of parameters", "metric")]),
        ("It reduces model size by 75%.", [("model size", "metric")]),
        ("It reduces the decoding stalls of FooNet by 8%.", [("decoding stalls", "metric")]),
        ("It reduces the cost of failures by 78%.", [], ("cost",)),
        ("It increases the depth from 2 to 8.", [], ("depth",)),
        ("The student needs 3× fewer parameters.", [("parameters", "metric")]),
        ("Its masks show better transferability than before.", [("transferability", "metric")]),
        ("It shows better reasoning ability than before.", [("reasoning ability", "metric")]),
        ("It shows better generalization than before.", [("generalization", "metric")]),
        ("It gives better ability and lower complexity.", [], ("ability", "complexity")),
        ("It gives higher quality and better sample quality.", [("sample quality", "metric")], ("quality",)),
        ("It achieves bounded regret and optimal cost.", [("regret", "metric")], ("bounded regret", "cost")),
        ("It achieves the highest recall and small regret.", [("recall", "metric"), ("regret", "metric")]),
        (
            "It achieves a substantial speedup and favorable regret.",
            [("speedup", "metric"), ("regret", "metric")],
            ("substantial speedup", "favorable regret"),
        ),
        ("We achieve zero test error, retaining recall.", [("test error", "metric"), ("recall", "metric")]),
        ("We prove a lower bound on the decoding error rate.", [("decoding error rate", "metric")]),
        ("It is faster without sacrificing throughput.", [("throughput", "metric")]),
        (
            "It needs less memory space and improves memory efficiency.",
            [("memory space", "metric"), ("memory efficiency", "metric")],
            ("memory",),
        ),
    ),
    _rule(
        "modified_measure",
        "context",
        (
            *("MODIFIED_MEASURE_HEADS", "MEASURE_SETTINGS", "TASK_HEADS", "PREPOSITIONS"),
            *("COMPLEXITY_HEADS", "COUNTED_COMPLEXITY_MODIFIERS", "RESOURCE_HEADS", "RESOURCE_MODIFIERS"),
        ),
        measures.add_modified_measures,
        (
            "The defence keeps clean accuracy and node classification accuracy.",
            [("clean accuracy", "metric"), ("node classification accuracy", "metric")],
        ),
        (
            "It trades fairness against image classification accuracy.",
            [("image classification accuracy", "metric")],
            ("against image classification accuracy",),
        ),
        ("The gain shows in the total computation time.", [("computation time", "metric")]),
        ("It holds at all training times.", [], ("training times",)),
        ("Training runs with a constant memory footprint.", [("memory footprint", "metric")]),
        (
            "The expected risk falls slower than the test risk minimizer's.",
            [("expected risk", "metric")],
            ("test risk",),
        ),
        (
            "We bound the sample complexity, not the model complexity.",
            [("sample complexity", "metric")],
            ("model complexity",),
        ),
    ),
    _rule(
        "valued_measure",
        "context",
        ("METRIC_FILLERS", "GAINED_IN_HEADS"),
        measures.add_valued_measures,
        ("It needs 13.5% higher model accuracy than before.", [("model accuracy", "metric")]),
        (
            "It gives 38% BitOPs reduction and a 50% reduction in FLOPs.",
            [("BitOPs", "metric"), ("FLOPs", "metric")],
        ),
        ("It shows 87.2× lower computation energy than attention.", [("computation energy", "metric")]),
        ("It gives a 10% relative improvement on the task.", [], ("relative",)),
        (
            "It wins by 12% in episodic reward and 3% in top-1 accuracy on 5 tasks.",
            [("episodic reward", "metric"), ("top-1 accuracy", "metric")],
        ),
        ("It wins by 3% in 5 tasks and 2% in some settings.", [], ("settings",)),
        ("It needs only 26% FLOPs and saves 55% MACs.", [("FLOPs", "metric"), ("MACs", "metric")]),
        ("It brings 20× energy savings over dense models.", [("energy savings", "metric")], ("energy",)),
        ("It saves up to 80% compute budget yet keeps quality.", [("compute budget", "metric")]),
        (
            "It gives a drop of 22% in logit kurtosis and 26% in the peak norm of outputs.",
            [("logit kurtosis", "metric"), ("peak norm", "metric")],
        ),
        ("It gives improvements of up to 11% in key metrics.", [], ("key metrics",)),
        (
            "It gives a 9% improvement on averaged recall and 61% improvement on property search.",
            [("averaged recall", "metric")],
            ("property search",),
        ),
    ),
    _rule(
        "beaten_in_measure",
        "context",
        (
            *("BEATING_VERBS", "COMPARING_ADJECTIVES", "METRIC_HEADS", "MEASURE_HEADS"),
            *("SETTING_NOUNS", "NUMBER_FORMATS"),
        ),
        beaten.add_beaten_in_measures,
        ("It surpasses existing models in speed.", [("speed", "metric")]),
        (
            "It outperforms both baselines in accuracy and decoding latency.",
            [("accuracy", "metric"), ("decoding latency", "metric")],
        ),
        ("It outperforms them in most settings.", [], ("settings",)),
        ("It outperforms FooNet even in half precision.", [], ("half precision",)),
        ("It is superior in numerical accuracy, and in practice.", [("numerical accuracy", "metric")]),
        ("It is comparable to work that runs in polynomial time.", [], ("polynomial time",)),
    ),
    _rule(
        "evaluated_measure",
        "context",
        ("SHOWING_VERBS", "SHOWN_QUALITIES", "METRIC_HEADS", "MEASURE_HEADS", "UNMEASURED_QUALITIES"),
        evaluated.add_evaluated_measures,
        (
            "We demonstrate the accuracy, robustness, and scalability of our method.",
            [("accuracy", "metric"), ("robustness", "metric")],
            ("scalability",),
        ),
        ("We show the high sampling efficiency of ZorbNet.", [("sampling efficiency", "metric")]),
        ("We compare them with a metric known as cover rate.", [("cover rate", "metric")]),
        ("We show the code and data of the method.", [], ("code", "data")),
        ("We show the usefulness of the method.", [], ("usefulness",)),
    ),
)
