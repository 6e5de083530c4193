"""The latex2sympy2 adapter and the isolated worker (symattn/grading/answers/parsing.py)."""

from __future__ import annotations

import pytest
import sympy as sp

from symattn.grading.answers.parsing import LatexError, read_latex
from symattn.grading.worker import OutOfTime, WorkerError, isolated


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
    """The worker returns a parsed expression (trusted input: plain=False); a LatexError in it is
    raised here."""
    assert isolated(read_latex, r"\frac{1}{2} + x", plain=False) == sp.Rational(1, 2) + sp.Symbol("x")
    with pytest.raises(LatexError, match="position"):
        isolated(read_latex, "8192 )")


def _tower():
    """What a learner's 1.95 + 10^{-10^{10}} reads as, unevaluated; rebuilt, it computes 10^(10^10)."""
    return sp.Add(
        sp.Rational(39, 20), sp.Pow(10, sp.Pow(-10, 10, evaluate=False), evaluate=False), evaluate=False
    )


def test_a_worker_result_is_plain_data_and_nothing_is_rebuilt_outside_the_limits():
    """An expression is refused by name before it is rebuilt: the parent never computes it (it
    would take minutes and gigabytes), and plain data and registered verdicts come back."""
    from symattn.grading.answers.verdicts import Verdict

    with pytest.raises(WorkerError, match=r"sympy\.core\.add\.Add is not plain data"):
        isolated(_tower)
    assert isolated(lambda: {"a": (1, "b", b"c", None, 2.5)}) == {"a": (1, "b", b"c", None, 2.5)}
    assert isolated(lambda: Verdict("correct", "1")).verdict == "correct"


def _spin():
    while True:
        pass


def _hog():
    return bytearray(8 * 1024**3)


def test_isolated_stops_a_hang_in_time():
    """A worker that never returns is killed at its deadline: the error says so (bench/limits.py
    times how soon after the deadline)."""
    with pytest.raises(OutOfTime, match="ran out of time on this machine: try again") as caught:
        isolated(_spin, timeout=1.0)
    assert caught.value.exit_code == 75  # no verdict: the same check may finish on a quieter machine


def test_isolated_caps_memory():
    """A worker that asks for 8 GB fails inside its memory limit; this process is untouched."""
    with pytest.raises(WorkerError, match="memory"):
        isolated(_hog, timeout=5.0, memory_mb=512)


def _limits_and_write(path):
    import resource

    core = resource.getrlimit(resource.RLIMIT_CORE)
    try:
        with open(path, "w") as fh:
            fh.write("x" * 100)
            fh.flush()
        wrote = True
    except OSError:
        wrote = False
    return core, wrote


def test_worker_leaves_no_core_file_and_writes_no_file(tmp_path):
    """The worker's core-file size and file-size limits are 0: nothing lands in the folder."""
    target = tmp_path / "out.txt"
    core, wrote = isolated(_limits_and_write, str(target))
    assert core == (0, 0)
    assert not wrote
    assert not target.exists() or target.stat().st_size == 0


def _noisy():
    import os
    import warnings

    warnings.warn("a SymPyDeprecationWarning-like note", DeprecationWarning, stacklevel=1)
    print("printed by the worker")
    os.write(2, b"written to stderr by the worker\n")
    return 1


def test_worker_output_and_warnings_never_reach_the_terminal(capfd):
    """What the worker prints or warns is discarded; only its result comes back."""
    assert isolated(_noisy) == 1
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def _internal_failure():
    raise TypeError("mat_mul_flat() got an unexpected keyword argument 'evaluate'")


def test_an_internal_failure_is_a_sentence():
    """A Python exception inside the worker becomes a sentence without Python's words."""
    with pytest.raises(WorkerError) as info:
        isolated(_internal_failure)
    assert "mat_mul_flat" not in str(info.value) and "TypeError" not in str(info.value)
    assert "could not be read" in str(info.value)


def test_read_latex_errors_quote_the_text_not_python():
    """A latex2sympy2 failure names the place in the answer, never an exception."""
    with pytest.raises(LatexError) as info:
        isolated(read_latex, r"\cdots")
    assert "cdots" in str(info.value) and "Exception" not in str(info.value)


def _divide():
    return 1 / 0


def _deep(n=0):
    return _deep(n + 1)


def test_where_python_cannot_fork_the_work_runs_here_with_the_same_errors(monkeypatch):
    """A browser's Python has no fork: isolated() runs the work in-process, and a result or a
    failure comes back exactly as from a forked worker."""
    from symattn.grading import worker

    monkeypatch.setattr(worker, "CAN_FORK", False)
    assert isolated(read_latex, r"\frac{1}{2} + x", plain=False) == sp.Rational(1, 2) + sp.Symbol("x")
    with pytest.raises(WorkerError, match="not plain data"):
        isolated(_tower)
    with pytest.raises(LatexError, match="at position 6"):
        isolated(read_latex, "8192 )")
    with pytest.raises(WorkerError, match="could not be read or compared"):
        isolated(_divide)
    with pytest.raises(WorkerError, match="nested too deeply"):
        isolated(_deep)
