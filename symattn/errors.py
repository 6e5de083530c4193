"""Errors symattn raises, and the exit codes the command line maps them to.

Every error a user can cause derives from :class:`SymattnError`; its message is one line that
names the problem. The command line prints that line on stderr and exits with the class's
``exit_code``. Anything else escaping the library is a bug: the command says so in one line
(exit code 3), never with a traceback.

Exit codes of the ``symattn`` command:

====  =====================================================================
code  meaning
====  =====================================================================
0     success
1     a check ran and failed (a derivation step, a wrong answer key)
2     bad input: a malformed matrix, a shape that does not fit, an unknown
      mask, a row with no allowed key, a bad option, a malformed
      ``[tool.symattn]`` setting in pyproject.toml
3     a fault in symattn itself (one line on stderr: please report it)
75    an answer or derivation not checked: the checker's safety net on time
      fired on a busy or slow machine; checking it again may succeed
      (``EX_TEMPFAIL`` of sysexits.h)
====  =====================================================================
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_BAD_INPUT = 2
#: A fault in symattn itself (an exception no command expects): one line, never a traceback.
EXIT_INTERNAL = 3
#: Not checked: the time safety net fired; try again (sysexits.h's EX_TEMPFAIL).
EXIT_RETRY = 75


class SymattnError(Exception):
    """Base class of every error a user of symattn can cause."""

    exit_code = EXIT_BAD_INPUT


class InputError(SymattnError, ValueError):
    """Raised when a matrix or number given by the user cannot be read exactly.

    Examples: ragged rows, an entry that is not an integer, a decimal or a "p/q" string, a zero
    denominator, an empty matrix, a number too large to handle.
    """


class ShapeError(SymattnError, ValueError):
    """Raised when the shapes of Q, K, V (and a mask) do not fit together."""


class MaskError(SymattnError, ValueError):
    """Raised for an unknown or malformed mask specification (``causal+padding:2`` style)."""


class EmptyRowError(MaskError):
    """Raised when a mask leaves some query row with no allowed key.

    Softmax over a row of only ``-inf`` would be 0/0; symattn refuses instead of returning NaN
    (PyTorch returns 0 for such a row, JAX the mean of V). ``rows`` holds the 0-based indices.
    """

    def __init__(self, rows: list[int]):
        self.rows = list(rows)
        named = ", ".join(str(r + 1) for r in self.rows)
        plural = "rows" if len(self.rows) > 1 else "row"
        super().__init__(f"the mask leaves query {plural} {named} (counting from 1) with no allowed key")


class PluginError(SymattnError):
    """Raised when a derivation or exercise registered from outside cannot be used.

    Examples: a plugin file that does not exist or does not import, a name taken by a built-in
    or by another plugin, ``derivation()`` returning something that is not a Derivation
    (see :mod:`symattn.grading.plugins`).
    """


class ConfigError(SymattnError):
    """Raised when the project's settings (``[tool.symattn]`` in pyproject.toml) cannot be read.

    Examples: a pyproject.toml that is not TOML, ``[tool.symattn]`` that is not a table, a
    ``module`` setting that is not a path (see :func:`symattn.build.site.module_setting`).
    """


class PrecisionError(SymattnError, ArithmeticError):
    """Raised when a value cannot be rounded with certainty to the requested digits."""
