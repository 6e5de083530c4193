"""Which way a causal mask points: a query may attend to its own key and the keys before it.

A text writes the mask with its own letters for the positions of the query and the key
(Goon's notes: ``q_{bse} k_{bs'ea}``, so ``s`` is the query's position and ``s'`` the key's;
CS231n's ``e_{i,j} = q_j \\cdot k_i``, so ``j`` is the query's and ``i`` the key's). The roles
are read from the text's own product of a query and a key, where each carries one position
index the other does not. Then, in a paragraph about a causal (or future-hiding) mask:

- a condition under which the mask is **0** (or attention is allowed) must put the key at or
  before the query (``0 & s' \\le s``, "zero if s ≥ s'");
- a condition under which the mask is **−∞**, or the weights vanish (``w_{bss'a} = 0`` if
  ``s' > s``), must put the key after the query.

Only the direction is judged (≤ or <, ≥ or >): whether a position may attend to itself is the
text's choice. Nothing is judged where the text gives no product of a query and a key to read
the roles from.

A sentence that masks a triangle of the score matrix ("sets the lower-triangular part of the
alignment matrix to negative infinity") is judged the same way, once the text has said which
index of an entry is its row: the entry it defines by the product (``e_{i,j} = q_j · x_i``,
rows by ``i``). Where the rows run over the keys, the keys after the query lie below the
diagonal (the lower triangle is masked); where they run over the queries, above it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .context import AuditContext
from .document import Line
from .hedges import hedged
from .match import Claim, inside
from .said import Said

_CAUSAL = re.compile(r"\b(?:causal\w*|future|autoregressive\w*|look(?:ing)?[- ]ahead|next token)\b", re.I)
#: A query and a key with their subscripts, in a product: q_(bse) k_(bs'ea), q_j * k_i.
_QK = re.compile(r"\bq_(\([^()]*\)|[\w']+)[^⟨⟩=]{0,12}?\bk_(\([^()]*\)|[\w']+)")
_QX = re.compile(r"\bq_(\([^()]*\)|[\w']+)[^⟨⟩=]{0,12}?\bx_(\([^()]*\)|[\w']+)")
#: An entry of the score matrix defined by a product of a query and a key: e_(i,j) = q_j * x_i / ...
_ENTRY = re.compile(
    r"⟨\s*[a-zA-Z]_\(?\s*(\w)\s*,?\s*(\w)\s*\)?\s*=(?P<product>[^⟨⟩=]*\bq_(?P<q>\w)[^⟨⟩=]{0,12}?\b[kx]_(?P<k>\w))"
)
#: "sets the lower-triangular part (of the matrix) to negative infinity": the part masked.
_TRIANGLE = re.compile(
    r"\b(?:sets?|setting|fills?|filling|masks?|masking)\s+(?:out\s+)?(?:the\s+)?(?:strictly\s+)?"
    r"(?P<side>lower|upper)[- ]triangular\s+(?:part|entries|half|elements)\b",
    re.I,
)
_TO_NOTHING = re.compile(r"\bto\s+(?:negative\s+infinity|-∞|−∞|-oo|-\s*inf\w*|zero)", re.I)
#: The text says how its matrix is laid out, or draws another: the entry's convention may not hold.
_LAYOUT = re.compile(
    r"transpos|\brows?\s+(?:are|is|run over|per|for each)\s+(?:the\s+)?quer|one\s+row\s+per"
    r"|along\s+the\s+rows|keys?\s+(?:along|on)\s+the\s+rows|queries\s+(?:along|on)\s+the\s+columns"
    r"|QK\^?\(?T|K\^?\(?T\)?\s*Q|in\s+code|last\s+axis|figure|drawn|caption|store",
    re.I,
)
_RELATION = re.compile(r"^\s*=?\s*([A-Za-z]\w*'?)\s*(≤|≥|<|>)\s*([A-Za-z]\w*'?)\s*[,.;]?\s*$")
_FLIP = {"≤": "≥", "≥": "≤", "<": ">", ">": "<"}
#: Before a condition: what holds under it. Masked: −∞, or weights that vanish.
_MASKED = re.compile(
    r"(?:-oo|−∞|-∞|-inf\w*|negative infinity|mask(?:ed)?(?: out)?)\s*⟩?\s*(?:&|for|if|when|whenever)?\s*$",
    re.I,
)
#: A zero just before the condition: "⟨w_ij = 0⟩ if", "is zero if".
_ZERO_BEFORE = re.compile(
    r"⟨\s*(?P<name>[A-Za-z]\w*?)(?:_\S*)?\s*=\s*0\s*⟩\s*(?:for|if|when|whenever)\s*$"
    r"|(?:\b0|\bzero)\s*(?:&|for|if|when|whenever)\s*$",
    re.I,
)

RULE = "causal mask: a query attends to the keys at or before its own position, never after"


def causal_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    roles = au.doc.once("causal roles", lambda doc: _roles(doc.text()))
    if roles is None or not _CAUSAL.search(au.doc.block_text(line) + au.previous_block(line)):
        return
    query, key = roles
    if _OTHER_ORDER.search(au.doc.block_text(line) + au.previous_block(line)):
        return  # a prefix LM, a right-to-left model: another order of what is hidden
    said = Said(f"masked where the key comes after the query ({key} > {query}), allowed up to it")
    for _tex, plain, start, end in line.formulas:
        if inside(covered, start, end):
            continue
        sentence, at = au.doc.sentence(line, start)  # what holds may stand on the line before
        if hedged(sentence):
            continue  # a question, a mistake reported, a denial: not the text's own mask
        ahead = _condition_after(au, line, plain, end, sentence)
        if ahead is not None:  # "⟨w = 0⟩ if ⟨s' > s⟩": one claim, from the value to its condition
            condition, masked, where, span = ahead
            verdict = _verdict(condition, masked, query, key)
            if verdict is not None:
                spans = [(start, end)] + ([span] if where is line else [])
                if where is not line:
                    au.ahead.setdefault(where.number, []).append(span)
                through = where.number if where is not line else 0
                text = line.text[start:end]
                add(Claim.judged(line.number, text, verdict, said, RULE, spans, through=through))
                continue
        verdicts = [_verdict(c, m, query, key) for c, m in _conditions(plain, sentence[:at], sentence)]
        verdicts = [v for v in verdicts if v is not None]
        if verdicts:  # one claim for the formula, wrong if any of its conditions points back
            text = line.text[start:end]
            add(Claim.judged(line.number, text, all(verdicts), said, RULE, [(start, end)]))


#: Another order of what a position may see: a prefix LM, a right-to-left (backward) model.
_OTHER_ORDER = re.compile(
    r"\b(?:prefix|right[- ]to[- ]left|backward\s+(?:LM|language\s+model|model)|bidirectional|anti-?causal)\b",
    re.I,
)
#: A mask added to the scores (0 where allowed, -∞ where masked), said in its sentence.
_ADDITIVE = re.compile(r"-\s*(?:oo|∞|infty|inf)\b|−∞|-∞|negative\s+infinity|\badd(?:s|ed|ing|itive)?\b", re.I)
#: A 0/1 mask the weights are multiplied by (0 where masked).
_KEEP = re.compile(r"\b0\s*/\s*1\b|\bkeep[- ]mask|\bmultipl\w*|\bbinary\b", re.I)
#: Names of weights or probabilities: zero where a key is masked.
_WEIGHT = re.compile(r"^(?:w|a|alpha|α|p|P)$")


def _zero_means(name: str, sentence: str) -> bool | None:
    """What a value of 0 set for ``name`` means: masked (True), allowed (False), or not known
    (a mask or bias not said to be added or multiplied)."""
    if _WEIGHT.match(name):
        return True
    added, kept = bool(_ADDITIVE.search(sentence)), bool(_KEEP.search(sentence))
    return None if added == kept else kept  # both said, or neither: not known


def _verdict(condition: str, masked: bool, query: str, key: str) -> bool | None:
    """Whether masking (``masked``) or allowing the positions ``condition`` names is right."""
    m = _RELATION.match(condition)
    if m is None or {m.group(1), m.group(3)} != {query, key}:
        return None
    relation = m.group(2) if m.group(1) == key else _FLIP[m.group(2)]  # key <rel> query
    after = relation in (">", "≥")
    return after if masked else not after


#: A value set where a condition holds: zero, or minus infinity.
_ZEROED = re.compile(
    r"^\s*(?P<name>[A-Za-z]\w*?|mathrm\(mask\)|mask)(?:_\S+)?\s*=\s*(?P<value>0|-\s*(?:oo|∞|infty|inf))\s*[,.;]?\s*$"
)
_IF = re.compile(r"^\s*(?:if|for|when|whenever)\s+⟨(?P<condition>[^⟨⟩]+)⟩")
_IF_WORD = re.compile(r"\s*(if|for|when|whenever)?\s*")  # the line ends there, the condition wraps
_CONDITION = re.compile(r"^\s*⟨(?P<condition>[^⟨⟩]+)⟩")


def _condition_after(
    au: AuditContext, line: Line, plain: str, end: int, sentence: str
) -> tuple[str, bool, Line, tuple] | None:
    """For ``⟨w = 0⟩ if ⟨s' > s⟩``: the condition, whether the value masks there, the condition's
    line (this one or the next of the paragraph, where the sentence wraps) and its span there."""
    value = _ZEROED.match(plain)
    if value is None:
        return None
    zero = value.group("value") == "0"
    masked = _zero_means(value.group("name"), sentence) if zero else True
    if masked is None:
        return None
    m = _IF.match(line.text[end:])
    if m is not None:
        return (
            m.group("condition"),
            masked,
            line,
            (end + m.start("condition") - 1, end + m.end("condition") + 1),
        )
    word = _IF_WORD.fullmatch(line.text[end:])
    if word is None:
        return None
    block = au.doc.block(line) if line.kind == "prose" else []
    k = next((i for i, x in enumerate(block) if x is line), None)
    if k is None or k + 1 >= len(block):
        return None
    where = block[k + 1]
    m = (_IF if not word.group(1) else _CONDITION).match(where.text)
    if m is None:
        return None
    return m.group("condition"), masked, where, (m.start("condition") - 1, m.end("condition") + 1)


TRIANGLE_RULE = (
    "causal mask: the keys after the query lie below the diagonal where the score matrix's rows run "
    "over the keys, above it where they run over the queries"
)


def _rows_and_roles(au: AuditContext) -> tuple[str, str, str] | None:
    """(the index the score matrix's rows run over, the query's, the key's), when the text says."""
    return au.doc.once("score rows", _score_rows)


def _score_rows(doc) -> tuple[str, str, str] | None:
    """:func:`_rows_and_roles`, read from one and the same entry: the only one the text defines."""
    entries = {(m.group(1), m.group(2), m.group("q"), m.group("k")) for m in _ENTRY.finditer(doc.text())}
    one = entries.pop() if len(entries) == 1 else None
    found = one if one and {one[0], one[1]} == {one[2], one[3]} and one[2] != one[3] else None
    return (found[0], found[2], found[3]) if found else None


AXIS_RULE = "softmax: each query's weights are normalized over the keys, along the score matrix's key axis"
_AXIS = re.compile(
    r"\bsoftmax\b[^.⟨⟩]{0,40}?\b(?P<axis>row|column)[- ]?wise\b|\b(?P<axis2>row|column)[- ]wise\s+softmax\b",
    re.I,
)


def softmax_axis_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "applying the softmax function column-wise to the alignment matrix": where the rows of the
    score matrix run over the keys, each query's scores are a column (column-wise); over the
    queries, a row."""
    known = _rows_and_roles(au)
    if known is None:
        return
    rows, _query, key = known
    for m in _AXIS.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        sentence, _ = au.doc.sentence(line, m.start())
        if hedged(sentence) or _LAYOUT.search(au.doc.block_text(line)) or "jacobian" in sentence.lower():
            continue
        axis = "column" if rows == key else "row"
        said = Said(
            f"each query's scores are a {axis} (rows run over {'keys' if rows == key else 'queries'})"
        )
        ok = (m.group("axis") or m.group("axis2")).lower() == axis
        add(Claim.judged(line.number, m.group(0), ok, said, AXIS_RULE, [m.span()]))


def triangle_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "sets the lower-triangular part of the alignment matrix to negative infinity": the
    triangle masked must hold the keys after each query."""
    known = _rows_and_roles(au)
    if known is None:
        return
    rows, query, key = known
    for m in _TRIANGLE.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        sentence, at = au.doc.sentence(line, m.start())
        context = au.doc.block_text(line) + au.previous_block(line)
        if not _CAUSAL.search(context) or not _TO_NOTHING.search(sentence[at:]):
            continue
        if hedged(sentence) or _LAYOUT.search(au.doc.block_text(line)):
            continue  # "one cannot simply set ...", a bug reported, a matrix laid out another way
        masked = "lower" if rows == key else "upper"
        said = Said(f"the keys after the query ({key} > {query}) lie in the {masked} triangle")
        ok = m.group("side").lower() == masked
        add(Claim.judged(line.number, m.group(0), ok, said, TRIANGLE_RULE, [m.span()]))


def _conditions(plain: str, before: str, sentence: str) -> list[tuple[str, bool]]:
    """(condition, masked) for each condition the formula states: the rows of a case split
    (``0 & s ≤ s'``), or the formula itself when what holds under it stands just before it
    (``⟨w = 0⟩ if ⟨s' > s⟩``, "zero if ⟨s ≥ s'⟩")."""
    cases = re.search(r"begin\(cases\)(.*)end\(cases\)", plain)
    if cases:
        out = []
        for row in re.split(r"\\\\|\\|\bnn\b", cases.group(1)):
            value, _, condition = row.partition("&")
            value = value.strip()
            if value in ("0",):
                out.append((condition, False))
            elif re.fullmatch(r"-\s*(?:oo|∞|infty|inf)", value):
                out.append((condition, True))
        return out
    before = before[-60:]
    if _MASKED.search(before):
        return [(plain, True)]
    zero = _ZERO_BEFORE.search(before)
    if zero:  # "⟨w = 0⟩ if", "the mask is zero if": what a zero means there
        masked = _zero_means(zero.group("name") or _subject(before), sentence)
        return [] if masked is None else [(plain, masked)]
    return []


def _subject(before: str) -> str:
    """What "is zero" is said of: the weights (w) or something else (a mask, a bias)."""
    return "w" if re.search(r"\b(?:weights?|probabilit\w+|attention)\b[^.⟨⟩]{0,30}$", before, re.I) else ""


def _roles(text: str) -> tuple[str, str] | None:
    """(the query's position index, the key's), from the first product of a query and a key in
    which each carries one index the other does not (an input x_i in the key's place, where the
    text scores the inputs themselves, when it writes no key)."""
    for m in [*_QK.finditer(text), *_QX.finditer(text)]:
        q, k = _indices(m.group(1)), _indices(m.group(2))
        only_q, only_k = [x for x in q if x not in k], [x for x in k if x not in q]
        if len(only_q) == 1 and len(only_k) == 1:
            return only_q[0], only_k[0]
        # q_bse k_bs'ea: the key's head index a aside, s and s' are one position primed
        primed = [(x, y) for x in only_q for y in only_k if y in (x + "'", x.rstrip("'"))]
        if len(primed) == 1:
            return primed[0]
    return None


def _indices(sub: str) -> list[str]:
    """``(bs'ea)`` -> b, s', e, a; ``(i, j)`` -> i, j; ``j`` -> j."""
    sub = sub.strip("()")
    if "," in sub:
        return [p.strip() for p in sub.split(",") if p.strip()]
    return re.findall(r"[A-Za-z]'?", sub)
