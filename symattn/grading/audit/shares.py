"""Shares of one whole, said in percentages: a split adds up to 100 %, probabilities to at most 100 %.

- **A split**: "we split the training set into 90% training, 10% validation" divides one whole
  into parts, so the parts add up to exactly 100 %.
- **Probabilities of different outcomes**: "giving a probability of ~90% to image 2, and 8% to
  the actual anomaly" gives two of the outcomes of one prediction their shares; the outcomes
  exclude one another, so their probabilities add up to at most 100 % (the rest goes to the
  outcomes not named). An approximate share (``~90%``) counts as stated.

Each sentence is one claim, read only where it names the split or the probability and every
share is a percentage of its own (two or more).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from .context import AuditContext
from .document import Line
from .match import CERTIFIED, WRONG, Claim, inside
from .said import Said

RULE = (
    "shares: the parts of a split add up to 100 %, the probabilities of different outcomes to at most 100 %"
)
_PERCENT = re.compile(r"(?<![\w.])[~≈]?\s*(?P<p>\d+(?:\.\d+)?)\s*%")
_SPLIT = re.compile(
    r"\b(?:split|splits|splitting|divide[sd]?|dividing|partition\w*)\b[^.%]{0,60}?\binto\b", re.I
)
_PROBABILITY = re.compile(r"\bprobabilit(?:y|ies)\s+of\b", re.I)
#: Shares of different wholes, or one share compared with another: not parts of one whole.
_OTHER = re.compile(
    r"\b(?:accuracy|accuracies|of the time|each|every|per|increase|decrease|more|less|than)\b", re.I
)


def share_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for a, b in line.sentences():
        sentence = line.text[a:b]
        shares = [m for m in _PERCENT.finditer(sentence) if not inside(covered, a + m.start(), a + m.end())]
        if len(shares) < 2 or _OTHER.search(sentence):
            continue
        split = _SPLIT.search(sentence)
        probability = _PROBABILITY.search(sentence)
        if split and split.end() <= shares[0].start():
            kind = "split"
        elif probability and probability.end() <= shares[0].start() + 4:
            kind = "probability"
        else:
            continue
        total = sum(Fraction(m.group("p")) for m in shares)
        ok = total == 100 if kind == "split" else total <= 100
        parts = " + ".join(f"{m.group('p')} %" for m in shares)
        relation = ("=" if total == 100 else "≠") if kind == "split" else ("≤" if ok else ">")
        said = Said(f"{parts} = {_show(total)} % {relation} 100 %" if total != 100 else f"{parts} = 100 %")
        spans = [(a + m.start(), a + m.end()) for m in shares]
        add(Claim(line.number, sentence.strip(), CERTIFIED if ok else WRONG, said, RULE, spans))


def _show(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"
