"""Words for how big a quantity is (symattn/grading/audit/magnitudes.py, issue 47): the values
a sentence gives put into the formula just stated. Texts after Goon's notes on flash attention."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims
from symattn.grading.audit.magnitudes import RULE

TEXT = (
    "Filling the on-chip memory gives $\\frac{H}{R} \\sim \\frac{H^2}{M}$. Since $M \\sim 10^5$ bytes on "
    "2023 GPUs, this is a small factor for the typical head dimensions $H \\sim 64$, as desired.\n"
)


def _verdicts(text: str) -> list[tuple[str, str | None]]:
    return [(c.verdict, c.value) for c in audit_claims(text) if c.rule == RULE]


def test_a_small_factor_is_put_to_the_values_its_sentence_gives():
    assert _verdicts(TEXT) == [("certified", "H^2/M ≈ 0.041 with H = 64, M = 100000")]


@pytest.mark.parametrize(
    "change, verdicts",
    [
        (("H \\sim 64", "H \\sim 2048"), [("wrong", "H^2/M ≈ 41.9 with H = 2048, M = 100000")]),
        (("H \\sim 64", "H \\sim 200"), []),  # 0.4: between clearly small and clearly not
        (("H \\sim 64", "H \\sim 1024"), [("wrong", "H^2/M ≈ 10.5 with H = 1024, M = 100000")]),
        # "a large factor" speaks of what a factor multiplies; "a small number" of another scale
        (("a small factor", "a large factor"), []),
        (("this is a small factor", "this is a small number"), []),
        (("H \\sim 64", "H"), []),  # a letter the sentence gives no value: nothing to put in
    ],
)
def test_a_word_for_a_size_is_judged_only_where_it_is_clear(change, verdicts):
    assert _verdicts(TEXT.replace(*change)) == verdicts


FEW = (
    "As our model achieves ~94% accuracy, we only have very little number of mistakes in a batch of "
    "64 sets.\n"
)


def test_few_mistakes_at_the_models_own_accuracy():
    from symattn.grading.audit.magnitudes import FEW_RULE

    def verdicts(text: str) -> list[tuple[str, str | None]]:
        return [(c.verdict, c.value) for c in audit_claims(text) if c.rule == FEW_RULE]

    assert verdicts(FEW) == [
        ("certified", "mistakes are 100 % − 94 % = 6 % of the predictions, about 3.84 of 64")
    ]
    assert verdicts(FEW.replace("~94%", "~50%")) == [
        ("wrong", "mistakes are 100 % − 50 % = 50 % of the predictions, about 32 of 64")
    ]
    assert verdicts(FEW.replace("~94%", "~80%")) == []  # 20 %: neither clearly few nor clearly not
    for other in (
        "A random guesser has 10% accuracy, whereas our transformer makes only a few mistakes.",
        "A model with 50% accuracy would make more than a few mistakes in a batch of 64 sets.",
        "The small model reaches 60% accuracy and makes many mistakes, while the large one makes few "
        "mistakes.",
        "As our model achieves ~94% accuracy, we have very few mistakes in a batch of 64 sets, about "
        "20 of them.",
    ):
        assert verdicts(other + "\n") == []
