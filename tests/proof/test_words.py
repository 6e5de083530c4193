"""The properties a theorem states in words stand for claims of their form (symattn.proof.words)."""

from __future__ import annotations

import dataclasses
import re

import pytest
import sympy as sp

from symattn.proof import Derivation, StatementFailed, words
from symattn.proof.shown import words_vocabulary
from symattn.proof.words import PROPERTIES, WordsNotClaimed, found, property_of

i, j = sp.symbols("i j", integer=True, positive=True)
n = sp.Symbol("n", integer=True, positive=True)
a, x = sp.IndexedBase("a"), sp.IndexedBase("x")


#: A kernel like the softmax Jacobian's: K_ij = a_i (delta_ij - a_j), symmetric.
K_ij = a[i] * (sp.KroneckerDelta(i, j) - a[j])
K_ji = a[j] * (sp.KroneckerDelta(j, i) - a[i])
FORM = sp.Sum(sp.Sum(x[i] * a[i] * a[j] * x[j], (j, 1, n)), (i, 1, n))


def _derivation(theorem: str) -> Derivation:
    """A theorem about the kernel, in words (check_words reads the words and the claims only)."""
    return Derivation("words", "Words", theorem, indices=(i, j))


def _claims(
    d: Derivation, symmetric: str | None = "symmetric", psd: str | None = "positive semidefinite"
) -> None:
    d.claim(K_ij - K_ji, 0, words=symmetric)
    d.claim(sp.S.Zero, FORM, "<=", words=psd)


def _check(d: Derivation) -> str:
    return words.check_words(d, words_vocabulary(d))  # by the module: a sabotaged edit is seen


def test_each_property_is_found_alone_in_longer_words():
    """ "positive semidefinite" is not also "positive definite"; "antisymmetric" and
    "skew-symmetric" are not "symmetric"; the words of each property are read back as it."""
    assert [name for name, _ in found("J is positive semidefinite")] == ["positive semidefinite"]
    assert [name for name, _ in found("J is positive definite")] == ["positive definite"]
    assert [name for name, _ in found("J is antisymmetric, K skew-symmetric")] == ["antisymmetric"] * 2
    assert [name for name, _ in found("all tend to 0 as one weight tends to 1")] == [
        "tends to",
        "as ... tends to",
    ]
    assert property_of("rows summing to") is None  # the whole of the words, not a part
    for name in PROPERTIES:
        if "..." not in name:
            assert property_of(name) == name


def test_words_that_stand_for_claims_of_their_form_pass():
    d = _derivation("The kernel is symmetric and positive semidefinite.")
    _claims(d)
    assert _check(d) == "2 properties stated in words, each a claim of its form"


def test_words_that_stand_for_no_claim_fail_naming_them():
    d = _derivation("The kernel is symmetric, orthogonal and positive semidefinite.")
    _claims(d)
    with pytest.raises(WordsNotClaimed, match="the theorem says 'orthogonal', which stands for no claim"):
        _check(d)


def test_words_changed_to_another_property_fail():
    """The planted "positive definite" for "positive semidefinite": no claim stands for it."""
    d = _derivation("The kernel is symmetric and positive definite.")
    _claims(d, psd=None)
    with pytest.raises(WordsNotClaimed, match="'positive definite', which stands for no claim"):
        _check(d)


def test_a_claim_not_of_the_property_s_form_fails():
    """Symmetry stood for by the quadratic form's sign; a sign stood for by a sum of degree 1 in a, 3 in x."""
    d = _derivation("The kernel is symmetric and positive semidefinite.")
    d.claim(sp.S.Zero, FORM, "<=", words="symmetric")
    d.claim(K_ij - K_ji, 0, words="positive semidefinite")
    with pytest.raises(
        WordsNotClaimed, match=r"'symmetric', but the claim it stands for .* is not of the form"
    ):
        _check(d)

    linear = _derivation("The sum is positive semidefinite.")
    total = sp.Sum(a[i] ** 2 * x[i] ** 2, (i, 1, n))
    linear.claim(sp.S.Zero, total, "<=", words="positive semidefinite")
    assert _check(linear)  # a quadratic form in x: a_i^2 x_i^2
    linear.claims = [(sp.S.Zero, sp.Sum(a[i] * x[i] ** 3, (i, 1, n)), "<=")]
    with pytest.raises(WordsNotClaimed, match="not of the form 0 <= Q with Q a quadratic form"):
        _check(linear)


def test_a_value_after_the_words_must_be_the_claim_s():
    d = Derivation("rank", "A matrix", "The matrix has rank $n - 1$, and its entries are at most 3.")
    rank = sp.Function("rank")
    m = sp.MatrixSymbol("M", n, n)
    d.claim(rank(m), n - 1, words="rank")
    d.claim(a[i], 3, "<=", words="at most")
    assert _check(d) == "2 properties stated in words, each a claim of its form"
    d.title = "The rank"  # words with no value after them state nothing symattn can check
    with pytest.raises(WordsNotClaimed, match="the title says 'rank' followed by ''"):
        _check(d)
    d.title = "A matrix"
    for theorem, said in [
        ("The matrix has rank $n$, and its entries are at most 3.", "'rank $n$'"),
        ("The matrix has rank $n - 1$, and its entries are at most 4.", "'at most 4'"),
    ]:
        d.theorem = theorem
        with pytest.raises(WordsNotClaimed, match=re.escape(f"{said}, but the claim it stands for")):
            _check(d)


def test_a_limit_and_the_point_it_is_taken_at_are_two_statements():
    """'tend to 0 as w tends to 1': the limit's value, then its point; swapping them fails."""
    w = sp.Symbol("w", positive=True)
    limit = sp.Limit(w * (1 - w), w, 1, "-")
    d = Derivation("limit", "Limit", "The entries tend to 0 as one weight tends to 1.")
    d.claim(limit, 0, words="tend to")
    d.words.append(("as one weight tends to", 0))
    assert _check(d)
    d.theorem = "The entries tend to 1 as one weight tends to 0."
    with pytest.raises(WordsNotClaimed, match="'tend to 1', but"):
        _check(d)


def test_words_the_theorem_does_not_say_or_symattn_does_not_read_fail():
    d = _derivation("The kernel is positive semidefinite.")
    _claims(d)
    with pytest.raises(
        WordsNotClaimed, match="a claim stands for 'symmetric', which the theorem does not say"
    ):
        _check(d)
    d = _derivation("The kernel is symmetric and positive semidefinite.")
    _claims(d, symmetric="nice")
    with pytest.raises(WordsNotClaimed, match="'nice', which is no property symattn reads"):
        _check(d)


def test_verify_fails_a_theorem_whose_words_stand_for_no_claim():
    """Through verify: the published softmax Jacobian with its theorem saying 'positive definite'."""
    from derivations import load

    d = load("softmax_jacobian")
    d.theorem = d.theorem.replace("positive semidefinite", "positive definite")
    with pytest.raises(
        StatementFailed,
        match="softmax_jacobian: the theorem says 'positive definite', which stands for no claim",
    ):
        d.verify()


def test_a_heading_states_what_its_section_proves():
    """A section heading names a property too ("Entries at most $\\tfrac14$"): changed to 1/3,
    it stands for no claim of its form; a rule's words are reasons and are not read."""
    from derivations import load

    d = load("softmax_jacobian")
    d.steps = [
        dataclasses.replace(s, section=s.section.replace(r"at most $\tfrac14$", r"at most $\tfrac13$"))
        for s in d.steps
    ]
    with pytest.raises(WordsNotClaimed, match=r"the heading 'Entries at most \$\\tfrac13\$; saturation'"):
        _check(d)
    d = load("softmax_jacobian")
    before = _check(d)
    d.steps[5] = dataclasses.replace(d.steps[5], rule="the weights sum to 1; J is antisymmetric")
    assert _check(d) == before


#: Theorem edits a reviewer made that once passed: each must fail the words check.
FALSE_WORDINGS = [
    ("is symmetric and", "is not symmetric and"),
    ("positive semidefinite", "positive semidefinite but not definite"),
    ("is symmetric and", "is skew symmetric and"),
    ("is symmetric and", "is anti-symmetric and"),
    ("positive semidefinite", "positive\ndefinite"),
    ("positive semidefinite", "positive  definite"),
    ("of rank $n - 1$", "of full rank"),
    ("of rank $n - 1$", "of rank n"),
    ("of rank $n - 1$", "of rank-$n$"),
    ("of rank $n - 1$", "of rank equal to $n$"),
    ("of rank $n - 1$", "of ranks $n$"),
    ("of rank $n - 1$", "of rank $n - 1$ or $n$"),
    ("summing to 0", "summing to one"),
    ("summing to 0", "summing to 0+1"),
    ("summing to 0", "summing to 0,5"),
    ("summing to 0", "summing to 0 (plus 1)"),
    ("summing to 0", "summing to 1e0"),
    ("summing to 0", "summing to nonzero"),
    ("tend to 0 as", "tend to infinity as"),
    ("and all of them tend to 0 as one weight tends to 1", "and, as expected, they tend to 1"),
    ("and all of them tend to 0 as one weight tends to 1", "and as expected they tend to 1"),
    (r"at most $\tfrac14$", "at most one fifth"),
    (r"at most $\tfrac14$", r"at most about $\tfrac15$"),
]


@pytest.mark.parametrize(("old", "new"), FALSE_WORDINGS, ids=[new for _, new in FALSE_WORDINGS])
def test_false_or_unreadable_wordings_fail(old, new):
    from derivations import load

    d = load("softmax_jacobian")
    assert old in d.theorem
    d.theorem = d.theorem.replace(old, new, 1)
    with pytest.raises(WordsNotClaimed):
        _check(d)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("positive semidefinite", "non-negative definite"),
        ("positive semidefinite", "positive semi-definite"),
        ("tends to 1", "goes to 1"),
        ("as one weight tends to 1", "when $p_i$ tends to 1"),
        ("summing to 0", "summing to zero"),
    ],
)
def test_other_true_wordings_pass(old, new):
    from derivations import load

    d = load("softmax_jacobian")
    d.theorem = d.theorem.replace(old, new, 1)
    if "when" in new:  # the point's words are the claim's, as the derivation declares them
        d.words = [("when $p_i$ tends to" if w == "as one weight tends to" else w, k) for w, k in d.words]
    assert _check(d).endswith("each a claim of its form")
