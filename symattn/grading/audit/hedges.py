"""Sentences that do not assert what they say: denials, contrasts, questions, suppositions and
reports of another's claim or of a mistake.

The rules that read claims in words (:mod:`.meaning`, :mod:`.causal`, :mod:`.positions`, and
others) leave such a sentence alone: "one cannot simply set the lower-triangular part to −∞",
"can the attention weights be negative?", "a frequent mistake is to assume ..." say nothing the
audit should certify or call wrong.
"""

from __future__ import annotations

import re

DENIED = re.compile(
    r"\b(?:not|never|no longer|nor|need not|cannot|without|whereas|but|although|though|rather than"
    r"|unlike|compared (?:with|to)|described as|said to|misconception|instead|prevents?|from getting"
    r"|avoids?|even when|even if)\b|n't\b",
    re.I,
)
#: A sentence that does not assert what it says: a question, a mistake or a claim reported, a
#: supposition, an exercise (its words are not the text's own claim).
_HEDGED = re.compile(
    r"\?|\b(?:mistakes?|bugs?|wrong|errors?|misconceptions?|myths?|suppose|supposing|assume[sd]?|assuming"
    r"|one might|might expect|expects?|expected|claims?|claimed|exercise|prove that|show that|if we|would)\b",
    re.I,
)


#: A sentence that asks, or reports a mistake or another's claim.
_REPORTED = re.compile(
    r"\?|\b(?:mistakes?|bugs?|wrong|errors?|misconceptions?|myths?|claims?|claimed)\b", re.I
)


def hedged(sentence: str, denials: bool = True) -> bool:
    """Whether a sentence denies, contrasts, asks, supposes or reports what it says: the rules that
    read facts in words then leave it alone. With ``denials`` False only a question or a report
    counts ("never materializing the O(S²) scores" still counts them)."""
    if not denials:
        return bool(_REPORTED.search(sentence))
    return bool(DENIED.search(sentence) or _HEDGED.search(sentence))
