"""Heads, their width and the model's width in one sentence of words
(symattn/grading/audit/heads.py, issue 47, must-have 2): h heads of width d_k make a model of
width h · d_k, judged where the sentence draws that conclusion itself. The expected values are
worked by hand: 8 x 64 = 512, 512 / 8 = 64, 768 / 12 = 64, 96 x 128 = 12288."""

from __future__ import annotations

import pytest

from symattn.grading.audit.heads import RULE
from symattn.grading.audit.keys import audit_claims

CASES = {
    "the model's width concluded": ("We use 8 heads of width 64, so the model width is 512.", "512", "256"),
    "a head's width from a split": (
        "The model width of 512 is split over 8 heads, giving each head 64 dimensions.",
        "64",
        "48",
    ),
    "a split in the plural": (
        "The 768 dimensions are split over 12 heads, so each head has 64 dimensions.",
        "64",
        "96",
    ),
    "after i.e.": (
        "GPT-3 uses 96 heads with a head dimension of 128, i.e. a model width of 12288.",
        "12288",
        "12888",
    ),
}


def _heads(text: str) -> list[tuple[str, str]]:
    return [(c.text, c.verdict) for c in audit_claims(text + "\n") if c.rule == RULE]


@pytest.mark.parametrize("name", CASES)
def test_the_size_a_sentence_concludes_is_certified(name):
    text, figure, _ = CASES[name]
    assert _heads(text) == [(figure, "certified")]


@pytest.mark.parametrize("name", CASES)
def test_a_wrong_size_concluded_is_flagged(name):
    text, figure, planted = CASES[name]
    assert text.count(figure) == 1
    assert _heads(text.replace(figure, planted)) == [(planted, "wrong")]


@pytest.mark.parametrize(
    "text",
    [
        # a model that gives its heads a width of their own (Gemma 7B): a description, no conclusion
        "Gemma has 16 heads of width 256 and a model width of 3072.",
        # two sizes only
        "We use 8 heads, so each head has 64 dimensions.",
        # a hostile review's cases: the concluding word concludes something else
        "Gemma 7B uses 16 heads of width 256, so their outputs are projected back to a model width of 3072.",
        "It uses 16 heads of width 256 (a so-called wide head) and a model width of 3072.",
        "T5-11B has 128 heads of size 128 (i.e. an inner width of 16384) and a model dimension of 1024.",
        "GPT-2 small has 12 heads of width 64, so its MLP hidden size is 3072.",
        "BERT-base has 12 heads and BERT-large 16 heads, all heads of size 64, so the hidden size is 768.",
        "There are 96 heads over 12 layers, each head of width 64, so the model width is 6144.",
        "The 512 dimensions are split over 0 heads, so each head has 64.",
    ],
)
def test_sizes_only_listed_are_not_judged(text):
    assert _heads(text) == []


MQA = (
    "In multi-query attention, the $A$ different key and value matrices are replaced by a single\n"
    "matrix each, while $A$ different query-heads remain.\n\n"
    "The primary reason is that it vastly reduces the size of the kv-cache during inference, decreasing\n"
    "the memory-burden of the cache by a factor of $A$.\n"
)


def test_copies_replaced_by_one_shrink_what_they_hold_by_their_number():
    """Goon's notes, line 336: A key/value heads shared as one shrink the kv-cache A-fold."""
    from symattn.grading.audit.heads import SHARED_RULE

    def verdicts(text: str) -> list[tuple[int, str]]:
        return [(c.line, c.verdict) for c in audit_claims(text) if c.rule == SHARED_RULE]

    assert verdicts(MQA) == [(5, "certified")]
    assert verdicts(MQA.replace("factor of $A$", "factor of $A^2$")) == [(5, "wrong")]
    assert verdicts(MQA.replace("are replaced by a single", "are kept beside a single")) == []


def test_heads_shared_in_groups_shrink_the_cache_by_the_group():
    """Grouped-query attention (a hostile review's case): A heads shared one per group of G make
    the cache G times smaller; savings counted together with others are not read."""
    from symattn.grading.audit.heads import SHARED_RULE

    gqa = (
        "In grouped-query attention, the $A$ different key and value heads are replaced by a single head "
        "for each group of $G$ query heads. This reduces the kv-cache, cutting its memory "
        "by a factor of $G$.\n"
    )

    def verdicts(text: str) -> list[str]:
        return [c.verdict for c in audit_claims(text) if c.rule == SHARED_RULE]

    assert verdicts(gqa) == ["certified"]
    assert verdicts(gqa.replace("factor of $G$", "factor of $A$")) == ["wrong"]
    also = MQA.replace(
        "decreasing\nthe memory-burden", "together with 8-bit storage, decreasing\nthe memory-burden"
    )
    assert verdicts(also) == []


def test_a_factor_said_of_something_else_than_the_cache_is_not_read():
    from symattn.grading.audit.heads import SHARED_RULE

    flops = MQA.split("\n\n")[0] + (
        "\n\nThis shrinks the kv-cache and reduces the attention FLOPs by a factor of $A$.\n"
    )
    assert [c for c in audit_claims(flops) if c.rule == SHARED_RULE] == []
