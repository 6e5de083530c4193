"""Run every benchmark and write the results, with the machine's description, to docs/benchmarks.md.

Run: python bench/report.py [--out docs/benchmarks.md] [--only NAME] [--reuse]

``--only NAME`` runs one benchmark and replaces only its section of the page (``grade``:
grading a class, bench/grade_speed.py; ``limits``: how soon each refusal comes, bench/limits.py),
keeping the others as they were measured. ``mutation`` is the mutation-testing pass
(bench/mutation.py: the ``mutation`` extra, hours on one worker); ``--reuse`` writes its section
from the last pass in its work folder instead of running one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import _common
import attention_speed
import cli_latency
import exact_growth
import grade_speed
import huge_entries
import limits
import mutation
import verify_speed

#: --reuse: the mutation section reports the last pass instead of running one.
REUSE = {"mutation": False}

#: Sections that --only can measure again on their own: name -> (heading, lines).
SECTIONS = {
    "grade": (
        "## Grading a class: answers per second, workers, hostile rows, peers (issue 27)",
        lambda: grade_speed.section(),
    ),
    "limits": (
        "## Limits: how soon each refusal comes (times the tests no longer assert, issue 29)",
        lambda: [limits.table(limits.refusals())],
    ),
    "mutation": (
        "## Mutation testing: symattn/cli and batch grading (issue 29)",
        lambda: mutation.section(reuse=REUSE["mutation"]),
    ),
}


def replace_section(page: str, heading: str, body: list[str]) -> str:
    """``page`` with the section under ``heading`` (up to the next ``## ``) replaced, or added."""
    lines = page.rstrip("\n").split("\n")
    new = [heading, "", *body, ""]
    if heading not in lines:
        return "\n".join([*lines, "", *new])
    start = lines.index(heading)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join([*lines[:start], *new, *lines[end:]]).rstrip("\n") + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/benchmarks.md")
    parser.add_argument("--only", choices=sorted(SECTIONS), help="measure one section again")
    parser.add_argument("--reuse", action="store_true", help="the mutation section from the last pass")
    args = parser.parse_args()
    REUSE["mutation"] = args.reuse
    if args.only:
        heading, make = SECTIONS[args.only]
        page = replace_section(Path(args.out).read_text(), heading, make())
        Path(args.out).write_text(page)
        print(page)
        return
    sections = [
        "# Benchmarks",
        "",
        "Written by `python bench/report.py` (not by `symattn build`: timings differ from run to "
        "run). Every ratio compares times measured in the same run on this machine:",
        "",
        f"- {_common.machine()}",
        "",
        "## Attention: lambdified vs hand-written NumPy vs torch SDPA (d = 64)",
        "",
        attention_speed.table(attention_speed.rows()),
        "",
        "## Exact and symbolic evaluation as N grows",
        "",
        exact_growth.table(exact_growth.rows()),
        "",
        "## Exact attention with huge entries (2x2, 15 digits)",
        "",
        huge_entries.table(huge_entries.rows()),
        "",
        "## Command latency",
        "",
        cli_latency.table(cli_latency.rows()),
        "",
        "## verify and derive, nothing cached (issue 46: verify within 4 s, derive within 3 s)",
        "",
        verify_speed.table(verify_speed.measure(1)),
        "",
        "Where the time goes: " + verify_speed.profile(),
        "",
    ]
    for heading, make in SECTIONS.values():
        sections += [heading, "", *make(), ""]
    Path(args.out).write_text("\n".join(sections))
    print("\n".join(sections))


if __name__ == "__main__":
    main()
