"""ex6.6's formula part: the output of a head with exactly uniform weights."""

from __future__ import annotations

import json

import pytest

from symattn.grading.answers.formula import judge_formula


@pytest.mark.parametrize(
    "answer",
    [
        r"\frac{1}{N}\sum_{j=1}^{N} v_j",
        r"\frac{\sum_{i=1}^{N} v_i}{N}",
        r"\sum_{j=1}^{N} \frac{v_j}{N}",
        r"o_i = \frac{1}{N} \sum_{k=1}^{N} v_k",
        r"\frac{v_1 + v_2 + \dots + v_N}{N}",
        r"\frac{1}{N}\sum_{j=0}^{N-1} v_{j+1}",
        r"$\frac{1}{N} \left( \sum_{j=1}^{N} v_{j} \right)$",
    ],
)
def test_equivalent_forms_are_correct(answer):
    """Any form equal to the mean of the values for every N is correct."""
    assert judge_formula(answer).verdict == "correct"


@pytest.mark.parametrize(
    ("answer", "code"),
    [
        (r"\sum_{j=1}^{N} v_j", "sum-not-mean"),
        (r"\frac{1}{N}", "weight-not-output"),
        (r"v_j", "one-value"),
        (r"\frac{1}{N-1}\sum_{j=1}^{N} v_j", None),
        (r"\frac{1}{N}\sum_{j=1}^{N} v_{j+1}", None),
        (r"\frac{1}{N}\sum_{j=1}^{N-1} v_j", None),
    ],
)
def test_wrong_forms_are_incorrect(answer, code):
    v = judge_formula(answer)
    assert v.verdict == "incorrect" and v.mistake == code


@pytest.mark.parametrize(
    "answer",
    ["", r"\def\x{1}", r"\frac{1}{M}\sum_j v_j", r"v_{j", "x = 1", r"\frac{1}{N}\sum_{j=1}^{N} q_j"],
)
def test_unreadable_answers_are_invalid(answer):
    v = judge_formula(answer)
    assert v.verdict == "invalid" and v.feedback


def test_cli_checks_ex66_and_lists_the_new_kinds(cli):
    code, out, _ = cli("check", "ex6.6", r"\frac{1}{N}\sum_{j=1}^{N} v_j", "--json")
    assert code == 0 and json.loads(out)["verdict"] == "correct"
    code, out, _ = cli("check", "ex6.6", r"\sum_{j=1}^{N} v_j")
    assert code == 1 and "[sum-not-mean]" in out
    code, out, _ = cli("exercises")
    rows = dict(line.split("\t")[0::3] for line in out.splitlines())
    assert rows["ex6.3"] == rows["ex6.7"] == "(derivation checked step by step)"
    assert rows["ex6.6"] == "(formula checked; the rest model solution)"


@pytest.mark.parametrize(
    "answer",
    [
        r"((v_1+v_2+v_3+v_4+v_5+v_6)^4)^4",  # 20,349 terms once collected: 20 s of expanding
        r"(v_1 + v_2 + v_3)^{64}",
        r"\frac{1}{N}\sum_{j=1}^{200} v_j",  # a sum with whole-number bounds, written out
    ],
)
def test_answers_that_multiply_out_too_far_are_refused_before_any_worker(answer, monkeypatch):
    """Issue 49: the terms an answer multiplies out to are counted on its text (as a derivation
    step's are), so the verdict is the same on every machine and no worker is started."""
    from symattn.grading import worker
    from symattn.grading.proofs.step_reader import MAX_STEP_TERMS

    monkeypatch.setattr(worker, "isolated", lambda *a, **k: pytest.fail("a worker was started"))
    v = judge_formula(answer)
    assert (v.verdict, v.feedback) == (
        "invalid",
        f"too costly to check: multiplied out, it has more than {MAX_STEP_TERMS} terms",
    )


def test_a_form_equal_to_the_mean_but_not_proved_is_invalid_not_wrong():
    """Two sums whose difference is the mean, beyond the normal form: equal at N = 1..8, so not
    called wrong (the check at sizes once saw the values' label v as a stray symbol and called
    every such answer incorrect)."""
    v = judge_formula(r"\frac{1}{N}\sum_{j=1}^{2N} v_j - \frac{1}{N}\sum_{j=N+1}^{2N} v_j")
    assert v.verdict == "invalid" and v.feedback.startswith("equal to the mean at N = 1, ..., 8")
    assert judge_formula(r"\frac{1}{N}\sum_{j=1}^{2N} v_j").verdict == "incorrect"
