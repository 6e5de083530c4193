"""Reading user matrices exactly.

A matrix is given as rows in JSON form, ``[[3, -3], [1, 1]]``. Each entry is an integer, a
decimal (read exactly: ``0.1`` is 1/10, never the binary float near it) or a string holding an
integer, a decimal or a fraction ``"p/q"``. Nothing is ever passed to ``eval`` or ``sympify``:
strings are matched against a strict grammar first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction

import sympy as sp

from ..errors import InputError

#: Longest JSON text accepted for one matrix.
MAX_TEXT = 100_000
#: Largest decimal exponent accepted (1e400 is fine, 1e100000 is refused).
MAX_EXPONENT = 400
#: Most digits in one number.
MAX_DIGITS = 400

#: The two-token example of the module's section 6.2 (queries, keys, values of two tokens), as
#: ``symattn attention`` reads it: the default of its ``--q``, ``--k``, ``--v``, and the site's.
EXAMPLE = {"q": "[[3, -3], [1, 1]]", "k": "[[-3, 3], [1, 1]]", "v": "[[0, -1], [1, 2]]"}

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_FRACTION = re.compile(r"([+-]?\d+)\s*/\s*([+-]?\d+)")


def parse_number(text: str) -> sp.Rational:
    """Read an integer, a decimal or a fraction ``p/q`` exactly.

    >>> parse_number("0.1")
    1/10
    >>> parse_number("-3/4")
    -3/4
    """
    s = text.strip()
    if len(s) > MAX_DIGITS + 20:
        raise InputError(f"number too long ({len(s)} characters)")
    if m := _FRACTION.fullmatch(s):
        p, q = int(m.group(1)), int(m.group(2))
        if q == 0:
            raise InputError(f"zero denominator in {s!r}")
        return sp.Rational(p, q)
    if _NUMBER.fullmatch(s):
        try:
            d = Decimal(s)
        except InvalidOperation:  # pragma: no cover - the regex admits only valid decimals
            raise InputError(f"not a number: {s!r}") from None
        exponent = d.as_tuple().exponent
        assert isinstance(exponent, int)
        if abs(d.adjusted()) > MAX_EXPONENT or abs(exponent) > MAX_EXPONENT + MAX_DIGITS:
            raise InputError(f"number out of range: {s!r} (exponent beyond {MAX_EXPONENT})")
        f = Fraction(d)
        return sp.Rational(f.numerator, f.denominator)
    raise InputError(f"not a number: {_clip(s)!r} (use an integer, a decimal or 'p/q')")


def to_exact(value: object) -> sp.Rational:
    """Turn one decoded JSON entry into an exact rational."""
    if isinstance(value, bool) or value is None:
        raise InputError(f"not a number: {json.dumps(value)}")
    if isinstance(value, int):
        return parse_number(str(value))
    if isinstance(value, _Decimal):
        return parse_number(value.text)
    if isinstance(value, str):
        return parse_number(value)
    if isinstance(value, float):
        # Only reachable from Python callers; repr gives the shortest round-tripping decimal.
        return parse_number(repr(value))
    if isinstance(value, sp.Rational):
        return value
    raise InputError(f"not a number: {_clip(repr(value))}")


def parse_matrix(text: str, name: str = "matrix") -> sp.ImmutableMatrix:
    """Parse rows in JSON form into an exact SymPy matrix; ``name`` labels error messages.

    >>> parse_matrix('[[3, -3], [0.5, "1/3"]]')
    Matrix([
    [  3,  -3],
    [1/2, 1/3]])
    """
    if len(text) > MAX_TEXT:
        raise InputError(f"{name}: text too long ({len(text)} characters, at most {MAX_TEXT})")
    try:
        rows = json.loads(text, parse_float=_Decimal, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: not valid JSON ({exc.msg} at position {exc.pos})") from None
    except RecursionError:
        raise InputError(f"{name}: nested too deeply") from None
    except InputError as exc:
        raise InputError(f"{name}: {exc}") from None
    return matrix_from_rows(rows, name)


def matrix_from_rows(rows: object, name: str = "matrix") -> sp.ImmutableMatrix:
    """Build an exact matrix from a list of equal-length rows of numbers."""
    if isinstance(rows, sp.MatrixBase):
        rows = rows.tolist()
    if hasattr(rows, "tolist") and not isinstance(rows, list):  # NumPy arrays
        rows = rows.tolist()
    if not isinstance(rows, Sequence) or isinstance(rows, str) or len(rows) == 0:
        raise InputError(f"{name}: expected a non-empty list of rows such as [[1, 2], [3, 4]]")
    width = None
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, Sequence) or isinstance(row, str):
            raise InputError(f"{name}: row {i + 1} is not a list")
        if len(row) == 0:
            raise InputError(f"{name}: row {i + 1} is empty")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise InputError(f"{name}: ragged rows (row 1 has {width} entries, row {i + 1} has {len(row)})")
        try:
            out.append([to_exact(v) for v in row])
        except InputError as exc:
            raise InputError(f"{name}: row {i + 1}: {exc}") from None
    return sp.ImmutableMatrix(out)


class _Decimal:
    """A JSON decimal literal kept as its text, so that it can be read exactly."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def _reject_constant(text: str) -> None:
    raise InputError(f"not a number: {text} (only finite numbers are accepted)")


def _clip(s: str, n: int = 40) -> str:
    return s if len(s) <= n else s[: n - 3] + "..."
