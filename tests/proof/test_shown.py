"""What a derivation page shows is what verify checked (symattn/proof/shown.py): the prose's
formulas are claims, steps or premises of the proof, and every printed formula reads back as
its object. Each test plants one error and asserts the check names it."""

from __future__ import annotations

import dataclasses
import re
from unittest import mock

import pytest
import sympy as sp

import derivations
from derivations.planted import drops_transpose, rendering
from symattn.present.proof_render import to_latex, to_markdown
from symattn.proof import RenderingFailed, StatementFailed, StepFailed, shown, shown_rendering
from symattn.proof import latex as printing
from symattn.proof.shown import NotShownAsChecked


def _statements(d) -> str:
    return shown.check_statements(d, d.reduce_expectations)


def _with_rule(d, old: str, new: str):
    k = next(k for k, s in enumerate(d.steps) if old in s.rule)
    d.steps[k] = dataclasses.replace(d.steps[k], rule=d.steps[k].rule.replace(old, new))
    return d


def test_every_derivation_states_relations_and_all_are_established():
    for name in derivations.NAMES:
        d = derivations.load(name)
        said = _statements(d)
        assert int(said.split()[0]) > 0, f"{name}: {said}"  # its prose states something checked
        assert "read back" in shown.check_rendering(d)


def test_a_theorem_that_misstates_its_claim_fails_naming_the_theorem():
    """Issue 46's example: the theorem says Var(z) = sqrt(d_k); the proof shows d_k."""
    d = derivations.load("variance_scaling")
    _statements(d)
    d.theorem = d.theorem.replace(r"\operatorname{Var}(z) = d_k", r"\operatorname{Var}(z) = \sqrt{d_k}")
    with pytest.raises(NotShownAsChecked, match=r"^the theorem states .*\\sqrt\{d_k\}"):
        _statements(d)


def test_verify_fails_on_the_misstated_theorem():
    d = derivations.load("variance_scaling")
    d.theorem = d.theorem.replace(r"\operatorname{Var}(z) = d_k", r"\operatorname{Var}(z) = \sqrt{d_k}")
    with pytest.raises(StatementFailed, match="variance_scaling: the theorem states"):
        d.verify()


def test_a_rule_that_misstates_its_lemma_is_checked_on_an_instance_and_fails():
    d = derivations.load("variance_scaling")
    d = _with_rule(d, r"a^2 \operatorname{Var}(X)", r"a \operatorname{Var}(X)")
    with pytest.raises(NotShownAsChecked, match=r"the rule of step \d+ .* it is false"):
        _statements(d)


def test_a_crossover_stated_wrong_fails_and_the_right_one_is_the_steps_side():
    d = derivations.load("multihead_flops")
    _statements(d)
    d.theorem = d.theorem.replace(r"N > 2 d_{\text{model}}", r"N > d_{\text{model}} / 2")
    with pytest.raises(NotShownAsChecked, match="the theorem states"):
        _statements(d)


def test_a_number_bound_to_the_wrong_symbol_fails():
    """The step puts in d_model = 4096; its rule saying N = 4096 is a premise the step does not make."""
    d = _with_rule(derivations.load("multihead_flops"), r"d_{\text{model}} = 4096", "N = 4096")
    with pytest.raises(NotShownAsChecked, match="puts in d_model = 4096, not N = 4096"):
        _statements(d)


def test_an_assumption_that_contradicts_a_declared_symbol_fails():
    d = derivations.load("variance_scaling")
    d.assumptions = [a.replace("s_q, s_k > 0", "s_q, s_k < 0") for a in d.assumptions]
    with pytest.raises(NotShownAsChecked, match=r"assumption 2 .* contradicts"):
        _statements(d)


def test_an_assumption_must_agree_with_what_the_proof_defines():
    d = derivations.load("multihead_flops")
    d.assumptions = [a.replace(r"d_{\text{model}} / h", r"d_{\text{model}} \cdot h") for a in d.assumptions]
    with pytest.raises(NotShownAsChecked, match="assumption 1"):
        _statements(d)


def test_a_premise_must_be_a_number_the_step_uses():
    d = _with_rule(derivations.load("softmax_jacobian"), "$p = 0.99$", "$p = 0.98$")
    with pytest.raises(NotShownAsChecked, match=r"p = 0\.98"):
        _statements(d)


def test_a_new_name_may_be_defined_in_words_but_a_known_one_may_not_be_misdefined():
    d = derivations.load("variance_scaling")
    d.theorem += r" Write $w = \operatorname{Var}(z)$."
    _statements(d)  # w is new: a name defined where it is written
    d.theorem += r" Then $d_k = 2 \operatorname{Var}(z)$."
    with pytest.raises(NotShownAsChecked, match="the theorem states"):
        _statements(d)


def test_an_unchecked_entry_must_be_needed_and_written():
    d = derivations.load("permutation_equivariance")
    d.unchecked = {**d.unchecked, "N = 3": "not written anywhere"}
    with pytest.raises(NotShownAsChecked, match=r"\$N = 3\$ is listed as unchecked"):
        _statements(d)
    d = derivations.load("permutation_equivariance")
    d.unchecked = {}
    with pytest.raises(NotShownAsChecked, match=r"P\^\\top P = I"):
        _statements(d)  # without its entry, the formula must be established, and is not


def test_a_printer_that_drops_a_transpose_fails_verify():
    """Issue 46's example: J = diag(p) - p p^T printed as diag(p) - p p, by the printer every
    page uses."""
    d = derivations.load("softmax_jacobian")
    shown.check_rendering(d)

    def dropped(self, e):
        return self._print(e.arg)

    with mock.patch.object(printing.SymattnLatexPrinter, "_print_Transpose", dropped):
        with pytest.raises(NotShownAsChecked, match=r"step 4, right side is printed as .*- p p\$"):
            shown.check_rendering(d)
        with pytest.raises(RenderingFailed, match="softmax_jacobian: step 4"):
            d.verify()


def test_every_derivation_reads_back_in_the_terminal():
    """What ``derive --format text`` prints (each side in Unicode, each relation, the notation)
    reads back as what was checked, for every derivation."""
    for name in derivations.NAMES:
        shown.check_rendering(derivations.load(name))


def test_a_terminal_that_drops_a_transpose_fails_verify():
    """The pages' LaTeX keeps p p^T; the terminal's Unicode loses it: verify fails, naming the
    side and showing the text as the terminal prints it."""
    import symattn.unicode_text as unicode_text

    script = unicode_text._script

    def dropped(arg, mark, following, upright=False):
        return "" if arg == "ᵀ" else script(arg, mark, following, upright)

    d = derivations.load("softmax_jacobian")
    shown.check_rendering(d)
    with mock.patch.object(unicode_text, "_script", dropped):
        assert "p pᵀ" not in printing.side_text(d.steps[3].rhs)
        dropped_ = r"step 4, right side is printed in the terminal as 'diag\(p\) - p p',"
        with pytest.raises(NotShownAsChecked, match=dropped_):
            shown.check_rendering(d)
        # the theorem's J = diag(p) - p p^T is printed so too: whichever check ends first names it
        named = r"softmax_jacobian: (step 4|the theorem)"
        with pytest.raises((RenderingFailed, StatementFailed), match=named):
            d.verify()


def test_a_relation_the_terminal_prints_reversed_fails():
    d = derivations.load("softmax_jacobian")
    with (
        mock.patch.dict(printing.RELATIONS_TEXT, {"<=": "≥"}),
        pytest.raises(NotShownAsChecked, match="the terminal prints its relation as '≥', which reads as >="),
    ):
        shown.check_rendering(d)


def test_a_theorem_the_terminal_prints_wrong_fails():
    r"""The theorem's $\lVert q \rVert^2 \sim \chi^2_d$ printed in the terminal with = for ~:
    the pages' LaTeX is right, the terminal's words are not, and verify names the theorem."""
    import symattn.unicode_text as unicode_text

    d = derivations.load("score_reduction")
    _statements(d)
    with mock.patch.dict(unicode_text._SYMBOLS, {"sim": "="}):
        misprinted = r"the theorem writes .* which the terminal prints as '‖ q ‖² = χ²_d'"
        with pytest.raises(NotShownAsChecked, match=misprinted):
            _statements(d)
        with pytest.raises(StatementFailed, match="score_reduction"):
            d.verify()


def test_the_terminal_prints_the_lines_verify_read_back():
    """derive --format text shows each step exactly as step_text wrote it for verify, in order
    (a matrix broken a row to a line, nothing else changed)."""
    from symattn.present.proof_render import to_text

    for name in ("attention_by_hand", "softmax_jacobian", "multihead_flops"):
        d = derivations.load(name)
        joined = re.sub(r",\n +\[", ", [", to_text(d, d.verify()))
        at = 0
        for k, step in enumerate(d.steps):
            lhs, rhs = printing.step_text(step, d.printer)
            block = (f"{k + 1:>2}. {lhs}\n" + " " * 6 if lhs is not None else f"{k + 1:>2}. ") + rhs + "\n"
            found = joined.find(block, at)
            assert found >= 0, (name, k + 1, block)
            at = found + len(block)


def test_a_terminal_that_prints_another_formula_of_the_same_value_fails():
    """Review: 8 for sqrt(64), a lost cdot, a lost sum limit all have the page's value; the
    terminal must print the page's formula, not another of the same value."""
    import symattn.unicode_text as unicode_text

    for name, patch, shown_as in [
        ("variance_scaling", {"cdot": ""}, r"'1 1', which is not the page's"),
        ("attention_by_hand", {"times": ""}, r"'3.3 10⁵', which is not the page's"),
    ]:
        d = derivations.load(name)
        shown.check_rendering(d)
        with mock.patch.dict(unicode_text._SYMBOLS, patch), pytest.raises(NotShownAsChecked, match=shown_as):
            shown.check_rendering(d)
    assert shown.same_form(r"\frac{a + b}{c}", "(a+b)/c") and shown.same_form(r"e^{z_{i}}", "e^{z_i}")
    assert not shown.same_form(r"\sqrt{64}", "8")
    assert not shown.same_form(r"\sum_{i=1}^{d} q_i", r"\sum_{i}^{d} q_i")


def test_a_planted_printer_is_caught_where_it_prints():
    d = derivations.load("attention_by_hand")
    rendering(_print_Transpose=drops_transpose)(d)
    with pytest.raises(NotShownAsChecked, match=r"step 1, left side is printed as \$Q K\$"):
        shown.check_rendering(d)


def test_a_relation_printed_reversed_fails():
    d = derivations.load("softmax_jacobian")
    shown.check_rendering(d)
    reversed_ = r"states <=, but its relation is printed as \$\\ge\$"
    with (
        mock.patch.dict(printing.RELATIONS_LATEX, {"<=": r"\ge"}),
        pytest.raises(NotShownAsChecked, match=reversed_),
    ):
        shown.check_rendering(d)


def test_a_decimal_printed_wrong_fails():
    d = derivations.load("softmax_jacobian")
    rational = printing.SymattnLatexPrinter._print_Rational

    def wrong(self, e):
        return rational(self, e).replace("0.99", "0.9")

    with (
        mock.patch.object(printing.SymattnLatexPrinter, "_print_Rational", wrong),
        pytest.raises(NotShownAsChecked, match=r"printed as \$0.9 \\cdot"),
    ):
        shown.check_rendering(d)


def test_a_sum_split_over_rows_reads_back_term_by_term():
    """The pages split a long sum into rows term by term; a term lost there fails too."""
    d = derivations.load("multihead_flops")
    shown.check_rendering(d)

    def lost_terms(value):
        return ["N", "+ N"] if printing.printed_terms(value) else None

    with (
        mock.patch.object(shown_rendering, "term_pieces", lost_terms),
        pytest.raises(NotShownAsChecked, match="split over rows"),
    ):
        shown.check_rendering(d)


def test_the_pages_print_with_the_printer_verify_reads_back():
    """A derivation's printer is what its LaTeX and Markdown pages use, so a planted printer
    error is on the page exactly as verify read it."""
    d = derivations.load("attention_by_hand")
    report = d.verify()
    seen: list[str] = []

    def printer(value):
        text = printing.side_latex(value)
        seen.append(text)
        return r"\mathrm{MARK}" if isinstance(value, sp.MatrixBase) else text

    d.printer = printer
    report.derivation = d
    latex_page, markdown_page = to_latex(d, report), to_markdown(d, report, stable=True)
    assert seen and r"\mathrm{MARK}" in latex_page and r"\mathrm{MARK}" in markdown_page
    with pytest.raises(NotShownAsChecked, match="MARK"):
        shown.check_rendering(d)


def _signed(assumption: str, x):
    from symattn.proof import Derivation

    d = Derivation("demo", "demo", "a square root", assumptions=[assumption] if assumption else [])
    root = sp.Pow(sp.Pow(x, 2, evaluate=False), sp.S.Half, evaluate=False)  # sqrt(x^2), unevaluated
    d.step(root, x, "a square root")
    d.claim(root, x)
    d.requires_claims = True  # a derivation symattn publishes
    return d


def test_a_sign_the_proof_assumes_must_be_on_the_page():
    """Issue 46: a symbol's hidden assumption. sqrt(x^2) = x holds because x is declared
    positive; a page that never says so hides what the step stands on."""
    x = sp.Symbol("x", positive=True)
    with pytest.raises(NotShownAsChecked, match="x is declared positive, which no assumption or rule"):
        shown.check_assumptions(_signed("", x))
    with pytest.raises(NotShownAsChecked, match="declared positive"):
        shown.check_assumptions(_signed(r"$x \ge 0$", x))  # weaker than what the proof uses
    assert shown.check_assumptions(_signed(r"$x > 0$", x)) == "1 sign shown"
    assert shown.check_assumptions(_signed(r"$x$ positive", x)) == "1 sign shown"
    with pytest.raises(StatementFailed, match="demo: x is declared positive"):
        _signed("", x).verify()


def test_a_whole_number_the_proof_assumes_must_be_on_the_page():
    """Must-have 2: integer=True is an assumption too. A page shows it in words after the name
    ("$n$ a positive integer", "$n \\ge 1$ an integer") or by an assumed value ($n = 3$); a value
    a rule puts in ($n = 2$ in "at $n = 2$") is an instance, not the assumption; and the words
    must be what the proof declares."""
    n = sp.Symbol("n", positive=True, integer=True)
    with pytest.raises(NotShownAsChecked, match="n is declared integer, which no assumption or rule"):
        shown.check_assumptions(_signed(r"$n > 0$", n))
    for page in (r"$n$ a positive integer", r"$n \ge 1$ an integer", r"$n > 0$; $n = 3$"):
        assert shown.check_assumptions(_signed(page, n)) == "1 sign shown", page
    d = _signed(r"$n > 0$", n)
    d.steps[0] = dataclasses.replace(d.steps[0], rule="a square root, at $n = 2$")
    with pytest.raises(NotShownAsChecked, match="declared integer"):
        shown.check_assumptions(d)
    x = sp.Symbol("x", positive=True)
    with pytest.raises(NotShownAsChecked, match="says x is integer, which the proof's x is not declared"):
        shown.check_assumptions(_signed(r"$x$ a positive integer", x))


@pytest.mark.parametrize(
    "page",
    [
        r"$z_1, \dots, z_n$ real, $n \ge 1$ an integer; a weight $p > 0$",  # i, j: free, not shown
        r"$z_1, \dots, z_n$ real, $n \ge 1$ an integer or half-integer; integers $1 \le i, j \le n$; $p > 0$",
        r"$z_1, \dots, z_n$ real, $n, z_1$ positive integers; integers $1 \le i, j \le n$; $p > 0$",
    ],
)
def test_the_softmax_jacobian_page_must_show_every_whole_number_it_uses(page):
    """Review findings: an index summed in one side but free in another was exempt; words
    qualified after "integer" counted; words said of an entry z_1 were skipped."""
    from derivations import load

    d = load("softmax_jacobian")
    d.assumptions = [page]
    with pytest.raises(NotShownAsChecked, match="declared"):
        shown.check_assumptions(d)


@pytest.mark.parametrize(
    "said", [r"$n$ is a positive integer", r"$n$, a positive integer", r"$n \ge 1$ (an integer)"]
)
def test_the_words_may_follow_a_name_as_people_write_them(said):
    n = sp.Symbol("n", positive=True, integer=True)
    assert shown.check_assumptions(_signed(said, n)) == "1 sign shown"


def test_a_sign_the_page_assumes_must_be_the_proofs():
    """An assumption x > 0 for an x the proof declares only real is a sign the proof does not
    use: the page and the proof disagree."""
    x, y = sp.Symbol("x", positive=True), sp.Symbol("y", real=True)
    d = _signed(r"$x, y > 0$", x)
    twice = sp.Pow(y, 2, evaluate=False) * 2
    d.steps.append(dataclasses.replace(d.steps[0], lhs=twice, rhs=2 * y**2, rule="twice"))
    with pytest.raises(NotShownAsChecked, match=r"assumption 1 .* not declared so"):
        shown.check_statements(d, d.reduce_expectations)


def test_a_value_the_theorem_states_is_a_side_of_the_proof():
    """A theorem states values in words too ("costs $4 N d^2 + 2 N^2 d$", "the outputs $[0, -1]$"):
    each must be a side of the proof or a row of one."""
    for name, old, new in [
        ("multihead_flops", r"$4 N d_{\text{model}}^2", r"$3 N d_{\text{model}}^2"),
        ("attention_by_hand", "the outputs $[0, -1]$", "the outputs $[0, 1]$"),
    ]:
        d = derivations.load(name)
        shown.check_statements(d, d.reduce_expectations)
        d.theorem = d.theorem.replace(old, new)
        with pytest.raises(NotShownAsChecked, match="is no side of the proof, nor a row of one"):
            shown.check_statements(d, d.reduce_expectations)


def test_the_reviews_holes_are_closed():
    """Found by a hostile review (issue 46): each passed before, each is refused now."""

    def refused(name, change, words):
        d = derivations.load(name)
        change(d)
        with pytest.raises(NotShownAsChecked, match=words):
            shown.check_statements(d, d.reduce_expectations)

    # p_i is an entry of the derivation's p, not a new name defined on the spot
    refused("softmax_jacobian", lambda d: setattr(d, "theorem", d.theorem + " Also $p_i = 7$."), "is not 7")
    # a vector side is a value, compared, not words
    outputs = r"the outputs $A V = \begin{bmatrix}0 & 1\end{bmatrix}$"
    refused(
        "attention_by_hand",
        lambda d: setattr(d, "theorem", d.theorem.replace("the outputs $[0, -1]$", outputs)),
        "it is false",
    )
    # an assumption the proof does not use is not a premise for the rest
    unused = "$d_k = 4$"
    refused("variance_scaling", lambda d: setattr(d, "assumptions", [*d.assumptions, unused]), "does not use")
    # a premise's number stands in the step's instance, not only in its result (sqrt(64) = 8)
    refused("variance_scaling", lambda d: _with_rule(d, "at $d_k = 64$", "at $d_k = 8$"), "d_k is not 8")


def test_two_symbols_printed_alike_fail_the_rendering():
    """A printer that writes d_k as d merges two symbols of variance_scaling on the page."""
    d = derivations.load("variance_scaling")
    symbol = printing.SymattnLatexPrinter._print_Symbol

    def merged(self, e, style="plain"):
        return "d" if e.name == "d_k" else symbol(self, e, style)

    with (
        mock.patch.object(printing.SymattnLatexPrinter, "_print_Symbol", merged),
        pytest.raises(NotShownAsChecked, match=r"are all printed as \$d\$"),
    ):
        shown.check_rendering(d)


def _delta_page(assumption: str, ranges: dict):
    from symattn.proof import Derivation

    n = sp.Symbol("n", integer=True, positive=True)
    i, j = sp.symbols("i j", integer=True, positive=True)
    x = sp.IndexedBase("x", real=True)
    d = Derivation("demo", "demo", r"$\sum_{j=1}^{n} x_j \delta_{ij} = x_i$", assumptions=[assumption])
    side = sp.Sum(x[j] * sp.KroneckerDelta(i, j), (j, 1, n))
    d.step(side, x[i], "the delta keeps the term where the indices agree")
    d.claim(side, x[i])
    d.requires_claims, d.ranges = True, ranges
    return d, i, n


def test_a_delta_is_summed_out_only_in_a_range_the_page_shows():
    """Issue 46, must-have 4: the range of a delta's index is proved, not sampled. A published
    derivation sums a delta out only within the ranges it declares (else the step is not
    proved: i might exceed n), and each declared range must be an assumption of the page."""
    page = r"$n \ge 1$ an integer; integers $1 \le i, j \le n$"
    d, i, n = _delta_page(page, {})
    with pytest.raises(StepFailed, match="could not prove"):
        d.verify()
    d, i, n = _delta_page(page, {i: (1, n)})
    assert d.verify().ok
    d, i, n = _delta_page(r"$n \ge 1$ an integer; integers $1 \le i, j \le n + 1$", {i: (1, n)})
    with pytest.raises(NotShownAsChecked, match=r"takes i from 1 to n .* which no assumption states"):
        shown.check_assumptions(d)
    one_chain = r"$n \ge 1$ an integer; integers $1 \le i \le n$; $j \ge 1$ an integer"
    d, i, n = _delta_page(one_chain, {i: (1, n)})
    assert shown.check_assumptions(d)


@pytest.mark.parametrize(
    ("page", "shown_as_declared"),
    [
        (r"$n \ge 1$ an integer; integers $i, j = 1, \dots, n$", True),
        (r"$n \ge 1$ an integer; integers $1 \le i, j < n + 1$", True),
        (r"$n \ge 1$ an integer; integers $n \ge i, j \ge 1$", True),
        (r"$n \ge 1$ an integer; integers $1 \le i \le n$ and $1 \le j \le n$", True),
        (r"$n \ge 1$ an integer; integers $n > i, j \ge 1$", False),  # i <= n - 1: another range
        (r"$n \ge 1$ an integer; integers $i, j = 0, \dots, n$", False),
        (r"$n \ge 1$ an integer; we do not assume integers $1 \le i, j \le n$", False),  # denied
    ],
)
def test_a_range_may_be_written_as_people_write_it_but_not_denied(page, shown_as_declared):
    """Review findings: only `a \\le x \\le b` forms were read as a range (`i = 1, \\dots, n`,
    `n \\ge i \\ge 1`, a strict bound were refused; words before a listing were said of the
    elision `...`); a range in a sentence that denies it counted as stated."""
    d, i, n = _delta_page(page, {})
    j = sp.Symbol("j", integer=True, positive=True)
    d.ranges = {i: (1, n), j: (1, n)}
    if shown_as_declared:
        assert shown.check_assumptions(d).endswith("shown")
    else:
        with pytest.raises(NotShownAsChecked):
            shown.check_assumptions(d)
