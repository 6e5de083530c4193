"""Math-Verify's verdicts, one JSON line in, one out. Runs in Math-Verify's own virtual environment.

Math-Verify pins antlr4-python3-runtime 4.13 and symattn's latex2sympy2 pins 4.7.2, so they
cannot share a Python environment; bench/peers_answers.py starts this script with Math-Verify's
interpreter. Each input line is ``{"gold": ..., "pred": ..., "precision": int or null}``; each
output line is ``{"verdict": 0 or 1, "gold": str, "pred": str}`` (what Math-Verify parsed) or
``{"error": str}``. Gold and prediction are parsed as in Math-Verify's own tests
(``compare_strings`` in its tests/test_all.py: LaTeX with boxed answers first, then plain
expressions) and compared by ``verify`` with its default rounding (6 decimal places) or the
case's precision.
"""

from __future__ import annotations

import json
import resource
import sys

#: Memory for this worker: Math-Verify took 2.5 GB on (N-1)^{10^6} > 0.
MEMORY_BYTES = 2 << 30


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify

    targets = [LatexExtractionConfig(boxed_match_priority=0), ExprExtractionConfig()]
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        case = json.loads(line)
        try:
            gold = parse(case["gold"], targets)
            pred = parse(case["pred"], targets)
            ok = verify(gold, pred, float_rounding=case.get("precision") or 6)
            out = {"verdict": int(bool(ok)), "gold": _shown(gold), "pred": _shown(pred)}
        except BaseException as exc:  # Math-Verify's own failure on this case, reported as such
            out = {"error": f"{type(exc).__name__}: {str(exc)[:160]}"}
        print(json.dumps(out), flush=True)


def _shown(parsed: list) -> str:
    text = str(parsed[0]) if parsed else "(nothing extracted)"
    return text if len(text) <= 80 else text[:77] + "..."


if __name__ == "__main__":
    main()
