"""Premises as a reader takes them (symattn/grading/audit/rules.py): a value stated earlier in
the section, or earlier in the claim's own sentence, holds for every member of a later chain
until it is stated again; the verdict says which it used. Texts written here by hand."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims


def _claims(text: str) -> list[tuple[int, str, str]]:
    return [(c.line, c.verdict, c.rule) for c in audit_claims(text)]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # issue 47: a premise in the same sentence made this true claim "wrong"
        ("With $h = 8$ and $d_{model} = 512$, each head has width $d_k = d_{model}/h = 64$.\n", "certified"),
        # and in a chain a = b = 32 the number was never compared
        ("Let $h = 8$ and $d_{model} = 512$.\n\nEach head has width $d_k = d_{model}/h = 32$.\n", "wrong"),
        ("With $h = 8$ heads and $d_{model} = 512$, each head has width $d_{model}/h = 32$.\n", "wrong"),
        ("Let $h = 8$ and $d_{model} = 512$.\n\nEach head has width $d_{model}/h = 64$.\n", "certified"),
    ],
)
def test_a_value_given_earlier_holds_for_every_member_of_a_chain(text, verdict):
    claims = _claims(text)
    assert [v for _, v, _ in claims] == [verdict], claims
    assert claims[0][2].endswith("given h = 8, d_model = 512")  # the premises the verdict used


def test_a_value_holds_until_it_is_stated_again():
    text = "Let $h = 8$ and $d_{model} = 512$.\n\nNow let $h = 16$.\n\nA head is $d_{model}/h = 32$ wide.\n"
    assert [v for _, v, _ in _claims(text)] == ["certified"]


def test_a_value_holds_past_its_section_until_it_is_given_again():
    """Issue 47: given values apply until redefined, in later paragraphs and sections too; one
    given in an earlier section may certify a claim but never condemn it (it may be another
    example's: a review found a later section's model flagged with an earlier model's F)."""
    text = "# One\n\nLet $h = 8$ and $d_{model} = 512$.\n\nThen $d_{model}/h = 32$.\n\n"
    text += "# Two\n\nNow $d_{model}/h = 32$.\n"
    claims = _claims(text)
    assert [v for _, v, _ in claims] == ["wrong", "unchecked"]
    assert audit_claims(text)[1].rule.startswith("wrong only with d_model, h as given in an earlier section")
    again = text.replace("# Two\n", "# Two\n\nHere we take $h = 16$.\n")
    assert [v for _, v, _ in _claims(again)] == ["wrong", "certified"]


@pytest.mark.parametrize(
    "given",
    [
        "We use $h = 8$ heads and $d_{model} = 512$.",
        "The model has $h = 8$ heads; its width is $d_{model} = 512$.",
    ],
)
def test_a_formula_that_only_gives_a_value_is_a_premise_not_a_claim(given):
    """Not only "Let ..." gives: any formula ``name = number`` outside a sentence that supposes."""
    claims = _claims(given + "\n\nEach head has width $d_{model}/h = 32$.\n")
    assert [(line, v) for line, v, _ in claims] == [(3, "wrong")]
    supposed = "A model with $h = 16$ heads would be slower.\n\nIt has $d_{model}/h = 64$."
    assert [v for _, v, _ in _claims(given + "\n\n" + supposed)] == ["certified"]


def test_given_values_are_not_counted_as_claims():
    text = "Let $h = 8$ and $d_{model} = 512$.\n\nWith $d_k = 64$ and $h = 8$, the width is $h d_k = 512$.\n"
    assert [(line, v) for line, v, _ in _claims(text)] == [(3, "certified")]


@pytest.mark.parametrize(
    ("text", "verdicts"),
    [
        # review: a value said of a model in passing is no premise of what follows
        (
            "Let $h = 8$ and $d_{model} = 512$.\n\nA model with $d_k = 32$ would need more heads.\n\n"
            "Each head has $d_k = d_{model}/h = 64$ dimensions.\n",
            ["certified"],
        ),
        # a name given two values before the claim: which holds is a guess, and decides nothing
        ("Take $d_k = 64$.\n\nNow take $d_k = 16$.\n\nAt full size, $\\sqrt{d_k} = 8$.\n", ["unchecked"]),
        # the value after a list of givens is a claim, never taken as given (nor lost)
        ("For $d_{model} = 512$ and $h = 8$, $d_k = 60$.\n", ["unchecked"]),
    ],
)
def test_only_a_sentence_that_gives_values_gives_them(text, verdicts):
    assert [v for _, v, _ in _claims(text)] == verdicts, _claims(text)


def test_a_lone_given_with_thousands_separators_is_a_premise():
    """``$V=32,000$`` gives V, as ``$V = 32000$`` does: a premise, not a claim."""
    from symattn.grading.audit.keys import audit_module

    text = "Take a vocabulary of $V=32,000$ tokens and $D = 4$: the table holds $V \\cdot D = 128,000$.\n"
    claims = audit_module(text).claims
    assert [(c.verdict, c.text) for c in claims] == [("certified", "⟨V * D = 128,000⟩")]


@pytest.mark.parametrize(
    "claim",
    [
        "our activations will use `16*8192=131kB`",  # 131,072 bytes: 131 kB to its digits
        "that is $2 \\cdot 8 \\cdot 128 \\cdot 80 = 160kB$",
        "in all $41.9e9 + 70e9 = 112GB$",
        "that leaves us \\(120-104 = 16GB\\) left",  # the unit, written once, is the chain's
    ],
)
def test_figures_in_units_are_read_to_their_digits(claim):
    """Review findings on public texts: a figure in kB or GB is no exact whole number of bytes."""
    assert [v for _, v, _ in _claims(f"So {claim}.\n")] == ["certified"]
    assert [v for _, v, _ in _claims(f"So {claim.replace('1', '7', 1)}.\n")] == ["wrong"]


@pytest.mark.parametrize("claim", ["$\\Phi(0) = 1/2$", "$v(0) = 1$", "$f(2) = 5$"])
def test_a_function_at_a_point_is_not_a_product(claim):
    """v(0) is the text's function at 0, not v times 0 (which a product would make 0)."""
    assert [v for _, v, _ in _claims(f"Here {claim}.\n")] == ["unchecked"]


def test_a_definition_is_not_certified_by_itself():
    """X = sqrt(N/8) names X: comparing X with its own definition certifies nothing."""
    assert "certified" not in [v for _, v, _ in _claims("We claim the optimum is $X = \\sqrt{N/8}$.\n")]


def test_sides_of_one_shape_do_not_certify_an_equation_between_values():
    """A softmax written with its scale in the wrong place: each side a scalar, the equation false."""
    text = (
        "With $q_i, k_j \\in \\mathbb{R}^{d_k}$, the weight is "
        "$a_{ij} = \\text{softmax}(q_i k_j^T / \\sqrt{d_k})"
        " = \\exp(q_i k_j^T) / (\\sqrt{d_k} \\sum_r \\exp(q_i k_r^T))$.\n"
    )
    assert "certified" not in [v for _, v, _ in _claims(text)]


def test_every_module_of_rules_is_described_in_the_guide():
    """The registry of rules is the list: each module a rule of it lives in has its bullet in
    the audit guide (symattn/present/guide/auditing.md), named by its path."""
    from pathlib import Path

    from symattn.grading.audit.rules import RULES

    guide = (Path(__file__).resolve().parents[3] / "symattn" / "present" / "guide" / "auditing.md").read_text(
        encoding="utf-8"
    )
    modules = {rule.__module__.rsplit(".", 1)[1] for rule in RULES}
    assert modules and not [m for m in sorted(modules) if f"symattn/grading/audit/{m}.py" not in guide]


def test_values_a_sentence_gives_in_words_are_the_givens_of_its_worked_example():
    """The JAX scaling book's checkpointing example: L and D given in plain words, B·T as a
    product: 2 · 20 · 4e6 · 8192 · 64 = 8.4e13 bytes, 84 TB."""
    from symattn.grading.audit.keys import audit_claims

    text = (
        "A model with $$B * T=4M$$ (4M total tokens per batch), L=64, and D=8192 would have to save "
        "roughly $$2 * 20 * B * T * D * L = 84TB$$ of activations.\n"
    )
    claims = audit_claims(text)
    assert [(c.verdict, c.text) for c in claims] == [("certified", "⟨2 * 20 * B * T * D * L = 84TB⟩")]
    assert [c.verdict for c in audit_claims(text.replace("84TB", "42TB"))] == ["wrong"]
    # in another sentence, the values are not this formula's givens
    apart = text.replace("D=8192 would have to save roughly", "D=8192. It would save")
    assert "certified" not in [c.verdict for c in audit_claims(apart)]


def test_a_numbered_questions_data_are_givens():
    from symattn.grading.audit.keys import audit_claims
    from symattn.grading.audit.notclaims import NOT_A_CLAIM, QUESTION

    text = "**Question 2:** How many FLOPs does $A[B, D] \\cdot W[D, F]$ take on `{'X': 4, 'Y': 8}`?\n"
    claims = audit_claims(text)
    assert claims and {(c.verdict, c.rule) for c in claims} == {(NOT_A_CLAIM, QUESTION)}


def test_a_relation_a_question_states_is_still_a_claim():
    from symattn.grading.audit.keys import audit_claims

    text = "**Question 3:** Since $12 \\times 64 = 640$, how many dimensions do 12 heads of 64 hold?\n"
    assert [c.verdict for c in audit_claims(text)] == ["wrong", "not a claim"]  # the rest is its data


def test_a_judged_claim_is_certified_when_it_holds_and_wrong_when_not():
    from symattn.grading.audit.match import Claim
    from symattn.grading.audit.said import Said

    held = Claim.judged(3, "x", True, Said("1"), "rule", [(0, 1)], through=5)
    failed = Claim.judged(3, "x", False, Said("1"), "rule", [(0, 1)])
    assert (held.verdict, held.through, failed.verdict, failed.through) == ("certified", 5, "wrong", 0)


def test_a_product_given_in_m_is_read_as_the_result_reads_it():
    """4M tokens may be 4·10⁶ or 4·2²⁰: the reading the stated result agrees with (88TB is 4·2²⁰)."""
    from symattn.grading.audit.keys import audit_claims

    text = (
        "A model with $$B * T=4M$$ tokens, L=64, and D=8192 would save roughly "
        "$$2 * 20 * B * T * D * L = 88TB$$ of activations.\n"
    )
    assert [c.verdict for c in audit_claims(text)] == ["certified"]
    assert [c.verdict for c in audit_claims(text.replace("88TB", "70TB"))] == ["wrong"]
    twice = "For L=32 and D=4096, and L=64 and D=8192, we get $$2 * L * D = 262144$$.\n"
    assert "wrong" not in [c.verdict for c in audit_claims(twice)]  # L given twice: given nothing


def test_answers_are_read_where_the_text_has_no_exercises():
    from symattn.grading.audit.keys import audit_claims

    text = "**Answer:** the cost is $2 \\cdot 2 \\cdot 4 \\cdot 8 \\cdot 16 = 4096$.\n"
    assert [c.verdict for c in audit_claims(text)] == ["wrong"]
