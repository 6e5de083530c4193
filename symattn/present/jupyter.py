"""Results as Jupyter shows them: attention steps and derivation reports as Markdown and LaTeX.

Registered with :mod:`symattn.display` when ``symattn`` is imported; the renderers are
imported when an object is first shown, so importing symattn stays as fast as before.
"""

from __future__ import annotations

from typing import Any

from ..display import register


def steps_markdown(steps: Any) -> str:
    from .render import to_markdown

    return to_markdown(steps, 6)


def steps_latex(steps: Any) -> str:
    from .render import to_latex

    return "$$" + to_latex(steps, 6).replace("align*", "aligned") + "$$"


def report_markdown(report: Any) -> str:
    from .proof_render import to_markdown

    return to_markdown(report.derivation, report) if report.derivation else f"**{report.name}**"


def report_latex(report: Any) -> str:
    from .proof_render import to_latex_block

    return to_latex_block(report.derivation, report) if report.derivation else report.name


register("symattn.core.exact.AttentionSteps", "markdown", steps_markdown)
register("symattn.core.exact.AttentionSteps", "latex", steps_latex)
register("symattn.proof.records.DerivationReport", "markdown", report_markdown)
register("symattn.proof.records.DerivationReport", "latex", report_latex)
