"""The exercise pages on a phone and from the keyboard (issue 50): at 390 x 844 nothing scrolls
sideways, a proof's feedback included; our controls are 44 px tap targets; the first Tab reaches
a skip link to the answer field; the focus ring has 3:1 contrast against the page; the preview
takes no focus; dark mode follows the system; print keeps the answer and its verdict; axe-core
finds no serious violation of WCAG 2.2 AA."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = [pytest.mark.xdist_group("browser"), pytest.mark.browser]

LOAD_MS = 120_000
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
#: A wrong proof of ex6.3: both lines get long feedback (the counterexample), the widest result.
WRONG = "\\operatorname{Var}(z) = \\sum_{i=1}^{d_k} \\operatorname{Var}(q_i k_i) = d_k^2 \\cdot 1\n= d_k\n"


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def _checked(page, text: str) -> None:
    page.fill(".symattn-answer", text)
    page.click(".symattn-check")
    page.wait_for_selector(".symattn-result[data-verdict]", timeout=LOAD_MS)


def _tab_to_check(page) -> list[str]:
    """Tab presses from the answer field to the Check button; what was focused on the way."""
    page.focus(".symattn-answer")
    passed = []
    for _ in range(10):
        if page.evaluate("() => document.activeElement.classList.contains('symattn-check')"):
            return passed
        passed.append(page.evaluate("() => String(document.activeElement.className)"))
        page.keyboard.press("Tab")
    raise AssertionError(f"the Check button was not reached: {passed}")


def _luminance(rgb: str) -> float:
    """WCAG's relative luminance of a CSS rgb()/rgba() colour."""
    parts = [float(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    lin = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_a_proofs_feedback_on_a_phone_does_not_scroll_sideways(phone, base):
    phone.goto(base + "exercises/ex6.3/")
    _checked(phone, WRONG)
    assert phone.get_attribute(".symattn-result", "data-verdict") == "incorrect"
    assert phone.locator(".symattn-step-feedback").count() >= 2
    sizes = phone.evaluate(
        "() => ({page: document.scrollingElement.scrollWidth, view: document.scrollingElement.clientWidth,"
        " feedback: Math.max(...[...document.querySelectorAll('.symattn-step-feedback')]"
        ".map((td) => td.getBoundingClientRect().right))})"
    )
    assert sizes["page"] <= sizes["view"] and sizes["feedback"] <= sizes["view"], sizes


@pytest.mark.parametrize("exercise", ["ex6.2", "ex6.3"])
def test_every_control_of_the_checker_is_a_44_pixel_target(phone, base, exercise):
    phone.goto(base + f"exercises/{exercise}/")
    small = phone.evaluate(
        "() => [...document.querySelectorAll("
        "'.symattn-checker button, .symattn-gate button, details > summary')]"
        ".filter((e) => e.offsetParent !== null)"
        ".map((e) => [e.className || e.tagName, e.getBoundingClientRect()])"
        ".filter(([, r]) => r.height < 44 || r.width < 44).map(([name]) => name)"
    )
    assert small == []


def test_the_first_tab_skips_to_the_answer_field(browser, base):
    page = browser.new_page()
    page.goto(base + "exercises/ex6.2/")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Skip to the answer field"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "answer-ex6.2"
    page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_stands_out_and_the_scheme_follows_the_system(browser, base, scheme):
    page = browser.new_page(color_scheme=scheme)
    page.goto(base + "exercises/ex6.2/")
    assert page.get_attribute("body", "data-md-color-scheme") == ("slate" if scheme == "dark" else "default")
    _tab_to_check(page)  # the Check button focused by keyboard
    ring, ground = page.evaluate(  # the ring against the page's own background
        "() => [getComputedStyle(document.activeElement).outlineColor,"
        " getComputedStyle(document.body).backgroundColor]"
    )
    assert _contrast(ring, ground) >= 3, (ring, ground)
    page.close()


def test_the_preview_takes_no_focus(browser, base):
    page = browser.new_page()
    page.goto(base + "exercises/ex6.3/")
    page.fill(".symattn-answer", "x = " + " + ".join(["y"] * 300))  # a preview wider than the page
    passed = _tab_to_check(page)
    assert not any("symattn-preview" in name for name in passed), passed
    page.close()


def test_print_keeps_the_answer_and_its_verdict(browser, base):
    page = browser.new_page()
    page.goto(base + "exercises/ex6.5/")
    _checked(page, "N > 8191")
    page.emulate_media(media="print")
    assert page.locator(".symattn-answer").is_visible() and page.locator(".symattn-result").is_visible()
    assert not page.locator(".symattn-check").is_visible()
    page.close()


AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: WCAG 2.2 AA, as axe-core tags its rules.
AXE_RUN = (
    "async () => (await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', "
    "'wcag22aa']})).violations.filter((v) => ['serious', 'critical'].includes(v.impact))"
    ".map((v) => [v.id, v.nodes.map((n) => n.target.join(' '))])"
)


@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
@pytest.mark.parametrize(
    ("path", "answer"), [("exercises/ex6.2/", "1"), ("exercises/ex6.3/", WRONG), ("exercises/", "")]
)
def test_axe_finds_no_serious_violation(browser, base, viewport, path, answer):
    """axe-core (npm, pinned in package-lock.json) on the pages a learner uses, with a verdict
    and its feedback shown, the earned boxes open."""
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.goto(base + path)
    if answer:
        _checked(page, answer)
    page.wait_for_load_state("networkidle")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(AXE_RUN) == []
    page.close()
