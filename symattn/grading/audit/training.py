r"""A table of parameters and training FLOPs: a matmul costs 6 FLOPs per parameter per token.

Training multiplies each weight matrix three times per token: the forward product (2 FLOPs per
parameter: a multiply and an add) and the two products of the backward pass (the gradients of
the input and of the weights, 2 each): 6 per parameter per token, the rule the texts state as
"6 · num params · num tokens". A summary table with a column of parameters and one of training
FLOPs restates it row by row:

    | Component | Params per layer | Training FLOPs per layer |
    | MLP       | 3DF              | 18BTDF                   |
    | Attention | 4DNH             | 24BTDNH + 12BT^2NH       |

A reader divides: 18BTDF is 6 · BT · 3DF, BT tokens (what a matmul row's FLOPs over 6 times its
parameters give, where they are the axes of an array the text writes, less one: A[B, T, D]).
A row is certified at 6 per parameter per token and wrong at another number (a vocab row of
12BTDV beside DV parameters is twice the 6BTDV the rule gives). A term that holds no parameters
(attention's dot products, 12BT^2NH) must be a total the audit certified before (the dot
products' own table), equal as it stands or with one length for the other where the text says
they are the same; a row with letters left over otherwise (experts) is not read.

Read only for a table whose header names parameters and training FLOPs, for rows named as
matmul blocks (an MLP, attention, the vocabulary's one matrix, a projection; "Other" rows and
layernorms hold no matmul, an embedding's lookup costs no FLOPs), each cell read in the text's
letters.

The same module reads what follows from such counts: the size an array's shape gives ("an
array of size [2, S, L, K, H] ... the total size of the cache in int8 is 2SLKH"), a share that
"becomes dominant once T>8D" after the ratio it is of, a block that "dominates the FLOPs budget
as long as T < 8D" after such a table, how the share moves as the MLP grows, and the FLOPs of
recomputing the forward pass (6ND to 8ND), the rule of thumb in words ("6 · num params · num
tokens" in training, 2 in a forward pass), and a total stated again ("2·S·L·N·H per cache").
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy as sp

from . import letters
from .context import AuditContext
from .document import Line
from .match import Claim, inside
from .said import Math, Said

RULE = "training FLOPs: a matmul costs 6 FLOPs per parameter per token (2 forward, 4 backward)"
_MATMUL_ROW = re.compile(
    r"^(?:mlp|(?:self-)?attention|vocab\w*|unembed\w*|lm\s+head|projections?|feed-?forward|ffn|qkv)\b", re.I
)
_PARAMS = re.compile(r"\bparam", re.I)
_TRAINING = re.compile(r"\btrain\w*\s+flops?\b", re.I)


def training_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    if line.kind != "table":
        return
    table = au.doc.once("training tables", _tables).get(line.block)
    if table is None:
        return
    params_at, flops_at, tokens = table
    cells = _cells(line.text)
    if len(cells) <= max(params_at, flops_at) or not _MATMUL_ROW.match(_label(cells[0])):
        return
    if _OTHER_CELL.search(cells[params_at] + " " + cells[flops_at]):
        return  # an O-class, experts active or in all, a count per token: not 6 per parameter per token
    params, flops = _read(cells[params_at]), _read(cells[flops_at])
    start = line.text.find(cells[flops_at])
    if params is None or flops is None or start < 0 or inside(covered, start, start + len(cells[flops_at])):
        return
    if _VOCAB.match(_label(cells[0])) and not (
        params.is_Mul and len(params.free_symbols) == 2 and params.as_coeff_Mul()[0] == 1
    ):
        return  # a vocabulary row holds one matrix (an untied embedding adds a lookup, no FLOPs)
    matmuls, rest = _split(flops, tokens * params)
    if matmuls == 0:
        return  # other letters left over (the dot products, experts): another count, not read
    total = _total_before(au, line, rest) if rest != 0 else None
    if rest != 0 and total is None:
        return  # a term that is no product's and no total the text computed: not read
    factor = sp.simplify(matmuls / (tokens * params))
    ok = factor == 6 and (total is None or total[2] == 1)
    rule = 6 * tokens * params
    said = Said("6 · ", Math(tokens), " tokens · ", Math(params), " parameters = ", Math(rule))
    if factor != 6:
        said += Said(f", not {factor} per parameter per token")
    if total is not None:
        said += Said(", plus ", Math(total[3]), f", the total of line {total[0]}{total[1]}")
        if total[2] != 1:
            said += Said(", not ", Math(rest))
    spans = [(start, start + len(cells[flops_at]))]
    at = line.text.find(cells[params_at])
    if at >= 0:  # the row's parameters are the claim's too
        spans.append((at, at + len(cells[params_at])))
    text = f"{cells[params_at]} | {cells[flops_at]}"
    add(Claim.judged(line.number, text, ok, said, RULE, spans))


def _split(flops: sp.Expr, per: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """``flops`` as the terms that are a number of times ``per`` (the products' FLOPs) and the
    rest (``24BTDNH + 12BT^2NH`` over ``BT·4DNH``: 24BTDNH, and 12BT^2NH)."""
    terms = sp.Add.make_args(sp.expand(flops))
    ours = [t for t in terms if sp.simplify(t / per).is_number]
    return sp.Add(*ours), sp.Add(*(t for t in terms if t not in ours))


def _total_before(au: AuditContext, line: Line, rest: sp.Expr) -> tuple[int, str, sp.Expr, sp.Expr] | None:
    """The latest total the audit certified before ``line`` that ``rest`` is, or is a number of
    times (a slip in the coefficient): its line, the premise that makes the letters agree ("with
    S = T", where the text states one), ``rest`` over it, and it as ``rest``'s letters write it."""
    for at, total, _what in reversed(au.totals):
        if at >= line.number:
            continue
        pair = (
            letters.equal_lengths(total, rest, proportional=True)
            if total.free_symbols != rest.free_symbols
            else None
        )
        premise = ""
        if pair is not None and letters.stated_equal(au.doc, *pair) is not None:
            total, premise = (
                total.xreplace({pair[0]: pair[1]}),
                f", with {pair[0]} = {pair[1]} as the text states",
            )
        ratio = sp.simplify(rest / total)
        if ratio.is_number and ratio.is_positive:
            return at, premise, ratio, total
    return None


#: A cell that counts otherwise: an O-class, experts (active or in all), a count per token.
_OTHER_CELL = re.compile(r"\bO\s*\(|\bactive\b|\bexperts?\b|\bper[- ]token\b", re.I)
_VOCAB = re.compile(r"^(?:vocab\w*|unembed\w*|lm\s+head|output\s+embedding)", re.I)


def _tables(doc) -> dict[int, tuple[int, int, sp.Expr]]:
    """For each table with columns of parameters and training FLOPs: (its block, the two columns,
    the tokens), the tokens a matmul row gives (its FLOPs over 6 times its parameters, a product
    of letters) when they are the axes of an array the text writes less one (``A[B, T, D]``: B·T)."""
    from .contractions import _OPERAND, axes_of

    arrays = {
        frozenset(axes)
        for line in doc.lines
        for _tex, plain, _s, _e in line.formulas
        for m in _OPERAND.finditer(plain)
        if (axes := axes_of(m.group("axes"))) and len(axes) >= 2
    }
    out: dict[int, tuple[int, int, sp.Expr]] = {}
    rows: dict[int, list[list[str]]] = {}
    for line in doc.lines:
        if line.kind == "table":
            rows.setdefault(line.block, []).append(_cells(line.text))
    for block, table in rows.items():
        header = table[0]
        params_at = next((i for i, c in enumerate(header) if _PARAMS.search(c)), None)
        flops_at = next((i for i, c in enumerate(header) if _TRAINING.search(c)), None)
        if params_at is None or flops_at is None or any(_OTHER_CELL.search(c) for c in header):
            continue
        for cells in table[1:]:
            if len(cells) <= max(params_at, flops_at) or not _MATMUL_ROW.match(_label(cells[0])):
                continue
            params, flops = _read(cells[params_at]), _read(cells[flops_at])
            tokens = sp.factor(flops / (6 * params)) if params and flops else None
            names = {x.name for x in tokens.free_symbols} if tokens is not None else set()
            monomial = (
                tokens is not None and (tokens.is_Mul or tokens.is_Symbol) and tokens.as_coeff_Mul()[0] == 1
            )
            if monomial and any(len(a) == len(names) + 1 and names < a for a in arrays):
                out[block] = (params_at, flops_at, tokens)
                break
    return out


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def _label(cell: str) -> str:
    return re.sub(r"[*_`]", "", cell).strip()


def _read(cell: str) -> sp.Expr | None:
    """A cell in the text's letters: its words in parentheses dropped, ``\\+`` a plus."""
    text = (
        re.sub(r"\([^()]*[a-z]{3,}[^()]*\)", " ", cell).replace("\\+", "+").replace("⟨", "").replace("⟩", "")
    )
    value = letters.read(text.strip())
    return value if isinstance(value, sp.Expr) and value.free_symbols else None


SIZE_RULE = (
    "sizes: an array of shape [a, b, ...] holds a·b·... entries, each 1 byte in int8, 2 in bf16, 4 in fp32"
)
#: "an array of size ⟨[2, S, L, K, H]⟩": the shape, in its paragraph, before its total size.
_ARRAY_OF = re.compile(r"\b(?:array|tensor)\s+of\s+(?:size|shape)\s+⟨\s*\[(?P<dims>[^\[\]⟨⟩]+)\]\s*⟩")
#: "The total size of the Key-Value cache in int8 is ⟨2SLKH⟩": the total, in a type's bytes.
_TOTAL_SIZE = re.compile(
    r"\b(?:total\s+)?size\s+of\s+(?P<what>[^.⟨⟩]{0,60}?)\s+in\s+(?P<type>int8|bf16|bfloat16|fp16|fp32|float32)"
    r"\s+is\s*$",
    re.I,
)
#: Part of an array, or many of them: "one layer's slice of", "a token's", "all the caches".
_PART_OF = re.compile(r"\b(?:slice|per|one|each|token's|tokens'|all|batch|layer's|entries|caches)\b", re.I)
#: What the sentence says is the array: "Each KV cache is then effectively an array of size".
_SUBJECT = re.compile(
    r"(?:^|[.!?]\s+)(?:Each|The|A|An|Our|This)\s+(?:[\w-]+\s+)*?(?P<noun>[A-Za-z-]+)\s+(?:is|are|forms?)\b[^.]*$"
)
#: "where the 2 accounts for the keys and values", right after the shape: an axis explained.
_ACCOUNTS = re.compile(
    r"\s*where\s+the\s+(?P<n>\d+)\s+accounts\s+for\s+(?:the\s+)?(?P<things>[a-z][\w\s,]*?)(?=[.;])"
)
#: The bytes of an entry in each type a text names.
BYTES = {"int8": 1, "fp8": 1, "bf16": 2, "bfloat16": 2, "fp16": 2, "fp32": 4, "float32": 4}


def size_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "an array of size [2, S, L, K, H] ... The total size ... in int8 is 2SLKH": the product of
    the shape's sizes, times the bytes of the type."""
    for _tex, plain, start, end in line.formulas:
        sentence, at = au.doc.sentence(line, start)
        total = _TOTAL_SIZE.search(sentence[:at])
        if total is None or inside(covered, start, end) or _PART_OF.search(total.group("what")):
            continue  # "one layer's slice of the cache", "a token's entries": part of the array
        paragraph = au.doc.block_text(line).replace("\n", " ")
        head = paragraph[: paragraph.find(sentence.strip()[:40])]
        shapes = list(_ARRAY_OF.finditer(head))
        stated = letters.read(plain)
        sizes = [letters.read(d.strip()) for d in shapes[-1].group("dims").split(",")] if shapes else []
        if not shapes or stated is None or not stated.free_symbols or any(x is None for x in sizes):
            continue  # a figure in digits is another rule's (rounded, it may say the same)
        subject = _SUBJECT.search(head[: shapes[-1].start()])
        if subject is None or subject.group("noun").lower() != total.group("what").split()[-1].lower():
            continue  # the size of another thing than the array shaped (the weights, not the cache)
        count = sp.Mul(*sizes) * BYTES[total.group("type").lower()]
        ok = sp.expand(stated - count) == 0
        said = Said(f"[{shapes[-1].group('dims')}] in {total.group('type')}: ", Math(count), " bytes")
        spans = [(start, end)]
        shape = _ARRAY_OF.search(line.text)  # the shape on this line is the claim's premise
        if shape and shape.start() < start:
            spans.append(shape.span())
            why = _ACCOUNTS.match(line.text, shape.end())
            if why and int(why.group("n")) == len(
                re.split(r",\s*(?:and\s+)?|\s+and\s+", why.group("things"))
            ):
                spans.append(why.span("n"))  # "where the 2 accounts for the keys and values"
        add(Claim.judged(line.number, line.text[start:end], ok, said, SIZE_RULE, spans))
        if ok:
            au.totals.append((line.number, count, total.group("what").split()[-1].lower()))


DOMINANT_RULE = (
    "dominance: a share that dominates past a bound, solved where it equals the rest (SymPy, every "
    "letter a positive size)"
)
#: "attention FLOPs only become dominant during training once T>8D".
_BECOMES = re.compile(
    r"\b(?P<what>attention|MLP|matmul)\s+(?:\w+\s+){0,2}?FLOPs\b[^.;]{0,30}?\bbecomes?\s+dominant\b[^.;⟨]{0,30}?\b(?:once|when|for)\s+"
    r"⟨?\s*(?P<rel>[A-Z]\w*\s*[<>]\s*[\w*^() ]+?)\s*⟩?(?=\s*[.;,]|\s*$)",
    re.I,
)
#: "the MLP block also dominates the FLOPs budget as long as the sequence length ⟨T < 8D⟩".
_DOMINATES = re.compile(
    r"\bthe\s+(?P<row>MLP|attention)\s+block\s+(?:also\s+)?dominates\s+the\s+FLOPs\s+budget\s+as\s+long\s+as\s+"
    r"(?:the\s+[\w\s-]{0,30}?\s+)?⟨(?P<rel>[^⟨⟩]+)⟩",
    re.I,
)
#: "For D ~ 8k, this would be ~64K tokens": the bound's worked instance, in words.
_NUMBER = r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?"
_INSTANCE = re.compile(
    rf"\bFor\s+(?P<letter>[A-Z])\s*[~≈=]\s*(?P<given>{_NUMBER})\s*(?P<gs>[kKM]\b|thousand\b|million\b)?,\s+"
    rf"this\s+(?:would\s+be|is)\s+[~≈]?\s*(?P<value>{_NUMBER})\s*(?P<vs>[kKM]\b|thousand\b|million\b)?"
)


def dominance_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for m in _BECOMES.finditer(line.text):
        ratio = _ratio_before(au, line, m.group("what"))
        bound = _bound(m.group("rel"))
        if ratio is None or bound is None or inside(covered, *m.span("rel")):
            continue
        letter, stated, greater = bound
        at = sp.solve(sp.Eq(ratio, 1), letter)  # where the share equals the rest
        if len(at) != 1 or not sp.diff(ratio, letter).is_positive:
            continue
        ok = greater and sp.simplify(at[0] - stated) == 0
        said = Said(Math(ratio), " > 1 exactly when ", Math(sp.StrictGreaterThan(letter, at[0])))
        add(Claim.judged(line.number, m.group(0), ok, said, DOMINANT_RULE, [m.span("rel")]))
        instance = _INSTANCE.search(line.text, m.end())
        if ok and instance and instance.group("letter") in {s.name for s in at[0].free_symbols}:
            _instance(line, instance, letter, at[0], add)
    for m in _DOMINATES.finditer(line.text):
        bound = _bound(m.group("rel"))
        rows = _rows_before(au, line)
        if (
            bound is None
            or rows is None
            or m.group("row").lower() not in rows
            or inside(covered, *m.span("rel"))
        ):
            continue
        letter, stated, greater = bound
        stated = letters.assumed(stated, au.relations)  # in the letters the rows are in
        own = rows[m.group("row").lower()]
        bounds = set()
        for name, flops in rows.items():  # larger than each other block, up to where it is not
            if name != m.group("row").lower():
                roots = [r for r in sp.solve(sp.Eq(own, flops), letter) if r.is_positive is not False]
                bounds |= {sp.simplify(r) for r in roots}
        if len(bounds) != 1:
            continue
        (at,) = bounds
        # which side of the bound the block is the largest on: far past it, where it grows fastest
        far = {x: 2 for x in own.free_symbols if x != letter} | {letter: 10**6}
        others = [f for n, f in rows.items() if n != m.group("row").lower()]
        largest_far = all(own.xreplace(far) > f.xreplace(far) for f in others)
        ok = greater == largest_far and sp.simplify(at - stated) == 0
        relation = sp.StrictGreaterThan(letter, at) if largest_far else sp.StrictLessThan(letter, at)
        said = Said(f"the {m.group('row')} block is the largest while ", Math(relation))
        span = (m.start("rel") - 1, m.end("rel") + 1)  # the formula, its brackets and all
        add(Claim.judged(line.number, m.group(0), ok, said, DOMINANT_RULE, [span]))


#: "as the MLP size increases, the attention FLOPs become less critical": the share's trend.
_TREND = re.compile(
    r"\bas\s+the\s+(?P<size>(?:MLP|model|hidden)\s+(?:size|width|dimension))\s+(?:increases|grows)\s*,\s+the\s+"
    r"(?P<what>attention|MLP)\s+FLOPs\s+become\s+(?P<dir>less|more)\s+(?:critical|important|dominant)\b",
    re.I,
)


def trend_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "as the MLP size increases, the attention FLOPs become less critical", after the share
    they are of the rest (T/(8D)): its derivative in the width D, by SymPy."""
    for m in _TREND.finditer(line.text):
        ratio = _ratio_before(au, line, m.group("what"))
        width = sp.Symbol(
            "F" if "mlp" in m.group("size").lower() and "F" in str(ratio) else "D", positive=True
        )
        if ratio is None or width not in ratio.free_symbols or inside(covered, *m.span()):
            continue  # the MLP's width F where the ratio writes it, else the model's D
        slope = sp.simplify(sp.diff(ratio, width))
        if slope.is_negative is None:
            continue
        ok = (m.group("dir").lower() == "less") == bool(slope.is_negative)
        falls = f": the share falls as {width} grows" if slope.is_negative else ""
        said = Said(f"d/d{width} ", Math(ratio), " = ", Math(slope), falls)
        add(Claim.judged(line.number, m.group(0), ok, said, DOMINANT_RULE, [m.span("dir")]))


def _bound(text: str) -> tuple[sp.Symbol, sp.Expr, bool] | None:
    """``T>8D``: (T, 8D, True for a lower bound)."""
    m = re.fullmatch(r"\s*([A-Z])\s*([<>])\s*(.+?)\s*", text.replace("*", " ").replace("\\cdot", " "))
    value = letters.read(m.group(3)) if m else None
    if value is None:
        return None
    return sp.Symbol(m.group(1), positive=True), value, m.group(2) == ">"


def _ratio_before(au: AuditContext, line: Line, what: str) -> sp.Expr | None:
    """The last member of the last ratio written before the line whose top names ``what``
    (``attention FLOPs / matmul FLOPs = ... = T/(8D)``), in the text's letters."""
    from . import calc

    for x in reversed([x for x in au.doc.lines if x.number < line.number][-20:]):
        for _tex, plain, _s, _e in reversed(x.formulas):
            top = re.match(r"\s*\(\(\s*([^()]*)\s*\)/\(", plain)
            if not top or what.lower() not in top.group(1).lower():
                continue
            try:
                members, _ = calc.parse_chain(plain)
            except Exception:  # unreadable: no ratio
                return None
            values = [letters.value(m, {}, []) for m in members[1:]]
            if any(v is None for v in values):
                return None
            values = [letters.assumed(v, au.relations) for v in values]
            if any(sp.simplify(v - values[-1]) != 0 for v in values):
                return None  # a ratio whose members do not agree (called wrong where it stands)
            return letters.value(members[-1], {}, [])
    return None


def _rows_before(au: AuditContext, line: Line) -> dict[str, sp.Expr] | None:
    """The per-layer training FLOPs of the last table of them before the line, by block, with the
    relations the text assumed put in (F = 4D, D = NH)."""
    blocks = [b for b in au.doc.once("training tables", _tables) if b < line.block]
    if not blocks:
        return None
    block = max(blocks)
    _, flops_at, _ = au.doc.once("training tables", _tables)[block]
    out = {}
    for x in au.doc.lines:
        cells = _cells(x.text) if x.kind == "table" and x.block == block else []
        if len(cells) > flops_at and "per-layer" not in x.text and _read(cells[flops_at]) is not None:
            out[_label(cells[0]).lower()] = letters.assumed(_read(cells[flops_at]), au.relations)
    return out


def _instance(line: Line, m: re.Match, letter: sp.Symbol, bound: sp.Expr, add: Callable) -> None:
    scale = {None: 1, "k": 1000, "K": 1000, "M": 10**6, "thousand": 1000, "million": 10**6}
    given = sp.Rational(m.group("given").replace(",", "")) * scale[m.group("gs")]
    value = bound.xreplace({sp.Symbol(m.group("letter"), positive=True): given})
    stated = sp.Rational(m.group("value").replace(",", "")) * scale[m.group("vs")]
    ok = abs(value - stated) <= stated / 20  # "~": within 5 %
    said = Said(Math(sp.Eq(letter, bound)), f" at {m.group('letter')} = {given}: ", Math(value))
    add(Claim.judged(line.number, m.group(0), ok, said, DOMINANT_RULE, [m.span("given"), m.span("value")]))


REMAT_RULE = (
    "training FLOPs: of the 6 per parameter per token, 2 are the forward pass; repeating it adds 2 (6 to 8)"
)
#: "This forces us to repeat essentially all forward pass FLOPs in the backward pass, meaning we
#: increase our FLOPs from ⟨6ND⟩ to roughly ⟨8ND⟩".
_REPEAT_FORWARD = re.compile(
    r"\brepeat\w*\s+(?:essentially\s+)?all\s+(?:the\s+)?forward(?:\s+pass)?\s+FLOPs\s+in\s+the\s+backward\s+pass\b",
    re.I,
)
#: Some of the forward pass, or more than once: not the whole pass once more.
_NOT_ONCE = re.compile(
    r"\b(?:twice|two|three|only|of\s+the|prefix|each\s+step|every\s+step|partial\w*|selective\w*)\b", re.I
)
_FROM_TO = re.compile(
    r"\bincrease\s+(?:our\s+|the\s+)?FLOPs\s+from\s+⟨(?P<a>[^⟨⟩]+)⟩\s+to\s+(?P<about>roughly\s+|about\s+|~\s*)?⟨(?P<b>[^⟨⟩]+)⟩",
    re.I,
)


def remat_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """Recomputing the forward pass during the backward pass adds its FLOPs once more: a third of
    the training FLOPs (2 of 6 per parameter per token), so 6ND becomes 8ND."""
    for a, b in line.sentences():
        sentence = line.text[a:b]
        m = _FROM_TO.search(sentence)
        if m is None or not _REPEAT_FORWARD.search(sentence) or inside(covered, a + m.start(), a + m.end()):
            continue
        if _NOT_ONCE.search(sentence):
            continue  # part of the forward pass, or more than once
        before, after = letters.read(m.group("a")), letters.read(m.group("b"))
        if before is None or after is None or before.as_coeff_Mul()[0] != 6:
            continue  # training FLOPs are 6 per parameter per token
        expected = before * sp.Rational(8, 6)  # the forward pass's 2 of every 6, once more
        ok = sp.expand(after - expected) == 0
        said = Said(Math(before), " + ", Math(before / 3), " (the forward pass again) = ", Math(expected))
        add(Claim.judged(line.number, m.group(0), ok, said, REMAT_RULE, [(a + m.start(), a + m.end())]))


THUMB_RULE = (
    "training FLOPs: 6 per parameter per token (a multiply and an add forward, twice that backward); "
    "2 per parameter per token in a forward pass or at inference, 4 in the backward pass"
)
#: Parameters and tokens named in words, as the rule of thumb writes them (num_params, num tokens).
_PARAMS_NAME = r"num_?p_?ar(?:am|ameter)s|n_?params|param(?:eter)?_?count"
_TOKENS_NAME = r"num_?t_?okens|n_?tokens|token_?count"
#: ``6 * num_params * num_tokens``, ``6 * num_parameters`` (per token), in either order.
_THUMB = re.compile(
    rf"^\s*(?P<c>\d+)\s*\*\s*(?:(?P<p>{_PARAMS_NAME})(?:\s*\*\s*(?P<t>{_TOKENS_NAME}))?"
    rf"|(?P<t2>{_TOKENS_NAME})\s*\*\s*(?P<p2>{_PARAMS_NAME}))\s*$",
    re.I,
)
_TRAINING_WORDS = re.compile(r"\btrain(?:ing|ed)?\b", re.I)
_FORWARD_WORDS = re.compile(r"\b(?:inference|forward\s+pass|forward-only|generation)\b", re.I)


def thumb_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """The rule of thumb in words, ``6 · num params · num tokens`` for training (or ``6 · num
    params`` per token): its number against 6, or 2 where the sentence speaks only of a forward
    pass or inference. A sentence that speaks of both, or of neither, is not read."""
    for _tex, plain, start, end in line.formulas:
        m = _THUMB.match(plain)
        if m is None or inside(covered, start, end):
            continue
        a, b = line.sentence_at(start)
        per_token = re.search(r"\b(?:each|every|per)\s+token\b", line.text[a:b], re.I)
        if not (m.group("t") or m.group("t2") or per_token):
            continue  # c · num params, not said per token: another count
        while a > 1 and line.text[:a].rstrip().endswith(":"):
            a = line.sentence_at(len(line.text[:a].rstrip()) - 1)[0]  # "... during training: each token ..."
        words = re.sub(r"⟨[^⟩]*⟩", " ", line.text[a:b])
        training, forward = bool(_TRAINING_WORDS.search(words)), bool(_FORWARD_WORDS.search(words))
        backward = bool(re.search(r"\bbackward\b|\bbackprop", words, re.I))
        if backward and not forward:
            expected, what = 4, "in the backward pass"
        elif training != forward and not backward:
            expected, what = (6, "in training") if training else (2, "forward")
        else:
            continue  # both passes named, or neither: which count is meant is not read
        stated = int(m.group("c"))
        said = Said(f"{expected} FLOPs per parameter per token {what}")
        if stated != expected:
            said += Said(f", not {stated}")
        ok = stated == expected
        add(Claim.judged(line.number, line.text[start:end], ok, said, THUMB_RULE, [(start, end)]))


RESTATED_RULE = (
    "a total the text computed before, stated again (equal, or equal by an equality the text states)"
)


def restated_totals(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """A lone formula in letters that states again a total certified before, of the thing its
    sentence names ("our KV caches are roughly 2·S·L·N·H per cache" after "the total size of the
    cache in int8 is 2SLKH"): certified when equal, or equal with one letter put for another as
    the text says they are ("N and K are the same"). A formula equal to none is not read here."""
    for _tex, plain, start, end in line.formulas:
        if inside(covered, start, end) or re.search(r"[=<>≈≤≥]", plain):
            continue
        stated = letters.read(plain)
        if not isinstance(stated, sp.Expr) or len(stated.free_symbols) < 2:
            continue
        words = line.text[slice(*line.sentence_at(start))].lower()
        for at, total, what in reversed(au.totals):
            if at >= line.number or not re.search(rf"\b{re.escape(what)}(?:e?s)?\b", words):
                continue
            if sp.expand(stated - total) == 0:
                said = Said(Math(total), f", the total of line {at}")
            elif (pair := letters.equal_lengths(total, stated)) and (
                where := letters.stated_equal(au.doc, *pair)
            ):
                said = Said(
                    Math(total), f", the total of line {at}, with {pair[0]} = {pair[1]} (line {where[0]})"
                )
            else:
                continue
            add(Claim.judged(line.number, line.text[start:end], True, said, RESTATED_RULE, [(start, end)]))
            break
