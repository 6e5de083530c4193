"""The shape of attention's output said in words (symattn/grading/audit/outputs.py, issue 47):
one row per query, as wide as a value, for each example; self-attention keeps its tokens.
Texts written here after D2L's; the verdicts come from reading them."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims
from symattn.grading.audit.outputs import RULE

EXAMPLE = (
    "For the purpose of our example we assume that we have a minibatch size of $2$, a total of $10$ keys "
    "and values, and that the dimensionality of the values is $4$. Given that, we expect the output to be "
    "a $2 \\times 1 \\times 4$ tensor, i.e., one row per example of the minibatch.\n"
)


def _verdicts(text: str) -> list[tuple[str, str | None]]:
    return [(c.verdict, c.value) for c in audit_claims(text) if c.rule == RULE]


def test_a_worked_examples_output_is_certified_from_the_givens_of_its_paragraph():
    assert _verdicts(EXAMPLE) == [("certified", "2 × 1 × 4")]


@pytest.mark.parametrize(
    "wrong, value",
    [
        (
            "2 \\times 10 \\times 4",
            "2 × 1 × 4: the keys are summed over, one row per query",
        ),  # the keys' axis
        ("3 \\times 1 \\times 4", "2 × 1 × 4"),
        ("2 \\times 1 \\times 2", "2 × 1 × 4"),  # the queries' width, not the values'
    ],
)
def test_an_output_shape_that_contradicts_the_givens_is_flagged(wrong, value):
    assert _verdicts(EXAMPLE.replace("2 \\times 1 \\times 4", wrong)) == [("wrong", value)]


def test_an_output_whose_queries_are_not_given_decides_nothing_about_that_axis():
    """Without "one row per example", a middle axis of 10 may be 10 queries: nothing is said."""
    text = EXAMPLE.replace(", i.e., one row per example of the minibatch", "")
    assert _verdicts(text) == []
    assert _verdicts(text.replace("2 \\times 1 \\times 4", "2 \\times 10 \\times 4")) == []
    assert _verdicts(text.replace("2 \\times 1 \\times 4", "2 \\times 10 \\times 5")) == [
        ("wrong", "2 × ? × 4")
    ]


SELF = (
    "Given tokens $\\mathbf{x}_1, \\ldots, \\mathbf{x}_n$, self-attention outputs\n"
    "$$\\mathbf{y}_i = f(\\mathbf{x}_i, (\\mathbf{x}_1, \\mathbf{x}_1), \\ldots) \\in \\mathbb{R}^d$$\n\n"
    "The following code computes the self-attention of a tensor\n"
    "with shape (batch size, number of tokens, $d$).\n"
    "The output tensor has the same shape.\n"
)


def test_self_attention_keeps_its_inputs_tokens():
    said = "(batch size, number of tokens, d): self-attention gives one output per token"
    assert _verdicts(SELF) == [("certified", said)]
    assert _verdicts(SELF.replace("has the same shape", "has shape (batch size, $d$)")) == [("wrong", said)]


def test_the_same_shape_needs_the_outputs_width_from_the_text():
    """The output's width is the values': "the same shape" is certified only where the text gives
    each output the input's width."""
    assert _verdicts(SELF.replace("\\in \\mathbb{R}^d", "\\in \\mathbb{R}^{d_v}")) == []


MAPS = (
    "The object `attention_maps` is a list of length $N$ where $N$ is the number of layers. Each element "
    "is a tensor of shape [Batch, Heads, SeqLen, SeqLen], which we can verify below.\n"
)


def _weights(text: str) -> list[tuple[str, str | None]]:
    return [(c.verdict, c.value) for c in audit_claims(text) if c.rule.startswith("attention maps")]


def test_attention_maps_hold_one_weight_per_query_and_key():
    """UvA DL tutorial 6, cell 51: the last two axes of an attention map are positions."""
    assert _weights(MAPS) == [
        ("certified", "the last two axes SeqLen × SeqLen: one weight per query and key")
    ]
    said = "one weight per query and key needs two position axes, not SeqLen × Heads"
    assert _weights(MAPS.replace("SeqLen, SeqLen]", "SeqLen, Heads]")) == [("wrong", said)]
    assert (
        _weights(MAPS.replace("[Batch, Heads, SeqLen, SeqLen]", "[Batch, Queries, Keys]"))[0][0]
        == "certified"
    )


def test_a_tensor_shape_that_is_not_of_attention_weights_is_not_read():
    text = MAPS.replace("attention_maps", "hidden_states").replace("SeqLen, SeqLen]", "SeqLen, Hidden]")
    assert _weights(text) == []


JOINED = (
    "The weights re-weigh the values, and these `(B, S, D/A, A)`-shaped tensors\n"
    "are then concatenated along the $e$-direction to re-form a `(B, S, D)`-shaped\n"
    "tensor $u_{bsd}$.\n"
)


def _joined(text: str) -> list[tuple[str, str, str | None]]:
    from symattn.grading.audit.keys import audit_module
    from symattn.grading.audit.sources import read_source

    audit = audit_module(read_source(text))
    claims = [c for c in audit.claims if c.rule.startswith("shapes: tensors concatenated")]
    return [(audit.lines_of(c), c.verdict, c.value) for c in claims]


def test_heads_concatenated_keep_every_entry():
    """Goon's notes, line 193: A heads of width D/A side by side are D wide."""
    assert _joined(JOINED) == [("1–2", "certified", "B*D*S entries before and after")]
    planted = JOINED.replace("(B, S, D/A, A)", "(B, S, D, A)")
    assert _joined(planted) == [("1–2", "wrong", "A*B*D*S entries before, not B*D*S")]
    # two shapes that are not joined into one another: nothing to compare
    other = JOINED.replace("concatenated along the $e$-direction to re-form", "compared with")
    assert _joined(other) == []


LAYER = (
    "Outputs of an attention layer are the vectors $Y$ of shape $M \\times D_v$, at the top.\n\n"
    "Values are $V = X W_v$ where $W_v$ is of shape $D_x \\times D_v$. The value vectors have the same "
    "dimension as the output vectors.\n"
)


def test_outputs_are_as_wide_as_the_values():
    """CS231n's notes, line 80: outputs said to be M x D_k where the value weights make values
    D_v wide (a real error in the notes)."""
    from symattn.grading.audit.outputs import WIDTH_RULE

    def verdicts(text: str) -> list[tuple[int, str, str | None]]:
        return [(c.line, c.verdict, c.value) for c in audit_claims(text) if c.rule == WIDTH_RULE]

    said = "as wide as a value: D_v (W_v of shape D_x × D_v)"
    assert verdicts(LAYER) == [(1, "certified", said)]
    assert verdicts(LAYER.replace("M \\times D_v$, at", "M \\times D_k$, at")) == [(1, "wrong", said)]
    # value weights of two shapes in one text: which one the outputs follow is not guessed
    two = LAYER + "\nLater, $W_v$ is of shape $D_x \\times D_k$.\n"
    assert verdicts(two) == []


@pytest.mark.parametrize(
    "text",
    [
        # a hostile review's: single letters (N is the heads in the JAX book), another subject
        "The attention weights of the JAX model are a tensor of shape [B, T, N], one weight per query "
        "and head.\n",
        "We store the attention weights for plotting. The hidden states are a tensor of shape "
        "(batch, seq_len, d_model).\n",
        "Each element is a tensor of shape [batch, queries, keys, heads], since our einsum puts the "
        "heads last, after we store the attention weights.\n",
    ],
)
def test_shapes_that_are_not_of_the_maps_or_in_letters_are_not_read(text):
    assert _weights(text) == []


def test_an_output_taken_further_is_not_read_as_attentions_own():
    """A projection after the heads (D2L's multi-head example) makes another width."""
    text = EXAMPLE.replace("Given that, we expect", "After an output projection to width $8$, we expect")
    assert _verdicts(text.replace("2 \\times 1 \\times 4", "2 \\times 1 \\times 8")) == []


def test_cross_attention_maps_are_not_certified_on_one_length():
    """A second review's: the weights of cross-attention run over a target and a source."""
    text = (
        "In the decoder's cross-attention, the attention weights are a tensor of shape "
        "(batch, heads, target_length, target_length).\n"
    )
    assert _weights(text) == []
