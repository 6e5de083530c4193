"""ex6.3's world: E and Var for a symbolic width, the rules as checked lemmas, the slips."""

from __future__ import annotations

import pytest
import sympy as sp
from sympy import stats

from symattn.grading.proofs import variance_world as ls
from symattn.grading.proofs.step_reader import StepSyntaxError, parse_expression


def read(latex: str) -> sp.Basic:
    return ls.canon(ls.build(parse_expression(latex)))


def by_stats(latex: str, n: int) -> sp.Expr:
    """The same expression at width n computed by sympy.stats on 2n Rademacher variables,
    written out by hand here (no code shared with symattn's evaluation)."""
    q = [stats.Rademacher(f"tq{t}") for t in range(n)]
    k = [stats.Rademacher(f"tk{t}") for t in range(n)]
    z = sum(a * b for a, b in zip(q, k, strict=True))
    table = {
        r"\operatorname{Var}(z)": lambda: stats.variance(z),
        r"\operatorname{Var}(z/\sqrt{d_k})": lambda: stats.variance(z / sp.sqrt(n)),
        r"\mathbb{E}[z]": lambda: stats.E(z),
        r"\mathbb{E}[z^2]": lambda: stats.E(z**2),
        r"\operatorname{Var}(q_1 k_1)": lambda: stats.variance(q[0] * k[0]),
        r"\mathbb{E}[q_1^2 k_1^2]": lambda: stats.E(q[0] ** 2 * k[0] ** 2),
        r"\operatorname{Var}(z + q_1)": lambda: stats.variance(z + q[0]),
        r"\operatorname{Var}(2 z)": lambda: stats.variance(2 * z),
    }
    return sp.simplify(table[latex]())


@pytest.mark.parametrize(
    "latex",
    [
        r"\operatorname{Var}(z)",
        r"\operatorname{Var}(z/\sqrt{d_k})",
        r"\mathbb{E}[z]",
        r"\mathbb{E}[z^2]",
        r"\operatorname{Var}(q_1 k_1)",
        r"\mathbb{E}[q_1^2 k_1^2]",
        r"\operatorname{Var}(z + q_1)",
        r"\operatorname{Var}(2 z)",
    ],
)
@pytest.mark.parametrize("n", [1, 2, 3])
def test_value_for_symbolic_width_matches_stats(latex, n):
    """value() for a symbolic d_k, at d_k = n, equals sympy.stats on n actual variables."""
    symbolic = ls.value(read(latex))
    assert sp.simplify(symbolic.subs(ls.D_K, n) - by_stats(latex, n)) == 0


def test_goal_is_true():
    """Var(z / sqrt(d_k)) = 1 for every d_k, and Var(z) = d_k."""
    assert ls.truth(read(r"\operatorname{Var}(z/\sqrt{d_k})"), sp.S.One) == "true"
    assert ls.truth(read(r"\operatorname{Var}(z)"), ls.D_K) == "true"


def test_fourth_moment_needs_normality():
    """E[q^4] = 3 holds for normal entries only; E[q^4] = 1 is false for them."""
    assert ls.truth(read(r"\mathbb{E}[q_1^4]"), sp.Integer(3)) == "normal"
    assert ls.truth(read(r"\mathbb{E}[q_1^4]"), sp.Integer(1)) == "false"


def test_two_entries_of_one_family_are_one_entry_when_their_indices_meet():
    """E[q_i^2 q_j^2] is E[q_i^4] when i = j and 1 otherwise: splitting it as E[q_i^2] E[q_j^2]
    is false (for normal entries 3 != 1 at i = j), while E[q_i q_j^2] = 0 holds for i != j."""
    assert ls.truth(read(r"\mathbb{E}[q_i^2 q_j^2]"), read(r"\mathbb{E}[q_i^2]\mathbb{E}[q_j^2]")) == "false"
    assert ls.truth(read(r"\mathbb{E}[q_1^2 q_2^2]"), sp.S.One) == "true"


def test_independence_holds_for_moments_the_hypotheses_leave_open():
    """E[q^4 k^4] = E[q^4] E[k^4] for any law of mean 0 and variance 1 (q and k independent),
    though neither fourth moment is known; E[q^4 k^4] = E[q^4]^2 needs the two laws equal
    (normal entries); E[q_i^4 k_i^2] = E[q_i^4] uses E[k^2] = 1 only."""
    assert ls.truth(read(r"\mathbb{E}[q_i^4 k_i^4]"), read(r"\mathbb{E}[q_i^4] \mathbb{E}[k_i^4]")) == "true"
    assert ls.truth(read(r"\mathbb{E}[q_i^3 k_i^4]"), read(r"\mathbb{E}[k_i^4] \mathbb{E}[q_i^3]")) == "true"
    assert ls.truth(read(r"\mathbb{E}[q_i^4 k_i^2]"), read(r"\mathbb{E}[q_i^4]")) == "true"
    assert ls.truth(read(r"\mathbb{E}[q_i^4 k_i^4]"), read(r"\mathbb{E}[q_i^4]^2")) == "normal"
    assert ls.truth(read(r"\mathbb{E}[q_i^4 k_i^4]"), read(r"\mathbb{E}[q_i^4] \mathbb{E}[k_i^2]")) == "false"


@pytest.mark.parametrize("lemma", ls.rule_lemmas(), ids=lambda lemma: lemma.name)
def test_each_rule_is_a_checked_lemma(lemma):
    """Every rule, as symattn rewrites, preserves the value at concrete widths (sympy.stats)."""
    assert lemma.check() == lemma.sizes


@pytest.mark.parametrize(
    ("name", "latex"),
    [
        (r"$\operatorname{Var}(aX) = a \operatorname{Var}(X)$", r"\operatorname{Var}(z/\sqrt{d_k})"),
        (r"$\mathbb{E}[X^2] = \mathbb{E}[X]^2$", r"\mathbb{E}[q_1^2 k_1^2]"),
        (r"$\mathbb{E}[XY] = \mathbb{E}[X]\mathbb{E}[Y]$ for dependent factors", r"\mathbb{E}[q_1^2 k_1^2]"),
        ("variances of dependent terms add", r"\operatorname{Var}(z + q_1 k_1)"),
    ],
)
def test_each_slip_changes_the_value(name, latex):
    """The slips learners make are false: applied, they change E or Var."""
    (rule,) = [r for r in ls.MISTAKES if r.name == name]
    e = read(latex)
    out = ls.rewrite_all(e, rule.rewrite)
    assert out != e
    assert ls.truth(e, out) == "false"


def test_counterexample_is_concrete():
    """A false step gets a width and a distribution at which the sides differ."""
    text = ls.counterexample(
        read(r"\operatorname{Var}(z/\sqrt{d_k})"), read(r"\operatorname{Var}(z)/\sqrt{d_k}")
    )
    assert "$d_k = 2$" in text and "the left side is $1$" in text and r"the right $\sqrt{2}$" in text


def test_sum_indices_compare_equal_by_name_of_nothing():
    """sum_i and sum_j of the same thing have one normal form."""
    assert read(r"\sum_{i=1}^{d_k} \operatorname{Var}(q_i k_i)") == read(
        r"\sum_{j=1}^{d_k} \operatorname{Var}(k_j q_j)"
    )


@pytest.mark.parametrize(
    ("latex", "message"),
    [
        (r"\operatorname{Var}(x)", "unknown symbol x"),
        (r"\operatorname{softmax}(z)", "not part of this exercise"),
        (r"z^{100}", "small numbers"),
        (r"z / 0", "division by zero"),
    ],
)
def test_outside_the_exercise_is_refused(latex, message):
    with pytest.raises(Exception, match=message):
        ls.build(parse_expression(latex))


@pytest.mark.parametrize(
    "latex", [r"\mathbf{q}^\top\mathbf{k}", r"q^T k", r"\mathbf{q} \cdot \mathbf{k}", "q k^\\top"]
)
def test_the_modules_dot_product_is_the_score(latex):
    """The module writes z as q^T k: read as sum_i q_i k_i, the score of the exercise."""
    assert read(latex) == ls.canon(ls.score())


@pytest.mark.parametrize(
    ("dotted", "summed"),
    [
        (
            r"\operatorname{Var}(q_1 k_1) + \cdots + \operatorname{Var}(q_{d_k} k_{d_k})",
            r"\sum_{i=1}^{d_k} \operatorname{Var}(q_i k_i)",
        ),
        (r"q_1 k_1 + q_2 k_2 + \ldots + q_{d_k} k_{d_k}", r"\sum_{j=1}^{d_k} q_j k_j"),
        (r"1 + \cdots + 1", r"\sum_{i=1}^{d_k} 1"),
        (r"1 + 1 + \dots + 1", "d_k"),
        (r"1 + 1 + \cdots + 1 + 1", "d_k"),
        (r"1 + 2 + \cdots + d_k", r"\frac{d_k (d_k + 1)}{2}"),
        (r"q_1 k_1 + \cdots + q_{d_k - 1} k_{d_k - 1} + q_{d_k} k_{d_k}", "z"),
        (r"\operatorname{Var}(q_{d_k} k_{d_k}) + \cdots + \operatorname{Var}(q_1 k_1)", "d_k"),  # backwards
        (r"d_k + \cdots + 2 + 1", r"\frac{d_k (d_k + 1)}{2}"),
    ],
)
def test_a_sum_written_out_with_dots_is_the_sum(dotted, summed):
    assert ls.truth(read(dotted), read(summed)) == "true"


@pytest.mark.parametrize(
    "dotted",
    [
        r"q_1 k_1 + q_3 k_3 + \cdots + q_{d_k} k_{d_k}",  # not one pattern
        r"q_1 k_2 + \cdots + q_{d_k} k_{d_k}",
        r"q_1 k_1 + \cdots + q_{d_k} k_{d_k} + \cdots + 1",
        r"1 + 2 + \cdots + 5",  # ends at a number: not a sum over the d_k entries
        r"1 + 1 + \cdots + 2",
    ],
)
def test_dots_that_do_not_write_out_one_sum_are_refused(dotted):
    with pytest.raises(StepSyntaxError):
        read(dotted)


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        (r"d_k \sigma^4", r"d_k (1)"),
        (r"\sigma^2 \cdot \sigma^{2}", r"(1) \cdot (1)"),
        (r"\sigma", "(1)"),
        (r"\sigma_z^2", r"\sigma_z^2"),  # Var(z): the parser's, untouched
        (r"\sigma^2_z", r"\sigma^2_z"),
        (r"\sigma_{q_i}", r"\sigma_{q_i}"),
    ],
)
def test_sigma_without_subscript_is_the_components_deviation(typed, read):
    """σ with no subscript is the components' deviation, 1 by the hypotheses; σ_z is Var(z)'s root."""
    assert ls.bare_sigma(typed) == read


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        (r"\operatorname{Var}(q_i k_i)", r"\operatorname{Var}(\left(\sum_{i=1}^{d_k} q_i k_i\right))"),
        (r"z = q_{i} \cdot k_{i}", r"z = \left(\sum_{i=1}^{d_k} q_i k_i\right)"),
        (r"\sum_{i=1}^{d_k} \operatorname{Var}(q_i k_i)", r"\sum_{i=1}^{d_k} \operatorname{Var}(q_i k_i)"),
        (r"q_i k_j", r"q_i k_j"),  # different indices: no sum
    ],
)
def test_einstein_sums_a_repeated_index_outside_an_explicit_sum(typed, read):
    assert ls.einstein(typed) == read


def test_einstein_applies_only_where_declared():
    """z = q_i k_i is the definition of z under the convention and false without it."""
    from symattn.grading.proofs.proof_judge import check_derivation

    declared = check_derivation("ex6.3", "With Einstein summation over $i$, $z = q_i k_i$.\n")
    assert declared.steps[0].status == "ok"
    plain = check_derivation("ex6.3", "z = q_i k_i\n")
    assert plain.steps[0].status == "wrong"


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("With Einstein summation over $i$, $z = q_i k_i$.", "i"),
        ("We use the Einstein summation convention.", ""),
        ("Using Einstein notation, z = q_i k_i.", ""),
        ("Without Einstein summation, $z = q_i k_i$.", None),
        ("We do not use Einstein summation: $z$ is a sum.", None),
        ("I did not use Einstein notation anywhere.", None),
        ("% Einstein summation would be wrong here", None),
        ("(not Einstein summation)", None),
    ],
)
def test_only_an_affirmative_sentence_declares_einstein(text, index):
    """A comment, or a sentence that denies the convention, declares nothing."""
    assert ls.einstein_index(text) == index


def test_einstein_over_one_index_leaves_the_others():
    assert ls.einstein(r"\operatorname{Var}(q_j k_j)", "i") == r"\operatorname{Var}(q_j k_j)"


@pytest.mark.parametrize(
    ("lhs", "rhs", "uneven"),
    [
        (r"\operatorname{Var}(z)", r"d_k \sigma^4", False),
        (r"d_k \sigma^4", "d_k", False),  # σ = 1 put into a side with nothing random
        (r"\sigma^2", "1", False),
        (r"\sum_{i=1}^{d_k} \operatorname{Var}(q_i k_i)", r"\sum_{i=1}^{d_k} \sigma^2 \sigma^2", False),
        (r"\operatorname{Var}(z)", r"d_k \sigma", True),  # the deviation for the variance
        (r"\operatorname{Var}(q_i k_i)", r"\sigma^2", True),
        (r"\mathbb{E}[q_i^2]", r"\sigma", True),
        (r"\operatorname{Var}(q_i)", r"\sigma^{10}", True),
        (r"\operatorname{Var}(z)", r"\frac{d_k}{\sigma}", True),
    ],
)
def test_a_step_with_sigma_must_scale_alike_on_both_sides(lhs, rhs, uneven):
    """Read as 1, σ alone cannot tell σ from σ⁴; the powers of σ each side scales as can."""
    assert (ls.sigma_uneven(lhs, rhs) is not None) == uneven
