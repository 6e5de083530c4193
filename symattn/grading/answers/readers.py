"""The LaTeX readers a learner's answer can be read with, behind one small interface.

symattn reads answers with one reader (:data:`DEFAULT`, chosen by measurement: see
``bench/readers.py`` and ``docs/readers.md``). The others are kept so that the measurement can
be repeated on the same path a learner's answer takes; ``SYMATTN_READER=name`` selects one
(for the benchmark only: each needs its own environment, since their antlr runtimes clash).

Every reader here

- reads decimals exactly (``1.959`` is 1959/1000, never a binary float),
- keeps symbols as written (``N`` stays ``N``) and never treats ``x = 3`` as an assignment,
- refuses input that its grammar does not consume to the end (``8192 )``),
- leaves no state behind in its library between two parses.

A reader's ``prepare`` may patch its library: it runs only inside the forked worker
(:func:`symattn.grading.answers.parsing.isolated`), so the calling process keeps the library as
imported. Nothing here calls ``eval``, ``exec`` or ``sympify`` on a learner's text.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import sys
import types
import typing
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: The environment variable that selects a reader by name (for ``bench/readers.py``).
READER_ENV = "SYMATTN_READER"


class TrailingInput(Exception):
    """The grammar stopped before the end of the text."""

    def __init__(self, text: str, position: int) -> None:
        super().__init__(f"unexpected {text!r} at position {position}")
        self.text = text
        self.position = position


@dataclass(frozen=True)
class Reader:
    """One LaTeX-to-SymPy library, as symattn drives it."""

    name: str
    distribution: str  #: the PyPI distribution that provides it
    module: str  #: the module imported
    load: Callable[[], Any]  #: import the library (in any process)
    prepare: Callable[[], None]  #: patch it for strict reading (only in a worker)
    parse: Callable[[str], Any]  #: read one text; TrailingInput or the library's own errors


# -- latex2sympy2 1.9.1 (antlr 4.7.2) --------------------------------------------------------
def typing_io_shim() -> None:
    """Give Python 3.13+ the ``typing.io`` module antlr 4.7.2 imports ``TextIO`` from.

    ``typing.io`` was deprecated in 3.8 and removed in 3.13; antlr4-python3-runtime 4.7.2's
    Lexer and Parser import ``TextIO`` from it and use it only in type hints. The module made
    here holds the same three names ``typing.io`` held, taken from ``typing`` itself.
    It runs where the library is imported (the calling process too): after it, ``typing.io``
    is importable there as it was up to Python 3.12, with a module spec like any module's.
    Where ``typing.io`` exists (3.11, 3.12) nothing changes.
    """
    if sys.modules.get("typing.io") is not None:
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            importlib.import_module("typing.io")
    except ImportError:
        shim = types.ModuleType("typing.io", "typing.io as Python 3.12 had it (for antlr 4.7.2)")
        shim.__spec__ = importlib.machinery.ModuleSpec("typing.io", None)
        shim.IO, shim.TextIO, shim.BinaryIO = typing.IO, typing.TextIO, typing.BinaryIO  # type: ignore[attr-defined]
        sys.modules["typing.io"] = shim


def _l2s2_load() -> Any:
    typing_io_shim()
    with warnings.catch_warnings():  # antlr 4.7.2 names typing.io, deprecated on 3.11 and 3.12
        warnings.simplefilter("ignore", DeprecationWarning)
        import latex2sympy2  # heavy (antlr): imported on first use

    return latex2sympy2


#: Whether latex2sympy2 parses in two stages (see :func:`_l2s2_parse`); False parses with
#: antlr's full LL prediction alone, as the library does (tests compare the two).
TWO_STAGE = True


class _Stage:
    """The prediction mode the next parse starts in (set by :func:`_l2s2_parse`)."""

    sll = False


def _l2s2_prepare() -> None:
    """Make the grammar's top rule fail unless it consumed the whole input, and let
    :func:`_l2s2_parse` choose antlr's prediction mode for it."""
    parser_cls = _l2s2_load().PSParser
    if getattr(parser_cls, "_symattn_eof_check", False):
        return
    from antlr4.atn.PredictionMode import PredictionMode
    from antlr4.error.ErrorStrategy import BailErrorStrategy

    original = parser_cls.math

    def math_to_eof(self: Any) -> Any:
        if _Stage.sll:  # SLL prediction, and the first syntax error ends the parse
            self._interp.predictionMode = PredictionMode.SLL
            self._errHandler = BailErrorStrategy()
        tree = original(self)
        token = self._input.LT(1)
        if token is not None and token.type != -1:  # -1 is antlr's EOF
            raise TrailingInput(token.text, token.start + 1)
        return tree

    parser_cls.math = math_to_eof
    parser_cls._symattn_eof_check = True


def _sll_failure(exc: Exception) -> bool:
    """Whether ``exc`` ended a first-stage parse in a way that the full parse must decide:
    antlr's bail-out and recognition errors, the library's error listener (it raises a bare
    Exception, for the lexer's errors too), trailing input, too deep a nesting."""
    from antlr4.error.Errors import ParseCancellationException, RecognitionException

    failures = (ParseCancellationException, RecognitionException, TrailingInput, RecursionError)
    return type(exc) is Exception or isinstance(exc, failures)


def _l2s2_parse(text: str) -> Any:
    """Read ``text`` with latex2sympy2 in antlr's two-stage strategy: first with SLL
    prediction, which bails out at the first syntax error; where that fails, again from the
    start with full LL prediction, the library's own mode. antlr guarantees that an SLL parse
    that succeeds builds the tree LL builds (the grammar's only predicates are precedence
    ones), so every reading is the library's; SLL skips the full-context prediction that takes
    most of the time (about 2.5 times faster over latex2sympy's own pairs)."""
    lib = _l2s2_load()
    if TWO_STAGE:
        lib.set_variances({})  # forget any assignment an earlier parse made
        _Stage.sll = True
        try:
            return lib.latex2sympy(text)
        except Exception as exc:
            if not _sll_failure(exc):
                raise  # an error of the tree's conversion: the tree is LL's, so is the error
        finally:
            _Stage.sll = False
    lib.set_variances({})
    return lib.latex2sympy(text)


# -- latex2sympy2_extended 1.11 (antlr 4.9.3 to 4.13.2) ---------------------------------------
def _ext_load() -> Any:
    import latex2sympy2_extended.latex2sympy2  # heavy (antlr): imported on first use

    return latex2sympy2_extended.latex2sympy2


def _ext_prepare() -> None:
    _ext_load()


def _ext_parse(text: str) -> Any:
    import sympy as sp

    lib = _ext_load()

    class Exact(lib._Latex2Sympy):  # type: ignore[name-defined,misc]
        def parse_number(self, number: str) -> Any:  # 1.959 is 1959/1000, not a float
            return sp.Rational(number.replace(",", ""))

    config = lib.ConversionConfig(
        interpret_as_mixed_fractions=False,
        interpret_simple_eq_as_assignment=False,
        interpret_contains_as_eq=False,
        lowercase_symbols=False,
    )
    return Exact(None, None, False, config=config).parse(text)  # no normalisation of the text


# -- SymPy's own parse_latex with its Lark grammar --------------------------------------------
def _lark_load() -> Any:
    from sympy.parsing.latex import parse_latex

    return parse_latex


def _lark_parse(text: str) -> Any:
    return _lark_load()(text, backend="lark")


READERS: dict[str, Reader] = {
    r.name: r
    for r in (
        Reader("latex2sympy2", "latex2sympy2", "latex2sympy2", _l2s2_load, _l2s2_prepare, _l2s2_parse),
        Reader(
            "latex2sympy2_extended",
            "latex2sympy2_extended",
            "latex2sympy2_extended",
            _ext_load,
            _ext_prepare,
            _ext_parse,
        ),
        Reader("sympy-lark", "lark", "lark", _lark_load, lambda: None, _lark_parse),
    )
}

#: The reader symattn uses unless SYMATTN_READER names another.
DEFAULT = "latex2sympy2"


def current() -> Reader:
    """The reader in use: SYMATTN_READER's, or :data:`DEFAULT`."""
    name = os.environ.get(READER_ENV, "").strip() or DEFAULT
    try:
        return READERS[name]
    except KeyError:
        raise ValueError(f"{READER_ENV}={name!r} names no reader: use one of {', '.join(READERS)}") from None
