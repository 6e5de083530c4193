"""A relation simplified and its worked instance (symattn/grading/audit/instances.py): true texts
written here by hand, each with one planted error; the expected verdicts come from reading."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims


def _decided(text: str) -> list[tuple[int, str]]:
    return [(c.line, c.verdict) for c in audit_claims(text) if c.verdict in ("certified", "wrong")]


CASES = {
    "an instance of an equation": (
        "Matmul and attention FLOPs are equal when $24BTDNH = 12BT^2NH$. Simplifying we get $2D = T$, "
        "so e.g. for $D=4096$, this is $8192$.\n",
        ("this is $8192$", "this is $16384$"),
    ),
    "an instance of an inequality's boundary": (
        "Attention dominates once $T > 8D$. For $D = 4608$, this is $36864$.\n",
        ("$36864$", "$32768$"),
    ),
    "a relation simplified": (
        "This is a question of when $24BTDNH = 12BT^2NH$. Simplifying we get $2D = T$.\n",
        ("$2D = T$", "$3D = T$"),
    ),
    "an equation divided by a negative factor": (
        "They match when $24BTDNH = 12BT^2NH$. Simplifying we get $T = 2D$.\n",
        ("$T = 2D$", "$T = 3D$"),
    ),
    "an inequality divided by a negative number": (
        "We need $-2x < -4$. Dividing both sides by minus two we get $x > 2$.\n",
        ("$x > 2$", "$x < 2$"),
    ),
    "an inequality rearranged": (
        "Attention dominates once $T > 8D$, and rearranging we get $T/D > 8$.\n",
        ("$T/D > 8$", "$T/D > 6$"),
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_true_instance_is_certified_and_a_planted_error_flagged(name):
    text, (before, after) = CASES[name]
    decided = _decided(text)
    assert decided and all(v == "certified" for _, v in decided), decided
    assert text.count(before) == 1
    planted = _decided(text.replace(before, after))
    line = 1 + text[: text.index(before)].count("\n")
    assert (line, "wrong") in planted, planted


@pytest.mark.parametrize(
    "text",
    [
        # the relation holds more letters than the one given and the one stated: nothing is fixed
        "Attention dominates once $T > 8DN$. For $D = 4096$, this is $32768$.\n",
        # a quadratic: two roots, the instance does not say which
        "It balances when $T^2 = 4D^2 + T$. For $D = 2$, this is $5$.\n",
        # simplified into a relation of another kind: not compared
        "Attention dominates once $T > 8D$; rearranging we get $8D < T$.\n",
        # a value supposed for an instance holds in its sentence only, never as a given later
        "The crossover is at $T = 6D$, so for $D = 512$, this is $3072$.\n\nWe have $2T = 12D$.\n",
        # letters said to be negative or any real number are not sizes; a relation cut short by "or"
        "For a negative $c$ we have $c^2 > 0$. Solving we get $c < 0$ or $c > 0$.\n",
        "For real $x$ we have $x^2 = 4$. Solving we get $x = 2$, among others.\n",
        # a squared relation over positive sizes: the same relation
        "When $T^2 = 4D^2$, dividing by $T + 2D$ we get $T = 2D$.\n",
    ],
)
def test_what_does_not_fix_the_value_is_never_called_wrong(text):
    assert "wrong" not in [v for _, v in _decided(text)]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Solving $2N^2 d = 4 N d^2$ yields $N = 2d$, so attention's term dominates beyond it.", "certified"),
        ("Solving $2N^2 d = 4 N d^2$ yields $N = 4d$, so attention's term dominates beyond it.", "wrong"),
        ("Solving $d_k^2 = 64 d_k$ gives $d_k = 64$.", "certified"),
        ("Solving $\\sqrt{d_k} = 8$ gives $d_k = 72$.", "wrong"),
    ],
)
def test_an_equation_solved_is_posed_and_what_it_yields_is_the_claim(text, verdict):
    """A hostile review's: the equation after "solving" was judged as an identity (and called
    wrong); it is posed, and the claim is that it comes to what it yields."""
    claims = audit_claims(text + "\n")
    assert [c.verdict for c in claims] == [verdict]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Solving $2N^2 d = 4Nd^2$ yields $N = 2d$.", "certified"),  # Nd: N times d, both alone beside
        ("Solving $2N^2 d = 4Nd^2$ yields $N = 3d$.", "wrong"),
        ("Solving $h \\cdot 64 = 512$ for $h$ gives $h = 16$.", "wrong"),
    ],
)
def test_what_solving_yields_is_judged_whatever_the_spacing(text, verdict):
    claims = audit_claims(text + "\n")
    assert [c.verdict for c in claims] == [verdict]
