"""Binding a module's numeric claims to computations, by what they say.

Each rule recognises a kind of claim from its text and context (never from its place in the
file) and computes the true value with the library:

- ``arithmetic``: a formula ``a = b ≈ c`` is evaluated member by member (decimals read
  exactly; the two-token example's vectors q_1, k_1, ... come from the module's own table);
  a stated figure must be the correctly rounded value of the formula as written, or, when the
  formula computes with rounded figures the text stated before (``e^{1.414}`` after
  ``√2 ≈ 1.414``), of the formula with their exact values (:class:`.match.Figures`);
- ``statistics``: E[...] and Var(...) of products of independent N(0, 1) entries, by the
  rules the module states (linearity, independence, variances of independent terms add);
- ``worked example``: vectors and figures of the two-token example against the exact stages of
  :func:`symattn.core.exact.attention` (scores, scaled, masked, weights, output);
- ``cost``: cost terms against :func:`symattn.core.flops.cost_terms` and the crossover against
  :func:`symattn.core.flops.crossover`;
- ``mask``: a written causal mask against :meth:`symattn.core.masks.Mask.exact`;
- ``typical score``: sqrt(d_k), the standard deviation of q.k;
- ``lab``: measured figures against the labs (:mod:`symattn.grading.audit.labs`).

A number no rule binds is a reference (section 6.3, lab 2b, a year in a citation), a given
(the premise of a claim: "at d_k = 64", "over 500 trials", an exercise's own data) or an
``unchecked`` claim with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import pairwise

import sympy as sp

from ...limits import AUDIT_LINES
from . import (
    calc,
    causal,
    complexity,
    contractions,
    cost,
    counts,
    gradients,
    heads,
    identities,
    indices,
    instances,
    intensity,
    letters,
    magnitudes,
    meaning,
    normalising,
    notclaims,
    onehot,
    online,
    outputs,
    perplexity,
    positions,
    restated,
    scaling,
    shapes,
    sharding,
    shares,
    slices,
    sums,
    training,
    words,
)
from .document import EXERCISE, Document, Line, number_spans
from .facts import Facts
from .match import (
    CERTIFIED,
    KNOWN_SYMBOLS,
    UNCHECKED,
    WRONG,
    Claim,
    Figures,
    evaluate,
    formula_span,
    inside,
    same,
    stated_vector,
    substitute_heads,
    value_text,
    vector_ok,
)
from .notclaims import NOT_A_CLAIM
from .said import Math, Said
from .stated import Stated, Unreadable, rounds_to

__all__ = ["CERTIFIED", "REST", "UNCHECKED", "WRONG", "Auditor", "Claim"]

#: The claim that stands for the part of a text the audit did not reach (it stopped at a bound).
REST = "the rest of the text"


#: The rules that read a line after its formulas, each ``rule(auditor, line, add, covered)``.
RULES = (
    contractions.contraction_claims,
    words.masks,
    words.valid_lengths,
    words.sum_or_product,
    words.axes_explained,
    words.softmax_denominator,
    causal.causal_claims,
    causal.triangle_claims,
    causal.softmax_axis_claims,
    words.stage_vectors,
    words.typical_score,
    words.factors,
    words.factor_instead,
    words.about,
    words.listed_weights,
    words.their_sum,
    words.example_scalars,
    cost.head_width,
    words.statistics_words,
    words.moments,
    cost.heads_words,
    heads.heads_claims,
    heads.shared_claims,
    cost.growth,
    words.conventions,
    cost.cost_expressions,
    shapes.shape_claims,
    shapes.named_products,
    shapes.parameter_claims,
    shapes.output_projection,
    outputs.example_output_claims,
    outputs.self_attention_output_claims,
    outputs.weights_shape_claims,
    outputs.joined_claims,
    outputs.output_width_claims,
    indices.range_claims,
    identities.dependence_claims,
    identities.term_claims,
    sums.normalisation_claims,
    complexity.complexity_claims,
    complexity.receptive_claims,
    complexity.chain_claims,
    complexity.elements_claims,
    complexity.scaling_word_claims,
    magnitudes.magnitude_claims,
    magnitudes.few_mistakes,
    shares.share_claims,
    counts.count_claims,
    onehot.onehot_claims,
    online.online_claims,
    perplexity.perplexity_claims,
    training.training_claims,
    training.size_claims,
    training.trend_claims,
    training.remat_claims,
    training.thumb_claims,
    training.restated_totals,
    gradients.gradient_claims,
    sharding.sharded_claims,
    slices.slice_claims,
    slices.shift_claims,
    normalising.divisor_claims,
    scaling.saturation_claims,
    scaling.dot_variance_claims,
    meaning.facts_in_words,
    instances.instance_claims,
    positions.wavelength_claims,
    positions.repetition_claims,
    positions.frequency_claims,
    positions.bit_claims,
    restated.share_claims,
    restated.premise_figures,
    restated.half_claims,
    restated.restated_claims,  # last: a figure no other rule read
)
#: An O-class in a formula: ``O(S)``, ``\mathcal{O}`` read as ``(O) (``.
_BIG_O_CLASS = re.compile(r"(?<![A-Za-z_])\(?O\)?\s*\(")
#: Words of a limit an approximation is taken in (≫ is read "gg"): the audit does not take limits.
_ASYMPTOTIC = re.compile(
    r"≫|≪|\bgg\b|\bll\b|much (?:greater|larger|smaller|less)|dominat|negligible|limit", re.I
)
#: A formula that follows these words states when something holds, not that it holds.
_CONDITION = re.compile(r"\b(?:when|whenever|once|if|until|unless|whether)\s*$", re.I)
_RULE_ERRORS = (
    Unreadable,
    ValueError,
    TypeError,
    ArithmeticError,
    AttributeError,
    IndexError,
    KeyError,
    RecursionError,
    NotImplementedError,
    sp.SympifyError,
    sp.PolynomialError,
)


#: Why a formula with numbers is not read, said as the claim's reason (other formulas the
#: parser leaves, such as prose in math, are left to the rules that read numbers in words).
_SAID_UNREADABLE = {"formula too long", "formula nested too deeply"}


class Auditor:
    """Runs every rule over a document and accounts for every number in it."""

    def __init__(self, doc: Document, formulas: int | None = None, cut: int = 0):
        self.doc = doc
        #: The most formulas read (a bound on the work, by the text), and where the text was cut.
        self.formulas = formulas
        self.cut = cut
        self.facts = Facts(doc)
        self.env = self.facts.env()
        #: Quantities the text defines by a stated identity (sigma_z = sqrt(Var(z))), as values
        #: in the symbols they are written in; later claims about them are checked.
        self.defined: dict[str, sp.Basic] = {}
        #: Rounded figures certified so far, with the exact values they stand for.
        self.figures = Figures(
            [x for steps in self.facts.examples.values() for m in steps.stages.values() for x in m]
        )
        self.claims: list[Claim] = []
        self._givens: list | None = None
        self._place: dict[int, int] = {}
        #: The shapes the text has declared or made so far, and the paragraph last read for them.
        self.shapes = shapes.Shapes()
        self.shapes_block = -1
        #: The axes the text has given its arrays so far (A[B, T, D]), for contraction costs.
        self.axes = contractions.Axes()
        #: The letters the text uses as indices, if it writes in index notation (z_{bsd}).
        self.index_letters = indices.index_letters(doc)
        #: Relations the text assumed so far (F = 4D, D = NH), each letter's latest, in order.
        self.relations: list[tuple[sp.Symbol, sp.Expr]] = []
        #: The wholes the text stated as parts (a set of 9 + 1 images, a dataset of classes).
        self.wholes: dict[str, counts.Whole] = {}
        #: Spans of lines not read yet that a claim made on an earlier line holds (its condition
        #: wrapped onto the next line): covered when that line is read.
        self.ahead: dict[int, list[tuple[int, int]]] = {}
        #: Totals the audit certified in the text's letters: (line, value, what they count), in order.
        self.totals: list[tuple[int, sp.Expr, str]] = []
        self._premise_spans: list[tuple[int, int]] = []  # the line's relations: premises
        self._by_number: dict[int, list[Line]] | None = None
        #: The name the chain being read defines (its first member), if it defines one.
        self._defining: str | None = None

    def run(self) -> list[Claim]:
        read = lines = 0
        stopped = self.cut
        for line in self.doc.lines:
            if line.kind in ("prose", "math", "table") and line.text:
                lines += 1
                if self.formulas is not None and lines > AUDIT_LINES:
                    stopped = line.number
                    why = f"the audit reads at most {AUDIT_LINES:,} lines of prose and math: it stopped here"
                    break
                # a formula counts 1, and 4 more for each root, exponential or logarithm it
                # holds (each asks for certified digits): the work is bounded by the text
                read += sum(1 + 4 * len(re.findall(r"sqrt|exp|ln\b", p)) for _, p, _, _ in line.formulas)
                if self.formulas is not None and read > self.formulas:
                    stopped = line.number
                    why = f"the audit reads at most {self.formulas:,} formulas' worth: it stopped here"
                    break
                self._line(line)
        else:
            why = "the audit reads a text only to its bound of characters: it stopped here"
        unread = [(n, w, t) for n, w, t in self.doc.unread if not stopped or n < stopped]
        for number, why_, text in unread:  # what was not read is said, never skipped
            self.claims.append(Claim(number, text, UNCHECKED, None, f"not read: {why_}"))
        if stopped:
            self.claims = [c for c in self.claims if c.line < stopped]
            self.claims.append(Claim(stopped, REST, UNCHECKED, None, f"not read: {why}"))
        self._wrapped()
        return sorted(self.claims, key=lambda c: (c.line, c.spans[0] if c.spans else (0, 0)))

    def _wrapped(self) -> None:
        """A claim in an inline formula wrapped onto the lines after its own runs to the line
        the formula closes on (the error a reader finds there is the claim's)."""
        wraps = {x.number: x.wraps for x in self.doc.lines if x.wraps}
        for c in self.claims:
            for start, end, last in wraps.get(c.line, ()):
                if any(a < end and start < b for a, b in c.spans):
                    c.through = max(c.through, last)

    def _line(self, line: Line) -> None:
        covered: list[tuple[int, int]] = self.ahead.pop(line.number, [])
        found: list[Claim] = []

        def add(claim: Claim) -> None:
            found.append(claim)
            covered.extend(claim.spans)

        failed: list[str] = []

        def attempt(fn: Callable, *args) -> object:
            # A module is author text: a rule that cannot make sense of a line leaves its
            # numbers to be reported as unchecked, and names why, instead of stopping the audit.
            try:
                return fn(*args)
            except _RULE_ERRORS as exc:
                failed.append(_FAILED.get(type(exc).__name__, "a value it could not work out"))
                return None

        for rule in (self._keys, self._exercise_prompt, self._table, self._lab):
            if attempt(rule, line, add, covered):
                break
        else:
            # index notation first: its equations are about indices, not values to compute
            attempt(indices.index_claims, self, line, add, covered)
            attempt(words.parity, self, line, add, covered)  # "even (i mod 2 = 0)": not a value
            attempt(words.chunk_sums, self, line, add, covered)  # a chunk's sum and its own max
            attempt(words.chunk_combination, self, line, add, covered)  # chunks' sums rescaled, added
            # a relation simplified into another is one claim, before either is read alone
            attempt(instances.simplified_claims, self, line, add, covered)
            # a bound said with a share that dominates: before a chain reads it as an inequality
            attempt(training.dominance_claims, self, line, add, covered)
            # identities of vectors, matrices and sines: before a chain or a mask reads them
            attempt(identities.identity_claims, self, line, add, covered)
            attempt(sums.sum_claims, self, line, add, covered)  # identities of sums, written out
            # q·k divided by √d (or, wrongly, by d): before a chain reads the formula as a value
            attempt(scaling.scale_claims, self, line, add, covered)
            # bytes, FLOPs and their quotient from the displays before: before a chain reads them
            attempt(intensity.intensity_claims, self, line, add, covered)
            for start, end, members, relations in self._chains(line, add, covered):
                if not inside(covered, start, end):
                    attempt(self._chain, line, start, end, members, relations, add)
            for rule in RULES:
                attempt(rule, self, line, add, covered)
        covered.extend(_references(line) + self._premise_spans)
        self._premise_spans = []
        # what no rule bound is one unchecked claim per formula, or per sentence of prose,
        # however many numbers it writes (a claim is counted once, not once per digit)
        # (a formula that states a relation is a claim of its own; a value named in a sentence,
        # ``⟨1⟩`` or ``⟨1/√d_k⟩``, is part of the sentence's claim)
        leftovers: dict[tuple[int, int], list[tuple[int, int]]] = {}
        relating = {(s, e) for _, plain, s, e in line.formulas if re.search(r"[=≈<>≤≥]", plain)}
        for start, end in number_spans(line.text):
            if not any(a <= start and end <= b for a, b in covered):
                span = formula_span(line, start, end)
                key = span if span in relating else line.sentence_at(start)
                leftovers.setdefault(key, []).append((start, end))
        introduction = self.previous_block(line) if line.kind == "math" else ""
        for key, spans in leftovers.items():
            add(_leftover(line, spans, failed, formula=key in relating, introduction=introduction))
        for c in found:
            c.typeset = _typeset(c.text, line)
        self.claims.extend(c for c in found if c.verdict is not None)

    def _keys(self, line: Line, add: Callable, covered: list) -> bool:
        exercises = self.doc.once("exercises", lambda doc: any(EXERCISE.search(x.raw) for x in doc.lines))
        if exercises and re.search(r"\*Answer:\*", line.raw):
            covered.append((0, len(line.text)))  # judged by the answer-key audit
            return True
        return False

    def _exercise_prompt(self, line: Line, add: Callable, covered: list) -> bool:
        if EXERCISE.search(line.raw):
            covered.append((0, len(line.text)))  # an exercise's data are givens
            return True
        return False  # a numbered question's data are set apart as such (notclaims), its claims read

    def _table(self, line: Line, add: Callable, covered: list) -> bool:
        if line.kind != "table":
            return False
        if self.facts.vectors and re.match(r"\|?\s*token \d+", line.text.strip().lower()):
            covered.append((0, len(line.text)))  # the example's inputs
            return True
        return False

    def _lab(self, line: Line, add: Callable, covered: list) -> bool:
        block = self.doc.block_text(line)
        if not re.search(r"\bMeasured\b", block):
            return False
        from .labs import lab_claims

        for claim in lab_claims(line, block):
            add(claim)
        return False  # the rest of the line is read by the other rules

    def _chains(self, line: Line, add: Callable, covered: list):
        for tex, plain, start, end in line.formulas:
            if "bmatrix" in tex or inside(covered, start, end):
                continue  # a formula another rule read (a relation simplified) is neither claim nor premise
            # "q_i ~ N(0, σ²) → Var(...) = σ⁴ d_k": what follows the arrow is the claim, what
            # comes before it its premises (read with the text's statistics)
            plain = re.split(r"\s[→⇒]\s", plain)[-1]
            try:
                members, relations = calc.parse_chain(plain)
            except Unreadable as exc:
                if re.search(r"\d", plain) and str(exc) in _SAID_UNREADABLE:
                    reason = f"a formula the audit does not read: {exc}"
                    add(Claim(line.number, line.text[start:end], UNCHECKED, None, reason, [(start, end)]))
                continue
            if _APPLIED.search(plain):
                continue  # v(0) = 1, Φ(0) = 1/2: a function of the text's at a point, not a product
            a, b = line.sentence_at(start)
            if _CONDITION.search(line.text[a:start]) and "=" in relations:
                continue  # "the costs are equal when 2T = 16D": a condition, not a claim about T and D
            if re.search(r"\b(?:sin|cos|tan)\(", plain) and re.search(r"degree|°|circ", line.text[a:b], re.I):
                continue  # sin(90) on a calculator set to degrees: not SymPy's radians
            defines = self._definition(members, relations)
            digits = bool(re.search(r"\d", re.sub(r"sum_\(\w=1\)", "", plain)))
            names = set().union(*(calc.symbols_of(m) for m in members))
            crossover = bool(set(relations) & {">", "<", "≥", "≤"}) and {"N", "d_model"} <= names
            about_defined = bool(names & set(self.defined)) and not defines
            statistics = self.facts.standard_normal and any(
                n[0] == "call" and n[1] in ("E", "Var") for m in members for n in calc.walk(m)
            )
            width = self.facts.dimension
            if statistics and width is not None and (names & _WIDTHS) - {width.name}:
                continue  # a width the text does not give q and k (d_k where q ∈ R^d): not decided
            # in the text's letters: a relation it assumes (F = 4D) is a premise; a chain of two
            # expressions or more (18BTDF + 24BTDNH = 6BT(3DF + 4DNH)) a claim
            # (M = N, a letter named by another, is both: a definition and a relation assumed)
            single = all(m[0] == "sym" and re.fullmatch(r"[A-Z]", m[1]) for m in members)
            if (not defines or single) and relations == ["="] and self._relation(line, start, members):
                continue
            if (
                not defines
                and not digits
                and not crossover
                and not about_defined
                and not statistics
                and not (
                    set(relations) <= {"=", "≈"}
                    and sum(m[0] != "sym" for m in members) >= 2
                    and all(letters.value(m, {}, []) is not None for m in members)
                )
            ):
                continue
            if (
                set(relations) == {"="}
                and all(m[0] == "sym" and m[1] not in self.defined for m in members[:-1])
                and calc.literal(members[-1]) is not None
            ):
                continue  # "d_k = 64", "d_k = d_v = 64": a premise, read by the rules that use it
            unit = re.match(r"\s*(bytes|[kKMGTP]i?B|thousand|million|billion|trillion)\b", line.text[end:])
            if unit and calc.literal(members[-1]) is not None:  # "= 32$ MiB": the figure's unit
                members = [*members[:-1], ("mul", members[-1], ("sym", unit.group(1)))]
            if relations and not (defines and len(members) == 2 and not digits):
                # X = sqrt(N/8) names X: what it is compared with is not its own definition
                self._defining = members[0][1] if defines else None
                yield start, end, members, relations

    def _relation(self, line: Line, start: int, members: list) -> bool:
        """Remember ``F = 4D`` (outside a sentence that supposes); True when it is one."""
        rel = letters.relation(members)
        if rel is None or _matrices(line, start):
            return False  # A = W Σ W^-1 in bold: matrices, which do not commute, are no sizes
        a, b = line.sentence_at(start)
        if _RESULT_BEFORE.search(line.text[a:start]):
            return False  # "Solving ... yields ⟨N = 2d⟩": a result claimed, not a relation assumed
        sentence = line.text[a:b]
        # "if we assume F = 4D:" supposes for what it introduces, which follows it
        if not _SUPPOSING.search(sentence) or sentence.rstrip().endswith(":"):
            self.relations = [r for r in self.relations if r[0] != rel[0]] + [rel]
        self._premise_spans.append(formula_span(line, start, start + 1))  # a premise, not a claim
        return True

    def _letters(self, line, start, end, members, relations, add, drop: list[str] = ()) -> bool:
        """The chain as an identity in the text's letters (:mod:`.letters`), without the given
        values of ``drop``; False when its members are not all sizes."""
        if not set(relations) <= {"=", "≈"} or ("=" not in relations and "≈" not in relations):
            return False
        if _matrices(line, start):
            return False  # bold capitals are matrices: the letters rules multiply sizes, which commute
        if _BIG_O_CLASS.search(line.text[start:end]):
            return False  # O(S R) = O(S): classes, the complexity rules' to read, not O times S R
        given = {k: v for k, v in self.premises(line, start).items() if k not in drop}
        prose, readings, given_spans = _prose_givens(line, start)  # "a model with ⟨B * T=4M⟩, L=64, D=8192"
        given = {**prose, **given}
        if (
            relations == ["≈"]
            and members[0][0] == "sym"
            and len(members[0][1]) == 1
            and members[0][1] not in given
        ):
            return False  # "P ≈ 12 L d^2": a letter named by an approximation, a premise of what follows
        stated = [i for i, m in enumerate(members) if calc.literal(m) is not None]
        for products in readings:  # a product in k or M: the reading the stated figure agrees with
            values = [letters.value(m, given, self.relations + products) for m in members]
            if any(v is None for v in values):
                return False
            if not stated or any(v.free_symbols for v in values):
                break
            figure = Stated.read(calc.literal(members[stated[-1]]))
            if all(rounds_to(v, figure, True) for i, v in enumerate(values) if i not in stated):
                break
        else:
            products = readings[0]
            values = [letters.value(m, given, self.relations + products) for m in members]
        text, spans = line.text[start:end], [(start, end)]
        if prose or products:
            self._premise_spans.extend(given_spans)
        rule = "identity in the text's letters (SymPy)"
        own = set().union(*(letters.value(m, {}, []).free_symbols for m in members))
        # a relation used either way: F = 4D puts 4D for F; N·H = D with D given puts D's value for N·H
        used = [
            f"{s} = {e}"
            for s, e in self.relations
            if s in own or (s.name in given and e.free_symbols and e.free_symbols <= own)
        ]
        if used:
            rule += "; assuming " + ", ".join(used)
        if stated and all(not v.free_symbols for v in values):
            figure = Stated.read(calc.literal(members[stated[-1]]))
            ok = all(rounds_to(v, figure, True) for i, v in enumerate(values) if i not in stated)
            verdict, k = ("agree" if ok else "differ"), 0
        elif "≈" in relations and _ASYMPTOTIC.search(line.text[slice(*line.sentence_at(start))]):
            return False  # "S ≫ T = 1 ⟹ ST/(S+T) ≈ 1": an approximation under the text's own limit
        elif "≈" in relations:  # each neighbour by its own relation, the first that differs
            pairs = [
                letters.approximate(values[i], values[i + 1])
                if r == "≈"
                else letters.verdict(values[i : i + 2])[0]
                for i, r in enumerate(relations)
            ]
            k = next((i for i, v in enumerate(pairs) if v == "differ"), -1)
            verdict = (
                "differ" if k >= 0 else "open" if "open" in pairs else "none" if "none" in pairs else "agree"
            )
            if verdict == "agree":
                rule += "; a term of lower degree may be dropped after ≈"
        else:
            verdict, k = letters.verdict(values)
        if verdict == "none":
            return False
        if verdict == "agree":
            shown = next(v for v in reversed(values) if not letters.named(v))
            add(Claim(line.number, text, CERTIFIED, Said(Math(shown)), rule, spans))
        elif verdict == "differ":
            said = Said(Math(values[k + 1]), " is not ", Math(values[k]))
            add(Claim(line.number, text, WRONG, said, rule, spans))
        else:
            why = "equal only under a premise the text does not state (the two sides differ by letters)"
            add(Claim(line.number, text, UNCHECKED, None, why, spans))
        return True

    def _definition(self, members: list, relations: list[str]) -> bool:
        """A stated identity that names a quantity (sigma_z = sqrt(Var(z))): remembered, so that
        later claims about it are checked; True when the chain starts with one."""
        if not relations or relations[0] != "=" or members[0][0] != "sym":
            return False
        name = members[0][1]
        if name in KNOWN_SYMBOLS or name in self.env or calc.literal(members[1]) is not None:
            return False
        if name in self.defined:
            return False  # defined before: this is a claim about it, checked as one
        value = evaluate(members[1], self.env)
        if value is None or isinstance(value, sp.MatrixBase) or not value.free_symbols:
            return False
        self.defined[name] = value
        return True

    def _defined_env(self, premises: dict) -> dict:
        """The defined quantities, with the line's premises (d_k = 64) put in."""
        return {
            name: value.xreplace({s: premises[s.name] for s in value.free_symbols if s.name in premises})
            for name, value in self.defined.items()
        }

    def _chain(self, line, start, end, members, relations, add) -> None:
        """A chain's verdict with the premises of its unit; where its stated figure could not
        be compared with them (``d_k = d_model/h = 32``), with the values the text gave before
        it too (``Let $h = 8$ and $d_{model} = 512$.``). A figure compared with nothing is not
        certified by the symbolic members beside it: the claim stays unchecked."""
        a, _ = line.sentence_at(start)
        if _PRODUCT_GIVEN.fullmatch(line.text[start:end]) and _GIVES.search(line.text[a:start]):
            self._premise_spans.append((start, end))  # "a model with ⟨B * T = 4M⟩": a given
            return
        if _RESULT_BEFORE.search(line.text[a:start]) and relations == ["="] and members[0][0] == "sym":
            why = "what a derivation the audit did not follow comes to (solving, equating): not checked"
            add(Claim(line.number, line.text[start:end], UNCHECKED, None, why, [(start, end)]))
            return
        posed = _SOLVING_BEFORE.search(line.text[a:start]) and relations == ["="]
        if posed and any(calc.symbols_of(m) for m in members):  # an equation with unknowns
            why = "an equation posed to be solved: what solving it yields is the claim, not this"
            add(Claim(line.number, line.text[start:end], UNCHECKED, None, why, [(start, end)]))
            return
        found: list[Claim] = []
        compared = self._chain_with(line, start, end, members, relations, found.append, self.premises(line))
        if not compared:
            earlier = self.premises(line, start)
            if members[0][0] == "sym":  # d_k = d_model/h = 32 states d_k: no earlier d_k applies
                earlier.pop(members[0][1], None)
            again: list[Claim] = []
            if earlier != self.premises(line) and self._chain_with(
                line, start, end, members, relations, again.append, earlier
            ):
                found, compared = again, True
                # a name the text gave two values before (a toy model's d_k = 16, then the
                # full size's): which holds is the reader's guess, and a guess decides nothing
                torn = sorted(k for k in earlier if len(self.given_values(line, start, k)) > 1)
                without: list[Claim] = []  # wrong whatever the torn names are: decided
                if torn and any(c.verdict == WRONG for c in found):
                    rest = {k: v for k, v in earlier.items() if k not in torn}
                    self._chain_with(line, start, end, members, relations, without.append, rest)
                    if not any(c.verdict == WRONG for c in without):
                        without = []
                        self._letters(line, start, end, members, relations, without.append, drop=torn)
                decided = any(c.verdict == WRONG for c in without)
                if torn and any(c.verdict == WRONG for c in found) and not decided:
                    why = f"{', '.join(torn)} given more than one value before this claim: not decided"
                    found = [Claim(c.line, c.text, UNCHECKED, None, why, c.spans) for c in found]
                # a value given in an earlier section may belong to another example (a model's F
                # there, another model's here): it may certify, never condemn
                names = set().union(*(calc.symbols_of(m) for m in members))
                far = [k for k in sorted(earlier) if k in names and self._given_elsewhere(line, start, k)]
                if far and any(c.verdict == WRONG for c in found):
                    why = f"wrong only with {', '.join(far)} as given in an earlier section: not decided"
                    found = [Claim(c.line, c.text, UNCHECKED, None, why, c.spans) for c in found]
        if all(c.verdict == UNCHECKED and c.rule.startswith("no member") for c in found):
            again = []
            if self._letters(line, start, end, members, relations, again.append):
                found, compared = again, True
        why_not = None
        if not compared:
            posed = notclaims.posed(line, start)
            why_not = notclaims.CONDITION if posed else notclaims.formula_reason(members, relations)
            formula = line.text[start:end].strip("⟨⟩")
            if why_not is None and notclaims.explained_after_where(line, formula, self.previous_block(line)):
                why_not = notclaims.DEFINITION  # "where" ⟨M^1 = max_j Q·K_j^1 and ...⟩: names explained
        if why_not and notclaims.holds_in(line, start, end, why_not):
            found = [Claim(c.line, c.text, NOT_A_CLAIM, None, why_not, c.spans) for c in found]
        elif not compared:
            why = "its stated figure could not be compared: a value it needs is not given in the text"
            found = [
                Claim(c.line, c.text, UNCHECKED, None, why, c.spans) if c.verdict == CERTIFIED else c
                for c in found
            ]
        for claim in found:
            add(claim)

    def _chain_with(self, line, start, end, members, relations, add, premises: dict) -> bool:
        """Add the chain's claim; False when its stated figure was compared with no member."""
        text = line.text[start:end]
        spans = [(start, end)]
        if set(relations) & {">", "<", "≥", "≤"}:
            numbers = not any(calc.symbols_of(m) for m in members)
            add(
                numeric_inequality(line, text, spans, members, relations, self.env)
                if numbers
                else cost.inequality(self, line, text, spans, members, relations)
            )
            return True
        env = {**self.env, **self._defined_env(premises), **premises}

        def given(v: sp.Basic | None) -> sp.Basic | None:  # the premises in a model's value too
            if v is None or isinstance(v, sp.MatrixBase) or not v.free_symbols:
                return v
            return v.xreplace({s: premises[s.name] for s in v.free_symbols if s.name in premises})

        values = [given(evaluate(m, env)) for m in members]
        names = set().union(*(calc.symbols_of(m) for m in members))

        def heads(v: sp.Basic) -> sp.Basic:  # d_k = d_model / h only where heads are in play
            return given(substitute_heads(v)) if names & {"h", "d_model", "N"} else v

        stated_i = max(
            (i for i, m in enumerate(members) if calc.literal(m) or stated_vector(m)), default=None
        )
        problems: list[Said] = []
        checks: list[str] = []
        compared = stated_i is None
        rough = bool(_ROUGHLY.search(self._two_sentences_before(line, start)))
        exact_whole = stated_i is not None and stated_i > 0 and relations[stated_i - 1] == "="
        if stated_i is not None:
            stated_node = members[stated_i]
            for i, (m, v) in enumerate(zip(members, values, strict=True)):
                if i == stated_i or v is None:
                    continue
                v = heads(v) if not isinstance(v, sp.MatrixBase) else v
                if not isinstance(v, sp.MatrixBase) and v.free_symbols:
                    continue  # sqrt(d_k) beside sqrt(2): a premise, not a value
                ok, how, shown = self._matches(line, m, v, stated_node, exact_whole, rough)
                compared = True
                values[i] = shown  # the value as read: a remembered figure by its exact value
                if ok:
                    checks.append(how)
                else:
                    problems.append(Said(Math(shown)))
        if stated_i is None:
            numeric = [
                v for v in values if v is not None and not isinstance(v, sp.MatrixBase) and not v.free_symbols
            ]
            for a, b in pairwise(numeric):
                if same(a, b):
                    checks.append("exact")
                else:
                    problems.append(Said(Math(b), " is not ", Math(a)))
        symbolic = [
            (i, heads(v))
            for i, v in enumerate(values)
            if v is not None
            and not isinstance(v, sp.MatrixBase)
            and v.free_symbols
            and not (i == 0 and members[0] == ("sym", self._defining))  # X = sqrt(N/8): X is that
        ]
        fails = set()
        for k, ((_, a), (_, b)) in enumerate(pairwise(symbolic)):
            if same(a, b):
                checks.append("SymPy")
            else:
                fails.add(k)
        problems += disagreements([v for _, v in symbolic], fails, "")
        # Every member is a claim about its neighbour, not only the figure at the end: two
        # neighbours that both name quantities must be equal as expressions (the slip
        # Var(z/sqrt(d_k)) = (1/sqrt(d_k)) Var(z) = d_k/d_k = 1 fails at its middle term). A
        # member written only in numbers beside a symbolic one is a substitution (sqrt(d_k) =
        # sqrt(2) at d_k = 2), read as a premise.
        fails = set()
        for i, rel in enumerate(relations):
            a, b = values[i], values[i + 1]
            if rel != "=" or a is None or b is None:
                continue
            if isinstance(a, sp.MatrixBase) or isinstance(b, sp.MatrixBase):
                continue
            if not (calc.symbols_of(members[i]) and calc.symbols_of(members[i + 1])):
                continue
            a, b = heads(a), heads(b)
            if not (a.free_symbols or b.free_symbols) or (a.free_symbols and b.free_symbols):
                continue  # numbers are compared with the stated figure; expressions just above
            if not same(a, b):
                fails.add(i)
        problems += disagreements(
            [heads(v) if isinstance(v, sp.Basic) else v for v in values], fails, "the middle term "
        )
        role = (
            cost.cost_role(line.text[:start], text)
            if symbolic and "N" in calc.symbols_of(members[-1])
            else None
        )
        if role:
            want = cost.cost_value(role)
            got = symbolic[-1][1]
            if same(got, want):
                checks.append(f"the {role.replace('_', ' ')} term of symattn.core.flops.cost_terms")
            else:
                problems.append(Said(f"the {role.replace('_', ' ')} term is ", Math(want)))
        bound = words.bind_output(self, line, start, members, stated_i)
        if bound is not None:
            ok, value, how = bound
            if ok:
                checks.append(how)
            else:
                problems.append(value)
        kind = (
            r"statistics of independent $\mathcal{N}(0, 1)$ entries (symattn.proof.expectation)"
            if any(n[0] == "call" and n[1] in ("E", "Var") for m in members for n in calc.walk(m))
            else "arithmetic"
        )
        # The premises the verdict used, said with it: those the formula names, and the heads'
        # where d_k stood for d_model / h.
        # (a premise whose symbol cancels, d_k in d_k/d_k, was not used)
        wanted = set()
        for m in members:
            raw = evaluate(m, {**self.env, **self.defined})
            if isinstance(raw, sp.Basic) and not isinstance(raw, sp.MatrixBase):
                raw = substitute_heads(raw) if names & {"h", "d_model", "N"} else raw
                wanted |= {x.name for x in raw.free_symbols}
        used = ", ".join(f"{k} = {premises[k]}" for k in premises if k in wanted)
        given_ = f"; given {used}" if used else ""
        if problems:
            add(
                Claim(
                    line.number,
                    text,
                    WRONG,
                    Said.join("; ", dict.fromkeys(problems)),
                    f"{kind}: " + (checks[0] if checks else "evaluated") + given_,
                    spans,
                )
            )
        elif checks:
            value = value_text(values, stated_i)
            add(
                Claim(
                    line.number,
                    text,
                    CERTIFIED,
                    value,
                    f"{kind}: " + ", ".join(dict.fromkeys(checks)) + given_,
                    spans,
                )
            )
        else:
            add(
                Claim(
                    line.number, text, UNCHECKED, None, "no member of the formula could be evaluated", spans
                )
            )
            return False
        return compared

    def _two_sentences_before(self, line: Line, start: int) -> str:
        """The words before character ``start`` of ``line`` back to the start of the sentence
        before its own ("is roughly X. For these numbers, X = 16e9"), the pieces of its physical
        line included (a display set inside a line of prose splits it into pieces)."""
        if self._by_number is None:
            self._by_number = {}
            for x in self.doc.lines:
                self._by_number.setdefault(x.number, []).append(x)
        pieces = []
        for x in self._by_number.get(line.number, []):
            if x is line:
                break
            if x.kind in ("prose", "math"):
                pieces.append(x.text)
        text = " ".join([*pieces, line.text[:start]])
        stops = [m.end() for m in re.finditer(r"[.;!?](?:\s|$)", text)]
        return text[stops[-2] if len(stops) >= 2 else 0 :]

    def _matches(
        self, line, node, value, stated_node, exact_whole, rough: bool = False
    ) -> tuple[bool, str, sp.Basic]:
        """Whether an evaluated member equals the stated figure (or vector), how, and the value
        as read. A member computed from rounded figures the text stated before is read, when
        it does not match as written, with their exact values (``e^{1.414}`` as ``e^{√2}``);
        the figures as written are never given a rounding leeway of their own."""
        vec = stated_vector(stated_node)
        literal = calc.literal(stated_node)

        def agrees(v) -> bool:
            if vec is not None:
                return isinstance(v, sp.MatrixBase) and vector_ok(v, vec, exact_whole)
            if isinstance(v, sp.MatrixBase):
                return False
            if rounds_to(v, Stated.read(literal), exact_whole):
                return True
            # 120 - 104 = 16 GB: a unit written once, at the end, may be the whole chain's
            unit = re.fullmatch(r"(.*?\d)\s*(?:bytes|[kKMGTP]i?B)", literal.strip())
            return unit is not None and rounds_to(v, Stated.read(unit.group(1)), exact_whole)

        def how_exact() -> str:
            if vec is not None:
                return "rounds to the stated figures" if calc.has_decimal(stated_node) else "exact"
            stated = Stated.read(literal)
            written = sp.Rational(stated.value.numerator, stated.value.denominator)
            if (stated.whole and exact_whole) or same(value, written):
                return "exact"
            return "correctly rounded"

        if agrees(value):
            self._remember(line, stated_node, value)
            return True, how_exact(), value
        if rough and vec is None and not isinstance(value, sp.MatrixBase):
            # "roughly 16e9" for 16.6e9: within one unit of the figure's last digit
            stated = Stated.read(literal)
            if value.is_number and abs(sp.Rational(stated.value) - value) <= sp.Rational(stated.unit):
                return True, "within one unit of its last digit, as the sentence says roughly", value
        read = self.figures.read(node, line, self.example_context(line))
        if read is not None:
            read_node, bound, used = read
            exact = evaluate(read_node, {**self.env, **bound})
            if exact is not None and agrees(exact):
                self._remember(line, stated_node, exact)
                return True, f"{how_exact()}, {self.figures.said(used, bound)}", exact
        return False, "", value

    def _remember(self, line, stated_node, value) -> None:
        """The stated figures of a certified claim, as roundings of ``value``."""
        vec = stated_vector(stated_node)
        if vec is not None and isinstance(value, sp.MatrixBase):
            for (text, _), v in zip(vec, value, strict=False):
                self.figures.remember(text, v, line)
        elif vec is None and not isinstance(value, sp.MatrixBase):
            self.figures.remember(calc.literal(stated_node), value, line)

    def premises(self, line: Line, before: int | None = None) -> dict:
        """The values a reader takes as given at ``line``: ``at d_k = 64`` and the like in the
        line's unit; and, when ``before`` (where the claim starts) is given, the values given
        earlier in the section by a sentence that gives them (``Let $h = 8$ and $d_{model} =
        512$.``, ``With $h = 8$ heads and ..., ...``; not ``a model with $d_k = 32$ would``),
        the latest of each name, outside other exercises."""
        out = dict(self._given_before(line, before)) if before is not None else {}
        if before is not None:  # "If we used d_model = 1024, each head would be d_model/h = 128":
            a, _ = line.sentence_at(before)  # a sentence that supposes holds its own values
            for m in lone_givens(line):
                if a <= m.start() < before:
                    value = sp.Rational(m.group(2).replace(",", ""))
                    out.update({n: value for n in re.findall(r"[A-Za-z]\w*", m.group(1))})
        for m in re.finditer(
            r"(?:[Ff]or|[Aa]t|[Ww]ith|[Ww]hen)\s+⟨\s*(d_model|d_k|d_v|h|N)\s*=\s*([\d,]+)\s*⟩",
            self.doc.unit_text(line),
        ):
            out[m.group(1)] = sp.Integer(m.group(2).replace(",", ""))
        return out

    def _given_elsewhere(self, line: Line, before: int, name: str) -> bool:
        """The latest value given to ``name`` before the claim was given in an earlier section."""
        places = [i for k, _, i in self._given_at(line, before) if k == name]
        return bool(places) and self.doc.lines[places[-1]].section != line.section

    def given_values(self, line: Line, before: int, name: str) -> set:
        """Every value the section gives ``name`` before the claim (more than one: ambiguous)."""
        return {v for k, v in self._given_before(line, before) if k == name}

    def _given_before(self, line: Line, before: int) -> Iterator[tuple[str, sp.Rational]]:
        """(name, value), in order, for each value the text gives before character ``before``
        of ``line``, outside other exercises (an exercise's data stay in it): a value holds
        until the text gives that name another."""
        return ((k, v) for k, v, _ in self._given_at(line, before))

    def _given_at(self, line: Line, before: int) -> Iterator[tuple[str, sp.Rational, int]]:
        """:meth:`_given_before`, each value with the place of the line that gives it."""
        if self._givens is None:  # every line's givens and place, found once (a long text has many claims)
            self._place = {id(x): i for i, x in enumerate(self.doc.lines)}
            found = ((i, x.unit, _givens(x, None)) for i, x in enumerate(self.doc.lines) if x.kind in _READ)
            self._givens = [g for g in found if g[2]]
        here = self._place[id(line)]
        for i, unit, values in self._givens:
            if i >= here:
                break
            if unit <= 0 or unit == line.unit:
                yield from ((k, v, i) for k, v in values)
        yield from ((k, v, here) for k, v in _givens(line, before))

    def previous_block(self, line: Line) -> str:
        """The paragraph that introduces a display (it ends just before it)."""
        return "\n".join(x.text for x in self.doc.block_number(line.block - 1) if x.kind != "heading")

    def example_context(self, line: Line) -> bool:
        return bool(self.facts.examples) and bool(
            re.search(r"\btoken [12]\b|q_1|k_1", self.doc.block_text(line), re.I)
        )


_REFERENCE_PATTERNS = [
    r"\b[Ss]ections? \d+(?:\.\d+)?",
    r"\bModule \d+",
    r"\blab \d+\w?",
    r"\brules? \d+(?: and \d+)?",
    r"\b(?:[Tt]okens?|[Rr]ows?|[Kk]eys?|[Qq]uer(?:y|ies)|[Hh]eads?|[Ss]teps?|[Ee]xercises?|[Ff]igures?|entry"
    r"|[Pp]arts?|[Tt]utorials?|[Aa]ssignments?|[Cc]hapters?|[Ll]ectures?|[Ee]quations?|[Ee]q\.|[Tt]ables?"
    r"|[Aa]lgorithms?|[Aa]ppendix|[Ll]ayers?|[Cc]ells?|[Ii]mages?|[Ee]lements?|[Vv]ersion|[Ll]istings?"
    r"|[Qq]uestions?|[Pp]roblems?|[Nn]otes?|[Ee]xamples?|[Rr]emarks?|[Ll]emmas?|[Tt]heorems?|[Dd]efinitions?"
    r"|[Pp]ropositions?|[Cc]orollar(?:y|ies)|[Ff]ig\.|[Ss]ec\.|[Ee]qs?\.|[Aa]pp\.)"
    r" \d+(?:\.\d+)*(?: to \w+)?(?:'s)?",
    # a model's or product's name with a number in it: Llama-2, GPT-J-6B, Gemma-27B, ResNet-34
    r"\b[A-Z][A-Za-z]*(?:-[A-Za-z]+)*-[A-Za-z.]*\d[\dA-Za-z.]*\b",
    r"\(\d{4}\)",
    # a year
    r"\b(?:[Ii]n|[Ss]ince|[Uu]ntil|[Bb]y|[Ff]rom|[Oo]f|[Ee]arly|[Ll]ate|[Mm]id-?)\s+(?:19|20)\d{2}\b",
    r"(?:et al\.|[A-Z][a-z]+),? (?:19|20)\d{2}[a-z]?\b",  # a citation: Vaswani et al., 2017
    r"\[\^?\d+\]",  # a footnote or citation mark
    r"(?<![\^_\w)])\(\d{1,2}\)(?!\s*[-+*/^=<>×·(])",  # an item's or equation's number: (1) first, see (2)
    r"\b(?:NeurIPS|ICLR|ICML|ACL|NIPS) \d{4}",
    r"arXiv:\d+\.\d+",
    r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4}",
    r"\b\d+ hours?\b",
    # a setting of a run or a span of time: numbers of iterations, epochs, years, not claims
    r"\b[\d,.]+[kKM]?\s+(?:iterations?|epochs?|steps|years?|months?|weeks?|days?|minutes?|seconds?)\b",
    r"_\(?\w*=?\d+\)?",
    r"_\([^()]*\d[^()]*\)",  # an index with a number in it: x_(bs+1), a place, not a claim
]
_GIVEN_PATTERNS = [
    r"\b(?:[Aa]t|[Ff]or|[Ww]ith|[Ww]hen)\s+⟨\s*[A-Za-z_]\w*\s*=\s*[\d,]+\s*⟩",  # at d_k = 64
    r"\bfrom \d+ to \d+",
    r"\bover \d+ keys",
    r"\bwith ⟨?\d+⟩? keys",
    r"(?:exceeds|above|more than|below|clears)\s+⟨?\d+(?:\.\d+)?\s*%?⟩?",
    r"[Oo]ver [\d,]+ random (?:draws|trials)",
    r"mean ⟨?0⟩? and variance ⟨?1⟩?",
    r"⟨[^⟩]*~ N\(0, 1\)⟩",
    r"⟨\s*N\(0, ?1\)\s*⟩",  # independent N(0, 1) entries: the premise of the statistics
    r"for ⟨\s*d_k\s*=\s*[\d, and]+⟩",
    r"⟨p_max\s*\(1 - p_max\)⟩",
    r"⟨\s*[ij]\s*[+-]\s*1\s*⟩",
    r"[Tt]okens? ⟨\s*\d+\s*⟩(?: to ⟨\s*\w+\s*⟩)?",
    r"with rows ⟨[^⟩]*⟩(?:, ⟨[^⟩]*⟩)*(?:,? and ⟨[^⟩]*⟩)?",
    r"[Ss]oftmax of ⟨\[[-\d, ]+\]⟩",
    r"with ⟨[^⟩]*⟩ for ⟨0⟩",
    r"sum_\(i=1\)",
    r"(?:mean|variance) (?:0|1)\b",
    r"the paper uses",
]


#: A value given in a formula: ``h = 8``, ``d_{model} = 512``.
_GIVEN_VALUE = r"⟨\s*[A-Za-z]\w*\s*=\s*\d+(?:\.\d+)?\s*⟩"
_GIVEN = re.compile(r"\s*([A-Za-z]\w*)\s*=\s*(\d+(?:\.\d+)?)\s*")
#: A sentence that gives values: it opens with a word that gives (Let, With, For, ...) and
#: lists them (``Let $h = 8$ and $d_{model} = 512$``, ``With $h = 8$ heads and ..., each``);
#: ``For $h = 8$, $d_k = 60$`` gives h only, and "a model with $d_k = 32$" gives nothing.
GIVING = re.compile(
    r"(?:\A|[.;:!?]\s+)(?:(?:Now|Here|Then|So|First|Next),?\s+)?(?:[Ll]et|[Ss]uppose|[Tt]ake|[Aa]ssume"
    r"|[Gg]iven|[Ss]et|[Ww]ith|[Ff]or|[Aa]t|[Ww]hen)\s+(?P<list>"
    + _GIVEN_VALUE
    + r"(?:[^.;⟨,]{0,24}?,\s*"
    + _GIVEN_VALUE
    + r")*(?:[^.;⟨,]{0,24}?,?\s*\band\s+"
    + _GIVEN_VALUE
    + r")?)"
)


#: A function the text names, applied at a point (``v(0)``, ``\Phi(0)``, ``f(x)``): one lowercase
#: letter or a Greek letter's name just before a parenthesis (a run of capitals, ``BT(3DF)``, is
#: a product of sizes, and the functions the parser knows are read as calls).
_APPLIED = re.compile(
    r"(?<![A-Za-z0-9_.])(?:[a-z]|[Pp]hi|[Pp]si|sigma|Sigma|[Gg]amma|[Ll]ambda|mu|rho|eta|theta|tau|omega)\("
)
#: The kinds of line that hold claims and premises.
_READ = ("prose", "table", "math")
#: Names authors give the width of q and k.
_WIDTHS = {"d", "d_k", "D_k", "D", "d_q", "d_head"}
#: Words that make a figure an estimate (the sentence before a chain says so).
_ROUGHLY = re.compile(r"\b(?:roughly|about|approximately|around|nearly|some)\b|~|≈")
#: A formula that only gives a value: ``⟨h = 8⟩``, ``⟨d_k = d_v = 64⟩`` (each name before it).
_LONE = re.compile(r"⟨\s*((?:[A-Za-z]\w*\s*=\s*)+)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*⟩")
#: A sentence that supposes (``a model with ⟨d_k = 32⟩ would``): its values hold in it only.
_SUPPOSING = re.compile(
    r"\b(?:would|could|might|if|whereas|instead)\b"
    r"|\bfor\s+(?:e\.g\.,?\s+)?⟨[^⟩]*⟩,?\s+(?:this|that|it)\b",  # "for D = 4096, this is 8192": an instance
    re.I,
)


def _givens(line: Line, before: int | None) -> list[tuple[str, sp.Rational]]:
    """(name, value) for each value ``line`` gives, in order, before character ``before``: the
    values a sentence that gives values lists (:data:`GIVING`), and any formula that only gives
    a value (``We use ⟨h = 8⟩ heads.``) outside a sentence that supposes."""
    out = []
    for m in GIVING.finditer(line.text):
        for g in re.finditer(r"⟨([^⟩]*)⟩", m.group("list")):
            v = _GIVEN.fullmatch(g.group(1))
            at = m.start("list") + g.start()
            if v and v.group(1) in KNOWN_SYMBOLS and (before is None or at < before):
                out.append((at, v.group(1), sp.Rational(v.group(2))))
    for m in lone_givens(line):
        if before is not None and m.start() >= before:
            break
        a, b = line.sentence_at(m.start())
        if _SUPPOSING.search(line.text[a:b]):
            continue
        for name in re.findall(r"[A-Za-z]\w*", m.group(1)):
            out.append((m.start(), name, sp.Rational(m.group(2).replace(",", ""))))
    return [(name, value) for _, name, value in sorted(out, key=lambda x: x[0])]


#: A capital (or a Greek capital) set in bold: a matrix.
_BOLD_CAPITAL = re.compile(r"\\(?:mathbf|boldsymbol|bm)\s*\{?\s*(?:[A-Z]|\\[A-Z][a-z]+)\b")


def _matrices(line: Line, start: int) -> bool:
    """Whether the formula at ``start`` writes a capital in bold (``\\mathbf{W}``): a matrix."""
    tex = next((t for t, _p, s, _e in line.formulas if s == start), "")
    return bool(_BOLD_CAPITAL.search(tex))


#: Values a sentence gives in plain words ("L=64, and D=8192") and products given in math
#: (``⟨B * T=4M⟩``): the givens of a worked example the claim closes.
_PROSE_GIVEN = re.compile(
    r"(?<![\w⟨=*])(?P<name>[A-Z])\s*=\s*(?P<value>\d[\d,]*)(?![\w.,]\d|[\w⟩])"
    r"(?P<scale>\s+(?:thousand|million|billion|trillion)\b)?"
)
_PRODUCT_GIVEN = re.compile(
    r"⟨\s*(?P<a>[A-Z])\s*\*\s*(?P<b>[A-Z])\s*=\s*(?P<value>\d+(?:\.\d+)?)\s*(?P<scale>[kKMB])?\s*⟩"
)
_SCALES = {None: 1, "k": 10**3, "K": 10**3, "M": 10**6, "B": 10**9}
_BINARY = {"k": 2**10, "K": 2**10, "M": 2**20}


def _prose_givens(line: Line, start: int) -> tuple[dict, list[list], list[tuple[int, int]]]:
    """The values a claim's own sentence gives before it, in plain words or as a product of two
    letters (that one solved for the first letter): (names and values, the relations in each
    reading: a product given in k or M may count in 1000s or 1024s, and the spans of the givens
    and of a given said again right after it). A letter given twice (two models, "L=64 instead
    of L=32") is given nothing."""
    a, _ = line.sentence_at(start)
    head = line.text[a:start]
    found = list(_PROSE_GIVEN.finditer(head))
    twice = {n for n in (m.group("name") for m in found) if sum(x.group("name") == n for x in found) > 1}
    names = {  # "T=32 thousand tokens" may count 32768 of them: a scaled value gives nothing
        m.group("name"): sp.Integer(m.group("value").replace(",", ""))
        for m in found
        if m.group("name") not in twice and not m.group("scale")
    }
    spans = [(a + m.start(), a + m.end()) for m in found]
    readings: list[list] = [[]]
    for m in _PRODUCT_GIVEN.finditer(head):
        spans.append((a + m.start(), a + m.end()))
        again = _RESTATED.match(line.text, a + m.end())
        if again and again.group("n").replace(" ", "") == f"{m.group('value')}{m.group('scale') or ''}":
            spans.append(again.span("n"))  # "⟨B * T = 4M⟩ (4M total tokens per batch)"
        first, second = (sp.Symbol(m.group(k), positive=True) for k in ("a", "b"))
        scales = [_SCALES[m.group("scale")]] + (
            [_BINARY[m.group("scale")]] if m.group("scale") in _BINARY else []
        )
        value = sp.Rational(m.group("value"))
        readings = [[*r, (first, value * f / second)] for r in readings for f in scales]
    return names, readings, spans


#: What a derivation comes to, right before a relation: "yields ⟨N = 2d⟩", "we get ⟨T = 4D⟩".
_RESULT_BEFORE = re.compile(r"\b(?:yields?|gives?|we\s+(?:get|find|obtain)|leaves|so\s+that)\s*$")
#: An equation posed to be solved: "Solving for ⟨N⟩, ⟨2N^2 d = 4Nd^2⟩ ...", "Equating".
_SOLVING_BEFORE = re.compile(
    r"\b(?:[Ss]olv(?:ing|e)|[Ee]quating|[Ss]etting|[Ww]e\s+solve)\s+(?:for\s+⟨?\w+⟩?\s*,?\s+(?:in\s+)?)?(?:the\s+equation\s+)?$"
)
#: Words that give values: "a model with", "for", "given", "assume".
_GIVES = re.compile(r"\b(?:with|for|given|assume|assuming|let)\b", re.I)
#: A given said again in words right after it: "⟨B * T = 4M⟩ (4M total tokens per batch)".
_RESTATED = re.compile(r"\s*\(\s*(?P<n>\d+(?:\.\d+)?\s*[kKMB]?)\s+[a-z][^()]*\)")


def lone_givens(line: Line) -> list[re.Match]:
    """The formulas of ``line`` that only give a value (:data:`_LONE`), less those that follow
    a list of givens in their sentence: in ``For ⟨h = 8⟩, ⟨d_k = 60⟩`` the second is what the
    sentence says of the first, a claim."""
    ends = [m.end("list") for m in GIVING.finditer(line.text)]
    out = []
    for m in _LONE.finditer(line.text):
        a, _ = line.sentence_at(m.start())
        if any(a <= end <= m.start() for end in ends):
            continue
        out.append(m)
    return out


_HOLDS = {">": lambda s: s > 0, "<": lambda s: s < 0, "≥": lambda s: s >= 0, "≤": lambda s: s <= 0}


def numeric_inequality(line: Line, text: str, spans, members, relations, env: dict) -> Claim:
    """``e^{20} > 10^9``: each relation between numbers decided by the sign of the difference,
    exact for rationals and from certified digits otherwise (never a float's guess)."""
    from ...core.digits import rounded
    from ...errors import PrecisionError

    values = [evaluate(m, env) for m in members]
    if any(v is None or isinstance(v, sp.MatrixBase) or not v.is_real for v in values):
        return Claim(
            line.number, text, UNCHECKED, None, "an inequality whose sides could not be evaluated", spans
        )
    problems = []
    for (a, b), rel in zip(pairwise(values), relations, strict=True):
        if rel == "≈":
            return Claim(line.number, text, UNCHECKED, None, "an inequality beside an approximation", spans)
        if same(a, b):
            sign = 0
        else:
            try:
                r = rounded(a - b, 3)  # certified digits: their sign is the difference's
            except (PrecisionError, ArithmeticError, ValueError):
                return Claim(line.number, text, UNCHECKED, None, "an inequality too close to decide", spans)
            sign = 0 if r.coefficient == 0 else -1 if r.sign else 1
        if (sign != 0) if rel == "=" else not _HOLDS[rel](sign):
            true = " > " if sign > 0 else " < " if sign < 0 else " = "
            problems.append(Said(Math(a), true, Math(b)))  # the relation that holds
    rule = "arithmetic: the sign of each difference, from certified digits"
    if problems:
        return Claim(line.number, text, WRONG, Said.join("; ", problems), rule, spans)
    return Claim(line.number, text, CERTIFIED, Said.join(", ", [Math(v) for v in values]), rule, spans)


def disagreements(values: list, fails: set[int], label: str) -> list[Said]:
    """What is wrong in a chain whose neighbours ``k`` and ``k + 1`` differ for each ``k`` in
    ``fails``: a term that differs from both its neighbours is the wrong one and is named once
    (``1/√d_k Var(z) = √d_k`` between two 1s), any other pair as it stands."""
    odd = {k for k in range(1, len(values) - 1) if k - 1 in fails and k in fails}
    out = []
    for k in sorted(fails):
        if k in odd:
            continue  # said with the pair before it
        out.append(Said(label, Math(values[k + 1]), " is not ", Math(values[k])))
    return out


def _typeset(text: str, line: Line) -> str:
    """``text`` with every ⟨plain⟩ formula of its line put back as the module's $LaTeX$."""
    tex_of = {f"⟨{plain}⟩": tex for tex, plain, _, _ in line.formulas}
    out = re.sub(r"⟨[^⟨⟩]*⟩", lambda m: f"${tex_of[m.group()]}$" if m.group() in tex_of else m.group(), text)
    return out if "⟨" not in out else ""  # a formula cut by the claim's span: the plain text is shown


#: A sentence that sets up an example (``consider a minibatch of two examples of size 2 × 4``,
#: ``we pick queries of size (2, 1, 20)``, ``such as -10^6``): its figures are its premises.
_SETTING_UP = re.compile(
    r"\b(?:[Cc]onsider|[Ss]uppose|[Ii]magine|[Ww]e (?:pick|choose|take|use|set|assume|consider|fix)"
    r"|[Ll]et'?s (?:say|take|pick|use|assume)|such as|e\.g\.|for example|for instance)\b"
)


def _settings(line: Line) -> list[tuple[int, int]]:
    """The figures of sentences that set up an example, outside formulas that state a relation
    (a claim made in the same sentence, ``so ⟨d_k = 512/8 = 64⟩``, is still read)."""
    spans = []
    for a, b in line.sentences():
        if not _SETTING_UP.search(line.text[a:b]):
            continue
        claims = [(s, e) for _, plain, s, e in line.formulas if a <= s < b and re.search(r"[=≈<>≤≥]", plain)]
        # what the sentence concludes from its settings is a claim ("We use 8 heads of width
        # 64, so the model width is 256"): its figures are not settings
        concluded = _CONCLUDING.search(line.text, a, b)
        for s, e in number_spans(line.text[a:b]):
            if concluded and s + a >= concluded.start():
                continue
            if not any(x <= s + a < y for x, y in claims):
                spans.append((s + a, e + a))
    return spans


#: A word that concludes from what a sentence set up.
_CONCLUDING = re.compile(
    r"\b(?:so|hence|thus|therefore|giving|gives|meaning|which (?:gives|is|means|makes)|i\.\s?e\.|in all|"
    r"in total|"
    r"altogether|for a total)\b"
)


def _references(line: Line) -> list[tuple[int, int]]:
    text = line.text
    spans = _settings(line)
    for p in _REFERENCE_PATTERNS + _GIVEN_PATTERNS:
        spans.extend(m.span() for m in re.finditer(p, text))
    spans.extend(m.span("list") for m in GIVING.finditer(text))  # Let h = 8 and d_model = 512
    spans.extend(m.span() for m in lone_givens(line))  # We use h = 8 heads
    return spans


#: Why a rule gave up on a line, in words (never a Python class name).
_FAILED = {
    "PrecisionError": "a value with no certified digits: not a finite real number",
    "RecursionError": "a formula nested too deeply",
    "ZeroDivisionError": "a division by zero",
    "OverflowError": "a number too large",
    "MemoryError": "a number too large",
}


def _leftover(
    line: Line,
    spans: list[tuple[int, int]],
    failed: list[str] = (),
    formula: bool = False,
    introduction: str = "",
) -> Claim:
    """One unchecked claim for the numbers ``spans`` of one formula (``formula``) or one
    sentence, or what a reader does not count as a claim (:mod:`.notclaims`), said so."""
    start, end = spans[0][0], spans[-1][1]
    span = formula_span(line, start, end)
    a, b = line.sentence_at(start)
    if span != (start, end):
        shown = line.text[span[0] : span[1]]
    else:  # the words around the numbers, whole words, within the sentence
        left = max(a, start - 30)
        left = a if left == a else line.text.rfind(" ", a, left) + 1 or a
        right = min(b, end + 30)
        space = line.text.find(" ", right, b)
        right = space if right < b and space > 0 else b
        shown = line.text[left:right].strip()
    sentence = line.text[a:b].lower()
    not_claim = notclaims.reason_for(line, spans, formula, introduction)
    if failed and not_claim != notclaims.CONDITION:  # a posed equation is no claim, read or not
        not_claim = None
    if not_claim:
        return Claim(
            line.number, shown, NOT_A_CLAIM, None, not_claim, [span] if span != (start, end) else spans
        )
    if failed:
        reason = f"a rule could not read this line ({'; '.join(sorted(set(failed)))}): not checked"
    elif re.search(r"\b(?:usually|common|often|typically|rarely)\b", sentence):
        reason = "a statement about practice or frequency, in words: no computation bound"
    else:
        reason = "no computation bound to this number"
    return Claim(line.number, shown, UNCHECKED, None, reason, [span] if span != (start, end) else spans)
