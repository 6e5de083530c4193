"""The audit measured on public texts no one here wrote (issue 47).

Each text lives in its own folder (``tests/data/texts/<name>/``): the file as its authors wrote
it, their licence, and ``reading.toml``, made by a careful reader who never looked at the
audit's code: where the text came from (repository, path, commit, licence), every claim the
reader could check (its line, what it says, whether it holds) and errors planted in true claims
(one edit each: on a line, a string and what it becomes).

:func:`measure` audits a text, then each planted variant, and counts what a reader wants to
know: the claims the audit found and the share it decided, the reader's claims it decided, the
text's real errors it flagged, the planted errors it flagged at their lines, and its false
flags (a claim called wrong where the reader found nothing wrong: the worst outcome).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .keys import ModuleAudit, audit_module
from .sources import kind_of, read_source


@dataclass(frozen=True)
class Planted:
    line: str
    find: str
    replace: str
    kind: str
    why: str


@dataclass(frozen=True)
class Text:
    """A public text, its provenance and its reader's list of claims and planted errors."""

    name: str
    folder: Path
    file: str
    kind: str
    repository: str
    path: str
    commit: str
    licence: str
    note: str
    claims: tuple[dict, ...]
    planted: tuple[Planted, ...]
    #: A file beside the text where its author defines the macros it uses (a LaTeX style file).
    macros: str = ""
    #: Where that file comes from (repository, path, commit).
    macros_source: str = ""

    @property
    def source(self) -> str:
        return (self.folder / self.file).read_text(encoding="utf-8")

    @property
    def errors(self) -> set[str]:
        """The lines where the reader found a real error."""
        return {c["line"] for c in self.claims if not c["holds"]}


def load(folder: Path) -> list[Text]:
    """Every text under ``folder`` (one subfolder each, with its ``reading.toml``), by name."""
    out = []
    for reading in sorted(folder.glob("*/reading.toml")):
        data = tomllib.loads(reading.read_text(encoding="utf-8"))
        out.append(
            Text(
                name=reading.parent.name,
                folder=reading.parent,
                file=data["file"],
                kind=data["kind"],
                repository=data["repository"],
                path=data["path"],
                commit=data["commit"],
                licence=data["licence"],
                note=data.get("note", ""),
                claims=tuple(data.get("claims", ())),
                planted=tuple(
                    Planted(**{k: p.get(k, "") for k in Planted.__annotations__}) for p in data["planted"]
                ),
                macros=data.get("macros", ""),
                macros_source=data.get("macros_source", ""),
            )
        )
    return out


def audit(text: Text, source: str | None = None) -> ModuleAudit:
    """The audit of the text (or of a variant of its ``source``)."""
    preamble = (text.folder / text.macros).read_text(encoding="utf-8") if text.macros else ""
    body = text.source if source is None else source
    return audit_module(read_source(body, kind_of(text.file), None, preamble))


def plant(text: Text, planted: Planted) -> str:
    """The text's source with one planted error; ValueError when its string is not on its line
    exactly once (the reading no longer fits the text)."""
    source = text.source
    if kind_of(text.file) == "notebook":
        m = re.fullmatch(r"cell (\d+), line (\d+)", planted.line)
        if m is None:
            raise ValueError(f"{text.name}: {planted.line!r} is not 'cell K, line J'")
        nb = json.loads(source)
        cell = nb["cells"][int(m.group(1)) - 1]
        lines = "".join(cell["source"]).split("\n")
        lines[int(m.group(2)) - 1] = _edit(lines[int(m.group(2)) - 1], planted, text.name)
        joined = "\n".join(lines)
        cell["source"] = [x + "\n" for x in joined.split("\n")[:-1]] + [joined.split("\n")[-1]]
        return json.dumps(nb, indent=1, ensure_ascii=False)
    lines = source.split("\n")
    n = int(planted.line) - 1
    lines[n] = _edit(lines[n], planted, text.name)
    return "\n".join(lines)


def _edit(line: str, planted: Planted, name: str) -> str:
    if line.count(planted.find) != 1:
        raise ValueError(f"{name}, line {planted.line}: {planted.find!r} is not on the line exactly once")
    return line.replace(planted.find, planted.replace)


@dataclass(frozen=True)
class Measure:
    """What the audit made of one text."""

    text: Text
    found: int
    decided: int
    reader_claims: int
    reader_decided: int
    errors: int
    errors_flagged: int
    planted: int
    caught: tuple[bool, ...]
    false_flags: tuple[str, ...]  # "line: claim", each a claim called wrong the reader found true
    not_claims: int = 0  # read and set apart as no claim (a definition, a label, a choice)


def _wrong_at(result: ModuleAudit) -> Counter:
    """How many claims are called wrong on each line; a claim over several lines (an inline
    formula wrapped) stands on each of them."""
    return Counter(k for c in result.claims if c.verdict == "wrong" for k in result.lines_spanned(c))


def measure(text: Text) -> Measure:
    result = audit(text)
    wrong = _wrong_at(result)
    decided = [c for c in result.claims if c.verdict in ("certified", "wrong")]
    decided_at = {k for c in decided for k in result.lines_spanned(c)}
    coverage = result.coverage
    caught = []
    for p in text.planted:
        variant = audit(text, plant(text, p))
        again = _wrong_at(variant)
        caught.append(again[p.line] > wrong[p.line])
    false = tuple(
        f"{result.where(c.line)}: {c.text}"
        for c in result.claims
        if c.verdict == "wrong" and result.where(c.line) not in text.errors
    )
    return Measure(
        text=text,
        found=coverage.claims,
        decided=coverage.certified + coverage.wrong,
        reader_claims=len(text.claims),
        reader_decided=sum(c["line"] in decided_at for c in text.claims),
        errors=len(text.errors),
        errors_flagged=sum(line in wrong for line in text.errors),
        planted=len(text.planted),
        caught=tuple(caught),
        false_flags=false,
        not_claims=coverage.not_claims,
    )
