"""Auditing a module's answer keys against the answers symattn computes.

A module file in the seed's Markdown format marks each exercise with ``**Exercise (kind).**``,
states a key as ``*Answer:* VALUE (within T)`` and a model solution as ``*Solution:*``. Each
exercise found is matched to the registry (by text that identifies it, then by position), and
each stated key is judged against the computed answer with the stated tolerance.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import sympy as sp

from .exercises import EXERCISES, Exercise
from .inputs import parse_number
from .judge import judge

_BLOCK = re.compile(r"\*\*Exercise \((?P<kind>[a-z]+)\)\.\*\*")
_ANSWER = re.compile(r"\*Answer:\*\s*(?P<value>.+?)\s*(?:\(within\s+(?P<tol>[^)]+)\))?\s*$", re.M)


@dataclass(frozen=True)
class FoundExercise:
    position: int  # 1-based, in file order
    kind: str
    prompt: str
    key: str | None
    tolerance: str | None
    has_solution: bool


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


def match(found: FoundExercise, taken: set[str]) -> Exercise | None:
    """The registry exercise this block is: identified by its text, else by its position."""
    prompt = _normal(found.prompt)
    candidates = [
        e
        for e in EXERCISES.values()
        if e.id not in taken and e.keywords and all(_normal(k) in prompt for k in e.keywords)
    ]
    positional = f"ex6.{found.position}"
    for e in candidates:
        if e.id == positional:
            return e
    if candidates:
        return candidates[0]
    return EXERCISES.get(positional) if positional not in taken else None


def audit_text(text: str) -> list[AuditRow]:
    rows: list[AuditRow] = []
    taken: set[str] = set()
    for f in find_exercises(text):
        ex = match(f, taken)
        if ex is None:
            rows.append(AuditRow(f, None, "unmatched", "", "no exercise of the registry fits"))
            continue
        taken.add(ex.id)
        if ex.kind != f.kind:
            rows.append(AuditRow(f, ex, "kind differs", "", f"the registry says {ex.kind}"))
            continue
        rows.append(_check_key(f, ex))
    return rows


def _check_key(f: FoundExercise, ex: Exercise) -> AuditRow:
    computed = ex.expected.latex() if ex.expected else ""
    if ex.expected is None:
        status = "not checkable" if f.key is None else "not checkable (key ignored)"
        return AuditRow(f, ex, status, computed)
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
