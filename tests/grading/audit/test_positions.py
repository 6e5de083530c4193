"""The wavelengths of sinusoidal position encodings (symattn/grading/audit/positions.py, issue 47):
their range checked against the text's own base, and a repetition after a wavelength's worth of
positions. Texts written here; the expected verdicts come from reading: sin(pos / 10000^(i/d))
has wavelength 2π·10000^(i/d), 2π at i = 0 and just under 2π·10000 at the last dimension."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims

ENCODING = (
    "The encoding is\n\n"
    "$$PE_{(pos,i)} = \\begin{cases} \\sin\\left(\\frac{pos}{10000^{i/d_{\\text{model}}}}\\right) & "
    "\\text{if } i \\text{ mod } 2=0\\\\ \\cos\\left(\\frac{pos}{10000^{(i-1)/d_{\\text{model}}}}\\right) & "
    "\\text{otherwise} \\end{cases}$$\n\n"
)
RANGE = "The wavelengths in different dimensions range from $2\\pi$ to $10000\\cdot 2\\pi$.\n"


def _verdicts(text: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for c in audit_claims(text):
        out.setdefault(c.line, []).append(c.verdict)
    return out


def test_the_range_of_the_wavelengths_is_certified_against_the_texts_base():
    assert _verdicts(ENCODING + RANGE)[5] == ["certified"]


@pytest.mark.parametrize(
    "planted",
    [
        RANGE.replace("10000\\cdot", "1000\\cdot"),  # the base taken for 1000
        RANGE.replace("from $2\\pi$", "from $\\pi$"),  # the first wavelength halved
        RANGE.replace("$10000\\cdot 2\\pi$", "$10000$"),  # the 2π left out
    ],
)
def test_a_wrong_end_of_the_range_is_flagged_at_its_line(planted):
    assert _verdicts(ENCODING + planted)[5] == ["wrong"]


def test_the_range_follows_the_texts_own_base():
    """A text with base 500 (so its last wavelength is under 2π·500) is judged by 500."""
    text = ENCODING.replace("10000", "500") + RANGE.replace("10000", "500")
    assert _verdicts(text)[5] == ["certified"]
    assert _verdicts(ENCODING.replace("10000", "500") + RANGE)[5] == ["wrong"]


def test_nothing_is_judged_without_an_encoding_to_read_the_base_from():
    assert "certified" not in _verdicts(RANGE).get(1, []) and "wrong" not in _verdicts(RANGE).get(1, [])


def test_a_range_of_something_else_in_the_paragraph_is_not_read_as_the_wavelengths():
    text = ENCODING + "The wavelengths grow geometrically. Positions run from $0$ to $1000$.\n"
    assert "wrong" not in _verdicts(text).get(5, [])


@pytest.mark.parametrize(
    ("after", "verdict"),
    [("6", "certified"), ("7", "certified"), ("12", "wrong"), ("3", "wrong")],
)
def test_a_pattern_repeats_after_a_wavelengths_worth_of_positions(after, verdict):
    text = f"The wavelength is $2\\pi$, hence the repetition after position ${after}$.\n"
    assert _verdicts(text)[1] == [verdict]


@pytest.mark.parametrize(
    "text",
    [
        # a second range in the sentence is the index's
        "We use $PE_{(pos, 2i)} = \\sin(pos/10000^{2i/d_{model}})$ with $d_{model} = 512$.\n\nThe "
        "wavelengths grow from $2\\pi$ to $10000 \\cdot 2\\pi$ as $i$ goes from $0$ to $256$.\n",
        # a range of positions
        "We use $PE_{(pos, 2i)} = \\sin(pos/10000^{2i/d_{model}})$.\n\nThe wavelengths do not depend "
        "on the position, which goes from $0$ to $511$ in our experiments.\n",
        # a range of dimensions
        "We use $PE_{(pos, 2i)} = \\sin(pos/10000^{2i/d_{model}})$ with $d_{model} = 512$.\n\nThe "
        "wavelengths of the dimensions from $0$ to $511$ grow geometrically.\n",
        # approximate ends are not judged exactly
        "We use $PE_{(pos, 2i)} = \\sin(pos/10000^{2i/d_{model}})$.\n\nThe wavelengths range from "
        "about $6.28$ to about $62832$ positions.\n",
        # the exact largest wavelength
        "We use $PE_{(pos, 2i)} = \\sin(pos/10000^{2i/d_{model}})$ with $d_{model} = 512$, so $i$ runs "
        "from $0$ to $255$.\n\nPrecisely, the wavelengths range from $2\\pi$ to $2\\pi \\cdot "
        "10000^{510/512}$, just under $10000 \\cdot 2\\pi$.\n",
        # two encodings, two bases
        "The original Transformer adds $PE_{(pos, 2i)} = \\sin(pos/10000^{2i/d})$ to the "
        "embeddings.\n\nRotary embeddings instead rotate pairs of coordinates by angles $m\\theta_j$ "
        "with $\\theta_j = 500000^{-2j/d}$, so in Llama 3 their wavelengths run from $2\\pi$ to "
        "$500000 \\cdot 2\\pi$.\n",
        # the range read backwards
        "We use $PE_{(pos, 2i)} = \\sin(pos/10000^{2i/d})$.\n\nRead from the last dimension to the "
        "first, the wavelengths shrink from $10000 \\cdot 2\\pi$ to $2\\pi$.\n",
        # a denial of a repetition
        "The toy encoding $p_t = \\sin(\\pi t / 2)$ has wavelength $4$. In the Transformer's first "
        "dimension, the wavelength is $2\\pi$, hence no exact repetition after position $6$ or any "
        "other integer.\n",
    ],
)
def test_true_texts_from_a_hostile_review_are_never_called_wrong(text):
    assert "wrong" not in [v for vs in _verdicts(text).values() for v in vs]


def _d2l(cmp: str, before: str = "the $6^{\\textrm{th}}$ and the $7^{\\textrm{th}}$",
         after: str = "the $8^{\\textrm{th}}$ and the $9^{\\textrm{th}}$") -> str:  # fmt: skip
    """d2l's encoding and its sentence comparing columns, the comparison on line 5."""
    return (
        "$$p_{i, 2j} = \\sin\\left(\\frac{i}{10000^{2j/d}}\\right), \\quad "
        "p_{i, 2j+1} = \\cos\\left(\\frac{i}{10000^{2j/d}}\\right)$$\n\n"
        f"We can see that {before}\ncolumns of the matrix\nhave a {cmp} frequency than\n{after}\ncolumns.\n"
    )


@pytest.mark.parametrize(("cmp", "verdict"), [("higher", "certified"), ("lower", "wrong")])
def test_earlier_columns_have_the_higher_frequency(cmp, verdict):
    """d2l's sentence: a column's frequency 1/10000^(2j/d) falls with its pair j; the verdict
    stands on the line of the comparison."""
    assert _verdicts(_d2l(cmp)).get(5) == [verdict]


def test_columns_that_may_share_a_pair_are_not_compared():
    """The 7th and the 8th column alone are one pair when counted from 1: no verdict."""
    text = _d2l("lower", "the $7^{\\textrm{th}}$", "the $8^{\\textrm{th}}$")
    assert "wrong" not in _verdicts(text).get(5, []) and "certified" not in _verdicts(text).get(5, [])
    assert _verdicts(_d2l("lower", "the $6^{\\textrm{th}}$", "the $8^{\\textrm{th}}$")).get(5) == ["wrong"]


BITS = (
    "Counting from 0 to 7 in binary, the lowest bit, the second-lowest bit,\n"
    "and the third-lowest bit alternate on every number,\n"
    "every two numbers, and every four numbers, respectively.\n"
)


def test_the_kth_lowest_bit_alternates_every_2_to_the_k_minus_1_numbers():
    """d2l's binary analogy for the encoding's falling frequencies, one claim per pair."""
    assert _verdicts(BITS) == {2: ["certified"], 3: ["certified", "certified"]}


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [("every four numbers", "every three numbers", 3), ("every two numbers", "every four numbers", 3),
     ("on every number", "on every two numbers", 2)],
)  # fmt: skip
def test_a_wrong_period_of_a_bit_is_flagged(old, new, line):
    verdicts = _verdicts(BITS.replace(old, new))
    assert "wrong" in verdicts[line] and all("wrong" not in v for k, v in verdicts.items() if k != line)


def test_bits_and_periods_not_paired_are_not_judged():
    text = "The lowest bit and the second-lowest bit alternate on every number and every two numbers.\n"
    assert _verdicts(text) == {}
