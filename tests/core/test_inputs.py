"""Reading user matrices exactly (symattn/core/inputs.py)."""

from __future__ import annotations

import pytest
import sympy as sp

from symattn.core.inputs import parse_matrix, parse_number
from symattn.errors import InputError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.1", sp.Rational(1, 10)),
        ("-3/4", sp.Rational(-3, 4)),
        ("7", sp.Integer(7)),
        ("1e-3", sp.Rational(1, 1000)),
        ("2.5E2", sp.Integer(250)),
        (" 6 / -4 ", sp.Rational(-3, 2)),
        (".5", sp.Rational(1, 2)),
    ],
)
def test_numbers_are_read_exactly(text, expected):
    """Decimals and fractions become exact rationals, never binary floats."""
    assert parse_number(text) == expected


def test_json_decimals_are_exact():
    """A JSON decimal literal such as 0.1 is 1/10 exactly, not 0.1000000000000000055."""
    m = parse_matrix('[[0.1, "1/3"], [-2, "0.25"]]')
    assert m == sp.Matrix([[sp.Rational(1, 10), sp.Rational(1, 3)], [-2, sp.Rational(1, 4)]])
    assert all(x.is_Rational for x in m)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[[1, 2], [3]]", "ragged rows"),
        ('[[1, "x"]]', "not a number"),
        ("[[1, \"__import__('os')\"]]", "not a number"),
        ("[[1, 2]", "not valid JSON"),
        ("[]", "non-empty list"),
        ("[[]]", "row 1 is empty"),
        ("[[1, true]]", "not a number"),
        ("[[1, null]]", "not a number"),
        ("[[NaN]]", "only finite numbers"),
        ("[[Infinity]]", "only finite numbers"),
        ('[["1/0"]]', "zero denominator"),
        ("[[1e100000]]", "out of range"),
        ("[1, 2]", "row 1 is not a list"),
        ('"abc"', "non-empty list"),
    ],
)
def test_bad_matrices_are_refused_with_a_named_problem(text, fragment):
    """Each malformed matrix raises InputError naming the matrix and the problem."""
    with pytest.raises(InputError) as info:
        parse_matrix(text, "Q")
    message = str(info.value)
    assert message.startswith("Q: ")
    assert fragment in message
    assert "\n" not in message


def test_deep_nesting_is_refused_not_a_crash():
    """Pathologically nested JSON gives an InputError, not a RecursionError."""
    with pytest.raises(InputError):
        parse_matrix("[" * 100_000 + "]" * 100_000)
