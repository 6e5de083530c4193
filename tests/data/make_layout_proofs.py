r"""Write tests/data/learner_proofs_layouts/: the proof bank in the layouts other textbooks use.

Run: python tests/data/make_layout_proofs.py   (the files are committed; this documents them)

Issue 48: the commonest layout of a chain in LaTeX puts the expression alone on its first line
and ``= ...`` on each following one, and books number their lines (``\qquad (2)``, ``\tag{2}``).
A layout changes no step's meaning, so each derivation of tests/data/learner_proofs/ (verdicts
judged by hand there, in each file's first line) is written again here in each layout below with
the same verdict; the line of the first step that is not ok moves with the lines, and is
computed here from the layout, never by running the checker.

- ``lone``: every line that starts a chain, ``A = B ...``, becomes ``A`` then ``= B ...``
  (a step's report is then on the ``= B`` line);
- ``numbered``: every step line ends with ``\qquad (k)``, its number in the derivation;
- ``tagged``: every step line ends with ``\tag{k}``.

Every derivation is written ``lone``, and in turn ``numbered`` or ``tagged``.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent
SOURCE, OUT = HERE / "learner_proofs", HERE / "learner_proofs_layouts"


def first_equals(line: str) -> int:
    """The index of the first '=' outside braces, brackets and parentheses (-1: none)."""
    depth = 0
    for i, c in enumerate(line):
        depth += c in "{[("
        depth -= c in "}])"
        if c == "=" and depth == 0 and line[i - 1 : i] not in ("<", ">", "!", "\\"):
            return i
    return -1


def is_step(line: str) -> bool:
    text = line.strip()
    environment = "\\begin" in text or "\\end" in text
    markdown = "$" in text  # a sentence or a display in Markdown: its own layout already
    return bool(text) and not text.startswith("%") and "=" in text and not environment and not markdown


def layout(lines: list[str], how: str) -> tuple[list[str], dict[int, int]]:
    """The lines in the layout, and where each old line number (1-based) is now: a split line's
    steps are reported on its '= B' line."""
    out: list[str] = []
    moved: dict[int, int] = {}
    k = 0
    for number, line in enumerate(lines, start=1):
        if not is_step(line) or "&" in line or "\\\\" in line:
            out.append(line)
            moved[number] = len(out)
            continue
        k += 1
        at = first_equals(line)
        if how == "lone" and at > 0 and line[:at].strip():
            out.append(line[:at].rstrip())
            out.append(line[at:].lstrip())
        elif how == "numbered":
            out.append(f"{line.rstrip()} \\qquad ({k})")
        elif how == "tagged":
            out.append(f"{line.rstrip()} \\tag{{{k}}}")
        else:
            out.append(line)
        moved[number] = len(out)
    return out, moved


def main() -> None:
    written = 0
    for index, path in enumerate(sorted(SOURCE.glob("ex6.*/*.tex"))):
        raw = path.read_text(encoding="utf-8").lstrip("\ufeff")
        if "\r" in raw or path.stem.startswith("v"):
            continue  # line ends and hostile files are the source bank's own cases
        lines = raw.split("\n")
        expect = lines[0].removeprefix("% expect: ").split()
        for how in ("lone", ("numbered", "tagged")[index % 2]):
            new, moved = layout(lines, how)
            head = [expect[0], *expect[1:2], *([str(moved[int(expect[2])])] if len(expect) > 2 else [])]
            new[0] = "% expect: " + " ".join(head)
            target = OUT / path.parent.name / f"{path.stem}_{how}.tex"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("\n".join(new), encoding="utf-8")
            written += 1
    print(f"wrote {written} derivations to {OUT}")


if __name__ == "__main__":
    main()
