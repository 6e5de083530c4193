"""The exercise pages' checker restores the site build's memory snapshot (issue 50): what a first
verdict moves, and the archives fetched only for a module the snapshot does not hold.

Each test serves the built site from a server of its own (bench/_site_server.py, which sends a
file's ``.br`` form to a browser that accepts brotli, and lists what it sent)."""

from __future__ import annotations

import pytest
from conftest import serve

pytestmark = [pytest.mark.xdist_group("browser"), pytest.mark.browser]

LOAD_MS = 120_000
RIGHT = r"\frac{e^2+11}{e^2+2}"

#: A Web Worker of the page's own script, driven by hand: ``probe(module)`` imports a module.
PROBES = """async (modules) => {
  const worker = new Worker('/javascripts/checker-worker.mjs', {type: 'module'});
  const answers = [];
  await new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      const m = event.data;
      if (m.kind === 'failed') reject(new Error(m.message));
      if (m.kind === 'ready') resolve();
    };
  });
  for (const [i, module] of modules.entries()) {
    answers.push(await new Promise((resolve) => {
      worker.onmessage = (event) => { if (event.data.kind === 'result') resolve(event.data); };
      worker.postMessage({id: i, op: 'probe', args: [module]});
    }));
  }
  worker.terminate();
  return answers;
}"""


def test_the_checkers_files_are_readable_by_a_web_server(site):
    """The snapshot is made in a temporary folder, the owner's alone: the site's copy is not."""
    for path in [site / "checker", *(site / "checker").iterdir()]:
        assert path.stat().st_mode & 0o005 == 0o005 if path.is_dir() else path.stat().st_mode & 0o004, path


def _sent(server, path: str) -> list[int]:
    return [n for p, n in server.sent if p == path]


def test_the_first_verdict_moves_the_snapshot_compressed_and_no_archive(browser, site):
    server = serve(site)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.add_init_script("window.symattn = {spareWorker: false, offline: false};")
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/exercises/ex6.2/")
        verdict = page.evaluate("(a) => symattn.check('ex6.2', a)", RIGHT)
        assert verdict["verdict"] == "correct"
        for name in ("checker/python.snapshot", "pyodide/pyodide.asm.wasm"):
            assert _sent(server, "/" + name) == [(site / (name + ".br")).stat().st_size], name
        paths = [p for p, _ in server.sent]
        for archive in ("/pyodide/python_stdlib.zip", "/checker/packages.zip"):
            assert archive not in paths
        assert not any(p.startswith("/wheels/") for p in paths)
    finally:
        context.close()
        server.shutdown()


def test_a_module_the_snapshot_lacks_arrives_with_its_archives_once(browser, site):
    """`wave` (the standard library's) and `sympy.physics.units` (SymPy's) are imported by no
    check: the first import fetches both archives, the second fetches nothing; a module that
    neither holds (numpy) is refused without a fetch."""
    server = serve(site)
    page = browser.new_page()
    try:
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
        numpy, wave, units = page.evaluate(PROBES, ["numpy", "wave", "sympy.physics.units"])
        assert numpy["value"]["exit_code"] == 2 and "numpy" in numpy["value"]["error"]
        assert wave["value"] == {"module": "wave", "file": "/lib/python314.zip/wave.py"}
        assert units["value"]["module"] == "sympy.physics.units"
        assert units["value"]["file"].startswith("/lib/checker-packages.zip/sympy/physics/units/")
        assert len(_sent(server, "/pyodide/python_stdlib.zip")) == 1
        assert len(_sent(server, "/checker/packages.zip")) == 1
    finally:
        page.close()
        server.shutdown()
