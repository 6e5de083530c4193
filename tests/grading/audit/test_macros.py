"""An author's LaTeX macros (symattn/grading/audit/macros.py): read where they are defined, in
any of the forms LaTeX and MathJax accept, and expanded where they are used, within bounds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from symattn.grading.audit.keys import audit_module
from symattn.grading.audit.macros import MAX_EXPANDED, Budget, blanked, definitions, expand
from symattn.grading.audit.sources import read_source


def _expanded(defining: str, used: str) -> str:
    found, _ = definitions(defining)
    return expand(used, found)


@pytest.mark.parametrize(
    ("defining", "used", "means"),
    [
        (r"\newcommand{\dk}{d_k}", r"\sqrt{\dk}", r"\sqrt{d_k}"),
        (r"\newcommand\dk{d_k}", r"\dk^2", r"d_k^2"),
        (r"\renewcommand{\Ocal}{\mathcal{O}}", r"\Ocal(n^2)", r"\mathcal{O}(n^2)"),
        (r"\newcommand{\ip}[2]{\langle #1, #2 \rangle}", r"\ip{q}{k}", r"\langle q, k \rangle"),
        (r"\newcommand{\ip}[2]{#1 \cdot #2}", r"\ip q k", r"q \cdot k"),
        (r"\newcommand{\E}[2][X]{\mathbb{E}_{#1}[#2]}", r"\E{z}", r"\mathbb{E}_{X}[z]"),
        (r"\newcommand{\E}[2][X]{\mathbb{E}_{#1}[#2]}", r"\E[Y]{z}", r"\mathbb{E}_{Y}[z]"),
        (r"\def\red#1{\textcolor{red}{#1}}", r"2\red{KL}", r"2\textcolor{red}{KL}"),
        (r"\def \blue#1{\textcolor{blue}{#1}}", r"\blue{GH}", r"\textcolor{blue}{GH}"),
        (r"\DeclareMathOperator{\Var}{Var}", r"\Var(z)", r"\operatorname{Var}(z)"),
        (r"\DeclareMathOperator*{\argmax}{arg\,max}", r"\argmax_i", r"\operatorname*{arg\,max}_i"),
        (r"\newcommand{\Sm}{\, \texttt{Softmax} \, }", r"\Sm z", r"\, \texttt{Softmax} \, z"),
        (r"\newcommand{\two}{1+1}", r"\two^2", r"1+1^2"),  # as TeX sets it: 1 + 1²
        (r"\newcommand{\inc}[1]{#1+1}", r"2 \inc{3}", r"2 3+1"),
        # a body over two lines, the first ended by %
        (r"\newcommand{\sc}[1]{%" "\n" r"  \frac{1}{\sqrt{#1}}}", r"\sc{64}", r"\frac{1}{\sqrt{64}}"),
        (r"\newcommand{\z}{#0}", r"\z + 1", r" + 1"),  # an argument never given is nothing
        (r"\newcommand{\al}{\alpha}", r"\al x", r"\alpha x"),
        (r"\newcommand{\al}{\alpha}", r"\al{}x", r"\alpha{}x"),
        (r"\newcommand{\N}{64}", r"\frac\N2", r"\frac{64}2"),  # one argument of \frac, as TeX takes it
        (r"\newcommand{\x}[1]{#1}", r"\x{\x{", r"\x{\x{"),  # arguments that never close
    ],
)
def test_a_macro_means_its_body_with_its_arguments(defining, used, means):
    assert _expanded(defining, used) == means


def test_a_longer_name_is_not_taken_for_a_shorter_one_and_a_macro_used_in_another_expands():
    defining = r"\newcommand{\d}{D}\newcommand{\dk}{\d_k}"
    # a name with its script stays bare; \dmodel is not \d followed by "model"
    assert _expanded(defining, r"\dk + \d + \dmodel") == r"D_k + D + \dmodel"


def test_a_later_definition_wins_and_providecommand_keeps_the_first():
    assert _expanded(r"\newcommand{\x}{a}\renewcommand{\x}{b}", r"\x") == "b"
    assert _expanded(r"\newcommand{\x}{a}\providecommand{\x}{b}", r"\x") == "a"
    assert _expanded(r"\newcommand{\x}{12}", r"\x^2") == "12^2"  # as TeX reads it: 1 then 2 squared


def test_a_macro_defined_by_itself_stops_at_the_bound():
    found, _ = definitions(r"\newcommand{\x}{\x\x}")
    out = expand(r"\x", found)
    assert len(out) <= MAX_EXPANDED + 10 and r"\x" in out


def test_all_the_expansions_of_a_text_share_one_budget():
    found, _ = definitions(r"\newcommand{\big}{" + "x" * 1000 + "}")
    budget = Budget(5_000)
    lines = [expand(r"\big + \big", found, budget) for _ in range(10)]
    assert sum(len(x) for x in lines) <= 5_000 + 10 * len(r"\big + \big")
    assert lines[0].startswith("x") and lines[-1] == r"\big + \big"  # spent: left as written


def test_a_round_given_up_for_its_size_spends_the_budget():
    """A macro that doubles itself: its first line's rounds spend what the text may add, and
    the lines after it are left as written (the work of a text is bounded by the text)."""
    found, _ = definitions(r"\def\a{" + r"\a" * 500 + "}")
    budget = Budget(100_000)
    first = expand(r"\a = 1", found, budget)
    assert budget.left <= 0 and len(first) <= 100_000 + 10
    assert expand(r"\a = 2", found, budget) == r"\a = 2"


def test_reading_definitions_is_bounded_by_the_text():
    """Unclosed definitions, one after another, are each read to a bounded length."""
    text = r"\def\a{" * 20_000
    found, spans = definitions(text)
    assert found == {} and spans == []


def test_a_macro_used_without_its_arguments_is_left_as_written():
    assert _expanded(r"\newcommand{\ip}[2]{#1 #2}", r"{\ip}") == r"{\ip}"


def test_definitions_are_blanked_in_place():
    text = "a\n\\newcommand{\\x}{\n1}\nb"
    _, spans = definitions(text)
    blank = blanked(text, spans)
    assert blank.count("\n") == text.count("\n") and len(blank) == len(text)
    assert blank.replace(" ", "") == "a\n\n\nb"


@given(st.text(alphabet="\\{}#[]ax1 \n", max_size=40))
def test_expansion_never_moves_a_line(text):
    found, _ = definitions(r"\newcommand{\a}[1]{#1#1}\def\x#1{[#1]}")
    assert expand(text, found).count("\n") == text.count("\n")


# -- in the texts the audit reads ---


def test_markdown_mathjax_macros_are_expanded_in_the_math():
    text = (
        "$$\n\\def\\width{d_{model}}\n\\def\\heads{h}\n$$\n\n"
        "With $\\heads = 8$ and $\\width = 512$, each head has width $\\width / \\heads = 32$.\n"
    )
    audit = audit_module(read_source(text))
    assert [(c.line, c.verdict) for c in audit.claims] == [(6, "wrong")]


def test_a_latex_preamble_file_gives_the_macros_a_chapter_uses():
    chapter = "With $h = 8$ and $d_{model} = 512$, each head has width $\\per{d_{model}}{h} = 32$.\n"
    preamble = "\\newcommand{\\per}[2]{#1/#2} % a share\n"
    without = audit_module(read_source(chapter, "latex"))
    assert all(c.verdict != "wrong" for c in without.claims)  # \dm unknown: nothing to compare
    audit = audit_module(read_source(chapter, "latex", preamble=preamble))
    assert [(c.line, c.verdict) for c in audit.claims] == [(1, "wrong")]


def test_a_commented_definition_defines_nothing():
    chapter = "% \\newcommand{\\per}[2]{#1/#2}\nWith $h = 8$ and $d_{model} = 512$, "
    chapter += "$\\per{d_{model}}{h} = 32$.\n"
    audit = audit_module(read_source(chapter, "latex"))
    assert all(c.verdict != "wrong" for c in audit.claims)


def test_the_macros_option_reads_a_style_file(cli, tmp_path):
    chapter = tmp_path / "ch.tex"
    chapter.write_text("With $h = 8$ and $d_{model} = 512$, each head is $\\per{d_{model}}{h} = 32$ wide.\n")
    style = tmp_path / "notes.sty"
    style.write_text("\\ProvidesPackage{notes}\n\\newcommand{\\per}[2]{#1/#2}\n")
    code, out, err = cli("audit", str(chapter), "--macros", str(style))
    assert code == 1 and "wrong" in out and "line 1" in err
    code, _, err = cli("audit", str(chapter), "--macros", str(tmp_path / "missing.sty"))
    assert code == 2 and err.startswith(f"symattn: error: cannot read {tmp_path / 'missing.sty'}")
    assert err.count("\n") == 1
