"""Auditing a module file: its numeric claims and its answer keys.

:func:`audit_module` reads a module in the seed's Markdown format and returns both parts:

- the claims of its prose and math, each ``certified``, ``wrong`` or ``unchecked``
  (:mod:`symattn.grading.audit.document` reads the file, :mod:`symattn.grading.audit.rules` binds each claim);
- its answer keys: each exercise (``**Exercise (kind).**``, a key ``*Answer:* VALUE (within T)``,
  a ``*Solution:*``) is matched to the registry by its content (the registry's keywords and
  the words of its prompt), never by its position, and each stated key is judged against
  the computed answer with the stated tolerance.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction

import sympy as sp

from ...core.inputs import parse_number
from ..answers.judge import judge
from ..exercises import EXERCISES, Exercise
from .document import EXERCISE as _BLOCK
from .notclaims import NOT_A_CLAIM
from .sources import Source

_ANSWER = re.compile(r"\*Answer:\*\s*(?P<value>.+?)\s*(?:\(within\s+(?P<tol>[^)]+)\))?\s*$", re.M)


@dataclass(frozen=True)
class FoundExercise:
    position: int  # 1-based, in file order (shown, never used to match)
    kind: str
    prompt: str
    key: str | None
    tolerance: str | None
    has_solution: bool
    line: int = 0  # 1-based line of the exercise's first line
    key_line: int = 0  # 1-based line of its *Answer:* key (0 without one)

    @property
    def where(self) -> int:
        """The line a key's problem is reported at: the key's own, else the exercise's."""
        return self.key_line or self.line


@dataclass(frozen=True)
class AuditRow:
    found: FoundExercise
    exercise: Exercise | None
    status: str  # ok, wrong key, no key, not checkable, unmatched, kind differs
    computed: str
    detail: str = ""

    @property
    def wrong(self) -> bool:
        return self.status in ("wrong key", "unmatched", "kind differs", "bad key")


def find_exercises(text: str) -> list[FoundExercise]:
    """Every exercise block of a module file, in order."""
    marks = list(_BLOCK.finditer(text))
    found = []
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(text)
        end = min(end, _next_heading(text, m.end()))
        body = text[m.end() : end]
        answer = _ANSWER.search(body)
        cut = min(
            [i for i in (body.find("*Answer:*"), body.find("*Solution:*")) if i >= 0],
            default=len(body),
        )
        found.append(
            FoundExercise(
                position=k + 1,
                line=text.count("\n", 0, m.start()) + 1,
                key_line=text.count("\n", 0, m.end() + answer.start()) + 1 if answer else 0,
                kind=m.group("kind"),
                prompt=body[:cut].strip(),
                key=answer.group("value").strip() if answer else None,
                tolerance=answer.group("tol").strip() if answer and answer.group("tol") else None,
                has_solution="*Solution:*" in body,
            )
        )
    return found


def _next_heading(text: str, start: int) -> int:
    m = re.compile(r"^#{1,6} ", re.M).search(text, start)
    return m.start() if m else len(text)


def _normal(s: str) -> str:
    return re.sub(r"[\s$]", "", s).lower()


def _words(s: str) -> set[str]:
    """The words of a prompt (LaTeX command names such as \\operatorname are not words)."""
    return {w for w in re.findall(r"(?<![\\a-z])[a-z]{4,}", s.lower())}


def _fit(found: FoundExercise, e: Exercise) -> float | None:
    """How well a registry exercise fits a block's prompt: None unless every keyword occurs;
    then the share of the registry prompt's words that the block uses, plus the keywords'
    length (a longer matched keyword is stronger evidence)."""
    prompt = _normal(found.prompt)
    if not e.keywords or not all(_normal(k) in prompt for k in e.keywords):
        return None
    mine, theirs = _words(found.prompt), _words(e.prompt + " " + e.title)
    overlap = len(mine & theirs) / max(1, len(theirs))
    return overlap + sum(len(_normal(k)) for k in e.keywords) / 100


def match_all(found: list[FoundExercise]) -> list[Exercise | None]:
    """The registry exercise each block is, by content: the best-fitting pairs are taken
    first, each exercise at most once."""
    pairs = sorted(
        (
            (score, i, e.id)
            for i, f in enumerate(found)
            for e in EXERCISES.values()
            if (score := _fit(f, e)) is not None
        ),
        key=lambda p: (-p[0], p[1], p[2]),
    )
    chosen: dict[int, Exercise] = {}
    taken: set[str] = set()
    for _, i, eid in pairs:
        if i in chosen or eid in taken:
            continue
        chosen[i] = EXERCISES[eid]
        taken.add(eid)
    return [chosen.get(i) for i in range(len(found))]


def audit_text(text: str) -> list[AuditRow]:
    """The answer-key rows of a module file."""
    rows: list[AuditRow] = []
    found = find_exercises(text)
    for f, ex in zip(found, match_all(found), strict=True):
        if ex is None:
            rows.append(AuditRow(f, None, "unmatched", "", "no exercise of the registry fits"))
            continue
        if ex.kind != f.kind:
            rows.append(AuditRow(f, ex, "kind differs", "", f"the registry says {ex.kind}"))
            continue
        rows.append(_check_key(f, ex))
    return rows


def _in_a_sentence(where: str) -> str:
    """``12`` as ``line 12``; a notebook's ``cell 4, line 2`` as it is."""
    return where if where.startswith("cell") else f"line {where}"


@dataclass(frozen=True)
class ModuleAudit:
    claims: list  # of symattn.grading.audit.rules.Claim
    keys: list[AuditRow]
    #: The text as read, with where each of its lines came from (a notebook's cells).
    source: Source = field(default_factory=lambda: Source(""))

    def where(self, line: int) -> str:
        """A claim's line as its author finds it: ``12``, or ``cell 4, line 2`` in a notebook."""
        return self.source.where(line)

    @property
    def stopped(self) -> int:
        """The first line the audit did not read, having reached a bound; 0 when it read all."""
        from .rules import REST

        return next((c.line for c in self.claims if c.text == REST), 0)

    def place(self, line: int) -> str:
        """``line 12``, or ``cell 4, line 2``: a claim's place in a sentence."""
        return _in_a_sentence(self.where(line))

    def place_of(self, claim) -> str:
        """:meth:`place` for a claim, over the lines it spans: ``line 515–516``."""
        return _in_a_sentence(self.lines_of(claim))

    def lines_of(self, claim) -> str:
        """Where a claim stands: ``12``; ``515–516`` for one that runs over two lines (a formula
        wrapped), ``cell 4, lines 2–3`` in a notebook."""
        first = self.where(claim.line)
        if claim.through <= claim.line:
            return first
        last = self.where(claim.through)
        cell, _, a = first.rpartition("line ")
        cell_b, _, b = last.rpartition("line ")
        if cell and cell == cell_b:
            return f"{cell}lines {a}–{b}"
        return f"{first}–{last}"

    def lines_spanned(self, claim) -> list[str]:
        """Each line a claim stands on, as :meth:`where` says it."""
        return [self.where(k) for k in range(claim.line, max(claim.line, claim.through) + 1)]

    @property
    def wrong(self) -> bool:
        return any(c.verdict == "wrong" for c in self.claims) or any(r.wrong for r in self.keys)

    @property
    def coverage(self) -> Coverage:
        """How much of the text the audit decided."""
        return Coverage.of(self.claims)


@dataclass(frozen=True)
class Coverage:
    """Claims found, certified, wrong and unchecked (with how many for each reason), and the
    share decided: certified or wrong, out of all found (1 when none were found). What was read
    and is not a claim (a definition, a choice, a label: :mod:`.notclaims`) is counted apart,
    with its reasons, and is not among the claims."""

    claims: int
    certified: int
    wrong: int
    unchecked: int
    reasons: dict[str, int]
    not_claims: int = 0
    not_claim_reasons: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, claims: list) -> Coverage:
        count = Counter(c.verdict for c in claims)
        reasons = Counter(c.rule for c in claims if c.verdict == "unchecked")
        others = Counter(c.rule for c in claims if c.verdict == NOT_A_CLAIM)
        found = (count["certified"], count["wrong"], count["unchecked"])
        return cls(
            sum(found), *found, dict(reasons.most_common()), count[NOT_A_CLAIM], dict(others.most_common())
        )

    @property
    def decided(self) -> Fraction:
        return Fraction(self.certified + self.wrong, self.claims) if self.claims else Fraction(1)

    def below(self, percent: int) -> bool:
        """Less than ``percent`` % decided (compared exactly: 79.99 % is below 80)."""
        return self.decided * 100 < percent


def audit_claims(text: str, formulas: int | None = None, cut: int = 0) -> list:
    """Every numeric claim of the module's prose and math, with its verdict; with ``formulas``,
    the audit stops at the line where it would read more formulas than that, and says so, as it
    does where the text was ``cut`` (the first line not read)."""
    from .document import read
    from .rules import Auditor

    return Auditor(read(text), formulas=formulas, cut=cut).run()


def audit_module(text: str | Source, formulas: int | None = None) -> ModuleAudit:
    """The audit of a module's Markdown, or of a :class:`~.sources.Source` read from a notebook
    or a LaTeX file, reading at most ``formulas`` formulas when that is given."""
    source = text if isinstance(text, Source) else Source(text)
    from .rules import REST

    claims = audit_claims(source.text, formulas, source.cut)
    stopped = next((c.line for c in claims if c.text == REST), 0)
    read = "\n".join(source.text.split("\n")[: stopped - 1]) if stopped else source.text
    return ModuleAudit(claims, audit_text(read), source)


def _check_key(f: FoundExercise, ex: Exercise) -> AuditRow:
    computed = ex.expected.latex() if ex.expected else ""
    if ex.expected is None and ex.checker == "formula":  # ex6.6: the formula `check` proves
        from ..answers.formula import EXPECTED_LATEX

        return AuditRow(f, ex, "no key" if f.key is None else "key not compared (a formula)", EXPECTED_LATEX)
    if ex.expected is None:
        what = "checked step by step" if ex.checker == "steps" else "not checkable"
        return AuditRow(f, ex, what if f.key is None else f"{what} (key ignored)", computed)
    if f.key is None:
        return AuditRow(f, ex, "no key", computed)
    try:
        tol = parse_number(f.tolerance) if f.tolerance else sp.S.Zero
    except ValueError:
        return AuditRow(f, ex, "bad key", computed, f"tolerance {f.tolerance!r} is not a number")
    expected = replace(ex.expected, tolerance=tol)
    verdict = judge(f.key, expected, ex.mistakes)
    if verdict.verdict == "correct":
        note = ""
        if tol != ex.expected.tolerance:
            note = f"stated tolerance {tol} differs from the registry's {ex.expected.tolerance}"
        return AuditRow(f, ex, "ok", computed, note)
    if verdict.verdict == "invalid":
        return AuditRow(f, ex, "bad key", computed, verdict.feedback)
    detail = verdict.feedback if verdict.mistake else "the stated key is not the computed answer"
    return AuditRow(f, ex, "wrong key", computed, detail)
