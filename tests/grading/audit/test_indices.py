"""Index bookkeeping in index notation (symattn/grading/audit/indices.py): an equation's indices
balance, or an index is missing or stray; read only where a text writes in index notation."""

from __future__ import annotations

import pytest

from symattn.grading.audit.indices import check
from symattn.grading.audit.keys import audit_module
from symattn.grading.audit.sources import read_source

LETTERS = set("bsdeavhijrc")


@pytest.mark.parametrize(
    "tex",
    [
        r"q _{ bsea } = z _{ bsd } Q _{ dea }",  # d summed
        r"z _{ bsd } = {\rm Drop} \left (u _{ bsd' } O _{ d'd }\right )",
        r"u _{ bsd } = y _{ bs(e a) }",  # (ea) combines two indices into d
        r"z_{sah} = \texttt{Softmax}_{s'} ( q_{sah'} k_{s'ah'} ) v_{s'ah}",  # s' bound and summed
        r"B^{s}_{d'd} = \texttt{cumsum}_{s} ( k_{sd'} v_{sd} )",
        r"\theta_{d} = 10^{-8d/D}",  # d as a value
        r"W'_{dd'} \equiv \gamma_{d} W_{dd'}",  # an index of the left side may repeat on the right
        r"z_{bsd} = u_{bsd'} O_{d'd} + b_{d}",  # a bias broadcast over b and s
        r"q_{bsha} = x_{bsd} W^Q_{dha}, \; u_{bsd} = x_{bsd'} U_{d'd}",  # two equations, a comma between
        r"z_{irh} = \frac{Z_{irh}}{L_{ir}}",
        r"z_{irh} = \frac{\sum_{j} Z_{irjh}}{\sum_{j'} L_{ij'r}}",
    ],
)
def test_balanced_indices(tex):
    found = check(tex, LETTERS)
    assert found and all(ok for _, ok, _ in found)


@pytest.mark.parametrize(
    ("tex", "why"),
    [
        (r"w_{bss'da} = \texttt{Softmax}_{s'} (q_{bse} k_{bs'ea})", "the index d of the left side"),
        (r"y_{bsea} = {\rm Drop} ( w_{bdss'a} ) v_{bs'ea}", "the index d is written once"),
        (r"z_{bsd} = u_{bsd'} O_{dd}", "the index d' is written once"),
        (r"z_{bs} = x_{bsd} + y_{bsd}", "the index d is written once"),  # summed in each term, not across
        (r"z_{bsd} = y_{bs(eh)} O_{(eh)}", "the index e is written once"),  # one group stands for d
        (r"z_{bsd} = y_{bs(eh)} O_{(ea)d}", "the index a is written once"),  # a group that stands for nothing
        (r"m_{bs} = \sum_{d} x_{bsd} + z_{bsd}", "the index d is written once"),  # the sum: its term only
        (r"r_{bsd} = \sum_{d} x_{bsd}", "the index d of the left side is summed away"),
        (r"q_{bsea} = z_{bsd} Q_{dea}, \quad k_{bsea} = z_{bsd} K_{de}", "the index a of the left side"),
    ],
)
def test_unbalanced_indices(tex, why):
    found = check(tex, LETTERS)
    assert not all(ok for _, ok, _ in found) and any(w.startswith(why) for _, ok, w in found if not ok)


@pytest.mark.parametrize(
    "tex",
    [
        r"z_{bsd} \gets z_{bsd} + p_{sd}",  # an update: a step of an algorithm
        r"L_{ir} \gets L_{ir} + \sum_{c} \exp ( q_{irh'} k_{jch'} )",  # j is the loop's index
        r"\frac{\partial \mathcal{L}}{\partial S_{irjc}} = g_{irh} v_{jch}",  # a derivative
        r"z_{bsd} = \texttt{CausalTransformer}(x_{bs'd'})",  # a function it does not know
        r"p_{sv} = P(t_{s+1} | t_{s})",  # an index that is an expression
        r"q_{sd} = q_{s(ah)} \longrightarrow q_{sah}",  # a reshape
        r"x_{bs} = 0",  # no index on the right
    ],
)
def test_what_is_not_read(tex):
    assert check(tex, LETTERS) == []


NOTES = r"""Shapes: $ z _{ bsd } $, $ x _{ bsd } $, $ y _{ bsv } $, $ u _{ bsd } $ (sizes $B, S, D, E, A, V$).
\begin{align}
	q _{ bsea } & = z _{ bsd } Q _{ dea }
\end{align}
and
\begin{align}
	y _{ bse a} & = w _{ bss' a} v _{ bs'ea }
\end{align}
"""


def test_a_text_in_index_notation_has_its_equations_checked():
    audit = audit_module(read_source(NOTES, "latex"))
    assert [(c.line, c.verdict) for c in audit.claims] == [(3, "certified"), (7, "certified")]
    planted = audit_module(read_source(NOTES.replace("w _{ bss' a}", "w _{ bdss' a}"), "latex"))
    assert [(c.line, c.verdict) for c in planted.claims] == [(3, "certified"), (7, "wrong")]


def test_names_in_subscripts_are_not_indices():
    """d_{model}, d_{head}, d_{emb}: words, not indices (no M, O, D, E, L sizes stand alone)."""
    text = (
        "The model width is $d_{model} = 512$ and there are $h = 8$ heads.\n"
        "Each head projects to $d_{head}$ dimensions: $d_{head} = d_{model} / h = 64$.\n"
        "The feed-forward width is $d_{ff} = 4 d_{model}$; $h \\cdot d_{head}$ is mapped to $d_{model}$.\n"
        "The residual stream keeps width $d_{model}$, and so $d_{emb} = d_{model}$.\n"
    )
    audit = audit_module(read_source(text))
    assert [c for c in audit.claims if "index" in c.rule] == []
    assert [(c.line, c.verdict) for c in audit.claims if c.line == 2] == [(2, "certified")]


def test_a_text_that_does_not_write_in_index_notation_is_not_read_so():
    text = "With $q_i = W_q x_i$ and $y_{bsea} = w_{bdss'a} v_{bs'ea}$ once, nothing is read as indices.\n"
    assert [c for c in audit_module(read_source(text)).claims if "index" in c.rule] == []


def _size_verdicts(tex: str) -> list[str]:
    claims = audit_module(read_source(tex, "latex", None)).claims
    return [c.verdict for c in claims if c.rule.startswith("index bookkeeping: an index split")]


_CHUNKS = (
    "\\begin{itemize}\n"
    "\\item $ q _{ sh } = q _{ (ir)h } \\longrightarrow q _{ irh } $ where $ i \\in \\left \\{ 0, \\ldots\n"
    ", I-1 \\right \\} $ and $ r \\in \\left \\{ 0, \\ldots , R-1 \\right \\} $ with $ S=RI $\n"
    "\\item $ k _{ sh } = k _{ (jc)h } $ where $ j \\in \\left \\{ 1, \\ldots , J \\right \\} $ and\n"
    "$ c \\in \\left \\{ 0, \\ldots , C-1 \\right \\} $ with $ S=JC $\n"
    "\\end{itemize}\n"
)


def test_an_index_split_into_a_group_runs_over_the_product_of_the_groups_ranges():
    assert _size_verdicts(_CHUNKS) == ["certified", "certified"]
    assert _size_verdicts(_CHUNKS.replace("S=RI", "S=2RI")) == ["wrong", "certified"]
    assert _size_verdicts(_CHUNKS.replace("S=JC", "S=JC/2")) == ["certified", "wrong"]


LAYER_NORM = (
    NOTES
    + r"""
The LayerNorm output is $ z _{ bsd } \leftarrow \gamma _{ d } \hat z _{ bsd } + \beta _{ d } $
where $ \gamma _{ d }, \beta _{ d } $ are the trainable scale and bias parameters.
Since there are two LayerNorm instances in each block, these components require
$ 4D $ parameters per layer.
"""
)


def test_parameters_named_in_index_notation_are_counted_by_their_indices():
    """Goon's notes, line 111: gamma_d and beta_d hold D parameters each (d runs to D), and two
    LayerNorm instances hold 4D, not the 2D the notes state."""

    def counts(text: str) -> list[tuple[str, str | None]]:
        claims = audit_module(read_source(text, "latex")).claims
        return [(c.verdict, c.value) for c in claims if c.rule.startswith("shapes: parameters")]

    said = "2 × (gamma_d: D + beta_d: D) = 4*D"
    assert counts(LAYER_NORM) == [("certified", said)]
    assert counts(LAYER_NORM.replace("$ 4D $", "$ 2D $")) == [("wrong", said)]
    one = LAYER_NORM.replace("there are two LayerNorm instances in each block", "there is one instance")
    assert counts(one.replace("$ 4D $", "$ 2D $")) == [("certified", "gamma_d: D + beta_d: D = 2*D")]


HEADS = (
    NOTES
    + r"""
It features $ A $ sets of weight matrices $ Q _{ d e a} $ where $ a \in \left \{ 0, \ldots, A-1 \right \} $
and $ e \in \left \{ 0, \ldots, D/A - 1 \right \} $. The outputs are
\begin{align}
	y _{ bse a} & = w _{ bss' a} v _{ bs'ea }
\end{align}
and these \texttt{(B, S, D/A, A)}-shaped tensors are then concatenated.
"""
)


def test_an_index_range_is_checked_against_the_shape_of_its_tensor():
    """Goon's notes, line 140: e ∈ {0, ..., D/A} holds D/A + 1 values, where the (B, S, D/A, A)-shaped
    tensors y_{bsea} give e a range of D/A."""

    def ranges(text: str) -> list[tuple[str, str | None]]:
        claims = audit_module(read_source(text, "latex")).claims
        return [(c.verdict, c.value) for c in claims if "as many values as the shape" in c.rule]

    shape = "the (B, S, D/A, A)-shaped tensors give it"
    assert ranges(HEADS) == [
        ("certified", f"a runs over A values; {shape} A"),
        ("certified", f"e runs over D/A values; {shape} D/A"),
    ]
    planted = HEADS.replace("D/A - 1 \\right", "D/A \\right")
    assert ranges(planted)[1] == ("wrong", f"e runs over 1 + D/A values; {shape} D/A")


MLP = (
    NOTES
    + r"""
\subsection{MLP}

The feed-forward network is
\begin{align}
	z _{ bsd } & \leftarrow \phi \left ( z _{ bsd' }W ^{ 0 }_{ d'e } \right ) W ^{ 1 } _{ ed }
\end{align}
where $ W ^{ 0 } $ and $ W ^{ 1 } $ are \pyinline{(D, ED)}- and \pyinline{(ED, D)}-shaped matrices,
respectively.
"""
)


def test_shapes_declared_for_a_display_give_each_index_one_range():
    """Goon's notes, line 233: e runs to ED in both W^0_{d'e} and W^1_{ed}, d' and d to D."""
    from symattn.grading.audit.shapes import DISPLAY_RULE

    def verdicts(text: str) -> list[tuple[str, str | None]]:
        claims = audit_module(read_source(text, "latex")).claims
        return [(c.verdict, c.value) for c in claims if c.rule == DISPLAY_RULE]

    assert verdicts(MLP) == [("certified", "d runs to D; e runs to D*E")]
    assert verdicts(MLP.replace("(ED, D)}-shaped", "(D, ED)}-shaped")) == [
        ("wrong", "d runs to D and to D*E; e runs to D and to D*E")
    ]
    assert verdicts(MLP.replace("(D, ED)}- and", "(E, ED)}- and")) == [("wrong", "d runs to D and to E")]


ATTENTION = (
    NOTES
    + r"""
\subsection{Attention}

The projections are $ q _{ bsea } = z _{ bsd } Q _{ dea } $, $ k _{ bsea } = z _{ bsd } K _{ dea } $ and
$ v _{ bsea } = z _{ bsd } V _{ dea } $, where the head index $ e $ runs over the $ D/A $ components of a head
and $ a $ over the $ A $ heads. The output is $ z _{ bsd } = u _{ bsd' } O _{ d'd } $.

The parameter count is dominated by the weight matrices which carry $ 4 D ^{ 2 } $ total parameters
per layer.
"""
)


def test_the_weight_matrices_a_section_applies_are_counted():
    """Goon's notes, line 222: Q, K, V hold D·(D/A)·A = D² each and O holds D², 4D² in all."""

    def counts(text: str) -> list[str]:
        claims = audit_module(read_source(text, "latex")).claims
        return [c.verdict for c in claims if c.rule.startswith("shapes: parameters")]

    assert counts(ATTENTION) == ["certified"]
    assert counts(ATTENTION.replace("$ 4 D ^{ 2 } $", "$ 3 D ^{ 2 } $")) == ["wrong"]


def test_a_shape_gives_sizes_only_to_the_tensor_defined_just_before_it():
    """A table's (V, D) shape, paragraphs after the last tensor defined, sizes none of its indices
    (Goon's notes: s had been taken to run to V, and the attention map's S² counted as V²)."""
    import sympy as sp

    from symattn.grading.audit.document import read
    from symattn.grading.audit.indices import index_sizes

    near = "The tensor is $x_{bs} = z_{bs}$.\n\nThese are (B, S)-shaped tensors.\n"
    far = "The tensor is $x_{bs} = z_{bs}$.\n\nSome words.\n\nMore words.\n\nA (V, D)-shaped table.\n"
    b, s = sp.symbols("B S", positive=True)
    assert {k: v[0] for k, v in index_sizes(read(read_source(near).text)).items()} == {"b": b, "s": s}
    assert index_sizes(read(read_source(far).text)) == {}


ABSORBED = (
    NOTES
    + r"""
The LayerNorm's parameters are absorbed into the next linear layer:
\begin{align}
	\left ( x _{ bsd } \gamma _{ d } + \beta _{ d } \right ) W _{d d'} + b _{ d' } & = x _{ bsd }
	W' _{ d d' } + b' _{ d' } \ , \quad W' _{ d d' } \equiv \gamma _{ d} W _{ d d' } \ , \quad b' _{
	d' } \equiv b _{ d' } + \beta _{ d }W _{ d d' } \ ,
\end{align}
for arbitrary $ x _{ bsd } $.
"""
)


def test_an_identity_in_index_notation_is_computed_on_the_same_tensors():
    """Goon's notes, lines 121-123: both sides computed on integer tensors agree; the bias
    absorbed as b + γW (the planted error) makes them differ, on the display's last line."""
    from symattn.grading.audit.einsum import RULE as COMPUTED

    def verdicts(text: str) -> list[tuple[str, int]]:
        claims = audit_module(read_source(text, "latex")).claims
        return [(c.verdict, c.through) for c in claims if COMPUTED in c.rule]

    lines = verdicts(ABSORBED)
    assert [v for v, _ in lines] == ["certified"] and lines[0][1] > 0
    assert [
        v for v, _ in verdicts(ABSORBED.replace(r"b _{ d' } + \beta _{ d }W", r"b _{ d' } + \gamma _{ d }W"))
    ] == ["wrong"]


@pytest.mark.parametrize(
    "tex",
    [
        r"q _{ bsea } = z _{ bsd } Q _{ dea }",  # a definition of q
        r"A _{ ij } = A _{ ji }",  # a property of A, not an identity for every A
        r"z _{ bsd } = {\rm Drop} ( u _{ bsd' } O _{ d'd } )",  # a function: the bookkeeping's
    ],
)
def test_what_is_not_an_identity_of_tensors_is_not_computed(tex):
    from symattn.grading.audit.einsum import evaluate

    assert evaluate(tex, LETTERS) is None
