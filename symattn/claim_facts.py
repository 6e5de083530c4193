"""What a module defines, found by content: the worked example and the statistics it assumes.

- The two-token example: a table whose header names query, key and value, with rows
  ``token 1``, ``token 2``, ... gives the vectors q_1, k_1, v_1, ...; the exact stages of
  :func:`symattn.exact.attention` on them, with the causal mask and with none.
- The statistics of q . k: when the module assumes entries independent with mean 0 and
  variance 1, ``E[...]`` and ``Var(...)`` of polynomials in q_i, k_i (and z, the sum of d_k
  products q_i k_i) are computed by the rules the module uses: linearity, independence
  (E of a product of independent factors is the product of the E's), the moments of a
  standard normal (0 for odd powers, (p - 1)!! for even p), and variances of independent
  terms add (Var(z) = d_k Var(q_i k_i)).
- The multi-head sizes h and d_model the module states ("h = 8 and d_model = 512").
"""

from __future__ import annotations

import re

import sympy as sp

from . import calc
from .claims import Document
from .errors import SymattnError
from .stated import Unreadable


class Facts:
    """What the module defines, found by content: the example's table, its assumptions."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.vectors = example_table(doc)
        try:
            self.examples = example_steps(self.vectors)
        except SymattnError:  # a table whose vectors do not fit together: no worked example
            self.examples = {}
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


def example_table(doc: Document) -> dict[str, sp.Matrix]:
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


def example_steps(vectors: dict) -> dict:
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


# -- statistics of q_i k_i ---
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
        a, b = [*poly.all_coeffs(), 0][:2] if poly.degree() == 1 else (0, poly.all_coeffs()[0])
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
