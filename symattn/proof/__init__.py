"""The proof engine: derivations as chains of checked steps, and the tools that check them.

The engine (:mod:`.engine`: :class:`Derivation`, :class:`Step`, :class:`Lemma`) is exported
here, so a derivation reads ``from symattn.proof import Derivation, Lemma``. Beside it: deciding
equality (:mod:`.equivalence`), expectation and variance as rules (:mod:`.expectation`,
:mod:`.operators`, and :mod:`.gaussian`, which evaluates sympy.stats's expectations of
normal variables exactly and fast), certified enclosures of answers (:mod:`.certify`) and the LaTeX printer
that keeps the module's notation (:mod:`.latex`). This layer imports only :mod:`symattn.core`
and the shared base; rendering a derivation is :mod:`symattn.present.proof_render`.
"""

from __future__ import annotations

from .engine import (
    METHODS,
    CheckReport,
    Derivation,
    DerivationReport,
    Lemma,
    LemmaFailed,
    NumericCheck,
    RenderingFailed,
    StatementFailed,
    Step,
    StepFailed,
    StepReport,
    default_jobs,
    verify_many,
)

__all__ = [
    "METHODS",
    "CheckReport",
    "Derivation",
    "DerivationReport",
    "Lemma",
    "LemmaFailed",
    "NumericCheck",
    "RenderingFailed",
    "StatementFailed",
    "Step",
    "StepFailed",
    "StepReport",
    "default_jobs",
    "verify_many",
]
