"""The exercise pages' checker in Chromium, beside the command line's judge, on the same answers.

Run: python bench/browser_checker.py [--out docs/browser-checker.md] [--site DIR] [--answers N]

Builds the site (``mkdocs build``, unless --site names a built one), serves it on 127.0.0.1 and
drives the system's Chromium with Playwright. It measures, in one run:

- the site's size on disk, and the part of it the checker loads (Pyodide, its memory snapshot);
- the time to the first verdict, cold: a new browser context (empty cache, nothing compiled),
  from navigation to the resolved ``symattn.check`` (the snapshot fetched, Pyodide restored from
  it, the check); median of 3, with the bytes the server sent until then (it sends a file's
  ``.br`` form, as a host configured for it would) and the CPU time of the checker's thread
  (Chromium's trace: its Web Worker's tasks); the same without a server's compression, at 4x
  CPU throttling, and with the files in the browser's cache (a second visit);
- a second exercise page opened while the first is loaded: the time to its verdict;
- warm checks: N answers of tests/data/answer_bank.csv through ``symattn.check`` on a loaded
  page, timed inside the page: median and 95th percentile;
- the command line's judge on the same answers in this process
  (:func:`symattn.grading.answers.judge.judge`, its forked worker included): median and 95th percentile.

Writes docs/browser-checker.md (not by `symattn build`: timings differ from run to run).
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _chromium import FLAGS, executable
from _site_server import serve

ROOT = Path(__file__).resolve().parent.parent
BANK = ROOT / "tests" / "data" / "answer_bank.csv"
FIRST = r"\frac{e^2+11}{e^2+2}"


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


def _worker_cpu(trace: bytes) -> float:
    """Seconds of CPU the trace's Web Worker threads spent in their tasks."""
    events = json.loads(trace)["traceEvents"]
    workers = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name" and "Worker" in e["args"].get("name", "")
    }
    tasks = [
        e
        for e in events
        if e.get("ph") == "X" and e.get("name") == "ThreadControllerImpl::RunTask"
        and (e["pid"], e["tid"]) in workers
    ]
    return sum(e.get("tdur", 0) for e in tasks) / 1e6


def _first_verdict(browser, server, url: str, throttle: int = 1, compressed: bool = True) -> dict:
    """One cold first verdict: a new context, the page opened, one check; the spare not booted."""
    server.sent.clear()
    context = browser.new_context(extra_http_headers={} if compressed else {"Accept-Encoding": "identity"})
    page = context.new_page()
    page.add_init_script("window.symattn = {spareWorker: false, offline: false};")
    if throttle > 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    browser.start_tracing(categories=["toplevel", "disabled-by-default-devtools.timeline"])
    start = time.perf_counter()
    page.goto(url)
    verdict = page.evaluate("(a) => symattn.check('ex6.2', a)", FIRST)
    seconds = time.perf_counter() - start
    cpu = _worker_cpu(browser.stop_tracing())
    assert verdict["verdict"] == "correct", verdict
    moved = sum(n for _, n in server.sent)
    phases = page.evaluate("() => symattn.loadPhases()")
    context.close()
    return {"seconds": seconds, "cpu": cpu, "bytes": moved, "phases": phases}


def measure(site: Path, n: int) -> dict:
    from playwright.sync_api import sync_playwright

    server = serve(site)
    url = f"http://127.0.0.1:{server.server_address[1]}/exercises/ex6.2/"
    rows = _answers(n)
    out: dict = {
        "site_bytes": _size(site),
        "checker_bytes": _size(site / "pyodide") + _size(site / "checker"),
        "answers": len(rows),
    }
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable(), args=FLAGS)
            out["first"] = [_first_verdict(browser, server, url) for _ in range(3)]
            out["first_4x"] = _first_verdict(browser, server, url, throttle=4)
            out["first_plain"] = _first_verdict(browser, server, url, compressed=False)
            context = browser.new_context()
            cached = []
            for _ in range(3):
                page = context.new_page()
                start = time.perf_counter()
                page.goto(url)
                assert page.evaluate("(a) => symattn.check('ex6.2', a)", FIRST)["verdict"] == "correct"
                cached.append(time.perf_counter() - start)
                page.close()
            first = context.new_page()  # a second exercise page while the first is open
            first.goto(url)
            first.evaluate("() => symattn.ready()")
            second = context.new_page()
            start = time.perf_counter()
            second.goto(url.replace("ex6.2", "ex6.5"))
            assert second.evaluate("() => symattn.check('ex6.5', 'N > 8192')")["verdict"] == "correct"
            out["second_page"] = time.perf_counter() - start
            context.close()
            out["cached"] = cached
            page = browser.new_page()
            page.goto(url)
            page.evaluate("() => symattn.ready()")
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
    first = m["first"]
    med = lambda key: statistics.median(f[key] for f in first)  # noqa: E731
    phases = first[0]["phases"]
    lines = [
        "# The checker in the browser",
        "",
        "Written by `python bench/browser_checker.py` (not by `symattn build`: timings differ from "
        "run to run), on this 2-core machine: headless Chromium, the site served from 127.0.0.1 "
        "by a server that sends a file's brotli form (`.br`, which the site build writes beside "
        "each large file) to a browser that accepts it.",
        "",
        "| measure | value | target |",
        "| --- | --- | --- |",
        f"| site on disk | {mb:.1f} MB | |",
        "| the checker's files (Pyodide, its snapshot, their compressed forms) "
        f"| {m['checker_bytes'] / 1e6:.1f} MB | |",
        f"| first verdict, cold (new browser profile), median of 3 | {med('seconds'):.2f} s "
        f"({min(f['seconds'] for f in first):.2f}-{max(f['seconds'] for f in first):.2f}) | 4 s |",
        f"| CPU of the checker's thread until then, median of 3 | {med('cpu'):.2f} s | 3 s |",
        f"| bytes moved until then | {med('bytes') / 1e6:.1f} MB | 15 MB |",
        f"| the same from a server that compresses nothing | {m['first_plain']['bytes'] / 1e6:.1f} MB, "
        f"{m['first_plain']['seconds']:.2f} s | |",
        f"| first verdict, cold, at 4x CPU throttling | {m['first_4x']['seconds']:.2f} s "
        f"(checker's thread {m['first_4x']['cpu']:.2f} s of CPU) | |",
        f"| first verdict, files cached (second visit), median of 3 "
        f"| {statistics.median(m['cached']):.2f} s | |",
        "| a second exercise page, the first still open: its first verdict "
        f"| {m['second_page']:.2f} s | 1 s |",
        f"| warm check in the page, median ({m['answers']} bank answers) | "
        f"{statistics.median(m['warm']) * 1000:.0f} ms | 100 ms |",
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
        "Where the first verdict's seconds go (the first cold run, seconds, as the worker timed "
        "them): " + ", ".join(f"{name} {sec:.2f}" for name, sec in phases.items())
        + "; the rest is the page's own loading and the check.",
        "",
        "The worker does not start Python: it fetches the memory snapshot the site build saved "
        "(`checker/python.snapshot`: Pyodide's memory with SymPy, the LaTeX reader and symattn "
        "imported and every exercise judged once; 65 MB, 15 MB in brotli) and restores it into "
        "Pyodide's WebAssembly, which the browser compiles as it arrives. Before, a page started "
        "Python (4.6 s), unpacked the wheels (1.6 s), imported SymPy (1.1 s) and symattn (1.1 s) "
        "and judged a warm-up answer (0.6 s): 10.4 s to the first verdict, 39 MB. The standard "
        "library's zip and the checker's packages (3 and 10 MB) are fetched only if a check "
        "imports a module the snapshot does not hold. A warm check in the page runs the judge in "
        "the Web Worker's own process; the command line forks a limited worker for each answer, "
        "which the page does not need (the page stops a check by terminating its Web Worker).",
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
