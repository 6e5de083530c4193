"""Figures said again in words right after the formula that computes them
(symattn/grading/audit/restated.py, issue 47, must-have 2): "..., or 16B parameters", "which is
512kB". The sentences are in the forms of public texts' worked examples, and of a hostile
review's cases (coincidences, conversions, alternatives); every expected verdict is worked by
hand."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims

RESTATED = "arithmetic: the value of the formula before it"
WRONG_RULE = "arithmetic: said to restate"


def _said(text: str) -> dict[str, str]:
    """The verdict on each figure in words this rule read."""
    return {c.text: c.verdict for c in audit_claims(text + "\n") if c.rule.startswith((RESTATED, WRONG_RULE))}


_PARAMETERS = "64 \\cdot (3 \\cdot 4e3 \\cdot 16e3) + 2 \\cdot 4e3 \\cdot 32e3"  # the figure stated is 16e9

CERTIFIED = {
    # 2 * 64 * 4096 = 524,288 bytes: 512 KiB, which texts write kB
    "512kB": "Per token, our KV caches are $$2 \\cdot 64 \\cdot 4096$$ in int8, which is 512kB / token.",
    "10.0 billion": "The run took $2.79e6 \\cdot 3600$ seconds, that is 10.0 billion seconds.",  # 1.0044e10
    "16B": f"this is $${_PARAMETERS} = 16e9$$, or 16B parameters.",
    "64k": "A context of $2^{16} = 65536$ tokens, or 64k tokens.",  # 64 * 1024
    "8B": "The model has $8 \\times 10^9$ parameters, or 8B parameters.",  # one digit, exact
    "0.5 MiB": "The cache holds $2 \\times 4096 \\times 64 = 524288$ bytes, or 0.5 MiB.",
    "1.05M": "With $d = 512$, one attention layer has $4d^2$ weights, or 1.05M.",  # 4 * 512^2 = 1,048,576
}


@pytest.mark.parametrize("figure", CERTIFIED)
def test_a_figure_said_again_after_its_formula_is_certified(figure):
    assert _said(CERTIFIED[figure]) == {figure: "certified"}


WRONG = {
    "15M": "The score table has $4096^2 = 16777216$ entries, i.e. 15M.",  # 16.8M
    "17B": f"this is $${_PARAMETERS} = 16e9$$, or 17B parameters.",
    "12.0 billion": "The run took $2.79e6 \\cdot 3600$ seconds, that is 12.0 billion seconds.",
    "600kB": "Per token, the cache is $$2 \\cdot 64 \\cdot 4096$$ bytes, i.e. 600kB.",  # nor 614,400
    # 2,000,000 is 2.0M; not a whole number of 1024s, so no binary reading makes it 1.9M
    "1.9M": "The embedding has $2000 \\cdot 1000 = 2000000$ parameters, or 1.9M.",
}


@pytest.mark.parametrize("figure", WRONG)
def test_a_figure_said_to_be_the_same_must_be_its_value(figure):
    assert _said(WRONG[figure]) == {figure: "wrong"}


LEFT_ALONE = [
    # a conversion after "which is": parameters to bytes, FLOPs to milliseconds
    "The model has $7 \\times 10^9$ parameters in fp16, which is 14 GB of weights.",
    "A layer takes $4096^2 \\times 128 = 2147483648$ FLOPs, which is 2.15 ms on a GPU.",
    # taken further than the formula went
    "A layer has $4 \\cdot 512^2 = 1048576$ attention weights, or 6.29M over the 6 layers.",
    "Each head has width $512/8 = 64$, i.e. 12.5% of the model width.",
    # another value, not the same one again
    "The base model has $d_{model} = 512$ or 1024 for the large model.",
    "One could use $2^{10} = 1024$ heads, or 2048.",
    # the same number as a figure of the line, another quantity: no restating word
    "The cache stores $2 \\times 96 \\times 12288 \\times 2 = 4718592$ bytes per token, so a context of 2048"
    " tokens needs 4.72 MB in all.",
    "The weights take $2 \\times 7000000000 = 14000000000$ bytes, so the model needs 7.0 GB.",
    "With $d_{model} = 512$ and $h = 8$, each head has 512 dimensions.",
    # a hostile review's cases: conversions, fractions and other units after "or" and "i.e."
    "The model has $2 \\times 10^9 \\cdot 2 = 4 \\times 10^9$ parameters, or 8 GB in fp16.",
    "The table has $4096^2 = 16777216$ entries, i.e. 32 MB in fp16.",
    "Training takes $6 \\cdot 10^6$ seconds, or 1.7k hours.",
    "Each head has $d_k = 512/8 = 64$ dimensions, i.e. 1/8 of the model width.",
    "There are $2^{10} = 1024$ positions, i.e. 10 bits.",
    "The weights take $2 \\cdot 8 \\cdot 10^9 = 16e9$ bytes, or 16B parameters.",
    "The cache holds $2 \\cdot 64 \\cdot 4096 = 524288$ values in fp16, which is 512kB.",
]


@pytest.mark.parametrize("text", LEFT_ALONE)
def test_what_is_not_said_again_is_left_to_the_other_rules(text):
    assert _said(text) == {}


def test_a_share_said_again_in_the_next_sentence():
    """The JAX scaling book's question 1: "... = 1/4. This gives us roughly 1/4 of parameters ..."."""
    from symattn.grading.audit.keys import audit_claims
    from symattn.grading.audit.restated import SHARE_RULE

    text = (
        "With $$N H = D$$ and $$F = 4D$$ the ratio of attention parameters to all parameters is "
        "$$4DNH / (4DNH + 3DF) = 4D^2 / (4D^2 + 12D^2) = 1/4$$. "
        "This gives us roughly 1/4 of parameters are used in attention.\n"
    )

    def verdicts(text: str) -> list[str]:
        return [c.verdict for c in audit_claims(text) if c.rule == SHARE_RULE]

    assert verdicts(text) == ["certified"]
    assert verdicts(text.replace("roughly 1/4 of", "roughly 1/3 of")) == ["wrong"]
    assert verdicts(text.replace("= 1/4$$. This", "= 1/4$$ in all layers. This")) == []


@pytest.mark.parametrize(
    ("half", "verdict"),
    [("1.513e15 FLOPs/s", "certified"), ("1.513 PFLOPs/s", "certified"), ("3.026e15 FLOPs/s", "wrong")],
)
def test_half_a_figure_in_its_own_units(half, verdict):
    from symattn.grading.audit.keys import audit_claims
    from symattn.grading.audit.restated import HALF_RULE

    text = (
        f"We find 3,026 TFLOPs/s of FP8 performance with sparsity, or typically half this ({half}) without.\n"
    )
    assert [c.verdict for c in audit_claims(text) if c.rule == HALF_RULE] == [verdict]


def test_a_figure_in_words_the_formula_after_it_uses_is_its_premise():
    from symattn.grading.audit.keys import audit_claims

    text = "2.79M H800 hours means $$2.79e6 * 1.513e15 * 60 * 60 = 1.52e25$$ total FLOPs.\n"
    assert [(c.verdict, c.text) for c in audit_claims(text)] == [
        ("certified", "⟨2.79e6 * 1.513e15 * 60 * 60 = 1.52e25⟩")
    ]
    other = "2.5M H800 hours means $$2.79e6 * 1.513e15 * 60 * 60 = 1.52e25$$ total FLOPs.\n"
    assert "unchecked" in [
        c.verdict for c in audit_claims(other)
    ]  # not the formula's figure: a claim of its own
