"""Rules for claims about the worked example, masks, statistics and figures in words.

Each rule is a function ``rule(au, line, add, covered)``: it reads ``line`` (with the
:class:`~symattn.grading.audit.rules.Auditor` ``au`` for the document's facts), passes each claim it
recognises to ``add`` and may mark spans of the line as read (``covered``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy as sp

from . import calc
from .context import AuditContext
from .document import Line, number_spans
from .hedges import hedged
from .match import (
    CERTIFIED,
    UNCHECKED,
    WRONG,
    Claim,
    distance,
    evaluate,
    formula_span,
    inside,
    same,
    stated_vector,
    vector_ok,
)
from .said import Math, Said, Tex
from .stated import Stated, Unreadable, rounds_to


def stage_match(au: AuditContext, line: Line, pos: int, stage: str, vec) -> tuple[bool, Said, str]:
    """(ok, true value, rule) for a vector said to be a row of a stage of the worked example:
    the row the sentence names ("row 1", "token 2"), else the row it is closest to."""
    a, _ = line.sentence_at(pos)
    sentence = line.text[a:pos].lower()
    rows = re.findall(r"\b(?:row|token) (\d+)", sentence)
    row = int(rows[-1]) - 1 if rows else None
    masks = masks_meant(au, line, pos)
    candidates = []
    for mask in masks:
        steps = au.facts.examples[mask]
        name = stage if stage in steps.stages else "scaled"
        m = steps.stages[name]
        for r in range(m.rows) if row is None else [row]:
            if r < m.rows:
                candidates.append((mask, name, r, m.row(r)))
    if not candidates:
        return False, Said("no such row"), "no such row"
    for mask, name, r, values in candidates:
        if vector_ok(values, vec):
            for (text, _), v in zip(vec, values, strict=False):
                au.figures.remember(text, v, line)
            return (
                True,
                Said(Math(values)),
                f"worked example: {name} row {r + 1} ({mask} mask), symattn.core.exact.attention",
            )
    mask, name, r, values = min(candidates, key=lambda c: distance(c[3], vec))
    shown = Said(Math(values), f" ({name} row {r + 1})")
    return False, shown, f"worked example: {name} row {r + 1} ({mask} mask)"


def masks_meant(au: AuditContext, line: Line, pos: int) -> list[str]:
    """The masks a sentence speaks of: none when it says so, causal when its paragraph does."""
    a, b = line.sentence_at(pos)
    sentence = line.text[a:b].lower()
    if re.search(r"without (it|the mask|a mask)|switched off|no mask", sentence):
        return ["none"]
    if "causal" in au.doc.block_text(line).lower():
        return ["causal"]
    return ["causal", "none"]


def bind_output(au: AuditContext, line, start, members, stated_i):
    """A chain ending in a vector that the sentence calls a token's output."""
    if stated_i is None or not au.facts.examples:
        return None
    vec = stated_vector(members[stated_i])
    if vec is None:
        return None
    a, _ = line.sentence_at(start)
    before = line.text[a:start].lower()
    if not re.search(r"output\b[^⟨]*$", before):
        return None
    return stage_match(au, line, start, "output", vec)


def stage_vectors(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "the rows become [-12.73, 0] and [0, 1.414]": a vector of the example's stage named last."""
    if not au.example_context(line):
        return
    for _tex, plain, start, end in line.formulas:
        if inside(covered, start, end):
            continue
        try:
            members, relations = calc.parse_chain(plain)
        except Unreadable:
            continue
        vec = stated_vector(members[0]) if not relations else None
        if vec is None:
            continue
        stage = stage_word(line.text[:start])
        if stage is None:
            continue
        ok, value, rule = stage_match(au, line, start, stage, vec)
        add(Claim.judged(line.number, line.text[start:end], ok, value, rule, [(start, end)]))


def example_scalars(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """A decimal said of the example ("the very negative score -12.73", "a gap of 12.7")."""
    if not au.example_context(line):
        return
    quantities = example_quantities(au)
    for start, end in number_spans(line.text):
        if inside(covered, start, end):
            continue
        text = line.text[start:end]
        if "." not in text and not text.startswith(("-", "−")):
            continue
        before = line.text[max(0, start - 40) : start].lower()
        kind = "gap" if "gap" in before else "score" if "score" in before else None
        if kind is None:
            continue
        stated = Stated.read(text.strip("⟨⟩"))
        pool = [(n, v) for n, v in quantities if (kind == "gap") == n.plain().startswith("gap")]
        span = formula_span(line, start, end)
        hit = next(((n, v) for n, v in pool if rounds_to(v, stated, False)), None)
        if hit:
            au.figures.remember(text.strip("⟨⟩"), hit[1], line)
            add(
                Claim(
                    line.number,
                    text,
                    CERTIFIED,
                    Said(hit[0], " = ", Math(hit[1])),
                    f"worked example: {hit[0].plain()}",
                    [span],
                )
            )
        else:
            n, v = min(pool, key=lambda q: abs(float(sp.N(q[1])) - float(stated.value)))
            add(
                Claim(
                    line.number, text, WRONG, Said(n, " = ", Math(v)), f"worked example: {n.plain()}", [span]
                )
            )


def example_quantities(au: AuditContext) -> list[tuple[Said, sp.Basic]]:
    """The entries of the example's scores and scaled scores, named, and each row's gap."""
    out = []
    for mask, steps in au.facts.examples.items():
        for name in ("scores", "scaled"):
            m = steps.stages[name]
            for r in range(m.rows):
                for c in range(m.cols):
                    entry = Tex(f"{name}[{r + 1},{c + 1}]", rf"\text{{{name}}}_{{{r + 1},{c + 1}}}")
                    out.append((Said(entry), m[r, c]))
                if name == "scaled" and m.cols == 2:
                    out.append((Said(f"gap in scaled row {r + 1}"), abs(m[r, 0] - m[r, 1])))
        if mask == "causal":
            break
    return out


def their_sum(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "... = [1, 4.113], divided by their sum 5.113": the sum of the last vector."""
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
        total = node[1][0]
        for item in node[1][1:]:
            total = ("add", total, item)
        stated = Stated.read(m.group(1))
        value = calc.exact(total, au.env)
        ok = rounds_to(value, stated, False)
        read = au.figures.read(total, line, au.example_context(line)) if not ok else None
        if read is not None:  # the entries as the exact values of the figures they round
            exact = calc.exact(read[0], {**au.env, **read[1]})
            ok = rounds_to(exact, stated, False)
            value = exact if ok else value
        add(
            Claim.judged(
                line.number,
                m.group(0),
                ok,
                Said(Math(value)),
                "arithmetic: the sum of the entries",
                [m.span(1)],
            )
        )


def listed_weights(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "the weights are 0.787, 0.1065 and 0.1065": softmax of the scores the unit gives."""
    m = re.search(r"weights are ((?:⟨[^⟩]*⟩(?:, | and )?)+)", line.text)
    if not m:
        return
    figures = re.findall(r"⟨\s*([-\d.]+)\s*⟩", m.group(1))
    scores = re.search(r"(?:[Ss]cores[^⟨]*|[Ss]oftmax of )⟨\[([-\d, ]+)\]⟩", au.doc.unit_text(line))
    if not scores or len(figures) < 2:
        return
    from ...core.softmax import softmax_rows

    z = [sp.Integer(x) for x in scores.group(1).split(",")]
    weights = list(softmax_rows(sp.Matrix([z])))
    if len(weights) != len(figures):
        return
    wrong = [(f, w) for f, w in zip(figures, weights, strict=True) if not rounds_to(w, Stated.read(f), False)]
    if not wrong:
        for f, w in zip(figures, weights, strict=True):
            au.figures.remember(f, w, line)
    verdict = WRONG if wrong else CERTIFIED
    value = Said.join(", ", (Math(w, 6) for _, w in wrong)) if wrong else Said(Math(sp.Matrix([weights]), 6))
    add(
        Claim(
            line.number,
            m.group(0),
            verdict,
            value,
            f"softmax of the scores {scores.group(1)} (symattn.core.softmax)",
            [m.span(1)],
        )
    )


def typical_score(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "At d_k = 64 a typical score is about ±8": sqrt(d_k), the standard deviation of q.k."""
    if "typical score" not in line.text or re.search(r"divid|scal", line.text):
        return  # after dividing by √d_k the typical score is 1: not the unscaled rule's claim
    for m in re.finditer(r"⟨\s*d_k\s*=\s*(\d+)\s*⟩[^⟨]*?(?:about|is|of)\s*⟨\s*±\s*([\d.]+)\s*⟩", line.text):
        width = int(m.group(1))
        value = sp.sqrt(width)
        ok = rounds_to(value, Stated.read(m.group(2)), False)
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if ok else WRONG,
                Said(Tex(f"√{width}", rf"\sqrt{{{width}}}"), " = ", Math(value)),
                r"typical score: $\sigma = \sqrt{d_k}$, from $\operatorname{Var}(q \cdot k) = d_k$",
                [m.span(2)],
            )
        )


def about(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "⟨e^20⟩ is about 500 million": a formula and a figure in words."""
    pattern = (
        r"⟨([^⟨⟩=≈]*)⟩ (?:is|are|comes out at|is roughly|is nearly) "
        r"(about|roughly|nearly|around|approximately)?\s*"
        r"([\d.,]+)(?![\d.,]*\d)( thousand| million| billion| trillion| percent| per cent|\s?%)?"
        # a figure that is a factor, a part, a difference or carries a unit says something else
        r"(?!\s*(?:times|of\b|lower|higher|more|less|fewer|larger|smaller|bigger|[KMGTP]i?B?\b|kB|bytes"
        r"|[eE][-+]?\d|/|\d|x\b|×))"
    )
    for m in re.finditer(pattern, line.text):
        if inside(covered, *m.span(1)):
            continue
        try:
            members, relations = calc.parse_chain(m.group(1))
        except Unreadable:
            continue
        value = evaluate(members[0], au.env) if not relations else None
        if value is None or isinstance(value, sp.MatrixBase) or value.free_symbols:
            continue
        scale = (m.group(4) or "").strip() or None
        percent = scale in ("percent", "per cent", "%")
        stated = Stated.read(m.group(3).rstrip(".,"), None if percent else scale, percent=percent)
        ok = rounds_to(value, stated, exact_whole=m.group(2) is None)
        unit = f"{stated.digits} significant digit{'s' if stated.digits > 1 else ''}"
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if ok else WRONG,
                Said(Math(value)),
                f"arithmetic: correctly rounded to {unit}" + (f" ({scale})" if scale else ""),
                [(m.start(), m.end())],
            )
        )


#: Words for a ratio: what "⟨a⟩ is <word> ⟨b⟩" says a / b is (an order of magnitude: within a
#: factor of √10 of ten).
_FACTOR_WORDS = {
    "twice": 2, "double": 2, "half": sp.Rational(1, 2), "a third of": sp.Rational(1, 3),
    "a quarter of": sp.Rational(1, 4), "three times": 3, "four times": 4, "ten times": 10,
}  # fmt: skip
_OPERAND = r"⟨(?P<{0}>[^⟨⟩]*)⟩|(?P<{0}n>\d[\d,]*(?:\.\d+)?)"
_FACTOR = re.compile(
    "(?:" + _OPERAND.format("a") + r")\s+(?:is|are|costs?|takes?|needs?|uses?|comes to)\s+"
    r"(?P<about>about |roughly |approximately |nearly |around |some )?"
    r"(?P<word>twice|double|half|a third of|a quarter of|three times|four times|ten times"
    r"|⟨(?P<times>\d+)⟩ times|(?P<timesn>\d+) times|(?P<orders>an|one|two|three) orders? of magnitude"
    r"|(?P<pct>\d+(?:\.\d+)?) ?%)"
    r"\s*(?P<dir>larger|more|bigger|greater|higher|smaller|less|fewer|lower"
    r"|as (?:large|much|many|big|long)|of)?"
    r"\s*(?:than|as|of)?\s+(?:the\s+)?(?:" + _OPERAND.format("b") + ")"
)


#: "the extra factor of ⟨σ^2⟩, i.e., having ⟨σ^4⟩ instead of ⟨σ^2⟩": the factor is B / C.
_FACTOR_INSTEAD = re.compile(
    r"\bfactor\s+of\s+⟨(?P<f>[^⟨⟩]+)⟩\s*,?\s*(?:i\.\s?e\.|that\s+is)\s*,?\s*(?:having|getting|with)\s+"
    r"⟨(?P<b>[^⟨⟩]+)⟩\s+instead\s+of\s+⟨(?P<c>[^⟨⟩]+)⟩"
)


_KEPT = re.compile(r"\b(?:since|as|because)\s+we\s+(?:keep|set|choose|assume)\b[^.;]*")


def _given_in(line: Line, start: int) -> dict:
    """The names the rest of the sentence defines (``⟨d_model = h d_k⟩``), each with its value."""
    _, end = line.sentence_at(start)
    out = {}
    for _tex, plain, s, _e in line.formulas:
        if start <= s < end:
            m = re.fullmatch(r"\s*([A-Za-z]\w*)\s*=\s*([^=<>≈]+?)\s*[.,;]?\s*", plain)
            try:
                value = calc.exact(calc.parse_chain(m.group(2))[0][0], {}) if m else None
            except (Unreadable, TypeError, ValueError, ZeroDivisionError):
                continue
            if isinstance(value, sp.Expr):
                out[sp.Symbol(m.group(1), positive=True)] = value
    return out


def factor_instead(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "A factor of f, i.e. having b instead of c": f = b / c, symbols and all (SymPy); a factor
    down ("by a factor of 4, i.e. H/4 instead of H") is c / b."""
    for m in _FACTOR_INSTEAD.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        try:
            f, b, c = (calc.exact(calc.parse_chain(m.group(k))[0][-1], {}) for k in "fbc")
        except (Unreadable, TypeError, ValueError, ZeroDivisionError):
            continue
        if any(isinstance(x, sp.MatrixBase) or x == 0 for x in (f, b, c)):
            continue
        given = _given_in(line, m.end())  # "since ⟨d_model = h d_k⟩": a name the sentence defines
        b, c = b.subs(given), c.subs(given)
        ratio = sp.simplify(b / c)
        if sp.simplify(ratio - 1 / f) == 0 and sp.simplify(ratio - f) != 0:
            b, c, ratio = c, b, 1 / ratio  # "shrinks by a factor of 4, i.e. H/4 instead of H"
        ok = sp.simplify(ratio - f) == 0
        said = Said(Math(b), " / ", Math(c), " = ", Math(ratio)) + ("" if ok else Said(" ≠ ", Math(f)))
        spans = [m.span()]
        _, end = line.sentence_at(m.start())
        kept = _KEPT.search(line.text, m.end(), end)
        if kept:  # "since we keep σ² close to 1": the premise the sentence gives its reader
            spans += [(kept.start() + a, kept.start() + b) for a, b in number_spans(kept.group(0))]
            said += Said(", with the premise ", kept.group(0).strip())
        add(Claim.judged(line.number, m.group(0), ok, said, "arithmetic: the factor between the two", spans))


def factors(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "⟨a⟩ is twice ⟨b⟩", "half as much as", "three times", "an order of magnitude larger",
    "⟨a⟩ is 35 % of ⟨b⟩": the ratio a / b the words state, with both sides evaluated."""
    for m in _FACTOR.finditer(line.text):
        sides = []
        for key in ("a", "b"):
            text = m.group(key) if m.group(key) is not None else m.group(key + "n")
            try:
                members, _ = calc.parse_chain(text)
            except Unreadable:
                break
            value = evaluate(members[-1], au.env)
            if value is None or isinstance(value, sp.MatrixBase) or value.free_symbols or value == 0:
                break
            sides.append(value)
        if len(sides) < 2:
            continue
        ratio = sides[0] / sides[1]
        word, direction = m.group("word"), m.group("dir") or ""
        down = direction in ("smaller", "less", "fewer", "lower")
        if m.group("orders"):
            k = {"an": 1, "one": 1, "two": 2, "three": 3}[m.group("orders")]
            low, high = sp.Integer(10) ** k / sp.sqrt(10), sp.Integer(10) ** k * sp.sqrt(10)
            ok = bool(low <= (1 / ratio if down else ratio) <= high)
            said = f"a ratio of {k} order{'s' if k > 1 else ''} of magnitude, within a factor of √10"
        else:
            if m.group("pct"):
                factor = sp.Rational(m.group("pct")) / 100
                factor = (
                    1 + factor
                    if direction in ("larger", "more", "bigger", "greater", "higher")
                    else (1 - factor if down else factor)
                )
            else:
                times = m.group("times") or m.group("timesn")
                factor = sp.Integer(times) if times else _FACTOR_WORDS[word]
                if down and factor > 1:
                    continue  # "three times smaller": no agreed meaning, never judged
            approximate = bool(m.group("about")) or any(
                calc.has_decimal(calc.parse_chain(m.group(k) or m.group(k + "n"))[0][-1]) for k in "ab"
            )
            gap = abs(ratio / factor - 1)
            ok = bool(gap <= sp.Rational(1, 4)) if approximate else same(ratio, factor)
            said = "the ratio the words state" + (", about" if approximate else ", exactly")
        add(
            Claim.judged(
                line.number,
                m.group(0),
                ok,
                Said("a ratio of ", Math(ratio)),
                f"arithmetic: {said}",
                [m.span()],
            )
        )


def conventions(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    text = line.text
    m = re.search(r"holds ⟨0⟩ where attention is allowed and ⟨-oo⟩ where", text)
    if m:
        from ...core.masks import Mask

        mat = Mask.parse("causal").exact(3, 3)
        ok = set(mat) == {0, -sp.oo} and mat[0, 0] == 0 and mat[0, 1] == -sp.oo
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if ok else WRONG,
                Said.join(", ", [Math(sp.S.Zero), Math(sp.S.NegativeInfinity)]),
                "mask: symattn.core.masks.Mask.exact",
                [m.span()],
            )
        )
    m = re.search(r"weights that sum to (\d+(?:\.\d+)?)(?![\d.])", text)
    if m:
        z = sp.symbols("z1:4", real=True)
        from ...core.softmax import softmax_rows

        total = sp.simplify(sum(softmax_rows(sp.Matrix([z]))))
        ok = rounds_to(total, Stated.read(m.group(1)))
        add(
            Claim.judged(
                line.number,
                m.group(0),
                ok,
                Said(Math(total)),
                "softmax: a row of weights sums to 1 (SymPy)",
                [m.span(1)],
            )
        )
    m = re.search(r"⟨0/0⟩ = NaN", text)
    if m:
        ok = sp.S.Zero / sp.S.Zero is sp.nan
        add(
            Claim.judged(
                line.number,
                m.group(0),
                ok,
                Said(Math(sp.nan)),
                "arithmetic: SymPy gives nan for 0/0",
                [m.span()],
            )
        )


STAT_WORDS = (
    (
        r"product has variance (\d+)",
        ("call", "Var", ("mul", ("sym", "q_i"), ("sym", "k_i"))),
        Tex("Var(q_i k_i)", r"\operatorname{Var}(q_i k_i)"),
    ),
    (
        r"[Ii]ts mean is (\d+)",
        ("call", "E", ("mul", ("sym", "q_i"), ("sym", "k_i"))),
        Tex("E[q_i k_i]", r"\mathbb{E}[q_i k_i]"),
    ),
    (
        r"factor being a variance of (\d+)",
        ("call", "Var", ("sym", "q_i")),
        Tex("Var(q_i)", r"\operatorname{Var}(q_i)"),
    ),
    (
        r"[Ss]caled scores have variance (\d+)",
        ("call", "Var", ("div", ("sym", "z"), ("call", "sqrt", ("sym", "d_k")))),
        Tex("Var(z/√d_k)", r"\operatorname{Var}(z/\sqrt{d_k})"),
    ),
)


#: "⟨q · k⟩ has mean ⟨0⟩ and variance ⟨d_k⟩", "the dot product ... has zero mean and a variance
#: of ⟨d⟩": the moments of the formula (or of the dot product q · k) just before.
_MOMENTS = re.compile(
    r"(?:⟨(?P<of>[^⟩]*)⟩|\b(?P<dot>[Tt]he(?:ir)? dot product)\b)[^⟨.;]{0,40}?\b(?:has|have|with)\s+"
    r"(?:(?P<zero>zero) mean(?:\s*,?\s*and\s+)?"
    r"|(?:a\s+|an\s+)?(?P<first>mean|expectation|variance)\s+(?:of\s+)?"
    r"⟨(?P<a>[^⟩]*)⟩(?:\s*,?\s*and\s+)?)"
    r"(?:(?:a\s+)?(?P<second>variance|mean)\s+(?:of\s+)?⟨(?P<b>[^⟩]*)⟩)?"
)
#: "we rescale the dot product by ⟨1/√d⟩" where the paragraph wants its variance to be ⟨1⟩.
_RESCALE = re.compile(
    r"\b(?:rescale|scale|multiply|divide)s?\s+(?:the dot products?|the scores?|it|them|⟨q · k⟩)"
    r"\s+by\s+⟨(?P<c>[^⟩]*)⟩"
)


def moments(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "Their dot product ⟨q · k = ∑ q_i k_i⟩ has mean ⟨0⟩ and variance ⟨d_k⟩": E[...] and
    Var(...) of the formula just before, by the text's own statistics."""
    if not au.facts.standard_normal:
        return
    env = au.facts.env_near(au.doc.block_text(line))
    for m in _MOMENTS.finditer(line.text):
        try:
            members, _ = calc.parse_chain(m.group("of") if m.group("of") is not None else "q * k")
        except Unreadable:
            continue
        said = []
        if m.group("zero"):
            said.append(("0", "E", m.span("zero")))
        else:
            said.append((m.group("a"), "Var" if m.group("first") == "variance" else "E", m.span("a")))
        if m.group("b") is not None:
            said.append((m.group("b"), "Var" if m.group("second") == "variance" else "E", m.span("b")))
        for stated, moment, span in said:
            value = evaluate(("call", moment, members[-1]), env)
            try:
                want, _ = calc.parse_chain(stated)
                claimed = evaluate(want[0], env)
            except Unreadable:
                continue
            if value is None or claimed is None or isinstance(value, sp.MatrixBase):
                continue
            name = "the variance" if moment == "Var" else "the mean"
            add(
                Claim(
                    line.number,
                    line.text[m.start() : span[1] + 1].rstrip("⟨"),
                    CERTIFIED if same(value, claimed) else WRONG,
                    Said(name, " = ", Math(value)),
                    r"statistics of independent $\mathcal{N}(0, 1)$ entries (symattn.proof.expectation)",
                    [(span[0] - 1, span[1] + 1) if stated != "0" or not m.group("zero") else span],
                )
            )
    block = au.doc.block_text(line)
    wants_one = re.search(r"variance[^.]{0,80}?(?:remains|is|stays|becomes|be|of) ⟨1⟩", block)
    for m in _RESCALE.finditer(line.text) if wants_one else ():
        try:
            members, _ = calc.parse_chain(m.group("c"))
        except Unreadable:
            continue
        factor = members[-1] if not m.group(0).startswith("divide") else ("div", ("num", "1"), members[-1])
        value = evaluate(("call", "Var", ("mul", factor, ("sym", "z"))), env)
        if value is None or isinstance(value, sp.MatrixBase):
            continue
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if same(value, sp.Integer(1)) else WRONG,
                Said("the variance after scaling = ", Math(value)),
                r"statistics of independent $\mathcal{N}(0, 1)$ entries (symattn.proof.expectation): "
                "the variance of 1 the paragraph asks for",
                [m.span("c")],
            )
        )


def statistics_words(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "Each product has variance 1", "Scaled scores have variance 1": E and Var in words."""
    if not au.facts.standard_normal:
        return
    for pattern, node, name in STAT_WORDS:
        for m in re.finditer(pattern, line.text):
            value = evaluate(node, au.env)
            if value is None:
                continue
            ok = rounds_to(value, Stated.read(m.group(1)))
            add(
                Claim.judged(
                    line.number,
                    m.group(0),
                    ok,
                    Said(name, " = ", Math(value)),
                    r"statistics of independent $\mathcal{N}(0, 1)$ entries (symattn.proof.expectation)",
                    [m.span(1)],
                )
            )


def masks(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for tex, _plain, start, end in line.formulas:
        if "bmatrix" not in tex or inside(covered, start, end):
            continue
        context = au.doc.unit_text(line) + au.doc.block_text(line) + au.previous_block(line)
        claim = mask_claim(line, tex, start, end, context)
        if claim:
            add(claim)
    m = re.search(r"weights are ⟨\[(\d+(?:, ?\d+)*)\]⟩", line.text)
    if (
        m
        and not inside(covered, *m.span())
        and "causal" in au.doc.unit_text(line).lower()
        and "first row" in line.text
    ):
        from ...core.masks import Mask
        from ...core.softmax import softmax_rows

        n = len(m.group(1).split(","))
        s1 = sp.Symbol("s_1", real=True)
        row = softmax_rows(sp.Matrix([[s1] + [sp.S.NegativeInfinity] * (n - 1)]))
        causal_row = Mask.parse("causal").table(n, n)[0]
        ok = [int(x) for x in m.group(1).split(",")] == list(row) and sum(causal_row) == 1
        add(
            Claim.judged(
                line.number,
                m.group(0),
                ok,
                Said(Math(row)),
                "mask: the first causal row keeps key 1 only (symattn.core.softmax)",
                [m.span()],
            )
        )


def stage_word(before: str) -> str | None:
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


def mask_claim(line: Line, tex: str, start: int, end: int, context: str) -> Claim | None:
    from ...core.masks import Mask

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
        return Claim(
            line.number, text, UNCHECKED, None, "a matrix with entries other than 0 and -inf", [(start, end)]
        )
    if "causal" not in context.lower():
        return Claim(line.number, text, UNCHECKED, None, "a mask that is not called causal", [(start, end)])
    n, m = len(values), len(values[0])
    want = Mask.parse("causal").exact(n, m)
    ok = sp.Matrix(values) == want
    return Claim.judged(
        line.number,
        text,
        ok,
        Said(f"causal mask {n}×{m}: ", Math(want)),
        "mask: symattn.core.masks.Mask.exact",
        [(start, end)],
    )


VALID_RULE = "masked softmax: with a valid length L, the weights vanish beyond the L-th column"
_ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip
_BEYOND = re.compile(
    r"\bbeyond\s+the\s+(?P<cols>(?:(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))"
    r"(?:,\s*|\s+and\s+|,\s+and\s+)?)+)\s+columns?\b",
    re.I,
)


#: "only terms within the chosen valid length (2, 6) are nonzero".
_WITHIN = re.compile(
    r"\bonly\s+(?:the\s+)?(?:terms|weights|entries|columns|values)\s+within\s+(?:the\s+)?(?:chosen\s+)?"
    r"valid\s+lengths?\s+(?P<given>⟨[^⟨⟩]*\d[^⟨⟩]*⟩|\d+(?:\s*(?:,|and)\s*\d+)*)\s+(?:are|is|remain|stay)\s+"
    r"(?P<word>nonzero|non-zero|positive|zero)\b",
    re.I,
)


def valid_lengths(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "the attention weights vanish for anything beyond the second and sixth column
    respectively (because of setting the valid length to 2 and 6)": a masked softmax keeps the
    first L columns of a row whose valid length is L, so the columns named, in order, must be
    the valid lengths given in the sentence."""
    for m in _WITHIN.finditer(line.text):  # the weights kept are exponentials: positive
        if inside(covered, *m.span()) or hedged(au.doc.sentence(line, m.start())[0]):
            continue
        kept = m.group("word").lower() != "zero"
        said = Said(
            "a masked softmax gives each column within the valid length a positive weight, the rest 0"
        )
        add(Claim.judged(line.number, m.group(0), kept, said, VALID_RULE, [m.span()]))
    for m in _BEYOND.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        sentence, _ = au.doc.sentence(line, m.start())
        if hedged(sentence) or re.search(
            r"prepend|\bCLS\b|offset|shift|0-based|zero-based|indexed from", sentence, re.I
        ):
            continue  # "do not vanish", a claim reported, columns counted another way
        given = re.search(
            r"valid\s+lengths?\b[^.]*?\b(?:to|of|are|is)\s+((?:⟨\s*\d+\s*⟩|\d+)(?:\s*(?:,|and)\s*(?:⟨\s*\d+\s*⟩|\d+))*)",
            sentence,
            re.I,
        )
        if given is None:
            continue
        lengths = [int(x) for x in re.findall(r"\d+", given.group(1))]
        named = [
            _ORDINAL_WORDS.get(w.lower()) or int(re.match(r"\d+", w).group(0))
            for w in re.findall(
                r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th)",
                m.group("cols"),
                re.I,
            )
        ]
        if len(named) != len(lengths) or (len(named) > 1 and "respectively" not in sentence):
            continue
        said = Said("beyond the valid lengths: columns " + ", ".join(map(str, lengths)))
        # the valid lengths given on this line are the claim's premise, part of it
        at = line.text.find(given.group(1))
        premise = [(at + g.start(), at + g.end()) for g in re.finditer(r"⟨\s*\d+\s*⟩", given.group(1))]
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if named == lengths else WRONG,
                said,
                VALID_RULE,
                [m.span()] + (premise if at >= 0 else []),
            )
        )


#: "even (⟨i mod 2 = 0⟩) and uneven (⟨i mod 2 = 1⟩)": a parity named with its residue.
_PARITY = re.compile(
    r"\b(?P<word>even|odd|uneven)\s*\(\s*⟨\s*(?P<var>[A-Za-z]\w*)\s*(?:mod|%)\s*2\s*=\s*(?P<rest>[01])\s*⟩\s*\)",
    re.I,
)
PARITY_RULE = "parity: an even number leaves 0 when divided by 2, an odd one 1"


def parity(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "even (i mod 2 = 0) and uneven (i mod 2 = 1) hidden dimensionalities": each word
    against the residue written beside it."""
    for m in _PARITY.finditer(line.text):
        span = (m.start("var") - 1, m.end("rest") + 1)
        if inside(covered, *span) or re.search(
            r"\bnot\s+(?:\w+\s+)?$|\bnon-?$", line.text[: m.start("word")]
        ):
            continue  # "the dimensions that are not even (i mod 2 = 1)"
        even = m.group("word").lower() == "even"
        ok = (m.group("rest") == "0") == even
        said = Said(
            f"{m.group('var')} mod 2 = {0 if even else 1} for an {'even' if even else 'odd'} {m.group('var')}"
        )
        add(Claim.judged(line.number, line.text[slice(*span)], ok, said, PARITY_RULE, [span]))


#: "⟨2 · I · J · K⟩, the sum of all the axes": a formula named in words as a sum or a product.
_NAMED_AS = re.compile(
    r"⟨(?P<f>[^⟨⟩]+)⟩\s*,\s*(?:i\.\s?e\.,?\s*|that is,?\s*|which is\s*)?(?:(?:twice|two times)\s+)?"
    r"the\s+(?P<word>sum|product)\s+of\s+(?:all\s+)?(?:the\s+|its\s+)?(?:axes|dimensions|sizes)\b",
    re.I,
)
NAMED_AS_RULE = "words: a formula called the sum or the product of the axes is one (SymPy's reading of it)"


def sum_or_product(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "2 · I · J · K · L · M · N · O, the sum of all the axes" (the JAX scaling book's Q3): the
    formula is a product of the axes (twice it), not their sum."""
    from .letters import read

    for m in _NAMED_AS.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        value = read(m.group("f"))
        if value is None or len(value.free_symbols) < 2:
            continue
        factors = [f for f in sp.Mul.make_args(value) if not f.is_number]
        if isinstance(value, sp.Add):
            terms = sp.Add.make_args(value)
            if not all(
                t.is_Symbol or (t.as_coeff_Mul()[0] > 0 and t.as_coeff_Mul()[1].is_Symbol) for t in terms
            ):
                continue  # I J + K, I - J: neither the sum nor the product of the axes
            kind = "sum"
        elif len(factors) == len(value.free_symbols) and all(f.is_Symbol for f in factors):
            kind = "product"
        else:
            continue
        ok = m.group("word").lower() == kind
        said = Said(Math(value), f" is a {kind} of the axes")
        add(Claim.judged(line.number, m.group(0), ok, said, NAMED_AS_RULE, [m.span()]))


#: "shape ⟨[B, S, T, N]⟩ where B is the batch size, S and T are ..., and H is the number of heads".
_AXES_EXPLAINED = re.compile(
    r"\bshape\s+⟨\s*[\[(](?P<axes>[A-Z](?:\s*,\s*[A-Z])+)[\])]\s*⟩\s*,?\s+where\s+(?P<clause>[^.;:]+)", re.I
)
AXES_RULE = "words: the letters a shape's where-clause explains are its axes"


def axes_explained(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "the QK product has shape [B, S, T, N] where B is the batch size, S and T are the Q and K
    sequence dims, and H is the number of heads" (the JAX scaling book): H is no axis of the
    shape, and N, which is, goes unexplained. Flagged only where an explained letter is not an
    axis; a clause whose letters are all axes is certified for its letters."""
    for m in _AXES_EXPLAINED.finditer(line.text):
        if inside(covered, *m.span("axes")):
            continue
        clause = re.split(r"\bwhere\b|=", m.group("clause"))[
            0
        ]  # "D = H K, where H is ...": another's factors
        if re.search(r"\bnot\b|\bno\s+longer\b|n't\b|\bwithout\b|\bbroadcast", clause, re.I):
            continue  # "H is no longer a separate axis", "B is not needed": letters said not to be axes
        axes = re.findall(r"[A-Z]", m.group("axes"))
        subjects = re.finditer(
            r"(?:^|,\s*(?:and\s+)?|\band\s+)(?P<letters>[A-Z](?:\s*(?:,|and)\s*[A-Z])*)\s+(?:is|are)\b",
            clause,
        )
        explained = [x for g in subjects for x in re.findall(r"[A-Z]", g.group("letters"))]
        if len(explained) < 2:
            continue
        strangers = [x for x in explained if x not in axes]
        verb = "is" if len(strangers) == 1 else "are"
        shape = f"[{', '.join(axes)}]"
        said = Said(
            f"{', '.join(strangers)} {verb} not an axis of {shape}"
            if strangers
            else "each letter explained is an axis"
        )
        span = (m.start("axes") - 2, m.end("axes") + 2)
        add(Claim(line.number, m.group(0)[:80], WRONG if strangers else CERTIFIED, said, AXES_RULE, [span]))


#: "The running denominator ⟨sum_i (q · k_i - running max)⟩": a softmax's denominator, as a formula.
_DENOMINATOR = re.compile(r"\bdenominators?\s+(?:is\s+|of\s+the\s+softmax\s+)?⟨(?P<f>\s*sum[^⟨⟩]*)⟩", re.I)
DENOMINATOR_RULE = "softmax: its denominator sums the exponentials of the scores"


def softmax_denominator(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "L: The running denominator ∑_i (q · k_i − running max)" (the JAX scaling book, a real
    error): a softmax's denominator is ∑_i exp(s_i − m); a sum of the shifted scores themselves is
    none. Read where the text speaks of a softmax or attention, for a sum written as a formula."""
    context = au.doc.block_text(line) + " " + au.previous_block(line)
    if not re.search(r"softmax|attention", context, re.I):
        return
    for m in _DENOMINATOR.finditer(line.text):
        span = (m.start("f") - 1, m.end("f") + 1)
        if inside(covered, *span):
            continue
        summand = re.sub(r"^\s*sum_\(?\w+\)?\s*", "", m.group("f")).strip()
        if re.fullmatch(r"exp\s*\([^()]*\)|e\^\(?[^()]*\)?", summand):
            exponential = True  # one exponential of the scores
        elif re.search(r"max", summand) and not re.search(r"\bexp\b|\be\s*\^|[a-z]+\(", summand):
            exponential = False  # the shifted scores themselves, (q · k_i − running max): no exponential
        else:
            continue  # a name defined elsewhere (∑_j a_j), another normaliser (φ, relu): not read
        said = Said("a softmax's denominator is ∑_i exp(s_i − m), a sum of exponentials")
        add(Claim.judged(line.number, line.text[slice(*span)], exponential, said, DENOMINATOR_RULE, [span]))


#: "L^(2) = sum_i exp(Q * K_i^(2) - max_j Q * K_j^(1))": a chunk's local softmax sum and its max.
_LOCAL_SUM = re.compile(
    r"^\s*(?P<name>[A-Za-z]\w*)\^\(?(?P<c>\w+)\)?\s*=\s*sum_\(?\w+\)?\s*exp\s*\((?P<x>[^()]*?)\^\(?(?P<a>\w+)\)?\s*-\s*"
    r"max_\(?\w+\)?\s*(?P<y>[^()]*?)\^\(?(?P<b>\w+)\)?\s*\)\s*$"
)
#: The combination that rescales each chunk's sum by exp(M^c − max(M^1, M^2)).
_RESCALED = re.compile(r"exp\s*\(\s*M\^\(?\w+\)?\s*-\s*max\s*\(")
LOCAL_RULE = "softmax in chunks: a chunk's local sum subtracts that chunk's own maximum"


def chunk_sums(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """The JAX scaling book's flash attention (a real error): "L^2 = ∑_i exp(Q·K_i^2 − max_j Q·K_j^1)"
    subtracts the first chunk's maximum from the second chunk's scores. The combination that
    follows rescales L^c by exp(M^c − max(M^1, M^2)), which gives the whole sum only when each
    L^c subtracts its own chunk's maximum M^c."""
    for _tex, plain, start, end in line.formulas:
        m = _LOCAL_SUM.match(plain)
        same = [re.sub(r"_\(?\w+\)?|\s", "", m.group(k)) for k in ("x", "y")] if m else []
        if m is None or inside(covered, start, end) or same[0] != same[1]:
            continue  # the sum's scores and the max's must be one family (Q · K_i, Q · K_j)
        if not _RESCALED.search(au.doc.text()):
            continue  # no rescaling by exp(M^c − max(...)) follows: one shared maximum is exact too
        own = m.group("a") == m.group("b") == m.group("c")
        said = Said(
            f"the maximum over chunk {m.group('c')} itself: rescaling by exp(M^c − M) needs each chunk's own"
        )
        add(Claim.judged(line.number, line.text[start:end], own, said, LOCAL_RULE, [(start, end)]))


#: ``L^(text)(combined) = exp(M^(1) - max(M^(1), M^(2))) * L^(1) + ...``: chunks' sums combined.
_COMBINED = re.compile(
    r"^\s*(?P<name>[A-Za-z]\w*)\^\(?(?:text\)?\(?)?(?:combined|total|new|full)\)?\s*=\s*(?P<rhs>.*\bL\^.*)$"
)
#: A chunk's maximum and its local sum, as the plain text writes them: ``M^(1)``, ``L^(2)``.
_CHUNK_NAMES = re.compile(r"\b([ML])\^\(?(\d)\)?")
COMBINED_RULE = (
    "softmax in chunks: with L^c = ∑_(i in c) exp(s_i − M^c), the whole sum is ∑_i exp(s_i − M) over all "
    "chunks, M = max_c M^c (SymPy, three symbolic scores a chunk; a difference confirmed with numbers)"
)


def chunk_combination(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """Chunks' local sums combined into the whole's (``L^combined = exp(M^1 − max(M^1, M^2)) L^1 +
    ...``): the right side as written, each L^c its own chunk's local sum, against the sum over
    every chunk of exp(s − max_c M^c). Proved by SymPy with three symbolic scores a chunk (the
    whole's maximum a symbol of its own); called wrong only where numbers (whole scores, each
    chunk in turn holding the largest, each M^c its chunk's true maximum) give another value. Read
    only where the text defines no L^c otherwise (a sum less the whole's maximum M needs no
    rescaling)."""
    for _tex, plain, start, end in line.formulas:
        m = _COMBINED.match(plain.strip().rstrip(".,;"))
        if m is None or inside(covered, start, end):
            continue
        written = _chunk_expression(m.group("rhs"))
        if written is None:
            continue
        chunks = sorted({int(c) for _, c in _CHUNK_NAMES.findall(m.group("rhs"))})
        if len(chunks) < 2 or not _own_maxima(au, line, chunks):
            continue
        top = _largest_supposed(au, line, chunks)
        if top == 0:
            continue  # an order of the maxima is supposed, but not which is the largest
        verdict = _combination(written, chunks, top)
        if verdict is None:
            continue
        said = Said("the sum over all the chunks' scores of exp(s − max_c M^c)")
        add(Claim.judged(line.number, line.text[start:end], verdict, said, COMBINED_RULE, [(start, end)]))


def _chunk_expression(rhs: str) -> sp.Expr | None:
    """The right side in SymPy, when it holds only exp, max, min, the chunks' M^c and L^c,
    numbers and arithmetic (anything else: None)."""
    text = _CHUNK_NAMES.sub(lambda m: f"{m.group(1)}_{m.group(2)}", rhs)
    text = re.sub(r"\bmax\s*\(", "Max(", re.sub(r"\bmin\s*\(", "Min(", text))
    text = re.sub(r"(?<=[)\w])\s+(?=[A-Za-z(])", " * ", text)  # exp(...) L^(1): a product
    names = set(re.findall(r"[A-Za-z_]\w*", text))
    if not names <= {"exp", "Max", "Min"} | {f"{k}_{d}" for k in "ML" for d in "123456789"}:
        return None
    if not re.fullmatch(r"[\sA-Za-z_0-9()+\-*/,.]*", text):
        return None
    from sympy.parsing.sympy_parser import parse_expr

    symbols = {n: sp.Symbol(n, real=True) for n in names if n[0] in "ML"}
    try:
        return parse_expr(text, local_dict={**symbols, "exp": sp.exp, "Max": sp.Max, "Min": sp.Min})
    except (SyntaxError, TypeError, ValueError):
        return None


def _own_maxima(au: AuditContext, line: Line, chunks: list[int]) -> bool:
    """No L^c is defined before ``line`` other than as a sum less a maximum over one chunk."""
    for x in au.doc.lines:
        if x.number >= line.number:
            break
        for _tex, plain, _s, _e in x.formulas:
            d = re.match(r"^\s*L\^\(?(\d)\)?\s*=", plain)
            if d and int(d.group(1)) in chunks and not _LOCAL_SUM.match(plain):
                return False
    return True


def _largest_supposed(au: AuditContext, line: Line, chunks: list[int]) -> int | None:
    """The chunk whose maximum the text supposes the largest just before ``line`` ("If M^1 ≥ M^2"):
    its number; 0 when it supposes an order that names none; None when it supposes none."""
    lines = [x for x in au.doc.lines if line.number - 8 <= x.number <= line.number]
    text = " ".join(x.text for x in lines)
    pairs = re.findall(r"M\^\(?(\d)\)?\s*(≥|>|>=|\\geq?|≤|<|<=|\\leq?)\s*M\^\(?(\d)\)?", text)
    if not pairs:
        return None
    above = {}
    for a, rel, b in pairs:
        big, small = (a, b) if rel in ("≥", ">", ">=", "\\geq", "\\ge") else (b, a)
        above.setdefault(int(big), set()).add(int(small))
    top = [c for c in chunks if above.get(c, set()) >= set(chunks) - {c}]
    return top[0] if len(top) == 1 else 0


def _combination(written: sp.Expr, chunks: list[int], top: int | None = None) -> bool | None:
    """True when ``written`` is the whole sum (SymPy), False when numbers show it is not, None
    when neither could be shown. ``top``: the chunk whose maximum the text supposes the largest."""
    maxima = {c: sp.Symbol(f"M_{c}", real=True) for c in chunks}
    sums = {c: sp.Symbol(f"L_{c}", real=True) for c in chunks}
    scores = {c: sp.symbols(f"s_{c}_1:4", real=True) for c in chunks}
    whole = sp.Symbol("M", real=True)
    local = {sums[c]: sum(sp.exp(s - maxima[c]) for s in scores[c]) for c in chunks}
    biggest = sp.Max(*maxima.values())
    left = written.xreplace(local).xreplace({biggest: whole})
    if top is not None:  # the largest maximum is the top chunk's, as supposed
        left = left.xreplace({whole: maxima[top]})
        whole = maxima[top]
    right = sum(sp.exp(s - whole) for c in chunks for s in scores[c])
    if sp.expand(sp.powsimp(sp.expand(left - right))) == 0:
        return True
    # numbers: whole scores, each chunk in turn holding the largest; the maxima the chunks' own
    for first in range(len(chunks)):
        if top is not None and chunks[first] != top:
            continue  # only the order the text supposes
        values = {
            s: sp.Integer((k + 1) * j + (4 * len(chunks) if k == first else 2 * k))  # chunks spread apart
            for k, c in enumerate(chunks)
            for j, s in enumerate(scores[c])
        }
        given = {maxima[c]: max(values[s] for s in scores[c]) for c in chunks}
        point = {**values, **given, whole: max(given.values())}
        a = sp.N(written.xreplace(local).xreplace(point), 30)
        b = sp.N(right.xreplace(point), 30)
        if abs(a - b) > sp.Float("1e-20") * abs(b):
            return False
    return None
