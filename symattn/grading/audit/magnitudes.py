r"""Words for how big a quantity is: "this is a small factor".

Goon's notes on flash attention end a derivation with ``H/R ~ H^2/M`` and then: "Since ``M ~
10^5`` bytes on 2023 GPUs, this is a small factor for the typical head dimensions ``H ~ 64``".
A careful reader puts the sentence's values into the formula just stated (64²/10⁵ ≈ 0.04) and
checks the word. The words are vague, so only the clear case is decided: "a small factor" is
certified at 0.1 or below and wrong at 10 or above; in between (a factor of 1.33, or of four, is
a small multiplier to many authors) nothing is decided. "A small number" (eight heads) and "a
large fraction" (half) speak of other scales, and "large" of what a factor multiplies: not read.

The formula is the last relation written before the sentence, in its paragraph, whose last
member holds only letters the sentence gives a value (``M \sim 10^5``, ``H \sim 64``, ``d =
512``); the values given on the claim's own line are part of the claim.

"Few mistakes" said of a model whose accuracy the same sentence gives ("as our model achieves
~94% accuracy, we only have very little number of mistakes in a batch of 64 sets") is read the
same way: the share of mistakes is 100 % less the accuracy; few is certified when at most 10 %
are mistakes and wrong when 30 % or more are (at ~50 % accuracy half the batch is wrong). Only
the model's own accuracy is read ("our model achieves"), in a sentence that weighs no other
model, supposes nothing (would, if) and does not outdo "few" (more than a few, no longer).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy as sp

from . import calc
from .context import AuditContext
from .document import Line
from .match import CERTIFIED, WRONG, Claim, inside
from .said import Math, Said
from .stated import Unreadable

RULE = "magnitudes: a small factor is at most 0.1, and one of 10 or more is not small (in between, neither)"
_WORD = re.compile(
    r"\b(?:this|that|which|it)\s+(?:is|remains|stays|gives|makes)\s+(?:a|an|only\s+a)\s+"
    r"(?:(?:very|rather|fairly)\s+)?(?P<word>small|tiny)\s+factor\b(?!\s+of\b)",
    re.I,
)
_GIVEN = re.compile(
    r"⟨\s*(?P<name>[A-Za-z]\w*)\s*(?:~|≈|=|\\sim|\\approx)\s*(?P<value>[0-9][0-9.^()eE+\-]*)\s*⟩"
)
#: "very little number of mistakes", "only a few errors", with the accuracy they follow from.
_FEW = re.compile(
    r"\b(?:only\s+)?(?:very\s+)?(?:(?:a\s+)?few|(?:a\s+)?(?:very\s+)?(?:little|small)\s+number\s+of|a\s+handful\s+of)\s+"
    r"(?:mistakes|errors|misclassifications|wrong\s+predictions)\b",
    re.I,
)
_ACCURACY = re.compile(
    r"(?<![\w.])[~≈]?\s*(?P<p>\d+(?:\.\d+)?)\s*%\s+(?:(?:validation|test|training|top-1|overall)\s+)?accuracy\b"
    r"|\baccuracy\s+of\s+[~≈]?\s*(?P<q>\d+(?:\.\d+)?)\s*%",
    re.I,
)
_FIGURE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")
_BATCH = re.compile(r"\s+(?:in|of|among|per)\s+(?:a|each|every|one)\s+batch\s+of\s+(?P<n>\d+)\b", re.I)
#: The accuracy of the model the sentence speaks of: "our model achieves ~94% accuracy".
_OWN = re.compile(
    r"\b(?:our|the|this)\s+(?:\w+\s+)?(?:model|network|transformer|classifier|predictor)\s+"
    r"(?:achieves|reaches|attains|gets|obtains|has)\s+(?:an?\s+accuracy\s+of\s+)?[~≈]?\s*\d"
    r"|^\W*with\s+(?:an?\s+)?(?:(?:test|validation)\s+)?accuracy\s+of\s+[~≈]?\s*\d"
    r"|^\W*with\s+[~≈]?\s*\d+(?:\.\d+)?\s*%\s+(?:\w+\s+){0,3}?accuracy\b",
    re.I,
)
#: Another model's accuracy weighed against it, a hypothetical, or "few" negated or outdone.
_NOT_FEW = re.compile(
    r"\b(?:not|no|never|many|more\s+than|far\s+more|no\s+longer|would|could|if|whereas|while|compared|contrast|"
    r"baseline|chance|random|each|members?|ensembl\w*|unseen|held[- ]out|instead|than|per|within|in\s+it|"
    r"typically|whole)\b",
    re.I,
)
FEW_RULE = "magnitudes: few mistakes are at most 10 % of the predictions, and 30 % or more are not few"
_RELATION = re.compile(r"⟨(?P<formula>[^⟨⟩]*(?:~|≈|=)[^⟨⟩]*)⟩")
#: Where the word's verdict is clear: (certified when, wrong when).
_BOUNDS = (lambda v: v <= sp.Rational(1, 10), lambda v: v >= 10)


def magnitude_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for m in _WORD.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        sentence, at = au.doc.sentence(line, m.start())
        givens = _givens(sentence)
        if not givens:
            continue
        paragraph = au.doc.block_text(line).replace("\n", " ")  # as a sentence joins its lines
        head = paragraph[: paragraph.find(sentence.strip())] if sentence.strip() in paragraph else ""
        found = _quantity(head + sentence[:at], givens)
        if found is None:
            continue
        expression, value = found
        holds, fails = _BOUNDS
        if holds(value):
            verdict = CERTIFIED
        elif fails(value):
            verdict = WRONG
        else:
            continue
        names = {x.name for x in expression.free_symbols}
        used = [Math(sp.Eq(sp.Symbol(k), v)) for k, v in sorted(givens.items()) if k in names]
        said = Said(Math(expression), " ≈ ", f"{float(value):.3g}", " with ", Said.join(", ", used))
        spans = [m.span()] + [g.span() for g in _GIVEN.finditer(line.text) if not inside(covered, *g.span())]
        add(Claim(line.number, line.text[m.start() : m.end()], verdict, said, RULE, spans))


def _givens(sentence: str) -> dict[str, sp.Expr]:
    out: dict[str, sp.Expr] = {}
    for g in _GIVEN.finditer(sentence):
        try:
            members, relations = calc.parse_chain(g.group("value"))
            value = calc.exact(members[0], {}) if not relations else None
        except (Unreadable, TypeError, ValueError, ZeroDivisionError):
            continue
        if isinstance(value, sp.Expr) and value.is_number and value > 0:
            out[g.group("name")] = value
    return out


def _quantity(before: str, givens: dict[str, sp.Expr]) -> tuple[sp.Expr, sp.Expr] | None:
    """The last member of the last relation before, with the givens put in: (it, its value)."""
    for r in reversed(list(_RELATION.finditer(before))):
        formula = r.group("formula")
        if _GIVEN.fullmatch(f"⟨{formula}⟩"):
            continue  # a value given, not the quantity
        last = re.split(r"~|≈|=", formula)[-1]
        try:
            members, relations = calc.parse_chain(last)
            if relations or len(members) != 1:
                continue
            names = {n[1] for n in calc.walk(members[0]) if n[0] == "sym"}
            if not names or not names <= set(givens):
                continue
            value = calc.exact(members[0], givens)
            shown = calc.exact(members[0], {})
        except (Unreadable, TypeError, ValueError, ZeroDivisionError):
            continue
        if isinstance(value, sp.Expr) and value.is_number and value.is_positive:
            return shown, value
    return None


def few_mistakes(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "Few mistakes" at the accuracy the sentence states: the share of mistakes, 1 less it."""
    for a, b in line.sentences():
        sentence = line.text[a:b]
        few = _FEW.search(sentence)
        accuracies = list(_ACCURACY.finditer(sentence))
        if few is None or len(accuracies) != 1 or not _OWN.search(sentence) or _NOT_FEW.search(sentence):
            continue
        if len(_FIGURE.findall(sentence)) > 2:
            continue  # a count of the mistakes said as well ("about 20 of them"): not read
        acc = accuracies[0]
        span = (a + acc.start(), a + acc.end())
        if inside(covered, *span) or inside(covered, a + few.start(), a + few.end()):
            continue
        accuracy = sp.Rational(acc.group("p") or acc.group("q")) / 100
        if not 0 <= accuracy <= 1:
            continue
        share = 1 - accuracy
        if share <= sp.Rational(1, 10):
            verdict = CERTIFIED
        elif share >= sp.Rational(3, 10):
            verdict = WRONG
        else:
            continue
        stated = acc.group("p") or acc.group("q")
        said = f"mistakes are 100 % − {stated} % = {_percent(share)} of the predictions"
        spans = [span, (a + few.start(), a + few.end())]
        batch = _BATCH.match(sentence, few.end())
        if batch:  # the batch they are counted in: about share × its size
            said += f", about {float(share * int(batch.group('n'))):.3g} of {batch.group('n')}"
            spans.append((a + batch.start("n"), a + batch.end("n")))
        add(Claim(line.number, sentence.strip(), verdict, Said(said), FEW_RULE, spans))


def _percent(share: sp.Expr) -> str:
    return f"{float(share * 100):g} %"
