"""A learner's work on the exercise pages, kept in the browser (issue 50): answers and verdicts
survive a reload and Back, can be cleared, mark a verdict out of date when the answer changes,
and the overview page shows each exercise's state. Each test has a browser context of its own
(its own localStorage), in one Chromium."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.xdist_group("browser"), pytest.mark.browser]

LOAD_MS = 120_000
RIGHT = r"\frac{e^2+11}{e^2+2}"
VERDICT = ".symattn-result[data-verdict]"


#: A desktop window, and a phone (390 x 844, touch): every learner test runs on both.
DEVICES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


@pytest.fixture(params=sorted(DEVICES))
def learner(browser, request):
    context = browser.new_context(**DEVICES[request.param])
    yield context
    context.close()


def _check(page, answer: str) -> str:
    page.fill(".symattn-answer", answer)
    page.click(".symattn-check")
    page.wait_for_function(
        "() => { const r = document.querySelector('.symattn-result');"
        " return r.dataset.verdict && !r.closest('[aria-busy]'); }",
        timeout=LOAD_MS,
    )
    return page.get_attribute(".symattn-result", "data-verdict")


def _progress(page) -> dict[str, str]:
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.symattn-progress')]"
        ".map((p) => [p.dataset.exercise, p.dataset.state]))"
    )


def test_a_reload_and_back_keep_the_answer_and_its_verdict(learner, base):
    page = learner.new_page()
    page.goto(base + "exercises/ex6.2/")
    assert _check(page, RIGHT) == "correct"
    page.reload()
    page.wait_for_selector(VERDICT)
    assert page.input_value(".symattn-answer") == RIGHT
    assert page.get_attribute(".symattn-result", "data-verdict") == "correct"
    assert page.get_attribute(".symattn-result", "data-stale") is None
    page.goto(base + "labs/")
    page.go_back()
    page.wait_for_selector(VERDICT)
    assert page.input_value(".symattn-answer") == RIGHT


def test_an_answer_typed_and_not_checked_is_kept_too(learner, base):
    page = learner.new_page()
    page.goto(base + "exercises/ex6.5/")
    page.fill(".symattn-answer", "N > 81")
    page.reload()
    assert page.input_value(".symattn-answer") == "N > 81"
    assert page.get_attribute(".symattn-result", "data-verdict") is None


def test_a_verdict_is_out_of_date_the_moment_the_answer_changes(learner, base):
    page = learner.new_page()
    page.goto(base + "exercises/ex6.2/")
    assert _check(page, "1") == "incorrect"
    page.fill(".symattn-answer", "10")
    assert page.get_attribute(".symattn-result", "data-stale") == "true"
    assert "earlier answer" in page.text_content(".symattn-stale")
    page.reload()  # kept as it was left: the verdict, for another answer than the field's
    page.wait_for_selector(VERDICT)
    assert page.input_value(".symattn-answer") == "10"
    assert page.get_attribute(".symattn-result", "data-stale") == "true"
    assert _check(page, "10") == "incorrect"
    assert page.get_attribute(".symattn-result", "data-stale") is None


def test_the_overview_shows_each_exercises_state_and_clearing_forgets_it(learner, base):
    page = learner.new_page()
    page.goto(base + "exercises/")
    states = _progress(page)
    assert set(states) >= {"ex6.2", "ex6.4", "ex6.5"} and set(states.values()) == {"not tried"}
    page.goto(base + "exercises/ex6.2/")
    assert _check(page, RIGHT) == "correct"
    page.goto(base + "exercises/ex6.5/")
    assert _check(page, "N > 1") == "incorrect"
    page.goto(base + "exercises/")
    states = _progress(page)
    assert states["ex6.2"] == "correct" and states["ex6.5"] == "tried" and states["ex6.4"] == "not tried"
    page.goto(base + "exercises/ex6.2/")
    page.wait_for_selector(VERDICT)
    page.click(".symattn-clear")
    assert page.input_value(".symattn-answer") == ""
    assert page.evaluate("() => Object.keys(localStorage).filter((k) => k.includes(':ex6.2:'))") == []
    page.goto(base + "exercises/")
    assert _progress(page)["ex6.2"] == "not tried"


@pytest.fixture
def served(browser, site):
    """The site on a server of its own (its ``sent`` lists every response) and a new context:
    ``(server, base URL, context)``."""
    from conftest import serve

    server = serve(site)
    context = browser.new_context()
    yield server, f"http://127.0.0.1:{server.server_address[1]}/", context
    context.set_offline(False)
    context.close()
    server.shutdown()


def test_the_work_never_leaves_the_browser(served):
    """Typing, checking and reloading request nothing but the site's own files: no request
    carries the answer."""
    server, url, context = served
    page = context.new_page()
    page.goto(url + "exercises/ex6.5/")
    assert _check(page, "N > 8191") == "incorrect"
    page.reload()
    page.wait_for_selector(VERDICT)
    assert all("8191" not in path and "?" not in path for path, _ in server.sent)


def _shown(page, selector: str) -> bool:
    return page.locator(selector).first.is_visible()


def test_the_answer_is_earned_by_an_attempt_and_the_hint_by_two(learner, base):
    page = learner.new_page()
    page.goto(base + "exercises/ex6.2/")
    assert not _shown(page, ".symattn-earned") and _shown(page, ".symattn-reveal")
    assert not _shown(page, ".symattn-hint")
    page.fill(".symattn-answer", "1")  # typed, not checked: no attempt
    page.reload()
    assert page.input_value(".symattn-answer") == "1" and not _shown(page, ".symattn-earned")
    assert _check(page, "1") == "incorrect"  # the first attempt: the answer box, no hint yet
    assert _shown(page, ".symattn-earned") and not _shown(page, ".symattn-reveal")
    assert not _shown(page, ".symattn-hint")
    assert _check(page, "2") == "incorrect"
    assert _shown(page, ".symattn-hint")
    assert "Hint." in page.inner_text(".symattn-hint") and page.locator(".symattn-hint .katex").count() > 0
    page.goto(base + "exercises/")  # the overview: ex6.2's answer shown, the others' not
    shown = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.symattn-earned')]"
        ".map((b) => [b.dataset.exercise, b.offsetParent !== null]))"
    )
    assert shown["ex6.2"] and not shown["ex6.5"] and not shown["ex6.4"]


def test_an_answer_asked_for_is_shown_after_a_confirmation(learner, base):
    page = learner.new_page()
    page.goto(base + "exercises/ex6.5/")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click(".symattn-reveal")
    assert not _shown(page, ".symattn-earned")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(".symattn-reveal")
    assert _shown(page, ".symattn-earned") and "The answer" in page.inner_text(".symattn-earned")
    page.reload()
    assert _shown(page, ".symattn-earned")


def test_a_site_that_shows_answers_always_shows_them_at_once(learner, base):
    page = learner.new_page()
    page.add_init_script("window.symattn = {answers: 'always'};")  # what extra.symattn.answers writes
    page.goto(base + "exercises/ex6.4/")
    assert _shown(page, ".symattn-earned") and not _shown(page, ".symattn-reveal")


def test_a_site_opened_once_works_offline(served):
    """One visit to an exercise page (its service worker installed, sent what the page loaded),
    then the network gone: the page, its kept work, its checker and its verdicts still work."""
    _, url, context = served
    page = context.new_page()
    page.goto(url + "exercises/ex6.2/")
    assert _check(page, RIGHT) == "correct"
    page.wait_for_function(  # the worker has kept the checker's files and this page
        "async () => { const c = await caches.open('symattn-site-v1'); const keys = await c.keys();"
        " return keys.some((r) => r.url.endsWith('/checker/python.snapshot'))"
        " && keys.some((r) => r.url.endsWith('/exercises/ex6.2/')); }",
        timeout=LOAD_MS,
    )
    context.set_offline(True)
    page.reload()
    page.wait_for_selector(VERDICT)  # the kept work, from localStorage
    assert _check(page, "N") in ("invalid", "incorrect")  # judged: the checker loaded offline
    assert _check(page, RIGHT) == "correct"


@pytest.mark.parametrize(
    ("exercise", "typed"), [("ex6.2", "√3.836"), ("ex6.2", "2×0.98"), ("ex6.5", "N ≥ 8193")]
)
def test_unicode_as_a_learner_types_it_is_read(learner, base, exercise, typed):
    page = learner.new_page()
    page.goto(base + f"exercises/{exercise}/")
    assert _check(page, typed) == "correct"
    assert page.text_content(".symattn-read").startswith("Read as")  # how it was read


def test_a_near_miss_in_the_page_says_how_far_and_the_tolerance(learner, base):
    page = learner.new_page()
    page.goto(base + "exercises/ex6.2/")
    assert _check(page, "1.97") == "incorrect"
    assert "about 0.011 from the expected answer" in page.text_content(".symattn-feedback")
    assert "within 0.01" in page.text_content(".symattn-feedback")


def test_no_request_leaves_the_site(learner, base):
    """A page, its KaTeX and fonts, the checker and a verdict with typeset feedback: every request
    (the Web Worker's and the service worker's included) goes to the site's own server."""
    seen: list[str] = []
    learner.on("request", lambda request: seen.append(request.url))
    page = learner.new_page()
    page.goto(base + "exercises/ex6.3/")
    page.fill(".symattn-answer", "\\operatorname{Var}(z) = d_k^2\n")
    page.click(".symattn-check")
    page.wait_for_selector(VERDICT, timeout=LOAD_MS)
    page.wait_for_load_state("networkidle")
    assert any(url.endswith("/checker/python.snapshot") for url in seen)
    assert [url for url in seen if not url.startswith(base) and not url.startswith("data:")] == []
