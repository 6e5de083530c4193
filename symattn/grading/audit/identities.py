"""Identities between formulas with vectors, matrices and trigonometric functions.

A chain ``a = b = c`` whose members hold what the letters rules do not read (a vector's length
``\\|q - k_i\\|^2``, a transpose ``q^\\top k_i``, ``\\sin``, ``\\cos``, ``\\tanh``, a ``bmatrix``) is
read as a careful reader reads it:

- a letter the text writes in bold (``\\mathbf{q}``, ``\\boldsymbol{k}_i``), or declares with one
  size (``q ∈ R^d``), is a vector: a column of three real entries (an identity between lengths,
  dot products and sums of at most three vectors holds in every width if it holds in three);
  a bold capital is a 3 × 3 matrix of real entries; every other letter is a real number;
- two neighbours are compared only when they are written in the same letters (no definition
  is unfolded between them, so ``M p = [cos δω sin iω + ...]`` is not compared);
- they *agree* when SymPy reduces their difference to 0 (``expand_trig``, ``simplify``) and
  it is 0, to 30 digits, at three points drawn with a fixed seed; they *differ* when at one of
  the points the difference is certainly not 0 (more than 10^-20 in size at 30 digits);
  anything else decides nothing.

A claim comparing two members stands on both their lines: from the line the earlier member starts
on to the line of the `=` before the later one (a display set over rows says which).
"""

from __future__ import annotations

import random
import re

import sympy as sp

from . import calc
from .document import Line
from .stated import Unreadable

#: Formulas this rule reads: those with something the other rules do not evaluate.
_WORTH = re.compile(
    r"\\(?:sin|cos|tan|tanh|\||mathbf|boldsymbol|bm|top)\b|\\\||bmatrix|\\mathrm\{tanh\}|\\textrm\{tanh\}"
)
_BOLD = re.compile(r"\\(?:mathbf|boldsymbol|bm|vec)\s*\{?\s*([A-Za-z])\s*\}?(?:\s*_\s*\{?\s*(\w+)\s*\}?)?")
_MATRIX = re.compile(r"\\begin\{bmatrix\}(.*?)\\end\{bmatrix\}", re.S)
_DEFINED = re.compile(
    r"\s*(?!(?:sin|cos|tan|tanh|exp|sqrt|ln|log|softmax)\()[A-Za-z]\w*\((?:[^()]|\([^()]*\))*\)\s*=(?!=)"
)
_GREEK = {
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "vartheta",
    "iota", "kappa", "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "upsilon", "phi", "varphi",
    "chi", "psi", "omega",
}  # fmt: skip
#: Words that make an equation hold under a condition, not for all values (If q^T k = 0, then ...;
#: for unit vectors; a symmetric S): such a formula is left to the reader.
_CONDITIONED = re.compile(
    r"\b(?:if|when|whenever|iff|provided|assum\w*|suppose|given|unit|orthogonal|orthonormal|symmetric"
    r"|diagonal|unitary|normali[sz]ed|exactly when|parallel|attained|update|in place|where)\b",
    re.I,
)
#: A condition after the formula ("... only when the product is symmetric").
_ONLY = re.compile(r"\b(?:only|if|when|whenever|iff|provided|unless)\b", re.I)
#: An equation to solve, not an identity ("the curves cross where ..., that is at x = π/4").
_SOLVED = re.compile(r"\b(?:solv\w*|solutions?|roots?|cross\w*|intersect\w*|that is at)\b", re.I)
WIDTH = 3
POINTS = 3


def identity_claims(au, line, add, covered) -> None:
    from .match import CERTIFIED, WRONG, Claim, inside
    from .said import Math, Said

    for tex, _plain, start, end in line.formulas:
        if inside(covered, start, end) or not _WORTH.search(tex):
            continue
        plain = calc.latex_to_plain(_matrices(tex))
        head = _DEFINED.match(plain)  # a(q, k_i) = ...: the function it defines is compared with nothing
        try:
            members, relations = calc.parse_chain(plain[head.end() :] if head else plain)
        except Unreadable:
            continue
        if len(members) < 2 or set(relations) != {"="}:
            continue
        sentence, at = au.doc.sentence(line, start)
        context = sentence[:at] + (au.previous_block(line)[-200:] if line.kind == "math" else "")
        if _CONDITIONED.search(context) or _SOLVED.search(sentence) or _ONLY.search(sentence[at:]):
            continue
        kinds = _kinds(tex, au)
        values = [_value(m, kinds) for m in members]
        sizes = [_value(m, {**kinds, "": "positive"}) for m in members]
        shift = 1 if head else 0
        rows = line.equals_at[shift:] if len(line.equals_at) == len(relations) + shift else []
        for k in range(len(values) - 1):
            a, b = values[k], values[k + 1]
            if a is None or b is None or _letters(a) != _letters(b) or not _letters(a):
                continue
            if any(
                m[0] == "sym" and m in calc.walk(o)
                for m, o in ((members[k], members[k + 1]), (members[k + 1], members[k]))
            ):
                continue  # k = k/|k|: an update, or an equation to solve, not an identity
            # true for every real value of its letters; wrong when false for positive ones too
            verdict = _compare(a, b) or (False if _compare(sizes[k], sizes[k + 1]) is False else None)
            if verdict is None:
                continue
            a, b = (a, b) if verdict else (sizes[k], sizes[k + 1])
            first, last = members_lines(line, rows, k)
            said = (
                Said("the two sides agree")
                if verdict
                else Said("the two sides differ by ", Math(_shown(a, b)))
            )
            add(
                Claim(
                    first,
                    line.text[start:end],
                    CERTIFIED if verdict else WRONG,
                    said,
                    "identity: vectors of three real entries, real letters; SymPy reduces the difference "
                    "(exact), checked at three points",
                    [(start, end)],
                    through=last,
                )
            )


def members_lines(line: Line, rows: list[int], k: int) -> tuple[int, int]:
    """The lines of members k and k + 1 of a chain set over a display's rows (``rows``: the line
    of each ``=``, member k + 1 starting on the line of the k-th): a comparison of two members
    stands on both their lines. A chain on one line stands on it."""
    if not rows:
        return line.number, line.number
    return (rows[k - 1] if k else line.number), rows[k]


def _matrices(tex: str) -> str:
    """Each ``bmatrix`` as a list of rows, ``[[a, b], [c, d]]``, that the plain reader reads."""

    def rows(m: re.Match) -> str:
        body = [r for r in re.split(r"\\\\", m.group(1)) if r.strip()]
        return "[" + ", ".join("[" + ", ".join(c.strip() for c in r.split("&")) + "]" for r in body) + "]"

    return _MATRIX.sub(rows, tex)


def _kinds(tex: str, au) -> dict[str, str]:
    """Each bold or declared letter's kind: ``vector`` or ``matrix``."""
    out = {}
    for letter, index in _BOLD.findall(tex):
        name = letter + (f"_{index}" if index else "")
        out[name] = "identity" if name == "I" else "matrix" if letter.isupper() else "vector"
    for name, shape in au.shapes.known.items():
        if len(shape) == 1 and name not in out:
            out[name] = "vector"
    return out


def _value(node, kinds: dict[str, str]):
    try:
        return _eval(node, kinds)
    except (Unreadable, sp.ShapeError, TypeError, ValueError, ArithmeticError, NotImplementedError):
        return None


def _eval(node, kinds):
    op = node[0]
    if op == "num":
        return sp.Rational(node[1].rstrip("%"))
    if op == "sym":
        name = node[1]
        if kinds.get(name) == "vector":
            return sp.Matrix([sp.Symbol(f"{name}[{i}]", real=True) for i in range(WIDTH)])
        if kinds.get(name) == "matrix":
            return sp.Matrix(WIDTH, WIDTH, lambda i, j: sp.Symbol(f"{name}[{i},{j}]", real=True))
        if kinds.get(name) == "identity":
            return sp.eye(WIDTH)
        if name == "pi":
            return sp.pi
        base = name.split("_")[0]
        if name in ("T", "e", "oo") or (len(base) > 1 and base.lower() == base and base not in _GREEK):
            raise Unreadable(name)  # a word (cos without its parentheses, hat, sintheta): not a letter
        # a letter in a text is read twice: as any real number, and as a positive size
        return sp.Symbol(name, positive=True) if kinds.get("") == "positive" else sp.Symbol(name, real=True)
    if op == "vec":
        items = [_eval(x, kinds) for x in node[1]]
        if all(isinstance(x, sp.MatrixBase) and x.rows == 1 for x in items):
            return sp.Matrix.vstack(*items)
        if any(isinstance(x, sp.MatrixBase) for x in items):
            raise Unreadable("a list of lists of different kinds")
        return sp.Matrix([items])
    if op == "neg":
        return -_eval(node[1], kinds)
    if op == "call":
        arg = _eval(node[2], kinds)
        if node[1] == "norm":
            return calc.norm(arg)
        functions = {
            "sin": sp.sin,
            "cos": sp.cos,
            "tan": sp.tan,
            "tanh": sp.tanh,
            "exp": sp.exp,
            "sqrt": sp.sqrt,
        }
        if node[1] not in functions:
            raise Unreadable(node[1])
        fn = functions[node[1]]
        return arg.applyfunc(fn) if isinstance(arg, sp.MatrixBase) else fn(arg)
    if op == "pow" and node[2] == ("sym", "T"):
        inner = _eval(node[1], kinds)
        if not isinstance(inner, sp.MatrixBase):
            raise Unreadable("a transpose of a number")
        return inner.T
    if op not in ("add", "sub", "mul", "div", "pow"):
        raise Unreadable(op)
    a, b = _eval(node[1], kinds), _eval(node[2], kinds)
    if op == "add":
        return _scalar(a + b)
    if op == "sub":
        return _scalar(a - b)
    if op == "mul":
        if isinstance(a, sp.MatrixBase) and isinstance(b, sp.MatrixBase) and a.cols != b.rows:
            raise Unreadable("a product of shapes that do not fit")
        return _scalar(a * b)
    if isinstance(b, sp.MatrixBase):
        raise Unreadable("a division or power by a matrix")
    if op == "div":
        return _scalar(a / b)
    if isinstance(a, sp.MatrixBase) or not (b.is_Integer and abs(b) <= 8):
        raise Unreadable("a power this rule does not take")
    return a**b


def _scalar(x):
    """A 1 × 1 matrix (q^T k) as its entry."""
    return x[0, 0] if isinstance(x, sp.MatrixBase) and x.shape == (1, 1) else x


def _letters(x) -> frozenset:
    return frozenset(x.free_symbols)


def _difference(a, b):
    if isinstance(a, sp.MatrixBase) != isinstance(b, sp.MatrixBase):
        raise Unreadable("a matrix and a number")
    if isinstance(a, sp.MatrixBase):
        if a.shape != b.shape:
            raise Unreadable("matrices of two shapes")
        return list(a - b)
    return [a - b]


def _compare(a, b) -> bool | None:
    """True (agree), False (differ) or None (not decided); see the module's docstring."""
    try:
        differences = _difference(a, b)
    except Unreadable:
        return None
    letters = sorted(set().union(*(d.free_symbols for d in differences)), key=str)
    rng = random.Random(47)  # entries of vectors of either sign; other letters positive
    points = [
        {s: sp.Rational(rng.randint(1 if s.is_positive else -40, 40), rng.randint(7, 19)) for s in letters}
        for _ in range(POINTS)
    ]
    sizes = []
    for point in points:
        for d in differences:
            v = sp.N(d.xreplace(point), 30)
            if not (v.is_number and v.is_finite and v.is_real):
                return None  # a pole, or a value off the real line: no verdict from this point
            sizes.append(abs(v))
    if any(s > sp.Float("1e-20") for s in sizes):
        return False
    reduced = [sp.simplify(sp.expand_trig(sp.expand(d))) for d in differences]
    return True if all(r == 0 for r in reduced) else None


def _shown(a, b):
    d = a - b
    return sp.simplify(sp.expand_trig(d)) if not isinstance(d, sp.MatrixBase) else d.applyfunc(sp.simplify)


#: "where the ⟨2 × 2⟩ projection matrix does not depend on any position index ⟨i⟩".
_DEPENDS = re.compile(
    r"\b(?:the\s+)?(?:⟨\s*(?P<rows>\d+)\s*×\s*(?P<cols>\d+)\s*⟩\s+)?(?:[a-z]+\s+)?matrix\s+"
    r"(?P<negated>does\s+not\s+|doesn't\s+|is\s+not\s+|isn't\s+)?(?:depends?|dependent)\s+(?:up)?on\s+"
    r"(?:any\s+|the\s+)?(?:[a-z]+\s+){0,3}⟨\s*(?P<var>[A-Za-z]\w*)\s*⟩"
)


def dependence_claims(au, line, add, covered) -> None:
    """Whether a matrix of the display just before depends on a letter, as the text says: the
    first matrix of the stated size written out there, read as SymPy (its letters are its free
    symbols)."""
    from .match import CERTIFIED, WRONG, Claim, inside
    from .said import Said

    for m in _DEPENDS.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        matrix = _matrix_before(au, line, m.group("rows"), m.group("cols"))
        if matrix is None:
            continue
        letters = {s.name for s in matrix.free_symbols}
        depends = m.group("var") in letters
        said = not m.group("negated")
        shown = ", ".join(sorted(letters)) or "no letter"
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if depends == said else WRONG,
                Said(f"the matrix is written in {shown}"),
                "meaning: what a matrix written out just before depends on (its letters, read by SymPy)",
                [m.span()],
            )
        )


def _matrix_before(au, line, rows: str | None, cols: str | None) -> sp.Matrix | None:
    """The first matrix (of ``rows`` × ``cols``, when given) written in the display that stands
    just before ``line``, nothing but blank lines between them."""
    display = _display_before(au, line)
    for tex, _plain, _start, _end in display.formulas if display is not None else []:
        for body in _MATRIX.finditer(tex):
            try:
                members, relations = calc.parse_chain(calc.latex_to_plain(_matrices(body.group(0))))
            except Unreadable:
                continue
            value = _value(members[0], {}) if not relations else None
            if not isinstance(value, sp.MatrixBase):
                continue
            if rows and cols and value.shape != (int(rows), int(cols)):
                continue
            return value
    return None


#: "the final term depends on ⟨q⟩ only", of the last member of the display just before.
_TERM = re.compile(
    r"\b(?:the\s+)?(?P<which>first|second|third|last|final)\s+term\s+(?P<negated>does\s+not\s+|doesn't\s+)?"
    r"(?:depends?|is\s+dependent)\s+(?:only\s+)?(?:up)?on\s+(?:the\s+)?(?:[a-z]+\s+){0,2}?⟨\s*(?P<var>[A-Za-z]\w*)\s*⟩"
    r"(?P<only>\s+only|\s+alone)?"
)
_ORDINAL = {"first": 0, "second": 1, "third": 2, "last": -1, "final": -1}


def term_claims(au, line, add, covered) -> None:
    """What a term of the formula displayed just before depends on: the letters of that term as
    written (the last member's terms in the order the text writes them)."""
    from .match import Claim, inside
    from .said import Said

    for m in _TERM.finditer(line.text):
        display = _display_before(au, line)
        if inside(covered, *m.span()) or display is None:
            continue
        plain = calc.latex_to_plain(_matrices(display.formulas[-1][0]))
        head = _DEFINED.match(plain)
        try:
            members, _ = calc.parse_chain(plain[head.end() :] if head else plain)
        except Unreadable:
            continue
        terms = _terms(members[-1])
        k = _ORDINAL[m.group("which")]
        if len(terms) < 2 or k >= len(terms):
            continue
        letters = calc.symbols_of(terms[k])
        var = m.group("var")
        holds = (
            (var not in letters)
            if m.group("negated")
            else (letters == {var} if m.group("only") else var in letters)
        )
        shown = ", ".join(sorted(letters)) or "no letter"
        add(
            Claim.judged(
                line.number,
                m.group(0),
                holds,
                Said(f"the {m.group('which')} term is written in {shown}"),
                "meaning: what a term of the formula displayed just before depends on (its letters, as "
                "written)",
                [m.span()],
            )
        )


def _terms(node) -> list:
    """The terms of a sum as written, left to right (a − b has the terms a and −b)."""
    if node[0] == "add":
        return _terms(node[1]) + _terms(node[2])
    if node[0] == "sub":
        return [*_terms(node[1]), ("neg", node[2])]
    return [node]


def _display_before(au, line):
    """The display that stands just before ``line``, nothing but blank lines between them."""
    earlier = [x for x in au.doc.lines if x.number < line.number and x.kind != "blank"][-1:]
    return earlier[0] if earlier and earlier[0].kind == "math" and earlier[0].formulas else None
