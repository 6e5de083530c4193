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
