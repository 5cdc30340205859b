"""Rules added for held-out abstracts: gains stated in a metric, percentage rates, lists typed by
their context, letter versions, trained and claimed names, and the filters that keep them precise."""

from pipeline.lib.extract.abbreviations import find_abbreviations
from pipeline.lib.extract.extract import extract_entities


def found(text):
    """{name: (entity_type, role)} of the mentions in text."""
    return {m.name: (m.entity_type, m.role) for m in extract_entities(text).mentions}


def test_a_rate_given_as_a_percentage_is_a_metric():
    assert (
        found("The planner reaches a recovery rate of 61.5% on held-out scenes.")["recovery rate"][0]
        == "metric"
    )


def test_a_rate_given_as_an_order_is_not_a_metric():
    assert "learning rate" not in found("We prove a learning rate of O(1/T) suffices for the bound.")


def test_a_percentage_gain_in_a_measure_names_the_metric():
    names = found(
        "Our filter gives gains of 4.1% and 6.3% in next token prediction accuracy over the base model."
    )
    assert names["next token prediction accuracy"][0] == "metric"


def test_a_percentage_gain_in_a_plain_phrase_is_not_a_metric():
    names = found("The method is 12% faster in wall-clock time on modern hardware.")
    assert not any(t == "metric" for t, _ in names.values())


def test_a_parenthesised_list_after_datasets_holds_datasets():
    names = found("We evaluate on three driving datasets (QXZ40K, Cityscapes, and LMN9M) with few labels.")
    assert names["QXZ40K"][0] == "dataset"
    assert names["LMN9M"][0] == "dataset"


def test_a_parenthesised_remark_after_other_nouns_is_not_typed_as_datasets():
    names = found("The agents (QXZ40K and LMN9M) share one critic.")
    assert names["QXZ40K"][0] == "method"


def test_an_evaluation_list_with_a_known_dataset_types_its_siblings():
    names = found("Empirical results on Atari and Zorbland show that the agent learns faster.")
    assert names["Zorbland"][0] == "dataset"


def test_an_evaluation_list_without_a_known_dataset_adds_nothing():
    assert "Zorbland" not in found("Empirical results on Zorbland and Quixote show that the agent learns.")


def test_a_letter_version_after_a_model_family_is_kept():
    assert "DeepSeek V3" in found("A cheap proxy model (DeepSeek V3) generates the triggers.")


def test_a_decimal_version_after_a_dataset_is_a_dataset():
    names = found("We reach the best score on the CATH 4.2 benchmark among inverse folding methods.")
    assert names["CATH 4.2"][0] == "dataset"


def test_a_name_the_authors_train_as_a_model_is_a_proposed_model():
    names = found("We train a GradeBot model to score essays, and use it to filter the corpus.")
    assert names["GradeBot"] == ("model", "proposed")


def test_training_a_known_model_does_not_propose_it():
    assert found("We train a BERT model on the corpus.")["BERT"][1] == "referenced"


def test_a_new_name_claimed_in_the_authors_voice_is_proposed_when_nothing_else_is():
    names = found(
        "We improve on earlier estimators. Using many datasets, we show how QUAX-FL achieves better accuracy."
    )
    assert names["QUAX-FL"][1] == "proposed"


def test_a_claim_in_someone_elses_voice_does_not_propose():
    names = found("Earlier estimators are slow. Prior studies report that QUAX-FL achieves better accuracy.")
    assert names["QUAX-FL"][1] == "referenced"


def test_provide_opens_a_proposal_clause():
    names = found(
        "We provide a complete methodology, Tidal Echo Sampling via Lattice Walks (TESLA), to obtain samples."
    )
    assert names["TESLA"][1] == "proposed"


def test_degrees_of_freedom_are_not_names():
    assert "4-DoF" not in found("The robot predicts 4-DoF grasp poses from images.")


def test_a_lower_case_word_joined_to_a_capitalised_word_is_not_a_name():
    assert "norm-Disentangled" not in found("It uses norm-Disentangled heads for each token.")


def test_a_short_form_spelling_words_absent_from_the_long_form_is_not_an_abbreviation():
    assert find_abbreviations("We run strong state of the art attacks (AutoAttack, PGD).") == []


def test_a_short_form_spelling_words_of_the_long_form_is_an_abbreviation():
    pairs = {(a.short, a.long) for a in find_abbreviations("We build Flexible Protein Design (FlexProtein).")}
    assert ("FlexProtein", "Flexible Protein Design") in pairs


def test_title_case_words_ending_in_a_method_head_are_a_method():
    names = found("The parser extends an Augmented Transition Network with a stack of frames.")
    assert names["Augmented Transition Network"] == ("method", "referenced")


def test_title_case_words_ending_in_another_noun_are_not_a_method():
    assert "Northern Lights Festival" not in found(
        "Data were collected at the Northern Lights Festival in May."
    )


def test_a_title_case_method_inside_a_longer_name_is_left_alone():
    names = found(
        "We propose QZ-7, Frame Tracking based Normalized Stochastic Gradient Descent with momentum."
    )
    assert "Normalized Stochastic Gradient Descent" not in names


def test_a_known_name_called_so_in_a_proposal_is_proposed():
    assert (
        found("We propose a novel alignment paradigm called RRHF for chat models.")["RRHF"][1] == "proposed"
    )


def test_a_known_name_called_so_elsewhere_stays_referenced():
    names = found(
        "Adam corresponds to an online learning framework called Follow-the-Regularized-Leader (FTRL)."
    )
    assert names["FTRL"][1] == "referenced"


def test_an_abbreviation_followed_by_benchmark_is_a_dataset():
    names = found("Our Spatial Riddle Collection (SRC) benchmark tests how well models reason about maps.")
    assert names["SRC"][0] == "dataset"


def test_a_multiplication_sign_inside_a_model_name_is_kept():
    assert "Mixtral-8×7B" in found("We train adapters on Mixtral-8×7B and smaller models.")


def test_a_benchmark_shaped_word_is_not_taken_for_spelled_initials():
    assert found("On QBench and other suites, the agent improves.")["QBench"][0] == "dataset"


def test_spelled_initials_are_still_dropped():
    assert "LAbel" not in found("We build a Unified LAbel REfinement scheme for noisy data.")


def test_an_acronym_the_paper_defines_beats_the_lexicon_meaning():
    names = found("We propose the Geometric Active Exploration (GAE) algorithm for science.")
    assert names["GAE"] == ("method", "proposed")


def test_a_language_pair_is_a_dataset():
    names = found("Experiments on the Qorvex task (German-English, small vocabulary) show gains.")
    assert names["German-English"] == ("dataset", "referenced")


def test_a_language_with_a_data_noun_is_a_dataset_up_to_the_noun():
    names = found("It is then validated on French broadcast news transcriptions of two shows.")
    assert names["French broadcast news transcriptions"][0] == "dataset"


def test_languages_listed_before_a_language_dataset_are_datasets():
    names = found("We mine pairs from large Chinese, Arabic, and English newspaper corpora.")
    assert {"Chinese", "Arabic", "English newspaper corpora"} <= {
        n for n, (t, _) in names.items() if t == "dataset"
    }


def test_a_language_alone_is_not_a_dataset():
    names = found("We build a fast parser for German and translate from English to Japanese.")
    assert not any(t == "dataset" for t, _ in names.values())


def test_a_language_modifying_another_noun_or_opening_a_clause_is_not_a_dataset():
    names = found("Turkish is an agglutinative language. We translate English questions into logic.")
    assert "English" not in names
    assert not any(t == "dataset" for t, _ in names.values())


def test_a_model_named_after_a_language_is_not_a_language_pair():
    names = found("We adapt Chinese-QorvexLM to dialogue and compare it with Latin hypercube sampling.")
    assert names["Chinese-QorvexLM"][0] != "dataset"
    assert not any(t == "dataset" for t, _ in names.values())


def test_a_name_after_an_article_names_the_head_after_it():
    names = found(
        "We fit the Quorvak model and measure the Tessing-Lorr distance using the Wizard of Oz technique."
    )
    assert names["Quorvak model"][0] == "method"
    assert names["Tessing-Lorr distance"][0] == "metric"
    assert names["Wizard of Oz technique"][0] == "method"


def test_an_adjective_made_from_a_name_before_a_head_is_a_kind_not_a_name():
    names = found("We take a Bayesian model of the data and the Riemannian distance between points.")
    assert not names


def test_a_known_name_before_a_head_stays_the_known_name():
    assert "Adam" in found("We train with the Adam algorithm for ten epochs.")


def test_an_acronym_before_database_is_a_dataset():
    assert found("Using the QRVX database, emotions are rated.")["QRVX"][0] == "dataset"


def test_a_released_models_tier_and_decimal_version_are_part_of_its_name():
    names = found("We benchmark Claude v1.0, Claude v3 Opus and Mixtral 8x7B Instruct, and tune GPT-3 Small.")
    assert {"Claude v1.0", "Claude v3 Opus", "Mixtral 8x7B Instruct", "GPT-3 Small"} <= set(names)
    assert "GPT-4 Large" not in found("We use GPT-4 Large language models.")


def test_a_year_after_a_name_is_not_a_version():
    assert found("At STOC 2019 we met.") == {}


def test_an_owner_before_a_listed_model_is_not_part_of_its_name():
    names = found(
        "We evaluate models, including OpenAI’s GPT-4 and Anthropic’s Claude v1.3, against attacks."
    )
    assert {"GPT-4", "Claude v1.3"} <= set(names)
    assert not any("’s" in name for name in names)


def test_a_mixed_case_acronym_written_in_another_mixed_case_is_the_lexicon_name():
    names = found("Models outperform InstructBLIP and LLaVa. We reach 77% mIOU.")
    assert names["LLaVA"][0] == "model"
    assert names["mIoU"][0] == "metric"


def test_an_acronym_written_in_other_capitals_is_not_a_lexicon_name():
    assert "tree-of-thoughts" not in found("We propose the tuning free tarn-over-tarn (TOT) framework.")
    assert "SAM" not in found("Sam went home early.")


def test_a_lexicon_phrase_after_a_sentence_opening_article_is_a_name():
    assert (
        found("The Shapley value is a prominent tool for interpreting models.")["Shapley value"][0]
        == "method"
    )


def test_precision_and_recall_with_values_are_metrics():
    names = found("Models fail to discern context: under 50% precision and 65% recall.")
    assert names["precision"][0] == "metric" and names["recall"][0] == "metric"
    assert "precision" not in found("We trade precision for speed in this setting.")
