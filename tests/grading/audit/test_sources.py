"""The texts an audit reads (symattn/grading/audit/sources.py): Jupyter notebooks through nbformat,
LaTeX through pylatexenc, each claim reported where its author wrote it. Texts written here by
hand; the public texts the audit is measured on are in test_corpus.py."""

from __future__ import annotations

import json

import nbformat
import pytest
from hypothesis import given
from hypothesis import strategies as st

from symattn.errors import InputError
from symattn.grading.audit.keys import audit_module
from symattn.grading.audit.sources import kind_of, latex_to_markdown, read_source

HEADS = "We use $h = 8$ heads and $d_{model} = 512$."


def _verdicts(source) -> list[tuple[str, str, str]]:
    audit = audit_module(source)
    return [(audit.where(c.line), c.verdict, c.text) for c in audit.claims]


def _unread(audit) -> list[int]:
    """The lines where the audit says it could not read a formula."""
    return [c.line for c in audit.claims if c.rule.startswith("not read")]


def _notebook(*cells: tuple[str, str]) -> str:
    nb = nbformat.v4.new_notebook()
    make = {"markdown": nbformat.v4.new_markdown_cell, "code": nbformat.v4.new_code_cell}
    nb.cells = [make[kind](text) for kind, text in cells]
    return nbformat.writes(nb)


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("a.ipynb", "notebook"),
        ("dir.x/B.TEX", "latex"),
        ("c.ltx", "latex"),
        ("d.md", "markdown"),
        ("e", "markdown"),
    ],
)
def test_the_kind_of_text_is_its_extension(path, kind):
    assert kind_of(path) == kind


# -- notebooks ---


def test_a_notebooks_markdown_cells_are_read_and_its_claims_located_by_cell():
    text = _notebook(
        ("markdown", f"# Heads\n\n{HEADS}"),
        ("code", "width = 512 // 8  # 12 * 64 = 640, never read: code\nprint(width)"),
        ("markdown", "Each head has width\n$d_{model}/h = 32$, and $12 \\times 64 = 768$."),
    )
    got = _verdicts(read_source(text, "notebook"))
    assert [(where, verdict) for where, verdict, _ in got] == [
        ("cell 3, line 2", "wrong"),  # the premise is two cells up
        ("cell 3, line 2", "certified"),
    ]


def test_a_notebook_on_the_command_line(cli, tmp_path):
    path = tmp_path / "attention.ipynb"
    path.write_text(_notebook(("markdown", HEADS), ("markdown", "So $d_{model}/h = 32$.")))
    code, out, err = cli("audit", str(path))
    assert code == 1
    assert err == "symattn: wrong: cell 2, line 1: d_model/h = 32: true value 64\n"
    code, out, _ = cli("audit", str(path), "--json")
    doc = json.loads(out)
    assert doc["kind"] == "notebook" and [c["where"] for c in doc["claims"]] == ["cell 2, line 1"]


@pytest.mark.parametrize(
    "content",
    ['{"cells": 3}', "not json at all", '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}}'],
)
def test_a_file_that_is_no_notebook_is_one_line_exit_2(cli, tmp_path, content):
    path = tmp_path / "broken.ipynb"
    path.write_text(content)
    code, out, err = cli("audit", str(path))
    assert code == 2 and out == ""
    assert err.startswith(f"symattn: error: {path}: not a Jupyter notebook nbformat reads: ")
    assert err.count("\n") == 1


# -- LaTeX ---

LATEX = r"""\documentclass{article}
\newcommand{\dmodel}{d_{\text{model}}}
\begin{document}
\section{Heads}
We use $h=8$ heads and $\dmodel = 512$, as in \cite{vaswani2017}.
Each head has width \(\dmodel/h = 32\). % a comment: 2 + 2 = 5 is never read
\begin{equation}
  d_k = \dmodel / h = 64 \label{eq:width}
\end{equation}
\begin{align}
  12 \times 64 &= 700 \\
               &= 768
\end{align}
\includegraphics[width=0.8\textwidth]{figure3.png}
\begin{tabular}{lc}
Quantity & Value \\ \hline
Product & $12 \times 64 = 786$ \\
\end{tabular}
Text\footnote{In a note, $2^{10} = 1000$.} and \[ 3 \cdot 7 = 21 \]
\end{document}
"""


def test_latex_math_in_every_form_is_read_at_its_source_line():
    got = _verdicts(read_source(LATEX, "latex"))
    assert sorted((int(where), verdict) for where, verdict, _ in got) == [
        (6, "wrong"),  # \( ... \) with the macro \dmodel expanded, after the givens of line 5
        (8, "certified"),  # an equation, its \label dropped
        (11, "wrong"),  # an align's first row ...
        (17, "wrong"),  # a tabular row, read as a table row
        (19, "certified"),  # \[ ... \]
        (19, "wrong"),  # a footnote's math
    ]


def test_latex_markup_is_never_a_claim():
    """\\cite keys, \\includegraphics options, comments and the preamble carry no claim."""
    text = latex_to_markdown(LATEX)
    assert "2017" not in text and "0.8" not in text and "2 + 2" not in text and "figure3" not in text
    assert text.count("\n") == LATEX.count("\n")


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("Text \\input{chapter1} and $x$.\n", "line 1: \\input{chapter1}: the audit reads one file"),
        ("A\n\\include{part2}\n", "line 2: \\include{part2}: the audit reads one file"),
        ("Text {unbalanced $x$\n", "not LaTeX pylatexenc reads: "),
    ],
)
def test_latex_it_cannot_read_whole_is_refused_in_one_line(cli, tmp_path, content, says):
    path = tmp_path / "notes.tex"
    path.write_text(content)
    code, out, err = cli("audit", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"symattn: error: {path}: {says}") and err.count("\n") == 1
    with pytest.raises(InputError):
        read_source(content, "latex")


_PIECES = st.sampled_from(
    [
        "text ", "$x = 1$", "\\(a\\)", "\\[b\\]", "\n", "\n\n", "% note\n", "\\emph{word}",
        "\\section{T}", "\\cite{k}", "\\footnote{f\nx}", "\\begin{equation}\ny = 2\n\\end{equation}",
        "\\begin{tabular}{cc}\na & b \\\\\nc & d\n\\end{tabular}", "{group\n}",
        "\\begin{itemize}\n\\item a\n\\end{itemize}",
        "\\begin{verbatim}\nraw $x\n\\end{verbatim}", "\\textbf{\nbold}",
    ]
)  # fmt: skip


@given(st.lists(_PIECES, max_size=12))
def test_every_latex_line_keeps_its_number(pieces):
    """Each source line is one line of what the audit reads, so a claim's line is its line."""
    text = "".join(pieces)
    assert latex_to_markdown(text).count("\n") == text.count("\n")


# -- Markdown: markup is not a claim, a claim is counted once ---


def test_html_markup_years_and_footnote_marks_are_not_claims():
    text = (
        '<img src="fig.png" width="80%" height="200"/>\n\n'
        "In 2017 the paper<sup>1</sup> (Vaswani et al., 2017) used $h = 8$ heads[^2].\n"
    )
    assert audit_module(text).claims == []


def test_arithmetic_in_a_code_span_is_read():
    got = _verdicts('<p align="center">So `512 / 8 = 64` and `12 * 64 = 640`.</p>\n')
    assert [(verdict, text) for _, verdict, text in got] == [
        ("certified", "⟨512 / 8 = 64⟩"),
        ("wrong", "⟨12 * 64 = 640⟩"),
    ]


def test_unbound_numbers_count_once_per_sentence_or_formula():
    text = "The model is 12 layers deep, 768 wide and has 117 million weights. It also has $a^3 + 5$.\n"
    claims = audit_module(text).claims
    assert [c.verdict for c in claims] == ["unchecked", "unchecked"]
    assert len(claims[0].spans) == 3  # the three numbers of the first sentence, one claim


def test_front_matter_styles_scripts_and_template_tags_are_not_claims():
    text = (
        "---\nlayout: distill\ndate: 2025-02-04\nsection_number: 4\n---\n\n"
        "<style>\n.fake-img { border: 1px solid rgba(0, 0, 0, 0.1); margin: 12px; }\n</style>\n"
        "<script>var width = 640; var x = 12 * 64;</script>\n\n"
        "{% details Click here for the answer. %}\n\n"
        "**Question 5:** see Note 2 and Fig. 3 about Llama-2 and GPT-J-6B. So $12 \\times 64 = 640$.\n\n"
        "{% enddetails %}\n"
    )
    got = _verdicts(read_source(text))
    assert [(where, verdict) for where, verdict, _ in got] == [("14", "wrong")]


def test_a_block_of_math_holds_blank_lines_as_kramdown_reads_it():
    text = (
        "Shapes:\n\n$$\n\\def \\red#1{\\textcolor{red}{#1}}\n\n\\begin{array}{cc}\n"
        "x & 12 \\times 64 = 640 \\\\\n\\end{array}\n$$\n\nAfter it, $\\red{2 + 2} = 5$.\n"
    )
    audit = audit_module(read_source(text))
    assert _unread(audit) == []
    assert [(c.line, c.verdict) for c in audit.claims] == [(7, "wrong"), (11, "wrong")]  # a cell, a macro


def test_a_formula_left_open_still_ends_at_its_paragraph():
    """Only a block of math (``$$`` opening its line) spans a blank line, and only to a ``$$``
    before the next heading: an inline ``$$`` left open is said, and the prose after it read."""
    text = "Text $$x = 1\n\nand $12 \\times 64 = 640$ here.\n\n# Next\n\n$$\n"
    audit = audit_module(read_source(text))
    assert _unread(audit) == [1, 7]
    assert [(c.line, c.verdict) for c in audit.claims if c.verdict == "wrong"] == [(3, "wrong")]


def test_a_script_set_apart_by_spaces_is_an_index_not_a_claim():
    """``x _{ bs+1 }`` (as LaTeX authors may space it) is x with an index; ``D ^{ 2 }`` a square."""
    text = "The next token $ x _{ bs+1 } $ and $ 2 ^{ 10 } = 1000 $ and $ 2 ^ {10} = 1024 $.\n"
    got = _verdicts(read_source(text))
    assert [(verdict, claim) for _, verdict, claim in got] == [
        ("wrong", "⟨2^(10) = 1000⟩"),
        ("certified", "⟨2^(10) = 1024⟩"),
    ]


def test_minted_code_and_listings_are_code_not_prose():
    preamble = "\\newmintinline[pyinline]{python}{}\n\\newmintedfile[pyfile]{python}{linenos}\n"
    chapter = (
        "The \\pyinline{(B, S, D)}-shaped tensor, $12 \\times 64 = 640$.\n"
        "\\pyfile[firstline=8,lastline=72]{python/causal_attention.py}\n"
        "\\mintinline{python}{softmax(x)} and \\lstinputlisting[firstline=3]{attn.py}\n"
    )
    text = read_source(chapter, "latex", preamble=preamble).text
    assert "`(B, S, D)`" in text and "firstline" not in text and "causal" not in text
    assert "`softmax(x)`" in text and "attn.py" not in text
    audit = audit_module(read_source(chapter, "latex", preamble=preamble))
    assert [(c.line, c.verdict) for c in audit.claims] == [(1, "wrong")]


def test_a_latex_display_with_a_label_on_its_own_line_is_read_whole():
    chapter = (
        "Each head:\n\\begin{align}\n\td_k & = 512 / 8 = 60\n\t\\label{eq_width}\n\\end{align}\n"
        "and after it $12 \\times 64 = 768$.\n"
    )
    audit = audit_module(read_source(chapter, "latex"))
    assert _unread(audit) == []
    assert [(c.line, c.verdict) for c in audit.claims] == [(3, "wrong"), (6, "certified")]


def test_an_array_laid_out_as_equations_is_a_chain_of_them():
    text = "Sums:\n\n$$\n\\begin{array}{rcl}\na & = & 2 + 3 \\\\\n  & = & 6 \\\\\n"
    text += "2^{10} & = & 1000\n\\end{array}\n$$\n"
    got = [(c.line, c.verdict) for c in audit_module(read_source(text)).claims]
    assert got == [(5, "wrong"), (7, "wrong")]


def test_markup_is_blanked_only_where_it_is_markup():
    """A template tag within one line, an element from a line it opens to the line that closes it,
    never in code or across what a reader sees (review findings)."""
    text = (
        "The energy is $\\frac{{x}^2}{2}$, and $2 + 2 = 5$; also $\\frac{1}{\\sqrt{4}} = 0.4$.\n\n"
        "```python\nprint(f'{{')\n```\n\n"
        "A page loads MathJax in a `<script>` element, and $3 \\times 3 = 10$.\n\n"
        "{% comment %}\n$7 + 7 = 15$ is hidden\n{% endcomment %}\n"
        "{{ site.url }} and $4 + 4 = 9$.\n"
        'Text $1+1=2$. <script>var s = "$5 + 5 = 11$";</script> and after it.\n'
    )
    wrong = [c.line for c in audit_module(read_source(text)).claims if c.verdict == "wrong"]
    assert wrong == [1, 1, 7, 12]


@pytest.mark.parametrize(
    ("head", "kept"),
    [
        ("\ufeff---\ntitle: Notes\n---\n", False),  # a byte-order mark first
        ("---\n\nA rule opens the page, $2 + 2 = 5$.\n\n---\n", True),  # a rule, not front matter
    ],
)
def test_front_matter_is_yaml_at_the_very_top(head, kept):
    claims = audit_module(read_source(head + "Then $3 + 3 = 7$.\n")).claims
    assert [c.verdict for c in claims].count("wrong") == (2 if kept else 1)


def test_a_booktabs_table_is_one_table():
    """\\toprule, \\midrule and \\bottomrule on lines of their own do not cut a tabular in two: its
    header still names what its rows count."""
    chapter = (
        "Shapes $A[B,T,D]$ and $W[D,F]$.\n\\begin{tabular}{lcc}\n\\toprule\noperation & FLOPs & params \\\\\n"
        "\\midrule\n$A[B,T,D] \\cdot W[D,F]$ & $2BTDF$ & $DF$ \\\\\n"
        "$A[B,T,D] \\cdot W_2[D,F]$ & $2BTD$ & $DF$ \\\\\n"
        "\\bottomrule\n\\end{tabular}\n"
    )
    text = read_source(chapter, "latex").text
    assert text.count("\n") == chapter.count("\n")
    got = [(c.line, c.verdict) for c in audit_module(read_source(chapter, "latex")).claims]
    assert got == [(6, "certified"), (6, "certified"), (7, "wrong"), (7, "certified")]


def test_list_numbers_and_a_tags_link_are_not_claims():
    """1) and (1) number items, (2) names an equation; a link inside a tag's attribute leaves the
    tag whole (review finding: `<meta ... content="0; url=...">` was counted)."""
    text = (
        '<meta http-equiv="Refresh" content="0; url=https://x.org/a2">\n\n'
        "Steps:\n\n1) Compute the scores.\n2) Normalize them.\n\n"
        "A list: (1) first, (2) second, as in (3). Then $12 \\times 64 = 640$.\n"
    )
    claims = audit_module(read_source(text)).claims
    assert [(c.line, c.verdict) for c in claims] == [(8, "wrong")]
    # the (2) of a power is no number of an item
    powers = audit_module(read_source("It costs $O(S^2)$ and $2^{(3)} = 8$.\n")).claims
    assert [c.verdict for c in powers] == ["unchecked", "certified"]
