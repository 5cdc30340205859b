import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.lib.clean import clean_abstract, clean_many, normalise_whitespace

SEEDS = Path(__file__).parents[2] / "seeds"
MARKUP_LEFTOVERS = ("$", "\\textit", "\\textbf", "\\url", "**", "\\%", "\\_")


def seed_paragraphs() -> list[str]:
    paragraphs = []
    for path in sorted(SEEDS.glob("*.txt")):
        blocks = [
            block for block in re.split(r"\n[ \t]*\n", path.read_text(encoding="utf-8")) if block.strip()
        ]
        paragraphs += blocks[1:]  # the first block is the file header
    return paragraphs


# --- normalise_whitespace -------------------------------------------------------------------------


def test_normalise_whitespace_collapses_every_kind_of_space_and_keeps_markup():
    assert normalise_whitespace("  $\\alpha$\u00a0and\n\t**b** \u2009 c  ") == "$\\alpha$ and **b** c"


def test_normalise_whitespace_composes_to_nfc():
    assert normalise_whitespace("Cafe\u0301") == "Café"


def test_normalise_whitespace_returns_clean_text_unchanged():
    assert normalise_whitespace("Already one clean line.") == "Already one clean line."


# --- math as it appears in the seed files ---------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        (r"a gap of $\mathcal{O}(n\epsilon)$.", "a gap of 𝒪(nε)."),
        (r"assuming BC error $\epsilon_{\text{BC}}$.", "assuming BC error ε_BC."),
        (r"$\mathcal{O}\left(n\epsilon_{\text{BC}}/(1-\gamma)^2\right)$", "𝒪(nε_BC/(1-γ)²)"),
        (r"by 1.5-3$\times$ on the task", "by 1.5-3× on the task"),
        (r"at least $\ell^{\frac{1}{4}}$ larger", "at least ℓ^(1/4) larger"),
        (r"moment for $p \in (1, 2]$.", "moment for p ∈ (1, 2]."),
        (r"rate $O\big(1/T^{(p-1)/(3p-2)}\big)$,", "rate O(1/T^((p-1)/(3p-2))),"),
        (r"rate $O\big( 1/T^{(p-1)/(2p)} \big)$ that", "rate O(1/T^((p-1)/(2p))) that"),
        (r"for $p < 2$, a speedup $n^{1-1/p}$", "for p < 2, a speedup n^(1-1/p)"),
        (r"up to $20.7\%$ gains", "up to 20.7% gains"),
        (r"namely $\textbf{UniFlow}$, by", "namely UniFlow, by"),
        (
            r"we introduce $\textit{layer-wise adaptive self-distillation}$ applied",
            "we introduce layer-wise adaptive self-distillation applied",
        ),
        (
            r"$O (\mathcal{E}\_r(T,p)+(\nu^* / \rho) \mathcal{E}\_c(T,p))$ regret",
            "O (ℰ_r(T,p)+(ν* / ρ) ℰ_c(T,p)) regret",
        ),
        (r"where $\mathcal{E}_r(T,p)$ and $\nu^*$ is", "where ℰ_r(T,p) and ν* is"),
    ],
)
def test_math_from_the_seeds_renders_to_unicode(raw, clean):
    assert clean_abstract(raw) == clean


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        (r"$x^2 + \frac{a}{b}$", "x² + a/b"),
        (r"$f: \mathbb{R}^d \to \mathbb{R}$", "f: ℝ^d → ℝ"),
        (r"$x \sim \mathcal{N}(0, 1)$ and $a \approx b \le c$", "x ∼ 𝒩(0, 1) and a ≈ b ≤ c"),
        (r"$\tilde{O}(\sqrt{T})$ and $\widetilde{O}(\sqrt{dT})$", "Õ(√T) and Õ(√(dT))"),
        (r"$O(n\log n)$ and $\epsilon^{-1}$", "O(n log n) and ε⁻¹"),
        (r"$\{0,1\}^n$", "{0,1}ⁿ"),
        (r"$\ell_2$ and $\ell_p$", "ℓ₂ and ℓ_p"),
        (r"$a \not= b$", "a ≠ b"),
        (r"$$E = mc^2$$", "E = mc²"),
        (r"\(a_1\) and \[b\]", "a₁ and b"),
        (r"$\times$$\sim$", "×∼"),
        (r"\mathbbR and $\sqrtT$", "ℝ and √T"),
    ],
)
def test_common_math_forms_render_to_unicode(raw, clean):
    assert clean_abstract(raw) == clean


# --- text-mode LaTeX -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        (r"a \textit{central} DP algorithm", "a central DP algorithm"),
        (r"\textbf{bold}, \emph{emph}, \texttt{code}, \textsc{Glime}", "bold, emph, code, Glime"),
        (
            r"Our project page is \url{https://cgbridge.github.io/}.",
            "Our project page is https://cgbridge.github.io/.",
        ),
        (r"see \url{https://github.com/a/b\_c}", "see https://github.com/a/b_c"),
        (r"code at \href{https://github.com/a/b}{github.com/a/b}.", "code at https://github.com/a/b."),
        (r"code \href{https://github.com/a/b}{here}", "code here (https://github.com/a/b)"),
        (r"by 6.05\% on foo\_bar \& co \#1 for \$3", "by 6.05% on foo_bar & co #1 for $3"),
        (r"as shown \cite{smith2020}.", "as shown."),
        (r"prior work~\citep{a,b} shows", "prior work shows"),
        (r"Schr\"odinger, Fr\'echet and H{\"o}lder", "Schrödinger, Fréchet and Hölder"),
        (r"the ``flip rate'' metric", "the “flip rate” metric"),
        (r"Fig.~1 and ~90x faster", "Fig. 1 and ~90x faster"),
        (r"available\footnote{Code: \url{https://g.io/x}}.", "available (Code: https://g.io/x)."),
        (r"{\em sparse} codes and {\cal O}(n)", "sparse codes and 𝒪(n)"),
    ],
)
def test_text_mode_latex_is_unwrapped(raw, clean):
    assert clean_abstract(raw) == clean


# --- markdown, dashes, characters ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("we propose **SMoPE**, a novel framework", "we propose SMoPE, a novel framework"),
        (
            "a novel framework, **P**reference **L**earning **U**sing **S**ummarization (**PLUS**), that",
            "a novel framework, Preference Learning Using Summarization (PLUS), that",
        ),
        ("designs. **Method.** We present", "designs. Method. We present"),
        (
            "the *Extra Anchored Gradient* and _Shūkai_ methods",
            "the Extra Anchored Gradient and Shūkai methods",
        ),
        ("generation---one where", "generation—one where"),
        ("pages 1--5 and A -- B", "pages 1–5 and A – B"),
        ("a 11–77\\% improvement", "a 11–77% improvement"),
        ("R&amp;D &lt;b&gt; it&#39;s", "R&D <b> it's"),
        ("zero\u200bwidth\u00adsoft\ufeff hy\u2060phen", "zerowidthsoft hyphen"),
        ("bell\x07 and\x00 null", "bell and null"),
        ("caf\u00c3\u00a9 mojibake", "café mojibake"),
    ],
)
def test_markdown_dashes_and_characters_are_resolved(raw, clean):
    assert clean_abstract(raw) == clean


# --- what must stay as it is ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Set use_cache_dir and my_var_name before calling load_data_v2.",
        "Code: https://x.github.io/a_b_c/ and https://github.com/org/repo_name.",
        "It costs $5 per run and $10 in total.",
        "Compute a * b and 2*3*4 exactly.",
        "“Curly quotes” – en dash — em dash and ‘single’ quotes stay.",
        "Run the tool with --verbose to see more.",
        "English & computer code, the set {0, 1}, and 50% of 3^2.",
    ],
)
def test_plain_text_is_untouched(text):
    assert clean_abstract(text) == text


def test_underscores_in_urls_are_not_emphasis():
    assert (
        clean_abstract("see _this_ at https://x.github.io/_a_b_/") == "see this at https://x.github.io/_a_b_/"
    )


def test_currency_before_real_math_stays_literal():
    assert clean_abstract("for under $20 USD, our attack on $d$-dim inputs") == (
        "for under $20 USD, our attack on d-dim inputs"
    )


# --- robustness ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("", ""),
        ("   \n\t ", ""),
        ("an unbalanced $x dollar", "an unbalanced $x dollar"),
        (r"an \textbf{unclosed brace", "an unclosed brace"),
        (r"a \emph{b}} stray brace", "a b stray brace"),
        ("ends with a lone backslash \\", "ends with a lone backslash"),
        ("\\", ""),
        ("$", "$"),
        (r"$\frac{1}$", "1/"),
    ],
)
def test_malformed_markup_degrades_gracefully(raw, clean):
    assert clean_abstract(raw) == clean


def test_pathological_nesting_does_not_raise():
    assert clean_abstract("\\textbf" + "{" * 5000 + "deep" + "}" * 5000) == "deep"


def test_non_text_gives_empty_string():
    assert clean_abstract(None) == ""


LATEX_PIECES = st.sampled_from(
    [*"\\${}^_*~&`'-%#()[]| aZ1.\n\t\x00\u200b\u00a0", "\\frac", "\\left(", "\\sqrt", "\\textbf", "\\url",
     "\\href", "\\cite", "$$", "\\begin{equation}", "\\over", "\\cal", "\\mathbb", "\\'", "\\not", "**",
     "https://a.b/c_d", "&amp;", "&#0;", "\\\\", "\\item"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.lists(LATEX_PIECES, max_size=30).map("".join)))
def test_clean_abstract_never_raises_and_returns_clean_text(text):
    result = clean_abstract(text)
    assert isinstance(result, str)
    assert not any(unicodedata.category(character) == "Cc" for character in result)
    assert result == result.strip()
    assert "  " not in result


# --- the seed files ------------------------------------------------------------------------------


def test_no_markup_survives_in_the_seed_files():
    paragraphs = seed_paragraphs()
    assert len(paragraphs) > 10
    for paragraph in paragraphs:
        cleaned = clean_abstract(paragraph)
        leftovers = [marker for marker in MARKUP_LEFTOVERS if marker in cleaned]
        assert not leftovers, (leftovers, cleaned)


def test_clean_many_matches_clean_abstract():
    paragraphs = seed_paragraphs()
    assert clean_many(iter(paragraphs)) == [clean_abstract(paragraph) for paragraph in paragraphs]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("***O**pen-world detection", "Open-world detection"),
        ("a ***bold italic*** word", "a bold italic word"),
        ("the ***S**calable method", "the Scalable method"),
        ("2**10 states", "2**10 states"),
        (
            "*Generalized* ***E****ncoding*-***D****ecoding ****D****iffusion ****M****odels* (EDDMs)",
            "Generalized Encoding-Decoding Diffusion Models (EDDMs)",
        ),
        ("**N**oisy **Q**ueries and MALA* with A* search", "Noisy Queries and MALA* with A* search"),
    ],
)
def test_nested_markdown_emphasis_is_removed(text, expected):
    assert clean_abstract(text) == expected
