"""Reading the arithmetic a module writes, and the precision of the figures it states.

A module's math is author text, not code: nothing here calls ``eval``, ``sympify`` or a LaTeX
parser with global state. :func:`latex_to_plain` rewrites the LaTeX of one formula into a small
plain syntax (``\\sqrt{2} \\approx 1.414`` -> ``sqrt(2) ≈ 1.414``), and :func:`parse_chain`
reads that syntax with a recursive-descent parser into a tuple tree, which :func:`exact` turns
into SymPy (decimals read exactly; a rounded figure the text stated before may be read as the
exact value it stands for, :class:`symattn.grading.audit.match.Figures`).

How a stated figure is compared with a computed value is :mod:`symattn.grading.audit.stated`.
"""

from __future__ import annotations

import re

import sympy as sp

from .stated import UNITS, Unreadable

MAX_LENGTH = 400  # characters of one formula read
MAX_POWER = 64  # largest literal exponent evaluated
MAX_DECADES = 1000  # values beyond 10^±1000 are not evaluated (the module's are below 10^9)


# -- LaTeX to the plain syntax ----------------------------------------------------------------
_DROP = {
    "left", "right", "quad", "qquad", "displaystyle", "textstyle", "big", "Big", "bigl", "bigr", "limits",
    "small", "large", "Large", "tiny", "scriptsize", "footnotesize", "normalsize", "huge",
}  # fmt: skip
_WORDS = {
    "approx": " ≈ ",
    "pm": " ± ",
    "infty": "oo",
    "cdot": " * ",
    "times": " × ",
    "top": "T",
    "neq": " ≠ ",
    "ne": " ≠ ",
    "le": " ≤ ",
    "leq": " ≤ ",
    "ge": " ≥ ",
    "geq": " ≥ ",
    "dots": "...",
    "ldots": "...",
    "cdots": "...",
    "sim": " ~ ",
    "to": " → ",
    "rightarrow": " → ",
    "Rightarrow": " ⇒ ",
    "implies": " ⇒ ",
    "longrightarrow": " → ",
    "in": " ∈ ",
    "%": "%",
    ",": " ",
    ";": " ",
    "!": "",
    " ": " ",
}
_STYLE = {
    "mathbf", "boldsymbol", "text", "mathrm", "operatorname", "mathit", "textbf", "mathcal", "mathbb",
    "textrm", "textit", "textsf", "texttt", "mathsf", "mathtt", "textnormal",
}  # fmt: skip
#: Styles that set words (spaces joined with _, as a name: ``\text{num tokens}``).
_WORD_STYLES = {"text", "mathrm", "textrm", "textit", "textsf", "texttt", "textnormal"}


def latex_to_plain(tex: str) -> str:
    """One formula's LaTeX in the plain syntax :func:`parse_chain` reads."""
    if len(tex) > 20 * MAX_LENGTH:
        raise Unreadable("formula too long")
    try:
        tex = re.sub(r"(\d)\\[,;: ](?=\d{3}(?!\d))", r"\1", tex)  # 1\,024: a thousands space
        out, _ = _convert(tex.replace("{,}", ","), 0, stop=None)
    except RecursionError:
        raise Unreadable("formula nested too deeply") from None
    return _unwrapped(re.sub(r"\s+", " ", out).strip())


def _unwrapped(plain: str) -> str:
    """A formula held whole in a group (``\\small{a = b}``) without it, when the group holds a
    relation: the group only set the formula's style."""
    while plain.startswith("(") and plain.endswith(")") and re.search(r"[=≈<>≤≥]", plain):
        depth = 0
        for i, c in enumerate(plain):
            depth += c == "("
            depth -= c == ")"
            if depth == 0 and i < len(plain) - 1:
                return plain  # the first group closes before the end: (a)/(b) = c
        plain = plain[1:-1].strip()
    return plain


def _group(tex: str, i: int) -> tuple[str, int]:
    """The argument at ``i``: a braced group (converted) or one character."""
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i < len(tex) and tex[i] == "{":
        inner, j = _convert(tex, i + 1, stop="}")
        return inner, j + 1
    if i < len(tex) and tex[i] == "\\":
        m = re.compile(r"\\([A-Za-z]+)").match(tex, i)
        if m:
            return _WORDS.get(m.group(1), m.group(1)).strip(), m.end()
    return (tex[i], i + 1) if i < len(tex) else ("", i)


def _convert(tex: str, i: int, stop: str | None) -> tuple[str, int]:
    out: list[str] = []
    letters: set[int] = set()  # where in ``out`` a styled letter stands alone
    while i < len(tex):
        c = tex[i]
        if stop is not None and c == stop:
            return _joined(out, letters), i
        if c == "\\":
            m = re.compile(r"\\([A-Za-z]+|.)", re.S).match(tex, i)
            if m is None:  # a backslash that ends the formula
                break
            name = m.group(1)
            i = m.end()
            if name in _DROP:
                continue
            if name == "sqrt":
                arg, i = _group(tex, i)
                out.append(f"sqrt({arg})")
            elif name == "frac":
                a, i = _group(tex, i)
                b, i = _group(tex, i)
                out.append(f"(({a})/({b}))")
            elif name in ("textcolor", "colorbox"):  # \textcolor{red}{KL}: KL
                _, i = _group(tex, i)
                arg, i = _group(tex, i)
                out.append(arg if re.fullmatch(r"\w+", arg) else f"({arg})")
            elif name == "color":  # \color{red}: a colour for what follows, no value
                _, i = _group(tex, i)
            elif name in _STYLE:
                arg, i = _group(tex, i)
                if re.fullmatch(r"\s*[A-Za-z]\s*", arg) and name not in _WORD_STYLES:
                    letters.add(len(out))  # \mathbf{W}\mathbf{x}: a letter of its own, W times x
                out.append(arg.strip().replace(" ", "_") if name in _WORD_STYLES else arg)
            elif name == "sum":
                out.append(" sum")
            else:  # \sigma -> sigma, \mu -> mu; after a letter or digit a factor of its own (d\sigma)
                word = _WORDS.get(name, name)
                apart = out and out[-1][-1:].isalnum() and word[:1].isalpha()
                out.append(" " + word if apart else word)
            continue
        if c == "{":
            inner, j = _convert(tex, i + 1, stop="}")
            out.append(f"({inner})")
            i = j + 1
            continue
        if c == "}":  # unbalanced: keep reading
            i += 1
            continue
        if c in "^_":
            while out and out[-1].isspace():  # x _{bs}: a space before a script sets nothing apart
                out.pop()
            arg, i = _group(tex, i + 1)
            arg = arg.strip()
            if c == "_":
                bare = arg.strip("()")
                out.append("_" + (bare if re.fullmatch(r"[\w]+", bare) else f"({arg})"))
            elif out and out[-1] == "e" and (not out[:-1] or not out[-2][-1:].isalnum()):
                out[-1] = f"exp({arg})"
            else:
                out.append(f"^({arg})")
            continue
        out.append(c)
        i += 1
    return _joined(out, letters), i


def _joined(pieces: list[str], letters: set[int] = frozenset()) -> str:
    """The pieces of a formula joined. A letter or digit after a subscript starts a new factor,
    as in TeX, where a subscript takes one token (``W_q\\mathbf q`` is W_q times q, not W_(qq));
    so does a letter set in a style of its own (``\\mathbf{W}\\mathbf{x}`` is W times x, not a
    name Wx), and what follows it."""
    out = []
    for k, piece in enumerate(pieces):
        if k and piece[:1].isalnum():
            before = pieces[k - 1]
            alone = (k in letters or k - 1 in letters) and before[-1:].isalnum()
            if before.startswith("_") or alone:
                out.append(" ")
        out.append(piece)
    return "".join(out)


# -- parsing ------------------------------------------------------------------------------------
_TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d+(?:\.\d+)?[eE][+-]?\d+(?![\w(])|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)%?)"
    r"|(?P<id>[A-Za-z][A-Za-z0-9]*(?:_(?:\([^()]*\)|[A-Za-z0-9]+))*)"
    r"|(?P<op>\*\*|[-+*/^()\[\],=≈<>≤≥≠±×−·|]))"
)
#: Capital words that are not products of letters: units and names authors write in math.
CAPITAL_WORDS = {
    "FLOP", "FLOPS", "FLOPs", "MLP", "RNN", "CNN", "LSTM", "GPU", "TPU", "HBM", "VMEM", "KV", "MHA",
    "GQA", "MQA", "SM", "ICI", "DCN", "PCIe", "TB", "GB", "MB", "KB", "PB", "ReLU", "GELU",
}  # fmt: skip
RELATIONS = ("=", "≈", ">", "<", "≤", "≥")
#: Functions read as functions (sin(x), not sin times x), each SymPy's, entry by entry.
TRIG = ("sin", "cos", "tan", "tanh")
Node = tuple


def tokens(text: str) -> list[tuple[str, str]]:
    if len(text) > MAX_LENGTH:
        raise Unreadable("formula too long")
    out, i = [], 0
    text = text.rstrip(" .,;:")
    while i < len(text):
        m = _TOKEN.match(text, i)
        if not m or m.end() == i:
            if text[i:].strip() == "":
                break
            raise Unreadable(f"cannot read {text[i : i + 12]!r}")
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "op":
            value = {"−": "-", "·": "*", "×": "*", "**": "^"}.get(value, value)
        out.append((kind, value))
        i = m.end()
    return out


class _Parser:
    def __init__(self, toks: list[tuple[str, str]]):
        self.toks = toks
        self.i = 0
        self.bars = 0  # inside |...|: a bar closes, it never opens another

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        t = self.peek()
        if t is None or (value is not None and t[1] != value):
            raise Unreadable(f"expected {value or 'more'}")
        self.i += 1
        return t

    def chain(self) -> tuple[list[Node], list[str]]:
        members, relations = [self.expr()], []
        while (t := self.peek()) is not None and t[1] in RELATIONS:
            relations.append(self.take()[1])
            members.append(self.expr())
        if self.peek() is not None:
            raise Unreadable(f"unexpected {self.peek()[1]!r}")
        return members, relations

    def expr(self) -> Node:
        node = self.term()
        while (t := self.peek()) is not None and t[1] in "+-":
            op = self.take()[1]
            node = ("add" if op == "+" else "sub", node, self.term())
        return node

    def term(self) -> Node:
        node = self.unary()
        while True:
            t = self.peek()
            if t is not None and t[1] in ("*", "/"):
                op = self.take()[1]
                node = ("mul" if op == "*" else "div", node, self.unary())
            elif t is not None and (
                t[0] in ("num", "id") or t[1] in ("(", "[") or (t[1] == "|" and not self.bars)
            ):
                node = ("mul", node, self.unary())  # juxtaposition: 2 N^2 d
            else:
                return node

    def unary(self) -> Node:
        t = self.peek()
        if t is not None and t[1] == "-":
            self.take()
            return ("neg", self.unary())
        if t is not None and t[1] == "±":
            self.take()
            return ("pm", self.unary())
        if t is not None and t[1] == "+":
            self.take()
            return self.unary()
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        if (t := self.peek()) is not None and t[1] == "^":
            self.take()
            if (u := self.peek()) is not None and u[1] == "T":
                self.take()
                return base
            return ("pow", base, self.unary_atom())
        return base

    def unary_atom(self) -> Node:
        t = self.peek()
        if t is not None and t[1] == "-":
            self.take()
            return ("neg", self.unary_atom())
        return self.atom()

    def atom(self) -> Node:
        kind, value = self.take()
        if kind == "num":
            return ("num", value)
        if kind == "id":
            nxt = self.peek()
            if value == "log":  # log 1000 = 3 means base 10 to some, base e to others: not read
                raise Unreadable("a logarithm without its base")
            if value in ("ln", "log") and nxt is not None and nxt[1] != "(":
                return ("call", "ln", self.power())  # ln 2, ln x^2: the natural logarithm
            if value in ("ln", "log") and nxt is not None:
                self.take("(")
                arg = self.expr()
                self.take(")")
                return ("call", "ln", arg)
            if (
                value in ("sqrt", "exp", "softmax", "Var", "sigma", *TRIG)
                and nxt is not None
                and nxt[1] == "("
            ):
                self.take("(")
                arg = self.expr()
                self.take(")")
                return ("call", value, arg)
            # E[X], Var[X] and V[X] (\\mathbb{E}, \\operatorname{Var}, \\mathbb{V}) in brackets
            if value in ("E", "Var", "V") and nxt is not None and nxt[1] == "[":
                self.take("[")
                arg = self.expr()
                self.take("]")
                return ("call", "Var" if value == "V" else value, arg)
            if value == "V" and nxt is not None and nxt[1] == "(":
                self.take("(")
                arg = self.expr()
                self.take(")")
                return ("call", "Var", arg)
            return ("sym", value)
        if value == "(":
            node = self.expr()
            self.take(")")
            if node[0] == "sym" and re.fullmatch(r"[A-Z]{2,8}", node[1]) and node[1] not in CAPITAL_WORDS:
                # (AB)^T: the letters' product, raised or transposed whole (AB^T is A B^T)
                out = ("sym", node[1][0])
                for c in node[1][1:]:
                    out = ("mul", out, ("sym", c))
                return out
            return node
        if value == "|" and not self.bars:  # |x|: an absolute value, or a vector's length
            self.bars += 1
            arg = self.expr()
            self.take("|")
            self.bars -= 1
            return ("call", "norm", arg)
        if value == "[":
            items = [self.expr()]
            while self.peek() is not None and self.peek()[1] == ",":
                self.take(",")
                items.append(self.expr())
            self.take("]")
            return ("vec", tuple(items))
        raise Unreadable(f"unexpected {value!r}")


_SUM = re.compile(r"sum_\((?P<var>[a-z])\s*=\s*(?P<lo>\w+)\)\s*\^\s*\((?P<hi>[\w()]+?)\)")


def parse_chain(text: str) -> tuple[list[Node], list[str]]:
    """Members and relations of ``a = b ≈ c`` (or one member with no relation)."""
    sums: list[tuple[str, str, str]] = []

    def mark(m: re.Match) -> str:
        sums.append((m.group("var"), m.group("lo"), m.group("hi")))
        return f" SUM{len(sums) - 1} "

    text = _SUM.sub(mark, text)
    p = _Parser(tokens(text))
    try:
        members, relations = p.chain()
    except RecursionError:
        raise Unreadable("formula nested too deeply") from None
    if sums:
        members = [_attach_sums(m, sums) for m in members]
    return members, relations


def _attach_sums(node: Node, sums: list[tuple[str, str, str]]) -> Node:
    """``SUMk * body`` (juxtaposition) becomes ("sum", var, lo, hi, body)."""
    if not isinstance(node, tuple):
        return node
    if node[0] == "mul":  # a sum takes the factors after it in its product: 2 SUM a b is 2 (SUM a b)
        parts = factors(node)
        for k, f in enumerate(parts):
            if f[0] == "sym" and re.fullmatch(r"SUM\d+", f[1]) and k + 1 < len(parts):
                var, lo, hi = sums[int(f[1][3:])]
                summed = ("sum", var, lo, hi, _attach_sums(product_of(parts[k + 1 :]), sums))
                return product_of([_attach_sums(x, sums) for x in parts[:k]] + [summed])
    return tuple(_attach_sums(x, sums) if isinstance(x, tuple) else x for x in node)


def factors(node: Node) -> list[Node]:
    """A product's factors, left to right (the parser nests juxtaposition to the left)."""
    return factors(node[1]) + factors(node[2]) if node[0] == "mul" else [node]


def product_of(factors: list[Node]) -> Node:
    out = factors[0]
    for f in factors[1:]:
        out = ("mul", out, f)
    return out


def literal(node: Node) -> str | None:
    """The text of a node that is a plain number (or a negated one), else None."""
    if node[0] == "num":
        return node[1]
    if node[0] == "neg" and node[1][0] == "num":
        return "-" + node[1][1]
    if node[0] == "pm" and node[1][0] == "num":
        return node[1][1]
    if node[0] == "mul" and len(node) == 3 and node[1][0] == "num" and node[2][0] == "pow":
        # 3.3 x 10^5: a figure in scientific notation, its digits those of the mantissa
        base, power = node[2][1], node[2][2]
        exponent = power[1] if power[0] == "num" else ("-" + power[1][1] if power[0] == "neg" else None)
        if base == ("num", "10") and exponent is not None and re.fullmatch(r"-?\d+", exponent):
            return f"{node[1][1]}e{exponent}"
    if node[0] == "mul" and len(node) == 3 and node[2][0] == "sym" and node[2][1] in UNITS:
        inner = literal(node[1])  # 17 GB: a figure in a unit, to the digits of 17
        return f"{inner} {node[2][1]}" if inner is not None else None
    return None


def has_decimal(node: Node) -> bool:
    return any(n[0] == "num" and "." in n[1] for n in walk(node))


def walk(node: Node):
    yield node
    for x in node[1:]:
        if isinstance(x, tuple) and x and isinstance(x[0], str):
            yield from walk(x)
        elif isinstance(x, tuple):
            for y in x:
                if isinstance(y, tuple):
                    yield from walk(y)


def dot_products(node: Node) -> Node:
    """``q · k`` and ``q^T k``, the dot product of the query and the key, as ``z``."""
    if not isinstance(node, tuple):
        return node
    q, k, qt = ("sym", "q"), ("sym", "k"), ("pow", ("sym", "q"), ("sym", "T"))
    if node[0] == "mul" and node[2] == k and node[1] in (q, qt):
        return ("sym", "z")
    return tuple(dot_products(x) if isinstance(x, tuple) else x for x in node)


def symbols_of(node: Node) -> set[str]:
    return {n[1] for n in walk(node) if n[0] == "sym" and n[1] not in ("e", "oo", "pi")}


# -- evaluation ---------------------------------------------------------------------------------
def _number(text: str) -> sp.Rational:
    if text.endswith("%"):  # 21.7%: a share
        return _number(text[:-1]) / 100
    m = re.fullmatch(r"(.+?)[eE]([+-]?\d+)", text)
    if m:  # 4e3: bounded before it is computed (1e999999999 would never finish)
        if abs(int(m.group(2))) > MAX_DECADES:
            raise Unreadable("number too large")
        return sp.Rational(m.group(1)) * sp.Integer(10) ** int(m.group(2))
    return sp.Rational(text.replace(",", ""))


def exact(node: Node, env: dict) -> sp.Basic:
    """The node as SymPy, decimals read exactly; symbols from ``env`` or positive symbols."""
    op = node[0]
    if op == "num":
        return _number(node[1])
    if op == "sym":
        name = node[1]
        if name in env:
            return env[name]
        if name == "e":
            return sp.E
        if name in UNITS:
            return sp.Integer(UNITS[name])
        if name == "oo":
            return sp.oo
        return sp.Symbol(name, positive=True)
    if op == "vec":
        return sp.Matrix([[exact(x, env) for x in node[1]]])
    if op in ("neg", "pm"):
        return -exact(node[1], env) if op == "neg" else exact(node[1], env)
    if op == "call":
        name, arg = node[1], exact(node[2], env)
        if name == "sqrt":
            return sp.sqrt(arg)
        if name == "exp":
            _bounded_exponent(arg, sp.E)
            return _elementwise(sp.exp, arg)
        if name == "ln":
            if isinstance(arg, sp.MatrixBase) or not (arg.is_number and arg.is_positive):
                raise Unreadable("ln of something other than a positive number")
            return sp.log(arg)
        if name in TRIG:
            return _elementwise(getattr(sp, name), arg)
        if name == "norm":
            return norm(arg)
        if name == "softmax":  # of a row of scores: the library's own softmax, exactly
            from ...core.softmax import softmax_rows

            if not isinstance(arg, sp.MatrixBase) or arg.rows != 1:
                raise Unreadable("softmax of something other than a row of scores")
            for x in arg:
                _bounded_exponent(x, sp.E)
            return sp.Matrix(softmax_rows(arg))
        fn = env.get(name)
        if fn is None:
            raise Unreadable(f"{name} is not bound")
        return fn(node[2], env)
    if op == "sum":
        _, var, lo, hi, body = node
        i = sp.Symbol(var, integer=True, positive=True)
        inner = exact(body, {**env, var: i})
        return sp.Sum(inner, (i, exact(_leaf(lo), env), exact(_leaf(hi), env))).doit()
    a, b = exact(node[1], env), exact(node[2], env)
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        if isinstance(a, sp.MatrixBase) and isinstance(b, sp.MatrixBase):
            return (a * b.T)[0, 0]  # q_1 · k_1
        return a * b
    if op == "div":
        return a / b
    if op == "pow":
        if b.is_number and b.is_Integer and abs(b) > MAX_POWER:
            raise Unreadable("exponent too large")
        _bounded_exponent(b, a)
        return a**b
    raise Unreadable(op)


def norm(arg):
    """|x|: a number's absolute value, a vector's Euclidean length."""
    return sp.sqrt(sum(x**2 for x in arg)) if isinstance(arg, sp.MatrixBase) else sp.Abs(arg)


def _bounded_exponent(exponent: sp.Basic, base: sp.Basic) -> None:
    """Refuse base^exponent beyond 10^±MAX_DECADES before computing it (e^{10^{10}})."""
    if isinstance(exponent, sp.MatrixBase):
        for x in exponent:
            _bounded_exponent(x, base)
        return
    if not (getattr(exponent, "is_number", False) and getattr(base, "is_number", False)):
        return
    e = sp.N(exponent, 15)
    b = sp.N(sp.Abs(base), 15)
    if not (e.is_real and b.is_real) or b == 0 or b == 1 or not e.is_finite:
        return
    if abs(e) * abs(sp.log(b, 10).evalf(15)) > MAX_DECADES:
        raise Unreadable("a number too large to evaluate")


def _leaf(text: str) -> Node:
    return ("num", text) if text.isdigit() else ("sym", text)


def _elementwise(fn, arg):
    if isinstance(arg, sp.MatrixBase):
        return arg.applyfunc(fn)
    return fn(arg)
