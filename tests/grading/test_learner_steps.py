"""Reading a learner's derivation: layout into steps, LaTeX into syntax trees, refusals."""

from __future__ import annotations

import pytest

from symattn.grading.learner_steps import StepSyntaxError, parse_expression, read_lines


def test_chains_comments_and_blank_lines():
    """'A = B' starts a chain, '= C' continues it; comments and blank lines are skipped."""
    text = "% a comment\n\nA = B  % trailing\n= C\n\n$D = E$.\n"
    lines = read_lines(text)
    assert [(ln.number, ln.lhs, ln.rhs) for ln in lines] == [(3, "A", "B"), (4, None, "C"), (6, "D", "E")]


def test_equals_inside_braces_does_not_split():
    """The '=' of a summation index is not a step."""
    (line,) = read_lines(r"\operatorname{Var}(z) = \sum_{i=1}^{d_k} 1")
    assert line.rhs == r"\sum_{i=1}^{d_k} 1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("= C", "no chain has started"),
        ("A = B = C", "one '='"),
        ("A", "one '='"),
        ("A = ", "nothing after"),
        (r"\operatorname{Var}(z = 1", "unmatched '('"),
    ],
)
def test_bad_layout_is_reported_on_its_line(text, message):
    """A line that is not a step carries a one-line reason."""
    (line,) = read_lines(text)
    assert message in line.error


def test_empty_derivation_is_refused():
    with pytest.raises(StepSyntaxError, match="no steps"):
        read_lines("% nothing\n\n")


@pytest.mark.parametrize(
    ("latex", "tree"),
    [
        (
            r"\mathbb{E}[q_i]^2",
            ("pow", ("op", "E", ("id", "q", ("id", "i", None, None), None)), ("num", "2")),
        ),
        (r"E[q_1]", ("op", "E", ("id", "q", ("num", "1"), None))),
        (r"\mathrm{Var}(z)", ("op", "Var", ("id", "z", None, None))),
        (r"W^{Q}", ("id", "W", None, "Q")),
        (r"X^\top", ("T", ("id", "X", None, None))),
        (r"X^{T}", ("T", ("id", "X", None, None))),
        (r"\frac{1}{d_k}", ("mul", ("num", "1"), ("inv", ("id", "d", ("id", "k", None, None), None)))),
        (
            r"\left(P\right) X",
            ("mul", ("group", ("id", "P", None, None)), ("id", "X", None, None)),
        ),
    ],
)
def test_readings(latex, tree):
    """Each notation of the issue's list is read as the written mathematics."""
    assert parse_expression(latex) == tree


def test_sum_body_is_one_product():
    """\\sum_{i=1}^{n} a b + c sums a b only, as in print."""
    tree = parse_expression(r"\sum_{i=1}^{d_k} q_i k_i + 1")
    assert tree[0] == "add" and tree[1][0] == "sum" and tree[1][4][0] == "mul"


@pytest.mark.parametrize(
    ("latex", "message"),
    [
        (r"\def\x{1}", r"\\def"),
        (r"\input{/etc/passwd}", r"\\input"),
        ("__import__('os')", "character|program code"),
        ("1" * 30, "digits"),
        ("(" * 40 + "1" + ")" * 40, "nested"),
        ("x \u2192 y", "character"),
        (r"\sqrt[3]{x}", "square roots"),
        ("x^12", "braces"),
        ("z )", "unmatched"),
        ("z +", "ends too early"),
    ],
)
def test_hostile_or_malformed_input_is_refused(latex, message):
    """Refusals are one sentence, and nothing is evaluated."""
    with pytest.raises(StepSyntaxError, match=message):
        parse_expression(latex)
