"""Reading a module's text (symattn/grading/audit/document.py): math found wherever its
delimiters stand, and what cannot be read said, never dropped. Each text is written here by
hand with one wrong claim whose line the audit must name."""

from __future__ import annotations

import pytest

from symattn.grading.audit.document import read, rows
from symattn.grading.audit.keys import audit_claims


def _verdicts(text: str) -> list[tuple[int, str, str]]:
    return [(c.line, c.text, c.verdict) for c in audit_claims(text)]


def _wrong_lines(text: str) -> list[int]:
    return [c.line for c in audit_claims(text) if c.verdict == "wrong"]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("We have \\(2 + 2 = 5\\) here.\n", 1),  # LaTeX's inline delimiters
        ("We have \\\\(2 + 2 = 5\\\\) here.\n", 1),  # as MathJax in Markdown escapes them
        ("So\n\\[2 + 2 = 5\\]\nand more.\n", 2),
        ("So\n\\\\[2 + 2 = 5\\\\]\nand more.\n", 2),
        ("Text $$3 \\times 4 = 13$$ and more.\n", 1),  # a display inside a line of text
        ("The sum\n$2 +\n2 = 5$ is wrong.\n", 2),  # inline math wrapped over two lines
        ("Run `a $ b` then $1 + 1 = 3$.\n", 1),  # a dollar in a code span is no math
        ("It costs \\$5, and $1 + 1 = 3$.\n", 1),  # nor is an escaped dollar
    ],
)
def test_math_is_read_in_every_delimiter_authors_use(text, line):
    assert _wrong_lines(text) == [line], _verdicts(text)


def test_a_display_closed_at_the_end_of_a_line_no_longer_hides_what_follows():
    """Issue 47: `\\end{aligned}$$` closing a display on a line of its own text was never seen
    as the close, and everything after it was dropped without a word."""
    text = "Intro.\n\n$$\n\\begin{aligned}\nx &= 1 + 1 \\\\\n  &= 2\n\\end{aligned}$$\n\nThen $2 + 2 = 5$.\n"
    verdicts = _verdicts(text)
    assert (5, "⟨x = 1 + 1 = 2⟩", "certified") in verdicts  # the aligned rows as one chain, at x's line
    assert _wrong_lines(text) == [9]


def test_a_display_that_closes_mid_line_keeps_the_text_after_it():
    text = "$$1 + 1 = 2$$ and then $3 + 3 = 7$.\n"
    assert [v for _, _, v in _verdicts(text)] == ["certified", "wrong"]


@pytest.mark.parametrize(
    ("text", "line", "why"),
    [
        ("Start.\n\n$$\n1 + 1 = 3\n", 3, "display math opened here is not closed in its paragraph"),
        ("One $1 + 1 =\n\nnew paragraph.\n", 1, "an inline formula opened here is not closed"),
        ("Last line $1 + 1 = 3\n", 1, "not closed"),
    ],
)
def test_what_cannot_be_read_is_reported_with_its_line(text, line, why):
    doc = read(text)
    assert [n for n, _, _ in doc.unread] == [line] and why in doc.unread[0][1]
    claims = [c for c in audit_claims(text) if c.rule.startswith("not read")]
    assert [(c.line, c.verdict) for c in claims] == [(line, "unchecked")]


def test_a_display_opened_alone_on_its_line_is_numbered_from_its_first_row():
    doc = read("$$\n1 + 1 = 2\n$$\n")
    assert [(x.number, x.kind) for x in doc.lines if x.kind == "math"] == [(2, "math")]


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        (r"\begin{aligned} a &= b \\ &= c \end{aligned}", ["a = b = c"]),
        (r"\begin{align*} a &= 1 \\ b &= 2 \tag{3} \end{align*}", ["a = 1", "b = 2"]),
        (r"\begin{aligned} a &\le b \\[2pt] &< c \end{aligned},", ["a \\le b < c"]),
        ("x = 1", ["x = 1"]),
    ],
)
def test_aligned_rows_are_formulas_and_continued_rows_are_one_chain(tex, expected):
    assert [" ".join(r.split()) for r in rows(tex)] == expected


_LATER = "Then $2 + 2 = 5$.\n\n# Later\n\nAnd $3 + 3 = 7$.\n"


@pytest.mark.parametrize(
    ("text", "wrong", "unread"),
    [
        # review: a display never closed hid the rest of the text, across headings (exit 0)
        ("The weights lie in \\[0, 1) after dropout.\n\n" + _LATER, [3, 7], [1]),
        ('~~~\ncost = "$$"\n~~~\n\nThen $2 + 2 = 5$.\n', [5], []),  # a ~~~ fence is code too
        ("GPUs cost $5 an hour.\n```\nx = 1\n```\nThen $2 + 2 = 5$.\n", [5], [1]),  # a fence ends a $
        ("An open $5 here.\n## Heading\nThen $2 + 2 = 5$.\n", [3], [1]),  # and so does a heading
    ],
)
def test_a_formula_left_open_never_hides_what_follows(text, wrong, unread):
    assert _wrong_lines(text) == wrong, _verdicts(text)
    assert [c.line for c in audit_claims(text) if c.rule.startswith("not read")] == unread


def test_claims_keep_their_own_lines():
    """Review: the rest of a line where a wrapped formula closes, and each row of an aligned
    display, were reported at the line where the formula or display opened."""
    aligned = "$$\n\\begin{aligned}\nx &= 1 + 1 \\\\\ny &= 3 + 3 \\\\\n  &= 7\n\\end{aligned}\n$$\n"
    text = "We have $a = b +\nc$ and then on this line $2 + 2 = 5$.\n\n" + aligned
    assert _wrong_lines(text) == [2, 7], _verdicts(text)  # y's row is on line 7 (review: it was 6)


def test_a_row_that_goes_on_with_a_sum_is_not_a_formula_of_its_own():
    """Review: a row starting with + (after \\quad) was read alone, '+ 4 = 10', and flagged."""
    text = "$$\n\\begin{aligned}\ns &= 1 + 2 + 3 \\\\\n  &\\quad + 4 \\\\\n  &= 10\n\\end{aligned}\n$$\n"
    assert [(v, t) for _, t, v in _verdicts(text)] == [("certified", "⟨s = 1 + 2 + 3 + 4 = 10⟩")]


def test_a_claim_before_a_formula_left_open_is_read_once():
    text = "Here $1 + 1 = 3$ and \\[ 2 + 2 = 4\n\nThen $3 + 3 = 7$.\n"
    assert _wrong_lines(text) == [1, 3], _verdicts(text)


def test_a_claim_in_a_formula_wrapped_over_lines_stands_on_each_of_them():
    """A formula opened on one line and closed on the next is read where it opens, and its claim
    runs to the line it closes on: the report says ``1–2`` (an error written on line 2 is there)."""
    from symattn.grading.audit.keys import audit_module
    from symattn.present.audit_render import audit_text_report

    text = "The sum $2 +\n2 = 5$ is wrong, and $1 + 1 = 2$ is not.\n"
    result = audit_module(text)
    wrong = [c for c in result.claims if c.verdict == "wrong"]
    assert [(c.line, c.through) for c in wrong] == [(1, 2)]
    assert result.lines_spanned(wrong[0]) == ["1", "2"] and result.lines_of(wrong[0]) == "1–2"
    assert result.place_of(wrong[0]) == "line 1–2"  # as the command's message on stderr says it
    assert [c.through for c in result.claims if c.verdict == "certified"] == [0]  # on line 2 alone
    assert "1–2" in audit_text_report(result)
    assert wrong[0].as_dict()["through"] == 2


@pytest.mark.parametrize(
    ("html", "read_as"),
    [
        # the JAX scaling book's summary table: a power in HTML inside a run of letters
        ("| Attention | 4DNH | 24BTDNH + 12BT<sup>2</sup>NH |", "| Attention | 4DNH | 24BTDNH + 12BT^2NH |"),
        ("We have x<sub>i</sub> and k<sup>T</sup>.", "We have x_i and k^T."),
        ("Then x<sup>10</sup> is large.", "Then x^{10} is large."),
        # after a word, or in brackets, a number in <sup> is a footnote mark: dropped
        ("This method<sup>2</sup> works.", "This method works."),
        ("See the paper<sup>[3]</sup>.", "See the paper."),
    ],
)
def test_html_superscripts_and_subscripts_are_math_unless_footnote_marks(html, read_as):
    assert [x.text for x in read(html + "\n").lines] == [read_as]


@pytest.mark.parametrize("abbreviation", ["e.g.", "i.e.", "cf.", "vs."])
def test_a_sentence_runs_on_past_an_abbreviation(abbreviation):
    line = read(f"We switch two inputs, {abbreviation} the first two, and the output is permuted.\n").lines[0]
    assert line.sentences() == [(0, len(line.text))]
