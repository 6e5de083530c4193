// The course site's service worker: a
// learner who opened the site once can use it offline. Every request of the site goes to the
// network first (so a rebuilt site shows at once) and its answer is kept; offline, the kept copy
// answers. The checker's files are kept when the worker installs, and the page that registered
// it sends the files it has already loaded (they came before this worker could see them).
const CACHE = "symattn-site-v1";
const CHECKER = [
  "javascripts/checker-worker.mjs",
  "javascripts/restore-memory.mjs",
  "checker/manifest.json",
  "checker/python.snapshot",
  "pyodide/pyodide.mjs",
  "pyodide/pyodide.asm.mjs",
  "pyodide/pyodide.asm.wasm",
  "pyodide/pyodide-lock.json",
].map((path) => new URL(path, self.registration.scope).href);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(CHECKER)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

// Kept unless the copy already kept is the same file (its size and date): the 65 MB snapshot is
// not written again on every visit.
async function keep(request, response) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  const same = (name) => kept && kept.headers.get(name) === response.headers.get(name);
  if (kept && same("last-modified") && same("etag") && same("content-length")) return;
  await cache.put(request, response);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(self.registration.scope)) return;
  event.respondWith(
    fetch(request).then(
      (response) => {
        if (response.ok && response.type === "basic") event.waitUntil(keep(request, response.clone()));
        return response;
      },
      async () => (await caches.match(request, { ignoreSearch: true })) || Response.error(),
    ),
  );
});

self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.keep) || [];
  const own = urls.filter((url) => typeof url === "string" && url.startsWith(self.registration.scope));
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(own.map((url) => cache.add(url).catch(() => {})))));
});
