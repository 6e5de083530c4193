"""Heads, their width and the model's width, said in words in one sentence: "We use 8 heads of
width 64, so the model width is 512", "the 512 dimensions are split over 8 heads, giving each
head 64".

Multi-head attention splits the model's width among its heads: h heads of width d_k make
h · d_k = d_model (:func:`symattn.core.flops.d_head`). That is the usual choice, not a law (a
model may give its heads a width of its own), so the sentence is judged only where it draws
the conclusion itself: a word that concludes ("so", "giving", "i.e.", "which is") or splits
("split", "divided", "shared") stands before the figure it concludes, and that figure is the
claim; a sentence that only lists the three sizes is a model's description, not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy as sp

from .context import AuditContext
from .document import Line
from .match import Claim, inside
from .said import Math, Said

_N = r"(\d{1,3}(?:,\d{3})+|\d+)"
#: The number of heads.
_HEADS = re.compile(rf"\b{_N}\s+(?:attention\s+)?heads\b|⟨\s*[hH]\s*=\s*{_N}\s*⟩\s*heads?\b", re.I)
#: A head's width.
_HEAD_WIDTH = re.compile(
    rf"\bheads?\s+(?:each\s+)?(?:of|with)\s+(?:a\s+)?(?:width|size|dimension(?:ality)?)\s+(?:of\s+)?{_N}"
    rf"|\beach\s+head\s+(?:(?:has|gets|works on|of|is)\s+)?(?:a\s+width\s+of\s+|about\s+)?{_N}(?!\s*heads)"
    rf"|\bhead\s+(?:width|size|dimension)\s+(?:of|is|=)\s+{_N}"
    rf"|\b{_N}\s+(?:dimensions|features)\s+(?:each|per\s+head|a\s+head|for\s+each\s+head)",
    re.I,
)
#: The model's width.
_MODEL_WIDTH = re.compile(
    rf"(?<!MLP )(?<!FFN )(?<!inner )(?<!intermediate )(?<!feed-forward )"
    rf"\b(?:model|hidden|embedding)\s+(?:width|size|dimension(?:ality)?)\s+(?:of\s+|is\s+|=\s+)?{_N}"
    rf"|\b{_N}\s+(?:model\s+)?dimensions\s+(?:are|is)\s+(?:split|divided|shared)"
    rf"|\bthe\s+{_N}(?:-dimensional)?\s+(?:dimensions|features)\s+of\s+the\s+model",
    re.I,
)
#: A word that concludes one size from the others.
_CONCLUDES = re.compile(
    r"\b(?:so(?!-)|hence|thus|therefore|giving|gives|making|which is|split|divided|shared)\b|\bi\.\s?e\.",
    re.I,
)

RULE = "multi-head: h heads of width d_k make the model's width h · d_k (symattn.core.flops.d_head)"


def heads_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for a, b in _sentences(line):
        sentence = line.text[a:b]
        found = {}
        if re.search(r"\blayers?\b", sentence, re.I):
            continue  # heads counted over the layers: not one layer's split
        for name, pattern in (("h", _HEADS), ("d_k", _HEAD_WIDTH), ("d_model", _MODEL_WIDTH)):
            matches = list(pattern.finditer(sentence))
            if len(matches) != 1:
                break  # none, or two models' sizes in one sentence
            m = matches[0]
            group = next(i for i in range(1, (m.re.groups or 0) + 1) if m.group(i))
            found[name] = (int(m.group(group).replace(",", "")), (a + m.start(group), a + m.end(group)))
        if len(found) < 3:
            continue
        # the claim is the figure that comes after the word that concludes
        # the last: "the 768 dimensions are split over 12 heads, so each head has 64"
        conclusion = next(reversed(list(_CONCLUDES.finditer(sentence))), None)
        if conclusion is None:
            continue
        after = [(n, v) for n, v in found.items() if v[1][0] >= a + conclusion.start()]
        # the concluded size is said right after the word that concludes it
        if len(after) != 1 or after[0][1][1][0] - (a + conclusion.end()) > 40:
            continue
        name, (stated, span) = after[0]
        if inside(covered, *span):
            continue
        heads, width, model = found["h"][0], found["d_k"][0], found["d_model"][0]
        if 0 in (heads, width, model):
            continue  # no heads, or no width: nothing split
        wants = {"h": sp.Rational(model, width), "d_k": sp.Rational(model, heads), "d_model": heads * width}
        want = wants[name]
        ok = want == stated
        covered.extend(v[1] for n, v in found.items() if n != name)  # the sizes it starts from
        add(Claim.judged(line.number, line.text[span[0] : span[1]], ok, Said(Math(want)), RULE, [span]))


def _sentences(line: Line) -> list[tuple[int, int]]:
    """The line's sentences, one running on past "i.e." and "e.g." (which end no sentence)."""
    out: list[tuple[int, int]] = []
    for a, b in line.sentences():
        if out and re.search(r"\b(?:i\.\s?e|e\.\s?g)\.$", line.text[out[-1][0] : out[-1][1]].rstrip()):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


# -- copies shared: N replaced by one shrink what they hold N-fold --------------------------------
SHARED_RULE = "heads shared: N copies replaced by a single one hold N times less"
#: "the ⟨A⟩ different key and value matrices are replaced by a single matrix each".
_REPLACED = re.compile(
    r"⟨\s*(?P<n>[A-Za-z]\w*|\d+)\s*⟩\s+(?:different|distinct|separate)\s+[\w\s/-]{0,40}?"
    r"(?:matrices|heads|tensors|projections)\s+(?:are|were|is)\s+replaced\s+by\s+(?:a\s+)?(?:single|one)\b"
    r"(?P<group>[^.⟨]{0,40}?\bfor\s+each\s+group\s+of\s+⟨\s*(?P<g>[A-Za-z]\w*|\d+)\s*⟩)?",
    re.I,
)
#: "decreasing the memory-burden of the cache by a factor of ⟨A⟩".
_FACTOR = re.compile(
    r"\b(?:reduc\w*|decreas\w*|shrink\w*|cut\w*|lower\w*|sav\w*)\b[^.⟨]{0,60}?\bby\s+a\s+factor\s+of\s+"
    r"⟨\s*(?P<f>[^⟨⟩]+?)\s*⟩",
    re.I,
)
#: Another scheme than the one the replacement names (groups of heads after a single one).
_OTHER_SCHEME = re.compile(r"\bgroup\w*|\bGQA\b", re.I)
_HELD = re.compile(r"\b(?:kv|key[- ]value)?[- ]?cache\b", re.I)
#: What else a factor may count: other savings with the sharing, or memory beyond the cache.
_ALSO = re.compile(
    r"\b(?:together|combined|also|bits?|\d+-bit|quantiz\w*|precision|total|overall|weights)\b", re.I
)


def shared_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """Multi-query attention (Goon's notes): "the ⟨A⟩ different key and value matrices are replaced
    by a single matrix each", then "... reduces the size of the kv-cache ..., decreasing the
    memory-burden of the cache by a factor of ⟨A⟩": what A copies held, one holds, so the factor
    is A. Read where the replacement stands in the claim's paragraph or the one before it."""
    from .letters import read

    for _tex, _plain, start, end in line.formulas:
        if inside(covered, start, end):
            continue
        sentence, at = au.doc.sentence(line, start)
        m = next((m for m in _FACTOR.finditer(sentence) if m.start("f") - 1 <= at < m.end("f") + 1), None)
        # "shrinks the kv-cache and reduces the attention FLOPs by ...": the last of two things named
        last = re.split(r"\band\b", m.group(0))[-1] if m else ""
        elsewhere = re.search(r"\b(?:reduc|decreas|shrink|cut|lower|sav)\w*", last) and not _HELD.search(last)
        if m is None or not _HELD.search(m.group(0)) or elsewhere or _ALSO.search(sentence):
            continue  # the factor must be said of the cache itself ("... and the FLOPs by A": not read)
        own = au.doc.block_text(line).replace("\n", " ")
        if _OTHER_SCHEME.search(own) and not _REPLACED.search(own):
            continue  # grouped-query attention said after the paragraph on multi-query attention
        context = (au.previous_block(line) + "\n" + au.doc.block_text(line)).replace("\n", " ")
        replaced = list(_REPLACED.finditer(context))
        if not replaced:
            continue
        last = replaced[-1]  # A heads shared in groups of G: each shared head stands for G
        given = au.premises(line)  # "with h = 32, ... by a factor of 32"
        copies, factor = read(last.group("g") or last.group("n"), given), read(m.group("f"), given)
        if copies is None or factor is None:
            continue
        ok = sp.simplify(copies - factor) == 0
        said = Said(Math(copies), " copies replaced by one: a factor of ", Math(copies))
        add(Claim.judged(line.number, line.text[start:end], ok, said, SHARED_RULE, [(start, end)]))
