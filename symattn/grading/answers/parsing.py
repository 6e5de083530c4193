"""Reading LaTeX with the chosen reader (:mod:`.readers`), with its quirks hidden.

The reader is latex2sympy2 1.9.1 (:mod:`.readers` says why). It keeps global state
(``x = 3`` assigns, and a later ``x + 1`` reads 4) and silently ignores trailing junk
(``8192 )`` parses as 8192). :func:`read_latex` clears the state before every parse and
refuses input the grammar did not consume to the end; it is meant to run inside an
:func:`isolated` worker, which is the only place the parser is patched, so the calling process
keeps latex2sympy2 exactly as imported. Its errors are short sentences that quote the text near
the problem, never a Python message. Nothing here calls ``eval``, ``exec`` or ``sympify`` on
the text.

The limited worker these parses run in is :func:`symattn.grading.worker.isolated`.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import sympy as sp

from ...errors import SymattnError
from ..worker import crosses_workers
from . import readers


@crosses_workers
class LatexError(SymattnError, ValueError):
    """Raised when LaTeX cannot be read (a syntax error, trailing junk, an unsupported form)."""


def _library() -> Any:
    """The reader's library, imported (heavy: antlr), in this process."""
    return readers.current().load()


def read_latex(text: str) -> Any:
    """Parse LaTeX to SymPy with the reader in use, without leaked state or ignored junk.

    This may patch the reader's library (see :meth:`readers.Reader.prepare`): call it in a
    worker.
    """
    reader = readers.current()
    reader.prepare()
    try:
        return reader.parse(text)
    except LatexError:
        raise
    except readers.TrailingInput as exc:
        where = f"unexpected {exc.text!r} at position {exc.position}"
        raise LatexError(f"{where}: the answer must end where the expression ends") from None
    except RecursionError:
        raise LatexError("nested too deeply to read") from None
    except Exception as exc:  # antlr's syntax errors, and the library's own failures
        raise LatexError(_sentence(text, str(exc))) from None


def _sentence(text: str, message: str) -> str:
    """A learner's sentence for a parse failure: where it happened, never Python's words."""
    lines = message.splitlines()
    if len(lines) >= 3 and lines[-1].strip().endswith("^"):
        col = len(lines[-1]) - 1
        source = lines[-2]
        near = source[max(0, col - 6) : col + 8].strip()
        return (
            f"cannot read this as mathematics near '{near}'"
            if near
            else ("cannot read this as mathematics: it ends too early")
        )
    return f"cannot read '{_short(text)}' as a value here"


def _short(text: str) -> str:
    text = re.sub(r"\s+", " ", text.strip())
    return text if len(text) <= 40 else text[:37] + "..."


@contextlib.contextmanager
def library_state_kept() -> Any:
    """Run a block that parses without leaving any trace in the reader's module state.

    Only latex2sympy2 1.9.1 keeps module state (its assignments); the other readers build a
    fresh converter for every parse.
    """
    lib = _library()
    names = ("variances", "var", "frac_type", "is_real", "VARIABLE_VALUES")
    saved = {n: getattr(lib, n) for n in names if hasattr(lib, n)}
    saved = {n: (dict(v) if isinstance(v, dict) else v) for n, v in saved.items()}
    parser_cls = getattr(lib, "PSParser", None)
    math = getattr(parser_cls, "math", None)
    try:
        yield lib
    finally:
        for n, v in saved.items():
            setattr(lib, n, v)
        if parser_cls is not None:
            parser_cls.math = math


def warm_parses(texts: tuple[str, ...]) -> None:
    """Parse ``texts`` here, unpatched and leaving no state, to fill antlr's caches."""
    reader = readers.current()
    with library_state_kept():
        for text in texts:
            try:
                reader.parse(text)
            except Exception:  # only a cache warm-up: a failure costs nothing
                continue


def same_by_name(parsed: Any, source: Any) -> Any:
    """``parsed`` with its symbols renamed to ``source``'s symbols of the same name.

    latex2sympy2 returns plain symbols; the source's carry assumptions (positive, integer).
    """
    if not hasattr(parsed, "free_symbols"):
        return parsed
    names = {str(s): s for s in getattr(source, "free_symbols", set())}
    for s in getattr(source, "free_symbols", set()):
        names.setdefault(sp.latex(s), s)
    return parsed.xreplace({s: names[str(s)] for s in parsed.free_symbols if str(s) in names})
