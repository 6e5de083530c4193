"""Run every benchmark and write the results, with the machine's description, to docs/benchmarks.md.

Run: python bench/report.py [--out docs/benchmarks.md]
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
import huge_entries
import verify_speed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/benchmarks.md")
    args = parser.parse_args()
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
        "## verify and derive, nothing cached (issue 10: verify within 10 s, derive within 3 s)",
        "",
        verify_speed.table(verify_speed.measure(1)),
        "",
    ]
    Path(args.out).write_text("\n".join(sections))
    print("\n".join(sections))


if __name__ == "__main__":
    main()
