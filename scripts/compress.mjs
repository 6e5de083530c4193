// node scripts/compress.mjs FILE=STEM...
//
// Writes STEM.br and STEM.gz: FILE compressed with brotli (quality 9, a 16 MB window) and gzip
// (level 9), for a server that sends a file's compressed form to a browser that accepts it
// (Content-Encoding). docs_hooks.py runs this for the checker's large files; Python's standard
// library has gzip but no brotli, which saves the snapshot a fifth more (15 MB against 19 MB).
import fs from "node:fs";
import zlib from "node:zlib";

const C = zlib.constants;
for (const pair of process.argv.slice(2)) {
  const at = pair.lastIndexOf("=");
  const data = fs.readFileSync(pair.slice(0, at));
  const stem = pair.slice(at + 1);
  const brotli = { [C.BROTLI_PARAM_QUALITY]: 9, [C.BROTLI_PARAM_LGWIN]: 24, [C.BROTLI_PARAM_SIZE_HINT]: data.length };
  fs.writeFileSync(stem + ".br.part", zlib.brotliCompressSync(data, { params: brotli }));
  fs.writeFileSync(stem + ".gz.part", zlib.gzipSync(data, { level: 9 }));
  fs.renameSync(stem + ".gz.part", stem + ".gz");
  fs.renameSync(stem + ".br.part", stem + ".br");  // last: the hook takes a .br as "both are there"
}
