"""Checks on the raw text of an answer and its reading as a chain (symattn/grading/answers/notation.py)."""

from __future__ import annotations

import pytest

from symattn.grading.answers.notation import (
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_TERMS,
    Chain,
    InvalidAnswer,
    measures,
    precheck,
    split_chain,
)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        (r"\frac{1}{2", "unmatched brace at position 9"),
        (r"\frac{e^2+11}}{e^2+2}", "unmatched brace at position 14"),
        ("(1 + 2", "unmatched parenthesis at position 1"),
        ("8192 )", "unmatched parenthesis at position 6"),
        (r"\def\x{1} \x", r"\def"),
        ("1000000!", "factorials"),
        ("(10!)!", "factorials"),
        ("__import__('os').system('ls')", "program code"),
        ("import os", "program code"),
        ("lambda x: x", "program code"),
        ("1; 2", "give one answer"),
        ("1\x00", "U+0000"),
        ("x" * 401, "too long"),
        ("(" * 41 + "1" + ")" * 41, "nested more than"),
        ("1" * 41, "digits"),
        (r"\operatorname{Var}(z)", r"\operatorname is not accepted"),
        ("banana", "'banana' is not a number"),
        ("EXP(2)", r"write \exp"),  # capitals outside a spreadsheet's formula: not a function read
        (r"\text{about } 2", "text is not read"),
        ("28%", r"write \%"),
        (r"\sum_{i=1}^{1000} i", "more than 100 terms"),
        (r"\sum_{i=1}^{n} i", "whole-number bounds"),
        (r"\int_0^1 x", "integrals"),
        (r"\begin{vmatrix} 1 \end{vmatrix}", "determinants"),
    ],
)
def test_refusals_name_the_problem(raw, message):
    """Each refused answer gets one line a learner can act on."""
    with pytest.raises(InvalidAnswer) as info:
        precheck(raw)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "raw",
    [
        r"\binom{4}{2}",
        r"\dbinom{4}{2}",
        r"\tbinom{4}{2}",
        r"{4 \choose 2}",
        r"{4 \brack 2}",
        r"{4 \brace 2}",
        r"\genfrac{(}{)}{0pt}{}{4}{2}",
        r"{4 \atop 2}",
        "(4)_{1}",
        "(4)_1",
        r"\left(4\right)_{1}",
        "{(4)}_{1}",
        "(x+1)_{n}",
    ],
)
def test_every_binomial_and_pochhammer_spelling_is_refused(raw):
    """latex2sympy2 reads each of these as a binomial or a falling factorial: all refused."""
    with pytest.raises(InvalidAnswer, match=r"binomial|Pochhammer"):
        precheck(raw)


@pytest.mark.parametrize(
    ("raw", "readings"),
    [
        ("1,959", ("1.959", "1959")),  # three digits after the comma: either reading
        ("8,192", ("8.192", "8192")),
        ("N > 8,192", ("8.192", "8192")),
        ("8{,}192", ("8.192", "8192")),
    ],
)
def test_ambiguous_commas_name_both_readings(raw, readings):
    """A comma between digits is a decimal comma or a thousands separator: invalid, both said."""
    with pytest.raises(InvalidAnswer, match="ambiguous") as info:
        precheck(raw)
    assert all(r in str(info.value) for r in readings)


@pytest.mark.parametrize(
    ("raw", "plain"),
    [
        ("1,96", "1.96"),  # no thousands grouping leaves two digits: a decimal comma
        ("1,95856", "1.95856"),
        ("8192,0", "8192.0"),
        ("12,345,678", "12345678"),  # two commas: no number has two decimal commas
        ("[1,0,0]", "[1,0,0]"),  # in brackets a comma separates entries
    ],
)
def test_commas_only_one_reading_explains_are_read(raw, plain):
    notes: list[str] = []
    assert precheck(raw, notes) == plain
    assert notes or raw == plain


@pytest.mark.parametrize(
    ("raw", "clean", "note"),
    [
        ("1.959", "1.959", None),
        ("$N > 8192$", "N > 8192", None),
        ("$$1.96$$", "1.96", None),
        (r"\(1.96\)", "1.96", None),
        (r"\[1.96\]", "1.96", None),
        (r"\boxed{1.96}", "1.96", None),
        ("1.96.", "1.96", None),
        (r"1.96\;", "1.96", None),
        (r"1.96 \quad", "1.96", None),
        (r"\!1.96~", "1.96", None),
        (r"1.96\ldots", "1.96", "trailing"),
        (r" \frac{1}{2} ", r"\frac{1}{2}", None),
        ("\u22121", "-1", None),
        (r"\left( 1 + 2 \right)", "( 1 + 2 )", None),  # a sized bracket is a bracket
        (r"N \gt 8192", "N > 8192", None),
        (r"8192 \lt N", "8192 < N", None),
        (r"N \geqslant 8193", r"N \geq 8193", None),
        ("N >= 8193", r"N \geq 8193", None),
        (r"N \ne 8192", r"N \neq 8192", None),
        (r"8\,192", "8192", r"8\,192 read as 8192"),
        ("8 192", "8192", "8 192 read as 8192"),
        ("1 000 000", "1000000", "read as 1000000"),
        ("1.9586e0", "1.9586E0", "1.9586e0 read as 1.9586 × 10^0"),
        ("8.192E3", "8.192E3", "8.192E3 read as 8.192 × 10^3"),
        (r"\mathrm{e}^{2}", "e^{2}", None),
        (r"d_{\text{model}}", "d_{model}", None),
        (r"\mathrm{d}_{\mathrm{model}}", "d_{model}", None),
        ("d_model", "d_{model}", None),
        (r"1.96\text{ tokens}", "1.96", "the unit 'tokens' is ignored"),
        (r"\lambda + 1", r"\lambda + 1", None),
        (r"28\%", r"28\%", r"28\% read as 28/100"),
        (r"\sum_{i=1}^{3} i", r"\sum_{i=1}^{3} i", None),
        (r"A^\top", "A^T", None),
    ],
)
def test_accepted_forms_are_rewritten_and_noted(raw, clean, note):
    """Delimiters, spacing, synonyms go; a reading that is not literal is noted."""
    notes: list[str] = []
    assert precheck(raw, notes) == clean
    if note is None:
        assert notes == []
    else:
        assert any(note in n for n in notes), notes


@pytest.mark.parametrize(
    ("raw", "message"),
    [("2 4096", "24096 or 2 times 4096"), ("1.5 2", "1.52 or 1.5 times 2")],
)
def test_digits_separated_by_a_space_are_ambiguous(raw, message):
    """Groups that are not thousands (2 4096) could be one number or a product: invalid."""
    with pytest.raises(InvalidAnswer, match="ambiguous") as info:
        precheck(raw)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("text", "chain"),
    [
        ("1.96", Chain(("1.96",), ())),
        (r"\approx 1.96", Chain(("", "1.96"), ("~",))),
        (r"\frac{a}{b} = 1.96", Chain((r"\frac{a}{b}", "1.96"), ("=",))),
        ("8192 < N < \\infty", Chain(("8192", "N", r"\infty"), ("<", "<"))),
        (r"N \in (8192, \infty)", Chain(("8192", "N", r"\infty"), ("<", "<"))),
        (r"N \in [8193, \infty)", Chain(("8193", "N", r"\infty"), ("<=", "<"))),
        (r"N \in ]8192, \infty[", Chain(("8192", "N", r"\infty"), ("<", "<"))),
        (r"N \in \left(8192, \infty\right)", Chain(("8192", "N", r"\infty"), ("<", "<"))),
        (r"N \neq 8192", Chain(("N", "8192"), ("!=",))),
        (r"\max(1, N > 2)", Chain((r"\max(1, N > 2)",), ())),
        (
            r"\begin{bmatrix} 1 & 2 \end{bmatrix} = B",
            Chain((r"\begin{bmatrix} 1 & 2 \end{bmatrix}", "B"), ("=",)),
        ),
    ],
)
def test_split_chain_cuts_at_top_level_relations(text, chain):
    """Relations inside brackets or environments do not cut; an interval becomes two relations."""
    assert split_chain(precheck(text)) == chain


# -- the measures bench/limits.py reports (issue 49) --------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.96", {"characters": 4, "nesting": 0, "digits": 2, "terms": 0}),
        (r"\frac{e^{2}+11}{e^{2}+2}", {"characters": 24, "nesting": 2, "digits": 2, "terms": 0}),
        (
            r"\sum_{i=1}^{100} i + \prod_{k=0}^9 k",
            {"characters": 36, "nesting": 1, "digits": 3, "terms": 100},
        ),
        (
            r"\sum_{j=1}^{999999999999} 1",
            {"characters": 27, "nesting": 1, "digits": 12, "terms": 999999999999},
        ),
    ],
)
def test_measures_count_what_precheck_bounds(text, expected):
    assert measures(text) == expected


@pytest.mark.parametrize(
    ("text", "measure", "limit"),
    [
        ("(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), "nesting", MAX_DEPTH),
        ("1" * 41, "digits", MAX_DIGITS),
        (r"\sum_{i=1}^{101} i", "terms", MAX_TERMS),
    ],
)
def test_an_answer_past_a_measure_is_refused_and_one_at_it_is_not_for_that(text, measure, limit):
    """Each measure just past its limit is refused by precheck; the same text within it is not
    refused for that reason: the bench's measures are the ones the judge applies."""
    assert measures(text)[measure] == limit + 1
    with pytest.raises(InvalidAnswer, match=r"too costly|too long"):
        precheck(text)
    within = {
        "nesting": "(" * MAX_DEPTH + "1" + ")" * MAX_DEPTH,
        "digits": "1" * 40,
        "terms": r"\sum_{i=1}^{100} i",
    }[measure]
    assert measures(within)[measure] == limit
    precheck(within)


@pytest.mark.parametrize("minus", ["\u2212", "\u2013", "-"])
def test_a_minus_sign_an_en_dash_and_a_hyphen_read_alike(minus):
    """A minus typed as U+2212, as an en dash (a word processor's) or as a hyphen: the same answer
    and the same verdict (the en dash once was refused)."""
    import contextlib
    import io
    import json

    from symattn.cli.app import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", "ex6.2", "--json", "--", f"{minus}0.5"])
    found = json.loads(out.getvalue())
    assert (code, found["verdict"], found["given"]) == (1, "incorrect", "-1/2")
