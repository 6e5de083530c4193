"""What a module defines, found by content: the worked example and the statistics it assumes.

- The two-token example: a table whose header names query, key and value, with rows
  ``token 1``, ``token 2``, ... gives the vectors q_1, k_1, v_1, ...; the exact stages of
  :func:`symattn.core.exact.attention` on them, with the causal mask and with none.
- The statistics of q . k: when the module assumes entries independent with mean 0 and
  variance 1, ``E[...]`` and ``Var(...)`` of polynomials in q_i, k_i (and z, the sum of d_k
  products q_j k_j) are computed by :class:`symattn.proof.expectation.Expectation` (linearity,
  independence, the moments of normal entries, Var(X) = E[X^2] - E[X]^2) for a symbolic d_k.
- The multi-head sizes h and d_model the module states ("h = 8 and d_model = 512").
"""

from __future__ import annotations

import re

import sympy as sp

from ...errors import SymattnError
from . import calc
from .document import Document
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
        unit = standard_normal(text)
        scaled = re.search(r"N\(0, ?(sigma|s)\^\(?2\)?\)", text)
        self.standard_normal = unit or scaled is not None
        #: q_i, k_i ~ N(0, σ²): the entries' standard deviation as the text names it; 1 where it
        #: assumes unit variance, also when it speaks of σ² elsewhere (an exercise's "what if":
        #: the unit variance is its main assumption, and σ² is not put into its claims).
        self.scale = sp.Symbol(scaled.group(1), positive=True) if scaled and not unit else sp.Integer(1)
        #: The width of q and k as the text writes it (d_k, d, D_k): the statistics' dimension;
        #: None when it writes two (q ∈ R^d here, a sum to d_k there): which is meant is a guess.
        widths = dimensions(text)
        self.dimension = sp.Symbol(widths[0], positive=True) if len(widths) == 1 else None
        heads = re.search(r"⟨\s*h\s*=\s*(\d+)\s*⟩ and ⟨\s*d_model\s*=\s*(\d+)\s*⟩", text)
        self.heads = (int(heads.group(1)), int(heads.group(2))) if heads else None

    def env_near(self, context: str) -> dict:
        """The statistics' environment where the text names two widths for q and k overall but
        ``context`` (a paragraph) names one: ``q ∈ R^d`` in the paragraph that assumes zero mean
        and unit variance, ``q ∈ R^q`` in another section's additive attention."""
        if self.dimension is not None:
            return self.env()
        widths = dimensions(context, None)
        return self.env(sp.Symbol(widths[0], positive=True) if len(widths) == 1 else None)

    def env(self, dimension: sp.Symbol | None = None) -> dict:
        dimension = dimension if dimension is not None else self.dimension
        env: dict = dict(self.vectors)
        if isinstance(self.scale, sp.Symbol):
            env[self.scale.name] = self.scale  # σ, a size the statistics are written in
        if self.standard_normal:
            width = {_DK: dimension} if dimension is not None else None
            scale = self.scale  # q_i = σ u_i for standard normal u_i: E and Var of the scaled ones
            env["E"] = lambda node, env: _in_width(_expectation(node, env, scale), width)
            env["Var"] = lambda node, env: _in_width(_variance(node, env, scale), width)
        return env


#: "zero mean and unit variance", "mean 0 and variance 1", "N(0, 1)", "standard normal"
_ZERO_MEAN = r"(?:zero|⟨\s*0\s*⟩|0)[ -]mean|mean (?:of )?(?:zero|⟨\s*0\s*⟩|0\b)"
_UNIT_VARIANCE = r"(?:unit|⟨\s*1\s*⟩|1)[ -]variance|variance (?:of )?(?:one|⟨\s*1\s*⟩|1\b)"


def standard_normal(text: str) -> bool:
    """Whether the text assumes the entries of q and k independent with mean 0 and variance 1."""
    if re.search(r"N\(0, ?1\)|standard normal", text):
        return True
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        if re.search(_ZERO_MEAN, sentence) and re.search(_UNIT_VARIANCE, sentence):
            return True
    return False


def dimensions(text: str, default: str | None = "d_k") -> list[str]:
    """The names the text gives the width of q and k, in order: the bounds of its sums of q_i
    k_i and the spaces they live in (``q, k ∈ R^(d)``); [``default``] when it names none."""
    bound = r"sum_\(\w=1\)\^(?:\(([A-Za-z]\w*)\)|([A-Za-z]))\s*q_\w ?\*? ?k_\w"
    found = [a or b for a, b in re.findall(bound, text)]
    found += re.findall(r"\bq(?:, ?k(?:_i)?)? ∈ R\^\(?([A-Za-z]\w*)\)?", text)
    return list(dict.fromkeys(found)) or ([default] if default else [])


def _in_width(value: sp.Expr, width: dict | None) -> sp.Expr:
    """A moment in the text's width of q and k; Unreadable when the text names two widths and
    the value depends on which."""
    if width is not None:
        return value.xreplace(width)
    if _DK in value.free_symbols:
        raise Unreadable("the text names two widths for q and k: which one is meant is not decided")
    return value


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
    from ...core.exact import attention

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
_Q, _K = sp.IndexedBase("q"), sp.IndexedBase("k")
_I = sp.Symbol("i", integer=True, positive=True)
_J = sp.Symbol("j", integer=True, positive=True)
_DK = sp.Symbol("d_k", positive=True)  # the symbol the formula reader makes of d_k


def _randoms(node: calc.Node, env: dict, scale: sp.Expr = sp.S.One) -> sp.Expr:
    """The argument of E or Var with q_i, k_i entries of two families (each ``scale`` times a
    standard normal) and z = sum_j q_j k_j."""
    inner = {k: v for k, v in env.items() if k not in ("E", "Var")}
    q, k = scale * _Q[_I], scale * _K[_I]
    inner.update({"q_i": q, "k_i": k, "z": sp.Sum(scale**2 * _Q[_J] * _K[_J], (_J, 1, _DK))})
    return calc.exact(calc.dot_products(node), inner)


def _model():
    from ...proof.expectation import Expectation, Family

    return Expectation([Family(_Q, normal=True), Family(_K, normal=True)])


def _expectation(node: calc.Node, env: dict, scale: sp.Expr = sp.S.One) -> sp.Expr:
    from ...proof.expectation import ExpectationError

    try:
        return _model().expect(_randoms(node, env, scale))
    except ExpectationError as exc:
        raise Unreadable(str(exc)) from None


def _variance(node: calc.Node, env: dict, scale: sp.Expr = sp.S.One) -> sp.Expr:
    from ...proof.expectation import ExpectationError

    try:
        return _model().variance(_randoms(node, env, scale))
    except ExpectationError as exc:
        raise Unreadable(str(exc)) from None
