"""Derivations as LaTeX, Markdown and text (symattn/present/proof_render.py)."""

from __future__ import annotations

import re

import pytest
import sympy as sp

import derivations
from symattn.present.proof_render import escape_text, to_latex, to_markdown, to_text

NAMES = derivations.NAMES


def test_escape_keeps_inline_math():
    """Specials are escaped in words; $...$ stretches pass through as math."""
    assert escape_text("a_b & 50%") == r"a\_b \& 50\%"
    assert escape_text("rule $d_k^2$ here_") == r"rule $d_k^2$ here\_"


@pytest.mark.parametrize("name", NAMES)
def test_latex_structure(verify, name):
    """LaTeX has one align* per part, every step's justification in \\text{}, balanced braces."""
    d, report = verify(name)
    tex = to_latex(d, report)
    assert tex.count(r"\begin{align*}") == tex.count(r"\end{align*}") >= 1
    assert tex.count(r"\text{") >= len(report.steps)
    assert tex.count("{") - tex.count(r"\{") == tex.count("}") - tex.count(r"\}")
    for r in report.steps:
        assert escape_text(r.step.rule) in tex


def test_symbols_as_the_module_writes_them(verify):
    """d_k, q_i k_i in that order, E[...] and Var(...) print as in the module."""
    d, report = verify("variance_scaling")
    tex = to_latex(d, report)
    assert r"\sum_{i=1}^{d_{k}} q_{i} k_{i}" in tex
    assert r"\mathbb{E}\left[" in tex and r"\operatorname{Var}\left(" in tex
    d2, report2 = verify("attention_by_hand")
    assert r"-\infty" in to_latex(d2, report2)


def test_markdown_blocks_and_check_table(verify):
    """Markdown: $$ alignedat blocks, then a table with one row per step saying how it was checked."""
    d, report = verify("softmax_jacobian")
    md = to_markdown(d, report)
    assert md.count("$$") % 2 == 0 and md.count(r"\begin{alignedat}{2}") == 6
    rows = re.findall(r"^\| (\d+) \|", md, re.M)
    assert [int(r) for r in rows] == list(range(1, len(report.steps) + 1))
    assert "at sizes 2, 3, 4, 5 and 1, chosen by the engine (rank one less than the size)" in md


def test_text_lists_steps_with_labels(verify):
    """Text numbers each chain and shows [rule; check] under every step."""
    d, report = verify("multihead_flops")
    text = to_text(d, report)
    assert text.count("[") >= len(report.steps)
    assert "⟺" in text and "symbolic" in text


def test_text_is_unicode_on_a_line_without_latex(verify):
    """Text: each side on one line in Unicode (a matrix a row to a line, its rows under the
    first); rules and titles in Unicode words; no LaTeX command and no SymPy repr anywhere."""
    d, report = verify("attention_by_hand")
    text = to_text(d, report)
    assert "\\" not in text and "Matrix(" not in text and "Sum(" not in text
    lines = text.splitlines()
    top = lines.index("   1. Q Kᵀ")
    assert lines[top + 1 : top + 3] == ["      = [[-18, 0],", "         [0, 2]]"]
    assert "   6. softmax(1/√2 Q Kᵀ + M)" in lines
    at = lines.index("  A = [[1, 0],")
    assert lines[at + 1] == "       [1/(1 + e^(√2)), e^(√2)/(1 + e^(√2))]]"
    assert "[e^(-∞) = 0; row 1 keeps its only key; symbolic]" in text
    assert "RowSoftmax" not in text
    assert "Scale by √dₖ = √2" in text
    d2, report2 = verify("variance_scaling")
    text2 = to_text(d2, report2)
    assert "𝔼[qᵢ] = 0" in text2 and "\\mathbb" not in text2
    assert "Sum(" not in text2 and "∑ᵢ₌₁^dₖ 𝔼[qᵢ kᵢ]" in text2


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"\mathbb{E}[q_i^2] = \operatorname{Var}(q_i) = 1", "𝔼[qᵢ²] = Var(qᵢ) = 1"),
        (r"\tfrac14 - p(1-p) = (p - \tfrac12)^2", "1/4 - p(1-p) = (p - 1/2)²"),
        (r"A = \operatorname{softmax}(\tilde{Z})", "A = softmax(Z̃)"),
        (r"d_k = d_{\text{model}} / h", "dₖ = d_model / h"),
        (r"e^{-9\sqrt{2}}", "e^(-9√2)"),
        (r"\frac{S}{\sqrt{d_k}}", "S/√dₖ"),
    ],
)
def test_latex_rules_read_as_unicode(latex, text):
    """The rules' inline LaTeX reads as Unicode text (hand-written expectations)."""
    from symattn.unicode_text import to_unicode

    assert to_unicode(latex) == text



# -- every page as a reader sees it -------------------------------------------------------------
# The pages `symattn build` writes for the derivations (docs/derivations/*.md and
# docs/latex/derivations.tex), made here from the code for every derivation of derivations.NAMES.


@pytest.fixture(scope="module")
def pages(verify):
    """{name: Markdown page} for every derivation, and the LaTeX document of them all."""
    from symattn.build.site import _latex_document

    reports = {name: verify(name) for name in NAMES}
    markdown = {name: to_markdown(d, r, stable=True) for name, (d, r) in reports.items()}
    return markdown, _latex_document(reports)


def _all_pages(pages):
    markdown, tex = pages
    return [*markdown.items(), ("derivations.tex", tex)]


_DISPLAY = re.compile(r"\$\$(.*?)\$\$|\\begin\{align\*\}(.*?)\\end\{align\*\}", re.S)


def _displays(text: str) -> list[str]:
    return [a or b for a, b in _DISPLAY.findall(text)]


def _inline(text: str) -> list[str]:
    """The $...$ stretches outside display math."""
    return re.findall(r"\$([^$]+)\$", _DISPLAY.sub(" ", text))


def _without_math(text: str) -> str:
    """The prose: display math dropped, each inline stretch of math replaced by one symbol."""
    return re.sub(r"\$[^$]+\$", "\u2218", _DISPLAY.sub(" ", text))


def _strip_group(tex: str, command: str) -> str:
    """``tex`` without ``\\command{...}`` groups (their braces matched)."""
    out, k = [], 0
    while (at := tex.find("\\" + command + "{", k)) >= 0:
        out.append(tex[k:at])
        depth, j = 0, at + len(command) + 1
        while j < len(tex):
            depth += {"{": 1, "}": -1}.get(tex[j], 0)
            j += 1
            if depth == 0:
                break
        k = j
    return "".join(out) + tex[k:]


#: Plain-ASCII math in prose: a subscript, a power, a bar, a relation, sqrt, a fraction, "n - 1",
#: a negative number, a backslash (escaped LaTeX), or a lone letter other than "a", "A" or "I"
#: (a variable left as a letter).
ASCII_MATH = re.compile(
    r"[_^|=<>\\]|\bsqrt\b|\b\w+ [-+*/] \w+\b|\d/\d|(?<![\w-])-\d|(?<![\w'\u2019-])[B-HJ-Zb-z](?![\w'\u2019-])"
)


def test_the_ascii_math_pattern_finds_each_defect_the_issue_names():
    """The detector itself, on the prose readers saw (issue 28) and on prose that is fine."""
    for bad in [
        "Why divide by the square root of d_k",
        "Given q, a score is normal with variance |q|^2",
        "Positive semidefinite, rank n - 1",
        "Entries at most 1/4; saturation",
        "The general argument, for any N and any widths",
        r"If q\_i, k\_i are independent",
        "the module's row [-12.73, 0]",
    ]:
        assert ASCII_MATH.search(bad), bad
    for fine in ["A typical score has size \u2218", "Multi-head attention and its cost", "token 2's output"]:
        assert not ASCII_MATH.search(fine), fine


def _prose_lines(name: str, text: str) -> list[str]:
    """The title, headings, theorem, assumptions and step rules of a page, math removed."""
    if name.endswith(".tex"):
        lines = re.findall(r"^\\(?:subsection\*|paragraph)\{(.*)\}$", text, re.M)
        lines += re.findall(r"^\\noindent\\textbf\{Theorem\.\} (.*)$", text, re.M)
        lines += re.findall(r"^\\noindent Assumptions: (.*)$", text, re.M)
    else:
        lines = re.findall(r"^#+ (.*)$", text, re.M)
        lines += re.findall(r"^> \*\*Theorem\.\*\* (.*)$", text, re.M)
        lines += re.findall(r"^- (.*)$", text.split("Notation:")[0].split("\n## ")[0], re.M)
        lines += [row.split(" | ")[1] for row in re.findall(r"^\| \d+ \| .*$", text, re.M)]
    return [_without_math(line) for line in lines]


def test_titles_headings_and_statements_have_their_math_typeset(pages):
    """Every title, heading, theorem, assumption and rule has its math in $...$: no d_k,
    |q|^2, n - 1 or lone variable letter left in the words."""
    found = [
        (name, line)
        for name, text in _all_pages(pages)
        for line in _prose_lines(name, text)
        if ASCII_MATH.search(line)
    ]
    assert found == []


def _words_in_math(tex: str) -> list[str]:
    for command in ("text", "operatorname", "mathrm", "mathbb", "mathcal", "mathbf", "begin", "end", "tag"):
        tex = _strip_group(tex, command)
    # A run of three letters or more with a lower-case one: a word (PXW is a product of matrices).
    runs = re.findall(r"[A-Za-z]{3,}", re.sub(r"\\[A-Za-z]+", " ", tex))
    return [run for run in runs if re.search("[a-z]", run)]


def test_no_english_word_is_set_in_math_italics(pages):
    """Words inside math are in \\text (or an operator name): no "the" or "case" as a product of
    italic letters, no d_{model}, no cost(projections)."""
    found = [
        (name, word, math[:80])
        for name, text in _all_pages(pages)
        for math in _displays(text) + _inline(text)
        for word in _words_in_math(math)
    ]
    assert found == []
    assert _words_in_math(r"1 (the standard case)") == ["the", "standard", "case"]
    assert _words_in_math(r"d_{model} \operatorname{cost}(\text{scores})") == ["model"]


def _rows(block: str) -> list[str]:
    block = re.sub(r"\\(?:begin|end)\{(?:align\*|alignedat)\}(?:\{2\})?", "", block)
    return [row.strip() for row in block.split("\\\\\n")]


_DECIMAL = re.compile(r"(-?[\d.]+)(?: \\times 10\^\{(-?\d+)\})?")


def test_approx_only_between_values_that_differ(pages):
    """Every ``\\approx`` on every page stands between a value and a decimal it is not equal to
    (read back from the page and compared at 60 digits): an exact value is written with =."""
    from symattn.grading.answers.parsing import read_latex

    seen = 0
    for name, text in _all_pages(pages):
        for block in _displays(text):
            for row in _rows(block):
                if r"\approx" not in row:
                    continue
                row = re.sub(NUMBER.pattern + r"|&&.*$", "", row)
                left, right = (side.replace("&", "").strip() for side in row.split(r"\approx"))
                assert left, f"{name}: a figure without its left side in the same row: {row}"
                mantissa, power = _DECIMAL.fullmatch(right).groups()
                stated = sp.Rational(mantissa) * 10 ** int(power or 0)
                value = read_latex(left)
                gap = abs(sp.N(value - stated, 60))
                exact = f"{name}: {left} is exactly {right}: write =, not \\approx"
                assert gap > 10**-40 * abs(stated), exact
                seen += 1
    shown = sum(block.count(r"\approx") for _, text in _all_pages(pages) for block in _displays(text))
    assert seen == shown > 0  # every \approx the pages display was read back, none passed over


@pytest.mark.parametrize(
    ("pairs", "symbol"),
    [
        ((r"\^\{?T\}?(?![A-Za-z])", r"\^\{?\\top\}?"), "transpose"),
        ((r"\\operatorname\{E\}", r"\\mathbb\{E\}"), "expectation"),
        ((r"(?<![A-Za-z])\|\s*q\s*\|", r"\\lVert q \\rVert"), "norm of q"),
        ((r"(?<!\\mathcal\{)(?<![A-Za-z])N\(0", r"\\mathcal\{N\}\(0"), "normal law"),
    ],
)
def test_one_notation_per_symbol_across_the_pages(pages, pairs, symbol):
    """Each symbol is written one way on all the pages together (p^\\top, never also p^T)."""
    text = "\n".join(t for _, t in _all_pages(pages))
    used = [p for p in pairs if re.search(p, text)]
    assert len(used) <= 1, f"two notations for the {symbol}: {used}"


#: A step's number beside it: an equation number (LaTeX), or the last column of its row (a page).
NUMBER = re.compile(r"\\tag\{(\d+)\}|&\\qquad& \\text\{\((\d+)\)\}$")


def _tagged_rules(block: str) -> list[tuple[int, str]]:
    """(step number, its rule) for each numbered row of a Markdown block: the rule is the small
    text on the rows that follow the numbered row."""
    out: list[tuple[int, list[str]]] = []
    for row in _rows(block):
        tag = NUMBER.search(row)
        rule = re.fullmatch(r"&\\qquad\{\\small\\text\{(.*)\}\}", row)
        if tag:
            out.append((int(tag.group(1) or tag.group(2)), []))
        elif rule and out:
            out[-1][1].append(rule.group(1))
    return [(n, " ".join(parts)) for n, parts in out]


def test_each_step_is_numbered_beside_itself_as_in_the_checks_table(pages, verify):
    """On each page every step carries its number (\\tag), in order, and the rule under number
    n is the justification the checks table gives for step n; the LaTeX document numbers every
    step beside its rule; the text of `symattn derive` numbers every step, a continued one too."""
    markdown, tex = pages
    for name, page in markdown.items():
        steps = len(verify(name)[1].steps)
        rows = re.findall(r"^\| (\d+) \| (.*?) \| ", page, re.M)
        table = {int(n): why.replace("\\|", "|") for n, why in rows}
        tagged = [pair for block in _displays(page) for pair in _tagged_rules(block)]
        assert [n for n, _ in tagged] == list(range(1, steps + 1)) == sorted(table), name
        assert [(n, table[n]) for n, _ in tagged] == tagged, name
    for part in tex.split("% symattn derivation ")[1:]:
        name = part.split(":")[0]
        d, report = verify(name)
        rows = re.findall(r"&& \\text\{(.*)\} \\tag\{(\d+)\}", part)
        assert [int(n) for _, n in rows] == list(range(1, len(report.steps) + 1)), name
        rules = [escape_text(r.step.rule) for r in report.steps]
        assert all(text.startswith(rule) for (text, _), rule in zip(rows, rules, strict=True)), name
    for name in NAMES:
        d, report = verify(name)
        numbers = re.findall(r"^ +(\d+)\. ", to_text(d, report), re.M)
        assert [int(n) for n in numbers] == list(range(1, len(report.steps) + 1)), name


def test_the_theorem_is_typeset_in_every_format(pages, verify):
    """The theorem is typeset math in the LaTeX document and on the page (its math in $...$, no
    ASCII math in its words), and Unicode in the text of `symattn derive` (no LaTeX, no d_k)."""
    markdown, tex = pages
    theorems = re.findall(r"^\\noindent\\textbf\{Theorem\.\} (.*)$", tex, re.M)
    assert len(theorems) == len(NAMES)
    for theorem in theorems:
        assert "$" in theorem and not ASCII_MATH.search(_without_math(theorem)), theorem
    for name, page in markdown.items():
        (theorem,) = re.findall(r"^> \*\*Theorem\.\*\* (.*)$", page, re.M)
        assert "$" in theorem and not ASCII_MATH.search(_without_math(theorem)), name
    for name in NAMES:
        d, report = verify(name)
        (line,) = [x for x in to_text(d, report).splitlines() if x.startswith("Theorem. ")]
        # (A subscript with no Unicode form, d_model, stays as it is.)
        assert not re.search(r"[$\\{}]|[A-Za-z]_[A-Za-z0-9](?![A-Za-z])|sqrt", line), line


def _sums_led_by_a_minus(tex: str) -> list[str]:
    """Each sum in ``tex`` that starts with a minus sign though a later term of the same sum has
    none (SymPy's -p - r + 1 where a person writes 1 - p - r)."""
    found = []
    for start in re.finditer(r"(?:[({&=]|\\left\(|\\\\)\s*-\s", tex):
        depth, k = 0, start.end()
        while k < len(tex):
            c = tex[k]
            if c in "({[":
                depth += 1
            elif c in ")}]" or (depth == 0 and (c == "&" or tex.startswith("\\\\", k))):
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and tex.startswith(" + ", k):
                found.append(tex[start.start() : k + 12])
                break
            k += 1
    return found


def test_sums_start_as_a_person_writes_them(pages):
    """No sum on any page starts with a minus sign where one of its terms has none: 1 - p - r,
    E[(q_i k_i)^2] - (E[q_i k_i])^2, 2 e^{\\sqrt{2}} - 1, not SymPy's order of terms."""
    found = [
        (name, sum_)
        for name, text in _all_pages(pages)
        for math in _displays(text) + _inline(text)
        for sum_ in _sums_led_by_a_minus(math)
    ]
    assert found == []
    assert _sums_led_by_a_minus(r"p \left(- p - r + 1\right)") != []
    assert _sums_led_by_a_minus(r"&= - \mathbb{E}\left[q_{i}\right]^{2} + \mathbb{E}\left[k_{i}\right]") != []
    assert _sums_led_by_a_minus(r"\left(1 - p - r\right) = - 9 \sqrt{2}") == []


def test_each_term_of_a_long_sum_prints_as_itself():
    r"""A long sum is shown over several rows, term by term (proof_render._split_terms), so each
    term's LaTeX must mean the term. Read back by latex2sympy (each symbol's LaTeX renamed
    x_{0}, x_{1}, ... in the text, so the reader knows them) and evaluated at a point,
    each term of every derivation's sums equals the term; ``-(d m_q m_k)^2`` once printed as
    ``-(d m_q m_k) \cdot 2``."""
    import random

    from latex2sympy2 import latex2sympy

    from symattn.proof.latex import latex, printed_terms

    checked, wrong = 0, []
    for name in derivations.NAMES:
        for step in derivations.load(name).steps:
            value = step.shown_rhs if step.shown_rhs is not None else step.rhs
            for term in printed_terms(value) or []:
                if term.has(sp.Sum):  # its index is bound: renamed as a free symbol it would not be
                    continue
                tex, names = latex(term), sorted(term.free_symbols, key=lambda x: -len(latex(x)))
                for k, x in enumerate(names):
                    tex = re.sub(rf"(?<![\\A-Za-z]){re.escape(latex(x))}(?![A-Za-z_])", f"x_{{{k}}}", tex)
                try:
                    read = latex2sympy(tex)
                except Exception:  # an operator the reader lacks (E, Var): not this check's
                    continue
                rng = random.Random(1)
                point = [sp.Integer(rng.randint(2, 9)) for _ in names]  # whole: a sum's bound too
                if {str(x) for x in read.free_symbols} - {f"x_{k}" for k in range(len(names))}:
                    continue
                checked += 1
                meant = term.doit().subs(dict(zip(names, point, strict=True)))
                shown = read.subs({x: point[int(str(x)[2:])] for x in read.free_symbols}).doit()
                if sp.simplify(meant - shown) != 0:
                    wrong.append((name, latex(term)))
    assert (checked, wrong) == (17, [])  # 17 terms read back (the rest hold E, Var or a sum)


def test_a_product_built_with_a_leading_minus_prints_what_it_holds():
    """The printer keeps an unevaluated product's factors in order; after a leading -1 the rest is
    one factor (a power of a product, a sum) or several, each printed whole."""
    from symattn.proof.latex import latex

    d, m, n = sp.symbols("d m n")
    square = sp.Pow(sp.Mul(d, m, evaluate=False), 2, evaluate=False)
    assert latex(sp.Mul(-1, square, evaluate=False)) == r"- \left(d m\right)^{2}"
    assert latex(sp.Mul(-1, sp.Add(d, m, evaluate=False), evaluate=False)) == r"- \left(d + m\right)"
    assert latex(sp.Mul(-1, d, n, evaluate=False)) == "- d n"


def test_the_terminal_shows_every_derivations_statements_in_unicode():
    r"""`symattn derive NAME` prints the title, theorem and assumptions with their math as Unicode:
    no LaTeX command name survives (\mathcal{N} once printed as "mathcalN")."""
    for name in derivations.NAMES:
        d = derivations.load(name)
        head = to_text(d, d.verify())
        assert not re.search(r"mathcal|mathbb|operatorname|\\[A-Za-z]|\$", head), (name, head)
