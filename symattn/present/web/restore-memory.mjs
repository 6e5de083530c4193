// Restoring Pyodide from a memory
// snapshot (`loadPyodide({_loadSnapshot})`) copies the snapshot into the WebAssembly memory as
// it comes out of instantiation, 30 MB, while the snapshot is larger: Pyodide sizes it through an
// Emscripten setting its build no longer reads (pyodide/pyodide#6254), and the copy fails with
// "offset is out of bounds". `withMemoryFor(bytes, load)` runs `load()` with WebAssembly's
// instantiation wrapped so that the instance's memory is first grown to hold `bytes` bytes;
// the build's script (scripts/checker_snapshot.mjs) and the page's worker both load through it.
export async function withMemoryFor(bytes, load) {
  const originals = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
  const grow = (result) => {
    const memory = (result.instance || result).exports.memory;
    if (memory instanceof WebAssembly.Memory) {
      const missing = Math.ceil((bytes - memory.buffer.byteLength) / 65536);
      if (missing > 0) memory.grow(missing);
    }
    return result;
  };
  for (const name of Object.keys(originals)) {
    if (originals[name]) WebAssembly[name] = (...args) => originals[name].apply(WebAssembly, args).then(grow);
  }
  try {
    return await load();
  } finally {
    Object.assign(WebAssembly, originals);
  }
}
