"""The engine's own sabotage list: one-line edits that weaken a guarantee of the proof engine.

:mod:`derivations.mutations` plants errors in the derivations and asks the engine to catch them;
this list turns the question round. Each :class:`Sabotage` is a one-line edit of the engine (or
of a module it relies on) that removes or weakens one guarantee: a tolerance, a count of points,
a size rule, a skipped claim, a trusted case split, a rounding. ``tests/proof/test_sabotage.py``
applies each edit in this process and requires the named tests of ``tests/proof`` to fail: a
guarantee whose removal no test notices is a guarantee nobody checks.
"""

from __future__ import annotations

import ast
import importlib
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENGINE = "symattn.proof.engine"
SHOWN = "symattn.proof.shown"
SHOWN_BASE = "symattn.proof.shown_base"
CHECKS = "symattn.proof.checks"
NAMING = "symattn.proof.naming"
SIDES = "symattn.proof.sides"
LEMMA = "symattn.proof.lemma"
STATEMENTS = "symattn.proof.shown_statements"
RENDERING = "symattn.proof.shown_rendering"
ASSUMPTIONS = "symattn.proof.shown_assumptions"
LEXICON = "symattn.proof.reader_lexicon"
WORDS = "symattn.proof.words"
LAWS = "symattn.proof.laws"


@dataclass(frozen=True)
class Sabotage:
    """Replace ``old`` (unique in ``module``'s source, within one line) by ``new``; the tests
    ``caught_by`` (``file::test``, under tests/proof) must then fail."""

    description: str
    old: str
    new: str
    caught_by: tuple[str, ...]
    module: str = ENGINE


SABOTAGE: list[Sabotage] = [
    # -- tolerances and counts of points -------------------------------------------------------
    Sabotage(
        "the cross-check tolerance loosened to 1e-3",
        "TOLERANCE = 1e-45",
        "TOLERANCE = 1e-3",
        ("test_proof::test_a_wrong_normal_form_is_caught_by_the_cross_check_to_1e_minus_45",),
        module=SIDES,
    ),
    Sabotage(
        "the cross-check evaluates no point",
        "err, point, va, vb = numeric_difference(a, b, rng, points=self.points, fixed=fixed)",
        "err, point, va, vb = numeric_difference(a, b, rng, points=0, fixed=fixed)",
        ("test_proof::test_a_delta_sum_whose_index_may_lie_outside_the_range_is_not_trusted",),
        module=CHECKS,
    ),
    Sabotage(
        "every planted side counts as told apart",
        "            if _told_apart(wrong, right, random.Random(index * 31 + k)):",
        "            if True:",
        ("test_proof::test_a_model_that_makes_every_score_equal_is_refused",),
        module=NAMING,
    ),
    Sabotage(
        "a model need not evaluate the side it is given",
        "            if _told_apart(twice, 2 * value, random.Random(index * 7 + len(which))):",
        "            if False:",
        ("test_proof::test_a_model_that_answers_the_right_side_with_the_left_sides_value_is_refused",),
        module=NAMING,
    ),
    # -- sizes ---------------------------------------------------------------------------------
    Sabotage(
        "one size is enough",
        "MIN_SIZES = 4",
        "MIN_SIZES = 1",
        ("test_proof::test_three_sizes_are_not_enough_even_with_a_five_and_a_repeat_counts_once",),
        module=CHECKS,
    ),
    Sabotage(
        "no size of 5 is needed",
        "LARGE_SIZE = 5",
        "LARGE_SIZE = 1",
        ("test_proof::test_at_sizes_needs_a_size_of_five_or_a_reason",),
        module=CHECKS,
    ),
    Sabotage(
        "a repeated size counts twice",
        "if len(set(sizes)) != len(sizes):",
        "if False:",
        ("test_proof::test_three_sizes_are_not_enough_even_with_a_five_and_a_repeat_counts_once",),
        module=CHECKS,
    ),
    Sabotage(
        "any reason waives the size of 5",
        "waiver = WAIVERS.get(step.lemma.largest)",
        "waiver = step.lemma.largest or None",
        ("test_proof::test_at_sizes_needs_distinct_sizes_one_of_5_or_a_documented_waiver",),
        module=CHECKS,
    ),
    # -- models --------------------------------------------------------------------------------
    Sabotage(
        "a model is trusted without planted sides",
        "        self._check_model_sees(index, concrete, lhs, rhs)\n",
        "        pass\n",
        (
            "test_proof::test_a_model_that_returns_a_stored_answer_is_refused",
            "test_proof::test_a_steps_own_model_that_loses_the_sides_is_refused",
        ),
        module=CHECKS,
    ),
    Sabotage(
        "no size is added by the engine",
        "        for n in (*sizes, extra) if extra else sizes:",
        "        for n in sizes:",
        ("test_proof::test_a_difference_that_vanishes_at_the_authors_sizes_shows_at_the_size_the_engine_adds",),
        module=CHECKS,
    ),
    Sabotage(
        "a proof procedure is not shown a wrong side",
        "            self._check_procedure_sees(index, step.check, lhs, rhs)",
        "            pass",
        ("test_proof::test_a_check_procedure_that_ignores_its_sides_is_refused",),
        module=CHECKS,
    ),
    Sabotage(
        "a definition may define a formula",
        "            if type(name) is not sp.Symbol or not NAME.fullmatch(sp.latex(name)):",
        "            if False:",
        ("test_proof::test_a_definition_introduces_a_plain_new_name",),
        module=CHECKS,
    ),
    Sabotage(
        "two symbols may print alike",
        "                if len(same) > 1:",
        "                if False:",
        ("test_proof::test_two_symbols_printed_alike_are_refused",),
        module=NAMING,
    ),
    Sabotage(
        "names compared as LaTeX text, not as they read",
        '    return re.sub(r"[{}\\s]", "", re.sub(r"\\\\mathrm\\{([A-Za-z])\\}", r"\\1", tex))',
        "    return tex",
        ("test_proof::test_names_that_read_alike_once_typeset_and_definitions_that_assume_a_sign",),
        module=SIDES,
    ),
    Sabotage(
        "a defined name may assume a sign its value lacks",
        '                if holds and fact not in _NUMBER_KIND and getattr(known, f"is_{fact}") is not True:',
        "                if False:",
        ("test_proof::test_names_that_read_alike_once_typeset_and_definitions_that_assume_a_sign",),
        module=CHECKS,
    ),
    Sabotage(
        "E of nothing declared random is a constant",
        "                if not any(x.base in random_ for x in _indexed(arg)):",
        "                if False:",
        ("test_proof::test_an_expectation_of_nothing_declared_random_is_refused",),
        module=CHECKS,
    ),
    # -- check procedures, claims and lemmas ----------------------------------------------------
    Sabotage(
        "a substitution's rule may state other numbers",
        "if wrong := [x for x in stated if x not in values]:",
        "if wrong := []:",
        ("test_proof::test_a_substitution_takes_its_values_from_the_step_and_its_rule_states_only_them",),
        module=CHECKS,
    ),
    Sabotage(
        "a derivation need not state its theorem",
        "if not self.claims and self.requires_claims:",
        "if False:",
        ("test_proof::test_a_published_derivation_states_its_theorem_as_claims",),
        module=CHECKS,
    ),
    Sabotage(
        "a claim no chain establishes is skipped",
        "            if not any(_matches(lhs, a) and any(_matches(rhs, b) for b in ends)"
        " for a, ends in chains):",
        "            if False:",
        ("test_proof::test_claims_must_be_established_by_a_chain",),
        module=CHECKS,
    ),
    Sabotage(
        "a lemma no step uses is ignored",
        "if id(lemma) not in used:",
        "if False:",
        ("test_proof::test_a_lemma_no_step_uses_fails",),
    ),
    Sabotage(
        "a lemma needs no false twin",
        "    if lemma.twin is None or not lemma.twin_statement:\n",
        "    if False:\n",
        ("test_proof::test_a_lemma_without_a_false_twin_fails",),
        module=LEMMA,
    ),
    Sabotage(
        "a twin is never run",
        "        twin = lemma.twin(n) if lemma.twin is not None else False",
        "        twin = False",
        ("test_proof::test_a_lemma_whose_twin_passes_at_a_size_is_vacuous_there",),
        module=LEMMA,
    ),
    Sabotage(
        "a lemma false at a size passes",
        "    if not _true(result):\n        raise LemmaFailed(f\"lemma '{lemma.name}' is false",
        "    if False:\n        raise LemmaFailed(f\"lemma '{lemma.name}' is false",
        (
            "test_proof::test_failing_lemma_is_reported",
            "test_proof::test_a_lemma_passes_only_by_returning_true",
        ),
        module=LEMMA,
    ),
    # -- random families, labels, floats --------------------------------------------------------
    Sabotage(
        "a side may depend on an integrated family",
        "            if left:\n                raise self._fail(",
        "            if False:\n                raise self._fail(",
        ("test_proof::test_a_result_that_depends_on_an_integrated_variable_is_refused",),
        module=CHECKS,
    ),
    Sabotage(
        "a label may hold a formula",
        "if not NAME.fullmatch(sp.latex(shown)):",
        "if False:",
        ("test_proof::test_a_label_holding_a_relation_an_operator_or_a_formula_is_refused",),
        module=NAMING,
    ),
    Sabotage(
        "a side shown need not be the side checked",
        "if not _matches(self.expand_abbreviations(shown), side):",
        "if False:",
        (
            "test_proof::test_a_side_shown_in_place_of_the_checked_one_must_be_that_side",
            "test_proof::test_named_matrices_shown_are_the_checked_side",
        ),
        module=NAMING,
    ),
    Sabotage(
        "a Float is allowed in a step",
        "        if floats:",
        "        if False:",
        (
            "test_proof::test_a_float_is_refused_in_a_step_that_is_not_certified",
            "test_proof::test_a_float_is_refused_in_a_certified_counterexample_too",
        ),
        module=CHECKS,
    ),
    Sabotage(
        "a step that does nothing passes",
        "        if _same(lhs, rhs):\n            raise self._fail(index, \"the two sides are the same",
        "        if False:\n            raise self._fail(index, \"the two sides are the same",
        ("test_proof::test_a_step_whose_sides_are_identical_is_refused",),
        module=CHECKS,
    ),
    # -- inequalities, figures, counterexamples, case splits, rounding -------------------------
    Sabotage(
        "an inequality's certificate need not have the right sign",
        "        if not sign:\n",
        "        if False:\n",
        ("test_proof::test_inequality_needs_a_true_certificate",),
        module=CHECKS,
    ),
    Sabotage(
        "a stated figure is not compared with the rounding",
        "        if value != stated:\n",
        "        if False:\n",
        ("test_proof::test_figures_must_be_correctly_rounded",),
        module=CHECKS,
    ),
    Sabotage(
        "a case split SymPy makes up is trusted",
        "    if _new_piecewise(lhs, a) or _new_piecewise(rhs, b):",
        "    if False:",
        ("test_proof::test_a_case_split_sympy_makes_up_proves_nothing",),
        module="symattn.proof.equivalence",
    ),
    Sabotage(
        "an interval whose ends round differently is rounded by its lower end",
        "    return a if a == b else None",
        "    return a",
        ("test_proof::test_a_figure_beside_a_rounding_boundary_is_certified",),
        module="symattn.core.digits",
    ),
    # -- what a page shows (issue 46: symattn/proof/shown.py, symattn/proof/reader.py) ---------
    Sabotage(
        "the what-is-shown checks are not run by verify",
        '        shown = [("shown", k) for k in range(len(SHOWN))]',
        "        shown = []",
        ("test_shown::test_verify_fails_on_the_misstated_theorem",),
    ),
    Sabotage(
        "a relation the prose states that the proof does not establish is let through",
        '                raise NotShownAsChecked(f"{where} states ${f}$: {why}")',
        "                pass",
        ("test_shown::test_a_theorem_that_misstates_its_claim_fails_naming_the_theorem",),
        module=STATEMENTS,
    ),
    Sabotage(
        "a stated relation matches a claim by its left side alone",
        "    return _alike(lhs, a) and _alike(rhs, b) and _matches(lhs, a) and _matches(rhs, b)",
        "    return _alike(lhs, a) and _matches(lhs, a)",
        ("test_shown::test_a_theorem_that_misstates_its_claim_fails_naming_the_theorem",),
        module=SHOWN_BASE,
    ),
    Sabotage(
        "a premise's number may be given to any symbol",
        "        if given.get(str(lhs)) == rhs:",
        "        if rhs in given.values():",
        ("test_shown::test_a_number_bound_to_the_wrong_symbol_fails",),
        module=SHOWN_BASE,
    ),
    Sabotage(
        "an assumption may contradict what a symbol is declared to be",
        "    if truth is sp.false:",
        "    if False:",
        ("test_shown::test_an_assumption_that_contradicts_a_declared_symbol_fails",),
        module=STATEMENTS,
    ),
    Sabotage(
        "an assumption about a defined symbol is taken as a hypothesis",
        "    return bool(named & defined)",
        "    return False",
        ("test_shown::test_an_assumption_must_agree_with_what_the_proof_defines",),
        module=STATEMENTS,
    ),
    Sabotage(
        "property words that stand for no claim pass",
        "            if not mine:",
        "            if False:",
        ("test_words::test_words_that_stand_for_no_claim_fail_naming_them",),
        module=WORDS,
    ),
    Sabotage(
        "a claim of any form stands for the words",
        "            fitting = [k for k, c in mine if any(_fits(prop, d, c, v) for v in value)]",
        "            fitting = [k for k, c in mine]",
        ("test_words::test_a_claim_not_of_the_property_s_form_fails",),
        module=WORDS,
    ),
    Sabotage(
        "the value after valued words is not read (rank $n$ is a mention)",
        "    m = _VALUE.match(text, at)",
        "    m = None",
        ("test_words::test_a_value_after_the_words_must_be_the_claim_s",),
        module=WORDS,
    ),
    Sabotage(
        "the words after a name may say what the proof does not declare",
        '                if wrong := [w for w in words if getattr(x, f"is_{w}") is not True]:',
        "                if wrong := []:",
        ("test_shown::test_a_whole_number_the_proof_assumes_must_be_on_the_page",),
        module=ASSUMPTIONS,
    ),
    Sabotage(
        "an unchecked entry no text needs is kept",
        "    if left := [f for f in unchecked if f not in used]:",
        "    if left := []:",
        ("test_shown::test_an_unchecked_entry_must_be_needed_and_written",),
        module=STATEMENTS,
    ),
    Sabotage(
        "a printed formula that reads back as something else passes",
        '    raise NotShownAsChecked(f"{what} is printed {printed}, which reads back as something else")',
        "    return",
        ("test_shown::test_a_printer_that_drops_a_transpose_fails_verify",),
        module=RENDERING,
    ),
    Sabotage(
        "any formula read back agrees with any object",
        "        if read_ == obj or sp.sympify(read_) == sp.sympify(obj):",
        "        if True:",
        ("test_reader::test_a_lost_transpose_or_sign_does_not_read_back_as_the_object",),
        module=SHOWN_BASE,
    ),
    Sabotage(
        "a step's relation is not read back",
        "        if RELATIONS.get(written) != s.relation:",
        "        if False:",
        ("test_shown::test_a_relation_printed_reversed_fails",),
        module=RENDERING,
    ),
    Sabotage(
        "a sum split over rows is not read back",
        "        if pieces is not None and len(pieces) > 1:  # the same sum split over rows, term by term",
        "        if False:",
        ("test_shown::test_a_sum_split_over_rows_reads_back_term_by_term",),
        module=RENDERING,
    ),
    Sabotage(
        "the normal fourth moment off: E[x^4] = m^4 + 6 m^2 v + 2 v^2",
        "                return m**4 + 6 * m**2 * v + 3 * v**2",
        "                return m**4 + 6 * m**2 * v + 2 * v**2",
        ("test_expectation::test_the_normal_moments_agree_with_sympy_stats_up_to_the_fourth",),
        module="symattn.proof.expectation",
    ),
    Sabotage(
        "a sign declared of a symbol need not be shown on the page",
        "            if x.assumptions0.get(fact) and not (shown.get(x, set()) & set(words)):",
        "            if False:",
        ("test_shown::test_a_sign_the_proof_assumes_must_be_on_the_page",),
        module=ASSUMPTIONS,
    ),
    Sabotage(
        "a sign the page assumes need not be declared",
        "    if _sign_statement(lhs, rel, rhs) and truth is not sp.true:",
        "    if False:",
        ("test_shown::test_a_sign_the_page_assumes_must_be_the_proofs",),
        module=STATEMENTS,
    ),
    Sabotage(
        "a model may answer at another size than the one asked",
        "            if _free_of(side) and len(values) > 1 and all(_same(values[0], v) for v in values[1:]):",
        "            if False:",
        ("test_proof::test_a_model_asked_at_one_size_must_answer_at_that_size",),
        module=CHECKS,
    ),
    Sabotage(
        "a model's symmetric test matrices may hide a transpose",
        "                if _symmetric_side(lhs):",
        "                if True:",
        ("test_proof::test_a_model_whose_test_matrices_are_symmetric_is_refused",),
        module=NAMING,
    ),
    Sabotage(
        "a value the theorem states need not be a side of the proof",
        "        missing = [v for v in values if not _in_proof(d, v)]",
        "        missing = []",
        ("test_shown::test_a_value_the_theorem_states_is_a_side_of_the_proof",),
        module=STATEMENTS,
    ),
    Sabotage(
        "the terminal's Unicode is not read back",
        "        _read_back_text(what, rhs_text, vocab, *pages[what])",
        "        pages[what]",
        ("test_shown::test_a_terminal_that_drops_a_transpose_fails_verify",),
        module=RENDERING,
    ),
    Sabotage(
        "the terminal's relation is not read back",
        "        if read != s.relation:",
        "        if False:",
        ("test_shown::test_a_relation_the_terminal_prints_reversed_fails",),
        module=RENDERING,
    ),
    Sabotage(
        "the prose's formulas are not read back as the terminal prints them",
        "            _read_back_words(where, f, found, vocab)",
        "            pass",
        ("test_shown::test_a_theorem_the_terminal_prints_wrong_fails",),
        module=STATEMENTS,
    ),
    Sabotage(
        "the terminal's text may be another formula of the same value",
        "    return _form(a) == _form(b)",
        "    return True",
        ("test_shown::test_a_terminal_that_prints_another_formula_of_the_same_value_fails",),
        module=RENDERING,
    ),
    Sabotage(
        "the terminal drops every transpose",
        '        return "ᵀ"  # a transpose (\\top) is one already',
        '        return ""  # a transpose (\\top) is one already',
        ("test_shown::test_every_derivation_reads_back_in_the_terminal",),
        module="symattn.unicode_text",
    ),
    Sabotage(
        "a matrix's cells are read as LaTeX twice in the terminal",
        "    return chr(_HELD + len(matrices) - 1)",
        "    return matrices[-1]",
        ("test_shown::test_every_derivation_reads_back_in_the_terminal",),
        module="symattn.unicode_text",
    ),
    Sabotage(
        "two symbols of one kind may be printed alike",
        "        if len(kinds) != len(set(kinds)):  # d_k and d both printed d: one name on the page",
        "        if False:",
        ("test_shown::test_two_symbols_printed_alike_fail_the_rendering",),
        module=RENDERING,
    ),
    Sabotage(
        "a decimal is read as a float",
        '    return sp.Rational(text) if "." in text else sp.Integer(text)',
        '    return sp.Float(text) if "." in text else sp.Integer(text)',
        ("test_reader::test_decimals_and_scientific_notation_are_read_exactly",),
        module=LEXICON,
    ),
    # -- laws ---------------------------------------------------------------------------------
    Sabotage(
        "a random variable's declared law is not compared with the law stated",
        '    return f"{x} is declared with another law: {dist}, not {law}"',
        '    return ""',
        ("test_laws::test_a_random_variable_has_its_declared_law",),
        module=LAWS,
    ),
    Sabotage(
        "any claimed transform of the side stands for the law stated",
        "        if c is not None and _equal(value, law.mgf(c)):",
        "        if c is not None:",
        ("test_laws::test_a_law_of_an_expression_stands_on_a_claimed_transform",),
        module=LAWS,
    ),
    # -- the range of a delta's index ---------------------------------------------------------
    Sabotage(
        "a delta's index is taken to lie in every sum's range",
        "    return _below(small, big, isinstance(cond, (sp.Lt, sp.Gt)), ranges)",
        "    return True",
        ("test_equivalence::test_a_delta_is_summed_out_where_the_declared_range_proves_its_index_in_the_sum",),
        module="symattn.proof.equivalence",
    ),
    Sabotage(
        "a declared range need not be on the page",
        "        if not _same_range(stated_ranges.get(x), (low, high)):",
        "        if False:",
        ("test_shown::test_a_delta_is_summed_out_only_in_a_range_the_page_shows",),
        module=ASSUMPTIONS,
    ),
    Sabotage(
        "a value of a transform at one number stands for a law",
        "    if not c.free_symbols or (symbols and c.has(*symbols)):",
        "    if c == 0 or (symbols and c.has(*symbols)):",
        ("test_laws::test_a_value_of_the_transform_at_one_number_is_no_law",),
        module=LAWS,
    ),
    Sabotage(
        "a declared range holds even where a sum binds the name",
        "        outer = enclosing | {x[0] for x in s.limits[at + 1 :]}",
        "        outer = frozenset()",
        ("test_equivalence::test_a_declared_range_does_not_hold_where_a_sum_binds_the_name",),
        module="symattn.proof.equivalence",
    ),
    Sabotage(
        "a range an assumption denies counts as stated",
        "        if DENIAL.search(text[last : m.start()]):",
        "        if False:",
        ("test_shown::test_a_range_may_be_written_as_people_write_it_but_not_denied",),
        module=SHOWN_BASE,
    ),
]


@contextmanager
def applied(sabotage: Sabotage) -> Iterator[None]:
    """Run with ``sabotage`` applied to the loaded module, in this process, then undo it.

    The edited line's enclosing function (or method) is compiled again from the edited source
    and put in place of the original; an edit outside any function (a constant) is run in the
    module's namespace. A function or constant that other modules of symattn imported by name
    is replaced there too (the engine's modules share their helpers so). Nothing is written to
    disk.
    """
    module = importlib.import_module(sabotage.module)
    source = Path(module.__file__ or "").read_text(encoding="utf-8")
    if source.count(sabotage.old) != 1:
        raise LookupError(f"{sabotage.description}: {sabotage.old!r} is not once in {sabotage.module}")
    edited = source.replace(sabotage.old, sabotage.new, 1)
    line = source[: source.index(sabotage.old)].count("\n") + 1
    owner, node = _enclosing(ast.parse(edited), line)
    if node is None:  # a module-level statement: run the edited lines
        names = _assigned(sabotage.new)
        saved = {name: getattr(module, name) for name in names}
        sharing = {name: _sharing(name, saved[name], module) for name in names}
        exec(compile(textwrap.dedent(sabotage.new), module.__file__ or "", "exec"), module.__dict__)
        for name in names:
            for other in sharing[name]:
                setattr(other, name, getattr(module, name))
        try:
            yield
        finally:
            for name, value in saved.items():
                for other in [module, *sharing[name]]:
                    setattr(other, name, value)
        return
    target: Any = getattr(module, owner) if owner else module
    original = target.__dict__[node.name] if owner else getattr(module, node.name)
    namespace: dict[str, Any] = {}
    code = textwrap.dedent(ast.get_source_segment(edited, node) or "")
    exec(compile(code, module.__file__ or "", "exec"), module.__dict__, namespace)
    replacement = namespace[node.name]
    if isinstance(original, staticmethod):
        replacement = staticmethod(replacement)
    sharing = [] if owner else _sharing(node.name, original, module)
    for holder in [target, *sharing]:
        setattr(holder, node.name, replacement)
    try:
        yield
    finally:
        for holder in [target, *sharing]:
            setattr(holder, node.name, original)


def _sharing(name: str, value: Any, module: Any) -> list[Any]:
    """The other loaded modules of symattn that hold ``value`` under ``name`` (imported by name)."""
    import sys

    return [
        other
        for key, other in list(sys.modules.items())
        if key.startswith("symattn.") and other is not module and other.__dict__.get(name, object()) is value
    ]


def _enclosing(tree: ast.Module, line: int) -> tuple[str, Any]:
    """(class name or "", innermost function node) holding ``line``; (``""``, None) at module level."""
    for top in tree.body:
        if isinstance(top, ast.ClassDef):
            for item in top.body:
                if isinstance(item, ast.FunctionDef) and item.lineno <= line <= (item.end_lineno or 0):
                    return top.name, item
        elif isinstance(top, ast.FunctionDef) and top.lineno <= line <= (top.end_lineno or 0):
            return "", top
    return "", None


def _assigned(code: str) -> list[str]:
    return [
        t.id
        for node in ast.walk(ast.parse(textwrap.dedent(code)))
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    ]
