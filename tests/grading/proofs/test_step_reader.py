"""Reading a learner's derivation: layout into steps, LaTeX into syntax trees, refusals."""

from __future__ import annotations

import pytest

from symattn.grading.proofs.step_reader import StepSyntaxError, parse_expression, read_lines


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
        ("A", "needs '='"),
        ("A = ", "after the last one"),
        ("A = = C", "nothing between two '='"),
        (r"\operatorname{Var}(z = 1", "unmatched '('"),
    ],
)
def test_bad_layout_is_reported_on_its_line(text, message):
    """A line that is not a step carries a one-line reason."""
    (line,) = read_lines(text)
    assert message in line.error


def test_an_expression_alone_then_equals_lines_is_a_chain():
    """The commonest layout in LaTeX (issue 48): the expression alone on its line, then '= ...'."""
    lines = read_lines("A\n= B\n= C\n\nD\nE = F\n")
    assert [(ln.number, ln.latex, ln.lhs, ln.rhs) for ln in lines] == [
        (2, "A = B", "A", "B"),
        (3, "= C", None, "C"),
        (5, "D", None, ""),  # D alone, and no '= ...' after it: no step
        (6, "E = F", "E", "F"),
    ]
    assert [bool(ln.error) for ln in lines] == [False, False, True, False]
    assert "needs '='" in lines[2].error


@pytest.mark.parametrize("number", [r"\qquad (2)", r"\quad (3a)", r"\;(12)"])
def test_an_equation_number_is_not_a_factor(number):
    """'= d_k \\qquad (2)' is d_k: the number labels the line (issue 48)."""
    (line,) = read_lines(f"A = d_k {number}")
    assert line.rhs == "d_k"


def test_a_chain_on_one_line_is_one_step_per_equals():
    """'A = B = C' is A = B, then = C, both on its line."""
    lines = read_lines("A = B = C\n= D")
    assert [(ln.number, ln.lhs, ln.rhs) for ln in lines] == [(1, "A", "B"), (1, None, "C"), (2, None, "D")]


_ALIGN = r"""\begin{align*}
\operatorname{Var}(z) &= \sum\limits_{i=1}^{d_k} \operatorname{Var}(q_i k_i) \quad \text{(rule 4)} \\
&= d_k \cdot 1 \tag{1} \\[2pt]
&= d_k \nonumber \\ \operatorname{Var}(z/\sqrt{d_k}) &= \frac{1}{d_k} \operatorname{Var}(z) \qquad (\text{s})
\end{align*}"""


@pytest.mark.parametrize(
    "text",
    [_ALIGN, "\ufeff" + _ALIGN.replace("\n", "\r\n"), "$$" + _ALIGN.replace("align*", "aligned") + "$$"],
    ids=["align", "bom-crlf", "aligned"],
)
def test_pasted_align_blocks(text):
    """align*/aligned with &, row breaks (two on one line, one with [2pt]), \\tag, \\nonumber and a
    note after a step are read as the steps they hold, on the lines they are on."""
    lines = read_lines(text)
    assert [(ln.number, ln.lhs, ln.rhs) for ln in lines] == [
        (2, r"\operatorname{Var}(z)", r"\sum\limits_{i=1}^{d_k} \operatorname{Var}(q_i k_i)"),
        (3, None, r"d_k \cdot 1"),
        (4, None, "d_k"),
        (4, r"\operatorname{Var}(z/\sqrt{d_k})", r"\frac{1}{d_k} \operatorname{Var}(z)"),
    ]
    assert not any(ln.error for ln in lines)


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


@pytest.mark.parametrize(
    ("latex", "same_as"),
    [
        (r"\sigma_z^2", r"\operatorname{Var}(z)"),
        (r"\sigma_{q_i}^{2}", r"\operatorname{Var}(q_i)"),
        (r"\sigma_z", r"\sqrt{\operatorname{Var}(z)}"),
        (r"E(q_i)", r"\mathbb{E}[q_i]"),
        (r"\sum\limits_{i=1}^{d_k} q_i", r"\sum_{i=1}^{d_k} q_i"),
        ("\u221a{d_k} \u00d7 2 \u2212 1", r"\sqrt{d_k} \cdot 2 - 1"),
        ("\u03c3_z\u00b2", r"\operatorname{Var}(z)"),
        # other textbooks' (issue 48)
        (r"\mathbb{V}[z]", r"\operatorname{Var}(z)"),
        (r"\mathbb{V}(q_i k_i)", r"\operatorname{Var}(q_i k_i)"),
        (r"\operatorname{Var}(\langle q, k \rangle)", r"\operatorname{Var}(q \cdot k)"),
        (r"\langle q_i, k_{i} \rangle", r"q_i \cdot k_{i}"),
    ],
)
def test_notations_read_as_their_plain_form(latex, same_as):
    """Notation learners write (sigma for a deviation, E(...), \\limits, Unicode) is read as the
    plain form it stands for."""
    assert parse_expression(latex) == parse_expression(same_as)


def test_bare_sigma_asks_what_it_is_the_deviation_of():
    with pytest.raises(StepSyntaxError, match="deviation of"):
        parse_expression(r"\sigma^2")


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


def test_a_cases_block_over_several_lines_is_one_step():
    r"""\begin{cases} ... \end{cases} on its own lines: one step, its rows and conditions kept
    (the & and \\ of the block are not the layout's), shown as written."""
    text = "\n".join(
        [
            r"E[q_i k_i q_j k_j] = \begin{cases}",
            r"  1 & \text{if } i = j \\",
            r"  0 & \text{otherwise}",
            r"\end{cases}",
            r"= 0",
        ]
    )
    first, second = read_lines(text)
    assert (first.number, second.number) == (1, 5)
    assert first.latex.startswith(r"E[q_i k_i q_j k_j] = \begin{cases} 1 & i = j")
    assert parse_expression(first.rhs) == (
        "cases",
        (("num", "1"), ("eq", "i", "j")),
        (("num", "0"), ("ne", "i", "j")),
    )


@pytest.mark.parametrize(
    "block",
    [
        r"\begin{cases} 1 & i = j \end{cases}",
        r"\begin{cases} 1 & i = j \\ 0 & i = k \end{cases}",
        r"\begin{cases} 1 & i = j \\ 0 & j = i + 1 \end{cases}",
    ],
)
def test_cases_must_be_i_equal_j_and_not(block):
    (line,) = read_lines("A = " + block)
    with pytest.raises(StepSyntaxError, match="cases"):
        parse_expression(line.rhs)


@pytest.mark.parametrize(
    "text",
    [
        r"\operatorname{Var}(z) = d_k \implies \operatorname{Var}(z/\sqrt{d_k}) = 1",
        "\\operatorname{Var}(z) = d_k\n\\therefore \\operatorname{Var}(z/\\sqrt{d_k}) = 1",
        "\\operatorname{Var}(z) = d_k\n\\text{so } \\operatorname{Var}(z/\\sqrt{d_k}) = 1",
        "\\operatorname{Var}(z) = d_k\nHence, \\operatorname{Var}(z/\\sqrt{d_k}) = 1",
        "\\operatorname{Var}(z) = d_k ⟹ \\operatorname{Var}(z/\\sqrt{d_k}) = 1",
    ],
)
def test_an_arrow_or_a_word_between_statements_starts_a_new_one(text):
    """'\\implies', '\\therefore', 'so', 'hence', ⟹: two statements, each a step of its own."""
    lines = read_lines(text)
    assert [(x.lhs, x.rhs) for x in lines] == [
        (r"\operatorname{Var}(z)", "d_k"),
        (r"\operatorname{Var}(z/\sqrt{d_k})", "1"),
    ]


def test_lines_end_only_at_cr_lf_and_crlf():
    """A form feed, U+2028 or U+0085 inside a line is no line of the file (issue 48)."""
    lines = read_lines("A = B\x0c\r\n= C\u2028\r= D\x85\n")
    assert [ln.number for ln in lines] == [1, 2, 3]


def test_markdown_prose_around_the_math_is_read_as_nothing():
    """Issue 48: a derivation in Markdown, with numbered items, sentences and display math."""
    text = (
        "1. By independence, the variance of the sum is the sum of the variances:\n"
        "$$A = B$$\n"
        "2. $= C$ by the hypotheses\n"
        "Then scaling divides the variance by $d_k$:\n"
        "3. D = E\n"
        "- F = G\n"
    )
    lines = read_lines(text)
    assert [(ln.number, ln.lhs, ln.rhs) for ln in lines] == [
        (2, "A", "B"),
        (3, None, "C"),  # the one formula stating an equality in its sentence
        (5, "D", "E"),  # a numbered item's marker dropped
        (6, "- F", "G"),  # "- " is a minus sign, not a bullet: kept
    ]


def test_a_bare_number_in_parentheses_at_a_steps_end_is_asked_about():
    """ "= d_k (3)" may be an equation number or a factor: asked, never guessed; "\\qquad (3)" is a
    number and "d_k(3)" a product, as before."""
    (line,) = read_lines("\\operatorname{Var}(z) = d_k (3)\n")
    assert "equation number or a factor" in line.error
    (numbered,) = read_lines("\\operatorname{Var}(z) = d_k \\qquad (3)\n")
    assert not numbered.error and numbered.rhs == "d_k"
    (product,) = read_lines("\\operatorname{Var}(z) = d_k(3)\n")
    assert not product.error and product.rhs == "d_k(3)"


def test_var_of_two_arguments_points_to_cov():
    with pytest.raises(StepSyntaxError, match=r"Cov\(X, Y\)"):
        parse_expression(r"\operatorname{Var}(q_1, k_1)")


@pytest.mark.parametrize(
    ("text", "written_out"),
    [
        # each against SymPy's own expansion of the same expression in distinct symbols
        (r"(a + b + c)^{3}", "(a + b + c)**3"),
        (r"(a + b)(c + d + e)", "(a + b)*(c + d + e)"),
        (r"\sum_{i=1}^{4} (q_i + k_i)", "q1 + k1 + q2 + k2 + q3 + k3 + q4 + k4"),
        (r"(q_1 k_1 + q_2 k_2 + q_3 k_3)^{2}", "(q1*k1 + q2*k2 + q3*k3)**2"),
        (r"a (b + c)^{2} + d", "a*(b + c)**2 + d"),
    ],
)
def test_expansion_terms_counts_what_sympy_multiplies_out(text, written_out):
    """The measure that bounds a step's work (issue 49) is the number of terms SymPy's expand
    gives for sides in distinct symbols; Var(X) counts X's terms squared."""
    import sympy as sp

    from symattn.grading.proofs.step_reader import expansion_terms

    assert expansion_terms(parse_expression(text)) == len(
        sp.Add.make_args(sp.expand(sp.sympify(written_out)))
    )
    var = expansion_terms(parse_expression(rf"\operatorname{{Var}}\left({text}\right)"))
    assert var == expansion_terms(parse_expression(text)) ** 2


@pytest.mark.parametrize(
    ("written", "read_as"),
    [
        (r"A = (P K)^{\mathsf{T}} \! X", r"A = (P K)^\top X"),
        (r"A = K^\mathrm{T} \qquad (P_2^\top P_2 = I)", r"A = K^\top"),
        (r"A = B \quad \text{since } (AB)^\top = B^\top A^\top", "A = B"),
        (r"A = B \blacksquare", "A = B"),
        (r"A = B. \qed", "A = B"),
        (r"Let $S = Q K^\top$.", r"S = Q K^\top"),
        (r"$A = B$ since $P^\top P = I$.", "A = B"),
        (r"Write $S = Q K^\top$. By $P^\top P = I$ we get the rest.", r"S = Q K^\top"),
    ],
)
def test_notes_marks_and_fonts_around_a_step(written, read_as):
    """Issue 48's review: a justification after a step, an end-of-proof mark, \\! and a transpose in
    a font are not part of the step; a sentence of one word around inline math is prose; of
    several formulas in a sentence, reasons are not read and a definition is."""
    (line,) = read_lines(written + "\n")
    spaced = (" ".join(line.lhs.split()), " ".join(line.rhs.split()))
    assert spaced == tuple(s.strip() for s in read_as.split("=", 1))
