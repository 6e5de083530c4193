"""The labs' arguments that argparse cannot check alone (--widths, --draws, --threshold): each
refusal is one line naming the argument, with exit code 2, and the edge values are accepted."""

from __future__ import annotations

import pytest

from symattn.cli.app import _draws, _probability, _widths
from symattn.limits import MAX_WIDTH, MAX_WIDTHS, MIN_DRAWS


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["variance", "--widths", ","], "argument --widths: give from 1 to 64 widths separated by commas"),
        (
            ["variance", "--widths", ",".join(["1"] * (MAX_WIDTHS + 1))],
            "argument --widths: give from 1 to 64 widths separated by commas",
        ),
        (["variance", "--widths", "1,x"], "argument --widths: widths must be whole numbers: '1,x'"),
        (
            ["variance", "--widths", "1," * 25 + "x"],
            "argument --widths: widths must be whole numbers: '" + ("1," * 25)[:40] + "'",
        ),
        (["variance", "--widths", "0"], "argument --widths: widths must be from 1 to 10^6: '0'"),
        (
            ["variance", "--widths", "1," * 25 + "1000001"],
            "argument --widths: widths must be from 1 to 10^6: '" + ("1," * 25 + "1000001")[:40] + "'",
        ),
        (["variance", "--widths", "1000001"], "argument --widths: widths must be from 1 to 10^6: '1000001'"),
        (["variance", "--draws", "abc"], "argument --draws: not a whole number: 'abc'"),
        (
            ["variance", "--draws", "999"],
            "argument --draws: at least 1,000 draws are needed for a calibrated 95% interval, got 999",
        ),
        (
            ["variance", "--draws", "1000000001"],
            "argument --draws: must be between 1000 and 10^9, got 1000000001",
        ),
        (["saturation", "--threshold", "x"], "argument --threshold: not a number: 'x'"),
        (["saturation", "--threshold", "1"], "argument --threshold: must be strictly between 0 and 1, got 1"),
        (["saturation", "--threshold", "0"], "argument --threshold: must be strictly between 0 and 1, got 0"),
        (
            ["saturation", "--threshold", "1.5"],
            "argument --threshold: must be strictly between 0 and 1, got 1.5",
        ),
    ],
)
def test_a_refused_value_is_one_line_naming_the_argument(cli, argv, message):
    code, out, err = cli("lab", *argv)
    assert (code, out) == (2, "")
    assert err == f"symattn lab {argv[0]}: error: {message}\n"


def test_the_edge_values_are_accepted():
    assert _widths(",".join(["1"] * MAX_WIDTHS)) == [1] * MAX_WIDTHS
    assert _widths(f" 1 , {MAX_WIDTH} ,") == [1, MAX_WIDTH]
    assert _draws(str(MIN_DRAWS)) == MIN_DRAWS
    assert _probability("0.5") == 0.5
    assert _probability("1e-9") == 1e-9
