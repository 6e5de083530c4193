r"""What a derivation shows is what was checked: its printed sides and the math of its prose.

Three checks that ``verify`` runs beside the steps (:meth:`symattn.proof.Derivation.tasks`):

- **Rendering.** Every side a page shows (:func:`symattn.proof.latex.side_latex`, the printer
  the LaTeX and Markdown pages use) and every line of the notation is read back by
  :mod:`.reader` and must equal the object it was printed from: the relation, the transposes,
  the signs, the fractions, a decimal's digits. A printer that drops a ``^{\top}`` fails here.
- **Statements.** Every formula in ``$...$`` of the title, the theorem, the assumptions, the
  section headings, the rules and the numeric checks' names must be read, and each relation it
  states must be one the derivation establishes (a claim, a step, a point of a chain, an
  abbreviation or a definition), a value put into its step, or one the engine proves on the
  spot (:func:`established`). A theorem that says ``\operatorname{Var}(z) = \sqrt{d_k}`` while
  its proof shows ``d_k`` fails, naming the theorem.
- **Assumptions.** Every sign a published derivation declares of a symbol (positive,
  nonnegative, ...) is stated on its page, and every sign the page assumes is declared.

The derivation is read through its attributes only (no import of the engine, which imports
this module). The checks live in :mod:`.shown_rendering`, :mod:`.shown_statements` and
:mod:`.shown_assumptions`, their shared helpers in :mod:`.shown_base`; all are exported here.
"""

from __future__ import annotations

from .shown_assumptions import check_assumptions
from .shown_base import (
    DENIAL,
    TOLERANCE,
    NotShownAsChecked,
    affirmed,
    agree,
    established,
    formulas,
    rebuilt,
    texts,
    words_vocabulary,
)
from .shown_rendering import check_rendering, same_form
from .shown_statements import check_statements

__all__ = [
    "DENIAL",
    "TOLERANCE",
    "NotShownAsChecked",
    "affirmed",
    "agree",
    "check_assumptions",
    "check_rendering",
    "check_statements",
    "established",
    "formulas",
    "rebuilt",
    "same_form",
    "texts",
    "words_vocabulary",
]
