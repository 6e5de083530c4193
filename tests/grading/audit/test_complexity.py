"""Chains of O-classes under the sizes a text relates (symattn/grading/audit/complexity.py,
issue 47). Texts written here after Goon's notes on flash attention; verdicts from reading."""

from __future__ import annotations

import pytest

from symattn.grading.audit.complexity import CHAIN_RULE
from symattn.grading.audit.keys import audit_claims

CHUNKS = (
    "The queries are cut into $I$ chunks of $R$ rows, with $S=RI$, and the keys into $J$ chunks of "
    "$C$ rows, with $S=JC$.\n\n"
    "The inner loop accesses $O(IJCH) \\sim O(\\frac{HS^2}{R})$ elements over the algorithm.\n"
)


def _chains(text: str) -> list[tuple[int, str, str | None]]:
    return [(c.line, c.verdict, c.value) for c in audit_claims(text) if c.rule == CHAIN_RULE]


def test_a_chain_that_holds_once_the_sizes_are_related_is_certified():
    [(line, verdict, said)] = _chains(CHUNKS)
    assert (line, verdict) == (3, "certified")
    assert said == "O(C*H*I*J) is O(H*S^2/R) once S = I*R, S = C*J"


@pytest.mark.parametrize("wrong", ["\\frac{HS^2}{R^2}", "HS^2", "\\frac{HS}{R}"])
def test_a_chain_off_by_a_related_size_is_flagged(wrong):
    assert [v for _, v, _ in _chains(CHUNKS.replace("\\frac{HS^2}{R}", wrong))] == ["wrong"]


def test_a_chain_is_not_judged_without_the_relations_or_with_a_size_held_fixed():
    """Without S=RI and S=JC, O(IJCH) and O(HS^2/R) are in letters nothing ties together; a
    letter no relation names (d here) may be held fixed by words the audit does not read."""
    assert _chains("The loop accesses $O(IJCH) \\sim O(\\frac{HS^2}{R})$ elements.\n") == []
    assert _chains("Here $O(n^2 d) = O(n^2)$ operations.\n") == []
    assert _chains(CHUNKS.replace("over the algorithm", "for fixed $R$")) == []


LINEAR = r"""Tensors $ z _{ bsd } $, $ x _{ bsd } $, $ y _{ bsd' } $, $ u _{ bsd } $, $ q _{ bs'd } $
(sizes $B, S, D$).

Computing the $ z _{ sd } $ in parallel requires generating $ S $ different matrices $ B ^{ s }_{ d'd } $,
one for each token position. Flash-attention-like techniques avoid materializing all of
the $ \mathcal{O}\left( SD ^{ 2 } \right) $ elements at once.
"""


def test_tensors_in_index_notation_hold_the_product_of_their_ranges():
    """Goon's notes, line 613: S matrices B^s_{d'd}, d and d' running to D, hold S·D² elements."""
    from symattn.grading.audit.complexity import ELEMENTS_RULE
    from symattn.grading.audit.keys import audit_module
    from symattn.grading.audit.sources import read_source

    def verdicts(text: str) -> list[tuple[int, str]]:
        claims = audit_module(read_source(text, "latex")).claims
        return [(c.line, c.verdict) for c in claims if c.rule == ELEMENTS_RULE]

    assert verdicts(LINEAR) == [(6, "certified")]
    assert verdicts(LINEAR.replace("SD ^{ 2 }", "S ^{ 2 } D ^{ 2 }")) == [(6, "wrong")]
    assert verdicts(LINEAR.replace("SD ^{ 2 }", "SD")) == [(6, "wrong")]


def test_a_tensor_named_after_its_o_class_holds_the_product_of_its_ranges():
    """Goon's notes, line 600: "cache the O(D^2) B_{d'd} matrix", d and d' running to D."""
    from symattn.grading.audit.complexity import ELEMENTS_RULE
    from symattn.grading.audit.keys import audit_module
    from symattn.grading.audit.sources import read_source

    text = (
        LINEAR
        + "\nThis would let us cache the $ \\mathcal{O}\\left( D ^{ 2 } \\right) $ $ B _{ d'd } $ matrix.\n"
    )

    def verdicts(text: str) -> list[tuple[int, str]]:
        claims = audit_module(read_source(text, "latex")).claims
        return [(c.line, c.verdict) for c in claims if c.rule == ELEMENTS_RULE]

    assert verdicts(text) == [(6, "certified"), (8, "certified")]
    assert verdicts(text.replace("left( D ^{ 2 } \\right) $ $ B", "left( S D \\right) $ $ B")) == [
        (6, "certified"),
        (8, "wrong"),
    ]


def test_the_attention_weights_saved_hold_the_elements_of_the_tensor_named_so():
    """Goon's notes, line 503: the attention map w_{bss'a} saved per layer holds A·B·S² elements."""
    from symattn.grading.audit.complexity import ELEMENTS_RULE
    from symattn.grading.audit.keys import audit_module
    from symattn.grading.audit.sources import read_source

    text = (
        r"Tensors $ z _{ bsd } $, $ q _{ bsea } $, $ k _{ bs'ea } $ (sizes $B, S, D, E, A, V$): "
        r"$ q _{ bsea } = z _{ bsd } Q _{ dea } $ and $ y _{ bsea } = w _{ bss'a } v _{ bs'ea } $."
        "\n\nWe build up an attention map $ w _{ bss'a } $ from the queries and keys.\n\n"
        r"A naive algorithm has a $ \mathcal{O}\left( ABS ^{ 2 } \right) $ per-layer contribution to "
        "activation memory due to needing to save the attention weights.\n"
    )

    def verdicts(text: str) -> list[str]:
        return [c.verdict for c in audit_module(read_source(text, "latex")).claims if c.rule == ELEMENTS_RULE]

    assert verdicts(text) == ["certified"]
    assert verdicts(text.replace("ABS ^{ 2 }", "ABS")) == ["wrong"]
    assert verdicts(text.replace("attention map $ w _{ bss'a } $", "attention map")) == []


@pytest.mark.parametrize(
    ("sentence", "verdicts"),
    [
        (
            "For a matrix-matrix multiply, the compute scales cubically $O(N^3)$ while the data transfer "
            "only scales quadratically $O(N^2)$.",
            ["certified", "certified"],
        ),
        ("The KV cache's memory scales linearly $O(T^2)$ in the context length.", ["wrong"]),
        ("For a matrix-matrix multiply, the compute scales cubically $O(N^2)$.", ["wrong"]),
        ("The memory traffic scales linearly $O(N)$ in this kernel.", ["certified"]),
    ],
)
def test_a_word_for_growth_and_its_o_class(sentence, verdicts):
    from symattn.grading.audit.complexity import SCALING_RULE

    assert [c.verdict for c in audit_claims(sentence + "\n") if c.rule == SCALING_RULE] == verdicts


def test_the_flops_of_an_example_contraction_of_two_arrays():
    """The JAX scaling book: C[GHIJKL] and D[GHMNKL] share G, H (batch) and K, L (contracted)."""
    text = (
        "If we have two arrays (e.g. $C[GHIJ KL], D[GHMN KL]$) then the FLOPs cost of this contraction is "
        "two times the product of all of the dimensions counted once, (e.g. $2GHIJMN KL$).\n"
    )
    verdicts = [c.verdict for c in audit_claims(text) if c.rule.startswith("contraction FLOPs")]
    assert verdicts == ["certified"]
    wrong = text.replace("$2GHIJMN KL$", "$2GHIJMN K$")
    assert [c.verdict for c in audit_claims(wrong) if c.rule.startswith("contraction FLOPs")] == ["wrong"]
