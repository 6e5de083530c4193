"""Which way a causal mask points (symattn/grading/audit/causal.py, issue 47, must-have 2): the
roles of the two position indices come from the text's own product of a query and a key;
a condition for a 0 (allowed) must put the key at or before the query, one for -inf or for
vanishing weights after it. Texts in Goon's notation (s the query's position, s' the key's)
and in CS231n's (j the query's, i the key's); the verdicts are worked by hand."""

from __future__ import annotations

import pytest

from symattn.grading.audit.causal import RULE
from symattn.grading.audit.keys import audit_claims

GOON = (
    "The weights are causal: they come from the scores $q_{bse} k_{bs'ea}$ and the mask.\n\n"
    "The causal mask is\n\n"
    "$$m_{s s'} = \\begin{cases} 0 & s' \\le s \\\\ -\\infty & s' > s \\end{cases}$$\n\n"
    "forcing $w_{bss'a} = 0$ for $s' > s$, so no token sees the future.\n\n"
    "The causal mask $C_{ss'}$ is zero if $s \\ge s'$ and $-\\infty$ otherwise.\n"
)
CS231N = (
    "The alignment is $e_{i,j} = q_j \\cdot k_i / \\sqrt{D_k}$ for query $j$ and key $i$.\n\n"
    "The masked layer hides future keys: the weights are $w_{i,j} = 0$ whenever $i > j$.\n"
)


def _causal(text: str) -> list[tuple[int, str]]:
    return [(c.line, c.verdict) for c in audit_claims(text) if c.rule == RULE]


def test_masks_that_hide_the_future_are_certified():
    assert _causal(GOON) == [(5, "certified"), (7, "certified"), (9, "certified")]
    assert _causal(CS231N) == [(3, "certified")]


@pytest.mark.parametrize(
    ("text", "old", "new", "line"),
    [
        (GOON, "0 & s' \\le s", "0 & s \\le s'", 5),  # the case split reversed (Goon's own slip)
        (GOON, "for $s' > s$", "for $s > s'$", 7),  # the weights vanish for past keys
        (GOON, "zero if $s \\ge s'$", "zero if $s \\le s'$", 9),
        (CS231N, "whenever $i > j$", "whenever $i < j$", 3),
    ],
)
def test_a_mask_that_points_the_other_way_is_wrong(text, old, new, line):
    assert text.count(old) == 1
    assert (line, "wrong") in _causal(text.replace(old, new))


def test_nothing_is_judged_without_a_product_of_a_query_and_a_key():
    """The roles of s and s' are the text's: without its product of q and k, none is guessed."""
    text = GOON.replace("$q_{bse} k_{bs'ea}$", "the queries and keys")
    assert _causal(text) == []


def test_nothing_is_judged_outside_a_causal_paragraph():
    text = "The scores are $q_{bse} k_{bs'ea}$.\n\nThe band mask is zero if $s \\le s'$.\n"
    assert _causal(text) == []


# The triangle a causal mask hides, and the axis a softmax runs along, follow which index the
# score matrix's rows run over (its entry's first subscript): over the keys (CS231n's e_{i,j} =
# q_j · x_i, rows by the input i), future keys lie below the diagonal and each query's scores
# are a column; over the queries (e_{i,j} = q_i · k_j), above it, and a row.
BY_KEYS = "The alignment is $e_{i,j} = q_j \\cdot x_i / \\sqrt{D_x}$ for query $j$ and input $i$.\n\n"
BY_QUERIES = "The scores are $e_{i,j} = q_i \\cdot k_j / \\sqrt{d}$ for query $i$ and key $j$.\n\n"
MASKS = (
    "To stop looking ahead, the causal layer sets the {side}-triangular part of the matrix to "
    "negative infinity.\n"
)
AXIS = "The weights come from applying the softmax {axis}-wise to the alignment matrix.\n"


def _verdicts(text: str, rule: str) -> list[str]:
    return [c.verdict for c in audit_claims(text) if c.rule == rule]


@pytest.mark.parametrize(
    ("rows", "side", "verdict"),
    [(BY_KEYS, "lower", "certified"), (BY_KEYS, "upper", "wrong"),
     (BY_QUERIES, "upper", "certified"), (BY_QUERIES, "lower", "wrong")],
)  # fmt: skip
def test_the_masked_triangle_holds_the_keys_after_the_query(rows, side, verdict):
    from symattn.grading.audit.causal import TRIANGLE_RULE

    assert _verdicts(rows + MASKS.format(side=side), TRIANGLE_RULE) == [verdict]


@pytest.mark.parametrize(
    ("rows", "axis", "verdict"),
    [(BY_KEYS, "column", "certified"), (BY_KEYS, "row", "wrong"),
     (BY_QUERIES, "row", "certified"), (BY_QUERIES, "column", "wrong")],
)  # fmt: skip
def test_the_softmax_runs_over_the_keys_of_each_query(rows, axis, verdict):
    from symattn.grading.audit.causal import AXIS_RULE

    assert _verdicts(rows + AXIS.format(axis=axis), AXIS_RULE) == [verdict]


def test_without_the_rows_named_neither_is_judged():
    """A text that writes no entry of its score matrix (only QK^T) leaves which is the row open."""
    from symattn.grading.audit.causal import AXIS_RULE, TRIANGLE_RULE

    text = "The scores $q_j \\cdot k_i$ form $QK^T$.\n\n" + MASKS.format(side="upper")
    text += AXIS.format(axis="row")
    assert _verdicts(text, TRIANGLE_RULE) == [] and _verdicts(text, AXIS_RULE) == []


def test_a_condition_wrapped_onto_the_next_line_is_one_claim_with_its_value():
    """Goon's line 158: "the condition that $w_{bss'a} = 0$ / if $s' > s$": one claim from the
    value to its condition, on the value's line through the condition's."""
    text = (
        "The weights are causal: they come from the scores $q_{bse} k_{bs'ea}$ and the mask.\n"
        "This corresponds to the condition that $w_{bss'a} = 0$\n"
        "if $s' > s$. The whole architecture obeys this condition.\n"
    )
    claims = [c for c in audit_claims(text) if c.rule == RULE]
    assert [(c.line, c.through, c.verdict) for c in claims] == [(2, 3, "certified")]
    flipped = [c for c in audit_claims(text.replace("$s' > s$", "$s > s'$")) if c.rule == RULE]
    assert [(c.line, c.verdict) for c in flipped] == [(2, "wrong")]


@pytest.mark.parametrize(
    ("mask", "verdicts"),
    [
        # the mask adds 0 where a key is allowed and -∞ where it is masked
        ("$M_{ij} = 0$ if $j \\le i$ and $M_{ij} = -\\infty$ if $j > i$", ["certified", "certified"]),
        ("$M_{ij} = 0$ if $j > i$ and $M_{ij} = -\\infty$ if $j \\le i$", ["wrong", "wrong"]),
    ],
)
def test_a_mask_written_by_its_values_is_read_by_what_each_value_does(mask, verdicts):
    text = (
        "The scores are $s_{ij} = q_i \\cdot k_j$ and a causal mask keeps query $i$ from later keys.\n"
        f"The mask has {mask}.\n"
    )
    assert _causal(text) and [v for _, v in _causal(text)] == verdicts


@pytest.mark.parametrize(
    ("sentence", "verdicts"),
    [
        # a 0/1 mask the weights are multiplied by: 0 where masked
        (
            "Some models multiply by a 0/1 mask, $M_{ij} = 1$ if $j \\le i$ and $M_{ij} = 0$ if $j > i$.",
            ["certified"],
        ),
        (
            "Some models multiply by a 0/1 mask, $M_{ij} = 1$ if $j \\le i$ and $M_{ij} = 0$ if $j < i$.",
            ["wrong"],
        ),
        # the weights are zero where masked, whatever the mask adds
        ("The mask adds $-\\infty$ to the future, so that $a_{ij} = 0$ if $j > i$.", ["certified"]),
        # a bias neither said to be added nor multiplied: what its 0 means is not known
        ("The bias has $B_{ij} = 0$ if $j \\le i$.", []),
        # questions, mistakes reported, denials
        ("Is it true that $a_{ij} = 0$ if $j < i$? No.", []),
        ("A frequent mistake is to set $a_{ij} = 0$ if $j < i$.", []),
        ("The mask does not force $a_{ij} = 0$ if $j < i$.", []),
    ],
)
def test_what_a_zero_means_is_read_from_the_mask_and_the_sentence(sentence, verdicts):
    text = "With scores $s_{ij} = q_i \\cdot k_j$, a causal decoder hides the future.\n" + sentence + "\n"
    assert [v for _, v in _causal(text)] == verdicts


def test_a_prefix_or_right_to_left_model_is_not_read():
    text = (
        "With scores $q_i \\cdot k_j$, the backward LM of ELMo reads right to left, so its weights satisfy "
        "$a_{ij} = 0$ if $j < i$.\n"
    )
    assert _causal(text) == []
