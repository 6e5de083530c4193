"""The latex2sympy2 adapter and the isolated worker (symattn/parsing.py)."""

from __future__ import annotations

import time

import pytest
import sympy as sp

from symattn.parsing import LatexError, WorkerError, isolated, read_latex


def test_no_state_leaks_between_parses():
    """`x = 3` then `x + 1` reads x + 1, not 4 (latex2sympy2 alone gives 4)."""
    read_latex("x = 3")
    assert sp.expand(read_latex("x + 1") - (sp.Symbol("x") + 1)) == 0


@pytest.mark.parametrize(("text", "position"), [("8192 )", 6), ("2 ) + 5", 3), ("1}", 2)])
def test_trailing_junk_is_refused_with_its_position(text, position):
    """Input the grammar stops before the end of is an error naming where."""
    with pytest.raises(LatexError, match=f"at position {position}"):
        read_latex(text)


def test_readings():
    """Decimals are exact, the -infinity mask reads as a matrix, inequalities as relations."""
    assert read_latex("1.959") == sp.Rational(1959, 1000)
    assert read_latex(r"\begin{bmatrix} 0 & -\infty \\ 0 & 0 \end{bmatrix}") == sp.Matrix(
        [[0, -sp.oo], [0, 0]]
    )
    assert isinstance(read_latex("N > 8192"), sp.StrictGreaterThan)


def test_syntax_error_is_one_line():
    """A syntax error becomes a one-line LatexError."""
    with pytest.raises(LatexError) as info:
        read_latex(r"\frac{1}{")
    assert "\n" not in str(info.value)


def test_isolated_returns_results_and_errors():
    """The worker returns a parsed expression; a LatexError in it is raised here."""
    assert isolated(read_latex, r"\frac{1}{2} + x") == sp.Rational(1, 2) + sp.Symbol("x")
    with pytest.raises(LatexError, match="position"):
        isolated(read_latex, "8192 )")


def _spin():
    while True:
        pass


def _hog():
    return bytearray(8 * 1024**3)


def test_isolated_stops_a_hang_in_time():
    """A worker that never returns is killed at its deadline."""
    start = time.monotonic()
    with pytest.raises(WorkerError, match="too costly"):
        isolated(_spin, timeout=1.0)
    assert time.monotonic() - start < 3


def test_isolated_caps_memory():
    """A worker that asks for 8 GB fails inside its memory limit; this process is untouched."""
    with pytest.raises(WorkerError, match="memory"):
        isolated(_hog, timeout=5.0, memory_mb=512)
