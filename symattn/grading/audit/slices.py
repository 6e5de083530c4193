r"""Indexing the text writes as code and says in words: a slice that reverses, a shift by one.

**A slice said to reverse**: "in NumPy notation, the output should be x[::-1]".

A task described in words ("the task is to reverse the input sequence") and then written as a
NumPy slice is a claim a reader checks by slicing: the slice is applied to a sequence of seven
distinct items (Python's own ``slice``, from the integers written, never evaluated as code) and
must give them in reverse order. ``x[::-1]`` is certified; ``x[::1]`` or ``x[::2]`` is wrong.

Read only for a slice alone in its sentence, where reversing a sequence is said ("reverse the
input sequence", "in reverse order", "the reversed sequence") in that sentence, or in the
sentence before when this one says the slice is the output ("the output should be x[::-1]"); a
sentence that denies or restricts (not, whereas, only, the first) is not read, nor "reverse" in
another sense (reverse-mode, the reverse KL, in reverse order of importance).

**Targets shifted by one**: "the token inputs x_bs along with their shifted-by-one relatives y_bs
where x[:, s + 1] == y[:, s]". The words and the code must say the same shift (one, and
``s + 1``). Later, an equation of the two in index notation must keep it: with y_s = x_{s+1},
"x_{b(s+1)} = y_{b(s+1)}" pairs a token with the target of the next one, an error off by one
(it is called wrong; an equation that keeps the shift is not certified for it, since the
formula around it says more).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .context import AuditContext
from .document import Line
from .match import CERTIFIED, WRONG, Claim, inside
from .said import Said

RULE = "slices: a NumPy slice said to reverse a sequence, applied to one"
_SLICE = re.compile(
    r"(?:⟨\s*[A-Za-z]\w*\s*⟩|`?\b[A-Za-z]\w*)\[(?P<start>-?\d*):(?P<stop>-?\d*)(?::(?P<step>-?\d*))?\]`?"
)
#: Reversing a whole sequence, said in words (not reverse-mode, a reverse complement or KL).
_REVERSE = re.compile(
    r"\brevers(?:e|es|ed|ing)\s+(?:the\s+|a\s+|its\s+|our\s+)?(?:input\s+)?(?:sequences?|list|array|order|input|string)\b"
    r"|\bin\s+reverse\s+order\b(?!\s+of\b)|\breversed\s+(?:sequence|list|array|order|input)\b|\bbackwards\b",
    re.I,
)
_ITEMS = tuple(range(7))


def slice_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for a, b in line.sentences():
        sentence = line.text[a:b]
        found = list(_SLICE.finditer(sentence))
        # one slice, in a sentence that denies or restricts nothing
        if len(found) != 1 or _DENIED.search(sentence):
            continue
        m = found[0]
        span = (a + m.start(), a + m.end())
        before = line.text[slice(*line.sentence_at(a - 2))] if a else ""  # the sentence before, on the line
        said_here = _REVERSE.search(sentence)
        said_before = _REVERSE.search(before) and _IS.search(sentence[: m.start()])
        if inside(covered, *span) or not (said_here or said_before):
            continue
        bounds = [int(x) if x not in (None, "", "-") else None for x in m.group("start", "stop", "step")]
        if bounds[2] == 0:
            continue  # not a slice Python takes
        got = _ITEMS[slice(*bounds)]
        ok = got == _ITEMS[::-1]
        said = Said(
            f"{_show(m)} of {list(_ITEMS)} is {list(got)}" + ("" if ok else ", not the items reversed")
        )
        add(Claim.judged(line.number, m.group(0), ok, said, RULE, [span]))


#: The slice is what the sentence says the result is: "the output should be x[::-1]".
_IS = re.compile(
    r"\b(?:output|result|target|answer|labels?)\s+(?:should\s+be|is|are|equals?|will\s+be)\s*$|\bnotation\b",
    re.I,
)
_DENIED = re.compile(r"\b(?:not|never|no|whereas|instead|only|partial\w*|part|first|last)\b|n't\b", re.I)


def _show(m: re.Match) -> str:
    return m.group(0)[m.group(0).index("[") :].rstrip("`")


SHIFT_RULE = (
    "slices: a sequence and its targets shifted by k, x[:, s + k] == y[:, s], in words and in later equations"
)
_SHIFT_CODE = re.compile(
    r"\b(?P<x>[A-Za-z]\w*)\[\s*:\s*,\s*(?P<i>[a-z])\s*\+\s*(?P<k>\d+)\s*\]\s*==\s*"
    r"(?P<y>[A-Za-z]\w*)\[\s*:\s*,\s*(?P=i)\s*\]"
)
_SHIFT_WORDS = re.compile(r"\bshift(?:ed)?[- ]by[- ](?P<n>one|two|three|\d+)\b", re.I)
_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3}


def shift_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """The shift declared in code against its words; later equations against the shift."""
    for m in _SHIFT_CODE.finditer(line.text):
        sentence, _ = au.doc.sentence(line, m.start())
        words = _SHIFT_WORDS.search(sentence)
        if inside(covered, *m.span()) or words is None:
            continue
        n = _WORD_NUMBERS.get(words.group("n").lower()) or int(words.group("n"))
        k = int(m.group("k"))
        said = Said(
            f"{m.group('y')}[:, {m.group('i')}] is {m.group('x')}[:, {m.group('i')} + {k}]: shifted by {k}"
        )
        add(Claim(line.number, m.group(0), CERTIFIED if k == n else WRONG, said, SHIFT_RULE, [m.span()]))
    for _tex, plain, start, end in line.formulas:
        if inside(covered, start, end):
            continue
        for shift in au.doc.once("shifts", _shifts):
            if shift[0] >= line.number or shift[1] != line.section:
                continue  # the letters may stand for other things in another section
            wrong = _breaks(plain, *shift[2:])
            if wrong:
                add(Claim(line.number, line.text[start:end], WRONG, Said(wrong), SHIFT_RULE, [(start, end)]))
                break


def _shifts(doc) -> list[tuple[int, int, str, str, str, int]]:
    """(line, section, x, y, index, k) for each ``x[:, s + k] == y[:, s]`` the text writes."""
    return [
        (line.number, line.section, m.group("x"), m.group("y"), m.group("i"), int(m.group("k")))
        for line in doc.lines
        for m in _SHIFT_CODE.finditer(line.text)
    ]


_SUB = r"_(?P<{}>\((?:[^()]|\([^()]*\))*\)|\w+)"


def _breaks(plain: str, x: str, y: str, index: str, k: int) -> str | None:
    """What an equation x_{..i+j..} = y_{..i+l..} in ``plain`` gets wrong about y_i = x_{i+k}."""
    pattern = re.compile(
        rf"(?<![\w^]){re.escape(x)}{_SUB.format('a')}\s*=\s*{re.escape(y)}{_SUB.format('b')}"
    )
    for m in pattern.finditer(plain):
        j, i = _offset(m.group("a"), index), _offset(m.group("b"), index)
        if j is None or i is None or j - i == k:
            continue
        return (
            f"{y}[:, {index}] is {x}[:, {index} + {k}], so {x} at {_at(index, j)} is {y} at "
            f"{_at(index, j - k)}, not at {_at(index, i)}"
        )
    return None


def _at(index: str, offset: int) -> str:
    return index if offset == 0 else f"{index}{offset:+d}"


def _offset(sub: str, index: str) -> int | None:
    """The offset of ``index`` in a subscript: ``(b (s+1))`` 1, ``bs`` 0; None if it is not there
    alone or shifted by a whole number."""
    m = re.search(rf"\(\s*{index}\s*([+-])\s*(\d+)\s*\)", sub)
    if m:
        return int(m.group(2)) * (1 if m.group(1) == "+" else -1)
    bare = re.sub(r"[()\s]", "", sub)
    return 0 if re.fullmatch(rf"[a-z]*{index}'?[a-z]*", bare) and bare.count(index) == 1 else None
