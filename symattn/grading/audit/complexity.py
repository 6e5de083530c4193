"""Complexity claims: ``O(n² d)`` per layer, ``O(1)`` sequential operations, path lengths.

A claim ``O(f)`` is judged against a cost the audit works out itself, in one of two ways:

- **from the products its sentence names**: "an ⟨n × d⟩ matrix is multiplied by a ⟨d × n⟩
  matrix, then the output ⟨n × n⟩ matrix is multiplied by an ⟨n × d⟩ matrix" costs
  n·d·n + n·n·d multiplications (an a × b by b × c product costs a·b·c); a ⟨d × d⟩ matrix
  and a ⟨d⟩-dimensional vector cost d·d;
- **from the layer it speaks of**, by the same counting: self-attention over n tokens of width
  d makes an (n × d)(d × n) and an (n × n)(n × d) product; a recurrent layer, n steps of a
  (d × d) by d product, one after the other; a convolution with kernel k, a (k·d) by (d) product
  at each of n positions, all at once; restricted self-attention over r neighbours, an
  (n × d)(d × r) and an (n × r)(r × d) product. Sequential operations: 1, n, 1, 1; the longest
  path between two positions: 1, n, n/k (log_k n when dilated), n/r.

Two O-classes agree when the ratio of their leading terms is a positive constant. The text's
own letters are kept (n, d, k, r; N or T for the length, D or d_model for the width when the
text writes those).
"""

from __future__ import annotations

import re
from itertools import pairwise

import sympy as sp

from . import calc
from .stated import Unreadable

_n, _d, _k, _r = sp.symbols("n d k r", positive=True)


def product_cost(a: tuple, b: tuple) -> sp.Expr:
    """Multiplications in an (a0 × a1) by (b0 × b1) product, a1 = b0."""
    return a[0] * a[1] * b[1]


#: Per layer: (cost, sequential operations, maximum path length), by the counting above.
LAYERS = {
    "self-attention": (
        product_cost((_n, _d), (_d, _n)) + product_cost((_n, _n), (_n, _d)),
        sp.Integer(1),
        sp.Integer(1),
    ),
    "recurrent": (_n * product_cost((_d, _d), (_d, 1)), _n, _n),
    "convolutional": (_n * product_cost((1, _k * _d), (_k * _d, _d)), sp.Integer(1), _n / _k),
    "restricted": (
        product_cost((_n, _d), (_d, _r)) + product_cost((_n, _r), (_r, _d)),
        sp.Integer(1),
        _n / _r,
    ),
}
_LAYER_WORDS = (
    (r"restricted self-attention|local attention|windowed attention", "restricted"),
    (r"self-attention|attention layer|dot.product attention|scaled dot product attention", "self-attention"),
    (r"\brecurrent|\bRNNs?\b|hidden state", "recurrent"),
    (r"\bconvolution|\bCNNs?\b", "convolutional"),
)
_MEASURES = (
    (r"sequential operations?|steps that cannot be parallel|sequential steps", 1),
    (r"path length", 2),
    (r"complexity|cost|per layer|FLOPs", 0),
)
#: The text's letters for the roles: sequence length, width, kernel, neighbourhood.
#: ``O(...)``, with spaces inside or not (goon's ``\Ocal \left( S^2 \right)``).
_BIG_O = re.compile(r"\s*O\s*\((.*)\)\s*")
_ROLES = {"n": _n, "N": _n, "T": _n, "L": _n, "S": _n, "d": _d, "D": _d, "d_model": _d, "k": _k, "r": _r}
#: "the O(S²) attention scores": what is counted is the scores themselves, one per query and key.
_SCORES = re.compile(
    r"^\s*(?:\w+\s+){0,2}?(?:attention\s+)?(?:scores|logits|weights|probabilities)\b"
    r"|^\s*(?:components|entries|elements)\s+of\s+the\s+attention\s+(?:scores|logits|weights|matrix)",
    re.I,
)
_FUNCTIONS = {"log", "ln", "sqrt", "exp"}


def read_big_o(plain: str, others: bool = False, written: bool = False) -> sp.Expr | None:
    """The argument of ``O(...)`` as SymPy, letters run together read as a product (``knd^2``
    is k·n·d²), or None. Letters other than the roles' (a batch B, heads A) only with
    ``others``, as positive sizes of their own; ``written``: every letter as the text writes
    it (S stays S, not the length n)."""
    m = _BIG_O.fullmatch(plain)
    if m is None:
        return None
    inner = re.sub(
        r"\b([A-Za-z]{2,})\b",
        lambda w: w.group(1) if w.group(1) in _FUNCTIONS else " ".join(w.group(1)),
        m.group(1),
    )
    inner = re.sub(r"log_\(?(\w)\)?\s*\(?(\w)\)?", r"ln(\2)/ln(\1)", inner)
    try:
        members, relations = calc.parse_chain(inner)
        if relations or len(members) != 1:
            return None
        value = calc.exact(members[0], {})
    except (Unreadable, TypeError, ValueError, ZeroDivisionError, AttributeError):
        return None
    if isinstance(value, sp.MatrixBase) or not isinstance(value, sp.Expr):
        return None
    names = {s.name for s in value.free_symbols}
    if not names <= set(_ROLES) and not others:
        return None
    own = {s: sp.Symbol(s.name, positive=True) for s in value.free_symbols}
    roles = own if written else {s: _ROLES.get(s.name, own[s]) for s in value.free_symbols}
    return value.xreplace(roles)


def same_order(a: sp.Expr, b: sp.Expr) -> bool:
    """Whether two costs have one O-class: their leading terms differ by a positive constant."""
    ratio = sp.simplify(_leading(a) / _leading(b))
    return bool(ratio.is_number and ratio.is_positive)


def _leading(e: sp.Expr) -> sp.Expr:
    """The terms of highest total degree, constants dropped (2n²d + n → n²d)."""
    e = sp.expand(e)
    terms = sp.Add.make_args(e)
    if len(terms) == 1:
        return sp.Mul(*[f for f in sp.Mul.make_args(e) if not f.is_number])
    polys = [t for t in terms if t.is_polynomial(*e.free_symbols)] if e.free_symbols else []
    if len(polys) != len(terms):
        return e
    degree = max(sp.Poly(t, *e.free_symbols).total_degree() for t in terms)
    top = sum(t for t in terms if sp.Poly(t, *e.free_symbols).total_degree() == degree)
    return sp.Mul(*[f for f in sp.Mul.make_args(sp.factor(top)) if not f.is_number])


def products_named(text: str) -> sp.Expr | None:
    """The cost of the products a passage names by their shapes (``⟨n × d⟩`` ... multiplied by
    ``⟨d × n⟩``; a ``⟨d⟩``-dimensional vector), in order; None when it names none."""
    if not re.search(r"multipl|product|times", text, re.I):
        return None
    shapes = []
    for m in re.finditer(r"⟨([^⟨⟩]*)⟩(-dimensional)?", text):
        parts = [p.strip() for p in m.group(1).split("×")]
        if m.group(2) and len(parts) == 1:
            parts = [parts[0], "1"]
        if len(parts) != 2:
            continue
        sizes = []
        for p in parts:
            if p == "1":
                sizes.append(sp.Integer(1))
            elif p in _ROLES:
                sizes.append(_ROLES[p])
            else:
                break
        if len(sizes) == 2:
            shapes.append(tuple(sizes))
    cost, i = sp.Integer(0), 0
    while i + 1 < len(shapes):
        a, b = shapes[i], shapes[i + 1]
        if a[1] == b[0]:
            cost += product_cost(a, b)
            i += 2
        else:
            i += 1
    return cost if cost != 0 else None


def complexity_claims(au, line, add, covered) -> None:
    """Each ``O(...)`` of the line against the products its passage names, else the layer its
    passage speaks of (the sentence, then the paragraph before the formula)."""
    from .match import CERTIFIED, UNCHECKED, WRONG, Claim, inside
    from .said import Math, Said

    for _tex, plain, start, end in line.formulas:
        if inside(covered, start, end) or line.kind == "table":
            continue  # a table's columns say what is measured: not read here
        if _scores_claim(au, line, plain, start, end, add):
            continue
        stated = read_big_o(plain)
        if stated is None:
            continue
        _, b = line.sentence_at(start)
        before = _paragraph_before(au, line, start)
        # the sentence, which may have begun lines before (a paragraph wraps its sentences)
        opening = max((m.end() for m in re.finditer(r"[.;!?]\s", before)), default=0)
        sentence = before[opening:] + line.text[start:end]
        # what is measured: the noun just after ("O(1) sequential operations"), else the
        # nearest named since the formula before ("the maximum path length is O(n/k)")
        own = sentence[: len(sentence) - (end - start)].rsplit("⟩", 1)[-1]
        after = line.text[end:b].split("⟨", 1)[0]
        noun = r"\s*(?:\w+\s+){0,2}?(?:"
        measure = next((i for p, i in _MEASURES if re.match(noun + p + ")", after)), None)
        whole = sentence + line.text[end:b]
        if measure is None:  # the nearest named before it, in its clause, else in its sentence
            hits = [(m.end(), i) for p, i in _MEASURES for m in re.finditer(p, own)]
            hits = hits or [(m.end(), i) for p, i in _MEASURES for m in re.finditer(p, whole)]
            if not hits:
                continue  # "we need O(n/k) layers": no measure named, nothing to compare with
            measure = max(hits)[1]
        want, how = None, ""
        named = products_named(sentence) if measure == 0 else None
        # the formula's own clause (from the formula before it to the one after it) names its
        # layer ("compared to O(n d²) for recurrent layers"); else the sentence, else the
        # paragraph; only a layer its own clause names decides that a claim is wrong
        clause = own + " " + after
        named_after = re.match(r"\s*(?:[\w-]+\s+){0,3}?(?:for|of|in)\s+(.{0,40})", after)
        mine = _layer(named_after.group(1)) if named_after else None  # "O(n) for recurrent layers"
        mine = mine or _layer(own)
        layer = mine or _layer(sentence) or _layer(before[-300:])
        decisive = named is not None or (layer is not None and mine == layer and not _OTHER.search(whole))
        if named is not None:
            want, how = named, "the products its sentence names, a × b by b × c costing a·b·c"
        else:
            if layer is None or _OTHER.search(clause):
                continue
            want = LAYERS[layer][measure]
            what = ("cost", "sequential operations", "maximum path length")[measure]
            how = f"the {what} of a {layer} layer, counted from its products"
        ok = same_order(stated, want)
        if not ok and not decisive:
            why = "complexity: the passage does not say which layer or cost this is: not decided"
            add(Claim(line.number, line.text[start:end], UNCHECKED, None, why, [(start, end)]))
            continue
        add(
            Claim(
                line.number,
                line.text[start:end],
                CERTIFIED if ok else WRONG,
                Said("O(", Math(_leading(want)), ")"),
                f"complexity: {how}",
                [(start, end)],
            )
        )


#: What makes a count of scores other than full attention's: per query, while decoding, in a
#: window, sparse, low-rank or latent variants, or a cost in FLOPs or time.
_NOT_ALL_SCORES = re.compile(
    r"\b(?:per\s+query|each\s+(?:query|new\s+token|token)|decod\w*|cache\w*|window\w*|sparse|linformer|bigbird"
    r"|performer|longformer|reformer|local|latents?|perceiver|cross-attention|low-rank|FLOPs?|time|costs?"
    r"|operations)\b",
    re.I,
)
#: Letters that may count heads or examples beside the sequence's length in a count of scores.
_HEADS_OR_BATCH = {"A", "B", "H", "h"}


def _scores_claim(au, line, plain: str, start: int, end: int, add) -> bool:
    """``O(S²)`` attention scores (per head; ``O(ABS²)`` with the batch and the heads): one score
    for each query and each key, so the count is the square of the sequence's length, times
    letters that count heads or examples, never the width. True when the formula is read so."""
    from .match import Claim
    from .said import Math, Said

    if not _BIG_O.match(plain):
        return False
    after = line.text[end:].split("⟨", 1)[0]
    following = au.doc.next_in_block(line) if len(after.strip()) < 2 else None
    if following is not None:  # the noun wrapped onto the next line
        after += " " + following.text.split("⟨", 1)[0]
    if not _SCORES.search(after) or "attention" not in (line.text + after).lower():
        return False
    from .hedges import hedged

    sentence, _ = au.doc.sentence(line, start)
    if hedged(sentence, denials=False) or _NOT_ALL_SCORES.search(sentence):
        return False  # one query's scores, decoding, a window, a sparse or low-rank variant, a cost
    stated = read_big_o(plain, others=True)
    if stated is None or not (stated.is_Symbol or stated.is_Mul or stated.is_Pow):
        return False
    if {s.name for s in stated.free_symbols} - {_n.name, _d.name, _k.name, _r.name} - _HEADS_OR_BATCH:
        return False  # another letter (latents, a window, a rank): not the scores of full attention
    powers = stated.as_powers_dict()
    ok = powers.get(_n, 0) == 2 and not (stated.free_symbols & {_d, _k, _r})
    length = next((x for x in ("S", "T", "N", "n", "L") if re.search(rf"\b{x}\b", plain)), "n")
    said = Said("O(", Math(sp.Symbol(length) ** 2), ") per head: one score for each query and key")
    rule = "complexity: the attention scores, one for each query and each key"
    add(Claim.judged(line.number, line.text[start:end], ok, said, rule, [(start, end)]))
    return True


RECEPTIVE_RULE = "convolutions: L layers of kernel size k see L(k - 1) + 1 consecutive positions"
_LAYERS_WORDS = {"one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_RECEPTIVE = re.compile(
    r"\b(?P<within>(?:are|is)\s+(?:not\s+)?within|(?:lie|lies)\s+(?:not\s+)?(?:with)?in|outside)\s+the\s+"
    r"receptive\s+field\s+of\s+an?\s+(?P<layers>\d+|one|single|two|three|four|five|six)[- ]layer\s+"
    r"(?:CNN|convolution\w*)\s+with\s+(?:a\s+)?kernel\s+(?:size|width)\s+(?:of\s+)?⟨?\s*(?P<k>\d+)",
    re.I,
)


def receptive_claims(au, line, add, covered) -> None:
    """ "⟨x_1⟩ and ⟨x_5⟩ are within the receptive field of a two-layer CNN with kernel size 3":
    L layers of kernel size k reach L(k − 1) + 1 consecutive positions, so two positions a and b
    are within it when |b − a| + 1 is no more."""
    from .match import CERTIFIED, WRONG, Claim, inside
    from .said import Said

    for here in re.finditer(r"receptive\s+field", line.text, re.I):
        if inside(covered, *here.span()):
            continue
        sentence, at = au.doc.sentence(line, here.start())
        if re.search(
            r"dilat|stride|pool|causal|centred|centered|future|padding", au.doc.block_text(line), re.I
        ):
            continue  # L(k - 1) + 1 holds for plain stacked convolutions only
        m = _RECEPTIVE.search(sentence)
        if m is None or not m.start() <= at < m.end():
            continue  # the sentence wraps: it is read whole, the claim stands where its words are
        positions = [int(x) for x in re.findall(r"⟨\s*[a-z]_\(?(\d+)\)?\s*⟩", sentence[: m.start()])]
        if len(positions) != 2:
            continue
        layers = m.group("layers").lower()
        depth = int(layers) if layers.isdigit() else _LAYERS_WORDS[layers]
        k = int(m.group("k"))
        reach = depth * (k - 1) + 1
        within = abs(positions[1] - positions[0]) + 1 <= reach
        said_within = not re.search(r"\bnot\b|outside", m.group("within"), re.I)
        said = Said(f"{depth} layer{'s' * (depth > 1)} of kernel size {k} see {reach} consecutive positions")
        verdict = CERTIFIED if within == said_within else WRONG
        add(Claim(line.number, here.group(0), verdict, said, RECEPTIVE_RULE, [here.span()]))


#: Costs the layer counts above do not model: memory, caches, decoding, approximations.
_OTHER = re.compile(
    r"memory|cache|decod|linear attention|linformer|performer|reformer|flash|sparse|low-rank|kernel"
    r"|approximat|in (?:the )?sequence length|quadratic|linear in|projection|storage|bandwidth",
    re.I,
)


def _layer(text: str) -> str | None:
    """The kind of layer a passage speaks of last (labels such as ``fig_cnn-rnn`` are names,
    not words; "restricted self-attention" is the restricted kind, not self-attention)."""
    text = re.sub(r"[:\w-]*_[\w:-]*", " ", text)
    found = [(m.start(), m.end(), layer) for p, layer in _LAYER_WORDS for m in re.finditer(p, text, re.I)]
    found = [f for f in found if not any(g[0] <= f[0] and f[1] <= g[1] and g != f for g in found)]
    return max(found)[2] if found else None


def _paragraph_before(au, line, start: int) -> str:
    """The text of the line's paragraph up to ``start`` on the line."""
    out = []
    for x in au.doc.block(line):
        if x is line:
            out.append(x.text[:start])
            break
        out.append(x.text)
    return " ".join(out)


# -- a chain of O-classes, under the sizes the text relates -------------------------------------
CHAIN_RULE = (
    "complexity: a chain of O-classes, each the same order as the next once the sizes the text "
    "relates (S = RI) are put in"
)
#: ``O(IJCH) ~ O(HS^2/R)``: members joined by ~, ≈ or =, each an O(...).
_CHAIN_SPLIT = re.compile(r"\s*(?:~|≈|=)\s*")
#: A relation between sizes the text states: ``S=RI``, ``D = AH``: one capital, a product of capitals.
_SIZES = re.compile(r"^\s*(?P<lhs>[A-Z])\s*=\s*(?P<rhs>[0-9]*\s*[A-Z][A-Z0-9 *·]*)\s*$")
#: Words that make a class depend on more than the letters: a size held fixed, or a limit.
_HELD = re.compile(r"\b(?:fixed|constant|bounded|small|large|≪|≫|gg|ll|negligible|dominat\w*)\b", re.I)


def chain_claims(au, line, add, covered) -> None:
    """``O(IJCH) \\sim O(HS^2/R)`` after ``S=RI`` and ``S=JC``: each neighbour the same order as
    the next once the relations are put in. The exponents of each class's leading monomial are
    compared: their difference must be made of the relations' (a linear combination of them).
    It is wrong when it is not, and every letter it leaves is one the text relates (a letter it
    relates to nothing may be held fixed by words the audit does not read)."""
    from .match import CERTIFIED, WRONG, Claim, inside
    from .said import Math, Said

    for _tex, plain, start, end in line.formulas:
        if inside(covered, start, end) or plain.count("O") < 2:
            continue
        parts = _CHAIN_SPLIT.split(re.sub(r"\(\s*O\s*\)", "O", plain).strip())
        if len(parts) < 2:
            continue
        classes = [read_big_o(p, others=True, written=True) for p in parts]
        if any(c is None for c in classes):
            continue
        sentence, _at = au.doc.sentence(line, start)
        if _HELD.search(sentence):
            continue
        relations = [r for n, r in au.doc.once("size relations", _size_relations) if n < line.number]
        verdicts = [_same_under(a, b, relations) for a, b in pairwise(classes)]
        if None in verdicts:
            continue
        if not all(verdicts) and _held(au, line, start, end, classes, relations, verdicts):
            continue  # a letter left over is given a value or spoken of: it may be held fixed
        k = next((k for k, ok in enumerate(verdicts) if not ok), 0)  # the first pair that differs
        pair = [Said("O(", Math(_leading(c)), ")") for c in classes[k : k + 2]]
        said = Said.join(" is " if all(verdicts) else " is not ", pair)
        if relations:
            said = said + Said(" once ", Said.join(", ", [Math(sp.Eq(a, b)) for a, b in relations]))
        verdict = CERTIFIED if all(verdicts) else WRONG
        add(Claim(line.number, line.text[start:end], verdict, said, CHAIN_RULE, [(start, end)]))


#: Words that hold a size fixed or tie it to another, said before a chain that uses it.
_FIXED = re.compile(
    r"\b(?:held|fixed|constant|chosen|of order|hardware|bounded|given|set to|single|one|"
    r"as (?:wide|long|large) as|equals?|equal to|same as|toy|special case)\b",
    re.I,
)


def _held(au, line, start: int, end: int, classes: list, relations: list, verdicts: list) -> bool:
    """Whether a letter by which two neighbours differ (or one the relations tie to them) is
    given a value, or held fixed in words, before the chain in its paragraph ("with the head
    width held at ⟨H = 64⟩", "⟨R⟩ of order ⟨√S⟩", "for GPT-2 small, ⟨A = 12⟩"): the text may
    then mean the classes to agree."""
    k = verdicts.index(False)
    names = {s.name for s in (_leading(classes[k]) / _leading(classes[k + 1])).free_symbols}
    for a, b in relations:
        tied = {s.name for s in a.free_symbols | b.free_symbols}
        if tied & names:
            names |= tied
    paragraph = au.doc.block_text(line).replace("\n", " ")
    found = paragraph.find(line.text[:start].strip()[-60:]) if line.text[:start].strip() else -1
    before = paragraph[: found + len(line.text[:start].strip()[-60:])] if found >= 0 else line.text[:start]
    before = au.previous_block(line).replace("\n", " ") + " " + before  # said just before, too
    own, _at = au.doc.sentence(line, start)
    if _FIXED.search(own.replace(line.text[start:end], " ")):
        return True  # "for a single head, ...", "... since then the head is as wide as the model"
    for sentence in re.split(r"(?<=[.;:!?])\s+", before):
        for n in names:
            letter = rf"(?<![\w^_]){re.escape(n)}(?![\w(])"
            if re.search(
                rf"⟨\s*{re.escape(n)}\s*(?:=|~|≈)\s*\d|(?<![\w⟨])\b{re.escape(n)}\s*=\s*\d", sentence
            ):
                return True  # given a value
            if _FIXED.search(sentence) and re.search(rf"⟨[^⟨⟩]*{letter}[^⟨⟩]*⟩", sentence):
                return True  # held fixed, or tied, in words
    return False


def _size_relations(doc) -> list[tuple[int, tuple[sp.Expr, sp.Expr]]]:
    """(line, (size, product)) for each relation between sizes the text writes (``S=RI``)."""
    out = []
    for x in doc.lines:
        for _tex, plain, _s, _e in x.formulas:
            m = _SIZES.match(plain)
            if m is None:
                continue
            lhs, rhs = (read_big_o(f"O({m.group(k)})", others=True, written=True) for k in ("lhs", "rhs"))
            if lhs is not None and rhs is not None and lhs != rhs:
                out.append((x.number, (lhs, rhs)))
    return out


def _exponents(e: sp.Expr, letters: list[sp.Symbol]) -> list[sp.Expr] | None:
    """The exponent of each letter in a monomial (its number factor dropped), or None."""
    powers = sp.Mul(*[f for f in sp.Mul.make_args(e) if not f.is_number]).as_powers_dict()
    if any(not (b.is_Symbol and b in letters) for b in powers):
        return None
    return [powers.get(s, 0) for s in letters]


def _same_under(a: sp.Expr, b: sp.Expr, relations: list[tuple[sp.Expr, sp.Expr]]) -> bool | None:
    """Whether two O-classes (monomials at their leading terms) agree once the relations hold:
    True, False, or None when they cannot be compared (a sum left, or a letter left over that
    no relation names)."""
    a, b = _leading(a), _leading(b)
    if len(sp.Add.make_args(a)) > 1 or len(sp.Add.make_args(b)) > 1:
        return None
    letters = sorted(
        set().union(a.free_symbols, b.free_symbols, *(x.free_symbols | y.free_symbols for x, y in relations)),
        key=str,
    )
    ratio = _exponents(a / b, letters)
    rows = [_exponents(x / y, letters) for x, y in relations]
    if ratio is None or any(r is None for r in rows):
        return None
    if not any(ratio):
        return True
    span = sp.Matrix(rows) if rows else sp.zeros(0, len(letters))
    if rows and span.rank() == sp.Matrix([*rows, ratio]).rank():
        return True
    related = set().union(*(x.free_symbols | y.free_symbols for x, y in relations)) if relations else set()
    left = {s for s, k in zip(letters, ratio, strict=True) if k != 0}
    return False if relations and left <= related else None


# -- elements of tensors written in index notation ---------------------------------------------
ELEMENTS_RULE = (
    "complexity: N different tensors in index notation hold N times the product of their indices' "
    "ranges (an index d runs to D)"
)
#: "requires generating ⟨S⟩ different matrices ⟨B^(s)_(d'd)⟩": how many, and one of them.
_DIFFERENT = re.compile(
    r"⟨\s*(?P<n>[A-Z])\s*⟩\s+(?:different|distinct|separate)\s+(?:matrices|tensors|vectors|arrays)\s+"
    r"⟨\s*(?P<tensor>[A-Za-z]\w*(?:\^\(?\w+\)?)?_\(?(?P<indices>[a-z' ]+)\)?)\s*⟩"
)
_ELEMENTS = re.compile(r"^\s*(?:elements|entries)\b(?!\s+of\b)", re.I)
#: "all of the ⟨O(SD^2)⟩ elements": every element of the tensors, not some of each.
_ALL = re.compile(r"\ball\s+(?:of\s+)?(?:the\s+)?$", re.I)


#: "cache the ⟨O(D^2)⟩ ⟨B_(d'd)⟩ matrix": the O-class of one tensor, named right after it.
_TENSOR_AFTER = re.compile(
    r"^\s*⟨\s*(?P<tensor>[A-Za-z]\w*(?:\^\(?\w+\)?)?_\(?(?P<indices>[a-z' ]+)\)?)\s*⟩\s+"
    r"(?:matrix|tensor|array|vector)\b"
)


#: "... memory due to needing to save the attention weights": the elements of the weights.
_KEPT = re.compile(
    r"[^.;⟨]{0,80}?\bdue\s+to\s+(?:needing\s+to\s+|having\s+to\s+)?(?:save|store|saving|storing|keep|keeping)\s+"
    r"the\s+attention\s+(?:weights|map|maps|probabilities)\b",
    re.I,
)
#: "an attention map ⟨w_(bss'a)⟩": the tensor the text names the attention weights.
_WEIGHTS_NAMED = re.compile(
    r"\battention\s+(?:map|weights|probabilities)\s+⟨\s*(?P<tensor>[a-z]\w*_\(?(?P<indices>[a-z' ]+)\)?)\s*⟩"
)


#: Some of a tensor: one sequence's, one position's ("per sequence", "for the current position").
_SOME = re.compile(
    r"\b(?:per(?![- ]layer)|each|every|for\s+(?:the\s+)?(?:current|one|a\s+single|this)|one\s+new|"
    r"at\s+(?:a|one|each)\s+)\b",
    re.I,
)


def _constants(doc) -> dict[sp.Symbol, sp.Expr]:
    """The letters the text gives a number (``E = 4``): constants, not sizes that grow."""
    out = {}
    for m in re.finditer(r"⟨\s*([A-Z])\s*=\s*(\d+(?:\.\d+)?)\s*⟩", doc.text()):
        out[sp.Symbol(m.group(1), positive=True)] = sp.Rational(m.group(2))
    return out


def _attention_weights(doc) -> tuple[int, re.Match] | None:
    """The first tensor the text names its attention weights (or map), with its line."""
    for line in doc.lines:
        m = _WEIGHTS_NAMED.search(line.text)
        if m:
            return line.number, m
    return None


def _named_tensor(au, line, start: int, end: int, plain: str, named: re.Match, add) -> None:
    """ "the ⟨O(D^2)⟩ ⟨B_(d'd)⟩ matrix": its elements, the product of its indices' ranges."""
    from .indices import index_range, index_sizes
    from .match import Claim
    from .said import Math, Said

    stated = read_big_o(plain, others=True, written=True)
    indices = re.findall(r"[a-z]", named.group("indices"))
    sentence, _ = au.doc.sentence(line, start)
    if stated is None or not indices or not set(indices) <= au.index_letters or _SOME.search(sentence):
        return
    sizes = au.doc.once("index sizes", index_sizes)
    count = sp.Mul(*[index_range(x, sizes) for x in indices])
    constants = au.doc.once("constant letters", _constants)  # "E = 4": a constant, no size
    ok = same_order(stated.xreplace(constants), count.xreplace(constants))
    said = Said(named.group("tensor"), " holds ", Math(count), " elements: O(", Math(count), ")")
    add(Claim.judged(line.number, line.text[start:end], ok, said, ELEMENTS_RULE, [(start, end)]))


def elements_claims(au, line, add, covered) -> None:
    """ "generating ⟨S⟩ different matrices ⟨B^s_{d'd}⟩ ... all of the ⟨O(SD^2)⟩ elements": in a
    text in index notation, S matrices whose indices d', d run to D hold S·D² elements."""
    from .match import Claim, inside
    from .said import Math, Said

    if not au.index_letters:
        return
    for _tex, plain, start, end in line.formulas:
        named = _TENSOR_AFTER.match(line.text[end:])
        if named and not inside(covered, start, end):
            _named_tensor(au, line, start, end, plain, named, add)
            continue
        sentence, at = au.doc.sentence(line, start)
        kept = _KEPT.match(sentence, at + end - start)  # right after the formula
        weights = au.doc.once("attention weights named", _attention_weights)
        if kept and weights and not inside(covered, start, end) and weights[0] < line.number:
            _named_tensor(au, line, start, end, plain, weights[1], add)
            continue
        if inside(covered, start, end) or not _ELEMENTS.match(line.text[end:]):
            continue
        sentence, at = au.doc.sentence(line, start)
        if not _ALL.search(sentence[:at]):
            continue  # "the O(D^2) elements of each", "O(SD) nonzero entries": another count
        stated = read_big_o(plain, others=True, written=True)
        if stated is None:
            continue
        before = au.doc.block_text(line).replace("\n", " ")
        found = list(_DIFFERENT.finditer(before))
        if not found:
            continue
        m = found[-1]
        indices = re.findall(r"[a-z]", m.group("indices"))
        if not indices or not set(indices) <= au.index_letters:
            continue
        from .indices import index_range, index_sizes

        sizes = au.doc.once("index sizes", index_sizes)  # e over D/A, where the text says so
        count = sp.Symbol(m.group("n"), positive=True) * sp.Mul(*[index_range(x, sizes) for x in indices])
        ok = same_order(stated, count)
        said = Said(
            m.group("n"),
            " tensors of ",
            Math(count / sp.Symbol(m.group("n"), positive=True)),
            " elements: O(",
            Math(count),
            ")",
        )
        add(Claim.judged(line.number, line.text[start:end], ok, said, ELEMENTS_RULE, [(start, end)]))


SCALING_RULE = (
    "complexity: linearly, quadratically and cubically are degrees 1, 2 and 3 of the O-class said with them"
)
#: "the compute scales cubically ⟨O(N^3)⟩ while the data transfer only scales quadratically ⟨O(N^2)⟩".
_SCALES_AS = re.compile(
    r"\b(?P<what>compute|FLOPs|data(?:\s+transfer)?|memory(?:\s+traffic)?|bytes|cost|time)\s+(?:only\s+)?scales\s+"
    r"(?P<word>linearly|quadratically|cubically)\s+⟨(?P<o>O\s*\([^⟨⟩]*\))⟩",
    re.I,
)
_DEGREE = {"linearly": 1, "quadratically": 2, "cubically": 3}


def scaling_word_claims(au, line, add, covered) -> None:
    """A word for how compute, data or memory grows, with its O-class in one letter: the word's
    degree must be the O-class's (what grows how is the other rules' to read)."""
    from .match import Claim, inside
    from .said import Math, Said

    for m in _SCALES_AS.finditer(line.text):
        stated = read_big_o(m.group("o"), others=True, written=True)
        if stated is None or len(stated.free_symbols) != 1 or inside(covered, *m.span("o")):
            continue
        (n,) = stated.free_symbols
        degree, said_degree = sp.Poly(stated, n).degree(), _DEGREE[m.group("word").lower()]
        ok = degree == said_degree
        said = Said(f"{m.group('word')}: degree {said_degree}; ", Math(stated), f" has degree {degree}")
        add(Claim.judged(line.number, m.group(0), ok, said, SCALING_RULE, [m.span("o")]))
