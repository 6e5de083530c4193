"""How a derivation fails: the errors verify raises, by what failed."""

from __future__ import annotations

from ..errors import EXIT_CHECK_FAILED, SymattnError


class StepFailed(SymattnError):
    """Raised when a step of a derivation is false or unproved; the message says which and why."""

    exit_code = EXIT_CHECK_FAILED


class StatementFailed(StepFailed):
    """Raised when the prose of a derivation states a relation it does not establish."""


class RenderingFailed(StepFailed):
    """Raised when a formula the pages print does not read back as the object printed."""


class LemmaFailed(SymattnError):
    """Raised when a lemma fails its check at a concrete size."""

    exit_code = EXIT_CHECK_FAILED


#: Errors a task may report, re-raised by name when its result is assembled.
_FAILURES: dict[str, type[SymattnError]] = {
    "StepFailed": StepFailed,
    "LemmaFailed": LemmaFailed,
    "StatementFailed": StatementFailed,
    "RenderingFailed": RenderingFailed,
}


#: The failure of a derivation whose theorem states no claims.
NO_CLAIMS = "the theorem states no claims"
