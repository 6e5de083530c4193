// The exercise pages' checker: an
// answer field with a typeset preview, a Check button, the verdict, and the API
//   await symattn.check(id, answer, {seed})   await symattn.checkSteps(id, text)
// which resolve to the object `symattn check ... --json` prints. The judge is symattn's own
// Python code, run by Pyodide in a Web Worker (checker-worker.mjs); a check that runs past
// symattn.timeoutSeconds is stopped (the worker is terminated; a spare kept warm takes over).
(function () {
  "use strict";

  const script = document.currentScript;
  const WORKER_URL = new URL("checker-worker.mjs", script ? script.src : location.href);

  // -- the worker ---------------------------------------------------------------------------
  // A reason for the page's one sentence: its first line that is not blank, at most 160 characters
  // (the worker's own reasons and a browser's error event alike).
  function brief(message) {
    const lines = String(message).split(/\r\n|[\r\n\u2028\u2029]/).map((l) => l.trim());
    const line = lines.find((l) => l !== "") || "no reason given";
    const chars = Array.from(line);
    return chars.length > 160 ? chars.slice(0, 159).join("") + "…" : line;
  }

  // One Pyodide in a Web Worker, booting: its promise `ready`, and the calls it has taken up.
  class Runtime {
    constructor(number, onStatus) {
      this.number = number;
      this.pending = new Map();
      this.loaded = false;
      const worker = new Worker(WORKER_URL, { type: "module" });
      this.worker = worker;
      this.ready = new Promise((resolve, reject) => {
        // Pyodide does not always reject when its WebAssembly cannot load: give loading a limit,
        // which ends when it has loaded (else it would stop a working checker later on).
        const fail = (why) => {
          clearTimeout(bootTimer);
          const message = brief(why);
          worker.terminate();
          onStatus(this, "failed", message);
          reject(new Error(message));
        };
        const bootTimer = setTimeout(
          () => fail("it did not finish loading within " + window.symattn.loadTimeoutSeconds + " s"),
          Number(window.symattn.loadTimeoutSeconds) * 1000,
        );
        worker.onmessage = (event) => {
          const m = event.data;
          if (m.kind === "progress") onStatus(this, "loading", m.message);
          else if (m.kind === "ready") {
            clearTimeout(bootTimer);
            this.loadPhases = m.phases;
            this.loaded = true;
            onStatus(this, "ready", "");
            resolve();
          } else if (m.kind === "failed") {
            fail(m.message);
          } else if (m.kind === "result") {
            const p = this.pending.get(m.id);
            if (p) {
              this.pending.delete(m.id);
              clearTimeout(p.timer);
              // a failure inside Python: one sentence, never its traceback
              if (m.error !== undefined) p.reject(new Error("the checker failed on this input"));
              else p.resolve(m.value);
            }
          }
        };
        worker.onerror = (event) => fail(event.message || "the checker's worker could not start");
      });
      this.ready.catch(() => {});
    }
  }

  // The checker: the runtime that answers, and a spare one kept warm once the first has answered,
  // so that when a check runs past its time limit the spare takes over at once (issue 49: no
  // second wait for Pyodide) and a new spare boots in the background.
  class Checker {
    constructor(onStatus) {
      this.onStatus = onStatus;
      this.queue = Promise.resolve();
      this.next = 1;
      this.started = 0;
      this.spare = null;
      this.active = this.boot();
    }

    boot() {
      this.started += 1;
      return new Runtime(this.started, (runtime, state, message) => {
        if (runtime !== this.active) return; // a spare's loading is silent; its failure leaves no spare
        if (state === "failed") this.failed = message;
        this.onStatus(state, message);
      });
    }

    get ready() {
      return this.active.ready;
    }

    get loadPhases() {
      return this.active.loadPhases;
    }

    // A spare, booted once the runtime in use has loaded and answered (not before: the first
    // verdict gets the whole machine).
    keepSpare() {
      if (this.spare || this.failed || window.symattn.spareWorker === false) return;
      const spare = this.boot();
      this.spare = spare;
      spare.ready.catch(() => {
        if (this.spare === spare) this.spare = null;
      });
    }

    // The runtime in use stopped: the spare, loaded or loading, takes over (else a fresh one).
    replace() {
      this.active.worker.terminate();
      const spare = this.spare;
      this.spare = null;
      this.active = spare || this.boot();
      this.onStatus(this.active.loaded ? "ready" : "restarting", "");
    }

    // One call at a time: its time limit (seconds) starts when the worker takes it up.
    call(op, args, seconds, tooCostly) {
      const run = async () => {
        const runtime = this.active;
        await runtime.ready;
        const value = await new Promise((resolve, reject) => {
          const id = this.next++;
          const timer = setTimeout(() => {
            runtime.pending.delete(id);
            this.replace();
            resolve(tooCostly(seconds));
          }, seconds * 1000);
          runtime.pending.set(id, { resolve, reject, timer });
          runtime.worker.postMessage({ id, op, args });
        });
        this.keepSpare();
        return value;
      };
      const result = this.queue.then(run, run);
      this.queue = result.catch(() => {});
      return result;
    }

    // What the page's tests and benchmarks read: runtimes booted, and whether a spare is loaded.
    state() {
      return { started: this.started, active: this.active.number, spareLoaded: !!(this.spare && this.spare.loaded) };
    }
  }

  // -- showing results ------------------------------------------------------------------------
  const WORDS = { correct: "Correct", incorrect: "Incorrect", invalid: "Invalid answer", unchecked: "Not checked" };
  const MARKS = { ok: "✓ ok", wrong: "✗ wrong", unjustified: "? unjustified", invalid: "! invalid", unchecked: "… unchecked" };

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") node.textContent = v;
      else node.setAttribute(k, v);
    }
    for (const child of children || []) node.appendChild(child);
    return node;
  }

  function math(tex, display) {
    const span = el("span", { class: "symattn-math" });
    try {
      window.katex.render(tex, span, { throwOnError: true, displayMode: !!display });
    } catch (error) {
      span.textContent = tex;
      span.classList.add("symattn-unrendered");
    }
    return span;
  }

  // Text with $...$ stretches of LaTeX in it (an exercise's prompt): the math typeset.
  function prose(tag, text, attrs) {
    const parts = String(text).split("$");
    return el(tag, attrs, parts.map((part, k) => (k % 2 ? math(part) : document.createTextNode(part))));
  }

  // A learner's LaTeX as typed: the outer $...$, \(...\), \[...\] are only delimiters.
  function stripDelimiters(text) {
    const t = text.trim();
    const pairs = [["$$", "$$"], ["$", "$"], ["\\(", "\\)"], ["\\[", "\\]"]];
    for (const [a, b] of pairs) {
      if (t.length >= a.length + b.length && t.startsWith(a) && t.endsWith(b)) {
        return t.slice(a.length, t.length - b.length);
      }
    }
    return t;
  }

  // The verdict at the head of a result; false when the command line refused the input
  // ({error}), which is then shown as an invalid answer with its message.
  function showVerdict(box, r) {
    box.replaceChildren();
    const verdict = r.error !== undefined ? "invalid" : r.verdict;
    box.dataset.verdict = verdict;
    box.appendChild(el("p", { class: "symattn-verdict symattn-" + verdict, text: WORDS[verdict] }));
    if (r.error === undefined) return true;
    box.appendChild(el("p", { text: r.error }));
    return false;
  }

  function showAnswer(box, r) {
    if (!showVerdict(box, r)) return;
    if (r.feedback && r.feedback !== "correct") box.appendChild(prose("p", r.feedback, { class: "symattn-feedback" }));
    if (r.mistake) {
      box.appendChild(el("p", { class: "symattn-slip" }, [
        document.createTextNode("Recognised slip: "), el("code", { text: r.mistake }),
      ]));
    }
    // The reading, typeset; where numbers were echoed as typed (1.96, not the exact 49/25 of
    // given) the echo, as the command line prints it.
    if (r.typed && r.typed !== r.given) {
      box.appendChild(el("p", { class: "symattn-read" }, [document.createTextNode("Read as "), el("code", { text: r.typed })]));
    } else if (r.given_latex) {
      box.appendChild(el("p", { class: "symattn-read" }, [document.createTextNode("Read as "), math(r.given_latex)]));
    }
    if (r.notes && r.notes.length) {
      box.appendChild(el("ul", { class: "symattn-notes" }, r.notes.map((n) => el("li", { text: n }))));
    }
  }

  function showSteps(box, r) {
    if (!showVerdict(box, r)) return;
    const rows = (r.steps || []).map((s) => el("tr", { class: "symattn-step symattn-" + s.status, "data-line": String(s.line), "data-status": s.status }, [
      el("td", { text: "line " + s.line }),
      el("td", {}, [math(s.latex)]),
      el("td", { class: "symattn-mark", text: MARKS[s.status] || s.status }),
      prose("td", s.status === "ok" ? (s.rule || "") : (s.feedback || s.rule || ""), { class: "symattn-step-feedback" }),
    ]));
    if (rows.length) box.appendChild(el("table", { class: "symattn-steps" }, [el("tbody", {}, rows)]));
    if (r.feedback) box.appendChild(prose("p", r.feedback, { class: "symattn-feedback" }));
  }

  // -- the learner's work, kept in this browser ------------------------------------------------
  // Per exercise and seed ("own" for the exercise's own numbers): the answer as last typed, and
  // the last verdict with the answer it was for. In localStorage only: nothing leaves the browser.
  const STORE = "symattn:work:v1:";
  const work = {
    key: (exercise, seed) => STORE + exercise + ":" + (seed === null || seed === undefined ? "own" : String(seed)),
    get(exercise, seed) {
      try {
        return JSON.parse(window.localStorage.getItem(this.key(exercise, seed))) || null;
      } catch (error) {
        return null;  // storage refused (a private window's quota) or an entry not ours
      }
    },
    put(exercise, seed, entry) {
      try {
        window.localStorage.setItem(this.key(exercise, seed), JSON.stringify(entry));
      } catch (error) {
        // storage full or refused: the work is only not kept
      }
    },
    entries(exercise) {
      const found = [];
      try {
        for (let i = 0; i < window.localStorage.length; i++) {
          const key = window.localStorage.key(i);
          if (key.startsWith(STORE + exercise + ":")) found.push(key);
        }
      } catch (error) {
        return [];
      }
      return found;
    },
    clear(exercise) {
      for (const key of this.entries(exercise)) window.localStorage.removeItem(key);
    },
    // Every entry kept for the exercise, read (an entry that is not ours is left out).
    all(exercise) {
      const found = [];
      for (const key of this.entries(exercise)) {
        try {
          const entry = JSON.parse(window.localStorage.getItem(key));
          if (entry) found.push(entry);
        } catch (error) {
          // not ours
        }
      }
      return found;
    },
    // "correct" once a verdict on any of its numbers was correct, "tried" once any was checked (an
    // answer typed and not checked is no attempt: it neither counts nor earns the answer).
    state(exercise) {
      const checked = this.all(exercise).filter((entry) => entry.verdict);
      if (checked.some((entry) => entry.verdict.verdict === "correct")) return "correct";
      return checked.length ? "tried" : "not tried";
    },
  };
  const PROGRESS = { "not tried": "not tried yet", tried: "tried", correct: "correct" };
  // Wrong attempts (incorrect or invalid verdicts kept) on an exercise, all its numbers together.
  function wrongAttempts(exercise) {
    return work.all(exercise).reduce((sum, entry) => sum + (entry.wrong || 0), 0);
  }

  // Answers earned: an exercise's answer and model solution stay out of view until the learner
  // has tried it, or asks for them and confirms; symattn.answers = "always" (the site's
  // configuration: extra.symattn.answers in mkdocs.yml) shows them at once. Its hint shows after
  // two wrong attempts.
  function showEarned() {
    const always = window.symattn.answers === "always";
    for (const box of document.querySelectorAll(".symattn-earned")) {
      const exercise = box.dataset.exercise;
      const open = always || work.state(exercise) !== "not tried" || !!(work.get(exercise, "revealed") || {}).revealed;
      if (open) box.dataset.open = "true";
      else box.removeAttribute("data-open");
      for (const gate of document.querySelectorAll(`.symattn-gate[data-exercise="${exercise}"]`)) gate.hidden = open;
    }
    for (const hint of document.querySelectorAll(".symattn-hint")) {
      hint.hidden = wrongAttempts(hint.dataset.exercise) < 2;
    }
  }
  // The skip link to the answer field (docs_hooks.py puts it first on the page): the field focused.
  document.addEventListener("click", (event) => {
    const skip = event.target.closest && event.target.closest(".symattn-skip");
    const field = skip && document.getElementById(skip.getAttribute("href").slice(1));
    if (field) {
      event.preventDefault();
      field.focus();
    }
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest(".symattn-reveal");
    if (!button) return;
    const exercise = button.closest(".symattn-gate").dataset.exercise;
    if (window.confirm("Show the answer and the model solution of " + exercise + " before you have tried it?")) {
      work.put(exercise, "revealed", { revealed: true });
      showEarned();
    }
  });
  function showProgress() {
    for (const node of document.querySelectorAll(".symattn-progress")) {
      const state = work.state(node.dataset.exercise);
      node.dataset.state = state;
      node.textContent = "Your progress (kept in this browser): " + PROGRESS[state];
    }
  }

  // -- the page -------------------------------------------------------------------------------
  function setUp(root) {
    const id = root.dataset.exercise;
    const mode = root.dataset.mode; // answer or steps
    const cli = root.dataset.cli;
    const status = root.querySelector(".symattn-status");
    const field = root.querySelector(".symattn-answer");
    const preview = root.querySelector(".symattn-preview");
    const button = root.querySelector(".symattn-check");
    const result = root.querySelector(".symattn-result");
    const newNumbers = root.querySelector(".symattn-variant");
    const variantBox = root.querySelector(".symattn-variant-prompt");
    const clear = root.querySelector(".symattn-clear");
    let seed = null; // the variant's seed, as text, or null for the exercise's own numbers
    root.dataset.original = root.dataset.expected || "";

    const checker = new Checker((state, message) => {
      root.dataset.state = state;
      if (state === "loading") status.textContent = "Loading the checker: " + message + "…";
      else if (state === "ready") status.textContent = "The checker is ready: it runs in this browser, and nothing you type leaves it.";
      else if (state === "restarting") status.textContent = "The last check took too long and was stopped; the checker is starting again…";
      else if (state === "failed") {
        status.textContent = "The checker could not load in this browser (" + message + "); check your answer on the command line instead: " + cli;
      }
    });

    // The page's time safety net: no verdict on the answer (symattn.grading.outcomes.OUT_OF_TIME).
    const late = (s) => "the checker ran out of time on this machine: try again";
    const api = window.symattn;
    // The seed goes to the command line as written, which accepts or refuses it in its own words.
    const seedText = (s) => (s === undefined || s === null ? null : String(s));
    api.check = (exercise, answer, options) => {
      const s = seedText(options && options.seed);
      // the expected answer is known here only for this page's exercise, as last shown
      const expected = String(exercise) === id && s === seed ? root.dataset.expected || "" : "";
      const seconds = Number(api.timeoutSeconds);
      return checker.call("check", [String(exercise), String(answer), s], seconds, (t) => ({
        id: String(exercise), verdict: "unchecked", expected, given: "", given_latex: "",
        feedback: late(t), mistake: null, notes: [],
      }));
    };
    // A derivation gets the limit for each of its lines, up to symattn.derivationTimeoutSeconds in all: the safety net, far above what the text's measures admit (issue 49).
    api.checkSteps = (exercise, text) => {
      const lines = String(text).split(/\r?\n/).filter((l) => l.trim() && !l.trim().startsWith("%")).length;
      const seconds = Math.min(Number(api.derivationTimeoutSeconds), Number(api.timeoutSeconds) * Math.max(1, lines));
      return checker.call("checkSteps", [String(exercise), String(text)], seconds, (t) => ({
        id: String(exercise), verdict: "unchecked", steps: [], feedback: late(t),
      }));
    };
    api.variant = (exercise, s) =>
      checker.call("variant", [String(exercise), String(s)], Number(api.timeoutSeconds), (t) => ({ error: late(t), exit_code: 2 }));
    api.ready = () => checker.ready;
    api.loadPhases = () => checker.loadPhases; // seconds spent in each phase of loading
    api.runtimes = () => checker.state();
    api.progress = (exercise) => work.state(String(exercise));

    let previewQueued = false;
    function updatePreview() {
      if (previewQueued) return;
      previewQueued = true;
      requestAnimationFrame(() => {
        previewQueued = false;
        renderPreview();
      });
    }
    function renderPreview() {
      preview.replaceChildren();
      const text = field.value;
      if (!text.trim()) return;
      if (text.length > 4000) {  // far past what the judge reads: typesetting it would stall the page
        preview.appendChild(el("p", { text: "(too long to preview)" }));
        return;
      }
      if (mode === "steps") {
        for (const line of text.split(/\r?\n/)) {
          if (line.trim() && !line.trim().startsWith("%")) preview.appendChild(el("div", {}, [math(stripDelimiters(line), false)]));
        }
      } else {
        preview.appendChild(math(stripDelimiters(text), true));
      }
    }

    // Buttons stay enabled while busy (a disabled button drops keyboard focus): a press is ignored.
    let busy = false;
    async function run() {
      const text = field.value;
      if (busy) return;
      if (!text.trim()) {
        result.dataset.verdict = "invalid";
        result.replaceChildren(el("p", { text: "Type an answer first." }));
        return;
      }
      busy = true;
      root.setAttribute("aria-busy", "true");
      result.removeAttribute("data-verdict");
      result.removeAttribute("data-stale");
      result.replaceChildren(el("p", { text: "Checking…" }));
      try {
        const asked = seed;
        const verdict = mode === "steps" ? await api.checkSteps(id, text) : await api.check(id, text, { seed });
        show(verdict);
        if (verdict.verdict !== "unchecked") {  // a safety net's "try again" is not kept
          const kept = work.get(id, asked) || {};
          const wrong = (kept.wrong || 0) + (verdict.verdict === "correct" ? 0 : 1);
          work.put(id, asked, { answer: text, verdict, for: text, attempts: (kept.attempts || 0) + 1, wrong });
          showEarned();
        }
        if (field.value !== text) markStale();  // typed on while the check ran
      } catch (error) {
        result.dataset.verdict = "invalid";
        result.replaceChildren(el("p", { text: "The checker is not available (" + error.message + "); on the command line: " + cli }));
      } finally {
        busy = false;
        root.removeAttribute("aria-busy");
      }
    }

    function show(verdict) {
      if (mode === "steps") showSteps(result, verdict);
      else showAnswer(result, verdict);
    }

    // The verdict on screen is for another answer than the field's: said at once, and kept.
    function markStale() {
      if (!result.dataset.verdict || result.dataset.stale) return;
      result.dataset.stale = "true";
      result.prepend(el("p", { class: "symattn-stale", text: "This verdict is for an earlier answer: press Check for this one." }));
    }

    function keepDraft() {
      const kept = work.get(id, seed) || {};
      work.put(id, seed, { ...kept, answer: field.value });
      if (result.dataset.verdict && kept.for !== undefined && kept.for !== field.value) markStale();
    }

    // The work kept for the numbers in use: the answer in the field, its verdict shown.
    function restore() {
      const kept = work.get(id, seed);
      if (!kept) return;
      field.value = kept.answer || "";
      updatePreview();
      result.removeAttribute("data-stale");
      result.removeAttribute("data-verdict");
      result.replaceChildren();
      if (kept.verdict) {
        show(kept.verdict);
        if (kept.for !== field.value) markStale();
      }
    }

    function originalNumbers() {
      seed = null;
      root.dataset.expected = root.dataset.original || "";
      variantBox.replaceChildren();
    }

    async function useSeed(s) {
      seed = String(s);
      result.removeAttribute("data-verdict");
      result.replaceChildren();
      const v = await api.variant(id, s);
      variantBox.replaceChildren();
      if (v.error) {
        variantBox.appendChild(el("p", { text: v.error }));
        return;
      }
      root.dataset.expected = v.expected;
      variantBox.appendChild(el("p", { class: "symattn-variant-title", text: "New numbers (seed " + s + "):" }));
      variantBox.appendChild(prose("p", v.prompt, {}));
      if (v.note) variantBox.appendChild(el("p", { class: "symattn-note", text: "Note: " + v.note + "." }));
      variantBox.appendChild(el("p", {}, [el("code", { text: "symattn check " + id + " ANSWER --seed " + s })]));
    }

    field.addEventListener("input", () => {
      updatePreview();
      keepDraft();
    });
    button.addEventListener("click", run);
    if (clear) {
      clear.addEventListener("click", () => {
        work.clear(id);
        field.value = "";
        updatePreview();
        result.removeAttribute("data-verdict");
        result.removeAttribute("data-stale");
        result.replaceChildren(el("p", { text: "Your work on " + id + " is cleared from this browser." }));
        showProgress();
        showEarned();
      });
    }
    if (mode !== "steps") {
      field.addEventListener("keydown", (event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          run();
        }
      });
    }
    if (newNumbers) {
      let drawing = false;
      newNumbers.addEventListener("click", async () => {
        if (drawing) return;
        drawing = true;
        try {
          await useSeed(1 + Math.floor(Math.random() * 100000));
        } finally {
          drawing = false;
        }
      });
    }

    // exercises/ID/#answer=<percent-encoded LaTeX>&seed=S or #steps=<...>: fill in and check.
    async function fromHash() {
      // Percent-decoding only: a "+" in the LaTeX stays a plus (URLSearchParams would make it a space).
      const params = new Map();
      for (const part of location.hash.replace(/^#/, "").split("&")) {
        const at = part.indexOf("=");
        if (at <= 0) continue;
        try {
          params.set(part.slice(0, at), decodeURIComponent(part.slice(at + 1)));
        } catch (error) {
          params.set(part.slice(0, at), part.slice(at + 1));
        }
      }
      const key = mode === "steps" ? "steps" : "answer";
      if (!params.has(key)) {
        restore();  // no link to follow: the learner's own work, as it was left
        return;
      }
      field.value = params.get(key);
      updatePreview();
      if (params.has("seed")) {
        await useSeed(params.get("seed"));  // the command line's own checks and messages
        if (variantBox.querySelector(".symattn-variant-title") === null) {
          result.dataset.verdict = "invalid";
          result.replaceChildren(el("p", { text: variantBox.innerText }));
          return;
        }
      } else if (seed !== null) {
        originalNumbers();  // a link without a seed means the exercise's own numbers
      }
      await run();
    }
    window.addEventListener("hashchange", fromHash);
    fromHash();
  }

  // A page (or a test) may set these before this script runs.
  // The safety nets' defaults: symattn/grading/measures.py states them (a test compares the two).
  window.symattn = Object.assign(
    { timeoutSeconds: 30, derivationTimeoutSeconds: 300, loadTimeoutSeconds: 120 },
    window.symattn || {},
  );
  // The site's service worker (sw.js, at the site's root): offline once the site has been opened.
  // It is sent the files this page loaded before it could see them.
  async function keepOffline() {
    if (!("serviceWorker" in navigator) || window.symattn.offline === false) return;
    try {
      const registration = await navigator.serviceWorker.register(new URL("../sw.js", WORKER_URL).href);
      await navigator.serviceWorker.ready;
      const loaded = performance.getEntriesByType("resource").map((entry) => entry.name);
      (registration.active || navigator.serviceWorker.controller).postMessage({ keep: [location.href, ...loaded] });
    } catch (error) {
      // no service worker (a file:// page, a private window): the site still works online
    }
  }

  function init() {
    const root = document.querySelector(".symattn-checker");
    if (root) setUp(root);
    showProgress();
    showEarned();
    keepOffline();
  }
  // Back to a page kept in the browser's memory: its progress as the storage now has it.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) {
      showProgress();
      showEarned();
    }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
