"""Training FLOPs in a table, sizes of arrays and shares that dominate
(symattn/grading/audit/training.py, issue 47). After the JAX scaling book's transformer section;
each product worked by hand (6 · BT · 3DF = 18BTDF; with F = 4D, D = NH the MLP's 72BTD² meets
attention's 24BTD² + 12BT²D at T = 4D)."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims
from symattn.grading.audit.training import DOMINANT_RULE, RESTATED_RULE, RULE, SIZE_RULE, THUMB_RULE

TABLE = (
    "The activations are $A[B, T, D]$, and the dot products cost $$\\approx 12BTSNH = 12BT^2NH$$ in "
    "training.\n\n"
    "| Component | Params per layer | Training FLOPs per layer |\n"
    "| :-- | :-- | :-- |\n"
    "| **MLP** | 3DF | 18BTDF |\n"
    "| **Attention** | 4DNH | 24BTDNH \\+ 12BT<sup>2</sup>NH |\n"
    "| **Other** | D | BTD |\n"
    "| **Vocab** | DV (total, not per-layer) | 6BTDV |\n"
)


def _verdicts(text: str, rule: str) -> list[str]:
    return [c.verdict for c in audit_claims(text) if c.rule == rule]


def test_each_matmul_row_costs_six_flops_per_parameter_per_token():
    # MLP and vocab; attention adds the dot products, which hold no parameters: not read
    assert _verdicts(TABLE, RULE) == ["certified", "certified"]
    assert _verdicts(TABLE.replace("| 6BTDV |", "| 12BTDV |"), RULE) == ["certified", "wrong"]
    # a slip in the first row: the tokens come from the next row whose FLOPs give an array's axes
    assert _verdicts(TABLE.replace("18BTDF", "16BTDF"), RULE) == ["wrong", "certified"]
    # tokens that are no array's axes (B alone, of A[B, T, D]): the table is not read
    assert _verdicts(TABLE.replace("18BTDF", "18BDF").replace("6BTDV", "6BDV"), RULE) == []
    # two matrices in a vocabulary row (an untied embedding's lookup costs no FLOPs): not read
    assert _verdicts(TABLE.replace("| DV (total, not per-layer) | 6BTDV |", "| 2DV | 6BTDV |"), RULE) == [
        "certified"
    ]


def test_a_table_without_training_flops_is_not_read():
    assert _verdicts(TABLE.replace("Training FLOPs", "Inference latency"), RULE) == []


SIZE = (
    "Each KV cache is an array of size $[2, S, L, K, H]$ where the 2 accounts for the keys and values. "
    "The total size of the cache in int8 is $2SLKH$.\n"
)


def test_an_arrays_size_is_the_product_of_its_shape_in_the_types_bytes():
    assert _verdicts(SIZE, SIZE_RULE) == ["certified"]
    assert _verdicts(SIZE.replace("$2SLKH$", "$SLKH$"), SIZE_RULE) == ["wrong"]
    assert _verdicts(SIZE.replace("in int8", "in bf16"), SIZE_RULE) == ["wrong"]
    assert _verdicts(SIZE.replace("in int8 is $2SLKH$", "in bf16 is $4SLKH$"), SIZE_RULE) == ["certified"]


#: The dot products' own table (the scaling book's), its total certified before the summary.
DOT_PRODUCTS = (
    "With self-attention, T and S are the same.\n\n"
    "$$\n\\begin{array}{cc}\n\\textrm{operation} & \\textrm{train FLOPs} \\\\\n\\hline \\\\\n"
    "Q[B, T, N, H] \\cdot K[B, S, N, H] & 6BTSNH \\\\\n"
    "P[B, T, S, N] \\cdot V[B, S, N, H] & 6BTSNH \\\\\n\\hline \\\\\n"
    "& \\approx 12BTSNH = 12BT^2NH \\\\\n\\end{array}\n$$\n\n"
)


def test_a_row_that_adds_the_dot_products_total_is_read():
    """24BTDNH is 6 · BT · 4DNH; 12BT²NH is the dot products' 12BTSNH with S = T, as stated."""
    text = DOT_PRODUCTS + TABLE
    assert _verdicts(text, RULE) == ["certified"] * 3
    said = [c.value for c in audit_claims(text) if c.rule == RULE][1]
    assert said.endswith("plus 12*B*H*N*T^2, the total of line 10, with S = T as the text states")
    assert _verdicts(text.replace("| 24BTDNH", "| 12BTDNH"), RULE) == ["certified", "wrong", "certified"]
    # the dot products' total with another coefficient (a hostile review's plant)
    assert _verdicts(text.replace("12BT<sup>2</sup>NH |", "6BT<sup>2</sup>NH |"), RULE) == [
        "certified",
        "wrong",
        "certified",
    ]
    # a term that is no total certified before (T³), or lengths the text never says are equal
    assert _verdicts(text.replace("12BT<sup>2</sup>NH |", "12BT<sup>3</sup>NH |"), RULE) == ["certified"] * 2
    unstated = text.replace("With self-attention, T and S are the same.", "")
    assert _verdicts(unstated, RULE) == ["certified"] * 2


@pytest.mark.parametrize(
    ("sentence", "verdicts"),
    [
        (
            "The FLOPs during training are about $6 \\cdot \\text{num_params} \\cdot \\text{num_tokens}$.",
            ["certified"],
        ),
        (
            "The FLOPs during training are about $4 \\cdot \\text{num_params} \\cdot \\text{num_tokens}$.",
            ["wrong"],
        ),
        (
            "At inference the forward pass costs $2 \\cdot \\text{num_params} \\cdot \\text{num_tokens}$.",
            ["certified"],
        ),
        (
            "At inference the forward pass costs $6 \\cdot \\text{num_params} \\cdot \\text{num_tokens}$.",
            ["wrong"],
        ),
        ("During training: each token requires $6 * \\text{num parameters}$ FLOPs.", ["certified"]),
        (
            "Training and inference cost $6 \\cdot \\text{num_params} \\cdot \\text{num_tokens}$.",
            [],
        ),  # which?
        ("During training the weights hold $6 * \\text{num parameters}$ bytes.", []),  # not per token
        # the backward pass alone: 4 (a hostile review's true sentence)
        (
            "In training, the backward pass alone costs "
            "$4 \\cdot \\text{num_params} \\cdot \\text{num_tokens}$.",
            ["certified"],
        ),
        (
            "In training, the backward pass costs $6 \\cdot \\text{num_params} \\cdot \\text{num_tokens}$.",
            ["wrong"],
        ),
    ],
)
def test_the_rule_of_thumb_in_words(sentence, verdicts):
    assert _verdicts(sentence + "\n", THUMB_RULE) == verdicts


def test_a_total_stated_again_is_certified_with_the_equality_the_text_states():
    again = (
        "\n\nDuring inference, our KV caches are roughly $2 \\cdot S \\cdot L \\cdot N \\cdot H$ per cache.\n"
    )
    same = "\n\nWith multi-head attention, N and K are the same.\n"
    assert _verdicts(SIZE + same + again, RESTATED_RULE) == ["certified"]
    assert _verdicts(SIZE + again, RESTATED_RULE) == []  # no equality stated: not read
    assert (
        _verdicts(SIZE + same + again.replace("2 \\cdot S", "4 \\cdot S"), RESTATED_RULE) == []
    )  # never wrong
    assert (
        _verdicts(
            SIZE + same + again.replace("KV caches are", "weights are").replace("per cache", "per layer"),
            RESTATED_RULE,
        )
        == []
    )  # another thing


RATIO = (
    "Assume $$F=4D$$ and $$D=NH$$:\n\n"
    "$$\\frac{\\textrm{attention FLOPs}}{\\textrm{matmul FLOPs}} = \\frac{12BT^2NH}{18BTDF + 24BTDNH} = "
    "\\frac{T}{8D}$$\n\n"
    "So attention FLOPs only become dominant during training once T>8D. For D ~ 8k, this would be ~64K "
    "tokens. It means as the MLP size increases, the attention FLOPs become less critical.\n"
)


@pytest.mark.parametrize(
    ("change", "verdicts"),
    [
        (None, ["certified", "certified", "certified"]),
        (("once T>8D", "once T>4D"), ["wrong", "certified"]),  # the bound wrong: its instance is not read
        (("~64K", "~32K"), ["certified", "wrong", "certified"]),
        (("less critical", "more critical"), ["certified", "certified", "wrong"]),
    ],
)
def test_a_share_dominates_past_the_bound_its_ratio_gives(change, verdicts):
    text = RATIO.replace(*change) if change else RATIO
    assert _verdicts(text, DOMINANT_RULE) == verdicts


def test_a_block_dominates_while_it_is_the_largest_row():
    text = (
        "Assume $$F=4D$$ and $$D=NH$$.\n\n"
        + TABLE
        + "\nThe MLP block also dominates the FLOPs budget as long as the sequence length $T < 8D$.\n"
    )
    assert _verdicts(text, DOMINANT_RULE) == ["wrong"]  # the MLP is the largest while T < 4D
    assert _verdicts(text.replace("$T < 8D$", "$T < 4D$"), DOMINANT_RULE) == ["certified"]


def test_repeating_the_forward_pass_adds_a_third_of_the_training_flops():
    from symattn.grading.audit.training import REMAT_RULE

    text = (
        "Block remat forces us to repeat essentially all forward pass FLOPs in the backward pass, meaning we "
        "increase our FLOPs from $6ND$ to roughly $8ND$.\n"
    )

    def verdicts(text: str) -> list[str]:
        return [c.verdict for c in audit_claims(text) if c.rule == REMAT_RULE]

    assert verdicts(text) == ["certified"]
    assert verdicts(text.replace("$8ND$", "$12ND$")) == ["wrong"]
    assert verdicts(text.replace("repeat essentially all forward pass FLOPs", "save more memory")) == []
