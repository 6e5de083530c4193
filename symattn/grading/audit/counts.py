r"""Counts a text carries: a whole made of parts, counted again in later sentences.

A reader told "we will show the model a set of 9 images of one class, and 1 image from another
class" knows the set: 10 images, 9 of them alike, one odd one out. Later sentences count it again,
and the reader checks each against it:

- "the set of 10 images is returned": the whole, 9 + 1;
- "the first 9 are from the same class": the alike part (more than 9 alike is wrong; fewer is
  true but says less, and is not read);
- "predictions other than 9, as the anomaly is always at the last position": the last position of
  a set of 10, counted from 0 as code counts (10, the last counted from 1, is not read).

A reader told "CIFAR100 has 600 images for 100 classes each" knows the dataset: 600 × 100 images
in 100 classes. Later sentences count it again:

- "the training set has 50k images, and the test 10k": a training and a test set make up the
  dataset, so 50k + 10k must be 600 × 100;
- "the same number of images for all 100 labels": the number of classes.

A dataset's figures are a report (set apart as not a claim); a set's parts stay a claim of their
sentence, one the audit leaves unchecked (a reader adds them up to the set used later). What
counts a whole again is a claim. A sentence is read only after the whole is
stated, in the same text, and of the same things (the set's images, the dataset's classes).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .context import AuditContext
from .document import NUMBER, Line
from .match import CERTIFIED, WRONG, Claim, inside
from .notclaims import NOT_A_CLAIM, REPORT
from .said import Said

RULE = "counts: a whole stated as parts (a set, a dataset of classes) and the sentences that count it again"


@dataclass(frozen=True)
class Whole:
    """A whole the text stated, made of parts: ``alike`` of one kind and ``odd`` of another (a
    set), or ``groups`` groups of ``each`` (a dataset of classes)."""

    noun: str
    total: int
    alike: int = 0
    groups: int = 0
    said: str = ""
    section: int = 0  # the section it was stated in: a count is read only there
    name: str = ""  # the dataset's name (CIFAR100)

    @property
    def kind(self) -> str:
        return "dataset" if self.groups else "set"


_COUNT = r"(?:\d+|one|a\s+single)"
#: "a set of 9 images of one class, and 1 image from another class".
_SET_OF_PARTS = re.compile(
    rf"\ba\s+set\s+of\s+(?P<alike>\d+)\s+(?P<noun>[a-z]+?)s?\s+(?:of|from)\s+(?:one|the\s+same|a\s+single)\s+"
    rf"(?P<kind>class|category|kind|label)\s*,?\s+(?:and|plus)\s+(?P<odd>{_COUNT})\s+(?:[a-z]+\s+)?"
    r"(?:of|from)\s+(?:another|a\s+different|an\s+other)\b",
    re.I,
)
#: "CIFAR100 has 600 images for 100 classes each (with a resolution of 32x32)".
_DATASET = re.compile(
    r"\b(?P<name>[A-Z][\w-]*)\s+(?:has|contains|holds)\s+(?P<each>\d[\d,]*)\s+(?P<noun>images|examples|samples)\s+"
    r"(?:(?:for|in)\s+(?P<groups>\d+)\s+(?:classes|categories|labels)\s+each\b"
    r"|(?:for|in)\s+each\s+of\s+(?P<groups2>\d+)\s+(?:classes|categories|labels)"
    r"|per\s+class\s+(?:for|in|over)\s+(?P<groups3>\d+)\s+classes)"
    r"(?:,?\s+(?:each\s+)?with\s+a\s+resolution\s+of\s+\d+\s*[x×]\s*\d+)?",
)
#: "the set of 10 images".
_THE_SET = re.compile(r"\bthe\s+set\s+of\s+(?P<n>\d+)\s+(?P<noun>[a-z]+?)s?\b", re.I)
#: "the first 9 are from the same class".
_FIRST_ALIKE = re.compile(
    r"\bthe\s+first\s+(?P<n>\d+)\s+(?:\w+\s+)?(?:are|come)\s+(?:from|of)\s+the\s+same\s+"
    r"(?:class|category|kind|label)\b",
    re.I,
)
#: "predicts something else than 9, as ... the anomaly is always at the last position".
_LAST = re.compile(
    r"\b(?:else|other)\s+than\s+(?P<n>\d+)\b(?=[^.]*\b(?:always|is)\s+(?:at|in)\s+the\s+last\s+position\b)",
    re.I,
)
_SIZE = r"(?P<{}>\d+(?:\.\d+)?)\s*(?P<{}>[kKM])?"
#: "the training should have 50k elements, and the test 10k images".
_SPLITS = re.compile(
    r"\bthe\s+training(?:\s+set)?\s+(?:should\s+have|has|have|contains|holds)\s+"
    + _SIZE.format("train", "tk")
    + r"\s+(?:elements|images|examples|samples)\s*,?\s+and\s+the\s+test(?:\s+set)?\s+"
    + r"(?:(?:should\s+have|has|contains)\s+)?"
    + _SIZE.format("test", "sk")
    + r"(?!\s*%)",
    re.I,
)
#: "for all 100 labels".
_ALL_GROUPS = re.compile(r"\b(?:for|across|over)\s+all\s+(?P<n>\d+)\s+(?:labels|classes|categories)\b", re.I)
_SCALE = {None: 1, "k": 1000, "K": 1000, "M": 1_000_000}


def count_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """The wholes a line states (givens), then the sentences that count one again (claims)."""
    # a set's parts are left a claim of the sentence (a reader adds them up: 9 + 1 is the set of
    # 10 used later); a dataset's figures are a report of it
    for pattern, kind, why in ((_SET_OF_PARTS, "set", None), (_DATASET, "dataset", REPORT)):
        for m in pattern.finditer(line.text):
            if inside(covered, *m.span()):
                continue
            whole = _whole(m, line.section)
            stated = au.wholes.get(kind)
            # a second, different whole of a kind in the section: which one a later count
            # means is the reader's guess, so none is read there
            same = stated is not None and stated.section == line.section
            au.wholes[kind] = None if same and stated != whole else whole
            spans = _numbers(line, *m.span())
            if spans and why:
                add(Claim(line.number, m.group(0), NOT_A_CLAIM, None, why, spans))
    for pattern, kind, what, judge in _COUNTED_AGAIN:
        whole = au.wholes.get(kind)
        if whole is not None and whole.section == line.section:
            _check(au, line, add, covered, pattern, whole, what, judge)
    data = au.wholes.get("dataset")
    if data is None or data.section != line.section:
        return
    for m in _SPLITS.finditer(line.text):
        sentence, _ = au.doc.sentence(line, m.start())
        clause = line.text[: m.start()].rsplit(". ", 1)[-1]
        if inside(covered, *m.span()) or _elsewhere(au, line, clause + " " + sentence, data, _PART):
            continue
        train = _size(m.group("train"), m.group("tk"))
        test = _size(m.group("test"), m.group("sk"))
        if train is None or test is None:
            continue
        ok = train + test == data.total
        said = Said(
            f"{train:,} + {test:,} {'=' if ok else '≠'} {data.said} = {data.total:,}: "
            "the training and test sets make up the dataset"
        )
        add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, said, RULE, _numbers(line, *m.span())))


#: A count of part of the dataset (a validation split, a subsample): not the whole the text stated.
_PART = re.compile(
    r"\b(?:validation|held[- ]?out|hold\s+out|split\s+off|dev\s+set|subsampl\w*|subset|remaining|"
    r"keep\s+only)\b",
    re.I,
)
#: Some of the classes, or classes grouped otherwise: not the classes the text stated.
_SOME_CLASSES = re.compile(
    r"\b(?:subset\s+of\s+the\s+(?:classes|labels)|keep\s+only|only\s+\d+\s+(?:of\s+the\s+)?(?:classes|labels|categories)|"
    r"super-?class\w*|coarse\s+(?:labels|classes))\b",
    re.I,
)
#: A dataset or model named in a sentence (CIFAR10, ImageNet, ResNet34, Oxford Pets).
_NAMED = re.compile(
    r"(?<![.!?]\s)(?<!^)\b(?:[A-Z][A-Za-z]*\d[\w-]*|[A-Z]{2,}[\w-]*|[A-Z][a-z]+[A-Z]\w*|[A-Z][a-z]+\s+[A-Z][a-z]+)"
)


def _elsewhere(au: AuditContext, line: Line, sentence: str, whole: Whole, part: re.Pattern) -> bool:
    """The sentence counts something else than the stated dataset: it names another dataset or
    model, or the section speaks of a part of it (``part``: a validation split, some classes)
    up to here."""
    if any(n.group(0) != whole.name for n in _NAMED.finditer(sentence.strip())):
        return True
    before = "\n".join(x.text for x in au.doc.lines if x.section == line.section and x.number <= line.number)
    return bool(part.search(before + " " + sentence))


def _judge_set(n: int, w: Whole, sentence: str) -> int | None:
    return w.total if not _NEW_SET.search(sentence) else None


def _judge_alike(n: int, w: Whole, sentence: str) -> int | None:
    # fewer alike is true but says less; more than the set holds is another collection
    return w.alike if w.alike <= n <= w.total else None


def _judge_last(n: int, w: Whole, sentence: str) -> int | None:
    if _FROM_ONE.search(sentence):
        return w.total
    return None if n == w.total else w.total - 1  # counted from 0, as code counts; 10 may count from 1


def _judge_groups(n: int, w: Whole, sentence: str) -> int | None:
    return w.groups


#: A set the sentence describes anew ("the set of 25 images contains five of each class", "the
#: set of 4 images with the highest weights"): another set than the one stated.
_NEW_SET = re.compile(
    r"\bset\s+of\s+\d+\s+[a-z]+\s+(?:that|which|with|whose|from|in|of|for|we|to|where|contains?|consists?|made)\b"
    r"|\b(?:-way|-shot|contains|consists|made\s+up|of\s+each|per\s+class)\b",
    re.I,
)
_FROM_ONE = re.compile(
    r"\b(?:numbered|counted|indexed|count(?:ing)?)\s+from\s+(?:1|one)\b|\b(?:1|one)-based\b", re.I
)
#: What a later sentence counts again: (its pattern, of which whole, what it counts, the count it
#: must be, or None when the sentence is not read).
_COUNTED_AGAIN: tuple[tuple[re.Pattern, str, str, Callable], ...] = (
    (_THE_SET, "set", "the set", _judge_set),
    (_FIRST_ALIKE, "set", "the alike part", _judge_alike),
    (_LAST, "set", "the last position", _judge_last),
    (_ALL_GROUPS, "dataset", "the number of classes", _judge_groups),
)


def _whole(m: re.Match, section: int) -> Whole:
    if "alike" in m.re.groupindex:
        alike = int(m.group("alike"))
        odd = 1 if not m.group("odd")[0].isdigit() else int(m.group("odd"))
        return Whole(
            m.group("noun").lower(), alike + odd, alike=alike, said=f"{alike} + {odd}", section=section
        )
    each = int(m.group("each").replace(",", ""))
    groups = int(m.group("groups") or m.group("groups2") or m.group("groups3"))
    said = f"{each:,} × {groups}"
    return Whole(
        m.group("noun").lower(),
        each * groups,
        groups=groups,
        said=said,
        section=section,
        name=m.group("name"),
    )


def _check(
    au: AuditContext,
    line: Line,
    add: Callable,
    covered: list,
    pattern: re.Pattern,
    whole: Whole,
    what: str,
    judge: Callable,
) -> None:
    """Each count ``pattern`` finds of ``whole`` (of its things, where the sentence names them),
    against the count ``judge`` says it must be (None: the sentence is not read)."""
    for m in pattern.finditer(line.text):
        noun = m.groupdict().get("noun")
        if inside(covered, *m.span("n")) or (noun is not None and noun.lower() != whole.noun):
            continue
        sentence, _ = au.doc.sentence(line, m.start())
        clause = line.text[: m.start()].rsplit(". ", 1)[-1]  # back to the sentence's start, past a colon
        if whole.kind == "dataset" and _elsewhere(au, line, clause + " " + sentence, whole, _SOME_CLASSES):
            continue
        n = int(m.group("n"))
        expected = judge(n, whole, sentence)
        if expected is None:
            continue
        ok = n == expected
        said = Said(f"{what}: {expected} ({whole.said} stated before)" + ("" if ok else f", not {n}"))
        add(Claim.judged(line.number, m.group(0), ok, said, RULE, [m.span("n")]))


def _size(figure: str, scale: str | None) -> int | None:
    value = float(figure) * _SCALE[scale]
    return int(value) if value == int(value) else None


def _numbers(line: Line, start: int, end: int) -> list[tuple[int, int]]:
    return [(start + m.start(), start + m.end()) for m in NUMBER.finditer(line.text[start:end])]
