from pipeline.lib.extract.abbreviations import find_abbreviations


def pairs(text):
    return [(a.short, a.long) for a in find_abbreviations(text)]


def test_long_form_then_short_form():
    assert pairs("We rely on stochastic gradient descent (SGD) throughout.") == [
        ("SGD", "stochastic gradient descent")
    ]


def test_mixed_case_short_forms_match_inside_words():
    text = "Low-Rank Adaptation (LoRA) and the Conditional Value-at-Risk (CVaR) objective."
    assert pairs(text) == [("LoRA", "Low-Rank Adaptation"), ("CVaR", "Conditional Value-at-Risk")]


def test_plural_short_form_keeps_its_plural_long_form():
    assert pairs("Recent large vision-language models (LVLMs) are strong.") == [
        ("LVLMs", "large vision-language models")
    ]


def test_initials_beat_the_shortest_character_match():
    # A character-level match alone would stop at "Concave Loss".
    assert pairs("we propose Convex Concave Loss (CCL), which") == [("CCL", "Convex Concave Loss")]


def test_long_form_once_written_with_markup_reads_as_plain_text():
    # abstract_clean has '**P**reference ...' already reduced to plain words.
    assert pairs("a framework, Preference Learning Using Summarization (PLUS), that") == [
        ("PLUS", "Preference Learning Using Summarization")
    ]


def test_short_form_spelled_by_the_capitals_of_a_coined_word():
    assert pairs("our model, which we call reTuRN-Net (TRNN), is") == [("TRNN", "reTuRN-Net")]


def test_size_tag_of_a_short_form_need_not_be_spelled():
    assert pairs("we release the Street Scene Corpus (SSC-12K) for") == [("SSC-12K", "Street Scene Corpus")]


def test_a_name_and_its_plain_number_is_no_short_form():
    assert pairs("Results obtained using neural networks (ResNet-56) show it.") == []
    assert pairs("It was introduced by Ahmadi et al. (ICML 2022) for clustering.") == []
    assert pairs("We build a Generative Pre-trained Transformer 2 (GPT-2) model.") == [
        ("GPT-2", "Generative Pre-trained Transformer 2")
    ]


def test_a_long_form_does_not_start_inside_a_closed_parenthesis():
    assert pairs("off-policy evaluation (OPE) and learning (OPL) in large action spaces") == [
        ("OPE", "off-policy evaluation")
    ]
    assert pairs("a strong (epsilon, delta)-Differential Privacy (DP) guarantee") == [
        ("DP", "Differential Privacy")
    ]
    assert pairs("global average (first-order) pooling (GAP) is used") == [
        ("GAP", "global average (first-order) pooling")
    ]


def test_lower_case_letters_opening_a_short_form():
    assert pairs("the predictive normalized maximum likelihood (pNML) distribution") == [
        ("pNML", "predictive normalized maximum likelihood")
    ]


def test_short_form_then_long_form():
    assert pairs("We evaluate with SNR (signal-to-noise ratio) on all scans.") == [
        ("SNR", "signal-to-noise ratio")
    ]


def test_apposition_with_exact_initials():
    assert pairs("We introduce TGR, a Temporal Graph Router for traffic data.") == [
        ("TGR", "Temporal Graph Router")
    ]


def test_apposition_without_matching_initials_is_not_a_definition():
    assert pairs("We introduce K3Q, a Look-ahead Queue Framework for bidding.") == []
    assert pairs("We propose XYZ, a simple method that works.") == []


def test_offsets_cover_the_whole_definition():
    text = "Results use gradient descent (GD) only."
    (a,) = find_abbreviations(text)
    assert text[a.start : a.end] == "gradient descent (GD)"
    assert text[a.short_start : a.short_end] == "GD"
    assert text[a.long_start : a.long_end] == "gradient descent"


def test_parentheses_that_are_not_definitions():
    assert pairs("as shown before (Smith et al., 2021) and in (i) the first case (e.g., images).") == []
    assert pairs("a number of steps (see below) and costs (in seconds).") == []


def test_a_long_form_must_not_start_with_a_function_word():
    assert pairs("this is the case (TC) for us") == []


def test_each_short_form_is_defined_once():
    text = "knowledge graph (KG) methods; later the KG (knowledge graph) again."
    assert pairs(text) == [("KG", "knowledge graph")]


def test_a_word_spelled_in_the_short_form_may_end_a_word_of_the_long_form():
    assert pairs("A multi-view querying Transformer (MVQ-Former) aggregates views.") == [
        ("MVQ-Former", "multi-view querying Transformer")
    ]


def test_a_word_spelled_in_the_short_form_must_still_be_in_the_long_form():
    assert pairs("We run art attacks (AutoAttack) here.") == []


def test_a_two_word_short_form_keeps_its_first_word():
    assert pairs("It adds contrastive Imitation Learning (contrastive IL) modules.") == [
        ("contrastive IL", "contrastive Imitation Learning")
    ]


def test_a_two_word_remark_in_parentheses_is_no_short_form():
    assert pairs("as the results show (see Figure Three) for the tasks") == []


def test_a_long_form_after_its_short_form_may_be_long():
    long = "Linking mOdalities with a tRansitive and commutativE pre-Training sTrAtegy"
    assert pairs(f"We introduce LoReTTa ({long}) here.") == [("LoReTTa", long)]


def test_a_digit_between_capitals_may_stand_for_a_word():
    assert pairs("Recent text-to-image (T2I) models and peer-to-peer (P2P) links.") == [
        ("T2I", "text-to-image"),
        ("P2P", "peer-to-peer"),
    ]


def test_a_digit_after_a_capital_may_count_it():
    text = "Asynchronous Advantage Actor-Critic (A3C) and Recurrent Replay Distributed DQN (R2D2)."
    assert pairs(text) == [
        ("A3C", "Asynchronous Advantage Actor-Critic"),
        ("R2D2", "Recurrent Replay Distributed DQN"),
    ]


def test_title_case_words_listed_with_commas_spell_a_short_form():
    text = "This leads to “Critical-Layer, Core-Expert, Collaborative Pathway Optimization (C3PO)”."
    assert pairs(text) == [("C3PO", "Critical-Layer, Core-Expert, Collaborative Pathway Optimization")]


def test_lower_case_words_listed_with_commas_are_no_long_form():
    assert pairs("We test on text, images, and audio (TIA) at once.") == []


def test_a_numeral_shaped_short_form_needs_one_word_a_letter():
    assert pairs("DAIS is a form of variational inference (VI) in that it fits a distribution.") == [
        ("VI", "variational inference")
    ]
    assert pairs("The proof is in Section (IV) and the main lemma (II).") == []


def test_short_form_then_or_and_its_long_form():
    text = "We propose CDTD, or Causal Domain-Invariant Temporal Dynamics for knowledge transfer."
    assert pairs(text) == [("CDTD", "Causal Domain-Invariant Temporal Dynamics")]
    assert pairs("We evaluate on MMLU, or other reasoning tasks.") == []


def test_a_leading_digit_stands_for_the_number_word_opening_the_long_form():
    assert pairs("We introduce Four Tarns (4T), a method.") == [("4T", "Four Tarns")]
    assert pairs("a new approach, Two-Stage Tarn Inclusion (2STI), which") == [
        ("2STI", "Two-Stage Tarn Inclusion")
    ]


def test_a_leading_digit_needs_its_number_word():
    assert pairs("We use a Temporal Tarn (3T) model and the plane (2D) case.") == []


def test_a_spelled_word_may_end_a_plural_word_of_the_long_form():
    assert pairs("We frame it as Simplified Tarn Transformers (STFormer), which") == [
        ("STFormer", "Simplified Tarn Transformers")
    ]
