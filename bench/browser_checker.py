"""The exercise pages' checker in Chromium, beside the command line's judge, on the same answers.

Run: python bench/browser_checker.py [--out docs/browser-checker.md] [--site DIR] [--answers N]

Builds the site (``mkdocs build``, unless --site names a built one), serves it on 127.0.0.1 and
drives the system's Chromium with Playwright. It measures, in one run:

- the site's size on disk, and the part of it the checker loads (Pyodide and the wheels);
- the time to the first verdict, cold: a new browser context (empty cache), from navigation
  to the resolved ``symattn.check`` (Pyodide, the wheels, the imports and the check); median
  of 3, and the same with the files in the browser's cache (a second visit);
- warm checks: N answers of tests/data/answer_bank.csv through ``symattn.check`` on a loaded
  page, timed inside the page: median and 95th percentile;
- the command line's judge on the same answers in this process
  (:func:`symattn.grading.answers.judge.judge`, its forked worker included): median and 95th percentile.

Writes docs/browser-checker.md (not by `symattn build`: timings differ from run to run).
"""

from __future__ import annotations

import argparse
import csv
import functools
import http.server
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _chromium import FLAGS, executable

ROOT = Path(__file__).resolve().parent.parent
BANK = ROOT / "tests" / "data" / "answer_bank.csv"
FIRST = r"\frac{e^2+11}{e^2+2}"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _answers(n: int) -> list[dict[str, str]]:
    with BANK.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return random.Random(7).sample(rows, min(n, len(rows)))


#: The checks of ``rows``, each timed in the page (seconds).
_TIMED = (
    "async (rows) => { const t = []; for (const r of rows) { const s = performance.now(); "
    "await symattn.check(r.exercise, r.answer, {seed: r.seed ? Number(r.seed) : null}); "
    "t.push((performance.now() - s) / 1000); } return t; }"
)
#: Issue 49: once a spare runtime has loaded, a check stopped by the time safety net, then the
#: seconds until the next check's verdict (the spare answers it).
_RECOVERY = """async (answer) => {
  while (!symattn.runtimes().spareLoaded) await new Promise((r) => setTimeout(r, 100));
  const limit = symattn.timeoutSeconds;
  symattn.timeoutSeconds = 0.001;
  const stopped = await symattn.check('ex6.2', answer);
  symattn.timeoutSeconds = limit;
  if (stopped.verdict !== 'unchecked') throw new Error('the check was not stopped');
  const start = performance.now();
  const next = await symattn.check('ex6.2', answer);
  if (next.verdict !== 'correct') throw new Error('the spare did not answer');
  return (performance.now() - start) / 1000;
}"""


def measure(site: Path, n: int) -> dict:
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/exercises/ex6.2/"
    rows = _answers(n)
    out: dict = {
        "site_bytes": _size(site),
        "checker_bytes": _size(site / "pyodide") + _size(site / "wheels"),
        "answers": len(rows),
    }
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable(), args=FLAGS)
            cold, cached = [], []
            for _ in range(3):
                context = browser.new_context()
                for store in (cold, cached):
                    page = context.new_page()
                    start = time.perf_counter()
                    page.goto(url)
                    verdict = page.evaluate("(a) => symattn.check('ex6.2', a)", FIRST)
                    store.append(time.perf_counter() - start)
                    assert verdict["verdict"] == "correct", verdict
                    page.close()
                context.close()
            out |= {"cold": cold, "cached": cached}
            page = browser.new_page()
            page.goto(url)
            page.evaluate("() => symattn.ready()")
            out["phases"] = page.evaluate("() => symattn.loadPhases()")
            times = page.evaluate(
                "async (rows) => { const t = []; for (const r of rows) { const s = performance.now(); "
                "await symattn.check(r.exercise, r.answer, {seed: r.seed ? Number(r.seed) : null}); "
                "t.push((performance.now() - s) / 1000); } return t; }",
                rows,
            )
            out["warm"] = times
            cdp = page.context.new_cdp_session(page)
            for rate in (1, 4, 6):  # the DevTools protocol's CPU throttling: none, mid-range, low-end phone
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                out[f"warm_{rate}x"] = page.evaluate(_TIMED, rows[:20])
                out[f"recovery_{rate}x"] = [page.evaluate(_RECOVERY, FIRST) for _ in range(2)]
            browser.close()
    finally:
        server.shutdown()
    from symattn.grading.answers.judge import judge, warm_up
    from symattn.grading.exercises import get

    warm_up()
    cli = []
    for r in rows:
        e = get(r["exercise"], int(r["seed"]) if r["seed"] else None)
        start = time.perf_counter()
        judge(r["answer"], e.expected, e.mistakes)
        cli.append(time.perf_counter() - start)
    out["cli"] = cli
    return out


def page(m: dict) -> str:
    mb = m["site_bytes"] / 1e6
    first = statistics.median(m["cold"])
    lines = [
        "# The checker in the browser",
        "",
        "Written by `python bench/browser_checker.py` (not by `symattn build`: timings differ from "
        "run to run), on this 2-core machine: headless Chromium, the site served from 127.0.0.1.",
        "",
        "| measure | value | target |",
        "| --- | --- | --- |",
        f"| site on disk | {mb:.1f} MB | |",
        f"| the checker's files (Pyodide, the wheels) | {m['checker_bytes'] / 1e6:.1f} MB | |",
        f"| first verdict, cold (new browser profile), median of 3 | {first:.1f} s "
        f"({min(m['cold']):.1f}-{max(m['cold']):.1f}) | 15 s |",
        f"| first verdict, files cached (second visit), median of 3 "
        f"| {statistics.median(m['cached']):.1f} s | |",
        f"| warm check in the page, median ({m['answers']} bank answers) | "
        f"{statistics.median(m['warm']) * 1000:.0f} ms | 500 ms |",
        f"| warm check in the page, 95th percentile | {_p95(m['warm']) * 1000:.0f} ms | |",
        f"| command line's judge, in process, median (same answers) | "
        f"{statistics.median(m['cli']) * 1000:.0f} ms | |",
        f"| command line's judge, 95th percentile | {_p95(m['cli']) * 1000:.0f} ms | |",
        "",
        "With the DevTools protocol's CPU throttling (the page's renderer, its Web Workers "
        "included), on 20 of the same answers, and the recovery after a check stopped by the "
        "time safety net (the next verdict, answered by the spare runtime kept loaded; target 3 s):",
        "",
        "| throttling | warm check, median | recovery after a stopped check (2 runs) |",
        "| --- | --- | --- |",
        *(
            f"| {rate}x | {statistics.median(m[f'warm_{rate}x']) * 1000:.0f} ms "
            f"| {', '.join(f'{t:.2f} s' for t in m[f'recovery_{rate}x'])} |"
            for rate in (1, 4, 6)
        ),
        "",
        "Where the loading goes (one warm-cache visit, seconds): "
        + ", ".join(f"{name} {sec:.1f}" for name, sec in m["phases"].items())
        + ".",
        "",
        "The first verdict is the page's navigation, Pyodide's start (its WebAssembly compiled), "
        "the wheels (SymPy is most of them) unpacked, SymPy and symattn imported (from the "
        "bytecode the site build compiled for Pyodide's Python: compiling SymPy's source in the "
        "page took about 5 s more) and one warm-up check, then the learner's check. A warm check "
        "in the page runs the judge in the Web Worker's own "
        "process; the command line forks a limited worker for each answer, which the page does "
        "not need (the page stops a check by terminating its Web Worker).",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "browser-checker.md"))
    parser.add_argument("--site", help="a site already built with mkdocs (default: build one)")
    parser.add_argument("--answers", type=int, default=60)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(args.site) if args.site else Path(tmp) / "site"
        if not args.site:
            subprocess.run(
                [sys.executable, "-m", "mkdocs", "build", "-q", "--site-dir", str(site)], cwd=ROOT, check=True
            )
        text = page(measure(site, args.answers))
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
