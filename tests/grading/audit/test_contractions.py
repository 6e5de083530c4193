"""Costs of contractions of arrays with named axes (symattn/grading/audit/contractions.py): the
FLOPs, training FLOPs, data and parameters a table or a sentence states, each against the count
made from the operands' axes. Expected costs here are counted by hand from the axes."""

from __future__ import annotations

import pytest

from symattn.grading.audit.contractions import Axes, axes_of, clean
from symattn.grading.audit.keys import audit_module
from symattn.grading.audit.sources import read_source

SHAPES = r"""Let's start with vectors and matrices of these shapes:

$$
\begin{array}{cc}
\textrm{array}  & \textrm{shape} \\ \hline
x               & \textrm{[P]}   \\
y               & \textrm{[P]}   \\
A               & \textrm{[N P]} \\
B               & \textrm{[P M]} \\
\end{array}
$$

- A dot product $$x \cdot y$$ takes $$2P$$ floating-point operations.
- A matrix-vector product $$Ax$$ does $$N$$ dot products, for $$2NP$$ FLOPs.
- A matrix-matrix product $$AB$$ costs $$2NPM$$ FLOPs total.
"""

MLP = r"""
$$
\begin{array}{ccc}
\textrm{operation} & \textrm{train FLOPs} & \textrm{params} \\
\hline \\
A[B,T,\red{D}] \cdot W_{in1}[\red{D}, F] & 6BTDF & DF \\[10pt]
A[B,T,\red{D}] \cdot W_{in2}[\red{D}, F] & 6BTDF & DF \\[10pt]
\sigma\left(A_{in1}\right)[B,T, F] * A_{in2}[B,T, F] & \gray{O(BTF)} \\[10pt]
A[B,T,\red{F}] \cdot W_{out}[\red{F}, D] & 6BTDF & DF \\[10pt]
\hline \\
& \approx 18BTDF & 3DF
\end{array}
$$
"""
MACROS = "$$\n\\def\\red#1{\\textcolor{red}{#1}}\n\\def\\gray#1{\\textcolor{gray}{#1}}\n$$\n"


def _claims(text: str) -> list[tuple[int, str, str]]:
    audit = audit_module(read_source(text))
    return [(c.line, c.verdict, c.text) for c in audit.claims if "FLOPs" in c.rule or "contraction" in c.rule]


@pytest.mark.parametrize(
    ("written", "axes"),
    [
        ("B,T,D", ("B", "T", "D")),
        ("N P", ("N", "P")),
        ("GHIJKL", ("G", "H", "I", "J", "K", "L")),
        ("d_model, h", ("d_model", "h")),
        ("c_0,...,c_N", None),
        ("2, 3", None),
    ],
)
def test_the_axes_of_an_array(written, axes):
    assert axes_of(written) == axes


def test_colours_and_styles_are_not_axes():
    written = r"A[B,T,\textcolor{red}{D}] \cdot W_{in1}[\textcolor{red}{D}, F]"
    assert clean(written) == r"A[B,T,D] \cdot W_in1[D, F]"


@pytest.mark.parametrize(
    ("formula", "flops", "train", "data", "params"),
    [
        (r"A[B,T,D] \cdot W[D,F]", "2*B*T*D*F", "6*B*T*D*F", "B*T*D + D*F", "D*F"),
        (r"W[D,F] \cdot A[B,T,D]", "2*B*T*D*F", "6*B*T*D*F", "B*T*D + D*F", "D*F"),  # the weight is W
        (r"Q[B,T,N,H] \cdot K[B,S,N,H]", "2*B*T*N*H*S", "6*B*T*N*H*S", "B*N*H*(T + S)", None),  # no weight
    ],
)
def test_a_contraction_counts_each_shared_axis_once(formula, flops, train, data, params):
    import sympy as sp

    op = Axes().operation(formula)
    assert op is not None
    assert (op.cost("params") is None) == (params is None)
    for quantity, by_hand in (("flops", flops), ("train", train), ("data", data), ("params", params or "0")):
        got = op.cost(quantity) if by_hand != "0" else sp.Integer(0)
        letters = {str(s): s for s in got.free_symbols}  # the sizes' symbols, by name (S is no singleton)
        assert sp.expand(got - sp.sympify(by_hand, locals=letters)) == 0, quantity


def test_an_elementwise_product_or_a_lone_array_is_no_contraction():
    axes = Axes()
    axes.learn("A[B,T,F]")
    assert axes.operation(r"\sigma(A_in1)[B,T, F] * A_in2[B,T, F]") is None
    assert axes.operation("A[B,T,F]") is None
    assert axes.operation("A x") is None  # x has no shape the text gave


def test_costs_in_sentences_from_the_shapes_a_table_gives():
    assert [(n, v) for n, v, _ in _claims(SHAPES)] == [(n, "certified") for n in (13, 14, 15)]
    planted = SHAPES.replace("$$2P$$ floating", "$$3P$$ floating").replace("$$2NPM$$", "$$3NPM$$")
    assert [(n, v) for n, v, _ in _claims(planted)] == [(13, "wrong"), (14, "certified"), (15, "wrong")]
    # a figure that differs by letters counts something else: not decided
    other = SHAPES.replace("$$2NPM$$", "$$2NP$$")
    assert [(n, v) for n, v, _ in _claims(other)][-1] == (15, "unchecked")


@pytest.mark.parametrize(
    "sentence",
    [
        "A matrix-matrix product $$AB$$ costs $$2NPM$$ FLOPs forward and $$4NPM$$ FLOPs backward.",
        "Training the product $$AB$$ takes $$6NPM$$ FLOPs in all.",
        "$$Ax$$ costs $$2NP$$ FLOPs, so a batch of $$M$$ of them costs $$2MNP$$ FLOPs.",
    ],
)
def test_a_sentence_whose_figures_count_more_than_one_product_is_not_read(sentence):
    text = SHAPES.split("- A dot")[0] + sentence + "\n"
    assert _claims(text) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Doing $$X[B,T,D] \\cdot W[D,F]$$ for the three projections Q, K and V takes $$6BTDF$$ FLOPs.",
        "Repeated in both attention and the MLP, $$X[B,T,D] \\cdot W[D,F]$$ costs us $$4BTDF$$ FLOPs.",
        "We do $$A[N,P] \\cdot x[P]$$ twice, so $$4NP$$ FLOPs.",
    ],
)
def test_a_sentence_that_counts_an_operation_more_than_once_is_not_read(sentence):
    assert _claims(sentence + "\n") == []


def test_a_table_row_that_says_more_than_its_operation_or_a_count_column_is_not_read():
    rows = (
        "| operation | FLOPs |\n|---|---|\n| $X[B,T,D] \\cdot W[D,F]$ for Q, K and V | $6BTDF$ |\n"
        "| $X[B,T,D] \\cdot W[D,F]$ | $2BTDF$ |\n| | $8BTDF$ |\n"
    )
    assert [(n, v) for n, v, _ in _claims(rows)] == [(4, "certified")]  # no total over an uncountable row
    counted = "| operation | count | FLOPs |\n|---|---|---|\n| $X[B,T,D] \\cdot W[D,F]$ | 3 | $6BTDF$ |\n"
    assert _claims(counted) == []


def test_a_figure_without_digits_and_an_outer_product_in_a_sentence():
    text = "The outer product $$u[N] \\cdot v[M]$$ costs $$NM$$ FLOPs.\n"
    assert [v for _, v, _ in _claims(text)] == ["certified"]
    assert [v for _, v, _ in _claims(text.replace("$$NM$$", "$$2NM$$"))] == ["wrong"]


def test_relations_the_text_assumes_hold_for_the_axes():
    text = SHAPES.split("- A dot")[0] + (
        "Assume the matrices are square, $$M = N$$ and $$P = N$$.\n\nThen $$AB$$ costs $$2N^3$$ FLOPs.\n"
    )
    assert [(v) for _, v, _ in _claims(text)] == ["certified"]


def test_a_table_of_training_flops_and_parameters_and_its_totals():
    got = _claims(MACROS + MLP)
    assert [(n, v) for n, v, _ in got] == [
        (10, "certified"), (10, "certified"),
        (11, "certified"), (11, "certified"),
        (13, "certified"), (13, "certified"),  # the O(BTF) row is left out of the sums
        (15, "certified"), (15, "certified"),
    ]  # fmt: skip
    for find, replace, line in [
        ("W_{in1}[\\red{D}, F] & 6BTDF", "W_{in1}[\\red{D}, F] & 4BTDF", 10),
        ("\\approx 18BTDF", "\\approx 12BTDF", 15),
        ("& 3DF", "& 3DF^2", 15),
        ("W_{out}[\\red{F}, D] & 6BTDF & DF", "W_{out}[\\red{F}, D] & 6BTDF & FF", 13),
    ]:
        planted = (MACROS + MLP).replace(find, replace, 1)
        assert planted != MACROS + MLP
        wrong = [n for n, v, _ in _claims(planted) if v == "wrong"]
        assert wrong == [line], (replace, wrong)


@pytest.mark.parametrize(
    "header",
    [r"\textrm{backward FLOPs}", r"\textrm{FLOPs per token}", r"\textrm{intensity (FLOPs/byte)}",
     r"\textrm{data (bytes, bf16)}", r"\textrm{params (bytes, bf16)}"],
)  # fmt: skip
def test_a_column_that_counts_something_else_is_not_read(header):
    text = MACROS + MLP.replace(r"\textrm{train FLOPs}", header).replace(r"\textrm{params}", header)
    assert _claims(text) == []


def test_an_outer_product_adds_nothing_and_an_entrywise_one_is_not_guessed():
    text = (
        MACROS
        + r"""
$$
\begin{array}{cc}
\textrm{operation} & \textrm{FLOPs} \\
x[P] \cdot y[Q] & PQ \\
G[B,T,F] \cdot H[B,T,F] & BTF \\
x[P] \cdot z[P] & 2P \\
\end{array}
$$
"""
    )
    assert [(n, v) for n, v, _ in _claims(text)] == [(9, "certified"), (11, "certified")]


def test_a_rough_total_may_leave_out_rows_of_lower_order_and_subtotals_start_anew():
    text = (
        MACROS
        + r"""
$$
\begin{array}{cc}
\textrm{operation} & \textrm{FLOPs} \\
A[B,T,D] \cdot W[D,F] & 2BTDF \\
A[B,T,D] \cdot U[D,F] & 2BTDF \\
A[B,T,D] \cdot b[D] & 2BTD \\
& \approx 4BTDF \\
A[B,T,F] \cdot V[F,D] & 2BTDF \\
A[B,T,F] \cdot R[F,D] & 2BTDF \\
& 4BTDF \\
\end{array}
$$
"""
    )
    got = [(n, v) for n, v, _ in _claims(text)]
    assert got == [(n, "certified") for n in range(9, 16)]
    assert [v for n, v, _ in _claims(text.replace(r"\approx 4BTDF", r"\approx 2BTDF"))][3] == "wrong"
    # a rough total keeps the larger rows, never the lower-order one alone
    assert [v for n, v, _ in _claims(text.replace(r"\approx 4BTDF", r"\approx 2BTD"))][3] == "wrong"
    assert [v for n, v, _ in _claims(text.replace(r"& 4BTDF \\", r"& 6BTDF \\"))][-1] == "wrong"


def test_a_total_over_a_row_the_rule_cannot_count_is_not_judged():
    text = MACROS + MLP.replace(r"\sigma\left(A_{in1}\right)[B,T, F] * A_{in2}[B,T, F] & \gray{O(BTF)}",
                                r"\textrm{gelu}\; A[B,T,F] & 24BTF")  # fmt: skip
    assert [t for n, _, t in _claims(text) if n == 15] == ["⟨3DF⟩"]  # the parameters' total only


def test_a_table_in_markdown_with_a_header_in_words():
    text = SHAPES.split("- A dot")[0] + (
        "| Operation | FLOPs | Params |\n|---|---|---|\n"
        "| $A[B,T,F] \\cdot W[F,D]$ | $2BTDF$ | $FD$ |\n| $A[B,T,F] \\cdot W_2[F,D]$ | $2BTD$ | $FD$ |\n"
    )
    assert [(n, v) for n, v, _ in _claims(text)] == [
        (15, "certified"),
        (15, "certified"),
        (16, "wrong"),
        (16, "certified"),
    ]


def test_a_total_that_goes_on_under_an_unstated_premise_is_left_unchecked():
    text = MACROS + MLP.replace("\\approx 18BTDF", "\\approx 18BTDF = 18BT^2F")
    got = {(n, v) for n, v, _ in _claims(text)}
    assert (15, "unchecked") in got and (15, "wrong") not in got


def test_a_total_that_goes_on_by_dropping_an_axis_is_flagged():
    """The JAX scaling book's attention table ends "≈ 12BTSNH = 12BT^2NH" (S = T, a premise);
    a chain that drops an axis instead (18BTDF = 18BTD) holds only if that axis has size 1."""
    text = MACROS + MLP.replace("\\approx 18BTDF", "\\approx 18BTDF = 18BTD")
    audit = audit_module(read_source(text))
    got = [(c.line, c.verdict, c.value) for c in audit.claims if c.line == 15 and "contraction" in c.rule]
    assert (15, "wrong", "18*B*D*T equals 18*B*D*F*T only if F = 1") in got
    assert [v for _, v, _ in got].count("wrong") == 1  # the parameters' total, 3DF, stays certified


def test_a_total_that_goes_on_under_a_premise_the_text_states_is_certified():
    """The scaling book's "≈ 12BTSNH = 12BT^2NH" after "With self-attention, T and S are the same"."""
    table = (
        "$$\n\\begin{array}{cc}\n\\textrm{operation} & \\textrm{train FLOPs} \\\\\n\\hline \\\\\n"
        "Q[B, T, N, H] \\cdot K[B, S, N, H] & 6BTSNH \\\\\n"
        "P[B, T, S, N] \\cdot V[B, S, N, H] & 6BTSNH \\\\\n\\hline \\\\\n"
        "& \\approx 12BTSNH = 12BT^2NH \\\\\n\\end{array}\n$$\n"
    )

    def total(text: str) -> tuple[str, str]:
        (claim,) = [c for c in audit_module(read_source(text)).claims if "a total of 2 rows" in c.rule]
        return claim.verdict, claim.rule

    assert total(table)[0] == "unchecked"
    premise = "With self-attention, T and S are the same."
    verdict, rule = total(premise + "\n\n" + table)
    assert verdict == "certified" and rule.endswith(f'as line 1 states: "{premise}"')
    assert total("In self-attention $S = T$.\n\n" + table)[0] == "certified"  # a relation assumed
    # a stated equality of other letters is no premise of this chain
    assert total("With MHA, N and K are the same.\n\n" + table)[0] == "unchecked"
