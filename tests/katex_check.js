// Render LaTeX fragments with KaTeX; print the ones that fail as JSON.
// Input on stdin: [{"id": ..., "tex": ..., "display": true|false}, ...]
const katex = require("katex");

let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const failures = [];
  for (const item of JSON.parse(input)) {
    try {
      katex.renderToString(item.tex, { displayMode: item.display, throwOnError: true, strict: "error" });
    } catch (err) {
      failures.push({ id: item.id, tex: item.tex.slice(0, 200), error: String(err.message).slice(0, 300) });
    }
  }
  process.stdout.write(JSON.stringify(failures));
});
