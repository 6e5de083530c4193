"""Identities with vectors, matrices and trigonometric functions (symattn/grading/audit/identities.py):
true displays written here by hand, each with one planted error flagged on the line of the member
it changes; the expected verdicts come from reading (the algebra done by hand)."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims


def _decided(text: str) -> list[tuple[int, str]]:
    """(line, verdict) for each line a decided claim stands on (a comparison of two members of a
    display stands on both their lines)."""
    return [
        (n, c.verdict)
        for c in audit_claims(text)
        if c.verdict in ("certified", "wrong")
        for n in range(c.line, max(c.line, c.through) + 1)
    ]


ROTATION = (
    "$$\\begin{aligned}\n"
    "\\begin{bmatrix} \\cos(\\delta \\omega) & \\sin(\\delta \\omega) \\\\ -\\sin(\\delta \\omega) & "
    "\\cos(\\delta \\omega) \\end{bmatrix}\n"
    "\\begin{bmatrix} \\sin(i \\omega) \\\\ \\cos(i \\omega) \\end{bmatrix}\n"
    "=&\\begin{bmatrix} \\cos(\\delta \\omega) \\sin(i \\omega) "
    "+ \\sin(\\delta \\omega) \\cos(i \\omega) \\\\ -\\sin(\\delta \\omega) \\sin(i \\omega) "
    "+ \\cos(\\delta \\omega) \\cos(i \\omega) \\end{bmatrix}\\\\\n"
    "=&\\begin{bmatrix} \\sin((i+\\delta) \\omega) \\\\ \\cos((i+\\delta) \\omega) \\end{bmatrix}\n"
    "\\end{aligned}$$\n"
)

CASES = {
    "a distance as dot products": (
        "$$a(\\mathbf{q}, \\mathbf{k}_i) = -\\frac{1}{2} \\|\\mathbf{q} - \\mathbf{k}_i\\|^2 = "
        "\\mathbf{q}^\\top \\mathbf{k}_i -\\frac{1}{2} \\|\\mathbf{k}_i\\|^2 "
        "-\\frac{1}{2} \\|\\mathbf{q}\\|^2.$$\n",
        ("-\\frac{1}{2} \\|\\mathbf{q}\\|^2.", "+\\frac{1}{2} \\|\\mathbf{q}\\|^2."),
        1,
    ),
    "a rotation of a sine-cosine pair, over rows": (
        ROTATION,
        ("\\cos((i+\\delta) \\omega)", "\\cos((i-\\delta) \\omega)"),
        5,
    ),
    # D2L's own display, its first member in p (not compared with the written-out second): the
    # sign flipped in the earlier member of the pair (line 4) compared with the later (line 5)
    "a rotation of a sine-cosine pair, the earlier member changed": (
        ROTATION.replace("\\sin(i \\omega) \\\\ \\cos(i \\omega) \\end", "p_{i, 2j} \\\\ p_{i, 2j+1} \\end"),
        ("\\\\ -\\sin(\\delta \\omega) \\sin(i \\omega)", "\\\\ \\sin(\\delta \\omega) \\sin(i \\omega)"),
        4,
    ),
    "an inline identity of transposes": (
        "For vectors, $\\mathbf{x}^\\top \\mathbf{y} = \\mathbf{y}^\\top \\mathbf{x}$ always.\n",
        ("= \\mathbf{y}^\\top", "= -\\mathbf{y}^\\top"),
        1,
    ),
    "an additive score's hidden layer": (
        "$$\\mathbf W_q \\mathbf q + \\mathbf W_k \\mathbf k = "
        "\\mathbf W_k \\mathbf k + \\mathbf W_q \\mathbf q$$\n",
        (
            "\\mathbf W_k \\mathbf k + \\mathbf W_q \\mathbf q$$",
            "\\mathbf W_k \\mathbf q + \\mathbf W_q \\mathbf k$$",
        ),
        1,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_true_identity_is_certified_and_a_planted_error_flagged_at_its_line(name):
    text, (before, after), line = CASES[name]
    decided = _decided(text)
    assert decided and all(v == "certified" for _, v in decided), decided
    assert text.count(before) == 1
    assert (line, "wrong") in _decided(text.replace(before, after))


@pytest.mark.parametrize(
    "text",
    [
        # members in other letters: a definition stands between them, nothing is compared
        "$$\\begin{bmatrix} \\cos(\\omega) & \\sin(\\omega) \\end{bmatrix} \\mathbf p = \\sin(2\\omega)$$\n",
        # a pole at every point tried would decide nothing; a sizes' square root is a size's
        "$$\\sqrt{\\mathbf{x}^\\top \\mathbf{x}} = \\|\\mathbf{x}\\|$$\n",
        "$$\\sqrt{d^2} \\cdot \\sin(\\theta) = d \\sin(\\theta)$$\n",
        # from a hostile review: true formulas once called wrong
        "$\\cos 2x = 2\\cos^2 x - 1$\n",  # cos without parentheses: not read as a letter
        "If $\\mathbf{q}^\\top\\mathbf{k} = 0$, then $\\|\\mathbf{q} + \\mathbf{k}\\|^2 = "
        "\\|\\mathbf{q}\\|^2 + \\|\\mathbf{k}\\|^2$.\n",
        "For unit vectors, $\\|\\mathbf{q} - \\mathbf{k}\\|^2 = 2 - 2\\mathbf{q}^\\top\\mathbf{k}$.\n",
        "The matrix $\\mathbf{M} = \\mathbf{X}^\\top \\mathbf{X}$ is symmetric, so $\\mathbf{M} = "
        "\\mathbf{M}^\\top$.\n",
        "Also $\\mathbf{I}^\\top = \\mathbf{I}$.\n",
        "Normalise in place: $\\mathbf{k} = \\mathbf{k}/\\|\\mathbf{k}\\|$.\n",
        "The curves cross where $\\sin(x) = \\cos(x)$, that is at $x = \\pi/4$.\n",
        "$\\hat{\\mathbf{q}}^\\top\\mathbf{q} = "
        "\\|\\mathbf{q}\\|\\,\\hat{\\mathbf{q}}^\\top\\hat{\\mathbf{q}}$\n",
        "Let $A \\in \\mathbb{R}^{m \\times n}$ and $B \\in \\mathbb{R}^{n \\times p}$. Then $(AB)^\\top = "
        "B^\\top A^\\top$.\n",
        "On a calculator set to degrees, $\\sin(90) = 1$.\n",
        # a product of shapes that do not fit is not an identity to compare
        "$$\\mathbf{q} \\mathbf{k} = \\mathbf{k} \\mathbf{q}$$\n",
    ],
)
def test_what_cannot_be_compared_is_never_called_wrong(text):
    assert "wrong" not in [v for _, v in _decided(text)]


def test_a_false_identity_for_real_letters_is_not_certified_by_reading_them_as_sizes():
    # |c x| = c |x| holds for a positive c only: never certified, and not wrong for sizes
    text = "For every real $c$, $\\|c \\mathbf{x}\\| = c \\|\\mathbf{x}\\|$.\n"
    assert _decided(text) == []


_ROTATION = (
    "$$\\begin{bmatrix} \\cos(\\delta \\omega) & \\sin(\\delta \\omega) \\\\ -\\sin(\\delta \\omega) & "
    "\\cos(\\delta \\omega) \\end{bmatrix} \\begin{bmatrix} p_{i} \\\\ p_{i+1} \\end{bmatrix}$$\n\n"
    "where the $2\\times 2$ projection matrix does not depend on any position index $i$.\n"
)
_DISTANCE = (
    "$$a(\\mathbf{q}, \\mathbf{k}_i) = \\mathbf{q}^\\top \\mathbf{k}_i -\\frac{1}{2} \\|\\mathbf{k}_i\\|^2 "
    "-\\frac{1}{2} \\|\\mathbf{q}\\|^2.$$\n\n"
    "First, note that the final term depends on $\\mathbf{q}$ only.\n"
)


# What a matrix or a term of the display just before depends on: the true text, then edits
# (each a list of replacements) with the verdict each must get on line 3 (none: nothing decided).
DEPENDS = {
    "a matrix written just before": (
        _ROTATION,
        [
            ([("does not depend on any", "depends on the")], "wrong"),
            ([("index $i$", "index $\\delta$")], "wrong"),
            # a matrix of another size than the one named is not the one meant
            ([("$2\\times 2$", "$3\\times 3$")], None),
        ],
    ),
    "a term of the formula displayed just before": (
        _DISTANCE,
        [
            ([("final term", "second term")], "wrong"),
            ([("$\\mathbf{q}$ only", "$\\mathbf{k}_i$ only")], "wrong"),
            ([("depends on", "does not depend on"), (" only", "")], "wrong"),
        ],
    ),
}


@pytest.mark.parametrize("name", list(DEPENDS))
def test_what_a_display_just_before_depends_on(name):
    text, edits = DEPENDS[name]
    assert _decided(text) == [(3, "certified")]
    for replacements, verdict in edits:
        edited = text
        for old, new in replacements:
            assert old in edited
            edited = edited.replace(old, new)
        assert _decided(edited) == ([(3, verdict)] if verdict else [])
