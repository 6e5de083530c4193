"""Claims made in words about what the project has proved, judged by what they say.

- **weights sum to one**: "the softmax weights ... sum to one", "each row ... sums up to 1":
  the sum of a row of :func:`symattn.core.softmax.softmax_rows` over symbolic scores, which
  SymPy reduces to 1. "sum to zero" is wrong.
- **permutation equivariance**: "self-attention is permutation-equivariant" holds (the
  derivation ``permutation_equivariance``, checked step by step by ``symattn verify``:
  softmax((PQ)(PK)^T/√d) PV = P softmax(QK^T/√d) V); "the self-attention layer is invariant to
  the order of its inputs" is wrong: its outputs are permuted with its inputs. A sentence that
  denies (not, never) is not read.
"""

from __future__ import annotations

import re

import sympy as sp

_NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "half": sp.Rational(1, 2)}

_SUMS = re.compile(
    r"\b(?:(?:attention|softmax) (?:weights?|probabilit(?:y|ies))|softmax(?: outputs?)?"
    r"|attention (?:map|matrix)s?)\b"
    r"(?P<between>[^.;⟨]{0,60}?)\bsum(?:s|med|ming)?\s+(?:up\s+)?to\s+"
    r"(?:(?P<word>zero|one|two|three|half)\b|⟨\s*(?P<num>\d+(?:\.\d+)?)\s*⟩)"
)
_ORDER = re.compile(
    r"\b(?P<subject>(?i:self-attention)(?: layers?)?|(?:[Tt]he )?attention layers?|(?i:multi-head attention)"
    r"|(?:[Tt]he )?[Tt]ransformers?(?: encoder)?|MHA)\b(?P<between>[^.;]{0,80}?)\b"
    r"(?:permutation[- ](?P<w1>equivariant|invariant)|(?P<w2>equivariant|invariant)\s+to\s+(?:the\s+)?"
    r"(?:order|permutations?))(?P<object>\s+of\s+(?:the\s+)?(?:key|value)[\w-]*)?"
)
_DENIED = re.compile(r"\b(?:not|never|no longer|nor|need not|cannot)\b|n't\b")


def facts_in_words(au, line, add, covered) -> None:
    from ...core.softmax import softmax_rows
    from .match import CERTIFIED, WRONG, Claim, inside
    from .said import Math, Said

    for m in _SUMS.finditer(line.text):
        if inside(covered, *m.span()) or _DENIED.search(m.group("between")):
            continue
        stated = _NUMBER_WORDS[m.group("word")] if m.group("word") else sp.Rational(m.group("num"))
        z = sp.symbols("z1:4", real=True)
        total = sp.simplify(sum(softmax_rows(sp.Matrix([z]))))
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if total == stated else WRONG,
                Said(Math(total)),
                "meaning: a row of softmax weights sums to 1 (symattn.core.softmax, SymPy)",
                [m.span()],
            )
        )
    for m in _ORDER.finditer(line.text):
        a, b = line.sentence_at(m.start())
        pooled = re.search(r"\bpool", line.text[a:b], re.I)  # attention pooling is invariant: true
        if inside(covered, *m.span()) or _DENIED.search(m.group("between")) or m.group("object") or pooled:
            continue  # invariant to permuting the key-value pairs together: true, not this claim
        word = m.group("w1") or m.group("w2")
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if word == "equivariant" else WRONG,
                Said("permutation-equivariant: its outputs are permuted with its inputs"),
                "meaning: self-attention is permutation-equivariant (the derivation "
                "permutation_equivariance, checked by symattn verify)",
                [m.span()],
            )
        )
