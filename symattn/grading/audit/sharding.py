r"""The FLOPs of a sharded matmul: what each device does, and what all of them do (issue 47).

Texts on scaling write an array's sharding in its axes, ``A[B_X, D_Y]``: the axis B split over
the mesh axis X (each device holds B/X of it), D over Y, and the mesh by its axes' sizes,
``{'X': 4, 'Y': 8, 'Z': 4}``. For a contraction such as ``A[B_X, D_Y] ·_D W[D_Y, F]`` a reader
counts, in the text's letters (each mesh axis's letter its size):

- the **theoretical** FLOPs, those of the product unsharded: 2·B·D·F (a multiply and an add
  for each combination of the axes, a shared axis once);
- the FLOPs **per device**: the same count over the device's shards, each sharded axis divided
  by its mesh axis: 2·(B/X)·(D/Y)·F;
- the **total** FLOPs the devices do together: per device times the number of devices, every
  mesh axis's size multiplied (a mesh axis that shards nothing repeats the work): 2·B·D·F·Z.

A sentence after the question that names one of these ("theoretical", "per-device" or "each
device", "total") before a formula is compared with it: equal is certified, anything else wrong.
Read only where the two arrays and the mesh are given together, one line before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

from . import letters
from .context import AuditContext
from .document import Line
from .match import Claim, inside
from .said import Math, Said

RULE = (
    "sharded FLOPs: 2 per combination of the axes, unsharded in theory; per device each sharded axis over "
    "its mesh axis; in total per device times every mesh axis"
)
#: ``A[B_X, D_Y]``: an array whose axes may carry the mesh axis they are split over.
_ARRAY = re.compile(r"(?<![\w])([A-Z])\[(?P<axes>[A-Za-z](?:_[A-Za-z])?(?:\s*,\s*[A-Za-z](?:_[A-Za-z])?)*)\]")
#: ``{'X': 4, 'Y': 8, 'Z': 4}``: the mesh, its axes by name (quotes of any kind).
_MESH = re.compile(r"\{\s*(?:[‘'\"’]?[A-Z][‘'\"’]?\s*:\s*\d+\s*,?\s*)+\}")
#: What a sentence counts, by its words before the formula.
_KINDS = (
    ("theory", re.compile(r"\btheoretical\b|\bunsharded\b", re.I)),
    (
        "device",
        re.compile(r"\bper[- ]device\b|\beach\s+(?:device|TPU|GPU|chip)\b|\bper\s+(?:TPU|GPU|chip)\b", re.I),
    ),
    ("total", re.compile(r"\btotal\b", re.I)),
)

#: What a formula after "than" is, in the words after it: "⟨2BDF⟩ FLOPs of the unsharded matmul".
_THAN_AFTER = re.compile(r"\s*(?:FLOPs\s+)?(?:of\s+)?(?:the\s+|an?\s+)?(theoretical|unsharded)\b", re.I)


@dataclass(frozen=True)
class Sharded:
    line: int
    arrays: tuple[tuple[tuple[str, str | None], ...], ...]  # each axis with its mesh axis (or None)
    mesh: tuple[str, ...]

    def axes(self) -> set[sp.Symbol]:
        """The letters of the arrays' axes (not of the mesh)."""
        return {letters.read(axis) for array in self.arrays for axis, _ in array}

    def flops(self, kind: str) -> sp.Expr:
        axes: dict[str, str | None] = {}
        for array in self.arrays:
            for axis, over in array:
                axes[axis] = axes.get(axis) or over
        size = sp.Integer(2)
        for axis, over in axes.items():
            size *= letters.read(axis) / (letters.read(over) if over and kind != "theory" else 1)
        if kind == "total":
            size *= sp.Mul(*(letters.read(m) for m in self.mesh))
        return size


def _axis(text: str) -> tuple[str, str | None]:
    """``B_X``: the axis B and the mesh axis X it is split over; ``F``: F, unsplit."""
    axis, _, over = text.partition("_")
    return axis, over or None


def sharded_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    here = next((q for q in au.doc.once("sharded matmuls", _questions) if q.line == line.number), None)
    if here is not None and (mesh := _MESH.search(line.text)):
        covered.append(mesh.span())  # the mesh's sizes: the question's givens, not claims
    question = next((q for q in au.doc.once("sharded matmuls", _questions) if q.line < line.number), None)
    if question is None or line.number - question.line > 6:
        return
    for _tex, plain, start, end in line.formulas:
        if inside(covered, start, end):
            continue
        a, _ = line.sentence_at(start)
        before = re.sub(r"⟨[^⟩]*⟩", " X ", line.text[a:start])
        if re.search(r"\bnot\s+(?:\w+\s+){0,2}X?\s*$|\bof\s+the\s*$", before, re.I):
            continue  # "not 2BDF but ...", "1/(XY) of the 2BDF ...": not what the sentence says it is
        after = re.match(r"\s*(theoretical|total|unsharded)\s+FLOPs\b", line.text[end:], re.I)
        if re.search(
            r"\bthan(?:\s+the)?\s*$", before, re.I
        ):  # "smaller than the ⟨2BDF⟩ FLOPs of the unsharded"
            after, before = _THAN_AFTER.match(line.text[end:]), ""
        # the word nearest the formula names it: "meaning ⟨2BDFZ⟩ total FLOPs", "the total per-device is"
        found = [(m.start(), k) for k, pattern in _KINDS for m in pattern.finditer(before)]
        kind = (
            next(k for k, p in _KINDS if p.match(after.group(1)))
            if after
            else max(found)[1]
            if found
            else None
        )
        if kind is None:
            continue
        stated = letters.read(plain)
        expected = question.flops(kind)
        if not isinstance(stated, sp.Expr) or not question.axes() <= stated.free_symbols:
            continue  # a factor (X·Y, 1/(XY)) or another count: not the FLOPs of the product
        ok = sp.simplify(stated - expected) == 0
        what = {"theory": "unsharded", "device": "per device", "total": "over all devices"}[kind]
        add(
            Claim.judged(
                line.number, line.text[start:end], ok, Said(f"{what}: ", Math(expected)), RULE, [(start, end)]
            )
        )


def _questions(doc) -> list[Sharded]:
    """Each line that gives two arrays, one of them sharded, and a mesh: latest first."""
    out = []
    for line in doc.lines:
        mesh = _MESH.search(line.text)
        arrays = [m.group("axes") for m in _ARRAY.finditer(line.text)]
        if mesh is None or len(arrays) != 2 or "_" not in "".join(arrays):
            continue
        read = tuple(
            tuple(
                (p.split("_")[0], p.split("_")[1] if "_" in p else None)
                for p in re.split(r"\s*,\s*", a.strip())
            )
            for a in arrays
        )
        names = tuple(re.findall(r"([A-Z])[‘'\"’]?\s*:", mesh.group(0)))
        if all(over in names for array in read for _, over in array if over):
            out.append(Sharded(line.number, read, names))
    return out[::-1]
