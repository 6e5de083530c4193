"""Shares of one whole, said in percentages: a split adds up to 100 %, probabilities to at most 100 %.

- **A split**: "we split the training set into 90% training, 10% validation" divides one whole
  into parts, so the parts add up to exactly 100 %. Read only where the shares are listed right
  after "into" (a split "into two halves, and 50% of them ..." speaks of something else).
- **Probabilities given to outcomes**: "giving a probability of ~90% to image 2, and 8% to the
  actual anomaly" gives two of the outcomes of one prediction their shares, each share "to" its
  outcome; outcomes of one prediction exclude one another, so their probabilities add up to at
  most 100 % (the rest goes to the outcomes not named). An approximate share (``~90%``) counts
  as stated. Probabilities of events said otherwise ("of rain on Saturday is 60%", conditional
  shares "of those, 80%") may overlap: not read.

Each sentence is one claim, read only where it names the split or the probability and every
share is a percentage of its own (two or more).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from .context import AuditContext
from .document import Line
from .match import Claim, inside
from .said import Said

RULE = (
    "shares: the parts of a split add up to 100 %, the probabilities of different outcomes to at most 100 %"
)
_PERCENT = re.compile(r"(?<![\w.])[~≈]?\s*(?P<p>\d+(?:\.\d+)?)\s*%")
#: "split the training set into 90% training, 10% validation": the shares listed after "into".
_SPLIT = re.compile(
    r"\b(?:split|splits|splitting|divide[sd]?|dividing|partition\w*)\b[^.%]{0,60}?\binto\s+"
    r"(?P<parts>[~≈]?\s*\d+(?:\.\d+)?\s*%\s*[\w-]+(?:\s*(?:,|and|,\s*and)\s*[~≈]?\s*\d+(?:\.\d+)?\s*%\s*[\w-]+)+)",
    re.I,
)
#: "a probability of ~90% to image 2, and 8% to the actual anomaly": shares given to outcomes.
_GIVEN_TO = re.compile(
    r"\bprobabilit(?:y|ies)\s+of\s+(?P<parts>[~≈]?\s*\d+(?:\.\d+)?\s*%\s+to\s+[^,;.%]+?"
    r"(?:\s*(?:,|and|,\s*and)\s*[~≈]?\s*\d+(?:\.\d+)?\s*%\s+to\s+[^,;.%]+?)+)(?=[,;.]|$)",
    re.I,
)
#: Shares of different wholes, or one share compared with another: not parts of one whole.
_OTHER = re.compile(
    r"\b(?:accuracy|accuracies|of the time|each|every|per|increase|decrease|more|less|than|"
    # a part of a part (the held-out portion, the remaining data, a labelled subset), shares of
    # all tokens, labels scored one by one, or several queries' rows
    r"portion|remaining|rest|subset|held[- ]out|selected|of all|sigmoid|independent\w*|labels?|"
    r"multi-label|quer(?:y|ies)|rows?|each class)\b",
    re.I,
)


def share_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for a, b in line.sentences():
        sentence = line.text[a:b]
        if _OTHER.search(sentence):
            continue
        for kind, pattern in (("split", _SPLIT), ("probability", _GIVEN_TO)):
            m = pattern.search(sentence)
            if m is None:
                continue
            shares = [x for x in _PERCENT.finditer(m.group("parts"))]
            at = a + m.start("parts")
            spans = [(at + x.start(), at + x.end()) for x in shares]
            if len(shares) < 2 or any(inside(covered, *span) for span in spans):
                continue
            total = sum(Fraction(x.group("p")) for x in shares)
            ok = total == 100 if kind == "split" else total <= 100
            parts = " + ".join(f"{x.group('p')} %" for x in shares)
            relation = ("=" if ok else "≠") if kind == "split" else ("≤" if ok else ">")
            said = Said(
                f"{parts} = 100 %" if total == 100 else f"{parts} = {_show(total)} % {relation} 100 %"
            )
            add(Claim.judged(line.number, sentence.strip(), ok, said, RULE, spans))


def _show(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"
