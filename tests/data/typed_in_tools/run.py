"""Type learner keystrokes into the real MathQuill (and MathLive) editors in headless
Chromium and record the LaTeX they emit.

How typed.json was made (issue 48). Re-run: in a folder holding this file, inputs.py,
annotations.py, mq.html and ml.html, run `npm install mathquill@0.10.1 jquery@3 mathlive@0.111.1`
and then this script with a Python that has Playwright (the system's /usr/bin/chromium is driven;
never `playwright install`). It writes raw_mathquill.json and raw_mathlive.json (as typed) and
/tmp/mathquill_out.json and /tmp/mathlive_typed_out.json (with annotations.py's readings);
typed.json keeps each record's tool, configuration, keystrokes, LaTeX and meaning. The input
bank's verdicts for these rows are judged by hand in tests/data/make_input_bank.py.
"""

import functools
import http.server
import json
import os
import re
import shutil
import socketserver
import sys
import threading

from playwright.sync_api import sync_playwright

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from inputs import INPUTS, WRITES  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"

MQ_CONFIGS = {
    "default": {},
    "desmos_like": {"autoCommands": "pi theta sqrt sum", "autoOperatorNames": "sin cos tan exp ln log"},
}

TOKEN_RE = re.compile(r"(<(?:Right|Left|Up|Down|Space|Backspace|Enter)>)")
MQ_KEY = {
    "Right": "Right",
    "Left": "Left",
    "Up": "Up",
    "Down": "Down",
    "Space": "Spacebar",
    "Backspace": "Backspace",
    "Enter": "Enter",
}
PW_KEY = {
    "Right": "ArrowRight",
    "Left": "ArrowLeft",
    "Up": "ArrowUp",
    "Down": "ArrowDown",
    "Space": "Space",
    "Backspace": "Backspace",
    "Enter": "Enter",
}


def tokenize(keys):
    out = []
    for part in TOKEN_RE.split(keys):
        if not part:
            continue
        m = re.fullmatch(r"<(\w+)>", part)
        if m:
            out.append(("key", m.group(1)))
        else:
            out.append(("text", part))
    return out


def pkg_version(name, base=None):
    base = base or os.path.join(HERE, "node_modules", name)
    with open(os.path.join(base, "package.json")) as f:
        return json.load(f)["version"]


def adapt_for_mathlive(keys):
    """MathLive's smartSuperscript leaves a superscript by itself after one digit,
    so a learner using MathLive would not press Right after '^<digit>'."""
    return re.sub(r"\^(\d)<Right>", r"^\1", keys)


def type_with_keyboard(page, tokens, delay):
    for kind, val in tokens:
        if kind == "text":
            page.keyboard.type(val, delay=delay)
        else:
            page.keyboard.press(PW_KEY[val])
            page.wait_for_timeout(delay)


def run_mathquill(browser):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page_jq1 = browser.new_page()
    page.goto("file://" + os.path.join(HERE, "mq_jq3.html"))
    page_jq1.goto("file://" + os.path.join(HERE, "mq_jq1.html"))
    jq = page.evaluate("jQuery.fn.jquery")
    jq1 = page_jq1.evaluate("jQuery.fn.jquery")
    rows = []
    for cfg_name, cfg in MQ_CONFIGS.items():
        for ex, iid, keys, intended in INPUTS:
            toks = [list(t) for t in tokenize(keys)]
            api_toks = [[k, MQ_KEY[v] if k == "key" else v] for k, v in toks]
            latex_api = page.evaluate("([t, c]) => mqApi(t, c)", [api_toks, cfg])
            latex_api_jq1 = page_jq1.evaluate("([t, c]) => mqApi(t, c)", [api_toks, cfg])
            # real key events through Chromium into MathQuill's hidden textarea
            page.evaluate("c => mqNew(c)", cfg)
            type_with_keyboard(page, toks, 5)
            latex_kb = page.evaluate("mqLatex()")
            rows.append(
                {
                    "exercise": ex,
                    "id": iid,
                    "keystrokes": keys,
                    "tool": "MathQuill",
                    "method": "mathField.typedText()/keystroke() API",
                    "config_name": cfg_name,
                    "config": cfg,
                    "latex": latex_api,
                    "latex_real_keyboard": latex_kb,
                    "api_and_keyboard_agree": latex_api == latex_kb,
                    "same_with_jquery_" + jq1: latex_api_jq1 == latex_api,
                    "intended": intended,
                }
            )
        for ex, iid, latex_in, intended in WRITES:
            res = page.evaluate("([l, c]) => mqWrite(l, c)", [latex_in, cfg])
            rows.append(
                {
                    "exercise": ex,
                    "id": iid,
                    "keystrokes": None,
                    "tool": "MathQuill",
                    "written_latex": latex_in,
                    "method": "mathField.write(latex) API (not keystrokes)",
                    "config_name": cfg_name,
                    "config": cfg,
                    "latex": res["latex"],
                    "write_error": res["error"],
                    "intended": intended,
                }
            )
    meta = {
        "mathquill_version": pkg_version("mathquill"),
        "jquery_version": jq,
        "jquery_crosscheck_version": jq1,
        "page_errors": errors,
    }
    page.close()
    page_jq1.close()
    return rows, meta


def serve(directory):
    http.server.SimpleHTTPRequestHandler.log_message = lambda *a: None
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=directory)
    srv = socketserver.TCPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def run_mathlive(browser):
    # MathLive fetches its own assets, which Chromium refuses over file://,
    # so it is served from a loopback HTTP server.
    srv = serve(HERE)
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"http://127.0.0.1:{srv.server_address[1]}/ml.html")
    version = page.evaluate("window.mlReady.then(() => MathfieldElement.version)")
    rows = []

    def one(ex, iid, keys, intended, variant):
        toks = [list(t) for t in tokenize(keys)]
        page.evaluate("mlNew()")
        page.click("math-field")
        page.wait_for_timeout(50)
        type_with_keyboard(page, toks, 15)
        page.wait_for_timeout(100)
        kb = page.evaluate("mlRead()")
        api_plain = page.evaluate("([t, s]) => mlApi(t, s)", [toks, False])
        rows.append(
            {
                "exercise": ex,
                "id": iid,
                "keystrokes": keys,
                "keystrokes_variant": variant,
                "tool": "MathLive typed",
                "method": "real key events (Playwright keyboard) into <math-field>",
                "latex": kb["latex"],
                "latex_expanded": kb["latex_expanded"],
                "latex_api_typedText": api_plain["latex"],
                "latex_api_typedText_method": "mf.executeCommand(['typedText', text]) per text run, "
                "mf.executeCommand('moveToNextChar') for <Right>",
                "mode_at_end": kb["mode"],
                "intended": intended,
            }
        )

    for ex, iid, keys, intended in INPUTS:
        one(ex, iid, keys, intended, "as_given")
        adapted = adapt_for_mathlive(keys)
        if adapted != keys:
            one(ex, iid, adapted, intended, "adapted_for_mathlive")
    for ex, iid, latex_in, intended in WRITES:
        page.evaluate("mlNew()")
        page.evaluate("l => { currentMf.value = l; }", latex_in)
        page.wait_for_timeout(50)
        r = page.evaluate("mlRead()")
        rows.append(
            {
                "exercise": ex,
                "id": iid,
                "keystrokes": None,
                "written_latex": latex_in,
                "tool": "MathLive typed",
                "method": "mf.value = latex (not keystrokes)",
                "latex": r["latex"],
                "latex_expanded": r["latex_expanded"],
                "intended": intended,
            }
        )
    meta = {
        "mathlive_version": version,
        "mathlive_npm_version": pkg_version("mathlive"),
        "page_errors": errors,
    }
    page.close()
    srv.shutdown()
    srv.server_close()
    return rows, meta


def annotate(rows, tool):
    """Attach 'meaning' / 'note' from annotations.py (reviewed by hand).
    An output never reviewed is flagged rather than guessed."""
    try:
        import annotations as A
    except ImportError:
        return rows
    for r in rows:
        latex = r["latex"]
        key = (r["id"], latex)
        if key in A.MATCHES:
            r["meaning"] = r["intended"]
            r["matches_intent"] = True
        elif key in A.AMBIGUOUS:
            r["meaning"] = A.AMBIGUOUS[key]
            r["matches_intent"] = "ambiguous"
            r["note"] = "Reading depends on a notation convention; see meaning."
        elif latex in A.DENOTES:
            r["meaning"] = A.DENOTES[latex]
            r["matches_intent"] = False
            r["note"] = (
                A.NOTES.get(key)
                or getattr(A, "NOTES_BY_LATEX", {}).get(latex)
                or ("{}'s LaTeX is not what the learner meant ({}).".format(tool, r["intended"]))
            )
        else:
            r["meaning"] = None
            r["matches_intent"] = None
            r["note"] = "UNREVIEWED output (annotations.py has no reading of this LaTeX)"
        extra = A.EXTRA_NOTES.get((tool, r["id"]))
        if extra:
            r["note"] = (r.get("note", "") + " " + extra).strip()
    return rows


def main():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        mq_rows, mq_meta = run_mathquill(browser)
        ml_rows, ml_meta = run_mathlive(browser)
        chromium_version = browser.version
        browser.close()
    for r in mq_rows:
        r["mathquill_version"] = mq_meta["mathquill_version"]
        r["jquery_version"] = mq_meta["jquery_version"]
        r["chromium_version"] = chromium_version
    for r in ml_rows:
        r["mathlive_version"] = ml_meta["mathlive_version"]
        r["chromium_version"] = chromium_version
    with open(os.path.join(HERE, "raw_mathquill.json"), "w") as f:
        json.dump({"meta": mq_meta, "rows": mq_rows}, f, indent=1, ensure_ascii=False)
    with open(os.path.join(HERE, "raw_mathlive.json"), "w") as f:
        json.dump({"meta": ml_meta, "rows": ml_rows}, f, indent=1, ensure_ascii=False)
    annotate(mq_rows, "MathQuill")
    annotate(ml_rows, "MathLive")
    with open("/tmp/mathquill_out.json", "w") as f:
        json.dump(mq_rows, f, indent=1, ensure_ascii=False)
    with open("/tmp/mathlive_typed_out.json", "w") as f:
        json.dump(ml_rows, f, indent=1, ensure_ascii=False)
    print("MathQuill", mq_meta, len(mq_rows), "rows")
    print("MathLive", ml_meta, len(ml_rows), "rows")
    for rows in (mq_rows, ml_rows):
        print("unreviewed:", sum(1 for r in rows if r.get("matches_intent", None) is None and "meaning" in r))


if __name__ == "__main__":
    main()
