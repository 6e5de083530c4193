"""Binding a module's numeric claims to computations, by what they say.

Each rule recognises a kind of claim from its text and context (never from its place in the
file) and computes the true value with the library:

- ``arithmetic``: a formula ``a = b ≈ c`` is evaluated member by member (decimals read
  exactly; the two-token example's vectors q_1, k_1, ... come from the module's own table);
  a stated figure must be the correctly rounded value, or, when the formula uses rounded
  figures (``e^{1.414}``), be consistent with their rounding (interval arithmetic);
- ``statistics``: E[...] and Var(...) of products of independent N(0, 1) entries, by the
  rules the module states (linearity, independence, variances of independent terms add);
- ``worked example``: vectors and figures of the two-token example against the exact stages of
  :func:`symattn.exact.attention` (scores, scaled, masked, weights, output);
- ``cost``: cost terms against :func:`symattn.flops.cost_terms` and the crossover against
  :func:`symattn.flops.crossover`;
- ``mask``: a written causal mask against :meth:`symattn.masks.Mask.exact`;
- ``typical score``: sqrt(d_k), the standard deviation of q.k;
- ``lab``: measured figures against the labs (:mod:`symattn.claim_labs`).

A number no rule binds is a reference (section 6.3, lab 2b, a year in a citation), a given
(the premise of a claim: "at d_k = 64", "over 500 trials", an exercise's own data) or an
``unchecked`` claim with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp

from . import calc
from .calc import Stated, Unreadable, consistent, rounds_to, show
from .claims import EXERCISE, Document, Line, number_spans

CERTIFIED, WRONG, UNCHECKED = "certified", "wrong", "unchecked"


@dataclass
class Claim:
    line: int
    text: str
    verdict: str
    value: str | None
    rule: str
    spans: list[tuple[int, int]] = field(default_factory=list, repr=False)

    def as_dict(self) -> dict:
        return {"line": self.line, "text": self.text, "verdict": self.verdict, "value": self.value, "rule": self.rule}


# -- the document's own facts ------------------------------------------------------------------
N, d_model, h = sp.symbols("N d_model h", positive=True, integer=True)


class Facts:
    """What the module defines, found by content: the example's table, its assumptions."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.vectors = _example_table(doc)
        self.examples = _example_steps(self.vectors)
        text = doc.text()
        self.standard_normal = bool(re.search(r"mean ⟨?0⟩? and variance ⟨?1⟩?|~ N\(0, 1\)", text))
        heads = re.search(r"⟨\s*h\s*=\s*(\d+)\s*⟩ and ⟨\s*d_model\s*=\s*(\d+)\s*⟩", text)
        self.heads = (int(heads.group(1)), int(heads.group(2))) if heads else None

    def env(self) -> dict:
        env: dict = dict(self.vectors)
        if self.standard_normal:
            env["E"] = _expectation
            env["Var"] = _variance
        return env


def _example_table(doc: Document) -> dict[str, sp.Matrix]:
    """q_t, k_t, v_t from a table whose header names query, key and value."""
    out: dict[str, sp.Matrix] = {}
    header: list[str] | None = None
    for line in doc.lines:
        if line.kind != "table":
            header = None
            continue
        cells = [c.strip() for c in line.text.strip().strip("|").split("|")]
        if header is None:
            header = [c.lower() for c in cells]
            continue
        m = re.fullmatch(r"token (\d+)", cells[0].lower())
        if not m:
            continue
        for name, letter in (("query", "q"), ("key", "k"), ("value", "v")):
            if name in header and header.index(name) < len(cells):
                try:
                    members, _ = calc.parse_chain(cells[header.index(name)].strip("⟨⟩ "))
                    vec = calc.exact(members[0], {})
                except (Unreadable, TypeError, ValueError):
                    continue
                if isinstance(vec, sp.MatrixBase):
                    out[f"{letter}_{m.group(1)}"] = vec
    return out


def _example_steps(vectors: dict) -> dict:
    from .exact import attention

    n = 1
    rows: dict[str, list] = {"q": [], "k": [], "v": []}
    while all(f"{c}_{n}" in vectors for c in "qkv"):
        for c in "qkv":
            rows[c].append(list(vectors[f"{c}_{n}"]))
        n += 1
    if n < 2:
        return {}
    return {mask: attention(rows["q"], rows["k"], rows["v"], mask) for mask in ("causal", "none")}


# -- statistics of q_i k_i -----------------------------------------------------------------------
_Z = sp.Symbol("z")
_DK = sp.Symbol("d_k", positive=True)


def _randoms(node: calc.Node, env: dict) -> sp.Expr:
    inner = {k: v for k, v in env.items() if k not in ("E", "Var")}
    inner.update({"z": _Z, "q_i": sp.Symbol("q_i", real=True), "k_i": sp.Symbol("k_i", real=True)})
    return calc.exact(node, {**env, **inner})


def _moment(expr: sp.Expr) -> sp.Expr:
    """E of a polynomial in independent standard normals q_i, k_i (and z = sum of q_i k_i)."""
    expr = sp.expand(expr)
    if expr.has(_Z):
        poly = sp.Poly(expr, _Z)
        if poly.degree() > 1:
            raise Unreadable("moment of z")
        a, b = (poly.all_coeffs() + [0])[:2] if poly.degree() == 1 else (0, poly.all_coeffs()[0])
        return a * _DK * _moment(sp.Symbol("q_i", real=True) * sp.Symbol("k_i", real=True)) + _moment(b)
    total = sp.S.Zero
    for term in sp.Add.make_args(expr):
        coeff, factors = sp.S.One, []
        for f in sp.Mul.make_args(term):
            base, exp = f.as_base_exp()
            if base.is_Symbol and base.name in ("q_i", "k_i"):
                factors.append(int(exp))
            else:
                coeff *= f
        value = coeff
        for p in factors:  # E[x^p] of a standard normal: 0 for odd p, (p - 1)!! for even
            value *= 0 if p % 2 else sp.factorial2(p - 1)
        total += value
    return total


def _expectation(node: calc.Node, env: dict) -> sp.Expr:
    return _moment(_randoms(node, env))


def _variance(node: calc.Node, env: dict) -> sp.Expr:
    x = sp.expand(_randoms(node, env))
    if x.has(_Z):  # c z: c^2 Var(z), Var(z) = d_k Var(q_i k_i) (independent terms add)
        c = sp.simplify(x / _Z)
        if c.has(_Z) or c.free_symbols & {sp.Symbol("q_i", real=True), sp.Symbol("k_i", real=True)}:
            raise Unreadable("variance")
        return c**2 * _DK * _variance(("mul", ("sym", "q_i"), ("sym", "k_i")), env)
    return sp.expand(_moment(x**2) - _moment(x) ** 2)


# -- helpers ---------------------------------------------------------------------------------------
KNOWN_SYMBOLS = {"N", "h", "d_model", "d_k", "d_v", "g", "d"}


def _evaluate(node: calc.Node, env: dict) -> sp.Basic | None:
    """The member's exact value, or None when it uses something undefined."""
    unknown = calc.symbols_of(node) - KNOWN_SYMBOLS - set(env) - {"z", "q_i", "k_i", "i"}
    if unknown:
        return None
    try:
        value = calc.exact(node, env)
    except (Unreadable, TypeError, ValueError, AttributeError, ZeroDivisionError):
        return None
    if isinstance(value, sp.MatrixBase):
        return value
    value = sp.sympify(value)
    names = {s.name for s in value.free_symbols}
    if names - KNOWN_SYMBOLS:
        return None
    return value


def _stated_vector(node: calc.Node) -> list[tuple[str, bool]] | None:
    """The entries of a vector of literals (``-oo`` allowed), else None."""
    if node[0] != "vec":
        return None
    out = []
    for item in node[1]:
        lit = calc.literal(item)
        if lit is not None:
            out.append((lit, False))
        elif item in (("neg", ("sym", "oo")),):
            out.append(("-oo", True))
        else:
            return None
    return out


def _entry_ok(true: sp.Basic, text: str, exact_whole: bool) -> bool:
    if text == "-oo":
        return true == -sp.oo
    return rounds_to(true, Stated.read(text), exact_whole)


def _vector_ok(true: sp.Matrix, stated: list[tuple[str, bool]], exact_whole: bool = True) -> bool:
    values = list(true)
    return len(values) == len(stated) and all(
        _entry_ok(t, s, exact_whole) for t, (s, _) in zip(values, stated, strict=True)
    )


def _distance(true: sp.Matrix, stated: list[tuple[str, bool]]) -> float:
    values = list(true)
    if len(values) != len(stated):
        return float("inf")
    d = 0.0
    for t, (s, inf) in zip(values, stated, strict=True):
        if inf or t == -sp.oo:
            d += 0 if (inf and t == -sp.oo) else 1e9
        else:
            d += abs(float(sp.N(t, 20)) - float(Stated.read(s).value))
    return d


def _substitute_heads(value: sp.Basic) -> sp.Basic:
    """Multi-head widths in terms of d_model: d_k = d_v = d_model / h (the library's d_head)."""
    from .flops import d_head

    names = {s.name: s for s in getattr(value, "free_symbols", set())}
    subs = {names[n]: d_head for n in ("d_k", "d_v") if n in names}
    if "d_model" in names:
        subs[names["d_model"]] = d_model
    if "N" in names:
        subs[names["N"]] = N
    if "h" in names:
        subs[names["h"]] = h
    return value.subs(subs) if subs else value


def _same(a: sp.Basic, b: sp.Basic) -> bool:
    if isinstance(a, sp.MatrixBase) or isinstance(b, sp.MatrixBase):
        return isinstance(a, sp.MatrixBase) and isinstance(b, sp.MatrixBase) and a.shape == b.shape and all(
            _same(x, y) for x, y in zip(a, b, strict=True)
        )
    diff = sp.simplify(sp.expand(a - b))
    return diff == 0


# -- the rules -------------------------------------------------------------------------------------
class Auditor:
    """Runs every rule over a document and accounts for every number in it."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.facts = Facts(doc)
        self.env = self.facts.env()
        self.claims: list[Claim] = []

    def run(self) -> list[Claim]:
        for line in self.doc.lines:
            if line.kind in ("prose", "math", "table") and line.text:
                self._line(line)
        return sorted(self.claims, key=lambda c: (c.line, c.spans[0] if c.spans else (0, 0)))

    # one line -------------------------------------------------------------------------------
    def _line(self, line: Line) -> None:
        covered: list[tuple[int, int]] = []
        found: list[Claim] = []

        def add(claim: Claim) -> None:
            found.append(claim)
            covered.extend(claim.spans)

        for rule in (self._keys, self._exercise_prompt, self._table, self._lab):
            if rule(line, add, covered):
                break
        else:
            for start, end, members, relations in self._chains(line):
                self._chain(line, start, end, members, relations, add)
            for rule in (
                self._masks,
                self._stage_vectors,
                self._typical_score,
                self._about,
                self._listed_weights,
                self._their_sum,
                self._example_scalars,
                self._head_width,
                self._statistics_words,
                self._heads_words,
                self._growth,
                self._conventions,
                self._cost_expressions,
            ):
                rule(line, add, covered)
        covered.extend(_references(line.text))
        for start, end in number_spans(line.text):
            if not any(a <= start and end <= b for a, b in covered):
                add(_leftover(line, start, end))
                covered.append((start, end))
        self.claims.extend(c for c in found if c.verdict is not None)

    # keys and givens --------------------------------------------------------------------------
    def _keys(self, line: Line, add: Callable, covered: list) -> bool:
        if re.search(r"\*Answer:\*", line.raw):
            covered.append((0, len(line.text)))  # judged by the answer-key audit
            return True
        return False

    def _exercise_prompt(self, line: Line, add: Callable, covered: list) -> bool:
        if EXERCISE.search(line.raw):
            covered.append((0, len(line.text)))  # an exercise's data are givens
            return True
        return False

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
        from .claim_labs import lab_claims

        for claim in lab_claims(line, block):
            add(claim)
        return False  # the rest of the line is read by the other rules

    # formulas -----------------------------------------------------------------------------------
    def _chains(self, line: Line):
        for tex, plain, start, end in line.formulas:
            if "bmatrix" in tex or not re.search(r"\d", re.sub(r"sum_\(\w=1\)", "", plain)):
                continue
            try:
                members, relations = calc.parse_chain(plain)
            except Unreadable:
                continue
            if len(members) == 2 and members[0][0] == "sym" and calc.literal(members[1]) is not None:
                continue  # "d_k = 64": a premise or a definition, read by the rules that use it
            if relations:
                yield start, end, members, relations

    def _chain(self, line, start, end, members, relations, add) -> None:
        text = line.text[start:end]
        spans = [(start, end)]
        if ">" in relations or "<" in relations:
            add(self._inequality(line, text, spans, members, relations))
            return
        env = {**self.env, **self._premises(line)}
        values = [_evaluate(m, env) for m in members]
        stated_i = max((i for i, m in enumerate(members) if calc.literal(m) or _stated_vector(m)), default=None)
        problems: list[str] = []
        checks: list[str] = []
        exact_whole = stated_i is not None and stated_i > 0 and relations[stated_i - 1] == "="
        if stated_i is not None:
            stated_node = members[stated_i]
            for i, (m, v) in enumerate(zip(members, values, strict=True)):
                if i == stated_i or v is None:
                    continue
                v = _substitute_heads(v) if not isinstance(v, sp.MatrixBase) else v
                if not isinstance(v, sp.MatrixBase) and v.free_symbols:
                    continue  # sqrt(d_k) beside sqrt(2): a premise, not a value
                ok, how = self._matches(m, v, stated_node, exact_whole)
                (checks if ok else problems).append(how if ok else show(v))
        if stated_i is None:
            numeric = [v for v in values if v is not None and not isinstance(v, sp.MatrixBase) and not v.free_symbols]
            for a, b in zip(numeric, numeric[1:]):
                (checks if _same(a, b) else problems).append("exact" if _same(a, b) else f"{show(b)} is not {show(a)}")
        symbolic = [
            (i, _substitute_heads(v))
            for i, v in enumerate(values)
            if v is not None and not isinstance(v, sp.MatrixBase) and v.free_symbols
        ]
        for (i, a), (j, b) in zip(symbolic, symbolic[1:]):
            if _same(a, b):
                checks.append("SymPy")
            else:
                problems.append(f"{sp.sstr(b)} is not {sp.sstr(a)}")
        role = _cost_role(line.text[:start], text) if symbolic and "N" in calc.symbols_of(members[-1]) else None
        if role:
            want = _cost_value(role)
            got = symbolic[-1][1]
            if _same(got, want):
                checks.append(f"the {role.replace('_', ' ')} term of symattn.flops.cost_terms")
            else:
                problems.append(f"the {role.replace('_', ' ')} term is {sp.sstr(want)}")
        bound = self._bind_output(line, start, members, stated_i)
        if bound is not None:
            ok, value, how = bound
            (checks if ok else problems).append(how if ok else value)
        kind = "statistics of independent N(0, 1) entries" if any(
            n[0] == "call" and n[1] in ("E", "Var") for m in members for n in calc.walk(m)
        ) else "arithmetic"
        if problems:
            add(Claim(line.number, text, WRONG, "; ".join(problems), f"{kind}: " + (checks[0] if checks else "evaluated"), spans))
        elif checks:
            add(Claim(line.number, text, CERTIFIED, _value_text(values, stated_i), f"{kind}: " + ", ".join(dict.fromkeys(checks)), spans))
        else:
            add(Claim(line.number, text, UNCHECKED, None, "no member of the formula could be evaluated", spans))

    def _matches(self, node, value, stated_node, exact_whole) -> tuple[bool, str]:
        """Whether an evaluated member equals the stated figure (or vector)."""
        vec = _stated_vector(stated_node)
        if vec is not None:
            if not isinstance(value, sp.MatrixBase):
                return False, show(value)
            if _vector_ok(value, vec, exact_whole):
                return True, "rounds to the stated figures" if calc.has_decimal(stated_node) else "exact"
            if calc.has_decimal(node):
                try:
                    iv = calc.interval(node, self.env)
                    if isinstance(iv, list) and all(
                        s == "-oo" or consistent(x, Stated.read(s)) for x, (s, _) in zip(iv, vec, strict=True)
                    ):
                        return True, "consistent with the rounding of its inputs"
                except (Unreadable, ValueError, TypeError, ZeroDivisionError):
                    pass
            return False, show(value)
        stated = Stated.read(calc.literal(stated_node))
        if isinstance(value, sp.MatrixBase):
            return False, show(value)
        if rounds_to(value, stated, exact_whole):
            return True, "exact" if stated.whole and exact_whole else "correctly rounded"
        if calc.has_decimal(node):
            try:
                if consistent(calc.interval(node, self.env), stated):
                    return True, "consistent with the rounding of its inputs"
            except (Unreadable, ValueError, TypeError, ZeroDivisionError):
                pass
        return False, show(value)

    def _premises(self, line: Line) -> dict:
        """``d_model = 4096`` and the like, stated as a premise in the line's unit."""
        out = {}
        for m in re.finditer(
            r"(?:[Ff]or|[Aa]t|[Ww]ith|[Ww]hen)\s+⟨\s*(d_model|d_k|d_v|h|N)\s*=\s*([\d,]+)\s*⟩",
            self.doc.unit_text(line),
        ):
            out[m.group(1)] = sp.Integer(m.group(2).replace(",", ""))
        return out

    def _inequality(self, line, text, spans, members, relations) -> Claim:
        from .flops import cost_terms, crossover

        t = cost_terms()
        quad = sp.expand(t["scores"] + t["weighted_sum"])
        lin = sp.expand(t["projections"] + t["output_projection"])
        rel = crossover()
        bound = rel.lhs if rel.rhs == N else rel.rhs
        first = relations.index(">") if ">" in relations else relations.index("<")
        left, right = members[first], members[first + 1]
        env = {**self.env, **self._premises(line)}
        lv, rv = _evaluate(left, {}), _evaluate(right, {})
        if lv is None or rv is None:
            return Claim(line.number, text, UNCHECKED, None, "an inequality that could not be read", spans)
        lv, rv = _substitute_heads(lv), _substitute_heads(rv)
        if relations[first] == "<":
            lv, rv = rv, lv
        problems, rule = [], ""
        if lv == N:
            rule = "cost: the crossover of symattn.flops.crossover"
            if not _same(rv, bound):
                problems.append(f"N > {sp.sstr(bound)}")
            at = _evaluate(right, env)
            for m, r in zip(members[first + 2 :], relations[first + 1 :], strict=True):
                lit = calc.literal(m)
                if r in ("=", "≈") and lit is not None and at is not None and not at.free_symbols:
                    if not rounds_to(at, Stated.read(lit), r == "="):
                        problems.append(f"{sp.sstr(right_text(right))} = {show(at)}")
        elif {_same(lv, quad), _same(rv, lin)} == {True} or (_same(lv, lin) and _same(rv, quad)):
            rule = "cost: the N^2 terms against the N d^2 terms of symattn.flops.cost_terms"
        else:
            rule = "cost"
            problems.append(f"{sp.sstr(quad)} > {sp.sstr(lin)}")
        if problems:
            return Claim(line.number, text, WRONG, "; ".join(problems), rule, spans)
        return Claim(line.number, text, CERTIFIED, f"N > {sp.sstr(bound)}", rule, spans)

    def _bind_output(self, line, start, members, stated_i):
        """A chain ending in a vector that the sentence calls a token's output."""
        if stated_i is None or not self.facts.examples:
            return None
        vec = _stated_vector(members[stated_i])
        if vec is None:
            return None
        a, _ = line.sentence_at(start)
        before = line.text[a:start].lower()
        if not re.search(r"output\b[^⟨]*$", before):
            return None
        return self._stage_match(line, start, "output", vec)

    # the worked example ---------------------------------------------------------------------
    def _stage_match(self, line: Line, pos: int, stage: str, vec) -> tuple[bool, str, str]:
        a, _ = line.sentence_at(pos)
        sentence = line.text[a:pos].lower()
        rows = re.findall(r"\b(?:row|token) (\d+)", sentence)
        row = int(rows[-1]) - 1 if rows else None
        masks = self._masks_meant(line, pos)
        candidates = []
        for mask in masks:
            steps = self.facts.examples[mask]
            name = stage if stage in steps.stages else "scaled"
            m = steps.stages[name]
            for r in range(m.rows) if row is None else [row]:
                if r < m.rows:
                    candidates.append((mask, name, r, m.row(r)))
        if not candidates:
            return False, "", "no such row"
        for mask, name, r, values in candidates:
            if _vector_ok(values, vec):
                return True, show(values), f"worked example: {name} row {r + 1} ({mask} mask), symattn.exact.attention"
        mask, name, r, values = min(candidates, key=lambda c: _distance(c[3], vec))
        return False, f"{show(values)} ({name} row {r + 1})", f"worked example: {name} row {r + 1} ({mask} mask)"

    def _masks_meant(self, line: Line, pos: int) -> list[str]:
        a, b = line.sentence_at(pos)
        sentence = line.text[a:b].lower()
        if re.search(r"without (it|the mask|a mask)|switched off|no mask", sentence):
            return ["none"]
        if "causal" in self.doc.block_text(line).lower():
            return ["causal"]
        return ["causal", "none"]

    def _previous_block(self, line: Line) -> str:
        """The paragraph that introduces a display (it ends just before it)."""
        before = [x for x in self.doc.lines if x.block == line.block - 1 and x.kind != "heading"]
        return "\n".join(x.text for x in before)

    def _example_context(self, line: Line) -> bool:
        return bool(self.facts.examples) and bool(re.search(r"\btoken [12]\b|q_1|k_1", self.doc.block_text(line), re.I))

    def _stage_vectors(self, line: Line, add: Callable, covered: list) -> None:
        if not self._example_context(line):
            return
        for tex, plain, start, end in line.formulas:
            if _inside(covered, start, end):
                continue
            try:
                members, relations = calc.parse_chain(plain)
            except Unreadable:
                continue
            vec = _stated_vector(members[0]) if not relations else None
            if vec is None:
                continue
            stage = _stage_word(line.text[:start])
            if stage is None:
                continue
            ok, value, rule = self._stage_match(line, start, stage, vec)
            add(Claim(line.number, line.text[start:end], CERTIFIED if ok else WRONG, value, rule, [(start, end)]))

    def _example_scalars(self, line: Line, add: Callable, covered: list) -> None:
        """A decimal said of the example ("the very negative score -12.73", "a gap of 12.7")."""
        if not self._example_context(line):
            return
        quantities = self._example_quantities()
        for start, end in number_spans(line.text):
            if _inside(covered, start, end):
                continue
            text = line.text[start:end]
            if "." not in text and not text.startswith(("-", "−")):
                continue
            before = line.text[max(0, start - 40) : start].lower()
            kind = "gap" if "gap" in before else "score" if "score" in before else None
            if kind is None:
                continue
            stated = Stated.read(text.strip("⟨⟩"))
            pool = [(n, v) for n, v in quantities if (kind == "gap") == n.startswith("gap")]
            span = _formula_span(line, start, end)
            hit = next(((n, v) for n, v in pool if rounds_to(v, stated, False)), None)
            if hit:
                add(Claim(line.number, text, CERTIFIED, f"{hit[0]} = {show(hit[1])}", f"worked example: {hit[0]}", [span]))
            else:
                n, v = min(pool, key=lambda q: abs(float(sp.N(q[1])) - float(stated.value)))
                add(Claim(line.number, text, WRONG, f"{n} = {show(v)}", f"worked example: {n}", [span]))

    def _example_quantities(self) -> list[tuple[str, sp.Basic]]:
        out = []
        for mask, steps in self.facts.examples.items():
            for name in ("scores", "scaled"):
                m = steps.stages[name]
                for r in range(m.rows):
                    for c in range(m.cols):
                        out.append((f"{name}[{r + 1},{c + 1}]", m[r, c]))
                    if name == "scaled" and m.cols == 2:
                        out.append((f"gap in scaled row {r + 1}", abs(m[r, 0] - m[r, 1])))
            if mask == "causal":
                break
        return out

    def _their_sum(self, line: Line, add: Callable, covered: list) -> None:
        """"... = [1, 4.113], divided by their sum 5.113": the sum of the last vector."""
        for m in re.finditer(r"their sum ⟨?\s*([\d.,]+)\s*⟩?", line.text):
            previous = [f for f in line.formulas if f[3] <= m.start()]
            if not previous:
                continue
            try:
                members, _ = calc.parse_chain(previous[-1][1])
            except Unreadable:
                continue
            vec_nodes = [x for x in members if x[0] == "vec"]
            if not vec_nodes:
                continue
            node = vec_nodes[0]
            total = ("add",) + (node[1][0], node[1][1]) if len(node[1]) == 2 else None
            if total is None:
                continue
            stated = Stated.read(m.group(1))
            value = calc.exact(total, self.env)
            ok = rounds_to(value, stated, False)
            if not ok and calc.has_decimal(total):
                try:
                    ok = consistent(calc.interval(total, self.env), stated)
                except (Unreadable, ValueError):
                    ok = False
            add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, show(value), "arithmetic: the sum of the entries", [m.span(1)]))

    def _listed_weights(self, line: Line, add: Callable, covered: list) -> None:
        """"the weights are 0.787, 0.1065 and 0.1065": softmax of the scores the unit gives."""
        m = re.search(r"weights are ((?:⟨[^⟩]*⟩(?:, | and )?)+)", line.text)
        if not m:
            return
        figures = re.findall(r"⟨\s*([-\d.]+)\s*⟩", m.group(1))
        scores = re.search(r"(?:[Ss]cores[^⟨]*|[Ss]oftmax of )⟨\[([-\d, ]+)\]⟩", self.doc.unit_text(line))
        if not scores or len(figures) < 2:
            return
        from .softmax import softmax_rows

        z = [sp.Integer(x) for x in scores.group(1).split(",")]
        weights = list(softmax_rows(sp.Matrix([z])))
        if len(weights) != len(figures):
            return
        wrong = [(f, w) for f, w in zip(figures, weights, strict=True) if not rounds_to(w, Stated.read(f), False)]
        verdict = WRONG if wrong else CERTIFIED
        value = ", ".join(show(w, 6) for _, w in wrong) if wrong else show(sp.Matrix([weights]), 6)
        add(Claim(line.number, m.group(0), verdict, value, f"softmax of the scores {scores.group(1)} (symattn.softmax)", [m.span(1)]))

    # words ----------------------------------------------------------------------------------
    def _typical_score(self, line: Line, add: Callable, covered: list) -> None:
        """"At d_k = 64 a typical score is about ±8": sqrt(d_k), the standard deviation of q.k."""
        if "typical score" not in line.text:
            return
        for m in re.finditer(r"⟨\s*d_k\s*=\s*(\d+)\s*⟩[^⟨]*?(?:about|is|of)\s*⟨\s*±\s*([\d.]+)\s*⟩", line.text):
            width = int(m.group(1))
            value = sp.sqrt(width)
            ok = rounds_to(value, Stated.read(m.group(2)), False)
            add(
                Claim(
                    line.number,
                    m.group(0),
                    CERTIFIED if ok else WRONG,
                    f"sqrt({width}) = {show(value)}",
                    "typical score: sigma = sqrt(d_k), from Var(q.k) = d_k",
                    [m.span(2)],
                )
            )

    def _about(self, line: Line, add: Callable, covered: list) -> None:
        """"⟨e^20⟩ is about 500 million": a formula and a figure in words."""
        pattern = (
            r"⟨([^⟨⟩=≈]*)⟩ (?:is|are|comes out at|is roughly|is nearly) (about|roughly|nearly|around|approximately)?\s*"
            r"([\d.,]+)( thousand| million| billion| trillion)?"
        )
        for m in re.finditer(pattern, line.text):
            if _inside(covered, *m.span(1)):
                continue
            try:
                members, relations = calc.parse_chain(m.group(1))
            except Unreadable:
                continue
            value = _evaluate(members[0], self.env) if not relations else None
            if value is None or isinstance(value, sp.MatrixBase) or value.free_symbols:
                continue
            scale = (m.group(4) or "").strip() or None
            stated = Stated.read(m.group(3).rstrip(".,"), scale)
            ok = rounds_to(value, stated, exact_whole=m.group(2) is None)
            unit = f"{stated.digits} significant digit{'s' if stated.digits > 1 else ''}"
            add(
                Claim(
                    line.number,
                    m.group(0),
                    CERTIFIED if ok else WRONG,
                    show(value),
                    f"arithmetic: correctly rounded to {unit}" + (f" ({scale})" if scale else ""),
                    [(m.start(), m.end())],
                )
            )

    def _head_width(self, line: Line, add: Callable, covered: list) -> None:
        """d_k = d_model / h: "h = 8 and d_model = 512, so d_k = 64"."""
        m = re.search(r"⟨\s*h\s*=\s*(\d+)\s*⟩ and ⟨\s*d_model\s*=\s*(\d+)\s*⟩, so ⟨\s*d_k\s*=\s*(\d+)\s*⟩", line.text)
        if not m:
            return
        from .flops import d_head

        value = d_head.subs({h: int(m.group(1)), d_model: int(m.group(2))})
        ok = value == int(m.group(3))
        covered.extend([m.span(1), m.span(2)])
        add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, show(value), "multi-head: d_k = d_model / h (symattn.flops)", [m.span(3)]))

    def _conventions(self, line: Line, add: Callable, covered: list) -> None:
        text = line.text
        m = re.search(r"holds ⟨0⟩ where attention is allowed and ⟨-oo⟩ where", text)
        if m:
            from .masks import Mask

            mat = Mask.parse("causal").exact(3, 3)
            ok = set(mat) == {0, -sp.oo} and mat[0, 0] == 0 and mat[0, 1] == -sp.oo
            add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, "0, -oo", "mask: symattn.masks.Mask.exact", [m.span()]))
        m = re.search(r"weights that sum to (\d+)", text)
        if m:
            z = sp.symbols("z1:4", real=True)
            from .softmax import softmax_rows

            total = sp.simplify(sum(softmax_rows(sp.Matrix([z]))))
            ok = total == int(m.group(1))
            add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, show(total), "softmax: a row of weights sums to 1 (SymPy)", [m.span(1)]))
        m = re.search(r"⟨0/0⟩ = NaN", text)
        if m:
            ok = sp.S.Zero / sp.S.Zero is sp.nan
            add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, "nan", "arithmetic: SymPy gives nan for 0/0", [m.span()]))

    _STAT_WORDS = (
        (r"product has variance (\d+)", ("call", "Var", ("mul", ("sym", "q_i"), ("sym", "k_i"))), "Var(q_i k_i)"),
        (r"[Ii]ts mean is (\d+)", ("call", "E", ("mul", ("sym", "q_i"), ("sym", "k_i"))), "E[q_i k_i]"),
        (r"factor being a variance of (\d+)", ("call", "Var", ("sym", "q_i")), "Var(q_i)"),
        (
            r"[Ss]caled scores have variance (\d+)",
            ("call", "Var", ("div", ("sym", "z"), ("call", "sqrt", ("sym", "d_k")))),
            "Var(z / sqrt(d_k))",
        ),
    )

    def _statistics_words(self, line: Line, add: Callable, covered: list) -> None:
        """"Each product has variance 1", "Scaled scores have variance 1": E and Var in words."""
        if not self.facts.standard_normal:
            return
        for pattern, node, name in self._STAT_WORDS:
            for m in re.finditer(pattern, line.text):
                value = _evaluate(node, self.env)
                if value is None:
                    continue
                ok = rounds_to(value, Stated.read(m.group(1)))
                add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, f"{name} = {show(value)}",
                          "statistics of independent N(0, 1) entries", [m.span(1)]))

    def _heads_words(self, line: Line, add: Callable, covered: list) -> None:
        """Head widths in words, from the module's h and d_model: "its own 64 features"."""
        if self.facts.heads is None:
            return
        from .flops import d_head, total_cost

        heads, width = self.facts.heads
        per_head = d_head.subs({h: heads, d_model: width})
        for pattern, want, what in (
            (r"its own (\d+) features", per_head, "d_model / h"),
            (r"combines all (\d+)", sp.Integer(width), "h d_v = d_model"),
        ):
            for m in re.finditer(pattern, line.text):
                ok = want == int(m.group(1))
                add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, show(want),
                          f"multi-head: {what} with h = {heads}, d_model = {width} (symattn.flops)", [m.span(1)]))
        m = re.search(r"cost about the same as one head of width (\d+)", line.text)
        if m:
            ok = h not in total_cost().free_symbols and int(m.group(1)) == width
            add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, sp.sstr(total_cost()),
                      "cost: the total of symattn.flops does not depend on h", [m.span(1)]))

    def _growth(self, line: Line, add: Callable, covered: list) -> None:
        """"The first term grows with N, the second with N^2": degrees in N of the two terms."""
        m = re.search(r"first term grows with ⟨([^⟩]*)⟩, the second with ⟨([^⟩]*)⟩", line.text)
        if not m:
            return
        got = []
        for g in (1, 2):
            try:
                got.append(_evaluate(calc.parse_chain(m.group(g))[0][0], {}))
            except Unreadable:
                return
        want = [sp.degree(_cost_value(r), N) for r in ("linear", "quadratic")]
        ok = all(v is not None and sp.degree(_substitute_heads(v), N) == w and _substitute_heads(v).is_Pow | (w == 1)
                 for v, w in zip(got, want, strict=True))
        add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, f"N^{want[0]}, N^{want[1]}",
                  "cost: degrees in N of the N d^2 and N^2 d terms (symattn.flops)", [m.span(2)]))

    def _masks(self, line: Line, add: Callable, covered: list) -> None:
        for tex, plain, start, end in line.formulas:
            if "bmatrix" not in tex:
                continue
            context = self.doc.unit_text(line) + self.doc.block_text(line) + self._previous_block(line)
            claim = _mask_claim(line, tex, start, end, context)
            if claim:
                add(claim)
        m = re.search(r"weights are ⟨\[([\d, ]+)\]⟩", line.text)
        if m and not _inside(covered, *m.span()) and "causal" in self.doc.unit_text(line).lower() and "first row" in line.text:
            from .masks import Mask
            from .softmax import softmax_rows

            n = len(m.group(1).split(","))
            s1 = sp.Symbol("s_1", real=True)
            row = softmax_rows(sp.Matrix([[s1] + [sp.S.NegativeInfinity] * (n - 1)]))
            ok = [int(x) for x in m.group(1).split(",")] == list(row) and Mask.parse("causal").allowed(n, n)[0].sum() == 1
            add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, show(row), "mask: the first causal row keeps key 1 only (symattn.softmax)", [m.span()]))

    def _cost_expressions(self, line: Line, add: Callable, covered: list) -> None:
        """A cost term written on its own: ``3 · N · d_model^2``, ``the 2N^2 d_model term``."""
        for tex, plain, start, end in line.formulas:
            if _inside(covered, start, end) or not re.search(r"\d", plain) or "×" in plain:
                continue
            try:
                members, relations = calc.parse_chain(plain)
            except Unreadable:
                continue
            if relations:
                continue
            names = calc.symbols_of(members[0])
            if "N" not in names or not names & {"d_model", "d_k", "d_v"}:
                continue
            value = _evaluate(members[0], {})
            if value is None:
                continue
            value = _substitute_heads(value)
            role = _cost_role(line.text[:start], plain)
            text = line.text[start:end]
            if role:
                want = _cost_value(role)
                ok = _same(value, want)
                rule = f"cost: the {role.replace('_', ' ')} term of symattn.flops.cost_terms"
            else:
                hits = [r for r in _ROLES if _same(value, _cost_value(r))]
                ok = bool(hits)
                role = hits[0] if hits else _nearest_role(value)
                want = _cost_value(role)
                rule = f"cost: the {role.replace('_', ' ')} term of symattn.flops.cost_terms"
            add(Claim(line.number, text, CERTIFIED if ok else WRONG, sp.sstr(want), rule, [(start, end)]))


# -- rule helpers ------------------------------------------------------------------------------------
_ROLES = ("projections", "scores", "weighted_sum", "output_projection", "total", "quadratic", "linear")


def right_text(node: calc.Node) -> str:
    return sp.sstr(_evaluate(node, {}))


def _cost_value(role: str) -> sp.Expr:
    from .flops import cost_terms, total_cost

    t = cost_terms()
    if role == "total":
        return total_cost()
    if role == "quadratic":
        return sp.expand(t["scores"] + t["weighted_sum"])
    if role == "linear":
        return sp.expand(t["projections"] + t["output_projection"])
    return sp.expand(t[role])


def _nearest_role(value: sp.Expr) -> str:
    """The term with the same powers of N and d_model (a wrong coefficient), else the total."""
    shape = {m.as_powers_dict().get(N, 0) for m in sp.Add.make_args(sp.expand(value))}
    for r in _ROLES:
        if {m.as_powers_dict().get(N, 0) for m in sp.Add.make_args(_cost_value(r))} == shape:
            return r
    return "total"


def _cost_role(before: str, formula: str) -> str | None:
    """Which cost term a formula states, from the words of its list item or its name."""
    if "FLOPs" in formula:
        return "total"
    item = before.lower()
    if not re.search(r"cost|flop|product|multipl|projection|weighted sum", item):
        return None
    last = item.rsplit("\n", 1)[-1]
    for words, role in (
        (r"project(?:ing)? (?:the )?queries", "projections"),
        (r"output projection", "output_projection"),
        (r"weighted sum", "weighted_sum"),
        (r"scores", "scores"),
    ):
        if re.search(words, last):
            return role
    return None


def _stage_word(before: str) -> str | None:
    """The stage a vector belongs to: the last stage word before it in its line."""
    words = [
        (r"\bscal(?:e|ed|ing)\b", "scaled"),
        (r"\bmask(?:ed)?\b", "masked"),
        (r"\bsoftmax\b|\bweights?\b", "weights"),
        (r"\boutputs?\b|weighted sum", "output"),
        (r"\bscores\b", "scores"),
    ]
    best, where = None, -1
    low = before.lower()
    for pattern, stage in words:
        for m in re.finditer(pattern, low):
            if m.start() > where:
                best, where = stage, m.start()
    return best


def _inside(covered: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(a <= start and end <= b for a, b in covered)


def _formula_span(line: Line, start: int, end: int) -> tuple[int, int]:
    for _, _, a, b in line.formulas:
        if a <= start and end <= b:
            return a, b
    return start, end


def _value_text(values: list, stated_i: int | None) -> str | None:
    shown = [show(v) for i, v in enumerate(values) if v is not None and i != stated_i]
    return shown[-1] if shown else None


def _mask_claim(line: Line, tex: str, start: int, end: int, context: str) -> Claim | None:
    from .masks import Mask

    body = re.search(r"\\begin\{bmatrix\}(.*?)\\end\{bmatrix\}", tex, re.S)
    if not body:
        return None
    rows = [r.split("&") for r in body.group(1).split(r"\\")]
    dot_is_zero = bool(re.search(r"with ⟨\s*\*?\s*⟩ for ⟨0⟩", context))

    def entry(cell: str) -> sp.Basic | None:
        c = cell.strip()
        if c in ("0",) or (c == r"\cdot" and dot_is_zero):
            return sp.S.Zero
        if c.replace(" ", "") == r"-\infty":
            return sp.S.NegativeInfinity
        return None

    values = [[entry(c) for c in r] for r in rows]
    text = line.text[start:end]
    if any(v is None for r in values for v in r) or len({len(r) for r in rows}) != 1:
        return Claim(line.number, text, UNCHECKED, None, "a matrix with entries other than 0 and -inf", [(start, end)])
    if "causal" not in context.lower():
        return Claim(line.number, text, UNCHECKED, None, "a mask that is not called causal", [(start, end)])
    n, m = len(values), len(values[0])
    want = Mask.parse("causal").exact(n, m)
    ok = sp.Matrix(values) == want
    return Claim(
        line.number,
        text,
        CERTIFIED if ok else WRONG,
        f"causal mask {n}x{m}: " + sp.sstr(want.tolist()),
        "mask: symattn.masks.Mask.exact",
        [(start, end)],
    )


_REFERENCE_PATTERNS = [
    r"\b[Ss]ections? \d+(?:\.\d+)?",
    r"\bModule \d+",
    r"\blab \d+\w?",
    r"\brules? \d+(?: and \d+)?",
    r"\b(?:[Tt]okens?|[Rr]ows?|[Kk]eys?|[Qq]uer(?:y|ies)|[Hh]eads?|[Ss]teps?|[Ee]xercises?|[Ff]igures?|entry)"
    r" \d+(?: to \w+)?(?:'s)?",
    r"\(\d{4}\)",
    r"\b(?:NeurIPS|ICLR|ICML|ACL|NIPS) \d{4}",
    r"arXiv:\d+\.\d+",
    r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4}",
    r"\b\d+ hours?\b",
    r"_\(?\w*=?\d+\)?",
]
_GIVEN_PATTERNS = [
    r"(?:[Aa]t|[Ff]or|[Ww]ith|[Ww]hen)\s+⟨[^⟩=]*=\s*[\d,]+\s*⟩",  # at d_k = 64
    r"\bfrom \d+ to \d+",
    r"\bover \d+ keys",
    r"\bwith ⟨?\d+⟩? keys",
    r"(?:exceeds|above|more than|below|clears)\s+⟨?\d+(?:\.\d+)?\s*%?⟩?",
    r"[Oo]ver [\d,]+ random (?:draws|trials)",
    r"mean ⟨?0⟩? and variance ⟨?1⟩?",
    r"⟨[^⟩]*~ N\(0, 1\)⟩",
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


def _references(text: str) -> list[tuple[int, int]]:
    spans = []
    for p in _REFERENCE_PATTERNS + _GIVEN_PATTERNS:
        spans.extend(m.span() for m in re.finditer(p, text))
    return spans


def _leftover(line: Line, start: int, end: int) -> Claim:
    span = _formula_span(line, start, end)
    a, b = line.sentence_at(start)
    shown = line.text[span[0] : span[1]] if span != (start, end) else line.text[max(a, start - 30) : min(b, end + 30)].strip()
    sentence = line.text[a:b].lower()
    if re.search(r"\b(?:usually|common|often|typically|rarely)\b", sentence):
        reason = "a statement about practice or frequency, in words: no computation bound"
    else:
        reason = "no computation bound to this number"
    return Claim(line.number, shown, UNCHECKED, None, reason, [span])
