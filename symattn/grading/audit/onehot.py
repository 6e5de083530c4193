r"""Categories as one-hot vectors: no two are closer than any other two.

A text that feeds categories to a model as one-hot vectors says why not as single numbers:
"representing the categories as single scalars decreases the expressiveness of the model, as 0
and 1 are not closer related than 0 and 9". The reader checks it with the vectors: the one-hot
vectors e_a, e_b of two different categories are √2 apart, whichever the two, so 0 and 1 are no
closer than 0 and 9 (as scalars they would be, |0 − 1| = 1 < |0 − 9| = 9: the order a single
number imposes). "Not closer related" (or "as related as", "no closer") is certified; "closer
related than" is wrong for one-hot categories.

Only relatedness is read ("closer related", not "closer", which may be said of any encoding),
of four category numbers, each pair of two different ones: "not closer related" where the
sentence or the one before it speaks of one-hot vectors or categories, "closer related" only
where its own sentence says the vectors are one-hot. A sentence about another kind of closeness
(how digits look, learned embeddings, positions, an order an encoding imposes) or a supposition
(if, when, encoded as) is not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy as sp

from .context import AuditContext
from .document import Line
from .match import Claim, inside
from .said import Math, Said

RULE = "one-hot: the one-hot vectors of any two different categories are √2 apart"
_N = r"⟨?\s*(?P<{}>\d+)\s*⟩?"
_CLOSER = re.compile(
    _N.format("a") + r"\s+and\s+" + _N.format("b") + r"\s+are\s+(?P<neg>not\s+|no\s+)?"
    r"(?:closer|more\s+closely)\s+related\s+than\s+(?:are\s+)?"
    + _N.format("c")
    + r"\s+and\s+"
    + _N.format("d")
    + r"(?!\s*[.,]?\d)",
    re.I,
)
#: Relations of another kind (how the images look, learned vectors, positions, an order the
#: text imposes), or a supposition: the one-hot vectors do not decide them.
_OTHER = re.compile(
    r"\b(?:visual\w*|look\w*|semantic\w*|meaning|embedd\w*|learned|trained|space|positions?|ordinal|integers?|"
    r"ordered|order|confus\w*|sees?|if|when|suppose|would|encoded\s+as|written\s+as|given\s+as|under)\b",
    re.I,
)
_ONE_HOT = re.compile(r"\bone[- ]hot\b|\bcategor(?:y|ies)\b", re.I)


def onehot_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for a, b in line.sentences():
        sentence = line.text[a:b]
        before = line.text[slice(*line.sentence_at(a - 2))] if a else ""  # the sentence before, on the line
        for m in _CLOSER.finditer(sentence):
            span = (a + m.start(), a + m.end())
            if inside(covered, *span) or _OTHER.search(sentence):
                continue
            negated = bool(m.group("neg"))
            # "not closer related": the categories themselves, as the one-hot vectors keep them;
            # "closer related" is read only of one-hot vectors named in its own sentence
            if negated and not (_ONE_HOT.search(sentence) or _ONE_HOT.search(before)):
                continue
            if not negated and not re.search(r"\bone[- ]hot\b", sentence, re.I):
                continue
            x, y, u, v = (int(m.group(k)) for k in "abcd")
            if x == y or u == v:
                continue
            size = max(x, y, u, v) + 1
            first, second = _distance(x, y, size), _distance(u, v, size)
            closer = bool(first < second)  # never: both are √2
            ok = closer if not negated else not closer
            said = Said(
                f"one-hot vectors: ‖e_{x} − e_{y}‖ = ",
                Math(first),
                f" and ‖e_{u} − e_{v}‖ = ",
                Math(second),
                f" (as scalars |{x} − {y}| = {abs(x - y)}, |{u} − {v}| = {abs(u - v)})",
            )
            add(Claim.judged(line.number, m.group(0), ok, said, RULE, [span]))


def _distance(i: int, j: int, size: int) -> sp.Expr:
    e = sp.eye(size)
    return sp.sqrt(sum(x**2 for x in e.row(i) - e.row(j)))
