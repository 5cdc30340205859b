"""Which names are the paper's own: proposal cues without a classic verb phrase, and the markers
that make a name somebody else's. Invented sentences, one rule each, positive and negative."""

from pipeline.lib.extract.extract import extract_entities


def found(text):
    """{name: (entity_type, role)} of the mentions in text."""
    return {m.name: (m.entity_type, m.role) for m in extract_entities(text).mentions}


def abbreviations(text):
    return {a.short: a.long for a in extract_entities(text).abbreviations}


def test_a_plain_capitalised_name_closed_by_a_connector_is_introduced():
    names = found("Going beyond grids, we present Meshformer based on a new idea of learned slices.")
    assert names["Meshformer"] == ("method", "proposed")


def test_a_capitalised_compound_after_a_new_is_introduced_when_a_connector_follows():
    names = found("We propose a new Slice-Attention to split the domain into learnable parts.")
    assert names["Slice-Attention"] == ("method", "proposed")


def test_a_plain_capitalised_modifier_of_a_noun_is_not_introduced():
    assert "Bayesian" not in found("We propose Bayesian inference for sparse regression with few samples.")


def test_a_plain_capitalised_object_claimed_later_is_introduced():
    names = found(
        "We present Meshformer for physics simulation. Meshformer achieves the best error on six tasks."
    )
    assert names["Meshformer"][1] == "proposed"


def test_an_all_capital_word_ending_in_s_is_not_the_plural_of_a_lexicon_acronym():
    names = found(
        "In this paper, we propose a new task, Adaptive Image Mask Selection (AIMS), which segments images."
    )
    assert names["AIMS"] == ("method", "proposed")


def test_an_acronym_plural_still_reads_as_its_acronym():
    assert found("We compare several SAEs trained on the residual stream.")["SAE"][1] == "referenced"


def test_a_name_defined_by_its_long_form_after_our_method_is_proposed():
    text = (
        "Results on patient data show the efficacy of our method TARO (Two-stAge Response Optimisation) here."
    )
    assert found(text)["TARO"] == ("method", "proposed")


def test_a_name_defined_by_its_long_form_in_someone_elses_voice_is_not_proposed():
    text = "Patient data show the efficacy of the classic TARO (Two-stAge Response Optimisation) here."
    assert found(text).get("TARO", ("method", "referenced"))[1] == "referenced"


def test_an_acronym_apposed_to_initials_of_hyphenated_words_is_an_abbreviation():
    text = "This paper introduces SPF, a Sparsity-Preserved Fine-tuning method for pruned models."
    assert abbreviations(text) == {"SPF": "Sparsity-Preserved Fine-tuning"}
    assert found(text)["SPF"] == ("method", "proposed")


def test_lower_case_parts_of_hyphenated_words_may_spell_nothing():
    text = (
        "This paper introduces SPP, a Sparsity-Preserved Parameter-efficient tuning method for pruned models."
    )
    assert abbreviations(text) == {"SPP": "Sparsity-Preserved Parameter-efficient"}
    assert "Sparsity-Preserved Parameter-efficient" not in {
        m.text for m in extract_entities(text).mentions if m.name != "SPP"
    }


def test_an_apposition_with_commas_between_its_adjectives_still_gives_the_kind():
    assert found("Using this app we build Snap-a-Vote, a large, open dataset of votes.")["Snap-a-Vote"] == (
        "dataset",
        "proposed",
    )


def test_a_coined_name_apposed_to_what_the_authors_train_is_proposed():
    names = found("We use the votes to train a ranking function, RankVote, which predicts preferences well.")
    assert names["RankVote"][1] == "proposed"


def test_a_coined_name_apposed_to_what_others_train_is_not_proposed():
    names = found("Prior studies train a ranking function, RankVote, which predicts preferences well.")
    assert names["RankVote"][1] == "referenced"


def test_a_coined_name_opening_in_this_work_is_proposed():
    names = found("Planning is hard. In this work, GraphPlanner learns a hierarchy of skills from play.")
    assert names["GraphPlanner"][1] == "proposed"


def test_a_coined_name_opening_another_sentence_is_not_proposed_by_that_alone():
    names = found("Planning is hard. Recently, GraphPlanner learned a hierarchy of skills from play.")
    assert names["GraphPlanner"][1] == "referenced"


def test_a_coined_name_defined_as_a_kind_of_thing_is_proposed():
    text = (
        "Agents forget. MemWeave is a framework that stores episodes. MemWeave improves recall on long tasks."
    )
    assert found(text)["MemWeave"][1] == "proposed"


def test_a_coined_name_defined_as_a_popular_kind_of_thing_is_not_proposed():
    text = (
        "Agents forget. MemWeave is a popular framework that stores episodes. MemWeave is slow on long tasks."
    )
    assert found(text)["MemWeave"][1] == "referenced"


def test_a_name_first_written_after_such_as_is_referenced_even_in_a_proposal():
    names = found("We present a training recipe for formats such as MXQ4, and show MXQ4 GEMMs are fast.")
    assert names["MXQ4"][1] == "referenced"


def test_a_name_first_written_after_than_is_referenced():
    names = found("We prove that our algorithms compute tighter bounds than the SoTB on image benchmarks.")
    assert names["SoTB"][1] == "referenced"


def test_examples_of_the_authors_own_algorithms_stay_proposed():
    names = found("We propose TENQ. Our development includes algorithms like TENQ-Euler for precision.")
    assert names["TENQ-Euler"][1] == "proposed"


def test_that_is_restates_the_papers_own_name():
    names = found("We propose an adaptive federated algorithm (i.e., AdaFGX) to solve minimax problems.")
    assert names["AdaFGX"][1] == "proposed"


def test_a_name_followed_by_et_al_is_referenced():
    names = found("We propose to revisit QuickNet et al. and show where it fails on long inputs.")
    assert names.get("QuickNet", ("method", "referenced"))[1] == "referenced"


def test_a_known_name_given_as_the_final_result_is_proposed():
    names = found("We distil preferences into a chat model. The final result, Zephyr-7B, sets a new record.")
    assert names["Zephyr-7B"][1] == "proposed"


def test_a_known_name_outside_a_naming_slot_stays_referenced():
    assert (
        found("We compare our chat model with Zephyr-7B on chat benchmarks.")["Zephyr-7B"][1] == "referenced"
    )


def test_a_single_letter_is_never_a_name():
    names = found("We introduce O, a new group-equivariant layer, and prove O(n) equivariance.")
    assert all(len(name) > 1 for name in names)


def test_an_acronym_defined_by_an_inflection_of_its_known_expansion_is_the_known_method():
    names = found("We start from supervised fine-tuned (SFT) models and then apply preference tuning.")
    assert names["SFT"] == ("method", "referenced")


def test_an_acronym_defined_by_other_words_is_not_the_known_method():
    mentions = extract_entities("We use sparse feature tables (SFT) to index the corpus.").mentions
    assert not any(m.expansion == "supervised fine-tuning" for m in mentions)


def test_a_quantity_measured_by_a_named_measure_is_a_metric():
    assert found("Better data (as measured by Bayes risk) can lower welfare.")["Bayes risk"][0] == "metric"


def test_a_plain_phrase_measured_by_is_not_a_metric():
    names = found("Welfare (as measured by user surveys) can drop.")
    assert not any(t == "metric" for t, _ in names.values())


def test_random_forests_are_a_known_method():
    assert found("We reconstruct the data used to train a random forest.")["random forest"][0] == "method"


def test_a_coined_subject_after_an_unnamed_proposal_is_proposed():
    names = found(
        "We propose an adaptive prompting approach for shifting tasks. TarnPrompt groups prompts by "
        "similarity, and TarnPrompt beats fixed prompts by 4.1%."
    )
    assert names["TarnPrompt"] == ("method", "proposed")


def test_a_coined_subject_without_any_proposal_is_not_proposed():
    names = found("Prompting matters for shifting tasks. TarnPrompt groups prompts, and TarnPrompt is fast.")
    assert names["TarnPrompt"][1] == "referenced"


def test_a_coined_name_written_once_after_an_unnamed_proposal_is_not_proposed_by_that_alone():
    names = found("We propose an adaptive prompting approach for shifting tasks. TarnPrompt is a baseline.")
    assert names["TarnPrompt"][1] == "referenced"


def test_the_module_we_call_a_name_is_proposed():
    names = found(
        "We propose an architecture with learned gates. We call this module a gated counting unit (GCU), "
        "by analogy to hardware."
    )
    assert names["GCU"] == ("method", "proposed")


def test_what_the_contributions_are_is_proposed():
    names = found(
        "Our main contributions are the tuned Sliding Tarn Search (STS) algorithm and the tuning free "
        "tarn-over-tarn (TOT) framework, both with low regret."
    )
    assert names["STS"][1] == "proposed"
    assert names["TOT"] == ("method", "proposed")


def test_the_contribution_of_others_is_not_proposed():
    names = found("The main contribution of Tarn et al. is the Sliding Tarn Search (STS) algorithm.")
    assert names.get("STS", ("method", "referenced"))[1] == "referenced"


def test_a_long_subject_of_a_passive_proposal_verb_is_proposed():
    names = found(
        "An effective and efficient multi-view querying transformer (MVQ-Tarn) for aggregating "
        "representative semantic information is introduced."
    )
    assert names["MVQ-Tarn"][1] == "proposed"


def test_a_past_passive_names_earlier_work():
    names = found("The TarnNet model was introduced for aggregating semantic information in 2019.")
    assert names["TarnNet"][1] == "referenced"


def test_a_greek_letter_joined_to_a_word_is_a_name():
    names = found("In this work, we present Σ-tarn, an imitation learning agent. Σ-tarn is fast.")
    assert names["Σ-tarn"] == ("method", "proposed")


def test_greek_letters_of_the_math_are_not_names():
    assert found("The bound is Ω(k) and Δ-approximations hold for all inputs.") == {}


def test_a_name_after_we_call_the_is_proposed_with_its_lower_case_words():
    names = found("It rests on a novel test that we call the Tarn binomial test. It is exact.")
    assert names["Tarn binomial test"] == ("method", "proposed")


def test_a_lower_case_name_called_after_its_kind_is_proposed():
    names = found("We develop a data structure for streams called an online tarnset, which stores points.")
    assert names["online tarnset"] == ("method", "proposed")


def test_a_lower_case_phrase_called_without_a_kind_is_not_a_name():
    assert "curse of dimensionality" not in found(
        "This suffers from a phenomenon called the curse of dimensionality, as expected."
    )


def test_everyday_technical_acronyms_are_not_entities():
    assert found("The IT systems serve HTTP workloads and emit CO2 at scale.") == {}


def test_words_glued_to_a_name_by_lost_spaces_are_split_off():
    names = found(
        "This paper presentsTarnBot, a robot system. TarnBot reads manuals, and TarnBotcloses the loop."
    )
    assert set(names) == {"TarnBot"}
    assert names["TarnBot"][1] == "proposed"


def test_a_known_name_introduced_and_defined_by_an_apposition_is_proposed():
    names = found("In this paper, we introduce Lookahead decoding, an exact, parallel decoding algorithm.")
    assert names["lookahead decoding"][1] == "proposed"


def test_a_known_name_introduced_into_something_stays_referenced():
    assert found("We introduce LoRA into diffusion models for speed.")["LoRA"][1] == "referenced"


def test_a_lower_case_name_apposed_to_an_intervention_is_proposed():
    names = found("This paper introduces tarn injection, a minimalistic intervention that adds capacity.")
    assert names["tarn injection"] == ("method", "proposed")


def test_a_lower_case_phrase_renaming_a_new_kind_is_proposed():
    names = found("We propose a novel mode of textual attack, tarn-level attack. It fools models.")
    assert names["tarn-level attack"] == ("method", "proposed")


def test_a_lower_case_phrase_after_an_old_kind_is_not_a_name():
    assert "tarn-level attack" not in found("Prior work studied a mode of textual attack, tarn-level attack.")


def test_a_defined_name_later_called_the_proposed_one_is_proposed():
    names = found(
        "Thanks to the integrated Tarn Position Embedding (TPE), the attack is cheap. "
        "Results show the effectiveness of the proposed TPE."
    )
    assert names["TPE"][1] == "proposed"


def test_an_ampersand_joins_the_words_of_a_title_case_name():
    names = found("Based on these bonds, we design Complex Sequential & Parallel Bonds to merge spaces.")
    assert names["Complex Sequential & Parallel Bonds"][1] == "proposed"


def test_a_multi_word_model_name_takes_a_dotted_version():
    names = found("We find that Stable Diffusion 2.1 is less biased than Stable Diffusion 1.5 on average.")
    assert {"Stable Diffusion 2.1", "Stable Diffusion 1.5"} <= set(names)


def test_an_acronym_in_parentheses_after_our_algorithm_is_proposed():
    assert found("Our algorithm (TARNCA) allows exact conversion at low cost.")["TARNCA"][1] == "proposed"


def test_the_name_we_call_this_proposed_algorithm_is_proposed():
    names = found("Different learning rates fix LoRA. We call this proposed algorithm LoRA+. LoRA+ is fast.")
    assert names["LoRA+"][1] == "proposed"
    assert names["LoRA"][1] == "referenced"


def test_the_name_we_give_the_method_is_proposed():
    assert found("We name the method Tarn and Average, and validate it.")["Tarn and Average"][1] == "proposed"


def test_a_name_opening_with_a_dimension_count_after_named_is_proposed():
    names = found("We propose a new training objective named 3D Tarn Test to learn spatial relations.")
    assert names["3D Tarn Test"][1] == "proposed"


def test_naming_after_someone_is_no_name():
    assert found("We name the model after its inventor.") == {}


def test_a_name_dubbed_by_the_paper_overrides_an_everyday_acronym():
    names = found(
        "This work proposes a retrieve-and-transfer framework, dubbed RAM, for robots. RAM is fast."
    )
    assert names["RAM"] == ("method", "proposed")


def test_an_everyday_acronym_the_paper_spells_out_is_its_own():
    names = found("We propose the Retrieval Augmented Memory (RAM) module for agents.")
    assert names["RAM"][1] == "proposed"


def test_an_everyday_acronym_written_alone_is_no_entity():
    assert "RAM" not in found("The model fits in 16 GB of RAM on one machine.")


def test_two_names_called_together_are_two_proposed_names():
    names = found("We propose two robust variants of SPS and SLS, called AdaSPS and AdaSLS, which converge.")
    assert names["AdaSPS"] == ("method", "proposed")
    assert names["AdaSLS"] == ("method", "proposed")
    assert "AdaSPS and AdaSLS" not in names


def test_a_title_case_name_with_and_called_once_stays_one_name():
    assert found("We name the method Tilt and Average, which works.")["Tilt and Average"][1] == "proposed"


def test_variants_of_a_proposed_name_are_proposed_and_a_capital_s_is_no_plural():
    names = found(
        "We introduce Magicoder, a series of open models for code. We then build an enhanced "
        "MagicoderS. Notably, MagicoderS-CL-7B even surpasses ChatGPT."
    )
    assert names["Magicoder"][1] == "proposed"
    assert names["MagicoderS"][1] == "proposed"
    assert names["MagicoderS-CL-7B"] == ("model", "proposed")
    assert names["ChatGPT"][1] == "referenced"


def test_a_metric_the_paper_defines_in_a_proposal_is_proposed():
    names = found("We tackle it by introducing a Task Agnostic Correlations (TAC) metric, which is simple.")
    assert names["TAC"] == ("metric", "proposed")


def test_a_metric_measured_in_a_proposal_sentence_stays_referenced():
    names = found("We propose FooNet, which improves the Fréchet Inception Distance (FID) on faces.")
    assert names["FID"] == ("metric", "referenced")


def test_our_named_algorithm_is_the_papers_own():
    names = found(
        "Unlike the classic Blahut–Arimoto algorithm, our Wasserstein gradient descent algorithm moves."
    )
    assert names["Wasserstein gradient descent"] == ("method", "proposed")
    assert "gradient descent" not in names


def test_our_with_a_plain_adjective_or_a_known_name_names_nothing_new():
    names = found("Our Bayesian method works, and our LoRA method is cheap.")
    assert "Bayesian" not in names
    assert names["LoRA"][1] == "referenced"


def test_a_quoted_name_after_a_proposal_verb_is_proposed():
    names = found("With these principles in mind, we propose “Levels of AGI” based on depth and breadth.")
    assert names["Levels of AGI"][1] == "proposed"


def test_lower_case_words_extending_a_known_method_after_a_proposal_verb_are_proposed():
    names = found(
        "As a solution, we introduce hierarchical randomized smoothing: we smooth parts of objects."
    )
    assert names["hierarchical randomized smoothing"] == ("method", "proposed")


def test_scare_quotes_and_plain_lower_case_phrases_name_nothing():
    names = found("We propose “thinking” tokens, and we introduce careful data selection, which helps.")
    assert names == {}


def test_a_claim_after_our_name_is_not_part_of_the_name():
    names = found("Experiments show that our HI-Diff outperforms state-of-the-art methods on blur datasets.")
    assert "HI-Diff outperforms state-of-the-art" not in names


def test_known_method_words_modifying_a_dataset_are_not_a_proposed_method():
    names = found("We construct a superior supervised fine-tuning (SFT) dataset that we use to train models.")
    assert "superior supervised fine-tuning" not in names


def test_a_new_name_that_is_the_code_repository_is_proposed():
    text = (
        "Our framework improves structured pruning of vision models. OSSCAR can lead to 125× lower "
        "perplexity. Our code is available at https://github.com/mazumder-lab/OSSCAR."
    )
    assert found(text)["OSSCAR"] == ("method", "proposed")


def test_a_new_name_that_is_not_the_code_repository_is_not_proposed_by_the_link():
    text = (
        "Our framework improves structured pruning of vision models. OSSCAR can lead to 125× lower "
        "perplexity. Our code is available at https://github.com/mazumder-lab/pruning."
    )
    assert found(text)["OSSCAR"] == ("method", "referenced")


def test_an_acronym_after_namely_in_a_proposal_is_proposed():
    text = "We propose a method for aligning models, namely CPL (Contrastive Preference Learning)."
    assert found(text)["CPL"] == ("method", "proposed")
    studied = "We study models of aligning agents, namely CPL (Contrastive Preference Learning)."
    assert found(studied)["CPL"] == ("method", "referenced")


def test_a_title_case_name_set_off_after_the_kind_it_is_is_proposed():
    names = found("We introduce a novel imitation learning framework, Thought Cloning, where agents think.")
    assert names["Thought Cloning"] == ("method", "proposed")
    names = found("Here, we present a new amortized inference method—the Simformer—which is flexible.")
    assert names["Simformer"] == ("method", "proposed")


def test_title_case_words_after_a_kind_but_not_set_off_are_not_one_name():
    names = found("We propose a new merging algorithm, Canonical Merge of Weights in two steps.")
    assert "Canonical Merge of Weights" not in names
    assert "Canonical Merge" not in names


def test_a_proposed_title_case_name_may_hold_a_lexicon_name():
    names = found("In this paper, we propose Model Spider, which tokenizes both models and tasks.")
    assert names["Model Spider"] == ("method", "proposed")
    assert "Spider" not in names


def test_the_last_word_of_a_name_before_a_new_apposition_is_not_a_name_of_its_own():
    names = found(
        "Here, we introduce Fluid Benchmarking, a new evaluation approach that advances LM benchmarking. "
        "Fluid Benchmarking adapts items."
    )
    assert names["Fluid Benchmarking"] == ("method", "proposed")
    assert "Benchmarking" not in names


def test_a_name_glued_to_a_defined_short_form_and_repeated_is_its_own_name():
    names = found(
        "We study Tarn Under Discussion (TUD) for this. We then build TUDsim, a similarity metric. "
        "Using TUDsim, we find repetition."
    )
    assert names["TUDsim"] == ("metric", "proposed")


def test_a_quoted_name_after_a_naming_slot_is_proposed():
    names = found("We propose a fast baseline algorithm termed ‘Tarn-SortnRegress’ that exploits order.")
    assert names["Tarn-SortnRegress"] == ("method", "proposed")


def test_a_verb_coordinated_to_that_end_keeps_the_subject():
    names = found("We argue that both should be tuned, and to that end present the Tuned TF (TTF). It works.")
    assert names["TTF"][1] == "proposed"
    assert (
        found("Others argue that both should be tuned, and to that end present the Tuned TF (TTF).")["TTF"][1]
        == "referenced"
    )


def test_a_proposal_verb_as_the_purpose_of_a_first_person_clause_introduces():
    names = found("We then use this framework to build TarnSim, a similarity metric. TarnSim helps.")
    assert names["TarnSim"] == ("metric", "proposed")
    assert found("Prior work used this framework to build TarnSim, a similarity metric.")["TarnSim"] == (
        "metric",
        "referenced",
    )


def test_a_capitalised_variant_after_a_naming_slot_is_proposed():
    names = found(
        "We bring spikes into Transformer by the proposed Tarn-driven Transformer with four properties."
    )
    assert names["Tarn-driven Transformer"] == ("method", "proposed")


def test_a_lower_case_name_after_what_we_call_is_proposed():
    names = found("We quantize their features into what we call tarn features. Tarn features are sparse.")
    assert names["tarn features"] == ("method", "proposed")


def test_the_proposed_scheme_as_a_defined_name_is_proposed():
    names = found("We frame the proposed scheme as Simplified Tarn Transformers (STFormer), which is simple.")
    assert names["STFormer"] == ("method", "proposed")


def test_a_name_given_as_an_example_in_a_proposal_clause_is_referenced():
    names = found(
        "We introduce Qorvex, a framework whose attacks raise error rates (e.g., a noisy attack on ZelbaNet)."
    )
    assert names["Qorvex"][1] == "proposed"
    assert names["ZelbaNet"][1] == "referenced"


def test_a_lower_case_measure_spelled_out_inside_a_proposal_clause_is_referenced():
    names = found(
        "We introduce Qorvex, a pipeline that causes flip success rates (FSRs) to surge across models."
    )
    assert names["FSR"] == ("metric", "referenced")


def test_a_lower_case_measure_the_paper_proposes_is_proposed():
    names = found("We propose the cross-view matching gap (CVMG), a loss that compares all views at once.")
    assert names["CVMG"][1] == "proposed"


def test_a_sentence_adverb_does_not_open_a_passive_proposal_name():
    names = found("We present a new check. Thus the QRV system is designed to deal with noise.")
    assert not any(name.startswith("Thus") for name in names)


def test_a_coined_name_opening_with_the_proposed_long_forms_initials_is_proposed():
    names = found(
        "We propose Sparsely Routed Gated Attention (SRGA), an efficient layer. Replacing attention "
        "with SRGA gives the corresponding SRFormer. SRFormer outperforms ViT, "
        "and SRQorvex-7B beats Llama-2-7B."
    )
    assert names["SRFormer"][1] == "proposed"
    assert names["SRQorvex-7B"][1] == "proposed"
    assert names["ViT"][1] == "referenced"


def test_a_coined_name_sharing_capitals_by_chance_with_an_undefined_proposal_is_referenced():
    names = found("We propose SRGA, an efficient layer. It beats SRFormer on three benchmarks.")
    assert names["SRFormer"][1] == "referenced"


def test_a_name_written_only_as_an_adjective_is_not_what_the_paper_proposes():
    names = found("We release QorvSet, a large-scale Zelb-CoT-based dataset for training small models.")
    assert names["QorvSet"][1] == "proposed"
    assert "Zelb-CoT-based" not in names
    assert names["Zelb-CoT"][1] == "referenced"


def test_symbols_of_a_formula_are_not_names():
    names = found("Our method needs Õ(dHK) time and Õ(√(d³H³ T)) samples, and factors A ≈ LR in memory.")
    assert not {"dHK", "d³H³", "LR"} & set(names)


def test_a_name_beside_a_relation_sign_in_prose_is_still_kept_when_the_lexicon_knows_it():
    assert found("We find that GPT-4 = 3 points better.")["GPT-4"][0] == "model"


def test_a_sibling_of_a_proposed_coined_name_is_proposed():
    names = found(
        "We first introduce Lagged-QRVI, an optimistic algorithm. For speed we add Langevin steps in "
        "Lagged-LQRVI, which keeps the bound. It beats Lagged-UCB [4]."
    )
    assert names["Lagged-QRVI"][1] == "proposed"
    assert names["Lagged-LQRVI"][1] == "proposed"
    assert names["Lagged-UCB"][1] == "referenced"


def test_a_passive_proposal_subject_holding_a_known_acronym_is_one_name():
    names = found("We propose ZelbNet for forecasting. A Cross-Scale GNN is proposed to extract the scales.")
    assert names["Cross-Scale GNN"] == ("method", "proposed")


def test_a_known_acronym_before_a_passive_verb_stays_referenced():
    assert found("GNN is proposed to solve the task.")["GNN"][1] == "referenced"


def test_names_heading_the_items_of_the_contributions_are_proposed():
    names = found(
        "We introduce QorvGym, an environment. It rests on two contributions: 1) ZELBGEN: a data "
        "recipe that scales. 2) Hybrid Vorn Scaling: we analyse two axes."
    )
    assert names["ZELBGEN"][1] == "proposed"
    assert names["Hybrid Vorn Scaling"][1] == "proposed"


def test_an_enumerated_heading_without_a_contribution_or_proposal_names_nothing():
    names = found("Prior studies split the task: 1) Qorvex Zelb: a phase of warm-up. 2) Tuning: a phase.")
    assert "Qorvex Zelb" not in names


def test_a_name_after_us_to_and_a_proposal_verb_is_proposed():
    names = found("This gap motivates us to design a Consistent Robust Zelb Network (CRZN) for control.")
    assert names["CRZN"][1] == "proposed"


def test_a_single_word_after_named_that_the_abstract_uses_again_is_proposed():
    names = found("We propose the framework named Qorva to speed up inference. Qorva is four times faster.")
    assert names["Qorva"] == ("method", "proposed")


def test_a_single_word_after_called_written_once_is_not_a_name():
    assert "Fisher" not in found("The bound is called Fisher for historical reasons.")


def test_a_defined_name_that_is_a_novel_kind_of_thing_is_proposed():
    names = found(
        "Networks maximise the Attentive Zelb Entropy (AZE), which is a novel generalization of entropy."
    )
    assert names["AZE"][1] == "proposed"


def test_the_other_half_of_a_slash_written_proposal_is_proposed_and_of_its_kind():
    names = found("We propose a consistent framework, namely RankZelb/RankQorv, inspired by plug-in rules.")
    assert names["RankZelb"] == ("method", "proposed")
    assert names["RankQorv"] == ("method", "proposed")


def test_a_name_after_a_lower_case_path_segment_is_not_a_name():
    assert "ZelbRollback" not in found("See the examples/ZelbRollback folder for the scripts.")


def test_named_parts_of_a_proposed_system_are_proposed():
    names = found(
        "We propose a framework, Discrete Zelb Learning (DZL), for fusion. DZL comprises two modules: "
        "Perspective Qorv Decomposition (PQD) and Perspective Vorn Attention (PVA), which work together."
    )
    assert names["PQD"][1] == "proposed"
    assert names["PVA"][1] == "proposed"


def test_names_after_a_reference_marker_in_a_parts_sentence_stay_referenced():
    names = found(
        "We propose QorvDet, a detector. QorvDet incorporates a Zelb Matching (ZM) module unlike "
        "VornDet, which is slow."
    )
    assert names["ZM"][1] == "proposed"
    assert names["VornDet"][1] == "referenced"


def test_a_new_name_the_authors_describe_as_a_method_is_proposed():
    names = found("We then employ ZelbEdit, a fast closed-form editing method across many models.")
    assert names["ZelbEdit"][1] == "proposed"


def test_a_new_name_described_as_a_known_method_is_referenced():
    names = found("We compare with QorvNet, a popular method, on three tasks.")
    assert names["QorvNet"][1] == "referenced"


def test_a_lower_case_phrase_named_in_the_authors_voice_is_proposed():
    names = found("We propose a simple change to language modeling called conditional zelbing, which helps.")
    assert names["conditional zelbing"][1] == "proposed"
    names = found("We introduce a framework for DP-SGD referred to as pro-active QV. In contrast to X.")
    assert names["pro-active QV"][1] == "proposed"


def test_a_lower_case_phrase_named_in_someone_elses_voice_is_not_a_name():
    assert "distribution drift" not in found("This effect is called distribution drift, which hurts models.")


def test_a_passive_proposal_by_this_paper_after_and_is_a_proposal():
    names = found(
        "This paper draws on synapses in biology and proposes a novel Spatio-Zelb Circuit (SZC) model."
    )
    assert names["SZC"][1] == "proposed"


def test_a_known_name_introduced_with_its_long_form_and_a_described_kind_is_proposed():
    names = found(
        "We introduce EAGLE (Extrapolation Algorithm for Greater Language-model Efficiency), a simple "
        "yet highly efficient speculative sampling framework."
    )
    assert names["EAGLE"][1] == "proposed"


def test_a_list_after_a_colon_in_a_proposal_holds_the_papers_names():
    names = found(
        "We propose three regularisers: Zelb Masking, Qorv Contrastive Loss, and Bind Vorn. It works."
    )
    assert names["Zelb Masking"][1] == "proposed"
    assert names["Qorv Contrastive Loss"][1] == "proposed"
    assert names["Bind Vorn"][1] == "proposed"


def test_and_in_a_listed_proposal_joins_two_names():
    names = found(
        "We then design two new algorithms that improve it: QV-ZelbBatch and QV-Meta. QV-Meta wins."
    )
    assert names["QV-ZelbBatch"][1] == "proposed"
    assert names["QV-Meta"][1] == "proposed"


def test_a_name_after_a_dash_holding_a_known_acronym_is_proposed():
    names = found("This paper proposes a simple policy optimization framework—Optimistic NPG for online RL.")
    assert names["Optimistic NPG"] == ("method", "proposed")


def test_a_list_of_others_work_after_a_colon_stays_referenced():
    names = found(
        "This paper analyses three representative algorithms: ZORM, QOVER and VSMR, in two settings."
    )
    assert all(names[name][1] == "referenced" for name in ("ZORM", "QOVER", "VSMR"))


def test_a_name_and_its_head_noun_after_a_proposal_verb_is_one_name():
    assert (
        found("We propose a Hadamard quantizer to suppress the outliers.")["Hadamard quantizer"][1]
        == "proposed"
    )


def test_an_adjective_made_from_a_name_before_a_head_noun_is_not_a_name():
    assert found("We propose a Bayesian approach to it.") == {}


def test_what_lies_at_the_core_of_the_papers_system_is_proposed():
    names = found("We present QDRP, a policy. At its core is ZELBACT, a transformer-based motion policy.")
    assert names["ZELBACT"][1] == "proposed"


def test_a_coined_name_before_algorithm_is_the_coined_name():
    names = found("Finally, we introduce the FairZelb algorithm, which augments its training data.")
    assert names["FairZelb"] == ("method", "proposed")
    assert found("We use the PC algorithm on the graph.")["PC algorithm"][0] == "method"


def test_a_proposed_coined_word_keeps_its_lower_case_part_when_set_off():
    assert found("We propose ZELB-masks, a method to find task supports.")["ZELB-masks"][1] == "proposed"
    assert "LoRA" in found("We propose LoRA-based tuning, a method.")


def test_a_capitalised_compound_the_authors_call_theirs_is_a_name():
    names = found(
        "Experiments show that our Pruner-Zelb obtains the best results. Code: https://github.com/a/Pruner-Zelb."
    )
    assert names["Pruner-Zelb"][1] == "proposed"
    assert "Navier-Stokes" not in found("We solve the Navier-Stokes equations fast.")


def test_a_lower_case_coined_word_set_off_after_a_new_kind_is_proposed():
    assert found("We propose a novel framework, zelbmem, which retrieves memory.")["zelbmem"][1] == "proposed"
    assert found("We propose a new method, namely, which is odd.") == {}


def test_a_known_name_spelled_out_as_the_object_of_a_proposal_is_proposed():
    names = found(
        "In this paper, we propose Domain Reweighting with Minimax Optimization (DoReMi), which trains."
    )
    assert names["DoReMi"][1] == "proposed"
    assert found("We propose to use Low-Rank Adaptation (LoRA), which is cheap.")["LoRA"][1] == "referenced"


def test_a_shaped_name_opening_in_lower_case_after_named_is_proposed():
    names = found("We propose an attack method named sparse-QZD to generate perturbations. sparse-QZD wins.")
    assert names["sparse-QZD"] == ("method", "proposed")


def test_what_a_proposal_studies_or_formulates_is_referenced():
    assert found("We propose the first study of Zelb Sampling for node classification.")["Zelb Sampling"][
        1
    ] == ("referenced")
    assert found("We propose a smooth dual formulation of QorvPSL inference.")["QorvPSL"][1] == "referenced"


def test_a_variant_written_after_unlike_traditional_is_referenced():
    names = found(
        "We propose ZelbOpt (Zeroth Elbow Optimizer). Unlike traditional ZelbOpt-SGD methods, it scales."
    )
    assert names["ZelbOpt"][1] == "proposed"
    assert names["ZelbOpt-SGD"][1] == "referenced"


def test_a_name_after_which_we_denote_is_proposed():
    names = found("We propose a new policy update, which we denote Q-zelb matching. It works well.")
    assert names["Q-zelb matching"][1] == "proposed"


def test_the_former_and_the_latter_of_devised_methods_are_proposed():
    names = found(
        "Then, we devise two bandit algorithms. The former, Q-UCB, is optimistic. The latter, Q-Track, "
        "tracks bounds."
    )
    assert names["Q-UCB"][1] == "proposed"
    assert names["Q-Track"][1] == "proposed"
    assert found("Prior work compares two methods. The former, QV-UCB, is old.")["QV-UCB"][1] == "referenced"


def test_a_defined_name_right_after_novel_is_proposed():
    names = found("The router uses a novel Task-wise Zelb Decorrelation (TZD) loss to steer the adapters.")
    assert names["TZD"][1] == "proposed"


def test_a_proposed_acronym_before_algorithm_is_the_acronym():
    assert found("We propose the ZLH algorithm, with analyses.")["ZLH"] == ("method", "proposed")


def test_a_proposed_mention_carries_the_rule_and_cue_that_proposed_it():
    mentions = extract_entities(
        "We introduce Gradient Folding, a method for pruning, and compare it with Adam."
    ).mentions
    evidence = {m.name: (m.role, m.evidence) for m in mentions}
    assert evidence["Gradient Folding"] == ("proposed", "proposal_clause:introduce")
    assert evidence["Adam"] == ("referenced", None)  # no rule decided: referenced by default


def test_a_mention_referenced_by_a_rule_names_it():
    mentions = extract_entities("We propose HexaNet [12] for parsing.").mentions
    assert {(m.name, m.role, m.evidence) for m in mentions} >= {("HexaNet", "referenced", "cited_as_others")}


def test_a_proposed_name_an_apposition_calls_a_metric_is_a_metric():
    mentions = extract_entities(
        "We propose the *Toll of Idle Slots (TIS)*, a new metric that counts delay."
    ).mentions
    assert {(m.name, m.entity_type, m.role) for m in mentions} == {("TIS", "metric", "proposed")}
    method = extract_entities("We propose SlotNet, a new method that improves the metric.").mentions
    assert {(m.name, m.entity_type) for m in method} == {("SlotNet", "method")}
