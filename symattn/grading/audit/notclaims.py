"""What a careful reader does not count as a claim, among the numbers no rule bound.

A claim is a statement a reader could check from the text. Some of what holds a number or a
formula is not one, and counting it as an unchecked claim would say the audit failed to check
what there is nothing to check in:

- a **definition**: ``p_{i,2j} = \\sin(i/10000^{2j/d})``, ``\\mathrm{FFN}(x) = \\max(0, xW_1 + b_1)W_2``:
  one name, set equal to what it stands for (a premise of what follows, not a claim);
- a **range of an index**: ``1 \\le i \\le n``: notation;
- **labels and ordinals**: "the 6th and 7th columns", "Layer 3, Head 2", "hidden dimensions 1
  and 2": numbers that name things;
- a **choice the text makes**: "we will use 4 layers with 4 heads", "we split the training set
  into 90 % training, 10 % validation": givens;
- a **figure reported from a run or a dataset**: "~94 % accuracy", "takes 2-3 minutes",
  "600 images for 100 classes": nothing in the text computes it;
- **advice about practice**: "a clip value is usually between 0.5 and 10";
- the **data of a question** the text asks ("**Question 2:** How many FLOPs ... on ``{'X': 4}``?"):
  given to the reader (a relation the question states is still a claim);
- a **condition the text poses**: "subject to the condition that ``∫ q(x) dx = 1``", "a question of
  when ``24BTDNH == 12BT^2NH``": a constraint or a question (an equation set out to be solved,
  "solving ``δL/δq = 0`` yields", stays part of the claim of what it yields).

Each is kept in the report with the verdict ``not a claim`` and its reason, never dropped, and
is not counted among the claims. The rules are conservative: a sentence that also compares,
concludes or counts in words ("so", "i.e.", "twice", "a total of", "=") is left a claim.
"""

from __future__ import annotations

import re

from . import calc
from .document import Line
from .match import KNOWN_SYMBOLS

NOT_A_CLAIM = "not a claim"

DEFINITION = "a definition: a name set equal to what it stands for (a premise, not a claim)"
RANGE = "a range of an index: notation"
LABEL = "numbers that name things (labels, ordinals, indices): not quantities"
CHOICE = "a choice the text makes (a setting, a given): nothing to check"
REPORT = "a figure reported from a run or a dataset: nothing in the text computes it"
ADVICE = "advice about practice: nothing in the text computes it"
CONDITION = "a condition the text poses (a constraint): a premise, not a claim"
QUESTION = "the data of a question the text asks: given to the reader, not claimed"
#: A sentence of a question that asks or sets up: "How many ...", "Say we ...", "Given that ...".
_ASKS = re.compile(
    r"^\W*(?:Question\s+\d+\s*[.:]?\s*)?(?:How|What|Which|Why|When|Where|Is|Are|Does|Do|Can|Say|Suppose|Assume|Consider"
    r"|Imagine|Let|Given)\b",
    re.I,
)


def _gives_data(line: Line, start: int) -> bool:
    """The sentence of a question that holds ``start`` asks, or sets up what it asks about, or
    states a figure without comparing or concluding: its figures are the question's data."""
    a, b = line.sentence_at(start)
    sentence = line.text[a:b]
    return "?" in sentence or bool(_ASKS.match(sentence)) or not _CLAIMING.search(_without_formulas(sentence))


#: A numbered question of a text's problems ("**Question 2:** How many FLOPs ...?").
_QUESTION = re.compile(r"^\s*(?:\*\*)?(?:Question|Problem|Exercise)\s+\d+\s*[.:]?\s*(?:\*\*)?\s*[.:]?\s")

#: Words that make a sentence conclude, compare or count: it stays a claim.
_CLAIMING = re.compile(
    r"\b(?:so|hence|thus|therefore|i\.\s?e\.|e\.\s?g\.|which (?:gives|is|means|makes)|gives?|giving|equals?|"
    r"total|sum|means?|because|since|twice|thrice|half|double[sd]?|triples?|times|factor|"
    r"more|less|fewer|larger|smaller|bigger|higher|lower|faster|slower|cheaper|costlier|exceeds?|"
    r"order of magnitude|proportional|grows?|scales?|quadratic|linear|cubic|"
    r"exactly|at (?:least|most)|ratio|same|only|should|must|differ\w*|equal\w*|compute[sd]?|cost\w*|"
    r"FLOPs?|variance|mean|expect\w*|probabilit\w*|sums? to|adds? up|adds? to|add to|"
    r"nonzero|entries|keeps?|sees?|visible|mistakes?|errors?|into|"
    r"(?:this|that|which|it) (?:is|gives|comes)|attend(?:s|ed)? to|can (?:only )?attend|in all|"
    r"altogether|satisf\w*|stays?|remains?)\b"
    r"|^\W*(?:as|since|because)\b"
    r"|[=≈<>≤≥×·*/+]",
    re.I,
)
#: A choice the text makes: "we will use", "let us set", "is set to".
_CHOICE = re.compile(
    r"\b(?:we|let's|let us)\s+(?:(?:will|'ll|can|now|then|also|first|here|simply|again)\s+)*"
    r"(?:use|set|choose|pick|split|train|rescale|fix|run|stack|initiali[sz]e|sample|generate|create|compare)\b"
    r"|\bis set to\b",
    re.I,
)
#: Two settings side by side, neither computed from the other: "4 layers with 4 heads each"
#: (not "6 layers, 18 sublayers", where the second may be the first's count carried on).
_EACH = re.compile(r"\bwith\s+⟨?\d+⟩?\s+[\w\s-]{1,30}?\beach\b(?!\s*,)", re.I)
#: A figure of a run or a dataset.
_REPORT = re.compile(
    r"\b(?:accurac(?:y|ies)|disk space|free space|trained (?:on|for|with)|took|wall.clock)\b"
    r"|\d[\d.,]*(?:\s*(?:-|–|to)\s*\d[\d.,]*)?\s*(?:minutes?|seconds?|hours?|days?|weeks?)\b",
    re.I,
)
#: What a resource a run needs ("requires >150MB free disk space"): a bound set by the machine.
_NEEDS = re.compile(
    r"\b(?P<verb>requires?|needs?)\s+(?:>|≥|at\s+least\s+|more\s+than\s+|about\s+|~\s*)?\d[\d.,]*\s*"
    r"(?:[KMGT]i?B|bytes)\b(?=\s+(?:of\s+)?(?:free\s+)?(?:disk|memory|RAM|storage|space))",
    re.I,
)
#: A speed another work measured, reported: "it was claimed that this formulation is ~15% faster".
_REPORTED = re.compile(
    r"\b(?:was|were|has\s+been|have\s+been|they|the\s+authors)\s+(?:claimed|reported|measured|observed)\s+"
    r"(?:that\s+)?[^.;]*?\d[\d.]*\s*%\s+(?:faster|slower|speed-?up)\b",
    re.I,
)


def _reported(line: Line, start: int) -> bool:
    a, b = line.sentence_at(start)
    sentence = line.text[a:b]
    plain = re.sub(r"⟨\s*[~≈]?\s*([\d.]+\s*%)\s*⟩", r"\1", sentence)  # ⟨~ 15%⟩ as the words write it
    return bool(_REPORTED.search(plain)) and _figures(plain) == 1


#: A dataset or a trained model described by its figures ("the ImageNet dataset, which contains
#: 1 million images of 1k classes", "the feature dimension is 512 for the ResNet34").
_DESCRIBED = re.compile(
    r"\b(?:dataset|corpus)\s*,?\s+(?:which|that)\s+(?:contains|has|holds|consists)\b"
    r"|\b(?:is|are|has|have)\s+\d[\d,.]*\s+(?:for|in)\s+(?:the\s+)?(?:[A-Z][a-z]+[A-Z]\w*|[A-Z]{2,}[\w-]*)\d+\b",
)
#: Figures of a description that add up or multiply ("1000 classes with 1300 images each", "50k
#: for training and 10k for testing", a total broken down after a colon): a claim.
_BREAKDOWN = re.compile(
    r"\b(?:each|per|overall|total|in\s+all|split\w*|plus|shards?|heads?|blocks?|stages?|i\.\s?e\.)\b|:", re.I
)
#: Advice: a range said to be usual ("usually between 0.5 and 10").
_ADVICE = re.compile(
    r"\b(?:usually|commonly|often|typically|in practice)\b.*\b(?:between|from|around|about)\b", re.I
)
#: A number that names a thing: after a noun that labels, or an ordinal.
_LABEL_BEFORE = re.compile(
    r"(?:\b(?:layers?|heads?|cells?|figures?|fig\.|sections?|chapters?|steps?|images?|tokens?|"
    r"columns?|rows?|positions?|index|equations?|eq\.|exercises?|lines?|dimensions)\s+"
    r"(?:(?:⟨[^⟩]*⟩|\d+)\s*(?:,|and|or|to|-|–)\s*(?:and\s+)?)*⟨?)$",
    re.I,
)
#: An ordinal: 6th, 2nd, or the ``6^{th}`` of LaTeX (read as ``6^(th)``).
_ORDINAL_AFTER = re.compile(
    r"^(?:st|nd|rd|th)\b|^\w*(?:\s*\+\s*\w+)?\)?⟩?\s*\^\s*\(?\s*(?:\(?textrm\)?\s*)?\(?(?:st|nd|rd|th)\b"
)
#: Numbers listed to be named one by one: ``0, 1, …, 7``.
_LISTED = re.compile(r"^\s*-?\d+(?:\s*,\s*-?\d+)*\s*,\s*(?:\.\.\.|…|ldots|cdots)\s*,\s*-?\w+\s*$")


def reason_for(line: Line, spans: list[tuple[int, int]], formula: bool, introduction: str = "") -> str | None:
    """Why the numbers ``spans`` of ``line`` (one formula's when ``formula``, else one
    sentence's) are not a claim, or None when they may be one. ``introduction`` is the text
    before a display (the paragraph that leads into it)."""
    if (
        _QUESTION.match(line.raw)
        and _gives_data(line, spans[0][0])
        and not any(_relating(line, s) for s, _ in spans)
    ):
        return QUESTION  # "**Question 2:** How many FLOPs ... on {'X': 4}?": the learner's data
    if _reported(line, spans[0][0]):
        return REPORT  # "it was claimed that this formulation is ~15% faster": another's measurement
    if formula:
        return _formula_reason(line, spans, introduction)
    if all(_defines_by_look(_formula_at(line, s) or "") for s, _ in spans):
        return DEFINITION  # z_bsd ← Drop(φ(z W^0) W^1): an update, set apart from a sentence
    a, b = line.sentence_at(spans[0][0])
    sentence = line.text[a:b]
    words = _NEEDS.sub(" needs some ", _without_formulas(sentence))  # "requires >150MB": a bound
    if _CLAIMING.search(words) or any(_relating(line, s) for s, _ in spans):
        return None
    if all(_label(line, s, e) or _LISTED.match(_formula_at(line, s) or "") for s, e in spans):
        return LABEL
    if all(_in_range_of_data(line, s, e) for s, e in spans):
        return RANGE  # "a sequence of N numbers between 0 and M", "x[::-1]": what values run over
    figures = _figures(sentence)
    if _CHOICE.search(words) and (figures <= 1 or (figures == 2 and _EACH.search(sentence))):
        return CHOICE  # "we will use 4 layers with 4 heads each": two settings, neither computed
    described = _DESCRIBED.search(words) and figures <= 2 and not _BREAKDOWN.search(sentence)
    if figures > 1 and not described:
        return None  # two figures of a setting or a run may be computed one from the other
    if _ADVICE.search(words):
        return ADVICE
    if _REPORT.search(words) or described:
        return REPORT
    return None


#: A range of two figures counts once: "2-3 minutes", "between 0.5 and 10".
_RANGE_OF_FIGURES = re.compile(r"\d[\d.,]*\s*(?:-|–|to|and)\s*\d[\d.,]*")


#: The values data runs over ("numbers between ⟨0⟩ and ⟨M⟩"), or a slice (``x[::-1]``).
_DATA_RANGE = re.compile(
    r"\b(?:sequences?|random|sampled|drawn|generated)\b[^.;]{0,40}?\bnumbers?\s+(?:between|from)\s+"
    r"(?:⟨[^⟨⟩]*⟩|-?\d+)\s+(?:and|to)\s+(?:⟨[^⟨⟩]*⟩|[\w`-]+)"
    r"|\[[^\[\]⟨⟩]*:[^\[\]⟨⟩]*\]"
)


def _in_range_of_data(line: Line, start: int, end: int) -> bool:
    return any(m.start() <= start and end <= m.end() for m in _DATA_RANGE.finditer(line.text))


def _figures(sentence: str) -> int:
    """How many figures the sentence states, a range of two counted once; names of models and
    chips (P100, TPU v5e, GPT-3) are no figures."""
    text = re.sub(r"\b[A-Za-z]+[-‑]?\d[\w.]*|\bv\d\w*", " ", sentence)
    text = _RANGE_OF_FIGURES.sub(" 0 ", text)
    return len(re.findall(r"(?<![\w.])\d[\d.,]*", text))


def _formula_reason(line: Line, spans: list[tuple[int, int]], introduction: str = "") -> str | None:
    start = spans[0][0]
    found = next(((p, s, e) for _, p, s, e in line.formulas if s <= start < e), None)
    if found is None:
        return None
    plain, s, e = found
    plain = plain.strip().rstrip(".,;")
    if posed(line, s):
        return CONDITION
    lead = re.split(r"(?<=[.!?])\s+", introduction.strip())[-1] if line.kind == "math" else ""
    if _MODELLED.search(lead) and _PROBABILITY.match(plain):
        return DEFINITION  # "... are treated as the logits which predict ...: ⟨p(x | ...) = Softmax z⟩"
    if _ENUMERATED.match(plain):
        return RANGE
    if explained_after_where(line, plain, introduction):
        return DEFINITION
    if _INDEX_VALUE.match(plain) and _ITEM_AFTER.match(line.text[e:]):
        return LABEL  # "the final, ⟨s = -1⟩ token": an index set to the value that names it
    try:
        members, relations = calc.parse_chain(plain)
        why = formula_reason(members, relations)
    except Exception:  # a formula calc does not read: a definition by its look alone
        why = DEFINITION if _defines_by_look(plain) else None
    return why if why and holds_in(line, s, e, why) else None


#: A display introduced by "where" alone: it says what the names of the one before stand for.
_WHERE = re.compile(r"(?:^|\n|[.:]\s+)where\s*:?\s*$", re.I)
#: ``M^(1) = max_j Q * K_j^(1)``: a name (a letter, with an index or a superscript) and what it is.
_NAMED = re.compile(r"^\s*[A-Za-z](?:[_^]\(?\w+\)?)*\s*=\s*[^=<>≤≥≈]*[A-Za-z][^=<>≤≥≈]*$")


def explained_after_where(line: Line, plain: str, introduction: str) -> bool:
    """A display after "where" alone that names what the one before uses: ``M^1 = max_j Q·K_j^1
    and M^2 = max_j Q·K_j^2``, each part a name set equal to a formula in letters."""
    parts = re.split(r"\s+and\s+", plain.strip().rstrip(".,;"))
    return line.kind == "math" and bool(_WHERE.search(introduction)) and all(_NAMED.match(p) for p in parts)


def posed(line: Line, start: int) -> bool:
    """The formula at ``start`` is a condition the sentence poses: "subject to the condition that
    ⟨∫ q = 1⟩"."""
    a, _ = line.sentence_at(start)
    return bool(_POSED.search(line.text[a:start]))


#: A condition the text poses: a constraint.
_POSED = re.compile(
    r"\b(?:subject\s+to\s+(?:the\s+)?(?:conditions?|constraints?)(?:\s+that)?|we\s+(?:impose|require|demand)\s+that"
    r"|under\s+the\s+constraints?(?:\s+that)?|(?:a\s+)?question\s+of\s+(?:when|whether))\s*$",
    re.I,
)
#: A display that says what a model's probability is taken to be: "the outputs are treated as the
#: logits which predict the next token:", then ``p(x_{s+1} = v | ...) = Softmax_v z``.
_MODELLED = re.compile(r"\b(?:treated|interpreted|taken)\s+as\b|\bwe\s+model\b|\bmodell?ed\s+as\b", re.I)
_PROBABILITY = re.compile(r"^\s*[pP]\s*\([^=]*(?:=[^=|]*)?\|[^=]*\)\s*=")
#: An index given a value (``s = -1``), and the thing it then names, right after it.
_INDEX_VALUE = re.compile(r"^[a-z]'?\s*=\s*-?\d+$")
_ITEM_AFTER = re.compile(
    r"^\s*(?:token|position|element|row|column|entry)\b"
)  # one thing named (not "6 heads")


#: Words that make a range of an index say something ("query i attends to the keys 1 ≤ j ≤ i").
_RANGE_SAYS = re.compile(r"\b(?:attend\w*|sees?|mask\w*|keeps?|only|allowed|visible|exactly|when)\b", re.I)


def holds_in(line: Line, start: int, end: int, why: str) -> bool:
    """The formula at ``start:end`` is set apart for ``why`` in its sentence: a definition whose
    sentence neither concludes nor counts, a range of an index the sentence says nothing with."""
    if why == DEFINITION:
        return around_says_nothing(line, start, end)
    if why == RANGE:
        a, b = line.sentence_at(start)
        return not _RANGE_SAYS.search(_without_formulas(line.text[a:start] + " " + line.text[end:b]))
    return True


def around_says_nothing(line: Line, start: int, end: int) -> bool:
    """The words of a definition's sentence neither conclude, compare nor count, and no count
    of things follows the formula ("has ⟨P_d = 3d^2⟩ parameters" is a claim)."""
    a, b = line.sentence_at(start)
    words = _without_formulas(line.text[a:start] + " " + line.text[end:b])
    quantity = _QUANTITY.search(line.text[a:start])
    return not _CLAIMING.search(words) and not _COUNTED.match(line.text[end:b]) and not quantity


#: A quantity named before the formula: "the parameter count ... is ⟨P_d = 3d^2⟩".
_QUANTITY = re.compile(
    r"\b(?:count|number|cost|parameters?|FLOPs?|work|memory|size|entries|pairs|operations|time|"
    r"complexity)\b",
    re.I,
)


#: A noun of things counted, right after a formula: the formula counts them.
_COUNTED = re.compile(
    r"^\s*(?:parameters?|weights?|entries|elements|FLOPs?|flops|operations|bytes|tokens|values|"
    r"multiplications|additions|dimensions|heads|layers)\b",
    re.I,
)


#: Letters for an index, not for a weight or a value (a, w, x are quantities).
_INDEX_LETTERS = set("ijklmnrstbcghpG")


def formula_reason(members: list, relations: list[str]) -> str | None:
    """Why a formula read as ``members`` and ``relations`` is not a claim, or None."""
    if len(members) == 3 and relations in (["≤", "≤"], ["<", "<"], ["≤", "<"], ["<", "≤"]):
        low, middle, high = members
        index = middle[0] == "sym" and middle[1].split("_")[0] in _INDEX_LETTERS
        # 1 ≤ i ≤ n: an index from a first value to a size named by a letter (1 ≤ n ≤ 4096,
        # 0 ≤ a ≤ 1/n bound a quantity: claims)
        sized = high[0] == "sym" or (high[0] in ("add", "sub") and any(x[0] == "sym" for x in high[1:]))
        if index and low in (("num", "0"), ("num", "1"), ("sym", low[1])) and sized:
            return RANGE
    if defines(members, relations):
        return DEFINITION
    return None


def defines(members: list, relations: list[str]) -> bool:
    """``w_k = 1/10000^{2k/d}``, ``FFN(x) = max(0, x W_1 + b_1) W_2 + b_2``: a name of a family,
    indexed or applied, set equal to a formula in its indices or arguments. (A plain name,
    ``FLOPs = 2NPM``, may be a claim about a quantity the text named before: not this.)"""
    if relations != ["="] or len(members) != 2:
        return False
    left, right = members
    if left[0] == "sym" and "_" in left[1]:
        base, sub = left[1].split("_", 1)
        indices = set(re.findall(r"[A-Za-z]\w*", sub))
        if base in KNOWN_SYMBOLS or left[1] in KNOWN_SYMBOLS:
            return False
    elif left[0] == "call" and isinstance(left[1], str) and left[1] not in _OPERATORS:
        args = left[2:]
        if not all(isinstance(a, tuple) and a[0] == "sym" for a in args):
            return False
        indices = {a[1] for a in args}
    else:
        return False
    return bool(indices) and indices <= calc.symbols_of(right)


_OPERATORS = {"E", "Var", "O", "softmax", "exp", "log", "ln", "sin", "cos", "tan", "max", "min", "sqrt"}


_NAME = r"\s*[A-Za-z]\w*(?:_\(+[^=]*?\)+|_\w+)?(?:\([\w, ]*\))?\s*"
#: One name, one '=', then what it stands for, or a case split; or an update (``z ← ...``).
_LOOKS_DEFINED = re.compile(rf"^{_NAME}(?:=\s*[^=<>≤≥≈]+|=\s*begin\(cases\).*|(?:leftarrow|←).*)$")


def _defines_by_look(plain: str) -> bool:
    """``PE_((pos,i)) = begin(cases) ...``, ``z_bsd ← φ(z W)``: a name, then what it stands for
    (or is set to), in the name's indices or arguments when it has any."""
    if not _LOOKS_DEFINED.match(plain) or _ENUMERATED.match(plain):
        return False
    head = re.match(r"\s*([A-Za-z]+)", plain).group(1)
    name, _, right = re.split(r"(=|leftarrow|←)", plain, maxsplit=1)
    indices = set(re.findall(r"[A-Za-z]\w*", name[len(head) + plain.index(head) :]))
    # each index stands in the right side, alone or at the start of a product (xW_1)
    return head not in _OPERATORS and all(re.search(rf"(?<![A-Za-z]){re.escape(i)}", right) for i in indices)


#: ``i = 1, …, h``: an index running over a list.
_ENUMERATED = re.compile(r"^\s*[A-Za-z]\w*\s*=\s*-?\w+\s*,\s*(?:\.\.\.|…|ldots|cdots)\s*,\s*\w+\s*$")


def _label(line: Line, start: int, end: int) -> bool:
    text = line.text
    if _ORDINAL_AFTER.match(text[end:]):
        return True
    return bool(_LABEL_BEFORE.search(text[max(0, start - 80) : start]))


def _formula_at(line: Line, start: int) -> str | None:
    return next((p for _, p, s, e in line.formulas if s <= start < e), None)


def _relating(line: Line, start: int) -> bool:
    return bool(re.search(r"[=≈<>≤≥]", _formula_at(line, start) or ""))


def _without_formulas(sentence: str) -> str:
    """The sentence's words; a formula that is one value (``⟨2⟩``, ``⟨σ^2⟩``) is dropped, one
    that relates or computes is kept for :data:`_CLAIMING` to see."""
    return re.sub(
        r"⟨([^⟩]*)⟩", lambda m: m.group(0) if re.search(r"[=≈<>≤≥×·*/+]", m.group(1)) else " ", sentence
    )
