r"""What a normalisation divides by: the standard deviation, not the variance.

Layer normalisation (and batch normalisation, and a z-score) subtracts the mean and divides by
the standard deviation, so that the result has variance 1: dividing x − μ by the variance σ²
gives a variance of 1/σ². Goon's notes name the two statistics "mean and variance ... μ_bs and
σ_bs, respectively" and then divide by σ_bs. A careful reader flags the pair: a quantity the text
calls the variance, used as the divisor of a centred value (``(x - μ)/σ``), without a square root.

The claim stands on the line that names the variance, through the line of the formula that
divides by it (in the paragraph or the one after, in a paragraph about a normalisation: LayerNorm,
BatchNorm, standardising). A name the text calls the standard deviation, divided by as it stands,
is certified; a divisor with a root or a power (``\sqrt{\sigma^2 + \epsilon}``, ``\sigma^2``)
is not read: which statistic the name stands for is then the text's to say.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .context import AuditContext
from .document import Line
from .match import CERTIFIED, WRONG, Claim, inside
from .said import Said

RULE = "normalisation: a centred value is divided by the standard deviation (the square root of the variance)"
#: "whose mean and variance over the d-index are ⟨mu_bs⟩ and ⟨sigma_bs⟩, respectively".
_NAMED = re.compile(
    r"\bmean\s+and\s+(?P<what>variance|standard\s+deviation)\b(?:[^.⟨⟩]|⟨[^⟨⟩]*⟩){0,80}?\b(?:are|is)\s+"
    r"⟨\s*(?P<mean>[^⟨⟩,]+?)\s*⟩\s*(?:,\s*)?and\s+⟨\s*(?P<spread>[^⟨⟩,]+?)\s*⟩",
    re.I,
)


#: What makes the division a normalisation: one of its names in the paragraph or the one before.
_NORMALISING = re.compile(
    r"\b(?:layer\s*norm\w*|batch\s*norm\w*|normali[sz]\w*|standardi[sz]\w*|z-score|LayerNorm|BatchNorm)",
    re.I,
)


def divisor_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for m in _NAMED.finditer(line.text):
        span = (m.start("spread") - 1, m.end("spread") + 1)
        if inside(covered, *span):
            continue
        mean, spread = (re.escape(m.group(k).strip()) for k in ("mean", "spread"))
        # the centred value over the spread itself, nothing more: (z - mu)/(sigma), (z - mu)/sigma
        divided = re.compile(rf"-\s*{mean}\s*\)\s*/\s*(?:\(\s*{spread}\s*\)|{spread})(?![\w^(])")
        found = _divided_in(au, line, divided)
        context = au.doc.block_text(line) + " " + au.previous_block(line)
        if found is None or not _NORMALISING.search(context):
            continue  # a root, a power or another formula (a Gaussian's score): not read here
        at = found
        ok = m.group("what").lower() != "variance"
        said = Said(
            "divided by what the text calls the standard deviation"
            if ok
            else "dividing by the variance leaves a variance of 1/σ²: normalising divides by its square root"
        )
        verdict = CERTIFIED if ok else WRONG
        add(Claim(line.number, line.text[slice(*span)], verdict, said, RULE, [span], through=at))


def _divided_in(au: AuditContext, line: Line, divided: re.Pattern) -> int | None:
    """The line of the formula, in this paragraph or the one after, that divides a centred value
    by the spread itself; None when none does."""
    candidates = [*au.doc.block(line), *au.doc.block_number(line.block + 1)]
    for x in candidates:
        if x.number < line.number:
            continue
        for _tex, plain, _s, _e in x.formulas:
            if divided.search(plain):
                return x.number
    return None
