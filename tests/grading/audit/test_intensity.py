"""Arithmetic intensity (symattn/grading/audit/intensity.py, issue 47): the JAX scaling book's
Question 4. Expected values by hand: the reshape makes N = KG; in bf16 Q and its output move
2·2BTNH bytes, K and V 2·2BSKH; the two products cost 2BTSKGH each."""

from __future__ import annotations

import pytest

from symattn.grading.audit.intensity import RULE
from symattn.grading.audit.keys import audit_claims

TEXT = (
    "Self-attention loads Q, K and V, then writes the result back. Basically in bf16 "
    "self-attention performs\n"
    "\n"
    "$$\\text{Q[B,T,N,H]} \\rightarrow_\\text{reshape} \\text{Q[B, T, K, G, H]} \\cdot "
    "\\text{K[B, S, K, H]} \\rightarrow \\text{O[B, T, S, K, G]}$$\n"
    "\n"
    "$$U=\\text{softmax}_S(\\text{O[B, T, S, K, G]})$$\n"
    "\n"
    "$$\\text{U[B, T, S, K, G]} \\cdot \\text{V[B, S, K, H]} \\rightarrow \\text{X[B, T, K, G, "
    "H]}$$\n"
    "\n"
    "So our total bytes is $$2 * \\text{sizeof}(Q) + 2 * \\text{sizeof(K or V)} = 4BTNH + "
    "4BSKH = 4BHK * (TG + S)$$, total FLOPs is $$4BTSNH + O(BTSN)$$ and the arithmetic "
    "intensity is $$4BTSKGH / (4BHK * (TG + S))$$.\n"
    "\n"
    "So basically, during prefill we have $$S=T$$ so we have an arithmetic intensity of "
    "$$4BT^2KGH / 4BHKT \\cdot (G+1) = TG/(G + 1) = O(T)$$. During generation, $$T=1$$ so "
    "we have $$4BSKGH / (4BHK \\cdot (G + S)) = SG / (G + S) \\rightarrow G$$ assuming $$S$$ "
    "is very large.\n"
    "\n"
)


def _verdicts(text: str) -> list[str]:
    return [c.verdict for c in audit_claims(text) if c.rule == RULE]


def test_bytes_flops_and_intensity_and_their_special_cases():
    assert _verdicts(TEXT) == ["certified"] * 5
    said = [c.value for c in audit_claims(TEXT) if c.rule == RULE]
    assert "(with N = G*K, a reshape)" in said[0]
    assert said[3].endswith("4BT^(2)KGH / 4BHKT * (G+1) read as (4BT^(2)KGH)/(4BHKT * (G+1))")


@pytest.mark.parametrize(
    ("change", "k"),
    [
        ("= 4BTNH + 4BSKH", "= 4BTNH + 2BSKH"),  # K and V are two arrays
        ("in bf16", "in fp32"),  # 4 bytes an entry: the bytes are twice what is stated
        ("is $$4BTSNH + O", "is $$2BTSNH + O"),  # two products
        ("(4BHK * (TG + S))$$.", "(4BHK * (T + S))$$."),
        ("= TG/(G + 1)", "= TG/(G + 2)"),
        ("\\rightarrow G$$", "\\rightarrow 1$$"),  # the limit as S grows is G
    ],
)
def test_each_wrong_member_is_flagged(change, k):
    assert _verdicts(TEXT.replace(change, k)).count("wrong") >= 1


def test_without_the_type_nothing_is_read():
    assert _verdicts(TEXT.replace("in bf16 ", "")) == []


def test_a_text_that_names_two_types_is_not_read():
    """A hostile review's true text: Q and X in bf16, the KV cache in int8 (one byte an entry)."""
    mixed = TEXT.replace("Basically in bf16", "Basically with Q in bf16 and the KV cache in int8,").replace(
        "= 4BTNH + 4BSKH = 4BHK * (TG + S)", "= 4BTNH + 2BSKH = 2BHK * (2TG + S)"
    )
    assert "wrong" not in _verdicts(mixed)
